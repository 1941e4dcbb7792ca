// test_jsonschema.c — JSON Schema to GBNF: the grammar's shape, refusals by keyword and pointer,
// and the language itself, checked by a small GBNF matcher written here (independent of
// src/grammar/grammar.c) against instances that must and must not match.
#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "test.h"
#include "grammar/jsonschema.h"

// ---- a tiny GBNF matcher: each node maps a start position to the set of end positions -------

#define GM_MAXN 320
#define GM_W (GM_MAXN / 64 + 1)
typedef struct { uint64_t w[GM_W]; } gm_set;

enum { GM_LIT, GM_CLASS, GM_REF, GM_SEQ, GM_ALT, GM_REP };
struct gm_node {
    int kind;
    char *lit; // GM_LIT bytes; GM_CLASS: pairs lo,hi
    int len, neg;
    char name[64];
    int rule;
    struct gm_node **kids;
    int nkids, min, max; // GM_REP: max -1 unbounded
};
struct gm_rule { char name[64]; struct gm_node *body; };
struct gm {
    struct gm_rule rules[512];
    int nrules;
    const char *p; // parse cursor
    int err;
    const unsigned char *in;
    int n;
    unsigned char *state; // [rule][pos] 0 unknown, 1 busy, 2 done
    gm_set *memo;
};

static void gm_add(gm_set *s, int i) { s->w[i / 64] |= 1ull << (i % 64); }
static int gm_has(const gm_set *s, int i) { return (int)(s->w[i / 64] >> (i % 64)) & 1; }

