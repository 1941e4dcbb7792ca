#!/bin/bash
# Regenerates tests/data/quant/*.bin from llama.cpp's ggml (the reference library installed for the oracle, under $PEER).
# Usage: tools/peer/make-quant-golden.sh [PEER]     (PEER defaults to $PEER or /tmp/frink-peer)
# Needs an x86-64 CPU with AVX2/FMA/F16C: the SIMD dots come from ggml's "haswell" CPU backend.
set -euo pipefail
PEER=${1:-${PEER:-/tmp/frink-peer}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lib=$PEER/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64
out=$root/tests/data/quant
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=gnu17 -O1 -Wall -Wextra -o "$tmp/quantref" "$here/quantref.c" -I"$PEER/headers" \
   -L"$lib" -l:libggml-base.so -Wl,-rpath,"$lib" -ldl -lm
mkdir -p "$out"
"$tmp/quantref" "$out" "$lib"
du -ch "$out"/*.bin | tail -1
