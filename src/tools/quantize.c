// quantize.c — frink_quantize: a GGUF of F32/F16/BF16 weights into a quantized GGUF, byte for
// byte the file llama.cpp's llama_model_quantize writes for the same input and options.
//
// What "the same file" takes, in the order the reference does it:
//   1. tensors in the reference loader's order: by layer number (blk.N.; others first), then by
//      name (strcmp), whatever the input's order;
//   2. each weight's type from the ftype's mix (qz_mix_type: its per-role rules, the counters of
//      attn_v / ffn_down tensors seen so far, the layer of MoE tensors read from the name), then
//      the fallback for rows that are not a multiple of the type's block;
//   3. metadata: the input's keys in order, less general.quantization_version, general.file_type
//      and the split.* keys, then general.quantization_version = 2 and general.file_type = ftype,
//      both u32; GGUF v3, alignment 32 whatever general.alignment says (the reference's writer
//      does not read that key back), one-dimensional shapes for trailing 1s;
//   4. each tensor's data padded with zeros to 32 bytes.
// The file is written to a temporary name beside OUT and renamed over it when complete, so a
// failure never leaves a partial OUT.
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/gguf.h"
#include "core/pool.h"
#include "frink.h"
#include "quant/quant.h"
#include "quant/quantize.h"
#include "quant/types.h"

#define QZ_ALIGN 32
#define QZ_QNT_VERSION 2

// ---- file types --------------------------------------------------------------------------------

// llama_ftype values and the tensor type each defaults to. The mixes (qz_mix_type) refine it.
enum qz_ftype {
    QZ_F32 = 0, QZ_F16 = 1, QZ_Q4_0 = 2, QZ_Q4_1 = 3, QZ_Q8_0 = 7, QZ_Q5_0 = 8, QZ_Q5_1 = 9,
    QZ_Q2_K = 10, QZ_Q3_K_S = 11, QZ_Q3_K_M = 12, QZ_Q3_K_L = 13, QZ_Q4_K_S = 14, QZ_Q4_K_M = 15,
    QZ_Q5_K_S = 16, QZ_Q5_K_M = 17, QZ_Q6_K = 18, QZ_IQ4_NL = 25, QZ_IQ4_XS = 30, QZ_BF16 = 32,
    QZ_MXFP4_MOE = 38,
};

static const struct {
    const char *name;
    int ftype;
    uint32_t type;
} qz_ftypes[] = {
    {"Q4_0", QZ_Q4_0, GGML_TYPE_Q4_0},     {"Q4_1", QZ_Q4_1, GGML_TYPE_Q4_1},
    {"Q5_0", QZ_Q5_0, GGML_TYPE_Q5_0},     {"Q5_1", QZ_Q5_1, GGML_TYPE_Q5_1},
    {"Q8_0", QZ_Q8_0, GGML_TYPE_Q8_0},     {"Q2_K", QZ_Q2_K, GGML_TYPE_Q2_K},
    {"Q3_K_S", QZ_Q3_K_S, GGML_TYPE_Q3_K}, {"Q3_K_M", QZ_Q3_K_M, GGML_TYPE_Q3_K},
    {"Q3_K_L", QZ_Q3_K_L, GGML_TYPE_Q3_K}, {"Q4_K_S", QZ_Q4_K_S, GGML_TYPE_Q4_K},
    {"Q4_K_M", QZ_Q4_K_M, GGML_TYPE_Q4_K}, {"Q5_K_S", QZ_Q5_K_S, GGML_TYPE_Q5_K},
    {"Q5_K_M", QZ_Q5_K_M, GGML_TYPE_Q5_K}, {"Q6_K", QZ_Q6_K, GGML_TYPE_Q6_K},
    {"IQ4_NL", QZ_IQ4_NL, GGML_TYPE_IQ4_NL}, {"IQ4_XS", QZ_IQ4_XS, GGML_TYPE_IQ4_XS},
    {"MXFP4_MOE", QZ_MXFP4_MOE, GGML_TYPE_MXFP4},
    {"F16", QZ_F16, GGML_TYPE_F16},        {"BF16", QZ_BF16, GGML_TYPE_BF16},
    {"F32", QZ_F32, GGML_TYPE_F32},
};
#define QZ_N_FTYPES (int)(sizeof qz_ftypes / sizeof *qz_ftypes)

// The reference's other ftypes, refused by name.
static const char *const qz_refused[] = {"Q2_K_S", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ3_XXS", "IQ3_XS",
                                         "IQ3_S", "IQ3_M", "IQ1_S", "IQ1_M", "TQ1_0",
                                         "TQ2_0", "NVFP4", "Q1_0", "Q2_0", "Q4_K", "Q5_K", "Q3_K",
                                         NULL};

const char *frink_quantize_ftype_name(int i) { return i >= 0 && i < QZ_N_FTYPES ? qz_ftypes[i].name : NULL; }

static bool qz_is_quantized(uint32_t t) { return t != GGML_TYPE_F32 && t != GGML_TYPE_F16 && t != GGML_TYPE_BF16; }

// A tensor type by name (case-insensitive), for the per-tensor overrides; only the types
// quantize_rows writes. UINT32_MAX when unknown.
static uint32_t qz_type_by_name(const char *s) {
    for (uint32_t t = 0; t < GGML_TYPE_COUNT; t++) {
        const struct ggml_type_geom *g = ggml_type_geom(t);
        if (g && !strcasecmp(g->name, s)) return t;
    }
    return UINT32_MAX;
}

// ---- the model facts the mixes read ------------------------------------------------------------

struct qz_model {
    char arch[64];
    int n_layer;      // block_count
    int n_expert;     // expert_count (0 when absent)
    int n_gqa;        // head_count / head_count_kv of layer 0 (0 when head_count_kv is 0)
    bool falcon;
    bool bailingmoe3;
    bool is_70b;      // the reference's LLM_TYPE_70B: one rule of the attn_v mix reads it
};

