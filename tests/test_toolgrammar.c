// test_toolgrammar.c — forced tool calls (frink_tool_call_grammar, chat/toolgrammar.c).
//
// 1. The language is what the parser reads as calls: random texts drawn from each format's
//    grammar (a sampler over the GBNF written here, independent of src/grammar/grammar.c), for
//    several tool sets, named and any tool, one call and parallel, are each
//      - accepted whole by the engine's matcher (grammar_state_*), which may end there, and
//      - fed to a chat parser of the format (frink_chat_parser_*, in random splits): only
//        TOOL_NAME / TOOL_ARGS / TOOL_END, no content, no reasoning, no warning; one call unless
//        parallel; each call names an allowed tool, and its arguments validate under the tool's
//        schema (a small validator written here).
//    The rule after-trigger admits the same texts less the trigger.
// 2. Real calls: the templates' own renders of conversations with calls (tests/data/templates,
//    as test_chatparse cuts them) are accepted from their trigger to the end of the last call.
// 3. Refusals: unknown formats, bad tool lists, tool names, schema keywords, by name.
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"
#include "grammar/grammar.h"

// ---- a random GBNF sampler ----------------------------------------------------------------
// Grammars as frink writes them: one rule per line, literals, classes, references, groups,
// * + ? {m} {m,} {m,n}. Each node knows the least derivation height that ends (h), so past a
// depth budget the sampler takes the shortest ways out.

enum { N_LIT, N_CLASS, N_REF, N_SEQ, N_ALT, N_REP };
struct node {
    int kind;
    uint32_t *cps; // LIT: code points; CLASS: lo,hi pairs
    int n, neg;
    char name[96];
    int rule;
    struct node **kid;
    int nkid, min, max; // REP: max -1 unbounded
    int h;
};
struct rule {
    char name[96];
    struct node *body;
    int h;
};
struct gbnf {
    struct rule r[2048];
    int nr;
    const char *p;
    int err;
};

static struct node *node_new(int kind) {
    struct node *n = calloc(1, sizeof *n);
    n->kind = kind;
    return n;
}
static void node_push(struct node *n, struct node *k) {
    n->kid = realloc(n->kid, sizeof *n->kid * (size_t)(n->nkid + 1));
    n->kid[n->nkid++] = k;
}
static void node_free(struct node *n) {
    if (!n) return;
    for (int i = 0; i < n->nkid; i++) node_free(n->kid[i]);
    free(n->kid), free(n->cps), free(n);
}
static void g_skip(struct gbnf *g) {
    while (*g->p == ' ' || *g->p == '\t') g->p++;
}
static uint32_t utf8_dec(const char **p) {
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t c = *s;
    int l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (l > 1) c &= (uint32_t)(0xFF >> (l + 1));
    for (int i = 1; i < l; i++) c = c << 6 | (s[i] & 0x3F);
    *p += l;
    return c;
}
static uint32_t g_char(struct gbnf *g) {
    if (*g->p != '\\') return utf8_dec(&g->p);
    g->p++;
    char c = *g->p++;
    int nh = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (nh) {
        uint32_t v = 0;
        for (int i = 0; i < nh; i++) {
            char h = *g->p++;
            v = v * 16 + (uint32_t)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
        }
        return v;
    }
    return c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : (uint32_t)(unsigned char)c;
}
static struct node *g_alt(struct gbnf *g);
static struct node *g_primary(struct gbnf *g) {
    g_skip(g);
    struct node *n;
    if (*g->p == '"') {
        g->p++;
        n = node_new(N_LIT);
        n->cps = malloc(sizeof *n->cps * (strlen(g->p) + 1));
        while (*g->p && *g->p != '"') n->cps[n->n++] = g_char(g);
        if (*g->p++ != '"') g->err = 1;
    } else if (*g->p == '[') {
        g->p++;
        n = node_new(N_CLASS);
        n->cps = malloc(sizeof *n->cps * (2 * strlen(g->p) + 2));
        if (*g->p == '^') n->neg = 1, g->p++;
        while (*g->p && *g->p != ']') {
            uint32_t lo = g_char(g), hi = lo;
            if (g->p[0] == '-' && g->p[1] != ']') g->p++, hi = g_char(g);
            n->cps[n->n++] = lo, n->cps[n->n++] = hi;
        }
        if (*g->p++ != ']') g->err = 1;
        n->n /= 2;
    } else if (*g->p == '(') {
        g->p++;
        n = g_alt(g);
        g_skip(g);
        if (*g->p++ != ')') g->err = 1;
    } else {
        n = node_new(N_REF);
        int k = 0;
        while ((*g->p >= 'a' && *g->p <= 'z') || (*g->p >= 'A' && *g->p <= 'Z') || (*g->p >= '0' && *g->p <= '9') || *g->p == '-')
            if (k < 95) n->name[k++] = *g->p++;
        if (!k) g->err = 1, g->p++;
    }
    for (;;) {
        int mn, mx, used = 0;
        if (*g->p == '*') mn = 0, mx = -1, g->p++;
        else if (*g->p == '+') mn = 1, mx = -1, g->p++;
        else if (*g->p == '?') mn = 0, mx = 1, g->p++;
        else if (*g->p == '{') {
            if (sscanf(g->p, "{%d,%d}%n", &mn, &mx, &used) == 2 && used) {
            } else if ((used = 0, sscanf(g->p, "{%d,}%n", &mn, &used) == 1 && used)) mx = -1;
            else if ((used = 0, sscanf(g->p, "{%d}%n", &mn, &used) == 1 && used)) mx = mn;
            else {
                g->err = 1;
                return n;
            }
            g->p += used;
        } else break;
        struct node *r = node_new(N_REP);
        r->min = mn, r->max = mx;
        node_push(r, n);
        n = r;
    }
    return n;
}
static struct node *g_seq(struct gbnf *g) {
    struct node *s = node_new(N_SEQ);
    for (;;) {
        g_skip(g);
        if (!*g->p || *g->p == '\n' || *g->p == '|' || *g->p == ')') break;
        node_push(s, g_primary(g));
        if (g->err) break;
    }
    return s;
}
static struct node *g_alt(struct gbnf *g) {
    struct node *a = node_new(N_ALT);
    node_push(a, g_seq(g));
    for (;;) {
        g_skip(g);
        if (*g->p != '|' || g->err) break;
        g->p++;
        node_push(a, g_seq(g));
    }
    return a;
}
static int g_find(struct gbnf *g, const char *name) {
    for (int i = 0; i < g->nr; i++)
        if (!strcmp(g->r[i].name, name)) return i;
    return -1;
}
static int g_resolve(struct gbnf *g, struct node *n) {
    if (n->kind == N_REF && (n->rule = g_find(g, n->name)) < 0) return fprintf(stderr, "undefined %s\n", n->name), 0;
    for (int i = 0; i < n->nkid; i++)
        if (!g_resolve(g, n->kid[i])) return 0;
    return 1;
}
#define H_INF 1000000
static int g_height(struct gbnf *g, struct node *n) {
    int h = 0;
    switch (n->kind) {
    case N_LIT:
    case N_CLASS: h = 0; break;
    case N_REF: h = g->r[n->rule].h >= H_INF ? H_INF : g->r[n->rule].h + 1; break;
    case N_SEQ:
        for (int i = 0; i < n->nkid; i++) {
            int k = g_height(g, n->kid[i]);
            if (k > h) h = k;
        }
        break;
    case N_ALT:
        h = H_INF;
        for (int i = 0; i < n->nkid; i++) {
            int k = g_height(g, n->kid[i]);
            if (k < h) h = k;
        }
        break;
    case N_REP: h = n->min ? g_height(g, n->kid[0]) : (g_height(g, n->kid[0]), 0); break;
    }
    return n->h = h;
}
static int g_parse(struct gbnf *g, const char *text) {
    memset(g, 0, sizeof *g);
    g->p = text;
    while (*g->p && !g->err) {
        while (*g->p == '\n') g->p++;
        if (!*g->p) break;
        const char *e = strstr(g->p, " ::= ");
        if (!e || g->nr == 2048) return 0;
        struct rule *r = &g->r[g->nr++];
        snprintf(r->name, sizeof r->name, "%.*s", (int)(e - g->p), g->p);
        g->p = e + 5;
        r->body = g_alt(g);
        g_skip(g);
        if (*g->p && *g->p != '\n') g->err = 1;
    }
    for (int i = 0; i < g->nr && !g->err; i++)
        if (!g_resolve(g, g->r[i].body)) g->err = 1;
    for (int i = 0; i < g->nr; i++) g->r[i].h = H_INF;
    for (int it = 0; it < 200; it++)
        for (int i = 0; i < g->nr; i++) g->r[i].h = g_height(g, g->r[i].body);
    return !g->err;
}
static void g_free(struct gbnf *g) {
    for (int i = 0; i < g->nr; i++) node_free(g->r[i].body);
}

