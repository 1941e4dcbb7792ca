// seqtest.h — what test_seq.c and test_slot.c share: opening a model with an
// executor, deterministic prompts, greedy continuations, logit comparisons.
#ifndef FRINK_SEQTEST_H
#define FRINK_SEQTEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gguf.h"
#include "core/pool.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/seq.h"
#include "model/state.h"
#include "model_util.h"
#include "test.h"

struct tm_ctx {
    const char *name;
    struct model *m;
    struct pool *pool;
    struct exec *ex;
    int V;
};

// The models every state test runs on: attention-only llama, and the two
// hybrid layouts (qwen35: tiled value heads; qwen3next: grouped, fused ba).
static const char *const tm_models[] = {"models/stories260K.gguf", "tests/data/archs/qwen35-dense.gguf",
                                        "tests/data/archs/qwen3next-moe.gguf", NULL};

static int tm_open(struct tm_ctx *c, const char *path, int max_batch) {
    memset(c, 0, sizeof *c);
    c->name = path;
    if (!(c->m = test_model_load(path, true))) return -1;
    c->pool = pool_create(2);
    if (!c->pool || exec_create(c->m, c->pool, max_batch, &c->ex)) return -1;
    c->V = c->m->hp.n_vocab;
    return 0;
}

static void tm_close(struct tm_ctx *c) {
    exec_free(c->ex);
    pool_free(c->pool);
    if (c->m) model_free(c->m);
}

// Deterministic pseudo-random token ids in [1, V).
static void tm_prompt(int32_t *t, int n, int V, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 12345u;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        t[i] = 1 + (int32_t)((x >> 8) % (uint32_t)(V - 1));
    }
}

static int tm_argmax(const float *x, int n) {
    int b = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[b]) b = i;
    return b;
}

// From logits `lg` (of the last appended token), appends k greedy tokens to s;
// out[] gets them. lg is overwritten. Returns 0 on success.
static int tm_greedy(struct tm_ctx *c, struct seq *s, float *lg, int k, int32_t *out) {
    for (int i = 0; i < k; i++) {
        int32_t t = tm_argmax(lg, c->V);
        out[i] = t;
        if (seq_append(c->ex, s, &t, 1, lg, false, false)) {
            fprintf(stderr, "append: %s\n", frink_errmsg());
            return -1;
        }
    }
    return 0;
}

static double tm_nmse(const float *a, const float *b, int n) {
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)a[i] - b[i];
        num += d * d;
        den += (double)b[i] * b[i];
    }
    return num / (den > 0 ? den : 1);
}

#endif
