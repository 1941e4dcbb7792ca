// path_cuda.c — the "cuda" layer path on the step seam, the model's side of src/cuda (which holds the
// device code and includes nothing of the model): a run's activations go to a device
// buffer at begin and come back at end (model/path.h), once per run of layers. No layer runs
// there yet: the path implements no feature (model/path.c), so the plan never gives it a run
// and these entry points wait for the first device layer (its kernels, its test) to call them.
#include "model/path_cuda.h"

#include <stdlib.h>

#include "cuda/cuda.h"
#include "model/forward_impl.h"

// Per executor: the step's residual rows on the device.
struct cuda_path_state {
    struct cuda_rows *x; // [max_T][D]
    int64_t D;
};

static frink_status cuda_state_create(const struct layer_path *p, const struct model *m, int max_T, void **out) {
    (void)p;
    struct cuda_path_state *s = calloc(1, sizeof *s);
    if (!s) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    char err[256];
    s->D = m->hp.n_embd;
    if (!(s->x = cuda_rows_alloc(s->D, max_T, err, sizeof err))) {
        free(s);
        return frink_fail(FRINK_ERR_UNSUPPORTED, "cuda path: %s", err);
    }
    *out = s;
    return FRINK_OK;
}

static void cuda_state_free(void *state) {
    struct cuda_path_state *s = state;
    if (!s) return;
    cuda_rows_free(s->x);
    free(s);
}

static frink_status cuda_begin(void *state, struct exec *ex, const float *x, int T) {
    (void)ex;
    struct cuda_path_state *s = state;
    char err[256];
    if (cuda_rows_upload(s->x, x, T, err, sizeof err)) return frink_fail(FRINK_ERR_STATE, "cuda path: %s", err);
    return FRINK_OK;
}

static frink_status cuda_layers(void *state, struct exec *ex, int il0, int il1, int T) {
    (void)state, (void)ex, (void)il1, (void)T;
    return frink_fail(FRINK_ERR_UNSUPPORTED, "cuda path: layer %d: no layer runs on the device yet", il0);
}

static frink_status cuda_end(void *state, struct exec *ex, float *x, int T) {
    (void)ex;
    struct cuda_path_state *s = state;
    char err[256];
    if (cuda_rows_download(s->x, x, T, err, sizeof err)) return frink_fail(FRINK_ERR_STATE, "cuda path: %s", err);
    return FRINK_OK;
}

const struct path_ops cuda_path_ops = {cuda_state_create, cuda_state_free, cuda_begin, cuda_layers, cuda_end};
