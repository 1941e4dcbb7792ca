// frink — the command-line program. main() only dispatches; each subcommand
// parses its flags, validates them with one-line errors, and calls libfrink.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"

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

// ---- help ------------------------------------------------------------------------------

static const char help_run[] =
    "usage: frink run [-m MODEL] [-p PROMPT] [-n N] [sampling flags] [--json] [--prompt-cache FILE] [model flags]\n"
    "Continues PROMPT with N generated tokens, streamed to stdout as whole UTF-8 characters;\n"
    "speed on stderr.\n"
    "  -p, --prompt TEXT        the text to continue (special tokens such as <|im_start|> are parsed)\n"
    "  -n, --n-predict N        tokens to generate (default 128); stops early at end of generation\n"
    "  --temp T                 temperature (default 0.8; 0: greedy)\n"
    "  --top-k K, --top-p P, --min-p M    candidate filters (defaults 40, 0.95, 0.05)\n"
    "  --repeat-penalty R, --presence-penalty P, --frequency-penalty F, --repeat-last-n N\n"
    "  -s, --seed S             seed of the draw (default 61740)\n"
    "  --json                   print one JSON object: prompt_ids, ids, text, timings\n"
    "  --prompt-cache FILE      reuse the saved state of an earlier prompt that shares a prefix, and save it\n"
    "  --grammar GBNF           constrain the output to a GBNF grammar (llama.cpp's syntax; --grammar-file F)\n"
    "  --json-schema S          constrain the output to JSON valid under a JSON Schema (a file, or inline '{...}')\n"
    "  --chat                   the prompt as one user turn of the model's chat template (and --system TEXT\n"
    "                           before it; --chat-template-file T for another template); prints the reply\n"
    "example: frink run -p \"Once upon a time\" -n 64 --temp 0\n";
static const char help_tokenize[] =
    "usage: frink tokenize [-m MODEL] [--no-bos] TEXT\n"
    "Prints the token ids of TEXT, comma-separated (special tokens parsed).\n"
    "  --no-bos                 do not add the BOS token the vocabulary asks for\n"
    "example: frink tokenize -m model.gguf \"Hello <|im_start|>\"\n";
static const char help_logits[] =
    "usage: frink logits [-m MODEL] --ids 1,2,3 -o OUT.f32 [--all] [--decode] [model flags]\n"
    "Writes float32 logits after the ids: the last position's n_vocab floats, or (--all) one row per position.\n"
    "  --decode                 evaluate the ids one at a time through the KV cache instead of one batch\n"
    "example: frink logits -m model.gguf --ids 1,403,407 -o out.f32 --all\n";
static const char help_inspect[] =
    "usage: frink inspect [-m MODEL] [--allow-unread]\n"
    "Prints the file's metadata and tensor table, then whether frink runs it (or why not) and how each\n"
    "layer runs: its kind, the path evaluating it and the features that shape its math.\n"
    "example: frink inspect -m model.gguf\n";
static const char help_archs[] =
    "usage: frink archs\n"
    "Lists the architectures frink runs and, for the ones it refuses, why.\n"
    "example: frink archs\n";

