/* Probe driver: times (or, with --once, launches once for ncu) the kernels that
 * render_lapack.py put in KERNELS_CU, on packed strided batches as the tuner sizes them.
 * Each kernel's output is compared with the first kernel of the same routine, precision and N
 * in the table (the reference build), so a variant template is checked as it is timed. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <algorithm>
#include KERNELS_CU

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static int pow2ceil(int x) { int p = 1; while (p < x) p *= 2; return p; }

static double flops_of(const char *r, double n)
{
    if (!strcmp(r, "geqrf")) return 4.0 / 3.0 * n * n * n;
    if (!strcmp(r, "potrf")) return n * n * n / 3.0;
    if (!strcmp(r, "getrf")) return 2.0 / 3.0 * n * n * n;
    if (!strcmp(r, "getri_fused")) return 2.0 * n * n * n;
    return 0;
}

int main(int argc, char **argv)
{
    const bool once = argc > 1 && !strcmp(argv[1], "--once");
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int nk = sizeof(probe_kernels) / sizeof(probe_kernels[0]);
    std::vector<std::vector<double>> ref(nk);
    for (int ki = 0; ki < nk; ++ki) {
        const probe_kernel &k = probe_kernels[ki];
        const int elem = k.prec == 'd' ? 8 : 4, N = k.N;
        const long long per = 2LL * N * N * elem;
        long long batch = 4LL * prop.l2CacheSize / per + 1;
        batch = std::max(2048LL, std::min(batch, 4000000LL));
        const size_t nel = (size_t)batch * N * N;
        std::vector<double> h(nel);
        srand(12345);
        for (size_t i = 0; i < nel; ++i) h[i] = 2.0 * rand() / RAND_MAX - 1.0;
        if (!strcmp(k.routine, "potrf")) /* symmetric positive definite: sym part + N on the diagonal */
            for (long long b = 0; b < batch; ++b) {
                double *A = h.data() + b * N * N;
                for (int j = 0; j < N; ++j)
                    for (int i = 0; i < N; ++i) A[j * N + i] = i == j ? N + fabs(A[j * N + i]) : A[std::max(i, j) * N + std::min(i, j)];
            }
        std::vector<char> hb(nel * elem);
        for (size_t i = 0; i < nel; ++i) {
            if (elem == 8) ((double *)hb.data())[i] = h[i];
            else ((float *)hb.data())[i] = (float)h[i];
        }
        void *A0, *A, *B, *tau; int *ipiv, *info;
        CK(cudaMalloc(&B, nel * elem));
        CK(cudaMalloc(&A0, nel * elem)); CK(cudaMalloc(&A, nel * elem));
        CK(cudaMalloc(&tau, (size_t)batch * N * elem));
        CK(cudaMalloc(&ipiv, (size_t)batch * N * 4)); CK(cudaMalloc(&info, (size_t)batch * 4));
        CK(cudaMemcpy(A0, hb.data(), nel * elem, cudaMemcpyHostToDevice));
        shoal_lapack_params p;
        memset(&p, 0, sizeof p);
        p.m = p.n = N; p.nrhs = 1; p.A = A; p.lda = N; p.stride_a = (long long)N * N;
        p.B = B; p.ldb = N; p.stride_b = (long long)N * N;
        p.ipiv = ipiv; p.stride_ipiv = N; p.tau = tau; p.stride_tau = N; p.info = info; p.batch = batch;
        const int team = pow2ceil((N + k.R - 1) / k.R);
        dim3 block(team, k.NB), grid((unsigned)((batch + k.NB - 1) / k.NB));
        void *args[] = {&p};
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
        std::vector<float> ts;
        const int runs = once ? 1 : 11;
        for (int r = 0; r < runs; ++r) {
            CK(cudaMemcpy(A, A0, nel * elem, cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(e0));
            CK(cudaLaunchKernel(k.fn, grid, block, args, 0, 0));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 2 || once) ts.push_back(ms);
        }
        std::sort(ts.begin(), ts.end());
        const double ms = ts[ts.size() / 2];
        CK(cudaMemcpy(hb.data(), strcmp(k.routine, "getri_fused") ? A : B, nel * elem, cudaMemcpyDeviceToHost));
        /* first 2048 matrices, compared with the reference kernel's */
        const size_t ncmp = std::min(nel, (size_t)2048 * N * N);
        ref[ki].resize(ncmp);
        for (size_t i = 0; i < ncmp; ++i) ref[ki][i] = elem == 8 ? ((double *)hb.data())[i] : ((float *)hb.data())[i];
        int r0 = ki;
        for (int j = 0; j < ki; ++j)
            if (!strcmp(probe_kernels[j].routine, k.routine) && probe_kernels[j].prec == k.prec && probe_kernels[j].N == N) { r0 = j; break; }
        double diff = 0, mx = 0;
        for (size_t i = 0; i < ncmp; ++i) {
            diff = std::max(diff, fabs(ref[ki][i] - ref[r0][i]));
            mx = std::max(mx, fabs(ref[r0][i]));
        }
        const double gf = flops_of(k.routine, N) * batch / (ms * 1e6);
        const double gbs = (double)per * batch / (ms * 1e6);
        printf("%-44s batch %8lld  %8.4f ms  %8.1f Gflop/s  %7.1f GB/s  reldiff-vs-ref %.2e\n",
               k.name, batch, ms, gf, gbs, diff / (mx > 0 ? mx : 1));
        CK(cudaFree(A0)); CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(tau)); CK(cudaFree(ipiv)); CK(cudaFree(info));
    }
    return 0;
}
