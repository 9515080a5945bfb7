//! `rove print-config --harness H`: the exact block or command that registers
//! rove's MCP server with an agent host, using the absolute path of the
//! running binary.

use serde_json::json;

use crate::cli::Harness;
use crate::output::Output;

/// Prints the registration for `harness`; returns the exit status.
pub fn print_config(harness: Harness, out: Output) -> u8 {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "rove".into());
    let (where_, text) = registration(harness, &exe);
    out.line(&format!("# {where_}\n{text}"));
    out.success(json!({"harness": harness.name(), "where": where_, "config": text}));
    0
}

/// Where the text goes, and the text.
fn registration(harness: Harness, exe: &str) -> (&'static str, String) {
    let quoted = serde_json::to_string(exe).unwrap_or_else(|_| format!("\"{exe}\""));
    match harness {
        Harness::ClaudeCode => (
            "run in a shell (add --scope user to use it in every project)",
            format!("claude mcp add rove -- {} mcp", shell_word(exe)),
        ),
        Harness::Codex => (
            "add to ~/.codex/config.toml",
            format!("[mcp_servers.rove]\ncommand = {quoted}\nargs = [\"mcp\"]"),
        ),
        Harness::Opencode => (
            "merge into opencode.json (the project's) or ~/.config/opencode/opencode.json",
            format!(
                "{{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {{\n    \"rove\": {{\n      \"type\": \"local\",\n      \"command\": [{quoted}, \"mcp\"],\n      \"enabled\": true\n    }}\n  }}\n}}"
            ),
        ),
        Harness::Cursor => (
            "merge into .cursor/mcp.json (the project's) or ~/.cursor/mcp.json",
            mcp_servers(&quoted),
        ),
        Harness::Gemini => (
            "merge into ~/.gemini/settings.json (or .gemini/settings.json in the project)",
            mcp_servers(&quoted),
        ),
        Harness::Generic => (
            "an MCP server over stdio; most hosts take this mcpServers block",
            mcp_servers(&quoted),
        ),
    }
}

fn mcp_servers(quoted_exe: &str) -> String {
    format!(
        "{{\n  \"mcpServers\": {{\n    \"rove\": {{\n      \"command\": {quoted_exe},\n      \"args\": [\"mcp\"]\n    }}\n  }}\n}}"
    )
}

/// A path as one shell word.
fn shell_word(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
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
    fn every_harness_names_the_binary_and_the_mcp_command() {
        for harness in [
            Harness::ClaudeCode,
            Harness::Codex,
            Harness::Opencode,
            Harness::Cursor,
            Harness::Gemini,
            Harness::Generic,
        ] {
            let (_, text) = registration(harness, "/opt/my tools/rove");
            assert!(text.contains("my tools/rove"), "{text}");
            assert!(text.contains("mcp"), "{text}");
            if text.starts_with('{') {
                serde_json::from_str::<serde_json::Value>(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", harness.name()));
            }
        }
        let (_, claude) = registration(Harness::ClaudeCode, "/opt/my tools/rove");
        assert_eq!(claude, "claude mcp add rove -- '/opt/my tools/rove' mcp");
    }
}
