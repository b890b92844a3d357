// Functions the harness cannot feed.
func.func @scalar(%x: complex<f32>, %A: memref<4xf32>) {
  return
}
func.func @dynamic(%A: memref<?xf32>) {
  return
}
