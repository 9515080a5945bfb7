//! The MCP server: each connection gets its own session (browser context,
//! tabs, refs); the session's thread and browser start on the first tool
//! call, so `initialize` and `tools/list` never wait for Chromium and an
//! idle client costs no thread. A cancelled call stops its command.

use base64::Engine;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use rove_base::limits::{MCP_PROGRESS, MCP_SHUTDOWN};
use rove_commands::{Command, CommandError, Outcome, SessionConfig};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::session::OwnSession;
use crate::source::{BrowserSource, Forwarder, SharedAnswer};

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The MCP handshake or transport failed.
    #[error("MCP: {0}")]
    Protocol(String),
}

/// rove as an MCP server: one session per connection (per MCP session over
/// HTTP), or the shared named session.
///
/// Cheap to create: the session's thread and browser start on the first
/// tool call (see `session.rs`). Clones share the session; it ends when the
/// last clone is dropped.
#[derive(Debug, Clone)]
pub struct RoveMcp {
    backend: Arc<Backend>,
    /// The capability groups this server lists and accepts.
    caps: rove_commands::Caps,
    /// The logging level the client asked for (`logging/setLevel`); none
    /// until it asks, and no events are sent until then.
    level: Arc<crate::events::ClientLevel>,
}

#[derive(Debug)]
enum Backend {
    Own(Box<OwnSession>),
    Shared(Forwarder),
}

impl RoveMcp {
    /// A server that gets its browser from `source` (on the first tool call).
    pub fn new(source: BrowserSource, config: SessionConfig) -> RoveMcp {
        // Each client counts its own tabs and refs (from t1, e1), and keeps
        // counting across a restart of its browser.
        let config = SessionConfig {
            numbering: rove_commands::Numbering::default(),
            ..config
        };
        let caps = config.caps;
        let backend = match source {
            BrowserSource::Shared(forward) => Backend::Shared(forward),
            source => Backend::Own(Box::new(OwnSession::new(source, config))),
        };
        RoveMcp {
            backend: Arc::new(backend),
            caps,
            level: Arc::default(),
        }
    }

    /// Ends the session the server launched, if any, once awaited
    /// (made before the server is handed to a transport).
    pub(crate) fn end_own_session(&self) -> impl Future<Output = ()> + use<> {
        let backend = self.backend.clone();
        async move {
            if let Backend::Own(session) = &*backend {
                session.shut_down(MCP_SHUTDOWN).await;
            }
        }
    }

    /// Runs one tool call as a command of the vocabulary.
    async fn call(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> CallToolResult {
        let arguments = arguments.map(Value::Object);
        let command = match Command::from_tool_call_within(name, arguments.as_ref(), self.caps) {
            Ok(command) => command,
            // Not a fault of the arguments: the report names the flag.
            Err(e @ CommandError::NotOffered { .. }) => return failure(&e),
            Err(e) => {
                let error = rove_errors::Report::new(
                    rove_errors::ErrorCode::CommandRejected,
                    e.to_string(),
                    "fix the arguments; tools/list has each tool's schema",
                );
                return CallToolResult::error(vec![ContentBlock::text(json!(error).to_string())]);
            }
        };
        if let (Command::Close, Backend::Own(session)) = (&command, &*self.backend) {
            // The whole browser ends; the next call starts a new one.
            session.shut_down(MCP_SHUTDOWN).await;
            return CallToolResult::success(vec![ContentBlock::text(
                "closed the browser; the next call starts a new one",
            )]);
        }
        match &*self.backend {
            Backend::Shared(forward) => {
                let answer = (forward.0)(command).await;
                forwarded(answer)
            }
            Backend::Own(session) => match session.run(command).await {
                (Ok(outcome), notes) => success(&outcome, &notes),
                (Err(e), _) => failure(&e),
            },
        }
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
fn forwarded(answer: SharedAnswer) -> CallToolResult {
    match answer {
        SharedAnswer::Done { text, image } => {
            let mut content = vec![ContentBlock::text(text)];
            if let Some((mime, data)) = image {
                content.push(ContentBlock::image(data, mime));
            }
            CallToolResult::success(content)
        }
        SharedAnswer::Failed { error, fresh_view } => {
            let mut content = vec![ContentBlock::text(json!(error).to_string())];
            if let Some(view) = fresh_view {
                content.push(ContentBlock::text(view));
            }
            CallToolResult::error(content)
        }
    }
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
    // The logging capability is marked deprecated by rmcp (a later protocol
    // revision); clients in use still rely on it for server messages.
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .build();
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
        Ok(ListToolsResult::with_all_items(crate::tools::within(
            self.caps,
        )))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A tool of a group not enabled is answered by `call`, with the
        // flag that enables it; only a name rove does not know is an error
        // of the protocol.
        if !crate::tools::all().iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        }
        // `notifications/cancelled` cancels the context: dropping the call
        // stops the command on the session thread. rmcp sends no answer to
        // a cancelled request, so this error is never seen.
        let progress = progress_reports(&request.name, &context);
        tokio::select! {
            result = self.call(&request.name, request.arguments) => Ok(result.into()),
            () = context.ct.cancelled() => Err(ErrorData::new(
                ErrorCode(-32800),
                "the request was cancelled",
                None,
            )),
            // Never ends on its own: it only reports while the call runs.
            () = progress => unreachable_progress(),
        }
    }

    /// `logging/setLevel`: from now on the session's browser events at or
    /// above `level` come as `notifications/message` (see `events.rs`). A
    /// shared session's browser lives in its daemon: its events are not
    /// relayed.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.level.set(request.level)
            && let Backend::Own(session) = &*self.backend
        {
            crate::events::forward(
                session.events(),
                context.peer.clone(),
                self.level.clone(),
                session.secrets(),
            );
        }
        Ok(())
    }

    // rove offers no resources or prompts; hosts that ask anyway get empty
    // lists (a routine question, not an error worth a warning in the log).
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::default())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::default())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::default())
    }
}

/// `notifications/progress` every second while a tool call runs, when the
/// client gave a progress token (a call shorter than a second sends none).
/// The progress counts the reports (about the seconds the call has run);
/// the total is not known.
async fn progress_reports(tool: &str, context: &RequestContext<RoleServer>) {
    let Some(token) = context.meta.get_progress_token() else {
        return std::future::pending().await;
    };
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + MCP_PROGRESS, MCP_PROGRESS);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut reports = 0u32;
    loop {
        ticks.tick().await;
        // The progress must grow with every report; a count does, whatever
        // the timer's jitter.
        reports += 1;
        let seconds = started.elapsed().as_secs();
        let report = rmcp::model::ProgressNotificationParam::new(token.clone(), f64::from(reports))
            .with_message(format!("{tool}: running for {seconds} s"));
        // A client that went away is the cancellation's business.
        let _ = context.peer.notify_progress(report).await;
    }
}

/// The progress reporter returned, which it never does.
fn unreachable_progress() -> Result<CallToolResponse, ErrorData> {
    Err(ErrorData::internal_error("progress reporting ended", None))
}
