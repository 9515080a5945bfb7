// Called on the target element (`this`) in rove's isolated world before
// typing into it. Checks that a user could type there (attached, visible,
// enabled, not read-only, editable), focuses it, and puts the caret at the
// end (`type` appends) or selects everything (`fill` replaces). Resolves
// with {state: 'ok', value}, {state: 'picker', detail: <input type>} for an
// input a native picker sets, {state: 'stepped'} for a slider or
// spinbutton, {state: 'editor'} for a code or rich-text editor when
// replacing (for a code editor when appending too), or {state: <why not>,
// detail}.
function (mode) {
  const el = this;
  if (!el.isConnected) return {state: 'detached'};
  // A code or rich-text editor (or a contenteditable host) is replaced whole
  // through its own input (editor.rs); typing goes on at its caret.
  // An element that only wraps one editor (nothing else to read in it)
  // stands for it.
  const EDITORS = '.CodeMirror, .cm-editor, .monaco-editor';
  const inner = el.querySelectorAll ? el.querySelectorAll(EDITORS) : [];
  const wraps = inner.length === 1 && el.innerText.trim() === inner[0].innerText.trim();
  if (mode === 'replace' && (el.isContentEditable || el.closest(EDITORS) || wraps)) {
    return {state: 'editor'};
  }
  // A textarea drawn nowhere is the input of an editor rove has no rules
  // for (Ace, an in-house one), which moves what arrives into the text it
  // draws: it is filled and read as an editor too (editor.js).
  const box = el.tagName === 'TEXTAREA' ? el.getBoundingClientRect() : null;
  const unknownEditor = !!box && (box.width <= 2 || box.height <= 2 || parseFloat(getComputedStyle(el).opacity) === 0);
  if (unknownEditor) return {state: 'editor'};
  // Typing into a code editor goes to its own caret through its hidden
  // input, which it empties as it takes the keys: checked on what it shows.
  if (mode === 'append' && (el.closest(EDITORS) || wraps)) return {state: 'editor'};
  if (!el.checkVisibility({checkVisibilityCSS: true})) return {state: 'hidden'};
  if (el.disabled || el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return {state: 'disabled'};
  const tag = el.tagName;
  // Sliders and spinbuttons are moved with keys (slider.rs): a range input,
  // or an element of role slider or spinbutton that is not a text field
  // (a spinbutton input takes typed text).
  const role = el.getAttribute('role');
  const textField = tag === 'INPUT' || tag === 'TEXTAREA' || el.isContentEditable;
  if ((tag === 'INPUT' && el.type === 'range') || (!textField && (role === 'slider' || role === 'spinbutton'))) {
    return {state: 'stepped'};
  }
  // Inputs a native picker sets take their value whole (value.rs).
  const PICKED = ['date', 'time', 'datetime-local', 'month', 'week', 'color'];
  if (tag === 'INPUT' && PICKED.includes(el.type)) {
    if (el.readOnly && el.type !== 'color') return {state: 'readonly'};
    return {state: 'picker', detail: el.type};
  }
  const TEXTUAL = ['text', 'email', 'search', 'url', 'tel', 'password', 'number', ''];
  const isInput = tag === 'INPUT' && TEXTUAL.includes(el.type);
  const isArea = tag === 'TEXTAREA';
  const editable = isInput || isArea || el.isContentEditable;
  if (!editable) {
    const kind = tag === 'INPUT' ? `an input of type ${el.type}` : `a <${tag.toLowerCase()}>`;
    return {state: 'not_editable', detail: kind};
  }
  if ((isInput || isArea) && el.readOnly) {
    // A read-only combobox (Quasar's QSelect) is chosen from, not typed in.
    const choice = (el.computedRole || role) === 'combobox' && !el.disabled;
    return {state: choice ? 'choice' : 'readonly'};
  }
  el.focus({preventScroll: false});
  const doc = el.ownerDocument;
  let active = doc.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  // In a closed shadow root the document's active element is the host; the
  // root itself knows what has focus.
  const inRoot = el.getRootNode().activeElement;
  const focused = (a) => a && (a === el || el.contains(a));
  if (!focused(active) && !focused(inRoot)) return {state: 'unfocusable'};
  if (isInput || isArea) {
    const end = el.value.length;
    // Number inputs do not support selection ranges.
    try {
      if (mode === 'replace') el.setSelectionRange(0, end);
      else el.setSelectionRange(end, end);
    } catch (e) {
      if (mode === 'replace') el.select();
    }
  } else {
    const range = doc.createRange();
    range.selectNodeContents(el);
    if (mode !== 'replace') range.collapse(false);
    const selection = doc.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  return {state: 'ok', value: isInput || isArea ? el.value : el.innerText};
}
