// jinja_format.c — Python's two string formattings as templates use them: "fmt" % args (printf
// style: flags, width, precision, *, %(name)s with a mapping) and str.format() (auto and manual
// field numbering, .attr and [key] lookups, !r/!s, the format-spec mini-language with fill,
// alignment, sign, #, 0, width, grouping, precision and type). The sandbox runs str.format through
// string.Formatter, whose messages (tuple index out of range) are the ones reproduced here.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "template/jinja_int.h"

static bool is_intlike(struct jv v) { return v.k == JV_INT || v.k == JV_BOOL; }
static int64_t as_i(struct jv v) { return v.k == JV_BOOL ? v.b : v.i; }

// ---- printf-style formatting: "fmt" % args -------------------------------------------------------

// Pads `body` (already formatted) to `width` code points: left-justified with '-'.
static void pad_put(struct jbuf *b, const char *body, size_t n, int64_t width, bool left) {
    int64_t len = (int64_t)ju_ncp(body, n);
    if (!left)
        for (int64_t i = len; i < width; i++) jbuf_putc(b, ' ');
    jbuf_put(b, body, n);
    if (left)
        for (int64_t i = len; i < width; i++) jbuf_putc(b, ' ');
}

// An integer in base 8/10/16 with Python's sign, prefix ('#') and padding rules.
static void fmt_int(struct jbuf *b, int64_t v, char type, const char *flags, int64_t width, int64_t prec) {
    bool left = strchr(flags, '-'), zero = strchr(flags, '0') && !left, alt = strchr(flags, '#');
    char digits[80];
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (type == 'x') snprintf(digits, sizeof digits, "%" PRIx64, u);
    else if (type == 'X') snprintf(digits, sizeof digits, "%" PRIX64, u);
    else if (type == 'o') snprintf(digits, sizeof digits, "%" PRIo64, u);
    else snprintf(digits, sizeof digits, "%" PRIu64, u);
    char sign[2] = {0};
    if (v < 0) sign[0] = '-';
    else if (strchr(flags, '+')) sign[0] = '+';
    else if (strchr(flags, ' ')) sign[0] = ' ';
    const char *prefix = !alt ? "" : type == 'x' ? "0x" : type == 'X' ? "0X" : type == 'o' ? "0o" : "";
    int64_t nd = (int64_t)strlen(digits), zeros = prec > nd ? prec - nd : 0;
    int64_t len = (int64_t)strlen(sign) + (int64_t)strlen(prefix) + zeros + nd;
    if (zero && width > len) zeros += width - len, len = width;
    if (!left)
        for (int64_t i = len; i < width; i++) jbuf_putc(b, ' ');
    jbuf_puts(b, sign);
    jbuf_puts(b, prefix);
    for (int64_t i = 0; i < zeros; i++) jbuf_putc(b, '0');
    jbuf_puts(b, digits);
    if (left)
        for (int64_t i = len; i < width; i++) jbuf_putc(b, ' ');
}

static void fmt_float(struct jbuf *b, double v, char type, const char *flags, int64_t width, int64_t prec) {
    char spec[32], *p = spec;
    *p++ = '%';
    for (const char *f = flags; *f; f++) *p++ = *f;
    strcpy(p, "*.*");
    p += 3;
    *p++ = type;
    *p = 0;
    if (prec < 0) prec = 6;
    if (width > 100000) width = 100000;
    if (prec > 1000) prec = 1000;
    jbuf_printf(b, spec, (int)width, (int)prec, v);
}

