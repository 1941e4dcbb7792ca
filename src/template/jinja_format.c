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

// The arguments of one "fmt" % args. Python takes any argument with __getitem__ but a tuple or a
// str (a dict, a list, a range, jinja2's Undefined) as a mapping: %(name)s looks names up in it,
// %s formats it whole, and arguments left over are no error.
struct pct_args {
    struct jv args;    // as given
    struct jv *argv;   // [argc]: a tuple's items, else &args
    size_t argc, next; // next: the first item not yet taken
    bool map;
};

// One conversion: %[(name)][flags][width][.precision][hlL]type.
struct pct_spec {
    char flags[8];       // each of "-+ #0" at most once, NUL-terminated
    int nf;              // strlen(flags)
    int64_t width, prec; // -1: none
    char type;
};

static int pct_few(struct jrender *r) { return jr_fail(r, "not enough arguments for format string"); }
static int pct_incomplete(struct jrender *r) { return jr_fail(r, "incomplete format"); }

// Reads "(name)" at s[*i] == '(' and looks name up in the mapping; *i moves past the ')'.
static int pct_named_arg(struct jrender *r, const struct pct_args *a, const char *s, size_t n, size_t *i, struct jv *val) {
    size_t j = *i + 1;
    int depth = 1;
    while (j < n && depth) {
        if (s[j] == '(') depth++;
        else if (s[j] == ')') depth--;
        if (depth) j++;
    }
    if (j >= n) return pct_incomplete(r);
    if (!a->map) return jr_fail(r, "format requires a mapping");
    if (a->args.k == JV_UNDEF) return jr_undefined_error(r, a->args);
    if (a->args.k != JV_DICT) return jr_fail(r, "%s indices must be integers or slices, not str", jv_type_name(a->args));
    struct jv *v = jdict_get_str(JDICT(a->args), s + *i + 1, j - *i - 1);
    if (!v) return jr_fail(r, "'%.*s'", (int)(j - *i - 1), s + *i + 1);
    *val = *v;
    *i = j + 1;
    return 0;
}

// Reads flags, width, precision (either may be '*', taken from the arguments), the ignored length
// modifiers and the type letter, from s[*i]; *i moves past the type.
static int pct_parse_spec(struct jrender *r, struct pct_args *a, const char *s, size_t n, size_t *i, struct pct_spec *sp) {
    size_t k = *i;
    sp->nf = 0;
    while (k < n && strchr("-+ #0", s[k])) {
        if (sp->nf < 7 && !memchr(sp->flags, s[k], (size_t)sp->nf)) sp->flags[sp->nf++] = s[k];
        k++;
    }
    sp->flags[sp->nf] = 0;
    sp->width = sp->prec = -1;
    for (int part = 0; part < 2; part++) {
        if (part == 1) {
            if (k < n && s[k] == '.') {
                k++;
                sp->prec = 0;
            } else break;
        }
        int64_t *dst = part ? &sp->prec : &sp->width;
        if (k < n && s[k] == '*') {
            k++;
            if (a->next >= a->argc || a->map) return pct_few(r);
            struct jv *pick = &a->argv[a->next++];
            if (!is_intlike(*pick)) return jr_fail(r, "* wants int");
            *dst = as_i(*pick);
            if (!part && *dst < 0) { // a negative '*' width left-justifies
                *dst = -*dst;
                if (sp->nf < 7) sp->flags[sp->nf++] = '-', sp->flags[sp->nf] = 0;
            }
        } else {
            bool any = false;
            int64_t v = 0;
            while (k < n && s[k] >= '0' && s[k] <= '9') {
                v = v * 10 + (s[k++] - '0');
                if (v > 100000000) v = 100000000;
                any = true;
            }
            if (any || part) *dst = any ? v : 0;
        }
    }
    while (k < n && (s[k] == 'h' || s[k] == 'l' || s[k] == 'L')) k++;
    if (k >= n) return pct_incomplete(r);
    sp->type = s[k++];
    *i = k;
    return 0;
}

