// jinja_eval.c — runs a parsed template: statements, expressions, scopes, macros and loops with
// jinja2's semantics.
//
// Scopes are frames searched innermost first, then the global functions:
//   - the top frame holds the caller's variables and the template's top-level `set`s;
//   - each iteration of a for loop runs in a fresh frame over the enclosing one, so a `set` in
//     the body is gone at the next iteration and after the loop (why templates use namespace());
//   - a macro call runs in a frame over the frame the macro was defined in (lexical, and live:
//     a later top-level `set` is seen);
//   - with, filter blocks, set blocks, call blocks and {% generation %} get frames of their own;
//     if does not.
// A frame a macro (or recursive loop) refers to is pinned: it lives to the render's end.
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "template/jinja_int.h"

enum { X_OK = 0, X_ERR = -1, X_BREAK = 1, X_CONTINUE = 2 };

// ---- errors and budgets ---------------------------------------------------------------------------

static int vfail(struct jrender *r, frink_status st, const char *fmt, va_list ap) {
    if (r->err) return -1; // the first error stands
    char msg[900];
    vsnprintf(msg, sizeof msg, fmt, ap);
    frink_fail(st, "%s", msg);
    r->err = true;
    r->err_located = false;
    r->err_st = st;
    return -1;
}

int jr_fail(struct jrender *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(r, FRINK_ERR_ARG, fmt, ap);
    va_end(ap);
    return -1;
}

int jr_fail_st(struct jrender *r, frink_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(r, st, fmt, ap);
    va_end(ap);
    return -1;
}

int jr_step(struct jrender *r) {
    if (++r->steps <= r->max_steps) return 0;
    jr_fail(r, "the template ran past its evaluation budget of %" PRId64 " steps", r->max_steps);
    r->fatal = true;
    return -1;
}

bool jr_reserve(struct jrender *r, size_t bytes) {
    r->bytes += (int64_t)bytes;
    if (r->bytes <= r->max_bytes) return true;
    jr_fail(r, "the template ran past its memory budget of %" PRId64 " bytes", r->max_bytes);
    r->fatal = true;
    return false;
}

// Prefixes the pending error with the position of n, once (the innermost node names it).
static int locate(struct jrender *r, const struct jnode *n) {
    if (r->err && !r->err_located) {
        int line, col;
        jinja_linecol(r->t, n->pos, &line, &col);
        frink_fail_ctx(r->err_st, "line %d, column %d: ", line, col);
        r->err_located = true;
    }
    return -1;
}

int jr_undefined_error(struct jrender *r, struct jv v) { return jr_fail(r, "%s", jv_undef_text(v)); }

// ---- frames ---------------------------------------------------------------------------------------

static struct jframe *frame_new(struct jframe *parent) {
    struct jframe *f = jx_alloc(sizeof *f);
    f->parent = parent;
    return f;
}

static void frame_destroy(struct jframe *f) {
    for (int i = 0; i < f->n; i++) jv_decref(f->vars[i].v);
    free(f->vars);
    free(f);
}

static void frame_release(struct jrender *r, struct jframe *f) {
    if (!f) return;
    if (f->pinned) {
        f->next_pinned = r->pinned;
        r->pinned = f;
        return;
    }
    frame_destroy(f);
}

static void frame_pin(struct jframe *f) {
    for (; f && !f->pinned; f = f->parent) f->pinned = true;
}

static struct jv *frame_find(struct jframe *f, const char *name, size_t n) {
    for (; f; f = f->parent)
        for (int i = f->n - 1; i >= 0; i--)
            if (f->vars[i].nlen == n && !memcmp(f->vars[i].name, name, n)) return &f->vars[i].v;
    return NULL;
}

// Binds name in f (takes the reference to v).
static void frame_set(struct jframe *f, const char *name, size_t n, struct jv v) {
    for (int i = 0; i < f->n; i++)
        if (f->vars[i].nlen == n && !memcmp(f->vars[i].name, name, n)) {
            jv_decref(f->vars[i].v);
            f->vars[i].v = v;
            return;
        }
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 8;
        f->vars = jx_realloc(f->vars, (size_t)f->cap * sizeof *f->vars);
    }
    f->vars[f->n++] = (struct jframe_var){name, n, v};
}

// ---- arguments --------------------------------------------------------------------------------------

struct argv_own {
    struct jargv a;
    int cap_pos, cap_kw;
    struct jv keep; // a **kwargs dict, whose keys the keyword names point into
};

static void argv_push(struct argv_own *o, struct jv v) {
    if (o->a.npos == o->cap_pos) {
        o->cap_pos = o->cap_pos ? o->cap_pos * 2 : 4;
        o->a.pos = jx_realloc(o->a.pos, (size_t)o->cap_pos * sizeof *o->a.pos);
    }
    o->a.pos[o->a.npos++] = v;
}

static void argv_push_kw(struct argv_own *o, const char *name, struct jv v) {
    if (o->a.nkw == o->cap_kw) {
        o->cap_kw = o->cap_kw ? o->cap_kw * 2 : 4;
        o->a.kwn = jx_realloc(o->a.kwn, (size_t)o->cap_kw * sizeof *o->a.kwn);
        o->a.kwv = jx_realloc(o->a.kwv, (size_t)o->cap_kw * sizeof *o->a.kwv);
    }
    o->a.kwn[o->a.nkw] = name;
    o->a.kwv[o->a.nkw++] = v;
}

static void argv_free(struct argv_own *o) {
    jv_decref_n(o->a.pos, (size_t)o->a.npos);
    jv_decref_n(o->a.kwv, (size_t)o->a.nkw);
    jv_decref(o->keep);
    free(o->a.pos);
    free(o->a.kwn);
    free(o->a.kwv);
    memset(o, 0, sizeof *o);
}

int jr_bind(struct jrender *r, const char *fname, struct jargv *a, const char *const *params, int nparams, struct jv *slots) {
    for (int i = 0; i < nparams; i++) slots[i] = jv_undef();
    if (a->npos > nparams)
        return jr_fail(r, "%s() takes at most %d argument%s (%d given)", fname, nparams, nparams == 1 ? "" : "s", a->npos);
    for (int i = 0; i < a->npos; i++) slots[i] = a->pos[i];
    for (int k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < nparams && strcmp(params[i], a->kwn[k])) i++;
        if (i == nparams) return jr_fail(r, "%s() got an unexpected keyword argument '%s'", fname, a->kwn[k]);
        if (i < a->npos) return jr_fail(r, "%s() got multiple values for argument '%s'", fname, a->kwn[k]);
        slots[i] = a->kwv[k];
    }
    return 0;
}

