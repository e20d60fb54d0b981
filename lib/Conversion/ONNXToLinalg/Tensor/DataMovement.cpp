//===- DataMovement.cpp - Data movement onnx ops to tensor/linalg ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Transpose (linalg.transpose), Concat (tensor.concat), Split and Slice
// (tensor.extract_slice; a gathering generic for negative or run-time
// steps), Pad (tensor.pad for constants, a generic with the mode's index
// mapping for edge/reflect/wrap; negative pads crop first), Tile
// (linalg.broadcast + collapse_shape), DepthToSpace/SpaceToDepth (expand,
// transpose, collapse), EyeLike, Trilu, ReverseSequence, Compress and
// Col2Im (a gathering generic with the kernel positions as reductions).
// Starts, ends, steps, axes, pads, repeats and split sizes that are not
// constants are read at run time.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;

/// Folds constant values to attributes.
OpFoldResult fold(Value v) { return getAsOpFoldResult(v); }

//===----------------------------------------------------------------------===//
// Transpose, Concat, Split
//===----------------------------------------------------------------------===//

struct TransposeLowering : ONNXToLinalgPattern<TransposeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    int64_t rank = inType.getRank();
    SmallVector<int64_t> perm;
    if (auto p = op.getPerm())
      perm.assign(p->begin(), p->end());
    else
      perm = llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank)));
    if ((int64_t)perm.size() != rank || !isPermutationVector(perm))
      return emitLoweringError(op, "perm is not a permutation of the dims");
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> inDims = getDims(rewriter, loc, data);
    SmallVector<OpFoldResult> dims;
    for (int64_t p : perm)
      dims.push_back(inDims[p]);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, dims, type.getElementType());
    Value r = linalg::TransposeOp::create(rewriter, loc, data, init, perm)
                  .getResult()[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
    return success();
  }
};

struct ConcatLowering : ONNXToLinalgPattern<ConcatOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    if (!type || !op.getAxis() || adaptor.getInputs().empty())
      return emitLoweringError(op, "expected ranked tensors and an axis");
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(*op.getAxis());
    if (failed(resolveAxis(op, axis, rank)))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    Value first = adaptor.getInputs().front();
    for (Value in : adaptor.getInputs()) {
      auto t = dyn_cast<RankedTensorType>(in.getType());
      if (!t || t.getRank() != rank)
        return emitLoweringError(op, "inputs must be ranked as the result");
      // The other dims must agree (checked at run time where dynamic).
      SmallVector<int64_t> shape(t.getShape());
      for (int64_t d = 0; d < rank; ++d) {
        if (d == axis)
          continue;
        if (t.isDynamicDim(d) && !type.isDynamicDim(d)) {
          Value dim = tensor::DimOp::create(rewriter, loc, in, d);
          check(rewriter, loc,
                cmpI(rewriter, loc, Pred::eq, dim,
                     idx(rewriter, loc, type.getDimSize(d))),
                op, "inputs differ in dim " + Twine(d));
          shape[d] = type.getDimSize(d);
        } else if (t.isDynamicDim(d) || type.isDynamicDim(d)) {
          Value a = tensor::DimOp::create(rewriter, loc, in, d);
          Value b0 = tensor::DimOp::create(rewriter, loc, first, d);
          check(rewriter, loc, cmpI(rewriter, loc, Pred::eq, a, b0), op,
                "inputs differ in dim " + Twine(d));
        }
      }
      inputs.push_back(castTo(rewriter, loc, in, t.clone(shape)));
    }
    // Empty inputs along the axis are dropped when that is static.
    SmallVector<Value> nonEmpty;
    for (Value in : inputs)
      if (cast<RankedTensorType>(in.getType()).getDimSize(axis) != 0)
        nonEmpty.push_back(in);
    if (nonEmpty.empty())
      nonEmpty.push_back(inputs.front());
    Value r =
        nonEmpty.size() == 1
            ? nonEmpty.front()
            : (Value)tensor::ConcatOp::create(rewriter, loc, axis, nonEmpty);
    rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
    return success();
  }
};

