// args.c — flag parsing helpers shared by every subcommand (see args.h).
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"

int cli_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("frink: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

bool cli_int(const char *flag, const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) {
        fprintf(stderr, "frink: %s expects an integer in [%ld, %ld], got '%s'\n", flag, lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_float(const char *flag, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || isnan(v) || v < lo || v > hi) {
        fprintf(stderr, "frink: %s expects a number in [%g, %g], got '%s'\n", flag, lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_ids(const char *s, int32_t **ids, int *n) {
    size_t cap = 16, k = 0;
    int32_t *v = malloc(cap * sizeof *v);
    if (!v) return false;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || errno || x < 0 || x > INT32_MAX || (*end && *end != ',')) {
            fprintf(stderr, "frink: --ids expects comma-separated token ids, bad entry at '%s'\n", p);
            free(v);
            return false;
        }
        if (k == cap) {
            int32_t *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); return false; }
            v = nv;
        }
        v[k++] = (int32_t)x;
        p = *end ? end + 1 : end;
    }
    if (!k) {
        fprintf(stderr, "frink: --ids is empty\n");
        free(v);
        return false;
    }
    *ids = v;
    *n = (int)k;
    return true;
}

bool cli_wants_help(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    return false;
}

char *cli_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_die("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *d = malloc(cap + 1);
    for (size_t k; d && (k = fread(d + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            char *nd = realloc(d, (cap *= 2) + 1);
            if (!nd) free(d);
            d = nd;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!d || err) {
        free(d);
        cli_die("cannot read '%s'", path);
        return NULL;
    }
    d[n] = 0;
    *len = n;
    return d;
}

int cli_sampling_flag(frink_sampler_params *sp, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    static const char *const names[] = {"--temp", "--top-k", "--top-p", "--min-p", "--repeat-penalty", "--presence-penalty",
                                        "--frequency-penalty", "--repeat-last-n", "--seed", "-s"};
    int k = -1;
    for (int j = 0; j < (int)(sizeof names / sizeof *names); j++)
        if (!strcmp(a, names[j])) k = j;
    if (k < 0) return 0;
    if (!v) return cli_die("%s needs a value", a), -1;
    double d;
    long l;
    bool ok = true;
    switch (k) {
    case 0: ok = cli_float(a, v, 0, 100, &d) && ((sp->temp = (float)d), 1); break;
    case 1: ok = cli_int(a, v, 0, 1 << 30, &l) && ((sp->top_k = (int)l), 1); break;
    case 2: ok = cli_float(a, v, 1e-9, 1, &d) && ((sp->top_p = (float)d), 1); break;
    case 3: ok = cli_float(a, v, 0, 1, &d) && ((sp->min_p = (float)d), 1); break;
    case 4: ok = cli_float(a, v, 1e-6, 100, &d) && ((sp->repeat_penalty = (float)d), 1); break;
    case 5: ok = cli_float(a, v, -100, 100, &d) && ((sp->presence_penalty = (float)d), 1); break;
    case 6: ok = cli_float(a, v, -100, 100, &d) && ((sp->frequency_penalty = (float)d), 1); break;
    case 7: ok = cli_int(a, v, 0, 1 << 20, &l) && ((sp->penalty_last_n = (int)l), 1); break;
    default: ok = cli_int(a, v, 0, LONG_MAX, &l) && ((sp->seed = (uint64_t)l), 1); break;
    }
    return ok ? 2 : -1;
}
