// forward.c — the host path. One step of T tokens — of one sequence or of
// several, grouped by sequence into runs — goes through every layer in the
// order the math happens:
//
//   x = embed(tokens)                                   x  [T][D]
//   for each layer:
//     xn = norm(x)                                      xn [T][D]
//     x += mixer(xn)     attention (attn.c) or Gated DeltaNet (gdn.c)
//     xn = norm(x)
//     x += ffn(xn)       dense gated FFN or routed experts (+ shared expert)
//   logits = output(norm(x))
//
// Matrix products go through exec_mm() (ops.c), to each weight's backend: the host's converts
// the activation rows once to the weight type's dot-product format, then splits the weight rows
// over the pool's threads; every row of a step is one more row of the same product,
// so each weight is read once per step whatever the sequences. The mixers run
// attention and the recurrences per sequence. Every kernel reduces a row in an
// order that does not depend on the other rows or on the threads, so a
// sequence's logits are the same bits alone or in any step (batch invariance).
// Everything here is plain and general: it is the authority that fused paths
// are tested against. A layer planned on another path (path.h) runs there, in runs of
// consecutive layers (exec_layers).
#include "forward.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/forward_impl.h"
#include "model/path.h"
#include "quant/quant.h"

// The model's norm (RMS or LayerNorm) over T rows of D.
static void norm_rows(const struct model *m, float *y, const float *x, const float *w, const float *b, int T) {
    int D = m->hp.n_embd;
    for (int t = 0; t < T; t++) {
        if (feat_has(m->feat, MF_LAYERNORM)) exec_layer_norm(y + (size_t)t * D, x + (size_t)t * D, w, b, D, m->hp.norm_eps);
        else {
            exec_rms_norm(y + (size_t)t * D, x + (size_t)t * D, w, D, m->hp.norm_eps);
            // (a bias only where the family has one: hp.rms_norm_bias, phimoe)
            if (b)
                for (int i = 0; i < D; i++) y[(size_t)t * D + i] += b[i];
        }
    }
}

// A post-norm of layer L (RMSNorm) on T rows of y in place: the model's epsilon, or the layer's
// own when LF_POST_NORM_EPS (muse-glimmer's 1e-8).
static void post_norm_rows(const struct model *m, const struct layer *L, float *y, const float *w, int T) {
    if (!feat_has(L->feat, LF_POST_NORM_EPS)) {
        norm_rows(m, y, y, w, NULL, T);
        return;
    }
    int D = m->hp.n_embd;
    for (int t = 0; t < T; t++) exec_rms_norm(y + (size_t)t * D, y + (size_t)t * D, w, D, L->chat_post_norm_eps);
}

// ---- embeddings and output -------------------------------------------------------

// x = embed(tokens) (+ learned position) (* scale) (-> LayerNorm, bloom).
static void embed(struct exec *ex, const int32_t *tok, int T, float *x) {
    const struct model *m = ex->m;
    const struct weight *e = &m->tok_embd;
    int D = m->hp.n_embd;
    for (int t = 0; t < T; t++)
        quant_dequant_row(e->type, (const uint8_t *)e->data + (size_t)tok[t] * e->row_bytes, x + (size_t)t * D, D);
    // (bert: the token type before the position, the reference's order of the two additions)
    if (feat_has(m->feat, MF_TOKEN_TYPE))
        for (int t = 0; t < T; t++)
            for (int i = 0; i < D; i++) x[(size_t)t * D + i] += m->type_row[i];
    if (feat_has(m->feat, MF_POS_EMBD)) {
        float *pe = ex->yg;
        for (int t = 0; t < T; t++) {
            int pos = ex->pos[t] < m->pos_embd.n_out ? ex->pos[t] : (int)m->pos_embd.n_out - 1;
            quant_dequant_row(m->pos_embd.type, (const uint8_t *)m->pos_embd.data + (size_t)pos * m->pos_embd.row_bytes, pe, D);
            for (int i = 0; i < D; i++) x[(size_t)t * D + i] += pe[i];
        }
    }
    // gemma: sqrt(D) (computed in float, as the reference); granite: embedding_scale.
    float sc = feat_has(m->feat, MF_EMB_SQRT) ? sqrtf((float)D) : m->hp.f_emb_scale;
    if (feat_has(m->feat, MF_EMB_SQRT) || feat_has(m->feat, MF_EMB_SCALE))
        for (size_t i = 0; i < (size_t)T * D; i++) x[i] *= sc;
    if (feat_has(m->feat, MF_TOK_NORM)) norm_rows(m, x, x, m->tok_norm, m->tok_norm_b, T);
    // (talkie: every layer adds this normed embedding, scaled; LF_EMB_SKIP)
    if (feat_has(m->feat, MF_TOK_NORM) && !m->tok_norm) memcpy(ex->x0, x, (size_t)T * D * sizeof(float));
}

