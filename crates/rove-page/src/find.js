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

  function find(query) {
    const needle = matchable(query.text);
    const wantRole = query.role || '';
    const limit = query.limit || 20;
    const matches = [];
    let total = 0;
    let heading = '';
    const stack = [document.documentElement];
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
        const name = textual ? clip(e.innerText, 200) : nameOf(e) || boxNames.get(e) || '';
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
            matches.push({u: uidOf(e), d: 0, r: 'text', n: clip(text, 200), x: contextOf(e, heading)});
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
      const node = stack.pop();
      if (node.nodeType !== 1 && node.nodeType !== 11) continue;
      if (node.nodeType === 1 && !visitEl(node)) continue;
      const kids = childrenOf(node);
      for (let i = kids.length - 1; i >= 0; i--) if (kids[i].nodeType === 1 || kids[i].nodeType === 11) stack.push(kids[i]);
    }
    return {token, records: matches, total};
  }

  // One line of context: the nearest label-ish ancestor, else the heading above.
  const contextOf = (e, heading) => {
    for (let a = e.parentElement; a; a = a.parentElement) {
      const role = roleOf(a);
      if (['dialog', 'alertdialog', 'form', 'navigation', 'region', 'group', 'radiogroup', 'listitem', 'row', 'tabpanel', 'menu', 'list', 'table'].includes(role)) {
        const n = role === 'listitem' || role === 'row' ? clip(a.innerText, 80) : nameOf(a);
        if (n) return `${role} "${clip(n, 80)}"`;
      }
    }
    return heading ? `under heading "${clip(heading, 80)}"` : '';
  };
