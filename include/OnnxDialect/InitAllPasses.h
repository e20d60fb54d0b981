//===- InitAllPasses.h - Every pass the project's tools know ----*- C++ -*-===//
//
// The one place that registers passes for onnx-opt: every upstream pass and
// pipeline (the lowerings are built from them) and the project's own.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_INITALLPASSES_H
#define ONNXDIALECT_INITALLPASSES_H

#include "OnnxDialect/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"

namespace mlir {
namespace onnx {

inline void registerAllPasses() {
  mlir::registerAllPasses();
  registerONNXTransformsPasses();
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_INITALLPASSES_H