static int help(const char *text) {
    fputs(text, stdout);
    if (text != help_archs && text != help_tokenize) fputs(cli_model_flags_help, stdout);
    return 0;
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

// --chat: the reply's content on stdout, its reasoning dimmed on a terminal (or left out when
// stdout is not one), tool calls as the model wrote them would be no answer: shown as a line each.
static void run_emit(void *ud, const frink_chat_delta *d) {
    (void)ud;
    static bool in_reasoning;
    bool tty = isatty(1);
    if (d->kind == FRINK_DELTA_REASONING) {
        if (!tty) return;
        if (!in_reasoning) fputs("\033[2m", stdout);
        in_reasoning = true;
        fwrite(d->text, 1, d->len, stdout);
        return;
    }
    if (in_reasoning) fputs("\033[0m\n", stdout);
    in_reasoning = false;
    if (d->kind == FRINK_DELTA_CONTENT) fwrite(d->text, 1, d->len, stdout);
    else if (d->kind == FRINK_DELTA_TOOL_END) printf("\n[tool call %s: %s %.*s]\n", d->id, d->name, (int)d->len, d->text);
    else if (d->kind == FRINK_DELTA_WARNING) fprintf(stderr, "frink: %.*s\n", (int)d->len, d->text);
}

static void run_out(frink_chat_parser *cp, const char *s, size_t n) {
    if (cp) frink_chat_parser_feed(cp, s, n, run_emit, NULL);
    else fwrite(s, 1, n, stdout);
}

static int cmd_run(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    const char *prompt = "";
    long n_predict = 128;
    bool json = false;
    const char *pcache = NULL; // --prompt-cache FILE
    bool chat = false;         // --chat: the prompt as one user turn of the chat template
    const char *grammar_text = NULL, *grammar_file = NULL, *schema = NULL; // constrained output
    const char *system_prompt = NULL, *tfile = NULL;
    frink_sampler_params sp = frink_sampler_default_params();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        used = cli_sampling_flag(&sp, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!v) return cli_die("%s needs a value", a); i++; } while (0)
        if (!strcmp(a, "-p") || !strcmp(a, "--prompt")) { NEED_VALUE(); prompt = v; }
        else if (!strcmp(a, "-n") || !strcmp(a, "--n-predict")) { NEED_VALUE(); if (!cli_int(a, v, 0, 1 << 24, &n_predict)) return 2; }
        else if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "--chat")) chat = true;
        else if (!strcmp(a, "--grammar")) { NEED_VALUE(); grammar_text = v; }
        else if (!strcmp(a, "--grammar-file")) { NEED_VALUE(); grammar_file = v; }
        else if (!strcmp(a, "--json-schema")) { NEED_VALUE(); schema = v; }
        else if (!strcmp(a, "--system")) { NEED_VALUE(); system_prompt = v; }
        else if (!strcmp(a, "--chat-template-file")) { NEED_VALUE(); tfile = v; }
        else if (!strcmp(a, "--prompt-cache")) { NEED_VALUE(); pcache = v; }
        else return cli_die("run: unknown flag '%s' (see `frink help`)", a);
