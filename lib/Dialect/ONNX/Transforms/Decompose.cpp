//===- Decompose.cpp - The onnx-decompose pass ----------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expands the operators that the ONNX specification defines as functions
// (and a few closely related ones) into primitive ops, so that a lowering
// only has to handle primitives. Each expansion computes what the operator's
// function body computes: the same ops in the same element types (stash_type
// where the operator has one), with numpy broadcasting where the body relies
// on it. Ops whose expansion needs facts that are unknown (a rank, an element
// type, the value of an attribute that refers to a function parameter) are
// left alone with a remark, as are ops whose primitives do not exist, or do
// not take the element type, at the opset the module imports. At opsets
// before multidirectional broadcasting (Add-7, Max-8) the one-element
// constants of a body are splats of the other operand's static shape.
// Conditions that a body tests with If on facts known at compile time (the
// rank of an input, an attribute) are taken at compile time.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXBuilder.h"
#include "OnnxDialect/IR/ONNXDataTypes.h"
#include "OnnxDialect/IR/ONNXOps.h"
#include "OnnxDialect/IR/ONNXShapeInference.h"
#include "OnnxDialect/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXDECOMPOSE
#include "OnnxDialect/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static Type elementTypeOf(Value v) {
  if (!v)
    return {};
  auto t = dyn_cast<TensorType>(v.getType());
  return t ? t.getElementType() : Type();
}

static std::optional<int64_t> rankOf(Value v) {
  if (!v)
    return std::nullopt;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t)
    return std::nullopt;
  return t.getRank();
}

