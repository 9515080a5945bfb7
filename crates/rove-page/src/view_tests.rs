//! Rendering and diffing checked without a browser: lines built in memory
//! as the walker would send them, and the exact text an LLM would read.
//! These run in milliseconds; the browser tests (tests/it/views.rs) cover what
//! the walker itself reads from real pages.
//! (A test module: its parent includes it under #[cfg(test)].)

use std::collections::HashSet;
use std::sync::Arc;

use crate::diff::{diff, render_changes, shown_elements};
use crate::record::{Line, Record};
use crate::refs::{NodeKey, RefTable};
use crate::render::{RenderOptions, render};

/// What a line is, as the walker would describe it; the one place that
/// knows the record's fields.
#[derive(Default)]
struct Spec {
    role: &'static str,
    name: &'static str,
    value: Option<&'static str>,
    flags: &'static str,
    level: Option<u8>,
    text: Option<&'static str>,
    href: Option<&'static str>,
}

fn line(uid: u32, depth: u16, spec: Spec) -> Line {
    let text_index = u16::from(spec.text.is_some());
    Line {
        key: NodeKey {
            doc: Arc::from("doc"),
            uid,
        },
        text_index,
        depth,
        record: Record {
            uid,
            depth,
            role: spec.role.into(),
            name: spec.name.into(),
            value: spec.value.map(str::to_owned),
            flags: crate::record::Flags::from_words(spec.flags),
            level: spec.level,
            text: spec.text.map(str::to_owned),
            href: spec.href.map(str::to_owned),
            ..Record::default()
        },
    }
}

fn el(uid: u32, depth: u16, role: &'static str, name: &'static str) -> Line {
    line(
        uid,
        depth,
        Spec {
            role,
            name,
            ..Spec::default()
        },
    )
}

/// A run of text owned by element `owner`.
fn text(owner: u32, depth: u16, words: &'static str) -> Line {
    line(
        owner,
        depth,
        Spec {
            role: "text",
            text: Some(words),
            ..Spec::default()
        },
    )
}

fn view(lines: &[Line], refs: &mut RefTable) -> String {
    render(lines, refs, &RenderOptions::default()).text
}

fn changes(old: &[Line], new: &[Line], refs: &mut RefTable) -> String {
    let shown: HashSet<NodeKey> = shown_elements(old, new);
    render_changes(&diff(old, new), refs, &RenderOptions::default(), &shown).0
}

fn login_form() -> Vec<Line> {
    vec![
        line(
            1,
            0,
            Spec {
                role: "heading",
                name: "Sign in",
                level: Some(1),
                ..Spec::default()
            },
        ),
        el(2, 0, "textbox", "Email"),
        line(
            3,
            0,
            Spec {
                role: "checkbox",
                name: "Remember me",
                flags: "checked",
                ..Spec::default()
            },
        ),
        el(4, 0, "button", "Log in"),
    ]
}

#[test]
fn elements_render_as_ref_role_name_flags_and_value() {
    let mut refs = RefTable::default();
    let mut lines = login_form();
    lines[1].record.value = Some("ada@example.org".into());
    assert_eq!(
        view(&lines, &mut refs),
        "e1 h1 \"Sign in\"\n\
         e2 textbox \"Email\": ada@example.org\n\
         e3 checkbox \"Remember me\" [checked]\n\
         e4 button \"Log in\"\n"
    );
}

#[test]
fn nesting_indents_and_unnamed_lists_dissolve_into_bullets() {
    let mut refs = RefTable::default();
    let lines = vec![
        el(1, 0, "navigation", "Main"),
        el(2, 1, "list", ""),
        el(3, 2, "listitem", ""),
        el(4, 3, "link", "Home"),
        el(5, 2, "listitem", ""),
        el(6, 3, "link", "Pricing"),
        text(1, 1, "Call us"),
    ];
    assert_eq!(
        view(&lines, &mut refs),
        "e1 navigation \"Main\"\n\
         \x20 - e2 link \"Home\"\n\
         \x20 - e3 link \"Pricing\"\n\
         \x20 Call us\n"
    );
}

#[test]
fn a_simple_table_row_renders_on_one_line() {
    let mut refs = RefTable::default();
    let lines = vec![
        el(1, 0, "table", "Plans"),
        el(2, 1, "row", ""),
        el(3, 2, "cell", "Basic"),
        el(4, 2, "cell", ""),
        el(5, 3, "button", "Buy"),
    ];
    assert_eq!(
        view(&lines, &mut refs),
        "e1 table \"Plans\"\n  e2 | Basic | e3 button \"Buy\" |\n"
    );
}

