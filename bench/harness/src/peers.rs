//! Driving the peers: MCP servers over stdio, agent-browser's CLI, and rove's
//! own agent process.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout, Command};

use crate::report::{Sample, Tokens, median};

const WARM_RUNS: usize = 5;

/// Snapshots of a few milliseconds vary by as much as they cost: those get
/// enough runs for a steady median, as rove's do.
fn warm_runs(first_ms: f64) -> usize {
    if first_ms < 100.0 { 21 } else { WARM_RUNS }
}
const CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// A child process spoken to in JSON lines.
pub struct Child {
    child: tokio::process::Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

impl Child {
    pub async fn spawn(
        program: impl AsRef<std::ffi::OsStr>,
        args: &[&str],
    ) -> std::io::Result<Child> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        Ok(Child {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
        })
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    pub async fn send(&mut self, message: &Value) -> std::io::Result<()> {
        self.stdin
            .write_all(format!("{message}\n").as_bytes())
            .await?;
        self.stdin.flush().await
    }

    pub async fn line(&mut self) -> std::io::Result<Value> {
        let line = tokio::time::timeout(CALL_TIMEOUT, self.stdout.next_line())
            .await
            .map_err(|_| std::io::Error::other("no answer within 120 s"))??
            .ok_or_else(|| std::io::Error::other("the process ended"))?;
        serde_json::from_str(&line).map_err(|e| std::io::Error::other(format!("{e}: {line}")))
    }