/// A tensor of `elementType` with the shape of `like` (unranked if unknown).
static Type withElementType(Type like, Type elementType) {
  if (auto r = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(r.getShape(), elementType);
  return UnrankedTensorType::get(elementType);
}

/// The numpy broadcast of tensor types, with `elementType`; unranked when an
/// input is unranked or the shapes do not broadcast (the verifier of the op
/// then says why).
static Type broadcastTypes(ArrayRef<Type> types, Type elementType) {
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

namespace {
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
} // namespace

//===----------------------------------------------------------------------===//
// Expansions
//===----------------------------------------------------------------------===//

namespace {
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
  /// Attribute `name`, else the default of the op's schema version; the
  /// expansion fails for an attribute with neither.
  double f(StringRef name) const {
    std::optional<double> v = ctx.getFloatAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or(0.0);
  }
  int64_t i(StringRef name) const {
    std::optional<int64_t> v = ctx.getIntAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or(0);
  }
  StringRef s(StringRef name) const {
    std::optional<StringRef> v = ctx.getStringAttrOrDefault(name);
    if (!v)
      e.fail("attribute '" + name + "' has no value");
    return v.value_or("");
  }
  /// A scalar constant of the element type of input 0.
  Value c(double v) { return e.scalar(et(), v); }
  OpBuilder &b() { return e.getBuilder(); }
};

using ExpandFn = std::function<LogicalResult(Expansion &)>;
} // namespace

/// The failure of an expansion that cannot be done, with why.
static LogicalResult unsupported(Expansion &x, const Twine &why) {
  x.e.fail(why);
  return failure();
}

static bool isFloat(Type t) { return isa_and_nonnull<FloatType>(t); }

//===--- Activations
//-------------------------------------------------------===//

/// alpha * (exp(x) - 1) where x < 0, x elsewhere.
static Value emitElu(Emitter &e, Value x, double alpha) {
  Type et = elementTypeOf(x);
  Value zero = e.scalar(et, 0.0), one = e.scalar(et, 1.0);
  Value neg = e.mul(e.scalar(et, alpha), e.sub(e.unary<ExpOp>(x), one));
  return e.where(e.compare<LessOp>(x, zero), neg, x);
}

/// max(0, min(1, alpha * x + beta)).
static Value emitHardSigmoid(Emitter &e, Value x, double alpha, double beta) {
  Type et = elementTypeOf(x);
  Value lin = e.add(e.mul(x, e.scalar(et, alpha)), e.scalar(et, beta));
  return e.binary<MaxOp>(e.binary<MinOp>(lin, e.scalar(et, 1.0)),
                         e.scalar(et, 0.0));
}

/// log(exp(x) + 1).
static Value emitSoftplus(Emitter &e, Value x) {
  return e.unary<LogOp>(
      e.add(e.unary<ExpOp>(x), e.scalar(elementTypeOf(x), 1.0)));
}

static LogicalResult expandElementwise(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Value r;
  if (x.is<SoftsignOp>()) {
    r = e.div(v, e.add(x.c(1.0), e.unary<AbsOp>(v)));
  } else if (x.is<SoftplusOp>()) {
    r = emitSoftplus(e, v);
  } else if (x.is<HardSigmoidOp>()) {
    r = emitHardSigmoid(e, v, x.f("alpha"), x.f("beta"));
  } else if (x.is<HardSwishOp>()) {
    r = e.mul(v, emitHardSigmoid(e, v, 1.0 / 6.0, 0.5));
  } else if (x.is<MishOp>()) {
    r = e.mul(v, e.unary<TanhOp>(emitSoftplus(e, v)));
  } else if (x.is<EluOp>()) {
    r = emitElu(e, v, x.f("alpha"));
  } else if (x.is<CeluOp>()) {
    // alpha * Elu(x / alpha, 1).
    Value alpha = x.c(x.f("alpha"));
    r = e.mul(alpha, emitElu(e, e.div(v, alpha), 1.0));
  } else if (x.is<SeluOp>()) {
    double alpha = x.f("alpha");
    double gamma = x.f("gamma");
    Value a = x.c(alpha);
    Value neg = e.sub(e.mul(a, e.unary<ExpOp>(v)), a);
    Value sel = e.where(e.compare<GreaterOp>(v, x.c(0.0)), v, neg);
    r = e.mul(x.c(gamma), sel);
  } else if (x.is<LeakyReluOp>()) {
    r = e.where(e.compare<LessOp>(v, x.c(0.0)), e.mul(x.c(x.f("alpha")), v), v);
  } else if (x.is<ThresholdedReluOp>()) {
    r = e.where(e.compare<GreaterOp>(v, x.c(x.f("alpha"))), v, x.c(0.0));
  } else if (x.is<ShrinkOp>()) {
    double lambd = x.f("lambd"), bias = x.f("bias");
    Type et = x.et();
    if (!isFloat(et) && !isa_and_nonnull<IntegerType>(et))
      return unsupported(x, "unknown element type");
    Value lo = e.compare<LessOp>(v, e.scalar(et, -lambd));
    Value hi = e.compare<GreaterOp>(v, e.scalar(et, lambd));
    Value inner = e.where(hi, e.sub(v, e.scalar(et, bias)), e.scalar(et, 0.0));
    r = e.where(lo, e.add(v, e.scalar(et, bias)), inner);
  } else if (x.is<SwishOp>()) {
    r = e.mul(v, e.unary<SigmoidOp>(e.mul(x.c(x.f("alpha")), v)));
  } else if (x.is<PReluOp>()) {
    Value slope = x.in(1);
    r = e.where(e.compare<LessOp>(v, x.c(0.0)), e.mul(slope, v), v);
  } else if (x.is<GeluOp>()) {
    StringRef approx = x.s("approximate");
    Value half = x.c(0.5), one = x.c(1.0);
    Value phi;
    if (approx == "none") {
      phi = e.add(one, e.unary<ErfOp>(e.div(v, e.unary<SqrtOp>(x.c(2.0)))));
    } else if (approx == "tanh") {
      Value cubed = e.binary<PowOp>(v, x.c(3.0));
      Value inner = e.add(v, e.mul(x.c(0.044715), cubed));
      Value k = e.unary<SqrtOp>(x.c(2.0 / M_PI));
      phi = e.add(one, e.unary<TanhOp>(e.mul(k, inner)));
    } else {
      return unsupported(x, "unknown approximation '" + approx + "'");
    }
    r = e.mul(e.mul(half, v), phi);
  } else {
    return unsupported(x, "no expansion");
  }
  x.results = {r};
  return success(static_cast<bool>(r));
}

//===--- Softmax, reductions ----------------------------------------------===//

/// The function body of Softmax-13 (LogSoftmax-13 with `log`) along `axis`.
static Value emitSoftmax(Emitter &e, Value v, int64_t axis, bool log) {
  Emitter::Axes axes{SmallVector<int64_t>{axis}, {}};
  Value shifted = e.sub(v, e.reduce<ReduceMaxOp>(v, axes, true));
  Value ex = e.unary<ExpOp>(shifted);
  Value sum = e.reduce<ReduceSumOp>(ex, axes, true);
  return log ? e.sub(shifted, e.unary<LogOp>(sum)) : e.div(ex, sum);
}

static LogicalResult expandSoftmax(Expansion &x, bool log) {
  if (x.ctx.getVersion() < 13)
    return unsupported(x, "Softmax before 13 coerces to 2-D: convert it first");
  x.results = {emitSoftmax(x.e, x.in(0), x.i("axis"), log)};
  return success(static_cast<bool>(x.results[0]));
}

/// The axes of a Reduce* op: its `axes` input (newer versions) or attribute.
static Emitter::Axes getReduceAxes(Expansion &x) {
  Emitter::Axes axes;
  int slot = x.ctx.getInputSlot("axes");
  if (slot >= 0) {
    if (!x.ctx.hasInput(slot)) {
      axes.constant = SmallVector<int64_t>();
      return axes;
    }
    if (std::optional<SmallVector<int64_t>> c = x.ctx.getConstantInts(slot))
      axes.constant = *c;
    else
      axes.value = x.in(slot);
    return axes;
  }
  axes.constant = x.ctx.getIntsAttr("axes").value_or(SmallVector<int64_t>());
  return axes;
}

static LogicalResult expandReduce(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Emitter::Axes axes = getReduceAxes(x);
  bool keep = x.i("keepdims") != 0;
  // Versions before 18 (13 for ReduceSum) have no noop_with_empty_axes.
  bool noop =
      x.ctx.getIntAttrOrDefault("noop_with_empty_axes").value_or(0) != 0;
  // Older versions have no noop_with_empty_axes: empty means all axes.
  auto sum = [&](Value in) {
    return e.reduce<ReduceSumOp>(in, axes, keep, noop);
  };
  Value r;
  if (x.is<ReduceLogSumOp>()) {
    r = e.unary<LogOp>(sum(v));
  } else if (x.is<ReduceLogSumExpOp>()) {
    // The function body computes in double and casts back.
    Type et = x.et();
    Value d = e.castTo(v, Float64Type::get(e.getContext()));
    r = e.castTo(e.unary<LogOp>(sum(e.unary<ExpOp>(d))), et);
  } else if (x.is<ReduceL1Op>()) {
    r = sum(e.unary<AbsOp>(v));
  } else if (x.is<ReduceL2Op>()) {
    // Integers are summed in their type, the root taken in float.
    Type et = x.et();
    Value s = sum(e.mul(v, v));
    if (isFloat(et))
      r = e.unary<SqrtOp>(s);
    else
      r = e.castTo(
          e.unary<SqrtOp>(e.castTo(s, Float32Type::get(e.getContext()))), et);
  } else if (x.is<ReduceSumSquareOp>()) {
    r = sum(e.mul(v, v));
  } else {
    return unsupported(x, "no expansion");
  }
  x.results = {r};
  return success(static_cast<bool>(r));
}

//===--- Clip, CastLike, Range --------------------------------------------===//

static LogicalResult expandClip(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Value lo, hi;
  if (x.ctx.getInputSlot("min") >= 0) {
    lo = x.in(1);
    hi = x.in(2);
  } else {
    // Clip before 11: the bounds are attributes (default: unbounded).
    if (std::optional<double> m = x.ctx.getFloatAttr("min"))
      lo = x.c(*m);
    if (std::optional<double> m = x.ctx.getFloatAttr("max"))
      hi = x.c(*m);
  }
  Value r = v;
  if (lo)
    r = e.binary<MaxOp>(r, lo);
  if (hi)
    r = e.binary<MinOp>(r, hi);
  if (r == v)
    r = e.unary<IdentityOp>(v);
  x.results = {r};
  return success(static_cast<bool>(r));
}

static LogicalResult expandCastLike(Expansion &x) {
  Emitter &e = x.e;
  Type to = x.et(1);
  int32_t code = getDataTypeForElementType(to);
  if (!x.in(0) || !code)
    return unsupported(x, "the target element type is unknown");
  SmallVector<NamedAttribute> attrs{
      x.b().getNamedAttr("to", x.b().getI64IntegerAttr(code))};
  for (StringRef name : {"saturate", "round_mode"})
    if (Attribute a = x.ctx.getAttr(name))
      attrs.push_back(x.b().getNamedAttr(name, a));
  x.results = {e.create1<CastOp>(
      {x.in(0)}, withElementType(x.in(0).getType(), to), attrs)};
  return success(static_cast<bool>(x.results[0]));
}

/// start + delta * [0, 1, ..., n - 1], n = max(ceil((limit - start) / delta),
/// 0): Range without its Loop. The count is computed in the element type for
/// floats and in double for integers.
static Value emitRange(Emitter &e, Value start, Value limit, Value delta) {
  Type et = elementTypeOf(start);
  if (!et)
    return e.fail("unknown element type"), Value();
  Type ct = isFloat(et) ? et : Float64Type::get(e.getContext());
  Value count = e.unary<ReluOp>(e.unary<CeilOp>(
      e.div(e.castTo(e.sub(limit, start), ct), e.castTo(delta, ct))));
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Value n = e.create1<ReshapeOp>({e.castTo(count, i64), e.i64s({1})},
                                 RankedTensorType::get({1}, i64));
  auto one =
      DenseElementsAttr::get(RankedTensorType::get({1}, et),
                             isFloat(et) ? Attribute(FloatAttr::get(et, 1.0))
                                         : Attribute(IntegerAttr::get(et, 1)));
  auto vec = RankedTensorType::get({ShapedType::kDynamic}, et);
  Value ones = e.create1<ConstantOfShapeOp>(
      {n}, vec, {e.getBuilder().getNamedAttr("value", one)});
  Value idx = e.sub(e.create1<CumSumOp>({ones, e.scalar(i64, 0)}, vec),
                    e.scalar(et, 1.0));
  return e.add(start, e.mul(idx, delta));
}

static LogicalResult expandRange(Expansion &x) {
  Value r = emitRange(x.e, x.in(0), x.in(1), x.in(2));
  x.results = {r};
  return success(static_cast<bool>(r));
}

//===--- Normalizations ---------------------------------------------------===//

/// The stash type of an op (its `stash_type` code, default float).
static Type stashType(Expansion &x) {
  if (!x.ctx.hasAttr("stash_type"))
    return Float32Type::get(x.ctx.getContext());
  return x.ctx.getDataTypeAttr("stash_type");
}

static LogicalResult expandLayerNorm(Expansion &x, bool rms) {
  Emitter &e = x.e;
  Value v = x.in(0);
  std::optional<int64_t> rank = rankOf(v);
  if (!rank)
    return unsupported(x, "the rank of the input is unknown");
  std::optional<int64_t> axis = normalizeAxis(x.i("axis"), *rank);
  if (!axis)
    return unsupported(x, "axis out of range");
  Type u = stashType(x);
  if (!isFloat(u))
    return unsupported(x, "stash_type is not a float type");
  Emitter::Axes axes{SmallVector<int64_t>(), {}};
  for (int64_t a = *axis; a < *rank; ++a)
    axes.constant->push_back(a);
  Value xu = e.castTo(v, u);
  Value eps = e.scalar(u, x.f("epsilon"));
  if (rms) {
    Value meanSq = e.reduce<ReduceMeanOp>(e.mul(xu, xu), axes, true);
    Value rmsv = e.unary<SqrtOp>(e.add(meanSq, eps));
    Value norm = e.castTo(e.div(xu, rmsv), x.et());
    x.results = {e.mul(norm, x.in(1))};
    return success(!e.failed());
  }
  Value mean = e.reduce<ReduceMeanOp>(xu, axes, true);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.mul(xu, xu), axes, true);
  Value var = e.sub(meanOfSq, e.mul(mean, mean));
  Value stdDev = e.unary<SqrtOp>(e.add(var, eps));
  Value norm = e.castTo(e.div(e.sub(xu, mean), stdDev), x.et());
  Value y = e.mul(norm, x.in(1));
  if (x.in(2))
    y = e.add(y, x.in(2));
  x.results = {y};
  if (x.ctx.hasOutput(1))
    x.results.push_back(mean);
  else if (x.ctx.getNumOutputs() > 1)
    x.results.push_back({});
  if (x.ctx.hasOutput(2))
    x.results.push_back(e.unary<ReciprocalOp>(stdDev));
  return success(!e.failed());
}