// logits = output(norm(x)) (+ bias) (/ logit_scale) (softcapped).
static void output_logits(struct exec *ex, const float *x, int T, float *logits) {
    const struct model *m = ex->m;
    int V = m->hp.n_vocab;
    norm_rows(m, ex->xn, x, m->output_norm, m->output_norm_b, T);
    exec_act_invalidate(ex);
    exec_mm(ex, &m->output, 0, ex->xn, m->hp.n_embd, T, logits, V);
    size_t n = (size_t)T * V;
    if (feat_has(m->feat, MF_OUTPUT_BIAS))
        for (int t = 0; t < T; t++)
            for (int i = 0; i < V; i++) logits[(size_t)t * V + i] += m->output_bias[i];
    if (feat_has(m->feat, MF_LOGIT_SCALE)) {
        float s = 1.0f / m->hp.f_logit_scale;
        for (size_t i = 0; i < n; i++) logits[i] *= s;
    }
    float c = m->hp.final_softcap;
    if (feat_has(m->feat, MF_FINAL_SOFTCAP)) {
        float ic = 1.0f / c;
        for (size_t i = 0; i < n; i++) logits[i] = tanhf(logits[i] * ic) * c;
    }
}

// ---- the layer loop -----------------------------------------------------------------

// Layer il's mixer on the host: reads xa [T][D], writes y [T][D]. The groups' mixers first
// (each tests the kind feature its binder set), then the original three.
static void host_mixer(struct exec *ex, int il, const float *xa, int T, float *y) {
    const struct layer *L = &ex->m->layers[il];
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    if (feat_has(L->feat, LF_ATTN_SSM_SUM)) { // falcon-h1: y = attn + ssm, in that order
        attn_layer(ex, il, xa, T, y);
        mamba2_layer(ex, il, xa, T, ex->y2);
        for (size_t i = 0; i < (size_t)T * ex->m->hp.n_embd; i++) y[i] += ex->y2[i];
        return;
    }
    if (feat_has(L->feat, LF_MAMBA2)) {
        mamba2_layer(ex, il, xa, T, y);
        return;
    }
    if (feat_has(L->feat, LF_FFN_MIXER)) {
        relu2_ffn_layer(ex, il, xa, T, y);
        return;
    }
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    if (feat_has(L->feat, LF_MAMBA)) {
        mamba_layer(ex, il, xa, T, y);
        return;
    }
    if (feat_has(L->feat, LF_SHORTCONV)) {
        shortconv_layer(ex, il, xa, T, y);
        return;
    }
    if (feat_has(L->feat, LF_PLAMO2_MAMBA)) {
        plamo2_mamba_layer(ex, il, xa, T, y);
        return;
    }
    // <<<
    // >>> MLA and sparse-attention families
    if (feat_has(L->feat, LF_KDA)) {
        kda_layer(ex, il, xa, T, y);
        return;
    }
    if (feat_has(L->feat, LF_MLA_MHA)) {
        mla_mha_layer(ex, il, xa, T, y);
        return;
    }
    // <<<
    // >>> chat-format and sliding-window families
    if (feat_has(L->feat, LF_ATTN_OUT_SCALE)) {
        attn_layer(ex, il, xa, T, y);
        float s = ex->m->hp.chat_attn_out_scale;
        for (size_t i = 0; i < (size_t)T * ex->m->hp.n_embd; i++) y[i] *= s;
        return;
    }
    // <<<
    // >>> dense families
    // <<<
    // >>> MoE families
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    // <<<
    if (feat_has(L->feat, LF_GDN)) gdn_layer(ex, il, xa, T, y);
    else if (feat_has(L->feat, LF_MLA)) attn_mla_layer(ex, il, xa, T, y);
    else attn_layer(ex, il, xa, T, y);
}

