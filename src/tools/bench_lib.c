// bench_lib.c — the measurements `frink bench` makes below the engine: the
// machine's read bandwidth (so decode GB/s can be read as a fraction of it) and
// each weight type's matrix-vector kernels against their scalar reference twins.
// They need the thread pool and the kernels, so they live in the library,
// behind frink.h's "measurement tools".
#include <immintrin.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/pool.h"
#include "frink_tools.h"
#include "quant/quant.h"
#include "quant/types.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct pool *bench_pool(int n_threads) {
    return pool_create(n_threads > 0 ? n_threads : pool_default_threads());
}

// ---- memory bandwidth ------------------------------------------------------------

struct bw_job {
    const uint8_t *buf;
    size_t bytes;
    uint64_t sink[64]; // the XOR of what each thread read, so the reads are not dropped
};

__attribute__((target("avx2"))) static uint64_t read_avx2(const uint8_t *p, size_t n) {
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t i = 0; i + 128 <= n; i += 128) {
        a0 = _mm256_xor_si256(a0, _mm256_load_si256((const __m256i *)(p + i)));
        a1 = _mm256_xor_si256(a1, _mm256_load_si256((const __m256i *)(p + i + 32)));
        a2 = _mm256_xor_si256(a2, _mm256_load_si256((const __m256i *)(p + i + 64)));
        a3 = _mm256_xor_si256(a3, _mm256_load_si256((const __m256i *)(p + i + 96)));
    }
    a0 = _mm256_xor_si256(_mm256_xor_si256(a0, a1), _mm256_xor_si256(a2, a3));
    return (uint64_t)_mm256_extract_epi64(a0, 0) ^ (uint64_t)_mm256_extract_epi64(a0, 3);
}

static uint64_t read_scalar(const uint8_t *p, size_t n) {
    uint64_t x = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        x ^= v;
    }
    return x;
}

static void bw_task(void *p, int ith, int nth) {
    struct bw_job *j = p;
    int64_t r0, r1;
    pool_range((int64_t)(j->bytes / 4096), ith, nth, 1, &r0, &r1);
    const uint8_t *b = j->buf + (size_t)r0 * 4096;
    size_t n = (size_t)(r1 - r0) * 4096;
    j->sink[ith % 64] ^= __builtin_cpu_supports("avx2") ? read_avx2(b, n) : read_scalar(b, n);
}

frink_status frink_measure_bandwidth(int n_threads, int reps, frink_bandwidth *out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_measure_bandwidth: no place for the result");
    *out = (frink_bandwidth){0};
    if (n_threads < 0 || n_threads > 1024) return frink_fail(FRINK_ERR_ARG, "n_threads must be in [0, 1024], got %d", n_threads);
    if (reps < 1) return frink_fail(FRINK_ERR_ARG, "reps must be >= 1, got %d", reps);
    // 1 GiB: far larger than any cache, so every pass reads memory.
    const size_t bytes = (size_t)1 << 30;
    uint8_t *buf = aligned_alloc(4096, bytes);
    struct pool *pool = bench_pool(n_threads);
    if (!buf || !pool) {
        free(buf);
        pool_free(pool);
        return frink_fail(FRINK_ERR_NOMEM, "bandwidth: cannot get 1 GiB and %d threads", n_threads);
    }
    memset(buf, 1, bytes); // touch every page so reads hit memory, not the zero page
    struct bw_job j = {buf, bytes, {0}};
    double best = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        pool_run(pool, bw_task, &j);
        double gbps = (double)bytes / (now_s() - t0) / 1e9;
        if (gbps > best) best = gbps;
    }
    *out = (frink_bandwidth){.read_gbps = best, .threads = pool_threads(pool)};
    pool_free(pool);
    free(buf);
    return FRINK_OK;
}

// ---- kernels ----------------------------------------------------------------------

// The weight types measured, in the order they are listed.
static const uint32_t kern_types[] = {
    GGML_TYPE_F32,  GGML_TYPE_F16,  GGML_TYPE_BF16,  GGML_TYPE_Q8_0,   GGML_TYPE_Q4_0,  GGML_TYPE_Q4_1,  GGML_TYPE_Q5_0,
    GGML_TYPE_Q5_1, GGML_TYPE_Q2_K, GGML_TYPE_Q3_K,  GGML_TYPE_Q4_K,   GGML_TYPE_Q5_K,  GGML_TYPE_Q6_K,  GGML_TYPE_IQ4_NL,
    GGML_TYPE_IQ4_XS, GGML_TYPE_MXFP4, GGML_TYPE_TQ1_0, GGML_TYPE_TQ2_0, GGML_TYPE_Q1_0, GGML_TYPE_Q2_0};
