// test_native.mjs — llama-server's own POST /completion (and /completions) as its README
// documents the reply: the fields and their types, the prompt as a string, token ids or both
// mixed (same greedy text), n_probs' completion_probabilities, the stream's events (their text
// and tokens = the whole reply's, the last one the whole object, no [DONE]), stop words,
// cache_prompt (reuse on, off), id_slot, timings that add up, n_predict 0, and the fields frink
// does not implement refused by name; the Process-Start-Time-Unix header of /metrics.
import { check, eq, finish, get, group, post, sse, start_server } from './lib.mjs';

const srv = await start_server('native', ['-np', '2', '-c', '512', '--metrics']);
const PROMPT = 'Once upon a time';
const greedy = { temperature: 0, n_predict: 12 };

const TYPES = {
    index: 'number', content: 'string', tokens: 'object', id_slot: 'number', stop: 'boolean', model: 'string',
    tokens_predicted: 'number', tokens_evaluated: 'number', generation_settings: 'object', prompt: 'string',
    has_new_line: 'boolean', truncated: 'boolean', stop_type: 'string', stopping_word: 'string', tokens_cached: 'number',
    timings: 'object',
};
const TIMINGS = ['cache_n', 'prompt_n', 'prompt_ms', 'prompt_per_token_ms', 'prompt_per_second', 'predicted_n',
    'predicted_ms', 'predicted_per_token_ms', 'predicted_per_second'];

let whole = null;
await group('the whole reply', async () => {
    const r = await post(srv, '/completion', { prompt: PROMPT, ...greedy, return_tokens: true });
    eq('200', r.status, 200);
    const j = r.json;
    whole = j;
    const bad = Object.entries(TYPES).filter(([k, t]) => typeof j[k] !== t).map(([k]) => k);
    eq('every documented field with its type', bad, []);
    eq('stop true, stop_type limit at n_predict', [j.stop, j.stop_type, j.stopped_limit], [true, 'limit', true]);
    eq('tokens_predicted = n_predict = the token ids returned', [j.tokens_predicted, j.tokens.length], [12, 12]);
    check('the token ids are integers', j.tokens.every(Number.isInteger), JSON.stringify(j.tokens));
    const t = j.timings;
    eq('timings: every field a number', TIMINGS.filter((k) => typeof t[k] !== 'number'), []);
    eq('timings: cache_n + prompt_n = tokens_evaluated', t.cache_n + t.prompt_n, j.tokens_evaluated);
    eq('timings: predicted_n = tokens_predicted', t.predicted_n, j.tokens_predicted);
    check('timings: per-second figures = n / ms', Math.abs(t.predicted_per_second - t.predicted_n * 1000 / t.predicted_ms) < 1e-6 * t.predicted_per_second
        && Math.abs(t.prompt_per_second - t.prompt_n * 1000 / t.prompt_ms) < 1e-6 * t.prompt_per_second, JSON.stringify(t));
    check('prompt: the processed prompt (BOS included)', j.prompt.endsWith(PROMPT) && j.prompt.length > PROMPT.length, j.prompt);
    eq('generation_settings: n_predict, temperature', [j.generation_settings.n_predict, j.generation_settings.temperature], [12, 0]);
    const oai = await post(srv, '/v1/completions', { prompt: PROMPT, max_tokens: 12, temperature: 0 });
    eq('greedy: the same text as /v1/completions', j.content, oai.json.choices[0].text);
    const alias = await post(srv, '/completions', { prompt: PROMPT, ...greedy });
    eq('/completions is the same endpoint (llama-server routes both)', [alias.json.content, alias.json.stop_type], [j.content, 'limit']);
    const nt = await post(srv, '/completion', { prompt: PROMPT, ...greedy });
    eq('without return_tokens: tokens empty', nt.json.tokens, []);
});

