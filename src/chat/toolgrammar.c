// toolgrammar.c — the GBNF of a tool call in a chat format's markup (see toolgrammar.h).
//
// The grammar is written as text, rule by rule: `root` is the trigger then `after-trigger`,
// which is the format's calls; each tool's arguments are its parameters schema compiled by
// grammar/jsonschema.c under the prefix "tc-args-I" (or, per parameter of the XML formats,
// "tc-j-I-J"), and the fixed JSON rules (ws, string, value, ...) come once at the end. The
// rules written here are all named "tc-..." or `root` / `after-trigger`, apart from those.
#include "chat/toolgrammar.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/jsonschema.h"

struct tg_tool {
    const char *name;
    const json_t *params; // the parameters schema (an empty object's when absent)
    int index;            // in the tools array
};

struct tg {
    char *p; // the rules so far
    size_t n, cap;
    frink_status st; // first failure
    struct tg_tool *tools;
    int n_tools;
    bool parallel;
    unsigned js_flags; // JSONSCHEMA_NO_LT for the XML formats
    bool pylit;        // Qwen3-Coder, Seed-OSS: True / False / None are read as JSON's literals
    bool dsml;         // DeepSeek DSML: each value says string="true" (raw) or "false" (JSON)
    json_t *empty;     // the schema of a tool without parameters
    json_t *copies;    // parameters given "type": "object" here (owned)
};

static void tg_put(struct tg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tg_put(struct tg *g, const char *fmt, ...) {
    if (g->st) return;
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int k = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (k < 0) {
        g->st = frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
        return;
    }
    if (g->n + (size_t)k + 1 > g->cap) {
        size_t cap = g->cap ? g->cap : 4096;
        while (cap < g->n + (size_t)k + 1) cap *= 2;
        char *q = realloc(g->p, cap);
        if (!q) {
            free(s);
            g->st = frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
            return;
        }
        g->p = q, g->cap = cap;
    }
    memcpy(g->p + g->n, s, (size_t)k + 1);
    g->n += (size_t)k;
    free(s);
}

// A GBNF literal of s, written into the caller's buf of cap bytes (2 * strlen + 3 do for text
// without control characters).
static const char *tg_lit(const char *s, char *buf, size_t cap) {
    size_t k = 0;
    buf[k++] = '"';
    for (const unsigned char *q = (const unsigned char *)s; *q && k + 6 < cap; q++) {
        if (*q == '"' || *q == '\\') buf[k++] = '\\', buf[k++] = (char)*q;
        else if (*q < 0x20 || *q == 0x7F) k += (size_t)snprintf(buf + k, cap - k, "\\x%02X", *q);
        else buf[k++] = (char)*q;
    }
    buf[k++] = '"';
    buf[k] = 0;
    return buf;
}

// The compiled arguments of tool i as rule `prefix` (appended).
static void tg_schema(struct tg *g, const json_t *root, const json_t *schema, const char *prefix, const char *where) {
    if (g->st) return;
    char *r = NULL;
    frink_status st = jsonschema_to_gbnf_rules(root, schema, prefix, g->js_flags, &r);
    if (st) {
        g->st = frink_fail_ctx(st, "%s: ", where);
        return;
    }
    tg_put(g, "%s", r);
    free(r);
}

static void tg_args(struct tg *g, int i) {
    char prefix[32], where[64];
    snprintf(prefix, sizeof prefix, "tc-args-%d", i);
    snprintf(where, sizeof where, "tools[%d].function.parameters", g->tools[i].index);
    tg_schema(g, g->tools[i].params, g->tools[i].params, prefix, where);
}

// `after-trigger` for calls that each begin with the trigger: one call, or calls joined by sep
// (the trigger repeated after it).
static void tg_repeat(struct tg *g, const char *one, const char *sep_trigger) {
    char lit[256];
    if (g->parallel)
        tg_put(g, "after-trigger ::= %s (%s %s)*\n", one, tg_lit(sep_trigger, lit, sizeof lit), one);
    else
        tg_put(g, "after-trigger ::= %s\n", one);
}

// "tc-NAME ::= tc-NAME-0 | tc-NAME-1 | ..." over the tools.
static void tg_alts(struct tg *g, const char *name) {
    tg_put(g, "%s ::=", name);
    for (int i = 0; i < g->n_tools; i++) tg_put(g, "%s %s-%d", i ? " |" : "", name, i);
    tg_put(g, "\n");
}

// ---- JSON call objects: {"NAMEKEY": "N", "ARGSKEY": {…}} -------------------------------------

// The call ids a JSON call object may carry, as its family's templates write them (all
// optional: the parser makes one up when absent).
enum tg_id {
    TG_ID_NONE,
    TG_ID_MISTRAL, // "id": 9 alphanumerics, after the arguments (Nemo's templates want 9)
    TG_ID_AFTER,   // "id": "call_…", after the arguments (Apriel)
    TG_ID_COHERE,  // "tool_call_id": "N" first (Command R7B numbers its calls)
};

// tc-obj-I for every tool.
static void tg_objects(struct tg *g, const char *name_key, const char *args_key, enum tg_id id) {
    static const char *const before[] = {
        "", "", "", "(\"\\\"tool_call_id\\\"\" ws \":\" ws \"\\\"\" [0-9]{1,3} \"\\\"\" ws \",\" ws)? "};
    static const char *const after[] = {
        "", " (\",\" ws \"\\\"id\\\"\" ws \":\" ws \"\\\"\" [a-zA-Z0-9]{9} \"\\\"\" ws)?",
        " (\",\" ws \"\\\"id\\\"\" ws \":\" ws \"\\\"call_\" [a-zA-Z0-9]{1,24} \"\\\"\" ws)?", ""};
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g,
               "tc-obj-%d ::= \"{\" ws %s\"\\\"%s\\\"\" ws \":\" ws \"\\\"%s\\\"\" ws \",\" ws "
               "\"\\\"%s\\\"\" ws \":\" ws tc-args-%d ws%s \"}\"\n",
               i,
               before[id], name_key, g->tools[i].name, args_key, i, after[id]);
        tg_args(g, i);
    }
    tg_alts(g, "tc-obj");
}

