// grammar.c — GBNF parser (to a flattened rule table) and the stack-set matcher (grammar.h).
//
// The parsed grammar is flat: `elem` holds every alternative as a run of elements ended by
// GE_END; a rule is a list of alternative start positions. Groups, repetitions and multi-
// element repeated items become synthetic rules, as llama.cpp does:
//   x*      R ::= x R |
//   x+      x R           (R as for x*)
//   x?      R ::= x |
//   x{m,n}  x...x (m times) R(n-m), R(k) ::= x R(k-1) |, R(1) ::= x |
//   x{m,}   x...x (m times) R       (R as for x*)
#include "grammar/grammar.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

enum { GE_END, GE_CHAR, GE_REF };

struct gelem {
    uint8_t kind;
    uint8_t neg;  // GE_CHAR: the class is negated
    uint32_t a;   // GE_CHAR: first range in `ranges`; GE_REF: the rule
    uint32_t b;   // GE_CHAR: number of ranges
};

struct grammar {
    struct gelem *elem;  // [n_elem] every alternative, each ended by GE_END
    uint32_t *ranges;    // [n_ranges][2] inclusive code point ranges of classes
    uint32_t *alt;       // [n_alt] start position in elem of each alternative
    uint32_t *rule_alt;  // [n_rule + 1] rule r's alternatives are alt[rule_alt[r] .. rule_alt[r+1])
    char **names;        // [n_rule]
    uint32_t n_elem, n_ranges, n_alt, n_rule, root;
};

// ---- Parse-time structures ----

struct seq {
    struct gelem *v;
    size_t n, cap;
};

struct prule {
    char *name;
    struct seq *alts;
    size_t n_alts, cap_alts;
    bool defined;
    size_t use_off;  // first reference, for "undefined rule" messages
    int origin;      // synthetic: the named rule it came from; -1 for a named rule
    bool repeat;     // synthetic rule of a * + {m,} repetition
};

struct parser {
    const char *s;
    size_t len, pos;
    struct prule *rules;
    size_t n_rules, cap_rules;
    uint32_t *ranges;
    size_t n_ranges, cap_ranges;
    int cur_rule;  // the named rule being parsed
    int depth;     // parentheses open
    bool nomem;
    bool toobig;  // with nomem: past GRAMMAR_MAX_RULES
};

static bool grow(void **p, size_t *cap, size_t need, size_t sz) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * sz);
    if (!q) return false;
    *p = q, *cap = c;
    return true;
}

// Line and column (1-based, columns in characters) of byte offset `off`.
static void line_col(const struct parser *p, size_t off, int *line, int *col) {
    *line = 1, *col = 1;
    for (size_t i = 0; i < off && i < p->len; i++) {
        if (p->s[i] == '\n') ++*line, *col = 1;
        else if (((unsigned char)p->s[i] & 0xC0) != 0x80) ++*col;
    }
}

static frink_status perr(struct parser *p, size_t off, const char *what) {
    int line, col;
    line_col(p, off, &line, &col);
    return frink_fail(FRINK_ERR_FORMAT, "grammar: line %d, column %d: expected %s", line, col, what);
}

static bool seq_push(struct parser *p, struct seq *q, struct gelem e) {
    if (!grow((void **)&q->v, &q->cap, q->n + 1, sizeof *q->v)) return p->nomem = true, false;
    q->v[q->n++] = e;
    return true;
}

static bool seq_append(struct parser *p, struct seq *q, const struct gelem *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!seq_push(p, q, v[i])) return false;
    return true;
}

// A new rule (name NULL: synthetic); -1 when out of memory.
static int rule_new(struct parser *p, const char *name, size_t nlen) {
    if (p->n_rules >= GRAMMAR_MAX_RULES) return p->toobig = p->nomem = true, -1;
    if (!grow((void **)&p->rules, &p->cap_rules, p->n_rules + 1, sizeof *p->rules)) return p->nomem = true, -1;
    struct prule *r = &p->rules[p->n_rules];
    memset(r, 0, sizeof *r);
    r->origin = name ? -1 : p->cur_rule;
    r->name = malloc(name ? nlen + 1 : 32);
    if (!r->name) return p->nomem = true, -1;
    if (name) memcpy(r->name, name, nlen), r->name[nlen] = 0;
    else snprintf(r->name, 32, "%s_%zu", "rule", p->n_rules);
    return (int)p->n_rules++;
}

static int rule_find(struct parser *p, const char *name, size_t nlen) {
    for (size_t i = 0; i < p->n_rules; i++)
        if (p->rules[i].origin < 0 && strlen(p->rules[i].name) == nlen && !memcmp(p->rules[i].name, name, nlen))
            return (int)i;
    return rule_new(p, name, nlen);
}

static struct seq *rule_add_alt(struct parser *p, int r) {
    struct prule *ru = &p->rules[r];
    if (!grow((void **)&ru->alts, &ru->cap_alts, ru->n_alts + 1, sizeof *ru->alts)) return p->nomem = true, NULL;
    struct seq *q = &ru->alts[ru->n_alts++];
    memset(q, 0, sizeof *q);
    return q;
}

static bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// Skips blanks and comments; newlines too when `nl`.
static void skip_space(struct parser *p, bool nl) {
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == '#') {
            while (p->pos < p->len && p->s[p->pos] != '\n') p->pos++;
        } else if (c == ' ' || c == '\t' || (nl && (c == '\n' || c == '\r'))) {
            p->pos++;
        } else {
            break;
        }
    }
}

// Decodes one UTF-8 character at p->pos into *cp; false if invalid.
static bool decode_utf8(struct parser *p, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)p->s + p->pos;
    size_t left = p->len - p->pos;
    int n = u[0] < 0x80 ? 1 : u[0] >= 0xC2 && u[0] < 0xE0 ? 2 : u[0] >= 0xE0 && u[0] < 0xF0 ? 3 : u[0] >= 0xF0 && u[0] < 0xF5 ? 4 : 0;
    if (!n || (size_t)n > left) return false;
    uint32_t c = n == 1 ? u[0] : u[0] & (0x3F >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) return false;
        c = c << 6 | (u[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c < 0xE000)) return false;
    p->pos += (size_t)n;
    *cp = c;
    return true;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// One character of a literal or class, escapes decoded.
static frink_status parse_char(struct parser *p, uint32_t *cp) {
    if (p->pos >= p->len) return perr(p, p->pos, "a character");
    if (p->s[p->pos] != '\\') {
        if (!decode_utf8(p, cp)) return perr(p, p->pos, "valid UTF-8");
        return FRINK_OK;
    }
    size_t at = p->pos++;
    if (p->pos >= p->len) return perr(p, p->pos, "an escape");
    char c = p->s[p->pos++];
    int nhex = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (nhex) {
        uint32_t v = 0;
        for (int i = 0; i < nhex; i++) {
            int h = p->pos < p->len ? hexval(p->s[p->pos]) : -1;
            if (h < 0) return perr(p, p->pos, "a hex digit");
            v = v << 4 | (uint32_t)h, p->pos++;
        }
        if (v > 0x10FFFF) return perr(p, at, "a code point up to U+10FFFF");
        *cp = v;
        return FRINK_OK;
    }
    switch (c) {
    case 'n': *cp = '\n'; break;
    case 't': *cp = '\t'; break;
    case 'r': *cp = '\r'; break;
    case '\\': *cp = '\\'; break;
    case '"': *cp = '"'; break;
    case '[': *cp = '['; break;
    case ']': *cp = ']'; break;
    case '-': *cp = '-'; break;
    case '^': *cp = '^'; break;
    default: return perr(p, at, "a known escape");
    }
    return FRINK_OK;
}