struct SplitLowering : ONNXToLinalgPattern<SplitOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!inType)
      return emitLoweringError(op, "expected a ranked input");
    int64_t n = op->getNumResults();
    SmallVector<RankedTensorType> types;
    for (int64_t i = 0; i < n; ++i) {
      auto t = getResultType(op, i);
      if (!t)
        return emitLoweringError(op, "expected ranked results");
      types.push_back(t);
    }
    int64_t rank = inType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (failed(resolveAxis(op, axis, rank)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value dim = toValue(b, loc, getDims(b, loc, input)[axis]);
    SmallVector<Value> sizes;
    if (Value split = adaptor.getSplit()) {
      std::optional<SmallVector<OpFoldResult>> values =
          getIndexValues(b, loc, split);
      if (!values || (int64_t)values->size() != n)
        return emitLoweringError(op, "the split input must have " + Twine(n) +
                                         " values (one per output)");
      Value sum = idx(b, loc, 0);
      for (OpFoldResult v : *values) {
        Value s = toValue(b, loc, v);
        check(b, loc, cmpI(b, loc, Pred::sge, s, idx(b, loc, 0)), op,
              "a negative split size");
        sizes.push_back(s);
        sum = addI(b, loc, sum, s);
      }
      check(b, loc, cmpI(b, loc, Pred::eq, sum, dim), op,
            "the split sizes do not add up to the dim");
    } else if (op.getNumOutputs()) {
      // ceil(dim / n) each, the last smaller.
      Value chunk =
          b.createOrFold<arith::CeilDivUIOp>(loc, dim, idx(b, loc, n));
      for (int64_t i = 0; i < n; ++i) {
        Value left =
            maxI(b, loc, subI(b, loc, dim, mulI(b, loc, chunk, idx(b, loc, i))),
                 idx(b, loc, 0));
        sizes.push_back(minI(b, loc, chunk, left));
      }
    } else {
      Value chunk = b.createOrFold<arith::DivUIOp>(loc, dim, idx(b, loc, n));
      check(b, loc,
            cmpI(b, loc, Pred::eq, mulI(b, loc, chunk, idx(b, loc, n)), dim),
            op, "the dim does not split into equal parts");
      sizes.assign(n, chunk);
    }
    SmallVector<OpFoldResult> inDims = getDims(b, loc, input);
    SmallVector<Value> results;
    Value offset = idx(b, loc, 0);
    for (int64_t i = 0; i < n; ++i) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      SmallVector<OpFoldResult> dims(inDims);
      offsets[axis] = fold(offset);
      dims[axis] = fold(sizes[i]);
      dims = preferStatic(b, loc, op, types[i], dims);
      // A slice that is statically empty is a fresh empty tensor (its
      // offset may be the end of the dim, which extract_slice rejects).
      if (llvm::any_of(dims, [](OpFoldResult d) {
            return staticValue(d) == std::optional<int64_t>(0);
          })) {
        results.push_back(castTo(
            b, loc,
            tensor::EmptyOp::create(b, loc, dims, types[i].getElementType()),
            types[i]));
        offset = addI(b, loc, offset, sizes[i]);
        continue;
      }
      Value r =
          tensor::ExtractSliceOp::create(b, loc, input, offsets, dims, strides);
      results.push_back(castTo(b, loc, r, types[i]));
      offset = addI(b, loc, offset, sizes[i]);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

/// Per-dim values of (axes, values) pairs: `out[d]` is the value whose axis
/// is d (negative axes count from the end), else `fallback`. Axes that are
/// not constants are compared at run time.
std::optional<SmallVector<Value>> valuesPerDim(OpBuilder &b, Location loc,
                                               int64_t rank, Value axesTensor,
                                               ArrayRef<OpFoldResult> values,
                                               Value fallback) {
  int64_t k = values.size();
  SmallVector<OpFoldResult> axes;
  if (axesTensor) {
    std::optional<SmallVector<OpFoldResult>> a =
        getIndexValues(b, loc, axesTensor);
    if (!a || (int64_t)a->size() != k)
      return std::nullopt;
    axes = *a;
  } else {
    for (int64_t i = 0; i < k; ++i)
      axes.push_back(b.getIndexAttr(i));
  }
  SmallVector<Value> out(rank, fallback);
  for (int64_t i = 0; i < k; ++i) {
    if (std::optional<int64_t> a = staticValue(axes[i])) {
      int64_t axis = *a < 0 ? *a + rank : *a;
      if (axis < 0 || axis >= rank)
        return std::nullopt;
      out[axis] = toValue(b, loc, values[i]);
      continue;
    }
    Value a = toValue(b, loc, axes[i]);
    for (int64_t d = 0; d < rank; ++d) {
      Value match = orI(b, loc, cmpI(b, loc, Pred::eq, a, idx(b, loc, d)),
                        cmpI(b, loc, Pred::eq, a, idx(b, loc, d - rank)));
      out[d] = select(b, loc, match, toValue(b, loc, values[i]), out[d]);
    }
  }
  return out;
}

struct SliceLowering : ONNXToLinalgPattern<SliceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = inType.getRank();
    auto starts = getIndexValues(b, loc, adaptor.getStarts());
    auto ends = getIndexValues(b, loc, adaptor.getEnds());
    if (!starts || !ends || starts->size() != ends->size())
      return emitLoweringError(op,
                               "starts and ends need the same static length");
    SmallVector<OpFoldResult> stepValues(starts->size(), b.getIndexAttr(1));
    if (Value steps = adaptor.getSteps()) {
      auto s = getIndexValues(b, loc, steps);
      if (!s || s->size() != starts->size())
        return emitLoweringError(op, "steps need the length of starts");
      stepValues = *s;
    }
    SmallVector<OpFoldResult> inDims = getDims(b, loc, data);
    // Dims that are not sliced take all of the dim: start 0, end INT64_MAX.
    auto s =
        valuesPerDim(b, loc, rank, adaptor.getAxes(), *starts, idx(b, loc, 0));
    auto e = valuesPerDim(b, loc, rank, adaptor.getAxes(), *ends,
                          idx(b, loc, std::numeric_limits<int64_t>::max()));
    auto t = valuesPerDim(b, loc, rank, adaptor.getAxes(), stepValues,
                          idx(b, loc, 1));
    if (!s || !e || !t)
      return emitLoweringError(op, "axes out of range or of the wrong length");
    Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    bool positiveSteps = true;
    for (int64_t d = 0; d < rank; ++d) {
      Value n = toValue(b, loc, inDims[d]);
      Value start = (*s)[d], end = (*e)[d], step = (*t)[d];
      check(b, loc, cmpI(b, loc, Pred::ne, step, zero), op, "a step is 0");
      start = select(b, loc, cmpI(b, loc, Pred::slt, start, zero),
                     addI(b, loc, start, n), start);
      end = select(b, loc, cmpI(b, loc, Pred::slt, end, zero),
                   addI(b, loc, end, n), end);
      Value positive = cmpI(b, loc, Pred::sgt, step, zero);
      Value nMinusOne = subI(b, loc, n, one);
      start = select(b, loc, positive, clampI(b, loc, start, zero, n),
                     clampI(b, loc, start, zero, nMinusOne));
      end = select(b, loc, positive, clampI(b, loc, end, zero, n),
                   clampI(b, loc, end, idx(b, loc, -1), nMinusOne));
      Value safeStep =
          select(b, loc, cmpI(b, loc, Pred::eq, step, zero), one, step);
      // ceil((end - start) / step), at least 0 (for both signs of step).
      Value len = b.createOrFold<arith::CeilDivSIOp>(
          loc, subI(b, loc, end, start), safeStep);
      len = maxI(b, loc, len, zero);
      std::optional<int64_t> staticStep = staticValue(fold(step));
      if (!staticStep || *staticStep < 0)
        positiveSteps = false;
      // An empty slice starts at 0: extract_slice rejects an offset at the
      // end of the dim, even for size 0.
      offsets.push_back(
          fold(select(b, loc, cmpI(b, loc, Pred::eq, len, zero), zero, start)));
      sizes.push_back(fold(len));
      strides.push_back(fold(step));
    }
    sizes = preferStatic(b, loc, op, type, sizes);
    if (positiveSteps) {
      Value r =
          tensor::ExtractSliceOp::create(b, loc, data, offsets, sizes, strides);
      rewriter.replaceOp(op, castTo(b, loc, r, type));
      return success();
    }
    // Negative or run-time steps: out[i] = data[start + i * step].
    Value r = buildIndexGeneric(
        b, loc, type, sizes, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(
                addI(nb, nloc, toValue(nb, nloc, offsets[d]),
                     mulI(nb, nloc, ivs[d], toValue(nb, nloc, strides[d]))));
          return (Value)tensor::ExtractOp::create(nb, nloc, data, indices);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

struct PadLowering : ONNXToLinalgPattern<PadOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    StringRef mode = op.getMode();
    if (mode != "constant" && mode != "edge" && mode != "reflect" &&
        mode != "wrap")
      return emitLoweringError(op, "unknown mode '" + mode + "'");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = inType.getRank();
    auto pads = getIndexValues(b, loc, adaptor.getPads());
    if (!pads || pads->size() % 2 != 0)
      return emitLoweringError(op, "the pads need a static, even length");
    int64_t k = pads->size() / 2;
    if (!adaptor.getAxes() && k != rank)
      return emitLoweringError(op, "pads must have 2 values per dim");
    auto lows = valuesPerDim(b, loc, rank, adaptor.getAxes(),
                             ArrayRef(*pads).take_front(k), idx(b, loc, 0));
    auto highs = valuesPerDim(b, loc, rank, adaptor.getAxes(),
                              ArrayRef(*pads).drop_front(k), idx(b, loc, 0));
    if (!lows || !highs)
      return emitLoweringError(op, "axes out of range or of the wrong length");

    // Negative pads crop first.
    Value zero = idx(b, loc, 0);
    SmallVector<OpFoldResult> inDims = getDims(b, loc, data);
    SmallVector<OpFoldResult> offsets, sizes, low, high;
    bool crops = false;
    for (int64_t d = 0; d < rank; ++d) {
      Value lo = (*lows)[d], hi = (*highs)[d];
      Value cropLow = maxI(b, loc, subI(b, loc, zero, lo), zero);
      Value cropHigh = maxI(b, loc, subI(b, loc, zero, hi), zero);
      Value n = toValue(b, loc, inDims[d]);
      Value kept = subI(b, loc, subI(b, loc, n, cropLow), cropHigh);
      check(b, loc, cmpI(b, loc, Pred::sge, kept, zero), op,
            "negative pads remove more than dim " + Twine(d));
      kept = maxI(b, loc, kept, zero);
      if (!matchPattern(cropLow, m_Zero()) || !matchPattern(cropHigh, m_Zero()))
        crops = true;
      offsets.push_back(fold(
          select(b, loc, cmpI(b, loc, Pred::eq, kept, zero), zero, cropLow)));
      sizes.push_back(fold(kept));
      low.push_back(fold(maxI(b, loc, lo, zero)));
      high.push_back(fold(maxI(b, loc, hi, zero)));
    }
    Value source = data;
    if (crops) {
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      source =
          tensor::ExtractSliceOp::create(b, loc, data, offsets, sizes, strides);
    }
    SmallVector<OpFoldResult> outDims;
    for (int64_t d = 0; d < rank; ++d)
      outDims.push_back(fold(
          addI(b, loc,
               addI(b, loc, toValue(b, loc, sizes[d]), toValue(b, loc, low[d])),
               toValue(b, loc, high[d]))));
    outDims = preferStatic(b, loc, op, type, outDims);

    if (mode == "constant") {
      Value padValue;
      if (Value c = adaptor.getConstantValue()) {
        auto ct = cast<RankedTensorType>(c.getType());
        if (ct.hasStaticShape() && ct.getNumElements() == 0)
          padValue = zeroOf(b, loc, type.getElementType());
        else
          padValue = extractScalar(b, loc, c);
      } else {
        padValue = zeroOf(b, loc, type.getElementType());
      }
      if (!padValue)
        return emitLoweringError(op, "unsupported element type");
      SmallVector<int64_t> shape;
      for (OpFoldResult d : outDims)
        shape.push_back(staticValue(d).value_or(ShapedType::kDynamic));
      Value r = tensor::PadOp::create(b, loc, type.clone(shape), source, low,
                                      high, padValue);
      rewriter.replaceOp(op, castTo(b, loc, r, type));
      return success();
    }

    // edge, reflect, wrap: an index mapping per dim into the kept part.
    SmallVector<Value> keptSizes;
    for (int64_t d = 0; d < rank; ++d) {
      Value n = toValue(b, loc, sizes[d]);
      Value padded =
          addI(b, loc, toValue(b, loc, low[d]), toValue(b, loc, high[d]));
      check(b, loc,
            orI(b, loc, cmpI(b, loc, Pred::sgt, n, zero),
                cmpI(b, loc, Pred::eq, padded, zero)),
            op, "cannot pad an empty dim in mode " + mode);
      keptSizes.push_back(n);
    }
    Value r = buildIndexGeneric(
        b, loc, type, outDims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          Value z = idx(nb, nloc, 0), one = idx(nb, nloc, 1);
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            Value n = keptSizes[d];
            Value i = subI(nb, nloc, ivs[d], toValue(nb, nloc, low[d]));
            Value last = maxI(nb, nloc, subI(nb, nloc, n, one), z);
            if (mode == "edge") {
              i = clampI(nb, nloc, i, z, last);
            } else {
              // Positive remainder by the period (n for wrap, 2(n-1) for
              // reflect).
              Value period =
                  mode == "wrap" ? n : mulI(nb, nloc, last, idx(nb, nloc, 2));
              Value safe = maxI(nb, nloc, period, one);
              Value m = arith::RemSIOp::create(nb, nloc, i, safe);
              m = select(nb, nloc, cmpI(nb, nloc, Pred::slt, m, z),
                         addI(nb, nloc, m, safe), m);
              if (mode == "reflect")
                m = select(nb, nloc, cmpI(nb, nloc, Pred::sge, m, n),
                           subI(nb, nloc, period, m), m);
              i = clampI(nb, nloc, m, z, last);
            }
            indices.push_back(i);
          }
          return (Value)tensor::ExtractOp::create(nb, nloc, source, indices);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tile, DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

struct TileLowering : ONNXToLinalgPattern<TileOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, input, type, inType)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = inType.getRank();
    auto repeats = getIndexValues(b, loc, adaptor.getRepeats());
    if (!repeats || (int64_t)repeats->size() != rank)
      return emitLoweringError(op, "repeats needs one value per dim");
    if (rank == 0) {
      rewriter.replaceOp(op, castTo(b, loc, input, type));
      return success();
    }
    // out[r_d * n_d + i_d] = in[i_d]: broadcast to [r0, n0, r1, n1, ...],
    // then collapse the pairs.
    SmallVector<OpFoldResult> inDims = getDims(b, loc, input);
    SmallVector<OpFoldResult> dims;
    SmallVector<int64_t> added;
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank; ++d) {
      Value r = toValue(b, loc, (*repeats)[d]);
      check(b, loc, cmpI(b, loc, Pred::sge, r, idx(b, loc, 0)), op,
            "a negative repeat");
      added.push_back(2 * d);
      dims.push_back(fold(r));
      dims.push_back(inDims[d]);
      groups.push_back({2 * d, 2 * d + 1});
    }
    Value init = tensor::EmptyOp::create(b, loc, dims, type.getElementType());
    Value wide =
        linalg::BroadcastOp::create(b, loc, input, init, added).getResult()[0];
    Value r = tensor::CollapseShapeOp::create(b, loc, wide, groups);
    rewriter.replaceOp(op, castTo(b, loc, r, type));
    return success();
  }
};

