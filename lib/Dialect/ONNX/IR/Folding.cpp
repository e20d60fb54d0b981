//===- Folding.cpp - Folding of onnx ops ----------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Evaluates ops on small constant tensors (integers up to 64 bits, bool and
// floating point) and removes ops that do nothing. Floating point results
// are computed in double and rounded once to the element type, which gives
// the correctly rounded result for the operations folded here (+, -, *, /,
// sqrt on types of at most 24 significand bits; exact for f64).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXFolding.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOperator.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

#include "mlir/IR/BuiltinOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::onnx;

namespace {
/// A constant tensor being folded.
struct Const {
  SmallVector<int64_t> shape;
  Type elementType;
  /// Integers (and bool) in `ints`, floating point in `floats`.
  bool isFloat = false;
  SmallVector<int64_t> ints;
  SmallVector<double> floats;

  int64_t size() const { return isFloat ? floats.size() : ints.size(); }
  double at(int64_t i) const { return isFloat ? floats[i] : ints[i]; }
  /// Appends element `i` of `src`, which has this constant's element type.
  void append(const Const &src, int64_t i) {
    if (isFloat)
      floats.push_back(src.floats[i]);
    else
      ints.push_back(src.ints[i]);
  }
};
} // namespace

static bool isFoldableElementType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() <= 64;
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

/// The element count of `shape`; INT64_MAX when it overflows (more than
/// any fold takes).
static int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(n, d, n))
      return std::numeric_limits<int64_t>::max();
  return n;
}

/// Wraps an integer to the width and signedness of `type`.
static int64_t wrapInt(int64_t v, Type type) {
  auto it = cast<IntegerType>(type);
  unsigned w = it.getWidth();
  if (w == 1)
    return v != 0;
  if (w >= 64)
    return v;
  APInt a(64, static_cast<uint64_t>(v), /*isSigned=*/true);
  APInt t = a.trunc(w);
  return it.isUnsigned() ? static_cast<int64_t>(t.getZExtValue())
                         : t.getSExtValue();
}

static std::optional<Const> readConst(const InferenceContext &ctx,
                                      unsigned slot) {
  ElementsAttr attr = ctx.getConstantInput(slot);
  if (!attr)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape() ||
      !isFoldableElementType(type.getElementType()) ||
      type.getNumElements() > kFoldElementLimit)
    return std::nullopt;
  Const c;
  c.shape.assign(type.getShape().begin(), type.getShape().end());
  c.elementType = type.getElementType();
  c.isFloat = isa<FloatType>(c.elementType);
  if (c.isFloat) {
    auto values = ctx.getConstantFloats(slot);
    if (!values)
      return std::nullopt;
    c.floats = std::move(*values);
  } else {
    auto values = ctx.getConstantInts(slot);
    if (!values)
      return std::nullopt;
    c.ints = std::move(*values);
  }
  if (c.size() != product(c.shape))
    return std::nullopt;
  return c;
}

