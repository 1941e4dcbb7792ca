// test_hybrid.mjs — a tiny hybrid model (qwen35: Gated DeltaNet layers + attention, random
// weights, the Qwen vocabulary and its ChatML template) behind `frink serve`: chat whole and
// streamed, prefix reuse across requests (a recurrent state cannot be cut back, so reuse
// means a checkpoint plus replay), cache_salt, and that neither reuse nor concurrency
// changes a single output token: every reused or concurrent run is compared with a cold one.
import fs from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { HYBRID, check, eq, fail, finish, group, model_id, note, pool, start_server } from './lib.mjs';

if (!fs.existsSync(HYBRID)) {
    fail('the hybrid model exists', `${HYBRID} missing (run.sh makes it with frink gen)`);
    finish('test_hybrid');
    process.exit(1);
}
const srv = await start_server('hybrid', ['-m', HYBRID, '-np', '4', '-c', '4096']);
const MODEL = await model_id(srv);
const oai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 120000 });
const ant = new Anthropic({ baseURL: srv.url, apiKey: 'unused', maxRetries: 0, timeout: 120000 });

const WORDS = ('river mountain lantern quiet harbor signal copper meadow thunder violet engine garden candle winter orbit '
    + 'marble pepper silver canyon feather ticket window pocket shadow').split(' ');
// A deterministic paragraph of about n words (the Qwen tokenizer: about a token a word).
function para(seed, n) {
    const w = [];
    let x = seed * 2654435761 % 4294967296;
    for (let i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        w.push(WORDS[x % WORDS.length]);
    }
    return w.join(' ') + '.';
}
// A conversation of `turns` exchanges of about `words` words each.
function conversation(seed, turns, words, system) {
    const m = [{ role: 'system', content: system || `${para(seed, 30)} You are assistant number ${seed}.` }];
    for (let t = 0; t < turns; t++) {
        m.push({ role: 'user', content: para(seed * 100 + t, words) });
        m.push({ role: 'assistant', content: para(seed * 100 + t + 50, words) });
    }
    m.push({ role: 'user', content: para(seed * 100 + 99, 20) });
    return m;
}
const cached = (r) => (r.usage && r.usage.prompt_tokens_details ? r.usage.prompt_tokens_details.cached_tokens : undefined);
const text = (r) => r.choices[0].message.content;
let salt_n = 0;
const cold_salt = () => `cold-${process.pid}-${salt_n++}`;

await group('chat on the hybrid model', async () => {
    const msgs = [{ role: 'user', content: 'Hello, who are you?' }];
    const r = await oai.chat.completions.create({ model: MODEL, messages: msgs, max_tokens: 12, temperature: 0 });
    check('a reply, finish stop or length', typeof text(r) === 'string' && ['stop', 'length'].includes(r.choices[0].finish_reason),
        JSON.stringify(r.choices[0]));
    check('usage consistent', r.usage.prompt_tokens > 5 && r.usage.completion_tokens > 0
        && r.usage.total_tokens === r.usage.prompt_tokens + r.usage.completion_tokens, JSON.stringify(r.usage));
    const s = oai.chat.completions.stream({ model: MODEL, messages: msgs, max_tokens: 12, temperature: 0, stream_options: { include_usage: true } });
    const f = await s.finalChatCompletion();
    eq('streamed = non-streamed (greedy)', text(f), text(r));
    eq('streamed usage = non-streamed', [f.usage.prompt_tokens, f.usage.completion_tokens], [r.usage.prompt_tokens, r.usage.completion_tokens]);
    const seeded = (seed) => oai.chat.completions.create({ model: MODEL, messages: msgs, max_tokens: 12, temperature: 0.9, seed });
    eq('seeded twice: identical', text(await seeded(5)), text(await seeded(5)));
    const a = await ant.messages.create({ model: MODEL, max_tokens: 12, messages: msgs, temperature: 0 });
    eq('Anthropic route: the same greedy text', a.content[0].text, text(r));
});

