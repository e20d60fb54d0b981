// Values of Cast after onnx-lower-to-llvm, run with mlir-runner: float8
// (saturated and not), E8M0, f4E2M1, bf16/f16, float to a narrow integer
// (NaN and out of range defined), 4-bit integers. Each cast is followed by
// a cast back to f32 so that the values print.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<10xf32>)
    -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) {
  %a = onnx.Cast(%x) {to = 17 : i64} : (tensor<10xf32>) -> tensor<10xf8E4M3FN>
  %a1 = onnx.Cast(%a) {to = 1 : i64} : (tensor<10xf8E4M3FN>) -> tensor<10xf32>
  %b = onnx.Cast(%x) {to = 19 : i64, saturate = 0 : i64} : (tensor<10xf32>) -> tensor<10xf8E5M2>
  %b1 = onnx.Cast(%b) {to = 1 : i64} : (tensor<10xf8E5M2>) -> tensor<10xf32>
  %c = onnx.Cast(%x) {to = 18 : i64} : (tensor<10xf32>) -> tensor<10xf8E4M3FNUZ>
  %c1 = onnx.Cast(%c) {to = 1 : i64} : (tensor<10xf8E4M3FNUZ>) -> tensor<10xf32>
  %d = onnx.Cast(%x) {to = 24 : i64} : (tensor<10xf32>) -> tensor<10xf8E8M0FNU>
  %d1 = onnx.Cast(%d) {to = 1 : i64} : (tensor<10xf8E8M0FNU>) -> tensor<10xf32>
  %e = onnx.Cast(%x) {to = 23 : i64} : (tensor<10xf32>) -> tensor<10xf4E2M1FN>
  %e1 = onnx.Cast(%e) {to = 1 : i64} : (tensor<10xf4E2M1FN>) -> tensor<10xf32>
  %f = onnx.Cast(%x) {to = 3 : i64} : (tensor<10xf32>) -> tensor<10xi8>
  %f1 = onnx.Cast(%f) {to = 1 : i64} : (tensor<10xi8>) -> tensor<10xf32>
  %g = onnx.Cast(%x) {to = 16 : i64} : (tensor<10xf32>) -> tensor<10xbf16>
  %g1 = onnx.Cast(%g) {to = 11 : i64} : (tensor<10xbf16>) -> tensor<10xf64>
  %g2 = onnx.Cast(%g1) {to = 1 : i64} : (tensor<10xf64>) -> tensor<10xf32>
  %h = onnx.Cast(%x) {to = 22 : i64} : (tensor<10xf32>) -> tensor<10xi4>
  %h1 = onnx.Cast(%h) {to = 10 : i64} : (tensor<10xi4>) -> tensor<10xf16>
  %h2 = onnx.Cast(%h1) {to = 1 : i64} : (tensor<10xf16>) -> tensor<10xf32>
  %i = onnx.Cast(%x) {to = 4 : i64} : (tensor<10xf32>) -> tensor<10xui16>
  %i1 = onnx.Cast(%i) {to = 9 : i64} : (tensor<10xui16>) -> tensor<10xi1>
  %i2 = onnx.Cast(%i1) {to = 1 : i64} : (tensor<10xi1>) -> tensor<10xf32>
  return %a1, %b1, %c1, %d1, %e1, %f1, %g2, %h2, %i2 : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @pf(%t: tensor<10xf32>) {
  %m = bufferization.to_buffer %t : tensor<10xf32> to memref<10xf32>
  %u = memref.cast %m : memref<10xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[0.48, 1.0e6, 1.0e-7, 0x7FC00000, 0x7F800000, 0xFF800000, -1.0e-7, -1.0e6, 3.5, 17.0]> : tensor<10xf32>
  %r:9 = call @graph(%x) : (tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  // E4M3FN, saturated: 0.48 -> 0.46875, 17 -> 16 (ties to even).
  // CHECK: [0.46875,  448,  0,  nan,  448,  -448,  -0,  -448,  3.5,  16]
  call @pf(%r#0) : (tensor<10xf32>) -> ()
  // E5M2 without saturation: Inf beyond the range.
  // CHECK: [0.5,  inf,  0,  nan,  inf,  -inf,  -0,  -inf,  3.5,  16]
  call @pf(%r#1) : (tensor<10xf32>) -> ()
  // E4M3FNUZ: no -0.
  // CHECK: [0.46875,  240,  0,  nan,  240,  -240,  0,  -240,  3.5,  16]
  call @pf(%r#2) : (tensor<10xf32>) -> ()
  // E8M0, rounding up, saturated; the sign is ignored.
  // CHECK: [0.5,  1.04858e+06,  1.19209e-07,  nan,  1.70141e+38,  1.70141e+38,  1.19209e-07,  1.04858e+06,  4,  32]
  call @pf(%r#3) : (tensor<10xf32>) -> ()
  // f4E2M1FN: saturates at 6, NaN is -0.
  // CHECK: [0.5,  6,  0,  -0,  6,  -6,  -0,  -6,  4,  6]
  call @pf(%r#4) : (tensor<10xf32>) -> ()
  // int8: truncation, then the low 8 bits; NaN and Inf give 0.
  // CHECK: [0,  64,  0,  0,  0,  0,  0,  -64,  3,  17]
  call @pf(%r#5) : (tensor<10xf32>) -> ()
  // bf16.
  // CHECK: [0.480469,  999424,  1.00117e-07,  nan,  inf,  -inf,  -1.00117e-07,  -999424,  3.5,  17]
  call @pf(%r#6) : (tensor<10xf32>) -> ()
  // int4 wraps: 1e6 = 0xF4240 -> 0, 17 -> 1.
  // CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  3,  1]
  call @pf(%r#7) : (tensor<10xf32>) -> ()
  // uint16 then bool.
  // CHECK: [0,  1,  0,  0,  0,  0,  0,  1,  1,  1]
  call @pf(%r#8) : (tensor<10xf32>) -> ()
  return
}
