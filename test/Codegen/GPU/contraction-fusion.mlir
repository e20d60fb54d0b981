// onnx-gpu-contraction-kernels' fusion: the elementwise op that initializes
// a product's output (prologue) and the one that consumes it right after
// (epilogue) are computed in the product's kernel; the cases where they are
// not.
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tile-m=16 tile-n=8 tile-k=4 thread-m=2 thread-n=2 prefetch=false},canonicalize,cse))' \
// RUN:   | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{fuse=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOFUSE
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{test-on-cpu=true},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=CPU

// The fill and the bias + Relu: each thread adds its sums to the fill's
// zero, then the bias, and stores the Relu into the epilogue's buffer; the
// product's buffer is neither filled, read nor written (canonicalize then
// removes it).
// CHECK-LABEL: func.func @bias_relu
// CHECK-SAME:    %[[BIAS:[a-z0-9]+]]: memref<16xf32>
// CHECK:         %[[D:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]]#0, %cst
// CHECK-NEXT:    %[[B:.*]] = memref.load %[[BIAS]][%[[N:.*]]] : memref<16xf32>
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[S]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = arith.maximumf %[[T]], %cst
// CHECK-NEXT:    memref.store %[[R]], %[[D]][%{{.*}}, %[[N]]] : memref<32x16xf32>
// CHECK-COUNT-3: memref.store %{{.*}}, %[[D]]
// CHECK-NOT:     memref.store
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return %[[D]]
// test-on-cpu: the same computation as host loops (what
// ONNXD_TEST_GPU_MAPPING_ON_CPU runs).
// CPU-LABEL: func.func @bias_relu
// CPU-SAME:    %[[A:[a-z0-9]+]]: memref<32x8xf32>, %[[B:[a-z0-9]+]]: memref<8x16xf32>, %[[BIAS:[a-z0-9]+]]: memref<16xf32>
// CPU:         %[[D:.*]] = memref.alloc() : memref<32x16xf32>
// CPU-NOT:     memref.alloc
// CPU-NEXT:    scf.for %[[I:.*]] = %c0 to %c32
// CPU-NEXT:      scf.for %[[J:.*]] = %c0 to %c16
// CPU-NEXT:        %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c8 step %c1 iter_args(%[[ACC:.*]] = %cst)
// CPU-NEXT:          memref.load %[[A]][%[[I]], %[[K]]]
// CPU-NEXT:          memref.load %[[B]][%[[K]], %[[J]]]
// CPU-NEXT:          arith.mulf
// CPU-NEXT:          arith.addf %[[ACC]]
// CPU-NEXT:          scf.yield
// CPU-NEXT:        }
// CPU-NEXT:      %[[S:.*]] = arith.addf %[[SUM]], %cst
// CPU-NEXT:      %[[BV:.*]] = memref.load %[[BIAS]][%[[J]]]
// CPU-NEXT:      %[[T:.*]] = arith.addf %[[S]], %[[BV]]
// CPU-NEXT:      %[[R:.*]] = arith.maximumf %[[T]], %cst
// CPU-NEXT:      memref.store %[[R]], %[[D]][%[[I]], %[[J]]]
// CPU-NOT:     gpu.launch
// CPU-NOT:     linalg.
// CPU:         return %[[D]]
// NOFUSE-LABEL: func.func @bias_relu
// NOFUSE:       linalg.fill
// NOFUSE:       gpu.launch
// NOFUSE:         gpu.terminator
// NOFUSE-NEXT:  }
// NOFUSE-NEXT:  linalg.generic
#bias = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @bias_relu(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %bias: memref<16xf32>) -> memref<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  %d = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<32x16xf32>, memref<16xf32>) outs(%d : memref<32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<32x16xf32>
  return %d : memref<32x16xf32>
}
// -----

// In place, and returned: the epilogue's store is the only one.
// CHECK-LABEL: func.func @in_place
// CHECK:         %[[C:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]]#0, %cst
// CHECK-NEXT:    %[[R:.*]] = arith.maximumf %[[S]], %cst
// CHECK-NEXT:    memref.store %[[R]], %[[C]]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[C]]
// CHECK-NOT:     memref.store
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
#id = affine_map<(i, j) -> (i, j)>
func.func @in_place(%a: memref<32x8xf32>, %b: memref<8x16xf32>) -> memref<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x16xf32>) outs(%c : memref<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return %c : memref<32x16xf32>
}
// -----

