// test_batch.c — many sequences per step, through the public API, and batch
// invariance: a sequence's logits are the same bits alone (one batch, token by
// token, any chunking), in steps shared with other sequences (any mix of
// prefill chunks and decode tokens), at any thread count and step size.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

enum { NSEQ = 4, MAXLEN = 300 };

struct model_case {
    const char *path;
    const char *what;
    int len[NSEQ]; // prompt lengths of the sequences
};

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void prompt(frink_token *t, int n, int V, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 7u;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        t[i] = 1 + (frink_token)((x >> 8) % (uint32_t)(V - 1));
    }
}

static frink_context *ctx_make(const frink_model *m, int threads, int n_batch) {
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = threads;
    cp.n_batch = n_batch;
    cp.n_ctx = 512;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) fprintf(stderr, "context: %s\n", frink_errmsg());
    return c;
}

// Counts rows of got[] that differ in any bit from want[].
static int rows_differ(const float *got, const float *want, int rows, int V) {
    int bad = 0;
    for (int r = 0; r < rows; r++) bad += memcmp(got + (size_t)r * V, want + (size_t)r * V, (size_t)V * sizeof(float)) != 0;
    return bad;
}

// The reference: each sequence alone, its prompt as one call, every row's logits.
static void reference_rows(const frink_model *m, const struct model_case *mc, frink_token ids[NSEQ][MAXLEN], float *ref[NSEQ]) {
    int V = frink_model_n_vocab(m);
    frink_context *c = ctx_make(m, 2, 512);
    for (int k = 0; k < NSEQ; k++) {
        ref[k] = malloc((size_t)mc->len[k] * V * sizeof(float));
        frink_seq *s;
        CHECK(c && frink_seq_create(c, &s) == FRINK_OK, "%s", frink_errmsg());
        CHECK(frink_seq_eval(s, ids[k], mc->len[k], ref[k], FRINK_EVAL_ALL) == FRINK_OK, "%s", frink_errmsg());
        frink_seq_free(s);
    }
    frink_context_free(c);
}

// Token by token alone, at `threads`: same bits as the one-call reference.
static void check_alone_tokenwise(const frink_model *m, const struct model_case *mc, frink_token ids[NSEQ][MAXLEN],
                                  float *ref[NSEQ], int threads) {
    int V = frink_model_n_vocab(m);
    frink_context *c = ctx_make(m, threads, 512);
    float *lg = malloc((size_t)V * sizeof(float));
    for (int k = 0; k < NSEQ; k++) {
        frink_seq *s;
        frink_seq_create(c, &s);
        int bad = 0;
        for (int i = 0; i < mc->len[k]; i++) {
            if (frink_seq_eval(s, ids[k] + i, 1, lg, 0)) { bad++; break; }
            bad += rows_differ(lg, ref[k] + (size_t)i * V, 1, V);
        }
        CHECK(bad == 0, "%s: seq %d token by token at %d threads: %d rows differ from its one-call prefill", mc->what, k,
              threads, bad);
        frink_seq_free(s);
    }
    free(lg);
    frink_context_free(c);
}