// ---- iteration --------------------------------------------------------------------------------------

int jr_iterate(struct jrender *r, struct jv v, struct jlist **out) {
    struct jv l;
    switch (v.k) {
    case JV_UNDEF: l = jv_list_new(JL_LIST, 0); break;
    case JV_LIST: {
        struct jlist *s = JLIST(v);
        size_t from = s->sub == JL_ITER ? s->pos : 0;
        l = jv_list_new(JL_LIST, s->n - from);
        for (size_t i = from; i < s->n; i++) jlist_push(JLIST(l), jv_incref(s->v[i]));
        if (s->sub == JL_ITER) {
            s->pos = s->n;
            if (jr_iter_exhausted(r, s)) {
                jv_decref(l);
                return -1;
            }
        }
        break;
    }
    case JV_DICT: {
        struct jdict *d = JDICT(v);
        l = jv_list_new(JL_LIST, d->n);
        for (uint32_t i = 0; i < d->n; i++) jlist_push(JLIST(l), jv_incref(d->e[i].k));
        break;
    }
    case JV_STR: {
        struct jstr *s = JSTR(v);
        l = jv_list_new(JL_LIST, s->len);
        for (size_t i = 0; i < s->len;) {
            size_t adv;
            ju_decode(s->s + i, s->len - i, &adv);
            jlist_push(JLIST(l), jv_str(s->s + i, adv));
            i += adv;
        }
        break;
    }
    default: return jr_fail(r, "'%s' object is not iterable", jv_type_name(v));
    }
    *out = JLIST(l);
    return 0;
}

int jr_iter_exhausted(struct jrender *r, struct jlist *it) {
    if (it->sub != JL_ITER || !it->pending) return 0;
    return jr_fail_st(r, (frink_status)it->pending_st, "%s", it->pending);
}

static bool is_intlike(struct jv v) { return v.k == JV_INT || v.k == JV_BOOL; }
static int64_t as_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }

// ---- attribute and item lookup -----------------------------------------------------------------

static bool is_dunder(const char *name, size_t n) { return n >= 2 && name[0] == '_' && name[1] == '_'; }

static struct jv unsafe_attr(struct jv obj, const char *name, size_t n) {
    return jv_undef_msg(JU_SECURITY, "access to attribute '%.*s' of '%s' object is unsafe.", (int)(n > 100 ? 100 : n), name,
                        jv_type_name(obj));
}

int jr_getattr(struct jrender *r, struct jv *obj, const char *name, size_t n, struct jv *out) {
    if (obj->k == JV_UNDEF) return jr_undefined_error(r, *obj);
    if (is_dunder(name, n)) {
        // Python objects have many __dunder__ attributes; the sandbox refuses them all. A dict
        // key of that spelling is only found through [].
        if (obj->k == JV_DICT) {
            struct jv *v = jdict_get_str(JDICT(*obj), name, n);
            if (v && !(n > 4 && name[n - 1] == '_' && name[n - 2] == '_')) {
                *out = jv_incref(*v);
                return 0;
            }
        }
        *out = unsafe_attr(*obj, name, n);
        return 0;
    }
    if (obj->k == JV_NS) {
        struct jv *v = jdict_get_str(((struct jns *)obj->o)->attrs, name, n);
        *out = v ? jv_incref(*v) : jv_undef_attr(*obj, name, n);
        return 0;
    }
    int f = jr_builtin_attr(r, *obj, name, n, out);
    if (f < 0) return -1;
    if (f == 1) return 0;
    if (f == 2) {
        *out = unsafe_attr(*obj, name, n);
        return 0;
    }
    if (obj->k == JV_DICT) {
        struct jv *v = jdict_get_str(JDICT(*obj), name, n);
        if (v) {
            *out = jv_incref(*v);
            return 0;
        }
    }
    *out = jv_undef_attr(*obj, name, n);
    return 0;
}

// Python's index normalization for a sequence of n items: -1 when out of range.
static int64_t seq_index(int64_t i, size_t n) {
    if (i < 0) i += (int64_t)n;
    return i < 0 || (uint64_t)i >= n ? -1 : i;
}

int jr_getitem(struct jrender *r, struct jv *obj, struct jv *key, struct jv *out) {
    if (obj->k == JV_UNDEF) return jr_undefined_error(r, *obj);
    switch (obj->k) {
    case JV_DICT: {
        struct jv *v = jdict_get(JDICT(*obj), *key);
        if (v) {
            *out = jv_incref(*v);
            return 0;
        }
        break;
    }
    case JV_LIST: {
        struct jlist *l = JLIST(*obj);
        if (l->sub == JL_ITEMS || l->sub == JL_KEYS || l->sub == JL_VALUES || l->sub == JL_ITER) break;
        if (is_intlike(*key)) {
            int64_t i = seq_index(as_i(*key), l->n);
            if (i >= 0) {
                *out = jv_incref(l->v[i]);
                return 0;
            }
        }
        break;
    }
    case JV_STR:
        if (is_intlike(*key)) {
            struct jstr *s = JSTR(*obj);
            int64_t i = seq_index(as_i(*key), jstr_ncp(s));
            if (i >= 0) {
                size_t a = jstr_is_ascii(s) ? (size_t)i : ju_cp_offset(s->s, s->len, (size_t)i), adv = 1;
                if (!jstr_is_ascii(s)) ju_decode(s->s + a, s->len - a, &adv);
                *out = jv_str(s->s + a, adv);
                out->safe = obj->safe;
                return 0;
            }
        }
        break;
    default: break;
    }
    if (key->k == JV_STR) { // then the attribute of that name, as the sandbox's getitem does
        struct jstr *k = JSTR(*key);
        if (obj->k == JV_NS) {
            struct jv *v = jdict_get_str(((struct jns *)obj->o)->attrs, k->s, k->len);
            *out = v ? jv_incref(*v) : jv_undef_item(*obj, *key);
            return 0;
        }
        if (is_dunder(k->s, k->len)) {
            *out = unsafe_attr(*obj, k->s, k->len);
            return 0;
        }
        int f = jr_builtin_attr(r, *obj, k->s, k->len, out);
        if (f < 0) return -1;
        if (f == 1) return 0;
        if (f == 2) {
            *out = unsafe_attr(*obj, k->s, k->len);
            return 0;
        }
    }
    *out = jv_undef_item(*obj, *key);
    return 0;
}

