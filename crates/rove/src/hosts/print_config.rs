//! `rove print-config --harness H [--http]`: the configuration that registers
//! rove's MCP server with an agent host. stdout carries exactly what goes in
//! the host's file (JSON or TOML, ready to redirect into it); where that file
//! lives and how to merge it go to stderr, so a redirect never captures them.
//!
//! The formats follow each host's own documentation: most take an
//! `mcpServers` object, VS Code a `servers` object with a `type`, opencode an
//! `mcp` object whose `command` is one array, Codex a TOML table. Over HTTP
//! the URL field differs too (`url`, `serverUrl`, `httpUrl`).

use rove_errors::ErrorCode;
use serde_json::{Value, json};

use crate::cli::side::Harness;
use crate::cli::{GlobalArgs, PrintConfigArgs};
use crate::failure::Failure;
use crate::output::Output;

/// What to print: the file's content (stdout) and the advice (stderr).
#[derive(Debug)]
struct Registration {
    content: String,
    hint: String,
}

/// Prints the registration; returns the exit status.
pub fn print_config(global: &GlobalArgs, args: &PrintConfigArgs, out: Output) -> u8 {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "rove".into());
    // A host starts rove from a folder of its own: paths are made
    // absolute from this one.
    let cwd = std::env::current_dir().unwrap_or_default();
    // `--uvx SPEC`: the host runs rove from its wheel through uv
    // (`uvx --from SPEC rove mcp …`), with no install of its own; a wheel
    // file given by path is named absolutely, as the host runs elsewhere.
    let (exe, mut server) = match &args.uvx {
        Some(spec) => {
            let spec = match std::path::Path::new(spec).canonicalize() {
                Ok(path) if path.is_file() => path.to_string_lossy().into_owned(),
                _ => spec.clone(),
            };
            let launcher = vec![
                "--from".to_owned(),
                spec,
                "rove".to_owned(),
                "mcp".to_owned(),
            ];
            ("uvx".to_owned(), launcher)
        }
        None => (exe, vec!["mcp".to_owned()]),
    };
    let (global, withheld) = without_credentials(global.rooted(&cwd));
    server.extend(global.session_flags());
    if let Some(caps) = args.caps.caps.and_then(rove_commands::Caps::flag_value) {
        server.extend(["--caps".to_owned(), caps]);
    }
    let made = if args.http {
        http_target(args, &exe, &server)
            .and_then(|(url, token, start)| over_http(args.harness, &url, &token, &start))
    } else {
        Ok(over_stdio(args.harness, &exe, &server))
    };
    let made = made.map(|mut registration| {
        if !withheld.is_empty() {
            registration.hint.push_str(&format!(
                "\nThe browser's address carries a credential, which is not written into the config (it may be shared, and the host shows its command line): set {} in the environment the host starts rove in.\n",
                withheld.join(" and ")
            ));
        }
        registration
    });
    match made {
        Ok(registration) => {
            out.raw(&registration.content);
            out.note(&registration.hint);
            out.success(json!({
                "harness": args.harness.name(),
                "config": registration.content,
                "hint": registration.hint,
            }));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// `global` without the browser credentials a config file must not hold
/// (a `--cdp-url` carrying a token, a password or a key, and every
/// `--cdp-header`, whose values are keys), and the variables that carry
/// them instead.
fn without_credentials(mut global: GlobalArgs) -> (GlobalArgs, Vec<&'static str>) {
    let mut withheld = Vec::new();
    let secret_url = global
        .cdp_url
        .as_deref()
        .is_some_and(|url| rove_base::redact::hide_endpoint_credentials(url) != url);
    if secret_url {
        global.cdp_url = None;
        global.cdp_urls.clear();
        withheld.push("ROVE_CDP_URL");
    }
    if !global.cdp_headers.is_empty() {
        global.cdp_headers.clear();
        withheld.push("ROVE_CDP_HEADER");
    }
    (global, withheld)
}

/// The URL, the token and the command that starts the server with them.
fn http_target(
    args: &PrintConfigArgs,
    exe: &str,
    server: &[String],
) -> Result<(String, String, String), Failure> {
    let url = args
        .url
        .clone()
        .unwrap_or_else(|| format!("http://127.0.0.1:{}/mcp", args.port));
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(Failure::new(
            ErrorCode::CommandRejected,
            format!("--url {url:?} is not an http(s) URL"),
            "give the URL rove mcp --http printed, like http://127.0.0.1:7333/mcp",
        ));
    }
    let token = match args.token.clone().filter(|t| !t.is_empty()) {
        Some(token) => token,
        None => new_token().map_err(|e| {
            Failure::new(
                ErrorCode::Internal,
                format!("no randomness for a token: {e}"),
                "give one with --token",
            )
        })?,
    };
    let port = match &args.url {
        Some(_) => String::new(),
        None => format!(" --port {}", args.port),
    };
    let start = format!(
        "ROVE_MCP_TOKEN={} {} {} --http{port}",
        shell_word(&token),
        shell_word(exe),
        server
            .iter()
            .map(|w| shell_word(w))
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok((url, token, start))
}

/// 32 random bytes from the kernel, as hex (the form `rove mcp --http`
/// makes its own in).
fn new_token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A host that starts `exe mcp …` itself and talks to it over stdio.
fn over_stdio(harness: Harness, exe: &str, server: &[String]) -> Registration {
    let entry = json!({"command": exe, "args": server});
    let content = match harness {
        Harness::Codex => format!(
            "[mcp_servers.rove]\ncommand = {}\nargs = {}\n",
            toml_string(exe),
            toml_strings(server)
        ),
        Harness::Vscode => {
            pretty(&json!({"servers": {"rove": {"type": "stdio", "command": exe, "args": server}}}))
        }
        Harness::Opencode => {
            let mut line = vec![exe.to_owned()];
            line.extend(server.iter().cloned());
            pretty(&json!({
                "$schema": "https://opencode.ai/config.json",
                "mcp": {"rove": {"type": "local", "command": line, "enabled": true}},
            }))
        }
        _ => pretty(&json!({"mcpServers": {"rove": entry}})),
    };
    let mut hint = file_hint(harness);
    if harness == Harness::ClaudeCode {
        let words: Vec<String> = server.iter().map(|w| shell_word(w)).collect();
        let add = format!(
            "claude mcp add --scope user rove -- {} {}",
            shell_word(exe),
            words.join(" ")
        );
        hint.push_str(&claude_code_command(&add));
    }
    Registration { content, hint }
}

/// A host that connects to a running `rove mcp --http`.
fn over_http(
    harness: Harness,
    url: &str,
    token: &str,
    start: &str,
) -> Result<Registration, Failure> {
    let bearer = format!("Bearer {token}");
    let headers = json!({"Authorization": bearer});
    let content = match harness {
        Harness::ClaudeDesktop => {
            return Err(Failure::new(
                ErrorCode::CommandRejected,
                "Claude Desktop's config file registers only servers it starts itself: it has no field for a URL and a header",
                "drop --http: rove print-config --harness claude-desktop prints the entry that starts rove mcp",
            ));
        }
        Harness::Codex => format!(
            "[mcp_servers.rove]\nurl = {}\nhttp_headers = {{ Authorization = {} }}\n",
            toml_string(url),
            toml_string(&bearer)
        ),
        Harness::Cursor => {
            pretty(&json!({"mcpServers": {"rove": {"url": url, "headers": headers}}}))
        }
        Harness::Vscode => {
            pretty(&json!({"servers": {"rove": {"type": "http", "url": url, "headers": headers}}}))
        }
        // Antigravity reads a remote server's URL as Windsurf does.
        Harness::Windsurf | Harness::Agy => {
            pretty(&json!({"mcpServers": {"rove": {"serverUrl": url, "headers": headers}}}))
        }
        Harness::Gemini => {
            pretty(&json!({"mcpServers": {"rove": {"httpUrl": url, "headers": headers}}}))
        }
        Harness::Opencode => pretty(&json!({
            "$schema": "https://opencode.ai/config.json",
            "mcp": {"rove": {"type": "remote", "url": url, "headers": headers, "enabled": true}},
        })),
        Harness::ClaudeCode | Harness::Generic => pretty(
            &json!({"mcpServers": {"rove": {"type": "http", "url": url, "headers": headers}}}),
        ),
    };
    let mut hint = file_hint(harness);
    match harness {
        Harness::ClaudeCode => {
            let add = format!(
                "claude mcp add --transport http --scope user rove {} --header {}",
                shell_word(url),
                shell_word(&format!("Authorization: {bearer}"))
            );
            hint.push_str(&claude_code_command(&add));
        }
        Harness::Codex => hint.push_str(
            "\nTo keep the token out of the file, write bearer_token_env_var = \"ROVE_MCP_TOKEN\" instead of http_headers, and export ROVE_MCP_TOKEN where Codex runs.",
        ),
        Harness::Generic => hint.push_str(
            "\nHosts name the URL field differently (url, serverUrl, httpUrl): rove print-config --harness lists the hosts it knows.",
        ),
        _ => {}
    }
    hint.push_str(&format!(
        "\nThe server must be running with this token; start it with:\n  {start}"
    ));
    Ok(Registration { content, hint })
}

/// Where the host's file lives, and how to merge into one that exists.
fn file_hint(harness: Harness) -> String {
    let merge = |key: &str| {
        format!(
            "if the file exists, add the \"rove\" entry to its \"{key}\" instead of replacing the file"
        )
    };
    match harness {
        Harness::ClaudeCode => format!(
            "Claude Code: this is .mcp.json in the project's root folder (shared with everyone who checks the project out); {}.",
            merge("mcpServers")
        ),
        Harness::ClaudeDesktop => format!(
            "Claude Desktop: this is claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\); {}, then quit and reopen Claude Desktop.",
            merge("mcpServers")
        ),
        Harness::Codex => "Codex: append this to ~/.codex/config.toml (or .codex/config.toml in a trusted project), as in rove print-config --harness codex >> ~/.codex/config.toml, unless it has an [mcp_servers.rove] table already.".to_owned(),
        Harness::Cursor => format!(
            "Cursor: this is .cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project; {}.",
            merge("mcpServers")
        ),
        Harness::Vscode => format!(
            "VS Code: this is .vscode/mcp.json in the workspace, or the mcp.json of your user profile (command \"MCP: Open User Configuration\"); {}.",
            merge("servers")
        ),
        Harness::Windsurf => format!(
            "Windsurf: this is ~/.codeium/windsurf/mcp_config.json; {}, then refresh the MCP servers.",
            merge("mcpServers")
        ),
        Harness::Gemini => format!(
            "Gemini CLI: this goes in ~/.gemini/settings.json (or .gemini/settings.json in the project), which holds other settings too; {}.",
            merge("mcpServers")
        ),
        Harness::Opencode => format!(
            "opencode: this is opencode.json in the project, or ~/.config/opencode/opencode.json for every project; {}. (opencode's V2 configuration nests servers one level deeper, under \"mcp\": {{\"servers\": …}}.)",
            merge("mcp")
        ),
        Harness::Agy => format!(
            "Antigravity (the IDE and agy): this is ~/.gemini/config/mcp_config.json; {}, then reload the MCP servers (agy reads it when it starts).",
            merge("mcpServers")
        ),
        Harness::Generic => format!(
            "Most MCP hosts take this \"mcpServers\" object in their JSON settings; {}.",
            merge("mcpServers")
        ),
    }
}

/// Claude Code's own command, and where its options go: `claude mcp add`
/// takes them only before the server's name.
fn claude_code_command(add: &str) -> String {
    format!(
        "\nOr register it with the claude command. Its options (--scope, --transport, --header) go before the name rove; \
         for a server it starts, everything after -- is rove's own command line:\n  {add}\n\
         --scope user: every project of yours; --scope local (the default, without --scope): this project, only you; --scope project: writes .mcp.json."
    )
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    text.push('\n');
    text
}

/// A TOML basic string. JSON's string escapes are a subset of TOML's
/// (serde_json never writes `\/`), so JSON's quoting is valid TOML.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{}\"", s.escape_default()))
}

fn toml_strings(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// A word as one shell word.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_survive_spaces_and_quotes() {
        assert_eq!(shell_word("/opt/rove"), "/opt/rove");
        assert_eq!(shell_word("/opt/my tools/rove"), "'/opt/my tools/rove'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn toml_strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(toml_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(toml_string("\u{1}"), "\"\\u0001\"");
    }
}
