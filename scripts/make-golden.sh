#!/bin/bash
# Regenerates the golden files the parity tests compare against, from the
# reference engine (llama.cpp through the oracle; see shared/peer/README.md).
#
#   ORACLE=/tmp/frink-peer/oracle scripts/make-golden.sh [names...]
#
# Writes tests/data/golden/<model>.{ids,batch.f32,decode.f32} and, for the
# quantized variants, tests/data/archs/q/<model>-<FMT>.gguf first (run scripts/fixtures.sh
# before; a new variant's checksum goes into tests/data/archs-q.sha256).
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${ORACLE:-/tmp/frink-peer/oracle}
G=tests/data/golden
Q=tests/data/archs/q
mkdir -p "$G" "$Q"

# ftype numbers (llama_ftype): 1 F16, 2 Q4_0, 7 Q8_0, 15 Q4_K_M, 18 Q6_K, 38 MXFP4 (MoE experts), 40 Q1_0
declare -A FT=([F16]=1 [BF16]=32 [Q4_0]=2 [Q8_0]=7 [Q4_K_M]=15 [Q6_K]=18 [MXFP4]=38 [Q1_0]=40)

# A deterministic id sequence of length n over a vocabulary of v (skipping 0..2, usually specials).
ids() { local n=$1 v=$2 s="" i; for ((i = 0; i < n; i++)); do s+="${s:+,}$(( (i * 7919 + 13) % (v - 3) + 3 ))"; done; echo "$s"; }

# golden NAME GGUF NTOK VOCAB: batch logits of every position and token-by-token logits.
golden() {
  local name=$1 gguf=$2 n=$3 v=$4
  local s; s=$(ids "$n" "$v")
  echo "$s" > "$G/$name.ids"
  "$ORACLE" logits "$gguf" "$s" "$G/$name.batch.f32" all
  "$ORACLE" seqlogits "$gguf" "$s" "$G/$name.decode.f32"
  echo "golden: $name ($n tokens)"
}

quant() { # quant BASE FMT -> path
  local base=$1 fmt=$2 out="$Q/$1-$2.gguf"
  [ -f "$out" ] || "$ORACLE" quantize "tests/data/archs/$base.gguf" "$out" "${FT[$fmt]}" >/dev/null 2>&1
  echo "$out"
}

