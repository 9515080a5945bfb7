//! `network`: the focused tab's requests (from the log its watch keeps,
//! `rove_browser::NetLog`), one request's headers and bodies on demand, the
//! session's block and mock rules (`rove_browser::RequestRules`, applied by
//! the browser's `Fetch` interception), and a HAR export (`har.rs`).
//!
//! URLs, headers and bodies came from pages and servers: every URL shown is
//! redacted (a password in it, query values whose names say they are
//! secrets: [`rove_base::redact::hide_url_credentials`]; the session's
//! secrets) and cleaned as page text; header values
//! that carry credentials (cookies, authorization) are never shown; a body
//! is cleaned line by line and every line of it is marked, so none passes
//! for a line of rove's own.

use rove_base::redact::is_secret_header;
use rove_base::text::{byte_prefix, char_prefix, clean};
use rove_base::url_pattern::UrlPattern;
use rove_browser::{NetEntry, NetState, RequestRule, RuleAction};
use rove_cdp::protocol::network::{GetRequestPostData, GetResponseBody};

use crate::{CommandError, Data, NetworkAction, NetworkArgs, Outcome, Session};

/// The most bytes of a body `show` returns unless told otherwise.
const SHOW_BYTES: usize = 4_000;

/// The most bytes of a body `show` returns however many it is asked for:
/// a page's text may talk the model into asking for everything, and the
/// answer goes into its context.
const SHOW_MAX_BYTES: usize = 100_000;

/// The most bytes a mock's body may take.
const MOCK_MAX_BYTES: u64 = 5 * 1024 * 1024;

impl Session {
    pub(crate) async fn network(
        &mut self,
        args: &NetworkArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let text = match args.action {
            NetworkAction::List => self.network_list(args).await?,
            NetworkAction::Show => self.network_show(args).await?,
            NetworkAction::Block | NetworkAction::Mock => self.network_rule(args).await?,
            NetworkAction::Clear => {
                let rules = self.context().request_rules().0.len();
                self.context()
                    .set_request_rules(rove_browser::RequestRules::default())
                    .await?;
                self.focused()?.watch().await?.clear_network();
                format!("dropped {rules} block and mock rules and forgot the requests seen\n")
            }
            NetworkAction::Har => self.network_har(args).await?,
        };
        out.data = Some(Data::Text(text));
        Ok(())
    }

    async fn network_list(&mut self, args: &NetworkArgs) -> Result<String, CommandError> {
        let tab = self.focused()?;
        let kind = args.resource_type.as_deref().map(str::to_ascii_lowercase);
        // Read through the filters, so a request they leave out stays
        // unread for a later call that wants it.
        let read = tab.watch().await?.network_where(args.all, |e| {
            args.url.as_deref().is_none_or(|u| e.url.contains(u))
                && kind
                    .as_deref()
                    .is_none_or(|k| e.resource_type.eq_ignore_ascii_case(k))
                && match args.status {
                    None => true,
                    Some(0) => matches!(e.state, NetState::Failed(_)),
                    Some(code) => e.status == Some(code),
                }
        });
        let shown: Vec<&NetEntry> = read.entries.iter().collect();
        let since = if args.all {
            "kept"
        } else {
            "since the last call"
        };
        let mut text = match shown.len() {
            0 => format!("no requests {since} in tab {}\n", tab.id()),
            1 => format!("1 request {since} in tab {}:\n", tab.id()),
            n => format!("{n} requests {since} in tab {}:\n", tab.id()),
        };
        if read.dropped > 0 {
            text.push_str(&format!(
                "({} older requests were dropped unread: rove keeps the newest {} per tab)\n",
                read.dropped,
                rove_browser::NETWORK_CAP
            ));
        }
        for entry in shown {
            text.push_str(&self.summary(entry));
            text.push('\n');
        }
        Ok(text)
    }

    /// One line: `r3 POST 201 fetch 88 B 5 ms URL`.
    fn summary(&self, e: &NetEntry) -> String {
        let outcome = match &e.state {
            NetState::Failed(why) => {
                format!("failed ({})", clean(why.clone()))
            }
            NetState::Pending if e.status.is_none() => "pending".into(),
            _ => e.status.map(|s| s.to_string()).unwrap_or_default(),
        };
        let mut line = format!(
            "r{} {} {outcome} {}",
            e.seq,
            clean_word(&e.method),
            e.resource_type.to_ascii_lowercase()
        );
        if let Some(size) = e.size {
            line.push_str(&format!(" {}", bytes(size)));
        }
        if let Some(ms) = e.duration_ms() {
            line.push_str(&format!(" {ms:.0} ms"));
        }
        line.push(' ');
        line.push_str(&self.shown_url(&e.url));
        line
    }

