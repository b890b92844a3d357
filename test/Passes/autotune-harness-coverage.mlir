// The autotune pass end to end on functions the harness feeds without
// memrefs of scalars only: a scalar argument (at its default value and at a
// given one), a scalar result, memrefs in memory space 1 and memrefs and
// tensors of vectors. Two random candidates each: every one is applied,
// compiled, run and verified against the untransformed function.
// RUN: tuner-opt %s --tuner-autotune="function=axpy strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AXPY
// RUN: tuner-opt %s --tuner-autotune="function=axpy strategy=random budget=2 database=none scalars=arg0=-2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AXPY
// RUN: tuner-opt %s --tuner-autotune="function=sum strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUM
// RUN: tuner-opt %s --tuner-autotune="function=transpose strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: tuner-opt %s --tuner-autotune="function=vadd strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VADD
// RUN: tuner-opt %s --tuner-autotune="function=tadd strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TADD
// RUN: not tuner-opt %s --tuner-autotune="function=axpy budget=2 database=none scalars=alpha=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNTAX

// AXPY: remark: autotune @axpy: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// SUM: remark: autotune @sum: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// SPACE: remark: autotune @transpose: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// VADD: remark: autotune @vadd: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// TADD: remark: autotune @tadd: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// SYNTAX: error: 'scalars': scalar values: expected 'arg<N>=<number>' (e.g. arg0=2.5), got 'alpha=2'

func.func @axpy(%alpha: f32, %x: memref<64xf32>, %y: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xf32>
    %b = affine.load %y[%i] : memref<64xf32>
    %m = arith.mulf %alpha, %a : f32
    %s = arith.addf %m, %b : f32
    affine.store %s, %y[%i] : memref<64xf32>
  }
  return
}

func.func @sum(%x: tensor<32x16xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<32x16xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %out: f32) {
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    }
  %v = tensor.extract %r[] : tensor<f32>
  return %v : f32
}

func.func @transpose(%a: memref<64x64xf32, 1>, %b: memref<64x64xf32, 1>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%j, %i] : memref<64x64xf32, 1>
      affine.store %v, %b[%i, %j] : memref<64x64xf32, 1>
    }
  }
  return
}

func.func @vadd(%a: memref<64xvector<8xf32>>, %b: memref<64xvector<8xf32>>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xvector<8xf32>>
    %w = affine.load %b[%i] : memref<64xvector<8xf32>>
    %s = arith.addf %v, %w : vector<8xf32>
    affine.store %s, %b[%i] : memref<64xvector<8xf32>>
  }
  return
}

#id = affine_map<(d0) -> (d0)>
func.func @tadd(%a: tensor<16xvector<4xf32>>, %b: tensor<16xvector<4xf32>>) -> tensor<16xvector<4xf32>> {
  %init = tensor.empty() : tensor<16xvector<4xf32>>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<16xvector<4xf32>>, tensor<16xvector<4xf32>>) outs(%init : tensor<16xvector<4xf32>>) {
    ^bb0(%x: vector<4xf32>, %y: vector<4xf32>, %o: vector<4xf32>):
      %s = arith.addf %x, %y : vector<4xf32>
      linalg.yield %s : vector<4xf32>
  } -> tensor<16xvector<4xf32>>
  return %r : tensor<16xvector<4xf32>>
}