// Python slice indices of a sequence of n items (PySlice_AdjustIndices): the start, step and count.
static void slice_adjust(int64_t n, bool has_start, int64_t start, bool has_stop, int64_t stop, int64_t step, int64_t *s0,
                         int64_t *s1, int64_t *cnt) {
    if (!has_start) start = step < 0 ? n - 1 : 0;
    else if (start < 0) {
        start += n;
        if (start < 0) start = step < 0 ? -1 : 0;
    } else if (start >= n) start = step < 0 ? n - 1 : n;
    if (!has_stop) stop = step < 0 ? -1 : n;
    else if (stop < 0) {
        stop += n;
        if (stop < 0) stop = step < 0 ? -1 : 0;
    } else if (stop >= n) stop = step < 0 ? n - 1 : n;
    int64_t c = 0;
    if (step < 0) {
        if (stop < start) c = (start - stop - 1) / (-step) + 1;
    } else if (start < stop) c = (stop - start - 1) / step + 1;
    *s0 = start;
    *s1 = stop;
    *cnt = c;
}

static int eval(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out);

static int eval_slice(struct jrender *r, struct jframe *f, struct jv *obj, const struct jnode *sl, struct jv *out) {
    struct jv parts[3] = {jv_none(), jv_none(), jv_none()};
    const struct jnode *pn[3] = {sl->a, sl->b, sl->c};
    for (int i = 0; i < 3; i++)
        if (pn[i] && eval(r, f, pn[i], &parts[i])) {
            jv_decref_n(parts, 3);
            return -1;
        }
    int rc = 0;
    bool ok = true;
    for (int i = 0; i < 3; i++) ok = ok && (parts[i].k == JV_NONE || is_intlike(parts[i]));
    // jinja2 slices with Python's own obj[a:b:c], not the sandbox's getitem: errors are raised
    uint8_t sub = obj->k == JV_LIST ? JLIST(*obj)->sub : 0;
    bool seq = obj->k == JV_STR || (obj->k == JV_LIST && (sub == JL_LIST || sub == JL_TUPLE || sub == JL_RANGE));
    if (obj->k == JV_UNDEF) {
        rc = jr_undefined_error(r, *obj);
    } else if ((!seq || !ok) && r->folding) { // the sandbox's getitem: a TypeError is an undefined value
        *out = jv_undef_msg(JU_ELEMENT, "%s object has no element slice", jv_type_name(*obj));
    } else if (obj->k == JV_DICT) {
        rc = jr_fail(r, "unhashable type: 'slice'");
    } else if (!seq) {
        rc = jr_fail(r, "'%s' object is not subscriptable", jv_type_name(*obj));
    } else if (!ok) {
        rc = jr_fail(r, "slice indices must be integers or None or have an __index__ method");
    } else {
        int64_t step = parts[2].k == JV_NONE ? 1 : as_i(parts[2]);
        if (step == 0) {
            rc = jr_fail(r, "slice step cannot be zero");
        } else {
            bool str = obj->k == JV_STR;
            struct jstr *s = str ? JSTR(*obj) : NULL;
            bool ascii = str && jstr_is_ascii(s);
            int64_t len = str ? (int64_t)jstr_ncp(s) : (int64_t)JLIST(*obj)->n, s0, s1, cnt;
            slice_adjust(len, parts[0].k != JV_NONE, as_i(parts[0]), parts[1].k != JV_NONE, as_i(parts[1]), step, &s0, &s1, &cnt);
            if (str) {
                size_t *offs = NULL; // code point → byte offset, for non-ASCII strings
                if (!ascii) {
                    offs = jx_alloc(((size_t)len + 1) * sizeof *offs);
                    size_t i = 0, c = 0;
                    while (i < s->len) {
                        offs[c++] = i;
                        size_t adv;
                        ju_decode(s->s + i, s->len - i, &adv);
                        i += adv;
                    }
                    offs[c] = s->len;
                }
                struct jbuf b = {.r = r};
                if (step == 1 && cnt > 0) {
                    size_t a = ascii ? (size_t)s0 : offs[s0], e = ascii ? (size_t)(s0 + cnt) : offs[s0 + cnt];
                    jbuf_put(&b, s->s + a, e - a);
                } else {
                    for (int64_t k = 0, i = s0; k < cnt; k++, i += step) {
                        size_t a = ascii ? (size_t)i : offs[i], e = ascii ? (size_t)i + 1 : offs[i + 1];
                        jbuf_put(&b, s->s + a, e - a);
                    }
                }
                free(offs);
                rc = jr_str_from_buf(r, &b, out);
                if (!rc) out->safe = obj->safe;
            } else {
                struct jlist *l = JLIST(*obj);
                *out = jv_list_new(l->sub == JL_LIST ? JL_LIST : l->sub, (size_t)cnt);
                for (int64_t k = 0, i = s0; k < cnt; k++, i += step) jlist_push(JLIST(*out), jv_incref(l->v[i]));
                if (l->sub == JL_RANGE) { // range(10)[2:9:3] is range(2, 9, 3)
                    JLIST(*out)->r0 = l->r0 + s0 * l->rstep;
                    JLIST(*out)->r1 = l->r0 + s1 * l->rstep;
                    JLIST(*out)->rstep = l->rstep * step;
                }
            }
        }
    }
    jv_decref_n(parts, 3);
    return rc;
}

// ---- names ---------------------------------------------------------------------------------------

static int lookup(struct jrender *r, struct jframe *f, const char *name, size_t n, struct jv *out) {
    struct jv *v = frame_find(f, name, n);
    if (v) {
        *out = jv_incref(*v);
        return 0;
    }
    int g = jr_global(r, name, n, out);
    if (g < 0) return -1;
    if (!g) *out = jv_undef_name(name, n);
    return 0;
}

