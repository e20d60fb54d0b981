//===- Passes.td - Multi-device execution (IR 11) ----------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes that execute a model's multi-device configuration (ONNX IR 11,
// IR.md "Multi-device configuration"): the sharding specs of its nodes become
// upstream `shard` annotations, upstream sharding propagation and
// `shard-partition` turn the entry function into the program of one rank, and
// the collectives end as MPI calls (`convert-shard-to-mpi`, the `mpi`
// dialect's LLVM lowering). Pipeline stages become one program per stage
// with the tensors between stages sent point to point. Sources live in
// lib/Distribute/; docs/multi-device.md is the user's view.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_DISTRIBUTE_PASSES_TD
#define ONNXDIALECT_DISTRIBUTE_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar distributeOptions = [
  Option<"deviceConfig", "device-config", "std::string", /*default=*/"\"\"",
         "The device configuration (a DeviceConfigurationProto of the model, "
         "by name) to execute; empty: ignore the annotations">,
  Option<"rank", "rank", "int64_t", /*default=*/"-1",
         "The rank the program is compiled for (0 .. num_devices-1); -1 "
         "leaves the module unpartitioned (annotations only)">,
];

def ShardAnnotate : Pass<"onnx-shard-annotate", "::mlir::ModuleOp"> {
  let summary = "The sharding specs of a device configuration to `shard` "
                "annotations";
  let description = [{
    For the configuration named by `device-config`, adds a
    `shard.grid @onnx_devices` of its `num_devices`, and for every sharding
    spec of a node of the entry function that names the configuration, a
    `shard.shard` of the tensor it names: `annotate_for_users` on the node's
    operand for an input, on the node's result for an output. A tensor's
    `sharded_dim`s are split over grid axes; one without is replicated. The
    entry function's arguments and results are annotated as replicated, so
    that its signature stays the model's (the runtime gives every rank the
    whole inputs).

    The grid is the first view of the devices (device d at the row-major
    coordinates of d: the 1-D grid, then every ordered factorization of
    `num_devices`) on which every spec's layout is a split over grid axes:
    each shard (numbered row-major over the spec's axes) on the device the
    spec's `device` list gives, or on every device of the group that an
    entry names (`index_to_device_group_map`), exactly the devices whose
    coordinates give that shard. A spec that no grid lays out, specs that
    need different grids, a device in two groups or none, a device list
    whose length is not the number of shards, a split of an inner fused
    axis, and a dim the shards do not divide are errors naming the node and
    the tensor. Nodes with a `pipeline_stage` are `onnx-pipeline-stages`'.

    Runs on the `onnx` level after opset conversion and shape inference
    (value names and ranked types are known); the annotations stay through
    decomposition and `convert-onnx-to-linalg`. Sets the module attributes
    `onnx.shard_config` and, with `rank`, `onnx.shard_rank` (read by the
    sharding models of constants), and `dlti.map` with
    `"MPI:Implementation" = "OpenMPI"` (for the `mpi` dialect's lowering).
  }];
  let options = distributeOptions;
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::DLTIDialect"];
}

def ShardPartition : Pass<"onnx-shard-partition", "::mlir::ModuleOp"> {
  let summary = "Propagate the shardings, partition the entry function for "
                "its rank, and lower the collectives to MPI";
  let description = [{
    On a module that `onnx-shard-annotate` gave a grid (else nothing): runs
    upstream `sharding-propagation` and `shard-partition` on the entry
    function (on linalg over tensors), then `onnx-shard-specialize`,
    `convert-shard-to-mpi` and `onnx-shard-specialize` again, with
    canonicalization between them. Ops that have no sharding model upstream
    are replicated by the project's (`registerShardingModelsLast`); a remark
    names each one that gathers a sharded operand.
  }];
  let dependentDialects = ["::mlir::mpi::MPIDialect",
                           "::mlir::shard::ShardDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ShardSpecialize : Pass<"onnx-shard-specialize", "::mlir::ModuleOp"> {
  let summary = "The partitioned program of one rank: process indices "
                "folded, slices and gathers without `shard` ops that "
                "`convert-shard-to-mpi` lacks";
  let description = [{
    Runs after `shard-partition` and again after `convert-shard-to-mpi` on a
    module compiled for one rank (`onnx.shard_rank`, set by
    `onnx-shard-annotate`). It replaces
    - `shard.process_multi_index` by the rank's grid coordinates,
      `process_linear_index` and, after the MPI conversion, `mpi.comm_rank`
      of the world communicator by the rank;
    - `shard.all_slice` (a replicated tensor to its local shard: no
      communication) by a `tensor.extract_slice` at the rank's offset;
    - `shard.all_gather` by a call of the runtime's `onnxd_rt_allgather`
      (MPI_Allgather of the shard's bytes into a buffer viewed with the
      element type; the gathered axis moved to the front and back by
      transposes when dims before it are not 1), and `shard.all_to_all` by
      a gather then a slice (the `mpi` dialect has no gather). Over some
      axes of a grid of several, the gather runs among the ranks that
      differ only on them: `onnxd_rt_allgather_group` with the rank's color
      and key and a slot (a private global) where the runtime keeps the
      group's communicator;
    - on a 1-D grid, `mpi.comm_split` of the world communicator with one
      color (the grid spans every rank) by the world communicator: no
      communicator is created per run.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def OpenMPISymbols : Pass<"onnx-fix-openmpi-symbols", "::mlir::ModuleOp"> {
  let summary = "Name Open MPI's reduction ops as libmpi does; take the "
                "communicator from the runtime";
  let description = [{
    The `mpi` dialect's LLVM lowering (MLIR 22) refers to Open MPI's
    predefined reduction `MPI_SUM` as the global `ompi_mpi_sum`; libmpi
    defines it as `ompi_mpi_op_sum` (likewise max, min, prod, the logical and
    bitwise ops, minloc, maxloc, replace, no_op). Runs after
    `convert-to-llvm` and renames the external globals, so that the code
    links and resolves against Open MPI. The communicator is not the global
    `ompi_mpi_comm_world` but the runtime's `onnxd_mpi_comm()`: the world,
    or the communicator the application gave `onnxd_mpi_set_comm`.

    `MPI_Comm_split` (a collective over some axes of a grid of several)
    becomes the runtime's `onnxd_rt_comm_split`, which takes a slot (a
    private global per call site) and splits only when the slot does not
    hold a split of the same communicator: once per site, not once per
    run. The lowering reads the new communicator back as an i32 (MPICH's
    handle); the load is made a load of Open MPI's pointer.
  }];
}

def PipelineStages : Pass<"onnx-pipeline-stages", "::mlir::ModuleOp"> {
  let summary = "Keep the nodes of this rank's pipeline stage; send and "
                "receive the tensors between stages";
  let description = [{
    For a configuration whose nodes carry `pipeline_stage`, the program of
    rank `rank` keeps the nodes of stage `rank` (a node without a stage goes
    with the latest stage among its producers, or runs on every rank when
    fed by inputs and initializers alone). A tensor that a later stage uses
    is sent (`mpi.send`, tag = its producer's index) by the rank that
    computes it and received (`mpi.recv`) by every rank that uses it; the
    model's outputs are sent to rank 0, which returns them (the other ranks
    return zeros). Every rank walks the graph in one order and sends and
    receives where the tensor is computed, so the blocking calls pair up
    and no rank waits on one that waits on it.

    With `micro-batches=M` the batch (dim 0 of the inputs) is split into M
    micro-batches and every node that reads it is cloned per micro-batch,
    in micro-batch order: stage s computes micro-batch m while stage s+1
    computes m-1 (the stages overlap). Every such node must be known to
    work row by row along dim 0 (elementwise ops, MatMul/Gemm with batch-free
    weights, convolutions and pooling, Softmax/LayerNormalization/Flatten
    not on axis 0, ...); any other is an error naming it.
  }];
  let options = !listconcat(distributeOptions, [
    Option<"microBatches", "micro-batches", "int64_t", /*default=*/"1",
           "Split the batch (dim 0 of the inputs) into this many "
           "micro-batches that flow through the stages one after another">,
  ]);
  let dependentDialects = ["::mlir::mpi::MPIDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::DLTIDialect"];
}

#endif // ONNXDIALECT_DISTRIBUTE_PASSES_TD
