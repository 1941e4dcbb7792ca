#!/bin/bash
# test_sse.sh — the raw wire of `frink serve`'s streams, as curl sees them (no SDK to smooth
# anything over): OpenAI chat and completions SSE framing ("data: {json}" + blank line, a
# final "data: [DONE]"), Anthropic's "event: X" / "data: {json}" pairs in their order, the
# Responses API's events, headers, and a few plain-HTTP details (CORS, HEAD, keep-alive).
# Prints a line per check and "test_sse: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
BIN=${FRINK_BIN:-build/frink}
WORK=${FRINK_SERVER_WORK:-build/server-test}
mkdir -p "$WORK/logs" "$WORK/sse"
D=$WORK/sse
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1${2:+: $2}"; }
# check NAME COMMAND...: the command's success is the check's
check() { local n=$1; shift; local out; if out=$("$@" 2>&1); then ok "$n"; else bad "$n" "$(head -c 600 <<<"$out")"; fi; }

PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
"$BIN" serve --port 0 -np 2 -c 1024 --cors-origin http://allowed.example >"$WORK/logs/sse.log" 2>&1 &
PID=$!
[ -n "${FRINK_TEST_PIDS:-}" ] && echo "$PID" >>"$FRINK_TEST_PIDS"
URL=
for _ in $(seq 1 600); do
  URL=$(grep -oE 'http://[^ /]+:[0-9]+' "$WORK/logs/sse.log" | head -1)
  [ -n "$URL" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/health")" = 200 ] && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$URL" ] || [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/health")" != 200 ]; then
  bad "server starts" "$(tail -5 "$WORK/logs/sse.log")"
  echo "test_sse: $pass passed, $fail failed"
  exit 1
fi
URL=${URL/0.0.0.0/127.0.0.1}
echo "# $URL"

# stream ROUTE BODY NAME: the raw body to $D/NAME.sse, headers to $D/NAME.h
stream() { curl -sN -D "$D/$3.h" -H 'content-type: application/json' -d "$2" "$URL$1" >"$D/$3.sse"; }

# ---- OpenAI chat ----
stream /v1/chat/completions '{"messages":[{"role":"user","content":"Tell me a story."}],"max_tokens":12,"temperature":0,"stream":true,"stream_options":{"include_usage":true}}' chat
check 'chat stream: 200, content-type text/event-stream' grep -qiE '^content-type: text/event-stream' "$D/chat.h"
check 'chat stream: framing, chunk envelope, role first, one finish, usage last, [DONE]' python3 - "$D/chat.sse" <<'EOF'
import json, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8')
assert raw.endswith('data: [DONE]\n\n'), 'does not end with "data: [DONE]" and a blank line: %r' % raw[-60:]
blocks = raw.split('\n\n')[:-1]
chunks = []
for b in blocks:
    lines = [l for l in b.split('\n') if not l.startswith(':')]
    if not lines:
        continue
    assert len(lines) == 1 and lines[0].startswith('data: '), 'not one "data: " line per event: %r' % b[:120]
    d = lines[0][6:]
    if d == '[DONE]':
        continue
    chunks.append(json.loads(d))
assert blocks[-1] == 'data: [DONE]', 'DONE is not the last event'
assert len(chunks) >= 3, 'too few chunks: %d' % len(chunks)
ids = {c['id'] for c in chunks}
assert len(ids) == 1, 'ids differ: %s' % ids
for c in chunks:
    assert c['object'] == 'chat.completion.chunk', c
    assert isinstance(c['created'], int) and isinstance(c['model'], str), c
    assert 'system_fingerprint' in c, 'no system_fingerprint: %s' % c
