// test_errors.mjs — what a server must survive: malformed requests (each a 4xx JSON error in
// its API's shape, the server answering normally afterwards), bodies over the limit (413, also
// to a client that writes 64 MiB before it reads), the connection limit (a 503, not a reset),
// a trickling client (closed at the read timeout), a full queue (503 with Retry-After), and
// clients that disconnect during prefill or generation (the slot is free within a step).
import net from 'node:net';
import {
    HYBRID, check, eq, fail, finish, get, group, model_id, note, post, raw_post, sleep, slots_busy, start_server,
} from './lib.mjs';

const srv = await start_server('errors', ['-np', '2', '-c', '512', '--timeout', '3']);
const MODEL = await model_id(srv);
const MSGS = [{ role: 'user', content: 'Tell me a story.' }];

function openai_error_ok(name, r, status, param) {
    const e = r.json && r.json.error;
    const shape = e && typeof e.message === 'string' && e.message.length > 0 && typeof e.type === 'string' && 'param' in e && 'code' in e;
    const named = param === undefined || (e && (e.param === param || String(e.message).includes(param)));
    return check(`${name}: ${status}, {error: {message, type, param, code}}${param ? ` naming ${param}` : ''}`,
        r.status === status && shape && named, `${r.status} ${r.text.slice(0, 300)}`);
}

// A client that writes the whole request (head, then body) before it reads anything, then
// reads to the end: {text} or {error} (the reset a server that closes early gives).
function write_then_read(port, head, body) {
    return new Promise((resolve) => {
        const sock = net.connect(port, '127.0.0.1');
        let text = '', err = null;
        sock.on('connect', () => { sock.write(head); sock.end(body); });
        sock.on('data', (d) => { text += d.toString('latin1'); });
        sock.on('error', (e) => { err = e.code || String(e); });
        sock.on('close', () => resolve(err && !text ? { error: err } : { text }));
        sock.setTimeout(30000, () => sock.destroy());
    });
}

async function still_serving(name) {
    const h = await get(srv, '/health');
    const c = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 2 });
    check(`${name}: the server still answers (/health 200, a chat 200)`, h.status === 200 && c.status === 200 && srv.alive(),
        `${h.status} ${c.status} ${c.text.slice(0, 200)}`);
}

await group('malformed JSON bodies', async () => {
    const route = '/v1/chat/completions';
    const raw = async (name, body, status = 400) => openai_error_ok(name, await post(srv, route, body), status);
    await raw('bad JSON', '{"model": ');
    await raw('trailing garbage', '{"messages": [], "x": 1} x');
    await raw('an empty body', '');
    await raw('a body that is an array', '[1, 2]');
    await raw('a body that is a string', '"hello"');
    await raw('temperature 1e400', `{"messages": ${JSON.stringify(MSGS)}, "temperature": 1e400}`);
    await raw('invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"messages": [{"role": "user", "content": "a'),
        Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}]}')]));
    await raw('overlong UTF-8 encoding', Buffer.concat([Buffer.from('{"messages": [{"role": "user", "content": "'),
        Buffer.from([0xc0, 0xaf]), Buffer.from('"}]}')]));
    await raw('a lone surrogate escape', '{"messages": [{"role": "user", "content": "\\ud800"}]}');
    await raw('JSON nested 10000 deep', '['.repeat(10000) + ']'.repeat(10000));
    await raw('messages nested 200 deep', `{"messages": [{"role": "user", "content": ${'['.repeat(200)}${']'.repeat(200)}}]}`);
    const nul = await post(srv, route, '{"messages": [{"role": "user", "content": "a\\u0000b"}], "max_tokens": 2}');
    check('a \\u0000 in a string: 200 or 400, never 5xx', [200, 400].includes(nul.status), `${nul.status} ${nul.text.slice(0, 200)}`);
    await still_serving('after malformed bodies');
});

