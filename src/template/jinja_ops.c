// jinja_ops.c — Python's operators on template values: + - * / // % ** with ints (64-bit, an
// overflow fails), floats (Python's floor division and modulo), strings and lists (repetition,
// concatenation, markupsafe's Markup + str escaping the str), "in" for strings, sequences and
// dicts, len(), and markupsafe's escape().
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "template/jinja_int.h"

static bool is_num(struct jv v) { return v.k == JV_INT || v.k == JV_FLOAT || v.k == JV_BOOL; }
static bool is_intlike(struct jv v) { return v.k == JV_INT || v.k == JV_BOOL; }
static int64_t as_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }
static double as_f(struct jv v) { return v.k == JV_FLOAT ? v.f : (double)as_i(v); }

static const char *op_sym(int op) {
    static const char *const s[] = {"+", "-", "*", "/", "//", "%", "**"};
    return s[op];
}

static int unsupported(struct jrender *r, int op, struct jv a, struct jv b) {
    return jr_fail(r, "unsupported operand type(s) for %s: '%s' and '%s'", op_sym(op), jv_type_name(a), jv_type_name(b));
}

// Python's float floor division and modulo (Objects/floatobject.c).
static void py_fdivmod(double vx, double wx, double *fdiv, double *mod) {
    double m = fmod(vx, wx), div = (vx - m) / wx;
    if (m) {
        if ((wx < 0) != (m < 0)) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = copysign(0.0, wx);
    }
    double fl;
    if (div) {
        fl = floor(div);
        if (div - fl > 0.5) fl += 1.0;
    } else {
        fl = copysign(0.0, vx / wx);
    }
    *fdiv = fl;
    *mod = m;
}

int jr_escape(struct jrender *r, struct jv v, struct jv *out) {
    if (v.k == JV_STR && v.safe) {
        *out = jv_incref(v);
        return 0;
    }
    struct jv s;
    if (jr_to_str(r, v, &s)) return -1;
    struct jbuf b = {.r = r};
    const char *p = JSTR(s)->s;
    size_t n = JSTR(s)->len, run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = NULL;
        switch (p[i]) {
        case '&': e = "&amp;"; break;
        case '<': e = "&lt;"; break;
        case '>': e = "&gt;"; break;
        case '\'': e = "&#39;"; break;
        case '"': e = "&#34;"; break;
        default: run++; continue;
        }
        jbuf_put(&b, p + i - run, run);
        run = 0;
        jbuf_puts(&b, e);
    }
    jbuf_put(&b, p + n - run, run);
    jv_decref(s);
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = 1;
    return 0;
}

static int repeat(struct jrender *r, struct jv seq, int64_t times, struct jv *out) {
    if (times < 0) times = 0;
    if (seq.k == JV_STR) {
        struct jstr *s = JSTR(seq);
        if (times && s->len > ((size_t)1 << 30) / (size_t)times) return jr_fail(r, "a string would exceed 1 GiB");
        struct jbuf b = {.r = r};
        for (int64_t i = 0; i < times && !b.fail; i++) jbuf_put(&b, s->s, s->len);
        if (jr_str_from_buf(r, &b, out)) return -1;
        out->safe = seq.safe;
        return 0;
    }
    struct jlist *l = JLIST(seq);
    if (times && l->n > ((size_t)1 << 24) / (size_t)times) return jr_fail(r, "a list would exceed 2^24 items");
    if (!jr_reserve(r, l->n * (size_t)times * sizeof(struct jv))) return -1;
    *out = jv_list_new(l->sub, l->n * (size_t)times);
    for (int64_t i = 0; i < times; i++)
        for (size_t j = 0; j < l->n; j++) jlist_push(JLIST(*out), jv_incref(l->v[j]));
    return 0;
}

static int concat_str(struct jrender *r, struct jv a, struct jv b, struct jv *out) {
    // markupsafe: Markup + str escapes the str, and the result is Markup.
    struct jv ea = jv_incref(a), eb = jv_incref(b);
    bool safe = a.safe || b.safe;
    if (a.safe && !b.safe) {
        jv_decref(eb);
        if (jr_escape(r, b, &eb)) {
            jv_decref(ea);
            return -1;
        }
    } else if (b.safe && !a.safe) {
        jv_decref(ea);
        if (jr_escape(r, a, &ea)) {
            jv_decref(eb);
            return -1;
        }
    }
    struct jbuf buf = {.r = r};
    jbuf_put(&buf, JSTR(ea)->s, JSTR(ea)->len);
    jbuf_put(&buf, JSTR(eb)->s, JSTR(eb)->len);
    jv_decref(ea);
    jv_decref(eb);
    if (jr_str_from_buf(r, &buf, out)) return -1;
    out->safe = safe;
    return 0;
}

