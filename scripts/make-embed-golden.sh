#!/bin/bash
# Regenerates the golden embeddings tests/test_embed.c compares against, from the reference
# engine through the oracle's `embed` command (scripts/peer/oracle.c):
#
#   ORACLE=build/peer/oracle scripts/make-embed-golden.sh [fixtures...]
#
# Writes tests/data/golden/embed/<fixture>.ids (one input per line: three inputs of 3, 9 and 17
# tokens) and <fixture>-<pooling>.f32 (unnormalized float32: one vector per input, or one per
# token for none) for pooling none, mean, cls and last; rank too for qwen3-dense, bert-rank-tiny,
# neo-bert-tiny, the modern-bert fixtures and jina-bert-v2-tiny, whose fixtures carry a
# classification head. The encoder fixtures (bert-tiny, bert-rank-tiny, nomic-bert-tiny,
# neo-bert-tiny, eurobert-tiny, modern-bert-tiny, modern-bert-swiglu-tiny, jina-bert-v2-tiny) are
# `frink gen`'s (FRINK, default build/frink) on the bge WordPiece vocabulary, their inputs real
# texts.
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${ORACLE:-build/peer/oracle}
G=tests/data/golden/embed
mkdir -p "$G"
# A deterministic id list of length n over a vocabulary of 128 (skipping 0..2), offset by o.
ids() { local n=$1 o=$2 s="" i; for ((i = 0; i < n; i++)); do s+="${s:+,}$(( (i * 7919 + 13 + o * 31) % 125 + 3 ))"; done; echo "$s"; }
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=(qwen3-dense llama-dense gemma3-dense qwen35-dense bert-tiny bert-rank-tiny
  nomic-bert-tiny neo-bert-tiny eurobert-tiny modern-bert-tiny modern-bert-swiglu-tiny jina-bert-v2-tiny)
for fx in "${fixtures[@]}"; do
  gguf=tests/data/archs/$fx.gguf
  case $fx in
  bert-* | nomic-bert-* | neo-bert-* | eurobert-* | modern-bert-* | jina-bert-v2-*)
    # The encoders: `frink gen` (seed 1) on bge's WordPiece vocabulary, into the ignored
    # tests/data/enc (tests/test_embed.c writes the same file when it is missing); three texts
    # as the reference tokenizes them, [CLS] ... [SEP].
    gguf=tests/data/enc/$fx.gguf
    mkdir -p tests/data/enc
    [ -f "$gguf" ] || "${FRINK:-build/frink}" gen --preset "$fx" -o "$gguf" >/dev/null
    a=$("$ORACLE" tok "$gguf" "Hello, world!")
    b=$("$ORACLE" tok "$gguf" "The quick brown fox jumps over the lazy dog.")
    c=$("$ORACLE" tok "$gguf" "Größenordnung über Äpfel: naïve café, 3.14159 and 中文 text for a longer input")
    ;;
  *) a=$(ids 3 0) b=$(ids 9 1) c=$(ids 17 2) ;;
  esac
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" > "$G/$fx.ids"
  for p in none mean cls last; do
    "$ORACLE" embed "$gguf" "$p" "$G/$fx-$p.f32" "$a" "$b" "$c"
  done
  # rank: the classification head, which the qwen3 fixture (cls.output), the BERT, NeoBERT and
  # ModernBERT rerankers (cls, cls.output) and the Jina one (cls alone) carry
  case $fx in qwen3-dense | bert-rank-tiny | neo-bert-* | modern-bert-* | jina-bert-v2-*) "$ORACLE" embed "$gguf" rank "$G/$fx-rank.f32" "$a" "$b" "$c" ;; esac
  echo "golden: embeddings of $fx"
done
