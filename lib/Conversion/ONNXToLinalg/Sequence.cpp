//===- Sequence.cpp - Sequences, optionals and strings at run time --------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
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

#include "OnnxDialect/IR/ONNXDataTypes.h"
#include "OnnxDialect/IR/ONNXOps.h"
#include "Utils.h"

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

static Type ptrType(MLIRContext *ctx) {
  return LLVM::LLVMPointerType::get(ctx);
}

/// The private declaration of runtime function `name` (created once).
static func::FuncOp getRuntimeFunc(OpBuilder &b, Operation *from,
                                   StringRef name, TypeRange args,
                                   TypeRange results) {
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

static Value callRuntime(OpBuilder &b, Location loc, Operation *from,
                         StringRef name, ValueRange args, TypeRange results) {
  func::FuncOp f =
      getRuntimeFunc(b, from, name, ValueRange(args).getTypes(), results);
  auto call = func::CallOp::create(b, loc, f, args);
  return results.empty() ? Value() : call.getResult(0);
}

/// A pointer to a NUL-terminated global string holding `text`.
static Value globalString(OpBuilder &b, Location loc, Operation *from,
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
static int32_t dtypeCode(Type onnxElement) {
  if (onnxElement.isSignlessInteger(1))
    return 9;
  return getDataTypeForElementType(onnxElement);
}

/// The suffix of the runtime's box/unbox functions for a lowered element
/// type, or "" when the runtime cannot hold it.
static std::string elementSuffix(Type element) {
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
static FailureOr<Value> boxTensor(OpBuilder &b, Location loc, Operation *node,
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

static Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

/// Copies the tensor runtime value `handle` into a new tensor of `type`
/// (lowered, ranked), checking at run time that there is a value and that
/// its rank, element type and static dims match.
static FailureOr<Value> unboxTensor(OpBuilder &b, Location loc, Operation *node,
                                    Value handle, Type resultType,
                                    Type onnxType) {
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

/// A scalar integer tensor (any int type) as i64.
static Value readScalarI64(OpBuilder &b, Location loc, Value tensor) {
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
static Value normalizePosition(OpBuilder &b, Location loc, Operation *node,
                               Value pos, Value length, int64_t extra) {
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

static Value nullHandle(OpBuilder &b, Location loc) {
  return LLVM::ZeroOp::create(b, loc, ptrType(b.getContext()));
}

static Value scalarTensor(OpBuilder &b, Location loc, Value scalar) {
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, scalar.getType()), scalar);
}

namespace {

struct SequenceEmptyLowering : ONNXToLinalgPattern<SequenceEmptyOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceEmptyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       callRuntime(rewriter, op.getLoc(), op, "onnxd_seq_empty",
                                   {}, {ptrType(op.getContext())}));
    return success();
  }
};

struct SequenceConstructLowering : ONNXToLinalgPattern<SequenceConstructOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = ptrType(op.getContext());
    Value seq = callRuntime(rewriter, loc, op, "onnxd_seq_empty", {}, {ptr});
    for (auto [i, input] : llvm::enumerate(adaptor.getInputs())) {
      FailureOr<Value> boxed =
          boxTensor(rewriter, loc, op, input, op.getInputs()[i].getType());
      if (failed(boxed))
        return failure();
      seq = callRuntime(rewriter, loc, op, "onnxd_seq_insert",
                        {seq, i64Const(rewriter, loc, i), *boxed}, {ptr});
    }
    rewriter.replaceOp(op, seq);
    return success();
  }
};

struct SequenceInsertLowering : ONNXToLinalgPattern<SequenceInsertOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceInsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = ptrType(op.getContext());
    Value seq = adaptor.getInputSequence();
    FailureOr<Value> boxed = boxTensor(rewriter, loc, op, adaptor.getTensor(),
                                       op.getTensor().getType());
    if (failed(boxed))
      return failure();
    Value length = callRuntime(rewriter, loc, op, "onnxd_seq_length", {seq},
                               {rewriter.getI64Type()});
    Value pos = length;
    if (adaptor.getPosition())
      pos =
          normalizePosition(rewriter, loc, op,
                            readScalarI64(rewriter, loc, adaptor.getPosition()),
                            length, /*extra=*/1);
    rewriter.replaceOp(op, callRuntime(rewriter, loc, op, "onnxd_seq_insert",
                                       {seq, pos, *boxed}, {ptr}));
    return success();
  }
};

