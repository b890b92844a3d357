/* matmul_1021.c - C reference for heldout/kernels/matmul_1021.mlir: the
 * suite's matmul reference (loops in linalg.matmul's order; with -DUSE_BLAS,
 * cblas_sgemm) at 1021x1021x1021. Buffers: A = 0, B = 1, result C = 2. */
#define MATMUL_SIZE 1021
#define KERNEL_NAME "matmul_1021"
#include "matmul.c"
/* USE_BLAS: run.py builds the BLAS variants of references that mention it. */
