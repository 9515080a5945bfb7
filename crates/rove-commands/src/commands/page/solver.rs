//! Solver plugins: executables in the plugins folder that `solve` asks to
//! solve a challenge, over a small JSON protocol (docs/captcha.md): one
//! request on stdin, one answer on stdout. rove ships no solver.
//!
//! A plugin is a stranger's program: it gets the request and nothing else
//! (an environment of `PATH`, `HOME` and `LANG` only, no cookies, no
//! secrets, no other tab), runs in a process group of its own that is
//! killed whole at its deadline, and what it prints is read up to
//! [`ANSWER_BYTES`] and believed only if it is the protocol's JSON.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::answer::solver_error::SolverError;

/// The protocol's version, sent with every request.
pub const PROTOCOL: u32 = 1;

/// The most rove reads of a plugin's answer (a token is a few kilobytes).
const ANSWER_BYTES: usize = 1 << 20;

/// What a plugin is asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverRequest {
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// The challenge's kind, as the view's `captcha` line says it.
    pub kind: String,
    /// The site key the page gave the widget, when it shows one.
    pub site_key: Option<String>,
    /// The page's URL (credentials in it hidden).
    pub page_url: String,
    /// The state the view shows (`unsolved`, `challenge`, `expired`).
    pub state: String,
    /// The user agent the page sees: a token or a clearance is often
    /// bound to it, so a solving service must present the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// For an open image challenge: what it asks and a picture of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageRequest>,
}

/// An image challenge, as a plugin sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImageRequest {
    /// What it asks for.
    pub instructions: String,
    /// Rows and columns of tiles; cell `n` (from 1) counts row by row.
    /// Absent for an image captcha answered with text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    /// Columns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cols: Option<u32>,
    /// The challenge as shown, `image/png`, in base64 (a secret the page
    /// shows is painted out, as in every image rove gives away).
    pub png: String,
}

/// What a plugin may answer.
#[derive(Debug, Clone, PartialEq)]
pub enum SolverAnswer {
    /// A token for the widget's response field.
    Token(String),
    /// The tiles to click, from 1, row by row.
    Cells(Vec<u32>),
    /// Text to type into an image captcha's field.
    Text(String),
    /// Cookies that clear a bot wall (Cloudflare's interstitial), for the
    /// page's own site; the page is loaded again with them.
    Cookies(Vec<SolverCookie>),
}

/// A cookie a plugin answers with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverCookie {
    /// Its name (`cf_clearance`).
    pub name: String,
    /// Its value.
    pub value: String,
    /// The domain it is for: the page's host or a domain above it; absent,
    /// the page's host only.
    #[serde(default)]
    pub domain: Option<String>,
    /// Its path (default `/`).
    #[serde(default)]
    pub path: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    cells: Option<Vec<u32>>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    cookies: Option<Vec<SolverCookie>>,
    #[serde(default)]
    error: Option<WireError>,
}

#[derive(Deserialize)]
struct WireError {
    code: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    hint: String,
    #[serde(default)]
    retry: Option<rove_errors::Retry>,
}

/// The plugins folder: the session's (`--plugins`), else `ROVE_PLUGINS`,
/// else `$XDG_CONFIG_HOME/rove/plugins`, else `~/.config/rove/plugins`.
pub fn plugins_folder(configured: Option<&Path>) -> PathBuf {
    if let Some(dir) = configured {
        return dir.to_path_buf();
    }
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = env("ROVE_PLUGINS") {
        return PathBuf::from(dir);
    }
    let config = env("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".config")))
        .unwrap_or_else(|| PathBuf::from(".config"));
    config.join("rove").join("plugins")
}

/// The plugins in `folder`: its executable regular files (links followed),
/// by name. A missing folder has none.
pub fn plugins_in(folder: &Path) -> Vec<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .collect();
    found.sort();
    found
}

/// A plugin's name as answers show it: its file name.
pub fn plugin_name(plugin: &Path) -> String {
    plugin
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| plugin.display().to_string())
}

/// Asks `plugin` to solve `request`, within `deadline`.
pub async fn ask(
    plugin: &Path,
    request: &SolverRequest,
    deadline: Duration,
) -> Result<SolverAnswer, SolverError> {
    let name = plugin_name(plugin);
    let mut command = tokio::process::Command::new(plugin);
    command
        .env_clear()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        // Its own group, so the whole of it (a script's children too) is
        // killed at the deadline.
        .process_group(0);
    for kept in ["PATH", "HOME", "LANG"] {
        if let Some(value) = std::env::var_os(kept) {
            command.env(kept, value);
        }
    }
    let mut child = command.spawn().map_err(|e| SolverError::Start {
        plugin: name.clone(),
        reason: e.to_string(),
    })?;
    let group = child.id();
    let body = serde_json::to_vec(request).map_err(|e| SolverError::Start {
        plugin: name.clone(),
        reason: e.to_string(),
    })?;
    let talk = async {
        if let Some(mut stdin) = child.stdin.take() {
            // A plugin that reads nothing and answers anyway is fine: a
            // closed pipe is not its failure.
            let _ = stdin.write_all(&body).await;
            let _ = stdin.write_all(b"\n").await;
        }
        let mut printed = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            let _ = stdout
                .take(ANSWER_BYTES as u64 + 1)
                .read_to_end(&mut printed)
                .await;
        }
        let status = child.wait().await;
        (printed, status)
    };
    let outcome = tokio::time::timeout(deadline, talk).await;
    let Ok((printed, status)) = outcome else {
        kill_group(group);
        return Err(SolverError::Hung {
            plugin: name,
            after: deadline,
        });
    };
    kill_group(group);
    read_answer(&name, &printed, status.ok())
}

