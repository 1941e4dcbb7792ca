// http.c — the HTTP layer of `frink serve` on libmicrohttpd: the daemon, the routing table,
// API keys, CORS, body and time limits, and turning a handler's struct http_resp (a whole
// body or a stream) into a libmicrohttpd response.
//
// A request's life, in the connection's own thread (MHD_USE_THREAD_PER_CONNECTION):
//   1. headers complete: route it; answer what needs no body (CORS preflight, 401, 404, 405,
//      a Content-Length over --max-body) — at once when a body is coming (libmicrohttpd then
//      skips it and closes), at the request's end otherwise (the connection stays alive);
//   2. body pieces: accumulated (or discarded past the limit, answered 413 at the end);
//   3. body complete: the handler runs (it may block for the whole generation) and its
//      response is queued; a stream's produce() is then called from the same thread.
// Time limits: libmicrohttpd's idle timeout (--timeout) drops a silent client; it cannot see
// a client that trickles a byte every few seconds, so the header phase and the body have a
// deadline of twice the timeout too (a watchdog thread for the headers, which the access
// handler never sees; the upload itself for the body, answered 408).
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "server/server.h"

#define HTTP_CONN_LIMIT 256          // concurrent connections (load tests open 32+ from one IP)
#define HTTP_CONN_SPARE 64           // connections past the limit still accepted, to answer them 503
#define HTTP_DRAIN_MAX ((unsigned long long)1 << 30) // bodies read to their end before an early answer
#define HTTP_CONN_MEMORY (64 * 1024) // per connection: bounds the request line and headers
#define HTTP_STREAM_BLOCK (16 * 1024)
#define HTTP_PREFLIGHT_MAX_AGE "7200" // seconds; Chromium caps preflight caching at two hours

// ---- routes --------------------------------------------------------------------------------

// A path either matches exactly or, with `arg`, is a prefix followed by a non-empty {id}
// (slashes allowed when arg_slash: model ids such as "org/name").
struct http_route {
    const char *method;
    const char *path;
    bool arg, arg_slash;
    http_handler fn;
    enum http_api api;
};

static const struct http_route http_routes[] = {
    {"GET", "/health", false, false, serve_health, HTTP_API_OPENAI},
    {"GET", "/v1/models", false, false, api_models, HTTP_API_OPENAI},
    {"GET", "/models", false, false, api_models, HTTP_API_OPENAI},
    {"GET", "/v1/models/", true, true, api_model_get, HTTP_API_OPENAI},
    {"POST", "/v1/chat/completions", false, false, api_chat_completions, HTTP_API_OPENAI},
    {"POST", "/chat/completions", false, false, api_chat_completions, HTTP_API_OPENAI},
    {"POST", "/v1/completions", false, false, api_completions, HTTP_API_OPENAI},
    // llama-server's own endpoint under both names, as the reference routes them (its OpenAI one is /v1/completions)
    {"POST", "/completion", false, false, api_completion_native, HTTP_API_OPENAI},
    {"POST", "/completions", false, false, api_completion_native, HTTP_API_OPENAI},
    {"POST", "/v1/messages", false, false, api_messages, HTTP_API_ANTHROPIC},
    {"POST", "/v1/messages/count_tokens", false, false, api_count_tokens, HTTP_API_ANTHROPIC},
    {"POST", "/v1/responses", false, false, api_responses, HTTP_API_OPENAI},
    {"POST", "/responses", false, false, api_responses, HTTP_API_OPENAI},
    {"POST", "/tokenize", false, false, api_tokenize, HTTP_API_OPENAI},
    {"POST", "/detokenize", false, false, api_detokenize, HTTP_API_OPENAI},
    {"POST", "/apply-template", false, false, api_apply_template, HTTP_API_OPENAI},
    {"POST", "/v1/embeddings", false, false, api_embeddings, HTTP_API_OPENAI},
    {"POST", "/embeddings", false, false, api_embeddings, HTTP_API_OPENAI},
    {"POST", "/v1/rerank", false, false, api_rerank, HTTP_API_OPENAI},
    {"POST", "/rerank", false, false, api_rerank, HTTP_API_OPENAI},
    {"GET", "/slots", false, false, serve_slots, HTTP_API_OPENAI},
    {"POST", "/slots/", true, false, serve_slot_action, HTTP_API_OPENAI},
    {"GET", "/metrics", false, false, serve_metrics, HTTP_API_OPENAI},
    {"GET", "/props", false, false, serve_props, HTTP_API_OPENAI},
    {"GET", "/", false, false, serve_webui, HTTP_API_OPENAI},
    {"GET", "/webui/", true, false, serve_webui, HTTP_API_OPENAI},
};
#define HTTP_N_ROUTES (sizeof http_routes / sizeof http_routes[0])

// Does `path` match the route's path? *arg gets the {id} (a pointer into path).
static bool http_route_match(const struct http_route *rt, const char *path, const char **arg) {
    *arg = NULL;
    if (!rt->arg) return strcmp(path, rt->path) == 0;
    size_t n = strlen(rt->path);
    if (strncmp(path, rt->path, n) != 0 || path[n] == '\0') return false;
    if (!rt->arg_slash && strchr(path + n, '/')) return false;
    *arg = path + n;
    return true;
}

// The error shape of a path: everything under /v1/messages speaks Anthropic's.
static enum http_api http_path_api(const char *path) {
    return strncmp(path, "/v1/messages", 12) == 0 && (path[12] == '\0' || path[12] == '/') ? HTTP_API_ANTHROPIC
                                                                                          : HTTP_API_OPENAI;
}

// ---- state ---------------------------------------------------------------------------------

