//! The diff view: what changed since the model's last full or diff view,
//! within what both readings of the page covered.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::json;

use super::{
    BASELINE_CHARS, DIFF_SHARE, Mode, PageModel, Snapshot, View, ViewOptions, origin_of,
    reading_chars, unseen_after, walk_chars,
};
use crate::PageError;
use crate::diff::{diff, render_changes, shown_elements};
use crate::record::Line;
use crate::refs::NodeKey;
use crate::render::RenderOptions;

/// What an unchanged diff of a page longer than its reading adds.
const PARTIAL: &str =
    " in the part of the page a diff reads; it goes on past that (find \"text\" reaches the rest)";

impl PageModel {
    pub(super) async fn diff_view(&mut self, opts: &ViewOptions) -> Result<View, PageError> {
        let walk = json!({
            "mode": "full",
            "maxChars": opts.budget().map(reading_chars).unwrap_or(BASELINE_CHARS),
            "lineChars": opts.budget().map(walk_chars),
        });
        let mut snapshot = self.snapshot(&walk, None).await?;
        let told = std::mem::take(&mut self.told);
        let Some(mut previous) = self.last.take() else {
            // Nothing to compare with: the first view is a full one.
            let mut view = self.render_snapshot(&snapshot, &snapshot.lines, opts, opts.budget());
            view.text
                .insert_str(0, "(no earlier view to compare with; full view)\n");
            view.mode = Mode::Full;
            snapshot.unseen = unseen_after(&snapshot.lines, self.rendered_cut);
            self.refs.rebase();
            self.last = Some(snapshot);
            return Ok(view);
        };
        if !told.is_empty() {
            let now: std::collections::HashSet<&NodeKey> =
                snapshot.lines.iter().map(|l| &l.key).collect();
            for line in previous.lines.iter_mut() {
                match told.get(&line.key) {
                    Some(value)
                        if line.text_index == 0
                            && !line.record.secret
                            && !now.contains(&line.key) =>
                    {
                        line.record.value = Some(value.clone());
                    }
                    _ => {}
                }
            }
        }
        let mut changes = diff(&previous.lines, &snapshot.lines);
        let past_last = keep_news(&mut changes, &previous, &snapshot, &self.refs);
        if !previous.unseen.is_empty() {
            let at: HashMap<(&NodeKey, u16), usize> = snapshot
                .lines
                .iter()
                .enumerate()
                .map(|(i, l)| ((&l.key, l.text_index), i))
                .collect();
            for change in changes.iter_mut() {
                if let crate::diff::Change::Changed { old, new } = change
                    && previous.unseen.contains(&(old.key.clone(), old.text_index))
                {
                    let index = at.get(&(&new.key, new.text_index)).copied().unwrap_or(0);
                    *change = crate::diff::Change::Added(new, index);
                }
            }
        }
        let render_opts = RenderOptions {
            urls: opts.urls,
            budget: None,
            origin: origin_of(&snapshot.url),
            names_once: true,
        };
        let shown = shown_elements(&previous.lines, &snapshot.lines);
        let (body, body_tokens) = render_changes(&changes, &mut self.refs, &render_opts, &shown);
        let full = self.render_snapshot(&snapshot, &snapshot.lines, opts, opts.budget());
        let full_cut = self.rendered_cut;
        let mut new_unseen = None;
        // The header appears only when the URL or title changed; `+`, `-`
        // and `~` lines say by themselves that this is a diff.
        let mut text = String::new();
        if previous.url != snapshot.url || previous.title != snapshot.title {
            text.push_str(&self.header(&snapshot.url, &snapshot.title));
        }
        if previous.tabs != snapshot.tabs {
            text.push_str(snapshot.tabs.as_deref().unwrap_or("tabs: only this one\n"));
        }
        let unchanged = changes.is_empty()
            && previous.tabs == snapshot.tabs
            && previous.url == snapshot.url
            && previous.title == snapshot.title;
        let view = if unchanged {
            let partial = !snapshot.cut_docs.is_empty();
            text.push_str(&format!(
                "[{}] no changes since the last view{}\n",
                self.tab.id(),
                if partial { PARTIAL } else { "" }
            ));
            let mut view = View::new(text, Mode::Diff, &full.url, &full.title);
            view.unchanged = true;
            view.partial = partial;
            view
        } else if body_tokens as f64 > DIFF_SHARE * full.tokens as f64 {
            let note = format!(
                "(the diff has {} change{}, more than {:.0}% of the page; full view instead)\n",
                changes.len(),
                if changes.len() == 1 { "" } else { "s" },
                DIFF_SHARE * 100.0
            );
            new_unseen = Some(unseen_after(&snapshot.lines, full_cut));
            View::new(note + &full.text, Mode::Full, &full.url, &full.title)
        } else {
            text.push_str(&body);
            View::new(text, Mode::Diff, &full.url, &full.title)
        };
        if new_unseen.is_none() {
            // Still unseen: what the agent was not shown before and this
            // diff did not show either.
            let shown: std::collections::HashSet<(&NodeKey, u16)> = changes
                .iter()
                .filter_map(|c| match c {
                    crate::diff::Change::Added(l, _) => Some((&l.key, l.text_index)),
                    crate::diff::Change::Changed { new, .. } => Some((&new.key, new.text_index)),
                    crate::diff::Change::Removed(..) => None,
                })
                .collect();
            let unseen = snapshot
                .lines
                .iter()
                .zip(&past_last)
                .filter(|(l, past)| {
                    let key = (l.key.clone(), l.text_index);
                    (**past || previous.unseen.contains(&key))
                        && !shown.contains(&(&l.key, l.text_index))
                })
                .map(|(l, _)| (l.key.clone(), l.text_index))
                .collect();
            new_unseen = Some(unseen);
        }
        drop(changes);
        snapshot.unseen = new_unseen.unwrap_or_default();
        let mut view = view;
        view.challenges = full.challenges;
        view.announced = snapshot.news_since(&previous);
        self.refs.rebase();
        self.last = Some(snapshot);
        Ok(view)
    }
}

