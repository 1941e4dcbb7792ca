// model.c — binding a GGUF file to a model, and refusing what frink does not apply.
//
// The loader keeps two ledgers: which metadata keys were consumed and which
// tensors were read. After binding, anything left over that could change the
// output is an error naming it. "Could change the output" for metadata means a
// key from `effect_keys` whose value is not the inert one the reference's own
// writer puts there when a model does not use the feature.
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "quant/quant.h"
#include "model/path.h"
#include "model/loader.h"
#include "model/mla.h"
#include "model/mamba2.h"
#include "model/moe.h"
#include "model/chatfam.h"
#include "model/convmix.h"
#include "model/dense.h"
#include "model/vlm.h"
#include "model/shape.h"
#include "quant/types.h"

#include <stdarg.h>
frink_status ld_fail(struct loader *ld, frink_status st, const char *fmt, ...) {
    if (ld->st) return ld->st;
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ld->st = frink_fail(st, "%s", buf);
    return ld->st;
}

// ---- metadata ------------------------------------------------------------

const struct gguf_kv *kv_take(struct loader *ld, const char *key) {
    char full[256];
    snprintf(full, sizeof full, "%s.%s", ld->arch, key);
    for (uint64_t i = 0; i < ld->f->n_kv; i++)
        if (gguf_str_eq(ld->f->kv[i].key, full)) {
            ld->kv_used[i] = 1;
            return &ld->f->kv[i];
        }
    return NULL;
}

bool kv_is_num(const struct gguf_kv *kv) {
    return kv->type != GGUF_VT_STRING && kv->type != GGUF_VT_ARRAY;
}

double kv_num(const struct gguf_kv *kv) {
    switch (kv->type) {
    case GGUF_VT_FLOAT32:
    case GGUF_VT_FLOAT64: return kv->v.f64;
    case GGUF_VT_INT8:
    case GGUF_VT_INT16:
    case GGUF_VT_INT32:
    case GGUF_VT_INT64: return (double)kv->v.i64;
    default: return (double)kv->v.u64;
    }
}

// Scalar number, or `def` when absent. Required keys pass def = NAN.
double hp_num(struct loader *ld, const char *key, double def) {
    const struct gguf_kv *kv = kv_take(ld, key);
    if (!kv) {
        if (isnan(def)) ld_fail(ld, FRINK_ERR_FORMAT, "required metadata '%s.%s' is missing", ld->arch, key);
        return def;
    }
    if (!kv_is_num(kv)) {
        ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.%s' has type %s, expected a number", ld->arch, key, gguf_vtype_name(kv->type));
        return def;
    }
    return kv_num(kv);
}

int hp_int(struct loader *ld, const char *key, double def) {
    double v = hp_num(ld, key, def);
    if (isnan(v) || v < -1e9 || v > 1e9) {
        if (!isnan(v)) ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.%s' = %g is out of range", ld->arch, key, v);
        return 0;
    }
    return (int)v;
}

// A per-layer value: a scalar broadcast to every layer, or an array of block_count.
int hp_layer_int(struct loader *ld, const char *key, int def, int il, int n_layer_total) {
    const struct gguf_kv *kv = kv_take(ld, key);
    if (!kv) return def;
    if (kv->type == GGUF_VT_ARRAY) {
        if (kv->v.arr.type == GGUF_VT_STRING || kv->v.arr.n != (uint64_t)n_layer_total) {
            ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.%s' must be a numeric array of %d (block_count)", ld->arch, key, n_layer_total);
            return def;
        }
        return (int)gguf_arr_i64(kv, (uint64_t)il);
    }
    if (!kv_is_num(kv)) {
        ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.%s' has type %s", ld->arch, key, gguf_vtype_name(kv->type));
        return def;
    }
    return (int)kv_num(kv);
}

// Keys that change the computation when set. A key listed here that the
// architecture did not consume must hold an inert value (what the reference's
// writer stores for "unused"), or the load is refused naming the key.
struct effect_key {
    const char *key;     // after "<arch>."
    double inert[3];     // accepted values when unconsumed (NAN terminates)
    const char *what;
};
static const struct effect_key effect_keys[] = {
    {"logit_scale", {0, 1, NAN}, "a logit scale"},
    {"embedding_scale", {0, 1, NAN}, "an embedding scale"},
    {"residual_scale", {0, 1, NAN}, "a residual scale"},
    {"attention.scale", {0, NAN}, "an attention scale"},
    {"attention.output_scale", {0, 1, NAN}, "an attention output scale"},
    {"attention.value_scale", {0, 1, NAN}, "an attention value scale"},
    {"attention.temperature_scale", {0, NAN}, "attention temperature scaling"},
    {"attn_logit_softcapping", {0, 50, NAN}, "an attention logit softcap"},
    {"final_logit_softcapping", {0, 30, NAN}, "a final logit softcap"},
    {"router_logit_softcapping", {0, 30, NAN}, "a router logit softcap"},
    {"attention.max_alibi_bias", {0, NAN}, "ALiBi"},
    {"attention.clamp_kqv", {0, NAN}, "a QKV clamp"},
    {"attention.sliding_window", {0, NAN}, "a sliding attention window"},
    {"attention.causal", {1, NAN}, "non-causal attention"},
    {"expert_weights_scale", {0, 1, NAN}, "an expert weight scale"},
    {"use_parallel_residual", {0, NAN}, "a parallel residual"},
    {"rope.scaling.factor", {0, 1, NAN}, "RoPE scaling"},
    {"rope.scaling.attn_factor", {1, 0, NAN}, "a RoPE attention factor"},
    {"rope.scaling.yarn_log_multiplier", {0, NAN}, "a YaRN log multiplier"},
    {"rope.scale_linear", {0, 1, NAN}, "linear RoPE scaling"},
    {"swin_norm", {0, NAN}, "swin norm"},
};

static frink_status check_effect_keys(struct loader *ld) {
    char full[256];
    for (size_t k = 0; k < sizeof effect_keys / sizeof effect_keys[0]; k++) {
        snprintf(full, sizeof full, "%s.%s", ld->arch, effect_keys[k].key);
        for (uint64_t i = 0; i < ld->f->n_kv; i++) {
            const struct gguf_kv *kv = &ld->f->kv[i];
            if (ld->kv_used[i] || !gguf_str_eq(kv->key, full)) continue;
            if (!kv_is_num(kv)) return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s' (%s) has an unexpected type; frink does not apply it", full, effect_keys[k].what);
            double v = kv_num(kv);
            bool inert = false;
            for (int j = 0; j < 3 && !isnan(effect_keys[k].inert[j]); j++)
                if (v == effect_keys[k].inert[j]) inert = true;
            if (!inert)
                return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s' = %g declares %s, which frink does not apply for architecture '%s'; refusing rather than compute a different model",
                               full, v, effect_keys[k].what, ld->arch);
        }
    }
    // Array-valued clamps: any non-zero element is a clamp nothing applies.
    static const char *clamp_arrays[] = {"swiglu_clamp_exp", "swiglu_clamp_shexp"};
    for (size_t k = 0; k < 2; k++) {
        snprintf(full, sizeof full, "%s.%s", ld->arch, clamp_arrays[k]);
        const struct gguf_kv *kv = gguf_find(ld->f, full);
        if (!kv) continue;
        int64_t idx = kv - ld->f->kv;
        if (ld->kv_used[idx]) continue;
        if (kv->type != GGUF_VT_ARRAY || kv->v.arr.type == GGUF_VT_STRING) continue;
        for (uint64_t j = 0; j < kv->v.arr.n; j++)
            if (gguf_arr_f64(kv, j) != 0)
                return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s' declares a SwiGLU clamp, which frink does not apply for '%s'", full, ld->arch);
    }
    // RoPE scaling type: only none/linear are handled generically.
    snprintf(full, sizeof full, "%s.rope.scaling.type", ld->arch);
    const struct gguf_kv *rt = gguf_find(ld->f, full);
    if (rt && !ld->kv_used[rt - ld->f->kv] && rt->type == GGUF_VT_STRING &&
        !gguf_str_eq(rt->v.str, "none") && !gguf_str_eq(rt->v.str, "linear"))
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s' = '%.*s': frink does not implement this RoPE scaling for '%s'",
                       full, (int)rt->v.str.len, rt->v.str.ptr, ld->arch);
    return FRINK_OK;
}

// ---- tensors ---------------------------------------------------------------

const struct gguf_tensor *t_take(struct loader *ld, const char *name) {
    int64_t i = gguf_tensor_index(ld->f, name);
    if (i < 0) return NULL;
    ld->t_used[i] = 1;
    return &ld->f->tensors[i];
}

static bool owned_reserve(struct model *m) {
    if (m->n_owned == m->cap_owned) {
        int cap = m->cap_owned ? m->cap_owned * 2 : 256;
        void **o = realloc(m->owned, (size_t)cap * sizeof *o);
        if (!o) return false;
        m->owned = o;
        m->cap_owned = cap;
    }
    return true;
}

void *owned_alloc(struct model *m, size_t bytes) {
    if (!owned_reserve(m)) return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (p) m->owned[m->n_owned++] = p;
    return p;
}

// Repacks the matrices the CPU kernels in use have a packed layout for (quant_pack) into one
// arena backed by huge pages where the kernel offers them (long sequential streams, few TLB
// misses), and releases each matrix's file pages once its packed copy exists: the packed weights
// replace the mapped ones in memory instead of adding to them. When the arena cannot be had,
// nothing is packed and nothing changes.
// The matrices a packed layout may replace: the output and every layer's matrices (packed_size
// keeps the plain ones). Returns a malloc'd list (NULL when out of memory) and its length in *n.
static struct weight **packable(struct model *m, int *n) {
    enum { PER_LAYER = sizeof((struct weight *[]){LAYER_MATRICES((struct layer *)0)}) / sizeof(struct weight *) };
    struct weight **list = malloc(sizeof *list * (1 + (size_t)PER_LAYER * (size_t)m->hp.n_layer));
    if (!list) return NULL;
    int k = 0;
    // (when the output is tied to the token table, the table's rows are still read, dequantized
    // per token, from the mapping: only the output product uses the packed copy)
    list[k++] = &m->output;
    for (int il = 0; il < m->hp.n_layer; il++) {
        struct layer *L = &m->layers[il];
        struct weight *ws[] = {LAYER_MATRICES(L)};
        for (int i = 0; i < PER_LAYER; i++) list[k++] = ws[i];
    }
    *n = k;
    return list;
}

static size_t packed_size(enum quant_isa_id isa, const struct weight *w) {
    if (!w->data || w->n_mat != 1) return 0;
    return (quant_packed_size(isa, w->type, w->n_in, w->n_out) + 63) & ~(size_t)63;
}

