//===- TfIdfVectorizer.cpp - TfIdfVectorizer to linalg --------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TfIdfVectorizer: the pool of n-grams is an attribute, so it becomes
// constant tables (tokens, lengths, weights, and for each output column the
// n-gram it counts). One linalg.generic over the output counts, for each
// element, the n-gram's occurrences in the row with scf loops over skips
// and start positions (1-grams once, whatever the skips), then weighs the
// count by the mode (TF: count, IDF: weight if found, TFIDF: count *
// weight). Integer pools only (pool_strings is refused).
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

/// TfIdfVectorizer's n-grams as tables: per output column the n-gram it
/// counts (-1: none), per n-gram its tokens (padded to maxLen), its length
/// (0 when outside [min_gram_length, max_gram_length]) and weight.
struct GramTables {
  int64_t width = 0, maxLen = 1, numGrams = 0, maxSkip = 0;
  StringRef mode;
  SmallVector<int64_t> column, lengths, tokens;
  SmallVector<double> weights;
};

/// Reads and checks the attributes of `op` (`type` is Y's) into tables.
LogicalResult readGramTables(TfIdfVectorizerOp op, RankedTensorType type,
                             GramTables &t) {
  std::optional<uint64_t> minN = op.getMinGramLength(),
                          maxN = op.getMaxGramLength(),
                          maxSkip = op.getMaxSkipCount();
  std::optional<StringRef> mode = op.getMode();
  std::optional<ArrayRef<int64_t>> counts = op.getNgramCounts(),
                                   indexes = op.getNgramIndexes(),
                                   pool = op.getPoolInt64s();
  if (!minN || !maxN || !maxSkip || !mode || !counts || !indexes || !pool)
    return emitLoweringError(op, "min_gram_length, max_gram_length, "
                                 "max_skip_count, mode, ngram_counts, "
                                 "ngram_indexes and pool_int64s are "
                                 "required");
  if (*mode != "TF" && *mode != "IDF" && *mode != "TFIDF")
    return emitLoweringError(op, "unknown mode '" + *mode + "'");
  if (*minN < 1 || *minN > *maxN)
    return emitLoweringError(op, "gram lengths must satisfy 1 <= "
                                 "min_gram_length <= max_gram_length");
  t.mode = *mode;
  t.maxSkip = *maxSkip;

  // The n-grams of the pool: level l (n = l + 1) spans
  // [counts[l], counts[l + 1]) of the pool, n tokens each.
  struct Gram {
    ArrayRef<int64_t> tokens;
    int64_t n;
  };
  SmallVector<Gram> grams;
  int64_t poolSize = pool->size();
  for (size_t l = 0; l < counts->size(); ++l) {
    int64_t n = l + 1, begin = (*counts)[l];
    int64_t end = l + 1 < counts->size() ? (*counts)[l + 1] : poolSize;
    if (begin < 0 || end < begin || end > poolSize || (end - begin) % n)
      return emitLoweringError(op, "ngram_counts does not split the pool "
                                   "into whole n-grams");
    for (int64_t i = begin; i < end; i += n)
      grams.push_back({pool->slice(i, n), n});
  }
  int64_t numGrams = t.numGrams = grams.size();
  if ((int64_t)indexes->size() != numGrams)
    return emitLoweringError(op, "ngram_indexes needs one entry per n-gram "
                                 "of the pool (" +
                                     Twine(numGrams) + ")");
  std::optional<ArrayRef<float>> weights = op.getWeights();
  if (weights && !weights->empty() && (int64_t)weights->size() != numGrams)
    return emitLoweringError(op, "weights needs one entry per n-gram");
  for (int64_t i : *indexes) {
    if (i < 0)
      return emitLoweringError(op, "negative ngram_indexes");
    t.width = std::max(t.width, i + 1);
  }
  if (!type.isDynamicDim(type.getRank() - 1) &&
      type.getDimSize(type.getRank() - 1) != t.width)
    return emitLoweringError(op, "Y's last dim is not max(ngram_indexes) "
                                 "+ 1");

  t.maxLen = std::max<int64_t>(1, counts->size());
  t.column.assign(t.width, -1);
  for (int64_t g = 0; g < numGrams; ++g) {
    int64_t o = (*indexes)[g];
    if (t.column[o] >= 0)
      return emitLoweringError(op,
                               "two n-grams share output column " + Twine(o));
    t.column[o] = g;
    bool counted = grams[g].n >= (int64_t)*minN && grams[g].n <= (int64_t)*maxN;
    t.lengths.push_back(counted ? grams[g].n : 0);
    for (int64_t j = 0; j < t.maxLen; ++j)
      t.tokens.push_back(j < grams[g].n ? grams[g].tokens[j] : 0);
    t.weights.push_back(weights && !weights->empty() ? (*weights)[g] : 1.0);
  }
  if (numGrams == 0) {
    t.lengths.push_back(0);
    t.tokens.assign(t.maxLen, 0);
    t.weights.push_back(0);
  }
  return success();
}

