//===- Conv.cpp - Conv and ConvTranspose to linalg ------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Conv pads its input (tensor.pad with zeros, for explicit pads or
// auto_pad), starts from the bias broadcast over the output (or zeros) and
// accumulates one linalg convolution: conv_{1,2,3}d_nc..._fc... for one
// group, depthwise_conv_{1,2,3}d_nc..._c... for one channel per group,
// conv_2d_ngchw_gfchw for other groups of 2-D images, and a linalg.generic
// over grouped views ([N, G, C/G, ...]) for other ranks.
//
// ConvTranspose is the same convolution of a rewritten problem: the input
// spread out by the strides (inserted with strides into a zero tensor
// whose borders are the padding, kernel extent - 1 - pads), and the kernel
// flipped with its channel dims swapped per group. Pads larger than the
// kernel extent crop the result instead.
//
// f16 / bf16 accumulate in f32.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// Splits dim `dim` of `t` into (`group`, size / `group`).
Value splitGroups(OpBuilder &b, Location loc, Value t, int64_t dim,
                  int64_t group) {
  IndexMath m{b, loc};
  SmallVector<OpFoldResult> dims = getDims(b, loc, t);
  SmallVector<OpFoldResult> shape;
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0, e = dims.size(); i < e; ++i) {
    if (i == dim) {
      groups.push_back({static_cast<int64_t>(shape.size()),
                        static_cast<int64_t>(shape.size()) + 1});
      shape.push_back(m.cst(group));
      shape.push_back(m.floorDiv(dims[i], m.cst(group)));
      continue;
    }
    groups.push_back({static_cast<int64_t>(shape.size())});
    shape.push_back(dims[i]);
  }
  auto type =
      typeOfDims(shape, cast<RankedTensorType>(t.getType()).getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, t, groups, shape);
}

/// Merges dims `dim` and `dim + 1` of `t`.
Value mergeGroups(OpBuilder &b, Location loc, Value t, int64_t dim) {
  int64_t rank = cast<RankedTensorType>(t.getType()).getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == dim) {
      groups.push_back({i, i + 1});
      ++i;
      continue;
    }
    groups.push_back({i});
  }
  return tensor::CollapseShapeOp::create(b, loc, t, groups);
}

