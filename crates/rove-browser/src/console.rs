//! What a tab's page logged: `console.*` calls, uncaught errors with their
//! stack, and the browser's own messages about the page (a failed resource,
//! a blocked mixed-content request).
//!
//! The tab watch feeds every event of the tab and of its iframes through
//! [`ConsoleLog::record`]; `Runtime.consoleAPICalled`,
//! `Runtime.exceptionThrown` and `Log.entryAdded` become [`ConsoleEntry`]s.
//! The log is a ring of at most [`CONSOLE_CAP`] entries (the oldest go first,
//! and are counted), so a page that logs in a loop costs bounded memory.
//!
//! Everything here was written by the page: texts and URLs are cleaned as
//! other page text is ([`rove_base::text::clean`]: one line, no invisible
//! characters) and cut to [`CONSOLE_TEXT_MAX`] characters.

use serde::Serialize;
use serde_json::Value;

use rove_base::text::{char_prefix, clean, ellipsized};
use rove_cdp::Event;
use rove_cdp::protocol::EventType;
use rove_cdp::protocol::log::{EntryAdded, LogEntry, LogEntryLevel};
use rove_cdp::protocol::runtime::{
    ConsoleAPICalled, ExceptionDetails, ExceptionThrown, RemoteObject, StackTrace,
};

use crate::ring::{Numbered, SeqRing};

/// The most entries kept per tab; older ones are dropped (and counted).
pub const CONSOLE_CAP: usize = 1_000;

/// The most characters kept of one message's text.
pub const CONSOLE_TEXT_MAX: usize = 1_000;

/// The most characters kept of a stack frame's function name.
const NAME_MAX: usize = 200;

/// The most stack frames kept per entry.
const STACK_MAX: usize = 10;

/// How severe a message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsoleLevel {
    /// `console.debug`, the browser's verbose messages.
    Debug,
    /// `console.log` and its kin (`dir`, `table`, `trace` …).
    Log,
    /// `console.info`.
    Info,
    /// `console.warn`.
    Warning,
    /// `console.error`, failed assertions, uncaught errors.
    Error,
}

impl ConsoleLevel {
    /// The level's name, as filters spell it.
    pub fn name(self) -> &'static str {
        match self {
            ConsoleLevel::Debug => "debug",
            ConsoleLevel::Log => "log",
            ConsoleLevel::Info => "info",
            ConsoleLevel::Warning => "warning",
            ConsoleLevel::Error => "error",
        }
    }

    /// How severe: `log` and `info` rank alike, as in the browser's own
    /// console, so a filter on `info` keeps both.
    pub fn rank(self) -> u8 {
        match self {
            ConsoleLevel::Debug => 0,
            ConsoleLevel::Log | ConsoleLevel::Info => 1,
            ConsoleLevel::Warning => 2,
            ConsoleLevel::Error => 3,
        }
    }
}

/// One message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsoleEntry {
    /// Its number in the tab's log (from 1), to tell messages apart.
    pub seq: u64,
    /// How severe it is.
    pub level: ConsoleLevel,
    /// Where it came from: `console`, `exception` (an uncaught error or a
    /// rejected promise), or the browser's source (`network`, `security` …).
    pub source: String,
    /// The message, on one line.
    pub text: String,
    /// Where it was logged or thrown: `url:line:column` (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The call stack, innermost first: `function (url:line:column)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stack: Vec<String>,
}

/// What a read of the log returns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConsoleRead {
    /// The entries, oldest first.
    pub entries: Vec<ConsoleEntry>,
    /// Entries that would have been returned but were dropped from the
    /// ring before anyone read them.
    pub dropped: u64,
}

/// A tab's console messages (see the module).
#[derive(Debug, Default)]
pub struct ConsoleLog {
    ring: SeqRing<ConsoleEntry, CONSOLE_CAP>,
}

impl Numbered for ConsoleEntry {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn set_seq(&mut self, seq: u64) {
        self.seq = seq;
    }
}

impl ConsoleLog {
    /// Keeps the message `event` carries, if it is one.
    pub fn record(&mut self, event: &Event) {
        let parsed = match event.method.as_str() {
            ConsoleAPICalled::METHOD => event.parse().ok().and_then(|c| console_call(&c)),
            ExceptionThrown::METHOD => event
                .parse::<ExceptionThrown>()
                .ok()
                .and_then(|e| exception(&e.exception_details)),
            EntryAdded::METHOD => event
                .parse::<EntryAdded>()
                .ok()
                .and_then(|e| log_entry(&e.entry)),
            _ => None,
        };
        if let Some(entry) = parsed {
            self.push(entry);
        }
    }

