#!/bin/bash
# Writes tests/data/vocab/extra/<vocab>.tsv: token ids from the reference tokenizer (llama.cpp,
# through the peer oracle) for texts the shipped upstream vectors do not cover. The tests read
# these files; only this script needs the oracle.
#
#   scripts/make-tok-golden.sh [ORACLE]     (default: $ORACLE or /tmp/frink-peer/oracle)
#
# The oracle prints comma-separated ids for `oracle tok MODEL TEXT`, tokenizing with
# add_special = true and parse_special = true; the test does the same. Line format:
#   escaped-text TAB ids        (text escapes: \\ \n \t \r and \xHH for other bytes
#                                 below 0x20, 0x7F and bytes that are not valid UTF-8)
# Lines starting with '#' are comments.
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${1:-${ORACLE:-/tmp/frink-peer/oracle}}
[ -x "$ORACLE" ] || { echo "oracle not found: $ORACLE" >&2; exit 1; }
mkdir -p tests/data/vocab/extra
exec python3 - "$ORACLE" <<'EOF'
import concurrent.futures, subprocess, sys

oracle = sys.argv[1]
vocabs = ["llama-spm", "phi-3", "llama-bpe", "qwen2", "qwen35", "gpt-2", "deepseek-llm",
          "deepseek-coder", "falcon", "mpt", "starcoder", "refact", "bert-bge"]

T = [
    # plain and multilingual
    "", "Hello, World!", "The quick brown fox jumps over the lazy dog.",
    "Größenordnung über Äpfel, naïve café, façade, smörgåsbord",
    "¿Dónde está la biblioteca? ¡Olé!",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Ελληνικά: Καλημέρα κόσμε, ΐ ΰ Ω K",
    "مرحبا بالعالم، كيف حالك؟ ١٢٣٤٥",
    "שלום עולם! זה מבחן.",
    "नमस्ते दुनिया, क्षत्रिय ज्ञान",
    "สวัสดีชาวโลก ภาษาไทยไม่มีช่องว่าง",
    "我想在apple工作1314151天～，你好！中文标点：《》",
    "日本語のテキスト、カタカナとひらがな。ｶﾀｶﾅ",
    "한국어 텍스트입니다. 안녕하세요!",
    "Tiếng Việt có dấu: Cửa Việt, người, trường",
    "İstanbul ıIiİ ǅ ǈ ß ẞ",
    # code
    "def foo(x):\n    return x ** 2  # square\n\nprint(foo(3))\n",
    "int main(void) {\n\tprintf(\"%d\\n\", 42);\n\treturn 0;\n}",
    "{\"key\": [1, 2.5, -3e10, true, null], \"nested\": {\"a\": \"b\"}}",
    "<div class=\"x\"><a href=\"https://example.com/path?q=1&r=2#frag\">link</a></div>",
    "cat file.txt | grep -E '^[a-z]+$' | sort -u > out.txt && echo $HOME",
    "x += 1; y -= 2; z *= 3; w /= 4; a <<= 5; b >>= 6; c ||= d && e != f",
    "user.name+tag@example.co.uk, http://localhost:8080/api/v1/",
    # numbers
    "1234567890 12345678901234567890", "3.14159 2.71828 -0.5 +7 1e-9 0x1F 0b1010",
    "1,000,000.00 $5.99 €10 ¥1000 £3", "٣٤٥ ①②③ ½ ¾ Ⅻ ⅷ ²³",
    "0000000 00 000000000001", "2024-01-15T10:30:00Z 12:34:56",
    # emoji and symbols
    "🦙🚀😁 👨‍👩‍👧‍👦 👍🏽 🇺🇸🇯🇵 ❤️‍🔥 ✅",
    "∀x∈ℝ: x²≥0 ⇒ √x ∃ ∑ ∫ ≈ ≠ ∞ αβγ",
    "©®™ ±×÷ §¶ •·… ‰ ‹›«» „“”‘’",
    # whitespace
    " ", "   ", "\t\t", "\n\n\n\n", " \n \n", "a  b   c    d", "word   ", "   word",
    "\r\n\r\nCRLF lines\r\n", "tab\tseparated\tvalues\n1\t2\t3",
    "nbsp\u00a0thin\u2009ideo\u3000line\u2028para\u2029nel\u0085end",
    "\u200bzero\u200dwidth\ufeffbom\u00adsoft",
    # special-token strings
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi<|im_end|>",
    "<s>hello</s> <unk> </s><s>", "<|endoftext|>Once upon<|endoftext|>",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>",
    "<|user|>\nhi <|end|>\n<|assistant|>  ok", "<｜fim▁begin｜>def<｜fim▁hole｜>x<｜fim▁end｜>",
    "<|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>", "[INST] hi [/INST]", "<|im_start",
    "  <|im_end|>  x", "<s><s><s>",
    # contractions and apostrophes
    "I've been 'told he's there, 'RE you sure? 'M not sure I'll make it, 'D you like tea?",
    "DON'T WON'T it'S we'Ve y'ALL 'll", "rock 'n' roll ''''' `` ' ' x ' y",
    # long words and repetition
    "Pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism",
    "a" * 300, "🦙" * 40, "9" * 100, "ab" * 120, "-=" * 50, "." * 64, "\n" * 40 + "x",
    # mixed scripts
    "abc中文123def", "Ελληνικά123abc", "x²+y³=z⁴ H₂O", "C++ & C# vs. F#; Go/Rust!",
    "mixedCASEWordsHere andCamelCase snake_case_words kebab-case-words",
    # combining marks
    "e\u0301 re\u0301sume\u0301 n\u0303o", "Z\u0338\u0322\u031ba\u0335l\u0334g\u0337o\u0336",
    "a\u0300" * 30,
    # Unicode version edges (15.1 additions; a 16.0 Garay letter; private use; last plane)
    "\u2ffc\u31ef \U0002EBF0\U0002EE5D \U00010D50\U00010D51 \ue000\U0010FFFD",
    # control characters
    "\x01\x02\x03 bell\x07 del\x7f esc\x1b[31mred\x1b[0m",
]
# invalid UTF-8 (the oracle aborts on 4-byte forms above U+10FFFF, so those are left out)
B = [b"a\xffb", b"\xc3(", b"tail\xe2\x82", b"\xed\xa0\x80 surrogate", b"\xc0\x80 overlong",
     b"\x80\x80 cont", b"caf\xe9 latin1", b"\xf0\x9f\xa6 cut emoji", b"\xfe\xfe\xff"]
