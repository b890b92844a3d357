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

    A band that is not hyper-rectangular, but whose loops each run from one
    affine function of the outer band loops to another (a band skewed by
    `transform.tuner.affine_skew`), is tiled with rectangular tiles of the
    skewed space: a tile loop walks the tile origins (multiples of its size)
    from the smallest to the largest value its loop takes within the outer
    tiles, and a point loop runs from the larger of its tile origin and its
    own lower bound to the smaller of the tile end and its upper bound. A
    loop of size 0 then gets no tile loop at all. Such tiling is only legal
    when the band is fully permutable, which is checked with the affine
    dependence analysis (every dependence distance must be non-negative on
    every band loop). Its tile loops count tiles (step 1; the point loops
    multiply by the size).

    With `wavefront` (at least two loops tiled), the band is tiled that way
    whether it is hyper-rectangular or not (and must be fully permutable),
    and the tile loops of the first two tiled loops, `a` and `b`, become a
    sequential loop over the wavefronts `w = a + b` and, inside it, an
    `affine.parallel` over the tiles of one wavefront (`b = w - a`, under an
    `affine.if` that keeps `b` within its bounds). Since every dependence
    distance is non-negative, a tile depends only on tiles with smaller or
    equal `a` and `b`, all on earlier wavefronts: the tiles of one wavefront
    run in parallel (Pluto's wavefront of tiles). The first two results are
    then the wavefront loop and the `affine.parallel`.

    Example (seidel-2d, skewed):
    ```
    %l:5 = transform.tuner.affine_tile %skewed tile_sizes [4, 32, 0] wavefront
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
           !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Example:
    ```
    %l:5 = transform.tuner.affine_tile %nest tile_sizes [32, 0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
           !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for`, its perfect band is shorter than `tile_sizes`, a loop with
    size 0 of a hyper-rectangular band has no constant trip count, or the
    band is neither hyper-rectangular nor bounded by single affine functions
    of its outer loops with steps of 1, or tiling it would reverse a
    dependence, or `wavefront` is set with fewer than two tiled loops.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$tile_sizes,
                       UnitAttr:$wavefront);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $target `tile_sizes` $tile_sizes (`wavefront` $wavefront^)? attr-dict
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

def Tuner_AffineUnrollOp : Op<Transform_Dialect, "tuner.affine_unroll",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Unrolls an affine.for, including a partial tile's point loop";
  let description = [{
    Unrolls each target `affine.for` by `factor` with the affine
    `loopUnrollByFactor` utility, which leaves a cleanup loop for the
    iterations that do not fill an unrolled body.

    That utility cannot unroll a loop whose upper bound is a `min` (its
    cleanup loop would start at a `min`) unless its constant trip count is
    a multiple of the factor: the point loop of a tile over a loop whose
    trip count is not known, `affine.for %i = %t to min(%t + 32, %n)`. Such
    a loop, when one term of its upper bound lies a constant number of
    iterations after its lower bound (the full tile), is first versioned by
    an `affine.if` on whether that term is the smallest: the full tiles run
    a copy bounded by that term alone (a constant trip count), the others
    the loop bounded by the remaining terms. Both are then unrolled; a
    version whose bounds the utility still cannot take (several remaining
    terms) is left rolled, which is correct at every size.

    Example:
    ```
    transform.tuner.affine_unroll %loops#4 factor = 4 : !transform.any_op
    ```

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an `affine.for` or
    cannot be unrolled by `factor` (a constant trip count below the factor,
    bounds the utility does not take and no full tile to version).
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$factor);
  let results = (outs);
  let assemblyFormat = [{
    $target `factor` `=` $factor attr-dict `:` type($target)
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

def Tuner_AffineShiftFuseOp : Op<Transform_Dialect, "tuner.affine_shift_fuse",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Fuses the sibling loop nests inside a band, shifted so that "
                "no dependence runs backwards";
  let description = [{
    Takes the perfect band rooted at each target `affine.for` and fuses the
    loop nests in the body of its innermost loop (the sweeps of a time
    loop: `for t { for i {...} for i {...} }`) into one nest: their outer
    `depth` loops become one loop each, running over the union of their
    ranges, and each sibling's body runs at iteration `x + shift` for its
    own iteration `x`, under an `affine.if` where its range is smaller than
    the union. The shifts are the smallest non-negative ones that give every
    dependence between two siblings within one iteration of the band a
    non-negative distance on each fused loop (affine dependence analysis;
    PolyBench jacobi-2d's two sweeps get shifts 0 and 1), so the fusion is
    legal by construction; `shifts` (one list of `depth` values per sibling,
    flattened) gives them instead, and is checked against the dependences.

    Example (the sweeps of jacobi-2d):
    ```
    %fused = transform.tuner.affine_shift_fuse %time depth = 1
        : (!transform.any_op) -> !transform.any_op
    ```

    Returns the band's root, whose band now ends with the fused loops.

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for`, its innermost band loop holds anything but loop nests,
    a sibling has fewer than `depth` perfectly nested loops or loops with
    non-constant bounds or steps other than 1, the dependences cannot be
    measured, or the given shifts would reverse a dependence.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$depth,
                       OptionalAttr<DenseI64ArrayAttr>:$shifts);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $target `depth` `=` $depth (`shifts` `=` $shifts^)? attr-dict
    `:` functional-type(operands, results)
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

def Tuner_AffineSkewOp : Op<Transform_Dialect, "tuner.affine_skew",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Skews the perfectly nested band of an affine.for so that it "
                "becomes fully permutable";
  let description = [{
    Skews the first `depth` loops of the perfect band rooted at each target
    `affine.for`: the band's iteration `x` becomes `y = M x` for the
    unit lower-triangular integer matrix `M` of `skew` (an affine map whose
    result k is `d_k` plus a combination of `d_0 .. d_{k-1}`), so each loop
    runs over its range shifted by the outer loops, and the body reads the
    original indices back from `x = M^-1 y`. Such a skew keeps the order of
    the iterations, so it is always legal; what it changes is the sign of
    the dependence distances. Without `skew`, the op computes the smallest
    non-negative skew that makes every dependence distance non-negative on
    every band loop (from the affine dependence analysis; seidel-2d's
    `(t, i, j)` becomes `(t, t + i, 2t + i + j)`).

    After skewing, the dependences of the new band are measured again: every
    distance must be non-negative on every band loop (the band is fully
    permutable, so `transform.tuner.affine_tile` may tile all of it and run
    its tiles as a wavefront),
    or the op fails naming the dependence.

    The band loops must have constant bounds and step 1.

    Example:
    ```
    %skewed = transform.tuner.affine_skew %nest depth = 3
        : (!transform.any_op) -> !transform.any_op
    %skewed = transform.tuner.affine_skew %nest depth = 3
        skew = affine_map<(t, i, j) -> (t, t + i, t * 2 + i + j)>
        : (!transform.any_op) -> !transform.any_op
    ```

    Returns the band's root.

    #### Return modes

    Consumes the target handle. Fails silenceably when a target is not an
    `affine.for`, its perfect band is shorter than `depth` or has a loop
    with non-constant bounds or a step other than 1, no skew makes it fully
    permutable, or the skewed band (with the given `skew`) is not fully
    permutable.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$depth,
                       OptionalAttr<AffineMapAttr>:$skew);
  let results = (outs TransformHandleTypeInterface:$loop);
  let assemblyFormat = [{
    $target `depth` `=` $depth (`skew` `=` $skew^)? attr-dict
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

def Tuner_InterchangeForallOp : Op<Transform_Dialect, "tuner.interchange_forall",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Reorders the induction variables of an scf.forall in place";
  let description = [{
    Permutes the induction variables of each target `scf.forall` in place:
    after the transform, position `i` (outermost first) holds the one that
    was at position `permutation[i]`, the same convention as `interchange`
    in `transform.structured.tile_using_for`. The iterations are the same
    (an `scf.forall` runs them in any order), but the loops that lower it
    (`scf.parallel`, then OpenMP's collapsed loop nest, whose iterations the
    threads take in contiguous chunks) follow the new order, which decides
    which tiles run one after the other on a core and so what they share in
    its caches. `transform.structured.tile_using_forall` orders the
    induction variables as the op's loops; this op gives a tiled nest the
    loop order of its schedule. A mapping, if any, is permuted alike. The op
    stays the same (handles to it and to the ops in it stay valid).

    Example:
    ```
    transform.tuner.interchange_forall %f permutation = [0, 2, 1, 3]
        : !transform.any_op
    ```

    #### Return modes

    Reads the target handle. Fails silenceably when a target is not an
    `scf.forall` or the permutation's size is not its number of induction
    variables.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs);
  let assemblyFormat = [{
    $target `permutation` `=` $permutation attr-dict `:` type($target)
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

def Tuner_VectorizeTilesOp : Op<Transform_Dialect, "tuner.vectorize_tiles",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Turns the innermost tiles of a tiled linalg nest into a "
                "register micro-kernel";
  let description = [{
    Takes the outermost loop a tiling generated for a linalg op (or the op
    itself when it was not tiled) and, inside it:

    1. versions the body of an `scf.forall` target whose last tiles are
       partial (`scf.if` the tile is full: the body with static tile sizes;
       else the body as it was, or with `partial = "pad"` the body on full
       tiles again, computed on the tile's slices of the operands padded
       high with zeros to the full tile and cut back to the partial tile
       afterwards: the remainder runs the same micro-kernel as full tiles;
       padding applies only where legal — tensors, the sizes used only as
       slice sizes of the operands, no integer division in the
       computation — else the body stays as it was; the tile's slice of
       each shared output that the tile writes back is taken before the
       `scf.if`, and both versions compute in place of it, so that
       bufferization copies no tile into the output), then peels every
       `scf.for` whose step does not divide its trip count (outermost
       first, the remainders included), so that every full tile has a
       static shape and only the remainders are partial (tile sizes need
       not divide the extents);
    2. canonicalizes, so that tiles of static size get static types; with
       `pad_remainders`, a contraction of static shape whose output's
       innermost (parallel) extent is a remainder — no power of two, and
       smaller than the power of two that another contraction inside has
       there (29 columns peeled beside 32-column register tiles) — is
       padded with zeros along that loop to the next power of two and cut
       back, so that it runs the full micro-kernel with masked transfers at
       the edge instead of vectors of 29 lanes;
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
    transform.tuner.vectorize_tiles %forall {partial = "pad",
                                             pad_remainders = true}
        : !transform.any_op
    ```

    #### Return modes

    Consumes the target handle (the ops inside are rewritten). Fails
    silenceably when no linalg op inside could be vectorized.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<StrAttr, "\"outerproduct\"">:$lowering,
                       DefaultValuedAttr<I64Attr, "1">:$unroll,
                       DefaultValuedAttr<StrAttr, "\"peel\"">:$partial,
                       DefaultValuedAttr<BoolAttr, "false">:$pad_remainders);
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

def Tuner_FuseWindowProducerOp : Op<Transform_Dialect, "tuner.fuse_window_producer",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "Fuses a producer read through windows into a tile loop, "
                "computing the union of the windows once per tile";
  let description = [{
    A stencil stage that reads its previous stage at shifted offsets
    (`tensor.extract_slice` windows of the producer's result, as in a
    separable blur: `out[y] = bx[y] + bx[y + 1] + bx[y + 2]`) reads, once
    tiled, several overlapping slices of the producer per tile. Upstream's
    `fuse_into_containing_op` fuses one copy of the producer per slice;
    this op computes the producer once per tile on the bounding box of the
    slices (the tile plus its halo, recomputed by neighbouring tiles, as
    Halide's `compute_at` does), and reads every slice from that box.

    The slices are found through chains of unit-stride, rank-preserving
    `tensor.extract_slice` ops from the producer's result to the slices
    inside `containing_op`; their offsets must differ by constants and their
    sizes must be equal. The box is built with the producer's
    `TilingInterface` before the first slice (all slices must be in one
    block). The producer and the slices outside the loop are erased when
    nothing else uses them. Returns the tiled producer and the containing
    op.

    Example:
    ```
    %fused, %loop2 = transform.tuner.fuse_window_producer %bx into %loop
        : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Consumes the producer handle and only reads the containing op's (the
    handles to ops inside it stay valid). Fails silenceably when the
    producer is not one tileable op with one ranked tensor result, has no
    slice inside the containing op, or
    its slices differ in size or by offsets that are not constant.
  }];

  let arguments = (ins TransformHandleTypeInterface:$producer_op,
                       TransformHandleTypeInterface:$containing_op);
  let results = (outs TransformHandleTypeInterface:$fused_op,
                      TransformHandleTypeInterface:$new_containing_op);
  let assemblyFormat = [{
    $producer_op `into` $containing_op attr-dict `:` functional-type(operands, results)
  }];

  let cppNamespace = "::tuner::transform";
}

def Tuner_GpuFinalizeOp : Op<Transform_Dialect, "tuner.gpu_finalize",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Makes a bufferized function with gpu.launch ops run on "
                "device buffers only";
  let description = [{
    The last step of a GPU schedule, on the module (or a function) after
    bufferization and `map_forall_to_blocks` / `map_nested_forall_to_threads`:

    1. the memref results of each function become out-params appended to
       its arguments (upstream's buffer-results-to-out-params, static
       allocations hoisted, as the CPU lowering does); a result that is
       not an allocation is copied into its out-param by a copy kernel;
    2. every other copy outside a `gpu.launch` (`linalg.copy`,
       `memref.copy`) becomes a copy kernel: one thread per element, 256
       threads per block;
    3. every `memref.alloc` outside a `gpu.launch` becomes a `gpu.alloc`
       (freed by `gpu.dealloc` before each return): the function's buffers
       are device buffers;
    4. every `memref.alloc` in the workgroup address space inside a
       `gpu.launch` (promoted operands) becomes a workgroup attribution of
       the launch (static shared memory); its deallocations are dropped.

    #### Return modes

    Consumes the target handle. Fails silenceably, naming the op, when an
    allocation outside a launch is not in a function's entry block or has a
    dynamic shape, or a workgroup allocation has a dynamic shape.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = [{
    $target attr-dict `:` type($target)
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

#endif // TUNER_TRANSFORM_OPS