static LogicalResult expandGroupNorm(Expansion &x) {
  if (x.ctx.getVersion() < 21)
    return unsupported(x, "GroupNormalization-18 scales per group");
  Emitter &e = x.e;
  Value v = x.in(0);
  std::optional<int64_t> rank = rankOf(v);
  if (!rank || *rank < 2)
    return unsupported(x, "the rank of the input is unknown or below 2");
  std::optional<int64_t> groups = x.ctx.getIntAttr("num_groups");
  if (!groups || *groups <= 0)
    return unsupported(x, "num_groups is missing or not positive");
  Type u = stashType(x);
  if (!isFloat(u))
    return unsupported(x, "stash_type is not a float type");
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Value xu = e.castTo(v, u);
  Value shape = e.create1<ShapeOp>({xu}, RankedTensorType::get({*rank}, i64));
  // [N, G, C/G * D1 * ...], normalized over its last axis.
  int64_t n = cast<RankedTensorType>(v.getType()).getDimSize(0);
  auto t3 = RankedTensorType::get({n, *groups, ShapedType::kDynamic}, u);
  Value x3 = e.create1<ReshapeOp>({xu, e.i64s({0, *groups, -1})}, t3);
  Emitter::Axes last{SmallVector<int64_t>{2}, {}};
  Value mean = e.reduce<ReduceMeanOp>(x3, last, true);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.mul(x3, x3), last, true);
  Value var = e.sub(meanOfSq, e.mul(mean, mean));
  Value stdDev = e.unary<SqrtOp>(e.add(var, e.scalar(u, x.f("epsilon"))));
  Value norm3 = e.div(e.sub(x3, mean), stdDev);
  Value norm = e.castTo(
      e.create1<ReshapeOp>({norm3, shape}, withElementType(v.getType(), u)),
      x.et());
  // Scale and bias per channel: [C, 1, ..., 1].
  SmallVector<int64_t> cshape{-1};
  cshape.append(*rank - 2, 1);
  auto perChannel = [&](Value p) {
    SmallVector<int64_t> dims{ShapedType::kDynamic};
    dims.append(*rank - 2, 1);
    return e.create1<ReshapeOp>({e.castTo(p, x.et()), e.i64s(cshape)},
                                RankedTensorType::get(dims, x.et()));
  };
  x.results = {e.add(e.mul(norm, perChannel(x.in(1))), perChannel(x.in(2)))};
  return success(!e.failed());
}

static LogicalResult expandMVN(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Emitter::Axes axes{
      x.ctx.getIntsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3}), {}};
  Value two = x.c(2.0);
  Value mean = e.reduce<ReduceMeanOp>(v, axes, true);
  Value sqOfMean = e.binary<PowOp>(mean, two);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.binary<PowOp>(v, two), axes, true);
  Value stdDev = e.unary<SqrtOp>(e.sub(meanOfSq, sqOfMean));
  x.results = {e.div(e.sub(v, mean), e.add(stdDev, x.c(1e-9)))};
  return success(!e.failed());
}

//===--- Quantization, windows, random, crop ------------------------------===//

static LogicalResult expandDynamicQuantizeLinear(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Type f32 = Float32Type::get(e.getContext());
  if (x.et() != f32)
    return unsupported(x, "the input is not f32");
  Type ui8 = IntegerType::get(e.getContext(), 8, IntegerType::Unsigned);
  Value qmin = e.scalar(f32, 0.0), qmax = e.scalar(f32, 255.0);
  Emitter::Axes all{SmallVector<int64_t>(), {}};
  Value lo = e.binary<MinOp>(e.reduce<ReduceMinOp>(v, all, false), qmin);
  Value hi = e.binary<MaxOp>(e.reduce<ReduceMaxOp>(v, all, false), qmin);
  Value scale = e.div(e.sub(hi, lo), qmax);
  Value zpf = e.sub(qmin, e.div(lo, scale));
  // Clip(zpf, qmin, qmax), itself expanded.
  Value clipped = e.binary<MinOp>(e.binary<MaxOp>(zpf, qmin), qmax);
  Value zp = e.castTo(e.unary<RoundOp>(clipped), ui8);
  Value y = e.create1<QuantizeLinearOp>({v, scale, zp},
                                        withElementType(v.getType(), ui8));
  x.results = {y, scale, zp};
  return success(!e.failed());
}

static LogicalResult expandWindow(Expansion &x) {
  Emitter &e = x.e;
  double a0, a1, a2;
  if (x.is<HannWindowOp>())
    a0 = 0.5, a1 = 0.5, a2 = 0.0;
  else if (x.is<HammingWindowOp>())
    a0 = 25.0 / 46.0, a1 = 1.0 - 25.0 / 46.0, a2 = 0.0;
  else
    a0 = 0.42, a1 = 0.5, a2 = 0.08;
  Type out = x.ctx.hasAttr("output_datatype")
                 ? x.ctx.getDataTypeAttr("output_datatype")
                 : Float32Type::get(e.getContext());
  if (!isFloat(out))
    return unsupported(x, "output_datatype is not a float type");
  Type f32 = Float32Type::get(e.getContext());
  bool periodic = x.i("periodic") != 0;
  Value size = e.castTo(x.in(0), f32);
  Value n = periodic ? size : e.sub(size, e.scalar(f32, 1.0));
  Value step = e.div(e.scalar(f32, 2.0 * M_PI), n);
  Value angle =
      e.mul(emitRange(e, e.scalar(f32, 0.0), size, e.scalar(f32, 1.0)), step);
  Value w =
      e.sub(e.scalar(f32, a0), e.mul(e.scalar(f32, a1), e.unary<CosOp>(angle)));
  if (a2 != 0.0)
    w = e.add(w, e.mul(e.scalar(f32, a2),
                       e.unary<CosOp>(e.mul(angle, e.scalar(f32, 2.0)))));
  x.results = {e.castTo(w, out)};
  return success(!e.failed());
}

/// 1 where a uniform sample in [0, 1) is below p: P(1) = p, as the operator
/// is documented. (The function body of Bernoulli-15 compares with Greater,
/// which would draw 1 with probability 1 - p.)
static LogicalResult expandBernoulli(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Type out = x.ctx.hasAttr("dtype") ? x.ctx.getDataTypeAttr("dtype") : x.et();
  if (!out || !x.et())
    return unsupported(x, "unknown element type");
  SmallVector<NamedAttribute> attrs{x.b().getNamedAttr(
      "dtype", x.b().getI64IntegerAttr(getDataTypeForElementType(x.et())))};
  if (Attribute seed = x.ctx.getAttr("seed"))
    attrs.push_back(x.b().getNamedAttr("seed", seed));
  Value rnd = e.create1<RandomUniformLikeOp>({v}, v.getType(), attrs);
  x.results = {e.castTo(e.compare<LessOp>(rnd, v), out)};
  return success(!e.failed());
}

static LogicalResult expandCenterCropPad(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0), shape = x.in(1);
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  auto vec = RankedTensorType::get({ShapedType::kDynamic}, i64);
  std::optional<SmallVector<int64_t>> axesAttr = x.ctx.getIntsAttr("axes");
  Value axes = axesAttr ? e.i64s(*axesAttr) : Value();
  auto dims = [&](Value t) {
    Value s = e.create1<ShapeOp>({t}, vec);
    if (!axes)
      return s;
    return e.create1<GatherOp>({s, axes}, vec);
  };
  Value two = e.i64s({2});
  Value xs = dims(v);
  Value padAmount = e.sub(e.binary<MaxOp>(xs, shape), xs);
  Value left = e.div(padAmount, two);
  Value pads = e.create1<ConcatOp>(
      {left, e.sub(padAmount, left)}, vec,
      {x.b().getNamedAttr("axis", x.b().getI64IntegerAttr(0))});
  Type et = x.et();
  Type anyShape = withElementType(UnrankedTensorType::get(et), et);
  if (auto r = dyn_cast_or_null<RankedTensorType>(v.getType()))
    anyShape = RankedTensorType::get(
        SmallVector<int64_t>(r.getRank(), ShapedType::kDynamic), et);
  Value padded =
      e.create1<PadOp>({v, pads, Value(), axes}, anyShape, {}, {2, 3});
  Value start = e.div(e.sub(dims(padded), shape), two);
  x.results = {e.create1<SliceOp>({padded, start, e.add(start, shape), axes},
                                  anyShape, {}, {3})};
  return success(!e.failed());
}

//===--- Losses -----------------------------------------------------------===//

