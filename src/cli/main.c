// frink — the command-line program. main() only dispatches; each subcommand
// parses its flags, validates them with one-line errors, and calls libfrink.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "model/arch.h"
#include "model/state.h"
#include "quant/quant.h"
#include "quant/types.h"
#include "text/sampler.h"
#include "text/tokenizer.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// ---- flag parsing ---------------------------------------------------------------

int cli_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("frink: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

bool cli_int(const char *flag, const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) {
        fprintf(stderr, "frink: %s expects an integer in [%ld, %ld], got '%s'\n", flag, lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_float(const char *flag, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || isnan(v) || v < lo || v > hi) {
        fprintf(stderr, "frink: %s expects a number in [%g, %g], got '%s'\n", flag, lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

// Parses "1,2,3" into a malloc'ed array. Returns false (message printed) on junk.
bool cli_ids(const char *s, int32_t **ids, int *n) {
    size_t cap = 16, k = 0;
    int32_t *v = malloc(cap * sizeof *v);
    if (!v) return false;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || errno || x < 0 || x > INT32_MAX || (*end && *end != ',')) {
            fprintf(stderr, "frink: --ids expects comma-separated token ids, bad entry at '%s'\n", p);
            free(v);
            return false;
        }
        if (k == cap) {
            int32_t *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); return false; }
            v = nv;
        }
        v[k++] = (int32_t)x;
        p = *end ? end + 1 : end;
    }
    if (!k) {
        fprintf(stderr, "frink: --ids is empty\n");
        free(v);
        return false;
    }
    *ids = v;
    *n = (int)k;
    return true;
}

// ---- run ---------------------------------------------------------------------------

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\r') fputs("\\r", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void json_ids(FILE *f, const int32_t *ids, size_t n) {
    fputc('[', f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%d", i ? "," : "", ids[i]);
    fputc(']', f);
}

static int cmd_run(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    const char *prompt = "";
    long n_predict = 128;
    bool json = false;
    const char *pcache = NULL; // --prompt-cache FILE
    struct sampler_params sp;
    sampler_defaults(&sp);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        double d;
        long l;
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!v) return cli_die("%s needs a value", a); i++; } while (0)
        if (!strcmp(a, "-p") || !strcmp(a, "--prompt")) { NEED_VALUE(); prompt = v; }
        else if (!strcmp(a, "-n") || !strcmp(a, "--n-predict")) { NEED_VALUE(); if (!cli_int(a, v, 0, 1 << 24, &n_predict)) return 2; }
        else if (!strcmp(a, "--temp")) { NEED_VALUE(); if (!cli_float(a, v, 0, 100, &d)) return 2; sp.temp = (float)d; }
        else if (!strcmp(a, "--top-k")) { NEED_VALUE(); if (!cli_int(a, v, 0, 1 << 30, &l)) return 2; sp.top_k = (int)l; }
        else if (!strcmp(a, "--top-p")) { NEED_VALUE(); if (!cli_float(a, v, 1e-9, 1, &d)) return 2; sp.top_p = (float)d; }
        else if (!strcmp(a, "--min-p")) { NEED_VALUE(); if (!cli_float(a, v, 0, 1, &d)) return 2; sp.min_p = (float)d; }
        else if (!strcmp(a, "--repeat-penalty")) { NEED_VALUE(); if (!cli_float(a, v, 1e-6, 100, &d)) return 2; sp.repeat_penalty = (float)d; }
        else if (!strcmp(a, "--presence-penalty")) { NEED_VALUE(); if (!cli_float(a, v, -100, 100, &d)) return 2; sp.presence_penalty = (float)d; }
        else if (!strcmp(a, "--frequency-penalty")) { NEED_VALUE(); if (!cli_float(a, v, -100, 100, &d)) return 2; sp.frequency_penalty = (float)d; }
        else if (!strcmp(a, "--repeat-last-n")) { NEED_VALUE(); if (!cli_int(a, v, 0, 1 << 20, &l)) return 2; sp.penalty_last_n = (int)l; }
        else if (!strcmp(a, "--seed") || !strcmp(a, "-s")) { NEED_VALUE(); if (!cli_int(a, v, 0, LONG_MAX, &l)) return 2; sp.seed = (uint64_t)l; }
        else if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "--prompt-cache")) { NEED_VALUE(); pcache = v; }
        else return cli_die("run: unknown flag '%s' (see `frink help`)", a);
