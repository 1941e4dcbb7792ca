// api_anthropic.c — Anthropic's Messages API: POST /v1/messages (whole or streamed as SSE
// events) and POST /v1/messages/count_tokens.
//
// A request is validated field by field and translated to run_params' OpenAI-shaped
// conversation: system → a system message, text blocks → content, tool_use blocks → the
// assistant's tool_calls (arguments = the JSON text of input), tool_result blocks → tool
// messages, thinking blocks → reasoning_content. A final assistant message is a prefill:
// the reply continues it, and the response holds only the new text.
//
// Known differences from Anthropic's service, each deliberate:
//   - thinking.budget_tokens is validated as the API does (>= 1024, < max_tokens) but is not
//     a hard limit on the thinking: the template only turns thinking on or off.
//   - A thinking block's signature is "" (there is nothing to sign); signatures sent back in
//     history are ignored, redacted_thinking blocks are dropped (their data is opaque).
//   - tool_choice "any" / "tool": the call is forced and held to the chat format's tool-call
//     grammar (each tool's input_schema); disable_parallel_tool_use: the grammar allows one call
//     (and only the first call of a reply is kept, whatever the model wrote).
//   - An absent thinking field leaves the template's default (some models think by default).
//   - temperature, top_p and top_k are Anthropic's; frink's other sampling fields (seed,
//     min_p, penalties, logit_bias) are accepted as extensions with OpenAI's names.
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

#define ANTH_MAX_STOP 32

// ---- the request -------------------------------------------------------------------------

// A validated request: what run_params borrows, owned here until the run has started (run_start
// renders and tokenizes at once and copies the stop strings and the bias per task).
struct anth_req {
    json_t *messages;  // converted, OpenAI-shaped
    json_t *tools;     // converted, or NULL
    json_t *vars;      // template variables, or NULL
    char *prefill;     // the final assistant message's text, or NULL
    char *schema;      // output_config.format's schema as JSON text, or NULL
    const char **stop; // into the body
    int n_stop;
    frink_logit_bias *bias;
    bool stream;
    bool one_tool;      // tool_choice.disable_parallel_tool_use
    char tool_name[160]; // tool_choice {type:"tool", name}
    bool omit_thinking; // thinking.display "omitted"
    struct run_params p;
};

static void anth_req_free(struct anth_req *q) {
    json_decref(q->messages);
    json_decref(q->tools);
    json_decref(q->vars);
    free(q->prefill);
    free(q->schema);
    free(q->stop);
    free(q->bias);
    memset(q, 0, sizeof *q);
}

static const char *anth_block_type(json_t *b) { return json_string_value(json_object_get(b, "type")); }

// Block types that need an input Anthropic has and frink does not (images, files, server
// tools' results): refused by name.
static bool anth_unsupported_block(const char *type) {
    static const char *const names[] = {"image",
                                        "document",
                                        "search_result",
                                        "container_upload",
                                        "server_tool_use",
                                        "web_search_tool_result",
                                        "web_fetch_tool_result",
                                        "code_execution_tool_result",
                                        "bash_code_execution_tool_result",
                                        "text_editor_code_execution_tool_result",
                                        "mcp_tool_use",
                                        "mcp_tool_result",
                                        "tool_search_tool_result"};
    return api_str_in(type, names, sizeof names / sizeof *names);
}

// The text of a string or of an array of text blocks (system, tool_result.content), text
// blocks joined by sep. `where` names the field in errors.
static int anth_text_of(json_t *v, const char *where, const char *sep, struct api_buf *out, struct api_err *e) {
    if (json_is_string(v)) {
        api_buf_add(out, json_string_value(v), json_string_length(v));
        return 0;
    }
    if (!json_is_array(v)) return api_bad(e, where, "%s must be a string or an array of text blocks", where);
    size_t i;
    json_t *b;
    json_array_foreach(v, i, b) {
        char param[100];
        snprintf(param, sizeof param, "%s[%zu]", where, i);
        const char *type = json_is_object(b) ? anth_block_type(b) : NULL;
        if (!type) return api_bad(e, param, "%s must be a content block with a string \"type\"", param);
        if (strcmp(type, "text")) {
            if (anth_unsupported_block(type))
                return api_bad(e, param, "%s: %s blocks are not supported (frink serves text)", param, type);
            return api_bad(e, param, "%s: only text blocks are allowed here (got %s)", param, type);
        }
        json_t *t = json_object_get(b, "text");
        if (!json_is_string(t)) return api_bad(e, param, "%s.text must be a string", param);
        if (i > 0) api_buf_add(out, sep, strlen(sep));
        api_buf_add(out, json_string_value(t), json_string_length(t));
    }
    return 0;
}

