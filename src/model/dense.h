// dense.h — the loader hooks of the dense llama-like families (model/dense.c): the metadata
// rules, binding adjustments and layer features those families add to model.c's generic
// binding. A row opts in with AX_DENSE_RULES; its rules are dense.c's table, by name.
#ifndef FRINK_MODEL_DENSE_H
#define FRINK_MODEL_DENSE_H

#include <stdbool.h>

#include "model/loader.h"

// The family's hyperparameter rules, after the generic ones are read (read_hparams_features).
// Errors go to ld->st.
void read_hparams_dense(struct loader *ld);
// Layer il after its generic hyperparameters, before its tensors: per-family fixes of widths.
void dense_layer_adjust(struct loader *ld, struct layer *L, int il);
// True when the family's graph never applies some attention tensor the generic binding takes
// (attn_output.bias, attn_qkv.scale) although the reference loads it.
bool dense_attention_untakes(const struct model *m);
// Gives those tensors of layer il back after bind_attention took them: they stay unread (so
// refused by name unless unread tensors are allowed) and the layer's weights do without them.
void dense_attention_untake(struct loader *ld, struct layer *L, int il);
// The generic attention layer's dims check (heads, kv heads, head dims, rotary dims).
bool dense_attn_dims_ok(const struct layer *L);
// True when layer L binds no FFN matrices: refact's layers with experts, whose reference graph
// builds the dense FFN from matrices that are absent, leaving act(x) (LF_FFN_ACT_ONLY).
bool dense_ffn_bare(const struct model *m, const struct layer *L);
// Layer il after its FFN is bound: the FFN features of a bare layer, and the FFN tensors the
// family's graph never applies given back (unread, so refused by name unless allowed).
void dense_layer_after_ffn(struct loader *ld, struct layer *L, int il);
// The layer features the dense families' flags imply, once L is bound (layer_features).
void dense_layer_features(const struct model *m, struct layer *L);

#endif
