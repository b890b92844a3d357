func.func @v3(%a: memref<16xvector<3xf32>>) {
  return
}
