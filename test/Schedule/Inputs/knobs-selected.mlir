module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %ti = transform.tune.knob<"tile_i"> = 4 from options = [2, 4, 8] -> !transform.param<i64>
    %tj = transform.tune.knob<"tile_j"> options = [4, 8, 16] -> !transform.param<i64>
    %tiled, %loops:2 = transform.structured.tile_using_for %mm tile_sizes [%ti, %tj, 0] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
