//! One MCP client's own rove session, on a thread of its own with a
//! single-threaded runtime (rove's command futures are not `Send`).
//!
//! The thread starts on the first tool call, not when the client connects,
//! so a client that only initializes (or a flood of them over HTTP) costs no
//! thread and no browser. Tool calls reach the thread through a channel and
//! run one at a time, in order. A call whose caller went away (the client
//! sent `notifications/cancelled`, or its connection closed) is stopped at
//! once: the thread drops the command's future, so the next call does not
//! wait for it. When the last handle goes, the thread ends the session and
//! any browser it launched.

use std::sync::Mutex;

use rove_browser::{Browser, BrowserError};
use rove_commands::{Command, CommandError, Host, Outcome, SessionConfig};
use tokio::sync::{mpsc, oneshot};

use crate::events::Relay;
use crate::source::BrowserSource;

/// A command's result and the notes of what the server did first (a
/// restarted browser).
pub(crate) type Ran = (Result<Outcome, CommandError>, Vec<String>);

/// A tool call for the session thread, or the end.
enum Job {
    Run(Command, oneshot::Sender<Ran>),
    Shutdown(oneshot::Sender<()>),
}

/// The handle to a session thread that starts on first use.
#[derive(Debug)]
pub(crate) struct OwnSession {
    source: BrowserSource,
    config: SessionConfig,
    jobs: Mutex<Option<mpsc::UnboundedSender<Job>>>,
    /// The events of whichever browser the session has.
    relay: Relay,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Run(command, _) => write!(f, "Run({})", command.name()),
            Job::Shutdown(_) => f.write_str("Shutdown"),
        }
    }
}

impl OwnSession {
    pub(crate) fn new(source: BrowserSource, config: SessionConfig) -> OwnSession {
        OwnSession {
            source,
            config,
            jobs: Mutex::new(None),
            relay: Relay::default(),
        }
    }

    /// The session's browser events from now on.
    pub(crate) fn events(&self) -> tokio::sync::broadcast::Receiver<rove_browser::BrowserEvent> {
        self.relay.subscribe()
    }

    /// The session's secrets (what a client must not be shown).
    pub(crate) fn secrets(&self) -> rove_commands::Secrets {
        self.config.secrets.clone()
    }

    /// Runs `command` on the session thread, starting it if needed. Dropping
    /// the returned future stops the command.
    pub(crate) async fn run(&self, command: Command) -> Ran {
        let jobs = match self.started() {
            Ok(jobs) => jobs,
            Err(e) => return (Err(e), Vec::new()),
        };
        let (reply, answer) = oneshot::channel();
        if jobs.send(Job::Run(command, reply)).is_err() {
            return (Err(ended()), Vec::new());
        }
        answer.await.unwrap_or_else(|_| (Err(ended()), Vec::new()))
    }

    /// Ends the session and its browser, waiting at most `within`; nothing
    /// to do when no tool was ever called.
    pub(crate) async fn shut_down(&self, within: std::time::Duration) {
        let jobs = match self.jobs.lock() {
            Ok(mut jobs) => jobs.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        let Some(jobs) = jobs else { return };
        let (done, finished) = oneshot::channel();
        if jobs.send(Job::Shutdown(done)).is_ok() {
            let _ = tokio::time::timeout(within, finished).await;
        }
    }

    /// The channel to the session thread; starts the thread the first time
    /// (and again if it ended).
    fn started(&self) -> Result<mpsc::UnboundedSender<Job>, CommandError> {
        let mut jobs = match self.jobs.lock() {
            Ok(jobs) => jobs,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(sender) = jobs.as_ref().filter(|s| !s.is_closed()) {
            return Ok(sender.clone());
        }
        let (sender, queue) = mpsc::unbounded_channel();
        let (source, config) = (self.source.clone(), self.config.clone());
        let relay = self.relay.clone();
        std::thread::Builder::new()
            .name("rove-mcp-session".into())
            .spawn(move || session_thread(source, config, queue, relay))
            .map_err(|e| {
                CommandError::Rejected(format!(
                    "no thread for the session ({e}); the machine is out of threads or memory"
                ))
            })?;
        *jobs = Some(sender.clone());
        Ok(sender)
    }
}

fn ended() -> CommandError {
    CommandError::Rejected("the session has ended".into())
}

/// The session's thread: runs jobs in order until told to stop or until
/// every handle to it is gone, then ends the session and browser.
fn session_thread(
    source: BrowserSource,
    config: SessionConfig,
    mut queue: mpsc::UnboundedReceiver<Job>,
    relay: Relay,
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
        let mut host = Host::new(config);
        while let Some(job) = queue.recv().await {
            match job {
                Job::Run(command, mut reply) => {
                    // The caller gone means the call was cancelled: stop the
                    // command by dropping its future.
                    let ran = tokio::select! {
                        ran = run_one(&source, &mut host, &command, &relay) => Some(ran),
                        () = reply.closed() => None,
                    };
                    match ran {
                        Some(ran) => {
                            let _ = reply.send(ran);
                        }
                        None => tracing::debug!(command = command.name(), "cancelled; stopped"),
                    }
                }
                Job::Shutdown(done) => {
                    shut_down(&mut host, &source).await;
                    let _ = done.send(());
                    return;
                }
            }
        }
        shut_down(&mut host, &source).await;
    });
}

async fn run_one(source: &BrowserSource, host: &mut Host, command: &Command, relay: &Relay) -> Ran {
    let acquire_followed = || async {
        let browser = acquire(source).await?;
        relay.follow(&browser);
        Ok(browser)
    };
    let set_context = |session: &rove_commands::Session| relay.set_context(session.context().id());
    host.execute(
        command,
        rove_commands::Caller::Model,
        acquire_followed,
        set_context,
    )
    .await
}

/// A browser from where the server was told to get one.
async fn acquire(source: &BrowserSource) -> Result<Browser, CommandError> {
    let browser = match source {
        BrowserSource::Launch(options) => Browser::launch(options.clone()).await,
        BrowserSource::Connect(options) => Browser::connect(options.clone()).await,
        BrowserSource::Shared(_) => {
            return Err(CommandError::Rejected(
                "a shared session has no browser here".into(),
            ));
        }
    };
    browser.map_err(|e: BrowserError| CommandError::Browser(e))
}

/// Ends the session and its browser; contexts a lost link left in a
/// remote browser are disposed when it can be reached again.
async fn shut_down(host: &mut Host, source: &BrowserSource) {
    let remote = matches!(source, BrowserSource::Connect(_))
        .then_some((|| acquire(source), rove_base::limits::SESSION_CLOSE));
    host.end(remote).await;
}
