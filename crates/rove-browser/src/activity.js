// What a document is doing, counted where the page cannot reach: this runs
// in rove's isolated world of every frame, installed before the page's own
// scripts (Page.addScriptToEvaluateOnNewDocument with a world name). An
// isolated world has globals of its own, so a page that replaces
// MutationObserver, setTimeout, Promise, requestAnimationFrame or
// EventTarget.prototype.addEventListener changes nothing here.
//
// It counts mutation records from the load event on (or from the first
// question, for a document rove meets after its load): parsing a large
// document costs nothing extra, and what an app does after its load, or
// after rove's input, is what settling asks about.
(() => {
  if (globalThis.__roveActivity) return;
  const state = {
    all: 0,
    structural: 0,
    lastAll: 0,
    lastStructural: 0,
    target: null,
    observing: false,
    load: null,
    failed: null,
  };
  const note = (records) => {
    const now = performance.now();
    for (const record of records) {
      state.all += 1;
      if (record.type !== 'attributes') {
        state.structural += 1;
        state.target = record.target;
        state.lastStructural = now;
      }
    }
    state.lastAll = now;
  };
  let observer = null;
  const observe = () => {
    if (state.observing) return;
    try {
      observer = observer || new MutationObserver(note);
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      state.observing = true;
      state.failed = null;
    } catch (e) {
      state.failed = String((e && e.message) || e);
    }
  };
  const counts = () => ({ all: state.all, structural: state.structural, at: Math.floor(performance.now()) });

  // When this document last received each resource (a fetch, an XHR, a
  // script, a stylesheet), by URL: the browser's network events, which rove
  // reads, can tell a request finished before the page has its answer, and
  // the page acts on it only after. The last 500 URLs.
  const received = new Map();
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        received.delete(entry.name);
        received.set(entry.name, entry.responseEnd || entry.startTime + entry.duration);
        if (received.size > 500) received.delete(received.keys().next().value);
      }
    }).observe({ type: 'resource', buffered: true });
  } catch (e) {
    // No resource timing here: settling waits on the page's idleness only.
  }

  // Answers that depend only on the document's nodes and attributes (which
  // elements match a selector), kept while no mutation record has come
  // since: on a page of 100,000 rows each search of the whole document
  // costs tens of milliseconds, and most reads of a settled page ask the
  // same ones again. What else can change (visibility, values, text) is
  // read afresh by the callers. The count is the document's version only
  // while this observes; before that nothing is kept.
  const keptAnswers = new Map();
  let keptAt = -1;
  const kept = (key, compute) => {
    if (!state.observing) return compute();
    // Records the page's last task left for the observer count already.
    const pending = observer.takeRecords();
    if (pending.length) note(pending);
    if (keptAt !== state.all) {
      keptAnswers.clear();
      keptAt = state.all;
    }
    if (!keptAnswers.has(key)) keptAnswers.set(key, compute());
    return keptAnswers.get(key);
  };
  // The mark of the load is taken once the load event's dispatch is over:
  // what the page's own load listeners did is part of its loading (this
  // listener, added before the page's scripts ran, runs first).
  const loaded = () => {
    observe();
    setTimeout(() => { if (!state.load) state.load = counts(); }, 0);
  };
  if (document.readyState === 'complete') { observe(); state.load = counts(); }
  else addEventListener('load', loaded, { once: true });

  const task = () => new Promise((resolve) => setTimeout(resolve, 0));
  // Until the page has nothing queued (what it does with an answer it
  // received: a module run, a render its framework scheduled), or `ms`.
  const idle = (ms) => new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: ms });
    else setTimeout(resolve, 0);
  });
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // One rendering frame, or 50 ms where none comes (a hidden page).
  const frame = () => new Promise((resolve) => {
    let done = false;
    const end = () => { if (!done) { done = true; resolve(); } };
    requestAnimationFrame(end);
    setTimeout(end, 50);
  });

  // An element marked busy, a progress bar with no value (a spinner), or an
  // indicator named "Running…" or "Loading…" (Streamlit's running man), shown.
  const BUSY = '[aria-busy="true"], [role=progressbar]:not([aria-valuenow]), [role=img][aria-label^="Running" i], [role=status][aria-label^="Running" i], [role=img][aria-label^="Loading" i], [role=status][aria-label^="Loading" i]';
  // A status region that says the app is working: Gradio announces
  // "Loading" there until its server's answer is drawn, then empties it.
  const STATUS = '[role=status], [aria-live=polite], [aria-live=assertive]';
  const WORKING = /^(loading|processing|in queue|running|please wait)\b/i;
  const busy = () => {
    const found = kept('busy', () => document.querySelector(BUSY));
    if (found) {
      const box = found.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) return true;
    }
    const statuses = kept('statuses', () => Array.from(document.querySelectorAll(STATUS)));
    for (let i = 0; i < statuses.length && i < 50; i++) {
      if (WORKING.test((statuses[i].textContent || '').trim().slice(0, 40))) return true;
    }
    return false;
  };

  // Where the last structural change was: its nearest landmark, or the
  // heading before it.
  const LANDMARK = 'main, nav, aside, header, footer, form, section[aria-label], section[aria-labelledby], dialog, [role=main], [role=navigation], [role=region], [role=complementary], [role=banner], [role=contentinfo], [role=search], [role=form], [role=dialog], [role=alertdialog]';
  const short = (text) => {
    const t = String(text || '').replace(/\s+/g, ' ').trim();
    return t.length > 60 ? t.slice(0, 59) + '…' : t;
  };
  const where = () => {
    let node = state.target;
    if (!node) return null;
    const element = node.nodeType === 1 ? node : node.parentElement;
    if (!element || !element.isConnected) return null;
    const landmark = element.closest(LANDMARK);
    if (landmark) {
      const role = landmark.getAttribute('role') || landmark.localName;
      const label = landmark.getAttribute('aria-label') || landmark.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]')?.textContent;
      return short(label) ? `${role} "${short(label)}"` : role;
    }
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_ELEMENT);
    walker.currentNode = element;
    for (let steps = 0; steps < 2000 && walker.previousNode(); steps++) {
      const at = walker.currentNode;
      if (/^h[1-6]$/.test(at.localName) || at.getAttribute('role') === 'heading') {
        const text = short(at.textContent);
        if (text) return `heading "${text}"`;
      }
    }
    return null;
  };

  const counted = (structural) => (structural ? state.structural : state.all);
  const lastAt = (structural) => (structural ? state.lastStructural : state.lastAll);

  // The longest a settle waits for the document to receive what rove saw
  // arrive, and then for the page to have nothing queued.
  const AWAITED_MS = 500;
  const IDLE_MS = 300;

  // Waits until the document has answered: what the page queued for right
  // after the input or the load has run (a task, a frame: Lumino and others
  // draw in one, and a task); when anything changed since `mark`, until a
  // frame has passed with nothing new and nothing has changed for
  // `quietMs`, a window that grows to twice the longest pause seen between
  // two changes (an app that answers in parts). Up to `capMs`.
  //
  // `awaited`, when given, names resources rove saw finish after the input
  // (`urls`, asked at `since` ms): first until this document has received
  // each of them, then until it has nothing queued, so that what it does
  // with them is counted. Each wait is bounded (AWAITED_MS, IDLE_MS).
  const settle = async (mark, structural, quietMs, capMs, awaited) => {
    observe();
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const since = mark || state.load || counts();
    const base = structural ? since.structural : since.all;
    const changes = () => counted(structural) - base;
    if (awaited && awaited.urls.length) {
      const missing = () => awaited.urls.some((url) => !((received.get(url) ?? -1) >= awaited.since));
      const until = Math.min(AWAITED_MS, capMs);
      while (missing() && elapsed() < until) await sleep(4);
      await idle(Math.min(IDLE_MS, capMs));
    }
    // The frame first, then a task: what the page queued for right after
    // the input runs before either ends (its animation frame callbacks
    // were asked for before ours; its timers were posted before our task,
    // and a timer it sets in a frame callback before the task we post in
    // ours). A task first would cost more: after input Chromium puts the
    // frame it owes ahead of timers, so the task waited for it anyway.
    await frame();
    let framed = performance.now();
    await task();
    let seen = changes();
    let quiet = true;
    if (seen > 0) {
      let window = quietMs;
      let previous = lastAt(structural);
      for (;;) {
        const at = lastAt(structural);
        // Still since before the last frame, and for the window.
        if (at < framed && performance.now() - at >= window) break;
        if (elapsed() >= capMs) { quiet = false; break; }
        const still = performance.now() - at;
        if (still < window) await sleep(Math.max(1, Math.min(window - still, capMs - elapsed())));
        await frame();
        framed = performance.now();
        await task();
        const now = changes();
        if (now !== seen) {
          const last = lastAt(structural);
          window = Math.min(Math.max(window, 2 * (last - previous)), capMs);
          previous = last;
          seen = now;
        }
      }
    }
    return {
      changed: seen,
      quiet,
      busy: busy(),
      where: seen > 0 ? where() : null,
      failed: state.failed,
      mark: counts(),
      ms: performance.now() - started,
    };
  };

  // Whether the page shows it is working, now or within `windowMs`.
  const busyWithin = (windowMs) => new Promise((resolve) => {
    if (busy()) return resolve(true);
    if (!(windowMs > 0)) return resolve(false);
    const watcher = new MutationObserver(() => {
      if (busy()) { watcher.disconnect(); resolve(true); }
    });
    watcher.observe(document, { subtree: true, childList: true, attributes: true });
    setTimeout(() => { watcher.disconnect(); resolve(busy()); }, windowMs);
  });

  // The document's version: its mutation count while this observes (the
  // records not yet delivered counted first), -1 before.
  const version = () => {
    if (!state.observing) return -1;
    const pending = observer.takeRecords();
    if (pending.length) note(pending);
    return state.all;
  };

  globalThis.__roveActivity = {
    mark: () => { observe(); return { ...counts(), failed: state.failed }; },
    version,
    settle,
    busyWithin,
    kept,
  };
})();
