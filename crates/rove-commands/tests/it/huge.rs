//! Huge and endless pages: a renderer busy with a big document is not a
//! hung one, and pages built to exhaust rove (rows appended forever, a
//! 50 MB text node, a DOM thousands of levels deep) get an answer within
//! each command's deadline, a bounded view, and a session that goes on in
//! the same tab.

use crate::support;

use std::time::{Duration, Instant};

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, fixture_routes};

/// A table of `rows` rows, each a number, a link and a button.
pub(crate) fn table(rows: usize) -> String {
    let mut html = String::with_capacity(rows * 100);
    html.push_str("<!doctype html><title>Rows</title><h1>Rows</h1><table>");
    for i in 0..rows {
        html.push_str(&format!(
            "<tr><td>{i}</td><td><a href='#r{i}'>Item {i}</a></td><td><button>Buy {i}</button></td></tr>"
        ));
    }
    html.push_str("</table>");
    html
}

/// A page whose script appends 1,000 rows a second, forever.
const ENDLESS: &str = r#"<!doctype html><title>Endless</title>
<h1>Endless feed</h1><button onclick="document.title='stopped'; clearInterval(window.feed)">Stop feed</button>
<ul id=feed></ul>
<script>
let n = 0;
window.feed = setInterval(() => {
  const list = document.getElementById('feed');
  for (let i = 0; i < 100; i++) {
    const li = document.createElement('li');
    li.textContent = 'Entry ' + (n++);
    list.appendChild(li);
  }
}, 100);
</script>"#;

/// A page with one text node of 50 MB, written by its own script.
const BIG_TEXT: &str = r#"<!doctype html><title>Big text</title>
<h1>Big text</h1><button onclick="document.title='read'">After the text</button>
<p id=big></p>
<script>
document.getElementById('big').textContent = 'lorem ipsum '.repeat(50 * 1024 * 1024 / 12);
</script>"#;

/// A page whose DOM nests 5,000 levels deep, with a button at the bottom.
/// Spans: Chromium itself never finishes laying out 5,000 nested blocks
/// (its renderer is still busy a minute later, then dies).
const DEEP: &str = r#"<!doctype html><title>Deep</title><h1>Deep</h1><div id=top></div>
<script>
let at = document.getElementById('top');
for (let i = 0; i < 5000; i++) {
  const d = document.createElement('span');
  at.appendChild(d);
  at = d;
}
const b = document.createElement('button');
b.textContent = 'Bottom';
b.onclick = () => { document.title = 'reached'; };
at.appendChild(b);
</script>"#;

/// 20,000 rows, and past them names from every source a search must
/// read: words split over elements, an aria-label, a label, ids, a
/// field's value, a shadow root, a box's title, a log of lines, words in
/// both quotes, and words that differ only in case.
fn named_everywhere() -> String {
    let mut html = table(20_000);
    html.push_str(
        r#"<h2>Tail</h2>
<button id=split>Pay <b>order</b> <i>77</i></button>
<button aria-label="Archive everything">X</button>
<label for=city>Home city</label><input id=city>
<span id=tag>Quarterly total</span><div role=button tabindex=0 aria-labelledby=tag>Σ</div>
<input id=filled value="preset answer">
<div id=host></div>
<div title="Print the page"><button>🖨</button></div>
<p>She wrote "don't stop" on it</p>
<button>Mixed CASE</button><button>mixed case</button>
<p>Sum <b>42</b></p><button>Sum</button>
<nav aria-label="Site links"><a>Home, not a link</a></nav><dialog open style="position: static">Note to self</dialog>
<progress value=3 max=9></progress><img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><div role=alert>Saved it</div><div contenteditable>Draft notes</div>
<pre>line one
the line with needle words
line three</pre>
<script>
  document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<button class=deed>Shadow deed</button><span role=switch aria-checked=false>Dark mode</span>';
</script>"#,
    );
    html
}

