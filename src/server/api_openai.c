// api_openai.c — the OpenAI wire format: /v1/chat/completions, /v1/completions, /v1/models.
//
// A handler reads the request into run_params (every field that would change the output is
// either honoured or refused with a 400 naming it), starts a run, and translates the run's
// events to OpenAI's objects: one chat.completion / text_completion body, or SSE chunks.
//
// Deliberate choices, where OpenAI's behaviour cannot be had exactly:
//   tool_choice "none"   the tools stay in the prompt (as OpenAI keeps them visible) and the
//                        output parser stays on (reasoning is still reasoning); a call the
//                        model makes anyway is not reported as a call but as content, the
//                        JSON {"name", "arguments"} (llama-server leaves its raw markup).
//   tool_choice "required" / a named function, parallel_tool_calls false, a function's
//                        "strict": the calls are held to the chat format's tool-call grammar
//                        (run.c: forced from the first token or from the call's opener on).
//   logprobs             every generated token but end-of-generation markers, reasoning and
//                        tool-call tokens included; a token that is part of a UTF-8
//                        character shows as "bytes:\xNN..." (as OpenAI writes such tokens),
//                        its "bytes" exact.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

#define OAI_MAX_STOP 16       // OpenAI allows 4; llama-server clients send more
#define OAI_MAX_N 16
#define OAI_MAX_TOKENS (1L << 30)

// ---- tokens as OpenAI shows them -------------------------------------------------------

// A log-probability as JSON: -inf (a banned token that was still reported) cannot be JSON,
// so it is OpenAI's own "very unlikely" value.
static json_t *oai_logprob(float lp) {
    if (!isfinite(lp)) return json_real(-9999.0);
    return json_real((double)lp);
}

// The token's text: its piece when that is valid UTF-8, else "bytes:" and the piece with
// every byte outside a whole character written \xNN (how OpenAI shows a token that splits a
// character). *bytes gets the piece's bytes as integers.
static json_t *oai_token_text(struct srv *s, frink_token id, json_t **bytes) {
    char piece[512];
    int n = frink_token_piece(s->model, id, piece, sizeof piece, true);
    if (n < 0) n = 0;
    if (bytes) {
        *bytes = json_array();
        for (int i = 0; i < n; i++) json_array_append_new(*bytes, json_integer((unsigned char)piece[i]));
    }
    if (api_utf8_valid(piece, (size_t)n)) return json_stringn(piece, (size_t)n);
    char out[512 * 4 + 8];
    size_t k = 0;
    memcpy(out, "bytes:", 6);
    k = 6;
    for (int i = 0; i < n;) {
        int len = 1;
        unsigned char c = (unsigned char)piece[i];
        if (c >= 0xC0) len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c >= 0x80 && i + len <= n && api_utf8_valid(piece + i, (size_t)len)) {
            memcpy(out + k, piece + i, (size_t)len);
            k += (size_t)len;
            i += len;
        } else if (c >= 0x80 || c == 0) {
            k += (size_t)snprintf(out + k, sizeof out - k, "\\x%02x", c);
            i++;
        } else {
            out[k++] = (char)c;
            i++;
        }
    }
    return api_json_text(out, k);
}

// Whether a generated token is shown in logprobs: end-of-generation markers end the text
// rather than being part of it (unless the request ignores them).
static bool oai_token_shown(struct srv *s, frink_token id, bool ignore_eos) {
    return ignore_eos || !frink_token_is_eog(s->model, id);
}

// Chat's logprob entry: {token, logprob, bytes, top_logprobs:[{token, logprob, bytes}]}.
static json_t *oai_chat_lp(struct srv *s, const struct gen_tok *t, int top) {
    json_t *bytes;
    json_t *tok = oai_token_text(s, t->id, &bytes);
    json_t *alts = json_array();
    for (int i = 0; i < t->n_top && i < top; i++) {
        json_t *ab;
        json_t *at = oai_token_text(s, t->top_id[i], &ab);
        json_array_append_new(alts, json_pack("{s:o, s:o, s:o}", "token", at, "logprob", oai_logprob(t->top_lp[i]),
                                              "bytes", ab));
    }
    return json_pack("{s:o, s:o, s:o, s:o}", "token", tok, "logprob", oai_logprob(t->logprob), "bytes", bytes,
                     "top_logprobs", alts);
}

// ---- the request state -------------------------------------------------------------------

struct oai_tool {
    struct api_buf args;         // fragments received
    char *id, *name;
    bool ended;
};

struct oai_choice {
    struct api_buf content, reasoning;
    struct api_buf pending;      // stream with logprobs: content waiting for its tokens
    struct oai_tool *tools;
    int n_tools, cap_tools;
    json_t *lp;                  // chat: logprobs content (array); NULL when not asked
    json_t *l_tokens, *l_lps, *l_top, *l_off; // completions: the legacy logprobs arrays
    size_t text_off;             // completions: bytes of text so far (text_offset)
    enum gen_finish finish;
    int n_tool_calls;
    char err[256];
    bool done;
};

struct oai_req {
    struct srv *s;
    json_t *body;                // the request (run_params borrow from it)
    bool chat;
    char id[48];
    int64_t created;
    int n;
    bool stream, include_usage;
    bool logprobs;
    int top_logprobs;
    bool ignore_eos;
    bool tools_none;             // tool_choice "none": a call the model makes anyway is content
    struct api_buf scratch;
    struct oai_choice *ch;
    // what run_params borrow, owned here
    struct run_params p;
    frink_logit_bias *bias;
    const char **stop;
    json_t *vars;
    char *schema;
    frink_token *prompt;
    char *echo;                  // completions with echo: the prompt's text
    size_t echo_len;
};

static void oai_req_free(void *ud) {
    struct oai_req *o = ud;
    if (!o) return;
    for (int i = 0; o->ch && i < o->n; i++) {
        struct oai_choice *c = &o->ch[i];
        api_buf_free(&c->content);
        api_buf_free(&c->reasoning);
        api_buf_free(&c->pending);
        for (int k = 0; k < c->n_tools; k++) {
            api_buf_free(&c->tools[k].args);
            free(c->tools[k].id);
            free(c->tools[k].name);
        }
        free(c->tools);
        json_decref(c->lp);
        json_decref(c->l_tokens);
        json_decref(c->l_lps);
        json_decref(c->l_top);
        json_decref(c->l_off);
    }
    free(o->ch);
    api_buf_free(&o->scratch);
    free(o->bias);
    free(o->stop);
    json_decref(o->vars);
    free(o->schema);
    free(o->prompt);
    free(o->echo);
    json_decref(o->body);
    free(o);
}

static struct oai_req *oai_req_new(struct srv *s, bool chat) {
    struct oai_req *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->s = s;
    o->chat = chat;
    o->created = api_unix_time();
    run_make_id(o->id, sizeof o->id, chat ? "chatcmpl-" : "cmpl-");
    run_params_init(&o->p);
    return o;
}

static int oai_alloc_choices(struct oai_req *o, struct api_err *e) {
    o->ch = calloc((size_t)o->n, sizeof *o->ch);
    if (!o->ch) {
        api_err_set(e, 500, "server_error", NULL, "out of memory");
        return -1;
    }
    for (int i = 0; i < o->n; i++) {
        if (o->chat && o->logprobs) o->ch[i].lp = json_array();
        if (!o->chat && o->logprobs) {
            o->ch[i].l_tokens = json_array();
            o->ch[i].l_lps = json_array();
            o->ch[i].l_top = json_array();
            o->ch[i].l_off = json_array();
        }
    }
    return 0;
}

static struct oai_tool *oai_tool_at(struct oai_choice *c, int index) {
    if (index < 0 || index > 4096) return NULL;
    if (index >= c->cap_tools) {
        int cap = c->cap_tools ? c->cap_tools : 4;
        while (cap <= index) cap *= 2;
        struct oai_tool *nt = realloc(c->tools, (size_t)cap * sizeof *nt);
        if (!nt) return NULL;
        memset(nt + c->cap_tools, 0, (size_t)(cap - c->cap_tools) * sizeof *nt);
        c->tools = nt;
        c->cap_tools = cap;
    }
    if (index >= c->n_tools) c->n_tools = index + 1;
    return &c->tools[index];
}

// ---- fields shared by both endpoints -----------------------------------------------------

