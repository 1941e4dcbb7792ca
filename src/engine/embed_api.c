// embed_api.c — frink_embed: pooled final hidden states of many inputs in shared steps.
//
//   inputs ──► groups of at most n_batch tokens (one input longer than that is a group alone)
//          ──► one temporary sequence per input, every token of the group in one exec_batch
//              with the executor's hidden output on (exec_set_hidden_out: the state after the
//              output norm, no vocabulary projection)
//          ──► pool each input's rows (none / mean / cls / last / rank), normalize, copy out
//
// Batch invariance of exec_batch makes each input's rows the same bits alone or grouped with
// any others, so the pooled vectors are too: pooling and normalizing read one input's rows only.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "engine/engine.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/shape.h"
#include "quant/quant.h"
#include "state/seq.h"

frink_embed_params frink_embed_default_params(void) {
    return (frink_embed_params){.pooling = FRINK_POOLING_UNSPECIFIED, .normalize = 2};
}

frink_pooling frink_model_pooling(const frink_model *fm) {
    if (!fm->m || fm->m->pooling < FRINK_POOLING_NONE || fm->m->pooling > FRINK_POOLING_RANK) return FRINK_POOLING_UNSPECIFIED;
    return (frink_pooling)fm->m->pooling;
}

const char *frink_pooling_name(frink_pooling p) {
    static const char *names[] = {"unspecified", "none", "mean", "cls", "last", "rank"};
    return p >= FRINK_POOLING_UNSPECIFIED && p <= FRINK_POOLING_RANK ? names[p + 1] : NULL;
}

// The size of a rank vector: the classes of cls.output, or without one (jina-bert-v2's head) the
// rows of cls; 0 when the model has no head.
static int rank_dim(const struct model *m) {
    return m->cls_out.data ? (int)m->cls_out.n_out : m->cls.data ? (int)m->cls.n_out : 0;
}

// The pooling p resolves to on fm (UNSPECIFIED: the file's), or a failure naming why it cannot.
static frink_status embed_pooling(const frink_model *fm, frink_pooling p, frink_pooling *out) {
    if (!fm->m) return frink_fail(FRINK_ERR_STATE, "the model was opened without its weights (vocab_only)");
    if (p < FRINK_POOLING_UNSPECIFIED || p > FRINK_POOLING_RANK) return frink_fail(FRINK_ERR_ARG, "unknown pooling %d", (int)p);
    if (p == FRINK_POOLING_UNSPECIFIED) p = frink_model_pooling(fm);
    if (p == FRINK_POOLING_UNSPECIFIED)
        return frink_fail(FRINK_ERR_UNSUPPORTED,
                          "'%s' names no pooling (%s.pooling_type is absent): ask for one (none, mean, cls, last)", fm->arch,
                          fm->arch);
    if (p == FRINK_POOLING_RANK && !rank_dim(fm->m))
        return frink_fail(FRINK_ERR_UNSUPPORTED,
                          "pooling 'rank' needs a classification head (cls.output.weight, read for qwen3 / qwen3vl and the "
                          "encoders but nomic-bert and eurobert; cls.weight alone for jina-bert-v2): '%s' has none",
                          fm->arch);
    *out = p;
    return FRINK_OK;
}

int frink_embed_size(const frink_model *fm, frink_pooling p) {
    frink_pooling q;
    if (embed_pooling(fm, p, &q)) return 0;
    return q == FRINK_POOLING_RANK ? rank_dim(fm->m) : fm->m->hp.n_embd;
}

// x[0..n) scaled in place as the reference's common_embd_normalize (sums in double, as it does).
static void embed_normalize(float *x, int n, int norm) {
    double sum = 0.0;
    if (norm == -1) sum = 1.0;
    else if (norm == 0) {
        for (int i = 0; i < n; i++)
            if (sum < fabsf(x[i])) sum = fabsf(x[i]);
        sum /= 32760.0;
    } else if (norm == 2) {
        for (int i = 0; i < n; i++) sum += x[i] * x[i];
        sum = sqrt(sum);
    } else {
        for (int i = 0; i < n; i++) sum += pow(fabsf(x[i]), norm);
        sum = pow(sum, 1.0 / norm);
    }
    float k = sum > 0.0 ? (float)(1.0 / sum) : 0.0f;
    for (int i = 0; i < n; i++) x[i] *= k;
}

// y [w->n_out] = w x (+ its bias), x [D]: the activation in the weight type's dot format and
// the matvec kernel, as the reference's mul_mat (F16 weights: x rounded to F16); xq holds
// quant_act_size(w->type, D) bytes.
static void embed_head_mv(const struct weight *w, const float *x, int D, void *xq, float *y) {
    enum quant_isa_id isa = quant_active_isa();
    quant_act_from_float(isa, w->type, x, xq, D);
    quant_matvec(isa, w->type, w->data, w->row_bytes, xq, D, y, 0, w->n_out);
    for (int k = 0; w->bias && k < (int)w->n_out; k++) y[k] += w->bias[k];
}