#[test]
fn a_cell_that_can_be_clicked_carries_its_ref_in_the_row() {
    let mut refs = RefTable::default();
    let cell = |uid, name, flags| {
        line(
            uid,
            2,
            Spec {
                role: "gridcell",
                name,
                flags,
                ..Spec::default()
            },
        )
    };
    let lines = vec![
        el(1, 0, "grid", "March"),
        el(2, 1, "row", ""),
        cell(3, "2", "clickable"),
        cell(4, "3", "selected focused clickable"),
        cell(5, "Holiday", "selected"),
    ];
    assert_eq!(
        view(&lines, &mut refs),
        "e1 grid \"March\"\n  e2 | e3 2 | e4 [selected focused] 3 | [selected] Holiday |\n"
    );
}

#[test]
fn link_targets_show_only_when_asked_and_same_origin_ones_are_shortened() {
    let lines = vec![line(
        1,
        0,
        Spec {
            role: "link",
            name: "Docs",
            href: Some("https://example.org/docs"),
            ..Spec::default()
        },
    )];
    assert_eq!(view(&lines, &mut RefTable::default()), "e1 link \"Docs\"\n");
    let opts = RenderOptions {
        urls: true,
        origin: Some("https://example.org".into()),
        ..RenderOptions::default()
    };
    assert_eq!(
        render(&lines, &mut RefTable::default(), &opts).text,
        "e1 link \"Docs\" -> /docs\n"
    );
}

#[test]
fn a_budget_cuts_the_view_at_a_line_and_says_where() {
    let lines: Vec<Line> = (1..=200).map(|uid| el(uid, 0, "button", "Edit")).collect();
    let opts = RenderOptions {
        budget: Some(100),
        ..RenderOptions::default()
    };
    let out = render(&lines, &mut RefTable::default(), &opts);
    let cut = out.cut_at.expect("200 buttons do not fit in 100 tokens");
    assert!(out.tokens <= 100, "{} tokens", out.tokens);
    assert_eq!(
        out.text.lines().count(),
        cut,
        "one line per record before the cut"
    );
    assert_eq!(out.last_ref.map(|r| r.0), Some(cut as u32));
    assert!(out.text.ends_with(&format!("e{cut} button \"Edit\"\n")));
}

#[test]
fn page_text_that_looks_like_a_ref_line_is_quoted() {
    let lines = vec![text(1, 0, "e9 button \"Pay now\"")];
    let shown = view(&lines, &mut RefTable::default());
    assert!(!shown.starts_with("e9 "), "{shown}");
    assert!(shown.contains("e9 button"), "{shown}");
}

#[test]
fn a_diff_shows_added_removed_and_changed_lines_with_their_refs() {
    let mut refs = RefTable::default();
    let old = login_form();
    // The first view gives e1..e4.
    view(&old, &mut refs);
    let mut new = login_form();
    new[2].record.flags = crate::record::Flags::default(); // unchecked
    new.remove(3); // the button went
    new.push(el(5, 0, "alert", "Wrong password"));
    // In page order: the alert stands where the button stood.
    assert_eq!(
        changes(&old, &new, &mut refs),
        "~ e3 checkbox \"Remember me\"\n\
         + e5 alert \"Wrong password\"\n\
         - e4 button \"Log in\"\n"
    );
}

#[test]
fn nothing_changed_is_an_empty_diff() {
    let mut refs = RefTable::default();
    let old = login_form();
    view(&old, &mut refs);
    assert_eq!(changes(&old, &login_form(), &mut refs), "");
}

#[test]
fn a_removed_element_counts_its_insides_instead_of_listing_them() {
    let mut refs = RefTable::default();
    let old = vec![
        el(1, 0, "dialog", "Cookies"),
        el(2, 1, "button", "Accept"),
        el(3, 1, "button", "Reject"),
        el(4, 0, "main", ""),
    ];
    view(&old, &mut refs);
    let new = vec![el(4, 0, "main", "")];
    assert_eq!(
        changes(&old, &new, &mut refs),
        "- e1 dialog \"Cookies\" (and 2 lines inside)\n"
    );
}

#[test]
fn added_text_in_a_shown_element_carries_that_elements_ref() {
    // Bare text in a diff could not say where it appeared.
    let mut refs = RefTable::default();
    let old = vec![el(1, 0, "status", "")];
    view(&old, &mut refs);
    let new = vec![el(1, 0, "status", ""), text(1, 1, "Saved")];
    let bare = vec![text(9, 0, "Saved")];
    assert_eq!(
        changes(&[], &bare, &mut refs),
        "+ Saved\n",
        "no holder shown"
    );
    assert_eq!(changes(&old, &new, &mut refs), "+ e1 text Saved\n");
}

