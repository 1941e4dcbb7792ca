// bench.c — `frink bench`: prefill and decode speed, effective weight
// bandwidth, and thread barriers per decoded token, on the public API alone.
//
//   frink bench -m MODEL [-p 128] [-n 32] [-d DEPTH] [-r 5] [-t T] [--json]
//       one sequence: a P-token prefill, then N tokens decoded one at a time
//       (after a DEPTH-token prompt)
//   frink bench -m MODEL --parallel S [-p 32] [-n 16] [-r 5] [-t T] [--json]
//       S sequences, as llama-batched-bench: the S prompts of P tokens in one batch,
//       then N steps, each one batch of S tokens (one per sequence, all with logits);
//       aggregate tok/s (S*P / time, S*N / time)
//   frink bench --bandwidth [-t T] [-r R]   the machine's read bandwidth
//   frink bench --kernels [-t T]            matrix-vector GB/s per weight type
//
// Token ids follow the reference oracle's `bench` (prefill (i*7919+13) % V,
// decode (i*31+7) % V) and `batched` (sequence s: prefill (i*7919+13+s*101) % V,
// step g (g*31+7+s*13) % V), so the two engines do the same work. Figures are the
// median over -r repetitions, with half the max-min spread; --json adds the best
// repetition (prefill_best_tok_s, decode_best_tok_s), the figure the oracle reports.
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "frink_tools.h"

int cmd_bench(int argc, char **argv);

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

// s as a JSON string body (quotes and backslashes escaped, control bytes dropped).
static void json_str(const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        if ((unsigned char)*s >= 0x20) putchar(*s);
    }
}

static void usage(void) {
    fputs("usage: frink bench [-m MODEL] [-p P] [-n N] [-d DEPTH] [-r REPS] [-t THREADS] [--json]\n"
          "       frink bench [-m MODEL] --parallel S [-p 32] [-n 16] [-r REPS] [-t THREADS] [--json]\n"
          "       frink bench --bandwidth [-t THREADS] [-r REPS] [--json]\n"
          "       frink bench --kernels [-t THREADS] [--json]\n"
          "  model flags: -c CTX, -b BATCH, --cache-type f16|f32|q8_0, --gdn-chunk N, --reference,\n"
          "  --allow-unread, --device cpu|cuda. Defaults: -p 128 -n 32 (-p 32 -n 16 with --parallel), -r 5.\n"
          "  -hf USER/REPO[:QUANT] (-hff FILE, -hft TOKEN, --offline): the model from Hugging Face instead of -m\n"
          "  (`frink pull --help`).\n"
          "example: frink bench -m model.gguf -t 2 --parallel 8 --json\n",
          stdout);
    fputs(cli_hub_flags_help, stdout);
}

struct bench_opts {
    const char *path; // NULL: the embedded model
    const char *device; // --device (NULL: FRINK_DEVICE, else cpu)
    long P, N, depth, reps, S, threads, ctx, batch, gdn_chunk;
    frink_kv_type kv_type;
    bool json, reference, allow_unread;
};

// ---- what is below the engine ------------------------------------------------------

static int bench_bandwidth(const struct bench_opts *o) {
    frink_bandwidth bw;
    if (frink_measure_bandwidth((int)o->threads, (int)o->reps, &bw)) return cli_die("%s", frink_errmsg()), 1;
    if (o->json) printf("{\"threads\":%d,\"read_gbps\":%.2f}\n", bw.threads, bw.read_gbps);
    else printf("memory read bandwidth: %.2f GB/s (%d threads, best of %ld)\n", bw.read_gbps, bw.threads, o->reps);
    return 0;
}

