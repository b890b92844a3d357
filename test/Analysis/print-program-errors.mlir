// RUN: tuner-opt --tuner-print-program -split-input-file -verify-diagnostics %s -o /dev/null
// RUN: not tuner-opt --tuner-print-program=format=xml %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT

// FORMAT: error: unknown format 'xml' of --tuner-print-program: expected 'text' or 'json'

// Dynamic shapes need the sizes to analyze them at (shapes=), reported at
// each argument that lacks them.
// expected-error @+2 {{argument #0 of @dynamic has dynamic type 'tensor<?x4xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg0=<d0>x4}}
// expected-error @+1 {{argument #2 of @dynamic has dynamic type 'tensor<?x4xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg2=<d0>x4}}
func.func @dynamic(%A: tensor<?x4xf32>, %B: tensor<4x4xf32>, %C: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<?x4xf32>, tensor<4x4xf32>)
                     outs(%C : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument #0 of @dynamic_memref has dynamic type 'memref<?xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg0=<d0>}}
func.func @dynamic_memref(%A: memref<?xf32>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @symbolic_bound(%A: memref<8xf32>, %n: index) {
  // expected-error @+1 {{non-constant loop bounds are not supported: the bounds of every affine.for in nest nest_0 must be constants}}
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %A[%i] : memref<8xf32>
  }
  return
}

// -----

func.func @triangular(%A: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    // expected-error @+1 {{non-constant loop bounds are not supported}}
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%i, %j] : memref<8x8xf32>
      affine.store %a, %A[%j, %i] : memref<8x8xf32>
    }
  }
  return
}

// -----

func.func @scf_for_around_linalg(%A: memref<4x4xf32>, %B: memref<4x4xf32>, %C: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %t = %c0 to %c4 step %c1 {
    // expected-error @+1 {{linalg.matmul nested in scf.for is not supported: the tuner models linalg ops and affine.for nests at function level only}}
    linalg.matmul ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) outs(%C : memref<4x4xf32>)
  }
  return
}

// -----

func.func @linalg_under_if(%A: memref<4x4xf32>, %B: memref<4x4xf32>, %C: memref<4x4xf32>, %p: i1) {
  scf.if %p {
    // expected-error @+1 {{linalg.matmul nested in scf.if is not supported: the tuner models linalg ops and affine.for nests at function level only}}
    linalg.matmul ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) outs(%C : memref<4x4xf32>)
  }
  return
}

// -----

func.func @memref_load_in_nest(%A: memref<8xf32>, %B: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    // expected-error @+1 {{memref.load inside affine nest nest_0 is not supported}}
    %a = memref.load %A[%i] : memref<8xf32>
    affine.store %a, %B[%i] : memref<8xf32>
  }
  return
}

// -----

func.func @not_structured(%A: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.softmax is not a structured linalg op (LinalgOp) and is not supported}}
  %0 = linalg.softmax dimension(1) ins(%A : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.copy ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Not an error: a band deeper than 8 loops keeps its original order only.
func.func @deep(%A: memref<2x2x2x2x2x2x2x2x2xf32>) {
  // expected-warning @+1 {{the band of 9 loops of nest nest_0 is deeper than 8: only its original loop order is kept}}
  affine.for %i0 = 0 to 2 {
   affine.for %i1 = 0 to 2 {
    affine.for %i2 = 0 to 2 {
     affine.for %i3 = 0 to 2 {
      affine.for %i4 = 0 to 2 {
       affine.for %i5 = 0 to 2 {
        affine.for %i6 = 0 to 2 {
         affine.for %i7 = 0 to 2 {
          affine.for %i8 = 0 to 2 {
            %a = affine.load %A[%i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8] : memref<2x2x2x2x2x2x2x2x2xf32>
            %b = arith.negf %a : f32
            affine.store %b, %A[%i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8] : memref<2x2x2x2x2x2x2x2x2xf32>
          }
         }
        }
       }
      }
     }
    }
   }
  }
  return
}
