// Embeddings (frink_embed): parity with the reference's pooled hidden states, batch invariance,
// normalization, refusals.
//
// Goldens: scripts/make-embed-golden.sh (the oracle's `embed`: llama_context with embeddings on)
// writes tests/data/golden/embed/<fixture>.ids (three inputs, one a line) and
// <fixture>-<pooling>.f32, unnormalized. Tolerance as the logit parity tests' own type: nmse
// 1e-5 per vector. The encoders are `frink gen` fixtures (bert-tiny, bert-rank-tiny,
// nomic-bert-tiny, neo-bert-tiny, eurobert-tiny, modern-bert-tiny, modern-bert-swiglu-tiny,
// jina-bert-v2-tiny: the bge WordPiece vocabulary, real texts as inputs), written into the ignored tests/data/enc when missing, as the golden script writes them.
#include <sys/stat.h>

#include "frink_tools.h"
#include "parity.h"

#define N_IN 3

struct inputs {
    frink_token ids[N_IN][64];
    frink_embed_input in[N_IN];
    int total;
};

// Reads the three inputs of tests/data/golden/embed/<fx>.ids; false when missing.
static bool read_inputs(const char *fx, struct inputs *x) {
    char p[256];
    snprintf(p, sizeof p, "tests/data/golden/embed/%s.ids", fx);
    FILE *f = fopen(p, "r");
    if (!f) return false;
    x->total = 0;
    for (int k = 0; k < N_IN; k++) {
        int n = 0, v, c = ',';
        while (c == ',' && n < 64 && fscanf(f, "%d", &v) == 1) {
            x->ids[k][n++] = v;
            c = fgetc(f);
        }
        x->in[k] = (frink_embed_input){x->ids[k], n};
        x->total += n;
    }
    fclose(f);
    return true;
}

static frink_model *open_fixture(const char *fx) {
    char p[256];
    snprintf(p, sizeof p, "tests/data/archs/%s.gguf", fx);
    if (strstr(fx, "bert")) { // (the encoders' presets: bert-tiny, nomic-bert-tiny, eurobert-tiny, ...)
        snprintf(p, sizeof p, "tests/data/enc/%s.gguf", fx);
        FILE *f = fopen(p, "rb");
        if (f) fclose(f);
        else if (mkdir("tests/data/enc", 0755), frink_gen_model(&(frink_gen_params){.preset = fx, .out_path = p, .seed = 1}))
            fprintf(stderr, "%s: %s\n", fx, frink_errmsg());
    }
    frink_model_params mp = frink_model_default_params();
    mp.path = p;
    mp.allow_unread = true;
    mp.no_tokenizer = true;
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) fprintf(stderr, "%s: %s\n", fx, frink_errmsg());
    return m;
}

static frink_context *context(frink_model *m, int threads, int n_batch) {
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = threads;
    cp.n_batch = n_batch;
    cp.n_ctx = 64;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) fprintf(stderr, "%s\n", frink_errmsg());
    return c;
}

// Floats frink_embed fills for inputs in[0..n) under pooling p.
static size_t out_floats(const frink_model *m, const frink_embed_input *in, int n, frink_pooling p) {
    size_t k = 0;
    for (int i = 0; i < n; i++) k += p == FRINK_POOLING_NONE ? (size_t)in[i].n : 1;
    return k * (size_t)frink_embed_size(m, p);
}