await group('prompt shapes', async () => {
    const ids = (await post(srv, '/tokenize', { content: PROMPT, add_special: true })).json.tokens;
    const a = await post(srv, '/completion', { prompt: ids, ...greedy });
    eq('token ids: the same text as the string', a.json.content, whole.content);
    const tail = (await post(srv, '/tokenize', { content: ' a time', add_special: false })).json.tokens;
    const head = (await post(srv, '/tokenize', { content: 'Once upon', add_special: true })).json.tokens;
    const b = await post(srv, '/completion', { prompt: [...head, ' a time'], ...greedy });
    const c = await post(srv, '/completion', { prompt: [...head, ...tail], ...greedy });
    eq('mixed ids and text: the same text as the ids alone', b.json.content, c.json.content);
    const bad = await post(srv, '/completion', { prompt: [1, 2, 1e9], n_predict: 2 });
    check('a token id out of range: 400 naming it', bad.status === 400 && bad.json.error.param === 'prompt[2]', bad.text);
    const several = await post(srv, '/completion', { prompt: ['a', 'b'], n_predict: 2 });
    check('several prompts: 400 naming prompt', several.status === 400 && several.json.error.param === 'prompt', several.text);
    const mm = await post(srv, '/completion', { prompt: { prompt_string: 'x', multimodal_data: ['AAAA'] }, n_predict: 2 });
    check('a multimodal prompt object: 400', mm.status === 400 && mm.json.error.param === 'prompt', mm.text);
});

await group('n_probs', async () => {
    const r = await post(srv, '/completion', { prompt: PROMPT, ...greedy, n_probs: 3, return_tokens: true });
    const p = r.json.completion_probabilities;
    eq('one entry per generated token', Array.isArray(p) && p.length, r.json.tokens_predicted);
    check('each entry: id (the token), token, bytes, logprob, top_logprobs of n_probs', p.every((e, i) =>
        e.id === r.json.tokens[i] && typeof e.token === 'string' && Array.isArray(e.bytes) && e.logprob <= 0 &&
        e.top_logprobs.length === 3 && e.top_logprobs.every((t) => Number.isInteger(t.id) && typeof t.token === 'string' &&
            Array.isArray(t.bytes) && t.logprob <= 0)), JSON.stringify(p[0]));
    check('greedy: the chosen token is the most likely, alternatives in order', p.every((e) => e.top_logprobs[0].id === e.id &&
        e.top_logprobs[0].logprob >= e.top_logprobs[1].logprob && e.top_logprobs[1].logprob >= e.top_logprobs[2].logprob), JSON.stringify(p[0]));
    check('bytes spell the token', p.every((e) => Buffer.from(e.bytes).toString('utf8') === e.token), JSON.stringify(p.map((e) => e.token)));
    const none = await post(srv, '/completion', { prompt: PROMPT, ...greedy });
    check('without n_probs: no completion_probabilities', !('completion_probabilities' in none.json), Object.keys(none.json).join(' '));
    const big = await post(srv, '/completion', { prompt: PROMPT, n_predict: 2, n_probs: 21 });
    check('n_probs over 20: 400 naming it', big.status === 400 && big.json.error.param === 'n_probs', big.text);
});

await group('stream', async () => {
    const r = await sse(srv, '/completion', { prompt: PROMPT, ...greedy, stream: true, n_probs: 2 });
    eq('SSE framing', r.errors, []);
    check('no [DONE] (the reference ends with the last object)', r.events.every((e) => e.data !== '[DONE]'), r.text.slice(-200));
    const parts = r.events.slice(0, -1).map((e) => e.json), last = r.events[r.events.length - 1].json;
    check('partial events: stop false, content, tokens, id_slot, tokens_predicted', parts.length > 0 && parts.every((p) =>
        p.stop === false && typeof p.content === 'string' && Array.isArray(p.tokens) && typeof p.id_slot === 'number' &&
        typeof p.tokens_predicted === 'number'), JSON.stringify(parts[0]));
    eq('their text = the whole reply\'s', parts.map((p) => p.content).join(''), whole.content);
    eq('their tokens = the whole reply\'s', parts.flatMap((p) => p.tokens), whole.tokens);
    eq('their completion_probabilities: one per token', parts.flatMap((p) => p.completion_probabilities || []).map((e) => e.id), whole.tokens);
    check('the last event: stop true, stop_type, timings, empty content', last.stop === true && last.stop_type === 'limit' &&
        last.content === '' && last.timings && last.timings.predicted_n === 12 && last.tokens_predicted === 12, JSON.stringify(last));
});

