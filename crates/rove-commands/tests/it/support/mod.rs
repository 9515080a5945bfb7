//! Shared helpers for rove-commands' tests: a session in a launched browser
//! over fixture pages on 127.0.0.1, commands given as JSON (the shape the
//! faces send), and refs found the way an agent finds them.
#![allow(dead_code, unused_imports)]

use std::time::Duration;

use rove_browser::Browser;
use rove_commands::{Command, CommandError, Outcome, Session, SessionConfig};
use rove_errors::Classify;
use rove_localserver::{LocalServer, Routes};
use serde_json::Value;

/// A session over the fixture pages.
pub struct Fixture {
    pub browser: Browser,
    pub server: LocalServer,
    pub session: Session,
}

/// Every page in `tests/fixtures`, served at `/<name>`, plus `extra` routes.
/// A watchdog that takes two seconds of silence for a hang and looks every
/// second, so the scenarios that hang a tab run in seconds (the other tests
/// keep the defaults: a loaded machine never makes a healthy page look hung).
pub fn quick_health() -> rove_commands::HealthLimits {
    rove_commands::HealthLimits {
        probe_timeout: Duration::from_secs(2),
        recovery_timeout: Duration::from_secs(2),
        probe_before_commands: true,
        interval: Some(Duration::from_secs(1)),
        ..rove_commands::HealthLimits::default()
    }
}

pub fn fixture_routes() -> Routes {
    rove_testkit::fixture_routes(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/fixtures"
    )))
}

impl Fixture {
    pub async fn start() -> Fixture {
        Fixture::with(fixture_routes(), SessionConfig::default()).await
    }

    pub async fn with(routes: Routes, config: SessionConfig) -> Fixture {
        let server = LocalServer::start(routes).await.expect("server");
        let browser = rove_testkit::launch().await;
        let session = Session::start(&browser, config).await.expect("session");
        Fixture {
            browser,
            server,
            session,
        }
    }

    pub fn url(&self, path: &str) -> String {
        self.server.url(path)
    }

    /// Runs a command given as JSON; panics on failure.
    pub async fn ok(&mut self, command: Value) -> Outcome {
        let shown = command.to_string();
        self.run(command)
            .await
            .unwrap_or_else(|e| panic!("{shown} failed: {:?}", e.report()))
    }

    /// Runs a command given as JSON.
    pub async fn run(&mut self, command: Value) -> Result<Outcome, CommandError> {
        let command: Command = serde_json::from_value(command).expect("a valid command");
        tokio::time::timeout(Duration::from_secs(60), self.session.execute(&command))
            .await
            .expect("the command finished within 60 s")
    }

    /// Runs a command (panics on failure) and returns the view or diff it
    /// answered with.
    pub async fn view_of(&mut self, command: Value) -> String {
        self.ok(command)
            .await
            .view
            .expect("the answer has a view")
            .text
    }

    /// Runs a command that must fail; returns its error.
    pub async fn fails(&mut self, command: Value) -> CommandError {
        let shown = command.to_string();
        match self.run(command).await {
            Ok(out) => panic!("{shown} succeeded: {}", out.text()),
            Err(e) => e,
        }
    }

    /// Opens a fixture page in the focused tab.
    pub async fn open(&mut self, page: &str) -> Outcome {
        let url = self.url(page);
        self.ok(serde_json::json!({"command": "open", "url": url}))
            .await
    }

    /// The ref of the element of `role` named exactly `name`, through `find`.
    pub async fn find(&mut self, name: &str, role: &str) -> String {
        let out = self
            .ok(serde_json::json!({"command": "find", "text": name, "role": role, "limit": 50}))
            .await;
        named(out, name, role)
    }

    /// Evaluates an expression and returns its value.
    pub async fn eval(&mut self, js: &str) -> Value {
        let out = self
            .ok(serde_json::json!({"command": "eval", "js": js}))
            .await;
        out.result().expect("eval data").clone()
    }

    pub async fn close(self) {
        self.browser.close().await;
    }
}

/// The ref `find` answered for the element named exactly `name` (find
/// matches substrings).
pub fn named(found: Outcome, name: &str, role: &str) -> String {
    let view = found.view.expect("find answers with a view");
    view.found
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.reference.to_string())
        .unwrap_or_else(|| panic!("no {role} {name:?} in {}", view.text))
}

/// The error's code as the docs spell it.
pub fn code(e: &CommandError) -> &'static str {
    e.code().as_str()
}

/// Accepts a WebSocket on `stream`, as a test server's: a sender of text
/// frames to the page (written in order by a task of its own) and the text
/// frames the page sends. `None` when the handshake fails.
pub async fn websocket_texts(
    stream: tokio::net::TcpStream,
) -> Option<(
    tokio::sync::mpsc::UnboundedSender<String>,
    tokio::sync::mpsc::UnboundedReceiver<String>,
)> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let socket = tokio_tungstenite::accept_async(stream).await.ok()?;
    let (mut tx, mut rx) = socket.split();
    let (out, mut outgoing) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(text) = outgoing.recv().await {
            if tx.send(Message::text(text)).await.is_err() {
                return;
            }
        }
    });
    let (heard, incoming) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(Ok(message)) = rx.next().await {
            if let Message::Text(text) = message
                && heard.send(text.to_string()).is_err()
            {
                return;
            }
        }
    });
    Some((out, incoming))
}
