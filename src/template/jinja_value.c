// jinja_value.c — the values a template computes with, behaving as the Python objects jinja2
// hands around: reference counting, strings (UTF-8, indexed by code point), lists and tuples,
// insertion-ordered dicts, str() and repr() exactly as Python prints them, == and < with
// Python's rules, and json.dumps as transformers' tojson calls it.
#include <inttypes.h>
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "core/err.h"
#include "template/jinja_int.h"

// ---- memory -----------------------------------------------------------------------------------
// An allocation that fails unwinds to the public entry point (jinja_parse, jinja_render), which
// returns FRINK_ERR_NOMEM: the values in flight are leaked rather than traced back, which is the
// price of not threading a failure through every operation for a case the render's byte budget
// keeps far from real. Outside those entry points there is nothing to unwind to.

static _Thread_local jmp_buf *oom_escape;

jmp_buf *jx_oom_escape(jmp_buf *j) {
    jmp_buf *old = oom_escape;
    oom_escape = j;
    return old;
}

static void oom(void) {
    if (oom_escape) longjmp(*oom_escape, 1);
    abort(); // unreachable: every allocation happens under an entry point's escape
}

void *jx_alloc(size_t n) {
    void *p = calloc(1, n ? n : 1);
    if (!p) oom();
    return p;
}

void *jx_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

char *jx_strndup(const char *s, size_t n) {
    char *d = jx_alloc(n + 1);
    if (n) memcpy(d, s, n);
    return d;
}

// ---- builder ------------------------------------------------------------------------------------

#define JBUF_MAX ((size_t)1 << 30) // no single string past 1 GiB

static bool jbuf_grow(struct jbuf *b, size_t extra) {
    if (b->fail) return false;
    if (b->n + extra + 1 <= b->cap) return true;
    if (extra > JBUF_MAX || b->n + extra > JBUF_MAX) {
        b->fail = true;
        if (b->r) jr_fail(b->r, "a string would exceed %zu bytes", JBUF_MAX);
        return false;
    }
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->n + extra + 1) cap *= 2;
    if (b->r && !jr_reserve(b->r, cap - b->cap)) {
        b->fail = true;
        return false;
    }
    b->p = jx_realloc(b->p, cap);
    b->cap = cap;
    return true;
}

void jbuf_put(struct jbuf *b, const char *s, size_t n) {
    if (!n || !jbuf_grow(b, n)) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void jbuf_puts(struct jbuf *b, const char *s) { jbuf_put(b, s, strlen(s)); }

void jbuf_putc(struct jbuf *b, char c) {
    if (!jbuf_grow(b, 1)) return;
    b->p[b->n++] = c;
    b->p[b->n] = 0;
}

void jbuf_printf(struct jbuf *b, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (m < 0) return;
    if ((size_t)m < sizeof tmp) {
        jbuf_put(b, tmp, (size_t)m);
        return;
    }
    if (!jbuf_grow(b, (size_t)m)) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)m + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)m;
}

void jbuf_put_cp(struct jbuf *b, uint32_t cp) {
    char u[4];
    size_t n;
    if (cp < 0x80) u[0] = (char)cp, n = 1;
    else if (cp >= 0xDC80 && cp <= 0xDCFF) u[0] = (char)(cp & 0xFF), n = 1; // an undecodable byte (ju_decode)
    else if (cp < 0x800) u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    else
        u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)), u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)),
        u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    jbuf_put(b, u, n);
}

void jbuf_free(struct jbuf *b) {
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

// ---- unicode ------------------------------------------------------------------------------------

// Bytes that are not UTF-8 decode one at a time as U+DC80..U+DCFF, as Python's surrogateescape
// does, and jbuf_put_cp writes them back as the bytes they were: every byte string survives.
uint32_t ju_decode(const char *s, size_t n, size_t *adv) {
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[0];
    *adv = 1;
    if (c < 0x80) return c;
    size_t need;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07, min = 0x10000;
    else return 0xDC00 | c;
    if (n < need + 1) return 0xDC00 | c;
    for (size_t i = 1; i <= need; i++) {
        if ((u[i] & 0xC0) != 0x80) return 0xDC00 | c;
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) return 0xDC00 | c;
    *adv = need + 1;
    return cp;
}

bool ju_isspace(uint32_t cp) {
    if (cp <= 0x20) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
    switch (cp) {
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000: return true;
    default: return cp >= 0x2000 && cp <= 0x200A;
    }
}

size_t ju_ncp(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n;) {
        size_t adv;
        if ((unsigned char)s[i] < 0x80) adv = 1;
        else ju_decode(s + i, n - i, &adv);
        i += adv;
        c++;
    }
    return c;
}

size_t ju_cp_offset(const char *s, size_t n, size_t cp) {
    size_t i = 0;
    while (cp && i < n) {
        size_t adv;
        if ((unsigned char)s[i] < 0x80) adv = 1;
        else ju_decode(s + i, n - i, &adv);
        i += adv;
        cp--;
    }
    return i;
}

