// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-blocked-layout=target-cpu=skylake-avx512 | FileCheck %s
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-blocked-layout=target-cpu=haswell | FileCheck %s --check-prefix=AVX2
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-blocked-layout="target-cpu=skylake-avx512 winograd=0" | FileCheck %s --check-prefix=DIRECT
// RUN: not onnx-opt %s --onnx-cpu-blocked-layout="target-cpu=skylake-avx512 winograd=3" 2>&1 | FileCheck %s --check-prefix=BADM

// BADM: error: onnx-cpu-blocked-layout: winograd=3 is not one of 0 (off), 2 or 4

// The maps of the blocked ops below (the module's aliases).
// CHECK-DAG: #[[IMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 + d6, d3 + d7, d8)>
// CHECK-DAG: #[[WROWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d2 floordiv 2, d1, d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[FILT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[IMG2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 * 2 + d6, d3 * 2 + d7, d8)>
// CHECK-DAG: #[[DWIMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5, d3 + d6, d4)>
// CHECK-DAG: #[[DWF:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d4)>
// CHECK-DAG: #[[POOLIMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6)>
// DIRECT-DAG: #[[IMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d5, d2 + d6, d3 + d7, d8)>
// DIRECT-DAG: #[[FILT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d5, d6, d7, d8, d4)>

// A chain: a 3x3 convolution (with its bias), its activation, a 1x1
// convolution and a residual addition of another input. The layout changes
// once where each input enters (a pack; the image's pad then on the blocked
// tensor) and once where the result leaves (one unpack): the activation and
// the addition compute on [1, C/16, H, W, 16]. The filters are packed here;
// the bias is reshaped to [C/16, 16].
// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[W1:.*]] = arith.constant dense_resource<onnx_packed_weights{{.*}}> : tensor<4x2x1x1x16x16xf32>
// CHECK-DAG: %[[TAPS:.*]] = arith.constant dense_resource<onnx_packed_weights{{.*}}> : tensor<6x2x2x1x3x16x16xf32>
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<2.500000e-01> : tensor<2x16xf32>
// CHECK: %[[PACK:.*]] = linalg.pack %arg0 inner_dims_pos = [1] inner_tiles = [16] into %{{.*}} : tensor<1x32x8x8xf32> -> tensor<1x2x8x8x16xf32>
// CHECK: tensor.pad %[[PACK]] low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0]
// The 3x3 convolution over 8 rows goes through Winograd's F(4, 3): the
// image's 6 row transforms of 2 row tiles, then their convolutions with the
// filter rows, one filter for each block of 2 rows.
// CHECK: } -> tensor<1x2x6x2x10x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IMG]], #[[WROWS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %[[TAPS]] : tensor<1x2x12x10x16xf32>, tensor<6x2x2x1x3x16x16xf32>) outs(%{{.*}} : tensor<1x2x12x8x16xf32>) attrs = {onnx.cpu.blocked_conv}
// CHECK: } -> tensor<1x2x2x4x8x16xf32>
// CHECK: ins(%[[BIAS]] : tensor<2x16xf32>)
// CHECK: arith.maximumf
// CHECK: %[[C1:.*]] = linalg.generic {indexing_maps = [#[[IMG]], #[[FILT]], #[[OUT]]], {{.*}} ins(%{{.*}}, %[[W1]] : tensor<1x2x8x8x16xf32>, tensor<4x2x1x1x16x16xf32>) outs(%{{.*}} : tensor<1x4x8x8x16xf32>) attrs = {onnx.cpu.blocked_conv}
// CHECK: %[[RES:.*]] = linalg.pack %arg1 inner_dims_pos = [1] inner_tiles = [16]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[C1]], %[[RES]] :
// CHECK: arith.addf
// CHECK: %[[Y:.*]] = linalg.unpack %[[SUM]] inner_dims_pos = [1] inner_tiles = [16] into %{{.*}} : tensor<1x4x8x8x16xf32> -> tensor<1x64x8x8xf32>
// CHECK-NEXT: return %[[Y]]
// With AVX2's 16 registers the pass leaves the plain layout (its register
// tiles would not fit them).
// AVX2-LABEL: func.func @chain
// AVX2-NOT: linalg.pack
// AVX2: linalg.conv_2d_nchw_fchw
// AVX2: linalg.conv_2d_nchw_fchw
// AVX2-NOT: onnx.cpu.blocked_conv
// Without Winograd, the 3x3 convolution is direct: its filter
// [F/16, C/16, 3, 3, 16, 16], its image read at (oh + ky, ow + kx).
// DIRECT-LABEL: func.func @chain
// DIRECT: %[[W:.*]] = arith.constant dense_resource<onnx_packed_weights{{.*}}> : tensor<2x2x3x3x16x16xf32>
// DIRECT: linalg.generic {indexing_maps = [#[[IMG]], #[[FILT]], {{.*}}]{{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x10x10x16xf32>, tensor<2x2x3x3x16x16xf32>)
func.func @chain(%x: tensor<1x32x8x8xf32>, %xx: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  %w1 = arith.constant dense<0.5> : tensor<32x32x3x3xf32>
  %b1 = arith.constant dense<0.25> : tensor<32xf32>
  %w2 = arith.constant dense<0.125> : tensor<64x32x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x32x8x8xf32> to tensor<1x32x10x10xf32>
  %e32 = tensor.empty() : tensor<1x32x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1 : tensor<32xf32>) outs(%e32 : tensor<1x32x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x32x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w1 : tensor<1x32x10x10xf32>, tensor<32x32x3x3xf32>) outs(%bias : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x32x8x8xf32>) outs(%e32 : tensor<1x32x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x8x8xf32>
  %e64 = tensor.empty() : tensor<1x64x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e64 : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r1, %w2 : tensor<1x32x8x8xf32>, tensor<64x32x1x1xf32>) outs(%fill : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %xx : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) outs(%e64 : tensor<1x64x8x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<1x64x8x8xf32>
  return %sum : tensor<1x64x8x8xf32>
}

