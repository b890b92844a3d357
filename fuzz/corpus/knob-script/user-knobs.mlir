// A user's parameterized schedule: tile sizes and whether to vectorize are
// knobs the tuner may choose.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tm = transform.tune.knob<"tile_m"> options = [4, 8, 16] -> !transform.param<i64>
    %tn = transform.tune.knob<"tile_n"> options = [16, 8, 4] -> !transform.param<i64>
    %tk = transform.tune.knob<"tile_k"> options = [1, 2, 4] -> !transform.param<i64>
    %tiled, %l0, %l1, %l2 = transform.structured.tile_using_for %mm tile_sizes [%tm, %tn, %tk]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tune.alternatives<"vectorize"> {
      transform.structured.vectorize %tiled : !transform.any_op
    }, {
    }
    transform.yield
  }
}