// ---- objects ------------------------------------------------------------------------------------

static void *obj_new(size_t size, uint8_t kind) {
    struct jobj *o = jx_alloc(size);
    o->rc = 1;
    o->kind = kind;
    return o;
}

struct jv jv_incref(struct jv v) {
    if (jv_heap(v) && v.o->rc >= 0) v.o->rc++;
    return v;
}

static void obj_free(struct jobj *o) {
    switch (o->kind) {
    case JV_UNDEF: free(((struct jundef *)o)->msg); break;
    case JV_STR: break;
    case JV_LIST: {
        struct jlist *l = (struct jlist *)o;
        jv_decref_n(l->v, l->n);
        free(l->v);
        free(l->pending);
        break;
    }
    case JV_DICT: {
        struct jdict *d = (struct jdict *)o;
        for (uint32_t i = 0; i < d->n; i++) {
            jv_decref(d->e[i].k);
            jv_decref(d->e[i].v);
        }
        free(d->e);
        free(d->idx);
        break;
    }
    case JV_NS: {
        struct jns *ns = (struct jns *)o;
        if (ns->attrs) jv_decref((struct jv){.k = JV_DICT, .o = &ns->attrs->h});
        break;
    }
    case JV_MACRO: break;
    case JV_LOOP: {
        struct jloop *l = (struct jloop *)o;
        if (l->items) jv_decref((struct jv){.k = JV_LIST, .o = &l->items->h});
        jv_decref(l->changed_last);
        break;
    }
    case JV_FUNC: jv_decref(((struct jfunc *)o)->self); break;
    case JV_CYCLER: {
        struct jcycler *c = (struct jcycler *)o;
        jv_decref((struct jv){.k = JV_LIST, .o = &c->items->h});
        break;
    }
    case JV_JOINER: jv_decref(((struct jjoiner *)o)->sep); break;
    default: break;
    }
    free(o);
}

void jv_decref(struct jv v) {
    if (!jv_heap(v) || v.o->rc < 0) return;
    if (--v.o->rc == 0) obj_free(v.o);
}

void jv_decref_n(struct jv *v, size_t n) {
    for (size_t i = 0; i < n; i++) jv_decref(v[i]);
}

// ---- undefined ----------------------------------------------------------------------------------

struct jv jv_undef_msg(uint8_t why, const char *fmt, ...) {
    struct jundef *u = obj_new(sizeof *u, JV_UNDEF);
    u->why = why;
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    u->msg = jx_strndup(tmp, strlen(tmp));
    return (struct jv){.k = JV_UNDEF, .o = &u->h};
}

struct jv jv_undef_name(const char *name, size_t n) {
    return jv_undef_msg(JU_NAME, "'%.*s' is undefined", (int)(n > 200 ? 200 : n), name);
}

// jinja2's object_type_repr: "dict object", "None", "jinja2.utils.Namespace object".
static void object_type_repr(struct jv obj, char *buf, size_t n) {
    if (obj.k == JV_NONE) snprintf(buf, n, "None");
    else if (obj.k == JV_NS) snprintf(buf, n, "jinja2.utils.Namespace object");
    else if (obj.k == JV_LOOP) snprintf(buf, n, "jinja2.runtime.LoopContext object");
    else if (obj.k == JV_MACRO) snprintf(buf, n, "jinja2.runtime.Macro object");
    else if (obj.k == JV_CYCLER) snprintf(buf, n, "jinja2.utils.Cycler object");
    else if (obj.k == JV_JOINER) snprintf(buf, n, "jinja2.utils.Joiner object");
    else if (obj.k == JV_STR && obj.safe) snprintf(buf, n, "markupsafe.Markup object");
    else snprintf(buf, n, "%s object", jv_type_name(obj));
}

struct jv jv_undef_attr(struct jv obj, const char *name, size_t n) {
    char t[64];
    object_type_repr(obj, t, sizeof t);
    return jv_undef_msg(JU_ATTR, "'%s' has no attribute '%.*s'", t, (int)(n > 200 ? 200 : n), name);
}

struct jv jv_undef_item(struct jv obj, struct jv key) {
    char t[64];
    object_type_repr(obj, t, sizeof t);
    if (key.k == JV_STR) return jv_undef_msg(JU_ATTR, "'%s' has no attribute '%.200s'", t, JSTR(key)->s);
    struct jbuf b = {0};
    jv_repr_to(&b, key);
    struct jv u = jv_undef_msg(JU_ELEMENT, "%s has no element %.200s", t, b.p ? b.p : "");
    jbuf_free(&b);
    return u;
}

const char *jv_undef_text(struct jv v) {
    if (v.k == JV_UNDEF && v.o) return ((struct jundef *)v.o)->msg;
    return "value is undefined";
}

// ---- strings ------------------------------------------------------------------------------------