int jr_percent_format(struct jrender *r, struct jv fmtv, struct jv args, struct jv *out) {
    struct jstr *fmt = JSTR(fmtv);
    struct jv *argv = &args;
    size_t argc = 1, next = 0;
    // Python takes any argument with __getitem__ but a tuple or a str (a dict, a list, a range,
    // jinja2's Undefined) as a mapping: %(name)s looks names up in it, %s formats it whole, and
    // arguments left over are no error.
    uint8_t sub = args.k == JV_LIST ? JLIST(args)->sub : 0;
    bool map = args.k == JV_DICT || args.k == JV_UNDEF || (args.k == JV_LIST && (sub == JL_LIST || sub == JL_RANGE));
    if (args.k == JV_LIST && sub == JL_TUPLE) argv = JLIST(args)->v, argc = JLIST(args)->n;
    struct jbuf b = {.r = r};
    const char *s = fmt->s;
    size_t n = fmt->len;

    for (size_t i = 0; i < n;) {
        if (s[i] != '%') {
            size_t j = i;
            while (j < n && s[j] != '%') j++;
            jbuf_put(&b, s + i, j - i);
            i = j;
            continue;
        }
        i++;
        struct jv val = jv_undef();
        bool named = false;
        if (i < n && s[i] == '(') {
            size_t j = i + 1;
            int depth = 1;
            while (j < n && depth) {
                if (s[j] == '(') depth++;
                else if (s[j] == ')') depth--;
                if (depth) j++;
            }
            if (j >= n) goto incomplete;
            if (!map) {
                jbuf_free(&b);
                return jr_fail(r, "format requires a mapping");
            }
            if (args.k == JV_UNDEF) {
                jbuf_free(&b);
                return jr_undefined_error(r, args);
            }
            if (args.k != JV_DICT) {
                jbuf_free(&b);
                return jr_fail(r, "%s indices must be integers or slices, not str", jv_type_name(args));
            }
            struct jv *v = jdict_get_str(JDICT(args), s + i + 1, j - i - 1);
            if (!v) {
                jbuf_free(&b);
                return jr_fail(r, "'%.*s'", (int)(j - i - 1), s + i + 1);
            }
            val = *v;
            named = true;
            i = j + 1;
        }
        char flags[8];
        int nf = 0;
        while (i < n && strchr("-+ #0", s[i])) {
            if (nf < 7 && !memchr(flags, s[i], (size_t)nf)) flags[nf++] = s[i];
            i++;
        }
        flags[nf] = 0;
        int64_t width = -1, prec = -1;
        struct jv *pick[2] = {NULL, NULL};
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (i < n && s[i] == '.') {
                    i++;
                    prec = 0;
                } else break;
            }
            int64_t *dst = part ? &prec : &width;
            if (i < n && s[i] == '*') {
                i++;
                if (next >= argc || map) goto few;
                pick[part] = &argv[next++];
                if (!is_intlike(*pick[part])) {
                    jbuf_free(&b);
                    return jr_fail(r, "* wants int");
                }
                *dst = as_i(*pick[part]);
                if (!part && *dst < 0) {
                    *dst = -*dst;
                    if (nf < 7) flags[nf++] = '-', flags[nf] = 0;
                }
            } else {
                bool any = false;
                int64_t v = 0;
                while (i < n && s[i] >= '0' && s[i] <= '9') {
                    v = v * 10 + (s[i++] - '0');
                    if (v > 100000000) v = 100000000;
                    any = true;
                }
                if (any || part) *dst = any ? v : 0;
            }
        }
        while (i < n && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L')) i++;
        if (i >= n) goto incomplete;
        char type = s[i++];
        if (type == '%') {
            jbuf_putc(&b, '%');
            continue;
        }
        if (!named) {
            if (map) { // "%s" % {"a": 1} formats the dict itself, once
                if (next++) goto few;
                val = args;
            }
            else {
                if (next >= argc) goto few;
                val = argv[next++];
            }
        }
        if (width > 0 && !jr_reserve(r, (size_t)width)) {
            jbuf_free(&b);
            return -1;
        }
        switch (type) {
        case 's':
        case 'r':
        case 'a': {
            struct jbuf t = {.r = r};
            if (type == 's') jv_str_to(&t, val);
            else jv_repr_to(&t, val);
            if (fmtv.safe && !(type == 's' && val.k == JV_STR && val.safe)) { // Markup % args escapes them
                struct jv raw = jv_str(t.p ? t.p : "", t.n), esc;
                jbuf_free(&t);
                int rc = jr_escape(r, raw, &esc);
                jv_decref(raw);
                if (rc) {
                    jbuf_free(&b);
                    return -1;
                }
                jbuf_put(&t, JSTR(esc)->s, JSTR(esc)->len);
                jv_decref(esc);
            }
            size_t len = t.n;
            if (prec >= 0) len = ju_cp_offset(t.p ? t.p : "", t.n, (size_t)prec);
            pad_put(&b, t.p ? t.p : "", len, width, strchr(flags, '-'));
            jbuf_free(&t);
            break;
        }
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c': {
            int64_t v;
            if (is_intlike(val)) v = as_i(val);
            else if (val.k == JV_FLOAT && type != 'c' && type != 'x' && type != 'X' && type != 'o') {
                if (!isfinite(val.f) || fabs(val.f) >= 9.2e18) {
                    jbuf_free(&b);
                    return jr_fail(r, "cannot convert float %s to integer", isnan(val.f) ? "NaN" : "infinity");
                }
                v = (int64_t)val.f;
            } else if (type == 'c' && val.k == JV_STR && jstr_ncp(JSTR(val)) == 1) {
                pad_put(&b, JSTR(val)->s, JSTR(val)->len, width, strchr(flags, '-'));
                break;
            } else {
                jbuf_free(&b);
                if (type == 'c') return jr_fail(r, "%%c requires int or char");
                return jr_fail(r, "%%%c format: %s is required, not %s", type,
                               type == 'd' || type == 'i' || type == 'u' ? "a real number" : "an integer", jv_type_name(val));
            }
            if (type == 'c') {
                if (v < 0 || v > 0x10FFFF) {
                    jbuf_free(&b);
                    return jr_fail(r, "%%c arg not in range(0x110000)");
                }
                struct jbuf t = {.r = r};
                jbuf_put_cp(&t, (uint32_t)v);
                pad_put(&b, t.p, t.n, width, strchr(flags, '-'));
                jbuf_free(&t);
                break;
            }
            fmt_int(&b, v, type == 'i' || type == 'u' ? 'd' : type, flags, width, prec);
            break;
        }
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G': {
            double v;
            if (val.k == JV_FLOAT) v = val.f;
            else if (is_intlike(val)) v = (double)as_i(val);
            else {
                jbuf_free(&b);
                return jr_fail(r, "must be real number, not %s", jv_type_name(val));
            }
            fmt_float(&b, v, type, flags, width, prec);
            break;
        }
        default:
            jbuf_free(&b);
            return jr_fail(r, "unsupported format character '%c' (0x%x) at index %zu", type, (unsigned char)type, i - 1);
        }
    }
    if (!map && next < argc) {
        jbuf_free(&b);
        return jr_fail(r, "not all arguments converted during string formatting");
    }
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = fmtv.safe;
    return 0;