static DenseElementsAttr toAttr(const Const &c) {
  auto type = RankedTensorType::get(c.shape, c.elementType);
  if (c.isFloat) {
    auto ft = cast<FloatType>(c.elementType);
    SmallVector<APFloat> values;
    for (double d : c.floats) {
      APFloat v(d);
      bool lost;
      v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned w = cast<IntegerType>(c.elementType).getWidth();
  if (w == 1) {
    SmallVector<bool> values;
    for (int64_t v : c.ints)
      values.push_back(v != 0);
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<APInt> values;
  for (int64_t v : c.ints)
    values.push_back(APInt(w, static_cast<uint64_t>(v), /*isSigned=*/true));
  return DenseElementsAttr::get(type, values);
}

/// The index into a (broadcast) input of the output element `linear`.
static int64_t broadcastIndex(int64_t linear, ArrayRef<int64_t> out,
                              ArrayRef<int64_t> in) {
  int64_t index = 0, stride = 1;
  size_t offset = out.size() - in.size();
  for (int64_t d = out.size() - 1; d >= 0; --d) {
    int64_t coord = linear % out[d];
    linear /= out[d];
    if (d >= static_cast<int64_t>(offset)) {
      int64_t size = in[d - offset];
      if (size != 1)
        index += coord * stride;
      stride *= size;
    }
  }
  return index;
}

static std::optional<SmallVector<int64_t>>
broadcastStatic(ArrayRef<ArrayRef<int64_t>> shapes) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> out(rank, 1);
  for (ArrayRef<int64_t> s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &o = out[rank - s.size() + i];
      if (s[i] == 1)
        continue;
      if (o != 1 && o != s[i])
        return std::nullopt;
      o = s[i];
    }
  return out;
}

//===----------------------------------------------------------------------===//
// Evaluation of one op
//===----------------------------------------------------------------------===//

namespace {
/// The elementwise operators that fold: binary ones (Max/Min variadic) and
/// unary ones.
enum class Binary {
  Add,
  Sub,
  Mul,
  Div,
  Max,
  Min,
  Equal,
  Less,
  Greater,
  LessOrEqual,
  GreaterOrEqual,
  And,
  Or,
  Xor,
  /// Mod with fmod = 0 (integers: the remainder takes the divisor's sign).
  Mod,
  /// Mod with fmod = 1 (the remainder takes the dividend's sign, as C's).
  FMod
};
enum class Unary { Neg, Abs, Not, Sqrt, Floor, Ceil, Relu, Sign, Reciprocal };

std::optional<Binary> binaryOf(const OpSchema &schema) {
  return OperatorSwitch<Binary>(schema)
      .Case<AddOp>(Binary::Add)
      .Case<SubOp>(Binary::Sub)
      .Case<MulOp>(Binary::Mul)
      .Case<DivOp>(Binary::Div)
      .Case<MaxOp>(Binary::Max)
      .Case<MinOp>(Binary::Min)
      .Case<EqualOp>(Binary::Equal)
      .Case<LessOp>(Binary::Less)
      .Case<GreaterOp>(Binary::Greater)
      .Case<LessOrEqualOp>(Binary::LessOrEqual)
      .Case<GreaterOrEqualOp>(Binary::GreaterOrEqual)
      .Case<AndOp>(Binary::And)
      .Case<OrOp>(Binary::Or)
      .Case<XorOp>(Binary::Xor);
}

std::optional<Unary> unaryOf(const OpSchema &schema) {
  return OperatorSwitch<Unary>(schema)
      .Case<NegOp>(Unary::Neg)
      .Case<AbsOp>(Unary::Abs)
      .Case<NotOp>(Unary::Not)
      .Case<SqrtOp>(Unary::Sqrt)
      .Case<FloorOp>(Unary::Floor)
      .Case<CeilOp>(Unary::Ceil)
      .Case<ReluOp>(Unary::Relu)
      .Case<SignOp>(Unary::Sign)
      .Case<ReciprocalOp>(Unary::Reciprocal);
}

class Evaluator {
public:
  Evaluator(InferenceContext &ctx) : ctx(ctx) {}
  /// The folded value of output 0, or empty.
  std::optional<Const> evaluate();
  /// An input value that output 0 equals, or null.
  Value forward();

private:
  std::optional<Const> binary(Binary kind);
  std::optional<Const> unary(Unary kind);
  std::optional<Const> cast(Type to);
  std::optional<Const> gather();
  std::optional<Const> gatherOfShape();
  std::optional<Const> slice();
  std::optional<Const> concat();
  std::optional<Const> transpose();
  std::optional<Const> range();
  std::optional<Const> where();
  /// Output 0's static shape, if its type has one.
  std::optional<SmallVector<int64_t>> resultShape() {
    auto t = dyn_cast_or_null<RankedTensorType>(
        ctx.hasOutput(0) ? ctx.getOutput(0).getType() : Type());
    if (!t || !t.hasStaticShape())
      return std::nullopt;
    return SmallVector<int64_t>(t.getShape());
  }

  InferenceContext &ctx;
};
} // namespace

Value Evaluator::forward() {
  const OpSchema &schema = ctx.getSchema();
  Value in = ctx.getInput(0);
  if (!in || !ctx.hasOutput(0))
    return {};
  Type outType = ctx.getOutput(0).getType();
  if (isOperator<IdentityOp>(schema))
    return in;
  auto inTensor = dyn_cast<RankedTensorType>(in.getType());
  if (isOperator<CastOp, CastLikeOp>(schema)) {
    Type to = isOperator<CastOp>(schema) ? ctx.getDataTypeAttr("to")
                                         : ctx.getInputElementType(1);
    auto t = dyn_cast<TensorType>(in.getType());
    if (t && to && t.getElementType() == to)
      return in;
    return {};
  }
  if (isOperator<ReshapeOp, SqueezeOp, UnsqueezeOp, FlattenOp>(schema) &&
      inTensor && inTensor.hasStaticShape() && inTensor == outType)
    return in;
  if (isOperator<TransposeOp>(schema) && inTensor) {
    std::optional<SmallVector<int64_t>> perm = ctx.getIntsAttr("perm");
    int64_t rank = inTensor.getRank();
    bool identity = true;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t p =
          perm ? (i < static_cast<int64_t>(perm->size()) ? (*perm)[i] : -1)
               : rank - 1 - i;
      identity &= p == i;
    }
    if (identity && (!perm || static_cast<int64_t>(perm->size()) == rank))
      return in;
  }
  return {};
}

std::optional<Const> Evaluator::evaluate() {
  const OpSchema &schema = ctx.getSchema();
  if (*ctx.getSchema().domain || ctx.getNumOutputs() < 1 || !ctx.hasOutput(0))
    return std::nullopt;
  Builder b(ctx.getContext());

  if (isOperator<ShapeOp, SizeOp>(schema)) {
    auto t = dyn_cast_or_null<RankedTensorType>(ctx.getInputType(0));
    if (!t)
      return std::nullopt;
    int64_t rank = t.getRank();
    Const c;
    c.elementType = b.getI64Type();
    if (isOperator<SizeOp>(schema)) {
      if (!t.hasStaticShape())
        return std::nullopt;
      c.ints.push_back(t.getNumElements());
      return c;
    }
    int64_t start = ctx.getIntAttrOrDefault("start");
    int64_t end = ctx.getIntAttr("end").value_or(rank);
    auto clampAxis = [&](int64_t a) {
      if (a < 0)
        a += rank;
      return std::clamp<int64_t>(a, 0, rank);
    };
    start = clampAxis(start);
    end = clampAxis(end);
    for (int64_t d = start; d < end; ++d) {
      if (ShapedType::isDynamic(t.getDimSize(d)))
        return std::nullopt;
      c.ints.push_back(t.getDimSize(d));
    }
    c.shape = {static_cast<int64_t>(c.ints.size())};
    return c;
  }
  if (isOperator<ConstantOfShapeOp>(schema)) {
    std::optional<SmallVector<int64_t>> shape = ctx.getConstantInts(0);
    if (!shape || llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
      return std::nullopt;
    Const c;
    c.shape = *shape;
    c.elementType = b.getF32Type();
    c.isFloat = true;
    double value = 0;
    if (auto attr = dyn_cast_or_null<DenseElementsAttr>(ctx.getAttr("value"))) {
      if (attr.getNumElements() != 1 ||
          !isFoldableElementType(attr.getElementType()))
        return std::nullopt;
      c.elementType = attr.getElementType();
      c.isFloat = isa<FloatType>(c.elementType);
      if (c.isFloat)
        value = (*attr.value_begin<APFloat>()).convertToDouble();
      else
        value = static_cast<double>(
            c.elementType.isInteger(1) || c.elementType.isUnsignedInteger()
                ? (*attr.value_begin<APInt>()).getZExtValue()
                : (*attr.value_begin<APInt>()).getSExtValue());
    }
    int64_t n = product(c.shape);
    if (n > kFoldElementLimit)
      return std::nullopt;
    if (c.isFloat)
      c.floats.assign(n, value);
    else
      c.ints.assign(n, static_cast<int64_t>(value));
    return c;
  }
  if (isOperator<RangeOp>(schema))
    return range();
  if (isOperator<CastOp>(schema))
    return cast(ctx.getDataTypeAttr("to"));
  if (isOperator<CastLikeOp>(schema))
    return cast(ctx.getInputElementType(1));
  if (isOperator<ReshapeOp, SqueezeOp, UnsqueezeOp, FlattenOp, IdentityOp>(
          schema)) {
    std::optional<Const> in = readConst(ctx, 0);
    std::optional<SmallVector<int64_t>> shape = resultShape();
    if (!in || !shape || product(*shape) != in->size())
      return std::nullopt;
    in->shape = *shape;
    return in;
  }
  if (isOperator<GatherOp>(schema)) {
    if (std::optional<Const> c = gather())
      return c;
    return gatherOfShape();
  }
  if (isOperator<SliceOp>(schema))
    return slice();
  if (isOperator<ConcatOp>(schema))
    return concat();
  if (isOperator<TransposeOp>(schema))
    return transpose();
  if (isOperator<WhereOp>(schema))
    return where();
  if (isOperator<ModOp>(schema)) {
    // 64-bit unsigned values at or over 2^63 are negative in `ints`.
    Type et = ctx.getInputElementType(0);
    if (!et || et.isUnsignedInteger(64))
      return std::nullopt;
    return binary(ctx.getIntAttrOrDefault("fmod") ? Binary::FMod : Binary::Mod);
  }
  if (std::optional<Binary> kind = binaryOf(schema))
    return binary(*kind);
  if (std::optional<Unary> kind = unaryOf(schema))
    return unary(*kind);
  return std::nullopt;
}

/// `acc op y` for the comparisons (1 or 0), on either kind of element;
/// empty for the other operators.
template <typename T>
static std::optional<T> applyCompare(Binary kind, T acc, T y) {
  switch (kind) {
  case Binary::Equal:
    return acc == y;
  case Binary::Less:
    return acc < y;
  case Binary::Greater:
    return acc > y;
  case Binary::LessOrEqual:
    return acc <= y;
  case Binary::GreaterOrEqual:
    return acc >= y;
  default:
    return std::nullopt;
  }
}

/// `acc op y` on doubles; empty for the logical operators.
static std::optional<double> applyFloat(Binary kind, double acc, double y) {
  if (std::optional<double> c = applyCompare(kind, acc, y))
    return c;
  switch (kind) {
  case Binary::Add:
    return acc + y;
  case Binary::Sub:
    return acc - y;
  case Binary::Mul:
    return acc * y;
  case Binary::Div:
    return acc / y;
  case Binary::Max:
    return (std::isnan(acc) || std::isnan(y)) ? NAN : std::max(acc, y);
  case Binary::Min:
    return (std::isnan(acc) || std::isnan(y)) ? NAN : std::min(acc, y);
  case Binary::FMod:
    return std::fmod(acc, y);
  default: // the logical operators and integer Mod (fmod = 0 is for
           // integers only); the comparisons are applyCompare's
    break;
  }
  return std::nullopt;
}

/// `acc op y` on integers; empty where the result overflows or depends on a
/// rounding rule.
static std::optional<int64_t> applyInt(Binary kind, int64_t acc, int64_t y) {
  if (std::optional<int64_t> c = applyCompare(kind, acc, y))
    return c;
  int64_t r;
  switch (kind) {
  case Binary::Add:
    if (llvm::AddOverflow(acc, y, r))
      return std::nullopt;
    return r;
  case Binary::Sub:
    if (llvm::SubOverflow(acc, y, r))
      return std::nullopt;
    return r;
  case Binary::Mul:
    if (llvm::MulOverflow(acc, y, r))
      return std::nullopt;
    return r;
  case Binary::Div:
    // Integer division of non-negative operands is the same under every
    // rounding rule; the rest is left to run time.
    if (y <= 0 || acc < 0)
      return std::nullopt;
    return acc / y;
  case Binary::Max:
    return std::max(acc, y);
  case Binary::Min:
    return std::min(acc, y);
  case Binary::And:
    return (acc != 0) && (y != 0);
  case Binary::Or:
    return (acc != 0) || (y != 0);
  case Binary::Xor:
    return (acc != 0) != (y != 0);
  case Binary::Mod:
  case Binary::FMod:
    if (y == 0)
      return std::nullopt; // left to run time, which reports it
    if (y == -1)
      return 0; // INT64_MIN % -1 overflows in C++
    r = acc % y;
    if (kind == Binary::Mod && r != 0 && (r < 0) != (y < 0))
      r += y;
    return r;
  default: // the comparisons: applyCompare's
    break;
  }
  return std::nullopt;
}

std::optional<Const> Evaluator::binary(Binary kind) {
  if (kind != Binary::Max && kind != Binary::Min && ctx.getNumInputs() != 2)
    return std::nullopt;
  SmallVector<Const> ins;
  for (unsigned i = 0, e = ctx.getNumInputs(); i < e; ++i) {
    std::optional<Const> c = readConst(ctx, i);
    if (!c)
      return std::nullopt;
    ins.push_back(std::move(*c));
  }
  if (ins.empty())
    return std::nullopt;
  for (const Const &c : ins)
    if (c.elementType != ins[0].elementType)
      return std::nullopt;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (const Const &c : ins)
    shapes.push_back(c.shape);
  std::optional<SmallVector<int64_t>> outShape = broadcastStatic(shapes);
  if (!outShape || product(*outShape) > kFoldElementLimit)
    return std::nullopt;
  bool compare = kind == Binary::Equal || kind == Binary::Less ||
                 kind == Binary::Greater || kind == Binary::LessOrEqual ||
                 kind == Binary::GreaterOrEqual;
  Const out;
  out.shape = *outShape;
  out.elementType =
      compare ? IntegerType::get(ctx.getContext(), 1) : ins[0].elementType;
  out.isFloat = !compare && ins[0].isFloat;
  bool isFloat = ins[0].isFloat;
  int64_t n = product(out.shape);
  for (int64_t i = 0; i < n; ++i) {
    if (isFloat) {
      double acc = ins[0].floats[broadcastIndex(i, out.shape, ins[0].shape)];
      for (size_t k = 1; k < ins.size(); ++k) {
        double y = ins[k].floats[broadcastIndex(i, out.shape, ins[k].shape)];
        std::optional<double> r = applyFloat(kind, acc, y);
        if (!r)
          return std::nullopt;
        acc = *r;
      }
      if (compare)
        out.ints.push_back(acc != 0);
      else
        out.floats.push_back(acc);
      continue;
    }
    int64_t acc = ins[0].ints[broadcastIndex(i, out.shape, ins[0].shape)];
    for (size_t k = 1; k < ins.size(); ++k) {
      int64_t y = ins[k].ints[broadcastIndex(i, out.shape, ins[k].shape)];
      std::optional<int64_t> r = applyInt(kind, acc, y);
      if (!r)
        return std::nullopt;
      acc = *r;
    }
    out.ints.push_back(compare ? acc : wrapInt(acc, out.elementType));
  }
  return out;
}

/// `op x` on doubles; empty for Not.
static std::optional<double> applyFloat(Unary kind, double x) {
  switch (kind) {
  case Unary::Neg:
    return -x;
  case Unary::Abs:
    return std::fabs(x);
  case Unary::Sqrt:
    return std::sqrt(x);
  case Unary::Floor:
    return std::floor(x);
  case Unary::Ceil:
    return std::ceil(x);
  case Unary::Relu:
    return x > 0 ? x : 0.0;
  case Unary::Sign:
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
  case Unary::Reciprocal:
    return 1.0 / x;
  case Unary::Not:
    break;
  }
  return std::nullopt;
}

/// `op x` on integers; empty where integers have no such op.
static std::optional<int64_t> applyInt(Unary kind, int64_t x) {
  switch (kind) {
  case Unary::Neg:
    return -x;
  case Unary::Abs:
    return x < 0 ? -x : x;
  case Unary::Not:
    return x == 0;
  case Unary::Relu:
    return x > 0 ? x : 0;
  case Unary::Sign:
    return x > 0 ? 1 : (x < 0 ? -1 : 0);
  case Unary::Floor:
  case Unary::Ceil:
    return x;
  case Unary::Sqrt:
  case Unary::Reciprocal:
    break;
  }
  return std::nullopt;
}

std::optional<Const> Evaluator::unary(Unary kind) {
  std::optional<Const> in = readConst(ctx, 0);
  if (!in)
    return std::nullopt;
  Const out = *in;
  for (int64_t i = 0, n = in->size(); i < n; ++i) {
    if (in->isFloat) {
      std::optional<double> r = applyFloat(kind, in->floats[i]);
      if (!r)
        return std::nullopt;
      out.floats[i] = *r;
      continue;
    }
    std::optional<int64_t> r = applyInt(kind, in->ints[i]);
    if (!r)
      return std::nullopt;
    out.ints[i] = wrapInt(*r, out.elementType);
  }
  return out;
}

std::optional<Const> Evaluator::cast(Type to) {
  std::optional<Const> in = readConst(ctx, 0);
  if (!in || !to || !isFoldableElementType(to))
    return std::nullopt;
  // Cast-19+ saturate only matters for float8 targets, not folded here.
  Const out;
  out.shape = in->shape;
  out.elementType = to;
  out.isFloat = isa<FloatType>(to);
  for (int64_t i = 0, n = in->size(); i < n; ++i) {
    if (out.isFloat) {
      out.floats.push_back(in->at(i));
      continue;
    }
    if (in->isFloat) {
      double x = in->floats[i];
      if (to.isInteger(1)) {
        out.ints.push_back(x != 0);
        continue;
      }
      // Only integral values in range convert the same on every target.
      if (std::isnan(x) || x != std::trunc(x) || std::fabs(x) > 9.0e15)
        return std::nullopt;
      int64_t v = static_cast<int64_t>(x);
      if (wrapInt(v, to) != v)
        return std::nullopt;
      out.ints.push_back(v);
      continue;
    }
    out.ints.push_back(to.isInteger(1) ? in->ints[i] != 0
                                       : wrapInt(in->ints[i], to));
  }
  return out;
}

std::optional<Const> Evaluator::gather() {
  std::optional<Const> data = readConst(ctx, 0), indices = readConst(ctx, 1);
  if (!data || !indices || indices->isFloat || data->shape.empty())
    return std::nullopt;
  int64_t rank = data->shape.size();
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getIntAttrOrDefault("axis"), rank);
  if (!axis)
    return std::nullopt;
  int64_t axisSize = data->shape[*axis];
  Const out;
  out.elementType = data->elementType;
  out.isFloat = data->isFloat;
  out.shape.assign(data->shape.begin(), data->shape.begin() + *axis);
  out.shape.append(indices->shape.begin(), indices->shape.end());
  out.shape.append(data->shape.begin() + *axis + 1, data->shape.end());
  if (product(out.shape) > kFoldElementLimit)
    return std::nullopt;
  int64_t outer = product(ArrayRef<int64_t>(data->shape).take_front(*axis));
  int64_t inner = product(ArrayRef<int64_t>(data->shape).drop_front(*axis + 1));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t idx : indices->ints) {
      if (idx < -axisSize || idx >= axisSize)
        return std::nullopt;
      if (idx < 0)
        idx += axisSize;
      for (int64_t k = 0; k < inner; ++k) {
        int64_t src = (o * axisSize + idx) * inner + k;
        out.append(*data, src);
      }
    }
  return out;
}