struct jv jv_str(const char *s, size_t n) {
    struct jstr *js = obj_new(sizeof *js + n + 1, JV_STR);
    js->ascii = -1;
    js->len = n;
    if (n) memcpy(js->s, s, n);
    js->s[n] = 0;
    return (struct jv){.k = JV_STR, .o = &js->h};
}

struct jv jv_cstr(const char *s) { return jv_str(s, strlen(s)); }

struct jv jv_str_take(struct jbuf *b) {
    struct jv v = jv_str(b->p ? b->p : "", b->n);
    jbuf_free(b);
    return v;
}

int jr_str_from_buf(struct jrender *r, struct jbuf *b, struct jv *out) {
    if (b->fail) {
        jbuf_free(b);
        if (!r->err) jr_fail(r, "string too long");
        return -1;
    }
    *out = jv_str_take(b);
    return 0;
}

bool jstr_is_ascii(struct jstr *s) {
    if (s->ascii < 0) {
        s->ascii = 1;
        for (size_t i = 0; i < s->len; i++)
            if ((unsigned char)s->s[i] >= 0x80) {
                s->ascii = 0;
                break;
            }
    }
    return s->ascii == 1;
}

size_t jstr_ncp(struct jstr *s) { return jstr_is_ascii(s) ? s->len : ju_ncp(s->s, s->len); }

// ---- lists --------------------------------------------------------------------------------------

struct jv jv_list_new(uint8_t sub, size_t cap) {
    struct jlist *l = obj_new(sizeof *l, JV_LIST);
    l->sub = sub;
    l->cap = cap;
    l->v = cap ? jx_alloc(cap * sizeof *l->v) : NULL;
    return (struct jv){.k = JV_LIST, .o = &l->h};
}

void jlist_push(struct jlist *l, struct jv v) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->v = jx_realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = v;
}

struct jv jv_tuple2(struct jv a, struct jv b) {
    struct jv t = jv_list_new(JL_TUPLE, 2);
    jlist_push(JLIST(t), a);
    jlist_push(JLIST(t), b);
    return t;
}

// ---- dicts --------------------------------------------------------------------------------------

struct jv jv_dict_new(void) {
    struct jdict *d = obj_new(sizeof *d, JV_DICT);
    return (struct jv){.k = JV_DICT, .o = &d->h};
}

static uint32_t hash_bytes(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static uint32_t hash_i64(int64_t i) {
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

bool jv_hashable(struct jv v) {
    if (v.k == JV_DICT || v.k == JV_NS) return v.k == JV_NS;
    if (v.k != JV_LIST) return true;
    struct jlist *l = JLIST(v);
    if (l->sub != JL_TUPLE) return l->sub == JL_RANGE || l->sub == JL_ITER;
    for (size_t i = 0; i < l->n; i++)
        if (!jv_hashable(l->v[i])) return false;
    return true;
}

static uint32_t jv_hash(struct jv v) {
    switch (v.k) {
    case JV_NONE: return 0x5bd1e995u;
    case JV_UNDEF: return 0x1b873593u;
    case JV_BOOL: return hash_i64(v.b);
    case JV_INT: return hash_i64(v.i);
    case JV_FLOAT:
        if (v.f == floor(v.f) && fabs(v.f) < 9.2e18) return hash_i64((int64_t)v.f);
        {
            uint64_t bits;
            double f = v.f == 0 ? 0 : v.f;
            memcpy(&bits, &f, sizeof bits);
            return hash_i64((int64_t)bits);
        }
    case JV_STR: return hash_bytes(JSTR(v)->s, JSTR(v)->len);
    case JV_LIST:
        if (JLIST(v)->sub == JL_TUPLE) {
            uint32_t h = 0x345678u;
            for (size_t i = 0; i < JLIST(v)->n; i++) h = (h ^ jv_hash(JLIST(v)->v[i])) * 1000003u;
            return h;
        }
        /* fall through */
    default: return hash_i64((int64_t)(intptr_t)v.o);
    }
}

static void dict_reindex(struct jdict *d) {
    uint32_t cap = 16;
    while (cap < d->n * 2) cap *= 2;
    free(d->idx);
    d->idx = jx_alloc(cap * sizeof *d->idx);
    d->idx_cap = cap;
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t j = d->e[i].hash & (cap - 1);
        while (d->idx[j]) j = (j + 1) & (cap - 1);
        d->idx[j] = i + 1;
    }
}

static struct jdent *dict_find(struct jdict *d, struct jv key, uint32_t h) {
    if (!d->idx) {
        for (uint32_t i = 0; i < d->n; i++)
            if (d->e[i].hash == h && jv_eq(d->e[i].k, key)) return &d->e[i];
        return NULL;
    }
    for (uint32_t j = h & (d->idx_cap - 1);; j = (j + 1) & (d->idx_cap - 1)) {
        uint32_t x = d->idx[j];
        if (!x) return NULL;
        struct jdent *e = &d->e[x - 1];
        if (e->hash == h && jv_eq(e->k, key)) return e;
    }
}

struct jv *jdict_get(struct jdict *d, struct jv key) {
    if (!jv_hashable(key)) return NULL;
    struct jdent *e = dict_find(d, key, jv_hash(key));
    return e ? &e->v : NULL;
}

struct jv *jdict_get_str(struct jdict *d, const char *s, size_t n) {
    struct jstr tmp_hdr;
    (void)tmp_hdr;
    uint32_t h = hash_bytes(s, n);
    if (!d->idx) {
        for (uint32_t i = 0; i < d->n; i++) {
            struct jdent *e = &d->e[i];
            if (e->hash == h && e->k.k == JV_STR && JSTR(e->k)->len == n && !memcmp(JSTR(e->k)->s, s, n)) return &e->v;
        }
        return NULL;
    }
    for (uint32_t j = h & (d->idx_cap - 1);; j = (j + 1) & (d->idx_cap - 1)) {
        uint32_t x = d->idx[j];
        if (!x) return NULL;
        struct jdent *e = &d->e[x - 1];
        if (e->hash == h && e->k.k == JV_STR && JSTR(e->k)->len == n && !memcmp(JSTR(e->k)->s, s, n)) return &e->v;
    }
}

void jdict_set(struct jdict *d, struct jv key, struct jv v) {
    uint32_t h = jv_hash(key);
    struct jdent *e = dict_find(d, key, h);
    if (e) {
        jv_decref(key);
        jv_decref(e->v);
        e->v = v;
        return;
    }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 4;
        d->e = jx_realloc(d->e, d->cap * sizeof *d->e);
    }
    d->e[d->n++] = (struct jdent){key, v, h};
    if (d->idx && d->n * 2 <= d->idx_cap) {
        uint32_t j = h & (d->idx_cap - 1);
        while (d->idx[j]) j = (j + 1) & (d->idx_cap - 1);
        d->idx[j] = d->n;
    } else if (d->n > 8) {
        dict_reindex(d);
    }
}

