/* Batched LU solve: A_i x_i = b_i for 50,000 systems of order 16 (double, pointer arrays, as
 * cuBLAS's getrfBatched / getrsBatched take them): factor with getrf, then solve with getrs.
 *
 * Build against an installed shoal:
 *   cc $(pkg-config --cflags shoal) lu_solve.c -o lu_solve $(pkg-config --libs shoal) -lm
 */
#include <math.h>
#include "example_util.h"

int main(void)
{
    const int n = 16, nrhs = 1;
    const int64_t batch = 50000, size = (int64_t)n * n;
    double *A = malloc(sizeof(double) * size * batch), *b = malloc(sizeof(double) * n * batch);
    double *x = malloc(sizeof(double) * n * batch);
    int *info = malloc(sizeof(int) * batch);
    unsigned long long seed = 2;
    for (int64_t i = 0; i < size * batch; ++i) A[i] = example_random(&seed);
    for (int64_t i = 0; i < n * batch; ++i) b[i] = example_random(&seed);

    shoal_handle h = example_create();
    double *dA, *dB, **dAarray, **dBarray;
    int *dipiv, *dinfo;
    CUDA_OK(cudaMalloc((void **)&dA, sizeof(double) * size * batch));
    CUDA_OK(cudaMalloc((void **)&dB, sizeof(double) * n * batch));
    CUDA_OK(cudaMalloc((void **)&dipiv, sizeof(int) * n * batch));
    CUDA_OK(cudaMalloc((void **)&dinfo, sizeof(int) * batch));
    CUDA_OK(cudaMemcpy(dA, A, sizeof(double) * size * batch, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, b, sizeof(double) * n * batch, cudaMemcpyHostToDevice));

    /* device arrays of pointers to each matrix and right-hand side */
    double **ptrs = malloc(sizeof(double *) * 2 * batch);
    for (int64_t i = 0; i < batch; ++i) {
        ptrs[i] = dA + i * size;
        ptrs[batch + i] = dB + i * n;
    }
    CUDA_OK(cudaMalloc((void **)&dAarray, sizeof(double *) * batch));
    CUDA_OK(cudaMalloc((void **)&dBarray, sizeof(double *) * batch));
    CUDA_OK(cudaMemcpy(dAarray, ptrs, sizeof(double *) * batch, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dBarray, ptrs + batch, sizeof(double *) * batch, cudaMemcpyHostToDevice));

    /* pivots of matrix i at dipiv[i * n ...], info per matrix (0: factored; k > 0: U(k,k) == 0) */
    SHOAL_OK(shoal_dgetrf_batched(h, n, n, dAarray, n, dipiv, dinfo, batch));
    SHOAL_OK(shoal_dgetrs_batched(h, SHOAL_OP_N, n, nrhs, (const double *const *)dAarray, n, dipiv, dBarray, n,
                                  batch));
    CUDA_OK(cudaMemcpy(x, dB, sizeof(double) * n * batch, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(info, dinfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));

    /* relative residual ||A x - b|| / (||A|| ||x||) with the original A (max norms) */
    double worst = 0;
    int64_t singular = 0;
    for (int64_t m = 0; m < batch; ++m) {
        if (info[m] != 0) {
            ++singular;
            continue;
        }
        double r = 0, an = 0, xn = 0;
        for (int i = 0; i < n; ++i) {
            double ax = 0;
            for (int j = 0; j < n; ++j) {
                ax += A[m * size + j * n + i] * x[m * n + j];
                an = fmax(an, fabs(A[m * size + j * n + i]));
            }
            r = fmax(r, fabs(ax - b[m * n + i]));
            xn = fmax(xn, fabs(x[m * n + i]));
        }
        worst = fmax(worst, r / (n * an * xn));
    }
    printf("dgetrf + dgetrs: %lld systems of order %d, %lld singular, worst residual %.1e\n", (long long)batch, n,
           (long long)singular, worst);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dipiv);
    cudaFree(dinfo);
    cudaFree(dAarray);
    cudaFree(dBarray);
    shoal_destroy(h);
    free(ptrs);
    free(A);
    free(b);
    free(x);
    free(info);
    return worst < 1e-13 ? 0 : 1;
}
