//! The conformance harness for `tests/patterns.rs`: pages served from
//! `tests/patterns/`, steps with refs written as the view reads them, and
//! the check that every control a page shows has a ref.

use std::path::Path;

use crate::support::{Fixture, code};
use rove_commands::SessionConfig;
use rove_localserver::Routes;
use serde_json::{Value, json};

pub fn routes() -> Routes {
    rove_testkit::fixture_routes(&patterns_dir())
}

pub fn patterns_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/patterns")
}

/// One operation on a pattern page.
pub struct Step {
    /// The command; a string `@role "name"` stands for the ref of the line
    /// that reads so in the view before the step.
    command: Value,
    /// The error code the command must fail with, if it must.
    error: Option<&'static str>,
    /// An expression read in the page afterwards, and the value it must have.
    check: &'static str,
    expect: Value,
    /// Lines the next view must hold after their refs (each the whole rest
    /// of its line or row cell: flags and value included).
    shows: &'static [&'static str],
}

pub fn step(
    command: Value,
    check: &'static str,
    expect: Value,
    shows: &'static [&'static str],
) -> Step {
    Step {
        command,
        error: None,
        check,
        expect,
        shows,
    }
}

/// A step whose command must be refused with `error`, leaving the page as
/// `check` reads it.
pub fn refused(command: Value, error: &'static str, check: &'static str, expect: Value) -> Step {
    Step {
        command,
        error: Some(error),
        check,
        expect,
        shows: &[],
    }
}

/// The controls the page shows, read from Chromium's own role and name in
/// the page: every element that is a native control or has an ARIA widget
/// role, visible, not inert behind a modal dialog, as `role "name"` the
/// way a view writes it; and every other element a widget made focusable
/// (a grid's cells, a treegrid's rows, a feed's articles), as the first
/// line (or cell) of its text. The options of a native select are listed on the
/// select's line, not as lines of their own.
const CONTROLS: &str = r#"(() => {
  const roles = new Set(ROLES);
  const typed = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'file'];
  const modals = Array.from(document.querySelectorAll('dialog:modal'));
  const lines = [];
  const near = [];
  for (const e of document.querySelectorAll('a[href], button, input, select, textarea, summary, [role], [contenteditable], [tabindex]')) {
    if (!e.checkVisibility({checkVisibilityCSS: true}) || e.closest('[aria-hidden=true], [inert]')) continue;
    if (modals.length && !modals.some((m) => m.contains(e))) continue;
    if (e.closest('select') && e.tagName === 'OPTION') continue;
    let role = e.computedRole;
    let name = e.computedName;
    if (e.tagName === 'INPUT' && typed.includes(e.type)) role = e.type;
    if (e.tagName === 'INPUT' && e.type === 'file') name = e.labels[0].textContent.trim();
    if (e.tagName === 'SUMMARY') role = 'button';
    if (e.isContentEditable && e.hasAttribute('contenteditable') && (role === 'generic' || role === '')) role = 'textbox';
    if (roles.has(role)) lines.push(`${role} "${name}"`);
    else if (e.hasAttribute('tabindex')) near.push(e.innerText.trim().split(/\s*[\n\t]/)[0].trim() || name);
  }
  return {lines, near};
})()"#;

/// Whether a line of `view` shows `text` right after a ref, with at most
/// a role word, flags in brackets, a cell bar and a quote between them
/// (`e5 article "Title`, `e7 [collapsed] | Title`, `| e9 3 |`).
fn has_ref_near(view: &str, text: &str) -> bool {
    view.lines().any(|line| {
        line.match_indices(text).any(|(at, _)| {
            let mut head = line[..at]
                .trim_end_matches(['"', ' '])
                .trim_end_matches('|')
                .trim_end();
            if head.ends_with(']') {
                head = head.rfind('[').map_or(head, |open| head[..open].trim_end());
            }
            let mut words = head.rsplit(' ');
            let is_ref = |w: &str| {
                w.len() > 1 && w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit())
            };
            match (words.next(), words.next()) {
                (Some(last), _) if is_ref(last) => true,
                (Some(role), Some(before)) => {
                    role.chars().all(|c| c.is_ascii_lowercase() || c == '-') && is_ref(before)
                }
                _ => false,
            }
        })
    })
}

