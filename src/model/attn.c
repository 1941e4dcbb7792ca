// attn.c — softmax attention with a KV cache (host path).
//
//   q = Wq xn  (+ gate, interleaved per head, when LF_ATTN_GATE)   [T][H][d]
//   k = Wk xn, v = Wv xn                                           [T][Hkv][d]
//   q, k = rms_norm per head (LF_QK_NORM; one weight row per head with LF_QK_NORM_PER_HEAD), then
//   RoPE on the first n_rot dims
//   K, V appended to the cache in its type (F16, the reference's default; F32; Q8_0)
//   o_h = softmax(q_h K^T * scale (+ softcap, ALiBi, sliding window, sink)) V
//                                            (causal; query head h uses kv head h / (H/Hkv))
//   o *= sigmoid(gate)                       (LF_ATTN_GATE)
//   y = Wo o
// and multi-head latent attention (attn_mla_layer), which shares the kernel.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/forward_impl.h"
#include "quant/quant.h"

// RoPE parameters of one layer.
struct rope_p {
    int n_rot, mode;
    float base, freq_scale, attn_factor, ext_factor;
    float corr[2];          // YaRN ramp bounds (dims)
    const float *ff;        // frequency factors [n_rot/2] or NULL
};

static struct rope_p rope_params(const struct model *m, const struct layer *L) {
    const struct hparams *hp = &m->hp;
    struct rope_p r = {L->n_rot, hp->rope_mode, L->rope_base, L->rope_scale, hp->rope_attn_factor, hp->rope_ext_factor, {0, 0}, m->rope_freqs};
    if (feat_has(L->feat, LF_ROPE_PLAIN)) { // (laguna's sliding layers: no YaRN, no attention factor)
        r.attn_factor = 1.0f;
        r.ext_factor = 0.0f;
    }
    if (feat_has(L->feat, LF_ROPE_YARN)) {
        // ggml_rope_yarn_corr_dims with beta_fast 32, beta_slow 1.
        float n_ctx_orig = (float)hp->rope_n_ctx_orig;
        float lo = floorf(r.n_rot * logf(n_ctx_orig / (32.0f * 2 * (float)M_PI)) / (2 * logf(r.base)));
        float hi = ceilf(r.n_rot * logf(n_ctx_orig / (1.0f * 2 * (float)M_PI)) / (2 * logf(r.base)));
        r.corr[0] = lo > 0 ? lo : 0;
        r.corr[1] = hi < r.n_rot - 1 ? hi : (float)(r.n_rot - 1);
    }
    return r;
}