// Layer il's FFN on the host: reads xn [T][D], writes y [T][D]. The groups' FFNs first (each
// tests the feature its binder set), then dense or routed experts.
static void host_ffn(struct exec *ex, const struct layer *L, const float *xn, int T, float *y) {
    // >>> MoE families
    // (arctic: ex->y2 holds ffn_norm_exps of the block input, stashed before the mixer)
    if (feat_has(L->feat, LF_MOE_GROVE)) {
        moe_ffn_grove(ex, L, xn, T, y);
        return;
    }
    if (feat_has(L->feat, LF_MOE_BESIDE_DENSE) || feat_has(L->feat, LF_MOE_DENSE_RSQRT2)) {
        moe_ffn_beside_dense(ex, L, xn, feat_has(L->feat, LF_MOE_BESIDE_DENSE) ? ex->y2 : xn, T, y);
        return;
    }
    // <<<
    if (feat_has(L->feat, LF_FFN_MOE)) ffn_moe(ex, L, xn, T, y);
    else ffn_dense(ex, L, xn, T, y);
}

// One block, in the order the math happens:
//   n   = norm(x; attn_norm)                     (none: olmo2)
//   a   = mixer(n or norm(x; attn_norm_2))       attention, MLA or Gated DeltaNet
//   a   = norm(a; post_attention_norm)           (sandwich: gemma2/3, olmo2)
//   sequential: h = x + rs*a;  f = ffn(norm(h; ffn_norm)); x = h + rs*norm(f; post_ffw_norm)
//               (no_ffn, mamba: x = h)
//   parallel:   x = x + a + ffn(falcon: n; neox: norm(x; ffn_norm))
void exec_host_block(struct exec *ex, int il, float *x, int T) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd;
    size_t n = (size_t)T * D;
    float *xn = ex->xn, *y = ex->y;
    float rs = m->hp.f_residual_scale;
    if (feat_has(L->feat, LF_NORM_RESIDUAL)) { // (a block of its own: minimax-01, lightning.c)
        mm01_block(ex, il, x, T);
        return;
    }
    if (!feat_has(L->feat, LF_NO_ATTN_NORM)) norm_rows(m, xn, x, L->attn_norm, L->attn_norm_b, T);
    else memcpy(xn, x, n * sizeof(float));
    const float *xa = xn;
    if (feat_has(L->feat, LF_ATTN_NORM_2)) {
        norm_rows(m, ex->xn2, x, L->attn_norm_2, L->attn_norm_2_b, T);
        xa = ex->xn2;
    }
    // >>> MoE families
    // (arctic's experts read the block input: kept in y2, which only a parallel block uses)
    if (feat_has(L->feat, LF_MOE_BESIDE_DENSE)) norm_rows(m, ex->y2, x, L->ffn_norm_exps, NULL, T);
    if (feat_has(L->feat, LF_MOE_ROUTER_IN)) memcpy(ex->y2, x, n * sizeof(float)); // smallthinker's router input
    // <<<
    // >>> encoders
    if (feat_has(L->feat, LF_ENC_READD_NORM)) memcpy(ex->y2, x, n * sizeof(float)); // (the block input, added again)
    // <<<
    exec_act_invalidate(ex);
    host_mixer(ex, il, xa, T, y);
    if (feat_has(L->feat, LF_POST_ATTN_NORM)) post_norm_rows(m, L, y, L->post_attn_norm, T);
    if (feat_has(L->feat, LF_PARALLEL)) {
        // falcon's FFN reads attn_norm's output; neox's its own ffn_norm.
        if (!feat_has(L->feat, LF_NO_FFN_NORM)) norm_rows(m, xn, x, L->ffn_norm, L->ffn_norm_b, T);
        exec_act_invalidate(ex);
        float *f = ex->y2;
        host_ffn(ex, L, xn, T, f);
        for (size_t i = 0; i < n; i++) x[i] += y[i] + f[i];
        return;
    }
    if (feat_has(L->feat, LF_RESIDUAL_SCALE))
        for (size_t i = 0; i < n; i++) y[i] *= rs;
    for (size_t i = 0; i < n; i++) x[i] += y[i];
    if (feat_has(L->feat, LF_POST_RESIDUAL_NORM)) norm_rows(m, x, x, L->enc_attn_out_norm, L->enc_attn_out_norm_b, T);
    if (feat_has(L->feat, LF_ENC_READD_NORM)) { // (jina-bert-v2: the block input, kept in y2, once more)
        for (size_t i = 0; i < n; i++) x[i] += ex->y2[i];
        norm_rows(m, x, x, L->enc_attn_norm_2, L->enc_attn_norm_2_b, T);
    }
    if (feat_has(L->feat, LF_NO_FFN)) return;
    if (!feat_has(L->feat, LF_NO_FFN_NORM)) norm_rows(m, xn, x, L->ffn_norm, L->ffn_norm_b, T);
    else memcpy(xn, x, n * sizeof(float));
    exec_act_invalidate(ex);
    host_ffn(ex, L, xn, T, y);
    if (feat_has(L->feat, LF_POST_FFN_NORM)) post_norm_rows(m, L, y, L->post_ffn_norm, T);
    if (feat_has(L->feat, LF_RESIDUAL_SCALE))
        for (size_t i = 0; i < n; i++) y[i] *= rs;
    for (size_t i = 0; i < n; i++) x[i] += y[i];
    if (feat_has(L->feat, LF_POST_RESIDUAL_NORM)) norm_rows(m, x, x, L->enc_layer_out_norm, L->enc_layer_out_norm_b, T);
    if (feat_has(L->feat, LF_EMB_SKIP))
        for (size_t i = 0; i < n; i++) x[i] += ex->x0[i] * L->emb_skip_scale;
}

