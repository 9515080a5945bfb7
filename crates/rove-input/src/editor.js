// Called on an element of a code or rich-text editor (`this`) in rove's
// isolated world: CodeMirror 5 (its `.CodeMirror` wrapper, or the hidden
// textarea that takes its keys), CodeMirror 6 (`.cm-editor`, `.cm-content`),
// Monaco (`.monaco-editor` and its textarea), or a contenteditable host
// (ProseMirror's among them). A ref to any part of the editor, or to an
// element that only wraps one, stands for the whole editor.
// mode 'find': {state: 'editor', kind} or {state: 'none'}.
// mode 'focus': gives the editor's input the focus, as a click would, and
//   answers {state: 'ok', kind} or {state: <why not>}.
// mode 'selected': {state: 'ok', selected} after a select-all.
// mode 'read': the text the editor shows, line by line ({state: 'ok', kind,
//   text, scrolls}); `scrolls` says the editor is taller than its view, so a
//   virtualised one shows only some of its lines.
function (mode) {
  const el = this;
  if (!el.isConnected) return {state: 'detached'};
  const HOSTS = '.CodeMirror, .cm-editor, .monaco-editor';
  let host = el.closest(HOSTS);
  if (!host && el.querySelectorAll) {
    // An element that only wraps one editor (nothing else to read in it).
    const inner = el.querySelectorAll(HOSTS);
    if (inner.length === 1 && el.innerText.trim() === inner[0].innerText.trim()) host = inner[0];
  }
  let kind;
  let input;
  if (host && host.classList.contains('CodeMirror')) {
    kind = 'CodeMirror 5';
    input = host.querySelector('textarea') || host.querySelector('[contenteditable="true"]');
  } else if (host && host.classList.contains('cm-editor')) {
    kind = 'CodeMirror 6';
    input = host.querySelector('.cm-content');
  } else if (host) {
    kind = 'Monaco';
    input = host.querySelector('textarea') || host.querySelector('.native-edit-context');
  } else if (el.isContentEditable) {
    let editing = el;
    while (editing.parentElement && editing.parentElement.isContentEditable) editing = editing.parentElement;
    host = editing;
    input = editing;
    kind = editing.classList.contains('ProseMirror') ? 'ProseMirror' : 'contenteditable';
  } else {
    // An editor rove has no rules for (Ace, an in-house one): keys go to a
    // textarea drawn nowhere, which the editor empties as it moves the text
    // into the document it draws. Its box is the editor.
    const field = el.tagName === 'TEXTAREA' ? el : null;
    if (!field || !drawnNowhere(field)) return {state: 'none'};
    host = field.parentElement;
    while (host && host.parentElement && !bigEnough(host)) host = host.parentElement;
    if (!host || !bigEnough(host)) return {state: 'none'};
    input = field;
    kind = 'editor';
  }
  if (!input) return {state: 'none'};
  function drawnNowhere(f) {
    const box = f.getBoundingClientRect();
    const style = getComputedStyle(f);
    return parseFloat(style.opacity) === 0 || box.width <= 2 || box.height <= 2 || style.clipPath !== 'none' && style.clipPath !== '';
  }
  function bigEnough(e) {
    const box = e.getBoundingClientRect();
    return box.width >= 40 && box.height >= 14;
  }
  if (mode === 'find') return {state: 'editor', kind};
  if (mode === 'focus') {
    if (!host.checkVisibility({checkVisibilityCSS: true})) return {state: 'hidden'};
    if (host.closest('[aria-disabled="true"]') || input.disabled) return {state: 'disabled'};
    const readOnly = input.readOnly || input.getAttribute('aria-readonly') === 'true'
      || (input.hasAttribute('contenteditable') && !input.isContentEditable);
    if (readOnly) return {state: 'readonly'};
    input.focus({preventScroll: false});
    let active = input.ownerDocument.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    const inRoot = input.getRootNode().activeElement;
    const focused = (a) => a && (a === input || input.contains(a));
    if (!focused(active) && !focused(inRoot)) return {state: 'unfocusable'};
    // The editor learns of the focus and the caret through events that come
    // a task later (selectionchange): answered once they have run, so that
    // they cannot undo the select-all that follows.
    return afterFrames().then(() => ({state: 'ok', kind}));
  }
  if (mode === 'selected') {
    // Whether the document's selection spans the editor's whole text (for
    // editors that keep their selection in the DOM's; the others say yes).
    if (input.tagName === 'TEXTAREA' || kind === 'Monaco' || kind === 'CodeMirror 5') return {state: 'ok', selected: true};
    const squash = (t) => t.replace(/[\s\u200b]+/g, '');
    const isAll = () => {
      const selection = input.ownerDocument.getSelection();
      return !!selection && squash(selection.toString()) === squash(host.innerText);
    };
    if (isAll()) return {state: 'ok', selected: true};
    return afterFrames().then(() => ({state: 'ok', selected: isAll()}));
  }
  function afterFrames() {
    const frame = () => new Promise((resolve) => { requestAnimationFrame(() => resolve()); setTimeout(resolve, 50); });
    return frame().then(frame);
  }
  const texts = (nodes, clean) => Array.from(nodes, (n) => clean(n.textContent));
  const overflows = (box) => !!box && box.scrollHeight > box.clientHeight + 1;
  let lines;
  let scrolls = false;
  if (kind === 'CodeMirror 5') {
    // An empty line holds a zero-width space.
    lines = texts(host.querySelectorAll('.CodeMirror-code pre.CodeMirror-line'), (t) => t.replace(/\u200b/g, ''));
    scrolls = overflows(host.querySelector('.CodeMirror-scroll'));
  } else if (kind === 'CodeMirror 6') {
    lines = texts(host.querySelectorAll('.cm-content > .cm-line'), (t) => t);
    scrolls = overflows(host.querySelector('.cm-scroller')) || !!host.querySelector('.cm-content > .cm-gap');
  } else if (kind === 'Monaco') {
    // Lines are placed by their `top`, not in document order; spaces are
    // drawn as no-break spaces.
    const rows = Array.from(host.querySelectorAll('.view-lines > .view-line'));
    rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    lines = texts(rows, (t) => t.replace(/\u00a0/g, ' '));
    const slider = host.querySelector('.scrollbar.vertical .slider');
    const track = host.querySelector('.scrollbar.vertical');
    scrolls = !!slider && !!track && slider.offsetHeight > 0 && slider.offsetHeight < track.offsetHeight - 1;
  } else if (kind === 'editor') {
    // What the box shows, less its gutter of line numbers (a column of its
    // own before the text).
    let shown = host.innerText;
    for (const g of host.querySelectorAll('[class*=gutter], [class*=line-number], [class*=linenumber]')) {
      const numbers = g.innerText;
      if (numbers && shown.startsWith(numbers)) shown = shown.slice(numbers.length);
    }
    lines = shown.replace(/\u00a0/g, ' ').split('\n').map((l) => l.replace(/\s+$/, ''));
    while (lines.length && !lines[0]) lines.shift();
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    scrolls = host.scrollHeight > host.clientHeight + 1;
  } else {
    // Paragraph blocks are lines (innerText would put a blank line between
    // paragraphs, for their margins).
    const BLOCK = /^(P|H[1-6]|PRE|BLOCKQUOTE)$/;
    const kids = Array.from(host.childNodes).filter((n) => !(n.nodeType === 3 && !n.textContent.trim()));
    if (kids.length && kids.every((n) => n.nodeType === 1 && BLOCK.test(n.tagName))) {
      lines = kids.map((k) => k.innerText.replace(/\n$/, ''));
    } else {
      lines = [host.innerText];
    }
  }
  return {state: 'ok', kind, text: lines.join('\n'), scrolls};
}
