// server.h — `frink serve`: what the server's parts share. The server is a client of the
// public API (frink.h) like the CLI; HTTP comes from libmicrohttpd, JSON from jansson.
//
//   http.c      the HTTP layer: the daemon, routing, auth, CORS, limits, timeouts, SSE
//               responses; a handler gets a whole request and fills a struct http_resp.
//   sched.c     the scheduler: one thread owns the frink_context; -np slots (sequences)
//               share it; every step is one frink_decode mixing prefill chunks and one
//               decode token of each running request; prefix reuse across requests.
//   run.c       a request's generation as the API layers see it: n tasks, the chat output
//               parser over their text, events (content, reasoning, tool calls, logprobs).
//   api_*.c     the wire formats: OpenAI (chat, completions, models), Anthropic (messages,
//               count_tokens), Responses, llama-server's /completion (api_native.c);
//               api_util.c the validation and error helpers.
//   webui.c     the web chat's static files at / (src/server/webui/, compiled in).
//   serve.c     start-up (srv_main), /health, /slots, /metrics, /props. The flags of `frink
//               serve` are the CLI's (src/cli/serve.c): it fills a struct srv_config.
//
// Threads: libmicrohttpd runs a thread per connection; handlers run there and may block
// (waiting for their tasks' output). The scheduler thread is the only one that touches the
// context and its sequences.
#ifndef FRINK_SERVER_H
#define FRINK_SERVER_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "frink.h"

// ---- configuration --------------------------------------------------------------------

struct srv_config {
    const char *model_path;      // NULL: the embedded default model
    const char *device;          // frink_model_params.device ("cpu", "cuda"; NULL: FRINK_DEVICE, else cpu)
    const char *host;            // "127.0.0.1" by default
    int port;                    // 8080 by default; 0 picks a free one (printed)
    int n_slots;                 // -np: sequences decoding at once (default 4)
    int n_ctx;                   // -c: tokens of context per slot (0: the model's, capped at 8192)
    int n_batch;                 // -b: the per-step token budget (prefill chunks + decode tokens)
    int n_threads;               // -t
    int max_queue;               // requests waiting for a slot before 503 (default 64)
    size_t cache_bytes;          // --cache-ram: the prefix cache's budget in bytes
    const char *api_key;         // NULL: no key
    const char *alias;           // the model's name on the wire (default: the file's basename)
    const char *slot_save_path;  // NULL: slot save/restore refused
    bool metrics;                // GET /metrics enabled
    const char **cors_origins;   // --cors-origin values (exact match; "*" allowed)
    int n_cors;
    bool insecure_public;        // allow a non-loopback bind without a key
    size_t max_body;             // bytes (default 16 MiB)
    int timeout_s;               // read timeout of an idle or trickling connection (default 30)
    int n_predict;               // default max tokens when a request gives none (-n; -1: to the context)
    const char *chat_template_file; // NULL: the model's own
    bool allow_unread;
    int kv_type;                 // frink_kv_type
    int gdn_chunk;
    bool reference;              // --reference: the context runs the scalar reference kernels
    int verbose;                 // 1: probes (GET /health, /metrics) in the access log too
    bool log_disable;            // --log-disable: no access log
    bool log_json;               // --log-format json (--log-jsonl): access lines as JSON objects
    // Server-wide defaults of a request that does not set them (llama-server's --temp, --top-k,
    // ..., --seed): the sampler's fields; its logit bias is never set here.
    frink_sampler_params sampling;
    bool has_seed;               // --seed S: requests without a seed use sampling.seed (else random)
    int reasoning;               // --reasoning: 1 on, 0 off (the template's enable_thinking), -1 auto
    bool no_slots;               // --no-slots: GET /slots answers 501
    const char *tags;            // --tags: informational model tags (GET /v1/models, /props)
    bool embeddings;             // --embeddings (or --reranking): the embedding endpoints answer
    int pooling;                 // --pooling: a frink_pooling (UNSPECIFIED: the file's, else none)
    bool no_webui;               // --no-webui: no web chat at / (a 404, as any unknown path)
    // Speculative decoding in every slot (--spec, -md, --draft-max, ...): kind NONE, none. A
    // request's speculative.n_max / n_min / p_min override the lengths (n_max 0: off for it).
    frink_spec_params spec;      // draft_ctx unset: the scheduler makes a draft context per slot
    const char *draft_path;      // -md: the draft model
    int draft_ctx, draft_threads; // -cd, -td (0: the slot's context, the server's threads)
    // A status line while the weights load (the CLI's, on a terminal; NULL: none): load_begin
    // gets what is loading and returns a handle (may be NULL) that load_end takes once it ends.
    void *(*load_begin)(const char *what);
    void (*load_end)(void *handle);
};

