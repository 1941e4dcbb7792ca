// chatparse_json.c — the JSON the chat parser reads and writes: a streaming syntax checker
// (jscan), string escaping, the JSON object of a call read as it streams (jobj: the name sent
// as soon as its string closes, the arguments passed through byte for byte), and XML-style
// parameter values turned into JSON (xval).
//
// The checker is written here rather than taken from a JSON library because a call's
// arguments must be judged while they stream, one token's bytes at a time, and their end found
// without reading past it.
#include <string.h>

#include "chat/chatparse_impl.h"

// ---- the streaming checker ------------------------------------------------------------------

enum js_state {
    JS_VALUE,     // a value must start
    JS_ARR_FIRST, // after '[': a value or ']'
    JS_OBJ_FIRST, // after '{': a key or '}'
    JS_OBJ_KEY,   // after ',' in an object: a key
    JS_COLON,
    JS_AFTER,     // after a value inside a container: ',' or the closing bracket
    JS_STR,
    JS_ESC,
    JS_HEX,
    JS_SURR_BS,   // a high surrogate escape was read: '\' of the low one
    JS_SURR_U,    //   and its 'u'
    JS_UTF8,
    JS_MINUS,
    JS_ZERO,
    JS_INT,
    JS_DOT,
    JS_FRAC,
    JS_EXP,
    JS_EXP_SIGN,
    JS_EXP_DIG,
    JS_LIT,
    JS_DONE,
};

static const char *const js_lits[] = {"true", "false", "null"};

void cp_jscan_init(struct cp_jscan *j) { memset(j, 0, sizeof *j); }

static bool js_top_obj(const struct cp_jscan *j) { return j->stack[(j->depth - 1) >> 3] & (1u << ((j->depth - 1) & 7)); }

static bool js_push(struct cp_jscan *j, bool obj) {
    if (j->depth >= CP_JSCAN_MAX_DEPTH) return false;
    uint8_t bit = (uint8_t)(1u << (j->depth & 7));
    if (obj)
        j->stack[j->depth >> 3] |= bit;
    else
        j->stack[j->depth >> 3] &= (uint8_t)~bit;
    j->depth++;
    return true;
}

static int js_value_end(struct cp_jscan *j) {
    if (j->depth == 0) {
        j->st = JS_DONE;
        return CP_JSCAN_DONE;
    }
    j->st = JS_AFTER;
    return CP_JSCAN_MORE;
}

static int js_hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Inside the checker only: c was not consumed and the state has changed; feed it again.
enum { JS_AGAIN = -1 };

// Between tokens: the start of a value, a key, ':', ',' or a closing bracket.
static int js_structure_byte(struct cp_jscan *j, unsigned char c) {
    if (cp_is_ws(c)) return CP_JSCAN_MORE;
    switch ((enum js_state)j->st) {
    case JS_VALUE:
        if (c == '{' || c == '[') {
            if (!js_push(j, c == '{')) return CP_JSCAN_ERR;
            j->st = c == '{' ? JS_OBJ_FIRST : JS_ARR_FIRST;
            return CP_JSCAN_MORE;
        }
        if (c == '"') {
            j->key = false, j->st = JS_STR;
            return CP_JSCAN_MORE;
        }
        if (c == '-') return j->st = JS_MINUS, CP_JSCAN_MORE;
        if (c == '0') return j->st = JS_ZERO, CP_JSCAN_MORE;
        if (c >= '1' && c <= '9') return j->st = JS_INT, CP_JSCAN_MORE;
        for (uint8_t l = 0; l < 3; l++)
            if (c == (unsigned char)js_lits[l][0]) return j->lit = l, j->k = 1, j->st = JS_LIT, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_ARR_FIRST:
        if (c == ']') {
            j->depth--;
            return js_value_end(j);
        }
        j->st = JS_VALUE;
        return JS_AGAIN;
    case JS_OBJ_FIRST:
    case JS_OBJ_KEY:
        if (c == '"') {
            j->key = true, j->st = JS_STR;
            return CP_JSCAN_MORE;
        }
        if (c == '}' && j->st == JS_OBJ_FIRST) {
            j->depth--;
            return js_value_end(j);
        }
        return CP_JSCAN_ERR;
    case JS_COLON:
        if (c != ':') return CP_JSCAN_ERR;
        j->st = JS_VALUE;
        return CP_JSCAN_MORE;
    case JS_AFTER:
        if (c == ',') {
            j->st = js_top_obj(j) ? JS_OBJ_KEY : JS_VALUE;
            return CP_JSCAN_MORE;
        }
        if (c == (js_top_obj(j) ? '}' : ']')) {
            j->depth--;
            return js_value_end(j);
        }
        return CP_JSCAN_ERR;
    default: return CP_JSCAN_ERR;
    }
}

