//===- TreeEnsemble.cpp - ai.onnx.ml TreeEnsemble -------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TreeEnsemble (ai.onnx.ml opset 5): the trees are attributes, so they
// become constant tables: per node its feature, mode, children (a child
// c >= 0 is a node, c < 0 the leaf -c - 1), missing_value_tracks_true and
// its range in the table of set members (BRANCH_MEMBER); per node its
// split; per leaf its target and weight; the roots.
//
// One linalg.generic over [N, n_targets] computes, for each (row, target),
// an scf.for over the trees that walks each tree from its root with an
// scf.while until a leaf, and aggregates the leaf's weight when the leaf's
// target is this one (SUM, AVERAGE: the sum divided by the number of trees,
// MIN, MAX; MIN and MAX start from the largest / lowest finite value of X's
// type, as the onnx reference does, for targets no leaf reaches). The
// comparisons and the aggregation are made in f64 (splits, members and
// weights are exact in f64 whatever their type): BRANCH_NEQ is true for a
// NaN feature, the other modes false, unless missing_value_tracks_true
// sends a NaN to the true branch. post_transform: LOGISTIC and PROBIT
// (sqrt(2) * erfinv(2x - 1), erfinv by Winitzki's approximation, a =
// 0.147, as onnxruntime) apply per element in the same generic; SOFTMAX and
// SOFTMAX_ZERO (zeros stay zero, 0.5 everywhere for an all-zero row) per
// row in a second generic. nodes_hitrates is ignored (a hint).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;

