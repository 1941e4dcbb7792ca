// The step-level seam (src/model/path.h) driven by a test path: a host "shadow device" that
// keeps the step's activations in its own buffer between a run's begin and end, counts the
// transfers, runs each layer it accepts with the host block on that buffer, sends its layers'
// products through its own backend (counted, computed by the host's), and refuses what it lacks.
// On a few fixtures, batch and decode with several sequences per step, it proves:
//   - one transfer in and one out per run of consecutive layers per step, the runs maximal, and
//     the host rows untouched meanwhile (begin poisons them: a read would show in the logits);
//   - every product of its layers through its backend, none of them outside a run;
//   - logits bit-identical to the host path's;
//   - refusal by name (path_refused) of the layers it lacks, which the host path then runs.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "model/forward.h"
#include "model/forward_impl.h"
#include "model/path.h"
#include "model/shape.h"
#include "state/seq.h"
#include "model_util.h"
#include "test.h"

// ---- the shadow device ------------------------------------------------------------------

// Per executor and path: the activations "on the device" and what crossed.
struct shadow {
    const struct layer_path *p;
    float *x; // [max_T][D] the run's rows between begin and end
    int64_t D;
    int max_T;
    int T;            // rows of the run in progress, 0 between runs
    int ins, outs;    // transfers in (begin) and out (end)
    int runs, layers; // layers calls, layers run
    int bad;          // protocol violations, each also a CHECK
};

enum { MAX_STATES = 8 };
static struct shadow *states[MAX_STATES]; // of the executor alive (one at a time here)
static int n_states;
static long products, products_outside; // through the shadow backend; of them, outside any run

static frink_status shadow_create(const struct layer_path *p, const struct model *m, int max_T, void **out) {
    struct shadow *s = calloc(1, sizeof *s);
    if (!s || n_states == MAX_STATES) {
        free(s);
        return frink_fail(FRINK_ERR_NOMEM, "shadow: no state");
    }
    s->p = p;
    s->D = m->hp.n_embd;
    s->max_T = max_T;
    if (!(s->x = malloc((size_t)max_T * (size_t)s->D * sizeof(float)))) {
        free(s);
        return frink_fail(FRINK_ERR_NOMEM, "shadow: no buffer");
    }
    states[n_states++] = s;
    *out = s;
    return FRINK_OK;
}

static void shadow_free(void *state) {
    struct shadow *s = state;
    for (int i = 0; i < n_states; i++)
        if (states[i] == s) states[i] = states[--n_states];
    free(s->x);
    free(s);
}

static bool any_in_run(void) {
    for (int i = 0; i < n_states; i++)
        if (states[i]->T) return true;
    return false;
}

static void violation(struct shadow *s, bool ok, const char *what) {
    CHECK(ok, "%s: %s", s->p->name, what);
    s->bad += !ok;
}

// In: the host rows to the shadow's buffer, then the host rows poisoned.
static frink_status shadow_begin(void *state, struct exec *ex, const float *x, int T) {
    struct shadow *s = state;
    violation(s, !any_in_run(), "begin inside a run");
    violation(s, x == ex->x && T > 0 && T <= s->max_T, "begin: not the step's rows");
    memcpy(s->x, x, (size_t)T * (size_t)s->D * sizeof(float));
    for (size_t i = 0; i < (size_t)T * (size_t)s->D; i++) ex->x[i] = NAN;
    s->T = T;
    s->ins++;
    return FRINK_OK;
}

// Layers il0..il1 on the shadow's buffer: each planned on this path, the run maximal.
static frink_status shadow_layers(void *state, struct exec *ex, int il0, int il1, int T) {
    struct shadow *s = state;
    const struct model *m = ex->m;
    violation(s, s->T == T, "layers outside its run, or of other rows");
    violation(s,
              il0 < il1 && (il0 == 0 || m->layers[il0 - 1].path != s->p) && (il1 == m->hp.n_layer || m->layers[il1].path != s->p),
              "a run that is not maximal");
    for (int il = il0; il < il1; il++) {
        violation(s, m->layers[il].path == s->p, "a layer planned elsewhere");
        exec_host_block(ex, il, s->x, T);
        s->layers++;
    }
    s->runs++;
    return FRINK_OK;
}

// Out: the buffer back to the host rows.
static frink_status shadow_end(void *state, struct exec *ex, float *x, int T) {
    struct shadow *s = state;
    violation(s, s->T == T && x == ex->x, "end: not the run's rows");
    memcpy(x, s->x, (size_t)T * (size_t)s->D * sizeof(float));
    s->T = 0;
    s->outs++;
    return FRINK_OK;
}

static const struct path_ops shadow_ops = {shadow_create, shadow_free, shadow_begin, shadow_layers, shadow_end};

