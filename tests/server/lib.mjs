// lib.mjs — what the server's end-to-end tests share: the check counters, starting and
// stopping `frink serve` (port 0, the port read from its "http://HOST:PORT" line), raw HTTP
// and SSE helpers for what the SDKs hide, and the models the suites run.
//
// Every server a suite starts is killed when the suite's process ends, however it ends, and
// its pid is appended to $FRINK_TEST_PIDS (when set) so run.sh's trap can kill it even if
// node itself is killed. A server that exits while a suite still uses it is a failure:
// bad input must never crash it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { isDeepStrictEqual, inspect } from 'node:util';

export const BIN = process.env.FRINK_BIN || 'build/frink';
export const WORK = process.env.FRINK_SERVER_WORK || 'build/server-test';
// The tiny hybrid (Gated DeltaNet + attention) model with a real vocabulary and a chat
// template: run.sh generates it with `frink gen` (tests/data/archs/qwen35-dense.gguf has a
// made-up 128-token vocabulary that no tokenizer loads).
export const HYBRID = process.env.FRINK_HYBRID_MODEL || path.join(WORK, 'qwen35-chat.gguf');
export const TEMPLATES = 'tests/data/templates';

let n_pass = 0, n_fail = 0;
const servers = new Set();

export function pass(name) {
    n_pass++;
    console.log(`  ok   ${name}`);
}

export function fail(name, detail) {
    n_fail++;
    console.log(`  FAIL ${name}${detail === undefined ? '' : ': ' + detail}`);
}

// A figure worth seeing in the log (not a check).
export function note(text) {
    console.log(`  ..   ${text}`);
}

export function check(name, cond, detail) {
    if (cond) pass(name);
    else fail(name, typeof detail === 'function' ? detail() : detail);
    return !!cond;
}

function show(v) {
    const s = typeof v === 'string' ? JSON.stringify(v) : inspect(v, { depth: 6, breakLength: 160 });
    return s.length > 600 ? s.slice(0, 600) + '...' : s;
}

// Deep equality, printing both sides on failure.
export function eq(name, got, want) {
    return check(name, isDeepStrictEqual(got, want), () => `got ${show(got)}, want ${show(want)}`);
}

// Runs one named group of checks; an exception is one failure and the suite goes on.
export async function group(name, fn) {
    console.log(`# ${name}`);
    try {
        await fn();
    } catch (e) {
        fail(`${name}: threw`, (e && e.stack ? e.stack.split('\n').slice(0, 4).join(' | ') : String(e)));
    }
}

// Asserts that `fn` throws an instance of `cls` (an SDK error class); returns the error.
export async function throws(name, cls, fn, extra) {
    try {
        const r = await fn();
        fail(name, `no error, got ${show(r)}`);
        return null;
    } catch (e) {
        if (!(e instanceof cls)) {
            fail(name, `want ${cls.name}, got ${e && e.constructor ? e.constructor.name : typeof e}: ${e && e.message}`);
            return e;
        }
        if (extra) {
            const why = extra(e);
            if (why) {
                fail(name, `${cls.name} but ${why}`);
                return e;
            }
        }
        pass(name);
        return e;
    }
}

export function finish(suite) {
    for (const s of servers) s.kill();
    console.log(`${suite}: ${n_pass} passed, ${n_fail} failed`);
    process.exitCode = n_fail ? 1 : 0;
    // The SDKs keep sockets alive: do not wait for them.
    setTimeout(() => process.exit(n_fail ? 1 : 0), 50).unref();
}

process.on('exit', () => {
    for (const s of servers) s.kill();
});
for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
        for (const s of servers) s.kill();
        process.exit(130);
    });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts `frink serve --port 0 ARGS...` and waits until /health answers 200. `name` names
