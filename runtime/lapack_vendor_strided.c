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
#include "lapack_chunk.h"

/* Adds a strided operand's source (*base NULL: the routine has none), points *array at its slot
 * and clears the strided form. */
static void add_operand(shoal_block_source *src, int *n, void **ws, void **base, long long *stride,
                        long long elem_bytes, void *const **array)
{
    if (!*base) return;
    const shoal_block_source s = {NULL, (char *)*base, *stride * elem_bytes, 0, 0};
    src[*n] = s;
    *array = ws + (long long)*n * SHOAL_WS_POINTERS;
    *base = NULL;
    *stride = 0;
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
        shoal_lapack_params q = shoal_lapack_chunk(p, es, b0, rest < SHOAL_WS_POINTERS ? rest : SHOAL_WS_POINTERS);
        shoal_block_source src[SHOAL_WS_OPERANDS];
        int n = 0;
        add_operand(src, &n, ws, &q.A, &q.stride_a, es, &q.A_array);
        add_operand(src, &n, ws, &q.B, &q.stride_b, es, &q.B_array);
        add_operand(src, &n, ws, &q.tau, &q.stride_tau, es, &q.tau_array);
        if (shoal_block_pointers(ws, src, n, q.batch, 1, stream) != cudaSuccess) return SHOAL_VENDOR_FAILED;
        /* the vendor's checks see the chunk as an array call; a case it lacks is declined by the
         * first chunk, before any vendor work */
        const int r = shoal_lapack_vendor(h, routine, precision, variant, &q);
        if (r != SHOAL_VENDOR_OK) return r;
    }
    return SHOAL_VENDOR_OK;
}
