// convmix.h — the binders of the convolutional mixers (mamba.c: Mamba-1; shortconv.c: LFM2's
// gated short convolution), which model.c calls from its per-layer walk. Their host forwards
// are declared with the other mixers in forward_impl.h.
#ifndef FRINK_MODEL_CONVMIX_H
#define FRINK_MODEL_CONVMIX_H

#include "model/loader.h"

// Binds layer il's Mamba-1 mixer (blk.N.ssm_*): sets LF_MAMBA (and LF_MAMBA_DBC_NORM), the
// layer's recurrent state sizes and its scratch width. Errors go to ld->st.
void bind_mamba(struct loader *ld, struct layer *L, int il);

// Binds layer il's LFM2 short convolution (blk.N.shortconv.*): sets LF_SHORTCONV, the conv
// state size (D x (L_cache - 1), no recurrence state) and the scratch width.
void bind_shortconv(struct loader *ld, struct layer *L, int il);

// PLaMo-2 (plamo2.c): layer il's Mamba mixer (LF_PLAMO2_MAMBA), and its attention (fused qkv
// with per-head q/k norm weights; the reference applies no scale to attn_qkv); either way the
// post-mixer and post-FFN norms (post_attention_norm, post_ffw_norm without a .weight suffix).
void bind_plamo2_mamba(struct loader *ld, struct layer *L, int il);
void bind_plamo2_attention(struct loader *ld, struct layer *L, int il);
void bind_plamo2_post_norms(struct loader *ld, struct layer *L, int il);

#endif
