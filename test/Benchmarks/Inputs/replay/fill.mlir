func.func @fill(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32>)
  return
}