// Fields of llama-server's sampler that change the output and that frink's sampler does not
// have: refused unless at their "off" value.
static int oai_refuse_llama_samplers(json_t *req, struct api_err *e) {
    static const struct {
        const char *key;
        double off;
    } knobs[] = {
        {"mirostat", 0},        {"typical_p", 1},         {"dynatemp_range", 0}, {"xtc_probability", 0},
        {"dry_multiplier", 0},  {"top_n_sigma", -1},      {"n_probs", 0},
    };
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
        json_t *ok = json_real(knobs[i].off);
        int rc = api_refuse(req, knobs[i].key, ok, "frink's sampler does not implement it", e);
        json_decref(ok);
        if (rc) return -1;
    }
    if (api_refuse(req, "samplers", NULL, "the sampler order is fixed (penalties, top-k, top-p, min-p, temperature)",
                   e))
        return -1;
    json_t *f = json_false();
    int rc = api_refuse(req, "post_sampling_probs", f, "log-probabilities are of the raw distribution", e);
    json_decref(f);
    if (rc) return -1;
    json_t *none = json_array();
    rc = api_refuse(req, "lora", none, "LoRA adapters are not implemented", e);
    json_decref(none);
    return rc;
}

// max_tokens, max_completion_tokens, and llama-server's n_predict: one value.
static int oai_read_max_tokens(json_t *req, bool chat, int *out, struct api_err *e) {
    long a = 0, b = 0, c = 0;
    int ra = api_get_int(req, "max_tokens", 1, OAI_MAX_TOKENS, &a, e);
    if (ra < 0) return -1;
    int rb = chat ? api_get_int(req, "max_completion_tokens", 1, OAI_MAX_TOKENS, &b, e) : 0;
    if (rb < 0) return -1;
    int rc = api_get_int(req, "n_predict", -1, OAI_MAX_TOKENS, &c, e);
    if (rc < 0) return -1;
    if (ra && rb && a != b) {
        api_err_set(e, 400, "invalid_request_error", "max_completion_tokens",
                    "'max_tokens' (%ld) and 'max_completion_tokens' (%ld) disagree; give one", a, b);
        return -1;
    }
    long v = ra ? a : rb ? b : -2;
    if (rc && v != -2 && c != v) {
        api_err_set(e, 400, "invalid_request_error", "n_predict",
                    "'n_predict' (%ld) disagrees with 'max_tokens' (%ld); give one", c, v);
        return -1;
    }
    if (v == -2 && rc) v = c;
    if (v != -2) *out = (int)v;
    return 0;
}

// n, stop, stream, stream_options, seed and sampling, ignore_eos, cache_salt, user fields.
static int oai_read_common(struct oai_req *o, json_t *req, struct api_err *e) {
    struct run_params *p = &o->p;
    long l;
    int rc;
    if (api_read_sampling(o->s, req, p, &o->bias, e)) return -1;
    if (oai_refuse_llama_samplers(req, e)) return -1;
    if ((rc = api_get_int(req, "n", 1, OAI_MAX_N, &l, e)) < 0) return -1;
    p->n = rc ? (int)l : 1;
    o->n = p->n;
    if (api_get_strings(req, "stop", OAI_MAX_STOP, &o->stop, &p->n_stop, e) < 0) return -1;
    p->stop = o->stop;
    if (api_get_bool(req, "stream", &o->stream, e) < 0) return -1;
    // A whole reply reports a call only once it is complete: one cut off by max_tokens is then
    // content (its markup), not also a call with partial arguments.
    o->p.whole_tool_calls = !o->stream;
    json_t *so = NULL;
    if ((rc = api_get_obj(req, "stream_options", &so, e)) < 0) return -1;
    if (rc && !o->stream) {
        api_err_set(e, 400, "invalid_request_error", "stream_options",
                    "'stream_options' is only allowed when 'stream' is true");
        return -1;
    }
    if (api_get_bool(req, "stream_options.include_usage", &o->include_usage, e) < 0) return -1;
    if (api_get_bool(req, "ignore_eos", &p->ignore_eos, e) < 0) return -1;
    o->ignore_eos = p->ignore_eos;
    if (api_get_str(req, "cache_salt", &p->cache_salt, e) < 0) return -1;
    // Harmless: they name who asks or how to bill, not what to generate. Only the type is
    // checked, as OpenAI does.
    const char *dummy;
    json_t *dobj;
    if (api_get_str(req, "user", &dummy, e) < 0) return -1;
    if (api_get_obj(req, "metadata", &dobj, e) < 0) return -1;
    return 0;
}

// The grammar fields: response_format (OpenAI), and llama-server's json_schema and grammar.
static int oai_read_format(struct oai_req *o, json_t *req, struct api_err *e) {
    struct run_params *p = &o->p;
    json_t *rf = NULL, *schema = NULL;
    int rc;
    if ((rc = api_get_obj(req, "response_format", &rf, e)) < 0) return -1;
    if (rc) {
        const char *type = NULL;
        if (api_get_str(rf, "type", &type, e) < 0) {
            snprintf(e->param, sizeof e->param, "response_format.type");
            return -1;
        }
        if (!type) {
            api_err_set(e, 400, "invalid_request_error", "response_format.type", "'response_format.type' is required");
            return -1;
        }
        if (strcmp(type, "text") == 0) {
        } else if (strcmp(type, "json_object") == 0) {
            // llama-server lets json_object carry a schema
            json_t *sc = json_object_get(rf, "schema");
            if (sc && !json_is_null(sc)) {
                if (!json_is_object(sc) && !json_is_boolean(sc)) {
                    api_err_set(e, 400, "invalid_request_error", "response_format.schema",
                                "'response_format.schema' must be a JSON Schema (an object)");
                    return -1;
                }
                schema = sc;
            } else {
                o->schema = strdup("{\"type\":\"object\"}");
                if (!o->schema) goto nomem;
            }
        } else if (strcmp(type, "json_schema") == 0) {
            json_t *js = NULL;
            if (api_get_obj(rf, "json_schema", &js, e) < 0) {
                snprintf(e->param, sizeof e->param, "response_format.json_schema");
                return -1;
            }
            if (!js) {
                api_err_set(e, 400, "invalid_request_error", "response_format.json_schema",
                            "'response_format.json_schema' is required when the type is json_schema");
                return -1;
            }
            const char *name = NULL;
            if (api_get_str(js, "name", &name, e) < 0) {
                snprintf(e->param, sizeof e->param, "response_format.json_schema.name");
                return -1;
            }
            bool strict = false;
            if (api_get_bool(js, "strict", &strict, e) < 0) {
                snprintf(e->param, sizeof e->param, "response_format.json_schema.strict");
                return -1;
            }
            json_t *sc = json_object_get(js, "schema");
            if (sc && !json_is_null(sc)) {
                if (!json_is_object(sc) && !json_is_boolean(sc)) {
                    api_err_set(e, 400, "invalid_request_error", "response_format.json_schema.schema",
                                "'response_format.json_schema.schema' must be a JSON Schema (an object)");
                    return -1;
                }
                schema = sc;
            } else {
                o->schema = strdup("{}"); // no schema: any JSON value
                if (!o->schema) goto nomem;
            }
        } else {
            api_err_set(e, 400, "invalid_request_error", "response_format.type",
                        "'response_format.type' must be \"text\", \"json_object\" or \"json_schema\", not \"%.64s\"",
                        type);
            return -1;
        }
    }
    json_t *ls = json_object_get(req, "json_schema");
    if (ls && !json_is_null(ls)) {
        if (schema || o->schema) {
            api_err_set(e, 400, "invalid_request_error", "json_schema",
                        "give either 'response_format' or 'json_schema', not both");
            return -1;
        }
        if (!json_is_object(ls) && !json_is_boolean(ls)) {
            api_err_set(e, 400, "invalid_request_error", "json_schema",
                        "'json_schema' must be a JSON Schema (an object)");
            return -1;
        }
        schema = ls;
    }
    if (schema) {
        o->schema = json_dumps(schema, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!o->schema) goto nomem;
    }
    if (api_get_str(req, "grammar", &p->grammar, e) < 0) return -1;
    if (p->grammar && !p->grammar[0]) p->grammar = NULL;
    if (p->grammar && o->schema) {
        api_err_set(e, 400, "invalid_request_error", "grammar",
                    "give either a grammar or a JSON schema (response_format), not both");
        return -1;
    }
    p->json_schema = o->schema;
    return 0;
nomem:
    api_err_set(e, 500, "server_error", NULL, "out of memory");
    return -1;
}