// The value of `key` as an integer: a scalar, or element 0 of an array (per-layer counts).
static bool qz_kv_int0(const struct gguf_file *f, const char *key, int64_t *out) {
    const struct gguf_kv *kv = gguf_find(f, key);
    if (!kv) return false;
    if (kv->type == GGUF_VT_ARRAY) {
        if (kv->v.arr.n == 0 || kv->v.arr.type == GGUF_VT_STRING) return false;
        *out = gguf_arr_i64(kv, 0);
        return true;
    }
    return gguf_get_i64(f, key, out) == FRINK_OK;
}

static frink_status qz_model_read(const struct gguf_file *f, struct qz_model *m) {
    memset(m, 0, sizeof *m);
    if (gguf_get_str(f, "general.architecture", m->arch, sizeof m->arch) != FRINK_OK)
        return frink_fail(FRINK_ERR_FORMAT, "no general.architecture");
    char key[128];
    int64_t v = 0;
    snprintf(key, sizeof key, "%s.block_count", m->arch);
    if (!qz_kv_int0(f, key, &v) || v < 1 || v > 4096) return frink_fail(FRINK_ERR_FORMAT, "no usable %s", key);
    m->n_layer = (int)v;
    snprintf(key, sizeof key, "%s.expert_count", m->arch);
    if (qz_kv_int0(f, key, &v)) m->n_expert = (int)v;
    int64_t n_head = 0, n_head_kv;
    snprintf(key, sizeof key, "%s.attention.head_count", m->arch);
    qz_kv_int0(f, key, &n_head);
    n_head_kv = n_head;
    snprintf(key, sizeof key, "%s.attention.head_count_kv", m->arch);
    qz_kv_int0(f, key, &n_head_kv);
    m->n_gqa = n_head_kv ? (int)(n_head / n_head_kv) : 0;
    m->falcon = !strcmp(m->arch, "falcon");
    m->bailingmoe3 = !strcmp(m->arch, "bailingmoe3");
    // Which architectures and depths the reference's loader calls 70B.
    m->is_70b = (!strcmp(m->arch, "llama") && m->n_layer == 80 && n_head != n_head_kv) ||
                ((!strcmp(m->arch, "qwen2") || !strcmp(m->arch, "deci") || !strcmp(m->arch, "olmo")) &&
                 m->n_layer == 80) ||
                (!strcmp(m->arch, "jais2") && m->n_layer == 68);
    return FRINK_OK;
}

// ---- which tensors are quantized, and to what --------------------------------------------------

enum qz_role {
    QZ_OTHER, QZ_OUTPUT, QZ_TOKEN_EMBD, QZ_ATTN_QKV, QZ_ATTN_KV_B, QZ_ATTN_V, QZ_ATTN_K, QZ_ATTN_Q,
    QZ_ATTN_OUTPUT, QZ_FFN_UP, QZ_FFN_GATE, QZ_FFN_DOWN,
};

// The role a name plays in the mixes: whole names for the embeddings, then the first
// substring that matches, in this order (so "ffn_gate_inp" is an FFN_GATE; it is never
// quantized anyway).
static enum qz_role qz_role_of(const char *name) {
    static const struct {
        const char *part;
        enum qz_role role;
    } parts[] = {
        {"attn_qkv.weight", QZ_ATTN_QKV}, {"attn_kv_b.weight", QZ_ATTN_KV_B}, {"attn_v.weight", QZ_ATTN_V},
        {"attn_k.weight", QZ_ATTN_K},     {"attn_q.weight", QZ_ATTN_Q},       {"attn_output.weight", QZ_ATTN_OUTPUT},
        {"ffn_up", QZ_FFN_UP},            {"ffn_gate", QZ_FFN_GATE},          {"ffn_down", QZ_FFN_DOWN},
    };
    if (!strcmp(name, "output.weight")) return QZ_OUTPUT;
    if (!strcmp(name, "token_embd.weight") || !strcmp(name, "per_layer_token_embd.weight")) return QZ_TOKEN_EMBD;
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        if (strstr(name, parts[i].part)) return parts[i].role;
    return QZ_OTHER;
}

static bool qz_role_is_attn_v(enum qz_role r) { return r == QZ_ATTN_V || r == QZ_ATTN_QKV || r == QZ_ATTN_KV_B; }

static int qz_n_dims(const struct gguf_tensor *t) {
    for (int i = GGUF_MAX_DIMS - 1; i >= 1; --i)
        if (t->ne[i] > 1) return i + 1;
    return 1;
}

// Whether the reference quantizes this tensor at all: 2-D and up, named *weight, and none of
// the small or special tensors it keeps as they are.
static bool qz_allows(const struct gguf_tensor *t, bool quantize_output) {
    static const char *const keep[] = {
        "_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel",
        "per_layer_model_proj", "ssm_conv1d", "shortconv.conv.weight", "indexer.k_proj.weight",
        "indexer.q_proj.weight", "time_mix_first.weight", "time_mix_w0.weight", "time_mix_w1.weight",
        "time_mix_w2.weight", "time_mix_v0.weight", "time_mix_v1.weight", "time_mix_v2.weight",
        "time_mix_a0.weight", "time_mix_a1.weight", "time_mix_a2.weight", "time_mix_g1.weight",
        "time_mix_g2.weight", "time_mix_decay_w1.weight", "time_mix_decay_w2.weight",
        "time_mix_lerp_fused.weight", "attn_rel_b.weight", ".position_embd", "sam.pos_embd", "sam.neck.",
        "sam.net_", ".rel_pos", ".patch_embd", ".patch_merger", "a.rvq.codebook", "mm.a.code_embd",
    };
    if (qz_n_dims(t) < 2) return false;
    size_t len = strlen(t->name);
    if (len < 6 || strcmp(t->name + len - 6, "weight")) return false;
    if (!quantize_output && !strcmp(t->name, "output.weight")) return false;
    // (the reference names these two through its per-architecture tensor table; every
    // architecture that has them uses these names)
    if (!strcmp(t->name, "position_embd.weight") || !strcmp(t->name, "token_types.weight")) return false;
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
        if (strstr(t->name, keep[i])) return false;
    return true;
}

