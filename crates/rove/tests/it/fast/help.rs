//! What a newcomer reads in `--help`: the global options once, in `rove
//! --help`, not repeated in every command's help; still accepted after the
//! command name; and `run --help` telling one story about sessions.

use std::process::Command;

fn rove(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(args)
        .env_remove("ROVE_SESSION")
        .env_remove("ROVE_CDP_URL")
        .env(
            "XDG_RUNTIME_DIR",
            std::env::temp_dir().join(format!("rove-help-{}", std::process::id())),
        )
        .output()
        .expect("rove ran");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const GLOBALS: [&str; 6] = [
    "--idle <SECONDS>",
    "--session <NAME>",
    "--headed",
    "--json",
    "--cdp-url <URL>",
    "--allowed-domains <DOMAINS>",
];

#[test]
fn global_options_are_listed_once_in_rove_help_and_not_in_each_command() {
    let (status, top, _) = rove(&["--help"]);
    assert_eq!(status, Some(0));
    for flag in GLOBALS {
        assert_eq!(top.matches(flag).count(), 1, "{flag} in:\n{top}");
    }
    assert!(
        top.contains("Global options (before or after the command)"),
        "{top}"
    );
    for command in [
        "snapshot",
        "click",
        "open",
        "run",
        "mcp",
        "print-config",
        "close",
    ] {
        let (status, help, _) = rove(&[command, "--help"]);
        assert_eq!(status, Some(0), "{command}");
        for flag in GLOBALS {
            // An option's own line starts with it (the closing note may name
            // a few in passing).
            let listed = help.lines().any(|l| l.trim_start().starts_with(flag));
            assert!(!listed, "{command} --help repeats {flag}:\n{help}");
        }
        assert!(
            help.contains("rove --help"),
            "{command} --help points to the global options:\n{help}"
        );
    }
}

#[test]
fn global_options_are_still_accepted_after_the_command_name() {
    // `close` of a session that is not running needs no browser.
    let (status, stdout, stderr) = rove(&["close", "--session", "help-test-after", "-v"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), "no session help-test-after was running");
    let (status, stdout, _) = rove(&["close", "--json", "--session=help-test-after"]);
    assert_eq!(status, Some(0));
    assert_eq!(stdout.trim(), r#"{"closed":null,"ok":true}"#);
}

/// A farm's address with its token, given as `ROVE_CDP_URL` to keep it out
/// of the process's arguments (docs/deploy.md), must not come back in the
/// help, which clap would otherwise show as `[env: ROVE_CDP_URL=…]`.
#[test]
fn help_never_shows_the_farm_token_in_rove_cdp_url() {
    let farm = "ws://farm:3000?token=farm-token-7f3a";
    let help_with_farm = |args: &[String]| {
        let out = Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(args)
            .env("ROVE_CDP_URL", farm)
            .env_remove("ROVE_SESSION")
            .output()
            .expect("rove ran");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "rove {args:?}: {stderr}");
        for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
            assert!(
                !text.contains("farm-token-7f3a") && !text.contains("farm:3000"),
                "rove {args:?} shows the farm on {stream}:\n{text}"
            );
        }
        stdout
    };
    // Every command's help, found the way a reader finds them: from the
    // "Commands:" lists of the help itself, so a new command (or a new
    // level of them) is covered without a list here to keep.
    let mut screens = 0;
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    let mut commands = Vec::new();
    while let Some(path) = paths.pop() {
        let long = help_with_farm(&[path.clone(), vec!["--help".into()]].concat());
        help_with_farm(&[path.clone(), vec!["-h".into()]].concat());
        help_with_farm(&[vec!["help".into()], path.clone()].concat());
        screens += 3;
        for name in commands_listed(&long) {
            let sub = [path.clone(), vec![name]].concat();
            if sub.last().is_some_and(|n| n == "help") {
                // `rove help` and `rove trace help` print their parent's
                // list; they take no --help of their own.
                help_with_farm(&sub);
                screens += 1;
            } else {
                commands.push(sub.join(" "));
                paths.push(sub);
            }
        }
    }
    // The walk reached the commands, nested ones too.
    for known in ["open", "run", "test", "mcp", "print-config", "trace show"] {
        assert!(
            commands.iter().any(|c| c == known),
            "{known} in {commands:?}"
        );
    }
    assert!(commands.len() > 40, "{commands:?}");
    assert!(screens > 120, "{screens} screens");
}

/// The names a help screen's "Commands:" section lists.
fn commands_listed(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A name's line is indented by two; a wrapped description by more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn run_help_says_the_run_has_a_session_of_its_own() {
    let (_, help, _) = rove(&["run", "--help"]);
    assert!(help.contains("fresh session"), "{help}");
    assert!(
        help.contains("--session and --idle do not apply"),
        "run --help must not offer a session it ignores:\n{help}"
    );
    assert!(!help.contains("--session <NAME>"), "{help}");
}

#[test]
fn rove_skill_prints_a_skill_file_on_stdout() {
    let (status, stdout, stderr) = rove(&["skill"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("---\nname: rove\ndescription: "),
        "{stdout}"
    );
    assert!(stdout.contains("## Errors") && stdout.contains("REF_NOT_FOUND"));
    assert!(stderr.is_empty(), "{stderr}");
}

/// `rove skill | head -1`: the reader closes the pipe early, and rove ends
/// quietly instead of panicking on the write.
#[test]
fn a_reader_that_closes_the_pipe_early_gets_no_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
        .arg("skill")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rove ran");
    // Closed before rove writes its first line.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("rove ended");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// `rove completions SHELL` and `rove man` print what a shell and `man`
/// read, the session commands among them; an unknown page is bad input.
#[test]
fn completions_and_the_man_page_are_printed_for_the_shell_and_man() {
    for (shell, offers_open) in [
        ("bash", "rove,open)"),
        ("zsh", "'open:"),
        ("fish", "-a \"open\""),
    ] {
        let (status, stdout, stderr) = rove(&["completions", shell]);
        assert_eq!(status, Some(0), "{shell}: {stderr}");
        assert!(stdout.contains(offers_open), "{shell}:\n{stdout}");
        assert!(stdout.contains("print-config"), "{shell}");
    }
    let (status, page, stderr) = rove(&["man"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(page.contains(".TH rove 1 "), "{page}");
    assert!(page.contains("rove\\-click(1)"), "{page}");
    let (status, page, _) = rove(&["man", "click"]);
    assert_eq!(status, Some(0));
    assert!(page.contains(".TH rove-click 1 "), "{page}");
    let (status, stdout, stderr) = rove(&["man", "nosuch"]);
    assert_eq!(status, Some(2), "{stdout}");
    assert!(stderr.contains("COMMAND_REJECTED"), "{stderr}");
}