// Packs for the CPU's best kernel set, which every context runs unless it asks for the reference
// kernels (or a lower set): those read the file's layout instead (exec_set_kernels).
static void pack_weights(struct model *m) {
    const enum quant_isa_id isa = quant_cpu_isa();
    int n = 0;
    struct weight **ws = packable(m, &n);
    if (!ws) return;
    size_t total = 0;
    for (int i = 0; i < n; i++) total += packed_size(isa, ws[i]);
    if (!total) {
        free(ws);
        return;
    }
    const size_t huge = (size_t)2 << 20;
    total = (total + huge - 1) & ~(huge - 1);
    uint8_t *arena = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (arena == MAP_FAILED) {
        free(ws);
        return;
    }
#ifdef MADV_HUGEPAGE
    madvise(arena, total, MADV_HUGEPAGE);
#endif
    m->packed_arena = arena;
    m->packed_bytes = total;
    m->packed_isa = isa;
    const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        struct weight *w = ws[i];
        const size_t sz = packed_size(isa, w);
        if (!sz || w->packed) continue;
        quant_pack(isa, w->type, w->data, w->row_bytes, w->n_in, w->n_out, arena + off);
        w->packed = arena + off;
        off += sz;
        const uintptr_t a = ((uintptr_t)w->data + pg - 1) & ~(pg - 1), b = ((uintptr_t)w->data + w->mat_bytes) & ~(pg - 1);
        if (a < b) madvise((void *)a, b - a, MADV_DONTNEED);
    }
    mprotect(arena, total, PROT_READ);
    free(ws);
}


// A 1-D tensor (norm weight, bias, ...) as F32, copied into the model's arena.
// want_n: expected element count (0 = any). Absent: NULL (error if required).
const float *vec_take(struct loader *ld, const char *name, int64_t want_n, bool required) {
    const struct gguf_tensor *t = t_take(ld, name);
    if (!t) {
        if (required) ld_fail(ld, FRINK_ERR_FORMAT, "required tensor '%s' is missing", name);
        return NULL;
    }
    int64_t n = t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3];
    if (want_n && n != want_n) {
        ld_fail(ld, FRINK_ERR_FORMAT, "tensor '%s' has %lld elements, expected %lld", name, (long long)n, (long long)want_n);
        return NULL;
    }
    if (!quant_supported(t->type) && t->type != GGML_TYPE_F32) {
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor '%s' has type %s, which frink cannot read", name, ggml_type_name(t->type));
        return NULL;
    }
    float *dst = owned_alloc(ld->m, (size_t)n * sizeof(float));
    if (!dst) {
        ld_fail(ld, FRINK_ERR_NOMEM, "out of memory for '%s'", name);
        return NULL;
    }
    quant_dequant_row(t->type, t->data, dst, n);
    return dst;
}

// The per-tensor scale `<base>.scale`: one value, or one per expert matrix.
// Left unread (and so refused, unless allowed) when the architecture does not
// apply it, as measured on the reference.
static const float *scale_take(struct loader *ld, const char *base, bool applied, int64_t n_mat, int *n_scale) {
    char name[GGUF_MAX_NAME + 16];
    snprintf(name, sizeof name, "%s.scale", base);
    *n_scale = 0;
    if (!applied) return NULL;
    const struct gguf_tensor *t = gguf_find_tensor(ld->f, name);
    if (!t) return NULL;
    int64_t n = t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3];
    if (n != 1 && n != n_mat) {
        ld_fail(ld, FRINK_ERR_FORMAT, "tensor '%s' has %lld elements, expected 1 or %lld", name, (long long)n, (long long)n_mat);
        return NULL;
    }
    *n_scale = (int)n;
    return vec_take(ld, name, n, true);
}

// Binds `<base>.weight` as a matrix [n_in -> n_out] (x n_mat), plus `<base>.bias`
// and `<base>.scale` when present. want_*: expected dims (0 = any).
struct weight mat_take_b(struct loader *ld, const char *base, int64_t n_in, int64_t n_out, int64_t n_mat,
                                bool required, bool scale_applied, bool bias_applied) {
    struct weight w = {0};
    char name[GGUF_MAX_NAME + 16];
    snprintf(name, sizeof name, "%s.weight", base);
    const struct gguf_tensor *t = t_take(ld, name);
    if (!t) {
        if (required) ld_fail(ld, FRINK_ERR_FORMAT, "required tensor '%s' is missing", name);
        return w;
    }
    if ((n_in && t->ne[0] != n_in) || (n_out && t->ne[1] != n_out) || t->ne[2] != (n_mat ? n_mat : 1) || t->ne[3] != 1) {
        ld_fail(ld, FRINK_ERR_FORMAT, "tensor '%s' has shape [%lld, %lld, %lld], expected [%lld, %lld, %lld]", name,
                (long long)t->ne[0], (long long)t->ne[1], (long long)t->ne[2], (long long)n_in, (long long)n_out,
                (long long)(n_mat ? n_mat : 1));
        return w;
    }
    if (!quant_supported(t->type)) {
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor '%s' has type %s, which frink does not implement", name, ggml_type_name(t->type));
        return w;
    }
    w.data = t->data;
    w.type = t->type;
    w.n_in = t->ne[0];
    w.n_out = t->ne[1];
    w.n_mat = t->ne[2];
    w.row_bytes = ggml_row_size(t->type, t->ne[0]);
    w.mat_bytes = w.row_bytes * (size_t)w.n_out;
    w.name = t->name;
    snprintf(name, sizeof name, "%s.bias", base);
    if (bias_applied) w.bias = vec_take(ld, name, w.n_out * w.n_mat, false);
    w.scale = scale_take(ld, base, scale_applied, w.n_mat, &w.n_scale);
    return w;
}

// As mat_take_b, with `<base>.bias` applied when present.
struct weight mat_take(struct loader *ld, const char *base, int64_t n_in, int64_t n_out, int64_t n_mat,
                              bool required, bool scale_applied) {
    return mat_take_b(ld, base, n_in, n_out, n_mat, required, scale_applied, true);
}

// A norm weight `<base>.weight` [n] and, for LayerNorm, its optional `<base>.bias`.
const float *norm_take(struct loader *ld, const char *base, int64_t n, bool required, const float **bias) {
    char name[GGUF_MAX_NAME + 16];
    snprintf(name, sizeof name, "%s.weight", base);
    const float *w = vec_take(ld, name, n, required);
    if (bias) {
        *bias = NULL;
        snprintf(name, sizeof name, "%s.bias", base);
        if (w && (ld->m->hp.norm_kind == NORM_LAYER || ld->m->hp.rms_norm_bias)) *bias = vec_take(ld, name, n, false);
    }
    return w;
}

// ---- per-layer binding -------------------------------------------------------

static void bind_attention(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    uint64_t af = ld->m->arch->flags;
    char b[64];
    int D = hp->n_embd, d = L->head_dim, H = L->n_head, Hkv = L->n_head_kv;
    int q_out = (af & AF_GATED_ATTN) ? 2 * H * d : H * d;
    feat_set(&L->feat, LF_ATTN);
    if (af & AF_GATED_ATTN) feat_set(&L->feat, LF_ATTN_GATE);
    char qn[80];
    snprintf(qn, sizeof qn, "blk.%d.attn_q.weight", il);
    if (gguf_tensor_index(ld->f, qn) < 0) {
        snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
        L->wqkv = mat_take(ld, b, D, q_out + 2 * Hkv * d, 0, true, true);
        feat_set(&L->feat, LF_FUSED_QKV);
    } else {
        snprintf(b, sizeof b, "blk.%d.attn_q", il);
        L->wq = mat_take(ld, b, D, q_out, 0, true, true);
        snprintf(b, sizeof b, "blk.%d.attn_k", il);
        L->wk = mat_take(ld, b, D, (int64_t)Hkv * d, 0, true, true);
        snprintf(b, sizeof b, "blk.%d.attn_v", il);
        L->wv = mat_take(ld, b, D, (int64_t)Hkv * L->head_dim_v, 0, true, true);
    }
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    // (AX_WO_NO_BIAS: the family's attn_output.bias stays unread, as the reference leaves it)
    L->wo = mat_take_b(ld, b, (int64_t)H * L->head_dim_v, D, 0, true, true, !(ld->m->arch->flags2 & AX_WO_NO_BIAS));
    if (af & AF_QK_NORM) {
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, d, true);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->k_norm = vec_take(ld, b, d, true);
        feat_set(&L->feat, LF_QK_NORM);
    }
    if (af & AF_QK_NORM_FULL) {
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, (int64_t)H * d, true);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->k_norm = vec_take(ld, b, (int64_t)Hkv * d, true);
        feat_set(&L->feat, LF_QK_NORM_FULL);
    }
    snprintf(qn, sizeof qn, "blk.%d.attn_q_norm.weight", il);
    if ((af & AF_QK_LN_OPT) && gguf_tensor_index(ld->f, qn) >= 0) {
        // mpt: both q and k LayerNorms, only when the q one exists (the
        // reference ignores a lone attn_k_norm; it then stays unread).
        snprintf(b, sizeof b, "blk.%d.attn_q_norm", il);
        L->q_norm = norm_take(ld, b, (int64_t)H * d, true, &L->q_norm_b);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm", il);
        L->k_norm = norm_take(ld, b, (int64_t)Hkv * d, true, &L->k_norm_b);
        feat_set(&L->feat, LF_QK_NORM_FULL);
        feat_set(&L->feat, LF_QK_LN);
    }
    if (af & AF_SINKS) {
        snprintf(b, sizeof b, "blk.%d.attn_sinks.weight", il);
        L->attn_sinks = vec_take(ld, b, H, true);
        feat_set(&L->feat, LF_ATTN_SINKS);
    }
}

// Multi-head latent attention (deepseek2), run as the reference runs it: k_b
// absorbed into q, one shared KV head of [kv_cmpr | k_pe], v_b after attention.
static void bind_mla(struct loader *ld, struct layer *L, int il, int q_lora, int d_qk, int d_v) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    int D = hp->n_embd, H = L->n_head, r = L->n_rot, kvl = L->kv_lora;
    feat_set(&L->feat, LF_ATTN);
    feat_set(&L->feat, LF_MLA);
    L->d_nope = d_qk - r;
    L->dv_mla = d_v;
    if (q_lora > 0) {
        snprintf(b, sizeof b, "blk.%d.attn_q_a", il);
        L->wq_a = mat_take(ld, b, D, q_lora, 0, true, false);
        snprintf(b, sizeof b, "blk.%d.attn_q_a_norm.weight", il);
        L->q_a_norm = vec_take(ld, b, q_lora, true);
        snprintf(b, sizeof b, "blk.%d.attn_q_b", il);
        L->wq_b = mat_take(ld, b, q_lora, (int64_t)H * d_qk, 0, true, false);
    } else {
        snprintf(b, sizeof b, "blk.%d.attn_q", il);
        L->wq = mat_take(ld, b, D, (int64_t)H * d_qk, 0, true, false);
    }
    snprintf(b, sizeof b, "blk.%d.attn_kv_a_mqa", il);
    L->wkv_a = mat_take(ld, b, D, kvl + r, 0, true, false);
    snprintf(b, sizeof b, "blk.%d.attn_kv_a_norm.weight", il);
    L->kv_a_norm = vec_take(ld, b, kvl, true);
    snprintf(b, sizeof b, "blk.%d.attn_k_b", il);
    L->wk_b = mat_take(ld, b, L->d_nope, kvl, H, true, false);
    snprintf(b, sizeof b, "blk.%d.attn_v_b", il);
    L->wv_b = mat_take(ld, b, kvl, d_v, H, true, false);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    // (bailingmoe3 multiplies by wo alone: its `.scale` stays unread)
    L->wo = mat_take(ld, b, (int64_t)H * d_v, D, 0, true, !(ld->m->arch->flags2 & AX_KDA_SIGMOID_GATE));
    // The attention kernel sees one KV head of kv_lora + n_rot, values kv_lora wide.
    L->n_head_kv = 1;
    L->head_dim = kvl + r;
    L->head_dim_v = kvl;
    L->kq_scale = 1.0f / sqrtf((float)d_qk);
}