// The shadow's products: counted, computed by the host backend (so bit-identical).
static void shadow_mm(struct exec *ex, int n, const struct weight *const *w, int mat, const float *x, int64_t ldx, int T,
                      float *const *y, int64_t ldy) {
    products++;
    products_outside += !any_in_run();
    mm_host.mm(ex, n, w, mat, x, ldx, T, y, ldy);
}

static const struct mm_backend shadow_backend = {"shadow", shadow_mm};

// A shadow path implementing the host's features but `lacks` (and `extra` besides).
static struct layer_path shadow_path(const char *name, struct featset lacks, struct featset extra) {
    return (struct layer_path){name, feat_union(feat_andnot(path_host()->implements, lacks), extra), &shadow_ops,
                               &shadow_backend};
}

// ---- one scenario, on whatever plan the model has ---------------------------------------------

enum { MAX_T = 16, N_SEQ = 3, N_DECODE = 4, N_LONG = 20 };
// Its steps: one batch (prompts of 5, 3 and 1 tokens), N_DECODE decode steps of one token per
// sequence, and N_LONG more tokens of the first sequence alone in steps of MAX_T.
#define SCENARIO_STEPS (1 + N_DECODE + (N_LONG + MAX_T - 1) / MAX_T)
#define SCENARIO_ROWS (5 + 3 + 1 + N_DECODE * N_SEQ + N_LONG)

// The logits of every row of the scenario into lg [SCENARIO_ROWS][V].
static bool scenario(const struct model *m, struct pool *pool, float *lg) {
    int V = m->hp.n_vocab;
    struct exec *ex;
    struct seq *s[N_SEQ] = {0};
    if (exec_create(m, pool, MAX_T, &ex)) return false;
    bool ok = true;
    for (int k = 0; k < N_SEQ; k++) ok &= seq_create(model_seq_shape(m), 64, &s[k]) == FRINK_OK;
    const int plen[N_SEQ] = {5, 3, 1};
    struct exec_tok tok[16];
    int n = 0;
    for (int k = 0; k < N_SEQ; k++)
        for (int i = 0; i < plen[k]; i++) tok[n++] = (struct exec_tok){s[k], (int32_t)((k * 131 + i * 17 + 3) % V), true};
    ok = ok && exec_batch(ex, tok, n, lg) == FRINK_OK;
    float *at = lg + (size_t)n * V;
    for (int d = 0; ok && d < N_DECODE; d++) {
        for (int k = 0; k < N_SEQ; k++) tok[k] = (struct exec_tok){s[k], (int32_t)((d * 29 + k * 7 + 11) % V), true};
        ok = exec_batch(ex, tok, N_SEQ, at) == FRINK_OK;
        at += (size_t)N_SEQ * V;
    }
    int32_t ids[N_LONG];
    for (int i = 0; i < N_LONG; i++) ids[i] = (int32_t)((i * 7919 + 5) % V);
    ok = ok && exec_forward(ex, s[0], ids, N_LONG, at, true) == FRINK_OK;
    if (!ok) CHECK(0, "scenario: %s", frink_errmsg());
    for (int k = 0; k < N_SEQ; k++) seq_free(s[k]);
    exec_free(ex); // (checks the shadow states' counters: shadow_free_checked)
    return ok;
}

// ---- the checks ----------------------------------------------------------------------------

// Runs of each path in one step: maximal ranges of consecutive layers planned on it.
static int runs_of(const struct model *m, const struct layer_path *p, int *layers) {
    int runs = 0;
    *layers = 0;
    for (int il = 0; il < m->hp.n_layer; il++) {
        if (m->layers[il].path != p) continue;
        (*layers)++;
        runs += il == 0 || m->layers[il - 1].path != p;
    }
    return runs;
}

// Every matrix of every layer on its path's backend, the output head on the host's.
static void check_backends(const char *what, const struct model *m) {
    CHECK(m->output.mm == &mm_host, "%s: the output head on %s", what, m->output.mm ? m->output.mm->name : "(none)");
    for (int il = 0; il < m->hp.n_layer; il++) {
        struct layer *L = &m->layers[il];
        const struct mm_backend *want = L->path->mm ? L->path->mm : &mm_host;
        const struct weight *ws[] = {LAYER_MATRICES(L), LAYER_EXPERT_MATRICES(L)};
        int wrong = 0;
        for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) wrong += ws[i]->mm != want;
        CHECK(!wrong, "%s layer %d (%s): %d matrices not on %s", what, il, L->path->name, wrong, want->name);
    }
}

// What a plan should make of each shadow path in every step of the scenario. The states live
// until exec_free, so their counters are checked as the executor frees them.
struct expect {
    const struct layer_path *p;
    int runs, layers; // per step
};

static struct expect expected[MAX_STATES];
static int n_expected;

