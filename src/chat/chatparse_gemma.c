// chatparse_gemma.c — the markup machine of Gemma 4, whose calls carry their arguments in the
// template's own literal syntax rather than JSON:
//
//   <|tool_call>call:NAME{key:VALUE,key:VALUE}<tool_call|>
//
// VALUE: <|"|>raw text<|"|> (a string, nothing escaped), a number, true / false, None (the
// template prints Python's None for null; null is read too), [VALUE,…], or {key:VALUE,…} with
// bare keys (<|"|>quoted<|"|> keys are read as well). Each call has its own <|tool_call>. The
// arguments are turned into JSON as they stream: strings escaped, keys quoted, ", " between
// members; a bare token is checked to be one JSON number or literal.
#include <stdint.h>
#include <string.h>

#include "chat/chatparse_impl.h"

#define GM_QUOTE "<|\"|>"

enum { GM_START, GM_CALL, GM_NAME, GM_KEY0, GM_KEY, GM_QKEY, GM_COLON, GM_VAL0, GM_VAL, GM_STR, GM_TOK, GM_AFTER, GM_CLOSE };

static int fail(struct chatparse *p, const char *why) {
    cp_call_fail(p, why);
    return 1;
}

// Opens a container ('{' or '['): 0 when too deep.
static bool gm_push(struct chatparse *p, char c) {
    if (p->gm.depth == (int)sizeof p->gm.stack) return false;
    p->gm.stack[p->gm.depth++] = c;
    cp_call_args_put(p, &c, 1);
    return true;
}

// The bare token in p->vbuf as JSON (Python's None, True and False as JSON's literals); false
// when it is not one JSON number or literal.
static bool gm_token(struct chatparse *p) {
    static const char *const py[] = {"None", "True", "False"}, *const js[] = {"null", "true", "false"};
    const char *s = p->vbuf.p;
    size_t n = p->vbuf.n;
    for (int k = 0; k < 3; k++)
        if (n == strlen(py[k]) && !memcmp(s, py[k], n)) {
            cp_call_args_puts(p, js[k]);
            return true;
        }
    struct cp_jscan j;
    cp_jscan_init(&j);
    for (size_t i = 0; i < n; i++)
        if (cp_jscan_byte(&j, (unsigned char)s[i]) != CP_JSCAN_MORE && i + 1 < n) return false;
    if (!n || !cp_jscan_end(&j) || strchr("\"[{", s[0])) return false;
    cp_call_args_put(p, s, n);
    return true;
}

// call:NAME{ — the call begins.
static int gm_head(struct chatparse *p) {
    static const char *const brace[] = {"{", NULL};
    int r, which = 0;
    switch (p->sub) {
    case GM_START:
        cp_call_begin(p);
        cp_sb_clear(&p->tmp);
        p->gm.depth = 0;
        p->sub = GM_CALL;
        return 1;
    case GM_CALL:
        r = cp_lit(p, "call:");
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "expected call:NAME{");
        p->sub = GM_NAME;
        return 1;
    case GM_NAME:
        r = cp_until(p, brace, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO || !cp_call_set_name(p, p->tmp.p, p->tmp.n)) return fail(p, "bad function name after call:");
        gm_push(p, '{');
        p->sub = GM_KEY0;
        return 1;
    }
    return fail(p, "internal state");
}

