//===- Passes.td - The GPU code-generation stage -----------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes of onnx-lower-to-nvvm (docs/gpu.md) that are the project's own:
// which loop nests become kernels and how they map onto blocks and threads,
// where buffers live so that kernels and host code both reach them, and the
// lowering of kernels to NVVM without libdevice. Sources live in
// lib/Codegen/GPU/; the rest of the pipeline is upstream's.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CODEGEN_GPU_PASSES_TD
#define ONNXDIALECT_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUMapToKernels : Pass<"onnx-gpu-map-to-kernels", "::mlir::func::FuncOp"> {
  let summary = "Map the outermost parallel loop nests that can run on a GPU "
                "onto blocks and threads";
  let description = [{
    Runs on buffers, after `convert-linalg-to-parallel-loops`. Each outermost
    `scf.parallel` whose body the device can execute (loads, stores, views,
    arithmetic, the math functions onnx-gpu-to-nvvm lowers, nested loops) is
    collapsed into one dimension, tiled by `block-size` and mapped: the tile
    loop onto `block_x`, the loop inside a tile onto `thread_x` (with a bounds
    check for the last tile), any parallel loop nested deeper onto sequential
    loops. `convert-parallel-loops-to-gpu` then turns each into a
    `gpu.launch`. The grid has one block per `block-size` iterations, so any
    number of iterations up to 2^31-1 blocks maps.

    A nest the device cannot execute stays on the host, where it runs over
    the same buffers (onnx-gpu-device-memory makes them reachable from both):
    one that calls a function (the runtime's string and sequence functions),
    allocates, asserts, reduces into `scf.parallel` results, or touches an
    element type or a math function the NVVM lowering has no code for (f64
    `exp`, complex numbers, 8-bit floats). A remark names each such nest
    with `remarks=true`.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (a multiple of 32, at most 1024)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on each loop nest left on the host, saying why">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUContractionKernels
    : Pass<"onnx-gpu-contraction-kernels", "::mlir::func::FuncOp"> {
  let summary = "Turn f32 linalg contractions on buffers into tiled "
                "shared-memory GPU kernels";
  let description = [{
    Runs on buffers, before `convert-linalg-to-parallel-loops`. Each linalg
    op into an f32 buffer, from f32 buffers or from f16/bf16 ones whose
    elements the body only extends to f32, that is a contraction (its body
    multiplies and adds;
    its dims are batch dims, one m, one n and one k, with projected
    permutations as indexing maps: MatMul, Gemm, batched, broadcast and
    transposed products) becomes a `gpu.launch`: one block per
    `tile-m` x `tile-n` output tile and batch index, staging `tile-k`-deep
    slices of both operands in workgroup memory, each thread accumulating a
    `thread-m` x `thread-n` sub-tile in registers, then adding it to the
    output. Where the sizes are static and those tiles would give fewer
    than `min-blocks` blocks (a product of a batch-1 model), smaller ones
    do: 64x64 with 8x8 a thread, 64x32 or 32x32 with 4x4, the first that
    gives enough blocks, or the one that gives the most.
    With `prefetch`, each thread loads its part of the next slice
    into registers before computing on the staged one. With `tf32`, each
    warp computes a grid of 16x8 output tiles with `mma.sync.m16n8k8` on
    TF32 operands (the f32 elements rounded to nearest as they are staged,
    accumulated in f32; sm_80 or newer). With `half-mma`, the products of
    f16 operands, or of bf16 ones, do likewise with `mma.sync.m16n8k16` on
    the elements as they are (staged as [row][k], at least 16 deep),
    accumulating in f32. Partial tiles read zeros and store nothing.

    With `fuse`, where the output is a buffer of its own (a `memref.alloc`),
    two elementwise ops (all loops parallel, bodies free of memory effects)
    are computed in the kernel too. The prologue is the op before that
    writes the whole output without reading it (a `linalg.fill`, a
    broadcast bias), with nothing in between touching the output or
    writing the prologue's inputs: the kernel adds its products to the
    prologue's values instead of loading the output. The epilogue is the op
    right after (past allocations and ops free of memory effects) that
    reads the output at a permutation (a bias, a BatchNormalization, an
    activation): the kernel evaluates its body on the sums and stores its
    results, which go to the output itself or to buffers of their own;
    then, up to four in all, the op right after that reads its one output
    likewise (a transpose). Each result is stored only where another op
    uses it; a stage whose results would go to a buffer the kernel reads
    (other blocks may still read it) is fused only where they need no
    store: the next stage reads them, and no op after it before one that
    overwrites the whole buffer.

    Where the grid would not fit at run time (an empty dim, more than
    65535 blocks in y or z), the original ops run instead (an `scf.if`
    holds both); with static sizes this is known here, and no `scf.if` or
    fallback is built where the grid fits.

    With `pad-images`, a convolution whose image is a buffer of its own
    (a `memref.alloc` of static shape) that only a zero fill, one copy of
    another buffer into a subview of it at constant offsets (its
    interior), the convolution and the deallocation use, in that order,
    with nothing between the copy and the convolution touching the copied
    buffer but the fused initializer (what bufferization leaves of a
    `tensor.pad` by zeros), reads the copied buffer instead: each padded
    position's element where it falls inside, zero elsewhere. The padded
    buffer, its fill and the copy are erased (where the grid is static: a
    fallback would read them). Not where the kernel writes the copied
    buffer, unless the first op of it that does (the initializer, or an
    epilogue where the convolution does not write it) overwrites the whole
    allocation without reading it (bufferization reused the buffer, whose
    value is dead after the copy): then the ops from that one on write a
    new allocation instead, and the copied one is freed after the kernel.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"128",
           "Output rows per block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"64",
           "Output columns per block">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"8",
           "Depth of the operand slices staged in workgroup memory">,
    Option<"threadM", "thread-m", "int64_t", /*default=*/"8",
           "Output rows per thread (even)">,
    Option<"threadN", "thread-n", "int64_t", /*default=*/"8",
           "Output columns per thread (even)">,
    Option<"minBlocks", "min-blocks", "int64_t", /*default=*/"132",
           "With static sizes, where the tiles above give fewer blocks than "
           "this, smaller tiles (64x64, 64x32, 32x32) for more of them (0: "
           "never; 132: one a multiprocessor of an H100 or H200)">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "Load the next k-slice into registers while computing on the "
           "staged one">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Compute the products on the tensor cores (mma.sync.m16n8k8 with "
           "TF32 operands, rounded to nearest; sm_80 or newer), each warp a "
           "grid of 16x8 output tiles">,
    Option<"half", "half-mma", "bool", /*default=*/"false",
           "Compute the products of f16 operands, or of bf16 ones, on the "
           "tensor cores (mma.sync.m16n8k16, accumulated in f32; sm_80 or "
           "newer), staged at least 16 deep">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU's architecture (sm_NN): tf32 and half-mma need sm_80 "
           "or newer">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Compute the elementwise ops that initialize the output and "
           "consume it right after in the kernel too">,
    Option<"padImages", "pad-images", "bool", /*default=*/"true",
           "Read a convolution's zero-padded image where it was copied "
           "from, zero outside it, instead of a padded copy">,
    Option<"testOnCPU", "test-on-cpu", "bool", /*default=*/"false",
           "Test hook: compute what the kernel computes as host loops (the "
           "fusion included) instead of a gpu.launch, to run on the CPU">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUReductionKernels
    : Pass<"onnx-gpu-reduction-kernels", "::mlir::func::FuncOp"> {
  let summary = "Turn row reductions on buffers into kernels with a warp per "
                "row";
  let description = [{
    Runs on buffers, before `convert-linalg-to-parallel-loops` (which would
    give each output element one thread looping over its row: a warp's
    loads then touch 32 rows at once). Each linalg op with one f32, f16 or
    bf16 output (an f16 model's Softmax reduces in f16) whose body
    combines the output with a value computed from the inputs by
    `addf`, `mulf`, `maximumf`, `maxnumf`, `minimumf` or `minnumf`, whose
    reduced dims are the innermost of a contiguous input and, statically,
    at least 32 elements (or dynamic), becomes a `gpu.launch` of blocks of
    8 warps, a warp per output element: its lanes combine every 32nd
    element of the row (consecutive lanes reading consecutive elements),
    then the warp combines the lanes' values by shuffles (`gpu.shuffle xor`
    16, 8, 4, 2, 1; an f16 or bf16 value shuffled as f32, exactly) and its
    first lane combines the result into the output.
    The order of the combination differs from the loop's (as the CPU's
    vectorized reductions do). The other reductions of those types by
    those ops
    (windows: pools, depthwise convolutions; rows that are short or not
    contiguous) with at least one parallel dim become one `scf.parallel`
    over the output, each element folded in turn, which
    `onnx-gpu-map-to-kernels` maps as the other loop nests. With `fuse`,
    the op that initializes the output (the fill with the identity) and
    the elementwise ops right after that read it (a mean's division, a
    Relu after a pool) are computed by the lane or thread that stores, as
    `onnx-gpu-contraction-kernels` does for products. Where the grid of a
    warp per row would not fit (no row, more than 2^31 - 1 blocks) the
    original ops run instead. With `pad-images`, such an `scf.parallel`
    reads an input that is a padded copy made for the op alone (a depthwise
    convolution's or a pool's image, padded with zeros or with the lowest
    value) where it was copied from, the padding's value outside it, as
    `onnx-gpu-contraction-kernels` does for convolutions (the same
    conditions, the padding any constant).

    With `chains`, ops over the same rows (of a static length; their count
    may be dynamic, when each step shares a buffer with the reduction
    through the steps) that follow one
    another, past allocations and ops free of memory effects, become one
    kernel with a warp per row when a reduction is among them with at
    least one more reduction or op over the rows' elements (Softmax,
    LayerNormalization): fills and ops of a value per row, computed by
    every lane and stored by lane 0; ops over the rows' elements, lane l
    taking elements l, l + 32, ...; reductions as above. Each buffer the
    chain writes must be read in every step at the same row (one value a
    row) or the same element (the row's dims then the element's, through
    reshapes only), so that a lane reads back only what it wrote, and the
    values per row stay in registers. With `fuse`, each fill of a buffer
    of its own first moves down to the first op that uses the buffer
    (where that op is the buffer's deallocation, the fill goes).
  }];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Compute the elementwise ops that initialize the output and "
           "consume it right after in the kernel too">,
    Option<"chains", "chains", "bool", /*default=*/"true",
           "Run a chain of reductions and elementwise ops over the same "
           "rows (Softmax, LayerNormalization) as one kernel, a warp per "
           "row">,
    Option<"padImages", "pad-images", "bool", /*default=*/"true",
           "Read a depthwise convolution's or a pool's padded image where "
           "it was copied from, the padding's value outside it, instead of "
           "a padded copy">,
    Option<"testOnCPU", "test-on-cpu", "bool", /*default=*/"false",
           "Test hook: compute what the kernel computes as host loops (the "
           "fusion included) instead of a gpu.launch, to run on the CPU">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUDeviceMemory : Pass<"onnx-gpu-device-memory", "::mlir::ModuleOp"> {
  let summary = "Put the entry's inputs in buffers the device reaches and "
                "name the globals the kernels read";
  let description = [{
    Runs on buffers, after the kernels are outlined. The caller's input
    buffers are host memory that a kernel cannot read: the entry function
    copies each memref argument (with `gpu.memcpy` where its layout is the
    identity) into a buffer of its own (a `memref.alloc`,
    which the runtime serves from memory that host and device share) and
    uses that instead; the copy is freed before each return unless it is
    returned. The names of the `memref.global`s that host code reads are
    listed in the module attribute `onnx.gpu_globals`, for
    onnx-gpu-runtime-calls, which gives kernels a device copy of each.
    Identical kernels (the same body: a model's repeated layers) are merged
    into one module that all their launches use, so that the driver
    compiles each once; each outlined kernel is then renamed after its
    gpu.module (outlining names them all after the function they came
    from), so that the runtime's messages and kernel times name one kernel
    each.
  }];
  let options = [
    Option<"driverCopies", "driver-copies", "bool", /*default=*/"true",
           "Copy the inputs with gpu.memcpy (the driver, which writes pages "
           "where they lie); false: memref.copy (the host)">,
  ];
}

def GPURuntimeCalls : Pass<"onnx-gpu-runtime-calls", "::mlir::ModuleOp"> {
  let summary = "Allocate through the GPU runtime and read globals through "
                "their device copies";
  let description = [{
    Runs on the host's LLVM dialect, after `finalize-memref-to-llvm` with
    generic allocation functions. The calls of `_mlir_memref_to_llvm_alloc`,
    `_mlir_memref_to_llvm_aligned_alloc` and `_mlir_memref_to_llvm_free`
    become calls of `onnxd_gpu_alloc`, `onnxd_gpu_aligned_alloc` and
    `onnxd_gpu_free` (the runtime's, lib/Runtime/CUDA.cpp: memory that host
    and device share). Each address of a global that `onnx.gpu_globals`
    names becomes `onnxd_gpu_global(address, bytes)`: the runtime copies the
    global to the device once, on its first use, and returns the copy.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUDeferSyncs : Pass<"onnx-gpu-defer-syncs", "::mlir::ModuleOp"> {
  let summary = "Launch kernels without waiting for them; synchronize only "
                "where the host touches memory";
  let description = [{
    Runs on the host's LLVM dialect, after `gpu-to-llvm` and
    `onnx-gpu-runtime-calls`. A synchronous `gpu.launch_func` becomes, when
    LLVM IR is emitted, a launch on a new stream followed by a
    synchronization; and each copy (`mgpuMemcpy`) is followed by one. Here
    every launch goes to the stream of `mgpuStreamCreate` (the runtime's
    stream of the thread, lib/Runtime/CUDA.cpp) without a synchronization,
    the synchronizations after copies are dropped, and one is put back
    before each operation of the host that may read or write memory while
    a launch or a copy may still be pending on any path that reaches it (a
    forward data flow over the function's blocks), and before each return.
    Kernels and copies run in order on the one stream; allocating and
    freeing buffers through the runtime (a pool) and reading a global's
    device copy need no synchronization.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GPUEmulateKernels : Pass<"onnx-gpu-emulate-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile the kernels for the host, to run on the runtime's "
                "GPU emulator (a test of the kernels without a GPU)";
  let description = [{
    Runs where `gpu-module-to-binary` would: on the host's LLVM dialect, with
    each kernel module lowered to NVVM. The functions and globals of every
    `gpu.module` move into the host module (names prefixed with
    `__onnxd_emu_<module>_`); shared-memory globals move to the host's
    address space (one block runs at a time). The NVVM operations that only
    a GPU has become calls of the runtime's emulator (lib/Runtime/
    GPUEmulator.cpp): the special registers (`%tid`, `%ctaid`, `%ntid`,
    `%nctaid`, `%laneid`), `barrier0`, `shfl.sync`, `mma.sync` (m16n8k8
    TF32, m16n8k16 f16 and bf16, f32 accumulators, row.col) and the f32 to
    TF32 conversion; each load and store of shared memory is reported to
    the emulator first (`onnxd_gpu_emu_shared`), which finds the races
    between barriers. Each `gpu.launch_func` becomes a call of
    `onnxd_gpu_emu_launch` with an entry function of the kernel that takes
    the driver's parameter array (`void **`) and the launch's sizes.

    The emulator runs the threads of a block as fibers, switching at
    barriers and at the warp's collective operations, so a kernel's tiling,
    staging in shared memory, shuffles and tensor-core fragments compute on
    the host what the GPU would compute; a barrier or shuffle that the
    threads do not all reach, or two threads of a block that access the
    same bytes of shared memory between two barriers, one of them
    writing, is an error. Any other NVVM operation is an
    error of this pass that names it. Enabled by the pipeline option
    `emulate` of `onnx-lower-to-nvvm` (the runtime's hook
    `ONNXD_TEST_GPU_EMULATE=1`, docs/gpu.md, "Tests").
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUToNVVM : Pass<"onnx-gpu-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower a kernel module to the LLVM and NVVM dialects without "
                "libdevice";
  let description = [{
    The project's counterpart of upstream's `convert-gpu-to-nvvm`, which
    turns math functions into calls of libdevice (`__nv_expf`, and even
    `__nv_fabsf` and `__nv_floorf`); without a CUDA toolkit the PTX keeps
    them as unresolved externs that the driver cannot link. Here:
    1. f16/bf16 math functions are computed in f32; f32 transcendental
       functions (exp, log, tanh, erf, sin, atan, ...) become polynomial
       approximations and the rest (tan, sinh, powf, rsqrt, ...) expansions
       into those;
    2. float additions, subtractions and multiplications get the `contract`
       flag, so that NVPTX fuses them into `fma.rn`;
    3. everything is converted to the LLVM dialect with the GPU→NVVM
       patterns for ids and dims, and the math functions left (fabs, floor,
       ceil, sqrt, fma, copysign, rounding, bit counts) become LLVM
       intrinsics, which NVPTX selects as native instructions.
    A math function with no lowering on this path is an error naming it
    (onnx-gpu-map-to-kernels keeps such loop nests on the host).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // ONNXDIALECT_CODEGEN_GPU_PASSES_TD
