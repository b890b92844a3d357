module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tune.knob<"mixed"> options = [4, "eight"] -> !transform.any_param
    transform.yield
  }
}