await group('prefix reuse (OpenAI cached_tokens)', async () => {
    const conv = conversation(1, 6, 110);
    const body = { model: MODEL, messages: conv, max_tokens: 8, temperature: 0 };
    const cold = await oai.chat.completions.create({ ...body, cache_salt: cold_salt() });
    check('a long conversation (> 1000 prompt tokens)', cold.usage.prompt_tokens > 1000, cold.usage.prompt_tokens);
    eq('salted cold run: cached_tokens 0', cached(cold), 0);
    const first = await oai.chat.completions.create(body);
    const again = await oai.chat.completions.create(body);
    check('re-sent: cached_tokens > half the prompt', cached(again) > again.usage.prompt_tokens / 2 && cached(again) <= again.usage.prompt_tokens,
        `${cached(again)} of ${again.usage.prompt_tokens}`);
    note(`${cold.usage.prompt_tokens} prompt tokens; re-sent: ${cached(again)} cached; sample output ${JSON.stringify(text(cold))}`);
    eq('re-sent: the same output as the cold run', text(again), text(cold));
    eq('first unsalted: the same output as the cold run', text(first), text(cold));
    // The conversation goes on: the history (and the reply) is reused, then the new turn replayed.
    const next = [...conv, { role: 'assistant', content: text(again) }, { role: 'user', content: para(777, 25) }];
    const ncold = await oai.chat.completions.create({ ...body, messages: next, cache_salt: cold_salt() });
    const nhot = await oai.chat.completions.create({ ...body, messages: next });
    check('next turn: cached_tokens >= most of the previous prompt', cached(nhot) >= again.usage.prompt_tokens * 0.75,
        `${cached(nhot)} vs previous prompt ${again.usage.prompt_tokens}`);
    eq('next turn: the same output as cold', text(nhot), text(ncold));
    // A branch: the same history with a different last message reuses the shared part.
    const branch = [...conv.slice(0, -1), { role: 'user', content: para(4242, 20) }];
    const bcold = await oai.chat.completions.create({ ...body, messages: branch, cache_salt: cold_salt() });
    const bhot = await oai.chat.completions.create({ ...body, messages: branch });
    check('branch: cached_tokens > half the prompt', cached(bhot) > bhot.usage.prompt_tokens / 2, `${cached(bhot)} of ${bhot.usage.prompt_tokens}`);
    eq('branch: the same output as cold', text(bhot), text(bcold));
    // Streaming reports it too (in the usage chunk).
    const s = oai.chat.completions.stream({ ...body, stream_options: { include_usage: true } });
    const f = await s.finalChatCompletion();
    check('streamed: usage.prompt_tokens_details.cached_tokens > 0', cached(f) > 0, JSON.stringify(f.usage));
    eq('streamed: the same output', text(f), text(cold));
});

await group('cache_salt', async () => {
    const conv = conversation(2, 5, 100);
    const body = { model: MODEL, messages: conv, max_tokens: 8, temperature: 0 };
    const a1 = await oai.chat.completions.create({ ...body, cache_salt: 'tenant-a' });
    const a2 = await oai.chat.completions.create({ ...body, cache_salt: 'tenant-a' });
    const b1 = await oai.chat.completions.create({ ...body, cache_salt: 'tenant-b' });
    const b2 = await oai.chat.completions.create({ ...body, cache_salt: 'tenant-b' });
    const u = await oai.chat.completions.create(body);
    check('tenant a, second time: cached > half', cached(a2) > a2.usage.prompt_tokens / 2, `${cached(a2)} of ${a2.usage.prompt_tokens}`);
    eq('tenant b, first time: cached 0 (a\'s state is not b\'s)', cached(b1), 0);
    check('tenant b, second time: cached > half', cached(b2) > b2.usage.prompt_tokens / 2, `${cached(b2)} of ${b2.usage.prompt_tokens}`);
    // Unsalted requests before shared at most the template's first tokens with this conversation.
    check('no salt after two salted tenants: nothing of theirs reused', cached(u) <= 8, `${cached(u)} of ${u.usage.prompt_tokens}`);
    eq('every tenant gets the same output', [text(a2), text(b1), text(b2), text(u)], Array(4).fill(text(a1)));
});

