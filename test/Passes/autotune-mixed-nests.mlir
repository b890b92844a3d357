// The autotune pass end to end on affine nests under other control flow:
// inside scf.for, under an scf.if on a scalar argument (i1 arguments are
// 1 unless `scalars=` says otherwise, so the branch runs), and next to a
// nest under an scf.if on the data, which is left as it is (a warning) while
// the other nest is tuned. Two random candidates each, verified against the
// untransformed function.
// RUN: tuner-opt %s --tuner-autotune="function=steps strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: tuner-opt %s --tuner-autotune="function=under_if strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=IF
// RUN: tuner-opt %s --tuner-autotune="function=data_if strategy=random budget=2 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATA

// STEPS: remark: autotune @steps: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// IF: remark: autotune @under_if: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed
// DATA: warning: affine nest nest_0 is left as it is: it is under an scf.if whose condition depends on the data
// DATA: remark: autotune @data_if: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed

func.func @steps(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %c4 step %c1 {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        %w = affine.load %b[%i, %j] : memref<32x32xf32>
        %s = arith.addf %v, %w : f32
        affine.store %s, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}

func.func @under_if(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %flag: i1) {
  scf.if %flag {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        affine.store %v, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}

func.func @data_if(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.load %a[%c0, %c0] : memref<32x32xf32>
  %p = arith.cmpf ogt, %x, %zero : f32
  scf.if %p {
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %v = affine.load %a[%j, %i] : memref<32x32xf32>
        affine.store %v, %b[%i, %j] : memref<32x32xf32>
      }
    }
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %v = affine.load %b[%i, %j] : memref<32x32xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %b[%i, %j] : memref<32x32xf32>
    }
  }
  return
}

