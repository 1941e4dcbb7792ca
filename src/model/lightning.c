// lightning.c — MiniMax-01's lightning (linear) attention layers and its block, host path.
//
//   [q_h | k_h | v_h] = silu(Wqkv xn)                  per head h, d each (no scale applied)
//   per head, with lambda_h = exp(-s_h), s_h = slope_h * (1 - il / (n_layer - 1) + 1e-5):
//     o   = (lambda q)^T KV + (q . k) v                KV [d_v][d_k] before this token
//     KV  = lambda KV + v k^T
//   o     = rms_norm(o [H*d]; la_norm) * sigmoid(Wg xn)
//   y     = Wo o                                      (no scale applied)
// slope_h = start * start^h, start = 2^(-2^(-(log2 H - 3))), as the reference's ALiBi-like
// slopes. The reference evaluates a ubatch in block form (decays per position in the block);
// its one-token form is the recurrence above, which frink runs for every token, so prefill,
// decode and chunking agree exactly; the block form equals it to float rounding.
//
// The block (every layer of the family, LF_NORM_RESIDUAL): both residuals carry the normed
// input times residual_scale instead of the input itself (DeepNorm):
//   n1 = rms_norm(x; attn_norm);  h = mixer(n1) + rs n1;  n2 = rms_norm(h; ffn_norm);
//   x  = moe(n2) + rs n2
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/forward_impl.h"
#include "model/mla.h"
#include "quant/quant.h"

void mm01_read_hparams(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    hp->mm01_residual_scale = (float)hp_num(ld, "residual_scale", NAN);
    if (!ld->st && hp->n_layer < 2)
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s' needs at least 2 blocks (its slope schedule divides by n_layer - 1)", ld->arch);
}

bool mm01_layer_is_lightning(struct loader *ld, int il, int n_total) {
    const struct gguf_kv *kv = kv_take(ld, "attention.recurrent_layers");
    if (kv && kv->type == GGUF_VT_ARRAY) {
        if (kv->v.arr.type == GGUF_VT_STRING || kv->v.arr.n != (uint64_t)n_total) {
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.attention.recurrent_layers' must have %d entries", ld->arch, n_total);
            return false;
        }
        return gguf_arr_i64(kv, (uint64_t)il) != 0;
    }
    int interval = hp_int(ld, "full_attention_interval", 8);
    return interval > 0 && (il + 1) % interval != 0;
}

void mm01_bind_lightning(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    int D = hp->n_embd, H = L->n_head, d = hp->head_dim;
    if (H <= 0 || H > 1024 || d <= 0 || d > 1024 || d != hp->head_dim_v) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: lightning attention dims are inconsistent (heads %d, key %d, value %d)", il, H, d,
                hp->head_dim_v);
        return;
    }
    int64_t Hd = (int64_t)H * d;
    feat_set(&L->feat, LF_LIGHTNING);
    snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
    L->wqkv = mat_take_b(ld, b, D, 3 * Hd, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_gate", il);
    L->la_gate = mat_take_b(ld, b, D, Hd, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_norm_2.weight", il);
    L->la_norm = vec_take(ld, b, Hd, true);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, Hd, D, 0, true, false, false);
    L->head_dim = L->head_dim_v = d;
    L->rec_ssm_floats = Hd * d;
    L->scratch_w = (int)(3 * Hd);
}

// The decay rate s_h of head h in layer il (the reference's float steps).
static float slope_rate(const struct model *m, int il, int h) {
    int H = m->layers[il].n_head;
    float start = powf(2, -powf(2, -(log2f((float)H) - 3)));
    float slope = start * powf(start, (float)h);
    float scale = (float)(1.0 - 1.0 * il / (m->hp.n_layer - 1) + 1e-5);
    return slope * scale;
}

// The recurrence of one sequence's rows: qkv [T][ld] (per head [q | k | v]), state KV
// [H][d_v][d_k], out o [T][ld] ([H][d]).
static void lightning_rule(const struct model *m, int il, const float *qkv, int64_t ld, int T, float *KV, float *o) {
    const struct layer *L = &m->layers[il];
    int H = L->n_head, d = L->head_dim;
    for (int h = 0; h < H; h++) {
        float lambda = expf(-slope_rate(m, il, h));
        float *S = KV + (size_t)h * d * d;
        for (int t = 0; t < T; t++) {
            const float *q = qkv + (size_t)t * ld + (size_t)h * 3 * d, *k = q + d, *v = q + 2 * d;
            float *ot = o + (size_t)t * ld + (size_t)h * d;
            float qk = 0;
            for (int i = 0; i < d; i++) qk += q[i] * k[i];
            for (int jv = 0; jv < d; jv++) {
                float *Sj = S + (size_t)jv * d, acc = 0;
                for (int i = 0; i < d; i++) acc += Sj[i] * (q[i] * lambda);
                ot[jv] = acc + v[jv] * qk;
                for (int i = 0; i < d; i++) Sj[i] = Sj[i] * lambda + k[i] * v[jv];
            }
        }
    }
}

void lightning_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, d = L->head_dim;
    int64_t Hd = (int64_t)H * d, ld = ex->ldh;
    float *qkv = ex->hb, *g = ex->hb2, *o = ex->hb3; // [T][ld] each
    const struct weight *w2[2] = {&L->wqkv, &L->la_gate};
    float *y2[2] = {qkv, g};
    exec_mm_multi(ex, 2, w2, xn, D, T, y2, ld);
    for (int t = 0; t < T; t++) quant_silu_mul(ex->isa, qkv + (size_t)t * ld, qkv + (size_t)t * ld, NULL, (int)(3 * Hd));
    for (int r = 0; r < ex->n_run; r++) {
        const struct exec_run *R = &ex->run[r];
        lightning_rule(m, il, qkv + (size_t)R->t0 * ld, ld, R->n, R->s->ssm[il], o + (size_t)R->t0 * ld);
    }
    for (int t = 0; t < T; t++) {
        float *ot = o + (size_t)t * ld;
        const float *gt = g + (size_t)t * ld;
        exec_rms_norm(ot, ot, L->la_norm, (int)Hd, m->hp.norm_eps);
        for (int64_t i = 0; i < Hd; i++) ot[i] = exec_sigmoid(gt[i]) * ot[i];
    }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wo, 0, o, ld, T, y, D);
}

void mm01_block(struct exec *ex, int il, float *x, int T) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd;
    size_t n = (size_t)T * D;
    float *xn = ex->xn, *y = ex->y, rs = m->hp.mm01_residual_scale, eps = m->hp.norm_eps;
    for (int t = 0; t < T; t++) exec_rms_norm(xn + (size_t)t * D, x + (size_t)t * D, L->attn_norm, D, eps);
    exec_act_invalidate(ex); // xn was rewritten behind the activation cache's back
    if (feat_has(L->feat, LF_LIGHTNING)) lightning_layer(ex, il, xn, T, y);
    else attn_layer(ex, il, xn, T, y);
    for (size_t i = 0; i < n; i++) x[i] = y[i] + xn[i] * rs;
    for (int t = 0; t < T; t++) exec_rms_norm(xn + (size_t)t * D, x + (size_t)t * D, L->ffn_norm, D, eps);
    exec_act_invalidate(ex);
    ffn_moe(ex, L, xn, T, y);
    for (size_t i = 0; i < n; i++) x[i] = y[i] + xn[i] * rs;
}
