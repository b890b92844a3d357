// Time tiling of a Jacobi stencil (jacobi-2d: a time loop over two sweeps
// that ping-pong between two grids, 6 time steps): the sweeps' row loops
// fused (the second one row behind), the band (t, i) skewed, tiled, its
// tiles run as a wavefront; each row sweep stays a plain loop over j.
// RUN: tuner-opt %s --tuner-apply="function=jacobi config=%S/Inputs/skew-jacobi.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
//
// Stock mlir-opt replays the schedule with the plugin, to the same IR.
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// The tuned function computes bit for bit what the original (a copy of it,
// @jacobi_ref) computes: run sequentially, then with the wavefront's tiles
// on OpenMP threads.
// RUN: %mlir_opt %t.tuned.mlir --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --lower-affine --convert-scf-to-openmp --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-scf-to-cf --convert-arith-to-llvm --convert-index-to-llvm --convert-openmp-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | env OMP_NUM_THREADS=4 mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils,%mlir_lib_dir/libomp.so | FileCheck %s --check-prefix=EXEC

// SCRIPT:      // nest_0: tile [2, 8], skew (nests fused), parallel (wavefront)
// SCRIPT-NEXT: %nest_0_fused = transform.tuner.affine_shift_fuse %nest_0 depth = 1
// SCRIPT-NEXT: %nest_0_skewed = transform.tuner.affine_skew %nest_0_fused depth = 2
// SCRIPT-NEXT: %nest_0_loops:4 = transform.tuner.affine_tile %nest_0_skewed tile_sizes [2, 8] wavefront

// IR-LABEL: func.func @jacobi(
// IR:         affine.for %[[W:.*]] = 0 to {{[0-9]+}} {
// IR-NEXT:      affine.parallel (%[[T:.*]]) = (max(%[[W]] - {{[0-9]+}}, 0)) to (min(%[[W]] + 1, 3)) {
// IR-NEXT:        affine.if
// IR-NEXT:          affine.for %[[PT:.*]] = max
// IR-NEXT:            affine.for %[[PI:.*]] = max
// IR-NEXT:              affine.if #{{.*}}(%[[PT]], %[[PI]]) {
// IR-NEXT:                affine.for %[[J:.*]] = 1 to 23 {
// IR:                       affine.store %{{.*}}, %{{.*}}[%[[PT]] * -2 + %[[PI]], %[[J]]]
// IR:                   affine.if #{{.*}}(%[[PT]], %[[PI]]) {
// IR-NEXT:                affine.for %[[J:.*]] = 1 to 23 {
// IR:                       affine.store %{{.*}}, %{{.*}}[%[[PT]] * -2 + %[[PI]] - 1, %[[J]]]
// IR-LABEL: func.func @jacobi_ref(
// IR-NOT:       affine.parallel

// EXEC: mismatches 0
// EXEC-NEXT: {{[0-9.]+}}