// A user message's blocks: tool_result blocks become tool messages (first, as OpenAI's
// shape wants them right after the assistant's calls), text blocks one user message.
static int anth_user_blocks(json_t *dst, json_t *blocks, size_t mi, struct api_err *e) {
    json_t *parts = json_array();
    size_t n_results = 0, j;
    json_t *b;
    char param[64];
    json_array_foreach(blocks, j, b) {
        snprintf(param, sizeof param, "messages[%zu].content[%zu]", mi, j);
        const char *type = json_is_object(b) ? anth_block_type(b) : NULL;
        if (!type) goto bad_block;
        if (!strcmp(type, "text")) {
            json_t *t = json_object_get(b, "text");
            if (!json_is_string(t)) {
                api_bad(e, param, "%s.text must be a string", param);
                goto fail;
            }
            json_array_append_new(parts, json_pack("{s:s,s:O}", "type", "text", "text", t));
        } else if (!strcmp(type, "tool_result")) {
            const char *id = json_string_value(json_object_get(b, "tool_use_id"));
            if (!id || !*id) {
                api_bad(e, param, "%s.tool_use_id must be a non-empty string", param);
                goto fail;
            }
            json_t *is_error = json_object_get(b, "is_error");
            if (is_error && !json_is_boolean(is_error) && !json_is_null(is_error)) {
                api_bad(e, param, "%s.is_error must be a boolean", param);
                goto fail;
            }
            struct api_buf text = {0};
            // An error result is marked in the text: the template has no field for it, and
            // dropping the flag would tell the model a failed call succeeded.
            if (json_is_true(is_error)) api_buf_add(&text, "Error: ", 7);
            json_t *c = json_object_get(b, "content");
            char where[80];
            snprintf(where, sizeof where, "%s.content", param);
            if (c && !json_is_null(c) && anth_text_of(c, where, "\n", &text, e)) {
                api_buf_free(&text);
                goto fail;
            }
            json_array_append_new(
                dst, json_pack("{s:s,s:s,s:s}", "role", "tool", "tool_call_id", id, "content", api_buf_str(&text)));
            api_buf_free(&text);
            n_results++;
        } else if (anth_unsupported_block(type)) {
            api_bad(e, param, "%s: %s blocks are not supported (frink serves text)", param, type);
            goto fail;
        } else if (!strcmp(type, "tool_use") || !strcmp(type, "thinking") || !strcmp(type, "redacted_thinking")) {
            api_bad(e, param, "%s: %s blocks belong in assistant messages", param, type);
            goto fail;
        } else {
            api_bad(e, param, "%s: unknown content block type \"%s\"", param, type);
            goto fail;
        }
    }
    if (json_array_size(parts) == 0 && n_results == 0) {
        snprintf(param, sizeof param, "messages[%zu].content", mi);
        api_bad(e, param, "%s must not be empty", param);
        goto fail;
    }
    if (json_array_size(parts) == 1)
        json_array_append_new(
            dst, json_pack("{s:s,s:O}", "role", "user", "content", json_object_get(json_array_get(parts, 0), "text")));
    else if (json_array_size(parts) > 1)
        json_array_append_new(dst, json_pack("{s:s,s:O}", "role", "user", "content", parts));
    json_decref(parts);
    return 0;
bad_block:
    api_bad(e, param, "%s must be a content block with a string \"type\"", param);
fail:
    json_decref(parts);
    return -1;
}