/// The NCHW dims of a 4-D input and a check that `dim` divides by `by`.
Value checkedDiv(OpBuilder &b, Location loc, Value dim, int64_t by,
                 Operation *node, const Twine &what) {
  Value byValue = idx(b, loc, by);
  check(b, loc,
        cmpI(b, loc, Pred::eq,
             b.createOrFold<arith::RemUIOp>(loc, dim, byValue), idx(b, loc, 0)),
        node, what);
  return b.createOrFold<arith::DivUIOp>(loc, dim, byValue);
}

/// expand_shape of `input` to `dims` with `groups`, transpose by `perm`,
/// collapse with `outGroups`.
Value expandTransposeCollapse(OpBuilder &b, Location loc, Value input,
                              ArrayRef<OpFoldResult> dims,
                              ArrayRef<ReassociationIndices> groups,
                              ArrayRef<int64_t> perm,
                              ArrayRef<ReassociationIndices> outGroups) {
  auto inType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult d : dims)
    shape.push_back(staticValue(d).value_or(ShapedType::kDynamic));
  Value expanded = tensor::ExpandShapeOp::create(b, loc, inType.clone(shape),
                                                 input, groups, dims);
  SmallVector<OpFoldResult> permuted;
  for (int64_t p : perm)
    permuted.push_back(dims[p]);
  Value init =
      tensor::EmptyOp::create(b, loc, permuted, inType.getElementType());
  Value t =
      linalg::TransposeOp::create(b, loc, expanded, init, perm).getResult()[0];
  return tensor::CollapseShapeOp::create(b, loc, t, outGroups);
}

