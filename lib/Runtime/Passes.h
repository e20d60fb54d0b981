//===- Passes.h - The runtime's own passes ----------------------*- C++ -*-===//
//
// Internal to lib/Runtime: the passes the runtime adds to the lowering so that
// compiled code reports failed run-time checks to onnxd_run.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_PASSES_H
#define ONNXDIALECT_LIB_RUNTIME_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
namespace onnx {
namespace runtime {

/// cf.assert -> scf.if + call @onnxd_rt_fail(message).
std::unique_ptr<Pass> createLowerAssertsPass();
/// scf.parallel loops that may call onnxd_rt_fail -> scf.for nests.
std::unique_ptr<Pass> createSequentializeFailingLoopsPass();

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_PASSES_H
