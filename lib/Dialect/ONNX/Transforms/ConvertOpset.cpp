//===- ConvertOpset.cpp - The onnx-convert-opset pass ---------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites every op to the version of its operator that a target opset
// selects, one schema version at a time. A step between two versions whose
// signatures match (inputs and outputs by name, attributes by name and kind)
// only renames the op; the steps where ONNX moved attributes to inputs,
// changed defaults or semantics have adapters. A step that cannot be taken
// is an error that names the op and both versions.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/OpsetConversion.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXCONVERTOPSET
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

static const OpSchema &schemaOf(Operation *op) {
  return cast<ONNXSchemaOpInterface>(op).getSchema();
}

static const OpSchema &schemaOf(OperationName name) {
  return name.getInterface<ONNXSchemaOpInterface>()->getSchema();
}

/// Attributes that only ever were hints and have no effect: dropped.
static bool isDroppableAttr(StringRef name) {
  return name == "consumed_inputs" || name == "is_test" ||
         name == "output_sequence";
}

/// The value of each slot of one side (null when omitted) and the schema
/// argument it belongs to.
static void getSlotValues(Operation *op, const OpSchema &schema, bool inputs,
                          SmallVectorImpl<Value> &values,
                          SmallVectorImpl<const ArgSchema *> &args) {
  SmallVector<int> slots;
  getSlots(op, schema, inputs, slots, args);
  for (int index : slots)
    values.push_back(index < 0 ? Value()
                     : inputs  ? op->getOperand(index)
                               : Value(op->getResult(index)));
}

/// The error of a version step of `op` that cannot be made.
static InFlightDiagnostic conversionError(Operation *op, const OpSchema &from,
                                          const OpSchema &to) {
  return op->emitOpError() << "cannot be converted from " << from.name << "-"
                           << from.sinceVersion << " to " << to.name << "-"
                           << to.sinceVersion << ": ";
}

namespace {
/// What an adapter changes before the generic step renames the op.
struct StepEdit {
  /// Input values by ONNX input name of the target version.
  llvm::StringMap<Value> setInputs;
  /// Inputs of the source version (ONNX names) not to carry over.
  SmallVector<StringRef> dropInputs;
  /// Attributes (ONNX names) of the source version not to carry over.
  SmallVector<StringRef> dropAttrs;
  /// Attributes (ONNX names) to set on the target version.
  SmallVector<NamedAttribute> setAttrs;
  /// Outputs of the source version that the target does not have; they must
  /// be unused.
  SmallVector<StringRef> dropOutputs;
  /// Element types of outputs (ONNX names of the target version) that
  /// changed; the old value's users get a Cast back to its type.
  llvm::StringMap<Type> outputElementTypes;
};

class Converter {
public:
  Converter(MLIRContext *ctx, int64_t target) : ctx(ctx), target(target) {}

  /// Converts `op` to the version of its operator at the target opset.
  LogicalResult convert(Operation *op);

private:
  FailureOr<Operation *> convertTo(Operation *op, OperationName goal);
  FailureOr<Operation *> rename(Operation *op, OperationName to,
                                const StepEdit &edit);
  LogicalResult adapt(Operation *op, const OpSchema &from, const OpSchema &to,
                      StepEdit &edit);
  /// The first version of the operator that replaced a deprecated one.
  FailureOr<Operation *> replaceOperator(Operation *op, OperationName to);
  /// Softmax, LogSoftmax and Hardmax before 13 coerce their input to 2-D.
  FailureOr<Operation *> softmaxTo13(Operation *op, OperationName to);
  /// Scan-8 (a batch of independent scans) as a Scan over the batch whose
  /// body is a Scan over the sequence, both of the version `to` names.
  FailureOr<Operation *> scan8ToBatchedScan(Operation *op, OperationName to);

  InFlightDiagnostic error(Operation *op, const OpSchema &from,
                           const OpSchema &to) {
    return conversionError(op, from, to);
  }

  MLIRContext *ctx;
  int64_t target;
};
} // namespace

LogicalResult Converter::convert(Operation *op) {
  const OpSchema &schema = schemaOf(op);
  if (schema.deprecated)
    return op->emitOpError()
           << "is " << schema.name << "-" << schema.sinceVersion
           << ", which is deprecated: nothing to convert";
  std::optional<OperationName> goal =
      lookupSchemaOp(ctx, schema.domain, schema.name, target);
  if (goal && *goal == op->getName())
    return success();
  // Operators that ONNX replaced by another with the same signature:
  // Upsample-9 by Resize-10, Scatter-9 by ScatterElements-11.
  static const struct {
    Operator from;
    StringRef last;
    StringRef to;
    int64_t toVersion;
  } replacedOps[] = {
      {Operator::of<UpsampleOp>(), UpsampleV9Op::getOperationName(),
       ResizeV10Op::getOperationName(), 10},
      {Operator::of<ScatterOp>(), ScatterV9Op::getOperationName(),
       ScatterElementsV11Op::getOperationName(), 11}};
  for (const auto &r : replacedOps) {
    if (Operator(schema) != r.from || !goal || !schemaOf(*goal).deprecated ||
        target < r.toVersion)
      continue;
    Operation *cur = op;
    OperationName last(r.last, ctx);
    if (cur->getName() != last) {
      FailureOr<Operation *> up = convertTo(cur, last);
      if (failed(up))
        return failure();
      cur = *up;
    }
    FailureOr<Operation *> replaced =
        replaceOperator(cur, OperationName(r.to, ctx));
    if (failed(replaced))
      return failure();
    return convert(*replaced);
  }
  if (!goal || schemaOf(*goal).deprecated)
    return op->emitOpError()
           << "cannot be converted to opset " << target << ": operator "
           << schema.name << " has "
           << (goal ? "only a deprecated version" : "no version") << " there";
  return convertTo(op, *goal);
}

