// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// gated_delta with GQA (4 query heads on 2 kv heads, d_k = d_v = 2): an
// scf.for over the tokens carrying the state and the output; per token the
// decay (exp), u = S^T k (a reduction), the delta update, and the output
// reading kv head hq floordiv 2.
// CHECK-DAG: #[[QMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d1 * 2 + d3)>
// CHECK-DAG: #[[SGQA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 2, d3, d2)>
// CHECK-LABEL: func.func @gated_delta_gqa
// CHECK: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<?x2x2x2xf32>, tensor<?x?x8xf32>)
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}, 0] [%{{.*}}, 1, 8]
// CHECK: math.exp
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.subf
// CHECK: linalg.generic {indexing_maps = [#[[QMAP]], #[[SGQA]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: tensor.collapse_shape
// CHECK: tensor.insert_slice
// CHECK: scf.yield
func.func @gated_delta_gqa(%q: tensor<?x?x8xf32>, %k: tensor<?x?x4xf32>, %v: tensor<?x?x4xf32>, %g: tensor<?x?x4xf32>, %b: tensor<?x?x2xf32>) -> (tensor<?x?x8xf32>, tensor<?x2x2x2xf32>) {
  %0:2 = onnx.LinearAttention(%q, %k, %v, none, %g, %b) {q_num_heads = 4 : i64, kv_num_heads = 2 : i64} : (tensor<?x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<?x?x2xf32>) -> (tensor<?x?x8xf32>, tensor<?x2x2x2xf32>)
  return %0#0, %0#1 : tensor<?x?x8xf32>, tensor<?x2x2x2xf32>
}

// -----

// linear with a past state in f16: the state is carried in f32 and the
// outputs truncated back.
// CHECK-LABEL: func.func @linear_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: scf.for
// CHECK-NOT: math.exp
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @linear_f16(%q: tensor<1x3x4xf16>, %k: tensor<1x3x4xf16>, %v: tensor<1x3x4xf16>, %s: tensor<1x2x2x2xf16>) -> (tensor<1x3x4xf16>, tensor<1x2x2x2xf16>) {
  %0:2 = onnx.LinearAttention(%q, %k, %v, %s) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x3x4xf16>, tensor<1x3x4xf16>, tensor<1x3x4xf16>, tensor<1x2x2x2xf16>) -> (tensor<1x3x4xf16>, tensor<1x2x2x2xf16>)
  return %0#0, %0#1 : tensor<1x3x4xf16>, tensor<1x2x2x2xf16>
}

// -----

// A past state of open dims is checked against (B, H_kv, d_k, d_v) at run
// time before the cast to the static state shape.
// CHECK-LABEL: func.func @open_past
// CHECK: cf.assert %{{.*}}, "onnx.LinearAttention: past_state must be (B, H_kv, d_k, d_v)"
// CHECK: tensor.cast %arg3 : tensor<?x?x?x?xf32> to tensor<?x2x2x2xf32>
func.func @open_past(%q: tensor<1x3x4xf32>, %k: tensor<1x3x4xf32>, %v: tensor<1x3x4xf32>, %s: tensor<?x?x?x?xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x2x2xf32>) {
  %0:2 = onnx.LinearAttention(%q, %k, %v, %s) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<?x?x?x?xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x2x2xf32>)
  return %0#0, %0#1 : tensor<1x3x4xf32>, tensor<1x2x2x2xf32>
}
