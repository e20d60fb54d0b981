//===- onnx-opt.cpp - The optimizer driver of OnnxDialect -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the onnx dialect and the project's passes. One extra flag,
// --print-onnx-schemas, prints the schema of every generated op as JSON (the
// cross-check against ONNX's own operator registry reads it).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/InitAllDialects.h"
#include "OnnxDialect/InitAllPasses.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

static const char *argKindName(onnx::ArgKind kind) {
  switch (kind) {
  case onnx::ArgKind::Single:
    return "single";
  case onnx::ArgKind::Optional:
    return "optional";
  case onnx::ArgKind::Variadic:
    return "variadic";
  }
  return "";
}

/// The AttributeProto.AttributeType name of an attribute kind.
static const char *attrKindName(onnx::AttrKind kind) {
  static const char *const names[] = {
      "FLOAT",         "INT",        "STRING",         "TENSOR",     "GRAPH",
      "SPARSE_TENSOR", "TYPE_PROTO", "FLOATS",         "INTS",       "STRINGS",
      "TENSORS",       "GRAPHS",     "SPARSE_TENSORS", "TYPE_PROTOS"};
  return names[static_cast<int>(kind)];
}

static llvm::json::Array argsToJSON(llvm::ArrayRef<onnx::ArgSchema> args) {
  llvm::json::Array out;
  for (const onnx::ArgSchema &arg : args)
    out.push_back(llvm::json::Object{{"name", arg.name},
                                     {"kind", argKindName(arg.kind)},
                                     {"type", arg.typeStr},
                                     {"min_arity", arg.minArity},
                                     {"heterogeneous", arg.heterogeneous}});
  return out;
}

static int printSchemas(DialectRegistry &registry) {
  MLIRContext context(registry);
  context.loadDialect<onnx::ONNXDialect>();
  llvm::json::Array ops;
  for (RegisteredOperationName name :
       context.getRegisteredOperationsByDialect("onnx")) {
    auto *iface = name.getInterface<onnx::ONNXSchemaOpInterface>();
    if (!iface)
      continue;
    const onnx::OpSchema &schema = iface->getSchema();
    llvm::json::Array attrs, typeVars;
    for (const onnx::AttrSchema &attr : schema.attributes)
      attrs.push_back(llvm::json::Object{
          {"name", attr.name},
          {"type", attrKindName(attr.kind)},
          {"required", attr.required},
          {"default", attr.defaultValue ? llvm::json::Value(attr.defaultValue)
                                        : llvm::json::Value(nullptr)}});
    for (const onnx::TypeVarSchema &tv : schema.typeVars)
      typeVars.push_back(
          llvm::json::Object{{"name", tv.name}, {"allowed", tv.allowed}});
    ops.push_back(llvm::json::Object{
        {"op", name.getStringRef()},
        {"domain", schema.domain},
        {"name", schema.name},
        {"version", schema.sinceVersion},
        {"deprecated", schema.deprecated},
        {"inference", onnx::InferenceRegistry::get().lookup(
                          onnx::Operator(schema)) != nullptr},
        {"inputs", argsToJSON(schema.inputs)},
        {"outputs", argsToJSON(schema.outputs)},
        {"attributes", std::move(attrs)},
        {"type_constraints", std::move(typeVars)}});
  }
  llvm::outs() << llvm::formatv("{0:1}", llvm::json::Value(std::move(ops)))
               << "\n";
  return 0;
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  onnx::registerAllDialects(registry);
  onnx::registerAllPasses();
  if (argc == 2 && std::strcmp(argv[1], "--print-onnx-schemas") == 0)
    return printSchemas(registry);
  return asMainReturnCode(
      MlirOptMain(argc, argv, "OnnxDialect optimizer driver\n", registry));
}