static int int_pow(struct jrender *r, int64_t base, int64_t e, struct jv *out) {
    int64_t res = 1;
    while (e > 0) {
        if (e & 1 && __builtin_mul_overflow(res, base, &res)) goto over;
        e >>= 1;
        if (e && __builtin_mul_overflow(base, base, &base)) goto over;
    }
    *out = jv_int(res);
    return 0;
over:
    return jr_fail(r, "integer overflow in ** (frink's integers are 64-bit)");
}

int jr_binop(struct jrender *r, int op, struct jv a, struct jv b, struct jv *out) {
    if (a.k == JV_UNDEF) return jr_undefined_error(r, a);
    if (op == JOP_MOD && a.k == JV_STR) return jr_percent_format(r, a, b, out); // "%s" % undefined is ""
    if (b.k == JV_UNDEF) return jr_undefined_error(r, b);
    if (is_num(a) && is_num(b)) {
        bool ints = is_intlike(a) && is_intlike(b);
        int64_t x = as_i(a), y = as_i(b), z;
        double fx = as_f(a), fy = as_f(b);
        switch (op) {
        case JOP_ADD:
            if (!ints) break;
            if (__builtin_add_overflow(x, y, &z)) return jr_fail(r, "integer overflow in + (frink's integers are 64-bit)");
            *out = jv_int(z);
            return 0;
        case JOP_SUB:
            if (!ints) break;
            if (__builtin_sub_overflow(x, y, &z)) return jr_fail(r, "integer overflow in - (frink's integers are 64-bit)");
            *out = jv_int(z);
            return 0;
        case JOP_MUL:
            if (!ints) break;
            if (__builtin_mul_overflow(x, y, &z)) return jr_fail(r, "integer overflow in * (frink's integers are 64-bit)");
            *out = jv_int(z);
            return 0;
        case JOP_DIV:
            if (fy == 0) return jr_fail(r, ints ? "division by zero" : "float division by zero");
            if (ints) *out = jv_float((double)((long double)x / (long double)y));
            else *out = jv_float(fx / fy);
            return 0;
        case JOP_FLOORDIV:
        case JOP_MOD:
            if (ints) {
                if (y == 0) return jr_fail(r, op == JOP_MOD ? "integer modulo by zero" : "integer division or modulo by zero");
                if (x == INT64_MIN && y == -1) {
                    if (op == JOP_MOD) *out = jv_int(0);
                    else return jr_fail(r, "integer overflow in // (frink's integers are 64-bit)");
                    return 0;
                }
                int64_t q = x / y, m = x % y;
                if (m && ((m < 0) != (y < 0))) m += y, q -= 1;
                *out = jv_int(op == JOP_MOD ? m : q);
                return 0;
            }
            if (fy == 0) return jr_fail(r, op == JOP_MOD ? "float modulo" : "float floor division by zero");
            {
                double d, m;
                py_fdivmod(fx, fy, &d, &m);
                *out = jv_float(op == JOP_MOD ? m : d);
            }
            return 0;
        case JOP_POW:
            if (ints && y >= 0) return int_pow(r, x, y, out);
            if (fx == 0 && fy < 0) return jr_fail(r, "0.0 cannot be raised to a negative power");
            if (fx < 0 && fy != floor(fy)) return jr_fail(r, "a negative number to a fractional power is complex (not supported)");
            *out = jv_float(pow(fx, fy));
            if (isinf(out->f) && !isinf(fx) && !isinf(fy)) return jr_fail(r, "(34, 'Numerical result out of range')");
            return 0;
        }
        // a float is involved
        switch (op) {
        case JOP_ADD: *out = jv_float(fx + fy); return 0;
        case JOP_SUB: *out = jv_float(fx - fy); return 0;
        default: *out = jv_float(fx * fy); return 0;
        }
    }
    switch (op) {
    case JOP_ADD:
        if (a.k == JV_STR && b.k == JV_STR) return concat_str(r, a, b, out);
        if (a.k == JV_LIST && b.k == JV_LIST && JLIST(a)->sub == JLIST(b)->sub &&
            (JLIST(a)->sub == JL_LIST || JLIST(a)->sub == JL_TUPLE)) {
            struct jlist *x = JLIST(a), *y = JLIST(b);
            if (!jr_reserve(r, (x->n + y->n) * sizeof(struct jv))) return -1;
            *out = jv_list_new(x->sub, x->n + y->n);
            for (size_t i = 0; i < x->n; i++) jlist_push(JLIST(*out), jv_incref(x->v[i]));
            for (size_t i = 0; i < y->n; i++) jlist_push(JLIST(*out), jv_incref(y->v[i]));
            return 0;
        }
        if (a.k == JV_STR && !a.safe) return jr_fail(r, "can only concatenate str (not \"%s\") to str", jv_type_name(b));
        if (a.k == JV_LIST && (JLIST(a)->sub == JL_LIST || JLIST(a)->sub == JL_TUPLE))
            return jr_fail(r, "can only concatenate %s (not \"%s\") to %s", jv_type_name(a), jv_type_name(b), jv_type_name(a));
        return unsupported(r, op, a, b);
    case JOP_MUL: {
        bool seq_a = a.k == JV_STR || (a.k == JV_LIST && (JLIST(a)->sub == JL_LIST || JLIST(a)->sub == JL_TUPLE));
        bool seq_b = b.k == JV_STR || (b.k == JV_LIST && (JLIST(b)->sub == JL_LIST || JLIST(b)->sub == JL_TUPLE));
        if (seq_a && is_intlike(b)) return repeat(r, a, as_i(b), out);
        if (seq_b && is_intlike(a)) return repeat(r, b, as_i(a), out);
        if (seq_a || seq_b) {
            struct jv s = seq_a ? a : b, o = seq_a ? b : a;
            if (o.k == JV_FLOAT || seq_a == seq_b)
                return jr_fail(r, "can't multiply sequence by non-int of type '%s'", jv_type_name(o));
            (void)s;
        }
        return unsupported(r, op, a, b);
    }
    case JOP_MOD:
        if (a.k == JV_STR) return jr_percent_format(r, a, b, out);
        return unsupported(r, op, a, b);
    default: return unsupported(r, op, a, b);
    }
}