// The last hex digit of a \uXXXX escape was read: surrogates must come as a high-low pair.
static int js_escape_end(struct cp_jscan *j) {
    bool hi = j->u >= 0xD800 && j->u <= 0xDBFF, lo = j->u >= 0xDC00 && j->u <= 0xDFFF;
    if (j->surr) {
        if (!lo) return CP_JSCAN_ERR;
        j->surr = false, j->st = JS_STR;
    } else if (hi) {
        j->surr = true, j->st = JS_SURR_BS;
    } else {
        if (lo) return CP_JSCAN_ERR;
        j->st = JS_STR;
    }
    return CP_JSCAN_MORE;
}

// Inside a string (a key or a value): its bytes, escapes and UTF-8 sequences.
static int js_string_byte(struct cp_jscan *j, unsigned char c) {
    switch ((enum js_state)j->st) {
    case JS_STR:
        if (c == '"') {
            if (!j->key) return js_value_end(j);
            j->st = JS_COLON;
            return CP_JSCAN_MORE;
        }
        if (c == '\\') return j->st = JS_ESC, CP_JSCAN_MORE;
        if (c < 0x20) return CP_JSCAN_ERR;
        if (c < 0x80) return CP_JSCAN_MORE;
        // A UTF-8 lead byte: how many continuation bytes, and the range of the first
        // (Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
        j->lo = 0x80, j->hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) j->k = 1;
        else if (c >= 0xE0 && c <= 0xEF) j->k = 2, j->lo = c == 0xE0 ? 0xA0 : 0x80, j->hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4) j->k = 3, j->lo = c == 0xF0 ? 0x90 : 0x80, j->hi = c == 0xF4 ? 0x8F : 0xBF;
        else return CP_JSCAN_ERR;
        j->st = JS_UTF8;
        return CP_JSCAN_MORE;
    case JS_UTF8:
        if (c < j->lo || c > j->hi) return CP_JSCAN_ERR;
        j->lo = 0x80, j->hi = 0xBF;
        if (--j->k == 0) j->st = JS_STR;
        return CP_JSCAN_MORE;
    case JS_ESC:
        if (c == 'u') return j->k = 0, j->u = 0, j->st = JS_HEX, CP_JSCAN_MORE;
        if (c && strchr("\"\\/bfnrt", c)) return j->st = JS_STR, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_HEX: {
        int h = js_hex(c);
        if (h < 0) return CP_JSCAN_ERR;
        j->u = (uint16_t)(j->u * 16 + h);
        if (++j->k < 4) return CP_JSCAN_MORE;
        return js_escape_end(j);
    }
    case JS_SURR_BS:
        if (c != '\\') return CP_JSCAN_ERR;
        return j->st = JS_SURR_U, CP_JSCAN_MORE;
    case JS_SURR_U:
        if (c != 'u') return CP_JSCAN_ERR;
        return j->k = 0, j->u = 0, j->st = JS_HEX, CP_JSCAN_MORE;
    default: return CP_JSCAN_ERR;
    }
}

// A number ends at the first byte that cannot continue it; that byte is the next token's (or,
// at the top level, not the value's at all).
static int js_number_end(struct cp_jscan *j) {
    if (j->depth == 0) {
        j->st = JS_DONE;
        return CP_JSCAN_DONE_BEFORE;
    }
    j->st = JS_AFTER;
    return JS_AGAIN;
}