static void bind_gdn(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    uint64_t af = ld->m->arch->flags;
    char b[64];
    int D = hp->n_embd;
    int nk = hp->ssm_n_group, dk = hp->ssm_d_state, nv = hp->ssm_dt_rank, vdim = hp->ssm_d_inner;
    int dv = vdim / nv, C = 2 * nk * dk + vdim, Kc = hp->ssm_conv_kernel;
    bool sc = (af & AF_GDN_SCALES) != 0;
    (void)dv;
    feat_set(&L->feat, LF_GDN);
    snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
    L->ssm_qkv = mat_take(ld, b, D, C, 0, true, sc);
    snprintf(b, sizeof b, "blk.%d.attn_gate", il);
    L->ssm_gate = mat_take(ld, b, D, vdim, 0, true, sc);
    if (af & AF_GDN_BA_FUSED) {
        snprintf(b, sizeof b, "blk.%d.ssm_ba", il);
        L->ssm_ba = mat_take(ld, b, D, 2 * nv, 0, true, sc);
    } else {
        snprintf(b, sizeof b, "blk.%d.ssm_beta", il);
        L->ssm_beta = mat_take(ld, b, D, nv, 0, true, sc);
        snprintf(b, sizeof b, "blk.%d.ssm_alpha", il);
        L->ssm_alpha = mat_take(ld, b, D, nv, 0, true, sc);
    }
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.weight", il);
    L->ssm_conv1d = vec_take(ld, b, (int64_t)Kc * C, true);
    snprintf(b, sizeof b, "blk.%d.ssm_dt.bias", il);
    L->ssm_dt_b = vec_take(ld, b, nv, true);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->ssm_a = vec_take(ld, b, nv, true);
    snprintf(b, sizeof b, "blk.%d.ssm_norm.weight", il);
    L->ssm_norm = vec_take(ld, b, vdim / nv, true);
    snprintf(b, sizeof b, "blk.%d.ssm_out", il);
    L->ssm_out = mat_take(ld, b, vdim, D, 0, true, sc);
    L->rec_conv_floats = (int64_t)C * (Kc - 1);
    L->rec_ssm_floats = (int64_t)dk * vdim;
}

static void bind_ffn(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    uint64_t af = ld->m->arch->flags;
    char b[64];
    int D = hp->n_embd;
    if (L->n_expert > 0) {
        feat_set(&L->feat, LF_FFN_MOE);
        int E = L->n_expert, F = L->n_ff;
        bool es = (af & AF_EXP_SCALES) != 0, ds = es || (af & AF_EXP_DOWN_SCALE_ONLY);
        bool eb = (af & AF_MOE_BIASES) != 0;
        snprintf(b, sizeof b, "blk.%d.ffn_gate_inp", il);
        L->gate_inp = mat_take_b(ld, b, D, E, 0, true, false, eb);
        snprintf(b, sizeof b, "blk.%d.exp_probs_b.bias", il);
        if (!L->exp_probs_b) L->exp_probs_b = vec_take(ld, b, E, false); // (unless a group's binder took it)
        char gu[80];
        snprintf(gu, sizeof gu, "blk.%d.ffn_gate_up_exps.weight", il);
        if (gguf_tensor_index(ld->f, gu) >= 0) {
            snprintf(b, sizeof b, "blk.%d.ffn_gate_up_exps", il);
            L->gate_up_exps = mat_take_b(ld, b, D, 2 * F, E, true, es, eb);
            feat_set(&L->feat, LF_FFN_GATE_UP_FUSED);
        } else {
            snprintf(b, sizeof b, "blk.%d.ffn_gate_exps", il);
            L->gate_exps = mat_take_b(ld, b, D, F, E, true, es, eb);
            snprintf(b, sizeof b, "blk.%d.ffn_up_exps", il);
            L->up_exps = mat_take_b(ld, b, D, F, E, true, es, eb);
        }
        snprintf(b, sizeof b, "blk.%d.ffn_down_exps", il);
        L->down_exps = mat_take_b(ld, b, F, D, E, true, ds, eb);
        // The reference adds expert biases before any per-tensor scale.
        L->gate_exps.bias_first = L->up_exps.bias_first = L->down_exps.bias_first = L->gate_up_exps.bias_first = true;
        if ((af & AF_MOE_NORM_W) || ((af & AF_DEEPSEEK_MOE) && hp->moe_norm_w)) feat_set(&L->feat, LF_MOE_NORM_W);
        char sh[80];
        snprintf(sh, sizeof sh, "blk.%d.ffn_up_shexp.weight", il);
        if (gguf_tensor_index(ld->f, sh) >= 0) {
            bool ss = (af & AF_SHEXP_SCALES) != 0;
            feat_set(&L->feat, LF_FFN_SHEXP);
            snprintf(b, sizeof b, "blk.%d.ffn_gate_shexp", il);
            L->gate_shexp = mat_take(ld, b, D, 0, 0, true, ss);
            L->n_ff_shexp = (int)L->gate_shexp.n_out;
            snprintf(b, sizeof b, "blk.%d.ffn_up_shexp", il);
            L->up_shexp = mat_take(ld, b, D, L->n_ff_shexp, 0, true, ss);
            snprintf(b, sizeof b, "blk.%d.ffn_down_shexp", il);
            L->down_shexp = mat_take(ld, b, L->n_ff_shexp, D, 0, true, ss);
            if (af & AF_SHEXP_GATE) {
                snprintf(b, sizeof b, "blk.%d.ffn_gate_inp_shexp.weight", il);
                L->gate_inp_shexp = vec_take(ld, b, D, true);
                snprintf(L->gate_inp_shexp_name, sizeof L->gate_inp_shexp_name, "%s", b);
                feat_set(&L->feat, LF_FFN_SHEXP_GATE);
            }
        }
    } else {
        feat_set(&L->feat, LF_FFN_DENSE);
        bool fs = (af & AF_FFN_SCALES) != 0, fb = !(ld->m->arch->flags2 & AX_FFN_UNBIASED);
        char gn[80];
        snprintf(gn, sizeof gn, "blk.%d.ffn_gate.weight", il);
        char un[80];
        snprintf(un, sizeof un, "blk.%d.ffn_up.weight", il);
        const struct gguf_tensor *up = gguf_find_tensor(ld->f, un);
        // (jina-bert-v2: ungated when ffn_up has n_ff rows and no ffn_gate, as the reference decides)
        bool ungated = (af & AF_FFN_UNGATED) ||
                       ((af & AF_ENC_JINA2) && gguf_tensor_index(ld->f, gn) < 0 && up && up->n_dims >= 2 && up->ne[1] == L->n_ff);
        if (ungated) {
            feat_set(&L->feat, LF_FFN_UNGATED);
            if (af & AF_FFN_ACT_SCALES) {
                snprintf(b, sizeof b, "blk.%d.ffn.act.scales", il);
                L->ffn_act_scales = vec_take(ld, b, L->n_ff, false);
            }
        } else if (gguf_tensor_index(ld->f, gn) < 0) {
            // phi3: ffn_up is [gate rows | up rows], 2F wide.
            feat_set(&L->feat, LF_FFN_GATE_UP_FUSED);
        } else {
            snprintf(b, sizeof b, "blk.%d.ffn_gate", il);
            L->ffn_gate = mat_take_b(ld, b, D, L->n_ff, 0, true, fs, fb);
        }
        snprintf(b, sizeof b, "blk.%d.ffn_up", il);
        int64_t up_rows = feat_has(L->feat, LF_FFN_GATE_UP_FUSED) ? 2 * L->n_ff : L->n_ff;
        L->ffn_up = mat_take_b(ld, b, D, up_rows, 0, true, fs, fb);
        snprintf(b, sizeof b, "blk.%d.ffn_down", il);
        L->ffn_down = mat_take_b(ld, b, L->n_ff, D, 0, true, fs, fb);
        // The reference's FFN adds the bias before the per-tensor scale.
        L->ffn_gate.bias_first = L->ffn_up.bias_first = L->ffn_down.bias_first = true;
    }
}


static bool weight_scaled(const struct weight *w) {
    for (int i = 0; w->data && i < w->n_scale; i++)
        if (w->scale[i] != 1.0f) return true;
    return false;
}

static bool any_bias(const struct weight *const *ws, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ws[i]->data && ws[i]->bias) return true;
    return false;
}

