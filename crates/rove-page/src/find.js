// rove's find, part of the walker: rove-page's walker.rs puts this file
// inside walker.js's closure (at its ROVE_FIND line) when the walker is
// installed, so it shares the walker's role, name and visibility rules.
// It searches every element (not only those a view shows) for a name, value
// or text holding the words, optionally of one role, and answers records
// like a walk's, each with a line of context.
  // Text as the view shows it, for matching: without invisibles, any case,
  // and every run of spaces of any kind (a no-break space, a thin one) one
  // plain space, on both sides: `Save draft` finds `Save&nbsp;draft`.
  const matchable = (s) => (s || '').replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(SPACES, ' ').toLowerCase();

  // What `matchable` turns into spaces or leaves out, and spaces: gone, in
  // one pass over each text.
  const UNSPACED = new RegExp(`[\\s${INVISIBLE.source.slice(1, -1)}${CONTROLS.source.slice(1, -1)}]+`, 'gu');

  // The text an element shows, and the first `n` or so characters of it.
  // `innerText` lays out all of it, natively (rove cannot stop it): for a
  // text longer than any line a walk keeps (walker.js's TEXT_MAX), its text
  // content stands in.
  const shownText = (e, n) => {
    const all = wholeText(e);
    return all.length > TEXT_MAX ? all.slice(0, 4 * n) : all;
  };
  const wholeText = (e) => {
    const all = e.textContent || '';
    return all.length > TEXT_MAX ? all : e.innerText;
  };

  // Attributes a name or a value can come from, and headings, each list a
  // selector pass of its own: each pass matches every element of the
  // document against each selector (on 100,000 rows the naming list in one
  // pass held the page 100 ms, the headings' 50).
  const NAMING = ['[aria-label],[aria-labelledby],[title],[alt],[placeholder]',
    '[value],[aria-valuetext],[aria-valuenow]', 'input,textarea,select', 'progress,meter,video,audio'];
  const HEADINGS = ['h1,h2,h3', 'h4,h5,h6,[role=heading]'];

  // The page's text and naming attributes, built once and kept until the
  // document changes (`kept`): a search of a huge page then runs one
  // regular expression over each root's text instead of visiting every
  // text node. A root's text is its `textContent`, read in one native call;
  // the walk over its text nodes notes only where each starts (its
  // length): reading 300,000 nodes' data one by one costs half a second,
  // most of it in making each a string of the script's.
  // Changes inside a shadow tree reach no observer of the document, so the
  // index may be behind there; it need not be right: every shadow host is
  // searched whole.
  //
  // The index is built in slices (`prepareFind`, called by rove until it
  // says done) so that the page's own tasks run between them: first the
  // walk (text nodes, and elements for shadow roots), then one step a
  // slice (a root's text, its naming attributes, its headings). The build
  // in progress is kept like the index: a mutation between slices (any
  // text's included) starts it again, so each text still matches its walk.
  const indexBuild = () => kept('find index', () => ({
    roots: [document], r: 0, read: 0, walker: null, hosts: [], step: 0, texts: [], naming: [], named: new Set(),
    headings: [], index: null, textNodes: 0, offset: 0, marks: [],
  }));
  // Every this many text nodes of the document, the walk marks one and
  // where its text starts in the document's `textContent`: a match's text
  // nodes are then found from the mark before it, a few hundred nodes'
  // walk, where a native search of every text node (XPath) held the page
  // 40-80 ms on 100,000 rows.
  const MARK_EVERY = 256;
  // What each root's steps read, in order: its text, then names from
  // attributes, then headings (native selector passes; the same checks
  // made in the walk cost more, cold).
  const INDEX_STEPS = [
    (b, root, i) => {
      const holder = root === document ? document.documentElement : root;
      if (!holder) return;
      const text = holder.textContent || '';
      b.texts.push({holder, text});
      // The marks hold only if the walk read the text `textContent` did.
      if (i === 0 && text.length !== b.offset) b.marks = null;
    },
    ...NAMING.map((selector) => (b, root) => {
      for (const e of root.querySelectorAll(selector)) {
        if (b.named.has(e)) continue;
        b.named.add(e);
        const said = ['aria-label', 'title', 'alt', 'placeholder', 'value'].map((a) => squeezed(e.getAttribute(a))).join('\u0000');
        b.naming.push({e, root, said});
      }
    }),
    // Headings give matches their context.
    ...HEADINGS.map((selector) => (b, root) => {
      for (const h of root.querySelectorAll(selector)) b.headings.push(h);
    }),
  ];
  // Builds more of `b` for about `ms` milliseconds (a step started runs to
  // its end; on a big document its own steps each take a slice of their
  // own: one native call over 100,000 rows takes tens of milliseconds);
  // whether it is done.
  const buildIndex = (b, ms) => {
    const until = performance.now() + ms;
    let busy = false;
    while (b.r < b.roots.length) {
      busy = true;
      // The document's own tree: its text nodes too, for the marks.
      if (!b.walker) b.walker = document.createTreeWalker(b.roots[b.r], b.r === 0 ? ELEMENTS_AND_TEXT : NodeFilter.SHOW_ELEMENT);
      for (let e = b.walker.nextNode(); e; e = b.walker.nextNode()) {
        if (e.nodeType !== 1) {
          if (b.marks && b.textNodes % MARK_EVERY === 0) b.marks.push({node: e, at: b.offset});
          b.offset += e.length;
          if ((++b.textNodes & 1023) === 0 && performance.now() > until) return false;
          continue;
        }
        const shadow = e.shadowRoot || closedRoots.get(e);
        if (shadow) {
          b.roots.push(shadow);
          b.hosts.push(e);
        }
        if ((++b.read & 1023) === 0 && performance.now() > until) return false;
      }
      b.walker = null;
      b.r++;
    }
    const steps = INDEX_STEPS.length * b.roots.length;
    for (; b.step < steps; busy = true) {
      const i = b.step % b.roots.length;
      if (busy && (performance.now() > until || (i === 0 && ms !== Infinity && b.read > BIG_INDEX))) return false;
      INDEX_STEPS[Math.floor(b.step / b.roots.length)](b, b.roots[i], i);
      b.step++;
      b.read++;
    }
    b.index = {texts: b.texts, hosts: b.hosts, naming: b.naming, headings: b.headings, elements: b.read, marks: b.marks};
    return true;
  };
  // Elements past which a document is big: its index's steps are sliced
  // (above) and locators search through its index (locate.js).
  const BIG_INDEX = 10000;
  const ELEMENTS_AND_TEXT = NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION;
  // How far a build has come: what rove's calls compare to see it go on.
  const progress = (b) => b.read + b.textNodes;
  const pageIndex = () => {
    const b = indexBuild();
    if (!b.index) buildIndex(b, Infinity);
    return b.index;
  };
  // Builds the index for about `ms` milliseconds: -1 when it is ready,
  // else how far the build has come (less than the last answer: a
  // mutation started it again). Where nothing is kept (no activity script,
  // or the page is still loading) a build cannot go on across calls:
  // `find` builds it whole. With `words`, on a big document, the scope of
  // a search for them is worked out too, in a call of its own (its XPath
  // search is one native call of some 40 ms on 100,000 rows) and kept for
  // the search that follows (`scopeOnce`).
  function prepareFind(ms, words) {
    const b = indexBuild();
    if (b !== indexBuild()) return -1;
    if (b.index === null) {
      if (!buildIndex(b, ms)) return progress(b);
      if (words !== undefined && b.read > BIG_INDEX) return progress(b) + 1;
    }
    const needle = matchable(words || '');
    if (b.index.elements <= BIG_INDEX || !needle.replace(/ /g, '')) return -1;
    const at = documentVersion();
    if (fresh(nextScope, needle)) return -1;
    nextScope = {needle, at, made: performance.now(), scope: scopeOf(needle)};
    return progress(b) + 2;
  }
  // The scope `prepareFind` worked out, for one search.
  let nextScope = null;
  // Whether `prepared` is for `needle` in the document as it is: not
  // changed since, and only a moment ago (a value typed since changes no
  // node; a search that failed before using its scope leaves it behind).
  const fresh = (prepared, needle) => !!prepared && prepared.needle === needle && prepared.at !== -1 &&
    prepared.at === documentVersion() && performance.now() - prepared.made < SCOPE_KEPT_MS;
  const SCOPE_KEPT_MS = 2000;
  const documentVersion = () => {
    const activity = globalThis.__roveActivity;
    return activity && activity.version ? activity.version() : -1;
  };
  // The scope of a search for `needle`: the one prepared for it if still
  // fresh, else worked out now.
  const scopeOnce = (needle) => {
    const prepared = nextScope;
    nextScope = null;
    return fresh(prepared, needle) ? prepared.scope : scopeOf(needle);
  };
  // The text nodes under `holder` holding part of any of `spans` (offsets
  // into its `textContent`, in order, apart): it goes down only into
  // children whose text reaches a span, measuring each child on the way.
  const textsAt = (holder, spans) => {
    const found = [];
    let k = 0;
    // Each level: the next child to measure, and where its text starts.
    const stack = [[holder.firstChild, 0]];
    while (stack.length && k < spans.length) {
      const level = stack[stack.length - 1];
      const [c, at] = level;
      if (!c) {
        stack.pop();
        continue;
      }
      const t = c.nodeType;
      const text = t === 3 || t === 4;
      const length = text ? c.length : t === 1 ? (c.textContent || '').length : 0;
      level[0] = c.nextSibling;
      level[1] = at + length;
      while (k < spans.length && spans[k][1] <= at) k++;
      if (k < spans.length && spans[k][0] < at + length) {
        if (t === 1) stack.push([c.firstChild, at]);
        else if (text) found.push(c);
      }
    }
    return found;
  };
  // The text nodes under `holder` that hold whole matches of `pattern`,
  // found natively (an XPath search for each of the texts matched,
  // `words`): on 100,000 rows a third of the cost of measuring each row on
  // the way down, and nothing made for the rows passed. Null unless they
  // hold all `count` matches (a match may run across two nodes) or when
  // the matches are more than a few different texts: `textsAt` then.
  const textsHolding = (holder, pattern, words, count) => {
    // XPath does not search a shadow tree from its root.
    if (words.size > WORDS_MAX || holder !== document.documentElement) return null;
    const found = new Set();
    for (const word of words) {
      const hits = document.evaluate(`.//text()[contains(., ${xpathString(word)})]`, holder, null,
        XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      for (let i = 0; i < hits.snapshotLength; i++) found.add(hits.snapshotItem(i));
    }
    let inside = 0;
    for (const n of found) {
      const data = n.data;
      for (let m = pattern.exec(data); m; m = pattern.exec(data)) {
        inside++;
        pattern.lastIndex = past(m);
      }
      pattern.lastIndex = 0;
    }
    return inside === count ? Array.from(found) : null;
  };
  // The text nodes of the document holding part of any of `spans`
  // (offsets into its `textContent`, in order, apart), walked to from the
  // mark before each.
  const textsByMarks = (marks, spans) => {
    const found = [];
    const walker = document.createTreeWalker(document.documentElement, ELEMENTS_AND_TEXT & ~NodeFilter.SHOW_ELEMENT);
    let node = null;
    let at = 0; // where `node`'s text starts
    for (const [start, end] of spans) {
      let lo = 0;
      let hi = marks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (marks[mid].at <= start) lo = mid;
        else hi = mid - 1;
      }
      const mark = marks[lo];
      if (mark && (!node || mark.at > at)) {
        node = mark.node;
        at = mark.at;
        walker.currentNode = node;
      }
      while (node && at + node.length <= start) {
        at += node.length;
        node = walker.nextNode();
      }
      while (node && at < end) {
        if (node.length && found[found.length - 1] !== node) found.push(node);
        // A node running past the span may hold the next one too.
        if (at + node.length >= end) break;
        at += node.length;
        node = walker.nextNode();
      }
    }
    return found;
  };
  // At most this many different texts matched are searched for natively.
  const WORDS_MAX = 16;
  // A string as an XPath literal: XPath has no escapes, only two quotes.
  const xpathString = (s) => {
    if (!s.includes('"')) return `"${s}"`;
    if (!s.includes("'")) return `'${s}'`;
    return `concat(${s.split('"').map((part) => `"${part}"`).join(`, '"', `)})`;
  };
  // Past this many places the words' letters come in the page's text, a
  // search has no scope: it looks everywhere, in slices, until its count's
  // cap (on 100,000 rows the scope of a word in every row held the page
  // over a second; 4 million matches of a word in a 50 MB text cost
  // seconds one by one).
  const SCOPED_MAX = 2000;
  const squeezed = (s) => (s || '').replace(UNSPACED, '').toLowerCase();
  // One character `squeezed` drops, as a pattern.
  const GAP = UNSPACED.source.slice(0, -1);

  // Where a search for `needle` must look: `hot`, the elements on the way
  // to a candidate, and `open`, candidates whose subtrees are searched
  // whole. A superset of the matches, so a search of a huge page visits
  // the paths to its matches instead of every element. Null: everywhere
  // (the words come in too many places, `SCOPED_MAX`).
  const scopeOf = (needle) => {
    const want = needle.replace(/ /g, '');
    const index = pageIndex();
    const hot = new Set();
    const open = new Set();
    const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
    // The hot children of each hot element, so that a search goes down a
    // list of 100,000 rows to the one that matched without touching the
    // rest.
    const kids = new Map();
    const heat = (e) => {
      for (let a = e; a && !hot.has(a); a = up(a)) {
        hot.add(a);
        const parent = up(a);
        if (!parent) continue;
        const list = kids.get(parent);
        if (list) list.push(a);
        else kids.set(parent, [a]);
      }
    };
    // Slots reorder what shows: a host is searched whole.
    for (const host of index.hosts) {
      open.add(host);
      heat(host);
    }
    const pattern = lettersOf(want);
    let places = 0;
    for (const {holder, text} of index.texts) {
      const spans = [];
      const words = new Set();
      let seen = 0;
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        if (++places > SCOPED_MAX) {
          pattern.lastIndex = 0;
          return null;
        }
        seen++;
        const end = m.index + m[0].length;
        words.add(m[0]);
        const last = spans[spans.length - 1];
        if (last && m.index <= last[1]) last[1] = Math.max(last[1], end);
        else spans.push([m.index, end]);
        pattern.lastIndex = past(m);
      }
      pattern.lastIndex = 0;
      const found = holder === document.documentElement && index.marks ? textsByMarks(index.marks, spans) :
        textsHolding(holder, pattern, words, seen);
      // The text nodes are hot too: a locator's text is gathered from them.
      for (const n of found || textsAt(holder, spans)) heat(n);
    }
    // Named by its own attributes or value first, then by other elements
    // (a label, ids), which may be among those: in any order of the passes.
    for (const {e, said} of index.naming) {
      // Values that are not text nodes change without a mutation: read now.
      if (said.includes(want) || squeezed(valueOf(e, '')).includes(want)) {
        open.add(e);
        heat(e);
      }
    }
    for (const {e, root} of index.naming) {
      if (open.has(e)) continue;
      const labelled = labelsOf(e).some((l) => hot.has(l)) ||
        (e.getAttribute('aria-labelledby') || '').split(/\s+/).some((id) => id && hot.has(root.getElementById(id)));
      if (labelled) {
        open.add(e);
        heat(e);
      }
    }
    for (const h of index.headings) heat(h);
    return {hot, open, kids};
  };

  // The hot children of an element searched in part, in document order
  // (hosts, texts, names and headings heat them in four passes).
  const hotKids = (scope, e) => {
    const list = scope.kids.get(e) || [];
    for (let i = 1; i < list.length; i++) {
      if (list[i - 1].compareDocumentPosition(list[i]) & Node.DOCUMENT_POSITION_PRECEDING) {
        if (list.length <= SORT_BY_COMPARING) {
          return list.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
        }
        // Many: each comparison of two siblings counts the siblings
        // between them, so their places are read in one pass instead.
        const at = new Map();
        const all = childrenOf(e);
        for (let j = 0; j < all.length; j++) at.set(all[j], j);
        return list.sort((a, b) => (at.get(a) ?? -1) - (at.get(b) ?? -1));
      }
    }
    return list;
  };
  const SORT_BY_COMPARING = 32;

  // Searches in progress, one of each kind (`find`, `locate`): rove calls
  // again with the same key until the answer no longer says `more`, so
  // that the page's own tasks run between slices of a search through
  // thousands of elements (on 100,000 rows a search for a word in every
  // row took two seconds in one go).
  const searches = new Map();
  // Runs the search of `kind` keyed `key` (its run and query; null: this
  // call runs it whole) for about `ms` milliseconds, `start` making its
  // steps when it begins: its answer, or `more`.
  const inSlices = (kind, key, start, ms) => {
    let search = searches.get(kind);
    if (!search || key === null || search.key !== key) {
      search = {key, steps: start()};
      searches.set(kind, search);
    }
    const until = performance.now() + (typeof ms === 'number' ? ms : Infinity);
    for (;;) {
      let step;
      try {
        step = search.steps.next();
      } catch (err) {
        searches.delete(kind);
        throw err;
      }
      if (step.done) {
        searches.delete(kind);
        return step.value;
      }
      if (performance.now() > until) return {token, more: true};
    }
  };
  function find(query, ms = Infinity) {
    // The run and the query both: another rove's run may have the same number.
    return inSlices('find', query.run === undefined ? null : JSON.stringify(query), () => searching(query), ms);
  }
  // Matches counted before a search stops: "1000+" is all a count of more
  // says, and a search for words in every row then ends early.
  const FIND_COUNT_MAX = 1000;
  // Elements visited between looks at the clock.
  const FIND_STEP = 64;

  // A level of a search: a list of children made for it (the scope's,
  // a slot's), read by index, or a node's own children (`childLevel`),
  // followed from sibling to sibling: the page may change them between
  // slices (a row inserted above would shift every index and show one row
  // again and again).
  const levelOf = (list, whole) => ({list, i: 0, whole});
  // The level of all of a node's children in the flat tree, as
  // `childrenOf` gives them, without making a list of the page's own
  // children (a list object for each of 600,000 elements kept the page
  // collecting garbage).
  const childLevel = (node) => {
    if (node.nodeType === 1) {
      const root = node.shadowRoot || closedRoots.get(node);
      if (root) return {next: root.firstChild, parent: root, last: null, whole: true};
      if (node.tagName === 'SLOT') {
        const assigned = node.assignedNodes({flatten: true});
        if (assigned.length) return {list: assigned, i: 0, whole: true};
      }
    }
    return {next: node.firstChild, parent: node, last: null, whole: true};
  };
  // The level of the children a search goes into.
  const kidsLevel = (scope, node, whole) => (whole ? childLevel(node) : levelOf(hotKids(scope, node), false));
  // The level's next child, or null when none is left.
  const nextOf = (level) => {
    if (level.list) return level.i < level.list.length ? level.list[level.i++] : null;
    let k = level.next;
    // Taken out since: on from the last one searched, if it is still there.
    if (k && k.parentNode !== level.parent) k = level.last && level.last.parentNode === level.parent ? level.last.nextSibling : null;
    if (!k) return null;
    level.last = k;
    level.next = k.nextSibling;
    return k;
  };

  // Every element of the document in the flat tree's order, open and known
  // closed shadow roots included, or only those `scope` leaves in, each
  // with whether all of its children are searched; `each` returns false to
  // stop, SKIP to leave out what is inside. It yields every so often: a
  // search runs in slices.
  function* everyElement(each, scope = null) {
    const stack = [levelOf([document.documentElement], !scope)];
    let visits = 0;
    while (stack.length) {
      if (++visits % FIND_STEP === 0) yield;
      const level = stack[stack.length - 1];
      const k = nextOf(level);
      if (!k) {
        stack.pop();
        continue;
      }
      if (k.nodeType !== 1 && k.nodeType !== 11) continue;
      const whole = level.whole || k.nodeType === 11 || scope.open.has(k);
      if (!whole && !scope.hot.has(k)) continue;
      const said = k.nodeType === 1 ? each(k, whole) : true;
      if (said === false) return;
      if (said !== SKIP) stack.push(kidsLevel(scope, k, whole));
    }
  }
  const SKIP = Symbol('skip');

  function* searching(query) {
    const needle = matchable(query.text);
    const wantRole = query.role || '';
    const limit = query.limit || 20;
    const matches = [];
    let total = 0;
    let heading = '';
    // A search for words looks where they can be; one for a role alone
    // looks everywhere.
    const scope = needle.replace(/ /g, '') ? scopeOnce(needle) : null;
    const inert = inertOutsideModal();
    // Iterative pre-order over the flat tree. `whole`: every child of `e`
    // is searched, else only those the scope leaves in (a list of 100,000
    // rows is not listed to find its one).
    const visitEl = (e, whole) => {
      if (SKIP_TAGS.has(e.tagName) || (inert && inert(e))) return false;
      const ariaHidden = e.getAttribute('aria-hidden') === 'true';
      if (ariaHidden || !e.checkVisibility({checkVisibilityCSS: true})) {
        const style = getComputedStyle(e);
        if (style.display !== 'contents' && (ariaHidden || !canvasFallback(e, style))) return false;
      }
      let role = e.tagName === 'IFRAME' || e.tagName === 'FRAME' ? 'frame' : roleOf(e);
      if (role !== 'frame') {
        const parentCursor = e.parentElement ? getComputedStyle(e.parentElement).cursor : 'auto';
        role = viewRole(e, role, !INTERACTIVE.has(role) && isClickable(e, getComputedStyle(e), parentCursor, role));
      }
      const textual = role === 'clickable' || role === 'paragraph' || role === 'listitem';
      const interesting = textual || !TRANSPARENT.has(role);
      // Only a heading's name is needed when the role is not the one asked
      // for: it is the context of what follows.
      const roleOk = !wantRole || role === wantRole || (wantRole === 'heading' && role === 'heading');
      if (interesting && (roleOk || role === 'heading')) {
        // A text-like element's name is the start of its text, but all of
        // its text is searched: a view shows a long paragraph whole.
        const all = textual ? wholeText(e) : '';
        let name = textual ? clip(all.length > TEXT_MAX ? all.slice(0, 4 * 200) : all, 200) : nameOf(e) || boxNames.get(e) || '';
        if (role === 'heading') heading = name;
        let holds = !needle || matchable(name).includes(needle) || matchable(valueOf(e, role)).includes(needle);
        // Past its start, the innermost element holding the words is the
        // match (a list item in a list item), and text no view shows (a
        // hidden child's; past TEXT_MAX, where its text content stands in)
        // is none.
        if (!holds && roleOk && all.length > 200 && all.length <= TEXT_MAX) {
          const hit = holding(all, needle);
          const shownInner = (k) => k.nodeType === 1 && holding(k.textContent || '', needle) !== null && k.checkVisibility();
          if (hit && !Array.from(searched(e, whole)).some(shownInner)) {
            name = around(e, all, hit, needle);
            holds = true;
          }
        }
        if (roleOk && holds) {
          total++;
          if (matches.length < limit) {
            const rec = {u: uidOf(e), d: 0, r: role};
            if (name) rec.n = clip(name, 200);
            else if (role === 'clickable') {
              const hint = hintOf(e);
              if (hint) rec.k = hint;
            }
            const v = valueOf(e, role);
            if (v) rec.v = clip(v, 200);
            setFlags(rec, e, role, deepActive(), false);
            if (role === 'link' && e.href) rec.h = e.href;
            if (role === 'heading') rec.l = parseInt(e.getAttribute('aria-level') || (/^H([1-6])$/.exec(e.tagName) || [])[1] || '2', 10);
            rec.x = contextOf(e, heading);
            matches.push(rec);
          }
        }
      }
      if (interesting) {
        // A frame element's document is searched on its own; controls are
        // searched inside too, since views show what they hold (a link in a
        // tab, an option in a listbox, an icon in a clickable row).
        if (role === 'frame') return false;
      } else if (needle && (!wantRole || wantRole === 'text') && hasOwnText(e, whole)) {
        // Text in a wrapper (a div, a pre, a span): the innermost element
        // holding all of the words, unless a match above already holds it.
        const raw = e.textContent || '';
        const hit = holding(raw, needle);
        const inner = (k) => k.nodeType === 1 && holding(k.textContent || '', needle) !== null;
        if (hit && !Array.from(searched(e, whole)).some(inner) && !insideMatch(e)) {
          total++;
          if (matches.length < limit) {
            matches.push({u: uidOf(e), d: 0, r: 'text', n: clip(around(e, raw, hit, needle), 200), x: contextOf(e, heading)});
            matched.add(e);
          }
        }
      }
      if (interesting && matches.length && matches[matches.length - 1].u === uids.get(e)) matched.add(e);
      return true;
    };
    const matched = new Set();
    const searched = (e, whole) => (whole ? childrenOf(e) : hotKids(scope, e));
    // Text of its own, among the children searched: outside the scope
    // no text holds the words.
    const hasOwnText = (e, whole) => {
      // No text among the children at all, natively counted (a table body
      // of 100,000 rows, looked at in script, held the page 20 ms).
      const kids = searched(e, whole);
      if (kids === e.childNodes && e.childElementCount === kids.length) return false;
      for (let i = 0; i < kids.length; i++) if (kids[i].nodeType === 3 && kids[i].data.trim()) return true;
      return false;
    };
    const insideMatch = (e) => {
      for (let a = e.parentElement; a; a = a.parentElement) if (matched.has(a)) return true;
      return false;
    };
    let capped = false;
    yield* everyElement((e, whole) => {
      const inside = visitEl(e, whole);
      // Past the cap, "more than this" is the count.
      if (total > FIND_COUNT_MAX) {
        total = FIND_COUNT_MAX;
        capped = true;
        return false;
      }
      return inside ? true : SKIP;
    }, scope);
    return {token, records: matches, total, capped};
  }

  // One line of context: the nearest label-ish ancestor, else the heading above.
  const contextOf = (e, heading) => {
    for (let a = e.parentElement; a; a = a.parentElement) {
      const role = roleOf(a);
      if (['dialog', 'alertdialog', 'form', 'navigation', 'region', 'group', 'radiogroup', 'listitem', 'row', 'tabpanel', 'menu', 'list', 'table'].includes(role)) {
        const n = role === 'listitem' || role === 'row' ? clip(shownText(a, 80), 80) : nameOf(a);
        if (n) return `${role} "${clip(n, 80)}"`;
      }
    }
    return heading ? `under heading "${clip(heading, 80)}"` : '';
  };
