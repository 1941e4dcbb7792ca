// jinja_filters.c — jinja2's built-in filters and tests, with transformers' tojson in place of
// jinja2's. Each follows jinja2/filters.py and jinja2/tests.py: string filters first turn their
// input into a string (so `5|upper` is "5"), map/select/reject/unique/batch/reverse return
// iterators (truthy, no length, consumed once) as jinja2's generators are, and an error such a
// generator would raise while being consumed is raised when it is consumed.
//
// Filters jinja2 has and frink refuses, by name: filesizeformat, groupby, pprint, random,
// striptags, urlencode, urlize, wordwrap, xmlattr.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "core/err.h"
#include "template/jinja_int.h"

static bool given(struct jv v) { return !(v.k == JV_UNDEF && !v.o); }
static bool is_intlike(struct jv v) { return v.k == JV_INT || v.k == JV_BOOL; }
static int64_t as_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }

#define BIND(fname, ...)                                                                                                   \
    static const char *const params[] = {__VA_ARGS__};                                                                  \
    enum { NP = sizeof params / sizeof *params };                                                                       \
    struct jv p[NP];                                                                                                     \
    if (jr_bind(r, fname, a, params, NP, p)) return -1

static struct jv list_of(struct jlist *l) { return (struct jv){.k = JV_LIST, .o = &l->h}; }

// soft_str(): a string as it is (Markup stays Markup), anything else through str().
static int soft_str(struct jrender *r, struct jv v, struct jv *out) {
    if (v.k == JV_STR) {
        *out = jv_incref(v);
        return 0;
    }
    return jr_to_str(r, v, out);
}

// An iterator over items (taking l): with `err` set, consuming past the items raises it.
static struct jv make_iter(struct jv l, const char *name) {
    JLIST(l)->sub = JL_ITER;
    JLIST(l)->iter_name = name;
    return l;
}

// jinja2's generator filters run lazily: an error met while producing the items is raised only
// when a consumer gets that far (jr_iter_exhausted). `res` holds the items made before it (taken).
// Budget errors are never deferred.
static int defer(struct jrender *r, int rc, struct jv res, struct jv *out) {
    if (!rc) {
        *out = make_iter(res, "generator");
        return 0;
    }
    if (r->fatal) {
        jv_decref(res);
        return -1;
    }
    const char *m = frink_errmsg();
    JLIST(res)->pending = jx_strndup(m, strlen(m));
    JLIST(res)->pending_st = (uint8_t)r->err_st;
    r->err = false;
    *out = make_iter(res, "generator");
    return 0;
}

// ---- attribute getters: "a.b.0" parts through the sandbox's getitem -----------------------------

struct attr_path {
    struct jv parts[16];
    int n;
};

static int attr_path_parse(struct jrender *r, struct jv attr, struct attr_path *p) {
    p->n = 0;
    if (!given(attr) || attr.k == JV_NONE) return 0;
    if (attr.k != JV_STR) {
        p->parts[p->n++] = jv_incref(attr);
        return 0;
    }
    const char *s = JSTR(attr)->s;
    size_t n = JSTR(attr)->len, i = 0;
    for (;;) {
        size_t e = i;
        while (e < n && s[e] != '.') e++;
        if (p->n == 16) return jr_fail(r, "attribute path '%s' too long", s);
        bool digits = e > i;
        int64_t v = 0;
        for (size_t q = i; q < e; q++) {
            digits = digits && s[q] >= '0' && s[q] <= '9';
            if (digits) v = v * 10 + (s[q] - '0');
        }
        p->parts[p->n++] = digits && e - i < 18 ? jv_int(v) : jv_str(s + i, e - i);
        if (e >= n) break;
        i = e + 1;
    }
    return 0;
}

static void attr_path_free(struct attr_path *p) { jv_decref_n(p->parts, (size_t)p->n); }

static int attr_get(struct jrender *r, const struct attr_path *p, struct jv item, struct jv dflt, struct jv *out) {
    struct jv cur = jv_incref(item);
    for (int i = 0; i < p->n; i++) {
        struct jv next;
        struct jv key = p->parts[i];
        int rc = jr_getitem(r, &cur, &key, &next);
        jv_decref(cur);
        if (rc) return -1;
        cur = next;
        if (given(dflt) && dflt.k != JV_NONE && cur.k == JV_UNDEF) {
            jv_decref(cur);
            cur = jv_incref(dflt);
        }
    }
    *out = cur;
    return 0;
}

// ignore_case: lowercases strings, leaves anything else.
static int fold(struct jrender *r, struct jv v, bool on, struct jv *out) {
    if (!on || v.k != JV_STR) {
        *out = jv_incref(v);
        return 0;
    }
    struct jbuf b = {.r = r};
    jr_str_lower(r, JSTR(v)->s, JSTR(v)->len, &b);
    return jr_str_from_buf(r, &b, out);
}

// ---- sorting ------------------------------------------------------------------------------

struct sort_item {
    struct jv *keys; // [nkeys]
    size_t idx;      // original position (stability)
};

static int keys_less(struct jrender *r, const struct jv *a, const struct jv *b, int nk, bool *res) {
    for (int i = 0; i < nk; i++) {
        if (jv_eq(a[i], b[i])) continue;
        return jr_compare(r, JCMP_LT, a[i], b[i], res);
    }
    *res = false;
    return 0;
}

// Stable merge sort of items by keys (Python's sorted(); reverse keeps equal items in order).
static int sort_items(struct jrender *r, struct sort_item *it, size_t n, int nk, bool reverse) {
    if (n < 2) return 0;
    struct sort_item *tmp = jx_alloc(n * sizeof *tmp);
    int rc = 0;
    for (size_t w = 1; w < n && !rc; w *= 2) {
        for (size_t lo = 0; lo < n && !rc; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                bool lt;
                // take from the right only when it must come first
                if (reverse) rc = keys_less(r, it[i].keys, it[j].keys, nk, &lt);
                else rc = keys_less(r, it[j].keys, it[i].keys, nk, &lt);
                if (rc) break;
                tmp[k++] = lt ? it[j++] : it[i++];
            }
            if (rc) break;
            while (i < mid) tmp[k++] = it[i++];
            while (j < hi) tmp[k++] = it[j++];
        }
        if (!rc) memcpy(it, tmp, n * sizeof *it);
    }
    free(tmp);
    return rc;
}

// sorted(items, key=..., reverse=...) where keys[i*nk..] are item i's keys (taken).
static int sorted_list(struct jrender *r, struct jlist *items, struct jv *keys, int nk, bool reverse, struct jv *out) {
    size_t n = items->n;
    struct sort_item *it = jx_alloc((n ? n : 1) * sizeof *it);
    for (size_t i = 0; i < n; i++) it[i] = (struct sort_item){&keys[i * (size_t)nk], i};
    int rc = sort_items(r, it, n, nk, reverse);
    if (!rc) {
        *out = jv_list_new(JL_LIST, n);
        for (size_t i = 0; i < n; i++) jlist_push(JLIST(*out), jv_incref(items->v[it[i].idx]));
    }
    free(it);
    return rc;
}

