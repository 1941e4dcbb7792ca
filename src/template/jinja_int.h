// jinja_int.h — what the jinja_*.c files share: values (Python's objects as jinja2 sees them),
// the syntax tree, the render context, and the entry points of each file.
//
//   jinja_lex.c      source → tokens (trim_blocks, lstrip_blocks, whitespace control, raw)
//   jinja_parse.c    tokens → syntax tree (jinja2's grammar and its parse-time refusals)
//   jinja_value.c    values: refcounts, strings, lists, dicts, str()/repr(), json.dumps, ==, <
//   jinja_eval.c     statements and expressions: scopes, loops, macros, attribute lookup, calls
//   jinja_ops.c      operators: arithmetic, "in", len(), escape()
//   jinja_filters.c  filters and tests
//   jinja_methods.c  str/list/dict methods, globals (range, dict, namespace, ...)
//   jinja_format.c   Python's "fmt" % args and str.format()
//   jinja.c          the public functions of jinja.h
#ifndef FRINK_JINJA_INT_H
#define FRINK_JINJA_INT_H

#include <stdbool.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "template/jinja.h"

// ---- values ---------------------------------------------------------------------------------
// A value is a small tagged struct passed by value; strings, containers and objects live on the
// heap with a reference count. Values are immutable once built (the sandbox refuses list.append
// and dict.update), except namespaces, whose attributes `{% set ns.x %}` changes: every cycle of
// references must pass through a namespace, and the render breaks them all at its end (see
// struct jns). Objects with rc < 0 are immortal: the constants of a parsed template, shared by
// threads rendering it at once, are never counted.

enum jv_kind {
    JV_UNDEF, // o: struct jundef (why it is undefined) or NULL
    JV_NONE,
    JV_BOOL,
    JV_INT,
    JV_FLOAT,
    JV_STR,   // o: struct jstr; `safe` marks markupsafe's Markup
    JV_LIST,  // o: struct jlist (list, tuple, dict view, range, iterator)
    JV_DICT,  // o: struct jdict
    JV_NS,    // o: struct jns
    JV_MACRO, // o: struct jmacro
    JV_LOOP,  // o: struct jloop (the `loop` of a for)
    JV_FUNC,  // o: struct jfunc (a global function or a bound method)
    JV_CYCLER,
    JV_JOINER,
};

struct jobj {
    int32_t rc; // < 0: immortal
    uint8_t kind;
};

struct jv {
    uint8_t k;    // enum jv_kind
    uint8_t safe; // JV_STR: a Markup string
    union {
        bool b;
        int64_t i;
        double f;
        struct jobj *o;
    };
};

// Why a value is undefined: the message an operation on it raises (jinja2's hint).
enum jundef_why {
    JU_NAME,     // "'x' is undefined"
    JU_ATTR,     // "'dict object' has no attribute 'x'"
    JU_ELEMENT,  // "'list object' has no element 3"
    JU_MSG,      // a message of its own ("No first item, sequence was empty.")
    JU_SECURITY, // an unsafe attribute: calling it raises SecurityError
};
struct jundef {
    struct jobj h;
    uint8_t why;
    char *msg; // the message operations on it raise, malloc'ed
};

struct jstr {
    struct jobj h;
    int8_t ascii; // -1 unknown, 0 no, 1 all bytes < 0x80
    size_t len;
    char s[];     // len bytes of UTF-8 and a NUL
};

enum jlist_sub {
    JL_LIST,
    JL_TUPLE,
    JL_ITEMS,  // dict_items
    JL_KEYS,   // dict_keys
    JL_VALUES, // dict_values
    JL_RANGE,  // range(start, stop, step), materialized
    JL_ITER,   // a Python iterator or generator: consumed once, truthy, no len(), no [i]
};
struct jlist {
    struct jobj h;
    uint8_t sub;
    size_t n, cap;
    struct jv *v;    // [n]
    size_t pos;      // JL_ITER: items before pos were consumed
    int64_t r0, r1, rstep; // JL_RANGE: what repr() prints
    const char *iter_name; // JL_ITER: "generator", "list_reverseiterator", ...
    char *pending;         // JL_ITER: the error consuming past the items raises (malloc'ed), or NULL
    uint8_t pending_st;
};