namespace {

enum Mode : int64_t { LEQ, LT, GTE, GT, EQ, NEQ, MEMBER };
enum Aggregate : int64_t { AVERAGE, SUM, MIN, MAX };
enum PostTransform : int64_t { NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT };

/// The columns of the node table: feature, mode, true child, false child,
/// missing value tracks true, first member, end of members. A child c < 0
/// is the leaf -c - 1.
enum Column {
  FEATURE,
  MODE,
  TRUE_CHILD,
  FALSE_CHILD,
  MISSING,
  MBEGIN,
  MEND,
  COLS
};

/// The attributes of a TreeEnsemble as the op holds them.
struct Attributes {
  ArrayRef<int64_t> featureIds, trueIds, falseIds, trueLeafs, falseLeafs,
      leafTargets, roots, missingTrue;
  SmallVector<double> modes, splits, weights, members;
};

/// What the compiled walk reads: the attributes checked and put in tables.
struct Ensemble {
  int64_t numNodes = 0, numLeaves = 0, numTrees = 0, nTargets = 0;
  int64_t maxFeature = 0;
  int64_t aggregate = SUM, post = NONE;
  /// COLS values per node.
  SmallVector<int64_t> table;
  SmallVector<double> splits, weights, memberValues;
  SmallVector<int64_t> targets, roots;
};

/// The ensemble's tables as constants of the lowered code.
struct Tables {
  Value nodes, splits, members, targets, weights, roots;
};

/// Reads the tree attributes of `op`; all but the membership and missing
/// value ones are required.
LogicalResult readAttributes(MLTreeEnsembleOp op, Attributes &a) {
  std::optional<ArrayRef<int64_t>> featureIds = op.getNodesFeatureids(),
                                   trueIds = op.getNodesTruenodeids(),
                                   falseIds = op.getNodesFalsenodeids(),
                                   trueLeafs = op.getNodesTrueleafs(),
                                   falseLeafs = op.getNodesFalseleafs(),
                                   leafTargets = op.getLeafTargetids(),
                                   roots = op.getTreeRoots();
  std::optional<ElementsAttr> modesAttr = op.getNodesModes(),
                              splitsAttr = op.getNodesSplits(),
                              weightsAttr = op.getLeafWeights();
  if (!featureIds || !trueIds || !falseIds || !trueLeafs || !falseLeafs ||
      !leafTargets || !roots || !modesAttr || !splitsAttr || !weightsAttr)
    return emitLoweringError(
        op, "nodes_featureids, nodes_truenodeids, nodes_falsenodeids, "
            "nodes_trueleafs, nodes_falseleafs, nodes_modes, nodes_splits, "
            "leaf_targetids, leaf_weights and tree_roots are required");
  std::optional<SmallVector<double>> modes = getElementValues(*modesAttr),
                                     splits = getElementValues(*splitsAttr),
                                     weights = getElementValues(*weightsAttr);
  if (!modes || !splits || !weights)
    return emitLoweringError(op, "nodes_modes, nodes_splits and "
                                 "leaf_weights must be numeric tensors");
  a.featureIds = *featureIds;
  a.trueIds = *trueIds;
  a.falseIds = *falseIds;
  a.trueLeafs = *trueLeafs;
  a.falseLeafs = *falseLeafs;
  a.leafTargets = *leafTargets;
  a.roots = *roots;
  a.modes = std::move(*modes);
  a.splits = std::move(*splits);
  a.weights = std::move(*weights);
  if (std::optional<ElementsAttr> m = op.getMembershipValues()) {
    std::optional<SmallVector<double>> read = getElementValues(*m);
    if (!read)
      return emitLoweringError(op, "membership_values must be a float "
                                   "tensor");
    a.members = std::move(*read);
  }
  if (std::optional<ArrayRef<int64_t>> m = op.getNodesMissingValueTracksTrue())
    a.missingTrue = *m;
  return success();
}

/// Checks that the attributes agree in size, the aggregation and the
/// post-transform, and the number of targets (`type` is Y's).
LogicalResult checkSizes(MLTreeEnsembleOp op, RankedTensorType type,
                         const Attributes &a, Ensemble &e) {
  e.numNodes = a.featureIds.size();
  e.numLeaves = a.leafTargets.size();
  e.numTrees = a.roots.size();
  int64_t numNodes = e.numNodes;
  if ((int64_t)a.trueIds.size() != numNodes ||
      (int64_t)a.falseIds.size() != numNodes ||
      (int64_t)a.trueLeafs.size() != numNodes ||
      (int64_t)a.falseLeafs.size() != numNodes ||
      (int64_t)a.modes.size() != numNodes ||
      (int64_t)a.splits.size() != numNodes ||
      (!a.missingTrue.empty() && (int64_t)a.missingTrue.size() != numNodes))
    return emitLoweringError(op, "the nodes_* attributes must all have " +
                                     Twine(numNodes) + " entries");
  if ((int64_t)a.weights.size() != e.numLeaves)
    return emitLoweringError(op, "leaf_weights and leaf_targetids must "
                                 "have the same length");
  if (e.numTrees == 0 || numNodes == 0)
    return emitLoweringError(op, "there are no trees (tree_roots or the "
                                 "nodes_* attributes are empty)");

  e.aggregate = op.getAggregateFunction();
  e.post = op.getPostTransform();
  if (e.aggregate < AVERAGE || e.aggregate > MAX)
    return emitLoweringError(op, "aggregate_function " + Twine(e.aggregate) +
                                     " is not one of 0-3");
  if (e.post < NONE || e.post > PROBIT)
    return emitLoweringError(op, "post_transform " + Twine(e.post) +
                                     " is not one of 0-4");

  e.nTargets = 0;
  if (std::optional<uint64_t> n = op.getNTargets())
    e.nTargets = *n;
  else if (!type.isDynamicDim(1))
    e.nTargets = type.getDimSize(1);
  else
    for (int64_t t : a.leafTargets)
      e.nTargets = std::max(e.nTargets, t + 1);
  if (!type.isDynamicDim(1) && type.getDimSize(1) != e.nTargets)
    return emitLoweringError(op, "Y's last dim is not n_targets (" +
                                     Twine(e.nTargets) + ")");
  for (int64_t t : a.leafTargets)
    if (t < 0 || t >= e.nTargets)
      return emitLoweringError(op, "leaf_targetids must be in [0, " +
                                       Twine(e.nTargets) + ")");
  return success();
}

/// Builds the node table (and the members of BRANCH_MEMBER nodes), checking
/// features, modes, children and roots.
LogicalResult buildNodeTable(MLTreeEnsembleOp op, const Attributes &a,
                             Ensemble &e) {
  size_t nextMember = 0;
  for (int64_t i = 0; i < e.numNodes; ++i) {
    int64_t feature = a.featureIds[i];
    if (feature < 0)
      return emitLoweringError(op, "negative nodes_featureids");
    e.maxFeature = std::max(e.maxFeature, feature);
    double modeValue = a.modes[i];
    if (modeValue < LEQ || modeValue > MEMBER)
      return emitLoweringError(op, "nodes_modes must be in [0, 6]");
    int64_t mode = static_cast<int64_t>(modeValue);
    int64_t children[2];
    for (int side = 0; side < 2; ++side) {
      int64_t id = side == 0 ? a.trueIds[i] : a.falseIds[i];
      bool leaf = (side == 0 ? a.trueLeafs[i] : a.falseLeafs[i]) != 0;
      int64_t bound = leaf ? e.numLeaves : e.numNodes;
      if (id < 0 || id >= bound)
        return emitLoweringError(op, Twine("node ") + Twine(i) + ": " +
                                         (side == 0 ? "true" : "false") +
                                         " branch " + Twine(id) + " is not a " +
                                         (leaf ? "leaf" : "node") +
                                         " (there are " + Twine(bound) + ")");
      children[side] = leaf ? -id - 1 : id;
    }
    int64_t begin = e.memberValues.size();
    if (mode == MEMBER) {
      // The next set of members: up to a NaN or the end.
      if (nextMember >= a.members.size())
        return emitLoweringError(op, "membership_values has fewer sets "
                                     "than there are BRANCH_MEMBER nodes");
      while (nextMember < a.members.size() &&
             !std::isnan(a.members[nextMember]))
        e.memberValues.push_back(a.members[nextMember++]);
      ++nextMember;
    }
    e.table.append({feature, mode, children[0], children[1],
                    a.missingTrue.empty() ? 0 : (a.missingTrue[i] != 0 ? 1 : 0),
                    begin, (int64_t)e.memberValues.size()});
  }
  for (int64_t r : a.roots)
    if (r < 0 || r >= e.numNodes)
      return emitLoweringError(op, "tree_roots must be in [0, " +
                                       Twine(e.numNodes) + ")");
  e.splits = a.splits;
  e.weights = a.weights;
  e.targets.assign(a.leafTargets.begin(), a.leafTargets.end());
  e.roots.assign(a.roots.begin(), a.roots.end());
  return success();
}

/// A walk must end at a leaf: no cycle among the nodes.
LogicalResult checkAcyclic(MLTreeEnsembleOp op, const Ensemble &e) {
  SmallVector<int8_t> state(e.numNodes, 0); // 0 new, 1 on stack, 2 done
  for (int64_t start = 0; start < e.numNodes; ++start) {
    if (state[start])
      continue;
    SmallVector<std::pair<int64_t, int>> stack{{start, 0}};
    state[start] = 1;
    while (!stack.empty()) {
      auto &[node, side] = stack.back();
      if (side == 2) {
        state[node] = 2;
        stack.pop_back();
        continue;
      }
      int64_t child = e.table[node * COLS + TRUE_CHILD + side++];
      if (child < 0 || state[child] == 2)
        continue;
      if (state[child] == 1)
        return emitLoweringError(op, "the nodes form a cycle (node " +
                                         Twine(child) + ")");
      state[child] = 1;
      stack.push_back({child, 0});
    }
  }
  return success();
}

/// The ensemble's tables as constants (an empty table gets one unused
/// entry).
Tables buildTables(OpBuilder &b, Location loc, Ensemble &e) {
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  if (e.memberValues.empty())
    e.memberValues.push_back(0);
  if (e.numLeaves == 0) {
    e.targets.push_back(0);
    e.weights.push_back(0);
  }
  auto constant = [&](RankedTensorType t, auto values) -> Value {
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(t, values));
  };
  auto size = [](const auto &v) { return (int64_t)v.size(); };
  Tables t;
  t.nodes = constant(RankedTensorType::get({e.numNodes, COLS}, i64),
                     ArrayRef<int64_t>(e.table));
  t.splits = constant(RankedTensorType::get({e.numNodes}, f64),
                      ArrayRef<double>(e.splits));
  t.members = constant(RankedTensorType::get({size(e.memberValues)}, f64),
                       ArrayRef<double>(e.memberValues));
  t.targets = constant(RankedTensorType::get({size(e.targets)}, i64),
                       ArrayRef<int64_t>(e.targets));
  t.weights = constant(RankedTensorType::get({size(e.weights)}, f64),
                       ArrayRef<double>(e.weights));
  t.roots = constant(RankedTensorType::get({e.numTrees}, i64),
                     ArrayRef<int64_t>(e.roots));
  return t;
}

