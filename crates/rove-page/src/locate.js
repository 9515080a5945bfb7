// rove's locators, part of the walker: rove-page's walker.rs puts this file
// inside walker.js's closure (at its ROVE_LOCATE line), so a locator sees
// roles, names and visibility as views do. `locate` answers the elements a
// locator matches in this document: up to LOCATE_KEEP of those the view
// shows (uid, role, name), how many it shows, and for the first one it does
// not show, why. The locator comes as data (a JSON literal of rove's), never
// as code: a selector only ever reaches querySelectorAll.
  const LOCATE_KEEP = 6;
  // Matches counted before counting stops: a selector that matches a whole
  // page costs a bounded amount of work, and "more than this" is enough to
  // say it names no one element.
  const LOCATE_MAX = 1000;

  // The element's parent in the flat tree: its slot, its parent, or the host
  // of the shadow root it sits in.
  const flatParent = (e) => {
    if (e.assignedSlot) return e.assignedSlot;
    if (e.parentElement) return e.parentElement;
    const root = e.parentNode;
    return root && root.nodeType === 11 && root.host ? root.host : null;
  };

  // Why the view does not show `e`, or '' when it does (the walker's rules:
  // hidden, aria-hidden, inert, outside an open modal dialog).
  const notShownWhy = (e, inert) => {
    if (inert && inert(e)) return 'it is outside the open modal dialog, which makes the rest of the page inert';
    for (let a = e; a; a = flatParent(a)) {
      if (SKIP_TAGS.has(a.tagName)) return `it is inside <${a.tagName.toLowerCase()}>, which is never shown`;
      if (a.getAttribute('aria-hidden') === 'true') return 'it is inside aria-hidden content';
      if (a.hasAttribute('inert')) return 'it is inside an inert section';
    }
    const style = getComputedStyle(e);
    if (style.display !== 'contents' && !e.checkVisibility({checkVisibilityCSS: true}) && !canvasFallback(e, style)) {
      return 'it is hidden (display, visibility or a collapsed section)';
    }
    return '';
  };

  // On a big document (find.js's BIG_INDEX elements), a locator with words
  // looks only where find's index says they can be (find.js's `scopeOf`:
  // the paths to the candidates and the subtrees named by attributes), and
  // takes the shadow roots from that index: on 100,000 rows a walk of
  // every element held the page for seconds. On a smaller one every
  // element is looked at, so that a name only Chromium computes (from CSS
  // generated content) is found too.
  const hugeIndex = () => {
    const index = pageIndex();
    return index.elements > BIG_INDEX ? index : null;
  };
  // Where a search for `words` must look, or null: everywhere.
  const scopeFor = (words) => {
    const needle = matchable(words || '');
    return needle.replace(/ /g, '') && hugeIndex() ? scopeOnce(needle) : null;
  };

  // Every shadow host of the document (open and known closed roots): on a
  // big document as its index has them.
  const shadowHosts = () => {
    const index = hugeIndex();
    return index ? index.hosts : walkedHosts();
  };
  // Natively walked, root by root (a walk in script of 100,000 rows took
  // seconds): the hosts `walkHosts` found a moment ago if the document has
  // not changed since, else walked now, at once.
  const walkedHosts = () => {
    if (walkFresh()) return hostsWalked.hosts;
    const w = newHostWalk();
    walkHosts(w, Infinity);
    return w.hosts;
  };
  const newHostWalk = () => ({roots: [document], r: 0, walker: null, hosts: [], read: 0});
  // Walks more of `w` for about `ms` milliseconds; whether it is done.
  const walkHosts = (w, ms) => {
    const until = performance.now() + ms;
    for (; w.r < w.roots.length; w.r++) {
      if (!w.walker) w.walker = document.createTreeWalker(w.roots[w.r], NodeFilter.SHOW_ELEMENT);
      for (let e = w.walker.nextNode(); e; e = w.walker.nextNode()) {
        const shadow = e.shadowRoot || closedRoots.get(e);
        if (shadow) {
          w.hosts.push(e);
          w.roots.push(shadow);
        }
        if ((++w.read & 1023) === 0 && performance.now() > until) return false;
      }
      w.walker = null;
    }
    return true;
  };
  // On a huge document a locator that matched nothing in the shadow roots
  // the index knows asks for every root before saying so (`locate`
  // answers `walk`): rove walks them in slices (`prepareHosts`, called
  // until it answers -1; on 100,000 rows one walk held the page 270 ms),
  // then asks again.
  let hostWalk = null;
  let hostsWalked = null;
  function prepareHosts(ms) {
    if (!hostWalk) hostWalk = {w: newHostWalk(), at: documentVersion()};
    if (!walkHosts(hostWalk.w, ms)) return hostWalk.w.read;
    hostsWalked = {hosts: hostWalk.w.hosts, at: hostWalk.at, made: performance.now()};
    hostWalk = null;
    return -1;
  }
  // Whether the hosts walked in slices are still the document's.
  const walkFresh = () => !!hostsWalked && hostsWalked.at !== -1 && hostsWalked.at === documentVersion() &&
    performance.now() - hostsWalked.made < SCOPE_KEPT_MS;
  // The answer that every root must be walked first, when rove can walk
  // them in slices (`mayWalk`: its first search; a page without the
  // activity script keeps nothing between calls) and has not.
  const needsWalk = (mayWalk) => (mayWalk && documentVersion() !== -1 && !walkFresh() ? {list: [], capped: false, walk: true} : null);

  // css=: the document, then each open shadow root (a closed one is not
  // reachable by a selector, as in the page's own scripts).
  const cssMatches = (selector, mayWalk, walked = false) => {
    const found = [];
    const roots = [document];
    const seenRoots = new Set();
    for (const host of walked ? walkedHosts() : shadowHosts()) {
      if (host.shadowRoot && !seenRoots.has(host.shadowRoot)) {
        seenRoots.add(host.shadowRoot);
        roots.push(host.shadowRoot);
      }
    }
    for (const root of roots) {
      let list;
      try {
        list = root.querySelectorAll(selector);
      } catch (err) {
        return {error: String(err && err.message ? err.message : err)};
      }
      for (const e of list) {
        // A root the index kept may have left the document since.
        if (!e.isConnected) continue;
        found.push(e);
        if (found.length >= LOCATE_MAX) return {list: found, capped: true};
      }
    }
    // The index's hosts may be behind (a shadow root attached inside
    // another changes nothing the document's observer sees): before saying
    // there is none, every element is looked at.
    if (!found.length && !walked && hugeIndex()) return needsWalk(mayWalk) || cssMatches(selector, false, true);
    return {list: found, capped: false};
  };

  // The role views show for `e` (as find computes it).
  const shownRole = (e) => {
    if (e.tagName === 'IFRAME' || e.tagName === 'FRAME') return 'frame';
    const role = roleOf(e);
    const bare = role === 'generic' || role === 'none' || role === 'presentation' || role === '';
    if (!bare && !GRAPHICS.has(role)) return role;
    const parentCursor = e.parentElement ? getComputedStyle(e.parentElement).cursor : 'auto';
    return viewRole(e, role, !INTERACTIVE.has(role) && isClickable(e, getComputedStyle(e), parentCursor, role));
  };
  const squash = (s) => (s || '').replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(SPACES, ' ').trim();
  // An element's name as a line shows it: Chromium's, or the short rules'
  // for an element Chromium leaves unnamed (inert ones are).
  const shownName = (e, role) => {
    if (role === 'clickable') return squash(e.getAttribute('aria-label') || e.getAttribute('title') || e.innerText);
    return squash(nameOf(e) || boxNames.get(e) || labelName(e));
  };

  // role=: elements whose shown role is the one asked for, and whose name
  // matches when one was given.
  function* roleMatches(q, mayWalk) {
    const found = [];
    let capped = false;
    const want = q.name === undefined ? null : squash(q.name);
    const lower = want === null ? null : want.toLowerCase();
    const each = (e) => {
      if (SKIP_TAGS.has(e.tagName)) return true;
      const role = shownRole(e);
      if (role !== q.role) return true;
      if (want !== null) {
        const name = shownName(e, role);
        if (q.contains ? !name.toLowerCase().includes(lower) : name !== want) return true;
      }
      found.push(e);
      if (found.length >= LOCATE_MAX) {
        capped = true;
        return false;
      }
      return true;
    };
    // A role alone on a huge document (roles by rove's rules): only the
    // elements that can have it, natively selected; on 100,000 rows a
    // look at every element held the page over a second.
    const selector = want === null && !native && hugeIndex() ? approximateCandidates(q.role) : null;
    if (selector === null) yield* everyElement(each, want === null ? null : scopeFor(q.name));
    else {
      const looked = new Set();
      for (const walked of [false, true]) {
        if (walked) {
          // The index's hosts may be behind (see cssMatches): before
          // saying there is none, the roots a native walk finds are looked
          // in too.
          if (found.length) break;
          const ask = needsWalk(mayWalk);
          if (ask) return ask;
        }
        for (const root of [document, ...(walked ? walkedHosts() : shadowHosts()).map(rootOf)]) {
          if (!root || looked.has(root)) continue;
          looked.add(root);
          let looks = 0;
          for (const e of root.querySelectorAll(selector)) {
            if (++looks % FIND_STEP === 0) yield;
            // A root the index kept may have left the document since.
            if (e.isConnected && each(e) === false) return {list: found, capped};
          }
        }
      }
    }
    return {list: found, capped};
  }
  const rootOf = (host) => host.shadowRoot || closedRoots.get(host);

  // Controls named by the text inside them. Not every control: a container
  // with a click listener (a body with onclick) or an editing host would
  // take every text of the page as its own.
  const TEXT_OWNERS = 'a[href],button,summary,option,[role=button],[role=link],[role=tab],[role=menuitem],' +
    '[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]';

  // text=: the innermost elements whose text holds the words (any case), or
  // is exactly the text when quoted. Each element's text is gathered once,
  // bottom up over the flat tree, without recursion (a page nested ten
  // thousand deep must not overflow the stack).
  function* textMatches(q) {
    const want = squash(q.text);
    const lower = want.toLowerCase();
    // Each text is first looked at natively, its words' letters as a
    // pattern (no string made: squashing every element's text of 100,000
    // rows left the page collecting garbage), and a long one (a whole
    // table's, gathered up) is never squashed whole.
    const letters = lettersOf(want.replace(/ /g, '').toLowerCase()).source;
    const maybe = new RegExp(q.exact ? `^${GAP}*${letters}${GAP}*$` : letters, 'iu');
    const hit = (t) => {
      if (!maybe.test(t)) return false;
      if (q.exact) return squash(t) === want;
      return t.length > LONG_TEXT ? holding(t, lower) !== null : squash(t).toLowerCase().includes(lower);
    };
    const found = [];
    let capped = false;
    const scope = scopeFor(q.text);
    // Frames: the node, its text so far, a match inside, its children
    // (a level, as `find` reads them).
    const stack = [{node: document.documentElement, text: '', inner: false, level: null, whole: !scope}];
    let visits = 0;
    while (stack.length) {
      if (++visits % FIND_STEP === 0) yield;
      const top = stack[stack.length - 1];
      if (top.level === null) top.level = kidsLevel(scope, top.node, top.whole);
      const k = nextOf(top.level);
      if (k) {
        if (k.nodeType === 3) top.text += k.data;
        else if ((k.nodeType === 1 && !SKIP_TAGS.has(k.tagName)) || k.nodeType === 11) {
          const whole = top.whole || k.nodeType === 11 || scope.open.has(k);
          if (whole || scope.hot.has(k)) stack.push({node: k, text: '', inner: false, level: null, whole});
        }
        continue;
      }
      stack.pop();
      let matched = top.inner;
      // An element searched in part gathered only its hot children's text:
      // a hit there holds only if its whole text agrees.
      if (!matched && top.node.nodeType === 1 && !capped && hit(top.text) &&
        (top.whole || hit(top.node.textContent || ''))) {
        found.push(top.node);
        matched = true;
        if (found.length >= LOCATE_MAX) capped = true;
      }
      // Past the cap, "more than this" is the answer: the walk ends.
      if (capped) break;
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.text += top.text;
        parent.inner = parent.inner || matched;
      }
    }
    // Text inside a control acts on the control: a label's on the field it
    // labels, a span's on the button or link around it.
    const retargeted = [];
    const seen = new Set();
    for (const e of found) {
      let target = e;
      const label = e.closest('label');
      if (label && label.control) target = label.control;
      else {
        const control = e.closest(TEXT_OWNERS);
        if (control) target = control;
      }
      if (!seen.has(target)) {
        seen.add(target);
        retargeted.push(target);
      }
    }
    return {list: retargeted, capped};
  }

  // `<button#save>`: how an element is named when it has no ref to show.
  const tagOf = (e) => {
    let s = '<' + e.tagName.toLowerCase();
    if (e.id) s += '#' + clip(e.id, 40);
    return s + '>';
  };

  // A locator's search runs in slices, like `find`'s: rove calls `locate`
  // with the same run until it no longer answers `more`. `walk`: rove can
  // walk the document's shadow roots in slices (`prepareHosts`) if the
  // answer says it must (`walk`), then asks again without: that search
  // alone takes the walk's hosts (no observer sees a shadow root attached,
  // so a walk is never kept for a later command).
  function locate(q, opts = {}) {
    const key = opts.run === undefined ? null : JSON.stringify([q, opts.run, !!opts.walk]);
    let answer = null;
    try {
      answer = inSlices('locate', key, () => {
        if (opts.walk) hostsWalked = null;
        return located(q, !!opts.walk);
      }, opts.ms);
      return answer;
    } finally {
      if (!opts.walk && !(answer && answer.more)) hostsWalked = null;
    }
  }
  function* located(q, mayWalk) {
    let found;
    if (q.css !== undefined) {
      found = cssMatches(q.css, mayWalk);
      if (found.error !== undefined) return {token, error: found.error};
    } else if (q.role !== undefined) {
      found = yield* roleMatches(q, mayWalk);
    } else {
      found = yield* textMatches(q);
    }
    if (found.walk) return {token, walk: true};
    const inert = inertOutsideModal();
    const records = [];
    let shown = 0;
    let hidden = null;
    for (const e of found.list) {
      const why = notShownWhy(e, inert);
      if (why) {
        if (!hidden) {
          const role = shownRole(e);
          hidden = {tag: tagOf(e), r: TRANSPARENT.has(role) ? '' : role, n: clip(shownName(e, role), 80), why};
        }
        continue;
      }
      shown++;
      if (records.length < LOCATE_KEEP) {
        const role = shownRole(e);
        // A role views never show (a plain div or span) is named by its tag.
        // An unnamed one is told by its text, as find tells a list item.
        records.push({u: uidOf(e), r: TRANSPARENT.has(role) ? tagOf(e) : role, n: clip(shownName(e, role) || e.innerText, 80)});
      }
    }
    const answer = {token, records, shown, capped: found.capped, hidden};
    if (q.css !== undefined && !found.list.length) answer.closedRoots = hasClosedRoots();
    return answer;
  }

  // `at`: the element under a point of the viewport, as a view names it:
  // the innermost element hit (into open shadow roots and the closed ones
  // rove knows), then the nearest one up the flat tree with a role views
  // show. A frame is named as a frame; what is inside it is not looked at.
  function at(p) {
    let hit = document.elementFromPoint(p.x, p.y);
    for (let root = hit && (hit.shadowRoot || closedRoots.get(hit)); root;
      root = hit.shadowRoot || closedRoots.get(hit)) {
      const inner = root.elementFromPoint(p.x, p.y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let e = hit; e; e = flatParent(e)) {
      if (SKIP_TAGS.has(e.tagName)) break;
      const role = shownRole(e);
      // Its name as a view line gives it (none for an unnamed landmark: its
      // text is not its name).
      if (!TRANSPARENT.has(role)) return {token, records: [{u: uidOf(e), r: role, n: clip(shownName(e, role), 80)}]};
    }
    return {token, records: []};
  }

  // Whether rove knows of a closed shadow root in this document (css cannot
  // reach into one; a no-match says so).
  const hasClosedRoots = () => shadowHosts().some((e) => closedRoots.has(e));
