// Affine bounds that the sizes given with shapes= do not determine are an
// error at the loop, naming what the bound depends on.
// RUN: tuner-opt %s --split-input-file --tuner-extract-space="output=/dev/null shapes=arg0=16" -verify-diagnostics -o /dev/null

func.func @index_argument(%A: memref<?xf32>, %n: index) {
  // expected-error @+1 {{shapes=arg0=16: the bounds of this affine.for do not follow from the arguments' sizes: they depend on argument #1 of @index_argument ('index')}}
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %a : f32
    affine.store %s, %A[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @loaded(%A: memref<?xf32>, %N: memref<index>) {
  %n = memref.load %N[] : memref<index>
  // expected-error @+1 {{they depend on a value computed by 'memref.load'}}
  affine.for %i = 0 to min affine_map<(d0)[s0] -> (d0, s0)>(%n)[%n] {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %a : f32
    affine.store %s, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// An inner loop's bound may depend on the outer loop's induction variable
// and a size: the analysis, not the sizes, refuses the triangle.
func.func @triangle(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    // expected-error @+1 {{non-constant loop bounds are not supported}}
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%j] : memref<?xf32>
      %s = arith.addf %a, %a : f32
      affine.store %s, %A[%i] : memref<?xf32>
    }
  }
  return
}
