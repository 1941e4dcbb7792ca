#!/bin/bash
# Runs every test program under $1/tests from the repository root and sums their counts.
B=${1:-build}
cd "$(dirname "$0")/.."
export FRINK_BIN="$B/frink"
pass=0 fail=0 bad=0
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  out=$("$t" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -1)
  p=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$line"); f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
  [ -n "$line" ] || { p=0; f=1; }
  pass=$((pass + p)); fail=$((fail + f))
  if [ $rc -ne 0 ]; then bad=$((bad + 1)); printf '%s\n' "$out" | tail -40; echo "FAILED: $t (exit $rc)"; else echo "$line"; fi
done
echo "tests: $pass passed, $fail failed"
[ $bad -eq 0 ] && [ $fail -eq 0 ]