FailureOr<Operation *> Converter::convertTo(Operation *op, OperationName goal) {
  const OpSchema &schema = schemaOf(op);
  int64_t from = schema.sinceVersion, to = schemaOf(goal).sinceVersion;
  // The versions in between, one step at a time.
  Operation *cur = op;
  if (to > from) {
    for (int64_t v = from + 1; v <= to; ++v) {
      std::optional<OperationName> next =
          lookupSchemaOp(ctx, schema.domain, schema.name, v);
      if (!next || *next == cur->getName())
        continue;
      const OpSchema &a = schemaOf(cur), &b = schemaOf(*next);
      if (b.deprecated)
        return error(cur, a, b) << "the newer version is deprecated", failure();
      // The softmax family changed its semantics, not only its signature.
      if (isSchemaOf<SoftmaxOp, LogSoftmaxOp, HardmaxOp>(b)) {
        FailureOr<Operation *> r = softmaxTo13(cur, *next);
        if (failed(r))
          return failure();
        cur = *r;
        continue;
      }
      // Scan-8's batch axis: built at the goal version in one step.
      if (isSchemaOf<ScanV9Op>(b))
        return scan8ToBatchedScan(cur, goal);
      StepEdit edit;
      if (failed(adapt(cur, a, b, edit)))
        return failure();
      FailureOr<Operation *> r = rename(cur, *next, edit);
      if (failed(r))
        return failure();
      cur = *r;
    }
    return cur;
  }
  // Downgrade: only where the signatures allow a rename.
  for (int64_t v = from - 1; v >= to; --v) {
    std::optional<OperationName> prev =
        lookupSchemaOp(ctx, schema.domain, schema.name, v);
    if (!prev || *prev == cur->getName())
      continue;
    const OpSchema &b = schemaOf(*prev);
    if (b.deprecated)
      return error(cur, schemaOf(cur), b) << "the older version is deprecated",
             failure();
    FailureOr<Operation *> r = rename(cur, *prev, StepEdit());
    if (failed(r))
      return failure();
    cur = *r;
  }
  return cur;
}

FailureOr<Operation *> Converter::rename(Operation *op, OperationName to,
                                         const StepEdit &edit) {
  const OpSchema &a = schemaOf(op), &b = schemaOf(to);
  MLIRContext *context = op->getContext();

  // Inputs: by name, else by position when both lists are equally long.
  SmallVector<Value> oldIn, oldOut;
  SmallVector<const ArgSchema *> oldInArgs, oldOutArgs;
  getSlotValues(op, a, /*inputs=*/true, oldIn, oldInArgs);
  getSlotValues(op, a, /*inputs=*/false, oldOut, oldOutArgs);
  auto matchArg = [&](ArrayRef<ArgSchema> oldArgs, ArrayRef<ArgSchema> newArgs,
                      unsigned j) -> const ArgSchema * {
    for (const ArgSchema &o : oldArgs)
      if (StringRef(o.name) == newArgs[j].name)
        return &o;
    if (oldArgs.size() == newArgs.size() &&
        llvm::none_of(oldArgs, [&](const ArgSchema &o) {
          return llvm::any_of(newArgs, [&](const ArgSchema &n) {
            return StringRef(n.name) == o.name;
          });
        }))
      return &oldArgs[j];
    // Renamed arguments at the same position (BatchNormalization's mean).
    if (j < oldArgs.size() &&
        llvm::none_of(newArgs,
                      [&](const ArgSchema &n) {
                        return StringRef(n.name) == oldArgs[j].name;
                      }) &&
        oldArgs[j].kind == newArgs[j].kind)
      return &oldArgs[j];
    return nullptr;
  };

  SmallVector<Value> newIn;
  llvm::SmallPtrSet<const ArgSchema *, 8> usedIn;
  for (unsigned j = 0; j < b.inputs.size(); ++j) {
    const ArgSchema &n = b.inputs[j];
    const ArgSchema *o = matchArg(a.inputs, b.inputs, j);
    auto set = edit.setInputs.find(n.name);
    if (set != edit.setInputs.end()) {
      // The adapter's value replaces what the old input gave.
      if (o)
        usedIn.insert(o);
      newIn.push_back(set->second);
      continue;
    }
    if (o && llvm::is_contained(edit.dropInputs, StringRef(o->name)))
      o = nullptr;
    bool any = false;
    if (o) {
      usedIn.insert(o);
      for (auto [v, arg] : llvm::zip(oldIn, oldInArgs))
        if (arg == o) {
          newIn.push_back(v);
          any = true;
        }
    }
    if (!any && n.kind != ArgKind::Variadic)
      newIn.push_back({});
  }
  for (auto [v, arg] : llvm::zip(oldIn, oldInArgs))
    if (v && !usedIn.count(arg) &&
        !llvm::is_contained(edit.dropInputs, StringRef(arg->name)))
      return error(op, a, b) << "input '" << arg->name
                             << "' has no counterpart in the target version",
             failure();

  SmallVector<Type> newOutTypes;
  SmallVector<Value> replaced; // parallel to newOutTypes
  llvm::SmallPtrSet<const ArgSchema *, 8> usedOut;
  for (unsigned j = 0; j < b.outputs.size(); ++j) {
    const ArgSchema &n = b.outputs[j];
    const ArgSchema *o = matchArg(a.outputs, b.outputs, j);
    if (o && llvm::is_contained(edit.dropOutputs, StringRef(o->name)))
      o = nullptr;
    bool any = false;
    if (o) {
      usedOut.insert(o);
      for (auto [v, arg] : llvm::zip(oldOut, oldOutArgs))
        if (arg == o && v) {
          Type type = v.getType();
          if (Type elem = edit.outputElementTypes.lookup(n.name))
            if (auto t = dyn_cast<TensorType>(type))
              type = t.clone(elem);
          newOutTypes.push_back(type);
          replaced.push_back(v);
          any = true;
        }
    }
    if (!any && n.kind != ArgKind::Variadic) {
      newOutTypes.push_back({});
      replaced.push_back({});
    }
  }
  for (auto [v, arg] : llvm::zip(oldOut, oldOutArgs))
    if (v && !usedOut.count(arg) && !v.use_empty())
      return error(op, a, b) << "output '" << arg->name
                             << "' is used but the target version has none",
             failure();
  while (!newOutTypes.empty() && !newOutTypes.back()) {
    newOutTypes.pop_back();
    replaced.pop_back();
  }

  // Attributes: by name and kind.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    attrs.push_back(attr);
  for (const AttrSchema &attr : a.attributes) {
    if (a.isGraph(attr))
      continue;
    std::optional<Attribute> value = op->getInherentAttr(attr.odsName);
    if (!value || !*value)
      continue;
    if (llvm::is_contained(edit.dropAttrs, StringRef(attr.name)))
      continue;
    const AttrSchema *n = findAttrSchema(b, attr.name);
    if (!n) {
      if (isDroppableAttr(attr.name))
        continue;
      return error(op, a, b) << "attribute '" << attr.name
                             << "' has no counterpart in the target version",
             failure();
    }
    if (n->kind != attr.kind)
      return error(op, a, b)
                 << "attribute '" << attr.name << "' changed its type",
             failure();
    if (llvm::any_of(edit.setAttrs, [&](NamedAttribute s) {
          return s.getName() == attr.name;
        }))
      continue;
    attrs.push_back(
        NamedAttribute(StringAttr::get(context, attr.name), *value));
  }
  for (NamedAttribute s : edit.setAttrs)
    attrs.push_back(s);

  // The output names kept for export follow the new output slots.
  if (auto names = op->getAttrOfType<ArrayAttr>("onnx.outputs")) {
    // One name per new slot, from the value that fills it.
    SmallVector<Attribute> kept;
    DenseMap<Value, Attribute> nameOf;
    unsigned slot = 0;
    for (Value v : oldOut) {
      if (slot < names.size() && v)
        nameOf[v] = names[slot];
      ++slot;
    }
    for (Value v : replaced)
      kept.push_back(v && nameOf.count(v) ? nameOf[v]
                                          : StringAttr::get(context, ""));
    for (NamedAttribute &attr : attrs)
      if (attr.getName() == "onnx.outputs")
        attr.setValue(ArrayAttr::get(context, kept));
  }

  OpBuilder builder(op);
  std::string why;
  FailureOr<Operation *> created = createSchemaOp(
      builder, op->getLoc(), to, newIn, newOutTypes, attrs, &why);
  if (failed(created))
    return error(op, a, b) << why, failure();
  Operation *newOp = *created;
  // Graph attributes keep their regions, by name.
  unsigned newRegion = 0;
  for (const AttrSchema &attr : b.attributes) {
    if (!b.isGraph(attr))
      continue;
    unsigned oldRegion = 0;
    for (const AttrSchema &o : a.attributes) {
      if (!a.isGraph(o))
        continue;
      if (StringRef(o.name) == attr.name)
        newOp->getRegion(newRegion).takeBody(op->getRegion(oldRegion));
      ++oldRegion;
    }
    ++newRegion;
  }
  unsigned next = 0;
  for (Value v : replaced) {
    if (!v)
      continue;
    Value now = newOp->getResult(next++);
    if (now.getType() != v.getType() && !v.use_empty()) {
      // An output whose element type changed: its users see the old type.
      Type elem = getElementTypeOrSelf(v.getType());
      int32_t code = getDataTypeForElementType(elem);
      FailureOr<Operation *> cast =
          createSchemaOp(builder, op->getLoc(), Operator::of<CastOp>(), target,
                         {now}, {v.getType()},
                         {NamedAttribute(StringAttr::get(context, "to"),
                                         builder.getI64IntegerAttr(code))},
                         &why);
      if (failed(cast))
        return error(op, a, b) << why, failure();
      now = (*cast)->getResult(0);
    }
    v.replaceAllUsesWith(now);
  }
  op->erase();
  return newOp;
}

