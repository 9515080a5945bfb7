//! A session's settings ([`SessionConfig`]), who a command runs for
//! ([`Caller`]), which view follows an action ([`ViewAfter`]), and where tab
//! ids and refs are counted ([`Numbering`]).

use std::path::PathBuf;
use std::time::Duration;

use crate::session::secrets::Secrets;

/// The counters of a session's tab ids and refs (see
/// [`SessionConfig::numbering`]).
#[derive(Debug, Clone, Default)]
pub struct Numbering {
    /// Tab ids (`t1`, `t2` …).
    pub tabs: rove_browser::Counter,
    /// Element refs (`e1`, `e2` …), shared by every tab of the session.
    pub refs: rove_browser::Counter,
}

/// Who a command runs for. The person at the shell is trusted with their
/// own files: a screenshot goes where they say, and uploads may come from
/// the folder they work in. A model (an MCP host, rove's agent, anything a
/// page could talk into asking) writes only into the session's output
/// folder and uploads only from the session's upload roots.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Caller {
    /// A model or any program acting for one (the default).
    #[default]
    Model,
    /// The person at the shell (the CLI).
    Person {
        /// The folder the command was run in: an upload root for this call,
        /// unless it is `/` or the home folder.
        #[serde(default)]
        cwd: Option<PathBuf>,
    },
}

/// Which view follows an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewAfter {
    /// What changed (the default: the cheapest truthful answer).
    #[default]
    Diff,
    /// The whole page.
    Full,
    /// Only actionable elements.
    Interactive,
    /// No view; the caller asks when it wants one.
    None,
}

/// The policy a session's commands run under.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The view returned after each action.
    pub view_after: ViewAfter,
    /// Uploads may come from under these folders, besides the session's
    /// own upload folder (`<runtime folder>/uploads`) and, for a person at
    /// the shell, the folder they work in ([`Caller`]). Never `/` or the home
    /// folder implicitly.
    pub upload_roots: Vec<PathBuf>,
    /// Where downloads land; `None` for a fresh private folder per session
    /// under rove's runtime folder.
    pub download_dir: Option<PathBuf>,
    /// Where files a model asks for (a screenshot's `path`) are written;
    /// `None` for a fresh private folder per session under rove's runtime
    /// folder, made on first use.
    pub output_dir: Option<PathBuf>,
    /// Secrets a model may type without seeing them (see [`Secrets`]).
    pub secrets: Secrets,
    /// The size of every tab's viewport (default 1280×720); `None` leaves
    /// the browser's own.
    pub viewport: Option<rove_browser::Viewport>,
    /// Where tab ids and refs come from. Clones of a config share it, so a
    /// session started again from the same config (after its browser died)
    /// goes on counting: an old `t1` or `e7` never names something new.
    pub numbering: Numbering,
    /// How long `open`, `back`, `forward` and `reload` wait for the load.
    pub navigation_timeout: Duration,
    /// How long an action waits for its element to become actionable.
    pub action_timeout: Duration,
    /// How the page's settling after an action is waited for.
    pub settle: rove_input::SettleLimits,
    /// Where documents may load from: hosts (any, or an allow-list), a
    /// block-list, and schemes beyond http(s) (`file:` only when named).
    /// Navigations, redirects, iframes and popups outside are refused.
    pub policy: rove_browser::DomainPolicy,
    /// How long `eval` lets a script run (or wait for its promise) before
    /// rove stops it.
    pub eval_timeout: Duration,
    /// Every command's overall deadline (longer for a command whose own
    /// wait is longer: see the timeout ladder in rove_base::limits).
    pub command_timeout: Duration,
    /// When a tab counts as hung, and how often rove looks.
    pub health: crate::HealthLimits,
    /// The capability groups offered to a model: the tools an MCP server
    /// lists and accepts, and the agent's tools. `core` by default; the
    /// session itself runs any command (the CLI has them all).
    pub caps: crate::Caps,
    /// A storage-state file (Playwright's JSON: cookies and origins' local
    /// storage) loaded when the session starts, so a login is reused.
    pub storage_state: Option<PathBuf>,
    /// The traces its commands are recorded in (none by default); shared
    /// by clones, so a trace goes on when the session is started again.
    pub traces: crate::Traces,
    /// Where `solve` finds solver plugins; `None` for `ROVE_PLUGINS`, else
    /// `$XDG_CONFIG_HOME/rove/plugins` (see docs/captcha.md).
    pub plugins: Option<PathBuf>,
    /// How long a solver plugin may take before it is killed.
    pub solver_timeout: Duration,
    /// A request pending longer is told once in a command's answer
    /// (`note: GET /api/search pending 15 s`).
    pub request_pending: Duration,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            view_after: ViewAfter::Diff,
            upload_roots: Vec::new(),
            download_dir: None,
            output_dir: None,
            secrets: Secrets::default(),
            numbering: Numbering::default(),
            viewport: Some(rove_browser::Viewport::default()),
            navigation_timeout: rove_base::limits::NAVIGATION,
            action_timeout: rove_base::limits::ACTION,
            settle: rove_input::SettleLimits::default(),
            policy: rove_browser::DomainPolicy::default(),
            eval_timeout: rove_base::limits::EVAL,
            command_timeout: rove_base::limits::COMMAND,
            health: crate::HealthLimits::default(),
            caps: crate::Caps::default(),
            storage_state: None,
            traces: crate::Traces::default(),
            plugins: None,
            solver_timeout: rove_base::limits::SOLVER,
            request_pending: rove_base::limits::REQUEST_PENDING,
        }
    }
}