#define KERN_N_TYPES ((int)(sizeof kern_types / sizeof *kern_types))

const char *frink_kernel_type(int i) { return i >= 0 && i < KERN_N_TYPES ? ggml_type_name(kern_types[i]) : NULL; }

struct kern_job {
    enum quant_isa_id isa; // the kernel set measured
    uint32_t type;
    const uint8_t *w;   // [rows][row_bytes], the file layout
    const void *packed; // the layout repacked at load for isa; NULL: use w
    size_t row_bytes;
    const void *xq;     // the activation, in the format the type pairs with
    int64_t n, rows;
    float *y;           // [rows]
};

static void kern_task(void *p, int ith, int nth) {
    struct kern_job *j = p;
    int64_t r0, r1;
    pool_range(j->rows, ith, nth, 16, &r0, &r1);
    if (r0 >= r1) return;
    if (j->packed)
        quant_matmul_packed(j->isa, j->type, j->packed, j->w, j->row_bytes, j->xq, j->n, 1, j->y + r0, j->rows, r0, r1);
    else quant_matvec(j->isa, j->type, j->w, j->row_bytes, j->xq, j->n, j->y + r0, r0, r1);
}

// The best of reps runs of the job, in GB/s of the file layout's bytes.
static double kern_time(struct pool *pool, struct kern_job *j, int reps) {
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        pool_run(pool, kern_task, j);
        double dt = now_s() - t0;
        if (dt < best) best = dt;
    }
    return (double)j->row_bytes * (double)j->rows / best / 1e9;
}

frink_status frink_measure_kernel(int i, int n_threads, frink_kernel_speed *out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_measure_kernel: no place for the result");
    *out = (frink_kernel_speed){0};
    if (i < 0 || i >= KERN_N_TYPES) return frink_fail(FRINK_ERR_ARG, "kernel type %d is not in [0, %d)", i, KERN_N_TYPES);
    if (n_threads < 0 || n_threads > 1024) return frink_fail(FRINK_ERR_ARG, "n_threads must be in [0, 1024], got %d", n_threads);
    const int64_t n = 4096, rows = 4096;
    const uint32_t t = kern_types[i];
    const size_t rb = ggml_row_size(t, n), bytes = rb * (size_t)rows;
    // the set a context runs by default (frink_context_kernels), and the reference twins
    const enum quant_isa_id isa = quant_cpu_isa();
    const size_t psz = quant_packed_size(isa, t, n, rows);
    float *x = malloc((size_t)n * sizeof(float)), *y = malloc((size_t)rows * sizeof(float));
    void *xq = malloc(quant_act_size(t, n) + 4096);
    uint8_t *w = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    void *P = psz ? aligned_alloc(64, (psz + 63) & ~(size_t)63) : NULL;
    struct pool *pool = bench_pool(n_threads);
    frink_status st = FRINK_OK;
    if (!x || !y || !xq || !w || (psz && !P) || !pool) {
        st = frink_fail(FRINK_ERR_NOMEM, "kernels: out of memory or threads");
        goto done;
    }
    for (int64_t k = 0; k < n; k++) x[k] = sinf((float)k * 0.37f);
    // Arbitrary bytes, but finite scales: every 16-bit word of F16/BF16 becomes a small value.
    for (size_t k = 0; k < bytes; k++) w[k] = (uint8_t)(k * 2654435761u >> 24);
    if (t == GGML_TYPE_F16 || t == GGML_TYPE_BF16)
        for (size_t k = 1; k < bytes; k += 2) w[k] &= 0x3b;
    quant_act_from_float(isa, t, x, xq, n);
    struct kern_job j = {isa, t, w, NULL, rb, xq, n, rows, y};
    out->fast_gbps = kern_time(pool, &j, 8);
    j.isa = QUANT_ISA_SCALAR;
    out->ref_gbps = kern_time(pool, &j, 2);
    j.isa = isa;
    if (P) {
        quant_pack(isa, t, w, rb, n, rows, P);
        j.packed = P;
        out->packed_gbps = kern_time(pool, &j, 8);
    }
    out->type = ggml_type_name(t);
    out->threads = pool_threads(pool);
done:
    pool_free(pool);
    free(P);
    free(w);
    free(xq);
    free(y);
    free(x);
    return st;
}