struct SequenceEraseLowering : ONNXToLinalgPattern<SequenceEraseOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceEraseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value seq = adaptor.getInputSequence();
    Value length = callRuntime(rewriter, loc, op, "onnxd_seq_length", {seq},
                               {rewriter.getI64Type()});
    Value pos = adaptor.getPosition()
                    ? readScalarI64(rewriter, loc, adaptor.getPosition())
                    : i64Const(rewriter, loc, -1);
    pos = normalizePosition(rewriter, loc, op, pos, length, 0);
    rewriter.replaceOp(op, callRuntime(rewriter, loc, op, "onnxd_seq_erase",
                                       {seq, pos}, {ptrType(op.getContext())}));
    return success();
  }
};

struct SequenceAtLowering : ONNXToLinalgPattern<SequenceAtOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceAtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value seq = adaptor.getInputSequence();
    Value length = callRuntime(rewriter, loc, op, "onnxd_seq_length", {seq},
                               {rewriter.getI64Type()});
    Value pos = normalizePosition(
        rewriter, loc, op, readScalarI64(rewriter, loc, adaptor.getPosition()),
        length, 0);
    Value element = callRuntime(rewriter, loc, op, "onnxd_seq_get", {seq, pos},
                                {ptrType(op.getContext())});
    FailureOr<Value> result = unboxTensor(
        rewriter, loc, op, element,
        getTypeConverter()->convertType(op.getType()), op.getType());
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct SequenceLengthLowering : ONNXToLinalgPattern<SequenceLengthOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceLengthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value length =
        callRuntime(rewriter, op.getLoc(), op, "onnxd_seq_length",
                    {adaptor.getInputSequence()}, {rewriter.getI64Type()});
    rewriter.replaceOp(op, scalarTensor(rewriter, op.getLoc(), length));
    return success();
  }
};

struct ConcatFromSequenceLowering : ONNXToLinalgPattern<ConcatFromSequenceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ConcatFromSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getAxis())
      return emitLoweringError(op, "the axis attribute is required");
    Value result = callRuntime(
        rewriter, loc, op, "onnxd_seq_concat",
        {adaptor.getInputSequence(),
         i64Const(rewriter, loc, static_cast<int64_t>(*op.getAxis())),
         i64Const(rewriter, loc, static_cast<int64_t>(op.getNewAxis())),
         globalString(rewriter, loc, op, describeNode(op))},
        {ptrType(op.getContext())});
    FailureOr<Value> tensor = unboxTensor(
        rewriter, loc, op, result,
        getTypeConverter()->convertType(op.getType()), op.getType());
    if (failed(tensor))
      return failure();
    rewriter.replaceOp(op, *tensor);
    return success();
  }
};

struct SplitToSequenceLowering : ONNXToLinalgPattern<SplitToSequenceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SplitToSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> input = boxTensor(rewriter, loc, op, adaptor.getInput(),
                                       op.getInput().getType());
    if (failed(input))
      return failure();
    Value split = nullHandle(rewriter, loc);
    if (adaptor.getSplit()) {
      FailureOr<Value> boxed = boxTensor(rewriter, loc, op, adaptor.getSplit(),
                                         op.getSplit().getType());
      if (failed(boxed))
        return failure();
      split = *boxed;
    }
    rewriter.replaceOp(
        op,
        callRuntime(
            rewriter, loc, op, "onnxd_seq_split",
            {*input, split,
             i64Const(rewriter, loc, static_cast<int64_t>(op.getAxis())),
             i64Const(rewriter, loc, static_cast<int64_t>(op.getKeepdims())),
             globalString(rewriter, loc, op, describeNode(op))},
            {ptrType(op.getContext())}));
    return success();
  }
};