/// The element type of a tensor value; null otherwise.
static Type elementTypeOf(Value v) {
  auto t = dyn_cast_or_null<TensorType>(v ? v.getType() : Type());
  return t ? t.getElementType() : Type();
}

static std::optional<int64_t> rankOf(Value v) {
  auto t = dyn_cast_or_null<RankedTensorType>(v ? v.getType() : Type());
  return t ? std::optional<int64_t>(t.getRank()) : std::nullopt;
}

namespace {
/// One version step of `op` from `from` to `to`: what the adapters below
/// read (the op's attributes and inputs of the source version) and write
/// (`edit`), and the constants they create.
struct Adaptation {
  Operation *op;
  const OpSchema &from, &to;
  StepEdit &edit;
  int64_t target;
  OpBuilder b;
  Location loc;
  Builder attrs;

  Adaptation(Operation *op, const OpSchema &from, const OpSchema &to,
             StepEdit &edit, int64_t target)
      : op(op), from(from), to(to), edit(edit), target(target), b(op),
        loc(op->getLoc()), attrs(op->getContext()) {}

  InFlightDiagnostic error() const { return conversionError(op, from, to); }

  /// The source version's attribute of ONNX name `n`, or null.
  Attribute attr(StringRef n) const {
    const AttrSchema *s = findAttrSchema(from, n);
    if (!s)
      return {};
    std::optional<Attribute> value = op->getInherentAttr(s->odsName);
    return value ? *value : Attribute();
  }

  /// The source version's input in `slot`, or null.
  Value input(unsigned slot) const {
    SmallVector<Value> values;
    SmallVector<const ArgSchema *> args;
    getSlotValues(op, from, /*inputs=*/true, values, args);
    return slot < values.size() ? values[slot] : Value();
  }

  /// The value of an integer-list attribute as a 1-D int64 constant input.
  Value ints(Attribute attr) {
    auto list = cast<DenseI64ArrayAttr>(attr);
    return createI64Constant(b, loc, list.asArrayRef(), target);
  }

  /// A scalar constant of a float element type.
  Value floatScalar(Type elementType, double value) {
    auto type = RankedTensorType::get({}, elementType);
    auto floatType = cast<FloatType>(elementType);
    APFloat v(value);
    bool lost;
    v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    return createConstant(b, loc, DenseElementsAttr::get(type, v), target);
  }

  /// An integer-list attribute that became an input of the same name.
  void attrToInput(StringRef attrName, StringRef inputName) {
    edit.dropAttrs.push_back(attrName);
    if (Attribute a = attr(attrName))
      edit.setInputs[inputName] = ints(a);
  }