/// The function body of NegativeLogLikelihoodLoss: -input at the target
/// class (GatherElements along axis 1), zero where the target is
/// ignore_index, times the class weight, reduced. The loss is computed in
/// the element type of `input`.
static Value emitNLL(Emitter &e, Value input, Value target, Value weight,
                     StringRef reduction, std::optional<int64_t> ignoreIndex) {
  Type et = elementTypeOf(input), tt = elementTypeOf(target);
  Type i64 = IntegerType::get(e.getContext(), 64);
  if (!isFloat(et) || !tt)
    return e.fail("unknown element type"), Value();
  Value zero1 = e.i64s({0}), one1 = e.i64s({1});
  Value expanded = e.unsqueeze(target, {1});
  Value mask, index = expanded;
  Value zero = e.scalar(et, 0.0);
  if (ignoreIndex) {
    Value zeroTarget = e.sub(expanded, expanded);
    mask = e.compare<EqualOp>(e.castTo(expanded, i64), e.i64s({*ignoreIndex}));
    index = e.where(mask, zeroTarget, expanded);
  }
  Value gathered = e.build1<GatherElementsOp>({input, index}, et,
                                              {e.attr("axis", int64_t(1))});
  if (mask)
    gathered = e.where(mask, zero, gathered);
  Value lossNCdd = e.unary<NegOp>(gathered);
  Value lossN1dd = e.build1<SliceOp>({lossNCdd, zero1, one1, one1}, et);
  // The weight of each sample (none without weight and ignore_index).
  Value w;
  if (weight && mask)
    w = e.squeeze(e.where(mask, zero, e.build1<GatherOp>({weight, index}, et)),
                  {1});
  else if (weight)
    w = e.build1<GatherOp>({weight, target}, et);
  else if (mask)
    w = e.where(e.squeeze(mask, {1}), zero, e.scalar(et, 1.0));
  Value loss = e.squeeze(lossN1dd, {1});
  if (w)
    loss = e.mul(loss, w);
  if (reduction == "none")
    return loss;
  Emitter::Axes all{SmallVector<int64_t>(), {}};
  if (reduction == "sum")
    return e.reduce<ReduceSumOp>(loss, all, false);
  if (reduction != "mean")
    return e.fail("unknown reduction '" + reduction + "'"), Value();
  if (!w)
    return e.reduce<ReduceMeanOp>(loss, all, false);
  Value lossSum = e.reduce<ReduceSumOp>(loss, all, false);
  return e.div(lossSum, e.reduce<ReduceSumOp>(w, all, false));
}

static LogicalResult expandNLL(Expansion &x) {
  x.results = {emitNLL(x.e, x.in(0), x.in(1), x.in(2), x.s("reduction"),
                       x.ctx.getIntAttr("ignore_index"))};
  return success(!x.e.failed());
}

/// SoftmaxCrossEntropyLoss: LogSoftmax over the classes of scores viewed as
/// [N, C, D] (transposed to put C last), then NegativeLogLikelihoodLoss; the
/// log probabilities are the second output.
static LogicalResult expandSCE(Expansion &x) {
  Emitter &e = x.e;
  Value scores = x.in(0);
  Value ncd = e.reshape(scores, e.i64s({0, 0, -1}));
  Value ndc = e.transpose(ncd, {0, 2, 1});
  Value logSm = e.transpose(emitSoftmax(e, ndc, 2, /*log=*/true), {0, 2, 1});
  Value logProb = e.reshape(logSm, e.shapeOf(scores));
  x.results = {emitNLL(e, logProb, x.in(1), x.in(2), x.s("reduction"),
                       x.ctx.getIntAttr("ignore_index"))};
  if (x.ctx.hasOutput(1))
    x.results.push_back(logProb);
  return success(!e.failed());
}

//===--- AffineGrid -------------------------------------------------------===//

/// The function body of AffineGrid-20 with its conditions (2-D or 3-D from
/// the length of `size`, align_corners) taken at compile time: for each
/// spatial dim n, coordinates start + i * step in the type of theta, a grid
/// of (x, y[, z], 1) over all positions, and theta times it. The body runs
/// the 2-D case through the 3-D one with theta extended by a zero column
/// and a z of 0; the extra terms are exact zeros, so the 2-D grid is built
/// directly.
static LogicalResult expandAffineGrid(Expansion &x) {
  Emitter &e = x.e;
  Value theta = x.in(0), size = x.in(1);
  Type et = x.et();
  if (!isFloat(et))
    return unsupported(x, "theta is not a float tensor");
  auto st = dyn_cast<RankedTensorType>(size.getType());
  if (!st || st.getRank() != 1 || st.isDynamicDim(0) ||
      (st.getDimSize(0) != 4 && st.getDimSize(0) != 5))
    return unsupported(x, "the length of size is unknown or not 4 or 5");
  int64_t k = st.getDimSize(0) - 2;
  bool alignCorners = x.i("align_corners") != 0;
  Type i64 = IntegerType::get(e.getContext(), 64);
  Value one = e.scalar(i64, 1), zero = e.scalar(i64, 0);
  Value oneF = e.scalar(et, 1.0), twoF = e.scalar(et, 2.0);
  Value minusOneF = e.scalar(et, -1.0), zeroF = e.scalar(et, 0.0);
  // Coordinates along spatial dim j (0: D or H, ..., k-1: W) of size n.
  auto coords = [&](int64_t j) {
    Value n = e.build1<GatherOp>({size, e.scalar(i64, 2 + j)}, i64);
    Value nf = e.castTo(n, et);
    Value start, step;
    if (!alignCorners) {
      step = e.div(twoF, nf);
      start = e.add(minusOneF, e.div(step, twoF));
    } else {
      step = e.div(twoF, e.sub(nf, oneF));
      // Depth 1 of a 3-D grid has step 0 (the body's If on D == 1).
      if (k == 3 && j == 0)
        step = e.where(e.compare<EqualOp>(n, one), zeroF, step);
      start = minusOneF;
    }
    Value steps = e.castTo(emitRange(e, zero, n, one), et);
    return e.add(start, e.mul(steps, step));
  };
  Value spatialShape =
      e.build1<SliceOp>({size, e.i64s({2}), e.i64s({2 + k})}, i64);
  auto zeroAttr = DenseElementsAttr::get(RankedTensorType::get({1}, et),
                                         FloatAttr::get(et, 0.0));
  Value zeros = e.build1<ConstantOfShapeOp>(
      {spatialShape}, et, {x.b().getNamedAttr("value", zeroAttr)});
  Value ones = e.add(zeros, oneF);
  // Each coordinate broadcast over the spatial shape, then (x, y[, z], 1)
  // along a new last axis.
  SmallVector<Value> parts;
  for (int64_t j = k - 1; j >= 0; --j) {
    // A permutation that puts dim j last, and its inverse.
    SmallVector<int64_t> perm, inv(k);
    for (int64_t d = 0; d < k; ++d)
      if (d != j)
        perm.push_back(d);
    perm.push_back(j);
    for (int64_t d = 0; d < k; ++d)
      inv[perm[d]] = d;
    Value g;
    if (j == k - 1)
      g = e.add(coords(j), zeros);
    else {
      Value zerosT = e.transpose(zeros, perm);
      g = e.transpose(e.add(zerosT, coords(j)), inv);
    }
    parts.push_back(e.unsqueeze(g, {-1}));
  }
  parts.push_back(e.unsqueeze(ones, {-1}));
  Value grid = e.concat(parts, -1);
  Value flat = e.transpose(e.reshape(grid, e.i64s({-1, k + 1})), {1, 0});
  Value prod = e.build1<MatMulOp>({theta, flat}, et);
  Value nsk = e.transpose(prod, {0, 2, 1});
  Value outShape =
      e.concat({e.build1<SliceOp>({size, e.i64s({0}), e.i64s({1})}, i64),
                spatialShape, e.i64s({k})},
               0);
  x.results = {e.reshape(nsk, outShape)};
  return success(!e.failed());
}

//===--- Attention --------------------------------------------------------===//

