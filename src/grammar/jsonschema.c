// jsonschema.c — JSON Schema to GBNF.
//
// Every schema becomes one GBNF expression (a malloc'ed string), built bottom up; the fixed
// pieces of JSON (ws, string characters, numbers, any value) are named rules emitted once, and
// each local $ref becomes a named rule so that recursive schemas stay finite. Tokens are
// followed by `ws`, never preceded by it, so every expression starts at a token.
#include "grammar/jsonschema.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JS_MAX_REFS 256

struct js_ref {
    char *ref;  // "#/$defs/Name"
    char *name; // "ref-Name"
    char *body; // NULL while being generated
    int guard;  // js_ctx.guard when generation began
};

struct js_ctx {
    const json_t *root;
    frink_status st; // first failure; later work is skipped
    struct js_ref refs[JS_MAX_REFS];
    int n_refs;
    int guard; // containers entered: a token precedes everything generated inside one
    const char *prefix; // names the $ref rules apart from another schema's in the same grammar
    int no_lt;          // JSONSCHEMA_NO_LT: '<' never appears raw in the JSON text
};

// A \u escape's hex digits: a lone surrogate (D800-DFFF unpaired) is no character, and JSON
// readers refuse it, so a high one must be followed by a low one.
#define JS_UESC \
    "([0-9a-cA-CefEF] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2} | [dD] [89abAB] [0-9a-fA-F]{2} \"\\\\u\" [dD] [c-fC-F] [0-9a-fA-F]{2})"

// The fixed rules. `char` is one JSON string character, escapes included.
// (JS_BASE_TAIL: the rules after `char`, shared with the no_lt set below.)
#define JS_BASE_TAIL \
    "string ::= \"\\\"\" char* \"\\\"\"\n"\
    "integer ::= \"-\"? (\"0\" | [1-9] [0-9]*)\n"\
    "number ::= integer (\".\" [0-9]+)? ([eE] [-+]? [0-9]+)?\n"\
    "boolean ::= \"true\" | \"false\"\n"\
    "null ::= \"null\"\n"\
    "value ::= object | array | string | number | boolean | null\n"\
    "object ::= \"{\" ws (string ws \":\" ws value ws (\",\" ws string ws \":\" ws value ws)*)? \"}\"\n"\
    "array ::= \"[\" ws (value ws (\",\" ws value ws)*)? \"]\"\n"
static const char js_base_rules[] =
    "ws ::= | \" \" | \"\\n\" [ \\t]{0,20}\n"
    "char ::= [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" " JS_UESC ")\n"
    JS_BASE_TAIL;

static char *js_fmt(struct js_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *js_fmt(struct js_ctx *c, const char *fmt, ...) {
    if (c->st != FRINK_OK) return NULL;
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) {
        s = NULL;
        c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
    }
    va_end(ap);
    return s;
}

static char *js_refuse(struct js_ctx *c, const char *ptr, const char *kw, const char *why) {
    if (c->st == FRINK_OK)
        c->st = frink_fail(FRINK_ERR_UNSUPPORTED, "JSON Schema: keyword '%s' at %s/%s cannot be enforced by a grammar%s%s",
                           kw, ptr, kw, why ? ": " : "", why ? why : "");
    return NULL;
}

// ptr + "/" + key with JSON pointer escapes (~0, ~1).
static char *js_ptr(struct js_ctx *c, const char *ptr, const char *key) {
    size_t n = strlen(ptr), k = strlen(key);
    char *p = malloc(n + 2 + 2 * k);
    if (!p) {
        if (c->st == FRINK_OK) c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
        return NULL;
    }
    memcpy(p, ptr, n);
    char *o = p + n;
    *o++ = '/';
    for (size_t i = 0; i < k; i++) {
        if (key[i] == '~') *o++ = '~', *o++ = '0';
        else if (key[i] == '/') *o++ = '~', *o++ = '1';
        else *o++ = key[i];
    }
    *o = 0;
    return p;
}

static char *js_ptr_idx(struct js_ctx *c, const char *ptr, const char *key, size_t i) {
    return js_fmt(c, "%s/%s/%zu", ptr, key, i);
}

// A GBNF string literal for the bytes s[0..n): the JSON text itself is what must appear.
static char *js_lit(struct js_ctx *c, const char *s, size_t n) {
    char *o = malloc(4 * n + 3);
    if (!o) {
        if (c->st == FRINK_OK) c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
        return NULL;
    }
    size_t k = 0;
    o[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') o[k++] = '\\', o[k++] = (char)ch;
        else if (ch < 0x20 || ch == 0x7F) k += (size_t)sprintf(o + k, "\\x%02X", ch);
        else o[k++] = (char)ch;
    }
    o[k++] = '"';
    o[k] = 0;
    return o;
}

// A GBNF literal for the JSON text t (freed here); under no_lt each '<' (only ever inside a
// string there) is spelled \u003c.
static char *js_lit_json(struct js_ctx *c, char *t) {
    if (!t) {
        if (c->st == FRINK_OK) c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
        return NULL;
    }
    size_t n = strlen(t), lt = 0;
    for (size_t i = 0; c->no_lt && i < n; i++) lt += t[i] == '<';
    if (lt) {
        char *u = malloc(n + 5 * lt + 1), *q = u;
        if (!u) {
            free(t);
            if (c->st == FRINK_OK) c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            if (t[i] == '<') memcpy(q, "\\u003c", 6), q += 6;
            else *q++ = t[i];
        *q = 0;
        free(t);
        t = u;
    }
    char *r = js_lit(c, t, strlen(t));
    free(t);
    return r;
}

// The JSON text of a string value (quotes and escapes included) as a GBNF literal.
static char *js_lit_jstring(struct js_ctx *c, const char *s) {
    json_t *v = json_string(s);
    char *t = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    json_decref(v);
    return js_lit_json(c, t);
}

// ---- const and enum: one value, whitespace allowed between its tokens ----------------

static char *js_const(struct js_ctx *c, const json_t *v) {
    if (c->st != FRINK_OK) return NULL;
    if (json_is_object(v)) {
        char *acc = js_fmt(c, "\"{\" ws");
        const char *k;
        json_t *x;
        int first = 1;
        json_object_foreach((json_t *)v, k, x) {
            char *kl = js_lit_jstring(c, k), *xv = js_const(c, x);
            char *n = js_fmt(c, "%s%s %s ws \":\" ws %s ws", acc, first ? "" : " \",\" ws", kl, xv);
            free(kl), free(xv), free(acc);
            acc = n;
            first = 0;
        }
        char *n = js_fmt(c, "%s \"}\"", acc);
        free(acc);
        return n;
    }
    if (json_is_array(v)) {
        char *acc = js_fmt(c, "\"[\" ws");
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            char *xv = js_const(c, x);
            char *n = js_fmt(c, "%s%s %s ws", acc, i ? " \",\" ws" : "", xv);
            free(xv), free(acc);
            acc = n;
        }
        char *n = js_fmt(c, "%s \"]\"", acc);
        free(acc);
        return n;
    }
    return js_lit_json(c, json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT));
}

// ---- keyword bookkeeping ------------------------------------------------------------

static const char *const js_annotations[] = {"description", "title", "$schema", "$id", "$comment",
                                             "examples", "default", "$defs", "definitions",
                                             "readOnly", "writeOnly", "deprecated", NULL};
static const char *const js_known[] = {"type", "properties", "required", "additionalProperties", "enum",
                                       "const", "items", "prefixItems", "minItems", "maxItems",
                                       "minLength", "maxLength", "pattern", "format", "minimum",
                                       "maximum", "exclusiveMinimum", "exclusiveMaximum", "anyOf",
                                       "oneOf", "allOf", "$ref", "multipleOf", NULL};

static int js_in(const char *k, const char *const *set) {
    for (int i = 0; set[i]; i++)
        if (!strcmp(k, set[i])) return 1;
    return 0;
}

// A keyword of s other than annotations and those in `allow`, or NULL.
static const char *js_other_keyword(const json_t *s, const char *const *allow) {
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)s, k, x) {
        (void)x;
        if (!js_in(k, js_annotations) && !js_in(k, allow)) return k;
    }
    return NULL;
}

enum { JS_T_OBJECT = 1, JS_T_ARRAY = 2, JS_T_STRING = 4, JS_T_NUMBER = 8, JS_T_INTEGER = 16, JS_T_BOOLEAN = 32, JS_T_NULL = 64 };
static const char *const js_type_names[] = {"object", "array", "string", "number", "integer", "boolean", "null"};

static int js_type_bit(const char *name) {
    for (int i = 0; i < 7; i++)
        if (!strcmp(name, js_type_names[i])) return 1 << i;
    return 0;
}

static int js_value_types(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return JS_T_OBJECT;
    case JSON_ARRAY: return JS_T_ARRAY;
    case JSON_STRING: return JS_T_STRING;
    case JSON_INTEGER: return JS_T_NUMBER | JS_T_INTEGER;
    case JSON_REAL: return JS_T_NUMBER;
    case JSON_TRUE:
    case JSON_FALSE: return JS_T_BOOLEAN;
    default: return JS_T_NULL;
    }
}

static char *js_gen(struct js_ctx *c, const json_t *s, const char *ptr);

