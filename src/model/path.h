// path.h — the paths that can run a layer, and the plan that picks one per layer at load.
//
// A path is a name, the exact set of layer features (LF_*, features.h) it implements, how it
// runs a step over its layers (path_ops, below) and where their products run (an mm_backend).
// It accepts a layer iff the layer has no feature outside that set:
//
//     accepts(path, L)  <=>  feat_empty(feat_andnot(L->feat, path->implements))
//
// so a feature added later is refused by every path that does not list it, instead of being
// dropped silently (docs/ARCHITECTURE.md §4). The host path implements every feature features.h marks
// HOST and is the authority. The plan (path_plan, called at the end of model_load) gives each
// layer the first path, in preference order, that accepts it, and keeps for the paths before it
// the features they lack.
#ifndef FRINK_PATH_H
#define FRINK_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "model/model.h"

struct exec;
struct layer_path;
struct mm_backend;

// How a path other than the host's runs a step. The executor (forward.c) groups the step's
// layers into runs: maximal ranges il0..il1 of consecutive layers planned on the same path. For
// each run on a path with ops it calls, once each:
//
//     begin(state, ex, x, T)         activations in: host rows x [T][D] (the embedding, or the
//                                    previous run's output) to wherever the path keeps them
//     layers(state, ex, il0, il1, T) layers il0 .. il1-1 on those activations, each as the host
//                                    block computes it (forward.c: x += mixer, x += ffn, the
//                                    state of the layer of every sequence of the step, ex->run,
//                                    updated)
//     end(state, ex, x, T)           activations out: back to host rows x [T][D]
//
// so activations cross between the host and the path twice per run, not per layer, and between
// begin and end the host rows are not read: the path owns where they live. The step's
// sequences and positions are in ex (ex->run, ex->pos). Each returns FRINK_OK or a failure
// naming its cause (a device's error): the step stops there and exec_forward / exec_batch
// return it, the step's tokens not committed (the sequences' state of the layers already run
// is then stale, as after any failure mid-batch). What can fail once (buffers) belongs in
// state_create.
struct path_ops {
    // The path's per-executor state (its activation buffers, a device stream): made by
    // exec_create, for batches of up to max_T rows, for each path the model's plan uses; freed
    // by exec_free (state_free NULL: nothing to free). NULL state_create: *state stays NULL.
    frink_status (*state_create)(const struct layer_path *p, const struct model *m, int max_T, void **state);
    void (*state_free)(void *state);
    frink_status (*begin)(void *state, struct exec *ex, const float *x, int T);
    frink_status (*layers)(void *state, struct exec *ex, int il0, int il1, int T);
    frink_status (*end)(void *state, struct exec *ex, float *x, int T);
};

struct layer_path {
    const char *name;          // stable, lowercase ("host")
    struct featset implements; // LF_* features it computes exactly as the host path does
    const struct path_ops *ops; // NULL: forward.c's host block, which the executor runs itself
    const struct mm_backend *mm; // the backend the plan gives the matrices of its layers
                               // (forward_impl.h); NULL: the host's
};

// The built-in paths in preference order (path_plan's table, "cuda" included whether or not a
// device was chosen): NULL past the end.
const struct layer_path *path_at(int i);
// The host path (the table's last): the LF_* features features.h marks HOST.
const struct layer_path *path_host(void);

// The layer features p lacks for L (empty: p accepts L).
static inline struct featset path_missing(const struct layer_path *p, const struct layer *L) {
    return feat_andnot(L->feat, p->implements);
}
static inline bool path_accepts(const struct layer_path *p, const struct layer *L) { return feat_empty(path_missing(p, L)); }

// Plans m with the built-in paths in preference order: the "cuda" path first when the device
// was chosen (device "cuda"; NULL: FRINK_DEVICE=cuda; src/cuda/cuda.h; the default is the CPU), then
// the host path. The cuda path implements no feature yet, so today every layer runs on the host
// and, with cuda chosen, its path_refused names what the cuda path lacks. Sets every layer's
// path and path_refused, and m->on_cuda (the model keeps its device). Fails, naming the layer
// and the features, when no path accepts a layer (a feature no path lists: one features.h marks
// NONE); fails naming why when
// cuda was asked for and this build or machine has none (FRINK_ERR_UNSUPPORTED) or the device
// named is unknown (FRINK_ERR_ARG). Plan before making executors (exec_create makes each
// path's state from the plan).
frink_status path_plan(struct model *m, const char *device);

// As path_plan with the paths paths[0..n) in preference order (tests plan with paths of their
// own). Replaces an earlier plan: each layer's path and path_refused, and the backend (weight.mm)
// of every matrix, a layer's from its path, the output head's the host's. On failure the
// failing layer's path is NULL.
frink_status path_plan_with(struct model *m, const struct layer_path *paths, int n);

// The stable lowercase name of the layer feature f ("qk_norm" for LF_QK_NORM), NULL for an
// index with none (outside [0, LF_COUNT)).
const char *path_feature_name(int f);
// The names of feat's features, lowest index first, separated by spaces ("bitN" for an index
// without a name), in buf (always terminated when cap > 0). Returns the length the whole string
// needs, as snprintf.
size_t path_features_str(struct featset feat, char *buf, size_t cap);
// The same over any table of names: names[f] for f < n (NULL: unnamed). What the two above and
// the model's are made of; a test can name indices the built-in lists do not have yet.
size_t path_names_str(const char *const *names, int n, struct featset feat, char *buf, size_t cap);
// "gdn", "mla" or "attention".
const char *path_kind_name(const struct layer *L);

// The same for the model features (MF_*).
const char *path_model_feature_name(int f);
size_t path_model_features_str(struct featset feat, char *buf, size_t cap);

#endif
