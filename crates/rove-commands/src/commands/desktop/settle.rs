//! Waiting on a desktop application: until it settled after an action,
//! or until a text shows in its window.

use std::time::Instant;

use rove_base::limits;
use rove_desktop::{Backend, EventWait, Heard};

use crate::CommandError;
use crate::session::desktop::DesktopTarget;

/// After an action, the tree once the application answered it. An
/// application that sends events is not read while it works (its replies
/// to rove's reads would come before the action's own work): rove waits
/// for its first event (`limits::DESKTOP_SETTLE_SILENT` at most), then
/// for it to fall silent (`limits::DESKTOP_EVENTS_QUIET` without one),
/// and reads the tree. Silence throughout is the answer that nothing
/// changed; a change read after it fell silent, with no event while it
/// was read, is the answer; events with no change the view shows (a focus
/// moved), or during the reading, mean the answer may still come. An application that does not fall silent (an animation) tells
/// nothing by its events, nor one that never sent any: they are read on
/// a clock ([`read_until_held`]). All within `limits::SETTLE_DOM`.
pub(super) async fn settle(
    target: &mut DesktopTarget,
    before: &[rove_page::NativeElement],
) -> Result<Vec<rove_page::NativeElement>, CommandError> {
    let until = Instant::now() + limits::SETTLE_DOM;
    if !target.speaks_events {
        let first = target.read().await?;
        return read_until_held(target, before, first, until).await;
    }
    loop {
        let wait = EventWait {
            first: limits::DESKTOP_SETTLE_SILENT,
            quiet: limits::DESKTOP_EVENTS_QUIET,
            // One that is still speaking after this long is animating.
            within: until
                .saturating_duration_since(Instant::now())
                .min(limits::DESKTOP_SETTLE_SILENT),
        };
        let heard = events(target, wait).await?;
        let now = target.read().await?;
        if !heard.fell_silent {
            return read_until_held(target, before, now, until).await;
        }
        // Events that came while the tree was read: it is still at work,
        // and what was read may be half of its answer.
        let app = target.app.id.clone();
        let during = target
            .bus
            .run(limits::DESKTOP_CALL, move |b| Ok(b.events_since(&app)))
            .await?;
        let answered = heard.events == 0 || (now != before && during == 0);
        if answered || Instant::now() >= until {
            return Ok(now);
        }
    }
}

/// The application's events as `wait` says; a first one marks it as an
/// application that speaks.
async fn events(target: &mut DesktopTarget, wait: EventWait) -> Result<Heard, CommandError> {
    let app = target.app.id.clone();
    let heard = target
        .bus
        .run(limits::DESKTOP_TREE, move |b| b.events_from(&app, wait))
        .await?;
    if heard.events > 0 {
        target.speaks_events = true;
    }
    Ok(heard)
}

/// Reads the tree again every `limits::DESKTOP_SETTLE_POLL` until it
/// changed from `before` and then held for `limits::DESKTOP_SETTLE_QUIET`,
/// or `until`: the application updates itself after an action's call
/// returns, sometimes in steps (the calculator adds its history line, then
/// shows the result), so one unchanged reading is not enough. Between
/// readings it listens for the application's events, to learn whether it
/// sends them.
async fn read_until_held(
    target: &mut DesktopTarget,
    before: &[rove_page::NativeElement],
    first: Vec<rove_page::NativeElement>,
    until: Instant,
) -> Result<Vec<rove_page::NativeElement>, CommandError> {
    let mut last = first;
    let mut changed = last != before;
    let mut held_since = Instant::now();
    loop {
        if Instant::now() >= until {
            return Ok(last);
        }
        let poll = limits::DESKTOP_SETTLE_POLL;
        let wait = EventWait {
            first: poll,
            quiet: poll,
            within: poll,
        };
        events(target, wait).await?;
        let now = target.read().await?;
        if now != last {
            held_since = Instant::now();
        } else if changed && held_since.elapsed() >= limits::DESKTOP_SETTLE_QUIET {
            return Ok(now);
        }
        changed = changed || now != before;
        last = now;
    }
}

/// `wait` on a window: until a text shows (or is gone) in its elements'
/// names and values, or a plain pause; a URL or a load state is a page's.
pub(super) async fn wait_on_desktop(
    target: &mut DesktopTarget,
    args: &crate::WaitArgs,
) -> Result<u64, CommandError> {
    if args.url.is_some() || args.load.is_some() {
        return Err(CommandError::Rejected(
            "a URL or a load state is a page's; on a desktop application wait for text".to_owned(),
        ));
    }
    let started = Instant::now();
    let (wanted, gone) = match (&args.text, &args.text_gone) {
        (Some(text), _) => (text.to_lowercase(), false),
        (None, Some(text)) => (text.to_lowercase(), true),
        (None, None) => {
            let pause =
                std::time::Duration::from_millis(args.ms.unwrap_or(0)).min(limits::WAIT_SLEEP_MAX);
            tokio::time::sleep(pause).await;
            return Ok(elapsed_ms(started));
        }
    };
    let limit = args
        .ms
        .map(std::time::Duration::from_millis)
        .unwrap_or(limits::WAIT);
    loop {
        let elements = target.read().await?;
        let shows = elements.iter().any(|e| {
            e.name.to_lowercase().contains(&wanted)
                || e.value
                    .as_deref()
                    .is_some_and(|v| v.to_lowercase().contains(&wanted))
        });
        if shows != gone {
            return Ok(elapsed_ms(started));
        }
        if started.elapsed() >= limit {
            return Err(CommandError::WaitTimeout {
                condition: format!(
                    "{:?} {} in {}",
                    wanted,
                    if gone {
                        "is still shown"
                    } else {
                        "never showed"
                    },
                    target.app.name
                ),
                waited_ms: elapsed_ms(started),
            });
        }
        tokio::time::sleep(limits::DESKTOP_SETTLE_POLL).await;
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
