// app.js — the web chat of `frink serve`: conversations kept in this browser (localStorage),
// replies streamed from /v1/chat/completions (SSE), rendered as Markdown by markdown.js.
//
// Everything the model wrote, or a stored conversation holds, reaches the page as text nodes
// (textContent, or markdown.js, which builds nodes): nothing here assigns innerHTML.
//
// State: `convs` (every conversation, saved to localStorage after each change), `current` (the
// id shown), `settings` (sampling, system message, API key) and `busy` (the generation running,
// if any: one at a time, with the AbortController its Stop button aborts; the server notices the
// closed connection and frees the slot within a step).
import { renderMarkdown, copyText } from './markdown.js';

const KEY_CONVS = 'frink.conversations';
const KEY_CURRENT = 'frink.current';
const KEY_SETTINGS = 'frink.settings';
const KEY_THEME = 'frink.theme';
const DEFAULTS = { system: '', temperature: '', top_p: '', top_k: '', min_p: '', max_tokens: '', api_key: '' };
const NUMERIC = ['temperature', 'top_p', 'top_k', 'min_p', 'max_tokens'];

const $ = (id) => document.getElementById(id);
const ui = {
  app: $('app'), list: $('conv-list'), messages: $('messages'), input: $('input'), send: $('send'), stop: $('stop'),
  form: $('composer'), model: $('model-name'), ctx: $('ctx-use'), settings: $('settings'),
  settingsForm: $('settings-form'), scrim: $('scrim'),
};

let convs = loadJSON(KEY_CONVS, []);
if (!Array.isArray(convs)) convs = [];
let current = localStorage.getItem(KEY_CURRENT);
let settings = { ...DEFAULTS, ...loadJSON(KEY_SETTINGS, {}) };
let props = null;     // GET /props, once it answered
let busy = null;      // { conv, msg, controller }
let renaming = null;  // the id of the conversation whose title is being edited
let editing = null;   // the id of the message being edited
const shownReasoning = new Set(); // ids of the messages whose reasoning the user opened