/// The checks of DepthToSpace and SpaceToDepth: a ranked result, a 4-D
/// input and a positive blocksize (read into `bs`).
template <typename OpTy>
LogicalResult checkBlocks(OpTy op, RankedTensorType type, Value input,
                          int64_t &bs) {
  auto inType = dyn_cast<RankedTensorType>(input.getType());
  if (!type || !inType || inType.getRank() != 4 || !op.getBlocksize())
    return emitLoweringError(op, "expected a 4-D input and a blocksize");
  bs = static_cast<int64_t>(*op.getBlocksize());
  if (bs <= 0)
    return emitLoweringError(op, "blocksize must be positive");
  return success();
}

struct DepthToSpaceLowering : ONNXToLinalgPattern<DepthToSpaceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(DepthToSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    int64_t bs = 0;
    if (failed(checkBlocks(op, type, input, bs)))
      return failure();
    bool dcr = op.getMode() != "CRD";
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<OpFoldResult> d = getDims(b, loc, input);
    OpFoldResult c = fold(checkedDiv(b, loc, toValue(b, loc, d[1]), bs * bs, op,
                                     "channels do not divide by "
                                     "blocksize * blocksize"));
    OpFoldResult bsAttr = b.getIndexAttr(bs);
    SmallVector<OpFoldResult> dims =
        dcr ? SmallVector<OpFoldResult>{d[0], bsAttr, bsAttr, c, d[2], d[3]}
            : SmallVector<OpFoldResult>{d[0], c, bsAttr, bsAttr, d[2], d[3]};
    SmallVector<int64_t> perm = dcr ? SmallVector<int64_t>{0, 3, 4, 1, 5, 2}
                                    : SmallVector<int64_t>{0, 1, 4, 2, 5, 3};
    Value r =
        expandTransposeCollapse(b, loc, input, dims, {{0}, {1, 2, 3}, {4}, {5}},
                                perm, {{0}, {1}, {2, 3}, {4, 5}});
    rewriter.replaceOp(op, castTo(b, loc, r, type));
    return success();
  }
};

