// jinja_lex.c — template source → tokens, as jinja2's lexer does it with trim_blocks and
// lstrip_blocks on:
//   - text between tags is data; a tag's `-` strips all whitespace (Python's, Unicode included)
//     on that side, `+` keeps it;
//   - lstrip_blocks: spaces and tabs between a line start and a {% or {# are dropped (never
//     before {{, and not with {%+);
//   - trim_blocks: one newline right after %} or #} is dropped (not after -%}, which strips all
//     whitespace, nor +%});
//   - inside a tag, an end delimiter only counts when brackets are balanced ({{ {'a': 1}}} works);
//   - {% raw %}…{% endraw %} is data (its opening tag does not trim the following newline).
// A lexing error becomes a JT_ERROR token where it happens, so that the parser reports whatever
// comes first in the source, as jinja2's lazy token stream does.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "template/jinja_int.h"

struct lexer {
    struct jinja_tmpl *t;
    const char *s;
    size_t n;
    struct jtok *tok;
    size_t ntok, cap;
    bool done; // an error token was emitted
};

static struct jtok *emit(struct lexer *lx, uint8_t kind, size_t pos) {
    if (lx->ntok == lx->cap) {
        lx->cap = lx->cap ? lx->cap * 2 : 256;
        lx->tok = jx_realloc(lx->tok, lx->cap * sizeof *lx->tok);
    }
    struct jtok *k = &lx->tok[lx->ntok++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->pos = (uint32_t)pos;
    return k;
}

static void lex_error(struct lexer *lx, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void lex_error(struct lexer *lx, size_t pos, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct jtok *k = emit(lx, JT_ERROR, pos);
    size_t m = strlen(msg);
    char *d = jarena_alloc(lx->t, m + 1);
    memcpy(d, msg, m);
    k->s = d;
    k->n = m;
    lx->done = true;
}

// Length of the Python-whitespace code point at s[i], 0 when it is not one.
static size_t space_at(const char *s, size_t n, size_t i) {
    if (i >= n) return 0;
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) return ju_isspace(c) ? 1 : 0;
    size_t adv;
    uint32_t cp = ju_decode(s + i, n - i, &adv);
    return ju_isspace(cp) ? adv : 0;
}

static size_t skip_space(const char *s, size_t n, size_t i) {
    size_t k;
    while ((k = space_at(s, n, i)) > 0) i += k;
    return i;
}

// Length of the text [a, b) once Python's str.rstrip() has run on it.
static size_t rstrip_end(const char *s, size_t a, size_t b) {
    while (b > a) {
        size_t i = b - 1;
        while (i > a && ((unsigned char)s[i] & 0xC0) == 0x80) i--; // the start of the last code point
        size_t adv;
        uint32_t cp = ju_decode(s + i, b - i, &adv);
        if (i + adv != b || !ju_isspace(cp)) break;
        b = i;
    }
    return b;
}

static bool starts(const struct lexer *lx, size_t i, const char *lit) {
    size_t m = strlen(lit);
    return i + m <= lx->n && memcmp(lx->s + i, lit, m) == 0;
}

// Emits the data text [a, b) before a tag whose strip sign is `sign`, applying `-` and
// lstrip_blocks (`lstrip`: the tag is a block, comment or raw tag).
static void emit_data(struct lexer *lx, size_t a, size_t b, char sign, bool lstrip, bool line_starting) {
    if (sign == '-') {
        b = rstrip_end(lx->s, a, b);
    } else if (sign != '+' && lstrip) {
        size_t l = b;
        while (l > a && lx->s[l - 1] != '\n') l--;
        if (l > a || line_starting) {
            size_t i = l;
            while (i < b && (lx->s[i] == ' ' || lx->s[i] == '\t')) i++;
            if (i == b) b = l;
        }
    }
    if (b > a) {
        struct jtok *k = emit(lx, JT_DATA, a);
        k->s = lx->s + a;
        k->n = b - a;
    }
}

// Python's unicode-escape decoding of a string literal's body [a, b) into the arena.
static bool decode_string(struct lexer *lx, size_t a, size_t b, struct jtok *k) {
    struct jbuf out = {0};
    const char *s = lx->s;
    for (size_t i = a; i < b;) {
        unsigned char c = (unsigned char)s[i];
        if (c != '\\' || i + 1 >= b) {
            jbuf_putc(&out, (char)c);
            i++;
            continue;
        }
        unsigned char e = (unsigned char)s[i + 1];
        i += 2;
        switch (e) {
        case '\n': break;
        case '\\': jbuf_putc(&out, '\\'); break;
        case '\'': jbuf_putc(&out, '\''); break;
        case '"': jbuf_putc(&out, '"'); break;
        case 'a': jbuf_putc(&out, '\a'); break;
        case 'b': jbuf_putc(&out, '\b'); break;
        case 'f': jbuf_putc(&out, '\f'); break;
        case 'n': jbuf_putc(&out, '\n'); break;
        case 'r': jbuf_putc(&out, '\r'); break;
        case 't': jbuf_putc(&out, '\t'); break;
        case 'v': jbuf_putc(&out, '\v'); break;
        case 'x':
        case 'u':
        case 'U': {
            int nd = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (int d = 0; d < nd; d++) {
                int h = i + d < b ? s[i + d] : 0;
                int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0) {
                    jbuf_free(&out);
                    lex_error(lx, i - 2, "truncated \\%c%s escape", e, e == 'x' ? "XX" : e == 'u' ? "XXXX" : "XXXXXXXX");
                    return false;
                }
                cp = cp * 16 + (uint32_t)v;
            }
            i += (size_t)nd;
            if (cp > 0x10FFFF) {
                jbuf_free(&out);
                lex_error(lx, i - 10, "illegal Unicode character");
                return false;
            }
            if (cp >= 0xD800 && cp < 0xE000) {
                jbuf_free(&out);
                lex_error(lx, i - 6, "a lone surrogate escape cannot be represented in UTF-8");
                return false;
            }
            jbuf_put_cp(&out, cp);
            break;
        }
        case 'N':
            jbuf_free(&out);
            lex_error(lx, i - 2, "\\N{...} escapes (Unicode character names) are not supported");
            return false;
        default:
            if (e >= '0' && e <= '7') {
                uint32_t cp = (uint32_t)(e - '0');
                for (int d = 0; d < 2 && i < b && s[i] >= '0' && s[i] <= '7'; d++) cp = cp * 8 + (uint32_t)(s[i++] - '0');
                jbuf_put_cp(&out, cp);
            } else if (e >= 0x80) {
                // jinja2 backslash-escapes non-ASCII text before decoding: "\é" reads as a
                // backslash then the text "xe9".
                size_t adv;
                uint32_t cp = ju_decode(s + i - 1, b - (i - 1), &adv);
                i += adv - 1;
                jbuf_putc(&out, '\\');
                if (cp < 0x100) jbuf_printf(&out, "x%02x", cp);
                else if (cp < 0x10000) jbuf_printf(&out, "u%04x", cp);
                else jbuf_printf(&out, "U%08x", cp);
            } else {
                jbuf_putc(&out, '\\');
                jbuf_putc(&out, (char)e);
            }
        }
    }
    char *d = jarena_alloc(lx->t, out.n + 1);
    if (out.n) memcpy(d, out.p, out.n);
    k->s = d;
    k->n = out.n;
    jbuf_free(&out);
    return true;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

// (\d+_)*\d+ from i: the end, or 0 when it does not match.
static size_t match_digits(const struct lexer *lx, size_t i) {
    if (i >= lx->n || !is_digit(lx->s[i])) return 0;
    for (;;) {
        while (i < lx->n && is_digit(lx->s[i])) i++;
        if (i + 1 < lx->n && lx->s[i] == '_' && is_digit(lx->s[i + 1])) {
            i++;
            continue;
        }
        return i;
    }
}

static size_t match_exponent(const struct lexer *lx, size_t i) {
    if (i >= lx->n || (lx->s[i] != 'e' && lx->s[i] != 'E')) return 0;
    i++;
    if (i < lx->n && (lx->s[i] == '+' || lx->s[i] == '-')) i++;
    return match_digits(lx, i);
}

static char *strip_underscores(struct lexer *lx, size_t a, size_t b) {
    char *d = jarena_alloc(lx->t, b - a + 1);
    size_t m = 0;
    for (size_t i = a; i < b; i++)
        if (lx->s[i] != '_') d[m++] = lx->s[i];
    d[m] = 0;
    return d;
}

// A number at i (a digit): emits it and returns its end.
static size_t lex_number(struct lexer *lx, size_t i) {
    const char *s = lx->s;
    if (i == 0 || s[i - 1] != '.') { // float_re's (?<!\.)
        size_t ip = match_digits(lx, i), end = 0;
        size_t fr = ip < lx->n && s[ip] == '.' ? match_digits(lx, ip + 1) : 0;
        size_t ex;
        if (fr && (ex = match_exponent(lx, fr))) end = ex;
        else if ((ex = match_exponent(lx, ip))) end = ex;
        else if (fr) end = fr;
        if (end) {
            struct jtok *k = emit(lx, JT_FLOAT, i);
            k->f = strtod(strip_underscores(lx, i, end), NULL);
            return end;
        }
    }
    int base = 10;
    size_t j = i, dstart = i;
    if (s[i] == '0' && i + 1 < lx->n && strchr("bBoOxX", s[i + 1]) && s[i + 1]) {
        int c = s[i + 1] | 0x20;
        base = c == 'b' ? 2 : c == 'o' ? 8 : 16;
        j = i + 2;
        dstart = j;
        size_t k2 = j;
        for (;;) {
            size_t q = k2;
            if (q < lx->n && s[q] == '_') q++;
            int h = q < lx->n ? s[q] | 0x20 : 0;
            int v = is_digit(h) ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : 99;
            if (v >= base) break;
            k2 = q + 1;
        }
        if (k2 == j) { // "0b" with no digit: the integer 0, then a name
            base = 10;
            j = i + 1;
            dstart = i;
        } else {
            j = k2;
        }
    } else if (s[i] == '0') {
        j = i + 1;
        while (j + 1 < lx->n && ((s[j] == '_' && s[j + 1] == '0') || s[j] == '0')) j += s[j] == '_' ? 2 : 1;
        if (j < lx->n && s[j] == '0') j++;
    } else {
        j = i + 1;
        for (;;) {
            if (j < lx->n && is_digit(s[j])) j++;
            else if (j + 1 < lx->n && s[j] == '_' && is_digit(s[j + 1])) j += 2;
            else break;
        }
    }
    uint64_t v = 0;
    bool over = false;
    for (size_t q = dstart; q < j; q++) {
        if (s[q] == '_') continue;
        int h = s[q] | 0x20;
        int d = is_digit(s[q]) ? s[q] - '0' : h - 'a' + 10;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) over = true;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (over || v > INT64_MAX) {
        lex_error(lx, i, "integer literal %.*s is too large (frink's integers are 64-bit)", (int)(j - i), s + i);
        return j;
    }
    struct jtok *k = emit(lx, JT_INT, i);
    k->i = (int64_t)v;
    return j;
}

static bool ident_cp(uint32_t cp, bool first) {
    if (cp < 0x80) return cp == '_' || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (!first && cp >= '0' && cp <= '9');
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
    switch (c) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_NL: return true;
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_PC: return !first;
    default: return false;
    }
}

