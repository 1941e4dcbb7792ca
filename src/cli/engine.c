// engine.c — opening a model for the CLI: flags, file or embedded default,
// then a context with one sequence, all through the public API.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_model_opts_init(struct cli_model_opts *o) {
    *o = (struct cli_model_opts){.ctx = 0, .batch = 512};
}

// The reference's flags for GPU offload, flash attention and memory mapping: a script that
// passes them runs, and the note says what frink does instead, since none of them can change
// what frink computes. Returns how many args a flag used, 0 for another flag, -1 (printed) for
// a missing or bad value.
static int cli_offload_flag(int argc, char **argv, int i) {
    static const struct { const char *names[3]; bool value; const char *note; } flags[] = {
        {{"-ngl", "--gpu-layers", "--n-gpu-layers"}, true,
         "layers run where --device puts them (default cpu; a CUDA build takes --device cuda)"},
        {{"-fa", "--flash-attn", NULL}, true,
         "frink's attention is always the reference's flash-attention algorithm (F16 online softmax)"},
        {{"-sm", "--split-mode", NULL}, true, "frink uses one device; nothing is split"},
        {{"-mg", "--main-gpu", NULL}, true, "frink uses one device; there is no main GPU to choose"},
        {{"-ts", "--tensor-split", NULL}, true, "frink uses one device; nothing is split"},
        {{"--no-mmap", NULL, NULL}, false, "frink always maps the file (packed weights are copied at load)"},
        {{"--mlock", NULL, NULL}, false, "frink does not lock the model in memory"},
    };
    const char *a = argv[i];
    if (!strcmp(a, "--jinja")) return 1; // what frink always does
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
        for (int j = 0; j < 3 && flags[k].names[j]; j++) {
            if (strcmp(a, flags[k].names[j])) continue;
            if (flags[k].value && i + 1 >= argc) return cli_die("%s needs a value", a), -1;
            const char *v = flags[k].value ? argv[i + 1] : NULL;
            if (k == 1 && strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "auto"))
                return cli_die("%s expects on, off or auto, got '%s'", a, v), -1;
            fprintf(stderr, "frink: %s%snote: %s%s%s has no effect: %s\n", cli_cmd ? cli_cmd : "", cli_cmd ? ": " : "", a,
                    v ? " " : "", v ? v : "", flags[k].note);
            return flags[k].value ? 2 : 1;
        }
    return 0;
}

int cli_kv_type(const struct cli_model_opts *o) {
    static const char *const names[] = {"f16", "f32", "q8_0"};
    if (o->kv_type == o->kv_type_v) return o->kv_type;
    cli_die("the K cache is %s and the V cache %s (-ctk, -ctv): frink keeps both in one format; give the same "
            "type (--cache-type T)", names[o->kv_type], names[o->kv_type_v]);
    return -1;
}

const char cli_model_flags_help[] =
    "model flags:\n"
    "  -m, --model FILE        GGUF model (default: the embedded stories260K)\n"
    "  -t, --threads N         threads (default: all)\n"
    "  -c, --ctx-size N        tokens of context (default: the model's, at most 8192)\n"
    "  -b, --batch-size N      tokens per prefill step (default 512)\n"
    "  --cache-type T          KV cache format: f16 (default), f32, q8_0; -ctk, --cache-type-k and\n"
    "                          -ctv, --cache-type-v as the reference (K and V must be the same: one format)\n"
    "  --gdn-chunk N           chunked Gated DeltaNet prefill in chunks of N (default 1: the recurrence)\n"
    "  --reference             every product on the scalar reference kernels (slow)\n"
    "  --allow-unread          run files with tensors nothing reads, ignoring them as the reference does\n"
    "  --device cpu|cuda       where layers may run (default: FRINK_DEVICE, else cpu; cuda needs `make CUDA=1`)\n"
    "  --jinja                 accepted: frink always renders chat templates with its Jinja engine\n"
    "  -ngl N, -fa on|off|auto, -sm MODE, -mg I, -ts LIST, --no-mmap, --mlock: the reference's offload and\n"
    "                          memory flags, accepted with a note on stderr saying what frink does instead\n"
    "  -hf USER/REPO[:QUANT]   the model from Hugging Face, pulled into its cache when missing (also -hfr,\n"
    "                          --hf-repo; -hff, --hf-file FILE; -hft, --hf-token T; --offline: `frink pull --help`)\n";

int cli_help_model(const char *text) {
    fputs(text, stdout);
    fputs(cli_model_flags_help, stdout);
    return 0;
}

static bool kv_type_parse(const char *s, int *out) {
    static const char *const names[] = {"f16", "f32", "q8_0"};
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(s, names[i])) {
            *out = i;
            return true;
        }
    return false;
}

