// RUN: tuner-opt %s -split-input-file --tuner-extract-space="target=%src_root/examples/targets/h100.json output=%t.json" -verify-diagnostics -o /dev/null

// An affine nest has no GPU schedule: the error is at the loop.
func.func @affine_nest(%A: memref<64x64xf32>) {
  // expected-error @+1 {{cannot build the GPU search space of @affine_nest: nest 'nest_0' is an affine loop nest: GPU schedules map linalg ops onto blocks and threads}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// -----

// A full reduction has no parallel loop to map onto threads.
func.func @dot(%a: tensor<1024xf32>, %b: tensor<1024xf32>, %c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot build the GPU search space of @dot: nest 'dot_0' (linalg.dot) has no parallel loop to map onto GPU threads}}
  %r = linalg.dot ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
