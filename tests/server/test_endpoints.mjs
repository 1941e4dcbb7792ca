// test_endpoints.mjs — the server's own endpoints beside the APIs: /metrics (counters that
// move by what was served), /slots/{id}?action=save|erase|restore (a restored state is reused
// and gives the same output), /props, /apply-template and /tokenize against the prompt a chat
// request counts, /v1/embeddings (501 without --embeddings: test_embed.mjs has the rest), and start-up refusals (a public bind without a key)
// and --api-key-file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, WORK, check, eq, finish, get, group, post, sleep, start_server } from './lib.mjs';

const save_dir = path.join(WORK, 'slot-files');
fs.rmSync(save_dir, { recursive: true, force: true });
fs.mkdirSync(save_dir, { recursive: true });
const srv = await start_server('endpoints', ['-np', '2', '-c', '1024', '--metrics', '--slot-save-path', save_dir, '--cache-ram', '0']);
const MSGS = [{ role: 'user', content: 'Tell me a story about a frog.' }];

function metrics(text) {
    const m = new Map();
    for (const line of text.split('\n')) {
        if (!line || line.startsWith('#')) continue;
        const [k, v] = line.split(/\s+/);
        m.set(k, Number(v));
    }
    return m;
}

await group('/metrics', async () => {
    const r0 = await get(srv, '/metrics');
    check('200 text/plain (Prometheus text)', r0.status === 200 && /^text\/plain/.test(r0.headers.get('content-type') || ''),
        `${r0.status} ${r0.headers.get('content-type')}`);
    const m0 = metrics(r0.text);
    check('every sample line is NAME VALUE with a number', [...m0.values()].every(Number.isFinite) && m0.size >= 5, r0.text.slice(0, 300));
    const want = ['requests_total', 'prompt_tokens_total', 'tokens_predicted_total'];
    const key = (suffix) => [...m0.keys()].find((k) => k.endsWith(suffix));
    check('requests, prompt tokens and generated tokens counters exist', want.every((w) => key(w)), [...m0.keys()].join(' '));
    const c = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 5, temperature: 0 });
    const m1 = metrics((await get(srv, '/metrics')).text);
    const d = (w) => m1.get(key(w)) - m0.get(key(w));
    eq('requests_total +1 after one request', d('requests_total'), 1);
    eq('tokens_predicted_total + the completion tokens', d('tokens_predicted_total'), c.json.usage.completion_tokens);
    eq('prompt_tokens_total + the prompt tokens', d('prompt_tokens_total'), c.json.usage.prompt_tokens);
    const plain = await start_server('endpoints-nometrics', ['-np', '1']);
    const nm = await get(plain, '/metrics');
    check('without --metrics: /metrics refused with a JSON error (404/501/403)', [403, 404, 501].includes(nm.status) && nm.json && nm.json.error,
        `${nm.status} ${nm.text.slice(0, 200)}`);
    const ns = await post(plain, '/slots/0?action=save', { filename: 'x.bin' });
    check('without --slot-save-path: save refused with a JSON error (4xx or 501)', ((ns.status >= 400 && ns.status < 500) || ns.status === 501)
        && ns.json && ns.json.error,
        `${ns.status} ${ns.text.slice(0, 200)}`);
    await plain.stop();
});

