// imatrix_api.c — frink_imatrix_compute: the importance matrix of a calibration text.
//
//   text ──► tokens (BOS, special tokens as asked) ──► chunks of n_ctx tokens
//        ──► each chunk alone in a fresh sequence (its first token BOS), steps of n_batch,
//            an observer on the executor (exec_set_observer) adding the square of every input
//            feature of every weight product into that weight's entry (per expert matrix)
//        ──► the perplexity of each chunk's second half from the step's logits
//        ──► the entries, sorted by name, as the reference's GGUF imatrix file
//
// The sums are floats added row by row in the order of the step's rows, as the reference adds
// them; they agree with its file within float rounding (the activations are frink's, which
// agree with the reference's within the parity tolerances).
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "engine/engine.h"
#include "model/forward.h"
#include "model/model.h"

// One weight's sums: n_in per matrix, n_mat matrices (experts), rows summed per matrix.
struct im_entry {
    const void *key;
    char *name;
    int64_t n_in, n_mat;
    float *sum2;      // [n_mat][n_in]
    int64_t *counts;  // [n_mat]
};

struct imatrix {
    struct im_entry *e;
    int n, cap;
    int last;          // the entry found last (products come in the same order each step)
    bool process_output;
    bool oom;
};

static struct im_entry *im_find(struct imatrix *im, const void *key, const char *name, int64_t n_in, int64_t n_mat) {
    if (im->last < im->n && im->e[im->last].key == key) return &im->e[im->last];
    for (int i = 0; i < im->n; i++)
        if (im->e[i].key == key) return &im->e[im->last = i];
    if (im->n == im->cap) {
        int cap = im->cap ? 2 * im->cap : 64;
        struct im_entry *e = realloc(im->e, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        im->e = e;
        im->cap = cap;
    }
    struct im_entry *e = &im->e[im->n];
    if (n_mat < 1) n_mat = 1;
    *e = (struct im_entry){.key = key, .name = strdup(name), .n_in = n_in, .n_mat = n_mat,
                           .sum2 = calloc((size_t)(n_in * n_mat), sizeof(float)),
                           .counts = calloc((size_t)n_mat, sizeof(int64_t))};
    if (!e->name || !e->sum2 || !e->counts) {
        free(e->name), free(e->sum2), free(e->counts);
        return NULL;
    }
    im->last = im->n++;
    return e;
}

// The observer: which products count is the reference's rule (expert products always; the
// others with 16 rows or more, of a block's tensor or, when asked, output.weight).
static void im_observe(void *ud, const void *key, const char *name, int64_t n_in, int64_t n_mat, int mat,
                       const float *x, int64_t ldx, int T) {
    struct imatrix *im = ud;
    if (im->oom || T <= 0 || !name) return;
    if (n_mat <= 1) {
        if (T < 16) return;
        if (strncmp(name, "blk.", 4) && !(im->process_output && !strcmp(name, "output.weight"))) return;
    }
    struct im_entry *e = im_find(im, key, name, n_in, n_mat);
    if (!e) {
        im->oom = true;
        return;
    }
    if (mat < 0 || mat >= e->n_mat) return;
    float *acc = e->sum2 + (size_t)mat * e->n_in;
    for (int t = 0; t < T; t++) {
        const float *r = x + (size_t)t * ldx;
        for (int64_t j = 0; j < e->n_in; j++) acc[j] += r[j] * r[j];
    }
    e->counts[mat] += T;
}

static void im_free(struct imatrix *im) {
    for (int i = 0; i < im->n; i++) free(im->e[i].name), free(im->e[i].sum2), free(im->e[i].counts);
    free(im->e);
}

// ---- the GGUF file ---------------------------------------------------------------------------

static bool put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n; }
static bool put_u32(FILE *f, uint32_t v) { return put(f, &v, 4); }
static bool put_u64(FILE *f, uint64_t v) { return put(f, &v, 8); }
static bool put_str(FILE *f, const char *s) { return put_u64(f, strlen(s)) && put(f, s, strlen(s)); }

enum { GGUF_U32 = 4, GGUF_STRING = 8, GGUF_ARRAY = 9, GGUF_ALIGN = 32 };

static int by_name(const void *a, const void *b) {
    return strcmp((*(const struct im_entry *const *)a)->name, (*(const struct im_entry *const *)b)->name);
}

