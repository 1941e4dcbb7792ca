// run.c — `frink run`: continue a prompt (or answer it as one chat turn) with generated
// tokens, streamed as whole UTF-8 characters, or printed as one JSON object (--json).
//
//   run_parse      flags into struct run_opts
//   run_prompt     the prompt's ids: tokenized, or rendered through the chat template
//   run_setup      sampler, grammar, detokenizer, the output buffer
//   run_resume     --prompt-cache: the saved state's shared prefix kept
//   run_generate   prefill what is left of the prompt, then sample and decode
//   run_report     the JSON object, or the speed line on stderr
#include <errno.h>
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

static const char help_run[] =
    "usage: frink run [-m MODEL] [-p PROMPT | -f FILE] [-n N] [sampling flags] [--json] [--prompt-cache FILE]\n"
    "                 [model flags]\n"
    "Continues PROMPT with N generated tokens, streamed to stdout as whole UTF-8 characters (after the\n"
    "prompt itself); speed on stderr.\n"
    "  -p, --prompt TEXT        the text to continue (special tokens such as <|im_start|> are parsed)\n"
    "  -f, --file FILE          the prompt from FILE (-: stdin), one trailing newline dropped\n"
    "  -n, --predict N          tokens to generate (default 128; -1: until the end of generation or of the\n"
    "                           context, -2: the same); stops early at end of generation\n"
    "  -r, --reverse-prompt S   stop once the output contains S (repeatable; --stop S is the same)\n"
    "  --ignore-eos             never end: end-of-generation tokens are masked (until -n or the context)\n"
    "  --no-display-prompt      print only the generated text, not the prompt before it\n"
    "  --temp T                 temperature (default 0.8; 0: greedy)\n"
    "  --top-k K, --top-p P, --min-p M    candidate filters (defaults 40, 0.95, 0.05)\n"
    "  --repeat-penalty R, --presence-penalty P, --frequency-penalty F, --repeat-last-n N\n"
    "  -s, --seed S             seed of the draw (default 61740; -1: a random seed, printed on stderr)\n"
    "  --json                   print one JSON object: prompt_ids, ids, text, timings\n"
    "  --prompt-cache FILE      reuse the saved state of an earlier prompt that shares a prefix, and save it\n"
    "  --grammar GBNF           constrain the output to a GBNF grammar (llama.cpp's syntax; --grammar-file F)\n"
    "  --json-schema S          constrain the output to JSON valid under a JSON Schema (a file, or inline '{...}')\n"
    "  --chat                   the prompt as one user turn of the model's chat template (and --system TEXT\n"
    "                           before it; --chat-template-file T for another template); prints the reply\n"
    "  -sys, --system-prompt S  the system message of the chat template (implies --chat)\n"
    "  -sysf, --system-prompt-file F   the same, read from F (one trailing newline dropped)\n"
    "  --jinja                  accepted: templates are always rendered by frink's Jinja engine\n"
    "examples: frink run -p \"Once upon a time\" -n 64 --temp 0\n"
    "          frink run -m model.gguf -f prompt.txt -n -1 -r \"User:\" --seed -1\n"
    "          frink run -m model.gguf -f code.txt --spec lookup      (the reply repeats the prompt)\n"
    "          frink run -m big.gguf -md small.gguf -p \"...\"          (a draft model)\n";

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

// What the flags ask for.
struct run_opts {
    struct cli_model_opts mo;
    struct cli_spec_opts so;
    const char *prompt;
    long n_predict;
    bool json;
    const char *pcache;        // --prompt-cache FILE
    bool chat;                 // --chat: the prompt as one user turn of the chat template
    const char *grammar_text, *grammar_file, *schema; // constrained output
    const char *system_prompt, *tfile;
    frink_sampler_params sp;
    char *prompt_buf;          // -f: the file's text (o->prompt points into it)
    char *system_buf;          // -sysf: the file's text (o->system_prompt points into it)
    const char *rprompts[16];  // -r / --stop
    int n_rprompts;
    bool ignore_eos, no_display_prompt;
};

