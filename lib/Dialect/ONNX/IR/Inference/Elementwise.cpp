//===- Elementwise.cpp - Inference of elementwise onnx operators ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Unary operators (the output has the input's shape), broadcasting binary and
// variadic operators (Broadcasting.md; the limited broadcast of the opset 1-6
// versions), casts, and the operators that keep the shape of their input
// (Softmax, Hardmax, ...).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"
#include <string>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::inference;

namespace {

/// "'A'" or "'data_0' #2": the input of slot `slot` for error messages.
std::string inputName(const InferenceContext &ctx, unsigned slot) {
  ArrayRef<ArgSchema> args = ctx.getSchema().inputs;
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (arg.kind == ArgKind::Variadic)
      return "'" + std::string(arg.name) + "' #" + std::to_string(slot - i);
    if (i == slot)
      return "'" + std::string(arg.name) + "'";
  }
  return "#" + std::to_string(slot);
}

/// The multidirectional broadcast of the inputs from slot `first` on: output
/// 0 takes the broadcast shape and `elementType` (null: the schema's).
LogicalResult inferBroadcast(InferenceContext &ctx, unsigned first = 0,
                             Type elementType = nullptr) {
  SmallVector<Shape> shapes;
  SmallVector<unsigned> slots;
  bool unranked = false;
  for (unsigned i = first, e = ctx.getNumInputs(); i < e; ++i) {
    if (!ctx.hasInput(i))
      continue;
    if (std::optional<Shape> shape = ctx.getInputShape(i)) {
      shapes.push_back(std::move(*shape));
      slots.push_back(i);
    } else {
      unranked = true;
    }
  }
  FailureOr<Shape> result = broadcastShapes(shapes);
  if (failed(result)) {
    InFlightDiagnostic diag = ctx.fail() << "the shapes of inputs ";
    for (auto [i, slot] : llvm::enumerate(slots))
      diag << (i ? ", " : "") << inputName(ctx, slot) << " "
           << formatShape(shapes[i]);
    return diag << " do not broadcast";
  }
  if (!ctx.hasOutput(0))
    return success();
  if (unranked || shapes.empty())
    ctx.setOutput(0, elementType, std::nullopt);
  else
    ctx.setOutput(0, elementType, *result);
  return success();
}

/// The inputs from slot `first` on have one shape (the variadic operators of
/// opsets 1-7 that do not broadcast).
LogicalResult inferSameShapes(InferenceContext &ctx, unsigned first = 0) {
  std::optional<Shape> result;
  for (unsigned i = first, e = ctx.getNumInputs(); i < e; ++i) {
    std::optional<Shape> shape = ctx.getInputShape(i);
    if (!shape)
      continue;
    if (!result) {
      result = std::move(shape);
      continue;
    }
    if (shape->size() != result->size())
      return ctx.fail() << "input " << inputName(ctx, i) << " has shape "
                        << formatShape(*shape) << ", expected the shape "
                        << formatShape(*result) << " of the other inputs";
    for (auto [r, d] : llvm::zip(*result, *shape)) {
      FailureOr<Dim> merged = mergeDims(r, d);
      if (failed(merged))
        return ctx.fail() << "input " << inputName(ctx, i) << " has shape "
                          << formatShape(*shape) << ", expected the shape "
                          << formatShape(*result) << " of the other inputs";
      r = *merged;
    }
  }
  if (ctx.hasOutput(0))
    ctx.setOutput(0, nullptr, result);
  return success();
}

/// The limited broadcast of the binary operators of opsets 1-6: with
/// broadcast=1, B is broadcast to A (the output has A's shape); without, A
/// and B have one shape.
LogicalResult inferLegacyBroadcast(InferenceContext &ctx) {
  if (!ctx.getIntAttrOrDefault("broadcast"))
    return inferSameShapes(ctx);
  std::optional<Shape> a = ctx.getInputShape(0);
  std::optional<Shape> b = ctx.getInputShape(1);
  if (a && b && b->size() > a->size())
    return ctx.fail() << "input 'B' " << formatShape(*b)
                      << " has a greater rank than input 'A' "
                      << formatShape(*a) << " it is broadcast to";
  if (a && ctx.hasAttr("axis") && !ctx.isAttrRef("axis")) {
    int64_t axis = ctx.getIntAttrOrDefault("axis");
    int64_t rank = a->size();
    if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
      return ctx.fail() << "attribute 'axis' " << axis
                        << " is out of range for input 'A' of rank " << rank;
  }
  if (ctx.hasOutput(0))
    ctx.setOutput(0, nullptr, a);
  return success();
}