fn routes() -> rove_localserver::Routes {
    fixture_routes()
        .page("/named.html", Response::html(named_everywhere()))
        .page("/rows-30000.html", Response::html(table(30_000)))
        .page(
            "/rows-listening.html",
            Response::html(table(30_000).replace(
                "<h1>Rows</h1>",
                "<h1>Rows</h1><div id=first>Open the first</div><script>first.addEventListener('click', () => {});</script>",
            )),
        )
        .page("/rows-100000.html", Response::html(table(100_000)))
        .page("/endless.html", Response::html(ENDLESS))
        .page("/big-text.html", Response::html(BIG_TEXT))
        .page("/deep.html", Response::html(DEEP))
}

/// A watchdog that takes two seconds of silence for a hang: a 30,000-row
/// page keeps the renderer busy longer than that while it loads.
fn impatient() -> SessionConfig {
    SessionConfig {
        health: support::quick_health(),
        ..SessionConfig::default()
    }
}

#[tokio::test]
async fn a_page_that_keeps_the_renderer_busy_while_it_loads_is_waited_for_not_stopped() {
    let mut f = Fixture::with(routes(), impatient()).await;
    let out = f
        .ok(json!({"command": "open", "url": f.url("/rows-30000.html")}))
        .await;
    let text = out.text();
    assert!(
        out.happened_lines()
            .iter()
            .all(|l| !l.contains("did not answer")),
        "{:?}",
        out.happened_lines()
    );
    assert!(text.contains("Buy 0"), "{text}");
    assert!(text.contains("more rows"), "{text}");
    // The same tab, whole: its last row is there.
    assert_eq!(
        f.eval("document.querySelectorAll('tr').length").await,
        30_000
    );
    let out = f.ok(json!({"command": "snapshot"})).await;
    assert!(out.text().starts_with("[t1]"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn a_page_still_parsing_when_the_navigation_deadline_cuts_is_left_in_its_tab() {
    // 100,000 rows parse for seconds (about twelve here): past a two-second
    // navigation deadline, and past the load the watchdog grants (the
    // same), the parser is still at work. Before, rove took that for a hang
    // and closed the tab; the page a user opened was lost.
    let config = SessionConfig {
        navigation_timeout: Duration::from_secs(2),
        health: rove_commands::HealthLimits {
            probe_timeout: Duration::from_millis(500),
            recovery_timeout: Duration::from_millis(500),
            ..support::quick_health()
        },
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes(), config).await;
    let url = f.url("/rows-100000.html");
    let e = f.fails(json!({"command": "open", "url": url})).await;
    let report = e.report();
    assert_eq!(support::code(&e), "TIMEOUT", "{report:?}");
    assert_eq!(
        report.facts.as_ref().map(|f| f["kind"].clone()),
        Some(json!("not_loaded")),
        "{report:?}"
    );
    assert!(report.hint.contains("still loading"), "{report:?}");
    f.close().await;
}

/// Runs `command` and asserts it answered (either way) within `within`.
async fn answers_within(
    f: &mut Fixture,
    command: serde_json::Value,
    within: Duration,
) -> Result<rove_commands::Outcome, rove_commands::CommandError> {
    let started = Instant::now();
    let result = f.run(command.clone()).await;
    let took = started.elapsed();
    assert!(took < within, "{command} took {took:?}");
    result
}

#[tokio::test]
async fn a_page_that_appends_rows_forever_gets_bounded_answers_in_the_same_tab() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let url = f.url("/endless.html");
    let out = answers_within(
        &mut f,
        json!({"command": "open", "url": url}),
        Duration::from_secs(20),
    )
    .await
    .expect("open answers");
    assert!(out.text().len() < 20_000, "{}", out.text().len());
    for _ in 0..3 {
        let out = answers_within(
            &mut f,
            json!({"command": "snapshot"}),
            Duration::from_secs(10),
        )
        .await
        .expect("a view");
        assert!(out.text().starts_with("[t1]"), "{}", out.text());
        assert!(out.text().len() < 20_000, "{}", out.text().len());
    }
    let found = answers_within(
        &mut f,
        json!({"command": "find", "text": "Entry 5"}),
        Duration::from_secs(10),
    )
    .await
    .expect("find answers");
    assert!(found.text().contains("Entry 5"), "{}", found.text());
    let stop = f.find("Stop feed", "button").await;
    answers_within(
        &mut f,
        json!({"command": "click", "ref": stop}),
        Duration::from_secs(15),
    )
    .await
    .expect("the click answers");
    assert_eq!(f.eval("document.title").await, "stopped");
    f.close().await;
}

#[tokio::test]
async fn a_fifty_megabyte_text_node_gets_a_bounded_view() {
    // Reading the whole node took the walker seconds, past a watchdog
    // that waits two. Chromium itself parses and lays 50 MB out for
    // seconds, past half a minute on a machine busy with other builds: the
    // navigation (and the load the watchdog grants) is given more than
    // that, since what this test holds is the bounded view.
    let config = SessionConfig {
        navigation_timeout: Duration::from_secs(90),
        ..impatient()
    };
    let mut f = Fixture::with(routes(), config).await;
    let url = f.url("/big-text.html");
    let out = answers_within(
        &mut f,
        json!({"command": "open", "url": url}),
        Duration::from_secs(120),
    )
    .await
    .expect("open answers");
    let text = out.text();
    assert!(text.len() < 20_000, "{}", text.len());
    // The text is longer than the view's budget, which says it cut there.
    assert!(text.contains("cut at the"), "{text}");
    // Found inside the 50 MB: the paragraph that holds the words.
    let found = f
        .ok(json!({"command": "find", "text": "ipsum lorem"}))
        .await;
    assert!(found.text().contains("1 match"), "{}", found.text());
    let after = f.find("After the text", "button").await;
    f.ok(json!({"command": "click", "ref": after})).await;
    assert_eq!(f.eval("document.title").await, "read");
    let out = answers_within(&mut f, json!({"command": "read"}), Duration::from_secs(20))
        .await
        .expect("read answers");
    assert!(out.text().len() < 200_000, "{}", out.text().len());
    assert!(out.text().contains("lorem ipsum"), "{}", out.text());
    f.close().await;
}

#[tokio::test]
async fn a_dom_five_thousand_levels_deep_is_walked_and_its_bottom_clicked() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let url = f.url("/deep.html");
    let out = answers_within(
        &mut f,
        json!({"command": "open", "url": url}),
        Duration::from_secs(20),
    )
    .await
    .expect("open answers");
    let text = out.text();
    assert!(text.contains("button \"Bottom\""), "{text}");
    let bottom = f.find("Bottom", "button").await;
    let clicked = answers_within(
        &mut f,
        json!({"command": "click", "ref": bottom}),
        Duration::from_secs(10),
    )
    .await;
    assert!(clicked.is_ok(), "{:?}", clicked.err().map(|e| e.report()));
    assert_eq!(f.eval("document.title").await, "reached");
    f.close().await;
}

#[tokio::test]
async fn find_on_a_big_page_reads_names_from_every_source() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/named.html").await;
    for (words, expect) in [
        ("Pay order 77", "button \"Pay order 77\""),
        ("archive everything", "button \"Archive everything\""),
        ("Home city", "textbox \"Home city\""),
        ("Quarterly total", "button \"Quarterly total\""),
        ("preset answer", "preset answer"),
        ("Shadow deed", "button \"Shadow deed\""),
        ("Print the page", "Print the page"),
        ("Buy 19999", "button \"Buy 19999\""),
        ("needle words", "text \"the line with needle words\""),
        // Both quotes in the words found (no XPath literal holds both).
        ("\"don't stop\"", "She wrote"),
        // Two texts that differ in case, each found.
        ("mixed case", "button \"Mixed CASE\""),
        ("mixed case", "button \"mixed case\""),
    ] {
        let out = f.ok(json!({"command": "find", "text": words})).await;
        assert!(out.text().contains(expect), "{words}: {}", out.text());
    }
    // Tail's heading is the context of what comes after it.
    let out = f.ok(json!({"command": "find", "text": "Pay order"})).await;
    assert!(
        out.text().contains("under heading \"Tail\""),
        "{}",
        out.text()
    );
    f.close().await;
}

