// test_forced.mjs — forced tool calls and structured output, end to end through the official
// SDKs. Tool calls: tool_choice "required" / a named tool (OpenAI chat and Responses,
// Anthropic "any" / "tool") with one call only (parallel_tool_calls false,
// disable_parallel_tool_use), held to the grammar of the chat format's own call markup: hermes
// (stories260K with the Qwen2.5 template), qwen3-coder XML (stories260K and the tiny hybrid with
// the Qwen3.5 template). The Qwen3.5 prompt opens <think>: there the grammar is lazy (the model
// may think first; a logit bias on the end-of-turn token makes it stop early, and the server
// must then write the call's opener itself); with thinking off it is eager. Structured output:
// response_format json_schema over varied schemas, json_object, llama-server's json_schema
// field, Responses text.format. Refusals: keywords the compiler cannot enforce, constraints
// that cannot be combined, unknown tool names.
//
// The tiny models write gibberish, so every check is a shape, a validity or an equality: each
// call's arguments (each JSON output) are validated against the schema by an independent
// validator (validate.py: python3-jsonschema), and every streamed reply is compared with the
// whole reply of the same seed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { HYBRID, TEMPLATES, check, eq, fail, finish, group, model_id, note, pool, post, start_server } from './lib.mjs';

// A group with its time in the log.
async function timed(name, fn) {
    const t0 = Date.now();
    await group(name, fn);
    note(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---- the validator ------------------------------------------------------------------------

// The python with jsonschema: $FRINK_PYTHON, else Debian's (python3-jsonschema, installed by
// scripts/server-test-deps.sh), else python3 on PATH.
function find_python() {
    const cands = process.env.FRINK_PYTHON ? [process.env.FRINK_PYTHON] : ['/usr/bin/python3', 'python3'];
    for (const py of cands) {
        const r = spawnSync(py, ['-c', 'import jsonschema'], { stdio: 'ignore' });
        if (r.status === 0) return py;
    }
    return null;
}
const PY = find_python();

// Verdicts ("ok", "invalid: ...", "error: ...") of validate.py for [schema, instance, text]
// triples: with text (the JSON text as the server sent it) python parses it itself.
function validate(pairs) {
    if (!pairs.length) return [];
    if (!PY) return pairs.map(() => 'error: no python3 with jsonschema (scripts/server-test-deps.sh installs python3-jsonschema)');
    const input = pairs.map(([schema, instance, text]) => JSON.stringify(text === undefined ? { schema, instance } : { schema, text })).join('\n') + '\n';
    const r = spawnSync(PY, ['tests/server/validate.py'], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = (r.stdout || '').split('\n').filter((l) => l.length);
    if (r.status !== 0 || lines.length !== pairs.length) {
        const why = `validate.py: exit ${r.status}, ${lines.length} verdicts for ${pairs.length}: ${(r.stderr || '').slice(0, 300)}`;
        return pairs.map(() => `error: ${why}`);
    }
    return lines;
}

// Checks queued during a group and validated in one run of validate.py at its end.
class Validations {
    constructor() { this.items = []; }
    // text: the JSON text the instance was parsed from, when the server sent text.
    add(name, schema, instance, text) { this.items.push({ name, schema, instance, text }); }
    run() {
        const v = validate(this.items.map((x) => [x.schema, x.instance, x.text]));
        this.items.forEach((x, i) => check(`${x.name}: validates against the schema`, v[i] === 'ok',
            () => `${v[i]}; instance ${JSON.stringify(x.instance).slice(0, 300)}`));
        this.items = [];
    }
}

await timed('the validator', async () => {
    check(`a python3 with jsonschema (${PY})`, PY !== null, 'neither /usr/bin/python3 nor python3 imports jsonschema');
    // It must be able to say no, or its "ok"s mean nothing.
    const S = { type: 'object', properties: { d: { type: 'string', format: 'date' }, n: { type: 'integer', maximum: 3 } },
        required: ['d'], additionalProperties: false };
    eq('validate.py: valid, a bad date, over a maximum, an extra key, a missing key', validate([[S, { d: '2024-02-03', n: 3 }],
        [S, { d: '2024-02-30' }], [S, { d: '2024-02-03', n: 4 }], [S, { d: '2024-02-03', x: 1 }], [S, {}],
        [S, null, '{"d": "2024-02-03"}'], [S, null, '{"d": "2024-02-03"} x'], [{ type: 'number' }, null, 'NaN']]).map((v) => v.split(':')[0]),
    ['ok', 'invalid', 'invalid', 'invalid', 'invalid', 'ok', 'invalid', 'invalid']);
});

// ---- the servers --------------------------------------------------------------------------

if (!fs.existsSync(HYBRID)) {
    fail('the hybrid model exists', `${HYBRID} missing (run.sh makes it with frink gen)`);
    finish('test_forced');
    process.exit(1);
}
const [H, Q, Y] = await Promise.all([
    start_server('forced-hermes', ['-np', '2', '-c', '4096', '--chat-template-file', `${TEMPLATES}/Qwen-Qwen2.5-7B-Instruct.jinja`]),
    start_server('forced-qwen35', ['-np', '2', '-c', '4096', '--chat-template-file', `${TEMPLATES}/Qwen3.5-4B.jinja`]),
    start_server('forced-hybrid', ['-m', HYBRID, '-np', '2', '-c', '4096', '--chat-template-file', `${TEMPLATES}/Qwen3.5-4B.jinja`]),
]);
const clients = (srv) => ({
    oai: new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 120000 }),
    ant: new Anthropic({ baseURL: srv.url, apiKey: 'unused', maxRetries: 0, timeout: 120000 }),
});
const USER = 'Please call one of the tools.';
const T_START = Date.now();
// End-of-turn tokens: stories260K's </s>; the Qwen vocabulary's <|im_end|>.
const EOS_STORIES = 2, EOS_QWEN = 151645;

// ---- tool sets: every string bounded (the tiny models never stop a string on their own) ----

const fn = (name, description, parameters) => ({ type: 'function', function: { name, description, ...(parameters ? { parameters } : {}) } });
const TOOLSETS = {
    weather: [
        fn('get_weather', 'Weather in a city', {
            type: 'object',
            properties: {
                city: { type: 'string', minLength: 1, maxLength: 16 },
                unit: { enum: ['celsius', 'fahrenheit'] },
                days: { type: 'integer', minimum: 1, maximum: 14 },
            },
            required: ['city', 'unit'],
            additionalProperties: false,
        }),
        fn('get_time', 'Time in a zone', {
            type: 'object', properties: { zone: { type: 'string', pattern: '^[A-Z][a-z]{1,8}/[A-Z][a-z]{1,8}$' } }, required: ['zone'],
            additionalProperties: false,
        }),
        fn('ping', 'No parameters at all'),
    ],
    shop: [
        fn('place_order', 'Order items', {
            type: 'object',
            properties: {
                customer: {
                    type: 'object',
                    properties: { name: { type: 'string', maxLength: 20 }, vip: { type: 'boolean' } },
                    required: ['name', 'vip'],
                    additionalProperties: false,
                },
                items: {
                    type: 'array', minItems: 1, maxItems: 3,
                    items: {
                        type: 'object',
                        properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{3}$' }, qty: { type: 'integer', minimum: 1, maximum: 99 } },
                        required: ['sku', 'qty'],
                        additionalProperties: false,
                    },
                },
                note: { type: ['string', 'null'], maxLength: 30 },
            },
            required: ['customer', 'items'],
            additionalProperties: false,
        }),
        fn('cancel_order', 'Cancel an order', {
            type: 'object',
            properties: { order_id: { type: 'integer', minimum: 100, maximum: 999 }, reason: { enum: ['late', 'damaged', 'other'] } },
            required: ['order_id', 'reason'],
            additionalProperties: false,
        }),
    ],
    calendar: [
        fn('create_event', 'Create an event', {
            type: 'object',
            properties: {
                title: { type: 'string', minLength: 1, maxLength: 24 },
                date: { type: 'string', format: 'date' },
                attendees: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 12 } },
                priority: { type: 'integer', minimum: 1, maximum: 5 },
                location: {
                    type: 'object',
                    properties: { lat: { type: 'number' }, lon: { type: 'number' } },
                    required: ['lat', 'lon'],
                    additionalProperties: false,
                },
            },
            required: ['title', 'date'],
            additionalProperties: false,
        }),
        fn('delete_event', 'Delete an event', {
            type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'], additionalProperties: false,
        }),
        fn('list_events', 'List events', {
            type: 'object',
            properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' }, limit: { type: 'integer', minimum: 1, maximum: 50 } },
            additionalProperties: false,
        }),
    ],
};
// The schema a call's arguments must meet: the tool's parameters (none: an object, which is
// what a function without parameters is called with).
const schema_of = (tools, name) => {
    const t = tools.find((x) => x.function.name === name);
    return t ? t.function.parameters || { type: 'object' } : null;
};
const names_of = (tools) => tools.map((t) => t.function.name);