// The layer bits that follow from what binding found (norms, biases, scales) and from the
// hparams every layer shares. Binding sets the kind bits and the ones it decides itself (fused
// layouts, q/k norms, sinks, shared experts, ...); after this, L->feat describes the layer's
// math completely: the host path reads nothing else to choose what to compute.
static void layer_features(const struct model *m, struct layer *L) {
    const struct hparams *hp = &m->hp;
    if (hp->norm_kind == NORM_LAYER) feat_set(&L->feat, LF_LAYERNORM);
    if (L->attn_norm_b || L->attn_norm_2_b || L->ffn_norm_b) feat_set(&L->feat, LF_NORM_BIAS);
    if (!L->attn_norm) feat_set(&L->feat, LF_NO_ATTN_NORM);
    if (L->attn_norm_2) feat_set(&L->feat, LF_ATTN_NORM_2);
    if (!L->ffn_norm) feat_set(&L->feat, LF_NO_FFN_NORM);
    // (a parallel block adds its branches unscaled; no parallel family reads residual_scale)
    if (hp->f_residual_scale != 0 && hp->f_residual_scale != 1 && !feat_has(L->feat, LF_PARALLEL)) feat_set(&L->feat, LF_RESIDUAL_SCALE);
    if (feat_has(L->feat, LF_ATTN)) {
        if (hp->rope_mode == ROPE_NONE) feat_set(&L->feat, LF_NO_ROPE);
        else {
            if (hp->rope_mode == ROPE_NEOX) feat_set(&L->feat, LF_ROPE_NEOX);
            if (hp->rope_ext_factor != 0) feat_set(&L->feat, LF_ROPE_YARN);
            if (m->rope_freqs) feat_set(&L->feat, LF_ROPE_FREQS);
            if (L->rope_scale != 1.0f || hp->rope_attn_factor != 1.0f) feat_set(&L->feat, LF_ROPE_SCALED);
            // (MLA rotates its separate n_rot-wide part whole)
            if (!feat_has(L->feat, LF_MLA) && L->n_rot < L->head_dim) feat_set(&L->feat, LF_ROPE_PARTIAL);
        }
        if (feat_has(L->feat, LF_MLA) && L->wq_a.data) feat_set(&L->feat, LF_MLA_Q_LORA);
    }
    if (feat_has(L->feat, LF_GDN)) {
        if (L->ssm_ba.data) feat_set(&L->feat, LF_GDN_BA_FUSED);
        if (hp->gdn_grouped_v) feat_set(&L->feat, LF_GDN_GROUPED_V);
    }
    if (hp->ffn_act == ACT_GELU) feat_set(&L->feat, LF_ACT_GELU);
    if (hp->ffn_act == ACT_SWIGLU_OAI) feat_set(&L->feat, LF_ACT_SWIGLU_OAI);
    if (L->ffn_act_scales) feat_set(&L->feat, LF_ACT_SCALES);
    if (feat_has(L->feat, LF_FFN_MOE)) {
        if (L->exp_probs_b) feat_set(&L->feat, LF_MOE_PROBS_BIAS);
        if (hp->gating == GATING_SIGMOID) feat_set(&L->feat, LF_MOE_SIGMOID);
        if (hp->gating == GATING_SOFTMAX_WEIGHT) feat_set(&L->feat, LF_MOE_SOFTMAX_K);
        if (hp->expert_groups > 1) feat_set(&L->feat, LF_MOE_GROUPS);
        if (hp->expert_weights_scale != 0 && hp->expert_weights_scale != 1) feat_set(&L->feat, LF_MOE_W_SCALE);
    }
    const struct weight *mix[] = {&L->wq, &L->wk, &L->wv, &L->wo, &L->wqkv, &L->wq_a, &L->wq_b, &L->wkv_a, &L->wk_b, &L->wv_b,
                                  &L->ssm_qkv, &L->ssm_gate, &L->ssm_beta, &L->ssm_alpha, &L->ssm_ba, &L->ssm_out};
    const struct weight *ffn[] = {&L->ffn_gate, &L->ffn_up, &L->ffn_down, &L->gate_inp, &L->gate_shexp, &L->up_shexp,
                                  &L->down_shexp, LAYER_EXPERT_MATRICES(L)};
    if (any_bias(mix, sizeof mix / sizeof mix[0])) feat_set(&L->feat, LF_ATTN_BIAS);
    if (any_bias(ffn, sizeof ffn / sizeof ffn[0])) feat_set(&L->feat, LF_FFN_BIAS);
    // The groups' derived features.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    if (feat_has(L->feat, LF_NO_FFN)) feat_clear(&L->feat, LF_NO_FFN_NORM); // (no FFN to read x)
    // <<<
    // >>> MLA and sparse-attention families
    // <<<
    // >>> chat-format and sliding-window families
    chatfam_layer_features(m, L);
    // <<<
    // >>> dense families
    dense_layer_features(m, L);
    // <<<
    // >>> MoE families
    if (L->ffn_norm_exps) feat_set(&L->feat, LF_MOE_BESIDE_DENSE);
    if (AX_MOE_FAM_IS(m->arch->flags2, AX_HUNYUAN_MOE) && feat_has(L->feat, LF_QK_NORM)) feat_set(&L->feat, LF_QK_NORM_POST_ROPE);
    if (AX_MOE_FAM_IS(m->arch->flags2, AX_SMALLTHINKER) && feat_has(L->feat, LF_FFN_MOE)) {
        feat_set(&L->feat, LF_MOE_ROUTER_IN);
        feat_set(&L->feat, LF_ACT_RELU);
    }
    if (L->moe_nope && feat_has(L->feat, LF_ATTN)) {
        const int rope_bits[] = {LF_ROPE_NEOX, LF_ROPE_YARN, LF_ROPE_FREQS, LF_ROPE_SCALED, LF_ROPE_PARTIAL};
        for (size_t i = 0; i < sizeof rope_bits / sizeof rope_bits[0]; i++) feat_clear(&L->feat, rope_bits[i]);
        feat_set(&L->feat, LF_NO_ROPE);
    }
    if ((AX_MOE_FAM_IS(m->arch->flags2, AX_MOE_NORM_KEYS) || AX_MOE_FAM_IS(m->arch->flags2, AX_HY_V3)) && hp->moe_norm_w && feat_has(L->feat, LF_FFN_MOE)) feat_set(&L->feat, LF_MOE_NORM_W);
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    if ((m->arch->flags2 & AX_HUNYUAN_VL) && feat_has(L->feat, LF_QK_NORM)) feat_set(&L->feat, LF_QK_NORM_POST_ROPE);
    if (hp->mrope_extra && feat_has(L->feat, LF_ATTN)) feat_set(&L->feat, LF_MROPE_EXTRA);
    // <<<
    const struct weight *ws[] = {LAYER_MATRICES(L), LAYER_EXPERT_MATRICES(L)};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        if (weight_scaled(ws[i])) feat_set(&L->feat, LF_WSCALE);
}

// The model bits (embedding and output), once every tensor is bound.
static void model_features(struct model *m) {
    const struct hparams *hp = &m->hp;
    if (m->arch->flags & AF_EMB_SQRT) feat_set(&m->feat, MF_EMB_SQRT);
    else if (hp->f_emb_scale != 0 && hp->f_emb_scale != 1) feat_set(&m->feat, MF_EMB_SCALE);
    if (m->pos_embd.data) feat_set(&m->feat, MF_POS_EMBD);
    // (AX_TOK_RMS_BARE, talkie: a weightless norm of the embedding)
    if (m->tok_norm || (m->arch->flags2 & AX_TOK_RMS_BARE)) feat_set(&m->feat, MF_TOK_NORM);
    if (hp->norm_kind == NORM_LAYER) feat_set(&m->feat, MF_LAYERNORM);
    if (m->output_norm_b || m->tok_norm_b) feat_set(&m->feat, MF_NORM_BIAS);
    if (m->output_bias) feat_set(&m->feat, MF_OUTPUT_BIAS);
    if (hp->f_logit_scale != 0 && hp->f_logit_scale != 1) feat_set(&m->feat, MF_LOGIT_SCALE);
    if (hp->final_softcap != 0) feat_set(&m->feat, MF_FINAL_SOFTCAP);
    if (m->output.data == m->tok_embd.data) feat_set(&m->feat, MF_TIED_OUTPUT);
    // >>> encoders
    if (m->type_row) feat_set(&m->feat, MF_TOKEN_TYPE);
    if (m->arch->flags & AF_ENCODER) feat_set(&m->feat, MF_ENCODER);
    if ((m->arch->flags & AF_ENCODER) && m->output_norm) feat_set(&m->feat, MF_ENC_OUT_NORM);
    if (m->arch->flags & AF_ENC_MODERN) feat_set(&m->feat, MF_RANK_MEAN_GELU);
    // <<<
}

// The hyperparameters of the optional features in the table (scales, softcaps,
// sliding windows, ALiBi, clamps). Each key read here is consumed, and so
// exempt from check_effect_keys; keys the reference ignores for a family are
// not read, and then refused by check_effect_keys if they declare an effect.
static void read_hparams_features(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    uint64_t af = m->arch->flags;
    hp->ffn_act = (af & AF_SWIGLU_OAI) ? ACT_SWIGLU_OAI : (af & AF_GELU) ? ACT_GELU : ACT_SILU;
    if (af & AF_GRANITE) {
        hp->f_logit_scale = (float)hp_num(ld, "logit_scale", NAN);
        hp->f_residual_scale = (float)hp_num(ld, "residual_scale", 0);
        hp->f_emb_scale = (float)hp_num(ld, "embedding_scale", 0);
        hp->f_attn_scale = (float)hp_num(ld, "attention.scale", 0);
        if (!ld->st && hp->f_logit_scale == 0) ld_fail(ld, FRINK_ERR_FORMAT, "'%s.logit_scale' is 0", ld->arch);
        // rope.scaling.finetuned is read by the reference but does not change the
        // graph of these two (measured: granitemoe's fixture says false and the
        // reference still rotates); it is not read here.
    }
    if (af & AF_EMB_SQRT) {
        // gemma: the query scale is 1/sqrt(head_dim), except the 27B models (the
        // row's q_scale_n_layer blocks) use 1/sqrt(D/H). The file's attention.scale
        // is not read by the reference; accepted only when it agrees.
        int n_big = m->arch->q_scale_n_layer;
        hp->f_attn_scale = n_big > 0 && hp->n_layer == n_big ? 1.0f / sqrtf((float)(hp->n_embd / hp->n_head)) : 1.0f / sqrtf((float)hp->head_dim);
        double fs = hp_num(ld, "attention.scale", 0);
        if (fs != 0 && fabs(fs - hp->f_attn_scale) > 1e-6 * hp->f_attn_scale)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.attention.scale' = %g differs from the scale the reference applies (%g); refusing", ld->arch, fs, hp->f_attn_scale);
    }
    if (af & AF_ATTN_SOFTCAP) hp->attn_softcap = (float)hp_num(ld, "attn_logit_softcapping", 50.0);
    if (af & AF_FINAL_SOFTCAP) hp->final_softcap = (float)hp_num(ld, "final_logit_softcapping", m->arch->final_softcap);
    if (af & AF_ALIBI_KEY) hp->alibi_max_bias = (float)hp_num(ld, "attention.max_alibi_bias", 0);
    if (af & AF_ALIBI_8) {
        // bloom: the reference hard-codes 8; a file saying otherwise is not what it computes.
        double mb = hp_num(ld, "attention.max_alibi_bias", 8);
        if (mb != 8) ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.attention.max_alibi_bias' = %g: the reference fixes 8 for '%s'", ld->arch, mb, ld->arch);
        hp->alibi_max_bias = 8;
    }
    if (af & AF_CLAMP_KQV) hp->clamp_kqv = (float)hp_num(ld, "attention.clamp_kqv", 0);
    // The groups' hyperparameters.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    if (m->arch->flags2 & (AX_MAMBA2 | AX_MAMBA2_KV0 | AX_NEMOTRON_H | AX_FALCON_H1)) mamba2_read_hparams(ld);
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    // lfm2moe reads its routing like DeepSeek's (sigmoid, leading dense blocks) but the reference
    // gives its experts no weight scale and no groups, whatever the file says: so neither here.
    if ((m->arch->flags2 & AX_SHORTCONV) && (af & AF_DEEPSEEK_MOE)) {
        hp->expert_weights_scale = 0;
        hp->expert_groups = hp->expert_groups_used = 0;
    }
    // <<<
    // >>> MLA and sparse-attention families
    if (m->arch->flags2 & AX_DSA) dsa_read_hparams(ld);
    if (m->arch->flags2 & AX_MINICPM3) minicpm3_read_hparams(ld);
    if (m->arch->flags2 & AX_KIMI_LINEAR) kda_read_hparams(ld);
    if (m->arch->flags2 & AX_MINIMAX01) mm01_read_hparams(ld);
    // <<<
    // >>> chat-format and sliding-window families
    chatfam_read_hparams(ld);
    // <<<
    // >>> dense families
    read_hparams_dense(ld);
    // <<<
    // >>> MoE families
    if AX_MOE_FAM_IS(m->arch->flags2, AX_GROK) moe_read_hparams_grok(ld);
    hp->rms_norm_bias = AX_MOE_FAM_IS(m->arch->flags2, AX_RMS_NORM_BIAS) != 0;
    if (AX_MOE_FAM_IS(m->arch->flags2, AX_GROVE)) {
        hp->grove_group_scale = (float)hp_num(ld, "expert_group_scale", NAN);
        hp->grove_per_group = hp_int(ld, "experts_per_group", NAN);
    }
    // (hy_v3 routes by sigmoid when the file leaves expert_gating_func unset)
    if (AX_MOE_FAM_IS(m->arch->flags2, AX_HY_V3) && hp->n_expert > 0 && hp_int(ld, "expert_gating_func", 0) == 0) hp->gating = GATING_SIGMOID;
    if ((AX_MOE_FAM_IS(m->arch->flags2, AX_MOE_NORM_KEYS) || AX_MOE_FAM_IS(m->arch->flags2, AX_HY_V3)) && hp->n_expert > 0) {
        hp->moe_norm_w = hp_int(ld, "expert_weights_norm", 0) != 0;
        hp->expert_weights_scale = (float)hp_num(ld, "expert_weights_scale", 0);
    }
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    uint64_t ax = m->arch->flags2;
    if ((ax & AX_POS_EMBD_REQ) && gguf_tensor_index(ld->f, "position_embd.weight") < 0)
        ld_fail(ld, FRINK_ERR_FORMAT, "required tensor 'position_embd.weight' is missing");
    if (ax & (AX_VL_MROPE | AX_VL_IMROPE)) {
        // (the reference asserts that M-RoPE rotates whole heads)
        if (hp->n_rot != hp->head_dim)
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s' rotates whole heads: rope.dimension_count %d differs from the head size %d",
                    ld->arch, hp->n_rot, hp->head_dim);
        else vlm_mrope_read(ld, hp->n_rot, (ax & AX_VL_IMROPE) != 0, (ax & AX_HUNYUAN_VL) != 0);
    }
    if (ax & AX_HUNYUAN_VL) {
        float alpha = (float)hp_num(ld, "rope.scaling.alpha", 0);
        // (the reference's float arithmetic: base * powf(alpha, d / (d - 2)))
        if (alpha > 0 && hp->head_dim > 2)
            hp->rope_base *= powf(alpha, (float)hp->head_dim / (float)(hp->head_dim - 2));
    }
    if (ax & AX_NO_EXPERTS) hp->n_expert = hp->n_expert_used = 0;
    if (ax & AX_COGVLM) vlm_cogvlm_plain_rope(ld);
    // <<<
    // >>> encoders
    // (the reference's default is causal: an encoder file that does not say false would run its
    // attention causally there, which frink's encoders do not compute)
    if ((af & AF_ENCODER) && hp_num(ld, "attention.causal", 1) != 0)
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.attention.causal' is absent or true: frink runs '%s' with non-causal attention only",
                ld->arch, ld->arch);
    // modern-bert: GeGLU unless hidden_activation names SwiGLU (the reference's names); its
    // ReLU forms are not implemented.
    const struct gguf_kv *act = (af & AF_ENC_MODERN) ? kv_take(ld, "hidden_activation") : NULL;
    if (act && act->type == GGUF_VT_STRING) {
        // (any other name: the reference falls back to GeGLU)
        if (gguf_str_eq(act->v.str, "silu") || gguf_str_eq(act->v.str, "swish") || gguf_str_eq(act->v.str, "swiglu"))
            hp->ffn_act = ACT_SILU;
        if (gguf_str_eq(act->v.str, "relu") || gguf_str_eq(act->v.str, "reglu"))
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.hidden_activation' '%.*s' (ReGLU) is not implemented", ld->arch,
                    (int)act->v.str.len, act->v.str.ptr);
    }
    // <<<
}

