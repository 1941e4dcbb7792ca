// chatparse_fmt.c — the markup machines: one per family, each reading its tool-call markup
// after the trigger that started it (p->opener says which), from its own templates' way of
// rendering an assistant's calls.
//
// A machine is a switch on p->sub. A state either sets things up and moves on (returns 1) or
// reads input; when the input runs out it returns 0 and is entered again, in the same state,
// once more arrives — so a reading state may only consume (never reset what it has read).
// Calls are complete (cp_call_end, TOOL_END) as soon as their payload is; closing tags after that
// are checked but cannot void the call.
#include <stdint.h>
#include <string.h>

#include "chat/chatparse_impl.h"

static void trim(const char **s, size_t *n) {
    while (*n && cp_is_ws((unsigned char)**s)) (*s)++, (*n)--;
    while (*n && cp_is_ws((unsigned char)(*s)[*n - 1])) (*n)--;
}

// p->tmp, trimmed, as the call's name.
static bool name_from_tmp(struct chatparse *p) {
    const char *s = p->tmp.p;
    size_t n = p->tmp.n;
    trim(&s, &n);
    return cp_call_set_name(p, s, n);
}

static int fail(struct chatparse *p, const char *why) {
    cp_call_fail(p, why);
    return 1;
}

// A state's successor that is not a state: back to text (content).
enum { TO_TEXT = -1 };

static void go(struct chatparse *p, int next) {
    if (next == TO_TEXT)
        cp_to_text(p, TK_CONTENT);
    else
        p->sub = next;
}

// The reading state of a call's JSON arguments (cp_args_step): once they are complete the call
// ends and the machine goes on to `next`.
static int args_then(struct chatparse *p, int next) {
    const char *why;
    int r = cp_args_step(p, &why);
    if (r <= 0) return r ? fail(p, why) : 0;
    if (cp_call_end(p)) go(p, next);
    return 1;
}

// The same for a whole call object {"name": …, "arguments": …} (cp_jobj_step).
static int jobj_then(struct chatparse *p, int next) {
    const char *why;
    int r = cp_jobj_step(p, &why);
    if (r <= 0) return r ? fail(p, why) : 0;
    if (cp_call_end(p)) go(p, next);
    return 1;
}

// After a call: whitespace, the tag lit, then `next`; anything else is junk after the call.
static int after_call(struct chatparse *p, const char *lit, int next) {
    if (!cp_ws(p)) return 0;
    int r = cp_lit(p, lit);
    if (r == R_MORE) return 0;
    if (r == R_NO)
        cp_post_junk(p);
    else
        go(p, next);
    return 1;
}

// Between the calls of a section: the next call's tag (then call_state), or the section's end
// (then text).
static int between_calls(struct chatparse *p, const char *call_begin, const char *section_end, int call_state) {
    if (!cp_ws(p)) return 0;
    int r = cp_lit(p, call_begin);
    if (r == R_OK) {
        p->sub = call_state;
        return 1;
    }
    int r2 = cp_lit(p, section_end);
    if (r2 == R_OK) {
        cp_to_text(p, TK_CONTENT);
        return 1;
    }
    if (r == R_MORE || r2 == R_MORE) return 0;
    cp_markup_fail(p, "unexpected text between calls");
    return 1;
}

// Whitespace, then the closing tag lit; then text. optional: a missing tag is fine.
static int close_tag(struct chatparse *p, const char *lit, bool optional) {
    if (!cp_ws(p)) return 0;
    int r = cp_lit(p, lit);
    if (r == R_MORE) return 0;
    if (r == R_OK || optional)
        cp_to_text(p, TK_CONTENT);
    else
        cp_post_junk(p);
    return 1;
}

// Whether the input starts with lit (R_OK, nothing consumed), may (R_MORE) or does not (R_NO).
static int peek_lit(const struct chatparse *p, const char *lit) {
    size_t l = strlen(lit), a = cp_avail(p);
    if (memcmp(cp_at(p), lit, a < l ? a : l)) return R_NO;
    return a >= l ? R_OK : R_MORE;
}

