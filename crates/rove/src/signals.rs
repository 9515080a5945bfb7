//! SIGINT, SIGTERM and SIGHUP as one stream, listened for from the first
//! moment of the command.
//!
//! The listeners are registered before any command runs, so a signal that
//! arrives while a command is still starting (after `rove demo-site` printed
//! its URL, say) is held for the command's select instead of killing the
//! process by the default disposition.

use tokio::signal::unix::{Signal, SignalKind, signal};

/// The three listeners; a kind that could not be registered stays silent.
pub struct Signals {
    interrupt: Option<Signal>,
    terminate: Option<Signal>,
    hangup: Option<Signal>,
}

impl Signals {
    /// Registers the listeners now. Must run inside the tokio runtime.
    pub fn listen() -> Self {
        let listen = |kind: SignalKind| match signal(kind) {
            Ok(stream) => Some(stream),
            Err(e) => {
                tracing::warn!(error = %e, "could not listen for a signal; rove relies on the browser's parent-death signal instead");
                None
            }
        };
        Signals {
            interrupt: listen(SignalKind::interrupt()),
            terminate: listen(SignalKind::terminate()),
            hangup: listen(SignalKind::hangup()),
        }
    }

    /// Resolves with the signal number of the next signal (held ones first).
    pub async fn next(&mut self) -> u8 {
        async fn one(stream: &mut Option<Signal>) {
            match stream {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            _ = one(&mut self.interrupt) => 2,
            _ = one(&mut self.terminate) => 15,
            _ = one(&mut self.hangup) => 1,
        }
    }
}