// ---- the chat conversation -------------------------------------------------------------

static const char *oai_kind(json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

#define OAI_BAD(param, ...)                                                                                            \
    do {                                                                                                               \
        api_err_set(e, 400, "invalid_request_error", param, __VA_ARGS__);                                              \
        return -1;                                                                                                     \
    } while (0)

// Content: a string, or parts of type "text". Other part types name what they are.
static int oai_check_content(json_t *m, size_t i, const char *role, bool may_be_absent, struct api_err *e) {
    char param[128];
    json_t *c = json_object_get(m, "content");
    snprintf(param, sizeof param, "messages[%zu].content", i);
    if (!c || json_is_null(c)) {
        if (may_be_absent) return 0;
        OAI_BAD(param, "'%s' is required for a %s message", param, role);
    }
    if (json_is_string(c)) return 0;
    if (!json_is_array(c))
        OAI_BAD(param, "'%s' must be a string or an array of content parts, not %s", param, oai_kind(c));
    size_t j;
    json_t *part;
    json_array_foreach(c, j, part) {
        snprintf(param, sizeof param, "messages[%zu].content[%zu]", i, j);
        if (!json_is_object(part)) OAI_BAD(param, "'%s' must be an object, not %s", param, oai_kind(part));
        json_t *t = json_object_get(part, "type");
        snprintf(param, sizeof param, "messages[%zu].content[%zu].type", i, j);
        if (!json_is_string(t)) OAI_BAD(param, "'%s' is required (a string)", param);
        const char *type = json_string_value(t);
        if (strcmp(type, "text") == 0) {
            json_t *txt = json_object_get(part, "text");
            snprintf(param, sizeof param, "messages[%zu].content[%zu].text", i, j);
            if (!json_is_string(txt)) OAI_BAD(param, "'%s' must be a string", param);
            continue;
        }
        if (strcmp(type, "image_url") == 0 || strcmp(type, "input_audio") == 0 || strcmp(type, "file") == 0 ||
            strcmp(type, "input_image") == 0 || strcmp(type, "image") == 0 || strcmp(type, "audio") == 0)
            OAI_BAD(param, "'%s' \"%s\" is not supported: frink serves text-only models", param, type);
        if (strcmp(type, "refusal") == 0)
            OAI_BAD(param, "'%s' \"refusal\" is not supported: give the refusal as a text part", param);
        OAI_BAD(param, "'%s' \"%.64s\" is not a content part type (\"text\" is the one this model takes)", param, type);
    }
    return 0;
}

static int oai_check_tool_calls(json_t *calls, size_t i, struct api_err *e) {
    char param[128];
    snprintf(param, sizeof param, "messages[%zu].tool_calls", i);
    if (!json_is_array(calls)) OAI_BAD(param, "'%s' must be an array, not %s", param, oai_kind(calls));
    size_t j;
    json_t *tc;
    json_array_foreach(calls, j, tc) {
        snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu]", i, j);
        if (!json_is_object(tc)) OAI_BAD(param, "'%s' must be an object", param);
        json_t *id = json_object_get(tc, "id");
        if (id && !json_is_null(id) && !json_is_string(id)) {
            snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu].id", i, j);
            OAI_BAD(param, "'%s' must be a string", param);
        }
        json_t *type = json_object_get(tc, "type");
        bool is_fn = json_is_string(type) && strcmp(json_string_value(type), "function") == 0;
        if (type && !json_is_null(type) && !is_fn) {
            snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu].type", i, j);
            OAI_BAD(param, "'%s' must be \"function\"", param);
        }
        json_t *fn = json_object_get(tc, "function");
        snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu].function", i, j);
        if (!json_is_object(fn)) OAI_BAD(param, "'%s' is required (an object with name and arguments)", param);
        json_t *name = json_object_get(fn, "name");
        snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu].function.name", i, j);
        if (!json_is_string(name) || !json_string_length(name))
            OAI_BAD(param, "'%s' must be a non-empty string", param);
        json_t *args = json_object_get(fn, "arguments");
        snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu].function.arguments", i, j);
        if (!json_is_string(args)) OAI_BAD(param, "'%s' must be a string (the arguments as JSON text)", param);
    }
    return 0;
}

static int oai_check_messages(json_t *req, struct api_err *e) {
    json_t *msgs = json_object_get(req, "messages");
    if (!msgs || json_is_null(msgs)) OAI_BAD("messages", "'messages' is required");
    if (!json_is_array(msgs)) OAI_BAD("messages", "'messages' must be an array, not %s", oai_kind(msgs));
    if (!json_array_size(msgs)) OAI_BAD("messages", "'messages' must not be empty");
    char param[128];
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m) {
        snprintf(param, sizeof param, "messages[%zu]", i);
        if (!json_is_object(m)) OAI_BAD(param, "'%s' must be an object, not %s", param, oai_kind(m));
        json_t *rv = json_object_get(m, "role");
        snprintf(param, sizeof param, "messages[%zu].role", i);
        if (!json_is_string(rv)) OAI_BAD(param, "'%s' is required (a string)", param);
        const char *role = json_string_value(rv);
        json_t *name = json_object_get(m, "name");
        if (name && !json_is_null(name) && !json_is_string(name)) {
            snprintf(param, sizeof param, "messages[%zu].name", i);
            OAI_BAD(param, "'%s' must be a string", param);
        }
        if (json_object_get(m, "function_call") && !json_is_null(json_object_get(m, "function_call"))) {
            snprintf(param, sizeof param, "messages[%zu].function_call", i);
            OAI_BAD(param, "'%s' (the legacy function-calling API) is not supported: use tool_calls", param);
        }
        if (json_object_get(m, "audio") && !json_is_null(json_object_get(m, "audio"))) {
            snprintf(param, sizeof param, "messages[%zu].audio", i);
            OAI_BAD(param, "'%s' is not supported: frink serves text-only models", param);
        }
        if (strcmp(role, "system") == 0 || strcmp(role, "developer") == 0 || strcmp(role, "user") == 0) {
            if (oai_check_content(m, i, role, false, e)) return -1;
        } else if (strcmp(role, "assistant") == 0) {
            json_t *calls = json_object_get(m, "tool_calls");
            bool has_calls = calls && !json_is_null(calls);
            if (has_calls && oai_check_tool_calls(calls, i, e)) return -1;
            // OpenAI: content is optional when the message carries tool calls; an empty assistant
            // turn is accepted too (an agent's history may hold one). Templates test content
            // with `in` and string filters, which fail on none: it becomes "" as llama-server
            // makes it.
            if (oai_check_content(m, i, role, true, e)) return -1;
            json_t *c = json_object_get(m, "content");
            if (!c || json_is_null(c)) json_object_set_new(m, "content", json_string(""));
            json_t *rc = json_object_get(m, "reasoning_content");
            if (rc && !json_is_null(rc) && !json_is_string(rc)) {
                snprintf(param, sizeof param, "messages[%zu].reasoning_content", i);
                OAI_BAD(param, "'%s' must be a string", param);
            }
        } else if (strcmp(role, "tool") == 0) {
            json_t *id = json_object_get(m, "tool_call_id");
            snprintf(param, sizeof param, "messages[%zu].tool_call_id", i);
            if (!json_is_string(id)) OAI_BAD(param, "'%s' is required (a string) for a tool message", param);
            if (oai_check_content(m, i, role, false, e)) return -1;
        } else if (strcmp(role, "function") == 0) {
            OAI_BAD(param, "'%s' \"function\" (the legacy function-calling API) is not supported: use \"tool\"",
                    param);
        } else {
            OAI_BAD(param, "'%s' must be one of system, developer, user, assistant, tool (got \"%.64s\")", param, role);
        }
    }
    return 0;
}

