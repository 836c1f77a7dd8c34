/* What the three examples share: error checks that say which call failed, and the start-up that
 * tells "no GPU here" (exit 77, as the test suite skips) from a real failure. */
#ifndef SHOAL_EXAMPLE_UTIL_H
#define SHOAL_EXAMPLE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include <shoal.h>

#define CUDA_OK(call)                                                                     \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

#define SHOAL_OK(call)                                                                    \
    do {                                                                                  \
        shoal_status s_ = (call);                                                         \
        if (s_ != SHOAL_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, shoal_status_string(s_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* A handle on the current device, or exit: 77 where there is no usable GPU, 1 otherwise. */
static inline shoal_handle example_create(void)
{
    shoal_handle h;
    shoal_status s = shoal_create(&h);
    if (s != SHOAL_STATUS_SUCCESS) {
        fprintf(stderr, "shoal_create: %s (%s)\n", shoal_status_string(s), shoal_create_error_string());
        exit(s == SHOAL_STATUS_NO_DEVICE ? 77 : 1);
    }
    return h;
}

/* Uniform in [-1, 1), reproducible without depending on the C library's rand(). */
static inline double example_random(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

#endif