static void parity_fixture(const char *fx) {
    static const char *names[] = {"none", "mean", "cls", "last", "rank"};
    struct inputs x;
    frink_model *m = open_fixture(fx);
    CHECK(m && read_inputs(fx, &x), "%s: fixture or golden ids missing", fx);
    if (!m) return;
    frink_context *c = context(m, 2, 512);
    int D = frink_model_n_embd(m);
    float *out = malloc((size_t)x.total * D * sizeof(float));
    printf("  %-24s", fx);
    // rank where the fixture has a classification head (qwen3's writer adds cls.output)
    int last = frink_embed_size(m, FRINK_POOLING_RANK) ? FRINK_POOLING_RANK : FRINK_POOLING_LAST;
    for (int p = FRINK_POOLING_NONE; p <= last; p++) {
        frink_embed_params ep = {(frink_pooling)p, -1};
        int dim = frink_embed_size(m, (frink_pooling)p);
        size_t need = out_floats(m, x.in, N_IN, (frink_pooling)p), ng = 0;
        frink_status st = frink_embed(c, x.in, N_IN, &ep, out, need);
        CHECK(st == FRINK_OK, "%s %s: %s", fx, names[p], frink_errmsg());
        char path[256];
        snprintf(path, sizeof path, "tests/data/golden/embed/%s-%s.f32", fx, names[p]);
        float *g = parity_read_f32(path, &ng);
        CHECK(g && ng == need, "%s: %s missing or %zu floats, not %zu", fx, path, ng, need);
        // (a rerankers' single score per input is compared as the vector of the inputs' scores: a
        // score near zero makes its own relative error meaningless; modern-bert-tiny's first is
        // -0.07, off by 2e-4 as the others are, from the hidden states' rounding)
        double worst = 0;
        if (g && ng == need && !st && dim == 1) worst = row_nmse(out, g, (int)need);
        for (size_t r = 0; g && ng == need && !st && dim > 1 && r < need / dim; r++) {
            double e = row_nmse(out + r * dim, g + r * dim, dim);
            if (e > worst) worst = e;
        }
        printf(" %s %.1e", names[p], worst);
        CHECK(worst <= 1e-5, "%s %s: nmse %.3e > 1e-5", fx, names[p], worst);
        free(g);
    }
    printf("\n");
    free(out);
    frink_context_free(c);
    frink_model_free(m);
}

// Each input's vector is the same bits alone, in a batch of the others, in reverse order, with
// one thread or two, in steps of small_batch tokens or of 512 (an encoder's inputs stay whole: its
// small steps hold fewer inputs).
static void invariance(const char *fx, frink_pooling p, int small_batch) {
    struct inputs x;
    frink_model *m = open_fixture(fx);
    CHECK(m && read_inputs(fx, &x), "%s: fixture or golden ids missing", fx);
    if (!m) return;
    int dim = frink_embed_size(m, p);
    frink_embed_params ep = {p, 2};
    frink_context *c1 = context(m, 1, 512), *c2 = context(m, 2, small_batch);
    size_t n_all = out_floats(m, x.in, N_IN, p);
    float *all = malloc(n_all * sizeof(float)), *rev = malloc(n_all * sizeof(float)), *one = malloc(n_all * sizeof(float));
    CHECK(!frink_embed(c1, x.in, N_IN, &ep, all, n_all), "%s: %s", fx, frink_errmsg());
    frink_embed_input r[N_IN];
    for (int k = 0; k < N_IN; k++) r[k] = x.in[N_IN - 1 - k];
    CHECK(!frink_embed(c2, r, N_IN, &ep, rev, n_all), "%s: %s", fx, frink_errmsg());
    size_t off = 0, roff[N_IN], o = 0;
    for (int k = N_IN - 1; k >= 0; k--) {
        roff[k] = o;
        o += out_floats(m, &x.in[k], 1, p);
    }
    for (int k = 0; k < N_IN; k++) {
        size_t nk = out_floats(m, &x.in[k], 1, p);
        CHECK(!frink_embed(k % 2 ? c1 : c2, &x.in[k], 1, &ep, one, nk), "%s: %s", fx, frink_errmsg());
        CHECK(!memcmp(one, all + off, nk * sizeof(float)), "%s %s input %d: alone != in a batch", fx, frink_pooling_name(p), k);
        CHECK(!memcmp(one, rev + roff[k], nk * sizeof(float)), "%s %s input %d: alone != reversed, 2 threads, steps of 4", fx,
              frink_pooling_name(p), k);
        off += nk;
    }
    (void)dim;
    free(all);
    free(rev);
    free(one);
    frink_context_free(c1);
    frink_context_free(c2);
    frink_model_free(m);
}

