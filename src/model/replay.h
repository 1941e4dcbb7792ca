// replay.h — sequence operations that evaluate tokens through an executor:
// appending with checkpoints, truncating / restoring with replay, and the
// prefix cache's lookup (which restores with replay). The state they act on is
// state/seq.h's (state/state.h's cache); the executor is forward.h's. They sit
// here, on the executor's side, so that state/ evaluates nothing and includes
// nothing above it.
#ifndef FRINK_REPLAY_H
#define FRINK_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "model/forward.h"
#include "state/seq.h"
#include "state/state.h"

// Appends tokens[0..n) (exec_forward), split into pieces at absolute positions
// that are multiples of ckpt_every, taking a periodic checkpoint at each such
// boundary; with `mark`, also a marked checkpoint after the last token. Logits
// as exec_forward. On failure the sequence may hold part of the tokens.
frink_status seq_append(struct exec *ex, struct seq *s, const int32_t *tokens, int n, float *logits, bool all_logits,
                        bool mark);

// Shortens the sequence to its first n tokens (n <= n_past). Attention-only:
// moves n_past. Hybrid: restores the nearest checkpoint at or before n (or
// zeros) and replays the tokens after it through `ex`; *replayed (may be
// NULL) gets how many. Checkpoints past n are dropped. Logits are not produced:
// a caller that needs the logits of token n-1 truncates to n-1 and appends it.
frink_status seq_truncate(struct exec *ex, struct seq *s, int n, int *replayed);

// Makes `dst` the state of `src` truncated to n tokens (n <= src->n_past)
// without changing src: tokens and KV rows are copied; for hybrid models the
// recurrent state at seq_restore_point(src, n) is copied and the tokens after
// it replayed through `ex` (*replayed, may be NULL, gets how many). Both must
// belong to the same model and use the same KV cache type.
frink_status seq_restore_from(struct exec *ex, struct seq *dst, const struct seq *src, int n, int *replayed);

// Finds the longest prefix (at most max_len tokens) any entry of `pc` shares
// with prompt[0..n) (prefix_cache_find) and restores `dst` to it (replaying
// after the nearest checkpoint for hybrid models). *n_prefix gets the restored
// length (0: a miss, dst reset), *n_replayed how many of those were recomputed
// rather than copied. ex NULL evaluates nothing: a hybrid's prefix stops at the
// entry's restore point.
frink_status prefix_cache_lookup(struct prefix_cache *pc, struct exec *ex, const int32_t *prompt, int n, int max_len,
                                 struct seq *dst, int *n_prefix, int *n_replayed);

#endif
