#include "device_util.h"

#include <math.h>
#include <string.h>

static __device__ __forceinline__ double uniform(unsigned long long i, unsigned long long seed)
{
    unsigned long long x = i * 0x9E3779B97F4A7C15ULL + seed * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

template <typename T>
__global__ void fill_random_kernel(T *buf, long long count, unsigned long long seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        buf[i] = (T)uniform((unsigned long long)i, seed);
}

template <typename T>
__global__ void fill_value_kernel(T *buf, long long count, T v)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        buf[i] = v;
}

__global__ void pointers_kernel(void **arr, char *base, long long stride, long long count)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        arr[i] = base + i * stride;
}

/* Non-negative doubles order like their bit patterns, so atomicMax on the bits is a max. */
template <typename T>
__global__ void diff_kernel(const T *C, const T *R, long long count, unsigned long long *out)
{
    double local = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
        double d = fabs((double)C[i] - (double)R[i]);
        if (!(d <= local)) local = isnan(d) ? INFINITY : d;
    }
    atomicMax(out, (unsigned long long)__double_as_longlong(local));
}

static dim3 grid_for(long long count)
{
    long long blocks = (count + 255) / 256;
    return dim3((unsigned)(blocks < 65536 ? (blocks > 0 ? blocks : 1) : 65536));
}

/* The buffers below hold count elements of prec: the real parts of a complex element (c, z)
 * are two floats or doubles, each filled, poisoned or compared on its own. */
static bool single_real(char prec) { return prec == 's' || prec == 'c'; }
static long long reals(char prec, long long count) { return prec == 'c' || prec == 'z' ? 2 * count : count; }

extern "C" cudaError_t tuner_fill_random(void *buf, char prec, long long count, unsigned long long seed)
{
    count = reals(prec, count);
    if (single_real(prec)) fill_random_kernel<<<grid_for(count), 256>>>((float *)buf, count, seed);
    else fill_random_kernel<<<grid_for(count), 256>>>((double *)buf, count, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t tuner_fill_nan(void *buf, char prec, long long count)
{
    count = reals(prec, count);
    if (single_real(prec)) fill_value_kernel<<<grid_for(count), 256>>>((float *)buf, count, nanf(""));
    else fill_value_kernel<<<grid_for(count), 256>>>((double *)buf, count, nan(""));
    return cudaGetLastError();
}

extern "C" cudaError_t tuner_make_pointers(void **arr, void *base, long long stride_bytes, long long count)
{
    pointers_kernel<<<grid_for(count), 256>>>(arr, (char *)base, stride_bytes, count);
    return cudaGetLastError();
}

extern "C" cudaError_t tuner_max_abs_diff(const void *C, const void *R, char prec, long long count, double *max_diff)
{
    unsigned long long *d_out = NULL, h_out = 0;
    cudaError_t e = cudaMalloc(&d_out, sizeof *d_out);
    if (e != cudaSuccess) return e;
    cudaMemset(d_out, 0, sizeof *d_out);
    count = reals(prec, count);
    if (single_real(prec)) diff_kernel<<<grid_for(count), 256>>>((const float *)C, (const float *)R, count, d_out);
    else diff_kernel<<<grid_for(count), 256>>>((const double *)C, (const double *)R, count, d_out);
    e = cudaMemcpy(&h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaFree(d_out);
    if (e != cudaSuccess) return e;
    long long bits = (long long)h_out;
    double v;
    memcpy(&v, &bits, sizeof v);
    *max_diff = v;
    return cudaSuccess;
}

/* Reference of the variable-size GEMM: one thread per element of C, double accumulation, the
 * ABI's pointer arrays and per-problem sizes; writes R_b (packed m_b x n_b at R + b * r_stride,
 * W doubles an element). Elements are W reals of type E: W = 2 is c or z, with complex alpha and
 * beta and op C as the kernels take it (op T with p.conj's bit 0 conjugating A, bit 1 B). */
template <typename E, int W>
__global__ void ref_gemm_v_kernel(shoal_gemm_vparams p, int ta, int tb, double *R, long long r_stride)
{
    const long long b = blockIdx.y;
    const int m = p.m_v[b], n = p.n_v[b], k = p.k_v[b];
    const E *A = static_cast<const E *>(p.A_array[b]), *B = static_cast<const E *>(p.B_array[b]);
    const E *C = static_cast<const E *>(p.C_array[b]);
    const long long lda = p.lda_v[b], ldb = p.ldb_v[b], ldc = p.ldc_v[b];
    const double sa = (p.conj & 1) ? -1.0 : 1.0, sb = (p.conj & 2) ? -1.0 : 1.0;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < m * n; e += gridDim.x * blockDim.x) {
        const int i = e % m, j = e / m;
        double s = 0, si = 0;
        for (int l = 0; l < k; ++l) {
            const long long ia = W * (ta ? l + i * lda : i + l * lda), ib = W * (tb ? j + l * ldb : l + j * ldb);
            if constexpr (W == 1) {
                s += (double)A[ia] * (double)B[ib];
            } else {
                const double ar = A[ia], ai = sa * A[ia + 1], br = B[ib], bi = sb * B[ib + 1];
                s += ar * br - ai * bi;
                si += ar * bi + ai * br;
            }
        }
        double *r = R + (b * r_stride + e) * W;
        if constexpr (W == 1) {
            r[0] = p.alpha[0] * s;
            if (p.beta[0] != 0) r[0] += p.beta[0] * (double)C[i + j * ldc];
        } else {
            r[0] = p.alpha[0] * s - p.alpha[1] * si;
            r[1] = p.alpha[0] * si + p.alpha[1] * s;
            if (p.beta[0] != 0 || p.beta[1] != 0) {
                const double cr = C[2 * (i + j * ldc)], ci = C[2 * (i + j * ldc) + 1];
                r[0] += p.beta[0] * cr - p.beta[1] * ci;
                r[1] += p.beta[0] * ci + p.beta[1] * cr;
            }
        }
    }
}

extern "C" cudaError_t tuner_ref_gemm_v(const shoal_gemm_vparams *p, char prec, int ta, int tb, long long count,
                                        double *R, long long r_stride)
{
    shoal_gemm_vparams q = *p;
    dim3 grid(64, (unsigned)count), block(256);
    if (prec == 's') ref_gemm_v_kernel<float, 1><<<grid, block>>>(q, ta, tb, R, r_stride);
    else if (prec == 'd') ref_gemm_v_kernel<double, 1><<<grid, block>>>(q, ta, tb, R, r_stride);
    else if (prec == 'c') ref_gemm_v_kernel<float, 2><<<grid, block>>>(q, ta, tb, R, r_stride);
    else ref_gemm_v_kernel<double, 2><<<grid, block>>>(q, ta, tb, R, r_stride);
    return cudaGetLastError();
}