/// Gather(Shape(x), constant indices) when the dims it picks are static,
/// even where other dims of x are not: torch.onnx.export writes
/// x.squeeze(d) as If(Shape(x)[d] == 1) with Squeeze and Identity branches.
std::optional<Const> Evaluator::gatherOfShape() {
  Value data = ctx.getInput(0);
  Operation *def = data ? data.getDefiningOp() : nullptr;
  auto shapeOp = dyn_cast_or_null<ONNXSchemaOpInterface>(def);
  if (!shapeOp || !isOperator<ShapeOp>(shapeOp.getSchema()) ||
      def->getNumOperands() != 1)
    return std::nullopt;
  auto t = dyn_cast<RankedTensorType>(def->getOperand(0).getType());
  std::optional<Const> indices = readConst(ctx, 1);
  if (!t || !indices || indices->isFloat)
    return std::nullopt;
  int64_t rank = t.getRank();
  auto bound = [&](StringRef name, int64_t absent) {
    auto attr = def->getAttrOfType<IntegerAttr>(name);
    int64_t a = attr ? attr.getInt() : absent;
    if (a < 0)
      a += rank;
    return std::clamp<int64_t>(a, 0, rank);
  };
  int64_t start = bound("start", 0), end = bound("end", rank);
  int64_t length = std::max<int64_t>(end - start, 0);
  Const out;
  out.elementType = Builder(ctx.getContext()).getI64Type();
  out.shape = indices->shape;
  for (int64_t idx : indices->ints) {
    if (idx < -length || idx >= length)
      return std::nullopt;
    if (idx < 0)
      idx += length;
    int64_t size = t.getDimSize(start + idx);
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    out.ints.push_back(size);
  }
  return out;
}

