// seq.h — the state of one sequence: tokens, KV cache per attention layer,
// recurrent state per Gated DeltaNet layer, and checkpoints of that recurrent
// state so a hybrid sequence can rewind.
//
// KV rows are stored in the sequence's cache type: F16 (the default, and the
// reference's: K and V are rounded when written, exactly as the reference
// rounds them), F32, or Q8_0 (row length must be a multiple of 32). attn.c
// writes rows through seq_kv_store_row and, for the non-F16 types, reads them
// through seq_kv_load_row; the F16 path reads the rows in place.
//
// Rewinding. An attention layer rewinds by moving n_past: rows past it are
// simply overwritten later. A recurrent (GDN) layer cannot: its state has
// folded every token in. So seq_append (model/replay.h) takes **checkpoints** — copies of every
// GDN layer's conv window and delta-rule state — at absolute positions that
// are multiples of `ckpt_every`, and at the end of each appended prompt
// (`mark`). seq_truncate restores the nearest checkpoint at or before the
// target and replays the tokens after it. Position 0 (all zeros) is always
// available, so truncation never fails for want of a checkpoint; it only costs
// replay.
//
// Checkpoint policy (bounds memory; each checkpoint is n_gdn_layers x
// (conv + ssm) floats, e.g. ~19 MiB for a Qwen3.5-2B shape):
//   - periodic checkpoints: the `ckpt_keep_recent` most recent are kept;
//   - marked (end-of-prompt) checkpoints: the `ckpt_keep_marked` most recent
//     are kept, independently of the periodic ones;
//   - truncation drops every checkpoint past the new length.
// Checkpoints are immutable and reference-counted: a fork shares them.
// Attention-only models take no checkpoints.
//
// The state knows nothing of the model: what each layer holds comes from a
// `struct seq_shape` that the model builds once at load (model/shape.h), and
// the executor writes a step's tokens through seq_commit and asks the
// checkpoint policy through seq_ckpt_boundary / seq_ckpt_due. So state sits
// below the model and evaluates nothing (model/replay.h does).
#ifndef FRINK_SEQ_H
#define FRINK_SEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

enum kv_type { KV_F16 = 0, KV_F32 = 1, KV_Q8_0 = 2 };
enum { KV_K = 0, KV_V = 1 };

const char *seq_kv_type_name(enum kv_type t);
// Parses "f16", "f32", "q8_0" (case-insensitive). Returns false when unknown.
bool seq_kv_type_parse(const char *s, enum kv_type *out);

// What one layer keeps of a sequence: K and V rows (attention), a conv window
// and a delta-rule state (recurrent: Gated DeltaNet), or nothing.
enum seq_layer_kind { SEQ_LAYER_NONE = 0, SEQ_LAYER_ATTN = 1, SEQ_LAYER_RECURRENT = 2 };

struct seq_layer_shape {
    enum seq_layer_kind kind;
    int64_t k_len, v_len;               // attention (a recurrent layer may also attend: falcon-h1): elements of
                                        // one K / V row (n_head_kv * head_dim(_v)); else 0
    int64_t conv_floats, ssm_floats;    // recurrent: floats of the conv window / delta-rule state; else 0
};

// Everything a sequence needs to know of its model, built once per model and
// shared by its sequences (which compare the pointer to tell models apart).
// The strings belong to the model and live as long as the shape.
struct seq_shape {
    int n_vocab;          // token ids are in [0, n_vocab) (slot files are checked against it)
    int n_recurrent;      // recurrent layers: > 0 makes the sequence hybrid (checkpoints)
    int64_t state_floats; // sum of conv_floats + ssm_floats over the recurrent layers: one checkpoint
    uint64_t identity;    // the model's identity in slot files (model/shape.h: model_identity)
    const char *arch;     // architecture name, as slot files record it
    const char *name;     // model name (general.name, may be empty)
    int n_layer;
    struct seq_layer_shape layer[]; // [n_layer]
};

// A snapshot of every GDN layer's recurrent state after `pos` tokens.
// Immutable once taken; shared between forks and prefix-cache entries.
struct seq_ckpt {
    int refs;          // owners; changed atomically
    int pos;           // tokens folded into the state
    float *data;       // [n_gdn][conv | ssm], GDN layers in layer order
};

// A sequence's reference to a checkpoint, with its policy class.
struct seq_cp {
    struct seq_ckpt *c;
    bool marked;       // end of an appended prompt (kept under ckpt_keep_marked)
};

struct seq_opts {
    int cap;                // initial KV capacity in tokens (grows on demand)
    enum kv_type kv_type;   // KV cache row format
    int ckpt_every;         // periodic checkpoint spacing in tokens (0: none)
    int ckpt_keep_recent;   // periodic checkpoints kept
    int ckpt_keep_marked;   // end-of-prompt checkpoints kept
};

// Defaults: F16 cache, a checkpoint every 256 tokens (a multiple of the chunked
// delta rule's 64, so piece boundaries do not move chunk boundaries), the 4
// most recent periodic and 8 most recent marked checkpoints.
void seq_opts_default(struct seq_opts *o);

