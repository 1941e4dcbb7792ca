// kda.c — Kimi Delta Attention (kimi-linear's recurrent layers), host path.
//
//   q, k, v = Wq xn, Wk xn, Wv xn                              [T][H*d] each (no bias, no scale)
//   q, k, v = silu(causal depthwise conv, kernel Kc)           per channel, one state per stream
//   q, k    = l2norm per head
//   g       = ssm_a[h] * softplus(Wf_b Wf_a xn + dt_bias)      [T][H][d]: a decay per key channel
//   beta    = sigmoid(W_beta xn)                               [T][H]
//   per head: S[i][.] *= exp(g[i]);  u = S^T k;  S += k (beta (v - u))^T;  o = S^T q / sqrt(d)
//   o_h     = rms_norm(o_h; ssm_norm) * sigmoid(Wg_b Wg_a xn)_h
//   y       = Wo o                                             (its `.scale` is not applied)
// bailingmoe3's variant (LF_KDA_SIGMOID_GATE): g = lower_bound * sigmoid((Wf xn + dt_bias) * A)
// and the output gate Wg xn, both full-width single projections.
// Also here: bailingmoe3's per-head sigmoid gate on its latent attention's output (mla_head_gate).
//
// It is the Gated DeltaNet rule (gdn.c) with the scalar decay of a head replaced by one per
// key channel: the channel scaling is done on the state's rows first (S is key-major, one
// row per key channel, as gdn.c keeps it), then the token step of gdn_rule_token with decay 1,
// which multiplies by exactly 1. The reference's fused kernel scales the same products in the
// same order (ggml_gated_delta_net, its KDA branch).
//
// State per sequence and layer: the conv windows [3][H*d][Kc-1] (q, k, v; raw inputs, oldest
// first) and S [H][d][d].
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/forward_impl.h"
#include "model/mla.h"
#include "quant/quant.h"

void kda_read_hparams(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    hp->kda_head_dim = hp_int(ld, "kda.head_dim", NAN);
    hp->kda_conv = hp_int(ld, "ssm.conv_kernel", NAN);
    if (ld->m->arch->flags2 & AX_KDA_SIGMOID_GATE) {
        // bailingmoe3: the "safe" gate, lower_bound * sigmoid(.), the only form the reference has.
        const struct gguf_kv *sg = kv_take(ld, "kda.safe_gate");
        if (sg && kv_is_num(sg) && kv_num(sg) == 0)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.kda.safe_gate' = false: only the safe KDA gate is implemented", ld->arch);
        hp->kda_gate_lower_bound = (float)hp_num(ld, "kda.gate_lower_bound", NAN);
        if (!ld->st && !(hp->kda_gate_lower_bound < 0))
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.kda.gate_lower_bound' = %g must be negative", ld->arch, hp->kda_gate_lower_bound);
    }
    if (ld->st) return;
    if (hp->kda_head_dim <= 0 || hp->kda_head_dim > 1024 || hp->kda_conv < 1 || hp->kda_conv > 16)
        ld_fail(ld, FRINK_ERR_FORMAT, "Kimi Delta Attention dims are inconsistent (head dim %d, conv kernel %d)", hp->kda_head_dim,
                hp->kda_conv);
}

