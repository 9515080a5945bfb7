//! The `verify:` checks, run by rove after the agent ends and without any
//! model: on the attempt's final page (its URL, its text, a script), on a
//! server's state over HTTP, on the download folder, on the final answer.
//! Every check answers, pass or fail with what it saw; one that cannot be
//! made (the page is gone, the server is down) fails with the reason.

use rove_base::limits::VERIFY_HTTP;
use rove_base::text::ellipsized;
use rove_commands::{Command, EvalArgs, ReadArgs, Session};
use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::task::{Check, FileCheck, HttpCheck, TextCheck};

/// What a check saw: shown in the report, so it says enough to debug.
const DETAIL_CHARS: usize = 300;

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Which kind: `url`, `text`, `js`, `http`, `file` or `answer`.
    pub check: String,
    /// Whether it held.
    pub passed: bool,
    /// What was expected and what was found.
    pub detail: String,
}

/// What an attempt left besides its session: the agent's final answer.
#[derive(Debug, Clone, Default)]
pub struct Final {
    /// The answer given with `done`, if any.
    pub answer: Option<String>,
}

/// Runs every check, in order, on `session`'s focused tab and the world
/// outside it.
pub async fn run_checks(checks: &[Check], session: &mut Session, last: &Final) -> Vec<CheckResult> {
    let mut results = Vec::with_capacity(checks.len());
    for check in checks {
        let (kind, outcome) = match check {
            Check::Url(pattern) => ("url", url(session, pattern)),
            Check::Text(text) => ("text", page_text(session, text).await),
            Check::Js(script) => ("js", js(session, script).await),
            Check::Http(http) => ("http", http_state(http).await),
            Check::File(file) => {
                session.settle_downloads().await;
                ("file", download(session.download_dir(), file))
            }
            Check::Answer(pattern) => ("answer", answer(last.answer.as_deref(), pattern)),
        };
        let (passed, detail) = match outcome {
            Ok(detail) => (true, detail),
            Err(detail) => (false, detail),
        };
        results.push(CheckResult {
            check: kind.to_owned(),
            passed,
            detail: ellipsized(&detail, DETAIL_CHARS),
        });
    }
    results
}

type Judged = Result<String, String>;

fn regex(pattern: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(pattern).map_err(|e| format!("{pattern:?} is not a regex: {e}"))
}

fn url(session: &Session, pattern: &str) -> Judged {
    let found = session.current_url();
    if regex(pattern)?.is_match(&found) {
        Ok(format!("{found} matches {pattern:?}"))
    } else {
        Err(format!("the final URL {found} does not match {pattern:?}"))
    }
}

async fn page_text(session: &mut Session, check: &TextCheck) -> Judged {
    let read = Command::Read(ReadArgs {
        target: None,
        budget: Some(0),
    });
    let text = session
        .execute(&read)
        .await
        .map_err(|e| format!("could not read the final page: {e}"))?
        .text();
    let mut said = Vec::new();
    if let Some(wanted) = &check.contains {
        if !text.contains(wanted.as_str()) {
            return Err(format!("the final page does not contain {wanted:?}"));
        }
        said.push(format!("contains {wanted:?}"));
    }
    if let Some(unwanted) = &check.lacks {
        if text.contains(unwanted.as_str()) {
            return Err(format!("the final page contains {unwanted:?}"));
        }
        said.push(format!("lacks {unwanted:?}"));
    }
    Ok(format!("the final page {}", said.join(" and ")))
}

async fn js(session: &mut Session, script: &str) -> Judged {
    let eval = Command::Eval(EvalArgs {
        js: script.to_owned(),
        target: None,
    });
    let outcome = session
        .execute(&eval)
        .await
        .map_err(|e| format!("the script failed: {e}"))?;
    match outcome.result() {
        Some(serde_json::Value::Bool(true)) => Ok("the script returned true".into()),
        Some(other) => Err(format!("the script returned {other}, not true")),
        None => Err("the script returned nothing, not true".into()),
    }
}