struct jv jv_ns_new(struct jrender *r) {
    struct jns *ns = obj_new(sizeof *ns, JV_NS);
    struct jv d = jv_dict_new();
    ns->attrs = JDICT(d);
    ns->h.rc = 2; // one for the caller, one for the render's list of namespaces
    ns->next_live = r->live_ns;
    r->live_ns = ns;
    return (struct jv){.k = JV_NS, .o = &ns->h};
}

// ---- JSON in ----------------------------------------------------------------------------------

struct jv jv_from_json(const json_t *j) {
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        struct jv d = jv_dict_new();
        const char *k;
        json_t *v;
        void *it = json_object_iter((json_t *)j);
        while (it) {
            k = json_object_iter_key(it);
            v = json_object_iter_value(it);
            jdict_set(JDICT(d), jv_str(k, json_object_iter_key_len(it)), jv_from_json(v));
            it = json_object_iter_next((json_t *)j, it);
        }
        return d;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(j);
        struct jv l = jv_list_new(JL_LIST, n);
        for (size_t i = 0; i < n; i++) jlist_push(JLIST(l), jv_from_json(json_array_get(j, i)));
        return l;
    }
    case JSON_STRING: return jv_str(json_string_value(j), json_string_length(j));
    case JSON_INTEGER: return jv_int((int64_t)json_integer_value(j));
    case JSON_REAL: return jv_float(json_real_value(j));
    case JSON_TRUE: return jv_bool(true);
    case JSON_FALSE: return jv_bool(false);
    default: return jv_none();
    }
}

// ---- truth, types ---------------------------------------------------------------------------

bool jv_truthy(struct jv v) {
    switch (v.k) {
    case JV_UNDEF:
    case JV_NONE: return false;
    case JV_BOOL: return v.b;
    case JV_INT: return v.i != 0;
    case JV_FLOAT: return v.f != 0;
    case JV_STR: return JSTR(v)->len != 0;
    case JV_LIST: return JLIST(v)->sub == JL_ITER || JLIST(v)->n != 0;
    case JV_DICT: return JDICT(v)->n != 0;
    default: return true;
    }
}

const char *jv_type_name(struct jv v) {
    switch (v.k) {
    case JV_UNDEF: return "Undefined";
    case JV_NONE: return "NoneType";
    case JV_BOOL: return "bool";
    case JV_INT: return "int";
    case JV_FLOAT: return "float";
    case JV_STR: return v.safe ? "Markup" : "str";
    case JV_LIST:
        switch (JLIST(v)->sub) {
        case JL_TUPLE: return "tuple";
        case JL_ITEMS: return "dict_items";
        case JL_KEYS: return "dict_keys";
        case JL_VALUES: return "dict_values";
        case JL_RANGE: return "range";
        case JL_ITER: return JLIST(v)->iter_name ? JLIST(v)->iter_name : "generator";
        default: return "list";
        }
    case JV_DICT: return "dict";
    case JV_NS: return "Namespace";
    case JV_MACRO: return "Macro";
    case JV_LOOP: return "LoopContext";
    case JV_FUNC: return ((struct jfunc *)v.o)->self.k != JV_UNDEF ? "builtin_function_or_method" : "function";
    case JV_CYCLER: return "Cycler";
    case JV_JOINER: return "Joiner";
    }
    return "object";
}