// A first convolution over 3 colours reads its image as it is, viewed as
// [1, 3, H, W, 1]; strides of 2 stay in the window's map.
// CHECK-LABEL: func.func @colours
// CHECK-NOT: linalg.pack
// CHECK: arith.constant dense_resource<onnx_packed_weights{{.*}}> : tensor<1x3x3x3x1x16xf32>
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 3, 17, 17, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IMG2]], {{.*}} attrs = {onnx.cpu.blocked_conv}
// CHECK: linalg.unpack {{.*}} -> tensor<1x16x8x8xf32>
func.func @colours(%x: tensor<1x3x17x17xf32>) -> tensor<1x16x8x8xf32> {
  %w = arith.constant dense<1.0> : tensor<16x3x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x3x17x17xf32>, tensor<16x3x3x3xf32>) outs(%fill : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// A depthwise convolution and a max pool: c0 channels in the lanes, their
// bodies kept; the filter packed here into [C/16, KH, KW, 16]. The pool reads
// the depthwise convolution's blocked result (no unpack between).
// CHECK-LABEL: func.func @depthwise_pool
// CHECK: %[[W:.*]] = arith.constant dense_resource<onnx_packed_weights{{.*}}> : tensor<2x3x3x16xf32>
// CHECK: %[[DW:.*]] = linalg.generic {indexing_maps = [#[[DWIMG]], #[[DWF]], {{.*}}]{{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x10x10x16xf32>, tensor<2x3x3x16xf32>) outs(%{{.*}} : tensor<1x2x8x8x16xf32>) attrs = {onnx.cpu.blocked_conv}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.unpack
// CHECK: linalg.generic {indexing_maps = [#[[POOLIMG]], #[[WINDOW]], {{.*}}]{{.*}} ins(%[[DW]], %{{.*}} : tensor<1x2x8x8x16xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x2x4x4x16xf32>) attrs = {onnx.cpu.blocked_conv}
// CHECK: arith.maximumf
// CHECK: linalg.unpack {{.*}} -> tensor<1x32x4x4xf32>
func.func @depthwise_pool(%x: tensor<1x32x10x10xf32>) -> tensor<1x32x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<32x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x10x10xf32>, tensor<32x3x3xf32>) outs(%fill : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x32x4x4xf32>
  %fill2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%dw, %window : tensor<1x32x8x8xf32>, tensor<2x2xf32>) outs(%fill2 : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  return %y : tensor<1x32x4x4xf32>
}

