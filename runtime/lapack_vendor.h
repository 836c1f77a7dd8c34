/* The vendor candidates of the factorization routines (cuBLAS / cuSOLVER batched calls), on the
 * arguments a shoal call got. Shared by the library (shapes the vendor won) and the tuner.
 * Vendors take pointer arrays only: shoal_lapack_vendor needs p->A_array (and B_array, tau_array
 * where the routine has B or tau), pivots packed with stride_ipiv == min(m, n), and
 * lda, ldb <= INT_MAX; batches beyond INT_MAX go in chunks. Strided calls go through
 * shoal_lapack_vendor_strided, which writes the arrays first. */
#ifndef SHOAL_LAPACK_VENDOR_H
#define SHOAL_LAPACK_VENDOR_H

#include <cublas_v2.h>
#include <cusolverDn.h>
#include "lapack_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct shoal_vendor_handles {
    cublasHandle_t cublas;
    cusolverDnHandle_t cusolver;
} shoal_vendor_handles;

enum shoal_vendor_result {
    SHOAL_VENDOR_OK = 0,
    SHOAL_VENDOR_UNSUPPORTED = 1, /* the vendor has no call for this case (e.g. potrs, nrhs > 1) */
    SHOAL_VENDOR_FAILED = 2       /* the vendor call returned an error */
};

/* The precisions the vendor has calls for: s, d, c, z (cuComplex / cuDoubleComplex are the
 * layout of shoal_complex_float / _double). */
static inline int shoal_vendor_precision_ok(char precision)
{
    return precision == 's' || precision == 'd' || precision == 'c' || precision == 'z';
}

/* Dispatches on routine (docs/lapack.md) to the functions below. variant: index in the
 * routine's variants ('n'/'t' -> 0/1, 'l'/'u' -> 0/1); getrs' variant 1 is op C where a c/z
 * call set p->conj. */
int shoal_lapack_vendor(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                        const shoal_lapack_params *p);
/* The same on a strided call (p->A set, p->A_array NULL): the pointer arrays the vendor takes are
 * written into ws (SHOAL_WS_OPERANDS x SHOAL_WS_POINTERS pointers, runtime/block_pointers.h) on
 * stream, the stream of h's handles, one chunk of SHOAL_WS_POINTERS problems at a time
 * (runtime/lapack_vendor_strided.c). */
int shoal_lapack_vendor_strided(const shoal_vendor_handles *h, void **ws, cudaStream_t stream, const char *routine,
                                char precision, int variant, const shoal_lapack_params *p);
/* The name recorded for the vendor candidate of a routine ("cublas" or "cusolver"). */
const char *shoal_lapack_vendor_name(const char *routine);

/* runtime/lapack_vendor_lu.c: getrf, getrs, gesv, getri, getri_fused */
int shoal_vendor_lu(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                    const shoal_lapack_params *p);
/* runtime/lapack_vendor_chol_qr.c: potrf, potrs, posv, geqrf */
int shoal_vendor_chol_qr(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                         const shoal_lapack_params *p);

#ifdef __cplusplus
}
#endif
#endif
