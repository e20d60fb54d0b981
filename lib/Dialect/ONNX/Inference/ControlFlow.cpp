//===- ControlFlow.cpp - Inference of the ControlFlow ops
//-----------------------===//
//
// Type and shape inference of the ControlFlow operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerControlFlowInference(InferenceRegistry &registry) {
  (void)registry;
}
