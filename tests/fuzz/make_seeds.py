#!/usr/bin/env python3
"""Writes the small, valid GGUF seed files for the fuzzer into tests/fuzz/seeds/.

Run from anywhere: python3 tests/fuzz/make_seeds.py. Each seed is a complete, valid file
(< 64 KiB): a dozen metadata pairs of every type, arrays of every element type, and a few
tensors of assorted types, padded to the alignment like the reference writers do.
"""
import os
import struct

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
FMT = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f",
       BOOL: "<B", U64: "<Q", I64: "<q", F64: "<d"}
# type id -> (block, bytes per block)
GEOM = {0: (1, 4), 1: (1, 2), 2: (32, 18), 8: (32, 34), 12: (256, 144), 14: (256, 210),
        24: (1, 1), 30: (1, 2), 39: (32, 17), 40: (64, 36), 41: (128, 18), 42: (64, 18)}


def s(b):
    b = b.encode() if isinstance(b, str) else b
    return struct.pack("<Q", len(b)) + b


def val(t, v):
    if t == STR:
        return s(v)
    if t == ARR:
        et, items = v
        out = struct.pack("<IQ", et, len(items))
        return out + b"".join(val(et, x) for x in items)
    return struct.pack(FMT[t], v)


def gguf(kvs, tensors, version=3, align=32):
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    for k, t, v in kvs:
        out += s(k) + struct.pack("<I", t) + val(t, v)
    blob, off = b"", 0
    for name, ne, typ in tensors:
        blk, bs = GEOM[typ]
        n = 1
        for d in ne[1:]:
            n *= d
        nbytes = ne[0] // blk * bs * n
        out += s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<q", d) for d in ne)
        out += struct.pack("<IQ", typ, off)
        data = bytes((i * 7 + len(name)) & 0xFF for i in range(nbytes))
        pad = (-nbytes) % align
        blob += data + b"\0" * pad
        off += nbytes + pad
    if tensors:
        out += b"\0" * ((-len(out)) % align)
    return out + blob


def every_type_kvs():
    return [
        ("general.architecture", STR, "llama"),
        ("general.name", STR, "seed"),
        ("x.u8", U8, 200), ("x.i8", I8, -5), ("x.u16", U16, 60000), ("x.i16", I16, -300),
        ("llama.context_length", U32, 128), ("x.i32", I32, -70000),
        ("llama.rope.freq_base", F32, 10000.0), ("x.bool", BOOL, 1),
        ("x.u64", U64, 1 << 40), ("x.i64", I64, -(1 << 40)), ("x.f64", F64, 0.25),
        ("x.arr.u8", ARR, (U8, [1, 2, 3])), ("x.arr.i8", ARR, (I8, [-1, 2])),
        ("x.arr.u16", ARR, (U16, [7])), ("x.arr.i16", ARR, (I16, [-7, 7])),
        ("x.arr.u32", ARR, (U32, [1, 2])), ("x.arr.i32", ARR, (I32, [-1, 0, 1])),
        ("x.arr.f32", ARR, (F32, [0.5, -1.5])), ("x.arr.bool", ARR, (BOOL, [0, 1])),
        ("x.arr.u64", ARR, (U64, [1 << 50])), ("x.arr.i64", ARR, (I64, [-(1 << 50)])),
        ("x.arr.f64", ARR, (F64, [3.5])), ("x.arr.empty", ARR, (I32, [])),
        ("tokenizer.ggml.tokens", ARR, (STR, ["<s>", "</s>", "a", "", "\u00e9t\u00e9"])),
    ]


def main():
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
    os.makedirs(d, exist_ok=True)
    seeds = {
        "v3_all_types.gguf": gguf(every_type_kvs(), [
            ("token_embd.weight", [8, 4], 0), ("output_norm.weight", [8], 0),
            ("blk.0.attn_q.weight", [32, 2], 8)]),
        "v2_small.gguf": gguf(every_type_kvs()[:12], [("a", [4], 1), ("b", [2, 3], 24)], version=2),
        "align64.gguf": gguf([("general.alignment", U32, 64), ("general.architecture", STR, "qwen2"),
                              ("x.arr.f32", ARR, (F32, [1.0] * 10))],
                             [("t0", [3], 0), ("t1", [64, 1, 2], 2), ("t2", [256], 12)], align=64),
        "vocab_only.gguf": gguf(every_type_kvs(), []),
        "quant_types.gguf": gguf([("general.architecture", STR, "x")],
                                 [("q6k", [256], 14), ("mx", [32, 2], 39), ("nv", [64], 40),
                                  ("q1", [128], 41), ("q2", [64], 42), ("bf", [2, 2, 2, 2], 30),
                                  ("empty", [0, 5], 0)]),
        "no_kv.gguf": gguf([], [("w", [16], 0)]),
    }
    for name, b in seeds.items():
        assert len(b) < 65536
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(b)
        print(name, len(b))


if __name__ == "__main__":
    main()