#undef NEED_VALUE
    }
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) return 1;
    int rc = 1;
    int32_t *pids = NULL, *out = NULL;
    size_t np = 0;
    struct sampler *smp = NULL;
    char *text = NULL;
    float *logits = malloc((size_t)e.m->hp.n_vocab * sizeof(float));
    if (!logits) { cli_die("out of memory"); goto done; }
    if (tokenizer_encode(e.tok, prompt, strlen(prompt), true, true, &pids, &np)) { cli_die("%s", frink_errmsg()); goto done; }
    if (np == 0) { cli_die("the prompt is empty and the model adds no BOS token: nothing to condition on"); goto done; }
    if (sampler_create(&sp, e.m->hp.n_vocab, &smp)) { cli_die("%s", frink_errmsg()); goto done; }
    out = malloc(((size_t)n_predict + 1) * sizeof *out);
    if (!out) { cli_die("out of memory"); goto done; }
    if (!json) {
        fputs(prompt, stdout); // the story continues the user's words
        fflush(stdout);
    }
    for (size_t i = 0; i < np; i++) sampler_accept(smp, pids[i]);
    // --prompt-cache: restore the saved state if it belongs to this model, keep
    // the prefix it shares with the prompt, compute only the rest. A missing
    // file is a cold start; an unusable one is reported and ignored.
    int n_reused = 0, n_replayed = 0;
    double cache_load_ms = 0, cache_save_ms = 0;
    if (pcache) {
        double tc = now_ms();
        frink_status st = slot_load(e.seq, pcache);
        if (st && !(st == FRINK_ERR_IO && errno == ENOENT))
            fprintf(stderr, "frink: --prompt-cache: %s; starting from scratch\n", frink_errmsg());
        if (st) seq_reset(e.seq);
        cache_load_ms = now_ms() - tc;
    }
    double t0 = now_ms();
    if (e.seq->n_past) {
        int keep = 0;
        while (keep < e.seq->n_past && (size_t)keep < np && e.seq->tokens[keep] == pids[keep]) keep++;
        if ((size_t)keep == np) keep--; // the last prompt token is computed again for its logits
        // Hybrid models rewind to a checkpoint and replay: those count as computed.
        if (seq_truncate(e.ex, e.seq, keep, &n_replayed)) { cli_die("%s", frink_errmsg()); goto done; }
        n_reused = keep - n_replayed;
    }
    int n_have = e.seq->n_past;
    if (seq_append(e.ex, e.seq, pids + n_have, (int)np - n_have, logits, false, true)) { cli_die("%s", frink_errmsg()); goto done; }
    double t1 = now_ms();
    size_t n_out = 0;
    char piece[512];
    // Bytes of a multi-byte character can straddle tokens: pieces go out raw, the
    // terminal reassembles them.
    for (long i = 0; i < n_predict; i++) {
        int32_t tok = sampler_sample(smp, logits);
        if (tokenizer_is_eog(e.tok, tok)) break;
        out[n_out++] = tok;
        sampler_accept(smp, tok);
        if (!json) {
            int k = tokenizer_piece(e.tok, tok, piece, sizeof piece, false);
            if (k > 0) fwrite(piece, 1, (size_t)k, stdout);
            fflush(stdout);
        }
        if (i + 1 == n_predict) break;
        if (seq_append(e.ex, e.seq, &tok, 1, logits, false, false)) { cli_die("%s", frink_errmsg()); goto done; }
    }
    double t2 = now_ms();
    if (pcache) {
        if (slot_save(e.seq, pcache)) fprintf(stderr, "frink: --prompt-cache: %s\n", frink_errmsg());
        cache_save_ms = now_ms() - t2;
    }
    size_t n_computed = np - (size_t)n_reused;
    double pf_ms = t1 - t0, dc_ms = t2 - t1;
    double pf_tps = n_computed / (pf_ms / 1e3), dc_tps = n_out > 1 ? (n_out - 1) / (dc_ms / 1e3) : 0;
    if (json) {
        text = tokenizer_decode(e.tok, out, n_out, false);
        printf("{\"prompt_ids\":");
        json_ids(stdout, pids, np);
        printf(",\"ids\":");
        json_ids(stdout, out, n_out);
        printf(",\"text\":");
        json_str(stdout, text ? text : "");
        printf(",\"prompt_tokens_reused\":%d", n_reused);
        if (pcache) printf(",\"prompt_cache_load_ms\":%.3f,\"prompt_cache_save_ms\":%.3f", cache_load_ms, cache_save_ms);
        printf(",\"prefill_ms\":%.3f,\"decode_ms\":%.3f,\"prefill_tok_s\":%.2f,\"decode_tok_s\":%.2f}\n", pf_ms, dc_ms, pf_tps, dc_tps);
    } else {
        printf("\n");
        if (pcache)
            fprintf(stderr, "frink: prompt cache: %d of %zu prompt tokens reused (%d replayed), load %.1f ms, save %.1f ms\n",
                    n_reused, np, n_replayed, cache_load_ms, cache_save_ms);
        fprintf(stderr, "frink: prefill %zu tokens in %.1f ms (%.1f tok/s), decode %zu tokens in %.1f ms (%.1f tok/s), %d threads, %s kernels\n",
                n_computed, pf_ms, pf_tps, n_out, dc_ms, dc_tps, pool_threads(e.pool), quant_isa());
    }
    rc = 0;
