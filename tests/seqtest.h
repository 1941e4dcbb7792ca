// seqtest.h — what test_seq.c and test_slot.c share, all through include/frink.h:
// opening a fixture with a context, deterministic prompts, greedy continuations,
// logit comparisons, and probes that make a sequence's checkpoints visible.
//
// Checkpoints through the API. frink_seq_truncate(n) restores the nearest
// checkpoint at or before n and reports how many tokens it recomputed, so on a
// fork (which shares the checkpoints and leaves the original alone) a
// truncation shows where the nearest checkpoint lies: tm_restore_point. Walking
// down from the end lists every checkpoint a sequence holds: tm_ckpt_positions.
// Attention-only models recompute nothing, so these probes only mean something
// for hybrid models; frink_seq_bytes shows an attention-only model's lack of
// checkpoints instead.
//
// The contexts use the engine's checkpoint policy: a periodic checkpoint every
// TM_CKPT_EVERY tokens, the TM_KEEP_RECENT most recent of them kept, and the
// end-of-prompt (FRINK_EVAL_CHECKPOINT) ones kept apart from them.
#ifndef FRINK_SEQTEST_H
#define FRINK_SEQTEST_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

#define TM_CKPT_EVERY 256 // the contexts' periodic checkpoint spacing
#define TM_KEEP_RECENT 4  // periodic checkpoints kept
#define TM_NCTX 2048      // tokens per sequence (n_ctx)
#define TM_THREADS 2

struct tm_ctx {
    const char *name;
    frink_model *m;
    frink_context *c; // F16 cache, no prefix cache
    int V;
    bool hybrid;      // has recurrent (Gated DeltaNet, Mamba, short convolution) layers
};

// The models every state test runs on: attention-only llama, the two Gated DeltaNet
// hybrid layouts (qwen35: tiled value heads; qwen3next: grouped, fused ba), a conv-only
// recurrent state (lfm2's short convolutions) and a Mamba one (plamo2).
static const char *const tm_models[] = {"models/stories260K.gguf", "tests/data/archs/qwen35-dense.gguf",
                                        "tests/data/archs/qwen3next-moe.gguf", "tests/data/archs/lfm2-dense.gguf",
                                        "tests/data/archs/plamo2-dense.gguf", NULL};

// A context of t's model: TM_THREADS threads, n_ctx TM_NCTX, n_batch 512, the given
// KV cache type and prefix cache budget (0: none). NULL, message printed, on failure.
static inline frink_context *tm_context(const struct tm_ctx *t, frink_kv_type kt, size_t cache_bytes) {
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = TM_THREADS;
    cp.n_ctx = TM_NCTX;
    cp.n_batch = 512;
    cp.kv_type = kt;
    cp.prefix_cache_bytes = cache_bytes;
    frink_context *c = NULL;
    if (frink_context_create(t->m, &cp, &c)) fprintf(stderr, "%s: context: %s\n", t->name, frink_errmsg());
    return c;
}

// Opens a fixture (placeholder vocabularies: no tokenizer; tensors the reference
// ignores: allowed) with an F16 context.
static inline int tm_open(struct tm_ctx *t, const char *path) {
    memset(t, 0, sizeof *t);
    t->name = path;
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    mp.no_tokenizer = true;
    mp.allow_unread = true;
    if (frink_model_open(&mp, &t->m)) {
        fprintf(stderr, "%s\n", frink_errmsg());
        return -1;
    }
    t->V = frink_model_n_vocab(t->m);
    for (int il = 0; il < frink_model_n_layer(t->m); il++) {
        frink_layer_info li;
        if (!frink_model_layer(t->m, il, &li) && strcmp(li.kind, "attention") && strcmp(li.kind, "mla")) t->hybrid = true;
    }
    return (t->c = tm_context(t, FRINK_KV_F16, 0)) ? 0 : -1;
}

static inline void tm_close(struct tm_ctx *t) {
    frink_context_free(t->c);
    frink_model_free(t->m);
}