struct qz_state {
    const struct qz_model *m;
    int ftype;
    bool has_tied_embeddings;
    int n_attention_wv, i_attention_wv;
    int n_ffn_down, i_ffn_down, i_ffn_gate, i_ffn_up;
    int n_fallback;
    uint32_t output_type, token_embd_type; // UINT32_MAX: the mix decides
    bool has_imatrix;
};

static bool qz_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// The layer of an FFN tensor: the counter, or for MoE models (whose expert tensors need not
// come in layer order) the number in the name.
static frink_status qz_layer(const struct qz_state *s, int counter, const char *name, int *il) {
    *il = counter;
    if (s->m->n_expert > 1) {
        if (sscanf(name, "blk.%d.", il) != 1) return frink_fail(FRINK_ERR_FORMAT, "no layer number in tensor %s", name);
        if (*il < 0 || *il >= s->m->n_layer)
            return frink_fail(FRINK_ERR_FORMAT, "layer %d of tensor %s is not in [0, %d)", *il, name, s->m->n_layer);
    }
    return FRINK_OK;
}

// The mix: the reference's per-role rules for the ftypes frink writes (the rules of the
// 1-3-bit IQ and ternary ftypes are left out with those ftypes). t is the default type of the ftype.
static frink_status qz_mix_type(struct qz_state *s, const struct gguf_tensor *tn, enum qz_role role, uint32_t *type) {
    const int ft = s->ftype;
    const struct qz_model *m = s->m;
    uint32_t t = *type;
    int il;
    const bool iq4 = ft == QZ_IQ4_NL || ft == QZ_IQ4_XS;
    if (role == QZ_OUTPUT || (s->has_tied_embeddings && role == QZ_TOKEN_EMBD)) {
        if (s->output_type != UINT32_MAX) t = s->output_type;
        else if (ft == QZ_MXFP4_MOE) t = GGML_TYPE_Q8_0;
        else if (m->falcon || tn->ne[0] % ggml_type_geom(t)->blck != 0) t = GGML_TYPE_Q8_0;
        else if (t != GGML_TYPE_Q8_0) t = GGML_TYPE_Q6_K;
    } else if (ft == QZ_MXFP4_MOE) {
        // expert tensors (3-D) MXFP4, everything else Q8_0; bailingmoe3's MLA projections are
        // 3-D too, so there only the FFN roles count
        bool expert_role = role == QZ_FFN_UP || role == QZ_FFN_GATE || role == QZ_FFN_DOWN;
        t = tn->ne[2] > 1 && (!m->bailingmoe3 || expert_role) ? GGML_TYPE_MXFP4 : GGML_TYPE_Q8_0;
    } else if (role == QZ_TOKEN_EMBD) {
        if (s->token_embd_type != UINT32_MAX) t = s->token_embd_type;
    } else if (qz_role_is_attn_v(role)) {
        if (ft == QZ_Q2_K) t = m->n_gqa >= 4 ? GGML_TYPE_Q4_K : GGML_TYPE_Q3_K;
        else if (ft == QZ_Q3_K_M) t = s->i_attention_wv < 2 ? GGML_TYPE_Q5_K : GGML_TYPE_Q4_K;
        else if (ft == QZ_Q3_K_L) t = GGML_TYPE_Q5_K;
        else if (iq4 && m->n_gqa >= 4) t = GGML_TYPE_Q5_K;
        else if ((ft == QZ_Q4_K_M || ft == QZ_Q5_K_M) && qz_more_bits(s->i_attention_wv, s->n_attention_wv))
            t = GGML_TYPE_Q6_K;
        else if (ft == QZ_Q4_K_S && s->i_attention_wv < 4) t = GGML_TYPE_Q5_K;
        if (m->is_70b && (t == GGML_TYPE_Q3_K || t == GGML_TYPE_Q4_K)) t = GGML_TYPE_Q5_K;
        if (m->n_expert == 8) t = GGML_TYPE_Q8_0;
        ++s->i_attention_wv;
    } else if (role == QZ_ATTN_K) {
        if (m->n_expert == 8) t = GGML_TYPE_Q8_0;
    } else if (role == QZ_ATTN_Q) {
        // (only the IQ3 mixes change it)
    } else if (role == QZ_FFN_DOWN) {
        frink_status st = qz_layer(s, s->i_ffn_down, tn->name, &il);
        if (st) return st;
        const int n = s->n_ffn_down;
        if (ft == QZ_Q2_K) t = GGML_TYPE_Q3_K;
        else if (ft == QZ_Q3_K_M)
            t = il < n / 16 ? GGML_TYPE_Q5_K : !m->falcon || qz_more_bits(il, n) ? GGML_TYPE_Q4_K : GGML_TYPE_Q3_K;
        else if (ft == QZ_Q3_K_L) t = m->falcon ? GGML_TYPE_Q4_K : GGML_TYPE_Q5_K;
        else if (ft == QZ_Q4_K_M) {
            if (m->falcon) t = il < n / 16 ? GGML_TYPE_Q6_K : qz_more_bits(il, n) ? GGML_TYPE_Q5_K : GGML_TYPE_Q4_K;
            else if (qz_more_bits(il, n)) t = GGML_TYPE_Q6_K;
        } else if (il < n / 8 && iq4 && !s->has_imatrix) t = GGML_TYPE_Q5_K;
        else if (ft == QZ_Q5_K_M && qz_more_bits(il, n)) t = GGML_TYPE_Q6_K;
        else if (ft == QZ_Q4_K_S && !m->falcon && il < n / 8) t = GGML_TYPE_Q5_K;
        else if ((ft == QZ_Q4_0 || ft == QZ_Q5_0) && s->has_imatrix && il < n / 8)
            t = ft == QZ_Q4_0 ? GGML_TYPE_Q4_1 : GGML_TYPE_Q5_1; // (the first ffn_down layers misbehave)
        ++s->i_ffn_down;
    } else if (role == QZ_ATTN_OUTPUT) {
        if (!m->falcon) {
            if (m->n_expert == 8) {
                if (ft == QZ_Q2_K || ft == QZ_Q3_K_S || ft == QZ_Q3_K_M || ft == QZ_Q4_K_S || ft == QZ_Q4_K_M || iq4)
                    t = GGML_TYPE_Q5_K;
            } else {
                if (ft == QZ_Q2_K) t = GGML_TYPE_Q3_K;
                else if (ft == QZ_Q3_K_M) t = GGML_TYPE_Q4_K;
                else if (ft == QZ_Q3_K_L) t = GGML_TYPE_Q5_K;
            }
        } else if (ft == QZ_Q3_K_L) {
            t = GGML_TYPE_Q4_K;
        }
    } else if (role == QZ_FFN_GATE || role == QZ_FFN_UP) {
        // (only the IQ3_XS mix changes them; the layer is still checked)
        int *ctr = role == QZ_FFN_GATE ? &s->i_ffn_gate : &s->i_ffn_up;
        frink_status st = qz_layer(s, *ctr, tn->name, &il);
        if (st) return st;
        ++*ctr;
    }
    *type = t;
    return FRINK_OK;
}