// The entry exec_create made for path p, NULL when it made none (p planned after it).
static const struct exec_path_state *path_state(const struct exec *ex, const struct layer_path *p) {
    for (int i = 0; i < ex->n_paths; i++)
        if (ex->paths[i].p == p) return &ex->paths[i];
    return NULL;
}

// Every layer on the path its plan chose (path.h), x [T][D] in and out: the host path is
// exec_host_block itself, layer by layer; each maximal run of consecutive layers on one other
// path is one begin / layers / end of that path, so the step's rows leave the host once per
// run and come back once.
static frink_status exec_layers(struct exec *ex, float *x, int T) {
    const struct model *m = ex->m;
    for (int il = 0; il < m->hp.n_layer;) {
        const struct layer_path *p = m->layers[il].path;
        if (!p || !p->ops) {
            exec_host_block(ex, il, x, T);
            il++;
            continue;
        }
        int il1 = il + 1;
        while (il1 < m->hp.n_layer && m->layers[il1].path == p) il1++;
        const struct exec_path_state *eps = path_state(ex, p);
        if (!eps)
            return frink_fail(FRINK_ERR_STATE, "layer %d: planned on the %s path after this context was made", il, p->name);
        void *ps = eps->state;
        frink_status st = p->ops->begin(ps, ex, x, T);
        if (!st) st = p->ops->layers(ps, ex, il, il1, T);
        if (!st) st = p->ops->end(ps, ex, x, T);
        if (st) return st;
        exec_act_invalidate(ex); // x was rewritten behind the activation cache's back
        il = il1;
    }
    return FRINK_OK;
}

