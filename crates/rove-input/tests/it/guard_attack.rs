//! The click guard (`click_guard.js`, `guard.rs`) as a hostile or unusual
//! page meets it: each test is a page that tries to make a click by ref lie
//! (report the target clicked when the press went elsewhere, or not sent
//! when the page saw it), hang, block later input, or fail a legitimate
//! click.

use crate::support;

use std::time::Duration;

use rove_errors::{ActionSent, Classify, ErrorCode};
use rove_input::{Button, ClickOptions, Point, PointerStep, click};
use rove_page::{PageModel, ViewOptions};
use serde_json::Value;
use support::{TwoSites, find};

async fn view(model: &mut PageModel) {
    model.view(&ViewOptions::default()).await.expect("view");
}

async fn eval(model: &PageModel, js: &str) -> Value {
    model.tab().evaluate(js).await.expect(js)
}

/// Waits until `js` is true in the page (up to 5 s).
async fn until(model: &PageModel, js: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while eval(model, js).await != Value::Bool(true) {
        assert!(std::time::Instant::now() < deadline, "never: {js}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn short() -> ClickOptions {
    ClickOptions {
        timeout: Duration::from_millis(400),
        ..ClickOptions::default()
    }
}

const REWRITTEN: &str = r#"<!doctype html><title>Before</title>
<script>
  // A page that writes itself after its load (an old ad script, a
  // document.write template): document.open() keeps the window but erases
  // every listener on it, rove's isolated world's included.
  addEventListener('load', () => setTimeout(() => {
    document.open();
    document.write('<!doctype html><title>Rewritten</title><button id=b style="width:200px;height:50px" onclick="window.clicks=(window.clicks||0)+1">Rewritten</button>');
    document.close();
  }, 0));
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_that_rewrites_itself_after_load_is_still_clickable() {
    let env = TwoSites::start(&[("/rewritten.html", REWRITTEN)]).await;
    let mut model = env.open("/rewritten.html").await;
    until(&model, "document.title === 'Rewritten'").await;
    view(&mut model).await;
    let b = find(&mut model, "Rewritten", Some("button")).await;
    let result = click(&mut model, b, &ClickOptions::default()).await;
    let clicks = eval(&model, "window.clicks || 0").await;
    assert_eq!(clicks, 1, "the page saw no click: {result:?}");
    result.expect("the button took the click, and rove must say so");
    env.browser.close().await;
}

const WRITTEN_FRAME: &str = r#"<!doctype html><title>Written frame</title>
<iframe id=f style="width:320px;height:120px;border:0"></iframe>
<script>
  // An editor or ad that writes its frame's document (document.open on the
  // frame's initial about:blank).
  window.clicks = 0;
  const d = document.getElementById('f').contentDocument;
  d.open();
  d.write('<!doctype html><body style="margin:0"><button style="width:200px;height:50px" onclick="parent.clicks++">Written</button>');
  d.close();
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_in_a_frame_the_parent_wrote_is_clickable() {
    let env = TwoSites::start(&[("/written.html", WRITTEN_FRAME)]).await;
    let mut model = env.open("/written.html").await;
    view(&mut model).await;
    let b = find(&mut model, "Written", Some("button")).await;
    let result = click(&mut model, b, &ClickOptions::default()).await;
    let clicks = eval(&model, "window.clicks").await;
    assert_eq!(clicks, 1, "the page saw no click: {result:?}");
    result.expect("the button took the click, and rove must say so");
    env.browser.close().await;
}

const SLOW_HOVER: &str = r#"<!doctype html><title>Slow hover</title>
<style>
  body { margin: 0; }
  .row { position: relative; width: 240px; height: 50px; margin: 20px; }
  button { width: 240px; height: 50px; }
  #cover { position: absolute; left: 0; top: 0; width: 240px; height: 50px; display: none; background: #eee; }
</style>
<div class="row"><button id="buy">Buy</button><div id="cover" onclick="window.covers++">Sponsored</div></div>
<script>
  window.covers = 0;
  window.pressed = 0;
  document.getElementById('buy').addEventListener('click', () => window.pressed++);
  // Hovering draws a cover, then keeps the page busy past the guard's
  // 10 s (click_guard.js, GUARD_MS).
  document.getElementById('buy').addEventListener('mouseenter', () => {
    document.getElementById('cover').style.display = 'block';
    const until = performance.now() + 10300;
    while (performance.now() < until) {}
  });
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_held_back_past_the_guards_time_is_not_reported_as_on_the_target() {
    let env = TwoSites::start(&[("/slow.html", SLOW_HOVER)]).await;
    let mut model = env.open("/slow.html").await;
    view(&mut model).await;
    let buy = find(&mut model, "Buy", Some("button")).await;
    let result = click(&mut model, buy, &ClickOptions::default()).await;
    let saw = eval(&model, "({covers: window.covers, pressed: window.pressed})").await;
    // The press came after the guard lapsed and went to the cover,
    // unjudged: no click on Buy, and the answer says the input was sent.
    let err = result.expect_err("not a click on Buy");
    assert_eq!(err.code(), ErrorCode::StaleState, "{err}");
    assert_eq!(err.action_sent(), ActionSent::PossiblySent, "{err}");
    assert_eq!(saw, serde_json::json!({"covers": 1, "pressed": 0}));
    env.browser.close().await;
}

const ALERT_HOVER: &str = r#"<!doctype html><title>Alert hover</title>
<style>
  body { margin: 0; }
  .row { position: relative; width: 240px; height: 50px; margin: 20px; }
  button { width: 240px; height: 50px; }
  #cover { position: absolute; left: 0; top: 0; width: 240px; height: 50px; display: none; background: #eee; }
</style>
<div class="row"><button id="buy">Buy</button><div id="cover" onclick="window.covers++">Sponsored</div></div>
<script>
  window.covers = 0;
  window.pressed = 0;
  document.getElementById('buy').addEventListener('click', () => window.pressed++);
  window.seen = [];
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    addEventListener(type, (e) => window.seen.push(type + ':' + (e.target.id || e.target.localName)), true);
  }
  document.getElementById('buy').addEventListener('mouseenter', () => {
    document.getElementById('cover').style.display = 'block';
    alert('Welcome!');
  });
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dialog_opened_by_hovering_does_not_let_the_press_land_later_on_a_cover() {
    let env = TwoSites::start(&[("/alert.html", ALERT_HOVER)]).await;
    let mut model = env.open("/alert.html").await;
    view(&mut model).await;
    let buy = find(&mut model, "Buy", Some("button")).await;
    let result = click(&mut model, buy, &ClickOptions::default()).await;
    model
        .tab()
        .send(&rove_cdp::protocol::page::HandleJavaScriptDialog {
            accept: true,
            prompt_text: None,
        })
        .await
        .expect("accept");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let saw = eval(
        &model,
        "({covers: window.covers, pressed: window.pressed, seen: window.seen})",
    )
    .await;
    assert_eq!(
        saw["covers"], 0,
        "the press landed on the cover after the dialog closed; rove said {result:?}"
    );
    // The press waited behind the dialog and met the guard after it: not
    // on the cover. (rove's answer cannot tell whether it reached Buy: the
    // guard cannot be asked while the dialog blocks the page; the answer
    // reports the dialog.)
    let _ = result;
    // A click at a point, after the dialog: nothing of the first click's
    // stands in its way (the guard it armed was never asked, and stops
    // every gesture until its 5 s run out: most runs swallow this click).
    pointer_click(&model, Point { x: 140.0, y: 45.0 }).await;
    let later = eval(&model, "window.seen").await;
    assert_ne!(
        later,
        serde_json::json!([]),
        "the later click never reached the page"
    );
    env.browser.close().await;
}

const TINY: &str = r#"<!doctype html><title>Tiny</title>
<style> body { margin: 0; } </style>
<button id="tiny" aria-label="Tiny" style="position:absolute;left:10px;top:10px;width:0.6px;height:0.6px;padding:0;border:0;min-width:0;min-height:0"></button>
<button id="big" style="position:absolute;left:100px;top:100px;width:200px;height:50px" onclick="window.bigs++">Big</button>
<script> window.bigs = 0; </script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_that_fails_after_arming_leaves_no_guard_for_the_next_input() {
    let env = TwoSites::start(&[("/tiny.html", TINY)]).await;
    let mut model = env.open("/tiny.html").await;
    view(&mut model).await;
    let tiny = find(&mut model, "Tiny", Some("button")).await;
    let result = click(&mut model, tiny, &short()).await;
    assert!(result.is_err(), "{result:?}");
    // A click at a point right after: nothing of the first click's must
    // stand in its way.
    pointer_click(&model, Point { x: 200.0, y: 125.0 }).await;
    assert_eq!(
        eval(&model, "window.bigs").await,
        1,
        "a click at Big's point never reached the page"
    );
    env.browser.close().await;
}

/// A plain left click at a point (rove's click by coordinates).
async fn pointer_click(model: &PageModel, at: Point) {
    rove_input::pointer(
        model.tab(),
        &[
            PointerStep::Move(at),
            PointerStep::Press {
                at,
                button: Button::Left,
                count: 1,
            },
            PointerStep::Release {
                at,
                button: Button::Left,
                count: 1,
            },
        ],
        0,
        rove_input::Modifiers::default(),
    )
    .await
    .expect("pointer click");
}

const SHADOW_FRAME: &str = r#"<!doctype html><title>Shadow frame</title>
<style> body { margin: 0; } </style>
<div id="open" role="button" aria-label="Open player" tabindex="0" style="display:block;width:300px;height:100px;margin:10px"></div>
<div id="closed" role="button" aria-label="Closed player" tabindex="0" style="display:block;width:300px;height:100px;margin:10px"></div>
<script>
  // A widget (an embedded player) whose content is a frame in its shadow
  // tree: the press goes into that frame, which is the widget's own.
  window.frameClicks = 0;
  addEventListener('message', (e) => { if (e.data === 'clicked') window.frameClicks++; });
  for (const [id, mode] of [['open', 'open'], ['closed', 'closed']]) {
    const root = document.getElementById(id).attachShadow({mode});
    root.innerHTML = '<iframe style="width:300px;height:100px;border:0" srcdoc="<body style=\'margin:0\' onclick=\'parent.postMessage(&quot;clicked&quot;, &quot;*&quot;)\'><div style=\'height:100px\'>Play</div>"></iframe>';
  }
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_widget_whose_frame_is_in_its_shadow_tree_is_clickable() {
    let env = TwoSites::start(&[("/shadow-frame.html", SHADOW_FRAME)]).await;
    let mut model = env.open("/shadow-frame.html").await;
    view(&mut model).await;
    for (name, n) in [("Open player", 1), ("Closed player", 2)] {
        let player = find(&mut model, name, Some("button")).await;
        let result = click(&mut model, player, &ClickOptions::default()).await;
        until(&model, &format!("window.frameClicks >= {n}")).await;
        result.unwrap_or_else(|e| panic!("{name}: the press reached its frame, yet rove says {e}"));
    }
    env.browser.close().await;
}

const OVERRIDES: &str = r#"<!doctype html><html><head><title>Overrides</title>
<script>
  // The page's first script breaks everything the guard could lean on in
  // the main world, and listens before anything else of its own.
  window.seen = [];
  window.covers = 0;
  window.pressed = 0;
  const add = EventTarget.prototype.addEventListener;
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    add.call(window, type, (e) => window.seen.push(type), true);
  }
  EventTarget.prototype.addEventListener = function () {};
  Event.prototype.stopImmediatePropagation = function () {};
  Event.prototype.stopPropagation = function () {};
  Event.prototype.preventDefault = function () {};
  Document.prototype.elementFromPoint = function () { return document.getElementById('buy'); };
  ShadowRoot.prototype.elementFromPoint = Document.prototype.elementFromPoint;
  Node.prototype.getRootNode = function () { return document; };
  Element.prototype.matches = function () { return false; };
  Object.defineProperty(Event.prototype, 'isTrusted', {get() { return false; }});
  Object.defineProperty(MouseEvent.prototype, 'clientX', {get() { return 1; }});
  performance.now = () => 0;
