//===- TunerTransformOps.td - The tuner's transform ops ----*- tablegen -*-===//
//
// Transform-dialect ops for affine loop nests, which upstream cannot tile,
// interchange or parallelize from a transform script. They wrap the affine
// LoopUtils (tilePerfectlyNested, permuteLoops, affineParallelize) and check
// legality the way the affine passes do.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TRANSFORM_OPS
#define TUNER_TRANSFORM_OPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def Tuner_AffineNestOp : Op<Transform_Dialect, "tuner.affine_nest",
    [NavigationTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "The index-th outermost affine.for of a function";
  let description = [{
    Returns, for each op of `target`, its `index`-th outermost `affine.for`
    (one not nested in another `affine.for`), counting in program order from
    0. This is how the tuner's schedules find an affine loop nest again: its
    `opIndex` in the ProgramTree.

    Example:
    ```
    %nest = transform.tuner.affine_nest %func index = 1
        : (!transform.any_op) -> !transform.any_op
    ```

    #### Return modes

    Reads the target handle and produces a new one. Fails silenceably when a
    target has fewer than `index + 1` outermost affine loops.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $target `index` `=` $index attr-dict `:` functional-type(operands, results)
  }];

  let cppNamespace = "::tuner::transform";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def Tuner_AffineInterchangeOp : Op<Transform_Dialect, "tuner.affine_interchange",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Reorders the perfectly nested band of an affine.for";
  let description = [{
    Permutes the first `permutation.size()` loops of the perfect band rooted
    at each target `affine.for`: after the transform, position `i` (outermost
    first) holds the loop that was at position `permutation[i]`, the same
    convention as `interchange` in `transform.structured.tile_using_for`.
    Legality is checked with the affine dependence analysis
    (`isValidLoopInterchangePermutation`).

    Returns the new outermost loop of the band.

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for`, its perfect band is shorter than the permutation, or the
    permutation would violate a dependence.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $target `permutation` `=` $permutation attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;

  let cppNamespace = "::tuner::transform";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def Tuner_AffineTileOp : Op<Transform_Dialect, "tuner.affine_tile",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Tiles the perfectly nested band of an affine.for";
  let description = [{
    Tiles the first `tile_sizes.size()` loops of the perfect band rooted at
    each target `affine.for` with the affine `tilePerfectlyNested` utility.
    A size of 0 leaves that loop untiled (it is tiled by its constant trip
    count and the single-iteration tile loop is promoted away).

    Results, outermost first: one handle per tile loop (loops with a non-zero
    size), then one handle per point loop (one per band loop). With all sizes
    0 nothing is transformed and the results are the band's loops.

    Example:
    ```
    %l:5 = transform.tuner.affine_tile %nest tile_sizes [32, 0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
           !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for`, its perfect band is shorter than `tile_sizes`, a loop with
    size 0 has no constant trip count, or the band is not hyper-rectangular.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$tile_sizes);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $target `tile_sizes` $tile_sizes attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;

  let cppNamespace = "::tuner::transform";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def Tuner_AffineParallelizeOp : Op<Transform_Dialect, "tuner.affine_parallelize",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Turns a dependence-free affine.for into an affine.parallel";
  let description = [{
    Converts each target `affine.for` that carries no dependence (affine
    dependence analysis, `isLoopParallel`) into an `affine.parallel` with
    `affineParallelize`. Returns the new `affine.parallel` ops.

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for` or carries a dependence.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$parallel);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];

  let cppNamespace = "::tuner::transform";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def Tuner_VectorizeTilesOp : Op<Transform_Dialect, "tuner.vectorize_tiles",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Turns the innermost tiles of a tiled linalg nest into a "
                "register micro-kernel";
  let description = [{
    Takes the outermost loop a tiling generated for a linalg op (or the op
    itself when it was not tiled) and, inside it:

    1. peels every `scf.for` whose step does not divide its trip count
       (outermost first, the remainders included), so that every full tile
       has a static shape and only the remainders are partial (tile sizes
       need not divide the extents);
    2. canonicalizes, so that tiles of static size get static types;
    3. vectorizes every linalg op of static shape inside (contractions as
       `vector.contract`), fused producers included; a partial tile whose
       size is only known at run time (the last tile of an `scf.forall`) is
       first cut into slices of size 1 along its dynamic loops; an op of
       more than 4096 iteration points, or one the vectorizer cannot handle,
       stays scalar;
    4. hoists the vector transfers and tensor slices that every iteration
       of a loop reads and writes at the same place out of that loop
       (`hoistLoopInvariantSubsets` on tensors, innermost loops first;
       `hoistRedundantVectorTransfers` on buffers): a contraction's
       accumulator tile stays in registers across its reduction loop;
    5. lowers `vector.contract` with `lowering` ("outerproduct", "dot",
       "llvmintr" or "parallelarith") and the transfer permutations;
    6. unrolls each innermost remaining `scf.for` by `unroll` (1: not).

    Example:
    ```
    transform.tuner.vectorize_tiles %loop {lowering = "outerproduct",
                                           unroll = 4} : !transform.any_op
    ```

    #### Return modes

    Consumes the target handle (the ops inside are rewritten). Fails
    silenceably when no linalg op inside could be vectorized.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<StrAttr, "\"outerproduct\"">:$lowering,
                       DefaultValuedAttr<I64Attr, "1">:$unroll);
  let results = (outs);
  let assemblyFormat = [{
    $target attr-dict `:` type($target)
  }];
  let hasVerifier = 1;

  let cppNamespace = "::tuner::transform";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

#endif // TUNER_TRANSFORM_OPS