// ---- JSON arrays of call objects: Mistral Nemo, Granite 3, Command R7B, Apriel ---------------
// (MiniMax-M1 writes the objects one per line instead, without the brackets.)

enum { JA_OPEN = 100, JA_ELEM, JA_OBJ, JA_SEP, JA_CLOSE };

static int array_step(struct chatparse *p) {
    switch (p->sub) {
    case JA_OPEN:
        if (!cp_ws(p)) return 0;
        p->lines = *cp_at(p) == '{' && cp_fmt_close(p);
        if (*cp_at(p) != '[' && !p->lines) {
            cp_markup_fail(p, "expected a JSON array of calls");
            return 1;
        }
        if (!p->lines) cp_take(p, 1, NULL);
        p->sub = JA_ELEM;
        return 1;
    case JA_ELEM:
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == ']' && !p->lines) {
            cp_take(p, 1, NULL);
            p->sub = JA_CLOSE;
            return 1;
        }
        if (*cp_at(p) != '{') {
            cp_markup_fail(p, "expected a call object");
            return 1;
        }
        cp_call_begin(p);
        cp_jobj_init(p, cp_fmt_keys(p), false, false);
        p->sub = JA_OBJ;
        return 1;
    case JA_OBJ: return jobj_then(p, JA_SEP);
    case JA_SEP:
        if (!cp_ws(p)) return 0;
        if (p->lines) {
            p->sub = *cp_at(p) == '{' ? JA_ELEM : JA_CLOSE;
        } else if (*cp_at(p) == ',' || *cp_at(p) == ']') {
            p->sub = *cp_at(p) == ',' ? JA_ELEM : JA_CLOSE;
            cp_take(p, 1, NULL);
        } else {
            cp_post_junk(p);
        }
        return 1;
    case JA_CLOSE:
        if (!cp_fmt_close(p)) {
            cp_to_text(p, TK_CONTENT);
            return 1;
        }
        return close_tag(p, cp_fmt_close(p), !p->lines);
    }
    return fail(p, "internal state");
}

// Granite 3 (<|tool_call|>[…]), Command R7B (<|START_ACTION|>[…]<|END_ACTION|>), Apriel
// (<tool_calls>[…]</tool_calls>) and MiniMax-M1 (<tool_calls>\n{…}\n{…}\n</tool_calls>).
int cp_fmt_json_array(struct chatparse *p) {
    if (p->sub == 0) p->sub = JA_OPEN;
    return array_step(p);
}

// ---- Hermes, Qwen2.5, Qwen3: <tool_call>\n{"name": …, "arguments": {…}}\n</tool_call> ------

enum { HE_START, HE_OBJ, HE_CLOSE };

int cp_fmt_hermes(struct chatparse *p) {
    switch (p->sub) {
    case HE_START:
        cp_call_begin(p);
        cp_jobj_init(p, cp_fmt_keys(p), false, false);
        p->sub = HE_OBJ;
        return 1;
    case HE_OBJ: return jobj_then(p, HE_CLOSE);
    case HE_CLOSE:
        return close_tag(p, "</tool_call>", false);
    }
    return fail(p, "internal state");
}

// ---- Qwen3-Coder, Qwen3.5, Seed-OSS -----------------------------------------------------------
//   <tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n</function>\n</tool_call>
// The newlines the template puts around a value are not the value's. A call may also come
// without the outer <tool_call> (opener 1: <function= itself). Seed-OSS writes the same inside
// <seed:tool_call> (the table's close tag), its values without the newlines.

enum { QX_START, QX_FUNC, QX_NAME, QX_BODY, QX_KEY, QX_NL, QX_VALUE, QX_CLOSE };