static struct gm_node *gm_new(int kind) {
    struct gm_node *n = calloc(1, sizeof *n);
    n->kind = kind;
    return n;
}
static void gm_push(struct gm_node *n, struct gm_node *k) {
    n->kids = realloc(n->kids, sizeof *n->kids * (size_t)(n->nkids + 1));
    n->kids[n->nkids++] = k;
}
static void gm_node_free(struct gm_node *n) {
    if (!n) return;
    for (int i = 0; i < n->nkids; i++) gm_node_free(n->kids[i]);
    free(n->kids), free(n->lit), free(n);
}
static void gm_skip(struct gm *g) {
    while (*g->p == ' ' || *g->p == '\t') g->p++;
}
static int gm_esc(struct gm *g) {
    char c = *g->p++;
    if (c != '\\') return (unsigned char)c;
    c = *g->p++;
    switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'x': {
        unsigned v = 0;
        sscanf(g->p, "%2x", &v);
        g->p += 2;
        return (int)v;
    }
    default: return (unsigned char)c;
    }
}
static struct gm_node *gm_alt(struct gm *g);
static struct gm_node *gm_primary(struct gm *g) {
    gm_skip(g);
    struct gm_node *n;
    if (*g->p == '"') {
        g->p++;
        n = gm_new(GM_LIT);
        n->lit = malloc(strlen(g->p) + 1);
        while (*g->p && *g->p != '"') n->lit[n->len++] = (char)gm_esc(g);
        if (*g->p++ != '"') g->err = 1;
    } else if (*g->p == '[') {
        g->p++;
        n = gm_new(GM_CLASS);
        n->lit = malloc(2 * strlen(g->p) + 2);
        if (*g->p == '^') n->neg = 1, g->p++;
        while (*g->p && *g->p != ']') {
            int lo = gm_esc(g), hi = lo;
            if (g->p[0] == '-' && g->p[1] != ']') g->p++, hi = gm_esc(g);
            n->lit[n->len++] = (char)lo, n->lit[n->len++] = (char)hi;
        }
        if (*g->p++ != ']') g->err = 1;
    } else if (*g->p == '(') {
        g->p++;
        n = gm_alt(g);
        gm_skip(g);
        if (*g->p++ != ')') g->err = 1;
    } else {
        n = gm_new(GM_REF);
        int k = 0;
        while ((*g->p >= 'a' && *g->p <= 'z') || (*g->p >= 'A' && *g->p <= 'Z') || (*g->p >= '0' && *g->p <= '9') || *g->p == '-')
            if (k < 63) n->name[k++] = *g->p++;
        if (!k) g->err = 1, g->p++;
    }
    for (;;) {
        int mn, mx;
        if (*g->p == '*') mn = 0, mx = -1, g->p++;
        else if (*g->p == '+') mn = 1, mx = -1, g->p++;
        else if (*g->p == '?') mn = 0, mx = 1, g->p++;
        else if (*g->p == '{') {
            int used = 0;
            if (sscanf(g->p, "{%d,%d}%n", &mn, &mx, &used) == 2 && used) {
            } else if ((used = 0, sscanf(g->p, "{%d,}%n", &mn, &used) == 1 && used)) mx = -1;
            else if ((used = 0, sscanf(g->p, "{%d}%n", &mn, &used) == 1 && used)) mx = mn;
            else {
                g->err = 1;
                return n;
            }
            g->p += used;
        } else break;
        struct gm_node *r = gm_new(GM_REP);
        r->min = mn, r->max = mx;
        gm_push(r, n);
        n = r;
    }
    return n;
}
static struct gm_node *gm_seq(struct gm *g) {
    struct gm_node *s = gm_new(GM_SEQ);
    for (;;) {
        gm_skip(g);
        if (!*g->p || *g->p == '\n' || *g->p == '|' || *g->p == ')' || g->err) return s;
        gm_push(s, gm_primary(g));
    }
}
static struct gm_node *gm_alt(struct gm *g) {
    struct gm_node *a = gm_new(GM_ALT);
    gm_push(a, gm_seq(g));
    while (!g->err && (gm_skip(g), *g->p == '|')) g->p++, gm_push(a, gm_seq(g));
    return a;
}
static int gm_resolve(struct gm *g, struct gm_node *n) {
    if (n->kind == GM_REF) {
        n->rule = -1;
        for (int i = 0; i < g->nrules; i++)
            if (!strcmp(g->rules[i].name, n->name)) n->rule = i;
        if (n->rule < 0) return fprintf(stderr, "undefined rule %s\n", n->name), 0;
    }
    for (int i = 0; i < n->nkids; i++)
        if (!gm_resolve(g, n->kids[i])) return 0;
    return 1;
}
static int gm_parse(struct gm *g, const char *text) {
    memset(g, 0, sizeof *g);
    g->p = text;
    while (*g->p && !g->err) {
        while (*g->p == '\n') g->p++;
        if (!*g->p) break;
        struct gm_rule *r = &g->rules[g->nrules++];
        int k = 0;
        while (*g->p && *g->p != ' ' && k < 63) r->name[k++] = *g->p++;
        gm_skip(g);
        if (strncmp(g->p, "::=", 3)) return 0;
        g->p += 3;
        r->body = gm_alt(g);
        gm_skip(g);
        if (*g->p && *g->p != '\n') g->err = 1;
    }
    if (g->err) return 0;
    for (int i = 0; i < g->nrules; i++)
        if (!gm_resolve(g, g->rules[i].body)) return 0;
    return 1;
}
static void gm_free(struct gm *g) {
    for (int i = 0; i < g->nrules; i++) gm_node_free(g->rules[i].body);
}
static gm_set gm_match(struct gm *g, const struct gm_node *n, int pos);
static gm_set gm_step(struct gm *g, const struct gm_node *n, const gm_set *from) {
    gm_set o = {{0}};
    for (int p = 0; p <= g->n; p++)
        if (gm_has(from, p)) {
            gm_set x = gm_match(g, n, p);
            for (int w = 0; w < GM_W; w++) o.w[w] |= x.w[w];
        }
    return o;
}
static gm_set gm_match(struct gm *g, const struct gm_node *n, int pos) {
    gm_set o = {{0}};
    switch (n->kind) {
    case GM_LIT:
        if (pos + n->len <= g->n && !memcmp(g->in + pos, n->lit, (size_t)n->len)) gm_add(&o, pos + n->len);
        break;
    case GM_CLASS: {
        if (pos >= g->n) break;
        int c = g->in[pos], in = 0;
        for (int i = 0; i < n->len; i += 2)
            if (c >= (unsigned char)n->lit[i] && c <= (unsigned char)n->lit[i + 1]) in = 1;
        if (in != n->neg) gm_add(&o, pos + 1);
        break;
    }
    case GM_REF: {
        size_t at = (size_t)n->rule * (size_t)(g->n + 1) + (size_t)pos;
        if (g->state[at] == 2) return g->memo[at];
        if (g->state[at] == 1) return o; // left recursion: not produced by the converter
        g->state[at] = 1;
        o = gm_match(g, g->rules[n->rule].body, pos);
        g->state[at] = 2;
        g->memo[at] = o;
        break;
    }
    case GM_SEQ: {
        gm_add(&o, pos);
        for (int i = 0; i < n->nkids; i++) o = gm_step(g, n->kids[i], &o);
        break;
    }
    case GM_ALT:
        for (int i = 0; i < n->nkids; i++) {
            gm_set x = gm_match(g, n->kids[i], pos);
            for (int w = 0; w < GM_W; w++) o.w[w] |= x.w[w];
        }
        break;
    case GM_REP: {
        gm_set cur = {{0}}, seen = {{0}};
        gm_add(&cur, pos);
        if (n->min == 0) o = cur, seen = cur;
        for (int i = 1; n->max < 0 || i <= n->max; i++) {
            gm_set nxt = gm_step(g, n->kids[0], &cur);
            int any = 0;
            if (i >= n->min) {
                for (int w = 0; w < GM_W; w++) {
                    nxt.w[w] &= ~seen.w[w];
                    seen.w[w] |= nxt.w[w];
                    o.w[w] |= nxt.w[w];
                }
            }
            for (int w = 0; w < GM_W; w++) any |= nxt.w[w] != 0;
            if (!any) break;
            cur = nxt;
        }
        break;
    }
    }
    return o;
}
static int gm_accepts(struct gm *g, const char *text) {
    g->in = (const unsigned char *)text;
    g->n = (int)strlen(text);
    if (g->n >= GM_MAXN) return -1;
    size_t cells = (size_t)g->nrules * (size_t)(g->n + 1);
    g->state = calloc(cells, 1);
    g->memo = calloc(cells, sizeof *g->memo);
    int root = -1;
    for (int i = 0; i < g->nrules; i++)
        if (!strcmp(g->rules[i].name, "root")) root = i;
    int ok = 0;
    if (root >= 0) {
        gm_set s = gm_match(g, g->rules[root].body, 0);
        ok = gm_has(&s, g->n);
    }
    free(g->state), free(g->memo);
    return ok;
}

// ---- cases --------------------------------------------------------------------------

struct js_case {
    const char *schema;
    const char *shapes[4];  // substrings the grammar must contain
    const char *good[8];    // instances that must match
    const char *bad[12];    // instances that must not
};

