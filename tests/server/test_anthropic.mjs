// test_anthropic.mjs — the Anthropic client library against `frink serve` on the embedded
// stories260K: messages (whole and streamed through the SDK's MessageStream), stop
// sequences, max_tokens, count_tokens, typed errors, and the API's own error shape.
import Anthropic from '@anthropic-ai/sdk';
import { check, eq, fail, finish, get, group, model_id, post, start_server, throws } from './lib.mjs';

const KEY = 'anthropic-test-key-42';
const srv = await start_server('anthropic', ['-np', '4', '-c', '1024', '--alias', 'claude-local-test,claude-other-name']);
const MODEL = await model_id(srv);
eq('--alias: the model\'s id on the wire (the first of the list)', MODEL, 'claude-local-test');
const client = new Anthropic({ baseURL: srv.url, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
const MSGS = [{ role: 'user', content: 'Tell me a story about a dog.' }];

// Anthropic's convention: input_tokens are the prompt tokens not read from the cache.
const total_input = (u) => u.input_tokens + (u.cache_read_input_tokens || 0) + (u.cache_creation_input_tokens || 0);

let text0 = null;
await group('messages, non-streaming', async () => {
    const m = await client.messages.create({ model: MODEL, max_tokens: 24, messages: MSGS, temperature: 0 });
    check('type message, id msg_..., role assistant', m.type === 'message' && /^msg_/.test(m.id) && m.role === 'assistant', `${m.type} ${m.id} ${m.role}`);
    eq('model echoes the request', m.model, MODEL);
    check('content: one text block', m.content.length === 1 && m.content[0].type === 'text' && typeof m.content[0].text === 'string'
        && m.content[0].text.length > 0, JSON.stringify(m.content));
    check('stop_reason end_turn or max_tokens', ['end_turn', 'max_tokens'].includes(m.stop_reason), m.stop_reason);
    eq('stop_sequence null', m.stop_sequence, null);
    check('usage: input_tokens and output_tokens', m.usage && Number.isInteger(m.usage.input_tokens) && m.usage.output_tokens > 0
        && m.usage.output_tokens <= 24, JSON.stringify(m.usage));
    text0 = m.content[0].text;
    const other = await client.messages.create({ model: 'claude-other-name', max_tokens: 24, messages: MSGS, temperature: 0 });
    check('a request may name any alias of the list: the same reply, the id on the wire', other.model === MODEL
        && JSON.stringify(other.content) === JSON.stringify(m.content), JSON.stringify([other.model, other.content]));
    const none = await post(srv, '/v1/messages', { model: 'claude-other', max_tokens: 4, messages: MSGS });
    eq('a name outside the list: 404', none.status, 404);
    // The same conversation through the OpenAI route renders the same prompt: the same text.
    const o = await post(srv, '/v1/chat/completions', { model: MODEL, messages: MSGS, max_tokens: 24, temperature: 0 });
    eq('the same text as /v1/chat/completions (greedy)', text0, o.json && o.json.choices[0].message.content);
    eq('the same total input tokens as prompt_tokens', total_input(m.usage), o.json && o.json.usage.prompt_tokens);
    const sys = await client.messages.create({ model: MODEL, max_tokens: 8, messages: MSGS, system: 'You tell stories.', temperature: 0 });
    check('system (string) adds to the prompt', total_input(sys.usage) > total_input(m.usage), JSON.stringify([sys.usage, m.usage]));
    const sysb = await client.messages.create({ model: MODEL, max_tokens: 8, messages: MSGS, system: [{ type: 'text', text: 'You tell stories.' }], temperature: 0 });
    eq('system as text blocks = system as a string', sysb.content, sys.content);
    const blocks = await client.messages.create({ model: MODEL, max_tokens: 24, temperature: 0,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Tell me a story about a dog.' }] }] });
    eq('content as one text block = content as a string', blocks.content, m.content);
    const mx = await client.messages.create({ model: MODEL, max_tokens: 3, messages: MSGS, temperature: 0 });
    eq('max_tokens 3: stop_reason max_tokens', mx.stop_reason, 'max_tokens');
    eq('max_tokens 3: output_tokens 3', mx.usage.output_tokens, 3);
    // A final assistant message is the start of the reply (prefill): the reply continues it.
    const pre = await client.messages.create({ model: MODEL, max_tokens: 6, temperature: 0,
        messages: [...MSGS, { role: 'assistant', content: 'Once upon a time' }] });
    check('assistant prefill: served, a text block', pre.content.length === 1 && pre.content[0].type === 'text', JSON.stringify(pre.content));
});

await group('messages, streaming (MessageStream)', async () => {
    const events = [];
    let text = '';
    const s = client.messages.stream({ model: MODEL, max_tokens: 24, messages: MSGS, temperature: 0 });
    // A copy: the SDK accumulates the reply into message_start's message object.
    s.on('streamEvent', (e) => events.push(structuredClone(e)));
    s.on('text', (d) => { text += d; });
    const m = await s.finalMessage();
    const types = events.map((e) => e.type).filter((t) => t !== 'ping');
    eq('event order: message_start, content_block_start, deltas..., content_block_stop, message_delta, message_stop',
        [types[0], types[1], ...types.slice(-3)], ['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop']);
    check('between: only content_block_delta', types.slice(2, -3).length > 0 && types.slice(2, -3).every((t) => t === 'content_block_delta'), types.join(' '));
    const start = events[0].message;
    check('message_start: an empty message with input usage', start && start.content.length === 0 && start.role === 'assistant'
        && start.usage && Number.isInteger(start.usage.input_tokens), JSON.stringify(start));
    check('text_delta deltas', events.filter((e) => e.type === 'content_block_delta').every((e) => e.delta.type === 'text_delta' && e.index === 0));
    const md = events.find((e) => e.type === 'message_delta');
    check('message_delta: stop_reason and output_tokens', md && md.delta.stop_reason && md.usage && md.usage.output_tokens > 0, JSON.stringify(md));
    eq('streamed text = the text events', m.content[0].text, text);
    eq('streamed text = non-streamed (greedy)', text, text0);
    eq('streamed stop_reason = non-streamed', m.stop_reason, md.delta.stop_reason);
});

await group('stop_sequences', async () => {
    if (!text0 || text0.length < 12) { fail('a long enough greedy text', JSON.stringify(text0)); return; }
    let at = Math.floor(text0.length / 2);
    while (at < text0.length - 3 && /\s/.test(text0.slice(at, at + 3))) at++;
    const stop = text0.slice(at, at + 3);
    const want = text0.slice(0, text0.indexOf(stop));
    const m = await client.messages.create({ model: MODEL, max_tokens: 24, messages: MSGS, temperature: 0, stop_sequences: ['qqzz', stop] });
    eq('text stops before the stop sequence', m.content.length ? m.content[0].text : '', want);
    eq('stop_reason stop_sequence', m.stop_reason, 'stop_sequence');
    eq('stop_sequence names the one that matched', m.stop_sequence, stop);
    let text = '';
    const s = client.messages.stream({ model: MODEL, max_tokens: 24, messages: MSGS, temperature: 0, stop_sequences: [stop] });
    s.on('text', (d) => { text += d; });
    const f = await s.finalMessage();
    eq('streamed: the same text', text, want);
    check('streamed: stop_reason stop_sequence, stop_sequence set', f.stop_reason === 'stop_sequence' && f.stop_sequence === stop,
        JSON.stringify([f.stop_reason, f.stop_sequence]));
});

await group('sampling', async () => {
    const body = { model: MODEL, max_tokens: 20, messages: MSGS, temperature: 1 };
    // Anthropic has no seed; top_k 1 is greedy whatever the temperature.
    const a = await client.messages.create({ ...body, top_k: 1 });
    check('top_k 1 at temperature 1 is greedy: a prefix of the 24-token greedy text', text0.startsWith(a.content[0].text), JSON.stringify([a.content[0].text, text0]));
});

await group('count_tokens', async () => {
    const c = await client.messages.countTokens({ model: MODEL, messages: MSGS });
    check('input_tokens an integer > 0', Number.isInteger(c.input_tokens) && c.input_tokens > 0, JSON.stringify(c));
    const m = await client.messages.create({ model: MODEL, max_tokens: 2, messages: MSGS });
    eq('= the total input tokens of the same messages', c.input_tokens, total_input(m.usage));
    const cs = await client.messages.countTokens({ model: MODEL, messages: MSGS, system: 'You tell stories.' });
    check('a system prompt adds tokens', cs.input_tokens > c.input_tokens, JSON.stringify([cs, c]));
    await throws('count_tokens without messages: BadRequestError', Anthropic.BadRequestError,
        () => client.messages.countTokens({ model: MODEL }));
});

await group('typed errors and the error shape', async () => {
    await throws('unknown model: NotFoundError', Anthropic.NotFoundError,
        () => client.messages.create({ model: 'no-such-model', max_tokens: 2, messages: MSGS }));
    const bad = (name, body, field) => throws(`${name}: BadRequestError naming ${field}`, Anthropic.BadRequestError,
        () => client.messages.create({ model: MODEL, ...body }),
        (e) => (field.split('|').some((f) => String(e.message).includes(f)) ? null : `message ${JSON.stringify(e.message)}`));
    await bad('missing max_tokens', { messages: MSGS }, 'max_tokens');
    await bad('missing messages', { max_tokens: 2 }, 'messages');
    await bad('messages "x"', { max_tokens: 2, messages: 'x' }, 'messages');
    await bad('max_tokens "ten"', { max_tokens: 'ten', messages: MSGS }, 'max_tokens');
    await bad('role system in messages', { max_tokens: 2, messages: [{ role: 'system', content: 'x' }] }, 'role');
    await bad('an image block', { max_tokens: 2, messages: [{ role: 'user', content: [{ type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }] }, 'image');
    await bad('thinking with a template that has none', { max_tokens: 64, messages: MSGS, thinking: { type: 'enabled', budget_tokens: 32 } },
        'thinking');
    // This server's template (the ChatML fallback) has no tool-call format: a call cannot be
    // forced (test_forced.mjs has the honoured ones). Anthropic's errors have no param field,
    // so the message must name it.
    await bad('tool_choice any, no tool-call format', { max_tokens: 8, messages: MSGS, tool_choice: { type: 'any' },
        tools: [{ name: 'f', description: 'f', input_schema: { type: 'object' } }] }, 'tool_choice');
    await bad('mcp_servers', { max_tokens: 2, messages: MSGS, mcp_servers: [{ type: 'url', url: 'http://127.0.0.1:1', name: 'x' }] }, 'mcp_servers');
    await bad('a server tool (web_search)', { max_tokens: 2, messages: MSGS, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tool');
    await bad('a document block', { max_tokens: 2, messages: [{ role: 'user', content: [{ type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'x' } }] }] }, 'document');
    await bad('tool_choice tool (named), no tool-call format', { max_tokens: 8, messages: MSGS, tool_choice: { type: 'tool', name: 'f' },
        tools: [{ name: 'f', description: 'f', input_schema: { type: 'object' } }] }, 'tool_choice');
    await bad('tool_choice any without tools', { max_tokens: 8, messages: MSGS, tool_choice: { type: 'any' } }, 'tool_choice|tools');
    const raw = await post(srv, '/v1/messages', '{"model": ', { 'anthropic-version': '2023-06-01' });
    eq('bad JSON: 400', raw.status, 400);
    check('error shape {type: "error", error: {type: "invalid_request_error", message}}', raw.json && raw.json.type === 'error'
        && raw.json.error && raw.json.error.type === 'invalid_request_error' && typeof raw.json.error.message === 'string', raw.text);
    const nf = await post(srv, '/v1/messages', { model: 'nope', max_tokens: 2, messages: MSGS });
    check('unknown model: 404 not_found_error', nf.status === 404 && nf.json && nf.json.type === 'error' && nf.json.error.type === 'not_found_error',
        `${nf.status} ${nf.text}`);
    const ks = await start_server('anthropic-key', ['--api-key', KEY, '--alias', MODEL]);
    const wrong = new Anthropic({ baseURL: ks.url, apiKey: 'wrong', maxRetries: 0 });
    await throws('wrong x-api-key: AuthenticationError', Anthropic.AuthenticationError,
        () => wrong.messages.create({ model: MODEL, max_tokens: 2, messages: MSGS }));
    const good = new Anthropic({ baseURL: ks.url, apiKey: KEY, maxRetries: 0 });
    const ok = await good.messages.create({ model: MODEL, max_tokens: 2, messages: MSGS });
    check('the right x-api-key is served', ok.type === 'message', JSON.stringify(ok));
    const bearer = new Anthropic({ baseURL: ks.url, authToken: KEY, apiKey: null, maxRetries: 0 });
    const okb = await bearer.messages.create({ model: MODEL, max_tokens: 2, messages: MSGS });
    check('the key as Authorization: Bearer is served', okb.type === 'message', JSON.stringify(okb));
    const na = await post(ks, '/v1/messages', { model: MODEL, max_tokens: 2, messages: MSGS });
    check('no key: 401 authentication_error in the Anthropic shape', na.status === 401 && na.json && na.json.type === 'error'
        && na.json.error.type === 'authentication_error', `${na.status} ${na.text}`);
    await ks.stop();
    check('the server still answers', (await get(srv, '/health')).status === 200);
});

await srv.stop();
finish('test_anthropic');
