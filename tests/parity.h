// parity.h — comparing frink's logits with golden logits from the reference.
//
// A case names a GGUF and a golden prefix (tests/data/golden/<name>.{ids,
// batch.f32,decode.f32}); the check runs frink on the same ids as one batch and
// token by token, and compares every position:
//   nmse = sum (a - b)^2 / sum b^2 over the row        must be <= tol
//   top-1 must agree wherever the reference's top-2 margin exceeds `margin`.
#ifndef FRINK_PARITY_H
#define FRINK_PARITY_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

static float *parity_read_f32(const char *path, size_t *n) {
    size_t len = 0;
    float *d = (float *)test_read_file(path, &len);
    *n = len / sizeof(float);
    return d;
}

static int32_t *parity_read_ids(const char *path, int *n) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    int32_t *ids = malloc(65536 * sizeof *ids);
    int k = 0, v;
    while (k < 65536 && fscanf(f, "%d", &v) == 1) {
        ids[k++] = v;
        int c = fgetc(f);
        if (c != ',') break;
    }
    fclose(f);
    *n = k;
    return ids;
}

struct parity_stats {
    double worst_nmse;
    int top1_checked, top1_agree;
};

static double row_nmse(const float *x, const float *y, int V) {
    double num = 0, den = 0;
    for (int i = 0; i < V; i++) {
        double d = (double)x[i] - y[i];
        num += d * d;
        den += (double)y[i] * y[i];
    }
    double r = num / (den > 0 ? den : 1);
    return isnan(r) ? INFINITY : r;
}

// Compares rows of a with the reference's rows b. Where the reference's own two
// paths (batch `b`, token-by-token `alt`) disagree — a near-tie in expert
// routing can send one token to different experts in the two — a row counts
// as matching when it matches either of them.
static void parity_rows(const float *a, const float *b, const float *alt, int rows, int V, float margin,
                        struct parity_stats *st) {
    for (int r = 0; r < rows; r++) {
        const float *x = a + (size_t)r * V, *y = b + (size_t)r * V;
        double nmse = row_nmse(x, y, V);
        if (alt) {
            double n2 = row_nmse(x, alt + (size_t)r * V, V);
            if (n2 < nmse) {
                nmse = n2;
                y = alt + (size_t)r * V;
            }
        }
        int ax = 0, by = 0, by2 = -1;
        for (int i = 0; i < V; i++) {
            if (x[i] > x[ax]) ax = i;
            if (y[i] > y[by]) by = i;
        }
        for (int i = 0; i < V; i++)
            if (i != by && (by2 < 0 || y[i] > y[by2])) by2 = i;
        if (nmse > st->worst_nmse) st->worst_nmse = nmse;
        if (y[by] - y[by2] > margin) {
            st->top1_checked++;
            st->top1_agree += ax == by;
        }
    }
}

// Runs the case through the public API: batches of each prefix length in lens[]
// (0-terminated; NULL = the whole sequence) and the whole sequence token by token.
// `chunk` sets the chunked Gated DeltaNet size (0 = default).
static int parity_run(const char *gguf, const char *golden, bool allow_unread, int chunk, const int *lens,
                      struct parity_stats *sb, struct parity_stats *sd) {
    char p[512];
    memset(sb, 0, sizeof *sb);
    memset(sd, 0, sizeof *sd);
    frink_model_params mp = frink_model_default_params();
    mp.path = gguf;
    mp.allow_unread = allow_unread;
    mp.no_tokenizer = true; // ids in, logits out (fixture vocabularies are placeholders)
    frink_model *m;
    if (frink_model_open(&mp, &m)) {
        fprintf(stderr, "%s\n", frink_errmsg());
        return -1;
    }
    int n;
    snprintf(p, sizeof p, "tests/data/golden/%s.ids", golden);
    int32_t *ids = parity_read_ids(p, &n);
    size_t nb, nd;
    snprintf(p, sizeof p, "tests/data/golden/%s.batch.f32", golden);
    float *gb = parity_read_f32(p, &nb);
    snprintf(p, sizeof p, "tests/data/golden/%s.decode.f32", golden);
    float *gd = parity_read_f32(p, &nd);
    int V = frink_model_n_vocab(m);
    int rc = -1;
    frink_context *c = NULL;
    frink_seq *s = NULL;
    float *lg = NULL;
    if (!ids || !gb || !gd || nb != (size_t)n * V || nd != (size_t)n * V) {
        fprintf(stderr, "golden files for %s are missing or the wrong size\n", golden);
        goto out;
    }
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 2;
    cp.n_batch = 512;
    cp.n_ctx = n;
    cp.gdn_chunk = chunk;
    if (frink_context_create(m, &cp, &c) || frink_seq_create(c, &s)) {
        fprintf(stderr, "%s\n", frink_errmsg());
        goto out;
    }
    lg = malloc((size_t)n * V * sizeof(float));
    int whole[] = {n, 0};
    for (const int *L = lens ? lens : whole; *L; L++) {
        int len = *L < n ? *L : n;
        frink_seq_reset(s);
        if (frink_seq_eval(s, ids, len, lg, FRINK_EVAL_ALL) == FRINK_OK) parity_rows(lg, gb, gd, len, V, 0.5f, sb);
        else fprintf(stderr, "forward failed: %s\n", frink_errmsg());
    }
    frink_seq_reset(s);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = frink_seq_eval(s, ids + i, 1, lg + (size_t)i * V, 0) == FRINK_OK;
    if (ok) parity_rows(lg, gd, gb, n, V, 0.5f, sd);
    rc = 0;
out:
    free(lg);
    frink_context_free(c);
    free(ids);
    free(gb);
    free(gd);
    frink_model_free(m);
    return rc;
}

// Checks one case against a tolerance and reports it on stdout.
static void parity_check_lens(const char *gguf, const char *golden, bool allow_unread, double tol, const int *lens) {
    struct parity_stats sb, sd;
    int rc = parity_run(gguf, golden, allow_unread, 0, lens, &sb, &sd);
    CHECK(rc == 0, "%s: could not run", golden);
    if (rc) return;
    printf("  %-28s batch nmse %.2e top1 %d/%d   decode nmse %.2e top1 %d/%d   (tol %.0e)\n", golden, sb.worst_nmse,
           sb.top1_agree, sb.top1_checked, sd.worst_nmse, sd.top1_agree, sd.top1_checked, tol);
    CHECK(sb.worst_nmse <= tol, "%s batch: nmse %.3e > %.1e", golden, sb.worst_nmse, tol);
    CHECK(sd.worst_nmse <= tol, "%s decode: nmse %.3e > %.1e", golden, sd.worst_nmse, tol);
    CHECK(sb.top1_agree == sb.top1_checked, "%s batch: top-1 %d/%d", golden, sb.top1_agree, sb.top1_checked);
    CHECK(sd.top1_agree == sd.top1_checked, "%s decode: top-1 %d/%d", golden, sd.top1_agree, sd.top1_checked);
}

__attribute__((unused)) static void parity_check(const char *gguf, const char *golden, bool allow_unread, double tol) {
    parity_check_lens(gguf, golden, allow_unread, tol, NULL);
}

#endif
