/* What the host-only tests of the factorizations' drivers share (tests/c/test_chol_blocked_host.c,
 * test_lu_blocked_host.c, test_gels_host.c): elements of s, d, c, z on host memory, host
 * versions of the shared steps of runtime/drivers/lapack_steps.h (the dispatched TRSM, SYRK /
 * HERK, ORMQR and ORGQR through shoal_spec_run, and the GEMM step), the drivers' workspace in host
 * memory, a seeded generator, and the verdict counters. Each test compiles its driver and
 * lapack_steps.c into its own program (with a small SHOAL_LAPACK_CHUNK) and links this file's
 * host_lapack_steps.c, runtime/lapack_chunk.c, tests/c/host_block_pointers.c and the oracle's
 * oracle/lapack_ref.c and oracle/host_math.c (the host ORMQR's and ORGQR's Q).
 * The host TRSM reads only the stored triangle of A, and not its diagonal where it is unit, as
 * the kernels do; the host ORMQR only the reflectors below A's diagonal and tau; every step runs
 * at once (stream order is program order).
 * One form for all operands: the dispatched TRSM's driver (and its GEMM steps), SYRK / HERK's
 * and the GEMM step take every operand as pointer arrays or every one strided, so the host
 * TRSM, SYRK / HERK, ORMQR (A beside C; tau may be either) and GEMM steps refuse a call whose
 * operands mix the forms (or whose mode is not A's form): a FAILED verdict of its own, and
 * SHOAL_STATUS_INVALID_VALUE, what the GPU returned. */
#ifndef SHOAL_HOST_LAPACK_STEPS_H
#define SHOAL_HOST_LAPACK_STEPS_H

#include <complex.h>

#include "lapack_steps.h"
#include "spec_run.h"

typedef double complex zval;

/* Element `at` of a matrix of precision prec, widened to double complex, and stored back
 * (rounded to the precision; s and d keep the real part). */
zval host_get(char prec, const void *m, long long at);
void host_put(char prec, void *m, long long at, zval v);

/* The unit roundoff of a precision (eps / 2 of C's *_EPSILON). */
double host_eps(char prec);

/* |re| + |im|: BLAS's i?amax measure (|v| for a real v). */
double host_abs1(zval v);

/* Problem b of a spec operand: its pointer-array entry or its strided position. */
void *host_problem(char prec, const shoal_operand *op, long long b);

/* The spec routine ids shoal_spec_routine_id gives (others: -1), and the calls shoal_spec_run
 * and shoal_lapack_step_gemm served since the test last zeroed them. */
enum { HOST_TRSM = 0, HOST_SYRK = 1, HOST_HERK = 2, HOST_ORMQR = 3, HOST_ORGQR = 4, HOST_N_SPEC = 5 };
extern int host_spec_calls[HOST_N_SPEC];
extern int host_gemm_calls;
/* TRSM calls with opts[3] = 1 (unit diagonal) among them */
extern int host_trsm_unit_calls;

/* ctx's drivers' workspace (lapack_ptrs, step_info) in static host memory. */
void host_context(struct shoal_context *ctx);

/* A seeded generator: uniform in [-1, 1], never 0; host_seed may be set to repeat a sequence. */
extern unsigned long long host_seed;
double host_uniform(void);

/* A case's verdict: counted; a failure printed as "FAILED " and the formatted description. */
void host_verdict(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "N passed, M failed" (the last line tests/host_program.py reads); 1 if any failed. */
int host_report(void);

#endif