// Rows that are not a multiple of the type's block take a type with smaller blocks, or F16.
static uint32_t qz_fallback(struct qz_state *s, const struct gguf_tensor *tn, uint32_t t) {
    int64_t ncols = tn->ne[0];
    int blck = ggml_type_geom(t)->blck;
    if (ncols % blck == 0) return t;
    ++s->n_fallback;
    uint32_t r = t;
    switch (t) {
    case GGML_TYPE_Q2_K:
    case GGML_TYPE_Q3_K: r = GGML_TYPE_Q4_0; break;
    case GGML_TYPE_Q4_K: r = GGML_TYPE_Q5_0; break;
    case GGML_TYPE_Q5_K: r = GGML_TYPE_Q5_1; break;
    case GGML_TYPE_Q6_K: r = GGML_TYPE_Q8_0; break;
    case GGML_TYPE_IQ4_XS: r = GGML_TYPE_IQ4_NL; break;
    default: break; // 32-element types: F16 below
    }
    if (ncols % ggml_type_geom(r)->blck != 0) r = GGML_TYPE_F16;
    return r;
}

// ---- tensor order --------------------------------------------------------------------------------

static int qz_layer_of(const char *name) {
    int l = -1;
    if (sscanf(name, "blk.%d.", &l) != 1) l = -1;
    return l;
}

static int qz_cmp(const void *a, const void *b, void *file) {
    const struct gguf_file *f = file;
    const struct gguf_tensor *x = &f->tensors[*(const uint32_t *)a];
    const struct gguf_tensor *y = &f->tensors[*(const uint32_t *)b];
    int lx = qz_layer_of(x->name), ly = qz_layer_of(y->name);
    if (lx != ly) return lx < ly ? -1 : 1;
    return strcmp(x->name, y->name);
}

// ---- importance matrices ------------------------------------------------------------------------
// The GGUF imatrix format llama-imatrix writes: per weight NAME, tensors NAME.in_sum2 (F32, the
// sums of squared activations, ne0 per expert) and NAME.counts (F32, the tokens per expert),
// and the keys imatrix.datasets, imatrix.chunk_count, imatrix.chunk_size. llama-quantize divides
// each expert's sums by its (rounded) count, 1 where the count is 0, and notes the file in the
// output's metadata (qz_header).

struct qz_imatrix_entry {
    char name[GGUF_MAX_NAME];
    float *v;   // [n]: n_expert rows of ne0
    int64_t n;
};

struct qz_imatrix {
    struct qz_imatrix_entry *e;
    int n;
    uint32_t chunk_count;
    char dataset[128];  // datasets[0], cut to 127 bytes as the reference does ("" when none)
    char file[128];     // the path given, cut to 127 bytes
};

static void qz_imatrix_free(struct qz_imatrix *im) {
    for (int i = 0; i < im->n; i++) free(im->e[i].v);
    free(im->e);
    memset(im, 0, sizeof *im);
}

static int qz_imatrix_cmp(const void *a, const void *b) {
    return strcmp(((const struct qz_imatrix_entry *)a)->name, ((const struct qz_imatrix_entry *)b)->name);
}

static const struct qz_imatrix_entry *qz_imatrix_find(const struct qz_imatrix *im, const char *name) {
    struct qz_imatrix_entry key;
    snprintf(key.name, sizeof key.name, "%s", name);
    return im->n ? bsearch(&key, im->e, (size_t)im->n, sizeof key, qz_imatrix_cmp) : NULL;
}

static bool qz_suffix(const char *s, const char *suf, size_t *stem) {
    size_t n = strlen(s), m = strlen(suf);
    if (n < m || strcmp(s + n - m, suf)) return false;
    *stem = n - m;
    return true;
}

