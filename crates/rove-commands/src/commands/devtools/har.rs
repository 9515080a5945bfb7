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
            "startedDateTime": iso_time(e.wall_time),
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
            let secret = crate::commands::devtools::network::is_secret_header(k);
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

/// Seconds since the epoch as an ISO 8601 time in UTC.
fn iso_time(seconds: f64) -> String {
    let millis = (seconds * 1000.0).max(0.0) as i64;
    let (days, rest) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    // The civil date of a day count: shift the epoch to 0000-03-01 so leap
    // days fall at the end of a year, then count 400-year eras.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_iso_8601_in_utc() {
        assert_eq!(super::iso_time(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::iso_time(1_764_592_496.5), "2025-12-01T12:34:56.500Z");
    }
}
