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
    for args in [&["--help"][..], &["test", "--help"], &["-h"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(args)
            .env("ROVE_CDP_URL", "ws://farm:3000?token=farm-token-7f3a")
            .output()
            .expect("rove ran");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(!help.contains("farm-token-7f3a"), "rove {args:?}:\n{help}");
        assert!(!help.contains("farm:3000"), "rove {args:?}:\n{help}");
    }
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
