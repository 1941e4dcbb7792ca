// jinja_parse.c — tokens → syntax tree, following jinja2's parser (jinja2/parser.py) rule for
// rule: the same precedence (filters and tests bind at the unary level, `**` is left
// associative, `-x|f` is `(-x)|f`), the same statements, and the same messages' substance.
//
// After parsing, a second pass does what jinja2's code generator checks: filter and test names
// are resolved (an unknown one is an error at parse time, except inside an if or an inline if,
// where jinja2 defers it to render time), `break`/`continue` must sit in a loop, and each macro
// learns whether its body reads `varargs`, `kwargs` or `caller`.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "template/jinja_int.h"

struct opener {
    const char *tag;   // "for", "if", ...
    uint32_t pos;
    const char *const *ends; // the end tags its body stops at
    int nends;
};

struct parser {
    struct jinja_tmpl *t;
    const struct jtok *tok;
    size_t ntok, i;
    int depth;  // expression nesting
    int sdepth; // statement nesting
    struct opener open[JINJA_MAX_NEST + 1];
    int nopen;
    bool failed;
    frink_status st;
};

static void *pfail(struct parser *p, uint32_t pos, frink_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void *pfail(struct parser *p, uint32_t pos, frink_status st, const char *fmt, ...) {
    if (p->failed) return NULL;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line, col;
    jinja_linecol(p->t, pos, &line, &col);
    frink_fail(st, "line %d, column %d: %s", line, col, msg);
    p->failed = true;
    p->st = st;
    return NULL;
}

static const struct jtok *cur(struct parser *p) { return &p->tok[p->i]; }
static const struct jtok *look(struct parser *p) { return &p->tok[p->i + 1 < p->ntok ? p->i + 1 : p->i]; }
static void advance(struct parser *p) {
    if (p->i + 1 < p->ntok) p->i++;
}

static bool is_op(const struct jtok *k, const char *op) { return k->kind == JT_OP && strcmp(k->s, op) == 0; }
static bool is_name(const struct jtok *k, const char *name) { return k->kind == JT_NAME && strcmp(k->s, name) == 0; }

// What a token is, for messages, as jinja2 describes it: a name by itself, an operator by its
// text, anything else by its kind ("end of print statement", "integer").
static void describe(const struct jtok *k, char *buf, size_t n) {
    switch (k->kind) {
    case JT_EOF: snprintf(buf, n, "end of template"); break;
    case JT_DATA: snprintf(buf, n, "template data / text"); break;
    case JT_VAR_BEGIN: snprintf(buf, n, "begin of print statement"); break;
    case JT_VAR_END: snprintf(buf, n, "end of print statement"); break;
    case JT_BLOCK_BEGIN: snprintf(buf, n, "begin of statement block"); break;
    case JT_BLOCK_END: snprintf(buf, n, "end of statement block"); break;
    case JT_NAME: snprintf(buf, n, "%.100s", k->s); break;
    case JT_STRING: snprintf(buf, n, "string"); break;
    case JT_INT: snprintf(buf, n, "integer"); break;
    case JT_FLOAT: snprintf(buf, n, "float"); break;
    case JT_OP: snprintf(buf, n, "%s", k->s); break;
    default: snprintf(buf, n, "error"); break;
    }
}

// Fails on a lexing error token, naming it; true when the current token is one.
static bool lex_failed(struct parser *p) {
    const struct jtok *k = cur(p);
    if (k->kind != JT_ERROR) return false;
    pfail(p, k->pos, FRINK_ERR_FORMAT, "%s", k->s);
    return true;
}

// jinja2's "expected token 'x', got 'y'" (what: the expected token, described).
static void *unexpected(struct parser *p, const char *what) {
    if (lex_failed(p)) return NULL;
    char d[128];
    describe(cur(p), d, sizeof d);
    if (cur(p)->kind == JT_EOF)
        return pfail(p, cur(p)->pos, FRINK_ERR_FORMAT, "unexpected end of template, expected '%s'.", what);
    return pfail(p, cur(p)->pos, FRINK_ERR_FORMAT, "expected token '%s', got '%s'", what, d);
}

static bool expect_op(struct parser *p, const char *op) {
    if (p->failed) return false;
    if (is_op(cur(p), op)) {
        advance(p);
        return true;
    }
    unexpected(p, op);
    return false;
}

static bool expect_kind(struct parser *p, uint8_t kind) {
    if (p->failed) return false;
    if (cur(p)->kind == kind) {
        advance(p);
        return true;
    }
    unexpected(p, kind == JT_BLOCK_END ? "end of statement block" : kind == JT_VAR_END ? "end of print statement" : "name");
    return false;
}

static struct jnode *nn(struct parser *p, uint8_t kind, uint32_t pos) {
    struct jnode *n = jarena_alloc(p->t, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    return n;
}

struct nvec {
    struct jnode **v;
    int n, cap;
};
static void nv_push(struct nvec *v, struct jnode *x) {
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->v = jx_realloc(v->v, (size_t)v->cap * sizeof *v->v);
    }
    v->v[v->n++] = x;
}
static struct jnode **nv_finish(struct parser *p, struct nvec *v, int *n) {
    struct jnode **out = NULL;
    if (v->n) {
        out = jarena_alloc(p->t, (size_t)v->n * sizeof *out);
        memcpy(out, v->v, (size_t)v->n * sizeof *out);
    }
    *n = v->n;
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
    return out;
}

// An immortal string constant. Its ASCII flag is set now: threads rendering the template at once
// share it, so nothing may write to it later.
static struct jv const_str(struct parser *p, const char *s, size_t n) {
    struct jstr *js = jarena_alloc(p->t, sizeof *js + n + 1);
    js->h.rc = -1;
    js->h.kind = JV_STR;
    js->ascii = 1;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) js->ascii = 0;
    js->len = n;
    if (n) memcpy(js->s, s, n);
    js->s[n] = 0;
    return (struct jv){.k = JV_STR, .o = &js->h};
}

static struct jnode *parse_expression(struct parser *p, bool with_condexpr);
static struct jnode *parse_tuple(struct parser *p, int mode, const char *extra_end, bool explicit_parens);
static struct jnode *parse_unary(struct parser *p, bool with_filter);
static struct jnode *parse_primary(struct parser *p);
static struct jnode *parse_postfix(struct parser *p, struct jnode *node);
static struct jnode *parse_filter(struct parser *p, struct jnode *node, bool start_inline);
static struct jnode *parse_or(struct parser *p);
static struct jnode **subparse(struct parser *p, const char *const *ends, int nends, int *nbody);