/// Ends what is left of a plugin's process group.
fn kill_group(group: Option<u32>) {
    let Some(pid) = group
        .and_then(|g| i32::try_from(g).ok())
        .and_then(rustix::process::Pid::from_raw)
    else {
        return;
    };
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
}

/// A plugin's output as an answer, its own error, or garbage.
fn read_answer(
    name: &str,
    printed: &[u8],
    status: Option<std::process::ExitStatus>,
) -> Result<SolverAnswer, SolverError> {
    let garbage = |what: String| SolverError::Garbage {
        plugin: name.to_owned(),
        what,
    };
    if printed.len() > ANSWER_BYTES {
        return Err(garbage(format!("printed more than {ANSWER_BYTES} bytes")));
    }
    let text = String::from_utf8_lossy(printed);
    let text = text.trim();
    if text.is_empty() {
        let how = match status.and_then(|s| s.code()) {
            Some(code) => format!("exited with status {code} without an answer"),
            None => "ended without an answer".to_owned(),
        };
        return Err(garbage(how));
    }
    let wire: Wire = serde_json::from_str(text).map_err(|e| {
        garbage(format!(
            "printed what is not the protocol's JSON ({e}): {}",
            crate::answer::quote_line(&rove_base::text::ellipsized(text, 80))
        ))
    })?;
    if let Some(error) = wire.error {
        let Some(code) = rove_errors::solver_code(&error.code) else {
            return Err(garbage(format!(
                "answered with a malformed error code {}",
                crate::answer::quote_line(&rove_base::text::ellipsized(&error.code, 60))
            )));
        };
        return Err(SolverError::Plugin {
            plugin: name.to_owned(),
            code,
            message: rove_base::text::ellipsized(&rove_base::text::clean(error.message), 500),
            hint: rove_base::text::ellipsized(&rove_base::text::clean(error.hint), 500),
            retry: error.retry.unwrap_or(code.default_retry()),
        });
    }
    match (wire.token, wire.cells, wire.text, wire.cookies) {
        (Some(token), None, None, None) if !token.trim().is_empty() => {
            Ok(SolverAnswer::Token(token))
        }
        (None, Some(cells), None, None) if !cells.is_empty() => Ok(SolverAnswer::Cells(cells)),
        (None, None, Some(text), None) if !text.trim().is_empty() => Ok(SolverAnswer::Text(text)),
        (None, None, None, Some(cookies))
            if !cookies.is_empty() && cookies.iter().all(|c| !c.name.trim().is_empty()) =>
        {
            Ok(SolverAnswer::Cookies(cookies))
        }
        _ => Err(garbage(
            "answered without exactly one of token, cells, text, cookies or error".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_as_the_protocol_says() {
        let read = |s: &str| read_answer("p", s.as_bytes(), None);
        assert_eq!(
            read("{\"token\": \"03A\"}").ok(),
            Some(SolverAnswer::Token("03A".into()))
        );
        assert_eq!(
            read("{\"cells\": [2, 5]}\n").ok(),
            Some(SolverAnswer::Cells(vec![2, 5]))
        );
        assert_eq!(
            read("{\"text\": \"W7KP\"}").ok(),
            Some(SolverAnswer::Text("W7KP".into()))
        );
        assert_eq!(
            read("{\"cookies\": [{\"name\": \"cf_clearance\", \"value\": \"v\"}]}").ok(),
            Some(SolverAnswer::Cookies(vec![SolverCookie {
                name: "cf_clearance".into(),
                value: "v".into(),
                domain: None,
                path: None,
            }]))
        );
        for bad in [
            "",
            "hello",
            "{\"token\": \"\"}",
            "{\"token\": \"a\", \"cells\": [1]}",
            "{\"x\": 1}",
            "{\"text\": \"  \"}",
            "{\"cookies\": []}",
            "{\"cookies\": [{\"name\": \"\", \"value\": \"v\"}]}",
            "{\"cookies\": [{\"name\": \"a\", \"value\": \"v\", \"secret\": 1}]}",
        ] {
            assert!(
                matches!(read(bad), Err(SolverError::Garbage { .. })),
                "{bad:?}"
            );
        }
        let own = read(
            "{\"error\": {\"code\": \"QUOTA_EXCEEDED\", \"message\": \"m\", \"hint\": \"h\", \"retry\": \"retry\"}}",
        );
        match own {
            Err(SolverError::Plugin { code, retry, .. }) => {
                assert_eq!(code.as_str(), "QUOTA_EXCEEDED");
                assert_eq!(retry, rove_errors::Retry::Retry);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_folder_comes_from_the_flag_first() {
        assert_eq!(
            plugins_folder(Some(Path::new("/x/plugins"))),
            PathBuf::from("/x/plugins")
        );
        assert!(plugins_in(Path::new("/nonexistent/rove-plugins")).is_empty());
    }
}