void kda_bind(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    // The reference sizes every KDA layer by the first layer's head count (hparams.n_head()):
    // the file's per-layer count is 0 on these layers.
    int D = hp->n_embd, H = hp->n_head, d = hp->kda_head_dim, Kc = hp->kda_conv;
    L->n_head = H;
    if (H <= 0 || H > D || (int64_t)H * d > (1 << 20)) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: KDA head count %d is out of range", il, H);
        return;
    }
    int64_t Hd = (int64_t)H * d;
    feat_set(&L->feat, LF_KDA);
    static const char *const proj[3] = {"attn_q", "attn_k", "attn_v"}, *const conv[3] = {"q", "k", "v"};
    struct weight *w3[3] = {&L->wq, &L->wk, &L->wv};
    const float **c3[3] = {&L->kda_conv_q, &L->kda_conv_k, &L->kda_conv_v};
    for (int s = 0; s < 3; s++) {
        // (the reference multiplies by the matrices alone: their biases and scales stay unread)
        snprintf(b, sizeof b, "blk.%d.%s", il, proj[s]);
        *w3[s] = mat_take_b(ld, b, D, Hd, 0, true, false, false);
        snprintf(b, sizeof b, "blk.%d.ssm_conv1d_%s.weight", il, conv[s]);
        *c3[s] = vec_take(ld, b, Hd * Kc, true);
    }
    // kimi-linear: low-rank decay and output-gate projections (f_a f_b, g_a g_b); bailingmoe3:
    // full-width f_a and g_a alone.
    bool sig = (ld->m->arch->flags2 & AX_KDA_SIGMOID_GATE) != 0;
    snprintf(b, sizeof b, "blk.%d.ssm_f_a", il);
    L->kda_f_a = mat_take_b(ld, b, D, sig ? Hd : d, 0, true, false, false);
    if (!sig) {
        snprintf(b, sizeof b, "blk.%d.ssm_f_b", il);
        L->kda_f_b = mat_take_b(ld, b, d, Hd, 0, true, false, false);
    }
    snprintf(b, sizeof b, "blk.%d.ssm_beta", il);
    L->ssm_beta = mat_take_b(ld, b, D, H, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->ssm_a = vec_take(ld, b, H, true);
    snprintf(b, sizeof b, "blk.%d.ssm_dt.bias", il);
    L->ssm_dt_b = vec_take(ld, b, Hd, true);
    snprintf(b, sizeof b, "blk.%d.ssm_g_a", il);
    L->kda_g_a = mat_take_b(ld, b, D, sig ? Hd : d, 0, true, false, false);
    if (!sig) {
        snprintf(b, sizeof b, "blk.%d.ssm_g_b", il);
        L->kda_g_b = mat_take_b(ld, b, d, Hd, 0, true, false, false);
    } else {
        feat_set(&L->feat, LF_KDA_SIGMOID_GATE);
    }
    snprintf(b, sizeof b, "blk.%d.ssm_norm.weight", il);
    L->ssm_norm = vec_take(ld, b, d, true);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, Hd, D, 0, true, false, false);
    L->head_dim = d;
    L->rec_conv_floats = 3 * Hd * (Kc - 1);
    L->rec_ssm_floats = Hd * d;
    L->scratch_w = (int)(3 * Hd);
}

// The causal convolution of one sequence's rows x [T][ld] (channels [0, 3 Hd): q | k | v, each
// with its own weights [Hd][Kc]), in place, with the window state [3 Hd][Kc-1] it updates
// (exec_causal_conv), then SiLU.
static void kda_conv(const struct layer *L, float *x, int64_t ld, int T, int64_t Hd, int Kc, float *state, enum quant_isa_id isa) {
    const float *w3[3] = {L->kda_conv_q, L->kda_conv_k, L->kda_conv_v};
    for (int p = 0; p < 3; p++) exec_causal_conv(isa, x, ld, T, state, w3[p], NULL, Kc, p * Hd, (p + 1) * Hd, true);
}

// The delta rule of one sequence's rows: mixed [T][ld] (q | k | v, conv'd and normalized), the
// decays g [T][ld] ([H][d]), beta [T][H]; state S [H][d][d] (key-major); o [T][ld] ([H][d]).
static void kda_rule(const float *mixed, const float *g, const float *beta, int64_t ld, int T, int H, int d, float *S, float *o,
                     enum quant_isa_id isa) {
    const int64_t Hd = (int64_t)H * d;
    const float qs = 1.0f / sqrtf((float)d);
    for (int h = 0; h < H; h++) {
        float *Sh = S + (size_t)h * d * d;
        for (int t = 0; t < T; t++) {
            const float *row = mixed + (size_t)t * ld, *gt = g + (size_t)t * ld + (size_t)h * d;
            for (int i = 0; i < d; i++) {
                float e = expf(gt[i]);
                float *Si = Sh + (size_t)i * d;
                for (int jv = 0; jv < d; jv++) Si[jv] *= e;
            }
            gdn_rule_token(isa, Sh, d, d, row + (size_t)h * d, row + Hd + (size_t)h * d, row + 2 * Hd + (size_t)h * d, 1.0f,
                           beta[(size_t)t * H + h], qs, o + (size_t)t * ld + (size_t)h * d);
        }
    }
}

