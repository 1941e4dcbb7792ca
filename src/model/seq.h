// seq.h — the state of one sequence: tokens, KV cache per attention layer,
// recurrent state per Gated DeltaNet layer.
//
// KV rows are stored as F16 (the reference's default cache type): K and V are
// rounded when written, exactly as the reference rounds them.
#ifndef FRINK_SEQ_H
#define FRINK_SEQ_H

#include <stdint.h>

#include "core/err.h"
#include "model/model.h"

struct seq {
    const struct model *m;
    int n_past;          // tokens whose K/V (and recurrent effect) are in the state
    int cap;             // KV capacity in tokens
    int32_t *tokens;     // [cap] token history
    uint16_t **k, **v;   // per layer: [cap][n_head_kv * head_dim] F16; NULL for GDN layers
    float **conv;        // per layer: [C][Kc-1] raw conv inputs, oldest first; NULL for attention layers
    float **ssm;         // per layer: [nv][dv][dk] delta-rule state; NULL for attention layers
};

// Creates an empty sequence with room for `cap` tokens (grows on demand).
frink_status seq_create(const struct model *m, int cap, struct seq **out);
void seq_free(struct seq *s);
// Forgets everything: KV emptied, recurrent state zeroed.
void seq_reset(struct seq *s);
// Makes room for at least `n` tokens (keeps contents).
frink_status seq_reserve(struct seq *s, int n);

// Sizes of the recurrent state of one GDN layer, in floats.
int64_t seq_conv_floats(const struct model *m);
int64_t seq_ssm_floats(const struct model *m);

#endif