/// Drops from `changes` what either reading stopped short of: lines read
/// now past where the last reading stopped were not read then (unseen, not
/// added), and lines read then past where this one stops are not known to
/// be gone. Nor is the removal of a line the agent was never shown, unless
/// it was handed a ref for it. Returns, for each line of `now`, whether it
/// lies past the last reading.
fn keep_news(
    changes: &mut Vec<crate::diff::Change<'_>>,
    previous: &Snapshot,
    now: &Snapshot,
    refs: &crate::refs::RefTable,
) -> Vec<bool> {
    let past_last = past_reading(previous, &now.lines);
    let past_now = past_reading(now, &previous.lines);
    changes.retain(|change| match change {
        crate::diff::Change::Added(_, at) => !past_last[*at],
        crate::diff::Change::Removed(line, at, _) => {
            let never_shown = previous
                .unseen
                .contains(&(line.key.clone(), line.text_index))
                && (line.record.is_text() || refs.shown(&line.key).is_none());
            !past_now[*at] && !never_shown
        }
        crate::diff::Change::Changed { .. } => true,
    });
    past_last
}

/// For each line of `other`, whether it lies past where `reading` stopped:
/// in a document whose walk its budget cut, after the last line the two
/// share (or in a frame `reading` never reached, past its main document's
/// cut). A document the two share no line of is all news, not past.
fn past_reading(reading: &Snapshot, other: &[Line]) -> Vec<bool> {
    let mut past = vec![false; other.len()];
    if reading.cut_docs.is_empty() {
        return past;
    }
    let keys: HashSet<(&NodeKey, u16)> = reading
        .lines
        .iter()
        .map(|l| (&l.key, l.text_index))
        .collect();
    let docs: HashSet<&Arc<str>> = reading.lines.iter().map(|l| &l.key.doc).collect();
    let mut last: HashMap<&Arc<str>, usize> = HashMap::new();
    for (at, line) in other.iter().enumerate() {
        if reading.cut_docs.contains(&line.key.doc) && keys.contains(&(&line.key, line.text_index))
        {
            last.insert(&line.key.doc, at);
        }
    }
    let root = reading
        .doc
        .as_ref()
        .filter(|doc| reading.cut_docs.contains(*doc));
    for (at, line) in other.iter().enumerate() {
        let doc = &line.key.doc;
        let bound = if reading.cut_docs.contains(doc) {
            last.get(doc)
        } else if !docs.contains(doc) {
            root.and_then(|r| last.get(r))
        } else {
            None
        };
        past[at] = bound.is_some_and(|b| at > *b);
    }
    past
}
