// RUN: onnx-opt %s --onnx-flatten-constant-globals | FileCheck %s

// A constant global of rank > 1 becomes 1-D (dense elements reshaped, a
// dense_resource keeps its blob), and each get_global is reshaped back.
// Mutable, rank-1 and non-identity-layout globals stay as they are.
// CHECK-DAG: memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @p : memref<8xf32> = dense_resource<blob>
// CHECK-DAG: memref.global "private" @m : memref<2x2xf32> = dense<0.000000e+00>
// CHECK-DAG: memref.global "private" constant @v : memref<3xf32> = dense<1.000000e+00>
// CHECK-LABEL: func.func @f
// CHECK: %[[W:.*]] = memref.get_global @w : memref<6xf32>
// CHECK: memref.expand_shape %[[W]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK: %[[P:.*]] = memref.get_global @p : memref<8xf32>
// CHECK: memref.expand_shape %[[P]] {{\[\[}}0, 1, 2, 3]] output_shape [2, 1, 4, 1] : memref<8xf32> into memref<2x1x4x1xf32>
// CHECK: memref.get_global @m : memref<2x2xf32>
// CHECK: memref.get_global @v : memref<3xf32>
module {
  memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> {alignment = 64 : i64}
  memref.global "private" constant @p : memref<2x1x4x1xf32> = dense_resource<blob>
  memref.global "private" @m : memref<2x2xf32> = dense<0.0>
  memref.global "private" constant @v : memref<3xf32> = dense<1.0>
  func.func @f() -> (memref<2x3xf32>, memref<2x1x4x1xf32>, memref<2x2xf32>, memref<3xf32>) {
    %w = memref.get_global @w : memref<2x3xf32>
    %p = memref.get_global @p : memref<2x1x4x1xf32>
    %m = memref.get_global @m : memref<2x2xf32>
    %v = memref.get_global @v : memref<3xf32>
    return %w, %p, %m, %v : memref<2x3xf32>, memref<2x1x4x1xf32>, memref<2x2xf32>, memref<3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}