/// The convolution of `x` [N, C, S...] (already padded) with `w`
/// [M, C/group, K...] accumulated into `init` [N, M, O...].
Value buildConvolution(OpBuilder &b, Location loc, Value x, Value w, Value init,
                       int64_t group, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations) {
  int64_t r = strides.size();
  Type initType = init.getType();
  auto attr = [&](ArrayRef<int64_t> v) -> Attribute {
    return DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type()),
        v);
  };
  if (group == 1 && r == 1)
    return linalg::Conv1DNcwFcwOp::create(b, loc, TypeRange{initType},
                                          ValueRange{x, w}, ValueRange{init},
                                          attr(strides), attr(dilations))
        .getResult(0);
  if (group == 1 && r == 2)
    return linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{initType},
                                            ValueRange{x, w}, ValueRange{init},
                                            attr(strides), attr(dilations))
        .getResult(0);
  if (group == 1 && r == 3)
    return linalg::Conv3DNcdhwFcdhwOp::create(
               b, loc, TypeRange{initType}, ValueRange{x, w}, ValueRange{init},
               attr(strides), attr(dilations))
        .getResult(0);

  // Depthwise (one input and one output channel per group): the filter
  // loses its dim of 1.
  auto wType = cast<RankedTensorType>(w.getType());
  if (wType.getDimSize(0) == group && wType.getDimSize(1) == 1) {
    SmallVector<ReassociationIndices> groups = {{0, 1}};
    for (int64_t i = 0; i < r; ++i)
      groups.push_back({2 + i});
    Value filter = tensor::CollapseShapeOp::create(b, loc, w, groups);
    if (r == 1)
      return linalg::DepthwiseConv1DNcwCwOp::create(
                 b, loc, TypeRange{initType}, ValueRange{x, filter},
                 ValueRange{init}, attr(strides), attr(dilations))
          .getResult(0);
    if (r == 2)
      return linalg::DepthwiseConv2DNchwChwOp::create(
                 b, loc, TypeRange{initType}, ValueRange{x, filter},
                 ValueRange{init}, attr(strides), attr(dilations))
          .getResult(0);
    if (r == 3)
      return linalg::DepthwiseConv3DNcdhwCdhwOp::create(
                 b, loc, TypeRange{initType}, ValueRange{x, filter},
                 ValueRange{init}, attr(strides), attr(dilations))
          .getResult(0);
  }

  // Grouped views: x [N, G, C/G, S...], w [G, M/G, C/G, K...],
  // out [N, G, M/G, O...].
  Value xg = splitGroups(b, loc, x, 1, group);
  Value wg = splitGroups(b, loc, w, 0, group);
  Value og = splitGroups(b, loc, init, 1, group);
  Value result;
  if (r == 2) {
    result = linalg::Conv2DNgchwGfchwOp::create(
                 b, loc, TypeRange{og.getType()}, ValueRange{xg, wg},
                 ValueRange{og}, attr(strides), attr(dilations))
                 .getResult(0);
  } else {
    // Loops (n, g, f, o..., c, k...).
    MLIRContext *ctx = b.getContext();
    int64_t numLoops = 4 + 2 * r;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> xExprs = {d(0), d(1), d(3 + r)};
    SmallVector<AffineExpr> wExprs = {d(1), d(2), d(3 + r)};
    SmallVector<AffineExpr> oExprs = {d(0), d(1), d(2)};
    for (int64_t i = 0; i < r; ++i) {
      xExprs.push_back(d(3 + i) * strides[i] + d(4 + r + i) * dilations[i]);
      wExprs.push_back(d(4 + r + i));
      oExprs.push_back(d(3 + i));
    }
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, xExprs, ctx),
                                   AffineMap::get(numLoops, 0, wExprs, ctx),
                                   AffineMap::get(numLoops, 0, oExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = 3 + r; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    result = linalg::GenericOp::create(
                 b, loc, TypeRange{og.getType()}, ValueRange{xg, wg},
                 ValueRange{og}, maps, iterators,
                 [&](OpBuilder &nb, Location nloc, ValueRange args) {
                   Type acc = args[2].getType();
                   Value xv = convertFloat(nb, nloc, args[0], acc);
                   Value wv = convertFloat(nb, nloc, args[1], acc);
                   Value p = arith::MulFOp::create(nb, nloc, xv, wv);
                   linalg::YieldOp::create(
                       nb, nloc,
                       arith::AddFOp::create(nb, nloc, args[2], p).getResult());
                 })
                 .getResult(0);
  }
  return mergeGroups(b, loc, result, 1);
}

/// Run-time checks of what the types leave open: W's spatial dims against
/// `kernel` (kernel_shape) and B's length against the `m` output channels.
void checkKernelAndBias(OpBuilder &b, Location loc, Operation *op,
                        ArrayRef<OpFoldResult> wDims, ArrayRef<int64_t> kernel,
                        Value bias, OpFoldResult m) {
  IndexMath im{b, loc};
  auto check = [&](OpFoldResult size, OpFoldResult expected,
                   const Twine &what) {
    std::optional<int64_t> cs = getConstantIntValue(size),
                           ce = getConstantIntValue(expected);
    if (cs && ce)
      return; // static: the verifier and checkOperands saw them
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     im.value(size), im.value(expected));
    emitRuntimeCheck(b, loc, ok, op, what);
  };
  for (auto [i, k] : llvm::enumerate(kernel))
    check(wDims[2 + i], im.cst(k),
          "W's spatial dim " + Twine(i) + " is not kernel_shape's " + Twine(k));
  if (bias)
    check(tensor::getMixedSize(b, loc, bias, 0), m,
          "B does not have one element per output channel");
}

/// The initial output [N, M, O...] of `acc`: the bias `bias` [M] broadcast,
/// or zeros.
Value buildOutputInit(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> dims,
                      Type acc, Value bias) {
  if (!bias)
    return createFilled(b, loc, dims, acc,
                        createScalarConstant(b, loc, acc, 0));
  int64_t rank = dims.size();
  Value empty = tensor::EmptyOp::create(b, loc, dims, acc);
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx),
      b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{empty.getType()}, ValueRange{bias},
             ValueRange{empty}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc,
                                       convertFloat(nb, nloc, args[0], acc));
             })
      .getResult(0);
}