// An assistant message's blocks. The final one is the prefill: text only.
static int anth_assistant_blocks(json_t *dst, json_t *blocks, size_t mi, bool last, char **prefill, struct api_err *e) {
    struct api_buf text = {0}, thinking = {0};
    json_t *calls = json_array();
    size_t j;
    json_t *b;
    char param[64];
    json_array_foreach(blocks, j, b) {
        snprintf(param, sizeof param, "messages[%zu].content[%zu]", mi, j);
        const char *type = json_is_object(b) ? anth_block_type(b) : NULL;
        if (!type) {
            api_bad(e, param, "%s must be a content block with a string \"type\"", param);
            goto fail;
        }
        if (!strcmp(type, "text")) {
            json_t *t = json_object_get(b, "text");
            if (!json_is_string(t)) {
                api_bad(e, param, "%s.text must be a string", param);
                goto fail;
            }
            api_buf_add(&text, json_string_value(t), json_string_length(t));
        } else if (!strcmp(type, "thinking")) {
            json_t *t = json_object_get(b, "thinking");
            if (!json_is_string(t)) {
                api_bad(e, param, "%s.thinking must be a string", param);
                goto fail;
            }
            if (last) {
                api_bad(e, param, "%s: a final assistant message is a prefill of the reply and may hold only text",
                         param);
                goto fail;
            }
            api_buf_add(&thinking, json_string_value(t), json_string_length(t));
        } else if (!strcmp(type, "redacted_thinking")) {
            // Opaque data another service encrypted: nothing a local model can read.
        } else if (!strcmp(type, "tool_use")) {
            const char *id = json_string_value(json_object_get(b, "id"));
            const char *name = json_string_value(json_object_get(b, "name"));
            json_t *input = json_object_get(b, "input");
            if (!id || !*id) {
                api_bad(e, param, "%s.id must be a non-empty string", param);
                goto fail;
            }
            if (!name || !*name) {
                api_bad(e, param, "%s.name must be a non-empty string", param);
                goto fail;
            }
            if (!json_is_object(input)) {
                api_bad(e, param, "%s.input must be an object", param);
                goto fail;
            }
            if (last) {
                api_bad(e, param, "%s: a final assistant message is a prefill of the reply and may hold only text",
                         param);
                goto fail;
            }
            char *args = json_dumps(input, JSON_COMPACT | JSON_ENSURE_ASCII);
            json_array_append_new(calls, api_tool_call(id, name, args ? args : "{}"));
            free(args);
        } else if (anth_unsupported_block(type)) {
            api_bad(e, param, "%s: %s blocks are not supported (frink serves text)", param, type);
            goto fail;
        } else if (!strcmp(type, "tool_result")) {
            api_bad(e, param, "%s: tool_result blocks belong in user messages", param);
            goto fail;
        } else {
            api_bad(e, param, "%s: unknown content block type \"%s\"", param, type);
            goto fail;
        }
    }
    if (last) {
        if (text.n) *prefill = strdup(text.p);
    } else {
        if (!text.n && !thinking.n && json_array_size(calls) == 0 && json_array_size(blocks) == 0) {
            snprintf(param, sizeof param, "messages[%zu].content", mi);
            api_bad(e, param, "%s must not be empty (only the final assistant message may be)", param);
            goto fail;
        }
        json_t *m = json_pack("{s:s,s:s}", "role", "assistant", "content", api_buf_str(&text));
        if (json_array_size(calls)) json_object_set(m, "tool_calls", calls);
        if (thinking.n) json_object_set_new(m, "reasoning_content", json_string(thinking.p));
        json_array_append_new(dst, m);
    }
    api_buf_free(&text);
    api_buf_free(&thinking);
    json_decref(calls);
    return 0;
fail:
    api_buf_free(&text);
    api_buf_free(&thinking);
    json_decref(calls);
    return -1;
}

static int anth_read_messages(json_t *body, struct anth_req *q, struct api_err *e) {
    json_t *src = json_object_get(body, "messages");
    if (!src || json_is_null(src)) return api_bad(e, "messages", "messages is required");
    if (!json_is_array(src) || json_array_size(src) == 0)
        return api_bad(e, "messages", "messages must be a non-empty array");
    q->messages = json_array();

    json_t *sys = json_object_get(body, "system");
    if (sys && !json_is_null(sys)) {
        struct api_buf t = {0};
        if (anth_text_of(sys, "system", "\n", &t, e)) {
            api_buf_free(&t);
            return -1;
        }
        json_array_append_new(q->messages, json_pack("{s:s,s:s}", "role", "system", "content", api_buf_str(&t)));
        api_buf_free(&t);
    }

    size_t n = json_array_size(src), i;
    json_t *m;
    json_array_foreach(src, i, m) {
        char param[64];
        snprintf(param, sizeof param, "messages[%zu]", i);
        if (!json_is_object(m)) return api_bad(e, param, "%s must be an object", param);
        const char *role = json_string_value(json_object_get(m, "role"));
        snprintf(param, sizeof param, "messages[%zu].role", i);
        if (!role || (strcmp(role, "user") && strcmp(role, "assistant")))
            return api_bad(e, param, "%s must be \"user\" or \"assistant\"", param);
        bool assistant = role[0] == 'a', last = i + 1 == n;
        json_t *c = json_object_get(m, "content");
        snprintf(param, sizeof param, "messages[%zu].content", i);
        if (json_is_string(c)) {
            if (assistant && last) {
                if (json_string_length(c)) q->prefill = strdup(json_string_value(c));
            } else {
                json_array_append_new(q->messages, json_pack("{s:s,s:O}", "role", role, "content", c));
            }
        } else if (json_is_array(c)) {
            int rc = assistant ? anth_assistant_blocks(q->messages, c, i, last, &q->prefill, e)
                               : anth_user_blocks(q->messages, c, i, e);
            if (rc) return -1;
        } else {
            return api_bad(e, param, "%s must be a string or an array of content blocks", param);
        }
    }
    return 0;
}

