// bench.c — `frink bench`: prefill and decode speed, effective weight
// bandwidth, and thread barriers per decoded token; `--bandwidth` measures the
// machine's read bandwidth the same way, so figures can be read as fractions.
//
// Token ids follow the reference oracle's bench (prefill (i*7919+13) % V,
// decode (i*31+7) % V) so the two engines do the same work.
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "quant/quant.h"
#include "quant/types.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// Median and half the max-min spread of n samples (sorted in place).
static void stats(double *v, int n, double *med, double *spread) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *spread = 0.5 * (v[n - 1] - v[0]);
}

// ---- memory bandwidth ------------------------------------------------------------

struct bw_job {
    const uint8_t *buf;
    size_t bytes;
    uint64_t sink[64];
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

// Best-of-reps read bandwidth over a buffer much larger than the caches, GB/s.
static double measure_bandwidth(struct pool *pool, int reps) {
    size_t bytes = (size_t)1 << 30;
    uint8_t *buf = aligned_alloc(4096, bytes);
    if (!buf) return 0;
    memset(buf, 1, bytes); // touch every page so reads hit memory, not the zero page
    struct bw_job j = {buf, bytes, {0}};
    double best = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        pool_run(pool, bw_task, &j);
        double gbps = bytes / (now_s() - t0) / 1e9;
        if (gbps > best) best = gbps;
    }
    free(buf);
    return best;
}

// ---- kernels ----------------------------------------------------------------------

struct kern_job {
    uint32_t type;
    const uint8_t *w;
    const void *packed; // NULL: the file layout
    size_t row_bytes;
    const void *xq;
    int64_t n, rows;
    float *y;
};

static void kern_task(void *p, int ith, int nth) {
    struct kern_job *j = p;
    int64_t r0, r1;
    pool_range(j->rows, ith, nth, 16, &r0, &r1);
    if (r0 >= r1) return;
    if (j->packed) quant_matmul_packed(j->type, j->packed, j->w, j->row_bytes, j->xq, j->n, 1, j->y + r0, j->rows, r0, r1);
    else quant_matvec(j->type, j->w, j->row_bytes, j->xq, j->n, j->y + r0, r0, r1);
}