// The classification head on one row h [D] into y [rank_dim], as the reference's rank pooling:
// an encoder's pooler first when it has one (cls h (+ b), then tanh, or modern-bert's GELU and
// cls.norm), then cls_out (+ its bias) when there is one; the softmax over the classes only for
// the qwen3 rerankers (decoders), as the reference.
static frink_status embed_rank(const struct model *m, const float *h, float *y) {
    int D = m->hp.n_embd, K = rank_dim(m);
    size_t xb = m->cls_out.data ? quant_act_size(m->cls_out.type, D) : 0;
    if (m->cls.data && quant_act_size(m->cls.type, D) > xb) xb = quant_act_size(m->cls.type, D);
    float *pooled = malloc((size_t)D * sizeof(float) + xb);
    if (!pooled) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    void *row = pooled + D;
    if (m->cls.data) {
        int n = (int)m->cls.n_out;
        embed_head_mv(&m->cls, h, D, row, pooled);
        exec_rank_pooler_act(m, pooled, n);
        h = pooled;
        if (!m->cls_out.data) memcpy(y, pooled, (size_t)n * sizeof(float)); // (jina-bert-v2: the head)
    }
    if (m->cls_out.data) embed_head_mv(&m->cls_out, h, D, row, y);
    if (!feat_has(m->feat, MF_ENCODER)) {
        float mx = -INFINITY, sum = 0;
        for (int k = 0; k < K; k++) mx = y[k] > mx ? y[k] : mx;
        for (int k = 0; k < K; k++) sum += y[k] = expf(y[k] - mx);
        for (int k = 0; k < K; k++) y[k] /= sum;
    }
    free(pooled);
    return FRINK_OK;
}

// The mean of n_tok rows x [n_tok][D] into out [D], as the reference's product with inp_mean.
static void embed_mean(const float *x, int n_tok, int D, float *out) {
    float inv = 1.0f / (float)n_tok; // the reference's inp_mean weights
    for (int i = 0; i < D; i++) {
        float s = 0;
        for (int t = 0; t < n_tok; t++) s += x[(size_t)t * D + i] * inv;
        out[i] = s;
    }
}

// One input's vector(s) from its rows (x: the rows its pooling asked for, [n_rows][D]) into out.
static frink_status embed_pool(const struct model *m, frink_pooling p, int norm, const float *x, int n_tok, float *out) {
    int D = m->hp.n_embd;
    switch (p) {
    case FRINK_POOLING_NONE:
        memcpy(out, x, (size_t)n_tok * D * sizeof(float));
        for (int t = 0; t < n_tok; t++) embed_normalize(out + (size_t)t * D, D, norm);
        return FRINK_OK;
    case FRINK_POOLING_MEAN: embed_mean(x, n_tok, D, out); break;
    case FRINK_POOLING_RANK: {
        // (modern-bert: the head reads the mean of every row)
        float *mean = feat_has(m->feat, MF_RANK_MEAN_GELU) ? malloc((size_t)D * sizeof(float)) : NULL;
        if (feat_has(m->feat, MF_RANK_MEAN_GELU) && !mean) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
        if (mean) embed_mean(x, n_tok, D, mean);
        frink_status st = embed_rank(m, mean ? mean : x, out);
        free(mean);
        if (st) return st;
        embed_normalize(out, rank_dim(m), norm);
        return FRINK_OK;
    }
    default: memcpy(out, x, (size_t)D * sizeof(float)); // cls, last: the one row asked for
    }
    embed_normalize(out, D, norm);
    return FRINK_OK;
}

// Rows of output input `in` asks for under p (every token for none / mean and modern-bert's
// rank, else one).
static int embed_rows(const struct model *m, frink_pooling p, int n) {
    bool all = p == FRINK_POOLING_NONE || p == FRINK_POOLING_MEAN || (p == FRINK_POOLING_RANK && feat_has(m->feat, MF_RANK_MEAN_GELU));
    return all ? n : 1;
}

// Whether token t of an n-token input is an output row under p. Rank takes the last token for
// the decoders (the reference does for qwen3, the one decoder whose head frink reads), the first
// ([CLS]) for the encoders.
static bool embed_wants(const struct model *m, frink_pooling p, int t, int n) {
    if (embed_rows(m, p, n) == n) return true;
    if (p == FRINK_POOLING_RANK && feat_has(m->feat, MF_ENCODER)) return t == 0;
    return p == FRINK_POOLING_CLS ? t == 0 : t == n - 1;
}