// tools: [{name, description, input_schema}] → [{type:"function", function:{...}}]. Server
// tools (a "type" other than "custom") run on Anthropic's side: refused by name.
static int anth_read_tools(json_t *body, struct anth_req *q, struct api_err *e) {
    json_t *src;
    int rc = api_get_arr(body, "tools", &src, e);
    if (rc <= 0) return rc;
    size_t i;
    json_t *t;
    json_array_foreach(src, i, t) {
        char param[64];
        snprintf(param, sizeof param, "tools[%zu]", i);
        if (!json_is_object(t)) return api_bad(e, param, "%s must be an object", param);
        json_t *type = json_object_get(t, "type");
        if (type && !json_is_null(type) && (!json_is_string(type) || strcmp(json_string_value(type), "custom"))) {
            snprintf(param, sizeof param, "tools[%zu].type", i);
            return api_bad(e, param, "%s: server tool \"%s\" is not supported (only custom tools)", param,
                            json_is_string(type) ? json_string_value(type) : "?");
        }
        const char *name;
        json_t *desc;
        if (api_tool_name_desc(t, i, &name, &desc, e)) return -1;
        json_t *schema = json_object_get(t, "input_schema");
        if (!json_is_object(schema)) {
            snprintf(param, sizeof param, "tools[%zu].input_schema", i);
            return api_bad(e, param, "%s is required and must be an object (a JSON Schema)", param);
        }
        api_tool_append(&q->tools, name, desc, schema);
    }
    return 0;
}

static int anth_read_tool_choice(json_t *body, struct anth_req *q, struct api_err *e) {
    json_t *tc;
    int rc = api_get_obj(body, "tool_choice", &tc, e);
    if (rc <= 0) return rc;
    const char *type = json_string_value(json_object_get(tc, "type"));
    if (!type || (strcmp(type, "auto") && strcmp(type, "any") && strcmp(type, "tool") && strcmp(type, "none")))
        return api_bad(e, "tool_choice.type", "tool_choice.type must be \"auto\", \"any\", \"tool\" or \"none\"");
    // "any": some tool must be called; "tool": that one. The call is then held to the chat
    // format's tool-call grammar (run.c).
    q->p.tool_param = "tool_choice";
    if (!strcmp(type, "any")) q->p.tool_mode = RUN_TOOLS_REQUIRED;
    if (!strcmp(type, "tool")) {
        const char *name = json_string_value(json_object_get(tc, "name"));
        if (api_tool_choice_name(&q->p, name, q->tool_name, sizeof q->tool_name, e)) return -1;
    }
    bool one = false;
    if (api_get_bool(body, "tool_choice.disable_parallel_tool_use", &one, e) < 0) return -1;
    q->one_tool = one;
    q->p.tool_parallel = !one;
    if (!strcmp(type, "none")) {
        // The model is not offered the tools, so it has nothing to call.
        json_decref(q->tools);
        q->tools = NULL;
    }
    return 0;
}

// thinking {type: enabled|adaptive|disabled} → the template's enable_thinking; output_config
// {effort, format}.
static int anth_read_thinking(struct srv *s, json_t *body, long max_tokens, struct anth_req *q, struct api_err *e) {
    json_t *th;
    int rc = api_get_obj(body, "thinking", &th, e);
    if (rc < 0) return -1;
    if (rc > 0) {
        const char *type = json_string_value(json_object_get(th, "type"));
        if (!type || (strcmp(type, "enabled") && strcmp(type, "disabled") && strcmp(type, "adaptive")))
            return api_bad(e, "thinking.type", "thinking.type must be \"enabled\", \"adaptive\" or \"disabled\"");
        bool on = strcmp(type, "disabled") != 0;
        if (!strcmp(type, "enabled")) {
            long budget;
            rc = api_get_int(body, "thinking.budget_tokens", 1024, INT_MAX, &budget, e);
            if (rc < 0) return -1;
            if (rc == 0)
                return api_bad(e, "thinking.budget_tokens",
                                "thinking.budget_tokens is required when thinking is enabled");
            if (max_tokens > 0 && budget >= max_tokens)
                return api_bad(e, "thinking.budget_tokens",
                                "thinking.budget_tokens (%ld) must be less than max_tokens (%ld)", budget, max_tokens);
        }
        const char *display = NULL;
        if (api_get_str(body, "thinking.display", &display, e) < 0) return -1;
        if (display && strcmp(display, "summarized") && strcmp(display, "omitted"))
            return api_bad(e, "thinking.display", "thinking.display must be \"summarized\" or \"omitted\"");
        q->omit_thinking = display && !strcmp(display, "omitted");
        if (run_template_knows(s, "enable_thinking"))
            api_set_var(&q->vars, "enable_thinking", json_boolean(on));
        else if (on)
            return api_bad(e, "thinking", "thinking is not supported: the model's chat template has no switch for it");
    }

    json_t *oc;
    rc = api_get_obj(body, "output_config", &oc, e);
    if (rc < 0) return -1;
    if (rc > 0) {
        const char *effort = NULL;
        if (api_get_str(body, "output_config.effort", &effort, e) < 0) return -1;
        if (effort) {
            static const char *const efforts[] = {"low", "medium", "high", "xhigh", "max"};
            if (!api_str_in(effort, efforts, sizeof efforts / sizeof *efforts))
                return api_bad(e, "output_config.effort",
                                "output_config.effort must be low, medium, high, xhigh or max");
            // Templates that take an effort know low/medium/high; "high" is also the API's default.
            if (run_template_knows(s, "reasoning_effort"))
                api_set_var(&q->vars, "reasoning_effort",
                             json_string(!strcmp(effort, "low") || !strcmp(effort, "medium") ? effort : "high"));
            else if (strcmp(effort, "high"))
                return api_bad(e, "output_config.effort",
                                "output_config.effort is not supported: the model's chat template takes no effort");
        }
        json_t *fmt;
        rc = api_get_obj(body, "output_config.format", &fmt, e);
        if (rc < 0) return -1;
        if (rc > 0) {
            const char *type = json_string_value(json_object_get(fmt, "type"));
            json_t *schema = json_object_get(fmt, "schema");
            if (!type || strcmp(type, "json_schema"))
                return api_bad(e, "output_config.format.type", "output_config.format.type must be \"json_schema\"");
            if (!json_is_object(schema))
                return api_bad(e, "output_config.format.schema", "output_config.format.schema must be an object");
            q->schema = json_dumps(schema, JSON_COMPACT);
        }
    }
    return 0;
}