/// An f64 constant.
Value f64c(OpBuilder &b, Location l, double v) {
  return arith::ConstantOp::create(b, l, b.getF64FloatAttr(v));
}

/// One step of the walk of row `row` of `x` from the node `cur` (an i64 id
/// >= 0): the id the node's comparison sends it to.
Value walkStep(OpBuilder &wb, Location wl, Value cur, const Tables &t, Value x,
               Value row, FloatType xElement) {
  Type i64 = wb.getI64Type(), f64 = wb.getF64Type();
  Value c0 = arith::ConstantIntOp::create(wb, wl, i64, 0);
  Value one = idx(wb, wl, 1);
  Value node = arith::IndexCastOp::create(wb, wl, wb.getIndexType(), cur);
  auto field = [&](int64_t col) -> Value {
    return tensor::ExtractOp::create(wb, wl, t.nodes,
                                     ValueRange{node, idx(wb, wl, col)});
  };
  Value feature =
      arith::IndexCastOp::create(wb, wl, wb.getIndexType(), field(FEATURE));
  Value v = tensor::ExtractOp::create(wb, wl, x, ValueRange{row, feature});
  if (xElement != f64)
    v = arith::ExtFOp::create(wb, wl, f64, v);
  Value split = tensor::ExtractOp::create(wb, wl, t.splits, node);
  auto cmp = [&](arith::CmpFPredicate p, Value y) {
    return arith::CmpFOp::create(wb, wl, p, v, y).getResult();
  };
  // Membership: a loop over the node's members (an empty range for the
  // other modes).
  Value begin =
      arith::IndexCastOp::create(wb, wl, wb.getIndexType(), field(MBEGIN));
  Value end =
      arith::IndexCastOp::create(wb, wl, wb.getIndexType(), field(MEND));
  Value falseV = arith::ConstantIntOp::create(wb, wl, wb.getI1Type(), 0);
  auto member = scf::ForOp::create(
      wb, wl, begin, end, one, ValueRange{falseV},
      [&](OpBuilder &mb, Location ml, Value j, ValueRange found) {
        Value m = tensor::ExtractOp::create(mb, ml, t.members, j);
        Value eq =
            arith::CmpFOp::create(mb, ml, arith::CmpFPredicate::OEQ, v, m);
        scf::YieldOp::create(
            mb, ml, ValueRange{arith::OrIOp::create(mb, ml, found[0], eq)});
      });
  Value mode = field(MODE);
  std::pair<int64_t, Value> cases[] = {
      {LT, cmp(arith::CmpFPredicate::OLT, split)},
      {GTE, cmp(arith::CmpFPredicate::OGE, split)},
      {GT, cmp(arith::CmpFPredicate::OGT, split)},
      {EQ, cmp(arith::CmpFPredicate::OEQ, split)},
      {NEQ, cmp(arith::CmpFPredicate::UNE, split)},
      {MEMBER, member.getResult(0)}};
  Value taken = cmp(arith::CmpFPredicate::OLE, split);
  for (auto &[m, c] : cases) {
    Value is =
        arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::eq, mode,
                              arith::ConstantIntOp::create(wb, wl, i64, m));
    taken = arith::SelectOp::create(wb, wl, is, c, taken);
  }
  Value isNan = cmp(arith::CmpFPredicate::UNO, v);
  Value missing = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::ne,
                                        field(MISSING), c0);
  taken = arith::OrIOp::create(wb, wl, taken,
                               arith::AndIOp::create(wb, wl, isNan, missing));
  return arith::SelectOp::create(wb, wl, taken, field(TRUE_CHILD),
                                 field(FALSE_CHILD));
}