enum { TUPLE_FULL, TUPLE_NO_COND, TUPLE_SIMPLIFIED };

static bool enter(struct parser *p) {
    if (++p->depth > JINJA_MAX_NEST) {
        pfail(p, cur(p)->pos, FRINK_ERR_UNSUPPORTED, "expression nested more than %d deep", JINJA_MAX_NEST);
        return false;
    }
    return true;
}

static struct jnode *parse_expression(struct parser *p, bool with_condexpr) {
    if (!enter(p)) return NULL;
    struct jnode *r;
    if (!with_condexpr) {
        r = parse_or(p);
    } else {
        uint32_t pos = cur(p)->pos;
        r = parse_or(p);
        while (r && is_name(cur(p), "if")) {
            advance(p);
            struct jnode *c = nn(p, JN_COND, pos);
            c->b = r;
            c->a = parse_or(p);
            if (!c->a) return NULL;
            if (is_name(cur(p), "else")) {
                advance(p);
                c->c = parse_expression(p, true);
                if (!c->c) return NULL;
            }
            r = c;
            pos = cur(p)->pos;
        }
    }
    p->depth--;
    return p->failed ? NULL : r;
}

static struct jnode *parse_and(struct parser *p);
static struct jnode *parse_or(struct parser *p) {
    struct jnode *left = parse_and(p);
    while (left && is_name(cur(p), "or")) {
        uint32_t pos = cur(p)->pos;
        advance(p);
        struct jnode *n = nn(p, JN_OR, pos);
        n->a = left;
        n->b = parse_and(p);
        if (!n->b) return NULL;
        left = n;
    }
    return left;
}

static struct jnode *parse_not(struct parser *p);
static struct jnode *parse_and(struct parser *p) {
    struct jnode *left = parse_not(p);
    while (left && is_name(cur(p), "and")) {
        uint32_t pos = cur(p)->pos;
        advance(p);
        struct jnode *n = nn(p, JN_AND, pos);
        n->a = left;
        n->b = parse_not(p);
        if (!n->b) return NULL;
        left = n;
    }
    return left;
}

static struct jnode *parse_compare(struct parser *p);
static struct jnode *parse_not(struct parser *p) {
    if (is_name(cur(p), "not")) {
        uint32_t pos = cur(p)->pos;
        advance(p);
        if (!enter(p)) return NULL;
        struct jnode *n = nn(p, JN_NOT, pos);
        n->a = parse_not(p);
        p->depth--;
        return n->a ? n : NULL;
    }
    return parse_compare(p);
}

static struct jnode *parse_math1(struct parser *p);
static struct jnode *parse_compare(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    struct jnode *expr = parse_math1(p);
    if (!expr) return NULL;
    struct nvec kids = {0};
    uint8_t ops[64];
    int nops = 0;
    for (;;) {
        const struct jtok *k = cur(p);
        int op = -1;
        if (k->kind == JT_OP) {
            if (!strcmp(k->s, "==")) op = JCMP_EQ;
            else if (!strcmp(k->s, "!=")) op = JCMP_NE;
            else if (!strcmp(k->s, "<")) op = JCMP_LT;
            else if (!strcmp(k->s, "<=")) op = JCMP_LE;
            else if (!strcmp(k->s, ">")) op = JCMP_GT;
            else if (!strcmp(k->s, ">=")) op = JCMP_GE;
            if (op >= 0) advance(p);
        } else if (is_name(k, "in")) {
            op = JCMP_IN;
            advance(p);
        } else if (is_name(k, "not") && is_name(look(p), "in")) {
            op = JCMP_NOTIN;
            advance(p);
            advance(p);
        }
        if (op < 0) break;
        if (nops == (int)sizeof ops) {
            free(kids.v);
            return pfail(p, k->pos, FRINK_ERR_UNSUPPORTED, "more than %d chained comparisons", (int)sizeof ops);
        }
        ops[nops++] = (uint8_t)op;
        struct jnode *rhs = parse_math1(p);
        if (!rhs) {
            free(kids.v);
            return NULL;
        }
        nv_push(&kids, rhs);
    }
    if (!nops) return expr;
    struct jnode *n = nn(p, JN_COMPARE, pos);
    n->a = expr;
    n->kids = nv_finish(p, &kids, &n->nkids);
    n->ops = jarena_alloc(p->t, (size_t)nops);
    memcpy(n->ops, ops, (size_t)nops);
    return n;
}

static struct jnode *binop(struct parser *p, uint32_t pos, int op, struct jnode *a, struct jnode *b) {
    if (!b) return NULL;
    struct jnode *n = nn(p, JN_BINOP, pos);
    n->op = (uint8_t)op;
    n->a = a;
    n->b = b;
    return n;
}

static struct jnode *parse_concat(struct parser *p);
static struct jnode *parse_math1(struct parser *p) {
    struct jnode *left = parse_concat(p);
    while (left && (is_op(cur(p), "+") || is_op(cur(p), "-"))) {
        uint32_t pos = cur(p)->pos;
        int op = is_op(cur(p), "+") ? JOP_ADD : JOP_SUB;
        advance(p);
        left = binop(p, pos, op, left, parse_concat(p));
    }
    return left;
}

static struct jnode *parse_math2(struct parser *p);
static struct jnode *parse_concat(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    struct jnode *first = parse_math2(p);
    if (!first || !is_op(cur(p), "~")) return first;
    struct nvec kids = {0};
    nv_push(&kids, first);
    while (is_op(cur(p), "~")) {
        advance(p);
        struct jnode *x = parse_math2(p);
        if (!x) {
            free(kids.v);
            return NULL;
        }
        nv_push(&kids, x);
    }
    struct jnode *n = nn(p, JN_CONCAT, pos);
    n->kids = nv_finish(p, &kids, &n->nkids);
    return n;
}

static struct jnode *parse_pow(struct parser *p);
static struct jnode *parse_math2(struct parser *p) {
    struct jnode *left = parse_pow(p);
    for (;;) {
        if (!left) return NULL;
        const struct jtok *k = cur(p);
        int op = is_op(k, "*") ? JOP_MUL : is_op(k, "/") ? JOP_DIV : is_op(k, "//") ? JOP_FLOORDIV : is_op(k, "%") ? JOP_MOD : -1;
        if (op < 0) return left;
        uint32_t pos = k->pos;
        advance(p);
        left = binop(p, pos, op, left, parse_pow(p));
    }
}