// Joins parts with " | " into one parenthesized expression, freeing them.
static char *js_alt(struct js_ctx *c, char **parts, int n) {
    char *acc = NULL;
    for (int i = 0; i < n; i++) {
        char *x = acc ? js_fmt(c, "%s | %s", acc, parts[i] ? parts[i] : "") : js_fmt(c, "%s", parts[i] ? parts[i] : "");
        free(acc);
        acc = x;
    }
    for (int i = 0; i < n; i++) free(parts[i]);
    char *r = js_fmt(c, "(%s)", acc ? acc : "");
    free(acc);
    return r;
}

// ---- strings ----------------------------------------------------------------------

// A calendar date (RFC 3339 full-date, as Python's date.fromisoformat reads it): years 0001-9999,
// each month's own length, February 29 only in leap years (divisible by 4, centuries by 400).
#define JS_M4 "([02468] [48] | [2468] \"0\" | [13579] [26])" // 04..96 by fours, not 00
static const char js_date[] =
    "(([1-9] [0-9]{3} | \"0\" [1-9] [0-9]{2} | \"00\" [1-9] [0-9] | \"000\" [1-9]) \"-\" "
    "((\"01\" | \"03\" | \"05\" | \"07\" | \"08\" | \"10\" | \"12\") \"-\" (\"0\" [1-9] | [12] [0-9] | \"3\" [01]) | "
    "(\"04\" | \"06\" | \"09\" | \"11\") \"-\" (\"0\" [1-9] | [12] [0-9] | \"30\") | "
    "\"02-\" (\"0\" [1-9] | \"1\" [0-9] | \"2\" [0-8])) | "
    "([0-9]{2} " JS_M4 " | " JS_M4 " \"00\") \"-02-29\")";
static const char js_time[] = "([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9] \":\" [0-5] [0-9] (\".\" [0-9]+)? "
                              "(\"Z\" | [+-] ([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9])";
static const char js_uuid[] = "[0-9a-fA-F]{8} \"-\" [0-9a-fA-F]{4} \"-\" [0-9a-fA-F]{4} \"-\" [0-9a-fA-F]{4} \"-\" [0-9a-fA-F]{12}";

struct js_re {
    struct js_ctx *c;
    const char *s, *ptr;
    size_t i, n;
};

static char *js_re_alt(struct js_re *r);

static char *js_re_fail(struct js_re *r, const char *why) { return js_refuse(r->c, r->ptr, "pattern", why); }

// One character of the decoded string as it appears inside the JSON text.
static char *js_re_char(struct js_re *r, unsigned char ch) {
    if (ch == '"' || ch == '\\') return js_fmt(r->c, "\"\\\\\\%c\"", ch);
    if (ch < 0x20) return js_re_fail(r, "control character");
    if (ch == '<' && r->c->no_lt) return js_fmt(r->c, "\"\\\\u003c\"");
    return js_lit(r->c, (const char *)&ch, 1);
}

// A class body character written for a GBNF class.
static void js_re_class_char(char *o, size_t *k, unsigned char ch) {
    if (ch == ']' || ch == '\\' || ch == '^' || ch == '-' || ch == '[') o[(*k)++] = '\\';
    o[(*k)++] = (char)ch;
}

static char *js_re_class(struct js_re *r) {
    // r->s[r->i] is just after '['
    int neg = 0;
    if (r->i < r->n && r->s[r->i] == '^') neg = 1, r->i++;
    char buf[1024];
    size_t k = 0;
    int quote = 0, backslash = 0, lt = 0, first = 1;
    const int no_lt = r->c->no_lt;
    while (r->i < r->n && (r->s[r->i] != ']' || first)) {
        first = 0;
        if (k > sizeof buf - 16) return js_re_fail(r, "class too long");
        unsigned char a = (unsigned char)r->s[r->i++];
        if (a == '\\') {
            if (r->i >= r->n) return js_re_fail(r, "trailing backslash");
            unsigned char e = (unsigned char)r->s[r->i++];
            if (e == 'd') { memcpy(buf + k, "0-9", 3), k += 3; continue; }
            if (e == 'w') { memcpy(buf + k, "a-zA-Z0-9_", 10), k += 10; continue; }
            if (strchr("DWsSbB", e) || (e >= '0' && e <= '9')) return js_re_fail(r, "class escape");
            a = e == 'n' || e == 't' || e == 'r' ? 0 : e;
            if (!a) return js_re_fail(r, "control character in class");
        }
        if (a < 0x20) return js_re_fail(r, "control character in class");
        unsigned char b = a;
        if (r->i + 1 < r->n && r->s[r->i] == '-' && r->s[r->i + 1] != ']') {
            r->i++;
            b = (unsigned char)r->s[r->i++];
            if (b == '\\') {
                if (r->i >= r->n) return js_re_fail(r, "trailing backslash");
                b = (unsigned char)r->s[r->i++];
            }
            if (b < a) return js_re_fail(r, "reversed range");
        }
        if (a <= '"' && b >= '"') quote = 1;
        if (a <= '\\' && b >= '\\') backslash = 1;
        if (no_lt && a <= '<' && b >= '<') lt = 1;
        // '"' and '\\' never appear raw inside the JSON text (nor '<' under no_lt): cut them
        // out of the range.
        for (unsigned x = a; x <= b;) {
            if (x == '"' || x == '\\' || (no_lt && x == '<')) {
                x++;
                continue;
            }
            unsigned y = x;
            while (y < b && y + 1 != '"' && y + 1 != '\\' && !(no_lt && y + 1 == '<')) y++;
            js_re_class_char(buf, &k, (unsigned char)x);
            if (y != x) buf[k++] = '-', js_re_class_char(buf, &k, (unsigned char)y);
            x = y + 1;
        }
    }
    if (r->i >= r->n) return js_re_fail(r, "unterminated class");
    r->i++;
    buf[k] = 0;
    if (neg) return js_fmt(r->c, "[^%s\"\\\\\\x7F\\x00-\\x1F%s]", buf, no_lt ? "<" : "");
    // '"' and '\' inside the class appear escaped in the JSON text (and '<' under no_lt).
    if (!k && !quote && !backslash && !lt) return js_re_fail(r, "empty class");
    char *o = js_fmt(r->c, "(%s%s%s%s%s%s)", k ? "[" : "", k ? buf : "", k ? "]" : "",
                     quote ? (k ? " | \"\\\\\\\"\"" : "\"\\\\\\\"\"") : "",
                     backslash ? (k || quote ? " | \"\\\\\\\\\"" : "\"\\\\\\\\\"") : "",
                     lt ? (k || quote || backslash ? " | \"\\\\u003c\"" : "\"\\\\u003c\"") : "");
    return o;
}

static char *js_re_atom(struct js_re *r) {
    unsigned char ch = (unsigned char)r->s[r->i++];
    switch (ch) {
    case '.': return js_fmt(r->c, "[^\"\\\\\\x7F\\x00-\\x1F%s]", r->c->no_lt ? "<" : "");
    case '[': return js_re_class(r);
    case '(': {
        if (r->i < r->n && r->s[r->i] == '?') {
            if (r->i + 1 < r->n && r->s[r->i + 1] == ':') r->i += 2;
            else if (r->i + 1 < r->n && (r->s[r->i + 1] == '=' || r->s[r->i + 1] == '!')) return js_re_fail(r, "lookahead");
            else if (r->i + 1 < r->n && r->s[r->i + 1] == '<' && r->i + 2 < r->n && (r->s[r->i + 2] == '=' || r->s[r->i + 2] == '!'))
                return js_re_fail(r, "lookbehind");
            else return js_re_fail(r, "group modifier");
        }
        char *x = js_re_alt(r);
        if (!x) return NULL;
        if (r->i >= r->n || r->s[r->i] != ')') {
            free(x);
            return js_re_fail(r, "unbalanced parenthesis");
        }
        r->i++;
        return x;
    }
    case '\\': {
        if (r->i >= r->n) return js_re_fail(r, "trailing backslash");
        unsigned char e = (unsigned char)r->s[r->i++];
        if (e >= '1' && e <= '9') return js_re_fail(r, "backreference");
        if (e == 'k') return js_re_fail(r, "backreference");
        if (e == 'd') return js_fmt(r->c, "[0-9]");
        if (e == 'w') return js_fmt(r->c, "[a-zA-Z0-9_]");
        if (e == 's') return js_fmt(r->c, "(\" \" | \"\\\\\" [tnrf])");
        if (e == 'n') return js_fmt(r->c, "\"\\\\n\"");
        if (e == 't') return js_fmt(r->c, "\"\\\\t\"");
        if (strchr("DWSbBAzZpPuxc0", e)) return js_re_fail(r, "escape not supported");
        return js_re_char(r, e);
    }
    case '^':
    case '$': return js_re_fail(r, "anchor inside the pattern");
    case '*':
    case '+':
    case '?':
    case '{': return js_re_fail(r, "quantifier without operand");
    default: return js_re_char(r, ch);
    }
}

