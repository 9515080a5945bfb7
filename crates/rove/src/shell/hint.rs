//! Hints in the shell's own words. rove's hints and notes name a command to
//! run the way a tool call is written (`wait(load=load)`,
//! `snapshot(after=e12)`), which is how a model over MCP calls it; at the
//! shell the same advice reads `rove wait --load load`. The words and flags
//! come from the command's entry, the one the command line is built from,
//! so the advice names flags that exist.

use crate::cli::vocabulary::ShellName;
use rove_commands::shell::{Fills, Kind, Literal};

/// `text` with each tool-call written as the shell command that does it;
/// a call the shell cannot spell is left as it was.
pub fn for_shell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let (before, after) = rest.split_at(open);
        let name_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &before[name_start..];
        let close = after.find(')');
        let spelled = close.and_then(|close| shell_call(name, &after[1..close]));
        match (spelled, close) {
            (Some(shell), Some(close)) => {
                out.push_str(&before[..name_start]);
                out.push_str(&shell);
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(before);
                out.push('(');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `rove NAME …` for a call's arguments (`load=load, ms=500`): the words in
/// their places, then the flags.
fn shell_call(name: &str, arguments: &str) -> Option<String> {
    let spelled = crate::cli::vocabulary::named(name).filter(|n| n.entry.name == name)?;
    let mut words: Vec<(usize, usize, String)> = Vec::new();
    let mut flags = Vec::new();
    for pair in arguments
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=')?;
        match word_place(&spelled, key) {
            Some((at, slot, kind)) => words.push((at, slot, shell_value(kind, value))),
            None => flags.push(flag_words(&spelled, key, value)?),
        }
    }
    words.sort_by_key(|(at, slot, _)| (*at, *slot));
    let mut line = vec!["rove".to_owned(), name.to_owned()];
    line.extend(words.into_iter().map(|(_, _, word)| quoted(&word)));
    line.extend(flags);
    Some(line.join(" "))
}

/// Where a word of the command takes `argument`: the word's place, the
/// slot's place in it, and the value's kind.
fn word_place(spelled: &ShellName, argument: &str) -> Option<(usize, usize, Kind)> {
    spelled
        .spelling
        .words
        .iter()
        .enumerate()
        .find_map(|(at, word)| {
            let slots: Vec<(&str, Kind)> = match word.fills {
                Fills::Argument(a, kind) => vec![(a, kind)],
                Fills::InOrder(slots) | Fills::AnyOrder(slots) => {
                    slots.iter().map(|s| (s.argument, s.kind)).collect()
                }
                Fills::ByValue { cases, .. } => cases
                    .iter()
                    .flat_map(|c| c.slots)
                    .map(|s| (s.argument, s.kind))
                    .collect(),
                Fills::Arguments(..) | Fills::Sets(..) | Fills::Omits(_) | Fills::Shell(_) => {
                    Vec::new()
                }
            };
            slots
                .iter()
                .position(|(a, _)| *a == argument)
                .map(|slot| (at, slot, slots[slot].1))
        })
}

/// The flag (and its value) that gives `argument` this value.
fn flag_words(spelled: &ShellName, argument: &str, value: &str) -> Option<String> {
    spelled
        .spelling
        .flags
        .iter()
        .find_map(|flag| match flag.fills {
            Fills::Argument(a, Kind::Switch) if a == argument => {
                (value == "true").then(|| format!("--{}", flag.long))
            }
            Fills::Argument(a, kind) if a == argument => Some(format!(
                "--{} {}",
                flag.long,
                quoted(&shell_value(kind, value))
            )),
            Fills::Sets(a, Literal::Text(set)) if a == argument && set == value => {
                Some(format!("--{}", flag.long))
            }
            _ => None,
        })
}

/// A value as the shell spells it (`accept` for a dialog's `true`).
fn shell_value(kind: Kind, value: &str) -> String {
    if let Kind::Words(words) = kind {
        let spelled = words.iter().find(|(_, means)| match means {
            Literal::Bool(b) => value == b.to_string(),
            Literal::Text(t) => value == *t,
        });
        if let Some((typed, _)) = spelled {
            return (*typed).to_owned();
        }
    }
    value.to_owned()
}

fn quoted(value: &str) -> String {
    if value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.…*/:".contains(c))
    {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::for_shell;

    #[test]
    fn tabs_and_dialogs_in_hints_become_shell_commands() {
        assert_eq!(
            for_shell("switched to t2 (tab(action=switch, tab=t1) goes back)"),
            "switched to t2 (rove tab switch t1 goes back)"
        );
        assert_eq!(
            for_shell(
                "answer it with dialog(accept=true) or dialog(accept=false), or leave the page with open(url=URL)"
            ),
            "answer it with rove dialog accept or rove dialog dismiss, or leave the page with rove open URL"
        );
        assert_eq!(
            for_shell("tab t3 is open and focused (tab(action=close, tab=t3) closes it)"),
            "tab t3 is open and focused (rove tab close t3 closes it)"
        );
    }

    #[test]
    fn tool_calls_in_hints_become_shell_commands() {
        assert_eq!(
            for_shell("take a snapshot, or wait(load=load)"),
            "take a snapshot, or rove wait --load load"
        );
        assert_eq!(
            for_shell("Next part: snapshot(after=e12). To reach one directly: find \"text\"."),
            "Next part: rove snapshot --after e12. To reach one directly: find \"text\"."
        );
        assert_eq!(
            for_shell(
                "read a part with read(ref=eN) (refs from snapshot or find), or read it all with read(budget=0)"
            ),
            "read a part with rove read eN (refs from snapshot or find), or read it all with rove read --budget 0"
        );
        assert_eq!(for_shell("click(ref=e7)"), "rove click e7");
        assert_eq!(
            for_shell("snapshot(mode=diff) or fill(text=hi, ref=e3)"),
            "rove snapshot --diff or rove fill e3 hi"
        );
        assert_eq!(for_shell("dialog(accept=true)"), "rove dialog accept");
        // Not a tool, or an argument the tool does not have: left alone.
        assert_eq!(for_shell("f(x) and wait(nope=1)"), "f(x) and wait(nope=1)");
        assert_eq!(for_shell("unclosed wait(load"), "unclosed wait(load");
    }
}