static struct jnode *parse_pow(struct parser *p) {
    struct jnode *left = parse_unary(p, true);
    while (left && is_op(cur(p), "**")) {
        uint32_t pos = cur(p)->pos;
        advance(p);
        left = binop(p, pos, JOP_POW, left, parse_unary(p, true));
    }
    return left;
}

static struct jnode *parse_filter_expr(struct parser *p, struct jnode *node);
static struct jnode *parse_unary(struct parser *p, bool with_filter) {
    const struct jtok *k = cur(p);
    struct jnode *node;
    if (is_op(k, "-") || is_op(k, "+")) {
        uint32_t pos = k->pos;
        uint8_t kind = is_op(k, "-") ? JN_NEG : JN_POS;
        advance(p);
        if (!enter(p)) return NULL;
        struct jnode *x = parse_unary(p, false);
        p->depth--;
        if (!x) return NULL;
        node = nn(p, kind, pos);
        node->a = x;
    } else {
        node = parse_primary(p);
    }
    node = parse_postfix(p, node);
    if (with_filter) node = parse_filter_expr(p, node);
    return node;
}

static struct jnode *parse_list_or_dict(struct parser *p, bool dict) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    const char *close = dict ? "}" : "]";
    struct nvec items = {0};
    while (!is_op(cur(p), close)) {
        if (items.n && !expect_op(p, ",")) break;
        if (is_op(cur(p), close)) break;
        struct jnode *x = parse_expression(p, true);
        if (!x) break;
        nv_push(&items, x);
        if (dict) {
            if (!expect_op(p, ":")) break;
            struct jnode *v = parse_expression(p, true);
            if (!v) break;
            nv_push(&items, v);
        }
    }
    if (p->failed || !expect_op(p, close)) {
        free(items.v);
        return NULL;
    }
    struct jnode *n = nn(p, dict ? JN_DICT : JN_LIST, pos);
    n->kids = nv_finish(p, &items, &n->nkids);
    return n;
}

static struct jnode *parse_primary(struct parser *p) {
    if (p->failed) return NULL;
    const struct jtok *k = cur(p);
    struct jnode *n;
    switch (k->kind) {
    case JT_NAME:
        n = nn(p, JN_CONST, k->pos);
        if (!strcmp(k->s, "true") || !strcmp(k->s, "True")) n->v = jv_bool(true);
        else if (!strcmp(k->s, "false") || !strcmp(k->s, "False")) n->v = jv_bool(false);
        else if (!strcmp(k->s, "none") || !strcmp(k->s, "None")) n->v = jv_none();
        else {
            n->kind = JN_NAME;
            n->s = k->s;
            n->slen = k->n;
        }
        advance(p);
        return n;
    case JT_STRING: {
        n = nn(p, JN_CONST, k->pos);
        if (look(p)->kind != JT_STRING) {
            n->v = const_str(p, k->s, k->n);
            advance(p);
            return n;
        }
        struct jbuf b = {0}; // adjacent literals concatenate
        while (cur(p)->kind == JT_STRING) {
            jbuf_put(&b, cur(p)->s, cur(p)->n);
            advance(p);
        }
        n->v = const_str(p, b.p ? b.p : "", b.n);
        jbuf_free(&b);
        return n;
    }
    case JT_INT:
        n = nn(p, JN_CONST, k->pos);
        n->v = jv_int(k->i);
        advance(p);
        return n;
    case JT_FLOAT:
        n = nn(p, JN_CONST, k->pos);
        n->v = jv_float(k->f);
        advance(p);
        return n;
    case JT_OP:
        if (!strcmp(k->s, "(")) {
            advance(p);
            n = parse_tuple(p, TUPLE_FULL, NULL, true);
            if (!n || !expect_op(p, ")")) return NULL;
            return n;
        }
        if (!strcmp(k->s, "[")) return parse_list_or_dict(p, false);
        if (!strcmp(k->s, "{")) return parse_list_or_dict(p, true);
        break;
    default: break;
    }
    if (lex_failed(p)) return NULL;
    char d[128];
    describe(k, d, sizeof d);
    if (k->kind == JT_EOF) return pfail(p, k->pos, FRINK_ERR_FORMAT, "unexpected end of template, expected an expression");
    return pfail(p, k->pos, FRINK_ERR_FORMAT, "unexpected '%s'", d);
}

static bool is_tuple_end(struct parser *p, const char *extra_end) {
    const struct jtok *k = cur(p);
    if (k->kind == JT_VAR_END || k->kind == JT_BLOCK_END || is_op(k, ")")) return true;
    return extra_end && is_name(k, extra_end);
}

// jinja2's parse_tuple: one expression, or a tuple when commas follow.
static struct jnode *parse_tuple(struct parser *p, int mode, const char *extra_end, bool explicit_parens) {
    uint32_t pos = cur(p)->pos;
    struct nvec args = {0};
    bool is_tuple = false;
    for (;;) {
        if (args.n && !expect_op(p, ",")) break;
        if (is_tuple_end(p, extra_end)) break;
        struct jnode *x = mode == TUPLE_SIMPLIFIED ? parse_primary(p) : parse_expression(p, mode == TUPLE_FULL);
        if (!x) break;
        nv_push(&args, x);
        if (is_op(cur(p), ",")) is_tuple = true;
        else break;
    }
    if (p->failed) {
        free(args.v);
        return NULL;
    }
    if (!is_tuple) {
        if (args.n) {
            struct jnode *x = args.v[0];
            free(args.v);
            return x;
        }
        if (!explicit_parens) {
            if (lex_failed(p)) return NULL;
            char d[128];
            describe(cur(p), d, sizeof d);
            return pfail(p, cur(p)->pos, FRINK_ERR_FORMAT, "Expected an expression, got '%s'", d);
        }
    }
    struct jnode *n = nn(p, JN_TUPLE, pos);
    n->kids = nv_finish(p, &args, &n->nkids);
    return n;
}