// One run's objects and figures; run_free releases what is set.
struct run {
    struct cli_engine e;
    struct cli_spec cs;      // the token stream: plain or speculative decoding
    frink_token *pids, *out; // pids[np]: the prompt; out[n_predict + 1]: the generated ids
    size_t np, n_out;
    frink_sampler *smp;
    frink_detok *dt;
    char *text, *rendered;   // --json's detokenized output; --chat's rendered prompt
    frink_template *tmpl;
    frink_chat_parser *cparse; // --chat: the reply's reasoning and tool calls parsed out
    frink_grammar *grammar;
    frink_logit_bias *eog_bias; // --ignore-eos: -inf on every end-of-generation token
    char *gen;               // the generated text so far (-r looks in it)
    size_t gen_len, gen_cap;
    float *logits;           // [n_vocab]
    int n_reused, n_replayed;
    bool interrupted;        // Ctrl-C stopped it
    double cache_load_ms, cache_save_ms, t0, t1, t2; // t0..t1 prefill, t1..t2 decode
};

// -f FILE: the prompt from FILE, or stdin for "-" (cli_read_text). Returns 0, or 2 (printed).
static int run_read_prompt(struct run_opts *o, const char *path) {
    free(o->prompt_buf);
    if (!(o->prompt_buf = cli_read_text(path))) return 2;
    o->prompt = o->prompt_buf;
    return 0;
}

// Returns -1 when the flags are good, else the exit status (2; the message printed).
static int run_parse(int argc, char **argv, struct run_opts *o) {
    *o = (struct run_opts){.prompt = "", .n_predict = 128, .sp = frink_sampler_default_params()};
    cli_model_opts_init(&o->mo);
    cli_spec_opts_init(&o->so);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int used = cli_model_flag(&o->mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        used = cli_spec_flag(&o->so, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        used = cli_sampling_flag(&o->sp, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!v) return cli_die("%s needs a value", a); i++; } while (0)
        if (!strcmp(a, "-p") || !strcmp(a, "--prompt")) { NEED_VALUE(); o->prompt = v; }
        else if (!strcmp(a, "-f") || !strcmp(a, "--file")) { NEED_VALUE(); if (run_read_prompt(o, v)) return 2; }
        else if (!strcmp(a, "-n") || !strcmp(a, "--n-predict") || !strcmp(a, "--predict")) { NEED_VALUE(); if (!cli_int(a, v, -2, 1 << 24, &o->n_predict)) return 2; }
        else if (!strcmp(a, "-r") || !strcmp(a, "--reverse-prompt") || !strcmp(a, "--stop")) {
            NEED_VALUE();
            if (!*v) return cli_die("%s: the text is empty", a);
            if (o->n_rprompts == 16) return cli_die("%s: at most 16", a);
            o->rprompts[o->n_rprompts++] = v;
        }
        else if (!strcmp(a, "--ignore-eos")) o->ignore_eos = true;
        else if (!strcmp(a, "--no-display-prompt")) o->no_display_prompt = true;
        else if (!strcmp(a, "--display-prompt")) o->no_display_prompt = false;
        else if (!strcmp(a, "-sys") || !strcmp(a, "--system-prompt")) { NEED_VALUE(); o->system_prompt = v; o->chat = true; }
        else if (!strcmp(a, "-sysf") || !strcmp(a, "--system-prompt-file")) {
            NEED_VALUE();
            free(o->system_buf);
            if (!(o->system_buf = cli_read_text(v))) return 2;
            o->system_prompt = o->system_buf;
            o->chat = true;
        }
        else if (!strcmp(a, "--json")) o->json = true;
        else if (!strcmp(a, "--chat")) o->chat = true;
        else if (!strcmp(a, "--grammar")) { NEED_VALUE(); o->grammar_text = v; }
        else if (!strcmp(a, "--grammar-file")) { NEED_VALUE(); o->grammar_file = v; }
        else if (!strcmp(a, "--json-schema")) { NEED_VALUE(); o->schema = v; }
        else if (!strcmp(a, "--system")) { NEED_VALUE(); o->system_prompt = v; }
        else if (!strcmp(a, "--chat-template-file")) { NEED_VALUE(); o->tfile = v; }
        else if (!strcmp(a, "--prompt-cache")) { NEED_VALUE(); o->pcache = v; }
        else return cli_die("run: unknown flag '%s' (see `frink run --help`)", a);
#undef NEED_VALUE
    }
    return -1;
}