  /// Input `slot` with 1-dims inserted at `axes`, as the new op's input
  /// `inputName`.
  LogicalResult unsqueezeInput(unsigned slot, StringRef inputName,
                               ArrayRef<int64_t> axes) {
    SmallVector<Value> ins = {input(slot)};
    SmallVector<NamedAttribute> unsqAttrs;
    if (target >= 13)
      ins.push_back(createI64Constant(b, loc, axes, target));
    else
      unsqAttrs.push_back(
          attrs.getNamedAttr("axes", attrs.getDenseI64ArrayAttr(axes)));
    std::string why;
    Type elem = elementTypeOf(input(slot));
    FailureOr<Operation *> unsq =
        createSchemaOp(b, loc, Operator::of<UnsqueezeOp>(), target, ins,
                       {UnrankedTensorType::get(elem)}, unsqAttrs, &why);
    if (failed(unsq))
      return error() << why;
    edit.setInputs[inputName] = (*unsq)->getResult(0);
    return success();
  }

  /// Attribute `name` moved as it is to an input of the same name.
  LogicalResult attrsToInputs(ArrayRef<StringRef> names) {
    for (StringRef name : names)
      attrToInput(name, name);
    return success();
  }
};

// One adapter per version step whose meaning or signature changed; the
// steps without one only rename the op (Converter::rename).

/// Gemm's C broadcasts unidirectionally from 7 on; with broadcast=0 it
/// already had the full shape, which still holds.
LogicalResult adaptGemm7(Adaptation &s) {
  s.edit.dropAttrs.push_back("broadcast");
  return success();
}

/// Legacy broadcasting (broadcast, axis) became numpy broadcasting at 7.
LogicalResult adaptLegacyBroadcast(Adaptation &s) {
  s.edit.dropAttrs.append({"broadcast", "axis"});
  auto broadcast = dyn_cast_or_null<IntegerAttr>(s.attr("broadcast"));
  auto axis = dyn_cast_or_null<IntegerAttr>(s.attr("axis"));
  if (!broadcast || broadcast.getInt() == 0 || !axis)
    return success();
  std::optional<int64_t> rankA = rankOf(s.input(0)), rankB = rankOf(s.input(1));
  if (!rankA || !rankB)
    return s.error() << "legacy broadcasting along axis " << axis.getInt()
                     << " needs the ranks of both inputs";
  int64_t ax = axis.getInt() < 0 ? axis.getInt() + *rankA : axis.getInt();
  int64_t trailing = *rankA - ax - *rankB;
  if (ax < 0 || trailing < 0)
    return s.error() << "axis " << axis.getInt()
                     << " does not fit the input ranks";
  if (trailing == 0)
    return success();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < trailing; ++i)
    axes.push_back(*rankB + i);
  return s.unsqueezeInput(1, "B", axes);
}

/// PRelu before 7 applied a 1-D slope along the channel axis (1); from 7 on
/// the slope broadcasts numpy-style, so it becomes [C, 1, ..., 1].
LogicalResult adaptPRelu7(Adaptation &s) {
  std::optional<int64_t> rankX = rankOf(s.input(0)), rankS = rankOf(s.input(1));
  auto slopeType = dyn_cast_or_null<RankedTensorType>(
      s.input(1) ? s.input(1).getType() : Type());
  if (!rankX || *rankX < 3 || rankS != 1 || !slopeType ||
      slopeType.getDimSize(0) == 1)
    return success();
  SmallVector<int64_t> axes;
  for (int64_t i = 1; i < *rankX - 1; ++i)
    axes.push_back(i);
  return s.unsqueezeInput(1, "slope", axes);
}

/// Clip's min and max became inputs at 11.
LogicalResult adaptClip11(Adaptation &s) {
  s.edit.dropAttrs.append({"min", "max"});
  Type elem = elementTypeOf(s.input(0));
  for (StringRef bound : {"min", "max"}) {
    auto value = dyn_cast_or_null<FloatAttr>(s.attr(bound));
    if (!value)
      continue;
    if (!isa_and_nonnull<FloatType>(elem))
      return s.error() << "the '" << bound
                       << "' input needs a float input type";
    s.edit.setInputs[bound] = s.floatScalar(elem, value.getValueAsDouble());
  }
  return success();
}

/// Pad-1's paddings is Pad-2's pads.
LogicalResult adaptPad2(Adaptation &s) {
  s.edit.dropAttrs.push_back("paddings");
  if (Attribute p = s.attr("paddings"))
    s.edit.setAttrs.push_back(s.attrs.getNamedAttr("pads", p));
  return success();
}

/// Pad's pads and value became inputs at 11.
LogicalResult adaptPad11(Adaptation &s) {
  s.attrToInput("pads", "pads");
  s.edit.dropAttrs.push_back("value");
  if (auto value = dyn_cast_or_null<FloatAttr>(s.attr("value"))) {
    Type elem = elementTypeOf(s.input(0));
    if (!isa_and_nonnull<FloatType>(elem))
      return s.error() << "the pad value needs a float input type";
    s.edit.setInputs["constant_value"] =
        s.floatScalar(elem, value.getValueAsDouble());
  }
  return success();
}

/// Split-1 takes the sizes as an optional second input; Split-2 as an
/// attribute.
LogicalResult adaptSplit2(Adaptation &s) {
  s.edit.dropInputs.push_back("split");
  Value sizes = s.input(1);
  if (!sizes)
    return success();
  auto def = sizes.getDefiningOp();
  auto value =
      def ? dyn_cast_or_null<DenseIntElementsAttr>(def->getAttr("value"))
          : DenseIntElementsAttr();
  if (!value)
    return s.error()
           << "the 'split' input must be a constant to become an attribute";
  SmallVector<int64_t> split;
  for (const APInt &i : value.getValues<APInt>())
    split.push_back(i.getSExtValue());
  s.edit.setAttrs.push_back(
      s.attrs.getNamedAttr("split", s.attrs.getDenseI64ArrayAttr(split)));
  return success();
}