// ( args, name=value, *args, **kwargs )
static bool parse_call_args(struct parser *p, struct jargs *out) {
    uint32_t pos = cur(p)->pos;
    if (!expect_op(p, "(")) return false;
    struct nvec pos_args = {0};
    struct jkwarg *kw = NULL;
    int nkw = 0, capkw = 0;
    bool need_comma = false;
    while (!is_op(cur(p), ")")) {
        if (need_comma) {
            if (!expect_op(p, ",")) break;
            if (is_op(cur(p), ")")) break;
        }
        if (is_op(cur(p), "*")) {
            if (out->star || out->starstar) goto bad;
            advance(p);
            if (!(out->star = parse_expression(p, true))) break;
        } else if (is_op(cur(p), "**")) {
            if (out->starstar) goto bad;
            advance(p);
            if (!(out->starstar = parse_expression(p, true))) break;
        } else if (cur(p)->kind == JT_NAME && is_op(look(p), "=")) {
            if (out->starstar) goto bad;
            const char *name = cur(p)->s;
            advance(p);
            advance(p);
            struct jnode *v = parse_expression(p, true);
            if (!v) break;
            if (nkw == capkw) {
                capkw = capkw ? capkw * 2 : 4;
                kw = jx_realloc(kw, (size_t)capkw * sizeof *kw);
            }
            kw[nkw++] = (struct jkwarg){name, v};
        } else {
            if (out->star || out->starstar || nkw) goto bad;
            struct jnode *v = parse_expression(p, true);
            if (!v) break;
            nv_push(&pos_args, v);
        }
        need_comma = true;
    }
    if (!p->failed) expect_op(p, ")");
    out->pos = nv_finish(p, &pos_args, &out->npos);
    if (nkw) {
        out->kw = jarena_alloc(p->t, (size_t)nkw * sizeof *kw);
        memcpy(out->kw, kw, (size_t)nkw * sizeof *kw);
    }
    out->nkw = nkw;
    free(kw);
    return !p->failed;
bad:
    free(kw);
    free(pos_args.v);
    pfail(p, pos, FRINK_ERR_FORMAT, "invalid syntax for function call expression");
    return false;
}

static struct jnode *parse_subscribed(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    struct jnode *args[3] = {0};
    if (is_op(cur(p), ":")) {
        advance(p);
    } else {
        struct jnode *x = parse_expression(p, true);
        if (!x || !is_op(cur(p), ":")) return x;
        advance(p);
        args[0] = x;
    }
    if (!is_op(cur(p), ":") && !is_op(cur(p), "]") && !is_op(cur(p), ",")) {
        if (!(args[1] = parse_expression(p, true))) return NULL;
    }
    if (is_op(cur(p), ":")) {
        advance(p);
        if (!is_op(cur(p), "]") && !is_op(cur(p), ",")) {
            if (!(args[2] = parse_expression(p, true))) return NULL;
        }
    }
    struct jnode *n = nn(p, JN_SLICE, pos);
    n->a = args[0];
    n->b = args[1];
    n->c = args[2];
    return n;
}

static struct jnode *parse_postfix(struct parser *p, struct jnode *node) {
    while (node && !p->failed) {
        const struct jtok *k = cur(p);
        if (is_op(k, ".")) {
            uint32_t pos = k->pos;
            advance(p);
            const struct jtok *a = cur(p);
            if (a->kind == JT_NAME) {
                struct jnode *n = nn(p, JN_GETATTR, pos);
                n->a = node;
                n->s = a->s;
                n->slen = a->n;
                advance(p);
                node = n;
            } else if (a->kind == JT_INT) {
                struct jnode *n = nn(p, JN_GETITEM, pos);
                n->a = node;
                n->b = nn(p, JN_CONST, a->pos);
                n->b->v = jv_int(a->i);
                advance(p);
                node = n;
            } else {
                if (lex_failed(p)) return NULL;
                return pfail(p, a->pos, FRINK_ERR_FORMAT, "expected name or number");
            }
        } else if (is_op(k, "[")) {
            uint32_t pos = k->pos;
            advance(p);
            struct nvec args = {0};
            while (!is_op(cur(p), "]")) {
                if (args.n && !expect_op(p, ",")) break;
                struct jnode *x = parse_subscribed(p);
                if (!x) break;
                nv_push(&args, x);
            }
            if (p->failed || !expect_op(p, "]")) {
                free(args.v);
                return NULL;
            }
            struct jnode *n = nn(p, JN_GETITEM, pos);
            n->a = node;
            if (args.n == 1) {
                n->b = args.v[0];
                free(args.v);
            } else {
                n->b = nn(p, JN_TUPLE, pos);
                n->b->kids = nv_finish(p, &args, &n->b->nkids);
            }
            node = n;
        } else if (is_op(k, "(")) {
            struct jnode *n = nn(p, JN_CALL, k->pos);
            n->a = node;
            if (!parse_call_args(p, &n->args)) return NULL;
            node = n;
        } else {
            break;
        }
    }
    return p->failed ? NULL : node;
}

// name(.name)* of a filter or test, into the arena.
static const char *dotted_name(struct parser *p) {
    if (cur(p)->kind != JT_NAME) {
        unexpected(p, "name");
        return NULL;
    }
    const char *name = cur(p)->s;
    advance(p);
    while (is_op(cur(p), ".")) {
        advance(p);
        if (cur(p)->kind != JT_NAME) {
            unexpected(p, "name");
            return NULL;
        }
        size_t a = strlen(name), b = cur(p)->n;
        char *d = jarena_alloc(p->t, a + b + 2);
        memcpy(d, name, a);
        d[a] = '.';
        memcpy(d + a + 1, cur(p)->s, b);
        name = d;
        advance(p);
    }
    return name;
}

static struct jnode *parse_filter(struct parser *p, struct jnode *node, bool start_inline) {
    while ((is_op(cur(p), "|") || start_inline) && !p->failed) {
        if (!start_inline) advance(p);
        start_inline = false;
        uint32_t pos = cur(p)->pos;
        const char *name = dotted_name(p);
        if (!name) return NULL;
        struct jnode *n = nn(p, JN_FILTER, pos);
        n->a = node;
        n->s = name;
        n->slen = strlen(name);
        if (is_op(cur(p), "(") && !parse_call_args(p, &n->args)) return NULL;
        node = n;
    }
    return p->failed ? NULL : node;
}

static struct jnode *parse_test(struct parser *p, struct jnode *node) {
    uint32_t ispos = cur(p)->pos;
    advance(p); // is
    bool negated = false;
    if (is_name(cur(p), "not")) {
        negated = true;
        advance(p);
    }
    uint32_t pos = cur(p)->pos;
    const char *name = dotted_name(p);
    if (!name) return NULL;
    struct jnode *n = nn(p, JN_TEST, pos);
    n->a = node;
    n->s = name;
    n->slen = strlen(name);
    const struct jtok *k = cur(p);
    if (is_op(k, "(")) {
        if (!parse_call_args(p, &n->args)) return NULL;
    } else if ((k->kind == JT_NAME || k->kind == JT_STRING || k->kind == JT_INT || k->kind == JT_FLOAT || is_op(k, "[") ||
                is_op(k, "{")) &&
               !is_name(k, "else") && !is_name(k, "or") && !is_name(k, "and")) {
        if (is_name(k, "is")) return pfail(p, k->pos, FRINK_ERR_FORMAT, "You cannot chain multiple tests with is");
        struct jnode *arg = parse_postfix(p, parse_primary(p));
        if (!arg) return NULL;
        n->args.pos = jarena_alloc(p->t, sizeof *n->args.pos);
        n->args.pos[0] = arg;
        n->args.npos = 1;
    }
    if (negated) {
        struct jnode *x = nn(p, JN_NOT, ispos);
        x->a = n;
        return x;
    }
    return n;
}

