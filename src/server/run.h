// run.h — one request's generation as the API layers see it.
//
// A run renders a conversation with the chat template (or takes a raw prompt), tokenizes it,
// submits n tasks, and turns their text into events through the model's chat output parser:
// content, reasoning, tool-call starts, argument fragments and ends, token log-probabilities,
// and each choice's end. The API layers (OpenAI, Anthropic, Responses) only translate those
// events to their wire format, streamed or whole.
#ifndef FRINK_SERVER_RUN_H
#define FRINK_SERVER_RUN_H

#include "server/sched.h"

// An error to answer with: HTTP status, OpenAI error type, the offending field, a message.
struct api_err {
    int status;                  // 400, 404, 413, 500, 503...
    char type[40];               // "invalid_request_error", "server_error", ...
    char param[64];              // the field ("" when none)
    char msg[512];
    int retry_after;             // seconds, for 503/429 (0: none)
};
void api_err_set(struct api_err *e, int status, const char *type, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
// Sends e in r's API shape (with Retry-After when set).
void api_err_send(const struct api_err *e, enum http_api api, struct http_resp *out);
// Sends a handler's whole reply: 200 with reply (taken), or e's 500 when reply is NULL (out of
// memory building it).
void api_reply_send(json_t *reply, enum http_api api, struct http_resp *out);

// What a request asks for, in the terms every API shares. Zero it, then set what applies:
// run_params_init gives the defaults.
struct run_params {
    // the conversation (chat) — OpenAI-shaped: [{role, content: string or [parts], name?,
    // tool_calls?: [{id, type:"function", function:{name, arguments: string}}],
    // tool_call_id?, reasoning_content?}]; roles system, developer, user, assistant, tool
    json_t *messages;            // borrowed
    json_t *tools;               // borrowed: [{type:"function", function:{name, description, parameters}}] or NULL
    json_t *template_vars;       // borrowed: extra template variables (enable_thinking, reasoning_effort, ...) or NULL
    bool add_generation_prompt;  // default true
    const char *continue_text;   // prefill of the assistant's reply (Anthropic's last assistant message) or NULL
    // the prompt (completions): used when messages is NULL
    const frink_token *prompt;   // borrowed
    int n_prompt;
    // generation
    frink_sampler_params sp;     // logit_bias borrowed (copied per task)
    int n_predict;               // -1: the server's default
    const char *const *stop;     // borrowed
    int n_stop;
    int n;                       // choices (1..16)
    bool logprobs;
    int top_logprobs;            // 0..20
    bool ignore_eos;
    const char *grammar;         // GBNF (borrowed) or NULL
    const char *json_schema;     // JSON Schema text (borrowed) or NULL: compiled to a grammar
    const char *schema_param;    // the field it came from, for errors (NULL: "response_format")
    // Tool calls. A call is required (tool_choice "required", a named tool, Anthropic "any"), or
    // strict (a tool's strict schema), or limited to one (parallel_tool_calls false): the calls
    // are then held to the grammar of the chat format's calls with each tool's parameters
    // schema (frink_tool_call_grammar), applied from the call's opener on (lazy) when the model
    // may write other things first, or from the first token (eager: a required call, no
    // reasoning open, an opener ordinary tokens can spell). A required call that the model
    // would not open before ending its turn gets the opener written for it.
    enum { RUN_TOOLS_AUTO = 0, RUN_TOOLS_NONE, RUN_TOOLS_REQUIRED } tool_mode;
    const char *tool_name;       // RUN_TOOLS_REQUIRED: only this tool (NULL: any)
    bool tool_parallel;          // several calls allowed (default true)
    bool tools_strict;           // a tool asked for strict arguments
    const char *tool_param;      // the request field to name in errors ("tool_choice")
    bool parse_output;           // run the chat output parser (false: everything is content)
    bool whole_tool_calls;       // announce a tool call only once complete
    const char *cache_salt;      // NULL or ""
    int fd;                      // r->fd
    struct http_req *req;        // the request: run_free leaves the run's token counts there for the
                                 // access log (NULL: none)
    int id_slot;                 // llama-server's id_slot: this slot only (-1: any)
    bool no_reuse;               // llama-server's cache_prompt false: no prefix reuse
    int spec_n_max, spec_n_min;  // llama-server's speculative.n_max / n_min (-1: the server's)
    float spec_p_min;            // speculative.p_min (-1: the server's)
    int64_t now;                 // the time strftime_now formats (0: now)
};
void run_params_init(struct run_params *p);

enum run_ev_kind {
    RUN_EV_CONTENT,              // text for the user
    RUN_EV_REASONING,            // the thinking
    RUN_EV_TOOL_NAME,            // a call begins: tool_index, tool_id, tool_name
    RUN_EV_TOOL_ARGS,            // a fragment of its arguments (JSON text)
    RUN_EV_TOOL_END,             // the call is complete: text = its whole arguments
    RUN_EV_TOKENS,               // toks[0..n_toks): tokens generated since the last such event
    RUN_EV_DONE,                 // the choice ended: finish (and stop_index / stop_string)
};

struct run_ev {
    enum run_ev_kind kind;
    int choice;                  // 0..n-1
    const char *text;            // CONTENT, REASONING, TOOL_ARGS, TOOL_END (valid during the callback)
    size_t len;
    int tool_index;              // TOOL_*: the call, from 0 in each choice
    const char *tool_id, *tool_name;
    const struct gen_tok *toks;  // TOKENS
    int n_toks;
    enum gen_finish finish;      // DONE
    const char *stop_string;     // DONE with GEN_STOP: the stop string that matched
    int n_tool_calls;            // DONE: how many calls the choice made
};
typedef void (*run_emit)(void *ud, const struct run_ev *ev);

struct run {
    struct srv *s;
    int n;
    struct gen_task **tasks;     // n
    int n_prompt;                // prompt tokens
    char *prompt_text;           // the rendered prompt (NULL for token prompts)
    size_t prompt_len;
    bool opens_reasoning;        // the prompt left a reasoning block open
    const char *format;          // the chat output parser's format
    struct http_req *req;        // run_params.req
    // internal: per-choice parser and cursors
    void *priv;
};

// Renders (for messages), tokenizes, validates and submits. Fills e (and returns -1) for a
// template error (400), a prompt longer than the context (400, param "messages"/"prompt"),
// a grammar or schema that does not compile (400 naming it), a full queue (503 with
// retry_after), an internal failure (500).
int run_start(struct srv *s, const struct run_params *p, struct run **out, struct api_err *e);
// With s->sched NULL (a fuzz harness, a server still loading) it validates, renders and
// tokenizes, then fails with 503 "loading".
// Only renders and tokenizes (count_tokens, apply-template): *text (free) and *n_tokens.
int run_render(struct srv *s, const struct run_params *p, char **text, size_t *len, int *n_tokens,
               struct api_err *e);
// Waits up to timeout_ms for output, then emits every event now decided, in order (per
// choice: text events, then its TOKENS, then DONE). Returns 1 when every choice is done
// (all DONE events emitted), 0 when it timed out or emitted some but not all.
int run_next(struct run *r, int timeout_ms, run_emit emit, void *ud);
// Runs to the end, emitting as run_next does. Returns 0, or -1 when the client went away.
int run_wait(struct run *r, run_emit emit, void *ud);
// Usage: prompt tokens, of them reused from a cache, generated tokens (all choices).
void run_usage(const struct run *r, int *prompt, int *cached, int *completion);
// Cancels what is still running and frees the run.
void run_free(struct run *r);

// Whether the chat template reads a variable ("enable_thinking", "reasoning_effort"): a request
// field that sets one the template ignores is refused rather than silently dropped.
bool run_template_knows(struct srv *s, const char *var);

// "stop", "length", "tool_calls", ... as OpenAI names a choice's end.
const char *run_finish_openai(enum gen_finish f, int n_tool_calls);
// "end_turn", "max_tokens", "stop_sequence", "tool_use" as Anthropic names it.
const char *run_finish_anthropic(enum gen_finish f, int n_tool_calls);

// A random id: prefix + 24 alphanumerics ("chatcmpl-", "msg_", "resp_", "call_").
void run_make_id(char *buf, size_t cap, const char *prefix);

#endif
