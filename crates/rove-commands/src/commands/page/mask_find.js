// Where the page shows a secret: the boxes (CSS pixels, in the top
// document's page coordinates) of text and of field values that contain
// one of `values` (compared without case), in the top document, its open
// shadow roots and its same-origin frames. Run in rove's isolated world,
// so a page's replaced builtins change nothing here. Returns the boxes and
// the viewport ([scrollX, scrollY, innerWidth, innerHeight]) they were
// measured in.
(values) => {
  const wanted = values.map((v) => v.toLowerCase()).filter((v) => v.length > 0);
  const boxes = [];
  const shows = (text) => {
    if (!text) return false;
    const lower = text.toLowerCase();
    return wanted.some((v) => lower.includes(v));
  };
  const add = (rect, dx, dy) => {
    if (rect.width > 0 && rect.height > 0) {
      boxes.push([rect.left + dx, rect.top + dy, rect.width, rect.height]);
    }
  };
  // The matches in one text node, each as the boxes of its characters.
  const textBoxes = (node, dx, dy) => {
    const data = node.data;
    const lower = data.toLowerCase();
    const range = node.ownerDocument.createRange();
    if (lower.length !== data.length) {
      // Case folding changed the length: the whole node.
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) add(r, dx, dy);
      return;
    }
    for (const v of wanted) {
      let at = lower.indexOf(v);
      while (at >= 0) {
        range.setStart(node, at);
        range.setEnd(node, at + v.length);
        for (const r of range.getClientRects()) add(r, dx, dy);
        at = lower.indexOf(v, at + v.length);
      }
    }
  };
  // Text: descend only where the text shows a value; where no single
  // child holds it (split across elements), the element's box.
  const visitText = (el, dx, dy) => {
    let found = false;
    for (const child of el.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (shows(child.data)) {
          textBoxes(child, dx, dy);
          found = true;
        }
      } else if (child.nodeType === Node.ELEMENT_NODE && shows(child.textContent)) {
        visitText(child, dx, dy);
        found = true;
      }
    }
    if (!found && el.getBoundingClientRect) add(el.getBoundingClientRect(), dx, dy);
  };
  const visitRoot = (root, dx, dy, depth) => {
    if (depth > 16) return;
    const text = root.nodeType === Node.DOCUMENT_NODE
      ? root.documentElement && root.documentElement.textContent
      : root.textContent;
    if (shows(text)) {
      for (const child of root.children) {
        if (shows(child.textContent)) visitText(child, dx, dy);
      }
    }
    for (const field of root.querySelectorAll('input, textarea, select')) {
      const type = (field.getAttribute('type') || '').toLowerCase();
      if (type === 'password' || type === 'hidden') continue;
      const shown = field.tagName === 'SELECT'
        ? Array.from(field.selectedOptions, (o) => o.text).join(' ')
        : field.value;
      if (shows(shown)) add(field.getBoundingClientRect(), dx, dy);
    }
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visitRoot(el.shadowRoot, dx, dy, depth + 1);
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        let doc = null;
        try {
          doc = el.contentDocument;
        } catch (e) {
          doc = null;
        }
        if (doc && doc.documentElement) {
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          const x = box.left + el.clientLeft + parseFloat(style.paddingLeft || '0');
          const y = box.top + el.clientTop + parseFloat(style.paddingTop || '0');
          visitRoot(doc, dx + x, dy + y, depth + 1);
        }
      }
    }
  };
  if (wanted.length > 0 && document.documentElement) {
    visitRoot(document, scrollX, scrollY, 0);
  }
  return { boxes, view: [scrollX, scrollY, innerWidth, innerHeight] };
}