static char *js_re_seq(struct js_re *r) {
    char *acc = js_fmt(r->c, "%s", "");
    while (acc && r->i < r->n && r->s[r->i] != '|' && r->s[r->i] != ')') {
        if (r->s[r->i] == '$' && r->i + 1 == r->n) break;
        char *a = js_re_atom(r);
        if (!a) {
            free(acc);
            return NULL;
        }
        char q[64] = "";
        if (r->i < r->n && strchr("*+?", r->s[r->i])) q[0] = r->s[r->i++], q[1] = 0;
        else if (r->i < r->n && r->s[r->i] == '{') {
            unsigned m = 0, M = 0;
            int used = 0;
            if (sscanf(r->s + r->i, "{%u,%u}%n", &m, &M, &used) == 2 && used) {
                if (M < m) {
                    free(a), free(acc);
                    return js_re_fail(r, "quantifier maximum below minimum");
                }
                snprintf(q, sizeof q, "{%u,%u}", m, M);
            }
            else if ((used = 0, sscanf(r->s + r->i, "{%u,}%n", &m, &used) == 1 && used)) snprintf(q, sizeof q, "{%u,}", m);
            else if ((used = 0, sscanf(r->s + r->i, "{%u}%n", &m, &used) == 1 && used)) snprintf(q, sizeof q, "{%u}", m);
            else {
                free(a), free(acc);
                return js_re_fail(r, "malformed quantifier");
            }
            r->i += (size_t)used;
        }
        if (r->i < r->n && (r->s[r->i] == '?' || r->s[r->i] == '+') && q[0]) {
            free(a), free(acc);
            return js_re_fail(r, "lazy or possessive quantifier");
        }
        char *n = js_fmt(r->c, "%s%s(%s)%s", acc, *acc ? " " : "", a, q);
        free(a), free(acc);
        acc = n;
    }
    return acc;
}

static char *js_re_alt(struct js_re *r) {
    char *acc = js_re_seq(r);
    while (acc && r->i < r->n && r->s[r->i] == '|') {
        r->i++;
        char *b = js_re_seq(r);
        char *n = b ? js_fmt(r->c, "%s | %s", acc, b) : NULL;
        free(acc), free(b);
        acc = n;
    }
    if (!acc) return NULL;
    char *n = js_fmt(r->c, "(%s)", acc);
    free(acc);
    return n;
}

static char *js_pattern(struct js_ctx *c, const char *pat, const char *ptr) {
    struct js_re r = {c, pat, ptr, 0, strlen(pat)};
    // GBNF matches code points; a byte-wise translation of UTF-8 would split characters.
    for (const unsigned char *q = (const unsigned char *)pat; *q; q++)
        if (*q >= 0x80) return js_re_fail(&r, "non-ASCII character");
    int start = r.n && pat[0] == '^', end = r.n > (size_t)start && pat[r.n - 1] == '$' && (r.n < 2 || pat[r.n - 2] != '\\');
    r.i = (size_t)start;
    char *x = js_re_alt(&r);
    if (!x) return NULL;
    if (r.i < r.n && !(end && r.i == r.n - 1)) {
        free(x);
        return js_re_fail(&r, "unbalanced parenthesis");
    }
    // JSON Schema patterns are unanchored: an unanchored side admits any characters.
    char *o = js_fmt(c, "\"\\\"\" %s%s%s \"\\\"\"", start ? "" : "char* ", x, end ? "" : " char*");
    free(x);
    return o;
}

static char *js_string(struct js_ctx *c, const json_t *s, const char *ptr) {
    const json_t *mn = json_object_get(s, "minLength"), *mx = json_object_get(s, "maxLength");
    const json_t *pat = json_object_get(s, "pattern"), *fmt = json_object_get(s, "format");
    if ((pat || fmt) && (mn || mx)) return js_refuse(c, ptr, mn ? "minLength" : "maxLength", "together with pattern or format");
    if (pat && fmt) return js_refuse(c, ptr, "format", "together with pattern");
    if (pat) {
        if (!json_is_string(pat)) return js_refuse(c, ptr, "pattern", "not a string");
        return js_pattern(c, json_string_value(pat), ptr);
    }
    if (fmt) {
        const char *f = json_is_string(fmt) ? json_string_value(fmt) : "";
        char *body = NULL;
        if (!strcmp(f, "date")) body = js_fmt(c, "%s", js_date);
        else if (!strcmp(f, "time")) body = js_fmt(c, "%s", js_time);
        else if (!strcmp(f, "date-time")) body = js_fmt(c, "%s \"T\" %s", js_date, js_time);
        else if (!strcmp(f, "uuid")) body = js_fmt(c, "%s", js_uuid);
        else return js_refuse(c, ptr, "format", f);
        char *o = js_fmt(c, "\"\\\"\" %s \"\\\"\"", body);
        free(body);
        return o;
    }
    if ((mn && !json_is_integer(mn)) || (mx && !json_is_integer(mx)) || (mn && json_integer_value(mn) < 0) ||
        (mx && json_integer_value(mx) < 0))
        return js_refuse(c, ptr, mn ? "minLength" : "maxLength", "not a non-negative integer");
    if (!mn && !mx) return js_fmt(c, "string");
    long long a = mn ? json_integer_value(mn) : 0;
    if (mx) return js_fmt(c, "\"\\\"\" char{%lld,%lld} \"\\\"\"", a, (long long)json_integer_value(mx));
    return js_fmt(c, "\"\\\"\" char{%lld,} \"\\\"\"", a);
}

// ---- numbers ----------------------------------------------------------------------
//
// A bounded integer or number is spelled out digit by digit, as the classic range-to-regex
// construction does: a digit string between two bounds takes the bounds' common first digits
// literally, then splits into "the lower bound's digit, then above the rest of it", "a digit
// strictly between, then anything" and "the upper bound's digit, then below the rest of it".
// Each level adds a constant number of alternatives, so a bound of k digits costs O(k) grammar
// text, and the alternatives at each level mostly start with distinct digits (a matcher keeps a
// few stacks, not one per digit).
// Lengths apart from the bounds' own are free: with no upper bound every longer integer is in.

#define JS_MAX_BOUND_DIGITS 64 // a number bound's digits spelled out (nesting stays far below 256)

static int js_all(const char *s, char ch) {
    for (; *s; s++)
        if (*s != ch) return 0;
    return 1;
}

// A literal of digits, '-' and '.' of n bytes (quotes included) at s, followed by the end or a
// space (no quantifier applies to it); 0 when s does not start with one.
static size_t js_num_lit(const char *s) {
    if (*s != '"') return 0;
    size_t n = 1 + strspn(s + 1, "0123456789-.");
    return s[n] == '"' && (s[n + 1] == 0 || s[n + 1] == ' ') ? n + 1 : 0;
}

// head then tail (freed), or NULL when tail is NULL: an empty language stays empty. Literals
// meeting at the join become one ("1" "0" "0" is "100").
static char *js_seq(struct js_ctx *c, const char *head, char *tail) {
    if (!tail) return NULL;
    size_t h = js_num_lit(head);
    char *o;
    if (h && h == strlen(head) && js_num_lit(tail)) o = js_fmt(c, "%.*s%s", (int)(h - 1), head, tail + 1);
    else o = *tail ? js_fmt(c, "%s %s", head, tail) : js_fmt(c, "%s", head);
    free(tail);
    return o;
}

// Alternatives: NULL parts are empty languages (skipped), "" the empty string. NULL when all
// are empty languages (or on an error, in c->st). Frees the parts.
static char *js_num_alt(struct js_ctx *c, char **parts, int n) {
    char *acc = NULL;
    int eps = 0, k = 0;
    for (int i = 0; i < n; i++) {
        if (!parts[i]) continue;
        if (!*parts[i]) eps = 1;
        else {
            char *x = acc ? js_fmt(c, "%s | %s", acc, parts[i]) : js_fmt(c, "%s", parts[i]);
            free(acc);
            acc = x, k++;
        }
        free(parts[i]);
    }
    if (c->st != FRINK_OK || !k) {
        free(acc);
        return c->st == FRINK_OK && eps ? js_fmt(c, "%s", "") : NULL;
    }
    char *o = eps ? js_fmt(c, "(%s)?", acc) : k > 1 ? js_fmt(c, "(%s)", acc) : js_fmt(c, "%s", acc);
    free(acc);
    return o;
}

// Between min and max (-1: unbounded) digits of any value.
static char *js_any_digits(struct js_ctx *c, int min, int max) {
    if (max == min) return min == 0 ? js_fmt(c, "%s", "") : min == 1 ? js_fmt(c, "[0-9]") : js_fmt(c, "[0-9]{%d}", min);
    if (max < 0) return min == 0 ? js_fmt(c, "[0-9]*") : min == 1 ? js_fmt(c, "[0-9]+") : js_fmt(c, "[0-9]{%d,}", min);
    return js_fmt(c, "[0-9]{%d,%d}", min, max);
}

static char *js_digit_class(struct js_ctx *c, int a, int b) {
    return a == b ? js_fmt(c, "\"%d\"", a) : js_fmt(c, "[%d-%d]", a, b);
}

