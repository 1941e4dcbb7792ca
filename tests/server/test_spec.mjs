// test_spec.mjs — speculative decoding per slot (`--spec lookup`, `--spec draft -md`): a
// server that drafts gives the same text as one that does not, greedy and seeded, for requests
// that run at once (several slots' drafts verified in one step), with stop strings, n_predict
// inside a step, a grammar (plain steps), on the dense embedded model and on the hybrid (its
// recurrent state put back after a rejected draft), with the chunked delta rule too (each slot's
// steps alone); timings carry draft_n / draft_n_accepted as llama-server's do, only when the
// request drafted; a request's speculative.n_max 0 (flat or nested) turns it off;
// speculative.* out of range is a 400 naming the field; /slots and /metrics report it.
import { spawnSync } from 'node:child_process';
import { BIN, HYBRID, check, eq, finish, get, group, post, start_server } from './lib.mjs';

const SEEDS = 'Once upon a time|The little dog|Tom and Sue went'.split('|');

// The repetitive workload prompt lookup is made for: a prompt, then the model's own greedy
// continuation of it, then the prompt again, so that the reply goes on repeating the context.
// sep: what makes the repeated prompt tokenize as it did first (a space for a SentencePiece
// vocabulary, a newline for a BPE one, where " Once" is not "Once").
async function workload(srv, n = 40, sep = ' ') {
    const out = [];
    for (const s of SEEDS) {
        const r = await post(srv, '/completion', { prompt: s, n_predict: n, temperature: 0 });
        out.push(`${s}${r.json.content}${sep}${s}`);
    }
    return out;
}

// Every request of `reqs` (route, body) sent at once; the replies in order.
const all = (srv, reqs) => Promise.all(reqs.map(([route, body]) => post(srv, route, body)));

function requests(prompts) {
    const r = [];
    for (const p of prompts) {
        r.push(['/completion', { prompt: p, n_predict: 48, temperature: 0 }]);
        r.push(['/completion', { prompt: p, n_predict: 48, temperature: 0.8, seed: 42 }]);
    }
    r.push(['/completion', { prompt: prompts[0], n_predict: 5, temperature: 0 }]); // ends inside a step
    r.push(['/completion', { prompt: prompts[1], n_predict: 48, temperature: 0, stop: ['.'] }]);
    r.push(['/completion', { prompt: prompts[2], n_predict: 24, temperature: 0, grammar: 'root ::= [a-z ]+' }]);
    r.push(['/completion', { prompt: prompts[0], n_predict: 48, temperature: 0, 'speculative.n_max': 0 }]);
    r.push(['/completion', { prompt: prompts[1], n_predict: 48, temperature: 0, speculative: { n_max: 0 } }]);
    r.push(['/completion', { prompt: prompts[2], n_predict: 48, temperature: 0, speculative: { n_max: 3, n_min: 1 } }]);
    return r;
}
const SOLO = 6; // requests(...)[SOLO..]: n_predict 5, stop, grammar, n_max 0 (flat), n_max 0 (nested), n_max 3

