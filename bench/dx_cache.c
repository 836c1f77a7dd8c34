/* Cubins of the cuSolverDx peer on disk. Generation costs seconds to a minute per kernel (NVRTC
 * compiles the library's headers), measuring it a few milliseconds: kernels are made once, in
 * parallel, possibly on another machine (no GPU needed), and carried along.
 *
 * Layout: DIR/<version>-<recipe>/<name>.cubin and <name>.shape, name = routine_prec_uplo_n_smXXX
 * (dx_config_name). The folder is named by libmathdx's version and the wrapper's recipe, so a
 * new libmathdx or a changed kernel never meets old cubins. The .shape file (one line: bpb
 * threads bx by bz smem gen_s) is written after the cubin, both atomically (rename), so a kernel
 * counts as cached only when both are complete. */
#include "dx_cache.h"
#include "dx_gen.h"

#include <libcusolverdx.h>
#include <libmathdx.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *dx_peer_missing(void) { return NULL; }

const char *dx_peer_version(void)
{
    static char v[128];
    if (!v[0]) {
        int lib = 0, y = 0, m = 0, p = 0, a = 0, b = 0, c = 0;
        mathdxGetVersion(&lib);
        mathdxGetPackageVersion(&y, &m, &p);
        cusolverdxGetVersion(&a, &b, &c);
        snprintf(v, sizeof v, "libmathdx %d (MathDx %d.%02d.%d) cuSolverDx %d.%d.%d", lib, y, m, p, a, b, c);
    }
    return v;
}

const char *dx_peer_cache_dir(void)
{
    const char *d = getenv("SHOAL_DX_CACHE");
    return d && *d ? d : "build/dx_cache";
}

void dx_config_name(const dx_config *c, char *buf, size_t len)
{
    static const char *const names[] = {"getrf", "potrf", "geqrf"};
    snprintf(buf, len, "%s_%c_%c_%d_sm%d", names[c->routine], c->prec, c->uplo, c->n, c->sm);
}