few:
    jbuf_free(&b);
    return jr_fail(r, "not enough arguments for format string");
incomplete:
    jbuf_free(&b);
    return jr_fail(r, "incomplete format");
}

// ---- str.format ---------------------------------------------------------------------------------

struct fspec {
    uint32_t fill;
    char align; // 0, '<', '>', '^', '='
    char sign;  // 0, '+', '-', ' '
    bool alt, zero;
    int64_t width, prec; // -1: none
    char group;          // 0, ',', '_'
    char type;           // 0 or the type letter
};

static int parse_spec(struct jrender *r, const char *s, size_t n, struct fspec *f) {
    memset(f, 0, sizeof *f);
    f->fill = ' ';
    f->width = f->prec = -1;
    size_t i = 0;
    size_t adv = 0;
    if (n) {
        uint32_t cp = ju_decode(s, n, &adv);
        if (adv < n && strchr("<>^=", s[adv])) {
            f->fill = cp;
            f->align = s[adv];
            i = adv + 1;
        } else if (strchr("<>^=", s[0])) {
            f->align = s[0];
            i = 1;
        }
    }
    if (i < n && strchr("+- ", s[i])) f->sign = s[i++];
    if (i < n && s[i] == '#') f->alt = true, i++;
    if (i < n && s[i] == '0') {
        f->zero = true;
        if (!f->align) f->fill = '0', f->align = '=';
        i++;
    }
    int64_t w = 0;
    bool any = false;
    while (i < n && s[i] >= '0' && s[i] <= '9') w = w * 10 + (s[i++] - '0'), any = true, w = w > 100000000 ? 100000000 : w;
    if (any) f->width = w;
    if (i < n && (s[i] == ',' || s[i] == '_')) f->group = s[i++];
    if (i < n && s[i] == '.') {
        i++;
        int64_t p = 0;
        any = false;
        while (i < n && s[i] >= '0' && s[i] <= '9') p = p * 10 + (s[i++] - '0'), any = true, p = p > 100000 ? 100000 : p;
        if (!any) return jr_fail(r, "Format specifier missing precision");
        f->prec = p;
    }
    if (i < n) f->type = s[i++];
    if (i < n) return jr_fail(r, "Invalid format specifier '%.*s'", (int)n, s);
    return 0;
}

