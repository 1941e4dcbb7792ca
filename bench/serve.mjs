// bench/serve.mjs — measures `frink serve` as clients see it (run through bench/serve; see
// --help). Every figure is taken on the client side from streamed replies:
//   TTFT  time from sending the request to the first content delta;
//   TPOT  time per output token after the first: (last delta - first delta) / (tokens - 1);
//   tok/s all generated tokens of a level divided by the level's wall time.
// Workloads: N requests with distinct prompts at concurrency 1, 4, 8, 16 (ignore_eos, so every
// request generates exactly --max-tokens), then a shared-prefix one: multi-turn chats that
// re-send their growing history, and a long conversation sent cold and then re-sent.
// Talks plain HTTP with fetch: no npm package needed.
import { spawn } from 'node:child_process';
import os from 'node:os';

const HELP = `usage: bench/serve -m MODEL [--requests N] [--max-tokens N] [flags]
Starts \`frink serve -m MODEL -np 16 --port 0\` (or uses --url) and measures, streaming:
aggregate generated tok/s, time to first token (TTFT) and time per output token (TPOT),
p50 and p99, at concurrency 1, 4, 8 and 16; then a shared-prefix workload (chats that
re-send their history each turn: cached tokens and TTFT per turn) and a long conversation
sent cold and re-sent. Prints markdown tables.
  -m MODEL             GGUF model (default: the embedded stories260K)
  --requests N         requests per concurrency level (default 32)
  --max-tokens N       tokens generated per request (default 64; ignore_eos)
  --prompt-words N     words in each request's prompt (default 48)
  --temperature T      sampling temperature of every request (default 0.8; 0: greedy)
  --concurrency LIST   levels (default 1,4,8,16)
  -np N                server slots (default 16)
  -c N                 server context per slot (default: the server's)
  -t N                 server threads (default: the server's)
  --turns N            turns of each shared-prefix chat (default 4)
  --chats N            shared-prefix chats run at once (default 4)
  --long-tokens N      tokens of the long conversation (default 2000; at most a slot's context)
  --no-shared          skip the shared-prefix workloads
  --bin PATH           frink binary (default $FRINK_BIN or build/frink)
  --url URL            benchmark a server already running (no -m, -np, -c, -t)
  --json               also print every figure as one JSON line
  -h, --help           this text
example: bench/serve -m models/llama-1b-q4_k_m.gguf --requests 32 --max-tokens 64`;

function parse_args(argv) {
    const o = { model: null, requests: 32, max_tokens: 64, prompt_words: 48, levels: [1, 4, 8, 16], np: 16, ctx: null, threads: null,
        turns: 4, chats: 4, long_tokens: 2000, temperature: 0.8, shared: true, bin: process.env.FRINK_BIN || 'build/frink', url: null, json: false };
    const int = (v, name) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) die(`${name}: a positive integer, got ${JSON.stringify(v)}`);
        return n;
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const v = () => {
            if (i + 1 >= argv.length) die(`${a} needs a value`);
            return argv[++i];
        };
        switch (a) {
        case '-h': case '--help': console.log(HELP); process.exit(0); break;
        case '-m': case '--model': o.model = v(); break;
        case '--requests': o.requests = int(v(), a); break;
        case '--max-tokens': o.max_tokens = int(v(), a); break;
        case '--prompt-words': o.prompt_words = int(v(), a); break;
        case '--temperature': {
            o.temperature = Number(v());
            if (!Number.isFinite(o.temperature) || o.temperature < 0) die(`--temperature: a number >= 0, got ${JSON.stringify(argv[i])}`);
            break;
        }
        case '--concurrency': o.levels = v().split(',').map((x) => int(x, a)); break;
        case '-np': case '--parallel': o.np = int(v(), a); break;
        case '-c': case '--ctx-size': o.ctx = int(v(), a); break;
        case '-t': case '--threads': o.threads = int(v(), a); break;
        case '--turns': o.turns = int(v(), a); break;
        case '--chats': o.chats = int(v(), a); break;
        case '--long-tokens': o.long_tokens = int(v(), a); break;
        case '--no-shared': o.shared = false; break;
        case '--bin': o.bin = v(); break;
        case '--url': o.url = v().replace(/\/+$/, ''); break;
        case '--json': o.json = true; break;
        default: die(`unknown argument ${JSON.stringify(a)} (--help lists them)`);
        }
    }
    return o;
}

