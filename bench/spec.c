// spec.c — speculative decoding's speed against plain decoding, for bench/spec.sh, in the
// shape of the oracle's `spec` command (which runs the reference the same way):
//
//   spec MODEL DRAFT|lookup IDS N DMAX THREADS [PMIN]
//
// Greedy: the prompt IDS (a comma list), then N tokens plain (one token a step), then N tokens
// through frink_spec with DMAX drafts at most, fixed length (every step drafts DMAX, as the
// oracle's loop), then adaptive (frink's default). DRAFT: a draft model's file, or "lookup".
// Prints each run's decode tok/s, steps, drafted and accepted, whether its tokens are plain
// decoding's, and the ids.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frink.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what) {
    fprintf(stderr, "spec: %s: %s\n", what, frink_errmsg());
    exit(1);
}

static frink_model *open_model(const char *path) {
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    mp.allow_unread = true;
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) die(path);
    return m;
}

static frink_context *open_ctx(const frink_model *m, int n_ctx, int threads) {
    frink_context_params cp = frink_context_default_params();
    cp.n_ctx = n_ctx;
    cp.n_threads = threads;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) die("context");
    return c;
}

// One run: N greedy tokens after the prompt into out; spec NULL: plain. Returns decode tok/s.
static double decode_run(frink_context *c, const frink_token *p, int np, int N, const frink_spec_params *spp,
                         frink_token *out, frink_spec_stats *st) {
    const frink_model *m = frink_context_model(c);
    frink_seq *s = NULL;
    frink_sampler_params sp = frink_sampler_default_params();
    sp.temp = 0;
    frink_sampler *smp = NULL;
    float *lg = malloc((size_t)frink_model_n_vocab(m) * sizeof(float));
    if (frink_seq_create(c, &s) || frink_sampler_create(m, &sp, &smp) || frink_seq_eval(s, p, np, lg, 0)) die("prefill");
    frink_spec *fs = NULL;
    if (spp && frink_spec_create(s, spp, &fs)) die("spec");
    double t0 = now_s();
    if (frink_sampler_sample(smp, lg, &out[0])) die("sample");
    int n = 1;
    while (n < N) {
        if (!fs) {
            if (frink_seq_eval(s, &out[n - 1], 1, lg, 0) || frink_sampler_sample(smp, lg, &out[n])) die("decode");
            n++;
            continue;
        }
        int got = 0;
        if (frink_spec_step(fs, out[n - 1], smp, out + n, N - n, &got)) die("step");
        n += got;
    }
    double t1 = now_s();
    memset(st, 0, sizeof *st);
    if (fs) frink_spec_get_stats(fs, st);
    frink_spec_free(fs);
    frink_sampler_free(smp);
    frink_seq_free(s);
    free(lg);
    return (N - 1) / (t1 - t0);
}

static void print_ids(const char *what, const frink_token *t, int n) {
    printf("%s ids:", what);
    for (int i = 0; i < n; i++) printf("%s%d", i ? "," : " ", t[i]);
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: spec MODEL DRAFT|lookup IDS N DMAX THREADS\n");
        return 2;
    }
    int N = atoi(argv[4]), dmax = atoi(argv[5]), th = atoi(argv[6]);
    frink_token *p = malloc(70000 * sizeof *p), *plain = malloc((size_t)N * sizeof *p), *got = malloc((size_t)N * sizeof *p);
    int np = 0;
    for (const char *s = argv[3]; *s && np < 65536;) {
        char *end;
        p[np++] = (frink_token)strtol(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s) break;
    }
    frink_model *m = open_model(argv[1]), *dm = NULL;
    int n_ctx = np + N + dmax + 8;
    frink_context *c = open_ctx(m, n_ctx, th), *dc = NULL;
    frink_spec_params sp = frink_spec_default_params();
    sp.draft_max = dmax;
    if (!strcmp(argv[2], "lookup")) {
        sp.kind = FRINK_SPEC_LOOKUP;
    } else {
        dm = open_model(argv[2]);
        dc = open_ctx(dm, n_ctx, th);
        sp.kind = FRINK_SPEC_DRAFT;
        sp.draft_ctx = dc;
        if (argc > 7) sp.draft_p_min = (float)atof(argv[7]);
    }
    frink_spec_stats st;
    double plain_tps = decode_run(c, p, np, N, NULL, plain, &st);
    printf("plain: decode %d tok: %.2f tok/s\n", N, plain_tps);
    for (int adaptive = 0; adaptive < 2; adaptive++) {
        sp.fixed = !adaptive;
        double tps = decode_run(c, p, np, N, &sp, got, &st);
        printf("spec %s: decode %d tok: %.2f tok/s, %llu steps, %llu drafted, %llu accepted, same as plain: %s\n",
               adaptive ? "adaptive" : "fixed", N, tps, (unsigned long long)st.steps, (unsigned long long)st.drafted,
               (unsigned long long)st.accepted, memcmp(got, plain, (size_t)N * sizeof *got) ? "no" : "yes");
    }
    print_ids("plain", plain, N);
    frink_context_free(dc);
    frink_model_free(dm);
    frink_context_free(c);
    frink_model_free(m);
    free(p);
    free(plain);
    free(got);
    return 0;
}
