// forward.h — the host path: the reference forward pass for every feature in
// the architecture table, batched over tokens, multithreaded over rows.
#ifndef FRINK_FORWARD_H
#define FRINK_FORWARD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/pool.h"
#include "model/model.h"
#include "model/seq.h"

struct exec;

// An executor owns scratch sized for batches of up to max_batch tokens.
frink_status exec_create(const struct model *m, struct pool *pool, int max_batch, struct exec **out);
void exec_free(struct exec *ex);

// Chunk size of the chunked Gated DeltaNet prefill (0 or 1 = token recurrence).
void exec_set_gdn_chunk(struct exec *ex, int chunk);

// Runs tokens[0..n) through the model, appending them to `s` at s->n_past.
// Batches larger than max_batch are split. Logits (n_vocab floats each) are
// written for the last token, or for every token when all_logits (then
// `logits` holds n rows). logits may be NULL when none are wanted.
frink_status exec_forward(struct exec *ex, struct seq *s, const int32_t *tokens, int n, float *logits, bool all_logits);

#endif
