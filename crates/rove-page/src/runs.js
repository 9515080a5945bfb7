// Runs of like siblings, part of the walker: rove-page's walker.rs puts
// this file inside walker.js's closure (at its ROVE_RUNS line). A long run
// of siblings of one shape (the rows of a table, the items of a feed) is
// shown as its first COLLAPSE_KEEP and a count.
  const COLLAPSE_MIN = 30;
  const COLLAPSE_KEEP = 10;
  const shapeKey = (e) => e.tagName + '|' + (e.getAttribute('role') || '') + '|' + (e.getAttribute('class') || '');
  // Items of a listing collapse; sections of a document do not (a long
  // article is read on with paging, not summarised).
  const COLLAPSIBLE = new Set(['row', 'listitem', 'option', 'treeitem', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'gridcell', 'cell', 'article', 'link', 'button', 'img', 'image', 'figure']);

  // The run of siblings of one shape that begins at `kids[i]`: where it
  // ends, its first COLLAPSE_KEEP + 1 elements and how many it holds.
  // Kept per child list while the document is unchanged: a table of
  // 100,000 rows is scanned once, not at every view and diff. Only in
  // the document's own tree: changes inside a shadow tree reach no
  // observer of the document.
  const runFrom = (kids, i, node) => {
    const runEnds = kept('run ends', () => new WeakMap());
    let ends = runEnds.get(kids);
    if (!ends && node.nodeType === 1 && !node.shadowRoot && !closedRoots.has(node) && node.getRootNode() === document) {
      ends = new Map();
      runEnds.set(kids, ends);
    }
    let found = ends && ends.get(i);
    if (found) return found;
    const key = shapeKey(kids[i]);
    const n = kids.length;
    const run = [];
    let count = 0;
    let j = i;
    for (; j < n; j++) {
      const k = kids[j];
      if (k.nodeType !== 1) continue;
      if (j > i && shapeKey(k) !== key) break;
      if (count <= COLLAPSE_KEEP) run.push(k);
      count++;
    }
    found = {end: j, run, count};
    if (ends) ends.set(i, found);
    return found;
  };