std::optional<Const> Evaluator::slice() {
  std::optional<Const> data = readConst(ctx, 0);
  if (!data)
    return std::nullopt;
  int64_t rank = data->shape.size();
  std::optional<SmallVector<int64_t>> starts = ctx.getIntsInputOrAttr("starts");
  std::optional<SmallVector<int64_t>> ends = ctx.getIntsInputOrAttr("ends");
  if (!starts || !ends || starts->size() != ends->size())
    return std::nullopt;
  bool hasAxes = false, hasSteps = false;
  std::optional<SmallVector<int64_t>> axes =
      ctx.getIntsInputOrAttr("axes", &hasAxes);
  std::optional<SmallVector<int64_t>> steps =
      ctx.getIntsInputOrAttr("steps", &hasSteps);
  if ((hasAxes && !axes) || (hasSteps && !steps))
    return std::nullopt;
  size_t n = starts->size();
  SmallVector<int64_t> begin(rank, 0), step(rank, 1), count(data->shape);
  for (size_t i = 0; i < n; ++i) {
    int64_t a = axes ? (i < axes->size() ? (*axes)[i] : -1 - rank)
                     : static_cast<int64_t>(i);
    std::optional<int64_t> axis = normalizeAxis(a, rank);
    int64_t s = steps ? (i < steps->size() ? (*steps)[i] : 0) : 1;
    if (!axis || s == 0)
      return std::nullopt;
    int64_t dim = data->shape[*axis];
    int64_t st = (*starts)[i], en = (*ends)[i];
    if (st < 0)
      st += dim;
    if (en < 0 && en > INT64_MIN / 2)
      en += dim;
    if (s > 0) {
      st = std::clamp<int64_t>(st, 0, dim);
      en = std::clamp<int64_t>(en, 0, dim);
      count[*axis] = en > st ? (en - st + s - 1) / s : 0;
    } else {
      st = std::clamp<int64_t>(st, 0, dim - 1);
      en = std::clamp<int64_t>(en, -1, dim - 1);
      count[*axis] = st > en ? (st - en + (-s) - 1) / (-s) : 0;
    }
    begin[*axis] = st;
    step[*axis] = s;
  }
  Const out;
  out.elementType = data->elementType;
  out.isFloat = data->isFloat;
  out.shape = count;
  int64_t total = product(count);
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * data->shape[d + 1];
  for (int64_t linear = 0; linear < total; ++linear) {
    int64_t rest = linear, src = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t c = rest % count[d];
      rest /= count[d];
      src += (begin[d] + c * step[d]) * strides[d];
    }
    out.append(*data, src);
  }
  return out;
}

