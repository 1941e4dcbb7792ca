// test_imatrix.c — frink_imatrix_compute against the reference's llama-imatrix.
//
// The goldens in tests/data/imatrix are llama-imatrix's files for tests/data/calib.txt in chunks
// of 64 tokens (scripts/make-imatrix-golden.sh), with its "Final estimate" perplexity beside
// each. Models: the embedded stories260K (llama, F32; once with --process-output) and the
// `frink gen` presets qwen35-tiny (GDN hybrid), qwen35moe-tiny and qwen3next-tiny (hybrid MoE:
// expert tensors, their router and the shared expert), written into tests/data/gen-vocab when missing.
// Every file must have the reference's keys, the same tensors (names, shapes, F32), the same
// counts, and sums within nmse 1e-6 of the reference's; the perplexity within 1e-4 relative.
// Then: the file is the same bytes at 1 and 2 threads and in steps of 16 or 64 rows; --chunks
// limits the chunks; a text too short, an unwritable path and a NULL argument fail naming why,
// and a failure leaves an existing file as it was.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gguf.h"
#include "frink.h"
#include "frink_tools.h"
#include "test.h"

#define CALIB "tests/data/calib.txt"
#define CHUNK 64

struct fixture {
    const char *name;   // golden tests/data/imatrix/NAME.gguf and NAME.ppl
    const char *preset; // frink gen preset (NULL: the embedded model's file)
    bool process_output;
};

static const struct fixture FIXTURES[] = {
    {"stories260K", NULL, false},
    {"stories260K-output", NULL, true},
    {"qwen35-tiny", "qwen35-tiny", false},
    {"qwen35moe-tiny", "qwen35moe-tiny", false},
    {"qwen3next-tiny", "qwen3next-tiny", false},
};

// The model's file: models/stories260K.gguf, or the preset written (seed 7, the Qwen3.5
// vocabulary) into tests/data/gen-vocab when missing.
static const char *model_path(const struct fixture *fx, char *buf, size_t cap) {
    if (!fx->preset) return "models/stories260K.gguf";
    snprintf(buf, cap, "tests/data/gen-vocab/%s.gguf", fx->preset);
    if (access(buf, R_OK) == 0) return buf;
    mkdir("tests/data/gen-vocab", 0755);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", buf, (int)getpid());
    frink_gen_params gp = {.preset = fx->preset, .out_path = tmp, .vocab_path = "tests/data/vocab/ggml-vocab-qwen35.gguf", .seed = 7};
    if (frink_gen_model(&gp) || rename(tmp, buf)) {
        fprintf(stderr, "%s: %s\n", fx->preset, frink_errmsg());
        unlink(tmp);
        return NULL;
    }
    return buf;
}

static frink_context *open_ctx(const char *path, int threads, int n_batch, frink_model **m) {
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    if (frink_model_open(&mp, m)) {
        fprintf(stderr, "%s: %s\n", path, frink_errmsg());
        return NULL;
    }
    frink_context_params cp = frink_context_default_params();
    cp.n_ctx = CHUNK;
    cp.n_batch = n_batch;
    cp.n_threads = threads;
    frink_context *c = NULL;
    if (frink_context_create(*m, &cp, &c)) fprintf(stderr, "%s: %s\n", path, frink_errmsg());
    return c;
}

static const struct gguf_kv *kv(const struct gguf_file *f, const char *key) { return gguf_find(f, key); }

static bool str_kv_eq(const struct gguf_file *a, const struct gguf_file *b, const char *key) {
    const struct gguf_kv *x = kv(a, key), *y = kv(b, key);
    return x && y && x->type == GGUF_VT_STRING && y->type == GGUF_VT_STRING && x->v.str.len == y->v.str.len &&
           !memcmp(x->v.str.ptr, y->v.str.ptr, x->v.str.len);
}

static bool u32_kv_eq(const struct gguf_file *a, const struct gguf_file *b, const char *key) {
    const struct gguf_kv *x = kv(a, key), *y = kv(b, key);
    return x && y && x->type == GGUF_VT_UINT32 && y->type == GGUF_VT_UINT32 && x->v.u64 == y->v.u64;
}