</script>
<style>
  body { margin: 0; }
  .row { position: relative; width: 240px; height: 50px; margin: 20px; }
  button { width: 240px; height: 50px; }
  #cover { position: absolute; left: 0; top: 0; width: 240px; height: 50px; display: none; background: #eee; }
</style></head>
<body>
<div class="row"><button id="buy" onmouseenter="document.getElementById('cover').style.display='block'" onclick="window.pressed++">Buy</button><div id="cover" onclick="window.covers++">Sponsored</div></div>
<div class="row"><button id="ok" onclick="window.pressed++">Fine</button></div>
</body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_breaks_the_main_worlds_builtins_cannot_blind_the_guard() {
    let env = TwoSites::start(&[("/overrides.html", OVERRIDES)]).await;
    let mut model = env.open("/overrides.html").await;
    view(&mut model).await;
    let buy = find(&mut model, "Buy", Some("button")).await;
    let err = click(&mut model, buy, &short())
        .await
        .expect_err("covered on hover");
    assert_eq!(err.code(), ErrorCode::NotActionable, "{err}");
    assert_eq!(err.action_sent(), ActionSent::NotSent, "{err}");
    let saw = eval(
        &model,
        "({seen: window.seen, covers: window.covers, pressed: window.pressed})",
    )
    .await;
    assert_eq!(
        saw,
        serde_json::json!({"seen": [], "covers": 0, "pressed": 0}),
        "{saw}"
    );
    let fine = find(&mut model, "Fine", Some("button")).await;
    click(&mut model, fine, &ClickOptions::default())
        .await
        .expect("a plain click");
    assert_eq!(eval(&model, "window.pressed").await, 1);
    env.browser.close().await;
}