// Normalizations as common_embd_normalize, checked against the raw vector; an embedding call
// leaves the context's own sequences and their logits as they were.
static void normalize_and_state(void) {
    struct inputs x;
    frink_model *m = open_fixture("qwen3-dense");
    CHECK(m && read_inputs("qwen3-dense", &x), "qwen3-dense missing");
    if (!m) return;
    frink_context *c = context(m, 2, 512);
    int D = frink_model_n_embd(m), V = frink_model_n_vocab(m);
    float *raw = malloc(D * sizeof(float)), *y = malloc(D * sizeof(float));
    float *l0 = malloc(V * sizeof(float)), *l1 = malloc(V * sizeof(float));
    frink_seq *s;
    CHECK(!frink_seq_create(c, &s) && !frink_seq_eval(s, x.ids[1], 4, l0, 0), "eval: %s", frink_errmsg());
    frink_embed_params ep = {FRINK_POOLING_MEAN, -1};
    CHECK(!frink_embed(c, &x.in[2], 1, &ep, raw, D), "%s", frink_errmsg());
    for (int norm = 0; norm <= 3; norm++) {
        ep.normalize = norm;
        CHECK(!frink_embed(c, &x.in[2], 1, &ep, y, D), "%s", frink_errmsg());
        double sum = 0, worst = 0;
        for (int i = 0; i < D; i++) {
            double a = fabs(raw[i]);
            if (norm == 0) sum = a > sum ? a : sum;
            else sum += pow(a, norm);
        }
        sum = norm == 0 ? sum / 32760.0 : pow(sum, 1.0 / norm);
        for (int i = 0; i < D; i++) worst = fmax(worst, fabs(y[i] - raw[i] / sum));
        CHECK(worst < 1e-6 * (norm == 0 ? 32760 : 1), "normalize %d: off by %g", norm, worst);
    }
    // The sequence continues as if nothing had run between: the same logits as a fresh one.
    CHECK(!frink_seq_eval(s, x.ids[1] + 4, 1, l0, 0), "%s", frink_errmsg());
    frink_seq_reset(s);
    CHECK(!frink_seq_eval(s, x.ids[1], 5, l1, 0), "%s", frink_errmsg());
    CHECK(!memcmp(l0, l1, V * sizeof(float)), "an embedding call changed a sequence's logits");
    free(raw);
    free(y);
    free(l0);
    free(l1);
    frink_context_free(c);
    frink_model_free(m);
}