want() { [ ${#SEL[@]} -eq 0 ] && return 0; local x; for x in "${SEL[@]}"; do [[ "$1" == $x* ]] && return 0; done; return 1; }
SEL=("$@")

# The embedded default model: greedy generations and logits.
if [ ${#SEL[@]} -eq 0 ] || want stories; then
  : > "$G/stories260K.gen"
  for p in "Once upon a time" "The little dog" "Lily wanted to" "One day, a big red ball" "Tom and Sue went to the park."; do
    ids_line=$("$ORACLE" gen models/stories260K.gguf "$p" 200 | head -1)
    printf '%s\t%s\n' "$p" "$ids_line" >> "$G/stories260K.gen"
  done
  golden stories260K models/stories260K.gguf 64 512
fi

for base in llama-dense; do
  want "$base" || continue
  golden "$base-F16" "tests/data/archs/$base.gguf" 24 128
  for fmt in Q8_0 Q4_0 Q4_K_M Q6_K; do golden "$base-$fmt" "$(quant "$base" "$fmt")" 24 128; done
done

# The hybrid Gated DeltaNet family: 200 tokens (prefixes of 1, 7, 64 are checked too).
for base in qwen35-dense qwen35moe-moe qwen3next-moe; do
  want "$base" || continue
  golden "$base-F16" "tests/data/archs/$base.gguf" 200 128
  for fmt in Q8_0 Q4_K_M Q1_0; do
    # Q1_0 needs rows that are multiples of 128: the MoE fixtures' 192-wide
    # shared expert is not, and the reference cannot load the file it writes.
    [[ "$base-$fmt" == *moe-Q1_0 ]] && continue
    golden "$base-$fmt" "$(quant "$base" "$fmt")" 200 128
  done
done
# The remaining formats of this path, on the dense hybrid: BF16 and Q6_K.
if want qwen35-dense-x; then
  for fmt in BF16 Q6_K; do golden "qwen35-dense-$fmt" "$(quant qwen35-dense "$fmt")" 200 128; done
fi

# Architecture breadth: F16 and one quantized mix each.
for base in llama-moe mistral3-dense smollm3-dense qwen2-dense qwen3-dense qwen3moe-moe qwen2moe-moe; do
  want "$base" || continue
  golden "$base-F16" "tests/data/archs/$base.gguf" 32 128
  golden "$base-Q4_K_M" "$(quant "$base" Q4_K_M)" 32 128
done

# More families: 64 tokens, twice the fixtures' 32-token sliding window, so the
# window (gemma2/gemma3/gpt-oss/olmo2) is exercised. "BASE:FMT": the quantized
# mix checked besides the fixture's own type (F16; deepseek2's fixture is F32).
for bf in gemma-dense:Q4_K_M gemma2-dense:Q4_K_M gemma3-dense:Q4_K_M phi3-dense:Q4_K_M gpt-oss-moe:MXFP4 \
          olmo2-dense:Q4_K_M olmoe-moe:Q4_K_M granite-dense:Q4_K_M granitemoe-moe:Q4_K_M deepseek2-moe:Q8_0 \
          falcon-dense:Q4_K_M gptneox-dense:Q4_K_M starcoder2-dense:Q4_K_M bloom-dense:Q4_K_M mpt-dense:Q4_K_M; do
  base=${bf%%:*} fmt=${bf##*:}
  want "$base" || continue
  own=F16; [ "$base" = deepseek2-moe ] && own=F32
  golden "$base-$own" "tests/data/archs/$base.gguf" 64 128
  golden "$base-$fmt" "$(quant "$base" "$fmt")" 64 128
done

# gpt-oss as shipped uses YaRN (factor 32); the fixture says linear, so a
# variant with rope.scaling.type = yarn, factor 32 (ramp from the fixture's
# original context of 256) checks the YaRN angles and magnitude.
if want gpt-oss-moe-yarn; then
  python3 scripts/gguf-set.py tests/data/archs/gpt-oss-moe.gguf "$Q/gpt-oss-moe-yarn.gguf" \
    gpt-oss.rope.scaling.type=yarn gpt-oss.rope.scaling.factor=32
  golden gpt-oss-moe-yarn-F16 "$Q/gpt-oss-moe-yarn.gguf" 64 128
fi

# The reference's writer's fixtures (scripts/ref-archs.sh, tests/data/archs-w.list): the fixture's
# own type over 64 tokens (twice the fixtures' 32-token window), Q8_0 and Q4_K_M over 32.
# `make-golden.sh writer` makes them all; a base name makes that one. A fixture the reference
# cannot run (it fails to load or to decode) gets no golden and is listed.
wgolden() { # NAME GGUF NTOK: as golden (vocabulary 128), failing when the reference does
  local s; s=$(ids "$3" 128)
  echo "$s" > "$G/$1.ids"
  "$ORACLE" logits "$2" "$s" "$G/$1.batch.f32" all >/dev/null 2>&1 &&
    "$ORACLE" seqlogits "$2" "$s" "$G/$1.decode.f32" >/dev/null 2>&1 && echo "golden: $1 ($3 tokens)"
}
if [ -f tests/data/archs-w.list ]; then
  while read -r base; do
    [ -n "$base" ] && [ "${base:0:1}" != "#" ] || continue
    { [ ${#SEL[@]} -eq 1 ] && [ "${SEL[0]}" = writer ]; } || want "$base" || continue
    [ ${#SEL[@]} -eq 0 ] && continue # the whole writer set only when asked for
    own=$(python3 scripts/archs.py type "tests/data/archs-hdr/$base.hdr")
    if ! wgolden "$base-$own" "tests/data/archs/$base.gguf" 64; then
      echo "golden: the reference cannot run $base" >&2
      rm -f "$G/$base-$own".*
      continue
    fi
    for fmt in Q8_0 Q4_K_M; do
      [ -f "$Q/$base-$fmt.gguf" ] || continue
      wgolden "$base-$fmt" "$Q/$base-$fmt.gguf" 32 || { echo "golden: the reference cannot run $base-$fmt" >&2; rm -f "$G/$base-$fmt".*; }
    done
  done < tests/data/archs-w.list
fi
