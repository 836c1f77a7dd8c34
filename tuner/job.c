#include "job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value of key=... in a line of space-separated fields, copied into out; 0 if absent. */
static int field(const char *line, const char *key, char *out, size_t cap)
{
    const size_t klen = strlen(key);
    for (const char *s = line; (s = strstr(s, key)) != NULL; s += klen) {
        if ((s == line || s[-1] == ' ') && s[klen] == '=') {
            const char *v = s + klen + 1;
            size_t n = strcspn(v, " \t\r\n");
            if (n >= cap) n = cap - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return 1;
        }
    }
    return 0;
}

static int field_ll(const char *line, const char *key, long long *out)
{
    char buf[64];
    if (!field(line, key, buf, sizeof buf)) return 0;
    char *end;
    *out = strtoll(buf, &end, 10);
    return *end == '\0';
}

static int field_int(const char *line, const char *key, int *out)
{
    long long v;
    if (!field_ll(line, key, &v)) return 0;
    *out = (int)v;
    return 1;
}

static int parse_task(const char *line, tuner_task *t)
{
    char buf[64];
    memset(t, 0, sizeof *t);
    if (!field_ll(line, "id", &t->id) || !field(line, "routine", t->routine, sizeof t->routine)) return 0;
    if (!field(line, "prec", buf, sizeof buf)) return 0;
    t->prec = buf[0];
    if (!field(line, "mode", buf, sizeof buf)) return 0;
    t->array_mode = strcmp(buf, "array") == 0;
    if (!field_int(line, "variant", &t->variant) || !field_int(line, "m", &t->m) || !field_int(line, "n", &t->n) ||
        !field_int(line, "k", &t->k) || !field_ll(line, "batch", &t->batch) ||
        !field(line, "kernel", t->kernel, sizeof t->kernel) || !field_int(line, "module", &t->module) ||
        !field(line, "design", t->design, sizeof t->design) || !field_int(line, "dim_x", &t->dim_x) ||
        !field_int(line, "dim_y", &t->dim_y) || !field_int(line, "p0", &t->p[0]) || !field_int(line, "p1", &t->p[1]) ||
        !field_int(line, "p2", &t->p[2]) || !field_int(line, "p3", &t->p[3]) ||
        !field_int(line, "p4", &t->p[4]))
        return 0;
    return 1;
}

int tuner_job_read(const char *path, tuner_job *job)
{
    memset(job, 0, sizeof *job);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    int cap_m = 64, cap_t = 1024, lineno = 0, ok = 1;
    job->modules = malloc(sizeof(tuner_module) * cap_m);
    job->tasks = malloc(sizeof(tuner_task) * cap_t);
    char line[4096];
    while (ok && fgets(line, sizeof line, f)) {
        ++lineno;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (strncmp(line, "device ", 7) == 0) {
            job->device = atoi(line + 7);
        } else if (strncmp(line, "include_dir ", 12) == 0) {
            sscanf(line + 12, "%1023s", job->include_dir);
        } else if (strncmp(line, "cubin_dir ", 10) == 0) {
            sscanf(line + 10, "%1023s", job->cubin_dir);
        } else if (strncmp(line, "module ", 7) == 0) {
            if (job->n_modules == cap_m) job->modules = realloc(job->modules, sizeof(tuner_module) * (cap_m *= 2));
            tuner_module *mod = &job->modules[job->n_modules];
            ok = field_int(line, "id", &mod->id) && field(line, "src", mod->src, sizeof mod->src);
            job->n_modules += ok;
        } else if (strncmp(line, "task ", 5) == 0) {
            if (job->n_tasks == cap_t) job->tasks = realloc(job->tasks, sizeof(tuner_task) * (cap_t *= 2));
            ok = parse_task(line, &job->tasks[job->n_tasks]);
            job->n_tasks += ok;
        } else {
            ok = 0;
        }
    }
    fclose(f);
    if (!ok) {
        fprintf(stderr, "%s:%d: malformed job line: %s", path, lineno, line);
        tuner_job_free(job);
        return -1;
    }
    return 0;
}

void tuner_job_free(tuner_job *job)
{
    free(job->modules);
    free(job->tasks);
    memset(job, 0, sizeof *job);
}
