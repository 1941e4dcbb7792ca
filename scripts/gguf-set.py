#!/usr/bin/env python3
# Copies a GGUF, changing metadata values: gguf-set.py IN OUT KEY=VALUE...
# The value keeps the key's existing type (string, float, int, bool). Tensor
# data is copied unchanged; only the header is rewritten (and re-aligned).
# Used by make-golden.sh to derive fixture variants (e.g. gpt-oss with YaRN).
import struct, sys

SIZES = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}

def main():
    src, dst, sets = sys.argv[1], sys.argv[2], dict(a.split('=', 1) for a in sys.argv[3:])
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
    align = 32
    for _ in range(nkv):
        k = rstr(); t, = rd('I'); start = pos; skip(t); raw = d[start:pos]
        key = k.decode()
        if key == 'general.alignment': align = struct.unpack('<I', raw)[0]
        if key in sets:
            v = sets.pop(key)
            if t == 8: raw = struct.pack('<Q', len(v.encode())) + v.encode()
            elif t == 7: raw = struct.pack('<?', v.lower() in ('1', 'true'))
            elif t in (6, 12): raw = struct.pack('<' + SIZES[t], float(v))
            else: raw = struct.pack('<' + SIZES[t], int(v))
        out.append(struct.pack('<Q', len(k)) + k + struct.pack('<I', t) + raw)
    if sets: sys.exit('keys not found: ' + ', '.join(sets))
    start = pos
    for _ in range(nt):
        rstr(); nd, = rd('I'); take(8 * nd); take(12)
    out.append(d[start:pos])
    data_start = (pos + align - 1) // align * align
    hdr = b''.join(out)
    hdr += b'\0' * ((len(hdr) + align - 1) // align * align - len(hdr))
    open(dst, 'wb').write(hdr + d[data_start:])

main()