// A JSON array of call objects after the trigger, then the closing tag (if any).
static void tg_array(struct tg *g, const char *trigger, const char *close, const char *name_key, const char *args_key,
                     enum tg_id id) {
    char lit[256], cl[256];
    tg_put(g, "root ::= %s after-trigger\n", tg_lit(trigger, lit, sizeof lit));
    tg_put(g, "after-trigger ::= \"[\" ws tc-obj ws %s\"]\"%s%s\n", g->parallel ? "(\",\" ws tc-obj ws)* " : "", close ? " " : "",
           close ? tg_lit(close, cl, sizeof cl) : "");
    tg_objects(g, name_key, args_key, id);
}

static void fmt_granite(struct tg *g) { tg_array(g, "<|tool_call|>", NULL, "name", "arguments", TG_ID_NONE); }
static void fmt_command_r7b(struct tg *g) {
    tg_array(g, "<|START_ACTION|>", "<|END_ACTION|>", "tool_name", "parameters", TG_ID_COHERE);
}
static void fmt_apriel(struct tg *g) { tg_array(g, "<tool_calls>", "</tool_calls>", "name", "arguments", TG_ID_AFTER); }

static void fmt_hermes(struct tg *g) {
    tg_put(g, "root ::= \"<tool_call>\" after-trigger\n");
    tg_repeat(g, "tc-one", "\n<tool_call>");
    tg_put(g, "tc-one ::= \"\\n\" tc-obj \"\\n</tool_call>\"\n");
    tg_objects(g, "name", "arguments", TG_ID_NONE);
}

static void fmt_llama3(struct tg *g) {
    // The call is the whole message, read from its '{' (the trigger): after-trigger is the rest
    // of the object, and each further call repeats the brace after "; ".
    tg_put(g, "root ::= \"{\" after-trigger\n");
    tg_repeat(g, "tc-rest", "; {");
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g,
               "tc-rest-%d ::= ws \"\\\"name\\\"\" ws \":\" ws \"\\\"%s\\\"\" ws \",\" ws "
               "\"\\\"parameters\\\"\" ws \":\" ws tc-args-%d ws \"}\"\n",
               i, g->tools[i].name, i);
        tg_args(g, i);
    }
    tg_alts(g, "tc-rest");
}

static void fmt_mistral(struct tg *g) {
    // Three spellings the parser reads, as the family's templates write them: Devstral's
    // NAME[ARGS]{…}, Small 3.2's NAME[CALL_ID]ID[ARGS]{…} (each after its own [TOOL_CALLS]) and
    // Nemo's JSON array.
    tg_put(g, "root ::= \"[TOOL_CALLS]\" after-trigger\n");
    if (g->parallel)
        tg_put(g, "after-trigger ::= tc-nm (\"[TOOL_CALLS]\" tc-nm)* | \"[\" tc-obj (\",\" ws tc-obj)* \"]\"\n");
    else
        tg_put(g, "after-trigger ::= tc-nm | \"[\" tc-obj \"]\"\n");
    for (int i = 0; i < g->n_tools; i++)
        tg_put(g, "tc-nm-%d ::= \"%s\" (\"[CALL_ID]\" [a-zA-Z0-9]{9})? \"[ARGS]\" tc-args-%d\n", i, g->tools[i].name, i);
    tg_alts(g, "tc-nm");
    tg_objects(g, "name", "arguments", TG_ID_MISTRAL);
}

