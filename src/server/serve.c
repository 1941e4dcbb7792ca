// serve.c — `frink serve`: flags, start-up, and the server's own routes (/health, /slots,
// /metrics, /props).
//
// Start-up order: the HTTP daemon first (so /health answers 503 while the model loads and a
// supervisor can tell "loading" from "dead"), then the model, the template and the scheduler;
// then `ready`. SIGINT/SIGTERM stop it: the daemon first (no new requests), then the scheduler.
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/api_util.h"
#include "server/sched.h"

static const char help_serve[] =
    "usage: frink serve [-m MODEL] [--host H] [--port P] [-np SLOTS] [-c CTX] [flags]\n"
    "An HTTP server with the OpenAI (chat completions, completions, Responses) and Anthropic (messages)\n"
    "APIs. Requests share one context: -np slots decode at once, every step mixing prompt chunks of\n"
    "new requests with one token of each running one; a prompt that extends what a slot or the prefix\n"
    "cache holds reuses that state. With a seed (or temperature 0) a request's output does not depend\n"
    "on what else the server is doing.\n"
    "  --host H                address to bind (default 127.0.0.1; a non-loopback address needs --api-key)\n"
    "  --port P                port (default 8080; 0 picks a free one, printed on stdout)\n"
    "  -np, --parallel N       slots: requests decoding at once (default 4)\n"
    "  -c, --ctx-size N        tokens of context per slot (default: the model's, at most 8192)\n"
    "  -b, --batch-size N      tokens one step evaluates: prompt chunks plus decode tokens (default 256)\n"
    "  -n, --n-predict N       most tokens of a reply when the request sets none (default -1: to the context)\n"
    "  --max-queue N           requests waiting for a slot before 503 + Retry-After (default 64)\n"
    "  --cache-ram MIB         prefix cache budget in MiB (default 1024; 0: slots only)\n"
    "  --api-key KEY           require KEY (Authorization: Bearer KEY or x-api-key: KEY) on all but /health\n"
    "  --api-key-file F        the key from the first line of F\n"
    "  --alias NAME[,NAME...]  the model's id on the wire (the first; default: the file's name);\n"
    "                          requests may name any of them (clients that insist on their own model name)\n"
    "  --chat-template-file F  a Jinja chat template instead of the model's own\n"
    "  --slot-save-path DIR    enable POST /slots/{id}?action=save|restore (files under DIR)\n"
    "  --metrics               enable GET /metrics (Prometheus text)\n"
    "  --cors-origin O         allow browser requests from origin O (repeatable; \"*\": any)\n"
    "  --insecure-public       allow a non-loopback --host without an API key\n"
    "  --max-body BYTES        largest request body (default 16777216)\n"
    "  --timeout S             seconds an idle or trickling connection is kept (default 30)\n"
    "  --verbose               a line per request on stderr\n"
    "%s"
    "Endpoints: GET /health /v1/models /slots /metrics /props; POST /v1/chat/completions /v1/completions\n"
    "/v1/messages /v1/messages/count_tokens /v1/responses /tokenize /detokenize /apply-template /slots/{id}.\n"
    "example: frink serve -m model.gguf --port 8080 -np 4\n";

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) {
    (void)sig;
    stop_flag = 1;
}

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

