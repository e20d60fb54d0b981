//===- Signal.cpp - DFT, STFT, MelWeightMatrix to linalg ------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// DFT and STFT are direct O(n^2) transforms for now (no FFT): one
// linalg.generic over the result and the summed sample (or frequency)
// index, accumulating in f64. The twiddle angle is 2 pi ((k n) mod L) / L
// with the product reduced in integers, so that long transforms keep their
// precision. The input is read with tensor.extract: the DFT axis may be
// known at run time only, samples past the input are zero (dft_length
// longer than the axis), and IRFFT reads the conjugate-symmetric half
// spectrum. MelWeightMatrix is a linalg.generic over the result computing
// each triangle from the mel-spaced bin edges.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;

/// An index as f64.
Value indexToF64(OpBuilder &b, Location loc, Value i) {
  return arith::SIToFPOp::create(
      b, loc, b.getF64Type(),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
}

/// Builds a linalg.generic over `dims` (the result's sizes) and one more,
/// summed, loop of `count` iterations; accumulates `term` (f64) into an f64
/// tensor and returns it converted to `type`. `term` gets the result
/// indices and the summed index.
Value buildSum(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> dims, Value count,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> term) {
  int64_t rank = type.getRank();
  Type f64 = b.getF64Type();
  auto accType = RankedTensorType::get(type.getShape(), f64);
  Value init = tensor::EmptyOp::create(b, loc, dims, f64);
  init =
      linalg::FillOp::create(b, loc, createScalarConstant(b, loc, f64, 0), init)
          .getResult(0);
  // The summed loop takes its size from an (unread) 1-D operand.
  Value extent = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{count},
                                         b.getI8Type());
  MLIRContext *ctx = b.getContext();
  AffineMap outMap =
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank);
  AffineMap extentMap =
      AffineMap::get(rank + 1, 0, {getAffineDimExpr(rank, ctx)}, ctx);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{extent}, ValueRange{init},
      ArrayRef<AffineMap>{extentMap, outMap}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> ivs;
        for (int64_t d = 0; d <= rank; ++d)
          ivs.push_back(linalg::IndexOp::create(nb, nloc, d));
        Value t =
            term(nb, nloc, ArrayRef<Value>(ivs).take_front(rank), ivs[rank]);
        linalg::YieldOp::create(
            nb, nloc, ValueRange{arith::AddFOp::create(nb, nloc, args[1], t)});
      });
  Value acc = castTo(b, loc, generic.getResult(0), accType);
  if (type.getElementType() == f64)
    return castTo(b, loc, acc, type);
  MLIRContext *c = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, c);
  return buildIndexGeneric(
      b, loc, type, dims, ValueRange{acc}, {id},
      [&](OpBuilder &nb, Location nloc, ValueRange, ValueRange args) {
        return convertScalar(nb, nloc, args[0], type.getElementType(), false);
      });
}

/// cos and sin of sign * 2 pi ((k * n) mod len) / len, all index values.
std::pair<Value, Value> twiddle(OpBuilder &b, Location loc, Value k, Value n,
                                Value len, double sign) {
  Value m = arith::RemUIOp::create(b, loc, mulI(b, loc, k, n), len);
  Value angle = arith::MulFOp::create(
      b, loc, createScalarConstant(b, loc, b.getF64Type(), sign * 2 * M_PI),
      arith::DivFOp::create(b, loc, indexToF64(b, loc, m),
                            indexToF64(b, loc, len)));
  return {math::CosOp::create(b, loc, angle),
          math::SinOp::create(b, loc, angle)};
}

/// A scalar input (rank 0 or one element) as an index.
Value scalarIndex(OpBuilder &b, Location loc, Value t) {
  return castToIndex(b, loc, extractScalar(b, loc, t));
}