int cli_model_flag(struct cli_model_opts *o, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-m") || !strcmp(a, "--model")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        o->path = v;
        return 2;
    }
    if (!strcmp(a, "-t") || !strcmp(a, "--threads")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1024, &o->threads) ? 2 : -1;
    }
    if (!strcmp(a, "-c") || !strcmp(a, "--ctx-size")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1 << 24, &o->ctx) ? 2 : -1;
    }
    if (!strcmp(a, "-b") || !strcmp(a, "--batch-size")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1 << 16, &o->batch) ? 2 : -1;
    }
    bool k = !strcmp(a, "-ctk") || !strcmp(a, "--cache-type-k"), both = !strcmp(a, "--cache-type");
    if (k || both || !strcmp(a, "-ctv") || !strcmp(a, "--cache-type-v")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        int t;
        if (!kv_type_parse(v, &t)) return cli_die("%s expects f16, f32 or q8_0, got '%s'", a, v), -1;
        if (k || both) o->kv_type = t;
        if (!k || both) o->kv_type_v = t;
        return 2;
    }
    int used = cli_offload_flag(argc, argv, i);
    if (!used) used = cli_hub_flag(&o->hub, argc, argv, i);
    if (used) return used;
    if (!strcmp(a, "--gdn-chunk")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1024, &o->gdn_chunk) ? 2 : -1;
    }
    if (!strcmp(a, "--device")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        if (strcmp(v, "cpu") && strcmp(v, "cuda")) return cli_die("%s expects cpu or cuda, got '%s'", a, v), -1;
        o->device = v;
        return 2;
    }
    if (!strcmp(a, "--reference")) { o->reference = true; return 1; }
    if (!strcmp(a, "--allow-unread")) { o->allow_unread = true; return 1; }
    return 0;
}

int cli_ctx_size(const struct cli_model_opts *o, const frink_model *m) {
    if (o->ctx) return (int)o->ctx;
    int n = frink_model_n_ctx_train(m);
    return n <= 0 ? 4096 : n > 8192 ? 8192 : n;
}

int cli_engine_open(const struct cli_model_opts *o, struct cli_engine *e) {
    memset(e, 0, sizeof *e);
    if (cli_kv_type(o) < 0) return 2;
    struct cli_model_opts resolved = *o; // -hf: the cached file's path
    int rc = cli_model_resolve(&resolved);
    if (rc) return rc;
    o = &resolved;
    frink_model_params mp = frink_model_default_params();
    mp.path = o->path;
    mp.allow_unread = o->allow_unread;
    mp.vocab_only = o->vocab_only;
    mp.no_tokenizer = o->no_tokenizer;
    mp.device = o->device;
    const char *name = o->path ? strrchr(o->path, '/') : NULL;
    struct cli_progress *pg = cli_progress_start("frink: loading %s", name ? name + 1 : o->path ? o->path : "stories260K");
    frink_status st = frink_model_open(&mp, &e->m);
    cli_progress_end(pg);
    if (st) return cli_die("%s", frink_errmsg()), 1;
    int n_unread = frink_model_unread(e->m);
    for (int i = 0; i < n_unread && i < 8; i++)
        fprintf(stderr, "frink: warning: ignoring unread tensor '%s'\n", frink_model_unread_name(e->m, i));
    if (n_unread > 8) fprintf(stderr, "frink: warning: ... and %d more unread tensors\n", n_unread - 8);
    if (o->vocab_only) return 0;
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = (int)o->threads;
    cp.n_ctx = cli_ctx_size(o, e->m);
    cp.n_batch = (int)o->batch;
    cp.kv_type = (frink_kv_type)o->kv_type;
    cp.gdn_chunk = (int)o->gdn_chunk;
    cp.reference_kernels = o->reference;
    if (frink_context_create(e->m, &cp, &e->c) || frink_seq_create(e->c, &e->seq)) {
        cli_die("%s", frink_errmsg());
        cli_engine_close(e);
        return 1;
    }
    return 0;
}

void cli_engine_close(struct cli_engine *e) {
    frink_context_free(e->c); // and its sequence
    frink_model_free(e->m);
    memset(e, 0, sizeof *e);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cli_prefill(frink_seq *s, const frink_token *ids, int n, float *logits, int n_batch, volatile sig_atomic_t *stop) {
    struct cli_progress *pg = n > 0 ? cli_progress_start("frink: prefill 0/%d tokens", n) : NULL;
    double t0 = now_s();
    int rc = 0;
    for (int i = 0; i < n;) {
        // Chunks give the same bits as one call (batch invariance): only the report differs.
        int k = n - i < n_batch ? n - i : n_batch;
        bool last = i + k == n;
        if (frink_seq_eval(s, ids + i, k, last ? logits : NULL, last ? FRINK_EVAL_CHECKPOINT : 0)) {
            rc = 1;
            break;
        }
        i += k;
        if (stop && *stop && i < n) {
            rc = 2;
            break;
        }
        double dt = now_s() - t0, tps = i / (dt > 0 ? dt : 1e-9);
        cli_progress_set(pg, "frink: prefill %d/%d tokens, %.1f tok/s, %.0f s left", i, n, tps, (n - i) / tps);
    }
    cli_progress_end(pg);
    if (rc == 1) cli_die("%s", frink_errmsg());
    return rc;
}

int cli_grammar_open(const frink_model *m, const char *gbnf, const char *gbnf_file, const char *schema,
                     frink_grammar **out) {
    *out = NULL;
    if ((gbnf != NULL) + (gbnf_file != NULL) + (schema != NULL) > 1)
        return cli_die("--grammar, --grammar-file and --json-schema constrain the output one way each: give one");
    if (!gbnf && !gbnf_file && !schema) return 0;
    // --json-schema takes a file, or the schema itself when it starts with '{'.
    size_t len = 0;
    char *src = NULL;
    const char *file = gbnf_file ? gbnf_file : schema && schema[0] != '{' ? schema : NULL;
    if (file && !(src = cli_read_file(file, &len))) return 1;
    const char *txt = src ? src : gbnf ? gbnf : schema;
    if (!src) len = strlen(txt);
    frink_status st = schema ? frink_grammar_from_json_schema(m, txt, len, out) : frink_grammar_create(m, txt, len, NULL, out);
    free(src);
    if (st) return cli_die("%s", frink_errmsg());
    return 0;
}