/* DIR/<version>-<recipe>; created with its parents when make is set. */
static void version_dir(char *buf, size_t len, int make)
{
    int lib = 0;
    mathdxGetVersion(&lib);
    snprintf(buf, len, "%s/libmathdx%d-%s", dx_peer_cache_dir(), lib, DX_RECIPE);
    if (!make)
        return;
    for (char *p = buf + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

static void path_of(const dx_config *c, const char *ext, char *buf, size_t len, int make)
{
    char dir[512], name[64];
    version_dir(dir, sizeof dir, make);
    dx_config_name(c, name, sizeof name);
    snprintf(buf, len, "%s/%s%s", dir, name, ext);
}

static int write_atomic(const char *path, const void *data, size_t size)
{
    char tmp[640];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return 1;
    int bad = fwrite(data, 1, size, f) != size;
    bad |= fclose(f) != 0;
    if (!bad)
        bad = rename(tmp, path) != 0;
    if (bad)
        remove(tmp);
    return bad;
}

int dx_peer_cached_shape(const dx_config *c, dx_shape *s)
{
    char path[640];
    path_of(c, ".shape", path, sizeof path, 0);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    memset(s, 0, sizeof *s);
    int got = fscanf(f, "%d %d %d %d %d %lld %lf", &s->bpb, &s->threads, &s->block[0], &s->block[1],
                     &s->block[2], &s->smem, &s->gen_s);
    fclose(f);
    return got != 7 || s->bpb < 1 || s->threads < 1;
}

static void *read_cubin(const dx_config *c, size_t *size)
{
    char path[640];
    path_of(c, ".cubin", path, sizeof path, 0);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    void *buf = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) != NULL &&
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* Generates c and stores it (cubin, then shape); the cubin or NULL with why. */
static void *generate_and_store(const dx_config *c, size_t *size, dx_shape *s, char *why, size_t len)
{
    void *cubin = dx_generate(c, size, s, why, len);
    if (!cubin)
        return NULL;
    char path[640], line[160];
    path_of(c, ".cubin", path, sizeof path, 1);
    int bad = write_atomic(path, cubin, *size);
    snprintf(line, sizeof line, "%d %d %d %d %d %lld %.2f\n", s->bpb, s->threads, s->block[0], s->block[1],
             s->block[2], s->smem, s->gen_s);
    path_of(c, ".shape", path, sizeof path, 1);
    if (!bad)
        bad = write_atomic(path, line, strlen(line));
    if (bad) /* a cache that cannot be written costs time, not correctness */
        fprintf(stderr, "dx_peer: cannot store %s (%s)\n", path, strerror(errno));
    return cubin;
}

void *dx_cache_get(const dx_config *c, size_t *size, dx_shape *s, char *why, size_t len)
{
    if (dx_peer_cached_shape(c, s) == 0) {
        void *cubin = read_cubin(c, size);
        if (cubin) {
            s->gen_s = 0;
            return cubin;
        }
    }
    return generate_and_store(c, size, s, why, len);
}

/* Worker w of jobs: every jobs-th missing configuration; exit status = failures (capped). */
static int work(const dx_config *cfgs, const int *todo, int n_todo, int w, int jobs, int verbose)
{
    int bad = 0;
    for (int i = w; i < n_todo; i += jobs) {
        const dx_config *c = &cfgs[todo[i]];
        char name[64], why[4096];
        size_t size = 0;
        dx_shape s;
        dx_config_name(c, name, sizeof name);
        void *cubin = generate_and_store(c, &size, &s, why, sizeof why);
        if (cubin && verbose)
            printf("[dx] %-22s ok %6.1f s  bpb %3d  block %dx%dx%d  smem %lld B  cubin %zu B\n", name, s.gen_s,
                   s.bpb, s.block[0], s.block[1], s.block[2], s.smem, size);
        else if (!cubin)
            printf("[dx] %-22s FAILED: %s\n", name, why);
        fflush(stdout);
        bad += cubin == NULL;
        free(cubin);
    }
    return bad > 100 ? 100 : bad;
}

int dx_peer_prepare(const dx_config *cfgs, int count, int jobs, int verbose)
{
    int *todo = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1)), n_todo = 0, bad = 0;
    dx_shape s;
    for (int i = 0; i < count; ++i)
        if (dx_peer_cached_shape(&cfgs[i], &s) != 0)
            todo[n_todo++] = i;
    if (verbose)
        printf("# cusolverdx: %s; %d of %d kernel(s) cached in %s, generating %d with %d process(es)\n",
               dx_peer_version(), count - n_todo, count, dx_peer_cache_dir(), n_todo,
               n_todo < jobs ? n_todo : jobs);
    fflush(stdout);
    fflush(stderr);
    if (jobs <= 1 || n_todo <= 1) {
        bad = work(cfgs, todo, n_todo, 0, 1, verbose);
    } else {
        /* Processes, not threads: libmathdx keeps per-process state (its last error) and each
         * generation holds ~1 GB; the children use no CUDA runtime and leave with _exit. */
        pid_t pid[64];
        jobs = jobs > n_todo ? n_todo : jobs > 64 ? 64 : jobs;
        for (int w = 0; w < jobs; ++w) {
            pid[w] = fork();
            if (pid[w] == 0)
                _exit(work(cfgs, todo, n_todo, w, jobs, verbose));
            if (pid[w] < 0) /* no more processes: this one does the rest of the workers' share */
                bad += work(cfgs, todo, n_todo, w, jobs, verbose);
        }
        for (int w = 0; w < jobs; ++w) {
            int st = 0;
            if (pid[w] > 0 && waitpid(pid[w], &st, 0) == pid[w])
                bad += WIFEXITED(st) ? WEXITSTATUS(st) : 1;
        }
    }
    free(todo);
    return bad;
}