int cp_fmt_qwen_xml(struct chatparse *p) {
    static const char *const gt[] = {">", "\n", "<", NULL};
    static const char *const vend[] = {"\n</parameter>", "</parameter>", NULL};
    int r, r2, which = 0;
    switch (p->sub) {
    case QX_START:
        cp_call_begin(p);
        p->section = p->opener == 0; // inside <tool_call>
        cp_sb_clear(&p->tmp);
        p->sub = p->section ? QX_FUNC : QX_NAME;
        return 1;
    case QX_FUNC:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "<function=");
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected <function=NAME>");
        p->sub = QX_NAME;
        return 1;
    case QX_NAME:
        r = cp_until(p, gt, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || which != 0 || !name_from_tmp(p)) return fail(p, "bad <function=NAME>");
        cp_call_args_puts(p, "{");
        p->sub = QX_BODY;
        return 1;
    case QX_BODY:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "<parameter=");
        if (r == R_OK) {
            cp_sb_clear(&p->tmp);
            p->sub = QX_KEY;
            return 1;
        }
        r2 = cp_lit(p, "</function>");
        if (r2 == R_OK) {
            cp_call_args_puts(p, "}");
            if (cp_call_end(p)) p->sub = QX_CLOSE;
            return 1;
        }
        if (r == R_MORE || r2 == R_MORE) return 0;
        return fail(p, "expected <parameter=NAME> or </function>");
    case QX_KEY:
        r = cp_until(p, gt, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || which != 0 || !p->tmp.n) return fail(p, "bad <parameter=NAME>");
        cp_xparam_key(p, p->tmp.p, p->tmp.n);
        p->sub = QX_NL;
        return 1;
    case QX_NL:
        if (!cp_avail(p)) return 0;
        if (*cp_at(p) == '\n') cp_take(p, 1, NULL);
        cp_xval_init(p);
        p->sub = QX_VALUE;
        return 1;
    case QX_VALUE:
        if (!cp_xval_read(p, vend, true)) return 0;
        p->sub = QX_BODY;
        return 1;
    case QX_CLOSE:
        return close_tag(p, cp_fmt_close(p), !p->section);
    }
    return fail(p, "internal state");
}

// ---- GLM 4.5 / 4.6 / 4.7 ----------------------------------------------------------------------
//   <tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>
// (4.7 writes no newlines). Values as in the template: strings raw, others as JSON.

enum { GL_START, GL_NAME, GL_BODY, GL_KEY, GL_VAL0, GL_VALUE };

static int glm_close(struct chatparse *p) {
    cp_call_args_puts(p, "}");
    if (cp_call_end(p)) cp_to_text(p, TK_CONTENT);
    return 1;
}

int cp_fmt_glm(struct chatparse *p) {
    static const char *const name_end[] = {"\n", "<arg_key>", "</tool_call>", NULL};
    static const char *const key_end[] = {"</arg_key>", NULL};
    static const char *const val_end[] = {"</arg_value>", NULL};
    int r, which = 0;
    const char *k;
    size_t kn;
    switch (p->sub) {
    case GL_START:
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->sub = GL_NAME;
        return 1;
    case GL_NAME:
        r = cp_until(p, name_end, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !name_from_tmp(p)) return fail(p, "bad function name after <tool_call>");
        cp_call_args_puts(p, "{");
        if (which == 2) return glm_close(p);
        cp_sb_clear(&p->tmp);
        p->sub = which == 1 ? GL_KEY : GL_BODY;
        return 1;
    case GL_BODY:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "<arg_key>");
        if (r == R_OK) {
            cp_sb_clear(&p->tmp);
            p->sub = GL_KEY;
            return 1;
        }
        which = cp_lit(p, "</tool_call>");
        if (which == R_OK) return glm_close(p);
        if (r == R_MORE || which == R_MORE) return 0;
        return fail(p, "expected <arg_key> or </tool_call>");
    case GL_KEY:
        r = cp_until(p, key_end, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        k = p->tmp.p, kn = p->tmp.n;
        trim(&k, &kn);
        if (r == R_NO || !kn) return fail(p, "bad <arg_key>");
        cp_xparam_key(p, k, kn);
        p->sub = GL_VAL0;
        return 1;
    case GL_VAL0:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "<arg_value>");
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected <arg_value>");
        cp_xval_init(p);
        p->sub = GL_VALUE;
        return 1;
    case GL_VALUE:
        if (!cp_xval_read(p, val_end, false)) return 0;
        p->sub = GL_BODY;
        return 1;
    }
    return fail(p, "internal state");
}