// Binds an assignment target (a name, or a tuple of targets: Python's unpacking). Takes v.
static int assign(struct jrender *r, struct jframe *f, const struct jnode *t, struct jv v) {
    if (t->kind == JN_NAME) {
        frame_set(f, t->s, t->slen, v);
        return 0;
    }
    if (t->kind == JN_GETATTR) { // {% set ns.attr = v %}
        struct jv *ns = frame_find(f, t->a->s, t->a->slen);
        if (!ns || ns->k != JV_NS) {
            jv_decref(v);
            return jr_fail(r, "cannot assign attribute on non-namespace object");
        }
        jdict_set(((struct jns *)ns->o)->attrs, jv_str(t->s, t->slen), v);
        return 0;
    }
    struct jlist *items;
    if (jr_iterate(r, v, &items)) {
        if (v.k != JV_UNDEF) {
            r->err = false;
            jr_fail(r, "cannot unpack non-iterable %s object", jv_type_name(v));
        }
        jv_decref(v);
        return -1;
    }
    jv_decref(v);
    struct jv lv = {.k = JV_LIST, .o = &items->h};
    int rc = 0;
    if (items->n != (size_t)t->nkids) {
        if (items->n > (size_t)t->nkids) rc = jr_fail(r, "too many values to unpack (expected %d)", t->nkids);
        else rc = jr_fail(r, "not enough values to unpack (expected %d, got %zu)", t->nkids, items->n);
    } else {
        for (int i = 0; i < t->nkids && !rc; i++) rc = assign(r, f, t->kids[i], jv_incref(items->v[i]));
    }
    jv_decref(lv);
    return rc;
}

// ---- calls ---------------------------------------------------------------------------------------

static int eval_args(struct jrender *r, struct jframe *f, const struct jargs *a, struct argv_own *o) {
    for (int i = 0; i < a->npos; i++) {
        struct jv v;
        if (eval(r, f, a->pos[i], &v)) return -1;
        argv_push(o, v);
    }
    if (a->star) {
        struct jv v;
        if (eval(r, f, a->star, &v)) return -1;
        struct jlist *items;
        int rc = jr_iterate(r, v, &items);
        jv_decref(v);
        if (rc) return -1;
        for (size_t i = 0; i < items->n; i++) argv_push(o, jv_incref(items->v[i]));
        jv_decref((struct jv){.k = JV_LIST, .o = &items->h});
    }
    for (int i = 0; i < a->nkw; i++) {
        struct jv v;
        if (eval(r, f, a->kw[i].value, &v)) return -1;
        argv_push_kw(o, a->kw[i].name, v);
    }
    if (a->starstar) {
        struct jv v;
        if (eval(r, f, a->starstar, &v)) return -1;
        if (v.k != JV_DICT) {
            jv_decref(v);
            return jr_fail(r, "argument after ** must be a mapping");
        }
        struct jdict *d = JDICT(v);
        for (uint32_t i = 0; i < d->n; i++) {
            if (d->e[i].k.k != JV_STR) {
                jv_decref(v);
                return jr_fail(r, "keywords must be strings");
            }
            argv_push_kw(o, JSTR(d->e[i].k)->s, jv_incref(d->e[i].v));
        }
        o->keep = v; // the names live in the dict's keys
    }
    return 0;
}

static int exec_body(struct jrender *r, struct jframe *f, struct jnode *const *body, int n, struct jbuf *out);

static int call_macro(struct jrender *r, struct jmacro *m, struct jargv *a, struct jv *out) {
    const struct jnode *d = m->def;
    const char *name = d->s;
    if (r->depth >= JINJA_MAX_DEPTH) return jr_fail(r, "maximum recursion depth exceeded (%d macro calls)", JINJA_MAX_DEPTH);
    if (jr_step(r)) return -1;
    int np = d->nparams;
    bool *used = jx_alloc((size_t)(a->nkw + 1) * sizeof *used), *need_default = jx_alloc((size_t)(np + 1) * sizeof *need_default);
    struct jframe *f = frame_new(m->scope);
    int rc = 0;
    bool caller_param = false;
    for (int i = 0; i < np; i++) {
        if (!strcmp(d->params[i], "caller")) caller_param = true;
        if (i < a->npos) {
            frame_set(f, d->params[i], strlen(d->params[i]), jv_incref(a->pos[i]));
            continue;
        }
        int k = 0;
        while (k < a->nkw && (used[k] || strcmp(a->kwn[k], d->params[i]))) k++;
        if (k < a->nkw) {
            used[k] = true;
            frame_set(f, d->params[i], strlen(d->params[i]), jv_incref(a->kwv[k]));
        } else if (d->defaults[i]) {
            need_default[i] = true; // computed below, once every parameter is bound
            frame_set(f, d->params[i], strlen(d->params[i]), jv_undef_name(d->params[i], strlen(d->params[i])));
        } else {
            frame_set(f, d->params[i], strlen(d->params[i]),
                      jv_undef_msg(JU_MSG, "parameter '%s' was not provided", d->params[i]));
        }
    }
    // Defaults run in order in the macro's frame: they see the arguments, the defaults computed
    // before them, and a parameter still waiting for its default as undefined.
    for (int i = 0; i < np; i++) {
        if (!need_default[i]) continue;
        struct jv v;
        if (eval(r, f, d->defaults[i], &v)) {
            rc = -1;
            goto done;
        }
        frame_set(f, d->params[i], strlen(d->params[i]), v);
    }
    if ((d->flags & JNF_CALLER) && !caller_param) {
        int k = 0;
        while (k < a->nkw && (used[k] || strcmp(a->kwn[k], "caller"))) k++;
        if (k < a->nkw) {
            used[k] = true;
            frame_set(f, "caller", 6, jv_incref(a->kwv[k]));
        } else {
            frame_set(f, "caller", 6, jv_undef_msg(JU_MSG, "No caller defined"));
        }
    }
    if (d->flags & JNF_KWARGS) {
        struct jv kw = jv_dict_new();
        for (int k = 0; k < a->nkw; k++)
            if (!used[k]) jdict_set(JDICT(kw), jv_cstr(a->kwn[k]), jv_incref(a->kwv[k]));
        frame_set(f, "kwargs", 6, kw);
    } else {
        for (int k = 0; k < a->nkw; k++)
            if (!used[k]) {
                if (!strcmp(a->kwn[k], "caller"))
                    rc = jr_fail(r, "macro '%s' was invoked with two values for the special caller argument. This is most likely a bug.",
                                 name);
                else rc = jr_fail(r, "macro '%s' takes no keyword argument '%s'", name, a->kwn[k]);
                goto done;
            }
    }
    if (d->flags & JNF_VARARGS) {
        struct jv va = jv_list_new(JL_TUPLE, 0);
        for (int i = np; i < a->npos; i++) jlist_push(JLIST(va), jv_incref(a->pos[i]));
        frame_set(f, "varargs", 7, va);
    } else if (a->npos > np) {
        rc = jr_fail(r, "macro '%s' takes not more than %d argument(s)", name, np);
        goto done;
    }
    {
        struct jbuf b = {.r = r};
        r->depth++;
        rc = exec_body(r, f, d->body, d->nbody, &b);
        r->depth--;
        if (rc == X_OK) rc = jr_str_from_buf(r, &b, out);
        else jbuf_free(&b);
        if (rc > 0) rc = 0; // break/continue cannot leave a macro (refused at parse time)
    }
done:
    free(used);
    free(need_default);
    frame_release(r, f);
    return rc < 0 ? -1 : 0;
}

