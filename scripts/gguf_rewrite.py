# gguf_rewrite.py — copies a GGUF with some metadata values rewritten, for the scripts that derive
# fixture variants (gguf-set.py, gguf-charvocab.py). Tensor data is copied unchanged; only the
# header is rewritten (and re-aligned to the file's alignment).
import struct

SIZES = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}


def rewrite(src, dst, edit):
    """Copies src to dst; edit(key, type, raw) returns each metadata value's new raw bytes
    (raw: the value as stored after its type field; return it unchanged to keep it)."""
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
        raw = edit(key, t, raw)
        out.append(struct.pack('<Q', len(k)) + k + struct.pack('<I', t) + raw)
    start = pos
    for _ in range(nt):
        rstr(); nd, = rd('I'); take(8 * nd); take(12)
    out.append(d[start:pos])
    data_start = (pos + align - 1) // align * align
    hdr = b''.join(out)
    hdr += b'\0' * ((len(hdr) + align - 1) // align * align - len(hdr))
    open(dst, 'wb').write(hdr + d[data_start:])