static uint64_t rng = 0x1234567;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

struct out {
    char *p;
    size_t n, cap;
};
static void out_put(struct out *o, const char *s, size_t n) {
    if (o->n + n + 1 > o->cap) {
        o->cap = (o->n + n + 1) * 2;
        o->p = realloc(o->p, o->cap);
    }
    memcpy(o->p + o->n, s, n);
    o->n += n;
    o->p[o->n] = 0;
}
static void out_cp(struct out *o, uint32_t c) {
    char b[4];
    int n = c < 0x80 ? (b[0] = (char)c, 1)
          : c < 0x800 ? (b[0] = (char)(0xC0 | c >> 6), b[1] = (char)(0x80 | (c & 63)), 2)
          : c < 0x10000 ? (b[0] = (char)(0xE0 | c >> 12), b[1] = (char)(0x80 | (c >> 6 & 63)), b[2] = (char)(0x80 | (c & 63)), 3)
                        : (b[0] = (char)(0xF0 | c >> 18), b[1] = (char)(0x80 | (c >> 12 & 63)), b[2] = (char)(0x80 | (c >> 6 & 63)),
                           b[3] = (char)(0x80 | (c & 63)), 4);
    out_put(o, b, (size_t)n);
}

static int class_has(const struct node *n, uint32_t c) {
    for (int i = 0; i < n->n; i++)
        if (c >= n->cps[2 * i] && c <= n->cps[2 * i + 1]) return !n->neg;
    return n->neg;
}

// Characters tried for negated classes: the markup's own bytes first among them, so that
// near-misses of closing tags come up often.
static const uint32_t pool[] = {'<', '<', '/', '>', 'p', 'a', 'r', 'e', 't', 'f', 'n', 'T', 'N', 'F', 'u', 'l', 's', ' ', '\n',
                                '\t', '"', '\\', '{', '}', '[', ']', ',', ':', '0', '7', '-', '.', '_', 'x', 'Z', 0xE9, 0x6771,
                                0x2581, 0xFF5C, 0x1F600, '=', 'v', 'g', 'k', 'y', 'm', 'c'};

static void gen(struct gbnf *g, const struct node *n, int depth, struct out *o) {
    bool tight = depth > 14;
    switch (n->kind) {
    case N_LIT:
        for (int i = 0; i < n->n; i++) out_cp(o, n->cps[i]);
        return;
    case N_CLASS:
        if (!n->neg) {
            int r = (int)rnd((uint32_t)n->n);
            uint32_t lo = n->cps[2 * r], hi = n->cps[2 * r + 1];
            uint32_t span = hi - lo + 1;
            out_cp(o, lo + rnd(span > 200 ? 200 : span));
            return;
        }
        for (int t = 0; t < 1000; t++) {
            uint32_t c = t < 500 ? pool[rnd(sizeof pool / sizeof pool[0])] : 0x20 + rnd(0x5F);
            if (class_has(n, c)) {
                out_cp(o, c);
                return;
            }
        }
        abort();
    case N_REF: gen(g, g->r[n->rule].body, depth + 1, o); return;
    case N_SEQ:
        for (int i = 0; i < n->nkid; i++) gen(g, n->kid[i], depth, o);
        return;
    case N_ALT: {
        int best = H_INF, cand[256], nc = 0;
        for (int i = 0; i < n->nkid; i++) best = n->kid[i]->h < best ? n->kid[i]->h : best;
        for (int i = 0; i < n->nkid && nc < 256; i++)
            if (!tight || n->kid[i]->h == best) cand[nc++] = i;
        gen(g, n->kid[cand[rnd((uint32_t)nc)]], depth, o);
        return;
    }
    case N_REP: {
        int hi = n->max < 0 ? n->min + 3 : n->max;
        if (hi > n->min + 4) hi = n->min + 4;
        int k = tight ? n->min : n->min + (int)rnd((uint32_t)(hi - n->min + 1));
        for (int i = 0; i < k; i++) gen(g, n->kid[0], depth + 1, o);
        return;
    }
    }
}