/// The score of row `row` for `target` (i64): each tree walked from its
/// root to a leaf, the weights of the leaves of that target aggregated from
/// `initValue`, in f64 (AVERAGE divided by the number of trees).
Value treeScore(OpBuilder &nb, Location l, const Ensemble &e, const Tables &t,
                Value x, Value row, Value target, FloatType xElement,
                double initValue) {
  Type i64 = nb.getI64Type();
  Value zero = idx(nb, l, 0), one = idx(nb, l, 1);
  Value c0 = arith::ConstantIntOp::create(nb, l, i64, 0);
  auto trees = scf::ForOp::create(
      nb, l, zero, idx(nb, l, e.numTrees), one,
      ValueRange{f64c(nb, l, initValue)},
      [&](OpBuilder &tb, Location tl, Value tree, ValueRange acc) {
        Value root = tensor::ExtractOp::create(tb, tl, t.roots, tree);
        // Walk from the root while the current id is a node.
        auto walk = scf::WhileOp::create(
            tb, tl, TypeRange{i64}, ValueRange{root},
            [&](OpBuilder &wb, Location wl, ValueRange cur) {
              Value isNode = arith::CmpIOp::create(
                  wb, wl, arith::CmpIPredicate::sge, cur[0], c0);
              scf::ConditionOp::create(wb, wl, isNode, cur);
            },
            [&](OpBuilder &wb, Location wl, ValueRange cur) {
              scf::YieldOp::create(
                  wb, wl,
                  ValueRange{walkStep(wb, wl, cur[0], t, x, row, xElement)});
            });
        // The leaf -c - 1.
        Value leaf = arith::SubIOp::create(
            tb, tl, arith::ConstantIntOp::create(tb, tl, i64, -1),
            walk.getResult(0));
        leaf = arith::IndexCastOp::create(tb, tl, tb.getIndexType(), leaf);
        Value leafTarget = tensor::ExtractOp::create(tb, tl, t.targets, leaf);
        Value w = tensor::ExtractOp::create(tb, tl, t.weights, leaf);
        Value a = acc[0], updated;
        if (e.aggregate == MIN)
          updated = arith::MinimumFOp::create(tb, tl, a, w);
        else if (e.aggregate == MAX)
          updated = arith::MaximumFOp::create(tb, tl, a, w);
        else
          updated = arith::AddFOp::create(tb, tl, a, w);
        Value hit = arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::eq,
                                          leafTarget, target);
        scf::YieldOp::create(
            tb, tl,
            ValueRange{arith::SelectOp::create(tb, tl, hit, updated, a)});
      });
  Value y = trees.getResult(0);
  if (e.aggregate == AVERAGE)
    y = arith::DivFOp::create(nb, l, y, f64c(nb, l, (double)e.numTrees));
  return y;
}