// One HTTP request. Referenced by the request (until libmicrohttpd reports it complete) and
// by its stream (until the stream is released), so a stream's release() may still read r.
struct http_conn {
    struct http_req req;
    const struct http_route *route;  // NULL: answered before routing (404, 405, 401, ...)
    char *body;                      // [cap]: the upload, NUL-terminated
    size_t len, cap;
    bool too_large;                  // the upload went past --max-body: discarded, 413 at the end
    bool raw_close;                  // answered on the socket (http_raw_error): close once the body is read
    bool discard;                    // a GET's body: ignored
    bool answered;                   // a response is queued or pending
    bool expect_body;                // Content-Length > 0 or Transfer-Encoding
    struct MHD_Response *pending;    // an early answer kept for the request's end (no body came)
    double t0;                       // monotonic seconds at the headers
    int status;                      // of the queued response (for the log)
    // the access log's line, written when the last reference goes (a stream's end included)
    char method[16], path[256], client[64];
    int toe;                         // libmicrohttpd's termination code (-1: not yet)
    atomic_int refs;
};

// A streamed response's callbacks and whether the producer reached its end.
struct http_stream {
    ssize_t (*produce)(void *ud, char *buf, size_t max);
    void (*release)(void *ud, bool aborted);
    void *ud;
    bool ended;                      // produce() returned -1
    struct MHD_Connection *mc;       // for the idle timer (only used inside the reader)
    struct http_conn *hc;
};

// A TCP connection: for the watchdog that bounds the time a client may take to send headers.
struct http_sock {
    int fd;
    double phase_start;              // when the connection began waiting for a request's headers
    bool in_request;                 // headers received: the body and handler have their own limits
    bool cut;                        // already shut down by the watchdog
    struct http_sock *prev, *next;
};

static struct MHD_Daemon *http_daemon;
static atomic_int http_n_conns;      // TCP connections open
static atomic_int http_n_requests;   // requests begun and not yet logged (a stream until its end)
static atomic_bool http_draining;    // shutting down: every new request is answered 503
// --host A,B,...: the daemons of the addresses after the first.
#define HTTP_MAX_HOSTS 7
static struct MHD_Daemon *http_extra[HTTP_MAX_HOSTS];
static int http_n_extra;
static struct srv *http_srv;
static pthread_mutex_t http_socks_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t http_watch_cv = PTHREAD_COND_INITIALIZER;
static struct http_sock *http_socks;
static pthread_t http_watch_thread;
static bool http_watch_running, http_watch_stop;

static double http_mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// --max-body, or 16 MiB when unset.
static size_t http_max_body(const struct srv *s) { return s->cfg.max_body ? s->cfg.max_body : (size_t)16 << 20; }

static void http_log_request(const struct http_conn *hc);

static void http_conn_unref(struct http_conn *hc) {
    if (atomic_fetch_sub(&hc->refs, 1) != 1) return;
    if (hc->method[0]) {
        http_log_request(hc);
        atomic_fetch_sub(&http_n_requests, 1);
    }
    free(hc->body);
    free(hc);
}

// ---- public helpers ------------------------------------------------------------------------

const char *http_header(const struct http_req *r, const char *name) {
    if (!r || !r->conn) return NULL;
    return MHD_lookup_connection_value((struct MHD_Connection *)r->conn, MHD_HEADER_KIND, name);
}

const char *http_query(const struct http_req *r, const char *name) {
    if (!r || !r->conn) return NULL;
    return MHD_lookup_connection_value((struct MHD_Connection *)r->conn, MHD_GET_ARGUMENT_KIND, name);
}

void http_add_header(struct http_resp *out, const char *name, const char *value) {
    size_t nl = strlen(name);
    // A header value with a line break would split the response (and libmicrohttpd refuses it).
    if (strpbrk(name, "\r\n:") || strpbrk(value, "\r\n")) {
        fprintf(stderr, "frink serve: header %s refused: line break in its value\n", name);
        return;
    }
    int slot = -1;
    for (int i = 0; i < 4; i++) {
        const char *h = out->headers[i];
        if (h[0] && strncasecmp(h, name, nl) == 0 && h[nl] == ':') { slot = i; break; } // replace
        if (!h[0] && slot < 0) slot = i;
    }
    if (slot < 0 || nl + 2 + strlen(value) >= sizeof out->headers[0]) {
        fprintf(stderr, "frink serve: header %s dropped: no room in the response\n", name);
        return;
    }
    // The length was checked above (memcpy: snprintf would warn of a truncation that cannot happen).
    char *h = out->headers[slot];
    size_t vl = strlen(value);
    memcpy(h, name, nl);
    memcpy(h + nl, ": ", 2);
    memcpy(h + nl + 2, value, vl + 1);
}

void http_json(struct http_resp *out, int status, json_t *j) {
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (out->body) free(out->body); // a handler that answers twice: the last answer wins
    out->body = NULL;
    out->len = 0;
    if (!text) {
        // Only out of memory gets here; answer with a body that needs no allocation by jansson.
        static const char oom[] = "{\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\","
                                  "\"param\":null,\"code\":null}}";
        text = strdup(oom);
        status = 500;
    }
    out->status = status;
    out->content_type = NULL;
    out->body = text;
    out->len = text ? strlen(text) : 0;
}

// "req_" and 24 characters from [0-9A-Za-z]: Anthropic's request ids look like this.
static void http_request_id(char id[32]) {
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    unsigned char raw[24];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        // No entropy source: ids only need to be distinct, not secret.
        static atomic_uint_fast64_t counter;
        uint64_t x = (uint64_t)time(NULL) ^ (atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull);
        for (size_t i = 0; i < sizeof raw; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; raw[i] = (unsigned char)x; }
    }
    memcpy(id, "req_", 4);
    for (int i = 0; i < 24; i++) id[4 + i] = digits[raw[i] % 62];
    id[28] = '\0';
}

// OpenAI error "code" values the callers may pass as the type: the type then becomes OpenAI's
// invalid_request_error and the code is kept.
static const char *const http_openai_codes[] = {"model_not_found", "context_length_exceeded", "invalid_api_key"};

