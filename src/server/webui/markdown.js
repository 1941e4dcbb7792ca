// markdown.js — a small Markdown renderer for the chat's replies: fenced code blocks (with a
// copy button), headings, lists (nested by indentation), block quotes, rules, GFM tables,
// paragraphs with hard line breaks, and inline code, bold, italic, strike-through and links.
//
// Safety: it builds DOM nodes, never HTML strings. Every piece of the model's text becomes a
// text node (createTextNode / textContent), so no markup the model writes, or a stored
// conversation holds, is ever parsed as HTML. Links keep only http:, https: and mailto: targets.
//
// It is re-run on the whole text at every streamed update: an unclosed code fence (a reply still
// being written) is a code block to the end of the text.

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TABLE_SEP = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

// Renders `text` (Markdown) into a new DocumentFragment.
export function renderMarkdown(text) {
  const frag = document.createDocumentFragment();
  renderBlocks(String(text).replace(/\r\n?/g, '\n').split('\n'), frag);
  return frag;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function isBlank(line) { return /^\s*$/.test(line); }

// Does this line begin a block other than a paragraph (it ends a paragraph)?
function startsBlock(line) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function renderBlocks(lines, parent) {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) { i++; continue; }
    let m;
    if ((m = FENCE.exec(line))) { i = codeBlock(lines, i, m, parent); continue; }
    if ((m = HEADING.exec(line))) {
      const h = el('h' + m[1].length);
      renderInline(m[2], h);
      parent.appendChild(h);
      i++;
      continue;
    }
    if (RULE.test(line)) { parent.appendChild(el('hr')); i++; continue; }
    if (QUOTE.test(line)) {
      const inner = [];
      while (i < lines.length && (m = QUOTE.exec(lines[i]))) { inner.push(m[1]); i++; }
      const q = el('blockquote');
      renderBlocks(inner, q);
      parent.appendChild(q);
      continue;
    }
    if (ITEM.test(line)) { i = list(lines, i, parent); continue; }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      i = table(lines, i, parent);
      continue;
    }
    // A paragraph: up to a blank line or the start of another block. Single newlines are
    // line breaks (chat replies mean them).
    const para = [line];
    i++;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i])) para.push(lines[i++]);
    const p = el('p');
    para.forEach((l, k) => {
      if (k) p.appendChild(el('br'));
      renderInline(l.trim(), p);
    });
    parent.appendChild(p);
  }
}

