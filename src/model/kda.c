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
    snprintf(b, sizeof b, "blk.%d.ssm_f_a", il);
    L->kda_f_a = mat_take_b(ld, b, D, d, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_f_b", il);
    L->kda_f_b = mat_take_b(ld, b, d, Hd, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_beta", il);
    L->ssm_beta = mat_take_b(ld, b, D, H, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->ssm_a = vec_take(ld, b, H, true);
    snprintf(b, sizeof b, "blk.%d.ssm_dt.bias", il);
    L->ssm_dt_b = vec_take(ld, b, Hd, true);
    snprintf(b, sizeof b, "blk.%d.ssm_g_a", il);
    L->kda_g_a = mat_take_b(ld, b, D, d, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_g_b", il);
    L->kda_g_b = mat_take_b(ld, b, d, Hd, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_norm.weight", il);
    L->ssm_norm = vec_take(ld, b, d, true);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, Hd, D, 0, true, false, false);
    L->head_dim = d;
    L->rec_conv_floats = 3 * Hd * (Kc - 1);
    L->rec_ssm_floats = Hd * d;
    L->scratch_w = (int)(3 * Hd);
}

// The causal convolution of one sequence's rows x [T][ld] (channels [0, C)), in place, with the
// window state [C][Kc-1] it updates: out(t, c) = sum_i raw(t - Kc + 1 + i, c) w_c[i], summed in
// i order as the reference's ssm_conv; then SiLU. Tokens go last to first, so every raw input a
// token needs is still unwritten. w(c) is the weight row [Kc] of channel c.
static void kda_conv(const struct layer *L, float *x, int64_t ld, int T, int64_t Hd, int Kc, float *state, enum quant_isa_id isa) {
    const float *w3[3] = {L->kda_conv_q, L->kda_conv_k, L->kda_conv_v};
    float next[16];
    for (int64_t c = 0; c < 3 * Hd; c++) {
        const float *w = w3[c / Hd] + (c % Hd) * Kc;
        float *st = state + c * (Kc - 1);
#define RAW(t) ((t) >= 0 ? x[(size_t)(t) * ld + c] : st[Kc - 1 + (t)])
        for (int i = 0; i < Kc - 1; i++) next[i] = RAW(T - (Kc - 1) + i);
        for (int t = T - 1; t >= 0; t--) {
            float acc = 0;
            for (int i = 0; i < Kc; i++) acc += RAW(t - (Kc - 1) + i) * w[i];
            x[(size_t)t * ld + c] = acc;
        }
#undef RAW
        for (int i = 0; i < Kc - 1; i++) st[i] = next[i];
    }
    for (int t = 0; t < T; t++) quant_silu_mul(isa, x + (size_t)t * ld, x + (size_t)t * ld, NULL, (int)(3 * Hd));
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
    exec_mm(ex, &L->kda_f_a, 0, xn, D, T, o, ld);
    for (int t = 0; t < T; t++)
        for (int h = 0; h < H; h++) beta[(size_t)t * H + h] = exec_sigmoid(g2[(size_t)t * ld + h]);
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
