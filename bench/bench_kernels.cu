#include "bench_kernels.h"

namespace {

__device__ __forceinline__ unsigned long long splitmix(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <typename T>
__global__ void fill_uniform(T *x, long long count, unsigned long long seed)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
        unsigned long long z = splitmix(seed ^ splitmix((unsigned long long)i));
        double v = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
        T t = (T)v;
        x[i] = t == (T)0 ? (T)0.5 : t; /* zeros would hide missing terms */
    }
}

__global__ void pointer_array(void **ptrs, char *base, long long stride_bytes, long long batch)
{
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < batch; i += step)
        ptrs[i] = base + i * stride_bytes;
}

// Symmetric, strictly diagonally dominant (hence SPD) matrices; see bench_fill_spd. The value of
// entry (i, j) is hashed from the lower-triangle index (max, min), so both triangles agree.
template <typename T>
__global__ void fill_spd(T *a, int n, long long lda, long long stride, long long batch,
                         unsigned long long seed)
{
    long long nn = (long long)n * n, count = nn * batch;
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
        long long b = e / nn, r = e - b * nn;
        int j = (int)(r / n), i = (int)(r - (long long)j * n);
        int lo = i < j ? i : j, hi = i < j ? j : i;
        unsigned long long z = splitmix(seed ^ splitmix((unsigned long long)(b * nn + (long long)lo * n + hi)));
        double v = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
        if (i == j)
            v = (double)n + fabs(v);
        else if ((T)v == (T)0)
            v = 0.5; // zeros would hide missing terms
        a[b * stride + (long long)j * lda + i] = (T)v;
    }
}

// The Hermitian counterpart for c and z (T the real type, a holds (re, im) pairs): entry (i, j)
// below the diagonal is (u, v) hashed from (b, j, i), above it the conjugate of its mirror, so
// A == A^H exactly; the diagonal is real (imaginary part 0) and 2n + |u|, more than the largest
// off-diagonal row sum ((n - 1) sqrt 2), hence Hermitian positive definite. The parts of an
// off-diagonal entry are never 0 (zeros would hide missing terms).
template <typename T>
__global__ void fill_hpd(T *a, int n, long long lda, long long stride, long long batch,
                         unsigned long long seed)
{
    long long nn = (long long)n * n, count = nn * batch;
    long long step = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
        long long b = e / nn, r = e - b * nn;
        int j = (int)(r / n), i = (int)(r - (long long)j * n);
        int lo = i < j ? i : j, hi = i < j ? j : i;
        unsigned long long key = (unsigned long long)(b * nn + (long long)lo * n + hi);
        unsigned long long z = splitmix(seed ^ splitmix(2 * key)), w = splitmix(seed ^ splitmix(2 * key + 1));
        double re = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0, im = 2.0 * ((double)(w >> 11) * 0x1.0p-53) - 1.0;
        if (i == j) {
            re = 2.0 * n + fabs(re);
            im = 0.0;
        } else {
            re = (T)re == (T)0 ? 0.5 : re;
            im = (T)im == (T)0 ? 0.5 : im;
            if (i < j) // above the diagonal: the conjugate of (j, i)
                im = -im;
        }
        T *p = a + 2 * (b * stride + (long long)j * lda + i);
        p[0] = (T)re;
        p[1] = (T)im;
    }
}

unsigned grid_for(long long count)
{
    long long blocks = (count + 255) / 256;
    return (unsigned)(blocks < 1 ? 1 : blocks > 8192 ? 8192 : blocks);
}

} // namespace

extern "C" cudaError_t bench_fill_uniform(char prec, void *x, int64_t count, uint64_t seed,
                                          cudaStream_t s)
{
    if (count <= 0)
        return cudaSuccess;
    if (prec == 's')
        fill_uniform<float><<<grid_for(count), 256, 0, s>>>((float *)x, count, seed);
    else
        fill_uniform<double><<<grid_for(count), 256, 0, s>>>((double *)x, count, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t bench_pointer_array(void **ptrs, void *base, int64_t stride_bytes,
                                           int64_t batch, cudaStream_t s)
{
    if (batch <= 0)
        return cudaSuccess;
    pointer_array<<<grid_for(batch), 256, 0, s>>>(ptrs, (char *)base, stride_bytes, batch);
    return cudaGetLastError();
}

extern "C" cudaError_t bench_fill_spd(char prec, void *a, int n, int64_t lda, int64_t stride,
                                      int64_t batch, uint64_t seed, cudaStream_t s)
{
    if (n <= 0 || batch <= 0)
        return cudaSuccess;
    long long count = (long long)n * n * batch;
    if (prec == 'c')
        fill_hpd<float><<<grid_for(count), 256, 0, s>>>((float *)a, n, lda, stride, batch, seed);
    else if (prec == 'z')
        fill_hpd<double><<<grid_for(count), 256, 0, s>>>((double *)a, n, lda, stride, batch, seed);
    else if (prec == 's')
        fill_spd<float><<<grid_for(count), 256, 0, s>>>((float *)a, n, lda, stride, batch, seed);
    else
        fill_spd<double><<<grid_for(count), 256, 0, s>>>((double *)a, n, lda, stride, batch, seed);
    return cudaGetLastError();
}