function die(msg) {
    console.error(`bench/serve: ${msg}`);
    process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

let server = null;
function stop_server() {
    if (server && server.exitCode === null) server.kill('SIGTERM');
}
process.on('exit', stop_server);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stop_server(); process.exit(130); });

async function start(o) {
    const args = ['serve', '--port', '0', '-np', String(o.np)];
    if (o.model) args.push('-m', o.model);
    if (o.ctx) args.push('-c', String(o.ctx));
    if (o.threads) args.push('-t', String(o.threads));
    server = spawn(o.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    server.stdout.on('data', (d) => { out += d; });
    server.stderr.on('data', (d) => { err += d; });
    server.on('error', (e) => die(`cannot run ${o.bin}: ${e.message}`));
    const t0 = now();
    let url = null;
    while (!url) {
        const m = out.match(/http:\/\/([^\s/]+):(\d+)/);
        if (m) url = `http://${m[1] === '0.0.0.0' ? '127.0.0.1' : m[1]}:${m[2]}`;
        else if (server.exitCode !== null) die(`the server exited: ${err.trim().split('\n').slice(-3).join(' | ')}`);
        else if (now() - t0 > 300000) die('the server printed no address in 5 minutes');
        else await sleep(20);
    }
    for (;;) {
        try {
            const r = await fetch(`${url}/health`);
            await r.text();
            if (r.status === 200) break;
        } catch { /* loading */ }
        if (server.exitCode !== null) die(`the server exited while loading: ${err.trim().split('\n').slice(-3).join(' | ')}`);
        if (now() - t0 > 600000) die('the server was not ready in 10 minutes');
        await sleep(100);
    }
    return { url, info: err.trim().split('\n').filter((l) => /ready/.test(l)).pop() || '' };
}

const WORDS = ('the a river mountain lantern quiet harbor signal copper meadow thunder violet engine garden candle winter orbit marble '
    + 'pepper silver canyon feather ticket window pocket shadow little happy girl boy dog cat played found big tree house sun').split(' ');
function words(seed, n) {
    const w = [];
    let x = (seed * 2654435761 + 1) % 2147483648;
    for (let i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        w.push(WORDS[(x >> 8) % WORDS.length]);
    }
    return w.join(' ');
}

// One streamed chat request: {ttft, tpot, n, cached, prompt, ms} (times in ms).
let temperature = 0.8;
async function one(url, model, messages, max_tokens, extra = {}) {
    const body = { model, messages, max_tokens, stream: true, stream_options: { include_usage: true }, temperature, ignore_eos: true, ...extra };
    const t0 = now();
    const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${(await r.text()).slice(0, 200)}`);
    const dec = new TextDecoder();
    let buf = '', t_first = null, t_last = null, usage = null, deltas = 0;
    for await (const chunk of r.body) {
        buf += dec.decode(chunk, { stream: true });
        let k;
        while ((k = buf.indexOf('\n\n')) >= 0) {
            const ev = buf.slice(0, k);
            buf = buf.slice(k + 2);
            for (const line of ev.split('\n')) {
                if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
                const j = JSON.parse(line.slice(6));
                if (j.usage) usage = j.usage;
                const c = j.choices && j.choices[0];
                if (c && c.delta && c.delta.content) {
                    const t = now();
                    if (t_first === null) t_first = t;
                    t_last = t;
                    deltas++;
                }
            }
        }
    }
    const n = usage ? usage.completion_tokens : deltas;
    return {
        ttft: (t_first ?? now()) - t0,
        tpot: n > 1 && t_first !== null ? (t_last - t_first) / (n - 1) : NaN,
        n,
        prompt: usage ? usage.prompt_tokens : NaN,
        cached: usage && usage.prompt_tokens_details ? usage.prompt_tokens_details.cached_tokens : NaN,
        ms: now() - t0,
    };
}

function pct(xs, p) {
    const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    if (!v.length) return NaN;
    return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');

async function level(o, url, model, c, salt) {
    const rs = [], errors = [];
    let next = 0;
    const t0 = now();
    const worker = async () => {
        while (next < o.requests) {
            const i = next++;
            const msgs = [{ role: 'user', content: `${salt}-${c}-${i}: ${words(c * 1000 + i, o.prompt_words)}` }];
            try {
                rs.push(await one(url, model, msgs, o.max_tokens, { seed: i }));
            } catch (e) {
                errors.push(String(e.message || e));
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(c, o.requests) }, worker));
    const wall = (now() - t0) / 1000;
    const toks = rs.reduce((a, r) => a + r.n, 0);
    if (errors.length) console.error(`bench/serve: concurrency ${c}: ${errors.length} requests failed, e.g. ${errors[0]}`);
    return { c, requests: rs.length, failed: errors.length, tokens: toks, wall_s: wall, tok_s: toks / wall,
        ttft_p50: pct(rs.map((r) => r.ttft), 50), ttft_p99: pct(rs.map((r) => r.ttft), 99),
        tpot_p50: pct(rs.map((r) => r.tpot), 50), tpot_p99: pct(rs.map((r) => r.tpot), 99) };
}

// Chats that re-send their history: turn t sends every earlier turn (with the replies the
// server gave) plus a new user message.
async function shared(o, url, model, salt) {
    const sys = `You are a patient storyteller. ${words(7, 120)}`;
    const per_turn = Array.from({ length: o.turns }, () => []);
    await Promise.all(Array.from({ length: o.chats }, async (_, k) => {
        const msgs = [{ role: 'system', content: `${salt}. ${sys} (chat ${k})` }];
        for (let t = 0; t < o.turns; t++) {
            msgs.push({ role: 'user', content: words(k * 100 + t, 60) });
            const r = await one(url, model, msgs, Math.min(o.max_tokens, 32), { seed: t });
            per_turn[t].push(r);
            msgs.push({ role: 'assistant', content: words(k * 100 + t + 50, 30) });
        }
    }));
    return per_turn.map((rs, t) => ({ turn: t + 1, prompt: avg(rs.map((r) => r.prompt)), cached: avg(rs.map((r) => r.cached)),
        ttft: avg(rs.map((r) => r.ttft)) }));
}
const avg = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;

// A long conversation (about --long-tokens, within a slot's context) sent cold (its own cache
// salt: nothing to reuse), then re-sent three times.
async function long_resend(o, url, model, salt, n_ctx) {
    const target = Math.min(o.long_tokens, n_ctx - 64);
    const build = (w) => {
        const msgs = [{ role: 'system', content: words(11, 40) }];
        const turns = 6;
        for (let t = 0; t < turns; t++) {
            msgs.push({ role: 'user', content: words(200 + t, Math.max(1, Math.floor(w / turns / 2))) });
            msgs.push({ role: 'assistant', content: words(300 + t, Math.max(1, Math.floor(w / turns / 2))) });
        }
        msgs.push({ role: 'user', content: words(999, 20) });
        return msgs;
    };
    // Tokens per word differ between vocabularies: size it with the server's own count.
    const count = async (msgs) => {
        const r = await fetch(`${url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model, system: msgs[0].content, messages: msgs.slice(1) }) });
        const j = await r.json();
        if (!Number.isInteger(j.input_tokens)) throw new Error(`count_tokens: ${JSON.stringify(j).slice(0, 200)}`);
        return j.input_tokens;
    };
    let w = 600;
    let n = await count(build(w));
    for (let i = 0; i < 4 && Math.abs(n - target) > target * 0.05; i++) {
        w = Math.max(12, Math.floor(w * target / n));
        n = await count(build(w));
    }
    while (n > n_ctx - 16 && w > 12) { w = Math.floor(w * 0.9); n = await count(build(w)); }
    const msgs = build(w);
    const cs = `${salt}-long`;
    const cold = await one(url, model, msgs, 8, { cache_salt: cs, seed: 1 });
    const warm = [];
    for (let i = 0; i < 3; i++) warm.push(await one(url, model, msgs, 8, { cache_salt: cs, seed: 1 }));
    return { prompt: cold.prompt, cold_ttft: cold.ttft, cold_cached: cold.cached, warm_ttft: pct(warm.map((r) => r.ttft), 50),
        warm_cached: warm[warm.length - 1].cached };
}