static bool range_push(struct parser *p, uint32_t lo, uint32_t hi) {
    if (!grow((void **)&p->ranges, &p->cap_ranges, 2 * (p->n_ranges + 1), sizeof *p->ranges)) return p->nomem = true, false;
    p->ranges[2 * p->n_ranges] = lo, p->ranges[2 * p->n_ranges + 1] = hi;
    p->n_ranges++;
    return true;
}

static struct gelem char_elem(struct parser *p, uint32_t lo, uint32_t hi, bool neg) {
    struct gelem e = {GE_CHAR, neg, (uint32_t)p->n_ranges, 1};
    if (!range_push(p, lo, hi)) e.b = 0;
    return e;
}

static frink_status parse_alternates(struct parser *p, int rule, bool nested);

#define CHECKMEM(p)                                                                                    \
    if ((p)->nomem)                                                                                    \
    return (p)->toobig ? frink_fail(FRINK_ERR_FORMAT, "grammar: more than %d rules after expansion", GRAMMAR_MAX_RULES) \
                       : frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory")

// Parses an unsigned decimal; false if none.
static bool parse_uint(struct parser *p, unsigned *v) {
    size_t st = p->pos;
    unsigned long x = 0;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
        x = x * 10 + (unsigned)(p->s[p->pos++] - '0');
        if (x > 100000000) x = 100000000;
    }
    *v = (unsigned)x;
    return p->pos > st;
}

// Appends item[0..n) repeated {lo, hi} (hi UINT32_MAX: unbounded) to q.
static frink_status repeat_item(struct parser *p, struct seq *q, const struct gelem *item, size_t n, unsigned lo, unsigned hi) {
    struct gelem one;
    if (n != 1) {  // a multi-element item (a literal) becomes its own rule
        int r = rule_new(p, NULL, 0);
        CHECKMEM(p);
        struct seq *a = rule_add_alt(p, r);
        CHECKMEM(p);
        seq_append(p, a, item, n);
        CHECKMEM(p);
        one = (struct gelem){GE_REF, 0, (uint32_t)r, 0};
        item = &one, n = 1;
    } else {
        one = item[0], item = &one;
    }
    for (unsigned i = 0; i < lo; i++) seq_push(p, q, one);
    CHECKMEM(p);
    if (hi == UINT32_MAX) {
        int r = rule_new(p, NULL, 0);
        CHECKMEM(p);
        p->rules[r].repeat = true;
        struct seq *a = rule_add_alt(p, r);
        CHECKMEM(p);
        seq_push(p, a, one), seq_push(p, a, (struct gelem){GE_REF, 0, (uint32_t)r, 0});
        rule_add_alt(p, r);
        CHECKMEM(p);
        seq_push(p, q, (struct gelem){GE_REF, 0, (uint32_t)r, 0});
    } else if (hi > lo) {
        int prev = -1;
        for (unsigned k = 1; k <= hi - lo; k++) {
            int r = rule_new(p, NULL, 0);
            CHECKMEM(p);
            struct seq *a = rule_add_alt(p, r);
            CHECKMEM(p);
            seq_push(p, a, one);
            if (prev >= 0) seq_push(p, a, (struct gelem){GE_REF, 0, (uint32_t)prev, 0});
            rule_add_alt(p, r);
            CHECKMEM(p);
            prev = r;
        }
        seq_push(p, q, (struct gelem){GE_REF, 0, (uint32_t)prev, 0});
    }
    CHECKMEM(p);
    return FRINK_OK;
}

// One sequence of items into q, up to '|', ')', a newline (top level) or the end.
static frink_status parse_sequence(struct parser *p, struct seq *q, bool nested) {
    for (;;) {
        skip_space(p, nested);
        if (p->pos >= p->len) return FRINK_OK;
        char c = p->s[p->pos];
        size_t item_start = q->n;  // the last item is q->v[item_start .. q->n)
        frink_status st;
        if (c == '"') {
            p->pos++;
            while (p->pos < p->len && p->s[p->pos] != '"') {
                uint32_t cp;
                if ((st = parse_char(p, &cp))) return st;
                seq_push(p, q, char_elem(p, cp, cp, false));
                CHECKMEM(p);
            }
            if (p->pos >= p->len) return perr(p, p->pos, "'\"'");
            p->pos++;
        } else if (c == '[') {
            p->pos++;
            bool neg = p->pos < p->len && p->s[p->pos] == '^';
            if (neg) p->pos++;
            struct gelem e = {GE_CHAR, neg, (uint32_t)p->n_ranges, 0};
            while (p->pos < p->len && p->s[p->pos] != ']') {
                uint32_t lo, hi;
                if ((st = parse_char(p, &lo))) return st;
                hi = lo;
                if (p->pos + 1 < p->len && p->s[p->pos] == '-' && p->s[p->pos + 1] != ']') {
                    p->pos++;
                    if ((st = parse_char(p, &hi))) return st;
                    if (hi < lo) return perr(p, p->pos, "a range whose end is not below its start");
                }
                range_push(p, lo, hi);
                CHECKMEM(p);
                e.b++;
            }
            if (p->pos >= p->len) return perr(p, p->pos, "']'");
            p->pos++;
            seq_push(p, q, e);
            CHECKMEM(p);
        } else if (c == '.') {
            p->pos++;
            seq_push(p, q, char_elem(p, 0, 0x10FFFF, false));
            CHECKMEM(p);
        } else if (is_name_char(c)) {
            size_t st0 = p->pos;
            while (p->pos < p->len && is_name_char(p->s[p->pos])) p->pos++;
            int r = rule_find(p, p->s + st0, p->pos - st0);
            CHECKMEM(p);
            if (!p->rules[r].defined && !p->rules[r].use_off) p->rules[r].use_off = st0 + 1;
            seq_push(p, q, (struct gelem){GE_REF, 0, (uint32_t)r, 0});
            CHECKMEM(p);
        } else if (c == '(') {
            if (p->depth >= 256) return perr(p, p->pos, "at most 256 nested parentheses");
            p->pos++;
            int r = rule_new(p, NULL, 0);
            CHECKMEM(p);
            p->depth++;
            st = parse_alternates(p, r, true);
            p->depth--;
            if (st) return st;
            if (p->pos >= p->len || p->s[p->pos] != ')') return perr(p, p->pos, "')'");
            p->pos++;
            seq_push(p, q, (struct gelem){GE_REF, 0, (uint32_t)r, 0});
            CHECKMEM(p);
        } else {
            return FRINK_OK;  // '|', ')', newline, or something the caller judges
        }
        // Postfix repetition of the item just parsed.
        skip_space(p, nested);
        if (p->pos < p->len && strchr("*+?{", p->s[p->pos]) && p->s[p->pos]) {
            char op = p->s[p->pos];
            size_t op_at = p->pos++;
            unsigned lo = 0, hi = UINT32_MAX;
            if (op == '+') lo = 1;
            else if (op == '?') hi = 1;
            else if (op == '{') {
                skip_space(p, nested);
                if (!parse_uint(p, &lo)) return perr(p, p->pos, "a number");
                skip_space(p, nested);
                if (p->pos < p->len && p->s[p->pos] == ',') {
                    p->pos++;
                    skip_space(p, nested);
                    if (!parse_uint(p, &hi)) hi = UINT32_MAX;
                    skip_space(p, nested);
                } else {
                    hi = lo;
                }
                if (p->pos >= p->len || p->s[p->pos] != '}') return perr(p, p->pos, "'}'");
                p->pos++;
                if (lo > GRAMMAR_MAX_REPEAT || (hi != UINT32_MAX && hi > GRAMMAR_MAX_REPEAT))
                    return perr(p, op_at, "a repetition count up to 1000");
                if (hi < lo) return perr(p, op_at, "a repetition {m,n} with m <= n");
            }
            size_t n = q->n - item_start;
            struct gelem *item = malloc((n + 1) * sizeof *item);  // n is 0 for ""
            if (!item) return frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
            if (n) memcpy(item, q->v + item_start, n * sizeof *item);
            q->n = item_start;
            st = repeat_item(p, q, item, n, lo, hi);
            free(item);
            if (st) return st;
        }
    }
}

