// api_responses.c — OpenAI's Responses API: POST /v1/responses (whole, or streamed as the
// typed SSE events response.created ... response.completed).
//
// frink's Responses API is stateless: the whole conversation comes in `input`, nothing is
// stored (`store` is accepted and echoed as false), so previous_response_id, conversation and
// item_reference, which need stored state, are refused by name. Input items are translated to
// run_params' OpenAI-shaped conversation: messages, function_call items → the assistant's
// tool_calls, function_call_output items → tool messages, reasoning items → the next
// assistant message's reasoning_content.
//
// Deliberate differences from OpenAI's service:
//   - A reasoning output item carries the model's reasoning as content [{type:"reasoning_text"}]
//     and an empty summary (frink does not summarise). With include ["reasoning.encrypted_content"]
//     its encrypted_content is "frink:" + that same text, unencrypted: a stateless client that
//     sends the item back gets the reasoning back into the prompt (another service's opaque
//     blob is ignored).
//   - A function tool's `strict` defaults to false (OpenAI's default is true): strict: true holds
//     the call's arguments to its schema with the chat format's tool-call grammar (run.c).
//   - parallel_tool_calls: false: the grammar allows one call, and only the first call of a
//     reply is kept.
//   - output_tokens_details.reasoning_tokens counts the tokens generated while only
//     reasoning had been produced (the parser's boundary, to within a token).
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

// ---- the request -------------------------------------------------------------------------

struct resp_req {
    json_t *messages; // converted, OpenAI-shaped
    json_t *tools;    // converted, or NULL
    json_t *vars;     // template variables, or NULL
    json_t *echo;     // the request fields the response object repeats
    char *schema;     // text.format's schema as JSON text, or NULL
    frink_logit_bias *bias;
    bool stream;
    bool one_tool;  // parallel_tool_calls: false
    char tool_name[160]; // tool_choice {type:"function", name}
    bool encrypted; // include reasoning.encrypted_content
    struct run_params p;
};

static void resp_req_free(struct resp_req *q) {
    json_decref(q->messages);
    json_decref(q->tools);
    json_decref(q->vars);
    json_decref(q->echo);
    free(q->schema);
    free(q->bias);
    memset(q, 0, sizeof *q);
}

static const char *resp_type(json_t *v) { return json_string_value(json_object_get(v, "type")); }

// What frink's encrypted_content starts with: a blob another service encrypted is opaque
// and must not land in the prompt as text.
#define RESP_ENC_PREFIX "frink:"

// The reasoning a reasoning item carries: its content's text, else its summary's, else the
// text in an encrypted_content frink wrote.
static void resp_reasoning_text(json_t *item, struct api_buf *out) {
    static const char *const fields[] = {"content", "summary"};
    for (size_t f = 0; f < 2; f++) {
        json_t *arr = json_object_get(item, fields[f]);
        size_t i;
        json_t *part;
        size_t before = out->n;
        json_array_foreach(arr, i, part) {
            json_t *t = json_object_get(part, "text");
            if (json_is_string(t)) {
                if (out->n > before) api_buf_add(out, "\n", 1);
                api_buf_add(out, json_string_value(t), json_string_length(t));
            }
        }
        if (out->n > before) return;
    }
    const char *enc = json_string_value(json_object_get(item, "encrypted_content"));
    size_t k = strlen(RESP_ENC_PREFIX);
    if (enc && !strncmp(enc, RESP_ENC_PREFIX, k)) api_buf_add(out, enc + k, strlen(enc + k));
}

// A message item's content: a string or parts. User-side parts stay parts (of type "text"),
// an assistant's are joined into one string.
static int resp_message_content(json_t *c, const char *role, const char *where, json_t **out, struct api_err *e) {
    if (json_is_string(c)) {
        *out = json_incref(c);
        return 0;
    }
    if (!json_is_array(c)) return api_bad(e, where, "%s must be a string or an array of content parts", where);
    bool assistant = !strcmp(role, "assistant");
    json_t *parts = json_array();
    struct api_buf joined = {0};
    size_t i;
    json_t *part;
    json_array_foreach(c, i, part) {
        char param[100];
        snprintf(param, sizeof param, "%s[%zu]", where, i);
        const char *type = json_is_object(part) ? resp_type(part) : NULL;
        if (!type) {
            api_bad(e, param, "%s must be a content part with a string \"type\"", param);
            goto fail;
        }
        const char *key = "text";
        if (!strcmp(type, "refusal"))
            key = "refusal";
        else if (strcmp(type, "input_text") && strcmp(type, "output_text") && strcmp(type, "text")) {
            if (!strcmp(type, "input_image") || !strcmp(type, "input_file") || !strcmp(type, "input_audio"))
                api_bad(e, param, "%s: %s parts are not supported (frink serves text)", param, type);
            else
                api_bad(e, param, "%s: unknown content part type \"%s\"", param, type);
            goto fail;
        }
        json_t *t = json_object_get(part, key);
        if (!json_is_string(t)) {
            api_bad(e, param, "%s.%s must be a string", param, key);
            goto fail;
        }
        api_buf_add(&joined, json_string_value(t), json_string_length(t));
        json_array_append_new(parts, json_pack("{s:s,s:O}", "type", "text", "text", t));
    }
    if (assistant || json_array_size(parts) == 1)
        *out = json_string(api_buf_str(&joined));
    else
        *out = json_incref(parts);
    json_decref(parts);
    api_buf_free(&joined);
    if (!*out) return api_bad(e, where, "%s is not valid UTF-8", where);
    return 0;
fail:
    json_decref(parts);
    api_buf_free(&joined);
    return -1;
}

