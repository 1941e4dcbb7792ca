#!/usr/bin/env python3
"""Writes a random importance matrix for a model GGUF, in llama-imatrix's GGUF format, for the
tests of `frink quantize --imatrix` (tests/data/imatrix/).

  scripts/make-imatrix.py MODEL.gguf OUT.imatrix.gguf [SEED]

Per weight NAME (2-D and up, named *.weight): NAME.in_sum2 (F32 [ne0, n_expert], sums of
squared activations) and NAME.counts (F32 [1, n_expert], tokens per expert; expert 1 of a MoE
tensor gets 0, which the reader turns into importances of 1), plus imatrix.datasets,
imatrix.chunk_count and imatrix.chunk_size. Plain Python (struct), no numpy.
"""
import random
import struct
import sys


def read_str(f):
    (n,) = struct.unpack('<Q', f.read(8))
    return f.read(n).decode('utf-8', 'replace')


SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def skip_value(f, t):
    if t == 8:
        read_str(f)
    elif t == 9:
        (et, n) = struct.unpack('<IQ', f.read(12))
        for _ in range(n):
            skip_value(f, et)
    else:
        f.read(SIZES[t])


def tensors(path):
    with open(path, 'rb') as f:
        magic, version, n_t, n_kv = struct.unpack('<4sIQQ', f.read(24))
        assert magic == b'GGUF', path
        for _ in range(n_kv):
            read_str(f)
            (t,) = struct.unpack('<I', f.read(4))
            skip_value(f, t)
        out = []
        for _ in range(n_t):
            name = read_str(f)
            (nd,) = struct.unpack('<I', f.read(4))
            ne = list(struct.unpack('<%dQ' % nd, f.read(8 * nd)))
            f.read(12)  # type, offset
            out.append((name, ne + [1] * (4 - nd)))
        return out


def put_str(b, s):
    s = s.encode()
    b += struct.pack('<Q', len(s)) + s


def main():
    model, out = sys.argv[1], sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    entries = []
    for name, ne in tensors(model):
        if not name.endswith('.weight') or max(ne[1:]) <= 1 or '_norm' in name:
            continue
        n_exp = ne[2]
        counts = [float(rng.randint(100, 5000)) for _ in range(n_exp)]
        if n_exp > 1:
            counts[1] = 0.0
        sums = [rng.uniform(0.01, 4.0) * counts[e] if counts[e] else 0.0 for e in range(n_exp) for _ in range(ne[0])]
        entries.append((name, ne[0], n_exp, sums, counts))
    b = bytearray()
    tinfo = []
    data = bytearray()
    for name, ne0, n_exp, sums, counts in entries:
        for tname, shape, vals in ((name + '.in_sum2', [ne0, n_exp], sums), (name + '.counts', [1, n_exp], counts)):
            off = len(data)
            data += struct.pack('<%df' % len(vals), *vals)
            data += b'\0' * ((32 - len(data) % 32) % 32)
            tinfo.append((tname, shape, off))
    kvs = []
    b += struct.pack('<4sIQQ', b'GGUF', 3, len(tinfo), 4)
    put_str(b, 'general.type'); b += struct.pack('<I', 8); put_str(b, 'imatrix')
    put_str(b, 'imatrix.datasets'); b += struct.pack('<IIQ', 9, 8, 1); put_str(b, 'frink-test-data.txt')
    put_str(b, 'imatrix.chunk_count'); b += struct.pack('<II', 4, 12)
    put_str(b, 'imatrix.chunk_size'); b += struct.pack('<II', 4, 512)
    for tname, shape, off in tinfo:
        put_str(b, tname)
        b += struct.pack('<I', len(shape)) + struct.pack('<%dQ' % len(shape), *shape) + struct.pack('<IQ', 0, off)
    b += b'\0' * ((32 - len(b) % 32) % 32)
    with open(out, 'wb') as f:
        f.write(b)
        f.write(data)


if __name__ == '__main__':
    main()