// ---- Llama 3.x -------------------------------------------------------------------------------
// Opener 0: '{' as the whole message (read tentatively: an answer may be JSON too); opener 1:
// <|python_tag|> followed by a JSON call, by NAME.call(k="v", …) (built-in tools), or by code
// (a call of "python" with {"code": …}, up to <|eom_id|> / <|eot_id|> or the end).

enum {
    LL_START,
    LL_OBJ,
    LL_AFTER,
    LL_PY,
    LL_PYNAME,
    LL_CODE,
    LL_BI_KEY0,
    LL_BI_KEY,
    LL_BI_VAL0,
    LL_BI_STR,
    LL_BI_TOK,
    LL_BI_SEP
};

static bool is_ident(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

static int llama_close(struct chatparse *p) {
    cp_call_args_puts(p, "}");
    if (cp_call_end(p)) cp_to_text(p, TK_CONTENT);
    return 1;
}

// A JSON call object, tentative when it is the whole message; after <|python_tag|> the choice
// between JSON and the rest.
static int llama_json(struct chatparse *p) {
    const char *why;
    int r;
    switch (p->sub) {
    case LL_START:
        if (p->opener == 1) {
            p->sub = LL_PY;
            return 1;
        }
        cp_call_begin(p);
        cp_jobj_init(p, cp_fmt_keys(p), true, true);
        p->sub = LL_OBJ;
        return 1;
    case LL_OBJ:
        r = cp_jobj_step(p, &why);
        if (r == 0) return 0;
        if (r < 0) {
            if (p->call.tentative)
                cp_call_reject(p);
            else
                cp_call_fail(p, why);
            return 1;
        }
        if (cp_call_end(p)) p->sub = LL_AFTER;
        return 1;
    case LL_AFTER:
        // Another call may follow, after a ';' at most.
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == ';') cp_take(p, 1, NULL);
        cp_to_text(p, TK_CONTENT);
        return 1;
    case LL_PY:
        if (!cp_ws(p)) return 0;
        cp_call_begin(p);
        if (*cp_at(p) == '{') {
            cp_jobj_init(p, cp_fmt_keys(p), false, false);
            p->sub = LL_OBJ;
            return 1;
        }
        p->sub = LL_PYNAME;
        return 1;
    }
    return fail(p, "internal state");
}

// After <|python_tag|>, not JSON: NAME.call( of a built-in tool, or code up to <|eom_id|> /
// <|eot_id|> (or the end) as a call of "python".
static int llama_python_tag(struct chatparse *p) {
    static const char *const code_end[] = {"<|eom_id|>", "<|eot_id|>", NULL};
    const char *s;
    size_t a, i;
    int r, which = 0;
    switch (p->sub) {
    case LL_PYNAME:
        // NAME.call( — or code, which may begin like a name.
        s = cp_at(p), a = cp_avail(p);
        for (i = 0; i < a && is_ident((unsigned char)s[i]);) i++;
        if (i == a && !p->eof) return 0;
        if (i > 0) {
            size_t have = a - i;
            if (have < 6 && !p->eof && !memcmp(s + i, ".call(", have)) return 0;
            if (have >= 6 && !memcmp(s + i, ".call(", 6)) {
                cp_call_set_name(p, s, i);
                cp_take(p, i + 6, NULL);
                cp_call_args_puts(p, "{");
                p->sub = LL_BI_KEY0;
                return 1;
            }
        }
        cp_call_set_name(p, "python", 6);
        cp_call_args_puts(p, "{\"code\": \"");
        p->sub = LL_CODE;
        return 1;
    case LL_CODE:
        cp_sb_clear(&p->tmp);
        r = cp_until(p, code_end, &p->tmp, SIZE_MAX, &which);
        if (r == R_MORE && p->eof) cp_take(p, cp_avail(p), &p->tmp);
        cp_call_args_escaped(p, p->tmp.p, p->tmp.n);
        if (r == R_MORE && !p->eof) return 0;
        cp_call_args_puts(p, "\"");
        return llama_close(p);
    }
    return fail(p, "internal state");
}

