// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the data movement operators: constant shape-like inputs are
// read, dims the op keeps keep their static size or stay unknown.

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<*xf32>, tensor<*xi64>, tensor<*x!onnx.string>, tensor<*xi32>) {
  // CHECK: onnx.Constant() {value = dense<{{.*}}> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = onnx.Constant() {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<*xf32>
  // CHECK: onnx.Constant() {value_ints = array<i64: 1, 2, 3>} : () -> tensor<3xi64>
  %1 = onnx.Constant() {value_ints = array<i64: 1, 2, 3>} : () -> tensor<*xi64>
  // CHECK: onnx.Constant() {value_string = "a"} : () -> tensor<!onnx.string>
  %2 = onnx.Constant() {value_string = "a"} : () -> tensor<*x!onnx.string>
  // CHECK: onnx.ConstantOfShape(%{{.*}}) {value = dense<0> : tensor<1xi32>} : (tensor<3xi64>) -> tensor<1x2x3xi32>
  %3 = onnx.ConstantOfShape(%1) {value = dense<0> : tensor<1xi32>} : (tensor<*xi64>) -> tensor<*xi32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xi64>, tensor<*x!onnx.string>, tensor<*xi32>
}

// CHECK-LABEL: func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %y: tensor<?x3x4xf32>, %s: tensor<3xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %c = onnx.Constant() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Reshape(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  %0 = onnx.Reshape(%x, %c) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.Reshape(%{{.*}}, %{{.*}}) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = onnx.Reshape(%y, %c) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // A shape that is not constant: its length gives the rank.
  // CHECK: onnx.Reshape(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %2 = onnx.Reshape(%x, %s) : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<*xf32>
  // CHECK: onnx.Flatten(%{{.*}}) {axis = 2 : i64} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  %3 = onnx.Flatten(%y) {axis = 2 : i64} : (tensor<?x3x4xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @shape_ops