// Every field of a Messages (or count_tokens) request into q. `whole` is false for
// count_tokens: no max_tokens, sampling or stream.
static int anth_read(struct srv *s, struct http_req *r, json_t *body, bool whole, struct anth_req *q,
                     struct api_err *e) {
    run_params_init(&q->p);
    if (api_check_model(s, body, true, e)) return -1;
    long max_tokens = 0;
    if (whole) {
        int rc = api_get_int(body, "max_tokens", 1, INT_MAX, &max_tokens, e);
        if (rc < 0) return -1;
        if (rc == 0) return api_bad(e, "max_tokens", "max_tokens is required");
    }
    if (api_refuse(body, "container", NULL, "containers run Anthropic's code-execution tools", e) ||
        api_refuse(body, "mcp_servers", NULL, "MCP servers are not connected by frink", e) ||
        api_refuse(body, "context_management", NULL, "frink does not edit the context", e))
        return -1;
    if (anth_read_messages(body, q, e) || anth_read_tools(body, q, e) || anth_read_tool_choice(body, q, e) ||
        anth_read_thinking(s, body, max_tokens, q, e))
        return -1;
    // The older beta spelling of output_config.format.
    json_t *of;
    int rc = api_get_obj(body, "output_format", &of, e);
    if (rc < 0) return -1;
    if (rc > 0) {
        json_t *schema = json_object_get(of, "schema");
        const char *type = json_string_value(json_object_get(of, "type"));
        if (!type || strcmp(type, "json_schema") || !json_is_object(schema))
            return api_bad(e, "output_format", "output_format must be {\"type\": \"json_schema\", \"schema\": {...}}");
        if (q->schema) return api_bad(e, "output_format", "output_format and output_config.format are both given");
        q->schema = json_dumps(schema, JSON_COMPACT);
    }

    // cache_salt and grammar (GBNF, as llama-server takes it) are frink's extensions.
    const char *salt = NULL, *grammar = NULL;
    if (api_get_str(body, "cache_salt", &salt, e) < 0 || api_get_str(body, "grammar", &grammar, e) < 0) return -1;
    if (grammar && q->schema)
        return api_bad(e, "grammar",
                        "grammar and output_config.format cannot be combined: each constrains the output");

    struct run_params *p = &q->p;
    p->messages = q->messages;
    p->tools = q->tools;
    p->template_vars = q->vars;
    p->continue_text = q->prefill;
    p->json_schema = q->schema;
    p->schema_param = "output_config.format";
    p->grammar = grammar;
    p->cache_salt = salt;
    p->n = 1;
    p->parse_output = true;
    p->fd = r->fd;
    p->req = r;
    if (!whole) return 0;

    p->n_predict = (int)max_tokens;
    if (api_get_strings(body, "stop_sequences", ANTH_MAX_STOP, &q->stop, &q->n_stop, e) < 0) return -1;
    p->stop = q->stop;
    p->n_stop = q->n_stop;
    if (api_get_bool(body, "stream", &q->stream, e) < 0) return -1;
    q->p.whole_tool_calls = !q->stream; // a whole reply reports only complete calls
    double temp;
    rc = api_get_num(body, "temperature", 0, 1, &temp, e);
    if (rc < 0) return -1;
    // Anthropic's default temperature is 1.0 (OpenAI's readers would take frink's default).
    json_t *sampling = json_copy(body);
    if (rc == 0) json_object_set_new(sampling, "temperature", json_real(1.0));
    rc = api_read_sampling(s, sampling, p, &q->bias, e);
    json_decref(sampling);
    return rc < 0 ? -1 : 0;
}

