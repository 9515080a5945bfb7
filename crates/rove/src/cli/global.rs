//! The global options (`--session`, `--headed`, `--cdp-url` …): one typed
//! value, read from the command line once, then handed on whole: as JSON
//! to a session's daemon when it starts (`daemon::client`), and as the one
//! list of flags a host's `rove mcp` gets (`print_config`).

use std::path::{Path, PathBuf};

use clap::Args;
use serde::{Deserialize, Serialize};

/// Flags accepted before or after the command name. `rove --help` lists
/// them once; each command's help leaves them out (see
/// [`crate::cli::command`]).
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[command(next_help_heading = "Global options (before or after the command)")]
pub struct GlobalArgs {
    /// Print one JSON object instead of human-readable text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Show the browser window instead of running headless.
    #[arg(long, global = true)]
    pub headed: bool,
    /// Use a browser someone else started: http(s)://host:port[?token=…]
    /// (asked for /json/version) or ws(s)://host:port/… (a browser farm's
    /// address). rove never closes a browser it did not start. `rove test`
    /// takes it repeated, for a pool of browsers (with --isolate browser, a
    /// farm's slots: a URL given twice takes two connections at once);
    /// other commands take one.
    // The variable is how a farm's token stays out of argv, so its value
    // never shows in the help.
    #[arg(
        long,
        global = true,
        env = "ROVE_CDP_URL",
        hide_env_values = true,
        value_name = "URL",
        action = clap::ArgAction::Append
    )]
    pub cdp_url: Option<String>,
    /// Every `--cdp-url` given, in order (`cdp_url` is the first): filled
    /// in by [`crate::cli::parse`], since clap hands a derived `Option`
    /// only one.
    #[arg(skip)]
    pub cdp_urls: Vec<String>,
    /// A header sent to the --cdp-url endpoint ('Name: value', repeatable),
    /// with discovery and the WebSocket handshake: `Authorization: Bearer …`
    /// for a farm that takes its key so. Values never show in output.
    /// ROVE_CDP_HEADER gives one, out of sight of the process list.
    #[arg(
        long = "cdp-header",
        global = true,
        env = "ROVE_CDP_HEADER",
        hide_env_values = true,
        value_name = "'NAME: VALUE'"
    )]
    pub cdp_headers: Vec<String>,
    /// A PEM file of CA certificates trusted for a wss:// or https://
    /// --cdp-url, besides the system's roots.
    #[arg(long, global = true, env = "ROVE_CDP_CA", value_name = "FILE")]
    pub cdp_ca: Option<PathBuf>,
    /// The browser executable (default: $ROVE_BROWSER, then chromium and
    /// Chrome on PATH and in the usual places).
    #[arg(long, global = true, value_name = "PATH")]
    pub browser: Option<PathBuf>,
    /// More log output on stderr (-v debug, -vv trace). RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// The session: its own daemon, browser context, tabs and refs.
    #[arg(
        long,
        global = true,
        env = "ROVE_SESSION",
        default_value = "default",
        value_name = "NAME"
    )]
    pub session: String,
    /// Whether the session was named (by `--session` or `ROVE_SESSION`),
    /// not left to the default: `rove mcp` shares a named session with the
    /// shell, and gives each client its own otherwise. Filled in by
    /// [`crate::cli::parse`].
    #[arg(skip)]
    pub session_named: bool,
    /// Seconds a session's daemon waits for a command before it exits
    /// (applies when the daemon starts).
    #[arg(
        long,
        global = true,
        env = "ROVE_IDLE",
        default_value_t = DEFAULT_IDLE,
        value_name = "SECONDS"
    )]
    pub idle: u64,
    /// Only load pages from these hosts (comma-separated: `example.com` and
    /// its subdomains, `*.example.com`, `localhost:8080`, `*` for any) and
    /// these schemes besides http(s) (`file:`). Without it: any http(s)
    /// host; `file:`, `chrome:` and other schemes are refused. Navigations,
    /// redirects, iframes and popups outside are refused. Fixed when a
    /// session starts.
    #[arg(
        long,
        global = true,
        env = "ROVE_ALLOWED_DOMAINS",
        value_delimiter = ',',
        value_name = "DOMAINS"
    )]
    pub allowed_domains: Option<Vec<String>>,
    /// Never load pages from these hosts (same patterns), even when allowed.
    #[arg(
        long,
        global = true,
        env = "ROVE_BLOCKED_DOMAINS",
        value_delimiter = ',',
        value_name = "DOMAINS"
    )]
    pub blocked_domains: Vec<String>,
    /// The size of the session's tabs, WIDTHxHEIGHT in CSS pixels (fixed
    /// when a session starts).
    #[arg(
        long,
        global = true,
        env = "ROVE_VIEWPORT",
        default_value = "1280x720",
        value_name = "WxH"
    )]
    #[serde(with = "viewport_text")]
    pub viewport: rove_browser::Viewport,
    /// A folder uploads may also come from (repeatable). Always allowed:
    /// rove's own upload folder and, for a command typed in a shell, the
    /// folder it runs in (unless that is / or your home folder).
    #[arg(long = "upload-root", global = true, value_name = "DIR")]
    pub upload_roots: Vec<PathBuf>,
    /// Start the session with these cookies and local storage
    /// (Playwright's storage-state JSON, as `rove state save` writes it).
    /// Applies when a session starts.
    #[arg(long, global = true, env = "ROVE_STORAGE_STATE", value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// Launch the browser on this profile folder (made if missing) and keep
    /// it: cookies and storage stay between runs. Refused while another
    /// browser uses it. Applies when a browser starts.
    #[arg(long, global = true, env = "ROVE_PROFILE", value_name = "DIR")]
    pub profile: Option<PathBuf>,
    /// The folder `solve` takes solver plugins from (default
    /// `$XDG_CONFIG_HOME/rove/plugins`; docs/captcha.md).
    #[arg(long, global = true, env = "ROVE_PLUGINS", value_name = "DIR")]
    pub plugins: Option<PathBuf>,
}