// Inside a number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
static int js_number_byte(struct cp_jscan *j, unsigned char c) {
    bool digit = c >= '0' && c <= '9';
    switch ((enum js_state)j->st) {
    case JS_MINUS:
        if (c == '0') return j->st = JS_ZERO, CP_JSCAN_MORE;
        if (c >= '1' && c <= '9') return j->st = JS_INT, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_ZERO:
    case JS_INT:
    case JS_FRAC:
        if (digit && j->st != JS_ZERO) return CP_JSCAN_MORE;
        if (c == '.' && j->st != JS_FRAC) return j->st = JS_DOT, CP_JSCAN_MORE;
        if (c == 'e' || c == 'E') return j->st = JS_EXP, CP_JSCAN_MORE;
        return js_number_end(j);
    case JS_DOT:
        if (digit) return j->st = JS_FRAC, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_EXP:
        if (c == '+' || c == '-') return j->st = JS_EXP_SIGN, CP_JSCAN_MORE;
        if (digit) return j->st = JS_EXP_DIG, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_EXP_SIGN:
        if (digit) return j->st = JS_EXP_DIG, CP_JSCAN_MORE;
        return CP_JSCAN_ERR;
    case JS_EXP_DIG:
        if (digit) return CP_JSCAN_MORE;
        return js_number_end(j);
    default: return CP_JSCAN_ERR;
    }
}

int cp_jscan_byte(struct cp_jscan *j, unsigned char c) {
    for (;;) {
        int rc = CP_JSCAN_ERR;
        switch ((enum js_state)j->st) {
        case JS_VALUE:
        case JS_ARR_FIRST:
        case JS_OBJ_FIRST:
        case JS_OBJ_KEY:
        case JS_COLON:
        case JS_AFTER: rc = js_structure_byte(j, c); break;
        case JS_STR:
        case JS_ESC:
        case JS_HEX:
        case JS_SURR_BS:
        case JS_SURR_U:
        case JS_UTF8: rc = js_string_byte(j, c); break;
        case JS_MINUS:
        case JS_ZERO:
        case JS_INT:
        case JS_DOT:
        case JS_FRAC:
        case JS_EXP:
        case JS_EXP_SIGN:
        case JS_EXP_DIG: rc = js_number_byte(j, c); break;
        case JS_LIT:
            if (c != (unsigned char)js_lits[j->lit][j->k]) return CP_JSCAN_ERR;
            if (!js_lits[j->lit][++j->k]) return js_value_end(j);
            return CP_JSCAN_MORE;
        case JS_DONE: return CP_JSCAN_ERR;
        }
        if (rc != JS_AGAIN) return rc;
    }
}

bool cp_jscan_end(const struct cp_jscan *j) {
    if (j->st == JS_DONE) return true;
    return j->depth == 0 && (j->st == JS_ZERO || j->st == JS_INT || j->st == JS_FRAC || j->st == JS_EXP_DIG);
}

bool cp_json_is_object(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && cp_is_ws((unsigned char)s[i])) i++;
    if (i == n || s[i] != '{') return false;
    struct cp_jscan j;
    cp_jscan_init(&j);
    for (; i < n; i++) {
        int r = cp_jscan_byte(&j, (unsigned char)s[i]);
        if (r == CP_JSCAN_ERR) return false;
        if (r == CP_JSCAN_DONE) i++;
        if (r == CP_JSCAN_DONE || r == CP_JSCAN_DONE_BEFORE) break;
    }
    if (!cp_jscan_end(&j)) return false;
    for (; i < n; i++)
        if (!cp_is_ws((unsigned char)s[i])) return false;
    return true;
}

// ---- writing and reading strings ------------------------------------------------------------

void cp_json_put_escaped(struct chatparse *p, struct cp_sbuf *b, const char *s, size_t n) {
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        cp_sb_put(p, b, s + run, i - run);
        run = i + 1;
        char e[8] = {'\\', 0};
        switch (c) {
        case '"': e[1] = '"'; break;
        case '\\': e[1] = '\\'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        default:
            memcpy(e, "\\u00", 4);
            e[4] = "0123456789abcdef"[c >> 4], e[5] = "0123456789abcdef"[c & 15];
            cp_sb_put(p, b, e, 6);
            continue;
        }
        cp_sb_put(p, b, e, 2);
    }
    cp_sb_put(p, b, s + run, n - run);
}

void cp_json_put_string(struct chatparse *p, struct cp_sbuf *b, const char *s, size_t n) {
    cp_sb_put(p, b, "\"", 1);
    cp_json_put_escaped(p, b, s, n);
    cp_sb_put(p, b, "\"", 1);
}