/// An attribute that became an input of the same name: Split's split,
/// Squeeze's and Unsqueeze's axes at 13, the reductions' axes (ReduceSum at
/// 13, the others at 18), Reshape's shape at 5.
template <const char *...Names>
LogicalResult adaptAttrsToInputs(Adaptation &s) {
  return s.attrsToInputs({StringRef(Names)...});
}
constexpr char kSplit[] = "split", kAxes[] = "axes", kShape[] = "shape",
               kStarts[] = "starts", kEnds[] = "ends";

/// TopK's k became an input at 10.
LogicalResult adaptTopK10(Adaptation &s) {
  s.edit.dropAttrs.push_back("k");
  if (auto k = dyn_cast_or_null<IntegerAttr>(s.attr("k")))
    s.edit.setInputs["K"] =
        createI64Constant(s.b, s.loc, {k.getInt()}, s.target);
  return success();
}

/// Dropout's mask became bool at 10 (it had the data's type).
LogicalResult adaptDropout10(Adaptation &s) {
  s.edit.outputElementTypes["mask"] = IntegerType::get(s.op->getContext(), 1);
  return success();
}

/// Dropout's ratio became an input at 12.
LogicalResult adaptDropout12(Adaptation &s) {
  s.edit.dropAttrs.push_back("ratio");
  if (auto ratio = dyn_cast_or_null<FloatAttr>(s.attr("ratio")))
    s.edit.setInputs["ratio"] =
        s.floatScalar(s.b.getF32Type(), ratio.getValueAsDouble());
  return success();
}

/// Upsample's scales became an input at 9.
LogicalResult adaptUpsample9(Adaptation &s) {
  s.edit.dropAttrs.push_back("scales");
  if (auto scales = dyn_cast_or_null<DenseF32ArrayAttr>(s.attr("scales"))) {
    auto type = RankedTensorType::get({static_cast<int64_t>(scales.size())},
                                      s.b.getF32Type());
    s.edit.setInputs["scales"] = createConstant(
        s.b, s.loc, DenseElementsAttr::get(type, scales.asArrayRef()),
        s.target);
  }
  return success();
}

/// height_scale/width_scale on 4-D inputs became per-axis scales at 7.
LogicalResult adaptUpsample7(Adaptation &s) {
  s.edit.dropAttrs.append({"height_scale", "width_scale"});
  auto h = dyn_cast_or_null<FloatAttr>(s.attr("height_scale"));
  auto w = dyn_cast_or_null<FloatAttr>(s.attr("width_scale"));
  if (!h || !w)
    return s.error() << "needs height_scale and width_scale";
  SmallVector<float> scales = {1.0f, 1.0f,
                               static_cast<float>(h.getValueAsDouble()),
                               static_cast<float>(w.getValueAsDouble())};
  s.edit.setAttrs.push_back(
      s.attrs.getNamedAttr("scales", s.attrs.getDenseF32ArrayAttr(scales)));
  return success();
}

/// BatchNormalization's spatial went away at 9.
LogicalResult adaptBatchNormalization9(Adaptation &s) {
  s.edit.dropAttrs.push_back("spatial");
  auto spatial = dyn_cast_or_null<IntegerAttr>(s.attr("spatial"));
  if (spatial && spatial.getInt() != 1)
    return s.error() << "spatial=" << spatial.getInt() << " has no counterpart";
  return success();
}

/// At 14 only the inference form of BatchNormalization (Y alone) keeps its
/// meaning.
LogicalResult adaptBatchNormalization14(Adaptation &s) {
  if (s.op->getNumResults() > 1)
    return s.error() << "the training outputs (mean, var, saved_mean, "
                        "saved_var) changed meaning";
  return success();
}

/// Cast-1's `to` names the type; Cast-6's is its TensorProto code.
LogicalResult adaptCast6(Adaptation &s) {
  s.edit.dropAttrs.push_back("to");
  auto to6 = dyn_cast_or_null<StringAttr>(s.attr("to"));
  if (!to6)
    return success();
  int32_t code = 0;
  for (int32_t c = 1; c < 32; ++c)
    if (getDataTypeName(c) == to6.getValue().upper())
      code = c;
  if (!code)
    return s.error() << "unknown data type '" << to6.getValue() << "'";
  s.edit.setAttrs.push_back(
      s.attrs.getNamedAttr("to", s.attrs.getI64IntegerAttr(code)));
  return success();
}

/// LpPool's p became an integer at 2.
LogicalResult adaptLpPool2(Adaptation &s) {
  s.edit.dropAttrs.push_back("p");
  if (auto p = dyn_cast_or_null<FloatAttr>(s.attr("p"))) {
    double value = p.getValueAsDouble();
    if (value != static_cast<double>(static_cast<int64_t>(value)))
      return s.error() << "p=" << value << " is not an integer";
    s.edit.setAttrs.push_back(s.attrs.getNamedAttr(
        "p", s.attrs.getI64IntegerAttr(static_cast<int64_t>(value))));
  }
  return success();
}

/// Concat's axis (default 1) became required at 4.
LogicalResult adaptConcat4(Adaptation &s) {
  if (!s.attr("axis"))
    s.edit.setAttrs.push_back(
        s.attrs.getNamedAttr("axis", s.attrs.getI64IntegerAttr(1)));
  return success();
}

/// GridSample's modes bilinear/bicubic are linear/cubic from 20 on.
LogicalResult adaptGridSample20(Adaptation &s) {
  if (auto mode = dyn_cast_or_null<StringAttr>(s.attr("mode"))) {
    StringRef m = llvm::StringSwitch<StringRef>(mode.getValue())
                      .Case("bilinear", "linear")
                      .Case("bicubic", "cubic")
                      .Default(mode.getValue());
    s.edit.dropAttrs.push_back("mode");
    s.edit.setAttrs.push_back(
        s.attrs.getNamedAttr("mode", s.attrs.getStringAttr(m)));
  }
  return success();
}

