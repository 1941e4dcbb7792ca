// dense.h — the loader hooks of the dense llama-like families (model/dense.c): the metadata
// rules, tensors and layer features those families add to the generic binding in model.c.
#ifndef FRINK_MODEL_DENSE_H
#define FRINK_MODEL_DENSE_H

#include "model/loader.h"

// The dense families' hyperparameters (after the generic ones are read): rules that depend on
// the row's AX_* flags. Errors go to ld->st.
void read_hparams_dense(struct loader *ld);

#endif