/// Seconds a session's daemon waits for a command, unless told otherwise.
pub const DEFAULT_IDLE: u64 = rove_base::limits::IDLE.as_secs();

impl GlobalArgs {
    /// The domain policy the flags ask for.
    pub fn policy(&self) -> Result<rove_browser::DomainPolicy, rove_browser::PolicyError> {
        rove_browser::DomainPolicy::from_lists(
            self.allowed_domains.as_deref(),
            &self.blocked_domains,
        )
    }

    /// Whether the policy was given (by a flag or the environment), rather
    /// than left to the session.
    pub fn policy_given(&self) -> bool {
        self.allowed_domains.is_some() || !self.blocked_domains.is_empty()
    }

    /// A session's settings from the flags: its domain policy and upload
    /// roots (made absolute from the folder rove runs in).
    pub fn session_config(
        &self,
    ) -> Result<rove_commands::SessionConfig, rove_browser::PolicyError> {
        let cwd = std::env::current_dir().unwrap_or_default();
        Ok(rove_commands::SessionConfig {
            policy: self.policy()?,
            viewport: Some(self.viewport),
            upload_roots: self.upload_roots.iter().map(|r| cwd.join(r)).collect(),
            storage_state: self.storage_state.as_ref().map(|f| cwd.join(f)),
            plugins: self.plugins.as_ref().map(|d| cwd.join(d)),
            ..rove_commands::SessionConfig::default()
        })
    }

    /// What every request to the `--cdp-url` endpoint takes (its headers
    /// and TLS roots); the error says which flag is wrong.
    pub fn cdp_access(&self) -> Result<rove_cdp::Access, String> {
        rove_cdp::Access::new(&self.cdp_headers, self.cdp_ca.as_deref())
    }

    /// The CDP transport's settings: the environment's, with the endpoint's
    /// headers and roots. The flags were checked when rove started
    /// ([`crate::cli::cdp::check`]); a CA file that went away since then
    /// leaves only the system's roots, which trust less, never more.
    pub fn transport(&self) -> rove_cdp::TransportConfig {
        let access = self.cdp_access().unwrap_or_else(|error| {
            tracing::warn!(%error, "the --cdp-* flags no longer read; going on without them");
            rove_cdp::Access::new(&self.cdp_headers, None).unwrap_or_default()
        });
        rove_cdp::TransportConfig {
            access,
            ..rove_cdp::TransportConfig::from_env()
        }
    }

    /// The same options with every path made absolute from `cwd`: what a
    /// process started elsewhere (a daemon, a host's `rove mcp`) must get.
    pub fn rooted(&self, cwd: &Path) -> GlobalArgs {
        let root = |path: &PathBuf| cwd.join(path);
        GlobalArgs {
            browser: self.browser.as_ref().map(root),
            upload_roots: self.upload_roots.iter().map(root).collect(),
            storage_state: self.storage_state.as_ref().map(root),
            profile: self.profile.as_ref().map(root),
            plugins: self.plugins.as_ref().map(root),
            cdp_ca: self.cdp_ca.as_ref().map(root),
            ..self.clone()
        }
    }