static frink_status parse_alternates(struct parser *p, int rule, bool nested) {
    for (;;) {
        struct seq *q = rule_add_alt(p, rule);
        CHECKMEM(p);
        // q may move when rules grow: parse into a local sequence, then store it.
        struct seq tmp = {0};
        frink_status st = parse_sequence(p, &tmp, nested);
        q = &p->rules[rule].alts[p->rules[rule].n_alts - 1];
        *q = tmp;
        if (st) return st;
        if (p->pos < p->len && p->s[p->pos] == '|') {
            p->pos++;
            skip_space(p, true);
            continue;
        }
        return FRINK_OK;
    }
}

static frink_status parse_rules(struct parser *p) {
    skip_space(p, true);
    while (p->pos < p->len) {
        size_t st0 = p->pos;
        while (p->pos < p->len && is_name_char(p->s[p->pos])) p->pos++;
        if (p->pos == st0) return perr(p, p->pos, "a rule name");
        int r = rule_find(p, p->s + st0, p->pos - st0);
        CHECKMEM(p);
        if (p->rules[r].defined) return frink_fail(FRINK_ERR_FORMAT, "grammar: rule '%s' defined twice", p->rules[r].name);
        p->rules[r].defined = true;
        p->cur_rule = r;
        skip_space(p, false);
        if (p->len - p->pos < 3 || memcmp(p->s + p->pos, "::=", 3)) return perr(p, p->pos, "'::='");
        p->pos += 3;
        skip_space(p, true);
        frink_status st = parse_alternates(p, r, false);
        if (st) return st;
        if (p->pos < p->len && p->s[p->pos] == '\r') p->pos++;
        if (p->pos < p->len && p->s[p->pos] != '\n') return perr(p, p->pos, "a newline or the end");
        skip_space(p, true);
    }
    return FRINK_OK;
}

// ---- Checks: undefined rules, left recursion ----

static bool alt_nullable(const struct seq *q, const bool *nullable, const struct parser *p) {
    for (size_t i = 0; i < q->n; i++)
        if (q->v[i].kind == GE_CHAR || !nullable[q->v[i].a]) return false;
    (void)p;
    return true;
}

// Depth-first search for a cycle of rules each reachable from the previous through a nullable
// prefix; returns the rule on the cycle, or -1. color: 0 new, 1 on the path, 2 done.
static int left_cycle(const struct parser *p, const bool *nullable, uint8_t *color, uint32_t r) {
    color[r] = 1;
    const struct prule *ru = &p->rules[r];
    for (size_t a = 0; a < ru->n_alts; a++) {
        const struct seq *q = &ru->alts[a];
        for (size_t i = 0; i < q->n && q->v[i].kind == GE_REF; i++) {
            uint32_t s = q->v[i].a;
            if (color[s] == 1) return (int)s;
            if (color[s] == 0) {
                int c = left_cycle(p, nullable, color, s);
                if (c >= 0) return c;
            }
            if (!nullable[s]) break;
        }
    }
    color[r] = 2;
    return -1;
}

static frink_status check_rules(struct parser *p) {
    for (size_t r = 0; r < p->n_rules; r++)
        if (p->rules[r].origin < 0 && !p->rules[r].defined) {
            int line, col;
            line_col(p, p->rules[r].use_off - 1, &line, &col);
            return frink_fail(FRINK_ERR_FORMAT, "grammar: line %d, column %d: undefined rule '%s'", line, col, p->rules[r].name);
        }
    bool *nullable = calloc(p->n_rules, 1);
    uint8_t *color = calloc(p->n_rules, 1);
    if (!nullable || !color) return free(nullable), free(color), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t r = 0; r < p->n_rules; r++) {
            if (nullable[r]) continue;
            for (size_t a = 0; a < p->rules[r].n_alts; a++)
                if (alt_nullable(&p->rules[r].alts[a], nullable, p)) {
                    nullable[r] = changed = true;
                    break;
                }
        }
    }
    int cyc = -1;
    for (size_t r = 0; r < p->n_rules && cyc < 0; r++)
        if (!color[r]) cyc = left_cycle(p, nullable, color, (uint32_t)r);
    free(nullable), free(color);
    if (cyc >= 0) {
        const struct prule *ru = &p->rules[cyc];
        const char *named = ru->origin >= 0 ? p->rules[ru->origin].name : ru->name;
        if (ru->repeat) return frink_fail(FRINK_ERR_FORMAT, "grammar: rule '%s': a repeated element can match the empty string", named);
        return frink_fail(FRINK_ERR_FORMAT, "grammar: left recursion in rule '%s'", named);
    }
    return FRINK_OK;
}

static void parser_free(struct parser *p) {
    for (size_t r = 0; r < p->n_rules; r++) {
        for (size_t a = 0; a < p->rules[r].n_alts; a++) free(p->rules[r].alts[a].v);
        free(p->rules[r].alts);
        free(p->rules[r].name);
    }
    free(p->rules);
    free(p->ranges);
}

void grammar_free(struct grammar *g) {
    if (!g) return;
    for (uint32_t r = 0; r < g->n_rule; r++) free(g->names[r]);
    free(g->names), free(g->elem), free(g->ranges), free(g->alt), free(g->rule_alt);
    free(g);
}

frink_status grammar_parse(const char *src, size_t len, const char *root, struct grammar **out) {
    *out = NULL;
    if (!root) root = "root";
    struct parser p = {.s = src, .len = len, .cur_rule = -1};
    frink_status st = parse_rules(&p);
    if (!st) st = check_rules(&p);
    int root_id = -1;
    if (!st) {
        for (size_t r = 0; r < p.n_rules; r++)
            if (p.rules[r].origin < 0 && !strcmp(p.rules[r].name, root)) root_id = (int)r;
        if (root_id < 0) st = frink_fail(FRINK_ERR_FORMAT, "grammar: no start rule '%s'", root);
    }
    struct grammar *g = NULL;
    if (!st) {
        size_t n_elem = 0, n_alt = 0;
        for (size_t r = 0; r < p.n_rules; r++) {
            n_alt += p.rules[r].n_alts;
            for (size_t a = 0; a < p.rules[r].n_alts; a++) n_elem += p.rules[r].alts[a].n + 1;
        }
        g = calloc(1, sizeof *g);
        if (g) {
            g->elem = malloc((n_elem + 1) * sizeof *g->elem);
            g->ranges = malloc((2 * p.n_ranges + 1) * sizeof *g->ranges);
            g->alt = malloc((n_alt + 1) * sizeof *g->alt);
            g->rule_alt = malloc((p.n_rules + 1) * sizeof *g->rule_alt);
            g->names = calloc(p.n_rules + 1, sizeof *g->names);
        }
        if (!g || !g->elem || !g->ranges || !g->alt || !g->rule_alt || !g->names) {
            grammar_free(g), g = NULL;
            st = frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
        } else {
            g->n_rule = (uint32_t)p.n_rules, g->root = (uint32_t)root_id, g->n_ranges = (uint32_t)p.n_ranges;
            if (p.n_ranges) memcpy(g->ranges, p.ranges, 2 * p.n_ranges * sizeof *g->ranges);
            size_t e = 0, al = 0;
            for (size_t r = 0; r < p.n_rules; r++) {
                g->rule_alt[r] = (uint32_t)al;
                g->names[r] = p.rules[r].name, p.rules[r].name = NULL;
                for (size_t a = 0; a < p.rules[r].n_alts; a++) {
                    g->alt[al++] = (uint32_t)e;
                    const struct seq *q = &p.rules[r].alts[a];
                    if (q->n) memcpy(g->elem + e, q->v, q->n * sizeof *q->v);
                    e += q->n;
                    g->elem[e++] = (struct gelem){GE_END, 0, 0, 0};
                }
            }
            g->rule_alt[p.n_rules] = (uint32_t)al;
            g->n_elem = (uint32_t)e, g->n_alt = (uint32_t)al;
        }
    }
    parser_free(&p);
    if (!st) *out = g;
    return st;
}