// The digit strings D between the bounds lo and hi (NULL: none; ls/hs: strict, D may not equal
// it). rem >= 0: D has exactly rem digits, as lo and hi have, compared as integers. rem < 0: D is
// a fraction's digits of any length (at least one unless `end`), compared as 0.D against 0.lo
// and 0.hi, which have no trailing zeros ("" is zero). NULL: no such D; "": only the empty one.
static char *js_digits(struct js_ctx *c, const char *lo, int ls, const char *hi, int hs, int rem, int end) {
    if (c->st != FRINK_OK) return NULL;
    if (rem == 0) return (lo && ls) || (hi && hs) ? NULL : js_fmt(c, "%s", "");
    if (rem < 0) {
        if (lo && !*lo && !ls) lo = NULL; // 0.D >= 0 always holds
        if (hi && !*hi) {                 // 0.D <= 0: zeros only, which a lower bound left excludes
            if (hs || lo) return NULL;
            return js_fmt(c, "%s", end ? "\"0\"*" : "\"0\"+");
        }
        if (!lo && !hi) return js_fmt(c, "%s", end ? "[0-9]*" : "[0-9]+");
        if (lo && !*lo && !hi) return js_fmt(c, "\"0\"* [1-9] [0-9]*"); // above zero: a digit not 0
    } else if (!lo && !hi) return js_any_digits(c, rem, rem);
    // lo == "" here only for a fraction strictly above zero: its digits read as zeros.
    int lx = lo ? (*lo ? *lo - '0' : 0) : -1, uy = hi ? *hi - '0' : 10;
    const char *ln = lo ? (*lo ? lo + 1 : lo) : NULL, *hn = hi ? hi + 1 : NULL;
    int sub = rem < 0 ? -1 : rem - 1;
    char d[8];
    if (lo && hi && lx == uy) {
        snprintf(d, sizeof d, "\"%d\"", lx);
        return js_seq(c, d, js_digits(c, ln, ls, hn, hs, sub, 1));
    }
    if (lx > uy) return NULL;
    // A bound whose remaining digits are their extreme (inclusive) excludes nothing after its
    // first digit, which then joins the free class.
    int lo_whole = lo && !ls && (rem < 0 ? !*ln : js_all(ln, '0'));
    int hi_whole = hi && !hs && rem >= 0 && js_all(hn, '9');
    int a = lo_whole ? lx : lx + 1, b = hi_whole ? uy : uy - 1;
    char *parts[4] = {NULL, NULL, NULL, NULL};
    if (lo && !lo_whole) {
        snprintf(d, sizeof d, "\"%d\"", lx);
        parts[0] = js_seq(c, d, js_digits(c, ln, ls, NULL, 0, sub, 1));
    }
    if (a <= b) {
        char *cls = js_digit_class(c, a, b);
        parts[1] = cls ? js_seq(c, cls, rem < 0 ? js_fmt(c, "[0-9]*") : js_any_digits(c, sub, sub)) : NULL;
        free(cls);
    }
    if (hi && !hi_whole) {
        snprintf(d, sizeof d, "\"%d\"", uy);
        parts[2] = js_seq(c, d, js_digits(c, NULL, 0, hn, hs, sub, 1));
    }
    if (rem < 0 && end && !lo) parts[3] = js_fmt(c, "%s", ""); // hi is above zero
    return js_num_alt(c, parts, 4);
}

// Decimal naturals (no leading zeros) N with a <= N <= b (strict: < ), a and b digit strings
// without leading zeros; b NULL: no upper bound. NULL: none.
static char *js_nat_range(struct js_ctx *c, const char *a, int as, const char *b, int bs) {
    int ka = (int)strlen(a), kb = b ? (int)strlen(b) : -1;
    if (b && kb < ka) return NULL; // b < a
    if (b && kb == ka) return js_digits(c, a, as, b, bs, ka, 0);
    char *parts[3] = {NULL, NULL, NULL};
    if (b) { // kb > ka: a's length from a up, the lengths between, b's length up to b
        parts[0] = js_digits(c, a, as, NULL, 0, ka, 0);
        if (ka + 1 <= kb - 1) parts[1] = js_seq(c, "[1-9]", js_any_digits(c, ka, kb - 2));
        char *low = js_fmt(c, "1%0*d", kb - 1, 0);
        parts[2] = low ? js_digits(c, low, 0, b, bs, kb, 0) : NULL;
        free(low);
        return js_num_alt(c, parts, 3);
    }
    int a0 = a[0] - '0';
    if (a0 == 0) { // a is "0": the one integer starting with 0, then all from 1
        parts[0] = as ? NULL : js_fmt(c, "\"0\"");
        parts[1] = js_fmt(c, "[1-9] [0-9]*");
        return js_num_alt(c, parts, 2);
    }
    // First digit below a's: longer than a. a's: longer, or as long and above the rest of a.
    // Above a's: as long as a or longer.
    char d[8];
    snprintf(d, sizeof d, "\"%d\"", a0);
    int whole = !as && js_all(a + 1, '0');
    char *same = whole ? NULL : js_digits(c, a + 1, as, NULL, 0, ka - 1, 0);
    int top = whole || same ? a0 - 1 : a0; // the highest first digit that needs more digits than a
    if (top >= 1) {
        char *cls = js_digit_class(c, 1, top);
        parts[0] = cls ? js_seq(c, cls, js_any_digits(c, ka, -1)) : NULL;
        free(cls);
    }
    if (same) {
        char *alts[2] = {same, js_any_digits(c, ka, -1)};
        parts[1] = js_seq(c, d, js_num_alt(c, alts, 2));
    }
    int from = whole ? a0 : a0 + 1;
    if (from <= 9) {
        char *cls = js_digit_class(c, from, 9);
        parts[2] = cls ? js_seq(c, cls, js_any_digits(c, ka - 1, -1)) : NULL;
        free(cls);
    }
    return js_num_alt(c, parts, 3);
}

// A bound keyword's value and whether it excludes itself.
struct js_bound {
    const json_t *v;
    int strict;
    const char *kw;
};

// The bounds of one side (minimum and exclusiveMinimum, or the maximums): up to two into b.
static int js_side(struct js_ctx *c, const json_t *s, const char *ptr, int upper, struct js_bound *b, int *n) {
    const char *kw = upper ? "maximum" : "minimum", *xkw = upper ? "exclusiveMaximum" : "exclusiveMinimum";
    const json_t *v = json_object_get(s, kw), *x = json_object_get(s, xkw);
    *n = 0;
    if (v && !json_is_number(v)) return js_refuse(c, ptr, kw, "not a number"), -1;
    if (x && !json_is_number(x) && !json_is_boolean(x)) return js_refuse(c, ptr, xkw, "not a number"), -1;
    // Draft 4 wrote an exclusive bound as a boolean beside the plain one.
    int x_bool = x && json_is_boolean(x);
    if (v) b[(*n)++] = (struct js_bound){v, x_bool && json_is_true(x), kw};
    if (x && !x_bool) b[(*n)++] = (struct js_bound){x, 1, xkw};
    return 0;
}

// An integer bound as the int64 limit it amounts to: a fractional bound rounds inward, an
// exclusive one steps inward, except past the int64 range, where it stays exclusive (*strict):
// the integers beyond are still instances.
static int js_int_limit(struct js_ctx *c, const char *ptr, const struct js_bound *b, int upper, long long *v, int *strict) {
    long long x;
    int exact;
    if (json_is_integer(b->v)) x = json_integer_value(b->v), exact = 1;
    else {
        double d = json_real_value(b->v);
        if (!(d >= -0x1p63 && d < 0x1p63)) return js_refuse(c, ptr, b->kw, "beyond the 64-bit integer range"), -1;
        x = (long long)d; // toward zero; exact for |d| >= 2^53, where every double is an integer
        if (upper && (double)x > d) x--;
        if (!upper && (double)x < d) x++;
        exact = (double)x == d;
    }
    *strict = 0;
    if (b->strict && exact) {
        if (x == (upper ? LLONG_MIN : LLONG_MAX)) *strict = 1;
        else x += upper ? -1 : 1;
    }
    *v = x;
    return 0;
}

// The multiples of k (>= 2) in [lo, hi], at most JS_MAX_MULTIPLES of them, as alternatives.
#define JS_MAX_MULTIPLES 1000
static char *js_multiples(struct js_ctx *c, const char *ptr, long long lo, long long hi, long long k) {
    // The multiples are q*k for q from ceil(lo/k) to floor(hi/k); C division truncates.
    long long qa = lo / k + (lo % k > 0), qb = hi / k - (hi % k < 0);
    if (qb < qa) return js_refuse(c, ptr, "multipleOf", "no multiple within the bounds");
    if (qb - qa >= JS_MAX_MULTIPLES) return js_refuse(c, ptr, "multipleOf", "more than 1000 multiples within the bounds");
    char *acc = NULL;
    for (long long q = qa; q <= qb && c->st == FRINK_OK; q++) {
        char *n = acc ? js_fmt(c, "%s | \"%lld\"", acc, q * k) : js_fmt(c, "\"%lld\"", q * k);
        free(acc);
        acc = n;
    }
    char *o = acc && qb > qa ? js_fmt(c, "(%s)", acc) : acc ? js_fmt(c, "%s", acc) : NULL;
    free(acc);
    return o;
}

