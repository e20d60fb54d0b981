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

def ONNXConvertOpset : Pass<"onnx-convert-opset", "::mlir::ModuleOp"> {
  let summary = "Rewrite every ai.onnx op to the version a target opset selects";
  let description = [{
    Rewrites each ai.onnx op, one schema version at a time, to the version of
    its operator that opset `target` selects (0, the default: the newest
    opset), and sets the ai.onnx entry of the model's and the functions'
    `onnx.opset_import` to it. Where a version moved attributes to inputs
    (Clip, Pad, Split, Squeeze/Unsqueeze, the Reduce family, Reshape, Slice,
    TopK, Dropout, Upsample, DFT), the attribute becomes a constant input;
    legacy broadcasting becomes numpy broadcasting (with an Unsqueeze where
    an axis was given); Softmax, LogSoftmax and Hardmax before 13 keep their
    2-D semantics through Flatten and Reshape; Upsample becomes Resize.
    Downgrades are renames where the signatures allow. What cannot be
    converted is an error naming the op and both versions. Other domains
    keep their versions.
  }];
  let options = [
    Option<"target", "target", "int64_t", /*default=*/"0",
           "The ai.onnx opset to convert to (0: the newest)">,
  ];
}

#endif // ONNXDIALECT_TRANSFORMS_PASSES_TD