// The assistant message a function_call item (or a reasoning item's text) belongs to: the
// last message when it is the assistant's, else a new one.
static json_t *resp_assistant(json_t *dst) {
    json_t *last = json_array_get(dst, json_array_size(dst) - 1);
    const char *role = json_string_value(json_object_get(last, "role"));
    if (last && role && !strcmp(role, "assistant")) return last;
    json_t *m = json_pack("{s:s,s:s}", "role", "assistant", "content", "");
    json_array_append_new(dst, m);
    return m;
}

static void resp_attach_reasoning(json_t *m, struct api_buf *pending) {
    if (!pending->n) return;
    const char *old = json_string_value(json_object_get(m, "reasoning_content"));
    struct api_buf t = {0};
    if (old && *old) {
        api_buf_add(&t, old, strlen(old));
        api_buf_add(&t, "\n", 1);
    }
    api_buf_add(&t, pending->p, pending->n);
    json_object_set_new(m, "reasoning_content", json_string(t.p));
    api_buf_free(&t);
    api_buf_clear(pending);
}

static int resp_read_input(json_t *body, struct resp_req *q, struct api_err *e) {
    q->messages = json_array();
    const char *instructions = NULL;
    if (api_get_str(body, "instructions", &instructions, e) < 0) return -1;
    if (instructions)
        json_array_append_new(q->messages, json_pack("{s:s,s:s}", "role", "system", "content", instructions));

    json_t *input = json_object_get(body, "input");
    if (!input || json_is_null(input))
        return api_bad(e, "input",
                        "input is required (frink's Responses API is stateless: send the whole "
                        "conversation)");
    if (json_is_string(input)) {
        json_array_append_new(q->messages, json_pack("{s:s,s:O}", "role", "user", "content", input));
        return 0;
    }
    if (!json_is_array(input) || json_array_size(input) == 0)
        return api_bad(e, "input", "input must be a string or a non-empty array of items");

    struct api_buf pending = {0}; // reasoning waiting for its assistant message
    size_t i;
    json_t *it;
    char param[80];
    json_array_foreach(input, i, it) {
        snprintf(param, sizeof param, "input[%zu]", i);
        if (!json_is_object(it)) {
            api_bad(e, param, "%s must be an object", param);
            goto fail;
        }
        const char *type = resp_type(it);
        if (!type && json_object_get(it, "role")) type = "message";
        if (!type) {
            api_bad(e, param, "%s needs a \"type\" (or a \"role\" for a message)", param);
            goto fail;
        }
        if (!strcmp(type, "message")) {
            const char *role = json_string_value(json_object_get(it, "role"));
            if (!role || (strcmp(role, "user") && strcmp(role, "assistant") && strcmp(role, "system") &&
                          strcmp(role, "developer"))) {
                snprintf(param, sizeof param, "input[%zu].role", i);
                api_bad(e, param, "%s must be \"user\", \"assistant\", \"system\" or \"developer\"", param);
                goto fail;
            }
            char where[80];
            snprintf(where, sizeof where, "input[%zu].content", i);
            json_t *content = NULL;
            if (resp_message_content(json_object_get(it, "content"), role, where, &content, e)) goto fail;
            json_t *m = json_pack("{s:s,s:o}", "role", role, "content", content);
            if (!strcmp(role, "assistant")) resp_attach_reasoning(m, &pending);
            json_array_append_new(q->messages, m);
        } else if (!strcmp(type, "function_call")) {
            const char *call_id = json_string_value(json_object_get(it, "call_id"));
            const char *name = json_string_value(json_object_get(it, "name"));
            const char *args = json_string_value(json_object_get(it, "arguments"));
            if (!call_id || !*call_id) {
                snprintf(param, sizeof param, "input[%zu].call_id", i);
                api_bad(e, param, "%s must be a non-empty string", param);
                goto fail;
            }
            if (!name || !*name) {
                snprintf(param, sizeof param, "input[%zu].name", i);
                api_bad(e, param, "%s must be a non-empty string", param);
                goto fail;
            }
            if (!args) {
                snprintf(param, sizeof param, "input[%zu].arguments", i);
                api_bad(e, param, "%s must be a string (JSON text)", param);
                goto fail;
            }
            json_t *m = resp_assistant(q->messages);
            resp_attach_reasoning(m, &pending);
            json_t *calls = json_object_get(m, "tool_calls");
            if (!calls) {
                calls = json_array();
                json_object_set_new(m, "tool_calls", calls);
            }
            json_array_append_new(calls, api_tool_call(call_id, name, args));
        } else if (!strcmp(type, "function_call_output")) {
            const char *call_id = json_string_value(json_object_get(it, "call_id"));
            if (!call_id || !*call_id) {
                snprintf(param, sizeof param, "input[%zu].call_id", i);
                api_bad(e, param, "%s must be a non-empty string", param);
                goto fail;
            }
            json_t *output = json_object_get(it, "output"), *content = NULL;
            char where[80];
            snprintf(where, sizeof where, "input[%zu].output", i);
            // An output of parts is joined like an assistant's: a tool message holds one text.
            if (resp_message_content(output, "assistant", where, &content, e)) goto fail;
            json_array_append_new(
                q->messages, json_pack("{s:s,s:s,s:o}", "role", "tool", "tool_call_id", call_id, "content", content));
        } else if (!strcmp(type, "reasoning")) {
            if (pending.n) api_buf_add(&pending, "\n", 1);
            resp_reasoning_text(it, &pending);
        } else if (!strcmp(type, "item_reference")) {
            api_bad(e, param,
                     "%s: item_reference is not supported: frink's Responses API is stateless (send the "
                     "item itself)",
                     param);
            goto fail;
        } else {
            snprintf(param, sizeof param, "input[%zu].type", i);
            api_bad(e, param,
                     "%s: %s items are not supported (only message, function_call, "
                     "function_call_output and reasoning)",
                     param, type);
            goto fail;
        }
    }
    // Reasoning with no assistant message after it has nothing to belong to: dropped.
    api_buf_free(&pending);
    return 0;
fail:
    api_buf_free(&pending);
    return -1;
}