/// The function body of Attention-23/24: Q, K, V as [batch, heads, seq,
/// head_size] (3-D inputs reshaped by q_num_heads/kv_num_heads), past keys
/// and values concatenated, K and V heads repeated for grouped queries, Q
/// and K scaled by sqrt(scale), softcap, the bias of the mask, causality
/// and (24) nonpad_kv_seqlen added in float and cast to T, Softmax in
/// softmax_precision.
static LogicalResult expandAttention(Expansion &x) {
  Emitter &e = x.e;
  MLIRContext *ctx = e.getContext();
  Type f32 = Float32Type::get(ctx), i64 = IntegerType::get(ctx, 64);
  Value q = x.in(0), k = x.in(1), v = x.in(2), mask = x.in(3);
  Value pastK = x.in(4), pastV = x.in(5);
  int version = x.ctx.getVersion();
  Value nonpad = version >= 24 ? x.in(6) : Value();
  Type t = x.et();
  if (!isFloat(t) || x.et(1) != t || x.et(2) != t)
    return unsupported(x, "Q, K and V are not float tensors of one type");
  std::optional<int64_t> rank = rankOf(q);
  if (!rank || (*rank != 3 && *rank != 4) || rankOf(k) != rank ||
      rankOf(v) != rank)
    return unsupported(x, "Q, K and V are not all 3-D or all 4-D");
  if ((pastK != nullptr) != (pastV != nullptr))
    return unsupported(x, "only one of past_key and past_value is given");
  Type softmaxType = t;
  if (x.ctx.hasAttr("softmax_precision")) {
    softmaxType = x.ctx.getDataTypeAttr("softmax_precision");
    if (!isFloat(softmaxType))
      return unsupported(x, "softmax_precision is not a float type");
  }
  int64_t mode = x.i("qk_matmul_output_mode");
  if (x.ctx.hasOutput(3) && (mode < 0 || mode > 3))
    return unsupported(x, "unknown qk_matmul_output_mode");

  Value batch = e.shapeOf(q, 0, 1);
  Value qSeqLen = e.shapeOf(q, -2, -1);
  Value kvSeqLen = e.shapeOf(k, -2, -1);
  Value qr = q, kr = k, vr = v;
  if (*rank == 3) {
    std::optional<int64_t> qHeads = x.ctx.getIntAttr("q_num_heads");
    std::optional<int64_t> kvHeads = x.ctx.getIntAttr("kv_num_heads");
    if (!qHeads || !kvHeads)
      return unsupported(x, "3-D inputs without q_num_heads and kv_num_heads");
    Value negOne = e.i64s({-1});
    Value qShape = e.concat({batch, qSeqLen, e.i64s({*qHeads}), negOne}, 0);
    Value kvShape = e.concat({batch, kvSeqLen, e.i64s({*kvHeads}), negOne}, 0);
    qr = e.transpose(e.reshape(q, qShape), {0, 2, 1, 3});
    kr = e.transpose(e.reshape(k, kvShape), {0, 2, 1, 3});
    vr = e.transpose(e.reshape(v, kvShape), {0, 2, 1, 3});
  }
  Value qHeads = e.shapeOf(qr, 1, 2), kvHeads = e.shapeOf(kr, 1, 2);
  Value qkHeadSize = e.shapeOf(qr, 3, 4), vHeadSize = e.shapeOf(vr, 3, 4);

  // Q and K are each scaled by sqrt(scale).
  Value scale;
  if (std::optional<double> s = x.ctx.getFloatAttr("scale"))
    scale = e.scalar(f32, *s);
  else
    scale = e.div(e.scalar(f32, 1.0, {1}),
                  e.unary<SqrtOp>(e.castTo(qkHeadSize, f32)));
  Value scaleT = e.castTo(e.unary<SqrtOp>(scale), t);

  // The key/value cache.
  Value presentK = kr, presentV = vr, pastSeqLen;
  if (pastK) {
    presentK = e.concat({pastK, kr}, 2);
    pastSeqLen = e.shapeOf(pastK, -2, -1);
    presentV = e.concat({pastV, vr}, 2);
  } else {
    pastSeqLen = e.i64s({0});
  }
  Value newKVSeqLen = e.shapeOf(presentK, -2, -1);
  Value biasShape = e.concat({qSeqLen, newKVSeqLen}, 0);

  // The bias added to the scores, in float (or the mask's type).
  Value negInf = e.scalar(f32, -INFINITY, {1}), zeroF = e.scalar(f32, 0.0, {1});
  Value bias;
  if (mask) {
    Type mt = elementTypeOf(mask);
    bias = mt && mt.isInteger(1) ? e.where(mask, zeroF, negInf) : mask;
    if (version >= 24) {
      // A mask shorter than the keys is padded with -inf.
      Value padding = e.sub(newKVSeqLen, e.shapeOf(bias, -1));
      Value pads = e.concat({e.i64s({0}), padding}, 0);
      Value fill = e.castTo(e.scalar(f32, -INFINITY), elementTypeOf(bias));
      bias = e.build1<PadOp>({bias, pads, fill, e.i64s({-1})},
                             elementTypeOf(bias));
    }
  } else {
    auto zeroAttr =
        DenseElementsAttr::get(RankedTensorType::get({1}, f32), 0.0f);
    bias = e.build1<ConstantOfShapeOp>({biasShape}, f32,
                                       {x.b().getNamedAttr("value", zeroAttr)});
  }
  Type biasType = elementTypeOf(bias);
  if (x.i("is_causal") != 0) {
    // -inf where the key position is after the query's (past included).
    Value seqLen = e.build1<GatherOp>({biasShape, e.scalar(i64, 0)}, i64);
    Value total = e.build1<GatherOp>({biasShape, e.scalar(i64, 1)}, i64);
    Value zero = e.scalar(i64, 0), one = e.scalar(i64, 1);
    Value rows = e.unsqueeze(emitRange(e, zero, seqLen, one), {1});
    Value cols = e.unsqueeze(emitRange(e, zero, total, one), {0});
    Value above = e.compare<LessOp>(e.add(rows, pastSeqLen), cols);
    bias = e.add(bias, e.castTo(e.where(above, negInf, zeroF), biasType));
  }
  if (nonpad) {
    // -inf for the keys of a sample past its nonpad_kv_seqlen.
    Value lens = e.unsqueeze(nonpad, {1});
    Value len = e.squeeze(kvSeqLen, {0});
    Value range = emitRange(e, e.scalar(i64, 0), len, e.scalar(i64, 1));
    Value pad = e.where(e.compare<LessOp>(range, lens), zeroF, negInf);
    pad = e.unsqueeze(e.unsqueeze(pad, {1}), {1});
    bias = e.add(bias, e.castTo(pad, biasType));
  }
  Value biasT = e.castTo(bias, t);

  // Grouped queries: each K/V head serves q_num_heads / kv_num_heads query
  // heads (interleave 1 when they are equal or do not divide).
  Value one1 = e.i64s({1}), zero1 = e.i64s({0});
  Value notEqual = e.unary<NotOp>(e.compare<EqualOp>(qHeads, kvHeads));
  Value divides = e.compare<EqualOp>(e.binary<ModOp>(qHeads, kvHeads), zero1);
  Value gqa = e.compare<AndOp>(notEqual, divides);
  Value interleave = e.where(gqa, e.castTo(e.div(qHeads, kvHeads), i64), one1);
  auto repeatHeads = [&](Value kv, Value headSize) {
    Value shape5 =
        e.concat({batch, kvHeads, interleave, newKVSeqLen, headSize}, 0);
    Value expanded =
        e.build1<ExpandOp>({e.unsqueeze(kv, {2}), shape5}, elementTypeOf(kv));
    Value shape4 = e.concat({batch, qHeads, newKVSeqLen, headSize}, 0);
    return e.reshape(expanded, shape4);
  };
  Value kAttn = repeatHeads(presentK, qkHeadSize);
  Value vAttn = repeatHeads(presentV, vHeadSize);

  Value qScaled = e.mul(qr, scaleT);
  Value kScaled = e.mul(e.transpose(kAttn, {0, 1, 3, 2}), scaleT);
  Value qk = e.build1<MatMulOp>({qScaled, kScaled}, t);
  Value scores = e.castTo(qk, t);
  if (double softcap = x.f("softcap"); softcap > 0.0) {
    Value cap = e.castTo(e.scalar(f32, softcap, {1}), t);
    scores = e.mul(e.unary<TanhOp>(e.div(scores, cap)), cap);
  }
  Value softcapped = scores;
  Value biased = e.add(scores, biasT);
  Value probs = emitSoftmax(e, e.castTo(biased, softmaxType), -1, false);
  Value probsT = e.castTo(probs, t);
  Value y = e.build1<MatMulOp>({probsT, vAttn}, t);
  if (*rank == 3)
    y = e.reshape(e.transpose(y, {0, 2, 1, 3}), e.i64s({0, 0, -1}));
  x.results = {y, presentK, presentV};
  if (x.ctx.hasOutput(3)) {
    Value qkOut[] = {qk, softcapped, biased, probs};
    x.results.push_back(qkOut[mode]);
  }
  return success(!e.failed());
}