static int run_for(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv iterable, int depth0, struct jbuf *out);

int jr_call(struct jrender *r, struct jv *fn, struct jargv *a, struct jv *out) {
    switch (fn->k) {
    case JV_UNDEF: return jr_undefined_error(r, *fn);
    case JV_MACRO: return call_macro(r, (struct jmacro *)fn->o, a, out);
    case JV_FUNC:
        if (jr_step(r)) return -1;
        return jr_call_func(r, (struct jfunc *)fn->o, a, out);
    case JV_LOOP: {
        struct jloop *l = (struct jloop *)fn->o;
        if (!l->forn || !(l->forn->flags & JNF_RECURSIVE)) break;
        if (a->npos != 1 || a->nkw) return jr_fail(r, "loop() takes exactly one argument (the items of the next level)");
        if (r->depth >= JINJA_MAX_DEPTH) return jr_fail(r, "maximum recursion depth exceeded (%d nested loops)", JINJA_MAX_DEPTH);
        struct jbuf b = {.r = r};
        r->depth++;
        int rc = run_for(r, l->scope, l->forn, a->pos[0], l->depth0 + 1, &b);
        r->depth--;
        if (rc) {
            jbuf_free(&b);
            return -1;
        }
        return jr_str_from_buf(r, &b, out);
    }
    case JV_JOINER: {
        struct jjoiner *j = (struct jjoiner *)fn->o;
        if (a->npos || a->nkw) return jr_fail(r, "joiner() takes no arguments");
        if (!j->used) {
            j->used = true;
            *out = jv_str("", 0);
        } else {
            *out = jv_incref(j->sep);
        }
        return 0;
    }
    default: break;
    }
    return jr_fail(r, "'%s' object is not callable", jv_type_name(*fn));
}

// ---- filters and tests ------------------------------------------------------------------------

int jr_filter_by_name(struct jrender *r, const char *name, struct jv *in, struct jargv *a, struct jv *out) {
    const struct jfilter_def *d = jinja_filter_find(name);
    if (!d) return jr_fail(r, "No filter named '%s'.", name);
    if (!d->fn) return jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "the filter '%s' is not supported", name);
    if (jr_step(r)) return -1;
    return d->fn(r, in, a, out);
}

int jr_test_by_name(struct jrender *r, const char *name, struct jv *in, struct jargv *a, bool *out) {
    const struct jtest_def *d = jinja_test_find(name);
    if (!d) return jr_fail(r, "No test named '%s'.", name);
    if (jr_step(r)) return -1;
    return d->fn(r, in, a, out);
}


static _Thread_local const struct jv *tl_block_input;

static int eval_filter(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    if (r->folding && (!n->a || jinja_filter_takes_context(n->s))) return jr_fail(r, "not a constant"); // see eval_fold
    struct jv in;
    if (!n->a) in = jv_incref(*tl_block_input);
    else if (eval(r, f, n->a, &in)) return -1;
    struct argv_own o = {0};
    int rc = eval_args(r, f, &n->args, &o);
    if (!rc) {
        if (n->fn) {
            const struct jfilter_def *d = n->fn;
            rc = jr_step(r);
            if (!rc) rc = d->fn(r, &in, &o.a, out);
        } else if (jinja_filter_find(n->s)) { // deferred from parse time (inside an if)
            rc = jr_fail_st(r, FRINK_ERR_UNSUPPORTED, "the filter '%s' is not supported", n->s);
        } else {
            rc = jr_fail(r, "No filter named '%s' found.", n->s);
        }
    }
    argv_free(&o);
    jv_decref(in);
    return rc;
}

static int eval_test(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv in;
    if (eval(r, f, n->a, &in)) return -1;
    struct argv_own o = {0};
    bool res = false;
    int rc = eval_args(r, f, &n->args, &o);
    if (!rc) {
        if (n->fn) {
            rc = jr_step(r);
            if (!rc) rc = ((const struct jtest_def *)n->fn)->fn(r, &in, &o.a, &res);
        } else {
            rc = jr_fail(r, "No test named '%s' found.", n->s);
        }
    }
    argv_free(&o);
    jv_decref(in);
    if (!rc) *out = jv_bool(res);
    return rc;
}

// ---- expressions ------------------------------------------------------------------------------------

static int eval_call(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *extra_caller, struct jv *out) {
    struct jv fn;
    if (eval(r, f, n->a, &fn)) return -1;
    struct argv_own o = {0};
    int rc = eval_args(r, f, &n->args, &o);
    if (!rc && extra_caller) argv_push_kw(&o, "caller", jv_incref(*extra_caller));
    if (!rc) rc = jr_call(r, &fn, &o.a, out);
    argv_free(&o);
    jv_decref(fn);
    return rc;
}

// [a, b] and (a, b): a list or tuple of the items, in order.
static int eval_sequence(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv l = jv_list_new(n->kind == JN_LIST ? JL_LIST : JL_TUPLE, (size_t)n->nkids);
    for (int i = 0; i < n->nkids; i++) {
        struct jv v;
        if (eval(r, f, n->kids[i], &v)) {
            jv_decref(l);
            return -1;
        }
        jlist_push(JLIST(l), v);
    }
    *out = l;
    return 0;
}

// {k: v, ...}: keys evaluated before their values, each checked hashable.
static int eval_dict(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv d = jv_dict_new();
    for (int i = 0; i + 1 < n->nkids; i += 2) {
        struct jv k, v;
        if (eval(r, f, n->kids[i], &k)) {
            jv_decref(d);
            return -1;
        }
        if (!jv_hashable(k)) {
            jr_fail(r, "unhashable type: '%s'", jv_type_name(k));
            jv_decref(k);
            jv_decref(d);
            return -1;
        }
        if (eval(r, f, n->kids[i + 1], &v)) {
            jv_decref(k);
            jv_decref(d);
            return -1;
        }
        jdict_set(JDICT(d), k, v);
    }
    *out = d;
    return 0;
}

