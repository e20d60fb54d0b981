//===- MatMul.cpp - MatMul, Gemm and Einsum to linalg ---------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MatMul has numpy's matmul semantics: a 1-D operand gains a unit dim (and
// loses it in the result), batch dims broadcast. It becomes linalg.matmul
// when the second operand has no batch dims (the batch dims of the first are
// folded into its rows), else linalg.batch_matmul on operands broadcast to
// the result's batch dims and collapsed to one batch dim.
//
// Gemm is a linalg.matmul of the (transposed) operands followed by one
// elementwise generic for alpha, beta and the broadcast C.
//
// Einsum parses its equation (explicit or implicit output, repeated labels
// for diagonals, an ellipsis for broadcast dims) into one linalg.generic
// whose indexing maps name a loop per label; labels not in the output are
// reduction loops.
//
// Sums of f16 / bf16 are computed in f32 and rounded once at the end.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <map>

using namespace mlir;
using namespace mlir::onnx;

namespace {

Value addScalars(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mulScalars(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

/// Converts a scalar of the operands' element type to the accumulator type.
Value toAccumulator(OpBuilder &b, Location loc, Value v, Type acc) {
  if (v.getType() == acc)
    return v;
  return convertFloat(b, loc, v, acc);
}

/// Checks at run time that two sizes that must agree do.
void checkEqualSizes(OpBuilder &b, Location loc, OpFoldResult x, OpFoldResult y,
                     Operation *node, const Twine &what) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return;
  IndexMath m{b, loc};
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     m.value(x), m.value(y));
  emitRuntimeCheck(b, loc, same, node, what);
}

/// True if `size` is known to be the size of dim `dim` of `tensor`.
bool isDimOf(OpFoldResult size, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return isConstantIntValue(size, type.getDimSize(dim));
  auto value = dyn_cast<Value>(size);
  if (!value)
    return false;
  auto dimOp = value.getDefiningOp<tensor::DimOp>();
  return dimOp && dimOp.getSource() == tensor &&
         dimOp.getConstantIndex() == dim;
}

/// `input` broadcast (numpy rules, aligned to the right) to the sizes
/// `target`, which have been checked against the input's dims: `input`
/// itself when nothing broadcasts, else a linalg.generic (reading a dim that
/// may be 1 at run time with tensor.extract). A dynamic dim at a position
/// where `equal` is set has been checked to be the target's size.
Value broadcastTo(OpBuilder &b, Location loc, Value input,
                  ArrayRef<OpFoldResult> target, ArrayRef<bool> equal) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = target.size();
  int64_t offset = rank - type.getRank();
  MLIRContext *ctx = b.getContext();
  bool identity = offset == 0;
  bool extract = false;
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    int64_t o = offset + j;
    if (isDimOf(target[o], input, j) ||
        (type.isDynamicDim(j) && o < static_cast<int64_t>(equal.size()) &&
         equal[o])) {
      exprs.push_back(getAffineDimExpr(o, ctx));
    } else if (!type.isDynamicDim(j) && type.getDimSize(j) == 1) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
      identity = false;
    } else {
      extract = true;
    }
  }
  if (identity && !extract)
    return input;
  Value init = tensor::EmptyOp::create(b, loc, target, type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  if (!extract) {
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, ctx),
                                   b.getMultiDimIdentityMap(rank)};
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ValueRange{input},
               ValueRange{init}, maps, iterators,
               [](OpBuilder &nb, Location nloc, ValueRange args) {
                 linalg::YieldOp::create(nb, nloc, args[0]);
               })
        .getResult(0);
  }
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange) {
               linalg::YieldOp::create(
                   nb, nloc, extractBroadcastElement(nb, nloc, input, rank));
             })
      .getResult(0);
}

