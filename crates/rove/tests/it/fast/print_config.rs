//! `rove print-config` for every host, run as the real binary: stdout must
//! parse as the host's file (JSON, or TOML for Codex) and start `rove mcp`
//! with the global flags given; `--http` must give the URL and a bearer
//! header that a running `rove mcp --http` accepts; the advice goes to
//! stderr only.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const HOSTS: [&str; 10] = [
    "claude-code",
    "claude-desktop",
    "codex",
    "cursor",
    "vscode",
    "windsurf",
    "gemini",
    "opencode",
    "agy",
    "generic",
];

/// rove with none of the environment variables that stand for flags, run
/// from `dir`.
fn rove(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command.current_dir(dir);
    for var in [
        "ROVE_SESSION",
        "ROVE_CDP_URL",
        "ROVE_CDP_HEADER",
        "ROVE_IDLE",
        "ROVE_ALLOWED_DOMAINS",
        "ROVE_BLOCKED_DOMAINS",
        "ROVE_VIEWPORT",
        "ROVE_MCP_TOKEN",
        "RUST_LOG",
    ] {
        command.env_remove(var);
    }
    command
}

fn run(command: &mut Command) -> Output {
    command.output().expect("rove ran")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-print-config-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir.canonicalize().expect("canonical")
}

fn rove_path() -> String {
    Path::new(env!("CARGO_BIN_EXE_rove"))
        .canonicalize()
        .expect("the binary")
        .to_string_lossy()
        .into_owned()
}

/// The host's file as JSON (Codex's TOML turned into the same tree).
fn parse(host: &str, stdout: &str) -> Value {
    if host == "codex" {
        let table: toml::Table = stdout
            .parse()
            .unwrap_or_else(|e| panic!("codex: not TOML ({e}):\n{stdout}"));
        serde_json::to_value(table).expect("a TOML table as JSON")
    } else {
        serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{host}: not JSON ({e}):\n{stdout}"))
    }
}

/// The program and arguments a host starts, read the way that host reads
/// its file.
fn started(host: &str, file: &Value) -> (String, Vec<String>) {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("{host}: not an array: {v}"))
            .iter()
            .map(|s| s.as_str().expect("a string").to_owned())
            .collect()
    };
    let entry = match host {
        "codex" => &file["mcp_servers"]["rove"],
        "vscode" => {
            assert_eq!(file["servers"]["rove"]["type"], "stdio", "{file}");
            &file["servers"]["rove"]
        }
        "opencode" => {
            let entry = &file["mcp"]["rove"];
            assert_eq!(entry["type"], "local", "{file}");
            let line = strings(&entry["command"]);
            return (line[0].clone(), line[1..].to_vec());
        }
        _ => &file["mcpServers"]["rove"],
    };
    let command = entry["command"]
        .as_str()
        .unwrap_or_else(|| panic!("{host}: no command in {file}"))
        .to_owned();
    (command, strings(&entry["args"]))
}

#[test]
fn every_host_gets_a_file_that_starts_rove_mcp_with_the_global_flags_given() {
    let dir = scratch("flags");
    for host in HOSTS {
        let out = run(rove(&dir).args([
            "--session",
            "work",
            "--headed",
            "--cdp-url",
            "http://127.0.0.1:9222",
            "--browser",
            "bin/chrome",
            "--allowed-domains",
            "example.com,localhost:8000",
            "print-config",
            "--harness",
            host,
            // Global flags after the command name count too.
            "--blocked-domains",
            "ads.example.com",
        ]));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{host}: {stderr}");
        let (command, args) = started(host, &parse(host, &stdout));
        assert_eq!(command, rove_path(), "{host}");
        assert_eq!(
            args,
            [
                "mcp",
                "--session",
                "work",
                "--headed",
                "--cdp-url",
                "http://127.0.0.1:9222",
                "--browser",
                &dir.join("bin/chrome").to_string_lossy(),
                "--allowed-domains",
                "example.com,localhost:8000",
                "--blocked-domains",
                "ads.example.com",
            ],
            "{host}: the printed command must carry the flags, paths made absolute"
        );
        assert!(
            !stderr.trim().is_empty(),
            "{host}: where the file goes is said on stderr"
        );
    }
}

