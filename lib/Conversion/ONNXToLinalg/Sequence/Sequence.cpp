//===- Sequence.cpp - Sequences and optionals at run time -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The patterns of the sequence and optional ops: each builds or reads a
// runtime value through RuntimeValues.h (RuntimeValues.cpp says how values
// cross the boundary).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "RuntimeValues.h"

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
    return replaceWithUnboxed(rewriter, loc, op, element,
                              getTypeConverter()->convertType(op.getType()));
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
    return replaceWithUnboxed(rewriter, loc, op, result,
                              getTypeConverter()->convertType(op.getType()));
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
    return replaceWithUnboxed(rewriter, loc, op, input, resultType);
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

void mlir::onnx::populateSequenceToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SequenceEmptyLowering, SequenceConstructLowering,
               SequenceInsertLowering, SequenceEraseLowering,
               SequenceAtLowering, SequenceLengthLowering,
               ConcatFromSequenceLowering, SplitToSequenceLowering,
               OptionalLowering, OptionalHasElementLowering,
               OptionalGetElementLowering, SequenceMapLowering>(
      converter, patterns.getContext());
}