// %s %r %a: str() or repr() of val, cut to the precision in code points; a Markup format string
// escapes what is not already safe.
static int pct_conv_string(struct jrender *r, struct jbuf *b, bool fmt_safe, struct jv val, const struct pct_spec *sp) {
    struct jbuf t = {.r = r};
    if (sp->type == 's') jv_str_to(&t, val);
    else jv_repr_to(&t, val);
    if (fmt_safe && !(sp->type == 's' && val.k == JV_STR && val.safe)) {
        struct jv raw = jv_str(t.p ? t.p : "", t.n), esc;
        jbuf_free(&t);
        int rc = jr_escape(r, raw, &esc);
        jv_decref(raw);
        if (rc) return -1;
        jbuf_put(&t, JSTR(esc)->s, JSTR(esc)->len);
        jv_decref(esc);
    }
    size_t len = t.n;
    if (sp->prec >= 0) len = ju_cp_offset(t.p ? t.p : "", t.n, (size_t)sp->prec);
    pad_put(b, t.p ? t.p : "", len, sp->width, strchr(sp->flags, '-'));
    jbuf_free(&t);
    return 0;
}

// %d %i %u %x %X %o %c: an int (or bool; a float truncated for the decimal ones), or for %c a
// code point or a one-character string.
static int pct_conv_integer(struct jrender *r, struct jbuf *b, struct jv val, const struct pct_spec *sp) {
    char type = sp->type;
    bool left = strchr(sp->flags, '-');
    int64_t v;
    if (is_intlike(val)) v = as_i(val);
    else if (val.k == JV_FLOAT && type != 'c' && type != 'x' && type != 'X' && type != 'o') {
        if (!isfinite(val.f) || fabs(val.f) >= 9.2e18)
            return jr_fail(r, "cannot convert float %s to integer", isnan(val.f) ? "NaN" : "infinity");
        v = (int64_t)val.f;
    } else if (type == 'c' && val.k == JV_STR && jstr_ncp(JSTR(val)) == 1) {
        pad_put(b, JSTR(val)->s, JSTR(val)->len, sp->width, left);
        return 0;
    } else {
        if (type == 'c') return jr_fail(r, "%%c requires int or char");
        return jr_fail(r, "%%%c format: %s is required, not %s", type,
                       type == 'd' || type == 'i' || type == 'u' ? "a real number" : "an integer", jv_type_name(val));
    }
    if (type == 'c') {
        if (v < 0 || v > 0x10FFFF) return jr_fail(r, "%%c arg not in range(0x110000)");
        struct jbuf t = {.r = r};
        jbuf_put_cp(&t, (uint32_t)v);
        pad_put(b, t.p, t.n, sp->width, left);
        jbuf_free(&t);
        return 0;
    }
    fmt_int(b, v, type == 'i' || type == 'u' ? 'd' : type, sp->flags, sp->width, sp->prec);
    return 0;
}

// %e %E %f %F %g %G: a float, int or bool.
static int pct_conv_float(struct jrender *r, struct jbuf *b, struct jv val, const struct pct_spec *sp) {
    double v;
    if (val.k == JV_FLOAT) v = val.f;
    else if (is_intlike(val)) v = (double)as_i(val);
    else return jr_fail(r, "must be real number, not %s", jv_type_name(val));
    fmt_float(b, v, sp->type, sp->flags, sp->width, sp->prec);
    return 0;
}

// One '%' conversion at s[*i] (just past the '%'), appended to b; *i moves past it.
static int pct_conversion(struct jrender *r, struct jbuf *b, bool fmt_safe, struct pct_args *a, const char *s, size_t n, size_t *i) {
    struct jv val = jv_undef();
    bool named = *i < n && s[*i] == '(';
    if (named && pct_named_arg(r, a, s, n, i, &val)) return -1;
    struct pct_spec sp;
    if (pct_parse_spec(r, a, s, n, i, &sp)) return -1;
    if (sp.type == '%') {
        jbuf_putc(b, '%');
        return 0;
    }
    if (!named) {
        if (a->map) { // "%s" % {"a": 1} formats the dict itself, once
            if (a->next++) return pct_few(r);
            val = a->args;
        } else {
            if (a->next >= a->argc) return pct_few(r);
            val = a->argv[a->next++];
        }
    }
    if (sp.width > 0 && !jr_reserve(r, (size_t)sp.width)) return -1;
    // memchr, not strchr: a NUL type byte is an unsupported character, not the terminator
    if (memchr("sra", sp.type, 3)) return pct_conv_string(r, b, fmt_safe, val, &sp);
    if (memchr("diuxXoc", sp.type, 7)) return pct_conv_integer(r, b, val, &sp);
    if (memchr("eEfFgG", sp.type, 6)) return pct_conv_float(r, b, val, &sp);
    return jr_fail(r, "unsupported format character '%c' (0x%x) at index %zu", sp.type, (unsigned char)sp.type, *i - 1);
}