// -0 is never produced: it equals 0, which is spelled "0".
static char *js_integer(struct js_ctx *c, const json_t *s, const char *ptr) {
    long long lim[2] = {0, 0};
    int has[2] = {0, 0}, strict[2] = {0, 0};
    const char *kw[2] = {NULL, NULL};
    for (int side = 0; side < 2; side++) {
        struct js_bound b[2];
        int n;
        if (js_side(c, s, ptr, side, b, &n)) return NULL;
        for (int i = 0; i < n; i++) {
            long long t;
            int ts;
            if (js_int_limit(c, ptr, &b[i], side, &t, &ts)) return NULL;
            int tighter = !has[side] || (side ? t < lim[side] : t > lim[side]) || (t == lim[side] && ts);
            if (tighter) lim[side] = t, strict[side] = ts, has[side] = 1, kw[side] = b[i].kw;
        }
    }
    long long lo = lim[0], hi = lim[1];
    int ls = strict[0], hs = strict[1];
    if (has[0] && has[1] && (hi < lo || (hi == lo && (ls || hs))))
        return js_refuse(c, ptr, kw[0], "empty range: no integer satisfies the bounds");
    const json_t *mul = json_object_get(s, "multipleOf");
    if (mul) {
        if (!json_is_number(mul) || !(json_number_value(mul) > 0)) return js_refuse(c, ptr, "multipleOf", "not a positive number");
        double k = json_number_value(mul);
        // Every integer is a multiple of 1; other steps are spelled out as the multiples in a
        // small closed range (strict only past int64, so never here with both bounds).
        if (k != 1) {
            if (!(k >= 2 && k < 0x1p62 && k == (double)(long long)k) || !has[0] || !has[1])
                return js_refuse(c, ptr, "multipleOf", "only an integer step with both bounds and at most 1000 multiples between");
            return js_multiples(c, ptr, lo, hi, (long long)k);
        }
    }
    if (!has[0] && !has[1]) return js_fmt(c, "integer");
    char a[24], b[24];
    char *parts[2] = {NULL, NULL};
    if (!has[1] || hi > 0 || (hi == 0 && !hs)) { // 0 and up
        int from_lo = has[0] && (lo > 0 || (lo == 0 && ls));
        snprintf(a, sizeof a, "%lld", from_lo ? lo : 0);
        snprintf(b, sizeof b, "%lld", hi);
        parts[0] = js_nat_range(c, a, from_lo && ls, has[1] ? b : NULL, hs);
    }
    if (!has[0] || lo < 0) { // "-" and a magnitude from |hi| (or 1) up to |lo|
        int from_hi = has[1] && hi < 0;
        snprintf(a, sizeof a, "%llu", from_hi ? 0ull - (unsigned long long)hi : 1ull);
        snprintf(b, sizeof b, "%llu", 0ull - (unsigned long long)lo);
        parts[1] = js_seq(c, "\"-\"", js_nat_range(c, a, from_hi && hs, has[0] ? b : NULL, ls));
    }
    char *o = js_num_alt(c, parts, 2);
    if (!o && c->st == FRINK_OK) return js_refuse(c, ptr, kw[0] ? kw[0] : kw[1], "empty range"); // not reached
    return o;
}

// An exact decimal: sign, integer digits (no leading zeros, "0" for none), fraction digits (no
// trailing zeros). Zero is never negative.
struct js_dec {
    int neg;
    char i[JS_MAX_BOUND_DIGITS + 2], f[JS_MAX_BOUND_DIGITS + 2];
};

// A bound's value as a decimal. A JSON integer is exact; a real is the shortest decimal that
// reads back as the same double, which is the text the schema wrote whenever that has at most
// 15 significant digits.
static int js_dec_of(struct js_ctx *c, const char *ptr, const struct js_bound *b, struct js_dec *d) {
    memset(d, 0, sizeof *d);
    if (json_is_integer(b->v)) {
        long long x = json_integer_value(b->v);
        d->neg = x < 0;
        snprintf(d->i, sizeof d->i, "%llu", x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x);
        return 0;
    }
    double x = json_real_value(b->v);
    if (x == 0) return strcpy(d->i, "0"), 0;
    char buf[64], dig[24];
    for (int p = 0; p <= 16; p++) {
        snprintf(buf, sizeof buf, "%.*e", p, x);
        if (strtod(buf, NULL) == x) break;
    }
    const char *q = buf;
    if (*q == '-') d->neg = 1, q++;
    int nd = 0;
    for (; *q && *q != 'e' && nd < (int)sizeof dig - 1; q++)
        if (*q >= '0' && *q <= '9') dig[nd++] = *q; // the point, whatever the locale spells it, skipped
    int e = *q == 'e' ? atoi(q + 1) : 0;
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    // value = dig[0].dig[1..nd) x 10^e: ilen digits before the point
    int ilen = e + 1, ni = ilen > 0 ? ilen : 1, nf = ilen > 0 ? (nd > ilen ? nd - ilen : 0) : nd - ilen;
    if (ni + nf > JS_MAX_BOUND_DIGITS)
        return js_refuse(c, ptr, b->kw, "more than 64 decimal digits to spell out"), -1;
    if (ilen > 0) {
        for (int k = 0; k < ilen; k++) d->i[k] = k < nd ? dig[k] : '0';
        if (nf) memcpy(d->f, dig + ilen, (size_t)nf);
    } else {
        d->i[0] = '0';
        memset(d->f, '0', (size_t)-ilen);
        memcpy(d->f - ilen, dig, (size_t)nd);
    }
    return 0;
}

static int js_dec_zero(const struct js_dec *d) { return !strcmp(d->i, "0") && !d->f[0]; }

// Magnitudes compared: by integer length, then digits; fractions without trailing zeros compare
// as strings.
static int js_mag_cmp(const char *ai, const char *af, const char *bi, const char *bf) {
    size_t la = strlen(ai), lb = strlen(bi);
    if (la != lb) return la < lb ? -1 : 1;
    int r = strcmp(ai, bi);
    if (!r) r = strcmp(af, bf);
    return (r > 0) - (r < 0);
}

static int js_dec_cmp(const struct js_dec *a, const struct js_dec *b) {
    if (a->neg != b->neg) return a->neg ? -1 : 1;
    int r = js_mag_cmp(a->i, a->f, b->i, b->f);
    return a->neg ? -r : r;
}

// An optional fraction (".", digits) of 0.D between 0.lo and 0.hi (as js_digits).
static char *js_frac(struct js_ctx *c, const char *lo, int ls, const char *hi, int hs) {
    char *parts[2] = {js_seq(c, "\".\"", js_digits(c, lo, ls, hi, hs, -1, 0)), NULL};
    if ((!lo || (!*lo && !ls)) && (!hi || *hi || !hs)) parts[1] = js_fmt(c, "%s", ""); // no fraction: zero
    return js_num_alt(c, parts, 2);
}

// Non-negative plain decimals x with li.lf <= x <= hi.hf (strict: <); hi NULL: no upper bound.
static char *js_dec_range(struct js_ctx *c, const char *li, const char *lf, int ls, const char *hi, const char *hf, int hs) {
    char *parts[3] = {NULL, NULL, NULL};
    char *il = js_fmt(c, "\"%s\"", li);
    if (!il) return NULL;
    if (hi && !strcmp(li, hi)) parts[0] = js_seq(c, il, js_frac(c, lf, ls, hf, hs));
    else {
        parts[0] = js_seq(c, il, js_frac(c, lf, ls, NULL, 0));
        // An integer part strictly between takes any fraction.
        char *mid = js_nat_range(c, li, 1, hi, 1);
        parts[1] = mid ? js_seq(c, mid, js_fmt(c, "(\".\" [0-9]+)?")) : NULL;
        free(mid);
        if (hi) {
            char *ih = js_fmt(c, "\"%s\"", hi);
            parts[2] = ih ? js_seq(c, ih, js_frac(c, NULL, 0, hf, hs)) : NULL;
            free(ih);
        }
    }
    free(il);
    return js_num_alt(c, parts, 3);
}

// Bounded numbers are produced in plain decimal notation: no exponent, and no negative zero.
static char *js_number(struct js_ctx *c, const json_t *s, const char *ptr) {
    struct js_dec lim[2];
    int has[2] = {0, 0}, strict[2] = {0, 0};
    const char *kw[2] = {NULL, NULL};
    for (int side = 0; side < 2; side++) {
        struct js_bound b[2];
        int n;
        if (js_side(c, s, ptr, side, b, &n)) return NULL;
        for (int i = 0; i < n; i++) {
            struct js_dec t;
            if (js_dec_of(c, ptr, &b[i], &t)) return NULL;
            int r = has[side] ? js_dec_cmp(&t, &lim[side]) : 0;
            if (!has[side] || (side ? r < 0 : r > 0) || (r == 0 && b[i].strict)) {
                if (!has[side] || r != 0) strict[side] = 0;
                lim[side] = t, has[side] = 1, strict[side] |= b[i].strict, kw[side] = b[i].kw;
            }
        }
    }
    if (json_object_get(s, "multipleOf")) return js_refuse(c, ptr, "multipleOf", "on a number that need not be an integer");
    if (!has[0] && !has[1]) return js_fmt(c, "number");
    if (has[0] && has[1]) {
        int r = js_dec_cmp(&lim[0], &lim[1]);
        if (r > 0 || (r == 0 && (strict[0] || strict[1]))) return js_refuse(c, ptr, kw[0], "empty range: no number satisfies the bounds");
    }
    const struct js_dec *lo = has[0] ? &lim[0] : NULL, *hi = has[1] ? &lim[1] : NULL;
    char *parts[2] = {NULL, NULL};
    // Zero and up: from the lower bound when that is not negative, else from 0 inclusive.
    if (!hi || (!hi->neg && (!js_dec_zero(hi) || !strict[1]))) {
        int from_lo = lo && !lo->neg;
        parts[0] = js_dec_range(c, from_lo ? lo->i : "0", from_lo ? lo->f : "", from_lo && strict[0], hi ? hi->i : NULL,
                                hi ? hi->f : NULL, strict[1]);
    }
    // Below zero: "-" and a magnitude above |hi| (or above 0) and below |lo| (or unbounded).
    if (!lo || lo->neg) {
        int from_hi = hi && hi->neg;
        char *m = js_dec_range(c, from_hi ? hi->i : "0", from_hi ? hi->f : "", from_hi ? strict[1] : 1, lo ? lo->i : NULL,
                               lo ? lo->f : NULL, strict[0]);
        parts[1] = js_seq(c, "\"-\"", m);
    }
    char *o = js_num_alt(c, parts, 2);
    if (!o && c->st == FRINK_OK) return js_refuse(c, ptr, kw[0] ? kw[0] : kw[1], "empty range");
    return o;
}