// Matrix-vector throughput per weight type (GB/s of weights), fast kernels vs the scalar
// reference, and the fast kernels on the layout repacked at load where the type has one.
static int bench_kernels(const struct bench_opts *o) {
    if (o->json) printf("[");
    for (int k = 0; frink_kernel_type(k); k++) {
        frink_kernel_speed ks;
        if (frink_measure_kernel(k, (int)o->threads, &ks)) {
            if (o->json) printf("]\n");
            return cli_die("%s", frink_errmsg()), 1;
        }
        if (o->json) {
            printf("%s{\"type\":\"%s\",\"fast_gbps\":%.2f,\"ref_gbps\":%.2f,\"packed_gbps\":%.2f}", k ? "," : "", ks.type,
                   ks.fast_gbps, ks.ref_gbps, ks.packed_gbps);
            continue;
        }
        if (k == 0)
            printf("%-8s %10s %10s %8s %12s   (%d threads, 4096 x 4096)\n", "type", "fast GB/s", "ref GB/s", "speedup",
                   "packed GB/s", ks.threads);
        printf("%-8s %10.2f %10.2f %7.1fx ", ks.type, ks.fast_gbps, ks.ref_gbps, ks.fast_gbps / ks.ref_gbps);
        if (ks.packed_gbps > 0) printf("%12.2f\n", ks.packed_gbps);
        else printf("%12s\n", "-");
        fflush(stdout);
    }
    if (o->json) printf("]\n");
    return 0;
}

// ---- the engine -----------------------------------------------------------------------

struct bench_engine {
    frink_model *m;
    frink_context *c;
};

static int engine_open(const struct bench_opts *o, int n_ctx, int n_batch, int n_seq_max, struct bench_engine *e) {
    *e = (struct bench_engine){0};
    frink_model_params mp = frink_model_default_params();
    mp.path = o->path;
    mp.allow_unread = o->allow_unread;
    mp.no_tokenizer = true; // ids only
    mp.device = o->device;
    if (frink_model_open(&mp, &e->m)) return cli_die("%s", frink_errmsg()), 1; // the message names the file
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = (int)o->threads;
    cp.n_ctx = n_ctx > o->ctx ? n_ctx : (int)o->ctx;
    cp.n_batch = n_batch;
    cp.n_seq_max = n_seq_max;
    cp.kv_type = o->kv_type;
    cp.gdn_chunk = (int)o->gdn_chunk;
    cp.reference_kernels = o->reference;
    if (frink_context_create(e->m, &cp, &e->c)) {
        cli_die("%s", frink_errmsg());
        frink_model_free(e->m);
        return 1;
    }
    return 0;
}

static void engine_close(struct bench_engine *e) {
    frink_context_free(e->c);
    frink_model_free(e->m);
    *e = (struct bench_engine){0};
}

