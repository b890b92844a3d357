/* convolution.c - C reference for kernels/convolution.mlir: a direct NCHW
 * convolution with bias, stride 1, no padding,
 *   out[n][f][y][x] = bias[f]
 *       + sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx]
 * N = 8, C = 3, F = 2, H = W = 1024, K = 3, in the MLIR kernel's order:
 * broadcast the bias, then linalg.conv_2d_nchw_fchw's loops
 * (n, f, y, x, c, ky, kx). conv_relu.c includes this file with CONV_RELU
 * defined to add the ReLU pass of kernels/conv_relu.mlir. A file that
 * defines BN, BC, BF, BH, BW, BK and KERNEL_NAME before including it gets
 * the same convolution on other sizes (the smoke test's small_conv).
 *
 * Built with -DUSE_DNNL it runs a oneDNN (2.x C API) convolution primitive
 * instead: forward inference, direct algorithm, f32, plain NCHW source and
 * destination and OIHW weights on the same buffers (no reorders), the bias
 * as the primitive's bias and, for conv_relu, ReLU as an eltwise post-op.
 * oneDNN picks its implementation (printed as a '# implementation:' line);
 * its threads follow OMP_NUM_THREADS. Link -ldnnl.
 * Buffers: in = 0, w = 1, bias = 2, result = 3. */
#include "common.h"
#ifdef USE_DNNL
#include <dnnl.h>
#endif

#ifndef BN
#define BN 8
#define BC 3
#define BF 2
#define BH 1024
#define BW 1024
#define BK 3
#endif

#ifndef KERNEL_NAME
#ifdef CONV_RELU
#define KERNEL_NAME "conv_relu"
#else
#define KERNEL_NAME "convolution"
#endif
#endif

static float *IN, *W, *BIAS, *OUT;

#ifdef USE_DNNL
static dnnl_engine_t ENGINE;
static dnnl_stream_t STREAM;
static dnnl_primitive_t CONV;
static dnnl_exec_arg_t ARGS[4];

static void dnnl_check(dnnl_status_t status, const char *what) {
  if (status != dnnl_success) {
    fprintf(stderr, "%s: %s failed (dnnl status %d)\n", KERNEL_NAME, what,
            (int)status);
    exit(2);
  }
}

static dnnl_memory_t dnnl_buffer(int ndims, const dnnl_dims_t dims,
                                 dnnl_format_tag_t tag, float *data,
                                 dnnl_memory_desc_t *desc) {
  dnnl_memory_t memory;
  dnnl_check(dnnl_memory_desc_init_by_tag(desc, ndims, dims, dnnl_f32, tag),
             "dnnl_memory_desc_init_by_tag");
  dnnl_check(dnnl_memory_create(&memory, desc, ENGINE, data),
             "dnnl_memory_create");
  return memory;
}

/* Creates the primitive on the benchmark's buffers; prints the
 * implementation oneDNN chose. */