// Reads the hyperparameters the supported families share.
static void read_hparams(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    uint64_t af = m->arch->flags;
    hp->n_embd = hp_int(ld, "embedding_length", NAN);
    int n_total = hp_int(ld, "block_count", NAN);
    int nextn = hp_int(ld, "nextn_predict_layers", 0);
    hp->n_ctx_train = hp_int(ld, "context_length", NAN);
    if (ld->st) return;
    if (hp->n_embd <= 0 || hp->n_embd > 1 << 20) { ld_fail(ld, FRINK_ERR_FORMAT, "embedding_length %d is out of range", hp->n_embd); return; }
    if (n_total <= 0 || n_total > 512) { ld_fail(ld, FRINK_ERR_FORMAT, "block_count %d is out of range (1..512)", n_total); return; }
    if (nextn < 0 || nextn >= n_total) { ld_fail(ld, FRINK_ERR_FORMAT, "nextn_predict_layers %d is out of range", nextn); return; }
    hp->n_layer = n_total - nextn;
    hp->n_head = hp_layer_int(ld, "attention.head_count", 0, 0, n_total);
    hp->n_head_kv = hp_layer_int(ld, "attention.head_count_kv", hp->n_head, 0, n_total);
    hp->head_dim = hp_int(ld, "attention.key_length", hp->n_head ? hp->n_embd / hp->n_head : 0);
    hp->head_dim_v = hp_int(ld, "attention.value_length", hp->n_head ? hp->n_embd / hp->n_head : 0);
    hp->n_rot = hp_int(ld, "rope.dimension_count", hp->head_dim);
    hp->n_ff = hp_layer_int(ld, "feed_forward_length", 0, 0, n_total);
    hp->norm_kind = (af & AF_LAYERNORM) ? NORM_LAYER : NORM_RMS;
    hp->norm_eps = (float)hp_num(ld, (af & AF_LAYERNORM) ? "attention.layer_norm_epsilon" : "attention.layer_norm_rms_epsilon", NAN);
    hp->rope_base = (float)hp_num(ld, "rope.freq_base", 10000.0);
    hp->rope_mode = m->arch->rope_mode;
    // RoPE scaling: none, linear, and YaRN (ext_factor 1, beta_fast 32, beta_slow 1,
    // the reference's fixed values). LongRoPE is frequency factors only (phi3).
    const struct gguf_kv *rt = hp->rope_mode == ROPE_NONE ? NULL : kv_take(ld, "rope.scaling.type");
    double factor = hp->rope_mode == ROPE_NONE ? 0 : hp_num(ld, "rope.scaling.factor", 0);
    if (factor == 0 && hp->rope_mode != ROPE_NONE) factor = hp_num(ld, "rope.scale_linear", 0);
    hp->rope_freq_scale = factor > 0 ? (float)(1.0 / factor) : 1.0f;
    if (rt && rt->type == GGUF_VT_STRING) {
        bool longrope_ok = gguf_str_eq(rt->v.str, "longrope") && gguf_find_tensor(ld->f, "rope_factors_short.weight");
        if (gguf_str_eq(rt->v.str, "none")) hp->rope_freq_scale = 1.0f;
        else if (gguf_str_eq(rt->v.str, "yarn") && !(af & AF_MLA)) {
            hp->rope_ext_factor = 1.0f;
            hp->rope_n_ctx_orig = hp_int(ld, "rope.scaling.original_context_length", hp->n_ctx_train);
        } else if (!gguf_str_eq(rt->v.str, "linear") && !longrope_ok) {
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "RoPE scaling '%.*s' is not implemented for '%s'", (int)rt->v.str.len, rt->v.str.ptr, ld->arch);
            return;
        }
    }
    hp->rope_attn_factor = (float)hp_num(ld, "rope.scaling.attn_factor", 1.0);
    if (hp->rope_attn_factor == 0) hp->rope_attn_factor = 1.0f;
    hp->n_expert = hp_int(ld, "expert_count", 0);
    hp->n_expert_used = hp_layer_int(ld, "expert_used_count", 0, 0, n_total);
    if (hp->n_expert < 0 || hp->n_expert > 1024 || hp->n_expert_used < 0 || hp->n_expert_used > hp->n_expert ||
        (hp->n_expert > 0 && hp->n_expert_used == 0)) {
        ld_fail(ld, FRINK_ERR_FORMAT, "expert_count %d / expert_used_count %d are inconsistent", hp->n_expert, hp->n_expert_used);
        return;
    }
    hp->gating = (af & AF_MOE_SOFTMAX_K) ? GATING_SOFTMAX_WEIGHT : GATING_SOFTMAX;
    if (hp->n_expert > 0) {
        int g = hp_int(ld, "expert_gating_func", 0);
        bool dsk = (af & AF_DEEPSEEK_MOE) != 0;
        bool sig_ok = dsk || AX_MOE_FAM_IS(m->arch->flags2, AX_SMALLTHINKER) || AX_MOE_FAM_IS(m->arch->flags2, AX_HY_V3) ||
                      (m->arch->flags2 & (AX_GATING_KEY | AX_MOE_KEYS)) || AX_FAM_IS(m->arch->flags2, AX_MIMO2); // may route by sigmoid
        if (g != 0 && g != hp->gating && !(sig_ok && g == GATING_SIGMOID)) { ld_fail(ld, FRINK_ERR_UNSUPPORTED, "expert_gating_func %d is not implemented for '%s'", g, ld->arch); return; }
        if (g) hp->gating = g;
        int groups = hp_int(ld, "expert_group_count", 0);
        if (groups > 1 && !dsk) { ld_fail(ld, FRINK_ERR_UNSUPPORTED, "grouped expert routing (expert_group_count %d) is not implemented for '%s'", groups, ld->arch); return; }
        if (dsk) {
            hp->expert_groups = groups;
            hp->expert_groups_used = hp_int(ld, "expert_group_used_count", 0);
            if (groups > 1 && (groups > 256 || hp->n_expert % groups || hp->expert_groups_used < 1 || hp->expert_groups_used > groups)) {
                ld_fail(ld, FRINK_ERR_FORMAT, "expert groups %d / used %d do not fit %d experts", groups, hp->expert_groups_used, hp->n_expert);
                return;
            }
            hp->moe_norm_w = hp_int(ld, "expert_weights_norm", 0) != 0;
            hp->expert_weights_scale = (float)hp_num(ld, "expert_weights_scale", 0);
        }
    }
    read_hparams_features(ld);
    if (af & AF_HYBRID_GDN) {
        hp->ssm_conv_kernel = hp_int(ld, "ssm.conv_kernel", NAN);
        hp->ssm_d_state = hp_int(ld, "ssm.state_size", NAN);
        hp->ssm_n_group = hp_int(ld, "ssm.group_count", NAN);
        hp->ssm_dt_rank = hp_int(ld, "ssm.time_step_rank", NAN);
        hp->ssm_d_inner = hp_int(ld, "ssm.inner_size", NAN);
        if (ld->st) return;
        if (hp->ssm_conv_kernel < 1 || hp->ssm_conv_kernel > 16 || hp->ssm_d_state < 1 || hp->ssm_n_group < 1 ||
            hp->ssm_dt_rank < 1 || hp->ssm_dt_rank % hp->ssm_n_group || hp->ssm_d_inner % hp->ssm_dt_rank ||
            hp->ssm_d_inner / hp->ssm_dt_rank != hp->ssm_d_state) {
            ld_fail(ld, FRINK_ERR_FORMAT, "Gated DeltaNet dims are inconsistent (conv %d, state %d, groups %d, v-heads %d, inner %d)",
                    hp->ssm_conv_kernel, hp->ssm_d_state, hp->ssm_n_group, hp->ssm_dt_rank, hp->ssm_d_inner);
            return;
        }
        hp->gdn_grouped_v = (af & AF_GDN_GROUPED_V) != 0;
        if (af & AF_ROPE_SECTIONS) {
            // qwen35: dimension_sections are required; for text, IMROPE with the
            // t/h/w streams all equal to the position is plain NEOX — provided
            // every rotary pair maps to t, h or w (sections cover n_rot/2).
            const struct gguf_kv *sec = kv_take(ld, "rope.dimension_sections");
            if (!sec || sec->type != GGUF_VT_ARRAY || sec->v.arr.type == GGUF_VT_STRING || sec->v.arr.n < 3) {
                ld_fail(ld, FRINK_ERR_FORMAT, "'%s.rope.dimension_sections' is required", ld->arch);
                return;
            }
            int64_t s0 = gguf_arr_i64(sec, 0), s1 = gguf_arr_i64(sec, 1), s2 = gguf_arr_i64(sec, 2);
            // IMROPE pair j (< n_rot/2) maps to t/h/w iff j < 3*min-section rules hold; require
            // the three text sections to cover every pair.
            for (int j = 0; j < hp->n_rot / 2; j++) {
                int sect = j % (int)(s0 + s1 + s2 + (sec->v.arr.n > 3 ? gguf_arr_i64(sec, 3) : 0));
                bool thw = (sect % 3 == 0 && sect < 3 * s0) || (sect % 3 == 1 && sect < 3 * s1) || (sect % 3 == 2 && sect < 3 * s2);
                if (!thw) {
                    ld_fail(ld, FRINK_ERR_UNSUPPORTED, "rope.dimension_sections leave rotary pair %d on the extra stream: not plain text RoPE", j);
                    return;
                }
            }
        }
    }
}