#undef NEED_VALUE
    }
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) return 1;
    int rc = 1;
    frink_token *pids = NULL, *out = NULL;
    size_t np = 0;
    frink_sampler *smp = NULL;
    frink_detok *dt = NULL;
    char *text = NULL, *rendered = NULL;
    frink_template *tmpl = NULL;
    frink_chat_parser *cparse = NULL;
    frink_grammar *grammar = NULL;
    unsigned cflags = 0;
    const frink_model *m = e.m;
    float *logits = malloc((size_t)frink_model_n_vocab(m) * sizeof(float));
    if (!logits) { cli_die("out of memory"); goto done; }
    if (system_prompt && !chat) { cli_die("--system goes with --chat"); goto done; }
    if (chat) {
        // One user turn (after the system prompt, if any), rendered with the generation prompt.
        if (cli_template_open(m, tfile, &tmpl)) goto done;
        json_t *msgs = json_array();
        if (system_prompt) json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "system", "content", system_prompt));
        json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "user", "content", prompt));
        json_t *vars = json_pack("{s:o, s:b}", "messages", msgs, "add_generation_prompt", 1);
        char *vt = json_dumps(vars, JSON_COMPACT);
        json_decref(vars);
        size_t rn = 0;
        frink_status st = vt ? frink_template_render(tmpl, vt, strlen(vt), 0, &rendered, &rn) : FRINK_ERR_NOMEM;
        free(vt);
        if (st || cli_tokenize_prompt(m, rendered, rn, &pids, &np)) { cli_die("%s", frink_errmsg()); goto done; }
        if (frink_chat_prompt_opens_reasoning(NULL, tmpl, rendered, rn)) cflags |= FRINK_CHAT_STARTS_IN_REASONING;
        if (frink_chat_parser_create(NULL, tmpl, cflags, sp.seed, &cparse)) { cli_die("%s", frink_errmsg()); goto done; }
    } else if (frink_tokenize(m, prompt, strlen(prompt), FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL, &pids, &np)) {
        cli_die("%s", frink_errmsg());
        goto done;
    }
    if (np == 0) { cli_die("the prompt is empty and the model adds no BOS token: nothing to condition on"); goto done; }
    if (np > (size_t)cli_ctx_size(&mo, m)) {
        cli_die("the prompt has %zu tokens, more than the context of %d (-c)", np, cli_ctx_size(&mo, m));
        goto done;
    }
    if (frink_sampler_create(m, &sp, &smp)) { cli_die("%s", frink_errmsg()); goto done; }
    if (cli_grammar_open(m, grammar_text, grammar_file, schema, &grammar)) goto done;
    if (grammar) {
        frink_constraint con = frink_grammar_constraint(grammar);
        frink_sampler_set_constraint(smp, &con);
    }
    if (frink_detok_create(m, chat ? FRINK_DETOK_SPECIAL : FRINK_DETOK_CONTINUE, &dt)) { cli_die("%s", frink_errmsg()); goto done; }
    out = malloc(((size_t)n_predict + 1) * sizeof *out);
    if (!out) { cli_die("out of memory"); goto done; }
    if (!json && !chat) {
        fputs(prompt, stdout); // the story continues the user's words
        fflush(stdout);
    }
    for (size_t i = 0; i < np; i++) frink_sampler_accept(smp, pids[i]);
    // --prompt-cache: restore the saved state if it belongs to this model, keep
    // the prefix it shares with the prompt, compute only the rest. A missing
    // file is a cold start; an unusable one is reported and ignored.
    int n_reused = 0, n_replayed = 0;
    double cache_load_ms = 0, cache_save_ms = 0;
    if (pcache) {
        double tc = now_ms();
        frink_status st = frink_seq_load(e.seq, pcache);
        if (st && !(st == FRINK_ERR_IO && errno == ENOENT))
            fprintf(stderr, "frink: --prompt-cache: %s; starting from scratch\n", frink_errmsg());
        if (st) frink_seq_reset(e.seq);
        cache_load_ms = now_ms() - tc;
    }
    double t0 = now_ms();
    int have = frink_seq_len(e.seq);
    if (have) {
        const frink_token *old = frink_seq_tokens(e.seq);
        int keep = 0;
        while (keep < have && (size_t)keep < np && old[keep] == pids[keep]) keep++;
        if ((size_t)keep == np) keep--; // the last prompt token is computed again for its logits
        // Hybrid models rewind to a checkpoint and replay: those count as computed.
        if (frink_seq_truncate(e.seq, keep, &n_replayed)) { cli_die("%s", frink_errmsg()); goto done; }
        n_reused = keep - n_replayed;
    }
    int n_have = frink_seq_len(e.seq);
    if (cli_prefill(e.seq, pids + n_have, (int)np - n_have, logits, (int)mo.batch, NULL)) goto done; // printed
    double t1 = now_ms();
    size_t n_out = 0;
    int n_ctx = cli_ctx_size(&mo, m);
    const char *piece;
    size_t plen;
    for (long i = 0; i < n_predict; i++) {
        frink_token tok;
        if (frink_sampler_sample(smp, logits, &tok)) { cli_die("%s", frink_errmsg()); goto done; }
        if (frink_token_is_eog(m, tok)) break;
        out[n_out++] = tok;
        if (!json) {
            // Whole UTF-8 characters only: bytes of one split across tokens wait for the rest.
            if (frink_detok_push(dt, tok, &piece, &plen) == FRINK_OK && plen) run_out(cparse, piece, plen);
            fflush(stdout);
        }
        if (i + 1 == n_predict) break;
        if (frink_seq_len(e.seq) >= n_ctx) {
            fprintf(stderr, "\nfrink: the context of %d tokens is full (-c); stopping\n", n_ctx);
            break;
        }
        if (frink_seq_eval(e.seq, &tok, 1, logits, 0)) { cli_die("%s", frink_errmsg()); goto done; }
    }
    if (!json && frink_detok_flush(dt, &piece, &plen) == FRINK_OK && plen) run_out(cparse, piece, plen);
    if (!json && cparse) frink_chat_parser_finish(cparse, run_emit, NULL);
    double t2 = now_ms();
    if (grammar && !frink_grammar_complete(grammar))
        fprintf(stderr, "\nfrink: the output is incomplete: the grammar had not ended when -n ran out\n");
    if (pcache) {
        if (frink_seq_save(e.seq, pcache)) fprintf(stderr, "frink: --prompt-cache: %s\n", frink_errmsg());
        cache_save_ms = now_ms() - t2;
    }
    size_t n_computed = np - (size_t)n_reused;
    double pf_ms = t1 - t0, dc_ms = t2 - t1;
    double pf_tps = n_computed / (pf_ms / 1e3), dc_tps = n_out > 1 ? (n_out - 1) / (dc_ms / 1e3) : 0;
    if (json) {
        text = frink_detokenize(m, out, n_out, false);
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
                n_computed, pf_ms, pf_tps, n_out, dc_ms, dc_tps, frink_context_threads(e.c), frink_context_kernels(e.c));
    }
    rc = 0;
