// rove's matching of words in long texts, part of the walker: rove-page's
// walker.rs puts this file inside walker.js's closure (at its
// ROVE_TEXT_MATCH line, after find.js, whose `matchable`, `GAP` and
// `squeezed` it uses). A long text (a log, a dump, a whole table's text)
// is never made matchable whole: its words' letters, as a pattern, find
// where they may be natively, and each place is checked where it is.
  // Where a search for more matches of a pattern goes on: past the first
  // character of match `m`, a whole one (a `u` pattern set inside a pair of
  // surrogates matches at its start again).
  const past = (m) => m.index + (m[0].codePointAt(0) > 0xFFFF ? 2 : 1);

  // A pattern of the letters of `want` (words `squeezed`) in order,
  // anything `squeezed` drops between them, any case: it matches wherever
  // a text `matchable` makes hold the words, and in a few places more.
  const lettersOf = (want) => {
    // (Only syntax characters are escaped: a `u` pattern refuses `\-`.)
    const letters = Array.from(want).map((c) => c.replace(/[\\^$.*+?()[\]{}|\/]/g, '\\$&'));
    // `İ` lower-cased is two letters, which no `i` pattern matches one by one.
    for (let i = letters.length - 2; i >= 0; i--) {
      if (letters[i] === 'i' && letters[i + 1] === '\u0307') letters.splice(i, 2, '(?:\u0130|i\u0307)');
    }
    return new RegExp(letters.join(GAP + '*'), 'giu');
  };

  // Whether `raw`, made `matchable`, holds `needle`: null if not, else
  // where: the first match's letters in `raw`, or `SHORT` when that was
  // not worked out (a short text, made matchable whole). A long text (a
  // log, a dump) is not made matchable whole: on a 1 MB log those passes
  // held the page 30-60 ms.
  const holding = (raw, needle) => {
    if (raw.length <= LONG_TEXT || !needle.replace(/ /g, '')) return matchable(raw).includes(needle) ? SHORT : null;
    return firstHit(raw, needle);
  };
  // The words' letters' pattern finds candidates natively, and each is
  // checked with the characters `squeezed` drops around it (a space the
  // words start or end with may lie past any run of invisibles); after
  // `CANDIDATES_MAX` that fail (words whose letters are everywhere but
  // spaced otherwise), the whole text is checked (`SHORT`).
  const firstHit = (raw, needle) => {
    const want = needle.replace(/ /g, '');
    if (!want) return matchable(raw).includes(needle) ? SHORT : null;
    const pattern = lettersOf(want);
    const lead = needle.startsWith(' ') ? 1 : 0;
    let tried = 0;
    for (let m = pattern.exec(raw); m; m = pattern.exec(raw)) {
      const end = m.index + m[0].length;
      // The words start at this match's first letter, a space before it
      // if they start with one; a character on each side closes a run.
      const before = matchable(raw.slice(Math.max(0, gapBefore(raw, m.index) - 2), m.index));
      const at = before.length - lead;
      if (at >= 0 && (before + matchable(raw.slice(m.index, gapAfter(raw, end) + 2))).startsWith(needle, at)) return [m.index, end];
      if (++tried > CANDIDATES_MAX) return matchable(raw).includes(needle) ? SHORT : null;
      pattern.lastIndex = past(m);
    }
    return null;
  };
  // Where the run of characters `squeezed` drops that ends at `i` starts,
  // and where the one that starts at `j` ends, read a window at a time (a
  // window never ends inside a pair of surrogates: tag characters are
  // pairs).
  const gapBefore = (raw, i) => {
    for (;;) {
      let from = Math.max(0, i - WINDOW_PAD);
      if (from > 0 && LOW_SURROGATE.test(raw[from])) from--;
      const m = GAP_AT_END.exec(raw.slice(from, i));
      const run = m ? m[0].length : 0;
      if (!run || i - run > from || from === 0) return i - run;
      i -= run;
    }
  };
  const gapAfter = (raw, j) => {
    for (;;) {
      let to = Math.min(raw.length, j + WINDOW_PAD);
      if (to < raw.length && HIGH_SURROGATE.test(raw[to - 1])) to++;
      const m = GAP_AT_START.exec(raw.slice(j, to));
      const run = m ? m[0].length : 0;
      if (!run || j + run < to || to === raw.length) return j + run;
      j += run;
    }
  };
  const GAP_AT_END = new RegExp(GAP + '+$', 'u');
  const GAP_AT_START = new RegExp('^' + GAP + '+', 'u');
  const LOW_SURROGATE = /[\uDC00-\uDFFF]/;
  const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
  const SHORT = [0, 0];
  const LONG_TEXT = 4096;
  const WINDOW_PAD = 64;
  const CANDIDATES_MAX = 1000;

  // What a text match shows: in a block that keeps its line breaks (a
  // log, code) the line holding the words; else a long text from a little
  // before them, so the match is in the part a result line keeps. `hit` is
  // `holding`'s answer.
  const around = (e, raw, hit, needle) => {
    const [start, end] = hit;
    if (hit === SHORT) return aroundText(e, raw.replace(SPACES, ' ').trim(), needle);
    if (keepsBreaks(e)) {
      const from = raw.lastIndexOf('\n', start) + 1;
      const to = raw.indexOf('\n', end);
      const line = raw.slice(from, to < 0 ? raw.length : to);
      if (matchable(line).includes(needle)) return line.replace(SPACES, ' ').trim();
    }
    const from = start > 80 ? start - 60 : 0;
    return (from ? '…' : '') + raw.slice(from, end + 4 * 200).replace(SPACES, ' ').trim();
  };
  const aroundText = (e, text, needle) => {
    if (keepsBreaks(e)) {
      const line = (e.textContent || '').split('\n').find((l) => matchable(l).includes(needle));
      if (line) return line.replace(SPACES, ' ').trim();
    }
    if (text.length <= 200) return text;
    // Where in `text` itself: invisibles `matchable` leaves out are still in it.
    const hit = firstHit(text, needle);
    const at = hit ? hit[0] : 0;
    return at > 80 ? '…' + text.slice(at - 60) : text;
  };
