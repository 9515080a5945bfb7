//! A command-line value that must not show in `Debug` output (an API key, a
//! bearer token): the parsed arguments are `Debug`, and a `{:?}` in a log
//! or a panic message would otherwise print the secret. The type is
//! rove-base's ([`rove_base::redact::Redacted`]); the test here holds the
//! CLI's arguments to it.

pub use rove_base::redact::Redacted;

#[cfg(test)]
mod tests {
    use crate::cli::Cli;

    #[test]
    fn parsed_arguments_never_show_a_key_or_token_in_debug() {
        let run = Cli::try_parse_from([
            "rove",
            "run",
            "a task",
            "--model",
            "openai:gpt-5-mini",
            "--api-key",
            "sk-live-51c0ffee",
        ])
        .expect("run parses");
        let shown = format!("{run:?} {run:#?}");
        assert!(!shown.contains("sk-live-51c0ffee"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");

        let mcp = Cli::try_parse_from(["rove", "mcp", "--http", "--token", "tok-live-77aa"])
            .expect("mcp parses");
        let shown = format!("{mcp:?}");
        assert!(!shown.contains("tok-live-77aa"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");
    }
}
