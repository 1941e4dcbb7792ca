// Gated DeltaNet: the chunked delta rule against the token recurrence, and the
// value-head mapping when nv > nk.
//
// (a) Prefill of 200 tokens with chunk sizes 1 (pure recurrence), 4, 16, 64:
//     the logits of every position agree with chunk 1.
// (b) A chunked prefill that ends mid-chunk, a second chunked batch starting
//     from that non-zero state, then tokens one at a time (the recurrence):
//     every position agrees with the all-recurrence run.
// (c) The recurrent state (conv window and delta-rule S of every GDN layer)
//     after a chunked prefill equals the state after the token recurrence.
// (d) Tiny models from `frink gen` with nk = 2, nv = 4 (tests/data/gen/, made
//     with tests/data/golden/gen-tiny.sh): qwen35 (tiled value heads) and
//     qwen3next (grouped) against the reference's golden logits; and
//     qwen35moe-tiny / qwen3next-tiny, the same network written in the two
//     orderings, against each other.
//
// Tolerances. The chunked form reassociates sums (K K^T products, cumulative
// decays), so it differs from the recurrence by float rounding. Activations
// are rounded to F16 before each F16 matmul, so a rounding difference that
// crosses an F16 rounding boundary becomes one F16 ulp (4.9e-4 relative) in a
// later layer's input. Hence:
//   - the first GDN layer sees identical inputs: its conv window must be
//     bit-equal and its delta-rule state within 1e-5 relative (measured ~3e-7);
//   - later layers' state within 1e-2 (measured up to ~6e-4: single ulp flips);
//   - logits within nmse 5e-5 per row (measured: ~2e-7 on the dk = 128
//     fixtures; up to 8e-6 on the dk = 16 tiny models, where a chunk of 64
//     keys in 16 dimensions makes the triangular solve less well conditioned).
// MoE models may additionally flip a near-tied expert choice on a row (one
// ulp moves a router logit across the tie); such a flip in the last layer
// changes that row only. For them up to 2 of the 200 rows may exceed the
// tolerance. A wrong decay, mask, chunk carry or head mapping gives nmse > 1e-3
// on most rows.
// White-box: this test compares recurrent states inside the GDN layers, so it
// uses the model and sequence modules directly (parity.h only for its comparisons).
#include "core/pool.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/shape.h"
#include "state/seq.h"
#include "model_util.h"
#include "parity.h"
#include "quant/quant.h"

#define N_TOK 200
static const double TOL_LOGITS = 5e-5;     // nmse per row, chunked vs recurrence
static const double TOL_STATE_FIRST = 1e-5; // max |a - b| / max |b|, first GDN layer
static const double TOL_STATE = 1e-2;       // the same, later GDN layers

struct ctx {
    struct model *m;
    struct pool *pool;
    struct exec *ex;
    struct seq *s;
    int V;
};

static int ctx_open(struct ctx *c, const char *path) {
    memset(c, 0, sizeof *c);
    if (!(c->m = test_model_load(path, true))) return -1;
    c->pool = pool_create(2);
    if (!c->pool || exec_create(c->m, c->pool, 512, &c->ex) || seq_create(model_seq_shape(c->m), N_TOK, &c->s)) {
        fprintf(stderr, "%s: %s\n", path, frink_errmsg());
        return -1;
    }
    c->V = c->m->hp.n_vocab;
    return 0;
}

static void ctx_close(struct ctx *c) {
    seq_free(c->s);
    exec_free(c->ex);
    pool_free(c->pool);
    model_free(c->m);
}

// A deterministic id sequence over the vocabulary (as make-golden.sh's).
static void make_ids(int32_t *ids, int n, int V) {
    for (int i = 0; i < n; i++) ids[i] = (int32_t)((i * 7919 + 13) % (V - 3) + 3);
}

// Worst row nmse of a against b over `rows` rows; *n_over (may be NULL) gets
// the number of rows above TOL_LOGITS.
static double worst_nmse(const float *a, const float *b, int rows, int V, int *n_over) {
    double w = 0;
    int over = 0;
    for (int r = 0; r < rows; r++) {
        double e = row_nmse(a + (size_t)r * V, b + (size_t)r * V, V);
        if (e > w) w = e;
        over += e > TOL_LOGITS;
    }
    if (n_over) *n_over = over;
    return w;
}

static double rel_err(const float *a, const float *b, int64_t n) {
    double num = 0, den = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (d > num || isnan(d)) num = isnan(d) ? INFINITY : d;
        if (fabs(b[i]) > den) den = fabs(b[i]);
    }
    return num / (den > 0 ? den : 1);
}

