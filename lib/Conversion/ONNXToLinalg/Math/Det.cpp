//===- Det.cpp - Det to linalg and scf ------------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Det: an scf.for nest over the batch dims; each matrix is factored by
// Gaussian elimination with partial pivoting (scf.for loops on the matrix
// as a tensor), the determinant being the product of the pivots, negated
// for each row swap. A zero pivot (a singular matrix) gives 0 and skips the
// division. f16 and bf16 are computed in f32.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// An scf.for from `lb` to `ub` (step 1) carrying `inits`; `body` gets the
/// induction variable and the carried values and returns the next ones.
SmallVector<Value> forLoop(
    OpBuilder &b, Location loc, Value lb, Value ub, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, idx(b, loc, 1), inits,
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, nloc, body(nb, nloc, iv, args));
      });
  return SmallVector<Value>(loop.getResults());
}

/// The determinant of the square matrix `a` (an M x M tensor of a float
/// type) of size `m`, in a's element type.
Value determinant(OpBuilder &b, Location loc, Value a, Value m) {
  Type t = cast<RankedTensorType>(a.getType()).getElementType();
  Value zero = createScalarConstant(b, loc, t, 0);
  Value one = createScalarConstant(b, loc, t, 1);
  Value c1 = idx(b, loc, 1);
  auto at = [](OpBuilder &b, Location loc, Value a, Value i, Value j) {
    return tensor::ExtractOp::create(b, loc, a, ValueRange{i, j}).getResult();
  };
  SmallVector<Value> init{a, one};
  Value det = forLoop(
      b, loc, idx(b, loc, 0), m, init,
      [&](OpBuilder &b, Location loc, Value k, ValueRange args) {
        Value a = args[0], det = args[1];
        Value next = arith::AddIOp::create(b, loc, k, c1);
        // The row p >= k with the largest |a[p, k]| (the first on ties).
        SmallVector<Value> pivotInit{
            k, math::AbsFOp::create(b, loc, at(b, loc, a, k, k))};
        Value p =
            forLoop(b, loc, next, m, pivotInit,
                    [&](OpBuilder &b, Location loc, Value i, ValueRange best) {
                      Value v =
                          math::AbsFOp::create(b, loc, at(b, loc, a, i, k));
                      Value larger = arith::CmpFOp::create(
                          b, loc, arith::CmpFPredicate::OGT, v, best[1]);
                      return SmallVector<Value>{
                          arith::SelectOp::create(b, loc, larger, i, best[0]),
                          arith::SelectOp::create(b, loc, larger, v, best[1])};
                    })[0];
        // Swap rows k and p (from column k on; a no-op when p = k).
        a = forLoop(
            b, loc, k, m, {a},
            [&](OpBuilder &b, Location loc, Value j, ValueRange s) {
              Value rowK = at(b, loc, s[0], k, j);
              Value rowP = at(b, loc, s[0], p, j);
              Value r = tensor::InsertOp::create(b, loc, rowP, s[0],
                                                 ValueRange{k, j});
              r = tensor::InsertOp::create(b, loc, rowK, r, ValueRange{p, j});
              return SmallVector<Value>{r};
            })[0];
        Value swapped =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, p, k);
        det = arith::SelectOp::create(b, loc, swapped,
                                      arith::NegFOp::create(b, loc, det), det);
        Value pivot = at(b, loc, a, k, k);
        det = arith::MulFOp::create(b, loc, det, pivot);
        // A zero pivot means a zero column below it: nothing to eliminate.
        Value singular = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OEQ, pivot, zero);
        Value divisor = arith::SelectOp::create(b, loc, singular, one, pivot);
        a = forLoop(
            b, loc, next, m, {a},
            [&](OpBuilder &b, Location loc, Value i, ValueRange rows) {
              Value f = arith::DivFOp::create(b, loc, at(b, loc, rows[0], i, k),
                                              divisor);
              f = arith::SelectOp::create(b, loc, singular, zero, f);
              return forLoop(
                  b, loc, next, m, {rows[0]},
                  [&](OpBuilder &b, Location loc, Value j, ValueRange cols) {
                    Value v = arith::SubFOp::create(
                        b, loc, at(b, loc, cols[0], i, j),
                        arith::MulFOp::create(b, loc, f,
                                              at(b, loc, cols[0], k, j)));
                    return SmallVector<Value>{tensor::InsertOp::create(
                        b, loc, v, cols[0], ValueRange{i, j})};
                  });
            })[0];
        return SmallVector<Value>{a, det};
      })[1];
  // 0, not -0, for a singular matrix.
  Value isZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, det, zero);
  return arith::SelectOp::create(b, loc, isZero, zero, det);
}