static const struct js_case cases[] = {
    {"{}", {"root ::= value ws"}, {"1", "\"x\"", "[1, {\"a\": null}]", "{}", "true"}, {"", "tru", "[1,]", "{\"a\"}"}},
    {"true", {"value"}, {"null", "-0.5e3"}, {"01", "[", "'x'"}},
    {"{\"type\":\"string\"}", {"root ::= string ws"}, {"\"\"", "\"a\\\"b\\u00e9\\n\""}, {"\"a", "\"\\q\"", "1", "\"a\nb\""}},
    {"{\"type\":\"integer\"}", {"integer"}, {"0", "-12", "7 "}, {"01", "1.5", "-", "\"1\""}},
    {"{\"type\":\"number\"}", {"number"}, {"0", "-1.25", "3e10", "2.5E-3"}, {".5", "1.", "+1", "1e"}},
    {"{\"type\":\"boolean\"}", {"boolean"}, {"true", "false"}, {"1", "True"}},
    {"{\"type\":\"null\"}", {"null"}, {"null"}, {"nul", "0"}},
    {"{\"type\":[\"string\",\"null\"]}", {"(string | null)"}, {"\"a\"", "null"}, {"1", "false"}},
    {"{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"age\":{\"type\":\"integer\"}},"
     "\"required\":[\"name\"],\"additionalProperties\":false}",
     {"\"\\\"name\\\"\" ws \":\" ws string ws"},
     {"{\"name\": \"x\"}", "{\"name\":\"x\",\"age\":3}", "{ \"name\" : \"x\" ,\n  \"age\" : 3 }"},
     {"{}", "{\"age\":3}", "{\"name\":1}", "{\"name\":\"x\",\"extra\":1}", "{\"name\":\"x\",}", "{\"name\":\"x\" \"age\":3}"}},
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}},\"additionalProperties\":false}",
     {"\"{\" ws"},
     {"{}", "{\"a\":1}", "{\"b\":2}", "{\"a\":1,\"b\":2}"},
     {"{,\"b\":2}", "{\"a\":1,}", "{\"c\":1}"}},
    {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}", {"string ws \":\" ws value ws"},
     {"{}", "{\"a\":1}", "{\"a\":1,\"z\":[true]}", "{\"z\":null}", "{\"ab\":\"s\"}", "{\"\":\"s\"}", "{\"\\u0041\":0}"},
     {"{\"a\":\"s\"}", "[]", "{\"z\":1,\"a\":\"s\"}"}},
    {"{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}", {"string ws \":\" ws integer ws"},
     {"{}", "{\"x\":1,\"y\":2}"}, {"{\"x\":\"1\"}"}},
    {"{\"enum\":[\"red\",\"green\",1,null]}", {"\"\\\"red\\\"\""}, {"\"red\"", "\"green\"", "1", "null"}, {"\"blue\"", "2", "\"Red\""}},
    {"{\"const\":{\"k\":[1,2]}}", {"\"{\" ws"}, {"{\"k\":[1,2]}", "{ \"k\" : [ 1 , 2 ] }"}, {"{\"k\":[1]}", "{}"}},
    {"{\"type\":\"string\",\"enum\":[\"a\",1]}", {"\"\\\"a\\\"\""}, {"\"a\""}, {"1"}},
    {"{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"maxItems\":3}", {"\"[\" ws"},
     {"[]", "[1]", "[1, 2, 3]"}, {"[1,2,3,4]", "[\"a\"]", "[1,]"}},
    {"{\"type\":\"array\",\"items\":{\"type\":\"boolean\"},\"minItems\":2}", {"{1,}"}, {"[true,false]", "[true,true,true]"},
     {"[]", "[true]"}},
    {"{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}],\"items\":false}", {"\"[\" ws"},
     {"[]", "[\"a\"]", "[\"a\",1]"}, {"[1]", "[\"a\",1,2]", "[\"a\",\"b\"]"}},
    {"{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}],\"items\":{\"type\":\"null\"},\"minItems\":2}", {"null"},
     {"[\"a\",null]", "[\"a\",null,null]"}, {"[\"a\"]", "[]", "[null,null]"}},
    {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":3}", {"char{2,3}"}, {"\"ab\"", "\"abc\"", "\"a\\n\""}, {"\"a\"", "\"abcd\""}},
    {"{\"type\":\"string\",\"pattern\":\"^[a-z]+-[0-9]{2,3}$\"}", {"[a-z]"}, {"\"ab-12\"", "\"x-123\""},
     {"\"ab-1\"", "\"AB-12\"", "\"ab-1234\"", "\" ab-12\""}},
    {"{\"type\":\"string\",\"pattern\":\"(cat|dog)s?\"}", {"char*"}, {"\"cats\"", "\"a dog\"", "\"hotdogs!\""}, {"\"cow\""}},
    {"{\"type\":\"string\",\"pattern\":\"^a\\\\.b\\\\d$\"}", {"[0-9]"}, {"\"a.b7\""}, {"\"axb7\"", "\"a.b\""}},
    {"{\"type\":\"string\",\"pattern\":\"^[\\\"\\\\\\\\]$\"}", {"\"\\\\\\\"\""}, {"\"\\\"\"", "\"\\\\\""}, {"\"a\"", "\"\"", "\"\\n\""}},
    {"{\"type\":\"string\",\"pattern\":\"^[ -$]+$\"}", {"[ -!#-$]"}, {"\" \"", "\"$#\"", "\"\\\"!\""}, {"\"%\"", "\"\\\\\""}},
    {"{\"$defs\":{\"s\":{\"type\":\"string\"}},\"oneOf\":[{\"$ref\":\"#/$defs/s\"},{\"type\":\"null\"}]}", {"ref1-s ::= string"},
     {"\"x\"", "null"}, {"0"}},
    {"{\"type\":\"array\",\"items\":{\"$ref\":\"#\"},\"maxItems\":2}", {"ref1-root ::= \"[\" ws"}, {"[]", "[[],[[]]]", "[ [ ] ]"},
     {"[1]", "[[],[],[]]", "[[1]]"}},
    {"{\"type\":\"string\",\"format\":\"date\"}", {"\"-02-29\""},
     {"\"2024-02-29\"", "\"1999-12-31\"", "\"2000-02-29\"", "\"0004-02-29\"", "\"2023-04-30\"", "\"0001-01-01\""},
     {"\"2024-13-01\"", "\"2024-1-01\"", "\"2024-00-10\"", "\"24-01-01\"", "\"2023-02-29\"", "\"1900-02-29\"",
      "\"2023-09-31\"", "\"2023-02-30\"", "\"0000-01-01\"", "\"8119-09-31\""}},
    {"{\"type\":\"string\",\"format\":\"date-time\"}", {"\"T\""}, {"\"2024-01-02T03:04:05Z\"", "\"2024-01-02T23:59:59.5+05:30\""},
     {"\"2024-01-02 03:04:05Z\"", "\"2024-01-02T24:00:00Z\""}},
    {"{\"type\":\"string\",\"format\":\"uuid\"}", {"[0-9a-fA-F]{8}"}, {"\"123e4567-e89b-12d3-a456-426614174000\""},
     {"\"123e4567e89b12d3a456426614174000\"", "\"g23e4567-e89b-12d3-a456-426614174000\""}},
    {"{\"type\":\"string\",\"format\":\"time\"}", {"[0-5]"}, {"\"12:30:00Z\""}, {"\"12:60:00Z\"", "\"12:30\""}},
    {"{\"type\":\"integer\",\"minimum\":0}", {"(\"0\" | [1-9] [0-9]*)"}, {"0", "42"}, {"-1", "-0"}},
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":5}", {"[1-5]"}, {"1", "3", "5"}, {"0", "6", "-1"}},
    {"{\"type\":\"integer\",\"minimum\":0,\"maximum\":100000}", {"[1-9]"}, {"0", "7", "99999", "100000"},
     {"-1", "100001", "1000000", "00", "-0"}},
    {"{\"type\":\"string\",\"multipleOf\":3,\"minimum\":2}", {"root ::= string ws"}, {"\"a\""}, {"3"}},
    {"{\"type\":\"integer\",\"minimum\":5}", {"[0-9]"}, {"5", "9", "10", "123456789012"}, {"4", "0", "-5", "05"}},
    {"{\"type\":\"number\",\"minimum\":0.5}", {"\".\""}, {"0.5", "0.75", "1", "100.25", "0.50"},
     {"0.49", "0.4999999", "0", "-1", "5e-1", "-0.5"}},
    {"{\"type\":\"array\",\"prefixItems\":[{\"type\":\"number\",\"maximum\":3}]}", {"\"[\" ws"}, {"[3]", "[-2.5, 1]", "[]"},
     {"[3.01]", "[4]", "[3e0]"}},
    {"{\"type\":\"integer\",\"exclusiveMaximum\":0}", {"\"-\" [1-9]"}, {"-1", "-30"}, {"0", "1"}},
    {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":0}]}", {"string"}, {"\"x\"", "3"}, {"-3", "null"}},
    {"{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"array\",\"items\":{\"type\":\"string\"}}]}", {"string"},
     {"\"x\"", "[\"x\",\"y\"]"}, {"[1]", "1"}},
    {"{\"allOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},\"required\":[\"a\"]},"
     "{\"properties\":{\"b\":{\"type\":\"string\"}},\"required\":[\"b\"]}]}",
     {"\"\\\"b\\\"\""}, {"{\"a\":1,\"b\":\"x\"}"}, {"{\"a\":1}", "{\"b\":\"x\"}"}},
    {"{\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"integer\"},"
     "\"next\":{\"anyOf\":[{\"$ref\":\"#/$defs/node\"},{\"type\":\"null\"}]}},\"required\":[\"v\",\"next\"],"
     "\"additionalProperties\":false}},\"$ref\":\"#/$defs/node\"}",
     {"ref1-node ::="}, {"{\"v\":1,\"next\":null}", "{\"v\":1,\"next\":{\"v\":2,\"next\":null}}"},
     {"{\"v\":1}", "{\"v\":1,\"next\":{\"v\":2}}"}},
    {"{\"definitions\":{\"id\":{\"type\":\"integer\"}},\"type\":\"object\",\"properties\":{\"id\":{\"$ref\":\"#/definitions/id\"}},"
     "\"required\":[\"id\"],\"additionalProperties\":false,\"description\":\"d\",\"title\":\"t\",\"examples\":[1]}",
     {"ref1-id ::= integer"}, {"{\"id\":5}"}, {"{\"id\":\"5\"}"}},
};