// ---- filters ---------------------------------------------------------------------------------

static int f_tojson(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("tojson", "ensure_ascii", "indent", "separators", "sort_keys");
    struct jdump_opts o = {.ensure_ascii = given(p[0]) && jv_truthy(p[0]), .sort_keys = given(p[3]) && jv_truthy(p[3])};
    char spaces[64];
    struct jv ind = p[1];
    if (given(ind) && ind.k != JV_NONE) {
        if (ind.k == JV_STR) {
            o.indent = JSTR(ind)->s;
            o.indent_len = JSTR(ind)->len;
        } else if (is_intlike(ind)) {
            int64_t w = as_i(ind);
            if (w < 0) w = 0;
            if (w > 63) return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "tojson: indent %" PRId64 " is past frink's 63", w);
            memset(spaces, ' ', (size_t)w);
            o.indent = spaces;
            o.indent_len = (size_t)w;
        } else {
            return jr_fail(r, "can't multiply sequence by non-int of type '%s'", jv_type_name(ind));
        }
    }
    o.item_sep = o.indent ? "," : ", ";
    o.key_sep = ": ";
    if (given(p[2]) && p[2].k != JV_NONE) {
        struct jv s = p[2];
        if (s.k != JV_LIST || JLIST(s)->n != 2 || JLIST(s)->v[0].k != JV_STR || JLIST(s)->v[1].k != JV_STR)
            return jr_fail(r, "tojson: separators must be a pair of strings");
        o.item_sep = JSTR(JLIST(s)->v[0])->s;
        o.item_sep_len = JSTR(JLIST(s)->v[0])->len;
        o.key_sep = JSTR(JLIST(s)->v[1])->s;
        o.key_sep_len = JSTR(JLIST(s)->v[1])->len;
    } else {
        o.item_sep_len = strlen(o.item_sep);
        o.key_sep_len = strlen(o.key_sep);
    }
    struct jbuf b = {.r = r};
    if (jr_json_dump(r, &b, *in, &o, 0)) {
        jbuf_free(&b);
        return -1;
    }
    return jr_str_from_buf(r, &b, out);
}

static int f_length(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    if (a->npos || a->nkw) return jr_fail(r, "length() takes no arguments");
    int64_t n;
    if (jr_len(r, *in, &n)) return -1;
    *out = jv_int(n);
    return 0;
}

static int f_string(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    return soft_str(r, *in, out);
}

static int f_safe(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    if (jr_to_str(r, *in, out)) return -1;
    out->safe = 1;
    return 0;
}

static int f_escape(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    return jr_escape(r, *in, out);
}

static int f_forceescape(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    struct jv s;
    if (jr_to_str(r, *in, &s)) return -1;
    int rc = jr_escape(r, s, out);
    jv_decref(s);
    return rc;
}

static int f_trim(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("trim", "chars");
    struct jv s;
    if (soft_str(r, *in, &s)) return -1;
    int rc = jr_str_strip(r, s, p[0], 3, out);
    jv_decref(s);
    return rc;
}

static int case_filter(struct jrender *r, struct jv *in, const char *method, struct jv *out) {
    struct jv s, m;
    if (soft_str(r, *in, &s)) return -1;
    int rc = jr_getattr(r, &s, method, strlen(method), &m);
    if (!rc) {
        struct jargv none = {0};
        rc = jr_call(r, &m, &none, out);
        jv_decref(m);
    }
    jv_decref(s);
    return rc;
}

static int f_lower(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    return case_filter(r, in, "lower", out);
}
static int f_upper(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    return case_filter(r, in, "upper", out);
}
static int f_capitalize(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    return case_filter(r, in, "capitalize", out);
}

// jinja2's title: each piece split by runs of -, whitespace, (, {, [, < gets its first
// character upper-cased and the rest lower-cased.
static bool title_sep(uint32_t cp) { return cp == '-' || cp == '(' || cp == '{' || cp == '[' || cp == '<' || ju_isspace(cp); }

static int f_title(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    struct jv sv;
    if (soft_str(r, *in, &sv)) return -1;
    struct jstr *s = JSTR(sv);
    struct jbuf b = {.r = r};
    bool start = true, prev_sep = false;
    for (size_t i = 0; i < s->len;) {
        size_t adv;
        uint32_t cp = ju_decode(s->s + i, s->len - i, &adv);
        bool sep = title_sep(cp);
        if (i == 0 || sep != prev_sep) start = true;
        if (start) ju_upper_cp(&b, cp);
        else ju_lower_cp(&b, cp, s->s, s->len, i);
        start = false;
        prev_sep = sep;
        i += adv;
    }
    bool safe = sv.safe;
    jv_decref(sv);
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = safe;
    return 0;
}

static int f_default(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("default", "default_value", "boolean");
    bool use = in->k == JV_UNDEF || (given(p[1]) && jv_truthy(p[1]) && !jv_truthy(*in));
    if (use) *out = given(p[0]) ? jv_incref(p[0]) : jv_str("", 0);
    else *out = jv_incref(*in);
    return 0;
}

static int f_join(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("join", "d", "attribute");
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    struct attr_path path;
    if (attr_path_parse(r, p[1], &path)) {
        jv_decref(list_of(items));
        return -1;
    }
    struct jv sep = jv_undef();
    if (!given(p[0])) sep = jv_str("", 0);
    else if (jr_to_str(r, p[0], &sep)) goto fail;
    struct jbuf b = {.r = r};
    for (size_t i = 0; i < items->n; i++) {
        struct jv v = jv_incref(items->v[i]);
        if (path.n) {
            struct jv w;
            int rc = attr_get(r, &path, v, jv_undef(), &w);
            jv_decref(v);
            if (rc) {
                jbuf_free(&b);
                goto fail;
            }
            v = w;
        }
        if (i) jbuf_put(&b, JSTR(sep)->s, JSTR(sep)->len);
        jv_str_to(&b, v);
        jv_decref(v);
    }
    jv_decref(sep);
    attr_path_free(&path);
    jv_decref(list_of(items));
    return jr_str_from_buf(r, &b, out);
fail:
    jv_decref(sep);
    attr_path_free(&path);
    jv_decref(list_of(items));
    return -1;
}

static int f_items(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    struct jv l = jv_list_new(JL_LIST, 0);
    if (in->k == JV_UNDEF) return defer(r, 0, l, out);
    if (in->k != JV_DICT) return defer(r, jr_fail(r, "Can only get item pairs from a mapping."), l, out);
    struct jdict *d = JDICT(*in);
    for (uint32_t i = 0; i < d->n; i++) jlist_push(JLIST(l), jv_tuple2(jv_incref(d->e[i].k), jv_incref(d->e[i].v)));
    return defer(r, 0, l, out);
}

static int f_list(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    *out = list_of(items);
    return 0;
}

