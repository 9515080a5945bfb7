// Called on the target element (`this`) in rove's isolated world, after rove
// scrolled it into view. Checks what a user's click needs: attached, visible,
// enabled, not moving, and receiving the pointer at the click point. The
// click point is the centre of the element's first content box (the first
// line of a wrapped link), in the frame's viewport; for a control of no
// size, that of its label. Resolves with {state: 'ok', x, y, label} or
// {state: <why not>, detail}. With `still` true the
// element is known not to be moving (checked a moment ago), and the frame
// wait is skipped. With `presses` above 0 and the element actionable, the
// click guard (rove-browser's click_guard.js) is armed for a click of that
// many presses at the click point, with this check's hit test, and
// `guarded` says whether it could be.
function (still, presses) {
  const el = this;
  const describe = (e) => {
    if (!e || !e.tagName) return 'nothing';
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    const classes = Array.from(e.classList || []).slice(0, 2);
    if (classes.length) s += '.' + classes.join('.');
    const text = (e.innerText || e.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return text ? `<${s}> "${text}"` : `<${s}>`;
  };
  if (!el.isConnected) return {state: 'detached'};
  if (!el.checkVisibility({checkVisibilityCSS: true})) {
    // A canvas's fallback content (a canvas data grid's cells) has no box:
    // what shows is the canvas's pixels. Said at once, not waited on as
    // hidden; whether keys can reach it is whether it takes the focus.
    const canvas = el.parentElement && el.parentElement.closest('canvas');
    if (canvas) {
      // Content of a canvas not shown is hidden; a disabled cell is disabled.
      if (!canvas.checkVisibility({checkVisibilityCSS: true})) return {state: 'hidden'};
      if (el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return {state: 'disabled', detail: ''};
      return {state: 'fallback', detail: el.tabIndex >= 0 || el.hasAttribute('tabindex') ? 'focusable' : ''};
    }
    return {state: 'hidden'};
  }
  const disabledBy = el.closest('[aria-disabled="true"]');
  if (el.disabled || el.matches(':disabled') || disabledBy) {
    return {state: 'disabled', detail: disabledBy && disabledBy !== el ? describe(disabledBy) : ''};
  }
  const root = el.getRootNode();
  const boxOf = (e) => Array.from(e.getClientRects()).find((r) => r.width > 0 && r.height > 0);
  // A control drawn by its label (a checkbox of no size inside it, the
  // label's marks standing for it) is clicked on its label, as a user
  // clicks it: the label passes the click on.
  const label = boxOf(el) ? null : Array.from(el.labels || []).find((l) => boxOf(l) && l.checkVisibility({checkVisibilityCSS: true}));
  const firstBox = () => boxOf(label || el);
  const before = firstBox();
  if (!before) return {state: 'hidden', detail: 'it has no size'};
  if (still) return check(before);
  // Still if its box is the same a frame later. A frame in the background may
  // get no animation frames at all, so a short timer stands in for one.
  const nextFrame = () => new Promise((resolve) => { requestAnimationFrame(resolve); setTimeout(resolve, 50); });
  return nextFrame().then(() => {
    const box = firstBox();
    if (!box) return {state: 'hidden', detail: 'it has no size'};
    if (Math.abs(before.top - box.top) > 1 || Math.abs(before.left - box.left) > 1) return {state: 'moving'};
    return check(box);
  });
  function check(b) {
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    const hit = hitAt(x, y);
    if (hit && reaches(hit)) {
      const activity = globalThis.__roveActivity;
      // Whether a press whose target is `node` reaches the element: null,
      // or what took it. In a closed shadow tree the document sees only the
      // host, so the point is hit-tested from the element's own tree (as
      // without a node).
      const closed = root instanceof ShadowRoot && root.mode === 'closed';
      const reachesFrom = (node, px, py) => {
        const taken = closed || !node ? hitAt(px, py) : node;
        return taken && reaches(taken) ? null : describe(taken);
      };
      // What a press at a point went into, when none came to this
      // document: 'frame' (a frame inside the target), 'target' (the
      // target itself, whose closed shadow tree the document cannot see
      // into), or '' (something else).
      const intoAt = (px, py) => {
        const taken = hitAt(px, py);
        if (!taken || !reaches(taken)) return '';
        if (taken.matches('iframe, frame, embed, object')) return 'frame';
        return taken === el ? 'target' : '';
      };
      const guarded = !!(presses > 0 && activity && activity.guard(reachesFrom, intoAt, x, y, presses));
      return {state: 'ok', x, y, box: [b.left, b.top, b.width, b.height], label: !!label, guarded};
    }
    return {state: 'covered', detail: describe(hit)};
  }
  // What receives the pointer at (x, y), hit-tested from the target's own
  // tree: in a closed shadow root (which rove found itself) the document
  // only sees its host. An element of another tree on top is still
  // returned as is, and covers the target.
  function hitAt(x, y) {
    let hit = (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(x, y);
    // Into open shadow roots, to the innermost element at the point.
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  // The target, something inside it, or its own label (the one around it
  // or the one for it, text and marks included) receives the pointer: the
  // click reaches the target. A link or another control inside that label
  // keeps the click for itself, so it covers.
  function reaches(hit) {
    for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return true;
    return ownLabelPasses(hit);
  }
  function ownLabelPasses(hit) {
    const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [contenteditable=""], [contenteditable="true"]';
    for (let n = hit; n && n.nodeType === 1; n = n.parentElement) {
      if (n.tagName === 'LABEL') return n.control === el;
      if (n.matches(INTERACTIVE)) return false;
    }
    return false;
  }
}
