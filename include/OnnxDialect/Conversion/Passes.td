//===- Passes.td - Conversions out of the onnx dialect -----*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One def per conversion pass; Passes.h includes the generated declarations
// and the registration. Sources live in lib/Conversion/<Name>/.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CONVERSION_PASSES_TD
#define ONNXDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertONNXToLinalg : Pass<"convert-onnx-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Convert onnx ops to linalg, tensor, arith, math and scf on tensors";
  let description = [{
    Rewrites the ops of the onnx dialect (their newest versions: run
    `onnx-convert-opset`, `onnx-decompose` and `onnx-infer-shapes` first)
    into upstream dialects on tensors: `linalg` structured ops, `tensor`,
    `arith`, `math`, `scf` and `cf.assert` for the checks that can only be
    made at run time (sizes of dynamic dims that must broadcast, indices
    that must be in range). Each op family has its own source file and
    `populate...Patterns` function (ONNXToLinalg.h).

    Unsigned integer tensors become signless ones of the same width (the
    patterns pick unsigned arithmetic from the original onnx types), so the
    function signatures change accordingly. Initializers
    (`ml_program.global` constants loaded by `ml_program.global_load_const`)
    and `onnx.Constant` become `arith.constant`. Results must have a ranked
    type (run `onnx-infer-shapes`); an op that cannot be converted is an
    error naming it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::func::FuncDialect",
  ];
}

#endif // ONNXDIALECT_CONVERSION_PASSES_TD
