//! The pdf group: `pdf` prints the focused page to a file in the session's
//! output folder (a model names a file, never a path), on the paper asked
//! for, and what is printed is the page's own content.

use crate::support;

use rove_commands::SessionConfig;
use rove_localserver::Response;
use serde_json::json;
use support::{Fixture, code};

/// A page of `paragraphs` paragraphs of text.
fn text_page(paragraphs: usize) -> Response {
    let line = "<p>The quick brown fox jumps over the lazy dog, and prints itself onto paper for rove to read back.</p>";
    Response::html(format!(
        "<!doctype html><title>Print me</title><h1>Printed page</h1>{}",
        line.repeat(paragraphs)
    ))
}

/// The PDF's page boxes, `[x0 y0 x1 y1]`, as the file states them.
fn media_boxes(pdf: &[u8]) -> Vec<Vec<f64>> {
    let text = String::from_utf8_lossy(pdf);
    text.split("/MediaBox")
        .skip(1)
        .filter_map(|rest| {
            let inside = rest.trim_start().strip_prefix('[')?.split(']').next()?;
            Some(
                inside
                    .split_whitespace()
                    .filter_map(|n| n.parse().ok())
                    .collect(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_page_is_printed_to_the_output_folder_on_the_paper_asked_for() {
    let output = rove_testkit::scratch_dir("pdf-output");
    let routes = support::fixture_routes()
        .page("/short.html", text_page(10))
        .page("/long.html", text_page(30));
    let config = SessionConfig {
        output_dir: Some(output.clone()),
        ..SessionConfig::default()
    };
    let mut f = Fixture::with(routes, config).await;

    f.open("/short.html").await;
    let said = f
        .ok(json!({"command": "pdf", "file": "short.pdf"}))
        .await
        .data_text()
        .expect("pdf answers with text")
        .to_owned();
    assert!(said.contains("short.pdf") && said.contains("A4"), "{said}");
    let short = std::fs::read(output.join("short.pdf")).expect("the PDF was written");
    assert!(short.starts_with(b"%PDF-"), "not a PDF");
    assert!(short.len() > 1024, "{} bytes", short.len());
    // A4 upright: 595 × 842 points.
    let boxes = media_boxes(&short);
    assert!(!boxes.is_empty(), "no page box");
    let a4 = &boxes[0];
    assert!(
        (a4[2] - 595.0).abs() < 2.0 && (a4[3] - 842.0).abs() < 2.0,
        "{a4:?}"
    );

    // Three times the text on the same paper makes a bigger file: the
    // page's text is what is printed.
    f.open("/long.html").await;
    f.ok(json!({"command": "pdf", "file": "long.pdf"})).await;
    let long = std::fs::read(output.join("long.pdf")).expect("the PDF was written");
    assert!(long.starts_with(b"%PDF-"), "not a PDF");
    assert!(long.len() > short.len(), "{} ≤ {}", long.len(), short.len());

    // Letter on its side: 792 × 612 points.
    f.ok(json!({"command": "pdf", "file": "wide.pdf", "format": "Letter", "landscape": true, "background": true}))
        .await;
    let wide = std::fs::read(output.join("wide.pdf")).expect("the PDF was written");
    let letter = &media_boxes(&wide)[0];
    assert!(
        (letter[2] - 792.0).abs() < 2.0 && (letter[3] - 612.0).abs() < 2.0,
        "{letter:?}"
    );

    // A model gives a file name, never a path of its own.
    let refused = f
        .fails(json!({"command": "pdf", "file": "../escape.pdf"}))
        .await;
    assert_eq!(code(&refused), "COMMAND_REJECTED");
    assert!(!output.join("../escape.pdf").exists());
    f.close().await;
}
