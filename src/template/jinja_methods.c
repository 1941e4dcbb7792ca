// jinja_methods.c — the methods templates call on values (Python's str, list, dict methods; the
// loop object; cycler) and the global functions (range, dict, namespace, cycler, joiner,
// raise_exception, strftime_now), with Python's semantics: indices count code points, split()
// without a separator splits on runs of Unicode whitespace, upper() maps ß to SS, ...
//
// The sandbox (jinja2's ImmutableSandboxedEnvironment) refuses methods that change a list or a
// dict (append, pop, update, ...): they are attributes that exist but are unsafe, and calling one
// fails with SecurityError, as in transformers.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utf8proc.h>

#include "core/err.h"
#include "template/jinja_int.h"

enum {
    // str
    M_UPPER, M_LOWER, M_TITLE, M_CAPITALIZE, M_SWAPCASE, M_CASEFOLD, M_STRIP, M_LSTRIP, M_RSTRIP, M_SPLIT, M_RSPLIT,
    M_SPLITLINES, M_STARTSWITH, M_ENDSWITH, M_REPLACE, M_FIND, M_RFIND, M_INDEX, M_RINDEX, M_COUNT, M_JOIN, M_FORMAT,
    M_CENTER, M_LJUST, M_RJUST, M_ZFILL, M_ISDIGIT, M_ISALPHA, M_ISALNUM, M_ISSPACE, M_ISUPPER, M_ISLOWER, M_ISTITLE,
    M_ISDECIMAL, M_ISNUMERIC, M_PARTITION, M_RPARTITION, M_REMOVEPREFIX, M_REMOVESUFFIX,
    // list, tuple
    M_LIST_INDEX, M_LIST_COUNT, M_LIST_COPY,
    // dict
    M_ITEMS, M_KEYS, M_VALUES, M_GET, M_DICT_COPY,
    // loop, cycler
    M_LOOP_CYCLE, M_LOOP_CHANGED, M_CYCLER_NEXT, M_CYCLER_RESET,
    M_ISASCII, M_UNSUPPORTED, M_INT_BIT_LENGTH, M_FLOAT_IS_INTEGER,
    // globals
    G_RANGE, G_DICT, G_NAMESPACE, G_CYCLER, G_JOINER, G_RAISE, G_STRFTIME, G_LIPSUM,
};

struct method {
    const char *name;
    int id; // -1: exists, but the sandbox refuses it
};

static const struct method str_methods[] = {
    {"upper", M_UPPER}, {"lower", M_LOWER}, {"title", M_TITLE}, {"capitalize", M_CAPITALIZE}, {"swapcase", M_SWAPCASE},
    {"casefold", M_CASEFOLD}, {"strip", M_STRIP}, {"lstrip", M_LSTRIP}, {"rstrip", M_RSTRIP}, {"split", M_SPLIT},
    {"rsplit", M_RSPLIT}, {"splitlines", M_SPLITLINES}, {"startswith", M_STARTSWITH}, {"endswith", M_ENDSWITH},
    {"replace", M_REPLACE}, {"find", M_FIND}, {"rfind", M_RFIND}, {"index", M_INDEX}, {"rindex", M_RINDEX},
    {"count", M_COUNT}, {"join", M_JOIN}, {"format", M_FORMAT}, {"center", M_CENTER}, {"ljust", M_LJUST},
    {"rjust", M_RJUST}, {"zfill", M_ZFILL}, {"isdigit", M_ISDIGIT}, {"isalpha", M_ISALPHA}, {"isalnum", M_ISALNUM},
    {"isspace", M_ISSPACE}, {"isupper", M_ISUPPER}, {"islower", M_ISLOWER}, {"istitle", M_ISTITLE},
    {"isdecimal", M_ISDECIMAL}, {"isnumeric", M_ISNUMERIC}, {"partition", M_PARTITION}, {"rpartition", M_RPARTITION},
    {"removeprefix", M_REMOVEPREFIX}, {"removesuffix", M_REMOVESUFFIX}, {"isascii", M_ISASCII},
    // Python has these too; frink refuses a call to them by name
    {"encode", M_UNSUPPORTED}, {"expandtabs", M_UNSUPPORTED}, {"format_map", M_UNSUPPORTED},
    {"isidentifier", M_UNSUPPORTED}, {"isprintable", M_UNSUPPORTED}, {"maketrans", M_UNSUPPORTED},
    {"translate", M_UNSUPPORTED}, {NULL, 0},
};
static const struct method int_methods[] = {
    {"bit_length", M_INT_BIT_LENGTH}, {"as_integer_ratio", M_UNSUPPORTED}, {"bit_count", M_UNSUPPORTED},
    {"conjugate", M_UNSUPPORTED}, {"from_bytes", M_UNSUPPORTED}, {"to_bytes", M_UNSUPPORTED}, {NULL, 0},
};
static const struct method float_methods[] = {
    {"is_integer", M_FLOAT_IS_INTEGER}, {"as_integer_ratio", M_UNSUPPORTED}, {"conjugate", M_UNSUPPORTED},
    {"fromhex", M_UNSUPPORTED}, {"hex", M_UNSUPPORTED}, {NULL, 0},
};
static const struct method list_methods[] = {
    {"index", M_LIST_INDEX}, {"count", M_LIST_COUNT}, {"copy", M_LIST_COPY}, {"append", -1}, {"extend", -1},
    {"insert", -1}, {"pop", -1}, {"remove", -1}, {"reverse", -1}, {"sort", -1}, {"clear", -1}, {NULL, 0},
};
static const struct method tuple_methods[] = {{"index", M_LIST_INDEX}, {"count", M_LIST_COUNT}, {NULL, 0}};
static const struct method dict_methods[] = {
    {"items", M_ITEMS}, {"keys", M_KEYS}, {"values", M_VALUES}, {"get", M_GET}, {"copy", M_DICT_COPY},
    {"fromkeys", M_UNSUPPORTED}, {"clear", -1}, {"pop", -1}, {"popitem", -1}, {"setdefault", -1}, {"update", -1},
    {NULL, 0},
};

static int find_method(const struct method *t, const char *name, size_t n) {
    for (; t->name; t++)
        if (strlen(t->name) == n && !memcmp(t->name, name, n)) return t->id;
    return -2;
}

static struct jv bound(struct jv self, int id, const char *name) {
    struct jfunc *f = jx_alloc(sizeof *f);
    f->h.rc = 1;
    f->h.kind = JV_FUNC;
    f->id = id;
    f->self = jv_incref(self);
    f->name = name;
    return (struct jv){.k = JV_FUNC, .o = &f->h};
}

static const char *method_name(const struct method *t, int id) {
    for (; t->name; t++)
        if (t->id == id) return t->name;
    return "?";
}

