//! A browser rove launched or connected to, and the link to it.
//!
//! The link is a watch channel of [`Link`] states. A launched browser's link
//! goes down for good when its connection closes (the browser died). A remote
//! browser's link is restored by a supervisor task: three attempts after 1, 2
//! and 4 s, each with its own deadline, then `BROWSER_DISCONNECTED`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use rove_base::limits;
use rove_cdp::protocol::browser::{Close, GetVersion, GetVersionResult as Version};
use rove_cdp::protocol::target::DisposeBrowserContext;
use rove_cdp::{Connection, TransportConfig};
use tokio::sync::watch;

use crate::BrowserError;
use crate::discover::resolve_cdp_url;
use crate::events::BrowserEvent;
use crate::launch::{LaunchOptions, launch};
use crate::process::BrowserProcess;
use crate::registry::TargetRegistry;

/// How a lost connection to a remote browser is restored.
#[derive(Debug, Clone)]
pub struct ReconnectPolicy {
    /// The wait before each attempt; its length is the number of attempts.
    pub backoff: Vec<Duration>,
    /// The deadline of each attempt.
    pub attempt_timeout: Duration,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        ReconnectPolicy {
            backoff: limits::RECONNECT_BACKOFF.to_vec(),
            attempt_timeout: limits::RECONNECT_ATTEMPT,
        }
    }
}

impl ReconnectPolicy {
    /// The longest a caller can wait for the link to come back.
    fn budget(&self) -> Duration {
        limits::reconnect_budget(&self.backoff, self.attempt_timeout)
    }
}

/// How to reach a browser someone else started. Its `Debug` hides the
/// address's credentials.
#[derive(Clone)]
pub struct ConnectOptions {
    /// `http(s)://host:port[?token=…]` or `ws(s)://host:port/…` (see
    /// [`rove_cdp::Endpoint`]).
    pub cdp_url: String,
    /// Settings of the CDP connection.
    pub transport: TransportConfig,
    /// How to restore a lost connection.
    pub reconnect: ReconnectPolicy,
    /// The endpoint gives each connection a browser of its own that ends
    /// with it (a farm such as browserless): a lost link is then down for
    /// good at once (a new connection would reach a new, empty browser),
    /// and closing reaches back for nothing.
    pub browser_per_connection: bool,
}

impl std::fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectOptions")
            .field(
                "cdp_url",
                &rove_base::redact::hide_endpoint_credentials(&self.cdp_url),
            )
            .field("transport", &self.transport)
            .field("reconnect", &self.reconnect)
            .field("browser_per_connection", &self.browser_per_connection)
            .finish()
    }
}

impl ConnectOptions {
    /// Defaults for `cdp_url`.
    pub fn new(cdp_url: impl Into<String>) -> Self {
        ConnectOptions {
            cdp_url: cdp_url.into(),
            transport: TransportConfig::from_env(),
            reconnect: ReconnectPolicy::default(),
            browser_per_connection: false,
        }
    }
}

/// The state of the link to the browser.
#[derive(Debug, Clone)]
pub(crate) enum Link {
    /// Connected; `generation` counts reconnections, so sessions opened on an
    /// older connection know to re-attach.
    Up { conn: Connection, generation: u64 },
    /// A remote browser's connection dropped and is being restored.
    Reconnecting,
    /// Gone for good.
    Down { reason: String },
}

/// A running browser. Cheap to clone; the browser is closed by
/// [`Browser::close`], or killed when the last handle to a launched browser
/// is dropped.
#[derive(Debug, Clone)]
pub struct Browser {
    pub(crate) shared: Arc<Shared>,
}

#[derive(Debug)]
pub(crate) struct Shared {
    link: watch::Sender<Link>,
    pub(crate) registry: TargetRegistry,
    process: Mutex<Option<BrowserProcess>>,
    remote: Option<ConnectOptions>,
    contexts: Mutex<Vec<String>>,
    closing: AtomicBool,
    /// The link was restored to another browser than the one it was lost
    /// to (the one at the address was restarted): this handle is down.
    replaced: AtomicBool,
    pub(crate) popups: crate::popups::PopupGuard,
}

