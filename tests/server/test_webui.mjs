// test_webui.mjs — the web chat at `/`, driven in headless Chromium through puppeteer-core
// (pinned in package-lock.json; Debian's `chromium`, installed by scripts/webui-test-deps.sh).
// On the embedded stories260K: two messages sent with Enter, a regenerate and an edit, a reply
// stopped mid-stream (and the server seen to stop generating it), the conversation found again
// after a reload, rename and delete, stored model text and markup rendered as text (no HTML
// injection), the settings kept, dark mode, and a phone-width viewport. Screenshots go to
// build/webui-shots/ (ignored by git).
//
// Skips, saying why, where there is no Chromium (FRINK_CHROMIUM names one elsewhere) or no
// puppeteer-core: the last line is then "test_webui: 0 passed, 0 failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, eq, finish, group, note, sleep, slots_busy, start_server } from './lib.mjs';

const SHOTS = process.env.FRINK_WEBUI_SHOTS || 'build/webui-shots';

function skip(why) {
    console.log(`test_webui: SKIPPED: ${why}`);
    console.log('test_webui: 0 passed, 0 failed');
    process.exit(0);
}

const chromium = [process.env.FRINK_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
    .find((p) => p && fs.existsSync(p));
if (!chromium) skip('no Chromium (apt-get install chromium, or FRINK_CHROMIUM=/path/to/chrome)');
let puppeteer;
try {
    puppeteer = (await import('puppeteer-core')).default;
} catch (e) {
    skip(`puppeteer-core is not installed (bash scripts/server-test-deps.sh): ${e.message}`);
}

fs.mkdirSync(SHOTS, { recursive: true });
const t_start = Date.now();
// A context large enough that the reply to stop is still being written when Stop is pressed:
// thousands of tokens take stories260K seconds, the first few dozen milliseconds.
const srv = await start_server('webui', ['-np', '2', '-c', '4096', '--metrics']);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'frink-webui-'));
const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
});
const page = await browser.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
page.on('dialog', (d) => d.accept()); // confirm() of Delete
await page.setViewport({ width: 1280, height: 800 });
page.setDefaultTimeout(20000);
page.setDefaultNavigationTimeout(20000);

