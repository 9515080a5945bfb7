// Called on an input whose value a native picker sets (date, time,
// datetime-local, month, week, color), in rove's isolated world.
// The browser's own reading of the wanted value comes first, from a scratch
// input of the same type and limits the page never sees: a value it reads
// differently is refused before the field is touched. Otherwise the field is
// focused, given the value through its setter, and told as a picker would
// tell it (`input`, then `change`).
// Resolves with {state: 'ok', reads} or {state: 'format' | 'limits', min,
// max} or {state: 'detached'}.
function (wanted) {
  const el = this;
  if (!el.isConnected) return {state: 'detached'};
  const scratch = el.ownerDocument.createElement('input');
  scratch.type = el.type;
  for (const a of ['min', 'max', 'step']) if (el.hasAttribute(a)) scratch.setAttribute(a, el.getAttribute(a));
  scratch.value = wanted;
  const reads = scratch.value;
  if (el.type === 'color') {
    if (!/^#[0-9a-fA-F]{6}$/.test(wanted)) return {state: 'format'};
  } else if (wanted !== '' && reads === '') {
    return {state: 'format'};
  } else if (scratch.validity.rangeUnderflow || scratch.validity.rangeOverflow) {
    // A picker offers nothing outside the input's limits.
    return {state: 'limits', min: el.getAttribute('min') || '', max: el.getAttribute('max') || ''};
  }
  el.focus({preventScroll: true});
  el.value = wanted;
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return {state: 'ok', reads};
}
