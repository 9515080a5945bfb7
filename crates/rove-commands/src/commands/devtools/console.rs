//! `console`: what the focused tab's pages logged, from the log its watch
//! keeps (`rove_browser::ConsoleLog`, a ring of the newest
//! `rove_browser::CONSOLE_CAP` messages per tab).
//!
//! The page wrote every message: the browser layer has cleaned each to one
//! line without invisible characters, and here each text is quoted, so no
//! message passes for a line of rove's own.

use rove_browser::{ConsoleEntry, ConsoleRead};

use crate::{CommandError, ConsoleArgs, Data, Outcome, Session};

impl Session {
    pub(crate) async fn console(
        &mut self,
        args: &ConsoleArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let least = args.level.map_or(0, |l| l.rank());
        // Messages below the level asked for stay unread: a later call
        // without the filter still gets them.
        let read = tab
            .watch()
            .await?
            .console_where(args.all, |e| e.level.rank() >= least);
        let shown: Vec<&ConsoleEntry> = read.entries.iter().collect();
        out.data = Some(Data::Text(render(
            &shown,
            &read,
            args,
            &tab.id().to_string(),
        )));
        Ok(())
    }
}

/// The messages as text: a heading line, then one line per message (and
/// one per stack frame, indented).
fn render(shown: &[&ConsoleEntry], read: &ConsoleRead, args: &ConsoleArgs, tab: &str) -> String {
    let since = if args.all {
        "kept"
    } else {
        "since the last call"
    };
    let filter = args
        .level
        .map(|l| format!(" at level {} or worse", level_name(l)))
        .unwrap_or_default();
    let mut text = match shown.len() {
        0 => format!("no console messages{filter} {since} in tab {tab}\n"),
        1 => format!("1 console message{filter} {since} in tab {tab}:\n"),
        n => format!("{n} console messages{filter} {since} in tab {tab}:\n"),
    };
    if read.dropped > 0 {
        text.push_str(&format!(
            "({} older messages were dropped unread: rove keeps the newest {} per tab)\n",
            read.dropped,
            rove_browser::CONSOLE_CAP
        ));
    }
    for entry in shown {
        let source = if entry.source == "console" {
            String::new()
        } else {
            format!(" {}", entry.source)
        };
        // Quoted as rove quotes all page text (docs/view-format.md): a
        // debug string would show an accent the page combined, say, as
        // an escape the reader cannot read.
        text.push_str(&format!(
            "[{}{source}] {}",
            entry.level.name(),
            rove_base::text::quoted(&entry.text, rove_browser::CONSOLE_TEXT_MAX)
        ));
        if let Some(place) = &entry.location {
            text.push_str(&format!(" at {place}"));
        }
        text.push('\n');
        for frame in &entry.stack {
            text.push_str(&format!("    at {frame}\n"));
        }
    }
    text
}

fn level_name(level: crate::LevelArg) -> &'static str {
    match level {
        crate::LevelArg::Debug => "debug",
        crate::LevelArg::Info => "info",
        crate::LevelArg::Warning => "warning",
        crate::LevelArg::Error => "error",
    }
}