impl Browser {
    /// Launches a browser with a fresh temporary profile.
    pub async fn launch(options: LaunchOptions) -> Result<Browser, BrowserError> {
        let (process, conn) = launch(&options).await?;
        let browser = Browser::start(conn, Some(process), None).await;
        if let Err(e) = &browser {
            tracing::debug!(target: "rove_browser", error = %e, "browser setup failed after launch");
        }
        browser
    }

    /// Connects to a browser someone else started. rove never kills it; a lost
    /// connection is restored per [`ReconnectPolicy`].
    pub async fn connect(options: ConnectOptions) -> Result<Browser, BrowserError> {
        let ws = resolve_cdp_url(
            &options.cdp_url,
            &options.transport.access,
            options.transport.connect_timeout,
        )
        .await?;
        let conn = Connection::connect(&ws, options.transport.clone()).await?;
        Browser::start(conn, None, Some(options)).await
    }

    async fn start(
        conn: Connection,
        process: Option<BrowserProcess>,
        remote: Option<ConnectOptions>,
    ) -> Result<Browser, BrowserError> {
        let registry = TargetRegistry::default();
        registry.follow(&conn).await?;
        let signal = conn.close_signal();
        let shared = Arc::new(Shared {
            link: watch::channel(Link::Up {
                conn,
                generation: 0,
            })
            .0,
            registry,
            process: Mutex::new(process),
            remote,
            contexts: Mutex::new(Vec::new()),
            closing: AtomicBool::new(false),
            replaced: AtomicBool::new(false),
            popups: crate::popups::PopupGuard::default(),
        });
        tokio::spawn(supervise(Arc::downgrade(&shared), signal));
        Ok(Browser { shared })
    }

    /// Whether rove started this browser (and so will end it).
    pub fn is_launched(&self) -> bool {
        self.shared.remote.is_none()
    }

    /// Whether the lost link of this remote browser found another browser
    /// at its address (one that knows none of this handle's contexts), so
    /// this handle went down instead of reconnecting.
    pub fn was_replaced(&self) -> bool {
        self.shared.replaced.load(Ordering::SeqCst)
    }

    /// Why the link is down for good, when it is and rove did not close it
    /// (the browser exited, a farm ended it, reconnecting failed); `None`
    /// while it is up or being restored. Cheap: nothing is sent.
    pub fn lost(&self) -> Option<String> {
        if self.shared.closing.load(Ordering::SeqCst) {
            return None;
        }
        match &*self.shared.link.borrow() {
            Link::Down { reason } => Some(reason.clone()),
            _ => None,
        }
    }

    /// Resolves once the link is down for good (as [`Browser::lost`] says),
    /// with why; never while it is up or being restored, nor once rove
    /// began closing it. For racing work that needs the browser against
    /// its loss.
    pub async fn gone(&self) -> String {
        let mut link = self.shared.link.subscribe();
        loop {
            if let Some(reason) = self.lost() {
                return reason;
            }
            if link.changed().await.is_err() {
                return "the browser was dropped".into();
            }
        }
    }

    /// The browser's process id, when rove launched it.
    pub fn pid(&self) -> Option<u32> {
        self.shared.lock_process().as_ref().map(BrowserProcess::pid)
    }

    /// Whether the browser can still be used: for one rove launched, its
    /// process is running (a dead process is seen at once, before the
    /// connection's reader notices the socket closing); for any, the link is
    /// not down.
    pub async fn is_alive(&self) -> bool {
        if let Some(pid) = self.pid()
            && crate::process::dead_or_dying(pid)
        {
            return false;
        }
        self.connection().await.is_ok()
    }

    /// Whether rove launched the browser on a profile of the user's
    /// (`LaunchOptions::profile`).
    pub fn on_user_profile(&self) -> bool {
        self.shared
            .lock_process()
            .as_ref()
            .is_some_and(|p| p.profile().external().is_some())
    }

    /// The temporary profile folder, when rove launched the browser.
    pub fn profile_dir(&self) -> Option<std::path::PathBuf> {
        self.shared
            .lock_process()
            .as_ref()
            .map(|p| p.profile().root().to_owned())
    }

    /// The registry of the browser's targets.
    pub fn targets(&self) -> &TargetRegistry {
        &self.shared.registry
    }

    /// Every [`BrowserEvent`] from now on: navigations, dialogs, downloads,
    /// tabs, crashes, the link lost and restored. A receiver that falls
    /// more than 256 events behind is told how many it missed.
    pub fn events(&self) -> tokio::sync::broadcast::Receiver<crate::BrowserEvent> {
        self.shared.registry.events().subscribe()
    }