#define CHECK_FAILS(call, want_st, needle)                                                                          \
    do {                                                                                                            \
        frink_status st_ = (call);                                                                                  \
        CHECK(st_ == (want_st), "%s: status %d, want %d (%s)", #call, (int)st_, (int)(want_st), frink_errmsg());   \
        CHECK(strstr(frink_errmsg(), needle), "%s: '%s' does not say '%s'", #call, frink_errmsg(), needle);       \
    } while (0)

static void refusals(void) {
    frink_model *m = open_fixture("qwen3-dense");
    if (!m) return;
    frink_context *c = context(m, 1, 512);
    int D = frink_model_n_embd(m);
    float *out = malloc((size_t)4 * 64 * D * sizeof(float));
    frink_token ids[65] = {5, 6, 7};
    frink_embed_input in[3] = {{ids, 3}, {ids, 0}, {ids, 65}};
    frink_embed_params ep = {FRINK_POOLING_MEAN, 2};
    CHECK(frink_model_pooling(m) == FRINK_POOLING_UNSPECIFIED, "the fixture names no pooling");
    CHECK(frink_embed_size(m, FRINK_POOLING_UNSPECIFIED) == 0 && frink_embed_size(m, FRINK_POOLING_LAST) == D, "sizes");
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, 4 * D), FRINK_ERR_ARG, "input 1 is empty");
    in[1].n = 3;
    CHECK_FAILS(frink_embed(c, in, 3, &ep, out, 4 * D), FRINK_ERR_ARG, "input 2: 65 tokens exceed");
    ids[1] = 1 << 20;
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, 4 * D), FRINK_ERR_ARG, "input 0, token 1");
    ids[1] = 6;
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, D), FRINK_ERR_ARG, "need");
    CHECK_FAILS(frink_embed(c, in, FRINK_EMBED_MAX_INPUTS + 1, &ep, out, 4 * D), FRINK_ERR_ARG, "inputs one call takes");
    CHECK_FAILS(frink_embed(c, in, 0, &ep, out, 4 * D), FRINK_ERR_ARG, "no inputs");
    ep.pooling = FRINK_POOLING_UNSPECIFIED;
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, 4 * D), FRINK_ERR_UNSUPPORTED, "pooling_type");
    // llama's fixture has no classification head (and the reference reads none for llama)
    frink_model *ml = open_fixture("llama-dense");
    frink_context *cl = ml ? context(ml, 1, 512) : NULL;
    ep.pooling = FRINK_POOLING_RANK;
    if (cl) CHECK_FAILS(frink_embed(cl, in, 2, &ep, out, 4 * D), FRINK_ERR_UNSUPPORTED, "cls.output");
    CHECK(ml && frink_embed_size(ml, FRINK_POOLING_RANK) == 0, "rank size without a head");
    frink_context_free(cl);
    frink_model_free(ml);
    ep.pooling = (frink_pooling)9;
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, 4 * D), FRINK_ERR_ARG, "unknown pooling");
    ep = (frink_embed_params){FRINK_POOLING_CLS, -2};
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, 4 * D), FRINK_ERR_ARG, "normalize");
    // The temporary sequences do not count against n_seq_max and are gone afterwards.
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 1;
    cp.n_ctx = 64;
    cp.n_seq_max = 1;
    frink_context *c1;
    frink_seq *s = NULL, *s2 = NULL;
    CHECK(!frink_context_create(m, &cp, &c1) && !frink_seq_create(c1, &s), "%s", frink_errmsg());
    ep.normalize = 2;
    CHECK(!frink_embed(c1, in, 2, &ep, out, 2 * D), "n_seq_max 1: %s", frink_errmsg());
    CHECK(frink_seq_create(c1, &s2) == FRINK_ERR_STATE, "a sequence was left behind or n_seq_max ignored");
    frink_context_free(c1);
    CHECK(!strcmp(frink_pooling_name(FRINK_POOLING_LAST), "last") && !frink_pooling_name((frink_pooling)7), "names");
    free(out);
    frink_context_free(c);
    frink_model_free(m);
}