await group('an edited conversation resumes from a checkpoint, replaying in the step budget', async () => {
    // The same history with its last user turn rewritten: the slot's state is rewound to the
    // checkpoint at or before the divergence and the rest is fed as prompt (nothing replayed
    // inside the scheduler); the reply is the cold one.
    const conv = conversation(7, 6, 90);
    const edited = conv.map((m) => ({ ...m }));
    edited[edited.length - 1].content = para(77, 60);
    const body = (messages, salt) => ({ model: MODEL, messages, max_tokens: 8, temperature: 0, ...(salt ? { cache_salt: salt } : {}) });
    const first = await oai.chat.completions.create(body(conv));
    const edit = await oai.chat.completions.create(body(edited));
    const cold = await oai.chat.completions.create(body(edited, 'cold-edit'));
    eq('the cold request (its own salt) reused nothing', cached(cold), 0);
    check('the edit reused part of the first request\'s state', cached(edit) > 0 && cached(edit) < edit.usage.prompt_tokens,
        `${cached(edit)} of ${edit.usage.prompt_tokens} (first: ${first.usage.prompt_tokens})`);
    eq('edited = cold, token for token', text(edit), text(cold));
});

await group('prefix reuse (Anthropic cache_read_input_tokens)', async () => {
    const conv = conversation(3, 5, 100);
    const system = conv[0].content;
    const body = { model: MODEL, max_tokens: 8, temperature: 0, system, messages: conv.slice(1) };
    const m1 = await ant.messages.create(body);
    const m2 = await ant.messages.create(body);
    const r1 = m1.usage.cache_read_input_tokens || 0;
    const r2 = m2.usage.cache_read_input_tokens;
    const total = m2.usage.input_tokens + (r2 || 0);
    check('re-sent: cache_read_input_tokens > half the input', r2 > total / 2, JSON.stringify(m2.usage));
    check('first time: less was read from the cache', r1 < r2, JSON.stringify([m1.usage, m2.usage]));
    eq('input_tokens + cache_read_input_tokens is the same prompt both times', total, m1.usage.input_tokens + r1);
    eq('the same output both times', m2.content, m1.content);
    const c = await ant.messages.countTokens({ model: MODEL, system, messages: conv.slice(1) });
    eq('count_tokens = input_tokens + cache_read_input_tokens', c.input_tokens, total);
});

// Concurrent unrelated conversations, some sharing a system prompt (so partial prefix
// matches), each must get exactly what it gets alone and cold.
await group('isolation under concurrency', async () => {
    const shared_sys = `You are a shared assistant. ${para(9, 60)}`;
    const convs = [];
    for (let i = 0; i < 8; i++) convs.push(conversation(10 + i, 1 + (i % 3), 40 + 10 * i, i % 2 ? shared_sys : undefined));
    const run = (i, salt) => oai.chat.completions.create({ model: MODEL, messages: convs[i], max_tokens: 8, temperature: 0,
        ...(salt ? { cache_salt: salt } : {}) }).then((r) => ({ text: text(r), finish: r.choices[0].finish_reason, n: r.usage.completion_tokens }));
    const cold = [];
    for (let i = 0; i < convs.length; i++) cold.push(await run(i, cold_salt()));
    const alone = [];
    for (let i = 0; i < convs.length; i++) alone.push(await run(i));
    eq('one at a time (reusing prefixes) = cold', alone, cold);
    const together = await Promise.all(convs.map((_, i) => run(i)));
    eq('all at once = cold', together, cold);
    const order = [5, 2, 7, 0, 3, 6, 1, 4];
    const shuffled = await Promise.all(order.map((i) => run(i)));
    eq('all at once, another order = cold', order.map((i, k) => shuffled[k]), order.map((i) => cold[i]));
});