// obj[key] and obj[a:b:c].
static int eval_getitem(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv obj, key;
    if (eval(r, f, n->a, &obj)) return -1;
    int rc;
    if (n->b->kind == JN_SLICE) {
        rc = eval_slice(r, f, &obj, n->b, out);
    } else if (eval(r, f, n->b, &key)) {
        rc = -1;
    } else {
        rc = jr_getitem(r, &obj, &key, out);
        jv_decref(key);
    }
    jv_decref(obj);
    return rc;
}

// -x and +x of an int, bool or float (integers are 64-bit: -INT64_MIN overflows).
static int eval_unary_sign(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv v;
    if (eval(r, f, n->a, &v)) return -1;
    int rc = 0;
    bool neg = n->kind == JN_NEG;
    if (v.k == JV_UNDEF) rc = jr_undefined_error(r, v);
    else if (is_intlike(v)) {
        if (neg && as_i(v) == INT64_MIN) rc = jr_fail(r, "integer overflow in unary - (frink's integers are 64-bit)");
        else *out = jv_int(neg ? -as_i(v) : as_i(v));
    } else if (v.k == JV_FLOAT) *out = jv_float(neg ? -v.f : v.f);
    else rc = jr_fail(r, "bad operand type for unary %c: '%s'", neg ? '-' : '+', jv_type_name(v));
    jv_decref(v);
    return rc;
}

// a op b; -a ** b with a negative a is -(|a| ** b), as Python parses it (see JNF_NEGPOW).
static int eval_binop(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv a, b;
    if (eval(r, f, n->a, &a)) return -1;
    if (eval(r, f, n->b, &b)) {
        jv_decref(a);
        return -1;
    }
    int rc;
    bool neg = (n->flags & JNF_NEGPOW) && ((a.k == JV_INT && a.i < 0) || (a.k == JV_FLOAT && signbit(a.f)));
    if (neg) { // -(|a| ** b): see JNF_NEGPOW
        struct jv pa = a.k == JV_INT ? (a.i == INT64_MIN ? jv_float(-(double)a.i) : jv_int(-a.i)) : jv_float(-a.f), p;
        rc = jr_binop(r, n->op, pa, b, &p);
        if (!rc) {
            if (p.k == JV_INT) *out = jv_int(-p.i);
            else *out = jv_float(-p.f);
        }
    } else {
        rc = jr_binop(r, n->op, a, b, out);
    }
    jv_decref(a);
    jv_decref(b);
    return rc;
}

// a and b, a or b: the deciding operand itself, b unevaluated when a decides.
static int eval_and_or(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv a;
    if (eval(r, f, n->a, &a)) return -1;
    bool t = jv_truthy(a);
    if ((n->kind == JN_AND) != t) {
        *out = a;
        return 0;
    }
    jv_decref(a);
    return eval(r, f, n->b, out);
}

// a ~ b ~ ...: str() of each, joined.
static int eval_concat(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jbuf b = {.r = r};
    for (int i = 0; i < n->nkids; i++) {
        struct jv v;
        if (eval(r, f, n->kids[i], &v)) {
            jbuf_free(&b);
            return -1;
        }
        jv_str_to(&b, v);
        jv_decref(v);
    }
    return jr_str_from_buf(r, &b, out);
}

// a < b <= c ...: chained, each operand evaluated once, stopping at the first false.
static int eval_compare(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv left;
    if (eval(r, f, n->a, &left)) return -1;
    bool res = true;
    for (int i = 0; i < n->nkids && res; i++) {
        struct jv right;
        if (eval(r, f, n->kids[i], &right)) {
            jv_decref(left);
            return -1;
        }
        int rc = 0;
        switch (n->ops[i]) {
        case JCMP_EQ: res = jv_eq(left, right); break;
        case JCMP_NE: res = !jv_eq(left, right); break;
        case JCMP_IN: rc = jr_contains(r, right, left, &res); break;
        case JCMP_NOTIN:
            rc = jr_contains(r, right, left, &res);
            res = !res;
            break;
        default: rc = jr_compare(r, n->ops[i], left, right, &res); break;
        }
        jv_decref(left);
        left = right;
        if (rc) {
            jv_decref(left);
            return -1;
        }
    }
    jv_decref(left);
    *out = jv_bool(res);
    return 0;
}

// b if a else c; without else, an undefined that says why when used.
static int eval_cond(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jv c;
    if (eval(r, f, n->a, &c)) return -1;
    bool t = jv_truthy(c);
    jv_decref(c);
    if (t) return eval(r, f, n->b, out);
    if (n->c) return eval(r, f, n->c, out);
    int line, col;
    jinja_linecol(r->t, n->pos, &line, &col);
    *out = jv_undef_msg(JU_MSG, "the inline if-expression on line %d evaluated to false and no else section was defined.", line);
    return 0;
}

static int eval_inner(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    if (r->folding && (n->kind == JN_NAME || n->kind == JN_CALL)) return jr_fail(r, "not a constant"); // see eval_fold
    switch (n->kind) {
    case JN_CONST: *out = n->v; return 0;
    case JN_NAME: return lookup(r, f, n->s, n->slen, out);
    case JN_LIST:
    case JN_TUPLE: return eval_sequence(r, f, n, out);
    case JN_DICT: return eval_dict(r, f, n, out);
    case JN_GETATTR: {
        struct jv obj;
        if (eval(r, f, n->a, &obj)) return -1;
        int rc = jr_getattr(r, &obj, n->s, n->slen, out);
        jv_decref(obj);
        return rc;
    }
    case JN_GETITEM: return eval_getitem(r, f, n, out);
    case JN_CALL: return eval_call(r, f, n, NULL, out);
    case JN_FILTER: return eval_filter(r, f, n, out);
    case JN_TEST: return eval_test(r, f, n, out);
    case JN_NOT: {
        struct jv v;
        if (eval(r, f, n->a, &v)) return -1;
        *out = jv_bool(!jv_truthy(v));
        jv_decref(v);
        return 0;
    }
    case JN_NEG:
    case JN_POS: return eval_unary_sign(r, f, n, out);
    case JN_BINOP: return eval_binop(r, f, n, out);
    case JN_AND:
    case JN_OR: return eval_and_or(r, f, n, out);
    case JN_CONCAT: return eval_concat(r, f, n, out);
    case JN_COMPARE: return eval_compare(r, f, n, out);
    case JN_COND: return eval_cond(r, f, n, out);
    default: return jr_fail(r, "internal error: node %d is not an expression", n->kind);
    }
}

