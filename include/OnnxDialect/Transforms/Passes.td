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

def ONNXInferShapes : Pass<"onnx-infer-shapes", "::mlir::ModuleOp"> {
  let summary = "Refine the types of onnx op results by type and shape inference";
  let description = [{
    Runs the inference function of every onnx op (the same function its
    verifier uses), in order, nested graphs before the op that owns them, and
    refines each result type with what it infers: element types, ranks,
    static sizes. Constant inputs (onnx.Constant, initializers) that decide a
    shape are read. Symbolic dimension names (dim_param) flow from the graph
    inputs (`onnx.dim_params` argument attributes) to the results of ops that
    keep those dimensions; the names of an op's results are written to its
    `onnx.dim_params` attribute, one list per result, and those of the
    graph outputs to the result attributes. The signatures of graphs follow
    the refined types of the values they return. A declared type that
    contradicts an inferred one is an error.
  }];
}

#endif // ONNXDIALECT_TRANSFORMS_PASSES_TD