#[test]
fn a_removed_element_counts_only_what_stood_inside_it() {
    // A header's button and, elsewhere and deeper, a status: both removed.
    // The status was never inside the button.
    let mut refs = RefTable::default();
    let old = vec![
        el(1, 0, "banner", ""),
        el(2, 1, "button", "Stop"),
        text(2, 2, "Stop"),
        el(3, 0, "main", ""),
        el(4, 1, "region", "Output"),
        el(5, 2, "group", ""),
        el(6, 3, "status", "Running"),
        el(7, 4, "img", "Spinner"),
    ];
    view(&old, &mut refs);
    let new = vec![
        el(1, 0, "banner", ""),
        el(3, 0, "main", ""),
        el(4, 1, "region", "Output"),
        el(5, 2, "group", ""),
    ];
    assert_eq!(
        changes(&old, &new, &mut refs),
        "- e2 button \"Stop\" (and 1 line inside)\n\
         - e6 status \"Running\" (and 1 line inside)\n"
    );
}

#[test]
fn a_removed_line_reads_as_last_seen_and_never_gets_a_fresh_ref() {
    let mut refs = RefTable::default();
    let first = vec![el(1, 0, "status", "Running")];
    view(&first, &mut refs);
    // The diff after the first view showed the new name: the baseline is
    // now that observation, and a removal shows what the agent last saw.
    let second = vec![el(1, 0, "status", "Done"), el(2, 0, "button", "Rerun")];
    assert_eq!(
        changes(&first, &second, &mut refs),
        "~ e1 status \"Done\"\n+ e2 button \"Rerun\"\n"
    );
    assert_eq!(
        changes(&second, &[], &mut refs),
        "- e1 status \"Done\"\n- e2 button \"Rerun\"\n"
    );
    // An element the agent was never shown (past a view's budget) is
    // described without a ref when it goes: no number it never saw.
    let unseen = vec![el(9, 0, "button", "Hidden away")];
    assert_eq!(
        changes(&unseen, &[], &mut refs),
        "- button \"Hidden away\"\n"
    );
    // A collapsed run reads as it did.
    let mut more = el(10, 0, "more", "row");
    more.record.count = Some(20);
    assert_eq!(
        changes(&[more], &[], &mut refs),
        "- … 20 more rows like the above (find reaches them)\n"
    );
}

#[test]
fn a_cell_shows_its_link_and_the_text_beside_it() {
    let mut refs = RefTable::default();
    let lines = vec![
        el(1, 0, "table", "Staff"),
        el(2, 1, "row", ""),
        el(3, 2, "cell", "Ada"),
        el(4, 2, "cell", "Engineering 1"),
        el(5, 3, "link", "Engineering"),
        text(4, 3, "1"),
    ];
    assert_eq!(
        view(&lines, &mut refs),
        "e1 table \"Staff\"\n  e2 | Ada | e3 link \"Engineering\" 1 |\n"
    );
}

#[test]
fn a_name_said_by_the_only_child_is_not_cut_from_both() {
    // Tabs whose only child is a link of the same name: each pair is one
    // piece, so a budget never shows a tab without its link's name.
    let mut lines = Vec::new();
    for n in 0..40u32 {
        lines.push(el(2 * n + 1, 0, "tab", "Tab"));
        lines.push(el(2 * n + 2, 1, "link", "Tab"));
    }
    let names_once = RenderOptions {
        budget: Some(60),
        names_once: true,
        ..RenderOptions::default()
    };
    let out = render(&lines, &mut RefTable::default(), &names_once);
    assert!(
        out.text.starts_with("e1 tab\n  e2 link \"Tab\"\n"),
        "{}",
        out.text
    );
    let cut = out.cut_at.expect("80 lines do not fit in 60 tokens");
    assert_eq!(cut % 2, 0, "cut between pairs: {}", out.text);
    assert!(out.text.ends_with("link \"Tab\"\n"), "{}", out.text);
    assert_eq!(out.last_ref.map(|r| r.0), Some(cut as u32));
    // Not in the interactive view, whose lines sit under headings they are
    // not in: the parent keeps its name there.
    let interactive = RenderOptions::default();
    let out = render(&lines[..2], &mut RefTable::default(), &interactive);
    assert_eq!(out.text, "e1 tab \"Tab\"\n  e2 link \"Tab\"\n");
}

#[test]
fn bare_icons_side_by_side_share_a_line_and_page_text_cannot_pass_for_it() {
    let mut lines = vec![el(1, 0, "clickable", ""), el(2, 0, "clickable", "")];
    lines[0].record.hint = Some(".reply".into());
    lines[1].record.hint = Some("#like".into());
    lines.push(el(3, 0, "clickable", ""));
    lines[2].record.flags = crate::record::Flags(crate::record::Flags::FOCUSED);
    lines.push(text(4, 0, "clickable [e9 like]"));
    let shown = view(&lines, &mut RefTable::default());
    assert_eq!(
        shown,
        "clickable [e1 reply e2 #like]\ne3 clickable [focused]\n\"clickable [e9 like]\"\n"
    );
}