static void put_utf8(struct chatparse *p, struct cp_sbuf *dst, uint32_t u) {
    char o[4];
    size_t n;
    if (u < 0x80) o[0] = (char)u, n = 1;
    else if (u < 0x800) o[0] = (char)(0xC0 | u >> 6), o[1] = (char)(0x80 | (u & 63)), n = 2;
    else if (u < 0x10000) o[0] = (char)(0xE0 | u >> 12), o[1] = (char)(0x80 | (u >> 6 & 63)), o[2] = (char)(0x80 | (u & 63)), n = 3;
    else
        o[0] = (char)(0xF0 | u >> 18), o[1] = (char)(0x80 | (u >> 12 & 63)), o[2] = (char)(0x80 | (u >> 6 & 63)),
        o[3] = (char)(0x80 | (u & 63)), n = 4;
    cp_sb_put(p, dst, o, n);
}

static uint32_t hex4(const char *s) {
    uint32_t u = 0;
    for (int k = 0; k < 4; k++) u = u * 16 + (uint32_t)js_hex((unsigned char)s[k]);
    return u;
}

void cp_json_unescape(struct chatparse *p, const char *s, size_t n, struct cp_sbuf *dst) {
    cp_sb_clear(dst);
    // s was checked by jscan: quotes at both ends, escapes complete, surrogates paired.
    for (size_t i = 1; i + 1 < n; i++) {
        if (s[i] != '\\') {
            size_t r = i;
            while (r + 1 < n && s[r] != '\\') r++;
            cp_sb_put(p, dst, s + i, r - i);
            i = r - 1;
            continue;
        }
        char e = s[++i], c = e;
        switch (e) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u': {
            uint32_t u = hex4(s + i + 1);
            i += 4;
            if (u >= 0xD800 && u <= 0xDBFF) {
                u = 0x10000 + ((u - 0xD800) << 10) + (hex4(s + i + 3) - 0xDC00);
                i += 6;
            }
            put_utf8(p, dst, u);
            continue;
        }
        default: break;
        }
        cp_sb_put(p, dst, &c, 1);
    }
}

// ---- the JSON object of a call --------------------------------------------------------------

enum { JO_OPEN, JO_FIRST, JO_KEY0, JO_KEY, JO_COLON, JO_VAL0, JO_VAL, JO_NEXT, AS_OPEN, AS_IN };
enum { JR_SKIP, JR_NAME, JR_ARGS, JR_ARGS_STR, JR_ID, JR_OTHER };

void cp_jobj_init(struct chatparse *p, const struct cp_jkeys *keys, bool open_read, bool tentative) {
    struct cp_jobj *o = &p->jo;
    o->st = open_read ? JO_FIRST : JO_OPEN;
    o->keys = keys;
    o->seen_name = o->seen_args = false;
    cp_sb_clear(&o->key);
    cp_sb_clear(&o->val);
    p->call.tentative = tentative;
    p->call.wait_id = keys->wait_id;
}

static bool key_in(const struct cp_sbuf *k, const char *const *list) {
    // k holds the key's literal with its quotes; keys are compared as written.
    for (int i = 0; i < 3 && list[i]; i++)
        if (strlen(list[i]) + 2 == k->n && !memcmp(list[i], k->p + 1, k->n - 2)) return true;
    return false;
}

static int key_role(const struct cp_jobj *o) {
    if (key_in(&o->key, o->keys->name)) return JR_NAME;
    if (key_in(&o->key, o->keys->args)) return JR_ARGS;
    if (key_in(&o->key, o->keys->id)) return JR_ID;
    if (key_in(&o->key, o->keys->other)) return JR_OTHER;
    return JR_SKIP;
}

// Feeds the available bytes to o->js up to the end of the value; returns the last result
// and in *n how many bytes belong to the value.
static int scan_run(struct cp_jscan *js, const char *s, size_t a, size_t *n) {
    size_t i = 0;
    int r = CP_JSCAN_MORE;
    while (i < a && (r = cp_jscan_byte(js, (unsigned char)s[i])) == CP_JSCAN_MORE) i++;
    if (r == CP_JSCAN_DONE) i++;
    *n = i;
    return r;
}

