/* Strided batches to the vendor (runtime/lapack_vendor.h). cuBLAS and cuSOLVER take the batched
 * factorizations as pointer arrays only, so a strided call of a shape the vendor won in tuning
 * gets them written into a workspace, SHOAL_WS_POINTERS problems at a time: one launch
 * (runtime/block_pointers.cu) writes a chunk's arrays of A, B and tau, then the array call runs on
 * the chunk. Both are queued on the vendor handles' stream, so a chunk's arrays are read before the
 * next chunk's launch rewrites them. The tuner times the vendor's strided rows through this
 * function, its pointer writes included, so that dispatch compares what a strided call costs. */
#include "lapack_vendor.h"

#include "block_pointers.h"
#include "gemm_launch.h" /* shoal_elem_bytes */

/* Adds a strided operand's source (base NULL: the routine has none) and points *array at its slot. */
static void add_operand(shoal_block_source *src, int *n, void **ws, void *base, long long stride_bytes,
                        long long b0, void *const **array)
{
    if (!base) return;
    const shoal_block_source s = {NULL, (char *)base + b0 * stride_bytes, stride_bytes, 0, 0};
    src[*n] = s;
    *array = ws + (long long)*n * SHOAL_WS_POINTERS;
    ++*n;
}

int shoal_lapack_vendor_strided(const shoal_vendor_handles *h, void **ws, cudaStream_t stream, const char *routine,
                                char precision, int variant, const shoal_lapack_params *p)
{
    if (!h || !ws || !p || p->A_array || !p->A) return SHOAL_VENDOR_UNSUPPORTED;
    if (!shoal_vendor_precision_ok(precision)) return SHOAL_VENDOR_UNSUPPORTED;
    const long long es = shoal_elem_bytes(precision);
    for (long long b0 = 0; b0 < p->batch; b0 += SHOAL_WS_POINTERS) {
        const long long rest = p->batch - b0;
        shoal_lapack_params q = *p;
        q.batch = rest < SHOAL_WS_POINTERS ? rest : SHOAL_WS_POINTERS;
        q.A = q.B = q.tau = NULL;
        q.stride_a = q.stride_b = q.stride_tau = 0;
        if (p->ipiv) q.ipiv = p->ipiv + b0 * p->stride_ipiv;
        if (p->info) q.info = p->info + b0;
        shoal_block_source src[SHOAL_WS_OPERANDS];
        int n = 0;
        add_operand(src, &n, ws, p->A, p->stride_a * es, b0, &q.A_array);
        add_operand(src, &n, ws, p->B, p->stride_b * es, b0, &q.B_array);
        add_operand(src, &n, ws, p->tau, p->stride_tau * es, b0, &q.tau_array);
        if (shoal_block_pointers(ws, src, n, q.batch, 1, stream) != cudaSuccess) return SHOAL_VENDOR_FAILED;
        /* the vendor's checks see the chunk as an array call; a case it lacks is declined by the
         * first chunk, before any vendor work */
        const int r = shoal_lapack_vendor(h, routine, precision, variant, &q);
        if (r != SHOAL_VENDOR_OK) return r;
    }
    return SHOAL_VENDOR_OK;
}