const FRAMED_CARD: &str = r#"<!doctype html><title>Framed card</title>
<style>
  body { margin: 0; }
  #card { position: relative; display: block; width: 300px; height: 150px; margin: 20px; background: #def; }
  #like { position: absolute; right: 0; bottom: 0; width: 20px; height: 20px; border: 0; }
  #ad { position: absolute; left: 20px; top: 20px; width: 300px; height: 150px; border: 0; display: none; }
</style>
<div id="card" role="button" aria-label="Card" tabindex="0" onclick="window.cards++">A card<iframe id="like" srcdoc="<body>+1"></iframe></div>
<iframe id="ad" src="/ad.html"></iframe>
<script>
  // The card holds a small frame of its own (a like button) in a corner;
  // hovering it draws an ad frame, not inside the card, over its centre.
  window.cards = 0;
  window.ads = 0;
  addEventListener('message', (e) => { if (e.data === 'ad') window.ads++; });
  document.getElementById('card').addEventListener('mouseenter', () => {
    document.getElementById('ad').style.display = 'block';
  });
</script>"#;

const AD: &str = r#"<!doctype html><body style="margin:0" onmousedown="parent.postMessage('ad', '*')"><div style="height:150px;background:#fed">Ad</div>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_drawn_over_a_target_that_holds_another_frame_is_no_click_on_it() {
    let env = TwoSites::start(&[("/card.html", FRAMED_CARD), ("/ad.html", AD)]).await;
    let mut model = env.open("/card.html").await;
    view(&mut model).await;
    let card = find(&mut model, "Card", Some("button")).await;
    let result = click(&mut model, card, &ClickOptions::default()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let saw = eval(&model, "({cards: window.cards, ads: window.ads})").await;
    // The ad's frame took the press; the card's own small frame elsewhere
    // makes it no click on the card.
    let err = result.expect_err("not a click on the card");
    assert_eq!(err.code(), ErrorCode::StaleState, "{err}");
    assert_eq!(err.action_sent(), ActionSent::PossiblySent, "{err}");
    assert_eq!(saw, serde_json::json!({"cards": 0, "ads": 1}));
    env.browser.close().await;
}