// --chat: one user turn (after the system prompt, if any), rendered with the generation
// prompt; the parser that reads the reply. Returns 0, or 1 with the error printed.
static int run_chat_prompt(const struct run_opts *o, struct run *r) {
    const frink_model *m = r->e.m;
    if (cli_template_open(m, o->tfile, &r->tmpl)) return 1;
    json_t *msgs = json_array();
    if (o->system_prompt) json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "system", "content", o->system_prompt));
    json_array_append_new(msgs, json_pack("{s:s, s:s}", "role", "user", "content", o->prompt));
    json_t *vars = json_pack("{s:o, s:b}", "messages", msgs, "add_generation_prompt", 1);
    char *vt = json_dumps(vars, JSON_COMPACT);
    json_decref(vars);
    size_t rn = 0;
    frink_status st = vt ? frink_template_render(r->tmpl, vt, strlen(vt), 0, &r->rendered, &rn) : FRINK_ERR_NOMEM;
    free(vt);
    if (st || cli_tokenize_prompt(m, r->rendered, rn, &r->pids, &r->np)) return cli_die("%s", frink_errmsg()), 1;
    unsigned cflags = 0;
    if (frink_chat_prompt_opens_reasoning(NULL, r->tmpl, r->rendered, rn)) cflags |= FRINK_CHAT_STARTS_IN_REASONING;
    if (frink_chat_parser_create(NULL, r->tmpl, cflags, o->sp.seed, &r->cparse)) return cli_die("%s", frink_errmsg()), 1;
    return 0;
}

// The prompt's ids into r->pids, checked against the context. Returns 0, or 1 (printed).
static int run_prompt(const struct run_opts *o, struct run *r) {
    const frink_model *m = r->e.m;
    if (o->system_prompt && !o->chat) return cli_die("--system goes with --chat"), 1;
    if (o->chat) {
        if (run_chat_prompt(o, r)) return 1;
    } else if (frink_tokenize(m, o->prompt, strlen(o->prompt), FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL,
                              &r->pids, &r->np)) {
        return cli_die("%s", frink_errmsg()), 1;
    }
    if (r->np == 0) return cli_die("the prompt is empty and the model adds no BOS token: nothing to condition on"), 1;
    if (r->np > (size_t)cli_ctx_size(&o->mo, m))
        return cli_die("the prompt has %zu tokens, more than the context of %d (-c)", r->np, cli_ctx_size(&o->mo, m)), 1;
    return 0;
}

// -n: N, or for -1 and -2 the context (generation then ends at end of generation or when the
// context is full; frink never shifts the context, so the two are the same).
static long run_n_predict(const struct run_opts *o, const frink_model *m) {
    return o->n_predict >= 0 ? o->n_predict : cli_ctx_size(&o->mo, m);
}

