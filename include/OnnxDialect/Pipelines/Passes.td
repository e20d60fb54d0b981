//===- Passes.td - The passes of the lowering pipeline -----*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes that `onnx-lower-to-llvm` runs between the upstream ones: the
// runtime's calling convention and failure path, copies and constants in
// the shape LLVM handles well, elementwise fusion that does not recompute,
// and the profiling probes. Sources live in lib/Pipelines/.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_PIPELINES_PASSES_TD
#define ONNXDIALECT_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwisePass : Pass<"onnx-fuse-elementwise"> {
  let summary = "linalg-fuse-elementwise-ops, except where fusing would "
                "compute a producer's element more than once";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` fuses every elementwise producer
    with one use into its consumer. When the consumer has loops that do not
    index the fused operand, the producer's body then runs once per iteration
    of those loops instead of once per element (a softmax's division fused
    into attention's second matmul ran 64 times per element, and the fused
    generic no longer had the shape the code generator vectorizes).

    This pass runs upstream's pattern sets (elementwise fusion, reshapes
    folded by expansion, canonicalization, constant folding) with a control
    function that fuses such a producer only when its body just moves data (a
    broadcast, a transpose, a copy), which costs nothing to recompute.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ExpandBF16CastsPass : Pass<"onnx-expand-bf16-casts"> {
  let summary = "f32 <-> bf16 conversions as integer arithmetic";
  let description = [{
    LLVM's x86 backend lowers a `fptrunc` from f32 to bf16 to a call of
    `__truncsfbf2` unless the CPU has AVX512-BF16 (or AVX-NE-CONVERT). The
    JIT then fails to resolve it, and an ahead-of-time library needs a
    libgcc that has it (Debian 12's GCC 12 does not): a model with a bf16
    Cast compiled on one host and not another. This pass rewrites
    `arith.truncf` to bf16 (round to nearest even, NaN kept a quiet NaN) and
    `arith.extf` from bf16 into integer operations (upstream's
    `populateExpandBFloat16Patterns`), the same code on every host.
    onnx-lower-to-llvm runs it after `arith-emulate-unsupported-floats`,
    which computes bf16 arithmetic in f32 between such conversions (LLVM
    would otherwise promote it itself, with the same libcall). Upstream's
    `arith-expand{include-bf16=true}` has the same patterns but also expands
    every max/min and division it knows, which the vector code keeps.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PrepareBufferizationPass : Pass<"onnx-prepare-bufferization"> {
  let summary = "Untangle tensors that CSE merged and reads that would keep "
                "One-Shot Bufferize from writing values in place";
  let description = [{
    Runs after the last CSE and canonicalization, before
    `eliminate-empty-tensors` and `one-shot-bufferize`. Four rewrites,
    none of which changes a value:

    - A tensor with no elements (a static shape with a zero dim: an empty
      batch) that a memory-effect-free op computes becomes a
      `tensor.empty`: bufferized, a pad of one was a `memref.subview` at
      an offset past its zero dim, which the verifier rejects.
    - CSE also makes one value of the fills of a shape (two layers' zeroed
      accumulators), which each layer then overwrites; bufferization copied
      the filled buffer for all but one (7.7 MB a run in ResNet-50). An op
      that computes its one result from an empty tensor, constants and
      scalars only (a `linalg.fill`, or the `scf.for`/`scf.forall` that
      fills a tensor in vectors) gets a clone per use past the reshapes of
      its result, each filling an empty tensor of its own.
    - CSE makes one value of the `tensor.empty` ops of a type and of the
      slices and reshapes taken of it. Two ops that compute into that value
      (two layers' products of one shape, each into a slice of its output)
      then share a buffer, and bufferization computes all but one of them
      in it and copies the result to where it belongs. Each use of such a
      slice gets a clone of its own, and so does each slice or reshape
      taken of an empty tensor or of a reshape of one; an `insert_slice`
      into the view keeps the clone of the `extract_slice` its source was
      computed in (the pair bufferization writes in place). The other uses
      of an empty tensor (whole ops and loops that write it: the GPU
      pipeline's kernels, pack loops) keep sharing it, so that
      bufferization may give one of them the buffer of a value that is
      dead by then.
    - A value computed in a slice of a destination and inserted back into
      it (a 1x1 convolution's input, written into its zero-padded buffer)
      and read again after the insert (by a residual add): bufferization
      takes the insert, which copies the value onto itself, for a write of
      the value's buffer before that read, and computes the value in a
      buffer of its own. The reads after the insert read the destination's
      slice instead.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def StridedCopiesToLinalgPass
    : Pass<"onnx-strided-copies-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Turn memref.copy of non-contiguous memrefs into linalg.copy";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` whose operands are not
    both contiguous (bufferization's copies into views: a padded buffer's
    interior, a strided subview) to a call of `memrefCopy` from MLIR's runner
    utils, which compiled models do not link. This pass turns those copies
    into `linalg.copy`, which becomes loops with the other linalg ops;
    contiguous copies stay `memref.copy` (an `llvm.memcpy`), unless `all`
    is set: onnx-lower-to-nvvm sets it, so that every copy becomes a kernel
    (on the host, a copy of managed memory would move each page of both
    buffers to the host and back).
  }];
  let options = [
    Option<"all", "all", "bool", /*default=*/"false",
           "Contiguous copies too">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandShapesToReinterpretCastsPass
    : Pass<"onnx-expand-shapes-to-reinterpret-casts", "::mlir::ModuleOp"> {
  let summary = "Rewrite memref.expand_shape ops that split one dim into "
                "several dynamic ones as memref.reinterpret_cast";
  let description = [{
    A `memref.expand_shape` whose reassociation group has more than one
    dynamic size (a matmul of `[B, T, K]` with both B and T dynamic collapses
    them into rows and expands the product back) crashes MLIR 22's
    `expand-strided-metadata`, whose folders assume at most one dynamic size
    per group. This pass rewrites each such op, before that pass runs, as a
    `memref.reinterpret_cast` of its source's base buffer: the sizes are the
    op's output shape, each group's strides the source dim's stride times
    the sizes after it in the group, the offset the source's.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FlattenConstantGlobalsPass
    : Pass<"onnx-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Give constant memref.globals of rank > 1 a 1-D type (flat "
                "LLVM arrays), reshaping each get_global back";
  let description = [{
    `finalize-memref-to-llvm` gives a `memref.global` of rank r an LLVM type
    of r nested arrays, and the translation to LLVM IR builds its initializer
    as nested constant aggregates: one uniqued `ConstantDataArray` per
    innermost row. Packed weights end in a unit dim, so a large model's
    weights became millions of one-element constants (most of ResNet-50's
    108 s compile, and gigabytes of memory).

    Every constant global of rank > 1 with an identity layout gets the flat
    type `memref<N x T>` (the same bytes: a `dense_resource` keeps its blob,
    dense elements are reshaped), and each `memref.get_global` of it a
    `memref.expand_shape` back to the shape its users expect.
  }];
}

def OutputParamsPass : Pass<"onnx-output-params", "::mlir::ModuleOp"> {
  let summary = "Make the entry function's statically shaped outputs "
                "arguments that the caller provides (written in place)";
  let description = [{
    Each result of the entry function that is a memref of static shape and
    identity layout becomes an argument appended after the inputs (with the
    result's attributes, `onnx.name` among them): the buffer the caller
    (the runtime, or a caller of onnxd_run_into with its own output
    tensors) provides. A result that is a top-level `memref.alloc` returned
    once is computed directly into that argument; a view of such a buffer
    is copied into it before the return, and the buffer freed. An output
    that is not a buffer of the function (an input, a constant), one buffer
    returned twice, or an output whose shape is dynamic stays a result. The
    module attribute `onnx.output_params` lists the outputs that became
    arguments, in their order, each as `[output index, dims...]`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PlanMemoryPass : Pass<"onnx-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Place the entry function's statically shaped buffers in "
                "one arena, by liveness, allocated when the code is loaded";
  let description = [{
    After bufferization and buffer deallocation, every buffer of the entry
    function is a `memref.alloc` at its top level whose `memref.dealloc`
    sits at the end of the function: a run holds all of a model's
    intermediate tensors at once, and each run allocates them again.

    This pass plans them at compile time. A buffer qualifies when its shape
    is static, its layout the identity, its one dealloc unconditional at the
    top level, and neither it nor any view of it leaves the function (a
    return, a call, a pointer taken). Its live range runs from its alloc to
    the last top-level op that uses it or a view of it (ops in nested
    regions count as their top-level ancestor); buffers are placed largest
    first at the lowest 64-byte aligned offset free during their range.
    Each alloc becomes a `memref.view` of the arena at its offset and its
    dealloc goes.

    The arena is `memref.global @<function>_arena` (uninitialized, 64-byte
    aligned): memory the loader maps when the code is loaded. A flag global
    (`@<function>_arena_busy`, swapped atomically on entry and cleared on
    return) gives it to one run at a time; a run that finds it taken (a
    concurrent run on another thread, or after a run that a failed run-time
    check left) allocates an arena of the same size instead and frees it on
    return. Dynamically shaped buffers keep their allocations, and so do
    buffers larger than `max-buffer-bytes` (a run that cannot have them
    then fails with the allocator's error rather than at load).
  }];
  let options = [Option<"maxBufferBytes", "max-buffer-bytes", "int64_t",
                        "int64_t(1) << 30",
                        "buffers larger than this stay allocations">];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CheckBufferSizesPass
    : Pass<"onnx-check-buffer-sizes", "::mlir::ModuleOp"> {
  let summary = "Fail a run whose buffer would need more bytes than an "
                "allocation can have, instead of wrapping its size";
  let description = [{
    The LLVM lowering of `memref.alloc` multiplies the dims and the element
    size in 64 bits and does not look at the overflow: a
    `tensor<2147483648x2147483648xf32>` asks the allocator for 0 bytes, and
    the code that fills it writes over the heap. This pass puts a
    `cf.assert` before each `memref.alloc` whose size may pass
    `max-bytes` (2^62): always false for a static shape that does, and for a
    dynamic one a test of each multiplication on the run's dims. The
    message names the ONNX node of the allocation (its location's name), its
    shape and its element type; `onnx-lower-asserts-to-runtime` makes it
    the run's error. Allocations inside `scf.forall` and `scf.parallel` are
    left alone: a check there would keep the loop sequential, and a buffer
    there is a thread's tile of tensors allocated outside.
  }];
  let options = [Option<"maxBytes", "max-bytes", "int64_t",
                        "int64_t(1) << 62",
                        "the largest buffer a run may ask for">];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def MarkEntryCInterfacePass
    : Pass<"onnx-mark-entry-c-interface", "::mlir::ModuleOp"> {
  let summary = "Put llvm.emit_c_interface on the module's entry function";
  let description = [{
    The entry function gets MLIR's C interface (`_mlir_ciface_<entry>`), the
    runtime's calling convention (docs/runtime.md).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerAssertsToRuntimePass
    : Pass<"onnx-lower-asserts-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Turn cf.assert into a call of onnxd_rt_fail (the failing "
                "run returns an error)";
  let description = [{
    The conversions check what only a run can tell (dynamic dims that must
    broadcast, indices in range) with `cf.assert %ok, "message"`. Upstream
    lowers it to `puts` + `abort`, which would end the caller's process. Here
    each assert becomes

    ```mlir
    scf.if (not %ok) { func.call @onnxd_rt_fail(<message>) }
    ```

    and `onnxd_rt_fail` (lib/Runtime/OnnxRuntime.cpp) ends the current
    `onnxd_run` with `ONNXD_RUNTIME_ERROR` and the message. It does not
    return, so the code after the check never sees the bad values.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def SequentializeFailingLoopsPass
    : Pass<"onnx-sequentialize-failing-loops", "::mlir::ModuleOp"> {
  let summary = "Turn scf.parallel loops that may call onnxd_rt_fail (or "
                "another runtime function) into scf.for nests";
  let description = [{
    A parallel loop that contains a run-time check is kept sequential when
    loops become OpenMP: the failure unwinds to the thread that called
    `onnxd_run`, which a worker thread cannot do.
  }];
}

def InlineAllocaScopesPass
    : Pass<"onnx-inline-alloca-scopes", "::mlir::ModuleOp"> {
  let summary = "Inline memref.alloca_scope regions (with a stack "
                "save/restore where they allocate), so that scf-to-cf may "
                "split their bodies";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in
    `memref.alloca_scope`, whose region must stay one block;
    `convert-scf-to-cf` then turns the `scf.for` nests inside it into several
    blocks, which the op refuses. This pass removes the scopes before that: a
    scope with no `memref.alloca` inside is inlined; one with allocas brackets
    its inlined body with `llvm.stacksave` / `llvm.stackrestore`, as
    `finalize-memref-to-llvm` would, so the stack of a worker does not grow
    with each iteration.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineKernelsPass : Pass<"onnx-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move each kernel at the top level of a function (a loop "
                "nest or a structured op on buffers) into a private function "
                "of its own, called in its place";
  let description = [{
    After code generation on buffers, a model's function is a sequence of
    kernels: hundreds of loop nests for ResNet-50, one LLVM function of 65K
    instructions once lowered. LLVM's function passes cost more than
    linearly in the size of a function, and its code generation runs on one
    function at a time: a function a kernel lets LLVM compile the kernels
    apart (and `onnx-run -o` compiles them on several threads).

    A top-level op with regions and no results whose body holds at least
    `min-ops` ops becomes `func.func private @<function>_k<N>[_<node>]`
    (internal and `noinline` in LLVM, the latter as a `passthrough` attribute), called with the
    values it uses from above. Constants and
    `memref.get_global` (and pure ops on those only) are cloned into the
    function rather than passed.
  }];
  let options = [Option<"minOps", "min-ops", "unsigned", "8",
                        "the fewest ops (nested ones counted) a kernel "
                        "needs to be outlined">];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ProfileRecordNodesPass
    : Pass<"onnx-profile-record-nodes", "::mlir::ModuleOp"> {
  let summary = "Keep the op type of every named ONNX node in the module "
                "attribute onnx.node_types (for onnx-profile-kernels)";
  let description = [{
    First in the pipeline when profiling (`onnx-run --profile FILE`): the
    locations the importer gives ops name the node, and the op type is gone
    once the ops are lowered, so it is kept as
    `onnx.node_types = {"conv_3" = "Conv", ...}`. A node without a name gets
    its first output's name as its location.
  }];
}

def ProfileKernelsPass : Pass<"onnx-profile-kernels", "::mlir::ModuleOp"> {
  let summary = "Bracket each kernel of the entry function with timing calls "
                "(onnxd_prof_begin/end) and list the kernels' ONNX nodes in "
                "onnx.profile_kernels";
  let description = [{
    On buffers after code generation, the top level of the entry function is
    split into spans: a run of consecutive ops whose locations name the same
    ONNX nodes (a matmul's pack, mmt4d and unpack loops), with the ops that
    name none joining the span before them. Each span that does work (an op
    with regions, or one that reads or writes memory beyond allocating it) is
    bracketed by `onnxd_prof_begin` / `onnxd_prof_end(id, t)`, and the
    module attribute `onnx.profile_kernels` lists each kernel's nodes and op
    types (the names travel in the signature; docs/runtime.md).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def ProfileGPULaunchesPass
    : Pass<"onnx-profile-gpu-launches", "::mlir::ModuleOp"> {
  let summary = "Name each kernel launch of the entry function for the "
                "runtime's profile (onnxd_gpu_prof_kernel) and list the "
                "kernels' ONNX nodes in onnx.profile_kernels";
  let description = [{
    The GPU form of `onnx-profile-kernels`, after `gpu-kernel-outlining`:
    each `gpu.launch_func` of the entry function (at any depth) gets an id,
    passed to `onnxd_gpu_prof_kernel(id)` right before it, and
    `onnx.profile_kernels` lists per id the ONNX nodes of the ops the
    launched kernel holds (a product's kernel and the elementwise ops it
    computes too: "conv_3,relu_4" and "Conv+Relu"). The runtime brackets
    the next launch with CUDA events and records the interval in the run's
    profile once the stream has run it. Loop nests left on the host are
    not timed (they are in the run's time).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // ONNXDIALECT_PIPELINES_PASSES_TD
