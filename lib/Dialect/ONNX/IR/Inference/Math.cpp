//===- Math.cpp - Inference of the linear algebra onnx operators ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MatMul and its quantized forms, Gemm, Einsum and Det.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include <cctype>
#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The numpy matmul of inputs `a` and `b` (named `aName`, `bName`) into
/// output `out`, of the element type `elementType` (null: the schema's).
LogicalResult inferMatMulShape(InferenceContext &ctx, unsigned a, unsigned b,
                               StringRef aName, StringRef bName,
                               unsigned out = 0, Type elementType = nullptr) {
  std::optional<Shape> sa = ctx.getInputShape(a);
  std::optional<Shape> sb = ctx.getInputShape(b);
  if (sa && sa->empty())
    return ctx.fail() << "input '" << aName << "' must have rank 1 or more";
  if (sb && sb->empty())
    return ctx.fail() << "input '" << bName << "' must have rank 1 or more";
  if (!sa || !sb) {
    ctx.setOutput(out, elementType, std::nullopt);
    return success();
  }
  // A 1-D A is a row [1, K], a 1-D B a column [K, 1]; the added dims are
  // dropped from the result.
  Shape ma = *sa, mb = *sb;
  bool rowA = ma.size() == 1, colB = mb.size() == 1;
  if (rowA)
    ma.insert(ma.begin(), Dim(1));
  if (colB)
    mb.push_back(Dim(1));
  const Dim &ka = ma[ma.size() - 1];
  const Dim &kb = mb[mb.size() - 2];
  if (failed(mergeDims(ka, kb)))
    return ctx.fail() << "inputs '" << aName << "' " << formatShape(*sa)
                      << " and '" << bName << "' " << formatShape(*sb)
                      << " have different reduction dims";
  Shape batchA(ma.begin(), ma.end() - 2), batchB(mb.begin(), mb.end() - 2);
  FailureOr<Shape> batch = broadcastShapes({batchA, batchB});
  if (failed(batch))
    return ctx.fail() << "the batch dims of inputs '" << aName << "' "
                      << formatShape(*sa) << " and '" << bName << "' "
                      << formatShape(*sb) << " do not broadcast";
  Shape result = *batch;
  if (!rowA)
    result.push_back(ma[ma.size() - 2]);
  if (!colB)
    result.push_back(mb[mb.size() - 1]);
  ctx.setOutput(out, elementType, result);
  return success();
}

LogicalResult inferMatMul(InferenceContext &ctx) {
  return inferMatMulShape(ctx, 0, 1, "A", "B");
}

LogicalResult inferQLinearMatMul(InferenceContext &ctx) {
  return inferMatMulShape(ctx, 0, 3, "a", "b");
}

/// Gemm: op(A) [M, K] times op(B) [K, N], plus C broadcast to [M, N].
LogicalResult inferGemm(InferenceContext &ctx) {
  std::optional<Shape> a = ctx.getInputShape(0);
  std::optional<Shape> b = ctx.getInputShape(1);
  if (a && a->size() != 2)
    return ctx.fail() << "input 'A' must have rank 2, got " << a->size();
  if (b && b->size() != 2)
    return ctx.fail() << "input 'B' must have rank 2, got " << b->size();
  bool transA = ctx.getIntAttrOrDefault("transA") != 0;
  bool transB = ctx.getIntAttrOrDefault("transB") != 0;
  Dim m, n, ka, kb;
  if (a) {
    m = (*a)[transA ? 1 : 0];
    ka = (*a)[transA ? 0 : 1];
  }
  if (b) {
    kb = (*b)[transB ? 1 : 0];
    n = (*b)[transB ? 0 : 1];
  }
  if (failed(mergeDims(ka, kb)))
    return ctx.fail() << "inputs 'A' " << formatShape(*a) << " and 'B' "
                      << formatShape(*b)
                      << " have different reduction dims (transA=" << transA
                      << ", transB=" << transB << ")";
  Shape result = {m, n};
  if (std::optional<Shape> c = ctx.getInputShape(2)) {
    auto fail = [&]() {
      return ctx.fail() << "input 'C' " << formatShape(*c)
                        << " does not broadcast to the result "
                        << formatShape(result);
    };
    if (c->size() > 2)
      return fail();
    size_t offset = 2 - c->size();
    for (auto [i, dim] : llvm::enumerate(*c)) {
      const Dim &t = result[offset + i];
      if (dim.isStatic() && dim.size != 1 && t.isStatic() && t.size != dim.size)
        return fail();
    }
  }
  ctx.setOutput(0, nullptr, result);
  return success();
}

