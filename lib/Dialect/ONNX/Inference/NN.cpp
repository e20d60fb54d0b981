//===- NN.cpp - Inference of the NN ops -----------------------===//
//
// Type and shape inference of the NN operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerNNInference(InferenceRegistry &registry) {
  (void)registry;
}
