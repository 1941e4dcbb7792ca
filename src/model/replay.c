// replay.c — the sequence operations that evaluate tokens: appending (with the
// periodic and end-of-prompt checkpoints), and truncating or restoring a hybrid
// sequence, which resumes from a checkpoint and recomputes the tokens after it.
// state/seq.c holds the state itself and evaluates nothing; the executor
// (forward.c) reads that state and commits tokens to it; this file drives the
// executor. So the calls go one way: replay -> forward -> seq.
#include "model/replay.h"

#include <stdlib.h>
#include <string.h>

frink_status seq_append(struct exec *ex, struct seq *s, const int32_t *tokens, int n, float *logits, bool all_logits,
                        bool mark) {
    if (n <= 0) return frink_fail(FRINK_ERR_ARG, "no tokens to append");
    size_t V = (size_t)s->shape->n_vocab;
    frink_status st;
    for (int i = 0; i < n;) {
        int piece = n - i;
        int next = seq_ckpt_boundary(s); // next periodic checkpoint after n_past (0: none)
        if (next && next - s->n_past < piece) piece = next - s->n_past;
        bool last = i + piece == n;
        float *lg = NULL;
        if (logits && all_logits) lg = logits + (size_t)i * V;
        else if (logits && last) lg = logits;
        if ((st = exec_forward(ex, s, tokens + i, piece, lg, all_logits))) return st;
        i += piece;
        if (seq_ckpt_due(s) && (st = seq_checkpoint(s, false))) return st;
    }
    return mark ? seq_checkpoint(s, true) : FRINK_OK;
}

// Recomputes s->tokens[s->n_past, n) (the history is already there): from a copy,
// since evaluating writes the history it reads.
static frink_status replay(struct exec *ex, struct seq *s, const int32_t *hist, int n) {
    int k = n - s->n_past;
    int32_t *tmp = malloc((size_t)k * sizeof *tmp);
    if (!tmp) return frink_fail(FRINK_ERR_NOMEM, "out of memory replaying %d tokens", k);
    memcpy(tmp, hist + s->n_past, (size_t)k * sizeof *tmp);
    frink_status st = seq_append(ex, s, tmp, k, NULL, false, false);
    free(tmp);
    return st;
}

frink_status seq_truncate(struct exec *ex, struct seq *s, int n, int *replayed) {
    if (replayed) *replayed = 0;
    if (n < 0 || n > s->n_past)
        return frink_fail(FRINK_ERR_ARG, "cannot truncate a sequence of %d tokens to %d", s->n_past, n);
    if (n == s->n_past) return FRINK_OK;
    int base = seq_rewind(s, n);
    if (base == n) return FRINK_OK;
    if (!ex) return frink_fail(FRINK_ERR_ARG, "truncating a hybrid sequence to %d needs an executor to replay from %d", n, base);
    frink_status st = replay(ex, s, s->tokens, n);
    if (st) return st;
    if (replayed) *replayed = n - base;
    return FRINK_OK;
}

frink_status seq_restore_from(struct exec *ex, struct seq *dst, const struct seq *src, int n, int *replayed) {
    if (replayed) *replayed = 0;
    if (n >= 0 && n <= src->n_past && seq_restore_point(src, n) < n && !ex)
        return frink_fail(FRINK_ERR_ARG, "restoring a hybrid sequence to %d needs an executor to replay from %d", n,
                          seq_restore_point(src, n));
    int r;
    frink_status st = seq_copy_prefix(dst, src, n, &r);
    if (st || r == n) return st;
    if ((st = replay(ex, dst, src->tokens, n))) {
        seq_reset(dst);
        return st;
    }
    if (replayed) *replayed = n - r;
    return FRINK_OK;
}

frink_status prefix_cache_lookup(struct prefix_cache *pc, struct exec *ex, const int32_t *prompt, int n, int max_len,
                                 struct seq *dst, int *n_prefix, int *n_replayed) {
    *n_prefix = 0;
    if (n_replayed) *n_replayed = 0;
    const struct seq *src;
    int len;
    frink_status st = prefix_cache_find(pc, prompt, n, max_len, ex != NULL, &src, &len);
    if (st) return st;
    if (!src) {
        seq_reset(dst);
        return FRINK_OK;
    }
    if ((st = seq_restore_from(ex, dst, src, len, n_replayed))) return st;
    *n_prefix = len;
    return FRINK_OK;
}