static int oai_check_tools(json_t *tools, struct api_err *e) {
    char param[128];
    size_t i;
    json_t *t;
    json_array_foreach(tools, i, t) {
        snprintf(param, sizeof param, "tools[%zu]", i);
        if (!json_is_object(t)) OAI_BAD(param, "'%s' must be an object, not %s", param, oai_kind(t));
        json_t *type = json_object_get(t, "type");
        snprintf(param, sizeof param, "tools[%zu].type", i);
        if (!json_is_string(type)) OAI_BAD(param, "'%s' is required (\"function\")", param);
        if (strcmp(json_string_value(type), "function") != 0)
            OAI_BAD(param, "'%s' \"%.64s\" is not supported: only \"function\" tools are", param,
                    json_string_value(type));
        json_t *fn = json_object_get(t, "function");
        snprintf(param, sizeof param, "tools[%zu].function", i);
        if (!json_is_object(fn)) OAI_BAD(param, "'%s' is required (an object with a name)", param);
        json_t *name = json_object_get(fn, "name");
        snprintf(param, sizeof param, "tools[%zu].function.name", i);
        if (!json_is_string(name) || !json_string_length(name))
            OAI_BAD(param, "'%s' must be a non-empty string", param);
        json_t *desc = json_object_get(fn, "description");
        snprintf(param, sizeof param, "tools[%zu].function.description", i);
        if (desc && !json_is_null(desc) && !json_is_string(desc)) OAI_BAD(param, "'%s' must be a string", param);
        json_t *params = json_object_get(fn, "parameters");
        snprintf(param, sizeof param, "tools[%zu].function.parameters", i);
        if (params && !json_is_null(params) && !json_is_object(params))
            OAI_BAD(param, "'%s' must be an object (a JSON Schema)", param);
        json_t *strict = json_object_get(fn, "strict");
        snprintf(param, sizeof param, "tools[%zu].function.strict", i);
        if (strict && !json_is_null(strict) && !json_is_boolean(strict))
            OAI_BAD(param, "'%s' must be a boolean", param);
    }
    return 0;
}

int api_openai_chat_input(struct srv *s, json_t *req, struct run_params *p, json_t **vars, struct api_err *e) {
    *vars = NULL;
    if (oai_check_messages(req, e)) return -1;
    p->messages = json_object_get(req, "messages");

    json_t *tools = NULL;
    if (api_get_arr(req, "tools", &tools, e) < 0) return -1;
    if (tools && oai_check_tools(tools, e)) return -1;
    if (tools && !json_array_size(tools)) tools = NULL;
    p->tools = tools;

    json_t *tc = json_object_get(req, "tool_choice");
    p->tool_param = "tool_choice";
    if (tc && !json_is_null(tc)) {
        if (json_is_string(tc)) {
            const char *v = json_string_value(tc);
            if (strcmp(v, "required") == 0) p->tool_mode = RUN_TOOLS_REQUIRED;
            else if (strcmp(v, "none") == 0) p->tool_mode = RUN_TOOLS_NONE;
            else if (strcmp(v, "auto") != 0)
                OAI_BAD("tool_choice", "'tool_choice' must be \"auto\", \"none\" or \"required\" (got \"%.64s\")", v);
        } else if (json_is_object(tc)) {
            // {"type": "function", "function": {"name": NAME}}: that tool, and a call is required.
            const char *type = json_string_value(json_object_get(tc, "type"));
            json_t *fn = json_object_get(tc, "function");
            const char *name = json_string_value(json_object_get(fn, "name"));
            if (!type || strcmp(type, "function") != 0)
                OAI_BAD("tool_choice.type", "'tool_choice.type' must be \"function\"");
            if (!name || !*name) OAI_BAD("tool_choice.function.name", "'tool_choice.function.name' must be a tool's name");
            p->tool_mode = RUN_TOOLS_REQUIRED;
            p->tool_name = name;
            p->tool_param = "tool_choice.function.name";
        } else {
            OAI_BAD("tool_choice", "'tool_choice' must be a string or an object, not %s", oai_kind(tc));
        }
        if (p->tool_mode == RUN_TOOLS_REQUIRED && !tools)
            OAI_BAD("tool_choice", "'tool_choice' asks for a tool call, but the request has no tools");
    }
    bool parallel = true;
    if (api_get_bool(req, "parallel_tool_calls", &parallel, e) < 0) return -1;
    p->tool_parallel = parallel;
    for (size_t i = 0; tools && i < json_array_size(tools); i++)
        if (json_is_true(json_object_get(json_object_get(json_array_get(tools, i), "function"), "strict")))
            p->tools_strict = true;

    json_t *v = json_object();
    if (!v) {
        api_err_set(e, 500, "server_error", NULL, "out of memory");
        return -1;
    }
    json_t *kw = NULL;
    if (api_get_obj(req, "chat_template_kwargs", &kw, e) < 0) goto fail;
    if (kw) {
        const char *key;
        json_t *val;
        json_object_foreach(kw, key, val) {
            // a variable the template never reads would be a silent no-op
            if (!run_template_knows(s, key)) {
                char param[128];
                snprintf(param, sizeof param, "chat_template_kwargs.%.40s", key);
                api_err_set(e, 400, "invalid_request_error", param,
                            "'%s' is not supported: the model's chat template does not read '%.64s'", param, key);
                goto fail;
            }
            json_object_set(v, key, val);
        }
    }
    const char *effort = NULL;
    if (api_get_str(req, "reasoning_effort", &effort, e) < 0) goto fail;
    if (effort) {
        static const char *const efforts[] = {"none", "minimal", "low", "medium", "high", "xhigh"};
        bool known = false;
        for (size_t i = 0; i < sizeof efforts / sizeof efforts[0]; i++) known |= strcmp(effort, efforts[i]) == 0;
        if (!known) {
            api_err_set(e, 400, "invalid_request_error", "reasoning_effort",
                        "'reasoning_effort' must be none, minimal, low, medium or high (got \"%.64s\")", effort);
            goto fail;
        }
        bool off = strcmp(effort, "none") == 0 || strcmp(effort, "minimal") == 0;
        if (run_template_knows(s, "reasoning_effort")) {
            json_object_set_new(v, "reasoning_effort", json_string(effort));
        } else if (run_template_knows(s, "enable_thinking")) {
            json_object_set_new(v, "enable_thinking", json_boolean(!off));
        } else {
            api_err_set(e, 400, "invalid_request_error", "reasoning_effort",
                        "'reasoning_effort' is not supported: the model's chat template has no reasoning switch");
            goto fail;
        }
    }
    if (json_object_size(v)) {
        *vars = v;
        p->template_vars = v;
    } else {
        json_decref(v);
    }
    return 0;
fail:
    json_decref(v);
    return -1;
}

// ---- chat: the request -------------------------------------------------------------------

static int oai_read_chat(struct oai_req *o, json_t *req, struct api_err *e) {
    struct srv *s = o->s;
    struct run_params *p = &o->p;
    if (api_check_model(s, req, false, e)) return -1;
    if (api_openai_chat_input(s, req, p, &o->vars, e)) return -1;
    json_t *tc = json_object_get(req, "tool_choice");
    o->tools_none = p->tools && json_is_string(tc) && strcmp(json_string_value(tc), "none") == 0;
    if (oai_read_common(o, req, e)) return -1;
    if (oai_read_max_tokens(req, true, &p->n_predict, e)) return -1;
    int rc;
    if (api_get_bool(req, "logprobs", &o->logprobs, e) < 0) return -1;
    long top = 0;
    if ((rc = api_get_int(req, "top_logprobs", 0, GEN_TOP_MAX, &top, e)) < 0) return -1;
    if (rc && !o->logprobs)
        OAI_BAD("top_logprobs", "'top_logprobs' needs 'logprobs' set to true");
    o->top_logprobs = (int)top;
    p->logprobs = o->logprobs;
    p->top_logprobs = o->top_logprobs;
    if (oai_read_format(o, req, e)) return -1;

    // llama-server's reasoning_format: "none" would put the thinking in content
    const char *rf = NULL;
    if (api_get_str(req, "reasoning_format", &rf, e) < 0) return -1;
    if (rf && strcmp(rf, "auto") != 0 && strcmp(rf, "deepseek") != 0)
        OAI_BAD("reasoning_format", "'reasoning_format' \"%.32s\" is not supported: reasoning is always returned in "
                                    "reasoning_content (\"auto\", \"deepseek\")", rf);

    // Fields that change the output and are not implemented.
    if (api_refuse(req, "audio", NULL, "audio output is not implemented", e)) return -1;
    json_t *text_only = json_pack("[s]", "text");
    rc = api_refuse(req, "modalities", text_only, "only [\"text\"] output is implemented", e);
    json_decref(text_only);
    if (rc) return -1;
    if (api_refuse(req, "prediction", NULL, "predicted outputs are not implemented", e)) return -1;
    if (api_refuse(req, "web_search_options", NULL, "web search is not implemented", e)) return -1;
    if (api_refuse(req, "functions", NULL, "the legacy function-calling API is not implemented; use tools", e))
        return -1;
    if (api_refuse(req, "function_call", NULL, "the legacy function-calling API is not implemented; use tool_choice",
                   e))
        return -1;
    json_t *medium = json_string("medium");
    rc = api_refuse(req, "verbosity", medium, "frink does not steer the reply's length", e);
    json_decref(medium);
    if (rc) return -1;
    return 0;
}