// ---- a small JSON Schema validator (the keywords the test schemas use) -----------------------

static const json_t *schema_root;

static size_t utf8_len(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static bool valid(const json_t *v, const json_t *s);

static bool valid_type(const json_t *v, const char *t) {
    if (!strcmp(t, "object")) return json_is_object(v);
    if (!strcmp(t, "array")) return json_is_array(v);
    if (!strcmp(t, "string")) return json_is_string(v);
    if (!strcmp(t, "integer")) return json_is_integer(v);
    if (!strcmp(t, "number")) return json_is_number(v);
    if (!strcmp(t, "boolean")) return json_is_boolean(v);
    if (!strcmp(t, "null")) return json_is_null(v);
    return false;
}

static bool valid(const json_t *v, const json_t *s) {
    if (json_is_true(s)) return true;
    const json_t *x, *e;
    const char *k;
    size_t i;
    if ((x = json_object_get(s, "$ref"))) {
        const char *r = json_string_value(x);
        const char *name = strrchr(r, '/') + 1;
        return valid(v, json_object_get(json_object_get(schema_root, "$defs"), name));
    }
    if ((x = json_object_get(s, "anyOf"))) {
        json_array_foreach(x, i, e) if (valid(v, e)) return true;
        return false;
    }
    if ((x = json_object_get(s, "type"))) {
        bool ok = false;
        if (json_is_string(x)) ok = valid_type(v, json_string_value(x));
        json_array_foreach(x, i, e) ok = ok || valid_type(v, json_string_value(e));
        if (!ok) return false;
    }
    if ((x = json_object_get(s, "enum"))) {
        bool ok = false;
        json_array_foreach(x, i, e) ok = ok || json_equal(v, e);
        if (!ok) return false;
    }
    if ((x = json_object_get(s, "const")) && !json_equal(v, x)) return false;
    if (json_is_string(v)) {
        size_t n = utf8_len(json_string_value(v));
        if ((x = json_object_get(s, "minLength")) && n < (size_t)json_integer_value(x)) return false;
        if ((x = json_object_get(s, "maxLength")) && n > (size_t)json_integer_value(x)) return false;
    }
    if (json_is_integer(v)) {
        if ((x = json_object_get(s, "minimum")) && json_integer_value(v) < json_integer_value(x)) return false;
        if ((x = json_object_get(s, "maximum")) && json_integer_value(v) > json_integer_value(x)) return false;
    }
    if (json_is_array(v)) {
        if ((x = json_object_get(s, "minItems")) && json_array_size(v) < (size_t)json_integer_value(x)) return false;
        if ((x = json_object_get(s, "maxItems")) && json_array_size(v) > (size_t)json_integer_value(x)) return false;
        if ((x = json_object_get(s, "items"))) json_array_foreach(v, i, e) if (!valid(e, x)) return false;
    }
    if (json_is_object(v)) {
        const json_t *props = json_object_get(s, "properties"), *add = json_object_get(s, "additionalProperties");
        json_array_foreach(json_object_get(s, "required"), i, e) if (!json_object_get(v, json_string_value(e))) return false;
        json_object_foreach((json_t *)v, k, e) {
            const json_t *ps = json_object_get(props, k);
            if (ps && !valid(e, ps)) return false;
            if (!ps && add && (json_is_false(add) || (json_is_object(add) && !valid(e, add)))) return false;
        }
    }
    return true;
}

// ---- the tool sets ---------------------------------------------------------------------------

static const char tools_weather[] =
    "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"Weather.\", \"parameters\": "
    "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", \"description\": \"A city.\"}, \"unit\": "
    "{\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"]}}, \"required\": [\"city\"]}}},"
    " {\"type\": \"function\", \"function\": {\"name\": \"get_time\", \"parameters\": {\"type\": \"object\", \"properties\":"
    " {\"timezone\": {\"type\": \"string\"}}, \"required\": [\"timezone\"]}}}]";

// Every kind of value: numbers with bounds, booleans, arrays, nested closed objects, nullable
// strings, enums that look like JSON or hold tags, strings with lengths, $ref.
static const char tools_typed[] =
    "[{\"type\": \"function\", \"function\": {\"name\": \"search_web\", \"parameters\": {\"type\": \"object\", "
    "\"properties\": {\"query\": {\"type\": \"string\"}, \"max_results\": {\"type\": \"integer\", \"minimum\": 1, "
    "\"maximum\": 20}, \"safe\": {\"type\": \"boolean\"}, \"sites\": {\"type\": \"array\", \"items\": {\"type\": "
    "\"string\"}, \"maxItems\": 3}, \"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\", "
    "\"properties\": {\"year\": {\"type\": \"integer\"}, \"lang\": {\"type\": [\"string\", \"null\"]}}, "
    "\"additionalProperties\": false}, \"mode\": {\"enum\": [\"true\", \"fast\", \"12\", \"<b>\", \"None\", \"a</parameter>b\"]},"
    " \"tag\": {\"type\": \"string\", \"minLength\": 2, \"maxLength\": 5}, \"where\": {\"$ref\": \"#/$defs/place\"},"
    " \"note\": {\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"null\"}]}, \"flag\": {\"type\": \"null\"}},"
    " \"required\": [\"query\", \"safe\"], \"additionalProperties\": false,"
    " \"$defs\": {\"place\": {\"type\": \"object\", \"properties\": {\"lat\": {\"type\": \"number\"}, \"name\": {\"type\":"
    " \"string\"}}, \"required\": [\"lat\"], \"additionalProperties\": false}}}}},"
    " {\"type\": \"function\", \"function\": {\"name\": \"ping\"}},"
    " {\"type\": \"function\", \"function\": {\"name\": \"untyped\", \"parameters\": {\"properties\": {\"n\": {\"type\": "
    "\"integer\"}}, \"required\": [\"n\"]}}},"
    " {\"type\": \"function\", \"function\": {\"name\": \"function\", \"parameters\": {\"type\": \"object\", "
    "\"properties\": {\"code\": {\"type\": \"string\"}}, \"required\": [\"code\"], \"additionalProperties\": false}}}]";

