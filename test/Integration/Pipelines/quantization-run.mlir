// QuantizeLinear to float8 (saturating) and int4 (round half to even,
// clamped), DequantizeLinear back from float8, run with mlir-runner.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<6xf32>, %s: tensor<f32>, %z8: tensor<f8E4M3FN>, %x4: tensor<6xf32>, %s4: tensor<f32>, %z4: tensor<i4>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %q = onnx.QuantizeLinear(%x, %s, %z8) : (tensor<6xf32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<6xf8E4M3FN>
  %qf = onnx.Cast(%q) {to = 1 : i64} : (tensor<6xf8E4M3FN>) -> tensor<6xf32>
  %d = onnx.DequantizeLinear(%q, %s, %z8) : (tensor<6xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<6xf32>
  %q4 = onnx.QuantizeLinear(%x4, %s4, %z4) : (tensor<6xf32>, tensor<f32>, tensor<i4>) -> tensor<6xi4>
  %q4f = onnx.Cast(%q4) {to = 1 : i64} : (tensor<6xi4>) -> tensor<6xf32>
  return %qf, %d, %q4f : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<6xf32>) {
  %m = bufferization.to_buffer %t : tensor<6xf32> to memref<6xf32>
  %u = memref.cast %m : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[0.0, 0.5, 1.0, 100000.0, -100000.0, 3.1]> : tensor<6xf32>
  %s = arith.constant dense<2.0> : tensor<f32>
  %z8 = arith.constant dense<0.0> : tensor<f8E4M3FN>
  %x4 = arith.constant dense<[-20.0, -3.5, -2.5, 0.5, 1.5, 20.0]> : tensor<6xf32>
  %s4 = arith.constant dense<1.0> : tensor<f32>
  %z4 = arith.constant dense<1> : tensor<i4>
  %r:3 = call @graph(%x, %s, %z8, %x4, %s4, %z4) : (tensor<6xf32>, tensor<f32>, tensor<f8E4M3FN>, tensor<6xf32>, tensor<f32>, tensor<i4>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  // x / 2 in E4M3FN: 448 is its largest value (saturate), 1.55 -> 1.5.
  // CHECK: [0,  0.25,  0.5,  448,  -448,  1.5]
  call @print(%r#0) : (tensor<6xf32>) -> ()
  // CHECK: [0,  0.5,  1,  896,  -896,  3]
  call @print(%r#1) : (tensor<6xf32>) -> ()
  // round_half_even(x) + 1 clamped to [-8, 7].
  // CHECK: [-8,  -3,  -1,  1,  3,  7]
  call @print(%r#2) : (tensor<6xf32>) -> ()
  return
}
