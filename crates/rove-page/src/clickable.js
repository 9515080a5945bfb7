// rove's clickables, part of the walker: rove-page's walker.rs puts this
// file inside walker.js's closure (at its ROVE_CLICKABLE line), where it
// shares the walker's roles, names and closed shadow roots. What the user
// can click that the accessibility tree does not call a control, and the
// boxes around one control that are that control.
  // A generic element the user can click: it has a click listener (marked by
  // rove from DOMDebugger), an onclick attribute, a tabindex, or a pointer
  // cursor it does not merely inherit.
  // A tabindex alone makes only a small element clickable: on a container it
  // usually just holds keyboard focus for a whole widget.
  // A listener, an onclick or a tabindex on a container that holds controls
  // is usually delegation or focus management (a framework root, a widget),
  // not a click target: without a pointer cursor of its own, only small
  // elements count.
  const isClickable = (e, style, parentCursor, role) => {
    if (style.cursor === 'pointer' && parentCursor !== 'pointer') return !wrapsOneControl(e);
    // A tabindex alone on an element with nothing to say (a menu separator,
    // a focus trap) makes it focusable, not something to click.
    const focusable = e.tabIndex >= 0 && e.hasAttribute('tabindex') &&
      !!((e.innerText || '').trim() || e.getAttribute('aria-label') || e.title);
    const evidence = clickMarks.has(e) || e.hasAttribute('onclick') || focusable || gridStop(e, role);
    return evidence && isSmall(e) && !wrapsOneControl(e);
  };
  // A cell of an interactive grid that takes the focus, even with tabindex
  // -1 or empty: a roving-tabindex grid moves the focus from cell to cell
  // and acts on the cell it lands on (a canvas data grid's cells, whose
  // clicks its framework handles at the root, are known by this alone).
  // Rows are left alone: a treegrid's focusable row is its own line.
  const GRID_CELLS = new Set(['gridcell', 'columnheader', 'rowheader']);
  const gridStop = (e, role) => GRID_CELLS.has(role) && e.hasAttribute('tabindex') &&
    !!e.parentElement && !!e.parentElement.closest('[role=grid], [role=treegrid]');
  // A box around one control and nothing else (a toolbar item around its
  // button) is that control: one line, not three. The control may sit in a
  // shadow root inside the box (a custom element's button, as in a
  // notebook's toolbar): the box is looked through as the view walks it,
  // over the flat tree.
  const wrapsOneControl = (e) => {
    const controls = controlsWithin(e, 2);
    if (controls.length !== 1) return false;
    // A button in a shadow root shows its host's slotted text, which is
    // not its own innerText: its name says what it shows.
    const shows = (e.innerText || '').trim();
    const control = controls[0];
    if (shows !== (control.innerText || '').trim() && shows !== nameOf(control).trim()) return false;
    // An icon button named only by its box's label or tooltip (a custom
    // element's title, outside the shadow root its button is in) takes
    // that name: the box's line goes, its words must not.
    const label = (e.getAttribute('aria-label') || e.getAttribute('title') || '').trim();
    if (label && !nameOf(control)) boxNames.set(control, label);
    else boxNames.delete(control);
    return true;
  };
  // Names that controls take from the box around them (wrapsOneControl).
  const boxNames = new WeakMap();
  // Up to `max` controls inside `e`, its shadow roots (open, or closed ones
  // rove was given) and theirs included.
  const controlsWithin = (e, max) => {
    const found = [];
    const roots = [e];
    const own = e.shadowRoot || closedRoots.get(e);
    if (own) roots.push(own);
    while (roots.length && found.length < max) {
      const root = roots.pop();
      for (const c of root.querySelectorAll(INTERACTIVE_SELECTOR)) {
        found.push(c);
        if (found.length >= max) return found;
      }
      for (const host of root.querySelectorAll('*')) {
        const inner = host.shadowRoot || closedRoots.get(host);
        if (inner) roots.push(inner);
      }
    }
    return found;
  };
  const isSmall = (e) => (e.innerText || '').length <= 150 && !e.querySelector(CONTENT_SELECTOR);

  // A hint for a clickable with no text: its title, or a class that reads as
  // a word (`star`, `trash`), never generated class soup.
  const hintOf = (e) => {
    const word = /^[a-z][a-z-]{2,23}$/;
    if (e.id && word.test(e.id)) return '#' + e.id;
    for (const c of e.classList) if (word.test(c)) return '.' + c;
    return null;
  };

  // The role a line shows: Chromium's, except that a bare element that can be
  // clicked is `clickable`, an editing host is a `textbox`, and a bare live
  // region is `live`. Walk and find agree on it.
  const viewRole = (e, role, clicks) => {
    const bare = role === 'generic' || role === 'none' || role === 'presentation' || role === '';
    if (clicks && (bare || (GRAPHICS.has(role) && !nameOf(e)))) return 'clickable';
    if (bare && e.isContentEditable && e.hasAttribute('contenteditable')) return 'textbox';
    if (bare && e.getAttribute('aria-live') && e.getAttribute('aria-live') !== 'off') return 'live';
    return role;
  };