int jr_builtin_attr(struct jrender *r, struct jv obj, const char *name, size_t n, struct jv *out) {
    (void)r;
    const struct method *t = NULL;
#define IS(s) (n == sizeof(s) - 1 && !memcmp(name, s, n))
    switch (obj.k) {
    case JV_STR: t = str_methods; break;
    case JV_INT:
    case JV_BOOL: {
        int64_t v = obj.k == JV_BOOL ? obj.b : obj.i;
        if (IS("real") || IS("numerator")) *out = jv_int(v);
        else if (IS("imag")) *out = jv_int(0);
        else if (IS("denominator")) *out = jv_int(1);
        else {
            t = int_methods;
            break;
        }
        return 1;
    }
    case JV_FLOAT:
        if (IS("real")) *out = obj;
        else if (IS("imag")) *out = jv_float(0.0);
        else {
            t = float_methods;
            break;
        }
        return 1;
    case JV_LIST:
        if (JLIST(obj)->sub == JL_LIST) t = list_methods;
        else if (JLIST(obj)->sub == JL_TUPLE || JLIST(obj)->sub == JL_RANGE) t = tuple_methods;
        break;
    case JV_DICT: t = dict_methods; break;
    case JV_LOOP: {
        struct jloop *l = (struct jloop *)obj.o;
        size_t len = l->items->n, i = l->i;
        if (IS("index")) *out = jv_int((int64_t)i + 1);
        else if (IS("index0")) *out = jv_int((int64_t)i);
        else if (IS("revindex")) *out = jv_int((int64_t)(len - i));
        else if (IS("revindex0")) *out = jv_int((int64_t)(len - i - 1));
        else if (IS("first")) *out = jv_bool(i == 0);
        else if (IS("last")) *out = jv_bool(i + 1 == len);
        else if (IS("length")) *out = jv_int((int64_t)len);
        else if (IS("depth")) *out = jv_int(l->depth0 + 1);
        else if (IS("depth0")) *out = jv_int(l->depth0);
        else if (IS("previtem"))
            *out = i > 0 ? jv_incref(l->items->v[i - 1]) : jv_undef_msg(JU_MSG, "there is no previous item");
        else if (IS("nextitem"))
            *out = i + 1 < len ? jv_incref(l->items->v[i + 1]) : jv_undef_msg(JU_MSG, "there is no next item");
        else if (IS("cycle")) *out = bound(obj, M_LOOP_CYCLE, "cycle");
        else if (IS("changed")) *out = bound(obj, M_LOOP_CHANGED, "changed");
        else return 0;
        return 1;
    }
    case JV_CYCLER: {
        struct jcycler *c = (struct jcycler *)obj.o;
        if (IS("next")) *out = bound(obj, M_CYCLER_NEXT, "next");
        else if (IS("reset")) *out = bound(obj, M_CYCLER_RESET, "reset");
        else if (IS("current")) *out = c->items->n ? jv_incref(c->items->v[c->pos]) : jv_none();
        else return 0;
        return 1;
    }
    default: break;
    }
#undef IS
    if (!t) return 0;
    int id = find_method(t, name, n);
    if (id == -2) return 0;
    if (id == -1) return 2;
    *out = bound(obj, id, method_name(t, id));
    return 1;
}

// ---- case mapping ------------------------------------------------------------------------------

// Python's full (SpecialCasing) mappings that utf8proc's simple ones miss: upper, then title.
struct special_case {
    uint32_t cp;
    const char *upper, *title;
};
static const struct special_case specials[] = {
    {0x00DF, "SS", "Ss"},                 {0x0149, "\u02BCN", "\u02BCN"}, {0x01F0, "J\u030C", "J\u030C"},
    {0x0390, "\u0399\u0308\u0301", "\u0399\u0308\u0301"}, {0x03B0, "\u03A5\u0308\u0301", "\u03A5\u0308\u0301"},
    {0x0587, "\u0535\u0552", "\u0535\u0582"}, {0x1E96, "H\u0331", "H\u0331"}, {0x1E97, "T\u0308", "T\u0308"},
    {0x1E98, "W\u030A", "W\u030A"},       {0x1E99, "Y\u030A", "Y\u030A"}, {0x1E9A, "A\u02BE", "A\u02BE"},
    {0xFB00, "FF", "Ff"},                 {0xFB01, "FI", "Fi"},           {0xFB02, "FL", "Fl"},
    {0xFB03, "FFI", "Ffi"},               {0xFB04, "FFL", "Ffl"},         {0xFB05, "ST", "St"},
    {0xFB06, "ST", "St"},                 {0xFB13, "\u0544\u0546", "\u0544\u0576"},
    {0xFB14, "\u0544\u0535", "\u0544\u0565"}, {0xFB15, "\u0544\u053B", "\u0544\u056B"},
    {0xFB16, "\u054E\u0546", "\u054E\u0576"}, {0xFB17, "\u0544\u053D", "\u0544\u056D"},
};

static const struct special_case *special(uint32_t cp) {
    if (cp < 0xDF) return NULL;
    for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
        if (specials[i].cp == cp) return &specials[i];
    return NULL;
}

void ju_upper_cp(struct jbuf *b, uint32_t cp) {
    if (cp < 0x80) {
        jbuf_putc(b, (char)(cp >= 'a' && cp <= 'z' ? cp - 32 : cp));
        return;
    }
    const struct special_case *s = special(cp);
    if (s) jbuf_puts(b, s->upper);
    else jbuf_put_cp(b, (uint32_t)utf8proc_toupper((utf8proc_int32_t)cp));
}

void ju_title_cp(struct jbuf *b, uint32_t cp) {
    if (cp < 0x80) {
        jbuf_putc(b, (char)(cp >= 'a' && cp <= 'z' ? cp - 32 : cp));
        return;
    }
    const struct special_case *s = special(cp);
    if (s) jbuf_puts(b, s->title);
    else jbuf_put_cp(b, (uint32_t)utf8proc_totitle((utf8proc_int32_t)cp));
}

static bool cased(uint32_t cp) {
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    return c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LL || c == UTF8PROC_CATEGORY_LT;
}

static bool case_ignorable(uint32_t cp) {
    if (cp == '\'' || cp == '.' || cp == ':' || cp == '^' || cp == '`' || cp == 0xB7 || cp == 0x2019) return true;
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_ME || c == UTF8PROC_CATEGORY_CF || c == UTF8PROC_CATEGORY_LM ||
           c == UTF8PROC_CATEGORY_SK;
}

// Σ lowercases to ς at the end of a word (Unicode's Final_Sigma, as Python applies it).
static bool final_sigma(const char *s, size_t n, size_t at) {
    size_t i = at;
    bool before = false;
    while (i > 0) {
        size_t j = i - 1;
        while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80) j--;
        size_t adv;
        uint32_t cp = ju_decode(s + j, n - j, &adv);
        i = j;
        if (case_ignorable(cp)) continue;
        before = cased(cp);
        break;
    }
    if (!before) return false;
    size_t adv;
    i = at;
    ju_decode(s + i, n - i, &adv);
    i += adv;
    while (i < n) {
        uint32_t cp = ju_decode(s + i, n - i, &adv);
        i += adv;
        if (case_ignorable(cp)) continue;
        return !cased(cp);
    }
    return true;
}

void ju_lower_cp(struct jbuf *b, uint32_t cp, const char *s, size_t n, size_t at) {
    if (cp < 0x80) {
        jbuf_putc(b, (char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp));
        return;
    }
    if (cp == 0x130) jbuf_puts(b, "i\u0307");
    else if (cp == 0x3A3) jbuf_put_cp(b, s && final_sigma(s, n, at) ? 0x3C2 : 0x3C3);
    else jbuf_put_cp(b, (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp));
}