static int f_first(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    if (in->k == JV_LIST && JLIST(*in)->sub == JL_ITER) { // next(): consumes one item
        struct jlist *l = JLIST(*in);
        if (l->pos < l->n) {
            *out = jv_incref(l->v[l->pos++]);
            return 0;
        }
        if (jr_iter_exhausted(r, l)) return -1;
        *out = jv_undef_msg(JU_MSG, "No first item, sequence was empty.");
        return 0;
    }
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    *out = items->n ? jv_incref(items->v[0]) : jv_undef_msg(JU_MSG, "No first item, sequence was empty.");
    jv_decref(list_of(items));
    return 0;
}

static int f_last(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    if (in->k == JV_LIST && JLIST(*in)->sub == JL_ITER)
        return jr_fail(r, "'%s' object is not reversible", jv_type_name(*in));
    if (in->k != JV_UNDEF && in->k != JV_STR && in->k != JV_LIST && in->k != JV_DICT)
        return jr_fail(r, "'%s' object is not reversible", jv_type_name(*in));
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    *out = items->n ? jv_incref(items->v[items->n - 1]) : jv_undef_msg(JU_MSG, "No last item, sequence was empty.");
    jv_decref(list_of(items));
    return 0;
}

static int f_count(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) { return f_length(r, in, a, out); }

static int f_replace(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("replace", "old", "new", "count");
    if (!given(p[0]) || !given(p[1])) return jr_fail(r, "do_replace() missing required arguments 'old' and 'new'");
    struct jv s, old, nw;
    if (jr_to_str(r, *in, &s)) return -1;
    if (jr_to_str(r, p[0], &old)) {
        jv_decref(s);
        return -1;
    }
    if (jr_to_str(r, p[1], &nw)) {
        jv_decref(s);
        jv_decref(old);
        return -1;
    }
    struct jv m;
    int rc = jr_getattr(r, &s, "replace", 7, &m);
    if (!rc) {
        struct jv args[3] = {old, nw, given(p[2]) && p[2].k != JV_NONE ? p[2] : jv_int(-1)};
        struct jargv av = {.pos = args, .npos = 3};
        rc = jr_call(r, &m, &av, out);
        jv_decref(m);
    }
    jv_decref(s);
    jv_decref(old);
    jv_decref(nw);
    return rc;
}

// Python's round(x, n) for a float: correctly rounded, ties to even (glibc's printf rounds the
// exact binary value the same way).
static double py_round(double x, int64_t nd) {
    if (!isfinite(x) || x == 0) return x;
    if (nd > 300) return x;
    if (nd < -308) return copysign(0.0, x);
    if (nd >= 0) {
        char buf[700];
        snprintf(buf, sizeof buf, "%.*f", (int)nd, x);
        return strtod(buf, NULL);
    }
    double p = pow(10.0, (double)-nd), y = x / p, z = nearbyint(y);
    return z * p;
}

static int f_round(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("round", "precision", "method");
    int64_t prec = 0;
    if (given(p[0])) {
        if (!is_intlike(p[0])) return jr_fail(r, "'%s' object cannot be interpreted as an integer", jv_type_name(p[0]));
        prec = as_i(p[0]);
    }
    const char *method = "common";
    if (given(p[1])) {
        if (p[1].k != JV_STR) return jr_fail(r, "method must be common, ceil or floor");
        method = JSTR(p[1])->s;
    }
    if (strcmp(method, "common") && strcmp(method, "ceil") && strcmp(method, "floor"))
        return jr_fail(r, "method must be common, ceil or floor");
    if (in->k != JV_INT && in->k != JV_FLOAT && in->k != JV_BOOL)
        return jr_fail(r, "type %s doesn't define __round__ method", jv_type_name(*in));
    if (!strcmp(method, "common")) {
        if (in->k != JV_FLOAT) {
            int64_t v = as_i(*in);
            if (prec < 0) { // round half to even at 10^-prec
                if (prec < -18) {
                    *out = jv_int(0);
                    return 0;
                }
                int64_t m = 1;
                for (int64_t i = 0; i < -prec; i++) m *= 10;
                int64_t q = v / m, rem = v % m;
                if (rem < 0) rem += m, q -= 1;
                if (rem * 2 > m || (rem * 2 == m && (q & 1))) q += 1;
                *out = jv_int(q * m);
                return 0;
            }
            *out = jv_int(v);
            return 0;
        }
        *out = jv_float(py_round(in->f, prec));
        return 0;
    }
    double x = in->k == JV_FLOAT ? in->f : (double)as_i(*in), s = pow(10.0, (double)prec);
    double v = !strcmp(method, "ceil") ? ceil(x * s) : floor(x * s);
    if (!isfinite(v) && isfinite(x)) return jr_fail(r, "cannot convert float infinity to integer");
    *out = jv_float(v / s);
    return 0;
}

// Python's float(str): surrounding whitespace, sign, digits with single underscores, inf, nan.
static bool py_parse_float(const char *s, size_t n, double *out) {
    size_t a = 0, e = n;
    while (a < e && ju_isspace((unsigned char)s[a])) a++;
    while (e > a && ju_isspace((unsigned char)s[e - 1])) e--;
    if (a == e || e - a > 400) return false;
    char buf[410];
    size_t m = 0;
    for (size_t i = a; i < e; i++) {
        if (s[i] == '_') {
            bool ok = i > a && i + 1 < e && s[i - 1] >= '0' && s[i - 1] <= '9' && s[i + 1] >= '0' && s[i + 1] <= '9';
            if (!ok) return false;
            continue;
        }
        buf[m++] = s[i];
    }
    buf[m] = 0;
    const char *q = buf;
    if (*q == '+' || *q == '-') q++;
    if (!strcasecmp(q, "inf") || !strcasecmp(q, "infinity") || !strcasecmp(q, "nan")) {
        *out = strtod(buf, NULL);
        return true;
    }
    for (const char *c = q; *c; c++)
        if (!strchr("0123456789.eE+-", *c)) return false;
    char *end;
    *out = strtod(buf, &end);
    return end == buf + m && m > 0 && q[0] != 0;
}