struct jdent {
    struct jv k, v;
    uint32_t hash;
};
struct jdict {
    struct jobj h;
    uint32_t n, cap;
    struct jdent *e; // [n] in insertion order
    uint32_t *idx;   // open addressing over e (index + 1, 0 empty), NULL while n is small
    uint32_t idx_cap;
};

// A namespace() object. The render holds one extra reference to each one it creates and at its
// end clears their attributes before dropping it, so that cycles through them are freed.
struct jns {
    struct jobj h;
    struct jdict *attrs;
    bool in_repr; // repr() is inside this namespace: a nested repr prints {...}
    struct jns *next_live;
};

struct jnode;
struct jframe;

struct jmacro {
    struct jobj h;
    const struct jnode *def; // JN_MACRO, or JN_CALLBLOCK for a caller
    struct jframe *scope;    // the frame it was defined in (kept alive to the render's end)
};

struct jloop {
    struct jobj h;
    struct jlist *items;       // everything iterated
    size_t i;                  // index0 of the current item
    int depth0;
    struct jv changed_last;    // loop.changed(): the last value seen (JV_UNDEF: none yet)
    const struct jnode *forn;  // recursive loops: the JN_FOR to run again for loop(x)
    struct jframe *scope;      // the frame the for runs in
};

struct jfunc {
    struct jobj h;
    int id;           // enum in jinja_methods.c: global function or method
    struct jv self;   // the bound receiver (JV_UNDEF for a global)
    const char *name; // for messages ("'str' object ...")
};

struct jcycler {
    struct jobj h;
    struct jlist *items;
    size_t pos;
};

struct jjoiner {
    struct jobj h;
    struct jv sep;
    bool used;
};

