//===- ONNXOps.h - The ops of the onnx dialect ------------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXOPS_H
#define ONNXDIALECT_IR_ONNXOPS_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXSchema.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "OnnxDialect/Dialect/ONNX/IR/ONNXInterfaces.h.inc"

#define GET_OP_CLASSES
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h.inc"

#endif // ONNXDIALECT_IR_ONNXOPS_H
