//===- Utils.h - Helpers of the multi-device passes -------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_DISTRIBUTE_UTILS_H
#define ONNXDIALECT_LIB_DISTRIBUTE_UTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
namespace onnx {
namespace distribute {

/// "node 'name' (op)" for diagnostics.
std::string describeNode(Operation *op);
/// The node's NodeDeviceConfigurationProto for configuration `name`.
DictionaryAttr nodeConfiguration(Operation *op, StringRef name);
/// `dlti.map` with "MPI:Implementation" = "OpenMPI" on the module (the
/// `mpi` dialect's lowering reads it for the ABI of MPI's handles).
void setMPIImplementation(ModuleOp module);

} // namespace distribute
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_DISTRIBUTE_UTILS_H
