#!/bin/bash
# run.sh — the server's end-to-end suite: `bash tests/server/run.sh` from anywhere, with
# FRINK_BIN naming the binary (default build/frink). Installs the test clients
# (scripts/server-test-deps.sh), makes the tiny hybrid chat model, then runs each suite: the
# node tests that drive servers through the official OpenAI and Anthropic clients, the curl
# checks of the raw streams (test_sse.sh), and test_http.py. Each suite starts and stops its
# own servers; the trap kills any left, whatever happens. Prints the per-check lines and
# "test_server: N passed, M failed"; exits non-zero on any failure.
# FRINK_SERVER_TESTS="openai tools" runs only those suites.
set -u
cd "$(dirname "$0")/../.."
export FRINK_BIN=${FRINK_BIN:-build/frink}
export FRINK_SERVER_WORK=${FRINK_SERVER_WORK:-build/server-test}
mkdir -p "$FRINK_SERVER_WORK/logs"
export FRINK_TEST_PIDS=$FRINK_SERVER_WORK/pids
: >"$FRINK_TEST_PIDS"

# Kills the servers the suites started and left (by pid, after checking that the pid is still
# such a server and not a recycled one), then forgets them.
kill_servers() {
  local p cmd
  while read -r p; do
    [ -n "$p" ] || continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline") || continue
    case $cmd in "$FRINK_BIN serve --port 0"*) kill -9 "$p" 2>/dev/null ;; esac
  done <"$FRINK_TEST_PIDS"
  : >"$FRINK_TEST_PIDS"
}
# The suite runs in the background (so that a signal is handled at once, not after it) under
# timeout, which passes a TERM on to it; the suites' own handlers kill their servers.
suite=
stop_all() {
  [ -n "$suite" ] && kill -TERM "$suite" 2>/dev/null && sleep 1
  kill_servers
}
trap stop_all EXIT
trap 'stop_all; trap - EXIT; exit 130' INT TERM

pass=0 fail=0
t_start=$(date +%s)
# count NAME OUTPUT RC: adds the suite's "N passed, M failed" line (a suite without one, or
# that exited non-zero with no failure counted, is one failure).
count() {
  local line p f
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' <<<"$2" | tail -1)
  if [ -z "$line" ]; then
    p=0 f=1
  else
    p=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$line")
    f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    [ "$3" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  fi
  pass=$((pass + p)) fail=$((fail + f))
  [ "$3" -ne 0 ] && echo "SUITE FAILED: $1 (exit $3)"
}

if [ ! -x "$FRINK_BIN" ]; then
  echo "tests/server: $FRINK_BIN not built (make build/frink)"
  echo "test_server: 0 passed, 1 failed"
  exit 1
fi
if ! bash scripts/server-test-deps.sh; then
  echo "tests/server: scripts/server-test-deps.sh failed"
  echo "test_server: 0 passed, 1 failed"
  exit 1
fi

# The hybrid chat model: qwen35-tiny's shapes, random weights (fixed seed), the Qwen vocabulary
# and its ChatML template. The fixture tests/data/archs/qwen35-dense.gguf cannot serve chat:
# its 128-token vocabulary has no tokenizer.
HYBRID=$FRINK_SERVER_WORK/qwen35-chat.gguf
export FRINK_HYBRID_MODEL=$HYBRID
if [ ! -s "$HYBRID" ]; then
  vocab=tests/data/vocab/ggml-vocab-qwen35.gguf
  [ -e "$vocab" ] || bash scripts/fixtures.sh >/dev/null
  "$FRINK_BIN" gen --preset qwen35-tiny --vocab "$vocab" --seed 7 -o "$HYBRID.tmp" >/dev/null && mv "$HYBRID.tmp" "$HYBRID"
fi

suites=${FRINK_SERVER_TESTS:-openai anthropic tools forced hybrid load errors endpoints flags native lifecycle embed spec sse http webui}
# Each suite's time limit: a sanitizer build runs about 3x slower.
limit=150
ldd "$FRINK_BIN" 2>/dev/null | grep -q libasan && limit=450
for s in $suites; do
  t0=$(date +%s)
  case $s in
    sse) cmd=(bash tests/server/test_sse.sh) ;;
    http)
      if [ ! -f tests/server/test_http.py ]; then
        echo "== http: tests/server/test_http.py missing"; fail=$((fail + 1)); continue
      fi
      cmd=(python3 tests/server/test_http.py) ;;
    # The web chat in headless Chromium (installed here when missing; the suite skips without it).
    webui) bash scripts/webui-test-deps.sh; cmd=(node tests/server/test_webui.mjs) ;;
    *) cmd=(node "tests/server/test_$s.mjs") ;;
  esac
  echo "== $s"
  log=$FRINK_SERVER_WORK/logs/suite-$s.txt
  timeout -k 5 "$limit" "${cmd[@]}" >"$log" 2>&1 &
  suite=$!
  tail -s 0.1 -n +1 -f --pid="$suite" "$log" &
  tailer=$!
  wait "$suite"
  rc=$?
  wait "$tailer"
  suite=
  out=$(cat "$log")
  [ $rc -eq 124 ] && echo "SUITE TIMED OUT: $s"
  count "$s" "$out" $rc
  echo "-- $s: $(($(date +%s) - t0)) s"
  kill_servers
done
echo "tests/server: $(($(date +%s) - t_start)) s in all; server logs in $FRINK_SERVER_WORK/logs"
echo "test_server: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
