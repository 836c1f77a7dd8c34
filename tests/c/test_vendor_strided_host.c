/* The vendor's strided route on the CPU (no GPU): runtime/lapack_vendor_strided.c linked against
 * a host version of the pointer-array launch (the workspace is host memory) and a recording
 * vendor, which checks every chunk it is handed. What this proves: each problem reaches the
 * vendor exactly once, in order, with its A, B and tau at base + i * stride (element sizes of
 * s, d, c, z), its pivots and info displaced with it, only the operands the call has, chunks of
 * at most SHOAL_WS_POINTERS problems, and a declined case stopping before any vendor work. What
 * it cannot: the launch and the vendor's arithmetic (the tuner checks every row it times).
 *
 *   test_vendor_strided_host     every case; last line "N passed, M failed" */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_block_pointers.h"
#include "lapack_vendor.h"

/* ---- host stand-in of the vendor (the pointer launch: tests/c/host_block_pointers.c) ---- */

/* runtime/gemm_launch.c's, which would bring the CUDA runtime along */
int shoal_elem_bytes(char precision) { return precision == 's' ? 4 : precision == 'd' || precision == 'c' ? 8 : 16; }

/* what the recording vendor expects: the whole call, as the route got it */
static struct expect {
    shoal_lapack_params p;
    long long es;
    long long next;      /* the first problem not yet seen */
    int decline, calls, bad;
    char why[256];
} X;

static void fail(const char *what, long long i)
{
    if (!X.bad) snprintf(X.why, sizeof X.why, "%s (problem %lld)", what, i);
    X.bad = 1;
}

int shoal_lapack_vendor(const shoal_vendor_handles *h, const char *routine, char precision, int variant,
                        const shoal_lapack_params *q)
{
    (void)h; (void)routine; (void)precision; (void)variant;
    if (X.decline) return SHOAL_VENDOR_UNSUPPORTED;
    ++X.calls;
    const shoal_lapack_params *p = &X.p;
    const long long b0 = X.next;
    if (q->batch < 1 || q->batch > SHOAL_WS_POINTERS) fail("chunk size", b0);
    if (q->A || q->B || q->tau) fail("strided pointers passed on", b0);
    if (!q->A_array || !!q->B_array != !!p->B || !!q->tau_array != !!p->tau) fail("operand arrays", b0);
    if (q->m != p->m || q->n != p->n || q->nrhs != p->nrhs || q->lda != p->lda || q->ldb != p->ldb ||
        q->conj != p->conj || q->stride_ipiv != p->stride_ipiv)
        fail("scalars", b0);
    if (p->ipiv ? q->ipiv != p->ipiv + b0 * p->stride_ipiv : q->ipiv != NULL) fail("pivots", b0);
    if (p->info ? q->info != p->info + b0 : q->info != NULL) fail("info", b0);
    for (long long i = 0; i < q->batch && !X.bad; ++i) {
        const long long b = b0 + i;
        if (q->A_array[i] != (char *)p->A + b * p->stride_a * X.es) fail("A", b);
        if (p->B && q->B_array[i] != (char *)p->B + b * p->stride_b * X.es) fail("B", b);
        if (p->tau && q->tau_array[i] != (char *)p->tau + b * p->stride_tau * X.es) fail("tau", b);
    }
    X.next += q->batch;
    return SHOAL_VENDOR_OK;
}

/* ---- cases ---- */

static int passed, failed;
static void **ws;

