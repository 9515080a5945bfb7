//! What a command did, one typed event per line of its answer.
//!
//! Code that decides something from an outcome (the agent's loop detection,
//! the cut-off of stale refs, whether a dialog or a new tab was already
//! reported) matches on these variants; the wording a model or a person
//! reads lives only in `Display`, so rewording a line cannot change a
//! decision.

use std::fmt;

use rove_browser::TabId;
use rove_page::Ref;
use serde::{Serialize, Serializer};

use crate::answer::fault::TabFault;
use crate::answer::quote_line;
use crate::{Direction, MouseButton};

/// How an element was clicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickKind {
    /// Twice with the left button.
    Double,
    /// Once with this button.
    Single(MouseButton),
    /// A canvas's fallback content (no box for the pointer), activated as a
    /// screen reader activates it: focused and sent a click.
    Activated,
}

/// What became of a JavaScript dialog the caller answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// OK.
    Accepted,
    /// Cancel.
    Dismissed,
}

/// What a screenshot showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shot {
    /// One element.
    Element(String),
    /// The whole page, beyond the viewport.
    FullPage,
    /// A rectangle the caller gave.
    Clip,
    /// What is on screen.
    Viewport,
}

/// One thing a command did or saw happen; renders as one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Happened {
    /// rove found the tab hung or crashed before the command, or while the
    /// session was idle, and dealt with it.
    TabFault {
        /// What happened and what rove did.
        fault: TabFault,
        /// The background probe found it between commands.
        while_idle: bool,
    },
    /// A locator resolved to the element the command then acted on.
    Located {
        /// The locator as given (`css=#save`).
        locator: String,
        /// The element's ref.
        target: Ref,
        /// Its role as the view shows it.
        role: String,
        /// Its name.
        name: String,
    },
    /// A click on an element.
    Clicked {
        /// Which click.
        kind: ClickKind,
        /// On what.
        target: Ref,
    },
    /// The pointer rests on an element.
    Hovering(Ref),
    /// Keys typed into whatever had the focus.
    TypedFocused {
        /// Characters typed.
        count: usize,
    },
    /// Keys typed into an element.
    Typed {
        /// Characters typed.
        count: usize,
        /// The field.
        target: Ref,
        /// The page removed the field afterwards.
        field_gone: bool,
    },
    /// A field's value replaced.
    Filled {
        /// The field.
        target: Ref,
        /// The page removed the field afterwards.
        field_gone: bool,
        /// An editor that draws only the lines in its view: the lines of
        /// the text that could be checked.
        shown_lines: Option<rove_input::ShownLines>,
        /// What became of the text in a combobox's list of options.
        list: rove_input::ListChoice,
    },
    /// A filled number field left with Tab, so that the app takes the
    /// number (it does when the field loses the focus).
    CommittedByTab {
        /// The field.
        target: Ref,
    },
    /// A key chord pressed (`Enter` after a submit).
    Pressed(String),
    /// Options now selected in a select, listbox or combobox.
    Selected {
        /// The control.
        target: Ref,
        /// The selected options' labels.
        options: Vec<String>,
    },
    /// A checkbox or switch set.
    Toggled {
        /// The control.
        target: Ref,
        /// Its state now.
        checked: bool,
        /// It was in that state already, so nothing was sent.
        already: bool,
    },
    /// A navigation the input started stopped without a new document.
    NavigationStopped,
    /// The input led to a new document.
    Navigated {
        /// Where.
        url: String,
        /// It finished loading.
        loaded: bool,
    },
    /// `wait` returned.
    Waited {
        /// How long it took.
        ms: u64,
    },
    /// A screenshot was over its byte budget and taken again smaller.
    Retaken {
        /// The budget in bytes.
        budget: usize,
        /// The JPEG quality of the new one.
        quality: u8,
    },
    /// A screenshot written to a file.
    ScreenshotSaved {
        /// What it shows.
        what: Shot,
        /// Where it is.
        path: String,
        /// Its size.
        bytes: usize,
        /// Its type.
        mime: &'static str,
    },
    /// Regions of an image of the page that showed a secret's value were
    /// painted black before it left rove.
    SecretsMasked {
        /// How many.
        regions: usize,
    },
    /// A screenshot returned inline.
    ScreenshotTaken {
        /// What it shows.
        what: Shot,
        /// Its size.
        bytes: usize,
        /// Its type.
        mime: &'static str,
    },
    /// A tab the command itself opened (`open --new-tab`, `tab new`).
    NewTab(TabId),
    /// The focus moved to a tab the caller named.
    SwitchedTo(TabId),
    /// The focus followed a tab an action opened.
    Followed {
        /// The new tab.
        tab: TabId,
        /// The tab it left, if any.
        back: Option<TabId>,
    },
    /// A tab closed by `tab close`.
    ClosedTab(TabId),
    /// The tab that has the focus after a close.
    NowOn(TabId),
    /// The last tab was closed.
    NoTabsLeft,
    /// A dialog the caller answered.
    DialogAnswered {
        /// OK or cancel.
        answer: Answer,
        /// `alert`, `confirm`, `prompt`, `beforeunload`.
        kind: String,
        /// Its text.
        message: String,
    },
    /// A dialog that opened right after the one answered.
    AnotherDialog {
        /// Its kind.
        kind: String,
        /// Its text.
        message: String,
    },
    /// The page opened so many dialogs in a row that the answer says how to
    /// leave it.
    DialogLoop {
        /// How many in a row.
        in_a_row: u32,
    },
    /// A tab a dialog blocked, closed so a navigation could go on elsewhere.
    LeftBlockedTab {
        /// The tab.
        tab: TabId,
        /// Where it was.
        url: String,
        /// The dialog's kind.
        kind: String,
        /// Its text.
        message: String,
    },
    /// `open` and friends arrived.
    Opened {
        /// Where.
        url: String,
        /// The HTTP status, when it was not 200.
        status: Option<u16>,
    },
    /// The page kept changing after its load event.
    StillChanging {
        /// For how long rove waited.
        secs: u64,
        /// How many changes rove saw after the load.
        changes: u64,
        /// Where the last one was (a landmark, or the heading before it).
        place: Option<String>,
    },
    /// rove could not watch the page settle after its load (why): the view
    /// is of the page as it was then.
    SettleUnwatched {
        /// Why.
        reason: String,
    },
    /// A screenshot's area was larger than a capture takes: its top-left
    /// part was captured (width and height in CSS pixels).
    ScreenshotCut {
        /// The area asked for.
        whole: (f64, f64),
        /// The part captured.
        part: (f64, f64),
    },
    /// `close` closed every tab of the session.
    ClosedAllTabs {
        /// How many.
        count: usize,
    },
    /// Files given to a file input.
    Uploaded {
        /// The input.
        target: Ref,
        /// The files.
        files: Vec<String>,
    },
    /// A request of the page's still pending past the bound (told once).
    RequestPending {
        /// `GET`, `POST` …
        method: String,
        /// Its address (credentials hidden).
        url: String,
        /// How long it has been pending.
        seconds: u64,
    },
    /// A solver plugin's answer solved a challenge (the page says so), or
    /// it was solved already (`plugin` empty).
    Solved {
        /// The widget.
        target: Ref,
        /// Its kind.
        kind: String,
        /// The plugin's file name.
        plugin: String,
        /// What rove did with the answer.
        how: String,
        /// From asking the plugin to the page saying solved.
        millis: u64,
    },
    /// An element scrolled into view.
    ScrolledIntoView(Ref),
    /// The page or an element scrolled.
    Scrolled {
        /// An element, or the page.
        what: Option<Ref>,
        /// Which way.
        direction: Direction,
        /// Pixels moved.
        moved: f64,
        /// The offset now.
        to: f64,
        /// The largest offset.
        max: f64,
    },
    /// A scroll that did not move anything.
    DidNotScroll {
        /// An element, or the page.
        what: Option<Ref>,
        /// Which way.
        direction: Direction,
    },
    /// An element dragged onto another.
    Dragged {
        /// From.
        from: Ref,
        /// Onto.
        to: Ref,
        /// The page's HTML5 drag and drop took it.
        html5: bool,
    },
    /// An `eval` result too long to show whole.
    ResultCut {
        /// Its length.
        chars: usize,
        /// How much is shown.
        shown: usize,
    },
    /// A secret's placeholder went out as written.
    SecretNotFilled {
        /// The placeholder.
        placeholder: String,
    },
    /// A popup outside the allowed domains, closed.
    ClosedPopup {
        /// Where it was.
        url: String,
    },
    /// A tab an action opened.
    OpenedTab {
        /// The tab.
        tab: TabId,
        /// Its URL (`about:blank` when it has none yet).
        at: String,
    },
    /// A request outside the allowed domains, refused.
    BlockedLoading {
        /// Its URL.
        url: String,
    },
    /// A dialog opened during the command.
    DialogOpened {
        /// Its kind.
        kind: String,
        /// Its text.
        message: String,
    },
    /// The view after the command is the same as before it.
    NothingChanged,
    /// A live region the page draws nowhere (a screen reader's announcer)
    /// said this since the last view.
    Announced(String),
    /// The command asked the page's server something over a WebSocket or an
    /// event stream, and settling stopped waiting before the answer was in.
    AwaitingServer {
        /// How long rove waited, in whole seconds.
        secs: u64,
        /// Part of the answer had come (the page was still receiving);
        /// else nothing had.
        answered: bool,
        /// The view changed anyway; else it is as before (and this line
        /// says so instead of "nothing visible changed").
        changed: bool,
    },
    /// Pointer input at coordinates (`mouse`), and the element under the
    /// pointer, when it was on one.
    Mouse(crate::answer::MouseDid, Option<String>),
}

