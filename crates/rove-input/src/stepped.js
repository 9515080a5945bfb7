// Called on a slider or spinbutton (`this`) in rove's isolated world: a
// range input, or an element of role slider or spinbutton (its value in
// aria-valuenow). A slider's thumb or group that holds one such control
// stands for it. With mode 'focus', gives the control the keyboard focus as
// tabbing to it would (a click would move a slider); with 'read', only reads;
// with 'read_after_frame', reads once the page has drawn a frame (a page
// that renders the value a frame after the key); with 'geometry', reads and
// says where a pointer would drag it.
// Resolves with {state: 'ok', native, min, max, step, now, text} (numbers,
// or null where the control does not say) or {state: <why not>}.
function (mode) {
  const el = this;
  if (mode === 'read_after_frame') {
    const frame = new Promise((resolve) => { requestAnimationFrame(() => resolve()); setTimeout(resolve, 50); });
    return frame.then(() => read('read'));
  }
  return read(mode);
  function read(mode) {
    if (!el.isConnected) return {state: 'detached'};
    const SELECTOR = 'input[type=range], [role=slider], [role=spinbutton]';
    const c = el.matches(SELECTOR) ? el : el.querySelectorAll(SELECTOR).length === 1 ? el.querySelector(SELECTOR) : el;
    const native = c.tagName === 'INPUT' && c.type === 'range';
    const num = (s) => (s === null || s === undefined || String(s).trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));
    let answer;
    if (native) {
      answer = {
        native, min: num(c.min) ?? 0, max: num(c.max) ?? 100,
        step: c.step === 'any' ? null : num(c.step) ?? 1,
        now: num(c.value), text: c.value,
      };
    } else {
      const text = c.getAttribute('aria-valuenow');
      answer = {
        native, min: num(c.getAttribute('aria-valuemin')), max: num(c.getAttribute('aria-valuemax')),
        step: null, now: num(text), text: text ?? '',
      };
    }
    if (answer.now === null) return {state: 'no_value'};
    if (mode === 'geometry') answer.geometry = geometry(c);
    if (mode === 'focus') {
      const holds = (target) => {
        let active = c.ownerDocument.activeElement;
        while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
        return active === target || c.getRootNode().activeElement === target;
      };
      c.focus({preventScroll: false});
      if (!holds(c)) {
        // A composite control (older Quasar sliders) takes the keys through
        // its focusable part: the one descendant a Tab would reach.
        const part = c.querySelector('[tabindex]:not([tabindex^="-"]), input, button');
        if (part) part.focus({preventScroll: false});
        if (!part || !holds(part)) return {state: 'unfocusable'};
      }
    }
    return {state: 'ok', ...answer};
  }
  // Where a pointer drags the control (viewport CSS pixels): the thumb's
  // box, and the track it moves along: the control itself when it is long
  // (a track holding its thumb), else its nearest ancestor at least three
  // times as long along the control's orientation.
  function geometry(c) {
    const vertical = c.getAttribute('aria-orientation') === 'vertical';
    const long = (r) => (vertical ? r.height : r.width);
    const thumb = c.getBoundingClientRect();
    let track = thumb;
    for (let a = c.parentElement; a && long(thumb) > 0 && long(track) < 3 * long(thumb); a = a.parentElement) {
      track = a.getBoundingClientRect();
    }
    const box = (r) => [r.left, r.top, r.width, r.height];
    return {vertical, thumb: box(thumb), track: box(track)};
  }
}