// The k="v", k=TOKEN arguments of NAME.call(…) up to its ')', as a JSON object.
static int llama_builtin_args(struct chatparse *p) {
    static const char *const eq[] = {"=", NULL}, *const quote[] = {"\"", NULL}, *const tok_end[] = {",", ")", NULL};
    const char *s;
    size_t a, i;
    int r, which = 0;
    switch (p->sub) {
    case LL_BI_KEY0:
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == ')') {
            cp_take(p, 1, NULL);
            return llama_close(p);
        }
        cp_sb_clear(&p->tmp);
        p->sub = LL_BI_KEY;
        return 1;
    case LL_BI_KEY:
        r = cp_until(p, eq, &p->tmp, 64, &which);
        if (r == R_MORE) return 0;
        s = p->tmp.p, a = p->tmp.n;
        trim(&s, &a);
        for (i = 0; i < a && is_ident((unsigned char)s[i]);) i++;
        if (r == R_NO || !a || i != a) return fail(p, "bad argument name in NAME.call(…)");
        cp_xparam_key(p, s, a);
        p->sub = LL_BI_VAL0;
        return 1;
    case LL_BI_VAL0:
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == '"') {
            cp_take(p, 1, NULL);
            cp_call_args_puts(p, "\"");
            p->sub = LL_BI_STR;
        } else {
            cp_xval_init(p);
            p->sub = LL_BI_TOK;
        }
        return 1;
    case LL_BI_STR:
        if (!cp_raw_string_read(p, quote)) return 0;
        p->sub = LL_BI_SEP;
        return 1;
    case LL_BI_TOK:
        r = cp_until(p, tok_end, &p->vbuf, 4096, &which);
        if (r == R_NO) return fail(p, "an argument of NAME.call(…) is too long");
        cp_xval_feed(p, false);
        if (r == R_MORE) return 0;
        cp_xval_close(p, false);
        if (which == 1) return llama_close(p);
        p->sub = LL_BI_KEY0;
        return 1;
    case LL_BI_SEP:
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == ',') {
            cp_take(p, 1, NULL);
            p->sub = LL_BI_KEY0;
            return 1;
        }
        if (*cp_at(p) != ')') return fail(p, "expected ',' or ')' in NAME.call(…)");
        cp_take(p, 1, NULL);
        return llama_close(p);
    }
    return fail(p, "internal state");
}

int cp_fmt_llama(struct chatparse *p) {
    switch (p->sub) {
    case LL_START:
    case LL_OBJ:
    case LL_AFTER:
    case LL_PY: return llama_json(p);
    case LL_PYNAME:
    case LL_CODE: return llama_python_tag(p);
    case LL_BI_KEY0:
    case LL_BI_KEY:
    case LL_BI_VAL0:
    case LL_BI_STR:
    case LL_BI_TOK:
    case LL_BI_SEP: return llama_builtin_args(p);
    }
    return fail(p, "internal state");
}

// ---- Functionary v3.1: <function=NAME>{…}</function>, and Llama's <|python_tag|> --------------

enum { F1_START, F1_NAME, F1_ARGS, F1_CLOSE };

int cp_fmt_functionary31(struct chatparse *p) {
    static const char *const gt[] = {">", NULL};
    int r, which;
    if (p->opener == 1) return cp_fmt_llama(p);
    switch (p->sub) {
    case F1_START:
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->sub = F1_NAME;
        return 1;
    case F1_NAME:
        r = cp_until(p, gt, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !name_from_tmp(p)) return fail(p, "bad <function=NAME>");
        cp_args_init(p);
        p->sub = F1_ARGS;
        return 1;
    case F1_ARGS: return args_then(p, F1_CLOSE);
    case F1_CLOSE:
        return close_tag(p, "</function>", false);
    }
    return fail(p, "internal state");
}

