// ffn.c — feed-forward blocks of the host path: dense (gated, fused gate-up,
// ungated) and routed experts (+ shared expert), with the activations the
// table names (SiLU, GELU, gpt-oss's clamped SwiGLU).
//
//   gated:    y = W_d (act(W_g x + b_g) * (W_u x + b_u)) + b_d
//   fused:    [g | u] = W_up x (phi3), then as gated
//   ungated:  y = W_d act(W_u x + b_u) + b_d
//   experts:  router -> probabilities -> (groups) -> top-k -> weights; each chosen
//             expert is a gated FFN; the shared expert is added (sigmoid-gated or not).
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "model/forward_impl.h"
#include "quant/quant.h"

// ---- activations -------------------------------------------------------------

// The reference's CPU GELU: the tanh approximation, evaluated once per F16
// input value into an F16 table; inputs are rounded to F16 to index it, and
// the result is that F16 value. Outside (-10, 10) it is 0 or x.
static uint16_t gelu_table[1 << 16];
static pthread_once_t gelu_once = PTHREAD_ONCE_INIT;

static void gelu_table_init(void) {
    const float sqrt_2_over_pi = 0.79788456080286535587989211986876f, coef_a = 0.044715f;
    for (int i = 0; i < 1 << 16; i++) {
        float x = fp16_to_fp32((uint16_t)i);
        gelu_table[i] = fp32_to_fp16(0.5f * x * (1.0f + tanhf(sqrt_2_over_pi * x * (1.0f + coef_a * x * x))));
    }
}

static inline float gelu(float x) {
    if (x <= -10.0f) return 0.0f;
    if (x >= 10.0f) return x;
    return fp16_to_fp32(gelu_table[fp32_to_fp16(x)]);
}

// gpt-oss: g = min(gate, 7), u = clamp(up, -7, 7), g * sigmoid(1.702 g) * (u + 1).
static inline float swiglu_oai(float g, float u) {
    const float alpha = 1.702f, limit = 7.0f;
    float x = g < limit ? g : limit;
    float y = u < -limit ? -limit : u > limit ? limit : u;
    return x / (1.0f + expf(alpha * -x)) * (y + 1.0f);
}

// g[i] = act(g[i]) * u[i] (gated), for n values.
static void glu(enum quant_isa_id isa, int act, float *g, const float *u, int n) {
    switch (act) {
    case ACT_GELU:
        for (int i = 0; i < n; i++) g[i] = gelu(g[i]) * u[i];
        break;
    case ACT_SWIGLU_OAI:
        for (int i = 0; i < n; i++) g[i] = swiglu_oai(g[i], u[i]);
        break;
    case ACT_RELU: // (the reference's reglu: x > 0 ? x * u : 0)
        for (int i = 0; i < n; i++) g[i] = g[i] > 0.0f ? g[i] * u[i] : 0.0f;
        break;
    default:
        quant_silu_mul(isa, g, g, u, n);
    }
}

// glu over T rows (g and u ld floats apart), split over the threads by elements: the
// activation (an expf per element) is too much work for the caller alone.
struct glu_job {
    int act, F;
    float *g;
    const float *u;
    int64_t ldg, ldu;
    int T;
    enum quant_isa_id isa; // the executor's kernel set
};

static void glu_task(void *p, int ith, int nth) {
    const struct glu_job *j = p;
    int64_t a, b;
    pool_range((int64_t)j->T * j->F, ith, nth, 16, &a, &b);
    while (a < b) {
        const int64_t t = a / j->F, i = a % j->F, e = b - a < j->F - i ? b - a : j->F - i;
        glu(j->isa, j->act, j->g + t * j->ldg + i, j->u + t * j->ldu + i, (int)e);
        a += e;
    }
}

static void glu_rows(struct exec *ex, int act, float *g, int64_t ldg, const float *u, int64_t ldu, int T, int F) {
    struct glu_job j = {act, F, g, u, ldg, ldu, T, ex->isa};
    pool_run_sized(ex->pool, glu_task, &j, (int64_t)T * F * 16); // ~16 multiply-adds' worth per element
}

void ffn_init(void) { pthread_once(&gelu_once, gelu_table_init); }