static void fmt_deepseek(struct tg *g) {
    tg_put(g, "root ::= \"<｜tool▁calls▁begin｜>\" after-trigger\n");
    tg_put(g, "after-trigger ::= tc-ds %s\"<｜tool▁calls▁end｜>\"\n", g->parallel ? "(\"\\n\"? tc-ds)* " : "");
    for (int i = 0; i < g->n_tools; i++) {
        const char *n = g->tools[i].name;
        // R1 writes the type "function" where V3.1 writes the name: a tool called "function"
        // gets R1's spelling only.
        tg_put(g, "tc-ds-%d ::= \"<｜tool▁call▁begin｜>\" (\"function<｜tool▁sep｜>%s\\n```json\\n\" tc-args-%d \"\\n```\"", i,
               n, i);
        if (strcmp(n, "function")) tg_put(g, " | \"%s<｜tool▁sep｜>\" tc-args-%d", n, i);
        tg_put(g, ") \"<｜tool▁call▁end｜>\"\n");
        tg_args(g, i);
    }
    tg_alts(g, "tc-ds");
}

static void fmt_functionary31(struct tg *g) {
    tg_put(g, "root ::= \"<function=\" after-trigger\n");
    tg_repeat(g, "tc-f1", "<function=");
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g, "tc-f1-%d ::= \"%s>\" tc-args-%d \"</function>\"\n", i, g->tools[i].name, i);
        tg_args(g, i);
    }
    tg_alts(g, "tc-f1");
}

static void fmt_kimi(struct tg *g) {
    tg_put(g, "root ::= \"<|tool_calls_section_begin|>\" after-trigger\n");
    tg_put(g, "after-trigger ::= tc-km %s\"<|tool_calls_section_end|>\"\n", g->parallel ? "tc-km* " : "");
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g,
               "tc-km-%d ::= \"<|tool_call_begin|>functions.%s:\" [0-9]{1,3} \"<|tool_call_argument_begin|>\" tc-args-%d "
               "\"<|tool_call_end|>\"\n",
               i, g->tools[i].name, i);
        tg_args(g, i);
    }
    tg_alts(g, "tc-km");
}

// ---- XML-style parameters: Qwen3-Coder and GLM ----------------------------------------------
//
// A value is read as JSON when it parses as JSON (Qwen3-Coder also reads True/False/None),
// else as a raw string up to the closing tag. A plain string parameter may be written either
// way: raw text is what models write, so raw text is allowed when it cannot be read as JSON.

// Whether a schema is plain: `type` (one name, or a list holding `type`) and annotations only,
// so that any value of that type is valid.
static bool tg_plain_type(const json_t *s, const char *type) {
    if (!json_is_object(s)) return false;
    static const char *const ann[] = {"description", "title", "$comment", "examples", "default", "type", NULL};
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)s, k, v) {
        bool ok = false;
        for (int i = 0; ann[i]; i++) ok = ok || !strcmp(k, ann[i]);
        if (!ok) return false;
    }
    const json_t *t = json_object_get(s, "type"), *x;
    if (json_is_string(t)) return !strcmp(json_string_value(t), type);
    size_t i;
    json_array_foreach(t, i, x) if (json_is_string(x) && !strcmp(json_string_value(x), type)) return true;
    return false;
}

// Whether the raw text s, as a parameter value, is read back as the string s: not empty, no
// control character, no '<' (the closing tag), and it cannot begin a JSON value or a Python
// literal that it then is (the same test as the raw-text rules below, on a literal).
static bool tg_raw_safe(const char *s) {
    unsigned char c = (unsigned char)s[0];
    if (!c || strchr(" \t\r\n{[\"-0123456789<", c)) return false;
    for (const unsigned char *q = (const unsigned char *)s; *q; q++)
        if (*q < 0x20 || *q == 0x7F || *q == '<') return false;
    static const char *const words[] = {"true", "false", "null", "True", "False", "None"};
    for (int i = 0; i < 6; i++) {
        size_t l = strlen(words[i]);
        if (strncmp(s, words[i], l)) continue;
        const char *r = s + l;
        while (*r == ' ' || *r == '\t' || *r == '\r' || *r == '\n') r++;
        if (!*r) return false; // the literal, maybe with whitespace after: read as JSON
    }
    return true;
}

