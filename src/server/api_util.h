// api_util.h — what the wire-format files share: reading and validating request fields
// (every error a 400 naming the field), refusing fields nothing honours, the model check,
// and the SSE stream that turns a run's events into a response.
#ifndef FRINK_SERVER_API_UTIL_H
#define FRINK_SERVER_API_UTIL_H

#include "server/run.h"

// The request body as a JSON object. Malformed JSON (with where), a body that is not an
// object, invalid UTF-8 or nesting deeper than 128 levels is a 400; NULL then.
json_t *api_parse_body(const struct http_req *r, struct api_err *e);

// Field readers. Each returns 0 when the field is absent or null (*out untouched), 1 when it
// was read, -1 when it has the wrong type or is out of range (e filled: 400 naming it).
// `key` may be a dotted path for nested objects in messages ("stream_options.include_usage").
int api_get_bool(json_t *obj, const char *key, bool *out, struct api_err *e);
int api_get_int(json_t *obj, const char *key, long lo, long hi, long *out, struct api_err *e);
int api_get_num(json_t *obj, const char *key, double lo, double hi, double *out, struct api_err *e);
int api_get_str(json_t *obj, const char *key, const char **out, struct api_err *e);
int api_get_obj(json_t *obj, const char *key, json_t **out, struct api_err *e);
int api_get_arr(json_t *obj, const char *key, json_t **out, struct api_err *e);
// A string or an array of at most `max` non-empty strings (stop, stop_sequences): *out is a
// malloc'ed array of pointers into obj (free it), *n its length.
int api_get_strings(json_t *obj, const char *key, int max, const char ***out, int *n, struct api_err *e);

// A field that would change the output and is not implemented: present and not null (and not
// equal to its harmless default `ok` when ok is not NULL) is a 400 "KEY is not supported: WHY".
// Returns -1 then, 0 otherwise.
int api_refuse(json_t *obj, const char *key, json_t *ok, const char *why, struct api_err *e);

// "model": absent is fine when !required; otherwise it must name the served model (its id, the
// file's basename, or general.name): else 404 "model_not_found".
int api_check_model(struct srv *s, json_t *req, bool required, struct api_err *e);

// --tags "a, b,c": the array ["a", "b", "c"] (names trimmed, empty ones dropped), as the
// reference lists a model's tags.
json_t *api_tags_json(const char *tags);

// The sampling fields every API shares, read into p->sp (OpenAI's names: temperature, top_p,
// top_k, min_p, seed, presence_penalty, frequency_penalty, repeat_penalty, repeat_last_n;
// logit_bias as {"token id": bias}, bias in [-100, 100], -100 bans). A request with no seed
// gets a random one. Returns -1 with e filled on a bad value.
int api_read_sampling(struct srv *s, json_t *req, struct run_params *p, frink_logit_bias **bias, struct api_err *e);

// ---- SSE streams ------------------------------------------------------------------------
// A stream owns its run. produce() waits for the run's events, hands each to on_event (which
// appends SSE frames with api_sse), and after the last DONE calls on_end (usage chunk, [DONE],
// message_stop). While nothing comes for 10 s it writes an SSE comment (": keep-alive") so a
// long prefill does not look like a dead connection. When the client goes away the run is
// cancelled (its slot is free within one step).
struct api_stream {
    struct srv *s;
    struct run *run;
    char *buf;                   // frames not yet written
    size_t n, cap, off;
    bool ended;                  // on_end has run
    double last_write;           // seconds (CLOCK_MONOTONIC)
    void (*on_event)(struct api_stream *st, const struct run_ev *ev);
    void (*on_end)(struct api_stream *st);
    void (*free_ud)(void *ud);   // frees ud (may be NULL)
    void *ud;                    // the API's state
};
// Allocates a stream over run (taking it); the caller sets on_event, on_end, ud.
struct api_stream *api_stream_new(struct srv *s, struct run *run);
// Makes out a text/event-stream response driven by st (taking it).
void api_stream_respond(struct api_stream *st, struct http_resp *out);
// Appends "event: NAME\n" (when name is not NULL) "data: JSON\n\n"; takes the reference to data.
void api_sse(struct api_stream *st, const char *name, json_t *data);
// Appends raw bytes ("data: [DONE]\n\n").
void api_sse_raw(struct api_stream *st, const char *text);