struct DetLowering : ONNXToLinalgPattern<DetOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto resultType = getConvertedType(op);
    if (!xType || !resultType || xType.getRank() < 2 ||
        resultType.getRank() != xType.getRank() - 2)
      return emitLoweringError(op, "X must be a ranked tensor [..., M, M] "
                                   "and the result [...]");
    Type elementType = xType.getElementType();
    if (!isa<FloatType>(elementType) ||
        elementType.getIntOrFloatBitWidth() < 16)
      return emitLoweringError(op, "only f16, bf16, f32 and f64 are lowered");
    int64_t r = xType.getRank();
    int64_t rows = xType.getDimSize(r - 2), cols = xType.getDimSize(r - 1);
    if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(cols) &&
        rows != cols)
      return emitLoweringError(op, "the matrices are not square (" +
                                       Twine(rows) + "x" + Twine(cols) + ")");
    SmallVector<Value> dims = dimValues(b, loc, x);
    int64_t size = ShapedType::isDynamic(rows) ? cols : rows;
    OpFoldResult mSize = ShapedType::isDynamic(size)
                             ? OpFoldResult(dims[r - 1])
                             : OpFoldResult(b.getIndexAttr(size));
    Value m = toValue(b, loc, mSize);
    check(b, loc,
          cmpI(b, loc, arith::CmpIPredicate::eq, dims[r - 2], dims[r - 1]), op,
          "the matrices are not square");
    Type computeType = elementType;
    if (elementType.getIntOrFloatBitWidth() < 32)
      computeType = b.getF32Type();
    if (computeType != elementType)
      x = buildElementwise(
          b, loc, x, xType.clone(computeType), op,
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            return arith::ExtFOp::create(nb, nloc, computeType, args[0]);
          });

    SmallVector<OpFoldResult> batchDims =
        preferStatic(b, loc, op, resultType, getDims(b, loc, x));
    batchDims.resize(r - 2);
    Value init = tensor::EmptyOp::create(b, loc, batchDims, elementType);
    ArrayRef<Value> batchSizes = ArrayRef(dims).drop_back(2);
    auto matrixType = RankedTensorType::get({size, size}, computeType);
    Value result = buildLoopNest(
        b, loc, batchSizes, {init},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
          offsets.append({nb.getIndexAttr(0), nb.getIndexAttr(0)});
          SmallVector<OpFoldResult> sizes(r - 2, nb.getIndexAttr(1));
          sizes.append({mSize, mSize});
          SmallVector<OpFoldResult> strides(r, nb.getIndexAttr(1));
          Value matrix = tensor::ExtractSliceOp::create(
              nb, nloc, matrixType, x, offsets, sizes, strides);
          Value det = determinant(nb, nloc, matrix, m);
          if (computeType != elementType)
            det = arith::TruncFOp::create(nb, nloc, elementType, det);
          return SmallVector<Value>{
              tensor::InsertOp::create(nb, nloc, det, args[0], ivs)};
        })[0];
    rewriter.replaceOp(op, castTo(b, loc, result, resultType));
    return success();
  }
};

} // namespace

void mlir::onnx::populateDetToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<DetLowering>(converter, patterns.getContext());
}
