//! Big pages: the budget cuts with a note, paging continues, and `find`
//! reaches what the budget left out.

use crate::support;

use rove_page::{DEFAULT_BUDGET, FindQuery, Ref, ViewOptions, tokens};
use support::{Env, on_element};

/// A long article: 400 sections, each a heading, a paragraph and a link.
fn long_article() -> String {
    let mut html = String::from("<!doctype html><title>Long read</title><main>");
    for i in 1..=400 {
        html.push_str(&format!(
            "<section><h2>Chapter {i}</h2><p>Paragraph {i} tells a long story about the number {i} and why it matters.</p><a href=\"#c{i}\">Read more about {i}</a></section>"
        ));
    }
    html.push_str("</main>");
    html
}

async fn open_article(env: &Env) -> rove_page::PageModel {
    let tab = env.tab().await;
    let html = long_article();
    tab.goto("about:blank", std::time::Duration::from_secs(5))
        .await
        .expect("blank");
    tab.evaluate(&format!(
        "document.open(); document.write({}); document.close();",
        serde_json::json!(html)
    ))
    .await
    .expect("write article");
    rove_page::PageModel::new(tab)
}

/// The `after=eN` ref of a cut note.
fn next_ref(text: &str) -> Ref {
    let at = text
        .find("snapshot(after=")
        .unwrap_or_else(|| panic!("no paging hint in\n{text}"));
    text[at + "snapshot(after=".len()..]
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .and_then(|r| r.parse().ok())
        .expect("a ref after after=")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_view_fits_the_budget_and_says_how_to_get_the_rest() {
    let env = Env::start().await;
    let mut model = open_article(&env).await;
    let view = model.view(&ViewOptions::default()).await.expect("view");
    assert!(view.tokens <= DEFAULT_BUDGET, "{} tokens", view.tokens);
    assert_eq!(view.tokens, tokens::estimate(&view.text));
    assert!(view.text.contains("h2 \"Chapter 1\""), "{}", view.text);
    assert!(!view.text.contains("Chapter 400"), "the budget did not cut");
    let note = view.text.lines().last().expect("note");
    assert!(note.starts_with("… cut at the 4000-token budget"), "{note}");
    assert!(note.contains("more interactive elements below"), "{note}");

    // The next part starts where the first stopped.
    let after = next_ref(&view.text);
    let next = model
        .view(&ViewOptions {
            after: Some(after),
            ..ViewOptions::default()
        })
        .await
        .expect("next part");
    let last_chapter = |text: &str| {
        text.lines()
            .filter_map(|l| {
                l.split("\"Chapter ")
                    .nth(1)?
                    .split('"')
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .max()
            .unwrap_or(0)
    };
    let first_max = last_chapter(&view.text);
    let next_min = next
        .text
        .lines()
        .filter_map(|l| {
            l.split("\"Chapter ")
                .nth(1)?
                .split('"')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .min()
        .expect("chapters in the next part");
    assert!(
        next_min >= first_max && next_min <= first_max + 1,
        "first part ended at {first_max}, next began at {next_min}"
    );
    assert!(next.tokens <= DEFAULT_BUDGET);

    // A smaller budget per call.
    let small = model
        .view(&ViewOptions {
            budget: Some(300),
            ..ViewOptions::default()
        })
        .await
        .expect("small");
    assert!(small.tokens <= 300, "{} tokens", small.tokens);

    // find reaches an element far beyond the cut, and its ref works.
    let found = model
        .find(&FindQuery {
            text: "Read more about 377".into(),
            role: Some("link".into()),
            limit: None,
        })
        .await
        .expect("find");
    assert!(found.text.contains("1 match"), "{}", found.text);
    let link = found.matches[0];
    assert_eq!(
        on_element(&mut model, link, "return this.getAttribute('href');").await,
        "#c377"
    );
    // The match's line names the chapter it sits under: the context that
    // tells one "Read more" from the 399 others.
    assert_eq!(
        found.text.lines().nth(1),
        Some(
            format!("{link} link \"Read more about 377\" — under heading \"Chapter 377\"").as_str()
        ),
        "{}",
        found.text
    );
    env.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_button_of_a_ten_thousand_row_table_is_reachable() {
    let env = Env::start().await;
    let mut model = env.open("big-table.html").await;
    let view = model.view(&ViewOptions::default()).await.expect("view");
    assert!(view.text.contains("… 9990 more rows like"), "{}", view.text);
    assert!(
        view.tokens < 1_000,
        "a collapsed table should be small: {} tokens",
        view.tokens
    );
    for n in [11, 5_000, 9_999, 10_000] {
        let found = model
            .find(&FindQuery {
                text: format!("Edit {n}"),
                role: Some("button".into()),
                limit: Some(5),
            })
            .await
            .expect("find");
        let r = found.matches[0];
        assert_eq!(
            on_element(&mut model, r, "return this.textContent;").await,
            format!("Edit {n}"),
            "{}",
            found.text
        );
    }
    env.close().await;
}