int jr_contains(struct jrender *r, struct jv c, struct jv item, bool *res) {
    *res = false;
    switch (c.k) {
    case JV_UNDEF: return 0;
    case JV_STR:
        if (item.k != JV_STR) return jr_fail(r, "'in <string>' requires string as left operand, not %s", jv_type_name(item));
        *res = JSTR(item)->len == 0 || memmem(JSTR(c)->s, JSTR(c)->len, JSTR(item)->s, JSTR(item)->len) != NULL;
        return 0;
    case JV_LIST: {
        struct jlist *l = JLIST(c);
        size_t from = l->sub == JL_ITER ? l->pos : 0;
        for (size_t i = from; i < l->n; i++)
            if (jv_eq(l->v[i], item)) {
                *res = true;
                if (l->sub == JL_ITER) l->pos = i + 1;
                return 0;
            }
        if (l->sub == JL_ITER) {
            l->pos = l->n;
            return jr_iter_exhausted(r, l);
        }
        return 0;
    }
    case JV_DICT:
        if (!jv_hashable(item)) return jr_fail(r, "unhashable type: '%s'", jv_type_name(item));
        *res = jdict_get(JDICT(c), item) != NULL;
        return 0;
    default: return jr_fail(r, "argument of type '%s' is not iterable", jv_type_name(c));
    }
}

int jr_len(struct jrender *r, struct jv v, int64_t *n) {
    switch (v.k) {
    case JV_UNDEF: *n = 0; return 0;
    case JV_STR: *n = (int64_t)jstr_ncp(JSTR(v)); return 0;
    case JV_LIST:
        if (JLIST(v)->sub == JL_ITER) break;
        *n = (int64_t)JLIST(v)->n;
        return 0;
    case JV_DICT: *n = JDICT(v)->n; return 0;
    case JV_LOOP: *n = (int64_t)((struct jloop *)v.o)->items->n; return 0; // LoopContext.__len__
    default: break;
    }
    return jr_fail(r, "object of type '%s' has no len()", jv_type_name(v));
}

