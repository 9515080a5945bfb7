//! `state save FILE` / `state load FILE`, and `SessionConfig::storage_state`
//! at session start: the session's cookies and the `localStorage` of its
//! pages' origins, in Playwright's storage-state JSON
//! (`{"cookies": [...], "origins": [{"origin", "localStorage": [{"name",
//! "value"}]}]}`), so a login done once (in rove or in Playwright) is reused.
//!
//! A saved state holds credentials: the file is written readable by its
//! owner only, where rove may write (the shell's choice, or for a model the
//! session's output folder). A model loads only from the upload roots or
//! the output folder. Local storage is restored in a blank tab of the
//! session's own, opened at each origin with the document answered by rove
//! (the server never sees the visit), then closed.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::session::cookie_jar::cookie_host;
use crate::{CommandError, Data, Outcome, Session, StateAction, StateArgs};

/// The most cookies one load sets: the browser keeps about 3,300 in all,
/// and a file within its size bound may hold hundreds of thousands, which
/// kept the browser busy past any deadline.
const COOKIES_MAX: usize = 5_000;

/// The biggest state file rove reads.
const STATE_MAX_BYTES: u64 = 16 * 1024 * 1024;

impl Session {
    pub(crate) async fn state(
        &mut self,
        args: &StateArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let text = match args.action {
            StateAction::Save => {
                let path = self.output_path(&args.file)?;
                let state = self.storage_state().await?;
                write_private(&path, &state)?;
                format!(
                    "saved {} cookies and the local storage of {} origins to {}\n",
                    state["cookies"].as_array().map_or(0, Vec::len),
                    state["origins"].as_array().map_or(0, Vec::len),
                    path.display()
                )
            }
            StateAction::Load => {
                let path = self.state_file(&args.file)?;
                self.load_state(&path).await?
            }
        };
        out.data = Some(Data::Text(text));
        Ok(())
    }

    /// The file a `state load` may read (see the module).
    fn state_file(&self, file: &str) -> Result<PathBuf, CommandError> {
        if let (crate::Caller::Model, Some(dir)) = (self.caller(), &self.config().output_dir) {
            let plain = Path::new(file).components().count() == 1;
            if plain && dir.join(file).is_file() {
                return Ok(dir.join(file));
            }
        }
        self.readable_file(file)
    }

    /// The session's state in Playwright's shape.
    async fn storage_state(&self) -> Result<Value, CommandError> {
        let cookies: Vec<Value> = self
            .all_cookies()
            .await?
            .iter()
            .map(playwright_cookie)
            .collect();
        let mut origins: Vec<Value> = Vec::new();
        // Every tab answers, or nothing is saved: a file without one page's
        // local storage would pass for the whole state.
        for info in self.context().tabs() {
            let Ok(tab) = self.context().tab(info.id) else {
                continue;
            };
            crate::session::refuse_if_dialog(&tab).await?;
            let read = tab.evaluate_in_rove_world(
                // A document without storage (about:blank, an error page,
                // a sandbox) throws on `localStorage`: it has none to save.
                "[location.origin, (() => { try { return Object.entries(localStorage).map(([name, value]) => ({name, value})); } catch (e) { return []; } })()]",
            );
            let pair = tokio::time::timeout(rove_base::limits::STATE_CALL, read)
                .await
                .map_err(|_| {
                    CommandError::Rejected(format!(
                        "tab {} did not answer about its local storage within {} s; nothing was saved",
                        info.id,
                        rove_base::limits::STATE_CALL.as_secs()
                    ))
                })??;
            let origin = pair[0].as_str().unwrap_or_default();
            let items = pair[1].as_array().cloned().unwrap_or_default();
            let known = origins.iter().any(|o| o["origin"] == origin);
            if origin.starts_with("http") && !items.is_empty() && !known {
                origins.push(json!({"origin": origin, "localStorage": items}));
            }
        }
        Ok(json!({"cookies": cookies, "origins": origins}))
    }