await group('stop words, cache_prompt, id_slot, n_predict 0', async () => {
    const word = whole.content.trim().split(/\s+/)[2];
    const s = await post(srv, '/completion', { prompt: PROMPT, ...greedy, stop: [word] });
    eq('a stop word: stop_type word, stopping_word, the text before it', [s.json.stop_type, s.json.stopping_word, s.json.stopped_word,
        whole.content.startsWith(s.json.content) && !s.json.content.includes(word)], ['word', word, true, true]);
    const long = PROMPT + ' there was a little girl named Lily who loved to play outside in the park';
    await post(srv, '/completion', { prompt: long, ...greedy });
    const again = await post(srv, '/completion', { prompt: long, ...greedy });
    check('the same prompt again: cache_n > 0 (reused)', again.json.timings.cache_n > 0, JSON.stringify(again.json.timings));
    const cold = await post(srv, '/completion', { prompt: long, ...greedy, cache_prompt: false });
    eq('cache_prompt false: cache_n 0, prompt_n = every prompt token', [cold.json.timings.cache_n, cold.json.timings.prompt_n],
        [0, cold.json.tokens_evaluated]);
    eq('cache_prompt false: the same text', cold.json.content, again.json.content);
    for (const id of [0, 1]) {
        const r = await post(srv, '/completion', { prompt: PROMPT, n_predict: 2, id_slot: id });
        eq(`id_slot ${id}: run in slot ${id}`, r.json.id_slot, id);
    }
    const three = await Promise.all([0, 1, 2].map((i) => post(srv, '/completion', { prompt: `${PROMPT} ${i}`, n_predict: 24, id_slot: 0 })));
    eq('three at once for slot 0: each waits for it, all run there', three.map((r) => [r.status, r.json.id_slot]), [[200, 0], [200, 0], [200, 0]]);
    const out = await post(srv, '/completion', { prompt: PROMPT, n_predict: 2, id_slot: 2 });
    check('id_slot = the slot count: 400 naming id_slot', out.status === 400 && out.json.error.param === 'id_slot', out.text);
    const zero = await post(srv, '/completion', { prompt: PROMPT, n_predict: 0 });
    eq('n_predict 0: the prompt only', [zero.status, zero.json.content, zero.json.tokens_predicted], [200, '', 0]);
});

await group('refused by name', async () => {
    const cases = [['mirostat', 2], ['samplers', ['top_k']], ['timings_per_token', true], ['n_cmpl', 2],
        ['post_sampling_probs', true], ['dry_multiplier', 0.8], ['return_progress', true], ['response_fields', ['content']],
        ['t_max_predict_ms', 100], ['n_cache_reuse', 256]];
    for (const [k, v] of cases) {
        const r = await post(srv, '/completion', { prompt: PROMPT, n_predict: 2, [k]: v });
        check(`${k}: 400 naming it`, r.status === 400 && r.json && r.json.error.param === k, r.text.slice(0, 200));
    }
    const ok = await post(srv, '/completion', { prompt: PROMPT, n_predict: 2, mirostat: 0, samplers: undefined, n_keep: 4,
        timings_per_token: false });
    eq('their off values are accepted', ok.status, 200);
});

await group('/metrics Process-Start-Time-Unix', async () => {
    const m = await get(srv, '/metrics');
    const h = Number(m.headers.get('process-start-time-unix'));
    check('the header: the server\'s start, Unix seconds', Number.isInteger(h) && Math.abs(Date.now() / 1000 - h) < 600, String(m.headers.get('process-start-time-unix')));
});

await srv.stop();
finish('native');
