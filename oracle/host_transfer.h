/* Moving operands between the host (double) and the device (a precision's elements): shared by
 * the tuner's measuring code and the spec routines' device harness (oracle/spec_harness.c). */
#ifndef SHOAL_HOST_TRANSFER_H
#define SHOAL_HOST_TRANSFER_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host doubles <-> count device elements of precision prec ('s' and 'c' convert; a complex
 * element is two doubles on the host, real part first). */
cudaError_t tuner_upload(void *dst, const double *src, long long count, char prec);
cudaError_t tuner_download(double *dst, const void *src, long long count, char prec);
/* x as a real (or a real or imaginary part) of precision prec holds it ('s' and 'c' round to
 * float), back in double. */
double tuner_round(double x, char prec);
/* Repeats the first `have` units of buf (unit bytes each) until `total` units are filled. */
cudaError_t tuner_tile(void *buf, long long have, long long total, size_t unit);
/* cudaMalloc of at least one byte, with 64 bytes of slack past the end. */
cudaError_t tuner_alloc(void **p, long long bytes);

#ifdef __cplusplus
}
#endif
#endif
