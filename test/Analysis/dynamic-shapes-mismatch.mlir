// Sizes given for a dynamic function must agree with the static dimensions
// of its types and with each other where an op ties them.
// RUN: tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=64x256" -verify-diagnostics -o /dev/null
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=64x512,arg1=40x32" --mlir-print-op-on-diagnostic=false 2>&1 -o /dev/null | FileCheck %s --check-prefix=TIED
// RUN: not tuner-opt %s --tuner-extract-space="output=/dev/null shapes=arg0=64x512,arg1=512x32,arg5=4" --mlir-print-op-on-diagnostic=false 2>&1 -o /dev/null | FileCheck %s --check-prefix=INDEX

// TIED: 20:8: error: shapes=arg0=64x512,arg1=40x32 disagrees with linalg.matmul: its loop d2 is 512 by argument #0 (arg0) dimension 1 but 40 by argument #1 (arg1) dimension 0
// INDEX: error: shapes=: arg5 is given, but @mm has 2 arguments

// expected-error @+2 {{shapes=: arg0=64x256 gives dimension 1 the size 256, but argument #0 of @mm has type 'tensor<?x512xf32>', where it is 512}}
// expected-error @+1 {{argument #1 of @mm has dynamic type 'tensor<?x?xf32>': give the sizes to tune for with the shapes option, e.g. shapes=arg1=<d0>x<d1>}}
func.func @mm(%A: tensor<?x512xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x512xf32>
  %n = tensor.dim %B, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %C = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %R = linalg.matmul ins(%A, %B : tensor<?x512xf32>, tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %R : tensor<?x?xf32>
}
