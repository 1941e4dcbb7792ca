// test_embed.mjs — /v1/embeddings through the official OpenAI client (float and base64, every
// input shape, each vector the same alone or in a batch), its refusals (a 400 naming the item,
// 501 without --embeddings, pooling none), and /v1/rerank on a fixture with a classification
// head (qwen3-dense with a character vocabulary, scripts/gguf-charvocab.py).
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import OpenAI from 'openai';
import { BIN, WORK, check, eq, finish, group, post, start_server, throws } from './lib.mjs';

const srv = await start_server('embed', ['-np', '1', '-c', '64', '--embeddings', '--pooling', 'mean']);
const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

await group('/v1/embeddings: the OpenAI client', async () => {
    const r = await client.embeddings.create({ model: 'stories260K', input: 'Once upon a time' });
    eq('object list, one item', r.object === 'list' && r.data.length, 1);
    const d = r.data[0];
    check('data[0]: object embedding, index 0, 64 floats (n_embd)', d.object === 'embedding' && d.index === 0 && d.embedding.length === 64,
        JSON.stringify(d).slice(0, 200));
    check('euclidean-normalized by default', Math.abs(norm(d.embedding) - 1) < 1e-5, norm(d.embedding));
    check('usage: prompt_tokens = total_tokens = the input\'s tokens (BOS + 4)', r.usage.prompt_tokens === 5 && r.usage.total_tokens === 5,
        JSON.stringify(r.usage));
    const f = await client.embeddings.create({ model: 'stories260K', input: 'Once upon a time', encoding_format: 'float' });
    check('encoding_format float equals the client\'s default base64, bit for bit',
        f.data[0].embedding.every((x, i) => Math.fround(x) === Math.fround(d.embedding[i])), '');
    const texts = ['The little dog', 'Once upon a time', 'Lily wanted to'];
    const batch = await client.embeddings.create({ model: 'stories260K', input: texts, encoding_format: 'float' });
    eq('an array of strings: one item each, in order', batch.data.map((x) => x.index).join(','), '0,1,2');
    check('each vector is the same in a batch as alone', batch.data[1].embedding.every((x, i) => x === f.data[0].embedding[i]), '');
    const ids = await client.embeddings.create({ model: 'stories260K', input: [1, 403, 407, 261, 378], encoding_format: 'float' });
    check('an array of token ids is one input (the same tokens as the text)', ids.data.length === 1
        && ids.data[0].embedding.every((x, i) => x === f.data[0].embedding[i]), '');
    const arrs = await client.embeddings.create({ model: 'stories260K', input: [[1, 403], [1, 403, 407, 261, 378]], encoding_format: 'float' });
    check('an array of token arrays: one input each', arrs.data.length === 2 && arrs.usage.prompt_tokens === 7
        && arrs.data[1].embedding.every((x, i) => x === f.data[0].embedding[i]), JSON.stringify(arrs.usage));
    const raw = await post(srv, '/embeddings', { input: 'Once upon a time', embd_normalize: -1 });
    check('/embeddings answers the same shape; embd_normalize -1 leaves the vector unnormalized', raw.status === 200
        && Math.abs(norm(raw.json.data[0].embedding) - 1) > 1e-3, raw.text.slice(0, 200));
});

