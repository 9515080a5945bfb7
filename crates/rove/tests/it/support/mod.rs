//! Shared helpers for the tests that drive the real `rove` binary over
//! session daemons: a private runtime folder per test, running commands,
//! talking to a daemon's socket, and watching processes end.
#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rove_localserver::{LocalServer, Response, Routes};
use serde_json::Value;
use tokio::process::Command;

/// A private runtime folder (and, on request, a private temp folder), so
/// tests never share daemons.
pub struct Env {
    pub dir: PathBuf,
    /// `TMPDIR` of every command (and so of their daemons and browsers).
    pub tmp: Option<PathBuf>,
    /// `RUST_LOG` of every command (and so of the daemons they start).
    pub log_filter: Option<&'static str>,
    pub server: LocalServer,
}

pub use rove_testkit::{lock_is_held, scratch_dir as scratch};

impl Env {
    /// An environment whose server answers `routes`.
    pub async fn with_routes(name: &str, routes: Routes) -> Env {
        let dir = scratch(&format!("sessions-{name}"));
        let server = LocalServer::start(routes).await.expect("server");
        Env {
            dir,
            tmp: None,
            log_filter: None,
            server,
        }
    }

    /// An environment serving `/form`: a name field, a Greet button.
    pub async fn new(name: &str) -> Env {
        let page = "<!doctype html><title>Form</title><h1>Sign up</h1>\
            <label>Name <input id=name></label>\
            <button onclick=\"document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value\">Greet</button>\
            <p id=out>nobody</p>";
        Env::with_routes(name, Routes::new().page("/form", Response::html(page))).await
    }

    /// The runtime folder the daemons use.
    pub fn rove_dir(&self) -> PathBuf {
        self.dir.join("rove")
    }

    pub fn rove(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
        command
            .env("XDG_RUNTIME_DIR", &self.dir)
            .env_remove("ROVE_SESSION")
            .env_remove("ROVE_CDP_URL")
            .env_remove("RUST_LOG")
            .env("ROVE_IDLE", "60")
            .args(args)
            .kill_on_drop(true);
        if let Some(tmp) = &self.tmp {
            command.env("TMPDIR", tmp);
        }
        if let Some(filter) = self.log_filter {
            command.env("RUST_LOG", filter);
        }
        command
    }

    /// Runs `rove --json ARGS`: its exit status and its one JSON object.
    pub async fn run(&self, args: &[&str]) -> (i32, Value) {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        output_json(args, self.rove(&all)).await
    }

    pub async fn ok(&self, args: &[&str]) -> Value {
        let (status, value) = self.run(args).await;
        assert_eq!(status, 0, "{args:?}: {value}");
        value
    }

    /// An expression's value in the default session's page.
    pub async fn value(&self, js: &str) -> Value {
        self.ok(&["eval", js]).await["data"]["result"].clone()
    }

    pub fn socket(&self, session: &str) -> PathBuf {
        self.rove_dir().join(format!("{session}.sock"))
    }

    pub fn lock(&self, session: &str) -> PathBuf {
        self.rove_dir().join(format!("{session}.lock"))
    }

    pub fn log(&self, session: &str) -> PathBuf {
        self.rove_dir().join(format!("{session}.log"))
    }

    pub async fn close(&self, session: &str) {
        self.ok(&["--session", session, "close"]).await;
    }
}

impl Drop for Env {
    /// Removes the test's folders, unless the test failed (its daemon's log
    /// is then worth reading).
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some(tmp) = &self.tmp {
            let _ = std::fs::remove_dir_all(tmp);
        }
    }
}

/// Runs rove as `command` says, ended when the test drops it, and waits for
/// it `limit` at most (a test that waits longer fails saying so).
pub async fn finished(limit: Duration, command: &mut Command) -> std::process::Output {
    tokio::time::timeout(limit, command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("rove finished within {limit:?}"))
        .expect("rove ran")
}