// ---- Matcher ----
//
// A stack set: the stacks lie end to end in `pool`, stack i at pool[st[i].off .. +st[i].len),
// its top last. `ht` is an open-addressing table of stack indices + 1 for deduplication.

struct stk {
    uint32_t off, len;
};

struct sset {
    uint32_t *pool;
    size_t pool_n, pool_cap;
    struct stk *st;
    size_t n, cap;
    uint32_t *ht;
    size_t ht_cap;  // 0 or a power of two
};

struct grammar_state {
    const struct grammar *g;
    struct sset set;
    uint32_t cp;    // the partial character's bits so far
    uint8_t need;   // continuation bytes it still needs
    uint8_t total;  // its length in bytes
};

// Scratch for one expansion: the stack being built, and the limits.
struct expander {
    const struct grammar *g;
    struct sset *out;
    uint32_t stk[GRAMMAR_MAX_DEPTH + 1];
    size_t steps, depth;
    bool overflow, nomem;
};

#define GRAMMAR_MAX_STEPS (1u << 20)  // expansion steps per advanced character
#define GRAMMAR_MAX_NEST 8192         // rule references expanded in one chain without a character

static uint32_t stk_hash(const uint32_t *v, size_t n) {
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (size_t i = 0; i < n; i++) h = (h ^ v[i]) * 16777619u;
    return h;
}

static void sset_free(struct sset *s) {
    free(s->pool), free(s->st), free(s->ht);
    memset(s, 0, sizeof *s);
}

static bool sset_rehash(struct sset *s, size_t cap) {
    uint32_t *ht = calloc(cap, sizeof *ht);
    if (!ht) return false;
    for (size_t i = 0; i < s->n; i++) {
        size_t h = stk_hash(s->pool + s->st[i].off, s->st[i].len) & (cap - 1);
        while (ht[h]) h = (h + 1) & (cap - 1);
        ht[h] = (uint32_t)i + 1;
    }
    free(s->ht);
    s->ht = ht, s->ht_cap = cap;
    return true;
}

static void sset_add(struct expander *x, const uint32_t *v, size_t n) {
    struct sset *s = x->out;
    if (s->ht_cap < 2 * (s->n + 1) && !sset_rehash(s, s->ht_cap ? 2 * s->ht_cap : 64)) {
        x->nomem = true;
        return;
    }
    size_t h = stk_hash(v, n) & (s->ht_cap - 1);
    for (; s->ht[h]; h = (h + 1) & (s->ht_cap - 1)) {
        const struct stk *t = &s->st[s->ht[h] - 1];
        if (t->len == n && !memcmp(s->pool + t->off, v, n * sizeof *v)) return;
    }
    if (s->n >= GRAMMAR_MAX_STACKS) {
        x->overflow = true;
        return;
    }
    if (!grow((void **)&s->pool, &s->pool_cap, s->pool_n + n + 1, sizeof *s->pool) ||
        !grow((void **)&s->st, &s->cap, s->n + 1, sizeof *s->st)) {
        x->nomem = true;
        return;
    }
    if (n) memcpy(s->pool + s->pool_n, v, n * sizeof *v);
    s->st[s->n] = (struct stk){(uint32_t)s->pool_n, (uint32_t)n};
    s->pool_n += n;
    s->ht[h] = (uint32_t)++s->n;
}

// Expands x->stk[0..n) until its top is a character class (or it is empty), adding each result.
// Recursion is by rule reference only (ends of alternatives pop in a loop); x->depth caps it.
static void expand(struct expander *x, size_t n) {
    if (x->overflow || x->nomem) return;
    if (++x->steps > GRAMMAR_MAX_STEPS || x->depth >= GRAMMAR_MAX_NEST) {
        x->overflow = true;
        return;
    }
    while (n && x->g->elem[x->stk[n - 1]].kind == GE_END) n--;
    if (n == 0) {
        sset_add(x, x->stk, 0);
        return;
    }
    uint32_t top = x->stk[n - 1];
    const struct gelem *e = &x->g->elem[top];
    if (e->kind == GE_CHAR) {
        sset_add(x, x->stk, n);
    } else {
        // The continuation replaces the reference; a reference last in its alternative leaves
        // nothing to continue with, so it does not grow the stack.
        size_t base = x->g->elem[top + 1].kind == GE_END ? n - 1 : n;
        if (base == n) x->stk[n - 1] = top + 1;
        if (base + 1 > GRAMMAR_MAX_DEPTH) {
            x->overflow = true;
        } else {
            x->depth++;
            for (uint32_t a = x->g->rule_alt[e->a]; a < x->g->rule_alt[e->a + 1]; a++) {
                x->stk[base] = x->g->alt[a];
                expand(x, base + 1);
            }
            x->depth--;
        }
        x->stk[n - 1] = top;
    }
}

// Does the class at elem e contain a code point in [lo, hi]?
static bool class_meets(const struct grammar *g, const struct gelem *e, uint32_t lo, uint32_t hi) {
    const uint32_t *r = g->ranges + 2 * e->a;
    if (!e->neg) {
        for (uint32_t i = 0; i < e->b; i++)
            if (r[2 * i] <= hi && r[2 * i + 1] >= lo) return true;
        return false;
    }
    // Negated: some point of [lo, hi] lies outside every range.
    for (uint32_t x = lo;;) {
        uint32_t i = 0;
        while (i < e->b && !(r[2 * i] <= x && r[2 * i + 1] >= x)) i++;
        if (i == e->b) return true;
        if (r[2 * i + 1] >= hi) return false;
        x = r[2 * i + 1] + 1;
    }
}

static frink_status state_advance_cp(struct grammar_state *s, uint32_t cp) {
    struct sset out = {0};
    struct expander xs, *x = &xs;  // 4 KiB: on the stack, as this runs for every character tried
    x->g = s->g, x->out = &out, x->steps = x->depth = 0, x->overflow = x->nomem = false;
    for (size_t i = 0; i < s->set.n; i++) {
        const struct stk *t = &s->set.st[i];
        if (!t->len) continue;
        const uint32_t *v = s->set.pool + t->off;
        uint32_t top = v[t->len - 1];
        if (!class_meets(s->g, &s->g->elem[top], cp, cp)) continue;
        memcpy(x->stk, v, t->len * sizeof *v);
        x->stk[t->len - 1] = top + 1;
        expand(x, t->len);
    }
    frink_status st = FRINK_OK;
    if (x->nomem) st = frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    else if (x->overflow) st = frink_fail(FRINK_ERR_UNSUPPORTED, "grammar: the match state grew past its limits");
    else if (!out.n) st = frink_fail(FRINK_ERR_ARG, "grammar: U+%04X not accepted here", cp);
    if (st) {
        sset_free(&out);
        return st;
    }
    sset_free(&s->set);
    s->set = out;
    return FRINK_OK;
}

