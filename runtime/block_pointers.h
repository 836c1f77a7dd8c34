/* Pointer arrays written on the device from a call's operands: problem b's matrix as a pointer
 * array or a strided position, displaced to a sub-matrix. The drivers build their steps' operands
 * with it (runtime/drivers/driver_steps.h), and strided factorization calls that the vendor
 * serves get the pointer arrays the vendor takes from it (runtime/lapack_vendor_strided.c).
 * A workspace holds SHOAL_WS_OPERANDS arrays of SHOAL_WS_POINTERS pointers, operand o's at
 * o * SHOAL_WS_POINTERS. */
#ifndef SHOAL_BLOCK_POINTERS_H
#define SHOAL_BLOCK_POINTERS_H

#include <cuda_runtime_api.h>

#define SHOAL_WS_OPERANDS 3
#define SHOAL_WS_POINTERS (1 << 16)
/* the factorizations' drivers' own arrays (runtime/drivers/lapack_steps.h): apart from the spec
 * drivers' SHOAL_WS_OPERANDS, since a factorization's step runs a spec driver (TRSM, SYRK) that
 * reads them while it writes its own */
#define SHOAL_WS_LAPACK_SLOTS 3

#ifdef __cplusplus
extern "C" {
#endif

/* Where a grid's pointers come from: problem b's matrix is in[b] (pointer arrays) or
 * base + b stride_bytes (strided); its group g at + offset_bytes + g step_bytes. */
typedef struct shoal_block_source {
    void *const *in;
    char *base;
    long long stride_bytes, offset_bytes, step_bytes;
} shoal_block_source;

/* ws[o * SHOAL_WS_POINTERS + b * groups + g] for o < n, b < nb, g < groups, on stream
 * (runtime/block_pointers.cu): one launch; nb * groups <= SHOAL_WS_POINTERS. */
cudaError_t shoal_block_pointers(void **ws, const shoal_block_source *src, int n, long long nb, long long groups,
                                 cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