static const char *basename_of(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

int cmd_serve(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        printf(help_serve, cli_model_flags_help);
        return 0;
    }
    static struct srv s;
    struct srv_config *c = &s.cfg;
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    mo.batch = 0; // -b given or not: the server's step budget has its own default
    *c = (struct srv_config){.host = "127.0.0.1", .port = 8080, .n_slots = 4, .n_batch = 256, .max_queue = 64,
                             .cache_bytes = (size_t)1024 << 20, .max_body = 16u << 20, .timeout_s = 30,
                             .n_predict = -1};
    const char *key_file = NULL;
    char *key_buf = NULL;
    c->cors_origins = calloc((size_t)argc + 1, sizeof *c->cors_origins);
    if (!c->cors_origins) return cli_die("out of memory");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        bool has = i + 1 < argc;
        const char *v = has ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--insecure-public")) c->insecure_public = true;
        else if (!strcmp(a, "--metrics")) c->metrics = true;
        else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) c->verbose = 1;
        else if (!has) return cli_die("%s: unknown flag or missing value (see frink serve --help)", a);
        else if (!strcmp(a, "--host")) c->host = v, i++;
        else if (!strcmp(a, "--port")) {
            if (!cli_int(a, v, 0, 65535, &n)) return 2;
            c->port = (int)n, i++;
        } else if (!strcmp(a, "-np") || !strcmp(a, "--parallel")) {
            if (!cli_int(a, v, 1, 256, &n)) return 2;
            c->n_slots = (int)n, i++;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--n-predict")) {
            if (!cli_int(a, v, -1, 1 << 24, &n)) return 2;
            c->n_predict = (int)n, i++;
        } else if (!strcmp(a, "--max-queue")) {
            if (!cli_int(a, v, 1, 1 << 20, &n)) return 2;
            c->max_queue = (int)n, i++;
        } else if (!strcmp(a, "--cache-ram")) {
            if (!cli_int(a, v, 0, 1 << 24, &n)) return 2;
            c->cache_bytes = (size_t)n << 20, i++;
        } else if (!strcmp(a, "--api-key")) c->api_key = v, i++;
        else if (!strcmp(a, "--api-key-file")) key_file = v, i++;
        else if (!strcmp(a, "--alias") || !strcmp(a, "-a")) {
            if (!v || !*v || *v == ',' || strstr(v, ",,") || v[strlen(v) - 1] == ',')
                return cli_die("%s expects NAME or NAME,NAME,... (no empty name)", a);
            c->alias = v, i++;
        }
        else if (!strcmp(a, "--chat-template-file")) c->chat_template_file = v, i++;
        else if (!strcmp(a, "--slot-save-path")) c->slot_save_path = v, i++;
        else if (!strcmp(a, "--cors-origin")) c->cors_origins[c->n_cors++] = v, i++;
        else if (!strcmp(a, "--max-body")) {
            if (!cli_int(a, v, 1024, 1L << 34, &n)) return 2;
            c->max_body = (size_t)n, i++;
        } else if (!strcmp(a, "--timeout") || !strcmp(a, "-to")) {
            if (!cli_int(a, v, 1, 86400, &n)) return 2;
            c->timeout_s = (int)n, i++;
        } else return cli_die("%s: unknown flag (see frink serve --help)", a);
    }
    if (key_file) {
        if (c->api_key) return cli_die("--api-key and --api-key-file: give one");
        if (!(key_buf = read_key_file(key_file))) return 2;
        c->api_key = key_buf;
    }
    if (c->api_key && !*c->api_key) return cli_die("--api-key: the key is empty");
    if (!is_loopback(c->host) && !c->api_key && !c->insecure_public)
        return cli_die("--host %s is not a loopback address: give --api-key (or --api-key-file), or "
                       "--insecure-public to serve it without one",
                       c->host);
    if (c->slot_save_path) {
        struct stat stt;
        if (stat(c->slot_save_path, &stt) || !S_ISDIR(stt.st_mode))
            return cli_die("--slot-save-path %s: not a directory", c->slot_save_path);
    }
    if (mo.vocab_only || mo.no_tokenizer) return cli_die("frink serve needs a model with weights and a tokenizer");
    c->model_path = mo.path;
    c->n_threads = (int)mo.threads;
    c->allow_unread = mo.allow_unread;
    c->kv_type = mo.kv_type;
    c->gdn_chunk = (int)mo.gdn_chunk;
    if (mo.batch) c->n_batch = (int)mo.batch;

    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    s.created = (int64_t)time(NULL);
    char first_alias[256] = "";
    if (c->alias) snprintf(first_alias, sizeof first_alias, "%.*s", (int)strcspn(c->alias, ","), c->alias);
    s.model_id = c->alias ? first_alias : mo.path ? basename_of(mo.path) : "stories260K";
    atomic_init(&s.ready, false);
    int port = 0;
    if (http_start(&s, &port)) return 1;
    printf("frink serve: listening on http://%s:%d\n", strchr(c->host, ':') ? "[::1]" : c->host, port);
    fflush(stdout);

    frink_model_params mp = frink_model_default_params();
    mp.path = mo.path;
    mp.allow_unread = mo.allow_unread;
    mp.device = mo.device;
    int rc = 0;
    if (frink_model_open(&mp, &s.model)) {
        rc = cli_die("%s", frink_errmsg());
        goto out;
    }
    if (cli_template_open(s.model, c->chat_template_file, &s.tmpl)) {
        rc = 1;
        goto out;
    }
    s.tmpl_is_chatml = !c->chat_template_file && !frink_model_chat_template(s.model);
    snprintf(s.fingerprint, sizeof s.fingerprint, "fp_%012" PRIx64, (uint64_t)(frink_model_identity(s.model) & 0xffffffffffffull));
    s.n_ctx = cli_ctx_size(&mo, s.model);
    char err[512];
    if (sched_start(&s, err, sizeof err)) {
        rc = cli_die("%s", err);
        goto out;
    }
    atomic_store(&s.ready, true);
    fprintf(stderr, "frink serve: %s ready: %d slots of %d tokens, step budget %d tokens, %d threads\n", s.model_id,
            c->n_slots, s.n_ctx, c->n_batch, c->n_threads ? c->n_threads : (int)sysconf(_SC_NPROCESSORS_ONLN));
    while (!stop_flag) usleep(100 * 1000); // (pause() would race with a signal arriving just before it)
    fprintf(stderr, "frink serve: stopping\n");
