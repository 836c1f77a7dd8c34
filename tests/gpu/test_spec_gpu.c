/* GPU correctness of the spec routines (spec/routines/<r>.toml): every case of the generated
 * table (tests/cases/<r>.toml -> generated/spec_cases.c) through the public entry points
 * (generated/spec_invoke.c), judged by the routine's oracle on the first problems through the
 * shared harness (oracle/spec_harness.h). Prints, per case: who served it, the error in eps
 * units, the time of the call. The cases of `page_end = true` groups (issue 29) come last in the
 * table: a kernel fault there loses the CUDA context. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_test.h"
#include "spec_cases.h"
#include "spec_harness.h"

/* the generated invoker of the public entry points */
shoal_status spec_invoke(shoal_handle handle, const shoal_spec_call *c);

#define CHECK_MAX 96 /* problems judged per case, plus the last one */

static shoal_handle handle;

static const char *case_name(int i) { return spec_cases[i].name; }

static void run_case(int i)
{
    const spec_case *k = &spec_cases[i];
    const long long batch = gpu_test_batch(k->batch); /* SHOAL_TEST_QUICK */
    /* page_end = true: operands at page ends (skipped where VMM is unavailable) */
    if (k->tail_offset == SPEC_HARNESS_PAGE_END && !gpu_test_page_end_ready()) return;
    spec_harness h;
    const cudaError_t e = spec_harness_init_complex(&h, k->routine, k->prec,
                                                    k->pointer_array ? SHOAL_MODE_ARRAY : SHOAL_MODE_STRIDED, k->dims,
                                                    k->opts, k->alpha, k->alpha_im, k->beta, k->beta_im, batch,
                                                    k->ld_pad, k->tail_offset, 0x5eedULL + (unsigned long long)i);
    if (e == cudaErrorInvalidValue) {
        printf("FAILED %s: no oracle %s\n", k->name, shoal_spec_routines[k->routine].oracle);
        gpu_test_record(0);
        spec_harness_free(&h);
        return;
    }
    CUDA_CHECK(e);
    CUDA_CHECK(spec_harness_shape_input(&h, 0, k->input));
    if (k->nan) {
        const cudaError_t pe = spec_harness_poison_at(&h, k->nan_operand, 0, k->nan_element, k->nan_imag);
        if (pe == cudaErrorInvalidValue) {
            printf("FAILED %s: nan_element %lld is not an element of operand %d\n", k->name, k->nan_element,
                   k->nan_operand);
            gpu_test_record(0);
            spec_harness_free(&h);
            return;
        }
        CUDA_CHECK(pe);
    }
    CUDA_CHECK(shoal_set_vendor_dispatch(handle, k->vendor) == SHOAL_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown);
    const char *who = k->driver ? "driver" : shoal_spec_served_by(handle, &h.call);
    cudaEvent_t ev[2];
    CUDA_CHECK(cudaEventCreate(&ev[0]));
    CUDA_CHECK(cudaEventCreate(&ev[1]));
    CUDA_CHECK(cudaEventRecord(ev[0], 0));
    const shoal_status st = k->driver ? shoal_spec_run_driver(handle, &h.call, k->driver) : spec_invoke(handle, &h.call);
    CUDA_CHECK(cudaEventRecord(ev[1], 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    if (st != SHOAL_STATUS_SUCCESS) {
        printf("FAILED %s: %s (served by %s)\n", k->name, shoal_status_string(st), who);
        gpu_test_record(0);
        spec_harness_free(&h);
        return;
    }
    /* own kernels and drivers are what these cases test: the vendor only where allowed */
    const int served_ok = k->vendor || strcmp(who, "vendor") != 0;
    const long long skip[1] = {0};
    long long bad = -1, bad_last = -1;
    double err = spec_harness_check(&h, 0, CHECK_MAX, skip, k->nan ? 1 : 0, &bad);
    const double err_last = spec_harness_check(&h, batch - 1, 1, skip, k->nan ? 1 : 0, &bad_last);
    if (!(err_last <= err)) err = err_last;
    const int ok = served_ok && bad < 0 && bad_last < 0;
    printf("%-44s %c batch %8lld  %-40s err %8.2f eps  %9.3f ms  %s\n", k->name, k->prec, batch, who, err, ms,
           ok ? "ok" : "FAILED");
    if (!served_ok) printf("FAILED %s: served by the vendor with vendor dispatch off\n", k->name);
    if (bad >= 0 || bad_last >= 0)
        printf("FAILED %s: problem %lld beyond %.0f eps\n", k->name, bad >= 0 ? bad : bad_last, ORACLE_ERROR_LIMIT);
    gpu_test_record(ok);
    spec_harness_free(&h);
}

int main(int argc, char **argv)
{
    /* the harness's page-end operands (tests/cases/README.md `page_end`) */
    spec_harness_page_end.alloc = gpu_test_page_end_alloc;
    spec_harness_page_end.free = gpu_test_free;
    const gpu_test_suite suite = {spec_n_cases, case_name, run_case, NULL, NULL};
    return gpu_test_main(argc, argv, &suite, &handle);
}
