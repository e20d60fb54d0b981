// RUN: onnx-opt %s --onnx-fuse-elementwise | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A producer that computes (a division) is not fused into a consumer with a
// loop (n) that does not index it: fused, it would divide once per n.
// CHECK-LABEL: func.func @no_recompute
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK-NOT: arith.divf
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @no_recompute(%s: tensor<8x16xf32>, %d: tensor<8x16xf32>, %v: tensor<16x32xf32>, %acc: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %p = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %d : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<8x16xf32>, tensor<16x32xf32>) outs(%acc : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// A producer that only moves data (a broadcast) is fused all the same, and
// so is one whose every element the consumer reads once.
// CHECK-LABEL: func.func @fused
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
func.func @fused(%x: tensor<8xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.negf %a : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b, %n : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