std::optional<Const> Evaluator::concat() {
  SmallVector<Const> ins;
  for (unsigned i = 0, e = ctx.getNumInputs(); i < e; ++i) {
    std::optional<Const> c = readConst(ctx, i);
    if (!c)
      return std::nullopt;
    ins.push_back(std::move(*c));
  }
  if (ins.empty() || ins[0].shape.empty())
    return std::nullopt;
  int64_t rank = ins[0].shape.size();
  // Concat-1's axis defaults to 1 (see inferConcat); later versions need it.
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getIntAttr("axis").value_or(1), rank);
  if (!axis)
    return std::nullopt;
  Const out;
  out.elementType = ins[0].elementType;
  out.isFloat = ins[0].isFloat;
  out.shape = ins[0].shape;
  out.shape[*axis] = 0;
  for (const Const &c : ins) {
    if (static_cast<int64_t>(c.shape.size()) != rank ||
        c.elementType != out.elementType)
      return std::nullopt;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && c.shape[d] != ins[0].shape[d])
        return std::nullopt;
    out.shape[*axis] += c.shape[*axis];
  }
  if (product(out.shape) > kFoldElementLimit)
    return std::nullopt;
  int64_t outer = product(ArrayRef<int64_t>(out.shape).take_front(*axis));
  for (int64_t o = 0; o < outer; ++o)
    for (const Const &c : ins) {
      int64_t chunk = product(ArrayRef<int64_t>(c.shape).drop_front(*axis));
      for (int64_t k = 0; k < chunk; ++k) {
        out.append(c, o * chunk + k);
      }
    }
  return out;
}