// Python's int(str, base).
static int py_parse_int(const char *s, size_t n, int base, int64_t *out) {
    size_t a = 0, e = n;
    while (a < e && ju_isspace((unsigned char)s[a])) a++;
    while (e > a && ju_isspace((unsigned char)s[e - 1])) e--;
    bool neg = false;
    if (a < e && (s[a] == '+' || s[a] == '-')) neg = s[a++] == '-';
    if (a + 1 < e && s[a] == '0') {
        char c = (char)(s[a + 1] | 0x20);
        int pb = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 0;
        if (pb && (base == pb || base == 0)) base = pb, a += 2;
    }
    if (base == 0) base = 10;
    if (a == e) return -1;
    uint64_t v = 0;
    bool prev_digit = false;
    for (size_t i = a; i < e; i++) {
        if (s[i] == '_') {
            if (!prev_digit || i + 1 >= e) return -1;
            prev_digit = false;
            continue;
        }
        int c = s[i] | 0x20, d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : 99;
        if (d >= base) return -1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return -2;
        v = v * (uint64_t)base + (uint64_t)d;
        prev_digit = true;
    }
    if (v > (uint64_t)INT64_MAX + (neg ? 1 : 0)) return -2;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

static int f_int(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("int", "default", "base");
    struct jv dflt = given(p[0]) ? p[0] : jv_int(0);
    if (in->k == JV_UNDEF) return jr_undefined_error(r, *in); // int(Undefined) raises
    int64_t base = 10;
    if (given(p[1]) && is_intlike(p[1])) base = as_i(p[1]);
    switch (in->k) {
    case JV_INT:
    case JV_BOOL: *out = jv_int(as_i(*in)); return 0;
    case JV_FLOAT:
        if (!isfinite(in->f)) break;
        if (fabs(in->f) >= 9.2e18) return jr_fail(r, "integer overflow in int() (frink's integers are 64-bit)");
        *out = jv_int((int64_t)in->f);
        return 0;
    case JV_STR: {
        int64_t v;
        int rc = base >= 0 && base <= 36 && base != 1 ? py_parse_int(JSTR(*in)->s, JSTR(*in)->len, (int)base, &v) : -1;
        if (rc == -2) return jr_fail(r, "integer overflow in int() (frink's integers are 64-bit)");
        if (rc == 0) {
            *out = jv_int(v);
            return 0;
        }
        double f;
        if (py_parse_float(JSTR(*in)->s, JSTR(*in)->len, &f) && isfinite(f)) {
            if (fabs(f) >= 9.2e18) return jr_fail(r, "integer overflow in int() (frink's integers are 64-bit)");
            *out = jv_int((int64_t)f);
            return 0;
        }
        break;
    }
    default: break;
    }
    *out = jv_incref(dflt);
    return 0;
}

static int f_float(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("float", "default");
    if (in->k == JV_UNDEF) return jr_undefined_error(r, *in);
    switch (in->k) {
    case JV_FLOAT: *out = *in; return 0;
    case JV_INT:
    case JV_BOOL: *out = jv_float((double)as_i(*in)); return 0;
    case JV_STR: {
        double f;
        if (py_parse_float(JSTR(*in)->s, JSTR(*in)->len, &f)) {
            *out = jv_float(f);
            return 0;
        }
        break;
    }
    default: break;
    }
    *out = given(p[0]) ? jv_incref(p[0]) : jv_float(0.0);
    return 0;
}

static int f_abs(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    if (is_intlike(*in)) {
        int64_t v = as_i(*in);
        if (v == INT64_MIN) return jr_fail(r, "integer overflow in abs() (frink's integers are 64-bit)");
        *out = jv_int(v < 0 ? -v : v);
        return 0;
    }
    if (in->k == JV_FLOAT) {
        *out = jv_float(fabs(in->f));
        return 0;
    }
    return jr_fail(r, "bad operand type for abs(): '%s'", jv_type_name(*in));
}

static int f_indent(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("indent", "width", "first", "blank");
    if (in->k == JV_UNDEF) return jr_undefined_error(r, *in);
    if (in->k != JV_STR) return jr_fail(r, "unsupported operand type(s) for +=: '%s' and 'str'", jv_type_name(*in));
    struct jbuf ind = {.r = r};
    if (given(p[0]) && p[0].k == JV_STR) jbuf_put(&ind, JSTR(p[0])->s, JSTR(p[0])->len);
    else {
        int64_t w = 4;
        if (given(p[0])) {
            if (!is_intlike(p[0])) {
                jbuf_free(&ind);
                return jr_fail(r, "can't multiply sequence by non-int of type '%s'", jv_type_name(p[0]));
            }
            w = as_i(p[0]);
        }
        if (w > 0 && !jr_reserve(r, (size_t)w)) return -1;
        for (int64_t i = 0; i < w; i++) jbuf_putc(&ind, ' ');
    }
    bool first = given(p[1]) && jv_truthy(p[1]), blank = given(p[2]) && jv_truthy(p[2]);
    struct jstr *s = JSTR(*in);
    // s + "\n", split into lines (Python's splitlines)
    struct jbuf t = {.r = r};
    jbuf_put(&t, s->s, s->len);
    jbuf_putc(&t, '\n');
    struct jv lines = jr_splitlines(t.p, t.n, false);
    jbuf_free(&t);
    struct jlist *l = JLIST(lines);
    struct jbuf b = {.r = r};
    if (first) jbuf_put(&b, ind.p, ind.n);
    for (size_t i = 0; i < l->n; i++) {
        struct jstr *line = JSTR(l->v[i]);
        if (i) {
            jbuf_putc(&b, '\n');
            if (blank || line->len) jbuf_put(&b, ind.p, ind.n);
        }
        jbuf_put(&b, line->s, line->len);
    }
    jv_decref(lines);
    jbuf_free(&ind);
    bool safe = in->safe;
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = safe;
    return 0;
}

static bool word_cp(uint32_t cp) {
    if (cp < 0x80) return cp == '_' || (cp >= '0' && cp <= '9') || ((cp | 32) >= 'a' && (cp | 32) <= 'z');
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    return (c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO) ||
           (c >= UTF8PROC_CATEGORY_ND && c <= UTF8PROC_CATEGORY_NO);
}

static int f_wordcount(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    struct jv sv;
    if (soft_str(r, *in, &sv)) return -1;
    struct jstr *s = JSTR(sv);
    int64_t n = 0;
    bool inword = false;
    for (size_t i = 0; i < s->len;) {
        size_t adv;
        bool w = word_cp(ju_decode(s->s + i, s->len - i, &adv));
        if (w && !inword) n++;
        inword = w;
        i += adv;
    }
    jv_decref(sv);
    *out = jv_int(n);
    return 0;
}

static int f_center(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("center", "width");
    struct jv s, m;
    if (soft_str(r, *in, &s)) return -1;
    int rc = jr_getattr(r, &s, "center", 6, &m);
    if (!rc) {
        struct jv w = given(p[0]) ? p[0] : jv_int(80);
        struct jargv av = {.pos = &w, .npos = 1};
        rc = jr_call(r, &m, &av, out);
        jv_decref(m);
    }
    jv_decref(s);
    return rc;
}

static int f_format(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    if (a->npos && a->nkw) return jr_fail(r, "can't handle positional and keyword arguments at the same time");
    struct jv s, args;
    if (soft_str(r, *in, &s)) return -1;
    if (a->nkw) {
        args = jv_dict_new();
        for (int i = 0; i < a->nkw; i++) jdict_set(JDICT(args), jv_cstr(a->kwn[i]), jv_incref(a->kwv[i]));
    } else {
        args = jv_list_new(JL_TUPLE, (size_t)a->npos);
        for (int i = 0; i < a->npos; i++) jlist_push(JLIST(args), jv_incref(a->pos[i]));
    }
    int rc = jr_percent_format(r, s, args, out);
    jv_decref(s);
    jv_decref(args);
    return rc;
}

static int f_truncate(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("truncate", "length", "killwords", "end", "leeway");
    int64_t length = 255, leeway = 5;
    if (given(p[0])) {
        if (!is_intlike(p[0])) return jr_fail(r, "truncate: length must be an integer");
        length = as_i(p[0]);
    }
    if (given(p[3]) && p[3].k != JV_NONE) {
        if (!is_intlike(p[3])) return jr_fail(r, "truncate: leeway must be an integer");
        leeway = as_i(p[3]);
    }
    struct jv end = given(p[2]) ? p[2] : jv_undef();
    const char *es = end.k == JV_STR ? JSTR(end)->s : "...";
    size_t el = end.k == JV_STR ? JSTR(end)->len : 3;
    int64_t endcp = (int64_t)ju_ncp(es, el);
    if (length < endcp) return jr_fail(r, "expected length >= %" PRId64 ", got %" PRId64, endcp, length);
    if (leeway < 0) return jr_fail(r, "expected leeway >= 0, got %" PRId64, leeway);
    int64_t n;
    if (jr_len(r, *in, &n)) return -1;
    if (n <= length + leeway) { // anything that fits comes back as it is (an undefined value too)
        *out = jv_incref(*in);
        return 0;
    }
    if (in->k != JV_STR)
        return jr_fail(r, given(p[1]) && jv_truthy(p[1]) ? "can only concatenate %s (not \"str\") to %s" : "'%s' object has no attribute 'rsplit'",
                       jv_type_name(*in), jv_type_name(*in));
    struct jstr *s = JSTR(*in);
    size_t cut = ju_cp_offset(s->s, s->len, (size_t)(length - endcp));
    struct jbuf b = {.r = r};
    if (given(p[1]) && jv_truthy(p[1])) {
        jbuf_put(&b, s->s, cut);
    } else {
        size_t sp = cut; // rsplit(" ", 1)[0]
        while (sp > 0 && s->s[sp - 1] != ' ') sp--;
        jbuf_put(&b, s->s, sp ? sp - 1 : cut);
    }
    jbuf_put(&b, es, el);
    return jr_str_from_buf(r, &b, out);
}

static int f_reverse(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    (void)a;
    if (in->k == JV_STR) {
        struct jstr *s = JSTR(*in);
        struct jbuf b = {.r = r};
        for (size_t e = s->len; e > 0;) {
            size_t i = e - 1;
            while (i > 0 && ((unsigned char)s->s[i] & 0xC0) == 0x80) i--;
            size_t adv;
            ju_decode(s->s + i, e - i, &adv);
            if (i + adv != e) i = e - 1;
            jbuf_put(&b, s->s + i, e - i);
            e = i;
        }
        if (jr_str_from_buf(r, &b, out)) return -1;
        out->safe = in->safe;
        return 0;
    }
    bool iter = in->k == JV_LIST && JLIST(*in)->sub == JL_ITER;
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return jr_fail(r, "argument must be iterable");
    for (size_t i = 0; i < items->n / 2; i++) {
        struct jv t = items->v[i];
        items->v[i] = items->v[items->n - 1 - i];
        items->v[items->n - 1 - i] = t;
    }
    if (iter) *out = list_of(items); // not reversible: list(value) reversed
    else *out = make_iter(list_of(items), in->k == JV_DICT ? "dict_reversekeyiterator" : "list_reverseiterator");
    return 0;
}

static int f_sort(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("sort", "reverse", "case_sensitive", "attribute");
    bool reverse = given(p[0]) && jv_truthy(p[0]), cs = given(p[1]) && jv_truthy(p[1]);
    // attribute: comma-separated paths, each a key
    struct attr_path paths[8];
    int np = 0;
    if (given(p[2]) && p[2].k == JV_STR) {
        const char *s = JSTR(p[2])->s;
        size_t n = JSTR(p[2])->len, i = 0;
        for (;;) {
            size_t e = i;
            while (e < n && s[e] != ',') e++;
            if (np == 8) {
                for (int k = 0; k < np; k++) attr_path_free(&paths[k]);
                return jr_fail(r, "sort: more than 8 attributes");
            }
            struct jv part = jv_str(s + i, e - i);
            int rc = attr_path_parse(r, part, &paths[np]);
            jv_decref(part);
            if (rc) {
                for (int k = 0; k < np; k++) attr_path_free(&paths[k]);
                return -1;
            }
            np++;
            if (e >= n) break;
            i = e + 1;
        }
    } else {
        if (attr_path_parse(r, given(p[2]) ? p[2] : jv_none(), &paths[0])) return -1;
        np = 1;
    }
    struct jlist *items;
    int rc = jr_iterate(r, *in, &items);
    struct jv *keys = NULL;
    size_t made = 0;
    if (!rc) {
        keys = jx_alloc((items->n * (size_t)np + 1) * sizeof *keys);
        for (size_t i = 0; i < items->n && !rc; i++)
            for (int k = 0; k < np && !rc; k++) {
                struct jv v, w;
                rc = attr_get(r, &paths[k], items->v[i], jv_undef(), &v);
                if (!rc) {
                    rc = fold(r, v, !cs, &w);
                    jv_decref(v);
                    if (!rc) keys[made++] = w;
                }
            }
        if (!rc) rc = sorted_list(r, items, keys, np, reverse, out);
        jv_decref_n(keys, made);
        free(keys);
        jv_decref(list_of(items));
    }
    for (int k = 0; k < np; k++) attr_path_free(&paths[k]);
    return rc;
}

static int f_dictsort(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("dictsort", "case_sensitive", "by", "reverse");
    bool cs = given(p[0]) && jv_truthy(p[0]), reverse = given(p[2]) && jv_truthy(p[2]);
    int pos = 0;
    if (given(p[1])) {
        if (p[1].k == JV_STR && !strcmp(JSTR(p[1])->s, "value")) pos = 1;
        else if (!(p[1].k == JV_STR && !strcmp(JSTR(p[1])->s, "key")))
            return jr_fail(r, "You can only sort by either \"key\" or \"value\"");
    }
    if (in->k != JV_DICT) {
        if (in->k == JV_UNDEF) return jr_undefined_error(r, *in);
        return jr_fail(r, "'%s' object has no attribute 'items'", jv_type_name(*in));
    }
    struct jdict *d = JDICT(*in);
    struct jv items = jv_list_new(JL_LIST, d->n);
    struct jv *keys = jx_alloc((d->n + 1) * sizeof *keys);
    int rc = 0;
    uint32_t made = 0;
    for (uint32_t i = 0; i < d->n && !rc; i++) {
        jlist_push(JLIST(items), jv_tuple2(jv_incref(d->e[i].k), jv_incref(d->e[i].v)));
        rc = fold(r, pos ? d->e[i].v : d->e[i].k, !cs, &keys[i]);
        if (!rc) made++;
    }
    if (!rc) rc = sorted_list(r, JLIST(items), keys, 1, reverse, out);
    jv_decref_n(keys, made);
    free(keys);
    jv_decref(items);
    return rc;
}

static int unique_fill(struct jrender *r, struct jv *in, struct jargv *a, struct jlist *res) {
    BIND("unique", "case_sensitive", "attribute");
    bool cs = given(p[0]) && jv_truthy(p[0]);
    struct attr_path path;
    if (attr_path_parse(r, p[1], &path)) return -1;
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) {
        attr_path_free(&path);
        return -1;
    }
    struct jv seen = jv_dict_new();
    int rc = 0;
    for (size_t i = 0; i < items->n && !rc; i++) {
        struct jv k, kf;
        rc = attr_get(r, &path, items->v[i], jv_undef(), &k);
        if (rc) break;
        rc = fold(r, k, !cs, &kf);
        jv_decref(k);
        if (rc) break;
        if (!jv_hashable(kf)) {
            rc = jr_fail(r, "unhashable type: '%s'", jv_type_name(kf));
            jv_decref(kf);
            break;
        }
        if (jdict_get(JDICT(seen), kf)) {
            jv_decref(kf);
            continue;
        }
        jdict_set(JDICT(seen), kf, jv_none());
        jlist_push(res, jv_incref(items->v[i]));
    }
    jv_decref(seen);
    jv_decref(list_of(items));
    attr_path_free(&path);
    return rc;
}

