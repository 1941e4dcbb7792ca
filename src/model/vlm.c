// vlm.c — the vision-language text towers' load-time pieces (see vlm.h).
#include "model/vlm.h"

#include <math.h>
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

bool vlm_mrope_read(struct loader *ld, int n_rot, bool interleaved, bool optional) {
    struct hparams *hp = &ld->m->hp;
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
                ld->arch, (long long)s[0], (long long)s[1], (long long)s[2], (long long)s[3]);
        return false;
    }
    for (int i = 0; i < 4; i++) hp->mrope_sections[i] = (int)s[i];
    hp->mrope_mode = interleaved ? 2 : 1;
    for (int j = 0; j < n_rot / 2; j++)
        if (mrope_stream(s, j, interleaved) == 3) hp->mrope_extra = true;
    return true;
}

void vlm_rope_factors(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    if (m->arch->flags2 & AX_NO_ROPE_FREQS) {
        static const char *names[] = {"rope_freqs.weight", "rope_factors_short.weight"};
        for (int k = 0; k < 2; k++) {
            int64_t i = gguf_tensor_index(ld->f, names[k]);
            if (i >= 0) ld->t_used[i] = 0;
        }
        m->rope_freqs = NULL;
    }
    if (!hp->mrope_extra) return;
    int n = hp->n_rot / 2;
    float *ff = owned_alloc(m, (size_t)n * sizeof(float));
    if (!ff) {
        ld_fail(ld, FRINK_ERR_NOMEM, "out of memory");
        return;
    }
    int64_t s[4] = {hp->mrope_sections[0], hp->mrope_sections[1], hp->mrope_sections[2], hp->mrope_sections[3]};
    for (int j = 0; j < n; j++)
        ff[j] = mrope_stream(s, j, hp->mrope_mode == 2) == 3 ? INFINITY : m->rope_freqs ? m->rope_freqs[j] : 1.0f;
    m->rope_freqs = ff;
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
    struct hparams *hp = &ld->m->hp;
    hp->rope_base = 10000.0f;
    hp->rope_freq_scale = 1.0f;
    hp->rope_ext_factor = 0.0f;
    hp->rope_attn_factor = 1.0f;
}