static size_t ident_at(const struct lexer *lx, size_t i, bool first) {
    if (i >= lx->n) return 0;
    size_t adv;
    uint32_t cp = ju_decode(lx->s + i, lx->n - i, &adv);
    return ident_cp(cp, first) ? adv : 0;
}

static const char *const ops2[] = {"//", "**", "==", "!=", ">=", "<="};
static const char ops1[] = "+-/*%~[](){}><=.:|,;";

// An end delimiter with '-' ("-%}", "-}}") at i: emits kind, strips the whitespace after it and
// returns where the text resumes; *line_starting says whether that whitespace ended a line.
static size_t tag_end_trimmed(struct lexer *lx, size_t i, uint8_t kind, bool *line_starting) {
    emit(lx, kind, i);
    size_t e = skip_space(lx->s, lx->n, i + 3);
    *line_starting = e > i + 3 ? lx->s[e - 1] == '\n' : false;
    return e;
}

// The tokens of a {{ }} or {% %} tag from i (after its opening delimiter and sign) to its end
// delimiter; returns the position after it (and after what the end trims), and sets
// *line_starting.
static size_t lex_tag(struct lexer *lx, size_t i, bool block, bool *line_starting) {
    const char *s = lx->s;
    char stack[JINJA_MAX_NEST];
    int depth = 0;
    for (;;) {
        if (depth == 0) {
            if (block) {
                if (starts(lx, i, "+%}")) {
                    emit(lx, JT_BLOCK_END, i);
                    *line_starting = false;
                    return i + 3;
                }
                if (starts(lx, i, "-%}")) return tag_end_trimmed(lx, i, JT_BLOCK_END, line_starting);
                if (starts(lx, i, "%}")) {
                    emit(lx, JT_BLOCK_END, i);
                    size_t e = i + 2;
                    *line_starting = false;
                    if (e < lx->n && s[e] == '\n') e++, *line_starting = true;
                    return e;
                }
            } else {
                if (starts(lx, i, "-}}")) return tag_end_trimmed(lx, i, JT_VAR_END, line_starting);
                if (starts(lx, i, "}}")) {
                    emit(lx, JT_VAR_END, i);
                    *line_starting = false;
                    return i + 2;
                }
            }
        }
        if (i >= lx->n) {
            emit(lx, JT_EOF, i);
            lx->done = true;
            return i;
        }
        size_t k = space_at(s, lx->n, i);
        if (k) {
            i += k;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (is_digit(c)) {
            i = lex_number(lx, i);
            if (lx->done) return i;
            continue;
        }
        if ((k = ident_at(lx, i, true)) > 0) {
            size_t a = i;
            i += k;
            while ((k = ident_at(lx, i, false)) > 0) i += k;
            struct jtok *t = emit(lx, JT_NAME, a);
            char *d = jarena_alloc(lx->t, i - a + 1);
            memcpy(d, s + a, i - a);
            t->s = d;
            t->n = i - a;
            continue;
        }
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < lx->n && s[j] != (char)c) j += s[j] == '\\' && j + 1 < lx->n ? 2 : 1;
            if (j >= lx->n) {
                lex_error(lx, i, "unexpected char %s at %zu", c == '"' ? "'\"'" : "\"'\"", i);
                return i;
            }
            struct jtok *t = emit(lx, JT_STRING, i);
            if (!decode_string(lx, i + 1, j, t)) return i;
            i = j + 1;
            continue;
        }
        const char *op = NULL;
        for (size_t q = 0; q < sizeof ops2 / sizeof *ops2; q++)
            if (starts(lx, i, ops2[q])) op = ops2[q];
        char one[2] = {(char)c, 0};
        if (!op && c && strchr(ops1, c)) op = one;
        if (!op) {
            if (c >= 0x20 && c < 0x7f) lex_error(lx, i, "unexpected char '%c' at %zu", c, i);
            else lex_error(lx, i, "unexpected byte 0x%02x at %zu", c, i);
            return i;
        }
        size_t m = strlen(op);
        if (m == 1 && (c == '(' || c == '[' || c == '{')) {
            if (depth == JINJA_MAX_NEST) {
                lex_error(lx, i, "brackets nested more than %d deep", JINJA_MAX_NEST);
                return i;
            }
            stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (m == 1 && (c == ')' || c == ']' || c == '}')) {
            if (!depth) {
                lex_error(lx, i, "unexpected '%c'", c);
                return i;
            }
            if (stack[depth - 1] != (char)c) {
                lex_error(lx, i, "unexpected '%c', expected '%c'", c, stack[depth - 1]);
                return i;
            }
            depth--;
        }
        struct jtok *t = emit(lx, JT_OP, i);
        char *d = jarena_alloc(lx->t, m + 1);
        memcpy(d, op, m);
        t->s = d;
        t->n = m;
        i += m;
    }
}

