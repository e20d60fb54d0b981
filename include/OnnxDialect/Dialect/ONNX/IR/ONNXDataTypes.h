//===- ONNXDataTypes.h - ONNX data types as MLIR element types --*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mapping between ONNX TensorProto.DataType codes, the type names of the
// operator specification and MLIR element types.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXDATATYPES_H
#define ONNXDIALECT_IR_ONNXDATATYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace onnx {

struct DataTypeInfo {
  int32_t code;
  /// TensorProto.DataType name ("FLOAT").
  const char *name;
  /// As the operator spec writes it ("float").
  const char *specName;
  /// The IR version that introduced it (proto-facts.md).
  int64_t irVersion;
  /// Bits of one element in raw_data (4 and 2 for packed types; 0 string).
  unsigned bits;
};

/// The facts of DataType `code`; null if unknown.
const DataTypeInfo *getDataTypeInfo(int32_t code);
/// The element type of TensorProto.DataType `code`; null if unknown.
Type getElementTypeForDataType(MLIRContext *context, int32_t code);
/// The element type of a spec type name ("float", "int64", "float8e4m3fn").
Type getElementTypeForName(MLIRContext *context, StringRef name);
/// The DataType code of an element type; 0 (UNDEFINED) if it has none.
int32_t getDataTypeForElementType(Type type);
/// "FLOAT", "INT4", ...; "UNDEFINED" for unknown codes.
StringRef getDataTypeName(int32_t code);
/// The IR version that introduced a data type (proto-facts.md).
int64_t getIRVersionOfDataType(int32_t code);
/// The type a schema writes as "tensor(int64)", "seq(tensor(float))" or
/// "optional(...)", with tensors unranked; null if it is not one of those.
Type parseSchemaTypeString(MLIRContext *context, StringRef s);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXDATATYPES_H