// One step: tok[0..T) grouped into the runs ex->run[0..n_run) (each sequence
// reserved for its tokens). Logits of the rows out[0..n_out) go to consecutive
// rows of `logits` (n_vocab each). Fails only where a path other than the host's does (a
// device's error), before any of the step's tokens is committed.
static frink_status forward_step(struct exec *ex, const int32_t *tok, int T, const int *out, int n_out, float *logits) {
    const struct model *m = ex->m;
    const struct hparams *hp = &m->hp;
    int D = hp->n_embd;
    float *x = ex->x;
    for (int r = 0; r < ex->n_run; r++)
        for (int i = 0; i < ex->run[r].n; i++) {
            ex->tok_run[ex->run[r].t0 + i] = r;
            ex->pos[ex->run[r].t0 + i] = ex->run[r].p0 + i;
        }
    embed(ex, tok, T, x);
    frink_status st = exec_layers(ex, x, T);
    if (st) return st;
    for (int r = 0; r < ex->n_run; r++) seq_commit(ex->run[r].s, tok + ex->run[r].t0, ex->run[r].n);
    if (!n_out) return FRINK_OK;
    // Gather the rows whose logits are wanted (xg is free after the layers).
    const float *xo = x;
    bool contiguous = true;
    for (int i = 0; i < n_out; i++) contiguous &= out[i] == out[0] + i;
    if (contiguous) xo = x + (size_t)out[0] * D;
    else {
        for (int i = 0; i < n_out; i++) memcpy(ex->xg + (size_t)i * D, x + (size_t)out[i] * D, (size_t)D * sizeof(float));
        xo = ex->xg;
    }
    // Embeddings want the state after the output norm (the reference's t_embd): the
    // vocabulary projection is not computed at all.
    // (an encoder's embedding is the last block's output itself, unless it has a final norm)
    if (ex->out_hidden && feat_has(m->feat, MF_ENCODER) && !feat_has(m->feat, MF_ENC_OUT_NORM))
        memcpy(logits, xo, (size_t)n_out * D * sizeof(float));
    else if (ex->out_hidden) norm_rows(m, logits, xo, m->output_norm, m->output_norm_b, n_out);
    else output_logits(ex, xo, n_out, logits);
    return FRINK_OK;
}

static frink_status check_ids(const struct model *m, const int32_t *tokens, int n) {
    for (int i = 0; i < n; i++)
        if (tokens[i] < 0 || tokens[i] >= m->hp.n_vocab)
            return frink_fail(FRINK_ERR_ARG, "token id %d is out of range (vocabulary of %d)", tokens[i], m->hp.n_vocab);
    return FRINK_OK;
}

// An encoder (MF_ENCODER) computes embeddings only (exec_batch with the hidden output on), each
// input whole in one step from an empty sequence: its attention sees every token of the input,
// so a part of one, or a sequence extended later, would not be what the reference computes.
static frink_status encoder_refusal(const struct model *m) {
    return frink_fail(FRINK_ERR_UNSUPPORTED,
                      "'%s' is an encoder: it has no vocabulary head and computes embeddings only (frink embed, frink_embed)",
                      m->arch->name);
}

frink_status exec_forward(struct exec *ex, struct seq *s, const int32_t *tokens, int n, float *logits, bool all_logits) {
    const struct model *m = ex->m;
    if (feat_has(m->feat, MF_ENCODER)) return encoder_refusal(m);
    if (n <= 0) return frink_fail(FRINK_ERR_ARG, "no tokens to evaluate");
    frink_status st = check_ids(m, tokens, n);
    if (!st) st = dsa_check_positions(m, s->n_past + n);
    if (!st) st = seq_reserve(s, s->n_past + n);
    if (st) return st;
    for (int i = 0; i < n; i += ex->max_T) {
        int T = n - i < ex->max_T ? n - i : ex->max_T;
        bool last = i + T == n;
        ex->run[0] = (struct exec_run){s, 0, T, s->n_past};
        ex->n_run = 1;
        int n_out = 0;
        float *lg = NULL;
        if (logits && all_logits) {
            lg = logits + (size_t)i * m->hp.n_vocab;
            for (int t = 0; t < T; t++) ex->out[t] = t;
            n_out = T;
        } else if (logits && last) {
            lg = logits;
            ex->out[0] = T - 1;
            n_out = 1;
        }
        if ((st = forward_step(ex, tokens + i, T, ex->out, n_out, lg))) return st;
    }
    return FRINK_OK;
}