static frink_status qz_imatrix_load(const char *path, struct qz_imatrix *im) {
    memset(im, 0, sizeof *im);
    struct gguf_file *f = NULL;
    frink_status st = gguf_open(path, &f);
    if (st) return frink_fail_ctx(st, "imatrix %s (a GGUF imatrix; the legacy .dat format is not implemented): ", path);
    const struct gguf_kv *ds = gguf_find(f, "imatrix.datasets");
    if (!ds || !gguf_find(f, "imatrix.chunk_count") || !gguf_find(f, "imatrix.chunk_size")) {
        gguf_close(f);
        return frink_fail(FRINK_ERR_FORMAT, "imatrix %s: missing imatrix metadata (imatrix.datasets, .chunk_count, .chunk_size)", path);
    }
    gguf_get_u32(f, "imatrix.chunk_count", &im->chunk_count);
    if (ds->type == GGUF_VT_ARRAY && ds->v.arr.type == GGUF_VT_STRING && ds->v.arr.n > 0) {
        size_t l = ds->v.arr.strs[0].len < 127 ? (size_t)ds->v.arr.strs[0].len : 127;
        memcpy(im->dataset, ds->v.arr.strs[0].ptr, l);
        im->dataset[l] = 0;
    }
    snprintf(im->file, sizeof im->file, "%.127s", path);
    im->e = calloc(f->n_tensors + 1, sizeof *im->e);
    if (!im->e) { gguf_close(f); return frink_fail(FRINK_ERR_NOMEM, "out of memory"); }
    for (uint64_t i = 0; i < f->n_tensors && !st; i++) {
        const struct gguf_tensor *sums = &f->tensors[i];
        size_t stem;
        if (!qz_suffix(sums->name, ".in_sum2", &stem)) continue;
        char cname[GGUF_MAX_NAME + 8];
        snprintf(cname, sizeof cname, "%.*s.counts", (int)stem, sums->name);
        const struct gguf_tensor *cnt = gguf_find_tensor(f, cname);
        if (!cnt) { st = frink_fail(FRINK_ERR_FORMAT, "imatrix %s: %s without %s", path, sums->name, cname); break; }
        if (sums->type != GGML_TYPE_F32 || cnt->type != GGML_TYPE_F32) {
            st = frink_fail(FRINK_ERR_FORMAT, "imatrix %s: sums and counts for %.*s must be F32", path, (int)stem, sums->name);
            break;
        }
        int64_t nval = (int64_t)(sums->nbytes / 4), ncounts = (int64_t)(cnt->nbytes / 4);
        if (ncounts < 1 || nval % ncounts) {
            st = frink_fail(FRINK_ERR_FORMAT, "imatrix %s: %lld sums do not divide into %lld counts for %.*s", path,
                            (long long)nval, (long long)ncounts, (int)stem, sums->name);
            break;
        }
        struct qz_imatrix_entry *e = &im->e[im->n];
        snprintf(e->name, sizeof e->name, "%.*s", (int)stem, sums->name);
        e->n = nval;
        if (!(e->v = malloc((size_t)nval * sizeof(float) + 1))) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); break; }
        im->n++;
        const int64_t ne0 = nval / ncounts;
        for (int64_t j = 0; j < ncounts; j++) {
            float c;
            memcpy(&c, (const uint8_t *)cnt->data + 4 * j, 4);
            const float count = (float)lroundf(c);
            for (int64_t k = 0; k < ne0; k++) {
                float v;
                memcpy(&v, (const uint8_t *)sums->data + 4 * (j * ne0 + k), 4);
                e->v[j * ne0 + k] = count > 0.0f ? v / count : 1;
                if (!isfinite(e->v[j * ne0 + k])) {
                    st = frink_fail(FRINK_ERR_FORMAT, "imatrix %s contains a non-finite value for %s", path, e->name);
                    break;
                }
            }
            if (st) break;
        }
    }
    gguf_close(f);
    if (st) { qz_imatrix_free(im); return st; }
    qsort(im->e, (size_t)im->n, sizeof *im->e, qz_imatrix_cmp);
    return FRINK_OK;
}

// ---- writing -------------------------------------------------------------------------------------

struct qz_buf {
    uint8_t *d;
    size_t n, cap;
    bool oom;
};

