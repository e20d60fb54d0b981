// onnx-cpu-tile-and-vectorize on the ops of onnx-cpu-blocked-layout.
// RUN: onnx-opt %s --onnx-cpu-blocked-layout=target-cpu=skylake-avx512 --onnx-cpu-tile-and-vectorize=target-cpu=skylake-avx512 | FileCheck %s
// RUN: onnx-opt %s --onnx-cpu-blocked-layout=target-cpu=skylake-avx512 --onnx-cpu-tile-and-vectorize="target-cpu=skylake-avx512 num-threads=2" | FileCheck %s --check-prefix=THREADS

// A 1x1 convolution and its activation: register tiles of a row of 14
// positions times 16 filters, the 32 channels' steps with the accumulators
// in registers (the loop carries the vector), each step one outer product
// of 14 image values (one channel at each position, read one by one) and
// a vector of 16 filter weights; the activation on the tile before it is
// stored. The image is packed (16 x 16 transpositions) and the result
// unpacked around it. Nothing is left as a loop of scalars.
// CHECK-LABEL: func.func @conv_relu
// CHECK: vector.transpose
// CHECK: scf.for %{{.*}} = %c0 to %c14 step %c1
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<14x16xf32>)
// CHECK: vector.from_elements {{.*}} : vector<14xf32>
// CHECK: vector.outerproduct {{.*}} : vector<14xf32>, vector<16xf32>
// CHECK: arith.maximumf {{.*}} : vector<14x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<14x16xf32>, tensor<1x1x1x14x16xf32>
// CHECK-NOT: linalg.
// CHECK: return
// Two threads take 7 rows each.
// THREADS-LABEL: func.func @conv_relu
// THREADS: scf.forall (%{{.*}}) = (0) to (14) step (7)
// THREADS: vector.outerproduct
func.func @conv_relu(%x: tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32> {
  %w = arith.constant dense<0.5> : tensor<32x32x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x14x14xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x14x14xf32>, tensor<32x32x1x1xf32>) outs(%fill : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x32x14x14xf32>) outs(%e : tensor<1x32x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x14x14xf32>
  return %r : tensor<1x32x14x14xf32>
}

// A depthwise convolution with strides of 2: tiles of a row of 8 positions
// times 16 channels, the 3x3 taps one at a time, each the window's 8
// positions 2 apart (a strided slice of rows of 16 channels) times the
// tap's 16 weights, in one FMA.
// CHECK-LABEL: func.func @depthwise_s2
// CHECK: scf.for {{.*}} -> (vector<8x16xf32>)
// CHECK: scf.for {{.*}} -> (vector<8x16xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 1, 1, 8, 16] [1, 1, 1, 2, 1]
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x1x8x16xf32>, vector<8x16xf32>
// CHECK: vector.broadcast {{.*}} : vector<16xf32> to vector<8x16xf32>
// CHECK: vector.fma {{.*}} : vector<8x16xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @depthwise_s2(%x: tensor<1x32x17x17xf32>) -> tensor<1x32x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<32x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x32x17x17xf32>, tensor<32x3x3xf32>) outs(%fill : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %dw : tensor<1x32x8x8xf32>
}
