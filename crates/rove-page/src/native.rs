//! The view of a native application's window: the same lines, refs,
//! budget, `find` and diff as a page's, fed from an accessibility tree
//! instead of the walker.
//!
//! A platform backend (rove-desktop) reads the elements; the commands layer
//! hands them here as [`NativeElement`]s, already in the view's role words.
//! Each element's key (its bus name and object path on Linux) gets a uid of
//! this model's document, so a ref names one element for the model's life.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diff::{diff, render_changes, shown_elements};
use crate::record::{Flags, Line, Record};
use crate::refs::{NodeKey, RefTable};
use crate::render::{RenderOptions, render};
use crate::{Match, Mode, PageError, Ref, View, ViewOptions, tokens};

/// One element of a window, as a backend read it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NativeElement {
    /// What names the element for its life on its platform.
    pub key: String,
    /// Nesting among the elements that have a line.
    pub depth: u16,
    /// The view's role word (`button`, `textbox`; `text` for a label).
    pub role: String,
    pub name: String,
    /// A control's value (a field's text, a slider's number).
    pub value: Option<String>,
    pub states: NativeStates,
}

/// An element's states, as the view names them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NativeStates {
    pub disabled: bool,
    pub checked: bool,
    pub mixed: bool,
    pub pressed: bool,
    pub expanded: bool,
    pub collapsed: bool,
    pub selected: bool,
    pub focused: bool,
    pub readonly: bool,
    pub required: bool,
    pub invalid: bool,
    pub modal: bool,
    pub haspopup: bool,
    /// A password field: its value is never shown.
    pub secret: bool,
}

impl NativeStates {
    fn flags(self) -> Flags {
        let bits = [
            (self.disabled, Flags::DISABLED),
            (self.mixed, Flags::MIXED),
            (self.checked, Flags::CHECKED),
            (self.pressed, Flags::PRESSED),
            (self.haspopup, Flags::HASPOPUP),
            (self.expanded, Flags::EXPANDED),
            (self.collapsed, Flags::COLLAPSED),
            (self.selected, Flags::SELECTED),
            (self.required, Flags::REQUIRED),
            (self.readonly, Flags::READONLY),
            (self.invalid, Flags::INVALID),
            (self.focused, Flags::FOCUSED),
            (self.modal, Flags::MODAL),
        ];
        Flags(
            bits.iter()
                .filter(|(on, _)| *on)
                .fold(0, |all, (_, bit)| all | bit),
        )
    }
}

/// The view model of one native application.
#[derive(Debug)]
pub struct NativeModel {
    refs: RefTable,
    /// This application's document token: fresh for each model, so a key
    /// seen by another model can never match.
    doc: Arc<str>,
    uids: HashMap<String, u32>,
    keys: HashMap<u32, String>,
    last: Option<Vec<Line>>,
}

impl NativeModel {
    /// A model whose refs come from `numbers` (the session's counter, so a
    /// ref names one element session-wide, pages included); `doc` names
    /// the application (its bus name and process).
    pub fn new(numbers: rove_browser::Counter, doc: &str) -> NativeModel {
        NativeModel {
            refs: RefTable::counting(numbers),
            doc: Arc::from(doc),
            uids: HashMap::new(),
            keys: HashMap::new(),
            last: None,
        }
    }

    fn lines(&mut self, elements: Vec<NativeElement>) -> Vec<Line> {
        elements
            .into_iter()
            .map(|e| {
                let next = u32::try_from(self.uids.len() + 1).unwrap_or(u32::MAX);
                let uid = *self.uids.entry(e.key.clone()).or_insert(next);
                self.keys.entry(uid).or_insert(e.key);
                let is_text = e.role == "text";
                let flags = e.states.flags();
                Line {
                    key: NodeKey {
                        doc: self.doc.clone(),
                        uid,
                    },
                    text_index: 0,
                    depth: e.depth,
                    record: Record {
                        uid,
                        depth: e.depth,
                        role: e.role,
                        name: if is_text {
                            String::new()
                        } else {
                            crate::record::clean(e.name.clone())
                        },
                        text: is_text.then(|| crate::record::clean(e.name)),
                        value: if e.states.secret {
                            None
                        } else {
                            e.value.map(crate::record::clean)
                        },
                        secret: e.states.secret,
                        flags,
                        ..Record::default()
                    },
                }
            })
            .collect()
    }