// One sequence: the P-token prefill, then N tokens one at a time after DEPTH tokens.
static int bench_single(const struct bench_opts *o) {
    const long P = o->P, N = o->N, depth = o->depth, reps = o->reps;
    if (P < 1 && N < 1) return cli_die("bench: nothing to measure (-p and -n are both 0)");
    struct bench_engine e;
    long batch = o->batch < P ? P : o->batch;
    if (engine_open(o, (int)(P > depth + N ? P : depth + N), (int)(batch > 0 ? batch : 1), 1, &e)) return 1;
    const int V = frink_model_n_vocab(e.m);
    frink_token *ids = malloc((size_t)(P + depth + N + 1) * sizeof *ids);
    float *lg = malloc((size_t)V * sizeof(float));
    double *pf = calloc((size_t)reps, sizeof(double)), *dc = calloc((size_t)reps, sizeof(double));
    double barriers = 0;
    frink_seq *s = NULL;
    int rc = 1;
    if (!ids || !lg || !pf || !dc) { cli_die("out of memory"); goto done; }
    if (frink_seq_create(e.c, &s)) { cli_die("%s", frink_errmsg()); goto done; }
    for (long r = 0; r < reps; r++) {
        if (P > 0) {
            for (long i = 0; i < P; i++) ids[i] = (frink_token)((i * 7919 + 13) % V);
            frink_seq_reset(s);
            double t0 = now_s();
            if (frink_seq_eval(s, ids, (int)P, lg, 0)) { cli_die("%s", frink_errmsg()); goto done; }
            pf[r] = P / (now_s() - t0);
        }
        if (N > 0) {
            frink_seq_reset(s);
            if (depth > 0) {
                for (long i = 0; i < depth; i++) ids[i] = (frink_token)((i * 7919 + 13) % V);
                if (frink_seq_eval(s, ids, (int)depth, lg, 0)) { cli_die("%s", frink_errmsg()); goto done; }
            }
            uint64_t b0 = frink_context_barriers(e.c);
            double t0 = now_s();
            for (long i = 0; i < N; i++) {
                frink_token t = (frink_token)((i * 31 + 7) % V);
                if (frink_seq_eval(s, &t, 1, lg, 0)) { cli_die("%s", frink_errmsg()); goto done; }
            }
            dc[r] = N / (now_s() - t0);
            barriers = (double)(frink_context_barriers(e.c) - b0) / (double)N;
        }
    }
    double pf_med = 0, pf_sp = 0, dc_med = 0, dc_sp = 0;
    if (P > 0) stats(pf, (int)reps, &pf_med, &pf_sp);
    if (N > 0) stats(dc, (int)reps, &dc_med, &dc_sp);
    const double wbytes = (double)frink_model_bytes_per_token(e.m);
    const double gbps = dc_med * wbytes / 1e9;
    const char *name = o->path ? o->path : "embedded";
    const int threads = frink_context_threads(e.c);
    const char *isa = frink_context_kernels(e.c);
    if (o->json) {
        printf("{\"model\":\"");
        json_str(name);
        printf("\",\"threads\":%d,\"isa\":\"%s\",\"prefill_tokens\":%ld,\"decode_tokens\":%ld,\"depth\":%ld,\"reps\":%ld,"
               "\"prefill_tok_s\":%.2f,\"prefill_spread\":%.2f,\"decode_tok_s\":%.2f,\"decode_spread\":%.2f,"
               "\"weight_bytes_per_token\":%.0f,\"decode_gbps\":%.3f,\"barriers_per_token\":%.1f,"
               "\"prefill_best_tok_s\":%.2f,\"decode_best_tok_s\":%.2f}\n",
               threads, isa, P, N, depth, reps, pf_med, pf_sp, dc_med, dc_sp, wbytes, gbps, barriers, pf[reps - 1],
               dc[reps - 1]);
    } else {
        printf("model %s, %d threads, %s kernels, %.1f MB of weights read per token\n", o->path ? o->path : "(embedded)",
               threads, isa, wbytes / 1e6);
        if (P > 0) printf("prefill %4ld tokens: %10.2f tok/s  (+/- %.2f, median of %ld)\n", P, pf_med, pf_sp, reps);
        if (N > 0)
            printf("decode  %4ld tokens: %10.2f tok/s  (+/- %.2f) at depth %ld, %.2f GB/s of weights, %.1f barriers/token\n", N,
                   dc_med, dc_sp, depth, gbps, barriers);
    }
    rc = 0;
done:
    frink_seq_free(s);
    free(ids);
    free(lg);
    free(pf);
    free(dc);
    engine_close(&e);
    return rc;
}