// Matrix-vector throughput per weight type (GB/s of weights), fast kernels vs
// the scalar reference, on a 4096 x 4096 matrix of arbitrary bytes; and the fast kernels on the
// layout repacked at load where the type has one on this CPU (GB/s of the file's bytes).
static int bench_kernels(struct pool *pool, bool json) {
    const int64_t n = 4096, rows = 4096;
    static const uint32_t types[] = {GGML_TYPE_F32,  GGML_TYPE_F16,  GGML_TYPE_BF16, GGML_TYPE_Q8_0, GGML_TYPE_Q4_0,
                                     GGML_TYPE_Q4_1, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1, GGML_TYPE_Q2_K, GGML_TYPE_Q3_K,
                                     GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K, GGML_TYPE_IQ4_NL, GGML_TYPE_IQ4_XS,
                                     GGML_TYPE_MXFP4, GGML_TYPE_TQ1_0, GGML_TYPE_TQ2_0, GGML_TYPE_Q1_0, GGML_TYPE_Q2_0};
    float *x = malloc((size_t)n * sizeof(float)), *y = malloc((size_t)rows * sizeof(float));
    void *xq = malloc(quant_act_size(GGML_TYPE_F32, n) + 4096);
    if (!x || !y || !xq) return cli_die("out of memory");
    for (int64_t i = 0; i < n; i++) x[i] = sinf((float)i * 0.37f);
    if (json) printf("[");
    else printf("%-8s %10s %10s %8s %12s   (%d threads, 4096 x 4096)\n", "type", "fast GB/s", "ref GB/s", "speedup",
                "packed GB/s", pool_threads(pool));
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        uint32_t t = types[k];
        size_t rb = ggml_row_size(t, n), bytes = rb * (size_t)rows;
        uint8_t *w = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
        if (!w) return cli_die("out of memory");
        // Arbitrary bytes, but finite scales: every 16-bit word becomes a small half.
        for (size_t i = 0; i < bytes; i++) w[i] = (uint8_t)(i * 2654435761u >> 24);
        if (t == GGML_TYPE_F16 || t == GGML_TYPE_BF16)
            for (size_t i = 1; i < bytes; i += 2) w[i] &= 0x3b;
        quant_act_from_float(t, x, xq, n);
        double gb[2];
        for (int ref = 0; ref < 2; ref++) {
            quant_set_reference(ref == 1);
            struct kern_job j = {t, w, NULL, rb, xq, n, rows, y};
            double best = 1e9;
            for (int r = 0; r < (ref ? 2 : 8); r++) {
                double t0 = now_s();
                pool_run(pool, kern_task, &j);
                double dt = now_s() - t0;
                if (dt < best) best = dt;
            }
            gb[ref] = bytes / best / 1e9;
        }
        quant_set_reference(false);
        double pgb = 0;
        const size_t psz = quant_packed_size(t, n, rows);
        void *P = psz ? aligned_alloc(64, (psz + 63) & ~(size_t)63) : NULL;
        if (P) {
            quant_pack(t, w, rb, n, rows, P);
            struct kern_job j = {t, w, P, rb, xq, n, rows, y};
            double best = 1e9;
            for (int r = 0; r < 8; r++) {
                double t0 = now_s();
                pool_run(pool, kern_task, &j);
                double dt = now_s() - t0;
                if (dt < best) best = dt;
            }
            pgb = bytes / best / 1e9;
            free(P);
        }
        if (json) printf("%s{\"type\":\"%s\",\"fast_gbps\":%.2f,\"ref_gbps\":%.2f,\"packed_gbps\":%.2f}", k ? "," : "",
                         ggml_type_name(t), gb[0], gb[1], pgb);
        else if (P) printf("%-8s %10.2f %10.2f %7.1fx %12.2f\n", ggml_type_name(t), gb[0], gb[1], gb[0] / gb[1], pgb);
        else printf("%-8s %10.2f %10.2f %7.1fx %12s\n", ggml_type_name(t), gb[0], gb[1], gb[0] / gb[1], "-");
        free(w);
    }
    if (json) printf("]\n");
    free(x);
    free(y);
    free(xq);
    return 0;
}

