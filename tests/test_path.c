// The layer seam (src/model/path.h): every fixture layer is described by bits the host path
// implements and is planned on it; a path accepts exactly the layers within its set and names
// what it lacks; each path against the host path, layer by layer; the feature strings of a few
// known layers.
#include <glob.h>
#include <math.h>
#include <string.h>

#include "core/pool.h"
#include "model/forward.h"
#include "model/path.h"
#include "model/shape.h"
#include "state/seq.h"
#include "model_util.h"
#include "test.h"

// True when `name` is one of the space-separated words of s.
static bool has_word(const char *s, const char *name) {
    size_t n = strlen(name);
    for (const char *p = s; (p = strstr(p, name)); p += n)
        if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
    return false;
}

// ---- names ------------------------------------------------------------------------

static void check_names(void) {
    const struct featset host = path_host()->implements;
    // A name for exactly the listed features, each unique; the host's set is exactly the lines
    // features.h marks HOST (today every line).
#define COLUMN_HOST(id, name, host, meaning) [LF_##id] = FEAT_##host,
    static const bool column_host[LF_COUNT] = {LAYER_FEATURES(COLUMN_HOST)};
#undef COLUMN_HOST
    for (int b = 0; b < FEAT_MAX; b++) {
        const char *name = path_feature_name(b);
        CHECK(!!name == (b < LF_COUNT), "bit %d: name %s", b, name ? name : "(none)");
        CHECK(feat_has(host, b) == (b < LF_COUNT && column_host[b]), "bit %d (%s): host %s", b, name ? name : "(none)",
              feat_has(host, b) ? "yes" : "no");
        for (int c = 0; name && c < b; c++) {
            const char *other = path_feature_name(c);
            CHECK(!other || strcmp(other, name), "bits %d and %d share the name %s", c, b, name);
        }
        for (const char *p = name; p && *p; p++) CHECK((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_', "name %s", name);
    }
    CHECK(path_feature_name(-1) == NULL && path_feature_name(LF_COUNT) == NULL && path_feature_name(FEAT_MAX) == NULL,
          "only features have names");
    CHECK(!strcmp(path_feature_name(LF_QK_NORM), "qk_norm"), "qk_norm");
    CHECK(!strcmp(path_model_feature_name(MF_FINAL_SOFTCAP), "final_softcap"), "final_softcap");
    // Strings: lowest bit first, snprintf's contract on truncation.
    char buf[64];
    size_t n = path_features_str(FEATS(LF_GDN, LF_ATTN), buf, sizeof buf);
    CHECK(n == strlen("attn gdn") && !strcmp(buf, "attn gdn"), "'%s'", buf);
    n = path_features_str(FEATS(LF_GDN, LF_ATTN), buf, 4);
    CHECK(n == strlen("attn gdn") && !strcmp(buf, "att"), "truncated '%s' (%zu)", buf, n);
    n = path_features_str((struct featset){{0}}, buf, sizeof buf);
    CHECK(n == 0 && !buf[0], "empty");
    CHECK(path_features_str(FEATS(LF_ATTN, LF_SWA), NULL, 0) == strlen("attn swa"), "length only");
    {
        int b = 0;
        while (b < FEAT_MAX && feat_has(host, b)) b++;
        char want[16];
        snprintf(want, sizeof want, "bit%d", b);
        path_features_str(FEATS(b), buf, sizeof buf);
        CHECK(b < FEAT_MAX && !strcmp(buf, want), "an unnamed bit prints as '%s', got '%s'", want, buf);
    }
}

// A feature past the first 64 (where the uint64_t word of features ended) is one like any other:
// set, found, first of what a path lacks, named (through a table that names it: the built-in
// list has no feature there yet, so there it prints as "bit200"), and refused by the plan by
// that name.
static void check_far_feature(struct model *m) {
    enum { FAR = 200 };
    struct featset s = {{0}};
    feat_set(&s, FAR);
    CHECK(feat_has(s, FAR) && !feat_has(s, FAR - 64) && !feat_has(s, FAR % 64) && feat_count(s) == 1, "set");
    CHECK(feat_next(s, 0) == FAR && feat_next(s, FAR) == FAR && feat_next(s, FAR + 1) == -1, "walk");
    struct featset u = feat_union(s, FEATS(LF_ATTN));
    CHECK(feat_eq(feat_andnot(u, FEATS(LF_ATTN)), s) && !feat_empty(u) && feat_count(u) == 2, "union / andnot");
    CHECK(feat_next(feat_andnot(u, path_host()->implements), 0) == FAR, "first missing");
    feat_clear(&u, FAR);
    CHECK(feat_eq(u, FEATS(LF_ATTN)), "clear");
    static const char *names[FAR + 1] = {[LF_ATTN] = "attn", [FAR] = "far_feature"};
    char buf[64];
    path_names_str(names, FAR + 1, FEATS(FAR, LF_ATTN), buf, sizeof buf);
    CHECK(!strcmp(buf, "attn far_feature"), "named: '%s'", buf);
    path_features_str(feat_union(s, FEATS(LF_SWA)), buf, sizeof buf);
    CHECK(!strcmp(buf, "swa bit200"), "built-in: '%s'", buf);
    // Layer 0 with it: the host path refuses it by that name, a path that lists it takes the
    // layer, and with the host alone the plan fails naming the layer and the feature.
    struct layer *L = &m->layers[0];
    const struct featset keep = L->feat;
    feat_set(&L->feat, FAR);
    const struct layer_path two[] = {*path_host(), {"test-far", feat_union(path_host()->implements, s), NULL, NULL}};
    CHECK(path_plan_with(m, two, 2) == FRINK_OK, "plan: %s", frink_errmsg());
    CHECK(L->path == &two[1] && L->path_refused && !strcmp(L->path_refused, "host: missing bit200"), "layer 0 on %s: '%s'",
          L->path ? L->path->name : "(none)", L->path_refused);
    CHECK(path_plan_with(m, path_host(), 1) == FRINK_ERR_UNSUPPORTED &&
              strstr(frink_errmsg(), "layer 0 (") && strstr(frink_errmsg(), "no path implements it (host: missing bit200)"),
          "'%s'", frink_errmsg());
    L->feat = keep;
    CHECK(path_plan(m, NULL) == FRINK_OK, "replan: %s", frink_errmsg());
}

// A feature no path lists (a line of features.h marked NONE) refuses the load by name, naming
// the layer: a host path without one of layer 0's features stands for such a line.
static void check_unlisted(const char *path, struct model *m) {
    const struct layer *L = &m->layers[0];
    int f = feat_next(L->feat, 0);
    struct layer_path host = *path_host();
    feat_clear(&host.implements, f);
    char want[160];
    snprintf(want, sizeof want, "layer 0 (%s): no path implements it (host: missing %s)", path_kind_name(L), path_feature_name(f));
    CHECK(path_plan_with(m, &host, 1) == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), want), "%s: '%s', want '%s'", path,
          frink_errmsg(), want);
    CHECK(path_plan(m, NULL) == FRINK_OK, "%s: replan: %s", path, frink_errmsg());
}

