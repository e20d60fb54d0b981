//===- ML.cpp - Inference of the ML ops -----------------------===//
//
// Type and shape inference of the ML operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerMLInference(InferenceRegistry &registry) {
  (void)registry;
}