// tools: [{type:"function", name, description, parameters, strict}] → run_params' shape; the
// echo gets each tool with its defaults filled.
static int resp_read_tools(json_t *body, struct resp_req *q, struct api_err *e) {
    json_t *src;
    json_t *echo = json_array();
    json_object_set_new(q->echo, "tools", echo);
    int rc = api_get_arr(body, "tools", &src, e);
    if (rc <= 0) return rc;
    size_t i;
    json_t *t;
    char param[64];
    json_array_foreach(src, i, t) {
        snprintf(param, sizeof param, "tools[%zu]", i);
        if (!json_is_object(t)) return api_bad(e, param, "%s must be an object", param);
        const char *type = resp_type(t);
        snprintf(param, sizeof param, "tools[%zu].type", i);
        if (!type) return api_bad(e, param, "%s must be a string", param);
        if (strcmp(type, "function"))
            return api_bad(e, param, "%s: built-in tool \"%s\" is not supported (only function tools)", param, type);
        const char *name;
        json_t *desc;
        if (api_tool_name_desc(t, i, &name, &desc, e)) return -1;
        json_t *params = json_object_get(t, "parameters");
        if (params && !json_is_null(params) && !json_is_object(params)) {
            snprintf(param, sizeof param, "tools[%zu].parameters", i);
            return api_bad(e, param, "%s must be an object (a JSON Schema)", param);
        }
        snprintf(param, sizeof param, "tools[%zu].strict", i);
        json_t *strict = json_object_get(t, "strict");
        if (strict && !json_is_null(strict) && !json_is_boolean(strict))
            return api_bad(e, param, "%s must be a boolean", param);
        // strict: the call's arguments are held to its schema by the tool-call grammar (run.c).
        if (json_is_true(strict)) q->p.tools_strict = true;
        json_t *schema =
            json_is_object(params) ? json_incref(params) : json_pack("{s:s,s:{}}", "type", "object", "properties");
        api_tool_append(&q->tools, name, desc, schema);
        json_array_append_new(echo,
                              json_pack("{s:s,s:s,s:O,s:o,s:b}", "type", "function", "name", name, "description",
                                        json_is_string(desc) ? desc : json_null(), "parameters", schema, "strict",
                                        json_is_true(strict)));
    }
    return 0;
}

static int resp_read_tool_choice(json_t *body, struct resp_req *q, struct api_err *e) {
    json_t *tc = json_object_get(body, "tool_choice");
    const char *v = json_string_value(tc);
    if (!tc || json_is_null(tc) || (v && !strcmp(v, "auto"))) {
        json_object_set_new(q->echo, "tool_choice", json_string("auto"));
        return 0;
    }
    if (v && !strcmp(v, "none")) {
        // The model is not offered the tools, so it has nothing to call.
        json_decref(q->tools);
        q->tools = NULL;
        json_object_set_new(q->echo, "tool_choice", json_string("none"));
        return 0;
    }
    if (v && strcmp(v, "required"))
        return api_bad(e, "tool_choice", "tool_choice must be \"auto\", \"none\", \"required\" or an object");
    if (!v && !json_is_object(tc)) return api_bad(e, "tool_choice", "tool_choice must be a string or an object");
    // "required", or {type: "function", name}: the call is forced and held to the chat format's
    // tool-call grammar (run.c).
    q->p.tool_mode = RUN_TOOLS_REQUIRED;
    q->p.tool_param = "tool_choice";
    if (v) {
        json_object_set_new(q->echo, "tool_choice", json_string("required"));
        return 0;
    }
    const char *type = json_string_value(json_object_get(tc, "type"));
    const char *name = json_string_value(json_object_get(tc, "name"));
    if (!type || strcmp(type, "function"))
        return api_bad(e, "tool_choice.type", "tool_choice.type must be \"function\" (built-in tools are not available)");
    if (api_tool_choice_name(&q->p, name, q->tool_name, sizeof q->tool_name, e)) return -1;
    json_object_set_new(q->echo, "tool_choice", json_pack("{s:s,s:s}", "type", "function", "name", name));
    return 0;
}