out:
    if (s.sched) sched_drain(s.sched);
    http_stop();
    if (s.sched) sched_stop(s.sched);
    frink_template_free(s.tmpl);
    frink_model_free(s.model);
    free(key_buf);
    free(c->cors_origins);
    return rc;
}

// ---- the server's own routes ---------------------------------------------------------------

void serve_health(struct srv *s, struct http_req *r, struct http_resp *out) {
    (void)r;
    if (!atomic_load(&s->ready)) {
        http_json(out, 503,
                  json_pack("{s:{s:i, s:s, s:s}}", "error", "code", 503, "message", "Loading model", "type",
                            "unavailable_error"));
        http_add_header(out, "Retry-After", "1");
        return;
    }
    http_json(out, 200, json_pack("{s:s}", "status", "ok"));
}

static bool loading(struct srv *s, struct http_resp *out) {
    if (atomic_load(&s->ready)) return false;
    http_error(out, HTTP_API_OPENAI, 503, "unavailable_error", NULL, "the model is loading");
    http_add_header(out, "Retry-After", "1");
    return true;
}

void serve_slots(struct srv *s, struct http_req *r, struct http_resp *out) {
    (void)r;
    if (loading(s, out)) return;
    struct sched_slot_info info[256];
    int n = sched_slots(s->sched, info, 256);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:i, s:i, s:b, s:i, s:i, s:i}", "id", info[i].id, "n_ctx", s->n_ctx,
                                           "is_processing", info[i].busy, "n_tokens", info[i].n_tokens,
                                           "n_prompt_tokens", info[i].n_prompt, "n_generated", info[i].n_generated));
    http_json(out, 200, a);
}

// A slot file's name: a plain file name under --slot-save-path (no separators, no dot-names).
static bool valid_filename(const char *f) {
    if (!f || !*f || strlen(f) > 200 || f[0] == '.') return false;
    for (const char *p = f; *p; p++)
        if (*p == '/' || *p == '\\' || (unsigned char)*p < 0x20) return false;
    return true;
}

void serve_slot_action(struct srv *s, struct http_req *r, struct http_resp *out) {
    if (loading(s, out)) return;
    const char *action = http_query(r, "action");
    char *end;
    long id = r->route_arg ? strtol(r->route_arg, &end, 10) : -1;
    if (!r->route_arg || *end || id < 0) {
        http_error(out, r->api, 400, "invalid_request_error", "id", "slot id must be a number, got '%s'",
                   r->route_arg ? r->route_arg : "");
        return;
    }
    if (!action || (strcmp(action, "save") && strcmp(action, "restore") && strcmp(action, "erase"))) {
        http_error(out, r->api, 400, "invalid_request_error", "action",
                   "action must be save, restore or erase, got '%s'", action ? action : "");
        return;
    }
    char msg[256] = "";
    double t0 = api_mono();
    if (!strcmp(action, "erase")) {
        int n_erased = 0;
        frink_status st = sched_slot_erase(s->sched, (int)id, &n_erased, msg, sizeof msg);
        if (st) {
            http_error(out, r->api, st == FRINK_ERR_ARG ? 404 : 409, "invalid_request_error", "id", "%s", msg);
            return;
        }
        http_json(out, 200, json_pack("{s:i, s:i}", "id_slot", (int)id, "n_erased", n_erased));
        return;
    }
    if (!s->cfg.slot_save_path) {
        http_error(out, r->api, 501, "not_supported_error", NULL,
                   "slot files are disabled: start the server with --slot-save-path DIR");
        return;
    }
    struct api_err e;
    json_t *body = api_parse_body(r, &e);
    if (!body) {
        api_err_send(&e, r->api, out);
        return;
    }
    const char *fn = json_string_value(json_object_get(body, "filename"));
    if (!valid_filename(fn)) {
        json_decref(body);
        http_error(out, r->api, 400, "invalid_request_error", "filename",
                   "filename must be a plain file name (no '/', not starting with '.')");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->cfg.slot_save_path, fn);
    int n_tokens = 0;
    bool save = !strcmp(action, "save");
    frink_status st = save ? sched_slot_save(s->sched, (int)id, path, &n_tokens, msg, sizeof msg)
                           : sched_slot_restore(s->sched, (int)id, path, &n_tokens, msg, sizeof msg);
    if (st) {
        int status = st == FRINK_ERR_ARG ? 404 : st == FRINK_ERR_STATE ? 409 : (st == FRINK_ERR_IO && !save) ? 404 : 400;
        if (st == FRINK_ERR_IO && save) status = 500;
        json_decref(body);
        http_error(out, r->api, status, status == 500 ? "server_error" : "invalid_request_error", "filename", "%s", msg);
        return;
    }
    struct stat stt;
    long long bytes = stat(path, &stt) ? 0 : (long long)stt.st_size;
    double ms = (api_mono() - t0) * 1e3;
    json_t *j = save ? json_pack("{s:i, s:s, s:i, s:I, s:{s:f}}", "id_slot", (int)id, "filename", fn, "n_saved", n_tokens,
                                 "n_written", (json_int_t)bytes, "timings", "save_ms", ms)
                     : json_pack("{s:i, s:s, s:i, s:I, s:{s:f}}", "id_slot", (int)id, "filename", fn, "n_restored",
                                 n_tokens, "n_read", (json_int_t)bytes, "timings", "restore_ms", ms);
    json_decref(body);
    http_json(out, 200, j);
}