/// A locator on a big page looks where find's index points, and still
/// reads names from every source: words over elements, an aria-label, a
/// label, ids, a shadow root (by role, by text and by a selector inside
/// it; one attached after the index was built too, by a selector and by a
/// role alone); two matches are still
/// two, an exact text is the whole text, and none is none.
#[tokio::test]
async fn a_locator_on_a_big_page_reads_names_from_every_source() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/named.html").await;
    for (locator, expect) in [
        ("text=Pay order 77", "button \"Pay order 77\""),
        (
            "role=button[name=\"Archive everything\"]",
            "button \"Archive everything\"",
        ),
        ("role=textbox[name=\"Home city\"]", "textbox \"Home city\""),
        (
            "role=button[name*=\"quarterly\"]",
            "button \"Quarterly total\"",
        ),
        (
            "role=button[name=\"Shadow deed\"]",
            "button \"Shadow deed\"",
        ),
        ("text=Shadow deed", "button \"Shadow deed\""),
        ("css=.deed", "button \"Shadow deed\""),
        ("text=Buy 19999", "button \"Buy 19999\""),
    ] {
        let out = f.ok(json!({"command": "hover", "ref": locator})).await;
        let said = out.happened_lines().join("\n");
        assert!(said.contains(expect), "{locator}: {said}");
    }
    let err = f
        .fails(json!({"command": "hover", "ref": "text=mixed case"}))
        .await;
    assert!(err.to_string().contains("matches 2 elements"), "{err}");
    // Exact text: the paragraph's whole text is "Sum 42", not "Sum".
    let out = f
        .ok(json!({"command": "hover", "ref": "text=\"Sum\""}))
        .await;
    let said = out.happened_lines().join("\n");
    assert!(said.contains("button \"Sum\""), "{said}");
    // A shadow root attached inside another after the index was built
    // (nothing the document's observer sees) is still searched by css=.
    f.eval(
        "(() => { const inner = document.createElement('div'); \
         document.getElementById('host').shadowRoot.appendChild(inner); \
         inner.attachShadow({mode: 'open'}).innerHTML = '<button id=late>Late deed</button>\
         <input type=range aria-label=\"Late volume\">'; })()",
    )
    .await;
    let out = f.ok(json!({"command": "hover", "ref": "css=#late"})).await;
    let said = out.happened_lines().join("\n");
    assert!(said.contains("button \"Late deed\""), "{said}");
    // And by a role alone (the elements that can have it, in every root).
    let out = f
        .ok(json!({"command": "hover", "ref": "role=slider"}))
        .await;
    let said = out.happened_lines().join("\n");
    assert!(said.contains("slider \"Late volume\""), "{said}");
    // A walk of the roots is never kept for a later command: a root
    // attached right after one (nothing the observer counts) is found.
    f.eval(
        "(() => { const late = document.getElementById('host').shadowRoot.lastElementChild.shadowRoot; \
         const deeper = document.createElement('div'); late.appendChild(deeper); \
         deeper.attachShadow({mode: 'open'}).innerHTML = '<button id=later>Later deed</button>'; })()",
    )
    .await;
    let out = f.ok(json!({"command": "hover", "ref": "css=#later"})).await;
    let said = out.happened_lines().join("\n");
    assert!(said.contains("button \"Later deed\""), "{said}");
    let err = f
        .fails(json!({"command": "hover", "ref": "role=button[name=\"Buy 20000\"]"}))
        .await;
    assert_eq!(support::code(&err), "REF_NOT_FOUND", "{err}");
    f.close().await;
}