/// post_transform LOGISTIC or PROBIT of one score (f64); others unchanged.
Value transformScore(OpBuilder &nb, Location l, Value y, int64_t post) {
  if (post == LOGISTIC) {
    // 1 / (1 + exp(-|y|)), mirrored for y < 0.
    Value e = math::ExpOp::create(
        nb, l, arith::NegFOp::create(nb, l, math::AbsFOp::create(nb, l, y)));
    Value s = arith::DivFOp::create(
        nb, l, f64c(nb, l, 1), arith::AddFOp::create(nb, l, f64c(nb, l, 1), e));
    Value negative = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, y,
                                           f64c(nb, l, 0));
    return arith::SelectOp::create(
        nb, l, negative, arith::SubFOp::create(nb, l, f64c(nb, l, 1), s), s);
  }
  if (post != PROBIT)
    return y;
  // sqrt(2) * erfinv(2y - 1), erfinv(z) ~ sign(z) * sqrt(-v +
  // sqrt(v^2 - ln(1 - z^2) / a)), v = 2 / (pi a) + ln(1 - z^2) / 2.
  const double a = 0.147;
  Value z = arith::SubFOp::create(
      nb, l, arith::MulFOp::create(nb, l, y, f64c(nb, l, 2)), f64c(nb, l, 1));
  Value lg = math::LogOp::create(
      nb, l,
      arith::MulFOp::create(nb, l,
                            arith::SubFOp::create(nb, l, f64c(nb, l, 1), z),
                            arith::AddFOp::create(nb, l, f64c(nb, l, 1), z)));
  Value v =
      arith::AddFOp::create(nb, l, f64c(nb, l, 2 / (llvm::numbers::pi * a)),
                            arith::MulFOp::create(nb, l, f64c(nb, l, 0.5), lg));
  Value v2 = arith::MulFOp::create(nb, l, f64c(nb, l, 1 / a), lg);
  Value r = math::SqrtOp::create(
      nb, l,
      arith::SubFOp::create(nb, l, arith::MulFOp::create(nb, l, v, v), v2));
  r = math::SqrtOp::create(nb, l, arith::SubFOp::create(nb, l, r, v));
  Value negative = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, z,
                                         f64c(nb, l, 0));
  r = arith::SelectOp::create(nb, l, negative, arith::NegFOp::create(nb, l, r),
                              r);
  return arith::MulFOp::create(nb, l, f64c(nb, l, llvm::numbers::sqrt2), r);
}