// S sequences decoding together, as the oracle's `batched`: the S prompts of P tokens in one
// batch (logits of each prompt's last token), then G steps of one batch with one token of
// every sequence, each wanting logits. Sequences are emptied between repetitions.
static int bench_parallel(const struct bench_opts *o) {
    const long S = o->S, P = o->P, G = o->N, reps = o->reps;
    if (P < 1 && G < 1) return cli_die("bench: nothing to measure (-p and -n are both 0)");
    if (o->depth) return cli_die("bench: -d does not combine with --parallel");
    struct bench_engine e;
    // One internal step of at most -b tokens (512, the oracle's micro-batch), never fewer
    // than one decode step's S tokens.
    long batch = o->batch < S ? S : o->batch;
    if (engine_open(o, (int)(P + G), (int)batch, (int)S, &e)) return 1;
    const int V = frink_model_n_vocab(e.m);
    const long cap = S * P > S ? S * P : S;
    frink_seq **seqs = calloc((size_t)S, sizeof *seqs);
    double *pf = calloc((size_t)reps, sizeof(double)), *dc = calloc((size_t)reps, sizeof(double));
    double barriers = 0;
    frink_batch *b = NULL;
    int rc = 1;
    if (!seqs || !pf || !dc) { cli_die("out of memory"); goto done; }
    if (frink_batch_create((int)cap, &b)) { cli_die("%s", frink_errmsg()); goto done; }
    for (long s = 0; s < S; s++)
        if (frink_seq_create(e.c, &seqs[s])) { cli_die("%s", frink_errmsg()); goto done; }
    for (long r = 0; r < reps; r++) {
        for (long s = 0; s < S; s++) frink_seq_reset(seqs[s]);
        if (P > 0) {
            frink_batch_clear(b);
            for (long s = 0; s < S; s++)
                for (long i = 0; i < P; i++)
                    if (frink_batch_add(b, seqs[s], (frink_token)((i * 7919 + 13 + s * 101) % V), i == P - 1) < 0) {
                        cli_die("%s", frink_errmsg());
                        goto done;
                    }
            double t0 = now_s();
            if (frink_decode(e.c, b)) { cli_die("%s", frink_errmsg()); goto done; }
            pf[r] = (double)(S * P) / (now_s() - t0);
        }
        if (G > 0) {
            uint64_t b0 = frink_context_barriers(e.c);
            double t0 = now_s();
            for (long g = 0; g < G; g++) {
                frink_batch_clear(b);
                for (long s = 0; s < S; s++)
                    if (frink_batch_add(b, seqs[s], (frink_token)((g * 31 + 7 + s * 13) % V), true) < 0) {
                        cli_die("%s", frink_errmsg());
                        goto done;
                    }
                if (frink_decode(e.c, b)) { cli_die("%s", frink_errmsg()); goto done; }
            }
            dc[r] = (double)(S * G) / (now_s() - t0);
            barriers = (double)(frink_context_barriers(e.c) - b0) / (double)G;
        }
    }
    double pf_med = 0, pf_sp = 0, dc_med = 0, dc_sp = 0;
    if (P > 0) stats(pf, (int)reps, &pf_med, &pf_sp);
    if (G > 0) stats(dc, (int)reps, &dc_med, &dc_sp);
    // A step reads the weights once for all S tokens.
    const double wbytes = (double)frink_model_bytes_per_token(e.m);
    const double gbps = dc_med / (double)S * wbytes / 1e9;
    const char *name = o->path ? o->path : "embedded";
    const int threads = frink_context_threads(e.c);
    const char *isa = frink_context_kernels(e.c);
    if (o->json) {
        printf("{\"model\":\"");
        json_str(name);
        printf("\",\"threads\":%d,\"isa\":\"%s\",\"parallel\":%ld,\"prefill_tokens\":%ld,\"decode_tokens\":%ld,\"depth\":0,"
               "\"reps\":%ld,\"prefill_tok_s\":%.2f,\"prefill_spread\":%.2f,\"decode_tok_s\":%.2f,\"decode_spread\":%.2f,"
               "\"weight_bytes_per_token\":%.0f,\"decode_gbps\":%.3f,\"barriers_per_step\":%.1f,\"barriers_per_token\":%.2f,"
               "\"prefill_best_tok_s\":%.2f,\"decode_best_tok_s\":%.2f}\n",
               threads, isa, S, P, G, reps, pf_med, pf_sp, dc_med, dc_sp, wbytes, gbps, barriers, barriers / (double)S,
               pf[reps - 1], dc[reps - 1]);
    } else {
        printf("model %s, %d threads, %s kernels, %ld sequences, %.1f MB of weights read per step\n",
               o->path ? o->path : "(embedded)", threads, isa, S, wbytes / 1e6);
        if (P > 0)
            printf("prefill %3ld x %4ld tokens: %10.2f tok/s  (+/- %.2f, median of %ld)\n", S, P, pf_med, pf_sp, reps);
        if (G > 0)
            printf("decode  %3ld x %4ld tokens: %10.2f tok/s  (+/- %.2f), %.2f GB/s of weights, %.1f barriers/step\n", S, G,
                   dc_med, dc_sp, gbps, barriers);
    }
    rc = 0;
done:
    frink_batch_free(b);
    if (seqs)
        for (long s = 0; s < S; s++) frink_seq_free(seqs[s]);
    free(seqs);
    free(pf);
    free(dc);
    engine_close(&e);
    return rc;
}

