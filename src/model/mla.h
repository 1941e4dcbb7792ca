// mla.h — the binders of the latent-attention and sparse-attention families (deepseek32,
// glm-dsa, minicpm3, ...) that model.c calls from its group hooks. Each lives in the file
// of its mixer and binds with the loader helpers (loader.h).
#ifndef FRINK_MODEL_MLA_H
#define FRINK_MODEL_MLA_H

#include "model/loader.h"

// DeepSeek sparse attention (dsa.c): reads attention.indexer.{head_count,key_length,top_k}
// (and glm-dsa's attention.indexer.types) into hp->dsa_*; glm-dsa's routing defaults to sigmoid.
void dsa_read_hparams(struct loader *ld);
// Binds layer il's lightning indexer ([q_lora -> Hi*di] q_b, [D -> di] k with its LayerNorm,
// [D -> Hi] head weights) and marks the layer LF_DSA_ALL. q_lora: the MLA q rank (> 0).
void dsa_bind_indexer(struct loader *ld, struct layer *L, int il, int q_lora);

// minicpm3 (minicpm3.c): reads attention.{q,kv}_lora_rank and sets the reference's fixed
// embedding, residual and output scales in hp.
void minicpm3_read_hparams(struct loader *ld);
// Binds layer il's MHA-form latent attention and marks it LF_ATTN | LF_MLA_MHA.
void minicpm3_bind(struct loader *ld, struct layer *L, int il);

// kimi-linear (kda.c): reads kda.head_dim and ssm.conv_kernel into hp.
void kda_read_hparams(struct loader *ld);
// Binds layer il's Kimi Delta Attention, declares its recurrent state, marks it LF_KDA.
void kda_bind(struct loader *ld, struct layer *L, int il);

// minimax-01 (lightning.c): reads residual_scale; which layers are lightning attention
// (attention.recurrent_layers, else full_attention_interval, default 8); binds one.
void mm01_read_hparams(struct loader *ld);
bool mm01_layer_is_lightning(struct loader *ld, int il, int n_total);
void mm01_bind_lightning(struct loader *ld, struct layer *L, int il);

// bailingmoe3 (kda.c): binds layer il's per-head MLA output gate, marks it LF_MLA_HEAD_GATE.
void mla_bind_head_gate(struct loader *ld, struct layer *L, int il);

// bailingmoe3 (kda.c): layer il's swiglu_clamp_exp / swiglu_clamp_shexp (a scalar or one per
// block) into L->swiglu_lim_*; marks LF_SWIGLU_LIMIT; a limit on a dense FFN is refused.
void ffn_bind_swiglu_limits(struct loader *ld, struct layer *L, int il, int n_total);

#endif