std::optional<Const> Evaluator::transpose() {
  std::optional<Const> in = readConst(ctx, 0);
  if (!in)
    return std::nullopt;
  int64_t rank = in->shape.size();
  SmallVector<int64_t> perm;
  if (std::optional<SmallVector<int64_t>> p = ctx.getIntsAttr("perm"))
    perm = *p;
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != rank)
    return std::nullopt;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return std::nullopt;
    seen[p] = true;
  }
  Const out;
  out.elementType = in->elementType;
  out.isFloat = in->isFloat;
  for (int64_t p : perm)
    out.shape.push_back(in->shape[p]);
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * in->shape[d + 1];
  for (int64_t linear = 0, n = in->size(); linear < n; ++linear) {
    int64_t rest = linear, src = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t c = rest % out.shape[d];
      rest /= out.shape[d];
      src += c * strides[perm[d]];
    }
    out.append(*in, src);
  }
  return out;
}

std::optional<Const> Evaluator::range() {
  std::optional<Const> start = readConst(ctx, 0), limit = readConst(ctx, 1),
                       delta = readConst(ctx, 2);
  if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 ||
      delta->size() != 1)
    return std::nullopt;
  Const out;
  out.elementType = start->elementType;
  out.isFloat = start->isFloat;
  if (out.isFloat) {
    // Float ranges accumulate rounding in ways runtimes differ on.
    return std::nullopt;
  }
  int64_t s = start->ints[0], l = limit->ints[0], d = delta->ints[0];
  if (d == 0)
    return std::nullopt;
  int64_t n = 0;
  if ((d > 0 && l > s) || (d < 0 && l < s))
    n = (d > 0 ? (l - s + d - 1) / d : (s - l + (-d) - 1) / (-d));
  if (n > kFoldElementLimit)
    return std::nullopt;
  out.shape = {n};
  for (int64_t i = 0; i < n; ++i)
    out.ints.push_back(s + i * d);
  return out;
}