struct js_refusal {
    const char *schema;
    const char *msg; // substring of the message
};

static const struct js_refusal refusals[] = {
    {"{\"type\":\"object\",\"properties\":{\"age\":{\"type\":\"integer\",\"multipleOf\":3}}}", "/properties/age/multipleOf"},
    {"{\"type\":\"string\",\"pattern\":\"^(?=a)b$\"}", "lookahead"},
    {"{\"type\":\"string\",\"pattern\":\"(?<!a)b\"}", "lookbehind"},
    {"{\"type\":\"string\",\"pattern\":\"(a)\\\\1\"}", "backreference"},
    {"{\"type\":\"string\",\"format\":\"email\"}", "/format"},
    {"{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"number\"}]}", "/oneOf"},
    {"{\"type\":\"array\",\"uniqueItems\":true}", "/uniqueItems"},
    {"{\"items\":{\"not\":{}}}", "/items/not"},
    {"false", "false schema"},
    {"{\"properties\":{\"a\":{}},\"additionalProperties\":false,\"required\":[\"b\"]}", "/required"},
    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/a\"}},\"oneOf\":[{\"$ref\":\"#/$defs/a\"},{\"type\":\"null\"}]}", "/oneOf"},
    {"{\"type\":\"string\",\"minLength\":1,\"pattern\":\"a\"}", "/minLength"},
    {"{\"anyOf\":[{\"type\":\"string\"}],\"type\":\"string\"}", "/type"},
    {"{\"type\":\"string\",\"pattern\":\"a*?\"}", "/pattern"},
    {"{\"type\":\"string\",\"pattern\":\"a{3,2}\"}", "/pattern"},
    {"{\"$ref\":\"#\"}", "/$ref"},
    {"{\"$defs\":{\"a\":{\"anyOf\":[{\"type\":\"null\"},{\"$ref\":\"#/$defs/a\"}]}},\"$ref\":\"#/$defs/a\"}", "/$defs/a/anyOf/1/$ref"},
    {"{\"allOf\":[{\"properties\":5}]}", "/allOf/0/properties"},
    {"{\"type\":\"string\",\"pattern\":\"^\u00e9$\"}", "non-ASCII"},
    {"{\"type\":\"string\",\"pattern\":\"a(b\"}", "unbalanced"},
    {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\",\"format\":\"hostname\"}]}", "/anyOf/1/format"},
    {"{\"type\":\"array\",\"prefixItems\":[{\"type\":\"number\",\"maximum\":\"3\"}]}", "/prefixItems/0/maximum"},
    {"{\"type\":\"array\",\"prefixItems\":[{\"type\":\"number\",\"multipleOf\":3}]}", "/prefixItems/0/multipleOf"},
    {"{\"type\":\"integer\",\"minimum\":5,\"maximum\":2}", "/minimum"},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":9223372036854775807,\"maximum\":9223372036854775807}", "/exclusiveMinimum"},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":1.5,\"exclusiveMaximum\":2}", "empty range"},
    {"{\"type\":\"integer\",\"maximum\":1e19}", "/maximum"},
    {"{\"type\":\"integer\",\"minimum\":-1e19}", "64-bit"},
    {"{\"type\":\"number\",\"exclusiveMinimum\":1,\"maximum\":1}", "/exclusiveMinimum"},
    {"{\"type\":\"number\",\"minimum\":0.5,\"maximum\":0.25}", "empty range"},
    {"{\"type\":\"number\",\"maximum\":1e300}", "/maximum"},
    {"{\"type\":\"number\",\"minimum\":1e-70}", "/minimum"},
    {"{\"type\":\"number\",\"exclusiveMaximum\":\"1\"}", "/exclusiveMaximum"},
    {"{\"type\":\"integer\",\"minimum\":null}", "/minimum"},
    {"{\"type\":\"integer\",\"multipleOf\":3,\"minimum\":0}", "/multipleOf"},
    {"{\"type\":\"integer\",\"multipleOf\":2,\"minimum\":0,\"maximum\":2000}", "more than 1000"},
    {"{\"type\":\"integer\",\"multipleOf\":7,\"minimum\":1,\"maximum\":6}", "no multiple"},
    {"{\"type\":\"integer\",\"multipleOf\":0,\"minimum\":1,\"maximum\":6}", "positive"},
    {"{\"type\":\"number\",\"multipleOf\":2,\"minimum\":1,\"maximum\":6}", "/multipleOf"},
    {"{\"multipleOf\":2}", "/multipleOf"},
    {"{\"$defs\":{\"x\":{\"type\":\"object\",\"minProperties\":1}},\"$ref\":\"#/$defs/x\"}", "/$defs/x/minProperties"},
    {"{\"type\":\"object\",\"additionalProperties\":{\"contains\":{}}}", "/additionalProperties/contains"},
    {"{\"$ref\":\"https://example.com/s.json\"}", "/$ref"},
    {"{\"type\":\"object\",\"properties\":{\"a/b\":{\"if\":{}}}}", "/properties/a~1b/if"},
};