int jr_percent_format(struct jrender *r, struct jv fmtv, struct jv args, struct jv *out) {
    struct jstr *fmt = JSTR(fmtv);
    uint8_t sub = args.k == JV_LIST ? JLIST(args)->sub : 0;
    struct pct_args a = {
        .args = args,
        .argv = &args,
        .argc = 1,
        .map = args.k == JV_DICT || args.k == JV_UNDEF || (args.k == JV_LIST && (sub == JL_LIST || sub == JL_RANGE)),
    };
    if (args.k == JV_LIST && sub == JL_TUPLE) a.argv = JLIST(args)->v, a.argc = JLIST(args)->n;
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
        if (pct_conversion(r, &b, fmtv.safe, &a, s, n, &i)) {
            jbuf_free(&b);
            return -1;
        }
    }
    if (!a.map && a.next < a.argc) {
        jbuf_free(&b);
        return jr_fail(r, "not all arguments converted during string formatting");
    }
    if (jr_str_from_buf(r, &b, out)) return -1;
    out->safe = fmtv.safe;
    return 0;
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

// A str (or any value, with an empty spec) under the spec: precision cuts, alignment pads.
static int format_string(struct jrender *r, struct jbuf *b, struct jv v, const struct fspec *f, size_t sn) {
    if (v.k != JV_STR && sn) return jr_fail(r, "unsupported format string passed to %s.__format__", jv_type_name(v));
    if (f->type && f->type != 's') return jr_fail(r, "Unknown format code '%c' for object of type 'str'", f->type);
    if (f->sign) return jr_fail(r, "Sign not allowed in string format specifier");
    if (f->align == '=') return jr_fail(r, "'=' alignment not allowed in string format specifier");
    struct jbuf t = {.r = r};
    jv_str_to(&t, v);
    size_t len = t.n;
    if (f->prec >= 0) len = ju_cp_offset(t.p ? t.p : "", t.n, (size_t)f->prec);
    put_aligned(b, f, "", t.p ? t.p : "", len, '<');
    jbuf_free(&t);
    return 0;
}

// The sign Python writes before a number's digits: '-' when negative, else the spec's '+' or ' '.
static const char *number_sign(const struct fspec *f, bool negative) {
    return negative ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
}

// Integer types b c d o x X n (and none) of an int or bool: the digits into body[512], *sign set.
// 'c' writes the code point to b itself and returns 1.
static int format_int_digits(struct jrender *r, struct jbuf *b, int64_t x, const struct fspec *f, char body[512], const char **sign) {
    char type = f->type;
    uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    if (type == 'c') {
        struct jbuf t = {.r = r};
        jbuf_put_cp(&t, (uint32_t)u);
        put_aligned(b, f, "", t.p, t.n, '<');
        jbuf_free(&t);
        return 1;
    }
    if (type == 'x') snprintf(body, 512, "%s%" PRIx64, f->alt ? "0x" : "", u);
    else if (type == 'X') snprintf(body, 512, "%s%" PRIX64, f->alt ? "0X" : "", u);
    else if (type == 'o') snprintf(body, 512, "%s%" PRIo64, f->alt ? "0o" : "", u);
    else if (type == 'b') {
        char bits[70];
        int k = 0;
        do bits[k++] = (char)('0' + (u & 1)), u >>= 1;
        while (u);
        char *o = body;
        if (f->alt) *o++ = '0', *o++ = 'b';
        while (k) *o++ = bits[--k];
        *o = 0;
    } else snprintf(body, 512, "%" PRIu64, u);
    *sign = number_sign(f, x < 0);
    return 0;
}