const BUTTONS_COVER: &str = r#"<!doctype html><title>Buttons</title>
<style>
  body { margin: 0; }
  .row { position: relative; width: 240px; height: 50px; margin: 20px; }
  button { width: 240px; height: 50px; }
  #cover { position: absolute; left: 0; top: 0; width: 240px; height: 50px; display: none; background: #eee; }
</style>
<div class="row"><button id="t">Target</button><div id="cover">Menu</div></div>
<script>
  window.seen = [];
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu', 'selectstart', 'dragstart', 'focusin']) {
    addEventListener(type, (e) => window.seen.push(type + ':' + (e.target.id || e.target.localName)), true);
  }
  document.getElementById('t').addEventListener('mouseenter', () => {
    document.getElementById('cover').style.display = 'block';
  });
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_right_and_middle_presses_on_a_hover_cover_are_all_stopped() {
    let env = TwoSites::start(&[("/buttons.html", BUTTONS_COVER)]).await;
    let mut model = env.open("/buttons.html").await;
    view(&mut model).await;
    let target = find(&mut model, "Target", Some("button")).await;
    for (what, opts) in [
        (
            "double",
            ClickOptions {
                count: 2,
                ..short()
            },
        ),
        (
            "right",
            ClickOptions {
                button: Button::Right,
                ..short()
            },
        ),
        (
            "middle",
            ClickOptions {
                button: Button::Middle,
                ..short()
            },
        ),
    ] {
        let err = click(&mut model, target, &opts)
            .await
            .expect_err("covered on hover");
        assert_eq!(err.code(), ErrorCode::NotActionable, "{what}: {err}");
        assert_eq!(err.action_sent(), ActionSent::NotSent, "{what}: {err}");
        let seen = eval(&model, "window.seen").await;
        assert_eq!(seen, serde_json::json!([]), "{what}: {seen}");
    }
    env.browser.close().await;
}

