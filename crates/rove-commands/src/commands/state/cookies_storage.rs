//! `cookies` and `storage`: the session's cookies (its browser context's
//! cookie store) and the focused page's `localStorage` / `sessionStorage`.
//!
//! Cookie values and storage entries are shown to whoever asked (the tools
//! are opt-in: `--caps state`), cleaned as page text and quoted, so a value
//! can neither hide characters nor pass for a line of rove's own.

use rove_cdp::protocol::network::{DeleteCookies, GetCookies};
use rove_cdp::protocol::storage;
use serde_json::{Value, json};

use crate::{
    CommandError, CookiesArgs, Data, Outcome, Session, StorageArgs, StorageKind, StoreAction,
};

/// The most cookies or storage entries one answer lists: a page decides
/// how many there are, and each line goes into the model's context.
const LISTED_MAX: usize = 200;

impl Session {
    /// Every cookie of the session.
    pub(crate) async fn all_cookies(&self) -> Result<Vec<Value>, CommandError> {
        let answer = self
            .browser_send(&storage::GetCookies {
                browser_context_id: Some(self.context().id().to_owned()),
            })
            .await?;
        Ok(answer.cookies)
    }

    pub(crate) async fn cookies(
        &mut self,
        args: &CookiesArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let text = match args.action {
            StoreAction::Get => {
                let cookies = self.matching_cookies(args).await?;
                let mut text = match cookies.len() {
                    1 => "1 cookie:\n".to_owned(),
                    n => format!("{n} cookies:\n"),
                };
                for cookie in cookies.iter().take(LISTED_MAX) {
                    text.push_str(&cookie_line(cookie));
                    text.push('\n');
                }
                if cookies.len() > LISTED_MAX {
                    text.push_str(&format!(
                        "… and {} more (cookies(url=…, domain=…, name=…) narrows the list)\n",
                        cookies.len() - LISTED_MAX
                    ));
                }
                text
            }
            StoreAction::Set => self.set_cookie(args).await?,
            StoreAction::Clear => {
                let filtered = args.url.is_some() || args.domain.is_some() || args.name.is_some();
                if filtered {
                    let cookies = self.matching_cookies(args).await?;
                    let session = self.focused()?.session().await?;
                    for c in &cookies {
                        let text = |key: &str| c[key].as_str().map(str::to_owned);
                        let delete = DeleteCookies {
                            name: text("name").unwrap_or_default(),
                            domain: text("domain"),
                            path: text("path"),
                            ..DeleteCookies::default()
                        };
                        let call = session.send(&delete);
                        tokio::time::timeout(rove_base::limits::STATE_CALL, call)
                            .await
                            .map_err(|_| {
                                CommandError::Rejected(
                                    "the browser did not delete a cookie in time".into(),
                                )
                            })??;
                    }
                    format!("deleted {} cookies\n", cookies.len())
                } else {
                    let count = self.all_cookies().await?.len();
                    self.browser_send(&storage::ClearCookies {
                        browser_context_id: Some(self.context().id().to_owned()),
                    })
                    .await?;
                    format!("deleted all {count} cookies of the session\n")
                }
            }
        };
        out.data = Some(Data::Text(text));
        Ok(())
    }

    /// The cookies `args` names: those sent to its URL, of its domain, of
    /// its name (all of them without a filter).
    async fn matching_cookies(&self, args: &CookiesArgs) -> Result<Vec<Value>, CommandError> {
        let mut cookies = match &args.url {
            Some(url) => {
                let session = self.focused()?.session().await?;
                let ask = GetCookies {
                    urls: Some(vec![url.clone()]),
                };
                let call = session.send(&ask);
                let answer = tokio::time::timeout(rove_base::limits::STATE_CALL, call)
                    .await
                    .map_err(|_| {
                        CommandError::Rejected(
                            "the browser did not list the cookies in time".into(),
                        )
                    })??;
                answer.cookies
            }
            None => self.all_cookies().await?,
        };
        if let Some(domain) = &args.domain {
            let domain = domain.trim_start_matches('.').to_ascii_lowercase();
            cookies.retain(|c| {
                let of = c["domain"]
                    .as_str()
                    .unwrap_or_default()
                    .trim_start_matches('.');
                of == domain || of.ends_with(&format!(".{domain}"))
            });
        }
        if let Some(name) = &args.name {
            cookies.retain(|c| c["name"].as_str() == Some(name));
        }
        Ok(cookies)
    }

    async fn set_cookie(&self, args: &CookiesArgs) -> Result<String, CommandError> {
        let (Some(name), Some(value)) = (&args.name, &args.value) else {
            return Err(CommandError::Rejected(
                "cookies set needs name and value (and url or domain; default: the page's URL)"
                    .into(),
            ));
        };
        let mut cookie = json!({
            "name": name,
            "value": value,
            "path": args.path.clone().unwrap_or_else(|| "/".into()),
            "httpOnly": args.http_only,
            "secure": args.secure,
        });
        match (&args.url, &args.domain) {
            (_, Some(domain)) => cookie["domain"] = json!(domain),
            (Some(url), None) => cookie["url"] = json!(url),
            (None, None) => {
                let url = self.current_url();
                if !url.starts_with("http") {
                    return Err(CommandError::Rejected(
                        "cookies set needs url or domain: the page is not on a web address".into(),
                    ));
                }
                cookie["url"] = json!(url);
            }
        }
        if let Some(expires) = args.expires {
            cookie["expires"] = json!(expires);
        }
        self.put_cookie(cookie).await?;
        Ok(format!("set the cookie {}\n", quoted(name)))
    }

