//===- ONNXSchema.cpp - Printer, parser and verifier of operator ops ------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generated operator ops share one assembly format and one verifier,
// both driven by the op's OpSchema (ONNXSchema.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::onnx;

static constexpr llvm::StringLiteral kOperandSegments = "operandSegmentSizes";
static constexpr llvm::StringLiteral kResultSegments = "resultSegmentSizes";

/// A deprecated schema version lists no inputs or outputs; its op takes any.
static const ArgSchema kAnyValues[] = {
    {"values", ArgKind::Variadic, -1, 0, true, ""}};

static ArrayRef<ArgSchema> getArgs(const OpSchema &schema, bool inputs) {
  if (schema.deprecated)
    return kAnyValues;
  return inputs ? schema.inputs : schema.outputs;
}

static std::string describe(const ArgSchema &arg, bool input) {
  return (Twine(input ? "input '" : "output '") + arg.name + "'").str();
}

//===----------------------------------------------------------------------===//
// Groups: which values of an op belong to which ONNX input or output
//===----------------------------------------------------------------------===//

SmallVector<int32_t>
mlir::onnx::getGroupSizes(Operation *op, const OpSchema &schema, bool inputs) {
  ArrayRef<ArgSchema> args = getArgs(schema, inputs);
  bool segmented = inputs ? op->hasTrait<OpTrait::AttrSizedOperandSegments>()
                          : op->hasTrait<OpTrait::AttrSizedResultSegments>();
  if (segmented) {
    std::optional<Attribute> attr =
        op->getInherentAttr(inputs ? kOperandSegments : kResultSegments);
    if (attr)
      if (auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(*attr))
        if (sizes.size() == static_cast<int64_t>(args.size()))
          return SmallVector<int32_t>(sizes.asArrayRef());
  }
  // At most one group is not Single: it takes what the others leave.
  int64_t total = inputs ? op->getNumOperands() : op->getNumResults();
  int64_t singles = llvm::count_if(
      args, [](const ArgSchema &a) { return a.kind == ArgKind::Single; });
  SmallVector<int32_t> sizes;
  for (const ArgSchema &arg : args)
    sizes.push_back(
        arg.kind == ArgKind::Single
            ? 1
            : static_cast<int32_t>(std::max<int64_t>(0, total - singles)));
  return sizes;
}

FailureOr<SmallVector<int32_t>>
mlir::onnx::assignSlotsToGroups(ArrayRef<bool> present,
                                ArrayRef<ArgSchema> args, SlotMismatch &why) {
  SmallVector<int32_t> sizes(args.size(), 0);
  size_t slot = 0, n = present.size();
  for (auto [i, arg] : llvm::enumerate(args)) {
    switch (arg.kind) {
    case ArgKind::Single:
      if (slot >= n || !present[slot]) {
        why = {SlotMismatch::MissingRequired, &arg};
        return failure();
      }
      sizes[i] = 1;
      ++slot;
      break;
    case ArgKind::Optional:
      if (slot < n)
        sizes[i] = present[slot++] ? 1 : 0;
      break;
    case ArgKind::Variadic:
      for (; slot < n; ++slot, ++sizes[i])
        if (!present[slot]) {
          why = {SlotMismatch::OmittedInVariadic, &arg};
          return failure();
        }
      break;
    }
  }
  if (slot < n) {
    why = {SlotMismatch::TooMany, nullptr, n, slot};
    return failure();
  }
  return sizes;
}

/// The parser's view of assignSlotsToGroups: an error at `loc`.
static FailureOr<SmallVector<int32_t>>
assignGroups(OpAsmParser &parser, SMLoc loc, ArrayRef<bool> present,
             ArrayRef<ArgSchema> args, bool inputs) {
  SlotMismatch why;
  FailureOr<SmallVector<int32_t>> sizes =
      assignSlotsToGroups(present, args, why);
  if (succeeded(sizes))
    return sizes;
  switch (why.kind) {
  case SlotMismatch::MissingRequired:
    return parser.emitError(loc) << describe(*why.arg, inputs)
                                 << " is required and cannot be omitted";
  case SlotMismatch::OmittedInVariadic:
    return parser.emitError(loc) << "variadic " << describe(*why.arg, inputs)
                                 << " cannot have omitted values";
  case SlotMismatch::TooMany:
    break;
  }
  return parser.emitError(loc)
         << "expected at most " << args.size()
         << (inputs ? " inputs" : " outputs") << ", got " << why.given;
}