// Targets: a server, how thinking is set, and the logit bias that makes a lazy run end its
// turn early (so the server's forced opener is exercised; without it the tiny models think
// until max_tokens).
const TARGETS = [
    { name: 'hermes', srv: H, think: 'none' },
    { name: 'qwen35 lazy', srv: Q, think: 'open', bias: { [EOS_STORIES]: 20 } },
    { name: 'qwen35 eager', srv: Q, think: 'off', seeds: [11, 22] }, // the format of hybrid eager: fewer runs
    { name: 'hybrid lazy', srv: Y, think: 'open', bias: { [EOS_QWEN]: 5 } },
    { name: 'hybrid eager', srv: Y, think: 'off' },
];
for (const t of TARGETS) Object.assign(t, clients(t.srv), { model: await model_id(t.srv) });
const H_MODEL = TARGETS[0].model;

// How each API spells "thinking off" and a logit bias.
function extras(t, api) {
    const x = {};
    if (t.think === 'off') {
        if (api === 'chat') x.reasoning_effort = 'none';
        if (api === 'anthropic') x.thinking = { type: 'disabled' };
        if (api === 'responses') x.reasoning = { effort: 'none' };
    }
    if (t.bias) x.logit_bias = t.bias;
    return x;
}

// The prompts are as the targets assume: the lazy ones leave <think> open, the eager ones not
// (with the chat requests' own switch, reasoning_effort "none").
await timed('prompts: the Qwen3.5 template opens <think> unless thinking is off', async () => {
    const msgs = [{ role: 'user', content: USER }];
    for (const t of TARGETS) {
        const body = { messages: msgs, tools: TOOLSETS.weather, ...extras(t, 'chat') };
        delete body.logit_bias;
        const r = await post(t.srv, '/apply-template', body);
        const p = r.json && typeof r.json.prompt === 'string' ? r.json.prompt : '';
        const open = /<think>\s*$/.test(p);
        const tail = JSON.stringify(p.slice(-60));
        if (t.think === 'open') check(`${t.name}: the prompt ends in an open <think>`, open, tail);
        else check(`${t.name}: the prompt leaves no <think> open`, r.status === 200 && p.length > 0 && !open, `${r.status} ${tail}`);
        if (t.name === 'hermes') check('hermes: the prompt lists the tools', p.includes('get_weather') && p.includes('<tools>'), tail);
    }
});

// ---- forced calls through the three APIs --------------------------------------------------


const V = new Validations();
let n_thought = 0, n_lazy = 0;

