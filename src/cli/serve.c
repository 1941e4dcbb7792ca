// serve.c — `frink serve`'s flags: parsed and checked here, into the struct srv_config that
// the server (src/server, srv_main) runs from.
//
// Why the flags live on the CLI's side: the includes run one way, cli -> server -> engine.
// The flag helpers (cli_int, cli_die, cli_model_flag and its help) are the CLI's, shared with
// every other subcommand so that `frink serve -t 4` means what `frink run -t 4` means; a
// server that parsed its own flags would need them from below it or a copy of them. So the
// server takes a finished configuration and knows nothing of argv; what only the flags can
// check (a key file, a loopback host without a key, a save directory) is refused here, before
// anything starts, with the flag's name in the message.
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "server/server.h"

static const char help_serve[] =
    "usage: frink serve [-m MODEL] [--host H] [--port P] [-np SLOTS] [-c CTX] [flags]\n"
    "An HTTP server with the OpenAI (chat completions, completions, Responses) and Anthropic (messages)\n"
    "APIs. Requests share one context: -np slots decode at once, every step mixing prompt chunks of\n"
    "new requests with one token of each running one; a prompt that extends what a slot or the prefix\n"
    "cache holds reuses that state. With a seed (or temperature 0) a request's output does not depend\n"
    "on what else the server is doing.\n"
    "  --host H[,H...]         addresses to bind (default 127.0.0.1; a non-loopback address needs --api-key)\n"
    "  --port P                port (default 8080; 0 picks a free one, printed on stdout)\n"
    "  -np, --parallel N       slots: requests decoding at once (default 4)\n"
    "  -c, --ctx-size N        tokens of context per slot (default: the model's, at most 8192)\n"
    "  -b, --batch-size N      tokens one step evaluates: prompt chunks plus decode tokens (default 256)\n"
    "  -n, --predict N         most tokens of a reply when the request sets none (default -1: to the context;\n"
    "                          --n-predict is the same)\n"
    "  --max-queue N           requests waiting for a slot before 503 + Retry-After (default 64)\n"
    "  --cache-ram MIB         prefix cache budget in MiB (default 1024; 0: slots only)\n"
    "  --api-key KEY           require KEY (Authorization: Bearer KEY or x-api-key: KEY) on all but /health\n"
    "  --api-key-file F        the key from the first line of F\n"
    "  -a, --alias NAME[,...]  the model's id on the wire (the first; default: the file's name);\n"
    "                          requests may name any of them (clients that insist on their own model name)\n"
    "  --chat-template-file F  a Jinja chat template instead of the model's own\n"
    "  --slot-save-path DIR    enable POST /slots/{id}?action=save|restore (files under DIR)\n"
    "  --metrics               enable GET /metrics (Prometheus text)\n"
    "  --cors-origin O         allow browser requests from origin O (repeatable; \"*\": any)\n"
    "  --insecure-public       allow a non-loopback --host without an API key\n"
    "  --max-body BYTES        largest request body (default 16777216)\n"
    "  --timeout S             seconds an idle or trickling connection is kept (default 30)\n"
    "  --log-format text|json  the access log: a line per request on stderr (time, client, method, path,\n"
    "                          status, tokens, ms), or a JSON object each (--log-jsonl)\n"
    "  --log-disable           no access log\n"
    "  -v, --verbose           the access log lists probes (GET /health, /metrics) too\n"
    "  --no-slots, --slots     disable (enable, the default) GET /slots\n"
    "  --tags A,B              the model's tags, listed by GET /v1/models (informational)\n"
    "  -rea, --reasoning on|off|auto   the chat template's enable_thinking when a request does not set it\n"
    "                          (default auto: the template's own default)\n"
    "  -to, --timeout S        as --timeout\n"
    "  --embeddings            enable POST /v1/embeddings (and /embeddings); without it they answer 501\n"
    "  --pooling P             the embeddings' pooling: none, mean, cls, last, rank (default: the file's\n"
    "                          pooling_type, else none, which the OpenAI-shaped endpoint refuses)\n"
    "  --reranking             enable POST /v1/rerank (and /rerank): --embeddings with --pooling rank\n"
    "  --no-webui              no web chat at / (the page is served without the API key; it asks for one)\n"
    "sampling defaults of requests that do not set them (the request's fields win):\n"
    "  --temp T (--temperature), --top-k K, --top-p P, --min-p M, --repeat-penalty R, --presence-penalty P,\n"
    "  --frequency-penalty F, --repeat-last-n N   (defaults 0.8, 40, 0.95, 0.05, off, off, off, 64)\n"
    "  -s, --seed S            the seed of requests without one (default -1: a random seed per request)\n"
    "llama-server flags accepted for scripts that pass them, with a note on stderr where frink differs:\n"
    "  --jinja (always), --no-context-shift and --no-kv-unified (what frink does), --context-shift (frink\n"
    "  never shifts: a reply ends with its slot's context), -kvu/--kv-unified (each slot has its own -c\n"
    "  tokens), --sleep-idle-seconds S (-1; frink keeps the model loaded), -ngl, -fa, -sm, -mg, -ts, --no-mmap\n"
    "%s%s"
    "A request's speculative.n_max (0: plain steps), speculative.n_min and speculative.p_min override the\n"
    "draft lengths; a request with a grammar (or a tool call's) decodes in plain steps.\n"
    "Endpoints: GET / (the web chat) /health /v1/models /slots /metrics /props; POST /v1/chat/completions /v1/completions\n"
    "/v1/messages /v1/messages/count_tokens /v1/responses /tokenize /detokenize /apply-template /slots/{id}\n"
    "/v1/embeddings /v1/rerank, and llama-server's /completion (/completions). SIGINT/SIGTERM drain: new requests\n"
    "get 503, running ones end with their final event, then the server exits (a second signal: at once).\n"
    "example: frink serve -m model.gguf --port 8080 -np 4\n";