// Checks a state's counters when its executor frees it (wraps shadow_free).
static void check_state(const struct shadow *s) {
    for (int i = 0; i < n_expected; i++) {
        if (expected[i].p != s->p) continue;
        int steps = SCENARIO_STEPS, want_runs = steps * expected[i].runs;
        CHECK(s->ins == want_runs && s->outs == want_runs && s->runs == want_runs,
              "%s: %d in, %d out, %d runs; want %d each (%d steps x %d runs)", s->p->name, s->ins, s->outs, s->runs, want_runs,
              steps, expected[i].runs);
        CHECK(s->layers == steps * expected[i].layers, "%s: %d layers run, want %d", s->p->name, s->layers,
              steps * expected[i].layers);
        CHECK(s->bad == 0 && s->T == 0, "%s: %d violations", s->p->name, s->bad);
        printf("    %-10s %d runs of %d layer(s) a step: %d in, %d out over %d steps\n", s->p->name, expected[i].runs,
               expected[i].layers, s->ins, s->outs, steps);
        return;
    }
    CHECK(0, "%s: a state nobody expected", s->p->name);
}

static void shadow_free_checked(void *state) {
    check_state(state);
    shadow_free(state);
}

static const struct path_ops shadow_ops_checked = {shadow_create, shadow_free_checked, shadow_begin, shadow_layers, shadow_end};

// Plans m with paths[0..n) (the host's last), checks the plan's refusals against `refused`
// (layer il's path_refused, NULL: none) and runs the scenario against the host plan's logits.
static void check_plan(const char *what, struct model *m, struct pool *pool, struct layer_path *paths, int n,
                       const char *const *refused, const float *ref, float *lg) {
    for (int i = 0; i < n; i++)
        if (paths[i].ops == &shadow_ops) paths[i].ops = &shadow_ops_checked;
    CHECK(path_plan_with(m, paths, n) == FRINK_OK, "%s: plan: %s", what, frink_errmsg());
    for (int il = 0; il < m->hp.n_layer; il++) {
        const char *got = m->layers[il].path_refused;
        CHECK(refused[il] ? got && !strcmp(got, refused[il]) : !got, "%s layer %d: refused '%s', want '%s'", what, il,
              got ? got : "(nothing)", refused[il] ? refused[il] : "(nothing)");
    }
    check_backends(what, m);
    n_expected = 0;
    for (int i = 0; i < n; i++)
        if (paths[i].ops) {
            expected[n_expected] = (struct expect){&paths[i], 0, 0};
            expected[n_expected].runs = runs_of(m, &paths[i], &expected[n_expected].layers);
            n_expected++;
        }
    printf("  %s\n", what);
    products = products_outside = 0;
    bool ok = scenario(m, pool, lg);
    CHECK(ok && n_states == 0, "%s: scenario", what);
    CHECK(products > 0 && products_outside == 0, "%s: %ld products on the shadow, %ld of them outside a run", what, products,
          products_outside);
    CHECK(ok && !memcmp(lg, ref, (size_t)SCENARIO_ROWS * m->hp.n_vocab * sizeof *lg), "%s: logits differ from the host path's",
          what);
}

// The host plan's logits of the scenario into ref (malloc'ed; NULL on failure).
static float *host_logits(const char *path, struct model *m, struct pool *pool) {
    float *ref = malloc((size_t)SCENARIO_ROWS * m->hp.n_vocab * sizeof *ref);
    bool ok = ref && path_plan(m, NULL) == FRINK_OK && scenario(m, pool, ref);
    CHECK(ok, "%s: host scenario: %s", path, frink_errmsg());
    if (!ok) {
        free(ref);
        return NULL;
    }
    return ref;
}

static struct model *load(const char *path, struct pool *pool, float **ref, float **lg) {
    struct model *m = test_model_load(path, true);
    CHECK(m, "%s: load", path);
    if (!m) return NULL;
    *ref = host_logits(path, m, pool);
    *lg = malloc((size_t)SCENARIO_ROWS * m->hp.n_vocab * sizeof **lg);
    if (!*ref || !*lg) {
        free(*ref);
        free(*lg);
        model_free(m);
        return NULL;
    }
    return m;
}

static const struct featset none = {{0}};