await group('wrong types and values', async () => {
    const route = '/v1/chat/completions';
    const bad = async (name, extra, param, base = { messages: MSGS, max_tokens: 2 }) =>
        openai_error_ok(name, await post(srv, route, { ...base, ...extra }), 400, param);
    await bad('messages "x"', { messages: 'x' }, 'messages');
    await bad('messages missing', { messages: undefined }, 'messages');
    await bad('messages []', { messages: [] }, 'messages');
    await bad('a message that is a number', { messages: [5] }, 'messages');
    await bad('content a number', { messages: [{ role: 'user', content: 5 }] }, 'content');
    await bad('role "wizard"', { messages: [{ role: 'wizard', content: 'hi' }] }, 'role');
    await bad('a content part of unknown type', { messages: [{ role: 'user', content: [{ type: 'hologram', text: 'x' }] }] }, 'type');
    await bad('max_tokens "ten"', { max_tokens: 'ten' }, 'max_tokens');
    // 1e20 as a JSON real is out of range; written as an integer it is past what JSON parsers hold.
    openai_error_ok('max_tokens 1e20', await post(srv, route, `{"messages": ${JSON.stringify(MSGS)}, "max_tokens": 1e20}`), 400, 'max_tokens');
    openai_error_ok('max_tokens 100000000000000000000', await post(srv, route, `{"messages": ${JSON.stringify(MSGS)}, "max_tokens": 100000000000000000000}`), 400);
    await bad('max_tokens 2.5', { max_tokens: 2.5 }, 'max_tokens');
    await bad('max_tokens -5', { max_tokens: -5 }, 'max_tokens');
    await bad('max_completion_tokens true', { max_completion_tokens: true }, 'max_completion_tokens');
    await bad('temperature "hot"', { temperature: 'hot' }, 'temperature');
    await bad('temperature -1', { temperature: -1 }, 'temperature');
    await bad('top_p 2', { top_p: 2 }, 'top_p');
    await bad('n -1', { n: -1 }, 'n');
    await bad('n 0', { n: 0 }, 'n');
    await bad('n 1000', { n: 1000 }, 'n');
    await bad('seed "x"', { seed: 'x' }, 'seed');
    await bad('stop 5', { stop: 5 }, 'stop');
    await bad('stop [1]', { stop: [1] }, 'stop');
    await bad('stream "yes"', { stream: 'yes' }, 'stream');
    await bad('logit_bias with a bad token id', { logit_bias: { abc: 5 } }, 'logit_bias');
    await bad('logit_bias 500', { logit_bias: { 1: 500 } }, 'logit_bias');
    await bad('top_logprobs without logprobs', { top_logprobs: 3 }, 'logprobs');
    await bad('tools not an array', { tools: 'x' }, 'tools');
    await bad('response_format of unknown type', { response_format: { type: 'yaml' } }, 'response_format');
    await bad('stream_options.include_usage "x"', { stream: true, stream_options: { include_usage: 'x' } }, 'include_usage');
    const nf = await post(srv, route, { model: 'no-such-model', messages: MSGS, max_tokens: 2 });
    openai_error_ok('unknown model', nf, 404);
    check('unknown model: code model_not_found', nf.json && nf.json.error && nf.json.error.code === 'model_not_found', nf.text);
    openai_error_ok('/v1/completions without prompt', await post(srv, '/v1/completions', { max_tokens: 2 }), 400, 'prompt');
    openai_error_ok('/v1/completions prompt {}', await post(srv, '/v1/completions', { prompt: {}, max_tokens: 2 }), 400, 'prompt');
    openai_error_ok('/v1/responses input 5', await post(srv, '/v1/responses', { input: 5 }), 400, 'input');
    const ant = await post(srv, '/v1/messages', { model: MODEL, max_tokens: 'x', messages: MSGS });
    check('/v1/messages max_tokens "x": 400 in the Anthropic shape', ant.status === 400 && ant.json && ant.json.type === 'error'
        && ant.json.error && ant.json.error.type === 'invalid_request_error' && /max_tokens/.test(ant.json.error.message), ant.text);
    const nr = await get(srv, '/v1/no-such-route');
    check('an unknown route: 404 JSON', nr.status === 404 && nr.json !== null, `${nr.status} ${nr.text.slice(0, 200)}`);
    const gm = await get(srv, '/v1/chat/completions');
    check('GET on a POST route: 404 or 405 JSON', [404, 405].includes(gm.status) && gm.json !== null, `${gm.status} ${gm.text.slice(0, 200)}`);
    await still_serving('after wrong types');
});

