//===- ONNXDialect.cpp - The onnx dialect, its types and attributes -------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXFolding.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::onnx;

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "OnnxDialect/Dialect/ONNX/IR/ONNXTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "OnnxDialect/Dialect/ONNX/IR/ONNXAttrs.cpp.inc"

void ONNXDialect::initialize() {
  registerONNXDialectOperations(this);
  addTypes<
#define GET_TYPEDEF_LIST
#include "OnnxDialect/Dialect/ONNX/IR/ONNXTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "OnnxDialect/Dialect/ONNX/IR/ONNXAttrs.cpp.inc"
      >();
  buildSchemaIndex();
}

//===----------------------------------------------------------------------===//
// Types (IR.md, "Static tensor shapes" and the TypeProto variants)
//===----------------------------------------------------------------------===//

bool mlir::onnx::isONNXElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    unsigned w = i.getWidth();
    if (i.isSignless())
      return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32 ||
             w == 64;
    return i.isUnsigned() &&
           (w == 2 || w == 4 || w == 8 || w == 16 || w == 32 || w == 64);
  }
  if (auto c = dyn_cast<ComplexType>(type))
    return c.getElementType().isF32() || c.getElementType().isF64();
  return isa<StringType, Float16Type, BFloat16Type, Float32Type, Float64Type,
             Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(type);
}

bool mlir::onnx::isONNXValueType(Type type) {
  if (auto tensor = dyn_cast<TensorType>(type))
    return isONNXElementType(tensor.getElementType());
  return isa<SeqType, MapType, OptType, SparseTensorType, OpaqueType, AnyType>(
      type);
}

LogicalResult SeqType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  if (!isONNXValueType(elementType) || isa<OpaqueType>(elementType))
    return emitError() << "sequence element must be a tensor, sparse tensor, "
                          "sequence, map or optional type, got "
                       << elementType;
  return success();
}

LogicalResult MapType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type keyType, Type valueType) {
  auto key = dyn_cast<IntegerType>(keyType);
  bool validKey = isa<StringType>(keyType) ||
                  (key && key.getWidth() >= 8 && isONNXElementType(key));
  if (!validKey)
    return emitError() << "map key must be an 8 to 64-bit integer or "
                          "!onnx.string, got "
                       << keyType;
  if (!isONNXValueType(valueType))
    return emitError() << "map value must be an ONNX value type, got "
                       << valueType;
  return success();
}

LogicalResult OptType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType) {
  if (!isa<TensorType, SparseTensorType, SeqType, MapType>(elementType) ||
      !isONNXValueType(elementType))
    return emitError() << "optional element must be a tensor, sparse tensor, "
                          "sequence or map type, got "
                       << elementType;
  return success();
}

LogicalResult
SparseTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                         TensorType tensorType) {
  if (!isONNXElementType(tensorType.getElementType()))
    return emitError() << "sparse tensor element type must be an ONNX element "
                          "type, got "
                       << tensorType.getElementType();
  return success();
}

void ONNXDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  populateONNXFoldingPatterns(results);
}