/// Checks shared by Conv and ConvTranspose; fills the kernel shape (from the
/// attribute or W's static dims).
LogicalResult checkOperands(Operation *op, Value x, Value w, Value bias,
                            SmallVector<int64_t> &kernel) {
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  auto wType = dyn_cast<RankedTensorType>(w.getType());
  if (!xType || !wType)
    return emitLoweringError(op, "X and W must have known ranks");
  if (xType.getRank() < 3)
    return emitLoweringError(op, "X needs a batch, a channel and at least "
                                 "one spatial dim");
  if (wType.getRank() != xType.getRank())
    return emitLoweringError(op, "W and X have different ranks");
  if (bias && (!isa<RankedTensorType>(bias.getType()) ||
               cast<RankedTensorType>(bias.getType()).getRank() != 1))
    return emitLoweringError(op, "B must be 1-D");
  int64_t r = xType.getRank() - 2;
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape")) {
    if (attr.size() != r)
      return emitLoweringError(op, "kernel_shape has " + Twine(attr.size()) +
                                       " values, " + Twine(r) + " expected");
    kernel.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
    for (int64_t i = 0; i < r; ++i)
      if (!wType.isDynamicDim(2 + i) && wType.getDimSize(2 + i) != kernel[i])
        return emitLoweringError(op, "kernel_shape does not match W");
    return success();
  }
  for (int64_t i = 0; i < r; ++i) {
    if (wType.isDynamicDim(2 + i))
      return emitLoweringError(
          op, "a kernel of dynamic size (W's spatial dims must be static)");
    kernel.push_back(wType.getDimSize(2 + i));
  }
  return success();
}

/// The opening checks of Conv and ConvTranspose: checkOperands, then the
/// window attributes (read into `attrs`) and a positive `group`.
LogicalResult checkConvOperands(Operation *op, Value x, Value w, Value bias,
                                int64_t group, SmallVector<int64_t> &kernel,
                                WindowAttrs &attrs) {
  if (failed(checkOperands(op, x, w, bias, kernel)) ||
      failed(readWindowAttrs(op, kernel, attrs)))
    return failure();
  if (group <= 0)
    return emitLoweringError(op, "group must be positive");
  return success();
}

//===----------------------------------------------------------------------===//
// Conv
//===----------------------------------------------------------------------===//

struct ConvLowering : public ONNXToLinalgPattern<ConvOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX(), w = adaptor.getW(), bias = adaptor.getB();
    SmallVector<int64_t> kernel;
    WindowAttrs attrs;
    int64_t group = op.getGroup();
    if (failed(checkConvOperands(op, x, w, bias, group, kernel, attrs)))
      return failure();
    int64_t r = kernel.size();
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> xDims = getDims(rewriter, loc, x);
    SmallVector<OpFoldResult> wDims = getDims(rewriter, loc, w);

    // Channels: C = group * W.dim(1), M divisible by group.
    OpFoldResult channels = m.mul(wDims[1], m.cst(group));
    if (!getConstantIntValue(channels) || !getConstantIntValue(xDims[1])) {
      Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       m.value(channels), m.value(xDims[1]));
      emitRuntimeCheck(rewriter, loc, ok, op,
                       "X's channels are not group * W's dim 1");
    } else if (*getConstantIntValue(channels) !=
               *getConstantIntValue(xDims[1])) {
      return emitLoweringError(op, "X's channels are not group * W's dim 1");
    }
    if (std::optional<int64_t> mc = getConstantIntValue(wDims[0]))
      if (*mc % group != 0)
        return emitLoweringError(op, "W's dim 0 is not a multiple of group");

    SmallVector<OpFoldResult> begin, end;
    SmallVector<OpFoldResult> inDims(xDims.begin() + 2, xDims.end());
    computeSpatialPads(m, attrs, inDims, begin, end);
    SmallVector<OpFoldResult> low = {m.cst(0), m.cst(0)},
                              high = {m.cst(0), m.cst(0)};
    low.append(begin);
    high.append(end);
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    Value padded = padWith(rewriter, loc, x, low, high,
                           createScalarConstant(rewriter, loc, elem, 0));

    checkKernelAndBias(rewriter, loc, op, wDims, kernel, bias, wDims[0]);
    // The output dims are computed (a static result type is checked against
    // them when the result is cast to it).
    SmallVector<OpFoldResult> outDims = {xDims[0], wDims[0]};
    for (int64_t i = 0; i < r; ++i) {
      if (!window::isSame(attrs.autoPad))
        checkWindowFits(m, op, inDims[i], begin[i], end[i], kernel[i],
                        attrs.dilations[i], i);
      outDims.push_back(window::outputSize(
          m, attrs.autoPad, inDims[i], begin[i], end[i], kernel[i],
          attrs.strides[i], attrs.dilations[i], /*ceilMode=*/false));
    }
    Value init = buildOutputInit(rewriter, loc, outDims, acc, bias);
    Value y = buildConvolution(rewriter, loc, padded, w, init, group,
                               attrs.strides, attrs.dilations);
    if (acc != elem)
      y = convertTensorElements(rewriter, loc, y, elem);
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ConvTranspose
//===----------------------------------------------------------------------===//

