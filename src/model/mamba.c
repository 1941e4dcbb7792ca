// mamba.c — the Mamba-1 mixer (host path), for mamba and the Mamba layers of jamba.
//
//   xz    = W_in xn (* scale)              [T][2*di]   x | z
//   x     = silu(conv1d(x) + conv_b)       causal depthwise, kernel Kc, per channel
//   dbc   = W_x x                          [T][r + 2*ds]   dt | B | C
//   (jamba: dt, B, C each RMS-normed with their own weights)
//   dt    = W_dt dt + dt_b                 [T][di]
//   per channel h, per state i (A [di][ds], the file's -exp(A_log)):
//     sp = softplus(dt_h); s_hi = s_hi exp(sp A_hi) + B_i (x_h sp); y_h = sum_i s_hi C_i
//   y     = (y + x * D) * silu(z)
//   out   = W_out y (* scale)
//
// State per sequence and layer: the conv window [di][Kc-1] (raw inputs, oldest first) and
// s [di][ds], both in the reference's layouts. Every sum runs in the order of the reference's
// CPU kernels (ggml_compute_forward_ssm_conv_f32 / ssm_scan_f32): the conv's products over the
// window in kernel order, the scan's over the states in index order, each state rounded before
// its product with C. The scan is a token recurrence (as the reference's): prefill and decode
// compute the same bits. (The Mamba-2 mixer of the ssm group shares the scan's shape; the two
// are kept apart for now.)
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/convmix.h"
#include "model/forward_impl.h"
#include "quant/quant.h"

// The reference's softplus (ggml_compute_softplus_f32).
static float mb_softplus(float x) { return x > 20.0f ? x : logf(1.0f + expf(x)); }

void bind_mamba(struct loader *ld, struct layer *L, int il) {
    const int D = ld->m->hp.n_embd;
    const int di = hp_int(ld, "ssm.inner_size", NAN), ds = hp_int(ld, "ssm.state_size", NAN);
    const int r = hp_int(ld, "ssm.time_step_rank", NAN), Kc = hp_int(ld, "ssm.conv_kernel", NAN);
    const bool dbc_rms = hp_int(ld, "ssm.dt_b_c_rms", 0) != 0;
    if (ld->st) return;
    if (di < 1 || ds < 1 || r < 1 || Kc < 2 || Kc > 16 || di > 1 << 16 || ds > 1024) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: Mamba dims are inconsistent (inner %d, state %d, dt rank %d, conv %d)", il, di, ds, r, Kc);
        return;
    }
    char b[64];
    feat_set(&L->feat, LF_MAMBA);
    L->mb_inner = di, L->mb_state = ds, L->mb_dt_rank = r, L->mb_kc = Kc;
    // The reference applies ssm_in.scale and ssm_out.scale; no bias on these three.
    snprintf(b, sizeof b, "blk.%d.ssm_in", il);
    L->mb_in = mat_take_b(ld, b, D, 2 * di, 0, true, true, false);
    snprintf(b, sizeof b, "blk.%d.ssm_x", il);
    L->mb_x = mat_take_b(ld, b, di, r + 2 * ds, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ssm_dt", il);
    L->mb_dt = mat_take_b(ld, b, r, di, 0, true, false, true);
    if (!ld->st && !L->mb_dt.bias) ld_fail(ld, FRINK_ERR_FORMAT, "required tensor 'blk.%d.ssm_dt.bias' is missing", il);
    snprintf(b, sizeof b, "blk.%d.ssm_out", il);
    L->mb_out = mat_take_b(ld, b, di, D, 0, true, true, false);
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.weight", il);
    L->mb_conv = vec_take(ld, b, (int64_t)Kc * di, true);
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.bias", il);
    L->mb_conv_b = vec_take(ld, b, di, true);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->mb_a = vec_take(ld, b, (int64_t)ds * di, true);
    snprintf(b, sizeof b, "blk.%d.ssm_d", il);
    L->mb_d = vec_take(ld, b, di, true);
    // dt/B/C norms: the three weights together (jamba), or the metadata switch with no
    // weights (falcon-mamba), as the reference decides.
    char dn[80];
    snprintf(dn, sizeof dn, "blk.%d.ssm_dt_norm.weight", il);
    if (gguf_tensor_index(ld->f, dn) >= 0) {
        L->mb_dt_norm = vec_take(ld, dn, r, true);
        snprintf(b, sizeof b, "blk.%d.ssm_b_norm.weight", il);
        L->mb_b_norm = vec_take(ld, b, ds, true);
        snprintf(b, sizeof b, "blk.%d.ssm_c_norm.weight", il);
        L->mb_c_norm = vec_take(ld, b, ds, true);
        feat_set(&L->feat, LF_MAMBA_DBC_NORM);
    } else if (dbc_rms) {
        feat_set(&L->feat, LF_MAMBA_DBC_NORM);
    }
    L->rec_conv_floats = (int64_t)di * (Kc - 1);
    L->rec_ssm_floats = (int64_t)di * ds;
    L->scratch_w = 2 * di > r + 2 * ds ? 2 * di : r + 2 * ds;
}

// ---- conv1d + bias + SiLU, parallel over channels -------------------------------------