// All sequences' prompts in one batch (tokens interleaved round-robin), every row's logits.
static void check_one_batch(const frink_model *m, const struct model_case *mc, frink_token ids[NSEQ][MAXLEN], float *ref[NSEQ],
                            int threads, int n_batch) {
    int V = frink_model_n_vocab(m), total = 0;
    for (int k = 0; k < NSEQ; k++) total += mc->len[k];
    frink_context *c = ctx_make(m, threads, n_batch);
    frink_batch *b;
    CHECK(frink_batch_create(total, &b) == FRINK_OK, "%s", frink_errmsg());
    frink_seq *s[NSEQ];
    for (int k = 0; k < NSEQ; k++) frink_seq_create(c, &s[k]);
    int *at = calloc((size_t)total, sizeof *at), *of = calloc((size_t)total, sizeof *of), pos[NSEQ] = {0};
    for (int added = 0; added < total;)
        for (int k = 0; k < NSEQ; k++)
            if (pos[k] < mc->len[k]) {
                int i = frink_batch_add(b, s[k], ids[k][pos[k]], true);
                at[i] = pos[k]++;
                of[i] = k;
                added++;
            }
    CHECK(frink_decode(c, b) == FRINK_OK, "%s: decode: %s", mc->what, frink_errmsg());
    int bad = 0;
    for (int i = 0; i < total; i++) {
        const float *lg = frink_batch_logits(b, i);
        bad += !lg || rows_differ(lg, ref[of[i]] + (size_t)at[i] * V, 1, V);
    }
    CHECK(bad == 0, "%s: %d sequences interleaved in one batch (%d threads, steps of %d): %d of %d rows differ", mc->what,
          NSEQ, threads, n_batch, bad, total);
    for (int k = 0; k < NSEQ; k++) CHECK(frink_seq_len(s[k]) == mc->len[k], "%s: seq %d length %d", mc->what, k, frink_seq_len(s[k]));
    free(at);
    free(of);
    frink_batch_free(b);
    frink_context_free(c); // frees the sequences too
}

// Continuous batching: sequences arrive at different steps; each step carries a
// random prefill chunk of the newer ones and one decode token of the running ones;
// only some tokens ask for logits.
static void check_mixed_steps(const frink_model *m, const struct model_case *mc, frink_token ids[NSEQ][MAXLEN],
                              float *ref[NSEQ], int threads, int n_batch) {
    int V = frink_model_n_vocab(m);
    frink_context *c = ctx_make(m, threads, n_batch);
    frink_batch *b;
    frink_batch_create(4 * MAXLEN, &b);
    frink_seq *s[NSEQ];
    for (int k = 0; k < NSEQ; k++) frink_seq_create(c, &s[k]);
    int pos[NSEQ] = {0}, bad = 0, checked = 0, steps = 0;
    int at[4 * MAXLEN], of[4 * MAXLEN];
    for (bool left = true; left; steps++) {
        left = false;
        frink_batch_clear(b);
        for (int k = 0; k < NSEQ; k++) {
            if (steps < k) continue; // sequence k arrives at step k
            int rem = mc->len[k] - pos[k];
            if (rem <= 0) continue;
            // A running sequence (its prompt consumed past half) takes one token; others a chunk.
            int take = pos[k] * 2 > mc->len[k] ? 1 : 1 + (int)(rnd() % 9);
            if (take > rem) take = rem;
            for (int i = 0; i < take; i++) {
                bool want = (rnd() % 3) != 0 || pos[k] + 1 == mc->len[k];
                int bi = frink_batch_add(b, s[k], ids[k][pos[k]], want);
                at[bi] = want ? pos[k] : -1;
                of[bi] = k;
                pos[k]++;
            }
        }
        for (int k = 0; k < NSEQ; k++) left |= pos[k] < mc->len[k];
        if (!frink_batch_size(b)) continue;
        if (frink_decode(c, b)) {
            CHECK(0, "%s: decode: %s", mc->what, frink_errmsg());
            break;
        }
        for (int i = 0; i < frink_batch_size(b); i++) {
            const float *lg = frink_batch_logits(b, i);
            if (at[i] < 0) {
                bad += lg != NULL;
                continue;
            }
            checked++;
            bad += !lg || rows_differ(lg, ref[of[i]] + (size_t)at[i] * V, 1, V);
        }
    }
    CHECK(bad == 0 && checked > 0, "%s: mixed steps (%d threads, steps of %d): %d of %d rows differ", mc->what, threads,
          n_batch, bad, checked);
    frink_batch_free(b);
    frink_context_free(c);
}