std::optional<Const> Evaluator::where() {
  std::optional<Const> c = readConst(ctx, 0), x = readConst(ctx, 1),
                       y = readConst(ctx, 2);
  if (!c || !x || !y || c->isFloat || x->elementType != y->elementType)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> shape =
      broadcastStatic({c->shape, x->shape, y->shape});
  if (!shape || product(*shape) > kFoldElementLimit)
    return std::nullopt;
  Const out;
  out.shape = *shape;
  out.elementType = x->elementType;
  out.isFloat = x->isFloat;
  for (int64_t i = 0, n = product(*shape); i < n; ++i) {
    bool pick = c->ints[broadcastIndex(i, *shape, c->shape)] != 0;
    const Const &src = pick ? *x : *y;
    int64_t k = broadcastIndex(i, *shape, src.shape);
    out.append(src, k);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Whether a value of type `have` may replace a result of type `want`.
static bool fits(Type have, Type want, bool allowRefined) {
  if (have == want)
    return true;
  if (!allowRefined)
    return false;
  FailureOr<Type> merged = refineType(want, have);
  return succeeded(merged) && *merged == have;
}

/// Splits a constant along the axis into the static sizes of the results
/// (which inference has set).
static LogicalResult foldSplit(InferenceContext &ctx, OpBuilder &builder,
                               SmallVectorImpl<Value> &replacements) {
  Operation *op = ctx.getOp();
  std::optional<Const> in = readConst(ctx, 0);
  if (!in || in->shape.empty())
    return failure();
  int64_t rank = in->shape.size();
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getIntAttrOrDefault("axis"), rank);
  if (!axis)
    return failure();
  int64_t outer = product(ArrayRef<int64_t>(in->shape).take_front(*axis));
  int64_t inner = product(ArrayRef<int64_t>(in->shape).drop_front(*axis + 1));
  int64_t axisSize = in->shape[*axis], offset = 0;
  SmallVector<Const> pieces;
  for (Value result : op->getResults()) {
    auto t = dyn_cast<RankedTensorType>(result.getType());
    if (!t || !t.hasStaticShape() || t.getRank() != rank ||
        t.getElementType() != in->elementType)
      return failure();
    int64_t size = t.getDimSize(*axis);
    if (offset + size > axisSize)
      return failure();
    Const piece;
    piece.elementType = in->elementType;
    piece.isFloat = in->isFloat;
    piece.shape.assign(t.getShape().begin(), t.getShape().end());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = (o * axisSize + offset) * inner,
                   e = (o * axisSize + offset + size) * inner;
           k < e; ++k) {
        piece.append(*in, k);
      }
    offset += size;
    pieces.push_back(std::move(piece));
  }
  if (offset != axisSize)
    return failure();
  int64_t opset = getOpsetOf(op);
  Type elem = in->elementType;
  if (opset < 9 && !(elem.isF16() || elem.isF32() || elem.isF64()))
    return failure();
  builder.setInsertionPoint(op);
  for (const Const &piece : pieces)
    replacements.push_back(
        createConstant(builder, op->getLoc(), toAttr(piece), opset));
  return success();
}

