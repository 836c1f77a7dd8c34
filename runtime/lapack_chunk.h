/* A batch chunk of a factorization call: what the strided vendor route
 * (runtime/lapack_vendor_strided.c) and the factorizations' drivers (runtime/drivers/) cut a call
 * into, so that each chunk's pointer arrays fit the handle's workspace (SHOAL_WS_POINTERS). */
#ifndef SHOAL_LAPACK_CHUNK_H
#define SHOAL_LAPACK_CHUNK_H

#include "lapack_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Problems [b0, b0 + nb) of p as a call of their own: every operand it has (A, B, tau as pointer
 * arrays or strided, ipiv, info) moved to problem b0; elem_bytes is the precision's element. */
shoal_lapack_params shoal_lapack_chunk(const shoal_lapack_params *p, long long elem_bytes, long long b0, long long nb);

#ifdef __cplusplus
}
#endif
#endif