void kda_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, d = m->hp.kda_head_dim, Kc = m->hp.kda_conv;
    int64_t Hd = (int64_t)H * d, ld = ex->ldh;
    float eps = m->hp.norm_eps;
    float *mixed = ex->hb; // [T][ld]: q | k | v
    float *g1 = ex->hb2;   // [T][ld]: the per-channel log decays [H][d]
    float *g2 = ex->hb3;   // [T][ld]: W_beta xn, then the output gate [H][d]
    float *o = ex->hb4;    // [T][ld]: Wf_a xn, Wg_a xn, then the rule's output [H][d]
    float *beta = ex->xg;  // [T][H] (H <= D: kda_bind)
    // (exec_mm_multi takes at most four)
    const struct weight *w4[4] = {&L->wq, &L->wk, &L->wv, &L->ssm_beta};
    float *y4[4] = {mixed, mixed + Hd, mixed + 2 * Hd, g2};
    exec_mm_multi(ex, 4, w4, xn, D, T, y4, ld);
    for (int t = 0; t < T; t++)
        for (int h = 0; h < H; h++) beta[(size_t)t * H + h] = exec_sigmoid(g2[(size_t)t * ld + h]);
    if (feat_has(L->feat, LF_KDA_SIGMOID_GATE)) {
        // bailingmoe3: g = lower_bound * sigmoid((W_f xn + dt_bias) * A); the output gate W_g xn.
        const struct weight *w2[2] = {&L->kda_f_a, &L->kda_g_a};
        float *y2[2] = {g1, g2};
        exec_mm_multi(ex, 2, w2, xn, D, T, y2, ld);
        float lb = m->hp.kda_gate_lower_bound;
        for (int t = 0; t < T; t++) {
            float *gt = g1 + (size_t)t * ld;
            for (int64_t c = 0; c < Hd; c++) gt[c] = exec_sigmoid((gt[c] + L->ssm_dt_b[c]) * L->ssm_a[c / d]) * lb;
        }
    } else {
        // kimi-linear: g = A * softplus(Wf_b Wf_a xn + dt_bias); the output gate Wg_b Wg_a xn.
        exec_mm(ex, &L->kda_f_a, 0, xn, D, T, o, ld);
        exec_act_invalidate(ex);
        exec_mm(ex, &L->kda_f_b, 0, o, ld, T, g1, ld);
        for (int t = 0; t < T; t++) {
            float *gt = g1 + (size_t)t * ld;
            for (int64_t c = 0; c < Hd; c++) {
                float a = gt[c] + L->ssm_dt_b[c];
                gt[c] = (a > 20.0f ? a : logf(1.0f + expf(a))) * L->ssm_a[c / d];
            }
        }
        exec_act_invalidate(ex);
        exec_mm(ex, &L->kda_g_a, 0, xn, D, T, o, ld);
        exec_act_invalidate(ex);
        exec_mm(ex, &L->kda_g_b, 0, o, ld, T, g2, ld);
    }
    for (int r = 0; r < ex->n_run; r++) {
        const struct exec_run *R = &ex->run[r];
        kda_conv(L, mixed + (size_t)R->t0 * ld, ld, R->n, Hd, Kc, R->s->conv[il], ex->isa);
    }
    // L2-normalize q and k per head: squares summed in double, x / max(sqrt(sum), eps), as
    // the reference's l2_norm (and gdn.c).
    for (int t = 0; t < T; t++)
        for (int hh = 0; hh < 2 * H; hh++) {
            float *v = mixed + (size_t)t * ld + (size_t)hh * d;
            double ss = 0;
            for (int i = 0; i < d; i++) ss += (double)(v[i] * v[i]);
            float sc = 1.0f / fmaxf(sqrtf((float)ss), eps);
            for (int i = 0; i < d; i++) v[i] *= sc;
        }
    for (int r = 0; r < ex->n_run; r++) {
        const struct exec_run *R = &ex->run[r];
        size_t off = (size_t)R->t0 * ld;
        kda_rule(mixed + off, g1 + off, beta + (size_t)R->t0 * H, ld, R->n, H, d, R->s->ssm[il], o + off, ex->isa);
    }
    for (int t = 0; t < T; t++)
        for (int h = 0; h < H; h++) {
            float *oh = o + (size_t)t * ld + (size_t)h * d;
            const float *gh = g2 + (size_t)t * ld + (size_t)h * d;
            exec_rms_norm(oh, oh, L->ssm_norm, d, eps);
            for (int i = 0; i < d; i++) oh[i] *= exec_sigmoid(gh[i]);
        }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wo, 0, o, ld, T, y, D);
}