struct DFTLowering : ONNXToLinalgPattern<DFTOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(DFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getInput();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !xType || xType.getRank() < 2 ||
        type.getRank() != xType.getRank())
      return emitLoweringError(op, "expected ranked tensors of one rank >= 2");
    int64_t rank = xType.getRank();
    int64_t cIn = xType.getDimSize(rank - 1);
    if (cIn != 1 && cIn != 2)
      return emitLoweringError(
          op, "the last dim of the input must be 1 (real) or 2 (complex), "
              "statically");
    bool inverse = op.getInverse() != 0;
    bool onesided = op.getOnesided() != 0;
    bool irfft = onesided && inverse;
    bool rfft = onesided && !inverse;
    int64_t cOut = irfft ? 1 : 2;
    if (!type.isDynamicDim(rank - 1) && type.getDimSize(rank - 1) != cOut)
      return emitLoweringError(op, "the last dim of the output must be " +
                                       Twine(cOut));

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    // The axis: static when a constant, else read at run time.
    std::optional<int64_t> staticAxis;
    Value axisIndex;
    Value axisInput = isAbsent(adaptor.getAxis()) ? Value() : adaptor.getAxis();
    if (!axisInput) {
      staticAxis = rank - 2;
    } else if (auto c = getConstantIntValues(axisInput)) {
      if (c->size() != 1)
        return emitLoweringError(op, "axis must be a scalar");
      int64_t a = (*c)[0];
      if (a < 0)
        a += rank;
      if (a < 0 || a > rank - 2)
        return emitLoweringError(op, "axis out of range");
      staticAxis = a;
    } else {
      Value a = scalarIndex(b, loc, axisInput);
      a = select(b, loc, cmpI(b, loc, Pred::slt, a, idx(b, loc, 0)),
                 addI(b, loc, a, idx(b, loc, rank)), a);
      check(b, loc,
            andI(b, loc, cmpI(b, loc, Pred::sge, a, idx(b, loc, 0)),
                 cmpI(b, loc, Pred::sle, a, idx(b, loc, rank - 2))),
            op, "axis out of range");
      axisIndex = a;
    }
    if (staticAxis)
      axisIndex = idx(b, loc, *staticAxis);
    // `axisValue(values, d)`: values[axis] with a run-time axis.
    auto pickAxis = [&](OpBuilder &nb, Location nloc,
                        ArrayRef<Value> values) -> Value {
      if (staticAxis)
        return values[*staticAxis];
      Value v = values[0];
      for (int64_t d = 1; d < rank - 1; ++d)
        v = select(nb, nloc,
                   cmpI(nb, nloc, Pred::eq, axisIndex, idx(nb, nloc, d)),
                   values[d], v);
      return v;
    };

    SmallVector<Value> inDims = dimValues(b, loc, x);
    Value nIn = pickAxis(b, loc, inDims);
    Value len;
    if (Value l = isAbsent(adaptor.getDftLength()) ? Value()
                                                   : adaptor.getDftLength()) {
      len = scalarIndex(b, loc, l);
    } else if (irfft) {
      len = mulI(b, loc, subI(b, loc, nIn, idx(b, loc, 1)), idx(b, loc, 2));
    } else {
      len = nIn;
    }
    check(b, loc, cmpI(b, loc, Pred::sgt, len, idx(b, loc, 0)), op,
          "dft_length is not positive");
    Value outLen =
        rfft ? addI(b, loc, arith::DivUIOp::create(b, loc, len, idx(b, loc, 2)),
                    idx(b, loc, 1))
             : len;
    SmallVector<OpFoldResult> dims;
    for (int64_t d = 0; d < rank - 1; ++d) {
      Value isAxis = cmpI(b, loc, Pred::eq, axisIndex, idx(b, loc, d));
      dims.push_back(select(b, loc, isAxis, outLen, inDims[d]));
    }
    dims.push_back(b.getIndexAttr(cOut));
    for (int64_t d = 0; d < rank - 1; ++d)
      if (!staticValue(dims[d]))
        checkInferredSize(b, loc, op, type, d, dims[d]);
    dims = preferStatic(b, loc, op, type, dims);
    Value count = irfft ? len : minI(b, loc, len, nIn);
    Type f64 = b.getF64Type();

    Value result = buildSum(
        b, loc, type, dims, count,
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, Value red) -> Value {
          auto fc = [&](double v) {
            return createScalarConstant(nb, nloc, f64, v);
          };
          auto mul = [&](Value p, Value q) {
            return (Value)arith::MulFOp::create(nb, nloc, p, q);
          };
          auto sub = [&](Value p, Value q) {
            return (Value)arith::SubFOp::create(nb, nloc, p, q);
          };
          auto add = [&](Value p, Value q) {
            return (Value)arith::AddFOp::create(nb, nloc, p, q);
          };
          Value outAxisIndex = pickAxis(nb, nloc, llvm::to_vector(ivs));
          // Reads the input at `pos` on the axis (component 0 and 1).
          auto read = [&](Value pos) -> std::pair<Value, Value> {
            SmallVector<Value> at;
            for (int64_t d = 0; d < rank - 1; ++d) {
              if (staticAxis)
                at.push_back(d == *staticAxis ? pos : ivs[d]);
              else
                at.push_back(select(
                    nb, nloc,
                    cmpI(nb, nloc, Pred::eq, axisIndex, idx(nb, nloc, d)), pos,
                    ivs[d]));
            }
            at.push_back(idx(nb, nloc, 0));
            Value re = convertScalar(nb, nloc,
                                     tensor::ExtractOp::create(nb, nloc, x, at),
                                     f64, false);
            Value im = fc(0);
            if (cIn == 2) {
              at.back() = idx(nb, nloc, 1);
              im = convertScalar(nb, nloc,
                                 tensor::ExtractOp::create(nb, nloc, x, at),
                                 f64, false);
            }
            return {re, im};
          };
          if (irfft) {
            // x[n] = 1/L sum_k Re(Y[k] e^{2 pi i k n / L}), Y[k] for k > L/2
            // the conjugate of Y[L - k]; bins past the input are zero.
            Value k = red;
            Value upper = cmpI(nb, nloc, Pred::sgt,
                               mulI(nb, nloc, k, idx(nb, nloc, 2)), len);
            Value src = select(nb, nloc, upper, subI(nb, nloc, len, k), k);
            Value valid = cmpI(nb, nloc, Pred::slt, src, nIn);
            Value last = maxI(nb, nloc, subI(nb, nloc, nIn, idx(nb, nloc, 1)),
                              idx(nb, nloc, 0));
            auto [yr, yi] = read(clampI(nb, nloc, src, idx(nb, nloc, 0), last));
            yi = arith::SelectOp::create(
                nb, nloc, upper, arith::NegFOp::create(nb, nloc, yi), yi);
            auto [c, s] = twiddle(nb, nloc, k, outAxisIndex, len, 1.0);
            Value v = sub(mul(yr, c), mul(yi, s));
            v = arith::DivFOp::create(nb, nloc, v, indexToF64(nb, nloc, len));
            return arith::SelectOp::create(nb, nloc, valid, v, fc(0));
          }
          Value n = red;
          auto [xr, xi] = read(n);
          auto [c, s] =
              twiddle(nb, nloc, outAxisIndex, n, len, inverse ? 1.0 : -1.0);
          Value re = sub(mul(xr, c), mul(xi, s));
          Value im = add(mul(xr, s), mul(xi, c));
          Value isRe =
              cmpI(nb, nloc, Pred::eq, ivs[rank - 1], idx(nb, nloc, 0));
          Value v = arith::SelectOp::create(nb, nloc, isRe, re, im);
          if (inverse)
            v = arith::DivFOp::create(nb, nloc, v, indexToF64(nb, nloc, len));
          return v;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct STFTLowering : ONNXToLinalgPattern<STFTOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(STFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getSignal();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !xType || xType.getRank() != 3 || type.getRank() != 4)
      return emitLoweringError(
          op, "expected a signal of rank 3 and an output of rank 4");
    int64_t cIn = xType.getDimSize(2);
    if (cIn != 1 && cIn != 2)
      return emitLoweringError(
          op, "the last dim of the signal must be 1 (real) or 2 (complex), "
              "statically");
    bool onesided = op.getOnesided() != 0;
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value window =
        isAbsent(adaptor.getWindow()) ? Value() : adaptor.getWindow();
    if (window && (!isa<RankedTensorType>(window.getType()) ||
                   cast<RankedTensorType>(window.getType()).getRank() != 1))
      return emitLoweringError(op, "the window must have rank 1");
    Value frameLengthInput =
        isAbsent(adaptor.getFrameLength()) ? Value() : adaptor.getFrameLength();
    SmallVector<Value> inDims = dimValues(b, loc, x);
    Value step = scalarIndex(b, loc, adaptor.getFrameStep());
    check(b, loc, cmpI(b, loc, Pred::sgt, step, idx(b, loc, 0)), op,
          "frame_step is not positive");
    Value windowLen = window ? dimValues(b, loc, window)[0] : Value();
    Value len = frameLengthInput ? scalarIndex(b, loc, frameLengthInput)
                                 : (window ? windowLen : inDims[1]);
    if (!windowLen)
      windowLen = len;
    check(b, loc,
          andI(b, loc, cmpI(b, loc, Pred::sgt, len, idx(b, loc, 0)),
               cmpI(b, loc, Pred::sle, len, inDims[1])),
          op, "frame_length is not in [1, signal length]");
    Value frames =
        addI(b, loc,
             arith::DivUIOp::create(b, loc, subI(b, loc, inDims[1], len), step),
             idx(b, loc, 1));
    Value bins =
        onesided
            ? addI(b, loc, arith::DivUIOp::create(b, loc, len, idx(b, loc, 2)),
                   idx(b, loc, 1))
            : len;
    SmallVector<OpFoldResult> dims = {inDims[0], frames, bins,
                                      b.getIndexAttr(2)};
    for (int64_t d = 1; d < 3; ++d)
      checkInferredSize(b, loc, op, type, d, dims[d]);
    dims = preferStatic(b, loc, op, type, dims);
    // Each frame reads window-length samples (zero past the signal) and
    // weights them by the window; the DFT has frame_length points.
    Value count = minI(b, loc, windowLen, len);
    Type f64 = b.getF64Type();
    Value result = buildSum(
        b, loc, type, dims, count,
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, Value n) -> Value {
          auto mul = [&](Value p, Value q) {
            return (Value)arith::MulFOp::create(nb, nloc, p, q);
          };
          Value zero = createScalarConstant(nb, nloc, f64, 0);
          Value pos = addI(nb, nloc, mulI(nb, nloc, ivs[1], step), n);
          Value valid = cmpI(nb, nloc, Pred::slt, pos, inDims[1]);
          Value last = subI(nb, nloc, inDims[1], idx(nb, nloc, 1));
          pos = minI(nb, nloc, pos, last);
          SmallVector<Value> at = {ivs[0], pos, idx(nb, nloc, 0)};
          Value xr = convertScalar(
              nb, nloc, tensor::ExtractOp::create(nb, nloc, x, at), f64, false);
          Value xi = zero;
          if (cIn == 2) {
            at.back() = idx(nb, nloc, 1);
            xi = convertScalar(nb, nloc,
                               tensor::ExtractOp::create(nb, nloc, x, at), f64,
                               false);
          }
          if (window) {
            Value w = convertScalar(
                nb, nloc, tensor::ExtractOp::create(nb, nloc, window, n), f64,
                false);
            xr = mul(xr, w);
            xi = mul(xi, w);
          }
          auto [c, s] = twiddle(nb, nloc, ivs[2], n, len, -1.0);
          Value re = arith::SubFOp::create(nb, nloc, mul(xr, c), mul(xi, s));
          Value im = arith::AddFOp::create(nb, nloc, mul(xr, s), mul(xi, c));
          Value isRe = cmpI(nb, nloc, Pred::eq, ivs[3], idx(nb, nloc, 0));
          Value v = arith::SelectOp::create(nb, nloc, isRe, re, im);
          return arith::SelectOp::create(nb, nloc, valid, v, zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MelWeightMatrixLowering : ONNXToLinalgPattern<MelWeightMatrixOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(MelWeightMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    if (!type || type.getRank() != 2)
      return emitLoweringError(op, "expected a result of rank 2");
    Type elementType = type.getElementType();
    if (!isa<FloatType, IntegerType>(elementType))
      return emitLoweringError(op, "output_datatype of this element type");
    bool isUnsigned = isUnsignedElement(op.getOutput().getType());
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f64 = b.getF64Type();
    Value melBins = scalarIndex(b, loc, adaptor.getNumMelBins());
    Value dftLength = scalarIndex(b, loc, adaptor.getDftLength());
    Value sampleRate = extractScalar(b, loc, adaptor.getSampleRate());
    Value lower = extractScalar(b, loc, adaptor.getLowerEdgeHertz());
    Value upper = extractScalar(b, loc, adaptor.getUpperEdgeHertz());
    check(b, loc,
          andI(b, loc, cmpI(b, loc, Pred::sgt, melBins, idx(b, loc, 0)),
               cmpI(b, loc, Pred::sgt, dftLength, idx(b, loc, 0))),
          op, "num_mel_bins and dft_length must be positive");
    // The mel edges in the inputs' float type (as the reference computes
    // them), the rest in f64.
    Type ft = lower.getType();
    Type work = ft.isF64() ? ft : b.getF32Type();
    lower = convertScalar(b, loc, lower, work, false);
    upper = convertScalar(b, loc, upper, work, false);
    auto c = [&](double v) { return createScalarConstant(b, loc, work, v); };
    auto mel = [&](Value hz) {
      Value l = math::Log10Op::create(
          b, loc,
          arith::AddFOp::create(b, loc, c(1),
                                arith::DivFOp::create(b, loc, hz, c(700))));
      return (Value)arith::MulFOp::create(b, loc, c(2595), l);
    };
    Value lowMel = mel(lower);
    Value highMel = mel(upper);
    Value melStep = arith::DivFOp::create(
        b, loc, arith::SubFOp::create(b, loc, highMel, lowMel),
        convertScalar(
            b, loc,
            arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                       addI(b, loc, melBins, idx(b, loc, 2))),
            work, false));
    lowMel = convertScalar(b, loc, lowMel, f64, false);
    melStep = convertScalar(b, loc, melStep, f64, false);
    Value rate = convertScalar(b, loc, sampleRate, f64, false);
    Value dftPlusOne =
        indexToF64(b, loc, addI(b, loc, dftLength, idx(b, loc, 1)));
    Value spectrogramBins =
        addI(b, loc, arith::DivUIOp::create(b, loc, dftLength, idx(b, loc, 2)),
             idx(b, loc, 1));
    SmallVector<OpFoldResult> dims = {spectrogramBins, melBins};
    for (int64_t d = 0; d < 2; ++d)
      checkInferredSize(b, loc, op, type, d, dims[d]);
    dims = preferStatic(b, loc, op, type, dims);
    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          auto fc = [&](double v) {
            return createScalarConstant(nb, nloc, f64, v);
          };
          // The spectrogram bin of mel edge i.
          auto edge = [&](Value i) {
            Value m = arith::AddFOp::create(
                nb, nloc,
                arith::MulFOp::create(nb, nloc, indexToF64(nb, nloc, i),
                                      melStep),
                lowMel);
            Value hz = arith::MulFOp::create(
                nb, nloc, fc(700),
                arith::SubFOp::create(
                    nb, nloc,
                    math::PowFOp::create(
                        nb, nloc, fc(10),
                        arith::DivFOp::create(nb, nloc, m, fc(2595))),
                    fc(1)));
            Value bin = math::FloorOp::create(
                nb, nloc,
                arith::DivFOp::create(
                    nb, nloc, arith::MulFOp::create(nb, nloc, dftPlusOne, hz),
                    rate));
            return bin;
          };
          Value j = indexToF64(nb, nloc, ivs[0]);
          Value i = ivs[1];
          Value lo = edge(i);
          Value center = edge(addI(nb, nloc, i, idx(nb, nloc, 1)));
          Value hi = edge(addI(nb, nloc, i, idx(nb, nloc, 2)));
          using FP = arith::CmpFPredicate;
          auto cmp = [&](FP p, Value l, Value r) {
            return (Value)arith::CmpFOp::create(nb, nloc, p, l, r);
          };
          auto sel = [&](Value cnd, Value t, Value e) {
            return (Value)arith::SelectOp::create(nb, nloc, cnd, t, e);
          };
          auto sub = [&](Value p, Value q) {
            return (Value)arith::SubFOp::create(nb, nloc, p, q);
          };
          auto div = [&](Value p, Value q) {
            return (Value)arith::DivFOp::create(nb, nloc, p, q);
          };
          Value rising = div(sub(j, lo), sub(center, lo));
          Value falling = div(sub(hi, j), sub(hi, center));
          Value inRising = arith::AndIOp::create(nb, nloc, cmp(FP::OGE, j, lo),
                                                 cmp(FP::OLT, j, center));
          Value inFalling = arith::AndIOp::create(
              nb, nloc, cmp(FP::OGT, j, center), cmp(FP::OLT, j, hi));
          Value v = sel(cmp(FP::OEQ, j, center), fc(1),
                        sel(inRising, rising, sel(inFalling, falling, fc(0))));
          if (isa<FloatType>(elementType))
            return convertScalar(nb, nloc, v, elementType, false);
          if (isUnsigned)
            return (Value)arith::FPToUIOp::create(nb, nloc, elementType, v);
          return (Value)arith::FPToSIOp::create(nb, nloc, elementType, v);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateSignalToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<DFTLowering, STFTLowering, MelWeightMatrixLowering>(
      converter, patterns.getContext());
}