/// Waits for a command (60 s at most) and reads its one JSON object.
pub async fn output_json(args: &[&str], mut command: Command) -> (i32, Value) {
    let output = tokio::time::timeout(Duration::from_secs(60), command.output())
        .await
        .expect("rove finished within 60 s")
        .expect("rove ran");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not one JSON object ({e}): {stdout:?} {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), value)
}

/// The ref of the line holding `marker` in a view.
pub fn ref_of(view: &str, marker: &str) -> String {
    view.lines()
        .find(|l| l.contains(marker))
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with('e')))
        .unwrap_or_else(|| panic!("no {marker} in {view}"))
        .to_owned()
}

/// Whether a process runs (a zombie counts as gone); pids here are the
/// daemon's answers, signed.
pub fn alive(pid: i32) -> bool {
    u32::try_from(pid).is_ok_and(rove_testkit::pid_alive)
}

pub async fn gone_within(pid: i32, limit: Duration) -> bool {
    match u32::try_from(pid) {
        Ok(pid) => rove_testkit::gone_within(pid, limit).await,
        Err(_) => true,
    }
}

/// Asks a daemon for its pids, over its socket (after its greeting).
pub async fn ping(socket: &Path) -> Value {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let stream = tokio::net::UnixStream::connect(socket)
        .await
        .expect("connect");
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let greeting = lines.next_line().await.expect("read").expect("greeting");
    assert!(greeting.contains("\"ready\":true"), "{greeting}");
    write
        .write_all(b"{\"control\":\"ping\"}\n")
        .await
        .expect("write");
    let line = lines.next_line().await.expect("read").expect("line");
    serde_json::from_str(&line).expect("json")
}

/// The daemon's and its browser's pids.
pub async fn pids(socket: &Path) -> (i32, i32) {
    let ping = ping(socket).await;
    let daemon = ping["pid"].as_i64().expect("pid") as i32;
    let browser = ping["browser_pid"].as_i64().expect("browser pid") as i32;
    (daemon, browser)
}

/// Waits (30 s at most) until `file` holds a line containing `needle`.
pub async fn wait_for_line(file: &Path, needle: &str) {
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if text.lines().any(|l| l.contains(needle)) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} never said {needle:?}:\n{text}",
            file.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub mod mcp_client;
pub mod remote;
pub mod suite;

/// What `rove test`'s report.html shows, opened in real Chromium from a
/// server on the out folder: `title`, `suite`, `rows` (each table row's
/// text), `open` (the summaries of the attempts shown open), `attempts`
/// (each attempt's text), `loaded` (resources it fetched), `scripts`; and
/// the paths the server was asked for.
pub async fn report_shown(out: &Path) -> (Value, Vec<String>) {
    let log = rove_localserver::RequestLog::new();
    let files = LocalServer::start(Routes::new().log_requests(log.clone()).folder("/", out))
        .await
        .expect("file server");
    let script = "JSON.stringify({title: document.title, suite: document.querySelector('#suite').innerText, \
        rows: [...document.querySelectorAll('#tasks tr')].map(r => r.innerText.replace(/\\s+/g, ' ').trim()), \
        open: [...document.querySelectorAll('details.attempt[open]')].map(d => d.querySelector('summary').innerText), \
        attempts: [...document.querySelectorAll('details.attempt')].map(d => d.innerText), \
        loaded: performance.getEntriesByType('resource').map(e => e.name), scripts: document.scripts.length})";
    let shown = shown_in_chromium(&files.url("/report.html"), script).await;
    let asked = log.requests().iter().map(|r| r.path.clone()).collect();
    (shown, asked)
}

