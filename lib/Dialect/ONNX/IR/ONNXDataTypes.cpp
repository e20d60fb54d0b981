//===- ONNXDataTypes.cpp - ONNX data types as MLIR element types ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::onnx;

static const DataTypeInfo kDataTypes[] = {
    {1, "FLOAT", "float", 1, 32},
    {2, "UINT8", "uint8", 1, 8},
    {3, "INT8", "int8", 1, 8},
    {4, "UINT16", "uint16", 1, 16},
    {5, "INT16", "int16", 1, 16},
    {6, "INT32", "int32", 1, 32},
    {7, "INT64", "int64", 1, 64},
    {8, "STRING", "string", 1, 0},
    {9, "BOOL", "bool", 1, 8},
    {10, "FLOAT16", "float16", 1, 16},
    {11, "DOUBLE", "double", 1, 64},
    {12, "UINT32", "uint32", 1, 32},
    {13, "UINT64", "uint64", 1, 64},
    {14, "COMPLEX64", "complex64", 1, 64},
    {15, "COMPLEX128", "complex128", 1, 128},
    {16, "BFLOAT16", "bfloat16", 4, 16},
    {17, "FLOAT8E4M3FN", "float8e4m3fn", 9, 8},
    {18, "FLOAT8E4M3FNUZ", "float8e4m3fnuz", 9, 8},
    {19, "FLOAT8E5M2", "float8e5m2", 9, 8},
    {20, "FLOAT8E5M2FNUZ", "float8e5m2fnuz", 9, 8},
    {21, "UINT4", "uint4", 10, 4},
    {22, "INT4", "int4", 10, 4},
    {23, "FLOAT4E2M1", "float4e2m1", 11, 4},
    {24, "FLOAT8E8M0", "float8e8m0", 12, 8},
    {25, "UINT2", "uint2", 13, 2},
    {26, "INT2", "int2", 13, 2},
};

const DataTypeInfo *mlir::onnx::getDataTypeInfo(int32_t code) {
  for (const DataTypeInfo &info : kDataTypes)
    if (info.code == code)
      return &info;
  return nullptr;
}

Type mlir::onnx::getElementTypeForDataType(MLIRContext *ctx, int32_t code) {
  Builder b(ctx);
  switch (code) {
  case 1:
    return b.getF32Type();
  case 2:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 3:
    return b.getI8Type();
  case 4:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case 5:
    return b.getI16Type();
  case 6:
    return b.getI32Type();
  case 7:
    return b.getI64Type();
  case 8:
    return StringType::get(ctx);
  case 9:
    return b.getI1Type();
  case 10:
    return b.getF16Type();
  case 11:
    return b.getF64Type();
  case 12:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case 13:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case 14:
    return ComplexType::get(b.getF32Type());
  case 15:
    return ComplexType::get(b.getF64Type());
  case 16:
    return b.getBF16Type();
  case 17:
    return Float8E4M3FNType::get(ctx);
  case 18:
    return Float8E4M3FNUZType::get(ctx);
  case 19:
    return Float8E5M2Type::get(ctx);
  case 20:
    return Float8E5M2FNUZType::get(ctx);
  case 21:
    return IntegerType::get(ctx, 4, IntegerType::Unsigned);
  case 22:
    return IntegerType::get(ctx, 4);
  case 23:
    return Float4E2M1FNType::get(ctx);
  case 24:
    return Float8E8M0FNUType::get(ctx);
  case 25:
    return IntegerType::get(ctx, 2, IntegerType::Unsigned);
  case 26:
    return IntegerType::get(ctx, 2);
  default:
    return {};
  }
}

Type mlir::onnx::getElementTypeForName(MLIRContext *ctx, StringRef name) {
  for (const DataTypeInfo &info : kDataTypes)
    if (name == info.specName)
      return getElementTypeForDataType(ctx, info.code);
  return {};
}

int32_t mlir::onnx::getDataTypeForElementType(Type type) {
  for (const DataTypeInfo &info : kDataTypes)
    if (getElementTypeForDataType(type.getContext(), info.code) == type)
      return info.code;
  return 0;
}

StringRef mlir::onnx::getDataTypeName(int32_t code) {
  const DataTypeInfo *info = getDataTypeInfo(code);
  return info ? info->name : "UNDEFINED";
}

int64_t mlir::onnx::getIRVersionOfDataType(int32_t code) {
  const DataTypeInfo *info = getDataTypeInfo(code);
  return info ? info->irVersion : 0;
}

Type mlir::onnx::parseSchemaTypeString(MLIRContext *context, StringRef s) {
  s = s.trim();
  auto inner = [&](StringRef head) -> std::optional<StringRef> {
    if (!s.consume_front(head) || !s.consume_front("(") || !s.consume_back(")"))
      return std::nullopt;
    return s;
  };
  StringRef copy = s;
  if (auto e = inner("tensor")) {
    Type element = getElementTypeForName(context, e->trim());
    return element ? UnrankedTensorType::get(element) : Type();
  }
  s = copy;
  if (auto e = inner("seq")) {
    Type element = parseSchemaTypeString(context, *e);
    return element ? SeqType::get(context, element) : Type();
  }
  s = copy;
  if (auto e = inner("optional")) {
    Type element = parseSchemaTypeString(context, *e);
    return element ? OptType::get(context, element) : Type();
  }
  return {};
}