// The file against the reference's: keys, tensors, counts, sums. Returns the worst nmse.
static double compare_files(const char *name, const char *ours, const char *ref) {
    struct gguf_file *a = NULL, *b = NULL;
    double worst = 0;
    if (gguf_open(ours, &a) || gguf_open(ref, &b)) {
        CHECK(0, "%s: cannot open %s or %s: %s", name, ours, ref, frink_errmsg());
        goto out;
    }
    CHECK(str_kv_eq(a, b, "general.type"), "%s: general.type", name);
    CHECK(u32_kv_eq(a, b, "imatrix.chunk_count") && u32_kv_eq(a, b, "imatrix.chunk_size"), "%s: chunk count and size", name);
    const struct gguf_kv *da = kv(a, "imatrix.datasets"), *db = kv(b, "imatrix.datasets");
    CHECK(da && db && da->type == GGUF_VT_ARRAY && db->type == GGUF_VT_ARRAY && da->v.arr.n == 1 && db->v.arr.n == 1 &&
              da->v.arr.strs[0].len == db->v.arr.strs[0].len &&
              !memcmp(da->v.arr.strs[0].ptr, db->v.arr.strs[0].ptr, da->v.arr.strs[0].len),
          "%s: imatrix.datasets", name);
    CHECK(a->n_tensors == b->n_tensors, "%s: %llu tensors, the reference %llu", name, (unsigned long long)a->n_tensors,
          (unsigned long long)b->n_tensors);
    for (uint64_t i = 0; i < b->n_tensors; i++) {
        const struct gguf_tensor *y = &b->tensors[i];
        const struct gguf_tensor *x = i < a->n_tensors ? &a->tensors[i] : NULL;
        if (!x || strcmp(x->name, y->name)) {
            CHECK(0, "%s: tensor %llu is %s, the reference's %s (sorted names)", name, (unsigned long long)i, x ? x->name : "-",
                  y->name);
            continue;
        }
        CHECK(x->type == 0 && y->type == 0 && x->n_dims == y->n_dims && x->ne[0] == y->ne[0] && x->ne[1] == y->ne[1],
              "%s: %s shape [%lld, %lld], the reference's [%lld, %lld]", name, x->name, (long long)x->ne[0],
              (long long)x->ne[1], (long long)y->ne[0], (long long)y->ne[1]);
        if (x->nbytes != y->nbytes) continue;
        const float *p = x->data, *q = y->data;
        size_t n = x->nbytes / 4;
        if (strstr(x->name, ".counts")) {
            CHECK(!memcmp(p, q, x->nbytes), "%s: %s differ (first %g, the reference %g)", name, x->name, p[0], q[0]);
            continue;
        }
        double num = 0, den = 0;
        for (size_t k = 0; k < n; k++) num += ((double)p[k] - q[k]) * ((double)p[k] - q[k]), den += (double)q[k] * q[k];
        double nmse = den > 0 ? num / den : num;
        if (nmse > worst) worst = nmse;
        CHECK(nmse <= 1e-6, "%s: %s nmse %.3g", name, x->name, nmse);
    }
out:
    if (a) gguf_close(a);
    if (b) gguf_close(b);
    return worst;
}

static double read_ppl(const char *name) {
    char p[256];
    snprintf(p, sizeof p, "tests/data/imatrix/%s.ppl", name);
    size_t len;
    char *s = test_read_file(p, &len);
    double v = s ? atof(s) : NAN;
    free(s);
    return v;
}

static bool same_bytes(const char *x, const char *y) {
    size_t n1, n2;
    char *a = test_read_file(x, &n1), *b = test_read_file(y, &n2);
    bool eq = a && b && n1 == n2 && !memcmp(a, b, n1);
    free(a);
    free(b);
    return eq;
}