struct OptionalLowering : ONNXToLinalgPattern<OptionalOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(OptionalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    if (!input) {
      rewriter.replaceOp(op, nullHandle(rewriter, loc));
      return success();
    }
    if (isRuntimeHandleType(op.getInput().getType())) {
      rewriter.replaceOp(op, input);
      return success();
    }
    FailureOr<Value> boxed =
        boxTensor(rewriter, loc, op, input, op.getInput().getType());
    if (failed(boxed))
      return failure();
    rewriter.replaceOp(op, *boxed);
    return success();
  }
};

struct OptionalHasElementLowering : ONNXToLinalgPattern<OptionalHasElementOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(OptionalHasElementOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value has;
    if (!input)
      has =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 0);
    else if (!isa<OptType>(op.getInput().getType()))
      has =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    else
      has = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, input,
                                 nullHandle(rewriter, loc));
    rewriter.replaceOp(op, scalarTensor(rewriter, loc, has));
    return success();
  }
};

struct OptionalGetElementLowering : ONNXToLinalgPattern<OptionalGetElementOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(OptionalGetElementOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!isa<OptType>(op.getInput().getType())) {
      // A tensor or sequence given as it is: OptionalGetElement is Identity.
      if (input.getType() != resultType)
        input = tensor::CastOp::create(rewriter, loc, resultType, input);
      rewriter.replaceOp(op, input);
      return success();
    }
    Value has = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                     input, nullHandle(rewriter, loc));
    emitRuntimeCheck(rewriter, loc, has, op, "the optional has no value");
    if (isRuntimeHandleType(op.getType())) {
      rewriter.replaceOp(op, input);
      return success();
    }
    FailureOr<Value> tensor =
        unboxTensor(rewriter, loc, op, input, resultType, op.getType());
    if (failed(tensor))
      return failure();
    rewriter.replaceOp(op, *tensor);
    return success();
  }
};