// The rules of raw text up to the closing tag `close` (its first byte '<' occurs in it once):
//   tc-raw    the value: a start that no JSON value or Python literal has, then any text
//             without `close`
//   tc-rbody  text without `close`: runs of '<' followed by a byte that leaves the tag, and
//             at the very end a proper prefix of the tag
static void tg_raw_rules(struct tg *g, const char *close) {
    static const char *const words[] = {"true", "false", "null", "True", "False", "None"};
    // Bytes a raw value may start with: none that begins JSON (or is whitespace, '<', a
    // control), none that begins a literal (those are handled next).
    tg_put(g, "tc-raw ::= [^ \\t\\r\\n{\\[\"\\-0-9<tfnTFN\\x00-\\x1F\\x7F] tc-rbody");
    for (int w = 0; w < 6; w++) {
        // A literal's first k letters then a byte that is not its next one (or the end), or the
        // whole literal, whitespace, and then something else.
        const char *s = words[w];
        size_t l = strlen(s);
        for (size_t k = 1; k <= l; k++) {
            char pre[16];
            memcpy(pre, s, k);
            pre[k] = 0;
            if (k < l)
                tg_put(g, " | \"%s\" ([^%c<\\x00-\\x1F\\x7F] tc-rbody)?", pre, s[k]);
            else
                tg_put(g, " | \"%s\" [ \\t\\r\\n]* [^ \\t\\r\\n<\\x00-\\x1F\\x7F] tc-rbody", pre);
        }
    }
    tg_put(g, "\n");
    // A '<' run then a mismatch with close[1..]: tc-rmis-K is "the tag's K-th character (a
    // UTF-8 sequence: DSML's tags hold '｜') is not next".
    const char *ch[64];
    size_t cl[64], nc = 0;
    for (const char *q = close; *q && nc < 64; nc++) {
        size_t l = 1;
        while (((unsigned char)q[l] & 0xC0) == 0x80) l++;
        ch[nc] = q, cl[nc] = l, q += l;
    }
    tg_put(g, "tc-rbody ::= ([^<\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F] | \"<\"+ tc-rmis-1)* (\"<\"+ tc-rpre?)?\n");
    tg_put(g, "tc-rpre ::=");
    for (size_t k = 2; k < nc; k++) tg_put(g, "%s \"%.*s\"", k > 2 ? " |" : "", (int)(ch[k - 1] + cl[k - 1] - ch[1]), ch[1]);
    tg_put(g, "\n");
    // (The tags' characters after '<' need no escape in a class.)
    for (size_t k = 1; k < nc; k++) {
        tg_put(g, "tc-rmis-%zu ::= [^%.*s<\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]", k, (int)cl[k], ch[k]);
        if (k + 1 < nc) tg_put(g, " | \"%.*s\" tc-rmis-%zu", (int)cl[k], ch[k], k + 1);
        tg_put(g, "\n");
    }
}

// Whether a parameter's name can be written between the format's tags: not empty, no '<' or
// '>', no control or whitespace at either end.
static bool tg_key_ok(const char *k) {
    size_t n = strlen(k);
    if (!n || n > 256 || strchr(" \t\r\n", k[0]) || strchr(" \t\r\n", k[n - 1])) return false;
    for (const unsigned char *q = (const unsigned char *)k; *q; q++)
        if (*q < 0x20 || *q == 0x7F || *q == '<' || *q == '>') return false;
    return true;
}

// The string enum / const values of schema ps that can be written raw (pred), as
// alternatives " | PRE\"value\"" of the rule being written.
static void tg_raw_enums(struct tg *g, const json_t *ps, bool (*pred)(const char *), const char *pre) {
    char lit[1100];
    const json_t *ev = json_object_get(ps, "enum"), *cv = json_object_get(ps, "const");
    const json_t *t = json_object_get(ps, "type");
    bool typed_ok = !t || (json_is_string(t) && !strcmp(json_string_value(t), "string"));
    if (!typed_ok || !(ev || cv) || json_object_size(ps) > 3) return;
    size_t n = cv ? 1 : json_array_size(ev);
    for (size_t e = 0; e < n; e++) {
        const json_t *v = cv ? cv : json_array_get(ev, e);
        if (json_is_string(v) && strlen(json_string_value(v)) < 256 && pred(json_string_value(v)))
            tg_put(g, " | %s%s", pre, tg_lit(json_string_value(v), lit, sizeof lit));
    }
}

