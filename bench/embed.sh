#!/bin/bash
# bench/embed.sh MODEL [-t THREADS=2] [-b INPUTS=32] [-n TOKENS=128] [-r REPS=2] [-k ROUNDS=2]
# Embedding throughput, frink (bench/embed.c: INPUTS inputs of TOKENS tokens in one frink_embed
# call) and the reference (the oracle's `embed-bench`: the same ids as INPUTS sequences in one
# llama_decode, n_seq_max INPUTS, n_batch = n_ubatch = INPUTS * TOKENS, embeddings on, the file's
# pooling), both on THREADS threads. ROUNDS rounds alternate the two engines (frink, then the
# reference), each timing REPS calls; the best call of each engine over every round counts, so
# that a busy host slows both alike. Prints sequences/s for both, the ratio, and the nmse of
# frink's pooled vectors against the reference's on these inputs. The oracle must know
# `embed-bench` (scripts/peer/setup.sh rebuilds it); ORACLE names another.
set -euo pipefail
cd "$(dirname "$0")/.."
M=$1; shift
TH=2 S=32 N=128 R=2 K=2
while [ $# -gt 0 ]; do
  case $1 in
    -t) TH=$2 ;; -b) S=$2 ;; -n) N=$2 ;; -r) R=$2 ;; -k) K=$2 ;;
    *) echo "bench/embed.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
ORACLE=${ORACLE:-build/peer/oracle}
make -s build/bench/embed
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "$M: $S inputs x $N tokens, $TH threads, $K rounds of $R calls, $(date -u '+%Y-%m-%d %H:%M UTC')"
f_best=0 r_best=0
for k in $(seq "$K"); do
  f=$(build/bench/embed "$M" "$S" "$N" "$TH" "$R" "$tmp/f.f32")
  r=$("$ORACLE" embed-bench "$M" "$S" "$N" "$TH" "$R" "$tmp/r.f32")
  echo "frink     $f"; echo "reference $r"
  f_best=$(python3 -c "import re,sys; print(max($f_best, float(re.search(r'([0-9.]+) seq/s', sys.argv[1]).group(1))))" "$f")
  r_best=$(python3 -c "import re,sys; print(max($r_best, float(re.search(r'([0-9.]+) seq/s', sys.argv[1]).group(1))))" "$r")
done
python3 - "$f_best" "$r_best" "$tmp/f.f32" "$tmp/r.f32" <<'PY'
import array, sys
f, r = float(sys.argv[1]), float(sys.argv[2])
a = array.array('f', open(sys.argv[3], 'rb').read()); b = array.array('f', open(sys.argv[4], 'rb').read())
nmse = sum((x - y) ** 2 for x, y in zip(a, b)) / sum(y * y for y in b) if len(a) == len(b) else float('nan')
print(f"best: frink {f:.2f} seq/s, reference {r:.2f} seq/s, frink / reference {f / r:.2f}x; vectors nmse {nmse:.1e}")
PY