/// The broadcast of the leading `count` dims of `x` and of `y` (their batch
/// dims, aligned to the right) to `rank` dims, with `known` sizes of the
/// result where static; run-time checks where dims are dynamic. `equal` is
/// set where both dims are dynamic and shape inference gave the node's
/// operands the same name there (dimSymbol): they are then checked to be
/// equal, neither is broadcast.
SmallVector<OpFoldResult> broadcastLeadingDims(OpBuilder &b, Location loc,
                                               Value x, int64_t xCount, Value y,
                                               int64_t yCount, int64_t rank,
                                               ArrayRef<int64_t> known,
                                               Operation *node,
                                               SmallVectorImpl<bool> &equal) {
  IndexMath m{b, loc};
  SmallVector<OpFoldResult> xDims = getDims(b, loc, x),
                            yDims = getDims(b, loc, y);
  SmallVector<OpFoldResult> dims;
  equal.assign(rank, false);
  // The node's operands, when they are `x` and `y` before conversion.
  auto original = [&](unsigned i, Value v) -> Value {
    if (node->getNumOperands() <= i ||
        node->getOperand(i).getType() != v.getType())
      return {};
    return node->getOperand(i);
  };
  Value xOriginal = original(0, x), yOriginal = original(1, y);
  for (int64_t o = 0; o < rank; ++o) {
    SmallVector<OpFoldResult> sources;
    StringAttr xName, yName;
    if (int64_t j = o - (rank - xCount); j >= 0) {
      sources.push_back(xDims[j]);
      if (xOriginal)
        xName = dimSymbol(xOriginal, j);
    }
    if (int64_t j = o - (rank - yCount); j >= 0) {
      sources.push_back(yDims[j]);
      if (yOriginal)
        yName = dimSymbol(yOriginal, j);
    }
    if (xName && xName == yName &&
        (o >= static_cast<int64_t>(known.size()) ||
         ShapedType::isDynamic(known[o]))) {
      // One name: one size.
      equal[o] = true;
      checkEqualSizes(b, loc, sources[0], sources[1], node,
                      "batch dims named '" + xName.getValue() +
                          "' differ (dim " + Twine(o) + " of the result)");
      dims.push_back(sources[0]);
      continue;
    }
    // The size: static where anything says so, else the dynamic dim that is
    // not 1.
    std::optional<int64_t> staticSize;
    if (o < static_cast<int64_t>(known.size()) &&
        !ShapedType::isDynamic(known[o]))
      staticSize = known[o];
    SmallVector<Value> dynamic;
    for (OpFoldResult s : sources) {
      if (std::optional<int64_t> c = getConstantIntValue(s)) {
        if (*c != 1 && !staticSize)
          staticSize = *c;
      } else {
        dynamic.push_back(m.value(s));
      }
    }
    OpFoldResult size;
    if (staticSize) {
      size = m.cst(*staticSize);
    } else if (dynamic.empty()) {
      size = m.cst(1);
    } else if (dynamic.size() == 1) {
      dims.push_back(dynamic.front());
      continue;
    } else {
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          dynamic[0], one);
      size = arith::SelectOp::create(b, loc, isOne, dynamic[1], dynamic[0])
                 .getResult();
    }
    Value sizeValue = m.value(size);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    for (Value d : dynamic) {
      Value ok = arith::OrIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, one),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d,
                                sizeValue));
      emitRuntimeCheck(b, loc, ok, node,
                       "batch dims do not broadcast (dim " + Twine(o) +
                           " of the result)");
    }
    dims.push_back(size);
  }
  return dims;
}

/// linalg.matmul of [M, K] x [K, N] into a zero-filled [M, N] of `acc`.
Value buildMatmul2D(OpBuilder &b, Location loc, Value x, Value y, Type acc) {
  SmallVector<OpFoldResult> dims = {tensor::getMixedSize(b, loc, x, 0),
                                    tensor::getMixedSize(b, loc, y, 1)};
  Value init = createFilled(b, loc, dims, acc, zeroOf(b, loc, acc));
  return linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                  ValueRange{x, y}, ValueRange{init})
      .getResult(0);
}