// Whether s can be a DSML string="true" value as it is: no '<' (so never the closing tag) and
// no control character.
static bool tg_dsml_raw_ok(const char *s) {
    for (const unsigned char *q = (const unsigned char *)s; *q; q++)
        if ((*q < 0x20 && *q != '\t' && *q != '\n' && *q != '\r') || *q == 0x7F || *q == '<') return false;
    return true;
}

// DSML: the attribute, then the value: string="false" and its JSON, or, where a string is
// allowed as it is, string="true" and raw text up to the closing tag.
static void tg_dsml_value(struct tg *g, int i, int j, const char *key, const json_t *ps) {
    char prefix[48], where[512];
    static const char f[] = "\" string=\\\"false\\\">\"", t[] = "\" string=\\\"true\\\">\"";
    if (!ps || json_is_true(ps)) {
        tg_put(g, "tc-v-%d-%d ::= %s value | %s tc-rbody\n", i, j, f, t);
        return;
    }
    snprintf(prefix, sizeof prefix, "tc-j-%d-%d", i, j);
    snprintf(where, sizeof where, "tools[%d].function.parameters/properties/%s", g->tools[i].index, key);
    tg_schema(g, g->tools[i].params, ps, prefix, where);
    tg_put(g, "tc-v-%d-%d ::= %s %s", i, j, f, prefix);
    if (tg_plain_type(ps, "string")) tg_put(g, " | %s tc-rbody", t);
    tg_raw_enums(g, ps, tg_dsml_raw_ok, t);
    tg_put(g, "\n");
}

// The value rule tc-v-I-J of parameter `key` (schema ps, NULL when only required by name).
static void tg_xml_value(struct tg *g, int i, int j, const char *key, const json_t *ps) {
    if (g->dsml) {
        tg_dsml_value(g, i, j, key, ps);
        return;
    }
    char prefix[48], where[512];
    const json_t *root = g->tools[i].params;
    snprintf(prefix, sizeof prefix, "tc-j-%d-%d", i, j);
    snprintf(where, sizeof where, "tools[%d].function.parameters/properties/%s", g->tools[i].index, key);
    if (!ps || json_is_true(ps)) {
        tg_put(g, "tc-v-%d-%d ::= value | tc-raw\n", i, j);
        return;
    }
    // Compiled with JSONSCHEMA_NO_LT: no JSON text here can hold the closing tag.
    tg_schema(g, root, ps, prefix, where);
    tg_put(g, "tc-v-%d-%d ::= %s", i, j, prefix);
    if (tg_plain_type(ps, "string")) tg_put(g, " | tc-raw");
    // Qwen3-Coder's template writes Python's literals for booleans and null.
    if (g->pylit && tg_plain_type(ps, "boolean")) tg_put(g, " | \"True\" | \"False\"");
    if (g->pylit && tg_plain_type(ps, "null")) tg_put(g, " | \"None\"");
    // A string enum / const: each value that reads back as itself raw, raw.
    tg_raw_enums(g, ps, tg_raw_safe, "");
    tg_put(g, "\n");
}

