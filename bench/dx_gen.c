/* One cuSolverDx peer kernel, from description to cubin, on the host:
 *   1. a libmathdx descriptor without BatchesPerBlock gives the suggested BatchesPerBlock;
 *   2. a second descriptor with it (libmathdx refuses operators after a trait query) gives the
 *      block dim (no BlockDim operator: the library's default for that BPB), the device
 *      function's LTOIR and cuSolverDx's universal fatbin (its precompiled routines, as LTOIR);
 *   3. NVRTC compiles the wrapper kernel (dx_wrapper.c) to LTOIR (-dlto);
 *   4. nvJitLink links the three with -lto into one sm_XX cubin (the solver inlined).
 * Each libmathdx / NVRTC / nvJitLink failure is reported with the library's own message. */
#include "dx_gen.h"
#include "dx_wrapper.h"

#include <libcommondx.h>
#include <libcusolverdx.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Why the last libmathdx call failed: its status and its last-error text. */
static int dx_failed(commondxStatusType st, const char *what, char *why, size_t len)
{
    if (st == COMMONDX_SUCCESS)
        return 0;
    char last[512] = "";
    size_t n = 0;
    commondxStatusType code;
    if (commondxGetLastErrorStrSize(&n) == COMMONDX_SUCCESS && n > 0 && n <= sizeof last)
        commondxGetLastErrorStr(&code, sizeof last, last);
    snprintf(why, len, "libmathdx %s: %s%s%s", what, commondxStatusToStr(st), *last ? ": " : "", last);
    return 1;
}
#define DX_TRY(call, what)                                                                    \
    do {                                                                                      \
        if (dx_failed((call), (what), why, len))                                              \
            goto fail;                                                                        \
    } while (0)

static long long align16(long long x) { return (x + 15) / 16 * 16; }

static cusolverdxFunction function_of(dx_routine r)
{
    return r == DX_GETRF ? CUSOLVERDX_FUNCTION_GETRF_PARTIAL_PIVOT
         : r == DX_POTRF ? CUSOLVERDX_FUNCTION_POTRF : CUSOLVERDX_FUNCTION_GEQRF;
}

/* The descriptor of c; bpb 0 leaves BatchesPerBlock to the library (for the suggestion). */
static int describe(const dx_config *c, long long bpb, cusolverdxDescriptor *h, char *why, size_t len)
{
    long long size[2] = {c->n, c->n}, lda = c->n;
    DX_TRY(cusolverdxCreateDescriptor(h), "create descriptor");
    if (bpb > 0) /* first, as libmathdx's examples set it */
        DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_BATCHES_PER_BLOCK, bpb), "BatchesPerBlock");
    /* potrf takes one size (square); getrf and geqrf M x N */
    DX_TRY(cusolverdxSetOperatorInt64s(*h, CUSOLVERDX_OPERATOR_SIZE, c->routine == DX_POTRF ? 1 : 2, size), "Size");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_TYPE, CUSOLVERDX_TYPE_REAL), "Type");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_PRECISION,
                                      c->prec == 'd' ? COMMONDX_PRECISION_F64 : COMMONDX_PRECISION_F32), "Precision");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_SM, c->sm), "SM");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_EXECUTION, COMMONDX_EXECUTION_BLOCK), "Block");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_API, CUSOLVERDX_API_SMEM), "API");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_FUNCTION, function_of(c->routine)), "Function");
    DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_ARRANGEMENT, CUSOLVERDX_ARRANGEMENT_COL_MAJOR),
           "Arrangement");
    DX_TRY(cusolverdxSetOperatorInt64s(*h, CUSOLVERDX_OPERATOR_LEADING_DIMENSION, 1, &lda), "LeadingDimension");
    if (c->routine == DX_POTRF)
        DX_TRY(cusolverdxSetOperatorInt64(*h, CUSOLVERDX_OPERATOR_FILL_MODE,
                                          c->uplo == 'u' ? CUSOLVERDX_FILL_MODE_UPPER : CUSOLVERDX_FILL_MODE_LOWER),
               "FillMode");
    return 0;
fail:
    return 1;
}

/* A growable list of link inputs (LTOIR chunks and the fatbin), owned. */
typedef struct blob { void *data; size_t size; nvJitLinkInputType type; char name[32]; } blob;

