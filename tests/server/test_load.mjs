// test_load.mjs — `frink serve` under concurrency on the embedded stories260K:
//   determinism: 32 seeded requests (temperature 0.8) one at a time, then all 32 at once,
//     give identical outputs (the library's batch invariance carried through the scheduler);
//   load: 32 clients x 5 requests, streamed and not, every one answered with exactly the
//     output it gets alone (nothing lost, nothing mixed up), twice; the server's RSS after
//     the second round within 10% + 8 MiB of after the first.
import fs from 'node:fs';
import OpenAI from 'openai';
import { check, eq, finish, group, model_id, note, prompt_words, rss_kib, start_server } from './lib.mjs';

const srv = await start_server('load', ['-np', '8', '-c', '512']);
const MODEL = await model_id(srv);
const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 120000 });

// One request's outcome: what must not depend on the load.
async function run(i, { stream = false, max_tokens = 24 } = {}) {
    const body = { model: MODEL, messages: [{ role: 'user', content: prompt_words(i) }], max_tokens, temperature: 0.8, seed: 1000 + i };
    if (!stream) {
        const r = await client.chat.completions.create(body);
        return { id: r.id, model: r.model, out: { text: r.choices[0].message.content, finish: r.choices[0].finish_reason, n: r.usage.completion_tokens } };
    }
    const ids = new Set();
    const s = client.chat.completions.stream({ ...body, stream_options: { include_usage: true } });
    s.on('chunk', (c) => ids.add(c.id));
    const f = await s.finalChatCompletion();
    return { id: f.id, ids: ids.size, model: f.model,
        out: { text: f.choices[0].message.content, finish: f.choices[0].finish_reason, n: f.usage ? f.usage.completion_tokens : -1 } };
}

await group('determinism: 32 requests one at a time, then all at once', async () => {
    const seq = [];
    for (let i = 0; i < 32; i++) seq.push((await run(i)).out);
    check('the 32 requests are not all alike', new Set(seq.map((o) => o.text)).size > 24, `${new Set(seq.map((o) => o.text)).size} distinct`);
    const par = await Promise.all(Array.from({ length: 32 }, (_, i) => run(i)));
    const diff = par.map((p, i) => (JSON.stringify(p.out) === JSON.stringify(seq[i]) ? -1 : i)).filter((i) => i >= 0);
    check('all at once: every output identical to its one-at-a-time run', diff.length === 0,
        () => `${diff.length} differ, e.g. #${diff[0]}: ${JSON.stringify(par[diff[0]].out)} vs ${JSON.stringify(seq[diff[0]])}`);
    const par2 = await Promise.all(Array.from({ length: 32 }, (_, k) => run(31 - k)));
    eq('all at once in the reverse order: identical again', par2.map((p) => p.out).reverse(), seq);
    const st = await Promise.all(Array.from({ length: 32 }, (_, i) => run(i, { stream: true })));
    eq('all at once, streamed: identical again', st.map((p) => p.out), seq);
});

await group('load: 32 clients x 5 requests', async () => {
    const N_CLIENTS = 32, PER = 5, MAXT = 16;
    const key = (c, k) => 100 + c * PER + k;
    const alone = new Map();
    for (let c = 0; c < N_CLIENTS; c++) for (let k = 0; k < PER; k++) alone.set(key(c, k), (await run(key(c, k), { max_tokens: MAXT })).out);
    const round = async () => {
        const results = await Promise.all(Array.from({ length: N_CLIENTS }, async (_, c) => {
            const mine = [];
            for (let k = 0; k < PER; k++) {
                const i = key(c, k);
                try {
                    mine.push({ i, ...(await run(i, { stream: (c + k) % 2 === 1, max_tokens: MAXT })) });
                } catch (e) {
                    mine.push({ i, error: String(e && e.message) });
                }
            }
            return mine;
        }));
        return results.flat();
    };
    const check_round = (name, res) => {
        const errs = res.filter((r) => r.error);
        check(`${name}: all ${N_CLIENTS * PER} answered`, res.length === N_CLIENTS * PER && errs.length === 0,
            () => `${errs.length} failed, e.g. ${errs[0] && errs[0].error}`);
        const ok = res.filter((r) => !r.error);
        const wrong = ok.filter((r) => JSON.stringify(r.out) !== JSON.stringify(alone.get(r.i)));
        check(`${name}: each reply is exactly its own request's alone output`, wrong.length === 0,
            () => `${wrong.length} differ, e.g. #${wrong[0].i}: ${JSON.stringify(wrong[0].out)} vs ${JSON.stringify(alone.get(wrong[0].i))}`);
        eq(`${name}: ids all distinct`, new Set(ok.map((r) => r.id)).size, ok.length);
        check(`${name}: each stream has one id, each reply the model`, ok.every((r) => (r.ids === undefined || r.ids === 1) && r.model === MODEL));
    };
    const t0 = Date.now();
    const r1 = await round();
    const t1 = Date.now();
    check_round('round 1', r1);
    const rss1 = rss_kib(srv);
    const r2 = await round();
    const rss2 = rss_kib(srv);
    check_round('round 2', r2);
    console.log(`  load: round 1 ${t1 - t0} ms, round 2 ${Date.now() - t1} ms; RSS ${(rss1 / 1024).toFixed(1)} -> ${(rss2 / 1024).toFixed(1)} MiB`);
    // Under AddressSanitizer freed memory waits in a quarantine of hundreds of MiB: RSS says
    // nothing there (LeakSanitizer checks leaks at exit instead).
    if (fs.readFileSync(`/proc/${srv.pid}/maps`, 'utf8').includes('libasan')) {
        note('a sanitizer build: the RSS check is skipped (LeakSanitizer reports leaks at exit)');
    } else {
        check('RSS after round 2 within 10% + 8 MiB of after round 1', rss2 <= rss1 * 1.10 + 8 * 1024, `${rss1} kB -> ${rss2} kB`);
    }
    const h = await fetch(`${srv.url}/health`);
    eq('the server is healthy afterwards', h.status, 200);
    const slots = await (await fetch(`${srv.url}/slots`)).json().catch(() => null);
    check('/slots answers JSON afterwards', slots !== null);
});

await srv.stop();
finish('test_load');
