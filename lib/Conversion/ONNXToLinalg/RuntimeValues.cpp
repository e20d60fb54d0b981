//===- RuntimeValues.cpp - Values the runtime holds -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//
// A value of type !onnx.seq<...> or !onnx.opt<...> is a handle (!llvm.ptr)
// to a value the runtime owns (lib/Runtime/Values.cpp, docs/runtime.md): a
// sequence of tensors, or a tensor. An optional is the handle of its value,
// or null when it has none (so optional<seq> is a sequence handle or null).
// Runtime values are immutable and belong to the run (an arena freed when
// onnxd_run returns), so nothing here frees them.
//
// Tensors cross the boundary by copy, which keeps bufferization and buffer
// deallocation in charge of every buffer:
//  - into the runtime ("boxing"): bufferization.to_buffer (read-only) of the
//    tensor, memref.cast to an unranked memref, a call of
//    onnxd_box_<elt>(dtype, memref<*xT>) that copies it;
//  - out of it ("unboxing", result rank known from onnx-infer-shapes): the
//    rank and dims are asked for and checked, memref.alloc, a call of
//    onnxd_unbox_<elt>(value, memref<*xT>) that copies into it, and
//    bufferization.to_tensor restrict writable.
// Position checks (SequenceAt/Insert/Erase, negative positions wrap) are
// cf.assert's naming the node; ConcatFromSequence and SplitToSequence run in
// the runtime, which reports bad shapes with the node's name.
//
// Strings: a tensor of !onnx.string is a tensor of i64 after conversion,
// each element a `const char *` (NUL-terminated UTF-8) the runtime, the
// caller or a constant global owns; data movement ops move the pointers.
// Elementwise string ops (Equal, StringConcat, RegexFullMatch) are
// linalg.generic's whose body calls a scalar runtime function; the others
// (StringNormalizer, StringSplit, ai.onnx.ml.LabelEncoder) box their input
// and run in the runtime.
//
//===----------------------------------------------------------------------===//

#include "RuntimeValues.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::onnx;

bool mlir::onnx::isRuntimeHandleType(Type type) {
  return isa<SeqType, OptType, MapType>(type);
}

bool mlir::onnx::isStringTensor(Type type) {
  return isa<StringType>(getElementTypeOf(type));
}

namespace mlir {
namespace onnx {

Type ptrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx); }

/// The private declaration of runtime function `name` (created once).
func::FuncOp getRuntimeFunc(OpBuilder &b, Operation *from, StringRef name,
                            TypeRange args, TypeRange results) {
  auto module = from->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name,
                                b.getFunctionType(args, results));
  f.setPrivate();
  return f;
}

Value callRuntime(OpBuilder &b, Location loc, Operation *from, StringRef name,
                  ValueRange args, TypeRange results) {
  func::FuncOp f =
      getRuntimeFunc(b, from, name, ValueRange(args).getTypes(), results);
  auto call = func::CallOp::create(b, loc, f, args);
  return results.empty() ? Value() : call.getResult(0);
}

/// A pointer to a NUL-terminated global string holding `text`.
Value globalString(OpBuilder &b, Location loc, Operation *from,
                   StringRef text) {
  auto module = from->getParentOfType<ModuleOp>();
  std::string data = text.str();
  data.push_back('\0');
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = "onnxd_str_" + std::to_string(i);
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    if (auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull()))
      if (value.getValue() == data)
        return LLVM::AddressOfOp::create(b, loc, existing);
  }
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// ONNX's TensorProto.DataType of an onnx-level element type (bool: 9).
int32_t dtypeCode(Type onnxElement) {
  if (onnxElement.isSignlessInteger(1))
    return 9;
  return getDataTypeForElementType(onnxElement);
}

/// The suffix of the runtime's box/unbox functions for a lowered element
/// type, or "" when the runtime cannot hold it.
std::string elementSuffix(Type element) {
  if (auto i = dyn_cast<IntegerType>(element))
    switch (i.getWidth()) {
    case 1:
    case 8:
    case 16:
    case 32:
    case 64:
      return "i" + std::to_string(i.getWidth());
    default:
      return "";
    }
  if (element.isF16())
    return "f16";
  if (element.isBF16())
    return "bf16";
  if (element.isF32())
    return "f32";
  if (element.isF64())
    return "f64";
  if (auto c = dyn_cast<ComplexType>(element)) {
    if (c.getElementType().isF32())
      return "c64";
    if (c.getElementType().isF64())
      return "c128";
  }
  return "";
}

/// Copies `tensor` (lowered; `onnxType` its onnx-level type) into a new
/// runtime value and returns its handle.
FailureOr<Value> boxTensor(OpBuilder &b, Location loc, Operation *node,
                           Value tensor, Type onnxType) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type)
    return emitLoweringError(node, "a tensor of unknown rank cannot be put "
                                   "in a sequence or optional");
  std::string suffix = elementSuffix(type.getElementType());
  if (suffix.empty())
    return emitLoweringError(node, "the runtime's values cannot hold this "
                                   "element type");
  int64_t rank = type.getRank();
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  auto memrefType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  Value buffer = bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                                   /*read_only=*/true);
  auto unranked = UnrankedMemRefType::get(type.getElementType(), 0);
  Value cast = memref::CastOp::create(b, loc, unranked, buffer);
  Value dtype = arith::ConstantIntOp::create(
      b, loc, b.getI32Type(), dtypeCode(getElementTypeOf(onnxType)));
  return callRuntime(b, loc, node, "onnxd_box_" + suffix, {dtype, cast},
                     {ptrType(b.getContext())});
}

Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

