//! The MCP server: each connection gets its own session (browser context,
//! tabs, refs); the browser starts on the first tool call, so `initialize`
//! and `tools/list` never wait for Chromium.

use base64::Engine;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use rove_browser::{Browser, BrowserError, ConnectOptions, LaunchOptions};
use rove_commands::{Command, CommandError, Outcome, Session, SessionConfig};
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

/// Where the server's browser comes from.
#[derive(Debug, Clone)]
pub enum BrowserSource {
    /// Launch one (ended with the server).
    Launch(LaunchOptions),
    /// Connect to one someone else started (never closed by rove).
    Connect(ConnectOptions),
    /// No browser of its own: every command goes to a named session that
    /// others (the CLI) share, through this forwarder.
    Shared(Forwarder),
}

/// Sends `{"command": …}` to a shared session and returns its answer:
/// `{"ok": true, "text", "image"?}` or `{"ok": false, "error", "fresh_view"?}`.
#[derive(Clone)]
pub struct Forwarder(pub Arc<dyn Fn(Value) -> Forwarded + Send + Sync>);

/// The answer a [`Forwarder`] is working on.
pub type Forwarded = std::pin::Pin<Box<dyn std::future::Future<Output = Value> + Send>>;

impl std::fmt::Debug for Forwarder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Forwarder")
    }
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The MCP handshake or transport failed.
    #[error("MCP: {0}")]
    Protocol(String),
}

/// rove as an MCP server: one session per connection.
///
/// The session lives on a thread of its own with its own single-threaded
/// runtime: tool calls reach it through a channel and are run one at a
/// time, in order. (rove's commands are not `Send` futures, and a session is
/// used by one caller at a time anyway.)
#[derive(Debug, Clone)]
pub struct RoveMcp {
    jobs: Option<mpsc::UnboundedSender<Job>>,
    forward: Option<Forwarder>,
}

/// A tool call for the session thread, or the end.
enum Job {
    Run(Command, oneshot::Sender<Ran>),
    Shutdown(oneshot::Sender<()>),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Run(command, _) => write!(f, "Run({})", command.name()),
            Job::Shutdown(_) => f.write_str("Shutdown"),
        }
    }
}

/// A command's result and the notes of what the server did first (a
/// restarted browser).
type Ran = (Result<Outcome, CommandError>, Vec<String>);

#[derive(Debug, Default)]
struct State {
    browser: Option<Browser>,
    session: Option<Session>,
}

impl RoveMcp {
    /// A server that gets its browser from `source` (on the first tool call).
    pub fn new(source: BrowserSource, config: SessionConfig) -> Result<RoveMcp, McpError> {
        if let BrowserSource::Shared(forward) = source {
            return Ok(RoveMcp {
                jobs: None,
                forward: Some(forward),
            });
        }
        let (jobs, queue) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("rove-mcp-session".into())
            .spawn(move || session_thread(source, config, queue))
            .map_err(|e| McpError::Protocol(format!("no session thread: {e}")))?;
        Ok(RoveMcp {
            jobs: Some(jobs),
            forward: None,
        })
    }

    /// Serves one client over stdin and stdout until it disconnects, then
    /// ends the session and any browser it launched. Nothing but JSON-RPC is
    /// written to stdout.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let jobs = self.jobs.clone();
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| McpError::Protocol(e.to_string()))?;
        let ended = running.waiting().await;
        let (done, finished) = oneshot::channel();
        if let Some(jobs) = jobs {
            if jobs.send(Job::Shutdown(done)).is_ok() {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(10), finished).await;
            }
        }
        ended
            .map(|_| ())
            .map_err(|e| McpError::Protocol(e.to_string()))
    }

    /// Runs one tool call as a command of the vocabulary.
    async fn call(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> CallToolResult {
        let mut request = arguments.unwrap_or_default();
        request.insert("command".into(), Value::String(name.to_owned()));
        let command: Command = match serde_json::from_value(Value::Object(request)) {
            Ok(command) => command,
            Err(e) => {
                let error = rove_errors::Report::new(
                    rove_errors::ErrorCode::CommandRejected,
                    format!("{name}: {e}"),
                    "fix the arguments; tools/list has each tool's schema",
                );
                return CallToolResult::error(vec![ContentBlock::text(json!(error).to_string())]);
            }
        };
        if let Some(forward) = &self.forward {
            let answer = (forward.0)(json!({"command": command})).await;
            return forwarded(&answer);
        }
        let (reply, answer) = oneshot::channel();
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(Job::Run(command, reply)).is_ok());
        if !sent {
            return failure(&CommandError::Rejected("the session has ended".into()));
        }
        match answer.await {
            Ok((Ok(outcome), notes)) => success(&outcome, &notes),
            Ok((Err(e), _)) => failure(&e),
            Err(_) => failure(&CommandError::Rejected("the session has ended".into())),
        }
    }
}