SmallVector<ReassociationIndices> collapseGroups(int64_t rank, int64_t first,
                                                 int64_t count) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank;) {
    ReassociationIndices group;
    if (i == first) {
      for (int64_t k = 0; k < count; ++k)
        group.push_back(i + k);
      i += count;
    } else {
      group.push_back(i++);
    }
    groups.push_back(group);
  }
  return groups;
}

/// numpy matmul of `x` and `y` to `resultType` (converted).
FailureOr<Value> buildMatMul(OpBuilder &b, Location loc, Value x, Value y,
                             RankedTensorType resultType, Operation *node) {
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  auto yType = dyn_cast<RankedTensorType>(y.getType());
  if (!xType || !yType)
    return emitLoweringError(node, "operands of unknown rank");
  if (xType.getRank() == 0 || yType.getRank() == 0)
    return emitLoweringError(node,
                             "scalar operands (the spec needs rank >= 1)");
  Type elem = resultType.getElementType();
  Type acc = getAccumulatorType(elem);
  IndexMath m{b, loc};

  bool xVector = xType.getRank() == 1, yVector = yType.getRank() == 1;
  if (xVector) {
    SmallVector<OpFoldResult> shape = {m.cst(1),
                                       tensor::getMixedSize(b, loc, x, 0)};
    x = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({1, xType.getDimSize(0)}, xType.getElementType()),
        x, SmallVector<ReassociationIndices>{{0, 1}}, shape);
  }
  if (yVector) {
    SmallVector<OpFoldResult> shape = {tensor::getMixedSize(b, loc, y, 0),
                                       m.cst(1)};
    y = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({yType.getDimSize(0), 1}, yType.getElementType()),
        y, SmallVector<ReassociationIndices>{{0, 1}}, shape);
  }
  xType = cast<RankedTensorType>(x.getType());
  yType = cast<RankedTensorType>(y.getType());
  int64_t xRank = xType.getRank(), yRank = yType.getRank();
  checkEqualSizes(b, loc, tensor::getMixedSize(b, loc, x, xRank - 1),
                  tensor::getMixedSize(b, loc, y, yRank - 2), node,
                  "the inner dims of the operands differ");

  int64_t batchRank = std::max(xRank, yRank) - 2;
  Value product;
  SmallVector<OpFoldResult> outDims;
  if (yRank == 2) {
    // [batch..., M, K] x [K, N]: the batch dims are more rows.
    Value rows = x;
    if (xRank > 2)
      rows = tensor::CollapseShapeOp::create(
          b, loc, x, collapseGroups(xRank, 0, xRank - 1));
    Value flat = buildMatmul2D(b, loc, rows, y, acc);
    SmallVector<OpFoldResult> xDims = getDims(b, loc, x);
    outDims.assign(xDims.begin(), xDims.end() - 1);
    outDims.push_back(tensor::getMixedSize(b, loc, y, 1));
    product = flat;
    if (xRank > 2) {
      product = tensor::ExpandShapeOp::create(
          b, loc, typeOfDims(outDims, acc), flat,
          collapseGroups(xRank, 0, xRank - 1), outDims);
    }
  } else {
    // Broadcast both to the result's batch dims, then one batch dim.
    SmallVector<int64_t> known(resultType.getShape().begin(),
                               resultType.getShape().end());
    known.resize(batchRank, ShapedType::kDynamic);
    SmallVector<bool> equal;
    SmallVector<OpFoldResult> batch = broadcastLeadingDims(
        b, loc, x, xRank - 2, y, yRank - 2, batchRank, known, node, equal);
    SmallVector<OpFoldResult> xTarget = batch, yTarget = batch;
    xTarget.push_back(tensor::getMixedSize(b, loc, x, xRank - 2));
    xTarget.push_back(tensor::getMixedSize(b, loc, x, xRank - 1));
    yTarget.push_back(tensor::getMixedSize(b, loc, y, yRank - 2));
    yTarget.push_back(tensor::getMixedSize(b, loc, y, yRank - 1));
    Value xb = broadcastTo(b, loc, x, xTarget, equal);
    Value yb = broadcastTo(b, loc, y, yTarget, equal);
    int64_t rank = batchRank + 2;
    if (batchRank > 1) {
      xb = tensor::CollapseShapeOp::create(b, loc, xb,
                                           collapseGroups(rank, 0, batchRank));
      yb = tensor::CollapseShapeOp::create(b, loc, yb,
                                           collapseGroups(rank, 0, batchRank));
    }
    SmallVector<OpFoldResult> dims = {tensor::getMixedSize(b, loc, xb, 0),
                                      tensor::getMixedSize(b, loc, xb, 1),
                                      tensor::getMixedSize(b, loc, yb, 2)};
    Value init = createFilled(b, loc, dims, acc, zeroOf(b, loc, acc));
    product =
        linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                      ValueRange{xb, yb}, ValueRange{init})
            .getResult(0);
    outDims = batch;
    outDims.push_back(xTarget[batchRank]);
    outDims.push_back(yTarget[batchRank + 1]);
    if (batchRank > 1) {
      product = tensor::ExpandShapeOp::create(
          b, loc, typeOfDims(outDims, acc), product,
          collapseGroups(rank, 0, batchRank), outDims);
    }
  }

  // Drop the unit dims of 1-D operands.
  int64_t rank = batchRank + 2;
  if (xVector && yVector)
    product = tensor::CollapseShapeOp::create(
        b, loc, product,
        batchRank == 0 ? SmallVector<ReassociationIndices>{}
                       : collapseGroups(rank, batchRank - 1, 3));
  else if (xVector)
    product = tensor::CollapseShapeOp::create(
        b, loc, product, collapseGroups(rank, batchRank, 2));
  else if (yVector)
    product = tensor::CollapseShapeOp::create(
        b, loc, product, collapseGroups(rank, batchRank, 2));
  if (acc != elem)
    product = convertTensorElements(b, loc, product, elem);
  return castToType(b, loc, product, resultType);
}

