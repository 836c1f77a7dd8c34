/* Element operations of the drivers' own hand-written kernels (the .cu files of runtime/drivers/), one
 * overload per element type: float, double, and the complex float2 / double2 (cuComplex's layout;
 * the complex arithmetic itself is runtime/kernel_util.cuh's, shared with the templates), plus
 * the per-problem address of an operand. The precision letter picks the type at the launch. */
#ifndef SHOAL_DRIVER_ELEM_CUH
#define SHOAL_DRIVER_ELEM_CUH

#include <cuComplex.h>

#include "kernel_util.cuh"
#include "spec_abi.h"

namespace shoal_elem {

/* problem b of an operand given as pointer arrays or strided */
template <typename T> __device__ __forceinline__ T *problem(const shoal_operand &o, long long b)
{
    return o.array ? static_cast<T *>(o.array[b]) : static_cast<T *>(o.ptr) + b * o.stride;
}

template <typename T> __device__ __forceinline__ T zero_of() { return T{}; }
template <typename T> __device__ __forceinline__ T one_of();
template <> __device__ __forceinline__ float one_of<float>() { return 1.0f; }
template <> __device__ __forceinline__ double one_of<double>() { return 1.0; }
template <> __device__ __forceinline__ float2 one_of<float2>() { return make_float2(1.0f, 0.0f); }
template <> __device__ __forceinline__ double2 one_of<double2>() { return make_double2(1.0, 0.0); }

__device__ __forceinline__ float conj_of(float x) { return x; }
__device__ __forceinline__ double conj_of(double x) { return x; }
__device__ __forceinline__ float2 conj_of(float2 x) { return shoal_conjf(x); }
__device__ __forceinline__ double2 conj_of(double2 x) { return shoal_conj(x); }

__device__ __forceinline__ bool is_zero(float x) { return x == 0.0f; }
__device__ __forceinline__ bool is_zero(double x) { return x == 0.0; }
__device__ __forceinline__ bool is_zero(float2 x) { return x.x == 0.0f && x.y == 0.0f; }
__device__ __forceinline__ bool is_zero(double2 x) { return x.x == 0.0 && x.y == 0.0; }

__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ float2 add(float2 a, float2 b) { return shoal_caddf(a, b); }
__device__ __forceinline__ double2 add(double2 a, double2 b) { return shoal_cadd(a, b); }

__device__ __forceinline__ float sub(float a, float b) { return a - b; }
__device__ __forceinline__ double sub(double a, double b) { return a - b; }
__device__ __forceinline__ float2 sub(float2 a, float2 b) { return shoal_csubf(a, b); }
__device__ __forceinline__ double2 sub(double2 a, double2 b) { return shoal_csub(a, b); }

__device__ __forceinline__ float mul(float a, float b) { return a * b; }
__device__ __forceinline__ double mul(double a, double b) { return a * b; }
__device__ __forceinline__ float2 mul(float2 a, float2 b) { return shoal_cmulf(a, b); }
__device__ __forceinline__ double2 mul(double2 a, double2 b) { return shoal_cmul(a, b); }

/* c - a b, rounded as one fma per part */
__device__ __forceinline__ float sub_mul(float c, float a, float b) { return fmaf(-a, b, c); }
__device__ __forceinline__ double sub_mul(double c, double a, double b) { return fma(-a, b, c); }
__device__ __forceinline__ float2 sub_mul(float2 c, float2 a, float2 b) { return shoal_cfmaf(shoal_cnegf(a), b, c); }
__device__ __forceinline__ double2 sub_mul(double2 c, double2 a, double2 b) { return shoal_cfma(shoal_cneg(a), b, c); }

/* a / b (Smith's formula in c and z: no overflow or underflow of |b|^2) */
__device__ __forceinline__ float div(float a, float b) { return a / b; }
__device__ __forceinline__ double div(double a, double b) { return a / b; }
__device__ __forceinline__ float2 div(float2 a, float2 b) { return shoal_cdivf(a, b); }
__device__ __forceinline__ double2 div(double2 a, double2 b) { return shoal_cdiv(a, b); }

/* c + a b, rounded as one fma per part */
__device__ __forceinline__ float add_mul(float c, float a, float b) { return fmaf(a, b, c); }
__device__ __forceinline__ double add_mul(double c, double a, double b) { return fma(a, b, c); }
__device__ __forceinline__ float2 add_mul(float2 c, float2 a, float2 b) { return shoal_cfmaf(a, b, c); }
__device__ __forceinline__ double2 add_mul(double2 c, double2 a, double2 b) { return shoal_cfma(a, b, c); }

/* the real type of an element type, its parts, and an element from a real */
template <typename T> struct real_of { typedef T type; };
template <> struct real_of<float2> { typedef float type; };
template <> struct real_of<double2> { typedef double type; };
__device__ __forceinline__ float re(float x) { return x; }
__device__ __forceinline__ double re(double x) { return x; }
__device__ __forceinline__ float re(float2 x) { return x.x; }
__device__ __forceinline__ double re(double2 x) { return x.x; }
__device__ __forceinline__ float im(float) { return 0.0f; }
__device__ __forceinline__ double im(double) { return 0.0; }
__device__ __forceinline__ float im(float2 x) { return x.y; }
__device__ __forceinline__ double im(double2 x) { return x.y; }
template <typename T> __device__ __forceinline__ T from_parts(typename real_of<T>::type r, typename real_of<T>::type i);
template <> __device__ __forceinline__ float from_parts<float>(float r, float) { return r; }
template <> __device__ __forceinline__ double from_parts<double>(double r, double) { return r; }
template <> __device__ __forceinline__ float2 from_parts<float2>(float r, float i) { return make_float2(r, i); }
template <> __device__ __forceinline__ double2 from_parts<double2>(double r, double i) { return make_double2(r, i); }

/* warp shuffles within teams of w lanes (the complex ones move both parts) */
__device__ __forceinline__ float shfl(float a, int j, int w) { return __shfl_sync(0xffffffffu, a, j, w); }
__device__ __forceinline__ double shfl(double a, int j, int w) { return __shfl_sync(0xffffffffu, a, j, w); }
__device__ __forceinline__ float2 shfl(float2 a, int j, int w) { return shoal_shfl_sync(0xffffffffu, a, j, w); }
__device__ __forceinline__ double2 shfl(double2 a, int j, int w) { return shoal_shfl_sync(0xffffffffu, a, j, w); }
__device__ __forceinline__ float shfl_xor(float a, int o, int w) { return __shfl_xor_sync(0xffffffffu, a, o, w); }
__device__ __forceinline__ double shfl_xor(double a, int o, int w) { return __shfl_xor_sync(0xffffffffu, a, o, w); }
__device__ __forceinline__ float2 shfl_xor(float2 a, int o, int w) { return shoal_shfl_xor_sync(0xffffffffu, a, o, w); }
__device__ __forceinline__ double2 shfl_xor(double2 a, int o, int w) { return shoal_shfl_xor_sync(0xffffffffu, a, o, w); }

/* ceil(work / per_block) blocks along x, at least 1 and at most 2^20: the kernels loop past it */
inline unsigned grid_of(long long work, long long per_block)
{
    const long long g = (work + per_block - 1) / per_block;
    return (unsigned)(g < 1 ? 1 : g > (1 << 20) ? (1 << 20) : g);
}

} // namespace shoal_elem

/* The launch of the element type of a precision letter: call(T) for s, d, c, z (float, double,
 * float2, double2), returned from the enclosing function; other letters cudaErrorInvalidValue. */
#define BY_PRECISION(prec, call)                                                                        \
    switch (prec) {                                                                                     \
    case 's': return call(float);                                                                       \
    case 'd': return call(double);                                                                      \
    case 'c': return call(float2);                                                                      \
    case 'z': return call(double2);                                                                     \
    default: return cudaErrorInvalidValue;                                                              \
    }

#endif
