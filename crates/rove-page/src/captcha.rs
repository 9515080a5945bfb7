//! Challenges (captchas and bot walls) the walker recognised, as the one
//! line each a view shows first: `captcha e12 kind=recaptcha-v2
//! state=unsolved`. What recognises them is `captcha.js`, in the walker.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;

use crate::record::{Line, Record, clean};
use crate::refs::NodeKey;

/// The `text_index` of a challenge's line: the line keeps its own identity
/// beside the widget element's own line (an iframe's, a text field's), so
/// a diff tells a change of state from a change of the element.
pub(crate) const CHALLENGE_LINE: u16 = u16::MAX;

/// The role a challenge's line carries.
pub(crate) const CHALLENGE_ROLE: &str = "captcha";

/// One widget as captcha.js reports it in its document.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct Finding {
    /// The widget's element (what `solve` takes).
    pub u: u32,
    /// Its kind (`recaptcha-v2`, `hcaptcha` …).
    pub k: String,
    /// Its state as the page holding it shows it.
    pub s: String,
    /// The site key the page gave the widget.
    #[serde(default)]
    pub key: Option<String>,
    /// The widget's own frame, whose document may know more (expiry).
    #[serde(default)]
    pub fu: Option<u32>,
}

/// What a widget's own frame says of it (its checkbox, its expiry).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct InnerState {
    pub k: String,
    pub s: String,
}

/// A challenge on the page, as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The ref `solve` takes.
    pub reference: crate::Ref,
    /// `recaptcha-v2`, `recaptcha-v3`, `hcaptcha`, `turnstile`,
    /// `cloudflare-interstitial`, `arkose` or `image`.
    pub kind: String,
    /// `unsolved`, `challenge`, `solved`, `expired` or `passive`.
    pub state: String,
    /// The site key the page gave the widget, when it shows one.
    pub site_key: Option<String>,
}

impl Challenge {
    /// Whether a person (or a solver) has something to do: an invisible
    /// widget and a solved one do not stop anyone.
    pub fn blocks(&self) -> bool {
        matches!(self.state.as_str(), "unsolved" | "challenge" | "expired")
    }
}

/// Every frame's findings, gathered while the frames are stitched.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    findings: Vec<(Arc<str>, Finding)>,
    /// What each widget frame said, by the element that shows the frame.
    inner: HashMap<NodeKey, InnerState>,
}

impl Gathered {
    pub fn add(&mut self, doc: &Arc<str>, findings: &[Finding]) {
        self.findings
            .extend(findings.iter().map(|f| (doc.clone(), f.clone())));
    }

    pub fn add_inner(&mut self, frame_element: NodeKey, inner: &InnerState) {
        self.inner.insert(frame_element, inner.clone());
    }

    /// One line per widget, in the order the frames were read. A frame's
    /// word on expiry or a checked box counts only while the page holding
    /// it has no token: its response field is what the site reads.
    pub fn lines(self) -> Vec<Line> {
        let Gathered {
            findings,
            mut inner,
        } = self;
        let mut lines: Vec<Line> = Vec::new();
        for (doc, finding) in findings {
            let frame_key = finding.fu.map(|uid| NodeKey {
                doc: doc.clone(),
                uid,
            });
            let from_frame = frame_key.and_then(|k| inner.remove(&k));
            let state = match (finding.s.as_str(), from_frame) {
                ("unsolved", Some(frame)) if frame.s == "expired" => "expired".to_owned(),
                (own, _) => own.to_owned(),
            };
            let key = NodeKey {
                doc,
                uid: finding.u,
            };
            lines.push(line(key, &finding.k, &state, finding.key));
        }
        // A widget frame whose holder named no widget (the holder's markup
        // is not the vendor's) still shows: its frame element is the ref.
        for (key, frame) in inner {
            lines.push(line(key, &frame.k, &frame.s, None));
        }
        lines
    }
}

fn line(key: NodeKey, kind: &str, state: &str, site_key: Option<String>) -> Line {
    Line {
        key,
        text_index: CHALLENGE_LINE,
        depth: 0,
        record: Record {
            role: CHALLENGE_ROLE.to_owned(),
            value: Some(clean(format!("kind={kind} state={state}"))),
            // The site key rides where a view never shows it for this
            // role: `solve` sends it, the model does not need it.
            hint: site_key.map(clean),
            ..Record::default()
        },
    }
}

/// The challenges among `lines`, with the refs `refs` gave them.
pub(crate) fn challenges(lines: &[Line], refs: &mut crate::refs::RefTable) -> Vec<Challenge> {
    lines
        .iter()
        .filter(|l| l.text_index == CHALLENGE_LINE && l.record.role == CHALLENGE_ROLE)
        .map(|l| {
            let reference = refs.get_or_assign(&l.key);
            let value = l.record.value.as_deref().unwrap_or_default();
            let field = |name: &str| {
                value
                    .split(' ')
                    .find_map(|w| w.strip_prefix(name))
                    .unwrap_or_default()
                    .to_owned()
            };
            Challenge {
                reference,
                kind: field("kind="),
                state: field("state="),
                site_key: l.record.hint.clone(),
            }
        })
        .collect()
}