static void put_aligned(struct jbuf *b, const struct fspec *f, const char *sign, const char *body, size_t n, char def_align) {
    int64_t len = (int64_t)ju_ncp(body, n) + (int64_t)strlen(sign);
    char align = f->align ? f->align : def_align;
    int64_t pad = f->width > len ? f->width - len : 0, left = 0, right = 0;
    if (align == '<') right = pad;
    else if (align == '>') left = pad;
    else if (align == '^') left = pad / 2, right = pad - pad / 2;
    if (align != '=')
        for (int64_t i = 0; i < left; i++) jbuf_put_cp(b, f->fill);
    jbuf_puts(b, sign);
    if (align == '=')
        for (int64_t i = 0; i < pad; i++) jbuf_put_cp(b, f->fill);
    jbuf_put(b, body, n);
    for (int64_t i = 0; i < right; i++) jbuf_put_cp(b, f->fill);
}

// Inserts thousands separators into the integer part of digits.
static void group_digits(const char *d, char sep, int every, struct jbuf *b) {
    size_t n = strlen(d), intlen = 0;
    while (intlen < n && d[intlen] >= '0' && d[intlen] <= '9') intlen++;
    for (size_t i = 0; i < intlen; i++) {
        if (i && (intlen - i) % (size_t)every == 0) jbuf_putc(b, sep);
        jbuf_putc(b, d[i]);
    }
    jbuf_puts(b, d + intlen);
}