struct ConvTransposeLowering : public ONNXToLinalgPattern<ConvTransposeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX(), w = adaptor.getW(), bias = adaptor.getB();
    SmallVector<int64_t> kernel;
    WindowAttrs attrs;
    int64_t group = op.getGroup();
    if (failed(checkConvOperands(op, x, w, bias, group, kernel, attrs)))
      return failure();
    int64_t r = kernel.size();
    SmallVector<int64_t> outputPadding(r, 0);
    if (auto a = op.getOutputPadding()) {
      if (static_cast<int64_t>(a->size()) != r)
        return emitLoweringError(op, "output_padding has " + Twine(a->size()) +
                                         " values, " + Twine(r) + " expected");
      outputPadding.assign(a->begin(), a->end());
    }
    std::optional<SmallVector<int64_t>> outputShape;
    if (auto a = op.getOutputShape()) {
      if (static_cast<int64_t>(a->size()) != r &&
          static_cast<int64_t>(a->size()) != r + 2)
        return emitLoweringError(op, "output_shape has " + Twine(a->size()) +
                                         " values, " + Twine(r) + " expected");
      outputShape.emplace(a->end() - r, a->end());
    }

    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> xDims = getDims(rewriter, loc, x);
    SmallVector<OpFoldResult> wDims = getDims(rewriter, loc, w);
    Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     m.value(xDims[1]), m.value(wDims[0]));
    if (!getConstantIntValue(xDims[1]) || !getConstantIntValue(wDims[0]))
      emitRuntimeCheck(rewriter, loc, ok, op, "X's channels are not W's dim 0");
    else if (*getConstantIntValue(xDims[1]) != *getConstantIntValue(wDims[0]))
      return emitLoweringError(op, "X's channels are not W's dim 0");
    if (std::optional<int64_t> c = getConstantIntValue(wDims[0]))
      if (*c % group != 0)
        return emitLoweringError(op, "W's dim 0 is not a multiple of group");

    // Padding of the spread input: low = extent - 1 - pad begin, high =
    // extent - 1 - pad end + output_padding (negative: crop the result).
    SmallVector<int64_t> lowPad(r), highPad(r);
    for (int64_t i = 0; i < r; ++i) {
      int64_t s = attrs.strides[i];
      int64_t effective =
          window::effectiveKernel(kernel[i], attrs.dilations[i]);
      int64_t padBegin, padEnd;
      bool same = window::isSame(attrs.autoPad);
      if (outputShape || same) {
        // total = s * (in - 1) + output_padding + extent - out, where
        // out = in * s for SAME: then total does not depend on in.
        int64_t total;
        if (outputShape) {
          std::optional<int64_t> in = getConstantIntValue(xDims[2 + i]);
          if (!in)
            return emitLoweringError(op, "output_shape with a dynamic "
                                         "spatial input dim");
          total =
              s * (*in - 1) + outputPadding[i] + effective - (*outputShape)[i];
        } else {
          total = outputPadding[i] + effective - s;
        }
        int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
        if (attrs.autoPad == window::AutoPad::SameUpper) {
          padBegin = half;
          padEnd = total - half;
        } else {
          padBegin = total - half;
          padEnd = half;
        }
      } else if (attrs.autoPad == window::AutoPad::Valid) {
        padBegin = padEnd = 0;
      } else {
        padBegin = attrs.pads[i];
        padEnd = attrs.pads[r + i];
      }
      lowPad[i] = effective - 1 - padBegin;
      highPad[i] = effective - 1 - padEnd + outputPadding[i];
    }

    // The spread and padded input.
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    SmallVector<OpFoldResult> spreadDims = {xDims[0], xDims[1]};
    SmallVector<OpFoldResult> offsets = {m.cst(0), m.cst(0)};
    SmallVector<OpFoldResult> sliceStrides = {m.cst(1), m.cst(1)};
    for (int64_t i = 0; i < r; ++i) {
      OpFoldResult spread =
          m.add(m.mul(m.sub(xDims[2 + i], m.cst(1)), m.cst(attrs.strides[i])),
                m.cst(1));
      spreadDims.push_back(
          m.add(spread, m.cst(std::max<int64_t>(lowPad[i], 0) +
                              std::max<int64_t>(highPad[i], 0))));
      offsets.push_back(m.cst(std::max<int64_t>(lowPad[i], 0)));
      sliceStrides.push_back(m.cst(attrs.strides[i]));
    }
    Value zeros = createFilled(rewriter, loc, spreadDims, elem,
                               createScalarConstant(rewriter, loc, elem, 0));
    Value spreadInput = tensor::InsertSliceOp::create(
        rewriter, loc, x, zeros, offsets, xDims, sliceStrides);

    // The kernel: V[g * M/G + f, c, k] = W[g * C/G + c, f, K - 1 - k].
    Value wg = splitGroups(rewriter, loc, w, 0, group); // [G, C/G, M/G, K...]
    SmallVector<OpFoldResult> wgDims = getDims(rewriter, loc, wg);
    SmallVector<OpFoldResult> vgDims = {wgDims[0], wgDims[2], wgDims[1]};
    vgDims.append(wgDims.begin() + 3, wgDims.end());
    Value vgInit = tensor::EmptyOp::create(rewriter, loc, vgDims, elem);
    int64_t numLoops = 3 + r;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> wExprs = {d(0), d(2), d(1)};
    for (int64_t i = 0; i < r; ++i)
      wExprs.push_back(getAffineConstantExpr(kernel[i] - 1, ctx) - d(3 + i));
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, wExprs, ctx),
                                   rewriter.getMultiDimIdentityMap(numLoops)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    Value vg = linalg::GenericOp::create(
                   rewriter, loc, TypeRange{vgInit.getType()}, ValueRange{wg},
                   ValueRange{vgInit}, maps, iterators,
                   [](OpBuilder &nb, Location nloc, ValueRange args) {
                     linalg::YieldOp::create(nb, nloc, args[0]);
                   })
                   .getResult(0);
    Value v = mergeGroups(rewriter, loc, vg, 0); // [M, C/G, K...]

    // The convolution, stride 1, then the crop.
    SmallVector<OpFoldResult> convDims = {xDims[0],
                                          m.mul(m.cst(group), wDims[1])};
    SmallVector<OpFoldResult> outDims = convDims;
    SmallVector<OpFoldResult> cropOffsets = {m.cst(0), m.cst(0)};
    bool crop = false;
    for (int64_t i = 0; i < r; ++i) {
      int64_t effective = (kernel[i] - 1) * attrs.dilations[i] + 1;
      convDims.push_back(
          m.add(m.sub(spreadDims[2 + i], m.cst(effective)), m.cst(1)));
      OpFoldResult spread =
          m.add(m.mul(m.sub(xDims[2 + i], m.cst(1)), m.cst(attrs.strides[i])),
                m.cst(1));
      outDims.push_back(
          m.add(spread, m.cst(lowPad[i] + highPad[i] - effective + 1)));
      cropOffsets.push_back(m.cst(std::max<int64_t>(-lowPad[i], 0)));
      if (lowPad[i] < 0 || highPad[i] < 0)
        crop = true;
    }
    checkKernelAndBias(rewriter, loc, op, wDims, kernel, bias, convDims[1]);
    Value init = buildOutputInit(rewriter, loc, convDims, acc, bias);
    SmallVector<int64_t> ones(r, 1);
    Value y = buildConvolution(rewriter, loc, spreadInput, v, init, group, ones,
                               attrs.dilations);
    if (crop) {
      SmallVector<OpFoldResult> unit(r + 2, m.cst(1));
      y = tensor::ExtractSliceOp::create(rewriter, loc, y, cropOffsets, outDims,
                                         unit);
    }
    if (acc != elem)
      y = convertTensorElements(rewriter, loc, y, elem);
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

} // namespace

void mlir::onnx::populateConvToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ConvLowering, ConvTransposeLowering>(converter,
                                                    patterns.getContext());
}