//===----------------------------------------------------------------------===//
// Assembly format
//===----------------------------------------------------------------------===//

ParseResult mlir::onnx::parseSchemaOp(OpAsmParser &parser,
                                      OperationState &result,
                                      const OpSchema &schema) {
  Builder &builder = parser.getBuilder();

  // (%a, none, %b)
  SMLoc operandsLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<bool> operandPresent;
  auto parseSlot = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("none"))) {
      operandPresent.push_back(false);
      return success();
    }
    operandPresent.push_back(true);
    return parser.parseOperand(operands.emplace_back());
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseSlot))
    return failure();
  FailureOr<SmallVector<int32_t>> operandSizes = assignGroups(
      parser, operandsLoc, operandPresent, getArgs(schema, true), true);
  if (failed(operandSizes))
    return failure();

  SMLoc attrsLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // An inherent attribute of the wrong kind would otherwise be dropped when
  // the op's properties are filled in.
  if (std::optional<RegisteredOperationName> name =
          result.name.getRegisteredInfo())
    if (failed(name->verifyInherentAttrs(result.attributes, [&]() {
          return parser.emitError(attrsLoc)
                 << "'" << result.name.getStringRef() << "' op ";
        })))
      return failure();
  if (parser.parseColon())
    return failure();

  // : (operand types) -> result types, `none` for an omitted result.
  SmallVector<Type> operandTypes;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen()) &&
      (parser.parseTypeList(operandTypes) || parser.parseRParen()))
    return failure();
  if (parser.parseArrow())
    return failure();
  SMLoc resultsLoc = parser.getCurrentLocation();
  SmallVector<Type> resultSlots;
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseTypeList(resultSlots) || parser.parseRParen()))
      return failure();
  } else if (parser.parseType(resultSlots.emplace_back())) {
    return failure();
  }
  SmallVector<bool> resultPresent;
  for (Type t : resultSlots) {
    resultPresent.push_back(!isa<NoneType>(t));
    if (resultPresent.back())
      result.addTypes(t);
  }
  FailureOr<SmallVector<int32_t>> resultSizes = assignGroups(
      parser, resultsLoc, resultPresent, getArgs(schema, false), false);
  if (failed(resultSizes))
    return failure();

  if (parser.resolveOperands(operands, operandTypes, operandsLoc,
                             result.operands))
    return failure();
  if (result.name.hasTrait<OpTrait::AttrSizedOperandSegments>())
    result.addAttribute(kOperandSegments,
                        builder.getDenseI32ArrayAttr(*operandSizes));
  if (result.name.hasTrait<OpTrait::AttrSizedResultSegments>())
    result.addAttribute(kResultSegments,
                        builder.getDenseI32ArrayAttr(*resultSizes));

  // Graph attributes by name, in any order (printed in schema order).
  SmallVector<StringRef> graphNames;
  SmallVector<Region *> regions;
  for (const AttrSchema &attr : schema.attributes) {
    if (!schema.isGraph(attr))
      continue;
    graphNames.push_back(attr.odsName);
    regions.push_back(result.addRegion());
  }
  StringRef keyword;
  while (!graphNames.empty() &&
         succeeded(parser.parseOptionalKeyword(&keyword, graphNames))) {
    Region *region =
        regions[llvm::find(graphNames, keyword) - graphNames.begin()];
    if (!region->empty())
      return parser.emitError(parser.getCurrentLocation())
             << "graph '" << keyword << "' given twice";
    if (parser.parseRegion(*region))
      return failure();
  }
  return success();
}

/// Prints the slots of `values` in groups, `none` for an omitted optional,
/// dropping trailing omitted ones.
template <typename PrintFn>
static void printSlots(ArrayRef<ArgSchema> args, ArrayRef<int32_t> sizes,
                       size_t numValues, PrintFn printValue,
                       SmallVectorImpl<int64_t> &slots) {
  // slots: value index, or -1 for an omitted optional.
  size_t next = 0;
  for (auto [arg, size] : llvm::zip(args, sizes)) {
    if (arg.kind == ArgKind::Optional && size == 0) {
      slots.push_back(-1);
      continue;
    }
    for (int32_t i = 0; i < size && next < numValues; ++i)
      slots.push_back(next++);
  }
  while (!slots.empty() && slots.back() == -1)
    slots.pop_back();
  (void)printValue;
}