// One forced call, whole and streamed with the same seed, through `api`. `named`: the tool
// named in tool_choice (else any is required); `strict`: the tools marked strict.
async function forced(t, api, set, seed, named, strict) {
    const tools = TOOLSETS[set];
    const label = `${t.name} ${api} ${set} seed ${seed}${named ? ` named ${named}` : ' required'}${strict ? ' strict' : ''}`;
    const want_name = (name) => (named ? name === named : names_of(tools).includes(name));
    const common = { temperature: 0.8, seed, ...extras(t, api) };
    if (api === 'chat') {
        const body = {
            model: t.model, messages: [{ role: 'user', content: USER }], max_tokens: 600, ...common, parallel_tool_calls: false,
            tools: strict ? tools.map((x) => ({ ...x, function: { ...x.function, strict: true } })) : tools,
            tool_choice: named ? { type: 'function', function: { name: named } } : 'required',
        };
        const r = await t.oai.chat.completions.create(body);
        const c = r.choices[0], m = c.message;
        const tcs = m.tool_calls || [];
        if (!eq(`${label}: finish_reason tool_calls`, c.finish_reason, 'tool_calls')) note(`${label}: ${JSON.stringify(c).slice(0, 400)}`);
        if (!eq(`${label}: exactly one call`, tcs.length, 1)) return;
        const tc = tcs[0];
        check(`${label}: id, type function, a tool's name`, typeof tc.id === 'string' && tc.id.length > 0 && tc.type === 'function'
            && want_name(tc.function.name), JSON.stringify(tc));
        check(`${label}: no markup in the content or the reasoning`, !/<tool_call|<function=/.test((m.content || '') + (m.reasoning_content || '')),
            JSON.stringify([m.content, m.reasoning_content]).slice(0, 300));
        if (t.think === 'open') { n_lazy++; if (m.reasoning_content) n_thought++; }
        else check(`${label}: eager: nothing but the call (content null or "")`, (m.content ?? '') === '' && !m.reasoning_content, JSON.stringify(m));
        let args;
        try { args = JSON.parse(tc.function.arguments); } catch { /* below */ }
        if (!check(`${label}: arguments parse as JSON`, args !== undefined, JSON.stringify(tc.function.arguments))) return;
        V.add(label, schema_of(tools, tc.function.name), args, tc.function.arguments);

        const chunks = [];
        const st = t.oai.chat.completions.stream(body);
        st.on('chunk', (ch) => chunks.push(structuredClone(ch)));
        const f = await st.finalChatCompletion();
        const choice_chunks = chunks.filter((ch) => ch.choices && ch.choices.length);
        const tcd = choice_chunks.flatMap((ch) => ch.choices[0].delta.tool_calls || []);
        check(`${label}: stream: every tool-call delta has index 0`, tcd.length > 0 && tcd.every((d) => d.index === 0), JSON.stringify(tcd.slice(0, 3)));
        eq(`${label}: stream: the first delta has an id, type function and the name`, tcd.length ? [typeof tcd[0].id === 'string' && tcd[0].id.length > 0,
            tcd[0].type, tcd[0].function && tcd[0].function.name] : null, [true, 'function', tc.function.name]);
        eq(`${label}: stream: the argument deltas concatenate to the whole reply's arguments`,
            tcd.map((d) => (d.function && d.function.arguments) || '').join(''), tc.function.arguments);
        eq(`${label}: stream: finish_reason tool_calls`, choice_chunks.length ? choice_chunks[choice_chunks.length - 1].choices[0].finish_reason : null,
            'tool_calls');
        const ftc = f.choices[0].message.tool_calls || [];
        eq(`${label}: stream helper: the same one call`, ftc.map((x) => [x.function.name, x.function.arguments]), [[tc.function.name, tc.function.arguments]]);
    } else if (api === 'anthropic') {
        const atools = tools.map((x) => ({ name: x.function.name, description: x.function.description,
            input_schema: x.function.parameters || { type: 'object', properties: {} } }));
        const body = {
            model: t.model, max_tokens: 600, messages: [{ role: 'user', content: USER }], ...common, tools: atools,
            tool_choice: named ? { type: 'tool', name: named, disable_parallel_tool_use: true } : { type: 'any', disable_parallel_tool_use: true },
        };
        const m = await t.ant.messages.create(body);
        if (!eq(`${label}: stop_reason tool_use`, m.stop_reason, 'tool_use')) note(`${label}: ${JSON.stringify(m).slice(0, 400)}`);
        const tu = m.content.filter((b) => b.type === 'tool_use');
        if (!eq(`${label}: exactly one tool_use block`, tu.length, 1)) return;
        check(`${label}: id, a tool's name, input an object`, typeof tu[0].id === 'string' && tu[0].id.length > 0 && want_name(tu[0].name)
            && tu[0].input !== null && typeof tu[0].input === 'object' && !Array.isArray(tu[0].input), JSON.stringify(tu[0]));
        check(`${label}: no markup in text or thinking blocks`, m.content.every((b) => !/<tool_call|<function=/.test(b.text || b.thinking || '')),
            JSON.stringify(m.content).slice(0, 300));
        if (t.think !== 'open') eq(`${label}: eager: the tool_use block only`, m.content.map((b) => b.type), ['tool_use']);
        V.add(label, schema_of(tools, tu[0].name), tu[0].input);

        const events = [];
        const s = t.ant.messages.stream(body);
        s.on('streamEvent', (e) => events.push(structuredClone(e)));
        const f = await s.finalMessage();
        const start = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use');
        check(`${label}: stream: a tool_use block starts with the name and input {}`, start && start.content_block.name === tu[0].name
            && JSON.stringify(start.content_block.input) === '{}', JSON.stringify(start));
        const parts = events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' && start && e.index === start.index)
            .map((e) => e.delta.partial_json);
        let joined;
        try { joined = JSON.parse(parts.join('')); } catch { joined = `not JSON: ${parts.join('')}`; }
        eq(`${label}: stream: the input_json_delta fragments make the whole reply's input`, joined, tu[0].input);
        const md = events.find((e) => e.type === 'message_delta');
        eq(`${label}: stream: message_delta stop_reason tool_use`, md && md.delta.stop_reason, 'tool_use');
        eq(`${label}: stream helper: the same one tool_use`, f.content.filter((b) => b.type === 'tool_use').map((b) => [b.name, b.input]),
            [[tu[0].name, tu[0].input]]);
    } else {
        const rtools = tools.map((x) => ({ type: 'function', name: x.function.name, description: x.function.description,
            parameters: x.function.parameters || null, strict: !!strict }));
        const body = {
            model: t.model, input: USER, max_output_tokens: 600, ...common, tools: rtools, parallel_tool_calls: false,
            tool_choice: named ? { type: 'function', name: named } : 'required',
        };
        const r = await t.oai.responses.create(body);
        eq(`${label}: status completed`, r.status, 'completed');
        const fc = r.output.filter((o) => o.type === 'function_call');
        if (!eq(`${label}: exactly one function_call item`, fc.length, 1)) { note(`${label}: ${JSON.stringify(r.output).slice(0, 400)}`); return; }
        check(`${label}: call_id, a tool's name`, typeof fc[0].call_id === 'string' && fc[0].call_id.length > 0 && want_name(fc[0].name),
            JSON.stringify(fc[0]));
        if (t.think !== 'open') eq(`${label}: eager: the function_call item only`, r.output.map((o) => o.type), ['function_call']);
        check(`${label}: no markup in the output text`, !/<tool_call|<function=/.test(r.output_text || ''), JSON.stringify(r.output_text));
        let args;
        try { args = JSON.parse(fc[0].arguments); } catch { /* below */ }
        if (!check(`${label}: arguments parse as JSON`, args !== undefined, JSON.stringify(fc[0].arguments))) return;
        V.add(label, schema_of(tools, fc[0].name), args, fc[0].arguments);

        const events = [];
        const s = t.oai.responses.stream(body);
        s.on('event', (e) => events.push(structuredClone(e)));
        const f = await s.finalResponse();
        const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta);
        eq(`${label}: stream: the argument deltas concatenate to the whole reply's arguments`, deltas.join(''), fc[0].arguments);
        const done = events.find((e) => e.type === 'response.function_call_arguments.done');
        eq(`${label}: stream: function_call_arguments.done has them`, done && done.arguments, fc[0].arguments);
        eq(`${label}: stream helper: the same one function_call`, f.output.filter((o) => o.type === 'function_call').map((o) => [o.name, o.arguments]),
            [[fc[0].name, fc[0].arguments]]);
    }
}