// Which layers are recurrent (Gated DeltaNet): the per-layer array, else the interval rule.
bool layer_is_recurrent(struct loader *ld, int il, int n_total) {
    const struct gguf_kv *kv = kv_take(ld, "attention.recurrent_layers");
    if (kv && kv->type == GGUF_VT_ARRAY && kv->v.arr.type != GGUF_VT_STRING && kv->v.arr.n == (uint64_t)n_total)
        return gguf_arr_i64(kv, (uint64_t)il) != 0;
    if (kv && !(kv->type == GGUF_VT_ARRAY && kv->v.arr.n == (uint64_t)n_total)) {
        // A scalar (as some writers store "unset") means: use the interval.
        if (kv->type == GGUF_VT_ARRAY) ld_fail(ld, FRINK_ERR_FORMAT, "'%s.attention.recurrent_layers' must have %d entries", ld->arch, n_total);
    }
    int interval = hp_int(ld, "full_attention_interval", 4);
    if (interval <= 0) interval = 4;
    return (il + 1) % interval != 0;
}

// Which layers use the sliding window: attention.sliding_window_pattern as a
// per-layer array (non-zero = sliding) or a period P (layer L slides iff
// L % P < P-1), else the family's default period.
bool layer_is_swa(struct loader *ld, int il, int n_total) {
    const struct gguf_kv *kv = kv_take(ld, "attention.sliding_window_pattern");
    if (kv && kv->type == GGUF_VT_ARRAY) {
        if (kv->v.arr.type == GGUF_VT_STRING || kv->v.arr.n < (uint64_t)n_total) {
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.attention.sliding_window_pattern' must have %d entries", ld->arch, n_total);
            return false;
        }
        return gguf_arr_i64(kv, (uint64_t)il) != 0;
    }
    int P = kv && kv_is_num(kv) ? (int)kv_num(kv) : ld->m->arch->swa_pattern;
    // (modern-bert: the first layer of each period is the global one; a period 0 slides all)
    if (ld->m->arch->flags & AF_ENC_MODERN) return P == 0 || il % P != 0;
    return P > 1 && il % P < P - 1;
}

// An encoder's tensors outside its layers, after the embeddings: token_types (BERT's graph: its
// row 0 is added to every embedding, the reference hard-codes sentence A), the pooling the file
// asks for, a reranker's head where the family has one, cls (optional: tanh(W x + b)) and
// cls.output (W x + b), and the final norm of the families with one (eurobert, neo-bert,
// modern-bert). No vocabulary head: an output.weight stays unread, refused by name.
static frink_status bind_encoder_globals(struct loader *ld) {
    struct model *m = ld->m;
    uint64_t af = m->arch->flags;
    int D = m->hp.n_embd;
    const struct gguf_tensor *tt = (af & AF_ENC_BERT) ? gguf_find_tensor(ld->f, "token_types.weight") : NULL;
    if (tt) {
        if (tt->ne[0] != D || tt->ne[1] < 1 || tt->n_dims > 2)
            return ld_fail(ld, FRINK_ERR_FORMAT, "tensor 'token_types.weight' must be [%d, n_token_types]", D);
        m->type_row = vec_take(ld, "token_types.weight", 0, true); // (row 0 is its first D floats)
    }
    double pt = hp_num(ld, "pooling_type", -1);
    m->pooling = pt >= 0 && pt <= 4 ? (int)pt : -1;
    // (the head only where the family's reference reads one: elsewhere cls tensors stay unread;
    // jina-bert-v2's is cls alone, one row; modern-bert's pooler has no bias, then cls.norm)
    bool jina = (af & AF_ENC_JINA2) != 0, modern = (af & AF_ENC_MODERN) != 0;
    if ((af & AF_ENC_CLS) && gguf_tensor_index(ld->f, "cls.weight") >= 0)
        m->cls = mat_take_b(ld, "cls", D, jina ? 1 : D, 0, true, false, !modern);
    if ((af & AF_ENC_CLS) && !jina && gguf_tensor_index(ld->f, "cls.output.weight") >= 0)
        m->cls_out = mat_take_b(ld, "cls.output", D, 0, 0, true, false, true);
    if ((af & AF_ENC_CLS) && modern) m->cls_norm = vec_take(ld, "cls.norm.weight", D, false);
    if ((af & AF_ENC_MODERN) && m->tok_norm_b)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'token_embd_norm.bias': the reference does not add it for '%s'", ld->arch);
    // (eurobert, neo-bert, modern-bert: the last block's state through a final norm, without bias)
    if (af & (AF_ENC_OUT_NORM | AF_ENC_OUT_NORM_ENC))
        m->output_norm = norm_take(ld, (af & AF_ENC_OUT_NORM_ENC) ? "enc.output_norm" : "output_norm", D, true, NULL);
    return FRINK_OK;
}

// The tensors outside the layers: token (and position) embeddings and their norm, the output
// norm and head (or the embeddings tied to it), the RoPE frequency factors. Sets hp->n_vocab.
// Returns an error only where binding cannot go on; others wait in ld->st (the first one wins)
// while the rest of the metadata is read, as for every tensor.
static frink_status bind_globals(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    uint64_t af = m->arch->flags;
    int D = hp->n_embd;
    const struct gguf_tensor *te = gguf_find_tensor(ld->f, "token_embd.weight");
    if (!te) return ld_fail(ld, FRINK_ERR_FORMAT, "required tensor 'token_embd.weight' is missing");
    m->tok_embd = mat_take_b(ld, "token_embd", D, 0, 0, true, false, false);
    if (ld->st) return ld->st;
    hp->n_vocab = (int)m->tok_embd.n_out;
    if (af & AF_TOK_NORM) m->tok_norm = norm_take(ld, "token_embd_norm", D, true, &m->tok_norm_b);
    if ((af & AF_POS_EMBD) && gguf_tensor_index(ld->f, "position_embd.weight") >= 0)
        m->pos_embd = mat_take_b(ld, "position_embd", D, 0, 0, true, false, false);
    if (af & AF_ENCODER) return bind_encoder_globals(ld);
    // (AX_NORM_NONPARAM, olmo: no output_norm tensor, the LayerNorm has no weight)
    m->output_norm = norm_take(ld, (m->arch->flags2 & AX_OUT_NORM_TOK) ? "token_embd_norm" : "output_norm", D,
                               !(m->arch->flags2 & AX_NORM_NONPARAM), &m->output_norm_b);
    if (gguf_tensor_index(ld->f, "output.weight") >= 0 && !(af & AF_ALWAYS_TIED)) {
        m->output = mat_take_b(ld, "output", D, hp->n_vocab, 0, true, false, (af & AF_OUTPUT_BIAS) != 0);
        m->output_bias = m->output.bias;
        m->output.bias = NULL;
    } else if (af & (AF_TIED_OK | AF_ALWAYS_TIED)) {
        m->output = m->tok_embd;
    } else {
        return ld_fail(ld, FRINK_ERR_FORMAT, "required tensor 'output.weight' is missing ('%s' does not tie it to token_embd)", ld->arch);
    }
    // Embeddings: the pooling the file asks for, and the classification head of a reranker. The
    // reference reads cls.output only for qwen3 and qwen3vl (RANK: the last token's normed
    // state through it, then a softmax); elsewhere it stays unread and the file is refused by
    // name, as a head nothing applies.
    // (the reference's writer stores UNSPECIFIED, -1, as the u32 0xffffffff)
    double pt = hp_num(ld, "pooling_type", -1);
    m->pooling = pt >= 0 && pt <= 4 ? (int)pt : -1;
    if ((!strcmp(ld->arch, "qwen3") || !strcmp(ld->arch, "qwen3vl")) && gguf_tensor_index(ld->f, "cls.output.weight") >= 0)
        m->cls_out = mat_take_b(ld, "cls.output", D, 0, 0, true, false, false);
    if (hp->rope_mode != ROPE_NONE && !(m->arch->flags2 & AX_FALCON_H1)) {
        if (gguf_tensor_index(ld->f, "rope_freqs.weight") >= 0)
            m->rope_freqs = vec_take(ld, "rope_freqs.weight", hp->n_rot / 2, true);
        // LongRoPE (phi3): the short factors serve contexts up to the original
        // length, which is what frink plans for; the long ones stay unread and a
        // file that has them loads only with --allow-unread. (Known gap: the
        // reference switches to the long set when its context exceeds that.)
        if (gguf_tensor_index(ld->f, "rope_factors_short.weight") >= 0)
            m->rope_freqs = vec_take(ld, "rope_factors_short.weight", hp->n_rot / 2, true);
    }
    return FRINK_OK;
}

// What every layer's binding reads from the model-wide metadata, read once.
struct layer_plan {
    int n_total;      // trunk layers + MTP blocks (the length of per-layer arrays)
    int n_dense_lead; // DeepSeek MoE: the first layers have a dense FFN
    int q_lora, kv_lora, d_qk_mla, d_v_mla; // MLA ranks and head sizes; 0 without MLA
    int n_swa;        // sliding window; 0: none
    float swa_base;   // RoPE base of the sliding layers
    bool parallel;    // attention and FFN read the same input (parallel residual)
};

// Reads the MLA, DeepSeek MoE, sliding-window and parallel-residual metadata; like bind_globals,
// returns only the errors that stop binding.
static frink_status read_layer_plan(struct loader *ld, struct layer_plan *lp) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    uint64_t af = m->arch->flags;
    if (af & AF_DEEPSEEK_MOE) {
        lp->n_dense_lead = hp_int(ld, "leading_dense_block_count", 0);
        if (hp->n_expert > 0) hp_int(ld, "expert_shared_count", NAN);
    }
    if (m->arch->flags2 & AX_MOE_KEYS) lp->n_dense_lead = hp_int(ld, "leading_dense_block_count", 0);
    if (af & AF_MLA) {
        lp->q_lora = hp_int(ld, "attention.q_lora_rank", 0);
        lp->kv_lora = hp_int(ld, "attention.kv_lora_rank", NAN);
        lp->d_qk_mla = hp_int(ld, "attention.key_length_mla", 0);
        lp->d_v_mla = hp_int(ld, "attention.value_length_mla", 0);
        if (lp->d_qk_mla == 0 || lp->d_v_mla == 0)
            return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s' without attention.key_length_mla/value_length_mla (the MHA form with attn_kv_b) is not implemented", ld->arch);
        if (ld->st) return ld->st;
        if (lp->kv_lora <= 0 || lp->kv_lora + hp->n_rot > 1024 || lp->d_qk_mla <= hp->n_rot || lp->d_v_mla <= 0 || lp->q_lora < 0)
            return ld_fail(ld, FRINK_ERR_FORMAT, "MLA dims are inconsistent (kv_lora %d, rot %d, qk %d, v %d)", lp->kv_lora, hp->n_rot, lp->d_qk_mla, lp->d_v_mla);
    }
    lp->swa_base = hp->rope_base;
    if (af & AF_SWA) {
        lp->n_swa = hp_int(ld, "attention.sliding_window", m->arch->swa_window);
        if (lp->n_swa > 0) lp->swa_base = (float)hp_num(ld, "rope.freq_base_swa", m->arch->swa_rope_base != 0 ? m->arch->swa_rope_base : hp->rope_base);
    }
    lp->parallel = (af & AF_PARALLEL) != 0;
    if (af & AF_PARALLEL_KEY) {
        const struct gguf_kv *pk = kv_take(ld, "use_parallel_residual");
        if (!pk || !kv_is_num(pk)) return ld_fail(ld, FRINK_ERR_FORMAT, "required metadata '%s.use_parallel_residual' is missing", ld->arch);
        lp->parallel = kv_num(pk) != 0;
    }
    return FRINK_OK;
}