// Writes the file: the three keys, then per entry (sorted by name) NAME.in_sum2 and NAME.counts.
static bool im_write(FILE *f, struct im_entry **es, int n, const char *dataset, uint32_t chunks, uint32_t chunk_size) {
    bool ok = put(f, "GGUF", 4) && put_u32(f, 3) && put_u64(f, (uint64_t)n * 2) && put_u64(f, 4);
    ok = ok && put_str(f, "general.type") && put_u32(f, GGUF_STRING) && put_str(f, "imatrix");
    ok = ok && put_str(f, "imatrix.datasets") && put_u32(f, GGUF_ARRAY) && put_u32(f, GGUF_STRING) &&
         put_u64(f, dataset ? 1 : 0) && (!dataset || put_str(f, dataset));
    ok = ok && put_str(f, "imatrix.chunk_count") && put_u32(f, GGUF_U32) && put_u32(f, chunks);
    ok = ok && put_str(f, "imatrix.chunk_size") && put_u32(f, GGUF_U32) && put_u32(f, chunk_size);
    uint64_t off = 0;
    char name[512];
    for (int i = 0; i < n && ok; i++) {
        for (int k = 0; k < 2 && ok; k++) {
            snprintf(name, sizeof name, "%s.%s", es[i]->name, k ? "counts" : "in_sum2");
            uint64_t ne0 = k ? 1 : (uint64_t)es[i]->n_in, ne1 = (uint64_t)es[i]->n_mat;
            // dimensions as the reference counts them: a trailing 1 is none
            ok = put_str(f, name) && put_u32(f, ne1 > 1 ? 2 : 1) && put_u64(f, ne0) && (ne1 == 1 || put_u64(f, ne1)) &&
                 put_u32(f, 0) && put_u64(f, off);
            off += (ne0 * ne1 * 4 + GGUF_ALIGN - 1) / GGUF_ALIGN * GGUF_ALIGN;
        }
    }
    static const uint8_t zeros[GGUF_ALIGN];
    long pos = ok ? ftell(f) : -1;
    if (pos < 0) return false;
    ok = put(f, zeros, (size_t)((GGUF_ALIGN - pos % GGUF_ALIGN) % GGUF_ALIGN));
    for (int i = 0; i < n && ok; i++) {
        size_t nv = (size_t)(es[i]->n_in * es[i]->n_mat);
        ok = put(f, es[i]->sum2, nv * 4) && put(f, zeros, (GGUF_ALIGN - nv * 4 % GGUF_ALIGN) % GGUF_ALIGN);
        for (int64_t m = 0; m < es[i]->n_mat && ok; m++) {
            float c = (float)es[i]->counts[m];
            ok = put(f, &c, 4);
        }
        size_t nc = (size_t)es[i]->n_mat * 4;
        ok = ok && put(f, zeros, (GGUF_ALIGN - nc % GGUF_ALIGN) % GGUF_ALIGN);
    }
    return ok;
}

// ---- the computation -------------------------------------------------------------------------

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// -log p(tok) under the logits row, as the reference's perplexity (max subtracted, sum in double).
static double nll_of(const float *lg, int V, frink_token tok) {
    float mx = lg[0];
    for (int i = 1; i < V; i++) mx = lg[i] > mx ? lg[i] : mx;
    double sum = 0;
    for (int i = 0; i < V; i++) sum += exp((double)(lg[i] - mx));
    return -((double)(lg[tok] - mx) - log(sum));
}

frink_imatrix_params frink_imatrix_default_params(void) {
    return (frink_imatrix_params){.n_ctx = 512, .n_chunks = -1};
}

// One chunk: tokens[0..n) evaluated from an empty sequence, its products observed; the nll of
// its second half added to *nll, *nll2, *count.
static frink_status im_chunk(frink_context *c, frink_batch *b, const frink_token *tokens, int n, bool process_output,
                             double *nll, double *nll2, int *count) {
    const frink_model *fm = c->fm;
    frink_seq *s;
    frink_status st = frink_seq_create(c, &s);
    if (st) return st;
    int first = n / 2, V = frink_model_n_vocab(fm), n_batch = c->p.n_batch;
    frink_token bos = frink_token_bos(fm);
    bool add_bos = frink_model_adds_bos(fm) && bos >= 0;
    for (int k0 = 0; k0 < n && !st; k0 += n_batch) {
        int k1 = k0 + n_batch < n ? k0 + n_batch : n;
        frink_batch_clear(b);
        for (int k = k0; k < k1; k++) {
            frink_token t = k == 0 && add_bos ? bos : tokens[k];
            frink_batch_add(b, s, t, process_output || (k >= first && k < n - 1));
        }
        st = frink_decode(c, b);
        for (int k = k0 > first ? k0 : first; !st && k < k1 && k < n - 1; k++) {
            double v = nll_of(frink_batch_logits(b, k - k0), V, tokens[k + 1]);
            *nll += v;
            *nll2 += v * v;
            (*count)++;
        }
    }
    frink_seq_free(s);
    return st;
}

