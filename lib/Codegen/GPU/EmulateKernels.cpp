//===- EmulateKernels.cpp - Kernels compiled for the GPU emulator ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-emulate-kernels: the kernel modules, lowered to NVVM, compiled
// for the host instead of PTX; what only a GPU has becomes calls of the
// runtime's emulator (lib/Runtime/GPUEmulator.cpp), which runs a block's
// threads as fibers. The codes passed to the emulator are its interface
// (include/OnnxDialect/Runtime/GPUEmulator.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/GPU/Passes.h"
#include "OnnxDialect/Runtime/GPUEmulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUEMULATEKERNELS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The emulator's code of a special register op (`nvvm.read.ptx.sreg.*`),
/// or -1.
int specialRegister(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("nvvm.read.ptx.sreg."))
    return -1;
  return llvm::StringSwitch<int>(name)
      .Case("tid.x", ONNXD_EMU_TID_X)
      .Case("tid.y", ONNXD_EMU_TID_Y)
      .Case("tid.z", ONNXD_EMU_TID_Z)
      .Case("ntid.x", ONNXD_EMU_NTID_X)
      .Case("ntid.y", ONNXD_EMU_NTID_Y)
      .Case("ntid.z", ONNXD_EMU_NTID_Z)
      .Case("ctaid.x", ONNXD_EMU_CTAID_X)
      .Case("ctaid.y", ONNXD_EMU_CTAID_Y)
      .Case("ctaid.z", ONNXD_EMU_CTAID_Z)
      .Case("nctaid.x", ONNXD_EMU_NCTAID_X)
      .Case("nctaid.y", ONNXD_EMU_NCTAID_Y)
      .Case("nctaid.z", ONNXD_EMU_NCTAID_Z)
      .Case("laneid", ONNXD_EMU_LANEID)
      .Case("warpsize", ONNXD_EMU_WARPSIZE)
      .Default(-1);
}

struct GPUEmulateKernels
    : public onnx::impl::GPUEmulateKernelsBase<GPUEmulateKernels> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    OpBuilder builder(ctx);
    b = &builder;
    functions.clear();
    names.clear();
    ptr = LLVM::LLVMPointerType::get(ctx);
    i32 = IntegerType::get(ctx, 32);
    i64 = IntegerType::get(ctx, 64);
    f32 = Float32Type::get(ctx);
    voidType = LLVM::LLVMVoidType::get(ctx);

    // 1. The kernel modules' functions and globals into the host module.
    llvm::StringMap<LLVM::LLVMFuncOp> entries; // "module::kernel" -> entry
    SmallVector<LLVM::LLVMFuncOp> moved;
    SmallVector<LLVM::GlobalOp> globals;
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      std::string prefix =
          ("__onnxd_emu_" + gpuModule.getSymName() + "_").str();
      SmallVector<Operation *> ops = llvm::to_vector(
          llvm::make_pointer_range(gpuModule.getBody()->without_terminator()));
      for (Operation *op : ops) {
        auto name =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (!name || !isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op)) {
          op->emitError("onnx-gpu-emulate-kernels: cannot move ")
              << op->getName() << " out of a kernel module";
          return signalPassFailure();
        }
        // A declaration keeps its name (the host's function of that name,
        // if any, is called).
        if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op); fn && fn.isExternal())
          continue;
        auto renamed = StringAttr::get(ctx, prefix + name.getValue());
        if (failed(SymbolTable::replaceAllSymbolUses(op, renamed, gpuModule)))
          return signalPassFailure();
        SymbolTable::setSymbolName(op, renamed);
      }
      for (Operation *op : ops) {
        if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op); fn && fn.isExternal()) {
          if (module.lookupSymbol(fn.getSymNameAttr()))
            fn.erase();
          else
            fn->moveBefore(gpuModule);
          continue;
        }
        op->moveBefore(gpuModule);
        if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
          globals.push_back(global);
          continue;
        }
        auto fn = cast<LLVM::LLVMFuncOp>(op);
        moved.push_back(fn);
        bool kernel = fn->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
                      fn->hasAttr("nvvm.kernel");
        for (StringRef attr : {"gpu.kernel", "nvvm.kernel", "nvvm.maxntid",
                               "gpu.known_block_size", "gpu.known_grid_size",
                               "nvvm.reqntid", "nvvm.minctasm"})
          fn->removeAttr(attr);
        if (kernel) {
          std::string key =
              (gpuModule.getSymName() +
               "::" + StringRef(fn.getSymName()).drop_front(prefix.size()))
                  .str();
          entries[key] = createEntry(module, fn);
        }
      }
      gpuModule.erase();
    }
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    if (failed(toHostAddressSpace(globals, moved)))
      return signalPassFailure();

    // 2. What only a GPU has, as calls of the emulator.
    for (LLVM::LLVMFuncOp fn : moved)
      if (failed(emulateDeviceOps(module, fn)) ||
          failed(checkSharedAccesses(module, fn)))
        return signalPassFailure();

    // 3. The launches.
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
    for (gpu::LaunchFuncOp launch : launches) {
      std::string key = (launch.getKernelModuleName().getValue() +
                         "::" + launch.getKernelName().getValue())
                            .str();
      auto it = entries.find(key);
      if (it == entries.end()) {
        launch.emitError("onnx-gpu-emulate-kernels: no kernel ") << key;
        return signalPassFailure();
      }
      if (failed(lowerLaunch(module, launch, it->second)))
        return signalPassFailure();
    }
  }