struct MatMulLowering : public ONNXToLinalgPattern<MatMulOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedType(op.getY());
    FailureOr<Value> y = buildMatMul(rewriter, op.getLoc(), adaptor.getA(),
                                     adaptor.getB(), resultType, op);
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Gemm
//===----------------------------------------------------------------------===//

Value transpose2D(OpBuilder &b, Location loc, Value x) {
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  Value init = tensor::EmptyOp::create(
      b, loc, SmallVector<OpFoldResult>{dims[1], dims[0]},
      cast<RankedTensorType>(x.getType()).getElementType());
  return linalg::TransposeOp::create(b, loc, x, init,
                                     SmallVector<int64_t>{1, 0})
      ->getResult(0);
}

struct GemmLowering : public ONNXToLinalgPattern<GemmOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op.getY());
    Value a = adaptor.getA(), b = adaptor.getB(), c = adaptor.getC();
    auto aType = dyn_cast<RankedTensorType>(a.getType());
    auto bType = dyn_cast<RankedTensorType>(b.getType());
    if (!aType || !bType || aType.getRank() != 2 || bType.getRank() != 2)
      return emitLoweringError(op, "A and B must be matrices");
    if (c && !isa<RankedTensorType>(c.getType()))
      return emitLoweringError(op, "C of unknown rank");
    if (op.getTransA())
      a = transpose2D(rewriter, loc, a);
    if (op.getTransB())
      b = transpose2D(rewriter, loc, b);
    checkEqualSizes(rewriter, loc, tensor::getMixedSize(rewriter, loc, a, 1),
                    tensor::getMixedSize(rewriter, loc, b, 0), op,
                    "the inner dims of A and B differ");
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    Value product = buildMatmul2D(rewriter, loc, a, b, acc);
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    if (!c || beta == 0) {
      c = Value();
      if (alpha == 1 && acc == elem) {
        rewriter.replaceOp(op, castToType(rewriter, loc, product, resultType));
        return success();
      }
    }
    SmallVector<Value> inputs = {product};
    if (c)
      inputs.push_back(c);
    Value y = buildElementwise(
        rewriter, loc, inputs, resultType, op,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value r = args[0];
          if (alpha != 1)
            r = mulScalars(b, l, createScalarConstant(b, l, acc, alpha), r);
          if (args.size() > 1) {
            Value cv = toAccumulator(b, l, args[1], acc);
            if (beta != 1)
              cv = mulScalars(b, l, createScalarConstant(b, l, acc, beta), cv);
            r = addScalars(b, l, r, cv);
          }
          if (acc != elem)
            r = convertFloat(b, l, r, elem);
          return r;
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// One operand (or the result) of an equation: its labels, with
/// `kEllipsis` where "..." stands.
struct EinsumTerm {
  static constexpr int kEllipsis = -1;
  SmallVector<int> labels;
  bool hasEllipsis() const { return llvm::is_contained(labels, kEllipsis); }
  int64_t letterCount() const {
    return llvm::count_if(labels, [](int l) { return l != kEllipsis; });
  }
};

FailureOr<EinsumTerm> parseTerm(StringRef text, Operation *op) {
  EinsumTerm term;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == ' ' || ch == '\t')
      continue;
    if (ch == '.') {
      if (text.substr(i, 3) != "..." || term.hasEllipsis())
        return emitLoweringError(op, "malformed ellipsis in the equation");
      term.labels.push_back(EinsumTerm::kEllipsis);
      i += 2;
      continue;
    }
    if (!llvm::isAlpha(ch))
      return emitLoweringError(op, "unexpected character '" + Twine(ch) +
                                       "' in the equation");
    term.labels.push_back(ch);
  }
  return term;
}