function loadJSON(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function save() {
  try {
    localStorage.setItem(KEY_CONVS, JSON.stringify(convs));
    if (current) localStorage.setItem(KEY_CURRENT, current);
    else localStorage.removeItem(KEY_CURRENT);
  } catch (e) {
    console.warn('frink: could not save the conversations:', e);
  }
}

const uid = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
const conv = () => convs.find((c) => c.id === current) || null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(label, title, onClick, cls = 'icon-btn small') {
  const b = el('button', cls, label);
  b.type = 'button';
  b.title = title;
  b.setAttribute('aria-label', title);
  b.addEventListener('click', onClick);
  return b;
}

// ---- theme ----------------------------------------------------------------------------------

// The stored choice ("light" / "dark") or none: the system's (prefers-color-scheme).
function applyTheme() {
  const t = localStorage.getItem(KEY_THEME);
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
  else delete document.documentElement.dataset.theme;
}

function isDark() {
  const t = document.documentElement.dataset.theme;
  return t ? t === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
}

$('toggle-theme').addEventListener('click', () => {
  localStorage.setItem(KEY_THEME, isDark() ? 'light' : 'dark');
  applyTheme();
});

// ---- the server -----------------------------------------------------------------------------

function headers() {
  const h = { 'Content-Type': 'application/json' };
  if (settings.api_key) h.Authorization = 'Bearer ' + settings.api_key;
  return h;
}

// The error message of a failed API answer (OpenAI's {"error": {"message"}} shape).
async function errorOf(res) {
  let text = '';
  try { text = await res.text(); } catch { /* the body is gone */ }
  try {
    const j = JSON.parse(text);
    if (j && j.error) return `${res.status}: ${j.error.message || j.error}`;
  } catch { /* not JSON */ }
  return `${res.status} ${res.statusText}${text ? ': ' + text.slice(0, 300) : ''}`;
}

// GET /props: the model's name and the context per slot. Retried while the model loads.
async function loadProps() {
  try {
    const res = await fetch('props', { headers: headers() });
    if (res.status === 503) { setTimeout(loadProps, 1000); ui.model.textContent = 'loading…'; return; }
    if (res.status === 401) { ui.model.textContent = 'API key needed (Settings)'; return; }
    if (!res.ok) { ui.model.textContent = 'server: ' + (await errorOf(res)); return; }
    props = await res.json();
    ui.model.textContent = props.model_alias || 'model';
    ui.model.title = props.model_path || '';
    renderCtx();
    if (!conv() || !conv().messages.length) renderMessages(); // the greeting names the model
  } catch (e) {
    ui.model.textContent = 'server unreachable';
    setTimeout(loadProps, 3000);
  }
}

// "N / CTX tokens": what the last reply's usage says the conversation takes of the context.
function renderCtx() {
  const c = conv();
  const last = c && [...c.messages].reverse().find((m) => m.role === 'assistant' && m.stats && m.stats.context);
  // What one request may use: frink's n_ctx_slot (its n_ctx is all slots together, as
  // llama-server reports it); llama-server's own n_ctx otherwise.
  const g = props && props.default_generation_settings;
  const n_ctx = g && (g.n_ctx_slot || g.n_ctx);
  if (!n_ctx) { ui.ctx.textContent = ''; return; }
  const used = last ? last.stats.context : 0;
  ui.ctx.textContent = `${used} / ${n_ctx} tokens`;
  ui.ctx.classList.toggle('warn', used > 0.9 * n_ctx);
}

// The request's body: the conversation as OpenAI messages, the sampling settings that are set.
function requestBody(c) {
  const messages = [];
  if (settings.system.trim()) messages.push({ role: 'system', content: settings.system });
  for (const m of c.messages) {
    if (m.pending) continue;
    if (m.role === 'user') messages.push({ role: 'user', content: m.content });
    // A reply with no text (an error, a stop before the first token, only tool calls, which
    // this page cannot answer) is left out of the history the model sees.
    else if (m.role === 'assistant' && m.content) messages.push({ role: 'assistant', content: m.content });
  }
  const body = { messages, stream: true, stream_options: { include_usage: true } };
  for (const k of NUMERIC) {
    if (settings[k] === '' || settings[k] === null || settings[k] === undefined) continue;
    const v = Number(settings[k]);
    if (Number.isFinite(v)) body[k] = k === 'top_k' || k === 'max_tokens' ? Math.round(v) : v;
  }
  return body;
}

// Streams a reply to conversation c into a new assistant message. One SSE event is
// "data: {chunk}" and a blank line; "data: [DONE]" ends the stream.
async function generate(c) {
  const msg = { id: uid(), role: 'assistant', content: '', reasoning: '', tool_calls: [], pending: true };
  c.messages.push(msg);
  c.updated = Date.now();
  const controller = new AbortController();
  busy = { conv: c, msg, controller };
  save();
  render();
  const t0 = performance.now();
  let tFirst = 0, nDeltas = 0, usage = null, timings = null;
  try {
    const res = await fetch('v1/chat/completions', {
      method: 'POST', headers: headers(), body: JSON.stringify(requestBody(c)), signal: controller.signal,
    });
    if (!res.ok) throw new Error(await errorOf(res));
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      for (let k; (k = buf.indexOf('\n\n')) >= 0;) {
        const event = buf.slice(0, k);
        buf = buf.slice(k + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data:')) continue; // ": keep-alive" comments, other fields
          const data = line.slice(5).trim();
          if (data === '[DONE]') continue;
          const j = JSON.parse(data);
          if (j.error) throw new Error(j.error.message || JSON.stringify(j.error));
          if (j.usage) usage = j.usage;
          if (j.timings) timings = j.timings;
          if (j.model) msg.model = j.model;
          const ch = j.choices && j.choices[0];
          const d = ch && ch.delta;
          if (!d) continue;
          if (d.content || d.reasoning_content || d.tool_calls) {
            if (!tFirst) tFirst = performance.now();
            nDeltas++;
          }
          if (d.content) msg.content += d.content;
          if (d.reasoning_content) msg.reasoning += d.reasoning_content;
          for (const tc of d.tool_calls || []) {
            const slot = (msg.tool_calls[tc.index ?? msg.tool_calls.length] ||= { id: '', name: '', arguments: '' });
            if (tc.id) slot.id = tc.id;
            if (tc.function?.name) slot.name += tc.function.name;
            if (tc.function?.arguments) slot.arguments += tc.function.arguments;
          }
          if (ch.finish_reason) msg.finish = ch.finish_reason;
        }
        scheduleRender(msg);
      }
    }
  } catch (e) {
    if (e.name === 'AbortError') msg.stopped = true;
    else msg.error = String(e.message || e);
  } finally {
    const tEnd = performance.now();
    // Speed: the server's own timings when it sends them (llama-server does), else the tokens
    // of the usage (or the deltas counted, for a stopped reply) over the time they took to
    // arrive after the first. A short, fast reply can arrive in one read, all at once: its
    // speed is then taken over the whole request, the prompt's evaluation included.
    const tokens = usage ? usage.completion_tokens : nDeltas;
    const span = tFirst ? (tEnd - tFirst) / 1000 : 0;
    const tps = span >= 0.2 && tokens > 1 ? (tokens - 1) / span : tokens / Math.max((tEnd - t0) / 1000, 1e-3);
    msg.stats = {
      tokens,
      tps: timings?.predicted_per_second ?? (tokens ? tps : null),
      ttft: tFirst ? Math.round(tFirst - t0) : null,
      prompt_tokens: usage ? usage.prompt_tokens : null,
      cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? null,
      context: usage ? usage.prompt_tokens + usage.completion_tokens : null,
    };
    delete msg.pending;
    busy = null;
    c.updated = Date.now();
    save();
    render();
  }
}