void mlir::onnx::printSchemaOp(OpAsmPrinter &p, Operation *op,
                               const OpSchema &schema) {
  auto noop = [](int64_t) {};
  SmallVector<int64_t> inSlots, outSlots;
  printSlots(getArgs(schema, true), getGroupSizes(op, schema, true),
             op->getNumOperands(), noop, inSlots);
  printSlots(getArgs(schema, false), getGroupSizes(op, schema, false),
             op->getNumResults(), noop, outSlots);

  p << "(";
  llvm::interleaveComma(inSlots, p, [&](int64_t slot) {
    if (slot < 0)
      p << "none";
    else
      p.printOperand(op->getOperand(slot));
  });
  p << ")";
  p.printOptionalAttrDict(op->getAttrDictionary().getValue(),
                          {kOperandSegments, kResultSegments});
  p << " : (";
  llvm::interleaveComma(op->getOperandTypes(), p);
  p << ") -> ";
  bool bare = outSlots.size() == 1 && outSlots[0] >= 0 &&
              !isa<FunctionType>(op->getResult(outSlots[0]).getType());
  if (!bare)
    p << "(";
  llvm::interleaveComma(outSlots, p, [&](int64_t slot) {
    if (slot < 0)
      p << "none";
    else
      p.printType(op->getResult(slot).getType());
  });
  if (!bare)
    p << ")";

  unsigned regionIndex = 0;
  for (const AttrSchema &attr : schema.attributes) {
    if (!schema.isGraph(attr))
      continue;
    Region &region = op->getRegion(regionIndex++);
    if (region.empty())
      continue;
    p << " " << attr.odsName << " ";
    p.printRegion(region, /*printEntryBlockArgs=*/true,
                  /*printBlockTerminators=*/true);
  }
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

bool mlir::onnx::isSameTypeModuloShape(Type a, Type b) {
  // A polymorphic function's value may turn out to be any type.
  if (isa<AnyType>(a) || isa<AnyType>(b))
    return true;
  if (auto ta = dyn_cast<TensorType>(a)) {
    auto tb = dyn_cast<TensorType>(b);
    return tb && ta.getElementType() == tb.getElementType();
  }
  if (auto sa = dyn_cast<SeqType>(a)) {
    auto sb = dyn_cast<SeqType>(b);
    return sb &&
           isSameTypeModuloShape(sa.getElementType(), sb.getElementType());
  }
  if (auto oa = dyn_cast<OptType>(a)) {
    auto ob = dyn_cast<OptType>(b);
    return ob &&
           isSameTypeModuloShape(oa.getElementType(), ob.getElementType());
  }
  if (auto ma = dyn_cast<MapType>(a)) {
    auto mb = dyn_cast<MapType>(b);
    return mb && ma.getKeyType() == mb.getKeyType() &&
           isSameTypeModuloShape(ma.getValueType(), mb.getValueType());
  }
  if (auto sa = dyn_cast<SparseTensorType>(a)) {
    auto sb = dyn_cast<SparseTensorType>(b);
    return sb && sa.getTensorType().getElementType() ==
                     sb.getTensorType().getElementType();
  }
  return a == b;
}

static LogicalResult verifyAttributes(Operation *op, const OpSchema &schema) {
  DictionaryAttr refs;
  if (Attribute attr = op->getDiscardableAttr(getAttrRefsAttrName())) {
    refs = dyn_cast<DictionaryAttr>(attr);
    if (!refs)
      return op->emitOpError()
             << "'" << getAttrRefsAttrName()
             << "' must be a dictionary of attribute references";
    for (NamedAttribute ref : refs) {
      const AttrSchema *attr =
          llvm::find_if(schema.attributes, [&](const AttrSchema &a) {
            return ref.getName() == a.name;
          });
      if (attr == schema.attributes.end())
        return op->emitOpError() << "references a function attribute for '"
                                 << ref.getName().getValue()
                                 << "', which the operator does not have";
      if (!isa<AttrRefAttr>(ref.getValue()))
        return op->emitOpError()
               << "reference for attribute '" << ref.getName().getValue()
               << "' must be an #onnx.ref, got " << ref.getValue();
      std::optional<Attribute> value = op->getInherentAttr(attr->odsName);
      if (value && *value)
        return op->emitOpError()
               << "attribute '" << ref.getName().getValue()
               << "' has both a value and a function attribute reference";
    }
  }
  for (const AttrSchema &attr : schema.attributes) {
    if (!attr.required || schema.isGraph(attr))
      continue;
    std::optional<Attribute> value = op->getInherentAttr(attr.odsName);
    if ((!value || !*value) && !(refs && refs.get(attr.name)))
      return op->emitOpError() << "requires attribute '" << attr.name << "'";
  }
  return success();
}

static LogicalResult
verifyValues(Operation *op, const OpSchema &schema, bool inputs,
             SmallVectorImpl<std::pair<Type, std::string>> &bindings) {
  ArrayRef<ArgSchema> args = getArgs(schema, inputs);
  SmallVector<int32_t> sizes = getGroupSizes(op, schema, inputs);
  auto values =
      inputs ? ValueRange(op->getOperands()) : ValueRange(op->getResults());
  unsigned next = 0;
  for (auto [arg, size] : llvm::zip(args, sizes)) {
    if (arg.kind == ArgKind::Variadic && size < arg.minArity)
      return op->emitOpError()
             << "variadic " << describe(arg, inputs) << " needs at least "
             << arg.minArity << " value(s), got " << size;
    for (int32_t i = 0; i < size && next < values.size(); ++i, ++next) {
      if (arg.typeVar < 0 || arg.heterogeneous)
        continue;
      Type type = values[next].getType();
      auto &[bound, by] = bindings[arg.typeVar];
      std::string self = describe(arg, inputs);
      if (arg.kind == ArgKind::Variadic)
        self += " #" + std::to_string(i);
      if (!bound) {
        bound = type;
        by = self;
        continue;
      }
      if (!isSameTypeModuloShape(bound, type))
        return op->emitOpError()
               << self << " has type " << type << " but type variable '"
               << schema.typeVars[arg.typeVar].name << "' is bound to " << bound
               << " by " << by;
    }
  }
  return success();
}

LogicalResult mlir::onnx::verifySchemaOp(Operation *op) {
  const OpSchema &schema = cast<ONNXSchemaOpInterface>(op).getSchema();
  if (schema.deprecated)
    return op->emitOpError()
           << "is operator '" << schema.name << "' of "
           << (*schema.domain ? schema.domain : "ai.onnx")
           << " as deprecated in opset " << schema.sinceVersion
           << "; a model at that opset cannot use it";
  if (failed(verifyAttributes(op, schema)))
    return failure();
  SmallVector<std::pair<Type, std::string>> bindings(schema.typeVars.size());
  if (failed(verifyValues(op, schema, /*inputs=*/true, bindings)) ||
      failed(verifyValues(op, schema, /*inputs=*/false, bindings)))
    return failure();
  return verifyInferredTypes(op);
}

//===----------------------------------------------------------------------===//
// Lookup of the op a node binds to (Versioning.md)
//===----------------------------------------------------------------------===//

static std::string indexKey(StringRef domain, StringRef opType) {
  if (domain == "ai.onnx")
    domain = "";
  return (domain + "::" + opType).str();
}

void ONNXDialect::buildSchemaIndex() {
  for (RegisteredOperationName name :
       getContext()->getRegisteredOperationsByDialect(getNamespace())) {
    auto *iface = name.getInterface<ONNXSchemaOpInterface>();
    if (!iface)
      continue;
    const OpSchema &schema = iface->getSchema();
    schemaIndex[indexKey(schema.domain, schema.name)].push_back(
        {schema.sinceVersion, name});
  }
  for (auto &entry : schemaIndex)
    llvm::sort(entry.second, llvm::less_first());
}

std::optional<OperationName> mlir::onnx::lookupSchemaOp(MLIRContext *context,
                                                        StringRef domain,
                                                        StringRef opType,
                                                        int64_t opsetVersion) {
  auto *dialect = context->getOrLoadDialect<ONNXDialect>();
  auto it = dialect->getSchemaIndex().find(indexKey(domain, opType));
  if (it == dialect->getSchemaIndex().end())
    return std::nullopt;
  std::optional<OperationName> found;
  for (const auto &[version, name] : it->second)
    if (version <= opsetVersion)
      found = name;
  return found;
}

bool mlir::onnx::isWidenedFrom(Operation *op, OperationName selected) {
  auto from = op->getAttrOfType<IntegerAttr>("onnx.widened_from");
  auto *selectedIface = selected.getInterface<ONNXSchemaOpInterface>();
  auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!from || !selectedIface || !iface)
    return false;
  const OpSchema &a = selectedIface->getSchema(), &b = iface.getSchema();
  return a.sinceVersion == from.getInt() && StringRef(a.name) == b.name &&
         StringRef(a.domain) == b.domain && b.sinceVersion > a.sinceVersion;
}