/// A config file may be shared and a host shows the command it runs: a
/// browser address with a credential, and a header (a key), are left to
/// the environment, and the advice says which variables carry them.
#[test]
fn a_farms_credentials_are_never_written_into_a_hosts_config() {
    let dir = scratch("credentials");
    for host in HOSTS {
        let out = run(rove(&dir)
            .env("ROVE_CDP_URL", "wss://farm.example:443/?token=F4RM-S3CRET")
            .args(["--cdp-header", "Authorization: Bearer H34DER-S3CRET"])
            .args(["print-config", "--harness", host]));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{host}: {stderr}");
        for text in [&stdout, &stderr] {
            assert!(
                !text.contains("S3CRET") && !text.contains("farm.example"),
                "{host}: {text}"
            );
        }
        let (_, args) = started(host, &parse(host, &stdout));
        assert_eq!(args, ["mcp"], "{host}");
        assert!(
            stderr.contains("ROVE_CDP_URL") && stderr.contains("ROVE_CDP_HEADER"),
            "{host}: {stderr}"
        );
    }
    // An address without one is written as given.
    let out = run(rove(&dir).args([
        "--cdp-url",
        "ws://127.0.0.1:9222/devtools/browser/x",
        "print-config",
        "--harness",
        "claude-code",
    ]));
    let (_, args) = started("claude-code", &parse("claude-code", &text(&out.stdout)));
    assert_eq!(
        args,
        ["mcp", "--cdp-url", "ws://127.0.0.1:9222/devtools/browser/x"]
    );
}

#[test]
fn without_flags_the_host_starts_plain_rove_mcp_and_a_named_session_is_carried() {
    let dir = scratch("plain");
    for host in HOSTS {
        let out = run(rove(&dir).args(["print-config", "--harness", host]));
        assert_eq!(out.status.code(), Some(0), "{host}");
        let (_, args) = started(host, &parse(host, &text(&out.stdout)));
        assert_eq!(args, ["mcp"], "{host}");
    }
    // ROVE_SESSION names a session as --session does: `rove mcp` shares it.
    let out =
        run(rove(&dir)
            .env("ROVE_SESSION", "shared")
            .args(["print-config", "--harness", "cursor"]));
    let (_, args) = started("cursor", &parse("cursor", &text(&out.stdout)));
    assert_eq!(args, ["mcp", "--session", "shared"]);
}