// Copies every GDN layer's conv and ssm state into buf (layer order).
static float *save_state(const struct ctx *c) {
    int64_t nc = model_gdn_conv_floats(c->m), ns = model_gdn_ssm_floats(c->m);
    float *buf = malloc((size_t)(nc + ns) * c->m->hp.n_layer * sizeof(float)), *p = buf;
    for (int il = 0; il < c->m->hp.n_layer && buf; il++) {
        if (!c->s->ssm[il]) continue;
        memcpy(p, c->s->conv[il], (size_t)nc * sizeof(float));
        memcpy(p + nc, c->s->ssm[il], (size_t)ns * sizeof(float));
        p += nc + ns;
    }
    return buf;
}

static void chunk_checks(const char *name, const char *path) {
    struct ctx c;
    int rc = ctx_open(&c, path);
    CHECK(rc == 0, "%s: could not open", path);
    if (rc) return;
    int V = c.V;
    int32_t ids[N_TOK];
    make_ids(ids, N_TOK, V);
    float *ref = malloc((size_t)N_TOK * V * sizeof(float)), *lg = malloc((size_t)N_TOK * V * sizeof(float));

    // The reference for everything below: the token recurrence over one batch.
    exec_set_gdn_chunk(c.ex, 1);
    seq_reset(c.s);
    CHECK(exec_forward(c.ex, c.s, ids, N_TOK, ref, true) == FRINK_OK, "%s: forward", name);
    float *st_ref = save_state(&c);

    // (a) + (c): one chunked batch of 200 tokens per chunk size (7: chunks that
    // do not divide the batch).
    static const int chunks[] = {4, 16, 64, 7};
    int64_t nc = model_gdn_conv_floats(c.m), per_layer = nc + model_gdn_ssm_floats(c.m);
    int max_over = c.m->hp.n_expert > 0 ? 2 : 0; // near-tied expert choices (see the top)
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        exec_set_gdn_chunk(c.ex, chunks[k]);
        seq_reset(c.s);
        CHECK(exec_forward(c.ex, c.s, ids, N_TOK, lg, true) == FRINK_OK, "%s: forward", name);
        int over;
        double e = worst_nmse(lg, ref, N_TOK, V, &over);
        float *st = save_state(&c);
        double first_conv = 0, first_ssm = 0, deep = 0;
        for (int l = 0; l < c.m->n_gdn_layers && st && st_ref; l++) {
            const float *x = st + l * per_layer, *y = st_ref + l * per_layer;
            double ec = rel_err(x, y, nc), es = rel_err(x + nc, y + nc, per_layer - nc);
            if (l == 0) first_conv = ec, first_ssm = es;
            else deep = fmax(deep, fmax(ec, es));
        }
        free(st);
        printf("  %-15s chunk %2d vs recurrence: logits nmse %.2e (%d rows > tol)   state rel err: first GDN layer "
               "conv %.1e ssm %.1e, later layers %.1e\n",
               name, chunks[k], e, over, first_conv, first_ssm, deep);
        CHECK(over <= max_over, "%s chunk %d: %d rows with logits nmse > %.0e (worst %.3e)", name, chunks[k], over,
              TOL_LOGITS, e);
        CHECK(first_conv == 0, "%s chunk %d: first GDN layer's conv window differs (%.3e)", name, chunks[k], first_conv);
        CHECK(first_ssm <= TOL_STATE_FIRST, "%s chunk %d: first GDN layer's state rel err %.3e > %.0e", name, chunks[k],
              first_ssm, TOL_STATE_FIRST);
        CHECK(deep <= TOL_STATE, "%s chunk %d: later GDN layers' state rel err %.3e > %.0e", name, chunks[k], deep,
              TOL_STATE);
    }

    // (b) prefill p1 tokens (chunked, ending mid-chunk), a second chunked batch
    // of p2 starting from that non-zero state, then one token at a time.
    static const int plans[][3] = {{16, 37, 20}, {16, 100, 0}, {64, 37, 40}, {4, 1, 50}};
    for (size_t k = 0; k < sizeof plans / sizeof plans[0]; k++) {
        int chunk = plans[k][0], p1 = plans[k][1], p2 = plans[k][2];
        exec_set_gdn_chunk(c.ex, chunk);
        seq_reset(c.s);
        bool ok = exec_forward(c.ex, c.s, ids, p1, lg, true) == FRINK_OK;
        if (p2) ok = ok && exec_forward(c.ex, c.s, ids + p1, p2, lg + (size_t)p1 * V, true) == FRINK_OK;
        for (int i = p1 + p2; i < N_TOK && ok; i++)
            ok = exec_forward(c.ex, c.s, ids + i, 1, lg + (size_t)i * V, false) == FRINK_OK;
        CHECK(ok, "%s: forward", name);
        int over;
        double e = worst_nmse(lg, ref, N_TOK, V, &over);
        printf("  %-15s chunk %2d: batch %3d + batch %2d + %3d decoded vs recurrence: nmse %.2e (%d rows > tol)\n",
               name, chunk, p1, p2, N_TOK - p1 - p2, e, over);
        CHECK(over <= max_over, "%s chunk %d, %d + %d then decode: %d rows with nmse > %.0e (worst %.3e)", name, chunk,
              p1, p2, over, TOL_LOGITS, e);
    }
    free(st_ref);
    free(ref);
    free(lg);
    ctx_close(&c);
}