// Could the partial character in s (need > 0) be completed to one some stack accepts?
static bool state_partial_viable(const struct grammar_state *s) {
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    uint32_t lo = s->cp << (6 * s->need), hi = lo | ((1u << (6 * s->need)) - 1);
    if (lo < min[s->total]) lo = min[s->total];
    if (hi > 0x10FFFF) hi = 0x10FFFF;
    if (lo > hi || (lo >= 0xD800 && hi <= 0xDFFF)) return false;
    for (size_t i = 0; i < s->set.n; i++) {
        const struct stk *t = &s->set.st[i];
        if (t->len && class_meets(s->g, &s->g->elem[s->set.pool[t->off + t->len - 1]], lo, hi)) return true;
    }
    return false;
}

// Consumes bytes into s in place (s may be left part way on failure, *at the byte refused).
static frink_status state_feed(struct grammar_state *s, const unsigned char *b, size_t n, size_t *at) {
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    for (size_t i = 0; i < n; i++) {
        *at = i;
        unsigned c = b[i];
        if (!s->need) {
            if (c < 0x80) {
                frink_status st = state_advance_cp(s, c);
                if (st) return st;
                continue;
            }
            if (c >= 0xC2 && c <= 0xDF) s->total = 2, s->cp = c & 0x1F;
            else if (c >= 0xE0 && c <= 0xEF) s->total = 3, s->cp = c & 0x0F;
            else if (c >= 0xF0 && c <= 0xF4) s->total = 4, s->cp = c & 0x07;
            else return frink_fail(FRINK_ERR_ARG, "grammar: invalid UTF-8 byte 0x%02X", c);
            s->need = (uint8_t)(s->total - 1);
        } else {
            if ((c & 0xC0) != 0x80) return frink_fail(FRINK_ERR_ARG, "grammar: invalid UTF-8 byte 0x%02X", c);
            s->cp = s->cp << 6 | (c & 0x3F);
            s->need--;
            if (!s->need) {
                uint32_t cp = s->cp;
                if (cp < min[s->total] || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
                    return frink_fail(FRINK_ERR_ARG, "grammar: invalid UTF-8 sequence");
                s->cp = 0, s->total = 0;
                frink_status st = state_advance_cp(s, cp);
                if (st) return st;
                continue;
            }
        }
        if (!state_partial_viable(s)) return frink_fail(FRINK_ERR_ARG, "grammar: character not accepted here");
    }
    return FRINK_OK;
}

static bool sset_copy(struct sset *d, const struct sset *s) {
    memset(d, 0, sizeof *d);
    d->pool = malloc((s->pool_n + 1) * sizeof *d->pool);
    d->st = malloc((s->n + 1) * sizeof *d->st);
    d->ht = s->ht_cap ? malloc(s->ht_cap * sizeof *d->ht) : NULL;
    if (!d->pool || !d->st || (s->ht_cap && !d->ht)) {
        sset_free(d);
        return false;
    }
    if (s->pool_n) memcpy(d->pool, s->pool, s->pool_n * sizeof *d->pool);
    if (s->n) memcpy(d->st, s->st, s->n * sizeof *d->st);
    if (s->ht_cap) memcpy(d->ht, s->ht, s->ht_cap * sizeof *d->ht);
    d->pool_n = d->pool_cap = s->pool_n, d->n = d->cap = s->n, d->ht_cap = s->ht_cap;
    if (!d->pool_cap) d->pool_cap = 1;
    if (!d->cap) d->cap = 1;
    return true;
}

frink_status grammar_state_create(const struct grammar *g, struct grammar_state **out) {
    *out = NULL;
    struct grammar_state *s = calloc(1, sizeof *s);
    struct expander *x = malloc(sizeof *x);
    if (!s || !x) return free(s), free(x), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    s->g = g;
    x->g = g, x->out = &s->set, x->steps = x->depth = 0, x->overflow = x->nomem = false;
    for (uint32_t a = g->rule_alt[g->root]; a < g->rule_alt[g->root + 1]; a++) {
        x->stk[0] = g->alt[a];
        expand(x, 1);
    }
    frink_status st = x->nomem ? frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory")
                      : x->overflow ? frink_fail(FRINK_ERR_UNSUPPORTED, "grammar: the start state grew past its limits")
                                    : FRINK_OK;
    free(x);
    if (st) return grammar_state_free(s), st;
    *out = s;
    return FRINK_OK;
}

frink_status grammar_state_clone(const struct grammar_state *s, struct grammar_state **out) {
    *out = NULL;
    struct grammar_state *c = malloc(sizeof *c);
    if (!c) return frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    *c = *s;
    if (!sset_copy(&c->set, &s->set)) return free(c), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    *out = c;
    return FRINK_OK;
}

void grammar_state_free(struct grammar_state *s) {
    if (!s) return;
    sset_free(&s->set);
    free(s);
}

bool grammar_state_accepts(const struct grammar_state *s, const char *bytes, size_t n) {
    struct grammar_state *c;
    if (grammar_state_clone(s, &c)) return false;
    size_t at;
    bool ok = state_feed(c, (const unsigned char *)bytes, n, &at) == FRINK_OK;
    grammar_state_free(c);
    return ok;
}

frink_status grammar_state_advance(struct grammar_state *s, const char *bytes, size_t n) {
    return grammar_state_advance_at(s, bytes, n, NULL);
}

frink_status grammar_state_advance_at(struct grammar_state *s, const char *bytes, size_t n, size_t *bad) {
    struct grammar_state *c;
    size_t at = 0;
    if (bad) *bad = 0;
    frink_status st = grammar_state_clone(s, &c);
    if (st) return st;
    st = state_feed(c, (const unsigned char *)bytes, n, &at);
    if (st && bad) *bad = at;
    if (!st) {  // take c's contents
        struct sset tmp = s->set;
        s->set = c->set, c->set = tmp;
        s->cp = c->cp, s->need = c->need, s->total = c->total;
    }
    grammar_state_free(c);
    return st;
}

bool grammar_state_can_end(const struct grammar_state *s) {
    if (s->need) return false;
    for (size_t i = 0; i < s->set.n; i++)
        if (!s->set.st[i].len) return true;
    return false;
}

bool grammar_state_dead(const struct grammar_state *s) { return s->set.n == 0; }

// ---- The vocabulary trie and the memoized walk ----
//
// The pieces sorted bytewise make a trie; its nodes are stored in depth-first preorder, so a
// node's subtree is the run of nodes up to `skip`, and the walk is one pass over the array
// that jumps over every subtree whose prefix the grammar refuses. Shared prefixes are matched
// once: a node costs one step of the grammar from its parent's state, however many tokens
// pass through it.
//
// A step is memoized: a grammar_dfa interns every match state it meets (the stack set and the
// partial character, compared by content) and records, per state and byte, the state that
// follows (or that the byte is refused). Advancing a stack set depends on nothing else (each
// character's expansion starts its step and stack counts afresh), so a memoized step is exactly
// the step state_feed would take. In JSON the states repeat constantly — inside a string every
// ordinary character leads back to the same state — so after the first mask almost every node
// costs a table lookup, and a step that is not yet known costs one clone and one byte of
// state_feed.

struct gv_node {
    uint32_t skip;    // index of the first node after this one's subtree
    uint32_t tfirst;  // tokens ending here: tok[tfirst .. next node's tfirst)
    uint16_t depth;   // 1 for a piece's first byte
    uint8_t byte;
};

struct grammar_vocab {
    int n_tok;
    char *blob;              // every piece end to end
    uint32_t *off;           // [n_tok + 1] token t's piece is blob[off[t] .. off[t+1])
    struct gv_node *node;    // [n_node + 1] preorder; the last is a sentinel (tfirst = n_sorted)
    int32_t *tok;            // [n_sorted] tokens with a piece, sorted by piece
    uint32_t n_node, n_sorted;
};

#define GV_MAX_PIECE 511           // longer pieces are never allowed (as the per-token check)
#define DFA_SOFT_STATES 16384      // past this many states the memo is dropped before a mask
#define DFA_HARD_STATES 65536      // past this many within one mask, the mask gives up
#define DFA_MASKS 16               // whole masks remembered
#define DFA_SOFT_BYTES (32u << 20)  // a JSON string context costs about 1 MiB (its partial characters)
#define DFA_HARD_BYTES (128u << 20)

static int gv_cmp(const void *a, const void *b, void *ud) {
    const struct grammar_vocab *v = ud;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    uint32_t lx = v->off[x + 1] - v->off[x], ly = v->off[y + 1] - v->off[y];
    int c = memcmp(v->blob + v->off[x], v->blob + v->off[y], lx < ly ? lx : ly);
    if (c) return c;
    if (lx != ly) return lx < ly ? -1 : 1;
    return x < y ? -1 : x > y;
}

frink_status grammar_vocab_build(int n_tok, char *blob, uint32_t *off, struct grammar_vocab **out) {
    *out = NULL;
    struct grammar_vocab *v = calloc(1, sizeof *v);
    if (!v) return free(blob), free(off), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    v->n_tok = n_tok, v->blob = blob, v->off = off;
    v->tok = malloc(((size_t)n_tok + 1) * sizeof *v->tok);
    if (!v->tok) return grammar_vocab_free(v), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    size_t bytes = 0;
    for (int t = 0; t < n_tok; t++) {
        uint32_t len = off[t + 1] - off[t];
        if (len && len <= GV_MAX_PIECE) v->tok[v->n_sorted++] = t, bytes += len;
    }
    qsort_r(v->tok, v->n_sorted, sizeof *v->tok, gv_cmp, v);
    // At most one node per byte of the pieces (fewer where prefixes are shared).
    v->node = malloc((bytes + 1) * sizeof *v->node);
    if (!v->node) return grammar_vocab_free(v), frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    uint32_t open[GV_MAX_PIECE + 1];  // open[d]: the node at depth d on the current path
    uint32_t n = 0, cur = 0;           // cur: the current path's depth
    const char *prev = NULL;
    for (uint32_t k = 0; k < v->n_sorted; k++) {
        int32_t t = v->tok[k];
        const char *p = blob + off[t];
        uint32_t len = off[t + 1] - off[t], l = 0;
        while (prev && l < len && l < cur && p[l] == prev[l]) l++;
        for (; cur > l; cur--) v->node[open[cur]].skip = n;
        for (; cur < len; cur++) {
            open[cur + 1] = n;
            v->node[n++] = (struct gv_node){0, k, (uint16_t)(cur + 1), (uint8_t)p[cur]};
        }
        prev = p;
    }
    for (; cur > 0; cur--) v->node[open[cur]].skip = n;
    v->node[n] = (struct gv_node){n + 1, v->n_sorted, 0, 0};
    v->n_node = n;
    *out = v;
    return FRINK_OK;
}

void grammar_vocab_free(struct grammar_vocab *v) {
    if (!v) return;
    free(v->blob), free(v->off), free(v->node), free(v->tok);
    free(v);
}

int grammar_vocab_n_tok(const struct grammar_vocab *v) { return v->n_tok; }

const char *grammar_vocab_piece(const struct grammar_vocab *v, int t, size_t *len) {
    *len = t >= 0 && t < v->n_tok ? v->off[t + 1] - v->off[t] : 0;
    return *len && *len <= GV_MAX_PIECE ? v->blob + v->off[t] : (*len = 0, NULL);
}

// The memo's states are of two kinds. A full state owns a stack set (no partial character);
// a partial state is a full one (its base) plus the bytes of a character begun, and costs no
// copy of the set: the Qwen vocabulary's CJK pieces begin some thousand distinct partial
// characters from every string state. Completing a character at a base only depends on which
// of the base's stacks have a top class containing it (the stacks advanced are those, the
// character plays no other part), so that list of stacks, the character's signature, is the
// memo's key: the thousands of characters that continue a string are one signature, one step.

// Transitions: 0 not known yet, 1 refused, id + 2 the state that follows.
enum { DFA_UNKNOWN = 0, DFA_DEAD = 1 };

struct dfa_state {
    struct grammar_state *s;  // full: its stack set (hash table dropped); partial: NULL
    uint32_t base;            // partial: the full state it extends
    uint32_t cp;              // partial: the character's bits so far
    uint8_t need, total;      // partial: continuation bytes still needed, and its length
    uint64_t hash;
};

// A completed character's memo: at full state base, the stacks sig[0..n) matched it.
struct dfa_sig {
    uint32_t base, off, n;    // the stack indices are dfa->sig_pool[off .. off + n)
    uint32_t to;              // DFA_DEAD or id + 2
    uint64_t hash;
};

struct grammar_dfa {
    const struct grammar *g;
    struct dfa_state *st;       // [n]
    uint32_t *trans;            // [cap][256]
    uint32_t n, cap;
    uint32_t *ht;               // [ht_cap] open addressing over st, id + 1
    size_t ht_cap;
    struct dfa_sig *sig;        // [n_sig]
    uint32_t *sig_ht;           // [sig_ht_cap] open addressing over sig, index + 1
    uint32_t *sig_pool, *scratch;  // scratch: [GRAMMAR_MAX_STACKS] a signature being built
    size_t n_sig, cap_sig, sig_ht_cap, sig_pool_n, sig_pool_cap, bytes;
    // Whole masks, by the state they were made at: generation comes back to the same state
    // often (the same place in an object, the inside of a string after a whole-character token).
    struct dfa_mask {
        uint64_t *bits;  // [n_tok / 64 + 1] NULL: slot unused
        uint32_t root;
        uint64_t used;
    } mask[DFA_MASKS];
    const struct grammar_vocab *mask_v;  // the vocabulary of those masks
    uint64_t clock;
    uint32_t soft_states, hard_states;   // DFA_SOFT_STATES, DFA_HARD_STATES but in tests
};

static uint64_t mix(uint64_t h, uint64_t x) {
    h = (h ^ x) * 0x100000001B3ull;
    return h ^ h >> 31;
}

static uint64_t full_hash(const struct grammar_state *s) {
    uint64_t h = mix(0x9E3779B97F4A7C15ull, s->set.n);
    for (size_t i = 0; i < s->set.n; i++) h = mix(h, s->set.st[i].len);
    for (size_t i = 0; i < s->set.pool_n; i++) h = mix(h, s->set.pool[i]);
    return h;
}

static uint64_t partial_hash(uint32_t base, uint32_t cp, uint8_t need, uint8_t total) {
    return mix(mix(mix(0xC2B2AE3D27D4EB4Full, base), cp), (uint64_t)need << 8 | total);
}

// Stacks are appended to a compact pool in order, so equal lengths mean equal offsets.
static bool set_equal(const struct sset *a, const struct sset *b) {
    return a->n == b->n && a->pool_n == b->pool_n && !memcmp(a->st, b->st, a->n * sizeof *a->st) &&
           !memcmp(a->pool, b->pool, a->pool_n * sizeof *a->pool);
}

frink_status grammar_dfa_create(const struct grammar *g, struct grammar_dfa **out) {
    *out = calloc(1, sizeof **out);
    if (!*out) return frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    (*out)->g = g;
    (*out)->soft_states = DFA_SOFT_STATES, (*out)->hard_states = DFA_HARD_STATES;
    return FRINK_OK;
}

void grammar_dfa_limit(struct grammar_dfa *d, uint32_t soft_states, uint32_t hard_states) {
    d->soft_states = soft_states, d->hard_states = hard_states;
}

static void dfa_clear(struct grammar_dfa *d) {
    for (uint32_t i = 0; i < d->n; i++) grammar_state_free(d->st[i].s);
    free(d->st), free(d->trans), free(d->ht), free(d->sig), free(d->sig_ht), free(d->sig_pool), free(d->scratch);
    for (int i = 0; i < DFA_MASKS; i++) free(d->mask[i].bits);
    const struct grammar *g = d->g;
    uint32_t soft = d->soft_states, hard = d->hard_states;
    memset(d, 0, sizeof *d);
    d->g = g, d->soft_states = soft, d->hard_states = hard;
}

void grammar_dfa_free(struct grammar_dfa *d) {
    if (!d) return;
    dfa_clear(d);
    free(d);
}

// Room for one more state and its table slot; false when out of memory.
static bool dfa_reserve(struct grammar_dfa *d) {
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 64;
        struct dfa_state *st = realloc(d->st, cap * sizeof *st);
        if (st) d->st = st;
        uint32_t *tr = realloc(d->trans, (size_t)cap * 256 * sizeof *tr);
        if (tr) d->trans = tr;
        if (!st || !tr) return false;
        d->cap = cap;
    }
    if (2 * (d->n + 1) > d->ht_cap) {
        size_t cap = d->ht_cap ? 2 * d->ht_cap : 256;
        uint32_t *ht = calloc(cap, sizeof *ht);
        if (!ht) return false;
        for (uint32_t id = 0; id < d->n; id++) {
            size_t i = d->st[id].hash & (cap - 1);
            while (ht[i]) i = (i + 1) & (cap - 1);
            ht[i] = id + 1;
        }
        free(d->ht);
        d->ht = ht, d->ht_cap = cap;
    }
    return true;
}