// ---- the plan of every fixture --------------------------------------------------------

// Every layer: one mixer kind and one FFN kind (or no_ffn), bits within the host's, planned on the host
// with nothing refused.
static void check_host_plan(const char *path, const struct model *m) {
    for (int il = 0; il < m->hp.n_layer; il++) {
        const struct layer *L = &m->layers[il];
        char fs[512];
        path_features_str(path_missing(path_host(), L), fs, sizeof fs);
        CHECK(path_accepts(path_host(), L), "%s layer %d: bits outside the host path: %s", path, il, fs);
        CHECK(L->path == path_host(), "%s layer %d: path %s", path, il, L->path ? L->path->name : "(none)");
        CHECK(L->path_refused == NULL, "%s layer %d: refused '%s'", path, il, L->path_refused);
        // (falcon-h1 runs attention and Mamba-2 side by side; nemotron_h's FFN-only layers have
        // their FFN as the mixer; a no_ffn layer has no FFN after its mixer)
        const int mixers = feat_has(L->feat, LF_ATTN) + feat_has(L->feat, LF_GDN) + feat_has(L->feat, LF_MAMBA) +
                           feat_has(L->feat, LF_SHORTCONV) + feat_has(L->feat, LF_PLAMO2_MAMBA) + feat_has(L->feat, LF_MAMBA2) +
                           feat_has(L->feat, LF_FFN_MIXER) + feat_has(L->feat, LF_KDA) + feat_has(L->feat, LF_LIGHTNING);
        CHECK(mixers == 1 + feat_has(L->feat, LF_ATTN_SSM_SUM), "%s layer %d: one mixer kind", path, il);
        CHECK(feat_has(L->feat, LF_FFN_DENSE) + feat_has(L->feat, LF_FFN_MOE) ==
                  (!feat_has(L->feat, LF_NO_FFN) || feat_has(L->feat, LF_FFN_MIXER)),
              "%s layer %d: one FFN kind (or none)", path, il);
        CHECK(!feat_has(L->feat, LF_MLA) || feat_has(L->feat, LF_ATTN), "%s layer %d: MLA is attention", path, il);
    }
    for (int b = feat_next(m->feat, 0); b >= 0; b = feat_next(m->feat, b + 1))
        CHECK(path_model_feature_name(b), "%s: model bit %d has no name", path, b);
}

