module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tune.knob<"tile"> options = [2, 4, 8] -> !transform.param<i64>
    transform.tune.alternatives<"pick"> selected_region = 2 {
    }, {
    }
    transform.yield
  }
}
