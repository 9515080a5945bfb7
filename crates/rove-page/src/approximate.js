// rove's approximation of Chromium's roles and names, part of the walker:
// rove-page's walker.rs puts this file inside walker.js's closure (at its
// ROVE_APPROXIMATE line). Used where the browser lacks the blink feature
// rove launches its own with (a farm's browser; no CDP command turns it
// on): ARIA's implicit roles and the short form of the name rules, with the
// rules of Chromium's that measured pages needed (docs/benchmarks.md).
  // Implicit roles, as Chromium gives them: an anchor without href that
  // something listens to is a link; a list item outside a list is nothing.
  const IMPLICIT = {A: (e) => (e.hasAttribute('href') || clickMarks.has(e) || e.hasAttribute('onclick') ? 'link' : 'generic'), BUTTON: () => 'button', SELECT: (e) => (e.multiple || e.size > 1 ? 'listbox' : 'combobox'),
    TEXTAREA: () => 'textbox', H1: () => 'heading', H2: () => 'heading', H3: () => 'heading', H4: () => 'heading',
    H5: () => 'heading', H6: () => 'heading', IMG: (e) => (e.getAttribute('alt') === '' ? 'none' : 'image'), UL: () => 'list', OL: () => 'list',
    LI: (e) => (e.parentElement && /^(UL|OL|MENU)$/.test(e.parentElement.tagName) &&
      [null, 'list'].includes(e.parentElement.getAttribute('role')) ? 'listitem' : 'generic'), NAV: () => 'navigation', MAIN: () => 'main', TABLE: () => 'table', TR: () => 'row',
    TD: () => 'cell', TH: () => 'columnheader', P: () => 'paragraph', DIALOG: () => 'dialog', FORM: () => 'form',
    OPTION: () => 'option', HEADER: () => 'banner', FOOTER: () => 'contentinfo', ASIDE: () => 'complementary',
    FIELDSET: () => 'group', PROGRESS: () => 'progressbar', METER: () => 'meter', SUMMARY: () => 'button',
    INPUT: (e) => ({checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button',
      range: 'slider', number: 'spinbutton', search: 'searchbox', hidden: 'none', ...TYPED_ROLES})[e.type] || 'textbox'};

  // For each role the rules above (and a view's own roles for elements of
  // none) can give an element without a role attribute, the elements that
  // can have it: a locator by role alone on a huge document looks at these
  // and at elements with a role attribute, not at every element. Other
  // roles come from the attribute alone; those of elements a view gives
  // a role by their look (clickable, generic) mean every element.
  const IMPLICIT_SELECTORS = {link: 'a', button: 'button,summary,input', combobox: 'select', listbox: 'select',
    textbox: 'textarea,input,[contenteditable]', heading: 'h1,h2,h3,h4,h5,h6', image: 'img', list: 'ul,ol',
    listitem: 'li', navigation: 'nav', main: 'main', table: 'table', row: 'tr', cell: 'td', columnheader: 'th',
    paragraph: 'p', dialog: 'dialog', form: 'form', option: 'option', banner: 'header', contentinfo: 'footer',
    complementary: 'aside', group: 'fieldset', progressbar: 'progress', meter: 'meter', checkbox: 'input',
    radio: 'input', slider: 'input', spinbutton: 'input', searchbox: 'input', video: 'video', audio: 'audio',
    live: '[aria-live]', frame: 'iframe,frame'};
  const EVERY_ELEMENT = new Set(['clickable', 'generic', 'none', 'presentation', '']);
  // The selector of the elements that can have `role` under the rules
  // above, or null: any element can.
  const approximateCandidates = (role) => {
    if (EVERY_ELEMENT.has(role) || GRAPHICS.has(role)) return null;
    const implicit = (Object.hasOwn(IMPLICIT_SELECTORS, role) && IMPLICIT_SELECTORS[role]) ||
      (Object.values(TYPED_ROLES).includes(role) ? 'input' : '');
    return implicit ? `[role],${implicit}` : '[role]';
  };

  // The role, from the role attribute and the element's tag.
  const approximateRole = (e) => {
    const explicit = (e.getAttribute('role') || '').trim().split(/\s+/)[0];
    // ARIA's conflict rule, which Chromium follows: a focusable element
    // keeps its own role under `presentation` or `none` (a jQuery UI
    // tab's link).
    if (explicit && !((explicit === 'presentation' || explicit === 'none') && focusable(e))) return explicit;
    const media = mediaRole(e);
    if (media) return media;
    const f = IMPLICIT[e.tagName];
    return f ? f(e) : 'generic';
  };
  const focusable = (e) => e.hasAttribute('tabindex') || e.matches('a[href], button, input, select, textarea, summary');
  // The accessible name as the short form of the rules gives it.
  // An element's labels. `labels` looks through the whole tree on each
  // element's first call (half a millisecond on 12,000 rows: a `find` of
  // words on a thousand buttons took a second); the document's labels are
  // read once per version instead, each naming its control.
  const labelsOf = (e) => {
    if (e.getRootNode() !== document) return e.labels ? Array.from(e.labels) : [];
    const byControl = kept('labels by control', () => {
      const map = new Map();
      for (const label of allOf('label')) {
        const control = label.control;
        if (!control) continue;
        const list = map.get(control);
        if (list) list.push(label);
        else map.set(control, [label]);
      }
      return map;
    });
    return byControl.get(e) || [];
  };
  const labelName = (e) => {
    const label = e.getAttribute('aria-label');
    if (label) return label.trim();
    const by = e.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map((n) => n.textContent).join(' ');
      if (t.trim()) return t.trim().replace(SPACES, ' ');
    }
    const labels = labelsOf(e);
    if (labels.length) return labels.map((l) => l.textContent).join(' ').trim().replace(SPACES, ' ');
    if (e.tagName === 'IMG') return (e.getAttribute('alt') || e.getAttribute('title') || '').trim();
    // A button input shows its value, or the browser's word for its kind.
    if (e.tagName === 'INPUT' && ['submit', 'reset', 'button'].includes(e.type)) {
      return (e.value || {submit: 'Submit', reset: 'Reset'}[e.type] || '').trim();
    }
    const role = roleOf(e);
    // Content first, then the tooltip, as the name rules go on (an icon
    // tab named by its title). Chromium names no table row by its cells.
    const content = NAME_FROM_CONTENT.has(role) && e.tagName !== 'TR'
      ? (e.innerText || e.textContent || '').trim().replace(SPACES, ' ') : '';
    return content || (e.getAttribute('title') || e.getAttribute('placeholder') || '').trim();
  };
