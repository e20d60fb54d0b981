// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-translate --export %s --onnx-external-data=%t/model.data --onnx-external-threshold=16 -o %t/model.onnx
// RUN: onnx-translate --import %t/model.onnx --onnx-inline-tensor-limit=1024 | FileCheck %s
// RUN: onnx-translate --export --onnx-text %s --onnx-external-data=%t/m2.data --onnx-external-threshold=16 | FileCheck %s --check-prefix=TEXT
// Tensors at or above the threshold go to an external file beside the model,
// 4 KiB-aligned; the import reads them back.

// CHECK: @big(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<5xf32>)
// CHECK: @small(dense<7> : tensor<1xi32>)
// TEXT: name: "big"
// TEXT: key: "location"
// TEXT-NEXT: value: "m2.data"
// TEXT: key: "offset"
// TEXT-NEXT: value: "0"
// TEXT: key: "length"
// TEXT-NEXT: value: "20"
// TEXT: data_location: EXTERNAL
// TEXT: name: "small"
// TEXT-NOT: EXTERNAL
// TEXT: raw_data
module attributes {onnx.entry = @main, onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 27 : i64}} {
  ml_program.global private @big(dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>) : tensor<5xf32> {onnx.name = "big"}
  ml_program.global private @small(dense<7> : tensor<1xi32>) : tensor<1xi32> {onnx.name = "small"}
  func.func @main() -> (tensor<5xf32> {onnx.name = "big"}) {
    %big = ml_program.global_load_const @big : tensor<5xf32>
    return %big : tensor<5xf32>
  }
}