    /// The view of `elements`: full, interactive or a diff against the last
    /// full view, within the budget, as a page's view is rendered. Its
    /// first line is `[target] Title place`, as a tab's is `[t1] Title URL`
    /// (`place` says which application: `app:gnome-calculator`).
    pub fn view(
        &mut self,
        target: &str,
        title: &str,
        place: &str,
        elements: Vec<NativeElement>,
        opts: &ViewOptions,
    ) -> View {
        let header = format!("[{target}] {} {place}\n", crate::render::title_text(title));
        let lines = self.lines(elements);
        let budget = opts.budget();
        if opts.mode == Mode::Diff
            && let Some(previous) = self.last.take()
        {
            let changes = diff(&previous, &lines);
            let shown = shown_elements(&previous, &lines);
            let (body, _) =
                render_changes(&changes, &mut self.refs, &RenderOptions::default(), &shown);
            let unchanged = changes.is_empty();
            let text = if unchanged {
                "(no changes)".to_owned()
            } else {
                body
            };
            self.refs.rebase();
            self.last = Some(lines);
            let mut view = View::new(text, Mode::Diff, place, title);
            view.unchanged = unchanged;
            return view;
        }
        let shown: Vec<Line> = match opts.mode {
            Mode::Interactive => lines
                .iter()
                .filter(|l| crate::roles::is_interactive(&l.record.role))
                .cloned()
                .collect(),
            _ => lines.clone(),
        };
        let render_opts = RenderOptions {
            budget: budget.map(|b| b.saturating_sub(tokens::estimate(&header) + 40)),
            ..RenderOptions::default()
        };
        let rendered = render(&shown, &mut self.refs, &render_opts);
        let mut text = header;
        text.push_str(&rendered.text);
        if let Some(cut) = rendered.cut_at {
            let left = shown[cut..]
                .iter()
                .filter(|l| crate::roles::is_interactive(&l.record.role))
                .count();
            text.push_str(&format!(
                "… cut at the {}-token budget; about {left} more interactive elements below. To reach one directly: find \"text\".\n",
                budget.unwrap_or(0)
            ));
        }
        if opts.mode != Mode::Interactive {
            self.refs.rebase();
            self.last = Some(lines);
        }
        View::new(text, opts.mode, place, title)
    }

    /// `find` in a window: the elements whose name or value holds the
    /// query's text (any case), each with its ref, in the page's `find`
    /// format under `[target]`.
    pub fn find(
        &mut self,
        target: &str,
        elements: Vec<NativeElement>,
        query: &crate::FindQuery,
    ) -> View {
        let wanted = query.text.to_lowercase();
        let limit = query.limit.unwrap_or(20).max(1);
        let lines = self.lines(elements);
        let mut text = String::new();
        let mut total = 0usize;
        let mut view = View::new(String::new(), Mode::Full, "", "");
        for line in &lines {
            let record = &line.record;
            if query.role.as_deref().is_some_and(|r| r != record.role) || record.role == "text" {
                continue;
            }
            let hay = [Some(&record.name), record.value.as_ref()];
            if !hay
                .iter()
                .flatten()
                .any(|h| h.to_lowercase().contains(&wanted))
            {
                continue;
            }
            total += 1;
            if total > limit {
                continue;
            }
            let r = self.refs.get_or_assign(&line.key);
            text.push_str(&crate::render::describe(
                record,
                Some(r),
                &RenderOptions::default(),
            ));
            text.push('\n');
            view.matches.push(r);
            view.found.push(Match {
                reference: r,
                role: record.role.clone(),
                name: record.name.clone(),
            });
        }
        let head = format!(
            "[{target}] find {}{}: {total} match{}{}\n",
            crate::render::quote(&query.text),
            query
                .role
                .as_deref()
                .map(|r| format!(" role {r}"))
                .unwrap_or_default(),
            if total == 1 { "" } else { "es" },
            if total > limit {
                format!(", first {limit} shown")
            } else {
                String::new()
            },
        );
        let found = View::new(head + &text, Mode::Full, "", "");
        view.text = found.text;
        view.tokens = found.tokens;
        view
    }