static const char *http_default_type(int status) {
    switch (status) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 429: return "rate_limit_error";
    default: return status >= 500 ? "server_error" : "invalid_request_error";
    }
}

// Anthropic's error types follow the status (https://docs.claude.com/en/api/errors).
static const char *http_anthropic_type(int status) {
    switch (status) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "request_too_large";
    case 429: return "rate_limit_error";
    case 503: case 529: return "overloaded_error";
    default: return status >= 500 ? "api_error" : "invalid_request_error";
    }
}

void http_error(struct http_resp *out, enum http_api api, int status, const char *type, const char *param,
                const char *fmt, ...) {
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    if (msg) srv_utf8_clean(msg);
    const char *text = msg ? msg : "error";
    if (!type || !type[0]) type = http_default_type(status);
    if (param && !param[0]) param = NULL;
    json_t *j;
    if (api == HTTP_API_ANTHROPIC) {
        char id[32];
        http_request_id(id);
        // The documented shape carries the request id in the body and in a request-id header.
        j = json_pack("{s:s, s:{s:s, s:s}, s:s}", "type", "error", "error", "type", http_anthropic_type(status),
                      "message", text, "request_id", id);
        http_add_header(out, "request-id", id);
    } else {
        const char *code = NULL;
        for (size_t i = 0; i < sizeof http_openai_codes / sizeof http_openai_codes[0]; i++)
            if (strcmp(type, http_openai_codes[i]) == 0) {
                code = http_openai_codes[i];
                type = status == 401 ? "authentication_error" : "invalid_request_error";
            }
        // An unknown model is a 404 about the "model" field: OpenAI calls it model_not_found.
        if (!code && status == 404 && param && strcmp(param, "model") == 0) code = "model_not_found";
        if (!code && status == 401) code = "invalid_api_key";
        j = json_pack("{s:{s:s, s:s, s:s?, s:s?}}", "error", "message", text, "type", type, "param", param, "code",
                      code);
    }
    free(msg);
    http_json(out, status, j);
}

// ---- the access log ------------------------------------------------------------------------

// A line per request on stderr (unless --log-disable), when the request is over (a stream at its
// end): time (UTC, ms), client, method, path, status, tokens (prompt+completion, "-" for a
// request that generated nothing), milliseconds, and why it ended when not normally.
// --log-format json writes the same as one JSON object. Successful probes (GET /health,
// /metrics) are left out unless --verbose, as the reference leaves them out.
static void http_log_request(const struct http_conn *hc) {
    const struct srv *s = http_srv;
    if (!s || s->cfg.log_disable) return;
    if (!s->cfg.verbose && hc->status == 200 && !strcmp(hc->method, "GET") &&
        (!strcmp(hc->path, "/health") || !strcmp(hc->path, "/metrics")))
        return;
    static const char *const why[] = {"", "connection error", "timed out", "shutdown", "read error", "client gone"};
    // (a request answered on the socket ends with our own close: no reason to report)
    const char *w = !hc->raw_close && hc->toe > 0 && (unsigned)hc->toe < sizeof why / sizeof why[0] ? why[hc->toe] : "";
    double ms = (http_mono() - hc->t0) * 1000.0;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[64];
    snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
    int np = hc->req.log_prompt, nc = hc->req.log_completion;
    if (s->cfg.log_json) {
        json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:f}", "time", when, "client", hc->client, "method",
                              hc->method, "path", hc->path, "status", hc->status, "ms", ms);
        if (j && np >= 0) {
            json_object_set_new(j, "prompt_tokens", json_integer(np));
            json_object_set_new(j, "completion_tokens", json_integer(nc));
        }
        if (j && w[0]) json_object_set_new(j, "ended", json_string(w));
        char *t = j ? json_dumps(j, JSON_COMPACT) : NULL;
        json_decref(j);
        if (t) fprintf(stderr, "%s\n", t);
        free(t);
        return;
    }
    char tok[48] = "-";
    if (np >= 0) snprintf(tok, sizeof tok, "%d+%d", np, nc);
    fprintf(stderr, "%s %s %s %s %d %s tokens %.0f ms%s%s%s\n", when, hc->client, hc->method, hc->path, hc->status, tok,
            ms, w[0] ? " (" : "", w, w[0] ? ")" : "");
}

// ---- auth and CORS -------------------------------------------------------------------------

// Equal strings, in time that depends only on the lengths: every byte is compared and the
// length difference is folded into the result, so no early exit tells how much matched.
static bool http_key_equal(const char *given, const char *key) {
    size_t gl = strlen(given), kl = strlen(key);
    size_t n = gl > kl ? gl : kl;
    volatile unsigned diff = (unsigned)(gl ^ kl);
    for (size_t i = 0; i < n; i++) {
        unsigned char a = i < gl ? (unsigned char)given[i] : 0;
        unsigned char b = i < kl ? (unsigned char)key[i] : 0;
        diff |= (unsigned)(a ^ b);
    }
    return diff == 0;
}

// "Authorization: Bearer KEY" (scheme case-insensitive) or "x-api-key: KEY".
static bool http_authorized(const struct http_req *r, const char *key) {
    bool ok = false;
    const char *auth = http_header(r, "Authorization");
    if (auth) {
        while (*auth == ' ') auth++;
        if (strncasecmp(auth, "Bearer ", 7) == 0) {
            auth += 7;
            while (*auth == ' ') auth++;
            // Trailing blanks are not part of the key.
            size_t n = strlen(auth);
            while (n && (auth[n - 1] == ' ' || auth[n - 1] == '\t')) n--;
            char *tok = strndup(auth, n);
            if (tok) { ok |= http_key_equal(tok, key); free(tok); }
        }
    }
    const char *xkey = http_header(r, "x-api-key");
    if (xkey) ok |= http_key_equal(xkey, key);
    return ok;
}