const APIS = ['chat', 'anthropic', 'responses'];
const SETS = Object.keys(TOOLSETS);
const SEEDS = [11, 22, 33];
// A sanitizer build is about 3x slower: one seed fewer per target keeps the suite inside
// run.sh's time limit.
const SANITIZED = fs.readFileSync(`/proc/${H.pid}/maps`, 'utf8').includes('libasan');
if (SANITIZED) note('a sanitizer build: one seed fewer per target');
for (const t of TARGETS) {
    await timed(`forced calls: ${t.name}`, async () => {
        // Each API meets each tool set and each seed once; one in three names a tool, one in
        // three marks the tools strict (Anthropic has no strict).
        const runs = [];
        SETS.forEach((set, si) => (t.seeds || SEEDS).slice(0, SANITIZED ? -1 : undefined).forEach((seed, k) => {
            const api = APIS[(si + k) % APIS.length];
            const tools = TOOLSETS[set];
            const named = k === 1 ? tools[(si + 1) % tools.length].function.name : null;
            runs.push(() => forced(t, api, set, seed, named, k === 2 && api !== 'anthropic').catch((e) => fail(`${t.name} ${api} ${set} seed ${seed}: threw`,
                String(e && e.message).slice(0, 400))));
        }));
        await pool(2, runs);
        V.run();
    });
}
check(`lazy runs: the model thought before some calls (${n_thought} of ${n_lazy} chat runs)`, n_thought > 0 && n_lazy > 0, '');

// Parallel calls allowed (the default): one or more, each valid, streamed = whole per index.
// The hybrid's lazy runs end their turn early under the bias, after one call or a few.
await timed('required, parallel calls allowed', async () => {
    const t = TARGETS[3];
    const tools = TOOLSETS.weather;
    let n_multi = 0;
    await pool(2, [1, 2, 3, 4, 5, 6].map((seed) => async () => {
        const label = `${t.name} parallel seed ${seed}`;
        const body = { model: t.model, messages: [{ role: 'user', content: USER }], tools, tool_choice: 'required', max_tokens: 600,
            temperature: 0.8, seed, logit_bias: t.bias };
        const r = await t.oai.chat.completions.create(body);
        const c = r.choices[0], tcs = c.message.tool_calls || [];
        eq(`${label}: finish_reason tool_calls`, c.finish_reason, 'tool_calls');
        if (!check(`${label}: one or more calls`, tcs.length >= 1, JSON.stringify(c).slice(0, 300))) return;
        if (tcs.length > 1) n_multi++;
        eq(`${label}: distinct ids`, new Set(tcs.map((x) => x.id)).size, tcs.length);
        tcs.forEach((tc, i) => {
            check(`${label} call ${i}: a tool's name`, names_of(tools).includes(tc.function.name), JSON.stringify(tc));
            V.add(`${label} call ${i}`, schema_of(tools, tc.function.name) || { not: {} }, null, tc.function.arguments);
        });
        const by_index = [];
        for await (const ch of await t.oai.chat.completions.create({ ...body, stream: true })) {
            for (const d of (ch.choices && ch.choices.length && ch.choices[0].delta.tool_calls) || []) {
                if (!by_index[d.index]) by_index[d.index] = { name: d.function && d.function.name, args: '' };
                by_index[d.index].args += (d.function && d.function.arguments) || '';
            }
        }
        eq(`${label}: stream: the same calls, index by index`, by_index.map((x) => x && [x.name, x.args]),
            tcs.map((x) => [x.function.name, x.function.arguments]));
    }));
    check(`some run made several calls (${n_multi} of 6)`, n_multi > 0, '');
    V.run();
});