struct seq {
    const struct seq_shape *shape; // the model's (not owned)
    int n_past;          // tokens whose K/V (and recurrent effect) are in the state
    int cap;             // KV capacity in tokens
    int32_t *tokens;     // [cap] token history
    enum kv_type kv_type;
    uint8_t **k, **v;    // per layer: [cap][row bytes] in kv_type; NULL for GDN layers
    size_t *k_row, *v_row; // per layer: bytes of one K / V row (0 for GDN layers)
    float **conv;        // per layer: [C][Kc-1] raw conv inputs, oldest first; NULL for attention layers
    float **ssm;         // per layer: [nv][dk][dv] delta-rule state; NULL for attention layers
    struct seq_cp *ckpt; // [n_ckpt] sorted by pos, ascending
    int n_ckpt, cap_ckpt;
    int ckpt_every, ckpt_keep_recent, ckpt_keep_marked;
};

// Creates an empty sequence of a model of shape `sh` (which must outlive it)
// with room for `cap` tokens (grows on demand), F16 cache, default checkpoint
// policy.
frink_status seq_create(const struct seq_shape *sh, int cap, struct seq **out);
// The same with every option. Fails naming the layer when Q8_0 is asked of a
// row length that is not a multiple of 32.
frink_status seq_create_opts(const struct seq_shape *sh, const struct seq_opts *o, struct seq **out);
void seq_free(struct seq *s);
// Forgets everything: KV emptied, recurrent state zeroed, checkpoints dropped.
void seq_reset(struct seq *s);
// Makes room for at least `n` tokens (keeps contents).
frink_status seq_reserve(struct seq *s, int n);
// True when the model has recurrent (GDN) layers: rewinding needs checkpoints.
bool seq_is_hybrid(const struct seq *s);

// Commits the n tokens the executor has just evaluated (their K/V rows and
// recurrent effect are in the state): appends them to the history after
// n_past and moves n_past past them. The executor reserved room for them
// (seq_reserve) before evaluating. The one way tokens enter a sequence.
void seq_commit(struct seq *s, const int32_t *tokens, int n);

// The periodic checkpoint policy, as the executor and seq_append ask it.
// seq_ckpt_boundary: the position of the next periodic checkpoint after n_past
// (a multiple of ckpt_every), or 0 when the sequence takes none (attention-only,
// or ckpt_every 0): a run of tokens stops there so that the checkpoint is taken
// exactly at it. seq_ckpt_due: whether a periodic checkpoint belongs at n_past
// (n_past > 0 and on a boundary); the caller then takes seq_checkpoint(s, false).
int seq_ckpt_boundary(const struct seq *s);
bool seq_ckpt_due(const struct seq *s);

// Takes a checkpoint of the current state (no-op for attention-only models,
// or when one already exists at n_past; `mark` upgrades an existing one).
frink_status seq_checkpoint(struct seq *s, bool mark);

// The position of the checkpoint seq_truncate(n) would restore (0 when none);
// n itself when no replay is needed.
int seq_restore_point(const struct seq *s, int n);

// A copy of `s` (same model, options, tokens, KV rows up to n_past, recurrent
// state); checkpoints are shared, not copied.
frink_status seq_fork(const struct seq *s, struct seq **out);

// The storage half of truncation (model/replay.h has the whole): n <= n_past.
// Attention-only: n_past = n. Hybrid: drops the checkpoints past n, restores the
// nearest one at or before n (or zeros) and sets n_past to its position. Returns
// the new n_past; the tokens up to n stay in the history, to be replayed.
int seq_rewind(struct seq *s, int n);

// The storage half of seq_restore_from: resets dst and copies src's tokens
// [0, n), KV rows and (for hybrid models) the state at r = seq_restore_point(src,
// n), sharing src's checkpoints up to r; dst->n_past = *r. Validates as
// seq_restore_from (same model, same KV type, n in range).
frink_status seq_copy_prefix(struct seq *dst, const struct seq *src, int n, int *r);

// Bytes the sequence holds for n_past tokens plus its recurrent state and
// checkpoints (for budgets and reports).
size_t seq_bytes(const struct seq *s);

// Bytes of one row of n elements in cache type t (n % 32 == 0 for Q8_0).
size_t seq_kv_row_bytes(enum kv_type t, int64_t n);
// Writes x[0..row) as the K (which = KV_K) or V row of token `pos` of layer il.
void seq_kv_store_row(struct seq *s, int il, int which, int pos, const float *x);
// Reads elements [off, off+n) of the K or V row of token `pos` of layer il as
// floats (any offset: Q8_0 blocks are decoded as needed).
void seq_kv_load_row(const struct seq *s, int il, int which, int pos, int off, int n, float *dst);

// Checkpoint reference counting (shared with the prefix cache).
void seq_ckpt_retain(struct seq_ckpt *c);
void seq_ckpt_release(struct seq_ckpt *c);
// Copies a checkpoint's state into the sequence's live GDN state.
void seq_ckpt_apply(struct seq *s, const struct seq_ckpt *c);

// A snapshot of the live state outside the checkpoint list (speculative decoding's verify
// steps). seq_state_copy_out copies every recurrent layer's state into buf (state_floats
// floats; nothing for attention-only models). seq_state_put_back returns the sequence to a
// snapshot copied out at length pos (pos <= n_past): the recurrent state from buf, n_past =
// pos, the checkpoints past pos dropped. K/V rows past pos are simply overwritten later.
void seq_state_copy_out(const struct seq *s, float *buf);
void seq_state_put_back(struct seq *s, const float *buf, int pos);

#endif
