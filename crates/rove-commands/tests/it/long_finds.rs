//! `find` in long texts and over many matches: a long text is searched
//! natively (its words' letters as a pattern, each hit checked where it
//! is), a search goes on in slices the page's own scripts run between, and
//! its count stops at a thousand.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, fixture_routes};

fn routes() -> rove_localserver::Routes {
    fixture_routes()
        .page("/long-texts.html", Response::html(long_texts()))
        .page(
            "/rows-30000.html",
            Response::html(crate::huge::table(30_000)),
        )
        .page("/kiwis.html", Response::html(kiwis()))
        .page("/feed.html", Response::html(FEED))
}

/// Exactly a thousand matches, then a footer.
fn kiwis() -> String {
    let mut html = String::from("<!doctype html><title>Kiwis</title>");
    for i in 0..1_000 {
        html.push_str(&format!("<div>kiwifruit {i}</div>"));
    }
    html.push_str("<footer>end</footer>");
    html
}

/// 900 rows of words (37,000 elements: a search of them takes many
/// slices), and a timer that puts a row of news above them every 2 ms.
const FEED: &str = r#"<!doctype html><title>Feed</title><div id=feed></div><script>
feed.innerHTML = Array.from({length: 900}, (_, i) => `<div class=row>ab ${i} a b a b${'<span></span>'.repeat(40)}</div>`).join('');
setInterval(() => { const d = document.createElement('div'); d.textContent = 'news'; feed.insertBefore(d, feed.firstChild); }, 2);
</script>"#;

/// Long texts whose words' letters come often, spaced otherwise: a log
/// with 300 lines of `stepfiveok` before one `step five ok`, one with
/// 1,200 of `stepsixok` before `step six ok` (a no-break space and a
/// zero-width one in it), a block of filler with a sentence deep inside,
/// a paragraph and a list item whose last words are far from their
/// start, hidden words in a long paragraph, long list items in list items,
/// and words past runs of invisible characters.
fn long_texts() -> String {
    let mut html = String::from("<!doctype html><title>Long texts</title><pre>");
    for i in 0..300 {
        html.push_str(&format!("[{i:05}] stepfiveok\n"));
    }
    html.push_str("[00300] step five ok: here\n[00301] after it\n</pre><pre>");
    for i in 0..1_200 {
        html.push_str(&format!("[{i:05}] stepsixok\n"));
    }
    html.push_str("[01200] step&nbsp;six\u{200b} ok: there</pre><div>");
    html.push_str(&"filler words ".repeat(500));
    html.push_str("the needle sentence ends here. ");
    html.push_str(&"more filler ".repeat(500));
    html.push_str("</div><p>");
    html.push_str(&"paragraph words ".repeat(100));
    html.push_str("a phrase deep in a paragraph</p><ul><li>");
    html.push_str(&"item words ".repeat(100));
    html.push_str("deep item text</li></ul><p>");
    // Hidden words in a long paragraph are no match.
    html.push_str(&"lorem ipsum dolor ".repeat(100));
    html.push_str("<span hidden>secret hidden words</span> end.</p><ul><li>");
    // Long list items in list items: the innermost is the match.
    html.push_str(&"top comment ".repeat(30));
    html.push_str("<ul><li>");
    html.push_str(&"reply text ".repeat(30));
    html.push_str("<ul><li>");
    html.push_str(&"deep reply ".repeat(30));
    html.push_str("wombat here</li></ul></li></ul></li></ul><div>");
    // A space the words start with, past 70 zero-width characters; one
    // they end with, past 40 tag characters (each a pair of surrogates);
    // a dotted capital I and an emoji.
    html.push_str(&"filler ".repeat(800));
    html.push(' ');
    html.push_str(&"\u{200b}".repeat(70));
    html.push_str("zebra stripes quokka");
    html.push_str(&"\u{E0041}".repeat(40));
    html.push_str(" smiles, welcome to İstanbul 😀 grin ");
    html.push_str(&"filler ".repeat(100));
    html.push_str("</div>");
    html
}

