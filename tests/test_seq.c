// Sequence state through include/frink.h: checkpoints and their bound,
// truncate-then-continue (hybrid: to a point between checkpoints, and exactly at
// one), fork, the prefix cache (hit, miss, eviction, redundancy), and KV cache
// types F32 / Q8_0 against F16. A last section checks what only the state
// module can show (white-box).
//
// "Same continuation" means the same greedy tokens, and logits within nmse 1e-6
// of a run that never rewound: a replayed stretch can go through the chunked
// delta rule in different pieces, which moves float rounding only (measured:
// 0 after a truncation, ~4e-8 after a prefix hit that splits a piece).
//
// Positions follow the contexts' checkpoint policy (seqtest.h): with a periodic
// checkpoint every 256 tokens, a 300-token prompt evaluated with
// FRINK_EVAL_CHECKPOINT holds checkpoints at 256 (periodic) and 300 (its end).
#include "seqtest.h"

#define NP 300 // prompt tokens
#define NG 16  // greedy tokens compared
#define E TM_CKPT_EVERY

// Greedy continuation of prompt[0..n) in a fresh sequence: the reference.
static void reference(struct tm_ctx *t, const frink_token *p, int n, frink_token *out, float *lg0) {
    frink_seq *s = tm_seq(t->c);
    float *lg = malloc((size_t)t->V * sizeof *lg);
    CHECK(s && !frink_seq_eval(s, p, n, lg, FRINK_EVAL_CHECKPOINT), "%s: eval: %s", t->name, frink_errmsg());
    if (lg0) memcpy(lg0, lg, (size_t)t->V * sizeof *lg);
    CHECK(s && !tm_greedy(t, s, lg, NG, out), "%s", t->name);
    free(lg);
    frink_seq_free(s);
}