    /// The options that choose a session, its browser and its settings,
    /// written as flags: each one that differs from what rove assumes
    /// without it, so the process given them sees what this one saw. The
    /// session only when it was named (an unnamed one is each process's
    /// own); how this process talks (`--json`, `-v`) stays with it.
    pub fn session_flags(&self) -> Vec<String> {
        fn flag(flags: &mut Vec<String>, name: &str, value: String) {
            flags.push(format!("--{name}"));
            flags.push(value);
        }
        let text = |path: &PathBuf| path.to_string_lossy().into_owned();
        let mut flags = Vec::new();
        if self.session_named {
            flag(&mut flags, "session", self.session.clone());
        }
        if self.headed {
            flags.push("--headed".to_owned());
        }
        if let Some(url) = &self.cdp_url {
            flag(&mut flags, "cdp-url", url.clone());
        }
        for header in &self.cdp_headers {
            flag(&mut flags, "cdp-header", header.clone());
        }
        if let Some(ca) = &self.cdp_ca {
            flag(&mut flags, "cdp-ca", text(ca));
        }
        if let Some(browser) = &self.browser {
            flag(&mut flags, "browser", text(browser));
        }
        if let Some(allowed) = &self.allowed_domains {
            flag(&mut flags, "allowed-domains", allowed.join(","));
        }
        if !self.blocked_domains.is_empty() {
            flag(
                &mut flags,
                "blocked-domains",
                self.blocked_domains.join(","),
            );
        }
        if self.viewport != rove_browser::Viewport::default() {
            let size = format!("{}x{}", self.viewport.width, self.viewport.height);
            flag(&mut flags, "viewport", size);
        }
        for root in &self.upload_roots {
            flag(&mut flags, "upload-root", text(root));
        }
        if let Some(profile) = &self.profile {
            flag(&mut flags, "profile", text(profile));
        }
        if let Some(state) = &self.storage_state {
            flag(&mut flags, "storage-state", text(state));
        }
        if let Some(plugins) = &self.plugins {
            flag(&mut flags, "plugins", text(plugins));
        }
        if self.idle != DEFAULT_IDLE {
            flag(&mut flags, "idle", self.idle.to_string());
        }
        flags
    }
}

/// A viewport travels as its flag's text (`1280x720`).
mod viewport_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        viewport: &rove_browser::Viewport,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{}x{}", viewport.width, viewport.height))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<rove_browser::Viewport, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(line: &[&str]) -> GlobalArgs {
        use clap::FromArgMatches;
        let matches = crate::cli::command()
            .try_get_matches_from(line)
            .unwrap_or_else(|e| panic!("{line:?}: {e}"));
        GlobalArgs::from_arg_matches(&matches).expect("global options")
    }

    #[test]
    fn the_options_survive_the_trip_to_a_daemon() {
        let global = parsed(&[
            "rove",
            "--headed",
            "--viewport",
            "800x600",
            "--allowed-domains",
            "a.test,b.test",
            "--upload-root",
            "files",
            "close",
            "-vv",
        ]);
        let rooted = global.rooted(Path::new("/home/ada"));
        let wire = serde_json::to_string(&rooted).expect("serializes");
        let back: GlobalArgs = serde_json::from_str(&wire).expect("deserializes");
        assert_eq!(
            back.viewport,
            rove_browser::Viewport {
                width: 800,
                height: 600
            }
        );
        assert_eq!(back.upload_roots, [PathBuf::from("/home/ada/files")]);
        assert_eq!(back.verbose, 2);
        assert!(back.headed);
        assert_eq!(back.session_flags(), rooted.session_flags());
    }

    #[test]
    fn only_what_differs_from_the_defaults_becomes_a_flag() {
        assert!(parsed(&["rove", "close"]).session_flags().is_empty());
        let mut global = parsed(&["rove", "--idle", "60", "--headed", "close"]);
        assert_eq!(global.session_flags(), ["--headed", "--idle", "60"]);
        global.session_named = true;
        global.session = "work".into();
        assert_eq!(
            global.session_flags(),
            ["--session", "work", "--headed", "--idle", "60"]
        );
    }

    #[test]
    fn the_cdp_endpoint_flags_travel_with_the_others() {
        let global = parsed(&[
            "rove",
            "--cdp-header",
            "Authorization: Bearer K3Y",
            "--cdp-ca",
            "certs/ca.pem",
            "close",
        ]);
        let global = GlobalArgs {
            cdp_headers: vec!["Authorization: Bearer K3Y".into(), "X-Farm: 1".into()],
            ..global
        };
        let rooted = global.rooted(Path::new("/home/ada"));
        let wire = serde_json::to_string(&rooted).expect("serializes");
        let back: GlobalArgs = serde_json::from_str(&wire).expect("deserializes");
        assert_eq!(back.cdp_headers, ["Authorization: Bearer K3Y", "X-Farm: 1"]);
        assert_eq!(back.cdp_ca, Some(PathBuf::from("/home/ada/certs/ca.pem")));
        assert_eq!(
            rooted.session_flags(),
            [
                "--cdp-header",
                "Authorization: Bearer K3Y",
                "--cdp-header",
                "X-Farm: 1",
                "--cdp-ca",
                "/home/ada/certs/ca.pem"
            ]
        );
        // The CA file is not there: the headers still go.
        assert_eq!(back.transport().access.headers().len(), 2);
    }
}