// Rotates the first n_rot dims of one head at position pos, as ggml's rope:
// theta advances by repeated multiplication with base^(-2/n_rot), so the
// float rounding matches the reference's kernel; YaRN mixes interpolated and
// extrapolated angles along the ramp and scales the magnitude.
static void rope_head(float *v, const struct rope_p *r, int pos) {
    int n_rot = r->n_rot;
    const float theta_scale = powf(r->base, -2.0f / (float)n_rot);
    float theta = (float)pos;
    for (int i0 = 0; i0 < n_rot; i0 += 2) {
        float ff = r->ff ? r->ff[i0 / 2] : 1.0f;
        float th_extrap = theta / ff, th = r->freq_scale * th_extrap, mscale = r->attn_factor;
        if (r->ext_factor != 0) {
            float dd = r->corr[1] - r->corr[0];
            float y = ((float)(i0 / 2) - r->corr[0]) / (dd > 0.001f ? dd : 0.001f);
            float ramp = 1 - (y < 0 ? 0 : y > 1 ? 1 : y);
            float mix = ramp * r->ext_factor;
            th = th * (1 - mix) + th_extrap * mix;
            mscale *= 1.0f + 0.1f * logf(1.0f / r->freq_scale);
        }
        float c = cosf(th) * mscale, s = sinf(th) * mscale;
        int a, b;
        if (r->mode == ROPE_NEOX) {
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

#define ATTN_MAX_GROUP 16
// Query tokens per tile on the tile path: each K/V row is read once for them all ...
#define ATTN_TILE_Q 8
// ... and at most this many floats of queries (and as many of accumulators) per tile, which
// keeps them in L1 beside the K/V rows: 8 tokens x 4 heads of 128 dims, 4 x 4 of 256.
#define ATTN_TILE_FLOATS 4096

// Attention of T rows of a step; row t extends sequence run[tok_run[t]].s at position pos[t]
// (its K/V row is already in that sequence's cache).
struct attn_job {
    const struct layer *L;
    const float *q;     // [T][H][d] (stride ldq per token)
    int64_t ldq;
    int T;
    const struct exec_run *run;
    int n_run;
    const int *tok_run, *pos;
    float *o;           // [T][H*dv]
    uint16_t *acc16;    // [nth][ATTN_MAX_GROUP][1024] F16 accumulators
    float *accf;        // [nth][ATTN_MAX_GROUP][1024] F32 accumulators
    int il;
    float softcap, alibi_max_bias;
    // The F16 tile path (attn_tile_task): tiles of nq tokens x hpi query heads.
    int nq, hpi;
    int64_t work; // of all tiles (tile_items)
    enum quant_isa_id isa; // the executor's kernel set
};

// The first cell a query at position pos sees: 0, or the start of its sliding window, or of its
// chunk (LF_ATTN_CHUNKED: cells of earlier chunks are masked, as the reference's chunked SWA).
static int first_cell(const struct layer *L, int pos) {
    // (a symmetric window, the encoders': half of it on each side, as the reference's n_swa / 2)
    int back = feat_has(L->feat, LF_SWA_SYMMETRIC) ? L->swa_window / 2 : L->swa_window - 1;
    int c0 = feat_has(L->feat, LF_SWA) && pos - back > 0 ? pos - back : 0;
    if (feat_has(L->feat, LF_ATTN_CHUNKED)) {
        int cs = pos / L->attn_chunk * L->attn_chunk;
        c0 = cs > c0 ? cs : c0;
    }
    return c0;
}

// One past the last cell a query sees: its own position (causal), or, non-causal (encoders),
// every cell its sequence holds once this step is stored: later tokens of the input too (up to
// half a symmetric window past the query).
static int end_cell(const struct attn_job *j, int t) {
    if (feat_has(j->L->feat, LF_NON_CAUSAL)) {
        const struct exec_run *r = &j->run[j->tok_run[t]];
        int end = r->p0 + r->n, fwd = j->pos[t] + j->L->swa_window / 2 + 1;
        return feat_has(j->L->feat, LF_SWA_SYMMETRIC) && fwd < end ? fwd : end;
    }
    return j->pos[t] + 1;
}

// ALiBi slope of head h of H (max bias B): m0^(h+1) below the largest power of
// two n2 <= H, then odd powers of m1.
static float alibi_slope(int h, int H, float B) {
    int n2 = 1;
    while (n2 * 2 <= H) n2 *= 2;
    float m0 = powf(2.0f, -B / n2), m1 = powf(2.0f, -B / 2.0f / n2);
    return h < n2 ? powf(m0, (float)(h + 1)) : powf(m1, (float)(2 * (h - n2) + 1));
}

// One query row per work item, as the reference's CPU flash-attention kernel
// computes it: q rounded to F16, scores scaled (and softcapped), the ALiBi
// bias added, cells outside a sliding window skipped, an online softmax with
// the V accumulator in F16, the sink joining the denominator at the end.
// Attention of query token t for the query heads [h0, h0 + nh), which share one
// KV head: each cached row is read once for all of them (the cells are the
// outer loop), so a long cache is streamed once per KV head, not once per
// query head. Per head the arithmetic is exactly the one-head order.
static void attend(const struct attn_job *j, int ith, int t, int h0, int nh) {
    const struct layer *L = j->L;
    int H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    int kvh = h0 / (H / Hkv);
    size_t kstride = (size_t)Hkv * d, vstride = (size_t)Hkv * dv;
    float scale = feat_has(L->feat, LF_Q_PRESCALE) ? 1.0f : L->kq_scale;
    float softcap = feat_has(L->feat, LF_ATTN_SOFTCAP) ? j->softcap : 0.0f;
    if (feat_has(L->feat, LF_ATTN_SOFTCAP)) scale /= softcap;
    const struct seq *sq = j->run[j->tok_run[t]].s;
    const uint16_t *K = (const uint16_t *)sq->k[j->il], *V = (const uint16_t *)sq->v[j->il]; // F16: rows in place
    int pos = j->pos[t], n_kv = end_cell(j, t);
    int c0 = first_cell(L, pos);
    bool f16 = sq->kv_type == KV_F16;
    struct quant_f16_ops f16ops;
    quant_f16_get_ops(j->isa, &f16ops);
    // Per head: q (F16 for the K.q products, as the reference converts it), the
    // running max and sum, and the V accumulator (F16 as the reference keeps it;
    // F32 for F32 / Q8_0 caches, whose rows are decoded to float).
    uint16_t qh[ATTN_MAX_GROUP][1024];
    float M[ATTN_MAX_GROUP], S[ATTN_MAX_GROUP], slope[ATTN_MAX_GROUP];
    uint16_t *acc = j->acc16 + (size_t)ith * ATTN_MAX_GROUP * 1024;
    float kf[1024], vf[1024];
    float *accf = j->accf + (size_t)ith * ATTN_MAX_GROUP * 1024;
    for (int g = 0; g < nh; g++) {
        const float *qsrc = j->q + (size_t)t * j->ldq + (size_t)(h0 + g) * d;
        for (int i = 0; i < d; i++) qh[g][i] = fp32_to_fp16(qsrc[i]);
        M[g] = -INFINITY;
        S[g] = 0;
        slope[g] = feat_has(L->feat, LF_ALIBI) ? alibi_slope(h0 + g, H, j->alibi_max_bias) : 0.0f;
        for (int i = 0; i < dv; i++) acc[g * 1024 + i] = 0;
        if (!f16) for (int i = 0; i < dv; i++) accf[g * 1024 + i] = 0;
    }
    for (int c = c0; c < n_kv; c++) {
        const uint16_t *k = NULL, *v = NULL;
        if (f16) {
            k = K + (size_t)c * kstride + (size_t)kvh * d;
            v = V + (size_t)c * vstride + (size_t)kvh * dv;
        } else {
            seq_kv_load_row(sq, j->il, KV_K, c, kvh * d, d, kf);
            seq_kv_load_row(sq, j->il, KV_V, c, kvh * dv, dv, vf);
        }
        for (int g = 0; g < nh; g++) {
            float s;
            if (f16) {
                s = f16ops.dot(k, qh[g], d) * scale;
            } else {
                const float *qsrc = j->q + (size_t)t * j->ldq + (size_t)(h0 + g) * d;
                s = 0;
                for (int i = 0; i < d; i++) s += kf[i] * qsrc[i];
                s *= scale;
            }
            if (feat_has(L->feat, LF_ATTN_SOFTCAP)) s = softcap * tanhf(s);
            // The mask holds -|i - j| as F16; the kernel multiplies it by the slope. (Causal, that is
            // c - pos; an encoder's later cells are as far as its earlier ones.)
            if (feat_has(L->feat, LF_ALIBI)) s += slope[g] * fp16_to_fp32(fp32_to_fp16(-(float)abs(c - pos)));
            float ms = 1.0f, vs = 1.0f;
            if (s > M[g]) {
                float Mold = M[g];
                M[g] = s;
                ms = quant_expf(Mold - s);
                if (f16) f16ops.scale(acc + g * 1024, ms, dv);
                else for (int i = 0; i < dv; i++) accf[g * 1024 + i] *= ms;
            } else {
                vs = quant_expf(s - M[g]);
            }
            if (f16) f16ops.mad(acc + g * 1024, v, vs, dv);
            else for (int i = 0; i < dv; i++) accf[g * 1024 + i] = fmaf(vf[i], vs, accf[g * 1024 + i]);
            S[g] = S[g] * ms + vs;
        }
    }
    for (int g = 0; g < nh; g++) {
        int h = h0 + g;
        if (feat_has(L->feat, LF_ATTN_SINKS)) {
            // gpt-oss: the sink logit joins the denominator only.
            float sk = L->attn_sinks[h], ms = 1.0f, vs = 1.0f;
            if (sk > M[g]) {
                ms = quant_expf(M[g] - sk);
                if (f16) f16ops.scale(acc + g * 1024, ms, dv);
                else for (int i = 0; i < dv; i++) accf[g * 1024 + i] *= ms;
            } else {
                vs = quant_expf(sk - M[g]);
            }
            S[g] = S[g] * ms + vs;
        }
        float *o = j->o + (size_t)t * H * dv + (size_t)h * dv;
        float inv = S[g] == 0.0f ? 0.0f : 1.0f / S[g];
        for (int i = 0; i < dv; i++) o[i] = (f16 ? fp16_to_fp32(acc[g * 1024 + i]) : accf[g * 1024 + i]) * inv;
    }
}

// Cells of query token t: [lo, hi), causal (unless non-causal), within the sliding window.
static void query_cells(const struct attn_job *j, int t, int *lo, int *hi) {
    const struct layer *L = j->L;
    int pos = j->pos[t];
    *lo = first_cell(L, pos);
    *hi = end_cell(j, t);
}

// Attention of the tokens [t0, t0 + nq) of one sequence for the query heads [h0, h0 + nh), which
// share one KV head, through quant_attn_f16_tile (each K/V row read once for the whole tile);
// then the sink and the normalization, as attend's.
static void attend_tile(const struct attn_job *j, int ith, int t0, int nq, int h0, int nh) {
    const struct layer *L = j->L;
    int H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    int kvh = h0 / (H / Hkv);
    float scale = feat_has(L->feat, LF_Q_PRESCALE) ? 1.0f : L->kq_scale;
    float softcap = feat_has(L->feat, LF_ATTN_SOFTCAP) ? j->softcap : 0.0f;
    if (feat_has(L->feat, LF_ATTN_SOFTCAP)) scale /= softcap;
    const struct seq *sq = j->run[j->tok_run[t0]].s;
    uint16_t q16[QUANT_ATTN_TILE_FLOATS];
    int lo[QUANT_ATTN_TILE_STATES], hi[QUANT_ATTN_TILE_STATES];
    float M[QUANT_ATTN_TILE_STATES], S[QUANT_ATTN_TILE_STATES];
    for (int qi = 0; qi < nq; qi++) {
        query_cells(j, t0 + qi, &lo[qi], &hi[qi]);
        for (int g = 0; g < nh; g++) {
            const float *qsrc = j->q + (size_t)(t0 + qi) * j->ldq + (size_t)(h0 + g) * d;
            uint16_t *qd = q16 + (size_t)(qi * nh + g) * d;
            for (int i = 0; i < d; i++) qd[i] = fp32_to_fp16(qsrc[i]);
        }
    }
    float *acc = j->accf + (size_t)ith * ATTN_MAX_GROUP * 1024;
    struct quant_attn_tile tt = {(const uint16_t *)sq->k[j->il] + (size_t)kvh * d, (const uint16_t *)sq->v[j->il] + (size_t)kvh * dv,
                                 (size_t)Hkv * d, (size_t)Hkv * dv, d, dv, nq, nh, q16, lo, hi, scale, softcap, M, S, acc};
    quant_attn_f16_tile(j->isa, &tt);
    for (int qi = 0; qi < nq; qi++) {
        for (int g = 0; g < nh; g++) {
            int st = qi * nh + g, h = h0 + g;
            float *a = acc + (size_t)st * dv;
            if (feat_has(L->feat, LF_ATTN_SINKS)) {
                float sk = L->attn_sinks[h], ms = 1.0f, vs = 1.0f;
                if (sk > M[st]) {
                    ms = quant_expf(M[st] - sk);
                    for (int i = 0; i < dv; i++) a[i] = fp16_to_fp32(fp32_to_fp16(a[i] * ms));
                } else {
                    vs = quant_expf(sk - M[st]);
                }
                S[st] = S[st] * ms + vs;
            }
            float *o = j->o + (size_t)(t0 + qi) * H * dv + (size_t)h * dv;
            float inv = S[st] == 0.0f ? 0.0f : 1.0f / S[st];
            for (int i = 0; i < dv; i++) o[i] = a[i] * inv;
        }
    }
}

// The tile path's work items: per run of the step, tiles of nq consecutive tokens, each with
// Hkv * (group / hpi) parts of hpi query heads, costed as (query, cell) pairs times heads.
// Thread ith of nth runs its share; nth 0 runs none. Returns the total cost.
static int64_t tile_items(const struct attn_job *j, int ith, int nth, int64_t total) {
    const struct layer *L = j->L;
    int H = L->n_head, n_part = H / j->hpi;
    int64_t cum = 0;
    for (int r = 0; r < j->n_run; r++) {
        for (int a = 0; a < j->run[r].n; a += j->nq) {
            int t0 = j->run[r].t0 + a, nq = j->run[r].n - a < j->nq ? j->run[r].n - a : j->nq;
            int64_t cells = 0;
            for (int qi = 0; qi < nq; qi++) {
                int lo, hi;
                query_cells(j, t0 + qi, &lo, &hi);
                cells += hi - lo;
            }
            int64_t cost = cells * j->hpi;
            for (int p = 0; p < n_part; p++, cum += cost) {
                // Contiguous shares of equal work: the causal triangle makes later tiles dearer,
                // so equal counts of items would not balance.
                if (nth > 0 && (cum + cost / 2) * nth / (total > 0 ? total : 1) == ith)
                    attend_tile(j, ith, t0, nq, p * j->hpi, j->hpi);
            }
        }
    }
    return cum;
}

static void attn_tile_task(void *p, int ith, int nth) {
    struct attn_job *j = p;
    tile_items(j, ith, nth, j->work);
}

// Work items are (token, KV head) pairs when there are enough of them for the
// threads, else (token, query head) pairs.
static void attn_task(void *p, int ith, int nth) {
    struct attn_job *j = p;
    const struct layer *L = j->L;
    int H = L->n_head, Hkv = L->n_head_kv, group = H / Hkv;
    bool by_kv = group <= ATTN_MAX_GROUP && (int64_t)j->T * Hkv >= nth;
    // Round-robin: a causal token's work grows with its position, so
    // contiguous ranges would leave the first thread idle half the time.
    int64_t n_items = (int64_t)j->T * (by_kv ? Hkv : H);
    for (int64_t w = ith; w < n_items; w += nth) {
        if (by_kv) {
            int t = (int)(w / Hkv), kvh = (int)(w % Hkv);
            attend(j, ith, t, kvh * group, group);
        } else {
            int t = (int)(w / H), h = (int)(w % H);
            attend(j, ith, t, h, 1);
        }
    }
}

static void attn_run(struct exec *ex, const struct layer *L, const float *q, int64_t ldq, int il, int T, float *o) {
    struct attn_job j = {L, q, ldq, T, ex->run, ex->n_run, ex->tok_run, ex->pos, o, ex->acc16, ex->accf, il,
                         ex->m->hp.attn_softcap, ex->m->hp.alibi_max_bias, 0, 0, 0, ex->isa};
    int64_t cells = 0; // K/V rows read over the step
    for (int r = 0; r < ex->n_run; r++) cells += (int64_t)ex->run[r].n * (ex->run[r].p0 + ex->run[r].n);
    int64_t work = cells * L->n_head * (L->head_dim + L->head_dim_v);
    // The tile path: F16 caches without ALiBi (its bias stays on the per-row path).
    int group = L->n_head / L->n_head_kv, dmax = L->head_dim > L->head_dim_v ? L->head_dim : L->head_dim_v;
    bool tiled = !feat_has(L->feat, LF_ALIBI) && !(feat_has(L->feat, LF_ATTN_SOFTCAP) && j.softcap == 0.0f) && dmax <= QUANT_ATTN_TILE_DIM;
    for (int r = 0; r < ex->n_run; r++) tiled = tiled && ex->run[r].s->kv_type == KV_F16;
    if (tiled) {
        // Heads per item: the whole group, halved while the threads would outnumber the items
        // (decode on few KV heads) or a tile of one token would not fit.
        int nth = pool_threads(ex->pool), hpi = group;
        while (hpi % 2 == 0 && ((int64_t)T * L->n_head_kv * (group / hpi) < nth || hpi > QUANT_ATTN_TILE_STATES ||
                                hpi * dmax > QUANT_ATTN_TILE_FLOATS))
            hpi /= 2;
        int nq = ATTN_TILE_Q;
        while (nq > 1 && (nq * hpi > QUANT_ATTN_TILE_STATES || nq * hpi * dmax > ATTN_TILE_FLOATS)) nq--;
        tiled = hpi <= QUANT_ATTN_TILE_STATES && hpi * dmax <= QUANT_ATTN_TILE_FLOATS;
        j.nq = nq;
        j.hpi = hpi;
        j.work = tile_items(&j, 0, 0, 0);
    }
    pool_run_sized(ex->pool, tiled ? attn_tile_task : attn_task, &j, work);
}

// Clamps n values to [-c, c] (mpt's clamp_kqv).
static void clamp_n(float *x, int n, float c) {
    for (int i = 0; i < n; i++) x[i] = x[i] < -c ? -c : x[i] > c ? c : x[i];
}

void attn_rope(const struct model *m, const struct layer *L, float *v, int pos) {
    struct rope_p rp = rope_params(m, L);
    rope_head(v, &rp, pos);
}

void attn_attend(struct exec *ex, const struct layer *L, const float *q, int64_t ldq, int il, int T, float *o) {
    attn_run(ex, L, q, ldq, il, T, o);
}

void attn_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    bool gated = feat_has(L->feat, LF_ATTN_GATE);
    bool gate_sep = feat_has(L->feat, LF_ATTN_GATE_SEP); // the gate from its own matrix, into ob
    int qw = gated ? 2 * H * d : H * d;
    float *qg = ex->hb;   // [T][ldh]: q (or q|gate per head)
    float *kb = ex->hb2;  // [T][ldh]
    float *vb = ex->hb3;  // [T][ldh]
    float *ob = ex->hb4;  // [T][ldh]
    int64_t ld = ex->ldh;
    if (feat_has(L->feat, LF_FUSED_QKV)) {
        // One product, then split the row [q | k | v].
        exec_mm(ex, &L->wqkv, 0, xn, D, T, ob, ld);
        for (int t = 0; t < T; t++) {
            const float *r = ob + (size_t)t * ld;
            memcpy(qg + (size_t)t * ld, r, (size_t)qw * sizeof(float));
            memcpy(kb + (size_t)t * ld, r + qw, (size_t)Hkv * d * sizeof(float));
            memcpy(vb + (size_t)t * ld, r + qw + Hkv * d, (size_t)Hkv * dv * sizeof(float));
        }
    } else {
        const struct weight *w3[3] = {&L->wq, &L->wk, &L->wv};
        float *y3[3] = {qg, kb, vb};
        exec_mm_multi(ex, 3, w3, xn, D, T, y3, ld);
    }
    if (gate_sep) exec_mm(ex, &L->chat_wgate, 0, xn, D, T, ob, ld); // (ob is free once q/k/v are split)
    struct rope_p rp = rope_params(m, L);
    float eps = m->hp.norm_eps;
    for (int t = 0; t < T; t++) {
        float *q = qg + (size_t)t * ld, *k = kb + (size_t)t * ld;
        struct seq *s = ex->run[ex->tok_run[t]].s;
        int pos = ex->pos[t];
        if (feat_has(L->feat, LF_CLAMP_KQV)) {
            float c = m->hp.clamp_kqv;
            clamp_n(q, qw, c);
            clamp_n(k, Hkv * d, c);
            clamp_n(vb + (size_t)t * ld, Hkv * dv, c);
        }
        if (feat_has(L->feat, LF_QK_NORM_FULL)) {
            // Over the whole rows, before the split into heads (olmo2, olmoe; mpt's LayerNorm).
            if (feat_has(L->feat, LF_QK_LN)) {
                if (L->q_norm) exec_layer_norm(q, q, L->q_norm, L->q_norm_b, H * d, eps);
                exec_layer_norm(k, k, L->k_norm, L->k_norm_b, Hkv * d, eps);
            } else {
                exec_rms_norm(q, q, L->q_norm, H * d, eps);
                exec_rms_norm(k, k, L->k_norm, Hkv * d, eps);
            }
        }
        if (gated) {
            // [q_h | gate_h] per head: move the gates to ob, compact q to [H][d].
            float *gate = ob + (size_t)t * ld;
            for (int h = 0; h < H; h++) memcpy(gate + (size_t)h * d, q + (size_t)h * 2 * d + d, (size_t)d * sizeof(float));
            for (int h = 1; h < H; h++) memmove(q + (size_t)h * d, q + (size_t)h * 2 * d, (size_t)d * sizeof(float));
        }
        // (LF_QK_NORM_POST_ROPE: the same per-head norm, after the rotation; LF_QK_RMS_UNWEIGHTED:
        // a weightless one there)
        bool post = feat_has(L->feat, LF_QK_NORM_POST_ROPE), l2 = feat_has(L->feat, LF_QK_RMS_UNWEIGHTED);
        if (feat_has(L->feat, LF_ATTN_TEMP)) {
            // llama4's temperature tuning, in double as the reference fills its input
            const struct hparams *hp = &m->hp;
            float ts = (float)(log(floor(((float)pos + hp->attn_temp_offset) / (float)hp->attn_temp_floor) + 1.0) * hp->attn_temp_scale + 1.0);
            for (int i = 0; i < qw; i++) q[i] *= ts;
        }
        bool head_norm = feat_has(L->feat, LF_QK_NORM) && !post, rope = !feat_has(L->feat, LF_NO_ROPE);
        bool head_ln = feat_has(L->feat, LF_QK_LN_HEAD); // command-r: LayerNorm, a weight row per head
        size_t nw = feat_has(L->feat, LF_QK_NORM_PER_HEAD) ? (size_t)d : 0; // RMSNorm weight stride per head (plamo2)
        for (int h = 0; h < H; h++) {
            float *qh = q + (size_t)h * d;
            if (head_norm) exec_rms_norm(qh, qh, L->q_norm + h * nw, d, eps);
            if (head_ln) exec_layer_norm(qh, qh, L->q_norm + (size_t)h * d, NULL, d, eps);
            if (feat_has(L->feat, LF_QK_LN_HEADS) && L->q_norm) exec_layer_norm(qh, qh, L->q_norm + (size_t)h * d, NULL, d, eps);
            if (rope) rope_head(qh, &rp, pos);
            if (post) exec_rms_norm(qh, qh, L->q_norm, d, eps);
            if (l2) exec_rms_norm(qh, qh, NULL, d, eps);
            if (feat_has(L->feat, LF_Q_HEAD_SCALE))
                for (int i = 0; i < d; i++) qh[i] *= L->q_norm[h];
            if (feat_has(L->feat, LF_Q_PRESCALE))
                for (int i = 0; i < d; i++) qh[i] *= L->kq_scale;
        }
        for (int h = 0; h < Hkv; h++) {
            float *kh = k + (size_t)h * d;
            if (head_norm) exec_rms_norm(kh, kh, L->k_norm + h * nw, d, eps);
            if (head_ln) exec_layer_norm(kh, kh, L->k_norm + (size_t)h * d, NULL, d, eps);
            if (feat_has(L->feat, LF_QK_LN_HEADS) && L->k_norm) exec_layer_norm(kh, kh, L->k_norm + (size_t)h * d, NULL, d, eps);
            if (rope) rope_head(kh, &rp, pos);
            if (post) exec_rms_norm(kh, kh, L->k_norm, d, eps);
            if (l2) exec_rms_norm(kh, kh, NULL, d, eps);
        }
        seq_kv_store_row(s, il, KV_K, pos, k);
        seq_kv_store_row(s, il, KV_V, pos, vb + (size_t)t * ld);
    }
    float *att = gated || gate_sep ? kb : ob; // [T][H*dv]: kb is free once K is cached; ob once q/k/v are split
    attn_run(ex, L, qg, ld, il, T, att);
    if (gated || gate_sep) {
        for (int t = 0; t < T; t++) {
            float *o = att + (size_t)t * H * dv;
            const float *gate = ob + (size_t)t * ld;
            bool per_head = feat_has(L->feat, LF_ATTN_GATE_HEAD); // one gate per head (spark2_5, laguna)
            if (feat_has(L->feat, LF_ATTN_GATE_SOFTPLUS)) // laguna: the reference's op_softplus
                for (int i = 0; i < H * dv; i++) {
                    float g = gate[per_head ? i / dv : i];
                    o[i] *= g > 20.0f ? g : logf(1.0f + expf(g));
                }
            else if (per_head)
                for (int i = 0; i < H * dv; i++) o[i] *= exec_sigmoid(gate[i / dv]);
            else
                for (int i = 0; i < H * dv; i++) o[i] *= exec_sigmoid(gate[i]);
        }
    }
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wo, 0, att, (int64_t)H * dv, T, y, D);
}

// Multi-head latent attention (deepseek2), as the reference runs it:
//   q     = Wq_b rms_norm(Wq_a xn) (or Wq xn)        [T][H][d_nope | n_rot]
//   c     = Wkv_a xn                                 [T][kv_lora | n_rot]
//   k_pe  = rope(c[kv_lora:]), kv = rms_norm(c[:kv_lora])   one shared head
//   K row = [kv | k_pe], V row = kv                  (cache type as attention)
//   q_h'  = [W_kb[h] q_nope_h | rope(q_pe_h)]        k_b absorbed into q
//   o_h   = W_vb[h] attention(q_h', K, V)            then y = Wo o
void attn_mla_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    int D = m->hp.n_embd, H = L->n_head, r = L->n_rot, kvl = L->kv_lora, dn = L->d_nope, dqk = dn + r, dvm = L->dv_mla;
    int dk = kvl + r; // == L->head_dim
    int64_t ld = ex->ldh;
    float *qb = ex->hb, *cb = ex->hb2, *qa = ex->hb3, *qf = ex->hb4;
    float eps = m->hp.norm_eps;
    if (feat_has(L->feat, LF_MLA_Q_LORA)) {
        exec_mm(ex, &L->wq_a, 0, xn, D, T, qa, ld);
        for (int t = 0; t < T; t++) exec_rms_norm(qa + (size_t)t * ld, qa + (size_t)t * ld, L->q_a_norm, (int)L->wq_a.n_out, eps);
        exec_act_invalidate(ex);
        exec_mm(ex, &L->wq_b, 0, qa, ld, T, qb, ld);
    } else {
        exec_mm(ex, &L->wq, 0, xn, D, T, qb, ld);
    }
    exec_mm(ex, &L->wkv_a, 0, xn, D, T, cb, ld);
    struct rope_p rp = rope_params(m, L);
    bool rope = !feat_has(L->feat, LF_NO_ROPE); // (kimi-linear's latent attention has none)
    for (int t = 0; t < T; t++) {
        float *c = cb + (size_t)t * ld;
        struct seq *s = ex->run[ex->tok_run[t]].s;
        int pos = ex->pos[t];
        if (feat_has(L->feat, LF_MLA_KPE_NORM)) exec_rms_norm(c + kvl, c + kvl, L->mla_kpe_norm, r, eps); // (dots3note)
        if (rope) rope_head(c + kvl, &rp, pos);
        exec_rms_norm(c, c, L->kv_a_norm, kvl, eps);
        seq_kv_store_row(s, il, KV_K, pos, c);
        seq_kv_store_row(s, il, KV_V, pos, c);
        for (int h = 0; rope && h < H; h++) rope_head(qb + (size_t)t * ld + (size_t)h * dqk + dn, &rp, pos);
    }
    // Absorb k_b into q: per head, q_nope [d_nope] -> [kv_lora]; q_pe follows it.
    exec_act_invalidate(ex);
    for (int h = 0; h < H; h++) {
        exec_mm(ex, &L->wk_b, h, qb + (size_t)h * dqk, ld, T, qf + (size_t)h * dk, ld);
        for (int t = 0; t < T; t++)
            memcpy(qf + (size_t)t * ld + (size_t)h * dk + kvl, qb + (size_t)t * ld + (size_t)h * dqk + dn, (size_t)r * sizeof(float));
    }
    float *att = qb; // [T][H*kv_lora]: q is consumed once qf is built
    attn_run(ex, L, qf, ld, il, T, att);
    exec_act_invalidate(ex);
    for (int h = 0; h < H; h++) exec_mm(ex, &L->wv_b, h, att + (size_t)h * kvl, (int64_t)H * kvl, T, cb + (size_t)h * dvm, (int64_t)H * dvm);
    if (feat_has(L->feat, LF_MLA_HEAD_GATE)) mla_head_gate(ex, L, xn, T, cb); // (bailingmoe3; kda.c)
    exec_act_invalidate(ex);
    exec_mm(ex, &L->wo, 0, cb, (int64_t)H * dvm, T, y, D);
}