    /// The current connection, waiting while a remote link is being restored.
    pub async fn connection(&self) -> Result<Connection, BrowserError> {
        self.link().await.map(|(conn, _)| conn)
    }

    pub(crate) async fn link(&self) -> Result<(Connection, u64), BrowserError> {
        let budget = self
            .shared
            .remote
            .as_ref()
            .map(|r| r.reconnect.budget())
            .unwrap_or(Duration::ZERO)
            + limits::LINK_SETTLE;
        let mut rx = self.shared.link.subscribe();
        // Settled means: not reconnecting, and not an `Up` whose connection
        // already closed (the supervisor is about to replace it).
        let settled = |l: &Link| match l {
            Link::Reconnecting => false,
            Link::Up { conn, .. } => conn.close_reason().is_none(),
            Link::Down { .. } => true,
        };
        let settled = tokio::time::timeout(budget, rx.wait_for(settled))
            .await
            .map_err(|_| BrowserError::lost("the connection is still being restored"))?
            .map_err(|_| BrowserError::lost("the browser was dropped"))?;
        match &*settled {
            Link::Up { conn, generation } => Ok((conn.clone(), *generation)),
            Link::Down { reason } => Err(BrowserError::lost(reason.clone())),
            Link::Reconnecting => Err(BrowserError::lost("the connection is still being restored")),
        }
    }

    /// The browser's product and protocol versions.
    pub async fn version(&self) -> Result<Version, BrowserError> {
        Ok(self
            .connection()
            .await?
            .browser()
            .send(&GetVersion {})
            .await?)
    }

    /// Notes a context rove created, to dispose of with the browser.
    pub(crate) fn remember_context(&self, id: String) {
        self.shared.lock_contexts().push(id);
    }

    pub(crate) fn forget_context(&self, id: &str) {
        self.shared.lock_contexts().retain(|c| c != id);
        self.shared.popups.forget(id);
    }

    /// Guards the popups of the contexts whose policy limits hosts (see the
    /// `popups` module), on the current connection.
    pub(crate) async fn guard_popups(&self) -> Result<(), BrowserError> {
        let (conn, generation) = self.link().await?;
        self.shared.popups.ensure(&conn, generation).await
    }

    /// Closes the browser if rove launched it (politely, then by force, and
    /// removes its profile); for a remote browser, disposes the contexts rove
    /// created and disconnects, leaving the browser running. When the link
    /// to a remote browser is down, a fresh connection is tried (bounded) so
    /// the contexts and their tabs do not stay behind in it; what still
    /// cannot be disposed is listed by [`Browser::undisposed_contexts`].
    pub async fn close(&self) {
        if self.shared.closing.swap(true, Ordering::SeqCst) {
            return;
        }
        let conn = match &*self.shared.link.borrow() {
            Link::Up { conn, .. } if conn.close_reason().is_none() => Some(conn.clone()),
            _ => None,
        };
        let quick = limits::BROWSER_CLOSE;
        if let Some(remote) = &self.shared.remote {
            let contexts = std::mem::take(&mut *self.shared.lock_contexts());
            // A farm's browser ended with its connection: a fresh one
            // would only take another browser from the farm.
            if conn.is_some() || !remote.browser_per_connection {
                let left = dispose_contexts(conn.as_ref(), remote, contexts, quick).await;
                *self.shared.lock_contexts() = left;
            }
        } else if let Some(conn) = &conn {
            let _ = conn.browser().send_within(&Close {}, quick).await;
        }
        if let Some(conn) = &conn {
            conn.close().await;
        }
        let process = self.shared.lock_process().take();
        if let Some(process) = process {
            process.shutdown(limits::BROWSER_EXIT_GRACE).await;
        }
        self.shared.registry.forget_all();
        self.shared.link.send_replace(Link::Down {
            reason: "the browser was closed".into(),
        });
    }

    /// The contexts this handle created or adopted that are not known to be
    /// disposed. After [`Browser::close`] of a remote browser that could not
    /// be reached: the ones left in it, for [`Browser::adopt_contexts`] on
    /// the next handle to that browser.
    pub fn undisposed_contexts(&self) -> Vec<String> {
        if self.is_launched() {
            return Vec::new();
        }
        self.shared.lock_contexts().clone()
    }

