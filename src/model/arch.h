// arch.h — the architecture table: one row per GGUF `general.architecture`.
//
// A row says which features the family uses; the loader turns it (with the
// hparams and the tensors present) into per-layer feature bits. Adding a family
// that only recombines existing features is a new row, not new forward code.
#ifndef FRINK_ARCH_H
#define FRINK_ARCH_H

#include <stdbool.h>
#include <stdint.h>

enum arch_flag {
    AF_QK_NORM = 1u << 0,         // per-head RMSNorm of q and k
    AF_HYBRID_GDN = 1u << 1,      // Gated DeltaNet + gated attention layers
    AF_GATED_ATTN = 1u << 2,      // double-width q with a sigmoid output gate
    AF_TIED_OK = 1u << 3,         // output.weight may be absent (tied to token_embd)
    AF_MOE_NORM_W = 1u << 4,      // routed weights always renormalized
    AF_MOE_NORM_KEY = 1u << 5,    // renormalization from <arch>.expert_weights_norm
    AF_SHEXP_GATE = 1u << 6,      // shared expert scaled by sigmoid(ffn_gate_inp_shexp . x)
    AF_OUTPUT_BIAS = 1u << 7,     // output.bias added to the logits when present
    AF_FFN_SCALES = 1u << 8,      // `.scale` tensors of dense FFN weights are applied
    AF_EXP_SCALES = 1u << 9,      // `.scale` of routed expert weights are applied
    AF_SHEXP_SCALES = 1u << 10,   // `.scale` of shared expert weights are applied
    AF_GDN_GROUPED_V = 1u << 11,  // qwen3next V-head order (grouped); else tiled (qwen35)
    AF_GDN_BA_FUSED = 1u << 12,   // ssm_ba instead of ssm_beta/ssm_alpha
    AF_GDN_SCALES = 1u << 13,     // `.scale` of GDN projections are applied
    AF_EXP_DOWN_SCALE_ONLY = 1u << 14, // only ffn_down_exps.scale is applied among expert scales
};

struct arch_info {
    const char *name;
    const char *refused;  // NULL: runs; else why frink refuses it
    int rope_mode;        // ROPE_NORM / ROPE_NEOX (model.h)
    uint32_t flags;       // enum arch_flag
};

// Row for `name`, or NULL when the name is not in the table at all.
const struct arch_info *arch_find(const char *name);
// Iterates the table (for `frink archs`): returns NULL past the end.
const struct arch_info *arch_at(int i);

#endif
