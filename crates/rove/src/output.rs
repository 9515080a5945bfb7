//! Everything the CLI writes to stdout goes through here. Logs go to stderr.
//! A write that fails (`rove snapshot | head -1` closed the pipe) is left
//! unsaid: the reader has what it wanted, and a panic would be rove's only
//! answer otherwise.
//!
//! Every write passes `rove_base::redact::hide_registered`: a key or token
//! this process holds (a model's key, a token it obtained, a session's
//! secrets) never reaches the terminal or a caller's `--json`, whatever
//! carried it there (a provider's error that repeats the key, a model's
//! answer that quotes it).

use std::io::Write;

/// `text` to stdout, flushed; a closed pipe is not an error of rove's.
fn out(text: &str) {
    let text = rove_base::redact::hide_registered(text);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// `text` and a line break to stderr, whatever became of stderr.
fn err_line(text: &str) {
    let text = rove_base::redact::hide_registered(text);
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

use serde_json::{Value, json};

use crate::failure::Failure;

/// Text for a terminal without its control characters (line breaks and
/// tabs stay): a model's answer or a judge's verdict may carry escapes a
/// page talked it into (a clipboard write, a line erased), and rove's own
/// lines use none. Each becomes `\u{FFFD}`, so the person sees one was there.
fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| if unsafe_char(c) { '\u{FFFD}' } else { c })
            .collect(),
    )
}

/// How results are shown.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
}

impl Output {
    /// A human line (ignored in JSON mode, where only the final object counts).
    pub fn line(&self, text: &str) {
        if !self.json {
            out(&format!("{}\n", terminal_safe(text)));
        }
    }

    /// Text as it is, for a file's content a caller redirects (ignored in
    /// JSON mode).
    pub fn raw(&self, text: &str) {
        if !self.json {
            out(text);
        }
    }

    /// Advice for the person, on stderr so that stdout stays the result
    /// (ignored in JSON mode, where the final object carries it).
    pub fn note(&self, text: &str) {
        if !self.json {
            err_line(&terminal_safe(text));
        }
    }

    /// A line for the person at the terminal that no output mode hides
    /// (a challenge for them to solve in the browser's window).
    pub fn ask(text: &str) {
        err_line(&terminal_safe(text));
    }

    /// One answer to the program that steers a run (`rove run --steer`):
    /// a JSON line, written in either mode.
    pub fn message(&self, value: &Value) {
        out(&format!("{value}\n"));
    }

    /// The final success object: `{"ok":true, …fields}`.
    pub fn success(&self, fields: Value) {
        if self.json {
            let mut object = json!({"ok": true});
            if let (Some(target), Value::Object(extra)) = (object.as_object_mut(), fields) {
                target.extend(extra);
            }
            out(&format!("{object}\n"));
        }
    }

    /// The final failure: `{"ok":false,"error":{…}}` in JSON mode, else a
    /// readable block on stderr.
    pub fn failure(&self, failure: &Failure, partial: Option<Value>) {
        if self.json {
            let mut object = json!({"ok": false, "error": failure});
            if let (Some(target), Some(Value::Object(extra))) = (object.as_object_mut(), partial) {
                target.extend(extra);
            }
            out(&format!("{object}\n"));
        } else {
            eprint_failure(failure);
        }
    }
}

fn eprint_failure(failure: &Failure) {
    err_line(&format!(
        "error[{}]: {}",
        failure.report.code, failure.report.message
    ));
    err_line(&format!("  hint: {}", failure.report.hint));
    if let Some(view) = &failure.fresh_view {
        err_line(view);
    }
}
