//===- Passes.h - Multi-device execution (IR 11) ----------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_DISTRIBUTE_PASSES_H
#define ONNXDIALECT_DISTRIBUTE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {

/// The name of the grid onnx-shard-annotate adds.
inline constexpr const char *kShardGridName = "onnx_devices";

/// Sharding models the project adds to upstream's, registered before
/// upstream's extensions (the first registration of an interface wins):
/// arith.constant partitioned into the rank's slice of its data (upstream
/// handles splats only), and after upstream's, for the ops with none, a model
/// that replicates them (with a remark naming the node when that gathers a
/// sharded operand). Also the memory effects of the mpi ops on their buffers
/// (upstream declares none, which bufferization's deallocation rejects).
void registerShardingModelsFirst(DialectRegistry &registry);
void registerShardingModelsLast(DialectRegistry &registry);

/// The model's DeviceConfigurationProto named `name` (the module attribute
/// `onnx.configuration`), or null.
DictionaryAttr findDeviceConfiguration(ModuleOp module, StringRef name);

#define GEN_PASS_DECL
#include "OnnxDialect/Distribute/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Distribute/Passes.h.inc"

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_DISTRIBUTE_PASSES_H
