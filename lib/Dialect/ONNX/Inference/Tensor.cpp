//===- Tensor.cpp - Inference of the Tensor ops -----------------------===//
//
// Type and shape inference of the Tensor operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerTensorInference(InferenceRegistry &registry) {
  (void)registry;
}