static const char *const formats[] = {"hermes",     "qwen3-coder", "glm",           "llama3",     "mistral",
                                      "deepseek",   "kimi-k2",     "command-r7b",   "granite",    "apriel",
                                      "functionary-v3.1", "minimax-m2", "seed-oss", "deepseek-v3.2", "deepseek-v4"};
#define N_FORMATS (sizeof formats / sizeof formats[0])

// ---- parsing a text as the format's parser does ---------------------------------------------

struct calls {
    int n, content, warnings, other;
    char name[16][160];
    char *args[16];
    size_t alen[16];
    char what[300];
};

static void on_delta(void *ud, const frink_chat_delta *d) {
    struct calls *c = ud;
    switch (d->kind) {
    case FRINK_DELTA_CONTENT:
    case FRINK_DELTA_REASONING:
        if (!c->content) snprintf(c->what, sizeof c->what, "text [%.*s]", (int)(d->len > 200 ? 200 : d->len), d->text);
        c->content++;
        break;
    case FRINK_DELTA_WARNING:
        if (!c->warnings) snprintf(c->what, sizeof c->what, "warning %.*s", (int)d->len, d->text);
        c->warnings++;
        break;
    case FRINK_DELTA_TOOL_END:
        if (c->n < 16) {
            snprintf(c->name[c->n], sizeof c->name[0], "%s", d->name);
            c->args[c->n] = malloc(d->len + 1);
            memcpy(c->args[c->n], d->text, d->len);
            c->args[c->n][d->len] = 0;
            c->alen[c->n] = d->len;
        }
        c->n++;
        break;
    default: break;
    }
}

static void parse_calls(const char *format, const char *s, size_t n, struct calls *c) {
    memset(c, 0, sizeof *c);
    frink_chat_parser *p = NULL;
    if (frink_chat_parser_create(format, NULL, 0, 7, &p)) {
        c->other = 1;
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t k = 1 + rnd(8);
        if (k > n - i) k = n - i;
        frink_chat_parser_feed(p, s + i, k, on_delta, c);
        i += k;
    }
    frink_chat_parser_finish(p, on_delta, c);
    frink_chat_parser_free(p);
}

static void calls_free(struct calls *c) {
    for (int i = 0; i < c->n && i < 16; i++) free(c->args[i]);
}

// The parameters schema of the named tool in tools (NULL: none, any object of no keys).
static const json_t *tool_params(const json_t *tools, const char *name, bool *found) {
    size_t i;
    const json_t *t;
    *found = false;
    json_array_foreach(tools, i, t) {
        const json_t *fn = json_object_get(t, "function");
        if (!strcmp(json_string_value(json_object_get(fn, "name")), name)) {
            *found = true;
            return json_object_get(fn, "parameters");
        }
    }
    return NULL;
}

// Whether the matcher accepts s whole under root and may end there.
static bool matcher_accepts(const char *gbnf, const char *root, const char *s, size_t n) {
    struct grammar *g = NULL;
    struct grammar_state *st = NULL;
    if (grammar_parse(gbnf, strlen(gbnf), root, &g)) {
        fprintf(stderr, "grammar_parse: %s\n", frink_errmsg());
        return false;
    }
    bool ok = !grammar_state_create(g, &st) && !grammar_state_advance(st, s, n) && grammar_state_can_end(st);
    grammar_state_free(st);
    grammar_free(g);
    return ok;
}

// ---- 1. sampled texts parse as valid calls -------------------------------------------------

static void check_language(const char *format, const char *tools_text, const char *only, bool parallel, int samples) {
    char *gbnf = NULL, *trigger = NULL;
    frink_status st = frink_tool_call_grammar(format, tools_text, strlen(tools_text), only, parallel, &gbnf, &trigger);
    CHECK(st == FRINK_OK, "%s: %s", format, frink_errmsg());
    if (st) return;
    json_t *tools = json_loads(tools_text, 0, NULL);
    struct gbnf g;
    CHECK(g_parse(&g, gbnf), "%s: the test's GBNF reader fails on the grammar", format);
    int root = g_find(&g, "root"), bad = 0, multi = 0;
    struct grammar *eng = NULL, *eng_after = NULL;
    CHECK(!grammar_parse(gbnf, strlen(gbnf), NULL, &eng), "%s: %s", format, frink_errmsg());
    CHECK(!grammar_parse(gbnf, strlen(gbnf), FRINK_TOOL_GRAMMAR_AFTER_TRIGGER, &eng_after), "%s: after-trigger: %s", format,
          frink_errmsg());
    for (int k = 0; root >= 0 && eng && eng_after && k < samples && bad < 3; k++) {
        struct out o = {0};
        gen(&g, g.r[root].body, 0, &o);
        const char *why = NULL;
        struct grammar_state *s = NULL;
        size_t tl = strlen(trigger);
        if (o.n < tl || memcmp(o.p, trigger, tl)) why = "does not start with the trigger";
        if (!why && (grammar_state_create(eng, &s) || grammar_state_advance(s, o.p, o.n) || !grammar_state_can_end(s)))
            why = "the engine's matcher does not accept it";
        grammar_state_free(s);
        s = NULL;
        if (!why && (grammar_state_create(eng_after, &s) || grammar_state_advance(s, o.p + tl, o.n - tl) ||
                     !grammar_state_can_end(s)))
            why = "after-trigger does not accept it less the trigger";
        grammar_state_free(s);
        struct calls c;
        parse_calls(format, o.p, o.n, &c);
        if (!why && (c.content || c.warnings || c.other)) why = c.what[0] ? c.what : "the parser failed";
        if (!why && (c.n < 1 || c.n > 16 || (!parallel && c.n != 1))) why = "wrong number of calls";
        multi += c.n > 1;
        for (int i = 0; !why && i < c.n; i++) {
            bool found;
            const json_t *ps = tool_params(tools, c.name[i], &found);
            json_error_t je;
            json_t *args = json_loadb(c.args[i], c.alen[i], JSON_ALLOW_NUL, &je);
            schema_root = ps;
            if (!found || (only && strcmp(only, c.name[i]))) why = "a call of a tool not allowed";
            else if (!args && strstr(je.text, "overflow")) { // JSON, but past what jansson holds (1e999)
            } else if (!json_is_object(args)) why = "arguments are not an object";
            else if (ps ? !valid(args, ps) : json_object_size(args) != 0) why = "arguments do not validate";
            if (why) fprintf(stderr, "  call %s %s\n", c.name[i], c.args[i]);
            json_decref(args);
        }
        if (why) {
            bad++;
            fprintf(stderr, "  %s sample: [%s]\n", format, o.p);
        }
        CHECK(!why, "%s (%s, %s): %s", format, only ? only : "any tool", parallel ? "parallel" : "one call", why);
        calls_free(&c);
        free(o.p);
    }
    if (parallel && samples >= 50) CHECK(multi > 0, "%s: no sample with several calls", format);
    grammar_free(eng);
    grammar_free(eng_after);
    g_free(&g);
    json_decref(tools);
    frink_free(gbnf);
    frink_free(trigger);
}