// ---- numeric bounds, checked exhaustively: accepted iff in range (and in the notation) -------
//
// The oracle reads a candidate as an exact decimal and compares it with the bounds as decimal
// strings, independently of the compiler. Integer grammars admit exactly the JSON integers
// without "-0"; bounded number grammars exactly the plain decimals (no exponent) that are not a
// negative zero.

struct tb_dec {
    int neg;
    char i[48], f[48]; // integer digits without leading zeros ("0"), fraction without trailing zeros
};

// Parses s as -?(0|[1-9][0-9]*)(.[0-9]+)? into d; 0 when s is not of that form.
static int tb_parse(const char *s, struct tb_dec *d) {
    memset(d, 0, sizeof *d);
    if (*s == '-') d->neg = 1, s++;
    if (!(*s >= '0' && *s <= '9') || (s[0] == '0' && s[1] >= '0' && s[1] <= '9')) return 0;
    size_t k = 0;
    while (*s >= '0' && *s <= '9')
        if (k < sizeof d->i - 1) d->i[k++] = *s++;
        else return 0;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9')) return 0;
        k = 0;
        while (*s >= '0' && *s <= '9')
            if (k < sizeof d->f - 1) d->f[k++] = *s++;
            else return 0;
        while (k && d->f[k - 1] == '0') d->f[--k] = 0;
    }
    return *s == 0;
}

