// A 3x3 convolution with unit strides and a constant filter through
// Winograd's F(m, 3) along its rows (onnx-cpu-pack-matmul, winogradConv in
// lib/Codegen/CPU/PackMatmul.cpp), and the option that turns it off.
// RUN: onnx-opt %s --onnx-cpu-pack-matmul=target-cpu=skylake-avx512 | FileCheck %s
// RUN: onnx-opt %s --onnx-cpu-pack-matmul="target-cpu=skylake-avx512 winograd=2" | FileCheck %s --check-prefix=F2
// RUN: onnx-opt %s --onnx-cpu-pack-matmul="target-cpu=skylake-avx512 winograd=0" | FileCheck %s --check-prefix=OFF
// RUN: not onnx-opt %s --onnx-cpu-pack-matmul="target-cpu=skylake-avx512 winograd=3" 2>&1 | FileCheck %s --check-prefix=BAD

// The one product kernel: output row r of the stacked products reads the
// filter row r floordiv TH (TH = 2 tiles of 4 output rows) and image row r.
// CHECK-DAG: #[[TAPS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0 floordiv 2, d1, d2, d3, d4, d6)>
// CHECK-DAG: #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d0 * 10 + d5 + d3 * 10 + d4)>
// The row transform's maps: a row view without the image dim, a column of
// B^T by it.
// CHECK-DAG: #[[DROP2:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[AT2:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2)>
// F2-DAG: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0 floordiv 4, d1, d2, d3, d4, d6)>

// CHECK-LABEL: func.func @conv3x3
// The row transform B^T in one op: input rows 4 apart from row i, each with
// column i of B^T (indexed by the image xi), into [1, 16, 6, 2, 10].
// CHECK: %[[R0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 16, 2, 10] [1, 1, 4, 1]
// CHECK: %[[R5:.*]] = tensor.extract_slice %arg0[0, 0, 5, 0] [1, 16, 2, 10] [1, 1, 4, 1]
// CHECK: %[[B0:.*]] = arith.constant dense<[4.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<6xf32>
// CHECK: %[[IMAGES:.*]] = linalg.generic {indexing_maps = [#[[DROP2]], #[[AT2]],
// CHECK-SAME: ins(%[[R0]], %[[B0]], {{.*}}, %[[R5]], %{{[^ ]+}} :
// CHECK-SAME: outs(%{{.*}} : tensor<1x16x6x2x10xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[IMAGES]] {{\[\[}}0, 1], [2, 3, 4]] : tensor<1x16x6x2x10xf32> into tensor<16x120xf32>
// The filter rows G w, computed and packed at compile time, times the
// images in one kernel.
// CHECK: %[[W:.*]] = arith.constant dense_resource<onnx_packed_weights> : tensor<6x1x16x1x3x16xf32>
// CHECK: %[[STACKED:.*]] = linalg.generic {indexing_maps = [#[[TAPS]], #[[IMAGE]],
// CHECK-SAME: ins(%[[W]], %[[FLAT]] : tensor<6x1x16x1x3x16xf32>, tensor<16x120xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<12x1x8x16xf32>)
// CHECK-SAME: onnx.cpu.direct_conv
// The output transform A^T in one op: output row a of each tile from the 6
// products, into [2, 4, 1, 8, 16] (the by-rows layout of 8 rows), unpacked.
// CHECK-COUNT-6: tensor.extract_slice %[[STACKED]]
// CHECK: %[[ROWS:.*]] = linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<2x4x1x8x16xf32>)
// CHECK: tensor.collapse_shape %[[ROWS]] {{.*}} into tensor<8x1x8x16xf32>
// CHECK: linalg.unpack {{.*}} -> tensor<16x64xf32>

// F2: outs(%{{.*}} : tensor<1x16x4x4x10xf32>)
// F2: tensor<4x1x16x1x3x16xf32>
// F2: outs(%{{.*}} : tensor<16x1x8x16xf32>)
// F2: outs(%{{.*}} : tensor<4x2x1x8x16xf32>)

// OFF-LABEL: func.func @conv3x3
// OFF-NOT: floordiv
// OFF: ins(%{{.*}}, %{{.*}} : tensor<1x16x3x3x16xf32>, tensor<16x100xf32>)
// OFF-SAME: onnx.cpu.direct_conv

// BAD: error: onnx-cpu-pack-matmul: winograd=3 is not one of 0 (off), 2 or 4
func.func @conv3x3(%x: tensor<1x16x10x10xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x16x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// A filter that is not a constant, or too few channels (C * 3 < 32): direct.
// CHECK-LABEL: func.func @not_winograd
// CHECK-NOT: floordiv
// CHECK: return
func.func @not_winograd(%x: tensor<1x16x10x10xf32>, %w: tensor<16x16x3x3xf32>,
                        %x8: tensor<1x8x10x10xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %empty = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %z = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x8, %c : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y, %z : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>
}