static int f_unique(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    struct jv res = jv_list_new(JL_LIST, 0);
    return defer(r, unique_fill(r, in, a, JLIST(res)), res, out);
}

static int min_max(struct jrender *r, struct jv *in, struct jargv *a, bool max, struct jv *out) {
    BIND(max ? "max" : "min", "case_sensitive", "attribute");
    bool cs = given(p[0]) && jv_truthy(p[0]);
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    if (!items->n) {
        jv_decref(list_of(items));
        *out = jv_undef_msg(JU_MSG, "No aggregated item, sequence was empty.");
        return 0;
    }
    struct attr_path path;
    if (attr_path_parse(r, p[1], &path)) {
        jv_decref(list_of(items));
        return -1;
    }
    int rc = 0;
    size_t best = 0;
    struct jv bestk = jv_undef();
    for (size_t i = 0; i < items->n && !rc; i++) {
        struct jv k, kf;
        rc = attr_get(r, &path, items->v[i], jv_undef(), &k);
        if (rc) break;
        rc = fold(r, k, !cs, &kf);
        jv_decref(k);
        if (rc) break;
        if (i == 0) {
            bestk = kf;
            continue;
        }
        bool better;
        rc = jr_compare(r, max ? JCMP_GT : JCMP_LT, kf, bestk, &better);
        if (!rc && better) {
            jv_decref(bestk);
            bestk = kf;
            best = i;
        } else {
            jv_decref(kf);
        }
    }
    jv_decref(bestk);
    if (!rc) *out = jv_incref(items->v[best]);
    attr_path_free(&path);
    jv_decref(list_of(items));
    return rc;
}

