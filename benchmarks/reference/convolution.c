/* convolution.c - C reference for kernels/convolution.mlir: a direct NCHW
 * convolution with bias, stride 1, no padding,
 *   out[n][f][y][x] = bias[f]
 *       + sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx]
 * N = 8, C = 3, F = 2, H = W = 1024, K = 3, in the MLIR kernel's order:
 * broadcast the bias, then linalg.conv_2d_nchw_fchw's loops
 * (n, f, y, x, c, ky, kx). conv_relu.c includes this file with CONV_RELU
 * defined to add the ReLU pass of kernels/conv_relu.mlir. Built with
 * -DUSE_DNNL it runs oneDNN's forward convolution primitive instead (direct
 * algorithm, NCHW/OIHW in place of the kernel's buffers, the ReLU as an
 * eltwise post-op; link -ldnnl; threads follow OMP_NUM_THREADS).
 * Buffers: in = 0, w = 1, bias = 2, result = 3. */
#include "common.h"
#ifdef USE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

/* Sizes (and the kernel's name) may be set by a file that includes this
 * one, as the benchmark script's smoke test does. */
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
static dnnl_engine_t engine;
static dnnl_stream_t stream;
static dnnl_primitive_t conv;
static dnnl_exec_arg_t conv_args[4];

static void dnnl_check(dnnl_status_t status, const char *what) {
  if (status != dnnl_success) {
    fprintf(stderr, "oneDNN: %s failed (status %d)\n", what, (int)status);
    exit(2);
  }
}

/* The primitive, its memory objects over the kernel's buffers, once. */
static void dnnl_setup(void) {
  dnnl_check(dnnl_engine_create(&engine, dnnl_cpu, 0), "engine");
  dnnl_check(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags),
             "stream");
  dnnl_dims_t src_dims = {BN, BC, BH + BK - 1, BW + BK - 1};
  dnnl_dims_t w_dims = {BF, BC, BK, BK};
  dnnl_dims_t b_dims = {BF};
  dnnl_dims_t dst_dims = {BN, BF, BH, BW};
  dnnl_dims_t strides = {1, 1}, padding = {0, 0};
  dnnl_memory_desc_t src_md, w_md, b_md, dst_md;
  dnnl_check(dnnl_memory_desc_init_by_tag(&src_md, 4, src_dims, dnnl_f32,
                                          dnnl_nchw), "src desc");
  dnnl_check(dnnl_memory_desc_init_by_tag(&w_md, 4, w_dims, dnnl_f32,
                                          dnnl_oihw), "weights desc");
  dnnl_check(dnnl_memory_desc_init_by_tag(&b_md, 1, b_dims, dnnl_f32, dnnl_x),
             "bias desc");
  dnnl_check(dnnl_memory_desc_init_by_tag(&dst_md, 4, dst_dims, dnnl_f32,
                                          dnnl_nchw), "dst desc");
  dnnl_convolution_desc_t desc;
  dnnl_check(dnnl_convolution_forward_desc_init(
                 &desc, dnnl_forward_inference, dnnl_convolution_direct,
                 &src_md, &w_md, &b_md, &dst_md, strides, padding, padding),
             "convolution desc");
  dnnl_primitive_attr_t attr;
  dnnl_check(dnnl_primitive_attr_create(&attr), "attr");
#ifdef CONV_RELU
  dnnl_post_ops_t ops;
  dnnl_check(dnnl_post_ops_create(&ops), "post-ops");
  dnnl_check(dnnl_post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_relu, 0.0f,
                                          0.0f), "relu post-op");
  dnnl_check(dnnl_primitive_attr_set_post_ops(attr, ops), "set post-ops");
#endif
  dnnl_primitive_desc_t pd;
  dnnl_check(dnnl_primitive_desc_create(&pd, &desc, attr, engine, NULL),
             "primitive desc");
  dnnl_check(dnnl_primitive_create(&conv, pd), "primitive");
  dnnl_memory_t src, w, b, dst;
  dnnl_check(dnnl_memory_create(&src, &src_md, engine, IN), "src memory");
  dnnl_check(dnnl_memory_create(&w, &w_md, engine, W), "weights memory");
  dnnl_check(dnnl_memory_create(&b, &b_md, engine, BIAS), "bias memory");
  dnnl_check(dnnl_memory_create(&dst, &dst_md, engine, OUT), "dst memory");
  conv_args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, src};
  conv_args[1] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, w};
  conv_args[2] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, b};
  conv_args[3] = (dnnl_exec_arg_t){DNNL_ARG_DST, dst};
}

static void call(void *context) {
  (void)context;
  dnnl_check(dnnl_primitive_execute(conv, stream, 4, conv_args), "execute");
  dnnl_check(dnnl_stream_wait(stream), "wait");
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