// ---- str() and repr() -----------------------------------------------------------------------

void jfloat_repr(double f, char *buf) {
    if (isnan(f)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(f)) {
        strcpy(buf, f < 0 ? "-inf" : "inf");
        return;
    }
    char tmp[40];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, f);
        if (strtod(tmp, NULL) == f) break;
    }
    // tmp: [-]d[.ddd]e±XX → digits and decimal exponent
    const char *q = tmp;
    bool neg = *q == '-';
    if (neg) q++;
    char digits[24];
    int nd = 0;
    for (; *q && *q != 'e'; q++)
        if (*q != '.') digits[nd++] = *q;
    int e = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    int decpt = e + 1;
    char *o = buf;
    if (neg) *o++ = '-';
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -decpt; i++) *o++ = '0';
            memcpy(o, digits, (size_t)nd);
            o += nd;
        } else if (decpt >= nd) {
            memcpy(o, digits, (size_t)nd);
            o += nd;
            for (int i = nd; i < decpt; i++) *o++ = '0';
            *o++ = '.';
            *o++ = '0';
        } else {
            memcpy(o, digits, (size_t)decpt);
            o += decpt;
            *o++ = '.';
            memcpy(o, digits + decpt, (size_t)(nd - decpt));
            o += nd - decpt;
        }
        *o = 0;
    } else {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        int x = decpt - 1;
        sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    }
}

// Python's str.isprintable() for one code point.
static bool py_printable(uint32_t cp) {
    if (cp == ' ') return true;
    if (cp < 0x20 || cp == 0x7F) return false;
    if (cp < 0x7F) return true;
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_ZS: return false;
    default: return true;
    }
}

void jpy_str_repr_to(struct jbuf *b, const char *s, size_t n) {
    bool sq = memchr(s, '\'', n) != NULL, dq = memchr(s, '"', n) != NULL;
    char quote = sq && !dq ? '"' : '\'';
    jbuf_putc(b, quote);
    for (size_t i = 0; i < n;) {
        size_t adv;
        uint32_t cp = ju_decode(s + i, n - i, &adv);
        if (cp == (uint32_t)quote || cp == '\\') {
            jbuf_putc(b, '\\');
            jbuf_putc(b, (char)cp);
        } else if (cp == '\t') jbuf_puts(b, "\\t");
        else if (cp == '\n') jbuf_puts(b, "\\n");
        else if (cp == '\r') jbuf_puts(b, "\\r");
        else if (adv == 1 && cp >= 0x80) jbuf_printf(b, "\\x%02x", (unsigned char)s[i]); // an undecodable byte
        else if (py_printable(cp)) jbuf_put(b, s + i, adv);
        else if (cp <= 0xFF) jbuf_printf(b, "\\x%02x", cp);
        else if (cp <= 0xFFFF) jbuf_printf(b, "\\u%04x", cp);
        else jbuf_printf(b, "\\U%08x", cp);
        i += adv;
    }
    jbuf_putc(b, quote);
}

static void repr_items(struct jbuf *b, struct jv *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (i) jbuf_puts(b, ", ");
        jv_repr_to(b, v[i]);
    }
}

static void repr_dict(struct jbuf *b, struct jdict *d) {
    jbuf_putc(b, '{');
    for (uint32_t i = 0; i < d->n; i++) {
        if (i) jbuf_puts(b, ", ");
        jv_repr_to(b, d->e[i].k);
        jbuf_puts(b, ": ");
        jv_repr_to(b, d->e[i].v);
    }
    jbuf_putc(b, '}');
}