static uint32_t dfa_add(struct grammar_dfa *d, struct dfa_state e, size_t slot) {
    uint32_t id = d->n++;
    d->st[id] = e;
    d->ht[slot] = id + 1;
    memset(d->trans + (size_t)id * 256, 0, 256 * sizeof *d->trans);
    d->bytes += sizeof e + 256 * sizeof *d->trans + sizeof *d->ht * 2;
    return id;
}

// The id of the full state with s's stack set; takes s (freeing it when an equal one is
// known). -1: out of memory.
static int64_t dfa_intern_full(struct grammar_dfa *d, struct grammar_state *s) {
    uint64_t h = full_hash(s);
    size_t i = 0;
    if (d->ht_cap)
        for (i = h & (d->ht_cap - 1); d->ht[i]; i = (i + 1) & (d->ht_cap - 1)) {
            const struct dfa_state *e = &d->st[d->ht[i] - 1];
            if (e->hash == h && e->s && set_equal(&e->s->set, &s->set)) return grammar_state_free(s), d->ht[i] - 1;
        }
    if (!dfa_reserve(d)) return grammar_state_free(s), -1;
    for (i = h & (d->ht_cap - 1); d->ht[i];) i = (i + 1) & (d->ht_cap - 1);
    // A memo state is only ever advanced (into a fresh set), never added to: its table is dead weight.
    free(s->set.ht), s->set.ht = NULL, s->set.ht_cap = 0;
    s->cp = 0, s->need = s->total = 0;
    d->bytes += sizeof *s + s->set.pool_cap * sizeof *s->set.pool + s->set.cap * sizeof *s->set.st;
    return dfa_add(d, (struct dfa_state){s, 0, 0, 0, 0, h}, i);
}