static void run_case(const struct model_case *mc) {
    frink_model_params mp = frink_model_default_params();
    mp.path = mc->path;
    mp.allow_unread = true;
    mp.no_tokenizer = true; // the fixtures' vocabularies are placeholders
    frink_model *m;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "open %s: %s", mc->path, frink_errmsg());
        return;
    }
    int V = frink_model_n_vocab(m);
    static frink_token ids[NSEQ][MAXLEN];
    for (int k = 0; k < NSEQ; k++) prompt(ids[k], mc->len[k], V, 100u + (uint32_t)k);
    float *ref[NSEQ];
    reference_rows(m, mc, ids, ref);
    check_alone_tokenwise(m, mc, ids, ref, 1);
    check_one_batch(m, mc, ids, ref, 2, 512);
    check_one_batch(m, mc, ids, ref, 1, 7);
    check_one_batch(m, mc, ids, ref, 3, 33);
    check_mixed_steps(m, mc, ids, ref, 2, 512);
    check_mixed_steps(m, mc, ids, ref, 2, 5);
    printf("  %-28s %d sequences (%d, %d, %d, %d tokens): bit-identical alone, together, mixed, 1-3 threads\n", mc->what,
           NSEQ, mc->len[0], mc->len[1], mc->len[2], mc->len[3]);
    for (int k = 0; k < NSEQ; k++) free(ref[k]);
    frink_model_free(m);
}

// A hybrid sequence whose tokens cross the periodic checkpoint boundary (256) inside
// one batch takes its checkpoint exactly there: truncating to 256 replays nothing.
static void check_checkpoint_in_batch(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "tests/data/archs/qwen35-dense.gguf";
    mp.allow_unread = true;
    mp.no_tokenizer = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "%s", frink_errmsg());
        return;
    }
    frink_context *c = ctx_make(m, 2, 512);
    frink_seq *a, *b2;
    frink_seq_create(c, &a);
    frink_seq_create(c, &b2);
    frink_batch *b;
    frink_batch_create(600, &b);
    frink_token t[300];
    prompt(t, 300, frink_model_n_vocab(m), 7);
    for (int i = 0; i < 300; i++) {
        frink_batch_add(b, a, t[i], false);
        if (i < 20) frink_batch_add(b, b2, t[299 - i], i == 19);
    }
    CHECK(frink_decode(c, b) == FRINK_OK, "%s", frink_errmsg());
    int replayed = -1;
    CHECK(frink_seq_truncate(a, 256, &replayed) == FRINK_OK && replayed == 0,
          "truncate to the checkpoint boundary replayed %d tokens", replayed);
    CHECK(frink_seq_truncate(a, 250, &replayed) == FRINK_OK && replayed == 250, "truncate to 250 replayed %d", replayed);
    frink_batch_free(b);
    frink_context_free(c);
    frink_model_free(m);
}