// ---- the reply: blocks opened lazily, closed when the kind changes -------------------------

enum anth_kind { ANTH_NONE, ANTH_THINKING, ANTH_TEXT, ANTH_TOOL };

struct anth_reply {
    struct srv *s;
    struct api_stream *st; // NULL: a whole response (blocks collect in content)
    char id[64];
    bool one_tool, omit_thinking;
    bool started;              // message_start sent
    enum anth_kind open;       // the open block's kind
    int index;                 // the open block's index (the next one's when none is open)
    struct api_buf cur;       // whole responses: the open block's text
    size_t sent_args;          // bytes of the open tool block's arguments streamed
    bool tool_ended;           // the open tool block's call is complete (TOOL_END)
    char *tool_id, *tool_name; // the open tool block's
    json_t *content;           // whole responses: the closed blocks
    int n_tools;               // complete tool calls
    enum gen_finish finish;
    char *stop_string;
    char err[256];
};

static void anth_reply_free(void *ud) {
    struct anth_reply *a = ud;
    if (!a) return;
    api_buf_free(&a->cur);
    free(a->tool_id);
    free(a->tool_name);
    free(a->stop_string);
    json_decref(a->content);
    free(a);
}

// A message's usage, or (delta) message_delta's cumulative counts, which have no service_tier.
static json_t *anth_usage(struct run *run, bool delta) {
    int prompt = 0, cached = 0, completion = 0;
    run_usage(run, &prompt, &cached, &completion);
    // Anthropic's input_tokens counts only what was not read from the cache.
    json_t *u = json_pack("{s:i,s:i,s:i,s:i}", "input_tokens", prompt - cached, "cache_creation_input_tokens", 0,
                          "cache_read_input_tokens", cached, "output_tokens", completion);
    if (!delta) json_object_set_new(u, "service_tier", json_string("standard"));
    return u;
}

static void anth_start(struct anth_reply *a) {
    if (!a->st || a->started) return;
    a->started = true;
    json_t *msg = json_pack("{s:s,s:s,s:s,s:s,s:[],s:n,s:n,s:n,s:n,s:o}", "id", a->id, "type", "message", "role",
                            "assistant", "model", a->s->model_id, "content", "stop_reason", "stop_sequence",
                            "stop_details", "container", "usage", anth_usage(a->st->run, false));
    api_sse(a->st, "message_start", json_pack("{s:s,s:o}", "type", "message_start", "message", msg));
    api_sse(a->st, "ping", json_pack("{s:s}", "type", "ping"));
}

static void anth_delta(struct anth_reply *a, json_t *delta) {
    api_sse(a->st, "content_block_delta",
            json_pack("{s:s,s:i,s:o}", "type", "content_block_delta", "index", a->index, "delta", delta));
}

static void anth_close(struct anth_reply *a) {
    if (a->open == ANTH_NONE) return;
    if (a->st) {
        if (a->open == ANTH_THINKING) anth_delta(a, json_pack("{s:s,s:s}", "type", "signature_delta", "signature", ""));
        api_sse(a->st, "content_block_stop", json_pack("{s:s,s:i}", "type", "content_block_stop", "index", a->index));
    } else {
        json_t *b = NULL;
        const char *text = api_buf_str(&a->cur);
        if (a->open == ANTH_THINKING) {
            b = json_pack("{s:s,s:o,s:s}", "type", "thinking", "thinking", api_json_text(text, a->cur.n), "signature",
                          "");
        } else if (a->open == ANTH_TEXT) {
            b = json_pack("{s:s,s:o}", "type", "text", "text", api_json_text(text, a->cur.n));
        } else if (!a->tool_ended) {
            // A call the parser voided (its markup follows as text) or one cut off by
            // max_tokens: not a call.
        } else {
            json_t *input = api_json_generated(text);
            if (json_is_object(input)) {
                b = json_pack("{s:s,s:s,s:s,s:o}", "type", "tool_use", "id", a->tool_id, "name", a->tool_name, "input",
                              input);
            } else {
                // Arguments that are not a JSON object cannot be a tool_use block; the model's
                // text is kept as text rather than lost or replaced by an invented input.
                json_decref(input);
                a->n_tools--;
                b = json_pack("{s:s,s:o}", "type", "text", "text", api_json_text(text, a->cur.n));
            }
        }
        if (b) json_array_append_new(a->content, b);
    }
    a->cur.n = 0;
    if (a->cur.p) a->cur.p[0] = 0;
    a->open = ANTH_NONE;
    a->index++;
}

