//! The wording of each [`Happened`] line: the one place a model or a
//! person reads what a command did (decisions match on the variants).

use std::fmt;

use rove_page::Ref;

use super::{Answer, ClickKind, Happened, Scrollee};
use crate::answer::fault::TabFault;
use crate::answer::quote_line;
use crate::{Direction, MouseButton};

impl fmt::Display for Happened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each variant is in one family, written by its own function; the
        // match stays whole, so a new variant must be given a family.
        match self {
            Happened::Located { .. }
            | Happened::Clicked { .. }
            | Happened::Hovering(..)
            | Happened::TypedFocused { .. }
            | Happened::Typed { .. }
            | Happened::Filled { .. }
            | Happened::Pressed(..)
            | Happened::CommittedByTab { .. }
            | Happened::Selected { .. }
            | Happened::Toggled { .. }
            | Happened::Dragged { .. }
            | Happened::Uploaded { .. }
            | Happened::SecretNotFilled { .. }
            | Happened::Announced(..)
            | Happened::Mouse(..)
            | Happened::ScrolledIntoView(..)
            | Happened::Scrolled { .. }
            | Happened::DidNotScroll { .. }
            | Happened::WheelTurned { .. }
            | Happened::Solved { .. }
            | Happened::Answered { .. } => self.input_line(f),
            Happened::TabFault { .. }
            | Happened::NewTab(..)
            | Happened::SwitchedTo(..)
            | Happened::Followed { .. }
            | Happened::ClosedTab(..)
            | Happened::NowOn(..)
            | Happened::NoTabsLeft
            | Happened::ClosedAllTabs { .. }
            | Happened::ClosedPopup { .. }
            | Happened::OpenedTab { .. }
            | Happened::DialogAnswered { .. }
            | Happened::AnotherDialog { .. }
            | Happened::DialogLoop { .. }
            | Happened::LeftBlockedTab { .. }
            | Happened::DialogOpened { .. } => self.tab_line(f),
            Happened::NavigationStopped
            | Happened::Navigated { .. }
            | Happened::Opened { .. }
            | Happened::Waited { .. }
            | Happened::StillChanging { .. }
            | Happened::SettleUnwatched { .. }
            | Happened::RequestPending { .. }
            | Happened::BlockedLoading { .. }
            | Happened::NothingChanged
            | Happened::NothingChangedInPart
            | Happened::AwaitingServer { .. }
            | Happened::ResultCut { .. } => self.page_line(f),
            Happened::Retaken { .. }
            | Happened::ScreenshotSaved { .. }
            | Happened::SecretsMasked { .. }
            | Happened::ScreenshotTaken { .. }
            | Happened::ScreenshotCut { .. } => self.screenshot_line(f),
            Happened::DesktopTarget { .. }
            | Happened::DesktopAppExited { .. }
            | Happened::LeftDesktop { .. } => self.desktop_line(f),
        }
    }
}

