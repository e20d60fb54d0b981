//===- ControlFlow.cpp - If, Loop, Scan to scf ----------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// If becomes scf.if, Loop scf.while, Scan scf.for. The onnx regions are
// moved into the scf ops (their block arguments converted with the type
// converter); the ops inside are converted afterwards by the other patterns
// of the conversion, and the onnx.yield terminating each region by the
// pattern below, which looks at the scf op it ends up in:
//  - in scf.if: scf.yield of the values, cast to the if's result types;
//  - in scf.while (a Loop): the iteration count goes up by one, the
//    condition and carried values are passed on, and each scan output value
//    is stored at row `i` of a buffer carried by the loop. The number of
//    iterations is not known before the loop ends (cond), so the buffer
//    grows by doubling (its first allocation happens at iteration 0, when
//    the value's dims are known); after the loop the first `i` rows are the
//    scan output;
//  - in scf.for (a Scan): states are passed on, each scan output value is
//    inserted at its position along its scan_output_axis (reversed for
//    direction 1) of a buffer allocated before the loop (reallocated at
//    iteration 0 when dims of the value are only known then).
// The scf ops carry, until their terminator is converted, a discardable
// attribute saying how many of their carried values are scan buffers (and
// for Scan the output axes and directions).
//
// Sequence- and optional-typed values (runtime handles, !llvm.ptr once
// converted) pass through If results and Loop carried values as they are;
// scan outputs and Scan's values are tensors.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

constexpr StringLiteral kLoopAttr = "onnx.loop_scan_outputs";
constexpr StringLiteral kScanAxesAttr = "onnx.scan_output_axes";
constexpr StringLiteral kScanDirsAttr = "onnx.scan_output_directions";

bool allRankedTensors(TypeRange types) {
  return llvm::all_of(types, [](Type t) { return isa<RankedTensorType>(t); });
}

/// Ranked tensors and runtime handles (sequences, optionals).
bool allLowerable(TypeRange types) {
  return llvm::all_of(types, [](Type t) {
    return isa<RankedTensorType, LLVM::LLVMPointerType>(t);
  });
}

/// The type whose dims are static where both types agree, dynamic
/// elsewhere (same rank and element type assumed).
RankedTensorType joinTypes(RankedTensorType a, RankedTensorType b) {
  if (!b || a.getRank() != b.getRank())
    return a;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape()))
    shape.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(shape, a.getElementType());
}

Value castIfNeeded(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return tensor::CastOp::create(b, loc, type, v);
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value ofrToValue(OpBuilder &b, Location loc, OpFoldResult ofr) {
  if (auto v = dyn_cast<Value>(ofr))
    return v;
  return indexConst(b, loc, *getConstantIntValue(ofr));
}

/// Inserts `value` (rank r) into `buffer` (rank r+1) at `pos` along `axis`.
Value insertAlong(OpBuilder &b, Location loc, Value value, Value buffer,
                  int64_t axis, Value pos) {
  int64_t rank = cast<RankedTensorType>(buffer.getType()).getRank();
  SmallVector<OpFoldResult> valueDims = getDims(b, loc, value);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
      strides(rank, b.getIndexAttr(1));
  offsets[axis] = pos;
  for (int64_t d = 0, k = 0; d < rank; ++d)
    sizes.push_back(d == axis ? OpFoldResult(b.getIndexAttr(1))
                              : valueDims[k++]);
  return tensor::InsertSliceOp::create(b, loc, value, buffer, offsets, sizes,
                                       strides);
}

/// Checks at run time that the dims of `value` equal those of `buffer`
/// other than `axis`.
void checkDims(OpBuilder &b, Location loc, Value value, Value buffer,
               int64_t axis, Operation *node) {
  auto vt = cast<RankedTensorType>(value.getType());
  auto bt = cast<RankedTensorType>(buffer.getType());
  for (int64_t d = 0, k = 0; d < bt.getRank(); ++d) {
    if (d == axis)
      continue;
    int64_t i = k++;
    if (!vt.isDynamicDim(i) && !bt.isDynamicDim(d))
      continue;
    Value a = tensor::DimOp::create(b, loc, value, i);
    Value c = tensor::DimOp::create(b, loc, buffer, d);
    Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, c);
    emitRuntimeCheck(b, loc, eq, node,
                     "scan output values of different shapes");
  }
}