// Streamed updates re-render only the message, once per frame.
let renderQueued = null;
function scheduleRender(msg) {
  if (renderQueued) return;
  renderQueued = requestAnimationFrame(() => {
    renderQueued = null;
    const node = ui.messages.querySelector(`[data-id="${msg.id}"]`);
    if (node && busy && busy.msg === msg) {
      const stick = nearBottom();
      node.replaceWith(messageNode(msg, busy.conv));
      if (stick) scrollDown();
    }
  });
}

// ---- conversations --------------------------------------------------------------------------

function newConversation() {
  const c = { id: uid(), title: 'New chat', created: Date.now(), updated: Date.now(), messages: [] };
  convs.unshift(c);
  current = c.id;
  save();
  render();
  ui.input.focus();
  return c;
}

function send() {
  const text = ui.input.value;
  if (!text.trim() || busy) return;
  const c = conv() || newConversation();
  if (!c.messages.length && c.title === 'New chat') c.title = titleOf(text);
  c.messages.push({ id: uid(), role: 'user', content: text });
  ui.input.value = '';
  autosize();
  generate(c);
}

function titleOf(text) {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 48 ? t.slice(0, 47) + '…' : t;
}

function deleteConversation(c) {
  if (!confirm(`Delete "${c.title}"?`)) return;
  if (busy && busy.conv === c) busy.controller.abort();
  convs = convs.filter((x) => x !== c);
  if (current === c.id) current = convs[0] ? convs[0].id : null;
  save();
  render();
}

// Drops the reply at index i (and anything after it) and asks again.
function regenerate(c, i) {
  if (busy) return;
  c.messages.splice(i);
  generate(c);
}

// Replaces message i's text; for a user message, what followed it is dropped and a new reply
// generated; an assistant message is only corrected (it becomes the history the model sees).
function commitEdit(c, i, text) {
  editing = null;
  const m = c.messages[i];
  m.content = text;
  if (m.role === 'user') {
    c.messages.splice(i + 1);
    if (i === 0) c.title = titleOf(text);
    generate(c);
  } else {
    save();
    render();
  }
}

// ---- rendering ------------------------------------------------------------------------------

function render() {
  renderList();
  renderMessages();
  renderCtx();
  ui.send.hidden = !!busy;
  ui.stop.hidden = !busy;
}

