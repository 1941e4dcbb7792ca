// gdn-chunk-speed.c — prefill time of a hybrid (Gated DeltaNet) model with the
// chunked delta rule at several chunk sizes against the token recurrence
// (chunk 1), for bench/realistic-parity.sh.
//
//   gdn-chunk-speed MODEL.gguf [TOKENS=512] [THREADS=2] [CHUNKS=1,16,64]
//
// Prints tok/s of one batch of TOKENS per chunk size (best of 2 runs).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gguf.h"
#include "core/pool.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/shape.h"
#include "state/seq.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: gdn-chunk-speed MODEL.gguf [TOKENS] [THREADS] [CHUNKS]\n");
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 512, threads = argc > 3 ? atoi(argv[3]) : 2;
    char chunks[256];
    snprintf(chunks, sizeof chunks, "%s", argc > 4 ? argv[4] : "1,16,64");
    struct gguf_file *f;
    struct model *m;
    struct model_load_opts lo = {.allow_unread = true};
    if (gguf_open(argv[1], &f) || model_load(f, &lo, &m)) {
        fprintf(stderr, "%s: %s\n", argv[1], frink_errmsg());
        return 1;
    }
    struct pool *pool = pool_create(threads);
    struct exec *ex;
    struct seq *s;
    if (!pool || exec_create(m, pool, n, &ex) || seq_create(model_seq_shape(m), n, &s)) {
        fprintf(stderr, "%s\n", frink_errmsg());
        return 1;
    }
    int32_t *ids = malloc((size_t)n * sizeof *ids);
    for (int i = 0; i < n; i++) ids[i] = (int32_t)((i * 7919 + 13) % (m->hp.n_vocab - 3) + 3);
    for (char *tok = strtok(chunks, ","); tok; tok = strtok(NULL, ",")) {
        int chunk = atoi(tok);
        exec_set_gdn_chunk(ex, chunk);
        double best = 1e30;
        for (int rep = 0; rep < 2; rep++) {
            seq_reset(s);
            double t0 = now_s();
            if (exec_forward(ex, s, ids, n, NULL, false)) {
                fprintf(stderr, "%s\n", frink_errmsg());
                return 1;
            }
            double t = now_s() - t0;
            if (t < best) best = t;
        }
        printf("prefill %d tokens, GDN chunk %2d: %7.2f s  %7.1f tok/s\n", n, chunk, best, n / best);
    }
    free(ids);
    seq_free(s);
    exec_free(ex);
    pool_free(pool);
    model_free(m);
    return 0;
}