void mla_bind_head_gate(struct loader *ld, struct layer *L, int il) {
    char b[64];
    snprintf(b, sizeof b, "blk.%d.attn_gate", il);
    // (the reference multiplies by the matrix alone: its `.scale` stays unread)
    L->mla_gate = mat_take_b(ld, b, ld->m->hp.n_embd, L->n_head, 0, true, false, false);
    feat_set(&L->feat, LF_MLA_HEAD_GATE);
}

void mla_head_gate(struct exec *ex, const struct layer *L, const float *xn, int T, float *o) {
    int H = L->n_head, dv = L->dv_mla;
    float *g = ex->hb3; // [T][ld]
    exec_mm(ex, &L->mla_gate, 0, xn, ex->m->hp.n_embd, T, g, ex->ldh);
    for (int t = 0; t < T; t++)
        for (int h = 0; h < H; h++) {
            float s = exec_sigmoid(g[(size_t)t * ex->ldh + h]);
            float *oh = o + (size_t)t * H * dv + (size_t)h * dv;
            for (int i = 0; i < dv; i++) oh[i] *= s;
        }
}

// One block's value of a per-layer limit key (a scalar, or one per block), 0 when absent.
static float layer_limit(struct loader *ld, const char *key, int il, int n_total) {
    const struct gguf_kv *kv = kv_take(ld, key);
    if (!kv) return 0;
    if (kv->type == GGUF_VT_ARRAY) {
        if (kv->v.arr.type == GGUF_VT_STRING || kv->v.arr.n != (uint64_t)n_total) {
            ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.%s' must be a number or one per block (%d)", ld->arch, key, n_total);
            return 0;
        }
        return (float)gguf_arr_f64(kv, (uint64_t)il);
    }
    return kv_is_num(kv) ? (float)kv_num(kv) : 0;
}

void ffn_bind_swiglu_limits(struct loader *ld, struct layer *L, int il, int n_total) {
    // The reference's threshold: a limit at or below 1e-6 is none.
    float le = layer_limit(ld, "swiglu_clamp_exp", il, n_total), ls = layer_limit(ld, "swiglu_clamp_shexp", il, n_total);
    L->swiglu_lim_exp = le > 1e-6f ? le : 0;
    L->swiglu_lim_shexp = ls > 1e-6f ? ls : 0;
    // (the reference's build_ffn applies the shared-expert limit to a dense FFN too)
    if (L->n_expert == 0 && (L->swiglu_lim_exp > 0 || L->swiglu_lim_shexp > 0))
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "layer %d: a SwiGLU clamp on a dense FFN is not implemented", il);
    if (L->swiglu_lim_exp > 0 || L->swiglu_lim_shexp > 0) feat_set(&L->feat, LF_SWIGLU_LIMIT);
}