int cmd_bench(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    mo.no_tokenizer = true;
    long P = 128, N = 32, depth = 0, reps = 5;
    bool json = false, bandwidth = false, kernels = false;
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long *dst = !strcmp(a, "-p") ? &P : !strcmp(a, "-n") ? &N : !strcmp(a, "-d") ? &depth : !strcmp(a, "-r") ? &reps : NULL;
        if (dst) {
            if (!v) return cli_die("%s needs a value", a);
            if (!cli_int(a, v, dst == &reps ? 1 : 0, 1 << 20, dst)) return 2;
            i++;
        } else if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "--bandwidth")) bandwidth = true;
        else if (!strcmp(a, "--kernels")) kernels = true;
        else return cli_die("bench: unknown flag '%s'", a);
    }
    if (kernels) {
        struct pool *pool = pool_create(mo.threads ? (int)mo.threads : pool_default_threads());
        if (!pool) return cli_die("cannot start threads");
        int rc = bench_kernels(pool, json);
        pool_free(pool);
        return rc;
    }
    if (bandwidth) {
        struct pool *pool = pool_create(mo.threads ? (int)mo.threads : pool_default_threads());
        if (!pool) return cli_die("cannot start threads");
        double gbps = measure_bandwidth(pool, (int)reps);
        if (json) printf("{\"threads\":%d,\"read_gbps\":%.2f}\n", pool_threads(pool), gbps);
        else printf("memory read bandwidth: %.2f GB/s (%d threads, best of %ld)\n", gbps, pool_threads(pool), reps);
        pool_free(pool);
        return 0;
    }
    if (P < 1 && N < 1) return cli_die("bench: nothing to measure (-p and -n are both 0)");
    mo.ctx = P > depth + N ? P : depth + N;
    if (mo.batch < P) mo.batch = P > 0 ? P : 1;
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) return 1;
    int V = e.m->hp.n_vocab;
    int32_t *ids = malloc((size_t)(P + depth + N + 1) * sizeof *ids);
    float *lg = malloc((size_t)V * sizeof(float));
    double *pf = calloc((size_t)reps, sizeof(double)), *dc = calloc((size_t)reps, sizeof(double));
    double barriers = 0;
    int rc = 1;
    if (!ids || !lg || !pf || !dc) { cli_die("out of memory"); goto done; }
    for (long r = 0; r < reps; r++) {
        if (P > 0) {
            for (long i = 0; i < P; i++) ids[i] = (int32_t)((i * 7919 + 13) % V);
            seq_reset(e.seq);
            double t0 = now_s();
            if (exec_forward(e.ex, e.seq, ids, (int)P, lg, false)) { cli_die("%s", frink_errmsg()); goto done; }
            pf[r] = P / (now_s() - t0);
        }
        if (N > 0) {
            seq_reset(e.seq);
            if (depth > 0) {
                for (long i = 0; i < depth; i++) ids[i] = (int32_t)((i * 7919 + 13) % V);
                if (exec_forward(e.ex, e.seq, ids, (int)depth, lg, false)) { cli_die("%s", frink_errmsg()); goto done; }
            }
            uint64_t b0 = pool_barriers(e.pool);
            double t0 = now_s();
            for (long i = 0; i < N; i++) {
                int32_t t = (int32_t)((i * 31 + 7) % V);
                if (exec_forward(e.ex, e.seq, &t, 1, lg, false)) { cli_die("%s", frink_errmsg()); goto done; }
            }
            dc[r] = N / (now_s() - t0);
            barriers = (double)(pool_barriers(e.pool) - b0) / (double)N;
        }
    }
    double pf_med = 0, pf_sp = 0, dc_med = 0, dc_sp = 0;
    if (P > 0) stats(pf, (int)reps, &pf_med, &pf_sp);
    if (N > 0) stats(dc, (int)reps, &dc_med, &dc_sp);
    double wbytes = (double)model_weight_bytes(e.m);
    double gbps = dc_med * wbytes / 1e9;
    if (json) {
        printf("{\"model\":\"%s\",\"threads\":%d,\"isa\":\"%s\",\"prefill_tokens\":%ld,\"decode_tokens\":%ld,\"depth\":%ld,\"reps\":%ld,"
               "\"prefill_tok_s\":%.2f,\"prefill_spread\":%.2f,\"decode_tok_s\":%.2f,\"decode_spread\":%.2f,"
               "\"weight_bytes_per_token\":%.0f,\"decode_gbps\":%.3f,\"barriers_per_token\":%.1f}\n",
               mo.path ? mo.path : "embedded", pool_threads(e.pool), quant_isa(), P, N, depth, reps, pf_med, pf_sp, dc_med, dc_sp,
               wbytes, gbps, barriers);
    } else {
        printf("model %s, %d threads, %s kernels, %.1f MB of weights read per token\n", mo.path ? mo.path : "(embedded)",
               pool_threads(e.pool), quant_isa(), wbytes / 1e6);
        if (P > 0) printf("prefill %4ld tokens: %10.2f tok/s  (+/- %.2f, median of %ld)\n", P, pf_med, pf_sp, reps);
        if (N > 0)
            printf("decode  %4ld tokens: %10.2f tok/s  (+/- %.2f) at depth %ld, %.2f GB/s of weights, %.1f barriers/token\n", N,
                   dc_med, dc_sp, depth, gbps, barriers);
    }
    rc = 0;
done:
    free(ids);
    free(lg);
    free(pf);
    free(dc);
    cli_engine_close(&e);
    return rc;
}
