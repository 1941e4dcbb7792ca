// path.c — the table of layer paths, the per-layer plan, and the names of the features.
#include "model/path.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda.h"
#include "model/path_cuda.h"
#include "model/forward_impl.h"

// Every layer feature the host path (forward.c, attn.c, gdn.c, ffn.c) computes: the lines of
// features.h marked HOST, one word per 64 features. Deliberately not "every feature": one marked
// NONE is implemented by no path, and so refused at load by name, until the host path applies
// it and its line says HOST (features.h argues why that is a column there).
#define HOST_WORD(id, name, host, meaning, k) | (FEAT_##host && LF_##id / 64 == (k) ? (uint64_t)1 << (LF_##id % 64) : 0)
#define HOST_W0(id, name, host, meaning) HOST_WORD(id, name, host, meaning, 0)
#define HOST_W1(id, name, host, meaning) HOST_WORD(id, name, host, meaning, 1)
#define HOST_W2(id, name, host, meaning) HOST_WORD(id, name, host, meaning, 2)
#define HOST_W3(id, name, host, meaning) HOST_WORD(id, name, host, meaning, 3)
_Static_assert(FEAT_MAX == 256, "HOST_FEATURES builds four words");
#define HOST_FEATURES                                                                                            \
    {{0 LAYER_FEATURES(HOST_W0), 0 LAYER_FEATURES(HOST_W1), 0 LAYER_FEATURES(HOST_W2), 0 LAYER_FEATURES(HOST_W3)}}

// What the CUDA path implements: NOTHING yet. Its set is empty, so it refuses every layer,
// naming all of the layer's features in path_refused, and the host path runs the layer. Its
// step entry points exist on the seam (src/model/path_cuda.c: the run's rows to a device buffer
// and back), its layers have nothing to run, and its products stay on the host backend (no
// weight of a layer it refuses is given another). The device's matvecs exist (src/cuda/) and are checked
// against the host by scripts/device-check.sh, but no layer is wired onto them: a fused layer
// that no device has run is untested code. Each feature goes here only with its device test.
#define CUDA_FEATURES {{0}}

// In preference order; the host path last (it accepts every layer). A fused or device path
// goes before it with the exact set it implements. The cuda entry (PATH_CUDA) takes part in a
// plan only when the model's device is cuda (its params, else FRINK_DEVICE) and is present.
enum { PATH_CUDA = 0 };
static const struct layer_path paths[] = {
    [PATH_CUDA] = {"cuda", CUDA_FEATURES, &cuda_path_ops, NULL},
    {"host", HOST_FEATURES, NULL, NULL},
};

#define N_PATHS ((int)(sizeof paths / sizeof paths[0]))

const struct layer_path *path_at(int i) { return i >= 0 && i < N_PATHS ? &paths[i] : NULL; }

const struct layer_path *path_host(void) { return &paths[N_PATHS - 1]; }

// ---- names ------------------------------------------------------------------------

#define FEAT_NAME_LF(id, name, host, meaning) [LF_##id] = name,
#define FEAT_NAME_MF(id, name, meaning) [MF_##id] = name,
static const char *const layer_names[LF_COUNT] = {LAYER_FEATURES(FEAT_NAME_LF)};
static const char *const model_names[MF_COUNT] = {MODEL_FEATURES(FEAT_NAME_MF)};

size_t path_names_str(const char *const *names, int n, struct featset feat, char *buf, size_t cap) {
    size_t len = 0;
    if (cap) buf[0] = 0;
    for (int f = feat_next(feat, 0); f >= 0; f = feat_next(feat, f + 1)) {
        const char *name = f < n ? names[f] : NULL;
        char tmp[16];
        if (!name) {
            snprintf(tmp, sizeof tmp, "bit%d", f);
            name = tmp;
        }
        int k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "%s%s", len ? " " : "", name);
        len += (size_t)k;
    }
    return len;
}

const char *path_feature_name(int f) { return f >= 0 && f < LF_COUNT ? layer_names[f] : NULL; }

size_t path_features_str(struct featset feat, char *buf, size_t cap) { return path_names_str(layer_names, LF_COUNT, feat, buf, cap); }

