// @sum of sum-scalar.mlir, but it aborts in every harness process after the
// first one that called it: its first call in a process creates the folder
// named by $TUNER_TEST_BASELINE_FLAG, and a process whose first call finds
// the folder there aborts. As the baseline with --rounds 1, it is measured
// in its own process and then crashes beside the candidates, as a baseline
// on a flaky host would.
llvm.mlir.global internal @state(0 : i32) : i32
llvm.mlir.global internal constant @flag("TUNER_TEST_BASELINE_FLAG\00")
llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
llvm.func @mkdir(!llvm.ptr, i32) -> i32
llvm.func @abort()

func.func @sum(%x: memref<64x32xf32>) -> f32 {
  %stateAddress = llvm.mlir.addressof @state : !llvm.ptr
  %state = llvm.load %stateAddress : !llvm.ptr -> i32
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %state, %zero : i32
  scf.if %first {
    %name = llvm.mlir.addressof @flag : !llvm.ptr
    %path = llvm.call @getenv(%name) : (!llvm.ptr) -> !llvm.ptr
    %mode = arith.constant 448 : i32
    %made = llvm.call @mkdir(%path, %mode) : (!llvm.ptr, i32) -> i32
    %ok = arith.cmpi eq, %made, %zero : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %next = arith.select %ok, %one, %two : i32
    llvm.store %next, %stateAddress : i32, !llvm.ptr
  }
  %now = llvm.load %stateAddress : !llvm.ptr -> i32
  %two = arith.constant 2 : i32
  %late = arith.cmpi eq, %now, %two : i32
  scf.if %late {
    llvm.call @abort() : () -> ()
  }
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 64 iter_args(%acc = %c0) -> f32 {
    %in = affine.for %j = 0 to 32 iter_args(%a2 = %acc) -> f32 {
      %v = affine.load %x[%i, %j] : memref<64x32xf32>
      %s = arith.addf %a2, %v : f32
      affine.yield %s : f32
    }
    affine.yield %in : f32
  }
  return %r : f32
}