int jr_str_lower(struct jrender *r, const char *s, size_t n, struct jbuf *b) {
    (void)r;
    for (size_t i = 0; i < n;) {
        size_t adv;
        uint32_t cp = ju_decode(s + i, n - i, &adv);
        ju_lower_cp(b, cp, s, n, i);
        i += adv;
    }
    return b->fail ? -1 : 0;
}

// ---- string helpers ---------------------------------------------------------------------------

static bool is_intlike(struct jv v) { return v.k == JV_INT || v.k == JV_BOOL; }
static int64_t as_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }
static bool given(struct jv v) { return !(v.k == JV_UNDEF && !v.o); }

static int need_str(struct jrender *r, const char *fn, struct jv v) {
    if (v.k == JV_STR) return 0;
    return jr_fail(r, "%s() argument must be str, not %s", fn, jv_type_name(v));
}

static int need_int(struct jrender *r, struct jv v, int64_t *out) {
    if (!is_intlike(v)) return jr_fail(r, "'%s' object cannot be interpreted as an integer", jv_type_name(v));
    *out = as_i(v);
    return 0;
}

// Membership of cp in the code points of `chars`.
static bool in_chars(uint32_t cp, const char *chars, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t adv;
        if (ju_decode(chars + i, n - i, &adv) == cp) return true;
        i += adv;
    }
    return false;
}

static bool strip_match(uint32_t cp, struct jv chars) {
    if (chars.k == JV_STR) return in_chars(cp, JSTR(chars)->s, JSTR(chars)->len);
    return ju_isspace(cp);
}

int jr_str_strip(struct jrender *r, struct jv s, struct jv chars, int which, struct jv *out) {
    if (given(chars) && chars.k != JV_NONE && chars.k != JV_STR)
        return jr_fail(r, "strip arg must be None or str");
    const char *p = JSTR(s)->s;
    size_t a = 0, e = JSTR(s)->len;
    if (which & 1)
        while (a < e) {
            size_t adv;
            uint32_t cp = ju_decode(p + a, e - a, &adv);
            if (!strip_match(cp, chars)) break;
            a += adv;
        }
    if (which & 2)
        while (e > a) {
            size_t i = e - 1;
            while (i > a && ((unsigned char)p[i] & 0xC0) == 0x80) i--;
            size_t adv;
            uint32_t cp = ju_decode(p + i, e - i, &adv);
            if (i + adv != e) i = e - 1, cp = (unsigned char)p[i]; // an invalid byte
            if (!strip_match(cp, chars)) break;
            e = i;
        }
    *out = jv_str(p + a, e - a);
    out->safe = s.safe;
    return 0;
}

static bool line_break(uint32_t cp) {
    return cp == '\n' || cp == '\r' || cp == 0x0B || cp == 0x0C || cp == 0x1C || cp == 0x1D || cp == 0x1E || cp == 0x85 ||
           cp == 0x2028 || cp == 0x2029;
}

struct jv jr_splitlines(const char *s, size_t n, bool keepends) {
    struct jv l = jv_list_new(JL_LIST, 0);
    size_t start = 0;
    for (size_t i = 0; i < n;) {
        size_t adv;
        uint32_t cp = ju_decode(s + i, n - i, &adv);
        if (!line_break(cp)) {
            i += adv;
            continue;
        }
        size_t end = i + adv;
        if (cp == '\r' && end < n && s[end] == '\n') end++;
        jlist_push(JLIST(l), jv_str(s + start, (keepends ? end : i) - start));
        start = i = end;
    }
    if (start < n) jlist_push(JLIST(l), jv_str(s + start, n - start));
    return l;
}

// Python's split/rsplit; sep NULL: runs of whitespace.
static struct jv py_split(const char *s, size_t n, const char *sep, size_t sn, int64_t maxsplit, bool right) {
    struct jv l = jv_list_new(JL_LIST, 0);
    struct jlist *out = JLIST(l);
    if (maxsplit < 0) maxsplit = INT64_MAX;
    if (!sep) {
        if (!right) {
            size_t i = 0;
            while (i < n) {
                size_t adv;
                while (i < n && ju_isspace(ju_decode(s + i, n - i, &adv))) i += adv;
                if (i >= n) break;
                if (maxsplit-- == 0) { // the rest, trailing whitespace and all
                    jlist_push(out, jv_str(s + i, n - i));
                    break;
                }
                size_t a = i;
                while (i < n && !ju_isspace(ju_decode(s + i, n - i, &adv))) i += adv;
                jlist_push(out, jv_str(s + a, i - a));
            }
        } else {
            size_t e = n;
            while (e > 0) {
                size_t adv, j;
                for (;;) { // skip trailing whitespace
                    if (!e) break;
                    j = e - 1;
                    while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80) j--;
                    if (!ju_isspace(ju_decode(s + j, e - j, &adv))) break;
                    e = j;
                }
                if (!e) break;
                if (maxsplit-- == 0) { // the rest, leading whitespace and all
                    jlist_push(out, jv_str(s, e));
                    break;
                }
                size_t a = e;
                for (;;) {
                    if (!a) break;
                    j = a - 1;
                    while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80) j--;
                    if (ju_isspace(ju_decode(s + j, a - j, &adv))) break;
                    a = j;
                }
                jlist_push(out, jv_str(s + a, e - a));
                e = a;
            }
            for (size_t i = 0; i < out->n / 2; i++) { // collected right to left
                struct jv t = out->v[i];
                out->v[i] = out->v[out->n - 1 - i];
                out->v[out->n - 1 - i] = t;
            }
        }
        return l;
    }
    if (!right) {
        size_t a = 0;
        while (maxsplit-- > 0) {
            const char *hit = memmem(s + a, n - a, sep, sn);
            if (!hit) break;
            size_t h = (size_t)(hit - s);
            jlist_push(out, jv_str(s + a, h - a));
            a = h + sn;
        }
        jlist_push(out, jv_str(s + a, n - a));
    } else {
        size_t e = n;
        while (maxsplit-- > 0 && e >= sn) {
            size_t h = e - sn + 1, found = (size_t)-1;
            while (h-- > 0)
                if (!memcmp(s + h, sep, sn)) {
                    found = h;
                    break;
                }
            if (found == (size_t)-1) break;
            jlist_push(out, jv_str(s + found + sn, e - found - sn));
            e = found;
        }
        jlist_push(out, jv_str(s, e));
        for (size_t i = 0; i < out->n / 2; i++) {
            struct jv t = out->v[i];
            out->v[i] = out->v[out->n - 1 - i];
            out->v[out->n - 1 - i] = t;
        }
    }
    return l;
}

// Python's start/end arguments (code point indices, negative from the end, clamped) as byte
// offsets of s.
static int span_args(struct jrender *r, struct jstr *s, struct jv start, struct jv end, size_t *a, size_t *e) {
    int64_t n = (int64_t)jstr_ncp(s), x = 0, y = n;
    if (given(start) && start.k != JV_NONE) {
        if (need_int(r, start, &x)) return -1;
        if (x < 0) x = x + n < 0 ? 0 : x + n;
    }
    if (given(end) && end.k != JV_NONE) {
        if (need_int(r, end, &y)) return -1;
        if (y < 0) y = y + n < 0 ? 0 : y + n;
    }
    if (x > n) x = n + 1; // an empty span past the end (find('') is then -1)
    if (y > n) y = n;
    bool ascii = jstr_is_ascii(s);
    *a = x > n ? s->len + 1 : ascii ? (size_t)x : ju_cp_offset(s->s, s->len, (size_t)x);
    *e = ascii ? (size_t)y : ju_cp_offset(s->s, s->len, (size_t)y);
    return 0;
}