static int f_min(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) { return min_max(r, in, a, false, out); }
static int f_max(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) { return min_max(r, in, a, true, out); }

static int f_sum(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("sum", "attribute", "start");
    struct attr_path path;
    if (attr_path_parse(r, p[0], &path)) return -1;
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) {
        attr_path_free(&path);
        return -1;
    }
    struct jv acc = given(p[1]) ? jv_incref(p[1]) : jv_int(0);
    int rc = 0;
    for (size_t i = 0; i < items->n && !rc; i++) {
        struct jv v, s;
        rc = attr_get(r, &path, items->v[i], jv_undef(), &v);
        if (rc) break;
        rc = jr_binop(r, JOP_ADD, acc, v, &s);
        jv_decref(v);
        if (!rc) {
            jv_decref(acc);
            acc = s;
        }
    }
    attr_path_free(&path);
    jv_decref(list_of(items));
    if (rc) {
        jv_decref(acc);
        return -1;
    }
    *out = acc;
    return 0;
}

static int f_attr(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    BIND("attr", "name");
    if (p[0].k != JV_STR) return jr_fail(r, "attribute name must be string, not '%s'", jv_type_name(p[0]));
    return jr_getattr(r, in, JSTR(p[0])->s, JSTR(p[0])->len, out);
}

// map(filter, *args, **kwargs) or map(attribute=..., default=...)
static int map_fill(struct jrender *r, struct jv *in, struct jargv *a, struct jlist *res) {
    if (!jv_truthy(*in)) return 0;
    int attr_kw = -1, default_kw = -1;
    if (!a->npos)
        for (int i = 0; i < a->nkw; i++) {
            if (!strcmp(a->kwn[i], "attribute")) attr_kw = i;
            else if (!strcmp(a->kwn[i], "default")) default_kw = i;
        }
    struct attr_path path = {0};
    const char *fname = NULL;
    struct jargv fa = {0};
    if (attr_kw >= 0) {
        for (int i = 0; i < a->nkw; i++)
            if (i != attr_kw && i != default_kw) return jr_fail(r, "Unexpected keyword argument '%s'", a->kwn[i]);
        if (attr_path_parse(r, a->kwv[attr_kw], &path)) return -1;
    } else {
        if (!a->npos) return jr_fail(r, "map requires a filter argument");
        if (a->pos[0].k != JV_STR) return jr_fail(r, "No filter named %s.", "(not a string)");
        fname = JSTR(a->pos[0])->s;
        fa = (struct jargv){a->pos + 1, a->npos - 1, a->kwn, a->kwv, a->nkw};
    }
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) {
        attr_path_free(&path);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < items->n && !rc; i++) {
        struct jv v;
        rc = fname ? jr_filter_by_name(r, fname, &items->v[i], &fa, &v)
                   : attr_get(r, &path, items->v[i], default_kw >= 0 ? a->kwv[default_kw] : jv_undef(), &v);
        if (!rc) jlist_push(res, v);
    }
    jv_decref(list_of(items));
    attr_path_free(&path);
    return rc;
}

static int f_map(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    struct jv res = jv_list_new(JL_LIST, 0);
    return defer(r, map_fill(r, in, a, JLIST(res)), res, out);
}

static int select_fill(struct jrender *r, struct jv *in, struct jargv *a, bool want, bool attr, struct jlist *res) {
    if (!jv_truthy(*in)) return 0;
    struct attr_path path = {0};
    int off = 0;
    if (attr) {
        if (!a->npos) return jr_fail(r, "Missing parameter for attribute name");
        if (attr_path_parse(r, a->pos[0], &path)) return -1;
        off = 1;
    }
    const char *test = NULL;
    if (a->npos > off) {
        if (a->pos[off].k != JV_STR) {
            attr_path_free(&path);
            return jr_fail(r, "No test named %s.", "(not a string)");
        }
        test = JSTR(a->pos[off])->s;
    }
    struct jargv ta = {a->npos > off + 1 ? a->pos + off + 1 : NULL, a->npos > off + 1 ? a->npos - off - 1 : 0, a->kwn, a->kwv, a->nkw};
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) {
        attr_path_free(&path);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < items->n && !rc; i++) {
        struct jv v;
        rc = attr_get(r, &path, items->v[i], jv_undef(), &v);
        if (rc) break;
        bool t = false;
        if (test) rc = jr_test_by_name(r, test, &v, &ta, &t);
        else t = jv_truthy(v);
        jv_decref(v);
        if (!rc && t == want) jlist_push(res, jv_incref(items->v[i]));
    }
    jv_decref(list_of(items));
    attr_path_free(&path);
    return rc;
}

