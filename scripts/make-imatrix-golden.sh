#!/bin/bash
# The importance-matrix goldens of tests/test_imatrix.c: the reference's llama-imatrix on
# tests/data/calib.txt in chunks of 64 tokens, for the embedded stories260K (also with
# --process-output) and the `frink gen` presets qwen35-tiny, qwen35moe-tiny and qwen3next-tiny
# (seed 7, the Qwen3.5 vocabulary), into tests/data/imatrix/NAME.gguf, with the perplexity it
# prints ("Final estimate: PPL = X") in NAME.ppl.
#
#   scripts/make-imatrix-golden.sh
#
# Builds llama-imatrix from the reference's source bundle (the npm package's; in
# build/ref-archs beside the fixture writer, first time: minutes), and frink for `frink gen`.
set -euo pipefail
cd "$(dirname "$0")/.."
R=build/ref-archs
bundle=build/peer/node_modules/node-llama-cpp/llama/gitRelease.bundle
if [ ! -f "$bundle" ]; then
  echo "make-imatrix-golden: installing the reference (npm node-llama-cpp) into build/peer" >&2
  PEER="$(pwd)/build/peer" bash scripts/peer/setup.sh >/dev/null
fi
[ -d "$R/src/.git" ] || { mkdir -p "$R"; git clone -q "$bundle" "$R/src"; }
if [ ! -x "$R/build/bin/llama-imatrix" ]; then
  echo "make-imatrix-golden: building llama-imatrix from the reference's source (first time: minutes)" >&2
  cmake -S "$R/src" -B "$R/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=ON \
    -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_OPENSSL=OFF -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null
  ninja -C "$R/build" llama-imatrix >/dev/null
fi
make -s build/frink
G=tests/data/imatrix
mkdir -p "$G" tests/data/gen-vocab
imatrix() { # NAME MODEL [flags...]
  local name=$1 model=$2
  shift 2
  local log
  log=$("$R/build/bin/llama-imatrix" -m "$model" -f tests/data/calib.txt -c 64 -b 64 -t 2 -o "$G/$name.gguf" "$@" 2>&1) ||
    { echo "$log" >&2; exit 1; }
  sed -n 's/.*Final estimate: PPL = \([0-9.]*\).*/\1/p' <<<"$log" > "$G/$name.ppl"
  echo "make-imatrix-golden: $name: PPL $(cat "$G/$name.ppl")" >&2
}
imatrix stories260K models/stories260K.gguf
imatrix stories260K-output models/stories260K.gguf --process-output
for p in qwen35-tiny qwen35moe-tiny qwen3next-tiny; do
  m=tests/data/gen-vocab/$p.gguf
  [ -f "$m" ] || build/frink gen --preset "$p" --vocab tests/data/vocab/ggml-vocab-qwen35.gguf --seed 7 -o "$m" >/dev/null
  imatrix "$p" "$m"
done
