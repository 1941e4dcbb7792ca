// vlm.c — the vision-language text towers' load-time pieces (see vlm.h).
#include "model/vlm.h"

#include <stdio.h>

// The stream of rotary pair j under sections s[4] (ggml_mrope_cache_init's choice):
// 0 = t, 1 = h, 2 = w, 3 = the extra stream.
static int mrope_stream(const int64_t s[4], int j, bool interleaved) {
    int64_t sect_dims = s[0] + s[1] + s[2] + s[3];
    int64_t sector = j % sect_dims;
    if (interleaved) {
        if (sector % 3 == 1 && sector < 3 * s[1]) return 1;
        if (sector % 3 == 2 && sector < 3 * s[2]) return 2;
        if (sector % 3 == 0 && sector < 3 * s[0]) return 0;
        return 3;
    }
    if (sector < s[0]) return 0;
    if (sector < s[0] + s[1]) return 1;
    if (sector < s[0] + s[1] + s[2]) return 2;
    return 3;
}

bool vlm_mrope_text_check(struct loader *ld, int n_rot, bool interleaved, bool optional) {
    const struct gguf_kv *sec = kv_take(ld, "rope.dimension_sections");
    if (!sec && optional) return false;
    bool numeric = sec && sec->type == GGUF_VT_ARRAY && sec->v.arr.type != GGUF_VT_STRING;
    if (!numeric || sec->v.arr.n < 3 || sec->v.arr.n > 4) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s.rope.dimension_sections' (3 or 4 numbers) is required", ld->arch);
        return false;
    }
    int64_t s[4] = {0, 0, 0, 0};
    for (uint64_t i = 0; i < sec->v.arr.n; i++) s[i] = gguf_arr_i64(sec, i);
    if (optional && !(s[0] > 0 && s[1] > 0)) return false; // (hparams.use_mrope())
    int64_t sum = s[0] + s[1] + s[2] + s[3];
    if (s[0] < 0 || s[1] < 0 || s[2] < 0 || s[3] < 0 || sum <= 0 || 2 * sum > 1 << 20) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s.rope.dimension_sections' = [%lld, %lld, %lld, %lld] is out of range",
                ld->arch,
                (long long)s[0], (long long)s[1], (long long)s[2], (long long)s[3]);
        return false;
    }
    for (int j = 0; j < n_rot / 2; j++)
        if (mrope_stream(s, j, interleaved) == 3) {
            ld_fail(ld, FRINK_ERR_UNSUPPORTED,
                    "'%s.rope.dimension_sections' put rotary pair %d on M-RoPE's fourth position stream (0 for text "
                    "tokens, so that pair is not rotated), which frink does not implement",
                    ld->arch, j);
            return false;
        }
    return true;
}

void vlm_bind_cogvlm_attn(struct loader *ld, struct layer *L, int il) {
    char b[64];
    int D = ld->m->hp.n_embd, d = L->head_dim, H = L->n_head;
    feat_set(&L->feat, LF_ATTN);
    feat_set(&L->feat, LF_FUSED_QKV);
    // [q | k | v], each H*d wide (the reference's views assume n_head_kv = n_head)
    if (L->n_head_kv != H) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: cogvlm's fused qkv needs as many kv heads as heads (%d, %d)", il,
                L->n_head_kv, H);
        return;
    }
    snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
    L->wqkv = mat_take_b(ld, b, D, 3 * (int64_t)H * d, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, (int64_t)H * d, D, 0, true, true, false);
}

void vlm_cogvlm_plain_rope(struct loader *ld) {
    struct model *m = ld->m;
    int64_t i = gguf_tensor_index(ld->f, "rope_freqs.weight");
    if (i >= 0) ld->t_used[i] = 0;
    m->rope_freqs = NULL;
    m->hp.rope_base = 10000.0f;
    m->hp.rope_freq_scale = 1.0f;
    m->hp.rope_ext_factor = 0.0f;
    m->hp.rope_attn_factor = 1.0f;
}