// {%[-+]?\s*raw\s*(-%}\s*|%}) at i: the position after it, or 0.
static size_t match_raw_begin(const struct lexer *lx, size_t i, bool *line_starting) {
    size_t j = i + 2;
    if (j < lx->n && (lx->s[j] == '-' || lx->s[j] == '+')) j++;
    j = skip_space(lx->s, lx->n, j);
    if (!starts(lx, j, "raw")) return 0;
    j = skip_space(lx->s, lx->n, j + 3);
    if (starts(lx, j, "-%}")) {
        size_t e = skip_space(lx->s, lx->n, j + 3);
        *line_starting = e > j + 3 && lx->s[e - 1] == '\n';
        return e;
    }
    if (starts(lx, j, "%}")) {
        *line_starting = false;
        return j + 2;
    }
    return 0;
}

// {%[-+]?\s*endraw\s*(+%}|-%}\s*|%}\n?) at i: the end, its sign in *sign, or 0.
static size_t match_raw_end(const struct lexer *lx, size_t i, char *sign, bool *line_starting) {
    size_t j = i + 2;
    *sign = 0;
    if (j < lx->n && (lx->s[j] == '-' || lx->s[j] == '+')) *sign = lx->s[j++];
    j = skip_space(lx->s, lx->n, j);
    if (!starts(lx, j, "endraw")) return 0;
    j = skip_space(lx->s, lx->n, j + 6);
    *line_starting = false;
    if (starts(lx, j, "+%}")) return j + 3;
    if (starts(lx, j, "-%}")) {
        size_t e = skip_space(lx->s, lx->n, j + 3);
        *line_starting = e > j + 3 && lx->s[e - 1] == '\n';
        return e;
    }
    if (starts(lx, j, "%}")) {
        j += 2;
        if (j < lx->n && lx->s[j] == '\n') j++, *line_starting = true;
        return j;
    }
    return 0;
}

