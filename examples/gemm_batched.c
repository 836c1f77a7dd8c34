/* Batched GEMM: C_i = A_i * B_i^T for 10,000 independent 8 x 8 products (double, strided).
 *
 * Build against an installed shoal:
 *   cc $(pkg-config --cflags shoal) gemm_batched.c -o gemm_batched $(pkg-config --libs shoal) -lm
 */
#include <math.h>
#include "example_util.h"

int main(void)
{
    const int n = 8;
    const int64_t batch = 10000, size = (int64_t)n * n;
    double *A = malloc(sizeof(double) * size * batch), *B = malloc(sizeof(double) * size * batch);
    double *C = malloc(sizeof(double) * size * batch);
    unsigned long long seed = 1;
    for (int64_t i = 0; i < size * batch; ++i) {
        A[i] = example_random(&seed);
        B[i] = example_random(&seed);
    }

    shoal_handle h = example_create();
    double *dA, *dB, *dC;
    CUDA_OK(cudaMalloc((void **)&dA, sizeof(double) * size * batch));
    CUDA_OK(cudaMalloc((void **)&dB, sizeof(double) * size * batch));
    CUDA_OK(cudaMalloc((void **)&dC, sizeof(double) * size * batch));
    CUDA_OK(cudaMemcpy(dA, A, sizeof(double) * size * batch, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B, sizeof(double) * size * batch, cudaMemcpyHostToDevice));

    /* column-major, lda = ldb = ldc = n, matrix i at offset i * n * n */
    SHOAL_OK(shoal_dgemm_strided_batched(h, SHOAL_OP_N, SHOAL_OP_T, n, n, n, 1.0, dA, n, size, dB, n, size,
                                         0.0, dC, n, size, batch));
    CUDA_OK(cudaMemcpy(C, dC, sizeof(double) * size * batch, cudaMemcpyDeviceToHost));

    const char *kernel;
    SHOAL_OK(shoal_gemm_kernel_name(h, 'd', 0, SHOAL_OP_N, SHOAL_OP_T, n, n, n, &kernel));

    double err = 0;
    for (int64_t b = 0; b < batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                double ref = 0;
                for (int l = 0; l < n; ++l) ref += A[b * size + l * n + i] * B[b * size + l * n + j];
                err = fmax(err, fabs(C[b * size + j * n + i] - ref));
            }
    printf("dgemm_strided_batched: %lld products of %d x %d, served by %s, max error %.1e\n",
           (long long)batch, n, n, kernel, err);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    shoal_destroy(h);
    free(A);
    free(B);
    free(C);
    return err < 1e-12 ? 0 : 1;
}