    /// Takes over contexts an earlier handle to this same remote browser
    /// left behind (its link was lost): disposes them now, closing their
    /// tabs, and any it cannot reach now at [`Browser::close`]. An id the
    /// browser does not know (it restarted meanwhile) is dropped.
    pub async fn adopt_contexts(&self, ids: Vec<String>) {
        let Some(remote) = &self.shared.remote else {
            return;
        };
        let conn = self.connection().await.ok();
        let left = dispose_contexts(conn.as_ref(), remote, ids, limits::BROWSER_CLOSE).await;
        self.shared.lock_contexts().extend(left);
    }
}

/// Disposes `ids` in a remote browser over `conn`, or over a fresh
/// connection when there is none (each step within `quick`). Returns the
/// ids that could not be disposed because the browser could not be reached.
async fn dispose_contexts(
    conn: Option<&Connection>,
    remote: &ConnectOptions,
    ids: Vec<String>,
    quick: Duration,
) -> Vec<String> {
    if ids.is_empty() {
        return ids;
    }
    let fresh = match conn {
        Some(_) => None,
        None => {
            let connect = async {
                let ws = resolve_cdp_url(&remote.cdp_url, &remote.transport.access, quick).await?;
                Ok::<_, BrowserError>(Connection::connect(&ws, remote.transport.clone()).await?)
            };
            match tokio::time::timeout(quick, connect).await {
                Ok(Ok(conn)) => Some(conn),
                _ => {
                    tracing::debug!(target: "rove_browser", url = %rove_base::redact::hide_endpoint_credentials(&remote.cdp_url), "the browser cannot be reached to dispose contexts");
                    return ids;
                }
            }
        }
    };
    let Some(conn) = conn.or(fresh.as_ref()) else {
        return ids;
    };
    let mut left = Vec::new();
    for id in ids {
        let dispose = DisposeBrowserContext {
            browser_context_id: id.clone(),
        };
        match conn.browser().send_within(&dispose, quick).await {
            // Disposed, or the browser does not know it (gone already).
            Ok(_) | Err(rove_cdp::CdpError::Protocol { .. }) => {}
            Err(e) => {
                tracing::debug!(target: "rove_browser", context = %id, error = %e, "could not dispose a context");
                left.push(id);
            }
        }
    }
    if let Some(fresh) = fresh {
        fresh.close().await;
    }
    left
}