// ---- arrays -----------------------------------------------------------------------

static char *js_array(struct js_ctx *c, const json_t *s, const char *ptr) {
    const json_t *items = json_object_get(s, "items"), *prefix = json_object_get(s, "prefixItems");
    const json_t *mn = json_object_get(s, "minItems"), *mx = json_object_get(s, "maxItems");
    if ((mn && (!json_is_integer(mn) || json_integer_value(mn) < 0)) || (mx && (!json_is_integer(mx) || json_integer_value(mx) < 0)))
        return js_refuse(c, ptr, mn ? "minItems" : "maxItems", "not a non-negative integer");
    if (prefix && !json_is_array(prefix)) return js_refuse(c, ptr, "prefixItems", "not an array");
    long long m = mn ? json_integer_value(mn) : 0, M = mx ? json_integer_value(mx) : -1; // -1: no limit
    size_t k = prefix ? json_array_size(prefix) : 0;
    char *item;
    if (items && json_is_false(items)) {
        if (M < 0 || M > (long long)k) M = (long long)k;
        item = NULL;
    } else if (items) {
        char *p = js_ptr(c, ptr, "items");
        item = p ? js_gen(c, items, p) : NULL;
        free(p);
        if (!item) return NULL;
    } else item = js_fmt(c, "value");
    if (c->st != FRINK_OK) return free(item), NULL;
    if (M >= 0 && M < m) {
        free(item);
        return js_refuse(c, ptr, "minItems", "above maxItems");
    }
    // Positions 0..k-1 take the prefix schemas; later ones take `item`. tail is built from the
    // back: after position j the array may end when j+1 >= m.
    long long np = M >= 0 && M < (long long)k ? M : (long long)k;
    char *tail;
    if (np < (long long)k || !item) tail = js_fmt(c, "%s", ""); // no position past the prefix
    else {
        long long a = m > np ? m - np : 0, b = M >= 0 ? M - np : -1;
        if (np == 0) {
            // The first element carries no comma.
            char *rest = b < 0 ? js_fmt(c, "{%lld,}", a ? a - 1 : 0) : js_fmt(c, "{%lld,%lld}", a ? a - 1 : 0, b ? b - 1 : 0);
            if (b == 0) tail = js_fmt(c, "%s", "");
            else if (a == 0) tail = js_fmt(c, "(%s ws (\",\" ws %s ws)%s)?", item, item, rest);
            else tail = js_fmt(c, "%s ws (\",\" ws %s ws)%s", item, item, rest);
            free(rest);
        } else {
            tail = b < 0 ? js_fmt(c, "(\",\" ws %s ws){%lld,}", item, a) : js_fmt(c, "(\",\" ws %s ws){%lld,%lld}", item, a, b);
        }
    }
    for (long long j = np - 1; j >= 0 && c->st == FRINK_OK; j--) {
        char *p = js_ptr_idx(c, ptr, "prefixItems", (size_t)j);
        char *e = p ? js_gen(c, json_array_get(prefix, (size_t)j), p) : NULL;
        free(p);
        char *n = js_fmt(c, "%s%s ws%s%s", j ? "\",\" ws " : "", e, *tail ? " " : "", tail);
        free(e), free(tail);
        tail = j >= m ? js_fmt(c, "(%s)?", n) : n;
        if (j >= m) free(n);
    }
    free(item);
    char *o = js_fmt(c, "\"[\" ws %s \"]\"", tail ? tail : "");
    free(tail);
    return o;
}

// ---- objects ----------------------------------------------------------------------

struct js_prop {
    char *kv; // key ws ":" ws value ws
    int required;
};

// Elements i..n-1 (then additional ones when add != NULL); first: nothing emitted yet.
static char *js_obj_seq(struct js_ctx *c, struct js_prop *p, int i, int n, const char *add, int first) {
    if (c->st != FRINK_OK) return NULL;
    if (i == n) {
        if (!add) return js_fmt(c, "%s", "");
        if (first) return js_fmt(c, "(%s (\",\" ws %s)*)?", add, add);
        return js_fmt(c, "(\",\" ws %s)*", add);
    }
    char *rest = js_obj_seq(c, p, i + 1, n, add, 0), *o;
    if (p[i].required) o = js_fmt(c, "%s%s %s", first ? "" : "\",\" ws ", p[i].kv, rest);
    else if (!first) o = js_fmt(c, "(\",\" ws %s)? %s", p[i].kv, rest);
    else {
        char *skip = js_obj_seq(c, p, i + 1, n, add, 1);
        o = js_fmt(c, "(%s %s | %s)", p[i].kv, rest, skip);
        free(skip);
    }
    free(rest);
    return o;
}

// A key's text after the prefix of length d that the keys keys[0..n) share, then the closing
// quote, such that the whole key is none of them: a trie walked one byte at a time, with any
// other character leaving the trie for good.
static char *js_key_excl(struct js_ctx *c, const char **keys, int n, size_t d) {
    char cls[256];
    size_t nc = 0;
    int ends = 0;
    char *acc = NULL;
    for (int i = 0; i < n && c->st == FRINK_OK; i++) {
        if (strlen(keys[i]) == d) {
            ends = 1;
            continue;
        }
        unsigned char b = (unsigned char)keys[i][d];
        int dup = 0;
        for (int j = 0; j < i; j++)
            if (strlen(keys[j]) > d && !memcmp(keys[j], keys[i], d + 1)) dup = 1;
        if (dup) continue;
        const char *sub[JS_MAX_REFS];
        int ns = 0;
        for (int j = i; j < n && ns < JS_MAX_REFS; j++)
            if (strlen(keys[j]) > d && !memcmp(keys[j], keys[i], d + 1)) sub[ns++] = keys[j];
        char *x = js_key_excl(c, sub, ns, d + 1), *l = js_lit(c, (const char *)&b, 1);
        char *m = acc ? js_fmt(c, "%s | %s %s", acc, l, x) : js_fmt(c, "%s %s", l, x);
        free(acc), free(x), free(l);
        acc = m;
        js_re_class_char(cls, &nc, b);
    }
    cls[nc] = 0;
    char *o = js_fmt(c, "(%s%s%s([^%s\"\\\\\\x7F\\x00-\\x1F%s] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" " JS_UESC ")) char* \"\\\"\")",
                     ends ? "" : "\"\\\"\" | ", acc ? acc : "", acc ? " | " : "", cls, c->no_lt ? "<" : "");
    free(acc);
    return o;
}

// A key that is none of the declared ones; plain `string` when a declared key holds a
// character whose spelling the trie would have to follow through escapes.
static char *js_other_key(struct js_ctx *c, const json_t *props, const json_t *req) {
    const char *keys[JS_MAX_REFS];
    int n = 0;
    const char *k;
    json_t *x;
    if (props) json_object_foreach((json_t *)props, k, x) if (n < JS_MAX_REFS) keys[n++] = k;
    size_t i;
    if (req) json_array_foreach(req, i, x) if (json_is_string(x) && n < JS_MAX_REFS) keys[n++] = json_string_value(x);
    if (!n || n == JS_MAX_REFS) return js_fmt(c, "string");
    for (int j = 0; j < n; j++)
        for (const unsigned char *q = (const unsigned char *)keys[j]; *q; q++)
            if (*q < 0x20 || *q >= 0x7F || *q == '"' || *q == '\\' || (*q == '<' && c->no_lt)) return js_fmt(c, "string");
    char *x2 = js_key_excl(c, keys, n, 0);
    char *o = js_fmt(c, "\"\\\"\" %s", x2);
    free(x2);
    return o;
}