done:
    free(text);
    free(out);
    free(pids);
    free(logits);
    sampler_free(smp);
    cli_engine_close(&e);
    return rc;
}

// ---- tokenize ------------------------------------------------------------------------

static int cmd_tokenize(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    mo.vocab_only = true;
    bool bos = true;
    const char *text = NULL;
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        if (!strcmp(argv[i], "--no-bos")) bos = false;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_die("tokenize: unknown flag '%s'", argv[i]);
        else if (text) return cli_die("tokenize: one TEXT argument expected (quote it)");
        else text = argv[i];
    }
    if (!text) return cli_die("tokenize: missing TEXT");
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) return 1;
    int32_t *ids = NULL;
    size_t n = 0;
    int rc = 0;
    if (tokenizer_encode(e.tok, text, strlen(text), bos, true, &ids, &n)) rc = cli_die("%s", frink_errmsg());
    else {
        for (size_t i = 0; i < n; i++) printf("%s%d", i ? "," : "", ids[i]);
        printf("\n");
    }
    free(ids);
    cli_engine_close(&e);
    return rc;
}

// ---- logits ------------------------------------------------------------------------

static int cmd_logits(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    const char *out = NULL;
    int32_t *ids = NULL;
    int n = 0;
    bool all = false, decode = false;
    mo.no_tokenizer = true;
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) { free(ids); return 2; }
        if (used > 0) { i += used - 1; continue; }
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--ids")) {
            if (!v) { free(ids); return cli_die("--ids needs a value"); }
            free(ids);
            if (!cli_ids(v, &ids, &n)) return 2;
            i++;
        } else if (!strcmp(a, "-o")) {
            if (!v) { free(ids); return cli_die("-o needs a value"); }
            out = v;
            i++;
        } else if (!strcmp(a, "--all")) all = true;
        else if (!strcmp(a, "--decode")) decode = true;
        else { free(ids); return cli_die("logits: unknown flag '%s'", a); }
    }
    if (!ids) return cli_die("logits: --ids is required");
    if (!out) { free(ids); return cli_die("logits: -o OUT.f32 is required"); }
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) { free(ids); return 1; }
    int rc = 1;
    int V = e.m->hp.n_vocab;
    size_t rows = all ? (size_t)n : 1;
    float *lg = malloc(rows * (size_t)V * sizeof(float));
    FILE *f = NULL;
    if (!lg) { cli_die("out of memory"); goto done; }
    if (decode) {
        for (int i = 0; i < n; i++) {
            float *dst = all ? lg + (size_t)i * V : lg;
            if (exec_forward(e.ex, e.seq, ids + i, 1, dst, false)) { cli_die("%s", frink_errmsg()); goto done; }
        }
    } else if (exec_forward(e.ex, e.seq, ids, n, lg, all)) {
        cli_die("%s", frink_errmsg());
        goto done;
    }
    f = fopen(out, "wb");
    if (!f) { cli_die("cannot write '%s': %s", out, strerror(errno)); goto done; }
    if (fwrite(lg, sizeof(float), rows * (size_t)V, f) != rows * (size_t)V || fclose(f)) {
        f = NULL;
        cli_die("writing '%s' failed: %s", out, strerror(errno));
        goto done;
    }
    f = NULL;
    rc = 0;
done:
    if (f) fclose(f);
    free(lg);
    free(ids);
    cli_engine_close(&e);
    return rc;
}

