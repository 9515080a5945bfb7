//! What changed between two observations of a page.
//!
//! Lines are matched by identity (the element, and for text the position of
//! the run within its element), never by content, so a changed name or value
//! is a change of that element, not a removal and an addition.

use std::collections::{HashMap, HashSet};

use crate::record::{Flags, Line, Record};
use crate::refs::{NodeKey, RefTable};
use crate::render::{RenderOptions, element_text, text_line};
use crate::tokens;

/// One difference.
#[derive(Debug)]
pub(crate) enum Change<'a> {
    /// A new line, and where it stands in the new observation.
    Added(&'a Line, usize),
    /// A line gone, where it stood in the old observation, and where the
    /// lines inside it ended there (the index of the first line after them).
    Removed(&'a Line, usize, usize),
    Changed {
        old: &'a Line,
        new: &'a Line,
    },
}

/// The changes from `old` to `new`: additions and changes in the new order,
/// then removals in the old order.
pub(crate) fn diff<'a>(old: &'a [Line], new: &'a [Line]) -> Vec<Change<'a>> {
    let before: HashMap<(&NodeKey, u16), &Line> =
        old.iter().map(|l| ((&l.key, l.text_index), l)).collect();
    let after: HashMap<(&NodeKey, u16), &Line> =
        new.iter().map(|l| ((&l.key, l.text_index), l)).collect();
    let mut changes = Vec::new();
    for (at, line) in new.iter().enumerate() {
        match before.get(&(&line.key, line.text_index)) {
            None => changes.push(Change::Added(line, at)),
            // An element the view never gave a line (a plain list item)
            // that now has one is news, not a change of something seen.
            Some(prev)
                if crate::render::has_no_line(&prev.record)
                    && !crate::render::has_no_line(&line.record) =>
            {
                changes.push(Change::Added(line, at))
            }
            Some(prev) if !same_content(&prev.record, &line.record) => {
                changes.push(Change::Changed {
                    old: prev,
                    new: line,
                })
            }
            Some(_) => {}
        }
    }
    let ends = subtree_ends(old);
    for (at, line) in old.iter().enumerate() {
        if !after.contains_key(&(&line.key, line.text_index)) {
            changes.push(Change::Removed(line, at, ends[at]));
        }
    }
    changes
}

/// For each line, the index of the first line after it that is not inside
/// it (no deeper than it): its subtree is the lines between. One pass, with a
/// stack of the lines still open.
fn subtree_ends(lines: &[Line]) -> Vec<usize> {
    let mut ends = vec![lines.len(); lines.len()];
    let mut open: Vec<usize> = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        while let Some(&top) = open.last() {
            if lines[top].depth < line.depth {
                break;
            }
            ends[top] = at;
            open.pop();
        }
        open.push(at);
    }
    ends
}

/// Equal as the agent would see them; the depth (a move) does not count,
/// nor does focus moving onto or off a control that takes no text (a clicked
/// button gets focus: news to nobody, and noise in every diff).
fn same_content(a: &Record, b: &Record) -> bool {
    let flags = |r: &Record| -> Flags {
        if crate::roles::takes_value(&r.role) {
            return r.flags;
        }
        r.flags.without(Flags::FOCUSED)
    };
    a.role == b.role
        && a.name == b.name
        && a.value == b.value
        && flags(a) == flags(b)
        && a.popup == b.popup
        && same_text(a, b)
        && a.level == b.level
        && a.options == b.options
        && a.count == b.count
}

/// Equal texts, or one cut where its reading's budget ran out (`cut`, its
/// `…` then) and the start of the other: two readings of different reach
/// cut one long line in different places.
fn same_text(a: &Record, b: &Record) -> bool {
    match (a.text.as_deref(), b.text.as_deref()) {
        (Some(ta), Some(tb)) if ta != tb && (a.cut || b.cut) => {
            let sa = if a.cut {
                ta.strip_suffix('…').unwrap_or(ta)
            } else {
                ta
            };
            let sb = if b.cut {
                tb.strip_suffix('…').unwrap_or(tb)
            } else {
                tb
            };
            (a.cut && sb.starts_with(sa)) || (b.cut && sa.starts_with(sb))
        }
        (ta, tb) => ta == tb,
    }
}