static bool is_loopback(const char *host) {
    if (!strcmp(host, "localhost")) return true;
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, host, &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, host, &a6) == 1) return IN6_IS_ADDR_LOOPBACK(&a6);
    return false;
}

static char *read_key_file(const char *path) {
    size_t n;
    char *k = cli_read_file(path, &n);
    if (!k) return NULL;
    k[strcspn(k, "\r\n")] = 0;
    if (!*k) {
        free(k);
        cli_die("--api-key-file %s: the first line is empty", path);
        return NULL;
    }
    return k;
}

// Consumes a flag of the server's own at argv[i] into *c (--api-key-file into *key_file):
// returns how many args it used (1 or 2), or -1 after printing an error (unknown flags too).
static int serve_flag(struct srv_config *c, const char **key_file, int argc, char **argv, int i) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    const char *v = has ? argv[i + 1] : NULL;
    long n;
    if (!strcmp(a, "--insecure-public")) return c->insecure_public = true, 1;
    if (!strcmp(a, "--metrics")) return c->metrics = true, 1;
    if (!strcmp(a, "--no-webui")) return c->no_webui = true, 1;
    if (!strcmp(a, "--verbose") || !strcmp(a, "-v") || !strcmp(a, "--log-verbose")) return c->verbose = 1, 1;
    if (!strcmp(a, "--log-disable")) return c->log_disable = true, 1;
    if (!strcmp(a, "--log-jsonl")) return c->log_json = true, 1;
    if (!strcmp(a, "--no-log-jsonl")) return c->log_json = false, 1;
    if (!strcmp(a, "--no-slots")) return c->no_slots = true, 1;
    if (!strcmp(a, "--slots")) return c->no_slots = false, 1;
    // What frink always does, as the reference spells it.
    if (!strcmp(a, "--no-context-shift") || !strcmp(a, "--no-kv-unified") || !strcmp(a, "-no-kvu")) return 1;
    if (!strcmp(a, "--context-shift"))
        return fprintf(stderr, "frink: serve: note: --context-shift has no effect: frink never shifts the context; "
                               "a reply ends when its slot's context is full (finish_reason \"length\")\n"), 1;
    if (!strcmp(a, "--kv-unified") || !strcmp(a, "-kvu"))
        return fprintf(stderr, "frink: serve: note: %s has no effect: each of frink's slots holds its own -c tokens "
                               "of context\n", a), 1;
    // (the reference's names: --embeddings enables the embedding endpoints, --reranking is
    // --embeddings with pooling rank)
    if (!strcmp(a, "--embeddings") || !strcmp(a, "--embedding")) return c->embeddings = true, 1;
    if (!strcmp(a, "--reranking") || !strcmp(a, "--rerank")) return c->embeddings = true, c->pooling = FRINK_POOLING_RANK, 1;
    if (!has) return cli_die("%s: unknown flag or missing value (see frink serve --help)", a), -1;
    if (!strcmp(a, "--predict")) a = "-n"; // the reference's third spelling of -n
    // The integer flags: where each goes and its range.
    static const struct { const char *name, *alias; long lo, hi; } ints[] = {
        {"--port", NULL, 0, 65535},          {"-np", "--parallel", 1, 256},   {"-n", "--n-predict", -1, 1 << 24},
        {"--max-queue", NULL, 1, 1 << 20},   {"--cache-ram", NULL, 0, 1 << 24}, {"--max-body", NULL, 1024, 1L << 34},
        {"--timeout", "-to", 1, 86400},
    };
    for (int k = 0; k < (int)(sizeof ints / sizeof *ints); k++) {
        if (strcmp(a, ints[k].name) && (!ints[k].alias || strcmp(a, ints[k].alias))) continue;
        if (!cli_int(a, v, ints[k].lo, ints[k].hi, &n)) return -1;
        switch (k) {
        case 0: c->port = (int)n; break;
        case 1: c->n_slots = (int)n; break;
        case 2: c->n_predict = (int)n; break;
        case 3: c->max_queue = (int)n; break;
        case 4: c->cache_bytes = (size_t)n << 20; break;
        case 5: c->max_body = (size_t)n; break;
        default: c->timeout_s = (int)n; break;
        }
        return 2;
    }
    if (!strcmp(a, "--log-format")) {
        if (strcmp(v, "text") && strcmp(v, "json")) return cli_die("%s expects text or json, got '%s'", a, v), -1;
        c->log_json = !strcmp(v, "json");
    } else if (!strcmp(a, "--host")) {
        if (!*v || *v == ',' || strstr(v, ",,") || v[strlen(v) - 1] == ',')
            return cli_die("%s expects HOST or HOST,HOST,... (no empty address)", a), -1;
        c->host = v;
    } else if (!strcmp(a, "--tags")) c->tags = v;
    else if (!strcmp(a, "--reasoning") || !strcmp(a, "-rea")) {
        if (strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "auto")) return cli_die("%s expects on, off or auto, got '%s'", a, v), -1;
        c->reasoning = !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -1;
    } else if (!strcmp(a, "--sleep-idle-seconds")) {
        if (!cli_int(a, v, -1, 1L << 30, &n)) return -1;
        if (!n) return cli_die("%s: 0 is not a number of seconds (-1: never)", a), -1;
        if (n > 0) fprintf(stderr, "frink: serve: note: --sleep-idle-seconds %ld has no effect: frink keeps the model loaded\n", n);
    }
    else if (!strcmp(a, "--api-key")) c->api_key = v;
    else if (!strcmp(a, "--api-key-file")) *key_file = v;
    else if (!strcmp(a, "--alias") || !strcmp(a, "-a")) {
        if (!v || !*v || *v == ',' || strstr(v, ",,") || v[strlen(v) - 1] == ',')
            return cli_die("%s expects NAME or NAME,NAME,... (no empty name)", a), -1;
        c->alias = v;
    } else if (!strcmp(a, "--chat-template-file")) c->chat_template_file = v;
    else if (!strcmp(a, "--slot-save-path")) c->slot_save_path = v;
    else if (!strcmp(a, "--pooling")) {
        int k = FRINK_POOLING_NONE;
        while (k <= FRINK_POOLING_RANK && strcmp(v, frink_pooling_name((frink_pooling)k))) k++;
        if (k > FRINK_POOLING_RANK) return cli_die("--pooling: '%s' is not none, mean, cls, last or rank", v), -1;
        c->pooling = k;
    }
    else if (!strcmp(a, "--cors-origin")) c->cors_origins[c->n_cors++] = v;
    else return cli_die("%s: unknown flag (see frink serve --help)", a), -1;
    return 2;
}