// Python's has_safe_repr: what jinja2's optimizer may turn into a constant.
static bool safe_repr(struct jv v) {
    switch (v.k) {
    case JV_NONE:
    case JV_BOOL:
    case JV_INT:
    case JV_FLOAT:
    case JV_STR: return true;
    case JV_LIST: {
        struct jlist *l = JLIST(v);
        if (l->sub == JL_RANGE) return true;
        if (l->sub != JL_LIST && l->sub != JL_TUPLE) return false;
        for (size_t i = 0; i < l->n; i++)
            if (!safe_repr(l->v[i])) return false;
        return true;
    }
    case JV_DICT:
        for (uint32_t i = 0; i < JDICT(v)->n; i++)
            if (!safe_repr(JDICT(v)->e[i].k) || !safe_repr(JDICT(v)->e[i].v)) return false;
        return true;
    default: return false;
    }
}

// A constant expression with a slice in it (JNF_FOLD), as jinja2 compiles it: first evaluated as
// its optimizer does, and that value kept if it may be (a safe repr, or anything a {{ }} prints);
// else evaluated at render time, where each part gets the same chance.
static int eval_fold(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    r->folding = true;
    int rc = eval_inner(r, f, n, out);
    r->folding = false;
    if (!rc) {
        if ((n->flags & JNF_OUT_ROOT) || safe_repr(*out)) return 0;
        jv_decref(*out);
    } else {
        if (r->fatal) return -1;
        r->err = false; // the fold failed: jinja2 leaves the expression to render time
    }
    return eval_inner(r, f, n, out);
}

static int eval(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    int rc = (n->flags & JNF_FOLD) && !r->folding ? eval_fold(r, f, n, out) : eval_inner(r, f, n, out);
    if (rc) return locate(r, n);
    return 0;
}

// ---- statements ---------------------------------------------------------------------------------

static struct jv loop_new(struct jlist *items, int depth0, const struct jnode *forn, struct jframe *scope) {
    struct jloop *l = jx_alloc(sizeof *l);
    l->h.rc = 1;
    l->h.kind = JV_LOOP;
    l->items = items;
    l->depth0 = depth0;
    l->forn = forn;
    l->scope = scope;
    l->changed_last = jv_undef();
    return (struct jv){.k = JV_LOOP, .o = &l->h};
}

// One for statement over `iterable` (borrowed) in frame f; depth0 > 0 for a recursive call.
static int run_for(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv iterable, int depth0, struct jbuf *out) {
    struct jlist *all;
    if (jr_iterate(r, iterable, &all)) return -1;
    struct jv allv = {.k = JV_LIST, .o = &all->h};
    if (n->b) { // the loop filter: evaluated per item with the target bound
        struct jv kept = jv_list_new(JL_LIST, all->n);
        for (size_t i = 0; i < all->n; i++) {
            struct jframe *ff = frame_new(f);
            struct jv c;
            int rc = jr_step(r);
            if (!rc) rc = assign(r, ff, n->target, jv_incref(all->v[i]));
            if (!rc) rc = eval(r, ff, n->b, &c);
            frame_release(r, ff);
            if (rc) {
                jv_decref(kept);
                jv_decref(allv);
                return -1;
            }
            if (jv_truthy(c)) jlist_push(JLIST(kept), jv_incref(all->v[i]));
            jv_decref(c);
        }
        jv_decref(allv);
        allv = kept;
        all = JLIST(kept);
    }
    if (!all->n) {
        jv_decref(allv);
        if (depth0 > 0) return 0; // jinja2 runs else only for the outermost loop
        int rc = exec_body(r, f, n->els, n->nels, out);
        return rc < 0 ? -1 : rc;
    }
    if (n->flags & JNF_RECURSIVE) frame_pin(f);
    struct jv loopv = loop_new(all, depth0, n, f);
    struct jloop *loop = (struct jloop *)loopv.o;
    int rc = 0;
    for (size_t i = 0; i < all->n; i++) {
        if (jr_step(r)) {
            rc = -1;
            break;
        }
        loop->i = i;
        struct jframe *it = frame_new(f);
        frame_set(it, "loop", 4, jv_incref(loopv));
        rc = assign(r, it, n->target, jv_incref(all->v[i]));
        if (!rc) rc = exec_body(r, it, n->body, n->nbody, out);
        frame_release(r, it);
        if (rc == X_CONTINUE) rc = 0;
        if (rc) break;
    }
    jv_decref(loopv); // holds `all`
    if (rc == X_BREAK) rc = 0;
    return rc;
}

// A set block's, filter block's or macro's body rendered to a string in a frame of its own.
static int render_block(struct jrender *r, struct jframe *f, const struct jnode *n, struct jv *out) {
    struct jframe *in = frame_new(f);
    struct jbuf b = {.r = r};
    int rc = exec_body(r, in, n->body, n->nbody, &b);
    frame_release(r, in);
    if (rc) {
        jbuf_free(&b);
        return rc;
    }
    return jr_str_from_buf(r, &b, out);
}

static int apply_filter_chain(struct jrender *r, struct jframe *f, const struct jnode *chain, struct jv in, struct jv *out) {
    const struct jv *saved = tl_block_input;
    tl_block_input = &in;
    int rc = eval(r, f, chain, out);
    tl_block_input = saved;
    return rc;
}