static void qz_put(struct qz_buf *b, const void *p, size_t n) {
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        uint8_t *d = realloc(b->d, cap);
        if (!d) { b->oom = true; return; }
        b->d = d;
        b->cap = cap;
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void qz_put_u32(struct qz_buf *b, uint32_t v) { qz_put(b, &v, 4); }
static void qz_put_u64(struct qz_buf *b, uint64_t v) { qz_put(b, &v, 8); }
static void qz_put_str(struct qz_buf *b, struct gguf_str s) {
    qz_put_u64(b, s.len);
    qz_put(b, s.ptr, s.len);
}

static size_t qz_vtype_size(enum gguf_vtype t) {
    switch (t) {
    case GGUF_VT_UINT8: case GGUF_VT_INT8: case GGUF_VT_BOOL: return 1;
    case GGUF_VT_UINT16: case GGUF_VT_INT16: return 2;
    case GGUF_VT_UINT32: case GGUF_VT_INT32: case GGUF_VT_FLOAT32: return 4;
    case GGUF_VT_UINT64: case GGUF_VT_INT64: case GGUF_VT_FLOAT64: return 8;
    default: return 0;
    }
}

// One key and value as the reference writes it (bools as 0 or 1).
static void qz_put_kv(struct qz_buf *b, const struct gguf_kv *kv) {
    qz_put_str(b, kv->key);
    qz_put_u32(b, (uint32_t)kv->type);
    if (kv->type == GGUF_VT_STRING) {
        qz_put_str(b, kv->v.str);
    } else if (kv->type == GGUF_VT_ARRAY) {
        qz_put_u32(b, (uint32_t)kv->v.arr.type);
        qz_put_u64(b, kv->v.arr.n);
        if (kv->v.arr.type == GGUF_VT_STRING) {
            for (uint64_t i = 0; i < kv->v.arr.n; i++) qz_put_str(b, kv->v.arr.strs[i]);
        } else if (kv->v.arr.type == GGUF_VT_BOOL) {
            const uint8_t *p = kv->v.arr.data;
            for (uint64_t i = 0; i < kv->v.arr.n; i++) {
                uint8_t v = p[i] != 0;
                qz_put(b, &v, 1);
            }
        } else {
            qz_put(b, kv->v.arr.data, (size_t)kv->v.arr.n * qz_vtype_size(kv->v.arr.type));
        }
    } else if (kv->type == GGUF_VT_BOOL) {
        uint8_t v = kv->v.u64 != 0;
        qz_put(b, &v, 1);
    } else {
        // scalars: the union holds them widened; the low bytes are the value (little-endian)
        size_t n = qz_vtype_size(kv->type);
        if (kv->type == GGUF_VT_FLOAT32) {
            float f = (float)kv->v.f64;
            qz_put(b, &f, 4);
        } else if (kv->type == GGUF_VT_FLOAT64) {
            qz_put(b, &kv->v.f64, 8);
        } else {
            uint64_t u = kv->v.u64;
            qz_put(b, &u, n);
        }
    }
}

static bool qz_key_dropped(struct gguf_str k, const struct qz_imatrix *im) {
    if (im->n > 0 && (gguf_str_eq(k, "quantize.imatrix.file") || (im->dataset[0] && gguf_str_eq(k, "quantize.imatrix.dataset")) ||
                      gguf_str_eq(k, "quantize.imatrix.entries_count") ||
                      (im->chunk_count > 0 && gguf_str_eq(k, "quantize.imatrix.chunks_count"))))
        return true;
    return gguf_str_eq(k, "general.quantization_version") || gguf_str_eq(k, "general.file_type") ||
           gguf_str_eq(k, "split.no") || gguf_str_eq(k, "split.count") || gguf_str_eq(k, "split.tensors.count");
}

// ---- the parallel row loop -----------------------------------------------------------------------

struct qz_job {
    const struct gguf_tensor *t;
    uint32_t to;
    int64_t n_per_row, nrows;
    size_t src_row, dst_row;
    uint8_t *dst;
    float **scratch;       // per thread, scratch_rows rows
    int64_t scratch_rows;
    const float *qw;       // NULL, or ne2 rows of n_per_row importances (one per expert)
    int64_t rows_per_expert;
};

// Each thread converts a range of whole rows to f32 a few at a time, then quantizes them.
static void qz_job_run(void *ctx, int ith, int nth) {
    struct qz_job *j = ctx;
    int64_t r0, r1;
    pool_range(j->nrows, ith, nth, 1, &r0, &r1);
    float *f = j->scratch[ith];
    const uint8_t *src = j->t->data;
    for (int64_t r = r0; r < r1; r += j->scratch_rows) {
        int64_t nr = r1 - r < j->scratch_rows ? r1 - r : j->scratch_rows;
        const uint8_t *s = src + (size_t)r * j->src_row;
        int64_t n = nr * j->n_per_row;
        switch (j->t->type) {
        case GGML_TYPE_F32: memcpy(f, s, (size_t)n * 4); break;
        case GGML_TYPE_F16:
            for (int64_t i = 0; i < n; i++) {
                uint16_t h;
                memcpy(&h, s + 2 * i, 2);
                f[i] = fp16_to_fp32(h);
            }
            break;
        case GGML_TYPE_BF16:
            for (int64_t i = 0; i < n; i++) {
                uint16_t h;
                memcpy(&h, s + 2 * i, 2);
                f[i] = bf16_to_fp32(h);
            }
            break;
        default: quant_dequant_row(j->t->type, s, f, n); break;
        }
        if (!j->qw) {
            quantize_rows(j->to, f, j->dst + (size_t)r * j->dst_row, nr, j->n_per_row, NULL);
            continue;
        }
        for (int64_t i = 0; i < nr; i++) // each row with its expert's importances
            quantize_rows(j->to, f + i * j->n_per_row, j->dst + (size_t)(r + i) * j->dst_row, 1, j->n_per_row,
                          j->qw + ((r + i) / j->rows_per_expert) * j->n_per_row);
    }
}

// ---- the driver ----------------------------------------------------------------------------------

static frink_status qz_resolve_ftype(const char *name, int *ftype, uint32_t *type) {
    for (int i = 0; i < QZ_N_FTYPES; i++)
        if (!strcasecmp(qz_ftypes[i].name, name)) {
            *ftype = qz_ftypes[i].ftype;
            *type = qz_ftypes[i].type;
            return FRINK_OK;
        }
    for (int i = 0; qz_refused[i]; i++)
        if (!strcasecmp(qz_refused[i], name))
            return frink_fail(FRINK_ERR_UNSUPPORTED, "file type %s is not implemented by frink quantize", qz_refused[i]);
    return frink_fail(FRINK_ERR_ARG, "unknown file type '%s'", name);
}

static frink_status qz_resolve_type(const char *what, const char *name, uint32_t *type) {
    *type = UINT32_MAX;
    if (!name) return FRINK_OK;
    uint32_t t = qz_type_by_name(name);
    if (t == UINT32_MAX) return frink_fail(FRINK_ERR_ARG, "%s: unknown tensor type '%s'", what, name);
    if (!quantize_supported(t))
        return frink_fail(FRINK_ERR_UNSUPPORTED, "%s: tensor type %s is not implemented by frink quantize", what,
                          ggml_type_name(t));
    *type = t;
    return FRINK_OK;
}

struct qz_plan {
    uint32_t *order;  // tensor indices in output order
    uint32_t *to;     // target type per output position
    uint64_t *size;   // bytes per output position
    const float **qw; // importance per output position: ne2 rows of ne0, or NULL
};

static frink_status qz_plan_make(const struct gguf_file *f, const frink_quantize_params *p, int ftype,
                                 uint32_t default_type, const struct qz_model *m, const struct qz_imatrix *im,
                                 struct qz_plan *pl) {
    uint64_t n = f->n_tensors;
    pl->order = malloc(n * sizeof *pl->order + 1);
    pl->to = malloc(n * sizeof *pl->to + 1);
    pl->size = malloc(n * sizeof *pl->size + 1);
    pl->qw = calloc(n + 1, sizeof *pl->qw);
    if (!pl->order || !pl->to || !pl->size || !pl->qw) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++) pl->order[i] = (uint32_t)i;
    qsort_r(pl->order, n, sizeof *pl->order, qz_cmp, (void *)f);

    struct qz_state s = {.m = m, .ftype = ftype, .has_tied_embeddings = true, .n_ffn_down = m->n_layer,
                         .has_imatrix = im->n > 0};
    frink_status st = qz_resolve_type("--output-tensor-type", p->output_tensor_type, &s.output_type);
    if (!st) st = qz_resolve_type("--token-embedding-type", p->token_embedding_type, &s.token_embd_type);
    if (st) return st;
    for (uint64_t i = 0; i < n; i++) {
        enum qz_role r = qz_role_of(f->tensors[i].name);
        if (qz_role_is_attn_v(r)) ++s.n_attention_wv;
        if (r == QZ_OUTPUT) s.has_tied_embeddings = false;
    }
    for (uint64_t k = 0; k < n; k++) {
        const struct gguf_tensor *t = &f->tensors[pl->order[k]];
        uint32_t to = t->type;
        if (qz_allows(t, !p->leave_output_tensor)) {
            enum qz_role r = qz_role_of(t->name);
            if (s.token_embd_type != UINT32_MAX && r == QZ_TOKEN_EMBD) to = s.token_embd_type;
            else if (s.output_type != UINT32_MAX && r == QZ_OUTPUT) to = s.output_type;
            else {
                to = default_type;
                if (qz_is_quantized(default_type)) {
                    if (!p->pure && (st = qz_mix_type(&s, t, r, &to))) return st;
                    to = qz_fallback(&s, t, to);
                }
            }
        }
        const struct ggml_type_geom *g = ggml_type_geom(to);
        if (to != t->type) {
            if (!quantize_supported(to))
                return frink_fail(FRINK_ERR_UNSUPPORTED, "tensor %s: type %s is not implemented by frink quantize",
                                  t->name, ggml_type_name(to));
            if (t->ne[0] % g->blck)
                return frink_fail(FRINK_ERR_ARG, "tensor %s: rows of %" PRId64 " are not a multiple of %s's block of %d",
                                  t->name, t->ne[0], g->name, g->blck);
            if (qz_is_quantized(t->type)) {
                if (!p->allow_requantize)
                    return frink_fail(FRINK_ERR_UNSUPPORTED,
                                      "tensor %s is already quantized (%s); requantizing needs --allow-requantize",
                                      t->name, ggml_type_name(t->type));
                if (!quant_supported(t->type) || t->type == GGML_TYPE_Q8_K)
                    return frink_fail(FRINK_ERR_UNSUPPORTED, "tensor %s: cannot dequantize type %s", t->name,
                                      ggml_type_name(t->type));
            } else if (t->type != GGML_TYPE_F32 && t->type != GGML_TYPE_F16 && t->type != GGML_TYPE_BF16) {
                return frink_fail(FRINK_ERR_UNSUPPORTED, "tensor %s: cannot convert type %s", t->name,
                                  ggml_type_name(t->type));
            }
        }
        if (to != t->type && im->n > 0) {
            const struct qz_imatrix_entry *e = qz_imatrix_find(im, t->name);
            if (e && e->n == t->ne[0] * t->ne[2]) pl->qw[k] = e->v;
            else if (e && qz_role_of(t->name) != QZ_TOKEN_EMBD)
                return frink_fail(FRINK_ERR_FORMAT, "imatrix size %lld is different from tensor size %lld for %s",
                                  (long long)e->n, (long long)(t->ne[0] * t->ne[2]), t->name);
        }
        pl->to[k] = to;
        int64_t rows = t->ne[1] * t->ne[2] * t->ne[3];
        pl->size[k] = to == t->type ? t->nbytes : (uint64_t)rows * ggml_row_size(to, t->ne[0]);
    }
    return FRINK_OK;
}