/// The elements a view shows with a line (and so a ref) of their own, in
/// either of the two observations a diff compares.
pub(crate) fn shown_elements(old: &[Line], new: &[Line]) -> HashSet<NodeKey> {
    old.iter()
        .chain(new)
        .filter(|l| !l.record.is_text() && !crate::render::has_no_line(&l.record))
        .map(|l| l.key.clone())
        .collect()
}

/// Renders changes, one line each: `+` added, `-` removed, `~` changed (the
/// line as it reads now). A changed text line carries the ref of the
/// element holding the text, so the change names it. Added and removed text
/// read as the view reads them: with the holder's ref when the view shows
/// the holder (`shown`), bare otherwise (two runs of text in one wrapper
/// must not read as two things with one ref).
pub(crate) fn render_changes(
    changes: &[Change<'_>],
    refs: &mut RefTable,
    opts: &RenderOptions,
    shown: &HashSet<NodeKey>,
) -> (String, usize) {
    let mut text = String::new();
    let mut i = 0;
    while i < changes.len() {
        let piece = match &changes[i] {
            Change::Added(first, at) => {
                // A run of lines that stand together in the new page is
                // rendered exactly as the view renders it (rows on one
                // line, lists as bullets), each line marked `+`.
                let mut run = vec![(*first).clone()];
                let mut next_at = at + 1;
                while let Some(Change::Added(line, at)) = changes.get(i + run.len()) {
                    if *at != next_at {
                        break;
                    }
                    run.push((*line).clone());
                    next_at += 1;
                }
                i += run.len() - 1;
                added_run(&run, refs, opts, shown)
            }
            Change::Changed { new, .. } if crate::render::has_no_line(&new.record) => {
                // Nor does it show this one (a list item that took a name
                // from its title): its insides say what changed.
                i += 1;
                continue;
            }
            Change::Removed(line, ..) if crate::render::has_no_line(&line.record) => {
                // The view never showed this line (an unnamed list, a plain
                // list item): its insides speak for themselves.
                i += 1;
                continue;
            }
            Change::Removed(line, _, end) => {
                // A removed element's removed insides are counted, not
                // listed: only the lines that stood inside it in the old
                // observation (removals elsewhere on the page, however deep,
                // are lines of their own).
                let mut inside = 0;
                while let Some(Change::Removed(_, next_at, _)) = changes.get(i + 1 + inside) {
                    if next_at >= end {
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
                format!("- {}{note}", removed_line_text(line, refs, opts, shown))
            }
            Change::Changed { old, new } => {
                format!("~ {}", changed_line_text(old, new, refs, opts))
            }
        };
        text.push_str(&piece);
        text.push('\n');
        i += 1;
    }
    let tokens = tokens::estimate(&text);
    (text, tokens)
}

/// Added lines that stand together in the new page, rendered as the view
/// renders them (rows on one line, lists as bullets), each marked `+`. Text
/// added to an element that was there before carries that element's ref, so
/// the diff names it.
fn added_run(
    run: &[Line],
    refs: &mut RefTable,
    opts: &RenderOptions,
    shown: &HashSet<NodeKey>,
) -> String {
    let base = run.iter().map(|l| l.depth).min().unwrap_or(0);
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < run.len() {
        if run[k].record.is_text() && run[k].depth == base {
            out.push(format!("+ {}", line_text(&run[k], refs, opts, shown)));
            k += 1;
            continue;
        }
        let start = k;
        while k < run.len() && !(run[k].record.is_text() && run[k].depth == base) {
            k += 1;
        }
        let mut group = run[start..k].to_vec();
        let group_base = group.iter().map(|l| l.depth).min().unwrap_or(0);
        for line in &mut group {
            line.depth -= group_base;
        }
        let shown = crate::render::render(&group, refs, opts);
        out.extend(shown.text.lines().map(|l| format!("+ {l}")));
    }
    out.join("\n")
}

/// A removed line reads as the agent last saw it (the old observation's
/// line) and names the element by the ref the agent was shown. An element
/// that never had one is described without a ref: it is gone, and a fresh
/// number would name nothing the agent saw or could use.
fn removed_line_text(
    line: &Line,
    refs: &mut RefTable,
    opts: &RenderOptions,
    shown: &HashSet<NodeKey>,
) -> String {
    let text = text_line(&line.record);
    match refs.shown(&line.key) {
        Some(r) if line.record.is_text() && shown.contains(&line.key) => format!("{r} text {text}"),
        _ if line.record.is_text() => text,
        Some(r) => crate::render::describe(&line.record, Some(r), opts),
        // A collapsed run (`… 20 more rows …`) has no ref of its own.
        None if line.record.role == "more" => element_text(line, refs, opts).0,
        None => crate::render::describe(&line.record, None, opts),
    }
}

fn line_text(
    line: &Line,
    refs: &mut RefTable,
    opts: &RenderOptions,
    shown: &HashSet<NodeKey>,
) -> String {
    if line.record.is_text() {
        text_of(line, text_line(&line.record), refs, shown)
    } else {
        element_text(line, refs, opts).0
    }
}

/// `eN text …` when the element holding the text has a line of its own,
/// else the text as the view writes it.
fn text_of(line: &Line, words: String, refs: &mut RefTable, shown: &HashSet<NodeKey>) -> String {
    if shown.contains(&line.key) {
        format!("{} text {words}", refs.get_or_assign(&line.key))
    } else {
        words
    }
}

/// A changed line as it reads now, without what it was: the agent read the
/// old line in the view this diff follows, so repeating it would pay twice
/// for text it already has. A long text, name or value that changed is cut
/// down to its changed words (see [`changed_words`]).
fn changed_line_text(old: &Line, new: &Line, refs: &mut RefTable, opts: &RenderOptions) -> String {
    let (was, now) = (&old.record, &new.record);
    if now.is_text() {
        let now_text = now.text.as_deref().unwrap_or_default();
        let words = changed_words(was.text.as_deref().unwrap_or_default(), now_text)
            .unwrap_or_else(|| text_line(now));
        // A changed text always names the element that holds it, shown with
        // a line or not: which text changed is what the line is about, and
        // the line itself introduces the ref (the element holding this
        // text).
        return format!("{} text {words}", refs.get_or_assign(&new.key));
    }
    let mut shown = now.clone();
    if let Some(words) = changed_words(&was.name, &now.name) {
        shown.name = words;
    }
    if let (Some(was_value), Some(now_value)) = (&was.value, &now.value)
        && let Some(words) = changed_words(was_value, now_value)
    {
        shown.value = Some(words);
    }
    let shown_line = Line {
        record: shown,
        ..(*new).clone()
    };
    element_text(&shown_line, refs, opts).0
}

/// Texts up to this many characters are shown whole when they change.
const WHOLE_TEXT_CHARS: usize = 40;

/// The words of a long `new` text that differ from `old`, with a word of
/// context before them (after them too when nothing was inserted, or when the
/// change starts the text) and `…` where unchanged words were left out: a
/// long sentence with one word changed costs a few tokens, not the sentence
/// again. `None` when `new` is short enough to show whole or nothing changed.
fn changed_words(old: &str, new: &str) -> Option<String> {
    if old == new || new.chars().count() <= WHOLE_TEXT_CHARS {
        return None;
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
    let changed_end = b.len() - suffix;
    let start = prefix.saturating_sub(1);
    let wants_after = changed_end == prefix || prefix == 0;
    let end = if wants_after {
        (changed_end + 1).min(b.len())
    } else {
        changed_end
    };
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(&b[start..end].join(" "));
    if end < b.len() {
        out.push('…');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::changed_words;

    #[test]
    fn only_the_changed_words_are_shown() {
        // Short texts are shown whole.
        assert_eq!(changed_words("Loading", "Done"), None);
        let long = "Enter the username alan and the password KPnMy into the text fields";
        let changed = "Enter the username bob and the password KPnMy into the text fields";
        assert_eq!(
            changed_words(long, changed).as_deref(),
            Some("…username bob…")
        );
        let grown = format!("{long} now");
        assert_eq!(changed_words(long, &grown).as_deref(), Some("…fields now"));
        // A deletion shows the words on both sides of the gap.
        let shorter = "Enter the username alan the password KPnMy into the text fields";
        assert_eq!(changed_words(long, shorter).as_deref(), Some("…alan the…"));
        // A change at the start is anchored by the word after it.
        let first = "Type the username alan and the password KPnMy into the text fields";
        assert_eq!(changed_words(long, first).as_deref(), Some("Type the…"));
        assert_eq!(changed_words(long, long), None);
    }
}