// An agent's loop: the forced call and its result sent back, and another call forced.
await timed('forced calls in a conversation', async () => {
    for (const t of [TARGETS[0], TARGETS[4]]) {
        const tools = TOOLSETS.shop;
        const x = extras(t, 'chat');
        const first = await t.oai.chat.completions.create({ model: t.model, messages: [{ role: 'user', content: USER }], tools, tool_choice: 'required',
            parallel_tool_calls: false, max_tokens: 600, temperature: 0.8, seed: 3, ...x });
        const tc = (first.choices[0].message.tool_calls || [])[0];
        if (!check(`${t.name}: the first call`, tc, JSON.stringify(first.choices[0]).slice(0, 300))) continue;
        const messages = [{ role: 'user', content: USER }, { role: 'assistant', content: null, tool_calls: [tc] },
            { role: 'tool', tool_call_id: tc.id, content: '{"status": "ok"}' }, { role: 'user', content: 'Now cancel it.' }];
        const r = await t.oai.chat.completions.create({ model: t.model, messages, tools, tool_choice: { type: 'function', function: { name: 'cancel_order' } },
            parallel_tool_calls: false, max_tokens: 600, temperature: 0.8, seed: 4, ...x });
        const c = r.choices[0], tcs = c.message.tool_calls || [];
        check(`${t.name}: a longer prompt (the call and its result rendered)`, r.usage.prompt_tokens > first.usage.prompt_tokens + 10,
            `${first.usage.prompt_tokens} -> ${r.usage.prompt_tokens}`);
        eq(`${t.name}: the second reply: one call to cancel_order, finish tool_calls`, [tcs.map((y) => y.function.name), c.finish_reason],
            [['cancel_order'], 'tool_calls']);
        if (tcs.length) V.add(`${t.name}: the second call`, schema_of(tools, 'cancel_order'), null, tcs[0].function.arguments);
        const ant_tools = tools.map((y) => ({ name: y.function.name, input_schema: y.function.parameters }));
        const m = await t.ant.messages.create({ model: t.model, max_tokens: 600, temperature: 0.8, seed: 4, ...extras(t, 'anthropic'), tools: ant_tools,
            tool_choice: { type: 'tool', name: 'cancel_order', disable_parallel_tool_use: true }, messages: [{ role: 'user', content: USER },
                { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: tc.function.name, input: JSON.parse(tc.function.arguments) }] },
                { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { type: 'text', text: 'Now cancel it.' }] }] });
        const tu = m.content.filter((b) => b.type === 'tool_use');
        eq(`${t.name}: anthropic, after a tool_result: one tool_use of cancel_order, stop_reason tool_use`, [tu.map((b) => b.name), m.stop_reason],
            [['cancel_order'], 'tool_use']);
        if (tu.length) V.add(`${t.name}: anthropic, the second call`, schema_of(tools, 'cancel_order'), tu[0].input);
    }
    V.run();
});

// ---- what the tool grammar still refuses, and the constraints that cannot be combined ------

await timed('forced calls: refusals', async () => {
    const oai = TARGETS[0].oai, ant = TARGETS[0].ant;
    const tools = TOOLSETS.weather;
    const msgs = [{ role: 'user', content: USER }];
    const bad = async (name, fn_, want_param, want_in_message) => {
        try {
            await fn_();
            fail(`${name}: 400`, 'no error');
        } catch (e) {
            const msg = String(e && e.message);
            check(`${name}: 400 naming ${want_in_message}`, e && e.status === 400 && msg.includes(want_in_message)
                && (want_param === undefined || e.param === want_param),
            `${e && e.status} param ${e && e.param} ${msg.slice(0, 300)}`);
        }
    };
    const chat = (x) => () => oai.chat.completions.create({ model: H_MODEL, messages: msgs, max_tokens: 8, tools, ...x });
    await bad('chat: an unknown tool in tool_choice', chat({ tool_choice: { type: 'function', function: { name: 'no_such_tool' } } }),
        'tool_choice.function.name', 'no_such_tool');
    await bad('chat: response_format + tool_choice required', chat({ tool_choice: 'required',
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } }), 'response_format', 'response_format');
    await bad('chat: response_format json_object + a named tool', chat({ tool_choice: { type: 'function', function: { name: 'ping' } },
        response_format: { type: 'json_object' } }), 'response_format', 'response_format');
    await bad('chat: grammar + tool_choice required', chat({ tool_choice: 'required', grammar: 'root ::= "a"' }), 'grammar', 'grammar');
    await bad('chat: response_format + a strict tool', chat({ tools: tools.map((x) => ({ ...x, function: { ...x.function, strict: true } })),
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } }), 'response_format', 'response_format');
    for (const [kw, schema] of [['uniqueItems', { type: 'array', items: { type: 'integer' }, uniqueItems: true }],
        ['multipleOf', { type: 'integer', multipleOf: 3 }], ['patternProperties', { type: 'object', patternProperties: { '^a': { type: 'integer' } } }]]) {
        await bad(`chat: a tool whose schema uses ${kw}, required`, chat({ tool_choice: 'required',
            tools: [fn('f', 'f', { type: 'object', properties: { a: schema }, required: ['a'] })] }), undefined, kw);
        await bad(`chat: ... and the message names the tool's parameters`, chat({ tool_choice: 'required',
            tools: [fn('f', 'f', { type: 'object', properties: { a: schema }, required: ['a'] })] }), undefined, 'tools[0].function.parameters');
    }
    await bad('chat: tool_choice required without tools', () => oai.chat.completions.create({ model: H_MODEL, messages: msgs, max_tokens: 8,
        tool_choice: 'required' }), 'tool_choice', 'tool');
    const resp = (x) => () => oai.responses.create({ model: H_MODEL, input: USER, max_output_tokens: 8,
        tools: tools.map((x2) => ({ type: 'function', name: x2.function.name, parameters: x2.function.parameters || null, strict: false })), ...x });
    await bad('responses: an unknown tool in tool_choice', resp({ tool_choice: { type: 'function', name: 'no_such_tool' } }), 'tool_choice.name',
        'no_such_tool');
    await bad('responses: text.format json_schema + tool_choice required', resp({ tool_choice: 'required',
        text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } } }), 'text.format', 'text.format');
    const msg = (x) => () => ant.messages.create({ model: H_MODEL, max_tokens: 8, messages: msgs,
        tools: tools.map((x2) => ({ name: x2.function.name, input_schema: x2.function.parameters || { type: 'object' } })), ...x });
    // Anthropic's errors have no param: the message must name the field.
    await bad('anthropic: an unknown tool in tool_choice', msg({ tool_choice: { type: 'tool', name: 'no_such_tool' } }), undefined, 'tool_choice.name');
    await bad('anthropic: output_config.format + tool_choice any', msg({ tool_choice: { type: 'any' },
        output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } }), undefined, 'output_config.format');
    await bad('anthropic: a tool whose input_schema uses uniqueItems, tool_choice any', () => ant.messages.create({ model: H_MODEL, max_tokens: 8,
        messages: msgs, tool_choice: { type: 'any' }, tools: [{ name: 'f', input_schema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } } }] }),
    undefined, 'uniqueItems');
    check('the servers still answer', TARGETS.every((t) => t.srv.alive()));
});

