//===- Passes.h - The passes of the onnx dialect ----------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations of the passes defined in Passes.td, their option structs and
// their registration (registerONNXTransformsPasses).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TRANSFORMS_PASSES_H
#define ONNXDIALECT_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir {
namespace onnx {

#define GEN_PASS_DECL
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"

/// The ONNX name of a value: a function argument's `onnx.name`, a subgraph
/// argument's entry in its terminator's `onnx.inputs`, an initializer's
/// global `onnx.name` (or symbol), a node result's entry in `onnx.outputs`;
/// "" when it has none.
std::string valueName(Value value);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TRANSFORMS_PASSES_H