void exec_rank_pooler_act(const struct model *m, float *y, int n) {
    if (!feat_has(m->feat, MF_RANK_MEAN_GELU)) {
        for (int i = 0; i < n; i++) y[i] = tanhf(y[i]);
        return;
    }
    ffn_init();
    for (int i = 0; i < n; i++) y[i] = gelu(y[i]);
    if (m->cls_norm) exec_layer_norm(y, y, m->cls_norm, NULL, n, m->hp.norm_eps);
}

// The activation of L's FFN (routed experts included; the shared expert is always SiLU).
static int layer_act(const struct layer *L) {
    if (feat_has(L->feat, LF_ACT_RELU)) return ACT_RELU;
    return feat_has(L->feat, LF_ACT_SWIGLU_OAI) ? ACT_SWIGLU_OAI : feat_has(L->feat, LF_ACT_GELU) ? ACT_GELU : ACT_SILU;
}

// ---- dense -------------------------------------------------------------------

void ffn_dense(struct exec *ex, const struct layer *L, const float *xn, int T, float *y) {
    int D = ex->m->hp.n_embd, F = L->n_ff, act = layer_act(L);
    int64_t ld = ex->ldh;
    if (feat_has(L->feat, LF_FFN_ACT_ONLY)) {
        for (size_t i = 0; i < (size_t)T * D; i++) y[i] = exec_silu(xn[i]);
        return;
    }
    if (feat_has(L->feat, LF_FFN_UNGATED)) {
        exec_mm(ex, &L->ffn_up, 0, xn, D, T, ex->hb, ld);
        for (int t = 0; t < T; t++) {
            float *u = ex->hb + (size_t)t * ld;
            if (feat_has(L->feat, LF_ACT_GELU))
                for (int i = 0; i < F; i++) u[i] = gelu(u[i]);
            else if (feat_has(L->feat, LF_ACT_RELU_SQR))
                for (int i = 0; i < F; i++) u[i] = u[i] > 0 ? u[i] * u[i] : 0.0f;
            else
                for (int i = 0; i < F; i++) u[i] = exec_silu(u[i]);
            // AWQ activation scales (mpt): the reference divides the activation by them.
            if (feat_has(L->feat, LF_ACT_SCALES))
                for (int i = 0; i < F; i++) u[i] /= L->ffn_act_scales[i];
        }
    } else if (feat_has(L->feat, LF_FFN_GATE_UP_FUSED)) {
        exec_mm(ex, &L->ffn_up, 0, xn, D, T, ex->hb, ld);
        glu_rows(ex, act, ex->hb, ld, ex->hb + F, ld, T, F);
    } else {
        const struct weight *w2[2] = {&L->ffn_gate, &L->ffn_up};
        float *y2[2] = {ex->hb, ex->hb2};
        exec_mm_multi(ex, 2, w2, xn, D, T, y2, ld);
        glu_rows(ex, act, ex->hb, ld, ex->hb2, ld, T, F);
    }
    exec_mm(ex, &L->ffn_down, 0, ex->hb, ld, T, y, D);
}

// ---- routed experts ----------------------------------------------------------------

// As the reference's soft_max: exponentials summed in double, then every value
// multiplied by the float reciprocal of the sum.
static void softmax_inplace(float *v, int n) {
    float mx = -INFINITY;
    for (int i = 0; i < n; i++) mx = v[i] > mx ? v[i] : mx;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        v[i] = expf(v[i] - mx);
        sum += v[i];
    }
    const float inv = (float)(1.0 / sum);
    for (int i = 0; i < n; i++) v[i] *= inv;
}