static void qz_plan_free(struct qz_plan *pl) {
    free(pl->order);
    free(pl->to);
    free(pl->size);
    free(pl->qw);
}

static void qz_header(struct qz_buf *b, const struct gguf_file *f, const struct qz_plan *pl, int ftype,
                      const struct qz_imatrix *im) {
    uint64_t n_kv = 0;
    for (uint64_t i = 0; i < f->n_kv; i++) n_kv += !qz_key_dropped(f->kv[i].key, im);
    // What llama-quantize notes of an importance matrix, after the file type.
    struct gguf_kv imkv[4];
    int n_im = 0;
    if (im->n > 0) {
        imkv[n_im++] = (struct gguf_kv){.key = {"quantize.imatrix.file", 21}, .type = GGUF_VT_STRING,
                                        .v.str = {im->file, strlen(im->file)}};
        if (im->dataset[0])
            imkv[n_im++] = (struct gguf_kv){.key = {"quantize.imatrix.dataset", 24}, .type = GGUF_VT_STRING,
                                            .v.str = {im->dataset, strlen(im->dataset)}};
        imkv[n_im++] = (struct gguf_kv){.key = {"quantize.imatrix.entries_count", 30}, .type = GGUF_VT_UINT32,
                                        .v.u64 = (uint64_t)im->n};
        if (im->chunk_count > 0)
            imkv[n_im++] = (struct gguf_kv){.key = {"quantize.imatrix.chunks_count", 29}, .type = GGUF_VT_UINT32,
                                            .v.u64 = im->chunk_count};
    }
    qz_put(b, "GGUF", 4);
    qz_put_u32(b, 3);
    qz_put_u64(b, f->n_tensors);
    qz_put_u64(b, n_kv + 2 + (uint64_t)n_im);
    for (uint64_t i = 0; i < f->n_kv; i++)
        if (!qz_key_dropped(f->kv[i].key, im)) qz_put_kv(b, &f->kv[i]);
    struct gguf_kv extra[2] = {
        {.key = {"general.quantization_version", 28}, .type = GGUF_VT_UINT32, .v.u64 = QZ_QNT_VERSION},
        {.key = {"general.file_type", 17}, .type = GGUF_VT_UINT32, .v.u64 = (uint64_t)ftype},
    };
    qz_put_kv(b, &extra[0]);
    qz_put_kv(b, &extra[1]);
    for (int i = 0; i < n_im; i++) qz_put_kv(b, &imkv[i]);
    uint64_t off = 0;
    for (uint64_t k = 0; k < f->n_tensors; k++) {
        const struct gguf_tensor *t = &f->tensors[pl->order[k]];
        struct gguf_str name = {t->name, strlen(t->name)};
        qz_put_str(b, name);
        int nd = qz_n_dims(t);
        qz_put_u32(b, (uint32_t)nd);
        for (int d = 0; d < nd; d++) qz_put_u64(b, (uint64_t)t->ne[d]);
        qz_put_u32(b, pl->to[k]);
        qz_put_u64(b, off);
        off += (pl->size[k] + QZ_ALIGN - 1) / QZ_ALIGN * QZ_ALIGN;
    }
    static const uint8_t zeros[QZ_ALIGN];
    qz_put(b, zeros, (QZ_ALIGN - b->n % QZ_ALIGN) % QZ_ALIGN);
}