// reasoning {effort, summary} → the template's reasoning_effort or enable_thinking.
static int resp_read_reasoning(struct srv *s, json_t *body, struct resp_req *q, struct api_err *e) {
    json_t *r;
    const char *effort = NULL, *summary = NULL;
    int rc = api_get_obj(body, "reasoning", &r, e);
    if (rc < 0) return -1;
    if (rc > 0 && (api_get_str(body, "reasoning.effort", &effort, e) < 0 ||
                   api_get_str(body, "reasoning.summary", &summary, e) < 0))
        return -1;
    json_object_set_new(q->echo, "reasoning", json_pack("{s:s?,s:s?}", "effort", effort, "summary", summary));
    if (!effort) return 0;
    static const char *const efforts[] = {"none", "minimal", "low", "medium", "high", "xhigh"};
    if (!api_str_in(effort, efforts, sizeof efforts / sizeof *efforts))
        return api_bad(e, "reasoning.effort", "reasoning.effort must be none, minimal, low, medium, high or xhigh");
    bool off = !strcmp(effort, "none");
    bool knows_effort = run_template_knows(s, "reasoning_effort");
    bool knows_switch = run_template_knows(s, "enable_thinking");
    if (off) {
        if (!knows_switch)
            return api_bad(e, "reasoning.effort",
                            "reasoning.effort \"none\" is not supported: the model's chat "
                            "template cannot turn reasoning off");
        api_set_var(&q->vars, "enable_thinking", json_false());
        return 0;
    }
    if (knows_effort) {
        // Templates that take an effort know low, medium and high.
        const char *v = !strcmp(effort, "minimal") ? "low" : !strcmp(effort, "xhigh") ? "high" : effort;
        api_set_var(&q->vars, "reasoning_effort", json_string(v));
    }
    if (knows_switch) api_set_var(&q->vars, "enable_thinking", json_true());
    if (!knows_effort && !knows_switch)
        return api_bad(e, "reasoning.effort",
                        "reasoning.effort is not supported: the model's chat template takes no reasoning effort");
    return 0;
}

// text {format, verbosity}: format text / json_object / json_schema.
static int resp_read_text(json_t *body, struct resp_req *q, struct api_err *e) {
    json_t *text;
    int rc = api_get_obj(body, "text", &text, e);
    if (rc < 0) return -1;
    json_t *fmt = NULL;
    const char *verbosity = NULL;
    if (rc > 0 &&
        (api_get_obj(body, "text.format", &fmt, e) < 0 || api_get_str(body, "text.verbosity", &verbosity, e) < 0))
        return -1;
    if (verbosity && strcmp(verbosity, "medium"))
        return api_bad(e, "text.verbosity",
                        "text.verbosity \"%s\" is not supported: frink cannot steer the length (medium is the "
                        "default)",
                        verbosity);
    json_t *echo_fmt;
    const char *type = fmt ? resp_type(fmt) : "text";
    if (!type) return api_bad(e, "text.format.type", "text.format.type must be a string");
    if (!strcmp(type, "text")) {
        echo_fmt = json_pack("{s:s}", "type", "text");
    } else if (!strcmp(type, "json_object")) {
        q->schema = strdup("{\"type\":\"object\"}");
        echo_fmt = json_pack("{s:s}", "type", "json_object");
    } else if (!strcmp(type, "json_schema")) {
        const char *name = NULL;
        json_t *schema;
        bool strict = false;
        if (api_get_str(body, "text.format.name", &name, e) < 0) return -1;
        if (!name) return api_bad(e, "text.format.name", "text.format.name is required for json_schema");
        rc = api_get_obj(body, "text.format.schema", &schema, e);
        if (rc < 0) return -1;
        if (rc == 0) return api_bad(e, "text.format.schema", "text.format.schema is required for json_schema");
        if (api_get_bool(body, "text.format.strict", &strict, e) < 0) return -1;
        q->schema = json_dumps(schema, JSON_COMPACT);
        echo_fmt =
            json_pack("{s:s,s:s,s:O,s:b}", "type", "json_schema", "name", name, "schema", schema, "strict", strict);
        json_t *desc = json_object_get(fmt, "description");
        if (json_is_string(desc)) json_object_set(echo_fmt, "description", desc);
    } else {
        return api_bad(e, "text.format.type", "text.format.type must be \"text\", \"json_object\" or \"json_schema\"");
    }
    json_object_set_new(q->echo, "text", json_pack("{s:o,s:s}", "format", echo_fmt, "verbosity", "medium"));
    return 0;
}

