// loader.h — what the files that bind a family's tensors share with model.c: the
// loader's ledgers (metadata keys consumed, tensors read) and the helpers that take
// from them. A family whose mixer lives in its own file (mamba.c, ...) binds its
// tensors there with these, so model.c keeps the walk over layers and the refusals.
//
// Every helper records its first error in ld->st (sticky; later calls see it and do
// nothing harmful) and marks what it took as read: anything left unread refuses the
// file by name at the end of model_load.
#ifndef FRINK_MODEL_LOADER_H
#define FRINK_MODEL_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/gguf.h"
#include "model/model.h"

struct loader {
    struct gguf_file *f;
    struct model *m;
    const char *arch;
    uint8_t *kv_used;     // [n_kv]
    uint8_t *t_used;      // [n_tensors]
    frink_status st;      // first error (sticky)
};

// Records the first error (a message naming the key, tensor or layer) and returns it.
frink_status ld_fail(struct loader *ld, frink_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

// ---- metadata: keys are "<arch>.<key>" --------------------------------------------------
// The key, marked consumed, or NULL when absent.
const struct gguf_kv *kv_take(struct loader *ld, const char *key);
bool kv_is_num(const struct gguf_kv *kv);
double kv_num(const struct gguf_kv *kv);
// Scalar number, or `def` when absent. Required keys pass def = NAN.
double hp_num(struct loader *ld, const char *key, double def);
int hp_int(struct loader *ld, const char *key, double def);
// A per-layer value: a scalar broadcast to every layer, or an array of block_count.
int hp_layer_int(struct loader *ld, const char *key, int def, int il, int n_layer_total);
// attention.recurrent_layers (array) or full_attention_interval: is layer il recurrent?
bool layer_is_recurrent(struct loader *ld, int il, int n_total);
// attention.sliding_window_pattern (array or period), else the row's swa_pattern.
bool layer_is_swa(struct loader *ld, int il, int n_total);

// ---- tensors: full names ("blk.3.ssm_a"), bases without ".weight" for matrices ------------
const struct gguf_tensor *t_take(struct loader *ld, const char *name);
// A small tensor as F32 (a copy owned by the model when the file's type is not F32):
// want_n elements (0: any), NULL when absent (an error when required).
const float *vec_take(struct loader *ld, const char *name, int64_t want_n, bool required);
// A matrix `<base>.weight` [n_in, n_out(, n_mat)] (0: any size), its `.bias` and `.scale`
// when present: scale_applied / bias_applied say whether this family applies them (else they
// stay unread and the file is refused by name).
struct weight mat_take_b(struct loader *ld, const char *base, int64_t n_in, int64_t n_out, int64_t n_mat,
                         bool required, bool scale_applied, bool bias_applied);
struct weight mat_take(struct loader *ld, const char *base, int64_t n_in, int64_t n_out, int64_t n_mat,
                       bool required, bool scale_applied);
// A norm weight `<base>.weight` [n] and, when bias is not NULL, its optional `<base>.bias`.
const float *norm_take(struct loader *ld, const char *base, int64_t n, bool required, const float **bias);
// Memory owned by the model (freed with it), NULL when out of memory.
void *owned_alloc(struct model *m, size_t bytes);

#endif