// The request's Origin when --cors-origin allows it, else NULL.
static const char *http_cors_origin(const struct srv *s, const struct http_req *r) {
    const char *origin = http_header(r, "Origin");
    if (!origin || !origin[0]) return NULL;
    for (int i = 0; i < s->cfg.n_cors; i++) {
        const char *o = s->cfg.cors_origins[i];
        if (o && (strcmp(o, "*") == 0 || strcmp(o, origin) == 0)) return strpbrk(origin, "\r\n") ? NULL : origin;
    }
    return NULL;
}

// ---- responses -----------------------------------------------------------------------------

// Sets the connection's idle timer: off while our own code runs (a handler waiting for a long
// generation, a stream waiting for a token: the client is not idle, we are) and back on
// afterwards. Setting a timeout after zero restarts the timer, so the wait is not counted.
static void http_idle_timer(struct MHD_Connection *mc, bool on) {
    unsigned t = http_srv && http_srv->cfg.timeout_s > 0 ? (unsigned)http_srv->cfg.timeout_s : 0;
    if (t == 0) return;
    MHD_set_connection_option(mc, MHD_CONNECTION_OPTION_TIMEOUT, on ? t : 0u);
}

static ssize_t http_stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    struct http_stream *st = cls;
    if (st->ended) return MHD_CONTENT_READER_END_OF_STREAM;
    http_idle_timer(st->mc, false);
    ssize_t n = st->produce(st->ud, buf, max);
    http_idle_timer(st->mc, true);
    if (n < 0) {
        st->ended = true;
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    // produce() promises > 0; a 0 would make libmicrohttpd's thread spin, so end the stream
    // as broken instead.
    if (n == 0) return MHD_CONTENT_READER_END_WITH_ERROR;
    return n > (ssize_t)max ? (ssize_t)max : n;
}

static void http_stream_free(void *cls) {
    struct http_stream *st = cls;
    if (st->release) st->release(st->ud, !st->ended);
    http_conn_unref(st->hc);
    free(st);
}

// Adds the "Name: value" lines of out->headers. Returns whether a request-id was among them.
static bool http_add_extra_headers(struct MHD_Response *resp, const struct http_resp *out) {
    bool has_id = false;
    for (int i = 0; i < 4; i++) {
        const char *h = out->headers[i];
        const char *colon = h[0] ? strchr(h, ':') : NULL;
        if (!colon || colon == h) continue;
        char name[128];
        size_t nl = (size_t)(colon - h);
        if (nl >= sizeof name) continue;
        memcpy(name, h, nl);
        name[nl] = '\0';
        const char *value = colon + 1;
        while (*value == ' ') value++;
        MHD_add_response_header(resp, name, value);
        if (strcasecmp(name, "request-id") == 0) has_id = true;
    }
    return has_id;
}

// Makes out a libmicrohttpd response (taking out's body or stream); NULL when out of memory.
static struct MHD_Response *http_build(struct http_conn *hc, struct http_resp *out) {
    struct MHD_Response *resp;
    if (out->status < 100 || out->status > 599) {
        // A handler that filled nothing: a bug of ours, never the client's input.
        if (out->release) out->release(out->ud, true);
        out->produce = NULL;
        out->release = NULL;
        http_error(out, hc->req.api, 500, "server_error", NULL, "the handler for %s %s gave no response",
                   hc->req.method, hc->req.path);
    }
    if (out->produce) {
        struct http_stream *st = calloc(1, sizeof *st);
        if (!st) {
            if (out->release) out->release(out->ud, true);
            return NULL;
        }
        st->produce = out->produce;
        st->release = out->release;
        st->ud = out->ud;
        st->mc = hc->req.conn;
        st->hc = hc;
        atomic_fetch_add(&hc->refs, 1);
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, HTTP_STREAM_BLOCK, http_stream_read, st,
                                                 http_stream_free);
        if (!resp) {
            http_stream_free(st);
            return NULL;
        }
        MHD_add_response_header(resp, "Content-Type", out->content_type ? out->content_type : "text/event-stream");
        MHD_add_response_header(resp, "Cache-Control", "no-cache");
        MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    } else {
        if (out->body && out->len > 0) {
            resp = MHD_create_response_from_buffer(out->len, out->body, MHD_RESPMEM_MUST_FREE);
            if (resp) out->body = NULL;
        } else {
            resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        }
        free(out->body);
        out->body = NULL;
        if (!resp) return NULL;
        MHD_add_response_header(resp, "Content-Type", out->content_type ? out->content_type : "application/json");
    }
    char server[64];
    snprintf(server, sizeof server, "frink/%s", frink_version());
    MHD_add_response_header(resp, "Server", server);
    bool has_id = http_add_extra_headers(resp, out);
    if (hc->req.api == HTTP_API_ANTHROPIC && !has_id) {
        char id[32];
        http_request_id(id);
        MHD_add_response_header(resp, "request-id", id);
    }
    const char *origin = http_srv ? http_cors_origin(http_srv, &hc->req) : NULL;
    if (origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
        MHD_add_response_header(resp, "Vary", "Origin");
    }
    return resp;
}

// Whether an answer given before the body (401, 404, 413, 503...) waits for the body to be read
// (and thrown away): a client that writes its whole body before it reads gets the answer instead
// of a reset, since libmicrohttpd, answering at once, closes with the body unread. Not when the
// client waits for "100 Continue" (it sends nothing then), nor for a body too large to be worth
// reading (HTTP_DRAIN_MAX); the body's deadline (twice --timeout) bounds the read.
static bool http_drain_body(struct MHD_Connection *mc) {
    const char *ex = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Expect");
    if (ex && strcasestr(ex, "100-continue")) return false;
    const char *cl = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Content-Length");
    if (!cl) return true; // chunked: read to its end or the deadline
    errno = 0;
    unsigned long long n = strtoull(cl, NULL, 10);
    return errno != ERANGE && n <= HTTP_DRAIN_MAX;
}

