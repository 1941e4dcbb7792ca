// api_native.c — llama-server's own completion endpoint: POST /completion (and /completions,
// as the reference routes both), the one harnesses and many llama.cpp clients call.
//
// The request is the reference's (tools/server/README.md): prompt (a string, token ids, or
// both mixed), n_predict, the sampling fields, stop, stream, n_probs, cache_prompt, id_slot,
// return_tokens, grammar / json_schema. Every field of the reference's that would change the
// output and that frink does not implement is a 400 naming it (mirostat, DRY, XTC, a sampler
// order, post-sampling probabilities, per-token timings, ...); harmless unknown fields are
// ignored, as everywhere else.
//
// The reply is the reference's object: content, tokens, id_slot, stop, model,
// tokens_predicted, tokens_evaluated, generation_settings, prompt, has_new_line, truncated,
// stop_type ("eos", "word", "limit", "none") and stopping_word, tokens_cached, timings
// (cache_n, prompt_n, prompt_ms, prompt_per_token_ms, prompt_per_second, predicted_n,
// predicted_ms, predicted_per_token_ms, predicted_per_second), completion_probabilities with
// n_probs. Older llama-server versions answered stopped_eos / stopped_word / stopped_limit:
// they are sent too, for the clients written against them.
//
// Streamed, each SSE event is "data: {...}" with the text since the last one (content, its
// token ids in tokens, stop false, and its completion_probabilities with n_probs); the last is
// the whole object above with stop true, empty content and tokens (the reference's shape: its
// stream has no [DONE]).
//
// Where the text and the tokens do not line up: frink releases whole UTF-8 characters and
// withholds what may still become a stop string, so an event carries the text released with
// its tokens, not always one token's piece.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

#define NAT_MAX_STOP 16
#define NAT_MAX_TOKENS (1L << 30)

struct nat_req {
    struct srv *s;
    json_t *body;                // the request (run_params borrow from it)
    struct run_params p;
    frink_logit_bias *bias;
    const char **stop;
    char *schema;
    frink_token *prompt;
    char *prompt_text;           // unused but owned (api_read_prompt's text)
    size_t prompt_len;
    bool stream, return_tokens, cache_prompt;
    int n_probs;
    // the reply so far
    struct api_buf content;      // whole: all the text; stream: the text not yet sent
    json_t *tokens;              // ids: all (whole), or those not yet sent (stream)
    json_t *probs;               // completion_probabilities (NULL without n_probs)
    enum gen_finish finish;
    char stop_word[256];
    char err[256];
    bool has_new_line;
    int n_toks;                  // tokens generated so far (tokens_predicted of a partial event)
};

static void nat_free(void *ud) {
    struct nat_req *o = ud;
    if (!o) return;
    free(o->bias);
    free(o->stop);
    free(o->schema);
    free(o->prompt);
    free(o->prompt_text);
    api_buf_free(&o->content);
    json_decref(o->tokens);
    json_decref(o->probs);
    json_decref(o->body);
    free(o);
}

// ---- the request -------------------------------------------------------------------------

