// cuda_parity — the device matvecs against the host, on a machine with a CUDA device
// (`make CUDA=1 cuda-parity`; scripts/device-check.sh runs it). Not part of `make test`.
//
//   build/tests/cuda_parity MODEL.gguf...
//
// For every matrix of every model (as stored: gen writes F16), and for every distinct matrix shape
// once per device format with random blocks (F16 BF16 Q8_0 Q4_0 MXFP4 Q1_0 Q4_K Q5_K Q6_K), on a
// seeded random input:
//   1. device == host twin, bit for bit: each output equals blocks.h's cb_row_lanes on the CPU
//      (the same code in the same order; the kernels are built with -fmad=false);
//   2. device vs the host kernel (quant_act_from_float + quant_matvec, what the CPU path runs),
//      per row within tol = sum_e |w_e| * amax(x's block of e) / 127 * 1.01 (both sides' codes
//      are off by at most half a step, amax/254 each, plus the host's fp16 scale) + 2^-10
//      (BF16: 2^-8) * sum_e |w_e x_e| (the host's F16/BF16 input rounding, float sums) + 1e-30;
//   3. a stack (q/k/v or gate/up of layer 0, and a mixed-format stack) equals its matrices one
//      by one, bit for bit; and a second run of each matrix equals the first (it is also the run
//      timed: milliseconds with the input and output copies, and weight bytes per second).
// Prints one line per check group and the worst |diff|/tol seen; exits 1 on any failure.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gguf.h"
#include "cuda/blocks.h"
#include "cuda/cuda.h"
#include "quant/quant.h"

static int failures;
static double worst_ratio;