// A path implementing exactly layer il's bits accepts every layer with the same bits (and
// refuses the others, naming what they have beyond it); with one more bit on the layer it
// refuses, naming that bit, and the host path takes it.
static void check_refusal(const char *path, struct model *m, int il) {
    struct layer *L = &m->layers[il];
    const struct featset feat = L->feat, host = path_host()->implements;
    const struct layer_path fake = {"test-dense", feat, NULL, NULL};
    const struct layer_path two[] = {fake, *path_host()};
    CHECK(path_plan_with(m, two, 2) == FRINK_OK, "%s: plan: %s", path, frink_errmsg());
    for (int j = 0; j < m->hp.n_layer; j++) {
        const struct layer *Lj = &m->layers[j];
        struct featset missing = feat_andnot(Lj->feat, feat);
        CHECK(Lj->path == (!feat_empty(missing) ? &two[1] : &two[0]), "%s layer %d on %s", path, j, Lj->path ? Lj->path->name : "(none)");
        if (feat_empty(missing)) {
            CHECK(Lj->path_refused == NULL, "%s layer %d: '%s'", path, j, Lj->path_refused);
            continue;
        }
        char want[600] = "test-dense: missing ";
        path_features_str(missing, want + strlen(want), sizeof want - strlen(want));
        CHECK(Lj->path_refused && !strcmp(Lj->path_refused, want), "%s layer %d: '%s', want '%s'", path, j, Lj->path_refused, want);
    }
    int flips = 0;
    for (int bit = 0; bit < FEAT_MAX; bit++) {
        if (feat_has(feat, bit) || !feat_has(host, bit)) continue;
        L->feat = feat;
        feat_set(&L->feat, bit);
        CHECK(path_plan_with(m, two, 2) == FRINK_OK, "%s: plan: %s", path, frink_errmsg());
        char want[128];
        snprintf(want, sizeof want, "test-dense: missing %s", path_feature_name(bit));
        CHECK(L->path == &two[1] && L->path_refused && !strcmp(L->path_refused, want), "%s layer %d + %s: on %s, '%s'", path, il,
              path_feature_name(bit), L->path ? L->path->name : "(none)", L->path_refused);
        // Alone, the fake path leaves the layer to nobody: the plan fails at the first layer it
        // refuses, naming the layer and what it lacks.
        int first = 0;
        while (feat_empty(feat_andnot(m->layers[first].feat, feat))) first++;
        CHECK(path_plan_with(m, &fake, 1) == FRINK_ERR_UNSUPPORTED, "%s: plan without the host path", path);
        char where[48];
        snprintf(where, sizeof where, "layer %d (%s): no path implements it", first, path_kind_name(&m->layers[first]));
        CHECK(strstr(frink_errmsg(), where) && (first != il || strstr(frink_errmsg(), path_feature_name(bit))), "'%s'",
              frink_errmsg());
        flips++;
    }
    L->feat = feat;
    CHECK(flips == feat_count(feat_andnot(host, feat)), "%s: %d flips", path, flips);
    CHECK(path_plan(m, NULL) == FRINK_OK, "%s: replan: %s", path, frink_errmsg());
    check_host_plan(path, m);
}