// its log file (WORK/logs/NAME.log: its stdout and stderr).
export async function start_server(name, args = [], { timeout_ms = 60000, env } = {}) {
    fs.mkdirSync(path.join(WORK, 'logs'), { recursive: true });
    const log_path = path.join(WORK, 'logs', `${name}.log`);
    const log = fs.createWriteStream(log_path);
    const argv = ['serve', '--port', '0', ...args];
    log.write(`$ ${BIN} ${argv.join(' ')}\n`);
    const proc = spawn(BIN, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '', err = '';
    const srv = {
        name,
        proc,
        pid: proc.pid,
        url: null,
        stopping: false,
        exited: null,
        stderr: () => err,
        log_path,
        kill() {
            if (this.exited) return;
            this.stopping = true;
            try { proc.kill('SIGKILL'); } catch { /* gone */ }
        },
        // SIGTERM, then SIGKILL after 5 s; a server that does not stop on SIGTERM is a failure.
        async stop() {
            if (this.exited) { servers.delete(this); return; }
            this.stopping = true;
            proc.kill('SIGTERM');
            const t0 = Date.now();
            while (!this.exited && Date.now() - t0 < 5000) await sleep(20);
            if (!this.exited) {
                fail(`${name}: server stops on SIGTERM`, 'still running after 5 s');
                proc.kill('SIGKILL');
                while (!this.exited) await sleep(20);
            } else {
                // A clean stop exits 0; a sanitizer's report (leaks at exit included) does not.
                const san = err.match(/(ERROR: \w+Sanitizer|runtime error:|WARNING: ThreadSanitizer)[^\n]*/);
                check(`${name}: server exits 0 on SIGTERM, no sanitizer report`, this.exited.code === 0 && !san,
                    () => `code ${this.exited.code} signal ${this.exited.signal}; ${san ? san[0] : ''} ${err.slice(-600)}`);
            }
            servers.delete(this);
        },
        // Checks the server is alive (not crashed by what a test sent).
        alive() {
            return !this.exited;
        },
    };
    servers.add(srv);
    if (process.env.FRINK_TEST_PIDS) fs.appendFileSync(process.env.FRINK_TEST_PIDS, `${proc.pid}\n`);
    proc.stdout.on('data', (d) => { out += d; log.write(d); });
    proc.stderr.on('data', (d) => { err += d; if (err.length > 1 << 20) err = err.slice(-(1 << 19)); log.write(d); });
    proc.on('exit', (code, signal) => {
        srv.exited = { code, signal };
        log.end(`\n[exit code=${code} signal=${signal}]\n`);
        if (!srv.stopping) fail(`${name}: server exited unexpectedly`, `code ${code} signal ${signal}; stderr: ${err.slice(-800)}`);
    });
    const t0 = Date.now();
    while (!srv.url) {
        const m = out.match(/http:\/\/([^\s/]+):(\d+)/);
        if (m) {
            const host = m[1] === '0.0.0.0' ? '127.0.0.1' : m[1];
            srv.port = Number(m[2]);
            srv.url = `http://${host}:${srv.port}`;
            break;
        }
        if (srv.exited) throw new Error(`${name}: server exited before listening: ${err.slice(-800)}`);
        if (Date.now() - t0 > timeout_ms) throw new Error(`${name}: no "http://HOST:PORT" line on stdout after ${timeout_ms} ms`);
        await sleep(20);
    }
    for (;;) {
        try {
            const r = await fetch(`${srv.url}/health`);
            await r.text();
            if (r.status === 200) break;
        } catch { /* not yet */ }
        if (srv.exited) throw new Error(`${name}: server exited while loading: ${err.slice(-800)}`);
        if (Date.now() - t0 > timeout_ms) throw new Error(`${name}: /health not 200 after ${timeout_ms} ms`);
        await sleep(50);
    }
    return srv;
}

// The id the server lists first in /v1/models.
export async function model_id(srv) {
    const r = await fetch(`${srv.url}/v1/models`);
    const j = await r.json();
    return j.data[0].id;
}

// A request with a JSON (object) or raw (string / Buffer) body; never throws on an HTTP
// status. Returns {status, headers, text, json} (json null when the body is not JSON).
export async function req(srv, method, route, body, headers = {}) {
    const h = { ...headers };
    let b = body;
    if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
        b = JSON.stringify(body);
    }
    if (b !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
    const r = await fetch(`${srv.url}${route}`, { method, headers: h, body: b });
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, headers: r.headers, text, json };
}

export const post = (srv, route, body, headers) => req(srv, 'POST', route, body, headers);
export const get = (srv, route, headers) => req(srv, 'GET', route, undefined, headers);