/// SOFTMAX or SOFTMAX_ZERO over each row of `scores` (f64, [N, nTargets]),
/// as `xElement`.
Value rowSoftmax(OpBuilder &b, Location loc, Value scores,
                 ArrayRef<OpFoldResult> dims, int64_t nTargets, int64_t post,
                 FloatType xElement) {
  Type f64 = b.getF64Type();
  Value out = tensor::EmptyOp::create(b, loc, dims, xElement);
  auto softmax = linalg::GenericOp::create(
      b, loc, TypeRange{out.getType()}, ValueRange{}, ValueRange{out},
      SmallVector<AffineMap>{b.getMultiDimIdentityMap(2)},
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value row = linalg::IndexOp::create(nb, l, 0);
        Value col = linalg::IndexOp::create(nb, l, 1);
        Value zero = idx(nb, l, 0), one = idx(nb, l, 1);
        Value width = idx(nb, l, nTargets);
        auto at = [&](OpBuilder &bb, Location bl, Value j) -> Value {
          return tensor::ExtractOp::create(bb, bl, scores, ValueRange{row, j});
        };
        auto maxLoop = scf::ForOp::create(
            nb, l, zero, width, one,
            ValueRange{f64c(nb, l, -std::numeric_limits<double>::max())},
            [&](OpBuilder &fb, Location fl, Value j, ValueRange m) {
              scf::YieldOp::create(fb, fl,
                                   ValueRange{arith::MaximumFOp::create(
                                       fb, fl, m[0], at(fb, fl, j))});
            });
        Value mx = maxLoop.getResult(0);
        // exp(s - max); SOFTMAX_ZERO keeps (near) zeros at zero.
        auto expOf = [&](OpBuilder &eb, Location el, Value s) -> Value {
          Value e =
              math::ExpOp::create(eb, el, arith::SubFOp::create(eb, el, s, mx));
          if (post == SOFTMAX)
            return e;
          Value tiny = arith::CmpFOp::create(eb, el, arith::CmpFPredicate::OLE,
                                             math::AbsFOp::create(eb, el, s),
                                             f64c(eb, el, 1e-7));
          Value scaled = arith::MulFOp::create(
              eb, el, s,
              math::ExpOp::create(eb, el, arith::NegFOp::create(eb, el, mx)));
          return arith::SelectOp::create(eb, el, tiny, scaled, e);
        };
        auto sumLoop = scf::ForOp::create(
            nb, l, zero, width, one, ValueRange{f64c(nb, l, 0)},
            [&](OpBuilder &fb, Location fl, Value j, ValueRange s) {
              scf::YieldOp::create(
                  fb, fl,
                  ValueRange{arith::AddFOp::create(
                      fb, fl, s[0], expOf(fb, fl, at(fb, fl, j)))});
            });
        Value sum = sumLoop.getResult(0);
        Value y =
            arith::DivFOp::create(nb, l, expOf(nb, l, at(nb, l, col)), sum);
        if (post == SOFTMAX_ZERO) {
          Value allZero = arith::CmpFOp::create(
              nb, l, arith::CmpFPredicate::OEQ, sum, f64c(nb, l, 0));
          y = arith::SelectOp::create(nb, l, allZero, f64c(nb, l, 0.5), y);
        }
        if (xElement != f64)
          y = arith::TruncFOp::create(nb, l, xElement, y);
        linalg::YieldOp::create(nb, l, y);
      });
  return softmax.getResult(0);
}