await group('/v1/embeddings: bad input is a 400 naming the item', async () => {
    const bad = (e, param, re) => (e.status !== 400 ? `status ${e.status}` : (param && e.param !== param) ? `param ${e.param}`
        : !re.test(e.message) ? `message ${e.message}` : null);
    await throws('an empty string', OpenAI.BadRequestError,
        () => client.embeddings.create({ model: 'stories260K', input: ['hi', []] }), (e) => bad(e, 'input[1]', /empty/));
    await throws('dimensions other than the model\'s', OpenAI.BadRequestError,
        () => client.embeddings.create({ model: 'stories260K', input: 'hi', dimensions: 8 }), (e) => bad(e, 'dimensions', /64/));
    const ok = await client.embeddings.create({ model: 'stories260K', input: 'hi', dimensions: 64 });
    eq('dimensions equal to the model\'s is honoured', ok.data[0].embedding.length, 64);
    const long = 'Once upon a time '.repeat(40);
    await throws('an item over the context (-c 64)', OpenAI.BadRequestError,
        () => client.embeddings.create({ model: 'stories260K', input: ['hi', long] }), (e) => bad(e, 'input[1]', /context of 64/));
    await throws('a token id out of the vocabulary', OpenAI.BadRequestError,
        () => client.embeddings.create({ model: 'stories260K', input: [1, 99999] }), (e) => bad(e, null, /out of range/));
    await throws('more items than one request takes', OpenAI.BadRequestError,
        () => client.embeddings.create({ model: 'stories260K', input: Array(2049).fill([1]) }), (e) => bad(e, 'input', /2048/));
    for (const [name, body, param] of [
        ['input of the wrong type', { input: 5 }, 'input'], ['an item of the wrong type', { input: ['a', { x: 1 }] }, 'input[1]'],
        ['no input', {}, 'input'], ['an empty array', { input: [] }, 'input'],
        ['encoding_format other than float / base64', { input: 'a', encoding_format: 'int8' }, 'encoding_format'],
        ['a field nothing honours', { input: 'a', truncate: true }, 'truncate']]) {
        const r = await post(srv, '/v1/embeddings', body);
        check(`${name}: 400 in OpenAI's error shape naming ${param}`, r.status === 400 && r.json && r.json.error
            && r.json.error.param === param && r.json.error.type === 'invalid_request_error', `${r.status} ${r.text.slice(0, 200)}`);
    }
    const rr = await post(srv, '/v1/rerank', { query: 'a', documents: ['b'] });
    check('/v1/rerank without --reranking: 501 naming the flag', rr.status === 501 && /--reranking/.test(rr.text), rr.text);
    check('the server is alive', srv.alive(), '');
});

