#!/usr/bin/env python3
"""archs.py - the random-weight architecture fixtures, generated from the headers the tree keeps.

  scripts/archs.py header IN.gguf OUT.hdr     keep a GGUF's header (metadata and tensor table) and,
                                              after it, each tensor's mean, deviation and range
  scripts/archs.py build IN.hdr OUT.gguf      a GGUF with that header and seeded random weights
  scripts/archs.py type IN.hdr                the fixture's own type: F16 when any tensor is F16,
                                              else F32 (the goldens' names)

Each fixture's tensors are F32 or F16. Every value of a tensor is drawn from N(mean, deviation) of
the tensor it stands for (matrices N(0, 1/sqrt(fan_in)), norms near 1, small biases, the Gated
DeltaNet's decay and dt where the recurrence matters) and clamped to its range, by Python's Mersenne
Twister seeded with the tensor's name (CRC-32): a file is the same on every machine and run."""
import random
import struct
import sys
import zlib

TYPE_SIZE = {0: 4, 1: 2}


class Reader:
    def __init__(self, b):
        self.b, self.o = b, 0

    def take(self, n):
        if self.o + n > len(self.b):
            raise SystemExit("archs.py: the header is truncated")
        v = self.b[self.o:self.o + n]
        self.o += n
        return v

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def string(self):
        return self.take(self.u64())

    def value(self, t):
        fixed = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
        if t == 8:
            return self.string()
        if t == 9:
            et, n = self.u32(), self.u64()
            return [self.value(et) for _ in range(n)]
        if t not in fixed:
            raise SystemExit(f"archs.py: unknown metadata type {t}")
        raw = self.take(fixed[t])
        return struct.unpack({4: "<I", 5: "<i"}.get(t, f"<{fixed[t]}s"), raw)[0] if t in (4, 5) else raw


def parse(b):
    """(header length, alignment, [(name, dims, type, offset)])"""
    r = Reader(b)
    if r.take(4) != b"GGUF":
        raise SystemExit("archs.py: not a GGUF file")
    r.u32()
    n_tensors, n_kv = r.u64(), r.u64()
    align = 32
    for _ in range(n_kv):
        key = r.string()
        v = r.value(r.u32())
        if key == b"general.alignment":
            align = v
    tensors = []
    for _ in range(n_tensors):
        name = r.string().decode()
        dims = [r.u64() for _ in range(r.u32())]
        t = r.u32()
        tensors.append((name, dims, t, r.u64()))
    return r.o, align, tensors


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "type":
        _, _, tensors = parse(open(sys.argv[2], "rb").read())
        print("F16" if any(t == 1 for _, _, t, _ in tensors) else "F32")
        return
    if len(sys.argv) != 4 or sys.argv[1] not in ("header", "build"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    src = open(sys.argv[2], "rb").read()
    n, align, tensors = parse(src)
    if sys.argv[1] == "header":
        base = n + (-n % align)
        lines = []
        for name, dims, t, off in tensors:
            count = 1
            for d in dims:
                count *= d
            fmt = "f" if t == 0 else "e"
            v = struct.unpack_from(f"<{count}{fmt}", src, base + off)
            mean = sum(v) / count
            dev = (sum((x - mean) ** 2 for x in v) / count) ** 0.5
            lines.append(f"{name} {mean!r} {dev!r} {min(v)!r} {max(v)!r}\n")
        open(sys.argv[3], "wb").write(src[:n] + "".join(lines).encode())
        return
    stats = {}
    for line in src[n:].decode().splitlines():
        name, mean, dev, lo, hi = line.split()
        stats[name] = (float(mean), float(dev), float(lo), float(hi))
    out = bytearray(src[:n])
    out += b"\0" * (-len(out) % align)
    base = len(out)
    for name, dims, t, off in tensors:
        if t not in TYPE_SIZE:
            raise SystemExit(f"archs.py: {name}: type {t} (only F32 and F16 fixtures are generated)")
        count = 1
        for d in dims:
            count *= d
        if name not in stats:
            raise SystemExit(f"archs.py: {name}: no statistics in the header file")
        mean, dev, lo, hi = stats[name]
        rng = random.Random(zlib.crc32(name.encode()))
        vals = [min(hi, max(lo, rng.gauss(mean, dev))) for _ in range(count)]
        if base + off < len(out):
            raise SystemExit(f"archs.py: {name}: overlapping tensor offsets")
        out += b"\0" * (base + off - len(out))
        out += struct.pack(f"<{count}{'f' if t == 0 else 'e'}", *vals)
    out += b"\0" * (-len(out) % align)
    open(sys.argv[3], "wb").write(out)


if __name__ == "__main__":
    main()