body = [c for c in chunks if c['choices']]
assert body[0]['choices'][0]['delta'].get('role') == 'assistant', 'first delta has no role: %s' % body[0]
assert all('role' not in c['choices'][0]['delta'] for c in body[1:]), 'role repeated'
fins = [c for c in body if c['choices'][0].get('finish_reason')]
assert len(fins) == 1 and fins[0] is body[-1], 'finish_reason not exactly on the last choice chunk'
assert fins[0]['choices'][0]['finish_reason'] in ('stop', 'length')
assert all(c['choices'][0]['index'] == 0 for c in body)
last = chunks[-1]
assert last['choices'] == [] and last['usage']['completion_tokens'] >= 1, 'last chunk is not the usage chunk: %s' % last
u = last['usage']
assert u['total_tokens'] == u['prompt_tokens'] + u['completion_tokens'], u
assert all(c.get('usage') is None for c in chunks[:-1]), 'usage on a non-final chunk'
EOF
curl -s -H 'content-type: application/json' -d '{"messages":[{"role":"user","content":"Tell me a story."}],"max_tokens":12,"temperature":0}' "$URL/v1/chat/completions" >"$D/chat.json"
check 'chat stream: the deltas make the non-streamed text' python3 - "$D/chat.sse" "$D/chat.json" <<'EOF'
import json, sys
t = ''
for l in open(sys.argv[1]).read().split('\n'):
    if l.startswith('data: {'):
        c = json.loads(l[6:])
        if c['choices']:
            t += c['choices'][0]['delta'].get('content') or ''
w = json.load(open(sys.argv[2]))['choices'][0]['message']['content']
assert t == w, '%r != %r' % (t, w)
EOF
stream /v1/chat/completions '{"messages":[{"role":"user","content":"Tell me a story."}],"max_tokens":6,"n":2,"stream":true,"seed":3}' chatn
check 'chat stream n=2: both indexes, each with one finish, no usage without include_usage' python3 - "$D/chatn.sse" <<'EOF'
import json, sys
cs = [json.loads(l[6:]) for l in open(sys.argv[1]).read().split('\n') if l.startswith('data: {')]
fin = {}
for c in cs:
    assert 'usage' not in c or c['usage'] is None, 'usage without include_usage'
    for ch in c['choices']:
        if ch.get('finish_reason'):
            fin[ch['index']] = fin.get(ch['index'], 0) + 1
assert fin == {0: 1, 1: 1}, fin
EOF

# ---- OpenAI completions ----
stream /v1/completions '{"prompt":"Once upon a time","max_tokens":8,"stream":true}' cmpl
check 'completions stream: data lines of text_completion, [DONE]' python3 - "$D/cmpl.sse" <<'EOF'
import json, sys
raw = open(sys.argv[1]).read()
assert raw.endswith('data: [DONE]\n\n'), raw[-60:]
cs = [json.loads(l[6:]) for l in raw.split('\n') if l.startswith('data: {')]
assert cs and all(c['object'] == 'text_completion' for c in cs), cs[:2]
assert sum(1 for c in cs for ch in c['choices'] if ch.get('finish_reason')) == 1
EOF