// ---- chat: building the reply --------------------------------------------------------------

static json_t *oai_usage(struct oai_req *o, struct run *run) {
    int prompt = 0, cached = 0, completion = 0;
    run_usage(run, &prompt, &cached, &completion);
    json_t *u = json_pack("{s:i, s:i, s:i, s:{s:i}}", "prompt_tokens", prompt, "completion_tokens", completion,
                          "total_tokens", prompt + completion, "prompt_tokens_details", "cached_tokens", cached);
    if (o->chat) {
        // The parser's reasoning text, re-tokenized: what of the completion was thinking.
        int reasoning = 0;
        for (int i = 0; i < o->n; i++) {
            struct oai_choice *c = &o->ch[i];
            if (!c->reasoning.n) continue;
            frink_token *ids = NULL;
            size_t n = 0;
            if (frink_tokenize(o->s->model, c->reasoning.p, c->reasoning.n, 0, &ids, &n) == FRINK_OK)
                reasoning += (int)n;
            frink_free(ids);
        }
        if (reasoning > completion) reasoning = completion;
        json_object_set_new(u, "completion_tokens_details", json_pack("{s:i}", "reasoning_tokens", reasoning));
    }
    return u;
}

// tool_choice "none": OpenAI's model cannot call then; a local model still may (the tools stay
// in its prompt, as OpenAI keeps them visible). Such a call is not reported as one: once
// complete it becomes content, {"name": ..., "arguments": ...}, and the choice does not end
// with "tool_calls". Returns the event to handle (ev, or *tmp), or NULL when ev is consumed.
static const struct run_ev *oai_filter(struct oai_req *o, const struct run_ev *ev, struct run_ev *tmp) {
    if (!o->tools_none) return ev;
    struct oai_choice *c = &o->ch[ev->choice];
    struct oai_tool *t;
    switch (ev->kind) {
    case RUN_EV_TOOL_NAME:
        if ((t = oai_tool_at(c, ev->tool_index))) {
            free(t->name);
            t->name = strdup(ev->tool_name ? ev->tool_name : "");
        }
        return NULL;
    case RUN_EV_TOOL_ARGS: return NULL;
    case RUN_EV_TOOL_END: {
        t = oai_tool_at(c, ev->tool_index);
        json_t *name = json_string(t && t->name ? t->name : "");
        char *nj = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
        json_decref(name);
        if (t) {
            free(t->name);
            t->name = NULL; // not a tool call on the wire
        }
        o->scratch.n = 0;
        api_buf_add(&o->scratch, "{\"name\": ", 9);
        if (nj) api_buf_add(&o->scratch, nj, strlen(nj));
        free(nj);
        api_buf_add(&o->scratch, ", \"arguments\": ", 15);
        api_buf_add(&o->scratch, ev->text ? ev->text : "{}", ev->text ? ev->len : 2);
        api_buf_add(&o->scratch, "}", 1);
        *tmp = *ev;
        tmp->kind = RUN_EV_CONTENT;
        tmp->text = o->scratch.p;
        tmp->len = o->scratch.n;
        return tmp;
    }
    case RUN_EV_DONE:
        *tmp = *ev;
        tmp->n_tool_calls = 0;
        return tmp;
    default: return ev;
    }
}

// One token into the legacy logprobs arrays: its text, log-probability, the alternatives as
// {text: logprob}, and text_offset (where its text starts in the choice's text, echo included;
// offsets follow the tokens' own pieces).
static void oai_legacy_add(struct oai_req *o, struct oai_choice *c, const struct gen_tok *g) {
    json_array_append_new(c->l_tokens, oai_token_text(o->s, g->id, NULL));
    json_array_append_new(c->l_lps, oai_logprob(g->logprob));
    json_t *top = json_object();
    for (int k = 0; k < g->n_top && k < o->top_logprobs; k++) {
        json_t *tt = oai_token_text(o->s, g->top_id[k], NULL);
        const char *key = json_string_value(tt);
        if (key && !json_object_get(top, key)) json_object_set_new(top, key, oai_logprob(g->top_lp[k]));
        json_decref(tt);
    }
    json_array_append_new(c->l_top, top);
    json_array_append_new(c->l_off, json_integer((json_int_t)(o->echo_len + c->text_off)));
    char piece[512];
    int k = frink_token_piece(o->s->model, g->id, piece, sizeof piece, true);
    if (k > 0) c->text_off += (size_t)k;
}

// Collects a choice's events for a whole (non-streamed) reply.
static void oai_collect(void *ud, const struct run_ev *ev) {
    struct oai_req *o = ud;
    if (ev->choice < 0 || ev->choice >= o->n) return;
    struct run_ev tmp;
    if (!(ev = oai_filter(o, ev, &tmp))) return;
    struct oai_choice *c = &o->ch[ev->choice];
    struct oai_tool *t;
    switch (ev->kind) {
    case RUN_EV_CONTENT:
        api_buf_add(&c->content, ev->text, ev->len);
        break;
    case RUN_EV_REASONING: api_buf_add(&c->reasoning, ev->text, ev->len); break;
    case RUN_EV_TOOL_NAME:
        if (!(t = oai_tool_at(c, ev->tool_index))) break;
        free(t->id);
        free(t->name);
        t->id = strdup(ev->tool_id ? ev->tool_id : "");
        t->name = strdup(ev->tool_name ? ev->tool_name : "");
        break;
    case RUN_EV_TOOL_ARGS:
        if ((t = oai_tool_at(c, ev->tool_index))) api_buf_add(&t->args, ev->text, ev->len);
        break;
    case RUN_EV_TOOL_END:
        if (!(t = oai_tool_at(c, ev->tool_index))) break;
        t->args.n = 0; // the whole arguments are authoritative
        api_buf_add(&t->args, ev->text, ev->len);
        t->ended = true;
        break;
    case RUN_EV_TOKENS:
        if (!o->logprobs) break;
        for (int i = 0; i < ev->n_toks; i++) {
            const struct gen_tok *g = &ev->toks[i];
            if (!oai_token_shown(o->s, g->id, o->ignore_eos)) continue;
            if (o->chat) {
                json_array_append_new(c->lp, oai_chat_lp(o->s, g, o->top_logprobs));
            } else {
                oai_legacy_add(o, c, g);
            }
        }
        break;
    case RUN_EV_DONE:
        c->done = true;
        c->finish = ev->finish;
        c->n_tool_calls = ev->n_tool_calls;
        if (ev->finish == GEN_ERROR && ev->text) snprintf(c->err, sizeof c->err, "%.*s", (int)ev->len, ev->text);
        break;
    }
}

static json_t *oai_tool_calls_json(struct oai_choice *c) {
    json_t *a = json_array();
    for (int k = 0; k < c->n_tools; k++) {
        struct oai_tool *t = &c->tools[k];
        if (!t->name) continue;
        json_array_append_new(a, json_pack("{s:s, s:s, s:{s:s, s:o}}", "id", t->id ? t->id : "", "type", "function",
                                           "function", "name", t->name, "arguments",
                                           api_json_text(t->args.p ? t->args.p : "", t->args.n)));
    }
    return a;
}

// A choice that failed in the scheduler: the whole reply is a 500 naming why (the request
// itself was valid; a client that went away gets nothing either way).
static bool oai_failed(struct oai_req *o, struct api_err *e) {
    for (int i = 0; i < o->n; i++) {
        if (o->ch[i].finish == GEN_ERROR) {
            api_err_set(e, 500, "server_error", NULL, "generation failed: %s",
                        o->ch[i].err[0] ? o->ch[i].err : "unknown error");
            return true;
        }
    }
    return false;
}