#[test]
fn capability_groups_are_carried_into_the_command_the_host_runs() {
    let dir = scratch("caps");
    for host in ["cursor", "codex", "opencode"] {
        let out = run(rove(&dir).args([
            "print-config",
            "--harness",
            host,
            "--caps",
            "state, network",
        ]));
        assert_eq!(out.status.code(), Some(0), "{host}: {}", text(&out.stderr));
        let (_, args) = started(host, &parse(host, &text(&out.stdout)));
        // In the vocabulary's order, whatever order they were given in.
        assert_eq!(args, ["mcp", "--caps", "network,state"], "{host}");
    }
    let out = run(rove(&dir).args(["print-config", "--harness", "cursor", "--caps", "all"]));
    let (_, args) = started("cursor", &parse("cursor", &text(&out.stdout)));
    assert_eq!(args, ["mcp", "--caps", "all"]);
    // A group rove does not have is a usage error naming the groups.
    let out = run(rove(&dir).args(["print-config", "--harness", "cursor", "--caps", "telepathy"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("core, devtools, network, state"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn each_host_is_told_where_its_file_lives_and_claude_code_where_scope_goes() {
    let dir = scratch("hints");
    let files = [
        ("claude-code", ".mcp.json"),
        ("claude-desktop", "claude_desktop_config.json"),
        ("codex", "~/.codex/config.toml"),
        ("cursor", ".cursor/mcp.json"),
        ("vscode", ".vscode/mcp.json"),
        ("windsurf", "~/.codeium/windsurf/mcp_config.json"),
        ("gemini", "~/.gemini/settings.json"),
        ("opencode", "opencode.json"),
        ("agy", "~/.gemini/config/mcp_config.json"),
    ];
    for (host, file) in files {
        let out = run(rove(&dir).args(["print-config", "--harness", host]));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(stderr.contains(file), "{host}: {stderr}");
        assert!(!stdout.contains(file), "{host}: the hint stays off stdout");
    }
    let out = run(rove(&dir).args(["--headed", "print-config", "--harness", "claude-code"]));
    let stderr = text(&out.stderr);
    let add = format!(
        "claude mcp add --scope user rove -- {} mcp --headed",
        rove_path()
    );
    assert!(stderr.contains(&add), "{stderr}");
    assert!(
        stderr.contains("go before the name rove"),
        "the hint says where --scope goes: {stderr}"
    );
}

#[test]
fn with_uvx_every_host_runs_rove_from_the_wheel_through_uv() {
    let dir = scratch("uvx");
    let wheel = dir.join("rove-0.1.0-py3-none-any.whl");
    std::fs::write(&wheel, b"not really a wheel").expect("a file");
    for host in HOSTS {
        let out = run(rove(&dir).args([
            "--headed",
            "print-config",
            "--harness",
            host,
            "--uvx",
            "rove-0.1.0-py3-none-any.whl",
        ]));
        assert!(out.status.success(), "{host}: {}", text(&out.stderr));
        let file = parse(host, &text(&out.stdout));
        let (command, args) = started(host, &file);
        assert_eq!(command, "uvx", "{host}: {file}");
        let wheel = wheel.to_string_lossy().into_owned();
        // The wheel by its absolute path: the host starts uvx elsewhere.
        assert_eq!(
            args,
            ["--from", wheel.as_str(), "rove", "mcp", "--headed"],
            "{host}"
        );
    }
    // A spec that is no file (a package name) is passed on as it is.
    let out = run(rove(&dir).args(["print-config", "--harness", "cursor", "--uvx", "rove"]));
    let (_, args) = started("cursor", &parse("cursor", &text(&out.stdout)));
    assert_eq!(args, ["--from", "rove", "rove", "mcp"]);
    let out = run(rove(&dir).args([
        "print-config",
        "--harness",
        "cursor",
        "--uvx",
        "rove",
        "--http",
    ]));
    assert_eq!(
        out.status.code(),
        Some(2),
        "--uvx starts a server, --http reaches one"
    );
}

#[test]
fn json_mode_prints_one_object_with_the_config_and_the_hint() {
    let dir = scratch("json");
    let out = run(rove(&dir).args(["print-config", "--harness", "codex", "--json"]));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let object: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(object["ok"], true);
    assert_eq!(object["harness"], "codex");
    let config = object["config"].as_str().expect("config");
    assert!(config.starts_with("[mcp_servers.rove]"), "{config}");
    assert!(
        object["hint"]
            .as_str()
            .is_some_and(|h| h.contains("config.toml"))
    );
}

/// Where each host reads the URL, and its headers.
fn endpoint(host: &str, file: &Value) -> (String, String) {
    let (entry, url_field, headers_field) = match host {
        "codex" => (&file["mcp_servers"]["rove"], "url", "http_headers"),
        "vscode" => (&file["servers"]["rove"], "url", "headers"),
        "opencode" => (&file["mcp"]["rove"], "url", "headers"),
        "windsurf" | "agy" => (&file["mcpServers"]["rove"], "serverUrl", "headers"),
        "gemini" => (&file["mcpServers"]["rove"], "httpUrl", "headers"),
        _ => (&file["mcpServers"]["rove"], "url", "headers"),
    };
    match host {
        "vscode" | "claude-code" => assert_eq!(entry["type"], "http", "{host}: {file}"),
        "opencode" => assert_eq!(entry["type"], "remote", "{file}"),
        _ => {}
    }
    assert!(entry.get("command").is_none(), "{host}: {file}");
    (
        entry[url_field]
            .as_str()
            .unwrap_or_else(|| panic!("{host}: no {url_field} in {file}"))
            .to_owned(),
        entry[headers_field]["Authorization"]
            .as_str()
            .unwrap_or_else(|| panic!("{host}: no Authorization in {file}"))
            .to_owned(),
    )
}

#[test]
fn over_http_each_host_gets_the_url_and_the_bearer_header() {
    let dir = scratch("http");
    for host in HOSTS {
        let out = run(rove(&dir).args([
            "--headed",
            "print-config",
            "--harness",
            host,
            "--http",
            "--port",
            "7444",
            "--token",
            "s3cret",
        ]));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        if host == "claude-desktop" {
            // Its file has no field for a URL: refused, with the way out.
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains("COMMAND_REJECTED"), "{stderr}");
            assert!(stderr.contains("drop --http"), "{stderr}");
            assert!(stdout.is_empty(), "{stdout}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{host}: {stderr}");
        let (url, authorization) = endpoint(host, &parse(host, &stdout));
        assert_eq!(url, "http://127.0.0.1:7444/mcp", "{host}");
        assert_eq!(authorization, "Bearer s3cret", "{host}");
        // The server to run, with the same token, port and flags.
        let start = format!(
            "ROVE_MCP_TOKEN=s3cret {} mcp --headed --http --port 7444",
            rove_path()
        );
        assert!(stderr.contains(&start), "{host}: {stderr}");
    }
    let out = run(rove(&dir).args([
        "print-config",
        "--harness",
        "claude-code",
        "--http",
        "--token",
        "t0k",
    ]));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "claude mcp add --transport http --scope user rove http://127.0.0.1:7333/mcp --header 'Authorization: Bearer t0k'"
        ),
        "{stderr}"
    );
}

#[test]
fn over_http_without_a_token_a_new_one_is_made_and_the_server_command_uses_it() {
    let dir = scratch("token");
    let out = run(rove(&dir).args(["print-config", "--harness", "cursor", "--http"]));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let (_, authorization) = endpoint("cursor", &parse("cursor", &stdout));
    let token = authorization
        .strip_prefix("Bearer ")
        .expect("a bearer token");
    assert_eq!(token.len(), 64, "{token}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    assert!(
        stderr.contains(&format!("ROVE_MCP_TOKEN={token} ")),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_running_http_server_accepts_the_printed_url_and_header() {
    let mut server = tokio::process::Command::new(env!("CARGO_BIN_EXE_rove"))
        .args([
            "mcp",
            "--http",
            "--port",
            "0",
            "--token",
            "printed-token",
            "--json",
        ])
        .env_remove("ROVE_CDP_URL")
        .env_remove("ROVE_SESSION")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("server");
    let mut lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("started in time")
        .expect("read")
        .expect("a line");
    let started: Value = serde_json::from_str(&first).expect("JSON");
    let served = started["url"].as_str().expect("url").to_owned();

    let dir = scratch("live");
    let out = run(rove(&dir).args([
        "print-config",
        "--harness",
        "vscode",
        "--http",
        "--url",
        &served,
        "--token",
        "printed-token",
    ]));
    let (url, authorization) = endpoint("vscode", &parse("vscode", &text(&out.stdout)));
    assert_eq!(url, served);

    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: {authorization}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{init}",
        init.len()
    );
    let answer = tokio::time::timeout(Duration::from_secs(30), async {
        use tokio::io::AsyncReadExt;
        let mut stream = tokio::net::TcpStream::connect(&addr)
            .await
            .expect("connect");
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut got = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            let n = stream.read(&mut chunk).await.expect("read");
            got.extend_from_slice(&chunk[..n]);
            if n == 0 || String::from_utf8_lossy(&got).contains("\"serverInfo\"") {
                break;
            }
        }
        String::from_utf8_lossy(&got).into_owned()
    })
    .await
    .expect("answered in time");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"serverInfo\""), "{answer}");
    let _ = server.kill().await;
}
