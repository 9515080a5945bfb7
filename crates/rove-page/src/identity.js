  // rove's element identities, part of the walker: rove-page's walker.rs
  // puts this file inside walker.js's closure (at its ROVE_IDENTITY line).
  // Each element gets a uid (a ref is `e` + uid) that names it for as long
  // as it is the same thing on the page, and never another.

  // A node reported dead and then put back (a menu re-attached, a portal
  // moved) gets a new uid: its old ref stays dead, and the new one resolves.
  const uidOf = (node) => {
    let u = uids.get(node);
    if (u === undefined || !byUid.has(u)) {
      u = nextUid++;
      uids.set(node, u);
      byUid.set(u, new WeakRef(node));
    }
    return u;
  };

  const lookup = (u) => {
    const ref = byUid.get(u);
    const node = ref && ref.deref();
    return node && node.isConnected ? node : null;
  };

  // A node whose identity changed under a list that recycles its rows (a
  // row's checkbox once "Select file a.ipynb", now "Select directory b") is
  // another thing to the reader: it gets a new uid, and the old one is
  // reported dead with the gone nodes, so its ref goes stale instead of
  // naming something else. Role, and for a control inside a row its name.
  const identities = new WeakMap();
  const retired = [];
  const ROW_HOLDERS = 'tr, li, [role=row], [role=listitem], [role=option], [role=treeitem], [role=gridcell]';
  const sameThing = (e, role, name, interactive, u) => {
    const identity = interactive && e.parentElement && e.parentElement.closest(ROW_HOLDERS) ? `${role}\n${name}` : role;
    const before = identities.get(e);
    identities.set(e, identity);
    if (before === undefined || before === identity) return u;
    byUid.delete(u);
    retired.push(u);
    const fresh = nextUid++;
    uids.set(e, fresh);
    byUid.set(fresh, new WeakRef(e));
    return fresh;
  };

  // Uids whose nodes are gone; forgotten once reported.
  const reapDead = () => {
    const dead = retired.splice(0);
    for (const [u, ref] of byUid) {
      const node = ref.deref();
      if (!node || !node.isConnected) {
        dead.push(u);
        byUid.delete(u);
      }
    }
    return dead;
  };
