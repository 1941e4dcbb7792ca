// forward.h — the host path: the reference forward pass for every feature in
// the architecture table, batched over tokens, multithreaded over rows.
#ifndef FRINK_FORWARD_H
#define FRINK_FORWARD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/pool.h"
#include "model/model.h"
#include "state/seq.h"

struct exec;

// An executor owns scratch sized for batches of up to max_batch tokens.
frink_status exec_create(const struct model *m, struct pool *pool, int max_batch, struct exec **out);
void exec_free(struct exec *ex);

// Chunk size of the chunked Gated DeltaNet prefill (0 or 1 = token recurrence).
void exec_set_gdn_chunk(struct exec *ex, int chunk);

// What exec_batch writes for the tokens that ask for output: logits (n_vocab floats a row;
// the default) or, on, the final hidden state after the output norm (n_embd floats a row; the
// reference's t_embd, what embeddings pool). On, the output projection is skipped. Between
// steps only; the caller sets it back when done.
void exec_set_hidden_out(struct exec *ex, bool on);
// A function shown the input of every weight product of the host path before it runs: the
// product's weight (key: the same pointer for the same tensor; its tensor name; n_in inputs;
// n_mat matrices), the expert matrix (0 for a plain one), T rows of x (row stride ldx, n_in
// wide). It must not keep x. The importance matrix (frink_imatrix_compute) is its user. NULL:
// none. Products computed outside exec_mm (a gate row in F32) call exec_observe themselves.
typedef void (*exec_observe_fn)(void *ud, const void *key, const char *name, int64_t n_in, int64_t n_mat, int mat,
                                const float *x, int64_t ldx, int T);
void exec_set_observer(struct exec *ex, exec_observe_fn fn, void *ud);

// The kernel set every product, attention and recurrence step of this executor runs (at most
// quant_cpu_isa(); QUANT_ISA_SCALAR: the reference kernels). exec_create starts with
// quant_cpu_isa(). The weights packed at load are used only when isa is the set they were
// packed for (model.packed_isa); any other set reads the file's layout, with the same results
// as that set always gives. Call it between steps, never during one.
void exec_set_kernels(struct exec *ex, enum quant_isa_id isa);
enum quant_isa_id exec_kernels(const struct exec *ex);

// Runs tokens[0..n) through the model, appending them to `s` at s->n_past.
// Batches larger than max_batch are split. Logits (n_vocab floats each) are
// written for the last token, or for every token when all_logits (then
// `logits` holds n rows). logits may be NULL when none are wanted.
frink_status exec_forward(struct exec *ex, struct seq *s, const int32_t *tokens, int n, float *logits, bool all_logits);

// One token of a batch: the sequence it extends, its id, whether its logits are wanted.
struct exec_tok {
    struct seq *s;
    int32_t id;
    bool logits;
};

// Evaluates tok[0..n), tokens of any number of sequences of this model: each
// sequence's tokens are appended in the order given, after its n_past. The
// tokens go through the model in steps of at most max_batch rows, every step
// carrying the tokens of several sequences (products over all of them,
// attention and recurrences per sequence). A hybrid sequence takes its
// periodic checkpoints as seq_append does. logits: n_logits rows of n_vocab,
// row k for the k-th token with `logits` set (may be NULL). Everything is
// validated before anything is evaluated (ids, sequences, memory); a later
// failure leaves sequences holding part of their tokens.
// Batch invariance: a sequence's logits are bit-identical to evaluating its
// tokens alone (exec_forward), in any chunking, at any thread count — with the
// token recurrence for Gated DeltaNet layers (the default; the chunked form
// depends on where chunks start).
frink_status exec_batch(struct exec *ex, const struct exec_tok *tok, int n, float *logits);

// The activation of an encoder's rank pooler on its output y [n] in place (engine/embed_api.c,
// after the cls product): tanh, or for MF_RANK_MEAN_GELU GELU (the reference's F16 table) then
// the LayerNorm cls.norm when the model has one. Needs an executor made (the GELU table).
void exec_rank_pooler_act(const struct model *m, float *y, int n);

#endif
