//===- Expansion.h - What the expansions share ------------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The toolkit of the expansions of onnx-decompose (private to
// lib/Dialect/ONNX/Transforms/Decompose): the Emitter that builds onnx ops with
// their inferred types, what an expansion sees (Expansion), and the registry
// the family files fill. lib/Dialect/ONNX/Transforms/Decompose.cpp is the pass.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_DIALECT_ONNX_DECOMPOSE_EXPANSION_H
#define ONNXDIALECT_LIB_DIALECT_ONNX_DECOMPOSE_EXPANSION_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir {
namespace onnx {
namespace decompose {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

inline Type elementTypeOf(Value v) {
  if (!v)
    return {};
  auto t = dyn_cast<TensorType>(v.getType());
  return t ? t.getElementType() : Type();
}

inline std::optional<int64_t> rankOf(Value v) {
  if (!v)
    return std::nullopt;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t)
    return std::nullopt;
  return t.getRank();
}

/// A tensor of `elementType` with the shape of `like` (unranked if unknown).
inline Type withElementType(Type like, Type elementType) {
  if (auto r = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(r.getShape(), elementType);
  return UnrankedTensorType::get(elementType);
}

/// The numpy broadcast of tensor types, with `elementType`; unranked when an
/// input is unranked or the shapes do not broadcast (the verifier of the op
/// then says why).
inline Type broadcastTypes(ArrayRef<Type> types, Type elementType) {
  SmallVector<int64_t> shape;
  for (Type t : types) {
    auto r = dyn_cast_or_null<RankedTensorType>(t);
    if (!r)
      return UnrankedTensorType::get(elementType);
    ArrayRef<int64_t> s = r.getShape();
    if (s.size() > shape.size())
      shape.insert(shape.begin(), s.size() - shape.size(), 1);
    size_t off = shape.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &d = shape[off + i];
      int64_t e = s[i];
      if (e == 1)
        continue;
      if (d == 1) {
        d = e;
        continue;
      }
      if (ShapedType::isDynamic(e))
        continue;
      if (ShapedType::isDynamic(d)) {
        d = e;
        continue;
      }
      if (d != e)
        return UnrankedTensorType::get(elementType);
    }
  }
  // A dim of 1 in one input and unknown in another is unknown.
  for (Type t : types) {
    ArrayRef<int64_t> s = cast<RankedTensorType>(t).getShape();
    size_t off = shape.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i)
      if (ShapedType::isDynamic(s[i]) && shape[off + i] == 1)
        shape[off + i] = ShapedType::kDynamic;
  }
  return RankedTensorType::get(shape, elementType);
}

//===----------------------------------------------------------------------===//
// Emitter: creates the ops of one expansion
//===----------------------------------------------------------------------===//

/// Records the ops created by an expansion, so that a failed one can be
/// erased.
struct CreatedOps : public OpBuilder::Listener {
  SmallVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
};