// Valid bodies of every route with one field at a time swapped for a value of another type or
// out of range, or dropped: whatever it is, the answer is 2xx or 4xx JSON, never 5xx or a crash.
// The embedded model's template (ChatML, no tools in it) never shows tools to the model: a
// request offering them is refused by name rather than answered as if it had sent none.
await group('tools on a template that never renders them', async () => {
    const fn = [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }];
    const base = { messages: MSGS, max_tokens: 2, tools: fn };
    openai_error_ok('chat, tool_choice auto', await post(srv, '/v1/chat/completions', base), 400, 'tools');
    openai_error_ok('chat, tool_choice absent (auto)', await post(srv, '/v1/chat/completions', { ...base, tool_choice: undefined }), 400, 'tools');
    openai_error_ok('chat, tool_choice required', await post(srv, '/v1/chat/completions', { ...base, tool_choice: 'required' }), 400, 'tools');
    const none = await post(srv, '/v1/chat/completions', { ...base, tool_choice: 'none' });
    check('chat, tool_choice none: 200, no tool calls', none.status === 200 && !none.json.choices[0].message.tool_calls,
        `${none.status} ${none.text.slice(0, 200)}`);
    const a = await post(srv, '/v1/messages', { model: MODEL, messages: MSGS, max_tokens: 2, tools: [{ name: 'get_time', input_schema: { type: 'object' } }] });
    check('messages, tools: 400 invalid_request_error naming tools', a.status === 400 && a.json.type === 'error' &&
        a.json.error.type === 'invalid_request_error' && a.json.error.message.includes('tools'), `${a.status} ${a.text.slice(0, 300)}`);
    const an = await post(srv, '/v1/messages', { model: MODEL, messages: MSGS, max_tokens: 2, tools: [{ name: 'get_time', input_schema: { type: 'object' } }],
        tool_choice: { type: 'none' } });
    check('messages, tool_choice none: 200', an.status === 200, `${an.status} ${an.text.slice(0, 200)}`);
    const r = await post(srv, '/v1/responses', { input: 'hi', max_output_tokens: 2, tools: [{ type: 'function', name: 'get_time', parameters: { type: 'object' } }] });
    check('responses, tools: 400 naming tools', r.status === 400 && r.json.error && String(r.json.error.message).includes('tools'),
        `${r.status} ${r.text.slice(0, 300)}`);
    await still_serving('after tools were refused');
});

