  // Challenges (captchas and bot walls), part of the walker: rove-page's
  // walker.rs puts this file inside walker.js's closure (at its
  // ROVE_CAPTCHA line). Each widget is known by what its vendor's script
  // leaves in the page, never by words a page could write (a login form
  // titled "Verify you are human" is no challenge): the paths of its frames,
  // its container's class, its response field, its script. Hosts are not
  // needed: every vendor's frame path is its own, so a local page at the
  // same path stands for the vendor's frame in tests.
  //
  // A finding: {u: the widget's uid (what `solve` takes), k: kind,
  // s: state, key: site key, cb: the callback the page named, fu: the uid of
  // the widget's own frame (whose document may tell more, see
  // captchaFrame)}. States: unsolved, challenge (an image challenge is
  // open), solved (the response field holds a token), passive (an invisible
  // widget: nothing for a person to do), answered (an image captcha's field
  // holds text: af is that field).

  const CAPTCHA_FRAMES = [
    ['recaptcha-challenge', /\/recaptcha\/(api2|enterprise)\/bframe/],
    ['hcaptcha-challenge', /\/captcha\/v1\/[^#]*hcaptcha\.html#(.*&)?frame=challenge/],
    ['recaptcha-v2', /\/recaptcha\/(api2|enterprise)\/anchor/],
    ['hcaptcha', /\/captcha\/v1\/[^#]*hcaptcha\.html|hcaptcha\.com\//],
    ['turnstile', /\/cdn-cgi\/challenge-platform\/[^?#]*\/turnstile\//],
    ['arkose', /\/fc\/gc\/|\/v2\/[^/]+\/enforcement\.[0-9a-f]+\.html|arkoselabs\.com\/|funcaptcha\.com\//],
  ];
  // The containers each vendor's script renders into, and the kind each is.
  const CAPTCHA_CONTAINERS = [
    ['.grecaptcha-badge', 'recaptcha-v3'],
    ['.g-recaptcha', 'recaptcha-v2'],
    ['.h-captcha', 'hcaptcha'],
    ['.cf-turnstile', 'turnstile'],
    ['#FunCaptcha, [data-pkey]', 'arkose'],
  ];
  const CONTAINER_SELECTOR = CAPTCHA_CONTAINERS.map(([s]) => s).join(', ');
  // Where each kind's token lands (hCaptcha also writes a
  // g-recaptcha-response field: its container decides the kind).
  const RESPONSE_FIELDS = {
    'recaptcha-v2': '[name="g-recaptcha-response"], #g-recaptcha-response',
    'recaptcha-v3': '[name="g-recaptcha-response"], #g-recaptcha-response',
    hcaptcha: '[name="h-captcha-response"]',
    turnstile: '[name="cf-turnstile-response"]',
    arkose: '#FunCaptcha-Token, [name="fc-token"]',
    'cloudflare-interstitial': '[name="cf-turnstile-response"]',
  };
  const FIELD_SELECTOR = [...new Set(Object.values(RESPONSE_FIELDS))].join(', ');
  // Image challenges open in a frame of their own, apart from the widget:
  // which widget kind each belongs to.
  const CHALLENGE_OF = {'recaptcha-challenge': 'recaptcha-v2', 'hcaptcha-challenge': 'hcaptcha'};
  // A generic image challenge: an image and a field that both say captcha
  // in their markup (source, id, class, name), never in their text.
  const CAPTCHA_WORD = /captcha/i;

  const frameKind = (src) => {
    for (const [kind, path] of CAPTCHA_FRAMES) if (path.test(src || '')) return kind;
    return null;
  };
  const containerKind = (e) => {
    for (const [selector, kind] of CAPTCHA_CONTAINERS) if (e.matches(selector)) return kind;
    return null;
  };
  const shown = (e) => e.checkVisibility({checkVisibilityCSS: true}) &&
    e.getBoundingClientRect().width > 0;
  const param = (src, name) => {
    const m = (src || '').match(new RegExp('[?&#]' + name + '=([^&#]*)'));
    if (!m) return null;
    // A malformed escape in a page's frame address is the page's, not a
    // reason to fail its view.
    try { return decodeURIComponent(m[1]); } catch (e) { return m[1]; }
  };

  // What the Cloudflare interstitial leaves: its challenge script's path or
  // its options object, with its own elements or its title.
  const interstitialRoot = () => {
    // A wall stands in front of a whole site: in a frame it is some other
    // site's page (an advert's), not this one's.
    if (window !== window.top) return null;
    const scripted = kept('interstitial script', () => [...document.scripts].some((s) =>
      (s.src && s.src.includes('/cdn-cgi/challenge-platform/')) || (s.textContent || '').includes('_cf_chl_opt')));
    if (!scripted) return null;
    const own = allOf('#challenge-stage, #challenge-form, #cf-challenge-running, #challenge-running')[0];
    if (!own && !/^just a moment/i.test(document.title)) return null;
    return own || document.body;
  };

  const captchas = () => {
    const found = new Map();
    const add = (root, kind) => {
      let f = found.get(root);
      if (!f) {
        f = {root, k: kind, frame: null, field: null};
        found.set(root, f);
      }
      return f;
    };
    const interstitial = interstitialRoot();
    if (interstitial) add(interstitial, 'cloudflare-interstitial');
    // The open image challenges (each a frame of its own at the body's
    // end, hidden until its widget asks for it), by widget kind.
    const open = {};
    for (const c of allOf(CONTAINER_SELECTOR)) add(c, containerKind(c));
    for (const frame of allOf('iframe')) {
      const kind = frameKind(frame.src);
      if (!kind) continue;
      if (CHALLENGE_OF[kind]) {
        if (shown(frame)) (open[CHALLENGE_OF[kind]] = open[CHALLENGE_OF[kind]] || []).push(frame);
        continue;
      }
      const container = frame.closest(CONTAINER_SELECTOR);
      let kindHere = container ? containerKind(container) : kind;
      if (kind === 'recaptcha-v2' && param(frame.src, 'size') === 'invisible') kindHere = 'recaptcha-v3';
      const f = add(interstitial && kind === 'turnstile' ? interstitial : container || frame, kindHere);
      f.frame = f.frame || frame;
    }
    for (const field of allOf(FIELD_SELECTOR)) {
      const container = field.closest(CONTAINER_SELECTOR);
      let f = container && found.get(container);
      if (!f) {
        // A field outside any container: the only widget of its kind.
        const kind = Object.keys(RESPONSE_FIELDS).find((k) => field.matches(RESPONSE_FIELDS[k]));
        f = [...found.values()].find((x) => field.matches(RESPONSE_FIELDS[x.k] || ''));
        if (!f) f = add(field.parentElement || field, kind);
      }
      f.field = f.field || field;
    }
    // A widget's open challenge: the one whose address names the widget's
    // id as its own frame's does (hCaptcha's `id=`); the first, where
    // addresses name none (reCAPTCHA's).
    const challengeOf = (f) => {
      const frames = open[f.k] || [];
      const id = f.frame && param(f.frame.src, 'id');
      if (id) return frames.find((c) => param(c.src, 'id') === id) || null;
      return frames[0] || null;
    };
    const results = [];
    for (const f of found.values()) {
      const key = f.root.getAttribute('data-sitekey') || f.root.getAttribute('data-pkey') ||
        (f.frame && (param(f.frame.src, 'k') || param(f.frame.src, 'sitekey') || param(f.frame.src, 'pk'))) || null;
      const solved = f.field && f.field.value && f.field.value.trim() !== '';
      let state = 'unsolved';
      if (solved) state = 'solved';
      else if (f.k === 'recaptcha-v3') state = 'passive';
      else if (challengeOf(f)) state = 'challenge';
      const r = {u: uidOf(f.root), k: f.k, s: state, key};
      if (f.frame) r.fu = uidOf(f.frame);
      const cb = f.root.getAttribute('data-callback');
      if (cb) r.cb = cb;
      if (state === 'challenge') {
        const frame = challengeOf(f);
        r.cu = uidOf(frame);
        // One open challenge answers one widget.
        open[f.k] = open[f.k].filter((c) => c !== frame);
      }
      results.push(r);
    }
    const image = genericImageChallenge(found);
    if (image) results.push(image);
    return results;
  };

  // The fields a captcha's text is typed into.
  const TEXT_FIELDS = 'textarea, input:not([type]), input[type=text], input[type=search], input[type=tel], input[type=url], input[type=email], input[type=number]';

  // An image whose markup says captcha, with a text field whose markup
  // says so too, outside any vendor's widget.
  const genericImageChallenge = (found) => {
    if (found.size) return null;
    // Which images and fields say so is a matter of attributes, kept until
    // the document changes; whether an image shows is read each time.
    const img = kept('captcha images', () => allOf('img, canvas').filter((e) =>
      CAPTCHA_WORD.test([e.getAttribute('src'), e.id, e.getAttribute('class'), e.getAttribute('alt')].join(' '))))
      .find(shown);
    if (!img) return null;
    // A field text is typed into, shown, and the one nearest the image: in
    // its form when it has one.
    const fields = kept('captcha fields', () => allOf(TEXT_FIELDS).filter((e) =>
      CAPTCHA_WORD.test([e.name, e.id, e.getAttribute('class'), e.getAttribute('autocomplete')].join(' '))))
      .filter(shown);
    const form = img.closest('form');
    const field = fields.find((e) => form && e.form === form) || (form ? null : fields[0]);
    if (!field) return null;
    // What the field holds is an answer the page checks only when its form
    // is sent: `answered`, never `solved`.
    const answered = field.value.trim() !== '';
    return {u: uidOf(img), k: 'image', s: answered ? 'answered' : 'unsolved', key: null, af: uidOf(field)};
  };

  // Inside a widget's own frame: what its checkbox says (checked, or its
  // token expired), which the page holding the frame cannot read; inside an
  // image challenge's frame, its tiles (row by row), its button and what it
  // asks, which `solve` sends to a solver and clicks as it answers.
  const TILES = '.rc-imageselect-tile, .task-image, .task';
  const captchaFrame = () => {
    const kind = frameKind(location.href);
    if (CHALLENGE_OF[kind]) {
      const tiles = [...document.querySelectorAll(TILES)].filter(shown);
      if (!tiles.length) return null;
      const verify = document.querySelector('#recaptcha-verify-button, .button-submit');
      const asks = document.querySelector('.rc-imageselect-desc, .rc-imageselect-desc-no-canonical, .prompt-text');
      const rows = new Set(tiles.map((t) => Math.round(t.getBoundingClientRect().top))).size;
      const r = {k: CHALLENGE_OF[kind], s: 'challenge', tiles: tiles.map(uidOf), rows, cols: Math.ceil(tiles.length / rows)};
      if (verify) r.verify = uidOf(verify);
      if (asks) r.text = asks.textContent.replace(SPACES, ' ').trim();
      return r;
    }
    if (kind !== 'recaptcha-v2' && kind !== 'hcaptcha') return null;
    const box = document.querySelector('#recaptcha-anchor, #checkbox');
    if (!box) return null;
    const expired = box.classList.contains('recaptcha-checkbox-expired') ||
      !!document.querySelector('.rc-anchor-expired, [data-expired="true"]');
    return {k: kind, s: expired ? 'expired' : box.getAttribute('aria-checked') === 'true' ? 'solved' : 'unsolved'};
  };