function renderList() {
  ui.list.replaceChildren();
  for (const c of [...convs].sort((a, b) => b.updated - a.updated)) {
    const li = el('li', 'conv' + (c.id === current ? ' active' : ''));
    li.dataset.id = c.id;
    if (renaming === c.id) {
      const input = el('input', 'rename');
      input.value = c.title;
      input.setAttribute('aria-label', 'Conversation title');
      const done = (keep) => {
        if (renaming !== c.id) return;
        renaming = null;
        if (keep && input.value.trim()) { c.title = input.value.trim(); save(); }
        render();
      };
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') { e.preventDefault(); done(true); }
        if (e.key === 'Escape') done(false);
      });
      input.addEventListener('blur', () => done(true));
      li.appendChild(input);
      requestAnimationFrame(() => { input.focus(); input.select(); });
    } else {
      const title = button(c.title, c.title, () => { current = c.id; editing = null; save(); closeSidebar(); render(); }, 'conv-title');
      li.append(title,
        button('✎', 'Rename', () => { renaming = c.id; render(); }),
        button('×', 'Delete', () => deleteConversation(c)));
    }
    ui.list.appendChild(li);
  }
}

function nearBottom() {
  const m = ui.messages;
  return m.scrollHeight - m.scrollTop - m.clientHeight < 80;
}
function scrollDown() { ui.messages.scrollTop = ui.messages.scrollHeight; }

function renderMessages() {
  const c = conv();
  ui.messages.replaceChildren();
  if (!c || !c.messages.length) {
    const empty = el('div', 'empty');
    empty.appendChild(el('h1', '', props?.model_alias ? `Chat with ${props.model_alias}` : 'frink'));
    empty.appendChild(el('p', 'muted', 'Enter sends, Shift+Enter adds a line. Conversations stay in this browser.'));
    ui.messages.appendChild(empty);
    return;
  }
  for (const m of c.messages) ui.messages.appendChild(messageNode(m, c));
  scrollDown();
}

function statsText(s) {
  const parts = [];
  if (s.tokens != null) parts.push(`${s.tokens} tokens`);
  if (s.tps != null) parts.push(`${s.tps.toFixed(1)} tokens/s`);
  if (s.ttft != null) parts.push(`first token ${(s.ttft / 1000).toFixed(2)} s`);
  if (s.prompt_tokens != null) parts.push(`prompt ${s.prompt_tokens}` + (s.cached_tokens ? ` (${s.cached_tokens} cached)` : ''));
  return parts.join(' · ');
}

