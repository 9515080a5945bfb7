//! A test: the README's first screen reaches a working `rove open` and
//! `rove click`, and every rove command line in its code blocks is one the
//! command line accepts, so the page a newcomer reads first cannot drift
//! from the binary.

use crate::hosts::skill::tests::shell_words;

const README: &str = include_str!("../../../README.md");

/// The rove command lines of the README's shell and console blocks: a
/// console line's `$ ` dropped, continued lines (`\`) joined, and what a
/// shell does after the command (`|`, `>`, `&`) cut off.
fn command_lines() -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut block: Option<&str> = None;
    let mut pending: Option<(usize, String)> = None;
    for (at, line) in README.lines().enumerate() {
        if let Some(fence) = line.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(fence),
            };
            continue;
        }
        let Some(kind) = block else { continue };
        let text = match kind {
            "sh" => line.trim(),
            "console" => match line.strip_prefix("$ ") {
                Some(command) => command.trim(),
                None => continue,
            },
            _ => continue,
        };
        let (number, joined) = match pending.take() {
            Some((number, before)) => (number, format!("{before} {text}")),
            None => (at + 1, text.to_owned()),
        };
        if let Some(open) = joined.strip_suffix('\\') {
            pending = Some((number, open.trim_end().to_owned()));
            continue;
        }
        let command = joined
            .split(['|', '>', '&'])
            .next()
            .unwrap_or_default()
            .to_owned();
        let words = shell_words(&command);
        let start = words.iter().position(|w| !w.contains('='));
        if start.is_some_and(|s| words.get(s).is_some_and(|w| w == "rove")) {
            found.push((number, command));
        }
    }
    found
}

#[test]
fn every_rove_command_line_in_the_readme_parses() {
    let lines = command_lines();
    assert!(lines.len() >= 20, "{lines:?}");
    for (number, line) in &lines {
        let words = shell_words(line);
        let start = words.iter().position(|w| w == "rove").unwrap_or(0);
        if let Err(e) = crate::cli::command().try_get_matches_from(&words[start..]) {
            panic!("README.md:{number}: {line:?} does not parse:\n{e}");
        }
    }
}

#[test]
fn the_first_screen_opens_a_page_and_clicks() {
    let first = |name: &str| {
        command_lines()
            .into_iter()
            .find(|(_, line)| shell_words(line).get(1).is_some_and(|w| w == name))
            .map(|(number, _)| number)
            .unwrap_or_else(|| panic!("the README never runs rove {name}"))
    };
    // A screen is about 60 lines of a rendered page.
    assert!(first("open") <= 60, "rove open at line {}", first("open"));
    assert!(
        first("click") <= 60,
        "rove click at line {}",
        first("click")
    );
}
