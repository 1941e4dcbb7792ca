// ops.c — what every block of the host path is built from: matrix products over
// the rows of a step (each through its weight's backend, w->mm; the host backend converts the
// activations once per input and splits the weight rows over the threads), norms and
// activations in the reference's order of operations.
// forward.c, attn.c, gdn.c and ffn.c call these; they call nothing of theirs.
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/forward_impl.h"
#include "quant/quant.h"

// ---- parallel helpers -------------------------------------------------------

struct act_job {
    enum quant_isa_id isa;
    uint32_t type;
    const float *x;
    int64_t ldx, n;
    int T;
    uint8_t *xq;
    size_t act_bytes;
};

static void act_task(void *p, int ith, int nth) {
    struct act_job *j = p;
    int64_t t0, t1;
    pool_range(j->T, ith, nth, 1, &t0, &t1);
    for (int64_t t = t0; t < t1; t++)
        quant_act_from_float(j->isa, j->type, j->x + t * j->ldx, j->xq + t * j->act_bytes, j->n);
}

// Up to 4 products sharing one input, split over the threads as one range of
// rows (the concatenation of every matrix's rows): one barrier for q/k/v, one
// for gate/up.
struct mm_job {
    enum quant_isa_id isa; // the executor's kernel set
    int n;
    const struct weight *w[4];
    const uint8_t *W[4];
    const void *P[4];  // the weights packed at load (model.c) in isa's layout, NULL: use W
    float *y[4];
    int64_t row0[5];  // prefix sums of the rows
    const uint8_t *xq;
    int T;
    int64_t ldy;
};

static void mm_task(void *p, int ith, int nth) {
    struct mm_job *j = p;
    int64_t r0, r1;
    // Align splits to 16 rows so threads don't share cache lines of y.
    pool_range(j->row0[j->n], ith, nth, 16, &r0, &r1);
    for (int k = 0; k < j->n && r0 < r1; k++) {
        int64_t a = r0 > j->row0[k] ? r0 : j->row0[k], b = r1 < j->row0[k + 1] ? r1 : j->row0[k + 1];
        if (a >= b) continue;
        const struct weight *w = j->w[k];
        int64_t lo = a - j->row0[k], hi = b - j->row0[k];
        if (j->P[k])
            quant_matmul_packed(j->isa, w->type, j->P[k], j->W[k], w->row_bytes, j->xq, w->n_in, j->T, j->y[k] + lo,
                                j->ldy, lo, hi);
        else
            quant_matmul(j->isa, w->type, j->W[k], w->row_bytes, j->xq, w->n_in, j->T, j->y[k] + lo, j->ldy, lo, hi);
    }
}

// Converts T rows of x (stride ldx, n_in wide) to w's activation format. The
// result stays valid until the next call with a different (x, type, T).
const uint8_t *exec_act(struct exec *ex, const struct weight *w, const float *x, int64_t ldx, int T) {
    size_t ab = quant_act_size(w->type, w->n_in);
    if (ex->act_x == x && ex->act_type == w->type && ex->act_T == T && ex->act_n == w->n_in && ex->act_ldx == ldx)
        return ex->xq;
    size_t need = ab * (size_t)T;
    if (need > ex->xq_cap) {
        free(ex->xq);
        ex->xq = aligned_alloc(64, (need + 63) & ~(size_t)63);
        ex->xq_cap = ex->xq ? need : 0;
        if (!ex->xq) return NULL;
    }
    struct act_job j = {ex->isa, w->type, x, ldx, w->n_in, T, ex->xq, ab};
    pool_run_sized(ex->pool, act_task, &j, (int64_t)T * w->n_in * 4);
    ex->act_x = x;
    ex->act_type = w->type;
    ex->act_T = T;
    ex->act_n = w->n_in;
    ex->act_ldx = ldx;
    return ex->xq;
}

// Forgets the cached activation (call after writing to a buffer that was an input).
void exec_act_invalidate(struct exec *ex) { ex->act_x = NULL; }

static void mm_epilogue(const struct weight *w, int mat, int T, float *y, int64_t ldy) {
    const float *b = w->bias ? w->bias + (size_t)mat * (size_t)w->n_out : NULL;
    if (b && w->bias_first)
        for (int t = 0; t < T; t++)
            for (int64_t r = 0; r < w->n_out; r++) y[t * ldy + r] += b[r];
    if (w->scale) {
        float sc = w->scale[w->n_scale > 1 ? mat : 0];
        for (int t = 0; t < T; t++)
            for (int64_t r = 0; r < w->n_out; r++) y[t * ldy + r] *= sc;
    }
    if (b && !w->bias_first)
        for (int t = 0; t < T; t++)
            for (int64_t r = 0; r < w->n_out; r++) y[t * ldy + r] += b[r];
}