done:
    frink_free(text);
    free(out);
    frink_free(pids);
    free(logits);
    frink_sampler_free(smp);
    frink_detok_free(dt);
    frink_chat_parser_free(cparse);
    frink_template_free(tmpl);
    frink_grammar_free(grammar);
    frink_free(rendered);
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
    frink_token *ids = NULL;
    size_t n = 0;
    int rc = 0;
    unsigned fl = FRINK_TOKENIZE_PARSE_SPECIAL | (bos ? FRINK_TOKENIZE_ADD_SPECIAL : 0);
    if (frink_tokenize(e.m, text, strlen(text), fl, &ids, &n)) rc = cli_die("%s", frink_errmsg());
    else {
        for (size_t i = 0; i < n; i++) printf("%s%d", i ? "," : "", ids[i]);
        printf("\n");
    }
    frink_free(ids);
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
    if (!mo.ctx) mo.ctx = n; // exactly the ids, whatever the model's context
    struct cli_engine e;
    if (cli_engine_open(&mo, &e)) { free(ids); return 1; }
    int rc = 1;
    int V = frink_model_n_vocab(e.m);
    size_t rows = all ? (size_t)n : 1;
    float *lg = malloc(rows * (size_t)V * sizeof(float));
    FILE *f = NULL;
    if (!lg) { cli_die("out of memory"); goto done; }
    if (decode) {
        for (int i = 0; i < n; i++) {
            float *dst = all ? lg + (size_t)i * V : lg;
            if (frink_seq_eval(e.seq, ids + i, 1, dst, 0)) { cli_die("%s", frink_errmsg()); goto done; }
        }
    } else if (frink_seq_eval(e.seq, ids, n, lg, all ? FRINK_EVAL_ALL : 0)) {
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

static void print_meta_value(FILE *out, const frink_model *m, const char *key, const char *type) {
    const char *v = frink_model_meta(m, key);
    if (!strcmp(type, "string")) {
        size_t n = strlen(v), k = n > 80 ? 80 : n;
        fputc('"', out);
        for (size_t i = 0; i < k; i++) {
            unsigned char c = (unsigned char)v[i];
            fputc(c < 0x20 ? '.' : c, out);
        }
        fprintf(out, "\"%s", n > 80 ? "..." : "");
    } else {
        fputs(v, out);
    }
}

static int cmd_inspect(int argc, char **argv) {
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        return cli_die("inspect: unknown flag '%s'", argv[i]);
    }
    frink_model_params mp = frink_model_default_params();
    mp.path = mo.path;
    mp.file_only = true;
    frink_model *f;
    if (frink_model_open(&mp, &f)) return cli_die("%s", frink_errmsg()), 1;
    frink_file_info fi;
    frink_model_file_info(f, &fi);
    printf("GGUF v%u, %" PRIu64 " metadata keys, %" PRIu64 " tensors, alignment %u\n", fi.version, fi.n_meta, fi.n_tensors,
           fi.alignment);
    for (int i = 0; i < frink_model_meta_count(f); i++) {
        const char *type, *key = frink_model_meta_key(f, i, &type);
        char k[1024];
        snprintf(k, sizeof k, "%s", key); // the key's buffer is reused by the next call
        printf("  %-48s %-8s ", k, type);
        print_meta_value(stdout, f, k, type);
        putchar('\n');
    }
    printf("%-40s %-8s %-28s %12s\n", "tensor", "type", "shape", "bytes");
    uint64_t total = 0;
    for (uint64_t i = 0; i < fi.n_tensors; i++) {
        frink_tensor_info t;
        frink_model_tensor(f, (int64_t)i, &t);
        char shape[64];
        int k = snprintf(shape, sizeof shape, "[%" PRId64, t.ne[0]);
        for (int d = 1; d < (t.n_dims ? t.n_dims : 1); d++) k += snprintf(shape + k, sizeof shape - (size_t)k, ", %" PRId64, t.ne[d]);
        snprintf(shape + k, sizeof shape - (size_t)k, "]");
        printf("%-40s %-8s %-28s %12" PRIu64 "\n", t.name, t.type, shape, t.bytes);
        total += t.bytes;
    }
    printf("total tensor bytes: %" PRIu64 "\n", total);
    frink_model_free(f);
    // Then the verdict: does frink run it, and if not, why; and how each layer runs.
    frink_model *m;
    mp.file_only = false;
    mp.allow_unread = mo.allow_unread;
    mp.keep_layout = true;
    mp.no_tokenizer = true;
    mp.device = mo.device; // the plan `inspect` prints is the one this device gives
    if (frink_model_open(&mp, &m)) {
        fprintf(stderr, "frink: refused: %s\n", frink_errmsg());
        return 1;
    }
    int n_gdn = 0, n_layer = frink_model_n_layer(m);
    for (int il = 0; il < n_layer; il++) {
        frink_layer_info li;
        if (frink_model_layer(m, il, &li) == FRINK_OK && !strcmp(li.kind, "gdn")) n_gdn++;
    }
    printf("frink: runs as '%s': %d layers (%d attention, %d Gated DeltaNet), %d-wide, vocabulary %d, %.1f MB of weights per token\n",
           frink_model_arch(m), n_layer, n_layer - n_gdn, n_gdn, frink_model_n_embd(m), frink_model_n_vocab(m),
           frink_model_bytes_per_token(m) / 1e6);
    char mf[512];
    if (frink_model_features(m, mf, sizeof mf, NULL) == FRINK_OK) printf("model features: %s\n", mf[0] ? mf : "(none)");
    printf("%-5s %-10s %-8s %s\n", "layer", "kind", "path", "features");
    for (int il = 0; il < n_layer; il++) {
        frink_layer_info li;
        if (frink_model_layer(m, il, &li)) continue;
        printf("%-5d %-10s %-8s %s\n", il, li.kind, li.path, li.features);
        if (li.refusals[0]) printf("      refused by %s\n", li.refusals);
    }
    frink_model_free(m);
    return 0;
}

