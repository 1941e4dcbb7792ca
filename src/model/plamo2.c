// plamo2.c — PLaMo-2's layers (host path for its Mamba; the binders of both kinds).
//
// Mamba layers (n_head_kv 0), nh heads of width hd = di / nh:
//   zx    = W_in xn                        [T][nh][2*hd]   per head z_h | x_h
//   x     = silu(conv1d(x))                causal depthwise over the di channels, no bias
//   bcd   = W_x x                          [T][2*ds + dt_dim]   B | C | dt
//   B, C, dt = rms_norm(.; their weights)
//   dt    = W_dt dt + dt_b                 [T][nh]
//   per channel c of head h: sp = softplus(dt_h), dA = exp(sp A_h);
//     s_ci = s_ci dA + B_i (x_c sp); y_c = sum_i s_ci C_i
//   y     = (y + x * D_h) * silu(z)
//   out   = W_out y
// Attention layers: fused W_qkv, q/k RMSNorm with a weight row per head, NEOX RoPE, W_o.
// Both kinds: the mixer output through post_attention_norm before the residual, the FFN's
// through post_ffw_norm.
//
// State per sequence and layer: the conv window [di][Kc-1] and s [di][ds] (the reference's
// layouts). The scan is the reference's Mamba-2 form (a scalar decay per head) computed in its
// scalar order (the reference's vector sums group the states in lanes: agreement to rounding).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/convmix.h"
#include "model/forward_impl.h"
#include "quant/quant.h"

static float p2_softplus(float x) { return x > 20.0f ? x : logf(1.0f + expf(x)); }

void bind_plamo2_post_norms(struct loader *ld, struct layer *L, int il) {
    const int D = ld->m->hp.n_embd;
    char b[64];
    snprintf(b, sizeof b, "blk.%d.post_attention_norm", il);
    L->post_attn_norm = vec_take(ld, b, D, true);
    snprintf(b, sizeof b, "blk.%d.post_ffw_norm", il);
    L->post_ffn_norm = vec_take(ld, b, D, true);
    feat_set(&L->feat, LF_POST_ATTN_NORM);
    feat_set(&L->feat, LF_POST_FFN_NORM);
}

void bind_plamo2_attention(struct loader *ld, struct layer *L, int il) {
    const int D = ld->m->hp.n_embd, H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    if (H <= 0 || Hkv <= 0 || H % Hkv || d <= 0 || d > 1024 || dv <= 0 || dv > 1024 || L->n_rot > d || L->n_rot % 2) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: attention dims are inconsistent (heads %d, kv heads %d, head dim %d)", il, H, Hkv, d);
        return;
    }
    char b[64];
    feat_set(&L->feat, LF_ATTN);
    feat_set(&L->feat, LF_FUSED_QKV);
    feat_set(&L->feat, LF_QK_NORM);
    feat_set(&L->feat, LF_QK_NORM_PER_HEAD);
    // The reference multiplies by attn_output.scale only; attn_qkv has neither scale nor bias.
    snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
    L->wqkv = mat_take_b(ld, b, D, (int64_t)H * d + (int64_t)Hkv * d + (int64_t)Hkv * dv, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, (int64_t)H * dv, D, 0, true, true, false);
    snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
    L->q_norm = vec_take(ld, b, (int64_t)H * d, true);
    snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
    L->k_norm = vec_take(ld, b, (int64_t)Hkv * d, true);
    L->kq_scale = 1.0f / sqrtf((float)dv);
}