struct sched;

// Runs the server until SIGINT or SIGTERM: the HTTP daemon first (so /health answers 503 while
// the model loads), then the model, the template and the scheduler. cfg is copied; the strings
// it points to must outlive the call. Prints "listening on" (stdout) and every error (stderr).
// Returns the process's exit status: 0 after a signal, 1 or 2 when start-up failed.
int srv_main(const struct srv_config *cfg);

// The running server. Set up by serve.c before the daemon starts; read-only afterwards
// except `ready` (set once the model is loaded) and the metrics.
struct srv {
    struct srv_config cfg;
    atomic_bool ready;           // false while loading: /health answers 503
    atomic_bool stopping;        // draining (SIGTERM): a cancelled stream still gets its final event
    frink_model *model;
    frink_template *tmpl;        // the chat template in use
    bool tmpl_is_chatml;         // the model had none
    const char *model_id;        // cfg.alias or the file's basename
    int64_t created;             // unix time the server started (the model's "created")
    char fingerprint[32];        // system_fingerprint: "fp_" + hex of the model identity
    struct sched *sched;
    int n_ctx;                   // per slot, resolved
    int pooling;                 // with cfg.embeddings: the frink_pooling in use, resolved at load
    // metrics (atomics; sched.c owns the token counters)
    atomic_uint_fast64_t n_requests, n_requests_failed;
};

// ---- HTTP ------------------------------------------------------------------------------

// The API a route belongs to: it decides the shape of its error bodies.
enum http_api { HTTP_API_OPENAI, HTTP_API_ANTHROPIC };

struct http_req {
    const char *method;          // "GET", "POST", ...
    const char *path;            // without the query string
    const char *body;            // NUL-terminated (the NUL is not counted in body_len)
    size_t body_len;
    int fd;                      // the client's socket: polled for hang-up by the scheduler
    enum http_api api;
    void *conn;                  // the libmicrohttpd connection (http.c only)
    const char *route_arg;       // the {id} of /slots/{id} (NULL otherwise)
    int log_prompt, log_completion; // tokens of its generation, for the access log (-1: none)
};

// The value of a request header (case-insensitive name) or of a query argument; NULL
// when absent. Valid while the request is.
const char *http_header(const struct http_req *r, const char *name);
const char *http_query(const struct http_req *r, const char *name);

// A response. Either a whole body (body/len, freed with free) or a stream: produce() is
// called in the connection's thread until it returns -1; it may block (a stream waits for
// tokens); it returns the bytes it wrote into buf (at most max, > 0) or -1 at the end.
// release() is called once when the response is done or the client went away; it must
// cancel what the stream waits for. `aborted` (set by the HTTP layer before release when
// the client disconnected or a write failed) lets the producer tell the two apart.
struct http_resp {
    int status;
    const char *content_type;    // static; NULL: "application/json"
    char *body;
    size_t len;
    ssize_t (*produce)(void *ud, char *buf, size_t max);
    void (*release)(void *ud, bool aborted);
    void *ud;
    char headers[4][128];        // extra "Name: value" lines (Retry-After, ...); "" unused
};