static json_t *oai_chat_reply(struct oai_req *o, struct run *run) {
    json_t *choices = json_array();
    for (int i = 0; i < o->n; i++) {
        struct oai_choice *c = &o->ch[i];
        json_t *calls = oai_tool_calls_json(c);
        bool has_calls = json_array_size(calls) > 0;
        json_t *msg = json_object();
        json_object_set_new(msg, "role", json_string("assistant"));
        json_object_set_new(msg, "content", has_calls && !c->content.n ? json_null()
                                                                       : api_json_text(c->content.p, c->content.n));
        if (c->reasoning.n)
            json_object_set_new(msg, "reasoning_content", api_json_text(c->reasoning.p, c->reasoning.n));
        if (has_calls) json_object_set_new(msg, "tool_calls", calls);
        else json_decref(calls);
        json_object_set_new(msg, "refusal", json_null());
        json_t *lp = c->lp ? json_pack("{s:O, s:n}", "content", c->lp, "refusal") : json_null();
        json_array_append_new(choices, json_pack("{s:i, s:o, s:o, s:s}", "index", i, "message", msg, "logprobs", lp,
                                                 "finish_reason", run_finish_openai(c->finish, c->n_tool_calls)));
    }
    return json_pack("{s:s, s:s, s:I, s:s, s:s, s:o, s:o}", "id", o->id, "object", "chat.completion", "created",
                     (json_int_t)o->created, "model", o->s->model_id ? o->s->model_id : "", "system_fingerprint",
                     o->s->fingerprint, "choices", choices, "usage", oai_usage(o, run));
}

// ---- chat: the stream --------------------------------------------------------------------

// A chat.completion.chunk with one choice (index >= 0) or none (the usage chunk).
static json_t *oai_chat_chunk(struct oai_req *o, int index, json_t *delta, json_t *logprobs, const char *finish) {
    json_t *choices = json_array();
    if (index >= 0)
        json_array_append_new(choices, json_pack("{s:i, s:o, s:o, s:o}", "index", index, "delta", delta, "logprobs",
                                                 logprobs ? logprobs : json_null(), "finish_reason",
                                                 finish ? json_string(finish) : json_null()));
    json_t *j = json_pack("{s:s, s:s, s:I, s:s, s:s, s:o}", "id", o->id, "object", "chat.completion.chunk", "created",
                          (json_int_t)o->created, "model", o->s->model_id ? o->s->model_id : "", "system_fingerprint",
                          o->s->fingerprint, "choices", choices);
    if (o->include_usage) json_object_set_new(j, "usage", json_null());
    return j;
}

static void oai_chat_flush(struct api_stream *st, struct oai_req *o, int i, json_t *logprobs) {
    struct oai_choice *c = &o->ch[i];
    if (!c->pending.n && !logprobs) return;
    json_t *delta = c->pending.n ? json_pack("{s:o}", "content", api_json_text(c->pending.p, c->pending.n))
                                 : json_object();
    c->pending.n = 0;
    api_sse(st, NULL, oai_chat_chunk(o, i, delta, logprobs, NULL));
}

static void oai_chat_stream_event(struct api_stream *st, const struct run_ev *ev) {
    struct oai_req *o = st->ud;
    if (ev->choice < 0 || ev->choice >= o->n) return;
    struct run_ev tmp;
    if (!(ev = oai_filter(o, ev, &tmp))) return;
    struct oai_choice *c = &o->ch[ev->choice];
    int i = ev->choice;
    struct oai_tool *t;
    switch (ev->kind) {
    case RUN_EV_CONTENT:
        // With logprobs, the text waits for its tokens so that they travel in one chunk.
        if (o->logprobs) api_buf_add(&c->pending, ev->text, ev->len);
        else api_sse(st, NULL, oai_chat_chunk(o, i, json_pack("{s:o}", "content", api_json_text(ev->text, ev->len)),
                                              NULL, NULL));
        break;
    case RUN_EV_REASONING:
        oai_chat_flush(st, o, i, NULL);
        api_buf_add(&c->reasoning, ev->text, ev->len);
        api_sse(st, NULL,
                oai_chat_chunk(o, i, json_pack("{s:o}", "reasoning_content", api_json_text(ev->text, ev->len)), NULL,
                               NULL));
        break;
    case RUN_EV_TOOL_NAME:
        oai_chat_flush(st, o, i, NULL);
        if ((t = oai_tool_at(c, ev->tool_index))) t->name = t->name ? t->name : strdup("");
        api_sse(st, NULL,
                oai_chat_chunk(o, i,
                               json_pack("{s:[{s:i, s:s, s:s, s:{s:s, s:s}}]}", "tool_calls", "index", ev->tool_index,
                                         "id", ev->tool_id ? ev->tool_id : "", "type", "function", "function", "name",
                                         ev->tool_name ? ev->tool_name : "", "arguments", ""),
                               NULL, NULL));
        break;
    case RUN_EV_TOOL_ARGS:
        if (!ev->len) break;
        oai_chat_flush(st, o, i, NULL);
        if ((t = oai_tool_at(c, ev->tool_index))) api_buf_add(&t->args, ev->text, ev->len);
        api_sse(st, NULL,
                oai_chat_chunk(o, i,
                               json_pack("{s:[{s:i, s:{s:o}}]}", "tool_calls", "index", ev->tool_index, "function",
                                         "arguments", api_json_text(ev->text, ev->len)),
                               NULL, NULL));
        break;
    case RUN_EV_TOOL_END:
        // The fragments already sent are the arguments; a parser that sent none (a whole call)
        // sends them now.
        t = oai_tool_at(c, ev->tool_index);
        if (t && !t->args.n && ev->len) {
            oai_chat_flush(st, o, i, NULL);
            api_buf_add(&t->args, ev->text, ev->len);
            api_sse(st, NULL,
                    oai_chat_chunk(o, i,
                                   json_pack("{s:[{s:i, s:{s:o}}]}", "tool_calls", "index", ev->tool_index, "function",
                                             "arguments", api_json_text(ev->text, ev->len)),
                                   NULL, NULL));
        }
        break;
    case RUN_EV_TOKENS: {
        if (!o->logprobs) break;
        json_t *arr = json_array();
        for (int k = 0; k < ev->n_toks; k++)
            if (oai_token_shown(o->s, ev->toks[k].id, o->ignore_eos))
                json_array_append_new(arr, oai_chat_lp(o->s, &ev->toks[k], o->top_logprobs));
        if (!json_array_size(arr) && !c->pending.n) {
            json_decref(arr);
            break;
        }
        oai_chat_flush(st, o, i, json_pack("{s:o, s:n}", "content", arr, "refusal"));
        break;
    }
    case RUN_EV_DONE:
        oai_chat_flush(st, o, i, NULL);
        c->done = true;
        c->finish = ev->finish;
        c->n_tool_calls = ev->n_tool_calls;
        if (ev->finish == GEN_ERROR) {
            // OpenAI's SDKs raise an APIError for a data line carrying "error"
            char msg[300];
            snprintf(msg, sizeof msg, "generation failed: %.*s", (int)(ev->len < 256 ? ev->len : 256),
                     ev->text ? ev->text : "");
            api_sse(st, NULL, json_pack("{s:{s:s, s:s, s:n, s:n}}", "error", "message", msg, "type", "server_error",
                                        "param", "code"));
        }
        api_sse(st, NULL, oai_chat_chunk(o, i, json_object(), NULL, run_finish_openai(ev->finish, ev->n_tool_calls)));
        break;
    }
}

static void oai_stream_end(struct api_stream *st) {
    struct oai_req *o = st->ud;
    if (o->include_usage) {
        json_t *j;
        if (o->chat) j = oai_chat_chunk(o, -1, NULL, NULL, NULL);
        else
            j = json_pack("{s:s, s:s, s:I, s:s, s:s, s:[]}", "id", o->id, "object", "text_completion", "created",
                          (json_int_t)o->created, "model", o->s->model_id ? o->s->model_id : "",
                          "system_fingerprint", o->s->fingerprint, "choices");
        json_object_set_new(j, "usage", oai_usage(o, st->run));
        api_sse(st, NULL, j);
    }
    api_sse_raw(st, "data: [DONE]\n\n");
}

// ---- running a request ---------------------------------------------------------------------

