// Tiles the matmul over a 2x2 scf.forall, tiles again for registers and
// vectorizes: what a tuned candidate looks like.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %mm
        tile_sizes [8, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %inner, %loops:3 = transform.structured.tile_using_for %tiled
        tile_sizes [4, 8, 4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
    transform.structured.vectorize %inner : !transform.any_op
    transform.yield
  }
}
