// rove's page walker. Installed in an isolated world named "rove" in every
// frame, so page scripts can neither see nor tamper with it. It reads the page
// through Chromium's own accessibility computations (Element.computedRole and
// Element.computedName, enabled by the ComputedAccessibilityInfo blink
// feature) and emits one compact record per line of the view, in document
// order over the flat tree (shadow roots and slots resolved).
//
// Records: {u: uid, d: depth, r: role, n: name, v: value, f: flags,
//           p: popup kind, h: href, l: heading level, o: options, c: count,
//           t: text, x: context, k: hint}
// The keys stay one letter because a large page sends a megabyte of records
// over CDP; record.rs gives them their readable names. Flags are one
// number, a bit per state (FLAG below, the same numbers as record.rs's
// `Flags`).
// uids are small integers, unique within this document, kept in a WeakMap so
// an element keeps its uid for its whole life and a new element never gets
// an old one.
(() => {
  if (globalThis.__rove) return;
  const uids = new WeakMap();
  const byUid = new Map();
  let nextUid = 1;
  const token = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const clickMarks = new WeakSet();
  const closedRoots = new WeakMap();
  const checkedHosts = new WeakSet();
  // Chromium's roles and names, or rove's approximation of them: in a
  // browser without the blink feature, and in a huge document, whose
  // accessibility tree rove does not have Chromium keep (frames.rs sets
  // `__roveApproximate` before this runs).
  const native = 'computedRole' in Element.prototype && !globalThis.__roveApproximate;
  // Runs of white space, which a line shows as one space. Not U+FEFF, which
  // JavaScript counts as white space but a page shows as nothing: it goes
  // on to rove's cleaning, which leaves it out like other invisibles.
  const SPACES = /[^\S\uFEFF]+/g;
  // The characters rove's cleaning leaves out of page text (zero-width,
  // bidi, tag characters …; the list is rove-base's text.rs): a name is matched
  // as the view shows it.
  const INVISIBLE = ROVE_INVISIBLE;
  // Controls and line breaks, which rove's cleaning shows as a space (the
  // list is rove-base's text.rs).
  const CONTROLS = ROVE_BREAKING;

  // ROVE_IDENTITY

  // An answer that depends only on which nodes the document holds and their
  // attributes, kept by the activity script (rove-browser's activity.js,
  // in this same world) until the next mutation; computed each time where
  // that script is not there.
  const kept = (key, compute) => {
    const activity = globalThis.__roveActivity;
    return activity && activity.kept ? activity.kept('walker:' + key, compute) : compute();
  };
  // Every element that matches `selector`, kept as above.
  const allOf = (selector) => kept(selector, () => Array.from(document.querySelectorAll(selector)));

  const GRAPHICS = new Set(['image', 'img', 'graphics-document', 'graphics-symbol', 'graphics-object']);
  const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE']);
  // The roles of controls: rove-page's roles.rs puts its one list here when
  // the walker is installed.
  const INTERACTIVE = new Set(ROVE_INTERACTIVE_ROLES);
  // Roles that take their name from their content: their text is the name.
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'heading', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'option', 'treeitem', 'cell', 'gridcell', 'columnheader', 'rowheader', 'switch', 'checkbox', 'radio', 'tooltip',
    'clickable', 'image', 'img', 'row']);
  // The cells of a table row.
  const CELLS = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
  // Containers that get their own line, even unnamed.
  const STRUCTURAL = new Set(['navigation', 'main', 'banner', 'contentinfo', 'complementary', 'form', 'search', 'region',
    'dialog', 'alertdialog', 'alert', 'status', 'log', 'list', 'listitem', 'table', 'grid', 'treegrid', 'row',
    'tree', 'tablist', 'tabpanel', 'menu', 'menubar', 'toolbar', 'radiogroup', 'group', 'article', 'figure',
    'cell', 'gridcell', 'columnheader', 'rowheader', 'timer', 'marquee', 'feed', 'note', 'math', 'progressbar', 'meter',
    'scrollbar', 'separator', 'definition', 'term', 'blockquote', 'code', 'caption']);
  // Roles that never produce a line of their own (their children move up).
  const TRANSPARENT = new Set(['generic', 'none', 'presentation', '', 'rowgroup', 'paragraph', 'strong', 'emphasis',
    'subscript', 'superscript', 'mark', 'deletion', 'insertion', 'abbr', 'LineBreak', 'StaticText',
    'sectionheader', 'sectionfooter', 'ruby', 'code', 'blockquote', 'definition', 'term', 'caption', 'figure', 'note']);
  // Elements that are controls, as CSS: native ones by tag, the rest by an
  // explicit role from the same list.
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[onclick],' +
    '[contenteditable=""],[contenteditable=true],' +
    Array.from(INTERACTIVE).filter((r) => r !== 'clickable').map((r) => `[role=${r}]`).join(',');
  // What makes a clickable a container rather than a leaf named by its text.
  const CONTENT_SELECTOR = INTERACTIVE_SELECTOR + ',h1,h2,h3,h4,h5,h6,[role=heading],p,li,table,ul,ol';

  // ---- role and name -------------------------------------------------------

  // ROVE_APPROXIMATE
  // Inputs ARIA has no role for (Chromium's computedRole is empty, or a
  // button for a file input): each is shown as its type, which also says
  // what `fill` (or `upload`) takes.
  const TYPED_ROLES = {date: 'date', time: 'time', 'datetime-local': 'datetime-local', month: 'month', week: 'week',
    color: 'color', file: 'file'};
  // The roles Chromium leaves empty for controls: the typed inputs above,
  // and a details element's summary, which works as a disclosure button.
  const controlRole = (e) => {
    if (e.tagName === 'INPUT') return TYPED_ROLES[e.type] || '';
    if (e.tagName === 'SUMMARY') return 'button';
    return '';
  };
  // An audio or video element with the browser's controls (and no role of
  // its own): `audio` or `video`.
  const mediaRole = (e) => ((e.tagName === 'VIDEO' || e.tagName === 'AUDIO') && e.controls && !e.hasAttribute('role')
    ? e.tagName.toLowerCase() : '');

  // Without the blink feature (a browser rove did not launch), an
  // approximation of the implicit ARIA role and the accessible name.
  // A div or span without a role attribute is generic whatever surrounds
  // it; asking Chromium costs more than the rest of its visit.
  const roleOf = native
    ? (e) => {
      if ((e.tagName === 'DIV' || e.tagName === 'SPAN') && !e.hasAttribute('role')) return 'generic';
      // ARIA has no role for a player; one with controls is something to
      // operate, shown as what it is.
      const media = mediaRole(e);
      if (media) return media;
      // A file input is a button to Chromium; the view calls it what it is.
      const role = e.tagName === 'INPUT' && e.type === 'file' ? 'file' : e.computedRole || controlRole(e);
      // A <time> element is text with a machine-readable date; `time` is
      // the role of a time input.
      return role === 'time' && e.tagName !== 'INPUT' ? 'generic' : role;
    }
    : approximateRole;
  // Chromium names a file input by its label and what it holds ("Photo: No
  // file chosen"); its line shows the label as the name and the files as the
  // value.
  const plainNameOf = native
    ? (e) => (e.tagName === 'INPUT' && e.type === 'file' ? labelName(e) : e.computedName || '')
    : labelName;
  // A player without a label is named by its file (a blob or data URL has
  // no name worth showing).
  const nameOf = (e) => {
    const name = plainNameOf(e);
    if (name || !mediaRole(e)) return name;
    const src = e.currentSrc || e.getAttribute('src') || '';
    if (!/^https?:|^file:/.test(src)) return '';
    try {
      return decodeURIComponent(new URL(src).pathname.split('/').pop() || '');
    } catch (_) {
      return '';
    }
  };

  // ---- facts about one element ---------------------------------------------

  // While a modal dialog is open (showModal), everything outside it is inert:
  // no click, no focus, no name in Chromium's tree. Such elements are left
  // out like hidden ones; the dialog says it is modal. The returned test is
  // null when no modal dialog is open.
  const inertOutsideModal = () => {
    const modals = allOf('dialog:modal');
    if (!modals.length) return null;
    return (e) => !modals.some((m) => m.contains(e) || e.contains(m)) && !e.matches(':popover-open');
  };

  const isHidden = (e, style) => {
    if (e.getAttribute('aria-hidden') === 'true') return true;
    if (e.hasAttribute('inert')) return true;
    if (style.display === 'contents') return false;
    return !e.checkVisibility({checkVisibilityCSS: true}) && !canvasFallback(e, style);
  };
  // Content inside a shown <canvas> is its fallback: drawn as pixels, so
  // it has no box, but it is what the canvas shows to assistive technology
  // (a canvas data grid keeps its cells there, focusable). It is shown
  // unless its own style hides it.
  const canvasFallback = (e, style) => {
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
    const canvas = e.parentElement && e.parentElement.closest('canvas');
    return !!canvas && canvas.checkVisibility({checkVisibilityCSS: true});
  };

  // A live region drawn nowhere (the 1-pixel, clipped or off-page box of a
  // screen-reader-only announcer) is not page content: it says what just
  // happened ("Loading", "In queue: 1 of 1", a count), often long after it
  // stopped being true. The walker hands its text over apart from the lines,
  // and rove reports a change of it once, as a note on the command.
  const LIVE_ROLES = new Set(['status', 'log', 'alert', 'marquee', 'timer']);
  const announcer = (e, role, style) => {
    const live = e.getAttribute('aria-live');
    if (!LIVE_ROLES.has(role) && !(live && live !== 'off')) return false;
    if (style.position !== 'absolute' && style.position !== 'fixed') return false;
    const r = e.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1) return true;
    if (/^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(style.clip)) return true;
    if (style.clipPath === 'inset(50%)' || style.clipPath === 'inset(100%)') return true;
    return r.right + scrollX <= 0 || r.bottom + scrollY <= 0;
  };

  const deepActive = () => {
    let a = document.activeElement;
    for (let root = a && (a.shadowRoot || closedRoots.get(a)); root && root.activeElement;
      root = a.shadowRoot || closedRoots.get(a)) a = root.activeElement;
    return a;
  };

  // An element's flags, value and what an editor or player shows:
  // states.js (walker.rs puts it here).
  // ROVE_STATES

  // At most n UTF-16 units, never half a character (an emoji is two).
  const clip = (s, n) => {
    s = (s || '').replace(SPACES, ' ').trim();
    if (s.length <= n) return s;
    const end = /[\uD800-\uDBFF]/.test(s[n - 2]) ? n - 2 : n - 1;
    return s.slice(0, end) + '…';
  };

  // The walk's computed styles, by element: a text node's parent was
  // visited just before it, so its style is at hand.
  let walkedStyles = new WeakMap();
  // Whether line breaks in the text of `e` show as breaks (white space kept,
  // as in a `pre`, a code block or an editor's line).
  const keepsBreaks = (e) => {
    if (!e) return false;
    const style = walkedStyles.get(e) || getComputedStyle(e);
    return (style.whiteSpaceCollapse || 'collapse') !== 'collapse' || /^(pre|break-spaces)/.test(style.whiteSpace);
  };

  // Clickables and the boxes around controls: clickable.js (walker.rs puts
  // it here).
  // ROVE_CLICKABLE

  // The flat tree and the shadow roots rove asks the browser for:
  // flat_tree.js (walker.rs puts it here).
  // ROVE_FLAT_TREE

  // ---- the walk -------------------------------------------------------------

  // Runs of like siblings, which a walk collapses: runs.js (walker.rs puts
  // it here).
  // ROVE_RUNS

  // The longest text line a walk keeps (`…` marks the cut; a budgeted walk
  // keeps one character past its budget, which then cuts the view there as
  // it says), and the most of a code block or log it reads (line breaks
  // kept, each line then cut like text).
  const TEXT_MAX = 100000;
  const CODE_MAX = 2000000;
  // What holds code even on one line: a code block, the line layers of
  // CodeMirror 6 and 5 and of Monaco.
  const CODE_HOLDERS = 'pre, code, .cm-content, .CodeMirror-code, .view-lines';
  // How many elements deep the walk recurses. Below that (a DOM nested
  // thousands deep overflows the script's stack) the rest of the subtree is
  // walked from a list of its own, in the same order, its lines at one
  // depth: the page's controls still get their lines and refs.
  const NEST_MAX = 400;

  function walk(opts) {
    // The document's version (its mutation count, while the activity
    // script observes; -1 when unknown) as this walk began: a huge
    // document's click listeners are asked for again only when it changed.
    const activity = globalThis.__roveActivity;
    const version = activity && activity.version ? activity.version() : -1;
    const out = [];
    const hosts = [];
    const announced = [];
    let suspects = 0;
    // Elements and non-blank text met so far: an element whose children
    // add none is empty, as far as its light tree goes.
    let seen = 0;
    const suspect = (e) => {
      if (suspects >= MAX_SUSPECTS || !unknownRoot(e)) return;
      suspects++;
      checkedHosts.add(e); // named once, whatever rove finds
      hosts.push(uidOf(e));
    };
    const active = deepActive();
    const inert = inertOutsideModal();
    walkedStyles = new WeakMap(); // styles may have changed since the last walk
    // Ids of the elements that name a shown element (aria-labelledby): their
    // text is already that element's name, on its line.
    const labelIds = new Set();
    for (const named of allOf('[aria-labelledby]')) {
      if (!named.checkVisibility()) continue;
      for (const id of named.getAttribute('aria-labelledby').split(/\s+/)) if (id) labelIds.add(id);
    }
    const maxChars = opts.maxChars || Infinity;
    // A line is cut at what the view shows (`lineChars`, the budget's worth),
    // however far the walk reads on: two readings cut it alike.
    const textMax = Math.min(TEXT_MAX, (opts.lineChars || maxChars) + 1);
    const interactiveOnly = opts.mode === 'interactive';
    let chars = 0;
    let cut = null;
    let emittedInteractive = 0;
    // Paging: emit nothing until the element with uid `after` has been passed.
    let waiting = opts.after ? true : false;
    let text = null; // pending text run: {u, d, parts}
    // For each element that holds text runs (a block or a line's element),
    // the holder it sits in: two runs are siblings when their holders sit in
    // the same one.
    const holderOf = new Map();
    // Holders that lay their boxes out side by side (a flex row, a grid of
    // several columns) or pair them (a description list's term and its
    // value): only there do sibling boxes share a line.
    const rows = new Set();
    const inRow = (e, u, style) => {
      const d = style.display;
      if (e.tagName === 'DL') rows.add(u);
      else if (d === 'flex' || d === 'inline-flex') {
        if (!style.flexDirection.startsWith('column')) rows.add(u);
      } else if ((d === 'grid' || d === 'inline-grid') && style.gridTemplateColumns.trim().split(/\s+/).length > 1) {
        rows.add(u);
      }
    };
    // The last text line emitted, and the holder its run's holder sits in.
    let lastText = null;

    const flushText = () => {
      if (text && text.code) {
        // Lines of code: one text line each, as written (indentation
        // kept, blank ones left out), marked as code.
        const lines = text.parts.join('').split('\n');
        const {u, d, short} = text;
        text = null;
        // Read short of its end (the budget ran out): its last line is
        // partial, and a reading with more room would tell it apart from
        // the whole line as a change. The walk stops here. A block of one
        // partial line still shows it, cut.
        if (short && lines.length > 1) lines.pop();
        const partial = short && lines.length === 1;
        for (const raw of lines) {
          const line = raw.replace(/\s+$/, '');
          if (!line.trim() || waiting || interactiveOnly) continue;
          const long = line.length > textMax;
          const rec = {u, d, r: 'text', t: long ? line.slice(0, textMax) + '…' : partial ? line + '…' : line, b: true};
          if (long || partial) rec.cu = true;
          emit(rec);
        }
        if (short && !cut) cut = {after: lastElementUid};
        lastText = null;
        return;
      }
      if (text) {
        const t = text.parts.join('').replace(SPACES, ' ').trim();
        const last = out[out.length - 1];
        const within = holderOf.get(text.u);
        // A short run in a box beside a label's box in one row ("Stars"
        // "0", a row of letter tiles) reads as one line with it. A block
        // boundary otherwise ends a text line: boxes stacked one above the
        // other never share one, and a sentence never takes a stray word.
        if (t && t.length <= 3 && last && last.r === 'text' && last.d === text.d && !cut && lastText &&
            lastText.rec === last && lastText.within === within && rows.has(within) && !/[.!?]$/.test(last.t)) {
          last.t += ' ' + t;
          chars += t.length + 1;
        } else if (t && !waiting && !interactiveOnly) {
          emit(text.cut ? {u: text.u, d: text.d, r: 'text', t: t, cu: true} : {u: text.u, d: text.d, r: 'text', t: t});
          if (out[out.length - 1] && out[out.length - 1].r === 'text') lastText = {rec: out[out.length - 1], within};
        }
        text = null;
      }
    };

    const emit = (rec) => {
      if (cut) return;
      const size = 8 + (rec.n ? rec.n.length : 0) + (rec.v ? rec.v.length : 0) + (rec.t ? rec.t.length : 0) + 2 * rec.d;
      if (chars + size > maxChars && out.length > 0) {
        cut = {after: lastElementUid};
        return;
      }
      chars += size;
      out.push(rec);
      if (INTERACTIVE.has(rec.r)) emittedInteractive++;
      if (rec.r !== 'text') lastElementUid = rec.u;
    };
    let lastElementUid = 0;

    // An element whose light tree holds nothing, but whose box has
    // content: a shadow tree rove cannot see.
    const emptyElement = (e, style) => {
      if (cut || !SHADOW_TAGS.has(e.tagName) || !unknownRoot(e) || blankTextShows(e, style)) return;
      if (boxHasContent(e, style)) suspect(e);
    };

    const visit = (node, depth, owner, parentCursor, inNamed) => {
      if (cut) return;
      if (node.nodeType === 3) {
        if (inNamed) {
          seen++;
          return; // the text is already the owner's name
        }
        // Text whose spaces and line breaks show (a code block, an
        // editor's lines) is code: each line gets a line of its own, as
        // written. A block that only wraps (a chat message) is text.
        const code = keepsBreaks(node.parentElement) &&
          (node.data.includes('\n') || !!node.parentElement.closest(CODE_HOLDERS));
        if (!text || text.u !== owner || text.d !== depth || text.code !== code) {
          flushText();
          text = {u: owner, d: depth, parts: [], len: 0, code};
        }
        const breaks = code;
        // A run longer than any view shows is cut where it is read, not
        // after: a 50 MB text node costs its prefix, not seconds. Code is
        // read no further than the walk's budget (a character past it, so
        // its lines overflow the budget and cut the walk).
        const budgetRoom = maxChars - chars + 2;
        const byBudget = breaks && !waiting && !interactiveOnly && budgetRoom < CODE_MAX;
        const room = (byBudget ? budgetRoom : breaks ? CODE_MAX : textMax) - text.len;
        if (room <= 0) {
          if (byBudget && node.length > 0) text.short = true;
          return;
        }
        const whole = node.length <= room;
        if (byBudget && !whole) text.short = true;
        if (!breaks && !whole) text.cut = true;
        const data = whole ? node.data : node.substringData(0, room) + (byBudget ? '' : '…');
        if (data.charCodeAt(0) > 32 || /\S/.test(data)) seen++;
        text.len += data.length;
        text.parts.push(breaks ? data.replace(/\r\n?/g, '\n') : data.replace(SPACES, ' '));
        return;
      }
      if (node.nodeType !== 1) {
        if (node.nodeType === 11) visitChildren(node, depth, owner, parentCursor, inNamed);
        return;
      }
      const e = node;
      seen++;
      if (SKIP_TAGS.has(e.tagName)) return;
      if (inert && inert(e)) return;
      const style = getComputedStyle(e);
      walkedStyles.set(e, style);
      if (isHidden(e, style)) {
        const p = e.parentElement;
        if (p && SHADOW_TAGS.has(p.tagName) && unknownRoot(p) && unslotted(e, style)) suspect(p);
        return;
      }
      let u = uidOf(e);
      if (waiting && u === opts.after) {
        waiting = false;
        return; // its subtree was on the previous page
      }
      if (e.tagName === 'IFRAME' || e.tagName === 'FRAME') {
        flushText();
        if (!waiting) {
          emit({u, d: depth, r: 'frame', n: nameOf(e)});
        }
        return;
      }
      if (e.tagName.includes('-') && !e.shadowRoot && !checkedHosts.has(e)) hosts.push(u);
      // A caption or legend is the name of its table or group, already on
      // the parent's line.
      if ((e.tagName === 'CAPTION' || e.tagName === 'LEGEND' || e.tagName === 'FIGCAPTION') && e.parentElement &&
          nameOf(e.parentElement).includes(clip(e.innerText, 200))) {
        flushText();
        visitChildren(e, depth, owner, style.cursor, true);
        return;
      }
      // A label's text is the name of its control, which has its own line.
      if (e.tagName === 'LABEL' && e.control && e.control.checkVisibility()) {
        flushText();
        visitChildren(e, depth, owner, style.cursor, true);
        return;
      }
      let role = roleOf(e);
      if (announcer(e, role, style)) {
        flushText();
        const said = (e.textContent || '').replace(SPACES, ' ').trim();
        // A page of a million announcers costs the walk, not the answer.
        if (announced.length < 20) announced.push({u, t: clip(said, 300)});
        return;
      }
      const display = style.display;
      // An inline-block of one line (a badge, a price, a styled word) is
      // part of the phrase around it, as a reader sees it; a taller one
      // (a card laid out beside others) is a box of its own.
      const inlineRun = display === 'inline-block' &&
        e.getBoundingClientRect().height <= 2 * (parseFloat(style.lineHeight) || 1.5 * (parseFloat(style.fontSize) || 16));
      const block = display !== 'inline' && display !== 'contents' && !inlineRun;
      // Something the user can click that the accessibility tree does not
      // call a control: a generic element becomes `clickable`; an element
      // with a role of its own (an image, a row) gets the `clickable` flag.
      const clicks = !INTERACTIVE.has(role) && isClickable(e, style, parentCursor, role);
      role = viewRole(e, role, clicks);
      // A closed details element without a name of its own is its summary
      // alone: the summary's line says collapsed, a group line would add
      // nothing.
      const transparent = TRANSPARENT.has(role) || (e.tagName === 'DETAILS' && !e.open && !nameOf(e));
      if (transparent) {
        // A block boundary ends the current text run.
        if (block) {
          flushText();
          holderOf.set(u, owner);
          inRow(e, u, style);
        }
        const before = seen;
        // Only a short label: a long one would be cut in the name it gives.
        const isLabel = labelIds.size > 0 && e.id !== '' && labelIds.has(e.id) && (e.innerText || '').length <= 150;
        visitChildren(e, depth, block ? u : owner, style.cursor, inNamed || isLabel);
        if (block) flushText();
        if (seen === before) emptyElement(e, style);
        return;
      }
      // Images without a name are decoration.
      if (GRAPHICS.has(role) && !nameOf(e)) return;
      flushText();
      const interactive = INTERACTIVE.has(role);
      // A clickable element is named by its text when it is small and holds
      // no other control; a clickable container keeps its content as lines.
      // A small clickable is named by its text (clickables nested in it still
      // get lines of their own); a clickable container keeps its content.
      const leaf = role !== 'clickable' || isSmall(e);
      let name = role === 'clickable' ? (e.getAttribute('aria-label') || e.getAttribute('title') || (leaf ? clip(e.innerText, 100) : '')) : nameOf(e);
      if (!name && interactive) name = boxNames.get(e) || '';
      u = sameThing(e, role, name, interactive, u);
      const rec = {u, d: depth, r: role};
      holderOf.set(u, owner);
      inRow(e, u, style);
      if (name) rec.n = clip(name, 200);
      else if (role === 'clickable') {
        const hint = hintOf(e);
        if (hint) rec.k = hint;
      }
      setFlags(rec, e, role, active, clicks && role !== 'clickable');
      // An editor of several lines (a code editor, a rich-text one) shows
      // its lines under its own line, as text, rather than run together
      // as one value; the interactive view, without text, keeps the value.
      const lines = !interactiveOnly && multiline(e, role);
      // Monaco draws its lines in an aria-hidden layer beside the field
      // that takes the keys: they are the editor's text, shown under it.
      const drawn = !interactiveOnly && (role === 'textbox' || role === 'searchbox') ? monacoLines(e) : null;
      const value = lines || drawn ? null : valueOf(e, role);
      if (value) rec.v = clip(value, 300);
      if (e.tagName === 'INPUT' && e.type === 'password') rec.s = true;
      if (role === 'heading') {
        const level = parseInt(e.getAttribute('aria-level') || (/^H([1-6])$/.exec(e.tagName) || [])[1] || '2', 10);
        rec.l = level;
      }
      if (role === 'link' && e.href) rec.h = e.href;
      if (e.tagName === 'SELECT') {
        const options = Array.from(e.options);
        rec.o = options.slice(0, 25).map((o) => clip(o.label || o.textContent, 60));
        if (options.length > 25) rec.c = options.length;
      }
      // Named by its content: its text is already on its line.
      const named = !!name && (NAME_FROM_CONTENT.has(role) || clip(e.innerText, 200) === rec.n);
      // A list item or cell that is clickable itself is something to act on:
      // the interactive view keeps it, named by its text.
      const clickableItem = clicks && role !== 'clickable';
      if (interactiveOnly && clickableItem && !rec.n) rec.n = clip(e.innerText, 100);
      const shown = !waiting && (!interactiveOnly || interactive || role === 'heading' || clickableItem);
      if (shown) emit(rec);
      if (shown && drawn && !waiting) for (const t of drawn) emit({u, d: depth + 1, r: 'text', t, b: true});
      // Options of a native select are listed on its own line. Inside a
      // control or a node named by its content, text is already the name; only
      // elements inside it (a link in a heading, an image in a button) remain.
      const before = out.length;
      // A cell's text is its name only while nothing inside it has a line
      // of its own: beside a link (`<a>Engineering</a>&nbsp;<em>1</em>`)
      // the row shows the cell by its lines, so its text gets lines too.
      const cell = named && !inNamed && CELLS.has(role);
      if (e.tagName !== 'SELECT') {
        const met = seen;
        visitChildren(e, shown ? depth + 1 : depth, u, style.cursor,
          inNamed || (named && !cell) || (interactive && leaf && !lines));
        if (seen === met) emptyElement(e, style);
      }
      flushText();
      if (cell && !cut && out.length > before && out.slice(before).every((r) => r.r === 'text')) {
        // Text alone: the cell's name already says it.
        for (const r of out.splice(before)) chars -= 8 + (r.t ? r.t.length : 0) + 2 * r.d;
        lastText = null;
      }
      // A container with nothing in it and nothing to say is noise; an
      // empty table cell is not: it keeps the columns after it in place.
      if (shown && !interactive && !CELLS.has(role) && !rec.n && !rec.v && !rec.f && out.length === before && out[before - 1] === rec && !cut) {
        out.pop();
        chars -= 8 + 2 * depth;
      }
    };

    // Children still to visit below NEST_MAX, innermost last; `null` while
    // the walk recurses.
    let deep = null;
    let nesting = 0;

    const visitChildren = (node, depth, owner, parentCursor, inNamed) => {
      const siblings = {node, kids: childrenOf(node), i: 0, plainUntil: 0, depth, owner, parentCursor, inNamed};
      if (deep) {
        siblings.depth = Math.min(depth, deep.depth);
        deep.push(siblings);
        return;
      }
      if (nesting >= NEST_MAX) {
        visitDeep(siblings);
        return;
      }
      nesting++;
      try {
        while (siblings.i < siblings.kids.length && !cut) visitNext(siblings);
      } finally {
        nesting--;
      }
    };

    // Visits the next of `s.kids` (or the run of like siblings it begins).
    const visitNext = (s) => {
      const {kids, depth, owner, parentCursor, inNamed} = s;
      const n = kids.length;
      const i = s.i;
      const k = kids[i];
      // Siblings before `plainUntil` belong to a run already found not to
      // collapse: scanning it again from each of them would make a long
      // run of plain spans quadratic (3,000 of them outlasted the watchdog).
      if (k.nodeType === 1 && i >= s.plainUntil && n - i >= COLLAPSE_MIN) {
        // A long run of siblings of one shape collapses to examples + count.
        const {end: j, run, count} = runFrom(kids, i, s.node);
        if (count >= COLLAPSE_MIN && COLLAPSIBLE.has(roleOf(run[0]))) {
          for (let x = 0; x < COLLAPSE_KEEP; x++) visit(run[x], depth, owner, parentCursor, inNamed);
          flushText();
          if (!waiting) emit({u: uidOf(run[COLLAPSE_KEEP]), d: depth, r: 'more', c: count - COLLAPSE_KEEP, n: roleOf(run[COLLAPSE_KEEP])});
          s.i = j;
          return;
        }
        s.plainUntil = j;
      }
      s.i = i + 1;
      visit(k, depth, owner, parentCursor, inNamed);
    };

    // The subtree below NEST_MAX, from a list instead of the stack: each
    // visit adds its element's children on top, so they come before the
    // element's next sibling, in document order.
    const visitDeep = (first) => {
      deep = [first];
      deep.depth = first.depth;
      try {
        while (deep.length && !cut) {
          const top = deep[deep.length - 1];
          if (top.i >= top.kids.length) deep.pop();
          else visitNext(top);
        }
      } finally {
        deep = null;
      }
    };

    let root = document.documentElement;
    if (opts.scope) {
      root = lookup(opts.scope);
      if (!root) return {token, gone: true};
    }
    if (root) {
      const parentCursor = opts.scope && root.parentElement ? getComputedStyle(root.parentElement).cursor : 'auto';
      visit(root, 0, 0, parentCursor, false);
    }
    flushText();
    const result = {token, records: out, hosts, announced, native, dead: reapDead(), url: location.href, title: document.title, v: version};
    if (!opts.scope) {
      result.captchas = captchas();
      const inside = captchaFrame();
      if (inside) result.captchaFrame = inside;
    }
    if (cut) {
      result.cut = cut.after;
      // About how many: counted once a document version (a huge page has
      // hundreds of thousands, each asked whether it shows).
      const total = kept('shown controls', () => {
        let n = 0;
        for (const e of allOf(INTERACTIVE_SELECTOR)) if (e.checkVisibility()) n++;
        return n;
      });
      result.moreInteractive = Math.max(0, total - emittedInteractive);
    }
    return result;
  }

  // ROVE_CAPTCHA

  // `find` and its helpers: find.js, put here when the walker is installed
  // (walker.rs).
  // ROVE_FIND

  // Words in long texts: text_match.js.
  // ROVE_TEXT_MATCH

  // `locate`, which resolves css=, role= and text= locators: locate.js.
  // ROVE_LOCATE

  globalThis.__rove = {
    token,
    native,
    walk,
    find,
    prepareFind,
    locate,
    prepareHosts,
    at,
    lookup,
    uidOf,
    captchas,
    // Marks elements with click listeners (found by rove through DOMDebugger).
    markClickable(...els) { for (const e of els) if (e) clickMarks.add(e); return els.length; },
    // Registers a closed shadow root found by rove through DOM.describeNode.
    adoptClosedRoot(host, root) { checkedHosts.add(host); if (root) closedRoots.set(host, root); },
    hostChecked(host) { checkedHosts.add(host); },
  };
})();