// A broadcast bias as the prologue; the product's output is returned, so
// the sums are stored as well as the epilogue's results, which it reads
// through a transposed map (its loop 1 is the product's row) and converts
// to f16.
// CHECK-LABEL: func.func @stored_too
// CHECK-SAME:    %[[BIAS:[a-z0-9]+]]: memref<32xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         %[[D:.*]] = memref.alloc() : memref<16x32xf16>
// CHECK-NOT:     linalg.
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         scf.if
// CHECK:         scf.if
// CHECK-NEXT:    %[[B:.*]] = memref.load %[[BIAS]][%[[M:.*]]] : memref<32xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[B]], %[[ACC]]#0
// CHECK-NEXT:    memref.store %[[S]], %[[C]][%[[M]], %[[N:.*]]] : memref<32x16xf32>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[M]] : index to i32
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %[[I]]
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[S]], %[[F]]
// CHECK-NEXT:    %[[H:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:    memref.store %[[H]], %[[D]][%[[N]], %[[M]]] : memref<16x32xf16>
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return %[[C]], %[[D]]
#row = affine_map<(i, j) -> (i)>
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @stored_too(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %bias: memref<32xf32>) -> (memref<32x16xf32>, memref<16x32xf16>) {
  %c = memref.alloc() : memref<32x16xf32>
  %d = memref.alloc() : memref<16x32xf16>
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<32xf32>) outs(%c : memref<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x16xf32>) outs(%d : memref<16x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %x, %fi : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  return %c, %d : memref<32x16xf32>, memref<16x32xf16>
}
// -----

// Dynamic sizes: where the grid does not fit, the three ops run as before.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[C:.*]] = memref.alloc(
// CHECK:         %[[D:.*]] = memref.alloc(
// CHECK:         scf.if
// CHECK:         gpu.launch
// CHECK:         } else {
// CHECK-NEXT:      linalg.fill {{.*}} outs(%[[C]]
// CHECK-NEXT:      linalg.matmul {onnx.gpu_fallback} {{.*}} outs(%[[C]]
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[C]], %{{.*}} outs(%[[D]]
// CHECK:         }
// CHECK-NOT:     linalg.
// CHECK:         return %[[D]]
#bias = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %bias: memref<?xf32>, %m: index, %n: index) -> memref<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  %d = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<?x?xf32>, memref<?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<?x?xf32>
  return %d : memref<?x?xf32>
}
// -----

// An epilogue that reads a reshape of the output (flat, as an attention
// reads its projection by heads): fused, its element at the output
// element's row-major offset (row * 16 + column).
// CHECK-LABEL: func.func @reshaped_view
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch
// CHECK:           arith.addf %{{.*}}#0, %cst
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %{{.*}}, %c16
// CHECK-NEXT:      %[[FLAT:.*]] = arith.addi %[[ROW]], %{{.*}}
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf
// CHECK-NEXT:      memref.store %[[R]], %{{.*}}[%[[FLAT]]] : memref<512xf32>
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return
#id = affine_map<(i, j) -> (i, j)>
func.func @reshaped_view(%a: memref<32x8xf32>, %b: memref<8x16xf32>) -> memref<512xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  %d = memref.alloc() : memref<512xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  %flat = memref.collapse_shape %c [[0, 1]] : memref<32x16xf32> into memref<512xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%flat : memref<512xf32>) outs(%d : memref<512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return %d : memref<512xf32>
}
// -----

// Not fused: an epilogue that reads another view of the output (a part of
// it; the prologue is fused).
// CHECK-LABEL: func.func @other_view
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.terminator
// CHECK:         linalg.generic {{.*}} ins(%subview
#id = affine_map<(i, j) -> (i, j)>
func.func @other_view(%a: memref<32x8xf32>, %b: memref<8x16xf32>) -> memref<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  %d = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  %half = memref.subview %c[0, 0] [16, 16] [1, 1] : memref<32x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%half : memref<16x16xf32, strided<[16, 1]>>) outs(%d : memref<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return %d : memref<16x16xf32>
}
// -----