/// Builds the primitive ops of one expansion at one opset. Every helper
/// returns null once a step has failed (an operator without a version at the
/// opset, an op that does not verify), and takes null inputs as failure, so
/// that an expansion is written straight through and checked once.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, int64_t opset)
      : b(b), loc(loc), opset(opset) {}

  bool failed() const { return !why.empty(); }
  StringRef getWhy() const { return why; }
  void fail(const Twine &reason) {
    if (why.empty())
      why = reason.str();
  }
  MLIRContext *getContext() { return b.getContext(); }
  OpBuilder &getBuilder() { return b; }
  int64_t getOpset() const { return opset; }

  /// Whether `opType` (ai.onnx) has an input named `name` at the opset.
  bool hasInputNamed(Operator opType, StringRef name) {
    std::optional<OperationName> n =
        lookupSchemaOp(getContext(), opType, opset);
    if (!n)
      return false;
    auto *iface = n->getInterface<ONNXSchemaOpInterface>();
    for (const ArgSchema &a : iface->getSchema().inputs)
      if (name == a.name)
        return true;
    return false;
  }

  /// One op; `inputs` null where an optional input is omitted (those listed
  /// in `optionalSlots` may be null; any other null input is a failure).
  SmallVector<Value> create(Operator opType, ArrayRef<Value> inputs,
                            ArrayRef<Type> resultTypes,
                            ArrayRef<NamedAttribute> attrs = {},
                            ArrayRef<unsigned> optionalSlots = {}) {
    if (failed())
      return {};
    for (auto [i, v] : llvm::enumerate(inputs))
      if (!v && !llvm::is_contained(optionalSlots, i)) {
        fail("an input of " + opType.getName() + " is missing");
        return {};
      }
    for (Type t : resultTypes)
      if (!t) {
        fail("the type of a result of " + opType.getName() + " is unknown");
        return {};
      }
    std::string reason;
    FailureOr<Operation *> op = createSchemaOp(b, loc, opType, opset, inputs,
                                               resultTypes, attrs, &reason);
    if (::mlir::failed(op)) {
      fail(reason);
      return {};
    }
    // The op must verify: its operator takes these element types at this
    // opset. Diagnostics are collected by the caller's handler.
    if (::mlir::failed(mlir::verify(*op, /*verifyRecursively=*/false))) {
      fail(opType.getName() + "-" +
           Twine(cast<ONNXSchemaOpInterface>(*op).getSchema().sinceVersion) +
           " does not take these types");
      return {};
    }
    return SmallVector<Value>((*op)->getResults());
  }

  Value create1(Operator opType, ArrayRef<Value> inputs, Type resultType,
                ArrayRef<NamedAttribute> attrs = {},
                ArrayRef<unsigned> optionalSlots = {}) {
    SmallVector<Value> r =
        create(opType, inputs, {resultType}, attrs, optionalSlots);
    return r.empty() ? Value() : r[0];
  }

  /// The same, naming the operator by an op class: `e.create1<CastOp>(...)`.
  template <typename OpT>
  SmallVector<Value> create(ArrayRef<Value> inputs, ArrayRef<Type> resultTypes,
                            ArrayRef<NamedAttribute> attrs = {},
                            ArrayRef<unsigned> optionalSlots = {}) {
    return create(Operator::of<OpT>(), inputs, resultTypes, attrs,
                  optionalSlots);
  }
  template <typename OpT>
  Value create1(ArrayRef<Value> inputs, Type resultType,
                ArrayRef<NamedAttribute> attrs = {},
                ArrayRef<unsigned> optionalSlots = {}) {
    return create1(Operator::of<OpT>(), inputs, resultType, attrs,
                   optionalSlots);
  }
  //===--- Constants ------------------------------------------------------===//

  /// A rank-0 constant of `elementType` (float or integer); of `shape` (one
  /// element) if given.
  Value scalar(Type elementType, double value, ArrayRef<int64_t> shape = {}) {
    if (failed())
      return {};
    if (!elementType) {
      fail("unknown element type");
      return {};
    }
    auto type = RankedTensorType::get(shape, elementType);
    Attribute attr;
    if (auto ft = dyn_cast<FloatType>(elementType)) {
      APFloat v(value);
      bool lost;
      v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      attr = DenseElementsAttr::get(type, v);
    } else if (auto it = dyn_cast<IntegerType>(elementType)) {
      APInt v(it.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
              /*isSigned=*/!it.isUnsigned(), /*implicitTrunc=*/true);
      attr = DenseElementsAttr::get(type, v);
    } else {
      fail("no constant of this element type");
      return {};
    }
    return createOrFail(cast<ElementsAttr>(attr));
  }

  Value i64s(ArrayRef<int64_t> values) {
    if (failed())
      return {};
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      b.getI64Type());
    return createOrFail(
        cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
  }

  Value createOrFail(ElementsAttr value) {
    return create1<ConstantOp>({}, value.getType(),
                               {b.getNamedAttr("value", value)});
  }

  //===--- Elementwise ----------------------------------------------------===//

  Value unary(Operator opType, Value x, ArrayRef<NamedAttribute> attrs = {}) {
    if (!x)
      return fail("missing input"), Value();
    return create1(opType, {x}, x.getType(), attrs);
  }

  /// Whether the version of `opType` that the opset selects predates
  /// multidirectional broadcasting (Add-7, Max-8, ...): its operands have
  /// one shape (or a legacy `broadcast` attribute).
  bool legacyBroadcast(Operator opType) {
    std::optional<OperationName> n =
        lookupSchemaOp(getContext(), opType, opset);
    if (!n)
      return false;
    int v = n->getInterface<ONNXSchemaOpInterface>()->getSchema().sinceVersion;
    if (opType == Operator::of<MaxOp>() || opType == Operator::of<MinOp>())
      return v < 8;
    return v < 7;
  }

  /// `c`, a one-element constant, as a splat of the static shape of `like`
  /// (`c` itself otherwise).
  Value splatLike(Value c, Value like) {
    auto lt = dyn_cast<RankedTensorType>(like.getType());
    auto ct = dyn_cast<RankedTensorType>(c.getType());
    if (!lt || !ct || !lt.hasStaticShape() || ct.getShape() == lt.getShape())
      return c;
    auto def = dyn_cast_or_null<ONNXSchemaOpInterface>(c.getDefiningOp());
    if (!def || !isOperator<ConstantOp>(def.getSchema()))
      return c;
    auto dense = def->getAttrOfType<DenseElementsAttr>("value");
    if (!dense || dense.getNumElements() != 1)
      return c;
    return createOrFail(cast<ElementsAttr>(dense.resizeSplat(
        RankedTensorType::get(lt.getShape(), dense.getElementType()))));
  }

  /// The operands of a binary op, with one-element constants widened to the
  /// other operand's shape where the op does not broadcast.
  void matchLegacyShapes(Operator opType, Value &a, Value &c) {
    if (a.getType() == c.getType() || !legacyBroadcast(opType))
      return;
    a = splatLike(a, c);
    c = splatLike(c, a);
  }

  Value binary(Operator opType, Value a, Value c) {
    if (!a || !c)
      return fail("missing input"), Value();
    matchLegacyShapes(opType, a, c);
    return create1(
        opType, {a, c},
        broadcastTypes({a.getType(), c.getType()}, elementTypeOf(a)));
  }
  Value add(Value a, Value c) { return binary<AddOp>(a, c); }
  Value sub(Value a, Value c) { return binary<SubOp>(a, c); }
  Value mul(Value a, Value c) { return binary<MulOp>(a, c); }
  Value div(Value a, Value c) { return binary<DivOp>(a, c); }

  Value compare(Operator opType, Value a, Value c) {
    if (!a || !c)
      return fail("missing input"), Value();
    matchLegacyShapes(opType, a, c);
    return create1(opType, {a, c},
                   broadcastTypes({a.getType(), c.getType()}, b.getI1Type()));
  }

  Value where(Value cond, Value x, Value y) {
    if (!cond || !x || !y)
      return fail("missing input"), Value();
    return create1<WhereOp>(
        {cond, x, y}, broadcastTypes({cond.getType(), x.getType(), y.getType()},
                                     elementTypeOf(x)));
  }

  /// Cast to `elementType`; `x` itself when it already has it.
  Value castTo(Value x, Type elementType) {
    if (!x || !elementType)
      return fail("missing input"), Value();
    if (elementTypeOf(x) == elementType)
      return x;
    int32_t code = getDataTypeForElementType(elementType);
    if (!code)
      return fail("no ONNX data type for the cast"), Value();
    return create1<CastOp>({x}, withElementType(x.getType(), elementType),
                           {b.getNamedAttr("to", b.getI64IntegerAttr(code))});
  }

  /// An op whose result types its inference tells: created with unranked
  /// results of `elementTypes`, then refined.
  SmallVector<Value> build(Operator opType, ArrayRef<Value> inputs,
                           ArrayRef<Type> elementTypes,
                           ArrayRef<NamedAttribute> attrs = {},
                           ArrayRef<unsigned> optionalSlots = {}) {
    SmallVector<Type> types;
    for (Type et : elementTypes) {
      if (!et) {
        fail("the element type of a result of " + opType.getName() +
             " is unknown");
        return {};
      }
      types.push_back(UnrankedTensorType::get(et));
    }
    SmallVector<Value> r = create(opType, inputs, types, attrs, optionalSlots);
    if (r.empty())
      return r;
    InferenceContext ctx(r[0].getDefiningOp());
    if (::mlir::failed(inferTypes(ctx)))
      return r;
    for (auto [i, v] : llvm::enumerate(r)) {
      Type t = i < ctx.getNumOutputs() ? ctx.getInferredType(i) : Type();
      if (!t)
        continue;
      FailureOr<Type> refined = refineType(v.getType(), t);
      if (::mlir::succeeded(refined))
        v.setType(*refined);
    }
    return r;
  }

  Value build1(Operator opType, ArrayRef<Value> inputs, Type elementType,
               ArrayRef<NamedAttribute> attrs = {},
               ArrayRef<unsigned> optionalSlots = {}) {
    SmallVector<Value> r =
        build(opType, inputs, {elementType}, attrs, optionalSlots);
    return r.empty() ? Value() : r[0];
  }

  /// The same, naming the operator by an op class: `e.unary<ExpOp>(x)`.
  template <typename OpT>
  Value unary(Value x, ArrayRef<NamedAttribute> attrs = {}) {
    return unary(Operator::of<OpT>(), x, attrs);
  }
  template <typename OpT> Value binary(Value a, Value c) {
    return binary(Operator::of<OpT>(), a, c);
  }
  template <typename OpT> Value compare(Value a, Value c) {
    return compare(Operator::of<OpT>(), a, c);
  }
  template <typename OpT>
  SmallVector<Value> build(ArrayRef<Value> inputs, ArrayRef<Type> elementTypes,
                           ArrayRef<NamedAttribute> attrs = {},
                           ArrayRef<unsigned> optionalSlots = {}) {
    return build(Operator::of<OpT>(), inputs, elementTypes, attrs,
                 optionalSlots);
  }
  template <typename OpT>
  Value build1(ArrayRef<Value> inputs, Type elementType,
               ArrayRef<NamedAttribute> attrs = {},
               ArrayRef<unsigned> optionalSlots = {}) {
    return build1(Operator::of<OpT>(), inputs, elementType, attrs,
                  optionalSlots);
  }

  //===--- Attributes -----------------------------------------------------===//

  NamedAttribute attr(StringRef name, int64_t v) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(v));
  }
  NamedAttribute attr(StringRef name, ArrayRef<int64_t> v) {
    return b.getNamedAttr(name, b.getDenseI64ArrayAttr(v));
  }

  //===--- Shapes ---------------------------------------------------------===//

  /// Shape(x) from `start` to `end` (end omitted when null).
  Value shapeOf(Value x, std::optional<int64_t> start = std::nullopt,
                std::optional<int64_t> end = std::nullopt) {
    SmallVector<NamedAttribute> attrs;
    if (start)
      attrs.push_back(attr("start", *start));
    if (end)
      attrs.push_back(attr("end", *end));
    return build1<ShapeOp>({x}, b.getI64Type(), attrs);
  }

  /// Squeeze or Unsqueeze of `x` at constant `axes`, as an input or an
  /// attribute as the version the opset selects takes them.
  Value squeezeOp(Operator opType, Value x, ArrayRef<int64_t> axes) {
    if (!x)
      return fail("missing input"), Value();
    if (hasInputNamed(opType, "axes"))
      return build1(opType, {x, i64s(axes)}, elementTypeOf(x));
    return build1(opType, {x}, elementTypeOf(x), {attr("axes", axes)});
  }
  Value squeeze(Value x, ArrayRef<int64_t> axes) {
    return squeezeOp(Operator::of<SqueezeOp>(), x, axes);
  }
  Value unsqueeze(Value x, ArrayRef<int64_t> axes) {
    return squeezeOp(Operator::of<UnsqueezeOp>(), x, axes);
  }

  Value transpose(Value x, ArrayRef<int64_t> perm) {
    if (!x)
      return fail("missing input"), Value();
    return build1<TransposeOp>({x}, elementTypeOf(x), {attr("perm", perm)});
  }

  Value concat(ArrayRef<Value> xs, int64_t axis) {
    if (xs.empty() || !xs[0])
      return fail("missing input"), Value();
    return build1<ConcatOp>(xs, elementTypeOf(xs[0]), {attr("axis", axis)});
  }

  Value reshape(Value x, Value shape) {
    if (!x)
      return fail("missing input"), Value();
    return build1<ReshapeOp>({x, shape}, elementTypeOf(x));
  }

  //===--- Reductions -----------------------------------------------------===//

  /// What a reduction reduces: constant axes, a value, or (neither) all.
  struct Axes {
    std::optional<SmallVector<int64_t>> constant;
    Value value;
  };

  /// A Reduce* op with `axes` as an input or an attribute, as the version
  /// the opset selects takes it.
  Value reduce(Operator opType, Value x, const Axes &axes, bool keepdims,
               bool noopWithEmptyAxes = false) {
    if (!x)
      return fail("missing input"), Value();
    bool axesInput = hasInputNamed(opType, "axes");
    SmallVector<NamedAttribute> attrs;
    attrs.push_back(b.getNamedAttr("keepdims", b.getI64IntegerAttr(keepdims)));
    Value axesValue;
    if (axesInput) {
      if (noopWithEmptyAxes)
        attrs.push_back(
            b.getNamedAttr("noop_with_empty_axes", b.getI64IntegerAttr(1)));
      if (axes.value)
        axesValue = axes.value;
      else if (axes.constant && !axes.constant->empty())
        axesValue = i64s(*axes.constant);
    } else {
      if (axes.value)
        return fail(opType.getName() + " takes no axes input at this opset"),
               Value();
      if (noopWithEmptyAxes && axes.constant && axes.constant->empty())
        return fail("no reduction over no axes at this opset"), Value();
      if (axes.constant && !axes.constant->empty())
        attrs.push_back(
            b.getNamedAttr("axes", b.getDenseI64ArrayAttr(*axes.constant)));
    }
    Type resultType =
        reducedType(x.getType(), axes, keepdims, noopWithEmptyAxes);
    SmallVector<Value> inputs{x};
    if (axesInput)
      inputs.push_back(axesValue);
    return create1(opType, inputs, resultType, attrs, {1});
  }

  template <typename OpT>
  Value reduce(Value x, const Axes &axes, bool keepdims,
               bool noopWithEmptyAxes = false) {
    return reduce(Operator::of<OpT>(), x, axes, keepdims, noopWithEmptyAxes);
  }

  static Type reducedType(Type in, const Axes &axes, bool keepdims,
                          bool noopWithEmptyAxes) {
    auto t = dyn_cast<RankedTensorType>(in);
    Type et = cast<TensorType>(in).getElementType();
    if (!t || axes.value)
      return UnrankedTensorType::get(et);
    int64_t rank = t.getRank();
    SmallVector<bool> reduced(rank, false);
    if (!axes.constant || axes.constant->empty()) {
      if (noopWithEmptyAxes)
        return in;
      reduced.assign(rank, true);
    } else {
      for (int64_t a : *axes.constant) {
        std::optional<int64_t> n = normalizeAxis(a, rank);
        if (!n)
          return UnrankedTensorType::get(et);
        reduced[*n] = true;
      }
    }
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank; ++i) {
      if (!reduced[i])
        shape.push_back(t.getDimSize(i));
      else if (keepdims)
        shape.push_back(1);
    }
    return RankedTensorType::get(shape, et);
  }