static char *js_object(struct js_ctx *c, const json_t *s, const char *ptr) {
    const json_t *props = json_object_get(s, "properties"), *req = json_object_get(s, "required");
    const json_t *add = json_object_get(s, "additionalProperties");
    if (props && !json_is_object(props)) return js_refuse(c, ptr, "properties", "not an object");
    if (req && !json_is_array(req)) return js_refuse(c, ptr, "required", "not an array");
    size_t n = props ? json_object_size(props) : 0, nreq = req ? json_array_size(req) : 0;
    // A required name without a declared property: any value under that name.
    struct js_prop *p = calloc(n + nreq + 1, sizeof *p);
    if (!p) return c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory"), NULL;
    int np = 0;
    char *pp = js_ptr(c, ptr, "properties");
    for (size_t r = 0; r < nreq && c->st == FRINK_OK; r++) {
        const char *name = json_string_value(json_array_get(req, r));
        if (!name) {
            js_refuse(c, ptr, "required", "not a list of strings");
            break;
        }
        const json_t *ps = props ? json_object_get(props, name) : NULL;
        if (!ps && add && json_is_false(add)) {
            js_refuse(c, ptr, "required", "names a property additionalProperties false forbids");
            break;
        }
        char *pk = js_ptr(c, pp ? pp : "", name);
        char *ap = ps ? NULL : js_ptr(c, ptr, "additionalProperties");
        char *v = ps ? js_gen(c, ps, pk) : (add && !json_is_true(add) && ap ? js_gen(c, add, ap) : js_fmt(c, "value"));
        free(ap);
        char *kl = js_lit_jstring(c, name);
        p[np].kv = js_fmt(c, "%s ws \":\" ws %s ws", kl, v);
        p[np++].required = 1;
        free(pk), free(v), free(kl);
    }
    const char *name;
    json_t *ps;
    if (props) json_object_foreach((json_t *)props, name, ps) {
            if (c->st != FRINK_OK) break;
            int is_req = 0;
            for (size_t r = 0; r < nreq; r++)
                if (!strcmp(name, json_string_value(json_array_get(req, r)))) is_req = 1;
            if (is_req) continue;
            char *pk = js_ptr(c, pp ? pp : "", name);
            char *v = js_gen(c, ps, pk);
            char *kl = js_lit_jstring(c, name);
            p[np].kv = js_fmt(c, "%s ws \":\" ws %s ws", kl, v);
            p[np++].required = 0;
            free(pk), free(v), free(kl);
        }
    free(pp);
    char *addkv = NULL;
    if (c->st == FRINK_OK && !(add && json_is_false(add))) {
        char *ap = js_ptr(c, ptr, "additionalProperties");
        char *v = add && !json_is_true(add) ? js_gen(c, add, ap) : js_fmt(c, "value");
        char *key = js_other_key(c, props, req);
        addkv = js_fmt(c, "%s ws \":\" ws %s ws", key, v);
        free(v), free(ap), free(key);
    }
    char *body = js_obj_seq(c, p, 0, np, addkv, 1);
    for (int i = 0; i < np; i++) free(p[i].kv);
    free(p), free(addkv);
    char *o = js_fmt(c, "\"{\" ws %s%s\"}\"", body ? body : "", body && *body ? " " : "");
    free(body);
    return o;
}

// ---- composition ------------------------------------------------------------------

static const json_t *js_resolve(struct js_ctx *c, const char *ref, const char *ptr) {
    if (strncmp(ref, "#", 1)) return js_refuse(c, ptr, "$ref", "not a local reference"), NULL;
    const json_t *v = c->root;
    const char *q = ref + 1;
    char seg[512];
    while (*q) {
        if (*q != '/') return js_refuse(c, ptr, "$ref", "malformed pointer"), NULL;
        q++;
        size_t k = 0;
        while (*q && *q != '/' && k < sizeof seg - 1) {
            if (q[0] == '~' && q[1] == '0') seg[k++] = '~', q += 2;
            else if (q[0] == '~' && q[1] == '1') seg[k++] = '/', q += 2;
            else seg[k++] = *q++;
        }
        seg[k] = 0;
        if (json_is_object(v)) v = json_object_get(v, seg);
        else if (json_is_array(v)) v = json_array_get(v, (size_t)strtoul(seg, NULL, 10));
        else v = NULL;
        if (!v) return js_refuse(c, ptr, "$ref", "target not found"), NULL;
    }
    return v;
}

static char *js_ref(struct js_ctx *c, const char *ref, const char *ptr) {
    for (int i = 0; i < c->n_refs; i++) {
        if (strcmp(c->refs[i].ref, ref)) continue;
        // Reached again inside itself with no token read: a left recursion, which no
        // matcher can run.
        if (!c->refs[i].body && c->refs[i].guard == c->guard) return js_refuse(c, ptr, "$ref", "recursion that reads no token");
        return js_fmt(c, "%s", c->refs[i].name);
    }
    const json_t *t = js_resolve(c, ref, ptr);
    if (!t) return NULL;
    if (c->n_refs == JS_MAX_REFS) return js_refuse(c, ptr, "$ref", "too many references");
    struct js_ref *r = &c->refs[c->n_refs++];
    r->ref = js_fmt(c, "%s", ref);
    const char *base = strrchr(ref, '/') ? strrchr(ref, '/') + 1 : "root";
    r->name = c->prefix ? js_fmt(c, "%s-ref%d-%s", c->prefix, c->n_refs, base) : js_fmt(c, "ref%d-%s", c->n_refs, base);
    if (!r->ref || !r->name) return NULL;
    for (char *q = r->name; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '-')) *q = '-';
    char *tp = js_fmt(c, "%s", ref + 1);
    int idx = c->n_refs - 1;
    c->refs[idx].guard = c->guard;
    char *body = tp ? js_gen(c, t, tp) : NULL;
    free(tp);
    c->refs[idx].body = body;
    return body ? js_fmt(c, "%s", c->refs[idx].name) : NULL;
}

// The types a branch of oneOf can take, or 0 when not evident.
static int js_branch_types(struct js_ctx *c, const json_t *s, const char *ptr, int depth) {
    if (!json_is_object(s) || depth > 32) return 0; // a cycle of bare $refs shows no type
    const json_t *ref = json_object_get(s, "$ref");
    if (ref && json_is_string(ref)) {
        const json_t *t = js_resolve(c, json_string_value(ref), ptr);
        return t ? js_branch_types(c, t, ptr, depth + 1) : 0;
    }
    const json_t *t = json_object_get(s, "type"), *cv = json_object_get(s, "const"), *ev = json_object_get(s, "enum");
    int m = 0;
    if (json_is_string(t)) m = js_type_bit(json_string_value(t));
    else if (json_is_array(t)) {
        size_t i;
        json_t *x;
        json_array_foreach(t, i, x) m |= json_is_string(x) ? js_type_bit(json_string_value(x)) : 0;
    } else if (cv) m = js_value_types(cv);
    else if (json_is_array(ev)) {
        size_t i;
        json_t *x;
        json_array_foreach(ev, i, x) m |= js_value_types(x);
    }
    if (m & JS_T_INTEGER) m |= JS_T_NUMBER; // an integer is a number
    if (m & JS_T_NUMBER) m |= JS_T_INTEGER;
    return m;
}

static char *js_any_of(struct js_ctx *c, const json_t *s, const char *ptr, const char *kw) {
    const json_t *list = json_object_get(s, kw);
    const char *const only[] = {kw, NULL};
    const char *other = js_other_keyword(s, only);
    if (other) return js_refuse(c, ptr, other, "beside anyOf/oneOf");
    if (!json_is_array(list) || !json_array_size(list)) return js_refuse(c, ptr, kw, "not a non-empty array");
    size_t n = json_array_size(list);
    if (!strcmp(kw, "oneOf")) {
        int seen = 0;
        for (size_t i = 0; i < n; i++) {
            char *bp = js_ptr_idx(c, ptr, kw, i);
            int m = bp ? js_branch_types(c, json_array_get(list, i), bp, 0) : 0;
            free(bp);
            if (c->st != FRINK_OK) return NULL;
            if (!m || (m & seen)) return js_refuse(c, ptr, "oneOf", "branches not disjoint by type");
            seen |= m;
        }
    }
    char **parts = calloc(n, sizeof *parts);
    if (!parts) return c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory"), NULL;
    for (size_t i = 0; i < n; i++) {
        char *bp = js_ptr_idx(c, ptr, kw, i);
        parts[i] = bp ? js_gen(c, json_array_get(list, i), bp) : NULL;
        free(bp);
    }
    char *o = js_alt(c, parts, (int)n);
    free(parts);
    return o;
}

// allOf of object schemas: one object schema with the properties and required names merged.
static char *js_all_of(struct js_ctx *c, const json_t *s, const char *ptr) {
    const json_t *list = json_object_get(s, "allOf");
    if (!json_is_array(list)) return js_refuse(c, ptr, "allOf", "not an array");
    static const char *const objkw[] = {"type", "properties", "required", "allOf", "$ref", NULL};
    json_t *m = json_object(), *props = json_object(), *req = json_array();
    json_object_set_new(m, "type", json_string("object"));
    json_object_set(m, "properties", props);
    json_object_set(m, "required", req);
    const json_t *todo[64];
    char *todo_ptr[64];
    int nt = 0;
    todo[nt] = s, todo_ptr[nt++] = js_fmt(c, "%s", ptr);
    for (int i = 0; i < nt && c->st == FRINK_OK; i++) {
        const json_t *b = todo[i];
        const char *bp = todo_ptr[i];
        const json_t *ref = json_object_get(b, "$ref");
        if (ref) {
            b = json_is_string(ref) ? js_resolve(c, json_string_value(ref), bp) : NULL;
            if (!b) {
                js_refuse(c, bp, "$ref", "not a string");
                break;
            }
        }
        if (!json_is_object(b)) {
            js_refuse(c, ptr, "allOf", "a branch is not an object schema");
            break;
        }
        const char *other = js_other_keyword(b, objkw);
        if (other) {
            js_refuse(c, bp, other, "inside allOf");
            break;
        }
        const json_t *bprops = json_object_get(b, "properties"), *breq = json_object_get(b, "required");
        if ((bprops && !json_is_object(bprops)) || (breq && !json_is_array(breq))) {
            js_refuse(c, bp, bprops && !json_is_object(bprops) ? "properties" : "required", "malformed");
            break;
        }
        const json_t *t = json_object_get(b, "type");
        if (t && !(json_is_string(t) && !strcmp(json_string_value(t), "object"))) {
            js_refuse(c, bp, "type", "allOf merges object schemas only");
            break;
        }
        const char *k;
        json_t *x;
        json_object_foreach(json_object_get(b, "properties"), k, x) {
            if (json_object_get(props, k)) {
                js_refuse(c, bp, "properties", "the same property in two allOf branches");
                break;
            }
            json_object_set(props, k, x);
        }
        size_t j;
        json_array_foreach(json_object_get(b, "required"), j, x) json_array_append(req, x);
        const json_t *sub = json_object_get(b, "allOf");
        if (sub && b != s) {
            js_refuse(c, bp, "allOf", "nested allOf");
            break;
        }
        json_array_foreach(sub, j, x) {
            if (nt == 64) {
                js_refuse(c, ptr, "allOf", "too many branches");
                break;
            }
            todo[nt] = x, todo_ptr[nt++] = js_ptr_idx(c, ptr, "allOf", j);
        }
    }
    for (int i = 0; i < nt; i++) free(todo_ptr[i]);
    c->guard++;
    char *o = c->st == FRINK_OK ? js_object(c, m, ptr) : NULL;
    c->guard--;
    json_decref(props), json_decref(req), json_decref(m);
    return o;
}

