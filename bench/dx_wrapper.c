/* The batched kernel around cuSolverDx's generated device function, as CUDA source for NVRTC
 * (compiled with -dlto, so that nvJitLink inlines the solver into it). dx_gen.c defines the
 * macros with -D options: DX_T (float/double), DX_N, DX_BPB, DX_NT (threads per block),
 * DX_ROUTINE (0 getrf, 1 potrf, 2 geqrf), DX_SYM (the generated function's name), DX_VEC (one
 * matrix is a multiple of 16 bytes: copies by 16-byte vectors), DX_A_BYTES and DX_X_BYTES
 * (shared-memory offsets of the pivots / tau and the infos, 16-byte aligned).
 *
 * Block b factors matrices b*BPB .. b*BPB+BPB-1 (contiguous: stride n^2) in shared memory: a
 * plain cooperative copy in, the library call with all threads, a copy out. The bench's data is
 * in place (A is restored outside the timed events), so the same bytes move as out of place. */
#include "dx_wrapper.h"

const char dx_wrapper_source[] =
    "typedef DX_T T;\n"
    "#define NN (DX_N * DX_N)\n"
    "struct __align__(16) v16 { unsigned int a, b, c, d; };\n"
    /* Thread indices through volatile asm: the generated function may __builtin_assume its own
     * 1-D block dim, which after LTO inlining must not fold this kernel's index arithmetic. */
    "static __device__ __forceinline__ unsigned tid_x() { unsigned r; asm volatile(\"mov.u32 %0, %%tid.x;\" : \"=r\"(r)); return r; }\n"
    "static __device__ __forceinline__ unsigned tid_y() { unsigned r; asm volatile(\"mov.u32 %0, %%tid.y;\" : \"=r\"(r)); return r; }\n"
    "static __device__ __forceinline__ unsigned tid_z() { unsigned r; asm volatile(\"mov.u32 %0, %%tid.z;\" : \"=r\"(r)); return r; }\n"
    "static __device__ __forceinline__ unsigned ntid_x() { unsigned r; asm volatile(\"mov.u32 %0, %%ntid.x;\" : \"=r\"(r)); return r; }\n"
    "static __device__ __forceinline__ unsigned ntid_y() { unsigned r; asm volatile(\"mov.u32 %0, %%ntid.y;\" : \"=r\"(r)); return r; }\n"
    "#if DX_ROUTINE == 0\n"
    "extern \"C\" __device__ void DX_SYM(T *A, int *ipiv, int *info);\n"
    "#elif DX_ROUTINE == 1\n"
    "extern \"C\" __device__ void DX_SYM(T *A, int *info);\n"
    "#else\n"
    "extern \"C\" __device__ void DX_SYM(T *A, T *tau);\n"
    "#endif\n"
    /* count elements, contiguous on both sides; with DX_VEC both are 16-byte aligned and the
     * byte count a multiple of 16 (whole matrices of such a size). */
    "static __device__ __forceinline__ void copy(const T *__restrict__ s, T *__restrict__ d, int count, int tid)\n"
    "{\n"
    "#if DX_VEC\n"
    "    const int nv = (count * (int)sizeof(T)) >> 4;\n"
    "    for (int i = tid; i < nv; i += DX_NT) reinterpret_cast<v16 *>(d)[i] = reinterpret_cast<const v16 *>(s)[i];\n"
    "#else\n"
    "    for (int i = tid; i < count; i += DX_NT) d[i] = s[i];\n"
    "#endif\n"
    "}\n"
    "extern \"C\" __global__ void __launch_bounds__(DX_NT)\n"
    "dx_batched(T *__restrict__ A, int *__restrict__ ipiv, T *__restrict__ tau, int *__restrict__ info, long long batch)\n"
    "{\n"
    "    extern __shared__ __align__(16) unsigned char smem[];\n"
    "    T *sA = reinterpret_cast<T *>(smem);\n"
    "    const int tid = (int)(tid_x() + ntid_x() * (tid_y() + ntid_y() * tid_z()));\n"
    "    const long long first = (long long)blockIdx.x * DX_BPB;\n"
    "    const int nb = batch - first < DX_BPB ? (int)(batch - first) : DX_BPB;\n"
    "    copy(A + first * NN, sA, nb * NN, tid);\n"
    /* The last block may hold fewer matrices: identity pads keep the library's work defined
     * (no NaN, no info != 0) and are never stored. */
    "    for (int i = nb * NN + tid; i < DX_BPB * NN; i += DX_NT)\n"
    "        sA[i] = (i % NN) % DX_N == (i % NN) / DX_N ? T(1) : T(0);\n"
    "#if DX_ROUTINE == 0\n"
    "    int *sPiv = reinterpret_cast<int *>(smem + DX_A_BYTES);\n"
    "    int *sInfo = reinterpret_cast<int *>(smem + DX_A_BYTES + DX_X_BYTES);\n"
    "    for (int i = tid; i < DX_BPB; i += DX_NT) sInfo[i] = 0;\n"
    "    __syncthreads();\n"
    "    DX_SYM(sA, sPiv, sInfo);\n"
    "    __syncthreads();\n"
    "    for (int i = tid; i < nb * DX_N; i += DX_NT) ipiv[first * DX_N + i] = sPiv[i];\n"
    "    for (int i = tid; i < nb; i += DX_NT) info[first + i] = sInfo[i];\n"
    "#elif DX_ROUTINE == 1\n"
    "    int *sInfo = reinterpret_cast<int *>(smem + DX_A_BYTES);\n"
    "    for (int i = tid; i < DX_BPB; i += DX_NT) sInfo[i] = 0;\n"
    "    __syncthreads();\n"
    "    DX_SYM(sA, sInfo);\n"
    "    __syncthreads();\n"
    "    for (int i = tid; i < nb; i += DX_NT) info[first + i] = sInfo[i];\n"
    "#else\n"
    "    T *sTau = reinterpret_cast<T *>(smem + DX_A_BYTES);\n"
    "    __syncthreads();\n"
    "    DX_SYM(sA, sTau);\n"
    "    __syncthreads();\n"
    "    for (int i = tid; i < nb * DX_N; i += DX_NT) tau[first * DX_N + i] = sTau[i];\n"
    "#endif\n"
    "    copy(sA, A + first * NN, nb * NN, tid);\n"
    "}\n";