static uint64_t rng = 0x243F6A8885A308D3u;
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float rndf(void) { return (float)(rnd() & 0xFFFFFF) / 16777216.0f; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Random blocks with realistic scales (halves in 2^-10 .. 2^-4, one block in 16 zero).
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static uint16_t rnd_scale(void) { return rnd() % 16 ? (uint16_t)((5 + rnd() % 6) << 10 | (rnd() & 0x3ff)) : 0; }
static void fill_blocks(int fmt, uint8_t *w, int64_t n_blocks) {
    const int bb = cb_block_bytes(fmt);
    for (int64_t b = 0; b < n_blocks; b++) {
        uint8_t *p = w + b * bb;
        for (int i = 0; i < bb; i++) p[i] = (uint8_t)rnd();
        switch (fmt) {
        case CB_F16: put16(p, fp32_to_fp16(rndf() - 0.5f)); break;
        case CB_BF16: put16(p, fp32_to_bf16(rndf() - 0.5f)); break;
        case CB_Q8_0: case CB_Q4_0: case CB_Q1_0: put16(p, rnd_scale()); break;
        case CB_MXFP4: p[0] = (uint8_t)(118 + rnd() % 6); break;
        case CB_Q4_K: case CB_Q5_K: put16(p, rnd_scale()), put16(p + 2, rnd_scale()); break;
        case CB_Q6_K: put16(p + 208, rnd_scale()); break;
        }
    }
}

// Checks 1 and 2 for one matrix; returns the device outputs in y_dev (rows floats).
static void check_matrix(const char *what, uint32_t type, const void *W, int64_t n, int64_t rows, const float *x,
                         float *y_dev) {
    char err[512];
    const size_t rb = ggml_row_size(type, n);
    struct cuda_matrix *m = cuda_matrix_upload(type, W, n, rows, err, sizeof err);
    if (!m) {
        printf("FAIL %s: upload: %s\n", what, err);
        failures++;
        return;
    }
    struct cuda_matrix *ms[1] = {m};
    float *ys[1] = {y_dev};
    int rc = cuda_matvec_stack(ms, 1, x, ys, err, sizeof err);
    // again, timed (the first call pays for the runtime's lazy start), and the same bits
    float *again = malloc((size_t)rows * sizeof *again);
    float *ya[1] = {again};
    double t0 = now_s();
    if (!rc && again) rc = cuda_matvec_stack(ms, 1, x, ya, err, sizeof err);
    double t1 = now_s();
    const bool repeatable = again && !memcmp(again, y_dev, (size_t)rows * sizeof *again);
    free(again);
    if (rc) {
        printf("FAIL %s: matvec: %s\n", what, err);
        failures++;
        cuda_matrix_free(m);
        return;
    }
    // the twin, on the host
    struct cb_act *a = malloc((size_t)(n / 32) * sizeof *a);
    void *xq = malloc(quant_act_size(type, n));
    float *y_host = malloc((size_t)rows * sizeof *y_host), *w = malloc((size_t)n * sizeof *w), *amax = NULL;
    if (!a || !xq || !y_host || !w) {
        printf("FAIL %s: out of memory\n", what);
        failures++;
        goto done;
    }
    for (int64_t b = 0; b < n / 32; b++) cb_act_quantize(x + 32 * b, &a[b]);
    // amax of each block of x, computed here so that the bound does not depend on the code under test
    amax = malloc((size_t)(n / 32) * sizeof *amax);
    if (!amax) {
        failures++;
        goto done;
    }
    for (int64_t b = 0; b < n / 32; b++) {
        amax[b] = 0;
        for (int j = 0; j < 32; j++) amax[b] = fabsf(x[32 * b + j]) > amax[b] ? fabsf(x[32 * b + j]) : amax[b];
    }
    quant_act_from_float(quant_active_isa(), type, x, xq, n);
    quant_matvec(quant_active_isa(), type, W, rb, xq, n, y_host, 0, rows);
    int64_t twin_bad = 0, host_bad = 0;
    double worst = 0;
    for (int64_t r = 0; r < rows; r++) {
        const uint8_t *row = (const uint8_t *)W + r * rb;
        float twin = cb_row_lanes((int)type, row, a, x, (int)n);
        if (memcmp(&twin, &y_dev[r], 4)) {
            if (twin_bad++ < 3) printf("  %s row %lld: device %.9g, host twin %.9g\n", what, (long long)r, y_dev[r], twin);
        }
        quant_dequant_row(type, row, w, n);
        double tol = 1e-30;
        const double step = cb_format_is_float((int)type) ? 0 : 1.01 / 127.0;
        const double rel = type == GGML_TYPE_BF16 ? 0x1p-8 : 0x1p-10; // the host's input: bf16 or f16
        for (int64_t e = 0; e < n; e++)
            tol += fabs((double)w[e]) * amax[e / 32] * step + fabs((double)w[e] * x[e]) * rel;
        double d = fabs((double)y_dev[r] - y_host[r]), ratio = d / tol;
        worst = ratio > worst ? ratio : worst;
        if (!(d <= tol) && host_bad++ < 3)
            printf("  %s row %lld: device %.9g, host kernel %.9g, |diff| %.3g > tol %.3g\n", what, (long long)r, y_dev[r],
                   y_host[r], d, tol);
    }
    worst_ratio = worst > worst_ratio ? worst : worst_ratio;
    printf("%s %s [%lld x %lld] %s: twin %s, host kernel %s (worst |diff|/tol %.3f), rerun %s; %.3f ms with copies, "
           "%.0f GB/s of weights\n",
           twin_bad || host_bad || !repeatable ? "FAIL" : "ok  ", what, (long long)rows, (long long)n,
           ggml_type_name(type), twin_bad ? "DIFFERS" : "identical", host_bad ? "OUT OF TOLERANCE" : "within tolerance",
           worst, repeatable ? "identical" : "DIFFERS", (t1 - t0) * 1e3, (double)rb * rows / (t1 - t0) * 1e-9);
    failures += twin_bad || host_bad || !repeatable;
done:
    free(amax);
    free(a), free(xq), free(y_host), free(w);
    cuda_matrix_free(m);
}

// Check 3: ms as one stack against each one alone (y1[k], from check_matrix).
static void check_stack(const char *what, struct cuda_matrix **ms, int count, const float *x, float **y1, int64_t *rows) {
    char err[512];
    float *ys[CUDA_STACK_MAX] = {0};
    int bad = 0;
    for (int k = 0; k < count; k++) ys[k] = malloc((size_t)rows[k] * sizeof(float));
    if (cuda_matvec_stack(ms, count, x, ys, err, sizeof err)) {
        printf("FAIL stack %s: %s\n", what, err);
        bad = 1;
    } else {
        for (int k = 0; k < count; k++) bad |= memcmp(ys[k], y1[k], (size_t)rows[k] * sizeof(float)) != 0;
        printf("%s stack %s (%d matrices, one launch): %s\n", bad ? "FAIL" : "ok  ", what, count,
               bad ? "DIFFERS from the matrices one by one" : "identical to the matrices one by one");
    }
    for (int k = 0; k < count; k++) free(ys[k]);
    failures += bad;
}

static const uint32_t formats[] = {GGML_TYPE_F16, GGML_TYPE_BF16, GGML_TYPE_Q8_0, GGML_TYPE_Q4_0, GGML_TYPE_MXFP4,
                                   GGML_TYPE_Q1_0, GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K};
#define N_FORMATS ((int)(sizeof formats / sizeof formats[0]))

// Every format on one shape (rows capped to bound the time), then a mixed stack.
#define SHAPE_ROWS_MAX 8192
static void check_shape(int64_t n, int64_t rows, const float *x) {
    if (rows > SHAPE_ROWS_MAX) rows = SHAPE_ROWS_MAX;
    struct cuda_matrix *ms[CUDA_STACK_MAX];
    float *y1[CUDA_STACK_MAX];
    int64_t rs[CUDA_STACK_MAX];
    uint32_t ts[CUDA_STACK_MAX];
    int count = 0;
    for (int f = 0; f < N_FORMATS; f++) {
        const int fmt = (int)formats[f];
        if (n % cb_block_elems(fmt)) continue;
        const size_t bytes = ggml_row_size(formats[f], n) * (size_t)rows;
        uint8_t *W = malloc(bytes);
        float *y = malloc((size_t)rows * sizeof *y);
        if (!W || !y) {
            free(W), free(y);
            failures++;
            continue;
        }
        fill_blocks(fmt, W, (int64_t)(bytes / (size_t)cb_block_bytes(fmt)));
        char what[64];
        snprintf(what, sizeof what, "random %s", ggml_type_name(formats[f]));
        check_matrix(what, formats[f], W, n, rows, x, y);
        char err[256];
        if ((f == 0 || fmt == CB_Q4_K || fmt == CB_Q6_K || fmt == CB_Q8_0) && count < CUDA_STACK_MAX &&
            (ms[count] = cuda_matrix_upload(formats[f], W, n, rows, err, sizeof err))) {
            y1[count] = y, rs[count] = rows, ts[count] = formats[f];
            count++;
        } else {
            free(y);
        }
        free(W);
    }
    if (count > 1) {
        char what[96];
        int len = 0;
        for (int k = 0; k < count; k++)
            len += snprintf(what + len, sizeof what - (size_t)len, "%s%s", k ? "+" : "", ggml_type_name(ts[k]));
        snprintf(what + len, sizeof what - (size_t)len, " [%lld x %lld]", (long long)rows, (long long)n);
        check_stack(what, ms, count, x, y1, rs);
    }
    for (int k = 0; k < count; k++) cuda_matrix_free(ms[k]), free(y1[k]);
}

static void check_model(const char *path) {
    struct gguf_file *f = NULL;
    if (gguf_open(path, &f)) {
        printf("FAIL %s: %s\n", path, frink_errmsg());
        failures++;
        return;
    }
    printf("== %s: %llu tensors\n", path, (unsigned long long)f->n_tensors);
    int64_t shapes[64][2];
    int n_shapes = 0;
    // The stacks of layer 0: q/k/v and gate/up, when present with one n.
    const char *stacks[2][3] = {{"blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"},
                                {"blk.0.ffn_gate.weight", "blk.0.ffn_up.weight", NULL}};
    float *x = NULL;
    for (uint64_t t = 0; t < f->n_tensors; t++) {
        const struct gguf_tensor *T = &f->tensors[t];
        const int64_t n = T->ne[0], rows = T->ne[1] * T->ne[2] * T->ne[3];
        if (T->n_dims < 2 || n % 32 || !cuda_type_supported(T->type) || n % cb_block_elems((int)T->type)) continue;
        free(x);
        x = malloc((size_t)n * sizeof *x);
        float *y = malloc((size_t)rows * sizeof *y);
        if (!x || !y) {
            free(y);
            failures++;
            break;
        }
        for (int64_t e = 0; e < n; e++) x[e] = (rndf() + rndf() + rndf() - 1.5f) * 2.0f;
        check_matrix(T->name, T->type, T->data, n, rows, x, y);
        free(y);
        bool seen = false;
        const int64_t capped = rows < SHAPE_ROWS_MAX ? rows : SHAPE_ROWS_MAX;
        for (int s = 0; s < n_shapes; s++) seen |= shapes[s][0] == n && shapes[s][1] == capped;
        if (!seen && n_shapes < 64) shapes[n_shapes][0] = n, shapes[n_shapes][1] = capped, n_shapes++;
    }
    for (int s = 0; s < 2; s++) {
        struct cuda_matrix *ms[3];
        float *y1[3];
        int64_t rs[3];
        int count = 0;
        int64_t n0 = -1;
        for (int k = 0; k < 3 && stacks[s][k]; k++) {
            const struct gguf_tensor *T = gguf_find_tensor(f, stacks[s][k]);
            if (!T || !cuda_type_supported(T->type) || (n0 >= 0 && T->ne[0] != n0)) break;
            n0 = T->ne[0];
            char err[256];
            ms[count] = cuda_matrix_upload(T->type, T->data, T->ne[0], T->ne[1], err, sizeof err);
            if (!ms[count]) break;
            rs[count] = T->ne[1];
            y1[count] = malloc((size_t)T->ne[1] * sizeof(float));
            count++;
        }
        if (count > 1) {
            float *xs = malloc((size_t)n0 * sizeof *xs);
            for (int64_t e = 0; e < n0; e++) xs[e] = rndf() - 0.5f;
            char err[256];
            bool ok = true;
            for (int k = 0; k < count && ok; k++) ok = !cuda_matvec_stack(&ms[k], 1, xs, &y1[k], err, sizeof err);
            if (ok) check_stack(s ? "gate/up" : "q/k/v", ms, count, xs, y1, rs);
            else printf("FAIL stack: %s\n", err), failures++;
            free(xs);
        }
        for (int k = 0; k < count; k++) cuda_matrix_free(ms[k]), free(y1[k]);
    }
    for (int s = 0; s < n_shapes; s++) {
        free(x);
        x = malloc((size_t)shapes[s][0] * sizeof *x);
        if (!x) break;
        for (int64_t e = 0; e < shapes[s][0]; e++) x[e] = (rndf() + rndf() + rndf() - 1.5f) * 2.0f;
        check_shape(shapes[s][0], shapes[s][1], x);
    }
    free(x);
    gguf_close(f);
}

int main(int argc, char **argv) {
    char desc[256], err[256];
    if (cuda_describe(desc, sizeof desc, err, sizeof err)) {
        printf("FAIL no device: %s\n", err);
        return 1;
    }
    printf("device: %s\n", desc);
    if (argc < 2) {
        fprintf(stderr, "usage: cuda_parity MODEL.gguf...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) check_model(argv[i]);
    // Shapes the tiny fixtures lack: rows of K-quant super-blocks, the 1-2B models' widths, and row
    // counts that leave a block of 4 warps partly empty.
    static const int64_t shapes[][2] = {{256, 3}, {2048, 1001}, {2048, 6144}, {6144, 2048}, {8192, 2048}};
    printf("== the shapes of the 1-2B models, every format\n");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        float *x = malloc((size_t)shapes[s][0] * sizeof *x);
        if (!x) return 1;
        for (int64_t e = 0; e < shapes[s][0]; e++) x[e] = (rndf() + rndf() + rndf() - 1.5f) * 2.0f;
        check_shape(shapes[s][0], shapes[s][1], x);
        free(x);
    }
    printf("cuda_parity: %d failing groups; worst |device - host kernel| / tol = %.3f\n", failures, worst_ratio);
    return failures ? 1 : 0;
}
