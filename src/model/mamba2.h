// mamba2.h — the Mamba-2 mixer's binding (mamba2.c), for model.c's loader hooks. Its host
// forward, mamba2_layer, is declared with the other mixers in forward_impl.h.
#ifndef FRINK_MODEL_MAMBA2_H
#define FRINK_MODEL_MAMBA2_H

#include <stdbool.h>

#include "model/loader.h"

// Reads the ssm.* hyperparameters of a family with a Mamba-2 mixer (AX_MAMBA2 or AX_MAMBA2_KV0
// rows) into hp->ssm_* and checks they are consistent; errors go to ld->st.
void mamba2_read_hparams(struct loader *ld);
// Whether layer L (its hyperparameters bound) is a Mamba-2 layer: every layer of an AX_MAMBA2
// row, the layers with no KV heads of an AX_MAMBA2_KV0 row.
bool mamba2_layer_is_mamba(struct loader *ld, const struct layer *L);
// Binds layer il's Mamba-2 tensors, sets LF_MAMBA2 (and LF_NO_FFN for AX_MAMBA2 rows), and
// declares its per-sequence state: a conv window [conv_dim][d_conv-1] and the scan state
// [n_head][head_dim][d_state]. Errors go to ld->st.
void mamba2_bind(struct loader *ld, struct layer *L, int il);

#endif