func.func @jacobi(%A: memref<24x24xf32>, %B: memref<24x24xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 23 {
      affine.for %j = 1 to 23 {
        %c = affine.load %A[%i, %j] : memref<24x24xf32>
        %w = affine.load %A[%i, %j - 1] : memref<24x24xf32>
        %e = affine.load %A[%i, %j + 1] : memref<24x24xf32>
        %s = affine.load %A[%i + 1, %j] : memref<24x24xf32>
        %n = affine.load %A[%i - 1, %j] : memref<24x24xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %B[%i, %j] : memref<24x24xf32>
      }
    }
    affine.for %i = 1 to 23 {
      affine.for %j = 1 to 23 {
        %c = affine.load %B[%i, %j] : memref<24x24xf32>
        %w = affine.load %B[%i, %j - 1] : memref<24x24xf32>
        %e = affine.load %B[%i, %j + 1] : memref<24x24xf32>
        %s = affine.load %B[%i + 1, %j] : memref<24x24xf32>
        %n = affine.load %B[%i - 1, %j] : memref<24x24xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %A[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}

// The same stencil, left alone.
func.func @jacobi_ref(%A: memref<24x24xf32>, %B: memref<24x24xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 23 {
      affine.for %j = 1 to 23 {
        %c = affine.load %A[%i, %j] : memref<24x24xf32>
        %w = affine.load %A[%i, %j - 1] : memref<24x24xf32>
        %e = affine.load %A[%i, %j + 1] : memref<24x24xf32>
        %s = affine.load %A[%i + 1, %j] : memref<24x24xf32>
        %n = affine.load %A[%i - 1, %j] : memref<24x24xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %B[%i, %j] : memref<24x24xf32>
      }
    }
    affine.for %i = 1 to 23 {
      affine.for %j = 1 to 23 {
        %c = affine.load %B[%i, %j] : memref<24x24xf32>
        %w = affine.load %B[%i, %j - 1] : memref<24x24xf32>
        %e = affine.load %B[%i, %j + 1] : memref<24x24xf32>
        %s = affine.load %B[%i + 1, %j] : memref<24x24xf32>
        %n = affine.load %B[%i - 1, %j] : memref<24x24xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %A[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}

// A[i][j] = (7i + 3j) mod 11, B[i][j] = (i + 5j) mod 13.
func.func @init(%A: memref<24x24xf32>, %B: memref<24x24xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %v = affine.apply affine_map<(i, j) -> ((i * 7 + j * 3) mod 11)>(%i, %j)
      %w = arith.index_cast %v : index to i32
      %x = arith.sitofp %w : i32 to f32
      affine.store %x, %A[%i, %j] : memref<24x24xf32>
      %u = affine.apply affine_map<(i, j) -> ((i + j * 5) mod 13)>(%i, %j)
      %y = arith.index_cast %u : index to i32
      %z = arith.sitofp %y : i32 to f32
      affine.store %z, %B[%i, %j] : memref<24x24xf32>
    }
  }
  return
}

func.func @main() {
  %A = memref.alloc() : memref<24x24xf32>
  %B = memref.alloc() : memref<24x24xf32>
  %RA = memref.alloc() : memref<24x24xf32>
  %RB = memref.alloc() : memref<24x24xf32>
  call @init(%A, %B) : (memref<24x24xf32>, memref<24x24xf32>) -> ()
  call @init(%RA, %RB) : (memref<24x24xf32>, memref<24x24xf32>) -> ()
  call @jacobi(%A, %B) : (memref<24x24xf32>, memref<24x24xf32>) -> ()
  call @jacobi_ref(%RA, %RB) : (memref<24x24xf32>, memref<24x24xf32>) -> ()
  // Elements of either grid that differ at all, and the sum of A.
  %zero = arith.constant 0 : index
  %fzero = arith.constant 0.0 : f32
  %counts:2 = affine.for %i = 0 to 24 iter_args(%n0 = %zero, %s0 = %fzero) -> (index, f32) {
    %inner:2 = affine.for %j = 0 to 24 iter_args(%n1 = %n0, %s1 = %s0) -> (index, f32) {
      %a = affine.load %A[%i, %j] : memref<24x24xf32>
      %ra = affine.load %RA[%i, %j] : memref<24x24xf32>
      %b = affine.load %B[%i, %j] : memref<24x24xf32>
      %rb = affine.load %RB[%i, %j] : memref<24x24xf32>
      %nea = arith.cmpf une, %a, %ra : f32
      %neb = arith.cmpf une, %b, %rb : f32
      %one = arith.index_cast %nea : i1 to index
      %two = arith.index_cast %neb : i1 to index
      %n2 = arith.addi %n1, %one : index
      %n3 = arith.addi %n2, %two : index
      %s2 = arith.addf %s1, %a : f32
      affine.yield %n3, %s2 : index, f32
    }
    affine.yield %inner#0, %inner#1 : index, f32
  }
  vector.print str "mismatches "
  vector.print %counts#0 : index
  vector.print %counts#1 : f32
  memref.dealloc %A : memref<24x24xf32>
  memref.dealloc %B : memref<24x24xf32>
  memref.dealloc %RA : memref<24x24xf32>
  memref.dealloc %RB : memref<24x24xf32>
  return
}
