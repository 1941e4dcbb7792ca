// chatfam.h — the loader hooks of the chat-format and sliding-window families (glm4,
// glm4moe, minimax-m2, seed_oss, the Cohere family, ...): what their rows' AX_* flags read
// from the metadata and bind beyond the generic loader. model.c calls them from its group
// sections; each does nothing for a row without its flags.
#ifndef FRINK_MODEL_CHATFAM_H
#define FRINK_MODEL_CHATFAM_H

#include "model/loader.h"

// read_hparams_features's hook: the rope mode M-RoPE sections select, the routing keys.
// Errors go to ld->st.
void chatfam_read_hparams(struct loader *ld);
// bind_layer_mixer's hook, before the generic attention binder runs on layer il (whose
// hparams are bound): the sliding-window pattern and RoPE of the rows that differ, the
// optional per-head q/k norms. n_swa: the file's window (0: none); n_dense_lead: the leading
// dense blocks. Returns true when it bound the layer's mixer itself (mimo2's attention);
// false: the generic binder binds it. Errors go to ld->st.
bool chatfam_bind_layer(struct loader *ld, struct layer *L, int il, int n_swa, int n_dense_lead);
// layer_features's hook: the features the rows' metadata imply for layer L.
void chatfam_layer_features(const struct model *m, struct layer *L);

#endif