const FRAMES: &str = r#"<!doctype html><title>Frames</title>
<style> body { margin: 0; } iframe { display: block; width: 320px; height: 90px; border: 0; margin: 10px; } </style>
<iframe id="blank"></iframe>
<iframe id="js" src="javascript:'<body style=margin:0><button style=width:200px;height:50px onclick=parent.clicks++>JS URL</button>'"></iframe>
<iframe id="oop" src="http://localhost:PORT/inner-cover.html"></iframe>
<iframe id="zoomed" style="transform: scale(0.7) rotate(3deg); transform-origin: 0 0" srcdoc="<body style='margin:0;zoom:1.5'><button style='width:100px;height:30px' onclick='parent.clicks++'>Zoomed</button>"></iframe>
<script>
  window.clicks = 0;
  window.covers = 0;
  addEventListener('message', (e) => { if (e.data === 'cover') window.covers++; });
  // The initial about:blank, filled without document.open: a cover on hover.
  const d = document.getElementById('blank').contentDocument;
  d.body.style.margin = '0';
  d.body.innerHTML = '<div style="position:relative"><button id=b style="width:200px;height:50px" onclick="parent.clicks++">Blank</button><div id=c style="position:absolute;left:0;top:0;width:200px;height:50px;display:none;background:#eee" onclick="parent.covers++">Cover</div></div>';
  d.getElementById('b').addEventListener('mouseenter', () => { d.getElementById('c').style.display = 'block'; });
</script>"#;

const INNER_COVER: &str = r#"<!doctype html><body style="margin:0">
<div style="position:relative"><button id=b style="width:200px;height:50px">Cross</button><div id=c style="position:absolute;left:0;top:0;width:200px;height:50px;display:none;background:#eee">Cover</div></div>
<script>
  for (const type of ['pointerdown', 'mousedown', 'click']) addEventListener(type, () => parent.postMessage('cover', '*'), true);
  document.getElementById('b').addEventListener('mouseenter', () => { document.getElementById('c').style.display = 'block'; });
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn covers_and_clicks_in_blank_javascript_cross_site_and_zoomed_frames() {
    let env =
        TwoSites::start(&[("/frames.html", FRAMES), ("/inner-cover.html", INNER_COVER)]).await;
    let mut model = env.open("/frames.html").await;
    view(&mut model).await;
    for name in ["Blank", "Cross"] {
        let b = find(&mut model, name, Some("button")).await;
        let err = click(&mut model, b, &short())
            .await
            .expect_err("covered on hover");
        assert_eq!(err.code(), ErrorCode::NotActionable, "{name}: {err}");
        assert_eq!(err.action_sent(), ActionSent::NotSent, "{name}: {err}");
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(eval(&model, "window.covers").await, 0);
    for (name, n) in [("JS URL", 1), ("Zoomed", 2)] {
        let b = find(&mut model, name, Some("button")).await;
        let result = click(&mut model, b, &ClickOptions::default()).await;
        assert_eq!(eval(&model, "window.clicks").await, n, "{name}: {result:?}");
        result.unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    env.browser.close().await;
}

const PARENT_COVER: &str = r#"<!doctype html><title>Parent cover</title>
<style>
  body { margin: 0; }
  .row { position: relative; width: 320px; height: 90px; margin: 20px; }
  iframe { width: 320px; height: 90px; border: 0; }
  #cover { position: absolute; left: 0; top: 0; width: 320px; height: 90px; display: none; background: #eee; }
</style>
<div class="row"><iframe id="f" srcdoc="<body style='margin:0'><button style='width:200px;height:50px' onclick='parent.clicks++'>Inner</button>"></iframe><div id="cover" onmousedown="window.covers++">Cover</div></div>
<script>
  window.clicks = 0;
  window.covers = 0;
  // The parent sees the pointer enter the frame, and covers it.
  document.getElementById('f').addEventListener('mouseenter', () => {
    document.getElementById('cover').style.display = 'block';
  });
</script>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parent_that_covers_the_frame_on_hover_takes_no_click_reported_on_the_frame() {
    let env = TwoSites::start(&[("/parent.html", PARENT_COVER)]).await;
    let mut model = env.open("/parent.html").await;
    view(&mut model).await;
    let inner = find(&mut model, "Inner", Some("button")).await;
    let result = click(&mut model, inner, &short()).await;
    let saw = eval(&model, "({clicks: window.clicks, covers: window.covers})").await;
    // The parent's cover took the press, in another document than the
    // button's: no click on it, and the input was sent.
    let err = result.expect_err("not a click on Inner");
    assert_eq!(err.code(), ErrorCode::StaleState, "{err}");
    assert_eq!(err.action_sent(), ActionSent::PossiblySent, "{err}");
    assert_eq!(saw, serde_json::json!({"clicks": 0, "covers": 1}));
    env.browser.close().await;
}