// include: what the output should carry beyond the default.
static int resp_read_include(json_t *body, struct resp_req *q, struct api_err *e) {
    json_t *inc;
    int rc = api_get_arr(body, "include", &inc, e);
    if (rc <= 0) return rc;
    // Extras of built-in tools, which frink refuses anyway: there is never anything to include.
    static const char *const vacuous[] = {"file_search_call.results",
                                          "web_search_call.results",
                                          "web_search_call.action.sources",
                                          "code_interpreter_call.outputs",
                                          "computer_call_output.output.image_url",
                                          "message.input_image.image_url"};
    size_t i;
    json_t *v;
    json_array_foreach(inc, i, v) {
        char param[40];
        snprintf(param, sizeof param, "include[%zu]", i);
        const char *s = json_string_value(v);
        if (!s) return api_bad(e, param, "%s must be a string", param);
        if (!strcmp(s, "reasoning.encrypted_content")) {
            q->encrypted = true;
            continue;
        }
        if (!strcmp(s, "message.output_text.logprobs"))
            return api_bad(e, param, "%s: message.output_text.logprobs is not supported by frink's Responses API",
                            param);
        if (!api_str_in(s, vacuous, sizeof vacuous / sizeof *vacuous)) return api_bad(e, param, "%s: unknown include value \"%s\"", param, s);
    }
    return 0;
}

// A float parameter as the client wrote it (0.8, not 0.800000011920929).
static double resp_float(float v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.7g", (double)v);
    return strtod(buf, NULL);
}

static int resp_read(struct srv *s, struct http_req *r, json_t *body, struct resp_req *q, struct api_err *e) {
    run_params_init(&q->p);
    q->echo = json_object();
    if (api_check_model(s, body, false, e)) return -1;
    json_t *f = json_false(), *disabled = json_string("disabled"), *zero = json_integer(0);
    int refused = api_refuse(body, "previous_response_id", NULL,
                             "frink's Responses API is stateless (send the whole conversation in input)", e) ||
                  api_refuse(body, "conversation", NULL,
                             "frink's Responses API is stateless (send the whole conversation in input)", e) ||
                  api_refuse(body, "prompt", NULL, "stored prompt templates need state frink does not keep", e) ||
                  api_refuse(body, "background", f, "frink answers in the foreground only", e) ||
                  api_refuse(body, "truncation", disabled, "frink never drops input to fit the context", e) ||
                  api_refuse(body, "top_logprobs", zero, "log-probabilities are not in frink's Responses API", e);
    json_decref(f);
    json_decref(disabled);
    json_decref(zero);
    if (refused) return -1;
    if (resp_read_input(body, q, e) || resp_read_tools(body, q, e) || resp_read_tool_choice(body, q, e) ||
        resp_read_reasoning(s, body, q, e) || resp_read_text(body, q, e) || resp_read_include(body, q, e))
        return -1;

    struct run_params *p = &q->p;
    long max_out = -1;
    if (api_get_int(body, "max_output_tokens", 1, INT_MAX, &max_out, e) < 0) return -1;
    p->n_predict = (int)max_out;
    bool parallel = true, store = false;
    if (api_get_bool(body, "parallel_tool_calls", &parallel, e) < 0 || api_get_bool(body, "store", &store, e) < 0 ||
        api_get_bool(body, "stream", &q->stream, e) < 0)
        return -1;
    q->p.whole_tool_calls = !q->stream; // a whole reply reports only complete calls
    q->one_tool = !parallel;
    p->tool_parallel = parallel;
    // cache_salt and grammar (GBNF, as llama-server takes it) are frink's extensions.
    const char *salt = NULL, *grammar = NULL, *user = NULL, *instructions = NULL, *cache_key = NULL, *safety = NULL;
    json_t *metadata = NULL;
    if (api_get_str(body, "cache_salt", &salt, e) < 0 || api_get_str(body, "grammar", &grammar, e) < 0 ||
        api_get_str(body, "user", &user, e) < 0 || api_get_str(body, "instructions", &instructions, e) < 0 ||
        api_get_str(body, "prompt_cache_key", &cache_key, e) < 0 ||
        api_get_str(body, "safety_identifier", &safety, e) < 0 || api_get_obj(body, "metadata", &metadata, e) < 0)
        return -1;
    if (api_read_sampling(s, body, p, &q->bias, e) < 0) return -1;
    if (grammar && q->schema)
        return api_bad(e, "grammar", "grammar and text.format cannot be combined: each constrains the output");

    p->messages = q->messages;
    p->tools = q->tools;
    p->template_vars = q->vars;
    p->json_schema = q->schema;
    p->schema_param = "text.format";
    p->grammar = grammar;
    p->cache_salt = salt;
    p->n = 1;
    p->parse_output = true;
    p->fd = r->fd;
    p->req = r;

    json_t *echo = q->echo;
    json_object_set_new(echo, "instructions", instructions ? json_string(instructions) : json_null());
    json_object_set_new(echo, "max_output_tokens", max_out > 0 ? json_integer(max_out) : json_null());
    json_object_set_new(echo, "max_tool_calls", json_null());
    json_object_set_new(echo, "parallel_tool_calls", json_boolean(parallel));
    json_object_set_new(echo, "previous_response_id", json_null());
    json_object_set_new(echo, "prompt_cache_key", cache_key ? json_string(cache_key) : json_null());
    json_object_set_new(echo, "safety_identifier", safety ? json_string(safety) : json_null());
    json_object_set_new(echo, "service_tier", json_string("default"));
    json_object_set_new(echo, "store", json_false()); // nothing is stored, whatever was asked
    json_object_set_new(echo, "temperature", json_real(resp_float(p->sp.temp)));
    json_object_set_new(echo, "top_logprobs", json_integer(0));
    json_object_set_new(echo, "top_p", json_real(resp_float(p->sp.top_p)));
    json_object_set_new(echo, "truncation", json_string("disabled"));
    json_object_set_new(echo, "user", user ? json_string(user) : json_null());
    json_object_set_new(echo, "metadata", metadata ? json_incref(metadata) : json_object());
    return 0;
}

