// A click's guard, added to rove's activity object (activity.js) in the
// same world and at the same moment: from the document's start.
//
// rove sends a click's move, press and release without waiting between
// them (a move waits for a rendering frame; the press behind it does not),
// so nothing can look at the page between the move and the press: hovering
// may draw something over the target (a menu, a tooltip, a frame) that then
// takes the press. The guard looks instead, when the press arrives:
// `reaches(node, x, y)` (from the click check) answers null when the
// press's target is the click's target (or inside it, or its label), or
// describes what took it. When
// something else took the press, every event of the gesture is stopped
// here, before any listener of the page sees it, and rove is told
// (`verdict`), which then clicks again the slow way.
//
// These listeners come first only when they were added before the page's
// scripts ran, and only while they are still there (`document.open()`
// removes every listener of the window): a guard is armed only then. A
// guard judges the first press after it, stops only that gesture, is
// disarmed by rove on every way out of the click, and lapses after
// GUARD_MS, so that no later input meets it.
(() => {
  const activity = globalThis.__roveActivity;
  if (!activity || activity.guard) return;
  const early = document.readyState === 'loading' && document.scripts.length === 0;
  const GUARD_MS = 10000;
  const PRESSES = new Set(['pointerdown', 'mousedown']);
  let guard = null;
  const judge = (event) => {
    const g = guard;
    if (!g || g.over || !event.isTrusted) return;
    if (performance.now() > g.until) {
      if (g.verdict === 'unseen') g.verdict = 'expired';
      g.over = true;
      return;
    }
    if (g.verdict === 'unseen') {
      if (!PRESSES.has(event.type)) return;
      // The press's own target (the innermost, through open shadow
      // trees): where Chromium sent it, not where a hit test would now.
      const taken = g.judged(event.composedPath()[0] || event.target, event.clientX, event.clientY);
      g.verdict = taken === null ? 'reached' : 'blocked';
      g.taken = taken;
      if (g.verdict === 'reached') {
        g.over = true;
        return;
      }
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    // The gesture ends with its last release; what that release sets off
    // (click, dblclick) runs in the same task.
    if (event.type === 'pointerup' && ++g.released >= g.presses) {
      setTimeout(() => { g.over = true; }, 0);
    }
  };
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu']) {
    addEventListener(type, judge, { capture: true });
  }
  // Whether the listeners are still on the window: an event only they
  // hear, of a name the page cannot know.
  const CHECK = 'rove-guard-' + Math.random().toString(36).slice(2);
  let heard = false;
  addEventListener(CHECK, () => { heard = true; });
  const listening = () => {
    heard = false;
    dispatchEvent(new Event(CHECK));
    return heard;
  };
  // Arms a guard for a click of `presses` presses at (x, y), in this
  // frame's viewport; false when it cannot guard (see above). `into` says
  // where a press at a point goes when it does not come to this document
  // (actionable.js: 'frame', 'target' or '').
  activity.guard = (reaches, into, x, y, presses) => {
    if (!early || !listening()) return false;
    const judged = (node, px, py) => {
      try { return reaches(node, px, py); } catch (e) { return 'rove could not judge the press: ' + String(e); }
    };
    const went = (px, py) => {
      try { return into(px, py); } catch (e) { return ''; }
    };
    guard = { judged, went, x, y, presses: Math.max(1, presses), released: 0, verdict: 'unseen', taken: null, over: false, until: performance.now() + GUARD_MS };
    return true;
  };
  // What the armed guard saw, once (asking disarms it): 'reached',
  // 'blocked' (with what took the press), 'expired' (the press came after
  // the guard lapsed, unjudged), 'unseen' (no press came to this document:
  // it went to another, a frame over the target), or null (none armed).
  // A press that went into a frame inside the target is 'reached'; with
  // `host`, the document sees only the target at the point, which may hold
  // a frame in a closed shadow tree (rove looks, over the protocol).
  activity.verdict = () => {
    const g = guard;
    guard = null;
    if (!g) return null;
    if (g.verdict === 'unseen') {
      const went = g.went(g.x, g.y);
      if (went === 'frame') return { verdict: 'reached', taken: null };
      return { verdict: 'unseen', taken: g.judged(null, g.x, g.y), host: went === 'target' };
    }
    return { verdict: g.verdict, taken: g.taken };
  };
})();