LogicalResult mlir::onnx::foldONNXOp(Operation *op, OpBuilder &builder,
                                     SmallVectorImpl<Value> &replacements,
                                     bool allowRefinedTypes,
                                     SymbolTableCollection *symbolTables) {
  if (!isa<ONNXSchemaOpInterface>(op) || op->getNumResults() < 1)
    return failure();
  // Attributes that refer to function parameters have no value yet.
  if (op->getDiscardableAttr(getAttrRefsAttrName()))
    return failure();
  InferenceContext ctx(op, /*symbols=*/nullptr, symbolTables);
  if (ctx.getSchema().deprecated || *ctx.getSchema().domain ||
      isOperator<ConstantOp>(ctx.getSchema()))
    return failure();
  // Split of a constant into static pieces: each piece a constant.
  if (isOperator<SplitOp>(ctx.getSchema()))
    return foldSplit(ctx, builder, replacements);
  if (op->getNumResults() != 1)
    return failure();
  Evaluator eval(ctx);
  Type resultType = op->getResult(0).getType();
  if (Value in = eval.forward()) {
    if (!fits(in.getType(), resultType, allowRefinedTypes))
      return failure();
    replacements.push_back(in);
    return success();
  }
  std::optional<Const> value = eval.evaluate();
  // An attribute it read with neither a value nor a default: the verifier
  // reports the op.
  if (!value || ctx.getMissingAttr())
    return failure();
  DenseElementsAttr attr = toAttr(*value);
  if (!fits(attr.getType(), resultType, allowRefinedTypes))
    return failure();
  // Constant-1 holds only float16, float and double.
  int64_t opset = getOpsetOf(op);
  Type elem = attr.getElementType();
  if (opset < 9 && !(elem.isF16() || elem.isF32() || elem.isF64()))
    return failure();
  builder.setInsertionPoint(op);
  Value constant = createConstant(builder, op->getLoc(), attr, opset);
  replacements.push_back(constant);
  return success();
}

namespace {
struct FoldONNXOpPattern : public RewritePattern {
  FoldONNXOpPattern(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<ONNXSchemaOpInterface>(op))
      return failure();
    SmallVector<Value> replacements;
    if (failed(foldONNXOp(op, rewriter, replacements)))
      return failure();
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void mlir::onnx::populateONNXFoldingPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldONNXOpPattern>(patterns.getContext());
}