impl Happened {
    /// Whether refs taken before this can name something else now: the tab
    /// has a new document, or another tab has the focus.
    pub fn changes_page(&self) -> bool {
        matches!(
            self,
            Happened::Navigated { loaded: true, .. }
                | Happened::SwitchedTo(_)
                | Happened::Followed { .. }
        )
    }

    /// Whether this says a dialog opened (so it is not reported twice).
    pub fn is_dialog_opened(&self) -> bool {
        matches!(
            self,
            Happened::DialogOpened { .. } | Happened::AnotherDialog { .. }
        )
    }

    /// Whether this says an answer of the page's server is still on its way.
    pub fn is_awaiting_server(&self) -> bool {
        matches!(self, Happened::AwaitingServer { .. })
    }

    /// Whether this is a scroll, which says itself how far it went.
    pub fn is_scroll(&self) -> bool {
        matches!(
            self,
            Happened::Scrolled { .. }
                | Happened::ScrolledIntoView(_)
                | Happened::Mouse(crate::answer::MouseDid::Wheeled { .. }, _)
        )
    }
}

impl fmt::Display for Shot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shot::Element(t) => write!(f, "element {t}"),
            Shot::FullPage => f.write_str("the full page"),
            Shot::Clip => f.write_str("the clip"),
            Shot::Viewport => f.write_str("the viewport"),
        }
    }
}

