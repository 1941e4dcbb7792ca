#!/usr/bin/env python3
# Copies a GGUF whose vocabulary is a placeholder (the reference writer's fixtures: "tok_0"...,
# tokenizer model "test") with a working SentencePiece-style vocabulary of the same size:
# <unk> <s> </s>, "▁", the printable ASCII characters, then the placeholders. Any ASCII text
# then tokenizes, one token per character, so a fixture can be served over HTTP (the server
# suite's reranker: tests/data/archs/qwen3-dense.gguf has a classification head).
#   gguf-charvocab.py IN OUT
# Tensor data is copied unchanged; only the header is rewritten (gguf_rewrite.py).
import struct, sys

from gguf_rewrite import rewrite


def strarr(items):
    return struct.pack('<IQ', 8, len(items)) + b''.join(struct.pack('<Q', len(s)) + s for s in items)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    n_vocab = None

    def edit(key, t, raw):
        nonlocal n_vocab
        if key == 'tokenizer.ggml.tokens':
            n_vocab = struct.unpack('<Q', raw[4:12])[0]
            toks = [b'<unk>', b'<s>', b'</s>', '\u2581'.encode()] + [bytes([c]) for c in range(0x21, 0x7f)]
            toks += [b'tok_%d' % i for i in range(len(toks), n_vocab)]
            return strarr(toks[:n_vocab])
        if key == 'tokenizer.ggml.token_type':
            n = struct.unpack('<Q', raw[4:12])[0]
            return struct.pack('<IQ', 5, n) + struct.pack('<%di' % n, *([2, 3, 3] + [1] * (n - 3)))
        if key == 'tokenizer.ggml.scores':
            n = struct.unpack('<Q', raw[4:12])[0]
            return struct.pack('<IQ', 6, n) + struct.pack('<%df' % n, *([0.0] * n))
        if key == 'tokenizer.ggml.model':
            return struct.pack('<Q', 5) + b'llama'
        if key == 'tokenizer.ggml.add_bos_token':
            return struct.pack('<?', True)
        return raw
    rewrite(src, dst, edit)
    if n_vocab is None: sys.exit('no tokenizer.ggml.tokens in ' + src)

main()