frink_status frink_imatrix_compute(frink_context *c, const char *text, size_t len, const frink_imatrix_params *p,
                                   const char *out_path, frink_imatrix_result *res) {
    frink_imatrix_params dp = frink_imatrix_default_params();
    if (!p) p = &dp;
    if (!c || !text || !out_path) return frink_fail(FRINK_ERR_ARG, "frink_imatrix_compute: a NULL argument");
    if (!c->fm->m) return frink_fail(FRINK_ERR_STATE, "the model was opened without its weights (vocab_only)");
    int n_ctx = p->n_ctx;
    if (n_ctx < 2 || n_ctx > c->p.n_ctx)
        return frink_fail(FRINK_ERR_ARG, "the chunk size %d must be in [2, %d] (the context's size)", n_ctx, c->p.n_ctx);
    frink_token *tokens = NULL;
    size_t n_tok = 0;
    unsigned flags = FRINK_TOKENIZE_ADD_SPECIAL | (p->parse_special ? FRINK_TOKENIZE_PARSE_SPECIAL : 0);
    frink_status st = frink_tokenize(c->fm, text, len, flags, &tokens, &n_tok);
    if (st) return st;
    if (n_tok < (size_t)2 * n_ctx) {
        frink_free(tokens);
        return frink_fail(FRINK_ERR_ARG, "the text is %zu tokens; chunks of %d need at least %d (two chunks)", n_tok,
                          n_ctx, 2 * n_ctx);
    }
    int n_chunks = (int)(n_tok / (size_t)n_ctx);
    if (p->n_chunks >= 0 && p->n_chunks < n_chunks) n_chunks = p->n_chunks;
    struct imatrix im = {.process_output = p->process_output};
    frink_batch *b = NULL;
    int cap = c->p.n_batch < n_ctx ? c->p.n_batch : n_ctx;
    if ((st = frink_batch_create(cap, &b))) goto out;
    exec_set_observer(c->ex, im_observe, &im);
    double nll = 0, nll2 = 0, t0 = now_s();
    int count = 0;
    for (int i = 0; i < n_chunks && !st; i++) {
        st = im_chunk(c, b, tokens + (size_t)i * n_ctx, n_ctx, p->process_output, &nll, &nll2, &count);
        if (!st && im.oom) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        if (!st && p->progress) {
            frink_imatrix_progress pr = {.chunk = i + 1, .n_chunks = n_chunks, .ppl = exp(nll / count), .seconds = now_s() - t0};
            p->progress(p->progress_ud, &pr);
        }
    }
    exec_set_observer(c->ex, NULL, NULL);
    if (st) goto out;
    struct im_entry **es = malloc((size_t)(im.n ? im.n : 1) * sizeof *es);
    if (!es) {
        st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < im.n; i++) es[i] = &im.e[i];
    qsort(es, (size_t)im.n, sizeof *es, by_name);
    size_t tl = strlen(out_path) + 16;
    char *tmp = malloc(tl);
    FILE *f = NULL;
    if (tmp) {
        snprintf(tmp, tl, "%s.tmp", out_path);
        f = fopen(tmp, "wb");
    }
    if (!tmp) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
    else if (!f) st = frink_fail(FRINK_ERR_IO, "%s: %s", tmp, strerror(errno));
    else {
        bool ok = im_write(f, es, im.n, p->dataset, (uint32_t)n_chunks, (uint32_t)n_ctx);
        int werr = ok ? 0 : errno;
        if (fclose(f) && ok) ok = false, werr = errno;
        if (ok && rename(tmp, out_path)) ok = false, werr = errno;
        if (!ok) {
            unlink(tmp);
            st = frink_fail(FRINK_ERR_IO, "%s: %s", out_path, strerror(werr ? werr : EIO));
        }
    }
    free(tmp);
    free(es);
    if (!st && res) {
        *res = (frink_imatrix_result){.n_tokens = (int)n_tok, .n_chunks = n_chunks, .n_entries = im.n};
        double mean = nll / count, var = nll2 / count - mean * mean;
        res->ppl = exp(mean);
        res->ppl_err = var > 0 && count > 1 ? sqrt(var / (count - 1)) * res->ppl : 0;
    }
out:
    frink_batch_free(b);
    frink_free(tokens);
    im_free(&im);
    return st;
}