// ---- Functionary v3.2: the prompt ends with ">>>"; then "all\n" and content, or "NAME\n" and
// the call's JSON arguments; ">>>" starts the next. -------------------------------------------

enum { F2_RECIPIENT = FUNC32_RECIPIENT, F2_NAME, F2_ARGS, F2_POST };

int cp_fmt_functionary32(struct chatparse *p) {
    static const char *const nl[] = {"\n", NULL};
    const char *s;
    size_t n;
    int r, which;
    switch (p->sub) {
    case F2_RECIPIENT:
        cp_sb_clear(&p->tmp);
        p->sub = F2_NAME;
        return 1;
    case F2_NAME:
        r = cp_until(p, nl, &p->tmp, 128, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) {
            cp_markup_fail(p, "no recipient after >>>");
            return 1;
        }
        s = p->tmp.p, n = p->tmp.n;
        trim(&s, &n);
        if (n == 3 && !memcmp(s, "all", 3)) {
            cp_to_text(p, TK_CONTENT);
            return 1;
        }
        cp_call_begin(p);
        if (!cp_call_set_name(p, s, n)) return fail(p, "bad recipient after >>>");
        cp_args_init(p);
        p->sub = F2_ARGS;
        return 1;
    case F2_ARGS: return args_then(p, F2_POST);
    case F2_POST: return after_call(p, ">>>", F2_RECIPIENT);
    }
    return fail(p, "internal state");
}

// ---- Mistral -----------------------------------------------------------------------------------
//   [TOOL_CALLS][{"name": …, "arguments": {…}, "id": "…"}, …]      Nemo (an array)
//   [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}                            Small 3.2
//   [TOOL_CALLS]NAME[ARGS]{…}                                       Devstral, Ministral 3
// each call of the last two forms after its own [TOOL_CALLS].

enum { MI_START, MI_NAME, MI_ID, MI_ARGS };

int cp_fmt_mistral(struct chatparse *p) {
    static const char *const name_end[] = {"[ARGS]", "[CALL_ID]", NULL}, *const id_end[] = {"[ARGS]", NULL};
    const char *s;
    size_t n;
    int r, which = 0;
    if (p->sub >= JA_OPEN) return array_step(p);
    switch (p->sub) {
    case MI_START:
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) == '[') {
            p->sub = JA_OPEN;
            return 1;
        }
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->sub = MI_NAME;
        return 1;
    case MI_NAME:
        r = cp_until(p, name_end, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        p->call.wait_id = which == 1;
        if (r == R_NO || !name_from_tmp(p)) return fail(p, "bad function name after [TOOL_CALLS]");
        cp_sb_clear(&p->tmp);
        p->sub = which == 1 ? MI_ID : MI_ARGS;
        if (which != 1) cp_args_init(p);
        return 1;
    case MI_ID:
        r = cp_until(p, id_end, &p->tmp, 64, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "bad [CALL_ID]");
        s = p->tmp.p, n = p->tmp.n;
        trim(&s, &n);
        cp_call_set_id(p, s, n);
        cp_args_init(p);
        p->sub = MI_ARGS;
        return 1;
    case MI_ARGS: return args_then(p, TO_TEXT);
    }
    return fail(p, "internal state");
}

// ---- DeepSeek R1 / V3 / V3.1 -------------------------------------------------------------------
//   R1:   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```
//         <｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>…<｜tool▁calls▁end｜>
//   V3.1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…
// Opener 1 is a call without the section around it.

#define DS_SEP "<｜tool▁sep｜>"
#define DS_CALL_BEGIN "<｜tool▁call▁begin｜>"
#define DS_CALL_END "<｜tool▁call▁end｜>"
#define DS_CALLS_END "<｜tool▁calls▁end｜>"

enum { DS_START, DS_SECTION, DS_CALL0, DS_HEAD, DS_NAME, DS_FENCE, DS_LANG, DS_ARGS, DS_POST };