// What the flags alone can tell is wrong: two keys, an empty one, a public host without one,
// a save path that is no directory, a model without weights or tokenizer. Reads --api-key-file
// into *key_buf (freed by the caller). Returns 0, or 2 after printing the error.
static int serve_check(struct srv_config *c, const struct cli_model_opts *mo, const char *key_file, char **key_buf) {
    if (key_file) {
        if (c->api_key) return cli_die("--api-key and --api-key-file: give one");
        if (!(*key_buf = read_key_file(key_file))) return 2;
        c->api_key = *key_buf;
    }
    if (c->api_key && !*c->api_key) return cli_die("--api-key: the key is empty");
    for (const char *h = c->host; *h;) {
        size_t n = strcspn(h, ",");
        char one[256];
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), h);
        if (!is_loopback(one) && !c->api_key && !c->insecure_public)
            return cli_die("--host %s is not a loopback address: give --api-key (or --api-key-file), or "
                           "--insecure-public to serve it without one",
                           one);
        h += n + (h[n] == ',');
    }
    if (c->slot_save_path) {
        struct stat stt;
        if (stat(c->slot_save_path, &stt) || !S_ISDIR(stt.st_mode))
            return cli_die("--slot-save-path %s: not a directory", c->slot_save_path);
    }
    if (mo->vocab_only || mo->no_tokenizer) return cli_die("frink serve needs a model with weights and a tokenizer");
    if (cli_kv_type(mo) < 0) return 2;
    return 0;
}