    /// One command to rove's agent, one answer back.
    pub async fn call(&mut self, message: Value) -> std::io::Result<Value> {
        self.send(&message).await?;
        let answer = self.line().await?;
        if let Some(e) = answer.get("error") {
            return Err(std::io::Error::other(format!("{message}: {e}")));
        }
        Ok(answer)
    }
}

/// An MCP server over stdio.
pub struct Mcp {
    name: &'static str,
    child: Child,
    next_id: u64,
    peak_kb: u64,
}

impl Mcp {
    pub async fn start(
        name: &'static str,
        program: &str,
        args: &[&str],
    ) -> Result<Mcp, Box<dyn std::error::Error>> {
        let child = Child::spawn(program, args).await?;
        let mut mcp = Mcp {
            name,
            child,
            next_id: 0,
            peak_kb: 0,
        };
        mcp.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "rove-bench", "version": "0.1.0"},
            }),
        )
        .await?;
        mcp.child
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
        Ok(mcp)
    }

    async fn request(&mut self, method: &str, params: Value) -> std::io::Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.child
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let message = self.child.line().await?;
            if message["id"] == json!(id) {
                if let Some(e) = message.get("error") {
                    return Err(std::io::Error::other(format!(
                        "{} {method}: {e}",
                        self.name
                    )));
                }
                return Ok(message["result"].clone());
            }
        }
    }

    /// Playwright MCP from the bench's npm cache, on the system Chromium.
    pub async fn playwright(node_modules: &Path) -> Result<Mcp, Box<dyn std::error::Error>> {
        let cli = node_modules.join("@playwright/mcp/cli.js");
        // The snapshot files it writes on every call go to the cache, not the
        // working folder.
        let output = node_modules.join("../playwright-output");
        Mcp::start(
            "Playwright MCP",
            "node",
            &[
                cli.to_string_lossy().as_ref(),
                "--output-dir",
                output.to_string_lossy().as_ref(),
                "--headless",
                "--isolated",
                "--browser",
                "chromium",
                "--executable-path",
                "/usr/bin/chromium",
                "--no-sandbox",
            ],
        )
        .await
    }

    /// chrome-devtools-mcp from the bench's npm cache, on the system Chromium.
    pub async fn devtools(node_modules: &Path) -> Result<Mcp, Box<dyn std::error::Error>> {
        let bin = node_modules.join("chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js");
        Mcp::start(
            "chrome-devtools-mcp",
            "node",
            &[
                bin.to_string_lossy().as_ref(),
                "--headless",
                "--isolated",
                "--executablePath",
                "/usr/bin/chromium",
                "--chromeArg=--no-sandbox",
            ],
        )
        .await
    }

    /// Opens `url` as a new page in chrome-devtools-mcp, which addresses
    /// pages by id; returns the page's id.
    pub async fn devtools_page(&mut self, url: &str) -> std::io::Result<u64> {
        let listing = self.tool("new_page", json!({"url": url})).await?;
        listing
            .lines()
            .find(|l| l.contains(url))
            .and_then(|l| l.split(':').next()?.trim().parse::<u64>().ok())
            .ok_or_else(|| {
                std::io::Error::other(format!("{}: no page id for {url} in {listing}", self.name))
            })
    }

    /// The server's `tools/list` answer as JSON text (what a host loads
    /// into every conversation). Used by `rove-bench-click`.
    #[allow(dead_code)]
    pub async fn tools_list(&mut self) -> std::io::Result<String> {
        Ok(self.request("tools/list", json!({})).await?.to_string())
    }

    /// Calls a tool and returns the text the model would read.
    pub async fn tool(&mut self, name: &str, arguments: Value) -> std::io::Result<String> {
        let result = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        let text = result["content"]
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        if result["isError"] == json!(true) {
            return Err(std::io::Error::other(format!(
                "{} {name}: {text}",
                self.name
            )));
        }
        Ok(text)
    }

    /// Navigates, then takes warm snapshots: median time and the tokens.
    pub async fn measure(
        &mut self,
        navigate: &str,
        navigate_args: Value,
        snapshot: &str,
        snapshot_args: Value,
        count: &impl Fn(&str) -> usize,
    ) -> Sample {
        if let Err(e) = self.tool(navigate, navigate_args).await {
            eprintln!("{}: {e}", self.name);
            return Sample::default();
        }
        self.measure_snapshots(snapshot, snapshot_args, count).await
    }

    /// chrome-devtools-mcp addresses pages by id: open the page as a new
    /// page, read its id from the page list, snapshot that page.
    pub async fn measure_devtools(&mut self, url: &str, count: &impl Fn(&str) -> usize) -> Sample {
        let page_id = match self.devtools_page(url).await {
            Ok(id) => id,
            Err(e) => {
                eprintln!("{e}");
                return Sample::default();
            }
        };
        self.measure_snapshots("take_snapshot", json!({"pageId": page_id}), count)
            .await
    }

    async fn measure_snapshots(
        &mut self,
        snapshot: &str,
        args: Value,
        count: &impl Fn(&str) -> usize,
    ) -> Sample {
        let result = async {
            let warm_up = Instant::now();
            self.tool(snapshot, args.clone()).await?;
            let runs = warm_runs(warm_up.elapsed().as_secs_f64() * 1e3);
            let mut times = Vec::new();
            let mut text = String::new();
            for _ in 0..runs {
                let started = Instant::now();
                text = self.tool(snapshot, args.clone()).await?;
                times.push(started.elapsed().as_secs_f64() * 1e3);
            }
            Ok::<_, std::io::Error>(Sample {
                tokens: Tokens::Some(count(&text)),
                ms: median(&mut times),
            })
        }
        .await;
        self.peak_kb = self
            .peak_kb
            .max(self.child.pid().map(tree_hwm_kb).unwrap_or(0));
        result.unwrap_or_else(|e| {
            eprintln!("{}: {e}", self.name);
            Sample::default()
        })
    }

    /// The peak resident memory of the server process (its browser excluded).
    pub fn peak_kb(&self) -> u64 {
        self.peak_kb
            .max(self.child.pid().map(tree_hwm_kb).unwrap_or(0))
    }
}

/// agent-browser's CLI, with its background daemon.
pub struct AgentBrowser {
    exe: PathBuf,
    session: String,
    peak_kb: std::sync::atomic::AtomicU64,
}