/// Locators whose words are in every row of 30,000 look through every
/// row (in slices): an exact text or a role with a name that none has is
/// none, the one row whose text it is is found, and words in every row are
/// too many.
#[tokio::test]
async fn a_locator_whose_words_are_everywhere_looks_through_every_row() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/rows-30000.html").await;
    for locator in ["text=\"Buy\"", "role=link[name*=\"Buy\"]"] {
        let err = f.fails(json!({"command": "hover", "ref": locator})).await;
        assert_eq!(support::code(&err), "REF_NOT_FOUND", "{locator}: {err}");
    }
    // The letters of `Buy 1` are in 11,111 rows; one is the text.
    for (locator, expect) in [
        ("text=\"Buy 1\"", "button \"Buy 1\""),
        ("text=\"Buy 29999\"", "button \"Buy 29999\""),
    ] {
        let out = f.ok(json!({"command": "hover", "ref": locator})).await;
        let said = out.happened_lines().join("\n");
        assert!(said.contains(expect), "{locator}: {said}");
    }
    let err = f
        .fails(json!({"command": "hover", "ref": "text=Buy"}))
        .await;
    assert!(err.to_string().contains("at least 1000"), "{err}");
    f.close().await;
}

/// A locator by a role alone on a big page looks only at the elements
/// that can have the role (by their tag, or a role attribute, in the
/// document and its shadow roots), and each kind is still found: a
/// landmark, a dialog, a progress bar, a role by attribute, one in a shadow
/// root; a tag whose role depends on more (an image with an empty `alt`
/// is none) is judged as a view judges it, three fields are three, many
/// links are many, none is none.
#[tokio::test]
async fn a_locator_by_role_alone_on_a_big_page_finds_each_kind() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/named.html").await;
    for (locator, expect) in [
        ("role=navigation", "navigation \"Site links\""),
        ("role=dialog", "dialog"),
        ("role=progressbar", "progressbar"),
        ("role=alert", "alert"),
        ("role=switch", "switch \"Dark mode\""),
    ] {
        let out = f.ok(json!({"command": "hover", "ref": locator})).await;
        let said = out.happened_lines().join("\n");
        assert!(
            said.contains("→ e") && said.contains(expect),
            "{locator}: {said}"
        );
    }
    let err = f
        .fails(json!({"command": "hover", "ref": "role=textbox"}))
        .await;
    assert!(err.to_string().contains("matches 3 elements"), "{err}");
    assert!(err.to_string().contains("Draft notes"), "{err}");
    let err = f
        .fails(json!({"command": "hover", "ref": "role=menu"}))
        .await;
    assert_eq!(support::code(&err), "REF_NOT_FOUND", "{err}");
    // The rows' 20,000 links, found through their tag.
    let err = f
        .fails(json!({"command": "hover", "ref": "role=link"}))
        .await;
    assert!(err.to_string().contains("at least 1000"), "{err}");
    // An image with an empty `alt` has no role: the one `img` is no image.
    let err = f
        .fails(json!({"command": "hover", "ref": "role=image"}))
        .await;
    assert_eq!(support::code(&err), "REF_NOT_FOUND", "{err}");
    f.close().await;
}