static int format_value(struct jrender *r, struct jbuf *b, struct jv v, const char *spec, size_t sn) {
    struct fspec f;
    if (parse_spec(r, spec, sn, &f)) return -1;
    if (f.width > 0 && !jr_reserve(r, (size_t)f.width)) return -1;
    bool num = v.k == JV_INT || v.k == JV_FLOAT || (v.k == JV_BOOL && sn);
    if (!num) {
        if (v.k != JV_STR && sn) return jr_fail(r, "unsupported format string passed to %s.__format__", jv_type_name(v));
        if (f.type && f.type != 's') return jr_fail(r, "Unknown format code '%c' for object of type 'str'", f.type);
        if (f.sign) return jr_fail(r, "Sign not allowed in string format specifier");
        if (f.align == '=') return jr_fail(r, "'=' alignment not allowed in string format specifier");
        struct jbuf t = {.r = r};
        jv_str_to(&t, v);
        size_t len = t.n;
        if (f.prec >= 0) len = ju_cp_offset(t.p ? t.p : "", t.n, (size_t)f.prec);
        put_aligned(b, &f, "", t.p ? t.p : "", len, '<');
        jbuf_free(&t);
        return 0;
    }
    char type = f.type;
    bool is_int = v.k != JV_FLOAT;
    if (is_int && type && !strchr("bcdoxXneEfFgG%", type))
        return jr_fail(r, "Unknown format code '%c' for object of type 'int'", type);
    if (!is_int && type && !strchr("eEfFgGn%", type))
        return jr_fail(r, "Unknown format code '%c' for object of type 'float'", type);
    if (is_int && f.prec >= 0 && (!type || strchr("bcdoxXn", type)))
        return jr_fail(r, "Precision not allowed in integer format specifier");
    char body[512];
    const char *sign = "";
    if (is_int && (!type || strchr("bcdoxXn", type))) {
        int64_t x = v.k == JV_BOOL ? v.b : v.i;
        uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
        if (type == 'c') {
            struct jbuf t = {.r = r};
            jbuf_put_cp(&t, (uint32_t)u);
            put_aligned(b, &f, "", t.p, t.n, '<');
            jbuf_free(&t);
            return 0;
        }
        if (type == 'x') snprintf(body, sizeof body, "%s%" PRIx64, f.alt ? "0x" : "", u);
        else if (type == 'X') snprintf(body, sizeof body, "%s%" PRIX64, f.alt ? "0X" : "", u);
        else if (type == 'o') snprintf(body, sizeof body, "%s%" PRIo64, f.alt ? "0o" : "", u);
        else if (type == 'b') {
            char bits[70];
            int k = 0;
            do bits[k++] = (char)('0' + (u & 1)), u >>= 1;
            while (u);
            char *o = body;
            if (f.alt) *o++ = '0', *o++ = 'b';
            while (k) *o++ = bits[--k];
            *o = 0;
        } else snprintf(body, sizeof body, "%" PRIu64, u);
        sign = x < 0 ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
    } else {
        double x = v.k == JV_FLOAT ? v.f : (double)(v.k == JV_BOOL ? v.b : v.i);
        double ax = fabs(x);
        if (!type && f.prec < 0) {
            jfloat_repr(ax, body);
        } else {
            char t = type ? type : 'g';
            int64_t prec = f.prec >= 0 ? f.prec : 6;
            if (t == '%') {
                snprintf(body, sizeof body, "%.*f%%", (int)prec, ax * 100);
            } else {
                char c = t == 'n' ? 'g' : t;
                char spec2[16];
                snprintf(spec2, sizeof spec2, "%%%s.*%c", f.alt ? "#" : "", c);
                snprintf(body, sizeof body, spec2, (int)prec, ax);
                if (!type && !strchr(body, '.') && !strchr(body, 'e') && isfinite(ax)) strcat(body, ".0");
            }
        }
        sign = signbit(x) && !isnan(x) ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
    }
    if (f.group) {
        struct jbuf g = {.r = r};
        group_digits(body, f.group, type && strchr("bxXo", type) ? 4 : 3, &g);
        put_aligned(b, &f, sign, g.p ? g.p : "", g.n, '>');
        jbuf_free(&g);
    } else {
        put_aligned(b, &f, sign, body, strlen(body), '>');
    }
    return 0;
}