static int64_t cp_index(struct jstr *s, size_t byte) {
    return jstr_is_ascii(s) ? (int64_t)byte : (int64_t)ju_ncp(s->s, byte);
}

static int str_find(struct jrender *r, struct jstr *s, struct jargv *a, bool right, int64_t *res) {
    static const char *const p[] = {"sub", "start", "end"};
    struct jv v[3];
    if (jr_bind(r, right ? "rfind" : "find", a, p, 3, v)) return -1;
    if (!given(v[0])) return jr_fail(r, "find() takes at least 1 argument (0 given)");
    if (need_str(r, "find", v[0])) return -1;
    size_t x, y;
    if (span_args(r, s, v[1], v[2], &x, &y)) return -1;
    struct jstr *sub = JSTR(v[0]);
    *res = -1;
    if (x > s->len || y < x || y - x < sub->len) return 0;
    if (!right) {
        const char *h = sub->len ? memmem(s->s + x, y - x, sub->s, sub->len) : s->s + x;
        if (h) *res = cp_index(s, (size_t)(h - s->s));
    } else {
        for (size_t i = y - sub->len + 1; i-- > x;)
            if (!memcmp(s->s + i, sub->s, sub->len)) {
                *res = cp_index(s, i);
                break;
            }
    }
    return 0;
}

static int str_affix(struct jrender *r, struct jstr *s, struct jargv *a, bool end, bool *res) {
    static const char *const p[] = {"prefix", "start", "end"};
    struct jv v[3];
    const char *fn = end ? "endswith" : "startswith";
    if (jr_bind(r, fn, a, p, 3, v)) return -1;
    size_t x, y;
    if (span_args(r, s, v[1], v[2], &x, &y)) return -1;
    struct jv *cands = &v[0];
    size_t nc = 1;
    if (v[0].k == JV_LIST && JLIST(v[0])->sub == JL_TUPLE) cands = JLIST(v[0])->v, nc = JLIST(v[0])->n;
    else if (v[0].k != JV_STR)
        return jr_fail(r, "%s first arg must be str or a tuple of str, not %s", fn, jv_type_name(v[0]));
    *res = false;
    for (size_t i = 0; i < nc; i++) {
        if (cands[i].k != JV_STR)
            return jr_fail(r, "tuple for %s must only contain str, not %s", fn, jv_type_name(cands[i]));
        struct jstr *c = JSTR(cands[i]);
        if (x > s->len || y < x || y - x < c->len) continue;
        if (!memcmp(s->s + (end ? y - c->len : x), c->s, c->len)) *res = true;
    }
    return 0;
}

static int str_replace(struct jrender *r, struct jv self, struct jargv *a, struct jv *out) {
    static const char *const p[] = {"old", "new", "count"};
    struct jv v[3];
    if (jr_bind(r, "replace", a, p, 3, v)) return -1;
    if (!given(v[0]) || !given(v[1])) return jr_fail(r, "replace() takes at least 2 arguments");
    if (need_str(r, "replace", v[0]) || need_str(r, "replace", v[1])) return -1;
    int64_t count = -1;
    if (given(v[2]) && need_int(r, v[2], &count)) return -1;
    if (count < 0) count = INT64_MAX;
    struct jstr *s = JSTR(self), *o = JSTR(v[0]), *nw = JSTR(v[1]);
    struct jbuf b = {.r = r};
    if (!o->len) { // between every code point, and at both ends
        size_t i = 0;
        while (count-- > 0) {
            jbuf_put(&b, nw->s, nw->len);
            if (i >= s->len) break;
            size_t adv;
            ju_decode(s->s + i, s->len - i, &adv);
            jbuf_put(&b, s->s + i, adv);
            i += adv;
        }
        jbuf_put(&b, s->s + i, i < s->len ? s->len - i : 0);
    } else {
        size_t i = 0;
        while (count-- > 0 && !b.fail) {
            const char *h = memmem(s->s + i, s->len - i, o->s, o->len);
            if (!h) break;
            size_t at = (size_t)(h - s->s);
            jbuf_put(&b, s->s + i, at - i);
            jbuf_put(&b, nw->s, nw->len);
            i = at + o->len;
        }
        jbuf_put(&b, s->s + i, s->len - i);
    }
    return jr_str_from_buf(r, &b, out);
}

static int str_join(struct jrender *r, struct jv self, struct jargv *a, struct jv *out) {
    if (a->npos != 1 || a->nkw) return jr_fail(r, "join() takes exactly one argument");
    struct jlist *items;
    if (jr_iterate(r, a->pos[0], &items)) return -1;
    struct jbuf b = {.r = r};
    int rc = 0;
    for (size_t i = 0; i < items->n && !rc; i++) {
        if (items->v[i].k != JV_STR) {
            rc = jr_fail(r, "sequence item %zu: expected str instance, %s found", i, jv_type_name(items->v[i]));
            break;
        }
        if (i) jbuf_put(&b, JSTR(self)->s, JSTR(self)->len);
        jbuf_put(&b, JSTR(items->v[i])->s, JSTR(items->v[i])->len);
    }
    jv_decref((struct jv){.k = JV_LIST, .o = &items->h});
    if (rc) {
        jbuf_free(&b);
        return -1;
    }
    return jr_str_from_buf(r, &b, out);
}

static int str_pad(struct jrender *r, struct jv self, struct jargv *a, int id, struct jv *out) {
    static const char *const p[] = {"width", "fillchar"};
    struct jv v[2];
    const char *fn = id == M_CENTER ? "center" : id == M_LJUST ? "ljust" : id == M_RJUST ? "rjust" : "zfill";
    if (jr_bind(r, fn, a, p, id == M_ZFILL ? 1 : 2, v)) return -1;
    int64_t width = 0;
    if (!given(v[0])) {
        if (id == M_ZFILL) return jr_fail(r, "str.zfill() takes exactly one argument (0 given)");
        return jr_fail(r, "%s expected at least 1 argument, got 0", fn);
    }
    if (need_int(r, v[0], &width)) return -1;
    const char *fill = " ";
    size_t fl = 1;
    if (id != M_ZFILL && given(v[1])) {
        if (v[1].k != JV_STR || jstr_ncp(JSTR(v[1])) != 1)
            return jr_fail(r, "The fill character must be exactly one character long");
        fill = JSTR(v[1])->s, fl = JSTR(v[1])->len;
    }
    struct jstr *s = JSTR(self);
    int64_t len = (int64_t)jstr_ncp(s);
    if (width <= len) {
        *out = jv_incref(self);
        return 0;
    }
    if (!jr_reserve(r, (size_t)(width - len) * fl)) return -1;
    int64_t marg = width - len, left;
    if (id == M_CENTER) left = marg / 2 + (marg & width & 1);
    else if (id == M_LJUST) left = 0;
    else left = marg;
    struct jbuf b = {.r = r};
    if (id == M_ZFILL) {
        size_t sign = s->len && (s->s[0] == '+' || s->s[0] == '-') ? 1 : 0;
        jbuf_put(&b, s->s, sign);
        for (int64_t i = 0; i < marg; i++) jbuf_putc(&b, '0');
        jbuf_put(&b, s->s + sign, s->len - sign);
    } else {
        for (int64_t i = 0; i < left; i++) jbuf_put(&b, fill, fl);
        jbuf_put(&b, s->s, s->len);
        for (int64_t i = 0; i < marg - left; i++) jbuf_put(&b, fill, fl);
    }
    return jr_str_from_buf(r, &b, out);
}