/// The session's thread: runs jobs in order until told to stop or until
/// every handle to the server is gone, then ends the session and browser.
fn session_thread(
    source: BrowserSource,
    config: SessionConfig,
    mut queue: mpsc::UnboundedReceiver<Job>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!(error = %e, "no runtime for the MCP session");
            return;
        }
    };
    runtime.block_on(async move {
        let mut state = State::default();
        while let Some(job) = queue.recv().await {
            match job {
                Job::Run(command, reply) => {
                    let ran = match ensure_session(&source, &config, &mut state).await {
                        Err(e) => (Err(e), Vec::new()),
                        Ok(notes) => match state.session.as_mut() {
                            Some(session) => (session.execute(&command).await, notes),
                            None => (Err(CommandError::Rejected("no session".into())), notes),
                        },
                    };
                    let _ = reply.send(ran);
                }
                Job::Shutdown(done) => {
                    shut_down(&mut state).await;
                    let _ = done.send(());
                    return;
                }
            }
        }
        shut_down(&mut state).await;
    });
}

/// Starts the browser and the session on first use, and again when the
/// browser died (saying so).
async fn ensure_session(
    source: &BrowserSource,
    config: &SessionConfig,
    state: &mut State,
) -> Result<Vec<String>, CommandError> {
    let mut notes = Vec::new();
    if let Some(browser) = &state.browser {
        if browser.is_alive().await {
            return Ok(notes);
        }
        notes.push("the browser had died; started a new one (tabs and refs start over)".into());
        shut_down(state).await;
    }
    let browser = match source {
        BrowserSource::Launch(options) => Browser::launch(options.clone()).await,
        BrowserSource::Connect(options) => Browser::connect(options.clone()).await,
        BrowserSource::Shared(_) => {
            return Err(CommandError::Rejected(
                "a shared session has no browser here".into(),
            ));
        }
    }
    .map_err(|e: BrowserError| CommandError::Browser(e))?;
    let session = match Session::start(&browser, config.clone()).await {
        Ok(session) => session,
        Err(e) => {
            browser.close().await;
            return Err(e);
        }
    };
    state.browser = Some(browser);
    state.session = Some(session);
    Ok(notes)
}

async fn shut_down(state: &mut State) {
    if let Some(session) = state.session.take() {
        let _ = session.close().await;
    }
    if let Some(browser) = state.browser.take() {
        browser.close().await;
    }
}

/// The outcome as content: the text a model reads, and a screenshot as an
/// image.
fn success(outcome: &Outcome, notes: &[String]) -> CallToolResult {
    let mut text = String::new();
    for note in notes {
        text.push_str(note);
        text.push('\n');
    }
    text.push_str(&outcome.text());
    let mut content = vec![ContentBlock::text(text)];
    if let Some(image) = &outcome.image {
        let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
        content.push(ContentBlock::image(data, image.mime));
    }
    CallToolResult::success(content)
}

/// A shared session's answer as content, the same shape as our own.
fn forwarded(answer: &Value) -> CallToolResult {
    if answer["ok"] == json!(true) {
        let mut content = vec![ContentBlock::text(
            answer["text"].as_str().unwrap_or_default().to_owned(),
        )];
        if let (Some(data), Some(mime)) = (
            answer["image"]["data"].as_str(),
            answer["image"]["mime"].as_str(),
        ) {
            content.push(ContentBlock::image(data.to_owned(), mime.to_owned()));
        }
        return CallToolResult::success(content);
    }
    let mut content = vec![ContentBlock::text(answer["error"].to_string())];
    if let Some(view) = answer["fresh_view"].as_str() {
        content.push(ContentBlock::text(view.to_owned()));
    }
    CallToolResult::error(content)
}

/// The typed error as JSON in the first block, the fresh view (when there
/// is one) in the second.
fn failure(error: &CommandError) -> CallToolResult {
    let mut content = vec![ContentBlock::text(json!(error.report()).to_string())];
    if let Some(view) = error.fresh_view() {
        content.push(ContentBlock::text(view.to_owned()));
    }
    CallToolResult::error(content)
}

impl ServerHandler for RoveMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("rove", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "A browser for agents. Start with open, read the view it returns, act on elements by their refs (e7); every action returns what changed. Errors carry a code, a hint and whether the action reached the page.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            crate::tools::all().to_vec(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !crate::tools::all().iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        }
        Ok(self.call(&request.name, request.arguments).await.into())
    }
}