// Appends a piece of output to r->gen and says whether it now holds one of the reverse
// prompts (only where the new piece could have completed one is searched).
static bool run_reverse_hit(const struct run_opts *o, struct run *r, const char *piece, size_t n) {
    if (!o->n_rprompts || !n) return false;
    if (r->gen_len + n + 1 > r->gen_cap) {
        size_t cap = (r->gen_len + n + 1) * 2;
        char *g = realloc(r->gen, cap);
        if (!g) return false;
        r->gen = g, r->gen_cap = cap;
    }
    memcpy(r->gen + r->gen_len, piece, n);
    size_t old = r->gen_len;
    r->gen[r->gen_len += n] = 0;
    for (int k = 0; k < o->n_rprompts; k++) {
        size_t lk = strlen(o->rprompts[k]), from = old >= lk ? old - lk + 1 : 0;
        if (strstr(r->gen + from, o->rprompts[k])) return true;
    }
    return false;
}

// The sampler (constrained by the grammar, if any), the detokenizer and the output buffer;
// the prompt's ids accepted by the sampler (its penalties see them). Returns 0, or 1 (printed).
static int run_setup(const struct run_opts *o, struct run *r) {
    const frink_model *m = r->e.m;
    frink_sampler_params sp = o->sp;
    if (o->ignore_eos) {
        // The reference's --ignore-eos: a logit bias of -inf on the end-of-generation tokens.
        int nv = frink_model_n_vocab(m), k = 0;
        if (!(r->eog_bias = malloc((size_t)nv * sizeof *r->eog_bias))) return cli_die("out of memory"), 1;
        for (int t = 0; t < nv; t++)
            if (frink_token_is_eog(m, t)) r->eog_bias[k++] = (frink_logit_bias){.token = t, .bias = -INFINITY};
        sp.logit_bias = r->eog_bias;
        sp.n_logit_bias = k;
    }
    if (frink_sampler_create(m, &sp, &r->smp)) return cli_die("%s", frink_errmsg()), 1;
    if (cli_grammar_open(m, o->grammar_text, o->grammar_file, o->schema, &r->grammar)) return 1;
    if (r->grammar) {
        frink_constraint con = frink_grammar_constraint(r->grammar);
        frink_sampler_set_constraint(r->smp, &con);
    }
    if (frink_detok_create(m, o->chat ? FRINK_DETOK_SPECIAL : FRINK_DETOK_CONTINUE, &r->dt)) return cli_die("%s", frink_errmsg()), 1;
    r->out = malloc(((size_t)run_n_predict(o, m) + 1) * sizeof *r->out);
    if (!r->out) return cli_die("out of memory"), 1;
    for (size_t i = 0; i < r->np; i++) frink_sampler_accept(r->smp, r->pids[i]);
    return 0;
}

// --prompt-cache: restore the saved state if it belongs to this model, keep the prefix it
// shares with the prompt, compute only the rest. A missing file is a cold start; an unusable
// one is reported and ignored. Starts the prefill clock (t0). Returns 0, or 1 (printed).
static int run_resume(const struct run_opts *o, struct run *r) {
    if (o->pcache) {
        double tc = now_ms();
        frink_status st = frink_seq_load(r->e.seq, o->pcache);
        if (st && !(st == FRINK_ERR_IO && errno == ENOENT))
            fprintf(stderr, "frink: --prompt-cache: %s; starting from scratch\n", frink_errmsg());
        if (st) frink_seq_reset(r->e.seq);
        r->cache_load_ms = now_ms() - tc;
    }
    r->t0 = now_ms();
    int have = frink_seq_len(r->e.seq);
    if (have) {
        const frink_token *old = frink_seq_tokens(r->e.seq);
        int keep = 0;
        while (keep < have && (size_t)keep < r->np && old[keep] == r->pids[keep]) keep++;
        if ((size_t)keep == r->np) keep--; // the last prompt token is computed again for its logits
        // Hybrid models rewind to a checkpoint and replay: those count as computed.
        if (frink_seq_truncate(r->e.seq, keep, &r->n_replayed)) return cli_die("%s", frink_errmsg()), 1;
        r->n_reused = keep - r->n_replayed;
    }
    return 0;
}

// Ctrl-C: the first stops the run (between two steps), a second kills it.
static volatile sig_atomic_t run_stop;
static void run_on_sigint(int sig) {
    if (run_stop) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    run_stop = 1;
}

