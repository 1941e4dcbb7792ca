#!/bin/bash
# Regenerates the golden embeddings tests/test_embed.c compares against, from the reference
# engine through the oracle's `embed` command (scripts/peer/oracle.c):
#
#   ORACLE=build/peer/oracle scripts/make-embed-golden.sh [fixtures...]
#
# Writes tests/data/golden/embed/<fixture>.ids (one input per line: three inputs of 3, 9 and 17
# tokens) and <fixture>-<pooling>.f32 (unnormalized float32: one vector per input, or one per
# token for none) for pooling none, mean, cls and last; rank too for qwen3-dense, whose fixture
# carries a classification head.
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${ORACLE:-build/peer/oracle}
G=tests/data/golden/embed
mkdir -p "$G"
# A deterministic id list of length n over a vocabulary of 128 (skipping 0..2), offset by o.
ids() { local n=$1 o=$2 s="" i; for ((i = 0; i < n; i++)); do s+="${s:+,}$(( (i * 7919 + 13 + o * 31) % 125 + 3 ))"; done; echo "$s"; }
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=(qwen3-dense llama-dense gemma3-dense qwen35-dense)
for fx in "${fixtures[@]}"; do
  a=$(ids 3 0) b=$(ids 9 1) c=$(ids 17 2)
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" > "$G/$fx.ids"
  for p in none mean cls last; do
    "$ORACLE" embed "tests/data/archs/$fx.gguf" "$p" "$G/$fx-$p.f32" "$a" "$b" "$c"
  done
  # rank: the classification head, which only the qwen3 fixture carries (cls.output)
  [ "$fx" = qwen3-dense ] && "$ORACLE" embed "tests/data/archs/$fx.gguf" rank "$G/$fx-rank.f32" "$a" "$b" "$c"
  echo "golden: embeddings of $fx"
done