static void oai_completion_stream_event(struct api_stream *st, const struct run_ev *ev);
static json_t *oai_completion_reply(struct oai_req *o, struct run *run);
static json_t *oai_text_chunk(struct oai_req *o, int index, json_t *text, json_t *logprobs, const char *finish);

// Starts the run and answers: a whole reply, or a stream that owns o from here on.
static void oai_run(struct oai_req *o, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    o->p.fd = r->fd;
    o->p.req = r;
    if (oai_alloc_choices(o, &e)) goto fail;
    struct run *run = NULL;
    if (run_start(o->s, &o->p, &run, &e)) goto fail;
    if (o->stream) {
        struct api_stream *st = api_stream_new(o->s, run);
        if (!st) {
            api_err_set(&e, 500, "server_error", NULL, "out of memory");
            goto fail;
        }
        st->ud = o;
        st->free_ud = oai_req_free;
        st->on_end = oai_stream_end;
        if (o->chat) {
            st->on_event = oai_chat_stream_event;
            // every choice opens with the assistant's role, as OpenAI's first chunk does
            for (int i = 0; i < o->n; i++)
                api_sse(st, NULL, oai_chat_chunk(o, i, json_pack("{s:s, s:s}", "role", "assistant", "content", ""),
                                                 NULL, NULL));
        } else {
            st->on_event = oai_completion_stream_event;
            // echo: each choice's text begins with the prompt's
            for (int i = 0; o->echo_len && i < o->n; i++)
                api_sse(st, NULL, oai_text_chunk(o, i, api_json_text(o->echo, o->echo_len), NULL, NULL));
        }
        api_stream_respond(st, out);
        return;
    }
    if (run_wait(run, oai_collect, o) < 0) {
        run_free(run);
        api_err_set(&e, 503, "server_error", NULL,
                    "the request was cancelled (the client went away or the server is stopping)");
        goto fail;
    }
    if (oai_failed(o, &e)) {
        run_free(run);
        goto fail;
    }
    json_t *reply = o->chat ? oai_chat_reply(o, run) : oai_completion_reply(o, run);
    run_free(run);
    oai_req_free(o);
    api_reply_send(reply, r->api, out);
    return;
fail:
    oai_req_free(o);
    api_err_send(&e, r->api, out);
}

static int oai_read_completion(struct oai_req *o, json_t *req, struct api_err *e);

// A POST body read into a request (chat or completion) and run.
static void oai_handle(struct srv *s, struct http_req *r, struct http_resp *out, bool chat) {
    struct api_err e = {0};
    json_t *req = api_parse_body(r, &e);
    if (!req) {
        api_err_send(&e, r->api, out);
        return;
    }
    struct oai_req *o = oai_req_new(s, chat);
    if (!o) {
        json_decref(req);
        api_err_set(&e, 500, "server_error", NULL, "out of memory");
        api_err_send(&e, r->api, out);
        return;
    }
    o->body = req;
    if (chat ? oai_read_chat(o, req, &e) : oai_read_completion(o, req, &e)) {
        oai_req_free(o);
        api_err_send(&e, r->api, out);
        return;
    }
    oai_run(o, r, out);
}

void api_chat_completions(struct srv *s, struct http_req *r, struct http_resp *out) { oai_handle(s, r, out, true); }

// ---- completions -------------------------------------------------------------------------

// Appends a text piece of the prompt: tokenized (BOS as the model asks only for the first
// piece, special tokens parsed as llama-server does), and its text kept for echo.
static int oai_prompt_text(struct srv *srv, const char *text, size_t len, bool first, frink_token **ids,
                           size_t *n, size_t *cap, struct api_err *e) {
    frink_token *t = NULL;
    size_t k = 0;
    unsigned flags = FRINK_TOKENIZE_PARSE_SPECIAL | (first ? FRINK_TOKENIZE_ADD_SPECIAL : 0);
    if (frink_tokenize(srv->model, text, len, flags, &t, &k) != FRINK_OK) {
        api_err_set(e, 500, "server_error", NULL, "tokenizing the prompt failed: %s", frink_errmsg());
        return -1;
    }
    if (*n + k > *cap) {
        size_t nc = *cap ? *cap : 64;
        while (nc < *n + k) nc *= 2;
        frink_token *ni = realloc(*ids, nc * sizeof *ni);
        if (!ni) {
            frink_free(t);
            api_err_set(e, 500, "server_error", NULL, "out of memory");
            return -1;
        }
        *ids = ni;
        *cap = nc;
    }
    if (k) memcpy(*ids + *n, t, k * sizeof *t);
    *n += k;
    frink_free(t);
    return 0;
}

int api_read_prompt(struct srv *srv, json_t *req, frink_token **out, int *n_out, char **text, size_t *text_len,
                    struct api_err *e) {
    json_t *pr = json_object_get(req, "prompt");
    if (!pr || json_is_null(pr)) OAI_BAD("prompt", "'prompt' is required");
    if (json_is_array(pr) && json_array_size(pr) == 1 &&
        (json_is_string(json_array_get(pr, 0)) || json_is_array(json_array_get(pr, 0))))
        pr = json_array_get(pr, 0);
    struct api_buf echo = {0};
    frink_token *ids = NULL;
    size_t n = 0, cap = 0;
    int n_vocab = frink_model_n_vocab(srv->model);
    if (json_is_string(pr)) {
        if (oai_prompt_text(srv, json_string_value(pr), json_string_length(pr), true, &ids, &n, &cap, e)) goto fail;
        api_buf_add(&echo, json_string_value(pr), json_string_length(pr));
    } else if (json_is_array(pr)) {
        size_t len = json_array_size(pr);
        if (!len) {
            api_err_set(e, 400, "invalid_request_error", "prompt", "'prompt' must not be empty");
            goto fail;
        }
        size_t n_str = 0;
        for (size_t i = 0; i < len; i++) n_str += json_is_string(json_array_get(pr, i));
        if (n_str == len || json_is_array(json_array_get(pr, 0))) {
            api_err_set(e, 400, "invalid_request_error", "prompt",
                        "'prompt' holds %zu prompts; one request takes one prompt (send one request each)", len);
            goto fail;
        }
        for (size_t i = 0; i < len; i++) {
            json_t *el = json_array_get(pr, i);
            char param[128];
            snprintf(param, sizeof param, "prompt[%zu]", i);
            if (json_is_string(el)) {
                if (oai_prompt_text(srv, json_string_value(el), json_string_length(el), i == 0, &ids, &n, &cap, e))
                    goto fail;
                api_buf_add(&echo, json_string_value(el), json_string_length(el));
            } else if (json_is_integer(el)) {
                json_int_t id = json_integer_value(el);
                if (id < 0 || id >= n_vocab) {
                    api_err_set(e, 400, "invalid_request_error", param,
                                "'%s': token id %lld is out of range (the vocabulary has %d tokens)", param,
                                (long long)id, n_vocab);
                    goto fail;
                }
                if (n + 1 > cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    frink_token *ni = realloc(ids, nc * sizeof *ni);
                    if (!ni) {
                        api_err_set(e, 500, "server_error", NULL, "out of memory");
                        goto fail;
                    }
                    ids = ni;
                    cap = nc;
                }
                ids[n++] = (frink_token)id;
                char piece[512];
                int k = frink_token_piece(srv->model, (frink_token)id, piece, sizeof piece, true);
                if (k > 0) api_buf_add(&echo, piece, (size_t)k);
            } else {
                api_err_set(e, 400, "invalid_request_error", param,
                            "'%s' must be a token id (an integer) or a string, not %s", param, oai_kind(el));
                goto fail;
            }
        }
    } else {
        api_err_set(e, 400, "invalid_request_error", "prompt",
                    "'prompt' must be a string or an array of token ids, not %s%s", oai_kind(pr),
                    json_is_object(pr) ? " (multimodal prompts are not implemented)" : "");
        goto fail;
    }
    if (!n) {
        api_err_set(e, 400, "invalid_request_error", "prompt", "'prompt' has no tokens");
        goto fail;
    }
    if (n > INT_MAX / 2) {
        api_err_set(e, 400, "invalid_request_error", "prompt", "'prompt' is too long");
        goto fail;
    }
    *out = ids;
    *n_out = (int)n;
    *text = echo.p;
    *text_len = echo.n;
    return 0;
fail:
    free(ids);
    api_buf_free(&echo);
    return -1;
}