void bind_plamo2_mamba(struct loader *ld, struct layer *L, int il) {
    const int D = ld->m->hp.n_embd;
    const int di = hp_int(ld, "ssm.inner_size", NAN), ds = hp_int(ld, "ssm.state_size", NAN);
    const int nh = hp_int(ld, "ssm.time_step_rank", NAN), Kc = hp_int(ld, "ssm.conv_kernel", NAN);
    const int ng = hp_int(ld, "ssm.group_count", 0);
    const int dtd = D / 16 > 64 ? D / 16 : 64; // the reference's dt width
    if (ld->st) return;
    if (ng != 0) {
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.ssm.group_count' = %d: PLaMo-2 Mamba with B/C groups is not implemented", ld->arch, ng);
        return;
    }
    if (di < 1 || ds < 1 || nh < 1 || di % nh || Kc < 2 || Kc > 16 || di > 1 << 16 || ds > 1024) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: PLaMo-2 Mamba dims are inconsistent (inner %d, state %d, heads %d, conv %d)", il, di, ds, nh, Kc);
        return;
    }
    char b[64];
    feat_set(&L->feat, LF_PLAMO2_MAMBA);
    L->mb_inner = di, L->mb_state = ds, L->mb_dt_rank = dtd, L->mb_kc = Kc, L->mb_heads = nh;
    // No scale or bias on these in the reference (a .scale in the file stays unread).
    snprintf(b, sizeof b, "blk.%d.ssm_in", il);
    L->mb_in = mat_take_b(ld, b, D, 2 * di, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_x", il);
    L->mb_x = mat_take_b(ld, b, di, 2 * ds + dtd, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_dt", il);
    L->mb_dt = mat_take_b(ld, b, dtd, nh, 0, true, false, true);
    if (!ld->st && !L->mb_dt.bias) ld_fail(ld, FRINK_ERR_FORMAT, "required tensor 'blk.%d.ssm_dt.bias' is missing", il);
    snprintf(b, sizeof b, "blk.%d.ssm_out", il);
    L->mb_out = mat_take_b(ld, b, di, D, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.weight", il);
    L->mb_conv = vec_take(ld, b, (int64_t)Kc * di, true);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->mb_a = vec_take(ld, b, nh, true);
    snprintf(b, sizeof b, "blk.%d.ssm_d", il);
    L->mb_d = vec_take(ld, b, nh, true);
    snprintf(b, sizeof b, "blk.%d.ssm_dt_norm", il);
    L->mb_dt_norm = vec_take(ld, b, dtd, true);
    snprintf(b, sizeof b, "blk.%d.ssm_b_norm", il);
    L->mb_b_norm = vec_take(ld, b, ds, true);
    snprintf(b, sizeof b, "blk.%d.ssm_c_norm", il);
    L->mb_c_norm = vec_take(ld, b, ds, true);
    L->rec_conv_floats = (int64_t)di * (Kc - 1);
    L->rec_ssm_floats = (int64_t)di * ds;
    const int w = 2 * ds + dtd > di + nh ? 2 * ds + dtd : di + nh;
    L->scratch_w = 2 * di > w ? 2 * di : w;
}

// ---- conv1d + SiLU and the scan, parallel over channels ---------------------------------

struct p2_job {
    const struct layer *L;
    const struct exec_run *run;
    int n_run, il;
    float *x;           // [T][ld] x, rewritten in place to silu(conv(x))
    const float *bcd;   // [T][ld] B | C | dt (normed)
    float *yd;          // [T][ld] y (di) | dt after W_dt (nh)
    int64_t ld;
    enum quant_isa_id isa;
};

// Channels [c0, c1) of run r: out(t, c) = silu(sum_i raw(t - Kc + 1 + i, c) w[c][i])
// (exec_causal_conv, no bias).
static void p2_conv_run(const struct p2_job *j, int r, int64_t c0, int64_t c1) {
    const struct layer *L = j->L;
    exec_causal_conv(j->isa, j->x + (size_t)j->run[r].t0 * j->ld, j->ld, j->run[r].n, j->run[r].s->conv[j->il], L->mb_conv + c0 * L->mb_kc,
                     NULL, L->mb_kc, c0, c1, true);
}

static void p2_conv_task(void *p, int ith, int nth) {
    struct p2_job *j = p;
    int64_t c0, c1;
    pool_range(j->L->mb_inner, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) p2_conv_run(j, r, c0, c1);
}

// Channels [c0, c1) of run r, tokens in order: y_c = scan + x_c D_h (the SiLU gate follows,
// row by row, in plamo2_mamba_layer).
static void p2_scan_run(const struct p2_job *j, int r, int64_t c0, int64_t c1) {
    const struct layer *L = j->L;
    const int di = L->mb_inner, ds = L->mb_state, hd = di / L->mb_heads, T = j->run[r].n;
    const size_t t0 = (size_t)j->run[r].t0;
    float *S = j->run[r].s->ssm[j->il];
    for (int t = 0; t < T; t++) {
        const float *x = j->x + (t0 + t) * j->ld;
        const float *B = j->bcd + (t0 + t) * j->ld, *C = B + ds;
        float *y = j->yd + (t0 + t) * j->ld;
        const float *dt = y + di;
        for (int64_t c = c0; c < c1; c++) {
            const int h = (int)(c / hd);
            const float sp = p2_softplus(dt[h]), dA = expf(sp * L->mb_a[h]), x_dt = x[c] * sp;
            float *s = S + (size_t)c * ds;
            float sum = 0.0f;
            for (int i = 0; i < ds; i++) {
                const float st = s[i] * dA + B[i] * x_dt;
                sum += st * C[i];
                s[i] = st;
            }
            y[c] = sum + x[c] * L->mb_d[h];
        }
    }
}

static void p2_scan_task(void *p, int ith, int nth) {
    struct p2_job *j = p;
    int64_t c0, c1;
    pool_range(j->L->mb_inner, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) p2_scan_run(j, r, c0, c1);
}

void plamo2_mamba_layer(struct exec *ex, int il, const float *xn, int T, float *out) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    const int D = m->hp.n_embd, di = L->mb_inner, ds = L->mb_state, dtd = L->mb_dt_rank, nh = L->mb_heads;
    const int hd = di / nh;
    const int64_t ld = ex->ldh;
    const float eps = m->hp.norm_eps;
    float *x = ex->hb;    // [T][ld]: x (di)
    float *zx = ex->hb2;  // [T][ld]: the in-projection, then z compacted to [di]
    float *bcd = ex->hb3; // [T][ld]: B | C | dt
    float *yd = ex->hb4;  // [T][ld]: y (di) | dt (nh)
    exec_mm(ex, &L->mb_in, 0, xn, D, T, zx, ld);
    for (int t = 0; t < T; t++) {
        float *row = zx + (size_t)t * ld;
        for (int h = 0; h < nh; h++) memcpy(x + (size_t)t * ld + (size_t)h * hd, row + (size_t)h * 2 * hd + hd, (size_t)hd * sizeof(float));
        for (int h = 1; h < nh; h++) memmove(row + (size_t)h * hd, row + (size_t)h * 2 * hd, (size_t)hd * sizeof(float));
    }
    struct p2_job j = {L, ex->run, ex->n_run, il, x, bcd, yd, ld, ex->isa};
    pool_run_sized(ex->pool, p2_conv_task, &j, (int64_t)di * L->mb_kc * T);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_x, 0, x, ld, T, bcd, ld);
    for (int t = 0; t < T; t++) {
        float *row = bcd + (size_t)t * ld;
        exec_rms_norm(row, row, L->mb_b_norm, ds, eps);
        exec_rms_norm(row + ds, row + ds, L->mb_c_norm, ds, eps);
        exec_rms_norm(row + 2 * ds, row + 2 * ds, L->mb_dt_norm, dtd, eps);
    }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_dt, 0, bcd + 2 * ds, ld, T, yd + di, ld);
    pool_run_sized(ex->pool, p2_scan_task, &j, (int64_t)di * ds * 4 * T);
    // y *= silu(z), a whole row at a time (the reference's vector blocks of the row)
    for (int t = 0; t < T; t++) {
        float *y = yd + (size_t)t * ld;
        quant_silu_mul(ex->isa, y, zx + (size_t)t * ld, y, di);
    }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_out, 0, yd, ld, T, out, D);
}