// Not fused: an epilogue that writes a function argument.
// CHECK-LABEL: func.func @writes_argument
// CHECK:         gpu.terminator
// CHECK:         linalg.generic {{.*}} outs(%arg2
#id = affine_map<(i, j) -> (i, j)>
func.func @writes_argument(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %d: memref<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x16xf32>) outs(%d : memref<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
// -----

// Not fused: an epilogue that writes the buffer the product reads.
// CHECK-LABEL: func.func @writes_operand
// CHECK:         %[[X:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:         linalg.copy
// CHECK:         gpu.terminator
// CHECK:         linalg.generic {{.*}} outs(%[[X]]
#id = affine_map<(i, j) -> (i, j)>
func.func @writes_operand(%a: memref<16x16xf32>, %b: memref<16x16xf32>) -> memref<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  linalg.copy ins(%a : memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%x, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%x : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  return %x : memref<16x16xf32>
}
// -----

// An epilogue that writes the buffer the product reads (bufferization
// reused it: an f16 model rounds an attention's context into the buffer of
// its V, then transposes it) is fused where nothing but the next epilogue
// reads what it writes there: its values stay in registers, the kernel
// never stores into the operand, and the op after the transpose overwrites
// the whole buffer (the next layer's reuse) before anything reads it.
// CHECK-LABEL: func.func @writes_operand_read_next
// CHECK:         %[[X:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:         linalg.copy ins(%arg0 {{.*}} outs(%[[X]] :
// CHECK:         gpu.launch
// CHECK-NOT:       memref.store {{.*}}, %[[X]][
// CHECK:           %[[R:.*]] = arith.maximumf
// CHECK-NEXT:      memref.store %[[R]], %[[Y]][
// CHECK-NOT:       memref.store {{.*}}, %[[X]][
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.copy ins(%arg1 {{.*}} outs(%[[X]] :
#id = affine_map<(i, j) -> (i, j)>
func.func @writes_operand_read_next(%a: memref<16x16xf32>, %b: memref<16x16xf32>) -> (memref<16x16xf32>, memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  %y = memref.alloc() : memref<16x16xf32>
  linalg.copy ins(%a : memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%x, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%x : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  linalg.transpose ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) permutation = [1, 0]
  linalg.copy ins(%b : memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  memref.dealloc %c : memref<16x16xf32>
  return %x, %y : memref<16x16xf32>, memref<16x16xf32>
}
// -----

// Not fused where an op after the transpose reads that buffer: the
// epilogue's values must be stored there, which other blocks may still be
// reading.
// CHECK-LABEL: func.func @writes_operand_read_after
// CHECK:         %[[X:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:         gpu.terminator
// CHECK:         linalg.generic {{.*}} outs(%[[X]]
// CHECK:         linalg.transpose ins(%[[X]]
#id = affine_map<(i, j) -> (i, j)>
func.func @writes_operand_read_after(%a: memref<16x16xf32>, %b: memref<16x16xf32>) -> (memref<16x16xf32>, memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  %y = memref.alloc() : memref<16x16xf32>
  linalg.copy ins(%a : memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%x, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%x : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  linalg.transpose ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) permutation = [1, 0]
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<16x16xf32>
  return %x, %y : memref<16x16xf32>, memref<16x16xf32>
}
// -----

// No prologue where an op between reads the output: the kernel loads it.
// CHECK-LABEL: func.func @touched_between
// CHECK:         %[[C:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK-NEXT:    linalg.fill {{.*}} outs(%[[C]]
// CHECK-NEXT:    linalg.copy ins(%[[C]]
// CHECK:         %[[OLD:.*]] = memref.load %[[C]]
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[OLD]]
// CHECK-NEXT:    memref.store %[[S]], %[[C]]
func.func @touched_between(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %e: memref<32x16xf32>) -> memref<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.copy ins(%c : memref<32x16xf32>) outs(%e : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  return %c : memref<32x16xf32>
}
// -----

// An epilogue that another product's output would take as its prologue is
// computed by the first kernel only: the second loads its output; the first
// stores its sums, which the second reads.
// CHECK-LABEL: func.func @claimed
// CHECK:         %[[C:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         %[[E:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]]#0, %cst
// CHECK-NEXT:    memref.store %[[S]], %[[C]]
// CHECK-NEXT:    %[[R:.*]] = arith.maximumf %[[S]], %cst
// CHECK-NEXT:    memref.store %[[R]], %[[E]]
// CHECK:         gpu.terminator
// CHECK:         gpu.launch
// CHECK:         %[[OLD:.*]] = memref.load %[[E]]
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
#id = affine_map<(i, j) -> (i, j)>
func.func @claimed(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %b2: memref<16x16xf32>) -> memref<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  %e = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x16xf32>) outs(%e : memref<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%c, %b2 : memref<32x16xf32>, memref<16x16xf32>) outs(%e : memref<32x16xf32>)
  return %e : memref<32x16xf32>
}

// -----

// A residual sum in place over its other input: each thread reads and
// writes the same element of it.
// CHECK-LABEL: func.func @residual_in_place
// CHECK:         %[[R:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         linalg.copy
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]]#0, %cst
// CHECK-NEXT:    %[[OLD:.*]] = memref.load %[[R]][%[[M:.*]], %[[N:.*]]]
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[S]], %[[OLD]]
// CHECK-NEXT:    memref.store %[[SUM]], %[[R]][%[[M]], %[[N]]]
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
#id = affine_map<(i, j) -> (i, j)>
func.func @residual_in_place(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %x: memref<32x16xf32>) -> memref<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<32x16xf32>
  linalg.copy ins(%x : memref<32x16xf32>) outs(%r : memref<32x16xf32>)
  %c = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<32x16xf32>, memref<32x16xf32>) outs(%r : memref<32x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<32x16xf32>
  return %r : memref<32x16xf32>
}

