// The sequence API on Mamba-2 models, as for Gated DeltaNet (test_seq.c, test_slot.c): the pure
// SSM (mamba2-dense), SSM + attention layers (granitehybrid-dense) and SSM beside attention in
// every layer (falcon-h1-dense, whose layers keep K/V rows and a recurrent state both).
//
//   (a) one prompt evaluated whole, in two pieces, and token by token: the same logits;
//   (b) truncating to an end-of-prompt checkpoint (nothing replayed) and to a point between
//       checkpoints (replayed from the one before), then evaluating the same tokens again;
//   (c) a slot file saved and loaded into a new sequence, then both continued;
//   (d) three sequences per step (prompts of different lengths in one batch, then one token
//       of each per step) against each sequence alone.
//
// Every comparison is bit for bit (memcmp of the logits): the scan and the conv run each
// sequence's tokens in order and every product reduces a row alone, so nothing here may move
// even one rounding; a wrong state carry (a rewind restoring the wrong checkpoint, a slot file
// missing a layer's conv window, a batch mixing two sequences' states) moves them far more.
#include <unistd.h>

#include "seqtest.h"

#define NP 40 // prompt tokens
#define NC 20 // where the end-of-prompt checkpoint is taken
#define NG 8  // greedy tokens compared

static const char *const models[] = {"tests/data/archs/mamba2-dense.gguf", "tests/data/archs/granitehybrid-dense.gguf",
                                     "tests/data/archs/falcon-h1-dense.gguf", NULL};

static bool same(const float *a, const float *b, int V) { return !memcmp(a, b, (size_t)V * sizeof *a); }

// The logits of p[0..n) evaluated whole in a fresh sequence, into lg [V].
static int eval_fresh(struct tm_ctx *t, const frink_token *p, int n, float *lg) {
    frink_seq *s = tm_seq(t->c);
    int rc = !s || frink_seq_eval(s, p, n, lg, 0);
    frink_seq_free(s);
    return rc;
}

// (a) whole, in two pieces (with a checkpoint between), one at a time.
static void test_pieces(struct tm_ctx *t, const frink_token *p, const float *want) {
    float *lg = malloc((size_t)t->V * sizeof *lg);
    frink_seq *s = tm_seq(t->c), *d = tm_seq(t->c);
    CHECK(s && !frink_seq_eval(s, p, NC, NULL, FRINK_EVAL_CHECKPOINT) && !frink_seq_eval(s, p + NC, NP - NC, lg, 0),
          "%s: eval: %s", t->name, frink_errmsg());
    CHECK(same(lg, want, t->V), "%s: two pieces differ from one", t->name);
    bool ok = d != NULL;
    for (int i = 0; ok && i < NP; i++) ok = !frink_seq_eval(d, p + i, 1, lg, 0);
    CHECK(ok && same(lg, want, t->V), "%s: token by token differs from the whole prompt", t->name);
    frink_seq_free(s);
    frink_seq_free(d);
    free(lg);
}

// (b) rewinds: to the checkpoint at NC (nothing replayed), and to NC + 7 (7 replayed).
static void test_rewind(struct tm_ctx *t, const frink_token *p, const float *want) {
    float *lg = malloc((size_t)t->V * sizeof *lg), *cont = malloc((size_t)t->V * sizeof *lg);
    frink_token a[NG], b[NG];
    frink_seq *s = tm_seq(t->c);
    if (!s) goto out;
    CHECK(!frink_seq_eval(s, p, NC, NULL, FRINK_EVAL_CHECKPOINT) && !frink_seq_eval(s, p + NC, NP - NC, lg, 0), "%s: %s",
          t->name, frink_errmsg());
    CHECK(!tm_greedy(t, s, lg, NG, a), "%s", t->name);
    memcpy(cont, lg, (size_t)t->V * sizeof *lg);
    int replayed = -1;
    CHECK(!frink_seq_truncate(s, NC, &replayed) && replayed == 0 && frink_seq_len(s) == NC,
          "%s: truncate to the checkpoint: replayed %d (%s)", t->name, replayed, frink_errmsg());
    CHECK(!frink_seq_eval(s, p + NC, NP - NC, lg, 0) && same(lg, want, t->V), "%s: after a rewind to the checkpoint", t->name);
    CHECK(!tm_greedy(t, s, lg, NG, b) && !memcmp(a, b, sizeof a) && same(lg, cont, t->V),
          "%s: the continuation after a rewind differs", t->name);
    CHECK(!frink_seq_truncate(s, NC + 7, &replayed) && replayed == 7 && frink_seq_len(s) == NC + 7,
          "%s: truncate between checkpoints: replayed %d (%s)", t->name, replayed, frink_errmsg());
    CHECK(!frink_seq_eval(s, p + NC + 7, NP - NC - 7, lg, 0) && same(lg, want, t->V), "%s: after a replayed rewind", t->name);
out:
    frink_seq_free(s);
    free(lg);
    free(cont);
}

