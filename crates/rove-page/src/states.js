// What one element's line says besides its role and name, part of the
// walker: rove-page's walker.rs puts this file inside walker.js's closure
// (at its ROVE_STATES line). Its flags (checked, expanded, focused …), its
// value, and what an editor or a player shows.
  // One bit per state; record.rs's `Flags` has the same numbers and shows
  // them in this order.
  const FLAG = {
    disabled: 1, mixed: 2, checked: 4, pressed: 8, haspopup: 16, expanded: 32,
    collapsed: 64, selected: 128, current: 256, required: 512, readonly: 1024,
    invalid: 2048, focused: 4096, live: 8192, clickable: 16384, modal: 32768,
  };

  const FORM_CONTROLS = new Set(['INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'OPTION']);

  // Sets the record's flags (`f`) and, for a popup that is not a menu, its
  // kind (`p`).
  const setFlags = (rec, e, role, active, clickable) => {
    let f = clickable ? FLAG.clickable : 0;
    const aria = (n) => e.getAttribute(n);
    // A form control inside a disabled fieldset is disabled without its own
    // attribute; `:disabled` knows.
    if (e.disabled || aria('aria-disabled') === 'true' || (FORM_CONTROLS.has(e.tagName) && e.matches(':disabled'))) {
      f |= FLAG.disabled;
    }
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
      const checked = aria('aria-checked');
      if (checked === 'mixed' || e.indeterminate) f |= FLAG.mixed;
      else if (e.checked === true || checked === 'true') f |= FLAG.checked;
    }
    if (aria('aria-pressed') === 'true') f |= FLAG.pressed;
    if (aria('aria-pressed') === 'mixed') f |= FLAG.mixed;
    // A control that opens a popup says so (a submenu, a menu button); a
    // combobox always does, so it says nothing.
    const popup = aria('aria-haspopup');
    if (popup && popup !== 'false' && role !== 'combobox') {
      f |= FLAG.haspopup;
      if (popup !== 'true' && popup !== 'menu') rec.p = popup;
    }
    const expanded = aria('aria-expanded');
    if (expanded === 'true') f |= FLAG.expanded;
    else if (expanded === 'false') f |= FLAG.collapsed;
    if (e.tagName === 'SUMMARY' && e.parentElement && e.parentElement.tagName === 'DETAILS') f |= e.parentElement.open ? FLAG.expanded : FLAG.collapsed;
    if (aria('aria-selected') === 'true' || (role === 'option' && e.selected)) f |= FLAG.selected;
    if (aria('aria-current') && aria('aria-current') !== 'false') f |= FLAG.current;
    if (e.required || aria('aria-required') === 'true') f |= FLAG.required;
    if ((e.readOnly && e.tagName !== 'DIV') || aria('aria-readonly') === 'true') f |= FLAG.readonly;
    if (aria('aria-invalid') && aria('aria-invalid') !== 'false') f |= FLAG.invalid;
    if (e === active) f |= FLAG.focused;
    if ((role === 'dialog' || role === 'alertdialog') && (aria('aria-modal') === 'true' || e.matches(':modal'))) f |= FLAG.modal;
    const live = aria('aria-live');
    if (live && live !== 'off' && !['live', 'status', 'alert', 'log', 'marquee', 'timer'].includes(role)) f |= FLAG.live;
    if (f) rec.f = f;
  };

  const TEXT_INPUTS = new Set(['text', 'email', 'search', 'url', 'tel', 'number', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'range', '']);
  const valueOf = (e, role) => {
    const tag = e.tagName;
    if (tag === 'INPUT') {
      if (e.type === 'password') return e.value ? '[hidden]' : '';
      if (TEXT_INPUTS.has(e.type)) return e.value;
      if (e.type === 'file') return Array.from(e.files || []).map((f) => f.name).join(', ');
      return null;
    }
    if (tag === 'TEXTAREA') return e.value;
    if (mediaRole(e)) return mediaState(e);
    if (tag === 'SELECT') return Array.from(e.selectedOptions).map((o) => o.label || o.textContent.trim()).join(', ');
    if (e.isContentEditable && (role === 'textbox' || role === 'searchbox' || role === 'generic')) return clip(e.innerText, 500);
    const now = e.getAttribute('aria-valuetext') || e.getAttribute('aria-valuenow');
    if (now) return now;
    if (tag === 'PROGRESS' || tag === 'METER') return String(e.value);
    // A combobox that is not a text field (a select-only one) shows its
    // choice as its text; it is the value, not part of the name. One that
    // wraps its field or its popup (ARIA 1.1) has no text of its own.
    if (role === 'combobox' && !e.querySelector('input, textarea, [role=listbox], [role=tree], [role=grid], [role=dialog]')) {
      const shown = clip(e.innerText, 200);
      if (shown && shown !== nameOf(e)) return shown;
    }
    return null;
  };

  // An editing host (a textbox made of the page's own elements) whose text
  // runs over several lines; or such a textbox made read-only (a code
  // viewer: CodeMirror 6 with contenteditable=false says aria-multiline).
  const multiline = (e, role) => (role === 'textbox' || role === 'searchbox') &&
    (e.isContentEditable ? e.hasAttribute('contenteditable')
      : e.getAttribute('aria-multiline') === 'true' && e.tagName !== 'INPUT' && e.tagName !== 'TEXTAREA') &&
    (e.innerText || '').trim().includes('\n');

  // The lines a Monaco editor draws (in order of their place, which is not
  // always their order in the document), for the field of the editor that
  // takes the keys; null for any other field.
  const monacoLines = (e) => {
    const editor = e.closest('.monaco-editor');
    if (!editor) return null;
    const lines = Array.from(editor.querySelectorAll('.view-lines .view-line'))
      // As written: indentation kept (Monaco writes its spaces as
      // no-break spaces), trailing space and blank lines left out.
      .map((l) => ({top: parseFloat(l.style.top) || 0, t: (l.textContent || '').replace(/\u00a0/g, ' ').replace(/\s+$/, '').slice(0, 500)}))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.t)
      .filter((t) => t.trim());
    return lines.length ? lines : null;
  };

  // A player's state, compact: `paused 0:03/1:20`; while it plays only its
  // length (`playing (1:20)`), so a diff does not change with every second.
  const mediaState = (e) => {
    const time = (secs) => {
      if (!Number.isFinite(secs)) return secs === Infinity ? 'live' : '?';
      const s = Math.floor(secs);
      const h = Math.floor(s / 3600);
      const m = Math.floor((s % 3600) / 60);
      const two = (n) => String(n).padStart(2, '0');
      return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
    };
    const length = time(e.duration);
    let state;
    if (e.ended) state = `ended (${length})`;
    else if (e.paused) state = `paused ${time(e.currentTime)}/${length}`;
    else state = `playing (${length})`;
    return e.muted ? state + ', muted' : state;
  };