// TOOLGRAMMAR_SAMPLES=k multiplies the samples (and reseeds), for longer runs by hand.
static void test_language(void) {
    const char *e = getenv("TOOLGRAMMAR_SAMPLES");
    int k = e && atoi(e) > 0 ? atoi(e) : 1;
    rng += (uint64_t)k * 7919;
    for (size_t f = 0; f < N_FORMATS; f++) {
        check_language(formats[f], tools_weather, NULL, true, 300 * k);
        check_language(formats[f], tools_weather, "get_time", false, 100 * k);
        check_language(formats[f], tools_typed, NULL, true, 600 * k);
        check_language(formats[f], tools_typed, "search_web", false, 300 * k);
    }
}

// ---- 2. real calls from the templates' renders -------------------------------------------------

#define TPL "tests/data/templates/"
static const struct real {
    const char *tmpl, *conv, *format, *after, *end;
    const char *extra; // properties to add to tools[0]'s parameters (the conversation's call uses
                       // keys its tools do not declare; XML formats write declared ones only)
} reals[] = {
    {"Qwen-Qwen2.5-7B-Instruct", "tool-parallel-named-dict", "hermes", "<|im_start|>assistant\n", "<|im_end|>", NULL},
    {"Qwen-Qwen2.5-7B-Instruct", "tool-call-typed-args", "hermes", "<|im_start|>assistant\n", "<|im_end|>", NULL},
    {"Qwen-Qwen3-0.6B", "tool-parallel-named-dict", "hermes", "<|im_start|>assistant\n", "<|im_end|>", NULL},
    {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "tool-parallel-named-dict", "hermes", "<|im_start|>assistant\n",
     "<|im_end|>", NULL},
    {"Qwen3-Coder", "tool-parallel-named-dict", "qwen3-coder", "<|im_start|>assistant\n", "<|im_end|>", NULL},
    {"Qwen3-Coder", "tool-call-typed-args", "qwen3-coder", "<|im_start|>assistant\n", "<|im_end|>",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
    {"Qwen3.5-4B", "tool-parallel-named-dict", "qwen3-coder", "<|im_start|>assistant\n", "<|im_end|>", NULL},
    {"Qwen3.5-4B", "tool-call-typed-args", "qwen3-coder", "<|im_start|>assistant\n", "<|im_end|>",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
    {"GLM-4.6", "tool-parallel-named-dict", "glm", "<|assistant|>", "<|observation|>", NULL},
    {"GLM-4.6", "tool-call-typed-args", "glm", "<|assistant|>", "<|observation|>",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
    {"meta-llama-Llama-3.1-8B-Instruct", "tool-call-id9", "llama3", "<|start_header_id|>assistant<|end_header_id|>\n\n",
     "<|eot_id|>", NULL},
    {"meta-llama-Llama-3.3-70B-Instruct", "tool-call-id9", "llama3", "<|start_header_id|>assistant<|end_header_id|>\n\n",
     "<|eot_id|>", NULL},
    {"mistralai-Mistral-Nemo-Instruct-2407", "tool-call-id9", "mistral", "[/INST]", "</s>", NULL},
    {"Mistral-Small-3.2-24B-Instruct-2506", "tool-call-id9", "mistral", "[/INST]", "</s>", NULL},
    {"unsloth-mistral-Devstral-Small-2507", "tool-parallel-named-dict", "mistral", "[/INST]", "</s>", NULL},
    {"mistralai-Ministral-3-14B-Reasoning-2512", "tool-parallel-named-dict", "mistral", "[/INST]", "</s>", NULL},
    {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "tool-parallel-named-dict", "deepseek", "<｜Assistant｜>",
     "<｜end▁of▁sentence｜>", NULL},
    {"deepseek-ai-DeepSeek-V3.1", "tool-parallel-named-dict", "deepseek", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", NULL},
    {"moonshotai-Kimi-K2", "tool-parallel-named-dict", "kimi-k2", "<|im_assistant|>assistant<|im_middle|>", "<|im_end|>",
     NULL},
    {"CohereForAI-c4ai-command-r7b-12-2024-tool_use", "tool-parallel-named-dict", "command-r7b", "<|CHATBOT_TOKEN|>",
     "<|END_OF_TURN_TOKEN|>", NULL},
    {"meetkai-functionary-medium-v3.1", "tool-parallel-named-dict", "functionary-v3.1",
     "<|start_header_id|>assistant<|end_header_id|>\n\n", "<|eom_id|>", NULL},
    {"Cohere2MoE", "tool-parallel-named-dict", "command-r7b", "<|CHATBOT_TOKEN|>", "<|END_OF_TURN_TOKEN|>", NULL},
    {"unsloth-Apriel-1.5", "tool-parallel-named-dict", "apriel", "<|assistant|>\n", "\n<|end|>", NULL},
    {"Apriel-1.6-15b-Thinker-fixed", "tool-parallel-named-dict", "apriel", "<|begin_assistant|>", "\n<|end|>", NULL},
    {"MiniMax-M2", "tool-parallel-named-dict", "minimax-m2", "]~b]ai\n", "[e~[", NULL},
    {"MiniMax-M2", "tool-call-typed-args", "minimax-m2", "]~b]ai\n", "[e~[",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
    {"ByteDance-Seed-OSS", "tool-parallel-named-dict", "seed-oss", "<seed:bos>assistant", "<seed:eos>", NULL},
    {"deepseek-ai-DeepSeek-V3.2", "tool-parallel-named-dict", "deepseek-v3.2", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", NULL},
    {"deepseek-ai-DeepSeek-V3.2", "tool-call-typed-args", "deepseek-v3.2", "<｜Assistant｜>", "<｜end▁of▁sentence｜>",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
    {"deepseek-ai-DeepSeek-V4", "tool-call-typed-args", "deepseek-v4", "<｜Assistant｜>", "<｜end▁of▁sentence｜>",
     "{\"min_score\": {\"type\": \"number\"}, \"filters\": {\"type\": \"object\"}}"},
};

static void test_real(void) {
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
        const struct real *t = &reals[k];
        char path[512];
        size_t rn = 0, cn = 0;
        snprintf(path, sizeof path, TPL "expected/%s/%s.txt", t->tmpl, t->conv);
        char *render = test_read_file(path, &rn);
        snprintf(path, sizeof path, TPL "conversations/%s.json", t->conv);
        char *convs = test_read_file(path, &cn);
        CHECK(render && convs, "%s / %s: cannot read the render or the conversation", t->tmpl, t->conv);
        json_t *conv = convs ? json_loadb(convs, cn, 0, NULL) : NULL;
        json_t *msgs = json_object_get(conv, "messages"), *user = NULL, *asst = NULL;
        for (size_t i = 0; i < json_array_size(msgs); i++) {
            json_t *m = json_array_get(msgs, i);
            const char *role = json_string_value(json_object_get(m, "role"));
            if (!user && role && !strcmp(role, "user")) user = m;
            if (!asst && role && !strcmp(role, "assistant") && json_array_size(json_object_get(m, "tool_calls"))) asst = m;
        }
        const char *anchor = json_string_value(json_object_get(user, "content"));
        const char *a = render && anchor ? strstr(render, anchor) : NULL;
        a = a ? strstr(a, t->after) : NULL;
        const char *b = a ? strstr(a + strlen(t->after), t->end) : NULL;
        CHECK(a && b && asst, "%s / %s: no assistant turn with calls", t->tmpl, t->conv);
        json_t *tools = json_deep_copy(json_object_get(conv, "tools"));
        if (t->extra) {
            json_t *props = json_object_get(json_object_get(json_object_get(json_array_get(tools, 0), "function"), "parameters"),
                                            "properties");
            json_t *extra = json_loads(t->extra, 0, NULL);
            json_object_update(props, extra);
            json_decref(extra);
        }
        char *tools_text = json_dumps(tools, 0);
        size_t ncalls = json_array_size(json_object_get(asst, "tool_calls"));
        for (int parallel = 0; a && b && parallel < 2; parallel++) {
            if (!parallel && ncalls > 1) continue;
            char *gbnf = NULL, *trigger = NULL;
            frink_status st = frink_tool_call_grammar(t->format, tools_text, strlen(tools_text), NULL, parallel, &gbnf, &trigger);
            CHECK(!st, "%s / %s: %s", t->tmpl, t->conv, frink_errmsg());
            if (st) continue;
            const char *s = strstr(a + strlen(t->after), trigger);
            CHECK(s && s < b, "%s / %s: no trigger %s in the assistant turn", t->tmpl, t->conv, trigger);
            if (s && s < b) {
                size_t n = (size_t)(b - s);
                while (n && strchr(" \n", s[n - 1])) n--;
                CHECK(matcher_accepts(gbnf, NULL, s, n), "%s / %s (%s): the grammar refuses the real call [%.*s]", t->tmpl,
                      t->conv, parallel ? "parallel" : "one call", (int)n, s);
                // One call less the last byte of the last call is no complete text.
                CHECK(!matcher_accepts(gbnf, NULL, s, n - 1), "%s / %s: a cut call is complete", t->tmpl, t->conv);
            }
            frink_free(gbnf);
            frink_free(trigger);
        }
        free(tools_text);
        json_decref(tools);
        json_decref(conv);
        free(render);
        free(convs);
    }
}

// ---- 3. refusals ------------------------------------------------------------------------------

static void refused(const char *format, const char *tools, const char *name, frink_status want, const char *words) {
    char *gbnf = (char *)1, *trigger = (char *)1;
    frink_status st = frink_tool_call_grammar(format, tools, strlen(tools), name, false, &gbnf, &trigger);
    const char *msg = frink_errmsg();
    CHECK(st == want && strstr(msg, words) && !gbnf && !trigger, "%s / %s: status %d, message [%s], want %d naming [%s]",
          format ? format : "NULL", tools, st, msg, want, words);
}

static void test_refusals(void) {
    refused("gpt-oss", tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "\"gpt-oss\": frink cannot force its tool calls (harmony");
    refused("functionary-v3.2", tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "functionary-v3.2");
    refused("minimax-m3", tools_weather, NULL, FRINK_ERR_UNSUPPORTED,
            "\"minimax-m3\": frink cannot force its tool calls (its arguments are XML");
    refused("gemma4", tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "\"gemma4\": frink cannot force its tool calls (its arguments");
    refused("klingon", tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "klingon");
    refused("none", tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "none");
    refused(NULL, tools_weather, NULL, FRINK_ERR_UNSUPPORTED, "chat format");
    refused("hermes", "[{]", NULL, FRINK_ERR_FORMAT, "tools: line 1");
    refused("hermes", "{}", NULL, FRINK_ERR_ARG, "tools");
    refused("hermes", "[]", NULL, FRINK_ERR_ARG, "tools");
    refused("hermes", "[{\"type\": \"function\"}]", NULL, FRINK_ERR_ARG, "tools[0].function");
    refused("hermes", "[{\"type\": \"code_interpreter\", \"function\": {\"name\": \"x\"}}]", NULL, FRINK_ERR_UNSUPPORTED,
            "tools[0].type");
    refused("hermes", "[{\"function\": {\"name\": \"a b\"}}]", NULL, FRINK_ERR_ARG, "tools[0].function.name");
    refused("hermes", "[{\"function\": {\"name\": \"a\"}}, {\"function\": {\"name\": \"a\"}}]", NULL, FRINK_ERR_ARG,
            "tools[1].function.name \"a\": declared twice");
    refused("hermes", "[{\"function\": {\"name\": \"a\", \"parameters\": 3}}]", NULL, FRINK_ERR_ARG, "tools[0].function.parameters");
    refused("hermes", tools_weather, "get_news", FRINK_ERR_ARG, "get_news");
    refused("hermes",
            "[{\"function\": {\"name\": \"a\", \"parameters\": {\"type\": \"object\", \"properties\": {\"n\": {\"type\": "
            "\"number\", \"multipleOf\": 3}}}}}]",
            NULL, FRINK_ERR_UNSUPPORTED, "multipleOf");
    refused("hermes", "[{\"function\": {\"name\": \"a\", \"parameters\": {\"anyOf\": [{\"type\": \"object\"}]}}}]", NULL,
            FRINK_ERR_UNSUPPORTED, "tools[0].function.parameters/anyOf");
    refused("llama3", "[{\"function\": {\"name\": \"a\", \"parameters\": {\"type\": \"array\"}}}]", NULL,
            FRINK_ERR_UNSUPPORTED, "tools[0].function.parameters/type");
    refused("qwen3-coder", "[{\"function\": {\"name\": \"a\", \"parameters\": {\"anyOf\": [{\"type\": \"object\"}]}}}]", NULL,
            FRINK_ERR_UNSUPPORTED, "tools[0].function.parameters/anyOf");
    refused("glm", "[{\"function\": {\"name\": \"a\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a>b\": {}}}}}]",
            NULL, FRINK_ERR_UNSUPPORTED, "a>b");
    // Bad arguments to the call itself.
    char *gbnf, *trigger;
    CHECK(frink_tool_call_grammar("hermes", NULL, 0, NULL, false, &gbnf, &trigger) == FRINK_ERR_ARG, "NULL tools");
    CHECK(frink_tool_call_grammar("hermes", "[]", 2, NULL, false, NULL, &trigger) == FRINK_ERR_ARG, "NULL result");
}

// ---- specific texts: what the grammar must refuse --------------------------------------------

static void test_texts(void) {
    char *gbnf = NULL, *trigger = NULL;
    CHECK(!frink_tool_call_grammar("qwen3-coder", tools_weather, strlen(tools_weather), NULL, false, &gbnf, &trigger), "%s",
          frink_errmsg());
    static const char *const yes[] = {
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\n\"12\"\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\ntrue story\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nx <b> y </param\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nNew\nYork\n</parameter>\n<parameter=unit>\nfahrenheit\n"
        "</parameter>\n</function>\n</tool_call>",
    };
    static const char *const no[] = {
        "<tool_call>\n<function=get_weather>\n<parameter=city>\n12\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\ntrue\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nNone\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\n{\"a\": 1}\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\na</parameter>b\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=unit>\nkelvin\n"
        "</parameter>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_news>\n</function>\n</tool_call>",
        "<tool_call>\n<function=get_time>\n<parameter=timezone>\nUTC\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n"
        "<function=get_time>\n<parameter=timezone>\nUTC\n</parameter>\n</function>\n</tool_call>",
    };
    for (size_t i = 0; gbnf && i < sizeof yes / sizeof yes[0]; i++)
        CHECK(matcher_accepts(gbnf, NULL, yes[i], strlen(yes[i])), "qwen3-coder refuses [%s]", yes[i]);
    for (size_t i = 0; gbnf && i < sizeof no / sizeof no[0]; i++)
        CHECK(!matcher_accepts(gbnf, NULL, no[i], strlen(no[i])), "qwen3-coder accepts [%s]", no[i]);
    CHECK(trigger && !strcmp(trigger, "<tool_call>"), "trigger %s", trigger ? trigger : "NULL");
    frink_free(gbnf);
    frink_free(trigger);
    // MiniMax-M2 and DSML: the templates' spellings; a DSML string="true" value is raw text.
    static const struct {
        const char *format, *text;
        bool ok;
    } more[] = {
        {"minimax-m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">New York</parameter>\n"
                       "<parameter name=\"unit\">celsius</parameter>\n</invoke>\n</minimax:tool_call>", true},
        {"minimax-m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">12</parameter>\n"
                       "</invoke>\n</minimax:tool_call>", false},
        {"minimax-m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n"
                       "</invoke>\n", false},
        {"minimax-m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n</invoke>\n</minimax:tool_call>", false},
        {"deepseek-v3.2", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
                          "string=\"true\">12 <b>x</b> ｜</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", true},
        {"deepseek-v3.2", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
                          "string=\"false\">\"Paris\"</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", true},
        {"deepseek-v3.2", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
                          "string=\"false\">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", false},
        {"deepseek-v3.2", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
                          "string=\"true\">a</｜DSML｜parameter>b</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
         false},
        {"deepseek-v4", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"timezone\" "
                        "string=\"true\">UTC</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>", true},
        {"deepseek-v4", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"timezone\" "
                        "string=\"true\">UTC</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", false},
        {"seed-oss", "<seed:tool_call>\n<function=get_time>\n<parameter=timezone>UTC</parameter>\n</function>\n"
                     "</seed:tool_call>", true},
        {"seed-oss", "<seed:tool_call>\n<function=get_time>\n<parameter=timezone>UTC</parameter>\n</function>\n"
                     "</tool_call>", false},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        CHECK(!frink_tool_call_grammar(more[i].format, tools_weather, strlen(tools_weather), NULL, true, &gbnf, &trigger), "%s",
              frink_errmsg());
        CHECK(gbnf && matcher_accepts(gbnf, NULL, more[i].text, strlen(more[i].text)) == more[i].ok, "%s %s [%s]",
              more[i].format, more[i].ok ? "refuses" : "accepts", more[i].text);
        if (more[i].ok) { // and the parser reads it as calls only
            struct calls c;
            parse_calls(more[i].format, more[i].text, strlen(more[i].text), &c);
            CHECK(c.n == 1 && !c.content && !c.warnings, "%s: [%s] reads as %d calls, %s", more[i].format, more[i].text, c.n,
                  c.what);
            calls_free(&c);
        }
        frink_free(gbnf);
        frink_free(trigger);
    }
    // Named: only that tool.
    CHECK(!frink_tool_call_grammar("hermes", tools_weather, strlen(tools_weather), "get_time", false, &gbnf, &trigger), "%s",
          frink_errmsg());
    const char *w = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
    const char *t = "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"timezone\": \"UTC\"}}\n</tool_call>";
    CHECK(gbnf && !matcher_accepts(gbnf, NULL, w, strlen(w)), "named get_time accepts get_weather");
    CHECK(gbnf && matcher_accepts(gbnf, NULL, t, strlen(t)), "named get_time refuses get_time");
    frink_free(gbnf);
    frink_free(trigger);
}


// ---- 4. through the sampler constraint, on real vocabularies ----------------------------------
// A real call, tokenized as the model would write it (its opener one token where the vocabulary
// has it), is allowed token by token by frink_grammar_constraint, and then the end of turn.
// Also the lazy path: the grammar given the trigger's text (frink_grammar_accept_text), then the
// rest token by token.

static void token_walk(const char *vocab, const char *format, const char *text, const char *eot) {
    frink_model_params mp = frink_model_default_params();
    mp.path = vocab, mp.vocab_only = true;
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "%s: %s", vocab, frink_errmsg());
        return;
    }
    char *gbnf = NULL, *trigger = NULL;
    CHECK(!frink_tool_call_grammar(format, tools_weather, strlen(tools_weather), NULL, true, &gbnf, &trigger), "%s: %s", format,
          frink_errmsg());
    frink_token *ids = NULL, *end = NULL;
    size_t n = 0, ne = 0;
    CHECK(!frink_tokenize(m, text, strlen(text), FRINK_TOKENIZE_PARSE_SPECIAL, &ids, &n), "tokenize: %s", frink_errmsg());
    CHECK(!frink_tokenize(m, eot, strlen(eot), FRINK_TOKENIZE_PARSE_SPECIAL, &end, &ne) && ne == 1 && frink_token_is_eog(m, end[0]),
          "%s: %s is not one end-of-generation token", vocab, eot);
    for (int lazy = 0; gbnf && ne == 1 && lazy < 2; lazy++) {
        frink_grammar *g = NULL;
        CHECK(!frink_grammar_create(m, gbnf, strlen(gbnf), NULL, &g), "%s: %s", format, frink_errmsg());
        if (!g) continue;
        frink_constraint c = frink_grammar_constraint(g);
        size_t i = 0;
        if (lazy) {
            // The trigger came out unconstrained: the text of the tokens that made it (the last
            // may run past it) is given to the grammar, then the tokens after them constrained.
            size_t tl = strlen(trigger), have = 0;
            char head[1024];
            while (i < n && have < tl) {
                int pl = frink_token_piece(m, ids[i], head + have, sizeof head - have, true);
                have += pl > 0 ? (size_t)pl : 0;
                i++;
            }
            CHECK(have >= tl && !memcmp(head, trigger, tl), "%s: the text does not start with the trigger", format);
            CHECK(!frink_grammar_accept_text(g, head, have), "%s: accept_text(trigger): %s", format, frink_errmsg());
        }
        bool ok = true;
        for (; i < n && ok; i++) {
            ok = c.allows(c.ud, ids[i]);
            if (!ok) {
                char piece[256];
                int pl = frink_token_piece(m, ids[i], piece, sizeof piece, true);
                CHECK(0, "%s (%s): token %zu [%.*s] refused", format, lazy ? "lazy" : "whole", i, pl > 0 ? pl : 0, piece);
            }
            c.accept(c.ud, ids[i]);
        }
        CHECK(ok && frink_grammar_complete(g) && c.allows(c.ud, end[0]), "%s: the call is not complete, or %s refused", format,
              eot);
        frink_grammar_free(g);
    }
    frink_free(ids);
    frink_free(end);
    frink_free(gbnf);
    frink_free(trigger);
    frink_model_free(m);
}

static void test_tokens(void) {
    token_walk("tests/data/vocab/ggml-vocab-qwen2.gguf", "hermes",
               "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"S\u00e3o Paulo\", \"unit\": "
               "\"fahrenheit\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"timezone\": "
               "\"Asia/Tokyo\"}}\n</tool_call>",
               "<|im_end|>");
    token_walk("tests/data/vocab/ggml-vocab-qwen35.gguf", "qwen3-coder",
               "<tool_call>\n<function=get_weather>\n<parameter=city>\nS\xc3\xa3o Paulo\n</parameter>\n<parameter=unit>\n"
               "fahrenheit\n</parameter>\n</function>\n</tool_call>",
               "<|im_end|>");
    // DSML's '｜' (3 bytes) is split across byte-level tokens: the grammar sees partial characters.
    token_walk("tests/data/vocab/ggml-vocab-qwen2.gguf", "deepseek-v3.2",
               "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
               "string=\"true\">S\xc3\xa3o Paulo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
               "<|im_end|>");
    token_walk("tests/data/vocab/ggml-vocab-llama-bpe.gguf", "llama3",
               "{\"name\": \"get_time\", \"parameters\": {\"timezone\": \"UTC\"}}", "<|eot_id|>");
}

int main(void) {
    test_refusals();
    test_texts();
    test_real();
    test_language();
    test_tokens();
    return TEST_DONE();
}
