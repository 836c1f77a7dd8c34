/* shoal_dx_gen: generates the cuSolverDx peer's kernels into the cache without a GPU, for a
 * target SM, and prints the library's suggested BatchesPerBlock and block dim per case. Used to
 * check the generation path where there is no GPU and to make a cache to carry to a GPU host.
 *
 *   shoal_dx_gen [--routine getrf,potrf,geqrf] [--prec sd] [--n 2,4,8,16,32,64] [--uplo l|u|lu]
 *                [--sm 900] [--jobs J]
 * Cache folder: $SHOAL_DX_CACHE, else build/dx_cache. Exit: 0 all generated, 1 some failed,
 * 2 usage, 3 built without libmathdx ("cusolverdx: unavailable (...)"). */
#include "dx_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CFGS 1024

static int has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *routines = "getrf,potrf,geqrf", *precs = "sd", *sizes = "2,4,8,16,32,64", *uplos = "l";
    int sm = 900, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--gen-only"))
            continue; /* the only mode; accepted for symmetry with shoal_lapack_bench */
        if (!v)
            goto usage;
        if (!strcmp(a, "--routine")) routines = v;
        else if (!strcmp(a, "--prec")) precs = v;
        else if (!strcmp(a, "--n")) sizes = v;
        else if (!strcmp(a, "--uplo")) uplos = v;
        else if (!strcmp(a, "--sm")) sm = atoi(v);
        else if (!strcmp(a, "--jobs")) jobs = atoi(v);
        else goto usage;
        ++i;
    }
    if (dx_peer_missing()) {
        printf("cusolverdx: unavailable (%s)\n", dx_peer_missing());
        return 3;
    }
    static const char *const rname[] = {"getrf", "potrf", "geqrf"};
    static dx_config cfgs[MAX_CFGS];
    int count = 0;
    for (const char *p = precs; *p; ++p) {
        if (*p != 's' && *p != 'd')
            goto usage;
        for (int r = 0; r < 3; ++r) {
            if (!has(routines, rname[r]))
                continue;
            for (const char *u = r == DX_POTRF ? uplos : "n"; *u; ++u)
                for (const char *q = sizes; *q;) {
                    char *end;
                    long n = strtol(q, &end, 10);
                    if (end == q || n < 1 || n > DX_MAX_N || count == MAX_CFGS)
                        goto usage;
                    cfgs[count++] = (dx_config){(dx_routine)r, *p, *u, (int)n, sm};
                    q = *end == ',' ? end + 1 : end;
                }
        }
    }
    int bad = dx_peer_prepare(cfgs, count, jobs, 1);
    printf("\n%-6s %4s %4s %4s | %4s %12s %8s\n", "prec", "rout", "uplo", "n", "bpb", "block dim", "smem B");
    for (int i = 0; i < count; ++i) {
        dx_shape s;
        const dx_config *c = &cfgs[i];
        if (dx_peer_cached_shape(c, &s) == 0)
            printf("%-6c %4s %4c %4d | %4d %4dx%dx%d %8lld\n", c->prec, rname[c->routine], c->uplo, c->n, s.bpb,
                   s.block[0], s.block[1], s.block[2], s.smem);
        else
            printf("%-6c %4s %4c %4d | generation FAILED\n", c->prec, rname[c->routine], c->uplo, c->n);
    }
    printf("# %d of %d generated for sm %d\n", count - bad, count, sm);
    return bad ? 1 : 0;
usage:
    fprintf(stderr, "usage: shoal_dx_gen [--routine getrf,potrf,geqrf] [--prec sd] [--n 2,4,...,64] "
                    "[--uplo l|u|lu] [--sm 900] [--jobs J]\n");
    return 2;
}
