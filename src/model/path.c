// path.c — the table of layer paths, the per-layer plan, and the names of the feature bits.
#include "model/path.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda.h"

// Every layer feature the host path (forward.c, attn.c, gdn.c, ffn.c) computes, one by one.
// Deliberately not "all bits": a bit added to model.h is implemented by no path, and so
// refused at load, until someone adds it here after the host path applies it.
#define HOST_FEATURES                                                                                  \
    (LF_ATTN | LF_GDN | LF_MLA | LF_FFN_DENSE | LF_FFN_MOE | LF_LAYERNORM | LF_NORM_BIAS |            \
     LF_NO_ATTN_NORM | LF_ATTN_NORM_2 | LF_NO_FFN_NORM | LF_POST_ATTN_NORM | LF_POST_FFN_NORM |         \
     LF_QK_NORM | LF_QK_NORM_FULL | LF_QK_LN | LF_ATTN_GATE | LF_ATTN_BIAS | LF_FUSED_QKV |             \
     LF_ATTN_SINKS | LF_SWA | LF_Q_PRESCALE | LF_ALIBI | LF_CLAMP_KQV | LF_ATTN_SOFTCAP |              \
     LF_MLA_Q_LORA | LF_NO_ROPE | LF_ROPE_NEOX | LF_ROPE_YARN | LF_ROPE_FREQS | LF_ROPE_SCALED |       \
     LF_ROPE_PARTIAL | LF_GDN_BA_FUSED | LF_GDN_GROUPED_V | LF_FFN_UNGATED | LF_FFN_GATE_UP_FUSED |    \
     LF_FFN_BIAS | LF_ACT_GELU | LF_ACT_SWIGLU_OAI | LF_ACT_SCALES | LF_FFN_SHEXP | LF_FFN_SHEXP_GATE | \
     LF_MOE_NORM_W | LF_MOE_PROBS_BIAS | LF_MOE_SIGMOID | LF_MOE_SOFTMAX_K | LF_MOE_GROUPS |            \
     LF_MOE_W_SCALE | LF_WSCALE | LF_PARALLEL | LF_RESIDUAL_SCALE)

// What the CUDA path implements: NOTHING yet. Its set is empty, so it refuses every layer,
// naming all of the layer's bits in path_refused, and the host path runs the layer; its run fn
// is NULL because it is never chosen. The device's matvecs exist (src/cuda/) and are checked
// against the host by scripts/device-check.sh, but no layer is wired onto them: a fused layer
// that no device has run is untested code. Each bit goes here only with its device test.
#define CUDA_FEATURES ((uint64_t)0)

// In preference order; the host path last (it accepts every layer). A fused or device path
// goes before it with the exact set it implements. The cuda entry (PATH_CUDA) takes part in a
// plan only when the model's device is cuda (its params, else FRINK_DEVICE) and is present.
enum { PATH_CUDA = 0 };
static const struct layer_path paths[] = {
    [PATH_CUDA] = {"cuda", CUDA_FEATURES, NULL},
    {"host", HOST_FEATURES, NULL},
};

#define N_PATHS ((int)(sizeof paths / sizeof paths[0]))

const struct layer_path *path_at(int i) { return i >= 0 && i < N_PATHS ? &paths[i] : NULL; }

const struct layer_path *path_host(void) { return &paths[N_PATHS - 1]; }

// ---- names ------------------------------------------------------------------------

struct bit_name {
    uint64_t bit;
    const char *name;
};

static const struct bit_name layer_names[] = {
    {LF_ATTN, "attn"},
    {LF_GDN, "gdn"},
    {LF_MLA, "mla"},
    {LF_FFN_DENSE, "ffn_dense"},
    {LF_FFN_MOE, "ffn_moe"},
    {LF_LAYERNORM, "layernorm"},
    {LF_NORM_BIAS, "norm_bias"},
    {LF_NO_ATTN_NORM, "no_attn_norm"},
    {LF_ATTN_NORM_2, "attn_norm_2"},
    {LF_NO_FFN_NORM, "no_ffn_norm"},
    {LF_POST_ATTN_NORM, "post_attn_norm"},
    {LF_POST_FFN_NORM, "post_ffn_norm"},
    {LF_QK_NORM, "qk_norm"},
    {LF_QK_NORM_FULL, "qk_norm_full"},
    {LF_QK_LN, "qk_ln"},
    {LF_ATTN_GATE, "attn_gate"},
    {LF_ATTN_BIAS, "attn_bias"},
    {LF_FUSED_QKV, "fused_qkv"},
    {LF_ATTN_SINKS, "attn_sinks"},
    {LF_SWA, "swa"},
    {LF_Q_PRESCALE, "q_prescale"},
    {LF_ALIBI, "alibi"},
    {LF_CLAMP_KQV, "clamp_kqv"},
    {LF_ATTN_SOFTCAP, "attn_softcap"},
    {LF_MLA_Q_LORA, "mla_q_lora"},
    {LF_NO_ROPE, "no_rope"},
    {LF_ROPE_NEOX, "rope_neox"},
    {LF_ROPE_YARN, "rope_yarn"},
    {LF_ROPE_FREQS, "rope_freqs"},
    {LF_ROPE_SCALED, "rope_scaled"},
    {LF_ROPE_PARTIAL, "rope_partial"},
    {LF_GDN_BA_FUSED, "gdn_ba_fused"},
    {LF_GDN_GROUPED_V, "gdn_grouped_v"},
    {LF_FFN_UNGATED, "ffn_ungated"},
    {LF_FFN_GATE_UP_FUSED, "ffn_gate_up_fused"},
    {LF_FFN_BIAS, "ffn_bias"},
    {LF_ACT_GELU, "act_gelu"},
    {LF_ACT_SWIGLU_OAI, "act_swiglu_oai"},
    {LF_ACT_SCALES, "act_scales"},
    {LF_FFN_SHEXP, "ffn_shexp"},
    {LF_FFN_SHEXP_GATE, "ffn_shexp_gate"},
    {LF_MOE_NORM_W, "moe_norm_w"},
    {LF_MOE_PROBS_BIAS, "moe_probs_bias"},
    {LF_MOE_SIGMOID, "moe_sigmoid"},
    {LF_MOE_SOFTMAX_K, "moe_softmax_k"},
    {LF_MOE_GROUPS, "moe_groups"},
    {LF_MOE_W_SCALE, "moe_w_scale"},
    {LF_WSCALE, "wscale"},
    {LF_PARALLEL, "parallel"},
    {LF_RESIDUAL_SCALE, "residual_scale"},
};