await group('mutated requests (seeded)', async () => {
    let x = 12345;
    const rnd = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return (x >> 8) % n; };
    const VALUES = [null, true, false, 0, -1, 1, 2.5, -1e308, 1e308, 4294967297, '', 'x', '\u0000', 'é😀', 'a'.repeat(100000), [], [1], [null],
        [{}], {}, { a: 1 }, { type: 'text', text: 1 }, [{ role: 'user' }], [{ role: 'user', content: [{ type: 'text' }] }], JSON.parse('['.repeat(60) + ']'.repeat(60))];
    const bases = {
        '/v1/chat/completions': { model: MODEL, messages: MSGS, max_tokens: 3, temperature: 0.5, top_p: 0.9, n: 1, stop: ['x'], seed: 1, stream: false,
            logprobs: false, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], tool_choice: 'none',
            response_format: { type: 'text' }, stream_options: null, logit_bias: { 5: 1 }, frequency_penalty: 0, presence_penalty: 0 },
        '/v1/completions': { model: MODEL, prompt: 'Once', max_tokens: 3, temperature: 0.5, echo: false, logprobs: null, stop: 'x', n: 1, suffix: null },
        '/v1/messages': { model: MODEL, max_tokens: 3, messages: MSGS, system: 'Be brief.', temperature: 0.5, top_k: 5, stop_sequences: ['x'],
            tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: { type: 'none' }, metadata: { user_id: 'u' } },
        '/v1/messages/count_tokens': { model: MODEL, messages: MSGS, system: 'Be brief.' },
        '/v1/responses': { model: MODEL, input: 'hi', instructions: 'Be brief.', max_output_tokens: 3, temperature: 0.5, text: { format: { type: 'text' } } },
        '/tokenize': { content: 'hello', add_special: false, with_pieces: true },
        '/detokenize': { tokens: [1, 2, 3] },
        '/apply-template': { messages: MSGS },
    };
    const bad5xx = [];
    let n = 0, n4xx = 0, n2xx = 0;
    for (const [route, base] of Object.entries(bases)) {
        const keys = Object.keys(base);
        for (let k = 0; k < 24; k++) {
            const b = structuredClone(base);
            const key = keys[rnd(keys.length)];
            if (rnd(6) === 0) delete b[key];
            else b[key] = VALUES[rnd(VALUES.length)];
            if (rnd(4) === 0) b[keys[rnd(keys.length)]] = VALUES[rnd(VALUES.length)];
            if (b.stream === true && rnd(2)) b.stream = false;
            let r;
            try {
                r = await post(srv, route, b);
            } catch (e) {
                r = { status: `no response (${e.message})`, text: '' };
            }
            n++;
            if (typeof r.status === 'number' && r.status < 300) n2xx++;
            else if (typeof r.status === 'number' && r.status < 500) n4xx++;
            if (typeof r.status !== 'number' || r.status >= 500 || (r.status >= 400 && !r.json)) {
                bad5xx.push(`${route} ${key}=${JSON.stringify(b[key]).slice(0, 60)} -> ${r.status} ${r.text.slice(0, 120)}`);
            }
        }
    }
    check(`${n} mutated requests (${n2xx} 2xx, ${n4xx} 4xx): none 5xx, every 4xx JSON`, bad5xx.length === 0, () => bad5xx.slice(0, 5).join(' || '));
    await still_serving('after the mutated requests');
});

await group('body limits and slow clients', async () => {
    const MiB = 1 << 20;
    const chunks = function* () {
        yield Buffer.from('{"messages": [{"role": "user", "content": "');
        const block = Buffer.alloc(MiB, 'a');
        for (let i = 0; i < 64; i++) yield block;
        yield Buffer.from('"}]}');
    };
    const len = 64 * MiB + Buffer.byteLength('{"messages": [{"role": "user", "content": "') + Buffer.byteLength('"}]}');
    const a = await raw_post(srv, '/v1/chat/completions', { length: len, chunks, expect_continue: true });
    check('64 MiB body with Expect: 100-continue: 413 JSON error', a.status === 413 && /error/.test(a.text || ''), JSON.stringify(a).slice(0, 300));
    // Without Expect the server reads the body to its end and then answers: a client that
    // writes all of it before reading gets the 413, never a reset (EPIPE / ECONNRESET).
    const b = await raw_post(srv, '/v1/chat/completions', { length: len, chunks });
    check('64 MiB body sent at once: 413', b.status === 413, JSON.stringify(b).slice(0, 300));
    const body = Buffer.concat([...chunks()]);
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await write_then_read(srv.port, 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body));
    eq('64 MiB written whole before reading, 5 times: a 413 JSON error each time', got.map((g) => g.error ||
        (/^HTTP\/1\.1 413 /.test(g.text) && /"error"/.test(g.text) ? 413 : g.text.slice(0, 40))), [413, 413, 413, 413, 413]);
    const c = await raw_post(srv, '/v1/chat/completions', { chunks, headers: { 'transfer-encoding': 'chunked' } });
    check('64 MiB chunked body without a length: 413', c.status === 413, JSON.stringify(c).slice(0, 300));
    await still_serving('after 64 MiB bodies');
    // A client that sends half a request and then nothing is dropped at the read timeout (3 s).
    const t0 = Date.now();
    const closed = await new Promise((resolve) => {
        const sock = net.connect(srv.port, '127.0.0.1', () => sock.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"mess'));
        const timer = setTimeout(() => { sock.destroy(); resolve(false); }, 12000);
        sock.on('close', () => { clearTimeout(timer); resolve(true); });
        sock.on('error', () => { /* close follows */ });
        sock.resume();
    });
    const dt = (Date.now() - t0) / 1000;
    check('a trickling client is closed by the read timeout (--timeout 3)', closed && dt >= 2 && dt < 9, `closed ${closed} after ${dt.toFixed(1)} s`);
    let hh;
    try {
        hh = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 2 }, { 'x-big': 'a'.repeat(256 * 1024) });
    } catch (e) {
        hh = { status: `no response (${e.cause ? e.cause.code : e.message})` };
    }
    // As with a body, the server may answer and close while the client still sends: a reset.
    check('a 256 KiB header: refused with a 4xx (or reset while sending), never 5xx', (hh.status >= 400 && hh.status < 500)
        || /UND_ERR_SOCKET|ECONNRESET|EPIPE/.test(String(hh.status)), `${hh.status}`);
    await still_serving('after a trickling client and a huge header');
});

