//! `network har FILE`: the focused tab's requests kept, as a HAR 1.2 file
//! (the format browsers' developer tools export and import). URLs are
//! redacted and credential headers left out as `network` shows them; bodies
//! only when asked (`bodies`), with the values of credential fields hidden
//! (`network show` gives a body on demand). The file goes
//! where rove may write: where the person at the shell says, or for a model
//! into the session's output folder; readable by its owner only.

use rove_browser::{NetEntry, NetState};
use serde_json::{Value, json};

use crate::{CommandError, NetworkArgs, Session};

impl Session {
    pub(crate) async fn network_har(&mut self, args: &NetworkArgs) -> Result<String, CommandError> {
        let Some(file) = args.file.as_deref().filter(|f| !f.trim().is_empty()) else {
            return Err(CommandError::Rejected(
                "network har needs file: where to write it (a plain file name for a model)".into(),
            ));
        };
        let path = self.output_path(file)?;
        let tab = self.focused()?;
        let watch = tab.watch().await?;
        // Every entry kept, without marking them read for `network`.
        let entries: Vec<NetEntry> = watch.network_kept();
        let har = json!({
            "log": {
                "version": "1.2",
                "creator": {"name": "rove", "version": env!("CARGO_PKG_VERSION")},
                "pages": [],
                "entries": entries.iter().map(|e| self.har_entry(e, args.bodies)).collect::<Vec<_>>(),
            }
        });
        let text = serde_json::to_string_pretty(&har)
            .map_err(|e| CommandError::Rejected(format!("the HAR could not be written: {e}")))?;
        // Owner only: it holds what the pages sent, request bodies included.
        crate::private::write_private_bytes(&path, text.as_bytes())?;
        Ok(format!(
            "wrote {} requests of tab {} to {} (HAR 1.2)\n",
            entries.len(),
            tab.id(),
            path.display()
        ))
    }

    /// One request as a HAR entry; its body only `with_body`.
    fn har_entry(&self, e: &NetEntry, with_body: bool) -> Value {
        let url = self.shown_url(&e.url);
        let query: Vec<Value> = url::Url::parse(&url)
            .map(|u| {
                u.query_pairs()
                    .map(|(k, v)| json!({"name": k, "value": v}))
                    .collect()
            })
            .unwrap_or_default();
        let time = e.duration_ms().unwrap_or(0.0);
        let (status, error) = match &e.state {
            NetState::Failed(why) => (0, Some(why.clone())),
            _ => (e.status.unwrap_or(0), None),
        };
        let mut entry = json!({
            "startedDateTime": rove_base::time::UtcTime::from_unix_seconds(e.wall_time.max(0.0)).iso8601(),
            "time": time,
            "request": {
                "method": e.method,
                "url": url,
                "httpVersion": http_version(&e.protocol),
                "cookies": [],
                "headers": har_headers(&e.request_headers),
                "queryString": query,
                "headersSize": -1,
                "bodySize": e.post_data_size.map_or(0, |n| n as i64),
            },
            "response": {
                "status": status,
                "statusText": e.status_text,
                "httpVersion": http_version(&e.protocol),
                "cookies": [],
                "headers": har_headers(&e.response_headers),
                "content": {"size": e.size.map_or(-1, |s| s as i64), "mimeType": e.mime_type},
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": e.size.map_or(-1, |s| s as i64),
            },
            "cache": {},
            "timings": {"send": 0, "wait": time, "receive": 0},
            "_resourceType": e.resource_type.to_ascii_lowercase(),
        });
        if let Some(data) = e.post_data.as_ref().filter(|_| with_body) {
            let mime = e
                .request_headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let text = rove_base::redact::hide_credential_fields(data, &mime);
            entry["request"]["postData"] =
                json!({"mimeType": mime, "text": self.config().secrets.redact(&text)});
        }
        if let Some(error) = error {
            entry["response"]["_error"] = Value::String(error);
        }
        entry
    }
}

/// Headers without credentials' values.
fn har_headers(headers: &[(String, String)]) -> Vec<Value> {
    headers
        .iter()
        .map(|(k, v)| {
            let secret = rove_base::redact::is_secret_header(k);
            json!({"name": k, "value": if secret { "(not exported)" } else { v.as_str() }})
        })
        .collect()
}

fn http_version(protocol: &str) -> String {
    match protocol {
        "" => "HTTP/1.1".into(),
        "h2" => "HTTP/2".into(),
        "h3" => "HTTP/3".into(),
        other => other.to_ascii_uppercase(),
    }
}