    async fn network_show(&mut self, args: &NetworkArgs) -> Result<String, CommandError> {
        let Some(id) = args.id else {
            return Err(CommandError::Rejected(
                "network show needs the request's id (3 for r3; network lists them)".into(),
            ));
        };
        let tab = self.focused()?;
        let watch = tab.watch().await?;
        let Some(entry) = watch.request(id) else {
            return Err(CommandError::Rejected(format!(
                "r{id} is not among the requests kept for tab {} (network(all=true) lists them)",
                tab.id()
            )));
        };
        let budget = args.max_bytes.unwrap_or(SHOW_BYTES).min(SHOW_MAX_BYTES);
        let mut text = format!(
            "r{} {} {}\n",
            entry.seq,
            clean_word(&entry.method),
            self.shown_url(&entry.url)
        );
        let state = match &entry.state {
            NetState::Failed(why) => {
                format!("failed: {}", clean(why.clone()))
            }
            NetState::Pending => "pending".into(),
            NetState::Redirected => "redirected".into(),
            NetState::Finished => "finished".into(),
        };
        let status = entry
            .status
            .map(|s| format!("status {s} {} · ", clean_word(&entry.status_text)))
            .unwrap_or_default();
        text.push_str(&format!(
            "{status}{state} · {} · {}",
            entry.resource_type.to_ascii_lowercase(),
            clean_word(&entry.mime_type)
        ));
        if let Some(size) = entry.size {
            text.push_str(&format!(" · {}", bytes(size)));
        }
        if let Some(ms) = entry.duration_ms() {
            text.push_str(&format!(" · {ms:.0} ms"));
        }
        text.push('\n');
        text.push_str("request headers:\n");
        text.push_str(&self.headers_text(&entry.request_headers));
        let session = tab.session().await?;
        let on = entry
            .session
            .clone()
            .map(|id| session.connection().session(id))
            .unwrap_or(session);
        if entry.has_post_data || entry.post_data.is_some() {
            let body = match &entry.post_data {
                Some(data) => Some(data.clone().into_bytes()),
                None => request_body(&on, &entry.request_id).await,
            };
            let total = entry.post_data_size.unwrap_or(0) as usize;
            text.push_str(&self.body_text("request body", body.as_deref(), total, budget));
        }
        if !entry.response_headers.is_empty() {
            text.push_str("response headers:\n");
            text.push_str(&self.headers_text(&entry.response_headers));
        }
        if matches!(entry.state, NetState::Finished) {
            let body = response_body(&on, &entry.request_id).await;
            text.push_str(&self.body_text("response body", body.as_deref(), 0, budget));
        }
        Ok(text)
    }

    fn headers_text(&self, headers: &[(String, String)]) -> String {
        let mut text = String::new();
        for (name, value) in headers {
            let shown = if is_secret_header(name) {
                format!("({} bytes, not shown; cookies lists cookies)", value.len())
            } else {
                let value = self.config().secrets.redact(value);
                clean(value)
            };
            text.push_str(&format!("  {}: {shown}\n", clean_word(name)));
        }
        text
    }

    /// A body as text: each line cleaned and marked with `  | `, cut at
    /// `budget` bytes; a binary one only by its size. `total` is the whole
    /// body's size when `body` is only its first bytes (the log keeps no
    /// more of a big request body).
    fn body_text(&self, what: &str, body: Option<&[u8]>, total: usize, budget: usize) -> String {
        let Some(body) = body else {
            return format!(
                "{what}: not available (the browser no longer holds it, or it was too large to keep)\n"
            );
        };
        let Ok(full) = std::str::from_utf8(body) else {
            return format!(
                "{what}: {} of binary data, not shown\n",
                bytes(body.len() as u64)
            );
        };
        let kept = byte_prefix(full, budget);
        let end = kept.len();
        let shown = self.config().secrets.redact(kept);
        let total = total.max(full.len());
        let mut text = format!("{what} ({}):\n", bytes(total as u64));
        for line in shown.lines() {
            text.push_str("  | ");
            text.push_str(&clean(line.to_owned()));
            text.push('\n');
        }
        if end < full.len() {
            text.push_str(&format!(
                "  … cut at {budget} bytes of {total}; network(action=show, max_bytes=…) shows more, up to {SHOW_MAX_BYTES}\n"
            ));
        } else if full.len() < total {
            text.push_str(&format!(
                "  … cut at {} bytes of {total}: rove keeps no more of a request body\n",
                full.len()
            ));
        }
        text
    }