/// An element's ref, or "the page".
struct Scrollee(Option<Ref>);

impl fmt::Display for Scrollee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(r) => write!(f, "{r}"),
            None => f.write_str("the page"),
        }
    }
}

impl fmt::Display for Happened {
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per Happened variant, each its line"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::TabFault { fault, while_idle } => {
                f.write_str(&fault.describe())?;
                if *while_idle {
                    f.write_str(" (found while idle)")?;
                }
                Ok(())
            }
            Happened::Located {
                locator,
                target,
                role,
                name,
            } => {
                // The locator as the caller wrote it, on one line; the name
                // is the page's, quoted so it cannot start a line of its own.
                let flat: String = locator
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(200)
                    .collect();
                write!(f, "{flat} → {target}")?;
                if !role.is_empty() {
                    write!(f, " {role}")?;
                }
                if !name.is_empty() {
                    write!(f, " {}", quote_line(name))?;
                }
                Ok(())
            }
            Happened::Clicked { kind, target } => {
                let what = match kind {
                    ClickKind::Double => "double-clicked",
                    ClickKind::Single(MouseButton::Right) => "right-clicked",
                    ClickKind::Single(MouseButton::Middle) => "middle-clicked",
                    ClickKind::Single(MouseButton::Left) => "clicked",
                    ClickKind::Activated => {
                        return write!(
                            f,
                            "clicked {target} (canvas fallback content, no box for the pointer: focused and sent a click, as a screen reader does)"
                        );
                    }
                };
                write!(f, "{what} {target}")
            }
            Happened::Hovering(target) => write!(f, "hovering over {target}"),
            Happened::TypedFocused { count } => {
                write!(f, "typed {count} characters into the focused element")
            }
            Happened::Typed {
                count,
                target,
                field_gone,
            } => {
                write!(f, "typed {count} characters into {target}")?;
                if *field_gone {
                    f.write_str("; then the page took the field away")?;
                }
                Ok(())
            }
            Happened::Filled {
                target,
                field_gone,
                shown_lines,
                list,
            } => {
                write!(f, "filled {target}")?;
                match list {
                    rove_input::ListChoice::None => {}
                    rove_input::ListChoice::Chose(option) => {
                        write!(f, ": chose the option {option:?} from its list")?
                    }
                    rove_input::ListChoice::Offers(options) => write!(
                        f,
                        "; its list offers {} (the text is typed, not chosen: select {target} with one to choose it)",
                        options
                            .iter()
                            .take(5)
                            .map(|o| quote_line(o))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )?,
                    rove_input::ListChoice::KeptText => f.write_str(
                        " and committed it with Tab (none of its options holds the text, and it kept the text)",
                    )?,
                }
                if let Some(lines) = shown_lines {
                    write!(
                        f,
                        " (the editor draws only lines {} to {} of the {} sent: those were checked)",
                        lines.first, lines.last, lines.of
                    )?;
                }
                if *field_gone {
                    f.write_str("; then the page took the field away")?;
                }
                Ok(())
            }
            Happened::Pressed(keys) => write!(f, "pressed {keys}"),
            Happened::Announced(said) => write!(f, "the page announced {}", quote_line(said)),
            Happened::CommittedByTab { target } => write!(
                f,
                "left {target} with Tab to commit the number (such fields take it when they lose the focus)"
            ),
            Happened::Selected { target, options } => {
                let quoted: Vec<String> = options.iter().map(|s| quote_line(s)).collect();
                write!(f, "{target} now has {} selected", quoted.join(", "))
            }
            Happened::Toggled {
                target,
                checked,
                already,
            } => {
                let state = if *checked { "checked" } else { "unchecked" };
                if *already {
                    write!(f, "{target} was already {state}; nothing sent")
                } else {
                    write!(f, "{target} is now {state}")
                }
            }
            Happened::NavigationStopped => {
                f.write_str("the navigation it started ended without a new page")
            }
            Happened::Navigated { url, loaded: true } => write!(f, "navigated to {url}"),
            Happened::Navigated { url, loaded: false } => {
                write!(f, "navigating to {url} (still loading)")
            }
            Happened::Waited { ms } => write!(f, "waited {ms} ms"),
            Happened::Retaken { budget, quality } => write!(
                f,
                "over the {budget}-byte budget: retaken as JPEG at quality {quality}"
            ),
            Happened::ScreenshotSaved {
                what,
                path,
                bytes,
                mime,
            } => write!(
                f,
                "saved a screenshot of {what} to {path} ({bytes} bytes, {mime})"
            ),
            Happened::SecretsMasked { regions } => write!(
                f,
                "masked {regions} region{} of the image that showed a secret's value (painted black)",
                if *regions == 1 { "" } else { "s" }
            ),
            Happened::ScreenshotTaken { what, bytes, mime } => {
                write!(f, "took a screenshot of {what} ({bytes} bytes, {mime})")
            }
            Happened::NewTab(tab) => write!(f, "new tab {tab}"),
            Happened::SwitchedTo(tab) => write!(f, "switched to {tab}"),
            Happened::Followed { tab, back } => {
                let back = back.map(|t| t.to_string()).unwrap_or_default();
                write!(
                    f,
                    "switched to {tab} (tab(action=switch, tab={back}) goes back)"
                )
            }
            Happened::ClosedTab(tab) => write!(f, "closed {tab}"),
            Happened::NowOn(tab) => write!(f, "now on {tab}"),
            Happened::NoTabsLeft => f.write_str("no tabs left; open a URL to start again"),
            Happened::DialogAnswered {
                answer,
                kind,
                message,
            } => {
                let verb = match answer {
                    Answer::Accepted => "accepted",
                    Answer::Dismissed => "dismissed",
                };
                write!(f, "{verb} the {kind} {}", quote_line(message))
            }
            Happened::AnotherDialog { kind, message } => {
                write!(f, "another {kind} dialog opened: {}", quote_line(message))
            }
            Happened::DialogLoop { in_a_row } => write!(
                f,
                "this page has opened {in_a_row} dialogs in a row; to leave it, open another URL (rove closes this tab, dialogs and all, and opens the URL in a new one)"
            ),
            Happened::LeftBlockedTab {
                tab,
                url,
                kind,
                message,
            } => write!(
                f,
                "left {tab} at {url}: {} dialog blocked it ({}); rove closed it",
                rove_errors::with_article(kind),
                quote_line(message)
            ),
            Happened::Opened { url, status } => match status {
                Some(status) if *status != 200 => write!(f, "opened {url} (HTTP {status})"),
                _ => write!(f, "opened {url}"),
            },
            Happened::StillChanging {
                secs,
                changes,
                place,
            } => {
                let place = match place {
                    Some(place) => format!(", the last in {place}"),
                    None => String::new(),
                };
                write!(
                    f,
                    "the page was still changing {secs} s after it loaded ({changes} changes{place}); the view may be incomplete (snapshot again, or wait(text=…) for what you expect)"
                )
            }
            Happened::SettleUnwatched { reason } => write!(
                f,
                "rove could not watch the page settle after it loaded ({reason}); the view is of the page at its load event and may be incomplete (snapshot again, or wait(text=…) for what you expect)"
            ),
            Happened::ScreenshotCut { whole, part } => write!(
                f,
                "the area is {} × {} px, more than a screenshot takes ({} px a side, {} pixels in all): captured its top-left {} × {} px; for another part give a clip (x, y, width, height) or the ref of an element",
                whole.0,
                whole.1,
                crate::MAX_SIDE,
                crate::MAX_PIXELS,
                part.0,
                part.1
            ),
            Happened::ClosedAllTabs { count } => write!(
                f,
                "closed the session's {count} tab(s); open a URL to start again"
            ),
            Happened::RequestPending {
                method,
                url,
                seconds,
            } => {
                // The page's own origin is left out, as a view's links.
                let shown = url
                    .split_once("://")
                    .and_then(|(_, rest)| rest.find('/').map(|at| &rest[at..]))
                    .unwrap_or(url);
                let shown =
                    rove_base::text::ellipsized(&rove_base::text::clean(shown.to_owned()), 120);
                write!(f, "note: {method} {shown} pending {seconds} s")
            }
            Happened::Solved {
                target,
                kind,
                plugin,
                ..
            } if plugin.is_empty() => {
                write!(f, "{target} ({kind}) is solved already; nothing was sent")
            }
            Happened::Solved {
                target,
                kind,
                plugin,
                how,
                millis,
            } => write!(
                f,
                "solved {target} ({kind}) with the plugin {plugin}: {how}; the page says solved after {:.1} s",
                *millis as f64 / 1000.0
            ),
            Happened::Uploaded { target, files } => write!(
                f,
                "gave {target} {} file{}: {}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                files.join(", ")
            ),
            Happened::ScrolledIntoView(target) => write!(f, "scrolled {target} into view"),
            Happened::Scrolled {
                what,
                direction,
                moved,
                to,
                max,
            } => {
                let what = Scrollee(*what);
                let dir = format!("{direction:?}").to_lowercase();
                let forward = matches!(direction, Direction::Down | Direction::Right);
                let at_end = if *to >= max - 1.0 && forward {
                    " (the end)"
                } else if *to < 1.0 {
                    " (the start)"
                } else {
                    ""
                };
                write!(
                    f,
                    "scrolled {what} {dir} {moved:.0} px: now at {to:.0} of {max:.0}{at_end}"
                )
            }
            Happened::DidNotScroll { what, direction } => {
                let edge = match direction {
                    Direction::Down => "bottom",
                    Direction::Up => "top",
                    Direction::Left => "left edge",
                    Direction::Right => "right edge",
                };
                write!(
                    f,
                    "{} did not move: it is at its {edge} or does not scroll",
                    Scrollee(*what)
                )
            }
            Happened::Dragged { from, to, html5 } => {
                write!(f, "dragged {from} onto {to}")?;
                if *html5 {
                    f.write_str(" (the page's drag and drop took it)")?;
                }
                Ok(())
            }
            Happened::ResultCut { chars, shown } => write!(
                f,
                "the result has {chars} characters; the first {shown} are shown"
            ),
            Happened::SecretNotFilled { placeholder } => write!(
                f,
                "{placeholder} was sent as written, not as its value: a secret is filled in only as the text of type or fill, in a field of a page on its domain"
            ),
            Happened::ClosedPopup { url } => {
                write!(
                    f,
                    "closed a tab opened at {url} (outside the allowed domains)"
                )
            }
            Happened::OpenedTab { tab, at } => write!(f, "opened tab {tab} at {at}"),
            Happened::BlockedLoading { url } => {
                write!(f, "blocked loading {url} (outside the allowed domains)")
            }
            Happened::DialogOpened { kind, message } => write!(
                f,
                "{} dialog opened: {}",
                rove_errors::with_article(kind),
                quote_line(message)
            ),
            Happened::NothingChanged => f.write_str("nothing visible changed"),
            Happened::AwaitingServer {
                secs,
                answered,
                changed,
            } => {
                let receiving = if *answered {
                    "the page is still receiving its server's answer"
                } else {
                    "the page is still waiting for its server's answer"
                };
                if *changed {
                    write!(
                        f,
                        "after {secs} s {receiving}; more may change (wait, then snapshot)"
                    )
                } else {
                    write!(
                        f,
                        "no change yet after {secs} s; {receiving} (wait, then snapshot)"
                    )
                }
            }
            Happened::Mouse(did, over) => f.write_str(&did.line(over.as_deref())),
        }
    }
}

/// On the wire (JSON answers, histories) a line is its text, as before the
/// type existed.
impl Serialize for Happened {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
#[path = "happened_tests.rs"]
mod tests;