// ---- each path against the host path, layer by layer ---------------------------------------

// Logits of every row of ids through m as its layers are planned now, from an empty sequence.
static bool forward_logits(const struct model *m, struct pool *pool, const int32_t *ids, int n, float *lg) {
    struct exec *ex;
    struct seq *s;
    if (exec_create(m, pool, 64, &ex)) return false;
    if (seq_create(model_seq_shape(m), n, &s)) {
        exec_free(ex);
        return false;
    }
    bool ok = exec_forward(ex, s, ids, n, lg, true) == FRINK_OK;
    seq_free(s);
    exec_free(ex);
    return ok;
}

// Worst per-row nmse of a against the reference b (n rows of V); 0 when bit-identical.
static double worst_nmse(const float *a, const float *b, int n, int V) {
    if (!memcmp(a, b, (size_t)n * V * sizeof *a)) return 0;
    double worst = INFINITY;
    for (int t = 0; t < n; t++) {
        double num = 0, den = 0;
        for (int i = 0; i < V; i++) {
            double d = (double)a[(size_t)t * V + i] - b[(size_t)t * V + i];
            num += d * d;
            den += (double)b[(size_t)t * V + i] * b[(size_t)t * V + i];
        }
        double e = den > 0 ? num / den : num;
        worst = t == 0 || e > worst ? e : worst;
    }
    return isnan(worst) ? INFINITY : worst;
}

// Puts layer il on p and every other layer on the host path (a plan by hand), so the layer sees
// exactly the host's input and the logits show what p changed.
static void plan_one(struct model *m, int il, const struct layer_path *p) {
    for (int j = 0; j < m->hp.n_layer; j++) m->layers[j].path = j == il ? p : path_host();
}

// Each layer p accepts, run on p against the all-host logits: at most tol (0: bit-identical).
// Returns how many layers were compared.
static int path_vs_host(const char *path, struct model *m, struct pool *pool, const struct layer_path *p, double tol,
                        const float *ref, const int32_t *ids, int n, float *lg) {
    int V = m->hp.n_vocab, compared = 0;
    for (int il = 0; il < m->hp.n_layer; il++) {
        if (!path_accepts(p, &m->layers[il])) continue;
        plan_one(m, il, p);
        bool ok = forward_logits(m, pool, ids, n, lg);
        CHECK(ok, "%s layer %d on %s: %s", path, il, p->name, frink_errmsg());
        double e = ok ? worst_nmse(lg, ref, n, V) : INFINITY;
        CHECK(e <= tol, "%s layer %d on %s: nmse %.3g > %.3g", path, il, p->name, e, tol);
        compared++;
    }
    path_plan(m, NULL);
    return compared;
}

// A path that computes nothing: if planning a layer on it changes the logits, the executor runs
// each layer's planned path and the comparison above is live; if not, the executor still runs
// the host block everywhere (and every path compares as the host).
// (begin and end leave the host rows where they are; the layers compute nothing)
static frink_status skip_begin(void *st, struct exec *ex, const float *x, int T) { return (void)st, (void)ex, (void)x, (void)T, FRINK_OK; }
static frink_status skip_layers(void *st, struct exec *ex, int il0, int il1, int T) {
    return (void)st, (void)ex, (void)il0, (void)il1, (void)T, FRINK_OK;
}
static frink_status skip_end(void *st, struct exec *ex, float *x, int T) { return (void)st, (void)ex, (void)x, (void)T, FRINK_OK; }
static const struct path_ops skip_ops = {NULL, NULL, skip_begin, skip_layers, skip_end};

