//===- Training.cpp - Inference of the ai.onnx.preview.training ops -------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The optimizers (Adagrad, Adam, Momentum) update n tensors at once: their
// variadic input lists the n tensors, their n gradients and their n states
// (one or two lists), and each updated output has the type of the input it
// replaces.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

/// An optimizer whose inputs after R and T are `lists` groups of n tensors
/// (X, G, then the states), and whose outputs are X_new followed by the new
/// states: output k of group g has the type of input 2 + (stateGroups[g]) *
/// n + k.
static LogicalResult inferOptimizer(InferenceContext &ctx, unsigned lists,
                                    ArrayRef<unsigned> outputGroups) {
  unsigned numInputs = ctx.getNumInputs();
  if (numInputs < 2 || (numInputs - 2) % lists != 0)
    return ctx.fail() << "takes R, T and " << lists
                      << " lists of equally many tensors, got " << numInputs - 2
                      << " tensors after R and T";
  unsigned n = (numInputs - 2) / lists;
  unsigned out = 0;
  for (unsigned group : outputGroups)
    for (unsigned k = 0; k < n; ++k, ++out) {
      if (out >= ctx.getNumOutputs())
        return success();
      Type t = ctx.getInputType(2 + group * n + k);
      if (t)
        ctx.setOutputType(out, t);
    }
  return success();
}

void mlir::onnx::registerTrainingInference(InferenceRegistry &registry) {
  // (R, T, X..., G..., H...) -> (X_new..., H_new...)
  registry.add<PreviewTrainingAdagradOp>([](InferenceContext &ctx) {
    return inferOptimizer(ctx, 3, {0, 2});
  });
  // (R, T, X..., G..., V..., H...) -> (X_new..., V_new..., H_new...)
  registry.add<PreviewTrainingAdamOp>([](InferenceContext &ctx) {
    return inferOptimizer(ctx, 4, {0, 2, 3});
  });
  // (R, T, X..., G..., V...) -> (X_new..., V_new...)
  registry.add<PreviewTrainingMomentumOp>([](InferenceContext &ctx) {
    return inferOptimizer(ctx, 3, {0, 2});
  });
}