/* The device function's LTOIR chunk(s) (libmathdx may split one function into several). */
static int code_ltoirs(commondxCode code, blob *out, int max, int *count, char *why, size_t len)
{
    size_t k = 0;
    DX_TRY(commondxGetCodeNumLTOIRs(code, &k), "number of LTOIRs");
    if (k < 1)
        k = 1;
    if ((int)k > max) {
        snprintf(why, len, "libmathdx gave %zu LTOIR chunks (at most %d handled)", k, max);
        return 1;
    }
    size_t sizes[8];
    void *ptrs[8];
    if (k == 1)
        DX_TRY(commondxGetCodeLTOIRSize(code, &sizes[0]), "LTOIR size");
    else
        DX_TRY(commondxGetCodeLTOIRSizes(code, k, sizes), "LTOIR sizes");
    for (size_t i = 0; i < k; ++i) {
        out[i].data = ptrs[i] = malloc(sizes[i]);
        out[i].size = sizes[i];
        out[i].type = NVJITLINK_INPUT_LTOIR;
        snprintf(out[i].name, sizeof out[i].name, "cusolverdx_%zu", i);
        *count = (int)i + 1;
        if (!ptrs[i]) {
            snprintf(why, len, "out of memory");
            return 1;
        }
    }
    if (k == 1)
        DX_TRY(commondxGetCodeLTOIR(code, sizes[0], ptrs[0]), "LTOIR");
    else
        DX_TRY(commondxGetCodeLTOIRs(code, k, ptrs), "LTOIRs");
    return 0;
fail:
    return 1;
}

/* The wrapper kernel's LTOIR for shape s and the generated symbol. */
static int wrapper_ltoir(const dx_config *c, const dx_shape *s, const char *sym, blob *out, char *why, size_t len)
{
    const long long nn = (long long)c->n * c->n, es = c->prec == 'd' ? 8 : 4;
    const long long a_bytes = align16(s->bpb * nn * es);
    const long long x_bytes = c->routine == DX_GETRF ? align16(s->bpb * (long long)c->n * 4) : 0;
    char def[10][96];
    snprintf(def[0], sizeof def[0], "-DDX_T=%s", c->prec == 'd' ? "double" : "float");
    snprintf(def[1], sizeof def[1], "-DDX_N=%d", c->n);
    snprintf(def[2], sizeof def[2], "-DDX_BPB=%d", s->bpb);
    snprintf(def[3], sizeof def[3], "-DDX_NT=%d", s->threads);
    snprintf(def[4], sizeof def[4], "-DDX_ROUTINE=%d", (int)c->routine);
    snprintf(def[5], sizeof def[5], "-DDX_SYM=%s", sym);
    snprintf(def[6], sizeof def[6], "-DDX_VEC=%d", (nn * es) % 16 == 0);
    snprintf(def[7], sizeof def[7], "-DDX_A_BYTES=%lld", a_bytes);
    snprintf(def[8], sizeof def[8], "-DDX_X_BYTES=%lld", x_bytes);
    snprintf(def[9], sizeof def[9], "--gpu-architecture=compute_%d", c->sm / 10);
    const char *opts[14];
    for (int i = 0; i < 10; ++i)
        opts[i] = def[i];
    opts[10] = "-dlto";
    opts[11] = "--relocatable-device-code=true";
    opts[12] = "--std=c++17";
    nvrtcProgram p;
    nvrtcResult r = nvrtcCreateProgram(&p, dx_wrapper_source, "dx_wrapper.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(why, len, "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
        return 1;
    }
    r = nvrtcCompileProgram(p, 13, opts);
    size_t n = 0;
    if (r != NVRTC_SUCCESS) {
        char log[2048] = "";
        if (nvrtcGetProgramLogSize(p, &n) == NVRTC_SUCCESS && n > 0 && n <= sizeof log)
            nvrtcGetProgramLog(p, log);
        snprintf(why, len, "NVRTC compile of the wrapper kernel: %s\n%s", nvrtcGetErrorString(r), log);
    } else if (nvrtcGetLTOIRSize(p, &n) != NVRTC_SUCCESS || !(out->data = malloc(n)) ||
               nvrtcGetLTOIR(p, out->data) != NVRTC_SUCCESS) {
        snprintf(why, len, "NVRTC: no LTOIR for the wrapper kernel");
        r = NVRTC_ERROR_INTERNAL_ERROR;
    } else {
        out->size = n;
        out->type = NVJITLINK_INPUT_LTOIR;
        snprintf(out->name, sizeof out->name, "dx_wrapper");
    }
    nvrtcDestroyProgram(&p);
    return r != NVRTC_SUCCESS;
}