/// The tables as constants of the lowered code.
struct GramConstants {
  Value column, lengths, tokens, weights;
};

GramConstants buildGramConstants(OpBuilder &b, Location loc,
                                 const GramTables &t) {
  Type i64 = b.getI64Type();
  int64_t rows = std::max<int64_t>(t.numGrams, 1);
  auto constant = [&](RankedTensorType type, auto values) -> Value {
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, values));
  };
  return {constant(RankedTensorType::get({t.width}, i64),
                   ArrayRef<int64_t>(t.column)),
          constant(RankedTensorType::get({rows}, i64),
                   ArrayRef<int64_t>(t.lengths)),
          constant(RankedTensorType::get({rows, t.maxLen}, i64),
                   ArrayRef<int64_t>(t.tokens)),
          constant(RankedTensorType::get({rows}, b.getF64Type()),
                   ArrayRef<double>(t.weights))};
}

/// How often n-gram `gi` (of `n` tokens, 0: not counted) occurs in `row`
/// of `x` (null for a 1-D x) of `c` tokens, with every skip up to
/// `maxSkip` (i64).
Value countGram(OpBuilder &nb, Location l, Value x, Value row, Value c,
                Value gi, Value n, Value tokenT, int64_t maxSkip) {
  Type i64 = nb.getI64Type();
  Value zero = idx(nb, l, 0), one = idx(nb, l, 1);
  // Skips 0..max_skip_count for n >= 2, none for 1-grams, no loop for a
  // column without a counted n-gram.
  Value isUnigram =
      arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, n, one);
  Value skipEnd =
      arith::SelectOp::create(nb, l, isUnigram, one, idx(nb, l, maxSkip + 1));
  skipEnd = arith::SelectOp::create(
      nb, l, arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, n, zero),
      zero, skipEnd);
  // A skip of the row's length or more leaves no room for a second token:
  // however large max_skip_count is, the loop ends there.
  skipEnd = arith::MinSIOp::create(nb, l, skipEnd, c);
  Value nMinusOne = arith::SubIOp::create(nb, l, n, one);
  Value zeroCount = arith::ConstantIntOp::create(nb, l, i64, 0);
  auto skipLoop = scf::ForOp::create(
      nb, l, zero, skipEnd, one, ValueRange{zeroCount},
      [&](OpBuilder &sb, Location sl, Value s, ValueRange acc) {
        Value stride = arith::AddIOp::create(sb, sl, s, one);
        Value span = arith::MulIOp::create(sb, sl, nMinusOne, stride);
        Value starts = arith::MaxSIOp::create(
            sb, sl, arith::SubIOp::create(sb, sl, c, span), zero);
        auto startLoop = scf::ForOp::create(
            sb, sl, zero, starts, one, acc,
            [&](OpBuilder &pb, Location pl, Value p, ValueRange acc2) {
              Value trueV =
                  arith::ConstantIntOp::create(pb, pl, pb.getI1Type(), 1);
              auto matchLoop = scf::ForOp::create(
                  pb, pl, zero, n, one, ValueRange{trueV},
                  [&](OpBuilder &jb, Location jl, Value j, ValueRange ok) {
                    Value pos = arith::AddIOp::create(
                        jb, jl, p, arith::MulIOp::create(jb, jl, j, stride));
                    SmallVector<Value> at;
                    if (row)
                      at.push_back(row);
                    at.push_back(pos);
                    Value tok = tensor::ExtractOp::create(jb, jl, x, at);
                    if (tok.getType() != i64)
                      tok = arith::ExtSIOp::create(jb, jl, i64, tok);
                    Value want = tensor::ExtractOp::create(jb, jl, tokenT,
                                                           ValueRange{gi, j});
                    Value eq = arith::CmpIOp::create(
                        jb, jl, arith::CmpIPredicate::eq, tok, want);
                    scf::YieldOp::create(
                        jb, jl,
                        ValueRange{arith::AndIOp::create(jb, jl, ok[0], eq)});
                  });
              Value hit =
                  arith::ExtUIOp::create(pb, pl, i64, matchLoop.getResult(0));
              scf::YieldOp::create(
                  pb, pl,
                  ValueRange{arith::AddIOp::create(pb, pl, acc2[0], hit)});
            });
        scf::YieldOp::create(sb, sl, startLoop.getResults());
      });
  return skipLoop.getResult(0);
}