int jr_str_format(struct jrender *r, struct jstr *fmt, struct jargv *a, struct jv *out) {
    struct jbuf b = {.r = r};
    const char *s = fmt->s;
    size_t n = fmt->len;
    int auto_idx = 0;
    int mode = 0; // 1 automatic numbering, 2 manual
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '}') {
            if (i + 1 < n && s[i + 1] == '}') {
                jbuf_putc(&b, '}');
                i += 2;
                continue;
            }
            jbuf_free(&b);
            return jr_fail(r, "Single '}' encountered in format string");
        }
        if (c != '{') {
            jbuf_putc(&b, c);
            i++;
            continue;
        }
        if (i + 1 < n && s[i + 1] == '{') {
            jbuf_putc(&b, '{');
            i += 2;
            continue;
        }
        // {field!conv:spec}
        size_t j = i + 1;
        int depth = 1;
        while (j < n && depth) {
            if (s[j] == '{') depth++;
            else if (s[j] == '}') depth--;
            if (depth) j++;
        }
        if (j >= n) {
            jbuf_free(&b);
            return jr_fail(r, i + 1 == n ? "Single '{' encountered in format string" : "expected '}' before end of string");
        }
        const char *fs = s + i + 1;
        size_t fl = j - i - 1, k = 0;
        while (k < fl && fs[k] != '!' && fs[k] != ':' && fs[k] != '.' && fs[k] != '[') k++;
        struct jv val;
        if (k == 0) {
            if (mode == 2) goto switch_err;
            mode = 1;
            if (auto_idx >= a->npos) goto index_err;
            val = jv_incref(a->pos[auto_idx++]);
        } else if (fs[0] >= '0' && fs[0] <= '9') {
            if (mode == 1) goto switch_err;
            mode = 2;
            int64_t idx = 0;
            for (size_t q = 0; q < k; q++) {
                if (fs[q] < '0' || fs[q] > '9') {
                    jbuf_free(&b);
                    return jr_fail(r, "invalid field name in format string");
                }
                idx = idx * 10 + (fs[q] - '0');
                if (idx > 1000000) break;
            }
            if (idx >= a->npos) goto index_err;
            val = jv_incref(a->pos[idx]);
        } else {
            int q = 0;
            while (q < a->nkw && (strlen(a->kwn[q]) != k || memcmp(a->kwn[q], fs, k))) q++;
            if (q == a->nkw) {
                jbuf_free(&b);
                return jr_fail(r, "'%.*s'", (int)k, fs);
            }
            val = jv_incref(a->kwv[q]);
        }
        // .attr and [key] chains
        while (k < fl && (fs[k] == '.' || fs[k] == '[')) {
            struct jv next;
            int rc;
            if (fs[k] == '.') {
                size_t e = k + 1;
                while (e < fl && fs[e] != '.' && fs[e] != '[' && fs[e] != '!' && fs[e] != ':') e++;
                rc = jr_getattr(r, &val, fs + k + 1, e - k - 1, &next);
                k = e;
            } else {
                size_t e = k + 1;
                while (e < fl && fs[e] != ']') e++;
                struct jv key;
                bool digits = e > k + 1;
                int64_t idx = 0;
                for (size_t q = k + 1; q < e; q++) digits = digits && fs[q] >= '0' && fs[q] <= '9';
                if (digits) {
                    for (size_t q = k + 1; q < e; q++) idx = idx * 10 + (fs[q] - '0');
                    key = jv_int(idx);
                } else {
                    key = jv_str(fs + k + 1, e - k - 1);
                }
                rc = jr_getitem(r, &val, &key, &next);
                jv_decref(key);
                k = e < fl ? e + 1 : e;
            }
            jv_decref(val);
            if (rc) {
                jbuf_free(&b);
                return -1;
            }
            val = next;
        }
        char conv = 0;
        if (k < fl && fs[k] == '!') {
            conv = k + 1 < fl ? fs[k + 1] : 0;
            k += 2;
            if (conv != 'r' && conv != 's' && conv != 'a') {
                jv_decref(val);
                jbuf_free(&b);
                return jr_fail(r, "Unknown conversion specifier %c", conv ? conv : '?');
            }
        }
        const char *spec = "";
        size_t sl = 0;
        struct jbuf nested = {.r = r};
        if (k < fl && fs[k] == ':') {
            spec = fs + k + 1;
            sl = fl - k - 1;
            if (memchr(spec, '{', sl)) { // nested fields in the spec
                struct jv sv = jv_str(spec, sl), res;
                int rc = jr_str_format(r, JSTR(sv), a, &res);
                jv_decref(sv);
                if (rc) {
                    jv_decref(val);
                    jbuf_free(&b);
                    return -1;
                }
                jbuf_put(&nested, JSTR(res)->s, JSTR(res)->len);
                jv_decref(res);
                spec = nested.p ? nested.p : "";
                sl = nested.n;
            }
        }
        int rc;
        if (conv) {
            struct jbuf t = {.r = r};
            if (conv == 's') jv_str_to(&t, val);
            else jv_repr_to(&t, val);
            struct jv sv = jv_str(t.p ? t.p : "", t.n);
            jbuf_free(&t);
            rc = format_value(r, &b, sv, spec, sl);
            jv_decref(sv);
        } else {
            rc = format_value(r, &b, val, spec, sl);
        }
        jbuf_free(&nested);
        jv_decref(val);
        if (rc) {
            jbuf_free(&b);
            return -1;
        }
        i = j + 1;
    }
    return jr_str_from_buf(r, &b, out);
switch_err:
    jbuf_free(&b);
    return jr_fail(r, mode == 1 ? "cannot switch from automatic field numbering to manual field specification"
                                : "cannot switch from manual field specification to automatic field numbering");
index_err: // the sandbox's formatter is string.Formatter: args[i] raises IndexError
    jbuf_free(&b);
    return jr_fail(r, "tuple index out of range");
}