// An object's key (bare, or between <|"|>) up to its colon, written as a JSON key.
static int gm_key(struct chatparse *p) {
    static const char *const colon[] = {":", NULL}, *const quote[] = {GM_QUOTE, NULL};
    int r, which = 0;
    const char *s;
    size_t n;
    switch (p->sub) {
    case GM_KEY0: // just after '{': a key or '}'
        if (!cp_ws(p)) return 0;
        p->sub = *cp_at(p) == '}' ? GM_AFTER : GM_KEY;
        return 1;
    case GM_KEY:
        if (!cp_ws(p)) return 0;
        cp_sb_clear(&p->tmp);
        r = cp_lit(p, GM_QUOTE);
        if (r == R_MORE) return 0;
        p->gm.quoted = r == R_OK;
        p->sub = p->gm.quoted ? GM_QKEY : GM_COLON;
        return 1;
    case GM_QKEY:
        r = cp_until(p, quote, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        if (r == R_NO) return fail(p, "a key too long");
        cp_xparam_key(p, p->tmp.p, p->tmp.n);
        cp_sb_clear(&p->tmp);
        p->sub = GM_COLON;
        return 1;
    case GM_COLON:
        // A bare key is read up to the colon; after a quoted one (written already) only
        // whitespace may come before it.
        r = cp_until(p, colon, &p->tmp, 256, &which);
        if (r == R_MORE) return 0;
        s = p->tmp.p, n = p->tmp.n;
        while (n && cp_is_ws((unsigned char)*s)) s++, n--;
        while (n && cp_is_ws((unsigned char)s[n - 1])) n--;
        if (r == R_NO || (p->gm.quoted ? n != 0 : !n) || strpbrk(p->tmp.p, "{}[],<\""))
            return fail(p, "bad argument name");
        if (!p->gm.quoted) cp_xparam_key(p, s, n);
        p->sub = GM_VAL;
        return 1;
    }
    return fail(p, "internal state");
}

// A value: a container opens, a <|"|>string<|"|> is escaped, a bare token is checked.
static int gm_value(struct chatparse *p) {
    static const char *const quote[] = {GM_QUOTE, NULL};
    int r;
    const char *s;
    size_t n;
    char c;
    switch (p->sub) {
    case GM_VAL0: // just after '[': a value or ']'
        if (!cp_ws(p)) return 0;
        p->sub = *cp_at(p) == ']' ? GM_AFTER : GM_VAL;
        return 1;
    case GM_VAL:
        if (!cp_ws(p)) return 0;
        c = *cp_at(p);
        if (c == '{' || c == '[') {
            cp_take(p, 1, NULL);
            if (!gm_push(p, c)) return fail(p, "arguments nested too deep");
            p->call.nparams = 0;
            p->sub = c == '{' ? GM_KEY0 : GM_VAL0;
            return 1;
        }
        r = cp_lit(p, GM_QUOTE);
        if (r == R_MORE) return 0;
        if (r == R_OK) {
            cp_call_args_puts(p, "\"");
            p->sub = GM_STR;
            return 1;
        }
        cp_sb_clear(&p->vbuf);
        p->sub = GM_TOK;
        return 1;
    case GM_STR:
        if (!cp_raw_string_read(p, quote)) return 0;
        p->sub = GM_AFTER;
        return 1;
    case GM_TOK:
        s = cp_at(p), n = cp_avail(p);
        for (size_t i = 0; i < n; i++) {
            if (strchr(",}] \t\r\n", s[i])) {
                cp_take(p, i, &p->vbuf);
                if (!gm_token(p)) return fail(p, "a value that is neither text nor JSON");
                p->sub = GM_AFTER;
                return 1;
            }
            if (p->vbuf.n + i + 1 > 64) { // the 65th byte is refused, wherever the input was split
                cp_take(p, i, &p->vbuf);
                return fail(p, "a value that is neither text nor JSON");
            }
        }
        cp_take(p, n, &p->vbuf);
        return 0;
    }
    return fail(p, "internal state");
}

// After a value: ',' or the container's end; after the outermost, <tool_call|>.
static int gm_after(struct chatparse *p) {
    int r;
    char c;
    switch (p->sub) {
    case GM_AFTER:
        if (!cp_ws(p)) return 0;
        c = *cp_at(p);
        if (c == ',') {
            cp_take(p, 1, NULL);
            // An object's next key writes its own separator (cp_xparam_key); an array's
            // value needs one here.
            if (p->gm.stack[p->gm.depth - 1] == '[') cp_call_args_puts(p, ", ");
            p->sub = p->gm.stack[p->gm.depth - 1] == '{' ? GM_KEY : GM_VAL;
            return 1;
        }
        if (c != (p->gm.stack[p->gm.depth - 1] == '{' ? '}' : ']')) return fail(p, "expected ',' or the container's end");
        cp_take(p, 1, NULL);
        cp_call_args_put(p, &c, 1);
        p->gm.depth--;
        // The enclosing object's members are counted again from its own count: any member
        // written there already means a separator before the next key.
        p->call.nparams = 1;
        if (p->gm.depth) {
            p->sub = GM_AFTER;
            return 1;
        }
        if (cp_call_end(p)) p->sub = GM_CLOSE;
        return 1;
    case GM_CLOSE:
        if (!cp_ws(p)) return 0;
        r = cp_lit(p, "<tool_call|>");
        if (r == R_MORE) return 0;
        if (r == R_OK)
            cp_to_text(p, TK_CONTENT);
        else
            cp_post_junk(p);
        return 1;
    }
    return fail(p, "internal state");
}

int cp_fmt_gemma4(struct chatparse *p) {
    switch (p->sub) {
    case GM_START:
    case GM_CALL:
    case GM_NAME: return gm_head(p);
    case GM_KEY0:
    case GM_KEY:
    case GM_QKEY:
    case GM_COLON: return gm_key(p);
    case GM_VAL0:
    case GM_VAL:
    case GM_STR:
    case GM_TOK: return gm_value(p);
    case GM_AFTER:
    case GM_CLOSE: return gm_after(p);
    }
    return fail(p, "internal state");
}
