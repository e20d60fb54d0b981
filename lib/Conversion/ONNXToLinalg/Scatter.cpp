//===- Scatter.cpp - Indexed writes: ScatterElements, ScatterND -----------===//
//
// The result starts as the data; loops over the updates (scf.for carrying
// the tensor) write or combine (reduction add/mul/max/min) each update at
// its index, in order, so that with reduction "none" the last of duplicate
// indices wins. Negative indices wrap; an index outside [-s, s-1] stops the
// model with an error (and the write is clamped into the tensor).
//
//===----------------------------------------------------------------------===//

#include "DataMovementUtils.h"
#include "OnnxDialect/IR/ONNXOps.h"

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::dm;

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

LogicalResult checkReduction(Operation *op, StringRef reduction, Type type) {
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return emitLoweringError(op, "unknown reduction '" + reduction + "'");
  if (reduction != "none" && !isa<FloatType, IntegerType>(type))
    return emitLoweringError(op, "reduction '" + reduction +
                                     "' on this element type");
  return success();
}

struct ScatterElementsLowering : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(*this, op);
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
    if (axis < 0)
      axis += r;
    if (axis < 0 || axis >= r)
      return emitLoweringError(op, "axis out of range");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    bool isUnsigned = isUnsignedElement(op.getData().getType());
    SmallVector<Value> dataDims = dimValues(b, loc, data);
    SmallVector<Value> indicesDims = dimValues(b, loc, indices);
    SmallVector<Value> updatesDims = dimValues(b, loc, updates);
    for (int64_t d = 0; d < r; ++d)
      check(b, loc, cmpI(b, loc, Pred::eq, indicesDims[d], updatesDims[d]), op,
            "indices and updates differ in dim " + Twine(d));
    Value start = castTo(b, loc, data, type);
    Value result = buildLoopNest(
        b, loc, indicesDims, {start},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value i = tensor::ExtractOp::create(nb, nloc, indices, ivs);
          SmallVector<Value> at;
          for (int64_t d = 0; d < r; ++d) {
            if (d == axis) {
              at.push_back(checkedIndex(nb, nloc, castToIndex(nb, nloc, i),
                                        dataDims[d], /*wrap=*/true, op,
                                        "index out of range"));
              continue;
            }
            int64_t di = indicesType.getDimSize(d), dd = dataType.getDimSize(d);
            if (!ShapedType::isDynamic(di) && !ShapedType::isDynamic(dd) &&
                di <= dd) {
              at.push_back(ivs[d]);
              continue;
            }
            at.push_back(checkedIndex(nb, nloc, ivs[d], dataDims[d], false, op,
                                      "indices are larger than data in dim " +
                                          Twine(d)));
          }
          Value u = tensor::ExtractOp::create(nb, nloc, updates, ivs);
          if (reduction != "none")
            u = combine(nb, nloc, reduction,
                        tensor::ExtractOp::create(nb, nloc, args[0], at), u,
                        isUnsigned);
          return SmallVector<Value>{
              tensor::InsertOp::create(nb, nloc, u, args[0], at)};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNDLowering : OpConversionPattern<ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(*this, op);
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
    SmallVector<Value> dataDims = dimValues(b, loc, data);
    SmallVector<Value> indicesDims = dimValues(b, loc, indices);
    SmallVector<Value> updatesDims = dimValues(b, loc, updates);
    for (int64_t d = 0; d < q - 1; ++d)
      check(b, loc, cmpI(b, loc, Pred::eq, indicesDims[d], updatesDims[d]), op,
            "indices and updates differ in dim " + Twine(d));
    for (int64_t d = k; d < r; ++d)
      check(b, loc,
            cmpI(b, loc, Pred::eq, dataDims[d], updatesDims[q - 1 + d - k]), op,
            "data and updates differ in dim " + Twine(d));
    Value start = castTo(b, loc, data, type);
    ArrayRef<Value> outer = ArrayRef(indicesDims).drop_back();
    ArrayRef<Value> inner = ArrayRef(dataDims).drop_front(k);
    Value result = buildLoopNest(
        b, loc, outer, {start},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          // The index of the slice to write.
          SmallVector<Value> prefix;
          SmallVector<Value> where(ivs);
          where.push_back(Value());
          for (int64_t m = 0; m < k; ++m) {
            where.back() = idx(nb, nloc, m);
            Value i = tensor::ExtractOp::create(nb, nloc, indices, where);
            prefix.push_back(checkedIndex(nb, nloc, castToIndex(nb, nloc, i),
                                          dataDims[m], /*wrap=*/true, op,
                                          "index out of range"));
          }
          return buildLoopNest(
              nb, nloc, inner, {args[0]},
              [&](OpBuilder &ib, Location iloc, ValueRange jvs,
                  ValueRange iargs) {
                SmallVector<Value> at(prefix);
                at.append(jvs.begin(), jvs.end());
                SmallVector<Value> from(ivs);
                from.append(jvs.begin(), jvs.end());
                Value u = tensor::ExtractOp::create(ib, iloc, updates, from);
                if (reduction != "none")
                  u = combine(ib, iloc, reduction,
                              tensor::ExtractOp::create(ib, iloc, iargs[0], at),
                              u, isUnsigned);
                return SmallVector<Value>{
                    tensor::InsertOp::create(ib, iloc, u, iargs[0], at)};
              });
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void dm::populateScatterPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<ScatterElementsLowering, ScatterNDLowering>(
      converter, patterns.getContext());
}