// Layer il's shape and switches: head counts, RoPE, the feature bits its hyperparameters
// imply, sliding window, experts and FFN width.
static void bind_layer_hparams(struct loader *ld, struct layer *L, int il, const struct layer_plan *lp) {
    struct hparams *hp = &ld->m->hp;
    uint64_t af = ld->m->arch->flags;
    int n_total = lp->n_total;
    L->n_head = hp_layer_int(ld, "attention.head_count", 0, il, n_total);
    L->n_head_kv = hp_layer_int(ld, "attention.head_count_kv", L->n_head, il, n_total);
    L->head_dim = hp->head_dim;
    L->head_dim_v = hp->head_dim_v;
    L->n_rot = hp->n_rot;
    L->rope_base = hp->rope_base;
    L->rope_scale = hp->rope_freq_scale;
    L->kq_scale = hp->f_attn_scale != 0 ? hp->f_attn_scale : 1.0f / sqrtf((float)(L->head_dim > 0 ? L->head_dim : 1));
    if (af & AF_Q_PRESCALE) feat_set(&L->feat, LF_Q_PRESCALE);
    if (hp->attn_softcap != 0) feat_set(&L->feat, LF_ATTN_SOFTCAP);
    if (hp->alibi_max_bias != 0) feat_set(&L->feat, LF_ALIBI);
    if (hp->clamp_kqv != 0) feat_set(&L->feat, LF_CLAMP_KQV);
    if (lp->parallel) feat_set(&L->feat, LF_PARALLEL);
    if (lp->n_swa > 0 && layer_is_swa(ld, il, n_total)) {
        feat_set(&L->feat, LF_SWA);
        L->swa_window = lp->n_swa;
        L->rope_base = lp->swa_base;
        if (af & AF_SWA_ROPE_UNSCALED) L->rope_scale = 1.0f;
    }
    L->n_expert = il < lp->n_dense_lead ? 0 : hp->n_expert;
    L->n_expert_used = L->n_expert ? hp_layer_int(ld, "expert_used_count", 0, il, n_total) : 0;
    L->n_ff = L->n_expert > 0 ? hp_layer_int(ld, "expert_feed_forward_length", 0, il, n_total)
                              : hp_layer_int(ld, "feed_forward_length", 0, il, n_total);
    if (L->n_expert > 0 && L->n_ff == 0) L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, n_total);
}

// Layer il's token mixer: Gated DeltaNet (a hybrid's recurrent layers), MLA, or attention.
static frink_status bind_layer_mixer(struct loader *ld, struct layer *L, int il, const struct layer_plan *lp) {
    struct model *m = ld->m;
    uint64_t af = m->arch->flags;
    const uint64_t af2 = m->arch->flags2;
    // The groups' mixers: each binds its layer and returns, or falls through.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    if (af2 & AX_FALCON_H1) {
        // falcon-h1: attention and Mamba-2 in every layer. (The reference creates attn_output.bias
        // but never adds it: the row's AX_WO_NO_BIAS leaves it unread, refused by name.)
        bind_attention(ld, L, il);
        mamba2_bind(ld, L, il);
        char ob[64];
        feat_set(&L->feat, LF_ATTN_SSM_SUM);
        snprintf(ob, sizeof ob, "blk.%d.ffn_norm", il); // (no ".weight" in this family's name)
        L->ffn_norm = vec_take(ld, ob, m->hp.n_embd, true);
        m->n_attn_layers++;
        return ld->st;
    }
    if (mamba2_layer_is_mamba(ld, L)) {
        mamba2_bind(ld, L, il);
        return ld->st;
    }
    if (af2 & AX_NEMOTRON_H) {
        // Nemotron-H: a layer with an FFN has nothing else (its FFN is its one branch); an
        // attention layer has no FFN.
        feat_set(&L->feat, LF_NO_FFN);
        if (L->n_ff > 0) {
            if (L->n_expert > 0)
                return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "layer %d: Nemotron-H routed experts (ReLU^2 experts, sigmoid routing, latent projections) are not implemented", il);
            bind_ffn(ld, L, il);
            feat_set(&L->feat, LF_FFN_MIXER);
            feat_set(&L->feat, LF_ACT_RELU2);
            return ld->st;
        }
    }
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    uint64_t ax = m->arch->flags2;
    if (ax & AX_JAMBA) {
        // jamba: a layer is MoE iff it has a router (the others a dense FFN of feed_forward_length)
        char gi[80];
        snprintf(gi, sizeof gi, "blk.%d.ffn_gate_inp.weight", il);
        if (L->n_expert > 0 && gguf_tensor_index(ld->f, gi) < 0) {
            L->n_expert = L->n_expert_used = 0;
            L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, lp->n_total);
        }
    }
    if ((ax & AX_MAMBA) || ((ax & AX_JAMBA) && L->n_head_kv == 0)) {
        bind_mamba(ld, L, il);
        if (ax & AX_MAMBA) feat_set(&L->feat, LF_NO_FFN);
        return ld->st;
    }
    if ((ax & AX_SHORTCONV) && L->n_head_kv == 0) { // (the reference's rule; recurrent_layers is not read)
        bind_shortconv(ld, L, il);
        return ld->st;
    }
    if (ax & AX_PLAMO2) {
        bind_plamo2_post_norms(ld, L, il);
        if (L->n_head_kv == 0) bind_plamo2_mamba(ld, L, il);
        else bind_plamo2_attention(ld, L, il);
        return ld->st;
    }
    if ((ax & AX_SWA_ALL_ATTN) && L->n_head_kv > 0) {
        int w = hp_int(ld, "attention.sliding_window", 0);
        if (w > 0) {
            feat_set(&L->feat, LF_SWA);
            L->swa_window = w;
        }
    }
    // <<<
    // >>> MLA and sparse-attention families
    // DeepSeek sparse attention: the indexer beside the latent attention bound below.
    if ((m->arch->flags2 & AX_DSA) && (af & AF_MLA)) dsa_bind_indexer(ld, L, il, lp->q_lora);
    if (m->arch->flags2 & AX_DOTS3) {
        // dots3note: the shared rope key's norm and the per-head output gate on every layer;
        // the sliding layers' own MLA dims.
        char b[64];
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->mla_kpe_norm = vec_take(ld, b, m->hp.n_rot, true);
        feat_set(&L->feat, LF_MLA_KPE_NORM);
        mla_bind_head_gate(ld, L, il);
        if (feat_has(L->feat, LF_SWA)) {
            if (L->n_head <= 0 || L->n_head > 1024)
                return ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: head count %d is out of range", il, L->n_head);
            L->kv_lora = m->hp.mla_kv_lora_swa;
            bind_mla(ld, L, il, lp->q_lora, m->hp.mla_dqk_swa, m->hp.mla_dv_swa);
            m->n_attn_layers++;
            return FRINK_OK;
        }
    }
    if (m->arch->flags2 & AX_MINIMAX01) {
        feat_set(&L->feat, LF_NORM_RESIDUAL);
        if (mm01_layer_is_lightning(ld, il, lp->n_total)) {
            mm01_bind_lightning(ld, L, il);
            return FRINK_OK;
        }
    }
    // bailingmoe3: the FFN's SwiGLU limits (bound with the mixer: the FFN binder is shared).
    if (m->arch->flags2 & AX_KDA_SIGMOID_GATE) ffn_bind_swiglu_limits(ld, L, il, lp->n_total);
    if ((m->arch->flags2 & AX_KIMI_LINEAR) && L->n_head_kv == 0) {
        kda_bind(ld, L, il);
        return FRINK_OK;
    }
    // bailingmoe3: the latent attention bound below, gated per head.
    if ((m->arch->flags2 & AX_KDA_SIGMOID_GATE) && (af & AF_MLA)) mla_bind_head_gate(ld, L, il);
    if (m->arch->flags2 & AX_MINICPM3) {
        minicpm3_bind(ld, L, il);
        m->n_attn_layers++;
        return FRINK_OK;
    }
    // <<<
    // >>> chat-format and sliding-window families
    if (chatfam_bind_layer(ld, L, il, lp->n_swa, lp->n_dense_lead)) return ld->st; // else the generic attention below
    // <<<
    // >>> dense families
    if (m->arch->flags2 & AX_DENSE_RULES) {
        dense_layer_adjust(ld, L, il);
        if (ld->st) return ld->st;
        if (dense_attention_untakes(m)) {
            if (!dense_attn_dims_ok(L))
                return ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: attention dims are inconsistent (heads %d, kv heads %d, head dim %d, rot %d)",
                               il, L->n_head, L->n_head_kv, L->head_dim, L->n_rot);
            bind_attention(ld, L, il);
            m->n_attn_layers++;
            dense_attention_untake(ld, L, il);
            return FRINK_OK;
        }
    }
    // <<<
    // >>> MoE families
    moe_bind_extras(ld, L, il); // binds beside the mixer, then falls through
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    if (il == 0) vlm_rope_factors(ld); // (after bind_globals took rope_freqs.weight)
    if (m->arch->flags2 & AX_COGVLM) {
        vlm_bind_cogvlm_attn(ld, L, il);
        m->n_attn_layers++;
        return FRINK_OK;
    }
    // <<<
    bool recurrent = (af & AF_HYBRID_GDN) && layer_is_recurrent(ld, il, lp->n_total);
    if (recurrent) {
        bind_gdn(ld, L, il);
        m->n_gdn_layers++;
    } else if (af & AF_MLA) {
        if (L->n_head <= 0 || L->n_head > 1024)
            return ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: head count %d is out of range", il, L->n_head);
        L->kv_lora = lp->kv_lora;
        bind_mla(ld, L, il, lp->q_lora, lp->d_qk_mla, lp->d_v_mla);
        m->n_attn_layers++;
    } else {
        if (L->n_head <= 0 || L->n_head_kv <= 0 || L->n_head % L->n_head_kv || L->head_dim <= 0 || L->head_dim > 1024 || L->head_dim_v <= 0 || L->head_dim_v > 1024 ||
            L->n_rot > L->head_dim || L->n_rot % 2)
            return ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: attention dims are inconsistent (heads %d, kv heads %d, head dim %d, rot %d)",
                           il, L->n_head, L->n_head_kv, L->head_dim, L->n_rot);
        bind_attention(ld, L, il);
        m->n_attn_layers++;
    }
    return FRINK_OK;
}

