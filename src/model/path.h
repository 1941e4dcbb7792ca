// path.h — the paths that can run a layer, and the plan that picks one per layer at load.
//
// A path is a name, the exact set of layer features (LF_* bits, model.h) it implements, and
// its block function. It accepts a layer iff the layer has no bit outside that set:
//
//     accepts(path, L)  <=>  (L->feat & ~path->implements) == 0
//
// so a feature added later is refused by every path that does not list it, instead of being
// dropped silently (DESIGN.md §4). The host path implements every bit and is the authority.
// The plan (path_plan, called at the end of model_load) gives each layer the first path, in
// preference order, that accepts it, and keeps for the paths before it the bits they lack.
#ifndef FRINK_PATH_H
#define FRINK_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "model/model.h"

struct exec;

// One layer's block on rows x [T][D] of the executor's current step (its sequences and
// positions are in ex): x += mixer(...), x += ffn(...), the state of layer il of every
// sequence of the step updated. The contract of the host block in forward.c.
typedef void (*layer_path_fn)(struct exec *ex, int il, float *x, int T);

struct layer_path {
    const char *name;     // stable, lowercase ("host")
    uint64_t implements;  // LF_* bits it computes exactly as the host path does
    layer_path_fn run;    // NULL: forward.c's host block, which the executor runs itself
};

// The built-in paths in preference order (path_plan's table, "cuda" included whether or not a
// device was chosen): NULL past the end.
const struct layer_path *path_at(int i);
// The host path (the table's last): every LF_* bit, listed one by one in path.c.
const struct layer_path *path_host(void);

// The layer bits p lacks for L (0: p accepts L).
static inline uint64_t path_missing(const struct layer_path *p, const struct layer *L) { return L->feat & ~p->implements; }

// Plans m with the built-in paths in preference order: the "cuda" path first when the device
// was chosen (device "cuda"; NULL: FRINK_DEVICE=cuda; src/cuda/cuda.h; the default is the CPU), then
// the host path. The cuda path implements no feature yet, so today every layer runs on the host
// and, with cuda chosen, its path_refused names what the cuda path lacks. Sets every layer's
// path and path_refused, and m->on_cuda (the model keeps its device). Fails, naming the layer
// and the bits, when no path accepts a layer (a bit no path lists: a bit added to model.h without its host path entry); fails naming why when
// cuda was asked for and this build or machine has none (FRINK_ERR_UNSUPPORTED) or the device
// named is unknown (FRINK_ERR_ARG).
frink_status path_plan(struct model *m, const char *device);

// As path_plan with the paths paths[0..n) in preference order (tests plan with paths of their
// own). Replaces an earlier plan; on failure the failing layer's path is NULL.
frink_status path_plan_with(struct model *m, const struct layer_path *paths, int n);

// The stable lowercase name of one LF_* bit ("qk_norm"), NULL for a bit without one (or not
// exactly one bit).
const char *path_feature_name(uint64_t bit);
// The names of feat's bits, lowest first, separated by spaces ("bitN" for an unnamed one), in
// buf (always terminated when cap > 0). Returns the length the whole string needs, as snprintf.
size_t path_features_str(uint64_t feat, char *buf, size_t cap);
// "gdn", "mla" or "attention".
const char *path_kind_name(const struct layer *L);

// The same for the model bits (MF_*).
const char *path_model_feature_name(uint64_t bit);
size_t path_model_features_str(uint64_t feat, char *buf, size_t cap);

#endif
