// test_context_kernels.c — the kernel choice belongs to the context: two contexts in one process,
// one on the reference kernels and one on the CPU's best, each give exactly the logits they give
// alone, whatever the other does in between (the choice used to be process-wide: the context
// made last decided for every context).
//
// Per model: a prompt of 12 tokens (enough for the panel kernels of prefill) and 6 decode steps,
// first in a context alone, once per kernel choice; then both contexts alive at once, the fast
// one made first, the steps interleaved, and a model opened again while the reference context
// lives (the weights it packs are those of the fast kernels). Quantized fixtures, where the
// reference twins accumulate floats in another order than the vector kernels, so that the two
// choices differ and a leak would show.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

enum { N_PROMPT = 12, N_STEPS = 6, N_ROWS = 1 + N_STEPS };

static frink_model *open_model(const char *path) {
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    mp.no_tokenizer = true; // the fixtures carry a test vocabulary: ids only
    mp.allow_unread = true; // as the parity tests read them
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) fprintf(stderr, "open %s: %s\n", path, frink_errmsg());
    return m;
}

static frink_context *make_context(const frink_model *m, bool reference) {
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 2;
    cp.n_ctx = 64;
    cp.reference_kernels = reference;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) fprintf(stderr, "context: %s\n", frink_errmsg());
    return c;
}

static frink_token token_at(int i, int V) { return (frink_token)(1 + (i * 37 + 11) % (V - 1)); }

// Row k of out [N_ROWS][V] gets the logits after step k: the prompt (k = 0), then decode step k.
static bool run_step(frink_seq *s, int k, int V, float *out) {
    float *row = out + (size_t)k * V;
    if (k == 0) {
        frink_token p[N_PROMPT];
        for (int i = 0; i < N_PROMPT; i++) p[i] = token_at(i, V);
        return frink_seq_eval(s, p, N_PROMPT, row, 0) == FRINK_OK;
    }
    frink_token t = token_at(N_PROMPT + k, V);
    return frink_seq_eval(s, &t, 1, row, 0) == FRINK_OK;
}

// Every step in a context of its own; out [N_ROWS][V].
static bool run_alone(const frink_model *m, bool reference, int V, float *out) {
    frink_context *c = make_context(m, reference);
    frink_seq *s = NULL;
    bool ok = c && frink_seq_create(c, &s) == FRINK_OK;
    for (int k = 0; ok && k < N_ROWS; k++) ok = run_step(s, k, V, out);
    frink_context_free(c);
    return ok;
}

static int rows_differing(const float *a, const float *b, int V) {
    int n = 0;
    for (int k = 0; k < N_ROWS; k++) n += memcmp(a + (size_t)k * V, b + (size_t)k * V, (size_t)V * sizeof(float)) != 0;
    return n;
}

static void check_model(const char *path, const char *name) {
    frink_model *m = open_model(path);
    CHECK(m, "%s: open", name);
    if (!m) return;
    const int V = frink_model_n_vocab(m);
    const size_t bytes = (size_t)N_ROWS * V * sizeof(float);
    float *fast = malloc(bytes), *ref = malloc(bytes), *f2 = malloc(bytes), *r2 = malloc(bytes), *g2 = malloc(bytes);
    CHECK(run_alone(m, false, V, fast) && run_alone(m, true, V, ref), "%s: alone: %s", name, frink_errmsg());
    CHECK(rows_differing(fast, ref, V) > 0, "%s: the reference kernels give other bits than the fast ones", name);

    // Both alive and a third made after them (with a process-wide switch, the context made last
    // decided for all three).
    frink_context *cf = make_context(m, false), *cr = make_context(m, true);
    frink_seq *sf = NULL, *sr = NULL;
    bool ok = cf && cr && frink_seq_create(cf, &sf) == FRINK_OK && frink_seq_create(cr, &sr) == FRINK_OK;
    CHECK(ok && !strcmp(frink_context_kernels(cr), "reference") && strcmp(frink_context_kernels(cf), "reference"),
          "%s: each context names its own kernels ('%s', '%s')", name, cf ? frink_context_kernels(cf) : "",
          cr ? frink_context_kernels(cr) : "");
    // A model opened while a reference context lives, and a fast context on it.
    frink_model *m2 = ok ? open_model(path) : NULL;
    frink_context *cg = m2 ? make_context(m2, false) : NULL;
    frink_seq *sg = NULL;
    ok = ok && cg && frink_seq_create(cg, &sg) == FRINK_OK;
    for (int k = 0; ok && k < N_ROWS; k++)
        ok = run_step(sf, k, V, f2) && run_step(sr, k, V, r2) && run_step(sg, k, V, g2);
    CHECK(ok, "%s: interleaved: %s", name, frink_errmsg());
    if (ok) {
        CHECK(!memcmp(f2, fast, bytes), "%s: the fast context interleaved with a reference one: %d of %d steps differ from it alone",
              name, rows_differing(f2, fast, V), N_ROWS);
        CHECK(!memcmp(r2, ref, bytes), "%s: the reference context interleaved with a fast one: %d of %d steps differ from it alone",
              name, rows_differing(r2, ref, V), N_ROWS);
        CHECK(!memcmp(g2, fast, bytes), "%s: a model opened while a reference context lives: %d of %d steps differ", name,
              rows_differing(g2, fast, V), N_ROWS);
    }
    frink_context_free(cg);
    frink_model_free(m2);
    frink_context_free(cr);
    frink_context_free(cf);
    frink_model_free(m);
    free(g2);
    free(r2);
    free(f2);
    free(ref);
    free(fast);
}

int main(void) {
    check_model("tests/data/archs/q/llama-dense-Q4_K_M.gguf", "llama-dense Q4_K_M");
    check_model("tests/data/archs/q/qwen35-dense-Q4_K_M.gguf", "qwen35 hybrid Q4_K_M");
    return TEST_DONE();
}