// ---- the dispatcher ---------------------------------------------------------------

static char *js_typed(struct js_ctx *c, const json_t *s, const char *ptr, int t) {
    switch (t) {
    case JS_T_OBJECT:
    case JS_T_ARRAY: {
        c->guard++;
        char *o = t == JS_T_OBJECT ? js_object(c, s, ptr) : js_array(c, s, ptr);
        c->guard--;
        return o;
    }
    case JS_T_STRING: return js_string(c, s, ptr);
    case JS_T_NUMBER: return js_number(c, s, ptr);
    case JS_T_INTEGER: return js_integer(c, s, ptr);
    case JS_T_BOOLEAN: return js_fmt(c, "boolean");
    default: return js_fmt(c, "null");
    }
}

static char *js_gen(struct js_ctx *c, const json_t *s, const char *ptr) {
    if (c->st != FRINK_OK) return NULL;
    if (json_is_true(s)) return js_fmt(c, "value");
    if (json_is_false(s)) {
        if (c->st == FRINK_OK)
            c->st = frink_fail(FRINK_ERR_UNSUPPORTED, "JSON Schema: the false schema at %s matches nothing", *ptr ? ptr : "/");
        return NULL;
    }
    if (!json_is_object(s)) {
        if (c->st == FRINK_OK) c->st = frink_fail(FRINK_ERR_ARG, "JSON Schema: the schema at %s is not an object", *ptr ? ptr : "/");
        return NULL;
    }
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)s, k, x) {
        (void)x;
        if (!js_in(k, js_annotations) && !js_in(k, js_known)) return js_refuse(c, ptr, k, NULL);
    }
    static const char *const none[] = {NULL};
    if (!js_other_keyword(s, none)) return js_fmt(c, "value"); // annotations only: any value
    const json_t *ref = json_object_get(s, "$ref");
    if (ref) {
        static const char *const only[] = {"$ref", NULL};
        const char *other = js_other_keyword(s, only);
        if (other) return js_refuse(c, ptr, other, "beside $ref");
        if (!json_is_string(ref)) return js_refuse(c, ptr, "$ref", "not a string");
        return js_ref(c, json_string_value(ref), ptr);
    }
    if (json_object_get(s, "anyOf")) return js_any_of(c, s, ptr, "anyOf");
    if (json_object_get(s, "oneOf")) return js_any_of(c, s, ptr, "oneOf");
    if (json_object_get(s, "allOf")) return js_all_of(c, s, ptr);

    // The set of types the schema admits: "type", or all of them (integer is within number).
    const json_t *type = json_object_get(s, "type");
    int types = 0;
    if (!type) types = JS_T_OBJECT | JS_T_ARRAY | JS_T_STRING | JS_T_NUMBER | JS_T_BOOLEAN | JS_T_NULL;
    else if (json_is_string(type)) types = js_type_bit(json_string_value(type));
    else if (json_is_array(type)) {
        size_t i;
        json_array_foreach(type, i, x) {
            int b = json_is_string(x) ? js_type_bit(json_string_value(x)) : 0;
            if (!b) return js_refuse(c, ptr, "type", "unknown type");
            types |= b;
        }
    }
    if (!types) return js_refuse(c, ptr, "type", "unknown type");
    if ((types & JS_T_NUMBER) && (types & JS_T_INTEGER)) types &= ~JS_T_INTEGER;

    const json_t *cv = json_object_get(s, "const"), *ev = json_object_get(s, "enum");
    if (cv || ev) {
        static const char *const only[] = {"type", "enum", "const", NULL};
        const char *other = js_other_keyword(s, only);
        if (other) return js_refuse(c, ptr, other, "beside enum/const");
        if (cv && ev) return js_refuse(c, ptr, "enum", "beside const");
        if (ev && !json_is_array(ev)) return js_refuse(c, ptr, "enum", "not an array");
        size_t n = cv ? 1 : json_array_size(ev);
        char **parts = calloc(n + 1, sizeof *parts);
        if (!parts) return c->st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory"), NULL;
        int np = 0;
        for (size_t i = 0; i < n; i++) {
            const json_t *v = cv ? cv : json_array_get(ev, i);
            int vt = js_value_types(v);
            if (!(vt & (types | ((types & JS_T_NUMBER) ? JS_T_INTEGER : 0)))) continue;
            if (vt == JS_T_NUMBER && types == JS_T_INTEGER && json_real_value(v) != (double)(long long)json_real_value(v))
                continue;
            parts[np++] = js_const(c, v);
        }
        if (!np) {
            free(parts);
            return js_refuse(c, ptr, cv ? "const" : "enum", "no value of the schema's type");
        }
        char *o = js_alt(c, parts, np);
        free(parts);
        return o;
    }

    char *parts[7];
    int np = 0;
    for (int b = 0; b < 7; b++)
        if (types & (1 << b)) parts[np++] = js_typed(c, s, ptr, 1 << b);
    if (np == 1) return parts[0];
    return js_alt(c, parts, np);
}

// Under no_lt, `char` is the same less a raw '<' (the one place the fixed rules could write it).
static const char js_base_rules_no_lt[] =
    "ws ::= | \" \" | \"\\n\" [ \\t]{0,20}\n"
    "char ::= [^\"\\\\\\x7F\\x00-\\x1F<] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" " JS_UESC ")\n" JS_BASE_TAIL;

const char *jsonschema_base_rules(unsigned flags) {
    return flags & JSONSCHEMA_NO_LT ? js_base_rules_no_lt : js_base_rules;
}

// The rules of `schema` (inside `root`, which $refs resolve against): "<start> ::= expr", then
// one rule per $ref, named after `prefix` ("ref3-Name", or "PREFIX-ref3-Name").
static frink_status js_rules(const json_t *root, const json_t *schema, const char *prefix, unsigned flags,
                             const char *start, const char *tail, char **out) {
    *out = NULL;
    if (!schema || !root) return frink_fail(FRINK_ERR_ARG, "JSON Schema: no schema");
    struct js_ctx *c = calloc(1, sizeof *c);
    if (!c) return frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
    c->root = root;
    c->prefix = prefix;
    c->no_lt = (flags & JSONSCHEMA_NO_LT) != 0;
    char *expr = js_gen(c, schema, "");
    char *g = expr ? js_fmt(c, "%s ::= %s%s\n", start, expr, tail) : NULL;
    for (int i = 0; i < c->n_refs && g; i++) {
        char *n = js_fmt(c, "%s%s ::= %s\n", g, c->refs[i].name, c->refs[i].body ? c->refs[i].body : "");
        free(g);
        g = n;
    }
    frink_status st = c->st;
    for (int i = 0; i < c->n_refs; i++) free(c->refs[i].ref), free(c->refs[i].name), free(c->refs[i].body);
    free(expr);
    free(c);
    if (st != FRINK_OK) {
        free(g);
        return st;
    }
    *out = g;
    return FRINK_OK;
}

frink_status jsonschema_to_gbnf(const json_t *schema, char **out) {
    char *rules;
    frink_status st = js_rules(schema, schema, NULL, 0, "root", " ws", &rules);
    if (st) return (*out = NULL), st;
    if (asprintf(out, "%s%s", rules, js_base_rules) < 0) *out = NULL, st = frink_fail(FRINK_ERR_NOMEM, "JSON Schema: out of memory");
    free(rules);
    return st;
}

frink_status jsonschema_to_gbnf_rules(const json_t *root, const json_t *schema, const char *prefix, unsigned flags,
                                      char **out) {
    *out = NULL;
    if (!prefix || !*prefix) return frink_fail(FRINK_ERR_ARG, "JSON Schema: no rule prefix");
    for (const char *q = prefix; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '-'))
            return frink_fail(FRINK_ERR_ARG, "JSON Schema: rule prefix \"%s\" is not letters, digits and '-'", prefix);
    return js_rules(root, schema, prefix, flags, prefix, "", out);
}
