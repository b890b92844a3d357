// A vectorized and parallel schedule of a matmul on memrefs of dynamic
// sizes: vectorize_tiles versions each scf.forall tile into a full
// (static, vectorized) and a partial version under an scf.if that yields
// nothing (with memrefs no value escapes the tile; the builder's own
// terminators end both branches). Built at 64x40x48 and run at 64x40x48,
// 37x5x3, 1x1x1 and 100x129x67 against the untransformed function: each
// line counts the elements that differ.
// RUN: tuner-opt %s --tuner-apply="function=mm shapes=arg0=64x40,arg1=40x48,arg2=64x48 config=%S/Inputs/matmul-dynamic-memref.json" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: tuner-opt %t.tuned.mlir --tuner-lower-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils,%mlir_lib_dir/libomp.so | FileCheck %s --check-prefix=EXEC
// The space offers vectorized parallel schedules of such nests, and they
// apply.
// RUN: tuner-opt %s --tuner-extract-space="function=mm shapes=arg0=64x40,arg1=40x48,arg2=64x48" -o /dev/null | FileCheck %s --check-prefix=SPACE
// RUN: tuner-opt %s --tuner-check-space="function=mm shapes=arg0=64x40,arg1=40x48,arg2=64x48 samples=40" -o /dev/null | FileCheck %s --check-prefix=CHECK-SPACE

// IR-LABEL: func.func @mm(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>)
// IR:         scf.forall
// IR:           scf.if
// IR:             vector.fma {{.*}} : vector<16xf32>
// IR:           } else {

// EXEC:      0
// EXEC-NEXT: 0
// EXEC-NEXT: 0
// EXEC-NEXT: 0

// SPACE-NOT: "!matmul_0.vectorize || !matmul_0.parallel"
// SPACE: "name": "matmul_0.parallel"
// CHECK-SPACE: check-space @mm: size {{.*}}, 40 samples ({{[0-9]+}} distinct), 0 failed

func.func @mm(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// The untransformed function, to compare with.
func.func private @reference(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %k = memref.dim %A, %c1 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %p = %c0 to %k step %c1 {
        %a = memref.load %A[%i, %p] : memref<?x?xf32>
        %b = memref.load %B[%p, %j] : memref<?x?xf32>
        %c = memref.load %C[%i, %j] : memref<?x?xf32>
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %c, %x : f32
        memref.store %y, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// Small integers (every sum is exact, whatever the order): (7i + 3j + seed)
// mod 5 - 2.
func.func private @matrix(%rows: index, %cols: index, %seed: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %two = arith.constant 2.0 : f32
  %M = memref.alloc(%rows, %cols) : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %a = arith.muli %i, %c7 : index
      %b = arith.muli %j, %c3 : index
      %s = arith.addi %a, %b : index
      %s2 = arith.addi %s, %seed : index
      %r = arith.remui %s2, %c5 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      %v = arith.subf %f, %two : f32
      memref.store %v, %M[%i, %j] : memref<?x?xf32>
    }
  }
  return %M : memref<?x?xf32>
}

// Prints the number of elements where @mm and @reference differ at M x K x N.
func.func private @check(%m: index, %k: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = func.call @matrix(%m, %k, %c1) : (index, index, index) -> memref<?x?xf32>
  %B = func.call @matrix(%k, %n, %c2) : (index, index, index) -> memref<?x?xf32>
  %got = func.call @matrix(%m, %n, %c3) : (index, index, index) -> memref<?x?xf32>
  %want = func.call @matrix(%m, %n, %c3) : (index, index, index) -> memref<?x?xf32>
  func.call @mm(%A, %B, %got) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @reference(%A, %B, %want) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %zero = arith.constant 0 : i64
  %count = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%racc = %acc) -> i64 {
      %x = memref.load %got[%i, %j] : memref<?x?xf32>
      %y = memref.load %want[%i, %j] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.extui %ne : i1 to i64
      %sum = arith.addi %racc, %one : i64
      scf.yield %sum : i64
    }
    scf.yield %row : i64
  }
  vector.print %count : i64
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c67 = arith.constant 67 : index
  %c100 = arith.constant 100 : index
  %c129 = arith.constant 129 : index
  func.call @check(%c64, %c40, %c48) : (index, index, index) -> ()
  func.call @check(%c37, %c5, %c3) : (index, index, index) -> ()
  func.call @check(%c1, %c1, %c1) : (index, index, index) -> ()
  func.call @check(%c100, %c129, %c67) : (index, index, index) -> ()
  return
}
