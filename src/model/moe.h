// moe.h — binders of the MoE families' extras (moe.c): what a family of the "MoE families"
// rows reads beside the generic attention and FFN binding.
#ifndef FRINK_MODEL_MOE_H
#define FRINK_MODEL_MOE_H

#include "model/loader.h"

// Binds layer il's tensors that the row's AX_* flags of the MoE group add (arctic's dense FFN
// and ffn_norm_exps, dbrx's pre-FFN norm under its own name); called before the mixer is
// bound, it leaves the mixer and the routed experts to the generic binders. Errors go to
// ld->st, as every loader helper's.
void moe_bind_extras(struct loader *ld, struct layer *L, int il);

// grok's multipliers and softcaps, each from metadata or the reference's default when absent:
// embedding_scale, attention.output_scale (the attention logit scale), attn_logit_softcapping,
// logit_scale (multiplies), final_logit_softcapping.
void moe_read_hparams_grok(struct loader *ld);

#endif