//===--- RotaryEmbedding --------------------------------------------------===//

/// The function body of RotaryEmbedding-23: the input as [batch, seq,
/// heads, head_size], its first rotary_embedding_dim values rotated by the
/// cos/sin caches (gathered at position_ids when given), in halves or
/// interleaved, the rest passed through.
static LogicalResult expandRotaryEmbedding(Expansion &x) {
  Emitter &e = x.e;
  Value in = x.in(0), cosCache = x.in(1), sinCache = x.in(2);
  Value positions = x.in(3);
  Type et = x.et();
  if (!isFloat(et))
    return unsupported(x, "the input is not a float tensor");
  std::optional<int64_t> rank = rankOf(in);
  if (!rank || (*rank != 3 && *rank != 4))
    return unsupported(x, "the input is not 3-D or 4-D");
  int64_t numHeads = x.ctx.getIntAttr("num_heads").value_or(0);
  if (*rank == 3 && numHeads <= 0)
    return unsupported(x, "a 3-D input without num_heads");
  Value xin = *rank == 4 ? e.transpose(in, {0, 2, 1, 3})
                         : e.reshape(in, e.i64s({0, 0, numHeads, -1}));
  Value headSize = e.shapeOf(xin, 3, 4);
  int64_t rotaryDim = x.i("rotary_embedding_dim");
  Value rd = rotaryDim > 0 ? e.i64s({rotaryDim}) : headSize;
  Value two1 = e.i64s({2}), zero1 = e.i64s({0});
  Value lengths = e.concat({rd, e.sub(headSize, rd)}, 0);
  SmallVector<Value> parts =
      e.build<SplitOp>({xin, lengths}, {et, et}, {e.attr("axis", int64_t(-1))});
  if (parts.size() != 2)
    return unsupported(x, e.getWhy());
  Value toRotate = parts[0], noRotate = parts[1];
  Value half = e.castTo(e.div(rd, two1), IntegerType::get(e.getContext(), 64));
  auto cache = [&](Value c) {
    if (positions)
      c = e.build1<GatherOp>({c, positions}, elementTypeOf(c));
    return e.unsqueeze(e.build1<SliceOp>({c, zero1, half, two1}, et), {2});
  };
  Value cosv = cache(cosCache), sinv = cache(sinCache);
  bool interleaved = x.i("interleaved") != 0;
  Value x1, x2;
  if (interleaved) {
    Value one1 = e.i64s({1}), axis = e.i64s({3});
    x1 = e.build1<SliceOp>({toRotate, zero1, rd, axis, two1}, et);
    x2 = e.build1<SliceOp>({toRotate, one1, e.add(rd, one1), axis, two1}, et);
  } else {
    SmallVector<Value> halves = e.build<SplitOp>(
        {toRotate}, {et, et},
        {e.attr("axis", int64_t(-1)), e.attr("num_outputs", 2)}, {1});
    if (halves.size() != 2)
      return unsupported(x, e.getWhy());
    x1 = halves[0];
    x2 = halves[1];
  }
  Value cosX1 = e.mul(cosv, x1);
  Value real = e.sub(cosX1, e.mul(sinv, x2));
  Value sinX1 = e.mul(sinv, x1);
  Value imag = e.add(sinX1, e.mul(cosv, x2));
  Value rotated;
  if (interleaved) {
    Value pairs =
        e.concat({e.unsqueeze(real, {-1}), e.unsqueeze(imag, {-1})}, -1);
    rotated = e.reshape(pairs, e.shapeOf(toRotate));
  } else
    rotated = e.concat({real, imag}, -1);
  Value y = e.concat({rotated, noRotate}, -1);
  if (*rank == 4)
    y = e.transpose(y, {0, 2, 1, 3});
  x.results = {e.reshape(y, e.shapeOf(in))};
  return success(!e.failed());
}

//===--- CausalConvWithState ----------------------------------------------===//

/// The function body of CausalConvWithState-27: the past state (or k - 1
/// zeros) concatenated before the input along the length, a depthwise Conv
/// (group = channels), SiLU in float for 'silu'/'swish', and the last k - 1
/// positions of the padded input as the present state.
static LogicalResult expandCausalConvWithState(Expansion &x) {
  Emitter &e = x.e;
  Value in = x.in(0), weight = x.in(1), bias = x.in(2), past = x.in(3);
  Type et = x.et();
  StringRef activation = x.s("activation");
  if (activation != "none" && activation != "silu" && activation != "swish")
    return unsupported(x, "unknown activation '" + activation + "'");
  // The group of the Conv is an attribute: the channels must be known.
  int64_t channels = ShapedType::kDynamic;
  for (Value v : {in, weight})
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      if (t.getRank() == 3 && !t.isDynamicDim(v == in ? 1 : 0))
        channels = t.getDimSize(v == in ? 1 : 0);
  if (ShapedType::isDynamic(channels))
    return unsupported(x, "the number of channels is unknown");
  Value one1 = e.i64s({1});
  Value km1 = e.sub(e.shapeOf(weight, 2, 3), one1);
  if (!past) {
    Value shape = e.concat({e.shapeOf(in, 0, 1), e.shapeOf(in, 1, 2), km1}, 0);
    auto zeroAttr = DenseElementsAttr::get(RankedTensorType::get({1}, et),
                                           FloatAttr::get(et, 0.0));
    past = e.build1<ConstantOfShapeOp>({shape}, et,
                                       {x.b().getNamedAttr("value", zeroAttr)});
  }
  Value padded = e.concat({past, in}, 2);
  Value conv = e.build1<ConvOp>({padded, weight, bias}, et,
                                {e.attr("group", channels)}, {2});
  Value out = conv;
  if (activation != "none") {
    Value f = e.castTo(conv, Float32Type::get(e.getContext()));
    out = e.castTo(e.mul(f, e.unary<SigmoidOp>(f)), et);
  }
  Value padLen = e.shapeOf(padded, 2, 3);
  Value state =
      e.build1<SliceOp>({padded, e.sub(padLen, km1), padLen, e.i64s({2})}, et);
  x.results = {out, state};
  return success(!e.failed());
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// The expansion of ai.onnx operator `name`, or null.
//===--- Training optimizers (ai.onnx.preview.training) -------------------===//

/// The inputs of an optimizer: R, T, then `groups` lists of `n` tensors
/// (X..., G..., and the optimizer's state); n from the operand count.
struct OptimizerInputs {
  Value r, t;
  int64_t n = 0;
  SmallVector<Value> all;
  Value get(int64_t group, int64_t i) const { return all[group * n + i]; }
};

static std::optional<OptimizerInputs> optimizerInputs(Expansion &x,
                                                      int64_t groups) {
  Operation *op = x.ctx.getOp();
  int64_t count = (int64_t)op->getNumOperands() - 2;
  if (count < groups || count % groups ||
      (int64_t)op->getNumResults() != count / groups * (groups - 1))
    return std::nullopt;
  OptimizerInputs in;
  in.r = op->getOperand(0);
  in.t = op->getOperand(1);
  in.n = count / groups;
  for (Value v : op->getOperands().drop_front(2))
    in.all.push_back(v);
  return in;
}

/// norm_coefficient * X + G.
static Value emitRegularized(Emitter &e, Value xv, Value g, double norm) {
  Type et = elementTypeOf(xv);
  return e.add(e.mul(e.scalar(et, norm), xv), g);
}

/// Adagrad: r = R / (1 + T * decay_factor); G' = norm * X + G;
/// H_new = H + G'^2; X_new = X - r * G' / (sqrt(H_new) + epsilon).
static LogicalResult expandAdagrad(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 3);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., H... with one output "
                          "per X and H");
  double decay = x.f("decay_factor"), eps = x.f("epsilon"),
         norm = x.f("norm_coefficient");
  SmallVector<Value> xs, hs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), h = in->get(2, i);
    Type et = elementTypeOf(xv);
    Value t = e.castTo(in->t, et);
    Value r = e.div(e.castTo(in->r, et),
                    e.add(e.scalar(et, 1.0), e.mul(t, e.scalar(et, decay))));
    Value gr = emitRegularized(e, xv, g, norm);
    Value hNew = e.add(h, e.mul(gr, gr));
    Value hAdaptive = e.add(e.unary<SqrtOp>(hNew), e.scalar(et, eps));
    xs.push_back(e.sub(xv, e.div(e.mul(r, gr), hAdaptive)));
    hs.push_back(hNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(hs.begin(), hs.end());
  return success(!e.failed());
}