impl Shared {
    fn lock_process(&self) -> std::sync::MutexGuard<'_, Option<BrowserProcess>> {
        self.process.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_contexts(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.contexts.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Watches the connection; on loss, ends a launched browser's link or restores
/// a remote one's.
async fn supervise(shared: Weak<Shared>, mut signal: rove_cdp::CloseSignal) {
    loop {
        let reason = signal.wait().await;
        let Some(strong) = shared.upgrade() else {
            return;
        };
        if strong.closing.load(Ordering::SeqCst) {
            return;
        }
        let Some(remote) = strong.remote.clone() else {
            // The socket closes as the process dies; its exit status comes a
            // moment later and says what happened (a kill, a crash).
            let exit = strong
                .lock_process()
                .as_ref()
                .map(BrowserProcess::exit_watch);
            let status = match exit {
                Some(mut exit) => {
                    let waited = exit.wait_for(Option::is_some);
                    match tokio::time::timeout(limits::EXIT_STATUS, waited).await {
                        Ok(Ok(status)) => status.clone(),
                        _ => None,
                    }
                }
                None => None,
            };
            let reason = match status {
                Some(status) => format!("the browser exited ({status})"),
                None => format!("lost the browser: {reason}"),
            };
            tracing::warn!(target: "rove_browser", %reason, "browser connection lost");
            link_down(&strong, reason);
            return;
        };
        if remote.browser_per_connection {
            let reason = format!(
                "the browser of {} ended with its connection ({reason})",
                rove_base::redact::hide_endpoint_credentials(&remote.cdp_url)
            );
            tracing::warn!(target: "rove_browser", %reason, "a farm's browser is gone");
            strong.lock_contexts().clear();
            link_down(&strong, reason);
            return;
        }
        tracing::warn!(target: "rove_browser", url = %rove_base::redact::hide_endpoint_credentials(&remote.cdp_url), %reason, "lost the connection to the browser; reconnecting");
        let generation = match &*strong.link.borrow() {
            Link::Up { generation, .. } => *generation,
            _ => 0,
        };
        strong.link.send_replace(Link::Reconnecting);
        strong
            .registry
            .events()
            .emit(tracing::Level::WARN, || BrowserEvent::Disconnected {
                reason: reason.clone(),
                reconnecting: true,
            });
        drop(strong);

        match reconnect(&shared, &remote).await {
            Some((strong, conn)) => {
                if let Some(reason) = another_browser(&strong, &conn, &remote).await {
                    tracing::warn!(target: "rove_browser", %reason, "reconnected to another browser");
                    conn.close().await;
                    strong.replaced.store(true, Ordering::SeqCst);
                    // They ended with the browser that held them.
                    strong.lock_contexts().clear();
                    link_down(&strong, reason);
                    return;
                }
                signal = conn.close_signal();
                strong.link.send_replace(Link::Up {
                    conn,
                    generation: generation + 1,
                });
            }
            None => {
                if let Some(strong) = shared.upgrade() {
                    let tries = remote.reconnect.backoff.len();
                    let reason = format!(
                        "lost the connection to {} and {tries} reconnect attempts failed ({reason})",
                        rove_base::redact::hide_endpoint_credentials(&remote.cdp_url)
                    );
                    link_down(&strong, reason);
                }
                return;
            }
        }
    }
}

/// The link is down for good: the targets rove knew are forgotten, the
/// session's listeners told, and every waiter answered with `reason`.
fn link_down(strong: &Shared, reason: String) {
    strong.registry.forget_all();
    strong
        .registry
        .events()
        .emit(tracing::Level::WARN, || BrowserEvent::Disconnected {
            reason: reason.clone(),
            reconnecting: false,
        });
    strong.link.send_replace(Link::Down { reason });
}

/// Why the browser a restored link reached is another one than the link
/// was lost to: it knows none of the contexts rove made in the first (a
/// Chromium restarted on the same address); `None` when it is the same,
/// or when that cannot be told.
async fn another_browser(
    shared: &Shared,
    conn: &Connection,
    remote: &ConnectOptions,
) -> Option<String> {
    let ours = shared.lock_contexts().clone();
    if ours.is_empty() {
        return None;
    }
    let asked = rove_cdp::protocol::target::GetBrowserContexts {};
    let known = conn
        .browser()
        .send_within(&asked, remote.reconnect.attempt_timeout)
        .await
        .ok()?;
    let gone = !ours.iter().any(|id| known.browser_context_ids.contains(id));
    gone.then(|| {
        format!(
            "another browser answers at {} since the link was lost (was it restarted?): the session's tabs are gone",
            rove_base::redact::hide_endpoint_credentials(&remote.cdp_url)
        )
    })
}

async fn reconnect(
    shared: &Weak<Shared>,
    remote: &ConnectOptions,
) -> Option<(Arc<Shared>, Connection)> {
    let policy = &remote.reconnect;
    for (attempt, delay) in policy.backoff.iter().enumerate() {
        tokio::time::sleep(*delay).await;
        let strong = shared.upgrade()?;
        if strong.closing.load(Ordering::SeqCst) {
            return None;
        }
        let attempt_once = async {
            let ws = resolve_cdp_url(
                &remote.cdp_url,
                &remote.transport.access,
                policy.attempt_timeout,
            )
            .await?;
            let conn = Connection::connect(&ws, remote.transport.clone()).await?;
            strong.registry.follow(&conn).await?;
            Ok::<_, BrowserError>(conn)
        };
        match tokio::time::timeout(policy.attempt_timeout, attempt_once).await {
            Ok(Ok(conn)) => {
                tracing::info!(target: "rove_browser", attempt = attempt + 1, "reconnected to the browser");
                strong
                    .registry
                    .events()
                    .emit(tracing::Level::INFO, || BrowserEvent::Reconnected {
                        attempt: u32::try_from(attempt + 1).unwrap_or(u32::MAX),
                    });
                return Some((strong, conn));
            }
            Ok(Err(e)) => {
                tracing::warn!(target: "rove_browser", attempt = attempt + 1, error = %e, "reconnect failed")
            }
            Err(_) => {
                tracing::warn!(target: "rove_browser", attempt = attempt + 1, "reconnect timed out")
            }
        }
    }
    None
}
