//! Diffs of pages longer than a view: a diff reads a few budgets' worth
//! of the page, and what lies past where either of two readings stopped
//! is neither added nor gone, unless the page added or changed it since
//! the last reading (the activity script's records say which).

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, fixture_routes};

fn routes() -> rove_localserver::Routes {
    fixture_routes()
        .page("/log.html", Response::html(build_log()))
        .page("/shop.html", Response::html(shop()))
        .page("/one-line.html", Response::html(one_line()))
}

/// A build log: a heading, buttons that rename it and mend one line, and
/// one `pre` of 20,000 lines (about 700 KB), far past a view's budget.
fn build_log() -> String {
    let mut html = String::from(
        "<!doctype html><title>Log</title><h1 id=h>Build log</h1>\
         <button onclick=\"h.textContent = 'Build log (rerun)'\">Rerun</button>\
         <button onclick=\"log.firstChild.data = log.firstChild.data.replace('step 3 ok', 'step 3 failed')\">Fail</button><pre id=log>",
    );
    for i in 0..20_000 {
        // Blank lines between: they cost the walk's reading, not its
        // budget, so the budget runs out inside a line.
        html.push_str(&format!("[{i:05}] step {i} ok{}", "\n".repeat(16)));
    }
    html.push_str("</pre>");
    html
}

/// A shop page longer than a view: a heading, 60 paragraphs (about 40,000
/// characters, past the view's budget), then a button that renames itself
/// and adds a note at the end of the page, and a panel whose paragraphs a
/// tab replaces.
fn shop() -> String {
    let mut html = String::from("<!doctype html><title>Shop</title><h1>Shop</h1>");
    for i in 0..60 {
        html.push_str(&format!(
            "<p>Paragraph {i}: {}</p>",
            "words of the catalogue ".repeat(28)
        ));
    }
    html.push_str(
        "<button onclick=\"this.textContent = 'In cart (1)'; \
         const n = document.createElement('p'); n.textContent = 'Saved to your cart'; document.body.append(n)\">Add to cart</button>\
         <button onclick=\"document.getElementById('panel').replaceChildren(...Array.from({length: 3}, (_, i) => \
         Object.assign(document.createElement('p'), {textContent: 'Review ' + i})))\">Reviews</button>\
         <div id=panel><p>Spec sheet</p></div>\
         <button onclick=\"document.getElementById('specs').hidden = false\">Specs</button>\
         <div id=specs hidden><h2>Specifications</h2><p>Weight 2 kg</p></div>\
         <input type=checkbox id=gift><label for=gift>Gift wrap</label>",
    );
    html
}

/// One line of 50,000 characters in a `pre` (a JSON answer as Chromium
/// shows it), far past the view's budget.
fn one_line() -> String {
    format!(
        "<!doctype html><title>Data</title><pre>{{\"data\": \"{}\"}}</pre>",
        "x".repeat(50_000)
    )
}

/// What the page changes past where the last view stopped reading is news:
/// a button the agent found and clicked there, renamed; a note added at the
/// end of the page; a panel's paragraphs replaced. What was merely not read
/// is not.
#[tokio::test]
async fn a_change_past_the_last_views_cut_is_news() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let view = f.open("/shop.html").await;
    assert!(view.text().contains("cut at the"), "{}", view.text());
    let add = f.find("Add to cart", "button").await;
    let out = f.ok(json!({"command": "click", "ref": add})).await;
    let text = out.text();
    assert!(text.contains("In cart (1)"), "{text}");
    assert!(text.contains("Saved to your cart"), "{text}");
    assert!(!text.contains("full view instead"), "{text}");
    assert!(!text.contains("Paragraph"), "{text}");
    let reviews = f.find("Reviews", "button").await;
    let out = f.ok(json!({"command": "click", "ref": reviews})).await;
    let text = out.text();
    assert!(text.contains("Review 2"), "{text}");
    assert!(!text.contains("Paragraph"), "{text}");
    // Shown by an attribute, and checked: no node added.
    let specs = f.find("Specs", "button").await;
    let out = f.ok(json!({"command": "click", "ref": specs})).await;
    let text = out.text();
    assert!(
        text.contains("Specifications") && text.contains("Weight 2 kg"),
        "{text}"
    );
    let gift = f.find("Gift wrap", "checkbox").await;
    let out = f.ok(json!({"command": "click", "ref": gift})).await;
    let text = out.text();
    assert!(text.contains("checkbox \"Gift wrap\" [checked"), "{text}");
    assert!(!text.contains("Paragraph"), "{text}");
    f.close().await;
}

