// Time tiling of a Gauss-Seidel stencil (seidel-2d, in place, 6 time
// steps): skewed, tiled in all three loops, tiles run as a wavefront.
// RUN: tuner-opt %s --tuner-apply="function=seidel config=%S/Inputs/skew-seidel.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
//
// Stock mlir-opt replays the schedule with the plugin, to the same IR.
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir
//
// The tuned function computes bit for bit what the original (a copy of it,
// @seidel_ref) computes: run sequentially, then with the wavefront's tiles
// on OpenMP threads.
// RUN: %mlir_opt %t.tuned.mlir --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils | FileCheck %s --check-prefix=EXEC
// RUN: %mlir_opt %t.tuned.mlir --lower-affine --convert-scf-to-openmp --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-scf-to-cf --convert-arith-to-llvm --convert-index-to-llvm --convert-openmp-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | env OMP_NUM_THREADS=4 mlir-runner -e main -entry-point-result=void -shared-libs=%c_runner_utils,%runner_utils,%mlir_lib_dir/libomp.so | FileCheck %s --check-prefix=EXEC

// SCRIPT:      // nest_0: tile [2, 8, 4], skew, parallel (wavefront)
// SCRIPT-NEXT: %nest_0_skewed = transform.tuner.affine_skew %nest_0 depth = 3
// SCRIPT-NEXT: %nest_0_loops:6 = transform.tuner.affine_tile %nest_0_skewed tile_sizes [2, 8, 4] wavefront

// The wavefronts w of (time tile T, row tile I) run in order, the tiles of
// one wavefront in parallel (I = w - T is folded into the bounds); inside a
// tile, the point loops of the skewed band (t, t + i, 2t + i + j), the body
// reading i and j back.
// IR-LABEL: func.func @seidel(
// IR:         affine.for %[[W:.*]] = 0 to 5 {
// IR-NEXT:      affine.parallel (%[[T:.*]]) = (max(%[[W]] - 2, 0)) to (min(%[[W]] + 1, 3)) {
// IR-NEXT:        affine.if #{{.*}}(%[[T]], %[[W]]) {
// IR-NEXT:          affine.for %[[J:.*]] = #{{.*}}(%[[T]], %[[W]]) to min
// IR-NEXT:            affine.for %[[PT:.*]] = max #{{.*}}(%[[T]]) to min
// IR-NEXT:              affine.for %[[PI:.*]] = max #{{.*}}(%[[PT]], %[[W]], %[[T]]) to min
// IR-NEXT:                affine.for %[[PJ:.*]] = max #{{.*}}(%[[PT]], %[[PI]], %[[J]]) to min
// IR-NEXT:                  affine.load %{{.*}}[-%[[PT]] + %[[PI]] - 1, -%[[PT]] - %[[PI]] + %[[PJ]] - 1]
// IR-LABEL: func.func @seidel_ref(
// IR-NOT:       affine.parallel

// EXEC: mismatches 0
// EXEC-NEXT: {{[0-9.]+}}

func.func @seidel(%A: memref<20x20xf32>) {
  %nine = arith.constant 9.0 : f32
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<20x20xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<20x20xf32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<20x20xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<20x20xf32>
        %a4 = affine.load %A[%i, %j] : memref<20x20xf32>
        %a5 = affine.load %A[%i, %j + 1] : memref<20x20xf32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<20x20xf32>
        %a7 = affine.load %A[%i + 1, %j] : memref<20x20xf32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<20x20xf32>
        %s1 = arith.addf %a0, %a1 : f32
        %s2 = arith.addf %s1, %a2 : f32
        %s3 = arith.addf %s2, %a3 : f32
        %s4 = arith.addf %s3, %a4 : f32
        %s5 = arith.addf %s4, %a5 : f32
        %s6 = arith.addf %s5, %a6 : f32
        %s7 = arith.addf %s6, %a7 : f32
        %s8 = arith.addf %s7, %a8 : f32
        %r = arith.divf %s8, %nine : f32
        affine.store %r, %A[%i, %j] : memref<20x20xf32>
      }
    }
  }
  return
}

// The same stencil, left alone.
func.func @seidel_ref(%A: memref<20x20xf32>) {
  %nine = arith.constant 9.0 : f32
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 19 {
      affine.for %j = 1 to 19 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<20x20xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<20x20xf32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<20x20xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<20x20xf32>
        %a4 = affine.load %A[%i, %j] : memref<20x20xf32>
        %a5 = affine.load %A[%i, %j + 1] : memref<20x20xf32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<20x20xf32>
        %a7 = affine.load %A[%i + 1, %j] : memref<20x20xf32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<20x20xf32>
        %s1 = arith.addf %a0, %a1 : f32
        %s2 = arith.addf %s1, %a2 : f32
        %s3 = arith.addf %s2, %a3 : f32
        %s4 = arith.addf %s3, %a4 : f32
        %s5 = arith.addf %s4, %a5 : f32
        %s6 = arith.addf %s5, %a6 : f32
        %s7 = arith.addf %s6, %a7 : f32
        %s8 = arith.addf %s7, %a8 : f32
        %r = arith.divf %s8, %nine : f32
        affine.store %r, %A[%i, %j] : memref<20x20xf32>
      }
    }
  }
  return
}

// A[i][j] = (7i + 3j) mod 11, in both grids.
func.func @init(%A: memref<20x20xf32>) {
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 20 {
      %v = affine.apply affine_map<(i, j) -> ((i * 7 + j * 3) mod 11)>(%i, %j)
      %w = arith.index_cast %v : index to i32
      %x = arith.sitofp %w : i32 to f32
      affine.store %x, %A[%i, %j] : memref<20x20xf32>
    }
  }
  return
}

func.func @main() {
  %A = memref.alloc() : memref<20x20xf32>
  %R = memref.alloc() : memref<20x20xf32>
  call @init(%A) : (memref<20x20xf32>) -> ()
  call @init(%R) : (memref<20x20xf32>) -> ()
  call @seidel(%A) : (memref<20x20xf32>) -> ()
  call @seidel_ref(%R) : (memref<20x20xf32>) -> ()
  // Elements that differ at all, and the sum of the result.
  %zero = arith.constant 0 : index
  %fzero = arith.constant 0.0 : f32
  %counts:2 = affine.for %i = 0 to 20 iter_args(%n0 = %zero, %s0 = %fzero) -> (index, f32) {
    %inner:2 = affine.for %j = 0 to 20 iter_args(%n1 = %n0, %s1 = %s0) -> (index, f32) {
      %a = affine.load %A[%i, %j] : memref<20x20xf32>
      %r = affine.load %R[%i, %j] : memref<20x20xf32>
      %ne = arith.cmpf une, %a, %r : f32
      %one = arith.index_cast %ne : i1 to index
      %n2 = arith.addi %n1, %one : index
      %s2 = arith.addf %s1, %a : f32
      affine.yield %n2, %s2 : index, f32
    }
    affine.yield %inner#0, %inner#1 : index, f32
  }
  vector.print str "mismatches "
  vector.print %counts#0 : index
  vector.print %counts#1 : f32
  memref.dealloc %A : memref<20x20xf32>
  memref.dealloc %R : memref<20x20xf32>
  return
}
