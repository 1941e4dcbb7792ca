#!/usr/bin/env python3
# Copies a GGUF, changing metadata values: gguf-set.py IN OUT KEY=VALUE...
# The value keeps the key's existing type (string, float, int, bool). Tensor
# data is copied unchanged; only the header is rewritten (gguf_rewrite.py).
# Used by make-golden.sh to derive fixture variants (e.g. gpt-oss with YaRN).
import struct, sys

from gguf_rewrite import SIZES, rewrite


def main():
    src, dst, sets = sys.argv[1], sys.argv[2], dict(a.split('=', 1) for a in sys.argv[3:])

    def edit(key, t, raw):
        if key not in sets: return raw
        v = sets.pop(key)
        if t == 8: return struct.pack('<Q', len(v.encode())) + v.encode()
        if t == 7: return struct.pack('<?', v.lower() in ('1', 'true'))
        if t in (6, 12): return struct.pack('<' + SIZES[t], float(v))
        return struct.pack('<' + SIZES[t], int(v))
    rewrite(src, dst, edit)
    if sets: sys.exit('keys not found: ' + ', '.join(sets))

main()