// The reference's fields that change the output and that frink does not implement: refused
// unless at their "off" value (NULL: refused whenever present).
static int nat_refuse(json_t *req, struct api_err *e) {
    static const struct {
        const char *key;
        const char *off;         // JSON text of the harmless value
        const char *why;
    } fields[] = {
        {"mirostat", "0", "frink's sampler does not implement it"},
        {"typical_p", "1", "frink's sampler does not implement it"},
        {"dynatemp_range", "0", "frink's sampler does not implement it"},
        {"xtc_probability", "0", "frink's sampler does not implement it"},
        {"dry_multiplier", "0", "frink's sampler does not implement it"},
        {"top_n_sigma", "-1", "frink's sampler does not implement it"},
        {"min_keep", "0", "frink's sampler does not implement it"},
        {"n_indent", "0", "indentation limits are not implemented"},
        {"n_cmpl", "1", "one completion per request (send one request each)"},
        {"n_cache_reuse", "0", "frink reuses prefixes only, never shifted chunks"},
        {"t_max_predict_ms", "0", "time limits on generation are not implemented"},
        {"samplers", NULL, "the sampler order is fixed (penalties, top-k, top-p, min-p, temperature)"},
        {"post_sampling_probs", "false", "probabilities are of the raw distribution"},
        {"timings_per_token", "false", "timings come with the last event only"},
        {"return_progress", "false", "prompt progress events are not implemented"},
        {"response_fields", "[]", "the whole reply is always sent"},
        {"lora", "[]", "LoRA adapters are not implemented"},
        {"grammar_lazy", "false", "lazy grammars are not implemented here (tool calls use them)"},
        {"grammar_triggers", "[]", "lazy grammars are not implemented here (tool calls use them)"},
        {"preserved_tokens", "[]", "lazy grammars are not implemented here (tool calls use them)"},
        {"multimodal_data", NULL, "multimodal prompts are not implemented"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        json_t *ok = fields[i].off ? json_loads(fields[i].off, JSON_DECODE_ANY, NULL) : NULL;
        int rc = api_refuse(req, fields[i].key, ok, fields[i].why, e);
        json_decref(ok);
        if (rc) return -1;
    }
    return 0;
}

static int nat_read(struct nat_req *o, json_t *req, struct api_err *e) {
    struct run_params *p = &o->p;
    long l;
    int rc;
    if (api_check_model(o->s, req, false, e)) return -1;
    int n = 0;
    if (api_read_prompt(o->s, req, &o->prompt, &n, &o->prompt_text, &o->prompt_len, e)) return -1;
    p->prompt = o->prompt;
    p->n_prompt = n;
    if (nat_refuse(req, e)) return -1;
    // The reference samples greedily at a negative temperature.
    json_t *tv = json_object_get(req, "temperature");
    if (json_is_number(tv) && json_number_value(tv) < 0) json_object_set_new(req, "temperature", json_real(0));
    if (api_read_sampling(o->s, req, p, &o->bias, e)) return -1;
    // n_predict (the reference also reads max_tokens): -1 the server's default, 0 the prompt only.
    long np = -1, mt = -1;
    int rn = api_get_int(req, "n_predict", -1, NAT_MAX_TOKENS, &np, e);
    if (rn < 0) return -1;
    int rm = api_get_int(req, "max_tokens", -1, NAT_MAX_TOKENS, &mt, e);
    if (rm < 0) return -1;
    if (rn && rm && np != mt)
        return api_bad(e, "n_predict", "'n_predict' (%ld) and 'max_tokens' (%ld) disagree; give one", np, mt);
    p->n_predict = (int)(rn ? np : rm ? mt : -1);
    if (api_get_strings(req, "stop", NAT_MAX_STOP, &o->stop, &p->n_stop, e) < 0) return -1;
    p->stop = o->stop;
    if (api_get_bool(req, "stream", &o->stream, e) < 0) return -1;
    if (api_get_bool(req, "ignore_eos", &p->ignore_eos, e) < 0) return -1;
    if (api_get_bool(req, "return_tokens", &o->return_tokens, e) < 0) return -1;
    if ((rc = api_get_int(req, "n_probs", 0, GEN_TOP_MAX, &l, e)) < 0) return -1;
    o->n_probs = rc ? (int)l : 0;
    p->logprobs = o->n_probs > 0;
    p->top_logprobs = o->n_probs;
    o->cache_prompt = true;
    if (api_get_bool(req, "cache_prompt", &o->cache_prompt, e) < 0) return -1;
    p->no_reuse = !o->cache_prompt;
    if ((rc = api_get_int(req, "id_slot", -1, 1L << 30, &l, e)) < 0) return -1;
    if (rc && l >= o->s->cfg.n_slots)
        return api_bad(e, "id_slot", "'id_slot' %ld is out of range: the server has %d slots (0..%d; -1: any)", l,
                       o->s->cfg.n_slots, o->s->cfg.n_slots - 1);
    p->id_slot = rc ? (int)l : -1;
    // n_keep says what to keep when the context shifts; frink never shifts it.
    if (api_get_int(req, "n_keep", -1, NAT_MAX_TOKENS, &l, e) < 0) return -1;
    if (api_get_int(req, "sse_ping_interval", -1, 1L << 20, &l, e) < 0) return -1;
    if (api_get_str(req, "cache_salt", &p->cache_salt, e) < 0) return -1;
    // grammar (GBNF) or json_schema (an object), one of them
    if (api_get_str(req, "grammar", &p->grammar, e) < 0) return -1;
    if (p->grammar && !p->grammar[0]) p->grammar = NULL;
    json_t *js = json_object_get(req, "json_schema");
    if (js && !json_is_null(js)) {
        if (!json_is_object(js) && !json_is_boolean(js))
            return api_bad(e, "json_schema", "'json_schema' must be a JSON Schema (an object)");
        if (p->grammar) return api_bad(e, "grammar", "give either 'grammar' or 'json_schema', not both");
        if (!(o->schema = json_dumps(js, JSON_COMPACT | JSON_ENCODE_ANY))) {
            api_err_set(e, 500, "server_error", NULL, "out of memory");
            return -1;
        }
        p->json_schema = o->schema;
        p->schema_param = "json_schema";
    }
    p->parse_output = false; // raw text, as the reference's completion endpoint
    p->whole_tool_calls = true;
    return 0;
}

// ---- the reply -------------------------------------------------------------------------------

// A token's text as the reference writes it: the piece cut at its first byte that does not
// begin a whole UTF-8 character; its bytes in full.
static json_t *nat_token_text(struct srv *s, frink_token id, json_t **bytes) {
    char piece[512];
    int n = frink_token_piece(s->model, id, piece, sizeof piece, true);
    if (n < 0) n = 0;
    *bytes = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(*bytes, json_integer((unsigned char)piece[i]));
    size_t ok = 0;
    while (ok < (size_t)n && !api_utf8_valid(piece, (size_t)n - ok)) ok++;
    return json_stringn(piece, (size_t)n - ok);
}

// -inf (a banned token) cannot be JSON: the reference writes the lowest float instead.
static json_t *nat_logprob(float lp) { return json_real(isfinite(lp) ? (double)lp : -FLT_MAX); }

// {id, token, bytes, logprob, top_logprobs: [{id, token, bytes, logprob}]}
static json_t *nat_prob(struct srv *s, const struct gen_tok *g, int n_probs) {
    json_t *bytes, *top = json_array();
    json_t *text = nat_token_text(s, g->id, &bytes);
    for (int k = 0; k < g->n_top && k < n_probs; k++) {
        json_t *tb;
        json_t *tt = nat_token_text(s, g->top_id[k], &tb);
        json_array_append_new(top, json_pack("{s:i, s:o, s:o, s:o}", "id", g->top_id[k], "token", tt, "bytes", tb,
                                             "logprob", nat_logprob(g->top_lp[k])));
    }
    return json_pack("{s:i, s:o, s:o, s:o, s:o}", "id", g->id, "token", text, "bytes", bytes, "logprob",
                     nat_logprob(g->logprob), "top_logprobs", top);
}

static const char *nat_stop_type(enum gen_finish f) {
    switch (f) {
    case GEN_EOG: return "eos";
    case GEN_STOP: return "word";
    case GEN_LENGTH:
    case GEN_CTX: return "limit";
    default: return "none";
    }
}

// What the request was run with, in the reference's names.
static json_t *nat_settings(struct nat_req *o, const struct gen_task *t) {
    const frink_sampler_params *sp = &t->sp;
    json_t *stop = json_array(), *bias = json_array();
    for (int i = 0; i < o->p.n_stop; i++) json_array_append_new(stop, json_string(o->p.stop[i]));
    for (int i = 0; i < sp->n_logit_bias; i++)
        json_array_append_new(bias, json_pack("{s:f, s:i}", "bias", (double)sp->logit_bias[i].bias, "token",
                                              sp->logit_bias[i].token));
    return json_pack("{s:I, s:f, s:i, s:f, s:f, s:i, s:f, s:f, s:f, s:i, s:i, s:b, s:b, s:i, s:o, s:o, s:s, s:i, "
                     "s:s, s:b, s:i}",
                     "seed", (json_int_t)sp->seed, "temperature", (double)sp->temp, "top_k", sp->top_k, "top_p",
                     (double)sp->top_p, "min_p", (double)sp->min_p, "repeat_last_n", sp->penalty_last_n,
                     "repeat_penalty", (double)sp->repeat_penalty, "presence_penalty", (double)sp->presence_penalty,
                     "frequency_penalty", (double)sp->frequency_penalty, "n_predict", t->n_predict, "max_tokens",
                     t->n_predict, "ignore_eos", t->ignore_eos, "stream", o->stream, "n_probs", o->n_probs, "stop",
                     stop, "logit_bias", bias, "grammar", o->p.grammar ? o->p.grammar : "", "n_ctx", o->s->n_ctx,
                     "model", o->s->model_id ? o->s->model_id : "", "cache_prompt", o->cache_prompt, "id_slot",
                     o->p.id_slot);
}

// The reference's timings: the prompt from the slot's start to the first sampled token, the
// generation from there to the end.
static json_t *nat_timings(const struct gen_task *t) {
    int prompt_n = t->n_prompt - t->n_cached, pred_n = t->n_gen;
    double t_first = t->t_first > 0 ? t->t_first : t->t_end;
    double prompt_ms = t->t_start > 0 && t_first >= t->t_start ? (t_first - t->t_start) * 1e3 : 0;
    double pred_ms = t->t_first > 0 && t->t_end >= t->t_first ? (t->t_end - t->t_first) * 1e3 : 0;
    json_t *j = json_pack("{s:i, s:i, s:f, s:f, s:f, s:i, s:f, s:f, s:f}", "cache_n", t->n_cached, "prompt_n", prompt_n,
                     "prompt_ms", prompt_ms, "prompt_per_token_ms", prompt_n ? prompt_ms / prompt_n : 0.0,
                     "prompt_per_second", prompt_ms > 0 ? prompt_n * 1e3 / prompt_ms : 0.0, "predicted_n", pred_n,
                     "predicted_ms", pred_ms, "predicted_per_token_ms", pred_n ? pred_ms / pred_n : 0.0,
                     "predicted_per_second", pred_ms > 0 ? pred_n * 1e3 / pred_ms : 0.0);
    if (j && t->draft_n > 0) { // speculative steps drafted: how many, and how many were kept
        json_object_set_new(j, "draft_n", json_integer(t->draft_n));
        json_object_set_new(j, "draft_n_accepted", json_integer(t->draft_accepted));
    }
    return j;
}

// The whole object (the last event of a stream: content and tokens empty, no probabilities).
static json_t *nat_final(struct nat_req *o, struct run *run) {
    const struct gen_task *t = run->tasks[0];
    char *prompt = frink_detokenize(o->s->model, o->p.prompt, (size_t)o->p.n_prompt, true);
    bool whole = !o->stream;
    int evaluated = t->n_prompt + (t->n_gen > 0 ? t->n_gen - 1 : 0); // the last sampled token is never fed
    json_t *j = json_pack(
        "{s:i, s:o, s:o, s:i, s:b, s:s, s:i, s:i, s:o, s:o, s:b, s:b, s:s, s:s, s:b, s:b, s:b, s:i, s:o}", "index", 0,
        "content", whole ? api_json_text(o->content.p, o->content.n) : json_string(""), "tokens",
        whole && o->return_tokens ? json_incref(o->tokens) : json_array(), "id_slot", t->slot, "stop", true, "model",
        o->s->model_id ? o->s->model_id : "", "tokens_predicted", t->n_gen, "tokens_evaluated", t->n_prompt,
        "generation_settings", nat_settings(o, t), "prompt", api_json_text(prompt ? prompt : "", prompt ? strlen(prompt) : 0),
        "has_new_line", o->has_new_line, "truncated", o->finish == GEN_CTX, "stop_type", nat_stop_type(o->finish),
        "stopping_word", o->stop_word, "stopped_eos", o->finish == GEN_EOG, "stopped_word", o->finish == GEN_STOP,
        "stopped_limit", o->finish == GEN_LENGTH || o->finish == GEN_CTX, "tokens_cached", evaluated, "timings",
        nat_timings(t));
    frink_free(prompt);
    if (j && whole && o->probs && json_array_size(o->probs))
        json_object_set(j, "completion_probabilities", o->probs);
    return j;
}

// Folds an event into the reply (whole) or the text and tokens waiting to be sent (stream).
static void nat_event(struct nat_req *o, const struct run_ev *ev) {
    switch (ev->kind) {
    case RUN_EV_CONTENT:
        api_buf_add(&o->content, ev->text, ev->len);
        if (memchr(ev->text, '\n', ev->len)) o->has_new_line = true;
        break;
    case RUN_EV_TOKENS:
        o->n_toks += ev->n_toks;
        for (int i = 0; i < ev->n_toks; i++) {
            const struct gen_tok *g = &ev->toks[i];
            // An ending end-of-generation token is not part of the text (unless ignored).
            if (!o->p.ignore_eos && frink_token_is_eog(o->s->model, g->id)) continue;
            json_array_append_new(o->tokens, json_integer(g->id));
            if (o->probs) json_array_append_new(o->probs, nat_prob(o->s, g, o->n_probs));
        }
        break;
    case RUN_EV_DONE:
        o->finish = ev->finish;
        if (ev->stop_string) snprintf(o->stop_word, sizeof o->stop_word, "%s", ev->stop_string);
        if (ev->finish == GEN_ERROR && ev->text) snprintf(o->err, sizeof o->err, "%.*s", (int)ev->len, ev->text);
        break;
    default: break; // no output parser: content only
    }
}

static void nat_collect(void *ud, const struct run_ev *ev) { nat_event(ud, ev); }

// A partial event of the stream: the text and tokens since the last one.
static void nat_stream_flush(struct api_stream *st, struct nat_req *o) {
    if (!o->content.n && !json_array_size(o->tokens)) return;
    const struct gen_task *t = st->run->tasks[0];
    json_t *j = json_pack("{s:i, s:o, s:O, s:b, s:i, s:i, s:i}", "index", 0, "content",
                          api_json_text(o->content.p, o->content.n), "tokens", o->tokens, "stop", false, "id_slot",
                          t->slot, "tokens_predicted", o->n_toks, "tokens_evaluated", t->n_prompt);
    if (j && o->probs && json_array_size(o->probs)) json_object_set(j, "completion_probabilities", o->probs);
    api_sse(st, NULL, j);
    api_buf_clear(&o->content);
    json_array_clear(o->tokens);
    if (o->probs) json_array_clear(o->probs);
}

static void nat_stream_event(struct api_stream *st, const struct run_ev *ev) {
    struct nat_req *o = st->ud;
    nat_event(o, ev);
    // Text waits for its tokens, so that an event carries both (and their probabilities).
    if (ev->kind == RUN_EV_TOKENS || ev->kind == RUN_EV_DONE) nat_stream_flush(st, o);
    if (ev->kind == RUN_EV_DONE && ev->finish == GEN_ERROR) {
        char msg[300];
        snprintf(msg, sizeof msg, "generation failed: %s", o->err);
        api_sse(st, NULL, json_pack("{s:{s:i, s:s, s:s}}", "error", "code", 500, "message", msg, "type", "server_error"));
    }
}

static void nat_stream_end(struct api_stream *st) {
    struct nat_req *o = st->ud;
    api_sse(st, NULL, nat_final(o, st->run));
}

void api_completion_native(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    json_t *req = api_parse_body(r, &e);
    if (!req) {
        api_err_send(&e, r->api, out);
        return;
    }
    struct nat_req *o = calloc(1, sizeof *o);
    if (!o) {
        json_decref(req);
        api_err_set(&e, 500, "server_error", NULL, "out of memory");
        api_err_send(&e, r->api, out);
        return;
    }
    o->s = s;
    o->body = req;
    run_params_init(&o->p);
    o->tokens = json_array();
    if (nat_read(o, req, &e)) goto fail;
    if (o->n_probs) o->probs = json_array();
    o->p.fd = r->fd;
    o->p.req = r;
    struct run *run = NULL;
    if (run_start(s, &o->p, &run, &e)) goto fail;
    if (o->stream) {
        struct api_stream *st = api_stream_new(s, run);
        if (!st) {
            api_err_set(&e, 500, "server_error", NULL, "out of memory");
            goto fail;
        }
        st->ud = o;
        st->free_ud = nat_free;
        st->on_event = nat_stream_event;
        st->on_end = nat_stream_end;
        api_stream_respond(st, out);
        return;
    }
    if (run_wait(run, nat_collect, o) < 0) {
        run_free(run);
        api_err_set(&e, 503, "server_error", NULL,
                    "the request was cancelled (the client went away or the server is stopping)");
        goto fail;
    }
    if (o->finish == GEN_ERROR) {
        run_free(run);
        api_err_set(&e, 500, "server_error", NULL, "generation failed: %s", o->err[0] ? o->err : "unknown error");
        goto fail;
    }
    json_t *reply = nat_final(o, run);
    run_free(run);
    nat_free(o);
    api_reply_send(reply, r->api, out);
    return;
fail:
    nat_free(o);
    api_err_send(&e, r->api, out);
}
