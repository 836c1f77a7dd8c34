#include "compile.h"

#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct work {
    const tuner_job *job;
    compiled_module *out;
    int cc_major, cc_minor;
    int next;
    pthread_mutex_t lock;
} work;

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *size = (size_t)n;
    }
    return buf;
}

static unsigned long long fnv1a(const char *s, size_t n, unsigned long long h)
{
    for (size_t i = 0; i < n; ++i) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void compile_one(const work *w, const tuner_module *mod, compiled_module *out)
{
    out->id = mod->id;
    size_t src_size = 0;
    char *src = read_file(mod->src, &src_size);
    if (!src) {
        snprintf(out->log, sizeof out->log, "cannot read %s", mod->src);
        return;
    }
    char arch[64], inc[1100];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", w->cc_major, w->cc_minor);
    snprintf(inc, sizeof inc, "--include-path=%s", w->job->include_dir);
    const char *opts[] = {arch, inc, "-std=c++17", "--device-as-default-execution-space"};
    const int n_opts = 4;

    /* the abi header is part of the source's identity too */
    char abi_path[1200];
    snprintf(abi_path, sizeof abi_path, "%s/kernel_abi.h", w->job->include_dir);
    size_t abi_size = 0;
    char *abi = read_file(abi_path, &abi_size);
    unsigned long long h = fnv1a(src, src_size, 1469598103934665603ULL);
    if (abi) h = fnv1a(abi, abi_size, h);
    for (int i = 0; i < n_opts; ++i) h = fnv1a(opts[i], strlen(opts[i]), h);
    free(abi);
    char cache[1200];
    snprintf(cache, sizeof cache, "%s/m%d_%016llx.cubin", w->job->cubin_dir, mod->id, h);
    out->cubin = read_file(cache, &out->cubin_size);
    if (out->cubin) {
        out->ok = 1;
        free(src);
        return;
    }

    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, src, mod->src, 0, NULL, NULL) != NVRTC_SUCCESS) {
        snprintf(out->log, sizeof out->log, "nvrtcCreateProgram failed");
        free(src);
        return;
    }
    nvrtcResult r = nvrtcCompileProgram(prog, n_opts, opts);
    if (r != NVRTC_SUCCESS) {
        size_t log_size = 0;
        nvrtcGetProgramLogSize(prog, &log_size);
        char *log = malloc(log_size + 1);
        nvrtcGetProgramLog(prog, log);
        snprintf(out->log, sizeof out->log, "%s: %s", nvrtcGetErrorString(r), log);
        free(log);
    } else {
        nvrtcGetCUBINSize(prog, &out->cubin_size);
        out->cubin = malloc(out->cubin_size);
        nvrtcGetCUBIN(prog, out->cubin);
        out->ok = 1;
        FILE *f = fopen(cache, "wb");
        if (f) {
            fwrite(out->cubin, 1, out->cubin_size, f);
            fclose(f);
        }
    }
    nvrtcDestroyProgram(&prog);
    free(src);
}

static void *worker(void *arg)
{
    work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        const int i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->job->n_modules) return NULL;
        compile_one(w, &w->job->modules[i], &w->out[i]);
    }
}

compiled_module *tuner_compile_all(const tuner_job *job, int cc_major, int cc_minor, int threads)
{
    work w = {job, calloc((size_t)job->n_modules + 1, sizeof(compiled_module)), cc_major, cc_minor, 0,
              PTHREAD_MUTEX_INITIALIZER};
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    pthread_t tid[64];
    for (int i = 0; i < threads; ++i) pthread_create(&tid[i], NULL, worker, &w);
    for (int i = 0; i < threads; ++i) pthread_join(tid[i], NULL);
    return w.out;
}

void tuner_compiled_free(compiled_module *mods, int n)
{
    for (int i = 0; i < n; ++i) free(mods[i].cubin);
    free(mods);
}