static bool value_done(struct chatparse *p, const char **why) {
    struct cp_jobj *o = &p->jo;
    switch (o->role) {
    case JR_NAME:
        cp_json_unescape(p, o->val.p, o->val.n, &p->tmp);
        if (!cp_call_set_name(p, p->tmp.p, p->tmp.n)) return *why = "the function name is empty, too long or not text", false;
        o->seen_name = true;
        return true;
    case JR_ID:
        cp_json_unescape(p, o->val.p, o->val.n, &p->tmp);
        cp_call_set_id(p, p->tmp.p, p->tmp.n);
        return true;
    case JR_ARGS_STR:
        cp_json_unescape(p, o->val.p, o->val.n, &p->tmp);
        if (!cp_json_is_object(p->tmp.p, p->tmp.n)) return *why = "the arguments string is not a JSON object", false;
        cp_call_args_put(p, p->tmp.p, p->tmp.n);
        o->seen_args = true;
        return true;
    case JR_ARGS:
        o->seen_args = true;
        return true;
    default:
        return true;
    }
}

static int obj_done(struct chatparse *p, const char **why) {
    struct cp_jobj *o = &p->jo;
    if (!o->seen_name) return *why = "the call has no name", -1;
    if (p->call.tentative) return *why = "not a call", -1; // no arguments key: an answer
    p->call.wait_id = false;
    cp_call_try_announce(p);
    return 1;
}

int cp_jobj_step(struct chatparse *p, const char **why) {
    struct cp_jobj *o = &p->jo;
    for (;;) {
        unsigned char c;
        size_t n;
        int r;
        switch (o->st) {
        case JO_OPEN:
            if (!cp_ws(p)) return 0;
            if (*cp_at(p) != '{') return *why = "expected a JSON object", -1;
            cp_take(p, 1, NULL);
            o->st = JO_FIRST;
            break;
        case JO_FIRST:
        case JO_KEY0:
            if (!cp_ws(p)) return 0;
            c = (unsigned char)*cp_at(p);
            if (c == '}' && o->st == JO_FIRST) {
                cp_take(p, 1, NULL);
                return obj_done(p, why);
            }
            if (c != '"') return *why = "expected a key", -1;
            cp_jscan_init(&o->js);
            cp_sb_clear(&o->key);
            o->st = JO_KEY;
            break;
        case JO_KEY:
            // At most 4 KiB of key, counted the same however the input is split.
            n = cp_avail(p) < 4097 - o->key.n ? cp_avail(p) : 4097 - o->key.n;
            r = scan_run(&o->js, cp_at(p), n, &n);
            cp_take(p, n, &o->key);
            if (o->key.n > 4096) return *why = "a key is too long", -1;
            if (r == CP_JSCAN_ERR) return *why = "a key is not a JSON string", -1;
            if (r != CP_JSCAN_DONE) return 0;
            o->role = (uint8_t)key_role(o);
            // A tentative object is a call only when it starts the way calls do: its keys are
            // the format's, and the name comes before the arguments.
            if (p->call.tentative && (o->role == JR_SKIP || (o->role == JR_ARGS && !o->seen_name)))
                return *why = "not a call", -1;
            o->st = JO_COLON;
            break;
        case JO_COLON:
            if (!cp_ws(p)) return 0;
            if (*cp_at(p) != ':') return *why = "expected ':'", -1;
            cp_take(p, 1, NULL);
            o->st = JO_VAL0;
            break;
        case JO_VAL0:
            if (!cp_ws(p)) return 0;
            c = (unsigned char)*cp_at(p);
            cp_jscan_init(&o->js);
            cp_sb_clear(&o->val);
            if (o->role == JR_NAME && (c != '"' || o->seen_name)) return *why = "the name is not one string", -1;
            if (o->role == JR_ID && c != '"') o->role = JR_SKIP;
            if (o->role == JR_ARGS) {
                if (o->seen_args) return *why = "two sets of arguments", -1;
                if (c == '"')
                    o->role = JR_ARGS_STR;
                else if (c != '{')
                    return *why = "the arguments are not a JSON object", -1;
                // The name and the arguments key are read: a call now, announced if it can be.
                p->call.tentative = false;
                cp_call_try_announce(p);
            }
            o->st = JO_VAL;
            break;
        case JO_VAL:
            r = scan_run(&o->js, cp_at(p), cp_avail(p), &n);
            if (o->role == JR_ARGS) cp_call_args_put(p, cp_at(p), n);
            cp_take(p, n, o->role == JR_NAME || o->role == JR_ID || o->role == JR_ARGS_STR ? &o->val : NULL);
            if (r == CP_JSCAN_ERR) return *why = "broken JSON", -1;
            if (r == CP_JSCAN_MORE) return 0;
            if (!value_done(p, why)) return -1;
            o->st = JO_NEXT;
            break;
        case JO_NEXT:
            if (!cp_ws(p)) return 0;
            c = (unsigned char)*cp_at(p);
            if (c == ',') {
                cp_take(p, 1, NULL);
                o->st = JO_KEY0;
                break;
            }
            if (c != '}') return *why = "expected ',' or '}'", -1;
            cp_take(p, 1, NULL);
            return obj_done(p, why);
        default:
            return *why = "internal state", -1;
        }
    }
}