const WAIT = { timeout: 20000 };
const count = (sel) => page.$$eval(sel, (a) => a.length);
const texts = (sel) => page.$$eval(sel, (a) => a.map((e) => e.textContent));
// Waits until no reply is being generated (the Stop button hidden again).
const idle = () => page.waitForFunction(() => document.getElementById('stop').hidden, WAIT);
async function type_and_enter(text) {
    await page.click('#input');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
}
async function set_settings(fields) {
    await page.click('#open-settings');
    await page.waitForSelector('#settings[open]', WAIT);
    for (const [k, v] of Object.entries(fields)) {
        await page.$eval(`#settings [name="${k}"]`, (e, v) => { e.value = v; }, String(v));
    }
    // Enter in a field saves (the form's first button), as a click on Save would.
    await page.focus('#settings [name="max_tokens"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.getElementById('settings').open, WAIT);
}

try {
    await group('page', async () => {
        const res = await page.goto(`${srv.url}/`, { waitUntil: 'load' });
        eq('GET / is 200', res.status(), 200);
        check('text/html', /^text\/html/.test(res.headers()['content-type']), res.headers()['content-type']);
        await page.waitForFunction(() => document.getElementById('model-name').textContent === 'stories260K', WAIT);
        check('the model name from /props', true);
        eq('... greeted by it', await page.$eval('.empty h1', (e) => e.textContent), 'Chat with stories260K');
        const ctx = await page.$eval('#ctx-use', (e) => e.textContent);
        check('the context size shown', /\/ 4096 tokens/.test(ctx), ctx);
        await page.screenshot({ path: `${SHOTS}/desktop-empty.png` });
    });

    await group('keyboard', async () => {
        await page.click('#input');
        await page.keyboard.type('   ');
        await page.keyboard.press('Enter');
        await sleep(100);
        eq('Enter on blank input sends nothing', await count('.msg'), 0);
        await page.$eval('#input', (e) => { e.value = ''; });
        await page.keyboard.type('a');
        await page.keyboard.down('Shift');
        await page.keyboard.press('Enter');
        await page.keyboard.up('Shift');
        await page.keyboard.type('b');
        eq('Shift+Enter is a new line', await page.$eval('#input', (e) => e.value), 'a\nb');
        eq('... and sends nothing', await count('.msg'), 0);
        await page.$eval('#input', (e) => { e.value = ''; });
    });

    await group('first message', async () => {
        await set_settings({ max_tokens: 24, temperature: 0 });
        await type_and_enter('Tell me a story about a cat.');
        await idle();
        eq('a user message and a reply', await texts('.msg .role'), ['You', 'stories260K']);
        const reply = await page.$eval('.msg.assistant .content', (e) => e.textContent);
        check('the reply has text', reply.trim().length > 0, JSON.stringify(reply));
        const stats = await page.$eval('.msg.assistant .stats', (e) => e.textContent);
        check('the reply shows its tokens and speed', /24 tokens · [\d.]+ tokens\/s/.test(stats), stats);
        eq('the conversation is listed, titled by the message', await texts('.conv-title'), ['Tell me a story about a cat.']);
        const ctx = await page.$eval('#ctx-use', (e) => e.textContent);
        check('the context use follows the usage', /^[1-9]\d* \/ 4096 tokens$/.test(ctx), ctx);
    });

    await group('regenerate and edit', async () => {
        await page.click('.msg.assistant button[title="Regenerate"]');
        await idle();
        eq('regenerate: still one reply', await count('.msg.assistant'), 1);
        check('... with text', (await page.$eval('.msg.assistant .content', (e) => e.textContent)).trim().length > 0);
        await page.click('.msg.user button[title="Edit"]');
        await page.waitForSelector('.msg textarea.edit', WAIT);
        await page.$eval('.msg textarea.edit', (e) => { e.value = 'Tell me a story about a dog.'; });
        await page.click('.msg .btn.primary');
        await idle();
        eq('edit: the message replaced, one new reply', await texts('.msg.user .content'), ['Tell me a story about a dog.']);
        eq('... two messages', await count('.msg'), 2);
        eq('... the title follows the first message', await texts('.conv-title'), ['Tell me a story about a dog.']);
    });

    await group('second message, stopped mid-stream', async () => {
        await set_settings({ max_tokens: 3000 });
        await type_and_enter('Once upon a time');
        await page.waitForFunction(() => {
            const m = document.querySelectorAll('.msg.assistant');
            return m.length === 2 && m[1].querySelector('.content').textContent.length > 20;
        }, WAIT);
        check('the Stop button shows while streaming', !(await page.$eval('#stop', (e) => e.hidden)));
        await page.click('#stop');
        await idle();
        const msgs = await page.$$eval('.msg.assistant', (a) => a.map((e) => ({
            text: e.querySelector('.content').textContent, badge: e.querySelector('.badge')?.textContent,
        })));
        eq('the stopped reply is marked stopped', msgs[1].badge, 'stopped');
        check('... and kept what came', msgs[1].text.length > 20, msgs[1].text.length);
        // The server noticed the closed connection: every slot idle, a task counted as cancelled.
        let busy = null;
        for (let k = 0; k < 50; k++) {
            busy = slots_busy(await (await fetch(`${srv.url}/slots`)).json());
            if (busy && busy.every((b) => !b)) break;
            await sleep(100);
        }
        check('the server stopped generating (no slot busy)', busy && busy.every((b) => !b), JSON.stringify(busy));
        const metrics = await (await fetch(`${srv.url}/metrics`)).text();
        const cancelled = Number((metrics.match(/^frink:tasks_cancelled_total (\S+)/m) || [])[1]);
        check('... a task counted as cancelled', cancelled >= 1, metrics.match(/^frink:tasks_cancelled.*$/m)?.[0]);
        await page.screenshot({ path: `${SHOTS}/desktop-light.png` });
    });

    await group('reload', async () => {
        await page.reload({ waitUntil: 'load' });
        await page.waitForSelector('.msg', WAIT);
        eq('the conversation is back, four messages', await texts('.msg .role'), ['You', 'stories260K', 'You', 'stories260K']);
        eq('... the stopped one still marked (the first ended at max tokens)', await texts('.msg.assistant .badge'), ['max tokens', 'stopped']);
        eq('... listed', await count('.conv'), 1);
        await page.click('#open-settings');
        await page.screenshot({ path: `${SHOTS}/desktop-settings.png` });
        eq('the settings kept', await page.$eval('#settings [name="max_tokens"]', (e) => e.value), '3000');
        await page.$eval('#settings [name="max_tokens"]', (e) => { e.value = '7'; });
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !document.getElementById('settings').open);
        await page.click('#open-settings');
        eq('Escape in the settings keeps them', await page.$eval('#settings [name="max_tokens"]', (e) => e.value), '3000');
        await page.click('#settings button[value="cancel"]');
    });

    await group('rename, new, delete', async () => {
        await page.click('.conv button[title="Rename"]');
        await page.waitForSelector('.conv input.rename', WAIT);
        await page.$eval('.conv input.rename', (e) => { e.value = ''; });
        await page.type('.conv input.rename', 'Dog stories');
        await page.keyboard.press('Enter');
        eq('renamed', await texts('.conv-title'), ['Dog stories']);
        await page.click('#new-chat');
        eq('a new chat: two conversations', await count('.conv'), 2);
        eq('... the new one is empty', await count('.msg'), 0);
        await page.click('.conv.active button[title="Delete"]');
        eq('deleted: one left', await texts('.conv-title'), ['Dog stories']);
        await page.reload({ waitUntil: 'load' });
        await page.waitForSelector('.msg', WAIT);
        eq('after a reload too', await texts('.conv-title'), ['Dog stories']);
    });

    await group('no HTML from the model or the store', async () => {
        // A stored conversation whose reply carries markup and Markdown, as a model could write it.
        const evil = '<img src=x onerror="window.__pwned=1"> **bold** `code` [x](javascript:window.__pwned=2)\n\n' +
            '```html\n<script>window.__pwned=3</script>\n```\n\n- one\n- two <b>b</b>';
        await page.evaluate((evil) => {
            const convs = JSON.parse(localStorage.getItem('frink.conversations'));
            convs.unshift({ id: 'evil', title: '<i>title</i>', created: 1, updated: Date.now() + 1000, messages: [
                { id: 'u1', role: 'user', content: '<b>hi</b>' },
                { id: 'a1', role: 'assistant', content: evil, reasoning: '<u>thought</u>',
                    tool_calls: [{ id: 't', name: '<s>f</s>', arguments: '{"a":"<i>1</i>"}' }] },
            ] });
            localStorage.setItem('frink.conversations', JSON.stringify(convs));
            localStorage.setItem('frink.current', 'evil');
        }, evil);
        await page.reload({ waitUntil: 'load' });
        await page.waitForSelector('.msg.assistant', WAIT);
        await sleep(200);
        const r = await page.evaluate(() => ({
            pwned: window.__pwned,
            tags: [...document.querySelectorAll('#messages img, #messages script, #messages b, #messages i, #messages u, #messages s, #conv-list i')].length,
            strong: document.querySelectorAll('.msg.assistant strong').length,
            code: document.querySelector('.msg.assistant .code-block code')?.textContent,
            items: document.querySelectorAll('.msg.assistant li').length,
            links: [...document.querySelectorAll('.msg.assistant a')].map((a) => a.href),
            title: document.querySelector('.conv.active .conv-title').textContent,
            reasoning: document.querySelector('.msg.assistant details.reasoning')?.open,
            tool: document.querySelector('.msg.assistant details.tool-call summary')?.textContent,
        }));
        eq('no script ran', r.pwned, undefined);
        eq('no element made from the text', r.tags, 0);
        eq('Markdown still rendered: bold, code block, list', [r.strong, r.code, r.items], [1, '<script>window.__pwned=3</script>', 2]);
        eq('a javascript: link is not a link', r.links, []);
        eq('the title is text', r.title, '<i>title</i>');
        eq('reasoning shown collapsed', r.reasoning, false);
        eq('the tool call shown', r.tool, 'Tool call: <s>f</s>');
    });

    await group('markdown', async () => {
        // The renderer on its own, in the page (each case: the Markdown, then the HTML it makes).
        const cases = [
            ['# Title\n\nSome *it* and **bold `code`**.', '<h1>Title</h1><p>Some <em>it</em> and <strong>bold <code>code</code></strong>.</p>'],
            ['line one\nline two', '<p>line one<br>line two</p>'],
            ['- a\n  - b\n- c', '<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>'],
            ['1. x\n2. y', '<ol><li>x</li><li>y</li></ol>'],
            ['> quoted', '<blockquote><p>quoted</p></blockquote>'],
            ['| a | b |\n|---|--:|\n| 1 | 2 |', '<div class="table-wrap"><table><thead><tr><th>a</th><th style="text-align: right;">b</th></tr></thead><tbody><tr><td>1</td><td style="text-align: right;">2</td></tr></tbody></table></div>'],
            ['[site](https://example.com/a_b) and ~~old~~', '<p><a href="https://example.com/a_b" target="_blank" rel="noopener noreferrer">site</a> and <del>old</del></p>'],
            ['snake_case_name stays', '<p>snake_case_name stays</p>'],
            ['```py\nprint(1)', '<div class="code-block"><div class="code-head"><span class="code-lang">py</span><button class="copy-code" type="button">Copy</button></div><pre><code class="language-py">print(1)</code></pre></div>'],
            ['a <b>&amp;</b>', '<p>a &lt;b&gt;&amp;amp;&lt;/b&gt;</p>'],
        ];
        const got = await page.evaluate(async (cases) => {
            const md = await import('/webui/markdown.js');
            return cases.map(([src]) => {
                const div = document.createElement('div');
                div.appendChild(md.renderMarkdown(src));
                return div.innerHTML;
            });
        }, cases);
        cases.forEach(([src, want], k) => eq(`markdown: ${JSON.stringify(src).slice(0, 40)}`, got[k], want));
    });

    await group('reasoning, tool calls and errors, streamed', async () => {
        // A canned stream in place of the server's: what a reasoning model with tools sends.
        const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ model: 'canned', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
        const sse = chunk({ role: 'assistant' }) + chunk({ reasoning_content: 'Let me ' }) + chunk({ reasoning_content: 'think.' }) +
            chunk({ content: 'Calling **f**.' }) +
            chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }) +
            chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }) +
            `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 } })}\n\ndata: [DONE]\n\n`;
        let reply = { status: 200, contentType: 'text/event-stream', body: sse };
        await page.setRequestInterception(true);
        const intercept = (r) => {
            if (r.url().endsWith('/v1/chat/completions')) r.respond(reply);
            else r.continue();
        };
        page.on('request', intercept);
        try {
            await page.click('#new-chat');
            await type_and_enter('weather?');
            await idle();
            const r = await page.evaluate(() => {
                const m = document.querySelector('.msg.assistant');
                return {
                    role: m.querySelector('.role').textContent,
                    reasoning: m.querySelector('details.reasoning .reasoning-text')?.textContent,
                    open: m.querySelector('details.reasoning')?.open,
                    content: m.querySelector('.content').innerHTML,
                    tool: m.querySelector('details.tool-call summary')?.textContent,
                    args: m.querySelector('details.tool-call pre')?.textContent,
                    stats: m.querySelector('.stats')?.textContent,
                };
            });
            eq('reasoning deltas joined, shown collapsed', [r.reasoning, r.open], ['Let me think.', false]);
            eq('content rendered', r.content, '<p>Calling <strong>f</strong>.</p>');
            eq('the tool call and its arguments, joined and pretty-printed', [r.tool, r.args], ['Tool call: get_weather', '{\n  "city": "Paris"\n}']);
            eq('the model named as the stream names it', r.role, 'canned');
            check('usage counted', /^7 tokens/.test(r.stats), r.stats);
            reply = { status: 400, contentType: 'application/json',
                body: JSON.stringify({ error: { message: 'max_tokens must be positive', type: 'invalid_request_error' } }) };
            await page.click('.msg.assistant button[title="Regenerate"]');
            await idle();
            eq('an API error is shown with its message', await texts('.msg.assistant .error'), ['400: max_tokens must be positive']);
            // Chromium logs the canned 400 itself: that one is expected.
            problems.splice(0, problems.length, ...problems.filter((p) => !/status of 400/.test(p)));
            await page.click('.conv.active button[title="Delete"]');
        } finally {
            page.off('request', intercept);
            await page.setRequestInterception(false);
        }
    });

    await group('dark mode', async () => {
        const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const light = await bg();
        await page.click('#toggle-theme');
        eq('the toggle sets dark', await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
        const dark = await bg();
        check('the background changes', dark !== light, `${light} -> ${dark}`);
        await page.screenshot({ path: `${SHOTS}/desktop-dark.png` });
        await page.reload({ waitUntil: 'load' });
        eq('kept after a reload', await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
        await page.click('#toggle-theme');
        eq('toggled back to light', await page.evaluate(() => document.documentElement.dataset.theme), 'light');
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
        await page.evaluate(() => localStorage.removeItem('frink.theme'));
        await page.reload({ waitUntil: 'load' });
        check('no choice stored: the system\'s dark', (await bg()) === dark, await bg());
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    });

    await group('phone width', async () => {
        await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
        await page.reload({ waitUntil: 'load' });
        await page.waitForSelector('.msg', WAIT);
        const layout = () => page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            side: document.getElementById('sidebar').getBoundingClientRect().right,
            toggle: getComputedStyle(document.getElementById('toggle-sidebar')).display,
            composer: document.getElementById('composer').getBoundingClientRect().right,
        }));
        const l = await layout();
        check('nothing wider than the screen', l.scroll <= 390 && l.composer <= 390, JSON.stringify(l));
        check('the list is hidden, its button shown', l.side <= 0 && l.toggle !== 'none', JSON.stringify(l));
        await page.screenshot({ path: `${SHOTS}/phone.png` });
        await page.click('#toggle-sidebar');
        await page.waitForFunction(() => document.getElementById('sidebar').getBoundingClientRect().left >= 0, WAIT);
        await sleep(250); // the slide's transition
        check('the button opens the list', (await layout()).side > 200);
        await page.screenshot({ path: `${SHOTS}/phone-list.png` });
        await page.click('.conv:not(.active) .conv-title');
        await page.waitForFunction(() => document.getElementById('sidebar').getBoundingClientRect().right <= 0, WAIT);
        eq('picking a conversation closes it and shows the conversation', await count('.msg'), 4);
    });

    eq('no errors in the page', problems, []);
} catch (e) {
    check('the browser session', false, e && e.stack ? e.stack.split('\n').slice(0, 4).join(' | ') : String(e));
} finally {
    await browser.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
    await srv.stop();
    note(`${((Date.now() - t_start) / 1000).toFixed(1)} s; screenshots in ${SHOTS}/`);
    finish('test_webui');
}
