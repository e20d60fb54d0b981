//===- Reduction.cpp - Inference of the Reduction ops
//-----------------------===//
//
// Type and shape inference of the Reduction operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerReductionInference(InferenceRegistry &registry) {
  (void)registry;
}