void cp_args_init(struct chatparse *p) { p->jo.st = AS_OPEN; }

int cp_args_step(struct chatparse *p, const char **why) {
    struct cp_jobj *o = &p->jo;
    size_t n;
    if (o->st == AS_OPEN) {
        if (!cp_ws(p)) return 0;
        if (*cp_at(p) != '{') return *why = "the arguments are not a JSON object", -1;
        cp_jscan_init(&o->js);
        o->st = AS_IN;
    }
    int r = scan_run(&o->js, cp_at(p), cp_avail(p), &n);
    cp_call_args_put(p, cp_at(p), n);
    cp_take(p, n, NULL);
    if (r == CP_JSCAN_ERR) return *why = "broken JSON in the arguments", -1;
    return r == CP_JSCAN_DONE;
}

// ---- XML-style parameter values -------------------------------------------------------------
//
// A value is JSON when it parses as JSON, else a string. While it is a prefix of some JSON
// value (or, for Qwen3-Coder, of Python's True / False / None, which its template writes for
// booleans and null) it is held; once it cannot be, it streams as a JSON string.

//
// Seed-OSS's template writes lists and dicts with Python's str() (['a', 'b'], {'k': None}): in
// its format (cp_fmt_pyrepr) a value that begins with '[' or '{' is held whole and read at its
// end as a Python or JSON literal; one that is neither is a string.

enum { XV_UNDECIDED, XV_PYLIT, XV_JSON, XV_STRING, XV_PYREPR };

// ---- Python literals: str() of lists, tuples, dicts, strings, numbers, True / False / None ----

#define PY_MAX_DEPTH 64

static void py_ws(const char **s, const char *e) {
    while (*s < e && cp_is_ws((unsigned char)**s)) (*s)++;
}

// A quoted Python string at *s (its quote ' or "), decoded into p->tmp then written to out as a
// JSON string. Python's escapes: \\ \' \" \n \r \t \b \f, \xNN, \uNNNN, \UNNNNNNNN (not NUL or a
// lone surrogate), and JSON's (\/, surrogate pairs); another backslash stays as written.
static bool py_string(struct chatparse *p, const char **s, const char *e, struct cp_sbuf *out) {
    char q = *(*s)++;
    cp_sb_clear(&p->tmp);
    while (*s < e && **s != q) {
        char c = *(*s)++;
        if (c != '\\') {
            cp_sb_put(p, &p->tmp, &c, 1);
            continue;
        }
        if (*s == e) return false;
        c = *(*s)++;
        // ('/' for JSON's \/, which Python's str() never writes.)
        static const char esc[] = "\\'\"nrtbf/", dec[] = "\\'\"\n\r\t\b\f/";
        const char *simple = c ? strchr(esc, c) : NULL;
        if (simple) {
            cp_sb_put(p, &p->tmp, &dec[simple - esc], 1);
            continue;
        }
        int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
        if (!digits) {
            cp_sb_put(p, &p->tmp, "\\", 1);
            cp_sb_put(p, &p->tmp, &c, 1);
            continue;
        }
        uint32_t v = 0;
        for (int k = 0; k < digits; k++, (*s)++) {
            if (*s == e) return false;
            char h = **s;
            int d = h >= '0' && h <= '9' ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : -1;
            if (d < 0) return false;
            v = v * 16 + (uint32_t)d;
        }
        // JSON's surrogate pair (Python's str() writes the character itself).
        if (c == 'u' && v >= 0xD800 && v <= 0xDBFF && e - *s >= 6 && (*s)[0] == '\\' && (*s)[1] == 'u') {
            uint32_t lo = 0;
            for (int k = 2; k < 6; k++) {
                char h = (*s)[k];
                int d = h >= '0' && h <= '9' ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : -1;
                lo = d < 0 ? 0 : lo * 16 + (uint32_t)d;
            }
            if (lo >= 0xDC00 && lo <= 0xDFFF) v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00), *s += 6;
        }
        if (!v || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
        put_utf8(p, &p->tmp, v);
    }
    if (*s == e) return false;
    (*s)++;
    // (Its UTF-8 is checked with the whole arguments, at the call's end.)
    cp_json_put_string(p, out, p->tmp.p, p->tmp.n);
    return true;
}

