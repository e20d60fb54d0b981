//===- Quantization.cpp - Inference of the Quantization ops
//-----------------------===//
//
// Type and shape inference of the Quantization operator family (see
// ONNXShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

void mlir::onnx::registerQuantizationInference(InferenceRegistry &registry) {
  (void)registry;
}
