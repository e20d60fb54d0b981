//===- Elementwise.cpp - Inference of the Elementwise ops
//-----------------------===//
//
// Type and shape inference of the Elementwise operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerElementwiseInference(InferenceRegistry &registry) {
  (void)registry;
}
