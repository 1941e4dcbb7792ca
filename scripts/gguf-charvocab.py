#!/usr/bin/env python3
# Copies a GGUF whose vocabulary is a placeholder (the reference writer's fixtures: "tok_0"...,
# tokenizer model "test") with a working SentencePiece-style vocabulary of the same size:
# <unk> <s> </s>, "▁", the printable ASCII characters, then the placeholders. Any ASCII text
# then tokenizes, one token per character, so a fixture can be served over HTTP (the server
# suite's reranker: tests/data/archs/qwen3-dense.gguf has a classification head).
#   gguf-charvocab.py IN OUT
# Tensor data is copied unchanged; only the header is rewritten (and re-aligned), as gguf-set.py.
import struct, sys

SIZES = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}

def strarr(items):
    return struct.pack('<IQ', 8, len(items)) + b''.join(struct.pack('<Q', len(s)) + s for s in items)

def main():
    src, dst = sys.argv[1], sys.argv[2]
    d = open(src, 'rb').read()
    pos = 0
    def take(n):
        nonlocal pos
        b = d[pos:pos + n]; pos += n; return b
    def rd(fmt): return struct.unpack('<' + fmt, take(struct.calcsize('<' + fmt)))
    def rstr(): n, = rd('Q'); return take(n)
    def skip(t):
        if t == 8: rstr()
        elif t == 9:
            at, n = rd('IQ')
            for _ in range(n): skip(at)
        else: take(struct.calcsize(SIZES[t]))
    magic, ver, nt, nkv = take(4), *rd('IQQ')
    out = [magic, struct.pack('<IQQ', ver, nt, nkv)]
    align, n_vocab = 32, None
    for _ in range(nkv):
        k = rstr(); t, = rd('I'); start = pos; skip(t); raw = d[start:pos]
        key = k.decode()
        if key == 'general.alignment': align = struct.unpack('<I', raw)[0]
        if key == 'tokenizer.ggml.tokens':
            n_vocab = struct.unpack('<Q', raw[4:12])[0]
            toks = [b'<unk>', b'<s>', b'</s>', '\u2581'.encode()] + [bytes([c]) for c in range(0x21, 0x7f)]
            toks += [b'tok_%d' % i for i in range(len(toks), n_vocab)]
            raw = strarr(toks[:n_vocab])
        elif key == 'tokenizer.ggml.token_type':
            n = struct.unpack('<Q', raw[4:12])[0]
            raw = struct.pack('<IQ', 5, n) + struct.pack('<%di' % n, *([2, 3, 3] + [1] * (n - 3)))
        elif key == 'tokenizer.ggml.scores':
            n = struct.unpack('<Q', raw[4:12])[0]
            raw = struct.pack('<IQ', 6, n) + struct.pack('<%df' % n, *([0.0] * n))
        elif key == 'tokenizer.ggml.model':
            raw = struct.pack('<Q', 5) + b'llama'
        elif key == 'tokenizer.ggml.add_bos_token':
            raw = struct.pack('<?', True)
        out.append(struct.pack('<Q', len(k)) + k + struct.pack('<I', t) + raw)
    if n_vocab is None: sys.exit('no tokenizer.ggml.tokens in ' + src)
    start = pos
    for _ in range(nt):
        rstr(); nd, = rd('I'); take(8 * nd); take(12)
    out.append(d[start:pos])
    data_start = (pos + align - 1) // align * align
    hdr = b''.join(out)
    hdr += b'\0' * ((len(hdr) + align - 1) // align * align - len(hdr))
    open(dst, 'wb').write(hdr + d[data_start:])

main()
