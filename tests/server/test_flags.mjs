// test_flags.mjs — llama-server's flags as a script passes them, each for its effect: the
// server-wide sampling defaults (--temp, --seed) for requests that leave them out, --no-slots,
// --tags, a comma list in --host, --reasoning, the accepted GPU and KV flags (notes on stderr);
// and the slot-id range, /props' n_ctx and a reply that fills its slot's context.
import { check, eq, finish, get, group, post, start_server, HYBRID } from './lib.mjs';
import fs from 'node:fs';

const PROMPT = 'Once upon a time';
const complete = (srv, extra = {}) => post(srv, '/v1/completions', { prompt: PROMPT, max_tokens: 16, ...extra });

await group('sampling defaults', async () => {
    // --temp 0: requests without a temperature are greedy (equal), one with its own is not bound.
    const greedy = await start_server('flags-greedy', ['-np', '1', '--temp', '0', '--top-k', '1', '-ngl', '99', '-fa', 'on',
        '--jinja', '-ctk', 'f16', '-ctv', 'f16', '--context-shift', '--kv-unified', '--sleep-idle-seconds', '30']);
    const a = await complete(greedy), b = await complete(greedy, { seed: 12345 });
    eq('--temp 0: two requests without a temperature give the same text', a.json.choices[0].text, b.json.choices[0].text);
    const err = greedy.stderr();
    check('-ngl, -fa, --context-shift, --kv-unified, --sleep-idle-seconds: each noted on stderr',
        /-ngl 99 has no effect/.test(err) && /-fa on has no effect/.test(err) && /--context-shift has no effect/.test(err) &&
        /--kv-unified has no effect/.test(err) && /--sleep-idle-seconds 30 has no effect/.test(err), err.slice(0, 800));
    await greedy.stop();
    // --seed S at --temp 0.8: requests without a seed repeat; with none given they draw their own.
    const seeded = await start_server('flags-seeded', ['-np', '1', '--temp', '0.8', '--seed', '7']);
    const texts = [];
    for (let i = 0; i < 2; i++) texts.push((await complete(seeded, { max_tokens: 24 })).json.choices[0].text);
    eq('--seed 7: two requests without a seed give the same text', texts[0], texts[1]);
    await seeded.stop();
    const random = await start_server('flags-random', ['-np', '1', '--temp', '1.5']);
    const rt = new Set();
    for (let i = 0; i < 3; i++) rt.add((await complete(random, { max_tokens: 24 })).json.choices[0].text);
    check('no --seed at --temp 1.5: requests draw their own seeds (not all equal)', rt.size > 1, [...rt].join(' | '));
    const forced = await complete(random, { max_tokens: 24, temperature: 0 });
    const forced2 = await complete(random, { max_tokens: 24, temperature: 0 });
    eq('a request\'s own temperature wins over the server\'s', forced.json.choices[0].text, forced2.json.choices[0].text);
    await random.stop();
});

await group('endpoints and probing bugs', async () => {
    const srv = await start_server('flags-endpoints', ['-np', '2', '-c', '256', '--no-slots', '--tags', 'a, b,c',
        '--host', '127.0.0.1,::1']);
    const s = await get(srv, '/slots');
    check('--no-slots: GET /slots answers 501 with a JSON error', s.status === 501 && s.json && s.json.error, `${s.status} ${s.text}`);
    const m = await get(srv, '/v1/models');
    eq('--tags: /v1/models lists them', JSON.stringify(m.json.data[0].tags), '["a","b","c"]');
    const v6 = await fetch(`http://[::1]:${srv.port}/health`).then((r) => r.status, (e) => String(e));
    eq('--host 127.0.0.1,::1: the second address answers too', v6, 200);
    const big = await post(srv, '/slots/4294967296?action=erase');
    check('slot id 2^32: 400 naming the id, not slot 0', big.status === 400 && big.json.error.param === 'id' &&
        /4294967296/.test(big.json.error.message), `${big.status} ${big.text}`);
    const two = await post(srv, '/slots/2?action=erase');
    check('slot id = the slot count: 400', two.status === 400, `${two.status} ${two.text}`);
    const p = await get(srv, '/props');
    eq('/props n_ctx: the whole context (2 slots of 256)', p.json.default_generation_settings.n_ctx, 512);
    eq('/props n_ctx_slot: a slot\'s', p.json.default_generation_settings.n_ctx_slot, 256);
    const full = await complete(srv, { max_tokens: 1000, temperature: 0 });
    check('a reply that fills a -c 256 slot: prompt + completion = 256, finish_reason length',
        full.json.usage.total_tokens === 256 && full.json.choices[0].finish_reason === 'length', JSON.stringify(full.json.usage));
    await srv.stop();
});

await group('--reasoning', async () => {
    if (!fs.existsSync(HYBRID)) { check('the hybrid model exists', false, HYBRID); return; }
    const srv = await start_server('flags-reasoning', ['-m', HYBRID, '-np', '1', '--reasoning', 'off']);
    const msgs = [{ role: 'user', content: 'hi' }];
    const t = await post(srv, '/apply-template', { messages: msgs });
    const err = srv.stderr();
    const knows = !/enable_thinking switch/.test(err);
    check('--reasoning off: the template renders with enable_thinking false, or the note says it has no switch',
        knows ? /<think>\s*<\/think>/.test(t.json.prompt) : /--reasoning off has no effect/.test(err), t.text.slice(0, 400) + err.slice(0, 400));
    await srv.stop();
});

finish('flags');
