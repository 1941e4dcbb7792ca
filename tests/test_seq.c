// Sequence state: checkpoints and their bound, truncate-then-continue (hybrid:
// to a point between checkpoints, and exactly at one), fork, the prefix cache
// (hit, miss, eviction, redundancy), and KV cache types F32 / Q8_0 against F16.
//
// "Same continuation" means the same greedy tokens, and logits within nmse 1e-6
// of a run that never rewound: a replayed stretch can go through the chunked
// delta rule in different pieces, which moves float rounding only (measured:
// 0 after a truncation, ~4e-8 after a prefix hit that splits a piece).
#include "seqtest.h"

#define NP 300  // prompt tokens
#define NG 16   // greedy tokens compared

static struct seq *mkseq(struct tm_ctx *c, enum kv_type kt, int every) {
    struct seq_opts o;
    seq_opts_default(&o);
    o.cap = 64; // small: growth is exercised too
    o.kv_type = kt;
    o.ckpt_every = every;
    struct seq *s = NULL;
    if (seq_create_opts(c->m, &o, &s)) fprintf(stderr, "seq_create: %s\n", frink_errmsg());
    return s;
}

// Greedy continuation of prompt[0..n) in a fresh sequence: the reference.
static void reference(struct tm_ctx *c, const int32_t *p, int n, int32_t *out, float *lg0) {
    struct seq *s = mkseq(c, KV_F16, 64);
    float *lg = malloc((size_t)c->V * sizeof *lg);
    CHECK(!seq_append(c->ex, s, p, n, lg, false, true), "%s: append: %s", c->name, frink_errmsg());
    if (lg0) memcpy(lg0, lg, (size_t)c->V * sizeof *lg);
    CHECK(!tm_greedy(c, s, lg, NG, out), "%s", c->name);
    free(lg);
    seq_free(s);
}

static void test_checkpoints(struct tm_ctx *c, const int32_t *p) {
    bool hybrid = c->m->n_gdn_layers > 0;
    struct seq *s = mkseq(c, KV_F16, 64);
    CHECK(!seq_append(c->ex, s, p, NP, NULL, false, true), "%s", frink_errmsg());
    if (!hybrid) {
        CHECK(s->n_ckpt == 0, "%s: attention-only models take no checkpoints (%d)", c->name, s->n_ckpt);
    } else {
        // Periodic at 64..256 (4 kept: 64,128,192,256) plus the marked end at 300.
        CHECK(s->n_ckpt == 5, "%s: %d checkpoints", c->name, s->n_ckpt);
        CHECK(s->n_ckpt == 5 && s->ckpt[0].c->pos == 64 && s->ckpt[3].c->pos == 256 && s->ckpt[4].c->pos == 300 &&
                  s->ckpt[4].marked && !s->ckpt[3].marked,
              "%s: checkpoint positions", c->name);
        // A long append keeps only the most recent periodic ones.
        CHECK(!seq_append(c->ex, s, p, NP, NULL, false, false), "%s", frink_errmsg());
        CHECK(!seq_append(c->ex, s, p, NP, NULL, false, false), "%s", frink_errmsg());
        int periodic = 0, marked = 0;
        for (int i = 0; i < s->n_ckpt; i++) {
            periodic += !s->ckpt[i].marked;
            marked += s->ckpt[i].marked;
        }
        CHECK(periodic == 4 && marked == 1, "%s: bound: %d periodic, %d marked", c->name, periodic, marked);
        CHECK(s->ckpt[s->n_ckpt - 1].c->pos == 896, "%s: newest periodic at %d", c->name, s->ckpt[s->n_ckpt - 1].c->pos);
        // Only the marked end of the first prompt is left below 704.
        CHECK(seq_restore_point(s, 600) == 300 && seq_restore_point(s, 299) == 0, "%s", c->name);
    }
    seq_free(s);
}