// A strict tool with tool_choice auto: the model need not call; any call it makes is valid.
await timed('strict tools, tool_choice auto: no call forced', async () => {
    const t = TARGETS[0];
    const tools = TOOLSETS.shop.map((x) => ({ ...x, function: { ...x.function, strict: true } }));
    for (const seed of [1, 2]) {
        const r = await t.oai.chat.completions.create({ model: H_MODEL, messages: [{ role: 'user', content: USER }], tools, max_tokens: 60,
            temperature: 0.8, seed });
        const c = r.choices[0];
        check(`strict auto seed ${seed}: answered (stop, length or tool_calls)`, ['stop', 'length', 'tool_calls'].includes(c.finish_reason), c.finish_reason);
        for (const tc of c.message.tool_calls || []) {
            V.add(`strict auto seed ${seed} call ${tc.function.name}`, schema_of(tools, tc.function.name) || { not: {} }, null, tc.function.arguments);
        }
    }
    // Lazy and not required: an end of turn before any call stays an end of turn.
    const lz = TARGETS[1];
    for (const seed of [1, 2]) {
        const r = await lz.oai.chat.completions.create({ model: lz.model, messages: [{ role: 'user', content: USER }], tools, max_tokens: 300,
            temperature: 0.8, seed, parallel_tool_calls: false, logit_bias: lz.bias });
        const c = r.choices[0];
        check(`qwen35 lazy, tool_choice auto, strict, one call, seed ${seed}: the model ends its turn, no call is forced`, c.finish_reason === 'stop'
            && !(c.message.tool_calls || []).length, JSON.stringify(c).slice(0, 300));
    }
    V.run();
});

// ---- structured output -------------------------------------------------------------------

// Every string bounded: under a grammar the tiny model may write a string until max_tokens.
const SCHEMAS = {
    'string min/maxLength': { type: 'string', minLength: 2, maxLength: 8 },
    'string enum': { enum: ['red', 'green', 'blue'] },
    'string pattern': { type: 'string', pattern: '^[A-Z]{2}[0-9]{2,4}$' },
    'string format date': { type: 'string', format: 'date' },
    'string format uuid': { type: 'string', format: 'uuid' },
    'integer with exclusive bounds': { type: 'integer', exclusiveMinimum: -5, exclusiveMaximum: 5 },
    'integer, a range of hundreds': { type: 'integer', minimum: -300, maximum: 400 },
    'number': { type: 'number' },
    'boolean': { type: 'boolean' },
    'null': { type: 'null' },
    'const': { const: 'fixed' },
    'array min/maxItems': { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 }, minItems: 2, maxItems: 4 },
    'object, additionalProperties false': {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer', minimum: 0, maximum: 120 },
            tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 6 } } },
        required: ['name', 'age'],
        additionalProperties: false,
    },
    'nested objects': {
        type: 'object',
        properties: {
            user: { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, admin: { type: 'boolean' },
                profile: { type: 'object', properties: { lang: { enum: ['en', 'fr'] }, score: { type: 'number' } }, required: ['lang'], additionalProperties: false } },
            required: ['id', 'profile'], additionalProperties: false },
            ok: { type: 'boolean' },
        },
        required: ['user', 'ok'],
        additionalProperties: false,
    },
    'anyOf': { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 5 }, { type: 'null' }] },
    'type list': { type: ['boolean', 'string', 'null'], maxLength: 6 },
    '$ref / $defs': {
        $defs: { pt: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'], additionalProperties: false } },
        type: 'object', properties: { from: { $ref: '#/$defs/pt' }, to: { $ref: '#/$defs/pt' } }, required: ['from', 'to'], additionalProperties: false,
    },
    'prefixItems': { type: 'array', prefixItems: [{ type: 'string', maxLength: 4 }, { type: 'integer' }, { type: 'boolean' }], items: false, minItems: 3 },
    'oneOf, disjoint by type': { oneOf: [
        { type: 'object', properties: { cat: { type: 'string', maxLength: 6 } }, required: ['cat'], additionalProperties: false },
        { type: 'integer', minimum: 0, maximum: 9 }, { type: 'array', maxItems: 2, items: { type: 'boolean' } }] },
    // (allOf members must stay open: the object may grow until max_tokens)
    'allOf of objects': { allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        { type: 'object', properties: { b: { enum: [true, 'b'] } }, required: ['b'] }] },
    'array of objects': { type: 'array', maxItems: 3, items: { type: 'object', properties: { k: { enum: ['x', 'y'] }, v: { type: 'integer', minimum: 0, maximum: 9 } },
        required: ['k', 'v'], additionalProperties: false } },
    'mixed enum': { enum: ['a', 1, true, null, { z: 1 }] },
    'optional properties only': { type: 'object', properties: { p: { type: 'integer' }, q: { type: 'string', maxLength: 3 } }, additionalProperties: false },
    'recursive $ref': {
        $defs: { node: { type: 'object', properties: { v: { type: 'integer', minimum: 0, maximum: 9 },
            kids: { type: 'array', maxItems: 2, items: { $ref: '#/$defs/node' } } }, required: ['v'], additionalProperties: false } },
        $ref: '#/$defs/node',
    },
};

