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

  // The first `n` or so characters an element shows. `innerText` lays out
  // all of it, natively (rove cannot stop it): for a text longer than any
  // line a walk keeps (walker.js's TEXT_MAX), the start of its text content
  // stands in.
  const shownText = (e, n) => {
    const all = e.textContent || '';
    return all.length > TEXT_MAX ? all.slice(0, 4 * n) : e.innerText;
  };

  // Attributes a name or a value can come from.
  const NAMING = '[aria-label],[aria-labelledby],[title],[alt],[placeholder],[value],[aria-valuetext],[aria-valuenow],' +
    'input,textarea,select,progress,meter,video,audio';

  // The page's text and naming attributes, built in one pass and kept until
  // the document changes (`kept`): a search of a huge page then runs one
  // regular expression over one string instead of visiting every text
  // node. Text nodes in document order, then each shadow root's, joined as
  // they are (a name's words may sit in several; squeezing each of 300,000
  // nodes would cost a second): the search skips spaces between letters.
  // A text longer than TEXT_MAX stands in by its two edges, so words that
  // run across them are found, and is searched for the query's longest
  // word at each search.
  // Changes inside a shadow tree reach no observer of the document, so the
  // index may be behind there; it need not be right: every shadow host is
  // searched whole.
  //
  // The index is built in slices (`prepareFind`, called by rove until it
  // says done) so that the page's own tasks run between them: on 100,000
  // rows one pass holds the page's thread for about half a second. The
  // build in progress is kept like the index: a mutation between slices
  // starts it again.
  const indexBuild = () => kept('find index', () => ({
    roots: [document], r: 0, read: 0, walker: null, parts: [], nodes: [], starts: [], long: [], hosts: [], at: 0,
    index: null,
  }));
  // One node of the page into the build `b`: a text's words, a shadow
  // root to read after the document.
  const readNode = (b, n) => {
    b.read++;
    if (n.nodeType === 1) {
      const shadow = n.shadowRoot || closedRoots.get(n);
      if (shadow) {
        b.roots.push(shadow);
        b.hosts.push(n);
      }
      return;
    }
    let part = n.data;
    if (part.length > TEXT_MAX) {
      part = part.slice(0, 4 * FIND_WORDS_MAX) + '\u0000' + part.slice(-4 * FIND_WORDS_MAX);
      b.long.push(n);
    }
    b.parts.push(part);
    b.nodes.push(n);
    b.starts.push(b.at);
    b.at += part.length;
  };
  // Builds more of `b` for about `ms` milliseconds; whether it is done.
  const buildIndex = (b, ms) => {
    const until = performance.now() + ms;
    while (b.r < b.roots.length) {
      if (!b.walker) b.walker = document.createTreeWalker(b.roots[b.r], NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = b.walker.nextNode(); n; n = b.walker.nextNode()) {
        readNode(b, n);
        if ((b.read & 1023) === 0 && performance.now() > until) return false;
      }
      b.walker = null;
      b.r++;
    }
    // Names from attributes, and headings: one selector pass each (about
    // 0.2 s each on 100,000 rows, in one go); the same checks made in the
    // walk above cost more in all (0.7 s more, cold).
    const naming = [];
    const headings = [];
    for (const root of b.roots) {
      for (const e of root.querySelectorAll(NAMING)) {
        const said = ['aria-label', 'title', 'alt', 'placeholder', 'value'].map((a) => squeezed(e.getAttribute(a))).join('\u0000');
        naming.push({e, root, said});
      }
      // Headings give matches their context.
      for (const h of root.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')) headings.push(h);
    }
    b.index = {text: b.parts.join(''), nodes: b.nodes, starts: b.starts, long: b.long, hosts: b.hosts, naming, headings};
    b.parts = null;
    return true;
  };
  const pageIndex = () => {
    const b = indexBuild();
    if (!b.index) buildIndex(b, Infinity);
    return b.index;
  };
  // Builds the index for about `ms` milliseconds: -1 when it is ready,
  // else how many nodes the build has read (fewer than the last answer: a
  // mutation started it again). Where nothing is kept (no activity script,
  // or the page is still loading) a build cannot go on across calls:
  // `find` builds it whole.
  function prepareFind(ms) {
    const b = indexBuild();
    if (b !== indexBuild()) return -1;
    return b.index !== null || buildIndex(b, ms) ? -1 : b.read;
  }
  const squeezed = (s) => (s || '').replace(UNSPACED, '').toLowerCase();
  // One character `squeezed` drops, as a pattern.
  const GAP = UNSPACED.source.slice(0, -1);
  // The longest query whose words are found across a long text's edges.
  const FIND_WORDS_MAX = 200;

  // Where a search for `needle` must look: `hot`, the elements on the way
  // to a candidate, and `open`, candidates whose subtrees are searched
  // whole. A superset of the matches, so a search of a huge page visits
  // the paths to its matches instead of every element.
  const scopeOf = (needle) => {
    const want = needle.replace(/ /g, '');
    const longest = needle.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
    const index = pageIndex();
    const hot = new Set();
    const open = new Set();
    const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
    const heat = (e) => {
      for (let a = e; a && !hot.has(a); a = up(a)) hot.add(a);
    };
    // Slots reorder what shows: a host is searched whole.
    for (const host of index.hosts) {
      open.add(host);
      heat(host);
    }
    const {text, nodes, starts} = index;
    // The letters of the words in order, anything `squeezed` drops between
    // them, any case.
    // (Only syntax characters are escaped: a `u` pattern refuses `\-`.)
    const letters = Array.from(want).map((c) => c.replace(/[\\^$.*+?()[\]{}|\/]/g, '\\$&'));
    const pattern = new RegExp(letters.join(GAP + '*'), 'giu');
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const i = m.index;
      const end = i + m[0].length;
      pattern.lastIndex = i + 1;
      // The last text starting at or before the match, then each text the
      // match runs into.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= i) lo = mid;
        else hi = mid - 1;
      }
      for (let k = lo; k < nodes.length && starts[k] < end; k++) heat(up(nodes[k]) || nodes[k]);
    }
    for (const n of index.long) if (n.data.toLowerCase().includes(longest)) heat(up(n) || n);
    for (const {e, root, said} of index.naming) {
      // Values that are not text nodes change without a mutation: read now.
      const named = said.includes(want) || squeezed(valueOf(e, '')).includes(want);
      // Named by other elements (a label, ids), or by its box's words.
      const labelled = (e.labels && Array.from(e.labels).some((l) => hot.has(l))) ||
        (e.getAttribute('aria-labelledby') || '').split(/\s+/).some((id) => id && hot.has(root.getElementById(id)));
      if (named || labelled) {
        open.add(e);
        heat(e);
      }
    }
    for (const h of index.headings) heat(h);
    return {hot, open};
  };

  function find(query) {
    const needle = matchable(query.text);
    const wantRole = query.role || '';
    const limit = query.limit || 20;
    const matches = [];
    let total = 0;
    let heading = '';
    // A search for words looks where they can be; one for a role alone
    // looks everywhere.
    const scope = needle.replace(/ /g, '') ? scopeOf(needle) : null;
    const stack = [[document.documentElement, !scope]];
    const inert = inertOutsideModal();
    // Iterative pre-order over the flat tree.
    const visitEl = (e) => {
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
      if (interesting) {
        const name = textual ? clip(shownText(e, 200), 200) : nameOf(e) || boxNames.get(e) || '';
        if (role === 'heading') heading = name;
        const roleOk = !wantRole || role === wantRole || (wantRole === 'heading' && role === 'heading');
        if (roleOk && (!needle || matchable(name).includes(needle) || matchable(valueOf(e, role)).includes(needle))) {
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
        // A frame element's document is searched on its own; controls are
        // searched inside too, since views show what they hold (a link in a
        // tab, an option in a listbox, an icon in a clickable row).
        if (role === 'frame') return false;
      } else if (needle && (!wantRole || wantRole === 'text') && hasOwnText(e)) {
        // Text in a wrapper (a div, a pre, a span): the innermost element
        // holding all of the words, unless a match above already holds it.
        const text = (e.textContent || '').replace(SPACES, ' ').trim();
        const inner = (k) => k.nodeType === 1 && matchable((k.textContent || '').replace(SPACES, ' ')).includes(needle);
        if (matchable(text).includes(needle) && !Array.from(childrenOf(e)).some(inner) && !insideMatch(e)) {
          total++;
          if (matches.length < limit) {
            matches.push({u: uidOf(e), d: 0, r: 'text', n: clip(around(e, text, needle), 200), x: contextOf(e, heading)});
            matched.add(e);
          }
        }
      }
      if (interesting && matches.length && matches[matches.length - 1].u === uids.get(e)) matched.add(e);
      return true;
    };
    const matched = new Set();
    const hasOwnText = (e) => Array.from(childrenOf(e)).some((k) => k.nodeType === 3 && k.data.trim());
    const insideMatch = (e) => {
      for (let a = e.parentElement; a; a = a.parentElement) if (matched.has(a)) return true;
      return false;
    };
    while (stack.length) {
      const [node, whole] = stack.pop();
      if (node.nodeType !== 1 && node.nodeType !== 11) continue;
      if (node.nodeType === 1 && !visitEl(node)) continue;
      const kids = childrenOf(node);
      for (let i = kids.length - 1; i >= 0; i--) {
        const k = kids[i];
        if (k.nodeType !== 1 && k.nodeType !== 11) continue;
        if (whole || k.nodeType === 11 || scope.open.has(k)) stack.push([k, true]);
        else if (scope.hot.has(k)) stack.push([k, false]);
      }
    }
    return {token, records: matches, total};
  }

  // What a text match shows: in a block that keeps its line breaks (a
  // log, code) the line holding the words; else a long text from a little
  // before them, so the match is in the part a result line keeps.
  const around = (e, text, needle) => {
    if (keepsBreaks(e)) {
      const line = (e.textContent || '').split('\n').find((l) => matchable(l).includes(needle));
      if (line) return line.replace(SPACES, ' ').trim();
    }
    if (text.length <= 200) return text;
    const at = matchable(text).indexOf(needle);
    return at > 80 ? '…' + text.slice(at - 60) : text;
  };

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
