//===- Passes.td - The CPU code-generation stage -----------*- tablegen -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes between linalg on tensors and LLVM that make the CPU code fast:
// matrix products packed into register-sized tiles (weights packed at
// compile time), tiling with threads and vectorization on tensors, and the
// lowering of the vector ops after bufferization. Sources live in
// lib/Codegen/CPU/. The sizes come from the target's features (CPUTarget.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CODEGEN_CPU_PASSES_TD
#define ONNXDIALECT_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar targetOptions = [
  Option<"targetCPU", "target-cpu", "std::string", /*default=*/"\"host\"",
         "The CPU to generate code for: `host` (this machine) or an LLVM CPU "
         "name (`znver4`, `sapphirerapids`, `x86-64-v3`, ...)">,
  Option<"targetFeatures", "target-features", "std::string",
         /*default=*/"\"\"",
         "LLVM target features added to the CPU's (`+avx512f,-avx512f`, ...); "
         "the vector width follows from them">,
];

def CPUBlockedLayout : Pass<"onnx-cpu-blocked-layout",
                             "::mlir::func::FuncOp"> {
  let summary = "Convolutions, depthwise convolutions and pools on "
                "activations in the blocked layout [N, C/c0, H, W, c0], "
                "converted once for the whole function";
  let description = [{
    Rewrites each f32 `linalg.conv_2d_nchw_fchw` of static shape with a
    constant filter of `F` filters, `F` a multiple of `c0` (the f32 lanes of
    a vector register: 16 with AVX-512), and each
    `linalg.depthwise_conv_2d_nchw_chw`, `linalg.pooling_nchw_max` and
    `linalg.pooling_nchw_sum` of `C` channels, a multiple of `c0`, into a
    `linalg.generic` marked `onnx.cpu.blocked_conv` on activations in the
    blocked layout `[N, C/c0, H, W, c0]`:

    - the image is `linalg.pack`ed into that layout (a convolution whose
      channels are not a multiple of `c0`, a network's first one over 3
      colours, reads its image as it is, as `[N, C, H, W, 1]`);
    - the filter is packed at compile time into a new `dense_resource`,
      `[F/c0, C/ci, KH, KW, ci, c0]` (`ci` the image's block, `c0` or 1) for
      a convolution, `[C/c0, KH, KW, c0]` for a depthwise one;
    - the result, `[N, F/c0, OH, OW, c0]`, is `linalg.unpack`ed back.

    Then the layout changes are moved through the ops between: an unpack
    into an elementwise `linalg.generic` (an activation, a batch
    normalization, a residual addition, whose other operands are packed, or
    reshaped when they are per-channel vectors) makes the generic compute in
    the blocked layout and the unpack follow it, as does an unpack into a
    `tensor.concat` of inputs whose channels are multiples of `c0`; pads and
    packs move as
    upstream's data-layout propagation moves them; and a pack of an unpack
    of the same layout cancels. The activations between two convolutions so
    stay blocked: the layout is converted where the function's inputs enter
    and where a consumer that does not take it (a reshape, a matmul, a
    reduction) reads them, not around each convolution.

    The pass applies to targets with 32 vector registers (AVX-512); with 16
    (AVX2) its register tiles would not fit them, and it leaves the plain
    layout.

    `onnx-cpu-tile-and-vectorize` computes a convolution in register tiles
    of a segment of an output row (up to 16 positions, broadcast from the
    image) times `c0` filters (one vector of the packed filter), and a
    depthwise convolution or pool with its `c0` channels in the lanes.
  }];
  let options = targetOptions # [
    Option<"winograd", "winograd", "unsigned", /*default=*/"4",
           "3x3 convolutions with unit strides through Winograd's F(m, 3) "
           "along their rows, on the blocked layout: m = 4 or 2; 0 computes "
           "them directly">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def CPUPackMatmul : Pass<"onnx-cpu-pack-matmul", "::mlir::func::FuncOp"> {
  let summary = "Matrix products and convolutions to linalg.mmt4d on tiles "
                "sized for the register file";
  let description = [{
    Rewrites `linalg.matmul` with static f32 operands (or i32 ones, the
    product of MatMulInteger's or QLinearMatMul's operands less their zero
    points) into `linalg.pack` of both operands, `linalg.mmt4d` on the
    packed tiles and `linalg.unpack` of the result: the left operand in
    `[M/m0, K, m0, 1]` tiles, the right one in `[N/n0, K, n0, 1]` tiles,
    the accumulator in `[M/m0, N/n0, m0, n0]`. An i32 product whose
    operands are 8-bit values widened (less a zero point), with AVX-512 VNNI
    (tiles of whole registers of columns), is computed on the bytes: A as signed bytes and B as
    unsigned ones (each xor-ed with 0x80 when it is not: a value less or
    plus 128, its zero point likewise), packed in quads of k,
    `[M/m0, K/4, m0, 4]` and `[N/n0, K/4, n0, 4]` (a constant B here, with
    its column sums), a linalg.generic with mmt4d's maps marked
    `onnx.cpu.quad_product` that onnx-cpu-lower-vectors computes with
    `vpdpbusd`, then an elementwise op subtracting the zero points' terms,
    `zb rowsum(A) + za colsum(B) - K za zb` (exact: i32 wraps as the
    product's). A quantized convolution's im2col then copies the bytes of
    its image, padded with the image's zero point. Where the bytes are read
    through another map (a transposed operand), the i16 pairs: both truncated to
    i16 and packed in pairs of k, `[M/m0, K/2, m0, 2]` and
    `[N/n0, K/2, n0, 2]`, an i16 x i16 -> i32 mmt4d computed with
    `vpdpwssd`.
    The tile fills the register file with accumulators and leaves room for
    the vectors of the right operand and a broadcast: 16 x 16 with AVX-512
    (32 registers), 6 x 16 with AVX2 (16 registers: 12 accumulators); with
    4 lanes, 6 x 8 (SSE, 16 registers) or 16 x 4 (NEON, 32). `m0` is
    narrowed for short `M` (a matmul with 3 rows packs 4, not 16), and a
    tile of fewer than 8 rows is widened to more registers of columns, as
    many as hold 8 accumulators and fit. Sizes that are not
    multiples of the tile are padded with zeros. A narrow `N` that the
    vector width does not divide, against an `M` that it does (a 1x1
    convolution's 7x7 positions against its filters), is computed as the
    transposed product when that pads at least a tenth less and its tile
    still has 8 accumulators: `N` in row tiles of one of its divisors, `M`
    in the vector lanes.

    A matmul whose rows are dynamic (a dynamic batch) and whose other dims are
    static is first tiled into a loop over chunks of 8 x `m0` rows and
    peeled: the whole chunks are static matmuls packed as above (the packed
    right operand reused over the chunk's rows), the rows after them go in
    tiles of `m0` rows (an `scf.forall` with threads), each padded with rows
    of zeros to a static matmul whose padding rows are dropped.

    A 2-D convolution of one image (`linalg.conv_2d_nchw_fchw` with static
    shapes; an i32 one, ConvInteger's or QLinearConv's, only through the
    im2col matrix below) whose window has several taps and whose dilations
    are 1 is computed directly from the image: a `linalg.generic` marked
    `onnx.cpu.direct_conv` over `[F/m0, P/n0, C, KH, KW, m0, n0]` that
    accumulates the filter, packed at compile time as `[F/m0, C, KH, KW, m0]`,
    times the image flattened to `[C, H*W]`: output position
    `p = oh * W + ow` of the padded width `W` reads `x[c, p + ky * W + kx]`,
    so a register tile's `n0` positions are consecutive image elements (the
    columns past `OW` are computed and dropped after unpacking; the rows
    below the image that the last tile reads are added to the
    convolution's own zero border, one padded copy of the image). With strides
    `(sy, sx)` the image is split into its `sy * sx` phases
    `x[:, :, a::sy, b::sx]`, each convolved with the filter's taps
    `(a + i sy, b + j sx)` into the same accumulator. Onto a narrow map (5 to
    16 columns) the convolution goes by rows when that is at least a tenth
    less work: `[OH, F/lanes, C, KH, KW, OW, lanes]`, a register tile being
    one output row's positions times `lanes` filters, so that no position
    past `OW` is computed. Other convolutions
    (1x1 windows, dilations) become a matmul first: the filter as a `[F, C*KH*KW]` matrix
    (the same blob, reshaped) times the image's im2col matrix
    `[C*KH*KW, OH*OW]` (the image itself for a 1x1 convolution with unit
    strides), accumulated into the output viewed as `[F, OH*OW]`. An init
    that is not a fill (a bias broadcast over the output) is not packed as
    the accumulator: the product starts from zeros and the init is added
    after it by an elementwise op, which fusion joins to the activation
    after it, so that bias and activation run on the product's register
    tiles (a direct convolution adds it the same way). A batch of
    several images is first a loop over its images (`scf.for`) whose body is
    the convolution of one image, so that each becomes such a matmul and all
    share the filter packed once; a fill of the output becomes a fill of each
    image's output.

    A 3x3 convolution with unit strides and dilations, a constant filter,
    `C * 3 >= 32` channels and whole blocks of filters for the direct
    convolution by rows goes through Winograd's minimal filtering F(m, 3)
    along its rows (`winograd`, 4 by default, or 2; 0: direct): output rows
    in tiles of m (zero rows below the image for the last), the image's rows
    combined into alpha = m + 2 images `R_xi = sum_i B^T[xi][i] x[m th + i]`
    (one elementwise generic over `[1, C, alpha, TH, W]`: the row-strided
    views of the image times columns of `B^T` indexed by `xi`, viewed as
    `[C, alpha * TH * W]`), one direct-convolution generic by rows with a
    1x3 window that multiplies image `xi` by filter row `xi` of `G w`
    (computed and packed at compile time: its taps map reads
    `d0 floordiv TH`), and output row `m th + a` as
    `sum_xi A^T[a][xi]` of the products (one elementwise generic writing
    the by-rows accumulator layout `[TH, m, F/lanes, OW, lanes]`, unpacked
    as a direct convolution's). With
    F(4, 3), 4.5 multiplications per output instead of 9 (when the tiles'
    rows past the output keep that under 0.8 of the direct count).

    A convolution whose batch or image size is dynamic, with static channels,
    filters and window (an R-CNN's backbone on an image whose size the model
    computes), becomes a loop nest over its images and over tiles of 8 x 16
    output positions (a static output dim is one tile): each tile is the
    static convolution of the image's slice under it, padded with zeros at
    its end to the tile's size, rewritten as above, and its valid positions
    are inserted into the output. (As one dynamic op it would stay a scalar
    loop nest: 10-20x slower, and with each output summed in one float32
    accumulator through all of `C*KH*KW`, several times further from
    float64.)

    A depthwise 2-D convolution (`linalg.depthwise_conv_2d_nchw_chw`, static
    f32, kernels up to 7x7) becomes one elementwise `linalg.generic` over the
    output whose inputs are the KH*KW strided windows of the image (views)
    and the matching columns of the filter, which the tiling pass vectorizes
    along the output row. A bias broadcast that the convolution accumulates
    into (a `Conv` with a B input) is an input of that op, so the output is
    only written (and fused activations leave no second output). When the
    image is a static zero `tensor.pad` of H and W, the windows are read
    from the unpadded image in a buffer with rows of zeros above and below
    it (filled once), viewed flat per channel from each tap's offset: the
    first and last taps of a row then read the neighbouring row, and their
    bits are and-ed with a constant mask of the output columns inside the
    image. The image's insert into the buffer carries
    `onnx.cpu.write_in_place`, and the buffer's `tensor.empty` the op's
    location (`onnx.cpu.buffer_of`, so that CSE keeps two layers' buffers
    apart).

    A batched matmul (`linalg.batch_matmul`, static f32 matrices, the number
    of them possibly dynamic: an attention's products per head) becomes a loop over its matrices whose body is one
    matmul, packed as above; with `num-threads` above 1 the loop is an
    `scf.forall` (each thread packs and multiplies its own matrices, and the
    tiling pass splits nothing inside it further), and so is the loop over
    the rows of a convolution's im2col matrix.

    An operand that is a constant (an initializer, a transpose of one, or a
    static slice of one such as one direction's LSTM weights) is packed here,
    in C++, into a new `dense_resource` blob: weights are packed once, at
    compile time, and never go through the folder. A zero fill of the
    accumulator becomes a fill of the packed accumulator.
  }];
  let options = !listconcat(targetOptions, [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads the code runs on: above 1, batched matmuls are split "
           "over them by their matrices and a convolution's im2col by its "
           "rows">,
    Option<"winograd", "winograd", "unsigned", /*default=*/"4",
           "3x3 convolutions with unit strides through Winograd's F(m, 3) "
           "along their rows: m = 4 or 2; 0 computes them directly">,
  ]);
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def CPUTileAndVectorize : Pass<"onnx-cpu-tile-and-vectorize",
                               "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops for caches, threads and registers, and "
                "vectorize the tiles";
  let description = [{
    On tensors, before bufferization:
    - a packed product `linalg.unpack(linalg.mmt4d)` and the elementwise op
      that alone reads it (its epilogue: bias, normalization, residual add,
      activation; a copy when there is none): one loop nest over the m0 x n0
      register tiles of the output (an `scf.forall` over rows of tiles first
      when `num-threads` is above 1, or over columns of tiles when the rows
      do not split evenly), each tile unpacking its product and
      applying the epilogue in registers before one store. With a reduction
      of at most 1024 steps (AVX-512's 16x16 tiles; 256 with AVX2's 6-row
      tiles) the product and its zero fill are computed in the same tile
      loop (`scf::tileConsumerAndFuseProducersUsingSCF`), the
      accumulators forwarded from registers; the rows and columns past the
      last whole tile are split off and tiled with partial tiles;
    - a direct convolution (`onnx.cpu.direct_conv`): an `scf.forall` over
      its position tiles with threads, blocks of 8 position tiles and of at
      most 8 channels, then one `m0 x n0` register tile per step with the
      channel and window loops innermost, each step one
      `vector.outerproduct` of the filters' weights and `n0` consecutive
      image values; the tile sums its block of channels from zero in
      registers and is then added to the accumulator, so that float32 sums
      run over at most 8 channels' taps (one accumulator through all 576
      terms of a 3x3 convolution of 64 channels was 3.5x further from
      float64 than ONNX Runtime);
    - other `linalg.mmt4d`s (from `onnx-cpu-pack-matmul`): the outermost tile
      loop is an `scf.forall` over the rows of tiles (over the columns when
      there are more column tiles) when `num-threads` is above 1 (OpenMP
      later), then blocks of the columns and the reduction sized for the L2
      cache, then one register tile per iteration, vectorized into a
      `vector.contract` whose accumulator is hoisted out of the reduction
      loop; when the reduction has several blocks (more than 256 steps), the
      tile sums each block from zero and adds it to the accumulator after,
      as the direct convolution does (a 1x1 convolution over 1024 channels:
      1.0e-6 of the output's magnitude from float64 with one sum, 3.2e-7 in
      blocks);
    - a product of 8-bit quads (`onnx.cpu.quad_product`, from
      `onnx-cpu-pack-matmul` with AVX-512 VNNI) takes the schedules of an
      mmt4d, each step of its register tile a `vector.contract` of the
      bytes extended to i32 (signed, unsigned), which
      `onnx-cpu-lower-vectors` computes with one `vpdpbusd` per row;
    - `linalg.pack`/`linalg.unpack`: lowered to pad, reshape and transpose,
      but the run-time pack of the right operand of a product computed in
      its epilogue's tiles (with AVX2, with at most 4 rows of tiles), [K, N]
      -> [N/n0, K, n0, 1] with N a multiple of n0 (a 1x1 convolution's
      image), which is fused into the register tiles, where each tile's part
      of it is a reshape of the operand's columns: no packing pass;
      `tensor.pad` by a constant to fills of its border and an insert_slice
      of its source, marked `onnx.cpu.write_in_place`, into an empty tensor
      named after the pad (`onnx.cpu.buffer_of`, so that CSE keeps two
      pads' apart); others to a fill of the whole tensor and an
      insert_slice;
    - nothing inside an `scf.forall` (the matrices of a batched matmul) is
      split over threads again;
    - a `tensor.insert_slice` marked `onnx.cpu.write_in_place` (a depthwise
      convolution's image into its zero-bordered buffer, a pad's source into
      its interior): the op that computes its source into a `tensor.empty`
      (through reshapes, loops and destination-style ops: a 1x1
      convolution's tiles and epilogue) computes it into the destination's
      slice instead, and the destination's definition moves before that op,
      so that bufferization writes the image in place (MobileNetV2: the
      padded copies of its depthwise inputs were 2.5 of 16 ms). A source
      computed in parts (a product's whole tiles, then the columns and rows
      left, each in a slice of the empty) has each part start from its
      slice of the destination. Skipped where the slice, reshaped as the
      computation sees it, would not be a view of the destination's buffer
      (a flat view of rows narrower than the buffer's: bufferization would
      copy it);
    - elementwise ops (`linalg.generic` with parallel loops only, `linalg.fill`,
      `linalg.transpose`, `linalg.copy`, `linalg.broadcast`) with static
      shapes: the innermost loop tiled by a multiple of the vector length and
      vectorized, a tail split off as its own shorter vector, the outer loops
      one at a time, the outermost on threads when the op is large; with
      AVX-512, a row whose last vector is not a power of two long (14 or 28
      columns) is whole vectors under a mask (`vector.mask`, which the
      pipeline's `lower-vector-mask` turns into masked transfers: one
      masked load or store each, where LLVM split a vector<14xf32> into 8 +
      4 + 2), unless an operand walks the row other than along its last dim
      (a transpose) or is a strided view;
    - generics whose only reduction is their innermost loop, read
      contiguously, up to 1024 long (softmax and normalization statistics,
      reductions over the last axis): the parallel loops tiled to one and
      the reduction vectorized whole into a `vector.multi_reduction`; a row
      of at least four vectors (one output element a step) is reduced in an
      `scf.for` over chunks of four vectors (or one) that carries partial
      sums in registers, reduced across once after the loop (upstream's
      partial-reduction tiling), rather than as one vector the length of the
      row, which LLVM reduces in order (an add per element).
    An elementwise op or inner reduction whose dynamic loops are outer and
    parallel (a dynamic batch) is first tiled to one iteration of them (an
    `scf.forall` when `num-threads` is above 1), so that the op inside has
    static shapes and takes the schedules above. Ops that do not match
    (other dynamic loops, gathers, bodies that do not vectorize) are left as
    they are and become scalar loops later. Vector
    math (`exp`, `tanh`, `erf`, `log`, ...) is expanded into polynomial
    approximations so that no scalar libm call runs per element.
  }];
  let options = targetOptions # [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads of the compiled code: above 1, the outermost tile loop of "
           "large kernels is an scf.forall">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def CPULowerVectors : Pass<"onnx-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lower vector ops on buffers to what LLVM's x86 backend "
                "compiles well";
  let description = [{
    After bufferization, static copies become vector loads and stores: a
    small one (at most 64 rows and 4096 elements) unrolled whole, a
    non-contiguous one of more rows as a loop over its rows with each row
    unrolled (contiguous large copies stay `memref.copy`, an `llvm.memcpy`).
    With `num-threads` above 1, a copy of at least 64K elements outside any
    parallel loop (a tile's image copied into its padded buffer) is first
    split over the threads: an `scf.forall` over its leading dims, up to the
    first with as many elements as threads, each step copying the rest;
    then, in separate sweeps (one combined sweep of these
    pattern sets does not terminate): unit dims dropped from transfers,
    `vector.contract` to outer products and those to FMAs (with AVX-512 VNNI,
    a contraction of [M, 2] x i16 and [16, 2] x i16 pairs into [M, 16] x
    i32, onnx-cpu-pack-matmul's product of 8-bit values, to one
    `llvm.x86.avx512.vpdpwssd.512` per row, the row's pair loaded as one
    32-bit word and broadcast; one of [M, 4] signed bytes and [16 r, 4]
    unsigned ones extended to i32 (or [4] and [16 r, 4] for one row), its
    product of quads, to one `llvm.x86.avx512.vpdpbusd.512` per row and
    register of 16 columns likewise), transfer
    permutations to transposes, n-D transfers fully unrolled to 1-D loads and
    stores (never to stack temporaries), reads along a strided dim (a
    stride-2 convolution window) to `vector.gather`, and transposes, shape casts and
    broadcasts to shuffles. First, a loop that carries an n-D vector (a
    register tile's accumulators) carries its 1-D rows instead, one
    `iter_args` each: LLVM keeps a phi of an array of vectors whole when its
    start is a constant (a tile summed from zero), and its register
    allocator then spilled accumulators of the hot loop.
  }];
  let options = targetOptions # [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads of the compiled code: above 1, large copies outside "
           "parallel loops are split over them">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // ONNXDIALECT_CODEGEN_CPU_PASSES_TD