/* nvJitLink -lto of the inputs into an sm_XX cubin (malloc'd). */
static void *link_cubin(int sm, const blob *in, int count, size_t *size, char *why, size_t len)
{
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%d", sm / 10);
    const char *opts[] = {arch, "-lto"};
    nvJitLinkHandle h;
    nvJitLinkResult r = nvJitLinkCreate(&h, 2, opts);
    if (r != NVJITLINK_SUCCESS) {
        snprintf(why, len, "nvJitLinkCreate: error %d", (int)r);
        return NULL;
    }
    void *cubin = NULL;
    for (int i = 0; i < count && r == NVJITLINK_SUCCESS; ++i)
        r = nvJitLinkAddData(h, in[i].type, in[i].data, in[i].size, in[i].name);
    if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkComplete(h);
    if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkGetLinkedCubinSize(h, size);
    if (r == NVJITLINK_SUCCESS && (cubin = malloc(*size)) != NULL)
        r = nvJitLinkGetLinkedCubin(h, cubin);
    if (r != NVJITLINK_SUCCESS || !cubin) {
        char log[2048] = "";
        size_t n = 0;
        if (nvJitLinkGetErrorLogSize(h, &n) == NVJITLINK_SUCCESS && n > 0 && n <= sizeof log)
            nvJitLinkGetErrorLog(h, log);
        snprintf(why, len, "nvJitLink: error %d\n%s", (int)r, log);
        free(cubin);
        cubin = NULL;
    }
    nvJitLinkDestroy(&h);
    return cubin;
}

void *dx_generate(const dx_config *c, size_t *size, dx_shape *s, char *why, size_t len)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(s, 0, sizeof *s);
    cusolverdxDescriptor h = 0;
    commondxCode code = 0;
    blob in[10];
    int n_in = 0;
    memset(in, 0, sizeof in);
    void *cubin = NULL;
    long long sugg = 0, bd[3] = {0, 0, 0};
    char name[64], sym[80] = "";
    if (c->n < 1 || c->n > DX_MAX_N) {
        snprintf(why, len, "n = %d outside 1..%d", c->n, DX_MAX_N);
        return NULL;
    }
    dx_config_name(c, name, sizeof name);
    /* 1. the suggestion, from a descriptor without BatchesPerBlock */
    if (describe(c, 0, &h, why, len))
        goto fail;
    DX_TRY(cusolverdxGetTraitInt64(h, CUSOLVERDX_TRAIT_SUGGESTED_BATCHES_PER_BLOCK, &sugg),
           "suggested BatchesPerBlock");
    cusolverdxDestroyDescriptor(h);
    h = 0;
    s->bpb = sugg > 0 ? (int)sugg : 1;
    /* 2. the kernel's descriptor: block dim, symbol, LTOIR, fatbin */
    if (describe(c, s->bpb, &h, why, len))
        goto fail;
    snprintf(sym, sizeof sym, "shoal_dx_%s", name);
    DX_TRY(cusolverdxSetOptionStr(h, COMMONDX_OPTION_SYMBOL_NAME, sym), "symbol name");
    DX_TRY(cusolverdxGetTraitInt64s(h, CUSOLVERDX_TRAIT_BLOCK_DIM, 3, bd), "BlockDim");
    s->threads = (int)(bd[0] * bd[1] * bd[2]);
    for (int i = 0; i < 3; ++i)
        s->block[i] = (int)bd[i];
    if (s->threads < 1 || s->threads > 1024) {
        snprintf(why, len, "unexpected block dim %lldx%lldx%lld", bd[0], bd[1], bd[2]);
        goto fail;
    }
    DX_TRY(commondxCreateCode(&code), "create code");
    DX_TRY(commondxSetCodeOptionInt64(code, COMMONDX_OPTION_TARGET_SM, c->sm), "code target SM");
    DX_TRY(cusolverdxFinalizeCode(code, h), "finalize code");
    if (code_ltoirs(code, in, 8, &n_in, why, len))
        goto fail;
    blob *fat = &in[n_in];
    DX_TRY(cusolverdxGetUniversalFATBINSize(h, &fat->size), "fatbin size");
    if (!(fat->data = malloc(fat->size))) {
        snprintf(why, len, "out of memory");
        goto fail;
    }
    ++n_in;
    fat->type = NVJITLINK_INPUT_FATBIN;
    snprintf(fat->name, sizeof fat->name, "cusolverdx_fatbin");
    DX_TRY(cusolverdxGetUniversalFATBIN(h, fat->size, fat->data), "fatbin");
    /* shared memory: the matrices, then pivots or tau, then the infos (16-byte aligned parts) */
    const long long nn = (long long)c->n * c->n, es = c->prec == 'd' ? 8 : 4;
    s->smem = align16(s->bpb * nn * es);
    if (c->routine == DX_GETRF)
        s->smem += align16(s->bpb * (long long)c->n * 4) + align16(s->bpb * 4LL);
    else if (c->routine == DX_POTRF)
        s->smem += align16(s->bpb * 4LL);
    else
        s->smem += align16(s->bpb * (long long)c->n * es);
    /* 3, 4 */
    if (wrapper_ltoir(c, s, sym, &in[n_in], why, len))
        goto fail;
    ++n_in;
    cubin = link_cubin(c->sm, in, n_in, size, why, len);
fail:
    for (int i = 0; i < 10; ++i) /* also what a failed step had allocated */
        free(in[i].data);
    if (code)
        commondxDestroyCode(code);
    if (h)
        cusolverdxDestroyDescriptor(h);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s->gen_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return cubin;
}
