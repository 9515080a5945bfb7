//! What changed between two observations of a page.
//!
//! Lines are matched by identity (the element, and for text the position of
//! the run within its element), never by content, so a changed name or value
//! is a change of that element, not a removal and an addition.

use std::collections::HashMap;

use crate::record::{Line, Record};
use crate::refs::{NodeKey, RefTable};
use crate::render::{RenderOptions, describe, element_text, escape_text};
use crate::tokens;

/// One difference.
#[derive(Debug)]
pub(crate) enum Change<'a> {
    Added(&'a Line),
    Removed(&'a Line),
    Changed { old: &'a Line, new: &'a Line },
}

/// The changes from `old` to `new`: additions and changes in the new order,
/// then removals in the old order.
pub(crate) fn diff<'a>(old: &'a [Line], new: &'a [Line]) -> Vec<Change<'a>> {
    let before: HashMap<(&NodeKey, u16), &Line> =
        old.iter().map(|l| ((&l.key, l.text_index), l)).collect();
    let after: HashMap<(&NodeKey, u16), &Line> =
        new.iter().map(|l| ((&l.key, l.text_index), l)).collect();
    let mut changes = Vec::new();
    for line in new {
        match before.get(&(&line.key, line.text_index)) {
            None => changes.push(Change::Added(line)),
            Some(prev) if !same_content(&prev.record, &line.record) => {
                changes.push(Change::Changed {
                    old: prev,
                    new: line,
                })
            }
            Some(_) => {}
        }
    }
    for line in old {
        if !after.contains_key(&(&line.key, line.text_index)) {
            changes.push(Change::Removed(line));
        }
    }
    changes
}

/// Equal as the agent would see them; the depth (a move) does not count,
/// nor does focus moving onto or off a control that takes no text (a clicked
/// button gets focus: news to nobody, and noise in every diff).
fn same_content(a: &Record, b: &Record) -> bool {
    let flags = |r: &Record| -> String {
        if takes_text(&r.r) {
            return r.f.clone();
        }
        r.f.split(' ')
            .filter(|f| *f != "focused")
            .collect::<Vec<_>>()
            .join(" ")
    };
    a.r == b.r
        && a.n == b.n
        && a.v == b.v
        && flags(a) == flags(b)
        && a.t == b.t
        && a.l == b.l
        && a.o == b.o
        && a.c == b.c
}

fn takes_text(role: &str) -> bool {
    matches!(
        role,
        "textbox" | "searchbox" | "combobox" | "spinbutton" | "slider"
    )
}

/// Renders changes, one line each: `+` added, `-` removed, `~` changed (with
/// what it was). Text lines carry the ref of the element holding the text, so
/// the change names that element.
pub(crate) fn render_changes(
    changes: &[Change<'_>],
    refs: &mut RefTable,
    opts: &RenderOptions,
) -> (String, usize) {
    let mut text = String::new();
    // Added lines keep their nesting relative to the first line of their run.
    let mut run_base: Option<u16> = None;
    let mut i = 0;
    while i < changes.len() {
        let piece = match &changes[i] {
            Change::Added(line) => {
                let base = run_base.map_or(line.depth, |b| b.min(line.depth));
                run_base = Some(base);
                let indent = "  ".repeat(usize::from(line.depth - base));
                format!("+ {indent}{}", line_text(line, refs, opts))
            }
            Change::Removed(line) => {
                run_base = None;
                // A removed element's removed insides are counted, not listed.
                let mut inside = 0;
                while let Some(Change::Removed(next)) = changes.get(i + 1 + inside) {
                    if next.depth <= line.depth {
                        break;
                    }
                    inside += 1;
                }
                let note = match inside {
                    0 => String::new(),
                    1 => " (and 1 line inside)".to_owned(),
                    n => format!(" (and {n} lines inside)"),
                };
                i += inside;
                format!("- {}{note}", line_text(line, refs, opts))
            }
            Change::Changed { old, new } => {
                run_base = None;
                format!(
                    "~ {} (was {})",
                    line_text(new, refs, opts),
                    was(&old.record, &new.record)
                )
            }
        };
        text.push_str(&piece);
        text.push('\n');
        i += 1;
    }
    let tokens = tokens::estimate(&text);
    (text, tokens)
}

fn line_text(line: &Line, refs: &mut RefTable, opts: &RenderOptions) -> String {
    if line.record.is_text() {
        let r = refs.get_or_assign(&line.key);
        format!(
            "{r} text {}",
            escape_text(line.record.t.as_deref().unwrap_or_default())
        )
    } else {
        element_text(line, refs, opts).0
    }
}

/// What the old line said, as briefly as tells the difference.
fn was(old: &Record, new: &Record) -> String {
    let quote = crate::render::quote;
    if old.is_text() {
        return quote(&changed_part(
            old.t.as_deref().unwrap_or_default(),
            new.t.as_deref().unwrap_or_default(),
        ));
    }
    let mut parts = Vec::new();
    if old.n != new.n {
        parts.push(quote(&changed_part(&old.n, &new.n)));
    }
    if old.v != new.v {
        parts.push(match &old.v {
            Some(v) if !v.is_empty() => format!(
                "value {}",
                quote(&changed_part(v, new.v.as_deref().unwrap_or_default()))
            ),
            _ => "empty".to_owned(),
        });
    }
    if old.f != new.f {
        parts.push(if old.f.is_empty() {
            "no flags".to_owned()
        } else {
            format!("[{}]", old.f)
        });
    }
    if parts.is_empty() {
        describe(old, None, &RenderOptions::default())
    } else {
        parts.join(", ")
    }
}

/// The part of `old` that differs from `new`, with a word of context on each
/// side and `…` where words were left out: a long sentence with one word
/// changed costs a few tokens, not the sentence twice.
fn changed_part(old: &str, new: &str) -> String {
    if old.chars().count() <= 40 {
        return old.to_owned();
    }
    let a: Vec<&str> = old.split(' ').collect();
    let b: Vec<&str> = new.split(' ').collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_suffix)
        .take_while(|(x, y)| x == y)
        .count();
    let start = prefix.saturating_sub(1);
    let end = (a.len() - suffix + 1).min(a.len());
    let mut out = String::new();
    if start > 0 {
        out.push_str("… ");
    }
    out.push_str(&a[start..end].join(" "));
    if end < a.len() {
        out.push_str(" …");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::changed_part;

    #[test]
    fn only_the_changed_words_are_repeated() {
        // Short texts are repeated whole.
        assert_eq!(changed_part("Loading", "Done"), "Loading");
        assert_eq!(
            changed_part("Outer button", "Outer button pressed"),
            "Outer button"
        );
        let long = "Enter the username alan and the password KPnMy into the text fields";
        let changed = "Enter the username bob and the password KPnMy into the text fields";
        assert_eq!(changed_part(long, changed), "… username alan and …");
        let grown = format!("{long} now");
        assert_eq!(changed_part(long, &grown), "… fields");
    }
}