/// Copies the tensor runtime value `handle` into a new tensor of `type`
/// (lowered, ranked), checking at run time that there is a value and that
/// its rank, element type and static dims match.
FailureOr<Value> unboxTensor(OpBuilder &b, Location loc, Operation *node,
                             Value handle, Type resultType, Type onnxType) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  if (!type)
    return emitLoweringError(node, "the result needs a known rank");
  std::string suffix = elementSuffix(type.getElementType());
  if (suffix.empty())
    return emitLoweringError(node, "the runtime's values cannot hold this "
                                   "element type");
  Type i64 = b.getI64Type();
  int32_t code = dtypeCode(getElementTypeOf(onnxType));
  Value rank = callRuntime(b, loc, node, "onnxd_value_rank", {handle}, {i64});
  emitRuntimeCheck(b, loc,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                         i64Const(b, loc, type.getRank())),
                   node,
                   "the value is missing or is not a tensor of rank " +
                       Twine(type.getRank()));
  Value dtype = callRuntime(b, loc, node, "onnxd_value_dtype", {handle}, {i64});
  emitRuntimeCheck(b, loc,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         dtype, i64Const(b, loc, code)),
                   node, "the tensor's element type is not the expected one");
  SmallVector<Value> dynSizes;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    Value dim = callRuntime(b, loc, node, "onnxd_value_dim",
                            {handle, i64Const(b, loc, d)}, {i64});
    if (ShapedType::isDynamic(size)) {
      dynSizes.push_back(
          arith::IndexCastOp::create(b, loc, b.getIndexType(), dim));
      continue;
    }
    emitRuntimeCheck(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim,
                              i64Const(b, loc, size)),
        node, "dim " + Twine(d) + " of the tensor is not " + Twine(size));
  }
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = memref::AllocOp::create(b, loc, memrefType, dynSizes);
  auto unranked = UnrankedMemRefType::get(type.getElementType(), 0);
  Value cast = memref::CastOp::create(b, loc, unranked, buffer);
  callRuntime(b, loc, node, "onnxd_unbox_" + suffix, {handle, cast}, {});
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true)
      .getResult();
}

LogicalResult replaceWithUnboxed(ConversionPatternRewriter &rewriter,
                                 Location loc, Operation *op, Value handle,
                                 Type resultType) {
  FailureOr<Value> tensor = unboxTensor(rewriter, loc, op, handle, resultType,
                                        op->getResult(0).getType());
  if (failed(tensor))
    return failure();
  rewriter.replaceOp(op, *tensor);
  return success();
}

/// A scalar integer tensor (any int type) as i64.
Value readScalarI64(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  Value v = tensor::ExtractOp::create(b, loc, tensor, zeros);
  if (v.getType() != b.getI64Type())
    v = arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
  return v;
}

/// `pos` (i64) made non-negative (+ length when negative) and checked to lie
/// in [0, length + extra).
Value normalizePosition(OpBuilder &b, Location loc, Operation *node, Value pos,
                        Value length, int64_t extra) {
  Value zero = i64Const(b, loc, 0);
  Value neg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, pos, zero);
  Value wrapped = arith::AddIOp::create(b, loc, pos, length);
  Value p = arith::SelectOp::create(b, loc, neg, wrapped, pos);
  Value limit = arith::AddIOp::create(b, loc, length, i64Const(b, loc, extra));
  Value ok = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, p, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, p, limit));
  emitRuntimeCheck(b, loc, ok, node, "position out of range of the sequence");
  return p;
}

Value nullHandle(OpBuilder &b, Location loc) {
  return LLVM::ZeroOp::create(b, loc, ptrType(b.getContext()));
}

Value scalarTensor(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

/// A constant string tensor of `shape`: pointers (as i64) to global
/// NUL-terminated copies of `values`.
Value stringConstant(OpBuilder &b, Location loc, Operation *node,
                     ArrayRef<StringRef> values, ArrayRef<int64_t> shape) {
  SmallVector<Value> elements;
  for (StringRef v : values)
    elements.push_back(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(),
                                                globalString(b, loc, node, v)));
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get(shape, b.getI64Type()), elements);
}

/// A boxed constant: the elements of `attr` (numbers or strings).
FailureOr<Value> boxConstant(OpBuilder &b, Location loc, Operation *node,
                             ElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  if (auto strs = dyn_cast<DenseStringElementsAttr>(attr)) {
    SmallVector<StringRef> values;
    if (strs.isSplat())
      values.assign(type.getNumElements(), strs.getSplatValue<StringRef>());
    else
      llvm::append_range(values, strs.getRawStringData());
    return boxTensor(b, loc, node,
                     stringConstant(b, loc, node, values, type.getShape()),
                     type);
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return emitLoweringError(node, "expected a dense constant attribute");
  Type element = convertElementType(type.getElementType());
  auto lowered = RankedTensorType::get(type.getShape(), element);
  Value value = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(dense.bitcast(element).reshape(lowered)));
  return boxTensor(b, loc, node, value, type);
}

} // namespace onnx
} // namespace mlir