static bool cp_is(int id, uint32_t cp) {
    if (cp < 0x80) {
        switch (id) {
        case M_ISDIGIT:
        case M_ISDECIMAL:
        case M_ISNUMERIC: return cp >= '0' && cp <= '9';
        case M_ISALPHA: return (cp | 32) >= 'a' && (cp | 32) <= 'z';
        case M_ISALNUM: return (cp >= '0' && cp <= '9') || ((cp | 32) >= 'a' && (cp | 32) <= 'z');
        default: return ju_isspace(cp);
        }
    }
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    bool alpha = c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO;
    bool digit = c == UTF8PROC_CATEGORY_ND || (cp >= 0xB2 && cp <= 0xB3) || cp == 0xB9 || (cp >= 0x2070 && cp <= 0x2079) ||
                 (cp >= 0x2080 && cp <= 0x2089) || (cp >= 0x2460 && cp <= 0x2468);
    bool numeric = digit || c == UTF8PROC_CATEGORY_NL || c == UTF8PROC_CATEGORY_NO;
    switch (id) {
    case M_ISDIGIT: return digit;
    case M_ISDECIMAL: return c == UTF8PROC_CATEGORY_ND;
    case M_ISNUMERIC: return numeric;
    case M_ISALPHA: return alpha;
    case M_ISALNUM: return alpha || numeric;
    default: return ju_isspace(cp);
    }
}

static struct jv str_predicate(struct jstr *s, int id) {
    if (id == M_ISUPPER || id == M_ISLOWER || id == M_ISTITLE) {
        bool any = false, prev_cased = false;
        for (size_t i = 0; i < s->len;) {
            size_t adv;
            uint32_t cp = ju_decode(s->s + i, s->len - i, &adv);
            i += adv;
            utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
            bool up = c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LT, lo = c == UTF8PROC_CATEGORY_LL;
            if (id == M_ISUPPER) {
                if (lo || c == UTF8PROC_CATEGORY_LT) return jv_bool(false);
                any |= up;
            } else if (id == M_ISLOWER) {
                if (up) return jv_bool(false);
                any |= lo;
            } else {
                if (up) {
                    if (prev_cased) return jv_bool(false);
                    prev_cased = any = true;
                } else if (lo) {
                    if (!prev_cased) return jv_bool(false);
                } else {
                    prev_cased = false;
                }
            }
        }
        return jv_bool(any);
    }
    if (!s->len) return jv_bool(false);
    for (size_t i = 0; i < s->len;) {
        size_t adv;
        uint32_t cp = ju_decode(s->s + i, s->len - i, &adv);
        i += adv;
        if (!cp_is(id, cp)) return jv_bool(false);
    }
    return jv_bool(true);
}

static int str_case(struct jrender *r, struct jv self, int id, struct jv *out) {
    struct jstr *s = JSTR(self);
    struct jbuf b = {.r = r};
    bool prev_cased = false, first = true;
    for (size_t i = 0; i < s->len;) {
        size_t adv;
        uint32_t cp = ju_decode(s->s + i, s->len - i, &adv);
        switch (id) {
        case M_UPPER: ju_upper_cp(&b, cp); break;
        case M_LOWER: ju_lower_cp(&b, cp, s->s, s->len, i); break;
        case M_CASEFOLD:
            if (cp == 0xDF) jbuf_puts(&b, "ss");
            else ju_lower_cp(&b, cp, NULL, 0, 0);
            break;
        case M_TITLE:
            if (prev_cased) ju_lower_cp(&b, cp, s->s, s->len, i);
            else ju_title_cp(&b, cp);
            prev_cased = cased(cp);
            break;
        case M_CAPITALIZE:
            if (first) ju_title_cp(&b, cp);
            else ju_lower_cp(&b, cp, s->s, s->len, i);
            break;
        default: { // swapcase
            utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
            if (c == UTF8PROC_CATEGORY_LU) ju_lower_cp(&b, cp, s->s, s->len, i);
            else if (c == UTF8PROC_CATEGORY_LL) ju_upper_cp(&b, cp);
            else jbuf_put(&b, s->s + i, adv);
        }
        }
        first = false;
        i += adv;
    }
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = self.safe;
    return 0;
}

static int str_partition(struct jrender *r, struct jv self, struct jargv *a, bool right, struct jv *out) {
    if (a->npos != 1 || a->nkw) return jr_fail(r, "partition() takes exactly one argument");
    if (need_str(r, "partition", a->pos[0])) return -1;
    struct jstr *s = JSTR(self), *sep = JSTR(a->pos[0]);
    if (!sep->len) return jr_fail(r, "empty separator");
    size_t at = (size_t)-1;
    if (!right) {
        const char *h = memmem(s->s, s->len, sep->s, sep->len);
        if (h) at = (size_t)(h - s->s);
    } else if (s->len >= sep->len) {
        for (size_t i = s->len - sep->len + 1; i-- > 0;)
            if (!memcmp(s->s + i, sep->s, sep->len)) {
                at = i;
                break;
            }
    }
    *out = jv_list_new(JL_TUPLE, 3);
    struct jlist *l = JLIST(*out);
    if (at == (size_t)-1) {
        if (right) {
            jlist_push(l, jv_str("", 0));
            jlist_push(l, jv_str("", 0));
            jlist_push(l, jv_incref(self));
        } else {
            jlist_push(l, jv_incref(self));
            jlist_push(l, jv_str("", 0));
            jlist_push(l, jv_str("", 0));
        }
        return 0;
    }
    jlist_push(l, jv_str(s->s, at));
    jlist_push(l, jv_incref(a->pos[0]));
    jlist_push(l, jv_str(s->s + at + sep->len, s->len - at - sep->len));
    return 0;
}

// str.split / str.rsplit(sep=None, maxsplit=-1).
static int str_split(struct jrender *r, struct jstr *s, struct jargv *a, struct jfunc *f, struct jv *out) {
    static const char *const p[] = {"sep", "maxsplit"};
    struct jv v[2];
    if (jr_bind(r, f->name, a, p, 2, v)) return -1;
    int64_t maxsplit = -1;
    if (given(v[1]) && need_int(r, v[1], &maxsplit)) return -1;
    const char *sep = NULL;
    size_t sn = 0;
    if (given(v[0]) && v[0].k != JV_NONE) {
        if (v[0].k != JV_STR) return jr_fail(r, "must be str or None, not %s", jv_type_name(v[0]));
        sep = JSTR(v[0])->s, sn = JSTR(v[0])->len;
        if (!sn) return jr_fail(r, "empty separator");
    }
    *out = py_split(s->s, s->len, sep, sn, maxsplit, f->id == M_RSPLIT);
    return 0;
}