int cp_fmt_deepseek(struct chatparse *p) {
    static const char *const sep[] = {DS_SEP, NULL}, *const nl[] = {"\n", NULL};
    const char *s;
    size_t n;
    int r, which;
    switch (p->sub) {
    case DS_START:
        p->section = p->opener == 0;
        p->sub = p->section ? DS_SECTION : DS_CALL0;
        return 1;
    case DS_SECTION: return between_calls(p, DS_CALL_BEGIN, DS_CALLS_END, DS_CALL0);
    case DS_CALL0:
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->fence = false;
        p->sub = DS_HEAD;
        return 1;
    case DS_HEAD:
        r = cp_until(p, sep, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "no " DS_SEP);
        s = p->tmp.p, n = p->tmp.n;
        trim(&s, &n);
        if (n == 8 && !memcmp(s, "function", 8)) { // R1: the type, then the name on its line
            cp_sb_clear(&p->tmp);
            p->sub = DS_NAME;
            return 1;
        }
        if (!cp_call_set_name(p, s, n)) return fail(p, "bad function name");
        p->sub = DS_FENCE;
        return 1;
    case DS_NAME:
        r = cp_until(p, nl, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !name_from_tmp(p)) return fail(p, "bad function name");
        p->sub = DS_FENCE;
        return 1;
    case DS_FENCE:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "```");
        if (r == R_MORE) return 0;
        p->fence = r == R_OK;
        p->sub = p->fence ? DS_LANG : DS_ARGS;
        if (!p->fence) cp_args_init(p);
        return 1;
    case DS_LANG:
        if (cp_lit(p, "json") == R_MORE) return 0;
        cp_args_init(p);
        p->sub = DS_ARGS;
        return 1;
    case DS_ARGS: return args_then(p, DS_POST);
    case DS_POST:
        if (!cp_ws(p)) return 0;
        if (p->fence) {
            r = cp_lit(p, "```");
            if (r == R_MORE) return 0;
            if (r == R_NO) {
                cp_post_junk(p);
                return 1;
            }
            p->fence = false;
            return 1;
        }
        return after_call(p, DS_CALL_END, p->section ? DS_SECTION : TO_TEXT);
    }
    return fail(p, "internal state");
}

// ---- Kimi K2 -------------------------------------------------------------------------------------
//   <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:N<|tool_call_argument_begin|>{…}
//   <|tool_call_end|>…<|tool_calls_section_end|>
// The id is the model's "functions.NAME:N" (its templates write tool results under it).

enum { KM_START, KM_SECTION, KM_CALL0, KM_ID, KM_ARGS, KM_POST };

int cp_fmt_kimi(struct chatparse *p) {
    static const char *const arg_begin[] = {"<|tool_call_argument_begin|>", NULL};
    const char *s;
    size_t n;
    int r, which;
    switch (p->sub) {
    case KM_START:
        p->section = p->opener == 0;
        p->sub = p->section ? KM_SECTION : KM_CALL0;
        return 1;
    case KM_SECTION: return between_calls(p, "<|tool_call_begin|>", "<|tool_calls_section_end|>", KM_CALL0);
    case KM_CALL0:
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->sub = KM_ID;
        return 1;
    case KM_ID:
        r = cp_until(p, arg_begin, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "no <|tool_call_argument_begin|>");
        s = p->tmp.p, n = p->tmp.n;
        trim(&s, &n);
        cp_call_set_id(p, s, n);
        if (n > 10 && !memcmp(s, "functions.", 10)) s += 10, n -= 10;
        for (size_t c = n; c > 0; c--) {
            if (s[c - 1] == ':') {
                n = c - 1;
                break;
            }
            if (s[c - 1] < '0' || s[c - 1] > '9') break;
        }
        if (!cp_call_set_name(p, s, n)) return fail(p, "bad function name");
        cp_args_init(p);
        p->sub = KM_ARGS;
        return 1;
    case KM_ARGS: return args_then(p, KM_POST);
    case KM_POST: return after_call(p, "<|tool_call_end|>", p->section ? KM_SECTION : TO_TEXT);
    }
    return fail(p, "internal state");
}