// Bad batches are refused before anything is evaluated.
static void check_refusals(void) {
    frink_model *m;
    frink_model_params mp = frink_model_default_params();
    CHECK(frink_model_open(&mp, &m) == FRINK_OK, "%s", frink_errmsg());
    frink_context *c1 = ctx_make(m, 1, 64), *c2 = ctx_make(m, 1, 64);
    frink_seq *a, *o;
    frink_seq_create(c1, &a);
    frink_seq_create(c2, &o);
    frink_batch *b;
    frink_batch_create(3, &b);
    CHECK(frink_decode(c1, b) == FRINK_ERR_ARG, "empty batch");
    frink_batch_add(b, a, 1, true);
    frink_batch_add(b, o, 1, true);
    CHECK(frink_decode(c1, b) == FRINK_ERR_ARG && strstr(frink_errmsg(), "another context"), "foreign sequence: %s",
          frink_errmsg());
    CHECK(frink_seq_len(a) == 0, "nothing evaluated after a refusal");
    frink_batch_clear(b);
    frink_batch_add(b, a, 1, true);
    frink_batch_add(b, a, frink_model_n_vocab(m), true);
    CHECK(frink_decode(c1, b) == FRINK_ERR_ARG && strstr(frink_errmsg(), "out of range"), "bad id: %s", frink_errmsg());
    CHECK(frink_seq_len(a) == 0, "nothing evaluated after a bad id");
    frink_batch_add(b, a, 2, false);
    CHECK(frink_batch_add(b, a, 3, false) == -1, "a full batch refuses a token");
    frink_batch_clear(b);
    CHECK(frink_batch_add(b, a, 1, false) == 0 && frink_decode(c1, b) == FRINK_OK && frink_batch_logits(b, 0) == NULL,
          "no logits asked, none given");
    CHECK(frink_decode(c1, b) == FRINK_ERR_STATE, "a decoded batch is not decoded twice");
    // A full context: n_ctx tokens per sequence.
    frink_context_params cp = frink_context_default_params();
    cp.n_ctx = 8;
    cp.n_threads = 1;
    frink_context *c3;
    CHECK(frink_context_create(m, &cp, &c3) == FRINK_OK, "%s", frink_errmsg());
    frink_seq *f;
    frink_seq_create(c3, &f);
    frink_token t[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    CHECK(frink_seq_eval(f, t, 9, NULL, 0) == FRINK_ERR_STATE && frink_seq_len(f) == 0, "n_ctx exceeded: %s", frink_errmsg());
    CHECK(frink_seq_eval(f, t, 8, NULL, 0) == FRINK_OK && frink_seq_len(f) == 8, "n_ctx filled: %s", frink_errmsg());
    frink_batch_clear(b);
    frink_batch_add(b, f, 1, false);
    CHECK(frink_decode(c3, b) == FRINK_ERR_STATE && frink_seq_len(f) == 8, "a full sequence in a batch: %s", frink_errmsg());
    // n_seq_max
    cp.n_seq_max = 1;
    frink_context *c4;
    frink_context_create(m, &cp, &c4);
    frink_seq *x, *y;
    CHECK(frink_seq_create(c4, &x) == FRINK_OK && frink_seq_create(c4, &y) == FRINK_ERR_STATE, "n_seq_max 1");
    frink_context_free(c4);
    frink_context_free(c3);
    frink_batch_free(b);
    frink_context_free(c1);
    frink_context_free(c2);
    frink_model_free(m);
}

int main(void) {
    static const struct model_case cases[] = {
        {"models/stories260K.gguf", "stories260K (llama F32)", {37, 5, 90, 1}},
        {"tests/data/archs/q/llama-dense-Q4_K_M.gguf", "llama-dense Q4_K_M", {40, 9, 70, 2}},
        {"tests/data/archs/qwen35-dense.gguf", "qwen35 hybrid F16", {30, 6, 61, 2}},
        {"tests/data/archs/q/qwen35-dense-Q4_K_M.gguf", "qwen35 hybrid Q4_K_M", {33, 7, 50, 3}},
        {"tests/data/archs/q/qwen35moe-moe-Q8_0.gguf", "qwen35moe hybrid MoE Q8_0", {25, 4, 45, 2}},
        {"tests/data/archs/q/qwen3moe-moe-Q4_K_M.gguf", "qwen3moe MoE Q4_K_M", {29, 8, 41, 1}},
        {"tests/data/archs/deepseek2-moe.gguf", "deepseek2 MLA MoE", {21, 3, 34, 2}},
        {"tests/data/archs/gemma2-dense.gguf", "gemma2 sliding window", {27, 5, 60, 2}},
        {"tests/data/archs/q/mamba-dense-Q4_K_M.gguf", "mamba Q4_K_M", {26, 5, 47, 2}},
        {"tests/data/archs/jamba-dense.gguf", "jamba Mamba + attention", {22, 7, 40, 1}},
        {"tests/data/archs/q/lfm2moe-moe-Q8_0.gguf", "lfm2moe short conv MoE Q8_0", {24, 3, 44, 2}},
        {"tests/data/archs/lfm2-dense.gguf", "lfm2 short conv + SWA", {35, 6, 52, 1}},
        {"tests/data/archs/plamo2-dense.gguf", "plamo2 Mamba + attention", {23, 4, 39, 2}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_case(&cases[i]);
    check_checkpoint_in_batch();
    check_refusals();
    return TEST_DONE();
}
