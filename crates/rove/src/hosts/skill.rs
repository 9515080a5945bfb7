//! `rove skill`: a SKILL.md for agents that drive rove through the shell
//! CLI (how to observe, act and read errors). The text lives in `skill.md`;
//! the tests below hold it to the code: every command line in it parses,
//! every option it names exists, every error code it names is one.

use serde_json::json;

use crate::output::Output;

/// The skill file, front matter included.
pub const SKILL: &str = include_str!("skill.md");

/// Prints the skill file; returns the exit status.
pub fn skill(out: Output) -> u8 {
    out.raw(SKILL);
    out.success(json!({"skill": SKILL}));
    0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Words as a POSIX shell would split them (quotes, no expansion), up
    /// to a `#` comment.
    pub(crate) fn shell_words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut in_word = false;
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    in_word = true;
                }
                (None, '#') if !in_word => break,
                (None, c) if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                (None, c) => {
                    word.push(c);
                    in_word = true;
                }
            }
        }
        if in_word {
            words.push(word);
        }
        words
    }

    /// Every rove command line in the file: the lines of code blocks and
    /// the code spans that start with `rove ` (an environment assignment
    /// before it is skipped).
    fn command_lines() -> Vec<String> {
        let mut lines = Vec::new();
        let mut in_block = false;
        for line in SKILL.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
                continue;
            }
            let mut candidates = Vec::new();
            if in_block {
                candidates.push(line.trim().to_owned());
            } else {
                candidates.extend(line.split('`').skip(1).step_by(2).map(str::to_owned));
            }
            for text in candidates {
                let words = shell_words(&text);
                let start = words.iter().position(|w| !w.contains('=')).unwrap_or(0);
                // `rove` alone is the program's name in a sentence.
                if words.get(start).map(String::as_str) == Some("rove") && words.len() > start + 1 {
                    lines.push(text);
                }
            }
        }
        lines
    }

    #[test]
    fn it_is_a_skill_file_with_a_name_and_a_description() {
        let rest = SKILL.strip_prefix("---\n").expect("front matter first");
        let (front, body) = rest.split_once("\n---\n").expect("front matter closed");
        let field = |name: &str| {
            front
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .unwrap_or_else(|| panic!("no {name} in the front matter"))
        };
        assert_eq!(field("name"), "rove");
        let description = field("description");
        // A plain YAML scalar must not hold ": " or start with a quote.
        assert!(!description.contains(": "), "{description}");
        assert!(description.len() > 80, "{description}");
        assert!(body.contains("## Errors"));
    }

    #[test]
    fn every_command_line_in_it_parses() {
        let lines = command_lines();
        assert!(lines.len() >= 30, "{lines:?}");
        let mut commands = std::collections::BTreeSet::new();
        for line in &lines {
            let words = shell_words(line);
            let start = words.iter().position(|w| w == "rove").unwrap_or(0);
            match crate::cli::command().try_get_matches_from(&words[start..]) {
                Ok(matches) => {
                    if let Some((name, _)) = matches.subcommand() {
                        commands.insert(name.to_owned());
                    }
                }
                // A command named in passing (`rove run`) without its
                // required arguments still names a real command.
                Err(e) if e.kind() == clap::error::ErrorKind::MissingRequiredArgument => {}
                Err(e) => panic!("{line:?} does not parse:\n{e}"),
            }
        }
        // It covers observing, acting and ending a session.
        for needed in [
            "open", "snapshot", "find", "read", "click", "fill", "type", "select", "close",
        ] {
            assert!(
                commands.contains(needed),
                "{needed} is not shown: {commands:?}"
            );
        }
    }

    #[test]
    fn every_option_it_names_exists() {
        let mut known = std::collections::BTreeSet::new();
        let top = crate::cli::command();
        for command in std::iter::once(&top).chain(top.get_subcommands()) {
            for arg in command.get_arguments() {
                if let Some(long) = arg.get_long() {
                    known.insert(format!("--{long}"));
                }
            }
        }
        for word in SKILL.split(|c: char| c.is_whitespace() || "`(),".contains(c)) {
            let Some(rest) = word.strip_prefix("--") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            // `---` (front matter, rules) is no option.
            if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
                continue;
            }
            assert!(
                known.contains(&format!("--{name}")),
                "--{name} is not an option"
            );
        }
    }

    #[test]
    fn every_error_code_and_class_it_names_exists() {
        let codes: Vec<&str> = rove_errors::ErrorCode::ALL
            .iter()
            .map(|c| c.as_str())
            .collect();
        let spans: Vec<&str> = SKILL.split('`').skip(1).step_by(2).collect();
        let mut named = 0;
        for span in &spans {
            let looks_like_a_code = span.len() > 3
                && span.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                && !span.starts_with("ROVE_");
            if looks_like_a_code {
                assert!(codes.contains(span), "{span} is not an error code");
                named += 1;
            }
        }
        assert!(named >= 10, "{named} codes named");
        let retry = ["reobserve", "retry", "never"];
        let sent = ["sent", "possibly_sent", "not_sent"];
        let effect = ["none", "uncertain"];
        for value in retry.iter().chain(&sent).chain(&effect) {
            assert!(spans.contains(value), "{value} is not explained");
        }
        // The words it uses are the ones the reports carry.
        let report = rove_errors::Report::new(rove_errors::ErrorCode::Timeout, "m", "h")
            .sent(rove_errors::ActionSent::PossiblySent);
        let wire = serde_json::to_value(&report).expect("a report as JSON");
        assert_eq!(wire["action_sent"], "possibly_sent");
        assert_eq!(wire["side_effect"], "uncertain");
        for class in [
            rove_errors::Retry::Reobserve,
            rove_errors::Retry::Retry,
            rove_errors::Retry::Never,
        ] {
            let word = serde_json::to_value(class).expect("a class");
            assert!(retry.contains(&word.as_str().unwrap_or_default()), "{word}");
        }
        for field in [
            "code",
            "message",
            "hint",
            "retry",
            "action_sent",
            "side_effect",
        ] {
            assert!(wire.get(field).is_some(), "{field}");
            assert!(spans.contains(&field) || SKILL.contains(field), "{field}");
        }
    }

    #[test]
    fn its_exit_statuses_are_the_codes_statuses() {
        let (_, section) = SKILL.split_once("## Exit status").expect("the section");
        let listed: Vec<&str> = section.lines().collect();
        for code in rove_errors::ErrorCode::ALL {
            let status = format!("- {} ", code.exit_status());
            assert!(
                listed.iter().any(|item| item.starts_with(&status)),
                "exit status {status}({code}) is not explained: {listed:?}"
            );
        }
    }
}
