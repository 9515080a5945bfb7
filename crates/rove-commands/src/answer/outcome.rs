//! What a command did, in the one shape every face renders.

use rove_browser::TabId;
use rove_page::View;
use serde_json::{Value, json};

use crate::answer::data::Data;
use crate::answer::happened::Happened;

/// An image a command produced (a screenshot returned inline).
#[derive(Debug, Clone)]
pub struct Image {
    /// `image/png` or `image/jpeg`.
    pub mime: &'static str,
    /// The encoded bytes.
    pub bytes: Vec<u8>,
}

/// A finished download.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    /// Where the file is now.
    pub path: std::path::PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The URL it came from.
    pub url: String,
}

/// Where a command's time went, in milliseconds (see `rove_cdp::meter`):
/// `settle` is the waiting for the page (to settle after input, to load
/// and settle after a navigation), `cdp` the time outside it with a CDP
/// request awaiting its answer (the union of the round trips), and `rove`
/// the rest. The three add up to `total`,
/// which runs from when the session took the command to its answer (a
/// trace's screenshots are outside it).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    /// The whole command.
    pub total_ms: f64,
    /// Awaiting the browser's answers.
    pub cdp_ms: f64,
    /// Waiting for the page to settle after an action.
    pub settle_ms: f64,
    /// rove's own work: the rest.
    pub rove_ms: f64,
}

impl Timing {
    /// The timing of a command that took `total`, split by its meter.
    pub fn of(total: std::time::Duration, split: rove_cdp::meter::Split) -> Timing {
        let ms = |d: std::time::Duration| (d.as_secs_f64() * 10_000.0).round() / 10.0;
        let total_ms = ms(total);
        let cdp_ms = ms(split.cdp).min(total_ms);
        let settle_ms = ms(split.settle).min(total_ms - cdp_ms);
        Timing {
            total_ms,
            cdp_ms,
            settle_ms,
            rove_ms: ((total_ms - cdp_ms - settle_ms) * 10.0).round() / 10.0,
        }
    }
}

/// What a command did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The tab the command ended on.
    pub tab: TabId,
    /// What happened, one line each when rendered: "clicked e7",
    /// "navigated to …", "opened tab t2", "nothing visible changed".
    pub happened: Vec<Happened>,
    /// The view after the command (a diff by default), or the view asked for.
    pub view: Option<View>,
    /// The command's result beside the view: a text (a page read as
    /// markdown, the tab list), an evaluated value, a file saved.
    pub data: Option<Data>,
    /// A screenshot returned inline.
    pub image: Option<Image>,
    /// Files the command downloaded.
    pub downloads: Vec<Download>,
    /// Where the command's time went.
    pub timing: Timing,
    /// Where a click pressed, in CSS pixels of the viewport (a trace draws
    /// it on the page's frames); not part of the answer's text.
    pub pointer: Option<(f64, f64)>,
}

impl Outcome {
    pub(crate) fn new(tab: TabId) -> Self {
        Outcome {
            tab,
            happened: Vec::new(),
            view: None,
            data: None,
            image: None,
            downloads: Vec::new(),
            timing: Timing::default(),
            pointer: None,
        }
    }

    /// The text a model or a terminal reads: what happened, then the data,
    /// then the view.
    pub fn text(&self) -> String {
        self.text_with(true)
    }

    /// What a shell shows for `eval`: the value itself first (a string
    /// bare, as `rove eval 'document.title'` is asked for, anything else as
    /// JSON), then what happened and the view. A bare string is the page's:
    /// control characters other than line breaks and tabs are dropped so it
    /// cannot drive the terminal.
    pub fn text_value_first(&self) -> String {
        let Some(value) = self.result() else {
            return self.text();
        };
        let mut text = match value {
            Value::String(s) => s
                .chars()
                .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
                .collect(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&self.text_with(false));
        text
    }

    /// `text`, with or without the data.
    fn text_with(&self, data: bool) -> String {
        let mut text = String::new();
        for line in &self.happened {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        for d in &self.downloads {
            text.push_str(&format!(
                "downloaded {} ({} bytes) from {}\n",
                d.path.display(),
                d.bytes,
                d.url
            ));
        }
        if let Some(shown) = self.data.as_ref().filter(|_| data) {
            shown.push_text(&mut text);
        }
        if let Some(view) = &self.view {
            text.push_str(&view.text);
        }
        text
    }

    /// The value the command evaluated (`eval`, `get`), when it gave one.
    pub fn result(&self) -> Option<&Value> {
        self.data.as_ref().and_then(Data::result)
    }

    /// The text the command gave as its data (`read`, `tab list`,
    /// `cookies` …), when it gave one.
    pub fn data_text(&self) -> Option<&str> {
        self.data.as_ref().and_then(Data::as_text)
    }

    /// What happened, as the lines a reader sees.
    pub fn happened_lines(&self) -> Vec<String> {
        self.happened.iter().map(ToString::to_string).collect()
    }

    /// Where the command clicked or pressed, in CSS pixels of the
    /// viewport: a click's point, or a `mouse` call's (a trace draws it on
    /// the page's frames).
    pub fn pressed_at(&self) -> Option<[f64; 2]> {
        use crate::answer::MouseDid;
        if let Some((x, y)) = self.pointer {
            return Some([x, y]);
        }
        self.happened.iter().find_map(|h| match h {
            Happened::Mouse(MouseDid::Clicked { at, .. } | MouseDid::Pressed { at, .. }, _) => {
                Some([at.0, at.1])
            }
            _ => None,
        })
    }

    /// Whether any of what happened is `what`.
    pub fn saw(&self, what: impl Fn(&Happened) -> bool) -> bool {
        self.happened.iter().any(what)
    }

    /// The outcome as one JSON object (without the image bytes).
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "tab": self.tab.to_string(),
            "happened": self.happened_lines(),
        });
        if let Some(view) = &self.view {
            out["view"] = Value::String(view.text.clone());
            out["url"] = Value::String(view.url.clone());
            out["title"] = Value::String(view.title.clone());
            out["tokens"] = json!(view.tokens);
            if !view.found.is_empty() {
                // `find`'s matches, typed for programs (the Python
                // package's `Result.matches`); the view says the same.
                out["matches"] = view
                    .found
                    .iter()
                    .map(
                        |m| json!({"ref": m.reference.to_string(), "role": m.role, "name": m.name}),
                    )
                    .collect();
            }
        }
        if let Some(data) = &self.data {
            out["data"] = data.to_json();
        }
        if let Some(image) = &self.image {
            out["image"] = json!({"mime": image.mime, "bytes": image.bytes.len()});
        }
        let pending: Vec<Value> = self
            .happened
            .iter()
            .filter_map(|h| match h {
                Happened::RequestPending {
                    method,
                    url,
                    seconds,
                } => Some(json!({"method": method, "url": url, "seconds": seconds})),
                _ => None,
            })
            .collect();
        if !pending.is_empty() {
            // Typed, for programs: the requests the page still waits on.
            out["pending"] = Value::Array(pending);
        }
        out["timing"] = json!(self.timing);
        if !self.downloads.is_empty() {
            out["downloads"] = self
                .downloads
                .iter()
                .map(|d| json!({"path": d.path, "bytes": d.bytes, "url": d.url}))
                .collect();
        }
        out
    }
}
