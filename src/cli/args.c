// args.c — flag parsing helpers shared by every subcommand (see args.h).
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cli/args.h"

const char *cli_cmd;

// The one error shape: "frink: CMD: message", CMD said once (some messages already start with it).
static void cli_vwarn(const char *fmt, va_list ap) {
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t nc = cli_cmd ? strlen(cli_cmd) : 0;
    bool named = !nc || (!strncmp(msg, cli_cmd, nc) && msg[nc] == ':');
    fprintf(stderr, "frink: %s%s%s\n", named ? "" : cli_cmd, named ? "" : ": ", msg);
}

int cli_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli_vwarn(fmt, ap);
    va_end(ap);
    return 2;
}

bool cli_int(const char *flag, const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) {
        cli_die("%s expects an integer in [%ld, %ld], got '%s'", flag, lo, hi, s);
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
        cli_die("%s expects a number in [%g, %g], got '%s'", flag, lo, hi, s);
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
            cli_die("--ids expects comma-separated token ids, bad entry at '%s'", p);
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
        cli_die("--ids is empty");
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

char *cli_read_input(const char *path, size_t *len) {
    if (strcmp(path, "-")) return cli_read_file(path, len);
    char *d = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&d, &n);
    char buf[65536];
    for (size_t k; mem && (k = fread(buf, 1, sizeof buf, stdin)) > 0;) fwrite(buf, 1, k, mem);
    bool bad = !mem || ferror(stdin);
    if (mem && fclose(mem)) bad = true;
    if (bad || !d) {
        free(d);
        cli_die("cannot read stdin");
        return NULL;
    }
    *len = n;
    return d;
}

char *cli_read_text(const char *path) {
    size_t n = 0;
    char *d = cli_read_input(path, &n);
    if (!d) return NULL;
    if (n && d[n - 1] == '\n') d[--n] = 0;
    if (strlen(d) != n) {
        free(d);
        cli_die("%s: the text holds a NUL byte", path);
        return NULL;
    }
    return d;
}

int cli_sampling_flag(frink_sampler_params *sp, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    static const char *const names[] = {"--temp", "--top-k", "--top-p", "--min-p", "--repeat-penalty", "--presence-penalty",
                                        "--frequency-penalty", "--repeat-last-n", "--seed", "-s", "--temperature"};
    int k = -1;
    for (int j = 0; j < (int)(sizeof names / sizeof *names); j++)
        if (!strcmp(a, names[j])) k = j;
    if (k < 0) return 0;
    if (!v) return cli_die("%s needs a value", a), -1;
    double d;
    long l;
    bool ok = true;
    switch (k) {
    case 10:
    case 0: ok = cli_float(a, v, 0, 100, &d) && ((sp->temp = (float)d), 1); break;
    case 1: ok = cli_int(a, v, 0, 1 << 30, &l) && ((sp->top_k = (int)l), 1); break;
    case 2: ok = cli_float(a, v, 1e-9, 1, &d) && ((sp->top_p = (float)d), 1); break;
    case 3: ok = cli_float(a, v, 0, 1, &d) && ((sp->min_p = (float)d), 1); break;
    case 4: ok = cli_float(a, v, 1e-6, 100, &d) && ((sp->repeat_penalty = (float)d), 1); break;
    case 5: ok = cli_float(a, v, -100, 100, &d) && ((sp->presence_penalty = (float)d), 1); break;
    case 6: ok = cli_float(a, v, -100, 100, &d) && ((sp->frequency_penalty = (float)d), 1); break;
    case 7: ok = cli_int(a, v, 0, 1 << 20, &l) && ((sp->penalty_last_n = (int)l), 1); break;
    default:
        // -1 (and 4294967295, the reference's LLAMA_DEFAULT_SEED that -1 wraps to) is a random seed.
        ok = cli_int(a, v, -1, LONG_MAX, &l);
        if (ok) sp->seed = l == -1 || l == 0xFFFFFFFFL ? CLI_SEED_RANDOM : (uint64_t)l;
        break;
    }
    return ok ? 2 : -1;
}

void cli_seed_resolve(frink_sampler_params *sp) {
    if (sp->seed != CLI_SEED_RANDOM) return;
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec;
    }
    seed &= 0x7fffffffffffffffull; // so that --seed can repeat it
    sp->seed = seed;
    fprintf(stderr, "frink: seed %llu\n", (unsigned long long)seed);
}
