//===- Scatter.cpp - Indexed writes: Scatter*, TensorScatter, MaxUnpool ---===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ScatterElements, ScatterND: the result starts as the data; loops over the
// updates (scf.for carrying the tensor) write or combine (reduction
// add/mul/max/min) each update at its index, in order, so that with
// reduction "none" the last of duplicate indices wins. Negative indices
// wrap; an index outside [-s, s-1] stops the model with an error (and the
// write is clamped into the tensor).
//
// TensorScatter (a KV cache update) is a gather over the result: one
// linalg.generic whose element at sequence position s of batch b is
// update[..., s - write_indices[b], ...] where that is inside the update
// (modulo the cache length in circular mode), else past_cache's. Linear
// mode checks at run time that every write fits in the cache.
//
// MaxUnpool scatters X into zeros of the unpooled shape ((in - 1) * stride
// + kernel - pads): an scf.for over the flattened X writes each element at
// its flat index from I (checked to be inside; the last of duplicate
// indices wins), then the flat result is reshaped. With output_shape (at
// least the unpooled shape in every dim), the unpooled tensor is inserted
// at the beginning of zeros of that shape, as the reference implementation
// does.
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

/// Combines the old value with an update by `reduction`.
Value combine(OpBuilder &b, Location loc, StringRef reduction, Value old,
              Value update, bool isUnsigned) {
  Type t = old.getType();
  bool isFloat = isa<FloatType>(t);
  bool isBool = t.isInteger(1);
  if (reduction == "add") {
    if (isFloat)
      return arith::AddFOp::create(b, loc, old, update);
    if (isBool)
      return arith::OrIOp::create(b, loc, old, update);
    return arith::AddIOp::create(b, loc, old, update);
  }
  if (reduction == "mul") {
    if (isFloat)
      return arith::MulFOp::create(b, loc, old, update);
    if (isBool)
      return arith::AndIOp::create(b, loc, old, update);
    return arith::MulIOp::create(b, loc, old, update);
  }
  if (reduction == "max") {
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, old, update);
    if (isUnsigned || isBool)
      return arith::MaxUIOp::create(b, loc, old, update);
    return arith::MaxSIOp::create(b, loc, old, update);
  }
  if (reduction == "min") {
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, old, update);
    if (isUnsigned || isBool)
      return arith::MinUIOp::create(b, loc, old, update);
    return arith::MinSIOp::create(b, loc, old, update);
  }
  return update;
}

/// `dest` with the update `u` written at `at`, combined by `reduction` with
/// the element there (unless "none").
Value writeUpdate(OpBuilder &b, Location loc, StringRef reduction, Value u,
                  Value dest, ValueRange at, bool isUnsigned) {
  if (reduction != "none")
    u = combine(b, loc, reduction, tensor::ExtractOp::create(b, loc, dest, at),
                u, isUnsigned);
  return tensor::InsertOp::create(b, loc, u, dest, at);
}

/// The dims of a scatter's data, indices and updates.
struct ScatterDims {
  SmallVector<Value> data, indices, updates;
};

/// The dims of `data`, `indices` and `updates`, with a run-time check that
/// the first `n` dims of indices and updates agree.
ScatterDims readScatterDims(OpBuilder &b, Location loc, Value data,
                            Value indices, Value updates, int64_t n,
                            Operation *node) {
  ScatterDims dims{dimValues(b, loc, data), dimValues(b, loc, indices),
                   dimValues(b, loc, updates)};
  for (int64_t d = 0; d < n; ++d)
    check(b, loc, cmpI(b, loc, Pred::eq, dims.indices[d], dims.updates[d]),
          node, "indices and updates differ in dim " + Twine(d));
  return dims;
}

LogicalResult checkReduction(Operation *op, StringRef reduction, Type type) {
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return emitLoweringError(op, "unknown reduction '" + reduction + "'");
  if (reduction != "none" && !isa<FloatType, IntegerType>(type))
    return emitLoweringError(op, "reduction '" + reduction +
                                     "' on this element type");
  return success();
}

