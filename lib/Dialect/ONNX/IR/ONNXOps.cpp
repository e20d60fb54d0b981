//===- ONNXOps.cpp - The structural ops of the onnx dialect ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx.custom and onnx.call; the operator ops are defined in the sharded
// ONNXOpsShard*.cpp files and share ONNXSchema.cpp.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::onnx;

#include "OnnxDialect/Dialect/ONNX/IR/ONNXInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// CustomOp
//===----------------------------------------------------------------------===//

/// Parses `(` (`none` | operand-or-type) list `)`, recording omitted slots.
template <typename ParseFn>
static ParseResult parseSlotList(OpAsmParser &parser,
                                 SmallVectorImpl<int64_t> &absent,
                                 ParseFn parseElement) {
  int64_t slot = 0;
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        int64_t index = slot++;
        if (succeeded(parser.parseOptionalKeyword("none"))) {
          absent.push_back(index);
          return success();
        }
        return parseElement();
      });
}

ParseResult CustomOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  std::string domain, opType;
  if (parser.parseString(&domain) || parser.parseString(&opType))
    return failure();
  result.addAttribute(getDomainAttrName(result.name),
                      builder.getStringAttr(domain));
  result.addAttribute(getOpTypeAttrName(result.name),
                      builder.getStringAttr(opType));

  SMLoc operandsLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<int64_t> absentInputs, absentOutputs;
  if (parseSlotList(parser, absentInputs, [&] {
        return parser.parseOperand(operands.emplace_back());
      }))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();

  SmallVector<Type> operandTypes, resultTypes;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen()) &&
      (parser.parseTypeList(operandTypes) || parser.parseRParen()))
    return failure();
  if (parser.parseArrow() || parseSlotList(parser, absentOutputs, [&] {
        return parser.parseType(resultTypes.emplace_back());
      }))
    return failure();
  if (parser.resolveOperands(operands, operandTypes, operandsLoc,
                             result.operands))
    return failure();
  result.addTypes(resultTypes);
  if (!absentInputs.empty())
    result.addAttribute(getAbsentInputsAttrName(result.name),
                        builder.getDenseI64ArrayAttr(absentInputs));
  if (!absentOutputs.empty())
    result.addAttribute(getAbsentOutputsAttrName(result.name),
                        builder.getDenseI64ArrayAttr(absentOutputs));

  // name { region } ...
  SmallVector<Attribute> graphNames;
  std::string graphName;
  while (succeeded(parser.parseOptionalString(&graphName))) {
    graphNames.push_back(builder.getStringAttr(graphName));
    if (parser.parseRegion(*result.addRegion()))
      return failure();
  }
  if (!graphNames.empty())
    result.addAttribute(getGraphNamesAttrName(result.name),
                        builder.getArrayAttr(graphNames));
  return success();
}

/// Prints `count` slots, `none` at the indices in `absent`.
static void printSlotList(OpAsmPrinter &p, size_t numPresent,
                          std::optional<ArrayRef<int64_t>> absent,
                          function_ref<void(size_t)> printElement) {
  ArrayRef<int64_t> omitted = absent.value_or(ArrayRef<int64_t>());
  size_t total = numPresent + omitted.size(), next = 0;
  p << "(";
  for (size_t slot = 0; slot < total; ++slot) {
    if (slot)
      p << ", ";
    if (llvm::is_contained(omitted, static_cast<int64_t>(slot)))
      p << "none";
    else
      printElement(next++);
  }
  p << ")";
}

void CustomOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printString(getDomain());
  p << " ";
  p.printString(getOpType());
  printSlotList(p, getInputs().size(), getAbsentInputs(),
                [&](size_t i) { p.printOperand(getInputs()[i]); });
  p.printOptionalAttrDict(
      (*this)->getAttrDictionary().getValue(),
      {getDomainAttrName(), getOpTypeAttrName(), getAbsentInputsAttrName(),
       getAbsentOutputsAttrName(), getGraphNamesAttrName()});
  p << " : (";
  llvm::interleaveComma(getInputs().getTypes(), p);
  p << ") -> ";
  printSlotList(p, getNumResults(), getAbsentOutputs(),
                [&](size_t i) { p.printType(getResult(i).getType()); });
  ArrayAttr names = getGraphNames().value_or(ArrayAttr());
  for (auto [i, region] : llvm::enumerate(getGraphs())) {
    p << " ";
    p.printString(names ? cast<StringAttr>(names[i]).getValue() : "");
    p << " ";
    p.printRegion(region, /*printEntryBlockArgs=*/true,
                  /*printBlockTerminators=*/true);
  }
}

LogicalResult CustomOp::verify() {
  size_t numGraphNames = getGraphNames() ? getGraphNames()->size() : 0;
  if (numGraphNames != getGraphs().size())
    return emitOpError() << "has " << getGraphs().size()
                         << " graph regions but " << numGraphNames
                         << " graph names";
  auto checkAbsent = [&](std::optional<ArrayRef<int64_t>> absent,
                         size_t numPresent, StringRef what) -> LogicalResult {
    if (!absent)
      return success();
    int64_t total = numPresent + absent->size(), last = -1;
    for (int64_t slot : *absent) {
      if (slot <= last || slot >= total)
        return emitOpError() << "'absent_" << what
                             << "' must be increasing slots below " << total;
      last = slot;
    }
    return success();
  };
  if (failed(checkAbsent(getAbsentInputs(), getInputs().size(), "inputs")) ||
      failed(checkAbsent(getAbsentOutputs(), getNumResults(), "outputs")))
    return failure();
  if (getDomain().empty() || getDomain() == "ai.onnx")
    return emitOpError() << "operator '" << getOpType()
                         << "' of the default domain must use its generated op";
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee =
      symbolTable.lookupNearestSymbolFrom(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "calls '" << getCallee()
                         << "', which is not defined";
  auto function = dyn_cast<FunctionOpInterface>(callee);
  if (!function)
    return emitOpError() << "calls '" << getCallee()
                         << "', which is not a function";
  if (function.getNumArguments() != getArgs().size() ||
      function.getNumResults() != getNumResults())
    return emitOpError() << "has " << getArgs().size() << " inputs and "
                         << getNumResults() << " outputs, but '" << getCallee()
                         << "' takes " << function.getNumArguments()
                         << " and gives " << function.getNumResults();
  return success();
}