frink_status exec_batch(struct exec *ex, const struct exec_tok *tok, int n, float *logits) {
    const struct model *m = ex->m;
    if (n <= 0) return frink_fail(FRINK_ERR_ARG, "no tokens to evaluate");
    size_t V = ex->out_hidden ? (size_t)m->hp.n_embd : (size_t)m->hp.n_vocab; // floats of one output row
    frink_status st = FRINK_OK;
    bool encoder = feat_has(m->feat, MF_ENCODER);
    if (encoder && !ex->out_hidden) return encoder_refusal(m);
    // Group the tokens by sequence (first appearance order), validate, reserve. The
    // bookkeeping lives in the executor and grows only when a larger batch comes: a
    // server's steady state allocates nothing per step.
    if ((size_t)n > ex->bat_cap) {
        size_t cap = (size_t)n > 2 * ex->bat_cap ? (size_t)n : 2 * ex->bat_cap;
        free(ex->bat_seq);
        free(ex->bat_idx);
        ex->bat_seq = malloc(cap * sizeof *ex->bat_seq);
        ex->bat_idx = malloc(2 * cap * sizeof *ex->bat_idx);
        ex->bat_cap = ex->bat_seq && ex->bat_idx ? cap : 0;
        if (!ex->bat_cap) return frink_fail(FRINK_ERR_NOMEM, "out of memory for a batch of %d tokens", n);
    }
    struct batch_seq *bs = ex->bat_seq;
    int *idx = ex->bat_idx, *out_row = ex->bat_idx + n;
    int32_t *ids = ex->step_ids;
    memset(bs, 0, (size_t)n * sizeof *bs);
    int n_seq = 0, n_logits = 0;
    for (int i = 0; i < n; i++) {
        if (!tok[i].s || tok[i].s->shape != m->seq_shape) {
            st = frink_fail(FRINK_ERR_ARG, "token %d of the batch names no sequence of this model", i);
            goto done;
        }
        if (tok[i].id < 0 || tok[i].id >= m->hp.n_vocab) {
            st = frink_fail(FRINK_ERR_ARG, "token %d of the batch: id %d is out of range (vocabulary of %d)", i, tok[i].id,
                            m->hp.n_vocab);
            goto done;
        }
        out_row[i] = tok[i].logits ? n_logits++ : -1;
        int k = 0;
        while (k < n_seq && bs[k].s != tok[i].s) k++;
        if (k == n_seq) bs[n_seq++].s = tok[i].s;
        bs[k].n++;
    }
    for (int k = 0, off = 0; k < n_seq; k++) {
        bs[k].idx = idx + off;
        off += bs[k].n;
        bs[k].n = 0;
    }
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (bs[k].s != tok[i].s) k++;
        bs[k].idx[bs[k].n++] = i;
    }
    for (int k = 0; k < n_seq; k++) {
        if (encoder && bs[k].s->n_past > 0) {
            st = frink_fail(FRINK_ERR_ARG, "an encoder's sequence holds its input already: each input is embedded whole, once");
            goto done;
        }
        if (encoder && bs[k].n > ex->max_T) {
            st = frink_fail(FRINK_ERR_ARG, "an encoder's input of %d tokens exceeds the batch of %d: each input is embedded whole in one step",
                            bs[k].n, ex->max_T);
            goto done;
        }
        if ((st = dsa_check_positions(m, bs[k].s->n_past + bs[k].n)) || (st = seq_reserve(bs[k].s, bs[k].s->n_past + bs[k].n)))
            goto done;
    }
    // Steps of at most max_T rows. A hybrid sequence's run stops at its next periodic
    // checkpoint boundary, so the checkpoint is taken exactly there (as seq_append does);
    // the rest of it goes to the next step.
    for (int left = n; left > 0;) {
        int T = 0, n_out = 0;
        ex->n_run = 0;
        for (int k = 0; k < n_seq && T < ex->max_T; k++) {
            struct batch_seq *b = &bs[k];
            if (b->done == b->n) continue;
            int take = b->n - b->done;
            if (encoder && take > ex->max_T - T) continue; // (whole, in a later step)
            if (take > ex->max_T - T) take = ex->max_T - T;
            int next = seq_ckpt_boundary(b->s); // 0: no periodic checkpoints
            if (next && next - b->s->n_past < take) take = next - b->s->n_past;
            ex->run[ex->n_run++] = (struct exec_run){b->s, T, take, b->s->n_past};
            for (int i = 0; i < take; i++) {
                int bi = b->idx[b->done + i];
                ids[T + i] = tok[bi].id;
                if (tok[bi].logits) {
                    ex->out[n_out] = T + i;
                    ex->out_dst[n_out++] = out_row[bi];
                }
            }
            b->done += take;
            T += take;
        }
        // Logits of the step land in its own rows, then move to the caller's order
        // (rows of one step are in batch order within each sequence, not across them).
        float *lg = NULL;
        if (n_out && logits) {
            lg = ex->step_logits;
            if ((size_t)n_out * V > ex->step_logits_cap) {
                free(ex->step_logits);
                ex->step_logits = malloc((size_t)n_out * V * sizeof(float));
                ex->step_logits_cap = ex->step_logits ? (size_t)n_out * V : 0;
                if (!(lg = ex->step_logits)) {
                    st = frink_fail(FRINK_ERR_NOMEM, "out of memory for %d rows of logits", n_out);
                    goto done;
                }
            }
        }
        if ((st = forward_step(ex, ids, T, ex->out, lg ? n_out : 0, lg))) goto done;
        for (int i = 0; lg && i < n_out; i++)
            memcpy(logits + (size_t)ex->out_dst[i] * V, lg + (size_t)i * V, V * sizeof(float));
        left -= T;
        for (int r = 0; r < ex->n_run; r++)
            if (seq_ckpt_due(ex->run[r].s) && (st = seq_checkpoint(ex->run[r].s, false))) goto done;
    }
