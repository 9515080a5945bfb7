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
    /// The frame of its open image challenge.
    #[serde(default)]
    pub cu: Option<u32>,
    /// An image captcha's text field, where its answer is typed.
    #[serde(default)]
    pub af: Option<u32>,
}

/// What a widget's own frame says of it (its checkbox, its expiry).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct InnerState {
    pub k: String,
    pub s: String,
    /// An image challenge's tiles, row by row.
    #[serde(default)]
    pub tiles: Vec<u32>,
    /// Its button that submits the chosen tiles.
    #[serde(default)]
    pub verify: Option<u32>,
    /// What it asks for.
    #[serde(default, deserialize_with = "cleaned_opt")]
    pub text: Option<String>,
    #[serde(default)]
    pub rows: u32,
    #[serde(default)]
    pub cols: u32,
}

fn cleaned_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d).map(|s| s.map(clean))
}

/// An open image challenge, as a solver needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageChallenge {
    /// The frame it shows in (what a picture of it is taken of).
    pub frame: crate::Ref,
    /// Its tiles, row by row: a solver's cell `n` (from 1) is `tiles[n-1]`.
    pub tiles: Vec<crate::Ref>,
    /// The button that submits the tiles chosen.
    pub verify: Option<crate::Ref>,
    /// What it asks for ("Select all images with traffic lights").
    pub instructions: String,
    /// Rows and columns of its grid.
    pub grid: (u32, u32),
}

/// What a widget is answered through, by element, until refs are given:
/// the tiles of its open image challenge, or an image captcha's field.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct WidgetParts {
    challenge: Option<TileKeys>,
    field: Option<NodeKey>,
}

/// An image challenge's parts, by element, until refs are given.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TileKeys {
    frame: NodeKey,
    tiles: Vec<NodeKey>,
    verify: Option<NodeKey>,
    text: String,
    grid: (u32, u32),
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
    /// Its open image challenge, while `state` is `challenge`.
    pub image: Option<ImageChallenge>,
    /// An image captcha's (kind `image`) text field, where its answer is
    /// typed.
    pub field: Option<crate::Ref>,
}

impl Challenge {
    /// Whether a person (or a solver) has something to do: an invisible
    /// widget, a solved one and an image captcha whose field holds an
    /// answer (`answered`: the page checks it when its form is sent) do
    /// not stop anyone.
    pub fn blocks(&self) -> bool {
        matches!(self.state.as_str(), "unsolved" | "challenge" | "expired")
    }
}

/// Every frame's findings, gathered while the frames are stitched.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    findings: Vec<(Arc<str>, Finding)>,
    /// What each widget frame said (with its document's token), by the
    /// element that shows the frame.
    inner: HashMap<NodeKey, (Arc<str>, InnerState)>,
}

impl Gathered {
    pub fn add(&mut self, doc: &Arc<str>, findings: &[Finding]) {
        self.findings
            .extend(findings.iter().map(|f| (doc.clone(), f.clone())));
    }

    pub fn add_inner(&mut self, frame_element: NodeKey, doc: &Arc<str>, inner: &InnerState) {
        self.inner
            .insert(frame_element, (doc.clone(), inner.clone()));
    }

    /// One line per widget, in the order the frames were read, and what
    /// each is answered through. A frame's word on expiry or a checked box
    /// counts only while the page holding it has no token: its response
    /// field is what the site reads.
    pub fn lines(self) -> (Vec<Line>, HashMap<NodeKey, WidgetParts>) {
        let Gathered {
            findings,
            mut inner,
        } = self;
        let mut lines: Vec<Line> = Vec::new();
        let mut parts = HashMap::new();
        for (doc, finding) in findings {
            let at = |uid: u32| NodeKey {
                doc: doc.clone(),
                uid,
            };
            let mut answered_by = WidgetParts {
                field: finding.af.map(at),
                ..WidgetParts::default()
            };
            if let Some(frame) = finding.cu.map(at)
                && let Some((inside, open)) = inner.remove(&frame)
            {
                answered_by.challenge = Some(TileKeys::of(frame, &inside, &open));
            }
            if answered_by != WidgetParts::default() {
                parts.insert(at(finding.u), answered_by);
            }
            let frame_key = finding.fu.map(|uid| NodeKey {
                doc: doc.clone(),
                uid,
            });
            let from_frame = frame_key.and_then(|k| inner.remove(&k)).map(|(_, s)| s);
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
        // Not a challenge frame: its holder hides it until it is asked for.
        for (key, (_, frame)) in inner {
            if frame.s != "challenge" {
                lines.push(line(key, &frame.k, &frame.s, None));
            }
        }
        (lines, parts)
    }
}

impl TileKeys {
    /// The parts of the challenge shown in frame `frame` (its iframe
    /// element), from what its document said.
    fn of(frame: NodeKey, inside: &Arc<str>, open: &InnerState) -> TileKeys {
        let key = |uid: u32| NodeKey {
            doc: inside.clone(),
            uid,
        };
        TileKeys {
            frame,
            tiles: open.tiles.iter().map(|u| key(*u)).collect(),
            verify: open.verify.map(key),
            text: open.text.clone().unwrap_or_default(),
            grid: (open.rows, open.cols),
        }
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

/// The challenges among `lines`, with the refs `refs` gave them, and what
/// each is answered through.
pub(crate) fn challenges(
    lines: &[Line],
    parts: &HashMap<NodeKey, WidgetParts>,
    refs: &mut crate::refs::RefTable,
) -> Vec<Challenge> {
    lines
        .iter()
        .filter(|l| l.text_index == CHALLENGE_LINE && l.record.role == CHALLENGE_ROLE)
        .map(|l| {
            let own = parts.get(&l.key);
            let answer_field = own
                .and_then(|p| p.field.as_ref())
                .map(|k| refs.get_or_assign(k));
            let image = own
                .and_then(|p| p.challenge.as_ref())
                .map(|t| ImageChallenge {
                    frame: refs.get_or_assign(&t.frame),
                    tiles: t.tiles.iter().map(|k| refs.get_or_assign(k)).collect(),
                    verify: t.verify.as_ref().map(|k| refs.get_or_assign(k)),
                    instructions: t.text.clone(),
                    grid: t.grid,
                });
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
                image,
                field: answer_field,
            }
        })
        .collect()
}