static frink_status qz_write_all(FILE *fp, const void *p, size_t n, const char *path) {
    if (n && fwrite(p, 1, n, fp) != n) return frink_fail(FRINK_ERR_IO, "writing %s: %s", path, strerror(errno));
    return FRINK_OK;
}

frink_status frink_quantize(const char *in_path, const char *out_path, const frink_quantize_params *p) {
    if (!in_path || !out_path || !p || !p->ftype) return frink_fail(FRINK_ERR_ARG, "frink_quantize: missing argument");
    int ftype = 0;
    uint32_t default_type = 0;
    frink_status st = qz_resolve_ftype(p->ftype, &ftype, &default_type);
    if (st) return st;
    if (p->n_threads < 0 || p->n_threads > 1024) return frink_fail(FRINK_ERR_ARG, "threads %d out of range", p->n_threads);

    struct gguf_file *f = NULL;
    if ((st = gguf_open(in_path, &f))) return frink_fail_ctx(st, "%s: ", in_path);
    struct qz_model m;
    struct qz_imatrix im = {0};
    struct qz_plan pl = {0};
    struct qz_buf hdr = {0};
    struct pool *pool = NULL;
    float **scratch = NULL;
    uint8_t *out = NULL;
    FILE *fp = NULL;
    char *tmp = NULL;
    int nth = p->n_threads ? p->n_threads : pool_default_threads();

    if ((st = qz_model_read(f, &m))) { frink_fail_ctx(st, "%s: ", in_path); goto done; }
    if (p->imatrix_path && (st = qz_imatrix_load(p->imatrix_path, &im))) goto done;
    if ((st = qz_plan_make(f, p, ftype, default_type, &m, &im, &pl))) goto done;
    qz_header(&hdr, f, &pl, ftype, &im);
    if (hdr.oom) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }

    // The output goes to OUT.XXXXXX beside OUT, renamed over OUT once complete.
    size_t tl = strlen(out_path) + 8;
    if (!(tmp = malloc(tl))) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }
    snprintf(tmp, tl, "%s.XXXXXX", out_path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = frink_fail(FRINK_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        tmp = NULL;
        goto done;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    if (!(fp = fdopen(fd, "wb"))) {
        close(fd);
        st = frink_fail(FRINK_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    if ((st = qz_write_all(fp, hdr.d, hdr.n, tmp))) goto done;

    if (!(pool = pool_create(nth)) || !(scratch = calloc((size_t)nth, sizeof *scratch))) {
        st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        goto done;
    }
    uint64_t total = 0, done_bytes = 0;
    for (uint64_t k = 0; k < f->n_tensors; k++) total += f->tensors[pl.order[k]].nbytes;
    static const uint8_t zeros[QZ_ALIGN];
    for (uint64_t k = 0; k < f->n_tensors; k++) {
        const struct gguf_tensor *t = &f->tensors[pl.order[k]];
        if (p->progress) {
            frink_quantize_progress pr = {.tensor = t->name, .index = (int)k, .n_tensors = (int)f->n_tensors,
                                          .from_type = ggml_type_name(t->type), .to_type = ggml_type_name(pl.to[k]),
                                          .bytes_done = done_bytes, .bytes_total = total};
            p->progress(p->progress_ud, &pr);
        }
        if (pl.to[k] == t->type) {
            if ((st = qz_write_all(fp, t->data, t->nbytes, tmp))) goto done;
        } else {
            struct qz_job j = {.t = t, .to = pl.to[k], .n_per_row = t->ne[0], .nrows = t->ne[1] * t->ne[2] * t->ne[3],
                               .qw = pl.qw[k], .rows_per_expert = t->ne[1]};
            j.src_row = ggml_row_size(t->type, t->ne[0]);
            j.dst_row = ggml_row_size(pl.to[k], t->ne[0]);
            // about 1 MiB of f32 per thread, at least one row
            j.scratch_rows = (1 << 18) / j.n_per_row > 0 ? (1 << 18) / j.n_per_row : 1;
            free(out);
            out = malloc(pl.size[k] + 1);
            if (!out) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory (tensor %s)", t->name); goto done; }
            for (int i = 0; i < nth; i++) {
                free(scratch[i]);
                scratch[i] = malloc((size_t)(j.scratch_rows * j.n_per_row) * sizeof(float));
                if (!scratch[i]) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }
            }
            j.dst = out;
            j.scratch = scratch;
            // small tensors on the caller alone: the bytes are the same either way
            pool_run_sized(pool, qz_job_run, &j, j.nrows * j.n_per_row);
            if ((st = qz_write_all(fp, out, pl.size[k], tmp))) goto done;
        }
        size_t pad = (size_t)((QZ_ALIGN - pl.size[k] % QZ_ALIGN) % QZ_ALIGN);
        if ((st = qz_write_all(fp, zeros, pad, tmp))) goto done;
        done_bytes += t->nbytes;
    }
    if (fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
        st = frink_fail(FRINK_ERR_IO, "writing %s: %s", tmp, strerror(errno));
        goto done;
    }
    int rc = fclose(fp);
    fp = NULL;
    if (rc != 0) { st = frink_fail(FRINK_ERR_IO, "writing %s: %s", tmp, strerror(errno)); goto done; }
    if (rename(tmp, out_path) != 0) {
        st = frink_fail(FRINK_ERR_IO, "cannot rename %s to %s: %s", tmp, out_path, strerror(errno));
        goto done;
    }
    free(tmp);
    tmp = NULL;
    if (p->progress) {
        frink_quantize_progress pr = {.index = (int)f->n_tensors, .n_tensors = (int)f->n_tensors,
                                      .bytes_done = total, .bytes_total = total};
        p->progress(p->progress_ud, &pr);
    }

done:
    if (fp) fclose(fp);
    if (tmp) {
        unlink(tmp);
        free(tmp);
    }
    if (scratch)
        for (int i = 0; i < nth; i++) free(scratch[i]);
    free(scratch);
    free(out);
    if (pool) pool_free(pool);
    free(hdr.d);
    qz_plan_free(&pl);
    qz_imatrix_free(&im);
    gguf_close(f);
    return st;
}
