// minicpm3.c — MiniCPM3's latent attention, in the MHA form the reference runs it in:
//
//   q    = Wq_b rms_norm(Wq_a xn; q_a_norm)              [T][H][d_nope | n_rot]
//   c    = Wkv_a xn                                       [T][kv_lora | n_rot]
//   k_pe = rope(c[kv_lora:]),  kv = rms_norm(c[:kv_lora]; kv_a_norm)
//   kvb  = Wkv_b kv                                       [T][H][d_nope | dv]
//   K_h  = [kvb_h[:d_nope] | k_pe],  V_h = kvb_h[d_nope:],  q_h = [q_nope_h | rope(q_pe_h)]
//   y    = Wo attention(q, K, V)    (H KV heads of d_nope + n_rot, values dv; 1/sqrt(d_nope + n_rot))
//
// RoPE (NeoX pairs) covers the trailing n_rot dims of each q head (the reference's
// ggml_rope_set_offset(q, d_nope)) and the shared k_pe, which every head's K repeats.
// Around the blocks, the reference's fixed scales: embedding x 12, each residual branch x
// 1.4 / sqrt(n_layer), the normed output rows x 256 / D before the head (here: logits / (D/256)).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/forward_impl.h"
#include "model/mla.h"

void minicpm3_read_hparams(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    hp->mla_q_lora = hp_int(ld, "attention.q_lora_rank", NAN);
    hp->mla_kv_lora = hp_int(ld, "attention.kv_lora_rank", NAN);
    if (ld->st) return;
    if (hp->mla_q_lora <= 0 || hp->mla_kv_lora <= 0 || hp->n_rot <= 0 || hp->n_rot % 2 || hp->n_rot > hp->head_dim ||
        hp->head_dim > 1024 || hp->head_dim_v <= 0 || hp->head_dim_v > 1024) {
        ld_fail(ld, FRINK_ERR_FORMAT, "MiniCPM3 latent attention dims are inconsistent (q rank %d, kv rank %d, rot %d, k %d, v %d)",
                hp->mla_q_lora, hp->mla_kv_lora, hp->n_rot, hp->head_dim, hp->head_dim_v);
        return;
    }
    // The reference's graph fixes these (n_embd_base 256, scale_emb 12, scale_depth 1.4) and
    // reads no key for them.
    hp->f_emb_scale = 12.0f;
    hp->f_residual_scale = 1.4f / sqrtf((float)hp->n_layer);
    hp->f_logit_scale = (float)hp->n_embd / 256.0f;
}

void minicpm3_bind(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    int D = hp->n_embd, H = L->n_head, r = hp->n_rot, dk = hp->head_dim, dv = hp->head_dim_v;
    int ql = hp->mla_q_lora, kvl = hp->mla_kv_lora;
    if (H <= 0 || H > 1024) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: head count %d is out of range", il, H);
        return;
    }
    feat_set(&L->feat, LF_ATTN);
    feat_set(&L->feat, LF_MLA_MHA);
    L->kv_lora = kvl;
    L->d_nope = dk - r;
    L->dv_mla = dv;
    snprintf(b, sizeof b, "blk.%d.attn_q_a", il);
    L->wq_a = mat_take_b(ld, b, D, ql, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_q_a_norm.weight", il);
    L->q_a_norm = vec_take(ld, b, ql, true);
    snprintf(b, sizeof b, "blk.%d.attn_q_b", il);
    L->wq_b = mat_take_b(ld, b, ql, (int64_t)H * dk, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_kv_a_mqa", il);
    L->wkv_a = mat_take_b(ld, b, D, kvl + r, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_kv_a_norm.weight", il);
    L->kv_a_norm = vec_take(ld, b, kvl, true);
    snprintf(b, sizeof b, "blk.%d.attn_kv_b", il);
    L->wkv_b = mat_take_b(ld, b, kvl, (int64_t)H * (L->d_nope + dv), 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, (int64_t)H * dv, D, 0, true, true, false);
    // The cache and the kernel see plain attention: H KV heads of dk, values dv.
    L->n_head_kv = H;
    L->head_dim = dk;
    L->head_dim_v = dv;
    L->kq_scale = 1.0f / sqrtf((float)dk);
    int w = H * dk > H * (L->d_nope + dv) ? H * dk : H * (L->d_nope + dv);
    w = w > ql ? w : ql;
    w = w > kvl + r ? w : kvl + r;
    L->scratch_w = w;
}

void mla_mha_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, r = L->n_rot, kvl = L->kv_lora, dn = L->d_nope, dk = L->head_dim, dv = L->head_dim_v;
    int64_t ld = ex->ldh;
    float *qb = ex->hb;  // [T][ld]: q_a, then K rows [H][dk]
    float *q = ex->hb2;  // [T][ld]: q [H][dk]
    float *cb = ex->hb3; // [T][ld]: [kv | k_pe], then V rows [H][dv]
    float *kv = ex->hb4; // [T][ld]: Wkv_b kv [H][dn + dv], then the attention output [H*dv]
    float eps = m->hp.norm_eps;
    exec_mm(ex, &L->wq_a, 0, xn, D, T, qb, ld);
    for (int t = 0; t < T; t++) exec_rms_norm(qb + (size_t)t * ld, qb + (size_t)t * ld, L->q_a_norm, (int)L->wq_a.n_out, eps);
    exec_mm(ex, &L->wkv_a, 0, xn, D, T, cb, ld);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wq_b, 0, qb, ld, T, q, ld);
    for (int t = 0; t < T; t++) exec_rms_norm(cb + (size_t)t * ld, cb + (size_t)t * ld, L->kv_a_norm, kvl, eps);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wkv_b, 0, cb, ld, T, kv, ld);
    for (int t = 0; t < T; t++) {
        struct seq *s = ex->run[ex->tok_run[t]].s;
        int pos = ex->pos[t];
        float *qt = q + (size_t)t * ld, *c = cb + (size_t)t * ld, *kt = qb + (size_t)t * ld;
        const float *kvt = kv + (size_t)t * ld;
        attn_rope(m, L, c + kvl, pos);
        for (int h = 0; h < H; h++) {
            attn_rope(m, L, qt + (size_t)h * dk + dn, pos);
            memcpy(kt + (size_t)h * dk, kvt + (size_t)h * (dn + dv), (size_t)dn * sizeof(float));
            memcpy(kt + (size_t)h * dk + dn, c + kvl, (size_t)r * sizeof(float));
        }
        seq_kv_store_row(s, il, KV_K, pos, kt);
        // (c is free once k_pe is copied: V rows [H][dv] go there)
        for (int h = 0; h < H; h++) memcpy(c + (size_t)h * dv, kvt + (size_t)h * (dn + dv) + dn, (size_t)dv * sizeof(float));
        seq_kv_store_row(s, il, KV_V, pos, c);
    }
    float *att = kv; // [T][H*dv]: the K/V rows are cached
    attn_attend(ex, L, q, ld, il, T, att);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wo, 0, att, (int64_t)H * dv, T, y, D);
}