/// The binary broadcasting operators that had a limited broadcast before
/// opset 7.
LogicalResult inferBinary(InferenceContext &ctx) {
  if (ctx.getVersion() < 7)
    return inferLegacyBroadcast(ctx);
  return inferBroadcast(ctx);
}

/// Sum, Mean, Max, Min: one shape before opset 8, broadcast since.
LogicalResult inferVariadic(InferenceContext &ctx) {
  if (ctx.getVersion() < 8)
    return inferSameShapes(ctx);
  return inferBroadcast(ctx);
}

/// `target` has `from`'s shape or one that broadcasts to it in one direction.
LogicalResult checkUnidirectional(InferenceContext &ctx, unsigned from,
                                  const Shape &target, StringRef targetName) {
  std::optional<Shape> shape = ctx.getInputShape(from);
  if (!shape)
    return success();
  auto fail = [&]() {
    return ctx.fail() << "input " << inputName(ctx, from) << " "
                      << formatShape(*shape) << " does not broadcast to "
                      << targetName << " " << formatShape(target);
  };
  if (shape->size() > target.size())
    return fail();
  size_t offset = target.size() - shape->size();
  for (auto [i, dim] : llvm::enumerate(*shape)) {
    const Dim &t = target[offset + i];
    if (dim.isStatic() && dim.size != 1 && t.isStatic() && t.size != dim.size)
      return fail();
  }
  return success();
}

/// PRelu: the slope broadcasts to X (one direction since opset 7).
LogicalResult inferPRelu(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (x && ctx.getVersion() >= 7 &&
      failed(checkUnidirectional(ctx, 1, *x, "input 'X'")))
    return failure();
  return inferSameShape(ctx);
}

/// Softmax, LogSoftmax, Hardmax: the output has the input's shape; `axis`
/// names one of its axes.
LogicalResult inferSoftmax(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (rank && !ctx.isAttrRef("axis")) {
    int64_t axis = ctx.getIntAttrOrDefault("axis");
    // Before opset 13 the input is coerced to 2-D at `axis`, which may be the
    // rank itself.
    int64_t limit = ctx.getVersion() >= 13 ? *rank : *rank + 1;
    if (axis < -*rank || axis >= limit)
      return ctx.fail() << "attribute 'axis' " << axis
                        << " is out of range for input 'input' of rank "
                        << *rank;
  }
  return inferSameShape(ctx);
}

/// The element type a TensorProto.DataType name stands for (Cast-1 takes the
/// name as a string).
Type getDataTypeByName(MLIRContext *context, StringRef name) {
  Builder b(context);
  auto uint = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Unsigned);
  };
  return llvm::StringSwitch<std::function<Type()>>(name)
      .Case("FLOAT", [&]() -> Type { return b.getF32Type(); })
      .Case("DOUBLE", [&]() -> Type { return b.getF64Type(); })
      .Case("FLOAT16", [&]() -> Type { return b.getF16Type(); })
      .Case("BOOL", [&]() -> Type { return b.getI1Type(); })
      .Case("INT8", [&]() -> Type { return b.getI8Type(); })
      .Case("INT16", [&]() -> Type { return b.getI16Type(); })
      .Case("INT32", [&]() -> Type { return b.getI32Type(); })
      .Case("INT64", [&]() -> Type { return b.getI64Type(); })
      .Case("UINT8", [&]() -> Type { return uint(8); })
      .Case("UINT16", [&]() -> Type { return uint(16); })
      .Case("UINT32", [&]() -> Type { return uint(32); })
      .Case("UINT64", [&]() -> Type { return uint(64); })
      .Default([]() -> Type { return nullptr; })();
}

/// Cast: the shape of the input, the element type `to` names.
LogicalResult inferCast(InferenceContext &ctx) {
  Type type;
  if (ctx.isAttrRef("to")) {
    type = nullptr;
  } else if (ctx.getVersion() == 1) {
    if (std::optional<StringRef> name = ctx.getStringAttr("to"))
      type = getDataTypeByName(ctx.getContext(), *name);
  } else {
    type = ctx.getDataTypeAttr("to");
    if (!type && ctx.hasAttr("to"))
      return ctx.fail() << "attribute 'to' is not a known data type";
  }
  if (!type)
    return success();
  ctx.setOutput(0, type, ctx.getInputShape(0));
  return success();
}

/// The number of bits a value of `type` takes in memory; bool takes a byte.
std::optional<unsigned> getStorageBits(Type type) {
  if (type.isInteger(1))
    return 8;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (std::optional<unsigned> bits = getStorageBits(complex.getElementType()))
      return 2 * *bits;
    return std::nullopt;
  }
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return std::nullopt;
}

