//===- Sequence.cpp - Inference of the Sequence ops -----------------------===//
//
// Type and shape inference of the Sequence operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerSequenceInference(InferenceRegistry &registry) {
  (void)registry;
}