done:
    return st;
}

// ---- executor lifetime ---------------------------------------------------------------

static int imax(int a, int b) { return a > b ? a : b; }

// The state of every path other than the host's that m's layers are planned on.
static frink_status exec_paths_create(struct exec *ex) {
    const struct model *m = ex->m;
    for (int il = 0; il < m->hp.n_layer; il++) {
        const struct layer_path *p = m->layers[il].path;
        bool seen = !p || !p->ops;
        for (int i = 0; i < ex->n_paths && !seen; i++) seen = ex->paths[i].p == p;
        if (seen) continue;
        if (ex->n_paths == EXEC_PATHS_MAX)
            return frink_fail(FRINK_ERR_UNSUPPORTED, "layer %d: more than %d paths in one plan", il, EXEC_PATHS_MAX);
        struct exec_path_state *ps = &ex->paths[ex->n_paths++];
        *ps = (struct exec_path_state){p, NULL};
        frink_status st = p->ops->state_create ? p->ops->state_create(p, m, ex->max_T, &ps->state) : FRINK_OK;
        if (st) return st;
    }
    return FRINK_OK;
}

frink_status exec_create(const struct model *m, struct pool *pool, int max_batch, struct exec **out) {
    *out = NULL;
    if (max_batch < 1) max_batch = 1;
    struct exec *ex = calloc(1, sizeof *ex);
    if (!ex) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    ex->m = m;
    ex->pool = pool;
    ex->max_T = max_batch;
    // Gated DeltaNet prefill: the token recurrence by default. It is what the
    // reference's CPU path computes (its fused sequential op), so prefill
    // logits are bit-identical to the reference's where the weights allow, and
    // at the 2B shape it measured as fast as chunk 16 and 16% faster than chunk
    // 64. The chunked form (--gdn-chunk N) is tested against it.
    ex->gdn_chunk = 1;
    exec_set_kernels(ex, quant_cpu_isa());
    ffn_init();
    const struct hparams *hp = &m->hp;
    int D = hp->n_embd, W = D, E = 1, K = 1;
    for (int il = 0; il < hp->n_layer; il++) {
        const struct layer *L = &m->layers[il];
        W = imax(W, L->n_ff * 2);
        W = imax(W, L->n_ff_shexp);
        W = imax(W, 2 * L->n_head * L->head_dim);
        W = imax(W, L->n_head * L->head_dim_v);
        W = imax(W, L->n_head_kv * imax(L->head_dim, L->head_dim_v));
        W = imax(W, L->n_head * imax(L->head_dim, L->head_dim_v)); // MLA: absorbed q, latent outputs
        W = imax(W, L->n_head * (L->d_nope + L->n_rot));
        W = imax(W, (int)L->wq_a.n_out);
        W = imax(W, (int)L->wqkv.n_out); // the fused [q | k | v] row lands in one hb* row
        W = imax(W, L->kv_lora + L->n_rot);
        E = imax(E, L->n_expert);
        K = imax(K, L->n_expert_used);
        W = imax(W, L->scratch_w);
    }
    if (m->n_gdn_layers) {
        W = imax(W, 2 * hp->ssm_n_group * hp->ssm_d_state + hp->ssm_d_inner);
        W = imax(W, 2 * hp->ssm_dt_rank);
    }
    W = (W + 15) & ~15; // rows of the scratch buffers start on 64-byte boundaries (below)
    ex->ldh = W;
    size_t T = (size_t)max_batch;
    ex->x = malloc(T * D * sizeof(float));
    ex->xn = malloc(T * D * sizeof(float));
    ex->y = malloc(T * D * sizeof(float));
    ex->xg = malloc(T * D * sizeof(float));
    ex->yg = malloc(T * D * sizeof(float));
    ex->y2 = malloc(T * D * sizeof(float));
    ex->xn2 = malloc(T * D * sizeof(float));
    ex->x0 = malloc(T * D * sizeof(float));
    ex->hb = aligned_alloc(64, T * W * sizeof(float));
    ex->hb2 = aligned_alloc(64, T * W * sizeof(float));
    ex->hb3 = aligned_alloc(64, T * W * sizeof(float));
    ex->hb4 = aligned_alloc(64, T * W * sizeof(float));
    ex->router = malloc(T * E * sizeof(float));
    ex->sel = malloc(T * K * sizeof(int));
    ex->selw = malloc(T * K * sizeof(float));
    ex->tok_idx = malloc(T * K * sizeof(int));
    ex->tok_w = malloc(T * K * sizeof(float));
    ex->run = malloc(T * sizeof *ex->run);
    ex->tok_run = malloc(T * sizeof(int));
    ex->pos = malloc(T * sizeof(int));
    ex->out = malloc(T * sizeof(int));
    ex->out_dst = malloc(T * sizeof(int));
    ex->step_ids = malloc(T * sizeof(int32_t));
    // attention accumulators: per thread, up to 16 query heads sharing a KV head, 1024 wide
    ex->acc16 = malloc((size_t)pool_threads(pool) * 16 * 1024 * sizeof(uint16_t));
    ex->accf = malloc((size_t)pool_threads(pool) * 16 * 1024 * sizeof(float));
    if (!ex->x || !ex->xn || !ex->y || !ex->xg || !ex->yg || !ex->y2 || !ex->xn2 || !ex->x0 || !ex->hb || !ex->hb2 || !ex->hb3 || !ex->hb4 ||
        !ex->router || !ex->sel || !ex->selw || !ex->tok_idx || !ex->tok_w || !ex->acc16 || !ex->accf || !ex->run ||
        !ex->tok_run || !ex->pos || !ex->out || !ex->out_dst || !ex->step_ids) {
        exec_free(ex);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory for a batch of %d tokens", max_batch);
    }
    frink_status st = exec_paths_create(ex);
    if (st) {
        exec_free(ex);
        return st;
    }
    *out = ex;
    return FRINK_OK;
}