/// Adam: G' = norm * X + G; V_new = alpha V + (1 - alpha) G';
/// H_new = beta H + (1 - beta) G'^2; R' = T > 0 ? R sqrt(1 - beta^T) /
/// (1 - alpha^T) : R; X_new = (1 - norm_post) (X - R' V_new / (sqrt(H_new)
/// + epsilon)).
static LogicalResult expandAdam(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 4);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., V..., H... with one "
                          "output per X, V and H");
  double alpha = x.f("alpha"), beta = x.f("beta"), eps = x.f("epsilon"),
         norm = x.f("norm_coefficient"), post = x.f("norm_coefficient_post");
  SmallVector<Value> xs, vs, hs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), v = in->get(2, i),
          h = in->get(3, i);
    Type et = elementTypeOf(xv);
    Value one = e.scalar(et, 1.0);
    Value gr = emitRegularized(e, xv, g, norm);
    Value vNew = e.add(e.mul(e.scalar(et, alpha), v),
                       e.mul(e.scalar(et, 1.0 - alpha), gr));
    Value hNew = e.add(e.mul(e.scalar(et, beta), h),
                       e.mul(e.scalar(et, 1.0 - beta), e.mul(gr, gr)));
    Value hSqrt = e.add(e.unary<SqrtOp>(hNew), e.scalar(et, eps));
    Value t = e.castTo(in->t, et);
    Value r = e.castTo(in->r, et);
    Value adjusted =
        e.div(e.mul(r, e.unary<SqrtOp>(
                           e.sub(one, e.binary<PowOp>(e.scalar(et, beta), t)))),
              e.sub(one, e.binary<PowOp>(e.scalar(et, alpha), t)));
    Value positive =
        e.compare<GreaterOp>(in->t, e.scalar(elementTypeOf(in->t), 0.0));
    Value rAdj = e.where(positive, adjusted, r);
    Value xNew = e.sub(xv, e.mul(rAdj, e.div(vNew, hSqrt)));
    xs.push_back(e.mul(e.scalar(et, 1.0 - post), xNew));
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(vs.begin(), vs.end());
  x.results.append(hs.begin(), hs.end());
  return success(!e.failed());
}

/// Momentum: G' = norm * X + G; V_new = alpha V + (T > 0 ? beta : 1) G';
/// X_new = X - R V_new (standard) or X - R (G' + alpha V_new) (nesterov).
static LogicalResult expandMomentum(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 3);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., V... with one output "
                          "per X and V");
  std::optional<double> alpha = x.ctx.getFloatAttr("alpha"),
                        beta = x.ctx.getFloatAttr("beta"),
                        norm = x.ctx.getFloatAttr("norm_coefficient");
  std::optional<StringRef> mode = x.ctx.getStringAttr("mode");
  if (!alpha || !beta || !norm || !mode)
    return unsupported(x, "alpha, beta, mode and norm_coefficient are "
                          "required");
  if (*mode != "standard" && *mode != "nesterov")
    return unsupported(x, "mode '" + *mode +
                              "' is neither standard nor "
                              "nesterov");
  SmallVector<Value> xs, vs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), v = in->get(2, i);
    Type et = elementTypeOf(xv);
    Value gr = emitRegularized(e, xv, g, *norm);
    Value positive =
        e.compare<GreaterOp>(in->t, e.scalar(elementTypeOf(in->t), 0.0));
    Value betaAdj = e.where(positive, e.scalar(et, *beta), e.scalar(et, 1.0));
    Value vNew = e.add(e.mul(e.scalar(et, *alpha), v), e.mul(betaAdj, gr));
    Value r = e.castTo(in->r, et);
    Value step = *mode == "standard"
                     ? vNew
                     : e.add(gr, e.mul(e.scalar(et, *alpha), vNew));
    xs.push_back(e.sub(xv, e.mul(r, step)));
    vs.push_back(vNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(vs.begin(), vs.end());
  return success(!e.failed());
}

//===--- ai.onnx.preview --------------------------------------------------===//

/// The value a modifier subgraph (one tensor in, one out) computes from
/// `in`: its ops cloned with the argument replaced; null if the region is
/// empty (no modifier).
static Value inlineModifier(Expansion &x, Region &region, Value in) {
  if (region.empty())
    return in;
  Block &body = region.front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (body.getNumArguments() != 1 || !yield || yield->getNumOperands() != 1)
    return x.e.fail("a modifier subgraph must take and return one tensor"),
           Value();
  IRMapping map;
  map.map(body.getArgument(0), in);
  for (Operation &op : body.without_terminator())
    x.b().clone(op, map);
  return map.lookupOrDefault(yield->getOperand(0));
}

/// FlexAttention: Softmax((Q K^T) * scale, after score_mod) after prob_mod,
/// times V, in softmax_precision (f32, or f64 for f64 inputs); K and V
/// heads repeated for grouped queries.
static LogicalResult expandFlexAttention(Expansion &x) {
  Emitter &e = x.e;
  MLIRContext *ctx = e.getContext();
  auto op = cast<PreviewFlexAttentionOp>(x.ctx.getOp());
  Type t = x.et(), i64 = IntegerType::get(ctx, 64);
  Value q = x.in(0), k = x.in(1), v = x.in(2);
  if (!isFloat(t) || x.et(1) != t || x.et(2) != t)
    return unsupported(x, "Q, K and V are not float tensors of one type");
  if (rankOf(q) != 4 || rankOf(k) != 4 || rankOf(v) != 4)
    return unsupported(x, "Q, K and V must be 4-D");
  Type p = t.isF64() ? Type(Float64Type::get(ctx)) : Float32Type::get(ctx);
  if (x.ctx.hasAttr("softmax_precision")) {
    p = x.ctx.getDataTypeAttr("softmax_precision");
    if (!isFloat(p))
      return unsupported(x, "softmax_precision is not a float type");
  }
  Value qp = e.castTo(q, p), kp = e.castTo(k, p), vp = e.castTo(v, p);
  Value batch = e.shapeOf(q, 0, 1), qHeads = e.shapeOf(q, 1, 2);
  Value kvHeads = e.shapeOf(k, 1, 2), kvLen = e.shapeOf(k, 2, 3);
  Value headSize = e.shapeOf(q, 3, 4), vHeadSize = e.shapeOf(v, 3, 4);
  // Query head h reads K/V head h / (q_num_heads / kv_num_heads).
  Value group = e.castTo(e.div(qHeads, kvHeads), i64);
  auto repeatHeads = [&](Value kv, Value size) {
    Value shape5 = e.concat({batch, kvHeads, group, kvLen, size}, 0);
    Value expanded =
        e.build1<ExpandOp>({e.unsqueeze(kv, {2}), shape5}, elementTypeOf(kv));
    return e.reshape(expanded, e.concat({batch, qHeads, kvLen, size}, 0));
  };
  Value kAttn = repeatHeads(kp, headSize), vAttn = repeatHeads(vp, vHeadSize);
  Value scale;
  if (std::optional<double> s = x.ctx.getFloatAttr("scale"))
    scale = e.scalar(p, *s);
  else
    scale =
        e.div(e.scalar(p, 1.0, {1}), e.unary<SqrtOp>(e.castTo(headSize, p)));
  Value scores = e.mul(
      e.build1<MatMulOp>({qp, e.transpose(kAttn, {0, 1, 3, 2})}, p), scale);
  scores = inlineModifier(x, op.getScoreMod(), scores);
  Value probs = emitSoftmax(e, scores, 3, /*log=*/false);
  probs = inlineModifier(x, op.getProbMod(), probs);
  Value y = e.build1<MatMulOp>({probs, vAttn}, p);
  x.results = {e.castTo(y, t)};
  return success(!e.failed());
}

//===--- ai.onnx.ml -------------------------------------------------------===//

/// Binarizer: X > threshold as 1 or 0 of X's type.
static LogicalResult expandBinarizer(Expansion &x) {
  Emitter &e = x.e;
  Type et = x.et();
  if (!et)
    return unsupported(x, "unknown element type");
  Value above = e.compare<GreaterOp>(x.in(0), e.scalar(et, x.f("threshold")));
  x.results = {e.castTo(above, et)};
  return success(!e.failed());
}

/// ArrayFeatureExtractor: Gather of the flattened indices along the last
/// axis; a 1-D X gives a [1, n] result.
static LogicalResult expandArrayFeatureExtractor(Expansion &x) {
  Emitter &e = x.e;
  std::optional<int64_t> rank = rankOf(x.in(0));
  if (!rank || *rank < 1 || !x.et())
    return unsupported(x, "X needs a known rank of at least 1");
  Value flat = e.reshape(x.in(1), e.i64s({-1}));
  Value out =
      e.build1<GatherOp>({x.in(0), flat}, x.et(), {e.attr("axis", *rank - 1)});
  if (*rank == 1)
    out = e.unsqueeze(out, {0});
  x.results = {out};
  return success(!e.failed());
}