async fn http_state(check: &HttpCheck) -> Judged {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        // Another part of the process may have chosen one already.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    let client = reqwest::Client::builder()
        .timeout(VERIFY_HTTP)
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let fetched = async {
        let response = client.get(&check.url).send().await?;
        let status = response.status();
        let body = response.bytes().await?;
        Ok::<_, reqwest::Error>((status, body))
    };
    // The client's own deadline and this one are the same 10 s: whichever
    // fires, the reason names it.
    let late = || {
        format!(
            "GET {} did not answer within {} s (the deadline of a verify: http check)",
            check.url,
            VERIFY_HTTP.as_secs()
        )
    };
    let (status, body) = tokio::time::timeout(VERIFY_HTTP, fetched)
        .await
        .map_err(|_| late())?
        .map_err(|e| {
            if e.is_timeout() {
                late()
            } else {
                format!("GET {} failed: {e}", check.url)
            }
        })?;
    if !status.is_success() {
        return Err(format!("GET {} answered {status}", check.url));
    }
    let value: serde_json::Value = serde_json::from_slice(&body)
        .map_err(|e| format!("GET {} did not answer JSON: {e}", check.url))?;
    match value.pointer(&check.pointer) {
        Some(found) if *found == check.equals => {
            Ok(format!("{} at {:?} is {found}", check.url, check.pointer))
        }
        Some(found) => Err(format!(
            "{} at {:?} is {found}, not {}",
            check.url, check.pointer, check.equals
        )),
        None => Err(format!("{} has nothing at {:?}", check.url, check.pointer)),
    }
}

fn download(dir: &std::path::Path, check: &FileCheck) -> Judged {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("the download folder {} cannot be read: {e}", dir.display()))?;
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| match &check.name {
            Some(name) => p.file_name().is_some_and(|n| n == name.as_str()),
            None => true,
        })
        .collect();
    files.sort();
    let wanted = match &check.name {
        Some(name) => format!("download named {name:?}"),
        None => "download".to_owned(),
    };
    if files.is_empty() {
        return Err(format!("no {wanted} was made"));
    }
    // Any file that meets every condition will do; otherwise say why the
    // first one fell short.
    let mut first_reason = None;
    for path in &files {
        match file_meets(path, check) {
            Ok(detail) => return Ok(detail),
            Err(reason) => {
                first_reason.get_or_insert(reason);
            }
        }
    }
    Err(first_reason.unwrap_or_else(|| format!("no {wanted} was made")))
}

fn file_meets(path: &std::path::Path, check: &FileCheck) -> Judged {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::read(path).map_err(|e| format!("{name} cannot be read: {e}"))?;
    let size = bytes.len() as u64;
    if let Some(exact) = check.size
        && size != exact
    {
        return Err(format!("{name} has {size} bytes, not {exact}"));
    }
    if let Some(least) = check.min_size
        && size < least
    {
        return Err(format!("{name} has {size} bytes, fewer than {least}"));
    }
    if let Some(expected) = &check.sha256 {
        let found: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if !found.eq_ignore_ascii_case(expected) {
            return Err(format!("{name} has SHA-256 {found}, not {expected}"));
        }
    }
    if let Some(text) = &check.contains {
        let needle = text.as_bytes();
        if !needle.is_empty() && !bytes.windows(needle.len()).any(|w| w == needle) {
            return Err(format!("{name} does not contain {text:?}"));
        }
    }
    Ok(format!("{name} ({size} bytes) was downloaded"))
}

fn answer(given: Option<&str>, pattern: &str) -> Judged {
    let Some(text) = given else {
        return Err("the agent gave no final answer".into());
    };
    if regex(pattern)?.is_match(text) {
        Ok(format!("the answer matches {pattern:?}"))
    } else {
        Err(format!(
            "the answer {:?} does not match {pattern:?}",
            ellipsized(text, DETAIL_CHARS)
        ))
    }
}
