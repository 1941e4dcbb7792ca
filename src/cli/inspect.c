// inspect.c — the commands that look at a model rather than generate with it: `frink
// tokenize` (a text's ids), `frink logits` (the float rows after given ids, the reference
// oracle's interface), `frink inspect` (the file, the verdict, each layer's plan) and `frink
// archs` (the architecture table).
#include <errno.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char help_tokenize[] =
    "usage: frink tokenize [-m MODEL] [--no-bos] (TEXT | -f FILE)\n"
    "Prints the token ids of TEXT, comma-separated (special tokens parsed).\n"
    "  TEXT                     the text; - reads it from stdin\n"
    "  -f, --file FILE          the text of FILE (-: stdin), byte for byte (a trailing newline is tokenized)\n"
    "  --no-bos                 do not add the BOS token the vocabulary asks for\n"
    "  -m, --model FILE         the model whose tokenizer is used (default: the embedded stories260K)\n"
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
    "usage: frink archs [--json]\n"
    "Lists the architectures frink runs and, for the ones it refuses, why.\n"
    "  --json                   one JSON array: {\"arch\", \"runs\", \"why\" (null when it runs)} each\n"
    "example: frink archs\n";

// ---- tokenize ------------------------------------------------------------------------

int cmd_tokenize(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_tokenize, stdout), 0;
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    mo.vocab_only = true;
    bool bos = true;
    const char *text = NULL;
    char *buf = NULL; // -f FILE, or - (stdin)
    size_t len = 0;
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        bool file = !strcmp(argv[i], "-f") || !strcmp(argv[i], "--file");
        if (!strcmp(argv[i], "--no-bos")) bos = false;
        else if (file && i + 1 == argc) return cli_die("%s needs a value", argv[i]);
        else if (argv[i][0] == '-' && argv[i][1] && !file) return cli_die("tokenize: unknown flag '%s'", argv[i]);
        else if (text) return cli_die("tokenize: one TEXT argument expected (quote it)");
        else if (file || !strcmp(argv[i], "-")) {
            if (!(buf = cli_read_input(file ? argv[++i] : "-", &len))) return 2;
            text = buf;
        } else text = argv[i], len = strlen(text);
    }
    if (!text) return cli_die("tokenize: missing TEXT (or -f FILE; - reads stdin)");
    struct cli_engine e;
    int open_rc = cli_engine_open(&mo, &e);
    if (open_rc) return free(buf), open_rc;
    frink_token *ids = NULL;
    size_t n = 0;
    int rc = 0;
    unsigned fl = FRINK_TOKENIZE_PARSE_SPECIAL | (bos ? FRINK_TOKENIZE_ADD_SPECIAL : 0);
    if (frink_tokenize(e.m, text, len, fl, &ids, &n)) rc = cli_die("%s", frink_errmsg()), rc = 1;
    else {
        for (size_t i = 0; i < n; i++) printf("%s%d", i ? "," : "", ids[i]);
        printf("\n");
    }
    frink_free(ids);
    free(buf);
    cli_engine_close(&e);
    return rc;
}

// ---- logits ------------------------------------------------------------------------

int cmd_logits(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help_model(help_logits);
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
    int open_rc = cli_engine_open(&mo, &e);
    if (open_rc) { free(ids); return open_rc; }
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

int cmd_inspect(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help_model(help_inspect);
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) { i += used - 1; continue; }
        return cli_die("inspect: unknown flag '%s'", argv[i]);
    }
    int rc = cli_model_resolve(&mo);
    if (rc) return rc;
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
    int n_gdn = 0, n_mamba = 0, n_ffn = 0, n_layer = frink_model_n_layer(m);
    for (int il = 0; il < n_layer; il++) {
        frink_layer_info li;
        if (frink_model_layer(m, il, &li) != FRINK_OK) continue;
        n_gdn += !strcmp(li.kind, "gdn");
        n_mamba += !strcmp(li.kind, "mamba2"); // ("attention+mamba2" counts as attention)
        n_ffn += !strcmp(li.kind, "ffn");
    }
    char kinds[96];
    if (n_mamba || n_ffn)
        snprintf(kinds, sizeof kinds, "%d attention, %d Mamba-2, %d FFN alone", n_layer - n_gdn - n_mamba - n_ffn, n_mamba, n_ffn);
    else
        snprintf(kinds, sizeof kinds, "%d attention, %d Gated DeltaNet", n_layer - n_gdn, n_gdn);
    printf("frink: runs as '%s': %d layers (%s), %d-wide, vocabulary %d, %.1f MB of weights per token\n", frink_model_arch(m),
           n_layer, kinds, frink_model_n_embd(m), frink_model_n_vocab(m), frink_model_bytes_per_token(m) / 1e6);
    // The weights running is half the verdict: run, chat, tokenize and serve need the tokenizer too.
    frink_model_params tp = frink_model_default_params();
    tp.path = mp.path;
    tp.vocab_only = true;
    frink_model *tm;
    if (frink_model_open(&tp, &tm)) {
        printf("frink: but its tokenizer is refused: %s (run, chat, tokenize and serve need one; logits --ids does not)\n",
               frink_errmsg());
    } else {
        frink_model_free(tm);
    }
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

int cmd_archs(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_archs, stdout), 0;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json")) return cli_die("archs: unknown flag '%s' (see `frink archs --help`)", argv[i]);
        json = true;
    }
    const char *why;
    if (json) {
        json_t *a = json_array();
        for (int i = 0; frink_arch_name(i, &why); i++) {
            json_t *o = json_object();
            json_object_set_new(o, "arch", json_string(frink_arch_name(i, NULL)));
            json_object_set_new(o, "runs", json_boolean(!why));
            json_object_set_new(o, "why", why ? json_string(why) : json_null());
            json_array_append_new(a, o);
        }
        char *txt = json_dumps(a, JSON_INDENT(1));
        json_decref(a);
        if (!txt) return cli_die("out of memory"), 1;
        puts(txt);
        free(txt);
        return 0;
    }
    printf("%-14s %s\n", "architecture", "status");
    for (int i = 0; frink_arch_name(i, &why); i++) printf("%-14s %s\n", frink_arch_name(i, NULL), why ? why : "runs");
    return 0;
}
