// unicode.c — UTF-8 coding, category lookup and the GPT-2 byte alphabet (see unicode.h).
#include "text/unicode.h"

uint16_t unicode_flags(uint32_t cpt) {
    // llama.cpp's WHITESPACE set: exactly these, no more (e.g. not U+180E or U+200B).
    static const uint32_t ws[] = {0x0085, 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};
    if (cpt >= UNICODE_MAX_CPT) return UNICODE_UNDEFINED;
    // Binary search for the last run start <= cpt.
    size_t lo = 0, hi = unicode_ranges_n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (unicode_ranges[mid].start <= cpt) lo = mid;
        else hi = mid;
    }
    uint16_t f = unicode_ranges[lo].flags;
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