// Float types e E f F g G n % (and none: repr's shortest digits) of a number: the digits of its
// magnitude into body[512], *sign set.
static void format_float_digits(double x, const struct fspec *f, char body[512], const char **sign) {
    char type = f->type;
    double ax = fabs(x);
    if (!type && f->prec < 0) {
        jfloat_repr(ax, body);
    } else {
        char t = type ? type : 'g';
        int64_t prec = f->prec >= 0 ? f->prec : 6;
        if (t == '%') {
            snprintf(body, 512, "%.*f%%", (int)prec, ax * 100);
        } else {
            char c = t == 'n' ? 'g' : t;
            char spec2[16];
            snprintf(spec2, sizeof spec2, "%%%s.*%c", f->alt ? "#" : "", c);
            snprintf(body, 512, spec2, (int)prec, ax);
            if (!type && !strchr(body, '.') && !strchr(body, 'e') && isfinite(ax)) strcat(body, ".0");
        }
    }
    *sign = number_sign(f, signbit(x) && !isnan(x));
}

// An int, float or bool under the spec: type checks, digits, grouping, alignment.
static int format_number(struct jrender *r, struct jbuf *b, struct jv v, const struct fspec *f) {
    char type = f->type;
    bool is_int = v.k != JV_FLOAT;
    if (is_int && type && !strchr("bcdoxXneEfFgG%", type))
        return jr_fail(r, "Unknown format code '%c' for object of type 'int'", type);
    if (!is_int && type && !strchr("eEfFgGn%", type))
        return jr_fail(r, "Unknown format code '%c' for object of type 'float'", type);
    if (is_int && f->prec >= 0 && (!type || strchr("bcdoxXn", type)))
        return jr_fail(r, "Precision not allowed in integer format specifier");
    char body[512];
    const char *sign = "";
    if (is_int && (!type || strchr("bcdoxXn", type))) {
        if (format_int_digits(r, b, v.k == JV_BOOL ? v.b : v.i, f, body, &sign)) return 0;
    } else {
        format_float_digits(v.k == JV_FLOAT ? v.f : (double)(v.k == JV_BOOL ? v.b : v.i), f, body, &sign);
    }
    if (f->group) {
        struct jbuf g = {.r = r};
        group_digits(body, f->group, type && strchr("bxXo", type) ? 4 : 3, &g);
        put_aligned(b, f, sign, g.p ? g.p : "", g.n, '>');
        jbuf_free(&g);
    } else {
        put_aligned(b, f, sign, body, strlen(body), '>');
    }
    return 0;
}

static int format_value(struct jrender *r, struct jbuf *b, struct jv v, const char *spec, size_t sn) {
    struct fspec f;
    if (parse_spec(r, spec, sn, &f)) return -1;
    if (f.width > 0 && !jr_reserve(r, (size_t)f.width)) return -1;
    bool num = v.k == JV_INT || v.k == JV_FLOAT || (v.k == JV_BOOL && sn);
    return num ? format_number(r, b, v, &f) : format_string(r, b, v, &f, sn);
}

// How a format string numbers its fields: all automatic ({}) or all manual ({0}), never both.
struct sf_numbering {
    int mode; // 0 not yet known, 1 automatic, 2 manual
    int auto_idx;
};

// The argument a field names (fs[0..k): empty, digits or a keyword), a new reference in *val.
static int sf_field_arg(struct jrender *r, const struct jargv *a, struct sf_numbering *nb, const char *fs, size_t k, struct jv *val) {
    static const char *const switch_msg[] = {
        [1] = "cannot switch from automatic field numbering to manual field specification",
        [2] = "cannot switch from manual field specification to automatic field numbering",
    };
    // the sandbox's formatter is string.Formatter: args[i] raises IndexError
    static const char index_msg[] = "tuple index out of range";
    if (k == 0) {
        if (nb->mode == 2) return jr_fail(r, "%s", switch_msg[2]);
        nb->mode = 1;
        if (nb->auto_idx >= a->npos) return jr_fail(r, "%s", index_msg);
        *val = jv_incref(a->pos[nb->auto_idx++]);
    } else if (fs[0] >= '0' && fs[0] <= '9') {
        if (nb->mode == 1) return jr_fail(r, "%s", switch_msg[1]);
        nb->mode = 2;
        int64_t idx = 0;
        for (size_t q = 0; q < k; q++) {
            if (fs[q] < '0' || fs[q] > '9') return jr_fail(r, "invalid field name in format string");
            idx = idx * 10 + (fs[q] - '0');
            if (idx > 1000000) break;
        }
        if (idx >= a->npos) return jr_fail(r, "%s", index_msg);
        *val = jv_incref(a->pos[idx]);
    } else {
        int q = 0;
        while (q < a->nkw && (strlen(a->kwn[q]) != k || memcmp(a->kwn[q], fs, k))) q++;
        if (q == a->nkw) return jr_fail(r, "'%.*s'", (int)k, fs);
        *val = jv_incref(a->kwv[q]);
    }
    return 0;
}