// ---- inspect / archs -------------------------------------------------------------------

static int cmd_inspect(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        return cli_die("inspect: unknown flag '%s'", argv[i]);
    }
    struct gguf_file *f;
    if (cli_open_gguf(&mo, &f)) return 1;
    printf("GGUF v%u, %" PRIu64 " metadata keys, %" PRIu64 " tensors, alignment %u\n", f->version, f->n_kv, f->n_tensors, f->alignment);
    cli_print_metadata(stdout, f);
    printf("%-40s %-8s %-28s %12s\n", "tensor", "type", "shape", "bytes");
    uint64_t total = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const struct gguf_tensor *t = &f->tensors[i];
        char shape[64];
        int k = snprintf(shape, sizeof shape, "[%" PRId64, t->ne[0]);
        for (uint32_t d = 1; d < (t->n_dims ? t->n_dims : 1); d++) k += snprintf(shape + k, sizeof shape - (size_t)k, ", %" PRId64, t->ne[d]);
        snprintf(shape + k, sizeof shape - (size_t)k, "]");
        printf("%-40s %-8s %-28s %12" PRIu64 "\n", t->name, ggml_type_name(t->type), shape, t->nbytes);
        total += t->nbytes;
    }
    printf("total tensor bytes: %" PRIu64 "\n", total);
    // Then the verdict: does frink run it, and if not, why.
    struct model *m = NULL;
    struct model_load_opts lo = {.allow_unread = mo.allow_unread, .keep_layout = true};
    frink_status st = model_load(f, &lo, &m);
    if (st) {
        fprintf(stderr, "frink: refused: %s\n", frink_errmsg());
        gguf_close(f);
        return 1;
    }
    printf("frink: runs as '%s': %d layers (%d attention, %d Gated DeltaNet), %d-wide, vocabulary %d, %.1f MB of weights per token\n",
           m->arch->name, m->hp.n_layer, m->n_attn_layers, m->n_gdn_layers, m->hp.n_embd, m->hp.n_vocab, model_weight_bytes(m) / 1e6);
    model_free(m);
    return 0;
}

static int cmd_archs(void) {
    printf("%-12s %s\n", "architecture", "status");
    for (int i = 0; arch_at(i); i++) {
        const struct arch_info *a = arch_at(i);
        printf("%-12s %s\n", a->name, a->refused ? a->refused : "runs");
    }
    printf("any other    refused: not implemented\n");
    return 0;
}

static void usage(FILE *f) {
    fputs("usage: frink COMMAND [flags]\n"
          "  run       -m MODEL -p PROMPT -n N [-t THREADS] [--temp T --top-k K --top-p P --min-p M --seed S\n"
          "            --repeat-penalty R --presence-penalty P --frequency-penalty F --repeat-last-n N] [--json]\n"
          "            [--prompt-cache FILE]: reuse and save the prompt's state (KV, recurrent state)\n"
          "  tokenize  -m MODEL [--no-bos] TEXT\n"
          "  logits    -m MODEL --ids 1,2,3 -o OUT.f32 [--all] [--decode]\n"
          "  inspect   -m MODEL\n"
          "  archs     architectures frink runs, and why the others are refused\n"
          "  gen       --preset NAME -o OUT.gguf [--vocab FILE] [--layers N] [--seed S]: random weights, real shapes\n"
          "  bench     -m MODEL [-p 128] [-n 32] [-d DEPTH] [-t THREADS] [-r REPS] [--json]; --bandwidth\n"
          "model flags: -m MODEL (default: the embedded stories260K), -t THREADS, -c CONTEXT, -b BATCH,\n"
          "             --cache-type f16|f32|q8_0 (KV cache format, default f16), --gdn-chunk N (1: token recurrence),\n"
          "             --reference (scalar reference kernels), --allow-unread (ignore tensors nothing reads)\n",
          f);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "tokenize")) return cmd_tokenize(argc - 2, argv + 2);
    if (!strcmp(cmd, "logits")) return cmd_logits(argc - 2, argv + 2);
    if (!strcmp(cmd, "inspect")) return cmd_inspect(argc - 2, argv + 2);
    if (!strcmp(cmd, "archs")) return cmd_archs();
    if (!strcmp(cmd, "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(cmd, "gen")) return cmd_gen(argc - 2, argv + 2);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "frink: unknown command '%s' (see `frink help`)\n", cmd);
    return 2;
}