/// A parsed equation: the operands' terms (with the rank each one's
/// ellipsis stands for) and the output's.
struct EinsumEquation {
  SmallVector<EinsumTerm> terms;
  SmallVector<int64_t> ellipsisRanks;
  int64_t ellipsisRank = 0;
  EinsumTerm output;
};

/// Parses the equation of `op` against its `inputs`; without "->" the
/// output is the ellipsis then the labels that appear once, in order.
LogicalResult parseEquation(EinsumOp op, ValueRange inputs,
                            EinsumEquation &eq) {
  StringRef equation = *op.getEquation();
  auto [lhs, rhsText] = equation.split("->");
  bool explicitOutput = equation.contains("->");
  SmallVector<StringRef> termTexts;
  lhs.split(termTexts, ',');
  if (termTexts.size() != inputs.size())
    return emitLoweringError(op, "the equation has " + Twine(termTexts.size()) +
                                     " operands, the node " +
                                     Twine(inputs.size()));
  for (auto [text, input] : llvm::zip(termTexts, inputs)) {
    FailureOr<EinsumTerm> term = parseTerm(text, op);
    if (failed(term))
      return failure();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t e = rank - term->letterCount();
    if (e < 0 || (e > 0 && !term->hasEllipsis()))
      return emitLoweringError(op, "operand '" + text.trim() +
                                       "' does not match its rank " +
                                       Twine(rank));
    eq.ellipsisRanks.push_back(term->hasEllipsis() ? e : 0);
    eq.ellipsisRank = std::max(eq.ellipsisRank, eq.ellipsisRanks.back());
    eq.terms.push_back(*term);
  }
  std::map<int, int> counts;
  for (const EinsumTerm &t : eq.terms)
    for (int l : t.labels)
      if (l != EinsumTerm::kEllipsis)
        ++counts[l];
  if (!explicitOutput) {
    if (eq.ellipsisRank > 0)
      eq.output.labels.push_back(EinsumTerm::kEllipsis);
    for (auto [l, n] : counts)
      if (n == 1)
        eq.output.labels.push_back(l);
    return success();
  }
  FailureOr<EinsumTerm> term = parseTerm(rhsText, op);
  if (failed(term))
    return failure();
  eq.output = *term;
  std::map<int, int> seen;
  for (int l : eq.output.labels) {
    if (l == EinsumTerm::kEllipsis)
      continue;
    if (!counts.count(l))
      return emitLoweringError(op, "output label '" + Twine(char(l)) +
                                       "' is not in any input");
    if (seen[l]++)
      return emitLoweringError(op,
                               "output label '" + Twine(char(l)) + "' repeats");
  }
  return success();
}