await group('refusals by configuration, as the reference', async () => {
    const plain = await start_server('embed-off', ['-np', '1']);
    const pc = new OpenAI({ baseURL: `${plain.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    await throws('without --embeddings: 501 naming --embeddings', OpenAI.APIError,
        () => pc.embeddings.create({ model: 'stories260K', input: 'hi' }), (e) => (e.status === 501 && /--embeddings/.test(e.message) ? null : `${e.status} ${e.message}`));
    await plain.stop();
    // stories260K names no pooling: the reference's pooling is then none, which the OpenAI endpoint refuses
    const none = await start_server('embed-none', ['-np', '1', '--embeddings']);
    const r = await post(none, '/v1/embeddings', { input: 'hi' });
    check('--embeddings on a model without pooling_type: 400 saying pooling none and --pooling', r.status === 400
        && /none/.test(r.text) && /--pooling/.test(r.text), `${r.status} ${r.text.slice(0, 300)}`);
    await none.stop();
    const out = await new Promise((resolve) => {
        const p = spawn(BIN, ['serve', '--port', '0', '--reranking'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        p.stdout.on('data', (d) => { text += d; });
        p.stderr.on('data', (d) => { text += d; });
        const timer = setTimeout(() => { p.kill('SIGKILL'); resolve({ code: 'still running', text }); }, 15000);
        p.on('exit', (code) => { clearTimeout(timer); resolve({ code, text }); });
    });
    check('--reranking on a model without a classification head: start-up fails naming cls.output', out.code !== 0
        && out.code !== 'still running' && /cls\.output/.test(out.text), JSON.stringify(out).slice(0, 400));
});

await group('/v1/rerank', async () => {
    const model = path.join(WORK, 'qwen3-rerank.gguf');
    execFileSync('python3', ['scripts/gguf-charvocab.py', 'tests/data/archs/qwen3-dense.gguf', model]);
    const rs = await start_server('embed-rerank', ['-m', model, '--allow-unread', '-np', '1', '-c', '128', '--reranking']);
    const docs = ['a cat sat', 'the dog ran', 'fish swim'];
    const r = await post(rs, '/v1/rerank', { query: 'what ran', documents: docs, top_n: 2, return_documents: true });
    check('200: object list, top_n results, usage', r.status === 200 && r.json.object === 'list' && r.json.results.length === 2
        && r.json.usage.prompt_tokens > 0 && r.json.usage.prompt_tokens === r.json.usage.total_tokens, r.text.slice(0, 300));
    const res = r.json ? r.json.results : [];
    check('each result: index, relevance_score, the document\'s text', res.every((x) => Number.isInteger(x.index)
        && typeof x.relevance_score === 'number' && x.document && x.document.text === docs[x.index]), JSON.stringify(res));
    check('sorted by relevance_score, highest first', res.every((x, i) => i === 0 || res[i - 1].relevance_score >= x.relevance_score), JSON.stringify(res));
    const all = await post(rs, '/rerank', { query: 'what ran', documents: docs });
    check('/rerank: every document without top_n, no document text unless asked', all.status === 200 && all.json.results.length === 3
        && all.json.results.every((x) => !('document' in x)), all.text.slice(0, 300));
    for (const [name, body, param] of [['no query', { documents: docs }, 'query'], ['no documents', { query: 'q', documents: [] }, 'documents'],
        ['a document of the wrong type', { query: 'q', documents: ['a', 3] }, 'documents[1]'],
        ['a pair over the context', { query: 'q', documents: ['a', 'x'.repeat(200)] }, 'documents[1]']]) {
        const b = await post(rs, '/v1/rerank', body);
        check(`${name}: 400 naming ${param}`, b.status === 400 && b.json.error.param === param, `${b.status} ${b.text.slice(0, 200)}`);
    }
    const e = await post(rs, '/v1/embeddings', { input: 'a cat' });
    check('/v1/embeddings under --reranking: the head\'s output (one score)', e.status === 200 && e.json.data[0].embedding.length === 1, e.text.slice(0, 200));
    await rs.stop();
});

await group('BERT: /v1/embeddings and /v1/rerank on the frink gen encoders (bge WordPiece vocabulary)', async () => {
    const enc = path.join(WORK, 'bert-tiny.gguf'), rk = path.join(WORK, 'bert-rank-tiny.gguf');
    execFileSync(BIN, ['gen', '--preset', 'bert-tiny', '-o', enc], { stdio: 'ignore' });
    execFileSync(BIN, ['gen', '--preset', 'bert-rank-tiny', '-o', rk], { stdio: 'ignore' });
    const es = await start_server('embed-bert', ['-m', enc, '-np', '1', '-c', '128', '--embeddings']);
    const ec = new OpenAI({ baseURL: `${es.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 60000 });
    const r = await ec.embeddings.create({ model: 'bert-tiny', input: ['Hello, world!', 'a cat'], encoding_format: 'float' });
    check('two vectors of 64 (the file\'s CLS pooling), normalized', r.data.length === 2 && r.data.every((d) => d.embedding.length === 64
        && Math.abs(norm(d.embedding) - 1) < 1e-5), JSON.stringify(r.data).slice(0, 200));
    eq('usage: [CLS] hello , world ! [SEP] and [CLS] a cat [SEP]', r.usage.prompt_tokens, 10);
    const one = await ec.embeddings.create({ model: 'bert-tiny', input: 'a cat', encoding_format: 'float' });
    check('the same vector alone as in a batch', one.data[0].embedding.every((x, i) => x === r.data[1].embedding[i]), '');
    await es.stop();
    const rs = await start_server('rerank-bert', ['-m', rk, '-np', '1', '-c', '128', '--reranking']);
    const rr = await post(rs, '/v1/rerank', { query: 'a cat', documents: ['dogs bark'] });
    // [CLS] a cat [SEP] dogs bark, as the reference's format_prompt_rerank builds it (its vocabulary
    // adds [SEP]); the reference scores that pair -0.249442 (oracle embed rank, 101,1037,4937,102,6077,11286)
    eq('the pair is [CLS] query [SEP] document: 6 tokens', rr.json && rr.json.usage.prompt_tokens, 6);
    const sc = rr.json ? rr.json.results[0].relevance_score : NaN;
    check('its score is the reference\'s within 1e-3', Math.abs(sc - -0.249442) < 1e-3, sc);
    await rs.stop();
});

await srv.stop();
finish('test_embed');