static bool py_value(struct chatparse *p, const char **s, const char *e, struct cp_sbuf *out, int depth) {
    static const char *const words[] = {"True", "False", "None", "true", "false", "null"};
    static const char *const json[] = {"true", "false", "null", "true", "false", "null"};
    py_ws(s, e);
    if (*s == e || depth > PY_MAX_DEPTH) return false;
    char c = **s;
    if (c == '\'' || c == '"') return py_string(p, s, e, out);
    if (c == '[' || c == '(' || c == '{') {
        char close = c == '[' ? ']' : c == '(' ? ')' : '}';
        cp_sb_put(p, out, c == '{' ? "{" : "[", 1);
        (*s)++;
        for (int n = 0;; n++) {
            py_ws(s, e);
            if (*s < e && **s == close) break; // also after a trailing comma
            if (n && (*s == e || *(*s)++ != ',')) return false;
            py_ws(s, e);
            if (n && *s < e && **s == close) break;
            if (n) cp_sb_put(p, out, ", ", 2);
            if (c == '{') {
                py_ws(s, e);
                if (*s == e || (**s != '\'' && **s != '"') || !py_string(p, s, e, out)) return false;
                py_ws(s, e);
                if (*s == e || *(*s)++ != ':') return false;
                cp_sb_put(p, out, ": ", 2);
            }
            if (!py_value(p, s, e, out, depth + 1)) return false;
        }
        (*s)++;
        cp_sb_put(p, out, c == '{' ? "}" : "]", 1);
        return true;
    }
    for (int k = 0; k < 6; k++) {
        size_t l = strlen(words[k]);
        if ((size_t)(e - *s) >= l && !memcmp(*s, words[k], l)) {
            *s += l;
            cp_sb_puts(p, out, json[k]);
            return true;
        }
    }
    // A number: JSON's syntax, which Python's str() of ints and finite floats follows.
    struct cp_jscan j;
    cp_jscan_init(&j);
    const char *a = *s;
    while (*s < e && **s && strchr("-+.0123456789eE", **s)) {
        if (cp_jscan_byte(&j, (unsigned char)**s) == CP_JSCAN_ERR) return false;
        (*s)++;
    }
    if (*s == a || !cp_jscan_end(&j)) return false;
    cp_sb_put(p, out, a, (size_t)(*s - a));
    return true;
}

// Whether s[0..n) is one Python (or JSON) literal; its JSON in p->out.
static bool py_literal(struct chatparse *p, const char *s, size_t n) {
    const char *e = s + n;
    cp_sb_clear(&p->out);
    if (!py_value(p, &s, e, &p->out, 0)) return false;
    py_ws(&s, e);
    return s == e;
}

void cp_xval_init(struct chatparse *p) {
    cp_sb_clear(&p->vbuf);
    p->xv.mode = XV_UNDECIDED;
    p->xv.done = 0;
    cp_jscan_init(&p->xv.js);
}

static const char *const py_lits[] = {"True", "False", "None"}, *const py_json[] = {"true", "false", "null"};

static int pylit(const char *s, size_t n, bool whole) {
    for (int k = 0; k < 3; k++)
        if ((whole ? n == strlen(py_lits[k]) : n <= strlen(py_lits[k])) && !memcmp(s, py_lits[k], n)) return k;
    return -1;
}

void cp_call_args_escaped(struct chatparse *p, const char *s, size_t n) {
    cp_sb_clear(&p->out);
    cp_json_put_escaped(p, &p->out, s, n);
    cp_call_args_put(p, p->out.p, p->out.n);
}

// vbuf[0, upto) becomes the beginning of a JSON string.
static void xval_stringify(struct chatparse *p, size_t upto) {
    cp_call_args_puts(p, "\"");
    cp_call_args_escaped(p, p->vbuf.p, upto);
    p->xv.mode = XV_STRING;
    p->xv.done = upto;
}