static void repr_object(struct jbuf *b, struct jv v) {
    switch (v.k) {
    case JV_NS: {
        struct jns *ns = (struct jns *)v.o;
        jbuf_puts(b, "<Namespace ");
        if (ns->in_repr) jbuf_puts(b, "{...}");
        else {
            ns->in_repr = true;
            repr_dict(b, ns->attrs);
            ns->in_repr = false;
        }
        jbuf_putc(b, '>');
        return;
    }
    case JV_MACRO: {
        const struct jnode *d = ((struct jmacro *)v.o)->def;
        jbuf_printf(b, "<Macro '%s'>", d->kind == JN_MACRO ? d->s : "caller");
        return;
    }
    case JV_LOOP: {
        struct jloop *l = (struct jloop *)v.o;
        jbuf_printf(b, "<LoopContext %zu/%zu>", l->i + 1, l->items->n);
        return;
    }
    case JV_FUNC: {
        struct jfunc *f = (struct jfunc *)v.o;
        if (f->self.k != JV_UNDEF) jbuf_printf(b, "<built-in method %s of %s object>", f->name, jv_type_name(f->self));
        else if (!strcmp(f->name, "range") || !strcmp(f->name, "dict")) jbuf_printf(b, "<class '%s'>", f->name);
        else if (!strcmp(f->name, "namespace")) jbuf_puts(b, "<class 'jinja2.utils.Namespace'>");
        else jbuf_printf(b, "<function %s>", f->name);
        return;
    }
    case JV_CYCLER: jbuf_puts(b, "<jinja2.utils.Cycler object>"); return;
    case JV_JOINER: jbuf_puts(b, "<jinja2.utils.Joiner object>"); return;
    default: return;
    }
}

void jv_repr_to(struct jbuf *b, struct jv v) {
    char f[40];
    switch (v.k) {
    case JV_UNDEF: jbuf_puts(b, "Undefined"); return;
    case JV_NONE: jbuf_puts(b, "None"); return;
    case JV_BOOL: jbuf_puts(b, v.b ? "True" : "False"); return;
    case JV_INT: jbuf_printf(b, "%" PRId64, v.i); return;
    case JV_FLOAT: jfloat_repr(v.f, f); jbuf_puts(b, f); return;
    case JV_STR:
        if (v.safe) jbuf_puts(b, "Markup(");
        jpy_str_repr_to(b, JSTR(v)->s, JSTR(v)->len);
        if (v.safe) jbuf_putc(b, ')');
        return;
    case JV_LIST: {
        struct jlist *l = JLIST(v);
        switch (l->sub) {
        case JL_TUPLE:
            jbuf_putc(b, '(');
            repr_items(b, l->v, l->n);
            if (l->n == 1) jbuf_putc(b, ',');
            jbuf_putc(b, ')');
            return;
        case JL_ITEMS:
        case JL_KEYS:
        case JL_VALUES:
            jbuf_puts(b, l->sub == JL_ITEMS ? "dict_items([" : l->sub == JL_KEYS ? "dict_keys([" : "dict_values([");
            repr_items(b, l->v, l->n);
            jbuf_puts(b, "])");
            return;
        case JL_RANGE:
            if (l->rstep == 1) jbuf_printf(b, "range(%" PRId64 ", %" PRId64 ")", l->r0, l->r1);
            else jbuf_printf(b, "range(%" PRId64 ", %" PRId64 ", %" PRId64 ")", l->r0, l->r1, l->rstep);
            return;
        case JL_ITER: jbuf_printf(b, "<%s object>", l->iter_name ? l->iter_name : "generator"); return;
        default:
            jbuf_putc(b, '[');
            repr_items(b, l->v, l->n);
            jbuf_putc(b, ']');
            return;
        }
    }
    case JV_DICT: repr_dict(b, JDICT(v)); return;
    default: repr_object(b, v); return;
    }
}

void jv_str_to(struct jbuf *b, struct jv v) {
    switch (v.k) {
    case JV_UNDEF: return;
    case JV_STR: jbuf_put(b, JSTR(v)->s, JSTR(v)->len); return;
    default: jv_repr_to(b, v); return;
    }
}

int jr_to_str(struct jrender *r, struct jv v, struct jv *out) {
    if (v.k == JV_STR) {
        *out = jv_incref(v);
        out->safe = 0;
        return 0;
    }
    struct jbuf b = {.r = r};
    jv_str_to(&b, v);
    return jr_str_from_buf(r, &b, out);
}

// ---- comparisons ------------------------------------------------------------------------------

static bool is_num(struct jv v) { return v.k == JV_INT || v.k == JV_FLOAT || v.k == JV_BOOL; }
static int64_t num_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }

// -1, 0, 1 for numbers a and b; 2 when unordered (nan).
static int num_cmp(struct jv a, struct jv b) {
    if (a.k != JV_FLOAT && b.k != JV_FLOAT) {
        int64_t x = num_i(a), y = num_i(b);
        return x < y ? -1 : x > y;
    }
    if (a.k == JV_FLOAT && b.k == JV_FLOAT) return a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2;
    // int against float, exactly (Python compares the true values)
    bool swap = a.k == JV_FLOAT;
    double f = swap ? a.f : b.f;
    int64_t i = swap ? num_i(b) : num_i(a);
    int c;
    if (isnan(f)) return 2;
    if (f >= 9223372036854775808.0) c = -1;
    else if (f < -9223372036854775808.0) c = 1;
    else {
        double fl = floor(f);
        int64_t fi = (int64_t)fl;
        if (i < fi) c = -1;
        else if (i > fi) c = 1;
        else c = fl == f ? 0 : -1;
    }
    return swap ? -c : c;
}