/// SequenceMap: an scf.for over the positions of the input sequence; the
/// body is the op's region (converted with the rest), its block arguments
/// the elements at the position (or the tensors given as they are), its
/// results appended to the output sequences.
struct SequenceMapLowering : ONNXToLinalgPattern<SequenceMapOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SequenceMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = ptrType(op.getContext());
    Type i64 = rewriter.getI64Type();
    Block &body = op.getBody().front();
    SmallVector<Value> inputs{adaptor.getInputSequence()};
    llvm::append_range(inputs, adaptor.getAdditionalInputs());
    SmallVector<Type> onnxTypes{op.getInputSequence().getType()};
    llvm::append_range(onnxTypes, op.getAdditionalInputs().getTypes());
    for (BlockArgument arg : body.getArguments())
      if (!isa<RankedTensorType>(arg.getType()))
        return emitLoweringError(op, "the body's arguments need known ranks");
    for (Value v : body.getTerminator()->getOperands())
      if (!isa<RankedTensorType>(v.getType()) || isUnsignedElement(v.getType()))
        return emitLoweringError(op, "the body's results must be ranked "
                                     "tensors of signed or float elements");

    Value length =
        callRuntime(rewriter, loc, op, "onnxd_seq_length", {inputs[0]}, {i64});
    for (auto [i, input] : llvm::enumerate(inputs))
      if (i > 0 && isa<SeqType>(onnxTypes[i])) {
        Value other =
            callRuntime(rewriter, loc, op, "onnxd_seq_length", {input}, {i64});
        emitRuntimeCheck(rewriter, loc,
                         arith::CmpIOp::create(rewriter, loc,
                                               arith::CmpIPredicate::eq, length,
                                               other),
                         op, "the input sequences differ in length");
      }
    SmallVector<Value> inits;
    for (size_t k = 0; k < op.getNumResults(); ++k)
      inits.push_back(
          callRuntime(rewriter, loc, op, "onnxd_seq_empty", {}, {ptr}));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value upper = arith::IndexCastOp::create(rewriter, loc,
                                             rewriter.getIndexType(), length);
    auto loop = scf::ForOp::create(rewriter, loc, zero, upper, one, inits);
    Block *loopBody = loop.getBody();
    // scf.for::create adds an empty scf.yield when there are no iter_args
    // only; build the body from scratch.
    if (!loopBody->empty())
      rewriter.eraseOp(loopBody->getTerminator());
    rewriter.setInsertionPointToEnd(loopBody);
    Value pos =
        arith::IndexCastOp::create(rewriter, loc, i64, loop.getInductionVar());
    SmallVector<Value> args;
    for (auto [i, input] : llvm::enumerate(inputs)) {
      Type argType =
          getTypeConverter()->convertType(body.getArgument(i).getType());
      if (!isa<SeqType>(onnxTypes[i])) {
        if (input.getType() != argType)
          input = tensor::CastOp::create(rewriter, loc, argType, input);
        args.push_back(input);
        continue;
      }
      Value element =
          callRuntime(rewriter, loc, op, "onnxd_seq_get", {input, pos}, {ptr});
      FailureOr<Value> tensor = unboxTensor(rewriter, loc, op, element, argType,
                                            body.getArgument(i).getType());
      if (failed(tensor))
        return failure();
      args.push_back(*tensor);
    }
    Operation *yield = body.getTerminator();
    rewriter.inlineBlockBefore(&body, loopBody, loopBody->end(), args);
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> next;
    for (auto [k, v] : llvm::enumerate(yield->getOperands())) {
      FailureOr<Value> boxed = boxTensor(rewriter, loc, op, v, v.getType());
      if (failed(boxed))
        return failure();
      Value seq = loopBody->getArgument(1 + k);
      Value n =
          callRuntime(rewriter, loc, op, "onnxd_seq_length", {seq}, {i64});
      next.push_back(callRuntime(rewriter, loc, op, "onnxd_seq_insert",
                                 {seq, n, *boxed}, {ptr}));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//

/// A constant string tensor of `shape`: pointers (as i64) to global
/// NUL-terminated copies of `values`.
static Value stringConstant(OpBuilder &b, Location loc, Operation *node,
                            ArrayRef<StringRef> values,
                            ArrayRef<int64_t> shape) {
  SmallVector<Value> elements;
  for (StringRef v : values)
    elements.push_back(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(),
                                                globalString(b, loc, node, v)));
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get(shape, b.getI64Type()), elements);
}