impl AgentBrowser {
    pub fn new(node_modules: &Path) -> Self {
        Self::in_session(node_modules, "rove-bench")
    }

    /// In the session `session`: each session has a daemon and a browser of
    /// its own, started by its first command.
    pub fn in_session(node_modules: &Path, session: &str) -> Self {
        AgentBrowser {
            exe: node_modules.join("agent-browser/bin/agent-browser-linux-x64"),
            session: session.to_owned(),
            peak_kb: std::sync::atomic::AtomicU64::new(0),
        }
    }

    pub async fn run(&self, args: &[&str]) -> std::io::Result<String> {
        let out = tokio::time::timeout(
            CALL_TIMEOUT,
            Command::new(&self.exe)
                .args(["--session", self.session.as_str()])
                .args(args)
                .env("AGENT_BROWSER_EXECUTABLE_PATH", "/usr/bin/chromium")
                .env(
                    "AGENT_BROWSER_ARGS",
                    "--no-sandbox,--disable-gpu,--disable-quic,--no-first-run,--disable-background-networking,--disable-component-update,--disable-sync",
                )
                .stdin(Stdio::null())
                .output(),
        )
        .await
        .map_err(|_| std::io::Error::other("agent-browser timed out"))??;
        if !out.status.success() {
            return Err(std::io::Error::other(
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Opens the page, then warm `snapshot` and `snapshot -i`.
    pub async fn measure(&self, url: &str, count: &impl Fn(&str) -> usize) -> (Sample, usize) {
        let result = async {
            self.run(&["open", url]).await?;
            self.run(&["snapshot"]).await?;
            let mut times = Vec::new();
            let mut text = String::new();
            for _ in 0..WARM_RUNS {
                let started = Instant::now();
                text = self.run(&["snapshot"]).await?;
                times.push(started.elapsed().as_secs_f64() * 1e3);
            }
            let interactive = self.run(&["snapshot", "-i"]).await?;
            Ok::<_, std::io::Error>((
                Sample {
                    tokens: Tokens::Some(count(&text)),
                    ms: median(&mut times),
                },
                count(&interactive),
            ))
        }
        .await;
        let daemon = daemon_hwm_kb();
        self.peak_kb
            .fetch_max(daemon, std::sync::atomic::Ordering::Relaxed);
        result.unwrap_or_else(|e| {
            eprintln!("agent-browser: {e}");
            (
                Sample {
                    tokens: Tokens::Failed,
                    ms: f64::NAN,
                },
                0,
            )
        })
    }

    pub fn peak_kb(&self) -> u64 {
        self.peak_kb
            .load(std::sync::atomic::Ordering::Relaxed)
            .max(daemon_hwm_kb())
    }

    pub async fn close(&self) {
        let _ = self.run(&["close"]).await;
    }
}

/// The high-water mark of a process and its children that are not the
/// browser (node may fork helpers; Chromium is excluded for every tool).
fn tree_hwm_kb(pid: u32) -> u64 {
    let mut total = hwm_kb(pid);
    for child in children(pid) {
        if !is_browser(child) {
            total += tree_hwm_kb(child);
        }
    }
    total
}

fn daemon_hwm_kb() -> u64 {
    processes()
        .filter(|pid| cmdline(*pid).contains("agent-browser") && !is_browser(*pid))
        .map(hwm_kb)
        .max()
        .unwrap_or(0)
}

fn processes() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
}

fn children(pid: u32) -> Vec<u32> {
    processes()
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|s| {
                    s.rsplit_once(')')
                        .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                })
                == Some(pid)
        })
        .collect()
}

fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
        .unwrap_or_default()
}

fn is_browser(pid: u32) -> bool {
    let cmd = cmdline(pid);
    cmd.contains("chrom") && !cmd.contains("chrome-devtools-mcp")
}

fn hwm_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

pub fn package_version(node_modules: &Path, package: &str) -> String {
    std::fs::read_to_string(node_modules.join(package).join("package.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        .and_then(|v| v["version"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}