static int tb_zero(const struct tb_dec *d) { return !strcmp(d->i, "0") && !d->f[0]; }

static int tb_cmp(const struct tb_dec *a, const struct tb_dec *b) {
    int an = a->neg && !tb_zero(a), bn = b->neg && !tb_zero(b);
    if (an != bn) return an ? -1 : 1;
    int r;
    size_t la = strlen(a->i), lb = strlen(b->i);
    if (la != lb) r = la < lb ? -1 : 1;
    else if (!(r = strcmp(a->i, b->i))) r = strcmp(a->f, b->f);
    r = (r > 0) - (r < 0);
    return an ? -r : r;
}

struct tb_check {
    const char *schema;
    int integer;            // the instance must be an integer
    const char *lo, *hi;    // the bounds as the oracle reads them (NULL: none)
    int lo_strict, hi_strict;
    int mul; // multipleOf, 0 for none
};

static const struct tb_check tb_checks[] = {
    {"{\"type\":\"integer\",\"minimum\":1}", 1, "1", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"maximum\":100}", 1, NULL, "100", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-5,\"maximum\":1000000}", 1, "-5", "1000000", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":0}", 1, "0", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"maximum\":0}", 1, NULL, "0", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-1}", 1, "-1", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":0}", 1, "0", NULL, 1, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMaximum\":0}", 1, NULL, "0", 0, 1, 0},
    {"{\"type\":\"integer\",\"minimum\":123}", 1, "123", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"maximum\":-123}", 1, NULL, "-123", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-1000,\"maximum\":-7}", 1, "-1000", "-7", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":7,\"maximum\":7}", 1, "7", "7", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":10,\"maximum\":99}", 1, "10", "99", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":9,\"maximum\":10}", 1, "9", "10", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":99,\"maximum\":1000}", 1, "99", "1000", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":19,\"maximum\":1234567}", 1, "19", "1234567", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-90,\"maximum\":90}", 1, "-90", "90", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":1.5}", 1, "1.5", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMaximum\":2.5}", 1, NULL, "2.5", 0, 1, 0},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":99.0}", 1, "99", NULL, 1, 0, 0},
    {"{\"type\":\"integer\",\"maximum\":-0.5}", 1, NULL, "-0.5", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":3,\"exclusiveMinimum\":3}", 1, "3", NULL, 1, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":5,\"exclusiveMinimum\":true,\"maximum\":9,\"exclusiveMaximum\":false}", 1, "5", "9", 1, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-9223372036854775808,\"maximum\":9223372036854775807}", 1,
     "-9223372036854775808", "9223372036854775807", 0, 0, 0},
    {"{\"type\":\"integer\",\"maximum\":9223372036854775807}", 1, NULL, "9223372036854775807", 0, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":-9223372036854775808}", 1, "-9223372036854775808", NULL, 0, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":9223372036854775806}", 1, "9223372036854775806", NULL, 1, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMaximum\":-9223372036854775807}", 1, NULL, "-9223372036854775807", 0, 1, 0},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":9223372036854775807}", 1, "9223372036854775807", NULL, 1, 0, 0},
    {"{\"type\":\"integer\",\"exclusiveMaximum\":-9223372036854775808}", 1, NULL, "-9223372036854775808", 0, 1, 0},
    {"{\"type\":\"integer\",\"exclusiveMinimum\":9223372036854775806,\"maximum\":9223372036854775807}", 1,
     "9223372036854775806", "9223372036854775807", 1, 0, 0},
    {"{\"type\":\"integer\",\"minimum\":1000000000000,\"maximum\":1000000000001}", 1, "1000000000000", "1000000000001", 0, 0, 0},
    {"{\"type\":\"integer\",\"multipleOf\":5,\"minimum\":-12,\"maximum\":12}", 1, "-12", "12", 0, 0, 5},
    {"{\"type\":\"integer\",\"multipleOf\":7,\"exclusiveMinimum\":-7,\"maximum\":6993}", 1, "-7", "6993", 1, 0, 7},
    {"{\"type\":\"integer\",\"multipleOf\":1,\"minimum\":3}", 1, "3", NULL, 0, 0, 1},
    {"{\"type\":\"number\",\"minimum\":0}", 0, "0", NULL, 0, 0, 0},
    {"{\"type\":\"number\",\"exclusiveMinimum\":0}", 0, "0", NULL, 1, 0, 0},
    {"{\"type\":\"number\",\"maximum\":100}", 0, NULL, "100", 0, 0, 0},
    {"{\"type\":\"number\",\"exclusiveMaximum\":0}", 0, NULL, "0", 0, 1, 0},
    {"{\"type\":\"number\",\"maximum\":0}", 0, NULL, "0", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":-1.5}", 0, "-1.5", NULL, 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":-1.5,\"maximum\":2.25}", 0, "-1.5", "2.25", 0, 0, 0},
    {"{\"type\":\"number\",\"exclusiveMinimum\":-1,\"exclusiveMaximum\":1}", 0, "-1", "1", 1, 1, 0},
    {"{\"type\":\"number\",\"minimum\":0.5}", 0, "0.5", NULL, 0, 0, 0},
    {"{\"type\":\"number\",\"maximum\":0.001}", 0, NULL, "0.001", 0, 0, 0},
    {"{\"type\":\"number\",\"exclusiveMinimum\":0.001}", 0, "0.001", NULL, 1, 0, 0},
    {"{\"type\":\"number\",\"maximum\":-0.25}", 0, NULL, "-0.25", 0, 0, 0},
    {"{\"type\":\"number\",\"exclusiveMaximum\":-0.25}", 0, NULL, "-0.25", 0, 1, 0},
    {"{\"type\":\"number\",\"minimum\":0.1,\"maximum\":0.2}", 0, "0.1", "0.2", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":0.12,\"exclusiveMaximum\":0.125}", 0, "0.12", "0.125", 0, 1, 0},
    {"{\"type\":\"number\",\"minimum\":3,\"maximum\":3}", 0, "3", "3", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":99.99,\"maximum\":100.01}", 0, "99.99", "100.01", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":1e-3,\"maximum\":12345.678}", 0, "0.001", "12345.678", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":-5,\"maximum\":1000000}", 0, "-5", "1000000", 0, 0, 0},
    {"{\"type\":\"number\",\"minimum\":-1000.5,\"exclusiveMaximum\":-999}", 0, "-1000.5", "-999", 0, 1, 0},
    {"{\"type\":\"number\",\"maximum\":10,\"exclusiveMaximum\":true}", 0, NULL, "10", 0, 1, 0},
    {"{\"type\":\"number\",\"minimum\":2,\"exclusiveMinimum\":2.5,\"maximum\":7,\"exclusiveMaximum\":7}", 0, "2.5", "7", 1, 1, 0},
    {"{\"type\":[\"number\",\"null\"],\"minimum\":-0.0,\"maximum\":1e3}", 0, "0", "1000", 0, 0, 0},
};

