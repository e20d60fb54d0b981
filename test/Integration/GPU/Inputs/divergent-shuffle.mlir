// A kernel whose lane 0 skips a shuffle the other lanes of its warp run
// (emulator.test: an error of the GPU emulator).
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  %in = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %out = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %in[%tx] : memref<64xf32>
    %first = arith.cmpi eq, %tx, %c0 : index
    %r = scf.if %first -> f32 {
      scf.yield %v : f32
    } else {
      %s, %ok = gpu.shuffle xor %v, %one, %width : f32
      scf.yield %s : f32
    }
    memref.store %r, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  %r = bufferization.to_tensor %out restrict : memref<64xf32> to tensor<64xf32>
  return %r : tensor<64xf32>
}
