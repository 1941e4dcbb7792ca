// unicode.h — the small slice of Unicode the tokenizers need, with llama.cpp's exact rules.
//
// Everything here reproduces llama.cpp (src/unicode.cpp) rather than "correct" Unicode: the
// UTF-8 decoder accepts overlong forms and surrogates, the categories are UCD 15.1 (utf8proc's
// general categories plus the 15.1 additions, see unicode.c), and the whitespace set is
// llama.cpp's fixed list. Token ids depend on these details.
#ifndef FRINK_UNICODE_H
#define FRINK_UNICODE_H

#include <stddef.h>
#include <stdint.h>

// Category flags (one of the low 8 bits is set for every code point) plus WHITESPACE.
enum {
    UNICODE_UNDEFINED = 0x0001,   // Cn and everything not listed
    UNICODE_NUMBER = 0x0002,      // N*
    UNICODE_LETTER = 0x0004,      // L*
    UNICODE_SEPARATOR = 0x0008,   // Z*
    UNICODE_MARK = 0x0010,        // M*
    UNICODE_PUNCTUATION = 0x0020, // P*
    UNICODE_SYMBOL = 0x0040,      // S*
    UNICODE_CONTROL = 0x0080,     // Cc Cf Co Cs
    UNICODE_WHITESPACE = 0x0100,  // llama.cpp's fixed set (see unicode.c)
    UNICODE_CATEGORY_MASK = 0x00FF,
};

#define UNICODE_MAX_CPT 0x110000u

// Flags of one code point (UNDEFINED for cpt >= 0x110000). Never 0.
uint16_t unicode_flags(uint32_t cpt);

// UTF-8 byte length implied by a lead byte's high nibble (0x0-0xB: 1, 0xC-0xD: 2, 0xE: 3,
// 0xF: 4). Continuation bytes count as 1, as in llama.cpp's unicode_len_utf8.
static inline size_t unicode_len_utf8(unsigned char c) {
    static const unsigned char lookup[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return lookup[c >> 4];
}

// Decodes `len` bytes into code points as llama.cpp does: structural checks only (lead bits
// and continuation bits), no overlong/surrogate/range checks; each byte that cannot start a
// sequence becomes U+FFFD and decoding resumes at the next byte. `out` needs `len` slots.
// Returns the number of code points.
size_t unicode_decode(const char *s, size_t len, uint32_t *out);

// Encodes one code point; returns 1-4 bytes, or 0 for cpt > 0x10FFFF (llama.cpp throws there).
int unicode_encode(uint32_t cpt, char out[4]);

// The reference's lower-case map and its NFD map (a code point to the first code point of its
// canonical decomposition: the base letter of an accented one), which BERT's WordPiece
// normalizer uses. utf8proc's simple mappings agree with the reference's tables on every code
// point (checked against llama.cpp's unicode-data.cpp when this was written).
uint32_t unicode_tolower(uint32_t cpt);
uint32_t unicode_nfd_first(uint32_t cpt);

// GPT-2 byte-level alphabet: byte -> code point (printable bytes map to themselves, the other
// 68 to U+0100..U+0143 in order), and the inverse (-1 for code points outside the alphabet).
uint32_t unicode_byte_to_cpt(uint8_t b);
int unicode_cpt_to_byte(uint32_t cpt);

#endif
