// rove's flat tree, part of the walker: rove-page's walker.rs puts this
// file inside walker.js's closure (at its ROVE_FLAT_TREE line). The
// children of a node as the user sees them (shadow roots and slots
// resolved), and the evidence that an element hides a closed shadow root.
  // ---- the flat tree --------------------------------------------------------

  // Closed shadow roots are invisible to scripts, rove's included: rove asks
  // the browser for them (one element at a time), so the walker names only
  // elements that show evidence of one. Custom elements always (each is
  // asked about once); the plain elements that may carry a shadow root
  // (the DOM's list for attachShadow) when the page shows one is there:
  // a light child that the flat tree leaves out although its style shows
  // it (a shadow tree without a slot for it), or an element with nothing in
  // it whose box nevertheless has content (no size, no generated content
  // explains it). Each element is asked about once; a walk names at most
  // MAX_SUSPECTS plain ones, so a page full of odd boxes costs a few calls
  // a view, never one per node.
  const SHADOW_TAGS = new Set(['ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'DIV', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'MAIN', 'NAV', 'P', 'SECTION', 'SPAN']);
  const MAX_SUSPECTS = 32;
  const unknownRoot = (e) => !e.shadowRoot && !closedRoots.has(e) && !checkedHosts.has(e);
  const px = (v) => parseFloat(v) || 0;
  const SIZED = new Set(['height', 'min-height']);
  // A box with content though nothing in the element puts it there: no
  // size and no generated content of its own explains it.
  const boxHasContent = (e, style) => {
    const w = e.offsetWidth - px(style.paddingLeft) - px(style.paddingRight) - px(style.borderLeftWidth) - px(style.borderRightWidth);
    const h = e.offsetHeight - px(style.paddingTop) - px(style.paddingBottom) - px(style.borderTopWidth) - px(style.borderBottomWidth);
    if (w < 1 || h < 1) return false;
    const map = e.computedStyleMap();
    for (const prop of SIZED) {
      const v = map.get(prop);
      if (v && String(v) !== 'auto' && !(v.value === 0)) return false;
    }
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(e, pseudo).content;
      if (content && content !== 'none' && content !== 'normal') return false;
    }
    return true;
  };
  // Whether blank text in an element may itself take room: kept white space
  // (a `pre`), or a space inside an inline element. Only a block whose blank
  // text collapses away has no content of its own.
  const blankTextShows = (e, style) => {
    let text = false;
    for (let c = e.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) { text = true; break; }
    if (!text) return false;
    const collapse = (style.whiteSpaceCollapse || 'collapse') === 'collapse' && !/^(pre|break-spaces)/.test(style.whiteSpace);
    return !collapse || style.display.startsWith('inline');
  };
  // A hidden element that would have a box but for the flat tree: its
  // parent hosts a shadow tree with no slot for it.
  const unslotted = (e, style) => style.display !== 'none' && !e.checkVisibility();

  const childrenOf = (node) => {
    if (node.nodeType === 1) {
      const root = node.shadowRoot || closedRoots.get(node);
      if (root) return root.childNodes;
      if (node.tagName === 'SLOT') {
        const assigned = node.assignedNodes({flatten: true});
        return assigned.length ? assigned : node.childNodes;
      }
    }
    return node.childNodes;
  };