const char *path_model_feature_name(int f) { return f >= 0 && f < MF_COUNT ? model_names[f] : NULL; }

size_t path_model_features_str(struct featset feat, char *buf, size_t cap) {
    return path_names_str(model_names, MF_COUNT, feat, buf, cap);
}

const char *path_kind_name(const struct layer *L) {
    if (feat_has(L->feat, LF_GDN)) return "gdn";
    if (feat_has(L->feat, LF_MAMBA2)) return feat_has(L->feat, LF_ATTN) ? "attention+mamba2" : "mamba2";
    if (feat_has(L->feat, LF_FFN_MIXER)) return "ffn";
    if (feat_has(L->feat, LF_MLA)) return "mla";
    if (feat_has(L->feat, LF_MAMBA) || feat_has(L->feat, LF_PLAMO2_MAMBA)) return "mamba";
    if (feat_has(L->feat, LF_SHORTCONV)) return "shortconv";
    if (feat_has(L->feat, LF_KDA)) return "kda";
    if (feat_has(L->feat, LF_LIGHTNING)) return "lightning";
    return "attention";
}

// ---- the plan ------------------------------------------------------------------------

// A growing string; nomem once an allocation failed.
struct sbuf {
    char *p;
    size_t len, cap;
    bool nomem;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *sb, const char *fmt, ...) {
    if (sb->nomem) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (sb->len + (size_t)k + 1 > sb->cap) {
        size_t cap = (sb->len + (size_t)k + 1) * 2;
        char *p = realloc(sb->p, cap);
        if (!p) {
            sb->nomem = true;
            return;
        }
        sb->p = p;
        sb->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(sb->p + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    sb->len += (size_t)k;
}

// Appends "name: missing a b" for a refusing path.
static void sb_refusal(struct sbuf *sb, const struct layer_path *p, struct featset missing) {
    size_t need = path_features_str(missing, NULL, 0) + 1;
    char *names = malloc(need);
    if (!names) {
        sb->nomem = true;
        return;
    }
    path_features_str(missing, names, need);
    sb_printf(sb, "%s%s: missing %s", sb->len ? "; " : "", p->name, names);
    free(names);
}

// Every matrix of L to p's backend (the host's when p has none).
static void layer_backends(struct layer *L, const struct layer_path *p) {
    const struct mm_backend *mm = p && p->mm ? p->mm : &mm_host;
    struct weight *ws[] = {LAYER_MATRICES(L), LAYER_EXPERT_MATRICES(L)};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) ws[i]->mm = mm;
}

frink_status path_plan_with(struct model *m, const struct layer_path *ps, int n) {
    m->output.mm = m->tok_embd.mm = m->pos_embd.mm = m->cls_out.mm = &mm_host;
    for (int il = 0; il < m->hp.n_layer; il++) {
        struct layer *L = &m->layers[il];
        free(L->path_refused);
        L->path_refused = NULL;
        L->path = NULL;
        struct sbuf sb = {0};
        for (int i = 0; i < n && !L->path; i++) {
            struct featset missing = path_missing(&ps[i], L);
            if (!feat_empty(missing)) sb_refusal(&sb, &ps[i], missing);
            else L->path = &ps[i];
        }
        if (sb.nomem) {
            free(sb.p);
            L->path = NULL;
            return frink_fail(FRINK_ERR_NOMEM, "out of memory");
        }
        L->path_refused = sb.p;
        layer_backends(L, L->path);
        if (!L->path)
            return frink_fail(FRINK_ERR_UNSUPPORTED, "layer %d (%s): no path implements it (%s)", il, path_kind_name(L),
                              sb.p ? sb.p : "no paths");
    }
    return FRINK_OK;
}

frink_status path_plan(struct model *m, const char *device) {
    char err[256];
    int cuda = device ? cuda_parse_device(device, err, sizeof err) : cuda_plan_device(err, sizeof err);
    if (cuda < 0) return frink_fail(cuda == -2 ? FRINK_ERR_ARG : FRINK_ERR_UNSUPPORTED, "%s", err);
    m->on_cuda = cuda == 1;
    const int first = cuda ? PATH_CUDA : PATH_CUDA + 1;
    return path_plan_with(m, paths + first, N_PATHS - first);
}
