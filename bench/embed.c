// embed.c — frink_embed's throughput on many inputs in one call, for bench/embed.sh, in the
// shape of the oracle's `embed-bench` command (which runs the reference the same way):
//
//   embed MODEL S N THREADS [REPS] [OUT.f32]
//
// S inputs of N tokens each (the ids the oracle uses: (i * 7919 + 13 + s * 101) mod n_vocab),
// all in one frink_embed call on a context with n_batch = S * N (one step), the file's pooling,
// no normalization. REPS calls; prints the fastest as sequences/s and tokens/s. OUT.f32: the S pooled vectors of the last call.
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
    fprintf(stderr, "embed: %s: %s\n", what, frink_errmsg());
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: embed MODEL S N THREADS [REPS] [OUT.f32]\n");
        return 2;
    }
    int S = atoi(argv[2]), N = atoi(argv[3]), th = atoi(argv[4]), reps = argc > 5 ? atoi(argv[5]) : 3;
    if (S < 1 || N < 1 || th < 1 || reps < 1) {
        fprintf(stderr, "embed: S, N, THREADS and REPS must be positive\n");
        return 2;
    }
    frink_model_params mp = frink_model_default_params();
    mp.path = argv[1];
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) die(argv[1]);
    frink_context_params cp = frink_context_default_params();
    cp.n_ctx = N;
    cp.n_batch = S * N;
    cp.n_threads = th;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) die("context");
    int nv = frink_model_n_vocab(m);
    frink_token *ids = malloc((size_t)S * N * sizeof *ids);
    frink_embed_input *in = malloc((size_t)S * sizeof *in);
    for (int s = 0; s < S; s++) {
        for (int i = 0; i < N; i++) ids[(size_t)s * N + i] = (frink_token)(((long long)i * 7919 + 13 + s * 101) % nv);
        in[s] = (frink_embed_input){ids + (size_t)s * N, N};
    }
    frink_embed_params ep = frink_embed_default_params();
    ep.normalize = -1;
    int dim = frink_embed_size(m, FRINK_POOLING_UNSPECIFIED);
    if (dim <= 0) die("pooling");
    float *out = malloc((size_t)S * dim * sizeof *out);
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        if (frink_embed(c, in, S, &ep, out, (size_t)S * dim)) die("frink_embed");
        double t = now_s() - t0;
        if (t < best) best = t;
    }
    printf("embed %d x %d tok (%s, %d threads, %s): %.3f s, %.2f seq/s, %.1f tok/s\n", S, N,
           frink_pooling_name(frink_model_pooling(m)), frink_context_threads(c), frink_context_kernels(c), best, S / best,
           (double)S * N / best);
    if (argc > 6) {
        FILE *f = fopen(argv[6], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)S * dim, f) != (size_t)S * dim || fclose(f)) {
            fprintf(stderr, "embed: cannot write %s\n", argv[6]);
            return 1;
        }
    }
    free(out);
    free(in);
    free(ids);
    frink_context_free(c);
    frink_model_free(m);
    return 0;
}
