//! Every `--cdp-url` of a command line. The flag is global, so it may stand
//! before the command name, after it, or both; clap hands a derived
//! `Option` one value and keeps only the command's own when both places
//! have one, so the values are read from the arguments themselves, and
//! a command that drives one browser refuses two instead of silently
//! using one.

use std::ffi::OsString;

use crate::failure::Failure;

/// Every `--cdp-url` value, wherever it was given, in order, a repeated one
/// as often as it was typed (in farm mode it is more slots);
/// `ROVE_CDP_URL` (which clap read) only when no flag was given. `args` are
/// the process's arguments after the program name.
pub fn cdp_urls(matches: &clap::ArgMatches, args: impl Iterator<Item = OsString>) -> Vec<String> {
    let typed = typed(args);
    if !typed.is_empty() {
        return typed;
    }
    let mut levels = vec![matches];
    if let Some((_, sub)) = matches.subcommand() {
        levels.push(sub);
    }
    let mut urls: Vec<String> = Vec::new();
    for level in levels {
        for url in level.get_many::<String>("cdp_url").into_iter().flatten() {
            if !urls.contains(url) {
                urls.push(url.clone());
            }
        }
    }
    urls
}

/// Every `--cdp-header`, before the command name and after it, each once
/// (clap's derive keeps only the command's own when both places have
/// some). Their order does not matter to HTTP.
pub fn cdp_headers(matches: &clap::ArgMatches) -> Vec<String> {
    let mut levels = vec![matches];
    if let Some((_, sub)) = matches.subcommand() {
        levels.push(sub);
    }
    let mut headers: Vec<String> = Vec::new();
    for level in levels {
        let values = level.try_get_many::<String>("cdp_headers").ok().flatten();
        for header in values.into_iter().flatten() {
            if !headers.contains(header) {
                headers.push(header.clone());
            }
        }
    }
    headers
}

/// The values of `--cdp-url URL` and `--cdp-url=URL` among `args`, up to a
/// `--` (after which nothing is a flag), each once.
fn typed(args: impl Iterator<Item = OsString>) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    let mut args = args.map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--" => break,
            "--cdp-url" => args.next(),
            other => other.strip_prefix("--cdp-url=").map(str::to_owned),
        };
        if let Some(url) = value {
            urls.push(url);
        }
    }
    urls
}

/// `urls` each once, in order.
pub fn distinct(urls: &[String]) -> Vec<String> {
    let mut once: Vec<String> = Vec::new();
    for url in urls {
        if !once.contains(url) {
            once.push(url.clone());
        }
    }
    once
}

/// `--cdp-url` given more than once to a command that drives one browser.
pub fn several_cdp_urls(count: usize) -> Failure {
    Failure::new(
        rove_errors::ErrorCode::CommandRejected,
        format!(
            "--cdp-url is given {count} times; only rove test spreads its attempts over several browsers"
        ),
        "give one --cdp-url to this command",
    )
}

/// The `--cdp-url`, `--cdp-header` and `--cdp-ca` flags checked before
/// anything starts: a malformed address or header is the caller's mistake
/// (`COMMAND_REJECTED`, exit 2), never a browser that seems gone. Messages
/// hide the credentials.
pub fn check(global: &crate::cli::GlobalArgs) -> Result<(), Failure> {
    let rejected = |message: String| {
        Failure::new(
            rove_errors::ErrorCode::CommandRejected,
            message,
            "fix the flag: --cdp-url takes ws://, wss://, http:// or https://host:port[/path][?token=…]; --cdp-header takes 'Name: value'; --cdp-ca a PEM file",
        )
    };
    for url in &global.cdp_urls {
        rove_cdp::Endpoint::parse(url).map_err(rejected)?;
    }
    global.cdp_access().map_err(rejected)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> impl Iterator<Item = OsString> {
        line.split_whitespace()
            .map(OsString::from)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn headers_before_and_after_the_command_name_all_count() {
        let matches = crate::cli::command()
            .try_get_matches_from([
                "rove",
                "--cdp-header",
                "A: 1",
                "close",
                "--cdp-header",
                "B: 2",
                "--cdp-header",
                "A: 1",
            ])
            .expect("parses");
        let mut headers = cdp_headers(&matches);
        headers.sort();
        assert_eq!(headers, ["A: 1", "B: 2"]);
        let matches = crate::cli::command()
            .try_get_matches_from(["rove", "--cdp-header", "A: 1", "close"])
            .expect("parses");
        assert_eq!(cdp_headers(&matches), ["A: 1"]);
    }

    #[test]
    fn flags_before_and_after_the_command_name_all_count() {
        assert_eq!(
            typed(args("--cdp-url http://a doctor --cdp-url=http://b --json")),
            ["http://a", "http://b"]
        );
        let repeated = typed(args("test t.yaml --cdp-url http://a --cdp-url http://a"));
        assert_eq!(repeated, ["http://a", "http://a"]);
        assert_eq!(distinct(&repeated), ["http://a"]);
        assert!(typed(args("eval -- --cdp-url http://a")).is_empty());
        assert!(typed(args("doctor --cdp-url")).is_empty());
    }
}
