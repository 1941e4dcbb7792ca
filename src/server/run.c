// run.c — one request's generation: render, tokenize, submit n tasks, and read their text
// back through the chat output parser as events the API layers translate.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server/run.h"

// ---- errors ------------------------------------------------------------------------------

// Replaces each byte that does not begin a valid UTF-8 character with '?': an error message may
// quote the client's own bytes (a JSON parse error near invalid UTF-8), and a JSON string must
// be valid UTF-8 (overlong forms, surrogates and code points past U+10FFFF are not).
void srv_utf8_clean(char *s) {
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
        uint32_t cp = n == 2 ? *p & 0x1F : n == 3 ? *p & 0x0F : *p & 0x07;
        bool ok = n > 0;
        for (int i = 1; ok && i < n; i++) {
            ok = (p[i] & 0xC0) == 0x80;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if (ok && n > 1) {
            static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= min[n] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        }
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}


void api_err_set(struct api_err *e, int status, const char *type, const char *param, const char *fmt, ...) {
    e->status = status;
    snprintf(e->type, sizeof e->type, "%s", type ? type : "invalid_request_error");
    snprintf(e->param, sizeof e->param, "%s", param ? param : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    srv_utf8_clean(e->msg); // it may quote the client's bytes, or be cut inside a character
    e->retry_after = 0;
}

void api_err_send(const struct api_err *e, enum http_api api, struct http_resp *out) {
    http_error(out, api, e->status, e->type, e->param[0] ? e->param : NULL, "%s", e->msg);
    if (e->retry_after > 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", e->retry_after);
        http_add_header(out, "Retry-After", v);
    }
}

void api_reply_send(json_t *reply, enum http_api api, struct http_resp *out) {
    if (reply) {
        http_json(out, 200, reply);
        return;
    }
    struct api_err e = {0};
    api_err_set(&e, 500, "server_error", NULL, "out of memory");
    api_err_send(&e, api, out);
}

void run_params_init(struct run_params *p) {
    memset(p, 0, sizeof *p);
    p->add_generation_prompt = true;
    p->sp = frink_sampler_default_params();
    p->n_predict = -1;
    p->n = 1;
    p->parse_output = true;
    p->tool_parallel = true;
    p->fd = -1;
    p->id_slot = -1;
    p->spec_n_max = p->spec_n_min = -1;
    p->spec_p_min = -1;
}

void run_make_id(char *buf, size_t cap, const char *prefix) {
    static const char an[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char rnd[24];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec;
        for (size_t i = 0; i < sizeof rnd; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            rnd[i] = (unsigned char)x;
        }
    }
    size_t n = strlen(prefix);
    if (cap < n + 25) {
        if (cap) buf[0] = 0;
        return;
    }
    memcpy(buf, prefix, n);
    for (size_t i = 0; i < sizeof rnd; i++) buf[n + i] = an[rnd[i] % (sizeof an - 1)];
    buf[n + sizeof rnd] = 0;
}

// The grammar of the chat format's tool calls for p's tools (see run_params). 400 naming the
// tool field for a tool list or schema the grammar cannot express, or a format frink cannot
// constrain.
static int tool_grammar(struct srv *s, const struct run_params *p, char **gbnf, char **trigger, struct api_err *e) {
    *gbnf = *trigger = NULL;
    // The field that asked for it: the tool choice, or (for calls the model chooses to make)
    // a strict tool or parallel_tool_calls false.
    bool forced = p->tool_mode == RUN_TOOLS_REQUIRED;
    const char *param = forced ? (p->tool_param ? p->tool_param : "tool_choice")
                               : p->tools_strict ? "strict" : "parallel_tool_calls";
    if (!p->tools || !json_array_size(p->tools)) {
        api_err_set(e, 400, "invalid_request_error", param, "a tool call is asked for, but the request has no tools");
        return -1;
    }
    frink_chat_parser *probe = NULL;
    if (frink_chat_parser_create(NULL, s->tmpl, 0, 0, &probe) != FRINK_OK) {
        api_err_set(e, 500, "server_error", NULL, "%s", frink_errmsg());
        return -1;
    }
    if (!forced && !strcmp(frink_chat_parser_format(probe), "none")) {
        // The format has no tool calls at all: a strict or single call is trivially kept.
        frink_chat_parser_free(probe);
        return 0;
    }
    char *tools = json_dumps(p->tools, JSON_COMPACT);
    frink_status st = tools ? frink_tool_call_grammar(frink_chat_parser_format(probe), tools, strlen(tools), p->tool_name,
                                                      p->tool_parallel, gbnf, trigger)
                            : FRINK_ERR_NOMEM;
    free(tools);
    frink_chat_parser_free(probe);
    if (st) {
        api_err_set(e, st == FRINK_ERR_NOMEM ? 500 : 400, st == FRINK_ERR_NOMEM ? "server_error" : "invalid_request_error",
                    param, "%s: %s", param, st == FRINK_ERR_NOMEM ? "out of memory" : frink_errmsg());
        return -1;
    }
    return 0;
}

// Whether the vocabulary can spell text with ordinary tokens (a control token's text cannot be
// produced under a grammar, which sees only ordinary tokens' bytes).
static bool spellable(const frink_model *m, const char *text) {
    frink_token *ids = NULL;
    size_t n = 0;
    if (frink_tokenize(m, text, strlen(text), FRINK_TOKENIZE_PARSE_SPECIAL, &ids, &n) != FRINK_OK) return false;
    bool ok = true;
    char buf[256];
    for (size_t i = 0; i < n && ok; i++) ok = frink_token_piece(m, ids[i], buf, sizeof buf, false) > 0;
    frink_free(ids);
    return ok && n > 0;
}

// Whether the template's output format has tool calls frink parses (not just text and reasoning).
static bool tool_calls_parsed(struct srv *s) {
    frink_chat_parser *probe = NULL;
    if (frink_chat_parser_create(NULL, s->tmpl, 0, 0, &probe) != FRINK_OK) return false;
    const char *f = frink_chat_parser_format(probe);
    bool ok = strcmp(f, "none") != 0 && strcmp(f, "think") != 0;
    frink_chat_parser_free(probe);
    return ok;
}

bool run_template_knows(struct srv *s, const char *var) {
    const char *src = s->tmpl ? frink_template_source(s->tmpl) : NULL;
    return src && strstr(src, var);
}

const char *run_finish_openai(enum gen_finish f, int n_tool_calls) {
    switch (f) {
    case GEN_EOG: return n_tool_calls ? "tool_calls" : "stop";
    case GEN_STOP: return "stop";
    case GEN_LENGTH:
    case GEN_CTX: return "length";
    default: return "stop";
    }
}

const char *run_finish_anthropic(enum gen_finish f, int n_tool_calls) {
    switch (f) {
    case GEN_EOG: return n_tool_calls ? "tool_use" : "end_turn";
    case GEN_STOP: return "stop_sequence";
    case GEN_LENGTH:
    case GEN_CTX: return "max_tokens";
    default: return "end_turn";
    }
}

// ---- rendering -------------------------------------------------------------------------------

// The messages as templates read them: content parts joined into one string (text parts with
// a newline between them, as the reference's server does for templates that take strings),
// tool-call arguments as objects (templates apply tojson to them) when they parse as one.
static json_t *template_messages(json_t *msgs) {
    json_t *out = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m) {
        json_t *c = json_deep_copy(m);
        json_t *content = json_object_get(c, "content");
        // An assistant turn of tool calls only has content null; templates test it as a string.
        if (!content || json_is_null(content)) json_object_set_new(c, "content", json_string(""));
        else if (json_is_array(content)) {
            size_t cap = 256, n = 0, j;
            char *text = malloc(cap);
            json_t *part;
            text[0] = 0;
            json_array_foreach(content, j, part) {
                const char *t = json_string_value(json_object_get(part, "text"));
                if (!t) continue;
                size_t k = strlen(t);
                if (n + k + 2 > cap) {
                    while (n + k + 2 > cap) cap *= 2;
                    text = realloc(text, cap);
                }
                if (n) text[n++] = '\n';
                memcpy(text + n, t, k + 1);
                n += k;
            }
            json_object_set_new(c, "content", json_stringn(text, n));
            free(text);
        }
        json_t *calls = json_object_get(c, "tool_calls");
        size_t j;
        json_t *call;
        json_array_foreach(calls, j, call) {
            json_t *fn = json_object_get(call, "function");
            const char *args = json_string_value(json_object_get(fn, "arguments"));
            if (!args) continue;
            json_t *obj = json_loads(args, JSON_DECODE_ANY, NULL);
            if (json_is_object(obj)) json_object_set_new(fn, "arguments", obj);
            else json_decref(obj);
        }
        json_array_append_new(out, c);
    }
    return out;
}

// BOS as the model asks, once: a template that writes it itself is not given a second.
static frink_status tokenize_prompt(const frink_model *m, const char *text, size_t len, frink_token **ids,
                                    size_t *n) {
    frink_status st = frink_tokenize(m, text, len, FRINK_TOKENIZE_PARSE_SPECIAL, ids, n);
    if (st) return st;
    frink_token bos = frink_token_bos(m);
    if (frink_model_adds_bos(m) && bos >= 0 && (*n == 0 || (*ids)[0] != bos)) {
        frink_token *v = malloc((*n + 1) * sizeof *v);
        if (!v) return FRINK_ERR_NOMEM;
        v[0] = bos;
        if (*n) memcpy(v + 1, *ids, *n * sizeof *v);
        frink_free(*ids);
        *ids = v;
        (*n)++;
    } else if (*n == 0) {
        frink_free(*ids);
        *ids = NULL;
    }
    return FRINK_OK;
}

// Renders p's conversation. *text is malloc'ed.
static int render_chat(struct srv *s, const struct run_params *p, bool no_thinking, char **text, size_t *len,
                       struct api_err *e) {
    json_t *vars = json_object();
    if (p->template_vars) json_object_update(vars, p->template_vars);
    json_object_set_new(vars, "messages", template_messages(p->messages));
    if (p->tools && json_array_size(p->tools)) json_object_set(vars, "tools", p->tools);
    json_object_set_new(vars, "add_generation_prompt", json_boolean(p->add_generation_prompt));
    if (no_thinking && !json_object_get(vars, "enable_thinking")) json_object_set_new(vars, "enable_thinking", json_false());
    // --reasoning on|off: the template's switch where the request did not set it (as the
    // reference's default_template_kwargs).
    if (s->cfg.reasoning >= 0 && !json_object_get(vars, "enable_thinking") && run_template_knows(s, "enable_thinking"))
        json_object_set_new(vars, "enable_thinking", json_boolean(s->cfg.reasoning));
    char *v = json_dumps(vars, JSON_COMPACT);
    json_decref(vars);
    if (!v) {
        api_err_set(e, 500, "server_error", NULL, "out of memory");
        return -1;
    }
    char *out = NULL;
    size_t n = 0;
    frink_status st = frink_template_render(s->tmpl, v, strlen(v), p->now, &out, &n);
    free(v);
    if (st) {
        api_err_set(e, 400, "invalid_request_error", "messages", "%s", frink_errmsg());
        return -1;
    }
    size_t ct = p->continue_text ? strlen(p->continue_text) : 0;
    *text = malloc(n + ct + 1);
    if (!*text) {
        frink_free(out);
        api_err_set(e, 500, "server_error", NULL, "out of memory");
        return -1;
    }
    memcpy(*text, out, n);
    if (ct) memcpy(*text + n, p->continue_text, ct);
    (*text)[n + ct] = 0;
    *len = n + ct;
    frink_free(out);
    return 0;
}

int run_render(struct srv *s, const struct run_params *p, char **text, size_t *len, int *n_tokens,
               struct api_err *e) {
    if (render_chat(s, p, false, text, len, e)) return -1;
    frink_token *ids = NULL;
    size_t n = 0;
    if (tokenize_prompt(s->model, *text, *len, &ids, &n)) {
        free(*text);
        *text = NULL;
        api_err_set(e, 500, "server_error", NULL, "%s", frink_errmsg());
        return -1;
    }
    frink_free(ids);
    *n_tokens = (int)n;
    return 0;
}

// ---- runs ------------------------------------------------------------------------------------

struct choice {
    frink_chat_parser *parser;   // NULL: everything is content
    size_t n_text;               // text read from the task so far
    int n_toks;
    bool done;
    int n_calls;
};

struct run_priv {
    struct choice *ch;
    char *buf;                   // a copy of new text, read under the task's lock
    size_t cap;
    struct gen_tok *toks;
    int cap_toks;
};

struct emit_ctx {
    run_emit emit;
    void *ud;
    int choice;
    struct choice *ch;
};

static void on_delta(void *ud, const frink_chat_delta *d) {
    struct emit_ctx *x = ud;
    struct run_ev ev = {.choice = x->choice, .text = d->text, .len = d->len, .tool_index = d->index,
                        .tool_id = d->id, .tool_name = d->name};
    switch (d->kind) {
    case FRINK_DELTA_CONTENT: ev.kind = RUN_EV_CONTENT; break;
    case FRINK_DELTA_REASONING: ev.kind = RUN_EV_REASONING; break;
    case FRINK_DELTA_TOOL_NAME: ev.kind = RUN_EV_TOOL_NAME; break;
    case FRINK_DELTA_TOOL_ARGS: ev.kind = RUN_EV_TOOL_ARGS; break;
    case FRINK_DELTA_TOOL_END:
        ev.kind = RUN_EV_TOOL_END;
        x->ch->n_calls++;
        break;
    default: return; // warnings: the markup follows as content
    }
    if (!d->len && (ev.kind == RUN_EV_CONTENT || ev.kind == RUN_EV_REASONING)) return;
    x->emit(x->ud, &ev);
}

void run_free(struct run *r) {
    if (!r) return;
    struct run_priv *pv = r->priv;
    bool submitted = r->tasks && r->n > 0;
    for (int i = 0; submitted && i < r->n; i++) submitted = r->tasks[i] && r->tasks[i]->t_submit > 0;
    if (r->req && submitted) run_usage(r, &r->req->log_prompt, NULL, &r->req->log_completion);
    for (int i = 0; i < r->n; i++) {
        if (r->tasks && r->tasks[i]) {
            gen_task_cancel(r->tasks[i]);
            gen_task_release(r->tasks[i]);
        }
        if (pv && pv->ch) frink_chat_parser_free(pv->ch[i].parser);
    }
    if (pv) {
        free(pv->ch);
        free(pv->buf);
        free(pv->toks);
        free(pv);
    }
    free(r->tasks);
    free(r->prompt_text);
    free(r);
}

static uint64_t salt_hash(const char *s) {
    if (!s || !*s) return 0;
    uint64_t h = 1469598103934665603ull; // FNV-1a
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

// What run_start works out of a request before it makes tasks: how the output is constrained,
// the tool-call grammar and its opener (frink_free), the prompt's ids (frink_free).
struct run_plan {
    bool constrained;       // a grammar or a JSON schema from the request
    bool has_tools, tool_force, tool_constrained; // tools given; a call required; calls under a grammar
    const char *cparam;     // the parameter that constrained the output, for errors
    char *tgbnf, *ttrig;    // the tool-call grammar and its opener, or NULL
    frink_token *ids;       // [n_ids]: the prompt
    size_t n_ids;
};

static int run_nomem(struct api_err *e) {
    api_err_set(e, 500, "server_error", NULL, "out of memory");
    return -1;
}

// The tools against the template and the other constraints: refused when the output would be
// constrained two ways, when the model cannot see the tools, or when its calls would come back
// as text; the tool-call grammar compiled when calls are constrained. Returns 0, or -1 with *e set.
static int run_plan_tools(struct srv *s, const struct run_params *p, struct run_plan *pl, struct api_err *e) {
    pl->constrained = p->grammar || p->json_schema;
    pl->has_tools = p->tools && json_array_size(p->tools);
    pl->tool_force = p->tool_mode == RUN_TOOLS_REQUIRED;
    pl->tool_constrained =
        pl->tool_force || (p->tool_mode == RUN_TOOLS_AUTO && pl->has_tools && (p->tools_strict || !p->tool_parallel));
    pl->cparam = p->json_schema ? (p->schema_param ? p->schema_param : "response_format") : "grammar";
    if (pl->constrained && pl->tool_constrained) {
        api_err_set(e, 400, "invalid_request_error", pl->cparam,
                    "%s and a required, strict or single tool call constrain the output two ways; frink applies one",
                    pl->cparam);
        return -1;
    }
    bool tools_on = pl->has_tools && p->tool_mode != RUN_TOOLS_NONE;
    if (tools_on && p->messages && !run_template_knows(s, "tools")) {
        // The template never shows the tools to the model: it could not call them, and the
        // request would be answered as if it had sent none.
        api_err_set(e, 400, "invalid_request_error", "tools",
                    "this model's chat template does not render tools (it never reads 'tools'), so the model "
                    "cannot see or call them; serve it with a template that does (--chat-template-file), "
                    "or leave the tools out (or send tool_choice \"none\")");
        return -1;
    }
    if (pl->tool_constrained && tool_grammar(s, p, &pl->tgbnf, &pl->ttrig, e)) return -1;
    if (tools_on && run_template_knows(s, "tools") && !tool_calls_parsed(s)) {
        // The model is shown the tools and may call them, but its calls would reach the client
        // as text: a wrong answer that looks right.
        api_err_set(e, 400, "invalid_request_error", "tools",
                    "this model's chat template renders tools, but frink does not parse its tool-call format "
                    "(calls would come back as text); serve it with a template whose format frink parses "
                    "(--chat-template-file), or send tool_choice \"none\"");
        return -1;
    }
    return 0;
}

// The prompt's ids into pl->ids: the messages rendered and tokenized, or the prompt's own ids;
// refused when empty or when they leave no room in a slot. Returns 0, or -1 with *e set.
static int run_plan_prompt(struct srv *s, const struct run_params *p, struct run *r, struct run_plan *pl,
                           struct api_err *e) {
    if (p->messages) {
        // Constrained output starts at the first generated token, so a template that would
        // open a reasoning block is asked not to (when it can be); one that still does is
        // refused below rather than forced to skip its reasoning markup.
        if (render_chat(s, p, pl->constrained && run_template_knows(s, "enable_thinking"), &r->prompt_text,
                        &r->prompt_len, e))
            return -1;
        if (tokenize_prompt(s->model, r->prompt_text, r->prompt_len, &pl->ids, &pl->n_ids)) {
            api_err_set(e, 500, "server_error", NULL, "%s", frink_errmsg());
            return -1;
        }
    } else {
        if (p->n_prompt < 1) {
            api_err_set(e, 400, "invalid_request_error", "prompt", "the prompt is empty");
            return -1;
        }
        pl->ids = malloc((size_t)p->n_prompt * sizeof *pl->ids);
        if (!pl->ids) return run_nomem(e);
        memcpy(pl->ids, p->prompt, (size_t)p->n_prompt * sizeof *pl->ids);
        pl->n_ids = (size_t)p->n_prompt;
    }
    r->n_prompt = (int)pl->n_ids;
    if (pl->n_ids < 1) {
        api_err_set(e, 400, "invalid_request_error", p->messages ? "messages" : "prompt", "the prompt has no tokens");
        return -1;
    }
    if ((int)pl->n_ids >= s->n_ctx) {
        api_err_set(e, 400, "invalid_request_error", p->messages ? "messages" : "prompt",
                    "the prompt is %zu tokens; a slot's context is %d (it must leave room for at least one "
                    "generated token)",
                    pl->n_ids, s->n_ctx);
        snprintf(e->type, sizeof e->type, "invalid_request_error");
        return -1;
    }
    return 0;
}

// The chat output parser of the template's format, one a choice; the prompt may leave it in
// reasoning, which constrained output cannot follow. Returns 0, or -1 with *e set.
static int run_plan_parsers(struct srv *s, const struct run_params *p, struct run *r, const struct run_plan *pl,
                            struct api_err *e) {
    struct run_priv *pv = r->priv;
    unsigned flags = p->whole_tool_calls ? FRINK_CHAT_WHOLE_CALLS : 0;
    frink_chat_parser *probe = NULL;
    if (frink_chat_parser_create(NULL, s->tmpl, 0, 0, &probe) == FRINK_OK) {
        r->format = frink_chat_parser_format(probe);
        r->opens_reasoning = frink_chat_prompt_opens_reasoning(r->format, s->tmpl, r->prompt_text, r->prompt_len);
    }
    if (r->opens_reasoning) flags |= FRINK_CHAT_STARTS_IN_REASONING;
    int rc = 0;
    if (pl->constrained && r->opens_reasoning) {
        api_err_set(e, 400, "invalid_request_error", pl->cparam,
                    "constrained output cannot follow a reasoning block yet, and this template opens one "
                    "(turn reasoning off: reasoning_effort \"none\" or chat_template_kwargs.enable_thinking "
                    "false)");
        rc = -1;
    }
    // Call ids are random per request (a seed fixes the text, not the ids: two conversations
    // with one seed must not share call ids).
    uint64_t id_seed;
    if (!rc && getrandom(&id_seed, sizeof id_seed, 0) != (ssize_t)sizeof id_seed) id_seed = p->sp.seed ^ (uint64_t)time(NULL);
    for (int i = 0; !rc && i < p->n; i++) {
        if (frink_chat_parser_create(r->format, s->tmpl, flags, id_seed + (uint64_t)i, &pv->ch[i].parser)) {
            api_err_set(e, 500, "server_error", NULL, "%s", frink_errmsg());
            rc = -1;
        }
    }
    frink_chat_parser_free(probe);
    if (!rc && r->format) r->format = frink_chat_parser_format(pv->ch[0].parser);
    return rc;
}

// The grammar of task t: the tool-call grammar (eager from the first token when a call is
// required, no reasoning comes first and ordinary tokens can spell the opener; lazy from the
// opener on otherwise), or the request's grammar or schema. Returns 0, or -1 with *e set.
static int run_task_grammar(struct srv *s, const struct run_params *p, const struct run *r, const struct run_plan *pl,
                            struct gen_task *t, struct api_err *e) {
    if (pl->tgbnf) {
        bool eager = pl->tool_force && !r->opens_reasoning && spellable(s->model, pl->ttrig);
        if (frink_grammar_create(s->model, pl->tgbnf, strlen(pl->tgbnf), NULL, &t->grammar)) {
            api_err_set(e, 400, "invalid_request_error", p->tool_param ? p->tool_param : "tool_choice", "%s",
                        frink_errmsg());
            return -1;
        }
        if (!eager && !(t->grammar_trigger = strdup(pl->ttrig))) return run_nomem(e);
        t->grammar_force = pl->tool_force && !eager;
    } else if (pl->constrained) {
        frink_status st = p->grammar
                              ? frink_grammar_create(s->model, p->grammar, strlen(p->grammar), NULL, &t->grammar)
                              : frink_grammar_from_json_schema(s->model, p->json_schema, strlen(p->json_schema),
                                                               &t->grammar);
        if (st) {
            api_err_set(e, 400, "invalid_request_error", pl->cparam, "%s: %s", pl->cparam, frink_errmsg());
            return -1;
        }
    }
    return 0;
}

// Choice i's task into r->tasks[i] (run_free frees it, however far it got): the prompt, the
// sampling (seeded seed + i), stops, logprobs, the cache salt, the grammar. Returns 0, or -1
// with *e set.
static int run_task_new(struct srv *s, const struct run_params *p, struct run *r, int i, const struct run_plan *pl,
                        struct api_err *e) {
    struct gen_task *t = gen_task_new();
    if (!t) return run_nomem(e);
    r->tasks[i] = t;
    t->prompt = malloc(pl->n_ids * sizeof *t->prompt);
    if (!t->prompt) return run_nomem(e);
    memcpy(t->prompt, pl->ids, pl->n_ids * sizeof *pl->ids);
    t->n_prompt = (int)pl->n_ids;
    t->sp = p->sp;
    t->sp.seed = p->sp.seed + (uint64_t)i; // each choice its own draw, all reproducible
    if (p->sp.n_logit_bias) {
        t->bias = malloc((size_t)p->sp.n_logit_bias * sizeof *t->bias);
        if (!t->bias) return run_nomem(e);
        memcpy(t->bias, p->sp.logit_bias, (size_t)p->sp.n_logit_bias * sizeof *t->bias);
        t->sp.logit_bias = t->bias;
    }
    t->n_predict = p->n_predict >= 0 ? p->n_predict : s->cfg.n_predict;
    if (p->n_stop) {
        t->stop = calloc((size_t)p->n_stop, sizeof *t->stop);
        if (!t->stop) return run_nomem(e);
        for (int j = 0; j < p->n_stop; j++) {
            t->stop[j] = strdup(p->stop[j]);
            if (!t->stop[j]) return run_nomem(e);
            t->n_stop = j + 1;
        }
    }
    t->logprobs = p->logprobs;
    t->top_logprobs = p->top_logprobs;
    t->ignore_eos = p->ignore_eos;
    t->salt = salt_hash(p->cache_salt);
    t->fd = p->fd;
    t->want_slot = p->id_slot;
    t->no_reuse = p->no_reuse;
    t->spec_n_max = p->spec_n_max;
    t->spec_n_min = p->spec_n_min;
    t->spec_p_min = p->spec_p_min;
    return run_task_grammar(s, p, r, pl, t, e);
}

// The tasks to the scheduler. Returns 0, or -1 with *e set (loading, busy, too long, stopping).
static int run_submit(struct srv *s, const struct run_params *p, struct run *r, struct api_err *e) {
    if (!s->sched || !atomic_load(&s->ready)) {
        api_err_set(e, 503, "server_error", NULL, "the model is loading");
        e->retry_after = 1;
        return -1;
    }
    switch (sched_submit_many(s->sched, r->tasks, r->n)) {
    case SCHED_OK: return 0;
    case SCHED_FULL:
        api_err_set(e, 503, "server_error", NULL, "the server is busy: %d requests are waiting for a slot",
                    s->cfg.max_queue);
        e->retry_after = 1;
        return -1;
    case SCHED_TOO_LONG:
        api_err_set(e, 400, "invalid_request_error", p->messages ? "messages" : "prompt",
                    "the prompt does not fit a slot's context (%d tokens)", s->n_ctx);
        return -1;
    default:
        api_err_set(e, 503, "server_error", NULL, "the server is shutting down");
        return -1;
    }
}

int run_start(struct srv *s, const struct run_params *p, struct run **out, struct api_err *e) {
    *out = NULL;
    atomic_fetch_add(&s->n_requests, 1);
    if (p->n < 1 || p->n > 16) {
        atomic_fetch_add(&s->n_requests_failed, 1);
        api_err_set(e, 400, "invalid_request_error", "n", "n must be between 1 and 16, got %d", p->n);
        return -1;
    }
    struct run *r = calloc(1, sizeof *r);
    struct run_priv *pv = calloc(1, sizeof *pv);
    if (!r || !pv) {
        free(r);
        free(pv);
        return run_nomem(e);
    }
    r->s = s;
    r->priv = pv;
    r->req = p->req;
    r->n = p->n;
    r->tasks = calloc((size_t)p->n, sizeof *r->tasks);
    pv->ch = calloc((size_t)p->n, sizeof *pv->ch);
    struct run_plan pl = {0};
    int rc = !r->tasks || !pv->ch ? run_nomem(e) : run_plan_tools(s, p, &pl, e);
    if (!rc) rc = run_plan_prompt(s, p, r, &pl, e);
    if (!rc && p->messages && p->parse_output) rc = run_plan_parsers(s, p, r, &pl, e);
    for (int i = 0; !rc && i < p->n; i++) rc = run_task_new(s, p, r, i, &pl, e);
    frink_free(pl.ids);
    if (!rc) rc = run_submit(s, p, r, e);
    frink_free(pl.tgbnf);
    frink_free(pl.ttrig);
    if (rc) {
        atomic_fetch_add(&s->n_requests_failed, 1);
        run_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

// Emits what choice i has that is new. Returns true when the choice is done.
static bool run_choice(struct run *r, int i, run_emit emit, void *ud) {
    struct run_priv *pv = r->priv;
    struct choice *ch = &pv->ch[i];
    struct gen_task *t = r->tasks[i];
    if (ch->done) return true;
    pthread_mutex_lock(&t->mu);
    size_t nt = t->n_text - ch->n_text;
    int nk = t->n_toks - ch->n_toks;
    enum gen_finish f = t->finish;
    if (nt + 1 > pv->cap) {
        char *nb = realloc(pv->buf, nt + 1);
        if (nb) {
            pv->buf = nb;
            pv->cap = nt + 1;
        } else {
            nt = 0;
        }
    }
    if (nt) memcpy(pv->buf, t->text + ch->n_text, nt);
    if (nk > pv->cap_toks) {
        struct gen_tok *ng = realloc(pv->toks, (size_t)nk * sizeof *ng);
        if (ng) {
            pv->toks = ng;
            pv->cap_toks = nk;
        } else {
            nk = 0;
        }
    }
    if (nk) memcpy(pv->toks, t->toks + ch->n_toks, (size_t)nk * sizeof *pv->toks);
    int stop_index = t->stop_index;
    pthread_mutex_unlock(&t->mu);
    ch->n_text += nt;
    ch->n_toks += nk;

    struct emit_ctx x = {.emit = emit, .ud = ud, .choice = i, .ch = ch};
    if (nt) {
        if (ch->parser) frink_chat_parser_feed(ch->parser, pv->buf, nt, on_delta, &x);
        else {
            struct run_ev ev = {.kind = RUN_EV_CONTENT, .choice = i, .text = pv->buf, .len = nt};
            emit(ud, &ev);
        }
    }
    if (f != GEN_RUNNING && ch->parser) frink_chat_parser_finish(ch->parser, on_delta, &x);
    if (nk) {
        struct run_ev ev = {.kind = RUN_EV_TOKENS, .choice = i, .toks = pv->toks, .n_toks = nk};
        emit(ud, &ev);
    }
    if (f == GEN_RUNNING) return false;
    struct run_ev ev = {.kind = RUN_EV_DONE, .choice = i, .finish = f, .n_tool_calls = ch->n_calls};
    if (f == GEN_STOP && stop_index >= 0 && stop_index < t->n_stop) ev.stop_string = t->stop[stop_index];
    if (f == GEN_ERROR) {
        ev.text = t->err;
        ev.len = strlen(t->err);
    }
    emit(ud, &ev);
    ch->done = true;
    return true;
}

static bool has_news(struct run *r, int i) {
    struct run_priv *pv = r->priv;
    struct gen_task *t = r->tasks[i];
    pthread_mutex_lock(&t->mu);
    bool news = t->finish != GEN_RUNNING || t->n_text != pv->ch[i].n_text || t->n_toks != pv->ch[i].n_toks;
    pthread_mutex_unlock(&t->mu);
    return news;
}

int run_next(struct run *r, int timeout_ms, run_emit emit, void *ud) {
    struct run_priv *pv = r->priv;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double end = ts.tv_sec + ts.tv_nsec * 1e-9 + timeout_ms / 1e3;
    for (;;) {
        bool any = false, all = true;
        for (int i = 0; i < r->n; i++) {
            if (pv->ch[i].done) continue;
            all = false;
            if (has_news(r, i)) any = true;
        }
        if (all) return 1;
        if (any) break;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double left = end - (ts.tv_sec + ts.tv_nsec * 1e-9);
        if (left <= 0) return 0;
        // Wait on the first unfinished choice; with several, in short slices so none lags.
        for (int i = 0; i < r->n; i++) {
            if (pv->ch[i].done) continue;
            struct choice *c = &pv->ch[i];
            int ms = (int)(left * 1e3) + 1;
            if (r->n > 1 && ms > 20) ms = 20;
            gen_task_wait(r->tasks[i], c->n_text, c->n_toks, ms);
            break;
        }
    }
    bool all = true;
    for (int i = 0; i < r->n; i++) all &= run_choice(r, i, emit, ud);
    return all ? 1 : 0;
}

int run_wait(struct run *r, run_emit emit, void *ud) {
    while (run_next(r, 1000, emit, ud) != 1) {
    }
    for (int i = 0; i < r->n; i++)
        if (r->tasks[i]->finish == GEN_CANCELLED) return -1;
    return 0;
}

void run_usage(const struct run *r, int *prompt, int *cached, int *completion) {
    int comp = 0, cach = 0;
    for (int i = 0; i < r->n; i++) {
        struct gen_task *t = r->tasks[i];
        pthread_mutex_lock(&t->mu);
        comp += t->finish != GEN_RUNNING ? t->n_gen : t->n_toks;
        if (i == 0) cach = t->n_cached;
        pthread_mutex_unlock(&t->mu);
    }
    if (prompt) *prompt = r->n_prompt;
    if (cached) *cached = cach;
    if (completion) *completion = comp;
}
