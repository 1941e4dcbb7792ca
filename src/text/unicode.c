// unicode.c — UTF-8 coding, category lookup (via utf8proc) and the GPT-2 byte alphabet (see
// unicode.h).
#include "text/unicode.h"

#include <utf8proc.h>

// General category -> flag, indexed by utf8proc_category_t (UTF8PROC_CATEGORY_CN = 0 .. CO = 29).
static const uint8_t category_flags[30] = {
    [UTF8PROC_CATEGORY_CN] = UNICODE_UNDEFINED,
    [UTF8PROC_CATEGORY_LU] = UNICODE_LETTER,
    [UTF8PROC_CATEGORY_LL] = UNICODE_LETTER,
    [UTF8PROC_CATEGORY_LT] = UNICODE_LETTER,
    [UTF8PROC_CATEGORY_LM] = UNICODE_LETTER,
    [UTF8PROC_CATEGORY_LO] = UNICODE_LETTER,
    [UTF8PROC_CATEGORY_MN] = UNICODE_MARK,
    [UTF8PROC_CATEGORY_MC] = UNICODE_MARK,
    [UTF8PROC_CATEGORY_ME] = UNICODE_MARK,
    [UTF8PROC_CATEGORY_ND] = UNICODE_NUMBER,
    [UTF8PROC_CATEGORY_NL] = UNICODE_NUMBER,
    [UTF8PROC_CATEGORY_NO] = UNICODE_NUMBER,
    [UTF8PROC_CATEGORY_PC] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PD] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PS] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PE] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PI] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PF] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_PO] = UNICODE_PUNCTUATION,
    [UTF8PROC_CATEGORY_SM] = UNICODE_SYMBOL,
    [UTF8PROC_CATEGORY_SC] = UNICODE_SYMBOL,
    [UTF8PROC_CATEGORY_SK] = UNICODE_SYMBOL,
    [UTF8PROC_CATEGORY_SO] = UNICODE_SYMBOL,
    [UTF8PROC_CATEGORY_ZS] = UNICODE_SEPARATOR,
    [UTF8PROC_CATEGORY_ZL] = UNICODE_SEPARATOR,
    [UTF8PROC_CATEGORY_ZP] = UNICODE_SEPARATOR,
    [UTF8PROC_CATEGORY_CC] = UNICODE_CONTROL,
    [UTF8PROC_CATEGORY_CF] = UNICODE_CONTROL,
    [UTF8PROC_CATEGORY_CS] = UNICODE_CONTROL,
    [UTF8PROC_CATEGORY_CO] = UNICODE_CONTROL,
};

static uint16_t category(uint32_t cpt) {
    // llama.cpp's tables are UCD 15.1; Debian's utf8proc 2.8 is Unicode 15.0. These are the
    // only code points assigned in 15.1, and token ids must match llama.cpp: IDS characters
    // U+2FFC..2FFF and CJK stroke U+31EF are So, CJK Extension I U+2EBF0..2EE5D is Lo.
    // (Unicode 16+ additions must stay UNDEFINED, as in llama.cpp; a newer utf8proc would
    // need them masked here.)
    if ((cpt >= 0x2FFC && cpt <= 0x2FFF) || cpt == 0x31EF) return UNICODE_SYMBOL;
    if (cpt >= 0x2EBF0 && cpt <= 0x2EE5D) return UNICODE_LETTER;
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cpt);
    return (unsigned)c < sizeof(category_flags) ? category_flags[c] : UNICODE_UNDEFINED;
}

uint16_t unicode_flags(uint32_t cpt) {
    // llama.cpp's WHITESPACE set: exactly these, no more (e.g. not U+180E or U+200B).
    static const uint32_t ws[] = {0x0085, 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};
    if (cpt >= UNICODE_MAX_CPT) return UNICODE_UNDEFINED;
    uint16_t f = category(cpt);
    if ((cpt >= 0x09 && cpt <= 0x0D) || cpt == 0x20 || (cpt >= 0x2000 && cpt <= 0x200A)) {
        f |= UNICODE_WHITESPACE;
    } else if (cpt >= 0x80) {
        for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++)
            if (ws[i] == cpt) f |= UNICODE_WHITESPACE;
    }
    return f;
}

size_t unicode_decode(const char *str, size_t len, uint32_t *out) {
    const unsigned char *s = (const unsigned char *)str;
    size_t n = 0, i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t need;
        uint32_t cpt;
        if (!(c & 0x80)) {
            out[n++] = c;
            i++;
            continue;
        }
        if (!(c & 0x40)) goto bad; // stray continuation byte
        if (!(c & 0x20)) need = 1, cpt = c & 0x1F;
        else if (!(c & 0x10)) need = 2, cpt = c & 0x0F;
        else if (!(c & 0x08)) need = 3, cpt = c & 0x07;
        else goto bad; // 0xF8..0xFF
        if (i + need >= len) goto bad; // truncated
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) goto bad;
            cpt = (cpt << 6) | (s[i + k] & 0x3F);
        }
        out[n++] = cpt;
        i += need + 1;
        continue;
    bad:
        out[n++] = 0xFFFD;
        i++;
    }
    return n;
}

int unicode_encode(uint32_t cpt, char out[4]) {
    if (cpt <= 0x7F) {
        out[0] = (char)cpt;
        return 1;
    }
    if (cpt <= 0x7FF) {
        out[0] = (char)(0xC0 | ((cpt >> 6) & 0x1F));
        out[1] = (char)(0x80 | (cpt & 0x3F));
        return 2;
    }
    if (cpt <= 0xFFFF) {
        out[0] = (char)(0xE0 | ((cpt >> 12) & 0x0F));
        out[1] = (char)(0x80 | ((cpt >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cpt & 0x3F));
        return 3;
    }
    if (cpt <= 0x10FFFF) {
        out[0] = (char)(0xF0 | ((cpt >> 18) & 0x07));
        out[1] = (char)(0x80 | ((cpt >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cpt >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cpt & 0x3F));
        return 4;
    }
    return 0;
}

static int byte_is_printable(unsigned b) {
    return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
}

uint32_t unicode_byte_to_cpt(uint8_t b) {
    if (byte_is_printable(b)) return b;
    // The n-th non-printable byte (in increasing order) maps to U+0100 + n.
    uint32_t n = 0;
    for (unsigned k = 0; k < b; k++) n += !byte_is_printable(k);
    return 0x100 + n;
}

int unicode_cpt_to_byte(uint32_t cpt) {
    if (cpt < 0x100) return byte_is_printable(cpt) ? (int)cpt : -1;
    if (cpt > 0x143) return -1;
    uint32_t n = cpt - 0x100;
    for (unsigned k = 0; k < 256; k++) {
        if (!byte_is_printable(k)) {
            if (n == 0) return (int)k;
            n--;
        }
    }
    return -1;
}

uint32_t unicode_tolower(uint32_t cpt) {
    return cpt < UNICODE_MAX_CPT ? (uint32_t)utf8proc_tolower((utf8proc_int32_t)cpt) : cpt;
}

uint32_t unicode_nfd_first(uint32_t cpt) {
    if (cpt >= UNICODE_MAX_CPT) return cpt;
    utf8proc_int32_t d[8];
    int boundclass = 0;
    utf8proc_ssize_t n = utf8proc_decompose_char((utf8proc_int32_t)cpt, d, 8, UTF8PROC_DECOMPOSE, &boundclass);
    return n > 0 ? (uint32_t)d[0] : cpt;
}