/// A click by locator on 100,000 rows: the last row's button, by its
/// text and by its role and name. Before, each locator walked every
/// element in one script, which held the page past the watchdog's limit
/// (the tab's script was stopped and the click never sent).
#[tokio::test]
async fn a_click_by_locator_on_a_hundred_thousand_rows_reaches_the_last_row() {
    let mut f = Fixture::with(routes(), impatient()).await;
    let url = f.url("/rows-100000.html");
    f.run(json!({"command": "open", "url": url}))
        .await
        .expect("the page opens");
    for locator in ["text=Buy 99999", "role=button[name=\"Buy 99998\"]"] {
        let out = f.ok(json!({"command": "click", "ref": locator})).await;
        assert!(
            out.happened_lines()
                .iter()
                .any(|h| h.starts_with("clicked")),
            "{locator}: {:?}",
            out.happened_lines()
        );
        let name = locator.trim_start_matches("text=");
        let name = name.split('"').nth(1).unwrap_or(name);
        assert_eq!(
            f.eval("document.activeElement.textContent").await,
            name,
            "{locator}"
        );
    }
    f.close().await;
}

/// What a view and `find` keep between commands on a big page (the page's
/// searches, its index of text, where each run of rows ends) is dropped
/// when the page changes: a renamed row, a row added to the run, a value
/// typed (no mutation at all) and a shadow tree's new text (which no
/// observer of the document sees) are each found at once.
#[tokio::test]
async fn what_a_big_page_keeps_between_reads_follows_each_change() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/named.html").await;
    // Twice: the second answer comes from what the first kept.
    for _ in 0..2 {
        let out = f.ok(json!({"command": "find", "text": "Buy 19999"})).await;
        assert!(
            out.text().contains("button \"Buy 19999\""),
            "{}",
            out.text()
        );
        let view = f.ok(json!({"command": "snapshot"})).await;
        assert!(view.text().contains("19990 more rows"), "{}", view.text());
    }
    f.eval(
        "(() => { document.querySelectorAll('button')[19999].textContent = 'Sell 19999'; \
         const row = document.querySelector('tr').cloneNode(true); \
         row.querySelector('button').textContent = 'Buy extra'; \
         document.querySelector('tbody').appendChild(row); \
         const odd = document.createElement('button'); \
         odd.textContent = 'Buy (x-1)? [a|b] {2} ^$ . * + /'; \
         document.body.appendChild(odd); \
         document.getElementById('city').value = 'Zanzibar'; \
         return 1; })()",
    )
    .await;
    for (words, expect) in [
        ("Sell 19999", "button \"Sell 19999\""),
        ("Buy extra", "button \"Buy extra\""),
        ("Zanzibar", "Zanzibar"),
        // Every character a pattern treats as syntax, and a hyphen.
        (
            "Buy (x-1)? [a|b] {2} ^$ . * + /",
            "button \"Buy (x-1)? [a|b] {2} ^$ . * + /\"",
        ),
    ] {
        let out = f.ok(json!({"command": "find", "text": words})).await;
        assert!(out.text().contains(expect), "{words}: {}", out.text());
    }
    let gone = f.ok(json!({"command": "find", "text": "Buy 19999"})).await;
    assert!(
        !gone.text().contains("button \"Buy 19999\""),
        "{}",
        gone.text()
    );
    let view = f.ok(json!({"command": "snapshot"})).await;
    assert!(view.text().contains("19991 more rows"), "{}", view.text());
    // Typed into, without a mutation: the value is read as it is now.
    f.eval("(() => { document.getElementById('city').value = 'Oslo'; return 1; })()")
        .await;
    let out = f.ok(json!({"command": "find", "text": "Oslo"})).await;
    assert!(out.text().contains("Oslo"), "{}", out.text());
    // A change inside a shadow tree alone.
    f.eval(
        "(() => { document.getElementById('host').shadowRoot.querySelector('button').textContent = 'Shadow swap'; return 1; })()",
    )
    .await;
    let out = f
        .ok(json!({"command": "find", "text": "Shadow swap"}))
        .await;
    assert!(
        out.text().contains("button \"Shadow swap\""),
        "{}",
        out.text()
    );
    f.close().await;
}

