//! Hints in the shell's own words. rove's hints and notes name a command to
//! run the way a tool call is written (`wait(load=load)`,
//! `snapshot(after=e12)`), which is how a model over MCP calls it; at the
//! shell the same advice reads `rove wait --load load`. The flags come from
//! the CLI's own definition, so the advice names flags that exist.

use clap::CommandFactory;

use crate::cli::Cli;

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

/// `rove NAME …` for a call's arguments (`load=load, ms=500`).
fn shell_call(name: &str, arguments: &str) -> Option<String> {
    rove_commands::tool(name)?;
    let cli = Cli::command();
    let sub = cli.find_subcommand(name)?;
    let mut words = vec!["rove".to_owned(), name.to_owned()];
    for pair in arguments
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=')?;
        let arg = sub
            .get_arguments()
            .find(|a| a.get_id() == key)
            .or_else(|| {
                (key == "ref")
                    .then(|| sub.get_arguments().find(|a| a.get_id() == "target"))
                    .flatten()
            })?;
        if let Some(long) = arg.get_long() {
            words.push(format!("--{long}"));
        }
        words.push(quoted(value));
    }
    Some(words.join(" "))
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
            "read a part with rove read --ref eN (refs from snapshot or find), or read it all with rove read --budget 0"
        );
        assert_eq!(for_shell("click(ref=e7)"), "rove click e7");
        // Not a tool, or an argument the tool does not have: left alone.
        assert_eq!(for_shell("f(x) and wait(nope=1)"), "f(x) and wait(nope=1)");
        assert_eq!(for_shell("unclosed wait(load"), "unclosed wait(load");
    }
}