static void test_checkpoints(struct tm_ctx *t, const frink_token *p) {
    frink_seq *s = tm_seq(t->c), *e = tm_seq(t->c), *f = NULL;
    if (!s || !e) goto out;
    CHECK(!frink_seq_eval(s, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    if (!t->hybrid) {
        // Attention-only models take no checkpoints and hold no recurrent state:
        // the bytes are the KV rows of the tokens, nothing else.
        CHECK(!frink_seq_fork(s, &f) && !frink_seq_truncate(f, NP / 3, NULL), "%s", frink_errmsg());
        CHECK(f && frink_seq_bytes(e) == 0 && frink_seq_bytes(s) == 3 * frink_seq_bytes(f),
              "%s: attention-only models take no checkpoints (%zu bytes for %d tokens, %zu for %d)", t->name,
              frink_seq_bytes(s), NP, f ? frink_seq_bytes(f) : 0, NP / 3);
        size_t b = frink_seq_bytes(s);
        CHECK(!frink_seq_checkpoint(s) && frink_seq_bytes(s) == b, "%s: a checkpoint of an attention-only model", t->name);
        goto out;
    }
    // Periodic at 256 plus the marked end at 300.
    int pos[16];
    int n = tm_ckpt_positions(s, pos, 16);
    CHECK(n == 2, "%s: %d checkpoints (%s)", t->name, n, tm_fmt_positions(pos, n));
    CHECK(tm_positions_are(pos, n, (const int[]){E, NP}, 2), "%s: checkpoint positions %s", t->name, tm_fmt_positions(pos, n));
    // frink_seq_bytes counts them: the live state once, and once per checkpoint.
    size_t st = frink_seq_bytes(e); // an empty sequence: the recurrent state alone
    CHECK(!frink_seq_fork(s, &f) && !frink_seq_truncate(f, 200, NULL), "%s", frink_errmsg()); // below every checkpoint
    if (f) {
        size_t per_tok = (frink_seq_bytes(f) - st) / 200;
        CHECK(st > 0 && frink_seq_bytes(s) == NP * per_tok + 3 * st, "%s: %zu bytes for %d tokens and 2 checkpoints", t->name,
              frink_seq_bytes(s), NP);
    }
    // A long evaluation keeps only the most recent periodic ones: 256..1280 were
    // taken, 512..1280 are kept, and the marked end of the first prompt.
    for (int k = 0; k < 4; k++) CHECK(!frink_seq_eval(s, p, NP, NULL, 0), "%s", frink_errmsg());
    n = tm_ckpt_positions(s, pos, 16);
    int periodic = 0, marked = 0;
    for (int i = 0; i < n; i++) {
        periodic += pos[i] % E == 0;
        marked += pos[i] % E != 0;
    }
    CHECK(periodic == TM_KEEP_RECENT && marked == 1, "%s: bound: %d periodic, %d marked (%s)", t->name, periodic, marked,
          tm_fmt_positions(pos, n));
    CHECK(n > 0 && pos[n - 1] == 5 * E, "%s: newest periodic at %d", t->name, n > 0 ? pos[n - 1] : -1);
    CHECK(tm_positions_are(pos, n, (const int[]){NP, 2 * E, 3 * E, 4 * E, 5 * E}, 5), "%s: checkpoint positions %s", t->name,
          tm_fmt_positions(pos, n));
    // Only the marked end of the first prompt is left below 512.
    CHECK(tm_restore_point(s, 500) == NP && tm_restore_point(s, NP - 1) == 0, "%s: restore points %d, %d", t->name,
          tm_restore_point(s, 500), tm_restore_point(s, NP - 1));
out:
    frink_seq_free(f);
    frink_seq_free(e);
    frink_seq_free(s);
}

static void test_truncate(struct tm_ctx *t, const frink_token *p) {
    bool hybrid = t->hybrid;
    frink_token want[NG], got[NG];
    float *lg = malloc((size_t)t->V * sizeof *lg), *lg_ref = malloc((size_t)t->V * sizeof *lg);
    // Truncate to 264 tokens (then evaluate the 265th for its logits): between the
    // checkpoints at 256 and 300.
    int n = E + 9;
    reference(t, p, n, want, lg_ref);
    frink_seq *s = tm_seq(t->c);
    if (!s) goto out;
    CHECK(!frink_seq_eval(s, p, NP, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!tm_greedy(t, s, lg, 5, got), "%s", t->name); // wander off first
    int replayed = -1, rp = tm_restore_point(s, n - 1);
    CHECK(rp == (hybrid ? E : n - 1), "%s: restore point %d", t->name, rp);
    CHECK(!frink_seq_truncate(s, n - 1, &replayed), "%s: truncate: %s", t->name, frink_errmsg());
    CHECK(replayed == (hybrid ? 8 : 0), "%s: replayed %d", t->name, replayed);
    CHECK(frink_seq_len(s) == n - 1, "%s: length %d", t->name, frink_seq_len(s));
    CHECK(!frink_seq_eval(s, p + n - 1, 1, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    double e = tm_nmse(lg, lg_ref, t->V);
    CHECK(e < 1e-6, "%s: truncated logits nmse %.3e", t->name, e);
    CHECK(!tm_greedy(t, s, lg, NG, got), "%s", t->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after truncation differs", t->name);
    CHECK(!memcmp(frink_seq_tokens(s), p, (size_t)n * sizeof *p) && !memcmp(frink_seq_tokens(s) + n, got, sizeof got),
          "%s: the tokens after truncation", t->name);
    printf("  %-40s truncate %d->%d: replayed %d, logits nmse %.1e\n", t->name, NP, n - 1, replayed, e);

    // Truncating to the marked end of a prompt needs no replay.
    frink_seq_reset(s);
    CHECK(frink_seq_len(s) == 0, "%s: reset", t->name);
    CHECK(!frink_seq_eval(s, p, 100, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_eval(s, p + 100, 60, NULL, 0), "%s", frink_errmsg());
    CHECK(!frink_seq_truncate(s, 100, &replayed), "%s", frink_errmsg());
    CHECK(replayed == 0 && frink_seq_len(s) == 100, "%s: to a marked checkpoint: replayed %d", t->name, replayed);
    // Nor to one taken by frink_seq_checkpoint; a point after it replays from it.
    CHECK(!frink_seq_eval(s, p + 100, 50, NULL, 0) && !frink_seq_checkpoint(s) && !frink_seq_eval(s, p + 150, 30, NULL, 0),
          "%s", frink_errmsg());
    // What truncating resumes from without recomputation: the checkpoint at 150 (hybrid).
    CHECK(frink_seq_restore_point(s, 170) == (hybrid ? 150 : 170) && frink_seq_restore_point(s, 150) == 150 &&
              frink_seq_restore_point(s, 180) == 180 && frink_seq_restore_point(s, 181) == -1 &&
              frink_seq_restore_point(s, -1) == -1,
          "%s: restore points %d %d", t->name, frink_seq_restore_point(s, 170), frink_seq_restore_point(s, 150));
    CHECK(!frink_seq_truncate(s, 170, &replayed) && replayed == (hybrid ? 20 : 0), "%s: replayed %d after a checkpoint",
          t->name, replayed);
    CHECK(!frink_seq_truncate(s, 150, &replayed) && replayed == 0 && frink_seq_len(s) == 150,
          "%s: to a frink_seq_checkpoint: replayed %d", t->name, replayed);
    // Truncating to zero, and past the end.
    CHECK(!frink_seq_truncate(s, 0, &replayed) && frink_seq_len(s) == 0 && replayed == 0, "%s", t->name);
    CHECK(frink_seq_truncate(s, 5, NULL) == FRINK_ERR_ARG, "%s: truncate past the end must fail", t->name);
    CHECK(frink_seq_truncate(s, -1, NULL) == FRINK_ERR_ARG, "%s: truncate to -1 must fail", t->name);
out:
    frink_seq_free(s);
    free(lg);
    free(lg_ref);
}

static void test_fork(struct tm_ctx *t, const frink_token *p) {
    float *lg = malloc((size_t)t->V * sizeof *lg), *lg2 = malloc((size_t)t->V * sizeof *lg);
    frink_token a[NG], b[NG], want[NG];
    reference(t, p, NP, want, NULL);
    frink_seq *s = tm_seq(t->c), *f = NULL;
    if (!s) goto out;
    CHECK(!frink_seq_eval(s, p, NP, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    memcpy(lg2, lg, (size_t)t->V * sizeof *lg);
    CHECK(!frink_seq_fork(s, &f), "%s: fork: %s", t->name, frink_errmsg());
    if (!f) goto out;
    // The same tokens, the same bytes (KV rows, state, checkpoints), the same checkpoints.
    CHECK(frink_seq_len(f) == frink_seq_len(s) && frink_seq_bytes(f) == frink_seq_bytes(s) &&
              !memcmp(frink_seq_tokens(f), frink_seq_tokens(s), NP * sizeof *p),
          "%s: fork shape", t->name);
    int ps[16], pf[16], ns = 0, nf = 0;
    if (t->hybrid) {
        ns = tm_ckpt_positions(s, ps, 16);
        nf = tm_ckpt_positions(f, pf, 16);
        CHECK(ns == 2 && tm_positions_are(pf, nf, ps, ns), "%s: fork checkpoints %s", t->name, tm_fmt_positions(pf, nf));
    }
    // The original goes on first; the fork must not see it.
    CHECK(!tm_greedy(t, s, lg, NG, a), "%s", t->name);
    CHECK(!tm_greedy(t, f, lg2, NG, b), "%s", t->name);
    CHECK(!memcmp(a, want, sizeof a) && !memcmp(b, want, sizeof b), "%s: fork continuation differs", t->name);
    // Rewinding the fork leaves the original's shared checkpoints intact.
    CHECK(!frink_seq_truncate(f, 150, NULL), "%s", frink_errmsg());
    CHECK(frink_seq_len(s) == NP + NG && frink_seq_len(f) == 150, "%s", t->name);
    if (t->hybrid) {
        int n = tm_ckpt_positions(s, pf, 16);
        CHECK(tm_positions_are(pf, n, ps, ns), "%s: the original's checkpoints after the fork rewound: %s", t->name,
              tm_fmt_positions(pf, n));
    }
    // And freeing the fork too.
    frink_seq_free(f);
    f = NULL;
    if (t->hybrid) CHECK(tm_restore_point(s, NP + 1) == NP, "%s: the original's checkpoint after the fork went", t->name);
out:
    frink_seq_free(f);
    frink_seq_free(s);
    free(lg);
    free(lg2);
}

static void test_prefix_cache(struct tm_ctx *t, const frink_token *p) {
    bool hybrid = t->hybrid;
    float *lg = malloc((size_t)t->V * sizeof *lg), *lg_ref = malloc((size_t)t->V * sizeof *lg);
    frink_token q[NP + 100], want[NG], got[NG];
    frink_context *c = tm_context(t, FRINK_KV_F16, (size_t)1 << 30), *c2 = NULL, *c3 = NULL;
    frink_seq *s = c ? tm_seq(c) : NULL, *d = c ? tm_seq(c) : NULL, *e3[3] = {0}, *d2 = NULL, *big = NULL;
    CHECK(s && d, "%s: a context with a prefix cache", t->name);
    if (!s || !d) goto out;
    CHECK(frink_cache_entries(c) == 0 && frink_cache_bytes(c) == 0, "%s: a new cache is empty", t->name);
    CHECK(!frink_seq_eval(s, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_cache_store(c, s), "%s", frink_errmsg());
    CHECK(frink_cache_entries(c) == 1 && frink_cache_bytes(c) > 0, "%s", t->name);
    // Room for one entry like s, with a margin for its keys.
    size_t one = frink_seq_bytes(s) + 64;

    // Hit: a prompt sharing the first 278 tokens, then different ones.
    int share = E + 22;
    memcpy(q, p, NP * sizeof *q);
    tm_prompt(q + NP, 100, t->V, 99);
    for (int i = share; i < NP; i++) q[i] = 1 + (p[i] - 1 + 1 + i % 3) % (t->V - 1); // != p[i]
    int nq = NP + 50;
    reference(t, q, nq, want, lg_ref);
    int np = -1, rp = -1;
    CHECK(!frink_cache_lookup(c, d, q, nq, nq - 1, &np, &rp), "%s: lookup: %s", t->name, frink_errmsg());
    CHECK(np == share, "%s: hit of %d tokens, want %d", t->name, np, share);
    CHECK(rp == (hybrid ? share - E : 0), "%s: replayed %d", t->name, rp);
    CHECK(frink_seq_len(d) == np && !memcmp(frink_seq_tokens(d), q, (size_t)share * sizeof *q), "%s", t->name);
    CHECK(!frink_seq_eval(d, q + np, nq - np, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    double e = tm_nmse(lg, lg_ref, t->V);
    CHECK(e < 1e-6, "%s: logits after a prefix hit: nmse %.3e", t->name, e);
    CHECK(!tm_greedy(t, d, lg, NG, got), "%s", t->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after a prefix hit differs", t->name);
    printf("  %-40s prefix hit %d/%d (replayed %d), logits nmse %.1e\n", t->name, share, nq, rp, e);
    // The same hit without replay: the prefix stops at the checkpoint (hybrid), the caller
    // evaluates the rest, and the logits are the replaying path's bit for bit.
    {
        float *lg2 = malloc((size_t)t->V * sizeof *lg2);
        frink_seq *d3 = tm_seq(c);
        CHECK(lg2 && d3, "%s: a sequence", t->name);
        if (lg2 && d3) {
            CHECK(!frink_cache_lookup(c, d, q, nq, nq - 1, &np, &rp) && !frink_seq_eval(d, q + np, nq - np, lg, 0),
                  "%s: %s", t->name, frink_errmsg());
            CHECK(!frink_cache_lookup_resume(c, d3, q, nq, nq - 1, &np), "%s: lookup_resume: %s", t->name, frink_errmsg());
            CHECK(np == (hybrid ? E : share) && frink_seq_len(d3) == np, "%s: resume hit %d, want %d", t->name, np,
                  hybrid ? E : share);
            CHECK(!frink_seq_eval(d3, q + np, nq - np, lg2, 0), "%s", frink_errmsg());
            CHECK(!memcmp(lg, lg2, (size_t)t->V * sizeof *lg), "%s: resumed logits differ from the replaying lookup's",
                  t->name);
            q[0] = 1 + p[0] % (t->V - 1);
            CHECK(!frink_cache_lookup_resume(c, d3, q, 100, 100, &np) && np == 0 && frink_seq_len(d3) == 0,
                  "%s: resume miss gave %d", t->name, np);
            q[0] = p[0];
        }
        frink_seq_free(d3);
        free(lg2);
    }

    // The whole cached prompt, capped at n-1 so the last token is computed.
    CHECK(!frink_cache_lookup(c, d, p, NP, NP - 1, &np, &rp) && np == NP - 1, "%s: capped hit %d", t->name, np);
    CHECK(!frink_cache_lookup(c, d, p, NP, NP, &np, &rp) && np == NP && rp == 0, "%s: exact hit %d/%d", t->name, np, rp);

    // Miss: a different first token.
    q[0] = 1 + p[0] % (t->V - 1); // != p[0]
    CHECK(!frink_cache_lookup(c, d, q, 100, 100, &np, &rp) && np == 0 && frink_seq_len(d) == 0, "%s: miss gave %d", t->name,
          np);

    // A longer sequence covering an entry replaces it when it can restore
    // there without replay (always for attention; hybrid: it has no
    // checkpoint at 300 unless marked, and here it is).
    CHECK(!frink_seq_eval(s, q + NP, 100, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_cache_store(c, s), "%s", frink_errmsg());
    CHECK(frink_cache_entries(c) == 1, "%s: %d entries after a covering store", t->name, frink_cache_entries(c));
    frink_context_free(c);
    c = NULL;

    // Eviction: room for two entries; touching the first makes the second the LRU.
    size_t budget = 2 * one + one / 2;
    c2 = tm_context(t, FRINK_KV_F16, budget);
    d2 = c2 ? tm_seq(c2) : NULL;
    CHECK(d2 != NULL, "%s: a context with a prefix cache of %zu bytes", t->name, budget);
    if (!d2) goto out;
    for (int k = 0; k < 3; k++) {
        e3[k] = tm_seq(c2);
        tm_prompt(q, NP, t->V, 100 + (uint32_t)k);
        CHECK(e3[k] && !frink_seq_eval(e3[k], q, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
        if (!e3[k]) goto out;
    }
    CHECK(!frink_cache_store(c2, e3[0]) && !frink_cache_store(c2, e3[1]), "%s", frink_errmsg());
    CHECK(frink_cache_entries(c2) == 2, "%s: %d entries", t->name, frink_cache_entries(c2));
    CHECK(!frink_cache_lookup(c2, d2, frink_seq_tokens(e3[0]), NP, NP, &np, &rp) && np == NP, "%s: hit first %d", t->name, np);
    CHECK(!frink_cache_store(c2, e3[2]), "%s", frink_errmsg());
    CHECK(frink_cache_entries(c2) == 2 && frink_cache_bytes(c2) <= budget, "%s: %d entries, %zu bytes", t->name,
          frink_cache_entries(c2), frink_cache_bytes(c2));
    CHECK(!frink_cache_lookup(c2, d2, frink_seq_tokens(e3[1]), NP, NP, &np, &rp) && np == 0, "%s: the LRU entry was kept (%d)",
          t->name, np);
    CHECK(!frink_cache_lookup(c2, d2, frink_seq_tokens(e3[0]), NP, NP, &np, &rp) && np == NP, "%s: first evicted (%d)",
          t->name, np);
    CHECK(!frink_cache_lookup(c2, d2, frink_seq_tokens(e3[2]), NP, NP, &np, &rp) && np == NP, "%s: third missing (%d)",
          t->name, np);
    // A sequence of another context is refused, and leaves the cache as it was.
    frink_seq *foreign = tm_seq(t->c);
    CHECK(foreign && frink_cache_store(c2, foreign) == FRINK_ERR_ARG && frink_cache_entries(c2) == 2 &&
              frink_cache_lookup(c2, foreign, q, NP, NP, &np, NULL) == FRINK_ERR_ARG,
          "%s: a sequence of another context", t->name);
    frink_seq_free(foreign);

    // A snapshot larger than the whole budget is not kept.
    c3 = tm_context(t, FRINK_KV_F16, 100);
    big = c3 ? tm_seq(c3) : NULL;
    tm_prompt(q, NP, t->V, 100);
    CHECK(big && !frink_seq_eval(big, q, NP, NULL, FRINK_EVAL_CHECKPOINT) && !frink_cache_store(c3, big) &&
              frink_cache_entries(c3) == 0 && frink_cache_bytes(c3) == 0,
          "%s", t->name);
out:
    // Freeing a context frees the sequences it still holds (s, d, e3, d2, big).
    frink_context_free(c);
    frink_context_free(c2);
    frink_context_free(c3);
    free(lg);
    free(lg_ref);
}

// F32 and Q8_0 caches against F16, every position of a 200-token prompt.
// Tolerances (nmse of the logit row, worst position): F32 1e-4, Q8_0 5e-3
// (stories260K's 8-wide heads share each 32-element Q8_0 scale four ways);
// top-1 must agree wherever F16's top-2 margin exceeds 0.5 (F32) / 1.0 (Q8_0).
static void test_kv_types(struct tm_ctx *t, const frink_token *p) {
    int n = 200, V = t->V;
    float *ref = malloc((size_t)n * V * sizeof(float)), *lg = malloc((size_t)n * V * sizeof(float));
    frink_seq *s = tm_seq(t->c);
    CHECK(s && !frink_seq_eval(s, p, n, ref, FRINK_EVAL_ALL), "%s", frink_errmsg());
    size_t b16 = frink_seq_bytes(s), bytes[2] = {0, 0};
    frink_seq_free(s);
    static const frink_kv_type kts[] = {FRINK_KV_F32, FRINK_KV_Q8_0};
    static const char *const ktn[] = {"f32", "q8_0"};
    static const double tol[] = {1e-4, 5e-3};
    static const float margin[] = {0.5f, 1.0f};
    for (int k = 0; k < 2; k++) {
        frink_context *c = tm_context(t, kts[k], 0);
        CHECK(c != NULL, "%s: a %s context", t->name, ktn[k]);
        if (!c) continue;
        s = tm_seq(c);
        CHECK(s && !frink_seq_eval(s, p, n, lg, FRINK_EVAL_ALL), "%s", frink_errmsg());
        if (!s) {
            frink_context_free(c);
            continue;
        }
        bytes[k] = frink_seq_bytes(s);
        double worst = 0;
        int checked = 0, agree = 0;
        for (int r = 0; r < n; r++) {
            const float *a = lg + (size_t)r * V, *b = ref + (size_t)r * V;
            double e = tm_nmse(a, b, V);
            if (e > worst) worst = e;
            int top = tm_argmax(b, V), second = -1;
            for (int i = 0; i < V; i++)
                if (i != top && (second < 0 || b[i] > b[second])) second = i;
            if (b[top] - b[second] > margin[k]) {
                checked++;
                agree += tm_argmax(a, V) == top;
            }
        }
        printf("  %-40s kv %-4s vs f16: worst nmse %.2e (tol %.0e), top-1 %d/%d\n", t->name, ktn[k], worst, tol[k], agree,
               checked);
        CHECK(worst <= tol[k], "%s: kv %s nmse %.3e", t->name, ktn[k], worst);
        CHECK(agree == checked, "%s: kv %s top-1 %d/%d", t->name, ktn[k], agree, checked);
        // Truncation and continuation work the same in every cache type.
        CHECK(!frink_seq_truncate(s, 120, NULL) && frink_seq_len(s) == 120, "%s", t->name);
        frink_context_free(c); // and s with it
    }
    // Each sequence holds its rows in its context's type: the same tokens and state,
    // so the byte counts differ by the KV rows alone, which F32 makes twice F16's
    // (2 bytes per element more) and Q8_0 17/32 of them (34 bytes per 32 elements):
    // (b32 - b16) * 15 == (b16 - bq8) * 32.
    CHECK(bytes[0] > b16 && b16 > bytes[1] && bytes[1] > 0, "%s: bytes f32 %zu, f16 %zu, q8_0 %zu", t->name, bytes[0], b16,
          bytes[1]);
    CHECK((bytes[0] - b16) * 15 == (b16 - bytes[1]) * 32, "%s: bytes f32 %zu, f16 %zu, q8_0 %zu", t->name, bytes[0], b16,
          bytes[1]);
    // An unknown cache type is refused by name.
    frink_context_params cp = frink_context_default_params();
    cp.kv_type = (frink_kv_type)7;
    frink_context *bad = NULL;
    CHECK(frink_context_create(t->m, &cp, &bad) == FRINK_ERR_ARG && !bad && strstr(frink_errmsg(), "KV cache type"), "%s: %s",
          t->name, frink_errmsg());
    free(ref);
    free(lg);
}

// ---- white-box checks of the state module --------------------------------------------
// What frink.h does not show: that a fork shares its checkpoints rather than
// copying them, that a hybrid truncation needing replay is refused without an
// executor (the API always has one), and the KV cache type parser the CLI uses.
#include "engine/engine.h" // frink_seq -> struct seq
#include "model/replay.h"
#include "state/seq.h"

static void whitebox(struct tm_ctx *t, const frink_token *p) {
    frink_seq *s = tm_seq(t->c), *f = NULL;
    if (!s) return;
    CHECK(!frink_seq_eval(s, p, NP, NULL, FRINK_EVAL_CHECKPOINT) && !frink_seq_fork(s, &f), "%s", frink_errmsg());
    if (f) {
        CHECK(f->s->n_ckpt == s->s->n_ckpt && f->s->n_ckpt == (t->hybrid ? 2 : 0), "%s: fork shape", t->name);
        for (int i = 0; i < f->s->n_ckpt && i < s->s->n_ckpt; i++)
            CHECK(f->s->ckpt[i].c == s->s->ckpt[i].c && f->s->ckpt[i].marked == s->s->ckpt[i].marked,
                  "%s: checkpoints are shared", t->name);
        if (t->hybrid)
            CHECK(s->s->n_ckpt == 2 && s->s->ckpt[0].c->pos == E && !s->s->ckpt[0].marked && s->s->ckpt[1].c->pos == NP &&
                      s->s->ckpt[1].marked,
                  "%s: checkpoint classes", t->name);
    }
    // Hybrid truncation without an executor fails by name when it would replay.
    if (t->hybrid) {
        CHECK(!frink_seq_truncate(s, 100, NULL), "%s", frink_errmsg());
        CHECK(seq_truncate(NULL, s->s, 50, NULL) == FRINK_ERR_ARG && strstr(frink_errmsg(), "executor"), "%s", t->name);
    }
    frink_seq_free(f);
    frink_seq_free(s);
}

int main(void) {
    for (const char *const *mp = tm_models; *mp; mp++) {
        struct tm_ctx t;
        if (tm_open(&t, *mp)) {
            CHECK(0, "cannot open %s", *mp);
            tm_close(&t);
            continue;
        }
        frink_token p[NP];
        tm_prompt(p, NP, t.V, 7);
        test_checkpoints(&t, p);
        test_truncate(&t, p);
        test_fork(&t, p);
        test_prefix_cache(&t, p);
        test_kv_types(&t, p);
        whitebox(&t, p);
        tm_close(&t);
    }
    enum kv_type kt;
    CHECK(seq_kv_type_parse("Q8_0", &kt) && kt == KV_Q8_0 && seq_kv_type_parse("f32", &kt) && kt == KV_F32 && !seq_kv_type_parse("q4", &kt),
          "seq_kv_type_parse");
    return TEST_DONE();
}