struct jtok *jinja_lex(struct jinja_tmpl *t, size_t *ntok) {
    struct lexer lx = {.t = t, .s = t->src, .n = t->len};
    const char *s = lx.s;
    size_t i = 0;
    bool line_starting = true;
    while (i < lx.n && !lx.done) {
        size_t p = i;
        while (p + 1 < lx.n && !(s[p] == '{' && (s[p + 1] == '{' || s[p + 1] == '%' || s[p + 1] == '#'))) p++;
        if (p + 1 >= lx.n) {
            emit_data(&lx, i, lx.n, 0, false, line_starting);
            break;
        }
        char kind = s[p + 1];
        char sign = p + 2 < lx.n && (s[p + 2] == '-' || s[p + 2] == '+') ? s[p + 2] : 0;
        bool ls_after = false;
        size_t raw_body = kind == '%' ? match_raw_begin(&lx, p, &ls_after) : 0;
        emit_data(&lx, i, p, sign, kind != '{', line_starting);
        size_t after = p + 2 + (sign ? 1 : 0);
        if (raw_body) {
            // The body runs to the first {% endraw %}.
            size_t q = raw_body, end = 0;
            char esign = 0;
            bool ls_end = false;
            for (; q + 1 < lx.n; q++)
                if (s[q] == '{' && s[q + 1] == '%' && (end = match_raw_end(&lx, q, &esign, &ls_end))) break;
            if (!end) {
                lex_error(&lx, p, "Missing end of raw directive");
                break;
            }
            emit_data(&lx, raw_body, q, esign, true, ls_after);
            line_starting = ls_end;
            i = end;
        } else if (kind == '#') {
            size_t q = after, end = 0;
            line_starting = false;
            for (; q < lx.n; q++) {
                if (starts(&lx, q, "+#}")) {
                    end = q + 3;
                    break;
                }
                if (starts(&lx, q, "-#}")) {
                    end = skip_space(s, lx.n, q + 3);
                    line_starting = end > q + 3 && s[end - 1] == '\n';
                    break;
                }
                if (starts(&lx, q, "#}")) {
                    end = q + 2;
                    if (end < lx.n && s[end] == '\n') end++, line_starting = true;
                    break;
                }
            }
            if (!end) {
                lex_error(&lx, p, "Missing end of comment tag");
                break;
            }
            i = end;
        } else {
            bool block = kind == '%';
            emit(&lx, block ? JT_BLOCK_BEGIN : JT_VAR_BEGIN, p);
            i = lex_tag(&lx, after, block, &line_starting);
        }
    }
    if (!lx.done) emit(&lx, JT_EOF, lx.n);
    *ntok = lx.ntok;
    return lx.tok;
}