/// The loops of the generic: the output's dims first (an ellipsis standing
/// for its dims), then the summed labels and, when the output has no
/// ellipsis, the summed ellipsis dims.
struct EinsumLoops {
  std::map<int, int64_t> loopOf;
  SmallVector<int64_t> ellipsisLoops;
  int64_t numLoops = 0, numParallel = 0;
  SmallVector<AffineExpr> outExprs;
};

EinsumLoops assignLoops(MLIRContext *ctx, const EinsumEquation &eq) {
  EinsumLoops lp;
  lp.ellipsisLoops.assign(eq.ellipsisRank, -1);
  for (int l : eq.output.labels) {
    if (l == EinsumTerm::kEllipsis) {
      for (int64_t e = 0; e < eq.ellipsisRank; ++e) {
        lp.ellipsisLoops[e] = lp.numLoops;
        lp.outExprs.push_back(getAffineDimExpr(lp.numLoops++, ctx));
      }
      continue;
    }
    lp.loopOf[l] = lp.numLoops;
    lp.outExprs.push_back(getAffineDimExpr(lp.numLoops++, ctx));
  }
  lp.numParallel = lp.numLoops;
  for (int64_t e = 0; e < eq.ellipsisRank; ++e)
    if (lp.ellipsisLoops[e] < 0)
      lp.ellipsisLoops[e] = lp.numLoops++;
  for (const EinsumTerm &t : eq.terms)
    for (int l : t.labels)
      if (l != EinsumTerm::kEllipsis && !lp.loopOf.count(l))
        lp.loopOf[l] = lp.numLoops++;
  return lp;
}

/// The size of each loop, from the dims of the operands that index with it
/// (a static size first; under the ellipsis a 1 broadcasts), the others
/// checked at run time to agree.
SmallVector<OpFoldResult> loopSizes(OpBuilder &b, Location loc, Operation *op,
                                    ValueRange inputs, const EinsumEquation &eq,
                                    const EinsumLoops &lp) {
  IndexMath m{b, loc};
  SmallVector<SmallVector<OpFoldResult>> sources(lp.numLoops);
  for (auto [i, t] : llvm::enumerate(eq.terms)) {
    SmallVector<OpFoldResult> dims = getDims(b, loc, inputs[i]);
    int64_t d = 0;
    for (int l : t.labels) {
      if (l != EinsumTerm::kEllipsis) {
        sources[lp.loopOf.at(l)].push_back(dims[d++]);
        continue;
      }
      for (int64_t e = eq.ellipsisRank - eq.ellipsisRanks[i];
           e < eq.ellipsisRank; ++e)
        sources[lp.ellipsisLoops[e]].push_back(dims[d++]);
    }
  }
  SmallVector<OpFoldResult> sizes(lp.numLoops);
  SmallVector<bool> isEllipsisLoop(lp.numLoops, false);
  for (int64_t e = 0; e < eq.ellipsisRank; ++e)
    isEllipsisLoop[lp.ellipsisLoops[e]] = true;
  for (int64_t loop = 0; loop < lp.numLoops; ++loop) {
    OpFoldResult size;
    for (OpFoldResult s : sources[loop]) {
      std::optional<int64_t> c = getConstantIntValue(s);
      if (c && (!isEllipsisLoop[loop] || *c != 1)) {
        size = s;
        break;
      }
    }
    if (!size)
      for (OpFoldResult s : sources[loop])
        if (!getConstantIntValue(s)) {
          size = s;
          break;
        }
    if (!size)
      size = m.cst(1);
    for (OpFoldResult s : sources[loop]) {
      if (isEllipsisLoop[loop] && isConstantIntValue(s, 1))
        continue;
      checkEqualSizes(b, loc, s, size, op,
                      isEllipsisLoop[loop]
                          ? "dims under the ellipsis differ (a dynamic "
                            "dim that broadcasts at run time is not "
                            "supported)"
                          : "dims of one label differ");
    }
    sizes[loop] = size;
  }
  return sizes;
}