struct TreeEnsembleLowering : ONNXToLinalgPattern<MLTreeEnsembleOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(MLTreeEnsembleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto type = getConvertedType(op);
    if (!xType || !type || xType.getRank() != 2 || type.getRank() != 2)
      return emitLoweringError(op, "X must be [N, F] and Y [N, n_targets]");
    auto xElement = dyn_cast<FloatType>(xType.getElementType());
    if (!xElement || xElement.getWidth() < 16 || xElement.getWidth() > 64 ||
        type.getElementType() != xElement)
      return emitLoweringError(op, "X and Y must have the same float type "
                                   "(f16, f32 or f64)");

    Attributes attrs;
    Ensemble e;
    if (failed(readAttributes(op, attrs)) ||
        failed(checkSizes(op, type, attrs, e)) ||
        failed(buildNodeTable(op, attrs, e)) || failed(checkAcyclic(op, e)))
      return failure();
    if (!xType.isDynamicDim(1) && e.maxFeature >= xType.getDimSize(1))
      return emitLoweringError(op, "nodes_featureids must be in [0, " +
                                       Twine(xType.getDimSize(1)) + ")");

    OpBuilder &b = rewriter;
    Type i64 = b.getI64Type(), f64 = b.getF64Type();
    Tables tables = buildTables(b, loc, e);

    // A feature beyond X's columns (F dynamic) stops the model.
    if (xType.isDynamicDim(1)) {
      Value f = tensor::DimOp::create(b, loc, x, 1);
      check(
          b, loc,
          cmpI(b, loc, arith::CmpIPredicate::slt, idx(b, loc, e.maxFeature), f),
          op, "nodes_featureids beyond X's features");
    }

    const llvm::fltSemantics &sem = xElement.getFloatSemantics();
    double initValue = 0;
    if (e.aggregate == MIN)
      initValue = APFloat::getLargest(sem).convertToDouble();
    else if (e.aggregate == MAX)
      initValue = APFloat::getLargest(sem, /*Negative=*/true).convertToDouble();
    bool rowWise = e.post == SOFTMAX || e.post == SOFTMAX_ZERO;
    Type scoreType = rowWise ? f64 : Type(xElement);

    // One generic over [N, n_targets]: each element a walk of every tree.
    SmallVector<OpFoldResult> dims{tensor::getMixedSize(b, loc, x, 0),
                                   b.getIndexAttr(e.nTargets)};
    Value init = tensor::EmptyOp::create(b, loc, dims, scoreType);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{b.getMultiDimIdentityMap(2)},
        SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange) {
          Value row = linalg::IndexOp::create(nb, l, 0);
          Value target = arith::IndexCastOp::create(
              nb, l, i64, linalg::IndexOp::create(nb, l, 1));
          Value y =
              treeScore(nb, l, e, tables, x, row, target, xElement, initValue);
          y = transformScore(nb, l, y, e.post);
          if (scoreType != f64)
            y = arith::TruncFOp::create(nb, l, scoreType, y);
          linalg::YieldOp::create(nb, l, y);
        });
    Value result = generic.getResult(0);
    if (rowWise)
      result = rowSoftmax(b, loc, result, dims, e.nTargets, e.post, xElement);
    rewriter.replaceOp(op, castTo(b, loc, result, type));
    return success();
  }
};

} // namespace

void mlir::onnx::populateTreeEnsembleToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TreeEnsembleLowering>(converter, patterns.getContext());
}
