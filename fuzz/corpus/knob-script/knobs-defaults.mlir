// Knobs with selected values (the parameters' defaults), a geometric and a
// linear option list.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tm = transform.tune.knob<"tile_m"> = 8 from options = [4, 8, 16] -> !transform.param<i64>
    %u = transform.tune.knob<"unroll"> options = [1, 2, 3, 4] -> !transform.param<i64>
    %s = transform.tune.knob<"scale"> = 2.500000e-01 from options = [2.500000e-01, 5.000000e-01, 1.000000e+00] -> !transform.any_param
    transform.tune.alternatives<"vectorize"> selected_region = 1 {
    }, {
    }
    transform.yield
  }
}