# ---- Anthropic messages ----
stream /v1/messages '{"model":"x","max_tokens":12,"messages":[{"role":"user","content":"Tell me a story."}],"stream":true}' ant
check 'messages stream with an unknown model: 404 before any event' grep -qE '^HTTP/[0-9.]+ 404' "$D/ant.h"
MODEL=$(curl -s "$URL/v1/models" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
stream /v1/messages "{\"model\":\"$MODEL\",\"max_tokens\":12,\"messages\":[{\"role\":\"user\",\"content\":\"Tell me a story.\"}],\"stream\":true}" ant
check 'messages stream: 200 text/event-stream' grep -qiE '^content-type: text/event-stream' "$D/ant.h"
check 'messages stream: event/data pairs in order, types match, usage' python3 - "$D/ant.sse" <<'EOF'
import json, sys
raw = open(sys.argv[1]).read()
assert raw.endswith('\n\n'), 'no final blank line'
evs = []
for b in raw.split('\n\n')[:-1]:
    lines = [l for l in b.split('\n') if not l.startswith(':')]
    if not lines:
        continue
    assert len(lines) == 2 and lines[0].startswith('event: ') and lines[1].startswith('data: '), 'not an event/data pair: %r' % b[:120]
    name, data = lines[0][7:], json.loads(lines[1][6:])
    assert data['type'] == name, 'event %s carries type %s' % (name, data['type'])
    evs.append((name, data))
names = [n for n, _ in evs if n != 'ping']
assert names[0] == 'message_start' and names[1] == 'content_block_start', names
assert names[-3:] == ['content_block_stop', 'message_delta', 'message_stop'], names
assert set(names[2:-3]) == {'content_block_delta'}, names
ms = evs[0][1]['message']
assert ms['type'] == 'message' and ms['role'] == 'assistant' and ms['content'] == [] and ms['id'].startswith('msg_'), ms
assert isinstance(ms['usage']['input_tokens'], int), ms
cbs = [d for n, d in evs if n == 'content_block_start'][0]
assert cbs['index'] == 0 and cbs['content_block'] == {'type': 'text', 'text': ''}, cbs
for n, d in evs:
    if n == 'content_block_delta':
        assert d['index'] == 0 and d['delta']['type'] == 'text_delta' and isinstance(d['delta']['text'], str), d
md = [d for n, d in evs if n == 'message_delta'][0]
assert md['delta']['stop_reason'] in ('end_turn', 'max_tokens') and 'stop_sequence' in md['delta'], md
assert md['usage']['output_tokens'] >= 1, md
EOF

# ---- Responses ----
stream /v1/responses '{"input":"Tell me a story.","max_output_tokens":8,"stream":true}' resp
check 'responses stream: event/data pairs, types match, sequence numbers, completed/incomplete last' python3 - "$D/resp.sse" <<'EOF'
import json, sys
raw = open(sys.argv[1]).read()
evs = []
for b in raw.split('\n\n')[:-1]:
    lines = [l for l in b.split('\n') if not l.startswith(':')]
    if not lines:
        continue
    assert len(lines) == 2 and lines[0].startswith('event: ') and lines[1].startswith('data: '), 'not an event/data pair: %r' % b[:120]
    d = json.loads(lines[1][6:])
    assert d['type'] == lines[0][7:], (lines[0], d['type'])
    evs.append(d)
names = [d['type'] for d in evs]
assert names[:2] == ['response.created', 'response.in_progress'], names
assert names[-1] in ('response.completed', 'response.incomplete'), names
seq = [d.get('sequence_number') for d in evs]
assert all(isinstance(s, int) for s in seq) and seq == sorted(seq) and len(set(seq)) == len(seq), seq
delta = ''.join(d['delta'] for d in evs if d['type'] == 'response.output_text.delta')
done = [d for d in evs if d['type'] == 'response.output_text.done'][0]['text']
assert delta == done, (delta, done)
assert 'data: [DONE]' not in raw
EOF

# ---- plain HTTP ----
code=$(curl -s -o "$D/nf.json" -w '%{http_code}' "$URL/v1/nope")
check 'an unknown route: 404 with a JSON error' test "$code" = 404 -a -s "$D/nf.json"
check 'CORS: an allowed origin gets Access-Control-Allow-Origin' sh -c "curl -s -D - -o /dev/null -H 'Origin: http://allowed.example' '$URL/v1/models' | grep -qi '^access-control-allow-origin: http://allowed.example'"
check 'CORS: another origin gets none' sh -c "! curl -s -D - -o /dev/null -H 'Origin: http://evil.example' '$URL/v1/models' | grep -qi '^access-control-allow-origin'"
check 'CORS: a preflight OPTIONS of an allowed origin: 2xx with the methods' sh -c "curl -s -D - -o /dev/null -X OPTIONS -H 'Origin: http://allowed.example' -H 'Access-Control-Request-Method: POST' '$URL/v1/chat/completions' | grep -qiE '^access-control-allow-methods:.*POST'"
check 'two requests on one keep-alive connection' sh -c "curl -s -o /dev/null -o /dev/null -w '%{num_connects} ' '$URL/health' '$URL/health' | grep -qE '^1 0 \$'"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' -d '{"messages":[{"role":"user","content":"hi"}],"max_tokens":2}' "$URL/v1/chat/completions")
check 'the server still answers a chat' test "$code" = 200
check 'the server is still running' kill -0 "$PID"
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
check 'the server exits 0 on SIGTERM' test "$rc" -eq 0
check 'no sanitizer report in its log' sh -c "! grep -qE 'ERROR: [A-Za-z]+Sanitizer|runtime error:' '$WORK/logs/sse.log'"

echo "test_sse: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
