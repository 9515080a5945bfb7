// The page (or one element) as markdown: headings, paragraphs, lists,
// links, tables, code, quotes. Runs in an isolated world; hidden elements,
// scripts, styles and navigation chrome are left out. A canvas is read by
// its fallback content (what it shows to assistive technology: a canvas
// data grid keeps its cells there).
(function (root, maxChars) {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD', 'META', 'LINK']);
  const BLOCK = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'FORM', 'FIELDSET', 'FIGURE', 'FIGCAPTION', 'DETAILS', 'SUMMARY', 'DL', 'DT', 'DD', 'ADDRESS', 'CENTER']);
  let out = '';
  let cut = false;
  const emit = (s) => {
    if (cut) return;
    if (out.length + s.length > maxChars) { out += s.slice(0, Math.max(0, maxChars - out.length)); cut = true; return; }
    out += s;
  };
  // White space as one space; U+FEFF (white space to JavaScript, nothing
  // on the page) is left for rove's cleaning, which drops it.
  // A text longer than the whole answer may be is read up to that length:
  // a 50 MB text node costs its prefix.
  const flat = (s) => (s.length > maxChars ? s.slice(0, maxChars + 1) : s).replace(/[^\S\uFEFF]+/g, ' ');
  const hidden = (el) => {
    // A hidden tab panel, a page behind a modal (inert): not what a
    // reader sees.
    if (el.hidden || el.inert || el.getAttribute('aria-hidden') === 'true') return true;
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden';
  };
  // A box of its own, by its tag or by how it is laid out: a custom
  // element or a span shown as a block (an app's result card) ends the
  // text before it like a paragraph does.
  const isBlock = (el) => BLOCK.has(el.tagName) ||
    (el.tagName.includes('-') || el.tagName === 'SPAN' || el.tagName === 'A' || el.tagName === 'LABEL') &&
      /^(block|flex|grid|flow-root|list-item|table)$/.test(getComputedStyle(el).display);
  const block = () => { if (out && !out.endsWith('\n\n')) emit(out.endsWith('\n') ? '\n' : '\n\n'); };
  // Code editors draw one element per line: CodeMirror 6 (.cm-line in
  // .cm-content), CodeMirror 5 (.CodeMirror-line in .CodeMirror-code) and
  // Monaco (.view-line in .view-lines, placed by their top, and marked
  // aria-hidden since its textarea speaks for it). Their lines, in order,
  // or null for anything else.
  const EDITORS = [['cm-content', '.cm-line'], ['CodeMirror-code', '.CodeMirror-line'], ['view-lines', '.view-line']];
  const editorLines = (el) => {
    const kind = EDITORS.find(([container]) => el.classList && el.classList.contains(container));
    if (!kind) return null;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') return null;
    const lines = Array.from(el.querySelectorAll(kind[1]));
    if (kind[0] === 'view-lines') lines.sort((a, b) => (parseFloat(a.style.top) || 0) - (parseFloat(b.style.top) || 0));
    // Monaco writes its spaces as no-break spaces.
    return lines.map((l) => l.textContent.replace(/\u00a0/g, ' ').replace(/\s+$/, ''));
  };
  // A <code> laid out as a block with its line breaks kept is a code block.
  const codeBlock = (el) => {
    if (el.tagName !== 'CODE') return false;
    const style = getComputedStyle(el);
    const breaks = (style.whiteSpaceCollapse || 'collapse') !== 'collapse' || /^(pre|break-spaces)/.test(style.whiteSpace);
    return breaks && !style.display.startsWith('inline');
  };
  const fence = (text) => {
    block();
    emit('```\n' + text.replace(/\n+$/, '') + '\n```\n\n');
  };
  const inline = (el) => {
    let text = '';
    for (const child of el.childNodes) {
      if (child.nodeType === 3) { text += flat(child.data); continue; }
      if (child.nodeType !== 1 || SKIP.has(child.tagName.toUpperCase()) || hidden(child)) continue;
      const tag = child.tagName;
      const inner = inline(child).trim();
      if (tag === 'A' && child.getAttribute('href') && inner) {
        text += `[${inner}](${child.href})`;
      } else if (tag === 'IMG') {
        const alt = child.getAttribute('alt');
        if (alt) text += `![${flat(alt).trim()}]`;
      } else if ((tag === 'STRONG' || tag === 'B') && inner) {
        text += `**${inner}**`;
      } else if ((tag === 'EM' || tag === 'I') && inner) {
        text += `*${inner}*`;
      } else if (tag === 'CODE' && inner) {
        text += '`' + inner + '`';
      } else if (tag === 'BR') {
        text += '\n';
      } else if (tag === 'TEXTAREA' && child.closest('.monaco-editor, .CodeMirror')) {
        // The field a code editor takes keys through: its lines are read.
      } else if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
        const v = tag === 'SELECT' ? (child.selectedOptions[0]?.label ?? '') : child.value;
        if (child.type !== 'hidden' && child.type !== 'password' && v) text += ` [${flat(v).trim()}] `;
      } else {
        const own = isBlock(child) ? ' ' : '';
        text += own + inline(child) + own;
      }
    }
    return text;
  };
  const hasBlocks = (el) => Array.from(el.children).some((c) =>
    isBlock(c) || /^(H[1-6]|UL|OL|TABLE|PRE|BLOCKQUOTE|HR|CANVAS)$/.test(c.tagName) || editorLines(c) || codeBlock(c));
  const list = (el, depth) => {
    block();
    let n = 1;
    for (const item of el.children) {
      if (item.tagName !== 'LI' || hidden(item)) continue;
      const marker = el.tagName === 'OL' ? `${n++}.` : '-';
      let own = '';
      const nested = [];
      for (const child of item.childNodes) {
        if (child.nodeType === 1 && (child.tagName === 'UL' || child.tagName === 'OL')) nested.push(child);
        else if (child.nodeType === 3) own += flat(child.data);
        else if (child.nodeType === 1 && !SKIP.has(child.tagName.toUpperCase()) && !hidden(child)) {
          own += inline({childNodes: [child]});
        }
      }
      emit(`${'  '.repeat(depth)}${marker} ${own.trim()}\n`);
      for (const sub of nested) list(sub, depth + 1);
    }
    if (depth === 0) emit('\n');
  };
  const table = (el) => {
    block();
    const rows = Array.from(el.rows || []).filter((r) => !hidden(r));
    if (!rows.length) return;
    const cells = (r) => Array.from(r.cells).map((c) => inline(c).trim().replace(/\|/g, '\\|'));
    const width = Math.max(...rows.map((r) => r.cells.length));
    rows.forEach((r, i) => {
      const c = cells(r);
      while (c.length < width) c.push('');
      emit(`| ${c.join(' | ')} |\n`);
      if (i === 0) emit(`|${' --- |'.repeat(width)}\n`);
    });
    emit('\n');
  };
  const walk = (el) => {
    if (cut) return;
    for (const child of el.childNodes) {
      if (cut) return;
      if (child.nodeType === 3) {
        const t = flat(child.data);
        if (t.trim()) emit(t);
        continue;
      }
      if (child.nodeType !== 1) continue;
      const tag = child.tagName.toUpperCase();
      if (SKIP.has(tag)) continue;
      const lines = editorLines(child);
      if (lines) {
        fence(lines.join('\n'));
        continue;
      }
      if (hidden(child)) continue;
      const h = /^H([1-6])$/.exec(tag);
      if (h) {
        block();
        emit(`${'#'.repeat(Number(h[1]))} ${inline(child).trim()}\n\n`);
      } else if (tag === 'UL' || tag === 'OL') {
        list(child, 0);
      } else if (tag === 'TABLE') {
        table(child);
      } else if (tag === 'CANVAS') {
        walk(child);
      } else if (tag === 'PRE' || codeBlock(child)) {
        fence(child.innerText);
      } else if (tag === 'BLOCKQUOTE') {
        block();
        emit(inline(child).trim().split('\n').map((l) => `> ${l}`).join('\n') + '\n\n');
      } else if (tag === 'HR') {
        block();
        emit('---\n\n');
      } else if (isBlock(child) || tag === 'LI' || tag === 'BODY') {
        if (hasBlocks(child)) {
          walk(child);
        } else {
          const t = inline(child).trim();
          if (t) { block(); emit(t + '\n\n'); }
        }
      } else {
        const t = inline({childNodes: [child]});
        if (t.trim()) emit(t);
      }
      if (child.shadowRoot) walk(child.shadowRoot);
    }
  };
  // An element read alone is read as itself (a table as a table, a list
  // as a list), not as its children loose.
  if (root) walk({childNodes: [root]});
  else if (document.body || document.documentElement) walk(document.body || document.documentElement);
  return {markdown: out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim(), cut, title: document.title, url: location.href};
})
