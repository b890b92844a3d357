/* driver.c - Times a Halide pipeline compiled ahead of time (a generator's
 * static library) like the C references: the timing protocol, the
 * deterministic inputs and the output dumps of reference/common.h.
 *
 *   cc -DHALIDE_FUNCTION=<name> -I benchmarks/reference -I <Halide include>
 *      driver.c <name>.a -lpthread -ldl -lm
 *   ./driver SHAPES [--reps N] [--min-time S] [--dump FILE]
 *
 * SHAPES lists the buffers' shapes, outermost dimension first, as run.py
 * passes them to mlir_driver ("1024x1024,1024x1024,1024x1024"): the
 * pipeline's input buffers in order, then its outputs. Buffer b of that list
 * is filled with bench_value(b, i) at its flat row-major index i (Halide's
 * dimension 0 is the last extent), so the pipeline sees the inputs of the C
 * reference; the outputs, in order, are what --dump writes. The pipeline's
 * arguments (all f32 buffers, no scalars) come from its metadata. */
#include "common.h"

#include "HalideRuntime.h"

#define BENCH_CAT2(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT2(a, b)
#define BENCH_STR2(a) #a
#define BENCH_STR(a) BENCH_STR2(a)

#ifndef HALIDE_FUNCTION
#error "define HALIDE_FUNCTION to the pipeline's function name"
#endif

int BENCH_CAT(HALIDE_FUNCTION, _argv)(void **args);
const struct halide_filter_metadata_t *BENCH_CAT(HALIDE_FUNCTION,
                                                 _metadata)(void);

#define MAX_BUFFERS 16
#define MAX_RANK 8

static struct halide_buffer_t BUFFERS[MAX_BUFFERS];
static struct halide_dimension_t DIMS[MAX_BUFFERS][MAX_RANK];
static void *ARGV[MAX_BUFFERS];

static void call(void *context) {
  (void)context;
  int status = BENCH_CAT(HALIDE_FUNCTION, _argv)(ARGV);
  if (status != 0) {
    fprintf(stderr, "%s failed with status %d\n", BENCH_STR(HALIDE_FUNCTION),
            status);
    exit(2);
  }
}

static void usage(const char *program) {
  fprintf(stderr,
          "usage: %s SHAPES [--reps N (>= 5)] [--min-time SECONDS] "
          "[--dump FILE]\n",
          program);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    usage(argv[0]);
  struct bench_options options = {5, 0.02, NULL};
  for (int i = 2; i < argc; ++i)
    if (!bench_parse_option(argc, argv, &i, &options))
      usage(argv[0]);

  /* The shapes, outermost first. */
  int ranks[MAX_BUFFERS] = {0};
  int64_t extents[MAX_BUFFERS][MAX_RANK];
  int num_shapes = 0;
  for (const char *p = argv[1]; *p;) {
    if (num_shapes == MAX_BUFFERS) {
      fprintf(stderr, "more than %d shapes in '%s'\n", MAX_BUFFERS, argv[1]);
      return 2;
    }
    for (;;) {
      char *end;
      long extent = strtol(p, &end, 10);
      if (end == p || extent <= 0 || ranks[num_shapes] == MAX_RANK) {
        fprintf(stderr, "bad shapes '%s'\n", argv[1]);
        return 2;
      }
      extents[num_shapes][ranks[num_shapes]++] = extent;
      p = end;
      if (*p != 'x')
        break;
      ++p;
    }
    ++num_shapes;
    if (*p == ',')
      ++p;
    else if (*p) {
      fprintf(stderr, "bad shapes '%s'\n", argv[1]);
      return 2;
    }
  }

  /* Buffer numbers: the inputs in the metadata's order, then the outputs. */
  const struct halide_filter_metadata_t *metadata =
      BENCH_CAT(HALIDE_FUNCTION, _metadata)();
  int num_args = metadata->num_arguments;
  if (num_args != num_shapes || num_args > MAX_BUFFERS) {
    fprintf(stderr, "%s takes %d arguments, %d shapes given\n",
            BENCH_STR(HALIDE_FUNCTION), num_args, num_shapes);
    return 2;
  }
  int number[MAX_BUFFERS];
  int next = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int a = 0; a < num_args; ++a) {
      const struct halide_filter_argument_t *arg = &metadata->arguments[a];
      int kind = pass == 0 ? halide_argument_kind_input_buffer
                           : halide_argument_kind_output_buffer;
      if (arg->kind == kind)
        number[a] = next++;
    }
  if (next != num_args) {
    fprintf(stderr, "%s has scalar arguments\n", BENCH_STR(HALIDE_FUNCTION));
    return 2;
  }

  struct bench_output outputs[MAX_BUFFERS];
  unsigned num_outputs = 0;
  for (int b = 0; b < num_args; ++b) {
    int a = 0;
    while (number[a] != b)
      ++a;
    const struct halide_filter_argument_t *arg = &metadata->arguments[a];
    if (arg->type.code != halide_type_float || arg->type.bits != 32 ||
        arg->dimensions != ranks[b]) {
      fprintf(stderr, "%s: argument '%s' is not a %d-D f32 buffer\n",
              BENCH_STR(HALIDE_FUNCTION), arg->name, ranks[b]);
      return 2;
    }
    size_t count = 1;
    int rank = ranks[b];
    for (int d = 0; d < rank; ++d) {
      int64_t extent = extents[b][rank - 1 - d];
      DIMS[b][d].min = 0;
      DIMS[b][d].extent = (int32_t)extent;
      DIMS[b][d].stride = (int32_t)count;
      DIMS[b][d].flags = 0;
      count *= (size_t)extent;
    }
    float *data = bench_buffer(count, (unsigned)b);
    struct halide_buffer_t *buffer = &BUFFERS[b];
    memset(buffer, 0, sizeof *buffer);
    buffer->host = (uint8_t *)data;
    buffer->type = arg->type;
    buffer->dimensions = rank;
    buffer->dim = DIMS[b];
    ARGV[a] = buffer;
    if (arg->kind == halide_argument_kind_output_buffer) {
      outputs[num_outputs].data = data;
      outputs[num_outputs].count = count;
      ++num_outputs;
    }
  }
  return bench_execute(BENCH_STR(HALIDE_FUNCTION), &options, call, NULL,
                       outputs, num_outputs);
}