// The parameters of tool i as rule tc-params-I: required ones first, then optional ones, in
// the schema's order, each `open K mid V close`.
static void tg_xml_params(struct tg *g, int i, const char *open, const char *mid, const char *close) {
    const json_t *s = g->tools[i].params;
    char where[96];
    snprintf(where, sizeof where, "tools[%d].function.parameters", g->tools[i].index);
    if (!json_is_object(s)) {
        g->st = frink_fail(FRINK_ERR_UNSUPPORTED, "%s: not an object schema, which this format cannot write", where);
        return;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)s, k, v) {
        static const char *const ok[] = {"type", "properties", "required", "additionalProperties", "description",
                                         "title", "$schema", "$id", "$comment", "examples", "default", "$defs",
                                         "definitions", NULL};
        bool known = false;
        for (int q = 0; ok[q]; q++) known = known || !strcmp(k, ok[q]);
        if (!known) {
            g->st = frink_fail(FRINK_ERR_UNSUPPORTED, "%s/%s: not supported for parameters written as XML tags", where, k);
            return;
        }
    }
    const json_t *t = json_object_get(s, "type"), *props = json_object_get(s, "properties"), *req = json_object_get(s, "required");
    if (t && !(json_is_string(t) && !strcmp(json_string_value(t), "object"))) {
        g->st = frink_fail(FRINK_ERR_UNSUPPORTED, "%s/type: parameters written as XML tags must be an object", where);
        return;
    }
    if ((props && !json_is_object(props)) || (req && !json_is_array(req))) {
        g->st = frink_fail(FRINK_ERR_ARG, "%s: %s is malformed", where, props && !json_is_object(props) ? "properties" : "required");
        return;
    }
    // Keys in order: required (as listed), then the other properties.
    const char *keys[512];
    const json_t *schemas[512];
    bool required[512];
    int n = 0;
    size_t r;
    json_array_foreach(req, r, v) {
        if (!json_is_string(v)) {
            g->st = frink_fail(FRINK_ERR_ARG, "%s/required: not a list of strings", where);
            return;
        }
        bool dup = false;
        for (int q = 0; q < n; q++) dup = dup || !strcmp(keys[q], json_string_value(v));
        if (dup || n == 512) continue;
        keys[n] = json_string_value(v), schemas[n] = props ? json_object_get(props, keys[n]) : NULL, required[n++] = true;
    }
    json_object_foreach((json_t *)props, k, v) {
        bool dup = false;
        for (int q = 0; q < n; q++) dup = dup || !strcmp(keys[q], k);
        if (dup || n == 512) continue;
        keys[n] = k, schemas[n] = v, required[n++] = false;
    }
    for (int j = 0; j < n; j++)
        if (!tg_key_ok(keys[j]) || (strchr(open, '"') && strchr(keys[j], '"'))) { // name="K" holds no quote
            g->st = frink_fail(FRINK_ERR_UNSUPPORTED, "%s/properties/%s: a parameter name this format cannot write", where, keys[j]);
            return;
        }
    for (int j = 0; j < n; j++) tg_xml_value(g, i, j, keys[j], schemas[j]);
    tg_put(g, "tc-params-%d ::=", i);
    char lit[1100];
    for (int j = 0; j < n; j++) {
        char *kv = NULL;
        if (asprintf(&kv, "%s%s%s", open, keys[j], mid) < 0) {
            g->st = frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
            return;
        }
        tg_put(g, " (%s tc-v-%d-%d \"%s\")%s", tg_lit(kv, lit, sizeof lit), i, j, close, required[j] ? "" : "?");
        free(kv);
    }
    if (!n) tg_put(g, " \"\"");
    tg_put(g, "\n");
}

// <TAG>\n<function=NAME>\n<parameter=K>…</parameter>\n</function>\n</TAG>, the calls joined by
// "\n": Qwen3-Coder and Qwen3.5 (<tool_call>, each value between newlines), Seed-OSS
// (<seed:tool_call>, values without them). value_open, value_close: around each value.
static void tg_function_xml(struct tg *g, const char *tag, const char *value_open, const char *value_close) {
    char sep[64];
    snprintf(sep, sizeof sep, "\n<%s>", tag);
    tg_put(g, "root ::= \"<%s>\" after-trigger\n", tag);
    tg_repeat(g, "tc-one", sep);
    tg_put(g, "tc-one ::= \"\\n\" tc-fn \"</%s>\"\n", tag);
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g, "tc-fn-%d ::= \"<function=%s>\\n\" tc-params-%d \"</function>\\n\"\n", i, g->tools[i].name, i);
        tg_xml_params(g, i, "<parameter=", value_open, value_close);
    }
    tg_alts(g, "tc-fn");
    tg_raw_rules(g, "</parameter>");
}

static void fmt_qwen_xml(struct tg *g) { tg_function_xml(g, "tool_call", ">\n", "\\n</parameter>\\n"); }
static void fmt_seed_oss(struct tg *g) { tg_function_xml(g, "seed:tool_call", ">", "</parameter>\\n"); }

static void fmt_glm(struct tg *g) {
    tg_put(g, "root ::= \"<tool_call>\" after-trigger\n");
    tg_repeat(g, "tc-one", "\n<tool_call>");
    tg_put(g, "tc-one ::= tc-fn \"</tool_call>\"\n");
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g, "tc-fn-%d ::= \"%s\\n\" tc-params-%d\n", i, g->tools[i].name, i);
        tg_xml_params(g, i, "<arg_key>", "</arg_key>\n<arg_value>", "</arg_value>\\n");
    }
    tg_alts(g, "tc-fn");
    tg_raw_rules(g, "</arg_value>");
}

// ---- <invoke name="N"><parameter name="K">V</parameter></invoke>: MiniMax-M2, DeepSeek DSML --
// One section holds the calls, each on its line.

