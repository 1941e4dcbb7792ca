// dsa.c — DeepSeek sparse attention (deepseek32, glm-dsa) as far as frink computes it.
//
// A DSA layer is deepseek2's latent attention (attn_mla_layer) whose cells are restricted to
// the top_k positions a "lightning indexer" scores highest:
//   iq = rope(W_iq_b q_a)  [Hi][di];  ik = rope(layer_norm(W_ik xn))  [di];  w = W_ip xn  [Hi]
//   score(c) = sum_h w_h relu(iq_h . ik_c) / sqrt(di Hi)        over the cached ik of cell c
//   attend only to the top_k cells by score (the others masked)
// The reference builds that selection as a mask (ggml_set_rows of zeros into -inf at the
// top-k indices, added to the causal mask). While a sequence holds no more than top_k
// positions every cell is selected whatever the scores, the mask is the causal mask, and the
// layer is exactly deepseek2's: that is the only case frink runs (LF_DSA_ALL). The indexer's
// tensors are bound (their shapes checked, so the file is the model it says it is) but not
// multiplied: the selection they feed is the identity there. A step that would take a
// sequence past top_k positions is refused by name (dsa_check_positions) instead of
// attending to cells the reference would mask.
#include <math.h>
#include <stdio.h>

#include "model/forward_impl.h"
#include "model/mla.h"

void dsa_read_hparams(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    hp->dsa_n_head = hp_int(ld, "attention.indexer.head_count", NAN);
    hp->dsa_head_dim = hp_int(ld, "attention.indexer.key_length", NAN);
    hp->dsa_top_k = hp_int(ld, "attention.indexer.top_k", NAN);
    if (ld->st) return;
    if (hp->dsa_n_head <= 0 || hp->dsa_n_head > 4096 || hp->dsa_head_dim < hp->n_rot || hp->dsa_head_dim > 4096 ||
        hp->dsa_top_k <= 0) {
        ld_fail(ld, FRINK_ERR_FORMAT, "lightning indexer dims are inconsistent (heads %d, key length %d, rot %d, top_k %d)",
                hp->dsa_n_head, hp->dsa_head_dim, hp->n_rot, hp->dsa_top_k);
        return;
    }
    if (m->arch->flags2 & AX_DOTS3) {
        // dots3note: the indexer runs on the full-attention layers; which layers carry one
        // (attention.indexer.types) only says where its tensors are. The sliding layers' MLA.
        kv_take(ld, "attention.indexer.types");
        hp_int(ld, "expert_gating_func", NAN);
        hp->mla_kv_lora_swa = hp_int(ld, "attention.kv_lora_rank_swa", NAN);
        hp->mla_dqk_swa = hp_int(ld, "attention.key_length_mla_swa", NAN);
        hp->mla_dv_swa = hp_int(ld, "attention.value_length_mla_swa", NAN);
        if (!ld->st && (hp->mla_kv_lora_swa <= 0 || hp->mla_kv_lora_swa + hp->n_rot > 1024 || hp->mla_dqk_swa <= hp->n_rot ||
                        hp->mla_dv_swa <= 0))
            ld_fail(ld, FRINK_ERR_FORMAT, "sliding-layer MLA dims are inconsistent (kv_lora %d, rot %d, qk %d, v %d)",
                    hp->mla_kv_lora_swa, hp->n_rot, hp->mla_dqk_swa, hp->mla_dv_swa);
    } else if (m->arch->flags2 & AX_DSA_TYPES) {
        // glm-dsa: which layers run their own indexer and which reuse the previous one's
        // selection; with every position selected both select the same cells, so the key is
        // consumed and has no effect here. Its routing defaults to sigmoid (GLM-4.5).
        kv_take(ld, "attention.indexer.types");
        const struct gguf_kv *g = kv_take(ld, "expert_gating_func");
        if (!g || (kv_is_num(g) && kv_num(g) == 0)) hp->gating = GATING_SIGMOID;
    } else {
        // deepseek32: the reference requires the gating function.
        hp_int(ld, "expert_gating_func", NAN);
    }
}

void dsa_bind_indexer(struct loader *ld, struct layer *L, int il, int q_lora) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    int D = hp->n_embd, Hi = hp->dsa_n_head, di = hp->dsa_head_dim;
    // glm-dsa's "shared" layers may carry no indexer of their own; dots3note's sliding layers
    // have none (and attend through their window, not the indexer).
    if ((ld->m->arch->flags2 & AX_DOTS3) && feat_has(L->feat, LF_SWA)) return;
    bool required = !(ld->m->arch->flags2 & AX_DSA_TYPES);
    if (q_lora <= 0) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s' needs attention.q_lora_rank (its indexer reads the q_a projection)", ld->arch);
        return;
    }
    snprintf(b, sizeof b, "blk.%d.indexer.attn_q_b", il);
    L->idx_q_b = mat_take_b(ld, b, q_lora, (int64_t)Hi * di, 0, required, false, false);
    snprintf(b, sizeof b, "blk.%d.indexer.attn_k", il);
    L->idx_k = mat_take_b(ld, b, D, di, 0, required, false, false);
    snprintf(b, sizeof b, "blk.%d.indexer.proj", il);
    L->idx_proj = mat_take_b(ld, b, D, Hi, 0, required, false, false);
    snprintf(b, sizeof b, "blk.%d.indexer.k_norm.weight", il);
    L->idx_k_norm = vec_take(ld, b, di, required);
    snprintf(b, sizeof b, "blk.%d.indexer.k_norm.bias", il);
    L->idx_k_norm_b = vec_take(ld, b, di, required);
    feat_set(&L->feat, LF_DSA_ALL);
}

frink_status dsa_check_positions(const struct model *m, int64_t n_end) {
    if (m->hp.dsa_top_k <= 0 || n_end <= m->hp.dsa_top_k) return FRINK_OK;
    return frink_fail(FRINK_ERR_UNSUPPORTED,
                      "a sequence of %lld positions exceeds the lightning indexer's top_k (%d): the top-k selection of "
                      "DeepSeek sparse attention is not implemented (frink runs '%s' only while every position is selected)",
                      (long long)n_end, m->hp.dsa_top_k, m->arch->name);
}
