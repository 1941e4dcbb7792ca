// chatparse_xml.c — the markup machines of the formats that write a call as an XML element with
// its name in an attribute: one element per parameter (below), or MiniMax-M3's arguments as XML
// all the way down (at the end of the file).
//
//   MiniMax-M2     <minimax:tool_call>\n<invoke name="NAME">\n<parameter name="P">VALUE</parameter>\n
//                  </invoke>\n</minimax:tool_call>
//   DeepSeek V3.2  <｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="P"
//                  string="true|false">VALUE</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>
//   DeepSeek V4    the same inside <｜DSML｜tool_calls>…</｜DSML｜tool_calls>
//
// One section holds any number of invokes. Values as the templates write them: MiniMax-M2 writes
// a string raw and anything else as JSON, so a value is JSON when it parses as JSON, else a
// string (as for Qwen3-Coder, whose machine is in chatparse_fmt.c); DSML says which with its
// string attribute, so string="true" is always a string ("12" stays "12"), string="false" is
// read as JSON (a string when it does not parse), no attribute as MiniMax's.
#include <stdint.h>
#include <string.h>

#include "chat/chatparse_impl.h"

// The tags of one family; the section's closing tag is the format table's (cp_fmt_close).
struct iv_tags {
    const char *invoke;     // up to the name's opening quote
    const char *param;      // likewise for a parameter's name
    const char *param_end;  // after a value
    const char *invoke_end; // after the last parameter
};

static const struct iv_tags iv_minimax = {"<invoke name=\"", "<parameter name=\"", "</parameter>", "</invoke>"};
static const struct iv_tags iv_dsml = {"<｜DSML｜invoke name=\"", "<｜DSML｜parameter name=\"", "</｜DSML｜parameter>",
                                       "</｜DSML｜invoke>"};

// The first states of every invoke machine (invoke_open), then each machine's own.
enum { OPEN_START, OPEN_SECTION, OPEN_NAME, OPEN_NAME_GT, OPEN_END };
enum { IV_BODY = OPEN_END, IV_KEY, IV_ATTR, IV_VALUE };

static int fail(struct chatparse *p, const char *why) {
    cp_call_fail(p, why);
    return 1;
}

// Whether the input starts with a or with b (R_OK, *which 0 / 1, consumed), may still (R_MORE)
// or does not (R_NO). a is tried first and waited for: b may be a prefix of it.
static int lit2(struct chatparse *p, const char *a, const char *b, int *which) {
    int ra = cp_lit(p, a);
    if (ra == R_OK) return *which = 0, R_OK;
    if (ra == R_MORE) return R_MORE;
    int rb = cp_lit(p, b);
    if (rb == R_OK) return *which = 1, R_OK;
    return ra == R_MORE || rb == R_MORE ? R_MORE : R_NO;
}

// The attributes after a parameter's name (p->tmp, up to '>'): 1 string="true", 0
// string="false" or none, -1 anything else.
static int iv_string_attr(const struct chatparse *p) {
    const char *s = p->tmp.p;
    size_t n = p->tmp.n;
    while (n && cp_is_ws((unsigned char)*s)) s++, n--;
    while (n && cp_is_ws((unsigned char)s[n - 1])) n--;
    if (!n) return 0;
    if (n == 13 && !memcmp(s, "string=\"true\"", 13)) return 1;
    if (n == 14 && !memcmp(s, "string=\"false\"", 14)) return 0;
    return -1;
}

// The steps both machines open a call with (states OPEN_*): the section begins; then an invoke's
// tag up to its name's opening quote, or the section's end (back to text); the name; its '>'.
// Returns as a machine step does; *opened once the '>' is read (the caller sets p->sub then).
static int invoke_open(struct chatparse *p, const char *invoke, const char *close, bool *opened) {
    static const char *const quote[] = {"\"", NULL};
    int r, which = 0;
    *opened = false;
    switch (p->sub) {
    case OPEN_START:
        p->section = true;
        p->sub = OPEN_SECTION;
        return 1;
    case OPEN_SECTION:
        if (!cp_ws(p)) return 0;
        r = lit2(p, invoke, close, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) {
            cp_markup_fail(p, "expected an invoke or the end of the calls");
            return 1;
        }
        if (which == 1) {
            cp_to_text(p, TK_CONTENT);
            return 1;
        }
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->sub = OPEN_NAME;
        return 1;
    case OPEN_NAME:
        r = cp_until(p, quote, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !cp_call_set_name(p, p->tmp.p, p->tmp.n)) return fail(p, "bad invoke name");
        p->sub = OPEN_NAME_GT;
        return 1;
    default: // OPEN_NAME_GT
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, ">");
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected '>' after the invoke name");
        *opened = true;
        return 1;
    }
}