await timed('response_format json_schema: every finished output validates', async () => {
    const oai = TARGETS[0].oai;
    const runs = [];
    const results = [];
    for (const [name, schema] of Object.entries(SCHEMAS)) {
        for (const seed of [1, 2, 3]) {
            runs.push(async () => {
                const r = await oai.chat.completions.create({ model: H_MODEL, messages: [{ role: 'user', content: 'Answer in JSON.' }], max_tokens: 400,
                    temperature: 0.8, seed, response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: seed === 2 } } });
                results.push({ name, seed, schema, c: r.choices[0] });
            });
        }
    }
    await pool(2, runs);
    let n_stop = 0;
    for (const { name, seed, schema, c } of results) {
        const label = `json_schema ${name} seed ${seed}`;
        if (c.finish_reason === 'length') { note(`${label}: length (not validated)`); continue; }
        if (!eq(`${label}: finish_reason stop`, c.finish_reason, 'stop')) continue;
        n_stop++;
        let v, ok = true;
        try { v = JSON.parse(c.message.content); } catch { ok = false; }
        if (check(`${label}: the content parses as JSON`, ok, JSON.stringify(c.message.content))) V.add(label, schema, v, c.message.content);
    }
    check(`most runs finish with stop (${n_stop} of ${results.length})`, n_stop >= results.length * 0.8, '');
    V.run();
});