struct mbuf {
    char *p;
    size_t n, cap;
};
static void mprintf(struct mbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mprintf(struct mbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t nc = (b->n + (size_t)k + 1) * 2;
        char *np = realloc(b->p, nc);
        if (!np) return;
        b->p = np;
        b->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

static void metric(struct mbuf *b, const char *name, const char *type, const char *help, double v) {
    mprintf(b, "# HELP frink:%s %s\n# TYPE frink:%s %s\nfrink:%s %.17g\n", name, help, name, type, name, v);
}

void serve_metrics(struct srv *s, struct http_req *r, struct http_resp *out) {
    if (!s->cfg.metrics) {
        http_error(out, r->api, 501, "not_supported_error", NULL, "metrics are disabled: start the server with --metrics");
        return;
    }
    if (loading(s, out)) return;
    struct sched_stats st;
    sched_stats(s->sched, &st);
    struct mbuf b = {0};
    metric(&b, "requests_total", "counter", "Generation requests received.", (double)atomic_load(&s->n_requests));
    metric(&b, "requests_failed_total", "counter", "Generation requests refused or failed before generating.",
           (double)atomic_load(&s->n_requests_failed));
    metric(&b, "prompt_tokens_total", "counter", "Prompt tokens of the requests served (cached ones included).",
           (double)st.prompt_tokens);
    metric(&b, "prompt_tokens_cached_total", "counter", "Prompt tokens reused from a slot or the prefix cache.",
           (double)st.cached_tokens);
    metric(&b, "tokens_predicted_total", "counter", "Tokens generated.", (double)st.gen_tokens);
    metric(&b, "prompt_seconds_total", "counter", "Seconds spent in steps that evaluated prompt tokens.", st.prefill_s);
    metric(&b, "tokens_predicted_seconds_total", "counter", "Seconds spent in steps that only decoded.", st.decode_s);
    uint64_t evaluated = st.prompt_tokens - st.cached_tokens;
    metric(&b, "prompt_tokens_seconds", "gauge", "Prompt tokens evaluated per second of prefill steps (average).",
           st.prefill_s > 0 ? (double)evaluated / st.prefill_s : 0);
    metric(&b, "predicted_tokens_seconds", "gauge", "Tokens generated per second of steps (average).",
           st.prefill_s + st.decode_s > 0 ? (double)st.gen_tokens / (st.prefill_s + st.decode_s) : 0);
    metric(&b, "steps_total", "counter", "Scheduler steps (batched decodes).", (double)st.steps);
    metric(&b, "tasks_cancelled_total", "counter", "Tasks ended because the client went away.",
           (double)st.tasks_cancelled);
    metric(&b, "cache_hits_total", "counter", "Tasks that reused a prefix.", (double)st.cache_hits);
    metric(&b, "cache_misses_total", "counter", "Tasks that reused nothing.", (double)st.cache_misses);
    metric(&b, "requests_processing", "gauge", "Slots busy.", st.busy_slots);
    metric(&b, "requests_deferred", "gauge", "Tasks waiting for a slot.", st.queue_depth);
    metric(&b, "slots", "gauge", "Slots.", st.n_slots);
    out->status = 200;
    out->content_type = "text/plain; version=0.0.4";
    out->body = b.p ? b.p : strdup("");
    out->len = b.n;
}

void serve_props(struct srv *s, struct http_req *r, struct http_resp *out) {
    (void)r;
    if (loading(s, out)) return;
    http_json(out, 200,
              json_pack("{s:{s:i, s:i}, s:i, s:s, s:s, s:s?, s:b, s:s, s:s}", "default_generation_settings", "n_ctx",
                        s->n_ctx, "n_predict", s->cfg.n_predict, "total_slots", s->cfg.n_slots, "model_path",
                        s->cfg.model_path ? s->cfg.model_path : "(embedded)", "model_alias", s->model_id,
                        "chat_template", frink_template_source(s->tmpl), "chat_template_is_chatml_default",
                        s->tmpl_is_chatml, "build_info", frink_version(), "arch", frink_model_arch(s->model)));
}