/// A boxed constant: the elements of `attr` (numbers or strings).
static FailureOr<Value> boxConstant(OpBuilder &b, Location loc, Operation *node,
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

namespace {

/// Equal on strings: byte-wise equality (numbers are Elementwise.cpp's).
struct StringEqualLowering : ONNXToLinalgPattern<EqualOp> {
  StringEqualLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(EqualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isStringTensor(op.getA().getType()))
      return rewriter.notifyMatchFailure(op, "not strings");
    auto resultType = getConvertedType(op);
    Operation *node = op;
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getA(), adaptor.getB()}, resultType, op,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return callRuntime(b, loc, node, "onnxd_str_equal", args,
                             {b.getI1Type()});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Cast from or to strings (numbers are Cast.cpp's): per element, the
/// runtime parses (strtod/strtoll: "NaN", "INF", "-INF" too) or formats
/// (the shortest text that reads back as the same float32/float64; integers
/// in decimal; bools as "1"/"0").
struct StringCastLowering : ONNXToLinalgPattern<CastOp> {
  StringCastLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOf(op.getInput().getType());
    Type to = getElementTypeOf(op.getType());
    bool fromString = isa<StringType>(from), toString = isa<StringType>(to);
    if (!fromString && !toString)
      return rewriter.notifyMatchFailure(op, "no strings");
    auto resultType = getConvertedType(op);
    Type loweredFrom = convertElementType(from);
    Type loweredTo = resultType.getElementType();
    auto isPlain = [](Type t) {
      return t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
             (isa<IntegerType>(t) && cast<IntegerType>(t).getWidth() <= 64 &&
              llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                 cast<IntegerType>(t).getWidth()));
    };
    if (fromString && toString) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    if (!isPlain(fromString ? loweredTo : loweredFrom))
      return rewriter.notifyMatchFailure(
          op, "casts between strings and this element type are not "
              "supported"); // Cast.cpp then reports it
    bool isUnsigned =
        isUnsignedElement(fromString ? op.getType() : op.getInput().getType());
    Operation *node = op;
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, resultType, op,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          Type f64 = b.getF64Type(), i64 = b.getI64Type();
          if (fromString) {
            if (isa<FloatType>(loweredTo)) {
              Value d =
                  callRuntime(b, loc, node, "onnxd_str_to_f64", {x}, {f64});
              return loweredTo == f64
                         ? d
                         : arith::TruncFOp::create(b, loc, loweredTo, d)
                               .getResult();
            }
            Value n = callRuntime(b, loc, node,
                                  isUnsigned ? "onnxd_str_to_u64"
                                             : "onnxd_str_to_i64",
                                  {x}, {i64});
            if (loweredTo.isInteger(1))
              return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n,
                                           i64Const(b, loc, 0));
            return loweredTo == i64
                       ? n
                       : arith::TruncIOp::create(b, loc, loweredTo, n)
                             .getResult();
          }
          if (auto f = dyn_cast<FloatType>(loweredFrom)) {
            Value d = f == f64 ? x : arith::ExtFOp::create(b, loc, f64, x);
            Value bits = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                      f.getWidth());
            return callRuntime(b, loc, node, "onnxd_str_from_f64", {d, bits},
                               {i64});
          }
          Value n = x;
          if (!loweredFrom.isInteger(64))
            n = isUnsigned || loweredFrom.isInteger(1)
                    ? arith::ExtUIOp::create(b, loc, i64, x).getResult()
                    : arith::ExtSIOp::create(b, loc, i64, x).getResult();
          return callRuntime(b, loc, node,
                             isUnsigned ? "onnxd_str_from_u64"
                                        : "onnxd_str_from_i64",
                             {n}, {i64});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Constants of strings (value, value_string, value_strings) and string
/// initializers: tensors of pointers to global strings.
static std::optional<SmallVector<StringRef>> stringValues(Attribute attr,
                                                          int64_t count) {
  auto strs = dyn_cast_or_null<DenseStringElementsAttr>(attr);
  if (!strs)
    return std::nullopt;
  SmallVector<StringRef> values;
  if (strs.isSplat())
    values.assign(count, strs.getSplatValue<StringRef>());
  else
    llvm::append_range(values, strs.getRawStringData());
  return values;
}

struct StringConstantLowering : ONNXToLinalgPattern<ConstantOp> {
  StringConstantLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isStringTensor(type))
      return rewriter.notifyMatchFailure(op, "not strings");
    std::optional<SmallVector<StringRef>> values;
    if (op.getValue())
      values = stringValues(*op.getValue(), type.getNumElements());
    else if (op.getValueString())
      values = SmallVector<StringRef>{*op.getValueString()};
    else if (std::optional<ArrayAttr> strs = op.getValueStrings()) {
      values.emplace();
      for (Attribute s : *strs)
        values->push_back(cast<StringAttr>(s).getValue());
    }
    if (!values || int64_t(values->size()) != type.getNumElements())
      return emitLoweringError(op, "unsupported string constant");
    rewriter.replaceOp(op, stringConstant(rewriter, op.getLoc(), op, *values,
                                          type.getShape()));
    return success();
  }
};

struct StringGlobalLoadLowering
    : OpConversionPattern<ml_program::GlobalLoadConstOp> {
  StringGlobalLoadLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(ml_program::GlobalLoadConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isStringTensor(type))
      return rewriter.notifyMatchFailure(op, "not strings");
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        op, op.getGlobalAttr());
    std::optional<SmallVector<StringRef>> values;
    if (global && global.getValue())
      values = stringValues(*global.getValue(), type.getNumElements());
    if (!values)
      return emitLoweringError(op, "unsupported string initializer");
    rewriter.replaceOp(op, stringConstant(rewriter, op.getLoc(), op, *values,
                                          type.getShape()));
    return success();
  }
};

