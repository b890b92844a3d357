/* mlir_driver.c - Calls a compiled MLIR kernel the way the C references run.
 *
 *   mlir_driver LIB.so FUNCTION SHAPES COMPARED [--reps N] [--min-time S]
 *               [--dump FILE]
 *
 * LIB.so holds `_mlir_ciface_FUNCTION`, lowered so that it takes only
 * memrefs (results appended as out-params) and returns nothing. SHAPES lists
 * every f32 buffer in argument order, e.g. "1024x1024,1024x1024,1024x1024";
 * COMPARED lists the indices of the buffers that are outputs, e.g. "2".
 * Buffer b is filled with bench_value(b, i), exactly as the C reference
 * fills its arrays, so `--dump` outputs of both can be compared element by
 * element; without --dump the function is timed with the same protocol.
 */
#include "common.h"

#include <dlfcn.h>

#define MAX_BUFFERS 8
#define MAX_RANK 8

typedef void *P;

/* Calls `function` with the `count` descriptor pointers in `a`. */
static void call_function(void *function, P *a, unsigned count) {
  switch (count) {
  case 1:
    ((void (*)(P))function)(a[0]);
    break;
  case 2:
    ((void (*)(P, P))function)(a[0], a[1]);
    break;
  case 3:
    ((void (*)(P, P, P))function)(a[0], a[1], a[2]);
    break;
  case 4:
    ((void (*)(P, P, P, P))function)(a[0], a[1], a[2], a[3]);
    break;
  case 5:
    ((void (*)(P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4]);
    break;
  case 6:
    ((void (*)(P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
  case 7:
    ((void (*)(P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4],
                                              a[5], a[6]);
    break;
  case 8:
    ((void (*)(P, P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4],
                                                 a[5], a[6], a[7]);
    break;
  }
}

struct kernel {
  void *function;
  unsigned count;
  P args[MAX_BUFFERS];
};

static void call(void *context) {
  struct kernel *k = (struct kernel *)context;
  call_function(k->function, k->args, k->count);
}

static void fail(const char *message, const char *detail) {
  fprintf(stderr, "mlir_driver: %s%s\n", message, detail ? detail : "");
  exit(2);
}

int main(int argc, char **argv) {
  struct bench_options options = {5, 0.02, NULL};
  const char *positional[4];
  int num_positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (bench_parse_option(argc, argv, &i, &options))
      continue;
    if (num_positional == 4)
      bench_usage(argv[0]);
    positional[num_positional++] = argv[i];
  }
  if (num_positional != 4) {
    fprintf(stderr,
            "usage: %s LIB.so FUNCTION SHAPES COMPARED [--reps N] "
            "[--min-time S] [--dump FILE]\n",
            argv[0]);
    return 2;
  }
  const char *library = positional[0], *name = positional[1];

  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    fail("cannot load the kernel library: ", dlerror());
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "_mlir_ciface_%s", name);
  struct kernel kernel = {dlsym(handle, symbol), 0, {0}};
  if (!kernel.function)
    fail("no such symbol in the kernel library: ", symbol);

  /* One descriptor {allocated, aligned, offset, sizes, strides} per buffer. */
  static int64_t descriptors[MAX_BUFFERS][3 + 2 * MAX_RANK];
  float *data[MAX_BUFFERS];
  size_t counts[MAX_BUFFERS];
  char shapes[4096];
  snprintf(shapes, sizeof(shapes), "%s", positional[2]);
  for (char *save = NULL, *shape = strtok_r(shapes, ",", &save); shape;
       shape = strtok_r(NULL, ",", &save)) {
    if (kernel.count == MAX_BUFFERS)
      fail("too many buffers", NULL);
    int64_t sizes[MAX_RANK];
    int rank = 0;
    for (char *dims = NULL, *dim = strtok_r(shape, "x", &dims); dim;
         dim = strtok_r(NULL, "x", &dims)) {
      char *end = NULL;
      long long size = strtoll(dim, &end, 10);
      if (*end || size <= 0 || rank == MAX_RANK)
        fail("bad shape (want e.g. 64x32, rank 1 to 8): ", positional[2]);
      sizes[rank++] = size;
    }
    if (rank == 0)
      fail("empty shape in: ", positional[2]);
    unsigned b = kernel.count++;
    size_t count = 1;
    for (int d = 0; d < rank; ++d)
      count *= (size_t)sizes[d];
    counts[b] = count;
    data[b] = bench_buffer(count, b);
    int64_t *desc = descriptors[b];
    desc[0] = desc[1] = (int64_t)(intptr_t)data[b];
    desc[2] = 0;
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      desc[3 + d] = sizes[d];
      desc[3 + rank + d] = stride;
      stride *= sizes[d];
    }
    kernel.args[b] = desc;
  }

  struct bench_output outputs[MAX_BUFFERS];
  unsigned num_outputs = 0;
  char compared[256];
  snprintf(compared, sizeof(compared), "%s", positional[3]);
  for (char *save = NULL, *index = strtok_r(compared, ",", &save); index;
       index = strtok_r(NULL, ",", &save)) {
    char *end = NULL;
    long b = strtol(index, &end, 10);
    if (*end || b < 0 || b >= (long)kernel.count)
      fail("bad compared buffer index in: ", positional[3]);
    outputs[num_outputs].data = data[b];
    outputs[num_outputs].count = counts[b];
    ++num_outputs;
  }
  /* The library stays loaded: an OpenMP runtime it pulled in may still own
   * threads at exit. */
  return bench_execute(name, &options, call, &kernel, outputs, num_outputs);
}