function messageNode(m, c) {
  const i = c.messages.indexOf(m);
  const node = el('article', `msg ${m.role}`);
  node.dataset.id = m.id;
  node.appendChild(el('div', 'role', m.role === 'user' ? 'You' : m.model || props?.model_alias || 'Assistant'));

  if (editing === m.id) {
    const ta = el('textarea', 'edit');
    ta.value = m.content;
    const row = el('div', 'row');
    row.append(el('span', 'spacer'),
      button('Cancel', 'Cancel', () => { editing = null; render(); }, 'btn'),
      button(m.role === 'user' ? 'Save & send' : 'Save', 'Save', () => commitEdit(c, i, ta.value), 'btn primary'));
    ta.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); if (ta.value.trim()) commitEdit(c, i, ta.value); }
      if (e.key === 'Escape') { editing = null; render(); }
    });
    node.append(ta, row);
    requestAnimationFrame(() => ta.focus());
    return node;
  }

  if (m.reasoning) {
    // Collapsed unless opened: a re-render while streaming keeps it as the user left it.
    const d = el('details', 'reasoning');
    d.open = shownReasoning.has(m.id);
    d.addEventListener('toggle', () => { if (d.open) shownReasoning.add(m.id); else shownReasoning.delete(m.id); });
    const thinking = m.pending && !m.content && !m.tool_calls?.length;
    d.appendChild(el('summary', '', thinking ? 'Thinking…' : 'Reasoning'));
    d.appendChild(el('div', 'reasoning-text', m.reasoning));
    node.appendChild(d);
  }
  const body = el('div', 'content');
  if (m.role === 'user') {
    body.classList.add('plain'); // what the user typed, as typed
    body.textContent = m.content;
  } else {
    body.appendChild(renderMarkdown(m.content));
  }
  if (m.pending && !m.content && !m.reasoning) body.appendChild(el('span', 'typing', '●●●'));
  node.appendChild(body);
  for (const tc of m.tool_calls || []) {
    const d = el('details', 'tool-call');
    d.open = true;
    d.appendChild(el('summary', '', `Tool call: ${tc.name || '(unnamed)'}`));
    let args = tc.arguments;
    try { args = JSON.stringify(JSON.parse(tc.arguments), null, 2); } catch { /* partial or not JSON */ }
    d.appendChild(el('pre', '', args));
    node.appendChild(d);
  }
  if (m.error) node.appendChild(el('div', 'error', m.error));

  const foot = el('div', 'foot');
  if (m.stopped) foot.appendChild(el('span', 'badge', 'stopped'));
  else if (m.finish === 'length') foot.appendChild(el('span', 'badge', 'max tokens'));
  if (m.stats) foot.appendChild(el('span', 'stats muted', statsText(m.stats)));
  foot.appendChild(el('span', 'spacer'));
  if (!m.pending) {
    foot.appendChild(button('Copy', 'Copy', (e) => copyText(m.content, e.currentTarget), 'act'));
    if (!busy) {
      foot.appendChild(button('Edit', 'Edit', () => { editing = m.id; render(); }, 'act'));
      if (m.role === 'assistant' && i === c.messages.length - 1) foot.appendChild(button('Regenerate', 'Regenerate', () => regenerate(c, i), 'act'));
    }
  }
  node.appendChild(foot);
  return node;
}

// ---- settings -------------------------------------------------------------------------------

$('open-settings').addEventListener('click', () => {
  for (const [k, v] of Object.entries(settings)) {
    const f = ui.settingsForm.elements[k];
    if (f) f.value = v;
  }
  ui.settings.returnValue = ''; // Escape closes with the last value: make it none
  ui.settings.showModal();
});

ui.settings.addEventListener('close', () => {
  const how = ui.settings.returnValue;
  if (how === 'save') {
    for (const k of Object.keys(DEFAULTS)) settings[k] = ui.settingsForm.elements[k].value;
  } else if (how === 'reset') {
    settings = { ...DEFAULTS, api_key: settings.api_key };
  } else {
    return;
  }
  localStorage.setItem(KEY_SETTINGS, JSON.stringify(settings));
  loadProps();
});

// ---- the composer and the layout ------------------------------------------------------------

function autosize() {
  ui.input.style.height = 'auto';
  ui.input.style.height = Math.min(ui.input.scrollHeight, 240) + 'px';
}

ui.input.addEventListener('input', autosize);
ui.input.addEventListener('keydown', (e) => {
  // Enter sends; Shift+Enter is a new line; Enter while an IME composes belongs to the IME.
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    send();
  }
});
ui.form.addEventListener('submit', (e) => { e.preventDefault(); send(); });
ui.stop.addEventListener('click', () => busy && busy.controller.abort());
$('new-chat').addEventListener('click', () => { closeSidebar(); newConversation(); });

// On narrow screens the list slides over the chat.
function closeSidebar() { ui.app.classList.remove('sidebar-open'); ui.scrim.hidden = true; }
$('toggle-sidebar').addEventListener('click', () => {
  const open = ui.app.classList.toggle('sidebar-open');
  ui.scrim.hidden = !open;
});
ui.scrim.addEventListener('click', closeSidebar);

// A reply that was streaming when the page went away stays as it was, marked stopped.
for (const c of convs) {
  for (const m of c.messages || []) if (m.pending) { delete m.pending; m.stopped = true; }
}
if (!conv()) current = convs[0] ? convs[0].id : null;
applyTheme();
render();
loadProps();
ui.input.focus();