static struct jnode *parse_filter_expr(struct parser *p, struct jnode *node) {
    while (node && !p->failed) {
        const struct jtok *k = cur(p);
        if (is_op(k, "|")) node = parse_filter(p, node, false);
        else if (is_name(k, "is")) node = parse_test(p, node);
        else if (is_op(k, "(")) {
            struct jnode *n = nn(p, JN_CALL, k->pos);
            n->a = node;
            if (!parse_call_args(p, &n->args)) return NULL;
            node = n;
        } else break;
    }
    return p->failed ? NULL : node;
}

// ---- statements ---------------------------------------------------------------------------------

static bool can_assign(const struct jnode *n) {
    if (n->kind == JN_NAME) return true;
    if (n->kind != JN_TUPLE) return false;
    for (int i = 0; i < n->nkids; i++)
        if (!can_assign(n->kids[i])) return false;
    return true;
}

static const char *node_kind_name(const struct jnode *n) {
    switch (n->kind) {
    case JN_CONST: return "const";
    case JN_LIST: return "list";
    case JN_DICT: return "dict";
    case JN_TUPLE: return "tuple";
    case JN_GETATTR: return "getattr";
    case JN_GETITEM: return "getitem";
    case JN_CALL: return "call";
    default: return "expression";
    }
}

// for/with targets: a name or a tuple of them; set also takes ns.attr (a JN_GETATTR on a name).
static struct jnode *parse_assign_target(struct parser *p, const char *extra_end, bool with_namespace, bool name_only) {
    const struct jtok *k = cur(p);
    struct jnode *t;
    if (name_only) {
        if (k->kind != JT_NAME) return unexpected(p, "name");
        t = nn(p, JN_NAME, k->pos);
        t->s = k->s;
        t->slen = k->n;
        advance(p);
        return t;
    }
    if (with_namespace && k->kind == JT_NAME && is_op(look(p), ".")) {
        t = nn(p, JN_GETATTR, k->pos);
        t->a = nn(p, JN_NAME, k->pos);
        t->a->s = k->s;
        t->a->slen = k->n;
        advance(p);
        advance(p);
        if (cur(p)->kind != JT_NAME) return unexpected(p, "name");
        t->s = cur(p)->s;
        t->slen = cur(p)->n;
        advance(p);
        return t;
    }
    t = parse_tuple(p, TUPLE_SIMPLIFIED, extra_end, false);
    if (!t) return NULL;
    if (!can_assign(t)) {
        const struct jnode *bad = t;
        if (t->kind == JN_TUPLE)
            for (int i = 0; i < t->nkids; i++)
                if (!can_assign(t->kids[i])) bad = t->kids[i];
        return pfail(p, bad->pos, FRINK_ERR_FORMAT, "can't assign to '%s'", node_kind_name(bad));
    }
    return t;
}

// The body up to one of `ends`; the current token is then that end tag's name.
static struct jnode **parse_statements(struct parser *p, const char *tag, uint32_t tag_pos, const char *const *ends, int nends,
                                       int *nbody) {
    if (is_op(cur(p), ":")) advance(p);
    if (!expect_kind(p, JT_BLOCK_END)) return NULL;
    if (p->nopen == JINJA_MAX_NEST) {
        pfail(p, tag_pos, FRINK_ERR_UNSUPPORTED, "statements nested more than %d deep", JINJA_MAX_NEST);
        return NULL;
    }
    p->open[p->nopen++] = (struct opener){tag, tag_pos, ends, nends};
    struct jnode **body = subparse(p, ends, nends, nbody);
    p->nopen--;
    return body;
}

static const char *const ends_for[] = {"endfor", "else"};
static const char *const ends_endfor[] = {"endfor"};
static const char *const ends_if[] = {"elif", "else", "endif"};
static const char *const ends_endif[] = {"endif"};
static const char *const ends_set[] = {"endset"};
static const char *const ends_macro[] = {"endmacro"};
static const char *const ends_call[] = {"endcall"};
static const char *const ends_filter[] = {"endfilter"};
static const char *const ends_with[] = {"endwith"};
static const char *const ends_gen[] = {"endgeneration"};

// Consumes the end tag name the body stopped at (the block end is left to the caller).
static const char *take_end(struct parser *p) {
    const char *s = cur(p)->s;
    advance(p);
    return s;
}

static struct jnode *parse_for(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *n = nn(p, JN_FOR, pos);
    if (!(n->target = parse_assign_target(p, "in", false, false))) return NULL;
    if (!is_name(cur(p), "in")) return unexpected(p, "in");
    advance(p);
    if (!(n->a = parse_tuple(p, TUPLE_NO_COND, "recursive", false))) return NULL;
    if (is_name(cur(p), "if")) {
        advance(p);
        if (!(n->b = parse_expression(p, true))) return NULL;
    }
    if (is_name(cur(p), "recursive")) {
        advance(p);
        n->flags |= JNF_RECURSIVE;
    }
    n->body = parse_statements(p, "for", pos, ends_for, 2, &n->nbody);
    if (p->failed) return NULL;
    if (!strcmp(take_end(p), "else")) {
        n->els = parse_statements(p, "for", pos, ends_endfor, 1, &n->nels);
        if (p->failed) return NULL;
        advance(p);
    }
    return n;
}

static struct jnode *parse_if(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *top = nn(p, JN_IF, pos), *node = top;
    for (;;) {
        if (!(node->a = parse_tuple(p, TUPLE_NO_COND, NULL, false))) return NULL;
        node->body = parse_statements(p, "if", pos, ends_if, 3, &node->nbody);
        if (p->failed) return NULL;
        uint32_t epos = cur(p)->pos;
        const char *end = take_end(p);
        if (!strcmp(end, "elif")) {
            struct jnode *e = nn(p, JN_IF, epos);
            node->els = jarena_alloc(p->t, sizeof *node->els);
            node->els[0] = e;
            node->nels = 1;
            node = e;
            continue;
        }
        if (!strcmp(end, "else")) {
            node->els = parse_statements(p, "if", pos, ends_endif, 1, &node->nels);
            if (p->failed) return NULL;
            advance(p);
        }
        return top;
    }
}