/// DFT's axis became an input whose default (-2) differs from the
/// attribute's (1).
LogicalResult adaptDFT20(Adaptation &s) {
  s.edit.dropAttrs.push_back("axis");
  int64_t axis = 1;
  if (auto a = dyn_cast_or_null<IntegerAttr>(s.attr("axis")))
    axis = a.getInt();
  auto type = RankedTensorType::get({}, s.b.getI64Type());
  s.edit.setInputs["axis"] =
      createConstant(s.b, s.loc, DenseElementsAttr::get(type, axis), s.target);
  return success();
}

/// Resize-10 scales from the corner (asymmetric) and picks the nearest
/// pixel by rounding down.
LogicalResult adaptResize11(Adaptation &s) {
  auto type = RankedTensorType::get({0}, s.b.getF32Type());
  s.edit.setInputs["roi"] = createConstant(
      s.b, s.loc, DenseElementsAttr::get(type, ArrayRef<float>()), s.target);
  s.edit.setAttrs.push_back(s.attrs.getNamedAttr(
      "coordinate_transformation_mode", s.attrs.getStringAttr("asymmetric")));
  auto mode = dyn_cast_or_null<StringAttr>(s.attr("mode"));
  if (!mode || mode.getValue() == "nearest")
    s.edit.setAttrs.push_back(
        s.attrs.getNamedAttr("nearest_mode", s.attrs.getStringAttr("floor")));
  return success();
}

LogicalResult adaptTile6(Adaptation &s) {
  return s.error() << "Tile-1's (tiles, axis) inputs need the input rank; not "
                      "supported";
}

/// The adapters by the target version of their step (the first that
/// matches applies).
struct Adapter {
  bool (*matches)(const OpSchema &);
  LogicalResult (*adapt)(Adaptation &);
};
const Adapter kAdapters[] = {
    {isSchemaOf<GemmV7Op>, adaptGemm7},
    {isSchemaOf<AddV7Op, SubV7Op, MulV7Op, DivV7Op, PowV7Op, AndOp, OrOp, XorOp,
                EqualV7Op, GreaterV7Op, LessV7Op>,
     adaptLegacyBroadcast},
    {isSchemaOf<PReluV7Op>, adaptPRelu7},
    {isSchemaOf<ClipV11Op>, adaptClip11},
    {isSchemaOf<PadV2Op>, adaptPad2},
    {isSchemaOf<PadV11Op>, adaptPad11},
    {isSchemaOf<SplitV2Op>, adaptSplit2},
    {isSchemaOf<SplitV13Op>, adaptAttrsToInputs<kSplit>},
    {isSchemaOf<SqueezeV13Op, UnsqueezeV13Op>, adaptAttrsToInputs<kAxes>},
    {isSchemaOf<ReduceSumOp, ReduceL1Op, ReduceL2Op, ReduceLogSumOp,
                ReduceLogSumExpOp, ReduceMaxV18Op, ReduceMeanOp, ReduceMinV18Op,
                ReduceProdOp, ReduceSumSquareOp>,
     adaptAttrsToInputs<kAxes>},
    {isSchemaOf<ReshapeV5Op>, adaptAttrsToInputs<kShape>},
    {isSchemaOf<SliceV10Op>, adaptAttrsToInputs<kStarts, kEnds, kAxes>},
    {isSchemaOf<TopKV10Op>, adaptTopK10},
    {isSchemaOf<DropoutV10Op>, adaptDropout10},
    {isSchemaOf<DropoutV12Op>, adaptDropout12},
    {isSchemaOf<UpsampleV9Op>, adaptUpsample9},
    {isSchemaOf<UpsampleV7Op>, adaptUpsample7},
    {isSchemaOf<BatchNormalizationV9Op>, adaptBatchNormalization9},
    {isSchemaOf<BatchNormalizationV14Op>, adaptBatchNormalization14},
    {isSchemaOf<CastV6Op>, adaptCast6},
    {isSchemaOf<LpPoolV2Op, GlobalLpPoolV2Op>, adaptLpPool2},
    {isSchemaOf<ConcatV4Op>, adaptConcat4},
    {isSchemaOf<GridSampleV20Op>, adaptGridSample20},
    {isSchemaOf<DFTOp>, adaptDFT20},
    {isSchemaOf<ResizeV11Op>, adaptResize11},
    {isSchemaOf<TileV6Op>, adaptTile6},
};
} // namespace

LogicalResult Converter::adapt(Operation *op, const OpSchema &from,
                               const OpSchema &to, StepEdit &edit) {
  if (*to.domain)
    return success();
  for (const Adapter &adapter : kAdapters)
    if (adapter.matches(to)) {
      Adaptation step(op, from, to, edit, target);
      return adapter.adapt(step);
    }
  return success();
}

/// `type` without its first dim (a batch or sequence axis): unranked when
/// its rank is unknown.
static Type dropLeadingDim(Type type) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    if (ranked.getRank() >= 1)
      return RankedTensorType::get(ranked.getShape().drop_front(),
                                   ranked.getElementType());
  if (auto tensor = dyn_cast<TensorType>(type))
    return UnrankedTensorType::get(tensor.getElementType());
  return type;
}