struct StringConcatLowering : ONNXToLinalgPattern<StringConcatOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedType(op);
    Operation *node = op;
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getX(), adaptor.getY()}, resultType, op,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return callRuntime(b, loc, node, "onnxd_str_concat", args,
                             {b.getI64Type()});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct RegexFullMatchLowering : ONNXToLinalgPattern<RegexFullMatchOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(RegexFullMatchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getPattern())
      return emitLoweringError(op, "the pattern attribute is required");
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op);
    Value pattern = globalString(rewriter, loc, op, *op.getPattern());
    Value name = globalString(rewriter, loc, op, describeNode(op));
    Operation *node = op;
    Value result = buildElementwise(
        rewriter, loc, {adaptor.getX()}, resultType, op,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return callRuntime(b, l, node, "onnxd_str_regex_full_match",
                             {args[0], pattern, name}, {b.getI1Type()});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StringNormalizerLowering : ONNXToLinalgPattern<StringNormalizerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringNormalizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t action = StringSwitch<int64_t>(op.getCaseChangeAction())
                         .Case("NONE", 0)
                         .Case("LOWER", 1)
                         .Case("UPPER", 2)
                         .Default(-1);
    if (action < 0)
      return emitLoweringError(op, "case_change_action must be NONE, LOWER "
                                   "or UPPER");
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    Value stop = nullHandle(rewriter, loc);
    if (std::optional<ArrayAttr> words = op.getStopwords();
        words && !words->empty()) {
      SmallVector<StringRef> values;
      for (Attribute w : *words)
        values.push_back(cast<StringAttr>(w).getValue());
      FailureOr<Value> boxed = boxTensor(
          rewriter, loc, op,
          stringConstant(rewriter, loc, op, values, {int64_t(values.size())}),
          op.getX().getType());
      if (failed(boxed))
        return failure();
      stop = *boxed;
    }
    Value result =
        callRuntime(rewriter, loc, op, "onnxd_str_normalize",
                    {*input, stop, i64Const(rewriter, loc, action),
                     i64Const(rewriter, loc, op.getIsCaseSensitive() != 0),
                     globalString(rewriter, loc, op, describeNode(op))},
                    {ptrType(op.getContext())});
    // The static result shape inference gives may not hold (stopwords).
    auto type = getConvertedType(op);
    SmallVector<int64_t> shape(type.getShape());
    shape.back() = ShapedType::kDynamic;
    FailureOr<Value> tensor =
        unboxTensor(rewriter, loc, op, result, type.clone(shape), op.getType());
    if (failed(tensor))
      return failure();
    rewriter.replaceOp(
        op, tensor::CastOp::create(rewriter, loc, type, *tensor).getResult());
    return success();
  }
};

