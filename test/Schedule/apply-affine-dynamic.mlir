// Affine nests whose bounds are memref sizes: schedules built at one size,
// applied to the dynamic functions, are correct at every size. The tile
// loops run over the symbolic bounds and the point loops stop at
// min(tile end, bound); the unrolled innermost point loop is versioned into
// full tiles (constant trip count, unrolled with a cleanup loop) and partial
// ones; an untiled symbolic loop is unrolled with a cleanup loop; a band
// carrying iter_args is strip-mined with symbolic bounds; a parallel tile
// loop becomes an affine.parallel over a symbolic range.
//
// @mm: tiles [8, 16, -], order [0, 2, 1], unroll 4. @jacobi: tiles
// [4, 16], parallel. @seidel (not fully permutable: only its
// outer loop is tiled): tile [8, -], unroll 4. @sum (iter_args): tile 20,
// unroll 8. Built at the sizes of the RUN lines, lowered by the tuner's own
// pipeline and run at the tuned sizes, sizes that do not divide the tiles,
// and 1, against the untransformed copies: each line counts the elements
// that differ.
// RUN: tuner-opt %s --tuner-apply="function=mm shapes=arg0=64x40,arg1=40x48,arg2=64x48 config=%S/Inputs/affine-dynamic-mm.json" \
// RUN:   | tuner-opt --tuner-apply="function=jacobi shapes=arg0=34x50,arg1=34x50 config=%S/Inputs/affine-dynamic-jacobi.json" \
// RUN:   | tuner-opt --tuner-apply="function=seidel shapes=arg0=34x50 config=%S/Inputs/affine-dynamic-seidel.json" \
// RUN:   | tuner-opt --tuner-apply="function=sum shapes=arg0=100 config=%S/Inputs/affine-dynamic-sum.json" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: tuner-opt %t.tuned.mlir --tuner-lower-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils,%mlir_lib_dir/libomp.so | FileCheck %s --check-prefix=EXEC
//
// The property test of these spaces: uniform samples all apply to the
// dynamic functions.
// RUN: tuner-opt %s --tuner-check-space="function=mm shapes=arg0=64x40,arg1=40x48,arg2=64x48 samples=60" -o /dev/null | FileCheck %s --check-prefix=SPACE-MM
// RUN: tuner-opt %s --tuner-check-space="function=jacobi shapes=arg0=34x50,arg1=34x50 samples=60" -o /dev/null | FileCheck %s --check-prefix=SPACE-JACOBI
// RUN: tuner-opt %s --tuner-check-space="function=seidel shapes=arg0=34x50 samples=30" -o /dev/null | FileCheck %s --check-prefix=SPACE-SEIDEL
// RUN: tuner-opt %s --tuner-check-space="function=sum shapes=arg0=100 samples=30" -o /dev/null | FileCheck %s --check-prefix=SPACE-SUM

// IR-LABEL: func.func @mm(
// IR:         affine.for %{{.*}} = 0 to %[[M:.*]] step 8 {
// IR:           affine.for %{{.*}} = 0 to %[[N:.*]] step 16 {
// IR:             affine.for %{{.*}} = #{{.*}}(%{{.*}}) to min #{{.*}}(%{{.*}})[%[[M]]] {
// IR:               affine.if #{{.*}}(%{{.*}})[%[[N]]] {
// IR:               } else {
// IR-LABEL: func.func @jacobi(
// IR:         affine.parallel (%{{.*}}) = (1) to (symbol(%{{.*}}) - 1) step (4) {
// IR-LABEL: func.func @seidel(
// IR:         affine.for %{{.*}} = 1 to #{{.*}}()[%{{.*}}] step 8 {
// IR-LABEL: func.func @sum(
// IR:         affine.for %{{.*}} = 0 to %{{.*}} step 20 iter_args(

// EXEC:      mm 0
// EXEC-NEXT: mm 0
// EXEC-NEXT: mm 0
// EXEC-NEXT: mm 0
// EXEC-NEXT: jacobi 0
// EXEC-NEXT: jacobi 0
// EXEC-NEXT: jacobi 0
// EXEC-NEXT: jacobi 0
// EXEC-NEXT: seidel 0
// EXEC-NEXT: seidel 0
// EXEC-NEXT: seidel 0
// EXEC-NEXT: seidel 0
// EXEC-NEXT: sum 0
// EXEC-NEXT: sum 0
// EXEC-NEXT: sum 0
// EXEC-NEXT: sum 0