// Sends resp (taking it). An answer given before the body is kept for the request's end when
// there is no body or the body is to be read first (http_drain_body); otherwise it is queued at
// once, and libmicrohttpd then skips the body and closes the connection.
static enum MHD_Result http_answer(struct MHD_Connection *mc, struct http_conn *hc, struct MHD_Response *resp,
                                   int status, bool now) {
    if (!resp) return MHD_NO;
    hc->status = status;
    hc->answered = true;
    if (!now && (!hc->expect_body || http_drain_body(mc))) {
        hc->pending = resp;
        return MHD_YES;
    }
    enum MHD_Result ok = MHD_queue_response(mc, (unsigned)status, resp);
    MHD_destroy_response(resp); // the connection holds its own reference (and frees a stream's state)
    return ok;
}

static enum MHD_Result http_queue(struct MHD_Connection *mc, struct http_conn *hc, struct http_resp *out,
                                  bool now) {
    int status = out->status;
    struct MHD_Response *resp = http_build(hc, out);
    return http_answer(mc, hc, resp, resp ? (status >= 100 && status <= 599 ? status : 500) : 500, now);
}

// An error response in the request's API shape, queued at once.
static enum MHD_Result http_fail(struct MHD_Connection *mc, struct http_conn *hc, int status, const char *type,
                                 const char *extra_header, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static enum MHD_Result http_fail(struct MHD_Connection *mc, struct http_conn *hc, int status, const char *type,
                                 const char *extra_header, const char *fmt, ...) {
    struct http_resp out;
    memset(&out, 0, sizeof out);
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    http_error(&out, hc->req.api, status, type, NULL, "%s", msg ? msg : "error");
    free(msg);
    if (extra_header) {
        const char *colon = strchr(extra_header, ':');
        char name[64];
        size_t nl = colon ? (size_t)(colon - extra_header) : 0;
        if (colon && nl < sizeof name) {
            memcpy(name, extra_header, nl);
            name[nl] = '\0';
            http_add_header(&out, name, colon + 2);
        }
    }
    return http_queue(mc, hc, &out, false);
}

// The CORS preflight (OPTIONS with Origin): 204 with what a browser may send, or 403 for an
// origin not in --cors-origin (and then no CORS headers at all).
static enum MHD_Result http_preflight(struct MHD_Connection *mc, struct http_conn *hc) {
    const char *origin = http_cors_origin(http_srv, &hc->req);
    if (!origin) return http_fail(mc, hc, 403, "permission_error", NULL, "origin not allowed by --cors-origin");
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!resp) return MHD_NO;
    char server[64];
    snprintf(server, sizeof server, "frink/%s", frink_version());
    MHD_add_response_header(resp, "Server", server);
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
    MHD_add_response_header(resp, "Vary", "Origin");
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    // The SDKs send x-stainless-* headers whose names vary by version: a listed origin may
    // send whatever it asks for; otherwise the list the clients are known to use.
    const char *asked = http_header(&hc->req, "Access-Control-Request-Headers");
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            asked && asked[0] && !strpbrk(asked, "\r\n")
                                ? asked
                                : "Authorization, Content-Type, x-api-key, anthropic-version, anthropic-beta, "
                                  "anthropic-dangerous-direct-browser-access, openai-organization, openai-project");
    MHD_add_response_header(resp, "Access-Control-Max-Age", HTTP_PREFLIGHT_MAX_AGE);
    return http_answer(mc, hc, resp, 204, false);
}

// Answers without libmicrohttpd, which cannot queue a response while an upload is arriving;
// the connection is closed right after (the rest of the upload is not read).
static void http_raw_error(struct http_conn *hc, int status, const char *reason, const char *type,
                           const char *msg) {
    struct http_resp out;
    memset(&out, 0, sizeof out);
    http_error(&out, hc->req.api, status, type, NULL, "%s", msg);
    char head[512];
    int hn = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                      "Server: frink/%s\r\nConnection: close\r\n\r\n",
                      status, reason, out.len, frink_version());
    if (hc->req.fd >= 0 && hn > 0 && hn < (int)sizeof head) {
        if (send(hc->req.fd, head, (size_t)hn, MSG_NOSIGNAL | MSG_DONTWAIT) == hn && out.body)
            (void)!send(hc->req.fd, out.body, out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    free(out.body);
    hc->status = status;
    hc->answered = true;
}

// ---- the access handler --------------------------------------------------------------------

static struct http_sock *http_sock_of(struct MHD_Connection *mc) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? (struct http_sock *)ci->socket_context : NULL;
}

