/* The case runner of the host-only C test programs (no GPU): CHECK marks the running case failed,
 * host_cases_main() gives every program the same command line:
 *   PROGRAM [--list | --case NAME]; prints "ok NAME" / "FAILED NAME" per case, exit 0 when all pass. */
#ifndef SHOAL_TESTS_HOST_CASES_H
#define SHOAL_TESTS_HOST_CASES_H

#include <stdio.h>
#include <string.h>

static int g_failed;
#define CHECK(cond)                                                                                  \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            printf("  check failed at line %d: %s\n", __LINE__, #cond);                               \
            g_failed = 1;                                                                            \
        }                                                                                            \
    } while (0)

typedef struct {
    const char *name;
    void (*fn)(void);
} test_case;

static int host_case_run(const test_case *c)
{
    g_failed = 0;
    c->fn();
    printf("%s %s\n", g_failed ? "FAILED" : "ok", c->name);
    return g_failed;
}

static int host_cases_main(const test_case *cases, int n_cases, int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < n_cases; ++i) printf("%s\n", cases[i].name);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--case") == 0) {
        for (int i = 0; i < n_cases; ++i)
            if (strcmp(cases[i].name, argv[2]) == 0) return host_case_run(&cases[i]);
        fprintf(stderr, "unknown case '%s'\n", argv[2]);
        return 2;
    }
    int failed = 0;
    for (int i = 0; i < n_cases; ++i) failed += host_case_run(&cases[i]);
    printf("%d of %d cases failed\n", failed, n_cases);
    return failed != 0;
}

#endif