// SPACE-MM: check-space @mm: size {{[0-9]+}}, 60 samples ({{[0-9]+}} distinct), 0 failed
// SPACE-JACOBI: check-space @jacobi: size {{[0-9]+}}, 60 samples ({{[0-9]+}} distinct), 0 failed
// SPACE-SEIDEL: check-space @seidel: size {{[0-9]+}}, 30 samples ({{[0-9]+}} distinct), 0 failed
// SPACE-SUM: check-space @sum: size {{[0-9]+}}, 30 samples ({{[0-9]+}} distinct), 0 failed

#minus1 = affine_map<()[s0] -> (s0 - 1)>

func.func @mm(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %k = memref.dim %A, %c1 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.for %p = 0 to %k {
        %a = affine.load %A[%i, %p] : memref<?x?xf32>
        %b = affine.load %B[%p, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %c, %x : f32
        affine.store %y, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @jacobi(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  affine.for %i = 1 to #minus1()[%m] {
    affine.for %j = 1 to #minus1()[%n] {
      %a = affine.load %A[%i - 1, %j] : memref<?x?xf32>
      %b = affine.load %A[%i + 1, %j] : memref<?x?xf32>
      %c = affine.load %A[%i, %j - 1] : memref<?x?xf32>
      %d = affine.load %A[%i, %j + 1] : memref<?x?xf32>
      %s1 = arith.addf %a, %b : f32
      %s2 = arith.addf %c, %d : f32
      %s = arith.addf %s1, %s2 : f32
      affine.store %s, %B[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// In place, with a dependence of distance (1, -1): not fully permutable.
func.func @seidel(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  %half = arith.constant 0.5 : f32
  affine.for %i = 1 to #minus1()[%m] {
    affine.for %j = 1 to #minus1()[%n] {
      %a = affine.load %A[%i - 1, %j + 1] : memref<?x?xf32>
      %c = affine.load %A[%i, %j - 1] : memref<?x?xf32>
      %s = arith.addf %a, %c : f32
      %h = arith.mulf %s, %half : f32
      affine.store %h, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @sum(%A: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to %n iter_args(%acc = %zero) -> f32 {
    %a = affine.load %A[%i] : memref<?xf32>
    %t = arith.addf %acc, %a : f32
    affine.yield %t : f32
  }
  affine.store %s, %out[0] : memref<1xf32>
  return
}

// The untransformed functions, to compare with.
func.func private @mm_ref(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
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

func.func private @jacobi_ref(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.for %i = %c1 to %m1 step %c1 {
    scf.for %j = %c1 to %n1 step %c1 {
      %iu = arith.subi %i, %c1 : index
      %id = arith.addi %i, %c1 : index
      %jl = arith.subi %j, %c1 : index
      %jr = arith.addi %j, %c1 : index
      %a = memref.load %A[%iu, %j] : memref<?x?xf32>
      %b = memref.load %A[%id, %j] : memref<?x?xf32>
      %c = memref.load %A[%i, %jl] : memref<?x?xf32>
      %d = memref.load %A[%i, %jr] : memref<?x?xf32>
      %s1 = arith.addf %a, %b : f32
      %s2 = arith.addf %c, %d : f32
      %s = arith.addf %s1, %s2 : f32
      memref.store %s, %B[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func private @seidel_ref(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %c1 to %m1 step %c1 {
    scf.for %j = %c1 to %n1 step %c1 {
      %iu = arith.subi %i, %c1 : index
      %jl = arith.subi %j, %c1 : index
      %jr = arith.addi %j, %c1 : index
      %a = memref.load %A[%iu, %jr] : memref<?x?xf32>
      %c = memref.load %A[%i, %jl] : memref<?x?xf32>
      %s = arith.addf %a, %c : f32
      %h = arith.mulf %s, %half : f32
      memref.store %h, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func private @sum_ref(%A: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %A[%i] : memref<?xf32>
    %t = arith.addf %acc, %a : f32
    scf.yield %t : f32
  }
  memref.store %s, %out[%c0] : memref<1xf32>
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

// Prints `name` and the number of elements where %X and %Y differ.
func.func private @compare(%X: memref<?x?xf32>, %Y: memref<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %X, %c0 : memref<?x?xf32>
  %cols = memref.dim %X, %c1 : memref<?x?xf32>
  %zero = arith.constant 0 : i64
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> i64 {
    %row = scf.for %j = %c0 to %cols step %c1 iter_args(%racc = %acc) -> i64 {
      %x = memref.load %X[%i, %j] : memref<?x?xf32>
      %y = memref.load %Y[%i, %j] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %one = arith.extui %ne : i1 to i64
      %sum = arith.addi %racc, %one : i64
      scf.yield %sum : i64
    }
    scf.yield %row : i64
  }
  return %count : i64
}

func.func private @check_mm(%m: index, %k: index, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = func.call @matrix(%m, %k, %c1) : (index, index, index) -> memref<?x?xf32>
  %B = func.call @matrix(%k, %n, %c2) : (index, index, index) -> memref<?x?xf32>
  %got = func.call @matrix(%m, %n, %c3) : (index, index, index) -> memref<?x?xf32>
  %want = func.call @matrix(%m, %n, %c3) : (index, index, index) -> memref<?x?xf32>
  func.call @mm(%A, %B, %got) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @mm_ref(%A, %B, %want) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %d = func.call @compare(%got, %want) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "mm "
  vector.print %d : i64
  return
}

func.func private @check_jacobi(%m: index, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %A = func.call @matrix(%m, %n, %c1) : (index, index, index) -> memref<?x?xf32>
  %got = func.call @matrix(%m, %n, %c4) : (index, index, index) -> memref<?x?xf32>
  %want = func.call @matrix(%m, %n, %c4) : (index, index, index) -> memref<?x?xf32>
  func.call @jacobi(%A, %got) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @jacobi_ref(%A, %want) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %d = func.call @compare(%got, %want) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "jacobi "
  vector.print %d : i64
  return
}

func.func private @check_seidel(%m: index, %n: index) {
  %c1 = arith.constant 1 : index
  %got = func.call @matrix(%m, %n, %c1) : (index, index, index) -> memref<?x?xf32>
  %want = func.call @matrix(%m, %n, %c1) : (index, index, index) -> memref<?x?xf32>
  func.call @seidel(%got) : (memref<?x?xf32>) -> ()
  func.call @seidel_ref(%want) : (memref<?x?xf32>) -> ()
  %d = func.call @compare(%got, %want) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  vector.print str "seidel "
  vector.print %d : i64
  return
}

func.func private @check_sum(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %M = func.call @matrix(%c1, %n, %c1) : (index, index, index) -> memref<?x?xf32>
  %A = memref.collapse_shape %M [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %got = memref.alloc() : memref<1xf32>
  %want = memref.alloc() : memref<1xf32>
  func.call @sum(%A, %got) : (memref<?xf32>, memref<1xf32>) -> ()
  func.call @sum_ref(%A, %want) : (memref<?xf32>, memref<1xf32>) -> ()
  %x = memref.load %got[%c0] : memref<1xf32>
  %y = memref.load %want[%c0] : memref<1xf32>
  %ne = arith.cmpf une, %x, %y : f32
  %d = arith.extui %ne : i1 to i64
  vector.print str "sum "
  vector.print %d : i64
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c34 = arith.constant 34 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %c67 = arith.constant 67 : index
  %c100 = arith.constant 100 : index
  %c129 = arith.constant 129 : index
  %c1001 = arith.constant 1001 : index
  func.call @check_mm(%c64, %c40, %c48) : (index, index, index) -> ()
  func.call @check_mm(%c37, %c5, %c3) : (index, index, index) -> ()
  func.call @check_mm(%c1, %c1, %c1) : (index, index, index) -> ()
  func.call @check_mm(%c100, %c129, %c67) : (index, index, index) -> ()
  func.call @check_jacobi(%c34, %c50) : (index, index) -> ()
  func.call @check_jacobi(%c37, %c5) : (index, index) -> ()
  func.call @check_jacobi(%c1, %c1) : (index, index) -> ()
  func.call @check_jacobi(%c100, %c129) : (index, index) -> ()
  func.call @check_seidel(%c34, %c50) : (index, index) -> ()
  func.call @check_seidel(%c37, %c5) : (index, index) -> ()
  func.call @check_seidel(%c1, %c1) : (index, index) -> ()
  func.call @check_seidel(%c100, %c129) : (index, index) -> ()
  func.call @check_sum(%c100) : (index) -> ()
  func.call @check_sum(%c37) : (index) -> ()
  func.call @check_sum(%c1) : (index) -> ()
  func.call @check_sum(%c1001) : (index) -> ()
  return
}