static void tg_invoke(struct tg *g, const char *open, const char *close, const char *pfx) {
    char lit[256], cl[256];
    tg_put(g, "root ::= %s after-trigger\n", tg_lit(open, lit, sizeof lit));
    tg_put(g, "after-trigger ::= \"\\n\" tc-fn%s %s\n", g->parallel ? "+" : "", tg_lit(close, cl, sizeof cl));
    for (int i = 0; i < g->n_tools; i++) {
        tg_put(g, "tc-fn-%d ::= \"<%sinvoke name=\\\"%s\\\">\\n\" tc-params-%d \"</%sinvoke>\\n\"\n", i, pfx,
               g->tools[i].name, i, pfx);
        char popen[64], pclose[64];
        snprintf(popen, sizeof popen, "<%sparameter name=\"", pfx);
        snprintf(pclose, sizeof pclose, "</%sparameter>\\n", pfx);
        tg_xml_params(g, i, popen, g->dsml ? "\"" : "\">", pclose);
    }
    tg_alts(g, "tc-fn");
    snprintf(cl, sizeof cl, "</%sparameter>", pfx);
    tg_raw_rules(g, cl);
}

static void fmt_minimax_m2(struct tg *g) { tg_invoke(g, "<minimax:tool_call>", "</minimax:tool_call>", ""); }
static void fmt_deepseek_v32(struct tg *g) {
    tg_invoke(g, "<｜DSML｜function_calls>", "</｜DSML｜function_calls>", "｜DSML｜");
}
static void fmt_deepseek_v4(struct tg *g) { tg_invoke(g, "<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>", "｜DSML｜"); }

// ---- the format table -----------------------------------------------------------------------

static const struct tg_fmt {
    const char *name;
    const char *trigger;
    void (*write)(struct tg *g);
    unsigned js_flags;
} tg_formats[] = {
    {"hermes", "<tool_call>", fmt_hermes, 0},
    {"qwen3-coder", "<tool_call>", fmt_qwen_xml, JSONSCHEMA_NO_LT},
    {"glm", "<tool_call>", fmt_glm, JSONSCHEMA_NO_LT},
    {"llama3", "{", fmt_llama3, 0},
    {"mistral", "[TOOL_CALLS]", fmt_mistral, 0},
    {"deepseek", "<｜tool▁calls▁begin｜>", fmt_deepseek, 0},
    {"kimi-k2", "<|tool_calls_section_begin|>", fmt_kimi, 0},
    {"command-r7b", "<|START_ACTION|>", fmt_command_r7b, 0},
    {"granite", "<|tool_call|>", fmt_granite, 0},
    {"apriel", "<tool_calls>", fmt_apriel, 0},
    {"functionary-v3.1", "<function=", fmt_functionary31, 0},
    {"minimax-m2", "<minimax:tool_call>", fmt_minimax_m2, JSONSCHEMA_NO_LT},
    {"seed-oss", "<seed:tool_call>", fmt_seed_oss, JSONSCHEMA_NO_LT},
    {"deepseek-v3.2", "<｜DSML｜function_calls>", fmt_deepseek_v32, JSONSCHEMA_NO_LT},
    {"deepseek-v4", "<｜DSML｜tool_calls>", fmt_deepseek_v4, JSONSCHEMA_NO_LT},
};

// Formats refused, and why.
static const struct {
    const char *name, *why;
} tg_refused[] = {
    {"none", "it has no tool calls"},
    {"think", "it has no tool calls"},
    {"gpt-oss", "harmony writes a call's header in control tokens (<|channel|>, <|constrain|>, <|message|>), which a "
                "grammar over token text cannot produce"},
    {"functionary-v3.2", "its calls begin at the message's first byte after the prompt's >>>; not written yet"},
    {"minimax-m3", "its arguments are XML elements nested as deep as the values (]<]minimax[>[<item> for arrays), "
                   "which the JSON Schema compiler does not write; not written yet"},
    {"gemma4", "its arguments are in the template's own literal syntax (<|\"|>text<|\"|> strings, bare keys), which the "
               "JSON Schema compiler does not write; not written yet"},
};