static bool list_seq_eq(struct jlist *a, struct jlist *b) {
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)
        if (!jv_eq(a->v[i], b->v[i])) return false;
    return true;
}

bool jv_eq(struct jv a, struct jv b) {
    if (is_num(a) && is_num(b)) return num_cmp(a, b) == 0;
    if (a.k != b.k) return false;
    switch (a.k) {
    case JV_UNDEF:
    case JV_NONE: return true;
    case JV_STR: return JSTR(a)->len == JSTR(b)->len && !memcmp(JSTR(a)->s, JSTR(b)->s, JSTR(a)->len);
    case JV_LIST: {
        struct jlist *x = JLIST(a), *y = JLIST(b);
        if (x == y) return true;
        if (x->sub == JL_ITER || y->sub == JL_ITER || x->sub == JL_VALUES || y->sub == JL_VALUES) return false;
        if (x->sub != y->sub) {
            return false;
        }
        if (x->sub == JL_KEYS || x->sub == JL_ITEMS) { // set equality
            if (x->n != y->n) return false;
            for (size_t i = 0; i < x->n; i++) {
                bool found = false;
                for (size_t j = 0; j < y->n && !found; j++) found = jv_eq(x->v[i], y->v[j]);
                if (!found) return false;
            }
            return true;
        }
        return list_seq_eq(x, y);
    }
    case JV_DICT: {
        struct jdict *x = JDICT(a), *y = JDICT(b);
        if (x->n != y->n) return false;
        for (uint32_t i = 0; i < x->n; i++) {
            struct jv *w = jdict_get(y, x->e[i].k);
            if (!w || !jv_eq(x->e[i].v, *w)) return false;
        }
        return true;
    }
    default: return a.o == b.o;
    }
}

static const char *cmp_sym(int cmp) {
    switch (cmp) {
    case JCMP_LT: return "<";
    case JCMP_LE: return "<=";
    case JCMP_GT: return ">";
    default: return ">=";
    }
}

// a <op> b for orderable values; -1 on a type error.
int jr_compare(struct jrender *r, int cmp, struct jv a, struct jv b, bool *res) {
    if (a.k == JV_UNDEF) return jr_undefined_error(r, a);
    if (b.k == JV_UNDEF) return jr_undefined_error(r, b);
    int c;
    if (is_num(a) && is_num(b)) {
        c = num_cmp(a, b);
        if (c == 2) {
            *res = false;
            return 0;
        }
    } else if (a.k == JV_STR && b.k == JV_STR) {
        size_t n = JSTR(a)->len < JSTR(b)->len ? JSTR(a)->len : JSTR(b)->len;
        int m = memcmp(JSTR(a)->s, JSTR(b)->s, n);
        c = m < 0 ? -1 : m > 0 ? 1 : JSTR(a)->len < JSTR(b)->len ? -1 : JSTR(a)->len > JSTR(b)->len;
    } else if (a.k == JV_LIST && b.k == JV_LIST && JLIST(a)->sub == JLIST(b)->sub &&
               (JLIST(a)->sub == JL_LIST || JLIST(a)->sub == JL_TUPLE)) {
        struct jlist *x = JLIST(a), *y = JLIST(b);
        size_t i = 0;
        while (i < x->n && i < y->n && jv_eq(x->v[i], y->v[i])) i++;
        if (i < x->n && i < y->n) return jr_compare(r, cmp, x->v[i], y->v[i], res);
        c = x->n < y->n ? -1 : x->n > y->n;
    } else {
        return jr_fail(r, "'%s' not supported between instances of '%s' and '%s'", cmp_sym(cmp), jv_type_name(a),
                       jv_type_name(b));
    }
    switch (cmp) {
    case JCMP_LT: *res = c < 0; break;
    case JCMP_LE: *res = c <= 0; break;
    case JCMP_GT: *res = c > 0; break;
    default: *res = c >= 0; break;
    }
    return 0;
}

// ---- json.dumps -----------------------------------------------------------------------------

static void jdump_string(struct jbuf *b, const char *s, size_t n, bool ensure_ascii) {
    jbuf_putc(b, '"');
    size_t run = 0; // bytes copied as they are, flushed at each escape
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char tmp[16];
        size_t adv = 1;
        if (c == '"') esc = "\\\"";
        else if (c == '\\') esc = "\\\\";
        else if (c == '\n') esc = "\\n";
        else if (c == '\r') esc = "\\r";
        else if (c == '\t') esc = "\\t";
        else if (c == '\b') esc = "\\b";
        else if (c == '\f') esc = "\\f";
        else if (c < 0x20 || (c == 0x7f && ensure_ascii)) snprintf(tmp, sizeof tmp, "\\u%04x", c), esc = tmp;
        else if (c >= 0x80) {
            uint32_t cp = ju_decode(s + i, n - i, &adv);
            if (ensure_ascii) {
                if (cp >= 0x10000) {
                    uint32_t v = cp - 0x10000;
                    snprintf(tmp, sizeof tmp, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
                } else {
                    snprintf(tmp, sizeof tmp, "\\u%04x", cp);
                }
                esc = tmp;
            }
        }
        if (esc) {
            jbuf_put(b, s + i - run, run);
            run = 0;
            jbuf_puts(b, esc);
        } else {
            run += adv;
        }
        i += adv;
    }
    jbuf_put(b, s + n - run, run);
    jbuf_putc(b, '"');
}

