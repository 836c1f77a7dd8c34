/* The glue tests' grid and comparison loop (glue_common.h). */
#include "glue_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

uint64_t glue_next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int64_t glue_pick(const int64_t *v, size_t n) { return v[glue_next() % n]; }

/* One call, its record kept in rec (the test's mock run writes t->record). */
static shoal_status call_recorded(const glue_test *t, int old, const glue_unit *u, char prec, void *rec)
{
    memset(t->record, 0, t->record_size);
    const shoal_status s = t->call(old, u, prec, t->args);
    memcpy(rec, t->record, t->record_size);
    return s;
}

int glue_main(const glue_test *t, int argc, char **argv)
{
    const long per = argc > 1 ? atol(argv[1]) : 20000;
    state = argc > 2 ? strtoull(argv[2], NULL, 10) : 0x5eed5eedULL;
    if (state == 0) state = 1;
    void *r_old = malloc(t->record_size), *r_new = malloc(t->record_size);
    if (!r_old || !r_new) return 2;
    long cases = 0, reached = 0, rejected = 0, mismatches = 0;
    for (int ui = 0; ui < t->n_units; ++ui) {
        const glue_unit *u = &t->units[ui];
        glue_counts c = {0, 0, 0, 0};
        for (int pi = 0; pi < 2; ++pi) {
            const char prec = "sd"[pi];
            for (long i = 0; i < per; ++i) {
                t->random_args(u, t->args);
                const shoal_status s_old = call_recorded(t, 1, u, prec, r_old);
                const shoal_status s_new = call_recorded(t, 0, u, prec, r_new);
                ++cases;
                /* every record starts with its int calls */
                const int calls_old = *(const int *)r_old, calls_new = *(const int *)r_new;
                const char *what = s_old != s_new       ? "status"
                                   : calls_old != calls_new ? "whether run was reached"
                                   : calls_new              ? t->differs(r_old, r_new)
                                                            : NULL;
                if (what) {
                    if (++mismatches <= 10) {
                        printf("MISMATCH %c%s: %s (status old %d, new %d)\n", prec, u->name, what, (int)s_old,
                               (int)s_new);
                        t->print_args(t->args);
                    }
                    continue;
                }
                t->tally(u, s_new, r_new, &c);
            }
        }
        t->report(u, &c);
        reached += c.reached;
        rejected += c.rejected;
    }
    printf("%ld cases, %ld reached run, %ld rejected, %ld mismatches\n", cases, reached, rejected, mismatches);
    free(r_old);
    free(r_new);
    return mismatches != 0;
}
