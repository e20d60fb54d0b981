//===- ONNXDialect.h - The onnx dialect, types and attributes ---*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXDIALECT_H
#define ONNXDIALECT_IR_ONNXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "OnnxDialect/Dialect/ONNX/IR/ONNXTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "OnnxDialect/Dialect/ONNX/IR/ONNXAttrs.h.inc"

namespace mlir {
namespace onnx {
/// Whether `type` is an ONNX value type: a tensor of an ONNX element type, a
/// sparse tensor, a sequence, a map, an optional or an opaque type.
bool isONNXValueType(Type type);
/// Whether `type` is the element type of some ONNX tensor data type.
bool isONNXElementType(Type type);
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXDIALECT_H