// ---- the reply: output items opened lazily, closed when the kind changes -----------------

enum resp_kind { RESP_NONE, RESP_REASONING, RESP_MESSAGE, RESP_CALL };

struct resp_reply {
    struct srv *s;
    struct api_stream *st; // NULL: a whole response
    char id[64];
    int64_t created_at;
    json_t *echo; // the request's echo fields (owned)
    bool one_tool, encrypted;
    int seq; // the next event's sequence_number
    enum resp_kind open;
    int index; // the open item's output_index (the next one's when none is open)
    char item_id[64];
    char call_id[64];
    char *name;          // the open call's
    struct api_buf cur; // the open item's text or arguments
    size_t sent_args;
    bool call_ended; // the open call is complete (TOOL_END)
    json_t *output;  // the closed items
    int reasoning_tokens;
    bool answered; // content or a call has begun (tokens after it are not reasoning)
    bool reasoned;
    enum gen_finish finish;
    char err[256];
};

static void resp_reply_free(void *ud) {
    struct resp_reply *a = ud;
    if (!a) return;
    json_decref(a->echo);
    json_decref(a->output);
    free(a->name);
    api_buf_free(&a->cur);
    free(a);
}

// Sends one event: "type" and "sequence_number" first, then the fields of `fields` (taken).
static void resp_event(struct resp_reply *a, const char *type, json_t *fields) {
    if (!a->st) {
        json_decref(fields);
        return;
    }
    json_t *ev = json_pack("{s:s,s:i}", "type", type, "sequence_number", a->seq++);
    json_object_update(ev, fields);
    json_decref(fields);
    api_sse(a->st, type, ev);
}

static bool resp_incomplete(enum gen_finish f) { return f == GEN_LENGTH || f == GEN_CTX; }

static json_t *resp_usage(struct resp_reply *a, struct run *run) {
    int prompt = 0, cached = 0, completion = 0;
    run_usage(run, &prompt, &cached, &completion);
    return json_pack("{s:i,s:{s:i},s:i,s:{s:i},s:i}", "input_tokens", prompt, "input_tokens_details", "cached_tokens",
                     cached, "output_tokens", completion, "output_tokens_details", "reasoning_tokens",
                     a->reasoning_tokens, "total_tokens", prompt + completion);
}

// The response object; status "in_progress" (output [] so far, no usage), "completed",
// "incomplete" or "failed".
static json_t *resp_object(struct resp_reply *a, struct run *run, const char *status) {
    json_t *o = json_pack("{s:s,s:s,s:I,s:s,s:b}", "id", a->id, "object", "response", "created_at",
                          (json_int_t)a->created_at, "status", status, "background", 0);
    bool done = strcmp(status, "in_progress") != 0;
    json_object_set_new(o, "error",
                        !strcmp(status, "failed") ? json_pack("{s:s,s:s}", "code", "server_error", "message", a->err)
                                                  : json_null());
    json_object_set_new(o, "incomplete_details",
                        !strcmp(status, "incomplete") ? json_pack("{s:s}", "reason", "max_output_tokens")
                                                      : json_null());
    json_object_set_new(o, "model", json_string(a->s->model_id));
    json_object_set_new(o, "output", done ? json_copy(a->output) : json_array());
    json_object_update(o, a->echo);
    json_object_set_new(o, "usage", done ? resp_usage(a, run) : json_null());
    if (done) json_object_set_new(o, "completed_at", json_integer(api_unix_time()));
    return o;
}

static json_t *resp_text_part(const char *text, size_t len) {
    return json_pack("{s:s,s:o,s:[],s:[]}", "type", "output_text", "text", api_json_text(text, len), "annotations",
                     "logprobs");
}

// The open item as a whole, with status "completed" / "incomplete" (or "in_progress" when
// it has just been added).
static json_t *resp_item(struct resp_reply *a, const char *status, bool with_content) {
    const char *text = with_content ? api_buf_str(&a->cur) : "";
    size_t len = with_content ? a->cur.n : 0;
    if (a->open == RESP_REASONING) {
        json_t *it = json_pack("{s:s,s:s,s:[]}", "id", a->item_id, "type", "reasoning", "summary");
        json_object_set_new(it, "content",
                            with_content
                                ? json_pack("[{s:s,s:o}]", "type", "reasoning_text", "text", api_json_text(text, len))
                                : json_array());
        if (a->encrypted && with_content) {
            struct api_buf enc = {0};
            api_buf_add(&enc, RESP_ENC_PREFIX, strlen(RESP_ENC_PREFIX));
            api_buf_add(&enc, text, len);
            json_object_set_new(it, "encrypted_content", api_json_text(enc.p, enc.n));
            api_buf_free(&enc);
        }
        return it;
    }
    if (a->open == RESP_MESSAGE)
        return json_pack("{s:s,s:s,s:s,s:s,s:o}", "id", a->item_id, "type", "message", "status", status, "role",
                         "assistant", "content",
                         with_content ? json_pack("[o]", resp_text_part(text, len)) : json_array());
    return json_pack("{s:s,s:s,s:s,s:o,s:s,s:s}", "id", a->item_id, "type", "function_call", "status", status,
                     "arguments", api_json_text(text, len), "call_id", a->call_id, "name", a->name ? a->name : "");
}