// Layer il whole, in the order its tensors are taken: hyperparameters, the pre-norms, the
// mixer, the post-norms and pre-FFN norm, the FFN; then its feature set.
static frink_status bind_layer(struct loader *ld, struct layer *L, int il, const struct layer_plan *lp) {
    struct model *m = ld->m;
    uint64_t af = m->arch->flags;
    int D = m->hp.n_embd;
    char b[64];
    bind_layer_hparams(ld, L, il, lp);
    if (!(af & AF_NO_PRE_NORM)) {
        snprintf(b, sizeof b, "blk.%d.attn_norm", il);
        // (modern-bert: layer 0's attention reads the embedding's norm alone when it has none)
        L->attn_norm = norm_take(ld, b, D, !((af & AF_ENC_MODERN) && il == 0), &L->attn_norm_b);
    }
    if (af & AF_PARALLEL) {
        snprintf(b, sizeof b, "blk.%d.attn_norm_2", il);
        L->attn_norm_2 = norm_take(ld, b, D, false, &L->attn_norm_2_b);
    }
    frink_status st = bind_layer_mixer(ld, L, il, lp);
    if (st) return st;
    if (af & AF_ENC_BERT) { // (BERT's post-norm blocks)
        snprintf(b, sizeof b, "blk.%d.attn_output_norm", il);
        L->enc_attn_out_norm = norm_take(ld, b, D, true, &L->enc_attn_out_norm_b);
        snprintf(b, sizeof b, "blk.%d.layer_output_norm", il);
        L->enc_layer_out_norm = norm_take(ld, b, D, true, &L->enc_layer_out_norm_b);
        feat_set(&L->feat, LF_POST_RESIDUAL_NORM);
    }
    snprintf(b, sizeof b, "blk.%d.attn_norm_2.weight", il);
    if ((af & AF_ENC_JINA2) && gguf_tensor_index(ld->f, b) >= 0) {
        snprintf(b, sizeof b, "blk.%d.attn_norm_2", il);
        L->enc_attn_norm_2 = norm_take(ld, b, D, true, &L->enc_attn_norm_2_b);
        feat_set(&L->feat, LF_ENC_READD_NORM);
    }
    if (af & AF_ENCODER) feat_set(&L->feat, LF_NON_CAUSAL); // (every query sees its whole input)
    // (a non-causal window is symmetric: the reference's only sliding encoder, modern-bert)
    if ((af & AF_ENCODER) && feat_has(L->feat, LF_SWA)) feat_set(&L->feat, LF_SWA_SYMMETRIC);
    // (neo-bert, modern-bert: the reference binds the fused qkv and the norms without a bias, so
    // a file's would not be added)
    if ((af & (AF_ENC_OUT_NORM_ENC | AF_ENC_MODERN)) && !L->wqkv.data)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "layer %d: '%s' reads its attention from a fused blk.%d.attn_qkv.weight only", il, ld->arch, il);
    if ((af & (AF_ENC_OUT_NORM_ENC | AF_ENC_MODERN)) && L->wqkv.bias)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'blk.%d.attn_qkv.bias': the reference does not add it for '%s'", il, ld->arch);
    if ((af & AF_ENC_MODERN) && L->attn_norm_b)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'blk.%d.attn_norm.bias': the reference does not add it for '%s'", il, ld->arch);
    if (feat_has(L->feat, LF_NO_FFN)) { // (the mixer's binder decided: mamba)
        layer_features(m, L);
        return FRINK_OK;
    }
    if (af & AF_POST_NORMS) {
        snprintf(b, sizeof b, "blk.%d.post_attention_norm.weight", il);
        L->post_attn_norm = vec_take(ld, b, D, true);
        snprintf(b, sizeof b, "blk.%d.post_ffw_norm.weight", il);
        L->post_ffn_norm = vec_take(ld, b, D, true);
        feat_set(&L->feat, LF_POST_ATTN_NORM);
        feat_set(&L->feat, LF_POST_FFN_NORM);
    }
    // The pre-FFN norm: `ffn_norm`, or `post_attention_norm` in the hybrid family
    // and gpt-oss; none in falcon (the FFN reads attn_norm's output).
    // (unless a group's binder took it under another name already)
    if (!(af & (AF_NO_PRE_NORM | AF_PARALLEL)) && !L->ffn_norm) {
        snprintf(b, sizeof b, (af & AF_FFN_NORM_PA) ? "blk.%d.post_attention_norm" : "blk.%d.ffn_norm", il);
        L->ffn_norm = norm_take(ld, b, D, true, &L->ffn_norm_b);
    }
    if (L->n_ff <= 0) return ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: feed-forward width is missing", il);
    // (the dense families: a layer whose reference graph has no FFN matrices binds none, and the
    // FFN tensors its graph never applies are given back after)
    if (!dense_ffn_bare(m, L)) bind_ffn(ld, L, il);
    // (neo-bert, modern-bert: the reference's FFN is ffn_up's [gate | up] halves alone, and it
    // adds no bias to the pre-FFN LayerNorm)
    if ((af & (AF_ENC_OUT_NORM_ENC | AF_ENC_MODERN)) && L->ffn_gate.data)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'blk.%d.ffn_gate.weight': the reference's '%s' FFN does not read it (ffn_up holds [gate | up])", il, ld->arch);
    // (jina-bert-v2: the reference adds no bias to its gate)
    if ((af & AF_ENC_JINA2) && L->ffn_gate.bias)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'blk.%d.ffn_gate.bias': the reference does not add it for '%s'", il, ld->arch);
    if ((af & AF_ENC_MODERN) && L->ffn_norm_b)
        return ld_fail(ld, FRINK_ERR_UNSUPPORTED, "tensor 'blk.%d.ffn_norm.bias': the reference does not add it for '%s'", il, ld->arch);
    if (m->arch->flags2 & AX_DENSE_RULES) dense_layer_after_ffn(ld, L, il);
    layer_features(m, L);
    return FRINK_OK;
}

static frink_status bind_model(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    read_hparams(ld);
    if (ld->st) return ld->st;
    struct layer_plan lp = {.n_total = hp->n_layer + hp_int(ld, "nextn_predict_layers", 0)};
    frink_status st = bind_globals(ld);
    if (!st) st = read_layer_plan(ld, &lp);
    if (st) return st;
    // (with ld->st set, no layer is bound below and that first error is returned)

    m->layers = calloc((size_t)hp->n_layer, sizeof *m->layers);
    if (!m->layers) return ld_fail(ld, FRINK_ERR_NOMEM, "out of memory");
    for (int il = 0; il < hp->n_layer && !ld->st; il++) {
        st = bind_layer(ld, &m->layers[il], il, &lp);
        if (st) return st;
    }
    if (ld->st) return ld->st;
    model_features(m);
    // MTP (next-token prediction) blocks after the trunk: used only for speculative
    // decoding, never by the main forward. They are named and skipped, not silently.
    for (uint64_t i = 0; i < ld->f->n_tensors; i++) {
        int blk;
        if (sscanf(ld->f->tensors[i].name, "blk.%d.", &blk) == 1 && blk >= hp->n_layer && blk < lp.n_total) ld->t_used[i] = 2;
    }
    return FRINK_OK;
}

frink_status model_load(struct gguf_file *f, const struct model_load_opts *opts, struct model **out) {
    *out = NULL;
    char arch[64];
    frink_status st = gguf_get_str(f, "general.architecture", arch, sizeof arch);
    if (st == FRINK_ERR_ARG) return frink_fail(FRINK_ERR_FORMAT, "metadata 'general.architecture' is missing: not a model file");
    if (st) return st;
    const struct arch_info *ai = arch_find(arch);
    if (!ai) return frink_fail(FRINK_ERR_UNSUPPORTED, "architecture '%s' is not implemented by frink (see `frink archs`)", arch);
    if (ai->refused) return frink_fail(FRINK_ERR_UNSUPPORTED, "architecture '%s' is refused: %s", arch, ai->refused);

    struct model *m = calloc(1, sizeof *m);
    struct loader ld = {.f = f, .m = m, .arch = ai->name};
    if (!m) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    m->arch = ai;
    m->gguf = f;
    gguf_get_str(f, "general.name", m->name, sizeof m->name);
    ld.kv_used = calloc(f->n_kv + 1, 1);
    ld.t_used = calloc(f->n_tensors + 1, 1);
    if (!ld.kv_used || !ld.t_used) {
        st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        goto done;
    }
    st = bind_model(&ld);
    if (!st) st = check_effect_keys(&ld);
    if (!st) {
        // Every tensor must have been read (or named as an MTP block).
        int n_unread = 0;
        for (uint64_t i = 0; i < f->n_tensors; i++) {
            if (ld.t_used[i]) continue;
            if (!opts || !opts->allow_unread) {
                st = frink_fail(FRINK_ERR_UNSUPPORTED,
                                "tensor '%s' is in the file but nothing in frink's '%s' model reads it; refusing rather than compute without it "
                                "(--allow-unread runs anyway, ignoring such tensors as the reference engine does)",
                                f->tensors[i].name, ai->name);
                goto done;
            }
            n_unread++;
        }
        // Kept by index (the library prints nothing: callers list them, frink_model_unread).
        if (n_unread && !(m->unread = malloc((size_t)n_unread * sizeof *m->unread))) {
            st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (uint64_t i = 0; i < f->n_tensors; i++)
            if (!ld.t_used[i]) m->unread[m->n_unread++] = (int)i;
    }
done:
    free(ld.kv_used);
    free(ld.t_used);
    if (st) {
        m->gguf = NULL; // the caller keeps the file on failure
        model_free(m);
        return st;
    }
    // Which path runs each layer (path.h); fails only for a layer no path implements.
    if ((st = path_plan(m, opts ? opts->device : NULL))) {
        m->gguf = NULL;
        model_free(m);
        return st;
    }
    // What its sequences hold (shape.h): state/ reads this, never the model.
    if ((st = model_seq_shape_build(m, &m->seq_shape))) {
        m->gguf = NULL;
        model_free(m);
        return st;
    }
    if (!(opts && opts->keep_layout)) pack_weights(m);
    *out = m;
    return FRINK_OK;
}

void model_free(struct model *m) {
    if (!m) return;
    if (m->packed_arena) munmap(m->packed_arena, m->packed_bytes);
    for (int il = 0; m->layers && il < m->hp.n_layer; il++) free(m->layers[il].path_refused);
    free(m->layers);
    free(m->unread);
    for (int i = 0; i < m->n_owned; i++) free(m->owned[i]);
    free(m->owned);
    free(m->seq_shape);
    gguf_close(m->gguf);
    free(m);
}

static uint64_t wbytes(const struct weight *w) { return w->data ? (uint64_t)w->mat_bytes * (uint64_t)(w->n_mat ? w->n_mat : 1) : 0; }

uint64_t model_weight_bytes(const struct model *m) {
    // Per decoded token: every dense weight once, routed experts only the used fraction.
    uint64_t b = wbytes(&m->output);
    for (int il = 0; il < m->hp.n_layer; il++) {
        const struct layer *L = &m->layers[il];
        const struct weight *ws[] = {LAYER_MATRICES(L)}, *xs[] = {LAYER_EXPERT_MATRICES(L)};
        for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) b += wbytes(ws[i]);
        if (L->n_expert > 0) {
            uint64_t e = 0;
            for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) e += wbytes(xs[i]);
            b += e / (uint64_t)L->n_expert * (uint64_t)L->n_expert_used;
        }
    }
    return b;
}