namespace {
/// The expansions by operator.
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
} // namespace

const ExpansionRegistry &ExpansionRegistry::get() {
  static const ExpansionRegistry registry = [] {
    ExpansionRegistry r;
    r.add<SoftsignOp, SoftplusOp, HardSigmoidOp, HardSwishOp, MishOp, EluOp,
          CeluOp, SeluOp, LeakyReluOp, ThresholdedReluOp, ShrinkOp, SwishOp,
          PReluOp, GeluOp>(expandElementwise);
    r.add<ReduceLogSumOp, ReduceLogSumExpOp, ReduceL1Op, ReduceL2Op,
          ReduceSumSquareOp>(expandReduce);
    r.add<HannWindowOp, HammingWindowOp, BlackmanWindowOp>(expandWindow);
    r.add<SoftmaxOp>([](Expansion &x) { return expandSoftmax(x, false); });
    r.add<LogSoftmaxOp>([](Expansion &x) { return expandSoftmax(x, true); });
    r.add<ClipOp>(expandClip);
    r.add<CastLikeOp>(expandCastLike);
    r.add<RangeOp>(expandRange);
    r.add<LayerNormalizationOp>(
        [](Expansion &x) { return expandLayerNorm(x, false); });
    r.add<RMSNormalizationOp>(
        [](Expansion &x) { return expandLayerNorm(x, true); });
    r.add<GroupNormalizationOp>(expandGroupNorm);
    r.add<MeanVarianceNormalizationOp>(expandMVN);
    r.add<DynamicQuantizeLinearOp>(expandDynamicQuantizeLinear);
    r.add<BernoulliOp>(expandBernoulli);
    r.add<CenterCropPadOp>(expandCenterCropPad);
    r.add<NegativeLogLikelihoodLossOp>(expandNLL);
    r.add<SoftmaxCrossEntropyLossOp>(expandSCE);
    r.add<AffineGridOp>(expandAffineGrid);
    r.add<AttentionOp>(expandAttention);
    r.add<RotaryEmbeddingOp>(expandRotaryEmbedding);
    r.add<CausalConvWithStateOp>(expandCausalConvWithState);
    r.add<MLBinarizerOp>(expandBinarizer);
    r.add<MLArrayFeatureExtractorOp>(expandArrayFeatureExtractor);
    r.add<PreviewTrainingAdagradOp>(expandAdagrad);
    r.add<PreviewTrainingAdamOp>(expandAdam);
    r.add<PreviewTrainingMomentumOp>(expandMomentum);
    r.add<PreviewFlexAttentionOp>(expandFlexAttention);
    return r;
  }();
  return registry;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static std::optional<int64_t> aiOnnxOpset(DictionaryAttr opsets) {
  if (!opsets)
    return std::nullopt;
  auto v = opsets.getAs<IntegerAttr>("ai.onnx");
  if (!v)
    v = opsets.getAs<IntegerAttr>("");
  if (!v)
    return std::nullopt;
  return v.getInt();
}

/// The ai.onnx opset that governs `op`: that of its model-local function if
/// it is in one and the function imports ai.onnx, else the module's, else
/// the newest.
static int64_t opsetFor(Operation *op, ModuleOp module, int64_t deflt) {
  if (auto func = op->getParentOfType<func::FuncOp>())
    if (auto info = func->getAttrOfType<DictionaryAttr>("onnx.function"))
      if (std::optional<int64_t> v =
              aiOnnxOpset(info.getAs<DictionaryAttr>("opset_import")))
        return *v;
  if (std::optional<int64_t> v = aiOnnxOpset(
          module->getAttrOfType<DictionaryAttr>("onnx.opset_import")))
    return *v;
  return deflt;
}

namespace {
struct DecomposePass
    : public mlir::onnx::impl::ONNXDecomposeBase<DecomposePass> {
  using Base::Base;
  void runOnOperation() override;
  /// Expands `op`; on failure leaves it alone and says why in `why`.
  LogicalResult decompose(Operation *op, const ExpandFn &fn, int64_t opset,
                          std::string &why);
};
} // namespace

LogicalResult DecomposePass::decompose(Operation *op, const ExpandFn &fn,
                                       int64_t opset, std::string &why) {
  if (op->hasAttr(getAttrRefsAttrName())) {
    why = "an attribute refers to a function parameter";
    return failure();
  }
  // Every input and output must be a tensor of a known element type.
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!isa<TensorType>(t)) {
      why = "a value is not a tensor of a known element type";
      return failure();
    }

  OpBuilder b(op);
  CreatedOps created;
  b.setListener(&created);
  Emitter e(b, op->getLoc(), opset);
  InferenceContext ctx(op);
  Expansion x{ctx, e, {}};
  LogicalResult result = failure();
  {
    // Diagnostics of ops that do not verify say why an expansion failed;
    // they are not errors of the input.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    result = fn(x);
  }
  if (succeeded(result) && e.failed())
    result = failure();
  // The expansion gives every produced output slot a value of its type.
  SmallVector<std::pair<Value, Value>> replace;
  if (succeeded(result)) {
    for (unsigned i = 0, n = ctx.getNumOutputs(); i < n; ++i) {
      Value old = ctx.getOutput(i);
      if (!old)
        continue;
      Value nv = i < x.results.size() ? x.results[i] : Value();
      if (!nv) {
        e.fail("output " + Twine(i) + " has no value");
        result = failure();
        break;
      }
      if (failed(refineType(old.getType(), nv.getType()))) {
        e.fail("output " + Twine(i) + " would change its type");
        result = failure();
        break;
      }
      replace.push_back({old, nv});
    }
  }
  if (failed(result)) {
    why = e.getWhy().empty() ? "the expansion failed" : e.getWhy().str();
    for (Operation *c : llvm::reverse(created.ops)) {
      c->dropAllUses();
      c->erase();
    }
    return failure();
  }
  // Keep the declared output types (the signature of the graph must not
  // change): the op that defines a result takes it, or an Identity.
  b.setListener(nullptr);
  for (auto &[old, nv] : replace) {
    if (nv.getType() != old.getType()) {
      Operation *def = nv.getDefiningOp();
      if (def && llvm::is_contained(created.ops, def) &&
          !def->hasTrait<OpTrait::ConstantLike>() &&
          !isOperator<ConstantOp>(
              cast<ONNXSchemaOpInterface>(def).getSchema())) {
        nv.setType(old.getType());
      } else {
        FailureOr<Operation *> id =
            createSchemaOp(b, op->getLoc(), Operator::of<IdentityOp>(), opset,
                           {nv}, {old.getType()}, {});
        if (succeeded(id))
          nv = (*id)->getResult(0);
      }
    }
    old.replaceAllUsesWith(nv);
  }
  op->erase();
  return success();
}

void DecomposePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  int64_t newest = getNewestOpset(ctx);
  llvm::StringSet<> only;
  for (const std::string &name : ops)
    only.insert(name);

  SmallVector<std::pair<Operation *, ExpandFn>> work;
  module.walk([&](Operation *op) {
    auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
    if (!iface)
      return;
    const OpSchema &schema = iface.getSchema();
    if (!only.empty() && !only.contains(schema.name))
      return;
    if (const ExpandFn *fn = ExpansionRegistry::get().lookup(Operator(schema)))
      work.push_back({op, *fn});
  });
  bool addedOnnxOps = false;
  for (auto &[op, fn] : work) {
    std::string why;
    StringRef name = cast<ONNXSchemaOpInterface>(op).getSchema().name;
    int64_t opset = opsetFor(op, module, newest);
    if (failed(decompose(op, fn, opset, why)))
      op->emitRemark() << "not decomposed: " << name << " at opset " << opset
                       << ": " << why;
    else
      addedOnnxOps = true;
  }
  // A model that imported only another domain (the training optimizers,
  // ai.onnx.ml) now uses ai.onnx ops at the newest opset: import it.
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  if (addedOnnxOps && opsets && !aiOnnxOpset(opsets)) {
    NamedAttrList list(opsets);
    list.set("ai.onnx", IntegerAttr::get(IntegerType::get(ctx, 64), newest));
    module->setAttr("onnx.opset_import", list.getDictionary(ctx));
  }
}