// Chooses the K experts of one token and their weights, in the reference's order:
// probabilities by the gating function, selection scores (+ exp_probs_b),
// group-limited routing, top-k, weights from the unbiased probabilities.
static void route(const struct model *m, const struct layer *L, float *probs, float *score, int *sel, float *wt) {
    const struct hparams *hp = &m->hp;
    int E = L->n_expert, K = L->n_expert_used;
    // (LF_MOE_SOFTMAX_K: the raw logits, softmax over the chosen k below; LF_MOE_WEIGHT_INPUT:
    // the raw logits choose, the probabilities weigh)
    bool raw_sel = feat_has(L->feat, LF_MOE_WEIGHT_INPUT);
    if (raw_sel) memcpy(score, probs, (size_t)E * sizeof *score);
    if (feat_has(L->feat, LF_MOE_SIGMOID))
        for (int e = 0; e < E; e++) probs[e] = exec_sigmoid(probs[e]);
    else if (!feat_has(L->feat, LF_MOE_SOFTMAX_K)) softmax_inplace(probs, E);
    if (feat_has(L->feat, LF_MOE_PROBS_BIAS))
        for (int e = 0; e < E; e++) score[e] = probs[e] + L->exp_probs_b[e];
    else if (!raw_sel)
        memcpy(score, probs, (size_t)E * sizeof *score);
    int G = hp->expert_groups;
    if (feat_has(L->feat, LF_MOE_GROUPS)) {
        // Group score = sum of its two best selection scores; keep the best groups.
        int per = E / G;
        float gs[256];
        bool keep[256];
        for (int g = 0; g < G && g < 256; g++) {
            float a = -INFINITY, b = -INFINITY;
            for (int e = g * per; e < (g + 1) * per; e++) {
                if (score[e] > a) { b = a; a = score[e]; }
                else if (score[e] > b) b = score[e];
            }
            gs[g] = a + (per > 1 ? b : 0.0f);
            keep[g] = false;
        }
        for (int k = 0; k < hp->expert_groups_used; k++) {
            int best = -1;
            for (int g = 0; g < G; g++)
                if (!keep[g] && (best < 0 || gs[g] > gs[best])) best = g;
            keep[best] = true;
        }
        for (int e = 0; e < E; e++)
            if (!keep[e / per]) score[e] = -INFINITY;
    }
    for (int k = 0; k < K; k++) {
        int best = -1;
        float bv = -INFINITY;
        for (int e = 0; e < E; e++) {
            bool taken = false;
            for (int q = 0; q < k; q++) taken |= sel[q] == e;
            if (taken) continue;
            if (best < 0 || score[e] > bv) { best = e; bv = score[e]; }
        }
        sel[k] = best;
        wt[k] = probs[best];
    }
    if (feat_has(L->feat, LF_MOE_SOFTMAX_K)) softmax_inplace(wt, K);
    if (feat_has(L->feat, LF_MOE_NORM_W)) {
        float s = 0;
        for (int k = 0; k < K; k++) s += wt[k];
        if (s < 6.103515625e-5f) s = 6.103515625e-5f;
        for (int k = 0; k < K; k++) wt[k] /= s;
    }
    if (feat_has(L->feat, LF_MOE_W_SCALE))
        for (int k = 0; k < K; k++) wt[k] *= hp->expert_weights_scale;
}

// g[i] = min(silu(g[i]), c) * clamp(u[i], -c, c), for n values: the reference's limited SwiGLU
// of the experts and the shared expert (LF_SWIGLU_LIMIT, bailingmoe3), in its order (the SiLU,
// then the clamps, then the product).
static void glu_limited(float *g, const float *u, int n, float c) {
    for (int i = 0; i < n; i++) {
        float s = exec_silu(g[i]), y = u[i] < -c ? -c : u[i] > c ? c : u[i];
        g[i] = (s < c ? s : c) * y;
    }
}

// An expert's gated activation, g[i] = act(g[i]) * u[i] for n values: the layer's activation,
// maple's clamped SwiGLU (gate at most c, up within [-c, c], in the reference's scalar form),
// or bailingmoe3's limited one (glu_limited).
static void expert_glu(enum quant_isa_id isa, const struct layer *L, int act, float *g, const float *u, int n) {
    if (L->swiglu_lim_exp > 0) {
        glu_limited(g, u, n, L->swiglu_lim_exp);
        return;
    }
    if (!feat_has(L->feat, LF_SWIGLU_CLAMP)) {
        glu(isa, act, g, u, n);
        return;
    }
    const float c = L->chat_swiglu_limit;
    for (int i = 0; i < n; i++) {
        float x = g[i] < c ? g[i] : c, y = u[i] < -c ? -c : u[i] > c ? c : u[i];
        g[i] = x / (1.f + expf(-x)) * y;
    }
}