static int cmd_archs(void) {
    printf("%-12s %s\n", "architecture", "status");
    const char *why;
    for (int i = 0; frink_arch_name(i, &why); i++) printf("%-12s %s\n", frink_arch_name(i, NULL), why ? why : "runs");
    printf("any other    refused: not implemented\n");
    return 0;
}

static void usage(FILE *f) {
    fputs("usage: frink COMMAND [flags]\n"
          "  run       -m MODEL -p PROMPT -n N [-t THREADS] [--temp T --top-k K --top-p P --min-p M --seed S\n"
          "            --repeat-penalty R --presence-penalty P --frequency-penalty F --repeat-last-n N] [--json]\n"
          "            [--prompt-cache FILE]: reuse and save the prompt's state (KV, recurrent state)\n"
          "            [--chat [--system TEXT]]: the prompt as one user turn of the model's chat template\n"
          "  chat      -m MODEL [--system TEXT] [--reasoning on|off] [-n N] [sampling flags]: an interactive chat\n"
          "  template  -m MODEL (--messages FILE [--tools FILE] [--no-generation-prompt] | --context FILE) [--ids]\n"
          "  tokenize  -m MODEL [--no-bos] TEXT\n"
          "  logits    -m MODEL --ids 1,2,3 -o OUT.f32 [--all] [--decode]\n"
          "  inspect   -m MODEL\n"
          "  archs     architectures frink runs, and why the others are refused\n"
          "  gen       --preset NAME -o OUT.gguf [--vocab FILE] [--layers N] [--seed S]: random weights, real shapes\n"
          "  serve     -m MODEL [--host H] [--port P] [-np SLOTS] [--api-key K]: OpenAI / Anthropic API server\n"
          "  bench     -m MODEL [-p 128] [-n 32] [-d DEPTH] [-t THREADS] [-r REPS] [--json]; --parallel S; --bandwidth;\n"
          "            --kernels\n"
          "model flags: -m MODEL (default: the embedded stories260K), -t THREADS, -c CONTEXT, -b BATCH,\n"
          "             --cache-type f16|f32|q8_0 (KV cache format, default f16), --gdn-chunk N (1: token recurrence),\n"
          "             --reference (scalar reference kernels), --allow-unread (ignore tensors nothing reads)\n"
          "`frink COMMAND --help` describes a command's flags, with an example.\n"
          "example: frink run -p \"Once upon a time\" -n 64\n",
          f);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    bool h = cli_wants_help(argc - 2, argv + 2);
    if (!strcmp(cmd, "run")) return h ? help(help_run) : cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "tokenize")) return h ? help(help_tokenize) : cmd_tokenize(argc - 2, argv + 2);
    if (!strcmp(cmd, "logits")) return h ? help(help_logits) : cmd_logits(argc - 2, argv + 2);
    if (!strcmp(cmd, "inspect")) return h ? help(help_inspect) : cmd_inspect(argc - 2, argv + 2);
    if (!strcmp(cmd, "archs")) return h ? help(help_archs) : cmd_archs();
    if (!strcmp(cmd, "template")) return cmd_template(argc - 2, argv + 2);
    if (!strcmp(cmd, "chat")) return cmd_chat(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(cmd, "gen")) return cmd_gen(argc - 2, argv + 2);
    if (!strcmp(cmd, "serve")) return cmd_serve(argc - 2, argv + 2);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "frink: unknown command '%s' (see `frink help`)\n", cmd);
    return 2;
}