    async fn network_rule(&mut self, args: &NetworkArgs) -> Result<String, CommandError> {
        let verb = if args.action == NetworkAction::Block {
            "block"
        } else {
            "mock"
        };
        let Some(url) = args.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) else {
            return Err(CommandError::Rejected(format!(
                "network {verb} needs url: a glob of the URLs (*/api/*), or a part of them"
            )));
        };
        let pattern = UrlPattern::new(url).as_glob();
        let action = if args.action == NetworkAction::Block {
            RuleAction::Block
        } else {
            let body = match (&args.body, &args.file) {
                (Some(_), Some(_)) => {
                    return Err(CommandError::Rejected(
                        "network mock takes body or file, not both".into(),
                    ));
                }
                (Some(text), None) => text.clone().into_bytes(),
                (None, Some(file)) => self.mock_file(file)?,
                (None, None) => Vec::new(),
            };
            let content_type = args
                .content_type
                .clone()
                .unwrap_or_else(|| guess_type(args.file.as_deref(), &body).to_owned());
            let status = args.status.unwrap_or(200);
            // The browser cannot answer with any other status, and a request
            // it cannot answer stays paused.
            if !(200..=599).contains(&status) {
                return Err(CommandError::Rejected(format!(
                    "network mock answers with a status from 200 to 599, not {status}"
                )));
            }
            RuleAction::Mock {
                status,
                content_type,
                body,
            }
        };
        let mut rules = self.context().request_rules();
        rules.0.retain(|r| r.pattern != pattern);
        rules.0.insert(
            0,
            RequestRule {
                pattern: pattern.clone(),
                action: action.clone(),
            },
        );
        let count = rules.0.len();
        self.context().set_request_rules(rules).await?;
        let what = match action {
            RuleAction::Block => "failing requests".to_owned(),
            RuleAction::Mock {
                status,
                content_type,
                body,
            } => format!(
                "answering requests with {status} ({content_type}, {})",
                bytes(body.len() as u64)
            ),
        };
        Ok(format!(
            "{what} to URLs matching {pattern:?} in every tab of the session ({count} rules in force; network(action=clear) drops them)\n"
        ))
    }

    /// A mock's body from a file under the upload roots (the rules uploads
    /// follow: nothing else of the disk can be served to a page).
    fn mock_file(&self, file: &str) -> Result<Vec<u8>, CommandError> {
        let path = self.readable_file(file)?;
        rove_base::user_file::read_bytes(&path, MOCK_MAX_BYTES).map_err(|e| match e {
            rove_base::user_file::UserFileError::TooLarge { .. } => {
                CommandError::Rejected(format!(
                    "{} is larger than {}, the most a mock's body may take",
                    path.display(),
                    bytes(MOCK_MAX_BYTES)
                ))
            }
            e => CommandError::io(format!("reading {}", path.display()), e.into_io()),
        })
    }
}

/// A response body, if the browser still holds it.
async fn response_body(session: &rove_cdp::Session, request_id: &str) -> Option<Vec<u8>> {
    let ask = GetResponseBody {
        request_id: request_id.to_owned(),
    };
    let answer = tokio::time::timeout(rove_base::limits::BODY, session.send(&ask))
        .await
        .ok()?
        .ok()?;
    decode(&answer.body, answer.base64_encoded)
}

/// A request body the event did not carry.
async fn request_body(session: &rove_cdp::Session, request_id: &str) -> Option<Vec<u8>> {
    let ask = GetRequestPostData {
        request_id: request_id.to_owned(),
    };
    let answer = tokio::time::timeout(rove_base::limits::BODY, session.send(&ask))
        .await
        .ok()?
        .ok()?;
    decode(&answer.post_data, answer.base64_encoded)
}

fn decode(text: &str, base64: bool) -> Option<Vec<u8>> {
    use base64::Engine;
    if base64 {
        base64::engine::general_purpose::STANDARD.decode(text).ok()
    } else {
        Some(text.as_bytes().to_vec())
    }
}

/// A short page-given word (a method, a MIME type, a header name) on one
/// line, at most 100 characters.
fn clean_word(word: &str) -> String {
    clean(char_prefix(word, 100).to_owned())
}

/// `88 B`, `1.2 kB`, `3.4 MB`.
pub(crate) fn bytes(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}

/// A mock's `Content-Type` when none is given: by the file's extension, or
/// by the body's first character.
fn guess_type(file: Option<&str>, body: &[u8]) -> &'static str {
    let extension = file
        .and_then(|f| std::path::Path::new(f).extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("json") => return "application/json",
        Some("html" | "htm") => return "text/html",
        Some("js" | "mjs") => return "text/javascript",
        Some("css") => return "text/css",
        Some("txt") => return "text/plain",
        Some("png") => return "image/png",
        Some("jpg" | "jpeg") => return "image/jpeg",
        Some("svg") => return "image/svg+xml",
        Some(_) => return "application/octet-stream",
        None => {}
    }
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => "application/json",
        Some(b'<') => "text/html",
        _ => "text/plain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mock_type_comes_from_the_file_or_the_body() {
        assert_eq!(guess_type(Some("a.JSON"), b""), "application/json");
        assert_eq!(guess_type(None, b"  [1]"), "application/json");
        assert_eq!(guess_type(None, b"hello"), "text/plain");
    }
}
