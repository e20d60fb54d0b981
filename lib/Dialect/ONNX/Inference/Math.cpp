//===- Math.cpp - Inference of the Math ops -----------------------===//
//
// Type and shape inference of the Math operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerMathInference(InferenceRegistry &registry) {
  (void)registry;
}