static struct jnode *parse_set(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *target = parse_assign_target(p, NULL, true, false);
    if (!target) return NULL;
    if (is_op(cur(p), "=")) {
        advance(p);
        struct jnode *n = nn(p, JN_SET, pos);
        n->target = target;
        n->a = parse_tuple(p, TUPLE_FULL, NULL, false);
        return n->a ? n : NULL;
    }
    struct jnode *n = nn(p, JN_SETBLOCK, pos);
    n->target = target;
    if (is_op(cur(p), "|") && !(n->b = parse_filter(p, NULL, false))) return NULL;
    n->body = parse_statements(p, "set", pos, ends_set, 1, &n->nbody);
    if (p->failed) return NULL;
    advance(p);
    return n;
}

// ( name, name=default, ... ) of a macro or call block.
static bool parse_signature(struct parser *p, struct jnode *n) {
    if (!expect_op(p, "(")) return false;
    const char **names = NULL;
    struct jnode **defs = NULL;
    int cnt = 0, cap = 0;
    bool any_default = false;
    while (!is_op(cur(p), ")")) {
        if (cnt && !expect_op(p, ",")) break;
        const struct jtok *k = cur(p);
        if (k->kind != JT_NAME) {
            unexpected(p, "name");
            break;
        }
        if (cnt == cap) {
            cap = cap ? cap * 2 : 4;
            names = jx_realloc(names, (size_t)cap * sizeof *names);
            defs = jx_realloc(defs, (size_t)cap * sizeof *defs);
        }
        names[cnt] = k->s;
        defs[cnt] = NULL;
        advance(p);
        if (is_op(cur(p), "=")) {
            advance(p);
            if (!(defs[cnt] = parse_expression(p, true))) break;
            any_default = true;
        } else if (any_default) {
            pfail(p, k->pos, FRINK_ERR_FORMAT, "non-default argument follows default argument");
            break;
        }
        cnt++;
    }
    if (!p->failed) expect_op(p, ")");
    if (cnt) {
        n->params = jarena_alloc(p->t, (size_t)cnt * sizeof *names);
        n->defaults = jarena_alloc(p->t, (size_t)cnt * sizeof *defs);
        memcpy(n->params, names, (size_t)cnt * sizeof *names);
        memcpy(n->defaults, defs, (size_t)cnt * sizeof *defs);
    }
    n->nparams = cnt;
    free(names);
    free(defs);
    return !p->failed;
}

static struct jnode *parse_macro(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    if (cur(p)->kind != JT_NAME) return unexpected(p, "name");
    struct jnode *n = nn(p, JN_MACRO, pos);
    n->s = cur(p)->s;
    n->slen = cur(p)->n;
    advance(p);
    if (!parse_signature(p, n)) return NULL;
    n->body = parse_statements(p, "macro", pos, ends_macro, 1, &n->nbody);
    if (p->failed) return NULL;
    advance(p);
    return n;
}

static struct jnode *parse_call_block(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *n = nn(p, JN_CALLBLOCK, pos);
    n->s = "caller";
    n->slen = 6;
    if (is_op(cur(p), "(") && !parse_signature(p, n)) return NULL;
    if (!(n->a = parse_expression(p, true))) return NULL;
    if (n->a->kind != JN_CALL) return pfail(p, pos, FRINK_ERR_FORMAT, "expected call");
    n->body = parse_statements(p, "call", pos, ends_call, 1, &n->nbody);
    if (p->failed) return NULL;
    advance(p);
    return n;
}

static struct jnode *parse_filter_block(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *n = nn(p, JN_FILTERBLOCK, pos);
    if (!(n->b = parse_filter(p, NULL, true))) return NULL;
    n->body = parse_statements(p, "filter", pos, ends_filter, 1, &n->nbody);
    if (p->failed) return NULL;
    advance(p);
    return n;
}

static struct jnode *parse_with(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *n = nn(p, JN_WITH, pos);
    struct nvec targets = {0}, values = {0};
    while (cur(p)->kind != JT_BLOCK_END) {
        if (targets.n && !expect_op(p, ",")) break;
        struct jnode *t = parse_assign_target(p, NULL, false, false);
        if (!t) break;
        nv_push(&targets, t);
        if (!expect_op(p, "=")) break;
        struct jnode *v = parse_expression(p, true);
        if (!v) break;
        nv_push(&values, v);
    }
    n->kids = nv_finish(p, &targets, &n->nkids);
    n->args.pos = nv_finish(p, &values, &n->args.npos);
    if (p->failed) return NULL;
    n->body = parse_statements(p, "with", pos, ends_with, 1, &n->nbody);
    if (p->failed) return NULL;
    advance(p);
    return n;
}

static struct jnode *parse_print(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    advance(p);
    struct jnode *n = nn(p, JN_OUTPUT, pos);
    struct nvec items = {0};
    while (cur(p)->kind != JT_BLOCK_END) {
        if (items.n && !expect_op(p, ",")) break;
        struct jnode *x = parse_expression(p, true);
        if (!x) break;
        nv_push(&items, x);
    }
    n->kids = nv_finish(p, &items, &n->nkids);
    return p->failed ? NULL : n;
}

// "'endfor' or 'else'" for the innermost open statement.
static void expected_ends(struct parser *p, char *buf, size_t n) {
    buf[0] = 0;
    if (!p->nopen) return;
    const struct opener *o = &p->open[p->nopen - 1];
    size_t m = 0;
    for (int i = 0; i < o->nends && m < n; i++) m += (size_t)snprintf(buf + m, n - m, "%s'%s'", i ? " or " : "", o->ends[i]);
}

static void *fail_tag(struct parser *p, const struct jtok *k, const char *name) {
    char ends[128];
    expected_ends(p, ends, sizeof ends);
    if (!p->nopen) return pfail(p, k->pos, FRINK_ERR_FORMAT, "unknown tag '%s'", name);
    const struct opener *o = &p->open[p->nopen - 1];
    int line, col;
    jinja_linecol(p->t, o->pos, &line, &col);
    return pfail(p, k->pos, FRINK_ERR_FORMAT, "unknown tag '%s': expected %s to close the '%s' of line %d", name, ends, o->tag, line);
}