await group('/slots save, erase, restore', async () => {
    const body = { messages: MSGS, max_tokens: 6, temperature: 0 };
    const first = await post(srv, '/v1/chat/completions', body);
    const slots = (await get(srv, '/slots')).json;
    const held = Array.isArray(slots) ? slots.find((x) => x.n_tokens > 0) : null;
    check('/slots: a slot holds the conversation', held, JSON.stringify(slots));
    if (!held) return;
    const sv = await post(srv, `/slots/${held.id}?action=save`, { filename: 'frog.bin' });
    check('save: 200, n_saved = the slot\'s tokens, the file written', sv.status === 200 && sv.json.n_saved === held.n_tokens
        && fs.existsSync(path.join(save_dir, 'frog.bin')), `${sv.status} ${sv.text}`);
    const er = await post(srv, `/slots/${held.id}?action=erase`);
    check('erase: 200, n_erased = the tokens it held', er.status === 200 && er.json.n_erased === held.n_tokens, `${er.status} ${er.text}`);
    const after = (await get(srv, '/slots')).json;
    check('erase: no slot holds anything now', Array.isArray(after) && after.every((x) => x.n_tokens === 0), JSON.stringify(after));
    const other = (held.id + 1) % after.length;
    const rs = await post(srv, `/slots/${other}?action=restore`, { filename: 'frog.bin' });
    check('restore into the other slot: 200, n_restored = n_saved', rs.status === 200 && rs.json.n_restored === sv.json.n_saved, `${rs.status} ${rs.text}`);
    const again = await post(srv, '/v1/chat/completions', body);
    check('the same request then reuses the restored state', again.json.usage.prompt_tokens_details.cached_tokens >= again.json.usage.prompt_tokens - 1,
        JSON.stringify(again.json.usage));
    eq('... and gives the same output', again.json.choices[0].message.content, first.json.choices[0].message.content);
    const bad = async (name, route, b) => {
        const r = await post(srv, route, b);
        check(`${name}: a 4xx JSON error`, r.status >= 400 && r.status < 500 && r.json && r.json.error, `${r.status} ${r.text.slice(0, 200)}`);
    };
    await bad('a filename with ../', `/slots/0?action=save`, { filename: '../escape.bin' });
    await bad('an absolute filename', `/slots/0?action=save`, { filename: '/tmp/escape.bin' });
    await bad('an unknown action', `/slots/0?action=explode`, { filename: 'x.bin' });
    await bad('no action', `/slots/0`, { filename: 'x.bin' });
    await bad('slot 99', `/slots/99?action=save`, { filename: 'x.bin' });
    await bad('slot "abc"', `/slots/abc?action=erase`);
    await bad('restore of a missing file', `/slots/0?action=restore`, { filename: 'missing.bin' });
    fs.writeFileSync(path.join(save_dir, 'junk.bin'), 'not a slot file');
    await bad('restore of a file that is not a slot file', `/slots/0?action=restore`, { filename: 'junk.bin' });
    check('nothing escaped the save directory', !fs.existsSync(path.join(WORK, 'escape.bin')) && !fs.existsSync('/tmp/escape.bin'));
    const ok = await post(srv, '/v1/chat/completions', body);
    eq('the server still serves the same output', ok.json && ok.json.choices[0].message.content, first.json.choices[0].message.content);
});

await group('/props, /apply-template, /tokenize, /v1/embeddings', async () => {
    const p = await get(srv, '/props');
    check('/props: JSON with total_slots 2', p.status === 200 && p.json && p.json.total_slots === 2, p.text.slice(0, 300));
    const t = await post(srv, '/apply-template', { messages: MSGS });
    check('/apply-template: the rendered prompt contains the message', t.status === 200 && typeof t.json.prompt === 'string'
        && t.json.prompt.includes(MSGS[0].content), t.text.slice(0, 300));
    const tk = await post(srv, '/tokenize', { content: t.json.prompt, add_special: true, parse_special: true });
    const c = await post(srv, '/v1/chat/completions', { messages: MSGS, max_tokens: 1 });
    eq('its tokens (with the special ones) = the chat request\'s prompt_tokens', tk.json && tk.json.tokens.length, c.json.usage.prompt_tokens);
    const e = await post(srv, '/v1/embeddings', { input: 'hello' });
    check('/v1/embeddings: 501 JSON error', e.status === 501 && e.json && e.json.error, `${e.status} ${e.text.slice(0, 200)}`);
});

await srv.stop();

await group('start-up', async () => {
    // A public address without a key: refused before binding.
    const out = await new Promise((resolve) => {
        const p = spawn(BIN, ['serve', '--host', '0.0.0.0', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        p.stdout.on('data', (d) => { text += d; });
        p.stderr.on('data', (d) => { text += d; });
        const timer = setTimeout(() => { p.kill('SIGKILL'); resolve({ code: 'still running', text }); }, 15000);
        p.on('exit', (code) => { clearTimeout(timer); resolve({ code, text }); });
    });
    check('--host 0.0.0.0 without a key: exits non-zero, never listens, says why', out.code !== 0 && out.code !== 'still running'
        && !/http:\/\//.test(out.text) && /insecure-public|api-key/.test(out.text), JSON.stringify(out));
    const kf = path.join(WORK, 'key.txt');
    fs.writeFileSync(kf, 'file-key-123\n');
    const ks = await start_server('endpoints-keyfile', ['--api-key-file', kf]);
    const good = await get(ks, '/v1/models', { authorization: 'Bearer file-key-123' });
    const bad = await get(ks, '/v1/models', { authorization: 'Bearer file-key-12' });
    check('--api-key-file: its first line is the key (the newline is not)', good.status === 200 && bad.status === 401, `${good.status} ${bad.status}`);
    await ks.stop();
    await sleep(0);
});

finish('test_endpoints');