    /// Restores a state file's cookies and local storage into the session.
    pub(crate) async fn load_state(&mut self, path: &Path) -> Result<String, CommandError> {
        let state = read_state(path)?;
        let policy = self.context().domain_policy();
        // Cookies of a host the session may not visit are left out like its
        // local storage: a subresource of an allowed page would carry them.
        let mut refused = Vec::new();
        // An entry that is no cookie (no name, value or place) is left out
        // and named, as one the browser refuses is: the rest still load.
        let mut malformed = Vec::new();
        let entries = state["cookies"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let cookies: Vec<Value> = entries
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let cookie = cdp_cookie(c);
                if cookie.is_none() {
                    malformed.push(cookie_label(i, c));
                }
                cookie
            })
            .filter(|c| match cookie_host(c) {
                Some(host) if policy.allows_cookie_domain(&host) => true,
                host => {
                    let host = host.unwrap_or_else(|| "(no host)".into());
                    if !refused.contains(&host) {
                        refused.push(host);
                    }
                    false
                }
            })
            .collect();
        let mut cookies = cookies;
        let beyond = cookies.len().saturating_sub(COOKIES_MAX);
        cookies.truncate(COOKIES_MAX);
        let bad_cookies = self.set_cookies(&mut cookies).await?;
        let mut restored = 0;
        let cookies_refused = std::mem::take(&mut refused);
        let origins = state["origins"].as_array().cloned().unwrap_or_default();
        let wanted: Vec<&Value> = origins
            .iter()
            .filter(|o| {
                let origin = o["origin"].as_str().unwrap_or_default();
                // Only a real origin (`scheme://host:port`, as the browser
                // writes it): the restoring tab never arrives at any other.
                let real = crate::session::shown::origin_of(origin) == origin;
                let allowed = real && policy.allows(&format!("{origin}/"));
                if !allowed {
                    refused.push(origin.to_owned());
                }
                allowed && o["localStorage"].as_array().is_some_and(|i| !i.is_empty())
            })
            .collect();
        if !wanted.is_empty() {
            // Half the command's deadline, so the restoring tab is closed
            // before the guard cuts the command short.
            let budget = self.config().command_timeout / 2;
            restored =
                crate::commands::state::tab::restore_local_storage(self.context(), &wanted, budget)
                    .await?;
        }
        let mut text = format!(
            "loaded {} cookies and the local storage of {restored} origins from {}\n",
            cookies.len(),
            path.display()
        );
        if beyond > 0 {
            text.push_str(&format!(
                "left out {beyond} cookies beyond the first {COOKIES_MAX} (a browser keeps no more)\n"
            ));
        }
        if !cookies_refused.is_empty() {
            text.push_str(&format!(
                "left out the cookies of hosts the domain policy refuses: {}\n",
                cookies_refused.join(", ")
            ));
        }
        if !bad_cookies.is_empty() {
            text.push_str(&format!(
                "left out cookies the browser refused: {}\n",
                bad_cookies.join(", ")
            ));
        }
        if !malformed.is_empty() {
            text.push_str(&format!(
                "left out entries that are no cookies (a cookie needs a name, a value and a domain or url): {}\n",
                malformed.join(", ")
            ));
        }
        if !refused.is_empty() {
            text.push_str(&format!(
                "left out the local storage of origins the domain policy refuses, or that are no origins (scheme://host:port): {}\n",
                refused.join(", ")
            ));
        }
        Ok(text)
    }
}

impl Session {
    /// Sets `cookies` in the session's context. The browser refuses the
    /// whole call for one bad cookie, so then each is set alone: the good
    /// ones load, and the names of the refused ones are returned (and they
    /// are taken out of `cookies`). A failure of the browser itself, not of
    /// a cookie, fails the command.
    async fn set_cookies(&self, cookies: &mut Vec<Value>) -> Result<Vec<String>, CommandError> {
        use rove_cdp::protocol::storage::SetCookies;
        if cookies.is_empty() {
            return Ok(Vec::new());
        }
        let all = SetCookies {
            cookies: cookies.clone(),
            browser_context_id: Some(self.context().id().to_owned()),
        };
        match self.browser_send(&all).await {
            Ok(_) => return Ok(Vec::new()),
            Err(e) if !refused_by_the_browser(&e) => return Err(e),
            Err(_) => {}
        }
        let mut bad = Vec::new();
        let mut kept = Vec::new();
        for (i, cookie) in std::mem::take(cookies).into_iter().enumerate() {
            let one = SetCookies {
                cookies: vec![cookie.clone()],
                browser_context_id: Some(self.context().id().to_owned()),
            };
            match self.browser_send(&one).await {
                Ok(_) => kept.push(cookie),
                Err(e) if refused_by_the_browser(&e) => bad.push(cookie_label(i, &cookie)),
                Err(e) => return Err(e),
            }
        }
        *cookies = kept;
        Ok(bad)
    }
}

/// Whether the browser answered and refused the call's arguments (a bad
/// cookie), as against not answering or going away.
fn refused_by_the_browser(e: &CommandError) -> bool {
    matches!(
        e,
        CommandError::Browser(rove_browser::BrowserError::Cdp(
            rove_cdp::CdpError::Protocol { .. }
        ))
    )
}