/// An empty buffer of type `bufType` (rank r+1) with `len` along `axis` and
/// the dims of `value` (rank r) elsewhere.
Value allocLike(OpBuilder &b, Location loc, RankedTensorType bufType,
                Value value, int64_t axis, Value len) {
  SmallVector<OpFoldResult> valueDims = getDims(b, loc, value);
  SmallVector<Value> dyn;
  for (int64_t d = 0, k = 0; d < bufType.getRank(); ++d) {
    if (d == axis) {
      if (bufType.isDynamicDim(d))
        dyn.push_back(len);
      continue;
    }
    OpFoldResult dim = valueDims[k++];
    if (bufType.isDynamicDim(d))
      dyn.push_back(ofrToValue(b, loc, dim));
  }
  return tensor::EmptyOp::create(b, loc, bufType.getShape(),
                                 bufType.getElementType(), dyn);
}

/// The element of a one-element tensor of any rank (the condition of If or
/// Loop, Loop's trip count), with a run-time check of each dynamic dim; a
/// lowering error when it is unranked or a static dim is not 1.
FailureOr<Value> extractOneElement(ConversionPatternRewriter &rewriter,
                                   Location loc, Value tensor, Operation *node,
                                   const Twine &what) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type)
    return emitLoweringError(node, what + " has an unknown rank");
  auto isNotOne = [](int64_t d) { return !ShapedType::isDynamic(d) && d != 1; };
  if (llvm::any_of(type.getShape(), isNotOne))
    return emitLoweringError(node, what +
                                       " must hold one element, but has "
                                       "type " +
                                       llvm::formatv("{0}", type).str());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size = tensor::DimOp::create(rewriter, loc, tensor, d);
    Value isOne = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        size, one);
    emitRuntimeCheck(rewriter, loc, isOne, node,
                     what + " must hold one element");
  }
  SmallVector<Value> indices(type.getRank(), zero);
  return Value(tensor::ExtractOp::create(rewriter, loc, tensor, indices));
}

/// Moves `region` (of an onnx op) into `dest`, its entry block arguments
/// converted and replaced with `args`.
LogicalResult moveBody(ConversionPatternRewriter &rewriter,
                       const TypeConverter &converter, Region &region,
                       Block *dest, ValueRange args, Location loc) {
  FailureOr<Block *> entry = rewriter.convertRegionTypes(&region, converter);
  if (failed(entry))
    return failure();
  SmallVector<Value> repl;
  OpBuilder::InsertionGuard g(rewriter);
  rewriter.setInsertionPointToEnd(dest);
  for (auto [arg, v] : llvm::zip((*entry)->getArguments(), args))
    repl.push_back(castIfNeeded(rewriter, loc, v, arg.getType()));
  rewriter.mergeBlocks(*entry, dest, repl);
  return success();
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

struct IfLowering : ONNXToLinalgPattern<IfOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)) ||
        !allLowerable(resultTypes))
      return emitLoweringError(op, "outputs that are not tensors (sequences, "
                                   "optionals) have no lowering yet");
    FailureOr<Value> cond =
        extractOneElement(rewriter, loc, adaptor.getCond(), op, "input 'cond'");
    if (failed(cond))
      return failure();
    auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, *cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    auto errors = op->getAttrOfType<DictionaryAttr>(getBranchErrorsAttrName());
    for (auto [src, dst, name] :
         {std::tuple<Region *, Region *, StringRef>{
              &op.getThenBranch(), &ifOp.getThenRegion(), "then_branch"},
          {&op.getElseBranch(), &ifOp.getElseRegion(), "else_branch"}}) {
      if (failed(rewriter.convertRegionTypes(src, *getTypeConverter())))
        return failure();
      rewriter.inlineRegionBefore(*src, *dst, dst->end());
      // A branch that onnx-infer-shapes found the nodes after the If do not
      // accept (it yields placeholders): taking it fails the run.
      if (auto why = errors ? errors.getAs<StringAttr>(name) : StringAttr()) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&dst->front());
        emitRuntimeCheck(rewriter, loc,
                         cst(rewriter, loc, rewriter.getI1Type(), 0), op,
                         "the run took " + name +
                             ", whose ranks the nodes after the If do not "
                             "accept: " +
                             why.getValue());
      }
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

