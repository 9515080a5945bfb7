//! Where an MCP server's browser comes from: one it launches, one it
//! connects to, or a shared session that others use, reached through a
//! [`Forwarder`].

use std::sync::Arc;

use rove_browser::{ConnectOptions, LaunchOptions};
use rove_commands::Command;

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

/// Sends a command to a shared session and returns its answer.
#[derive(Clone)]
pub struct Forwarder(pub Arc<dyn Fn(Command) -> Forwarded + Send + Sync>);

/// The answer a [`Forwarder`] is working on.
pub type Forwarded = std::pin::Pin<Box<dyn std::future::Future<Output = SharedAnswer> + Send>>;

/// What a shared session answered.
#[derive(Debug, Clone, PartialEq)]
pub enum SharedAnswer {
    /// The command ran: its text, and an image (MIME type, base64 bytes).
    Done {
        /// The outcome as text.
        text: String,
        /// An image to show inline.
        image: Option<(String, String)>,
    },
    /// It failed: the report, and the page's view when the error has one.
    Failed {
        /// The vocabulary's report.
        error: rove_errors::Report,
        /// A view of the page as it is now.
        fresh_view: Option<String>,
    },
}

impl std::fmt::Debug for Forwarder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Forwarder")
    }
}