static struct jnode *parse_statement(struct parser *p) {
    const struct jtok *k = cur(p);
    if (k->kind != JT_NAME) {
        if (lex_failed(p)) return NULL;
        return pfail(p, k->pos, FRINK_ERR_FORMAT, "tag name expected");
    }
    const char *s = k->s;
    if (!strcmp(s, "for")) return parse_for(p);
    if (!strcmp(s, "if")) return parse_if(p);
    if (!strcmp(s, "set")) return parse_set(p);
    if (!strcmp(s, "macro")) return parse_macro(p);
    if (!strcmp(s, "call")) return parse_call_block(p);
    if (!strcmp(s, "filter")) return parse_filter_block(p);
    if (!strcmp(s, "with")) return parse_with(p);
    if (!strcmp(s, "print")) return parse_print(p);
    if (!strcmp(s, "break") || !strcmp(s, "continue")) {
        struct jnode *n = nn(p, s[0] == 'b' ? JN_BREAK : JN_CONTINUE, k->pos);
        advance(p);
        return n;
    }
    if (!strcmp(s, "generation")) {
        // transformers' AssistantTracker: the body renders as it is (in a scope of its own, as
        // the call block it stands for).
        uint32_t pos = k->pos;
        advance(p);
        struct jnode *n = nn(p, JN_SCOPE, pos);
        n->body = parse_statements(p, "generation", pos, ends_gen, 1, &n->nbody);
        if (p->failed) return NULL;
        advance(p);
        return n;
    }
    static const char *const refused[] = {"block", "extends", "include", "import", "from", "autoescape"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (!strcmp(s, refused[i]))
            return pfail(p, k->pos, FRINK_ERR_UNSUPPORTED, "the '%s' statement is not supported (chat templates stand alone)", s);
    return fail_tag(p, k, s);
}

static struct jnode **subparse(struct parser *p, const char *const *ends, int nends, int *nbody) {
    struct nvec body = {0};
    *nbody = 0;
    if (++p->sdepth > JINJA_MAX_NEST) {
        pfail(p, cur(p)->pos, FRINK_ERR_UNSUPPORTED, "statements nested more than %d deep", JINJA_MAX_NEST);
        return NULL;
    }
    while (!p->failed) {
        const struct jtok *k = cur(p);
        if (k->kind == JT_EOF) break;
        if (k->kind == JT_ERROR) {
            lex_failed(p);
            break;
        }
        if (k->kind == JT_DATA) {
            struct jnode *d = nn(p, JN_DATA, k->pos);
            d->s = k->s;
            d->slen = k->n;
            nv_push(&body, d);
            advance(p);
        } else if (k->kind == JT_VAR_BEGIN) {
            uint32_t pos = k->pos;
            advance(p);
            struct jnode *x = parse_tuple(p, TUPLE_FULL, NULL, false);
            if (!x) break;
            if (!expect_kind(p, JT_VAR_END)) break;
            struct jnode *o = nn(p, JN_OUTPUT, pos);
            o->a = x;
            nv_push(&body, o);
        } else if (k->kind == JT_BLOCK_BEGIN) {
            advance(p);
            const struct jtok *name = cur(p);
            if (ends && name->kind == JT_NAME)
                for (int i = 0; i < nends; i++)
                    if (!strcmp(name->s, ends[i])) goto done;
            struct jnode *st = parse_statement(p);
            if (!st) break;
            nv_push(&body, st);
            if (!expect_kind(p, JT_BLOCK_END)) break;
        } else {
            unexpected(p, "template data / text");
        }
    }
    if (!p->failed && ends) { // the end of the template came first
        char e[128];
        expected_ends(p, e, sizeof e);
        const struct opener *o = &p->open[p->nopen - 1];
        int line, col;
        jinja_linecol(p->t, o->pos, &line, &col);
        pfail(p, cur(p)->pos, FRINK_ERR_FORMAT, "unexpected end of template: expected %s to close the '%s' of line %d", e, o->tag,
              line);
    }
done:
    p->sdepth--;
    if (p->failed) {
        free(body.v);
        return NULL;
    }
    return nv_finish(p, &body, nbody);
}

// ---- the checks of jinja2's code generator ------------------------------------------------------

struct checker {
    struct parser *p;
    bool soft;    // inside an if or inline if: unknown filters and tests fail at render time
    bool in_loop; // break and continue allowed
    uint8_t seen; // JNF_VARARGS | JNF_KWARGS | JNF_CALLER read since the macro began
};

static void check_nodes(struct checker *c, struct jnode **v, int n);
static void check(struct checker *c, struct jnode *x);

// Whether jinja2's optimizer could fold x to a constant at compile time: literals and what is
// computed from literals alone (operators, subscripts, attributes, filters that do not take the
// context, tests). It matters for one thing, slices: a folded subscript goes through the
// sandbox's getitem, which turns a TypeError into an undefined value (7[:2] is undefined), while
// at render time jinja2 slices with Python's own [] and raises (x[:2] with x = 7). jinja2 keeps
// a folded value only when it has a "safe repr" (not an undefined value), except for what a
// {{ }} prints, which it evaluates at compile time whatever the value (jinja_eval.c's eval).
// strict: every part constant. Otherwise and/or/inline if count when their first operand is
// (jinja2 folds `false and x` to false); evaluating the fold then fails on a variable part, and
// the expression is left to render time (jinja_eval.c).
static bool is_const_m(const struct jnode *x, bool strict) {
    if (!x) return true;
    switch (x->kind) {
    case JN_CONST: return true;
    case JN_LIST:
    case JN_TUPLE:
    case JN_DICT:
    case JN_CONCAT:
        for (int i = 0; i < x->nkids; i++)
            if (!is_const_m(x->kids[i], strict)) return false;
        return true;
    case JN_COMPARE:
        for (int i = 0; i < x->nkids; i++)
            if (!is_const_m(x->kids[i], strict)) return false;
        return is_const_m(x->a, strict);
    case JN_NOT:
    case JN_NEG:
    case JN_POS:
    case JN_GETATTR: return is_const_m(x->a, strict);
    case JN_AND:
    case JN_OR: return is_const_m(x->a, strict) && (!strict || is_const_m(x->b, strict));
    case JN_COND: return is_const_m(x->a, strict) && (!strict || (is_const_m(x->b, strict) && is_const_m(x->c, strict)));
    case JN_BINOP:
    case JN_GETITEM: return is_const_m(x->a, strict) && is_const_m(x->b, strict);
    case JN_SLICE: return is_const_m(x->a, strict) && is_const_m(x->b, strict) && is_const_m(x->c, strict);
    case JN_FILTER:
    case JN_TEST: {
        if (!x->a || !is_const_m(x->a, strict) || x->args.star || x->args.starstar) return false;
        if (x->kind == JN_FILTER && jinja_filter_takes_context(x->s)) return false;
        for (int i = 0; i < x->args.npos; i++)
            if (!is_const_m(x->args.pos[i], strict)) return false;
        for (int i = 0; i < x->args.nkw; i++)
            if (!is_const_m(x->args.kw[i].value, strict)) return false;
        return true;
    }
    default: return false;
    }
}

static bool is_const(const struct jnode *x) { return is_const_m(x, false); }

static void check_args(struct checker *c, struct jargs *a) {
    check_nodes(c, a->pos, a->npos);
    for (int i = 0; i < a->nkw; i++) check(c, a->kw[i].value);
    check(c, a->star);
    check(c, a->starstar);
}

static void check_macro_body(struct checker *c, struct jnode *x) {
    for (int i = 0; i < x->nparams; i++)
        if (!strcmp(x->params[i], "caller") && !x->defaults[i]) {
            pfail(c->p, x->pos, FRINK_ERR_FORMAT,
                  "When defining macros or call blocks the special \"caller\" argument must be omitted or be given a default.");
            return;
        }
    struct checker in = {c->p, false, false, 0};
    for (int i = 0; i < x->nparams; i++) check(&in, x->defaults[i]);
    in.seen = 0;
    check_nodes(&in, x->body, x->nbody);
    x->flags |= in.seen;
    c->seen |= in.seen;
}

static bool has_slice(const struct jnode *x) {
    if (!x) return false;
    if (x->kind == JN_SLICE) return true;
    if (has_slice(x->a) || has_slice(x->b) || has_slice(x->c)) return true;
    for (int i = 0; i < x->nkids; i++)
        if (has_slice(x->kids[i])) return true;
    for (int i = 0; i < x->args.npos; i++)
        if (has_slice(x->args.pos[i])) return true;
    for (int i = 0; i < x->args.nkw; i++)
        if (has_slice(x->args.kw[i].value)) return true;
    return has_slice(x->args.star) || has_slice(x->args.starstar);
}

static void check(struct checker *c, struct jnode *x) {
    if (!x || c->p->failed) return;
    struct parser *p = c->p;
    if (x->kind < JN_DATA && x->kind != JN_CONST && has_slice(x) && is_const(x)) x->flags |= JNF_FOLD;
    // jinja2 writes a folded negative number without parentheses into the Python it compiles to:
    // -2 ** x runs as -(2 ** x). (With both sides constant, ** itself folds: -2 ** 2 is 4.)
    if (x->kind == JN_BINOP && x->op == JOP_POW && is_const_m(x->a, true) && !is_const_m(x->b, true)) x->flags |= JNF_NEGPOW;
    switch (x->kind) {
    case JN_NAME:
        if (!strcmp(x->s, "varargs")) c->seen |= JNF_VARARGS;
        else if (!strcmp(x->s, "kwargs")) c->seen |= JNF_KWARGS;
        else if (!strcmp(x->s, "caller")) c->seen |= JNF_CALLER;
        return;
    case JN_FILTER: {
        check(c, x->a);
        const struct jfilter_def *f = jinja_filter_find(x->s);
        if (f && f->fn) x->fn = f;
        else if (!c->soft) {
            if (f) pfail(p, x->pos, FRINK_ERR_UNSUPPORTED, "the filter '%s' is not supported", x->s);
            else pfail(p, x->pos, FRINK_ERR_FORMAT, "No filter named '%s'.", x->s);
            return;
        }
        check_args(c, &x->args);
        return;
    }
    case JN_TEST: {
        check(c, x->a);
        const struct jtest_def *f = jinja_test_find(x->s);
        if (f) x->fn = f;
        else if (!c->soft) {
            pfail(p, x->pos, FRINK_ERR_FORMAT, "No test named '%s'.", x->s);
            return;
        }
        check_args(c, &x->args);
        return;
    }
    case JN_COND: {
        bool soft = c->soft;
        c->soft = true;
        check(c, x->b);
        check(c, x->a);
        check(c, x->c);
        c->soft = soft;
        return;
    }
    case JN_IF: {
        bool soft = c->soft;
        c->soft = true;
        check(c, x->a);
        check_nodes(c, x->body, x->nbody);
        check_nodes(c, x->els, x->nels);
        c->soft = soft;
        return;
    }
    case JN_FOR: {
        check(c, x->a);
        struct checker in = {p, false, true, 0};
        check(&in, x->b);
        check_nodes(&in, x->body, x->nbody);
        c->seen |= in.seen;
        check_nodes(c, x->els, x->nels);
        return;
    }
    case JN_MACRO: check_macro_body(c, x); return;
    case JN_CALLBLOCK:
        check(c, x->a);
        check_macro_body(c, x);
        return;
    case JN_FILTERBLOCK:
    case JN_SETBLOCK:
    case JN_WITH:
    case JN_SCOPE: {
        if (x->kind == JN_WITH) check_nodes(c, x->args.pos, x->args.npos);
        struct checker in = {p, false, x->kind == JN_SCOPE ? false : c->in_loop, 0};
        check(&in, x->b);
        check_nodes(&in, x->body, x->nbody);
        c->seen |= in.seen;
        return;
    }
    case JN_BREAK:
    case JN_CONTINUE:
        if (!c->in_loop) pfail(p, x->pos, FRINK_ERR_FORMAT, "'%s' outside loop", x->kind == JN_BREAK ? "break" : "continue");
        return;
    case JN_CALL: check(c, x->a); check_args(c, &x->args); return;
    case JN_OUTPUT:
        if (x->a) x->a->flags |= JNF_OUT_ROOT;
        for (int i = 0; i < x->nkids; i++) x->kids[i]->flags |= JNF_OUT_ROOT;
        check(c, x->a);
        check_nodes(c, x->kids, x->nkids);
        return;
    case JN_LIST:
    case JN_TUPLE:
    case JN_DICT:
    case JN_CONCAT:
    case JN_COMPARE:
    default:
        check(c, x->a);
        check(c, x->b);
        check(c, x->c);
        check(c, x->target);
        check_nodes(c, x->kids, x->nkids);
        return;
    }
}

static void check_nodes(struct checker *c, struct jnode **v, int n) {
    for (int i = 0; i < n; i++) check(c, v[i]);
}

frink_status jinja_parse_tokens(struct jinja_tmpl *t, const struct jtok *tok, size_t ntok) {
    struct parser p = {.t = t, .tok = tok, .ntok = ntok};
    t->body = subparse(&p, NULL, 0, &t->nbody);
    if (p.failed) return p.st;
    struct checker c = {&p, false, false, 0};
    check_nodes(&c, t->body, t->nbody);
    return p.failed ? p.st : FRINK_OK;
}
