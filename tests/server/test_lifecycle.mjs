// test_lifecycle.mjs — what an operator sees: the access log (a line per request by default:
// time, client, method, path, status, tokens, ms; --log-format json; --log-disable; probes left
// out), and SIGTERM draining the server: streams in flight end with their final event (a
// finish_reason and [DONE]; message_stop; response.failed), a request arriving meanwhile gets a 503, and the
// process exits 0 within a bounded time.
import http from 'node:http';
import net from 'node:net';
import { HYBRID, check, eq, finish, get, group, parse_sse, post, sleep, start_server } from './lib.mjs';

const MSGS = [{ role: 'user', content: 'Tell me a story.' }];
const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (127\.0\.0\.1:\d+) (GET|POST) (\S+) (\d{3}) (-|\d+\+\d+) tokens (\d+) ms/;

await group('the access log', async () => {
    const srv = await start_server('life-log', ['-np', '1']);
    const c = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 5, temperature: 0 });
    await post(srv, '/v1/chat/completions', { messages: 'not a list' });
    await get(srv, '/nowhere');
    await get(srv, '/health');
    await sleep(100);
    const lines = srv.stderr().split('\n').filter((l) => LINE.test(l));
    const chat = lines.map((l) => l.match(LINE)).find((m) => m[4] === '/v1/chat/completions' && m[5] === '200');
    check('a line per request: time, client, method, path, status, tokens, ms', chat && lines.length === 3, lines.join(' | '));
    eq('the chat\'s tokens: its usage (prompt+completion)', chat && chat[6], `${c.json.usage.prompt_tokens}+${c.json.usage.completion_tokens}`);
    check('a 400 and a 404 logged, without tokens', lines.some((l) => / POST \/v1\/chat\/completions 400 - tokens/.test(l)) &&
        lines.some((l) => / GET \/nowhere 404 - tokens/.test(l)), lines.join(' | '));
    check('a successful GET /health (a probe) is left out', !lines.some((l) => / \/health /.test(l)), lines.join(' | '));
    // a stream is logged at its end, with its tokens
    const s = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 7, temperature: 0, stream: true });
    await sleep(100);
    const last = srv.stderr().split('\n').filter((l) => LINE.test(l)).pop();
    check('a stream: logged once it ended, with its completion tokens', s.status === 200 && /\+7 tokens/.test(last || ''), last);
    await srv.stop();

    const js = await start_server('life-json', ['-np', '1', '--log-format', 'json']);
    await post(js, '/v1/completions', { prompt: 'Once', max_tokens: 3 });
    await sleep(100);
    const obj = js.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((o) => o.path === '/v1/completions');
    check('--log-format json: an object with time, client, method, path, status, tokens, ms', obj && obj.method === 'POST' &&
        obj.status === 200 && obj.prompt_tokens > 0 && obj.completion_tokens === 3 && typeof obj.ms === 'number' &&
        /Z$/.test(obj.time) && /^127\.0\.0\.1:\d+$/.test(obj.client), JSON.stringify(obj));
    await js.stop();

    const quiet = await start_server('life-quiet', ['-np', '1', '--log-disable']);
    await post(quiet, '/v1/completions', { prompt: 'Once', max_tokens: 3 });
    await sleep(100);
    check('--log-disable: no access lines', !quiet.stderr().split('\n').some((l) => LINE.test(l)), quiet.stderr().slice(-300));
    await quiet.stop();
});

// Opens a streamed request and reads it as it comes: resolves `first` at the first bytes and
// `done` with the whole body when the server ends it.
function open_stream(srv, route, body) {
    const u = new URL(srv.url);
    let on_first;
    const first = new Promise((r) => { on_first = r; });
    const done = new Promise((resolve) => {
        const rq = http.request({ host: u.hostname, port: u.port, path: route, method: 'POST',
            headers: { 'content-type': 'application/json' } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => { text += d; on_first(); });
            res.on('end', () => resolve({ status: res.statusCode, text, complete: res.complete }));
            res.on('error', (e) => resolve({ status: res.statusCode, text, error: String(e) }));
        });
        rq.on('error', (e) => { on_first(); resolve({ error: String(e) }); });
        rq.end(JSON.stringify(body));
    });
    return { first, done };
}

await group('SIGTERM drains', async () => {
    const srv = await start_server('life-drain', ['-m', HYBRID, '-np', '3', '-c', '4096']);
    const oai = open_stream(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 3000, ignore_eos: true, stream: true });
    const anth = open_stream(srv, '/v1/messages', { model: 'qwen35-chat.gguf', messages: MSGS, max_tokens: 3000, stream: true });
    const resp = open_stream(srv, '/v1/responses', { input: 'Tell me a story.', max_output_tokens: 3000, stream: true });
    await Promise.all([oai.first, anth.first, resp.first]);
    // a request still sending its body when the signal comes: in flight, so the server waits for it
    const slow = net.connect(srv.port, '127.0.0.1');
    const body = JSON.stringify({ messages: MSGS, max_tokens: 2 });
    let slow_text = '';
    slow.on('data', (d) => { slow_text += d; });
    slow.on('error', () => { /* checked by its text */ });
    await new Promise((r) => slow.on('connect', r));
    slow.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await sleep(200);
    const t0 = Date.now();
    srv.stopping = true;
    srv.proc.kill('SIGTERM');
    const [o, a, rs] = await Promise.all([oai.done, anth.done, resp.done]);
    const oe = parse_sse(o.text || '');
    const fin = oe.events.filter((e) => e.json && e.json.choices && e.json.choices[0] && e.json.choices[0].finish_reason);
    check('the OpenAI stream ends with a finish_reason, then [DONE]', o.complete && oe.errors.length === 0 && fin.length === 1 &&
        oe.events[oe.events.length - 1].data === '[DONE]', (o.text || JSON.stringify(o)).slice(-400));
    const ae = parse_sse(a.text || '');
    const names = ae.events.map((e) => e.event);
    check('the Anthropic stream ends with message_delta (stop_reason), then message_stop', a.complete && ae.errors.length === 0 &&
        names[names.length - 1] === 'message_stop' && names[names.length - 2] === 'message_delta' &&
        ae.events[ae.events.length - 2].json.delta.stop_reason, (a.text || JSON.stringify(a)).slice(-400));
    const re = parse_sse(rs.text || '');
    const rl = re.events[re.events.length - 1];
    check('the Responses stream ends with response.failed saying why', rs.complete && re.errors.length === 0 && rl &&
        rl.event === 'response.failed' && /shutting down/.test(rl.json.response.error.message), (rs.text || JSON.stringify(rs)).slice(-400));
    const fresh = await get(srv, '/v1/models').catch((e) => ({ status: String(e) }));
    check('a request arriving while it drains: 503 with a JSON error', fresh.status === 503 && fresh.json && /shutting down/.test(fresh.json.error.message),
        `${fresh.status} ${fresh.text}`);
    slow.end(body.slice(5));
    await new Promise((r) => { slow.on('close', r); setTimeout(r, 3000); });
    check('the request whose body was still coming: 503', /^HTTP\/1\.1 503 /.test(slow_text), slow_text.slice(0, 200));
    while (!srv.exited && Date.now() - t0 < 8000) await sleep(20);
    const dt = (Date.now() - t0) / 1000;
    check('the process exits 0 once nothing is in flight, well within 5 s', srv.exited && srv.exited.code === 0 && dt < 5,
        `${JSON.stringify(srv.exited)} after ${dt.toFixed(2)} s`);
    await srv.stop();
});

finish('lifecycle');