await srv.stop();

await group('the connection limit: a 503 to read, not a reset', async () => {
    const lim = await start_server('errors-limit', ['-np', '1']);
    const idle = [];
    for (let i = 0; i < 256; i++) {
        idle.push(await new Promise((resolve) => {
            const sk = net.connect(lim.port, '127.0.0.1', () => resolve(sk));
            sk.on('error', () => resolve(sk));
        }));
    }
    await sleep(300);
    const over = await write_then_read(lim.port, 'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n', Buffer.alloc(0));
    check('257th connection: 503 JSON error with Retry-After, then closed', /^HTTP\/1\.1 503 /.test(over.text || '') &&
        /Retry-After: 1/i.test(over.text) && /"too many connections/.test(over.text), JSON.stringify(over).slice(0, 300));
    for (const sk of idle) sk.destroy();
    await sleep(300);
    const ok = await get(lim, '/v1/models');
    eq('the idle connections gone: requests answered again', ok.status, 200);
    await lim.stop();
});

// ---- the hybrid model (tens of ms a token) on one slot: queue and disconnects -------------
const hs = await start_server('errors-queue', ['-m', HYBRID, '-np', '1', '--max-queue', '2', '-c', '8192', '-b', '64']);
const HM = await model_id(hs);
const long_req = (max_tokens, extra = {}) => post(hs, '/v1/chat/completions', { model: HM, messages: MSGS, max_tokens, temperature: 0, ...extra });

async function slots_state() {
    const r = await get(hs, '/slots');
    return slots_busy(r.json);
}
async function wait_idle(ms) {
    const t0 = Date.now();
    for (;;) {
        const b = await slots_state();
        if (b && b.length && b.every((x) => x === false)) return Date.now() - t0;
        if (Date.now() - t0 > ms) return -1;
        await sleep(10);
    }
}

await group('queue full: 503 with Retry-After', async () => {
    const s0 = await slots_state();
    check('/slots: one slot, idle', s0 && s0.length === 1 && s0[0] === false, JSON.stringify(s0));
    // 1 running + 2 waiting fill it; everything after that is refused until one ends. The
    // running one is long (thousands of tokens) and cancelled once the refusals are seen; the
    // two waiting ones are short and must then be served. (One at a time, so that each has
    // reached the slot or the queue before the next.)
    const ac = new AbortController();
    const first = fetch(`${hs.url}/v1/chat/completions`, { method: 'POST', signal: ac.signal, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: HM, messages: MSGS, max_tokens: 6000, temperature: 0, ignore_eos: true }) })
        .then((r) => r.status).catch((e) => (e.name === 'AbortError' ? 'aborted' : String(e)));
    await sleep(200);
    const waiting = [];
    for (let i = 0; i < 2; i++) {
        waiting.push(long_req(8));
        await sleep(200);
    }
    const burst = await Promise.all([long_req(4), long_req(4), long_req(4)]);
    const ant = await post(hs, '/v1/messages', { model: HM, max_tokens: 4, messages: MSGS });
    ac.abort();
    check('3 more while full: all 503', burst.every((r) => r.status === 503), burst.map((r) => r.status).join(' '));
    check('503s carry Retry-After (whole seconds >= 1)', burst.every((r) => /^\d+$/.test(r.headers.get('retry-after') || '')
        && Number(r.headers.get('retry-after')) >= 1), burst.map((r) => r.headers.get('retry-after')).join(' '));
    check('503 body: an OpenAI error', burst.every((r) => r.json && r.json.error && typeof r.json.error.message === 'string'), burst[0].text);
    check('Anthropic route while full: 503/529 overloaded_error', [503, 529].includes(ant.status) && ant.json && ant.json.type === 'error'
        && ant.json.error.type === 'overloaded_error' && ant.headers.get('retry-after'), `${ant.status} ${ant.text}`);
    eq('the long one was still running (then cancelled by its client)', await first, 'aborted');
    const done = await Promise.all(waiting);
    check('the 2 waiting ones are then served 200', done.every((r) => r.status === 200), done.map((r) => `${r.status} ${r.text.slice(0, 100)}`).join(' | '));
    const after = await long_req(2);
    eq('then a new request is served', after.status, 200);
});