// Follows the field's .attr and [key] chain from fs[*k], replacing *val (a reference it owns;
// released on error).
static int sf_field_chain(struct jrender *r, const char *fs, size_t fl, size_t *k, struct jv *val) {
    while (*k < fl && (fs[*k] == '.' || fs[*k] == '[')) {
        struct jv next;
        int rc;
        size_t at = *k;
        if (fs[at] == '.') {
            size_t e = at + 1;
            while (e < fl && fs[e] != '.' && fs[e] != '[' && fs[e] != '!' && fs[e] != ':') e++;
            rc = jr_getattr(r, val, fs + at + 1, e - at - 1, &next);
            *k = e;
        } else {
            size_t e = at + 1;
            while (e < fl && fs[e] != ']') e++;
            struct jv key;
            bool digits = e > at + 1;
            int64_t idx = 0;
            for (size_t q = at + 1; q < e; q++) digits = digits && fs[q] >= '0' && fs[q] <= '9';
            if (digits) {
                for (size_t q = at + 1; q < e; q++) idx = idx * 10 + (fs[q] - '0');
                key = jv_int(idx);
            } else {
                key = jv_str(fs + at + 1, e - at - 1);
            }
            rc = jr_getitem(r, val, &key, &next);
            jv_decref(key);
            *k = e < fl ? e + 1 : e;
        }
        jv_decref(*val);
        if (rc) return -1;
        *val = next;
    }
    return 0;
}

// Formats val (!r/!s/!a applied) under the spec fs[k..fl) (":spec", nested {fields} first
// expanded), appended to b.
static int sf_field_format(struct jrender *r, struct jbuf *b, struct jargv *a, struct jv val, const char *fs, size_t fl, size_t k) {
    char conv = 0;
    if (k < fl && fs[k] == '!') {
        conv = k + 1 < fl ? fs[k + 1] : 0;
        k += 2;
        if (conv != 'r' && conv != 's' && conv != 'a') return jr_fail(r, "Unknown conversion specifier %c", conv ? conv : '?');
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
            if (rc) return -1;
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
        rc = format_value(r, b, sv, spec, sl);
        jv_decref(sv);
    } else {
        rc = format_value(r, b, val, spec, sl);
    }
    jbuf_free(&nested);
    return rc;
}

// One replacement field {field!conv:spec} whose text is fs[0..fl), appended to b.
static int sf_field(struct jrender *r, struct jbuf *b, struct jargv *a, struct sf_numbering *nb, const char *fs, size_t fl) {
    size_t k = 0;
    while (k < fl && fs[k] != '!' && fs[k] != ':' && fs[k] != '.' && fs[k] != '[') k++;
    struct jv val;
    if (sf_field_arg(r, a, nb, fs, k, &val)) return -1;
    if (sf_field_chain(r, fs, fl, &k, &val)) return -1;
    int rc = sf_field_format(r, b, a, val, fs, fl, k);
    jv_decref(val);
    return rc;
}

int jr_str_format(struct jrender *r, struct jstr *fmt, struct jargv *a, struct jv *out) {
    struct jbuf b = {.r = r};
    const char *s = fmt->s;
    size_t n = fmt->len;
    struct sf_numbering nb = {0};
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
        size_t j = i + 1; // the '}' that closes this field
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
        if (sf_field(r, &b, a, &nb, s + i + 1, j - i - 1)) {
            jbuf_free(&b);
            return -1;
        }
        i = j + 1;
    }
    return jr_str_from_buf(r, &b, out);
}