void cp_xval_init_string(struct chatparse *p) {
    cp_xval_init(p);
    xval_stringify(p, 0);
}

void cp_xval_feed(struct chatparse *p, bool py) {
    struct cp_xval *x = &p->xv;
    const char *v = p->vbuf.p;
    size_t n = p->vbuf.n;
    while (x->done < n) {
        int r;
        switch (x->mode) {
        case XV_STRING:
            cp_call_args_escaped(p, v + x->done, n - x->done);
            x->done = n;
            break;
        case XV_PYREPR: // held to the end
            x->done = n;
            break;
        case XV_UNDECIDED:
            if (py && cp_fmt_pyrepr(p) && (v[x->done] == '[' || v[x->done] == '{')) {
                bool lead = true; // only whitespace before it
                for (size_t i = 0; i < x->done; i++) lead = lead && cp_is_ws((unsigned char)v[i]);
                if (lead) {
                    x->mode = XV_PYREPR;
                    break;
                }
            }
            r = cp_jscan_byte(&x->js, (unsigned char)v[x->done]);
            if (r == CP_JSCAN_MORE || r == CP_JSCAN_DONE) {
                x->done++;
                if (r == CP_JSCAN_DONE) x->mode = XV_JSON;
            } else if (r == CP_JSCAN_DONE_BEFORE) {
                x->mode = XV_JSON; // the byte is looked at again as what follows the value
            } else if (py && pylit(v, x->done + 1, false) >= 0) {
                x->done++, x->mode = XV_PYLIT;
            } else {
                xval_stringify(p, x->done + 1);
            }
            break;
        case XV_PYLIT:
            if (pylit(v, x->done + 1, false) >= 0)
                x->done++;
            else
                xval_stringify(p, x->done + 1);
            break;
        case XV_JSON:
            if (cp_is_ws((unsigned char)v[x->done]))
                x->done++;
            else
                xval_stringify(p, x->done + 1);
            break;
        }
    }
}

void cp_xval_close(struct chatparse *p, bool py) {
    struct cp_xval *x = &p->xv;
    const char *v = p->vbuf.p;
    size_t n = p->vbuf.n;
    int k;
    if (x->mode == XV_PYREPR) {
        if (py_literal(p, v, n)) {
            cp_call_args_put(p, p->out.p, p->out.n);
            return;
        }
        x->mode = XV_UNDECIDED; // not a literal: the text as a string
    }
    if (x->mode == XV_UNDECIDED && cp_jscan_end(&x->js)) x->mode = XV_JSON;
    if (x->mode == XV_PYLIT && py && (k = pylit(v, n, true)) >= 0) {
        cp_call_args_puts(p, py_json[k]);
        return;
    }
    if (x->mode == XV_JSON) {
        size_t a = 0;
        while (a < n && cp_is_ws((unsigned char)v[a])) a++;
        while (n > a && cp_is_ws((unsigned char)v[n - 1])) n--;
        cp_call_args_put(p, v + a, n - a);
        return;
    }
    if (x->mode != XV_STRING) xval_stringify(p, n);
    cp_call_args_puts(p, "\"");
}

bool cp_xval_read(struct chatparse *p, const char *const *ends, bool py) {
    int which;
    int r = cp_until(p, ends, &p->vbuf, SIZE_MAX, &which); // no cap: never R_NO
    cp_xval_feed(p, py);
    if (r == R_MORE) return false;
    cp_xval_close(p, py);
    return true;
}

bool cp_raw_string_read(struct chatparse *p, const char *const *ends) {
    int which;
    cp_sb_clear(&p->tmp);
    int r = cp_until(p, ends, &p->tmp, SIZE_MAX, &which); // no cap: never R_NO
    cp_call_args_escaped(p, p->tmp.p, p->tmp.n);
    if (r == R_MORE) return false;
    cp_call_args_puts(p, "\"");
    return true;
}

void cp_xparam_key(struct chatparse *p, const char *k, size_t n) {
    cp_sb_clear(&p->out);
    if (p->call.nparams++) cp_sb_put(p, &p->out, ", ", 2);
    cp_json_put_string(p, &p->out, k, n);
    cp_sb_put(p, &p->out, ": ", 2);
    cp_call_args_put(p, p->out.p, p->out.n);
}