int cmd_bench(int argc, char **argv) {
    struct bench_opts o = {.P = -1, .N = -1, .reps = 5, .batch = 512, .kv_type = FRINK_KV_F16};
    bool bandwidth = false, kernels = false;
    struct cli_hub_opts hub = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = cli_hub_flag(&hub, argc, argv, i);
        if (used < 0) return 2;
        if (used) { i += used - 1; continue; }
        struct { const char *flag, *alt; long *dst, lo, hi; } nums[] = {
            {"-p", NULL, &o.P, 0, 1 << 20},          {"-n", NULL, &o.N, 0, 1 << 20},
            {"-d", NULL, &o.depth, 0, 1 << 20},      {"-r", NULL, &o.reps, 1, 1 << 20},
            {"-t", "--threads", &o.threads, 1, 1024}, {"-c", "--ctx-size", &o.ctx, 1, 1 << 24},
            {"-b", "--batch-size", &o.batch, 1, 1 << 16}, {"--gdn-chunk", NULL, &o.gdn_chunk, 1, 1024},
            {"--parallel", NULL, &o.S, 1, 4096},
        };
        bool num = false;
        for (size_t k = 0; k < sizeof nums / sizeof *nums && !num; k++) {
            if (strcmp(a, nums[k].flag) && !(nums[k].alt && !strcmp(a, nums[k].alt))) continue;
            if (!v) return cli_die("%s needs a value", a);
            if (!cli_int(a, v, nums[k].lo, nums[k].hi, nums[k].dst)) return 2;
            i++;
            num = true;
        }
        if (num) continue;
        if (!strcmp(a, "-m") || !strcmp(a, "--model")) {
            if (!v) return cli_die("%s needs a value", a);
            o.path = v;
            i++;
        } else if (!strcmp(a, "--cache-type") || !strcmp(a, "-ctk")) {
            if (!v) return cli_die("%s needs a value", a);
            if (!strcmp(v, "f16")) o.kv_type = FRINK_KV_F16;
            else if (!strcmp(v, "f32")) o.kv_type = FRINK_KV_F32;
            else if (!strcmp(v, "q8_0")) o.kv_type = FRINK_KV_Q8_0;
            else return cli_die("%s expects f16, f32 or q8_0, got '%s'", a, v);
            i++;
        } else if (!strcmp(a, "--device")) {
            if (!v) return cli_die("%s needs a value", a);
            if (strcmp(v, "cpu") && strcmp(v, "cuda")) return cli_die("%s expects cpu or cuda, got '%s'", a, v);
            o.device = v;
            i++;
        } else if (!strcmp(a, "--json")) o.json = true;
        else if (!strcmp(a, "--bandwidth")) bandwidth = true;
        else if (!strcmp(a, "--kernels")) kernels = true;
        else if (!strcmp(a, "--reference")) o.reference = true;
        else if (!strcmp(a, "--allow-unread")) o.allow_unread = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(); return 0; }
        else return cli_die("bench: unknown flag '%s' (see `frink bench --help`)", a);
    }
    if (hub.repo || hub.file) {
        if (o.path) return cli_die("-m and -hf both name the model: give one");
        int rc = cli_hub_resolve(&hub, &o.path);
        if (rc) return rc;
    }
    if (kernels) return bench_kernels(&o);
    if (bandwidth) return bench_bandwidth(&o);
    if (o.S) {
        if (o.P < 0) o.P = 32;
        if (o.N < 0) o.N = 16;
        return bench_parallel(&o);
    }
    if (o.P < 0) o.P = 128;
    if (o.N < 0) o.N = 32;
    return bench_single(&o);
}