// ---- gpt-oss harmony ---------------------------------------------------------------------------
// The prompt ends with <|start|>assistant, so a message starts with its header's rest:
//   <|channel|>analysis<|message|>…<|end|>                 reasoning
//   <|start|>assistant<|channel|>final<|message|>…          content (<|return|> / <|end|>)
//   <|channel|>commentary<|message|>…<|end|>               content (a preamble)
//    to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>
//   <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>
// A header is read whole (up to <|message|>, at most 512 bytes); its recipient makes a call
// (named without the "functions." prefix), else its channel says reasoning or content.
// Bodies keep every byte.

enum { HM_HEAD = HARMONY_HEAD, HM_HDR, HM_ARGS, HM_POST };

// The word after `key` in the header h[0..n) (up to a space or '<'); NULL when absent.
static const char *hdr_word(const char *h, size_t n, const char *key, size_t *len) {
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++) {
        if (memcmp(h + i, key, kl)) continue;
        size_t e = i + kl;
        while (e < n && h[e] != ' ' && h[e] != '<') e++;
        *len = e - i - kl;
        return h + i + kl;
    }
    return NULL;
}

int cp_fmt_harmony(struct chatparse *p) {
    static const char *const starts[] = {"<|start|>", "<|channel|>", " to=", NULL};
    static const char *const hdr_end[] = {"<|message|>", "<|end|>", "<|call|>", "<|return|>", NULL};
    const char *to, *ch;
    size_t tn = 0, cn = 0;
    int r, which, more;
    switch (p->sub) {
    case HM_HEAD:
        if (!cp_avail(p)) {
            if (!p->eof) return 0;
            cp_to_text(p, TK_CONTENT);
            return 1;
        }
        more = 0;
        for (int k = 0; starts[k]; k++) {
            r = peek_lit(p, starts[k]);
            if (r == R_OK) {
                cp_sb_clear(&p->tmp);
                cp_sb_clear(&p->raw); // what came before was a complete call's
                p->sub = HM_HDR;
                return 1;
            }
            more |= r == R_MORE;
        }
        if (more && !p->eof) return 0;
        cp_to_text(p, TK_CONTENT); // not a header: text
        return 1;
    case HM_HDR:
        r = cp_until(p, hdr_end, &p->tmp, 512, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || which != 0) {
            cp_markup_fail(p, r == R_NO ? "a header too long" : "a header without <|message|>");
            return 1;
        }
        to = hdr_word(p->tmp.p, p->tmp.n, "to=", &tn);
        ch = hdr_word(p->tmp.p, p->tmp.n, "<|channel|>", &cn);
        if (to && !(tn == 9 && !memcmp(to, "assistant", 9))) {
            cp_call_begin(p);
            if (tn > 10 && !memcmp(to, "functions.", 10)) to += 10, tn -= 10;
            if (!cp_call_set_name(p, to, tn)) return fail(p, "bad recipient");
            cp_args_init(p);
            p->sub = HM_ARGS;
            return 1;
        }
        cp_to_text(p, ch && cn == 8 && !memcmp(ch, "analysis", 8) ? TK_REASONING : TK_CONTENT);
        return 1;
    case HM_ARGS: return args_then(p, HM_POST);
    case HM_POST:
        if (!cp_ws(p)) return 0;
        more = 0;
        for (int k = 0; k < 2; k++) {
            r = cp_lit(p, k ? "<|end|>" : "<|call|>");
            if (r == R_OK) {
                p->sub = HM_HEAD;
                return 1;
            }
            more |= r == R_MORE;
        }
        for (int k = 0; k < 2; k++) {
            r = peek_lit(p, starts[k]);
            if (r == R_OK) {
                p->sub = HM_HEAD;
                return 1;
            }
            more |= r == R_MORE;
        }
        if (more) return 0;
        cp_post_junk(p);
        return 1;
    }
    return fail(p, "internal state");
}