// Runs the same requests on a plain server and on each drafting one, all at once, and compares.
async function compare(label, plain, drafting, prompts, route_chat) {
    const reqs = requests(prompts);
    if (route_chat) {
        for (const p of prompts.slice(0, 2))
            reqs.push(['/v1/chat/completions', { messages: [{ role: 'user', content: p }], max_tokens: 40, temperature: 0 }]);
    }
    const want = await all(plain, reqs);
    check(`${label}: the plain server answers every request`, want.every((r) => r.status === 200), () => want.map((r) => r.text.slice(0, 200)).join(' | '));
    const text = (r) => (r.json.content !== undefined ? r.json.content : r.json.choices[0].message.content);
    for (const [name, srv, drafts = true] of drafting) {
        const got = await all(srv, reqs);
        check(`${label}, ${name}: every request 200`, got.every((r) => r.status === 200), () => got.map((r) => r.text.slice(0, 200)).join(' | '));
        const diff = reqs.map((_, i) => i).filter((i) => text(got[i]) !== text(want[i]));
        eq(`${label}, ${name}: the same text as without drafting, for ${reqs.length} requests at once (greedy, seeded, stop, n_predict, grammar${route_chat ? ', chat' : ''})`, diff, []);
        const tk = (i) => got[i].json.timings || {};
        let drafted = 0, kept = 0;
        for (let i = 0; i < SOLO; i++) drafted += tk(i).draft_n || 0, kept += tk(i).draft_n_accepted || 0;
        if (drafts) check(`${label}, ${name}: timings.draft_n on the repetitive prompts (${drafted} drafted, ${kept} kept)`, drafted > 0 && kept > 0 && kept <= drafted);
        check(`${label}, ${name}: draft_n_accepted only with draft_n, never more`, got.every((r) => !r.json.timings ||
            (r.json.timings.draft_n === undefined) === (r.json.timings.draft_n_accepted === undefined) &&
            !(r.json.timings.draft_n_accepted > r.json.timings.draft_n)));
        eq(`${label}, ${name}: n_predict 5 inside a step: 5 tokens`, got[SOLO].json.tokens_predicted, 5);
        eq(`${label}, ${name}: a grammar, speculative.n_max 0 (flat and nested): no draft_n`,
            [SOLO + 2, SOLO + 3, SOLO + 4].map((i) => tk(i).draft_n), [undefined, undefined, undefined]);
        check(`${label}, ${name}: speculative.n_max 3: at most 3 drafts a step`, tk(SOLO + 5).draft_n === undefined ||
            tk(SOLO + 5).draft_n <= 3 * (got[SOLO + 5].json.tokens_predicted), JSON.stringify(tk(SOLO + 5)));
        eq(`${label}, ${name}: predicted_n = the plain server's`, reqs.map((_, i) => got[i].json.tokens_predicted),
            reqs.map((_, i) => want[i].json.tokens_predicted));
    }
}