// Routed experts (+ shared expert). Only the selected experts are computed:
// tokens are grouped by expert, each expert's matrices are read once per batch.
void ffn_moe(struct exec *ex, const struct layer *L, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    int D = m->hp.n_embd, E = L->n_expert, K = L->n_expert_used, F = L->n_ff, act = layer_act(L);
    float *router = ex->router; // [T][E]
    // (LF_MOE_ROUTER_IN: the router reads the block input, which exec_host_block kept in y2)
    exec_mm(ex, &L->gate_inp, 0, feat_has(L->feat, LF_MOE_ROUTER_IN) ? ex->y2 : xn, D, T, router, E);
    float score[1024];
    for (int t = 0; t < T; t++)
        route(m, L, router + (size_t)t * E, score, ex->sel + (size_t)t * K, ex->selw + (size_t)t * K);
    memset(y, 0, (size_t)T * D * sizeof(float));
    // Per expert: gather its tokens, run the expert on them, scatter-add weighted.
    for (int e = 0; e < E; e++) {
        int n = 0;
        for (int t = 0; t < T; t++)
            for (int k = 0; k < K; k++)
                if (ex->sel[(size_t)t * K + k] == e) {
                    ex->tok_idx[n] = t;
                    ex->tok_w[n] = ex->selw[(size_t)t * K + k];
                    memcpy(ex->xg + (size_t)n * D, xn + (size_t)t * D, (size_t)D * sizeof(float));
                    if (feat_has(L->feat, LF_MOE_WEIGHT_INPUT)) {
                        // llama4: the weight scales the expert's input, its output adds as it is
                        for (int c = 0; c < D; c++) ex->xg[(size_t)n * D + c] *= ex->tok_w[n];
                        ex->tok_w[n] = 1.0f;
                    }
                    n++;
                }
        if (!n) continue;
        exec_act_invalidate(ex);
        if (feat_has(L->feat, LF_FFN_GATE_UP_FUSED)) {
            // [gate rows | up rows] per expert: one product, then split.
            exec_mm(ex, &L->gate_up_exps, e, ex->xg, D, n, ex->hb, ex->ldh);
            for (int i = 0; i < n; i++) {
                float *g = ex->hb + (size_t)i * ex->ldh;
                expert_glu(ex->isa, L, act, g, g + F, F);
            }
        } else {
            exec_mm(ex, &L->gate_exps, e, ex->xg, D, n, ex->hb, ex->ldh);
            exec_mm(ex, &L->up_exps, e, ex->xg, D, n, ex->hb2, ex->ldh);
            for (int i = 0; i < n; i++)
                expert_glu(ex->isa, L, act, ex->hb + (size_t)i * ex->ldh, ex->hb2 + (size_t)i * ex->ldh, F);
        }
        exec_mm(ex, &L->down_exps, e, ex->hb, ex->ldh, n, ex->yg, D);
        for (int i = 0; i < n; i++) {
            float *dst = y + (size_t)ex->tok_idx[i] * D, *src = ex->yg + (size_t)i * D;
            for (int c = 0; c < D; c++) dst[c] += ex->tok_w[i] * src[c];
        }
    }
    if (feat_has(L->feat, LF_FFN_SHEXP)) {
        int Fs = L->n_ff_shexp;
        exec_act_invalidate(ex);
        const struct weight *w2[2] = {&L->gate_shexp, &L->up_shexp};
        float *y2[2] = {ex->hb, ex->hb2};
        exec_mm_multi(ex, 2, w2, xn, D, T, y2, ex->ldh);
        for (int t = 0; t < T; t++) {
            float *g = ex->hb + (size_t)t * ex->ldh, *u = ex->hb2 + (size_t)t * ex->ldh;
            if (L->swiglu_lim_shexp > 0) glu_limited(g, u, Fs, L->swiglu_lim_shexp);
            else for (int c = 0; c < Fs; c++) g[c] = exec_silu(g[c]) * u[c];
        }
        exec_mm(ex, &L->down_shexp, 0, ex->hb, ex->ldh, T, ex->yg, D);
        if (feat_has(L->feat, LF_FFN_SHEXP_GATE))
            exec_observe(ex, L->gate_inp_shexp, L->gate_inp_shexp_name, D, 1, 0, xn, D, T);
        for (int t = 0; t < T; t++) {
            float gate = 1.0f;
            if (feat_has(L->feat, LF_FFN_SHEXP_GATE)) {
                float d = 0;
                for (int c = 0; c < D; c++) d += L->gate_inp_shexp[c] * xn[(size_t)t * D + c];
                gate = exec_sigmoid(d);
            }
            for (int c = 0; c < D; c++) y[(size_t)t * D + c] += gate * ex->yg[(size_t)t * D + c];
            // cohere2moe halves the sum (gate is 1: the sum above is the reference's exactly)
            if (feat_has(L->feat, LF_SHEXP_HALF))
                for (int c = 0; c < D; c++) y[(size_t)t * D + c] *= 0.5f;
        }
    }
}