void exec_set_gdn_chunk(struct exec *ex, int chunk) { ex->gdn_chunk = chunk; }

void exec_set_hidden_out(struct exec *ex, bool on) { ex->out_hidden = on; }

void exec_set_observer(struct exec *ex, exec_observe_fn fn, void *ud) {
    ex->observe = fn;
    ex->observe_ud = ud;
}

void exec_set_kernels(struct exec *ex, enum quant_isa_id isa) {
    ex->isa = isa;
    ex->packed = ex->m->packed_arena && isa == ex->m->packed_isa;
}

enum quant_isa_id exec_kernels(const struct exec *ex) { return ex->isa; }

void exec_free(struct exec *ex) {
    if (!ex) return;
    for (int i = 0; i < ex->n_paths; i++)
        if (ex->paths[i].p->ops->state_free) ex->paths[i].p->ops->state_free(ex->paths[i].state);
    free(ex->x);
    free(ex->xn);
    free(ex->y);
    free(ex->xg);
    free(ex->yg);
    free(ex->y2);
    free(ex->xn2);
    free(ex->x0);
    free(ex->hb);
    free(ex->hb2);
    free(ex->hb3);
    free(ex->hb4);
    free(ex->router);
    free(ex->sel);
    free(ex->selw);
    free(ex->tok_idx);
    free(ex->tok_w);
    free(ex->acc16);
    free(ex->accf);
    free(ex->xq);
    free(ex->run);
    free(ex->tok_run);
    free(ex->pos);
    free(ex->out);
    free(ex->out_dst);
    free(ex->step_logits);
    free(ex->step_ids);
    free(ex->bat_seq);
    free(ex->bat_idx);
    free(ex);
}