// Scan-8 runs its body over every batch element on its own: the states are
// [batch, ...] and the scan inputs [batch, sequence, ...]. Each element is
// a Scan-9 over its states and sequences, so the converted form is an outer
// Scan over the batch axis of every operand (no carried state; the outer
// scan outputs stack each element's final states and scan outputs back along
// the batch axis) whose body runs an inner Scan with the original body.
// With sequence_lens, element b runs the first sequence_lens[b] steps (in a
// reverse direction: from step sequence_lens[b] - 1 down), and its scan
// outputs are zero from there to the longest sequence, as ONNX Runtime's
// Scan-8 does; a length beyond the sequence is clamped to it (Slice's rule).
FailureOr<Operation *> Converter::scan8ToBatchedScan(Operation *op,
                                                     OperationName to) {
  auto scan8 = cast<ScanV8Op>(op);
  const OpSchema &a = schemaOf(op), &bs = schemaOf(to);
  ValueRange operands = scan8.getInitialStateAndScanInputs();
  int64_t m = static_cast<int64_t>(scan8.getNumScanInputs().value_or(0));
  int64_t n = static_cast<int64_t>(operands.size()) - m;
  int64_t k = static_cast<int64_t>(op->getNumResults()) - n;
  if (m < 1 || n < 0 || k < 0)
    return error(op, a, bs) << "num_scan_inputs (" << m << ") does not fit its "
                            << operands.size() << " inputs and "
                            << op->getNumResults() << " outputs",
           failure();
  Value seqLens = scan8.getSequenceLens();
  if (seqLens && target < 13)
    return error(op, a, bs) << "sequence_lens needs a target opset of 13 or "
                               "newer (Slice, Pad and Reshape by inputs)",
           failure();
  SmallVector<int64_t> directions(m, 0);
  if (std::optional<ArrayRef<int64_t>> d = scan8.getDirections()) {
    if (static_cast<int64_t>(d->size()) != m)
      return error(op, a, bs) << "directions has " << d->size()
                              << " entries for " << m << " scan inputs",
             failure();
    directions.assign(d->begin(), d->end());
  }

  // With sequence_lens each scan output is padded along its first dim.
  if (seqLens)
    for (int64_t j = 0; j < k; ++j) {
      auto type = dyn_cast<RankedTensorType>(op->getResult(n + j).getType());
      if (!type || type.getRank() < 2)
        return error(op, a, bs)
                   << "with sequence_lens, scan output " << j
                   << " needs a known rank (to pad it to the longest sequence)",
               failure();
    }

  Builder attrs(ctx);
  std::string why;
  OpBuilder b(op);
  Location loc = op->getLoc();
  // The outer Scan: every operand (sequence_lens first) scanned on axis 0.
  SmallVector<Value> outerIns;
  if (seqLens)
    outerIns.push_back(seqLens);
  llvm::append_range(outerIns, operands);
  SmallVector<NamedAttribute> outerAttrs(op->getDiscardableAttrs());
  outerAttrs.push_back(attrs.getNamedAttr(
      "num_scan_inputs",
      attrs.getI64IntegerAttr(static_cast<int64_t>(outerIns.size()))));
  FailureOr<Operation *> outer =
      createSchemaOp(b, loc, to, outerIns,
                     llvm::to_vector(op->getResultTypes()), outerAttrs, &why);
  if (failed(outer))
    return error(op, a, bs) << why, failure();
  // A failure from here on (an op the schemas refuse: a bug) drops the
  // half-built Scan; the original op and its body are kept until the end.
  auto fail = [&]() -> FailureOr<Operation *> {
    error(op, a, bs) << why;
    (*outer)->erase();
    return failure();
  };

  // Its body: one batch element.
  Block *body = new Block();
  (*outer)->getRegion(0).push_back(body);
  for (Value v : outerIns)
    body->addArgument(dropLeadingDim(v.getType()), loc);
  OpBuilder ib = OpBuilder::atBlockBegin(body);
  auto unranked = [&](Type elem) -> Type {
    return UnrankedTensorType::get(elem);
  };
  auto create = [&](Operator opType, ArrayRef<Value> ins, Type type,
                    ArrayRef<NamedAttribute> opAttrs = {}) -> Value {
    FailureOr<Operation *> created =
        createSchemaOp(ib, loc, opType, target, ins, {type}, opAttrs, &why);
    return succeeded(created) ? (*created)->getResult(0) : Value();
  };
  Type i64 = b.getI64Type();
  ValueRange args = body->getArguments();
  Value len, lenFirst; // [1]: this element's length; the sequence's length
  SmallVector<Value> innerIns(args.drop_front(seqLens ? 1 : 0));
  if (seqLens) {
    len = create(Operator::of<ReshapeOp>(),
                 {args[0], createI64Constant(ib, loc, {1}, target)},
                 unranked(i64));
    Value zero = createI64Constant(ib, loc, {0}, target);
    Value shape =
        len ? create(Operator::of<ShapeOp>(), {innerIns[n]}, unranked(i64))
            : Value();
    lenFirst =
        shape ? create(Operator::of<GatherOp>(), {shape, zero}, unranked(i64))
              : Value();
    for (int64_t j = 0; j < m && lenFirst; ++j) {
      Value &x = innerIns[n + j];
      x = create(Operator::of<SliceOp>(), {x, zero, len, zero},
                 unranked(getElementTypeOrSelf(x.getType())));
      if (!x)
        break;
    }
    if (!lenFirst || llvm::any_of(innerIns, [](Value v) { return !v; }))
      return fail();
  }

  // The inner Scan: the original body over this element's sequences.
  SmallVector<Type> innerTypes;
  for (Type t : op->getResultTypes())
    innerTypes.push_back(dropLeadingDim(t));
  SmallVector<NamedAttribute> innerAttrs = {
      attrs.getNamedAttr("num_scan_inputs", attrs.getI64IntegerAttr(m)),
      attrs.getNamedAttr("scan_input_directions",
                         attrs.getDenseI64ArrayAttr(directions))};
  SmallVector<Type> innerResultTypes(innerTypes);
  if (seqLens)
    for (int64_t j = 0; j < k; ++j)
      innerResultTypes[n + j] =
          unranked(getElementTypeOrSelf(innerTypes[n + j]));
  FailureOr<Operation *> inner =
      createSchemaOp(ib, loc, to, innerIns, innerResultTypes, innerAttrs, &why);
  if (failed(inner))
    return fail();

  // Scan outputs past this element's length are zero, up to the longest.
  SmallVector<Value> results((*inner)->getResults());
  if (seqLens) {
    Value missing =
        create(Operator::of<SubOp>(), {lenFirst, len}, unranked(i64));
    for (int64_t j = 0; j < k && missing; ++j) {
      auto type = cast<RankedTensorType>(innerTypes[n + j]);
      int64_t rank = type.getRank();
      SmallVector<Value> parts = {
          createI64Constant(ib, loc, SmallVector<int64_t>(rank, 0), target),
          missing};
      if (rank > 1)
        parts.push_back(createI64Constant(
            ib, loc, SmallVector<int64_t>(rank - 1, 0), target));
      Value pads =
          create(Operator::of<ConcatOp>(), parts, unranked(i64),
                 {attrs.getNamedAttr("axis", attrs.getI64IntegerAttr(0))});
      Value &r = results[n + j];
      r = pads ? create(Operator::of<PadOp>(), {r, pads}, type) : Value();
      if (!r)
        return fail();
    }
    if (!missing)
      return fail();
  }
  (*inner)->getRegion(0).takeBody(op->getRegion(0));
  auto yield = YieldOp::create(ib, loc, results);
  yield->setAttr("onnx.name", attrs.getStringAttr("scan8_batch_body"));

  op->replaceAllUsesWith((*outer)->getResults());
  op->erase();
  return *outer;
}