// stories260K (5 llama layers): every layer on the shadow, one run a step; then a mark on layer
// 2 that only a host copy lists (index 200, which the host block ignores), so the shadow refuses
// it by that name and a step has two runs around a host layer.
static void check_stories(struct pool *pool) {
    const char *path = "models/stories260K.gguf";
    float *ref, *lg;
    struct model *m = load(path, pool, &ref, &lg);
    if (!m) return;
    CHECK(m->hp.n_layer == 5, "stories: %d layers", m->hp.n_layer);
    struct layer_path two[] = {shadow_path("shadow", none, none), *path_host()};
    const char *nothing[5] = {0};
    check_plan("stories260K, every layer on the shadow", m, pool, two, 2, nothing, ref, lg);

    enum { MARK = 200 };
    const struct featset keep = m->layers[2].feat;
    feat_set(&m->layers[2].feat, MARK);
    struct layer_path marked[] = {shadow_path("shadow", none, none), *path_host()};
    feat_set(&marked[1].implements, MARK);
    const char *refused[5] = {[2] = "shadow: missing bit200"};
    check_plan("stories260K, layer 2 on the host", m, pool, marked, 2, refused, ref, lg);
    m->layers[2].feat = keep;
    CHECK(path_plan(m, NULL) == FRINK_OK && m->layers[2].path == path_host(), "replan: %s", frink_errmsg());

    // A plan made after the executor: its runs have no state, and the step fails saying so,
    // committing nothing.
    struct exec *ex = NULL;
    struct seq *s = NULL;
    if (exec_create(m, pool, MAX_T, &ex) == FRINK_OK && seq_create(model_seq_shape(m), 16, &s) == FRINK_OK) {
        CHECK(path_plan_with(m, two, 2) == FRINK_OK, "plan: %s", frink_errmsg());
        int32_t id = 1;
        CHECK(exec_forward(ex, s, &id, 1, NULL, false) == FRINK_ERR_STATE &&
                  strstr(frink_errmsg(), "layer 0: planned on the shadow path after this context was made") && s->n_past == 0,
              "late plan: '%s'", frink_errmsg());
        CHECK(path_plan(m, NULL) == FRINK_OK && exec_forward(ex, s, &id, 1, NULL, false) == FRINK_OK && s->n_past == 1,
              "host again: %s", frink_errmsg());
    }
    seq_free(s);
    exec_free(ex);
    free(ref);
    free(lg);
    model_free(m);
}

// One fixture whose layers differ: `lacks` keeps the shadow off the layers that have it.
static void check_fixture(const char *path, int lacks, const char *const *refused) {
    struct pool *pool = pool_create(2);
    float *ref, *lg;
    struct model *m = load(path, pool, &ref, &lg);
    if (m) {
        struct layer_path two[] = {shadow_path("shadow", FEATS(lacks), none), *path_host()};
        char what[160];
        snprintf(what, sizeof what, "%s, the shadow without %s", path, path_feature_name(lacks));
        check_plan(what, m, pool, two, 2, refused, ref, lg);
        free(ref);
        free(lg);
        model_free(m);
    }
    pool_free(pool);
}

// gpt-oss (layer 0 sliding-window, layer 1 not): two shadow paths, one without swa first, so
// each layer is a run on a different path: two runs a step, one per path, none on the host.
static void check_two_paths(struct pool *pool) {
    const char *path = "tests/data/archs/gpt-oss-moe.gguf";
    float *ref, *lg;
    struct model *m = load(path, pool, &ref, &lg);
    if (!m) return;
    CHECK(feat_has(m->layers[0].feat, LF_SWA) && !feat_has(m->layers[1].feat, LF_SWA), "gpt-oss: layer 0 alone sliding");
    struct layer_path three[] = {shadow_path("shadow-a", FEATS(LF_SWA), none), shadow_path("shadow-b", none, none), *path_host()};
    const char *refused[2] = {"shadow-a: missing swa", NULL};
    check_plan("gpt-oss-moe, layer 0 on shadow-b, layer 1 on shadow-a", m, pool, three, 3, refused, ref, lg);
    CHECK(path_plan(m, NULL) == FRINK_OK && m->layers[0].path == path_host(), "replanned on the host");
    free(ref);
    free(lg);
    model_free(m);
}

int main(void) {
    struct pool *pool = pool_create(2);
    check_stories(pool);
    check_two_paths(pool);
    pool_free(pool);
    // qwen35 (layer 0 Gated DeltaNet, layer 1 attention): the shadow refuses the GDN layer by name.
    const char *q35[2] = {"shadow: missing gdn", NULL};
    check_fixture("tests/data/archs/qwen35-dense.gguf", LF_GDN, q35);
    // Q4_K_M llama: products on weights packed at load, through the shadow's backend.
    const char *llama[2] = {NULL, NULL};
    check_fixture("tests/data/archs/q/llama-dense-Q4_K_M.gguf", LF_GDN, llama);
    // Routed experts (products of expert matrices, mat > 0) through the shadow's backend.
    const char *moe[2] = {NULL, NULL};
    check_fixture("tests/data/archs/qwen3moe-moe.gguf", LF_GDN, moe);
    // deepseek2 (MLA; per-head products): the dense lead layer on the shadow, the MoE one refused.
    const char *ds2[2] = {NULL, "shadow: missing ffn_moe"};
    check_fixture("tests/data/archs/deepseek2-moe.gguf", LF_FFN_MOE, ds2);
    return TEST_DONE();
}