static void check_paths(const char *path, struct model *m, struct pool *pool, bool *dispatch_seen, bool *dispatch_live) {
    enum { N = 6 };
    int V = m->hp.n_vocab;
    int32_t ids[N];
    for (int i = 0; i < N; i++) ids[i] = (int32_t)((i * 7919 + 13) % V);
    float *ref = malloc((size_t)N * V * sizeof *ref), *lg = malloc((size_t)N * V * sizeof *lg);
    if (!ref || !lg) {
        CHECK(0, "out of memory");
        free(ref);
        free(lg);
        return;
    }
    CHECK(path_plan(m, NULL) == FRINK_OK && forward_logits(m, pool, ids, N, ref), "%s: host forward: %s", path, frink_errmsg());
    // Tolerances: the host path against itself is bit-identical; another path may sum in
    // another order (a device, fused kernels) and is held to 1e-5 nmse per row.
    for (int i = 0; path_at(i); i++) {
        const struct layer_path *p = path_at(i);
        int k = path_vs_host(path, m, pool, p, p == path_host() ? 0.0 : 1e-5, ref, ids, N, lg);
        if (p == path_host()) CHECK(k == m->hp.n_layer, "%s: the host path compared %d of %d layers", path, k, m->hp.n_layer);
    }
    if (!*dispatch_seen) {
        const struct layer_path skip = {"test-skip", path_host()->implements, &skip_ops, NULL};
        plan_one(m, 0, &skip);
        if (forward_logits(m, pool, ids, N, lg)) {
            *dispatch_seen = true;
            *dispatch_live = worst_nmse(lg, ref, N, V) != 0;
        }
        path_plan(m, NULL);
    }
    free(ref);
    free(lg);
}

// ---- known layers --------------------------------------------------------------------

struct known {
    const char *fixture;
    const char *kind;   // of the first layer of that kind in the fixture
    const char *has;    // words its feature string must hold
    const char *lacks;  // words it must not
    const char *model;  // words the model's string must hold
};

static const struct known known[] = {
    {"qwen35-dense", "gdn", "gdn ffn_dense", "attn gdn_ba_fused gdn_grouped_v rope_neox", ""},
    {"qwen35-dense", "attention", "attn qk_norm attn_gate rope_neox", "gdn swa", ""},
    {"qwen3next-moe", "gdn", "gdn ffn_moe gdn_ba_fused gdn_grouped_v ffn_shexp ffn_shexp_gate moe_norm_w", "attn", ""},
    {"gemma2-dense", "attention", "attn post_attn_norm post_ffn_norm attn_softcap q_prescale act_gelu", "qk_norm layernorm",
     "emb_sqrt final_softcap tied_output"},
    {"gemma3-dense", "attention", "qk_norm post_attn_norm post_ffn_norm", "attn_softcap", "emb_sqrt"},
    {"olmo2-dense", "attention", "no_attn_norm no_ffn_norm qk_norm_full post_attn_norm post_ffn_norm", "qk_norm layernorm", ""},
    {"falcon-dense", "attention", "parallel layernorm no_ffn_norm ffn_ungated act_gelu", "residual_scale", "layernorm"},
    {"gptneox-dense", "attention", "layernorm norm_bias ffn_ungated act_gelu", "no_ffn_norm", "layernorm"},
    {"bloom-dense", "attention", "alibi no_rope layernorm ffn_ungated", "rope_neox", "tok_norm layernorm"},
    {"mpt-dense", "attention", "alibi no_rope layernorm", "", "layernorm"},
    {"gpt-oss-moe", "attention", "attn_sinks act_swiglu_oai moe_softmax_k ffn_bias ffn_moe", "moe_norm_w", ""},
    {"deepseek2-moe", "mla", "attn mla", "gdn rope_neox", ""},
    {"granite-dense", "attention", "residual_scale rope_freqs", "parallel", ""}, // (the fixture's other scales are 1)
    {"qwen2-dense", "attention", "attn_bias rope_neox", "qk_norm", ""},
    {"gpt-oss-moe-yarn", "attention", "rope_yarn rope_scaled rope_neox", "rope_freqs", ""},
    {"llama-dense", "attention", "attn ffn_dense", "rope_neox layernorm no_attn_norm no_ffn_norm", ""},
};