    pub(crate) async fn storage(
        &mut self,
        args: &StorageArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let area = match args.kind {
            StorageKind::Local => "localStorage",
            StorageKind::Session => "sessionStorage",
        };
        let key = serde_json::to_string(&args.key).unwrap_or_else(|_| "null".into());
        let script = match args.action {
            StoreAction::Get => format!(
                "(() => {{ const k = {key}; return k === null ? Object.entries({area}) : ({area}.getItem(k) === null ? [] : [[k, {area}.getItem(k)]]); }})()"
            ),
            StoreAction::Set => {
                let (Some(_), Some(value)) = (&args.key, &args.value) else {
                    return Err(CommandError::Rejected(format!(
                        "storage set needs key and value ({area})"
                    )));
                };
                let value = serde_json::to_string(value).unwrap_or_else(|_| "\"\"".into());
                format!("(() => {{ {area}.setItem({key}, {value}); return []; }})()")
            }
            StoreAction::Clear => format!(
                "(() => {{ const k = {key}; const n = k === null ? {area}.length : ({area}.getItem(k) === null ? 0 : 1); if (k === null) {area}.clear(); else {area}.removeItem(k); return n; }})()"
            ),
        };
        let tab = self.focused()?;
        let value = tokio::time::timeout(
            rove_base::limits::STATE_CALL,
            tab.evaluate_in_rove_world(&script),
        )
        .await
        .map_err(|_| {
            CommandError::Rejected(format!("the page did not answer about {area} in time"))
        })??;
        let origin = self.shown_url(&crate::session::shown::origin_of(&self.current_url()));
        let text = match args.action {
            StoreAction::Get => {
                let entries = value.as_array().cloned().unwrap_or_default();
                let mut text = format!("{} {area} entries of {origin}:\n", entries.len());
                for pair in entries.iter().take(LISTED_MAX) {
                    let k = pair[0].as_str().unwrap_or_default();
                    let v = pair[1].as_str().unwrap_or_default();
                    text.push_str(&format!("{} = {}\n", quoted(k), quoted(v)));
                }
                if entries.len() > LISTED_MAX {
                    text.push_str(&format!(
                        "… and {} more (storage(key=…) reads any one)\n",
                        entries.len() - LISTED_MAX
                    ));
                }
                text
            }
            StoreAction::Set => format!(
                "set {} in the {area} of {origin}\n",
                quoted(args.key.as_deref().unwrap_or_default())
            ),
            StoreAction::Clear => format!(
                "removed {} {area} entries of {origin}\n",
                value.as_u64().unwrap_or(0)
            ),
        };
        out.data = Some(Data::Text(text));
        Ok(())
    }
}

/// One cookie on a line: `name="value" domain=… path=/ httpOnly secure
/// expires=… sameSite=Lax`.
fn cookie_line(c: &Value) -> String {
    let mut line = format!(
        "{}={}",
        clean(c["name"].as_str().unwrap_or_default()),
        quoted(c["value"].as_str().unwrap_or_default())
    );
    line.push_str(&format!(
        " domain={} path={}",
        clean(c["domain"].as_str().unwrap_or_default()),
        clean(c["path"].as_str().unwrap_or_default())
    ));
    if c["httpOnly"].as_bool() == Some(true) {
        line.push_str(" httpOnly");
    }
    if c["secure"].as_bool() == Some(true) {
        line.push_str(" secure");
    }
    match c["expires"].as_f64() {
        Some(t) if t > 0.0 && c["session"].as_bool() != Some(true) => {
            line.push_str(&format!(" expires={t:.0}"));
        }
        _ => line.push_str(" session"),
    }
    if let Some(same_site) = c["sameSite"].as_str() {
        line.push_str(&format!(" sameSite={}", clean(same_site)));
    }
    line
}

/// The most characters of a cookie's or an entry's text shown: a page
/// decides how long they are.
const SHOWN_MAX: usize = 300;

/// Page text on a line of rove's, unquoted (a cookie's domain, path, name):
/// cleaned, at most [`SHOWN_MAX`] characters, `…` where it was cut.
fn clean(text: &str) -> String {
    rove_base::text::ellipsized(
        &rove_base::text::clean(rove_base::text::char_prefix(text, SHOWN_MAX + 1).to_owned()),
        SHOWN_MAX,
    )
}

/// Page text cleaned and quoted (`"…"`), at most [`SHOWN_MAX`] characters.
fn quoted(text: &str) -> String {
    rove_base::text::quoted(text, SHOWN_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_cookie_shows_at_most_300_characters_of_each_text_and_says_where_it_cut() {
        let long = "\"x".repeat(500);
        let cookie = json!({
            "name": long, "value": long, "domain": long, "path": long,
            "expires": -1, "session": true,
        });
        let line = cookie_line(&cookie);
        // Each of the four texts: 299 characters of it and the `…`, so a
        // reader knows none of them is whole.
        assert_eq!(line.matches('…').count(), 4, "{line}");
        let value = line
            .split_once('=')
            .map(|(_, rest)| rest.split(" domain=").next().unwrap_or_default())
            .unwrap_or_default();
        assert!(
            value.starts_with("\"\\\"x") && value.ends_with("…\""),
            "{value}"
        );
        let unescaped = value.replace("\\\"", "\"");
        assert_eq!(unescaped.chars().count(), 300 + 2, "{value}");
    }
}