struct SpaceToDepthLowering : ONNXToLinalgPattern<SpaceToDepthOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SpaceToDepthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    int64_t bs = 0;
    if (failed(checkBlocks(op, type, input, bs)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<OpFoldResult> d = getDims(b, loc, input);
    OpFoldResult h = fold(checkedDiv(b, loc, toValue(b, loc, d[2]), bs, op,
                                     "the height does not divide by "
                                     "blocksize"));
    OpFoldResult w = fold(checkedDiv(b, loc, toValue(b, loc, d[3]), bs, op,
                                     "the width does not divide by "
                                     "blocksize"));
    OpFoldResult bsAttr = b.getIndexAttr(bs);
    Value r = expandTransposeCollapse(
        b, loc, input, {d[0], d[1], h, bsAttr, w, bsAttr},
        {{0}, {1}, {2, 3}, {4, 5}}, {0, 3, 5, 1, 2, 4},
        {{0}, {1, 2, 3}, {4}, {5}});
    rewriter.replaceOp(op, castTo(b, loc, r, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// EyeLike, Trilu
//===----------------------------------------------------------------------===//

struct EyeLikeLowering : ONNXToLinalgPattern<EyeLikeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(EyeLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    if (!type || type.getRank() != 2 || !isa<RankedTensorType>(input.getType()))
      return emitLoweringError(op, "expected 2-D tensors");
    Location loc = op.getLoc();
    Type t = type.getElementType();
    if (!zeroOf(rewriter, loc, t))
      return emitLoweringError(op, "unsupported element type");
    int64_t k = static_cast<int64_t>(op.getK());
    Value r = buildIndexGeneric(
        rewriter, loc, type, getDims(rewriter, loc, input), {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          Value diag = cmpI(nb, nloc, Pred::eq, subI(nb, nloc, ivs[1], ivs[0]),
                            idx(nb, nloc, k));
          return select(nb, nloc, diag, createScalarConstant(nb, nloc, t, 1),
                        zeroOf(nb, nloc, t));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct TriluLowering : ONNXToLinalgPattern<TriluOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(TriluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    if (!type || type.getRank() < 2 || !isa<RankedTensorType>(input.getType()))
      return emitLoweringError(op, "expected tensors of rank 2 or more");
    Location loc = op.getLoc();
    Type t = type.getElementType();
    if (!zeroOf(rewriter, loc, t))
      return emitLoweringError(op, "unsupported element type");
    Value k = idx(rewriter, loc, 0);
    if (Value kt = adaptor.getK())
      k = castToIndex(rewriter, loc, extractScalar(rewriter, loc, kt));
    bool upper = op.getUpper() != 0;
    int64_t rank = type.getRank();
    Value r = buildIndexGeneric(
        rewriter, loc, type, getDims(rewriter, loc, input), {input},
        {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value diff = subI(nb, nloc, ivs[rank - 1], ivs[rank - 2]);
          Value keep = cmpI(nb, nloc, upper ? Pred::sge : Pred::sle, diff, k);
          return select(nb, nloc, keep, args[0], zeroOf(nb, nloc, t));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ReverseSequence, Compress
//===----------------------------------------------------------------------===//

struct ReverseSequenceLowering : ONNXToLinalgPattern<ReverseSequenceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ReverseSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inType || inType.getRank() < 2)
      return emitLoweringError(op, "expected tensors of rank 2 or more");
    int64_t batchAxis = static_cast<int64_t>(op.getBatchAxis());
    int64_t timeAxis = static_cast<int64_t>(op.getTimeAxis());
    if (batchAxis < 0 || batchAxis > 1 || timeAxis < 0 || timeAxis > 1 ||
        batchAxis == timeAxis)
      return emitLoweringError(op, "batch_axis and time_axis must be 0 and 1");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = type.getRank();
    Value lens = adaptor.getSequenceLens();
    Value batch = toValue(b, loc, getDims(b, loc, input)[batchAxis]);
    Value lensCount = tensor::DimOp::create(b, loc, lens, 0);
    check(b, loc, cmpI(b, loc, Pred::eq, lensCount, batch), op,
          "sequence_lens does not have one value per batch");
    Value time = toValue(b, loc, getDims(b, loc, input)[timeAxis]);
    MLIRContext *ctx = b.getContext();
    AffineMap lensMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(batchAxis, ctx)}, ctx);
    Value r = buildIndexGeneric(
        b, loc, type, getDims(b, loc, input), {lens}, {lensMap},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value len = castToIndex(nb, nloc, args[0]);
          Value z = idx(nb, nloc, 0);
          check(nb, nloc,
                andI(nb, nloc, cmpI(nb, nloc, Pred::sge, len, z),
                     cmpI(nb, nloc, Pred::sle, len, time)),
                op, "a sequence length is out of range");
          Value t = ivs[timeAxis];
          Value reversed =
              subI(nb, nloc, subI(nb, nloc, len, idx(nb, nloc, 1)), t);
          Value src =
              select(nb, nloc, cmpI(nb, nloc, Pred::slt, t, len), reversed, t);
          src =
              clampI(nb, nloc, src, z,
                     maxI(nb, nloc, subI(nb, nloc, time, idx(nb, nloc, 1)), z));
          SmallVector<Value> indices(ivs);
          indices[timeAxis] = src;
          return (Value)tensor::ExtractOp::create(nb, nloc, input, indices);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct CompressLowering : ONNXToLinalgPattern<CompressOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(CompressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    Value cond = adaptor.getCondition();
    if (!type || !inType)
      return emitLoweringError(op, "expected ranked tensors");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t axis = 0;
    if (op.getAxis()) {
      axis = static_cast<int64_t>(*op.getAxis());
      if (failed(resolveAxis(op, axis, inType.getRank())))
        return failure();
    } else {
      // Without an axis the input is flattened.
      OpFoldResult n = product(b, loc, getDims(b, loc, input));
      auto flatType =
          RankedTensorType::get({staticValue(n).value_or(ShapedType::kDynamic)},
                                inType.getElementType());
      input = reshapeTo(b, loc, input, flatType, {n});
      inType = flatType;
    }
    if (type.getRank() != inType.getRank())
      return emitLoweringError(op, "the result rank does not match");
    Value n = toValue(b, loc, getDims(b, loc, input)[axis]);
    Value len = minI(b, loc, tensor::DimOp::create(b, loc, cond, 0), n);
    Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
    // Count the selected slices, then list their positions.
    Value count = buildLoopNest(
        b, loc, {len}, {zero},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value c = tensor::ExtractOp::create(nb, nloc, cond, ivs[0]);
          return SmallVector<Value>{
              select(nb, nloc, c, addI(nb, nloc, args[0], one), args[0])};
        })[0];
    Value positions = tensor::EmptyOp::create(
        b, loc, ArrayRef<OpFoldResult>{count}, b.getIndexType());
    positions = buildLoopNest(
        b, loc, {len}, {zero, positions},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value c = tensor::ExtractOp::create(nb, nloc, cond, ivs[0]);
          auto ifOp = scf::IfOp::create(
              nb, nloc, c,
              [&](OpBuilder &tb, Location tloc) {
                Value t = tensor::InsertOp::create(tb, tloc, ivs[0], args[1],
                                                   args[0]);
                scf::YieldOp::create(tb, tloc, t);
              },
              [&](OpBuilder &eb, Location eloc) {
                scf::YieldOp::create(eb, eloc, args[1]);
              });
          return SmallVector<Value>{
              select(nb, nloc, c, addI(nb, nloc, args[0], one), args[0]),
              ifOp.getResult(0)};
        })[1];
    SmallVector<OpFoldResult> dims = getDims(b, loc, input);
    dims[axis] = count;
    dims = preferStatic(b, loc, op, type, dims);
    int64_t rank = type.getRank();
    MLIRContext *ctx = b.getContext();
    AffineMap posMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
    if (!type.isDynamicDim(axis))
      check(b, loc,
            cmpI(b, loc, Pred::eq, count, idx(b, loc, type.getDimSize(axis))),
            op, "the number of selected slices is not the inferred one");
    Value r = buildIndexGeneric(
        b, loc, type, dims, {positions}, {posMap},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          SmallVector<Value> indices(ivs);
          indices[axis] = args[0];
          return (Value)tensor::ExtractOp::create(nb, nloc, input, indices);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Col2Im
//===----------------------------------------------------------------------===//

/// Col2Im as a gather: out[n, c, y] sums, over the kernel positions k, the
/// column input[n, c * K + lin(k), lin(b)] of the block b whose element k
/// lands on y (y + pad - k * dilation = b * stride, b in range). The kernel
/// positions are reduction loops of one linalg.generic (their bounds come
/// from an unused tensor of the block shape).
struct Col2ImLowering : ONNXToLinalgPattern<Col2ImOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(Col2ImOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inType || inType.getRank() != 3)
      return emitLoweringError(op, "expected a 3-D input");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type t = type.getElementType();
    Value zero = zeroOf(b, loc, t);
    if (!zero)
      return emitLoweringError(op, "unsupported element type");
    auto image = getIndexValues(b, loc, adaptor.getImageShape());
    auto block = getIndexValues(b, loc, adaptor.getBlockShape());
    int64_t k = type.getRank() - 2;
    if (!image || !block || (int64_t)image->size() != k ||
        (int64_t)block->size() != k)
      return emitLoweringError(
          op, "image_shape and block_shape need one value per spatial dim");
    auto attrOr = [&](std::optional<ArrayRef<int64_t>> a, int64_t n,
                      int64_t fallback) {
      SmallVector<int64_t> v(n, fallback);
      if (a && (int64_t)a->size() == n)
        v.assign(a->begin(), a->end());
      return v;
    };
    SmallVector<int64_t> dilations = attrOr(op.getDilations(), k, 1);
    SmallVector<int64_t> strides = attrOr(op.getStrides(), k, 1);
    SmallVector<int64_t> pads = attrOr(op.getPads(), 2 * k, 0);
    // Blocks per spatial dim, and the input's channel and block counts.
    SmallVector<Value> imageV, blockV, counts;
    Value kernelSize = idx(b, loc, 1), blockCount = idx(b, loc, 1);
    for (int64_t d = 0; d < k; ++d) {
      Value img = toValue(b, loc, (*image)[d]);
      Value blk = toValue(b, loc, (*block)[d]);
      Value span = addI(b, loc,
                        mulI(b, loc, idx(b, loc, dilations[d]),
                             subI(b, loc, blk, idx(b, loc, 1))),
                        idx(b, loc, 1));
      Value padded = addI(b, loc, img, idx(b, loc, pads[d] + pads[k + d]));
      Value n =
          addI(b, loc,
               b.createOrFold<arith::DivSIOp>(loc, subI(b, loc, padded, span),
                                              idx(b, loc, strides[d])),
               idx(b, loc, 1));
      imageV.push_back(img);
      blockV.push_back(blk);
      counts.push_back(n);
      kernelSize = mulI(b, loc, kernelSize, blk);
      blockCount = mulI(b, loc, blockCount, n);
    }
    SmallVector<Value> inDims = dimValues(b, loc, input);
    check(b, loc, cmpI(b, loc, Pred::eq, inDims[2], blockCount), op,
          "the input's last dim is not the number of blocks");
    Value channels = inDims[1];
    check(b, loc,
          cmpI(b, loc, Pred::eq,
               b.createOrFold<arith::RemUIOp>(loc, channels, kernelSize),
               idx(b, loc, 0)),
          op, "the input's channels do not divide by the block size");
    Value c = b.createOrFold<arith::DivUIOp>(loc, channels, kernelSize);
    SmallVector<OpFoldResult> dims = {fold(inDims[0]), fold(c)};
    for (Value img : imageV)
      dims.push_back(fold(img));
    dims = preferStatic(b, loc, op, type, dims);
    Value init = tensor::EmptyOp::create(b, loc, dims, t);
    init = linalg::FillOp::create(b, loc, zero, init).getResult(0);
    SmallVector<OpFoldResult> blockDims(blockV.begin(), blockV.end());
    Value kernel = tensor::EmptyOp::create(b, loc, blockDims, t);
    int64_t rank = type.getRank();
    int64_t loops = rank + k;
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> kernelExprs, outExprs;
    for (int64_t d = 0; d < k; ++d)
      kernelExprs.push_back(getAffineDimExpr(rank + d, ctx));
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, kernelExprs, ctx),
                                   AffineMap::get(loops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(k, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{kernel}, ValueRange{init},
        maps, iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value z = idx(nb, nl, 0), one = idx(nb, nl, 1);
          Value valid = arith::ConstantIntOp::create(nb, nl, 1, 1);
          Value kernelIndex = z, blockIndex = z;
          for (int64_t d = 0; d < k; ++d) {
            Value y = linalg::IndexOp::create(nb, nl, 2 + d);
            Value kd = linalg::IndexOp::create(nb, nl, rank + d);
            Value pos = subI(nb, nl, addI(nb, nl, y, idx(nb, nl, pads[d])),
                             mulI(nb, nl, kd, idx(nb, nl, dilations[d])));
            Value stride = idx(nb, nl, strides[d]);
            Value bd = arith::DivSIOp::create(nb, nl, pos, stride);
            Value exact = cmpI(nb, nl, Pred::eq,
                               arith::RemSIOp::create(nb, nl, pos, stride), z);
            valid = andI(nb, nl, valid,
                         andI(nb, nl, exact,
                              andI(nb, nl, cmpI(nb, nl, Pred::sge, pos, z),
                                   cmpI(nb, nl, Pred::slt, bd, counts[d]))));
            bd = clampI(nb, nl, bd, z,
                        maxI(nb, nl, subI(nb, nl, counts[d], one), z));
            kernelIndex =
                addI(nb, nl, mulI(nb, nl, kernelIndex, blockV[d]), kd);
            blockIndex = addI(nb, nl, mulI(nb, nl, blockIndex, counts[d]), bd);
          }
          Value ch =
              addI(nb, nl,
                   mulI(nb, nl, linalg::IndexOp::create(nb, nl, 1), kernelSize),
                   kernelIndex);
          Value v = tensor::ExtractOp::create(
              nb, nl, input,
              ValueRange{linalg::IndexOp::create(nb, nl, 0), ch, blockIndex});
          v = arith::SelectOp::create(nb, nl, valid, v, zeroOf(nb, nl, t));
          Value sum = isa<FloatType>(t)
                          ? (Value)arith::AddFOp::create(nb, nl, args[1], v)
                          : (Value)arith::AddIOp::create(nb, nl, args[1], v);
          linalg::YieldOp::create(nb, nl, sum);
        });
    rewriter.replaceOp(op, castTo(b, loc, generic.getResult(0), type));
    return success();
  }
};

} // namespace

void mlir::onnx::populateDataMovementToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TransposeLowering, ConcatLowering, SplitLowering, SliceLowering,
               PadLowering, TileLowering, DepthToSpaceLowering,
               SpaceToDepthLowering, EyeLikeLowering, TriluLowering,
               ReverseSequenceLowering, CompressLowering, Col2ImLowering>(
      converter, patterns.getContext());
}