/// The value of a column from its count (i64) and weight (f64): TF the
/// count, IDF the weight where the n-gram occurs, TFIDF their product.
Value weightCount(OpBuilder &nb, Location l, StringRef mode, Value count,
                  Value w) {
  Value countF = arith::SIToFPOp::create(nb, l, nb.getF64Type(), count);
  if (mode == "TF")
    return countF;
  if (mode == "IDF") {
    Value any = arith::CmpIOp::create(
        nb, l, arith::CmpIPredicate::sgt, count,
        arith::ConstantIntOp::create(nb, l, nb.getI64Type(), 0));
    return arith::SelectOp::create(
        nb, l, any, w,
        arith::ConstantOp::create(nb, l, nb.getF64FloatAttr(0.0)));
  }
  return arith::MulFOp::create(nb, l, countF, w);
}

struct TfIdfVectorizerLowering : ONNXToLinalgPattern<TfIdfVectorizerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(TfIdfVectorizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto type = getConvertedType(op);
    if (!xType || !type || (xType.getRank() != 1 && xType.getRank() != 2) ||
        type.getRank() != xType.getRank())
      return emitLoweringError(op, "X must be 1-D or 2-D and Y of its rank");
    if (op.getPoolStrings() || !isa<IntegerType>(xType.getElementType()))
      return emitLoweringError(op, "string pools and inputs are not lowered "
                                   "(integer pools only)");
    auto floatType = dyn_cast<FloatType>(type.getElementType());
    if (!floatType)
      return emitLoweringError(op, "Y must be a float tensor");
    GramTables tables;
    if (failed(readGramTables(op, type, tables)))
      return failure();

    OpBuilder &b = rewriter;
    Type i64 = b.getI64Type();
    GramConstants consts = buildGramConstants(b, loc, tables);
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> outDims;
    if (rank == 2)
      outDims.push_back(tensor::getMixedSize(b, loc, x, 0));
    outDims.push_back(b.getIndexAttr(tables.width));
    Value init = tensor::EmptyOp::create(b, loc, outDims, floatType);
    Value c = tensor::DimOp::create(b, loc, x, rank - 1);
    // One element per (row, column): the column's n-gram counted in the row.
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          Value zero = idx(nb, l, 0);
          Value row = rank == 2 ? linalg::IndexOp::create(nb, l, 0).getResult()
                                : Value();
          Value o = linalg::IndexOp::create(nb, l, rank - 1);
          Value g =
              tensor::ExtractOp::create(nb, l, consts.column, ValueRange{o});
          Value found = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::sge, g,
              arith::ConstantIntOp::create(nb, l, i64, 0));
          Value gi = arith::IndexCastOp::create(
              nb, l, nb.getIndexType(),
              arith::SelectOp::create(
                  nb, l, found, g,
                  arith::ConstantIntOp::create(nb, l, i64, 0)));
          Value n = arith::IndexCastOp::create(
              nb, l, nb.getIndexType(),
              tensor::ExtractOp::create(nb, l, consts.lengths, ValueRange{gi}));
          n = arith::SelectOp::create(nb, l, found, n, zero);
          Value count =
              countGram(nb, l, x, row, c, gi, n, consts.tokens, tables.maxSkip);
          Value w =
              tensor::ExtractOp::create(nb, l, consts.weights, ValueRange{gi});
          Value y = weightCount(nb, l, tables.mode, count, w);
          if (floatType != nb.getF64Type())
            y = arith::TruncFOp::create(nb, l, floatType, y);
          linalg::YieldOp::create(nb, l, y);
        });
    Value result = generic.getResult(0);
    if (result.getType() != type)
      result = tensor::CastOp::create(b, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateTfIdfVectorizerToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TfIdfVectorizerLowering>(converter, patterns.getContext());
}