texts = [t.encode("utf-8") for t in T] + B

def esc(b):
    out = []
    i = 0
    while i < len(b):
        c = b[i]
        if c == 0x5C: out.append("\\\\"); i += 1; continue
        if c == 0x0A: out.append("\\n"); i += 1; continue
        if c == 0x09: out.append("\\t"); i += 1; continue
        if c == 0x0D: out.append("\\r"); i += 1; continue
        if c < 0x20 or c == 0x7F: out.append("\\x%02x" % c); i += 1; continue
        if c < 0x80: out.append(chr(c)); i += 1; continue
        n = 2 if c >> 5 == 6 else 3 if c >> 4 == 14 else 4 if c >> 3 == 30 else 0
        try:
            if not n: raise ValueError
            out.append(b[i:i + n].decode("utf-8"))
            i += n
        except ValueError:  # UnicodeDecodeError too: keep the raw byte, escaped
            out.append("\\x%02x" % c)
            i += 1
    return "".join(out)

def run(v, t):
    r = subprocess.run([oracle, "tok", "tests/data/vocab/ggml-vocab-%s.gguf" % v, t],
                       capture_output=True)
    if r.returncode != 0:
        return None
    return r.stdout.decode().strip()

with concurrent.futures.ThreadPoolExecutor(max_workers=8) as ex:
    for v in vocabs:
        ids = list(ex.map(lambda t: run(v, t), texts))
        lines = ["# ggml-vocab-%s.gguf: ids from llama.cpp (add_special, parse_special);" % v,
                 "# generated by scripts/make-tok-golden.sh — do not edit"]
        skipped = 0
        for t, r in zip(texts, ids):
            if r is None:
                skipped += 1
                continue
            lines.append(esc(t) + "\t" + r)
        with open("tests/data/vocab/extra/%s.tsv" % v, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print("%-15s %d texts%s" % (v, len(texts) - skipped,
                                    " (%d rejected by the oracle)" % skipped if skipped else ""))
EOF