// The host backend (mm_host): the activation rows converted once to the weights' dot-product
// format (exec_act), then the rows of all n matrices split over the pool's threads as one range,
// each range on the packed copy when the weight has one and the context's kernel set is the one
// it was packed for (the expert matrices mat > 0 never have one).
static void host_mm(struct exec *ex, int n, const struct weight *const *w, int mat, const float *x, int64_t ldx, int T,
                    float *const *y, int64_t ldy) {
    struct mm_job j = {.isa = ex->isa, .n = n, .xq = exec_act(ex, w[0], x, ldx, T), .T = T, .ldy = ldy};
    int64_t work = 0;
    for (int k = 0; k < n; k++) {
        j.w[k] = w[k];
        j.W[k] = (const uint8_t *)w[k]->data + (size_t)mat * w[k]->mat_bytes;
        j.P[k] = mat == 0 && ex->packed ? w[k]->packed : NULL;
        j.y[k] = y[k];
        j.row0[k + 1] = j.row0[k] + w[k]->n_out;
        work += w[k]->n_out * w[k]->n_in * T;
    }
    pool_run_sized(ex->pool, mm_task, &j, work);
}

const struct mm_backend mm_host = {"host", host_mm};

// y_k[t][0..n_out) = (W_k x_t) * scale + bias for n <= 4 weights of one type, input width and
// backend, in one product of that backend. Mixed ones fall back to one product each (their
// activations differ, or they live in different places).
void exec_mm_multi(struct exec *ex, int n, const struct weight *const *w, const float *x, int64_t ldx, int T, float *const *y,
              int64_t ldy) {
    for (int k = 1; k < n; k++)
        if (w[k]->type != w[0]->type || w[k]->n_in != w[0]->n_in || w[k]->mm != w[0]->mm) {
            for (int i = 0; i < n; i++) exec_mm(ex, w[i], 0, x, ldx, T, y[i], ldy);
            return;
        }
    assert(w[0]->mm && "a weight without a backend: the model was not planned (path_plan)");
    for (int k = 0; k < n; k++) exec_observe(ex, w[k], w[k]->name, w[k]->n_in, w[k]->n_mat, 0, x, ldx, T);
    w[0]->mm->mm(ex, n, w, 0, x, ldx, T, y, ldy);
    for (int k = 0; k < n; k++) mm_epilogue(w[k], 0, T, y[k], ldy);
}

// y[t][0..n_out) = (W[mat] x_t) * scale + bias, for T rows of x.
void exec_mm(struct exec *ex, const struct weight *w, int mat, const float *x, int64_t ldx, int T, float *y, int64_t ldy) {
    assert(w->mm && "a weight without a backend: the model was not planned (path_plan)");
    exec_observe(ex, w, w->name, w->n_in, w->n_mat, mat, x, ldx, T);
    w->mm->mm(ex, 1, &w, mat, x, ldx, T, &y, ldy);
    mm_epilogue(w, mat, T, y, ldy);
}

// ---- small ops ---------------------------------------------------------------

// RMSNorm as the reference computes it: each square in float, summed in
// double, then x * (1/sqrt(mean + eps)) in float, then the weight as a
// separate multiply.
void exec_rms_norm(float *y, const float *x, const float *w, int n, float eps) {
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += (double)(x[i] * x[i]);
    float scale = 1.0f / sqrtf((float)(sum / n) + eps);
    for (int i = 0; i < n; i++) y[i] = x[i] * scale;
    if (w)
        for (int i = 0; i < n; i++) y[i] *= w[i];
}

// LayerNorm as the reference computes it: mean and variance summed in double,
// then (x - mean) * (1/sqrt(var + eps)), the weight and the bias as separate ops.
void exec_layer_norm(float *y, const float *x, const float *w, const float *b, int n, float eps) {
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += x[i];
    float mean = (float)(sum / n);
    double sum2 = 0.0;
    for (int i = 0; i < n; i++) {
        float v = x[i] - mean;
        y[i] = v;
        sum2 += (double)(v * v);
    }
    float scale = 1.0f / sqrtf((float)(sum2 / n) + eps);
    for (int i = 0; i < n; i++) y[i] *= scale;
    if (w)
        for (int i = 0; i < n; i++) y[i] *= w[i];
    if (b)
        for (int i = 0; i < n; i++) y[i] += b[i];
}

float exec_silu(float x) { return quant_silu(x); }
float exec_sigmoid(float x) { return 1.0f / (1.0f + quant_expf(-x)); }