static void dnnl_setup(void) {
  dnnl_check(dnnl_engine_create(&ENGINE, dnnl_cpu, 0), "dnnl_engine_create");
  dnnl_check(dnnl_stream_create(&STREAM, ENGINE, dnnl_stream_default_flags),
             "dnnl_stream_create");
  dnnl_dims_t src_dims = {BN, BC, BH + BK - 1, BW + BK - 1};
  dnnl_dims_t w_dims = {BF, BC, BK, BK};
  dnnl_dims_t b_dims = {BF};
  dnnl_dims_t dst_dims = {BN, BF, BH, BW};
  dnnl_memory_desc_t src_md, w_md, b_md, dst_md;
  ARGS[0].arg = DNNL_ARG_SRC;
  ARGS[0].memory = dnnl_buffer(4, src_dims, dnnl_nchw, IN, &src_md);
  ARGS[1].arg = DNNL_ARG_WEIGHTS;
  ARGS[1].memory = dnnl_buffer(4, w_dims, dnnl_oihw, W, &w_md);
  ARGS[2].arg = DNNL_ARG_BIAS;
  ARGS[2].memory = dnnl_buffer(1, b_dims, dnnl_x, BIAS, &b_md);
  ARGS[3].arg = DNNL_ARG_DST;
  ARGS[3].memory = dnnl_buffer(4, dst_dims, dnnl_nchw, OUT, &dst_md);
  dnnl_dims_t strides = {1, 1}, padding = {0, 0};
  dnnl_convolution_desc_t desc;
  dnnl_check(dnnl_convolution_forward_desc_init(
                 &desc, dnnl_forward_inference, dnnl_convolution_direct,
                 &src_md, &w_md, &b_md, &dst_md, strides, padding, padding),
             "dnnl_convolution_forward_desc_init");
  dnnl_primitive_attr_t attr;
  dnnl_check(dnnl_primitive_attr_create(&attr), "dnnl_primitive_attr_create");
#ifdef CONV_RELU
  dnnl_post_ops_t ops;
  dnnl_check(dnnl_post_ops_create(&ops), "dnnl_post_ops_create");
  dnnl_check(dnnl_post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_relu, 0.0f,
                                          0.0f),
             "dnnl_post_ops_append_eltwise");
  dnnl_check(dnnl_primitive_attr_set_post_ops(attr, ops),
             "dnnl_primitive_attr_set_post_ops");
  dnnl_post_ops_destroy(ops);
#endif
  dnnl_primitive_desc_t pd;
  dnnl_check(dnnl_primitive_desc_create(&pd, &desc, attr, ENGINE, NULL),
             "dnnl_primitive_desc_create");
  const char *impl = NULL;
  dnnl_check(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl),
             "dnnl_primitive_desc_query");
  printf("# implementation: %s\n", impl ? impl : "?");
  dnnl_check(dnnl_primitive_create(&CONV, pd), "dnnl_primitive_create");
  dnnl_primitive_desc_destroy(pd);
  dnnl_primitive_attr_destroy(attr);
}

static void call(void *context) {
  (void)context;
  dnnl_check(dnnl_primitive_execute(CONV, STREAM, 4, ARGS),
             "dnnl_primitive_execute");
  dnnl_check(dnnl_stream_wait(STREAM), "dnnl_stream_wait");
}
#else
__attribute__((noinline)) static void
convolution(const float (*restrict in)[BC][BH + BK - 1][BW + BK - 1],
            const float (*restrict w)[BC][BK][BK], const float *restrict bias,
            float (*restrict out)[BF][BH][BW]) {
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          out[n][f][y][x] = bias[f];
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          for (int c = 0; c < BC; ++c)
            for (int ky = 0; ky < BK; ++ky)
              for (int kx = 0; kx < BK; ++kx)
                out[n][f][y][x] += in[n][c][y + ky][x + kx] * w[f][c][ky][kx];
#ifdef CONV_RELU
  for (int n = 0; n < BN; ++n)
    for (int f = 0; f < BF; ++f)
      for (int y = 0; y < BH; ++y)
        for (int x = 0; x < BW; ++x)
          out[n][f][y][x] = fmaxf(out[n][f][y][x], 0.0f);
#endif
}

static void call(void *context) {
  (void)context;
  convolution((const float(*)[BC][BH + BK - 1][BW + BK - 1]) IN,
              (const float(*)[BC][BK][BK])W, BIAS, (float(*)[BF][BH][BW])OUT);
}
#endif

int main(int argc, char **argv) {
  IN = bench_buffer((size_t)BN * BC * (BH + BK - 1) * (BW + BK - 1), 0);
  W = bench_buffer((size_t)BF * BC * BK * BK, 1);
  BIAS = bench_buffer(BF, 2);
  OUT = bench_buffer((size_t)BN * BF * BH * BW, 3);
#ifdef USE_DNNL
  dnnl_setup();
#endif
  struct bench_output outputs[] = {{OUT, (size_t)BN * BF * BH * BW}};
  return bench_main(argc, argv, KERNEL_NAME, call, NULL, outputs, 1);
}
