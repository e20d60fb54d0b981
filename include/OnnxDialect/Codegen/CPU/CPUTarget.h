//===- CPUTarget.h - What the CPU code generator needs of a CPU -*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vector width and register file of the CPU code is generated for, from
// an LLVM CPU name and feature string (the host's by default), and the tile
// sizes that follow from them.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CODEGEN_CPU_CPUTARGET_H
#define ONNXDIALECT_CODEGEN_CPU_CPUTARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace onnx {

struct CPUTarget {
  /// The LLVM CPU name (`host` resolved to the host's).
  std::string cpu;
  /// The LLVM feature string, `+a,-b,...` (the CPU's own features first).
  std::string features;
  /// The width of a vector register in bits: 512 (AVX-512), 256 (AVX/AVX2)
  /// or 128 (SSE, other architectures).
  unsigned vectorBits = 128;
  /// Vector registers the code may hold accumulators in.
  unsigned vectorRegisters = 16;
  bool hasFMA = false;
  /// AVX-512 VNNI (`vpdpwssd`: 16-bit pairs multiplied and summed into
  /// 32-bit lanes), which products of 8-bit values use.
  bool hasVNNI = false;
  /// The L2 cache of one core that the tile loops size their blocks for:
  /// 1 MiB, that of most x86 server cores of the last years (Skylake-SP,
  /// Zen 4; this project's machine has 2 MiB), the same for every target so
  /// that a model compiles to the same code wherever it is compiled.
  int64_t l2Bytes = 1 << 20;
  /// False when `cpu` is not a CPU LLVM knows for the host's architecture.
  bool valid = true;

  /// `cpu` (`host` or empty: this machine) with `extraFeatures` (`+x,-y`)
  /// applied after the CPU's own.
  static CPUTarget get(llvm::StringRef cpu, llvm::StringRef extraFeatures);

  /// Elements of `bitWidth` bits in one vector register.
  int64_t lanes(unsigned bitWidth) const { return vectorBits / bitWidth; }
  /// The register tile of a packed f32 matmul: m0 rows by n0 columns. With
  /// 32 registers (AVX-512) 16 x one register, 16 accumulators; with 16
  /// (AVX2) 6 rows, whose tile PackMatmul's columnTile widens to two
  /// registers: 12 accumulators, two vectors of the right operand and a
  /// broadcast, where 8 x 8 spent 9 loads on 8 FMAs (a 3x3 convolution,
  /// 64 channels on 56x56, 10% faster; a 1x1 one, 32 -> 16 channels on
  /// 112x112, 35%).
  int64_t matmulTileN() const { return lanes(32); }
  int64_t matmulTileM() const { return vectorRegisters >= 32 ? 16 : 6; }
  /// Up to this many k steps the product of a register tile is computed in
  /// the tile loop of its unpacking and epilogue
  /// (onnx-cpu-tile-and-vectorize), its accumulators going from registers
  /// to the output once; longer reductions keep the blocked schedule, whose
  /// blocks of 256 k steps stay in the L1 cache, the product stored, then
  /// unpacked in a pass of its own. When this was first measured (2026-11-27,
  /// a Xeon), K = 64 and 128 were 1.2-2.2x faster fused, K = 256 about the
  /// same, K = 512 to 4608 7-20% slower. With AVX-512 on Zen 4 (2026-11-29,
  /// since products read their image in place), up to 1024 is faster,
  /// alternated at 1 / 2 threads: MobileNetV2 7.60 -> 7.47 / 4.47 -> 4.25
  /// ms, ResNet-50 74.0 -> 72.7 / 38.9 -> 37.6, BERT-base 224 -> 222 / 120
  /// -> 116, the 1024^3 MatMul 21.8 -> 21.1; up to 4096, ResNet-50 was
  /// slower again (72.1 -> 73.0). AVX2's 6-row tiles keep 256 (ResNet-50
  /// compiled for znver3: 89.4 ms, 90.0 with 1024).
  int64_t maxFusedReduction() const { return matmulTileM() >= 16 ? 1024 : 256; }
};

/// The most rows (broadcast values) of a register tile: AVX-512's matmul
/// tile. A direct convolution by rows over a map wider than that computes
/// each output row in segments (PackMatmul's rowSegment), each segment one
/// register tile, which onnx-cpu-tile-and-vectorize tiles the row into.
constexpr int64_t kMaxTileRows = 16;

/// The largest divisor of `n` from `lo` to `hi`, or 0 when there is none:
/// the rows of a register tile that divides a dim exactly.
inline int64_t largestDivisor(int64_t n, int64_t hi, int64_t lo) {
  for (int64_t d = hi; d >= lo && d >= 1; --d)
    if (n % d == 0)
      return d;
  return 0;
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CODEGEN_CPU_CPUTARGET_H