/// A block of one line longer than the view's budget shows that line, cut
/// where the budget ends (`…`), and a diff that reads further cuts it in
/// the same place: no change.
#[tokio::test]
async fn a_single_line_past_the_budget_is_shown_cut() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let view = f.open("/one-line.html").await;
    let text = view.text();
    assert!(text.contains("{\"data\": \"xxxx"), "{text}");
    assert!(text.contains("xxxx…"), "{text}");
    assert!(text.len() < 25_000, "{}", text.len());
    let out = f.ok(json!({"command": "snapshot", "mode": "diff"})).await;
    assert!(
        out.text().contains("no changes since the last view"),
        "{}",
        out.text()
    );
    let out = f.ok(json!({"command": "snapshot", "budget": 1000})).await;
    assert!(out.text().len() < 8_000, "{}", out.text().len());
    let out = f.ok(json!({"command": "snapshot", "mode": "diff"})).await;
    assert!(
        out.text().contains("no changes since the last view"),
        "{}",
        out.text()
    );
    f.close().await;
}

/// A click on a page whose log runs far past the view says what changed
/// and nothing else: the lines the last view did not read are not news
/// (they read as 19,000 additions, and a full view in place of the diff),
/// nor are those the diff reads no further than its reach after a view of
/// the whole page (they read as removals); a shown line that changed is.
#[tokio::test]
async fn a_click_on_a_long_log_says_what_changed_and_nothing_else() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    let view = f.open("/log.html").await;
    assert!(view.text().contains("cut at the"), "{}", view.text());
    // A line the view showed, changed: that line alone (the rest of the
    // `pre` is one text node, changed with it).
    let fail = f.find("Fail", "button").await;
    let out = f.ok(json!({"command": "click", "ref": fail})).await;
    let text = out.text();
    assert!(text.contains("[00003] step 3 failed"), "{text}");
    assert_eq!(text.matches("step").count(), 1, "{text}");
    assert!(text.len() < 500, "{}: {text}", text.len());
    let rerun = f.find("Rerun", "button").await;
    let out = f.ok(json!({"command": "click", "ref": rerun})).await;
    let text = out.text();
    assert!(text.contains("Build log (rerun)"), "{text}");
    assert!(!text.contains("full view instead"), "{text}");
    assert!(!text.contains("step"), "{text}");
    assert!(text.len() < 500, "{}: {text}", text.len());
    // Nothing changed in what a diff reads, and the log goes on past it:
    // the answer says which part it speaks of.
    let out = f.ok(json!({"command": "click", "ref": rerun})).await;
    let said = out.happened_lines().join("\n");
    assert!(
        said.contains("nothing visible changed in the part of the page rove reads"),
        "{said}"
    );
    // After a view of the whole log, a diff reads its own reach: what lies
    // past it is not gone.
    let whole = f.ok(json!({"command": "snapshot", "budget": 0})).await;
    assert!(
        whole.text().contains("[19999] step 19999 ok"),
        "{}",
        whole.text().len()
    );
    let out = f
        .ok(json!({"command": "eval", "js": "document.getElementById('h').textContent = 'Build log (third)'"}))
        .await;
    let text = out.text();
    assert!(text.contains("Build log (third)"), "{text}");
    assert!(!text.contains("step"), "{text}");
    assert!(text.len() < 500, "{}: {text}", text.len());
    f.close().await;
}
