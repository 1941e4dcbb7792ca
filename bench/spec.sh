#!/bin/bash
# bench/spec.sh TARGET DRAFT|lookup [N=128] [DMAX=16] [THREADS=2] [DOC=192] [PMIN=0.75]
# Speculative decoding, frink (bench/spec.c) and the reference (the oracle's `spec`: its
# library's llama_decode verifying drafts, llama_memory_seq_rm dropping rejected rows) on the
# same prompt in the same run, greedy. The prompt is a seed sentence and the target's own greedy
# continuation of DOC tokens (a document the answer goes on repeating, as an edit or a summary
# repeats its input: random weights repeat themselves once greedy decoding falls into a cycle,
# which is where acceptance becomes measurable). Prints both engines' plain and speculative
# tok/s, drafted and accepted counts, and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
T=$1 D=$2 N=${3:-128} DMAX=${4:-16} TH=${5:-2} DOC=${6:-192} PMIN=${7:-0.75}
ORACLE=${ORACLE:-build/peer/oracle}
make -s build/frink build/bench/spec
ids=$(build/frink run -m "$T" -p "The history of the city begins" -n "$DOC" --temp 0 --json -t "$TH" 2>/dev/null |
      python3 -c 'import json,sys; j=json.load(sys.stdin); print(",".join(map(str, j["prompt_ids"] + j["ids"])))')
echo "target $T, draft $D, prompt $(tr ',' '\n' <<<"$ids" | wc -l) tokens, $N generated, up to $DMAX drafts, $TH threads"
f=$(build/bench/spec "$T" "$D" "$ids" "$N" "$DMAX" "$TH" "$PMIN")
r=$("$ORACLE" spec "$T" "$D" "$ids" "$N" "$DMAX" "$TH" "$PMIN")
grep -v ' ids:' <<<"$f" | sed 's/^/frink     /'
grep -v ' ids:' <<<"$r" | sed 's/^/reference /'
python3 - "$f" "$r" <<'PY'
import re, sys
f, r = sys.argv[1], sys.argv[2]
tps = lambda s, k: float(re.search(k + r'.*?([0-9.]+) tok/s', s, re.M).group(1))
fp, ff, fa = tps(f, '^plain'), tps(f, 'spec fixed'), tps(f, 'spec adaptive')
rp, rs = tps(r, 'plain: prefill'), tps(r, '^spec')
print(f"frink spec / frink plain: fixed {ff/fp:.2f}x, adaptive {fa/fp:.2f}x; reference spec / reference plain {rs/rp:.2f}x")
print(f"frink spec / reference spec: fixed {ff/rs:.2f}x, adaptive {fa/rs:.2f}x; plain {fp/rp:.2f}x")
PY