static int tb_expect(const struct tb_check *k, const char *s) {
    struct tb_dec d, b;
    if (!tb_parse(s, &d)) return 0;
    if (d.neg && tb_zero(&d)) return 0; // no negative zero
    if (k->integer && d.f[0]) return 0;
    if (k->integer && strchr(s, '.')) return 0; // "3.0" is an integer to JSON Schema, not produced
    if (k->mul) {
        long long v = strtoll(s, NULL, 10);
        if (v % k->mul) return 0;
    }
    if (k->lo) {
        tb_parse(k->lo, &b);
        int r = tb_cmp(&d, &b);
        if (r < 0 || (r == 0 && k->lo_strict)) return 0;
    }
    if (k->hi) {
        tb_parse(k->hi, &b);
        int r = tb_cmp(&d, &b);
        if (r > 0 || (r == 0 && k->hi_strict)) return 0;
    }
    return 1;
}

// v / 10^6 written out: with the fraction's trailing zeros cut (pad 0) or kept to 6 digits.
static void tb_print(__int128 v, int pad, char *out) {
    char digits[64];
    int n = 0, neg = v < 0;
    unsigned __int128 m = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    do digits[n++] = (char)('0' + (int)(m % 10)), m /= 10;
    while (m);
    while (n < 7) digits[n++] = '0';
    char *o = out;
    if (neg) *o++ = '-';
    for (int i = n - 1; i >= 6; i--) *o++ = digits[i];
    int last = 0; // the lowest fraction digit kept
    if (!pad)
        while (last < 6 && digits[last] == '0') last++;
    if (last < 6) {
        *o++ = '.';
        for (int i = 5; i >= last; i--) *o++ = digits[i];
    }
    *o = 0;
}

static __int128 tb_scaled(const char *s) {
    struct tb_dec d;
    tb_parse(s, &d);
    __int128 v = 0;
    for (const char *q = d.i; *q; q++) v = v * 10 + (*q - '0');
    for (int i = 0; i < 6; i++) v = v * 10 + (d.f[i] && i < (int)strlen(d.f) ? d.f[i] - '0' : 0);
    return d.neg ? -v : v;
}

static uint64_t tb_rng = 88172645463325252ull;
static uint64_t tb_next(void) {
    tb_rng ^= tb_rng << 13, tb_rng ^= tb_rng >> 7, tb_rng ^= tb_rng << 17;
    return tb_rng;
}

