// test_tools.mjs — tool calls end to end. The embedded stories260K cannot call tools, so it
// runs with a Hermes/Qwen2.5 template (calls written "<tool_call>\n{json}\n</tool_call>") and
// each request forces the text of a call with a GBNF grammar (llama-server's "grammar" field);
// what is tested is everything after the text: the output parser, the OpenAI message and
// streamed deltas, the Anthropic tool_use block, the Responses function_call item.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { TEMPLATES, check, eq, finish, group, model_id, post, sse, start_server } from './lib.mjs';

const srv = await start_server('tools', ['-np', '2', '-c', '2048', '--chat-template-file', `${TEMPLATES}/Qwen-Qwen2.5-7B-Instruct.jinja`]);
const MODEL = await model_id(srv);
const oai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
const ant = new Anthropic({ baseURL: srv.url, apiKey: 'unused', maxRetries: 0, timeout: 60000 });

const TOOLS = [{
    type: 'function',
    function: {
        name: 'get_weather',
        description: 'Weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
}, {
    type: 'function',
    function: { name: 'get_time', description: 'Time in a zone', parameters: { type: 'object', properties: { zone: { type: 'string' } } } },
}];
const ANT_TOOLS = TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
const USER = [{ role: 'user', content: 'What is the weather in Paris?' }];

// One call: the model picks the city's letters, the grammar the rest.
const CALL = 'call ::= "<tool_call>\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"" [a-z] [a-z] [a-z] [a-z]? "\\"}}\\n</tool_call>"\n';
const G_ONE = 'root ::= call\n' + CALL;
const G_TWO = 'root ::= call "\\n" "<tool_call>\\n{\\"name\\": \\"get_time\\", \\"arguments\\": {\\"zone\\": \\"utc\\"}}\\n</tool_call>"\n' + CALL;
const G_TEXT_CALL = 'root ::= "Sure." "\\n" call\n' + CALL;
const CITY = /^[a-z]{3,4}$/;

function call_ok(name, tc, fn = 'get_weather') {
    check(`${name}: id, type function, function.name ${fn}`, tc && typeof tc.id === 'string' && tc.id.length > 0 && tc.type === 'function'
        && tc.function && tc.function.name === fn, JSON.stringify(tc));
    let args = null;
    try { args = JSON.parse(tc.function.arguments); } catch { /* checked below */ }
    check(`${name}: arguments is JSON text of an object`, typeof tc.function.arguments === 'string' && args && typeof args === 'object',
        JSON.stringify(tc && tc.function));
    return args;
}

let args0 = null;
await group('OpenAI chat: one tool call', async () => {
    const body = { model: MODEL, messages: USER, tools: TOOLS, max_tokens: 200, temperature: 0, grammar: G_ONE };
    const r = await oai.chat.completions.create(body);
    const c = r.choices[0];
    eq('finish_reason tool_calls', c.finish_reason, 'tool_calls');
    eq('one tool call', c.message.tool_calls && c.message.tool_calls.length, 1);
    if (!c.message.tool_calls) return;
    args0 = call_ok('the call', c.message.tool_calls[0]);
    check('arguments: {city: 3-4 letters}', args0 && Object.keys(args0).length === 1 && CITY.test(args0.city), JSON.stringify(args0));
    check('content is empty (null or "")', c.message.content === null || c.message.content === '', JSON.stringify(c.message.content));
    check('the markup is not in the content', !(c.message.content || '').includes('<tool_call>'));

    // Raw stream: the first tool-call delta names the call, the next ones carry argument fragments.
    const s = await sse(srv, '/v1/chat/completions', { ...body, stream: true });
    eq('stream: 200 text/event-stream', [s.status, (s.headers.get('content-type') || '').split(';')[0]], [200, 'text/event-stream']);
    const deltas = s.events.filter((e) => e.json && e.json.choices && e.json.choices.length).map((e) => e.json.choices[0]);
    const tcd = deltas.filter((d) => d.delta && d.delta.tool_calls).flatMap((d) => d.delta.tool_calls);
    check('stream: tool-call deltas', tcd.length >= 1, JSON.stringify(deltas).slice(0, 400));
    if (!tcd.length) return;
    check('stream: the first delta has index 0, id, type function, function.name', tcd[0].index === 0 && typeof tcd[0].id === 'string'
        && tcd[0].type === 'function' && tcd[0].function.name === 'get_weather', JSON.stringify(tcd[0]));
    check('stream: later deltas carry index 0 and arguments only', tcd.slice(1).every((d) => d.index === 0 && d.id === undefined
        && d.function && d.function.name === undefined && typeof d.function.arguments === 'string'), JSON.stringify(tcd.slice(1, 4)));
    const streamed_args = tcd.map((d) => d.function.arguments || '').join('');
    eq('stream: the argument fragments make the same arguments', JSON.parse(streamed_args), args0);
    eq('stream: finish_reason tool_calls on the last choice chunk', deltas[deltas.length - 1].finish_reason, 'tool_calls');
    check('stream: no content delta carries the markup', deltas.every((d) => !(d.delta.content || '').includes('<tool_call')));

    // The SDK's stream helper accumulates the deltas.
    const st = oai.chat.completions.stream(body);
    let done_args = null;
    st.on('tool_calls.function.arguments.done', (e) => { done_args = e.arguments; });
    const f = await st.finalChatCompletion();
    const ftc = f.choices[0].message.tool_calls;
    eq('stream helper: one tool call', ftc && ftc.length, 1);
    if (ftc) {
        eq('stream helper: the same arguments', JSON.parse(ftc[0].function.arguments), args0);
        eq('stream helper: the same name', ftc[0].function.name, 'get_weather');
    }
    eq('stream helper: arguments.done event', done_args && JSON.parse(done_args), args0);
    eq('stream helper: finish_reason tool_calls', f.choices[0].finish_reason, 'tool_calls');

    // The call sent back with its result renders and is answered.
    const tc = c.message.tool_calls[0];
    const back = await oai.chat.completions.create({ model: MODEL, tools: TOOLS, max_tokens: 4, temperature: 0,
        messages: [...USER, { role: 'assistant', content: null, tool_calls: [tc] }, { role: 'tool', tool_call_id: tc.id, content: '{"sky": "clear"}' }] });
    check('the call and its result sent back: answered, a longer prompt', back.choices.length === 1 && back.usage.prompt_tokens > r.usage.prompt_tokens,
        JSON.stringify(back.usage));
});

await group('OpenAI chat: two calls, and text before a call', async () => {
    const r = await oai.chat.completions.create({ model: MODEL, messages: USER, tools: TOOLS, max_tokens: 300, temperature: 0, grammar: G_TWO });
    const tcs = r.choices[0].message.tool_calls || [];
    eq('two tool calls', tcs.length, 2);
    if (tcs.length === 2) {
        call_ok('the first', tcs[0], 'get_weather');
        const a2 = call_ok('the second', tcs[1], 'get_time');
        eq('the second\'s arguments', a2, { zone: 'utc' });
        check('distinct ids', tcs[0].id !== tcs[1].id, JSON.stringify(tcs.map((t) => t.id)));
    }
    eq('finish_reason tool_calls', r.choices[0].finish_reason, 'tool_calls');
    const st = oai.chat.completions.stream({ model: MODEL, messages: USER, tools: TOOLS, max_tokens: 300, temperature: 0, grammar: G_TWO });
    const f = await st.finalChatCompletion();
    eq('streamed: the same two calls (names, arguments)', (f.choices[0].message.tool_calls || []).map((t) => [t.function.name, JSON.parse(t.function.arguments)]),
        tcs.map((t) => [t.function.name, JSON.parse(t.function.arguments)]));
    const s = await sse(srv, '/v1/chat/completions', { model: MODEL, messages: USER, tools: TOOLS, max_tokens: 300, temperature: 0, grammar: G_TWO, stream: true });
    const idx = s.events.filter((e) => e.json && e.json.choices && e.json.choices.length && e.json.choices[0].delta.tool_calls)
        .flatMap((e) => e.json.choices[0].delta.tool_calls.map((d) => d.index));
    check('streamed deltas: index 0 then 1, never back', idx.length >= 2 && idx[0] === 0 && idx.includes(1)
        && idx.every((v, i) => i === 0 || v >= idx[i - 1]), JSON.stringify(idx));

    const t = await oai.chat.completions.create({ model: MODEL, messages: USER, tools: TOOLS, max_tokens: 200, temperature: 0, grammar: G_TEXT_CALL });
    const m = t.choices[0].message;
    eq('text then a call: the text is the content', (m.content || '').trim(), 'Sure.');
    eq('text then a call: one call', m.tool_calls && m.tool_calls.length, 1);

    const none = await oai.chat.completions.create({ model: MODEL, messages: USER, tools: TOOLS, tool_choice: 'none', max_tokens: 200, temperature: 0,
        grammar: G_ONE });
    check('tool_choice none: no tool_calls, finish_reason not tool_calls', !(none.choices[0].message.tool_calls || []).length
        && none.choices[0].finish_reason !== 'tool_calls', JSON.stringify(none.choices[0]));
    const bad = await post(srv, '/v1/chat/completions', { model: MODEL, messages: USER, tools: TOOLS, max_tokens: 8, grammar: 'root ::= "a' });
    check('a grammar that does not parse: 400 naming grammar', bad.status === 400 && /grammar/.test(bad.text), `${bad.status} ${bad.text}`);
});

await group('Anthropic: tool_use', async () => {
    const body = { model: MODEL, max_tokens: 200, messages: USER, tools: ANT_TOOLS, temperature: 0, grammar: G_ONE };
    const m = await ant.messages.create(body);
    eq('stop_reason tool_use', m.stop_reason, 'tool_use');
    const tu = m.content.filter((b) => b.type === 'tool_use');
    eq('one tool_use block', tu.length, 1);
    if (!tu.length) return;
    check('tool_use: id, name get_weather, input an object', typeof tu[0].id === 'string' && tu[0].id.length > 0 && tu[0].name === 'get_weather'
        && tu[0].input && typeof tu[0].input === 'object', JSON.stringify(tu[0]));
    check('tool_use input: {city: 3-4 letters}', tu[0].input && Object.keys(tu[0].input).length === 1 && CITY.test(tu[0].input.city),
        JSON.stringify(tu[0].input));
    check('no text block carries the markup', m.content.every((b) => b.type !== 'text' || !b.text.includes('<tool_call')), JSON.stringify(m.content));

    const events = [];
    const s = ant.messages.stream(body);
    s.on('streamEvent', (e) => events.push(e));
    const f = await s.finalMessage();
    const ftu = f.content.filter((b) => b.type === 'tool_use');
    eq('streamed: the same tool_use input', ftu.length === 1 ? ftu[0].input : null, tu[0].input);
    eq('streamed: stop_reason tool_use', f.stop_reason, 'tool_use');
    const cbs = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use');
    check('streamed: content_block_start of a tool_use with id, name and input {}', cbs && typeof cbs.content_block.id === 'string'
        && cbs.content_block.name === 'get_weather' && JSON.stringify(cbs.content_block.input) === '{}', JSON.stringify(cbs));
    const jd = events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta');
    check('streamed: input_json_delta fragments of that block', cbs && jd.length >= 1 && jd.every((e) => e.index === cbs.index),
        JSON.stringify(jd.slice(0, 3)));

    const back = await ant.messages.create({ model: MODEL, max_tokens: 4, tools: ANT_TOOLS, temperature: 0, messages: [...USER,
        { role: 'assistant', content: tu }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: tu[0].id, content: 'clear sky' }] }] });
    check('tool_result sent back: answered', back.type === 'message', JSON.stringify(back).slice(0, 300));
});