// Validates every input before anything runs; *need gets the floats of out the call fills.
static frink_status embed_check(const frink_context *c, const frink_embed_input *in, int n_in, frink_pooling p,
                                int dim, size_t *need) {
    int V = c->fm->m->hp.n_vocab;
    if (!in || n_in < 1) return frink_fail(FRINK_ERR_ARG, "no inputs to embed");
    if (n_in > FRINK_EMBED_MAX_INPUTS)
        return frink_fail(FRINK_ERR_ARG, "input %d: more than the %d inputs one call takes", FRINK_EMBED_MAX_INPUTS,
                          FRINK_EMBED_MAX_INPUTS);
    size_t n = 0;
    for (int i = 0; i < n_in; i++) {
        if (in[i].n <= 0 || !in[i].ids) return frink_fail(FRINK_ERR_ARG, "input %d is empty", i);
        if (in[i].n > c->p.n_ctx)
            return frink_fail(FRINK_ERR_ARG, "input %d: %d tokens exceed the context's n_ctx = %d", i, in[i].n, c->p.n_ctx);
        // (as the reference's n_ubatch >= n_tokens for non-causal attention)
        if (feat_has(c->fm->m->feat, MF_ENCODER) && in[i].n > c->p.n_batch)
            return frink_fail(FRINK_ERR_ARG,
                              "input %d: %d tokens exceed the context's n_batch = %d (an encoder attends over its whole input in one step)",
                              i, in[i].n, c->p.n_batch);
        for (int t = 0; t < in[i].n; t++)
            if (in[i].ids[t] < 0 || in[i].ids[t] >= V)
                return frink_fail(FRINK_ERR_ARG, "input %d, token %d: id %d is out of range (vocabulary of %d)", i, t,
                                  in[i].ids[t], V);
        n += (size_t)(p == FRINK_POOLING_NONE ? in[i].n : 1) * dim;
    }
    *need = n;
    return FRINK_OK;
}

// Inputs [i0, i1) in one exec_batch (steps of n_batch inside it), each in a temporary sequence;
// their vectors to out. tok [tokens of the group] and rows [output rows][D] are the caller's.
static frink_status embed_group(frink_context *c, const frink_embed_input *in, int i0, int i1, frink_pooling p,
                                int norm, struct exec_tok *tok, float *rows, float **out) {
    const struct model *m = c->fm->m;
    int D = m->hp.n_embd, dim = p == FRINK_POOLING_RANK ? rank_dim(m) : D;
    struct seq **seqs = calloc((size_t)(i1 - i0), sizeof *seqs);
    if (!seqs) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    struct seq_opts o = c->so;
    o.ckpt_every = 0; // nothing rewinds these: no checkpoints
    frink_status st = FRINK_OK;
    int n = 0;
    for (int i = i0; i < i1 && !st; i++) {
        o.cap = in[i].n;
        if ((st = seq_create_opts(model_seq_shape(m), &o, &seqs[i - i0]))) break;
        for (int t = 0; t < in[i].n; t++) tok[n++] = (struct exec_tok){seqs[i - i0], in[i].ids[t], embed_wants(m, p, t, in[i].n)};
    }
    if (!st) {
        exec_set_hidden_out(c->ex, true);
        st = exec_batch(c->ex, tok, n, rows);
        exec_set_hidden_out(c->ex, false);
        if (st) frink_fail_ctx(st, "inputs %d..%d: ", i0, i1 - 1);
    }
    const float *x = rows;
    for (int i = i0; i < i1 && !st; i++) {
        if ((st = embed_pool(m, p, norm, x, in[i].n, *out))) break;
        x += (size_t)embed_rows(m, p, in[i].n) * D;
        *out += (size_t)(p == FRINK_POOLING_NONE ? in[i].n : 1) * dim;
    }
    for (int i = 0; i < i1 - i0; i++) seq_free(seqs[i]);
    free(seqs);
    return st;
}

frink_status frink_embed(frink_context *c, const frink_embed_input *in, int n_in, const frink_embed_params *par, float *out,
                         size_t out_cap) {
    frink_embed_params d = frink_embed_default_params();
    if (!par) par = &d;
    frink_pooling p;
    frink_status st = embed_pooling(c->fm, par->pooling, &p);
    if (st) return st;
    if (par->normalize < -1) return frink_fail(FRINK_ERR_ARG, "normalize must be -1, 0, 1, 2 or a p > 2, got %d", par->normalize);
    int dim = frink_embed_size(c->fm, p);
    size_t need = 0;
    if ((st = embed_check(c, in, n_in, p, dim, &need))) return st;
    if (!out || out_cap < need)
        return frink_fail(FRINK_ERR_ARG, "the output holds %zu floats; %d inputs need %zu", out ? out_cap : 0, n_in, need);
    // Groups of at most n_batch tokens: the scratch is that size (or one longer input's).
    int B = c->p.n_batch, most = B;
    for (int i = 0; i < n_in; i++)
        if (in[i].n > most) most = in[i].n;
    int D = c->fm->m->hp.n_embd;
    struct exec_tok *tok = malloc((size_t)most * sizeof *tok);
    float *rows = malloc((size_t)most * D * sizeof(float));
    if (!tok || !rows) st = frink_fail(FRINK_ERR_NOMEM, "out of memory for %d tokens of embeddings", most);
    float *o = out;
    for (int i0 = 0; i0 < n_in && !st;) {
        int i1 = i0 + 1, n = in[i0].n;
        while (i1 < n_in && n + in[i1].n <= B) n += in[i1++].n;
        st = embed_group(c, in, i0, i1, p, par->normalize, tok, rows, &o);
        i0 = i1;
    }
    free(tok);
    free(rows);
    return st;
}