    /// The key of the element `r` names; `REF_NOT_FOUND` for a ref this
    /// model never gave.
    pub fn element(&self, r: Ref) -> Result<&str, PageError> {
        self.refs
            .key(r)
            .filter(|k| k.doc == self.doc)
            .and_then(|k| self.keys.get(&k.uid))
            .map(String::as_str)
            .ok_or_else(|| PageError::RefNotFound {
                reference: r,
                reason: "no element of this application has it".to_owned(),
                fresh_view: None,
            })
    }

    /// Whether `r` is one of this model's refs.
    pub fn knows(&self, r: Ref) -> bool {
        self.element(r).is_ok()
    }

    /// The role and name the last view showed for `r`.
    pub fn describe(&self, r: Ref) -> Option<(String, String)> {
        let key = self.refs.key(r)?;
        let line = self.last.as_ref()?.iter().find(|l| &l.key == key)?;
        Some((line.record.role.clone(), line.record.name.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(key: &str, depth: u16, role: &str, name: &str) -> NativeElement {
        NativeElement {
            key: key.to_owned(),
            depth,
            role: role.to_owned(),
            name: name.to_owned(),
            ..NativeElement::default()
        }
    }

    fn window(display: &str) -> Vec<NativeElement> {
        vec![
            element(":1.0/w", 0, "window", "Calculator"),
            NativeElement {
                value: Some(display.to_owned()),
                ..element(":1.0/d", 1, "textbox", "")
            },
            NativeElement {
                states: NativeStates {
                    focused: true,
                    ..NativeStates::default()
                },
                ..element(":1.0/7", 1, "button", "7")
            },
            element(":1.0/l", 1, "text", "Result"),
        ]
    }

    #[test]
    fn a_window_reads_as_a_page_does_and_refs_hold() {
        let mut model = NativeModel::new(rove_browser::Counter::default(), "calc");
        let view = model.view(
            "desktop",
            "Calculator",
            "app:calc",
            window(""),
            &ViewOptions::default(),
        );
        assert_eq!(
            view.text,
            "[desktop] Calculator app:calc\ne1 window \"Calculator\"\n  e2 textbox\n  e3 button \"7\" [focused]\n  Result"
        );
        assert_eq!(model.element(Ref(3)).expect("known"), ":1.0/7");
        assert!(model.element(Ref(9)).is_err());
        let diff = model.view(
            "desktop",
            "Calculator",
            "app:calc",
            window("84"),
            &ViewOptions::mode(Mode::Diff),
        );
        assert_eq!(diff.text, "~ e2 textbox: 84");
        let query = crate::FindQuery {
            text: "7".to_owned(),
            ..crate::FindQuery::default()
        };
        let found = model.find("desktop", window("84"), &query);
        assert_eq!(
            found.text,
            "[desktop] find \"7\": 1 match\ne3 button \"7\" [focused]"
        );
        assert_eq!(found.found[0].reference, Ref(3));
    }

    #[test]
    fn a_budget_cuts_the_window_and_says_so() {
        let mut model = NativeModel::new(rove_browser::Counter::default(), "calc");
        let many: Vec<NativeElement> = (0..400)
            .map(|i| element(&format!("k{i}"), 0, "button", &format!("Key number {i}")))
            .collect();
        let opts = ViewOptions {
            budget: Some(200),
            ..ViewOptions::default()
        };
        let view = model.view("desktop", "Keys", "app:keys", many, &opts);
        assert!(view.tokens <= 200, "{} tokens", view.tokens);
        assert!(
            view.text.contains("… cut at the 200-token budget"),
            "{}",
            view.text
        );
    }
}