// str.count(sub, start, end): non-overlapping occurrences; an empty sub counts the gaps.
static int str_count(struct jrender *r, struct jstr *s, struct jargv *a, struct jv *out) {
    static const char *const p[] = {"sub", "start", "end"};
    struct jv v[3];
    if (jr_bind(r, "count", a, p, 3, v)) return -1;
    if (!given(v[0])) return jr_fail(r, "count() takes at least 1 argument (0 given)");
    if (need_str(r, "count", v[0])) return -1;
    size_t x, y;
    if (span_args(r, s, v[1], v[2], &x, &y)) return -1;
    struct jstr *sub = JSTR(v[0]);
    int64_t c = 0;
    if (x <= s->len && y >= x) {
        if (!sub->len) c = (int64_t)ju_ncp(s->s + x, y - x) + 1;
        else
            for (size_t i = x; i + sub->len <= y;) {
                const char *h = memmem(s->s + i, y - i, sub->s, sub->len);
                if (!h) break;
                c++;
                i = (size_t)(h - s->s) + sub->len;
            }
    }
    *out = jv_int(c);
    return 0;
}

// str.removeprefix / str.removesuffix(x): self unchanged (the same object) when x is not there.
static int str_removeaffix(struct jrender *r, struct jv self, struct jargv *a, struct jfunc *f, struct jv *out) {
    struct jstr *s = JSTR(self);
    if (a->npos != 1 || a->nkw) return jr_fail(r, "%s() takes exactly one argument", f->name);
    if (need_str(r, f->name, a->pos[0])) return -1;
    struct jstr *x = JSTR(a->pos[0]);
    bool pre = f->id == M_REMOVEPREFIX;
    if (x->len <= s->len && !memcmp(s->s + (pre ? 0 : s->len - x->len), x->s, x->len))
        *out = jv_str(s->s + (pre ? x->len : 0), s->len - x->len);
    else *out = jv_incref(self);
    return 0;
}

static int str_method(struct jrender *r, struct jfunc *f, struct jargv *a, struct jv *out) {
    struct jv self = f->self;
    struct jstr *s = JSTR(self);
    struct jv v[3];
    switch (f->id) {
    case M_UPPER:
    case M_LOWER:
    case M_TITLE:
    case M_CAPITALIZE:
    case M_SWAPCASE:
    case M_CASEFOLD:
        if (a->npos || a->nkw) return jr_fail(r, "str.%s() takes no arguments (%d given)", f->name, a->npos + a->nkw);
        return str_case(r, self, f->id, out);
    case M_STRIP:
    case M_LSTRIP:
    case M_RSTRIP: {
        static const char *const p[] = {"chars"};
        if (jr_bind(r, f->name, a, p, 1, v)) return -1;
        return jr_str_strip(r, self, v[0], f->id == M_STRIP ? 3 : f->id == M_LSTRIP ? 1 : 2, out);
    }
    case M_SPLIT:
    case M_RSPLIT: return str_split(r, s, a, f, out);
    case M_SPLITLINES: {
        static const char *const p[] = {"keepends"};
        if (jr_bind(r, f->name, a, p, 1, v)) return -1;
        *out = jr_splitlines(s->s, s->len, given(v[0]) && jv_truthy(v[0]));
        return 0;
    }
    case M_STARTSWITH:
    case M_ENDSWITH: {
        bool res = false;
        if (str_affix(r, s, a, f->id == M_ENDSWITH, &res)) return -1;
        *out = jv_bool(res);
        return 0;
    }
    case M_REPLACE: return str_replace(r, self, a, out);
    case M_FIND:
    case M_RFIND:
    case M_INDEX:
    case M_RINDEX: {
        int64_t res;
        if (str_find(r, s, a, f->id == M_RFIND || f->id == M_RINDEX, &res)) return -1;
        if (res < 0 && (f->id == M_INDEX || f->id == M_RINDEX)) return jr_fail(r, "substring not found");
        *out = jv_int(res);
        return 0;
    }
    case M_COUNT: return str_count(r, s, a, out);
    case M_JOIN: return str_join(r, self, a, out);
    case M_FORMAT: return jr_str_format(r, s, a, out);
    case M_CENTER:
    case M_LJUST:
    case M_RJUST:
    case M_ZFILL: return str_pad(r, self, a, f->id, out);
    case M_ISDIGIT:
    case M_ISALPHA:
    case M_ISALNUM:
    case M_ISSPACE:
    case M_ISUPPER:
    case M_ISLOWER:
    case M_ISTITLE:
    case M_ISDECIMAL:
    case M_ISNUMERIC:
        if (a->npos || a->nkw) return jr_fail(r, "str.%s() takes no arguments (%d given)", f->name, a->npos + a->nkw);
        *out = str_predicate(s, f->id);
        return 0;
    case M_ISASCII: {
        if (a->npos || a->nkw) return jr_fail(r, "str.isascii() takes no arguments (%d given)", a->npos + a->nkw);
        *out = jv_bool(jstr_is_ascii(s));
        return 0;
    }
    case M_PARTITION:
    case M_RPARTITION: return str_partition(r, self, a, f->id == M_RPARTITION, out);
    case M_REMOVEPREFIX:
    case M_REMOVESUFFIX: return str_removeaffix(r, self, a, f, out);
    default: return jr_fail(r, "internal error: str method %d", f->id);
    }
}

// ---- list, dict, loop, cycler methods ----------------------------------------------------------

static int dict_view(struct jv self, uint8_t sub, struct jv *out) {
    struct jdict *d = JDICT(self);
    *out = jv_list_new(sub, d->n);
    for (uint32_t i = 0; i < d->n; i++) {
        struct jv x;
        if (sub == JL_ITEMS) x = jv_tuple2(jv_incref(d->e[i].k), jv_incref(d->e[i].v));
        else x = jv_incref(sub == JL_KEYS ? d->e[i].k : d->e[i].v);
        jlist_push(JLIST(*out), x);
    }
    return 0;
}