// (d) the same network in grouped and tiled value-head order gives the same logits.
static void orderings_agree(void) {
    static const char *const names[] = {"qwen35moe-tiny", "qwen3next-tiny"};
    float *lg[2] = {NULL, NULL};
    int V = 0, n = 64;
    int32_t ids[64];
    for (int k = 0; k < 2; k++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/gen/%s.gguf", names[k]);
        struct ctx c;
        int rc = ctx_open(&c, path);
        CHECK(rc == 0, "%s: could not open", path);
        if (rc) goto out;
        V = c.V;
        make_ids(ids, n, V);
        lg[k] = malloc((size_t)n * V * sizeof(float));
        CHECK(exec_forward(c.ex, c.s, ids, n, lg[k], true) == FRINK_OK, "%s: forward", names[k]);
        ctx_close(&c);
    }
    // Same network, so only matmul summation order differs (an F16 ulp here and
    // there); a wrong head mapping in either gives nmse ~ 1.
    double e = worst_nmse(lg[0], lg[1], n, V, NULL);
    printf("  qwen35moe-tiny (tiled) vs qwen3next-tiny (grouped), same weights: nmse %.2e\n", e);
    CHECK(e <= 1e-4, "tiled vs grouped ordering of one network: nmse %.3e > 1e-4", e);
out:
    free(lg[0]);
    free(lg[1]);
}

// (e) the delta-rule token step: the vector kernel equals the scalar one bit for bit, for
// head sizes with and without a full 64-column block.
static void token_step_kernels_agree(void) {
    static const int shapes[][2] = {{128, 128}, {16, 24}, {32, 72}, {8, 8}};
    uint64_t st = 99;
#define RNDF() (st = st * 6364136223846793005ull + 1442695040888963407ull, (float)((st >> 40) & 0xffffff) / 8388608.0f - 1.0f)
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        const int dk = shapes[c][0], dv = shapes[c][1];
        float *S[2], *o[2], *q = malloc(sizeof(float) * dk), *k = malloc(sizeof(float) * dk), *v = malloc(sizeof(float) * dv);
        for (int m = 0; m < 2; m++) S[m] = malloc(sizeof(float) * dk * dv), o[m] = malloc(sizeof(float) * dv);
        for (int e = 0; e < dk * dv; e++) S[0][e] = S[1][e] = RNDF();
        int same = 1;
        for (int t = 0; t < 5; t++) {
            for (int i = 0; i < dk; i++) q[i] = RNDF(), k[i] = RNDF();
            for (int i = 0; i < dv; i++) v[i] = 3 * RNDF();
            for (int m = 0; m < 2; m++) {
                quant_set_reference(m == 1);
                gdn_rule_token(quant_active_isa(), S[m], dk, dv, q, k, v, 0.93f, 0.6f, 0.125f, o[m]);
            }
            same &= !memcmp(S[0], S[1], sizeof(float) * dk * dv) && !memcmp(o[0], o[1], sizeof(float) * dv);
        }
        quant_set_reference(false);
        CHECK(same, "delta-rule token step dk=%d dv=%d: %s kernels differ from the scalar one", dk, dv, quant_isa());
        for (int m = 0; m < 2; m++) free(S[m]), free(o[m]);
        free(q), free(k), free(v);
    }
#undef RNDF
}

int main(void) {
    token_step_kernels_agree();
    chunk_checks("qwen35-dense", "tests/data/archs/qwen35-dense.gguf");
    chunk_checks("qwen3next-moe", "tests/data/archs/qwen3next-moe.gguf");
    chunk_checks("qwen35-tiny", "tests/data/gen/qwen35-tiny.gguf");
    chunk_checks("qwen3next-tiny", "tests/data/gen/qwen3next-tiny.gguf");
    // (d) against the reference: F16 batches (prefixes 1, 7, 64, 100) and decode.
    static const int lens[] = {1, 7, 64, 100, 0};
    parity_check_lens("tests/data/gen/qwen35-tiny.gguf", "gen-qwen35-tiny-F16", false, 1e-5, lens);
    parity_check_lens("tests/data/gen/qwen35moe-tiny.gguf", "gen-qwen35moe-tiny-F16", false, 1e-5, lens);
    parity_check_lens("tests/data/gen/qwen3next-tiny.gguf", "gen-qwen3next-tiny-F16", false, 1e-5, lens);
    orderings_agree();
    return TEST_DONE();
}