static int64_t dfa_intern_partial(struct grammar_dfa *d, uint32_t base, uint32_t cp, uint8_t need, uint8_t total) {
    uint64_t h = partial_hash(base, cp, need, total);
    size_t i = 0;
    if (d->ht_cap)
        for (i = h & (d->ht_cap - 1); d->ht[i]; i = (i + 1) & (d->ht_cap - 1)) {
            const struct dfa_state *e = &d->st[d->ht[i] - 1];
            if (e->hash == h && !e->s && e->base == base && e->cp == cp && e->need == need && e->total == total)
                return d->ht[i] - 1;
        }
    if (!dfa_reserve(d)) return -1;
    for (i = h & (d->ht_cap - 1); d->ht[i];) i = (i + 1) & (d->ht_cap - 1);
    return dfa_add(d, (struct dfa_state){NULL, base, cp, need, total, h}, i);
}

// Completes code point cp at full state `base`: DFA_DEAD or id + 2; DFA_UNKNOWN when out of memory.
static uint32_t dfa_complete(struct grammar_dfa *d, uint32_t base, uint32_t cp) {
    const struct grammar_state *bs = d->st[base].s;
    if (!d->scratch && !(d->scratch = malloc(GRAMMAR_MAX_STACKS * sizeof *d->scratch))) return DFA_UNKNOWN;
    uint32_t n = 0;
    uint64_t h = mix(0x165667B19E3779F9ull, base);
    for (size_t i = 0; i < bs->set.n; i++) {
        const struct stk *t = &bs->set.st[i];
        if (t->len && class_meets(d->g, &d->g->elem[bs->set.pool[t->off + t->len - 1]], cp, cp))
            d->scratch[n++] = (uint32_t)i, h = mix(h, i);
    }
    if (!n) return DFA_DEAD;
    size_t i = 0;
    if (d->sig_ht_cap)
        for (i = h & (d->sig_ht_cap - 1); d->sig_ht[i]; i = (i + 1) & (d->sig_ht_cap - 1)) {
            const struct dfa_sig *e = &d->sig[d->sig_ht[i] - 1];
            if (e->hash == h && e->base == base && e->n == n && !memcmp(d->sig_pool + e->off, d->scratch, n * sizeof *d->scratch))
                return e->to;
        }
    // Not known: the step itself, on a copy of the base.
    struct grammar_state *c;
    if (grammar_state_clone(bs, &c)) return DFA_UNKNOWN;
    frink_status st = state_advance_cp(c, cp);
    uint32_t to = DFA_DEAD;
    if (st == FRINK_ERR_NOMEM) return grammar_state_free(c), DFA_UNKNOWN;  // not memoized: may pass later
    if (st) {
        grammar_state_free(c);
    } else {
        int64_t id = dfa_intern_full(d, c);
        if (id < 0) return DFA_UNKNOWN;
        to = (uint32_t)id + 2;
    }
    if (!grow((void **)&d->sig, &d->cap_sig, d->n_sig + 1, sizeof *d->sig) ||
        !grow((void **)&d->sig_pool, &d->sig_pool_cap, d->sig_pool_n + n, sizeof *d->sig_pool))
        return to;  // correct, only not remembered
    if (2 * (d->n_sig + 1) > d->sig_ht_cap) {
        size_t cap = d->sig_ht_cap ? 2 * d->sig_ht_cap : 256;
        uint32_t *ht = calloc(cap, sizeof *ht);
        if (!ht) return to;
        for (size_t k = 0; k < d->n_sig; k++) {
            size_t j = d->sig[k].hash & (cap - 1);
            while (ht[j]) j = (j + 1) & (cap - 1);
            ht[j] = (uint32_t)k + 1;
        }
        free(d->sig_ht);
        d->sig_ht = ht, d->sig_ht_cap = cap;
    }
    memcpy(d->sig_pool + d->sig_pool_n, d->scratch, n * sizeof *d->scratch);
    d->sig[d->n_sig] = (struct dfa_sig){base, (uint32_t)d->sig_pool_n, n, to, h};
    d->sig_pool_n += n;
    for (i = h & (d->sig_ht_cap - 1); d->sig_ht[i];) i = (i + 1) & (d->sig_ht_cap - 1);
    d->sig_ht[i] = (uint32_t)++d->n_sig;
    d->bytes += sizeof *d->sig + n * sizeof *d->sig_pool + 2 * sizeof *d->sig_ht;
    return to;
}