struct LoopLowering : ONNXToLinalgPattern<LoopOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)) ||
        !allLowerable(resultTypes) ||
        !allLowerable(adaptor.getVInitial().getTypes()))
      return emitLoweringError(op, "values that are neither ranked tensors "
                                   "nor sequences/optionals");
    Block &body = op.getBody().front();
    int64_t nv = adaptor.getVInitial().size();
    int64_t ns = (int64_t)resultTypes.size() - nv;
    if (ns < 0 || body.getNumArguments() != (unsigned)nv + 2)
      return emitLoweringError(op, "body signature does not match the inputs");

    Type i64 = rewriter.getI64Type(), i1 = rewriter.getI1Type();
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
    Value trueV = arith::ConstantIntOp::create(rewriter, loc, i1, 1);
    Value maxTrip;
    if (Value m = adaptor.getM()) {
      FailureOr<Value> v = extractOneElement(rewriter, loc, m, op, "input 'M'");
      if (failed(v))
        return failure();
      maxTrip = *v;
    }
    Value cond0 = trueV;
    if (Value c = adaptor.getCond()) {
      FailureOr<Value> v =
          extractOneElement(rewriter, loc, c, op, "input 'cond'");
      if (failed(v))
        return failure();
      cond0 = *v;
    }

    SmallVector<Type> types = {i64, i1};
    SmallVector<Value> inits = {zero, cond0};
    for (int64_t k = 0; k < nv; ++k) {
      auto rt = dyn_cast<RankedTensorType>(resultTypes[k]);
      if (!rt) {
        // A runtime handle: the same pointer type on both sides.
        if (adaptor.getVInitial()[k].getType() != resultTypes[k])
          return emitLoweringError(op, "loop-carried value " + Twine(k) +
                                           " changes kind");
        types.push_back(resultTypes[k]);
        inits.push_back(adaptor.getVInitial()[k]);
        continue;
      }
      rt = joinTypes(
          rt, dyn_cast<RankedTensorType>(adaptor.getVInitial()[k].getType()));
      Type argT =
          getTypeConverter()->convertType(body.getArgument(k + 2).getType());
      rt = joinTypes(rt, dyn_cast_or_null<RankedTensorType>(argT));
      types.push_back(rt);
      inits.push_back(
          castIfNeeded(rewriter, loc, adaptor.getVInitial()[k], rt));
    }
    for (int64_t k = 0; k < ns; ++k) {
      auto rt = dyn_cast<RankedTensorType>(resultTypes[nv + k]);
      if (!rt)
        return emitLoweringError(op, "scan output " + Twine(k) +
                                         " is not a tensor");
      if (rt.getRank() < 1)
        return emitLoweringError(op, "scan output of rank 0");
      SmallVector<int64_t> shape(rt.getShape());
      shape[0] = ShapedType::kDynamic;
      auto bt = RankedTensorType::get(shape, rt.getElementType());
      SmallVector<Value> dyn;
      for (int64_t d = 0; d < bt.getRank(); ++d)
        if (bt.isDynamicDim(d))
          dyn.push_back(indexConst(rewriter, loc, 0));
      types.push_back(bt);
      inits.push_back(tensor::EmptyOp::create(rewriter, loc, bt.getShape(),
                                              bt.getElementType(), dyn));
    }

    auto whileOp = scf::WhileOp::create(rewriter, loc, types, inits);
    SmallVector<Location> locs(types.size(), loc);
    {
      OpBuilder::InsertionGuard g(rewriter);
      Block *before =
          rewriter.createBlock(&whileOp.getBefore(), {}, types, locs);
      Value c = before->getArgument(1);
      if (maxTrip) {
        Value lt =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                  before->getArgument(0), maxTrip);
        c = arith::AndIOp::create(rewriter, loc, c, lt);
      }
      scf::ConditionOp::create(rewriter, loc, c, before->getArguments());

      Block *after = rewriter.createBlock(&whileOp.getAfter(), {}, types, locs);
      SmallVector<Value> args;
      args.push_back(tensor::FromElementsOp::create(
          rewriter, loc, RankedTensorType::get({}, i64),
          ValueRange{after->getArgument(0)}));
      args.push_back(tensor::FromElementsOp::create(
          rewriter, loc, RankedTensorType::get({}, i1),
          ValueRange{after->getArgument(1)}));
      for (int64_t k = 0; k < nv; ++k)
        args.push_back(after->getArgument(2 + k));
      if (failed(moveBody(rewriter, *getTypeConverter(), op.getBody(), after,
                          args, loc)))
        return failure();
    }
    whileOp->setAttr(kLoopAttr, rewriter.getI64IntegerAttr(ns));

    SmallVector<Value> results;
    for (int64_t k = 0; k < nv; ++k)
      results.push_back(castIfNeeded(rewriter, loc, whileOp.getResult(2 + k),
                                     resultTypes[k]));
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), whileOp.getResult(0));
    for (int64_t k = 0; k < ns; ++k) {
      Value buf = whileOp.getResult(2 + nv + k);
      auto rt = cast<RankedTensorType>(resultTypes[nv + k]);
      SmallVector<OpFoldResult> sizes = getDims(rewriter, loc, buf);
      sizes[0] = count;
      SmallVector<OpFoldResult> offsets(rt.getRank(), rewriter.getIndexAttr(0)),
          strides(rt.getRank(), rewriter.getIndexAttr(1));
      Value rows = tensor::ExtractSliceOp::create(rewriter, loc, buf, offsets,
                                                  sizes, strides);
      if (!rt.isDynamicDim(0)) {
        Value eq = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, count,
            indexConst(rewriter, loc, rt.getDimSize(0)));
        emitRuntimeCheck(rewriter, loc, eq, op,
                         "number of iterations differs from the scan "
                         "output's declared length");
      }
      results.push_back(castIfNeeded(rewriter, loc, rows, rt));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