static void run(char prec, long long batch, int with_b, int with_tau, int with_pivots, int decline)
{
    memset(&X, 0, sizeof X);
    const long long es = prec == 's' ? 4 : prec == 'z' ? 16 : 8;
    shoal_lapack_params p;
    memset(&p, 0, sizeof p);
    p.m = p.n = 7;
    p.nrhs = with_b ? 3 : 0;
    p.lda = 9;      /* ld > m, strides past the matrix: what the route must not assume away */
    p.ldb = 8;
    p.A = (void *)(uintptr_t)0x100000;  /* never dereferenced: the vendor only compares addresses */
    p.stride_a = 9 * 7 + 5;
    if (with_b) {
        p.B = (void *)(uintptr_t)0x4000000000;
        p.stride_b = 8 * 3 + 1;
    }
    if (with_tau) {
        p.tau = (void *)(uintptr_t)0x8000000000;
        p.stride_tau = 7;
    }
    if (with_pivots) {
        p.ipiv = (int *)(uintptr_t)0xc000000000;
        p.stride_ipiv = 7;
        p.info = (int *)(uintptr_t)0xe000000000;
    }
    p.batch = batch;
    X.p = p;
    X.es = es;
    X.decline = decline;
    host_block_pointer_launches = 0;
    const shoal_vendor_handles h = {NULL, NULL};
    const int r = shoal_lapack_vendor_strided(&h, ws, 0, "getrs", prec, 0, &p);
    const long long chunks = (batch + SHOAL_WS_POINTERS - 1) / SHOAL_WS_POINTERS;
    int ok = !X.bad;
    if (decline) {
        ok = ok && r == SHOAL_VENDOR_UNSUPPORTED && X.calls == 0 && host_block_pointer_launches <= 1;
    } else {
        ok = ok && r == SHOAL_VENDOR_OK && X.next == batch && X.calls == chunks &&
             host_block_pointer_launches == chunks;
    }
    printf("%s %c batch %lld b %d tau %d pivots %d decline %d: result %d, %d calls, %d launches %s\n",
           ok ? "ok" : "FAILED", prec, batch, with_b, with_tau, with_pivots, decline, r, X.calls, host_block_pointer_launches, X.why);
    ok ? ++passed : ++failed;
}

static void run_rejects(void)
{
    /* pointer-array calls, and calls without A, are not this route's */
    shoal_lapack_params p;
    memset(&p, 0, sizeof p);
    p.m = p.n = 4;
    p.batch = 3;
    void *arr[3] = {0};
    p.A_array = arr;
    const shoal_vendor_handles h = {NULL, NULL};
    host_block_pointer_launches = 0;
    const int a = shoal_lapack_vendor_strided(&h, ws, 0, "getrf", 'd', 0, &p);
    p.A_array = NULL;
    const int b = shoal_lapack_vendor_strided(&h, ws, 0, "getrf", 'd', 0, &p);
    p.A = (void *)(uintptr_t)0x1000;
    const int c = shoal_lapack_vendor_strided(&h, ws, 0, "getrf", 'h', 0, &p);
    const int d = shoal_lapack_vendor_strided(&h, NULL, 0, "getrf", 'd', 0, &p);
    const int ok = a == SHOAL_VENDOR_UNSUPPORTED && b == SHOAL_VENDOR_UNSUPPORTED && c == SHOAL_VENDOR_UNSUPPORTED &&
                   d == SHOAL_VENDOR_UNSUPPORTED && host_block_pointer_launches == 0;
    printf("%s rejects: array %d, no A %d, precision h %d, no workspace %d, %d host_block_pointer_launches\n", ok ? "ok" : "FAILED", a,
           b, c, d, host_block_pointer_launches);
    ok ? ++passed : ++failed;
}

int main(void)
{
    ws = calloc((size_t)SHOAL_WS_OPERANDS * SHOAL_WS_POINTERS, sizeof(void *));
    if (!ws) return 2;
    static const char precs[] = {'s', 'd', 'c', 'z'};
    static const long long batches[] = {1, 2, SHOAL_WS_POINTERS - 1, SHOAL_WS_POINTERS, SHOAL_WS_POINTERS + 1,
                                        3LL * SHOAL_WS_POINTERS + 17};
    for (int pi = 0; pi < 4; ++pi)
        for (int bi = 0; bi < (int)(sizeof batches / sizeof batches[0]); ++bi)
            for (int ops = 0; ops < 4; ++ops) /* A alone, A + B, A + tau, A + B + tau */
                for (int piv = 0; piv <= 1; ++piv)
                    run(precs[pi], batches[bi], ops & 1, ops >> 1, piv, 0);
    run('d', 5, 1, 0, 1, 1);
    run('z', 3LL * SHOAL_WS_POINTERS, 1, 1, 1, 1);
    run_rejects();
    printf("%d passed, %d failed\n", passed, failed);
    free(ws);
    return failed != 0;
}