// (c) a slot file round trip: the loaded sequence continues as the saved one does.
static void test_slot(struct tm_ctx *t, const frink_token *p) {
    float *la = malloc((size_t)t->V * sizeof *la), *lb = malloc((size_t)t->V * sizeof *lb);
    frink_token a[NG], b[NG];
    char path[64];
    snprintf(path, sizeof path, "/tmp/frink-ssm-slot-%d.bin", (int)getpid());
    frink_seq *s = tm_seq(t->c), *r = tm_seq(t->c);
    if (!s || !r) goto out;
    CHECK(!frink_seq_eval(s, p, NP, la, FRINK_EVAL_CHECKPOINT), "%s: %s", t->name, frink_errmsg());
    CHECK(!frink_seq_save(s, path), "%s: save: %s", t->name, frink_errmsg());
    CHECK(!frink_seq_load(r, path), "%s: load: %s", t->name, frink_errmsg());
    CHECK(frink_seq_len(r) == NP && !memcmp(frink_seq_tokens(r), p, NP * sizeof *p), "%s: loaded tokens", t->name);
    memcpy(lb, la, (size_t)t->V * sizeof *la);
    CHECK(!tm_greedy(t, s, la, NG, a) && !tm_greedy(t, r, lb, NG, b), "%s", t->name);
    CHECK(!memcmp(a, b, sizeof a) && same(la, lb, t->V), "%s: the loaded sequence continues differently", t->name);
    unlink(path);
out:
    frink_seq_free(s);
    frink_seq_free(r);
    free(la);
    free(lb);
}

// (d) three sequences per step against each alone: their prompts (lengths 40, 23, 31) in one
// batch, then NG steps of one token each.
static void test_batch(struct tm_ctx *t, const frink_token *p) {
    enum { NS = 3 };
    const int len[NS] = {NP, 23, 31}, off[NS] = {0, 5, 9};
    float *alone = malloc((size_t)NS * t->V * sizeof *alone);
    frink_seq *one[NS] = {0}, *many[NS] = {0};
    frink_batch *bt = NULL;
    CHECK(!frink_batch_create(4 * NP, &bt), "%s", frink_errmsg());
    for (int k = 0; k < NS; k++) {
        one[k] = tm_seq(t->c);
        many[k] = tm_seq(t->c);
        if (!one[k] || !many[k] || !bt) goto out;
        CHECK(!frink_seq_eval(one[k], p + off[k], len[k], alone + (size_t)k * t->V, 0), "%s", frink_errmsg());
    }
    int idx[NS];
    for (int k = 0; k < NS; k++)
        for (int i = 0; i < len[k]; i++) idx[k] = frink_batch_add(bt, many[k], p[off[k] + i], i == len[k] - 1);
    CHECK(!frink_decode(t->c, bt), "%s: decode: %s", t->name, frink_errmsg());
    for (int k = 0; k < NS; k++) {
        const float *lg = frink_batch_logits(bt, idx[k]);
        CHECK(lg && same(lg, alone + (size_t)k * t->V, t->V), "%s: sequence %d's prompt in a batch of three", t->name, k);
    }
    for (int step = 0; step < NG; step++) {
        frink_batch_clear(bt);
        for (int k = 0; k < NS; k++) {
            frink_token x = tm_argmax(alone + (size_t)k * t->V, t->V);
            idx[k] = frink_batch_add(bt, many[k], x, true);
            CHECK(!frink_seq_eval(one[k], &x, 1, alone + (size_t)k * t->V, 0), "%s", frink_errmsg());
        }
        CHECK(!frink_decode(t->c, bt), "%s: decode: %s", t->name, frink_errmsg());
        bool ok = true;
        for (int k = 0; k < NS; k++) {
            const float *lg = frink_batch_logits(bt, idx[k]);
            ok &= lg && same(lg, alone + (size_t)k * t->V, t->V);
        }
        CHECK(ok, "%s: step %d of three sequences differs from each alone", t->name, step);
    }
out:
    for (int k = 0; k < NS; k++) {
        frink_seq_free(one[k]);
        frink_seq_free(many[k]);
    }
    frink_batch_free(bt);
    free(alone);
}

int main(void) {
    for (int i = 0; models[i]; i++) {
        struct tm_ctx t;
        if (tm_open(&t, models[i])) {
            CHECK(0, "%s: open", models[i]);
            continue;
        }
        frink_token p[NP];
        tm_prompt(p, NP, t.V, 7 + (uint32_t)i);
        float *want = malloc((size_t)t.V * sizeof *want);
        CHECK(!eval_fresh(&t, p, NP, want), "%s: eval: %s", t.name, frink_errmsg());
        test_pieces(&t, p, want);
        test_rewind(&t, p, want);
        test_slot(&t, p);
        test_batch(&t, p);
        free(want);
        tm_close(&t);
    }
    return TEST_DONE();
}