static void tb_run(const struct tb_check *k) {
    json_t *s = json_loads(k->schema, JSON_DECODE_ANY, NULL);
    char *g = NULL;
    frink_status st = jsonschema_to_gbnf(s, &g);
    json_decref(s);
    CHECK(st == FRINK_OK, "%s: %s", k->schema, frink_errmsg());
    if (st != FRINK_OK) return;
    CHECK(k->mul || strlen(g) < 4000 + strlen(jsonschema_base_rules(0)), "%s: a grammar of %zu bytes", k->schema, strlen(g));
    struct gm m;
    int parsed = gm_parse(&m, g);
    CHECK(parsed, "%s: the matcher cannot parse\n%s", k->schema, g);
    if (!parsed) return free(g);
    int tried = 0, wrong = 0, in = 0;
    char buf[96];
    // Around every bound and a few landmarks, by steps from 10^-6 to 10^12, in both spellings.
    static const long long steps[] = {0, 1, 2, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 9999, 10000, 10001, 99999, 100000,
                                      100001, 499999, 500000, 500001, 999999, 1000000, 1000001, 1500000, 2000000, 5000000,
                                      9000000, 10000000, 11000000, 99000000, 100000000, 1000000000, 10000000000LL,
                                      1000000000000LL, 1000000000000000LL, 1000000000000000000LL};
    const char *anchors[] = {k->lo ? k->lo : "0", k->hi ? k->hi : "0", "0", "1", "-1", "10", "-10", "123456"};
    for (size_t a = 0; a < sizeof anchors / sizeof anchors[0]; a++) {
        __int128 base = tb_scaled(anchors[a]);
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
            for (int sign = -1; sign <= 1; sign += 2)
                for (int pad = 0; pad < 2; pad++) {
                    __int128 v = base + sign * (__int128)steps[i];
                    if (k->integer) v -= v % 1000000; // whole numbers only matter, nearby ones too
                    for (int up = 0; up < (k->integer ? 2 : 1); up++) {
                        tb_print(v + up * 1000000, pad, buf);
                        int want = tb_expect(k, buf), got = gm_accepts(&m, buf);
                        tried++, in += want;
                        if (got != want && wrong++ < 5) fprintf(stderr, "  %s: %s: expected %d, got %d\n", k->schema, buf, want, got);
                    }
                }
    }
    // Random plain decimals of every size, and malformed spellings.
    for (int r = 0; r < 1500; r++) {
        int n = r < 750 ? 1 + (int)(tb_next() % 20) : 1 + (int)(tb_next() % 4), f = (int)(tb_next() % 5);
        char *o = buf;
        if (tb_next() % 2) *o++ = '-';
        for (int i = 0; i < n; i++) *o++ = (char)('0' + (int)(tb_next() % 10));
        if (f && !k->integer) *o++ = '.';
        for (int i = 0; i < f && !k->integer; i++) *o++ = (char)('0' + (int)(tb_next() % 10));
        *o = 0;
        int want = tb_expect(k, buf), got = gm_accepts(&m, buf);
        tried++, in += want;
        if (got != want && wrong++ < 5) fprintf(stderr, "  %s: %s: expected %d, got %d\n", k->schema, buf, want, got);
    }
    static const char *const junk[] = {"", "-", ".5", "1.", "01", "-0", "-0.0", "-0.000", "00", "1e2", "1E2", "+1", "1.5e0",
                                       "0.0", "--1", " 1", "1 1", "0x10", "Infinity", "NaN", "-01", "1.0", "100.", "7 7"};
    for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
        int want = tb_expect(k, junk[j]), got = gm_accepts(&m, junk[j]);
        tried++, in += want;
        if (got != want && wrong++ < 5) fprintf(stderr, "  %s: '%s': expected %d, got %d\n", k->schema, junk[j], want, got);
    }
    CHECK(wrong == 0, "%s: %d of %d candidates misjudged\n%s", k->schema, wrong, tried, g);
    CHECK(in > 0, "%s: no candidate in range", k->schema);
    gm_free(&m);
    free(g);
}

int main(void) {
    size_t nc = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < nc; i++) {
        const struct js_case *k = &cases[i];
        json_error_t je;
        json_t *s = json_loads(k->schema, JSON_DECODE_ANY, &je);
        CHECK(s != NULL, "case %zu: schema does not parse: %s", i, je.text);
        if (!s) continue;
        char *g = NULL;
        frink_status st = jsonschema_to_gbnf(s, &g);
        json_decref(s);
        CHECK(st == FRINK_OK && g, "case %zu: %s: %s", i, k->schema, frink_errmsg());
        if (st != FRINK_OK) continue;
        for (int j = 0; j < 4 && k->shapes[j]; j++) CHECK(strstr(g, k->shapes[j]), "case %zu: no %s in\n%s", i, k->shapes[j], g);
        struct gm m;
        int parsed = gm_parse(&m, g);
        CHECK(parsed, "case %zu: the matcher cannot parse\n%s", i, g);
        if (parsed) {
            for (int j = 0; j < 8 && k->good[j]; j++)
                CHECK(gm_accepts(&m, k->good[j]) == 1, "case %zu: %s rejects %s\n%s", i, k->schema, k->good[j], g);
            for (int j = 0; j < 12 && k->bad[j]; j++)
                CHECK(gm_accepts(&m, k->bad[j]) == 0, "case %zu: %s accepts %s\n%s", i, k->schema, k->bad[j], g);
        }
        gm_free(&m);
        free(g);
    }
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        json_t *s = json_loads(refusals[i].schema, JSON_DECODE_ANY, NULL);
        char *g = (char *)1;
        frink_status st = jsonschema_to_gbnf(s, &g);
        json_decref(s);
        CHECK(st == FRINK_ERR_UNSUPPORTED && g == NULL, "refusal %zu: %s: status %d", i, refusals[i].schema, (int)st);
        CHECK(strstr(frink_errmsg(), refusals[i].msg), "refusal %zu: message '%s' lacks '%s'", i, frink_errmsg(), refusals[i].msg);
    }
    for (size_t i = 0; i < sizeof tb_checks / sizeof tb_checks[0]; i++) tb_run(&tb_checks[i]);
    return TEST_DONE();
}
