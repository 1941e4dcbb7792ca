// fuzz_request.c — libFuzzer target for the server's request handling (src/server/api_*.c and
// run.c): the input is the body of a POST, handed to every POST route's handler.
//
// The server is the embedded model (stories260K) with no scheduler: a valid request is parsed,
// validated, rendered with the chat template, tokenized and its grammar compiled, then refused
// with 503 "loading" (run.h). Each input runs twice, under the model's own template (ChatML)
// and under Qwen3's (tools, enable_thinking), so both sides of every run_template_knows branch
// are reached. Checked: no crash, no leak, no undefined behaviour (ASan, LSan, UBSan); every
// response a whole JSON object — an error object for a status >= 400, never a 500 (bad input
// is the client's fault) — and no handler answers with a stream (a stream needs a run, and
// there is none to run).
//
// The HTTP layer (http.c, libmicrohttpd) is not linked: http_json, http_error and
// http_add_header below stand in for it, and build the error shapes the same way.
//
// Build and run: `make fuzz-request FUZZ_SECONDS=15` (clang; it links $(B)/libfrink.a).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

// ---- the HTTP layer's response helpers --------------------------------------------------

void http_json(struct http_resp *out, int status, json_t *j) {
    out->status = status;
    out->body = j ? json_dumps(j, JSON_COMPACT) : NULL;
    out->len = out->body ? strlen(out->body) : 0;
    json_decref(j);
}

void http_error(struct http_resp *out, enum http_api api, int status, const char *type, const char *param,
                const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!type || !type[0]) type = "invalid_request_error";
    json_t *j;
    if (api == HTTP_API_ANTHROPIC)
        j = json_pack("{s:s, s:{s:s, s:s}}", "type", "error", "error", "type", type, "message", msg);
    else
        j = json_pack("{s:{s:s, s:s, s:s?}}", "error", "message", msg, "type", type, "param",
                      param && param[0] ? param : NULL);
    // A message that is not valid UTF-8 (a handler quoting raw bytes) makes json_pack fail:
    // that is a bug of the handler, caught below as a missing body.
    http_json(out, status, j);
}

void http_add_header(struct http_resp *out, const char *name, const char *value) {
    for (int i = 0; i < 4; i++) {
        if (!out->headers[i][0]) {
            snprintf(out->headers[i], sizeof out->headers[i], "%s: %s", name, value);
            return;
        }
    }
}

const char *http_header(const struct http_req *r, const char *name) {
    (void)r;
    (void)name;
    return NULL;
}

const char *http_query(const struct http_req *r, const char *name) {
    (void)r;
    (void)name;
    return NULL;
}

// ---- the server -----------------------------------------------------------------------------

static struct srv fz_srv;
static frink_template *fz_tmpl[2];
static int fz_n_tmpl;

static const struct {
    const char *path;
    http_handler fn;
    enum http_api api;
} fz_routes[] = {
    {"/v1/chat/completions", api_chat_completions, HTTP_API_OPENAI},
    {"/v1/completions", api_completions, HTTP_API_OPENAI},
    {"/v1/messages", api_messages, HTTP_API_ANTHROPIC},
    {"/v1/messages/count_tokens", api_count_tokens, HTTP_API_ANTHROPIC},
    {"/v1/responses", api_responses, HTTP_API_OPENAI},
    {"/tokenize", api_tokenize, HTTP_API_OPENAI},
    {"/detokenize", api_detokenize, HTTP_API_OPENAI},
    {"/apply-template", api_apply_template, HTTP_API_OPENAI},
    {"/v1/embeddings", api_embeddings, HTTP_API_OPENAI},
};

static char *fz_read(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        *len = (size_t)n;
    }
    return b;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    frink_model_params mp = frink_model_default_params();
    if (frink_model_open(&mp, &fz_srv.model) != FRINK_OK) {
        fprintf(stderr, "fuzz_request: the embedded model: %s\n", frink_errmsg());
        abort();
    }
    bool chatml = false;
    if (frink_model_template(fz_srv.model, &fz_tmpl[0], &chatml) != FRINK_OK) {
        fprintf(stderr, "fuzz_request: the model's template: %s\n", frink_errmsg());
        abort();
    }
    fz_n_tmpl = 1;
    // run from the repository root (make does); without the file the second pass is skipped
    size_t len = 0;
    char *src = fz_read("tests/data/templates/Qwen-Qwen3-0.6B.jinja", &len);
    if (src && frink_template_parse(fz_srv.model, src, len, &fz_tmpl[1]) == FRINK_OK) fz_n_tmpl = 2;
    free(src);
    fz_srv.tmpl_is_chatml = chatml;
    fz_srv.model_id = "stories260K";
    fz_srv.created = 1700000000;
    snprintf(fz_srv.fingerprint, sizeof fz_srv.fingerprint, "fp_fuzz");
    fz_srv.sched = NULL;
    fz_srv.n_ctx = 2048;
    fz_srv.cfg.n_slots = 1;
    fz_srv.cfg.n_ctx = 2048;
    fz_srv.cfg.n_predict = -1;
    fz_srv.cfg.max_queue = 1;
    atomic_store(&fz_srv.ready, false);
    return 0;
}

// The response must be one JSON object; an error status must carry an error.
static void fz_check(const char *route, const struct http_resp *out) {
    if (out->produce) {
        fprintf(stderr, "fuzz_request: %s answered with a stream without a scheduler\n", route);
        abort();
    }
    if (out->status == 500) {
        fprintf(stderr, "fuzz_request: %s answered 500: %.*s\n", route, (int)out->len, out->body ? out->body : "");
        abort();
    }
    if (out->status < 200 || out->status > 599 || !out->body) {
        fprintf(stderr, "fuzz_request: %s answered status %d with %s body\n", route, out->status,
                out->body ? "a" : "no");
        abort();
    }
    json_error_t je;
    json_t *j = json_loadb(out->body, out->len, 0, &je);
    if (!json_is_object(j)) {
        fprintf(stderr, "fuzz_request: %s: the body is not a JSON object: %.200s\n", route, out->body);
        abort();
    }
    if (out->status >= 400 && !json_is_object(json_object_get(j, "error"))) {
        fprintf(stderr, "fuzz_request: %s: status %d without an error object: %.200s\n", route, out->status,
                out->body);
        abort();
    }
    json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *body = malloc(size + 1); // the HTTP layer hands handlers a NUL-terminated body
    if (!body) return 0;
    if (size) memcpy(body, data, size);
    body[size] = 0;
    for (int t = 0; t < fz_n_tmpl; t++) {
        fz_srv.tmpl = fz_tmpl[t];
        for (size_t i = 0; i < sizeof fz_routes / sizeof fz_routes[0]; i++) {
            struct http_req r = {.method = "POST", .path = fz_routes[i].path, .body = body, .body_len = size,
                                 .fd = -1, .api = fz_routes[i].api};
            struct http_resp out = {0};
            fz_routes[i].fn(&fz_srv, &r, &out);
            fz_check(fz_routes[i].path, &out);
            if (out.release) out.release(out.ud, true);
            free(out.body);
        }
    }
    free(body);
    return 0;
}