static void check_known(const char *base, const struct model *m) {
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const struct known *c = &known[k];
        if (strcmp(c->fixture, base)) continue;
        int il = 0;
        while (il < m->hp.n_layer && strcmp(path_kind_name(&m->layers[il]), c->kind)) il++;
        CHECK(il < m->hp.n_layer, "%s: no %s layer", base, c->kind);
        if (il == m->hp.n_layer) continue;
        char fs[512], ms[256], w[64];
        path_features_str(m->layers[il].feat, fs, sizeof fs);
        path_model_features_str(m->feat, ms, sizeof ms);
        for (int pass = 0; pass < 3; pass++) {
            const char *list = pass == 0 ? c->has : pass == 1 ? c->lacks : c->model;
            for (const char *p = list; *p;) {
                size_t n = strcspn(p, " ");
                snprintf(w, sizeof w, "%.*s", (int)n, p);
                if (pass == 0) CHECK(has_word(fs, w), "%s layer %d (%s) lacks %s: '%s'", base, il, c->kind, w, fs);
                if (pass == 1) CHECK(!has_word(fs, w), "%s layer %d (%s) has %s: '%s'", base, il, c->kind, w, fs);
                if (pass == 2) CHECK(has_word(ms, w), "%s model lacks %s: '%s'", base, w, ms);
                p += n;
                while (*p == ' ') p++;
            }
        }
    }
}

int main(void) {
    check_names();
    // Every family's fixture, and gpt-oss with YaRN (a variant of its fixture).
    glob_t g;
    int gr = glob("tests/data/archs/*.gguf", 0, NULL, &g);
    CHECK(gr == 0 && g.gl_pathc >= 20, "fixtures: %zu", gr == 0 ? g.gl_pathc : (size_t)0);
    if (gr == 0) gr = glob("tests/data/archs/q/gpt-oss-moe-yarn.gguf", GLOB_APPEND, NULL, &g);
    struct pool *pool = pool_create(2);
    bool dispatch_seen = false, dispatch_live = false;
    int n_models = 0, n_layers = 0;
    for (size_t i = 0; gr == 0 && i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i];
        // A family the table refuses is refused by name (test_parity_archs checks that), so it
        // has no plan to check: its fixture is named "<arch>-dense" / "<arch>-moe".
        char arch[96];
        const char *sl = strrchr(path, '/');
        snprintf(arch, sizeof arch, "%s", sl ? sl + 1 : path);
        char *dash = strrchr(arch, '-');
        if (dash && (!strcmp(dash, "-dense.gguf") || !strcmp(dash, "-moe.gguf"))) {
            *dash = 0;
            const struct arch_info *ai = arch_find(arch);
            if (ai && ai->refused) continue;
        }
        struct model *m = test_model_load(path, true);
        CHECK(m, "%s: load", path);
        if (!m) continue;
        char base[64];
        const char *slash = strrchr(path, '/');
        snprintf(base, sizeof base, "%s", slash ? slash + 1 : path);
        char *dot = strstr(base, ".gguf");
        if (dot) *dot = 0;
        check_host_plan(path, m);
        check_known(base, m);
        check_unlisted(path, m);
        if (!strcmp(base, "llama-dense")) check_far_feature(m);
        check_refusal(path, m, 0);
        for (int il = 1; il < m->hp.n_layer; il++)
            if (!feat_eq(m->layers[il].feat, m->layers[0].feat)) {
                check_refusal(path, m, il); // a second shape (GDN, sliding window, dense lead ...)
                break;
            }
        check_paths(path, m, pool, &dispatch_seen, &dispatch_live);
        // One line per layer shape, as `frink inspect` would show it.
        char fs[512], ms[256];
        path_model_features_str(m->feat, ms, sizeof ms);
        printf("  %-18s model: %s\n", base, ms[0] ? ms : "-");
        for (int il = 0; il < m->hp.n_layer; il++) {
            bool seen = false;
            for (int j = 0; j < il; j++) seen |= feat_eq(m->layers[j].feat, m->layers[il].feat);
            if (seen) continue;
            path_features_str(m->layers[il].feat, fs, sizeof fs);
            printf("  %-18s layer %-2d %-9s on %s: %s\n", "", il, path_kind_name(&m->layers[il]), m->layers[il].path->name, fs);
        }
        n_models++;
        n_layers += m->hp.n_layer;
        model_free(m);
    }
    if (gr == 0) globfree(&g);
    pool_free(pool);
    printf("  %d fixtures, %d layers; executor runs each layer's planned path: %s\n", n_models, n_layers,
           !dispatch_seen ? "unknown" : dispatch_live ? "yes (paths compared for real)" : "not yet (every layer runs the host block)");
    return TEST_DONE();
}
