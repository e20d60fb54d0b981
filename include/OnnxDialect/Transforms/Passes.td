//===- Passes.td - The passes of the onnx dialect ----------*- tablegen -*-===//
//
// One def per pass; Passes.h includes the generated declarations and the
// registration. New passes go here, their sources into
// lib/Dialect/ONNX/Transforms/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TRANSFORMS_PASSES_TD
#define ONNXDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXValidate : Pass<"onnx-validate", "::mlir::ModuleOp"> {
  let summary = "Check the model-level rules of the ONNX IR specification";
  let description = [{
    Checks what the op verifiers cannot see, on a module as the importer
    produces it (or as written by hand): the features and data types that
    the model's `onnx.ir_version` has, the opset imports and the op version
    each one selects, names (SSA, no shadowing, C90 identifiers), dim_param
    consistency, model-local functions, training bindings and device
    configurations. Every diagnostic ends with the ID of the rule it
    enforces, as listed in docs/ir-rules.md. The pass changes nothing.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Make the SHOULD rules (C90 names, ...) errors instead of warnings">,
  ];
}

#endif // ONNXDIALECT_TRANSFORMS_PASSES_TD