static void resp_close(struct resp_reply *a) {
    if (a->open == RESP_NONE) return;
    const char *status = resp_incomplete(a->finish) ? "incomplete" : "completed";
    const char *text = api_buf_str(&a->cur);
    size_t len = a->cur.n;
    if (a->open == RESP_CALL && !a->call_ended) {
        // A call the parser voided (its markup follows as text), or one cut off by the token
        // limit: not a complete call.
        status = "incomplete";
        if (!a->st) {
            api_buf_clear(&a->cur);
            a->open = RESP_NONE; // a whole response leaves it out (the stream had announced it)
            return;
        }
    }
    if (a->open == RESP_REASONING) {
        resp_event(a, "response.reasoning_text.done",
                   json_pack("{s:s,s:i,s:i,s:o}", "item_id", a->item_id, "output_index", a->index, "content_index", 0,
                             "text", api_json_text(text, len)));
        resp_event(a, "response.content_part.done",
                   json_pack("{s:s,s:i,s:i,s:{s:s,s:o}}", "item_id", a->item_id, "output_index", a->index,
                             "content_index", 0, "part", "type", "reasoning_text", "text", api_json_text(text, len)));
    } else if (a->open == RESP_MESSAGE) {
        resp_event(a, "response.output_text.done",
                   json_pack("{s:s,s:i,s:i,s:o,s:[]}", "item_id", a->item_id, "output_index", a->index, "content_index",
                             0, "text", api_json_text(text, len), "logprobs"));
        resp_event(a, "response.content_part.done",
                   json_pack("{s:s,s:i,s:i,s:o}", "item_id", a->item_id, "output_index", a->index, "content_index", 0,
                             "part", resp_text_part(text, len)));
    } else {
        resp_event(a, "response.function_call_arguments.done",
                   json_pack("{s:s,s:i,s:s,s:o}", "item_id", a->item_id, "output_index", a->index, "name",
                             a->name ? a->name : "", "arguments", api_json_text(text, len)));
    }
    json_t *item = resp_item(a, status, true);
    resp_event(a, "response.output_item.done", json_pack("{s:i,s:O}", "output_index", a->index, "item", item));
    json_array_append_new(a->output, item);
    api_buf_clear(&a->cur);
    a->open = RESP_NONE;
    a->index++;
}

static void resp_open(struct resp_reply *a, enum resp_kind kind, const struct run_ev *ev) {
    resp_close(a);
    a->open = kind;
    a->sent_args = 0;
    a->call_ended = false;
    run_make_id(a->item_id, sizeof a->item_id, kind == RESP_REASONING ? "rs_" : kind == RESP_MESSAGE ? "msg_" : "fc_");
    if (kind == RESP_CALL) {
        free(a->name);
        a->name = strdup(ev->tool_name ? ev->tool_name : "");
        if (ev->tool_id && *ev->tool_id)
            snprintf(a->call_id, sizeof a->call_id, "%s", ev->tool_id);
        else
            run_make_id(a->call_id, sizeof a->call_id, "call_");
    }
    resp_event(a, "response.output_item.added",
               json_pack("{s:i,s:o}", "output_index", a->index, "item", resp_item(a, "in_progress", false)));
    if (kind == RESP_REASONING)
        resp_event(a, "response.content_part.added",
                   json_pack("{s:s,s:i,s:i,s:{s:s,s:s}}", "item_id", a->item_id, "output_index", a->index,
                             "content_index", 0, "part", "type", "reasoning_text", "text", ""));
    else if (kind == RESP_MESSAGE)
        resp_event(a, "response.content_part.added",
                   json_pack("{s:s,s:i,s:i,s:o}", "item_id", a->item_id, "output_index", a->index, "content_index", 0,
                             "part", resp_text_part("", 0)));
}

static void resp_delta(struct resp_reply *a, const char *text, size_t len) {
    api_buf_add(&a->cur, text, len);
    if (!a->st) return;
    json_t *d = api_json_text(text, len);
    if (a->open == RESP_REASONING)
        resp_event(a, "response.reasoning_text.delta",
                   json_pack("{s:s,s:i,s:i,s:o}", "item_id", a->item_id, "output_index", a->index, "content_index", 0,
                             "delta", d));
    else if (a->open == RESP_MESSAGE)
        resp_event(a, "response.output_text.delta",
                   json_pack("{s:s,s:i,s:i,s:o,s:[]}", "item_id", a->item_id, "output_index", a->index, "content_index",
                             0, "delta", d, "logprobs"));
    else
        resp_event(a, "response.function_call_arguments.delta",
                   json_pack("{s:s,s:i,s:o}", "item_id", a->item_id, "output_index", a->index, "delta", d));
}