static int oai_read_prompt(struct oai_req *o, json_t *req, struct api_err *e) {
    int n = 0;
    if (api_read_prompt(o->s, req, &o->prompt, &n, &o->echo, &o->echo_len, e)) return -1;
    o->p.prompt = o->prompt;
    o->p.n_prompt = n;
    return 0;
}

static int oai_read_completion(struct oai_req *o, json_t *req, struct api_err *e) {
    struct run_params *p = &o->p;
    if (api_check_model(o->s, req, false, e)) return -1;
    if (oai_read_prompt(o, req, e)) return -1;
    if (oai_read_common(o, req, e)) return -1;
    p->n_predict = 16; // OpenAI's default for the legacy endpoint
    if (oai_read_max_tokens(req, false, &p->n_predict, e)) return -1;
    p->parse_output = false;
    long lp = 0;
    int rc;
    if ((rc = api_get_int(req, "logprobs", 0, 5, &lp, e)) < 0) return -1;
    if (rc) {
        o->logprobs = true;
        o->top_logprobs = (int)lp;
    }
    p->logprobs = o->logprobs;
    p->top_logprobs = o->top_logprobs;
    bool echo = false;
    if (api_get_bool(req, "echo", &echo, e) < 0) return -1;
    if (echo && o->logprobs)
        OAI_BAD("echo", "'echo' with 'logprobs' is not supported: it needs the prompt's log-probabilities, which "
                        "frink does not compute");
    if (!echo) {
        free(o->echo);
        o->echo = NULL;
        o->echo_len = 0;
    }
    json_t *one = json_integer(1);
    rc = api_refuse(req, "best_of", one, "best_of > 1 (server-side choice among completions) is not implemented", e);
    json_decref(one);
    if (rc) return -1;
    json_t *empty = json_string("");
    rc = api_refuse(req, "suffix", empty, "insertion (a suffix after the completion) is not implemented", e);
    json_decref(empty);
    if (rc) return -1;
    if (oai_read_format(o, req, e)) return -1;
    return 0;
}

static json_t *oai_legacy_logprobs(struct oai_req *o, struct oai_choice *c) {
    if (!o->logprobs) return json_null();
    return json_pack("{s:O, s:O, s:O, s:O}", "tokens", c->l_tokens, "token_logprobs", c->l_lps, "top_logprobs",
                     o->top_logprobs ? c->l_top : json_null(), "text_offset", c->l_off);
}

static json_t *oai_completion_reply(struct oai_req *o, struct run *run) {
    json_t *choices = json_array();
    for (int i = 0; i < o->n; i++) {
        struct oai_choice *c = &o->ch[i];
        struct api_buf text = {0};
        api_buf_add(&text, o->echo, o->echo_len);
        api_buf_add(&text, c->content.p, c->content.n);
        json_array_append_new(choices, json_pack("{s:o, s:i, s:o, s:s}", "text", api_json_text(text.p, text.n),
                                                 "index", i, "logprobs", oai_legacy_logprobs(o, c), "finish_reason",
                                                 run_finish_openai(c->finish, 0)));
        api_buf_free(&text);
    }
    return json_pack("{s:s, s:s, s:I, s:s, s:s, s:o, s:o}", "id", o->id, "object", "text_completion", "created",
                     (json_int_t)o->created, "model", o->s->model_id ? o->s->model_id : "", "system_fingerprint",
                     o->s->fingerprint, "choices", choices, "usage", oai_usage(o, run));
}

// A text_completion chunk of one choice.
static json_t *oai_text_chunk(struct oai_req *o, int index, json_t *text, json_t *logprobs, const char *finish) {
    json_t *j = json_pack("{s:s, s:s, s:I, s:s, s:s, s:[{s:o, s:i, s:o, s:o}]}", "id", o->id, "object",
                          "text_completion", "created", (json_int_t)o->created, "model",
                          o->s->model_id ? o->s->model_id : "", "system_fingerprint", o->s->fingerprint, "choices",
                          "text", text, "index", index, "logprobs", logprobs ? logprobs : json_null(),
                          "finish_reason", finish ? json_string(finish) : json_null());
    if (j && o->include_usage) json_object_set_new(j, "usage", json_null());
    return j;
}

static void oai_completion_stream_event(struct api_stream *st, const struct run_ev *ev) {
    struct oai_req *o = st->ud;
    if (ev->choice < 0 || ev->choice >= o->n) return;
    struct oai_choice *c = &o->ch[ev->choice];
    int i = ev->choice;
    switch (ev->kind) {
    case RUN_EV_CONTENT:
        if (o->logprobs) api_buf_add(&c->pending, ev->text, ev->len);
        else api_sse(st, NULL, oai_text_chunk(o, i, api_json_text(ev->text, ev->len), NULL, NULL));
        break;
    case RUN_EV_TOKENS: {
        if (!o->logprobs) break;
        // this chunk's tokens only: fresh arrays, the text offsets running on
        json_array_clear(c->l_tokens);
        json_array_clear(c->l_lps);
        json_array_clear(c->l_top);
        json_array_clear(c->l_off);
        for (int k = 0; k < ev->n_toks; k++)
            if (oai_token_shown(o->s, ev->toks[k].id, o->ignore_eos)) oai_legacy_add(o, c, &ev->toks[k]);
        if (!json_array_size(c->l_tokens) && !c->pending.n) break;
        api_sse(st, NULL, oai_text_chunk(o, i, api_json_text(c->pending.p, c->pending.n), oai_legacy_logprobs(o, c),
                                         NULL));
        c->pending.n = 0;
        break;
    }
    case RUN_EV_DONE:
        if (c->pending.n) {
            api_sse(st, NULL, oai_text_chunk(o, i, api_json_text(c->pending.p, c->pending.n), NULL, NULL));
            c->pending.n = 0;
        }
        c->done = true;
        c->finish = ev->finish;
        if (ev->finish == GEN_ERROR) {
            char msg[300];
            snprintf(msg, sizeof msg, "generation failed: %.*s", (int)(ev->len < 256 ? ev->len : 256),
                     ev->text ? ev->text : "");
            api_sse(st, NULL, json_pack("{s:{s:s, s:s, s:n, s:n}}", "error", "message", msg, "type", "server_error",
                                        "param", "code"));
        }
        api_sse(st, NULL, oai_text_chunk(o, i, json_string(""), NULL, run_finish_openai(ev->finish, 0)));
        break;
    default: break; // completions run without the output parser: content only
    }
}

void api_completions(struct srv *s, struct http_req *r, struct http_resp *out) { oai_handle(s, r, out, false); }

// ---- models ------------------------------------------------------------------------------

static json_t *oai_model_json(struct srv *s) {
    json_t *m = json_pack("{s:s, s:s, s:I, s:s}", "id", s->model_id ? s->model_id : "", "object", "model", "created",
                          (json_int_t)s->created, "owned_by", "frink");
    // llama-server's extra facts, for clients that size their prompts from them
    if (m && s->model)
        json_object_set_new(m, "meta",
                            json_pack("{s:i, s:i, s:i, s:I, s:I}", "n_vocab", frink_model_n_vocab(s->model),
                                      "n_ctx_train", frink_model_n_ctx_train(s->model), "n_ctx", s->n_ctx, "n_params",
                                      (json_int_t)frink_model_n_params(s->model), "size",
                                      (json_int_t)frink_model_size(s->model)));
    if (m && s->cfg.tags) json_object_set_new(m, "tags", api_tags_json(s->cfg.tags));
    return m;
}

void api_models(struct srv *s, struct http_req *r, struct http_resp *out) {
    (void)r;
    http_json(out, 200, json_pack("{s:s, s:[o]}", "object", "list", "data", oai_model_json(s)));
}

void api_model_get(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    const char *id = r->route_arg;
    if (!id && r->path) {
        const char *p = strstr(r->path, "/models/");
        id = p ? p + strlen("/models/") : "";
    }
    json_t *probe = json_pack("{s:s}", "model", id ? id : "");
    int rc = probe ? api_check_model(s, probe, true, &e) : -1;
    json_decref(probe);
    if (rc) {
        if (!e.status) api_err_set(&e, 500, "server_error", NULL, "out of memory");
        api_err_send(&e, r->api, out);
        return;
    }
    http_json(out, 200, oai_model_json(s));
}