struct ScanLowering : ONNXToLinalgPattern<ScanOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    ValueRange inputs = adaptor.getInitialStateAndScanInputs();
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)) ||
        !allRankedTensors(resultTypes) || !allRankedTensors(inputs.getTypes()))
      return emitLoweringError(op, "inputs and outputs must be ranked "
                                   "tensors");
    if (!op.getNumScanInputs())
      return emitLoweringError(op, "num_scan_inputs is required");
    int64_t m = *op.getNumScanInputs();
    int64_t total = inputs.size();
    int64_t n = total - m;
    int64_t k = (int64_t)resultTypes.size() - n;
    Block &body = op.getBody().front();
    if (m < 1 || n < 0 || k < 0 || body.getNumArguments() != (unsigned)total)
      return emitLoweringError(op, "body signature does not match the inputs");

    auto getList = [&](std::optional<ArrayRef<int64_t>> attr, int64_t count,
                       SmallVector<int64_t> &out) -> bool {
      out.assign(count, 0);
      if (!attr)
        return true;
      if ((int64_t)attr->size() != count)
        return false;
      out.assign(attr->begin(), attr->end());
      return true;
    };
    SmallVector<int64_t> inAxes, inDirs, outAxes, outDirs;
    if (!getList(op.getScanInputAxes(), m, inAxes) ||
        !getList(op.getScanInputDirections(), m, inDirs) ||
        !getList(op.getScanOutputAxes(), k, outAxes) ||
        !getList(op.getScanOutputDirections(), k, outDirs))
      return emitLoweringError(op, "scan axes/directions lists of the wrong "
                                   "length");
    for (int64_t j = 0; j < m; ++j) {
      int64_t r = cast<RankedTensorType>(inputs[n + j].getType()).getRank();
      if (inAxes[j] < 0)
        inAxes[j] += r;
      if (inAxes[j] < 0 || inAxes[j] >= r)
        return emitLoweringError(op, "scan_input_axes out of range");
    }
    for (int64_t j = 0; j < k; ++j) {
      int64_t r = cast<RankedTensorType>(resultTypes[n + j]).getRank();
      if (outAxes[j] < 0)
        outAxes[j] += r;
      if (outAxes[j] < 0 || outAxes[j] >= r)
        return emitLoweringError(op, "scan_output_axes out of range");
    }

    // The scan length, the same for every scan input.
    Value len = tensor::DimOp::create(rewriter, loc, inputs[n], inAxes[0]);
    for (int64_t j = 1; j < m; ++j) {
      Value l = tensor::DimOp::create(rewriter, loc, inputs[n + j], inAxes[j]);
      Value eq = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       l, len);
      emitRuntimeCheck(rewriter, loc, eq, op,
                       "scan inputs of different lengths");
    }

    SmallVector<Value> inits;
    for (int64_t j = 0; j < n; ++j) {
      auto rt = joinTypes(cast<RankedTensorType>(resultTypes[j]),
                          cast<RankedTensorType>(inputs[j].getType()));
      Type argT =
          getTypeConverter()->convertType(body.getArgument(j).getType());
      rt = joinTypes(rt, dyn_cast_or_null<RankedTensorType>(argT));
      inits.push_back(castIfNeeded(rewriter, loc, inputs[j], rt));
    }
    for (int64_t j = 0; j < k; ++j) {
      auto rt = cast<RankedTensorType>(resultTypes[n + j]);
      SmallVector<int64_t> shape(rt.getShape());
      shape[outAxes[j]] = ShapedType::kDynamic;
      auto bt = RankedTensorType::get(shape, rt.getElementType());
      SmallVector<Value> dyn;
      for (int64_t d = 0; d < bt.getRank(); ++d)
        if (bt.isDynamicDim(d))
          dyn.push_back(d == outAxes[j] ? len : indexConst(rewriter, loc, 0));
      inits.push_back(tensor::EmptyOp::create(rewriter, loc, bt.getShape(),
                                              bt.getElementType(), dyn));
    }

    Value c0 = indexConst(rewriter, loc, 0), c1 = indexConst(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(rewriter, loc, c0, len, c1, inits);
    {
      OpBuilder::InsertionGuard g(rewriter);
      Block *loopBody = forOp.getBody();
      // Drop the default terminator if there is one: the moved body brings
      // its own.
      if (!loopBody->empty())
        rewriter.eraseOp(loopBody->getTerminator());
      rewriter.setInsertionPointToStart(loopBody);
      Value iv = forOp.getInductionVar();
      Value last = arith::SubIOp::create(rewriter, loc, len, c1);
      Value rev = arith::SubIOp::create(rewriter, loc, last, iv);
      SmallVector<Value> args;
      for (int64_t j = 0; j < n; ++j)
        args.push_back(forOp.getRegionIterArgs()[j]);
      for (int64_t j = 0; j < m; ++j) {
        Value in = inputs[n + j];
        auto it = cast<RankedTensorType>(in.getType());
        int64_t r = it.getRank();
        SmallVector<OpFoldResult> offsets(r, rewriter.getIndexAttr(0)),
            sizes = getDims(rewriter, loc, in),
            strides(r, rewriter.getIndexAttr(1));
        offsets[inAxes[j]] = inDirs[j] == 1 ? rev : iv;
        sizes[inAxes[j]] = rewriter.getIndexAttr(1);
        SmallVector<int64_t> shape;
        for (int64_t d = 0; d < r; ++d)
          if (d != inAxes[j])
            shape.push_back(it.getDimSize(d));
        auto st = RankedTensorType::get(shape, it.getElementType());
        args.push_back(tensor::ExtractSliceOp::create(rewriter, loc, st, in,
                                                      offsets, sizes, strides));
      }
      if (failed(moveBody(rewriter, *getTypeConverter(), op.getBody(), loopBody,
                          args, loc)))
        return failure();
    }
    forOp->setAttr(kScanAxesAttr, rewriter.getDenseI64ArrayAttr(outAxes));
    forOp->setAttr(kScanDirsAttr, rewriter.getDenseI64ArrayAttr(outDirs));

    SmallVector<Value> results;
    for (int64_t j = 0; j < n + k; ++j)
      results.push_back(
          castIfNeeded(rewriter, loc, forOp.getResult(j), resultTypes[j]));
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// onnx.yield
//===----------------------------------------------------------------------===//

struct YieldLowering : ONNXToLinalgPattern<YieldOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *parent = op->getParentOp();
    ValueRange values = adaptor.getValues();
    if (!allLowerable(values.getTypes()))
      return emitLoweringError(op, "values that are neither ranked tensors "
                                   "nor sequences/optionals");
    if (!isa<scf::IfOp, scf::WhileOp>(parent) &&
        !allRankedTensors(values.getTypes()))
      return emitLoweringError(op, "Scan states and outputs must be ranked "
                                   "tensors");
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      SmallVector<Value> out;
      for (auto [v, t] : llvm::zip(values, ifOp.getResultTypes()))
        out.push_back(castIfNeeded(rewriter, loc, v, t));
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, out);
      return success();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      auto nsAttr = whileOp->getAttrOfType<IntegerAttr>(kLoopAttr);
      if (!nsAttr)
        return failure();
      int64_t ns = nsAttr.getInt();
      Block *after = op->getBlock();
      int64_t nv = (int64_t)after->getNumArguments() - 2 - ns;
      if ((int64_t)values.size() != 1 + nv + ns)
        return emitLoweringError(op, "body yields the wrong number of values");
      Value i = after->getArgument(0);
      SmallVector<Value> next;
      Value one =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 1);
      next.push_back(arith::AddIOp::create(rewriter, loc, i, one));
      FailureOr<Value> cond = extractOneElement(
          rewriter, loc, values[0], op, "the condition the Loop body yields");
      if (failed(cond))
        return failure();
      next.push_back(*cond);
      for (int64_t k = 0; k < nv; ++k)
        next.push_back(castIfNeeded(rewriter, loc, values[1 + k],
                                    after->getArgument(2 + k).getType()));
      Value pos =
          arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), i);
      for (int64_t k = 0; k < ns; ++k) {
        Value v = values[1 + nv + k];
        Value buf = after->getArgument(2 + nv + k);
        auto bt = cast<RankedTensorType>(buf.getType());
        auto vt = dyn_cast<RankedTensorType>(v.getType());
        if (!vt || vt.getRank() + 1 != bt.getRank())
          return emitLoweringError(op, "scan output value of the wrong rank");
        // Grow the buffer (doubling) when it is full.
        Value cap = tensor::DimOp::create(rewriter, loc, buf, 0);
        Value full = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::uge, pos, cap);
        auto grow = scf::IfOp::create(rewriter, loc, TypeRange{bt}, full,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard g(rewriter);
          rewriter.setInsertionPointToStart(grow.thenBlock());
          Value twice = arith::MulIOp::create(rewriter, loc, cap,
                                              indexConst(rewriter, loc, 2));
          Value newCap = arith::MaxUIOp::create(rewriter, loc, twice,
                                                indexConst(rewriter, loc, 1));
          Value fresh = allocLike(rewriter, loc, bt, v, 0, newCap);
          SmallVector<OpFoldResult> offsets(bt.getRank(),
                                            rewriter.getIndexAttr(0)),
              strides(bt.getRank(), rewriter.getIndexAttr(1));
          Value copied = tensor::InsertSliceOp::create(
              rewriter, loc, buf, fresh, offsets, getDims(rewriter, loc, buf),
              strides);
          scf::YieldOp::create(rewriter, loc, copied);
          rewriter.setInsertionPointToStart(grow.elseBlock());
          scf::YieldOp::create(rewriter, loc, buf);
        }
        Value grown = grow.getResult(0);
        checkDims(rewriter, loc, v, grown, 0, op);
        next.push_back(insertAlong(rewriter, loc, v, grown, 0, pos));
      }
      rewriter.modifyOpInPlace(whileOp,
                               [&] { whileOp->removeAttr(kLoopAttr); });
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
      return success();
    }
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      auto axesAttr = forOp->getAttrOfType<DenseI64ArrayAttr>(kScanAxesAttr);
      auto dirsAttr = forOp->getAttrOfType<DenseI64ArrayAttr>(kScanDirsAttr);
      if (!axesAttr || !dirsAttr)
        return failure();
      int64_t k = axesAttr.size();
      int64_t n = (int64_t)forOp.getNumRegionIterArgs() - k;
      if ((int64_t)values.size() != n + k)
        return emitLoweringError(op, "body yields the wrong number of values");
      SmallVector<Value> next;
      for (int64_t j = 0; j < n; ++j)
        next.push_back(castIfNeeded(rewriter, loc, values[j],
                                    forOp.getRegionIterArgs()[j].getType()));
      Value iv = forOp.getInductionVar();
      Value c1 = indexConst(rewriter, loc, 1);
      Value last =
          arith::SubIOp::create(rewriter, loc, forOp.getUpperBound(), c1);
      Value rev = arith::SubIOp::create(rewriter, loc, last, iv);
      Value isFirst = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, iv, forOp.getLowerBound());
      for (int64_t j = 0; j < k; ++j) {
        Value v = values[n + j];
        Value buf = forOp.getRegionIterArgs()[n + j];
        auto bt = cast<RankedTensorType>(buf.getType());
        int64_t axis = axesAttr[j];
        if (cast<RankedTensorType>(v.getType()).getRank() + 1 != bt.getRank())
          return emitLoweringError(op, "scan output value of the wrong rank");
        bool dynamicElse = false;
        for (int64_t d = 0; d < bt.getRank(); ++d)
          dynamicElse |= d != axis && bt.isDynamicDim(d);
        if (dynamicElse) {
          // Dims of the values are known from the first iteration on.
          auto alloc = scf::IfOp::create(rewriter, loc, TypeRange{bt}, isFirst,
                                         /*withElseRegion=*/true);
          OpBuilder::InsertionGuard g(rewriter);
          rewriter.setInsertionPointToStart(alloc.thenBlock());
          Value fresh =
              allocLike(rewriter, loc, bt, v, axis, forOp.getUpperBound());
          scf::YieldOp::create(rewriter, loc, fresh);
          rewriter.setInsertionPointToStart(alloc.elseBlock());
          scf::YieldOp::create(rewriter, loc, buf);
          rewriter.setInsertionPointAfter(alloc);
          buf = alloc.getResult(0);
        }
        checkDims(rewriter, loc, v, buf, axis, op);
        next.push_back(insertAlong(rewriter, loc, v, buf, axis,
                                   dirsAttr[j] == 1 ? rev : iv));
      }
      rewriter.modifyOpInPlace(forOp, [&] {
        forOp->removeAttr(kScanAxesAttr);
        forOp->removeAttr(kScanDirsAttr);
      });
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
      return success();
    }
    return emitLoweringError(op, "onnx.yield outside of a lowered If, Loop "
                                 "or Scan");
  }
};

} // namespace

void mlir::onnx::populateControlFlowToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<IfLowering, LoopLowering, ScanLowering, YieldLowering>(
      converter, patterns.getContext());
}