// ---- string builder ---------------------------------------------------------------------------
// Grows by doubling; every byte it reserves is charged to the render's byte budget, so a template
// cannot allocate without bound. Once a reservation fails, `fail` is set and puts do nothing: the
// producer checks it once at the end (jr_str_from_buf).
struct jrender;
struct jbuf {
    char *p;
    size_t n, cap;
    struct jrender *r; // NULL: no budget (parse time)
    bool fail;
};
void jbuf_put(struct jbuf *b, const char *s, size_t n);
void jbuf_puts(struct jbuf *b, const char *s);
void jbuf_putc(struct jbuf *b, char c);
void jbuf_printf(struct jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jbuf_put_cp(struct jbuf *b, uint32_t cp); // one code point as UTF-8
void jbuf_free(struct jbuf *b);

// ---- syntax tree ------------------------------------------------------------------------------
enum jn_kind {
    // expressions
    JN_CONST,   // v
    JN_NAME,    // s
    JN_LIST,    // kids
    JN_TUPLE,   // kids
    JN_DICT,    // kids: key, value, key, value, ...
    JN_GETATTR, // a . s
    JN_GETITEM, // a [ b ]
    JN_SLICE,   // a : b : c, each may be NULL (only as b of a JN_GETITEM)
    JN_CALL,    // a ( args )
    JN_FILTER,  // a | s ( args ); a NULL in a filter block or `set x | f`
    JN_TEST,    // a is s ( args )
    JN_NOT,     // not a
    JN_NEG,     // - a
    JN_POS,     // + a
    JN_BINOP,   // a op b (op: enum jop)
    JN_AND,     // a and b
    JN_OR,      // a or b
    JN_CONCAT,  // kids joined by ~
    JN_COMPARE, // a, then kids[i] compared with ops[i] (chained)
    JN_COND,    // b if a else c (c may be NULL)
    // statements
    JN_DATA,       // s: text to output
    JN_OUTPUT,     // {{ a }}
    JN_IF,         // a: test, body, els (elif as a nested JN_IF in els)
    JN_FOR,        // target, a: iterable, b: filter (may be NULL), body, els, flag recursive
    JN_SET,        // target = a
    JN_SETBLOCK,   // target, b: filter chain (a JN_FILTER whose innermost a is NULL) or NULL, body
    JN_MACRO,      // s: name, params/defaults, body
    JN_CALLBLOCK,  // a: the JN_CALL, params/defaults for caller, body
    JN_FILTERBLOCK,// b: filter chain, body
    JN_WITH,       // targets (kids) = values (args), body
    JN_SCOPE,      // body in a frame of its own ({% generation %})
    JN_BREAK,
    JN_CONTINUE,
};

enum jop { JOP_ADD, JOP_SUB, JOP_MUL, JOP_DIV, JOP_FLOORDIV, JOP_MOD, JOP_POW };
enum jcmp { JCMP_EQ, JCMP_NE, JCMP_LT, JCMP_LE, JCMP_GT, JCMP_GE, JCMP_IN, JCMP_NOTIN };

struct jkwarg {
    const char *name;
    struct jnode *value;
};

// The arguments of a call, filter or test.
struct jargs {
    struct jnode **pos;
    int npos;
    struct jkwarg *kw;
    int nkw;
    struct jnode *star;     // *args or NULL
    struct jnode *starstar; // **kwargs or NULL
};

struct jnode {
    uint8_t kind;
    uint8_t op;        // JN_BINOP: enum jop
    uint8_t flags;     // JN_FOR: recursive; JN_MACRO: JNF_* below
    uint32_t pos;      // byte offset in the (normalized) source: line and column for messages
    const char *s;     // names, text, filter/test names (NUL-terminated, in the arena)
    size_t slen;
    struct jv v;       // JN_CONST (immortal)
    struct jnode *a, *b, *c, *target;
    struct jnode **kids; // list items, compare operands, with targets
    int nkids;
    uint8_t *ops;        // JN_COMPARE: enum jcmp per kid
    struct jargs args;   // JN_CALL, JN_FILTER, JN_TEST; JN_WITH: values in args.pos
    struct jnode **body, **els;
    int nbody, nels;
    // JN_MACRO / JN_CALLBLOCK
    const char **params;
    int nparams;
    struct jnode **defaults; // [nparams], NULL where the parameter has none
    const void *fn;          // JN_FILTER / JN_TEST: the builtin (struct jfilter_def / jtest_def)
};

enum {
    JNF_RECURSIVE = 1,  // JN_FOR
    JNF_VARARGS = 1,    // JN_MACRO: the body reads `varargs`
    JNF_KWARGS = 2,     // JN_MACRO: the body reads `kwargs`
    JNF_CALLER = 4,     // JN_MACRO: the body reads `caller`
    JNF_FOLD = 16,     // an expression of constants with a slice in it: jinja2 may fold it (jinja_parse.c)
    JNF_OUT_ROOT = 32, // ... and it is what a {{ }} prints, which jinja2 folds whatever the value
    JNF_NEGPOW = 64,   // JN_BINOP **: constant left, variable right (see jinja_parse.c)
};

struct jarena_blk;
struct jinja_tmpl {
    char *src;   // the normalized source (one trailing newline dropped, \r\n → \n)
    size_t len;
    struct jnode **body;
    int nbody;
    struct jarena_blk *arena;
};

void *jarena_alloc(struct jinja_tmpl *t, size_t n); // zeroed, aligned; aborts on no memory
void jarena_free(struct jinja_tmpl *t);

// Line and column (1-based) of byte offset `pos` of the template source.
void jinja_linecol(const struct jinja_tmpl *t, uint32_t pos, int *line, int *col);

// ---- tokens (jinja_lex.c) -----------------------------------------------------------------------
enum jtok_kind {
    JT_EOF,
    JT_DATA,       // text (s, n)
    JT_VAR_BEGIN,  // {{
    JT_VAR_END,    // }}
    JT_BLOCK_BEGIN,// {%
    JT_BLOCK_END,  // %}
    JT_NAME,
    JT_STRING,     // decoded value in s, n
    JT_INT,        // i
    JT_FLOAT,      // f
    JT_OP,         // s: the operator text
    JT_ERROR,      // s: the message (the lexer stops here)
};
struct jtok {
    uint8_t kind;
    uint32_t pos;
    const char *s; // in the arena, NUL-terminated
    size_t n;
    int64_t i;
    double f;
};
// Tokenizes t->src into an arena array ending with JT_EOF or JT_ERROR.
struct jtok *jinja_lex(struct jinja_tmpl *t, size_t *ntok);

// ---- parser (jinja_parse.c) ---------------------------------------------------------------------
frink_status jinja_parse_tokens(struct jinja_tmpl *t, const struct jtok *tok, size_t ntok);

// ---- builtin tables (jinja_filters.c) -------------------------------------------------------
struct jargv; // evaluated arguments
typedef int (*jfilter_fn)(struct jrender *r, struct jv *in, struct jargv *a, struct jv *out);
typedef int (*jtest_fn)(struct jrender *r, struct jv *in, struct jargv *a, bool *out);
struct jfilter_def {
    const char *name;
    jfilter_fn fn; // NULL: a jinja2 filter frink refuses
};
struct jtest_def {
    const char *name;
    jtest_fn fn;
};
const struct jfilter_def *jinja_filter_find(const char *name);
const struct jtest_def *jinja_test_find(const char *name);
// The filters jinja2 gives the render context (pass_context): never folded at compile time.
bool jinja_filter_takes_context(const char *name);

// ---- render context (jinja_eval.c) ------------------------------------------------------------
struct jframe_var {
    const char *name;
    size_t nlen;
    struct jv v;
};
struct jframe {
    struct jframe *parent;
    struct jframe_var *vars;
    int n, cap;
    bool pinned;              // a macro or recursive loop refers to it: freed at the render's end
    struct jframe *next_pinned;
};

struct jrender {
    const struct jinja_tmpl *t;
    int64_t steps, max_steps;
    int64_t bytes, max_bytes;  // bytes reserved by builders so far, and the budget
    int depth;                 // macro calls and recursive loops in progress
    time_t now;
    bool err;                  // an error is set (frink's message)
    bool err_located;          // it already names its line and column
    bool fatal;                // a budget ran out: no filter may defer the error
    bool folding;              // evaluating as jinja2's compile-time constant folding does
    frink_status err_st;
    struct jns *live_ns;
    struct jframe *pinned;
};

// Evaluated call arguments: positional and keyword values (borrowed references).
struct jargv {
    struct jv *pos;
    int npos;
    const char **kwn;
    struct jv *kwv;
    int nkw;
};

// Sets the render's error (printf-style) and returns -1. The message is located later, at the
// innermost node being evaluated, unless it already says where.
int jr_fail(struct jrender *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int jr_fail_st(struct jrender *r, frink_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int jr_step(struct jrender *r); // one unit of the evaluation budget; -1 past it
bool jr_reserve(struct jrender *r, size_t bytes); // false (error set) past the byte budget

// Binds evaluated arguments to the parameter names of a builtin (`fname` for messages):
// slots[i] is the value of params[i], JV_UNDEF with o NULL where not given (borrowed).
// Fails on an unknown keyword, a parameter given twice or too many positional arguments.
int jr_bind(struct jrender *r, const char *fname, struct jargv *a, const char *const *params, int nparams,
            struct jv *slots);

// Calls a callable value (macro, function, cycler.next, ...) with evaluated arguments.
int jr_call(struct jrender *r, struct jv *fn, struct jargv *a, struct jv *out);
// jinja2's sandboxed getattr (attribute first, then item) and getitem (item first, then
// attribute). *out is a new reference (an undefined value when neither exists).
int jr_getattr(struct jrender *r, struct jv *obj, const char *name, size_t nlen, struct jv *out);
int jr_getitem(struct jrender *r, struct jv *obj, struct jv *key, struct jv *out);
// Applies a filter or test by name to a value (map(), select(), ...).
int jr_filter_by_name(struct jrender *r, const char *name, struct jv *in, struct jargv *a, struct jv *out);
int jr_test_by_name(struct jrender *r, const char *name, struct jv *in, struct jargv *a, bool *out);

// ---- values (jinja_value.c) ---------------------------------------------------------------------
// Sets the thread's out-of-memory escape (NULL: none) and returns the previous one.
jmp_buf *jx_oom_escape(jmp_buf *j);
void *jx_alloc(size_t n);           // zeroed; aborts on no memory
void *jx_realloc(void *p, size_t n);
char *jx_strndup(const char *s, size_t n);

static inline struct jv jv_none(void) { return (struct jv){.k = JV_NONE}; }
static inline struct jv jv_bool(bool b) { return (struct jv){.k = JV_BOOL, .b = b}; }
static inline struct jv jv_int(int64_t i) { return (struct jv){.k = JV_INT, .i = i}; }
static inline struct jv jv_float(double f) { return (struct jv){.k = JV_FLOAT, .f = f}; }
static inline struct jv jv_undef(void) { return (struct jv){.k = JV_UNDEF}; }
static inline struct jstr *JSTR(struct jv v) { return (struct jstr *)v.o; }
static inline struct jlist *JLIST(struct jv v) { return (struct jlist *)v.o; }
static inline struct jdict *JDICT(struct jv v) { return (struct jdict *)v.o; }
static inline bool jv_heap(struct jv v) { return v.k >= JV_STR || (v.k == JV_UNDEF && v.o); }

struct jv jv_incref(struct jv v); // returns v
void jv_decref(struct jv v);
void jv_decref_n(struct jv *v, size_t n);

struct jv jv_undef_msg(uint8_t why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct jv jv_undef_name(const char *name, size_t n);
struct jv jv_undef_attr(struct jv obj, const char *name, size_t n);
struct jv jv_undef_item(struct jv obj, struct jv key);
const char *jv_undef_text(struct jv v); // the message an operation on it raises

struct jv jv_str(const char *s, size_t n); // copies
struct jv jv_cstr(const char *s);
struct jv jv_str_take(struct jbuf *b); // the builder's bytes as a string (b is reset)
int jr_str_from_buf(struct jrender *r, struct jbuf *b, struct jv *out); // -1 if b failed
bool jstr_is_ascii(struct jstr *s);
size_t jstr_ncp(struct jstr *s); // code points

struct jv jv_list_new(uint8_t sub, size_t cap);
void jlist_push(struct jlist *l, struct jv v); // takes the reference
struct jv jv_tuple2(struct jv a, struct jv b); // takes both references

struct jv jv_dict_new(void);
// Looks key up (Python ==, hash); NULL when absent. Unhashable keys never match.
struct jv *jdict_get(struct jdict *d, struct jv key);
struct jv *jdict_get_str(struct jdict *d, const char *s, size_t n);
// Inserts or replaces (keeping the first position, as Python does); takes both references.
void jdict_set(struct jdict *d, struct jv key, struct jv v);
bool jv_hashable(struct jv v);

struct jv jv_ns_new(struct jrender *r);

// Converts a JSON value (jansson) to a value. Integers past int64 are refused by jansson itself.
struct jv jv_from_json(const json_t *j);

bool jv_truthy(struct jv v);
const char *jv_type_name(struct jv v); // Python's type name: 'int', 'str', 'dict', 'NoneType', ...
// Python str(v) and repr(v) appended to b.
void jv_str_to(struct jbuf *b, struct jv v);
void jv_repr_to(struct jbuf *b, struct jv v);
int jr_to_str(struct jrender *r, struct jv v, struct jv *out); // str(v) as a new string value

// Python == (numbers across int/float/bool, containers element-wise).
bool jv_eq(struct jv a, struct jv b);
// Python <, <=, >, >= : *res; -1 (error set) when the types do not order.
int jr_compare(struct jrender *r, int cmp, struct jv a, struct jv b, bool *res);

// transformers' tojson: json.dumps(x, ensure_ascii, indent, separators, sort_keys).
struct jdump_opts {
    bool ensure_ascii, sort_keys;
    const char *indent; // NULL: no newlines; else the unit of indentation
    size_t indent_len;
    const char *item_sep, *key_sep;
    size_t item_sep_len, key_sep_len;
};
int jr_json_dump(struct jrender *r, struct jbuf *b, struct jv v, const struct jdump_opts *o, int depth);

// Python float repr ("1.0", "1e-05", "inf") into buf (at least 32 bytes).
void jfloat_repr(double f, char *buf);
void jpy_str_repr_to(struct jbuf *b, const char *s, size_t n);

// ---- unicode helpers (jinja_value.c) --------------------------------------------------------
// Decodes one code point of s[0..n) (n > 0); *adv bytes consumed (invalid bytes decode as
// themselves, one at a time, so that every byte string is handled).
uint32_t ju_decode(const char *s, size_t n, size_t *adv);
bool ju_isspace(uint32_t cp); // Python str.isspace
// Byte offset of code point `cp` in s (cp ≤ number of code points).
size_t ju_cp_offset(const char *s, size_t n, size_t cp);
size_t ju_ncp(const char *s, size_t n);

// ---- iteration (jinja_eval.c) ---------------------------------------------------------------
// The items iterating `v` yields in a for loop, as a new list (strings give characters, dicts
// keys, iterators what is left of them, consuming them). -1 with the error set for a value that
// is not iterable.
int jr_iterate(struct jrender *r, struct jv v, struct jlist **out);
// Raises an iterator's pending error (see struct jlist) once it is consumed to its end.
int jr_iter_exhausted(struct jrender *r, struct jlist *it);

// ---- methods and globals (jinja_methods.c), formatting (jinja_format.c) ----------------------------
// The attribute `name` of a str, list, dict, loop, cycler: a bound method or a value (*out).
// Returns 1 found, 0 not an attribute of that type, 2 an attribute the sandbox refuses (unsafe),
// -1 on error.
int jr_builtin_attr(struct jrender *r, struct jv obj, const char *name, size_t nlen, struct jv *out);
int jr_call_func(struct jrender *r, struct jfunc *f, struct jargv *a, struct jv *out);
// The global functions (range, dict, namespace, ...): 1 found, 0 not.
int jr_global(struct jrender *r, const char *name, size_t nlen, struct jv *out);
// Python's "fmt % args" and str.format(*args, **kwargs).
int jr_percent_format(struct jrender *r, struct jv fmt, struct jv args, struct jv *out);
int jr_str_format(struct jrender *r, struct jstr *fmt, struct jargv *a, struct jv *out);
// Python str.split/strip/lower/upper/... shared with the filters.
int jr_str_lower(struct jrender *r, const char *s, size_t n, struct jbuf *b);
void ju_title_cp(struct jbuf *b, uint32_t cp);  // titlecase of one code point (may be several)
void ju_upper_cp(struct jbuf *b, uint32_t cp);
void ju_lower_cp(struct jbuf *b, uint32_t cp, const char *s, size_t n, size_t at);
int jr_str_strip(struct jrender *r, struct jv s, struct jv chars, int which, struct jv *out); // 1 l, 2 r, 3 both
struct jv jr_splitlines(const char *s, size_t n, bool keepends);

// ---- operators (jinja_ops.c) ------------------------------------------------------------------
int jr_binop(struct jrender *r, int op, struct jv a, struct jv b, struct jv *out);
int jr_contains(struct jrender *r, struct jv container, struct jv item, bool *res);
int jr_len(struct jrender *r, struct jv v, int64_t *n);
int jr_escape(struct jrender *r, struct jv v, struct jv *out); // markupsafe.escape
int jr_undefined_error(struct jrender *r, struct jv v);        // raises what v's hint says

#define JINJA_MAX_DEPTH 200      // macro calls and recursive loops nested at once
#define JINJA_MAX_NEST 100       // syntax nesting (brackets, statements)
#define JINJA_MAX_RANGE 100000   // the sandbox's MAX_RANGE

#endif
