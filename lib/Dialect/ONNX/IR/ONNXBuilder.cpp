//===- ONNXBuilder.cpp - Creating onnx ops the way ONNX nodes read --------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::onnx;

const AttrSchema *mlir::onnx::findAttrSchema(const OpSchema &schema,
                                             StringRef name) {
  for (const AttrSchema &attr : schema.attributes)
    if (name == attr.name)
      return &attr;
  return nullptr;
}

static const OpSchema *schemaOf(OperationName name) {
  auto *iface = name.getInterface<ONNXSchemaOpInterface>();
  return iface ? &iface->getSchema() : nullptr;
}

FailureOr<Operation *>
mlir::onnx::createSchemaOp(OpBuilder &builder, Location loc, OperationName name,
                           ArrayRef<Value> inputs, ArrayRef<Type> outputTypes,
                           ArrayRef<NamedAttribute> attrs, std::string *why) {
  auto fail = [&](const Twine &reason) -> FailureOr<Operation *> {
    if (why)
      *why = reason.str();
    return failure();
  };
  const OpSchema *schema = schemaOf(name);
  if (!schema)
    return fail(name.getStringRef() + " is not an ONNX operator op");
  if (schema->deprecated)
    return fail(Twine(schema->name) + "-" + Twine(schema->sinceVersion) +
                " is deprecated");

  auto fit = [&](ArrayRef<bool> present, ArrayRef<ArgSchema> args,
                 StringRef kind) -> FailureOr<SmallVector<int32_t>> {
    SlotMismatch mismatch;
    FailureOr<SmallVector<int32_t>> sizes =
        assignSlotsToGroups(present, args, mismatch);
    if (succeeded(sizes))
      return sizes;
    switch (mismatch.kind) {
    case SlotMismatch::MissingRequired:
      (void)fail(Twine(kind) + " '" + mismatch.arg->name + "' is required");
      break;
    case SlotMismatch::OmittedInVariadic:
      (void)fail(Twine("variadic ") + kind + " '" + mismatch.arg->name +
                 "' has an omitted value");
      break;
    case SlotMismatch::TooMany:
      (void)fail(Twine(mismatch.given) + " " + kind + "s, " + schema->name +
                 " takes at most " + Twine(mismatch.taken));
      break;
    }
    return failure();
  };

  SmallVector<bool> inPresent, outPresent;
  SmallVector<Value> operands;
  SmallVector<Type> types;
  for (Value v : inputs) {
    inPresent.push_back(static_cast<bool>(v));
    if (v)
      operands.push_back(v);
  }
  for (Type t : outputTypes) {
    outPresent.push_back(static_cast<bool>(t));
    if (t)
      types.push_back(t);
  }
  FailureOr<SmallVector<int32_t>> inSizes =
      fit(inPresent, schema->inputs, "input");
  if (failed(inSizes))
    return failure();
  FailureOr<SmallVector<int32_t>> outSizes =
      fit(outPresent, schema->outputs, "output");
  if (failed(outSizes))
    return failure();

  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(types);
  if (name.hasTrait<OpTrait::AttrSizedOperandSegments>())
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(*inSizes));
  if (name.hasTrait<OpTrait::AttrSizedResultSegments>())
    state.addAttribute("resultSegmentSizes",
                       builder.getDenseI32ArrayAttr(*outSizes));
  for (NamedAttribute attr : attrs) {
    StringRef attrName = attr.getName().strref();
    if (attrName.starts_with("onnx.")) {
      state.addAttribute(attr.getName(), attr.getValue());
      continue;
    }
    const AttrSchema *a = findAttrSchema(*schema, attrName);
    if (!a || schema->isGraph(*a))
      return fail(Twine(schema->name) + "-" + Twine(schema->sinceVersion) +
                  " has no attribute '" + attrName + "'");
    state.addAttribute(a->odsName, attr.getValue());
  }
  for (const AttrSchema &a : schema->attributes)
    if (schema->isGraph(a))
      state.addRegion();
  return builder.create(state);
}

FailureOr<Operation *>
mlir::onnx::createSchemaOp(OpBuilder &builder, Location loc, StringRef domain,
                           StringRef opType, int64_t opsetVersion,
                           ArrayRef<Value> inputs, ArrayRef<Type> outputTypes,
                           ArrayRef<NamedAttribute> attrs, std::string *why) {
  std::optional<OperationName> name =
      lookupSchemaOp(builder.getContext(), domain, opType, opsetVersion);
  if (!name) {
    if (why)
      *why = (Twine("operator ") + opType + " has no version at opset " +
              Twine(opsetVersion))
                 .str();
    return failure();
  }
  return createSchemaOp(builder, loc, *name, inputs, outputTypes, attrs, why);
}

Value mlir::onnx::createConstant(OpBuilder &builder, Location loc,
                                 ElementsAttr value, int64_t opsetVersion) {
  FailureOr<Operation *> op =
      createSchemaOp(builder, loc, Operator::of<ConstantOp>(), opsetVersion, {},
                     {value.getType()}, {builder.getNamedAttr("value", value)});
  assert(succeeded(op) && "every opset has a Constant with a value");
  return (*op)->getResult(0);
}

Value mlir::onnx::createI64Constant(OpBuilder &builder, Location loc,
                                    ArrayRef<int64_t> values,
                                    int64_t opsetVersion) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI64Type());
  return createConstant(builder, loc, DenseElementsAttr::get(type, values),
                        opsetVersion);
}

int64_t mlir::onnx::getNewestOpset(MLIRContext *ctx) {
  int64_t newest = 1;
  for (RegisteredOperationName name :
       ctx->getRegisteredOperationsByDialect("onnx")) {
    auto *iface = name.getInterface<ONNXSchemaOpInterface>();
    if (!iface)
      continue;
    const OpSchema &s = iface->getSchema();
    if (!*s.domain)
      newest = std::max<int64_t>(newest, s.sinceVersion);
  }
  return newest;
}

int64_t mlir::onnx::getOpsetOf(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto opsets = p->getAttrOfType<DictionaryAttr>("onnx.opset_import"))
      if (auto v = opsets.getAs<IntegerAttr>("ai.onnx"))
        return v.getInt();
  return getNewestOpset(op->getContext());
}