static const struct bit_name model_names[] = {
    {MF_EMB_SQRT, "emb_sqrt"},
    {MF_EMB_SCALE, "emb_scale"},
    {MF_POS_EMBD, "pos_embd"},
    {MF_TOK_NORM, "tok_norm"},
    {MF_LAYERNORM, "layernorm"},
    {MF_NORM_BIAS, "norm_bias"},
    {MF_OUTPUT_BIAS, "output_bias"},
    {MF_LOGIT_SCALE, "logit_scale"},
    {MF_FINAL_SOFTCAP, "final_softcap"},
    {MF_TIED_OUTPUT, "tied_output"},
};

static const char *bit_name(const struct bit_name *t, size_t n, uint64_t bit) {
    for (size_t i = 0; i < n; i++)
        if (t[i].bit == bit) return t[i].name;
    return NULL;
}

static size_t bits_str(const struct bit_name *t, size_t n, uint64_t feat, char *buf, size_t cap) {
    size_t len = 0;
    if (cap) buf[0] = 0;
    for (int b = 0; b < 64; b++) {
        uint64_t bit = (uint64_t)1 << b;
        if (!(feat & bit)) continue;
        const char *name = bit_name(t, n, bit);
        char tmp[16];
        if (!name) {
            snprintf(tmp, sizeof tmp, "bit%d", b);
            name = tmp;
        }
        int k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "%s%s", len ? " " : "", name);
        len += (size_t)k;
    }
    return len;
}

const char *path_feature_name(uint64_t bit) { return bit_name(layer_names, sizeof layer_names / sizeof layer_names[0], bit); }

size_t path_features_str(uint64_t feat, char *buf, size_t cap) {
    return bits_str(layer_names, sizeof layer_names / sizeof layer_names[0], feat, buf, cap);
}

const char *path_model_feature_name(uint64_t bit) { return bit_name(model_names, sizeof model_names / sizeof model_names[0], bit); }

size_t path_model_features_str(uint64_t feat, char *buf, size_t cap) {
    return bits_str(model_names, sizeof model_names / sizeof model_names[0], feat, buf, cap);
}

const char *path_kind_name(const struct layer *L) {
    if (L->feat & LF_GDN) return "gdn";
    if (L->feat & LF_MLA) return "mla";
    return "attention";
}

// ---- the plan ------------------------------------------------------------------------

// A growing string; nomem once an allocation failed.
struct sbuf {
    char *p;
    size_t len, cap;
    bool nomem;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *sb, const char *fmt, ...) {
    if (sb->nomem) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (sb->len + (size_t)k + 1 > sb->cap) {
        size_t cap = (sb->len + (size_t)k + 1) * 2;
        char *p = realloc(sb->p, cap);
        if (!p) {
            sb->nomem = true;
            return;
        }
        sb->p = p;
        sb->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(sb->p + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    sb->len += (size_t)k;
}

// Appends "name: missing a b" for a refusing path.
static void sb_refusal(struct sbuf *sb, const struct layer_path *p, uint64_t missing) {
    size_t need = path_features_str(missing, NULL, 0) + 1;
    char *names = malloc(need);
    if (!names) {
        sb->nomem = true;
        return;
    }
    path_features_str(missing, names, need);
    sb_printf(sb, "%s%s: missing %s", sb->len ? "; " : "", p->name, names);
    free(names);
}

frink_status path_plan_with(struct model *m, const struct layer_path *ps, int n) {
    for (int il = 0; il < m->hp.n_layer; il++) {
        struct layer *L = &m->layers[il];
        free(L->path_refused);
        L->path_refused = NULL;
        L->path = NULL;
        struct sbuf sb = {0};
        for (int i = 0; i < n && !L->path; i++) {
            uint64_t missing = path_missing(&ps[i], L);
            if (missing) sb_refusal(&sb, &ps[i], missing);
            else L->path = &ps[i];
        }
        if (sb.nomem) {
            free(sb.p);
            L->path = NULL;
            return frink_fail(FRINK_ERR_NOMEM, "out of memory");
        }
        L->path_refused = sb.p;
        if (!L->path)
            return frink_fail(FRINK_ERR_UNSUPPORTED, "layer %d (%s): no path implements it (%s)", il, path_kind_name(L),
                              sb.p ? sb.p : "no paths");
    }
    return FRINK_OK;
}

frink_status path_plan(struct model *m, const char *device) {
    char err[256];
    int cuda = device ? cuda_parse_device(device, err, sizeof err) : cuda_plan_device(err, sizeof err);
    if (cuda < 0) return frink_fail(cuda == -2 ? FRINK_ERR_ARG : FRINK_ERR_UNSUPPORTED, "%s", err);
    m->on_cuda = cuda == 1;
    const int first = cuda ? PATH_CUDA : PATH_CUDA + 1;
    return path_plan_with(m, paths + first, N_PATHS - first);
}