    fn push(&mut self, entry: ConsoleEntry) {
        self.ring.push(entry);
    }

    /// The entries since the last such read (or all kept, with `all`), and
    /// marks them read.
    pub fn read(&mut self, all: bool) -> ConsoleRead {
        self.read_where(all, |_| true)
    }

    /// As [`ConsoleLog::read`], of the messages `wanted` keeps (a level
    /// filter): the others stay unread for a later read.
    pub fn read_where(&mut self, all: bool, wanted: impl Fn(&ConsoleEntry) -> bool) -> ConsoleRead {
        let (entries, dropped) = self.ring.read_where(all, wanted);
        ConsoleRead { entries, dropped }
    }

    /// The entries numbered after `seq`, without marking any read.
    pub fn after(&self, seq: u64) -> Vec<ConsoleEntry> {
        self.ring.after(seq)
    }

    /// The number the newest entry got (0 before any).
    pub fn last_seq(&self) -> u64 {
        self.ring.last_seq()
    }
}

/// A `console.*` call.
fn console_call(call: &ConsoleAPICalled) -> Option<ConsoleEntry> {
    let kind = Some(call.kind.as_str())
        .filter(|k| !k.is_empty())
        .unwrap_or("log");
    // Grouping and timers' bookkeeping carry no message of their own.
    if matches!(kind, "endGroup" | "clear" | "profile" | "profileEnd") {
        return None;
    }
    let level = match kind {
        "error" | "assert" => ConsoleLevel::Error,
        "warning" => ConsoleLevel::Warning,
        "info" => ConsoleLevel::Info,
        "debug" => ConsoleLevel::Debug,
        _ => ConsoleLevel::Log,
    };
    let words: Vec<String> = call.args.iter().map(remote_text).collect();
    let mut text = words.join(" ");
    if kind == "assert" {
        text = format!("Assertion failed: {text}");
    }
    let stack = frames(call.stack_trace.as_ref());
    Some(ConsoleEntry {
        seq: 0,
        level,
        source: "console".into(),
        text: cut(text),
        location: top_location(call.stack_trace.as_ref()),
        stack: if kind == "trace" || level == ConsoleLevel::Error {
            stack
        } else {
            Vec::new()
        },
    })
}

/// An uncaught error or an unhandled rejection.
fn exception(details: &ExceptionDetails) -> Option<ConsoleEntry> {
    // `text` is "Uncaught" (or "Uncaught (in promise)"); the exception's
    // description starts with "TypeError: message" and goes on with V8's
    // own stack text, which the structured stack below replaces.
    let prefix = Some(details.text.as_str())
        .filter(|t| !t.is_empty())
        .unwrap_or("Uncaught");
    let exception = details.exception.as_ref();
    let first_line = exception
        .and_then(|e| e.description.as_deref())
        .and_then(|d| d.lines().next())
        .map(str::to_owned)
        .or_else(|| exception.and_then(|e| e.value.as_ref()).map(value_text))
        .unwrap_or_default();
    let text = if first_line.is_empty() {
        prefix.to_owned()
    } else {
        format!("{prefix} {first_line}")
    };
    let location = top_location(details.stack_trace.as_ref()).or_else(|| {
        let url = details.url.as_deref().filter(|u| !u.is_empty())?;
        Some(location_of(
            url,
            u64::try_from(details.line_number).ok(),
            u64::try_from(details.column_number).ok(),
        ))
    });
    Some(ConsoleEntry {
        seq: 0,
        level: ConsoleLevel::Error,
        source: "exception".into(),
        text: cut(text),
        location,
        stack: frames(details.stack_trace.as_ref()),
    })
}