int main(void) {
    size_t len;
    char *text = test_read_file(CALIB, &len);
    CHECK(text, "%s missing", CALIB);
    if (!text) return TEST_DONE();
    mkdir("tests/data/gen-vocab", 0755);
    for (size_t i = 0; i < sizeof FIXTURES / sizeof FIXTURES[0]; i++) {
        const struct fixture *fx = &FIXTURES[i];
        char buf[256], out[300], ref[300];
        const char *path = model_path(fx, buf, sizeof buf);
        CHECK(path, "%s: no model", fx->name);
        if (!path) continue;
        frink_model *m = NULL;
        frink_context *c = open_ctx(path, 2, CHUNK, &m);
        CHECK(c, "%s: open", fx->name);
        if (!c) {
            frink_model_free(m);
            continue;
        }
        frink_imatrix_params p = frink_imatrix_default_params();
        p.n_ctx = CHUNK;
        p.dataset = CALIB;
        p.process_output = fx->process_output;
        frink_imatrix_result r;
        snprintf(out, sizeof out, "tests/data/gen-vocab/%s.imatrix.gguf", fx->name);
        frink_status st = frink_imatrix_compute(c, text, len, &p, out, &r);
        CHECK(st == FRINK_OK, "%s: %s", fx->name, frink_errmsg());
        if (st) goto next;
        snprintf(ref, sizeof ref, "tests/data/imatrix/%s.gguf", fx->name);
        double worst = compare_files(fx->name, out, ref);
        double ppl = read_ppl(fx->name);
        CHECK(fabs(r.ppl - ppl) <= 1e-4 * ppl, "%s: perplexity %.6f, the reference's %.6f", fx->name, r.ppl, ppl);
        printf("  %-20s %2d entries, %d chunks, worst nmse %.2e, PPL %.4f (reference %.4f)\n", fx->name, r.n_entries,
               r.n_chunks, worst, r.ppl, ppl);
        if (i == 0 || i == 3) {
            // the same bytes at 1 thread and in steps of 16 rows (every step still counts: 16)
            frink_model *m1 = NULL;
            frink_context *c1 = open_ctx(path, 1, 16, &m1);
            char out1[320];
            snprintf(out1, sizeof out1, "%s.t1", out);
            CHECK(c1 && frink_imatrix_compute(c1, text, len, &p, out1, NULL) == FRINK_OK, "%s: 1 thread: %s", fx->name,
                  frink_errmsg());
            CHECK(same_bytes(out, out1), "%s: 1 thread, steps of 16: different bytes", fx->name);
            unlink(out1);
            frink_context_free(c1);
            frink_model_free(m1);
        }
    next:
        frink_context_free(c);
        frink_model_free(m);
    }

    // limits and failures, on the embedded model
    frink_model *m = NULL;
    frink_context *c = open_ctx("models/stories260K.gguf", 2, CHUNK, &m);
    CHECK(c, "open");
    if (c) {
        frink_imatrix_params p = frink_imatrix_default_params();
        p.n_ctx = CHUNK;
        p.n_chunks = 2;
        frink_imatrix_result r;
        const char *o = "tests/data/gen-vocab/limit.imatrix.gguf";
        CHECK(frink_imatrix_compute(c, text, len, &p, o, &r) == FRINK_OK && r.n_chunks == 2, "n_chunks 2: %s", frink_errmsg());
        struct gguf_file *f = NULL;
        CHECK(gguf_open(o, &f) == FRINK_OK, "open %s", o);
        if (f) {
            const struct gguf_kv *cc = gguf_find(f, "imatrix.chunk_count");
            const struct gguf_tensor *t = gguf_find_tensor(f, "blk.0.attn_q.weight.counts");
            CHECK(cc && cc->v.u64 == 2, "chunk_count 2");
            CHECK(t && ((const float *)t->data)[0] == 2 * CHUNK, "counts of 2 chunks: %g", t ? ((const float *)t->data)[0] : -1);
            const struct gguf_kv *ds = gguf_find(f, "imatrix.datasets");
            CHECK(ds && ds->type == GGUF_VT_ARRAY && ds->v.arr.n == 0, "no dataset: an empty imatrix.datasets");
            gguf_close(f);
        }
        // a text of fewer than two chunks: refused naming its length; the existing file stays
        size_t before;
        char *old = test_read_file(o, &before);
        frink_status st = frink_imatrix_compute(c, "Once upon a time", 16, &p, o, NULL);
        CHECK(st == FRINK_ERR_ARG && strstr(frink_errmsg(), "tokens"), "short text: %d %s", st, frink_errmsg());
        size_t after;
        char *now = test_read_file(o, &after);
        CHECK(old && now && before == after && !memcmp(old, now, after), "a failure leaves the file as it was");
        free(old);
        free(now);
        st = frink_imatrix_compute(c, text, len, &p, "/nonexistent-dir/x.gguf", NULL);
        CHECK(st == FRINK_ERR_IO && strstr(frink_errmsg(), "/nonexistent-dir/x.gguf"), "unwritable: %d %s", st, frink_errmsg());
        CHECK(access("/nonexistent-dir/x.gguf.tmp", F_OK) != 0, "no temporary file left");
        p.n_ctx = 1;
        CHECK(frink_imatrix_compute(c, text, len, &p, o, NULL) == FRINK_ERR_ARG, "n_ctx 1 refused");
        p.n_ctx = CHUNK + 1;
        CHECK(frink_imatrix_compute(c, text, len, &p, o, NULL) == FRINK_ERR_ARG && strstr(frink_errmsg(), "context"),
              "a chunk over the context refused: %s", frink_errmsg());
        CHECK(frink_imatrix_compute(c, NULL, 0, &p, o, NULL) == FRINK_ERR_ARG, "NULL text refused");
        unlink(o);
    }
    frink_context_free(c);
    frink_model_free(m);
    free(text);
    return TEST_DONE();
}