impl Happened {
    /// What a command did to the page's elements and keys.
    fn input_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::Located {
                locator,
                target,
                role,
                name,
            } => located(f, locator, *target, role, name),
            Happened::Clicked { kind, target } => clicked(f, *kind, *target),
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
            } => filled(f, *target, *field_gone, shown_lines.as_ref(), list),
            Happened::Pressed(keys) => write!(f, "pressed {keys}"),
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
            Happened::Dragged { from, to, html5 } => {
                write!(f, "dragged {from} onto {to}")?;
                if *html5 {
                    f.write_str(" (the page's drag and drop took it)")?;
                }
                Ok(())
            }
            Happened::Uploaded { target, files } => write!(
                f,
                "gave {target} {} file{}: {}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                files.join(", ")
            ),
            Happened::SecretNotFilled { placeholder } => write!(
                f,
                "{placeholder} was sent as written, not as its value: a secret is filled in only as the text of type or fill, in a field of a page on its domain"
            ),
            Happened::Announced(said) => write!(f, "the page announced {}", quote_line(said)),
            Happened::Mouse(did, over) => f.write_str(&did.line(over.as_deref())),
            Happened::ScrolledIntoView(target) => write!(f, "scrolled {target} into view"),
            Happened::Scrolled {
                what,
                direction,
                moved,
                to,
                max,
            } => scrolled(f, *what, *direction, *moved, *to, *max),
            Happened::DidNotScroll { what, direction } => did_not_scroll(f, *what, *direction),
            Happened::WheelTurned {
                what,
                direction,
                notches,
            } => {
                let steps = if *notches == 1 { "step" } else { "steps" };
                let way = format!("{direction:?}").to_lowercase();
                match what {
                    Some(r) => write!(f, "turned the wheel {notches} {steps} {way} over {r}"),
                    None => write!(
                        f,
                        "turned the wheel {notches} {steps} {way} over the window"
                    ),
                }
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
            Happened::Answered {
                target,
                kind,
                plugin,
                how,
            } => write!(
                f,
                "answered {target} ({kind}) with the plugin {plugin}: {how}; the page checks it when its form is sent"
            ),
            // `fmt` sends only this family here; a variant sent to the
            // wrong one would show in its debug form, which the line tests
            // (`happened_tests.rs`) catch.
            other => write!(f, "{other:?}"),
        }
    }

    /// Tabs opened, switched, closed, and the dialogs that block them.
    fn tab_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::TabFault { fault, while_idle } => tab_fault(f, fault, *while_idle),
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
            Happened::ClosedAllTabs { count } => write!(
                f,
                "closed the session's {count} tab(s); open a URL to start again"
            ),
            Happened::ClosedPopup { url } => {
                write!(
                    f,
                    "closed a tab opened at {url} (outside the allowed domains)"
                )
            }
            Happened::OpenedTab { tab, at } => write!(f, "opened tab {tab} at {at}"),
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
            Happened::DialogOpened { kind, message } => write!(
                f,
                "{} dialog opened: {}",
                rove_errors::with_article(kind),
                quote_line(message)
            ),
            // `fmt` sends only this family here; a variant sent to the
            // wrong one would show in its debug form, which the line tests
            // (`happened_tests.rs`) catch.
            other => write!(f, "{other:?}"),
        }
    }

    /// Where the page went, and whether it settled.
    fn page_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::NavigationStopped => {
                f.write_str("the navigation it started ended without a new page")
            }
            Happened::Navigated { url, loaded: true } => write!(f, "navigated to {url}"),
            Happened::Navigated { url, loaded: false } => {
                write!(f, "navigating to {url} (still loading)")
            }
            Happened::Opened { url, status } => match status {
                Some(status) if *status != 200 => write!(f, "opened {url} (HTTP {status})"),
                _ => write!(f, "opened {url}"),
            },
            Happened::Waited { ms } => write!(f, "waited {ms} ms"),
            Happened::StillChanging {
                secs,
                changes,
                place,
            } => still_changing(f, *secs, *changes, place.as_deref()),
            Happened::SettleUnwatched { reason } => write!(
                f,
                "rove could not watch the page settle after it loaded ({reason}); the view is of the page at its load event and may be incomplete (snapshot again, or wait(text=…) for what you expect)"
            ),
            Happened::RequestPending {
                method,
                url,
                seconds,
            } => request_pending(f, method, url, *seconds),
            Happened::BlockedLoading { url } => {
                write!(f, "blocked loading {url} (outside the allowed domains)")
            }
            Happened::NothingChanged => f.write_str("nothing visible changed"),
            Happened::NothingChangedInPart => f.write_str(
                "nothing visible changed in the part of the page rove reads; it goes on past that (find \"text\" reaches the rest)",
            ),
            Happened::AwaitingServer {
                secs,
                answered,
                changed,
            } => awaiting_server(f, *secs, *answered, *changed),
            Happened::ResultCut { chars, shown } => write!(
                f,
                "the result has {chars} characters; the first {shown} are shown"
            ),
            // `fmt` sends only this family here; a variant sent to the
            // wrong one would show in its debug form, which the line tests
            // (`happened_tests.rs`) catch.
            other => write!(f, "{other:?}"),
        }
    }

    /// How a screenshot was taken, cut, masked or saved.
    fn screenshot_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
            // `fmt` sends only this family here; a variant sent to the
            // wrong one would show in its debug form, which the line tests
            // (`happened_tests.rs`) catch.
            other => write!(f, "{other:?}"),
        }
    }

    /// The desktop application the session moved to or left.
    fn desktop_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happened::DesktopTarget { app, pid, started } => {
                let how = if *started { "started" } else { "attached to" };
                let pid = pid.map(|p| format!(" (pid {p})")).unwrap_or_default();
                write!(
                    f,
                    "{how} the desktop application {app}{pid}; commands now work on its windows (desktop leave goes back to the browser)"
                )
            }
            Happened::DesktopAppExited { app, code } => {
                let code = code.map(|c| format!(" with code {c}")).unwrap_or_default();
                write!(
                    f,
                    "{app} exited{code}; commands work on the browser's tab again"
                )
            }
            Happened::LeftDesktop { app } => {
                write!(f, "left {app}; commands work on the browser's tab again")
            }
            // `fmt` sends only this family here; a variant sent to the
            // wrong one would show in its debug form, which the line tests
            // (`happened_tests.rs`) catch.
            other => write!(f, "{other:?}"),
        }
    }
}

