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

/// The coordinates of `rank` on a grid of `shape` (ranks are the grid's
/// row-major linear indices, as upstream `shard` numbers processes).
SmallVector<int64_t> gridCoordinates(int64_t rank, ArrayRef<int64_t> shape);
/// The index of `rank`'s shard along a tensor dim split over the grid axes
/// `axes`: its coordinates on those axes, linearized with the first axis
/// major (upstream's order).
int64_t shardIndex(int64_t rank, ArrayRef<int64_t> shape,
                   ArrayRef<int16_t> axes);
/// The number of shards a split over `axes` makes.
int64_t shardCount(ArrayRef<int64_t> shape, ArrayRef<int16_t> axes);

} // namespace distribute
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_DISTRIBUTE_UTILS_H