// The rest of the prompt, then up to n_predict tokens sampled (each but the last decoded), the
// text streamed unless --json; then the detokenizer's and parser's tails and the warnings.
// Sets t1 (prefill done) and t2 (decode done). Returns 0, or 1 (printed).
static int run_generate(const struct run_opts *o, struct run *r) {
    const frink_model *m = r->e.m;
    int n_have = frink_seq_len(r->e.seq);
    int pf = cli_prefill(r->e.seq, r->pids + n_have, (int)r->np - n_have, r->logits, (int)o->mo.batch, &run_stop);
    if (pf == 2) {
        r->interrupted = true;
        fprintf(stderr, "frink: run: interrupted during the prefill\n");
        return 1;
    }
    if (pf) return 1; // printed
    r->t1 = now_ms();
    // The prompt is echoed once it is read: the prefill's status line had the terminal's line.
    if (!o->json && !o->chat && !o->no_display_prompt) {
        fputs(o->prompt, stdout); // the story continues the user's words
        fflush(stdout);
    }
    int n_ctx = cli_ctx_size(&o->mo, m);
    const char *piece;
    size_t plen;
    long n_predict = run_n_predict(o, m);
    if (cli_spec_start(&r->cs, r->e.seq, r->smp)) return 1;
    for (long i = 0; i < n_predict; i++) {
        if (run_stop) { // Ctrl-C: the text so far, then the newline and the speed as always
            r->interrupted = true;
            break;
        }
        frink_token tok;
        long budget = n_predict - i;
        frink_status st = cli_spec_next(&r->cs, r->logits, budget > 1 << 20 ? 1 << 20 : (int)budget, &tok);
        // A grammar that has ended allows only the end of generation, which --ignore-eos masks.
        if (st == FRINK_ERR_STATE && o->ignore_eos && r->grammar && frink_grammar_complete(r->grammar)) break;
        if (st) return cli_die("%s", frink_errmsg()), 1;
        if (frink_token_is_eog(m, tok)) break;
        r->out[r->n_out++] = tok;
        // Whole UTF-8 characters only: bytes of one split across tokens wait for the rest.
        bool hit = false;
        if (frink_detok_push(r->dt, tok, &piece, &plen) == FRINK_OK && plen) {
            if (!o->json) run_out(r->cparse, piece, plen);
            hit = run_reverse_hit(o, r, piece, plen);
        }
        if (!o->json) fflush(stdout);
        if (hit || i + 1 == n_predict) break;
        // The token just taken is the context's last when the sequence holds all the others.
        if (r->cs.start_len + r->cs.used >= n_ctx) {
            fprintf(stderr, "\nfrink: run: the context of %d tokens is full (-c); stopping\n", n_ctx);
            break;
        }
    }
    if (!o->json && frink_detok_flush(r->dt, &piece, &plen) == FRINK_OK && plen) run_out(r->cparse, piece, plen);
    if (!o->json && r->cparse) frink_chat_parser_finish(r->cparse, run_emit, NULL);
    r->t2 = now_ms();
    if (r->grammar && !frink_grammar_complete(r->grammar))
        fprintf(stderr, "\nfrink: the output is incomplete: the grammar had not ended when -n ran out\n");
    // A step may have evaluated tokens past where the output stopped: the saved state holds
    // what plain decoding's would.
    if (o->pcache && cli_spec_end(&r->cs, false)) return 1;
    if (o->pcache) {
        if (frink_seq_save(r->e.seq, o->pcache)) fprintf(stderr, "frink: --prompt-cache: %s\n", frink_errmsg());
        r->cache_save_ms = now_ms() - r->t2;
    }
    return 0;
}