// Parses an SSE body strictly: events are separated by one blank line; each line is
// "event: X", "data: Y" or a ": comment". Returns {events: [{event, data, json}], comments,
// errors: [strings about framing]}.
export function parse_sse(text) {
    const events = [], errors = [];
    let comments = 0;
    if (text.length && !text.endsWith('\n\n')) errors.push('stream does not end with a blank line');
    const blocks = text.split('\n\n');
    if (blocks.length && blocks[blocks.length - 1] === '') blocks.pop();
    for (const block of blocks) {
        let ev = null, data = null;
        for (const line of block.split('\n')) {
            if (line.startsWith(':')) { comments++; continue; }
            if (line.startsWith('event: ')) { if (ev !== null) errors.push('two event lines in one event'); ev = line.slice(7); continue; }
            if (line.startsWith('data: ')) { data = data === null ? line.slice(6) : data + '\n' + line.slice(6); continue; }
            errors.push(`bad line ${JSON.stringify(line.slice(0, 80))}`);
        }
        if (data === null) {
            if (ev !== null) errors.push(`event ${ev} without data`);
            continue;
        }
        let json = null;
        if (data !== '[DONE]') {
            try { json = JSON.parse(data); } catch { errors.push(`data not JSON: ${data.slice(0, 80)}`); }
        }
        events.push({ event: ev, data, json });
    }
    return { events, comments, errors };
}

// POSTs a streaming request and reads the whole SSE body.
export async function sse(srv, route, body, headers = {}) {
    const r = await req(srv, 'POST', route, body, headers);
    return { ...r, ...parse_sse(r.text) };
}

// Server RSS in KiB (VmRSS of /proc/PID/status).
export function rss_kib(srv) {
    const s = fs.readFileSync(`/proc/${srv.pid}/status`, 'utf8');
    const m = s.match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) : NaN;
}

// A POST with a body from a generator of chunks through node:http (fetch cannot send an
// `Expect: 100-continue` or survive the server answering before the body is sent).
// Resolves {status, headers, text} or {error} when no response came.
export function raw_post(srv, route, { headers = {}, length, chunks, expect_continue = false, timeout_ms = 30000 }) {
    return new Promise((resolve) => {
        const u = new URL(srv.url);
        const h = { 'content-type': 'application/json', ...headers };
        if (length !== undefined) h['content-length'] = String(length);
        if (expect_continue) h.expect = '100-continue';
        let done = false;
        const finish_with = (v) => { if (!done) { done = true; clearTimeout(timer); resolve(v); } };
        const rq = http.request({ host: u.hostname, port: u.port, path: route, method: 'POST', headers: h });
        const timer = setTimeout(() => { rq.destroy(); finish_with({ error: 'timeout' }); }, timeout_ms);
        let write_error = null;
        rq.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => { text += d; });
            res.on('end', () => finish_with({ status: res.statusCode, headers: res.headers, text }));
            res.on('error', () => finish_with({ status: res.statusCode, headers: res.headers, text }));
        });
        rq.on('error', (e) => { write_error = e; setTimeout(() => finish_with({ error: String(e) }), 200); });
        const send = async () => {
            for (const c of chunks()) {
                if (done || write_error) return;
                if (!rq.write(c)) await new Promise((r) => { rq.once('drain', r); rq.once('close', r); });
            }
            if (!done && !write_error) rq.end();
        };
        if (expect_continue) rq.on('continue', send);
        else send();
    });
}

// A few words of seed text per index, so requests differ without relying on the model.
const WORDS = ['cat', 'dog', 'tree', 'ball', 'sun', 'boat', 'bird', 'cake', 'fish', 'frog', 'star', 'rain', 'park', 'book',
    'milk', 'hat', 'toy', 'moon', 'car', 'duck'];
export function prompt_words(i, n = 4) {
    const w = [];
    for (let k = 0; k < n; k++) w.push(WORDS[(i * 7 + k * 3 + (i >> 2)) % WORDS.length]);
    return `Tell me a story about a ${w.join(' and a ')} (number ${i}).`;
}

// Runs fns with at most `limit` at once; resolves to their results in order.
export async function pool(limit, fns) {
    const out = new Array(fns.length);
    let next = 0;
    const worker = async () => {
        while (next < fns.length) {
            const i = next++;
            out[i] = await fns[i]();
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, fns.length) }, worker));
    return out;
}

// The busy flags of GET /slots, whatever of llama-server's shapes the server uses (an array
// of slots or {slots: [...]}, with is_processing, busy or state).
export function slots_busy(j) {
    const arr = Array.isArray(j) ? j : j && Array.isArray(j.slots) ? j.slots : null;
    if (!arr) return null;
    return arr.map((s) => {
        if (typeof s.is_processing === 'boolean') return s.is_processing;
        if (typeof s.busy === 'boolean') return s.busy;
        if (typeof s.state === 'number') return s.state !== 0;
        if (typeof s.state === 'string') return s.state !== 'idle';
        return undefined;
    });
}
