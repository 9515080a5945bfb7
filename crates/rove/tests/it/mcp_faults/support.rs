//! Clients for the fault suite: `rove mcp` over stdio with raw bytes, `rove
//! mcp --http` started as a process, and HTTP/1.1 spoken by hand over TCP
//! (so a test can send half a request, or a wrong header, on purpose).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// `rove mcp` over stdio, writing raw bytes and reading whole lines.
pub struct Stdio {
    pub stdin: ChildStdin,
    pub stdout: Lines<BufReader<ChildStdout>>,
    pub child: Child,
}

impl Stdio {
    /// Starts `rove mcp` with `envs`, stderr to `stderr`, and initializes.
    pub async fn start(envs: &[(&str, &str)], stderr: std::process::Stdio) -> Stdio {
        Stdio::start_with_args(&[], envs, stderr).await
    }

    /// Starts `rove mcp ARGS` with `envs`, stderr to `stderr`, and
    /// initializes.
    pub async fn start_with_args(
        args: &[&str],
        envs: &[(&str, &str)],
        stderr: std::process::Stdio,
    ) -> Stdio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("mcp")
            .args(args)
            .envs(envs.iter().copied())
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_SESSION")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .expect("rove mcp started");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut client = Stdio {
            stdin,
            stdout,
            child,
        };
        client.send(&initialize(1)).await;
        let init = client.answer_to(1).await;
        assert_eq!(init["result"]["serverInfo"]["name"], "rove", "{init}");
        client
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string())
            .await;
        client
    }

    /// Writes `line` and a newline.
    pub async fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes()).await;
    }

    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).await.expect("write");
        self.stdin.write_all(b"\n").await.expect("write");
        self.stdin.flush().await.expect("flush");
    }

    /// The next line on stdout, as JSON (every line must be JSON-RPC).
    pub async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.stdout.next_line())
            .await
            .expect("a line within 60 s")
            .expect("read")
            .expect("stdout still open");
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        message
    }

    /// Reads lines until the answer to `id`; the lines before it are
    /// returned too.
    pub async fn answer_to(&mut self, id: u64) -> Value {
        loop {
            let message = self.next().await;
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Sends a request and waits for its answer.
    pub async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        )
        .await;
        self.answer_to(id).await
    }
}

pub fn initialize(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}}}).to_string()
}

/// The JSON-RPC parse error a bad line must get.
pub fn assert_parse_error(message: &Value) {
    assert_eq!(message["error"]["code"], -32700, "{message}");
    assert!(message["id"].is_null(), "{message}");
    assert!(
        message.as_object().is_some_and(|m| m.contains_key("id")),
        "the id is there, as null: {message}"
    );
}

/// `rove mcp --http --port 0` as a process.
pub struct HttpProcess {
    pub child: Child,
    pub addr: String,
    pub token: String,
}

impl HttpProcess {
    pub async fn start() -> HttpProcess {
        HttpProcess::start_with(|_| {}).await
    }

    /// Starts it after `adjust` had its say on the command (limits, env).
    pub async fn start_with(adjust: impl FnOnce(&mut Command)) -> HttpProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
        command
            .args(["mcp", "--http", "--port", "0", "--json"])
            .env_remove("ROVE_MCP_TOKEN")
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_SESSION")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        adjust(&mut command);
        let mut child = command.spawn().expect("rove mcp --http started");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("started within 30 s")
            .expect("read")
            .expect("a line");
        let started: Value = serde_json::from_str(&first).expect("json");
        let url = started["url"].as_str().expect("url");
        HttpProcess {
            addr: url
                .trim_start_matches("http://")
                .trim_end_matches("/mcp")
                .to_owned(),
            token: started["token"].as_str().expect("token").to_owned(),
            child,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id().expect("running")
    }

    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }
}

/// One HTTP/1.1 answer: the status, the headers (names in lower case) and
/// the body as it arrived.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request on a fresh connection and reads the answer: to the end
/// of the response, or, for an SSE stream, until the JSON-RPC answer to
/// `id` went by.
pub async fn request(
    addr: &str,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
    id: Option<u64>,
) -> Answer {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut head = format!(
        "{method} /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(body);
    stream.write_all(head.as_bytes()).await.expect("send");
    read_answer(&mut stream, id).await
}

/// Reads an answer from `stream` (see [`request`]).
pub async fn read_answer(stream: &mut TcpStream, id: Option<u64>) -> Answer {
    let wanted = id.map(|id| format!("\"id\":{id}"));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let mut got = Vec::new();
    loop {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(n)) => got.extend_from_slice(&chunk[..n]),
        }
        let text = String::from_utf8_lossy(&got);
        // The answer is whole once the event that carries the id has ended
        // (a blank line after it): a long one comes in several reads.
        let whole = wanted.as_ref().is_some_and(|w| {
            text.find(w.as_str())
                .is_some_and(|at| text[at..].contains("\n\n"))
        });
        if whole {
            break;
        }
    }
    let text = String::from_utf8_lossy(&got).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// Initializes an MCP session over HTTP with `authorization`; its id.
pub async fn open_session(addr: &str, authorization: &str) -> String {
    let answer = request(
        addr,
        "POST",
        &[("Authorization", authorization)],
        &initialize(1),
        Some(1),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let id = answer
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("a session id: {answer:?}"))
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let sent = request(
        addr,
        "POST",
        &[("Authorization", authorization), ("Mcp-Session-Id", &id)],
        &initialized,
        None,
    )
    .await;
    assert_eq!(sent.status, 202, "{sent:?}");
    id
}

/// `tools/list` on `session`; the answer and how long it took.
pub async fn tools_list(addr: &str, authorization: &str, session: &str) -> (Answer, Duration) {
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let started = Instant::now();
    let answer = request(
        addr,
        "POST",
        &[
            ("Authorization", authorization),
            ("Mcp-Session-Id", session),
        ],
        &list,
        Some(2),
    )
    .await;
    (answer, started.elapsed())
}

/// Opens `n` connections that each send half a request and then nothing.
pub async fn half_open(addr: &str, n: usize) -> Vec<TcpStream> {
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Le").as_bytes())
            .await
            .expect("send half");
        held.push(stream);
    }
    held
}

/// Raises this process's open-file limit to at least `n` (its hard limit
/// allowing), so a test can hold many connections.
pub fn allow_open_files(n: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < n {
            assert!(
                limit.rlim_max >= n,
                "this test holds {n} connections; the hard open-file limit is {} (raise it: ulimit -Hn)",
                limit.rlim_max
            );
            limit.rlim_cur = n;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
}

/// CPU time (user + system) of process `pid` so far.
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // The fields after the command name (which may hold spaces) in ')'.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).expect("stat");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

/// The names of process `pid`'s threads.
pub fn thread_names(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("tasks")
        .filter_map(|t| t.ok())
        .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
        .map(|c| c.trim().to_owned())
        .collect()
}