await timed('structured output: streamed = whole, json_object, llama-server json_schema, Responses text.format', async () => {
    const oai = TARGETS[0].oai;
    const msgs = [{ role: 'user', content: 'Answer in JSON.' }];
    for (const name of ['nested objects', '$ref / $defs', 'array of objects']) {
        const body = { model: H_MODEL, messages: msgs, max_tokens: 400, temperature: 0.8, seed: 5,
            response_format: { type: 'json_schema', json_schema: { name: 'out', schema: SCHEMAS[name] } } };
        const whole = await oai.chat.completions.create(body);
        let text = '', fin = null;
        for await (const ch of await oai.chat.completions.create({ ...body, stream: true })) {
            if (ch.choices && ch.choices.length) { text += ch.choices[0].delta.content || ''; fin = ch.choices[0].finish_reason || fin; }
        }
        eq(`${name}: the streamed content is the whole content, the same finish`, [text, fin], [whole.choices[0].message.content, whole.choices[0].finish_reason]);
    }
    // json_object: any object; the model may write one until max_tokens, then only its start is checkable.
    let n_obj = 0;
    for (const seed of [1, 2]) {
        const r = await oai.chat.completions.create({ model: H_MODEL, messages: msgs, max_tokens: 200, temperature: 0.8, seed, response_format: { type: 'json_object' } });
        const c = r.choices[0];
        if (c.finish_reason === 'length') {
            check(`json_object seed ${seed}: length, and the content starts an object`, /^\s*\{/.test(c.message.content), JSON.stringify(c.message.content.slice(0, 100)));
            continue;
        }
        let v;
        try { v = JSON.parse(c.message.content); } catch { v = undefined; }
        n_obj++;
        check(`json_object seed ${seed}: stop, the content parses as a JSON object`, c.finish_reason === 'stop' && v !== null && typeof v === 'object'
            && !Array.isArray(v), `${c.finish_reason} ${JSON.stringify(c.message.content).slice(0, 300)}`);
    }
    note(`json_object: ${n_obj} of 2 finished`);
    // llama-server's json_schema field (the schema itself, top level).
    for (const name of ['object, additionalProperties false', 'anyOf']) {
        for (const seed of [1, 2]) {
            const r = await post(TARGETS[0].srv, '/v1/chat/completions', { messages: msgs, max_tokens: 400, temperature: 0.8, seed, json_schema: SCHEMAS[name] });
            const c = r.json && r.json.choices && r.json.choices[0];
            if (!check(`llama-server json_schema ${name} seed ${seed}: 200, stop`, r.status === 200 && c && c.finish_reason === 'stop', r.text.slice(0, 300))) continue;
            let v, ok = true;
            try { v = JSON.parse(c.message.content); } catch { ok = false; }
            if (check(`llama-server json_schema ${name} seed ${seed}: parses`, ok, JSON.stringify(c.message.content))) {
                V.add(`llama-server json_schema ${name} seed ${seed}`, SCHEMAS[name], v, c.message.content);
            }
        }
    }
    // Responses: text.format json_schema, whole and streamed.
    for (const name of ['object, additionalProperties false', 'prefixItems', 'string format date']) {
        const body = { model: H_MODEL, input: 'Answer in JSON.', max_output_tokens: 400, temperature: 0.8, seed: 7,
            text: { format: { type: 'json_schema', name: 'out', schema: SCHEMAS[name], strict: true } } };
        const r = await oai.responses.create(body);
        if (!eq(`responses text.format ${name}: completed`, r.status, 'completed')) continue;
        let v, ok = true;
        try { v = JSON.parse(r.output_text); } catch { ok = false; }
        if (check(`responses text.format ${name}: output_text parses`, ok, JSON.stringify(r.output_text))) {
            V.add(`responses text.format ${name}`, SCHEMAS[name], v, r.output_text);
        }
        const f = await oai.responses.stream(body).finalResponse();
        eq(`responses text.format ${name}: streamed, the same output_text`, f.output_text, r.output_text);
    }
    // On the hybrid too (the Qwen vocabulary: multi-byte tokens across the grammar).
    const yo = TARGETS[4].oai, Y_MODEL = TARGETS[4].model;
    for (const name of ['nested objects', 'string pattern', 'mixed enum', 'string format uuid']) {
        for (const seed of [1, 2]) {
            const r = await yo.chat.completions.create({ model: Y_MODEL, messages: msgs, max_tokens: 300, temperature: 0.8, seed, reasoning_effort: 'none',
                response_format: { type: 'json_schema', json_schema: { name: 'out', schema: SCHEMAS[name] } } });
            const c = r.choices[0];
            if (c.finish_reason === 'length') { note(`hybrid json_schema ${name} seed ${seed}: length`); continue; }
            let v, ok = c.finish_reason === 'stop';
            try { v = JSON.parse(c.message.content); } catch { ok = false; }
            if (check(`hybrid json_schema ${name} seed ${seed}: stop, parses`, ok, `${c.finish_reason} ${JSON.stringify(c.message.content)}`)) {
                V.add(`hybrid json_schema ${name} seed ${seed}`, SCHEMAS[name], v, c.message.content);
            }
        }
    }
    V.run();
});

// Bounds the compiler may not express exactly (non-integer bounds, a wide or one-sided integer
// range): refused naming the bound, or honoured — then every finished output validates.
await timed('numeric bounds: refused by name or honoured', async () => {
    const cases = [['number in [-10.5, 10.5]', { type: 'number', minimum: -10.5, maximum: 10.5 }],
        ['number > 0', { type: 'number', exclusiveMinimum: 0 }], ['integer in [1000, 9999]', { type: 'integer', minimum: 1000, maximum: 9999 }],
        ['integer >= 5', { type: 'integer', minimum: 5 }], ['integer <= 100', { type: 'integer', maximum: 100 }],
        ['an object with a price >= 0', { type: 'object', properties: { price: { type: 'number', minimum: 0 } }, required: ['price'], additionalProperties: false }]];
    for (const [name, schema] of cases) {
        for (const seed of [1, 2]) {
            const r = await post(TARGETS[0].srv, '/v1/chat/completions', { messages: [{ role: 'user', content: 'A number.' }], max_tokens: 200,
                temperature: 0.8, seed, response_format: { type: 'json_schema', json_schema: { name: 'out', schema } } });
            if (r.status === 400) {
                const e = r.json && r.json.error;
                check(`${name}: refused, naming the bound`, e && e.param === 'response_format' && /minimum|maximum/i.test(e.message), r.text.slice(0, 300));
                note(`${name}: refused: ${e && e.message}`);
                break;
            }
            const c = r.status === 200 && r.json.choices[0];
            if (!check(`${name} seed ${seed}: 200 (or a 400 naming the bound)`, c, `${r.status} ${r.text.slice(0, 300)}`)) break;
            if (c.finish_reason === 'length') { note(`${name} seed ${seed}: length`); continue; }
            let v, ok = c.finish_reason === 'stop';
            try { v = JSON.parse(c.message.content); } catch { ok = false; }
            if (check(`${name} seed ${seed}: stop, parses`, ok, `${c.finish_reason} ${JSON.stringify(c.message.content)}`)) {
                V.add(`${name} seed ${seed}`, schema, v, c.message.content);
            }
        }
    }
    V.run();
});

await timed('structured output: keywords the compiler cannot enforce are refused by name', async () => {
    const oai = TARGETS[0].oai;
    const cases = [['uniqueItems', { type: 'array', uniqueItems: true }], ['patternProperties', { type: 'object', patternProperties: { '^x': {} } }],
        ['multipleOf', { type: 'number', multipleOf: 0.5 }], ['if', { if: { type: 'integer' }, then: { minimum: 1 } }],
        ['propertyNames', { type: 'object', propertyNames: { maxLength: 3 } }],
        ['oneOf', { oneOf: [{ type: 'integer' }, { type: 'integer', minimum: 0, maximum: 3 }] }], ['maxProperties', { type: 'object', maxProperties: 2 }],
        ['additionalProperties', { allOf: [{ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false }] }]];
    for (const [kw, schema] of cases) {
        try {
            await oai.chat.completions.create({ model: H_MODEL, messages: [{ role: 'user', content: 'x' }], max_tokens: 8,
                response_format: { type: 'json_schema', json_schema: { name: 'out', schema } } });
            fail(`${kw}: 400`, 'answered 200: the keyword was dropped');
        } catch (e) {
            check(`${kw}: 400 naming ${kw} (param response_format)`, e.status === 400 && String(e.message).includes(kw) && e.param === 'response_format',
                `${e.status} ${e.param} ${e.message}`);
        }
    }
    const r = await post(TARGETS[0].srv, '/v1/responses', { input: 'x', max_output_tokens: 8,
        text: { format: { type: 'json_schema', name: 'out', schema: { type: 'array', uniqueItems: true } } } });
    check('responses text.format with uniqueItems: 400 naming it', r.status === 400 && r.text.includes('uniqueItems'), r.text.slice(0, 300));
    check('the servers still answer', TARGETS.every((t) => t.srv.alive()));
});

note(`${((Date.now() - T_START) / 1000).toFixed(1)} s of requests`);
await Promise.all([H.stop(), Q.stop(), Y.stop()]);
finish('test_forced');
