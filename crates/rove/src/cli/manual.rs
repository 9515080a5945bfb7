//! `rove completions SHELL` and `rove man [COMMAND]`: the shells' completion
//! scripts and the manual pages, written from the clap definition the
//! command line itself parses with (the vocabulary's commands included), so
//! they cannot name a command or option rove lacks, nor miss one.

use clap_complete::Shell;
use rove_errors::ErrorCode;
use serde_json::json;

use crate::failure::Failure;
use crate::output::Output;

/// The completion script of `shell` for the whole command line.
pub fn completion_script(shell: Shell) -> String {
    let mut command = crate::cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "rove", &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// The manual page (roff) of rove, or of one of its commands
/// (`rove-open(1)`), whose synopsis then reads `rove open …`.
pub fn man_page(command: Option<&str>) -> Result<String, Failure> {
    let mut top = crate::cli::command();
    // Built, each command knows its full name (`rove open`, `rove-open`).
    top.build();
    let page = match command {
        None => top,
        Some(name) => top
            .find_subcommand(name)
            .filter(|sub| !sub.is_hide_set())
            .cloned()
            .ok_or_else(|| {
                Failure::new(
                    ErrorCode::CommandRejected,
                    format!("rove has no command {name:?}"),
                    "rove --help lists the commands; rove man without a name prints rove(1)",
                )
            })?,
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .manual("rove manual")
        .source(format!("rove {}", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(|e| {
            Failure::new(
                ErrorCode::Internal,
                format!("could not write the manual page: {e}"),
                "report this as a bug in rove",
            )
        })?;
    Ok(String::from_utf8_lossy(&roff).into_owned())
}

/// Prints `shell`'s completion script; returns the exit status.
pub fn completions(shell: Shell, out: Output) -> u8 {
    let script = completion_script(shell);
    out.raw(&script);
    out.success(json!({"shell": shell.to_string(), "script": script}));
    0
}

/// Prints a manual page; returns the exit status.
pub fn man(command: Option<&str>, out: Output) -> u8 {
    match man_page(command) {
        Ok(page) => {
            out.raw(&page);
            out.success(json!({"man": page}));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command a person can type: the visible top-level ones (the
    /// vocabulary's and rove's own) and those under them (`trace start`).
    fn commands() -> Vec<(String, Vec<String>)> {
        crate::cli::command()
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| {
                let under = c
                    .get_subcommands()
                    .filter(|s| !s.is_hide_set())
                    .map(|s| s.get_name().to_owned())
                    .collect();
                (c.get_name().to_owned(), under)
            })
            .collect()
    }

    #[test]
    fn the_command_list_holds_the_vocabulary_and_rove_s_own_commands() {
        let names: Vec<String> = commands().into_iter().map(|(n, _)| n).collect();
        for name in [
            "open",
            "click",
            "snapshot",
            "doctor",
            "mcp",
            "completions",
            "man",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert!(names.len() > 40, "{names:?}");
    }

    /// Whether `script` offers the command `name` (at the top when `under`
    /// is `None`, else under that command), as `shell`'s generator spells it.
    fn offers(shell: Shell, script: &str, name: &str, under: Option<&str>) -> bool {
        match (shell, under) {
            (Shell::Bash, None) => script.contains(&format!("rove,{name})")),
            (Shell::Bash, Some(top)) => script.contains(&format!("rove__subcmd__{top},{name})")),
            (Shell::Zsh, _) => script.contains(&format!("'{name}:")),
            (Shell::Fish, None) => script.lines().any(|l| {
                l.contains("__fish_rove_needs_command") && l.contains(&format!("-a \"{name}\" -d"))
            }),
            (Shell::Fish, Some(top)) => script.lines().any(|l| {
                l.contains(&format!("__fish_rove_using_subcommand {top};"))
                    && l.contains(&format!("-a \"{name}\" -d"))
            }),
            _ => false,
        }
    }

    #[test]
    fn each_shell_s_script_completes_every_command() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let script = completion_script(shell);
            let mut missing = Vec::new();
            for (name, under) in commands() {
                if !offers(shell, &script, &name, None) {
                    missing.push(name.clone());
                }
                for sub in under {
                    if !offers(shell, &script, &sub, Some(&name)) {
                        missing.push(format!("{name} {sub}"));
                    }
                }
            }
            assert!(missing.is_empty(), "{shell} misses {missing:?}");
        }
    }

    #[test]
    fn the_man_page_lists_every_command_and_each_has_its_own() {
        let page = man_page(None).expect("rove(1)");
        assert!(page.starts_with(".ie"), "roff:\n{page}");
        let listed = page
            .split(".SH SUBCOMMANDS")
            .nth(1)
            .expect("a list of commands");
        for (name, under) in commands() {
            // clap_mangen writes each as `rove\-NAME(1)`.
            let entry = format!("rove\\-{}(1)", name.replace('-', "\\-"));
            assert!(listed.contains(&entry), "{entry} in:\n{listed}");
            let own = man_page(Some(&name)).expect("a command's page");
            let title = format!(".TH rove-{name} 1 ");
            assert!(own.contains(&title), "{name}'s page:\n{own}");
            for sub in under {
                assert!(own.contains(&sub), "{name}'s page names {sub}");
            }
        }
    }

    #[test]
    fn an_unknown_or_hidden_command_has_no_page() {
        for name in ["nosuch", "call", "__daemon"] {
            let failure = man_page(Some(name)).expect_err(name);
            assert_eq!(failure.report.code, ErrorCode::CommandRejected);
        }
    }
}