static void test_truncate(struct tm_ctx *c, const int32_t *p) {
    bool hybrid = c->m->n_gdn_layers > 0;
    int32_t want[NG], got[NG];
    float *lg = malloc((size_t)c->V * sizeof *lg), *lg_ref = malloc((size_t)c->V * sizeof *lg);
    // Truncate to 201 tokens (200, then append the 201st for its logits): between
    // the checkpoints at 192 and 256.
    int n = 201;
    reference(c, p, n, want, lg_ref);
    struct seq *s = mkseq(c, KV_F16, 64);
    CHECK(!seq_append(c->ex, s, p, NP, lg, false, true), "%s", frink_errmsg());
    CHECK(!tm_greedy(c, s, lg, 5, got), "%s", c->name); // wander off first
    int replayed = -1;
    CHECK(seq_restore_point(s, n - 1) == (hybrid ? 192 : n - 1), "%s: restore point %d", c->name, seq_restore_point(s, n - 1));
    CHECK(!seq_truncate(c->ex, s, n - 1, &replayed), "%s: truncate: %s", c->name, frink_errmsg());
    CHECK(replayed == (hybrid ? 8 : 0), "%s: replayed %d", c->name, replayed);
    CHECK(s->n_past == n - 1, "%s: n_past %d", c->name, s->n_past);
    CHECK(!seq_append(c->ex, s, p + n - 1, 1, lg, false, true), "%s", frink_errmsg());
    double e = tm_nmse(lg, lg_ref, c->V);
    CHECK(e < 1e-6, "%s: truncated logits nmse %.3e", c->name, e);
    CHECK(!tm_greedy(c, s, lg, NG, got), "%s", c->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after truncation differs", c->name);
    printf("  %-40s truncate %d->%d: replayed %d, logits nmse %.1e\n", c->name, NP, n - 1, replayed, e);

    // Truncating to the marked end of a prompt needs no replay.
    seq_reset(s);
    CHECK(!seq_append(c->ex, s, p, 100, NULL, false, true), "%s", frink_errmsg());
    CHECK(!seq_append(c->ex, s, p + 100, 60, NULL, false, false), "%s", frink_errmsg());
    CHECK(!seq_truncate(c->ex, s, 100, &replayed), "%s", frink_errmsg());
    CHECK(replayed == 0 && s->n_past == 100, "%s: to a marked checkpoint: replayed %d", c->name, replayed);
    // Truncating to zero, and past the end.
    CHECK(!seq_truncate(c->ex, s, 0, &replayed) && s->n_past == 0 && replayed == 0, "%s", c->name);
    CHECK(seq_truncate(c->ex, s, 5, NULL) == FRINK_ERR_ARG, "%s: truncate past the end must fail", c->name);
    // Hybrid truncation without an executor fails by name when it would replay.
    if (hybrid) {
        CHECK(!seq_append(c->ex, s, p, 100, NULL, false, false), "%s", frink_errmsg());
        CHECK(seq_truncate(NULL, s, 50, NULL) == FRINK_ERR_ARG, "%s", c->name);
    }
    seq_free(s);
    free(lg);
    free(lg_ref);
}

static void test_fork(struct tm_ctx *c, const int32_t *p) {
    float *lg = malloc((size_t)c->V * sizeof *lg), *lg2 = malloc((size_t)c->V * sizeof *lg);
    int32_t a[NG], b[NG], want[NG];
    reference(c, p, NP, want, NULL);
    struct seq *s = mkseq(c, KV_F16, 64), *f = NULL;
    CHECK(!seq_append(c->ex, s, p, NP, lg, false, true), "%s", frink_errmsg());
    memcpy(lg2, lg, (size_t)c->V * sizeof *lg);
    CHECK(!seq_fork(s, &f), "%s: fork: %s", c->name, frink_errmsg());
    if (!f) goto out;
    CHECK(f->n_past == s->n_past && f->n_ckpt == s->n_ckpt, "%s: fork shape", c->name);
    for (int i = 0; i < f->n_ckpt; i++) CHECK(f->ckpt[i].c == s->ckpt[i].c, "%s: checkpoints are shared", c->name);
    // The original goes on first; the fork must not see it.
    CHECK(!tm_greedy(c, s, lg, NG, a), "%s", c->name);
    CHECK(!tm_greedy(c, f, lg2, NG, b), "%s", c->name);
    CHECK(!memcmp(a, want, sizeof a) && !memcmp(b, want, sizeof b), "%s: fork continuation differs", c->name);
    // Rewinding the fork leaves the original's shared checkpoints intact.
    CHECK(!seq_truncate(c->ex, f, 150, NULL), "%s", frink_errmsg());
    CHECK(s->n_past == NP + NG, "%s", c->name);
    seq_free(f);
out:
    seq_free(s);
    free(lg);
    free(lg2);
}

static void test_prefix_cache(struct tm_ctx *c, const int32_t *p) {
    bool hybrid = c->m->n_gdn_layers > 0;
    float *lg = malloc((size_t)c->V * sizeof *lg), *lg_ref = malloc((size_t)c->V * sizeof *lg);
    int32_t q[NP], want[NG], got[NG];
    struct prefix_cache *pc;
    CHECK(!prefix_cache_create(c->m, (size_t)1 << 30, 32, &pc), "%s", frink_errmsg());
    struct seq *s = mkseq(c, KV_F16, 64), *d = mkseq(c, KV_F16, 64);
    CHECK(!seq_append(c->ex, s, p, 200, NULL, false, true), "%s", frink_errmsg());
    CHECK(!prefix_cache_put(pc, s), "%s", frink_errmsg());
    CHECK(prefix_cache_entries(pc) == 1 && prefix_cache_bytes(pc) > 0, "%s", c->name);

    // Hit: a prompt sharing the first 150 tokens, then different ones.
    memcpy(q, p, NP * sizeof *q);
    for (int i = 150; i < NP; i++) q[i] = 1 + (p[i] - 1 + 1 + i % 3) % (c->V - 1); // != p[i]
    reference(c, q, 250, want, lg_ref);
    int np = -1, rp = -1;
    CHECK(!prefix_cache_lookup(pc, c->ex, q, 250, 249, d, &np, &rp), "%s: lookup: %s", c->name, frink_errmsg());
    CHECK(np == 150, "%s: hit of %d tokens, want 150", c->name, np);
    CHECK(rp == (hybrid ? 150 - 128 : 0), "%s: replayed %d", c->name, rp);
    CHECK(d->n_past == np, "%s", c->name);
    CHECK(!seq_append(c->ex, d, q + np, 250 - np, lg, false, true), "%s", frink_errmsg());
    double e = tm_nmse(lg, lg_ref, c->V);
    CHECK(e < 1e-6, "%s: logits after a prefix hit: nmse %.3e", c->name, e);
    CHECK(!tm_greedy(c, d, lg, NG, got), "%s", c->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after a prefix hit differs", c->name);
    printf("  %-40s prefix hit 150/250 (replayed %d), logits nmse %.1e\n", c->name, rp, e);

    // The whole cached prompt, capped at n-1 so the last token is computed.
    CHECK(!prefix_cache_lookup(pc, c->ex, p, 200, 199, d, &np, &rp) && np == 199, "%s: capped hit %d", c->name, np);
    CHECK(!prefix_cache_lookup(pc, c->ex, p, 200, 200, d, &np, &rp) && np == 200 && rp == 0, "%s: exact hit %d/%d", c->name,
          np, rp);

    // Miss: a different first token.
    q[0] = 1 + p[0] % (c->V - 1); // != p[0]
    CHECK(!prefix_cache_lookup(pc, c->ex, q, 100, 100, d, &np, &rp) && np == 0 && d->n_past == 0, "%s: miss gave %d",
          c->name, np);

    // A longer sequence covering an entry replaces it when it can restore
    // there without replay (always for attention; hybrid: it has no
    // checkpoint at 200 unless marked, and here it is).
    CHECK(!seq_append(c->ex, s, p + 200, 100, NULL, false, true), "%s", frink_errmsg());
    CHECK(!prefix_cache_put(pc, s), "%s", frink_errmsg());
    CHECK(prefix_cache_entries(pc) == 1, "%s: %d entries after a covering put", c->name, prefix_cache_entries(pc));
    prefix_cache_free(pc);

    // Eviction: room for two entries; touching the first makes the second the LRU.
    size_t one = seq_bytes(s) + 64;
    CHECK(!prefix_cache_create(c->m, 2 * one + one / 2, 32, &pc), "%s", frink_errmsg());
    struct seq *e3[3];
    for (int k = 0; k < 3; k++) {
        e3[k] = mkseq(c, KV_F16, 64);
        tm_prompt(q, NP, c->V, 100 + (uint32_t)k);
        CHECK(!seq_append(c->ex, e3[k], q, NP, NULL, false, true), "%s", frink_errmsg());
    }
    CHECK(!prefix_cache_put(pc, e3[0]) && !prefix_cache_put(pc, e3[1]), "%s", frink_errmsg());
    CHECK(prefix_cache_entries(pc) == 2, "%s: %d entries", c->name, prefix_cache_entries(pc));
    CHECK(!prefix_cache_lookup(pc, c->ex, e3[0]->tokens, NP, NP, d, &np, &rp) && np == NP, "%s: hit first %d", c->name, np);
    CHECK(!prefix_cache_put(pc, e3[2]), "%s", frink_errmsg());
    CHECK(prefix_cache_entries(pc) == 2 && prefix_cache_bytes(pc) <= 2 * one + one / 2, "%s: %d entries, %zu bytes", c->name,
          prefix_cache_entries(pc), prefix_cache_bytes(pc));
    CHECK(!prefix_cache_lookup(pc, c->ex, e3[1]->tokens, NP, NP, d, &np, &rp) && np == 0, "%s: the LRU entry was kept (%d)",
          c->name, np);
    CHECK(!prefix_cache_lookup(pc, c->ex, e3[0]->tokens, NP, NP, d, &np, &rp) && np == NP, "%s: first evicted (%d)", c->name,
          np);
    CHECK(!prefix_cache_lookup(pc, c->ex, e3[2]->tokens, NP, NP, d, &np, &rp) && np == NP, "%s: third missing (%d)", c->name,
          np);
    // A snapshot larger than the whole budget is not kept.
    prefix_cache_free(pc);
    CHECK(!prefix_cache_create(c->m, 100, 32, &pc) && !prefix_cache_put(pc, e3[0]) && prefix_cache_entries(pc) == 0,
          "%s", c->name);
    prefix_cache_free(pc);
    for (int k = 0; k < 3; k++) seq_free(e3[k]);
    seq_free(s);
    seq_free(d);
    free(lg);
    free(lg_ref);
}

// F32 and Q8_0 caches against F16, every position of a 200-token prompt.
// Tolerances (nmse of the logit row, worst position): F32 1e-4, Q8_0 5e-3
// (stories260K's 8-wide heads share each 32-element Q8_0 scale four ways);
// top-1 must agree wherever F16's top-2 margin exceeds 0.5 (F32) / 1.0 (Q8_0).
static void test_kv_types(struct tm_ctx *c, const int32_t *p) {
    int n = 200, V = c->V;
    float *ref = malloc((size_t)n * V * sizeof(float)), *lg = malloc((size_t)n * V * sizeof(float));
    struct seq *s = mkseq(c, KV_F16, 64);
    CHECK(!seq_append(c->ex, s, p, n, ref, true, false), "%s", frink_errmsg());
    seq_free(s);
    static const enum kv_type kts[] = {KV_F32, KV_Q8_0};
    static const double tol[] = {1e-4, 5e-3};
    static const float margin[] = {0.5f, 1.0f};
    for (int k = 0; k < 2; k++) {
        s = mkseq(c, kts[k], 64);
        if (!s) continue;
        CHECK(s->kv_type == kts[k], "%s", c->name);
        CHECK(!seq_append(c->ex, s, p, n, lg, true, false), "%s", frink_errmsg());
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
        printf("  %-40s kv %-4s vs f16: worst nmse %.2e (tol %.0e), top-1 %d/%d\n", c->name, kv_type_name(kts[k]), worst,
               tol[k], agree, checked);
        CHECK(worst <= tol[k], "%s: kv %s nmse %.3e", c->name, kv_type_name(kts[k]), worst);
        CHECK(agree == checked, "%s: kv %s top-1 %d/%d", c->name, kv_type_name(kts[k]), agree, checked);
        // Truncation and continuation work the same in every cache type.
        CHECK(!seq_truncate(c->ex, s, 120, NULL) && s->n_past == 120, "%s", c->name);
        seq_free(s);
    }
    enum kv_type t;
    CHECK(kv_type_parse("Q8_0", &t) && t == KV_Q8_0 && kv_type_parse("f32", &t) && t == KV_F32 && !kv_type_parse("q4", &t),
          "kv_type_parse");
    free(ref);
    free(lg);
}

int main(void) {
    for (const char *const *mp = tm_models; *mp; mp++) {
        struct tm_ctx c;
        if (tm_open(&c, *mp, 512)) {
            CHECK(0, "cannot open %s", *mp);
            tm_close(&c);
            continue;
        }
        int32_t p[NP];
        tm_prompt(p, NP, c.V, 7);
        test_checkpoints(&c, p);
        test_truncate(&c, p);
        test_fork(&c, p);
        test_prefix_cache(&c, p);
        test_kv_types(&c, p);
        tm_close(&c);
    }
    return TEST_DONE();
}