// Anthropic's tool ids start with "toolu_"; the run's own ids ("call_...") are replaced, an
// id the model itself wrote is kept (the model expects it back).
static char *anth_tool_id(const char *run_id) {
    if (run_id && *run_id && strncmp(run_id, "call_", 5)) return strdup(run_id);
    char id[64];
    run_make_id(id, sizeof id, "toolu_");
    return strdup(id);
}

static void anth_open(struct anth_reply *a, enum anth_kind kind, const struct run_ev *ev) {
    anth_close(a);
    a->open = kind;
    a->sent_args = 0;
    a->tool_ended = false;
    if (kind == ANTH_TOOL) {
        free(a->tool_id);
        free(a->tool_name);
        a->tool_id = anth_tool_id(ev->tool_id);
        a->tool_name = strdup(ev->tool_name ? ev->tool_name : "");
    }
    if (!a->st) return;
    json_t *b;
    if (kind == ANTH_THINKING)
        b = json_pack("{s:s,s:s,s:s}", "type", "thinking", "thinking", "", "signature", "");
    else if (kind == ANTH_TEXT)
        b = json_pack("{s:s,s:s}", "type", "text", "text", "");
    else
        b = json_pack("{s:s,s:s,s:s,s:{}}", "type", "tool_use", "id", a->tool_id, "name", a->tool_name, "input");
    api_sse(a->st, "content_block_start",
            json_pack("{s:s,s:i,s:o}", "type", "content_block_start", "index", a->index, "content_block", b));
}

static void anth_text(struct anth_reply *a, enum anth_kind kind, const char *text, size_t len) {
    if (!a->st) {
        api_buf_add(&a->cur, text, len);
        return;
    }
    json_t *s = api_json_text(text, len);
    if (kind == ANTH_THINKING)
        anth_delta(a, json_pack("{s:s,s:o}", "type", "thinking_delta", "thinking", s));
    else if (kind == ANTH_TEXT)
        anth_delta(a, json_pack("{s:s,s:o}", "type", "text_delta", "text", s));
    else
        anth_delta(a, json_pack("{s:s,s:o}", "type", "input_json_delta", "partial_json", s));
}

static void anth_on_event(void *ud, const struct run_ev *ev) {
    struct anth_reply *a = ud;
    if (ev->kind != RUN_EV_TOKENS) anth_start(a);
    switch (ev->kind) {
    case RUN_EV_REASONING:
    case RUN_EV_CONTENT: {
        enum anth_kind kind = ev->kind == RUN_EV_CONTENT ? ANTH_TEXT : ANTH_THINKING;
        if ((kind == ANTH_THINKING && a->omit_thinking) || !ev->len) break;
        if (a->open != kind) anth_open(a, kind, ev);
        anth_text(a, kind, ev->text, ev->len);
        break;
    }
    case RUN_EV_TOOL_NAME:
        if (a->one_tool && ev->tool_index > 0) break;
        anth_open(a, ANTH_TOOL, ev);
        break;
    case RUN_EV_TOOL_ARGS:
        if ((a->one_tool && ev->tool_index > 0) || a->open != ANTH_TOOL || !ev->len) break;
        anth_text(a, ANTH_TOOL, ev->text, ev->len);
        a->sent_args += ev->len;
        break;
    case RUN_EV_TOOL_END:
        if ((a->one_tool && ev->tool_index > 0) || a->open != ANTH_TOOL) break;
        if (!a->st) {
            // The whole arguments are authoritative over the fragments.
            a->cur.n = 0;
            api_buf_add(&a->cur, ev->text ? ev->text : "", ev->text ? ev->len : 0);
        } else if (!a->sent_args && ev->len) {
            anth_text(a, ANTH_TOOL, ev->text, ev->len);
        }
        a->tool_ended = true;
        a->n_tools++;
        anth_close(a);
        break;
    case RUN_EV_TOKENS: break;
    case RUN_EV_DONE:
        anth_close(a);
        a->finish = ev->finish;
        if (ev->finish == GEN_STOP && ev->stop_string) a->stop_string = strdup(ev->stop_string);
        break;
    }
}

// The error a finished run's task reports, for GEN_ERROR.
static void anth_task_err(struct anth_reply *a, struct run *run) {
    const char *msg = run->n > 0 && run->tasks[0]->err[0] ? run->tasks[0]->err : "generation failed";
    snprintf(a->err, sizeof a->err, "%s", msg);
}