static int other_method(struct jrender *r, struct jfunc *f, struct jargv *a, struct jv *out) {
    struct jv self = f->self;
    switch (f->id) {
    case M_LIST_INDEX:
    case M_LIST_COUNT: {
        if (a->npos < 1 || a->nkw) return jr_fail(r, "%s() takes at least 1 argument", f->name);
        struct jlist *l = JLIST(self);
        int64_t c = 0;
        for (size_t i = 0; i < l->n; i++)
            if (jv_eq(l->v[i], a->pos[0])) {
                if (f->id == M_LIST_INDEX) {
                    *out = jv_int((int64_t)i);
                    return 0;
                }
                c++;
            }
        if (f->id == M_LIST_INDEX) {
            struct jbuf b = {.r = r};
            jv_repr_to(&b, a->pos[0]);
            jr_fail(r, "%s is not in list", b.p ? b.p : "");
            jbuf_free(&b);
            return -1;
        }
        *out = jv_int(c);
        return 0;
    }
    case M_LIST_COPY: {
        struct jlist *l = JLIST(self);
        *out = jv_list_new(JL_LIST, l->n);
        for (size_t i = 0; i < l->n; i++) jlist_push(JLIST(*out), jv_incref(l->v[i]));
        return 0;
    }
    case M_ITEMS:
    case M_KEYS:
    case M_VALUES:
        if (a->npos || a->nkw) return jr_fail(r, "%s() takes no arguments", f->name);
        return dict_view(self, f->id == M_ITEMS ? JL_ITEMS : f->id == M_KEYS ? JL_KEYS : JL_VALUES, out);
    case M_GET: {
        if (a->nkw || a->npos < 1 || a->npos > 2) return jr_fail(r, "get expected 1 or 2 arguments, got %d", a->npos);
        if (!jv_hashable(a->pos[0])) return jr_fail(r, "unhashable type: '%s'", jv_type_name(a->pos[0]));
        struct jv *v = jdict_get(JDICT(self), a->pos[0]);
        *out = v ? jv_incref(*v) : a->npos == 2 ? jv_incref(a->pos[1]) : jv_none();
        return 0;
    }
    case M_DICT_COPY: {
        struct jdict *d = JDICT(self);
        *out = jv_dict_new();
        for (uint32_t i = 0; i < d->n; i++) jdict_set(JDICT(*out), jv_incref(d->e[i].k), jv_incref(d->e[i].v));
        return 0;
    }
    case M_LOOP_CYCLE: {
        struct jloop *l = (struct jloop *)self.o;
        if (!a->npos) return jr_fail(r, "no items for cycling given");
        *out = jv_incref(a->pos[l->i % (size_t)a->npos]);
        return 0;
    }
    case M_LOOP_CHANGED: {
        struct jloop *l = (struct jloop *)self.o;
        struct jv t = jv_list_new(JL_TUPLE, (size_t)a->npos);
        for (int i = 0; i < a->npos; i++) jlist_push(JLIST(t), jv_incref(a->pos[i]));
        bool changed = l->changed_last.k == JV_UNDEF || !jv_eq(l->changed_last, t);
        jv_decref(l->changed_last);
        l->changed_last = t;
        *out = jv_bool(changed);
        return 0;
    }
    case M_CYCLER_NEXT: {
        struct jcycler *c = (struct jcycler *)self.o;
        if (!c->items->n) return jr_fail(r, "integer modulo by zero");
        *out = jv_incref(c->items->v[c->pos]);
        c->pos = (c->pos + 1) % c->items->n;
        return 0;
    }
    case M_CYCLER_RESET: ((struct jcycler *)self.o)->pos = 0; *out = jv_none(); return 0;
    default: return jr_fail(r, "internal error: method %d", f->id);
    }
}

// ---- globals ------------------------------------------------------------------------------------

static const struct {
    const char *name;
    int id;
} globals[] = {
    {"range", G_RANGE}, {"dict", G_DICT}, {"namespace", G_NAMESPACE}, {"cycler", G_CYCLER}, {"joiner", G_JOINER},
    {"raise_exception", G_RAISE}, {"strftime_now", G_STRFTIME}, {"lipsum", G_LIPSUM},
};

int jr_global(struct jrender *r, const char *name, size_t n, struct jv *out) {
    (void)r;
    for (size_t i = 0; i < sizeof globals / sizeof *globals; i++)
        if (strlen(globals[i].name) == n && !memcmp(globals[i].name, name, n)) {
            *out = bound(jv_undef(), globals[i].id, globals[i].name);
            return 1;
        }
    return 0;
}

// dict(*args, **kwargs) as Python builds it (also namespace()'s attributes).
static int build_dict(struct jrender *r, const char *fn, struct jargv *a, struct jv *out) {
    if (a->npos > 1) return jr_fail(r, "%s expected at most 1 argument, got %d", fn, a->npos);
    struct jv d = jv_dict_new();
    if (a->npos == 1) {
        struct jv src = a->pos[0];
        if (src.k == JV_DICT) {
            for (uint32_t i = 0; i < JDICT(src)->n; i++)
                jdict_set(JDICT(d), jv_incref(JDICT(src)->e[i].k), jv_incref(JDICT(src)->e[i].v));
        } else {
            struct jlist *items;
            if (jr_iterate(r, src, &items)) {
                jv_decref(d);
                return -1;
            }
            for (size_t i = 0; i < items->n; i++) {
                struct jv it = items->v[i];
                struct jlist *pair = NULL;
                if (it.k == JV_LIST && JLIST(it)->sub != JL_ITER) pair = JLIST(it);
                if (!pair || pair->n != 2 || !jv_hashable(pair->v[0])) {
                    jv_decref((struct jv){.k = JV_LIST, .o = &items->h});
                    jv_decref(d);
                    return jr_fail(r, "dictionary update sequence element #%zu has the wrong shape", i);
                }
                jdict_set(JDICT(d), jv_incref(pair->v[0]), jv_incref(pair->v[1]));
            }
            jv_decref((struct jv){.k = JV_LIST, .o = &items->h});
        }
    }
    for (int k = 0; k < a->nkw; k++) jdict_set(JDICT(d), jv_cstr(a->kwn[k]), jv_incref(a->kwv[k]));
    *out = d;
    return 0;
}

static int g_range(struct jrender *r, struct jargv *a, struct jv *out) {
    if (a->nkw) return jr_fail(r, "range() takes no keyword arguments");
    if (a->npos < 1 || a->npos > 3) return jr_fail(r, "range expected at most 3 arguments, got %d", a->npos);
    int64_t x[3] = {0, 0, 0};
    for (int i = 0; i < a->npos; i++)
        if (need_int(r, a->pos[i], &x[i])) return -1;
    int64_t start = a->npos == 1 ? 0 : x[0], stop = a->npos == 1 ? x[0] : x[1], step = a->npos == 3 ? x[2] : 1;
    if (!step) return jr_fail(r, "range() arg 3 must not be zero");
    int64_t cnt = 0;
    if (step > 0 && start < stop) cnt = (int64_t)(((__int128)stop - start - 1) / step + 1);
    else if (step < 0 && start > stop) cnt = (int64_t)(((__int128)start - stop - 1) / (-(__int128)step) + 1);
    if (cnt > JINJA_MAX_RANGE)
        return jr_fail(r, "Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", JINJA_MAX_RANGE);
    *out = jv_list_new(JL_RANGE, (size_t)cnt);
    struct jlist *l = JLIST(*out);
    l->r0 = start, l->r1 = stop, l->rstep = step;
    for (int64_t i = 0; i < cnt; i++) jlist_push(l, jv_int(start + i * step));
    return 0;
}

// Python's datetime.strftime: the C library's, except %z and %Z are empty for a naive time and
// %f is microseconds (0 here).
static int g_strftime(struct jrender *r, struct jargv *a, struct jv *out) {
    if (a->npos != 1 || a->nkw || a->pos[0].k != JV_STR) return jr_fail(r, "strftime_now() takes one string argument");
    struct jstr *fmt = JSTR(a->pos[0]);
    struct tm tm;
    time_t now = r->now;
    localtime_r(&now, &tm);
    struct jbuf f = {.r = r};
    for (size_t i = 0; i < fmt->len; i++) {
        if (fmt->s[i] == '%' && i + 1 < fmt->len) {
            char c = fmt->s[i + 1];
            if (c == 'z' || c == 'Z') {
                i++;
                continue;
            }
            if (c == 'f') {
                jbuf_puts(&f, "000000");
                i++;
                continue;
            }
            jbuf_putc(&f, '%');
            jbuf_putc(&f, c);
            i++;
            continue;
        }
        if (fmt->s[i] == '%') jbuf_puts(&f, "%%"); // a lone trailing %
        else jbuf_putc(&f, fmt->s[i]);
    }
    if (f.fail) return jr_fail(r, "strftime format too long");
    struct jbuf b = {.r = r};
    size_t cap = 256 + f.n * 16;
    char *tmp = jx_alloc(cap);
    size_t m = f.n ? strftime(tmp, cap, f.p, &tm) : 0;
    jbuf_put(&b, tmp, m);
    free(tmp);
    jbuf_free(&f);
    return jr_str_from_buf(r, &b, out);
}

