//===- Detection.cpp - NonMaxSuppression to scf loops ---------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// NonMaxSuppression is a greedy, data-dependent selection: it is lowered to
// scf loops over batches and classes that repeatedly take the best
// remaining box (highest score above score_threshold, the lower index on a
// tie), keep it unless its IoU with a box already kept for that class is
// greater than iou_threshold, and stop after max_output_boxes_per_class.
// The selected rows are written into a buffer of the largest possible
// size (batches * classes * min(boxes, max_output) rows when that bound is
// a constant) and the result is the extract_slice of the rows written.
// The IoU is computed in f32 as in the ONNX reference.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

struct NonMaxSuppressionLowering : ONNXToLinalgPattern<NonMaxSuppressionOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(NonMaxSuppressionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto bType = dyn_cast<RankedTensorType>(boxes.getType());
    auto sType = dyn_cast<RankedTensorType>(scores.getType());
    if (!type || type.getRank() != 2 || !bType || bType.getRank() != 3 ||
        !sType || sType.getRank() != 3)
      return emitLoweringError(
          op, "expected boxes and scores of rank 3 and a result of rank 2");
    if (!bType.isDynamicDim(2) && bType.getDimSize(2) != 4)
      return emitLoweringError(op, "boxes must have 4 coordinates");
    bool center = op.getCenterPointBox() != 0;
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f32 = bType.getElementType();
    Type i64 = b.getI64Type();
    Type i1 = b.getI1Type();
    Type indexType = b.getIndexType();

    SmallVector<Value> bDims = dimValues(b, loc, boxes);
    SmallVector<Value> sDims = dimValues(b, loc, scores);
    Value numBatches = bDims[0], numBoxes = bDims[1], numClasses = sDims[1];
    check(b, loc,
          andI(b, loc, cmpI(b, loc, Pred::eq, sDims[0], numBatches),
               cmpI(b, loc, Pred::eq, sDims[2], numBoxes)),
          op, "boxes and scores have different batches or boxes");
    if (bType.isDynamicDim(2))
      check(b, loc, cmpI(b, loc, Pred::eq, bDims[2], idx(b, loc, 4)), op,
            "boxes must have 4 coordinates");

    Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
    Value maxOut = zero;
    std::optional<int64_t> staticMaxOut;
    if (Value m = isAbsent(adaptor.getMaxOutputBoxesPerClass())
                      ? Value()
                      : adaptor.getMaxOutputBoxesPerClass()) {
      maxOut =
          maxI(b, loc, castToIndex(b, loc, extractScalar(b, loc, m)), zero);
      if (auto c = getConstantIntValues(m); c && c->size() == 1)
        staticMaxOut = std::max<int64_t>((*c)[0], 0);
    } else {
      staticMaxOut = 0;
    }
    Value iouThreshold = isAbsent(adaptor.getIouThreshold())
                             ? createScalarConstant(b, loc, f32, 0)
                             : extractScalar(b, loc, adaptor.getIouThreshold());
    Value scoreThreshold =
        isAbsent(adaptor.getScoreThreshold())
            ? Value()
            : extractScalar(b, loc, adaptor.getScoreThreshold());

    // Rows of the buffer: batches * classes * min(boxes, max_output).
    OpFoldResult perClass = numBoxes;
    if (staticMaxOut) {
      if (!bType.isDynamicDim(1))
        perClass = b.getIndexAttr(std::min(*staticMaxOut, bType.getDimSize(1)));
      else
        perClass = minI(b, loc, numBoxes, idx(b, loc, *staticMaxOut));
    }
    OpFoldResult rows = product(
        b, loc,
        {getDims(b, loc, boxes)[0], getDims(b, loc, scores)[1], perClass});
    Value buffer = tensor::EmptyOp::create(
        b, loc, ArrayRef<OpFoldResult>{rows, b.getIndexAttr(3)}, i64);
    Value flags0 = tensor::EmptyOp::create(
        b, loc, ArrayRef<OpFoldResult>{getDims(b, loc, boxes)[1]}, i1);

    // The corners (xmin, ymin, xmax, ymax) of box i of batch n.
    auto corners = [&](OpBuilder &nb, Location nloc, Value n, Value i) {
      SmallVector<Value> v;
      for (int64_t k = 0; k < 4; ++k)
        v.push_back(tensor::ExtractOp::create(
            nb, nloc, boxes, ValueRange{n, i, idx(nb, nloc, k)}));
      auto minF = [&](Value p, Value q) {
        return (Value)arith::MinimumFOp::create(nb, nloc, p, q);
      };
      auto maxF = [&](Value p, Value q) {
        return (Value)arith::MaximumFOp::create(nb, nloc, p, q);
      };
      if (center) {
        Value two = createScalarConstant(nb, nloc, f32, 2);
        Value hw = arith::DivFOp::create(nb, nloc, v[2], two);
        Value hh = arith::DivFOp::create(nb, nloc, v[3], two);
        return SmallVector<Value>{arith::SubFOp::create(nb, nloc, v[0], hw),
                                  arith::SubFOp::create(nb, nloc, v[1], hh),
                                  arith::AddFOp::create(nb, nloc, v[0], hw),
                                  arith::AddFOp::create(nb, nloc, v[1], hh)};
      }
      // [y1, x1, y2, x2], any diagonal.
      return SmallVector<Value>{minF(v[1], v[3]), minF(v[0], v[2]),
                                maxF(v[1], v[3]), maxF(v[0], v[2])};
    };
    // Whether IoU(a, c) > iou_threshold (false for empty boxes).
    auto overlaps = [&](OpBuilder &nb, Location nloc, ArrayRef<Value> a,
                        ArrayRef<Value> c) {
      auto sub = [&](Value p, Value q) {
        return (Value)arith::SubFOp::create(nb, nloc, p, q);
      };
      auto mul = [&](Value p, Value q) {
        return (Value)arith::MulFOp::create(nb, nloc, p, q);
      };
      Value fz = createScalarConstant(nb, nloc, f32, 0);
      Value ix = sub(arith::MinimumFOp::create(nb, nloc, a[2], c[2]),
                     arith::MaximumFOp::create(nb, nloc, a[0], c[0]));
      Value iy = sub(arith::MinimumFOp::create(nb, nloc, a[3], c[3]),
                     arith::MaximumFOp::create(nb, nloc, a[1], c[1]));
      Value inter = mul(ix, iy);
      Value areaA = mul(sub(a[2], a[0]), sub(a[3], a[1]));
      Value areaC = mul(sub(c[2], c[0]), sub(c[3], c[1]));
      Value uni = sub(arith::AddFOp::create(nb, nloc, areaA, areaC), inter);
      Value iou = arith::DivFOp::create(nb, nloc, inter, uni);
      auto gt = [&](Value p, Value q) {
        return (Value)arith::CmpFOp::create(nb, nloc, FPred::OGT, p, q);
      };
      Value ok = andI(nb, nloc, gt(ix, fz), gt(iy, fz));
      ok = andI(nb, nloc, ok, gt(inter, fz));
      ok = andI(nb, nloc, ok, andI(nb, nloc, gt(areaA, fz), gt(areaC, fz)));
      ok = andI(nb, nloc, ok, gt(uni, fz));
      return andI(nb, nloc, ok, gt(iou, iouThreshold));
    };

    Value count0 = zero;
    auto batchLoop = scf::ForOp::create(
        b, loc, zero, numBatches, one, ValueRange{buffer, count0},
        [&](OpBuilder &b1, Location l1, Value n, ValueRange a1) {
          auto classLoop = scf::ForOp::create(
              b1, l1, zero, numClasses, one, a1,
              [&](OpBuilder &b2, Location l2, Value c, ValueRange a2) {
                Value classStart = a2[1];
                Value falseV = arith::ConstantIntOp::create(b2, l2, 0, 1);
                Value flags = linalg::FillOp::create(b2, l2, ValueRange{falseV},
                                                     ValueRange{flags0})
                                  .getResult(0);
                Value active = cmpI(b2, l2, Pred::sgt, maxOut, zero);
                auto pickLoop = scf::ForOp::create(
                    b2, l2, zero, numBoxes, one,
                    ValueRange{a2[0], a2[1], flags, active},
                    [&](OpBuilder &b3, Location l3, Value, ValueRange a3) {
                      auto step = scf::IfOp::create(
                          b3, l3, a3[3],
                          [&](OpBuilder &b4, Location l4) {
                            SmallVector<Value> next =
                                pick(b4, l4, n, c, classStart, a3, maxOut,
                                     scoreThreshold, numBoxes, scores, corners,
                                     overlaps);
                            scf::YieldOp::create(b4, l4, next);
                          },
                          [&](OpBuilder &b4, Location l4) {
                            scf::YieldOp::create(b4, l4, a3);
                          });
                      scf::YieldOp::create(b3, l3, step.getResults());
                    });
                scf::YieldOp::create(b2, l2,
                                     pickLoop.getResults().take_front(2));
              });
          scf::YieldOp::create(b1, l1, classLoop.getResults());
        });
    Value all = batchLoop.getResult(0);
    Value count = batchLoop.getResult(1);
    if (!type.isDynamicDim(0))
      check(b, loc,
            cmpI(b, loc, Pred::eq, count, idx(b, loc, type.getDimSize(0))), op,
            "the number of selected boxes is not the inferred " +
                Twine(type.getDimSize(0)));
    auto sliceType = RankedTensorType::get({ShapedType::kDynamic, 3}, i64);
    // A buffer of statically no rows (no boxes, classes or batches, or a
    // maximum of 0) gives an empty result: extract_slice rejects any offset
    // into a dim of size 0.
    if (cast<RankedTensorType>(all.getType()).getDimSize(0) == 0) {
      Value empty =
          tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{0, 3}, i64);
      rewriter.replaceOp(op, castTo(b, loc, empty, type));
      return success();
    }
    Value result = tensor::ExtractSliceOp::create(
        b, loc, sliceType, all,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{count, b.getIndexAttr(3)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    (void)indexType;
    rewriter.replaceOp(op, castTo(b, loc, result, type));
    return success();
  }

  /// One step of the greedy selection for batch n, class c: the loop state
  /// (buffer, count, taken flags, active) after taking the best remaining
  /// box.
  template <typename CornersFn, typename OverlapFn>
  static SmallVector<Value>
  pick(OpBuilder &b, Location loc, Value n, Value c, Value classStart,
       ValueRange state, Value maxOut, Value scoreThreshold, Value numBoxes,
       Value scores, CornersFn &corners, OverlapFn &overlaps) {
    Value buffer = state[0], count = state[1], flags = state[2];
    Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
    Type f32 = cast<RankedTensorType>(scores.getType()).getElementType();
    // The best remaining box (numBoxes when none is left).
    auto search = scf::ForOp::create(
        b, loc, zero, numBoxes, one,
        ValueRange{numBoxes, createScalarConstant(b, loc, f32, 0)},
        [&](OpBuilder &nb, Location nloc, Value i, ValueRange a) {
          Value s =
              tensor::ExtractOp::create(nb, nloc, scores, ValueRange{n, c, i});
          Value taken = tensor::ExtractOp::create(nb, nloc, flags, i);
          Value ok = arith::XOrIOp::create(
              nb, nloc, taken, arith::ConstantIntOp::create(nb, nloc, 1, 1));
          if (scoreThreshold)
            ok = andI(
                nb, nloc, ok,
                arith::CmpFOp::create(nb, nloc, FPred::OGT, s, scoreThreshold));
          Value none = cmpI(nb, nloc, Pred::eq, a[0], numBoxes);
          Value better =
              orI(nb, nloc, none,
                  arith::CmpFOp::create(nb, nloc, FPred::OGT, s, a[1]));
          ok = andI(nb, nloc, ok, better);
          scf::YieldOp::create(nb, nloc,
                               ValueRange{select(nb, nloc, ok, i, a[0]),
                                          select(nb, nloc, ok, s, a[1])});
        });
    Value best = search.getResult(0);
    Value found = cmpI(b, loc, Pred::slt, best, numBoxes);
    auto step = scf::IfOp::create(
        b, loc, found,
        [&](OpBuilder &nb, Location nloc) {
          Value t = arith::ConstantIntOp::create(nb, nloc, 1, 1);
          Value newFlags = tensor::InsertOp::create(nb, nloc, t, flags, best);
          SmallVector<Value> box = corners(nb, nloc, n, best);
          // Suppressed by a box kept before for this class?
          auto scan = scf::ForOp::create(
              nb, nloc, classStart, count, one,
              ValueRange{arith::ConstantIntOp::create(nb, nloc, 0, 1)},
              [&](OpBuilder &sb, Location sloc, Value j, ValueRange a) {
                Value k = castToIndex(
                    sb, sloc,
                    tensor::ExtractOp::create(sb, sloc, buffer,
                                              ValueRange{j, idx(sb, sloc, 2)}));
                Value hit = overlaps(sb, sloc, box, corners(sb, sloc, n, k));
                scf::YieldOp::create(sb, sloc,
                                     ValueRange{orI(sb, sloc, a[0], hit)});
              });
          Value keep = arith::XOrIOp::create(
              nb, nloc, scan.getResult(0),
              arith::ConstantIntOp::create(nb, nloc, 1, 1));
          auto add = scf::IfOp::create(
              nb, nloc, keep,
              [&](OpBuilder &ab, Location aloc) {
                Value out = buffer;
                Value row[3] = {n, c, best};
                for (int64_t k = 0; k < 3; ++k)
                  out = tensor::InsertOp::create(
                      ab, aloc,
                      arith::IndexCastOp::create(ab, aloc, ab.getI64Type(),
                                                 row[k]),
                      out, ValueRange{count, idx(ab, aloc, k)});
                scf::YieldOp::create(
                    ab, aloc,
                    ValueRange{out, addI(ab, aloc, count, idx(ab, aloc, 1))});
              },
              [&](OpBuilder &ab, Location aloc) {
                scf::YieldOp::create(ab, aloc, ValueRange{buffer, count});
              });
          Value newCount = add.getResult(1);
          Value active = cmpI(nb, nloc, Pred::slt,
                              subI(nb, nloc, newCount, classStart), maxOut);
          Value newBuffer = add.getResult(0);
          scf::YieldOp::create(
              nb, nloc, ValueRange{newBuffer, newCount, newFlags, active});
        },
        [&](OpBuilder &nb, Location nloc) {
          scf::YieldOp::create(
              nb, nloc,
              ValueRange{buffer, count, flags,
                         arith::ConstantIntOp::create(nb, nloc, 0, 1)});
        });
    return SmallVector<Value>(step.getResults());
  }
};

} // namespace

void mlir::onnx::populateDetectionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<NonMaxSuppressionLowering>(converter, patterns.getContext());
}
