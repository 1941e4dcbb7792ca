// attn.c — softmax attention with a KV cache (host path).
//
//   q = Wq xn  (+ gate, interleaved per head, when LF_ATTN_GATE)   [T][H][d]
//   k = Wk xn, v = Wv xn                                           [T][Hkv][d]
//   q, k = rms_norm per head (LF_QK_NORM), then RoPE on the first n_rot dims
//   K, V appended to the cache as F16 (the reference's cache type)
//   o_h = softmax(q_h K^T / sqrt(d)) V       (causal; query head h uses kv head h / (H/Hkv))
//   o *= sigmoid(gate)                       (LF_ATTN_GATE)
//   y = Wo o
#include <math.h>
#include <string.h>

#include "model/forward_impl.h"
#include "quant/quant.h"

// Rotates the first n_rot dims of one head at position pos, as ggml's rope:
// theta advances by repeated multiplication with base^(-2/n_rot), so the
// float rounding matches the reference's kernel.
static void rope_head(float *v, int n_rot, int pos, float base, float freq_scale, float attn_factor,
                      const float *freq_factors, int mode) {
    const float theta_scale = powf(base, -2.0f / (float)n_rot);
    float theta = (float)pos;
    for (int i0 = 0; i0 < n_rot; i0 += 2) {
        float ff = freq_factors ? freq_factors[i0 / 2] : 1.0f;
        float th = freq_scale * (theta / ff);
        float c = cosf(th) * attn_factor, s = sinf(th) * attn_factor;
        int a, b;
        if (mode == ROPE_NEOX) {
            a = i0 / 2;
            b = i0 / 2 + n_rot / 2;
        } else {
            a = i0;
            b = i0 + 1;
        }
        float x0 = v[a], x1 = v[b];
        v[a] = x0 * c - x1 * s;
        v[b] = x0 * s + x1 * c;
        theta *= theta_scale;
    }
}

// q . k over F16 vectors, summed in the order of the reference's AVX2 kernel
// (4 accumulators of 8 lanes, fused multiply-add, pairwise reduction, tail in
// double). Matching the order matters: with quantized weights, a last-bit
// difference here can flip an activation's rounding downstream.
static float dot_f16(const uint16_t *x, const uint16_t *y, int n) {
    float acc[4][8] = {{0}};
    int np = n & ~31;
    for (int i = 0; i < np; i += 32)
        for (int a = 0; a < 4; a++)
            for (int l = 0; l < 8; l++)
                acc[a][l] = fmaf(fp16_to_fp32(x[i + a * 8 + l]), fp16_to_fp32(y[i + a * 8 + l]), acc[a][l]);
    for (int l = 0; l < 8; l++) {
        acc[0][l] += acc[2][l];
        acc[1][l] += acc[3][l];
    }
    for (int l = 0; l < 8; l++) acc[0][l] += acc[1][l];
    float t0[4], t1[2];
    for (int l = 0; l < 4; l++) t0[l] = acc[0][l] + acc[0][l + 4];
    t1[0] = t0[0] + t0[1];
    t1[1] = t0[2] + t0[3];
    double sum = t1[0] + t1[1];
    for (int i = np; i < n; i++) sum += (double)(fp16_to_fp32(x[i]) * fp16_to_fp32(y[i]));
    return (float)sum;
}

struct attn_job {
    const struct layer *L;
    const float *q;     // [T][H][d] (stride ldq per token)
    int64_t ldq;
    const uint16_t *K, *V;
    int p0, T;
    float *o;           // [T][H*dv]
    uint16_t *acc16;    // [nth][dv] F16 accumulators
};

static void attn_task(void *p, int ith, int nth) {
    struct attn_job *j = p;
    const struct layer *L = j->L;
    int H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    int group = H / Hkv;
    size_t kstride = (size_t)Hkv * d, vstride = (size_t)Hkv * dv;
    float scale = 1.0f / sqrtf((float)d);
    uint16_t qh[1024];
    int64_t w0, w1;
    pool_range((int64_t)j->T * H, ith, nth, 1, &w0, &w1);
    for (int64_t w = w0; w < w1; w++) {
        int t = (int)(w / H), h = (int)(w % H), kvh = h / group;
        int pos = j->p0 + t, n_kv = pos + 1;
        // The reference converts q to F16 for the K·q products.
        const float *qsrc = j->q + (size_t)t * j->ldq + (size_t)h * d;
        for (int i = 0; i < d; i++) qh[i] = fp32_to_fp16(qsrc[i]);
        // Online softmax with the V accumulator kept in F16, as the reference's
        // CPU flash-attention kernel does for an F16 cache: each step scales
        // and adds in float, then rounds the accumulator back to F16.
        float M = -INFINITY, S = 0;
        uint16_t *acc = j->acc16 + (size_t)ith * dv;
        for (int i = 0; i < dv; i++) acc[i] = 0;
        for (int c = 0; c < n_kv; c++) {
            const uint16_t *k = j->K + (size_t)c * kstride + (size_t)kvh * d;
            float s = dot_f16(k, qh, d) * scale;
            float ms = 1.0f, vs = 1.0f;
            if (s > M) {
                float Mold = M;
                M = s;
                ms = expf(Mold - M);
                for (int i = 0; i < dv; i++) acc[i] = fp32_to_fp16(fp16_to_fp32(acc[i]) * ms);
            } else {
                vs = expf(s - M);
            }
            const uint16_t *v = j->V + (size_t)c * vstride + (size_t)kvh * dv;
            for (int i = 0; i < dv; i++) acc[i] = fp32_to_fp16(fmaf(fp16_to_fp32(v[i]), vs, fp16_to_fp32(acc[i])));
            S = S * ms + vs;
        }
        float *o = j->o + (size_t)t * H * dv + (size_t)h * dv;
        float inv = S == 0.0f ? 0.0f : 1.0f / S;
        for (int i = 0; i < dv; i++) o[i] = fp16_to_fp32(acc[i]) * inv;
    }
}