/// Einsum: the output dims from the labels of the equation.
LogicalResult inferEinsum(InferenceContext &ctx) {
  if (ctx.isAttrRef("equation"))
    return success();
  std::optional<StringRef> eqAttr = ctx.getStringAttr("equation");
  if (!eqAttr)
    return success();
  std::string eq;
  for (char c : *eqAttr)
    if (c != ' ')
      eq += c;
  StringRef lhs = eq, rhs;
  bool isExplicit = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.substr(arrow + 2);
    lhs = lhs.substr(0, arrow);
    isExplicit = true;
  }

  // A term: labels (letters, or 0 for the ellipsis).
  auto parseTerm = [&](StringRef term,
                       SmallVectorImpl<char> &labels) -> LogicalResult {
    bool ellipsis = false;
    for (size_t i = 0; i < term.size();) {
      if (term.substr(i).starts_with("...")) {
        if (ellipsis)
          return ctx.fail() << "attribute 'equation' \"" << *eqAttr
                            << "\" has a term with two ellipses";
        ellipsis = true;
        labels.push_back(0);
        i += 3;
        continue;
      }
      char c = term[i];
      if (!std::isalpha(static_cast<unsigned char>(c)))
        return ctx.fail() << "attribute 'equation' \"" << *eqAttr
                          << "\" has an invalid character '" << c << "'";
      labels.push_back(c);
      ++i;
    }
    return success();
  };

  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  unsigned numInputs = ctx.getNumInputs();
  if (terms.size() != numInputs)
    return ctx.fail() << "attribute 'equation' \"" << *eqAttr << "\" has "
                      << terms.size() << " input terms for " << numInputs
                      << " inputs";

  llvm::DenseMap<char, Dim> dims;
  llvm::DenseMap<char, int> counts;
  std::optional<Shape> ellipsisShape = Shape();
  bool anyEllipsis = false;
  bool allRanked = true;
  for (unsigned i = 0; i < numInputs; ++i) {
    SmallVector<char> labels;
    if (failed(parseTerm(terms[i], labels)))
      return failure();
    bool hasEllipsis = llvm::is_contained(labels, 0);
    anyEllipsis |= hasEllipsis;
    for (char l : labels)
      if (l)
        ++counts[l];
    std::optional<Shape> shape = ctx.getInputShape(i);
    if (!shape) {
      allRanked = false;
      if (hasEllipsis)
        ellipsisShape.reset();
      continue;
    }
    int64_t numLabels = labels.size() - (hasEllipsis ? 1 : 0);
    int64_t rank = shape->size();
    if (hasEllipsis ? rank < numLabels : rank != numLabels)
      return ctx.fail() << "input 'Inputs' #" << i << " " << formatShape(*shape)
                        << " has rank " << rank << ", but its term \""
                        << terms[i] << "\" has " << numLabels << " labels";
    int64_t pos = 0;
    for (char l : labels) {
      if (!l) {
        int64_t n = rank - numLabels;
        Shape part(shape->begin() + pos, shape->begin() + pos + n);
        pos += n;
        // Ellipses of different ranks broadcast from the right.
        if (ellipsisShape) {
          FailureOr<Shape> b = broadcastShapes({*ellipsisShape, part});
          if (failed(b))
            return ctx.fail()
                   << "the ellipsis dims of the inputs do not broadcast";
          ellipsisShape = *b;
        }
        continue;
      }
      const Dim &d = (*shape)[pos++];
      auto [it, inserted] = dims.try_emplace(l, d);
      if (inserted)
        continue;
      Dim &known = it->second;
      // A dim of 1 broadcasts against the other occurrences of its label.
      if (known.isStatic() && known.size == 1) {
        known = d;
        continue;
      }
      if (d.isStatic() && d.size == 1)
        continue;
      FailureOr<Dim> merged = mergeDims(known, d);
      if (failed(merged))
        return ctx.fail() << "label '" << l << "' of attribute 'equation' "
                          << "has sizes " << known.size << " and " << d.size;
      known = *merged;
    }
  }

  SmallVector<char> outLabels;
  if (isExplicit) {
    if (failed(parseTerm(rhs, outLabels)))
      return failure();
    llvm::SmallDenseSet<char> seen;
    for (char l : outLabels) {
      if (!l)
        continue;
      if (!counts.count(l))
        return ctx.fail() << "label '" << l << "' of the output of "
                          << "attribute 'equation' is not in an input term";
      if (!seen.insert(l).second)
        return ctx.fail() << "label '" << l << "' appears twice in the "
                          << "output of attribute 'equation'";
    }
  } else {
    if (anyEllipsis)
      outLabels.push_back(0);
    SmallVector<char> once;
    for (auto [l, n] : counts)
      if (n == 1)
        once.push_back(l);
    llvm::sort(once);
    outLabels.append(once.begin(), once.end());
  }

  if (!allRanked) {
    // The rank is known when the ellipsis is not in the output.
    if (llvm::is_contained(outLabels, 0) && !ellipsisShape) {
      ctx.setOutput(0, nullptr, std::nullopt);
      return success();
    }
  }
  Shape result;
  for (char l : outLabels) {
    if (!l) {
      if (ellipsisShape)
        result.append(ellipsisShape->begin(), ellipsisShape->end());
      continue;
    }
    auto it = dims.find(l);
    result.push_back(it == dims.end() ? Dim::unknown() : it->second);
  }
  ctx.setOutput(0, nullptr, result);
  return success();
}

/// Det: [*, M, M] -> [*].
LogicalResult inferDet(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (!x) {
    ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }
  if (x->size() < 2)
    return ctx.fail() << "input 'X' must have rank 2 or more, got "
                      << x->size();
  if (failed(mergeDims((*x)[x->size() - 1], (*x)[x->size() - 2])))
    return ctx.fail() << "input 'X' " << formatShape(*x)
                      << " must hold square matrices";
  ctx.setOutput(0, nullptr, Shape(x->begin(), x->end() - 2));
  return success();
}

} // namespace

void mlir::onnx::registerMathInference(InferenceRegistry &r) {
  r.add<MatMulOp, MatMulIntegerOp>(inferMatMul);
  r.add<QLinearMatMulOp>(inferQLinearMatMul);
  r.add<GemmOp>(inferGemm);
  r.add<EinsumOp>(inferEinsum);
  r.add<DetOp>(inferDet);
}
