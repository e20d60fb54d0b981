//===- Passes.h - Conversions out of the onnx dialect -----------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations of the conversion passes defined in Passes.td and their
// registration (registerONNXConversionPasses).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CONVERSION_PASSES_H
#define ONNXDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {

#define GEN_PASS_DECL
#include "OnnxDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Conversion/Passes.h.inc"

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CONVERSION_PASSES_H