/// Whether `view` has a line (or a row cell) reading `eN {rest}`; with
/// `whole`, `rest` must run to the end of the line or cell.
fn has_line(view: &str, rest: &str, whole: bool) -> bool {
    view.match_indices(rest).any(|(at, _)| {
        let before = &view[..at];
        let Some(head) = before.strip_suffix(' ') else {
            return false;
        };
        let word = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        let is_ref = word.len() > 1
            && word.starts_with('e')
            && word[1..].chars().all(|c| c.is_ascii_digit());
        let after = &view[at + rest.len()..];
        let ends = after.is_empty() || after.starts_with('\n') || after.starts_with(" |");
        is_ref && (ends || (!whole && (after.starts_with(' ') || after.starts_with(':'))))
    })
}

/// The ref of the line reading `eN {rest}…` in `view`.
pub fn ref_of(view: &str, rest: &str) -> String {
    for (at, _) in view.match_indices(rest) {
        let head = view[..at].trim_end_matches(' ');
        let word = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        if word.len() > 1 && word.starts_with('e') && word[1..].chars().all(|c| c.is_ascii_digit())
        {
            return word.to_owned();
        }
    }
    panic!("no line {rest:?} in the view:\n{view}");
}

/// `command` with each `@role "name"` string replaced by its ref in `view`.
fn resolve(command: &Value, view: &str) -> Value {
    match command {
        Value::String(s) if s.starts_with('@') => Value::String(ref_of(view, &s[1..])),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), resolve(v, view)))
                .collect(),
        ),
        other => other.clone(),
    }
}

pub async fn view_of(f: &mut Fixture) -> String {
    let out = f.ok(json!({"command": "snapshot"})).await;
    out.view.expect("snapshot answers with a view").text
}

/// Every control the page shows has a line with a ref in `view`.
async fn every_control_has_a_ref(f: &mut Fixture, view: &str, when: &str) {
    let roles = serde_json::to_string(rove_page::INTERACTIVE_ROLES).expect("roles");
    let controls = f.eval(&CONTROLS.replace("ROLES", &roles)).await;
    let lines = controls["lines"].as_array().expect("control lines");
    let near = controls["near"].as_array().expect("focusable elements");
    assert!(
        !lines.is_empty() || !near.is_empty(),
        "{when}: the page shows no control"
    );
    for control in lines {
        let control = control.as_str().expect("a string");
        assert!(
            has_line(view, control, false),
            "{when}: {control} has no ref in the view:\n{view}"
        );
    }
    for text in near {
        let text = text.as_str().expect("a string");
        assert!(
            has_ref_near(view, text),
            "{when}: the focusable {text:?} has no ref in the view:\n{view}"
        );
    }
}

/// Opens `page`, checks its controls, and runs its steps.
pub async fn conform(page: &str, steps: Vec<Step>) {
    conform_with(page, SessionConfig::default(), steps).await;
}

pub async fn conform_with(page: &str, config: SessionConfig, steps: Vec<Step>) {
    let mut f = Fixture::with(routes(), config).await;
    f.open(&format!("/{page}")).await;
    let mut view = view_of(&mut f).await;
    every_control_has_a_ref(&mut f, &view, &format!("{page} as loaded")).await;
    for (i, s) in steps.iter().enumerate() {
        let command = resolve(&s.command, &view);
        let when = format!("{page} after step {} ({command})", i + 1);
        match s.error {
            None => {
                f.ok(command.clone()).await;
            }
            Some(error) => {
                let e = f.fails(command.clone()).await;
                assert_eq!(code(&e), error, "{when}: {}", e.report().message);
            }
        }
        let state = f.eval(s.check).await;
        assert_eq!(state, s.expect, "{when}: {} in the page", s.check);
        view = view_of(&mut f).await;
        for line in s.shows {
            assert!(
                has_line(&view, line, true),
                "{when}: the view has no line {line:?}:\n{view}"
            );
        }
        every_control_has_a_ref(&mut f, &view, &when).await;
    }
    f.close().await;
}
