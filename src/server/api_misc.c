// api_misc.c — llama-server's utility endpoints (/tokenize, /detokenize, /apply-template). The
// embedding endpoints are in api_embed.c.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

// Reads the body or answers the error; NULL then.
static json_t *misc_body(struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    json_t *req = api_parse_body(r, &e);
    if (!req) api_err_send(&e, r->api, out);
    return req;
}

static void misc_fail(struct http_req *r, struct http_resp *out, json_t *req, struct api_err *e) {
    json_decref(req);
    api_err_send(e, r->api, out);
}

// POST /tokenize {content, add_special? (false), parse_special? (true), with_pieces? (false)}
// -> {tokens: [id...]} or {tokens: [{id, piece}]}, piece a string when it is valid UTF-8 and
// its bytes otherwise (as llama-server answers).
void api_tokenize(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    json_t *req = misc_body(r, out);
    if (!req) return;
    json_t *content = json_object_get(req, "content");
    if (!content || json_is_null(content)) {
        api_err_set(&e, 400, "invalid_request_error", "content", "'content' is required (the text to tokenize)");
        return misc_fail(r, out, req, &e);
    }
    if (!json_is_string(content)) {
        api_err_set(&e, 400, "invalid_request_error", "content", "'content' must be a string");
        return misc_fail(r, out, req, &e);
    }
    bool add_special = false, parse_special = true, with_pieces = false;
    if (api_get_bool(req, "add_special", &add_special, &e) < 0 ||
        api_get_bool(req, "parse_special", &parse_special, &e) < 0 ||
        api_get_bool(req, "with_pieces", &with_pieces, &e) < 0)
        return misc_fail(r, out, req, &e);
    unsigned flags =
        (add_special ? FRINK_TOKENIZE_ADD_SPECIAL : 0) | (parse_special ? FRINK_TOKENIZE_PARSE_SPECIAL : 0);
    frink_token *ids = NULL;
    size_t n = 0;
    if (frink_tokenize(s->model, json_string_value(content), json_string_length(content), flags, &ids, &n) !=
        FRINK_OK) {
        api_err_set(&e, 500, "server_error", NULL, "tokenizing failed: %s", frink_errmsg());
        return misc_fail(r, out, req, &e);
    }
    json_t *toks = json_array();
    for (size_t i = 0; i < n; i++) {
        if (!with_pieces) {
            json_array_append_new(toks, json_integer(ids[i]));
            continue;
        }
        char piece[512];
        int k = frink_token_piece(s->model, ids[i], piece, sizeof piece, true);
        if (k < 0) k = 0;
        json_t *pv;
        if (api_utf8_valid(piece, (size_t)k)) {
            pv = json_stringn(piece, (size_t)k);
        } else {
            pv = json_array();
            for (int j = 0; j < k; j++) json_array_append_new(pv, json_integer((unsigned char)piece[j]));
        }
        json_array_append_new(toks, json_pack("{s:i, s:o}", "id", ids[i], "piece", pv));
    }
    frink_free(ids);
    json_decref(req);
    http_json(out, 200, json_pack("{s:o}", "tokens", toks));
}

// POST /detokenize {tokens: [id...]} -> {content}. Control tokens are rendered, as
// llama-server's detokenize does.
void api_detokenize(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    json_t *req = misc_body(r, out);
    if (!req) return;
    json_t *toks = json_object_get(req, "tokens");
    if (!toks || json_is_null(toks)) {
        api_err_set(&e, 400, "invalid_request_error", "tokens", "'tokens' is required (an array of token ids)");
        return misc_fail(r, out, req, &e);
    }
    if (!json_is_array(toks)) {
        api_err_set(&e, 400, "invalid_request_error", "tokens", "'tokens' must be an array of token ids");
        return misc_fail(r, out, req, &e);
    }
    size_t n = json_array_size(toks);
    int n_vocab = frink_model_n_vocab(s->model);
    frink_token *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) {
        api_err_set(&e, 500, "server_error", NULL, "out of memory");
        return misc_fail(r, out, req, &e);
    }
    for (size_t i = 0; i < n; i++) {
        json_t *t = json_array_get(toks, i);
        char param[128];
        snprintf(param, sizeof param, "tokens[%zu]", i);
        if (!json_is_integer(t)) {
            free(ids);
            api_err_set(&e, 400, "invalid_request_error", param, "'%s' must be a token id (an integer)", param);
            return misc_fail(r, out, req, &e);
        }
        json_int_t id = json_integer_value(t);
        if (id < 0 || id >= n_vocab) {
            free(ids);
            api_err_set(&e, 400, "invalid_request_error", param,
                        "'%s': token id %lld is out of range (the vocabulary has %d tokens)", param, (long long)id,
                        n_vocab);
            return misc_fail(r, out, req, &e);
        }
        ids[i] = (frink_token)id;
    }
    char *text = n ? frink_detokenize(s->model, ids, n, true) : NULL;
    free(ids);
    if (n && !text) {
        api_err_set(&e, 500, "server_error", NULL, "detokenizing failed: %s", frink_errmsg());
        return misc_fail(r, out, req, &e);
    }
    json_t *c = api_json_text(text ? text : "", text ? strlen(text) : 0);
    frink_free(text);
    json_decref(req);
    http_json(out, 200, json_pack("{s:o}", "content", c));
}

// POST /apply-template {messages, tools?, chat_template_kwargs?, reasoning_effort?,
// add_generation_prompt? (true)} -> {prompt}: the conversation rendered as a chat request's
// would be, fields validated the same way.
void api_apply_template(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    json_t *req = misc_body(r, out);
    if (!req) return;
    struct run_params p;
    run_params_init(&p);
    json_t *vars = NULL;
    if (api_openai_chat_input(s, req, &p, &vars, &e)) return misc_fail(r, out, req, &e);
    if (api_get_bool(req, "add_generation_prompt", &p.add_generation_prompt, &e) < 0) {
        json_decref(vars);
        return misc_fail(r, out, req, &e);
    }
    char *text = NULL;
    size_t len = 0;
    int n_tokens = 0;
    int rc = run_render(s, &p, &text, &len, &n_tokens, &e);
    json_decref(vars);
    if (rc) return misc_fail(r, out, req, &e);
    json_t *prompt = api_json_text(text, len);
    free(text);
    json_decref(req);
    http_json(out, 200, json_pack("{s:o}", "prompt", prompt));
}