static void resp_on_event(void *ud, const struct run_ev *ev) {
    struct resp_reply *a = ud;
    bool dropped = a->one_tool && ev->tool_index > 0;
    switch (ev->kind) {
    case RUN_EV_REASONING:
    case RUN_EV_CONTENT: {
        enum resp_kind kind = ev->kind == RUN_EV_CONTENT ? RESP_MESSAGE : RESP_REASONING;
        if (!ev->len) break;
        if (kind == RESP_MESSAGE)
            a->answered = true;
        else
            a->reasoned = true;
        if (a->open != kind) resp_open(a, kind, ev);
        resp_delta(a, ev->text, ev->len);
        break;
    }
    case RUN_EV_TOOL_NAME:
        a->answered = true;
        if (!dropped) resp_open(a, RESP_CALL, ev);
        break;
    case RUN_EV_TOOL_ARGS:
        if (dropped || a->open != RESP_CALL || !ev->len) break;
        resp_delta(a, ev->text, ev->len);
        a->sent_args += ev->len;
        break;
    case RUN_EV_TOOL_END:
        if (dropped || a->open != RESP_CALL) break;
        if (!a->sent_args && ev->len) {
            resp_delta(a, ev->text, ev->len);
        } else if (ev->text) {
            // The whole arguments are authoritative over the fragments.
            api_buf_clear(&a->cur);
            api_buf_add(&a->cur, ev->text, ev->len);
        }
        a->call_ended = true;
        resp_close(a);
        break;
    case RUN_EV_TOKENS:
        if (a->reasoned && !a->answered) a->reasoning_tokens += ev->n_toks;
        break;
    case RUN_EV_DONE:
        a->finish = ev->finish;
        resp_close(a);
        break;
    }
}

static void resp_task_err(struct resp_reply *a, struct run *run) {
    const char *msg = run->n > 0 && run->tasks[0]->err[0] ? run->tasks[0]->err : "generation failed";
    snprintf(a->err, sizeof a->err, "%s", msg);
}

static void resp_stream_event(struct api_stream *st, const struct run_ev *ev) { resp_on_event(st->ud, ev); }

static void resp_stream_end(struct api_stream *st) {
    struct resp_reply *a = st->ud;
    // Cancelled: the client is gone, unless the server is stopping: the response then fails,
    // saying so (response.failed is the stream's final event).
    if (a->finish == GEN_CANCELLED && !atomic_load(&st->s->stopping)) return;
    resp_close(a);
    bool stopped = a->finish == GEN_CANCELLED;
    const char *status = a->finish == GEN_ERROR || stopped ? "failed" : resp_incomplete(a->finish) ? "incomplete" : "completed";
    if (a->finish == GEN_ERROR) resp_task_err(a, st->run);
    if (stopped) snprintf(a->err, sizeof a->err, "the server is shutting down");
    char type[40];
    snprintf(type, sizeof type, "response.%s", status);
    resp_event(a, type, json_pack("{s:o}", "response", resp_object(a, st->run, status)));
}

void api_responses(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    struct resp_req q = {0};
    json_t *body = api_parse_body(r, &e);
    if (!body || resp_read(s, r, body, &q, &e)) {
        api_err_send(&e, HTTP_API_OPENAI, out);
        resp_req_free(&q);
        json_decref(body);
        return;
    }
    struct run *run = NULL;
    int rc = run_start(s, &q.p, &run, &e);
    if (rc && !strcmp(e.param, "response_format")) // run names Chat Completions' field; ours is text.format
        snprintf(e.param, sizeof e.param, "%s", "text.format");
    struct resp_reply *a = calloc(1, sizeof *a);
    if (!a) abort();
    a->s = s;
    a->echo = json_incref(q.echo);
    a->one_tool = q.one_tool;
    a->encrypted = q.encrypted;
    a->created_at = api_unix_time();
    a->finish = GEN_RUNNING;
    a->output = json_array();
    run_make_id(a->id, sizeof a->id, "resp_");
    bool stream = q.stream;
    resp_req_free(&q);
    json_decref(body);
    if (rc) {
        resp_reply_free(a);
        api_err_send(&e, HTTP_API_OPENAI, out);
        return;
    }

    if (stream) {
        struct api_stream *st = api_stream_new(s, run); // takes the run, even when it fails
        if (!st) {
            resp_reply_free(a);
            api_err_set(&e, 500, "server_error", "", "out of memory");
            api_err_send(&e, HTTP_API_OPENAI, out);
            return;
        }
        a->st = st;
        st->ud = a;
        st->on_event = resp_stream_event;
        st->on_end = resp_stream_end;
        st->free_ud = resp_reply_free;
        resp_event(a, "response.created", json_pack("{s:o}", "response", resp_object(a, run, "in_progress")));
        resp_event(a, "response.in_progress", json_pack("{s:o}", "response", resp_object(a, run, "in_progress")));
        api_stream_respond(st, out);
        return;
    }

    if (run_wait(run, resp_on_event, a) < 0 || a->finish == GEN_CANCELLED) {
        api_err_set(&e, 499, "invalid_request_error", "", "the client went away");
        api_err_send(&e, HTTP_API_OPENAI, out);
    } else if (a->finish == GEN_ERROR) {
        resp_task_err(a, run);
        api_err_set(&e, 500, "server_error", "", "%s", a->err);
        api_err_send(&e, HTTP_API_OPENAI, out);
    } else {
        api_reply_send(resp_object(a, run, resp_incomplete(a->finish) ? "incomplete" : "completed"), HTTP_API_OPENAI, out);
    }
    run_free(run);
    resp_reply_free(a);
}