// --json: one object on stdout; otherwise the line that ends the text and the speed on stderr.
static void run_report(const struct run_opts *o, struct run *r) {
    size_t n_computed = r->np - (size_t)r->n_reused;
    double pf_ms = r->t1 - r->t0, dc_ms = r->t2 - r->t1;
    double pf_tps = n_computed / (pf_ms / 1e3), dc_tps = r->n_out > 1 ? (r->n_out - 1) / (dc_ms / 1e3) : 0;
    if (o->json) {
        r->text = frink_detokenize(r->e.m, r->out, r->n_out, false);
        printf("{\"prompt_ids\":");
        json_ids(stdout, r->pids, r->np);
        printf(",\"ids\":");
        json_ids(stdout, r->out, r->n_out);
        printf(",\"text\":");
        json_str(stdout, r->text ? r->text : "");
        printf(",\"prompt_tokens_reused\":%d", r->n_reused);
        if (o->pcache) printf(",\"prompt_cache_load_ms\":%.3f,\"prompt_cache_save_ms\":%.3f", r->cache_load_ms, r->cache_save_ms);
        printf(",\"prefill_ms\":%.3f,\"decode_ms\":%.3f,\"prefill_tok_s\":%.2f,\"decode_tok_s\":%.2f", pf_ms, dc_ms, pf_tps, dc_tps);
        cli_spec_report(&r->cs, stdout, true);
        printf("}\n");
        return;
    }
    printf("\n");
    if (o->pcache)
        fprintf(stderr, "frink: prompt cache: %d of %zu prompt tokens reused (%d replayed), load %.1f ms, save %.1f ms\n",
                r->n_reused, r->np, r->n_replayed, r->cache_load_ms, r->cache_save_ms);
    fprintf(stderr, "frink: prefill %zu tokens in %.1f ms (%.1f tok/s), decode %zu tokens in %.1f ms (%.1f tok/s), %d threads, %s kernels\n",
            n_computed, pf_ms, pf_tps, r->n_out, dc_ms, dc_tps, frink_context_threads(r->e.c), frink_context_kernels(r->e.c));
    cli_spec_report(&r->cs, stderr, false);
}

static void run_free(struct run *r) {
    frink_free(r->text);
    free(r->out);
    frink_free(r->pids);
    free(r->logits);
    frink_sampler_free(r->smp);
    frink_detok_free(r->dt);
    frink_chat_parser_free(r->cparse);
    frink_template_free(r->tmpl);
    frink_grammar_free(r->grammar);
    frink_free(r->rendered);
    cli_spec_close(&r->cs);
    free(r->eog_bias);
    free(r->gen);
    cli_engine_close(&r->e);
}

int cmd_run(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        fputs(help_run, stdout);
        fputs(cli_spec_flags_help, stdout);
        return cli_help_model("");
    }
    struct run_opts o;
    int bad = run_parse(argc, argv, &o);
    if (bad >= 0) return free(o.prompt_buf), free(o.system_buf), bad;
    cli_seed_resolve(&o.sp);
    struct run r = {0};
    int open_rc = cli_engine_open(&o.mo, &r.e);
    if (open_rc) return free(o.prompt_buf), free(o.system_buf), open_rc;
    int rc = 1, spec_rc;
    struct sigaction sa = {.sa_handler = run_on_sigint};
    sigaction(SIGINT, &sa, NULL);
    r.logits = malloc((size_t)frink_model_n_vocab(r.e.m) * sizeof(float));
    if (!r.logits) cli_die("out of memory");
    else if ((spec_rc = cli_spec_open(&o.so, &o.mo, r.e.m, &r.cs))) rc = spec_rc;
    else if (!run_prompt(&o, &r) && !run_setup(&o, &r) && !run_resume(&o, &r) && !run_generate(&o, &r)) {
        run_report(&o, &r);
        rc = r.interrupted ? 130 : 0; // 128 + SIGINT, as the reference's CLI exits
    }
    if (r.interrupted && rc == 1) rc = 130;
    run_free(&r);
    free(o.prompt_buf);
    free(o.system_buf);
    return rc;
}