// A partial character (cp so far, need more bytes of total) at full state base: DFA_DEAD when no
// stack can take a character it begins, else id + 2; DFA_UNKNOWN when out of memory.
static uint32_t dfa_begin(struct grammar_dfa *d, uint32_t base, uint32_t cp, uint8_t need, uint8_t total) {
    struct grammar_state view = *d->st[base].s;  // shares the set: only read
    view.cp = cp, view.need = need, view.total = total;
    if (!state_partial_viable(&view)) return DFA_DEAD;
    int64_t id = dfa_intern_partial(d, base, cp, need, total);
    return id < 0 ? DFA_UNKNOWN : (uint32_t)id + 2;
}

// The transition of state `from` by byte b, memoized (state_feed's byte step, exactly);
// DFA_UNKNOWN when out of memory.
static uint32_t dfa_step(struct grammar_dfa *d, uint32_t from, unsigned char b) {
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    uint32_t to = d->trans[(size_t)from * 256 + b];
    if (to != DFA_UNKNOWN) return to;
    const struct dfa_state e = d->st[from];
    if (e.s) {  // a full state: a character, or the first byte of one
        if (b < 0x80) to = dfa_complete(d, from, b);
        else if (b >= 0xC2 && b <= 0xDF) to = dfa_begin(d, from, b & 0x1F, 1, 2);
        else if (b >= 0xE0 && b <= 0xEF) to = dfa_begin(d, from, b & 0x0F, 2, 3);
        else if (b >= 0xF0 && b <= 0xF4) to = dfa_begin(d, from, b & 0x07, 3, 4);
        else to = DFA_DEAD;
    } else if ((b & 0xC0) != 0x80) {
        to = DFA_DEAD;
    } else {
        uint32_t cp = e.cp << 6 | (b & 0x3F);
        if (e.need > 1) to = dfa_begin(d, e.base, cp, (uint8_t)(e.need - 1), e.total);
        else if (cp < min[e.total] || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) to = DFA_DEAD;
        else to = dfa_complete(d, e.base, cp);
    }
    if (to != DFA_UNKNOWN) d->trans[(size_t)from * 256 + b] = to;  // d->trans may have moved
    return to;
}

// The id of a state equal to s (interning a copy); -1 when out of memory.
static int64_t dfa_root(struct grammar_dfa *d, const struct grammar_state *s) {
    if (d->n > d->soft_states || d->bytes > DFA_SOFT_BYTES) dfa_clear(d);
    struct grammar_state *c;
    if (grammar_state_clone(s, &c)) return -1;
    int64_t base = dfa_intern_full(d, c);
    if (base < 0 || !s->need) return base;
    return dfa_intern_partial(d, (uint32_t)base, s->cp, s->need, s->total);
}

// allowed[i] = bit i of bits, for i < n: each byte of bits spread to eight bytes 0 or 1.
static void spread_bits(const uint64_t *bits, size_t n, uint8_t *allowed) {
    const uint8_t *b = (const uint8_t *)bits;  // little-endian: bit i is bit i % 8 of byte i / 8
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x = b[i / 8];
        x = (x | x << 28) & 0x0000000F0000000Full;
        x = (x | x << 14) & 0x0003000300030003ull;
        x = (x | x << 7) & 0x0101010101010101ull;
        memcpy(allowed + i, &x, 8);
    }
    for (; i < n; i++) allowed[i] = (uint8_t)(b[i / 8] >> (i % 8) & 1);
}

frink_status grammar_vocab_mask(const struct grammar_vocab *v, struct grammar_dfa *d, const struct grammar_state *s,
                                uint8_t *allowed) {
    memset(allowed, 0, (size_t)v->n_tok);
    int64_t root = dfa_root(d, s);
    if (root < 0) return frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
    size_t words = (size_t)v->n_tok / 64 + 1;
    if (d->mask_v != v) {
        for (int i = 0; i < DFA_MASKS; i++) free(d->mask[i].bits), d->mask[i].bits = NULL, d->mask[i].used = 0;
        d->mask_v = v;
    }
    struct dfa_mask *slot = &d->mask[0];
    for (int i = 0; i < DFA_MASKS; i++) {
        struct dfa_mask *m = &d->mask[i];
        if (m->used && m->root == (uint32_t)root) {
            m->used = ++d->clock;
            spread_bits(m->bits, (size_t)v->n_tok, allowed);
            return FRINK_OK;
        }
        if (m->used < slot->used) slot = m;  // 0: unused, or a walk that failed
    }
    if (!slot->bits) slot->bits = malloc(words * sizeof *slot->bits);  // none: the mask is only not remembered
    uint64_t *bits = slot->bits;
    if (bits) memset(bits, 0, words * sizeof *bits), slot->used = 0;  // not valid until the walk ends
    uint32_t ids[GV_MAX_PIECE + 1];  // ids[k]: the state after the current path's first k bytes
    ids[0] = (uint32_t)root;
    const struct gv_node *node = v->node;
    for (uint32_t i = 0; i < v->n_node;) {
        const struct gv_node *nd = &node[i];
        uint32_t to = d->trans[(size_t)ids[nd->depth - 1] * 256 + nd->byte];
        if (to == DFA_UNKNOWN) {
            if (d->n > d->hard_states || d->bytes > DFA_HARD_BYTES)
                return frink_fail(FRINK_ERR_UNSUPPORTED, "grammar: the mask's memo grew past its limits");
            if ((to = dfa_step(d, ids[nd->depth - 1], nd->byte)) == DFA_UNKNOWN)
                return frink_fail(FRINK_ERR_NOMEM, "grammar: out of memory");
        }
        if (to == DFA_DEAD) {
            i = nd->skip;
            continue;
        }
        ids[nd->depth] = to - 2;
        for (uint32_t k = nd->tfirst; k < node[i + 1].tfirst; k++) {
            int32_t t = v->tok[k];
            allowed[t] = 1;
            if (bits) bits[t >> 6] |= 1ull << (t & 63);
        }
        i++;
    }
    if (bits) slot->root = (uint32_t)root, slot->used = ++d->clock;
    return FRINK_OK;
}

void grammar_vocab_mask_naive(const struct grammar_vocab *v, const struct grammar_state *s, uint8_t *allowed) {
    for (int t = 0; t < v->n_tok; t++) {
        size_t len;
        const char *p = grammar_vocab_piece(v, t, &len);
        allowed[t] = p && grammar_state_accepts(s, p, len);
    }
}

bool grammar_vocab_accepts(const struct grammar_vocab *v, struct grammar_dfa *d, const struct grammar_state *s, int t) {
    size_t len;
    const unsigned char *p = (const unsigned char *)grammar_vocab_piece(v, t, &len);
    if (!p) return false;
    int64_t root = dfa_root(d, s);
    if (root < 0) return grammar_state_accepts(s, (const char *)p, len);
    uint32_t id = (uint32_t)root;
    for (size_t i = 0; i < len; i++) {
        uint32_t to = dfa_step(d, id, p[i]);
        if (to == DFA_UNKNOWN) return grammar_state_accepts(s, (const char *)p, len);
        if (to == DFA_DEAD) return false;
        id = to - 2;
    }
    return true;
}