private:
  OpBuilder &b;
  Location loc;
  int64_t opset;
  std::string why;
};

//===----------------------------------------------------------------------===//
// Expansions
//===----------------------------------------------------------------------===//

/// What an expansion sees: the op through its ONNX slots, and the emitter.
struct Expansion {
  InferenceContext &ctx;
  Emitter &e;
  /// One value per output slot (null for omitted ones), filled in.
  SmallVector<Value> results;

  /// Whether the op is a version of one of the operators of `Ops`.
  template <typename... Ops> bool is() const {
    return isOperator<Ops...>(ctx.getSchema());
  }
  Value in(unsigned slot) const { return ctx.getInput(slot); }
  Type et(unsigned slot = 0) const { return elementTypeOf(in(slot)); }
  /// Attribute `name`, else its schema default (the op's version's, else
  /// the newest version's); the expansion fails for an attribute with
  /// neither.
  double f(StringRef name) const {
    std::optional<double> v = ctx.lookupFloatAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or(0.0);
  }
  int64_t i(StringRef name) const {
    std::optional<int64_t> v = ctx.lookupIntAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or(0);
  }
  StringRef s(StringRef name) const {
    std::optional<StringRef> v = ctx.lookupStringAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or("");
  }
  /// A scalar constant of the element type of input 0.
  Value c(double v) { return e.scalar(et(), v); }
  OpBuilder &b() { return e.getBuilder(); }
};