// First call for a request: the headers are in. Routes it and answers what needs no body.
static enum MHD_Result http_begin(struct MHD_Connection *mc, struct http_conn *hc, const char *url,
                                  const char *method) {
    struct srv *s = http_srv;
    struct http_req *r = &hc->req;
    struct http_sock *sk = http_sock_of(mc);
    if (sk) {
        pthread_mutex_lock(&http_socks_mu);
        sk->in_request = true;
        pthread_mutex_unlock(&http_socks_mu);
    }
    r->method = method;
    r->path = url;
    r->api = http_path_api(url);
    r->conn = mc;
    r->log_prompt = r->log_completion = -1;
    snprintf(hc->method, sizeof hc->method, "%s", method);
    snprintf(hc->path, sizeof hc->path, "%s", url);
    srv_utf8_clean(hc->path);
    hc->toe = -1;
    atomic_fetch_add(&http_n_requests, 1);
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(hc->client, sizeof hc->client, "?");
    if (ai && ai->client_addr) {
        char host[INET6_ADDRSTRLEN] = "?";
        const struct sockaddr *sa = ai->client_addr;
        int port = 0;
        if (sa->sa_family == AF_INET) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
            inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
            port = ntohs(in->sin_port);
            snprintf(hc->client, sizeof hc->client, "%s:%d", host, port);
        } else if (sa->sa_family == AF_INET6) {
            const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
            inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
            port = ntohs(in6->sin6_port);
            snprintf(hc->client, sizeof hc->client, "[%s]:%d", host, port);
        }
    }
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
    r->fd = ci ? (int)ci->connect_fd : -1;
    const char *cl = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Content-Length");
    hc->expect_body = (cl && strtoull(cl, NULL, 10) > 0) ||
                      MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Transfer-Encoding") != NULL;

    // Shutting down, or past the connection limit: a 503 the client can read (then the connection
    // closes), not a reset.
    bool draining = atomic_load(&http_draining);
    if (draining || atomic_load(&http_n_conns) > HTTP_CONN_LIMIT) {
        struct http_resp out;
        memset(&out, 0, sizeof out);
        if (draining)
            http_error(&out, r->api, 503, "unavailable_error", NULL, "the server is shutting down");
        else
            http_error(&out, r->api, 503, "unavailable_error", NULL,
                       "too many connections: the server takes %d at once; retry later", HTTP_CONN_LIMIT);
        http_add_header(&out, "Retry-After", "1");
        http_add_header(&out, "Connection", "close");
        return http_queue(mc, hc, &out, false);
    }

    bool is_options = strcmp(method, "OPTIONS") == 0;
    // A preflight carries no credentials by design: answer it before the key check.
    if (is_options && http_header(r, "Origin") && http_header(r, "Access-Control-Request-Method"))
        return http_preflight(mc, hc);

    if (s->cfg.api_key && s->cfg.api_key[0] && !(strcmp(url, "/health") == 0 && strcmp(method, "GET") == 0) &&
        !webui_is_public(s, method, url) && !http_authorized(r, s->cfg.api_key))
        return http_fail(mc, hc, 401, "authentication_error", "WWW-Authenticate: Bearer",
                         "invalid or missing API key: send \"Authorization: Bearer KEY\" or \"x-api-key: KEY\"");

    // HEAD is GET without the body (libmicrohttpd drops the body).
    const char *want = strcmp(method, "HEAD") == 0 ? "GET" : method;
    char allow[32] = "";
    const char *arg = NULL;
    for (size_t i = 0; i < HTTP_N_ROUTES; i++) {
        const struct http_route *rt = &http_routes[i];
        const char *a;
        if (!http_route_match(rt, url, &a)) continue;
        if (strcmp(rt->method, want) == 0) {
            hc->route = rt;
            arg = a;
            break;
        }
        if (!strstr(allow, rt->method)) {
            if (allow[0]) strcat(allow, ", ");
            strcat(allow, rt->method);
        }
    }
    if (!hc->route && !allow[0])
        return http_fail(mc, hc, 404, "not_found_error", NULL, "no route for %s %s", method, url);
    if (!hc->route) {
        if (is_options) {
            // OPTIONS without a preflight's headers: say what the path accepts.
            struct http_resp out;
            memset(&out, 0, sizeof out);
            out.status = 204;
            char hdr[64];
            snprintf(hdr, sizeof hdr, "%s, OPTIONS", allow);
            http_add_header(&out, "Allow", hdr);
            return http_queue(mc, hc, &out, false);
        }
        char hdr[64];
        snprintf(hdr, sizeof hdr, "Allow: %s", allow);
        return http_fail(mc, hc, 405, "invalid_request_error", hdr, "method %s not allowed on %s (allowed: %s)",
                         method, url, allow);
    }
    r->api = hc->route->api;
    r->route_arg = arg;

    if (strcmp(want, "GET") == 0) {
        hc->discard = true;
        return MHD_YES;
    }
    if (cl) {
        errno = 0;
        unsigned long long n = strtoull(cl, NULL, 10);
        // libmicrohttpd has already refused a malformed length; an absurd one is simply large.
        if (errno == ERANGE || n > http_max_body(s)) {
            char msg[160];
            snprintf(msg, sizeof msg, "request body of %.24s bytes is over the limit of %zu bytes (--max-body)", cl,
                     http_max_body(s));
            if (!http_drain_body(mc)) return http_fail(mc, hc, 413, "invalid_request_error", NULL, "%s", msg);
            // Answered at once, on the socket, and the body then read and dropped to its end
            // before the connection closes: a client that reads while it sends sees the 413
            // early, one that writes everything first still gets it (no reset).
            http_raw_error(hc, 413, "Content Too Large", "invalid_request_error", msg);
            hc->raw_close = true;
        }
    }
    return MHD_YES;
}

// A piece of the upload. Returns MHD_NO to drop the connection (after a raw 408).
static enum MHD_Result http_upload(struct http_conn *hc, const char *data, size_t n) {
    struct srv *s = http_srv;
    if (s->cfg.timeout_s > 0 && http_mono() - hc->t0 > 2.0 * s->cfg.timeout_s) {
        // A body still arriving long after it began: a trickling client holding a thread.
        char msg[160];
        snprintf(msg, sizeof msg, "request body not complete within %d s (twice --timeout)", 2 * s->cfg.timeout_s);
        if (hc->too_large)
            http_raw_error(hc, 413, "Content Too Large", "invalid_request_error", "request body over --max-body");
        else
            http_raw_error(hc, 408, "Request Timeout", "invalid_request_error", msg);
        return MHD_NO;
    }
    if (hc->discard || hc->too_large) return MHD_YES;
    if (hc->len + n > http_max_body(s)) {
        // A chunked upload has no Content-Length to refuse up front: drop what came and the
        // rest, and answer 413 once it is over.
        hc->too_large = true;
        free(hc->body);
        hc->body = NULL;
        hc->len = hc->cap = 0;
        return MHD_YES;
    }
    if (hc->len + n + 1 > hc->cap) {
        size_t cap = hc->cap ? hc->cap : 4096;
        while (cap < hc->len + n + 1) cap *= 2;
        if (cap > http_max_body(s) + 1) cap = http_max_body(s) + 1;
        char *b = realloc(hc->body, cap);
        if (!b) {
            // Out of memory for a body under the limit: answered like one over it.
            hc->too_large = true;
            free(hc->body);
            hc->body = NULL;
            hc->len = hc->cap = 0;
            return MHD_YES;
        }
        hc->body = b;
        hc->cap = cap;
    }
    memcpy(hc->body + hc->len, data, n);
    hc->len += n;
    hc->body[hc->len] = '\0';
    return MHD_YES;
}

