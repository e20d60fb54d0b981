//===- Passes.td - The passes of the onnx dialect ----------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
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

    With `fold` (the default), each op is folded right after its inference
    when its result is known (shape arithmetic over static shapes, ops on
    small constants, ops that do nothing; see ONNXFolding.h), so that the
    ops after it see constants: a Reshape whose shape comes from
    Shape/Gather/Concat of static shapes gets a static result. An If whose
    condition is known becomes the branch it takes. An If whose branches
    yield tensors of different ranks (its result has no known rank, which no
    lowering takes) gets the ops after it in its block copied into both
    branches, where each copy sees its branch's ranks, and yields what the
    block's terminator returned (outputs renamed NAME.then and NAME.else);
    at most 20,000 ops are copied so in one run, since each such If doubles
    what follows it. When the copies hold in one branch only (a Squeeze of a
    dim that is 1 at run time, say), the other branch yields placeholders
    and is named in the If's `onnx.branch_errors` with the error: the
    lowering makes taking it a failure at run time, as ONNX Runtime fails
    such a model only when that branch runs.
  }];
  let options = [
    Option<"fold", "fold", "bool", /*default=*/"true",
           "Fold ops whose results are known as inference goes">,
  ];
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

def ONNXInlineFunctions : Pass<"onnx-inline-functions", "::mlir::ModuleOp"> {
  let summary = "Inline the calls of model-local functions";
  let description = [{
    Replaces each `onnx.call` in a graph by the body of the function it
    calls, specialized for the call: an attribute of an inlined op that
    refers to an attribute parameter of the function (`onnx.attr_refs`,
    ONNX's ref_attr_name) takes the call's value, else the function's
    default, else stays unset. Overloads are distinct functions and are
    inlined as such. Calls in inlined bodies are inlined in turn. The
    inlined ops, bound to the function's own opset, are converted to the
    graph's ai.onnx opset; the names of the values they define get the
    call's name as a prefix. Functions no longer called are removed.
  }];
}

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

def ONNXBindInputDefaults
    : Pass<"onnx-bind-input-defaults", "::mlir::ModuleOp"> {
  let summary = "Make the graph inputs that have an initializer default constants";
  let description = [{
    A graph input that an initializer of the same name gives a default
    (`onnx.default = @global` on the argument; IR version 3 models list every
    initializer as an input this way) becomes a load of that initializer,
    and the argument is removed from the function. A compiled model then
    takes only the inputs that have no default, as ONNX's test data and most
    callers expect; the weights are constants that later passes can fold.
    Callers that need to override such an input compile the model without
    this pass (the argument then stays a required input).
  }];
  let dependentDialects = ["::mlir::ml_program::MLProgramDialect"];
}

def ONNXDecompose : Pass<"onnx-decompose", "::mlir::ModuleOp"> {
  let summary = "Expand the operators ONNX defines as functions into primitives";
  let description = [{
    Replaces each op of an operator that the specification defines as a
    function (and a few related ones) by the primitive ops its function body
    computes, so that a lowering only has to handle primitives: the
    activations (Gelu, Softsign, Softplus, HardSigmoid, HardSwish, Mish, Elu,
    Celu, Selu, LeakyRelu, ThresholdedRelu, Shrink, Swish, PRelu), Softmax
    and LogSoftmax (13 and later), ReduceLogSum, ReduceLogSumExp, ReduceL1,
    ReduceL2, ReduceSumSquare, Clip, CastLike, Range, LayerNormalization and
    RMSNormalization (all outputs, in stash_type), GroupNormalization (21 and
    later), MeanVarianceNormalization, DynamicQuantizeLinear, the Hann,
    Hamming and Blackman windows, Bernoulli and CenterCropPad. The created
    ops are the versions that the ai.onnx opset of the module (or of the
    model-local function) selects; the results keep their types.

    An op is left alone, with a remark, where its expansion needs what is
    unknown (the rank of an input that an axis refers to, an element type,
    an attribute that refers to a function parameter), or where a primitive
    has no version at the opset or does not take the element type there.
    Older versions of an operator whose semantics differ (Softmax before 13,
    GroupNormalization-18) are left to onnx-convert-opset.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Only decompose these operators (default: all it knows)">,
  ];
}

#endif // ONNXDIALECT_TRANSFORMS_PASSES_TD