await group('disconnects free the slot', async () => {
    // during generation (streamed): read the first content delta, then go away
    const ac = new AbortController();
    const resp = await fetch(`${hs.url}/v1/chat/completions`, { method: 'POST', signal: ac.signal, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: HM, messages: MSGS, max_tokens: 400, temperature: 0, stream: true }) });
    const reader = resp.body.getReader();
    let got = '';
    while (!/"content":"[^"]/.test(got)) {
        const { value, done } = await reader.read();
        if (done) break;
        got += Buffer.from(value).toString();
    }
    const busy = await slots_state();
    check('while generating: the slot is busy', busy && busy[0] === true, JSON.stringify(busy));
    ac.abort();
    const idle_ms = await wait_idle(3000);
    note(`left during generation: slot idle ${idle_ms} ms later`);
    check('client gone during generation: the slot is idle within 1 s', idle_ms >= 0 && idle_ms < 1000, `${idle_ms} ms`);
    const t0 = Date.now();
    const next = await long_req(2);
    check('a new request is served at once', next.status === 200 && Date.now() - t0 < 3000, `${next.status} in ${Date.now() - t0} ms`);

    // during prefill (not streamed): a long prompt, the client leaves a quarter of the way in
    const big = [{ role: 'user', content: 'river mountain lantern quiet harbor signal copper meadow '.repeat(800) }];
    const t1 = Date.now();
    const cold = await post(hs, '/v1/chat/completions', { model: HM, messages: big, max_tokens: 1, cache_salt: `p${process.pid}a` });
    const prefill_ms = Date.now() - t1;
    check('the long prompt is served (and takes a while)', cold.status === 200 && prefill_ms > 200,
        `${cold.status} ${prefill_ms} ms ${cold.text.slice(0, 200)}`);
    if (cold.status !== 200) return;
    const ac2 = new AbortController();
    const pending = fetch(`${hs.url}/v1/chat/completions`, { method: 'POST', signal: ac2.signal, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: HM, messages: big, max_tokens: 200, cache_salt: `p${process.pid}b` }) }).catch(() => null);
    await sleep(Math.max(30, prefill_ms / 4));
    const busy2 = await slots_state();
    check('during prefill: the slot is busy', busy2 && busy2[0] === true, JSON.stringify(busy2));
    ac2.abort();
    await pending;
    const idle2 = await wait_idle(prefill_ms * 4 + 2000);
    note(`prefill of ${cold.json.usage.prompt_tokens} tokens: ${prefill_ms} ms; left at ${Math.max(30, prefill_ms / 4).toFixed(0)} ms, slot idle ${idle2} ms later`);
    check('client gone during prefill: the slot is idle before the prefill could have ended', idle2 >= 0 && idle2 < Math.max(prefill_ms / 2, 150),
        `idle after ${idle2} ms; the whole prefill takes ${prefill_ms} ms`);
    const next2 = await long_req(2);
    eq('then a new request is served', next2.status, 200);
    if (!hs.alive()) fail('the queue server survived');
});

await hs.stop();
finish('test_errors');
