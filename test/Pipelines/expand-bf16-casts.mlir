// RUN: onnx-opt %s --onnx-expand-bf16-casts | FileCheck %s
// RUN: onnx-opt %s --onnx-lower-to-llvm="onnx-level=false" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// f32 -> bf16 rounds to nearest even in integer arithmetic (x + 0x7fff +
// the kept bit's parity, then the high half), NaN kept a quiet NaN; no
// arith.truncf to bf16 is left for LLVM, which would call __truncsfbf2
// (missing from the JIT and from Debian 12's libgcc) on hosts without
// AVX512-BF16.
// CHECK-LABEL: func.func @truncate
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: arith.shrui
// CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi16>
// CHECK: arith.bitcast %{{.*}} : vector<8xi16> to vector<8xbf16>
func.func @truncate(%x: vector<8xf32>) -> vector<8xbf16> {
  %0 = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %0 : vector<8xbf16>
}

// bf16 -> f32 is a shift of its bits into the high half.
// CHECK-LABEL: func.func @extend
// CHECK-NOT: arith.extf
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @extend(%x: bf16) -> f32 {
  %0 = arith.extf %x : bf16 to f32
  return %0 : f32
}

// Through the whole pipeline, bf16 arithmetic too (computed in f32): the
// LLVM IR has no conversion for the backend to turn into a libcall.
// LLVM-LABEL: define {{.*}} @arithmetic
// LLVM-NOT: fptrunc
// LLVM-NOT: fpext
// LLVM-NOT: fadd bfloat
// LLVM: fadd float
// LLVM-NOT: fptrunc
// LLVM: ret
func.func @arithmetic(%a: bf16, %b: bf16) -> bf16 {
  %0 = arith.addf %a, %b : bf16
  return %0 : bf16
}