FailureOr<Operation *> Converter::softmaxTo13(Operation *op, OperationName to) {
  const OpSchema &a = schemaOf(op), &bs = schemaOf(to);
  Value x = op->getOperand(0);
  auto axisAttr = dyn_cast_or_null<IntegerAttr>(
      op->getInherentAttr("axis").value_or(Attribute()));
  int64_t axis = axisAttr ? axisAttr.getInt() : 1;
  std::optional<int64_t> rank = rankOf(x);
  OpBuilder b(op);
  Location loc = op->getLoc();
  Builder attrs(ctx);
  SmallVector<NamedAttribute> discardable(op->getDiscardableAttrs());
  // Along the last axis the two semantics agree.
  if (rank && (axis == *rank - 1 || axis == -1)) {
    StepEdit edit;
    edit.dropAttrs.push_back("axis");
    edit.setAttrs.push_back(
        attrs.getNamedAttr("axis", attrs.getI64IntegerAttr(-1)));
    return rename(op, to, edit);
  }
  // Otherwise: flatten to 2-D at the axis, normalize the rows, reshape back.
  Type elem = elementTypeOf(x);
  if (!elem)
    return error(op, a, bs) << "needs a tensor input", failure();
  std::string why;
  Type unranked = UnrankedTensorType::get(elem);
  FailureOr<Operation *> flat = createSchemaOp(
      b, loc, Operator::of<FlattenOp>(), target, {x}, {unranked},
      {attrs.getNamedAttr("axis", attrs.getI64IntegerAttr(axis))}, &why);
  if (failed(flat))
    return error(op, a, bs) << why, failure();
  FailureOr<Operation *> norm = createSchemaOp(
      b, loc, to, {(*flat)->getResult(0)}, {unranked},
      {attrs.getNamedAttr("axis", attrs.getI64IntegerAttr(-1))}, &why);
  if (failed(norm))
    return error(op, a, bs) << why, failure();
  FailureOr<Operation *> shape =
      createSchemaOp(b, loc, Operator::of<ShapeOp>(), target, {x},
                     {UnrankedTensorType::get(b.getI64Type())}, {}, &why);
  if (failed(shape))
    return error(op, a, bs) << why, failure();
  SmallVector<NamedAttribute> reshapeAttrs(discardable);
  FailureOr<Operation *> reshape =
      createSchemaOp(b, loc, Operator::of<ReshapeOp>(), target,
                     {(*norm)->getResult(0), (*shape)->getResult(0)},
                     {op->getResult(0).getType()}, reshapeAttrs, &why);
  if (failed(reshape))
    return error(op, a, bs) << why, failure();
  op->getResult(0).replaceAllUsesWith((*reshape)->getResult(0));
  op->erase();
  return *norm;
}

FailureOr<Operation *> Converter::replaceOperator(Operation *op,
                                                  OperationName to) {
  // Same inputs, one output, attributes by name.
  const OpSchema &a = schemaOf(op), &bs = schemaOf(to);
  OpBuilder b(op);
  std::string why;
  SmallVector<NamedAttribute> attrs(op->getDiscardableAttrs());
  for (const AttrSchema &attr : a.attributes)
    if (auto value = op->getInherentAttr(attr.odsName); value && *value)
      attrs.push_back(NamedAttribute(StringAttr::get(ctx, attr.name), *value));
  FailureOr<Operation *> created =
      createSchemaOp(b, op->getLoc(), to, SmallVector<Value>(op->getOperands()),
                     {op->getResult(0).getType()}, attrs, &why);
  if (failed(created))
    return error(op, a, bs) << why, failure();
  op->getResult(0).replaceAllUsesWith((*created)->getResult(0));
  op->erase();
  return *created;
}

namespace {
struct ConvertOpsetPass
    : public mlir::onnx::impl::ONNXConvertOpsetBase<ConvertOpsetPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

LogicalResult mlir::onnx::convertOpToOpset(Operation *op, int64_t target) {
  auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!iface || *iface.getSchema().domain)
    return success();
  return Converter(op->getContext(), target).convert(op);
}

void ConvertOpsetPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  int64_t goal = target > 0 ? target : getNewestOpset(ctx);
  Converter converter(ctx, goal);
  // Only ai.onnx ops change: the other domains keep their opsets.
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
    if (iface && !*iface.getSchema().domain)
      ops.push_back(op);
  });
  bool failedAny = false;
  for (Operation *op : ops)
    if (failed(converter.convert(op)))
      failedAny = true;
  if (failedAny)
    return signalPassFailure();

  // The model (and each function) now imports the target opset.
  auto setOpset = [&](DictionaryAttr opsets) -> DictionaryAttr {
    NamedAttrList list(opsets);
    list.set("ai.onnx", IntegerAttr::get(IntegerType::get(ctx, 64), goal));
    return list.getDictionary(ctx);
  };
  if (auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import"))
    module->setAttr("onnx.opset_import", setOpset(opsets));
  for (auto func : module.getOps<func::FuncOp>()) {
    auto info = func->getAttrOfType<DictionaryAttr>("onnx.function");
    if (!info)
      continue;
    auto opsets = info.getAs<DictionaryAttr>("opset_import");
    if (!opsets || !opsets.get("ai.onnx"))
      continue;
    NamedAttrList list(info);
    list.set("opset_import", setOpset(opsets));
    func->setAttr("onnx.function", list.getDictionary(ctx));
  }
}
