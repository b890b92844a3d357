func.func @vadd(%a: memref<64xvector<8xf32>>, %b: memref<64xvector<8xf32>>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xvector<8xf32>>
    %w = affine.load %b[%i] : memref<64xvector<8xf32>>
    %s = arith.subf %v, %w : vector<8xf32>
    affine.store %s, %b[%i] : memref<64xvector<8xf32>>
  }
  return
}