await group('flags', async () => {
    const run = (args) => spawnSync(BIN, ['serve', '--port', '0', ...args], { encoding: 'utf8', timeout: 20000 });
    let r = run(['--spec', 'draft']);
    check('--spec draft without -md: exit 2 naming -md', r.status === 2 && /-md/.test(r.stderr), r.stderr);
    r = run(['-md', '/nonexistent/draft.gguf']);
    check('-md a missing file: exit 1 naming it, before listening', r.status === 1 && /nonexistent\/draft\.gguf/.test(r.stderr) && !/http:\/\//.test(r.stdout), r.stderr);
    r = run(['--spec', 'lookup', '--draft-max', '2', '--draft-min', '3']);
    check('--draft-min over --draft-max: exit 2', r.status === 2 && /draft-min/.test(r.stderr), r.stderr);
    r = run(['--spec-type', 'draft-mtp']);
    check('--spec-type draft-mtp: refused by name', r.status === 2 && /mtp/i.test(r.stderr), r.stderr);
});

const plain = await start_server('spec-plain', ['-np', '4', '-c', '512']);
const lookup = await start_server('spec-lookup', ['-np', '4', '-c', '512', '--spec', 'lookup', '--draft-fixed', '--draft-max', '6', '--metrics']);
const adaptive = await start_server('spec-adaptive', ['-np', '4', '-c', '512', '--spec', 'lookup']);
const draft = await start_server('spec-draft', ['-np', '4', '-c', '512', '-md', 'models/stories260K.gguf', '--draft-fixed', '--draft-max', '4', '--draft-p-min', '0']);
let prompts;

await group('dense: lookup, adaptive, a draft model', async () => {
    prompts = await workload(plain);
    await compare('dense', plain, [['lookup', lookup], ['adaptive lookup', adaptive], ['draft model', draft]], prompts, false);
});

await group('request fields', async () => {
    for (const [body, param] of [[{ 'speculative.n_max': 257 }, 'speculative.n_max'], [{ speculative: { n_min: -1 } }, 'speculative.n_min'],
        [{ 'speculative.p_min': 1.5 }, 'speculative.p_min'], [{ speculative: { n_max: 'x' } }, 'speculative.n_max'], [{ speculative: 3 }, 'speculative.n_max']]) {
        const r = await post(lookup, '/completion', { prompt: 'x', n_predict: 2, ...body });
        check(`${JSON.stringify(body)}: 400 naming ${param}`, r.status === 400 && r.json.error.param === param, r.text);
    }
    const c = await post(lookup, '/v1/completions', { prompt: prompts[0], max_tokens: 24, temperature: 0, speculative: { n_max: 300 } });
    check('/v1/completions reads speculative.* too (400 out of range)', c.status === 400 && c.json.error.param === 'speculative.n_max', c.text);
    const o = await post(plain, '/v1/completions', { prompt: prompts[0], max_tokens: 24, temperature: 0 });
    const s = await post(lookup, '/v1/completions', { prompt: prompts[0], max_tokens: 24, temperature: 0, 'speculative.n_max': 4 });
    eq('/v1/completions drafting: the plain text', s.json.choices[0].text, o.json.choices[0].text);
});

await group('/slots and /metrics', async () => {
    const sl = (await get(lookup, '/slots')).json;
    check('/slots: speculative true on the slots that drafted', sl.some((x) => x.speculative === true), JSON.stringify(sl));
    const pl = (await get(plain, '/slots')).json;
    check('/slots: speculative false on a plain server', pl.every((x) => x.speculative === false), JSON.stringify(pl));
    const m = (await get(lookup, '/metrics')).text;
    const n = Number((m.match(/^frink:draft_tokens_total (\d+)/m) || [])[1]);
    const a = Number((m.match(/^frink:draft_tokens_accepted_total (\d+)/m) || [])[1]);
    check(`/metrics: draft_tokens_total ${n} >= draft_tokens_accepted_total ${a} > 0`, n >= a && a > 0, m.split('\n').filter((l) => /draft/.test(l)).join(' '));
});

for (const s of [lookup, adaptive, draft]) await s.stop();

// The hybrid's random weights do not repeat their context, so prompt lookup drafts little
// there; the model drafting for itself drafts every step, and at temperature 0.8 its drafts are
// rejected often: each rejection puts the recurrent state back.
await group('hybrid: lookup, the model drafting for itself; chunked delta rule (each slot alone)', async () => {
    const self = ['-md', HYBRID, '--draft-fixed', '--draft-max', '4', '--draft-p-min', '0'];
    const hp = await start_server('spec-hybrid-plain', ['-m', HYBRID, '-np', '3', '-c', '512']);
    const hl = await start_server('spec-hybrid', ['-m', HYBRID, '-np', '3', '-c', '512', '--spec', 'lookup', '--draft-fixed', '--draft-max', '5']);
    const hd = await start_server('spec-hybrid-draft', ['-m', HYBRID, '-np', '3', '-c', '512', ...self]);
    const hc = await start_server('spec-hybrid-chunk', ['-m', HYBRID, '-np', '3', '-c', '512', '--gdn-chunk', '4', ...self]);
    const hcp = await start_server('spec-hybrid-chunk-plain', ['-m', HYBRID, '-np', '3', '-c', '512', '--gdn-chunk', '4']);
    const hprompts = await workload(hp, 32, '\n');
    await compare('hybrid', hp, [['lookup', hl, false], ['self-draft', hd]], hprompts, true);
    await compare('hybrid --gdn-chunk 4', hcp, [['self-draft', hc]], hprompts, true);
    for (const s of [hp, hl, hd, hc, hcp]) await s.stop();
});

await plain.stop();
finish('test_spec');