// A fenced code block from lines[i] (matched by m) to its closing fence or the end. Returns the
// index after it.
function codeBlock(lines, i, m, parent) {
  const fence = m[1], lang = m[2];
  const body = [];
  i++;
  while (i < lines.length) {
    const l = lines[i];
    const close = l.trim();
    if (close.length >= fence.length && close[0] === fence[0] && /^(`+|~+)$/.test(close)) { i++; break; }
    body.push(l);
    i++;
  }
  const code = body.join('\n');
  const wrap = el('div', 'code-block');
  const head = el('div', 'code-head');
  head.appendChild(el('span', 'code-lang', lang || 'text'));
  const copy = el('button', 'copy-code', 'Copy');
  copy.type = 'button';
  copy.addEventListener('click', () => copyText(code, copy));
  head.appendChild(copy);
  const pre = el('pre');
  const c = el('code', lang ? 'language-' + lang.replace(/[^\w+#-]/g, '') : '', code);
  pre.appendChild(c);
  wrap.append(head, pre);
  parent.appendChild(wrap);
  return i;
}

// A list from lines[i]: items at the first item's indentation, each item's following lines
// (indented past the marker, or after blank lines while still indented) belonging to it and
// rendered as blocks of their own (so nested lists work). Returns the index after it.
function list(lines, i, parent) {
  const first = ITEM.exec(lines[i]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const ul = el(ordered ? 'ol' : 'ul');
  if (ordered && parseInt(first[2], 10) !== 1) ul.start = parseInt(first[2], 10);
  let loose = false;
  const items = [];
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const content = [m[3]];
    const inner = m[1].length + m[2].length + 1;
    i++;
    while (i < lines.length) {
      const l = lines[i];
      if (isBlank(l)) {
        // A blank line continues the item only when an indented line follows.
        let j = i;
        while (j < lines.length && isBlank(lines[j])) j++;
        if (j < lines.length && lines[j].search(/\S/) >= inner) {
          loose = true;
          for (; i < j; i++) content.push('');
          continue;
        }
        break;
      }
      const lead = l.search(/\S/);
      if (lead < inner && (ITEM.test(l) || startsBlock(l))) break;
      content.push(l.slice(Math.min(lead, inner)));
      i++;
    }
    items.push(content);
    // A blank line between two items makes the list loose.
    if (i < lines.length && isBlank(lines[i])) {
      let j = i;
      while (j < lines.length && isBlank(lines[j])) j++;
      const n = j < lines.length ? ITEM.exec(lines[j]) : null;
      if (n && n[1].length === indent) { loose = true; i = j; }
    }
  }
  for (const content of items) {
    const li = el('li');
    if (!loose && content.every((l) => !startsBlock(l) || ITEM.test(l)) && !ITEM.test(content[0])) {
      // A tight item: its first lines inline, anything nested after them as blocks.
      let k = 0;
      while (k < content.length && !ITEM.test(content[k]) && !isBlank(content[k])) {
        if (k) li.appendChild(el('br'));
        renderInline(content[k].trim(), li);
        k++;
      }
      if (k < content.length) renderBlocks(content.slice(k), li);
    } else {
      renderBlocks(content, li);
    }
    ul.appendChild(li);
  }
  parent.appendChild(ul);
  return i;
}

function splitRow(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

// A GFM table: a header row, the separator row (its colons give each column's alignment),
// then rows up to a line without a '|'. Returns the index after it.
function table(lines, i, parent) {
  const head = splitRow(lines[i]);
  const align = splitRow(lines[i + 1]).map((c) =>
    c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : '');
  i += 2;
  const wrap = el('div', 'table-wrap');
  const t = el('table');
  const thead = el('thead'), tr = el('tr');
  head.forEach((c, k) => {
    const th = el('th');
    if (align[k]) th.style.textAlign = align[k];
    renderInline(c, th);
    tr.appendChild(th);
  });
  thead.appendChild(tr);
  t.appendChild(thead);
  const tbody = el('tbody');
  while (i < lines.length && lines[i].includes('|') && !isBlank(lines[i])) {
    const row = el('tr');
    splitRow(lines[i]).slice(0, head.length).forEach((c, k) => {
      const td = el('td');
      if (align[k]) td.style.textAlign = align[k];
      renderInline(c, td);
      row.appendChild(td);
    });
    tbody.appendChild(row);
    i++;
  }
  t.appendChild(tbody);
  wrap.appendChild(t);
  parent.appendChild(wrap);
  return i;
}

// Inline spans, leftmost first: `code`, **bold** / __bold__, *italic* / _italic_, ~~strike~~,
// [text](url), and bare http(s) URLs. The text between them is text nodes.
const INLINE = new RegExp([
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/.source,          // 1, 2: code
  /\*\*(?=\S)([\s\S]*?\S)\*\*/.source,                  // 3: bold
  /(?<![\w])__(?=\S)([\s\S]*?\S)__(?![\w])/.source,     // 4: bold
  /\*(?=[^\s*])([\s\S]*?[^\s*])\*/.source,              // 5: italic
  /(?<![\w])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w])/.source, // 6: italic
  /~~(?=\S)([\s\S]*?\S)~~/.source,                      // 7: strike
  /\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/.source, // 8, 9: link
  /(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"\]])/.source,  // 10: bare URL
].join('|'), 'g');

function safeHref(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null;
}

function link(href, parent, text) {
  const a = el('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  renderInline(text, a);
  parent.appendChild(a);
}

export function renderInline(text, parent) {
  let last = 0;
  // matchAll iterates over a copy of the regex: the nested calls below have their own.
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[2] !== undefined) parent.appendChild(el('code', '', m[2].length > 2 && m[2][0] === ' ' && m[2].endsWith(' ') ? m[2].slice(1, -1) : m[2]));
    else if (m[3] !== undefined || m[4] !== undefined) { const b = el('strong'); renderInline(m[3] ?? m[4], b); parent.appendChild(b); }
    else if (m[5] !== undefined || m[6] !== undefined) { const b = el('em'); renderInline(m[5] ?? m[6], b); parent.appendChild(b); }
    else if (m[7] !== undefined) { const b = el('del'); renderInline(m[7], b); parent.appendChild(b); }
    else if (m[8] !== undefined) {
      const href = safeHref(m[9]);
      if (href) link(href, parent, m[8]);
      else parent.appendChild(document.createTextNode(m[0]));
    } else if (m[10] !== undefined) {
      const a = el('a', '', m[10]);
      a.href = m[10];
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      parent.appendChild(a);
    }
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

// Puts text on the clipboard and says so on the button for a moment. The Clipboard API needs a
// secure context (localhost is one); elsewhere a hidden textarea and execCommand.
export async function copyText(text, button) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
  } catch { ok = false; }
  if (!ok) {
    const ta = el('textarea');
    ta.value = text;
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
  }
  if (button) {
    const was = button.textContent;
    button.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => { button.textContent = was; }, 1200);
  }
}
