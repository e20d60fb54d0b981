// A project outside this one finds the installed dialect with
// find_package(OnnxDialect), builds a tool against it and runs it. Not in
// the checked build: its libraries call the sanitizers' runtimes, which the
// downstream tool (built without sanitizers) does not link.
// UNSUPPORTED: sanitized
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cmake --install %obj_root --prefix %t/install > %t/install.log
// RUN: %cmake -G Ninja -S %src_root/examples/downstream -B %t/build -DCMAKE_BUILD_TYPE=Release -DOnnxDialect_DIR=%t/install/lib/cmake/OnnxDialect -DMLIR_DIR=%mlir_dir > %t/configure.log
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/downstream-opt %s | FileCheck %s
// The same from C, through the MLIR C API (examples/downstream/downstream-c.c):
// RUN: %t/build/downstream-c %src_root/examples/models/tiny-cnn.onnx | FileCheck %s --check-prefix=CAPI
// RUN: not %t/build/downstream-c %s 2>&1 | FileCheck %s --check-prefix=CAPI-ERR
// RUN: not %t/build/downstream-c %src_root/examples/models/tiny-cnn.onnx "builtin.module(no-such-pass)" 2>&1 | FileCheck %s --check-prefix=CAPI-PASS

// CAPI: onnx.Conv_v11
// CAPI-SAME: -> tensor<?x8x26x26xf32>
// CAPI: onnx.Softmax
// CAPI: exported: {{[0-9]+}} bytes
// CAPI-ERR: error: {{.*}}find-package.mlir{{.*}}not a valid ONNX model
// CAPI-PASS: 'no-such-pass' does not refer to a registered pass

// CHECK: schema onnx.Relu = ai.onnx.Relu-14
// CHECK: schema onnx.Clip_v11 = ai.onnx.Clip-11
// CHECK: schema onnx.ml.Normalizer = ai.onnx.ml.Normalizer-1
// CHECK: func.func @f
func.func @f(%x: tensor<2x3xf32>, %lo: tensor<f32>) -> tensor<2x3xf32> {
  %0 = onnx.Relu(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Clip_v11(%0, %lo) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = onnx.ml.Normalizer(%1) {norm = "L2"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