static enum MHD_Result http_access(void *cls, struct MHD_Connection *mc, const char *url, const char *method,
                                   const char *version, const char *upload_data, size_t *upload_data_size,
                                   void **con_cls) {
    (void)cls;
    (void)version;
    struct http_conn *hc = *con_cls;
    if (!hc) {
        hc = calloc(1, sizeof *hc);
        if (!hc) return MHD_NO;
        atomic_init(&hc->refs, 1);
        hc->t0 = http_mono();
        hc->req.fd = -1;
        *con_cls = hc;
        return http_begin(mc, hc, url, method);
    }
    if (hc->pending && *upload_data_size == 0) {
        struct MHD_Response *resp = hc->pending;
        hc->pending = NULL;
        enum MHD_Result ok = MHD_queue_response(mc, (unsigned)hc->status, resp);
        MHD_destroy_response(resp);
        return ok;
    }
    if (hc->answered) {
        // Answered early (413, 401...): the body is read and dropped, within its deadline.
        if (hc->raw_close && *upload_data_size == 0) return MHD_NO; // all read: close (the answer is sent)
        *upload_data_size = 0;
        if (http_srv->cfg.timeout_s > 0 && http_mono() - hc->t0 > 2.0 * http_srv->cfg.timeout_s) return MHD_NO;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        return http_upload(hc, upload_data, n);
    }
    // The whole request is in.
    struct http_req *r = &hc->req;
    if (hc->too_large)
        return http_fail(mc, hc, 413, "invalid_request_error", NULL,
                         "request body is over the limit of %zu bytes (--max-body)", http_max_body(http_srv));
    if (hc->discard) {
        free(hc->body);
        hc->body = NULL;
        hc->len = 0;
    }
    r->body = hc->body ? hc->body : "";
    r->body_len = hc->len;
    struct http_resp out;
    memset(&out, 0, sizeof out);
    http_idle_timer(mc, false);
    hc->route->fn(http_srv, r, &out);
    http_idle_timer(mc, true);
    return http_queue(mc, hc, &out, true);
}

static void http_completed(void *cls, struct MHD_Connection *mc, void **con_cls,
                           enum MHD_RequestTerminationCode toe) {
    (void)cls;
    struct http_conn *hc = *con_cls;
    *con_cls = NULL;
    struct http_sock *sk = http_sock_of(mc);
    if (sk) {
        pthread_mutex_lock(&http_socks_mu);
        sk->in_request = false;
        sk->phase_start = http_mono();
        pthread_mutex_unlock(&http_socks_mu);
    }
    if (!hc) return;
    if (hc->pending) {
        MHD_destroy_response(hc->pending);
        hc->pending = NULL;
    }
    hc->toe = (int)toe; // the access line is written when the last reference goes
    // The path and method strings belong to libmicrohttpd's request: a stream that outlives
    // the request must not read them.
    hc->req.method = NULL;
    hc->req.path = NULL;
    hc->req.conn = NULL;
    hc->req.route_arg = NULL;
    http_conn_unref(hc);
}

// ---- connections and the header watchdog ---------------------------------------------------

static void http_notify_conn(void *cls, struct MHD_Connection *mc, void **socket_context,
                             enum MHD_ConnectionNotificationCode toe) {
    (void)cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        atomic_fetch_add(&http_n_conns, 1);
        struct http_sock *sk = calloc(1, sizeof *sk);
        if (!sk) return;
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
        sk->fd = ci ? (int)ci->connect_fd : -1;
        sk->phase_start = http_mono();
        pthread_mutex_lock(&http_socks_mu);
        sk->next = http_socks;
        if (http_socks) http_socks->prev = sk;
        http_socks = sk;
        pthread_mutex_unlock(&http_socks_mu);
        *socket_context = sk;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        atomic_fetch_sub(&http_n_conns, 1);
        struct http_sock *sk = *socket_context;
        if (!sk) return;
        // Under the lock, so the watchdog never shuts down a descriptor reused by a new socket.
        pthread_mutex_lock(&http_socks_mu);
        if (sk->prev) sk->prev->next = sk->next;
        else http_socks = sk->next;
        if (sk->next) sk->next->prev = sk->prev;
        pthread_mutex_unlock(&http_socks_mu);
        free(sk);
        *socket_context = NULL;
    }
}

// Every second: a connection that has spent more than twice --timeout sending one request's
// headers (a byte now and then resets libmicrohttpd's idle timer) is shut down; its thread
// then sees the end of the stream and closes it.
static void *http_watchdog(void *arg) {
    (void)arg;
    double limit = 2.0 * http_srv->cfg.timeout_s;
    pthread_mutex_lock(&http_socks_mu);
    while (!http_watch_stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&http_watch_cv, &http_socks_mu, &ts);
        double now = http_mono();
        for (struct http_sock *sk = http_socks; sk; sk = sk->next) {
            if (sk->in_request || sk->cut || sk->fd < 0 || now - sk->phase_start <= limit) continue;
            shutdown(sk->fd, SHUT_RDWR);
            sk->cut = true;
            if (http_srv->cfg.verbose)
                fprintf(stderr, "frink serve: dropped a client still sending headers after %.0f s\n", limit);
        }
    }
    pthread_mutex_unlock(&http_socks_mu);
    return NULL;
}