struct ScatterElementsLowering : ONNXToLinalgPattern<ScatterElementsOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !dataType || !indicesType ||
        !isa<RankedTensorType>(updates.getType()) ||
        indicesType.getRank() != dataType.getRank())
      return emitLoweringError(op, "expected ranked tensors of one rank");
    StringRef reduction = op.getReduction();
    if (failed(checkReduction(op, reduction, type.getElementType())))
      return failure();
    int64_t r = dataType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (failed(resolveAxis(op, axis, r)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    bool isUnsigned = isUnsignedElement(op.getData().getType());
    ScatterDims dims = readScatterDims(b, loc, data, indices, updates, r, op);
    Value start = castTo(b, loc, data, type);
    Value result = buildLoopNest(
        b, loc, dims.indices, {start},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value i = tensor::ExtractOp::create(nb, nloc, indices, ivs);
          SmallVector<Value> at = elementsIndexPosition(
              nb, nloc, i, ivs, axis, indicesType, dataType, dims.data, op);
          Value u = tensor::ExtractOp::create(nb, nloc, updates, ivs);
          return SmallVector<Value>{
              writeUpdate(nb, nloc, reduction, u, args[0], at, isUnsigned)};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNDLowering : ONNXToLinalgPattern<ScatterNDOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    auto updatesType = dyn_cast<RankedTensorType>(updates.getType());
    if (!type || !dataType || !indicesType || !updatesType ||
        indicesType.getRank() < 1)
      return emitLoweringError(op, "expected ranked tensors");
    StringRef reduction = op.getReduction();
    if (failed(checkReduction(op, reduction, type.getElementType())))
      return failure();
    int64_t r = dataType.getRank(), q = indicesType.getRank();
    int64_t k = indicesType.getDimSize(q - 1);
    if (ShapedType::isDynamic(k))
      return emitLoweringError(op, "the last dim of indices must be static");
    if (k > r || updatesType.getRank() != q - 1 + r - k)
      return emitLoweringError(op, "indices and updates do not fit data");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    bool isUnsigned = isUnsignedElement(op.getData().getType());
    ScatterDims dims =
        readScatterDims(b, loc, data, indices, updates, q - 1, op);
    for (int64_t d = k; d < r; ++d)
      check(b, loc,
            cmpI(b, loc, Pred::eq, dims.data[d], dims.updates[q - 1 + d - k]),
            op, "data and updates differ in dim " + Twine(d));
    Value start = castTo(b, loc, data, type);
    ArrayRef<Value> outer = ArrayRef(dims.indices).drop_back();
    ArrayRef<Value> inner = ArrayRef(dims.data).drop_front(k);
    Value result = buildLoopNest(
        b, loc, outer, {start},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          // The index of the slice to write.
          SmallVector<Value> prefix =
              readIndexTuple(nb, nloc, indices, ivs, k, dims.data, op);
          return buildLoopNest(
              nb, nloc, inner, {args[0]},
              [&](OpBuilder &ib, Location iloc, ValueRange jvs,
                  ValueRange iargs) {
                SmallVector<Value> at(prefix);
                at.append(jvs.begin(), jvs.end());
                SmallVector<Value> from(ivs);
                from.append(jvs.begin(), jvs.end());
                Value u = tensor::ExtractOp::create(ib, iloc, updates, from);
                return SmallVector<Value>{writeUpdate(
                    ib, iloc, reduction, u, iargs[0], at, isUnsigned)};
              });
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TensorScatterLowering : ONNXToLinalgPattern<TensorScatterOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(TensorScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value past = adaptor.getPastCache(), update = adaptor.getUpdate(),
          writes = adaptor.getWriteIndices();
    auto pastType = dyn_cast<RankedTensorType>(past.getType());
    auto updateType = dyn_cast<RankedTensorType>(update.getType());
    if (!type || !pastType || !updateType ||
        updateType.getRank() != pastType.getRank())
      return emitLoweringError(
          op, "past_cache and update must be ranked tensors of one rank");
    int64_t r = pastType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += r;
    if (axis < 1 || axis >= r)
      return emitLoweringError(op, "axis must name a dim of past_cache "
                                   "other than the batch dim 0");
    StringRef mode = op.getMode();
    if (mode != "linear" && mode != "circular")
      return emitLoweringError(op, "unknown mode '" + mode + "'");
    bool circular = mode == "circular";
    if (writes) {
      auto writesType = dyn_cast<RankedTensorType>(writes.getType());
      if (!writesType || writesType.getRank() != 1)
        return emitLoweringError(op, "write_indices must be a 1-D tensor");
    }
    for (int64_t d = 0; d < r; ++d) {
      int64_t p = pastType.getDimSize(d), u = updateType.getDimSize(d);
      if (ShapedType::isDynamic(p) || ShapedType::isDynamic(u))
        continue;
      if (d != axis && p != u)
        return emitLoweringError(op, "update and past_cache differ in dim " +
                                         Twine(d));
      if (d == axis && u > p)
        return emitLoweringError(op, "update is longer than past_cache "
                                     "along axis");
    }
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<Value> pastDims = dimValues(b, loc, past);
    SmallVector<Value> updateDims = dimValues(b, loc, update);
    for (int64_t d = 0; d < r; ++d)
      if (d != axis)
        check(b, loc, cmpI(b, loc, Pred::eq, updateDims[d], pastDims[d]), op,
              "update and past_cache differ in dim " + Twine(d));
    Value maxLength = pastDims[axis], length = updateDims[axis];
    check(b, loc, cmpI(b, loc, Pred::sle, length, maxLength), op,
          "update is longer than past_cache along axis");
    Value zero = idx(b, loc, 0);
    if (writes) {
      check(b, loc,
            cmpI(b, loc, Pred::eq, dimValues(b, loc, writes)[0], pastDims[0]),
            op, "write_indices needs one value per batch element");
      if (!circular)
        buildLoopNest(
            b, loc, {pastDims[0]}, {},
            [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
              Value w = castToIndex(
                  nb, nloc, tensor::ExtractOp::create(nb, nloc, writes, ivs));
              Value fits = andI(nb, nloc, cmpI(nb, nloc, Pred::sge, w, zero),
                                cmpI(nb, nloc, Pred::sle,
                                     addI(nb, nloc, w, length), maxLength));
              check(nb, nloc, fits, op,
                    "write index out of range (linear mode needs 0 <= "
                    "write_indices[b] <= max_sequence_length - "
                    "sequence_length)");
              return SmallVector<Value>{};
            });
    }
    SmallVector<OpFoldResult> dims =
        preferStatic(b, loc, op, type, getDims(b, loc, past));
    Value result = buildIndexGeneric(
        b, loc, type, dims, {past}, {b.getMultiDimIdentityMap(r)},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs,
            ValueRange args) -> Value {
          Value w = zero;
          if (writes)
            w = castToIndex(nb, nloc,
                            tensor::ExtractOp::create(nb, nloc, writes,
                                                      ValueRange{ivs[0]}));
          // The position in the update that writes this element, if any.
          Value j = arith::SubIOp::create(nb, nloc, ivs[axis], w);
          Value written;
          if (circular) {
            j = arith::RemSIOp::create(nb, nloc, j, maxLength);
            j = select(nb, nloc, cmpI(nb, nloc, Pred::slt, j, zero),
                       arith::AddIOp::create(nb, nloc, j, maxLength), j);
            written = cmpI(nb, nloc, Pred::slt, j, length);
          } else {
            written = andI(nb, nloc, cmpI(nb, nloc, Pred::sge, j, zero),
                           cmpI(nb, nloc, Pred::slt, j, length));
          }
          auto ifOp = scf::IfOp::create(
              nb, nloc, written,
              [&](OpBuilder &tb, Location tloc) {
                SmallVector<Value> at(ivs);
                at[axis] = j;
                scf::YieldOp::create(tb, tloc,
                                     ValueRange{tensor::ExtractOp::create(
                                         tb, tloc, update, at)});
              },
              [&](OpBuilder &eb, Location eloc) {
                scf::YieldOp::create(eb, eloc, ValueRange{args[0]});
              });
          return ifOp.getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MaxUnpoolLowering : ONNXToLinalgPattern<MaxUnpoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(MaxUnpoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX(), indices = adaptor.getI(),
          shape = adaptor.getOutputShape();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !xType || !indicesType ||
        indicesType.getRank() != xType.getRank())
      return emitLoweringError(op, "X and I must be ranked tensors of one "
                                   "rank");
    int64_t r = xType.getRank();
    if (r < 3)
      return emitLoweringError(op, "X needs a batch, a channel and at least "
                                   "one spatial dim");
    if (type.getRank() != r)
      return emitLoweringError(op, "the result must have the rank of X");
    int64_t n = r - 2;
    std::optional<ArrayRef<int64_t>> kernel = op.getKernelShape();
    if (!kernel || static_cast<int64_t>(kernel->size()) != n ||
        llvm::any_of(*kernel, [](int64_t k) { return k < 1; }))
      return emitLoweringError(op, "kernel_shape must have one positive "
                                   "value per spatial dim");
    SmallVector<int64_t> strides(n, 1), pads(2 * n, 0);
    if (std::optional<ArrayRef<int64_t>> s = op.getStrides()) {
      if (static_cast<int64_t>(s->size()) != n ||
          llvm::any_of(*s, [](int64_t v) { return v < 1; }))
        return emitLoweringError(op, "strides must have one positive value "
                                     "per spatial dim");
      strides.assign(s->begin(), s->end());
    }
    if (std::optional<ArrayRef<int64_t>> p = op.getPads()) {
      if (static_cast<int64_t>(p->size()) != 2 * n ||
          llvm::any_of(*p, [](int64_t v) { return v < 0; }))
        return emitLoweringError(op, "pads must have two non-negative "
                                     "values per spatial dim");
      pads.assign(p->begin(), p->end());
    }
    for (int64_t d = 0; d < r; ++d)
      if (!xType.isDynamicDim(d) && !indicesType.isDynamicDim(d) &&
          xType.getDimSize(d) != indicesType.getDimSize(d))
        return emitLoweringError(op, "X and I differ in dim " + Twine(d));
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<OpFoldResult> xDims = getDims(b, loc, x);
    SmallVector<Value> indicesDims = dimValues(b, loc, indices);
    for (int64_t d = 0; d < r; ++d)
      check(b, loc,
            cmpI(b, loc, Pred::eq, indicesDims[d], toValue(b, loc, xDims[d])),
            op, "X and I differ in dim " + Twine(d));

    // The unpooled dims: (in - 1) * stride + kernel - pads.
    SmallVector<OpFoldResult> poolDims = {xDims[0], xDims[1]};
    for (int64_t i = 0; i < n; ++i) {
      Value in = toValue(b, loc, xDims[2 + i]);
      Value out = addI(b, loc,
                       mulI(b, loc, subI(b, loc, in, idx(b, loc, 1)),
                            idx(b, loc, strides[i])),
                       idx(b, loc, (*kernel)[i] - pads[i] - pads[n + i]));
      std::optional<int64_t> s = staticValue(out);
      if (s && *s < 0)
        return emitLoweringError(op, "the unpooled size of dim " +
                                         Twine(2 + i) + " is negative");
      if (!s)
        check(b, loc, cmpI(b, loc, Pred::sge, out, idx(b, loc, 0)), op,
              "the unpooled size of dim " + Twine(2 + i) + " is negative");
      poolDims.push_back(s ? OpFoldResult(b.getIndexAttr(*s))
                           : OpFoldResult(out));
    }
    // The output dims: output_shape's, at least the unpooled ones (which
    // take the beginning of each dim, as in the reference implementation).
    SmallVector<OpFoldResult> outDims = poolDims;
    if (shape) {
      std::optional<SmallVector<OpFoldResult>> values =
          getIndexValues(b, loc, shape);
      if (!values || static_cast<int64_t>(values->size()) != r)
        return emitLoweringError(op, "output_shape must be a 1-D tensor of "
                                     "static length rank(X)");
      outDims = *values;
      for (int64_t d = 0; d < r; ++d) {
        std::optional<int64_t> o = staticValue(outDims[d]);
        std::optional<int64_t> p = staticValue(poolDims[d]);
        if (o && p && *o < *p)
          return emitLoweringError(op, "output_shape is smaller than the "
                                       "unpooled shape in dim " +
                                           Twine(d));
        if (!o || !p)
          check(b, loc,
                cmpI(b, loc, Pred::sge, toValue(b, loc, outDims[d]),
                     toValue(b, loc, poolDims[d])),
                op,
                "output_shape is smaller than the unpooled shape in dim " +
                    Twine(d));
      }
    }
    for (int64_t d = 0; d < r; ++d) {
      if (type.isDynamicDim(d))
        continue;
      std::optional<int64_t> s = staticValue(outDims[d]);
      if (s && *s != type.getDimSize(d))
        return emitLoweringError(op, "the output shape does not match the "
                                     "result type in dim " +
                                         Twine(d));
      if (!s)
        check(b, loc,
              cmpI(b, loc, Pred::eq, toValue(b, loc, outDims[d]),
                   idx(b, loc, type.getDimSize(d))),
              op, "the output shape does not match the result type");
      outDims[d] = b.getIndexAttr(type.getDimSize(d));
    }

    // Zeros of the unpooled size, X written at I's flat indices.
    Type elementType = type.getElementType();
    Value zeroValue = zeroOf(b, loc, elementType);
    if (!zeroValue)
      return emitLoweringError(op, "only float element types are lowered");
    OpFoldResult total = product(b, loc, poolDims);
    Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{total},
                                          elementType);
    Value zeros = linalg::FillOp::create(b, loc, zeroValue, empty).getResult(0);
    OpFoldResult count = product(b, loc, xDims);
    std::optional<int64_t> staticCount = staticValue(count);
    int64_t flatSize = staticCount ? *staticCount : ShapedType::kDynamic;
    Value flatX = reshapeTo(
        b, loc, x, RankedTensorType::get({flatSize}, elementType), {count});
    Value flatI = reshapeTo(
        b, loc, indices,
        RankedTensorType::get({flatSize}, indicesType.getElementType()),
        {count});
    Value totalValue = toValue(b, loc, total);
    Value written = buildLoopNest(
        b, loc, {toValue(b, loc, count)}, {zeros},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value i = castToIndex(
              nb, nloc, tensor::ExtractOp::create(nb, nloc, flatI, ivs));
          Value at = checkedIndex(nb, nloc, i, totalValue, /*wrap=*/false, op,
                                  "index out of range");
          Value v = tensor::ExtractOp::create(nb, nloc, flatX, ivs);
          return SmallVector<Value>{
              tensor::InsertOp::create(nb, nloc, v, args[0], at)};
        })[0];
    if (!shape) {
      rewriter.replaceOp(op, reshapeTo(b, loc, written, type, outDims));
      return success();
    }
    SmallVector<int64_t> poolShape;
    for (OpFoldResult d : poolDims)
      poolShape.push_back(staticValue(d).value_or(ShapedType::kDynamic));
    Value unpooled =
        reshapeTo(b, loc, written,
                  RankedTensorType::get(poolShape, elementType), poolDims);
    Value outEmpty = tensor::EmptyOp::create(b, loc, outDims, elementType);
    Value result =
        linalg::FillOp::create(b, loc, zeroValue, outEmpty).getResult(0);
    result = tensor::InsertSliceOp::create(
        b, loc, unpooled, result,
        SmallVector<OpFoldResult>(r, b.getIndexAttr(0)), poolDims,
        SmallVector<OpFoldResult>(r, b.getIndexAttr(1)));
    rewriter.replaceOp(op, castTo(b, loc, result, type));
    return success();
  }
};

} // namespace

void mlir::onnx::populateScatterToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ScatterElementsLowering, ScatterNDLowering,
               TensorScatterLowering, MaxUnpoolLowering>(converter,
                                                         patterns.getContext());
}
