// doitgen (PolyBench, MADNESS): for every (r, q), the row A[r][q][:] times
// the matrix C4,
//   out[r][q][p] = sum_s A[r][q][s] * C4[s][p]
// PolyBench writes the result back into A; on tensors it is a new tensor.
// One linalg.generic contraction (a batched matrix-vector product that is a
// (R*Q) x P x P matrix product in disguise).
//
// shape: A 64x64x128, C4 128x128 -> out 64x64x128 (R=64 Q=64 P=S=128)
// flops: 2*64*64*128*128
//   (2*R*Q*P*S)
#a = affine_map<(r, q, p, s) -> (r, q, s)>
#c4 = affine_map<(r, q, p, s) -> (s, p)>
#out = affine_map<(r, q, p, s) -> (r, q, p)>
func.func @doitgen(%A: tensor<64x64x128xf32>, %C4: tensor<128x128xf32>)
    -> tensor<64x64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64x128xf32>)
      -> tensor<64x64x128xf32>
  %sum = linalg.generic {indexing_maps = [#a, #c4, #out],
                         iterator_types = ["parallel", "parallel", "parallel",
                                           "reduction"]}
      ins(%A, %C4 : tensor<64x64x128xf32>, tensor<128x128xf32>)
      outs(%init : tensor<64x64x128xf32>) {
  ^bb0(%x: f32, %c: f32, %acc: f32):
    %m = arith.mulf %x, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64x128xf32>
  return %sum : tensor<64x64x128xf32>
}