/// The page `rove trace show TRACE` writes (beside the trace), checked to
/// hold no script, then opened in real Chromium as it is served: what
/// `facts` (an expression giving a JSON string) reads there. The page must
/// load nothing: that is asserted here.
pub async fn trace_page_shown(trace: &Path, facts: &str) -> Value {
    let html = trace.with_extension("html");
    let shown = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(["trace", "show"])
        .arg(trace)
        .arg("-o")
        .arg(&html)
        .output()
        .await
        .expect("trace show ran");
    assert_eq!(shown.status.code(), Some(0), "{shown:?}");
    let page = std::fs::read_to_string(&html).expect("the page");
    assert!(!page.contains("<script"), "no script in the page");
    let server = LocalServer::start(Routes::new().page("/trace", Response::html(page)))
        .await
        .expect("page server");
    let script = format!(
        "JSON.stringify({{facts: JSON.parse({facts}), loaded: performance.getEntriesByType('resource').map(e => e.name)}})"
    );
    let shown = shown_in_chromium(&server.url("/trace"), &script).await;
    assert_eq!(
        shown["loaded"],
        serde_json::json!([]),
        "the page loads nothing: {shown}"
    );
    shown["facts"].clone()
}

/// That a trace page's `facts` show the failed entry's typed error
/// (`REF_NOT_FOUND …`) and its hint (`hint: …`), as both trace pages do.
pub fn assert_failure_shown(facts: &Value) {
    let starts = |key: &str, prefix: &str| {
        facts[key]
            .as_str()
            .is_some_and(|text| text.starts_with(prefix))
    };
    assert!(starts("error", "REF_NOT_FOUND"), "{facts}");
    assert!(starts("hint", "hint: "), "{facts}");
}

/// What `js` (an expression giving a JSON string) reads on `url`, opened
/// in a browser of its own.
async fn shown_in_chromium(url: &str, js: &str) -> Value {
    let browser = rove_testkit::launch().await;
    let mut session =
        rove_commands::Session::start(&browser, rove_commands::SessionConfig::default())
            .await
            .expect("session");
    session
        .execute(&rove_commands::Command::Open(rove_commands::OpenArgs {
            url: url.to_owned(),
            new_tab: false,
        }))
        .await
        .expect("page opened");
    let shown = session
        .execute(&rove_commands::Command::Eval(rove_commands::EvalArgs {
            js: js.into(),
            target: None,
        }))
        .await
        .expect("read the page");
    let _ = session.close().await;
    browser.close().await;
    serde_json::from_str(
        shown
            .result()
            .and_then(serde_json::Value::as_str)
            .expect("a string"),
    )
    .expect("JSON")
}

/// Sends SIGINT to a child this test started, as Ctrl-C would, and waits
/// (at most `within`, else `what` fails the test) for it to end.
pub async fn interrupt(
    child: &mut tokio::process::Child,
    within: Duration,
    what: &str,
) -> std::process::ExitStatus {
    let pid = child.id().expect("pid") as i32;
    // SAFETY: signalling a child process this test started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    tokio::time::timeout(within, child.wait())
        .await
        .unwrap_or_else(|_| panic!("{what}"))
        .expect("wait")
}

/// A trace file's lines as JSON, each checked against the one trace
/// format: it reads back as a `TraceLine` of a known kind, and written
/// again it is the same JSON, so a field a writer emits that the type does
/// not know (and so the viewer would not show) fails here. An action's
/// unknown fields are kept by the type (`extra`) for later files; none of
/// today's writers may need them.
pub fn trace_lines(path: &Path) -> Vec<Value> {
    use rove_commands::trace_format::TraceLine;
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|raw| {
            let written: Value = serde_json::from_str(raw).expect("a JSON line");
            let line = TraceLine::parse(raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
            match &line {
                TraceLine::Unknown => panic!("a line of no known kind: {raw}"),
                TraceLine::Step(step) => {
                    for action in &step.actions {
                        assert!(action.extra.is_empty(), "unknown action fields: {raw}");
                    }
                }
                _ => {}
            }
            let read: Value = serde_json::to_value(&line).expect("serializes");
            assert_eq!(read, written, "the trace format lost or changed a field");
            written
        })
        .collect()
}