/// BitCast: the shape of the input, the element type `to` names, which has
/// the input's bit width.
LogicalResult inferBitCast(InferenceContext &ctx) {
  if (ctx.isAttrRef("to"))
    return success();
  Type type = ctx.getDataTypeAttr("to");
  if (!type) {
    if (ctx.hasAttr("to"))
      return ctx.fail() << "attribute 'to' is not a known data type";
    return success();
  }
  if (Type in = ctx.getInputElementType(0)) {
    std::optional<unsigned> inBits = getStorageBits(in);
    std::optional<unsigned> outBits = getStorageBits(type);
    if (inBits && outBits && *inBits != *outBits)
      return ctx.fail() << "attribute 'to' names " << type << " of " << *outBits
                        << " bits, but input 'input' has " << in << " of "
                        << *inBits << " bits";
  }
  ctx.setOutput(0, type, ctx.getInputShape(0));
  return success();
}

/// BitShift: a broadcasting binary operator with a direction.
LogicalResult inferBitShift(InferenceContext &ctx) {
  if (std::optional<StringRef> dir = ctx.getStringAttr("direction");
      dir && !ctx.isAttrRef("direction") && *dir != "LEFT" && *dir != "RIGHT")
    return ctx.fail() << "attribute 'direction' must be \"LEFT\" or "
                         "\"RIGHT\", got \""
                      << *dir << "\"";
  return inferBroadcast(ctx);
}

/// Mod: a broadcasting binary operator; floating point operands need fmod=1.
LogicalResult inferMod(InferenceContext &ctx) {
  if (!ctx.isAttrRef("fmod")) {
    int64_t fmod = ctx.getIntAttrOrDefault("fmod");
    if (fmod != 0 && fmod != 1)
      return ctx.fail() << "attribute 'fmod' must be 0 or 1, got " << fmod;
    Type type = ctx.getInputElementType(0);
    if (fmod == 0 && type && isa<FloatType>(type))
      return ctx.fail() << "attribute 'fmod' must be 1 for floating point "
                           "input 'A' of type "
                        << type;
  }
  return inferBroadcast(ctx);
}

/// Gelu: a unary operator with an approximation of "none" or "tanh".
LogicalResult inferGelu(InferenceContext &ctx) {
  if (std::optional<StringRef> approx = ctx.getStringAttr("approximate");
      approx && !ctx.isAttrRef("approximate") && *approx != "none" &&
      *approx != "tanh")
    return ctx.fail() << "attribute 'approximate' must be \"none\" or "
                         "\"tanh\", got \""
                      << *approx << "\"";
  return inferSameShape(ctx);
}

/// Where: the broadcast of the condition and both branches.
LogicalResult inferWhere(InferenceContext &ctx) { return inferBroadcast(ctx); }

/// Clip: the output has the input's shape (min and max are scalars).
LogicalResult inferClip(InferenceContext &ctx) { return inferSameShape(ctx); }

} // namespace

void mlir::onnx::registerElementwiseInference(InferenceRegistry &r) {
  r.add<AbsOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanOp, AtanhOp, BitwiseNotOp,
        CeilOp, CeluOp, CosOp, CoshOp, EluOp, ErfOp, ExpOp, FloorOp,
        HardSigmoidOp, HardSwishOp, IsInfOp, IsNaNOp, LeakyReluOp, LogOp,
        MishOp, NegOp, NotOp, ReciprocalOp, ReluOp, RoundOp, SeluOp, ShrinkOp,
        SigmoidOp, SignOp, SinOp, SinhOp, SoftplusOp, SoftsignOp, SqrtOp,
        SwishOp, TanOp, TanhOp, ThresholdedReluOp>(
      [](InferenceContext &ctx) { return inferSameShape(ctx); });
  r.add<AddOp, SubOp, MulOp, DivOp, PowOp, AndOp, OrOp, XorOp, EqualOp, LessOp,
        GreaterOp>(inferBinary);
  r.add<LessOrEqualOp, GreaterOrEqualOp, BitwiseAndOp, BitwiseOrOp,
        BitwiseXorOp>(
      [](InferenceContext &ctx) { return inferBroadcast(ctx); });
  r.add<SumOp, MeanOp, MaxOp, MinOp>(inferVariadic);
  r.add<BitShiftOp>(inferBitShift);
  r.add<ModOp>(inferMod);
  r.add<WhereOp>(inferWhere);
  r.add<ClipOp>(inferClip);
  r.add<PReluOp>(inferPRelu);
  r.add<GeluOp>(inferGelu);
  r.add<SoftmaxOp, LogSoftmaxOp, HardmaxOp>(inferSoftmax);
  r.add<CastOp>(inferCast);
  r.add<CastLikeOp>([](InferenceContext &ctx) { return inferSameShape(ctx); });
  r.add<BitCastOp>(inferBitCast);
}