void attn_layer(struct exec *ex, struct seq *s, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    bool gated = (L->feat & LF_ATTN_GATE) != 0;
    int qw = gated ? 2 * H * d : H * d;
    float *qg = ex->hb;   // [T][ldh]: q (or q|gate per head)
    float *kb = ex->hb2;  // [T][ldh]
    float *vb = ex->hb3;  // [T][ldh]
    float *ob = ex->hb4;  // [T][ldh]
    int64_t ld = ex->ldh;
    if (L->feat & LF_FUSED_QKV) {
        // One product, then split the row [q | k | v].
        mm(ex, &L->wqkv, 0, xn, D, T, ob, ld);
        for (int t = 0; t < T; t++) {
            const float *r = ob + (size_t)t * ld;
            memcpy(qg + (size_t)t * ld, r, (size_t)qw * sizeof(float));
            memcpy(kb + (size_t)t * ld, r + qw, (size_t)Hkv * d * sizeof(float));
            memcpy(vb + (size_t)t * ld, r + qw + Hkv * d, (size_t)Hkv * dv * sizeof(float));
        }
    } else {
        mm(ex, &L->wq, 0, xn, D, T, qg, ld);
        mm(ex, &L->wk, 0, xn, D, T, kb, ld);
        mm(ex, &L->wv, 0, xn, D, T, vb, ld);
    }
    int p0 = s->n_past;
    size_t kstride = (size_t)Hkv * d, vstride = (size_t)Hkv * dv;
    for (int t = 0; t < T; t++) {
        float *q = qg + (size_t)t * ld, *k = kb + (size_t)t * ld;
        if (gated) {
            // [q_h | gate_h] per head: move the gates to ob, compact q to [H][d].
            float *gate = ob + (size_t)t * ld;
            for (int h = 0; h < H; h++) memcpy(gate + (size_t)h * d, q + (size_t)h * 2 * d + d, (size_t)d * sizeof(float));
            for (int h = 1; h < H; h++) memmove(q + (size_t)h * d, q + (size_t)h * 2 * d, (size_t)d * sizeof(float));
        }
        for (int h = 0; h < H; h++) {
            if (L->q_norm) rms_norm(q + (size_t)h * d, q + (size_t)h * d, L->q_norm, d, m->hp.norm_eps);
            if (m->hp.rope_mode != ROPE_NONE)
                rope_head(q + (size_t)h * d, L->n_rot, p0 + t, L->rope_base, L->rope_scale, m->hp.rope_attn_factor, m->rope_freqs, m->hp.rope_mode);
        }
        for (int h = 0; h < Hkv; h++) {
            if (L->k_norm) rms_norm(k + (size_t)h * d, k + (size_t)h * d, L->k_norm, d, m->hp.norm_eps);
            if (m->hp.rope_mode != ROPE_NONE)
                rope_head(k + (size_t)h * d, L->n_rot, p0 + t, L->rope_base, L->rope_scale, m->hp.rope_attn_factor, m->rope_freqs, m->hp.rope_mode);
        }
        uint16_t *kc = s->k[il] + (size_t)(p0 + t) * kstride, *vc = s->v[il] + (size_t)(p0 + t) * vstride;
        for (size_t i = 0; i < kstride; i++) kc[i] = fp32_to_fp16(k[i]);
        for (size_t i = 0; i < vstride; i++) vc[i] = fp32_to_fp16(vb[(size_t)t * ld + i]);
    }
    float *att = gated ? kb : ob; // [T][H*dv]: kb is free once K is cached; ob once q/k/v are split
    struct attn_job j = {L, qg, ld, s->k[il], s->v[il], p0, T, att, ex->acc16};
    pool_run(ex->pool, attn_task, &j);
    if (gated) {
        for (int t = 0; t < T; t++) {
            float *o = att + (size_t)t * H * dv;
            const float *gate = ob + (size_t)t * ld;
            for (int i = 0; i < H * dv; i++) o[i] *= sigmoid(gate[i]);
        }
    }
    exec_act_invalidate(ex);
    mm(ex, &L->wo, 0, att, (int64_t)H * dv, T, y, D);
}
