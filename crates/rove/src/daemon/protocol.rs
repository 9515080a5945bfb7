//! What the CLI (and an MCP server sharing a session) and a session's daemon
//! say to each other over the socket: one JSON line each way, after the
//! daemon's greeting. Both ends read and write these types, so a field
//! cannot be renamed on one side only.

use rove_commands::{Caller, Command};
use rove_errors::Report;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The first line a daemon writes on every connection it takes: the client
/// knows a live daemon serves its request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Greeting {
    /// Always true; a line without it is not a greeting.
    pub ready: bool,
    /// The daemon's process id (`close` waits for it to end).
    pub pid: u32,
}

/// One request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Request {
    /// Something about the daemon itself.
    Control {
        /// Which.
        control: Control,
    },
    /// Start or stop the session's trace.
    Tracing {
        /// Which.
        tracing: TraceControl,
    },
    /// A command to run on the session.
    Run(RunRequest),
}

/// `rove trace start|stop`: the session's trace, which records every
/// command the daemon runs until it is stopped or the session ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceControl {
    /// Start one.
    Start(TraceAsk),
    /// Stop the running one.
    Stop,
}

/// A trace file asked for, as the daemon must see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceAsk {
    /// The file, absolute (the daemon runs in another folder).
    pub path: String,
    /// Screenshots before and after each acting command.
    #[serde(default)]
    pub screenshots: bool,
    /// The page's screencast.
    #[serde(default)]
    pub screencast: bool,
}

/// A request about the daemon itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// Its process ids.
    Ping,
    /// End the session: the browser, the lock, the daemon.
    Close,
}

/// A command of the vocabulary and whom it runs for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The command.
    pub command: Command,
    /// The person at a shell, or a model (the default, which may do less).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<Caller>,
    /// The domain policy the request's flags ask for; the daemon refuses to
    /// serve it under another one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyAsked>,
    /// A trace of this one command (`rove --trace FILE <command>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceAsk>,
    /// The browser the request's flags ask for; the daemon refuses to serve
    /// it with another one (its browser is chosen when it starts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<Box<BrowserAsked>>,
}

/// The browser a command's flags name, each only when given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrowserAsked {
    /// `--cdp-url` (or `ROVE_CDP_URL`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cdp_url: Option<String>,
    /// `--cdp-header` (or `ROVE_CDP_HEADER`), as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cdp_headers: Vec<String>,
    /// `--browser`, made absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<std::path::PathBuf>,
    /// `--headed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub headed: bool,
}

/// A domain policy as the flags gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyAsked {
    /// `--allowed-domains`, as the policy reads them.
    pub allowed: Vec<String>,
    /// `--blocked-domains`, as the policy reads them.
    pub blocked: Vec<String>,
}

impl Request {
    /// A request line; the error says what is wrong with it.
    pub fn from_line(line: &str) -> Result<Request, String> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("the request is not JSON: {e}"))?;
        if let Some(control) = value.get("control") {
            return serde_json::from_value(control.clone())
                .map(|control| Request::Control { control })
                .map_err(|e| format!("unknown control {control}: {e}"));
        }
        if let Some(tracing) = value.get("tracing") {
            return serde_json::from_value(tracing.clone())
                .map(|tracing| Request::Tracing { tracing })
                .map_err(|e| format!("unknown tracing request {tracing}: {e}"));
        }
        serde_json::from_value(value)
            .map(Request::Run)
            .map_err(|e| format!("not a command: {e}"))
    }

    /// The command it runs, if it runs one.
    pub fn command(&self) -> Option<&Command> {
        match self {
            Request::Run(run) => Some(&run.command),
            Request::Control { .. } | Request::Tracing { .. } => None,
        }
    }
}

/// One answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Answer {
    /// The command ran.
    Done {
        /// The outcome as `--json` prints it.
        outcome: Value,
        /// The outcome as text, notes first.
        text: String,
        /// Milliseconds the daemon spent on the command.
        ms: f64,
        /// An image to return inline (to an MCP host sharing the session).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        image: Option<InlineImage>,
    },
    /// The command failed, or the request was refused.
    Failed {
        /// The vocabulary's report.
        error: Report,
        /// A view of the page as it is now, when the error comes with one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_view: Option<String>,
    },
    /// The answer to [`Control::Ping`].
    Pong {
        /// The daemon's process id.
        pid: u32,
        /// Its browser's, when it launched one that runs.
        browser_pid: Option<u32>,
    },
    /// The answer to [`Control::Close`]: the browser ended, the lock is
    /// free, the daemon exits.
    Closed {
        /// The `--cdp-url` of a browser rove did not start, its credentials
        /// hidden: rove only disposed the session's context in it; its
        /// owner (a farm) ends the browser.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        remote: Option<String>,
    },
}

/// Image bytes in base64, with their type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InlineImage {
    /// `image/png` or `image/jpeg`.
    pub mime: String,
    /// The bytes, base64.
    pub data: String,
}

impl Answer {
    /// A refused request.
    pub fn rejected(message: &str, hint: &str) -> Answer {
        Answer::Failed {
            error: Report::new(rove_errors::ErrorCode::CommandRejected, message, hint),
            fresh_view: None,
        }
    }

    /// The answer as one line.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Only a non-finite `ms` could fail; say so rather than hang up.
            let failed = Answer::Failed {
                error: Report::new(
                    rove_errors::ErrorCode::Internal,
                    format!("the answer did not serialize: {e}"),
                    "report this as a bug",
                ),
                fresh_view: None,
            };
            serde_json::to_string(&failed).unwrap_or_default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_answers_travel_both_ways() {
        let run = Request::Run(RunRequest {
            command: Command::Back,
            caller: Some(Caller::Model),
            policy: Some(PolicyAsked {
                allowed: vec!["example.com".into()],
                blocked: vec![],
            }),
            trace: Some(TraceAsk {
                path: "/tmp/t.trace".into(),
                screenshots: true,
                screencast: true,
            }),
            browser: Some(Box::new(BrowserAsked {
                cdp_url: Some("ws://farm.test/".into()),
                headed: true,
                ..BrowserAsked::default()
            })),
        });
        let line = serde_json::to_string(&run).expect("serializes");
        assert_eq!(Request::from_line(&line), Ok(run));
        let ping = Request::Control {
            control: Control::Ping,
        };
        assert_eq!(
            Request::from_line(&serde_json::to_string(&ping).expect("serializes")),
            Ok(ping)
        );
        for tracing in [
            TraceControl::Stop,
            TraceControl::Start(TraceAsk {
                path: "/tmp/s.trace".into(),
                screenshots: false,
                screencast: false,
            }),
        ] {
            let request = Request::Tracing { tracing };
            let line = serde_json::to_string(&request).expect("serializes");
            assert_eq!(Request::from_line(&line), Ok(request));
        }
        assert!(
            Request::from_line(r#"{"control":"explode"}"#)
                .expect_err("refused")
                .contains("unknown control")
        );
        assert!(
            Request::from_line(r#"{"command":{"command":"back"},"extra":1}"#)
                .expect_err("refused")
                .contains("not a command")
        );
        for answer in [
            Answer::Closed { remote: None },
            Answer::Closed {
                remote: Some("ws://farm.test/?token=<redacted>".into()),
            },
            Answer::Pong {
                pid: 7,
                browser_pid: None,
            },
            Answer::rejected("no", "fix it"),
        ] {
            let back: Answer = serde_json::from_str(&answer.to_line()).expect("parses");
            assert_eq!(back, answer);
        }
    }
}
