// serve.c — the server's start-up (srv_main, from a struct srv_config that src/cli/serve.c fills
// from `frink serve`'s flags) and its own routes (/health, /slots, /metrics, /props).
//
// Start-up order: the HTTP daemon first (so /health answers 503 while the model loads and a
// supervisor can tell "loading" from "dead"), then the model, the template and the scheduler;
// then `ready`. SIGINT/SIGTERM drain it: new requests are answered 503, the running generations
// end within a step (streams with their final event: a finish_reason and [DONE], message_stop),
// then, once nothing is in flight or after SRV_DRAIN_S (a second signal: at once), the daemon
// stops and the scheduler.
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server/api_util.h"
#include "server/sched.h"

// SIGINT / SIGTERM: the first drains (below), a second stops at once.
static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) {
    (void)sig;
    stop_flag++;
}

#define SRV_DRAIN_S 5.0 // the longest a stop waits for requests in flight

static double srv_mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *basename_of(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

// Errors of start-up, in the CLI's shape ("frink: serve: ..." on stderr). Returns 1: the flags
// were checked before (src/cli/serve.c), so what fails here fails at run time.
static int srv_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int srv_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("frink: serve: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

// The chat template: --chat-template-file's, or the model's own (ChatML, said on stderr, when it
// has none). Returns 0, or 1 after printing the error.
static int srv_template_open(struct srv *s, const char *file) {
    if (!file) {
        bool chatml = false;
        if (frink_model_template(s->model, &s->tmpl, &chatml)) return srv_fail("%s", frink_errmsg()), 1;
        if (chatml) fprintf(stderr, "frink: the model has no chat template; using ChatML\n");
        return 0;
    }
    FILE *f = fopen(file, "rb");
    if (!f) return srv_fail("cannot open '%s': %s", file, strerror(errno)), 1;
    char *src = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&src, &n);
    char buf[65536];
    for (size_t k; mem && (k = fread(buf, 1, sizeof buf, f)) > 0;) fwrite(buf, 1, k, mem);
    bool bad = ferror(f) || !mem || fclose(mem);
    fclose(f);
    if (bad || !src) {
        free(src);
        return srv_fail("cannot read '%s'", file), 1;
    }
    frink_status st = frink_template_parse(s->model, src, n, &s->tmpl);
    free(src);
    if (st) return srv_fail("%s: %s", file, frink_errmsg()), 1;
    return 0;
}

// The context of each slot: -c, or the model's training context capped at 8192 (4096 when the
// file does not say): the CLI's rule for every command (cli_ctx_size), so that `frink serve -m
// M` and `frink run -m M` read the same context.
static int srv_ctx_size(const struct srv_config *c, const frink_model *m) {
    if (c->n_ctx) return c->n_ctx;
    int n = frink_model_n_ctx_train(m);
    return n <= 0 ? 4096 : n > 8192 ? 8192 : n;
}

// The model, its template, the scheduler; then `ready`. Returns 0, or the exit status after
// printing the error.
static int srv_load(struct srv *s) {
    const struct srv_config *c = &s->cfg;
    frink_model_params mp = frink_model_default_params();
    mp.path = c->model_path;
    mp.allow_unread = c->allow_unread;
    mp.device = c->device;
    void *pg = c->load_begin ? c->load_begin(c->model_path ? basename_of(c->model_path) : "stories260K") : NULL;
    frink_status st = frink_model_open(&mp, &s->model);
    if (c->load_end) c->load_end(pg);
    if (st) return srv_fail("%s", frink_errmsg());
    if (srv_template_open(s, c->chat_template_file)) return 1;
    s->tmpl_is_chatml = !c->chat_template_file && !frink_model_chat_template(s->model);
    if (c->reasoning >= 0 && !run_template_knows(s, "enable_thinking"))
        fprintf(stderr, "frink: serve: note: --reasoning %s has no effect: the chat template has no enable_thinking switch\n",
                c->reasoning ? "on" : "off");
    snprintf(s->fingerprint, sizeof s->fingerprint, "fp_%012" PRIx64, (uint64_t)(frink_model_identity(s->model) & 0xffffffffffffull));
    s->n_ctx = srv_ctx_size(c, s->model);
    if (c->embeddings) {
        // The reference's rule: --pooling, else the file's pooling_type, else none.
        frink_pooling p = (frink_pooling)c->pooling;
        if (p == FRINK_POOLING_UNSPECIFIED) p = frink_model_pooling(s->model);
        if (p == FRINK_POOLING_UNSPECIFIED) p = FRINK_POOLING_NONE;
        if (!frink_embed_size(s->model, p)) return srv_fail("--embeddings: %s", frink_errmsg()); // rank without a head
        s->pooling = p;
    }
    char err[512];
    if (sched_start(s, err, sizeof err)) return srv_fail("%s", err);
    atomic_store(&s->ready, true);
    fprintf(stderr, "frink serve: %s ready: %d slots of %d tokens, step budget %d tokens, %d threads%s\n", s->model_id,
            c->n_slots, s->n_ctx, c->n_batch, c->n_threads ? c->n_threads : (int)sysconf(_SC_NPROCESSORS_ONLN),
            c->reference ? ", reference kernels" : "");
    return 0;
}

int srv_main(const struct srv_config *cfg) {
    static struct srv s;
    s.cfg = *cfg;
    const struct srv_config *c = &s.cfg;
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    s.created = (int64_t)time(NULL);
    char first_alias[256] = "";
    if (c->alias) snprintf(first_alias, sizeof first_alias, "%.*s", (int)strcspn(c->alias, ","), c->alias);
    s.model_id = c->alias ? first_alias : c->model_path ? basename_of(c->model_path) : "stories260K";
    atomic_init(&s.ready, false);
    int port = 0;
    if (http_start(&s, &port)) return 1;
    for (const char *h = c->host; *h;) { // a line per address of --host
        int n = (int)strcspn(h, ",");
        bool v6 = memchr(h, ':', (size_t)n) && h[0] != '[';
        printf("frink serve: listening on http://%s%.*s%s:%d\n", v6 ? "[" : "", n, h, v6 ? "]" : "", port);
        h += n + (h[n] == ',');
    }
    fflush(stdout);

    int rc = srv_load(&s);
    if (!rc) {
        while (!stop_flag) usleep(100 * 1000); // (pause() would race with a signal arriving just before it)
        fprintf(stderr, "frink serve: stopping: new requests get 503, running ones end now\n");
    }
    atomic_store(&s.stopping, true);
    http_drain();
    if (s.sched) sched_drain(s.sched);
    double t_stop = srv_mono();
    while (stop_flag < 2 && !http_idle() && srv_mono() - t_stop < SRV_DRAIN_S) usleep(10 * 1000);
    if (!http_idle()) fprintf(stderr, "frink serve: requests still in flight after %.0f s: closing them\n", srv_mono() - t_stop);
    http_stop();
    if (s.sched) sched_stop(s.sched);
    frink_template_free(s.tmpl);
    frink_model_free(s.model);
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
    if (s->cfg.no_slots) {
        http_error(out, r->api, 501, "not_supported_error", NULL, "the slots endpoint is disabled (--no-slots)");
        return;
    }
    if (loading(s, out)) return;
    struct sched_slot_info info[256];
    int n = sched_slots(s->sched, info, 256);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:i, s:i, s:b, s:b, s:i, s:i, s:i}", "id", info[i].id, "n_ctx", s->n_ctx,
                                           "speculative", info[i].speculative, "is_processing", info[i].busy,
                                           "n_tokens", info[i].n_tokens, "n_prompt_tokens", info[i].n_prompt,
                                           "n_generated", info[i].n_generated));
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
    if (!r->route_arg || *end || end == r->route_arg || id < 0) {
        http_error(out, r->api, 400, "invalid_request_error", "id", "slot id must be a number, got '%s'",
                   r->route_arg ? r->route_arg : "");
        return;
    }
    // Checked before it becomes an int: 4294967296 must not reach slot 0.
    if (id >= s->cfg.n_slots) {
        http_error(out, r->api, 400, "invalid_request_error", "id", "slot id %s is out of range: the server has %d slots (0..%d)",
                   r->route_arg, s->cfg.n_slots, s->cfg.n_slots - 1);
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
    metric(&b, "draft_tokens_total", "counter", "Drafted tokens verified by speculative steps.", (double)st.drafted);
    metric(&b, "draft_tokens_accepted_total", "counter", "Drafted tokens kept (equal to what was sampled).",
           (double)st.accepted);
    metric(&b, "requests_processing", "gauge", "Slots busy.", st.busy_slots);
    metric(&b, "requests_deferred", "gauge", "Tasks waiting for a slot.", st.queue_depth);
    metric(&b, "slots", "gauge", "Slots.", st.n_slots);
    out->status = 200;
    out->content_type = "text/plain; version=0.0.4";
    // llama-server's header (the reference fills it from a monotonic clock; frink sends what its
    // name says: the server's start in Unix seconds).
    char t0[32];
    snprintf(t0, sizeof t0, "%" PRId64, s->created);
    http_add_header(out, "Process-Start-Time-Unix", t0);
    out->body = b.p ? b.p : strdup("");
    out->len = b.n;
}

void serve_props(struct srv *s, struct http_req *r, struct http_resp *out) {
    (void)r;
    if (loading(s, out)) return;
    http_json(out, 200,
              // n_ctx: the whole context, as the reference reports it (its slots share one; frink's
              // each hold n_ctx_slot of it, what one request may use).
              json_pack("{s:{s:i, s:i, s:i}, s:i, s:s, s:s, s:s?, s:b, s:s, s:s}", "default_generation_settings", "n_ctx",
                        s->n_ctx * s->cfg.n_slots, "n_ctx_slot", s->n_ctx, "n_predict", s->cfg.n_predict, "total_slots", s->cfg.n_slots, "model_path",
                        s->cfg.model_path ? s->cfg.model_path : "(embedded)", "model_alias", s->model_id,
                        "chat_template", frink_template_source(s->tmpl), "chat_template_is_chatml_default",
                        s->tmpl_is_chatml, "build_info", frink_version(), "arch", frink_model_arch(s->model)));
}
