//! The wording of each [`Happened`] line: the one place a model or a
//! person reads what a command did (decisions match on the variants).

use std::fmt;

use super::{Answer, ClickKind, Happened, Scrollee};
use crate::answer::quote_line;
use crate::{Direction, MouseButton};

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