/// A message of the browser's own (`Log.entryAdded`).
fn log_entry(entry: &LogEntry) -> Option<ConsoleEntry> {
    let level = match entry.level {
        LogEntryLevel::Error => ConsoleLevel::Error,
        LogEntryLevel::Warning => ConsoleLevel::Warning,
        LogEntryLevel::Verbose => ConsoleLevel::Debug,
        _ => ConsoleLevel::Info,
    };
    let location = entry.url.as_deref().filter(|u| !u.is_empty()).map(|url| {
        location_of(
            url,
            entry.line_number.and_then(|l| u64::try_from(l).ok()),
            None,
        )
    });
    let source = Some(entry.source.as_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("other");
    Some(ConsoleEntry {
        seq: 0,
        level,
        source: clean(source.to_owned()),
        text: cut(entry.text.clone()),
        location,
        stack: frames(entry.stack_trace.as_ref()),
    })
}

/// One logged value as the console shows it: a string as it is, a number
/// or boolean as written, an object by its description.
fn remote_text(object: &RemoteObject) -> String {
    if let Some(value) = &object.value {
        return value_text(value);
    }
    if let Some(text) = &object.unserializable_value {
        return text.clone();
    }
    if let Some(text) = &object.description {
        return text.clone();
    }
    Some(object.kind.as_str())
        .filter(|k| !k.is_empty())
        .unwrap_or("undefined")
        .to_owned()
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The innermost frame's place, if the stack has one.
fn top_location(stack: Option<&StackTrace>) -> Option<String> {
    let frame = stack?.call_frames.first()?;
    let url = Some(frame.url.as_str()).filter(|u| !u.is_empty())?;
    Some(location_of(
        url,
        u64::try_from(frame.line_number).ok(),
        u64::try_from(frame.column_number).ok(),
    ))
}

/// The frames of a stack trace, innermost first, at most [`STACK_MAX`].
fn frames(stack: Option<&StackTrace>) -> Vec<String> {
    let Some(stack) = stack else {
        return Vec::new();
    };
    stack
        .call_frames
        .iter()
        .take(STACK_MAX)
        .map(|f| {
            let place = location_of(
                &f.url,
                u64::try_from(f.line_number).ok(),
                u64::try_from(f.column_number).ok(),
            );
            match Some(f.function_name.as_str()).filter(|n| !n.is_empty()) {
                Some(name) => format!("{} ({place})", short_name(name)),
                None => place,
            }
        })
        .collect()
}

/// A frame's function name, cleaned and cut: a page may name a function
/// by a string of megabytes.
fn short_name(name: &str) -> String {
    ellipsized(&clean(char_prefix(name, NAME_MAX + 1).to_owned()), NAME_MAX)
}

/// `url:line:column`, 1-based (the protocol counts from 0).
fn location_of(url: &str, line: Option<u64>, column: Option<u64>) -> String {
    let url = clean(char_prefix(url, CONSOLE_TEXT_MAX).to_owned());
    match (line, column) {
        (Some(l), Some(c)) => format!("{url}:{}:{}", l + 1, c + 1),
        (Some(l), None) => format!("{url}:{}", l + 1),
        _ => url,
    }
}

/// Page text on one line, at most [`CONSOLE_TEXT_MAX`] characters.
fn cut(text: String) -> String {
    ellipsized(&clean(text), CONSOLE_TEXT_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(text: &str) -> ConsoleEntry {
        ConsoleEntry {
            seq: 0,
            level: ConsoleLevel::Log,
            source: "console".into(),
            text: text.into(),
            location: None,
            stack: Vec::new(),
        }
    }

    #[test]
    fn the_ring_keeps_the_newest_and_counts_what_was_dropped_unread() {
        let mut log = ConsoleLog::default();
        log.push(entry("first"));
        assert_eq!(log.read(false).entries.len(), 1);
        for i in 0..CONSOLE_CAP + 5 {
            log.push(entry(&format!("m{i}")));
        }
        let read = log.read(false);
        assert_eq!(read.entries.len(), CONSOLE_CAP);
        assert_eq!(read.dropped, 5);
        assert_eq!(read.entries[0].text, "m5");
        assert!(log.read(false).entries.is_empty());
        assert_eq!(log.read(true).entries.len(), CONSOLE_CAP);
    }

    #[test]
    fn a_call_joins_its_arguments_and_cleans_them() {
        let params = json!({
            "type": "warning",
            "args": [{"type": "string", "value": "line\nbreak\u{200B}"}, {"type": "number", "value": 4}],
            "stackTrace": {"callFrames": [{"functionName": "f", "url": "http://x/a.js", "lineNumber": 2, "columnNumber": 4}]}
        });
        let call = serde_json::from_value(params).expect("a console call");
        let e = console_call(&call).expect("an entry");
        assert_eq!(e.text, "line break 4");
        assert_eq!(e.level, ConsoleLevel::Warning);
        assert_eq!(e.location.as_deref(), Some("http://x/a.js:3:5"));
    }
}