// -----

// Not fused: an epilogue that reads the buffer it writes at other elements
// (transposed).
// CHECK-LABEL: func.func @reads_written_elsewhere
// CHECK:         gpu.terminator
// CHECK:         linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @reads_written_elsewhere(%a: memref<16x8xf32>, %b: memref<8x16xf32>, %x: memref<16x16xf32>) -> memref<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<16x16xf32>
  linalg.copy ins(%x : memref<16x16xf32>) outs(%r : memref<16x16xf32>)
  %c = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<16x16xf32>, memref<16x16xf32>) outs(%r : memref<16x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<16x16xf32>
  return %r : memref<16x16xf32>
}

// -----

// A chain: the bias, then the transpose of the biased product (a head
// split): both computed in the kernel. The biased product is read again
// after the transpose, so it is stored; the sums are not.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    %[[BIAS:[a-z0-9]+]]: memref<16xf32>
// CHECK:         %[[X:.*]] = memref.alloc() : memref<32x16xf32>
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<16x32xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[ACC:.*]]:4 = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]]#0, %cst
// CHECK-NEXT:    %[[B:.*]] = memref.load %[[BIAS]][%[[N:.*]]]
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[S]], %[[B]]
// CHECK-NEXT:    memref.store %[[T]], %[[X]][%[[M:.*]], %[[N]]]
// CHECK-NEXT:    memref.store %[[T]], %[[Y]][%[[N]], %[[M]]]
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return %[[X]], %[[Y]]
#id = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
func.func @chain(%a: memref<32x8xf32>, %b: memref<8x16xf32>, %bias: memref<16xf32>) -> (memref<32x16xf32>, memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x16xf32>
  %x = memref.alloc() : memref<32x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<32x16xf32>)
  linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x16xf32>) outs(%c : memref<32x16xf32>)
  linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<32x16xf32>, memref<16xf32>) outs(%x : memref<32x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  }
  %y = memref.alloc() : memref<16x32xf32>
  linalg.transpose ins(%x : memref<32x16xf32>) outs(%y : memref<16x32xf32>) permutation = [1, 0]
  memref.dealloc %c : memref<32x16xf32>
  return %x, %y : memref<32x16xf32>, memref<16x32xf32>
}