static void json_float(struct jbuf *b, double f) {
    if (isnan(f)) jbuf_puts(b, "NaN");
    else if (isinf(f)) jbuf_puts(b, f < 0 ? "-Infinity" : "Infinity");
    else {
        char t[40];
        jfloat_repr(f, t);
        jbuf_puts(b, t);
    }
}

static void json_newline(struct jbuf *b, const struct jdump_opts *o, int depth) {
    jbuf_putc(b, '\n');
    for (int i = 0; i < depth; i++) jbuf_put(b, o->indent, o->indent_len);
}

// A dict key as json.dumps writes it: strings as they are, numbers, true/false/null.
static int json_key(struct jrender *r, struct jbuf *b, struct jv k, const struct jdump_opts *o) {
    switch (k.k) {
    case JV_STR: jdump_string(b, JSTR(k)->s, JSTR(k)->len, o->ensure_ascii); return 0;
    case JV_INT: jbuf_printf(b, "\"%" PRId64 "\"", k.i); return 0;
    case JV_FLOAT: jbuf_putc(b, '"'); json_float(b, k.f); jbuf_putc(b, '"'); return 0;
    case JV_BOOL: jbuf_puts(b, k.b ? "\"true\"" : "\"false\""); return 0;
    case JV_NONE: jbuf_puts(b, "\"null\""); return 0;
    default: return jr_fail(r, "keys must be str, int, float, bool or None, not %s", jv_type_name(k));
    }
}

int jr_json_dump(struct jrender *r, struct jbuf *b, struct jv v, const struct jdump_opts *o, int depth) {
    if (depth > 1000) return jr_fail(r, "maximum recursion depth exceeded while encoding a JSON object");
    switch (v.k) {
    case JV_NONE: jbuf_puts(b, "null"); return 0;
    case JV_BOOL: jbuf_puts(b, v.b ? "true" : "false"); return 0;
    case JV_INT: jbuf_printf(b, "%" PRId64, v.i); return 0;
    case JV_FLOAT: json_float(b, v.f); return 0;
    case JV_STR: jdump_string(b, JSTR(v)->s, JSTR(v)->len, o->ensure_ascii); return 0;
    case JV_LIST: {
        struct jlist *l = JLIST(v);
        if (l->sub != JL_LIST && l->sub != JL_TUPLE) break;
        if (!l->n) {
            jbuf_puts(b, "[]");
            return 0;
        }
        jbuf_putc(b, '[');
        for (size_t i = 0; i < l->n; i++) {
            if (i) jbuf_put(b, o->item_sep, o->item_sep_len);
            if (o->indent) json_newline(b, o, depth + 1);
            if (jr_json_dump(r, b, l->v[i], o, depth + 1)) return -1;
        }
        if (o->indent) json_newline(b, o, depth);
        jbuf_putc(b, ']');
        return 0;
    }
    case JV_DICT: {
        struct jdict *d = JDICT(v);
        if (!d->n) {
            jbuf_puts(b, "{}");
            return 0;
        }
        uint32_t *order = jx_alloc(d->n * sizeof *order);
        for (uint32_t i = 0; i < d->n; i++) order[i] = i;
        if (o->sort_keys) { // insertion sort: stable, and dicts in templates are small
            for (uint32_t i = 1; i < d->n; i++) {
                uint32_t x = order[i];
                uint32_t j = i;
                while (j > 0) {
                    bool lt;
                    if (jr_compare(r, JCMP_LT, d->e[x].k, d->e[order[j - 1]].k, &lt)) {
                        free(order);
                        return -1;
                    }
                    if (!lt) break;
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = x;
            }
        }
        jbuf_putc(b, '{');
        for (uint32_t i = 0; i < d->n; i++) {
            struct jdent *e = &d->e[order[i]];
            if (i) jbuf_put(b, o->item_sep, o->item_sep_len);
            if (o->indent) json_newline(b, o, depth + 1);
            if (json_key(r, b, e->k, o) || (jbuf_put(b, o->key_sep, o->key_sep_len), jr_json_dump(r, b, e->v, o, depth + 1))) {
                free(order);
                return -1;
            }
        }
        free(order);
        if (o->indent) json_newline(b, o, depth);
        jbuf_putc(b, '}');
        return 0;
    }
    default: break;
    }
    return jr_fail(r, "Object of type %s is not JSON serializable", jv_type_name(v));
}