/// A document of more than 50,000 elements is read with rove's own
/// approximation of roles and names, and Chromium keeps no accessibility
/// tree for it (building one for a 30,000-row table costs seconds, and
/// keeping it costs at every change); the view, `find` and a click work on
/// it as ever, and the next small page is read with Chromium's roles again.
#[tokio::test]
async fn a_huge_document_is_read_without_chromiums_accessibility_tree() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/form.html").await;
    assert!(
        !f.session.roles_approximated(),
        "a small page: Chromium's roles"
    );
    let out = f.open("/rows-30000.html").await;
    assert!(f.session.roles_approximated(), "{}", out.text());
    assert!(out.text().contains("button \"Buy 0\""), "{}", out.text());
    let buy = f.find("Buy 29999", "button").await;
    f.ok(json!({"command": "click", "ref": buy})).await;
    f.open("/form.html").await;
    assert!(!f.session.roles_approximated(), "a small page again");
    f.close().await;
}

/// A huge document's click listeners are asked for after its walk, and
/// again only once it changed: an element whose only sign of being
/// clickable is its listener has a ref at the first view, and one added
/// with a change shows in the next.
#[tokio::test]
async fn a_huge_documents_click_listeners_are_read_and_read_again_after_a_change() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let out = f.open("/rows-listening.html").await;
    assert!(f.session.roles_approximated(), "{}", out.text());
    assert!(
        out.text().contains(" clickable \"Open the first\""),
        "{}",
        out.text()
    );
    f.eval(
        "(() => { const d = document.createElement('div'); d.textContent = 'Open the second'; d.addEventListener('click', () => {}); document.body.prepend(d); })()",
    )
    .await;
    let view = f.view_of(json!({"command": "snapshot"})).await;
    assert!(view.contains(" clickable \"Open the second\""), "{view}");
    assert!(view.contains(" clickable \"Open the first\""), "{view}");
    f.close().await;
}
