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

  // Where a search for `needle` must look, found in one pass over the
  // page's text and attributes: `hot`, the elements on the way to a
  // candidate, and `open`, candidates whose subtrees are searched whole. A
  // superset of the matches, so a search of a huge page visits the paths
  // to its matches instead of every element. Spaces are left out on both
  // sides (a name's spacing is the renderer's), and a run of text nodes is
  // read as one (a name's words may sit in several).
  const scopeOf = (needle) => {
    const want = needle.replace(/ /g, '');
    const longest = needle.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
    const squeezed = (s) => (s || '').replace(UNSPACED, '').toLowerCase();
    const hot = new Set();
    const open = new Set();
    const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
    const heat = (e) => {
      for (let a = e; a && !hot.has(a); a = up(a)) hot.add(a);
    };
    const roots = [document];
    let tail = '';
    let recent = [];
    for (let r = 0; r < roots.length; r++) {
      const walker = document.createTreeWalker(roots[r], NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeType === 1) {
          const shadow = n.shadowRoot || closedRoots.get(n);
          if (shadow) {
            // Slots reorder what shows: a host is searched whole.
            roots.push(shadow);
            open.add(n);
            heat(n);
          }
          continue;
        }
        if (n.data.length > TEXT_MAX) {
          // Squeezing megabytes costs seconds: a long text is a candidate
          // when it holds the longest word, or the words run across its
          // edges.
          const edges = squeezed(n.data.slice(0, 4 * want.length)) + '\u0000' + squeezed(n.data.slice(-4 * want.length));
          recent = [n];
          if (n.data.toLowerCase().includes(longest) || (tail + edges).includes(want)) heat(up(n) || n);
          tail = want.length > 1 ? edges.slice(1 - want.length) : '';
          continue;
        }
        const text = squeezed(n.data);
        if (!text) continue;
        const joined = tail + text;
        recent.push(n);
        if (recent.length > 2 * want.length) recent = recent.slice(-want.length);
        if (joined.includes(want)) for (const t of recent) if (up(t)) heat(up(t));
        tail = want.length > 1 ? joined.slice(1 - want.length) : '';
      }
    }
    for (const root of roots) {
      for (const e of root.querySelectorAll(NAMING)) {
        const said = ['aria-label', 'title', 'alt', 'placeholder', 'value'].some((a) => squeezed(e.getAttribute(a)).includes(want)) ||
          // Values that are not text nodes; a role only tells text ones.
          squeezed(valueOf(e, '')).includes(want);
        // Named by other elements (a label, ids), or by its box's words.
        const labelled = (e.labels && Array.from(e.labels).some((l) => hot.has(l))) ||
          (e.getAttribute('aria-labelledby') || '').split(/\s+/).some((id) => id && hot.has(root.getElementById(id)));
        if (said || labelled) {
          open.add(e);
          heat(e);
        }
      }
      // Headings give matches their context.
      for (const h of root.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')) heat(h);
    }
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