// A new sequence of context c; NULL, message printed, on failure.
static inline frink_seq *tm_seq(frink_context *c) {
    frink_seq *s = NULL;
    if (frink_seq_create(c, &s)) fprintf(stderr, "seq_create: %s\n", frink_errmsg());
    return s;
}

// Deterministic pseudo-random token ids in [1, V).
static inline void tm_prompt(frink_token *t, int n, int V, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 12345u;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        t[i] = 1 + (frink_token)((x >> 8) % (uint32_t)(V - 1));
    }
}

static inline int tm_argmax(const float *x, int n) {
    int b = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[b]) b = i;
    return b;
}

// From logits `lg` (of the last evaluated token), evaluates k greedy tokens in s;
// out[] gets them. lg is overwritten. Returns 0 on success.
static inline int tm_greedy(const struct tm_ctx *t, frink_seq *s, float *lg, int k, frink_token *out) {
    for (int i = 0; i < k; i++) {
        frink_token x = tm_argmax(lg, t->V);
        out[i] = x;
        if (frink_seq_eval(s, &x, 1, lg, 0)) {
            fprintf(stderr, "%s: eval: %s\n", t->name, frink_errmsg());
            return -1;
        }
    }
    return 0;
}

static inline double tm_nmse(const float *a, const float *b, int n) {
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        double d = (double)a[i] - b[i];
        num += d * d;
        den += (double)b[i] * b[i];
    }
    return num / (den > 0 ? den : 1);
}

// The position of the checkpoint truncating s to n would restore (n itself when
// nothing would be recomputed; always so for attention-only models), s unchanged.
// -1, message printed, on failure.
static inline int tm_restore_point(const frink_seq *s, int n) {
    frink_seq *f = NULL;
    int r = -1;
    if (frink_seq_fork(s, &f) || frink_seq_truncate(f, n, &r)) {
        fprintf(stderr, "restore point probe at %d: %s\n", n, frink_errmsg());
        frink_seq_free(f);
        return -1;
    }
    frink_seq_free(f);
    return n - r;
}

// The positions (ascending) of every checkpoint a hybrid sequence holds, into
// pos[0..max); returns their count (position 0, the empty state, not counted),
// -1 on failure. s unchanged.
static inline int tm_ckpt_positions(const frink_seq *s, int *pos, int max) {
    frink_seq *f = NULL;
    int n = frink_seq_len(s), k = 0, found[64];
    if (frink_seq_fork(s, &f)) goto fail;
    // One more token, so that a checkpoint at the current length shows too.
    if (n > 0 && frink_seq_eval(f, frink_seq_tokens(s), 1, NULL, 0)) goto fail;
    while (n > 0) {
        int r = -1;
        if (frink_seq_truncate(f, n, &r)) goto fail;
        int cp = n - r;
        if (cp == 0) break;
        if (k == 64) goto fail;
        found[k++] = cp;
        n = cp - 1;
    }
    frink_seq_free(f);
    if (k > max) return -1;
    for (int i = 0; i < k; i++) pos[i] = found[k - 1 - i];
    return k;
fail:
    fprintf(stderr, "checkpoint probe: %s\n", frink_errmsg());
    frink_seq_free(f);
    return -1;
}

// "64,128,300" for messages (four buffers in turn: a message may show several).
static inline const char *tm_fmt_positions(const int *pos, int n) {
    static char bufs[4][512];
    static int turn;
    char *buf = bufs[turn++ & 3];
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && o < sizeof bufs[0] - 16; i++)
        o += (size_t)snprintf(buf + o, sizeof bufs[0] - o, i ? ",%d" : "%d", pos[i]);
    return n < 0 ? "(probe failed)" : buf;
}

// Whether pos[0..n) is exactly want[0..nw).
static inline bool tm_positions_are(const int *pos, int n, const int *want, int nw) {
    return n == nw && (n == 0 || !memcmp(pos, want, (size_t)n * sizeof *pos));
}

#endif
