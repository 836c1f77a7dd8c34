/* Batched Cholesky solve: A_i x_i = b_i for 100,000 symmetric positive definite systems of
 * order 6 (single precision, strided), factored and solved in one call (posv). One matrix is
 * made indefinite on purpose: its info entry reports it and the other systems are unaffected.
 *
 * Build against an installed shoal:
 *   cc $(pkg-config --cflags shoal) cholesky_solve.c -o cholesky_solve $(pkg-config --libs shoal) -lm
 */
#include <math.h>
#include "example_util.h"

int main(void)
{
    const int n = 6, nrhs = 2;
    const int64_t batch = 100000, size = (int64_t)n * n, bsize = (int64_t)n * nrhs;
    float *A = malloc(sizeof(float) * size * batch), *B = malloc(sizeof(float) * bsize * batch);
    float *X = malloc(sizeof(float) * bsize * batch);
    int *info = malloc(sizeof(int) * batch);
    unsigned long long seed = 3;
    for (int64_t m = 0; m < batch; ++m) {
        /* A = G G^T + n I, symmetric positive definite; both triangles filled */
        float G[36];
        for (int i = 0; i < size; ++i) G[i] = (float)example_random(&seed);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                float s = i == j ? (float)n : 0.0f;
                for (int l = 0; l < n; ++l) s += G[l * n + i] * G[l * n + j];
                A[m * size + j * n + i] = s;
            }
        for (int64_t i = 0; i < bsize; ++i) B[m * bsize + i] = (float)example_random(&seed);
    }
    const int64_t bad = 12345;
    A[bad * size + 2 * n + 2] = -1.0f; /* leading minor of order 3 no longer positive */

    shoal_handle h = example_create();
    float *dA, *dB;
    int *dinfo;
    CUDA_OK(cudaMalloc((void **)&dA, sizeof(float) * size * batch));
    CUDA_OK(cudaMalloc((void **)&dB, sizeof(float) * bsize * batch));
    CUDA_OK(cudaMalloc((void **)&dinfo, sizeof(int) * batch));
    CUDA_OK(cudaMemcpy(dA, A, sizeof(float) * size * batch, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B, sizeof(float) * bsize * batch, cudaMemcpyHostToDevice));

    SHOAL_OK(shoal_sposv_strided_batched(h, SHOAL_FILL_LOWER, n, nrhs, dA, n, size, dB, n, bsize, dinfo, batch));
    CUDA_OK(cudaMemcpy(X, dB, sizeof(float) * bsize * batch, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(info, dinfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));

    /* relative residual ||A x - b|| / (n ||A|| ||x||) per right-hand side (max norms) */
    double worst = 0;
    int64_t failed = 0;
    for (int64_t m = 0; m < batch; ++m) {
        if (info[m] != 0) {
            ++failed;
            continue;
        }
        for (int c = 0; c < nrhs; ++c) {
            double r = 0, an = 0, xn = 0;
            for (int i = 0; i < n; ++i) {
                double ax = 0;
                for (int j = 0; j < n; ++j) {
                    ax += (double)A[m * size + j * n + i] * X[m * bsize + c * n + j];
                    an = fmax(an, fabs(A[m * size + j * n + i]));
                }
                r = fmax(r, fabs(ax - B[m * bsize + c * n + i]));
                xn = fmax(xn, fabs(X[m * bsize + c * n + i]));
            }
            worst = fmax(worst, r / (n * an * xn));
        }
    }
    printf("sposv: %lld systems of order %d with %d right-hand sides; info[%lld] = %d (expected 3), "
           "%lld failed in all; worst residual %.1e\n", (long long)batch, n, nrhs, (long long)bad, info[bad],
           (long long)failed, worst);
    const int ok = info[bad] == 3 && failed == 1 && worst < 1e-5;

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dinfo);
    shoal_destroy(h);
    free(A);
    free(B);
    free(X);
    free(info);
    return ok ? 0 : 1;
}