// An encoder: its pooling from the file, no logits, an input longer than n_batch refused naming
// it, a rank head only on the reranker.
static void encoder_refusals(void) {
    frink_model *m = open_fixture("bert-tiny"), *r = open_fixture("bert-rank-tiny");
    if (!m || !r) return;
    CHECK(frink_model_pooling(m) == FRINK_POOLING_CLS && frink_model_pooling(r) == FRINK_POOLING_RANK, "the files' poolings");
    CHECK(frink_embed_size(r, FRINK_POOLING_RANK) == 1 && frink_embed_size(m, FRINK_POOLING_RANK) == 0, "rank sizes");
    frink_context *c = context(m, 1, 8);
    int D = frink_model_n_embd(m), V = frink_model_n_vocab(m);
    float *out = malloc((size_t)64 * D * sizeof(float)), *lg = malloc((size_t)V * sizeof(float));
    frink_token ids[12] = {101, 7592, 1010, 2088, 999, 102, 101, 7592, 1010, 2088, 999, 102};
    frink_embed_input in[2] = {{ids, 6}, {ids, 12}};
    frink_embed_params ep = {FRINK_POOLING_UNSPECIFIED, 2};
    CHECK(!frink_embed(c, in, 1, &ep, out, (size_t)D), "the file's pooling: %s", frink_errmsg());
    CHECK_FAILS(frink_embed(c, in, 2, &ep, out, (size_t)2 * D), FRINK_ERR_ARG, "input 1: 12 tokens exceed the context's n_batch = 8");
    ep.pooling = FRINK_POOLING_RANK;
    CHECK_FAILS(frink_embed(c, in, 1, &ep, out, (size_t)D), FRINK_ERR_UNSUPPORTED, "classification head");
    frink_seq *s;
    CHECK(!frink_seq_create(c, &s), "%s", frink_errmsg());
    CHECK_FAILS(frink_seq_eval(s, ids, 6, lg, 0), FRINK_ERR_UNSUPPORTED, "'bert' is an encoder");
    free(out);
    free(lg);
    frink_context_free(c);
    frink_model_free(m);
    frink_model_free(r);
    // The rotary encoders: the files' poolings, no logits, a rank head only where the reference
    // reads one (neo-bert's cls; eurobert has none).
    frink_model *neo = open_fixture("neo-bert-tiny"), *euro = open_fixture("eurobert-tiny");
    if (!neo || !euro) return;
    CHECK(frink_model_pooling(neo) == FRINK_POOLING_CLS && frink_model_pooling(euro) == FRINK_POOLING_MEAN, "the files' poolings");
    CHECK(frink_embed_size(neo, FRINK_POOLING_RANK) == 1 && frink_embed_size(euro, FRINK_POOLING_RANK) == 0, "rank sizes");
    c = context(euro, 1, 64);
    out = malloc((size_t)D * sizeof(float));
    lg = malloc((size_t)V * sizeof(float));
    ep = (frink_embed_params){FRINK_POOLING_RANK, 2};
    CHECK_FAILS(frink_embed(c, in, 1, &ep, out, (size_t)D), FRINK_ERR_UNSUPPORTED, "'eurobert' has none");
    CHECK(!frink_seq_create(c, &s), "%s", frink_errmsg());
    CHECK_FAILS(frink_seq_eval(s, ids, 6, lg, 0), FRINK_ERR_UNSUPPORTED, "'eurobert' is an encoder");
    free(out);
    free(lg);
    frink_context_free(c);
    frink_model_free(neo);
    frink_model_free(euro);
}

int main(void) {
    printf("embedding parity (worst nmse per pooling, vs the reference):\n");
    const char *fx[] = {"qwen3-dense", "llama-dense",     "gemma3-dense",  "qwen35-dense", "bert-tiny",
                        "bert-rank-tiny", "nomic-bert-tiny", "neo-bert-tiny", "eurobert-tiny", "modern-bert-tiny",
                        "modern-bert-swiglu-tiny", "jina-bert-v2-tiny"};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) parity_fixture(fx[i]);
    for (int p = FRINK_POOLING_NONE; p <= FRINK_POOLING_RANK; p++) {
        if (p != FRINK_POOLING_RANK) {
            invariance("qwen3-dense", (frink_pooling)p, 4);
            invariance("qwen35-dense", (frink_pooling)p, 4);
            invariance("bert-tiny", (frink_pooling)p, 30);
            invariance("nomic-bert-tiny", (frink_pooling)p, 30);
            invariance("eurobert-tiny", (frink_pooling)p, 30);
        }
        invariance("bert-rank-tiny", (frink_pooling)p, 30);
        invariance("neo-bert-tiny", (frink_pooling)p, 30);
        invariance("modern-bert-tiny", (frink_pooling)p, 30);
        invariance("modern-bert-swiglu-tiny", (frink_pooling)p, 30);
        invariance("jina-bert-v2-tiny", (frink_pooling)p, 30);
    }
    normalize_and_state();
    refusals();
    encoder_refusals();
    return TEST_DONE();
}