static json_t *anth_stop_sequence(const struct anth_reply *a) {
    return a->finish == GEN_STOP && a->stop_string ? json_string(a->stop_string) : json_null();
}

static void anth_stream_event(struct api_stream *st, const struct run_ev *ev) { anth_on_event(st->ud, ev); }

static void anth_stream_end(struct api_stream *st) {
    struct anth_reply *a = st->ud;
    if (a->finish == GEN_ERROR) {
        anth_task_err(a, st->run);
        api_sse(st, "error",
                json_pack("{s:s,s:{s:s,s:s}}", "type", "error", "error", "type", "api_error", "message", a->err));
        return;
    }
    // Cancelled: the client is gone, unless the server is stopping (the stream then ends properly).
    if (a->finish == GEN_CANCELLED && !atomic_load(&st->s->stopping)) return;
    anth_start(a);
    anth_close(a);
    api_sse(st, "message_delta",
            json_pack("{s:s,s:{s:s,s:o,s:n},s:o}", "type", "message_delta", "delta", "stop_reason",
                      run_finish_anthropic(a->finish, a->n_tools), "stop_sequence", anth_stop_sequence(a),
                      "stop_details", "usage", anth_usage(st->run, true)));
    api_sse(st, "message_stop", json_pack("{s:s}", "type", "message_stop"));
}

// ---- the routes -------------------------------------------------------------------------

void api_messages(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    struct anth_req q = {0};
    json_t *body = api_parse_body(r, &e);
    if (!body || anth_read(s, r, body, true, &q, &e)) {
        api_err_send(&e, HTTP_API_ANTHROPIC, out);
        anth_req_free(&q);
        json_decref(body);
        return;
    }
    struct run *run = NULL;
    int rc = run_start(s, &q.p, &run, &e);
    if (rc && !strcmp(e.param, "response_format")) // run names OpenAI's field; the schema came from ours
        snprintf(e.param, sizeof e.param, "%s", "output_config.format");
    bool stream = q.stream;
    struct anth_reply *a = calloc(1, sizeof *a);
    if (a) {
        a->s = s;
        a->one_tool = q.one_tool;
        a->omit_thinking = q.omit_thinking;
        a->finish = GEN_RUNNING;
        run_make_id(a->id, sizeof a->id, "msg_");
    }
    anth_req_free(&q);
    json_decref(body);
    if (rc) {
        anth_reply_free(a);
        api_err_send(&e, HTTP_API_ANTHROPIC, out);
        return;
    }
    if (!a) abort();

    if (stream) {
        struct api_stream *st = api_stream_new(s, run); // takes the run, even when it fails
        if (!st) {
            anth_reply_free(a);
            api_err_set(&e, 500, "server_error", "", "out of memory");
            api_err_send(&e, HTTP_API_ANTHROPIC, out);
            return;
        }
        a->st = st;
        st->ud = a;
        st->on_event = anth_stream_event;
        st->on_end = anth_stream_end;
        st->free_ud = anth_reply_free;
        api_stream_respond(st, out);
        return;
    }

    a->content = json_array();
    if (run_wait(run, anth_on_event, a) < 0 || a->finish == GEN_CANCELLED) {
        api_err_set(&e, 499, "invalid_request_error", "", "the client went away");
        api_err_send(&e, HTTP_API_ANTHROPIC, out);
    } else if (a->finish == GEN_ERROR) {
        anth_task_err(a, run);
        api_err_set(&e, 500, "server_error", "", "%s", a->err);
        api_err_send(&e, HTTP_API_ANTHROPIC, out);
    } else {
        json_t *msg = json_pack("{s:s,s:s,s:s,s:s,s:O,s:s,s:o,s:n,s:n,s:o}", "id", a->id, "type", "message", "role",
                                "assistant", "model", s->model_id, "content", a->content, "stop_reason",
                                run_finish_anthropic(a->finish, a->n_tools), "stop_sequence", anth_stop_sequence(a),
                                "stop_details", "container", "usage", anth_usage(run, false));
        api_reply_send(msg, HTTP_API_ANTHROPIC, out);
    }
    run_free(run);
    anth_reply_free(a);
}

void api_count_tokens(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    struct anth_req q = {0};
    json_t *body = api_parse_body(r, &e);
    char *text = NULL;
    size_t len = 0;
    int n_tokens = 0;
    if (!body || anth_read(s, r, body, false, &q, &e) || run_render(s, &q.p, &text, &len, &n_tokens, &e))
        api_err_send(&e, HTTP_API_ANTHROPIC, out);
    else
        http_json(out, 200, json_pack("{s:i}", "input_tokens", n_tokens));
    free(text);
    anth_req_free(&q);
    json_decref(body);
}