// ---- the daemon ----------------------------------------------------------------------------

static void http_log(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    // Said whenever the access handler closes a connection on purpose (a body read after an
    // answer sent on the socket, a trickling upload): the access log has the request.
    if (!strncmp(msg, "Application reported internal error", 35)) return;
    size_t n = strlen(msg);
    fprintf(stderr, "frink serve: %s%s", msg, n && msg[n - 1] == '\n' ? "" : "\n");
}

static bool http_is_loopback(const struct sockaddr *sa) {
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a)) return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

// Starts one daemon on host (one address of --host) and port. Returns it, or NULL after
// printing why (no such address, a public one without a key, cannot bind).
static struct MHD_Daemon *http_listen(struct srv *s, const char *host, int port_num) {
    // "[::1]" as written in URLs.
    char hostbuf[256];
    size_t hl = strlen(host);
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']' && hl - 2 < sizeof hostbuf) {
        memcpy(hostbuf, host + 1, hl - 2);
        hostbuf[hl - 2] = '\0';
        host = hostbuf;
    }
    char port[16];
    snprintf(port, sizeof port, "%d", port_num);
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int gerr = getaddrinfo(host, port, &hints, &ai);
    if (gerr != 0 || !ai) {
        fprintf(stderr, "frink serve: --host %s: %s\n", host, gerr ? gai_strerror(gerr) : "no address");
        if (ai) freeaddrinfo(ai);
        return NULL;
    }
    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof addr);
    memcpy(&addr, ai->ai_addr, ai->ai_addrlen < sizeof addr ? ai->ai_addrlen : sizeof addr);
    freeaddrinfo(ai);
    bool has_key = s->cfg.api_key && s->cfg.api_key[0];
    if (!http_is_loopback((struct sockaddr *)&addr) && !has_key && !s->cfg.insecure_public) {
        fprintf(stderr,
                "frink serve: refusing to listen on %s without an API key: anyone who can reach it could use it; "
                "give --api-key (or --api-key-file), or --insecure-public to allow it anyway\n",
                host);
        return NULL;
    }
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
                     MHD_USE_ERROR_LOG;
    if (addr.ss_family == AF_INET6) {
        // The unspecified address "::" takes IPv4 clients too; a specific one only itself.
        const struct in6_addr *a = &((struct sockaddr_in6 *)&addr)->sin6_addr;
        flags |= IN6_IS_ADDR_UNSPECIFIED(a) ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    }
    unsigned timeout = s->cfg.timeout_s > 0 ? (unsigned)s->cfg.timeout_s : 0;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port_num, NULL, NULL, http_access, NULL, MHD_OPTION_EXTERNAL_LOGGER, http_log, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(HTTP_CONN_LIMIT + HTTP_CONN_SPARE), MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)HTTP_CONN_MEMORY, MHD_OPTION_NOTIFY_COMPLETED, http_completed, NULL, MHD_OPTION_NOTIFY_CONNECTION,
        http_notify_conn, NULL, MHD_OPTION_END);
    if (!d) fprintf(stderr, "frink serve: cannot listen on %s port %d (in use, or not an address of this machine?)\n", host, port_num);
    return d;
}

int http_start(struct srv *s, int *bound) {
    if (http_daemon) {
        fprintf(stderr, "frink serve: the HTTP server is already running\n");
        return -1;
    }
    const char *hosts = s->cfg.host && s->cfg.host[0] ? s->cfg.host : "127.0.0.1";
    if (s->cfg.port < 0 || s->cfg.port > 65535) {
        fprintf(stderr, "frink serve: --port %d is not a TCP port (0..65535)\n", s->cfg.port);
        return -1;
    }
    http_srv = s;
    // --host A,B: a daemon per address, all on the first one's port (--port 0 picks it once).
    int port = s->cfg.port;
    for (const char *h = hosts; *h;) {
        size_t n = strcspn(h, ",");
        char host[256];
        snprintf(host, sizeof host, "%.*s", (int)(n < sizeof host ? n : sizeof host - 1), h);
        h += n + (h[n] == ',');
        struct MHD_Daemon *d = n && http_n_extra < HTTP_MAX_HOSTS ? http_listen(s, host, port) : NULL;
        if (!d) {
            if (n && http_n_extra == HTTP_MAX_HOSTS) fprintf(stderr, "frink serve: --host: at most %d addresses\n", HTTP_MAX_HOSTS + 1);
            http_stop();
            http_srv = NULL;
            return -1;
        }
        if (!http_daemon) {
            http_daemon = d;
            const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
            if (di) port = (int)di->port;
        } else {
            http_extra[http_n_extra++] = d;
        }
    }
    if (bound) *bound = port;
    if (s->cfg.timeout_s > 0) {
        http_watch_stop = false;
        http_watch_running = pthread_create(&http_watch_thread, NULL, http_watchdog, NULL) == 0;
    }
    return 0;
}

void http_drain(void) { atomic_store(&http_draining, true); }

bool http_idle(void) { return atomic_load(&http_n_requests) == 0; }

void http_stop(void) {
    if (http_watch_running) {
        pthread_mutex_lock(&http_socks_mu);
        http_watch_stop = true;
        pthread_cond_signal(&http_watch_cv);
        pthread_mutex_unlock(&http_socks_mu);
        pthread_join(http_watch_thread, NULL);
        http_watch_running = false;
    }
    while (http_n_extra) MHD_stop_daemon(http_extra[--http_n_extra]);
    if (http_daemon) {
        MHD_stop_daemon(http_daemon);
        http_daemon = NULL;
    }
}
