// shape.h — what a sequence of a model holds, told to state/ in its own terms
// (struct seq_shape, state/seq.h), and the model's identity in slot files.
// The model builds its shape once at load (model_load) and keeps it in
// m->seq_shape: every sequence, prefix cache and slot file of the model points
// at that one shape, so state/ never reads the model.
#ifndef FRINK_MODEL_SHAPE_H
#define FRINK_MODEL_SHAPE_H

#include <stdint.h>

#include "core/err.h"
#include "model/model.h"
#include "state/seq.h"

// Builds the shape of m's sequences: per layer its kind (recurrent for Gated
// DeltaNet layers, attention for the others that attend), K/V row lengths and
// recurrent state sizes, and the model's vocabulary, identity, architecture
// and name. *out is one allocation (free() releases it) whose strings point
// into m: it lives as long as m. Fails only for memory.
frink_status model_seq_shape_build(const struct model *m, struct seq_shape **out);

// The shape built at load (never NULL for a model model_load returned).
const struct seq_shape *model_seq_shape(const struct model *m);

// A 64-bit identity of the model: architecture, every metadata key and value,
// and the tensor table (names, types, shapes, offsets). Not the weights: two
// files with equal tables and metadata but different weights look the same.
uint64_t model_identity(const struct model *m);

// Sizes of the recurrent state of one Gated DeltaNet layer of m, in floats:
// the conv window [C][Kc-1] and the delta-rule state [nv][dk][dv].
int64_t model_gdn_conv_floats(const struct model *m);
int64_t model_gdn_ssm_floats(const struct model *m);

#endif