/// A cookie named for a person: its name (quoted, cut) and host, or its
/// place in the file when it has no name.
fn cookie_label(index: usize, c: &Value) -> String {
    let host = c["domain"]
        .as_str()
        .or(c["url"].as_str())
        .unwrap_or("no host");
    match c["name"].as_str() {
        Some(name) => format!(
            "{:?} ({})",
            rove_base::text::ellipsized(name, 60),
            rove_base::text::ellipsized(host, 80)
        ),
        None => format!("#{} (no name)", index + 1),
    }
}

/// A state file as JSON, refusing what is not one.
fn read_state(path: &Path) -> Result<Value, CommandError> {
    // Opened without waiting and read within the limit: a FIFO or a
    // device named as a state file is refused, never waited on.
    let text = rove_base::user_file::read_text(path, STATE_MAX_BYTES).map_err(|e| match e {
        rove_base::user_file::UserFileError::TooLarge { .. } => CommandError::Rejected(format!(
            "{} is larger than {STATE_MAX_BYTES} bytes, the most a state file may take",
            path.display()
        )),
        e => CommandError::io(format!("reading {}", path.display()), e.into_io()),
    })?;
    let state: Value = serde_json::from_str(&text).map_err(|e| {
        CommandError::Rejected(format!(
            "{} is not a storage-state file (JSON with cookies and origins): {e}",
            path.display()
        ))
    })?;
    if !state.is_object() || !(state["cookies"].is_array() || state["origins"].is_array()) {
        return Err(CommandError::Rejected(format!(
            "{} is not a storage-state file: it has neither cookies nor origins",
            path.display()
        )));
    }
    Ok(state)
}

/// Writes `state` readable by its owner only (it holds credentials).
/// Writes a state file whole or not at all: into a private file beside it,
/// then renamed over it, so a failure (a full disk, a signal) never leaves
/// a partial file in place of an earlier good one.
fn write_private(path: &Path, state: &Value) -> Result<(), CommandError> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(state).unwrap_or_default();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let partial = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    let written = rove_base::private::create_private_file(&partial)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written.map_err(|e| CommandError::io(format!("writing {}", path.display()), e))
}

/// A browser cookie in Playwright's shape.
fn playwright_cookie(c: &Value) -> Value {
    let session = c["session"].as_bool().unwrap_or(false);
    json!({
        "name": c["name"],
        "value": c["value"],
        "domain": c["domain"],
        "path": c["path"],
        "expires": if session { json!(-1) } else { c["expires"].clone() },
        "httpOnly": c["httpOnly"].as_bool().unwrap_or(false),
        "secure": c["secure"].as_bool().unwrap_or(false),
        "sameSite": c["sameSite"].as_str().unwrap_or("Lax"),
    })
}

/// A Playwright cookie as the browser takes it; `None` when it lacks a
/// name, a value or a place.
fn cdp_cookie(c: &Value) -> Option<Value> {
    let name = c["name"].as_str()?;
    let value = c["value"].as_str()?;
    let mut cookie = json!({
        "name": name,
        "value": value,
        "path": c["path"].as_str().unwrap_or("/"),
        "httpOnly": c["httpOnly"].as_bool().unwrap_or(false),
        "secure": c["secure"].as_bool().unwrap_or(false),
    });
    match (c["domain"].as_str(), c["url"].as_str()) {
        (Some(domain), _) => cookie["domain"] = json!(domain),
        (None, Some(url)) => cookie["url"] = json!(url),
        (None, None) => return None,
    }
    if let Some(expires) = c["expires"].as_f64().filter(|t| *t > 0.0) {
        cookie["expires"] = json!(expires);
    }
    if let Some(same_site) = c["sameSite"]
        .as_str()
        .filter(|s| matches!(*s, "Strict" | "Lax" | "None"))
    {
        cookie["sameSite"] = json!(same_site);
    }
    Some(cookie)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_go_both_ways_between_the_browser_and_playwright() {
        let browser = json!({"name": "sid", "value": "abc", "domain": "127.0.0.1", "path": "/",
            "expires": -1, "session": true, "httpOnly": true, "secure": false, "sameSite": "Strict"});
        let saved = playwright_cookie(&browser);
        assert_eq!(saved["expires"], -1);
        assert_eq!(saved["sameSite"], "Strict");
        let back = cdp_cookie(&saved).expect("a cookie");
        assert_eq!(back["domain"], "127.0.0.1");
        assert!(back.get("expires").is_none(), "a session cookie stays one");
        assert!(cdp_cookie(&json!({"name": "x", "value": "y"})).is_none());
    }
}