// The model file checked before anything is printed or bound, so that a bad path or a file
// that is no model fails at once, as `frink run` does (the weights then load behind /health's
// 503). Opening only the tokenizer reads the header and metadata. Returns 0, or 1 (printed).
static int serve_check_model(const struct cli_model_opts *mo) {
    frink_model_params mp = frink_model_default_params();
    mp.path = mo->path;
    mp.vocab_only = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) return cli_die("%s", frink_errmsg()), 1;
    frink_model_free(m);
    return 0;
}

// The speculative decoding flags as run checks them; the draft model's file before anything
// is bound (its weights load with the target's). Returns 0, or 2 / 1 (printed).
static int serve_check_spec(const struct cli_spec_opts *so) {
    if (so->p.draft_min > so->p.draft_max)
        return cli_die("--draft-min %d is more than --draft-max %d", so->p.draft_min, so->p.draft_max), 2;
    if (so->p.kind == FRINK_SPEC_DRAFT && !so->draft_path) return cli_die("--spec draft needs the draft model (-md FILE)"), 2;
    if (so->p.kind != FRINK_SPEC_DRAFT && so->draft_path && so->p.kind != FRINK_SPEC_NONE)
        return cli_die("-md goes with --spec draft (this server asks for %s)", frink_spec_kind_name(so->p.kind)), 2;
    if (so->p.kind != FRINK_SPEC_DRAFT) return 0;
    frink_model_params mp = frink_model_default_params();
    mp.path = so->draft_path;
    mp.vocab_only = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) return cli_die("-md %s: %s", so->draft_path, frink_errmsg()), 1;
    frink_model_free(m);
    return 0;
}

// Whether --seed / -s is among the flags (the sampler's default seed is no server default).
static bool serve_seed_given(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--seed") || !strcmp(argv[i], "-s")) return true;
    return false;
}

// The server's load status line: the CLI's progress line ("frink serve: loading M, 3 s").
static void *serve_load_begin(const char *what) { return cli_progress_start("frink serve: loading %s", what); }
static void serve_load_end(void *handle) { cli_progress_end(handle); }

int cmd_serve(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        printf(help_serve, cli_model_flags_help, cli_spec_flags_help);
        return 0;
    }
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    mo.batch = 0; // -b given or not: the server's step budget has its own default
    struct srv_config c = {.host = "127.0.0.1", .port = 8080, .n_slots = 4, .n_batch = 256, .max_queue = 64,
                           .cache_bytes = (size_t)1024 << 20, .max_body = 16u << 20, .timeout_s = 30,
                           .n_predict = -1, .sampling = frink_sampler_default_params(), .reasoning = -1,
                           .pooling = FRINK_POOLING_UNSPECIFIED};
    const char *key_file = NULL;
    char *key_buf = NULL;
    c.cors_origins = calloc((size_t)argc + 1, sizeof *c.cors_origins);
    if (!c.cors_origins) return cli_die("out of memory");
    int rc = 0;
    struct cli_spec_opts so;
    cli_spec_opts_init(&so);
    for (int i = 0; i < argc && !rc; i++) {
        int used = cli_model_flag(&mo, argc, argv, i);
        if (!used) used = cli_spec_flag(&so, argc, argv, i);
        if (!used) used = cli_sampling_flag(&c.sampling, argc, argv, i);
        if (!used) used = serve_flag(&c, &key_file, argc, argv, i);
        if (used < 0) rc = 2;
        else i += used - 1;
    }
    if (!rc) rc = serve_check(&c, &mo, key_file, &key_buf);
    if (!rc) rc = cli_model_resolve(&mo); // -hf: pulled before the server starts
    if (!rc) rc = serve_check_model(&mo);
    if (!rc) rc = serve_check_spec(&so);
    // --seed -1 (or none): each request without a seed draws its own, as llama-server does.
    c.has_seed = c.sampling.seed != CLI_SEED_RANDOM && serve_seed_given(argc, argv);
    if (!rc) {
        c.model_path = mo.path;
        c.n_ctx = (int)mo.ctx;
        c.n_threads = (int)mo.threads;
        c.allow_unread = mo.allow_unread;
        c.kv_type = mo.kv_type;
        c.gdn_chunk = (int)mo.gdn_chunk;
        c.reference = mo.reference;
        c.device = mo.device;
        if (mo.batch) c.n_batch = (int)mo.batch;
        c.spec = so.p;
        c.draft_path = so.draft_path;
        c.draft_ctx = (int)so.draft_ctx;
        c.draft_threads = (int)so.draft_threads;
        c.load_begin = serve_load_begin;
        c.load_end = serve_load_end;
        rc = srv_main(&c);
    }
    free(key_buf);
    free(c.cors_origins);
    return rc;
}