// Whether a tool name can be written in every format's markup as it is, and read back.
static bool tg_name_ok(const char *s) {
    size_t n = strlen(s);
    if (!n || n > 128) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

static frink_status tg_read_tools(struct tg *g, const json_t *tools, const char *name) {
    if (!json_is_array(tools) || !json_array_size(tools)) return frink_fail(FRINK_ERR_ARG, "tools: not a non-empty array");
    g->tools = calloc(json_array_size(tools), sizeof *g->tools);
    if (!g->tools) return frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
    size_t i;
    const json_t *t;
    json_array_foreach(tools, i, t) {
        const json_t *type = json_object_get(t, "type"), *fn = json_object_get(t, "function");
        if (!json_is_object(t)) return frink_fail(FRINK_ERR_ARG, "tools[%zu]: not an object", i);
        if (type && !(json_is_string(type) && !strcmp(json_string_value(type), "function")))
            return frink_fail(FRINK_ERR_UNSUPPORTED, "tools[%zu].type: only \"function\" tools can be forced", i);
        if (!json_is_object(fn)) return frink_fail(FRINK_ERR_ARG, "tools[%zu].function: not an object", i);
        const char *n = json_string_value(json_object_get(fn, "name"));
        if (!n) return frink_fail(FRINK_ERR_ARG, "tools[%zu].function.name: not a string", i);
        if (!tg_name_ok(n))
            return frink_fail(FRINK_ERR_ARG, "tools[%zu].function.name \"%.64s\": not 1 to 128 letters, digits, '_', '.' or '-'", i, n);
        for (int k = 0; k < g->n_tools; k++)
            if (!strcmp(g->tools[k].name, n)) return frink_fail(FRINK_ERR_ARG, "tools[%zu].function.name \"%s\": declared twice", i, n);
        const json_t *p = json_object_get(fn, "parameters");
        if (p && !json_is_object(p)) return frink_fail(FRINK_ERR_ARG, "tools[%zu].function.parameters: not an object", i);
        if (name && strcmp(name, n)) continue;
        // The arguments are one JSON object: the schema must say so at its top, where a
        // composition or a reference could admit other values.
        static const char *const top[] = {"anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not", "if", NULL};
        for (int k = 0; p && top[k]; k++)
            if (json_object_get(p, top[k]))
                return frink_fail(FRINK_ERR_UNSUPPORTED, "tools[%zu].function.parameters/%s: the arguments must be described "
                                  "by one object schema at the top", i, top[k]);
        const json_t *ptype = p ? json_object_get(p, "type") : NULL;
        if (ptype && !(json_is_string(ptype) && !strcmp(json_string_value(ptype), "object")))
            return frink_fail(FRINK_ERR_UNSUPPORTED, "tools[%zu].function.parameters/type: the arguments are an object", i);
        if (p && !ptype) { // an object's keywords without the type, as clients often send them
            json_t *c = json_copy((json_t *)p);
            if (!c || json_object_set_new(c, "type", json_string("object")) || json_array_append_new(g->copies, c))
                return frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
            p = c;
        }
        g->tools[g->n_tools++] = (struct tg_tool){n, p ? p : g->empty, (int)i};
    }
    if (!g->n_tools) return frink_fail(FRINK_ERR_ARG, "tool \"%s\": not among the tools", name ? name : "");
    return FRINK_OK;
}

frink_status toolgrammar_build(const char *format, const json_t *tools, const char *name, bool parallel, char **gbnf,
                               char **trigger) {
    if (!gbnf || !trigger) return frink_fail(FRINK_ERR_ARG, "toolgrammar_build: no place for the result");
    *gbnf = *trigger = NULL;
    const struct tg_fmt *f = NULL;
    for (size_t i = 0; format && i < sizeof tg_formats / sizeof tg_formats[0]; i++)
        if (!strcmp(tg_formats[i].name, format)) f = &tg_formats[i];
    if (!f) {
        const char *why = "unknown";
        for (size_t i = 0; format && i < sizeof tg_refused / sizeof tg_refused[0]; i++)
            if (!strcmp(tg_refused[i].name, format)) why = tg_refused[i].why;
        return frink_fail(FRINK_ERR_UNSUPPORTED, "chat format \"%s\": frink cannot force its tool calls (%s); it can for hermes, "
                          "qwen3-coder, glm, llama3, mistral, deepseek, kimi-k2, command-r7b, granite, apriel, "
                          "functionary-v3.1, minimax-m2, seed-oss, deepseek-v3.2 and deepseek-v4",
                          format ? format : "(none)", why);
    }
    struct tg g = {.parallel = parallel,
                   .js_flags = f->js_flags,
                   .pylit = f->write == fmt_qwen_xml || f->write == fmt_seed_oss,
                   .dsml = f->write == fmt_deepseek_v32 || f->write == fmt_deepseek_v4};
    g.empty = json_pack("{s:s, s:{}, s:b}", "type", "object", "properties", "additionalProperties", 0);
    g.copies = json_array();
    frink_status st = g.empty && g.copies ? tg_read_tools(&g, tools, name)
                                          : frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
    if (!st) {
        f->write(&g);
        tg_put(&g, "%s", jsonschema_base_rules(f->js_flags));
        st = g.st;
    }
    if (!st && !(*trigger = strdup(f->trigger))) st = frink_fail(FRINK_ERR_NOMEM, "tool-call grammar: out of memory");
    if (st) free(g.p);
    else *gbnf = g.p;
    free(g.tools);
    json_decref(g.empty);
    json_decref(g.copies);
    return st;
}