static int select_reject(struct jrender *r, struct jv *in, struct jargv *a, bool want, bool attr, struct jv *out) {
    struct jv res = jv_list_new(JL_LIST, 0);
    return defer(r, select_fill(r, in, a, want, attr, JLIST(res)), res, out);
}

static int f_select(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) { return select_reject(r, in, a, true, false, out); }
static int f_reject(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) { return select_reject(r, in, a, false, false, out); }
static int f_selectattr(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    return select_reject(r, in, a, true, true, out);
}
static int f_rejectattr(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    return select_reject(r, in, a, false, true, out);
}

// batch(linecount, fill_with): jinja2's loop as it is (a count below 1 still ends).
static int batch_fill(struct jrender *r, struct jv *in, struct jargv *a, struct jlist *res) {
    BIND("batch", "linecount", "fill_with");
    if (!is_intlike(p[0])) return jr_fail(r, "'<' not supported between instances of 'int' and '%s'", jv_type_name(p[0]));
    int64_t lc = as_i(p[0]);
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    struct jv tmp = jv_list_new(JL_LIST, 0);
    for (size_t i = 0; i < items->n; i++) {
        if ((int64_t)JLIST(tmp)->n == lc) {
            jlist_push(res, tmp);
            tmp = jv_list_new(JL_LIST, 0);
        }
        jlist_push(JLIST(tmp), jv_incref(items->v[i]));
    }
    if (JLIST(tmp)->n) {
        if (given(p[1]) && p[1].k != JV_NONE) {
            if (lc - (int64_t)JLIST(tmp)->n > JINJA_MAX_RANGE) {
                jv_decref(tmp);
                jv_decref(list_of(items));
                return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "batch: filling more than %d items", JINJA_MAX_RANGE);
            }
            while ((int64_t)JLIST(tmp)->n < lc) jlist_push(JLIST(tmp), jv_incref(p[1]));
        }
        jlist_push(res, tmp);
    } else {
        jv_decref(tmp);
    }
    jv_decref(list_of(items));
    return 0;
}

static int f_batch(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    struct jv res = jv_list_new(JL_LIST, 0);
    return defer(r, batch_fill(r, in, a, JLIST(res)), res, out);
}

static int slice_fill(struct jrender *r, struct jv *in, struct jargv *a, struct jlist *res) {
    BIND("slice", "slices", "fill_with");
    if (!is_intlike(p[0])) return jr_fail(r, "unsupported operand type(s) for //: 'int' and '%s'", jv_type_name(p[0]));
    int64_t slices = as_i(p[0]);
    struct jlist *items;
    if (jr_iterate(r, *in, &items)) return -1;
    if (slices == 0) {
        jv_decref(list_of(items));
        return jr_fail(r, "integer division or modulo by zero");
    }
    if (slices > JINJA_MAX_RANGE) {
        jv_decref(list_of(items));
        return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "slice: more than %d slices", JINJA_MAX_RANGE);
    }
    int64_t len = (int64_t)items->n, per = len / slices, extra = len % slices, offset = 0;
    if (extra < 0) extra += slices, per -= 1; // Python's // and % for a negative count
    for (int64_t k = 0; k < slices; k++) {
        int64_t start = offset + k * per;
        if (k < extra) offset++;
        int64_t end = offset + (k + 1) * per;
        struct jv tmp = jv_list_new(JL_LIST, 0);
        for (int64_t i = start < 0 ? 0 : start; i < end && i < len; i++) jlist_push(JLIST(tmp), jv_incref(items->v[i]));
        if (given(p[1]) && p[1].k != JV_NONE && k >= extra) jlist_push(JLIST(tmp), jv_incref(p[1]));
        jlist_push(res, tmp);
    }
    jv_decref(list_of(items));
    return 0;
}

static int f_slice(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out) {
    struct jv res = jv_list_new(JL_LIST, 0);
    return defer(r, slice_fill(r, in, a, JLIST(res)), res, out);
}

static const struct jfilter_def filters[] = {
    {"abs", f_abs},
    {"attr", f_attr},
    {"batch", f_batch},
    {"capitalize", f_capitalize},
    {"center", f_center},
    {"count", f_count},
    {"d", f_default},
    {"default", f_default},
    {"dictsort", f_dictsort},
    {"e", f_escape},
    {"escape", f_escape},
    {"filesizeformat", NULL},
    {"first", f_first},
    {"float", f_float},
    {"forceescape", f_forceescape},
    {"format", f_format},
    {"groupby", NULL},
    {"indent", f_indent},
    {"int", f_int},
    {"items", f_items},
    {"join", f_join},
    {"last", f_last},
    {"length", f_length},
    {"list", f_list},
    {"lower", f_lower},
    {"map", f_map},
    {"max", f_max},
    {"min", f_min},
    {"pprint", NULL},
    {"random", NULL},
    {"reject", f_reject},
    {"rejectattr", f_rejectattr},
    {"replace", f_replace},
    {"reverse", f_reverse},
    {"round", f_round},
    {"safe", f_safe},
    {"select", f_select},
    {"selectattr", f_selectattr},
    {"slice", f_slice},
    {"sort", f_sort},
    {"string", f_string},
    {"striptags", NULL},
    {"sum", f_sum},
    {"title", f_title},
    {"tojson", f_tojson},
    {"trim", f_trim},
    {"truncate", f_truncate},
    {"unique", f_unique},
    {"upper", f_upper},
    {"urlencode", NULL},
    {"urlize", NULL},
    {"wordcount", f_wordcount},
    {"wordwrap", NULL},
    {"xmlattr", NULL},
};

const struct jfilter_def *jinja_filter_find(const char *name) {
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++)
        if (!strcmp(filters[i].name, name)) return &filters[i];
    return NULL;
}

bool jinja_filter_takes_context(const char *name) {
    static const char *const ctx[] = {"map", "select", "reject", "selectattr", "rejectattr"};
    for (size_t i = 0; i < sizeof ctx / sizeof *ctx; i++)
        if (!strcmp(ctx[i], name)) return true;
    return false;
}


// ---- tests ------------------------------------------------------------------------------------

