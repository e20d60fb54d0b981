//===- Random.cpp - RandomUniform, RandomNormal and their Like forms ------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A counter-based generator in one linalg.generic: the element with linear
// index i gets splitmix64(key + 2 i + k), k = 0, 1, where key is a hash of
// the seed attribute's bits. Elements are independent of each other (the
// loops stay parallel) and a seed gives the same tensor on every run.
// Uniform values are low + u * (high - low) with u the top 53 bits of the
// hash scaled to [0, 1); normal ones use Box-Muller on two such numbers,
// mean + scale * sqrt(-2 ln u1) cos(2 pi u2). The arithmetic is in f64,
// rounded to the output type at the end.
//
// Without a seed the spec lets the implementation choose one; here it is a
// fixed hash of the node's name, so such an op gives the same values on
// every run (not a fresh sequence per run).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/Hashing.h"

#include <cstring>

using namespace mlir;
using namespace mlir::onnx;

namespace {

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The generator key of a node: from its seed, else from its name.
uint64_t getKey(Operation *op, std::optional<APFloat> seed) {
  if (seed) {
    float f = seed->convertToFloat();
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return splitmix64(bits);
  }
  return splitmix64(llvm::hash_value(describeNode(op)) ^ 0x5eed);
}

Value i64c(OpBuilder &b, Location loc, uint64_t v) {
  return arith::ConstantOp::create(
      b, loc, b.getI64Type(),
      b.getIntegerAttr(b.getI64Type(), static_cast<int64_t>(v)));
}

/// splitmix64 on an i64 value.
Value emitSplitMix(OpBuilder &b, Location loc, Value x) {
  auto mix = [&](Value z, int shift, uint64_t mul) {
    Value s = arith::ShRUIOp::create(b, loc, z, i64c(b, loc, shift));
    Value v = arith::XOrIOp::create(b, loc, z, s);
    return mul ? (Value)arith::MulIOp::create(b, loc, v, i64c(b, loc, mul)) : v;
  };
  Value z =
      arith::AddIOp::create(b, loc, x, i64c(b, loc, 0x9E3779B97F4A7C15ULL));
  z = mix(z, 30, 0xBF58476D1CE4E5B9ULL);
  z = mix(z, 27, 0x94D049BB133111EBULL);
  return mix(z, 31, 0);
}

/// A uniform f64 in [0, 1) (or (0, 1] with `open0`) from the hash of
/// `counter`.
Value emitUniform(OpBuilder &b, Location loc, Value counter, bool open0) {
  Value h = emitSplitMix(b, loc, counter);
  Value top = arith::ShRUIOp::create(b, loc, h, i64c(b, loc, 11));
  if (open0)
    top = arith::AddIOp::create(b, loc, top, i64c(b, loc, 1));
  Value f = arith::UIToFPOp::create(b, loc, b.getF64Type(), top);
  return arith::MulFOp::create(
      b, loc, f, createScalarConstant(b, loc, b.getF64Type(), 0x1.0p-53));
}

enum class Distribution { Uniform, Normal };

/// The random tensor of `resultType` with sizes `dims`; `a`, `b` are
/// (low, high) or (mean, scale).
Value buildRandom(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ArrayRef<OpFoldResult> dims, Distribution dist, double p0,
                  double p1, uint64_t key) {
  int64_t rank = resultType.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, dims, resultType.getElementType());
  SmallVector<Value> sizes;
  for (OpFoldResult d : dims)
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, d));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
      SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value linear = arith::ConstantIndexOp::create(nb, l, 0);
        for (int64_t i = 0; i < rank; ++i) {
          linear = arith::MulIOp::create(nb, l, linear, sizes[i]);
          linear = arith::AddIOp::create(nb, l, linear,
                                         linalg::IndexOp::create(nb, l, i));
        }
        Value idx =
            arith::IndexCastUIOp::create(nb, l, nb.getI64Type(), linear);
        Value counter = arith::AddIOp::create(
            nb, l, i64c(nb, l, key),
            arith::ShLIOp::create(nb, l, idx, i64c(nb, l, 1)));
        Type f64 = nb.getF64Type();
        Value v;
        if (dist == Distribution::Uniform) {
          Value u = emitUniform(nb, l, counter, false);
          v = arith::AddFOp::create(
              nb, l, createScalarConstant(nb, l, f64, p0),
              arith::MulFOp::create(nb, l, u,
                                    createScalarConstant(nb, l, f64, p1 - p0)));
        } else {
          Value u1 = emitUniform(nb, l, counter, true);
          Value u2 = emitUniform(
              nb, l, arith::AddIOp::create(nb, l, counter, i64c(nb, l, 1)),
              false);
          Value r = math::SqrtOp::create(
              nb, l,
              arith::MulFOp::create(nb, l, createScalarConstant(nb, l, f64, -2),
                                    math::LogOp::create(nb, l, u1)));
          Value c = math::CosOp::create(
              nb, l,
              arith::MulFOp::create(
                  nb, l, createScalarConstant(nb, l, f64, 6.283185307179586),
                  u2));
          v = arith::AddFOp::create(
              nb, l, createScalarConstant(nb, l, f64, p0),
              arith::MulFOp::create(nb, l, createScalarConstant(nb, l, f64, p1),
                                    arith::MulFOp::create(nb, l, r, c)));
        }
        Type out = args[0].getType();
        if (out != f64)
          v = arith::TruncFOp::create(nb, l, out, v);
        linalg::YieldOp::create(nb, l, v);
      });
  Value result = generic.getResult(0);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

template <typename OpTy, Distribution Dist, bool IsLike>
struct RandomLowering : ONNXToLinalgPattern<OpTy> {
  using ONNXToLinalgPattern<OpTy>::ONNXToLinalgPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = this->getConvertedType(op);
    if (!resultType || !isa<FloatType>(resultType.getElementType()))
      return emitLoweringError(op, "the output must be a ranked float tensor");
    SmallVector<OpFoldResult> dims;
    if constexpr (IsLike) {
      Value input = adaptor.getInput();
      if (!isa<RankedTensorType>(input.getType()))
        return emitLoweringError(op, "the input must be ranked");
      dims = getDims(rewriter, loc, input);
    } else {
      if (!resultType.hasStaticShape())
        return emitLoweringError(op, "the output shape must be static");
      for (int64_t d : resultType.getShape())
        dims.push_back(rewriter.getIndexAttr(d));
    }
    double p0, p1;
    if constexpr (Dist == Distribution::Uniform) {
      p0 = op.getLow().convertToDouble();
      p1 = op.getHigh().convertToDouble();
    } else {
      p0 = op.getMean().convertToDouble();
      p1 = op.getScale().convertToDouble();
    }
    uint64_t key = getKey(op, op.getSeed());
    rewriter.replaceOp(
        op, buildRandom(rewriter, loc, resultType, dims, Dist, p0, p1, key));
    return success();
  }
};

} // namespace

void mlir::onnx::populateRandomToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<RandomLowering<RandomUniformOp, Distribution::Uniform, false>,
               RandomLowering<RandomNormalOp, Distribution::Normal, false>,
               RandomLowering<RandomUniformLikeOp, Distribution::Uniform, true>,
               RandomLowering<RandomNormalLikeOp, Distribution::Normal, true>>(
      converter, patterns.getContext());
}