using ExpandFn = std::function<LogicalResult(Expansion &)>;

/// The failure of an expansion that cannot be done, with why.
inline LogicalResult unsupported(Expansion &x, const Twine &why) {
  x.e.fail(why);
  return failure();
}

inline bool isFloat(Type t) { return isa_and_nonnull<FloatType>(t); }

//===----------------------------------------------------------------------===//
// Emitters one family defines and others use
//===----------------------------------------------------------------------===//

/// The function body of Softmax-13 (LogSoftmax-13 with `log`) along `axis`
/// (Elementwise.cpp).
Value emitSoftmax(Emitter &e, Value v, int64_t axis, bool log);

/// start + delta * [0, 1, ..., n - 1], n = max(ceil((limit - start) / delta),
/// 0): Range without its Loop (Tensor.cpp).
Value emitRange(Emitter &e, Value start, Value limit, Value delta);

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

class ExpansionRegistry {
public:
  /// Registers `fn` for every version of the operators of `Ops`.
  template <typename... Ops> void add(const ExpandFn &fn) {
    (add(Operator::of<Ops>(), fn), ...);
  }
  const ExpandFn *lookup(Operator op) const {
    auto it = fns.find(key(op));
    return it == fns.end() ? nullptr : &it->second;
  }
  static const ExpansionRegistry &get();

private:
  static std::string key(Operator op) {
    return (op.getDomain() + "::" + op.getName()).str();
  }
  void add(Operator op, const ExpandFn &fn) { fns[key(op)] = fn; }
  llvm::StringMap<ExpandFn> fns;
};

/// The expansions of each family, one source file each.
void registerElementwiseExpansions(ExpansionRegistry &r);
void registerReductionExpansions(ExpansionRegistry &r);
void registerTensorExpansions(ExpansionRegistry &r);
void registerNNExpansions(ExpansionRegistry &r);
void registerQuantizationExpansions(ExpansionRegistry &r);
void registerTrainingExpansions(ExpansionRegistry &r);
void registerMLExpansions(ExpansionRegistry &r);

} // namespace decompose
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_DIALECT_ONNX_DECOMPOSE_EXPANSION_H