fn tab_fault(f: &mut fmt::Formatter<'_>, fault: &TabFault, while_idle: bool) -> fmt::Result {
    f.write_str(&fault.describe())?;
    if while_idle {
        f.write_str(" (found while idle)")?;
    }
    Ok(())
}

/// The locator as the caller wrote it, on one line; the name is the
/// page's, quoted so it cannot start a line of its own.
fn located(
    f: &mut fmt::Formatter<'_>,
    locator: &str,
    target: Ref,
    role: &str,
    name: &str,
) -> fmt::Result {
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

fn clicked(f: &mut fmt::Formatter<'_>, kind: ClickKind, target: Ref) -> fmt::Result {
    let what = match kind {
        ClickKind::Double => "double-clicked",
        ClickKind::Single(MouseButton::Right) => "right-clicked",
        ClickKind::Single(MouseButton::Middle) => "middle-clicked",
        ClickKind::Single(MouseButton::Left) => "clicked",
        ClickKind::Action => {
            return write!(f, "pressed {target} (its accessibility action)");
        }
        ClickKind::Activated => {
            return write!(
                f,
                "clicked {target} (canvas fallback content, no box for the pointer: focused and sent a click, as a screen reader does)"
            );
        }
    };
    write!(f, "{what} {target}")
}

fn filled(
    f: &mut fmt::Formatter<'_>,
    target: Ref,
    field_gone: bool,
    shown_lines: Option<&rove_input::ShownLines>,
    list: &rove_input::ListChoice,
) -> fmt::Result {
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
    if field_gone {
        f.write_str("; then the page took the field away")?;
    }
    Ok(())
}

fn still_changing(
    f: &mut fmt::Formatter<'_>,
    secs: u64,
    changes: u64,
    place: Option<&str>,
) -> fmt::Result {
    let place = match place {
        Some(place) => format!(", the last in {place}"),
        None => String::new(),
    };
    write!(
        f,
        "the page was still changing {secs} s after it loaded ({changes} changes{place}); the view may be incomplete (snapshot again, or wait(text=…) for what you expect)"
    )
}

/// The page's own origin is left out, as a view's links.
fn request_pending(
    f: &mut fmt::Formatter<'_>,
    method: &str,
    url: &str,
    seconds: u64,
) -> fmt::Result {
    let shown = url
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|at| &rest[at..]))
        .unwrap_or(url);
    let shown = rove_base::text::ellipsized(&rove_base::text::clean(shown.to_owned()), 120);
    write!(f, "note: {method} {shown} pending {seconds} s")
}

fn scrolled(
    f: &mut fmt::Formatter<'_>,
    what: Option<Ref>,
    direction: Direction,
    moved: f64,
    to: f64,
    max: f64,
) -> fmt::Result {
    let what = Scrollee(what);
    let dir = format!("{direction:?}").to_lowercase();
    let forward = matches!(direction, Direction::Down | Direction::Right);
    let at_end = if to >= max - 1.0 && forward {
        " (the end)"
    } else if to < 1.0 {
        " (the start)"
    } else {
        ""
    };
    write!(
        f,
        "scrolled {what} {dir} {moved:.0} px: now at {to:.0} of {max:.0}{at_end}"
    )
}

fn did_not_scroll(
    f: &mut fmt::Formatter<'_>,
    what: Option<Ref>,
    direction: Direction,
) -> fmt::Result {
    let edge = match direction {
        Direction::Down => "bottom",
        Direction::Up => "top",
        Direction::Left => "left edge",
        Direction::Right => "right edge",
    };
    write!(
        f,
        "{} did not move: it is at its {edge} or does not scroll",
        Scrollee(what)
    )
}

fn awaiting_server(
    f: &mut fmt::Formatter<'_>,
    secs: u64,
    answered: bool,
    changed: bool,
) -> fmt::Result {
    let receiving = if answered {
        "the page is still receiving its server's answer"
    } else {
        "the page is still waiting for its server's answer"
    };
    if changed {
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