int cp_fmt_invoke(struct chatparse *p) {
    static const char *const quote[] = {"\"", NULL}, *const gt[] = {">", NULL};
    const struct iv_tags *t = p->f == CHAT_FORMAT_MINIMAX_M2 ? &iv_minimax : &iv_dsml;
    const char *vend[] = {t->param_end, NULL};
    int r, which = 0, attr;
    switch (p->sub) {
    case OPEN_START:
    case OPEN_SECTION:
    case OPEN_NAME:
    case OPEN_NAME_GT: {
        bool opened;
        r = invoke_open(p, t->invoke, cp_fmt_close(p), &opened);
        if (opened) {
            cp_call_args_puts(p, "{");
            p->sub = IV_BODY;
        }
        return r;
    }
    case IV_BODY:
        if (!cp_ws(p)) return 0;
        r = lit2(p, t->param, t->invoke_end, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected a parameter or the end of the invoke");
        if (which == 1) {
            cp_call_args_puts(p, "}");
            if (cp_call_end(p)) p->sub = OPEN_SECTION;
            return 1;
        }
        cp_sb_clear(&p->tmp);
        p->sub = IV_KEY;
        return 1;
    case IV_KEY:
        r = cp_until(p, quote, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !p->tmp.n) return fail(p, "bad parameter name");
        cp_xparam_key(p, p->tmp.p, p->tmp.n);
        cp_sb_clear(&p->tmp);
        p->sub = IV_ATTR;
        return 1;
    case IV_ATTR:
        r = cp_until(p, gt, &p->tmp, 64, &which);
        if (r == R_MORE) return 0;
        attr = r == R_NO ? -1 : iv_string_attr(p);
        if (attr < 0) return fail(p, "bad parameter attributes");
        if (attr)
            cp_xval_init_string(p);
        else
            cp_xval_init(p);
        p->sub = IV_VALUE;
        return 1;
    case IV_VALUE:
        if (!cp_xval_read(p, vend, false)) return 0;
        p->sub = IV_BODY;
        return 1;
    }
    return fail(p, "internal state");
}

// ---- MiniMax-M3 ------------------------------------------------------------------------------
// Every tag carries the namespace token NS = "]<]minimax[>[", and arguments are XML all the way
// down (the template's to_xml):
//   NS<tool_call>\nNS<invoke name="NAME">NS<P>VALUE NS</P>…NS</invoke>\n…NS</tool_call>
// VALUE is raw text (a string raw, numbers as written, booleans as JSON: read as JSON when it
// parses as JSON, else a string), an object as child elements NS<K>…NS</K>, or an array as
// NS<item>…NS</item> elements. The template leaves out null members, and an empty object or
// array writes nothing, which reads back as "" (known ambiguities of the format, as is an object
// whose first key is "item", read as an array).

#define M3_NS "]<]minimax[>["

enum { M3_MEMBER = OPEN_END, M3_OPEN, M3_VSTART, M3_SCALAR, M3_CLOSE };

// Opens an element: its name (in p->m3names from name_off), and what its value is ('?' until
// known, then 'o', 'a' or 's'); false when too deep.
static bool m3_push(struct chatparse *p, const char *name, size_t n) {
    if (p->m3.depth == (int)(sizeof p->m3.type)) return false;
    int d = p->m3.depth++;
    p->m3.type[d] = '?';
    p->m3.first[d] = true;
    p->m3.name_off[d] = p->m3names.n;
    cp_sb_put(p, &p->m3names, name, n);
    cp_sb_put(p, &p->m3names, "", 1); // names are NUL-separated
    return true;
}

// Whether the input starts with lit (R_OK, nothing consumed), may (R_MORE) or does not (R_NO).
static int peek(const struct chatparse *p, const char *lit) {
    size_t l = strlen(lit), a = cp_avail(p);
    if (memcmp(cp_at(p), lit, a < l ? a : l)) return R_NO;
    return a >= l ? R_OK : R_MORE;
}

static void m3_pop(struct chatparse *p) {
    p->m3names.n = p->m3.name_off[--p->m3.depth];
    p->m3names.p[p->m3names.n] = 0;
}

int cp_fmt_minimax_m3(struct chatparse *p) {
    static const char *const gt[] = {">", NULL}, *const vend[] = {M3_NS "</", NULL};
    int r, ri, rc, ro, which = 0, d = p->m3.depth - 1;
    switch (p->sub) {
    case OPEN_START:
    case OPEN_SECTION:
    case OPEN_NAME:
    case OPEN_NAME_GT: {
        bool opened;
        r = invoke_open(p, M3_NS "<invoke name=\"", M3_NS "</tool_call>", &opened);
        if (!opened) return r;
        p->m3.depth = 0;
        cp_sb_clear(&p->m3names);
        m3_push(p, "invoke", 6);
        p->m3.type[0] = 'o';
        cp_call_args_puts(p, "{");
        p->sub = M3_MEMBER;
        return 1;
    }
    case M3_MEMBER: // inside an object or array: a child element, or the container's end
        if (!cp_ws(p)) return 0;
        r = lit2(p, M3_NS "</", M3_NS "<", &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected an element or the end of one");
        cp_sb_clear(&p->tmp);
        p->sub = which == 0 ? M3_CLOSE : M3_OPEN;
        return 1;
    case M3_OPEN:
        r = cp_until(p, gt, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !p->tmp.n || strpbrk(p->tmp.p, "<>/\" \t\r\n")) return fail(p, "bad element name");
        if (p->m3.type[d] == 'a' && strcmp(p->tmp.p, "item")) return fail(p, "an array element that is not <item>");
        if (!p->m3.first[d]) cp_call_args_puts(p, ", ");
        p->m3.first[d] = false;
        if (p->m3.type[d] == 'o') {
            cp_sb_clear(&p->out);
            cp_json_put_string(p, &p->out, p->tmp.p, p->tmp.n);
            cp_sb_put(p, &p->out, ": ", 2);
            cp_call_args_put(p, p->out.p, p->out.n);
        }
        if (!m3_push(p, p->tmp.p, p->tmp.n)) return fail(p, "arguments nested too deep");
        p->sub = M3_VSTART;
        return 1;
    case M3_VSTART: // what the element holds: children (an object or an array), or text
        ri = peek(p, M3_NS "<item>"), rc = peek(p, M3_NS "</"), ro = peek(p, M3_NS "<");
        if (ri == R_OK || (ro == R_OK && rc == R_NO && ri == R_NO)) {
            p->m3.type[d] = ri == R_OK ? 'a' : 'o';
            cp_call_args_puts(p, ri == R_OK ? "[" : "{");
            p->sub = M3_MEMBER;
            return 1;
        }
        if (rc != R_OK && (ri == R_MORE || rc == R_MORE || ro == R_MORE)) return 0;
        p->m3.type[d] = 's'; // text, maybe empty
        cp_xval_init(p);
        p->sub = M3_SCALAR;
        return 1;
    case M3_SCALAR:
        if (!cp_xval_read(p, vend, false)) return 0;
        cp_sb_clear(&p->tmp);
        p->sub = M3_CLOSE;
        return 1;
    case M3_CLOSE: // after NS</: the name of the element being closed, then '>'
        r = cp_until(p, gt, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || strcmp(p->tmp.p, p->m3names.p + p->m3.name_off[d])) return fail(p, "a closing tag that does not match");
        if (p->m3.type[d] == 'o') cp_call_args_puts(p, "}");
        if (p->m3.type[d] == 'a') cp_call_args_puts(p, "]");
        m3_pop(p);
        if (p->m3.depth) {
            p->sub = M3_MEMBER;
            return 1;
        }
        if (cp_call_end(p)) p->sub = OPEN_SECTION;
        return 1;
    }
    return fail(p, "internal state");
}
