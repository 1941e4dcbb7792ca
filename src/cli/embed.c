// embed.c — `frink embed`: the embedding of each input (an argument, or a line of a file), all
// inputs in one frink_embed call, written as JSON (an array of {index, embedding}) or as raw
// float32.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char help_embed[] =
    "usage: frink embed [-m MODEL] [--pooling none|mean|cls|last|rank] [--normalize N] [--json | --raw]\n"
    "                   (-f FILE | TEXT...) [model flags]\n"
    "Embeds each TEXT (one input per argument) or each non-empty line of FILE: the model's final hidden\n"
    "state after its output norm, pooled over the input's tokens (special tokens parsed, BOS/EOS as the\n"
    "vocabulary asks). Inputs share steps; each vector is the same whatever the other inputs.\n"
    "  --pooling P              none (a vector per token), mean, cls (first token), last, rank (the\n"
    "                           classification head of a reranker); default: the file's pooling_type\n"
    "  --normalize N            -1 none, 0 max-abs to int16 range, 1 taxicab, 2 euclidean (default), >2 p-norm\n"
    "  --json                   (default) [{\"index\": 0, \"embedding\": [...]}, ...] on stdout; with pooling\n"
    "                           none each embedding is an array of per-token vectors\n"
    "  --raw                    float32 little-endian on stdout: the vectors one after another\n"
    "  -f FILE                  one input per line\n"
    "example: frink embed -m model.gguf --pooling mean \"a cat\" \"a dog\"\n";

static int parse_pooling(const char *s, frink_pooling *p) {
    for (int i = FRINK_POOLING_NONE; i <= FRINK_POOLING_RANK; i++)
        if (!strcmp(s, frink_pooling_name((frink_pooling)i))) {
            *p = (frink_pooling)i;
            return 0;
        }
    return cli_die("--pooling: '%s' is not none, mean, cls, last or rank", s);
}

// The lines of FILE that are not empty, as pointers into its text (*buf, freed by the caller).
static int read_lines(const char *path, char **buf, const char ***lines, int *n) {
    size_t len;
    *buf = cli_read_file(path, &len);
    if (!*buf) return 1; // (printed)
    *lines = malloc((len / 2 + 2) * sizeof **lines);
    *n = 0;
    for (char *s = *buf, *e; *s; s = e) {
        e = s + strcspn(s, "\n");
        char *end = e;
        if (*e) *e++ = 0;
        if (end > s && end[-1] == '\r') end[-1] = 0;
        if (*s) (*lines)[(*n)++] = s;
    }
    return 0;
}

// Writes the vectors: n inputs, counts[i] vectors of dim floats each, as JSON or raw float32.
static void write_vectors(const float *v, const int *counts, int n, int dim, bool per_token, bool raw) {
    size_t total = 0;
    for (int i = 0; i < n; i++) total += (size_t)counts[i] * dim;
    if (raw) {
        fwrite(v, sizeof(float), total, stdout); // x86-64 and aarch64 Linux: little-endian already
        return;
    }
    printf("[");
    for (int i = 0; i < n; i++) {
        printf("%s\n  {\"index\": %d, \"embedding\": %s", i ? "," : "", i, per_token ? "[" : "");
        for (int t = 0; t < counts[i]; t++) {
            printf("%s[", t ? ", " : "");
            for (int k = 0; k < dim; k++) printf("%s%.9g", k ? ", " : "", v[k]);
            printf("]");
            v += dim;
        }
        printf("%s}", per_token ? "]" : "");
    }
    printf("\n]\n");
}

// Tokenizes, embeds and writes texts[0..n); returns the exit status.
static int embed_texts(const struct cli_engine *e, const char **texts, int n, const frink_embed_params *ep, bool raw) {
    frink_embed_input *in = calloc((size_t)n, sizeof *in);
    int *counts = calloc((size_t)n, sizeof *counts);
    int rc = 0, dim = frink_embed_size(e->m, ep->pooling);
    size_t need = 0;
    for (int i = 0; i < n && !rc; i++) {
        frink_token *ids;
        size_t k;
        unsigned fl = FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL;
        if (frink_tokenize(e->m, texts[i], strlen(texts[i]), fl, &ids, &k)) rc = (cli_die("input %d: %s", i, frink_errmsg()), 1);
        in[i] = (frink_embed_input){ids, (int)k};
        counts[i] = ep->pooling == FRINK_POOLING_NONE ? (int)k : 1;
        need += (size_t)counts[i] * dim;
    }
    float *out = rc ? NULL : malloc((need ? need : 1) * sizeof(float));
    if (!rc && frink_embed(e->c, in, n, ep, out, need)) rc = (cli_die("%s", frink_errmsg()), 1);
    if (!rc) write_vectors(out, counts, n, dim, ep->pooling == FRINK_POOLING_NONE, raw);
    for (int i = 0; i < n; i++) frink_free((void *)in[i].ids);
    free(in);
    free(counts);
    free(out);
    return rc;
}

int cmd_embed(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help_model(help_embed);
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    frink_embed_params ep = frink_embed_default_params();
    const char *file = NULL;
    bool raw = false;
    const char **texts = malloc((size_t)(argc + 1) * sizeof *texts);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return free(texts), 2;
        if (used > 0) { i += used - 1; continue; }
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(a, "--pooling") || !strcmp(a, "--normalize") || !strcmp(a, "-f")) {
            if (!v) return free(texts), cli_die("%s needs a value", a);
            i++;
            if (!strcmp(a, "-f")) file = v;
            else if (!strcmp(a, "--pooling")) {
                if (parse_pooling(v, &ep.pooling)) return free(texts), 2;
            } else if (!cli_int(a, v, -1, 64, &x)) return free(texts), 2;
            else ep.normalize = (int)x;
        } else if (!strcmp(a, "--raw")) raw = true;
        else if (!strcmp(a, "--json")) raw = false;
        else if (a[0] == '-' && a[1]) return free(texts), cli_die("embed: unknown flag '%s'", a);
        else texts[n++] = a;
    }
    if (file && n) return free(texts), cli_die("embed: give TEXT arguments or -f FILE, not both");
    char *buf = NULL;
    const char **lines = NULL;
    if (file && read_lines(file, &buf, &lines, &n)) return free(texts), 1;
    if (!n) return free(texts), free(buf), free(lines), cli_die("embed: no input (TEXT arguments or -f FILE)");
    struct cli_engine e;
    int rc = cli_engine_open(&mo, &e);
    // the library's refusal names why (no pooling in the file, rank without a head)
    if (!rc && !frink_embed_size(e.m, ep.pooling)) rc = (cli_die("%s", frink_errmsg()), 1);
    if (!rc) rc = embed_texts(&e, file ? lines : texts, n, &ep, raw);
    if (e.m) cli_engine_close(&e);
    free(texts);
    free(buf);
    free(lines);
    return rc;
}
