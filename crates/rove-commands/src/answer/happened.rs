//! What a command did, one typed event per line of its answer.
//!
//! Code that decides something from an outcome (the agent's loop detection,
//! the cut-off of stale refs, whether a dialog or a new tab was already
//! reported) matches on these variants; the wording a model or a person
//! reads lives only in `Display` (`happened_text.rs`), so rewording a line
//! cannot change a decision.

use std::fmt;

use rove_browser::TabId;
use rove_page::Ref;
use serde::{Serialize, Serializer};

use crate::answer::fault::TabFault;
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
    /// A desktop control, pressed through its accessibility action.
    Action,
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
    /// A desktop application's windows.
    Window,
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
    /// A desktop application became the session's target.
    DesktopTarget {
        /// Its name on the accessibility bus.
        app: String,
        /// Its process.
        pid: Option<u32>,
        /// rove started it (it ends when the target is left).
        started: bool,
    },
    /// The action ended the desktop application (a dialog's button); the
    /// session is back on its tab.
    DesktopAppExited {
        /// The application.
        app: String,
        /// Its exit code, when it exited by itself.
        code: Option<i32>,
    },
    /// The session went back from a desktop application to its tab.
    LeftDesktop {
        /// The application.
        app: String,
    },
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
    /// A solver plugin's text was typed into an image captcha's field: as
    /// far as the page shows before its form is sent (never "solved").
    Answered {
        /// The captcha's image.
        target: Ref,
        /// Its kind (`image`).
        kind: String,
        /// The plugin's file name.
        plugin: String,
        /// What rove did with the answer.
        how: String,
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
    /// The mouse wheel turned over a desktop application's element or
    /// window (its diff shows what moved).
    WheelTurned {
        /// An element, or the window.
        what: Option<Ref>,
        /// Which way.
        direction: Direction,
        /// Wheel steps sent.
        notches: u32,
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
    /// The same as before in the part of the page a diff reads; the page
    /// goes on past it, unread.
    NothingChangedInPart,
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
                | Happened::WheelTurned { .. }
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
            Shot::Window => f.write_str("the window"),
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

#[path = "happened_text.rs"]
mod text;