struct mb_conv_job {
    const struct layer *L;
    const struct exec_run *run;
    int n_run, il;
    float *xz;          // [T][ld]: x in columns [0, di), rewritten in place to silu(conv + b)
    int64_t ld;
    enum quant_isa_id isa;
};

// Channels [c0, c1) of run r: out(t, c) = silu(sum_i raw(t - Kc + 1 + i, c) w[c][i] + b[c])
// (exec_causal_conv).
static void mb_conv_run(const struct mb_conv_job *j, int r, int64_t c0, int64_t c1) {
    const struct layer *L = j->L;
    exec_causal_conv(j->isa, j->xz + (size_t)j->run[r].t0 * j->ld, j->ld, j->run[r].n, j->run[r].s->conv[j->il], L->mb_conv + c0 * L->mb_kc,
                     L->mb_conv_b + c0, L->mb_kc, c0, c1, true);
}

static void mb_conv_task(void *p, int ith, int nth) {
    struct mb_conv_job *j = p;
    int64_t c0, c1;
    pool_range(j->L->mb_inner, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) mb_conv_run(j, r, c0, c1);
}

// ---- the selective scan, parallel over channels ---------------------------------------------

struct mb_scan_job {
    const struct layer *L;
    const struct exec_run *run;
    int n_run, il;
    const float *xz;    // [T][ld]: x (after conv) | z
    const float *dbc;   // [T][ld]: dt | B | C (B, C read here)
    const float *dt;    // [T][ld]: dt after W_dt (before softplus)
    float *y;           // [T][ld]: (scan + x D) * silu(z)
    int64_t ld;
    enum quant_isa_id isa;
};

// Channels [c0, c1) over the tokens of run r in order, the state s [di][ds] updated in place
// (each state element is read before it is written, as the reference reads s0 and writes s).
static void mb_scan_run(const struct mb_scan_job *j, int r, int64_t c0, int64_t c1) {
    const struct layer *L = j->L;
    const int di = L->mb_inner, ds = L->mb_state, rk = L->mb_dt_rank, T = j->run[r].n;
    const size_t t0 = (size_t)j->run[r].t0;
    float *S = j->run[r].s->ssm[j->il];
    for (int t = 0; t < T; t++) {
        const float *x = j->xz + (t0 + t) * j->ld, *z = x + di;
        const float *B = j->dbc + (t0 + t) * j->ld + rk, *C = B + ds;
        const float *dt = j->dt + (t0 + t) * j->ld;
        float *y = j->y + (t0 + t) * j->ld;
        for (int64_t h = c0; h < c1; h++) {
            const float sp = mb_softplus(dt[h]), x_dt = x[h] * sp;
            float *s = S + (size_t)h * ds;
            const float *A = L->mb_a + (size_t)h * ds;
            float sum = 0.0f;
            for (int i = 0; i < ds; i++) {
                const float st = s[i] * expf(sp * A[i]) + B[i] * x_dt;
                sum += st * C[i];
                s[i] = st;
            }
            y[h] = sum + x[h] * L->mb_d[h];
        }
        // y *= silu(z) over this thread's channels (boundaries on multiples of 8, as the
        // reference's vector blocks of the whole row)
        quant_silu_mul(j->isa, y + c0, z + c0, y + c0, (int)(c1 - c0));
    }
}

static void mb_scan_task(void *p, int ith, int nth) {
    struct mb_scan_job *j = p;
    int64_t c0, c1;
    pool_range(j->L->mb_inner, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) mb_scan_run(j, r, c0, c1);
}

void mamba_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    const int D = m->hp.n_embd, di = L->mb_inner, ds = L->mb_state, rk = L->mb_dt_rank;
    const int64_t ld = ex->ldh;
    float *xz = ex->hb;   // [T][ld]: x | z
    float *dbc = ex->hb2; // [T][ld]: dt | B | C
    float *dt = ex->hb3;  // [T][ld]
    float *g = ex->hb4;   // [T][ld]: gated scan output
    exec_mm(ex, &L->mb_in, 0, xn, D, T, xz, ld);
    struct mb_conv_job cj = {L, ex->run, ex->n_run, il, xz, ld, ex->isa};
    pool_run_sized(ex->pool, mb_conv_task, &cj, (int64_t)di * L->mb_kc * T);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_x, 0, xz, ld, T, dbc, ld);
    if (feat_has(L->feat, LF_MAMBA_DBC_NORM))
        for (int t = 0; t < T; t++) {
            float *row = dbc + (size_t)t * ld;
            exec_rms_norm(row, row, L->mb_dt_norm, rk, m->hp.norm_eps);
            exec_rms_norm(row + rk, row + rk, L->mb_b_norm, ds, m->hp.norm_eps);
            exec_rms_norm(row + rk + ds, row + rk + ds, L->mb_c_norm, ds, m->hp.norm_eps);
        }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_dt, 0, dbc, ld, T, dt, ld);
    struct mb_scan_job sj = {L, ex->run, ex->n_run, il, xz, dbc, dt, g, ld, ex->isa};
    pool_run_sized(ex->pool, mb_scan_task, &sj, (int64_t)di * ds * 4 * T);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->mb_out, 0, g, ld, T, y, D);
}