static int exec_stmt(struct jrender *r, struct jframe *f, const struct jnode *n, struct jbuf *out) {
    switch (n->kind) {
    case JN_DATA: jbuf_put(out, n->s, n->slen); return out->fail ? -1 : 0;
    case JN_OUTPUT: {
        if (n->a) {
            struct jv v;
            if (eval(r, f, n->a, &v)) return -1;
            jv_str_to(out, v);
            jv_decref(v);
        }
        for (int i = 0; i < n->nkids; i++) {
            struct jv v;
            if (eval(r, f, n->kids[i], &v)) return -1;
            jv_str_to(out, v);
            jv_decref(v);
        }
        return out->fail ? -1 : 0;
    }
    case JN_IF: {
        struct jv c;
        if (eval(r, f, n->a, &c)) return -1;
        bool t = jv_truthy(c);
        jv_decref(c);
        return t ? exec_body(r, f, n->body, n->nbody, out) : exec_body(r, f, n->els, n->nels, out);
    }
    case JN_FOR: {
        struct jv it;
        if (eval(r, f, n->a, &it)) return -1;
        int rc = run_for(r, f, n, it, 0, out);
        jv_decref(it);
        return rc;
    }
    case JN_SET: {
        struct jv v;
        if (eval(r, f, n->a, &v)) return -1;
        return assign(r, f, n->target, v);
    }
    case JN_SETBLOCK: {
        struct jv v;
        int rc = render_block(r, f, n, &v);
        if (rc) return rc;
        if (n->b) {
            struct jv w;
            rc = apply_filter_chain(r, f, n->b, v, &w);
            jv_decref(v);
            if (rc) return -1;
            v = w;
        }
        return assign(r, f, n->target, v);
    }
    case JN_MACRO:
    case JN_CALLBLOCK: {
        struct jmacro *m = jx_alloc(sizeof *m);
        m->h.rc = 1;
        m->h.kind = JV_MACRO;
        m->def = n;
        m->scope = f;
        frame_pin(f);
        struct jv mv = {.k = JV_MACRO, .o = &m->h};
        if (n->kind == JN_MACRO) {
            frame_set(f, n->s, n->slen, mv);
            return 0;
        }
        struct jv res;
        int rc = eval_call(r, f, n->a, &mv, &res);
        jv_decref(mv);
        if (rc) return -1;
        jv_str_to(out, res);
        jv_decref(res);
        return 0;
    }
    case JN_FILTERBLOCK: {
        struct jv v, w;
        int rc = render_block(r, f, n, &v);
        if (rc) return rc;
        rc = apply_filter_chain(r, f, n->b, v, &w);
        jv_decref(v);
        if (rc) return -1;
        jv_str_to(out, w);
        jv_decref(w);
        return 0;
    }
    case JN_WITH: {
        struct jv *vals = jx_alloc((size_t)(n->args.npos + 1) * sizeof *vals);
        int rc = 0, k = 0;
        for (; k < n->args.npos && !rc; k++) rc = eval(r, f, n->args.pos[k], &vals[k]);
        if (rc) {
            jv_decref_n(vals, (size_t)k - 1);
            free(vals);
            return -1;
        }
        struct jframe *in = frame_new(f);
        for (int i = 0; i < n->nkids; i++) {
            if (!rc) rc = assign(r, in, n->kids[i], vals[i]);
            else jv_decref(vals[i]);
        }
        free(vals);
        if (!rc) rc = exec_body(r, in, n->body, n->nbody, out);
        frame_release(r, in);
        return rc;
    }
    case JN_SCOPE: {
        struct jframe *in = frame_new(f);
        int rc = exec_body(r, in, n->body, n->nbody, out);
        frame_release(r, in);
        return rc;
    }
    case JN_BREAK: return X_BREAK;
    case JN_CONTINUE: return X_CONTINUE;
    default: return jr_fail(r, "internal error: node %d is not a statement", n->kind);
    }
}

static int exec_body(struct jrender *r, struct jframe *f, struct jnode *const *body, int n, struct jbuf *out) {
    for (int i = 0; i < n; i++) {
        int rc = exec_stmt(r, f, body[i], out);
        if (rc < 0) {
            if (!r->err) jr_fail(r, "output too long");
            return locate(r, body[i]);
        }
        if (rc) return rc;
    }
    return 0;
}

// ---- the render ------------------------------------------------------------------------------------

static frink_status render(const struct jinja_tmpl *t, const json_t *vars, const struct jinja_opts *opts, char **out,
                           size_t *len);

frink_status jinja_render(const struct jinja_tmpl *t, const json_t *vars, const struct jinja_opts *opts, char **out, size_t *len) {
    *out = NULL;
    if (len) *len = 0;
    jmp_buf j;
    jmp_buf *prev = jx_oom_escape(&j);
    if (setjmp(j)) {
        jx_oom_escape(prev);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory rendering a template");
    }
    frink_status st = render(t, vars, opts, out, len);
    jx_oom_escape(prev);
    return st;
}

static frink_status render(const struct jinja_tmpl *t, const json_t *vars, const struct jinja_opts *opts, char **out,
                           size_t *len) {
    *out = NULL;
    if (len) *len = 0;
    if (!t) return frink_fail(FRINK_ERR_ARG, "jinja_render: no template");
    if (vars && !json_is_object(vars)) return frink_fail(FRINK_ERR_ARG, "jinja_render: the variables must be a JSON object");
    struct jrender r = {.t = t};
    r.max_steps = opts && opts->max_steps > 0 ? opts->max_steps : 10000000;
    r.max_bytes = ((int64_t)16 << 20) + r.max_steps * 64;
    r.now = opts && opts->now ? opts->now : time(NULL);
    struct jframe *top = frame_new(NULL);
    frame_pin(top);
    if (vars) {
        void *it = json_object_iter((json_t *)vars);
        while (it) {
            const char *k = json_object_iter_key(it);
            frame_set(top, k, json_object_iter_key_len(it), jv_from_json(json_object_iter_value(it)));
            it = json_object_iter_next((json_t *)vars, it);
        }
    }
    struct jbuf b = {.r = &r};
    int rc = exec_body(&r, top, t->body, t->nbody, &b);
    // Frees everything: frames first, then the namespaces (whose attributes may hold cycles).
    frame_destroy(top);
    struct jframe *p = r.pinned;
    while (p) {
        struct jframe *next = p->next_pinned;
        if (p != top) frame_destroy(p);
        p = next;
    }
    for (struct jns *ns = r.live_ns; ns; ns = ns->next_live) {
        struct jdict *d = ns->attrs;
        ns->attrs = NULL;
        jv_decref((struct jv){.k = JV_DICT, .o = &d->h});
    }
    for (struct jns *ns = r.live_ns, *next; ns; ns = next) {
        next = ns->next_live;
        jv_decref((struct jv){.k = JV_NS, .o = &ns->h});
    }
    if (rc < 0 || r.err) {
        jbuf_free(&b);
        return r.err ? r.err_st : frink_fail(FRINK_ERR_ARG, "render failed");
    }
    if (!b.p) b.p = jx_alloc(1);
    *out = b.p;
    if (len) *len = b.n;
    return FRINK_OK;
}