// Marks a method's result Markup: a string, or the strings of a list or tuple.
static void mark_safe(struct jv *v) {
    if (v->k == JV_STR) v->safe = 1;
    else if (v->k == JV_LIST)
        for (size_t i = 0; i < JLIST(*v)->n; i++)
            if (JLIST(*v)->v[i].k == JV_STR) JLIST(*v)->v[i].safe = 1;
}

// markupsafe's Markup methods: those that return text return Markup, and most of them escape
// their string arguments first (Markup('a').replace('a', '<') is '&lt;'); split() and friends
// return lists of Markup; join() escapes the items; find(), count(), startswith() and the is*()
// tests are str's own.
static int markup_method(struct jrender *r, struct jfunc *f, struct jargv *a, struct jv *out) {
    bool keeps = true, escapes = true;
    switch (f->id) {
    case M_SPLIT:
    case M_RSPLIT:
    case M_SPLITLINES: escapes = false; break;
    case M_STARTSWITH:
    case M_ENDSWITH:
    case M_FIND:
    case M_RFIND:
    case M_INDEX:
    case M_RINDEX:
    case M_COUNT:
    case M_ISDIGIT:
    case M_ISALPHA:
    case M_ISALNUM:
    case M_ISSPACE:
    case M_ISUPPER:
    case M_ISLOWER:
    case M_ISTITLE:
    case M_ISDECIMAL:
    case M_ISNUMERIC:
    case M_ISASCII: keeps = escapes = false; break;
    case M_JOIN: { // the items escaped
        if (a->npos != 1 || a->nkw) return jr_fail(r, "join() takes exactly one argument");
        struct jlist *items;
        if (jr_iterate(r, a->pos[0], &items)) return -1;
        for (size_t i = 0; i < items->n; i++) {
            struct jv e;
            if (jr_escape(r, items->v[i], &e)) {
                jv_decref((struct jv){.k = JV_LIST, .o = &items->h});
                return -1;
            }
            jv_decref(items->v[i]);
            items->v[i] = e;
        }
        struct jv lv = {.k = JV_LIST, .o = &items->h};
        struct jargv one = {.pos = &lv, .npos = 1};
        int rc = str_method(r, f, &one, out);
        jv_decref(lv);
        if (!rc) mark_safe(out);
        return rc;
    }
    default: break;
    }
    if (!escapes) {
        int rc = str_method(r, f, a, out);
        if (!rc && keeps) mark_safe(out);
        return rc;
    }
    struct jv *pos = jx_alloc((size_t)(a->npos + 1) * sizeof *pos), *kwv = jx_alloc((size_t)(a->nkw + 1) * sizeof *kwv);
    int rc = 0, np = 0, nk = 0;
    for (; np < a->npos && !rc; np++) rc = a->pos[np].k == JV_STR ? jr_escape(r, a->pos[np], &pos[np]) : (pos[np] = jv_incref(a->pos[np]), 0);
    if (rc) np--;
    for (; nk < a->nkw && !rc; nk++) rc = a->kwv[nk].k == JV_STR ? jr_escape(r, a->kwv[nk], &kwv[nk]) : (kwv[nk] = jv_incref(a->kwv[nk]), 0);
    if (rc) nk--;
    if (!rc) {
        struct jargv e = {pos, np, a->kwn, kwv, nk};
        rc = str_method(r, f, &e, out);
        if (!rc) mark_safe(out);
    }
    jv_decref_n(pos, (size_t)np);
    jv_decref_n(kwv, (size_t)nk);
    free(pos);
    free(kwv);
    return rc;
}

int jr_call_func(struct jrender *r, struct jfunc *f, struct jargv *a, struct jv *out) {
    if (f->id == M_UNSUPPORTED)
        return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "%s.%s() is not supported", jv_type_name(f->self), f->name);
    if (f->id == M_INT_BIT_LENGTH) {
        int64_t v = f->self.k == JV_BOOL ? f->self.b : f->self.i;
        uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        int bits = 0;
        while (u) bits++, u >>= 1;
        *out = jv_int(bits);
        return 0;
    }
    if (f->id == M_FLOAT_IS_INTEGER) {
        *out = jv_bool(isfinite(f->self.f) && f->self.f == floor(f->self.f));
        return 0;
    }
    if (f->self.k == JV_STR) return f->self.safe ? markup_method(r, f, a, out) : str_method(r, f, a, out);
    if (f->self.k != JV_UNDEF) return other_method(r, f, a, out);
    switch (f->id) {
    case G_RANGE: return g_range(r, a, out);
    case G_DICT: return build_dict(r, "dict", a, out);
    case G_NAMESPACE: {
        struct jv d;
        if (build_dict(r, "namespace", a, &d)) return -1;
        *out = jv_ns_new(r);
        struct jns *ns = (struct jns *)out->o;
        jv_decref((struct jv){.k = JV_DICT, .o = &ns->attrs->h});
        ns->attrs = JDICT(d);
        return 0;
    }
    case G_CYCLER: {
        if (a->nkw) return jr_fail(r, "cycler() takes no keyword arguments");
        struct jcycler *c = jx_alloc(sizeof *c);
        c->h.rc = 1;
        c->h.kind = JV_CYCLER;
        struct jv l = jv_list_new(JL_LIST, (size_t)a->npos);
        for (int i = 0; i < a->npos; i++) jlist_push(JLIST(l), jv_incref(a->pos[i]));
        c->items = JLIST(l);
        *out = (struct jv){.k = JV_CYCLER, .o = &c->h};
        return 0;
    }
    case G_JOINER: {
        static const char *const p[] = {"sep"};
        struct jv v[1];
        if (jr_bind(r, "joiner", a, p, 1, v)) return -1;
        struct jjoiner *j = jx_alloc(sizeof *j);
        j->h.rc = 1;
        j->h.kind = JV_JOINER;
        j->sep = given(v[0]) ? jv_incref(v[0]) : jv_cstr(", ");
        *out = (struct jv){.k = JV_JOINER, .o = &j->h};
        return 0;
    }
    case G_RAISE: {
        struct jbuf b = {.r = r};
        if (a->npos >= 1) jv_str_to(&b, a->pos[0]);
        jr_fail(r, "template error: %s", b.p ? b.p : "");
        r->err_located = true; // the template's own words, as they are
        jbuf_free(&b);
        return -1;
    }
    case G_STRFTIME: return g_strftime(r, a, out);
    case G_LIPSUM: return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "lipsum() is not supported");
    default: return jr_fail(r, "internal error: function %d", f->id);
    }
}