const o = parse_args(process.argv.slice(2));
temperature = o.temperature;
let url = o.url, info = '';
if (!url) ({ url, info } = await start(o));
const models = await (await fetch(`${url}/v1/models`)).json();
const model = models.data[0].id;
const salt = `b${process.pid}-${Date.now()}`;
console.log(`# bench/serve: ${model}; ${info.replace(/^frink serve: /, '')}`);
console.log(`# ${os.cpus().length} CPUs (${os.cpus()[0] ? os.cpus()[0].model.trim() : '?'}); ${o.requests} requests a level, `
    + `${o.prompt_words}-word prompts, ${o.max_tokens} tokens each (ignore_eos), temperature ${o.temperature}, streamed`);
await one(url, model, [{ role: 'user', content: 'warm up' }], 4);
const results = { model, levels: [], shared: null, long: null };
console.log('\n| concurrency | requests | failed | tokens | wall s | tok/s | TTFT p50 ms | TTFT p99 ms | TPOT p50 ms | TPOT p99 ms |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const c of o.levels) {
    const r = await level(o, url, model, c, salt);
    results.levels.push(r);
    console.log(`| ${c} | ${r.requests} | ${r.failed} | ${r.tokens} | ${r.wall_s.toFixed(2)} | ${f1(r.tok_s)} | ${f1(r.ttft_p50)} | ${f1(r.ttft_p99)} | `
        + `${f1(r.tpot_p50)} | ${f1(r.tpot_p99)} |`);
}
const base = results.levels.find((r) => r.c === 1);
const c8 = results.levels.find((r) => r.c === 8);
if (base && c8) console.log(`\nconcurrency 8 / concurrency 1 aggregate tok/s: ${(c8.tok_s / base.tok_s).toFixed(2)}x`);
if (o.shared) {
    const s = await shared(o, url, model, salt);
    results.shared = s;
    console.log(`\nshared prefix: ${o.chats} chats at once, each re-sending its history for ${o.turns} turns (means over the chats)\n`);
    console.log('| turn | prompt tokens | cached tokens | TTFT ms |');
    console.log('|---:|---:|---:|---:|');
    for (const t of s) console.log(`| ${t.turn} | ${f0(t.prompt)} | ${f0(t.cached)} | ${f1(t.ttft)} |`);
    const slots = await (await fetch(`${url}/slots`)).json().catch(() => null);
    const n_ctx = (Array.isArray(slots) && slots[0] && slots[0].n_ctx) || (models.data[0].meta && models.data[0].meta.n_ctx) || 2048;
    const l = await long_resend(o, url, model, salt, n_ctx);
    results.long = l;
    console.log(`\nlong conversation: ${l.prompt} prompt tokens\n`);
    console.log('| | cached tokens | TTFT ms |');
    console.log('|---|---:|---:|');
    console.log(`| cold | ${f0(l.cold_cached)} | ${f1(l.cold_ttft)} |`);
    console.log(`| re-sent (p50 of 3) | ${f0(l.warm_cached)} | ${f1(l.warm_ttft)} |`);
    console.log(`\nre-sent TTFT is ${(l.cold_ttft / l.warm_ttft).toFixed(1)}x faster than cold`);
}
if (o.json) console.log(JSON.stringify(results));
stop_server();