await group('determinism under load (hybrid)', async () => {
    const reqs = Array.from({ length: 8 }, (_, i) => ({ model: MODEL, max_tokens: 10, temperature: 0.8, seed: 100 + i,
        messages: [{ role: 'user', content: `Request ${i}: ${para(500 + i, 8 + i)}` }] }));
    const go = (b) => oai.chat.completions.create(b).then((r) => text(r));
    const seq = [];
    for (const b of reqs) seq.push(await go(b));
    const par = await pool(8, reqs.map((b) => () => go(b)));
    eq('8 seeded requests: all at once = one at a time', par, seq);
});

await srv.stop();

// The same model with the Qwen3.5 template: its generation prompt opens <think>, so what the
// model writes is reasoning until it closes it; enable_thinking false closes it in the prompt.
const ts = await start_server('hybrid-qwen35-template', ['-m', HYBRID, '-np', '2', '-c', '4096', '--chat-template-file',
    'tests/data/templates/Qwen3.5-4B.jinja']);
const toai = new OpenAI({ baseURL: `${ts.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 120000 });
await group('Qwen3.5 template: reasoning opened by the prompt', async () => {
    const msgs = [{ role: 'user', content: 'Hello, who are you?' }];
    const body = { model: MODEL, messages: msgs, max_tokens: 12, temperature: 0 };
    const r = await toai.chat.completions.create(body);
    const m = r.choices[0].message;
    check('thinking by default: the reply is reasoning_content (the model never closes it)', typeof m.reasoning_content === 'string'
        && m.reasoning_content.length > 0 && !m.content && r.choices[0].finish_reason === 'length', JSON.stringify(r.choices[0]));
    eq('usage: every token a reasoning token', r.usage.completion_tokens_details && r.usage.completion_tokens_details.reasoning_tokens,
        r.usage.completion_tokens);
    const st = await toai.chat.completions.create({ ...body, stream: true });
    let rc = '', ct = '';
    for await (const c of st) if (c.choices.length) { rc += c.choices[0].delta.reasoning_content || ''; ct += c.choices[0].delta.content || ''; }
    eq('streamed: the same reasoning, no content', [rc, ct], [m.reasoning_content, '']);
    const off = await toai.chat.completions.create({ ...body, chat_template_kwargs: { enable_thinking: false } });
    check('enable_thinking false: content, no reasoning', typeof off.choices[0].message.content === 'string' && off.choices[0].message.content.length > 0
        && !off.choices[0].message.reasoning_content, JSON.stringify(off.choices[0]));
    check('enable_thinking false: a longer prompt (the closed think block)', off.usage.prompt_tokens > r.usage.prompt_tokens,
        JSON.stringify([off.usage.prompt_tokens, r.usage.prompt_tokens]));
    const conv = conversation(40, 4, 80);
    const a = await toai.chat.completions.create({ model: MODEL, messages: conv, max_tokens: 6, temperature: 0, cache_salt: cold_salt() });
    const b1 = await toai.chat.completions.create({ model: MODEL, messages: conv, max_tokens: 6, temperature: 0 });
    const b2 = await toai.chat.completions.create({ model: MODEL, messages: conv, max_tokens: 6, temperature: 0 });
    check('re-sent under this template: cached > half', cached(b2) > b2.usage.prompt_tokens / 2, `${cached(b2)} of ${b2.usage.prompt_tokens}`);
    eq('re-sent: the same reasoning as cold', [b1.choices[0].message.reasoning_content, b2.choices[0].message.reasoning_content],
        [a.choices[0].message.reasoning_content, a.choices[0].message.reasoning_content]);
});
await ts.stop();
finish('test_hybrid');