// A growing byte string, NUL-terminated when not empty (a failed allocation drops the bytes).
struct api_buf {
    char *p;
    size_t n, cap;
};
void api_buf_add(struct api_buf *b, const char *s, size_t n);
const char *api_buf_str(const struct api_buf *b); // "" when empty
void api_buf_clear(struct api_buf *b);
void api_buf_free(struct api_buf *b);

// A 400 invalid_request_error naming param: fills e and returns -1.
int api_bad(struct api_err *e, const char *param, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

// Seconds since the epoch, and a monotonic clock in seconds.
int64_t api_unix_time(void);
double api_mono(void);

// ---- added by the OpenAI part (api_util.c) ----------------------------------------------
// Whether len bytes are valid UTF-8 without NUL (what jansson accepts as a string).
bool api_utf8_valid(const char *s, size_t len);
// A JSON string of len bytes of generated text: jansson refuses invalid UTF-8 (json_stringn
// returns NULL), so bytes that are not part of a valid character become U+FFFD. Never NULL
// but for out of memory.
json_t *api_json_text(const char *s, size_t len);
// Generated JSON text (a tool call's arguments) parsed as the client's parser reads the same
// text, where jansson would differ: an integer -0 (JavaScript's JSON.parse keeps its sign,
// jansson's integers cannot) becomes the real -0.0, so a reply's parsed input and the streamed
// fragments of it agree. NULL when the text is not JSON.
json_t *api_json_generated(const char *text);
// The chat request's conversation fields, shared by /v1/chat/completions and /apply-template
// (api_openai.c): messages (each role and content validated), tools, tool_choice,
// parallel_tool_calls, chat_template_kwargs, reasoning_effort. Sets p->messages, p->tools,
// p->template_vars; *vars gets the template variables object the caller owns (json_decref;
// NULL when none). Returns -1 with e filled (400 naming the field).
int api_openai_chat_input(struct srv *s, json_t *req, struct run_params *p, json_t **vars, struct api_err *e);

// A completion's "prompt" (api_openai.c): a string, an array of token ids, an array mixing both
// (llama-server), or an array holding one of those; text tokenized with special tokens parsed,
// BOS as the model asks before the first text piece. Several prompts are a 400. *ids (free) and
// *n the tokens, *text (free) and *len the prompt's text (token ids by their pieces). -1 with e
// filled on a bad prompt.
int api_read_prompt(struct srv *s, json_t *req, frink_token **ids, int *n, char **text, size_t *len,
                    struct api_err *e);

// ---- what the Anthropic and Responses readers share (api_anthropic.c, api_responses.c) ------
// Both translate a request into run_params' OpenAI-shaped conversation and tools.

// Whether s is one of the n strings of names.
bool api_str_in(const char *s, const char *const *names, size_t n);
// Sets the template variable name to v (taking the reference) in *vars, created when NULL.
void api_set_var(json_t **vars, const char *name, json_t *v);
// An assistant's tool call in OpenAI's shape, {id, type: "function", function: {name,
// arguments}} (arguments: JSON text); a new reference.
json_t *api_tool_call(const char *id, const char *name, const char *args);
// tools[i]'s "name" (a non-empty string) and "description" (absent, null or a string): *name
// points into t, *desc is borrowed from t (NULL when absent). -1 with e filled (a 400 naming
// tools[i].name or tools[i].description).
int api_tool_name_desc(json_t *t, size_t i, const char **name, json_t **desc, struct api_err *e);
// Appends {type: "function", function: {name, parameters: schema, description}} to *tools
// (created when NULL); schema is borrowed, desc added only when it is a string.
void api_tool_append(json_t **tools, const char *name, json_t *desc, json_t *schema);
// tool_choice naming a tool: name (non-empty, shorter than cap) is copied into buf and p must
// call it (p->tool_name = buf; errors then name "tool_choice.name"). -1 with e filled.
int api_tool_choice_name(struct run_params *p, const char *name, char *buf, size_t cap, struct api_err *e);

#endif