private:
  OpBuilder *b = nullptr;
  Type ptr, i32, i64, f32, voidType;

  /// The emulator's functions and the kernels' name strings, each looked
  /// up or created once (a lookup in the module scans it).
  llvm::StringMap<LLVM::LLVMFuncOp> functions;
  llvm::StringMap<LLVM::GlobalOp> names;

  FailureOr<LLVM::LLVMFuncOp> runtimeFunction(ModuleOp module, StringRef name,
                                              ArrayRef<Type> params,
                                              Type result) {
    LLVM::LLVMFuncOp &fn = functions[name];
    if (fn)
      return fn;
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToEnd(module.getBody());
    FailureOr<LLVM::LLVMFuncOp> created =
        LLVM::lookupOrCreateFn(*b, module, name, params, result);
    if (succeeded(created))
      fn = *created;
    return created;
  }

  Value constant(Location loc, Type type, int64_t value) {
    return LLVM::ConstantOp::create(*b, loc, type,
                                    b->getIntegerAttr(type, value));
  }

  /// The globals of shared (or other device) memory as host memory: one
  /// block runs at a time, so one copy serves every block. Their addresses
  /// (taken in the kernels' functions) are cast back to the device's
  /// address space.
  LogicalResult toHostAddressSpace(ArrayRef<LLVM::GlobalOp> globals,
                                   ArrayRef<LLVM::LLVMFuncOp> functions) {
    llvm::StringSet<> device;
    for (LLVM::GlobalOp global : globals) {
      if (global.getAddrSpace() == 0)
        continue;
      if (global.getLinkage() == LLVM::Linkage::External &&
          !global.getValueOrNull() && global.getInitializerRegion().empty())
        if (auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
            array && array.getNumElements() == 0)
          return global.emitError("onnx-gpu-emulate-kernels: dynamic shared "
                                  "memory is not emulated");
      global.setAddrSpace(0);
      device.insert(global.getSymName());
    }
    if (device.empty())
      return success();
    SmallVector<LLVM::AddressOfOp> addresses;
    for (LLVM::LLVMFuncOp fn : functions)
      fn.walk([&](LLVM::AddressOfOp op) {
        if (device.contains(op.getGlobalName()))
          addresses.push_back(op);
      });
    for (LLVM::AddressOfOp address : addresses) {
      Type deviceType = address.getType();
      address.getResult().setType(cast<LLVM::LLVMPointerType>(ptr));
      b->setInsertionPointAfter(address);
      auto cast = LLVM::AddrSpaceCastOp::create(*b, address.getLoc(),
                                                deviceType, address);
      address.getResult().replaceAllUsesExcept(cast, cast);
    }
    return success();
  }

  /// `void entry(void **params)`: the kernel called with the values the
  /// driver's parameter array points to.
  LLVM::LLVMFuncOp createEntry(ModuleOp module, LLVM::LLVMFuncOp kernel) {
    Location loc = kernel.getLoc();
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointAfter(kernel);
    auto entry = LLVM::LLVMFuncOp::create(
        *b, loc, (kernel.getSymName() + "__entry").str(),
        LLVM::LLVMFunctionType::get(voidType, {ptr}));
    Block *body = entry.addEntryBlock(*b);
    b->setInsertionPointToStart(body);
    SmallVector<Value> args;
    for (auto [i, type] :
         llvm::enumerate(kernel.getFunctionType().getParams())) {
      Value slot = LLVM::GEPOp::create(*b, loc, ptr, ptr, body->getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value address = LLVM::LoadOp::create(*b, loc, ptr, slot);
      args.push_back(LLVM::LoadOp::create(*b, loc, type, address));
    }
    LLVM::CallOp::create(*b, loc, kernel, args);
    LLVM::ReturnOp::create(*b, loc, ValueRange{});
    return entry;
  }

  /// An alloca of `count` elements of `type` at the start of `fn`.
  Value entryAlloca(LLVM::LLVMFuncOp fn, Location loc, Type type,
                    int64_t count) {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(&fn.getBody().front());
    Value n = constant(loc, i64, count);
    return LLVM::AllocaOp::create(*b, loc, ptr, type, n);
  }

  /// `value` as the bits of an i32 (an f32, a vector<2xf16|bf16>, an i32).
  Value toBits(Location loc, Value value) {
    if (value.getType() == i32)
      return value;
    return LLVM::BitcastOp::create(*b, loc, i32, value);
  }

  /// Each load and store of shared memory (address space 3) reported to
  /// the emulator first, which finds the races between barriers.
  LogicalResult checkSharedAccesses(ModuleOp module, LLVM::LLVMFuncOp fn) {
    SmallVector<Operation *> accesses;
    fn.walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::StoreOp>(op))
        accesses.push_back(op);
    });
    DataLayout layout(module);
    for (Operation *op : accesses) {
      auto load = dyn_cast<LLVM::LoadOp>(op);
      auto store = dyn_cast<LLVM::StoreOp>(op);
      Value address = load ? load.getAddr() : store.getAddr();
      auto type = cast<LLVM::LLVMPointerType>(address.getType());
      if (type.getAddressSpace() != 3)
        continue;
      Type element = load ? load.getType() : store.getValue().getType();
      auto callee = runtimeFunction(module, "onnxd_gpu_emu_shared",
                                    {ptr, i64, i32}, voidType);
      if (failed(callee))
        return failure();
      Location loc = op->getLoc();
      b->setInsertionPoint(op);
      Value generic = LLVM::AddrSpaceCastOp::create(*b, loc, ptr, address);
      LLVM::CallOp::create(
          *b, loc, *callee,
          ValueRange{generic, constant(loc, i64, layout.getTypeSize(element)),
                     constant(loc, i32, store ? 1 : 0)});
    }
    return success();
  }

  LogicalResult emulateDeviceOps(ModuleOp module, LLVM::LLVMFuncOp fn) {
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (isa<NVVM::NVVMDialect>(op->getDialect()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      Location loc = op->getLoc();
      b->setInsertionPoint(op);
      if (int code = specialRegister(op); code >= 0) {
        auto callee = runtimeFunction(module, "onnxd_gpu_emu_sreg", {i32}, i32);
        if (failed(callee))
          return failure();
        Value value = LLVM::CallOp::create(*b, loc, *callee,
                                           ValueRange{constant(loc, i32, code)})
                          .getResult();
        op->getResult(0).replaceAllUsesWith(value);
        op->erase();
        continue;
      }
      if (isa<NVVM::Barrier0Op>(op)) {
        auto callee =
            runtimeFunction(module, "onnxd_gpu_emu_barrier", {}, voidType);
        if (failed(callee))
          return failure();
        LLVM::CallOp::create(*b, loc, *callee, ValueRange{});
        op->erase();
        continue;
      }
      if (auto shfl = dyn_cast<NVVM::ShflOp>(op)) {
        if (failed(emulateShuffle(module, shfl)))
          return failure();
        continue;
      }
      if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
        if (failed(emulateMma(module, fn, mma)))
          return failure();
        continue;
      }
      if (auto tf32 = dyn_cast<NVVM::ConvertFloatToTF32Op>(op)) {
        if (tf32.getRnd() != NVVM::FPRoundingMode::RNA || tf32.getRelu() ||
            tf32.getSat() != NVVM::SaturationMode::NONE)
          return op->emitError("onnx-gpu-emulate-kernels: only the "
                               "conversion to TF32 that rounds to nearest "
                               "(ties away) is emulated");
        auto callee = runtimeFunction(module, "onnxd_gpu_emu_tf32", {f32}, i32);
        if (failed(callee))
          return failure();
        Value value =
            LLVM::CallOp::create(*b, loc, *callee, ValueRange{tf32.getSrc()})
                .getResult();
        op->getResult(0).replaceAllUsesWith(value);
        op->erase();
        continue;
      }
      return op->emitError("onnx-gpu-emulate-kernels: ")
             << op->getName() << " is not emulated";
    }
    return success();
  }

  /// shfl.sync as `i64 onnxd_gpu_emu_shfl(mode, mask, bits, offset, clamp)`:
  /// the value's bits in the low half, whether the source lane was in
  /// range in bit 32.
  LogicalResult emulateShuffle(ModuleOp module, NVVM::ShflOp op) {
    Location loc = op.getLoc();
    Type type = op.getVal().getType();
    if (type != i32 && type != f32)
      return op.emitError("onnx-gpu-emulate-kernels: a shuffle of ")
             << type << " is not emulated";
    auto callee = runtimeFunction(module, "onnxd_gpu_emu_shfl",
                                  {i32, i32, i32, i32, i32}, i64);
    if (failed(callee))
      return failure();
    int mode = 0;
    switch (op.getKind()) {
    case NVVM::ShflKind::idx:
      mode = ONNXD_EMU_SHFL_IDX;
      break;
    case NVVM::ShflKind::up:
      mode = ONNXD_EMU_SHFL_UP;
      break;
    case NVVM::ShflKind::down:
      mode = ONNXD_EMU_SHFL_DOWN;
      break;
    case NVVM::ShflKind::bfly:
      mode = ONNXD_EMU_SHFL_BFLY;
      break;
    }
    Value packed = LLVM::CallOp::create(
                       *b, loc, *callee,
                       ValueRange{constant(loc, i32, mode), op.getThreadMask(),
                                  toBits(loc, op.getVal()), op.getOffset(),
                                  op.getMaskAndClamp()})
                       .getResult();
    Value bits = LLVM::TruncOp::create(*b, loc, i32, packed);
    Value value =
        type == i32 ? bits : LLVM::BitcastOp::create(*b, loc, f32, bits);
    Value result = value;
    if (op.getReturnValueAndIsValid()) {
      Value high =
          LLVM::LShrOp::create(*b, loc, packed, constant(loc, i64, 32));
      Value valid = LLVM::TruncOp::create(
          *b, loc, IntegerType::get(op.getContext(), 1), high);
      Value pair = LLVM::PoisonOp::create(*b, loc, op.getRes().getType());
      pair = LLVM::InsertValueOp::create(*b, loc, pair, value,
                                         ArrayRef<int64_t>{0});
      result = LLVM::InsertValueOp::create(*b, loc, pair, valid,
                                           ArrayRef<int64_t>{1});
    }
    op.getRes().replaceAllUsesWith(result);
    op.erase();
    return success();
  }

  /// mma.sync as `onnxd_gpu_emu_mma(kind, regs)`: the lane's A, B and C
  /// registers (as i32 bits) in `regs`, its D registers written after them.
  LogicalResult emulateMma(ModuleOp module, LLVM::LLVMFuncOp fn,
                           NVVM::MmaOp op) {
    Location loc = op.getLoc();
    NVVM::MMAShapeAttr shape = op.getShapeAttr();
    if (op.getLayoutA() != NVVM::MMALayout::row ||
        op.getLayoutB() != NVVM::MMALayout::col || shape.getM() != 16 ||
        shape.getN() != 8)
      return op.emitError("onnx-gpu-emulate-kernels: only row.col m16n8 "
                          "tensor-core products are emulated");
    auto result = dyn_cast<LLVM::LLVMStructType>(op.getRes().getType());
    if (!result || result.getBody().size() != 4 ||
        !llvm::all_of(result.getBody(), [&](Type t) { return t == f32; }) ||
        op.getOperandC().size() != 4 ||
        !llvm::all_of(op.getOperandC().getTypes(),
                      [&](Type t) { return t == f32; }))
      return op.emitError("onnx-gpu-emulate-kernels: only f32 accumulators "
                          "are emulated");
    Type aType = op.getOperandA().front().getType();
    int kind = -1;
    if (shape.getK() == 8 && aType == i32)
      kind = ONNXD_EMU_MMA_M16N8K8_TF32;
    else if (shape.getK() == 16 && isa<VectorType>(aType) &&
             cast<VectorType>(aType).getElementType().isF16())
      kind = ONNXD_EMU_MMA_M16N8K16_F16;
    else if (shape.getK() == 16 && aType == i32)
      kind = ONNXD_EMU_MMA_M16N8K16_BF16;
    if (kind < 0 || op.getOperandA().size() != 4 ||
        op.getOperandB().size() != 2)
      return op.emitError("onnx-gpu-emulate-kernels: this tensor-core "
                          "product is not emulated");
    auto callee =
        runtimeFunction(module, "onnxd_gpu_emu_mma", {i32, ptr}, voidType);
    if (failed(callee))
      return failure();
    // a0-a3, b0-b1, c0-c3, then d0-d3.
    Value regs = entryAlloca(fn, loc, i32, 14);
    int slot = 0;
    auto store = [&](Value value) {
      Value address = LLVM::GEPOp::create(*b, loc, ptr, i32, regs,
                                          ArrayRef<LLVM::GEPArg>{slot++});
      LLVM::StoreOp::create(*b, loc, toBits(loc, value), address);
    };
    for (Value v : op.getOperandA())
      store(v);
    for (Value v : op.getOperandB())
      store(v);
    for (Value v : op.getOperandC())
      store(v);
    LLVM::CallOp::create(*b, loc, *callee,
                         ValueRange{constant(loc, i32, kind), regs});
    Value d = LLVM::PoisonOp::create(*b, loc, result);
    for (int i = 0; i < 4; ++i) {
      Value address = LLVM::GEPOp::create(*b, loc, ptr, f32, regs,
                                          ArrayRef<LLVM::GEPArg>{10 + i});
      Value value = LLVM::LoadOp::create(*b, loc, f32, address);
      d = LLVM::InsertValueOp::create(*b, loc, d, value, ArrayRef<int64_t>{i});
    }
    op.getRes().replaceAllUsesWith(d);
    op.erase();
    return success();
  }

  /// A launch as `onnxd_gpu_emu_launch(entry, name, grid, block, shared,
  /// stream, params, count)`.
  LogicalResult lowerLaunch(ModuleOp module, gpu::LaunchFuncOp launch,
                            LLVM::LLVMFuncOp entry) {
    Location loc = launch.getLoc();
    if (launch.hasClusterSize())
      return launch.emitError("onnx-gpu-emulate-kernels: clusters are not "
                              "emulated");
    if (launch.getAsyncToken() && !launch.getAsyncToken().use_empty())
      return launch.emitError("onnx-gpu-emulate-kernels: a launch's token "
                              "is used");
    auto fn = launch->getParentOfType<LLVM::LLVMFuncOp>();
    if (!fn)
      return launch.emitError("onnx-gpu-emulate-kernels: a launch outside "
                              "an LLVM function");
    auto callee = runtimeFunction(
        module, "onnxd_gpu_emu_launch",
        {ptr, ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, i64}, voidType);
    if (failed(callee))
      return failure();
    ValueRange operands = launch.getKernelOperands();
    Value params =
        entryAlloca(fn, loc, ptr, std::max<int64_t>(1, operands.size()));
    b->setInsertionPoint(launch);
    for (auto [i, value] : llvm::enumerate(operands)) {
      Value copy = entryAlloca(fn, loc, value.getType(), 1);
      LLVM::StoreOp::create(*b, loc, value, copy);
      Value slot = LLVM::GEPOp::create(*b, loc, ptr, ptr, params,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      LLVM::StoreOp::create(*b, loc, copy, slot);
    }
    auto asI64 = [&](Value v) -> Value {
      if (v.getType() == i64)
        return v;
      return LLVM::ZExtOp::create(*b, loc, i64, v);
    };
    Value shared = launch.getDynamicSharedMemorySize();
    if (!shared)
      shared = constant(loc, i32, 0);
    Value stream = launch.getAsyncObject();
    if (!stream)
      stream = LLVM::ZeroOp::create(*b, loc, ptr);
    Value address = LLVM::AddressOfOp::create(*b, loc, entry);
    Value name = nameOf(module, loc, launch.getKernelName().getValue());
    LLVM::CallOp::create(
        *b, loc, *callee,
        ValueRange{address, name, asI64(launch.getGridSizeX()),
                   asI64(launch.getGridSizeY()), asI64(launch.getGridSizeZ()),
                   asI64(launch.getBlockSizeX()), asI64(launch.getBlockSizeY()),
                   asI64(launch.getBlockSizeZ()), shared, stream, params,
                   constant(loc, i64, operands.size())});
    launch.erase();
    return success();
  }

  /// The address of a global holding `text` and a NUL.
  Value nameOf(ModuleOp module, Location loc, StringRef text) {
    std::string symbol = ("__onnxd_emu_name_" + text).str();
    LLVM::GlobalOp &global = names[symbol];
    if (!global) {
      OpBuilder::InsertionGuard guard(*b);
      b->setInsertionPointToStart(module.getBody());
      std::string value = text.str();
      value.push_back('\0');
      auto type = LLVM::LLVMArrayType::get(
          IntegerType::get(module.getContext(), 8), value.size());
      global = LLVM::GlobalOp::create(*b, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, symbol,
                                      b->getStringAttr(value));
    }
    return LLVM::AddressOfOp::create(*b, loc, global);
  }
};

} // namespace