// 24 filters are not a multiple of 16, a row of 17 positions has no
// divisor from 4 to 16, and a row of 2 positions is too short for a tile:
// the three convolutions keep the plain layout.
// CHECK-LABEL: func.func @not_blocked
// CHECK-NOT: linalg.pack
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: onnx.cpu.blocked_conv
func.func @not_blocked(%x: tensor<1x16x8x8xf32>, %x2: tensor<1x16x17x17xf32>, %x3: tensor<1x16x2x2xf32>) -> (tensor<1x24x8x8xf32>, tensor<1x16x17x17xf32>, tensor<1x16x2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<24x16x1x1xf32>
  %w2 = arith.constant dense<1.0> : tensor<16x16x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x8x8xf32>, tensor<24x16x1x1xf32>) outs(%fill : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x17x17xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x17x17xf32>) -> tensor<1x16x17x17xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x2, %w2 : tensor<1x16x17x17xf32>, tensor<16x16x1x1xf32>) outs(%fill2 : tensor<1x16x17x17xf32>) -> tensor<1x16x17x17xf32>
  %e3 = tensor.empty() : tensor<1x16x2x2xf32>
  %fill3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %y3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x3, %w2 : tensor<1x16x2x2xf32>, tensor<16x16x1x1xf32>) outs(%fill3 : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  return %y, %y2, %y3 : tensor<1x24x8x8xf32>, tensor<1x16x17x17xf32>, tensor<1x16x2x2xf32>
}

// A Concat of a convolution's result and an input along the channels: the
// blocked tensors concatenated, one unpack after.
// CHECK-LABEL: func.func @concat
// CHECK: %[[C:.*]] = linalg.generic {{.*}} attrs = {onnx.cpu.blocked_conv}
// CHECK: %[[P:.*]] = linalg.pack %arg1 inner_dims_pos = [1] inner_tiles = [16]
// CHECK: %[[CAT:.*]] = tensor.concat dim(1) %[[C]], %[[P]] : (tensor<1x1x8x8x16xf32>, tensor<1x2x8x8x16xf32>) -> tensor<1x3x8x8x16xf32>
// CHECK: linalg.unpack %[[CAT]] {{.*}} -> tensor<1x48x8x8xf32>
func.func @concat(%x: tensor<1x16x8x8xf32>, %z: tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32> {
  %w = arith.constant dense<1.0> : tensor<16x16x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) outs(%fill : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = tensor.concat dim(1) %y, %z : (tensor<1x16x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x48x8x8xf32>
  return %c : tensor<1x48x8x8xf32>
}

// An elementwise op with a result of another type (a comparison's i1) reads
// the unpacked result: only f32 ops take the layout.
// CHECK-LABEL: func.func @compare
// CHECK: %[[Y:.*]] = linalg.unpack {{.*}} -> tensor<1x16x8x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<1x16x8x8xf32>) outs(%{{.*}} : tensor<1x16x8x8xi1>)
func.func @compare(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xi1> {
  %w = arith.constant dense<1.0> : tensor<16x16x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) outs(%fill : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %b = tensor.empty() : tensor<1x16x8x8xi1>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x16x8x8xf32>) outs(%b : tensor<1x16x8x8xi1>) {
  ^bb0(%in: f32, %out: i1):
    %p = arith.cmpf ogt, %in, %zero : f32
    linalg.yield %p : i1
  } -> tensor<1x16x8x8xi1>
  return %c : tensor<1x16x8x8xi1>
}
