#include "lapack_chunk.h"

#include <stddef.h>

/* An operand's problem b0: its pointer-array entry, or its strided position (NULL stays NULL). */
static void move(void **ptr, void *const **array, long long stride_bytes, long long b0)
{
    if (*array) *array += b0;
    else if (*ptr) *ptr = (char *)*ptr + b0 * stride_bytes;
}

shoal_lapack_params shoal_lapack_chunk(const shoal_lapack_params *p, long long elem_bytes, long long b0, long long nb)
{
    shoal_lapack_params q = *p;
    move(&q.A, &q.A_array, p->stride_a * elem_bytes, b0);
    move(&q.B, &q.B_array, p->stride_b * elem_bytes, b0);
    move(&q.tau, &q.tau_array, p->stride_tau * elem_bytes, b0);
    if (q.ipiv) q.ipiv += b0 * p->stride_ipiv;
    if (q.info) q.info += b0;
    q.batch = nb;
    return q;
}
