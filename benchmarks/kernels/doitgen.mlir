// doitgen (PolyBench, MADNESS): for every (r, q), the row A[r][q][:] times
// the matrix C4,
//   out[r][q][p] = sum_s A[r][q][s] * C4[s][p]
// PolyBench writes the result back into A; on tensors it is a new tensor.
// One linalg.generic contraction (a batched matrix-vector product that is a
// (R*Q) x P x P matrix product in disguise).
//
// shape: A 128x128x256, C4 256x256 -> out 128x128x256 (R=128 Q=128 P=S=256)
// flops: 2*128*128*256*256
//   (2*R*Q*P*S)
#a = affine_map<(r, q, p, s) -> (r, q, s)>
#c4 = affine_map<(r, q, p, s) -> (s, p)>
#out = affine_map<(r, q, p, s) -> (r, q, p)>
func.func @doitgen(%A: tensor<128x128x256xf32>, %C4: tensor<256x256xf32>)
    -> tensor<128x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x128x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x128x256xf32>)
      -> tensor<128x128x256xf32>
  %sum = linalg.generic {indexing_maps = [#a, #c4, #out],
                         iterator_types = ["parallel", "parallel", "parallel",
                                           "reduction"]}
      ins(%A, %C4 : tensor<128x128x256xf32>, tensor<256x256xf32>)
      outs(%init : tensor<128x128x256xf32>) {
  ^bb0(%x: f32, %c: f32, %acc: f32):
    %m = arith.mulf %x, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<128x128x256xf32>
  return %sum : tensor<128x128x256xf32>
}