/// The indexing maps of the operands (a static 1 under the ellipsis of a
/// larger loop broadcasts) and of the output.
SmallVector<AffineMap> operandMaps(MLIRContext *ctx, ValueRange inputs,
                                   const EinsumEquation &eq,
                                   const EinsumLoops &lp,
                                   ArrayRef<OpFoldResult> sizes) {
  SmallVector<AffineMap> maps;
  for (auto [i, t] : llvm::enumerate(eq.terms)) {
    auto type = cast<RankedTensorType>(inputs[i].getType());
    SmallVector<AffineExpr> exprs;
    int64_t d = 0;
    for (int l : t.labels) {
      if (l != EinsumTerm::kEllipsis) {
        exprs.push_back(getAffineDimExpr(lp.loopOf.at(l), ctx));
        ++d;
        continue;
      }
      for (int64_t e = eq.ellipsisRank - eq.ellipsisRanks[i];
           e < eq.ellipsisRank; ++e, ++d) {
        int64_t loop = lp.ellipsisLoops[e];
        bool broadcast = !type.isDynamicDim(d) && type.getDimSize(d) == 1 &&
                         !isConstantIntValue(sizes[loop], 1);
        exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(loop, ctx));
      }
    }
    maps.push_back(AffineMap::get(lp.numLoops, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::get(lp.numLoops, 0, lp.outExprs, ctx));
  return maps;
}

struct EinsumLowering : public ONNXToLinalgPattern<EinsumOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getOutput());
    ValueRange inputs = adaptor.getInputs();
    if (inputs.empty())
      return emitLoweringError(op, "no inputs");
    if (!op.getEquation())
      return emitLoweringError(op, "no equation");
    for (Value input : inputs)
      if (!isa<RankedTensorType>(input.getType()))
        return emitLoweringError(op, "inputs of unknown rank");
    EinsumEquation eq;
    if (failed(parseEquation(op, inputs, eq)))
      return failure();
    EinsumLoops lp = assignLoops(ctx, eq);
    if (static_cast<int64_t>(lp.outExprs.size()) != resultType.getRank())
      return emitLoweringError(op, "the equation gives a result of rank " +
                                       Twine(lp.outExprs.size()) + ", not " +
                                       Twine(resultType.getRank()));
    SmallVector<OpFoldResult> sizes =
        loopSizes(rewriter, loc, op, inputs, eq, lp);
    SmallVector<AffineMap> maps = operandMaps(ctx, inputs, eq, lp, sizes);

    // One generic: the product of the operands summed into the output.
    SmallVector<utils::IteratorType> iterators(lp.numLoops,
                                               utils::IteratorType::reduction);
    for (int64_t i = 0; i < lp.numParallel; ++i)
      iterators[i] = utils::IteratorType::parallel;
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    SmallVector<OpFoldResult> outDims(sizes.begin(),
                                      sizes.begin() + lp.numParallel);
    Value init =
        createFilled(rewriter, loc, outDims, acc, zeroOf(rewriter, loc, acc));
    Value result = linalg::GenericOp::create(
                       rewriter, loc, TypeRange{init.getType()}, inputs,
                       ValueRange{init}, maps, iterators,
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         Value product = toAccumulator(b, l, args[0], acc);
                         for (Value v : args.drop_front().drop_back())
                           product = mulScalars(b, l, product,
                                                toAccumulator(b, l, v, acc));
                         linalg::YieldOp::create(
                             b, l, addScalars(b, l, args.back(), product));
                       })
                       .getResult(0);
    if (acc != elem)
      result = convertTensorElements(rewriter, loc, result, elem);
    rewriter.replaceOp(op, castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void mlir::onnx::populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<MatMulLowering, GemmLowering, EinsumLowering>(
      converter, patterns.getContext());
}