typedef void (*http_handler)(struct srv *s, struct http_req *r, struct http_resp *out);

// Starts the daemon on s->cfg.host:port (port 0: any; *bound gets the port). Returns 0, or
// -1 with a message on stderr.
int http_start(struct srv *s, int *bound);
// Shutting down: from now on every new request is answered 503 (then its connection closes).
void http_drain(void);
// Whether no request is in flight (every one answered, every stream ended and logged).
bool http_idle(void);
void http_stop(void);

// A whole JSON response; takes the reference to j.
void http_json(struct http_resp *out, int status, json_t *j);
// An error in the request's API shape:
//   OpenAI:    {"error": {"message", "type", "param", "code"}}
//   Anthropic: {"type": "error", "error": {"type", "message"}}
// `type` is OpenAI's ("invalid_request_error", "authentication_error", "not_found_error",
// "server_error", ...); the Anthropic shape maps it ("overloaded_error" for 503/529,
// "rate_limit_error" for 429, "permission_error"...). param may be NULL.
void http_error(struct http_resp *out, enum http_api api, int status, const char *type, const char *param,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));
// Makes s valid UTF-8 in place: each byte that does not begin a valid character becomes '?'
// (error messages quote clients' bytes; JSON strings must be valid UTF-8). In run.c.
void srv_utf8_clean(char *s);
// Adds "Name: value" to the response's headers.
void http_add_header(struct http_resp *out, const char *name, const char *value);

// ---- routes (implemented by the api_*.c files and serve.c) ---------------------------------

void api_chat_completions(struct srv *s, struct http_req *r, struct http_resp *out); // POST /v1/chat/completions
void api_completions(struct srv *s, struct http_req *r, struct http_resp *out);      // POST /v1/completions
void api_completion_native(struct srv *s, struct http_req *r, struct http_resp *out); // POST /completion (api_native.c)
void api_models(struct srv *s, struct http_req *r, struct http_resp *out);           // GET /v1/models, /models
void api_model_get(struct srv *s, struct http_req *r, struct http_resp *out);        // GET /v1/models/{id}
void api_messages(struct srv *s, struct http_req *r, struct http_resp *out);         // POST /v1/messages
void api_count_tokens(struct srv *s, struct http_req *r, struct http_resp *out);     // POST /v1/messages/count_tokens
void api_responses(struct srv *s, struct http_req *r, struct http_resp *out);        // POST /v1/responses
void api_tokenize(struct srv *s, struct http_req *r, struct http_resp *out);         // POST /tokenize
void api_detokenize(struct srv *s, struct http_req *r, struct http_resp *out);       // POST /detokenize
void api_apply_template(struct srv *s, struct http_req *r, struct http_resp *out);   // POST /apply-template
void api_embeddings(struct srv *s, struct http_req *r, struct http_resp *out);       // POST /v1/embeddings (api_embed.c)
void api_rerank(struct srv *s, struct http_req *r, struct http_resp *out);           // POST /v1/rerank (api_embed.c)
void serve_health(struct srv *s, struct http_req *r, struct http_resp *out);         // GET /health
void serve_slots(struct srv *s, struct http_req *r, struct http_resp *out);          // GET /slots
void serve_slot_action(struct srv *s, struct http_req *r, struct http_resp *out);    // POST /slots/{id}?action=
void serve_metrics(struct srv *s, struct http_req *r, struct http_resp *out);        // GET /metrics
void serve_props(struct srv *s, struct http_req *r, struct http_resp *out);          // GET /props
void serve_webui(struct srv *s, struct http_req *r, struct http_resp *out);          // GET /, /webui/{file} (webui.c)
// Is this request one of the web chat's static files, served without the API key (webui.c)?
bool webui_is_public(const struct srv *s, const char *method, const char *path);

#endif