func.func @shape_ops(%x: tensor<?x3x1xf32>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Shape(%{{.*}}) {start = 1 : i64} : (tensor<?x3x1xf32>) -> tensor<2xi64>
  %0 = onnx.Shape(%x) {start = 1 : i64} : (tensor<?x3x1xf32>) -> tensor<*xi64>
  // CHECK: onnx.Size(%{{.*}}) : (tensor<?x3x1xf32>) -> tensor<i64>
  %1 = onnx.Size(%x) : (tensor<?x3x1xf32>) -> tensor<*xi64>
  // CHECK: onnx.Transpose(%{{.*}}) : (tensor<?x3x1xf32>) -> tensor<1x3x?xf32>
  %2 = onnx.Transpose(%x) : (tensor<?x3x1xf32>) -> tensor<*xf32>
  %axes = onnx.Constant() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.Squeeze(%{{.*}}, %{{.*}}) : (tensor<?x3x1xf32>, tensor<1xi64>) -> tensor<?x3xf32>
  %3 = onnx.Squeeze(%x, %axes) : (tensor<?x3x1xf32>, tensor<1xi64>) -> tensor<*xf32>
  // CHECK: onnx.Unsqueeze(%{{.*}}, %{{.*}}) : (tensor<?x3x1xf32>, tensor<1xi64>) -> tensor<?x3x1x1xf32>
  %4 = onnx.Unsqueeze(%x, %axes) : (tensor<?x3x1xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4 : tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @concat_split
func.func @concat_split(%a: tensor<2x?xf32>, %b: tensor<3x4xf32>, %c: tensor<7x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Concat(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<2x?xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  %0 = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2x?xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  // The last chunk is the smaller one.
  // CHECK: onnx.Split(%{{.*}}) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<7x4xf32>) -> (tensor<4x4xf32>, tensor<3x4xf32>)
  %1:2 = onnx.Split(%c) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<7x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %s = onnx.Constant() {value = dense<[1, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Split(%{{.*}}, %{{.*}}) : (tensor<7x4xf32>, tensor<2xi64>) -> (tensor<1x4xf32>, tensor<6x4xf32>)
  %2:2 = onnx.Split(%c, %s) : (tensor<7x4xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0, %1#0, %2#0, %2#1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @slice_gather
func.func @slice_gather(%x: tensor<10x?x6xf32>, %i: tensor<2x3xi64>, %s: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %starts = onnx.Constant() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = onnx.Constant() {value = dense<[1000, -100]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = onnx.Constant() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = onnx.Constant() {value = dense<[3, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Slice({{.*}}) : (tensor<10x?x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x?x3xf32>
  %0 = onnx.Slice(%x, %starts, %ends, %axes, %steps) : (tensor<10x?x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  // Starts that are not constant: the sliced axes are unknown.
  // CHECK: onnx.Slice({{.*}}) : (tensor<10x?x6xf32>, tensor<1xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x?xf32>
  %1 = onnx.Slice(%x, %s, %ends, %axes) : (tensor<10x?x6xf32>, tensor<1xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.Gather(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<10x?x6xf32>, tensor<2x3xi64>) -> tensor<10x2x3x6xf32>
  %2 = onnx.Gather(%x, %i) {axis = 1 : i64} : (tensor<10x?x6xf32>, tensor<2x3xi64>) -> tensor<*xf32>
  // CHECK: onnx.GatherND(%{{.*}}, %{{.*}}) : (tensor<10x?x6xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  %3 = onnx.GatherND(%x, %i) : (tensor<10x?x6xf32>, tensor<2x3xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @pad_expand_tile
func.func @pad_expand_tile(%x: tensor<3x1xf32>, %p: tensor<4xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %pads = onnx.Constant() {value = dense<[1, 0, 2, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  // CHECK: onnx.Pad(%{{.*}}, %{{.*}}) : (tensor<3x1xf32>, tensor<4xi64>) -> tensor<6x4xf32>
  %0 = onnx.Pad(%x, %pads) : (tensor<3x1xf32>, tensor<4xi64>) -> tensor<*xf32>
  // CHECK: onnx.Pad(%{{.*}}, %{{.*}}) : (tensor<3x1xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %1 = onnx.Pad(%x, %p) : (tensor<3x1xf32>, tensor<4xi64>) -> tensor<*xf32>
  %shape = onnx.Constant() {value = dense<[2, 1, 5]> : tensor<3xi64>} : () -> tensor<3xi64>
  // CHECK: onnx.Expand(%{{.*}}, %{{.*}}) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x5xf32>
  %2 = onnx.Expand(%x, %shape) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<*xf32>
  %reps = onnx.Constant() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Tile(%{{.*}}, %{{.*}}) : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<6x3xf32>
  %3 = onnx.Tile(%x, %reps) : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Outputs whose size depends on the data have unknown dims.
// CHECK-LABEL: func @data_dependent
func.func @data_dependent(%x: tensor<3x4xf32>, %c: tensor<3xi1>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.NonZero(%{{.*}}) : (tensor<3x4xf32>) -> tensor<2x?xi64>
  %0 = onnx.NonZero(%x) : (tensor<3x4xf32>) -> tensor<*xi64>
  // CHECK: onnx.Compress(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi1>) -> tensor<?x4xf32>
  %1 = onnx.Compress(%x, %c) {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi1>) -> tensor<*xf32>
  %k = onnx.Constant() {value = dense<[true, false, true]> : tensor<3xi1>} : () -> tensor<3xi1>
  // CHECK: onnx.Compress(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi1>) -> tensor<2x4xf32>
  %2 = onnx.Compress(%x, %k) {axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi1>) -> tensor<*xf32>
  // CHECK: onnx.Unique(%{{.*}}) {axis = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x?xf32>
  %3 = onnx.Unique(%x) {axis = 1 : i64} : (tensor<3x4xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Dims that an op moves keep their symbolic names (dim_params).
// CHECK-LABEL: func @symbols
func.func @symbols(%x: tensor<?x3xf32> {onnx.dim_params = ["N", ""]}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Transpose(%{{.*}}) {onnx.dim_params = {{\[\[}}"", "N"]]} : (tensor<?x3xf32>) -> tensor<3x?xf32>
  %0 = onnx.Transpose(%x) : (tensor<?x3xf32>) -> tensor<*xf32>
  %axes = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.Unsqueeze(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"", "", "N"]]} : (tensor<3x?xf32>, tensor<1xi64>) -> tensor<1x3x?xf32>
  %1 = onnx.Unsqueeze(%0, %axes) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %s = onnx.Constant() {value = dense<[0, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.Reshape(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %2 = onnx.Reshape(%x, %s) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @range
func.func @range(%l: tensor<i32>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xi32>) {
  %s = onnx.Constant() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %e = onnx.Constant() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %d = onnx.Constant() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
  // CHECK: onnx.Range(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2xi32>
  %0 = onnx.Range(%s, %e, %d) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %fs = onnx.Constant() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %fl = onnx.Constant() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
  %fd = onnx.Constant() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  // CHECK: onnx.Range(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %1 = onnx.Range(%fs, %fl, %fd) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  // CHECK: onnx.Range(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %2 = onnx.Range(%s, %l, %d) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  return %0, %1, %2 : tensor<*xi32>, tensor<*xf32>, tensor<*xi32>
}

// CHECK-LABEL: func @dropout
func.func @dropout(%x: tensor<3x4xf32>) -> (tensor<*xf32>, tensor<*xi1>) {
  // CHECK: onnx.Dropout(%{{.*}}) : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xi1>)
  %0:2 = onnx.Dropout(%x) : (tensor<3x4xf32>) -> (tensor<*xf32>, tensor<*xi1>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xi1>
}

// CHECK-LABEL: func @trilu_eyelike
func.func @trilu_eyelike(%x: tensor<2x3x3xf32>, %m: tensor<4x5xi32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Trilu(%{{.*}}) : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %0 = onnx.Trilu(%x) : (tensor<2x3x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.EyeLike(%{{.*}}) {dtype = 1 : i64} : (tensor<4x5xi32>) -> tensor<4x5xf32>
  %1 = onnx.EyeLike(%m) {dtype = 1 : i64} : (tensor<4x5xi32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @random
func.func @random(%x: tensor<2x3xf32>) -> (tensor<*xf64>, tensor<*xf16>, tensor<*xi64>) {
  // CHECK: onnx.RandomNormal() {dtype = 11 : i64, shape = array<i64: 2, 5>} : () -> tensor<2x5xf64>
  %0 = onnx.RandomNormal() {dtype = 11 : i64, shape = array<i64: 2, 5>} : () -> tensor<*xf64>
  // CHECK: onnx.RandomUniformLike(%{{.*}}) {dtype = 10 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %1 = onnx.RandomUniformLike(%x) {dtype = 10 : i64} : (tensor<2x3xf32>) -> tensor<*xf16>
  // CHECK: onnx.Multinomial(%{{.*}}) {dtype = 7 : i64, sample_size = 4 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  %2 = onnx.Multinomial(%x) {dtype = 7 : i64, sample_size = 4 : i64} : (tensor<2x3xf32>) -> tensor<*xi64>
  return %0, %1, %2 : tensor<*xf64>, tensor<*xf16>, tensor<*xi64>
}