struct StringSplitLowering : ONNXToLinalgPattern<StringSplitOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringSplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    Value delimiter = op.getDelimiter()
                          ? globalString(rewriter, loc, op, *op.getDelimiter())
                          : nullHandle(rewriter, loc);
    int64_t maxsplit =
        op.getMaxsplit() ? static_cast<int64_t>(*op.getMaxsplit()) : -1;
    Type ptr = ptrType(op.getContext());
    Value pair = callRuntime(
        rewriter, loc, op, "onnxd_str_split",
        {*input, delimiter, i64Const(rewriter, loc, maxsplit)}, {ptr});
    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      Value v = callRuntime(rewriter, loc, op, "onnxd_seq_get",
                            {pair, i64Const(rewriter, loc, i)}, {ptr});
      FailureOr<Value> tensor = unboxTensor(
          rewriter, loc, op, v,
          getTypeConverter()->convertType(result.getType()), result.getType());
      if (failed(tensor))
        return failure();
      results.push_back(*tensor);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LabelEncoderLowering : ONNXToLinalgPattern<MLLabelEncoderOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(MLLabelEncoderOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto stringType = StringType::get(ctx);
    // keys_* / values_* as constant tensors.
    auto fromLists = [&](std::optional<ArrayRef<float>> floats,
                         std::optional<ArrayRef<int64_t>> ints,
                         std::optional<ArrayAttr> strs,
                         std::optional<ElementsAttr> tensor) -> ElementsAttr {
      if (tensor)
        return *tensor;
      if (floats)
        return DenseElementsAttr::get(
            RankedTensorType::get({int64_t(floats->size())},
                                  Float32Type::get(ctx)),
            *floats);
      if (ints)
        return DenseElementsAttr::get(
            RankedTensorType::get({int64_t(ints->size())},
                                  IntegerType::get(ctx, 64)),
            *ints);
      if (strs) {
        SmallVector<StringRef> values;
        for (Attribute s : *strs)
          values.push_back(cast<StringAttr>(s).getValue());
        return DenseStringElementsAttr::get(
            RankedTensorType::get({int64_t(values.size())}, stringType),
            values);
      }
      return {};
    };
    ElementsAttr keys = fromLists(op.getKeysFloats(), op.getKeysInt64s(),
                                  op.getKeysStrings(), op.getKeysTensor());
    ElementsAttr values =
        fromLists(op.getValuesFloats(), op.getValuesInt64s(),
                  op.getValuesStrings(), op.getValuesTensor());
    if (!keys || !values)
      return emitLoweringError(op, "keys and values are required");
    Type valueElement = cast<ShapedType>(values.getType()).getElementType();
    ElementsAttr fallback;
    auto scalar = RankedTensorType::get({}, valueElement);
    if (op.getDefaultTensor())
      fallback = *op.getDefaultTensor();
    else if (isa<StringType>(valueElement))
      fallback = DenseStringElementsAttr::get(
          scalar, ArrayRef<StringRef>{op.getDefaultString()});
    else if (valueElement.isInteger(64))
      fallback = DenseElementsAttr::get(
          scalar,
          ArrayRef<int64_t>{static_cast<int64_t>(op.getDefaultInt64())});
    else if (valueElement.isF32())
      fallback = DenseElementsAttr::get(
          scalar, ArrayRef<float>{static_cast<float>(
                      op.getDefaultFloat().convertToFloat())});
    else
      return emitLoweringError(op, "values of this type need default_tensor");
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    FailureOr<Value> k = boxConstant(rewriter, loc, op, keys);
    FailureOr<Value> v = boxConstant(rewriter, loc, op, values);
    FailureOr<Value> d = boxConstant(rewriter, loc, op, fallback);
    if (failed(k) || failed(v) || failed(d))
      return failure();
    Value result = callRuntime(
        rewriter, loc, op, "onnxd_label_encode",
        {*input, *k, *v, *d, globalString(rewriter, loc, op, describeNode(op))},
        {ptrType(ctx)});
    FailureOr<Value> tensor = unboxTensor(
        rewriter, loc, op, result,
        getTypeConverter()->convertType(op.getType()), op.getType());
    if (failed(tensor))
      return failure();
    rewriter.replaceOp(op, *tensor);
    return success();
  }
};

} // namespace

void mlir::onnx::populateSequenceToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<
      SequenceEmptyLowering, SequenceConstructLowering, SequenceInsertLowering,
      SequenceEraseLowering, SequenceAtLowering, SequenceLengthLowering,
      ConcatFromSequenceLowering, SplitToSequenceLowering, OptionalLowering,
      OptionalHasElementLowering, OptionalGetElementLowering,
      SequenceMapLowering, StringEqualLowering, StringCastLowering,
      StringConstantLowering, StringGlobalLoadLowering, StringConcatLowering,
      RegexFullMatchLowering, StringNormalizerLowering, StringSplitLowering,
      LabelEncoderLowering>(converter, patterns.getContext());
}