/// `find` of words in every row of 30,000 stops counting at a thousand
/// and says so; words in a few rows are counted whole; a role no match
/// has is searched for through every row (in slices) and found to be
/// none, and one that the last row has is found there.
#[tokio::test]
async fn find_of_words_in_every_row_counts_to_a_cap_and_a_role_narrows_it() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/rows-30000.html").await;
    for (words, role, head) in [
        ("Buy", None, ": 1000+ matches, first 20 shown\n"),
        ("Buy 2999", None, ": 22 matches, first 20 shown\n"),
        ("Buy", Some("link"), " role link: 0 matches"),
    ] {
        let out = f
            .ok(json!({"command": "find", "text": words, "role": role}))
            .await;
        let text = out.text();
        assert!(text.contains(head), "{words}: {text}");
    }
    let out = f
        .ok(json!({"command": "find", "text": "Item 29999", "role": "link"}))
        .await;
    let text = out.text();
    assert!(text.contains(" role link: 1 match\n"), "{text}");
    assert!(text.contains("link \"Item 29999\""), "{text}");
    f.close().await;
}

/// `find` in a long text shows the line holding the words (in a block
/// that keeps its breaks), else the text from a little before them: the
/// words found where their letters, spaced otherwise, came hundreds of
/// times before (and over a thousand, past which the text is searched
/// whole), across two lines of a log, deep in a block of text, past the
/// start that names a long paragraph or list item (the innermost one),
/// past runs of invisibles, in any case; hidden words are none.
#[tokio::test]
async fn find_in_a_long_text_shows_where_the_words_are() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/long-texts.html").await;
    for (words, expect) in [
        ("step five ok", "text \"[00300] step five ok: here\""),
        ("step six ok", "text \"[01200] step six ok: there\""),
        ("here [00301]", "step five ok: here [00301] after it"),
        ("needle sentence", "text \"…"),
        ("needle sentence", "the needle sentence ends here"),
        // A view shows a long paragraph whole: find reaches all of it.
        ("deep in a paragraph", "paragraph \"…"),
        ("deep in a paragraph", "a phrase deep in a paragraph"),
        ("deep item", "listitem \"…"),
        ("wombat", "listitem \"…"),
        (" zebra", "zebra stripes"),
        ("quokka ", "smiles"),
        ("İstanbul", "welcome to İstanbul"),
        ("😀 grin", "İstanbul 😀 grin"),
    ] {
        let out = f.ok(json!({"command": "find", "text": words})).await;
        let text = out.text();
        assert!(text.contains(": 1 match\n"), "{words}: {text}");
        assert!(text.contains(expect), "{words}: {text}");
    }
    let out = f
        .ok(json!({"command": "find", "text": "five ok: there"}))
        .await;
    assert!(out.text().contains(": 0 matches"), "{}", out.text());
    f.close().await;
}

/// A thousand matches are a thousand, not "1000+".
#[tokio::test]
async fn find_of_exactly_the_cap_counts_it_whole() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/kiwis.html").await;
    let out = f
        .ok(json!({"command": "find", "text": "kiwifruit", "limit": 2}))
        .await;
    assert!(
        out.text().contains(": 1000 matches, first 2 shown"),
        "{}",
        out.text()
    );
    f.close().await;
}

/// A search through a page that changes between its slices (a row put
/// above the rest every 2 ms) counts each row once and lists none twice.
#[tokio::test]
async fn find_on_a_page_changing_between_slices_counts_each_match_once() {
    let mut f = Fixture::with(routes(), SessionConfig::default()).await;
    f.open("/feed.html").await;
    let out = f
        .ok(json!({"command": "find", "text": "ab", "limit": 1000}))
        .await;
    let text = out.text();
    assert!(
        text.contains(": 900 matches\n"),
        "{}",
        &text[..text.len().min(300)]
    );
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let distinct: std::collections::HashSet<&str> = lines.iter().copied().collect();
    assert_eq!(lines.len(), 900, "{}", &text[..text.len().min(300)]);
    assert_eq!(distinct.len(), 900, "{}", &text[..text.len().min(300)]);
    f.close().await;
}