// The one argument of a test; jinja2's message (Python's) when it is missing.
static int one_arg(struct jrender *r, const char *name, struct jargv *a, struct jv *v) {
    *v = jv_undef();
    if (a->npos == 1 && !a->nkw) {
        *v = a->pos[0];
        return 0;
    }
    const char *param = !strcmp(name, "sameas") ? "other" : !strcmp(name, "divisibleby") ? "num" : !strcmp(name, "in") ? "seq" : NULL;
    if (param && a->npos == 0 && a->nkw == 0) return jr_fail(r, "test_%s() missing 1 required positional argument: '%s'", name, param);
    if (param) return jr_fail(r, "test_%s() takes 2 positional arguments but %d were given", name, a->npos + 1);
    return jr_fail(r, "%s expected 2 arguments, got %d", name, a->npos + 1);
}

static int t_defined(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k != JV_UNDEF; return 0; }
static int t_undefined(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_UNDEF; return 0; }
static int t_none(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_NONE; return 0; }
static int t_boolean(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_BOOL; return 0; }
static int t_true(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_BOOL && in->b; return 0; }
static int t_false(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_BOOL && !in->b; return 0; }
static int t_integer(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_INT; return 0; }
static int t_float(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_FLOAT; return 0; }
static int t_number(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    *out = in->k == JV_INT || in->k == JV_FLOAT || in->k == JV_BOOL;
    return 0;
}
static int t_string(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_STR; return 0; }
static int t_mapping(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_DICT; return 0; }
static int t_sequence(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    uint8_t sub = in->k == JV_LIST ? JLIST(*in)->sub : 0;
    *out = in->k == JV_UNDEF || in->k == JV_STR || in->k == JV_DICT ||
           (in->k == JV_LIST && (sub == JL_LIST || sub == JL_TUPLE || sub == JL_RANGE));
    return 0;
}
static int t_iterable(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    *out = in->k == JV_UNDEF || in->k == JV_STR || in->k == JV_DICT || in->k == JV_LIST || in->k == JV_LOOP;
    return 0;
}
static int t_callable(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    *out = in->k == JV_UNDEF || in->k == JV_MACRO || in->k == JV_FUNC || in->k == JV_JOINER || (in->k == JV_LOOP && ((struct jloop *)in->o)->forn &&
                                                                            (((struct jloop *)in->o)->forn->flags & JNF_RECURSIVE));
    return 0;
}
static int t_escaped(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)r, (void)a; *out = in->k == JV_STR && in->safe; return 0; }

static int t_sameas(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    struct jv o;
    if (one_arg(r, "sameas", a, &o)) return -1;
    if (in->k != o.k) *out = false;
    else if (in->k == JV_NONE || in->k == JV_UNDEF) *out = in->k == JV_NONE || in->o == o.o;
    else if (in->k == JV_BOOL) *out = in->b == o.b;
    else if (in->k == JV_INT) *out = in->i == o.i && in->i >= -5 && in->i <= 256; // CPython's cached small ints
    else if (in->k == JV_FLOAT) *out = false;
    else *out = in->o == o.o;
    return 0;
}

static int cmp_test(struct jrender *r, const char *name, int op, struct jv *in, struct jargv *a, bool *out) {
    struct jv o;
    if (one_arg(r, name, a, &o)) return -1;
    if (op == JCMP_EQ) *out = jv_eq(*in, o);
    else if (op == JCMP_NE) *out = !jv_eq(*in, o);
    else return jr_compare(r, op, *in, o, out);
    return 0;
}
static int t_eq(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "eq", JCMP_EQ, in, a, out); }
static int t_ne(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "ne", JCMP_NE, in, a, out); }
static int t_lt(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "lt", JCMP_LT, in, a, out); }
static int t_le(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "le", JCMP_LE, in, a, out); }
static int t_gt(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "gt", JCMP_GT, in, a, out); }
static int t_ge(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { return cmp_test(r, "ge", JCMP_GE, in, a, out); }

static int t_in(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    struct jv o;
    if (one_arg(r, "in", a, &o)) return -1;
    return jr_contains(r, o, *in, out);
}

static int mod_test(struct jrender *r, struct jv *in, struct jv by, int64_t want, bool *out) {
    struct jv m;
    if (jr_binop(r, JOP_MOD, *in, by, &m)) return -1;
    *out = jv_eq(m, jv_int(want));
    jv_decref(m);
    return 0;
}
static int t_divisibleby(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    struct jv o;
    if (one_arg(r, "divisibleby", a, &o)) return -1;
    return mod_test(r, in, o, 0, out);
}
static int t_even(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)a; return mod_test(r, in, jv_int(2), 0, out); }
static int t_odd(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)a; return mod_test(r, in, jv_int(2), 1, out); }

static int case_test(struct jrender *r, struct jv *in, const char *m, bool *out) {
    struct jv s, fn, res;
    if (jr_to_str(r, *in, &s)) return -1;
    int rc = jr_getattr(r, &s, m, strlen(m), &fn);
    if (!rc) {
        struct jargv none = {0};
        rc = jr_call(r, &fn, &none, &res);
        jv_decref(fn);
        if (!rc) *out = res.k == JV_BOOL && res.b;
    }
    jv_decref(s);
    return rc;
}
static int t_lower(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)a; return case_test(r, in, "islower", out); }
static int t_upper(struct jrender *r, struct jv *in, struct jargv *a, bool *out) { (void)a; return case_test(r, in, "isupper", out); }

static int t_filter(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    *out = in->k == JV_STR && jinja_filter_find(JSTR(*in)->s) != NULL;
    return 0;
}
static int t_test(struct jrender *r, struct jv *in, struct jargv *a, bool *out) {
    (void)r, (void)a;
    *out = in->k == JV_STR && jinja_test_find(JSTR(*in)->s) != NULL;
    return 0;
}

static const struct jtest_def tests[] = {
    {"!=", t_ne},
    {"<", t_lt},
    {"<=", t_le},
    {"==", t_eq},
    {">", t_gt},
    {">=", t_ge},
    {"boolean", t_boolean},
    {"callable", t_callable},
    {"defined", t_defined},
    {"divisibleby", t_divisibleby},
    {"eq", t_eq},
    {"equalto", t_eq},
    {"escaped", t_escaped},
    {"even", t_even},
    {"false", t_false},
    {"filter", t_filter},
    {"float", t_float},
    {"ge", t_ge},
    {"greaterthan", t_gt},
    {"gt", t_gt},
    {"in", t_in},
    {"integer", t_integer},
    {"iterable", t_iterable},
    {"le", t_le},
    {"lessthan", t_lt},
    {"lower", t_lower},
    {"lt", t_lt},
    {"mapping", t_mapping},
    {"ne", t_ne},
    {"none", t_none},
    {"number", t_number},
    {"odd", t_odd},
    {"sameas", t_sameas},
    {"sequence", t_sequence},
    {"string", t_string},
    {"test", t_test},
    {"true", t_true},
    {"undefined", t_undefined},
    {"upper", t_upper},
};

const struct jtest_def *jinja_test_find(const char *name) {
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        if (!strcmp(tests[i].name, name)) return &tests[i];
    return NULL;
}
