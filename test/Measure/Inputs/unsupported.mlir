// Functions the harness cannot feed.
func.func @scalar(%x: f32, %A: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  memref.store %x, %A[%c0] : memref<4xf32>
  return
}
func.func @dynamic(%A: memref<?xf32>) {
  return
}