await group('Responses: function_call', async () => {
    const rtools = TOOLS.map((t) => ({ type: 'function', name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
    const body = { model: MODEL, input: 'What is the weather in Paris?', tools: rtools, max_output_tokens: 200, temperature: 0, grammar: G_ONE };
    const r = await oai.responses.create(body);
    const fc = r.output.filter((o) => o.type === 'function_call');
    eq('one function_call item', fc.length, 1);
    if (!fc.length) return;
    check('function_call: call_id, name, arguments JSON', typeof fc[0].call_id === 'string' && fc[0].name === 'get_weather'
        && CITY.test(JSON.parse(fc[0].arguments).city), JSON.stringify(fc[0]));
    eq('status completed', r.status, 'completed');
    const types = [];
    const s = oai.responses.stream(body);
    s.on('event', (e) => types.push(e.type));
    const f = await s.finalResponse();
    check('stream: function_call_arguments delta and done events', types.includes('response.function_call_arguments.delta')
        && types.includes('response.function_call_arguments.done'), types.join(' '));
    eq('stream: the same arguments', f.output.filter((o) => o.type === 'function_call').map((o) => JSON.parse(o.arguments)),
        [JSON.parse(fc[0].arguments)]);
    const back = await oai.responses.create({ model: MODEL, tools: rtools, max_output_tokens: 4, temperature: 0, input: [
        { role: 'user', content: 'What is the weather in Paris?' }, fc[0], { type: 'function_call_output', call_id: fc[0].call_id, output: 'clear' }] });
    check('function_call_output sent back: answered', back.object === 'response', JSON.stringify(back).slice(0, 300));
});

await srv.stop();

// ---- reasoning: a Qwen3 template (it thinks in <think>...</think>), the thought forced likewise
const rs = await start_server('reasoning', ['-np', '2', '-c', '2048', '--chat-template-file', `${TEMPLATES}/Qwen-Qwen3-0.6B.jinja`]);
const roai = new OpenAI({ baseURL: `${rs.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
const rant = new Anthropic({ baseURL: rs.url, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
const G_THINK = 'root ::= "<think>\\nfirst I think\\n</think>\\n\\nThe answer is " [a-z] [a-z] "."\n';
const ANSWER = /^The answer is [a-z]{2}\.$/;

await group('reasoning: OpenAI reasoning_content', async () => {
    const body = { model: MODEL, messages: USER, max_tokens: 200, temperature: 0, grammar: G_THINK };
    const r = await roai.chat.completions.create(body);
    const m = r.choices[0].message;
    eq('reasoning_content is the thought', (m.reasoning_content || '').trim(), 'first I think');
    check('content is the answer, without the markup', ANSWER.test((m.content || '').trim()), JSON.stringify(m.content));
    const d = r.usage.completion_tokens_details;
    check('usage: 0 < reasoning_tokens < completion_tokens', d && d.reasoning_tokens > 0 && d.reasoning_tokens < r.usage.completion_tokens,
        JSON.stringify(r.usage));
    const s = await sse(rs, '/v1/chat/completions', { ...body, stream: true });
    const deltas = s.events.filter((e) => e.json && e.json.choices && e.json.choices.length).map((e) => e.json.choices[0].delta);
    const kinds = deltas.map((x) => (x.reasoning_content ? 'r' : x.content ? 'c' : '-')).join('').replace(/-/g, '');
    check('stream: reasoning deltas, then content deltas', /^r+c+$/.test(kinds), kinds);
    eq('stream: the reasoning deltas make the same thought', deltas.map((x) => x.reasoning_content || '').join(''), m.reasoning_content);
    eq('stream: the content deltas make the same answer', deltas.map((x) => x.content || '').join(''), m.content);
    const back = await roai.chat.completions.create({ model: MODEL, max_tokens: 4, temperature: 0,
        messages: [...USER, { role: 'assistant', content: m.content, reasoning_content: m.reasoning_content }, { role: 'user', content: 'And then?' }] });
    check('an assistant message with reasoning_content sent back: answered', back.choices.length === 1, JSON.stringify(back).slice(0, 200));
});

await group('reasoning: Anthropic thinking blocks', async () => {
    const body = { model: MODEL, max_tokens: 2048, messages: USER, temperature: 1, top_k: 1, grammar: G_THINK,
        thinking: { type: 'enabled', budget_tokens: 1024 } };
    const m = await rant.messages.create(body);
    eq('content: a thinking block, then a text block', m.content.map((b) => b.type), ['thinking', 'text']);
    if (m.content.length !== 2) return;
    eq('thinking is the thought', m.content[0].thinking.trim(), 'first I think');
    check('thinking block has a signature string', typeof m.content[0].signature === 'string', JSON.stringify(m.content[0]));
    check('text is the answer', ANSWER.test(m.content[1].text.trim()), JSON.stringify(m.content[1]));
    const events = [];
    const s = rant.messages.stream(body);
    s.on('streamEvent', (e) => events.push(structuredClone(e)));
    const f = await s.finalMessage();
    eq('streamed: the same blocks', f.content.map((b) => [b.type, b.thinking ?? b.text]), m.content.map((b) => [b.type, b.thinking ?? b.text]));
    const starts = events.filter((e) => e.type === 'content_block_start').map((e) => [e.index, e.content_block.type]);
    eq('streamed: block 0 thinking, block 1 text', starts, [[0, 'thinking'], [1, 'text']]);
    check('streamed: thinking_delta events on block 0', events.some((e) => e.type === 'content_block_delta' && e.index === 0
        && e.delta.type === 'thinking_delta'), '');
});

await group('reasoning: Responses reasoning item', async () => {
    const r = await roai.responses.create({ model: MODEL, input: 'Tell me a story.', max_output_tokens: 200, temperature: 0, grammar: G_THINK });
    const types = r.output.map((o) => o.type);
    eq('output: a reasoning item, then the message', types, ['reasoning', 'message']);
    check('output_text is the answer only', ANSWER.test(r.output_text.trim()), JSON.stringify(r.output_text));
    const s = roai.responses.stream({ model: MODEL, input: 'Tell me a story.', max_output_tokens: 200, temperature: 0, grammar: G_THINK });
    const f = await s.finalResponse();
    eq('stream: the same output items', f.output.map((o) => o.type), types);
    eq('stream: the same text', f.output_text, r.output_text);
});

await rs.stop();

// ---- a template that shows the model its tools in a call format frink does not parse
// (Tencent Hy3's): the calls would come back as text, so tools are refused by name unless the
// request asks for no calls.
const us = await start_server('unparsed', ['-np', '1', '-c', '2048', '--chat-template-file', `${TEMPLATES}/tencent-Hy3.jinja`]);
await group('tools on a template whose tool-call format frink does not parse', async () => {
    const F = [{ type: 'function', function: { name: 'f', description: 'f', parameters: { type: 'object' } } }];
    const c = await post(us, '/v1/chat/completions', { model: MODEL, messages: USER, max_tokens: 3, tools: F });
    check('chat: 400 naming tools', c.status === 400 && c.json && c.json.error.param === 'tools' && /does not parse/.test(c.json.error.message),
        `${c.status} ${c.text.slice(0, 200)}`);
    const n = await post(us, '/v1/chat/completions', { model: MODEL, messages: USER, max_tokens: 3, tools: F, tool_choice: 'none' });
    eq('chat, tool_choice "none": answered', n.status, 200);
    const p = await post(us, '/v1/chat/completions', { model: MODEL, messages: USER, max_tokens: 3 });
    eq('chat without tools: answered', p.status, 200);
    const a = await post(us, '/v1/messages', { model: MODEL, max_tokens: 3, messages: USER,
        tools: [{ name: 'f', description: 'f', input_schema: { type: 'object' } }] });
    check('messages: 400 invalid_request_error in the Anthropic shape', a.status === 400 && a.json && a.json.type === 'error'
        && a.json.error.type === 'invalid_request_error' && /tools/.test(a.json.error.message), `${a.status} ${a.text.slice(0, 200)}`);
    const r = await post(us, '/v1/responses', { model: MODEL, input: 'hi', max_output_tokens: 3,
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }] });
    check('responses: 400 naming tools', r.status === 400 && r.json && r.json.error.param === 'tools', `${r.status} ${r.text.slice(0, 200)}`);
});
await us.stop();
finish('test_tools');
