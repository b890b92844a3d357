// Host code using the memory, stream and event functions of the runtime.
func.func @f(%h: memref<16xf32>) {
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %t3 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
  %c = arith.constant 1.0 : f32
  %t4 = gpu.memset async [%t3] %d, %c : memref<16xf32>, f32
  %t5 = gpu.dealloc async [%t4] %d : memref<16xf32>
  %t6 = gpu.wait async [%t5]
  gpu.wait [%t6]
  %u = memref.cast %h : memref<16xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.host_unregister %u : memref<*xf32>
  return
}
