//! Farm mode (`rove test --isolate browser --cdp-url URL…`): each attempt
//! opens a connection of its own, which on a farm such as browserless is a
//! fresh browser that ends with it, and closes it when the attempt ends.
//!
//! Each distinct URL takes at most its slots of connections at once (how
//! many times it was given, or `--slots`); an attempt takes the least busy
//! URL with a slot free, and waits for one when none is. A farm short of
//! browsers holds the handshake in its queue or answers 429: both are
//! waited out, with backoff, within the connect wait, and then only that
//! attempt fails (TIMEOUT). A refused credential is not retried, and the
//! farm is marked refused so that no further attempt starts.

use std::cell::Cell;
use std::time::Duration;

use rove_base::limits::{FARM_BACKOFF, FARM_SLOTS_MAX};
use rove_base::text::one_line;
use rove_browser::{Browser, BrowserError, ConnectOptions};
use rove_errors::{Classify, ErrorCode};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::attempt::{AttemptResult, Status};

/// The farm's URLs, their slots, and how a connection is made.
#[derive(Debug)]
pub struct Farm {
    doors: Vec<Door>,
    template: ConnectOptions,
    wait: Duration,
    refused: Cell<bool>,
    /// Whether any connection reached a browser, and whether one found
    /// nothing at the farm's address: a farm never reached is a run that
    /// could not start, as an unreachable pool browser is.
    reached: Cell<bool>,
    unreachable: Cell<bool>,
    freed: tokio::sync::Notify,
}

/// One distinct URL of the farm.
#[derive(Debug)]
struct Door {
    url: String,
    slots: usize,
    busy: Cell<usize>,
}

/// A slot taken at one URL, given back when dropped.
#[derive(Debug)]
pub(crate) struct Slot<'a> {
    farm: &'a Farm,
    index: usize,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Some(door) = self.farm.doors.get(self.index) {
            door.busy.set(door.busy.get().saturating_sub(1));
        }
        self.farm.freed.notify_waiters();
    }
}

/// Why an attempt got no browser from the farm.
#[derive(Debug, Clone)]
struct NoBrowser {
    code: ErrorCode,
    reason: String,
}

impl Farm {
    /// A farm of `urls` (a URL given twice has two slots, unless `slots`
    /// gives every distinct URL that many), each connection made as
    /// `template` says, waiting at most `wait` for each browser.
    pub fn new(
        urls: &[String],
        slots: Option<usize>,
        template: ConnectOptions,
        wait: Duration,
    ) -> Farm {
        let mut doors: Vec<Door> = Vec::new();
        for url in urls {
            match doors.iter_mut().find(|d| d.url == *url) {
                Some(door) => door.slots = (door.slots + 1).min(FARM_SLOTS_MAX),
                None => doors.push(Door {
                    url: url.clone(),
                    slots: 1,
                    busy: Cell::new(0),
                }),
            }
        }
        if let Some(n) = slots {
            for door in &mut doors {
                door.slots = n.max(1);
            }
        }
        Farm {
            doors,
            template,
            wait,
            refused: Cell::new(false),
            reached: Cell::new(false),
            unreachable: Cell::new(false),
            freed: tokio::sync::Notify::new(),
        }
    }

    /// Connections open at once the farm allows, over every URL.
    pub fn slots(&self) -> usize {
        self.doors.iter().map(|d| d.slots).sum()
    }

    /// Whether the farm refused the credentials (401/403): every later
    /// attempt would fail the same way.
    pub fn refused(&self) -> bool {
        self.refused.get()
    }

    /// Whether the farm was never reached: no attempt got a browser, and
    /// one found nothing answering at its address (the run then fails as
    /// pool mode's does when its browser cannot be reached, exit 6).
    pub fn unreachable(&self) -> bool {
        self.unreachable.get() && !self.reached.get()
    }

    /// A free slot at the least busy URL, waiting until one is given back.
    pub(crate) async fn slot(&self) -> Slot<'_> {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Registered before looking, so a slot given back between the
            // look and the wait is not missed.
            freed.as_mut().enable();
            let free = self
                .doors
                .iter()
                .enumerate()
                .filter(|(_, d)| d.busy.get() < d.slots)
                .min_by_key(|(_, d)| d.busy.get());
            if let Some((index, door)) = free {
                door.busy.set(door.busy.get() + 1);
                return Slot { farm: self, index };
            }
            freed.await;
        }
    }

    /// A slot and a browser for attempt `number` of `task`; or its result
    /// when it gets none: skipped when the run is stopped or the farm
    /// refused the credentials meanwhile, an error when the farm gave no
    /// browser.
    pub(crate) async fn browser_for(
        &self,
        task: &str,
        number: u32,
        stopped: &mut watch::Receiver<bool>,
    ) -> Result<(Browser, Slot<'_>), AttemptResult> {
        let began = Instant::now();
        let skipped = |why: &str| AttemptResult::not_run(task, number, Status::Skipped, why.into());
        let slot = tokio::select! {
            slot = self.slot() => slot,
            _ = stopped.wait_for(|stop| *stop) => return Err(skipped("interrupted before it started")),
        };
        if self.refused() {
            return Err(skipped("not run: the farm refused the credentials"));
        }
        let connected = tokio::select! {
            connected = self.connect(&slot) => connected,
            _ = stopped.wait_for(|stop| *stop) => return Err(skipped("interrupted before it started")),
        };
        match connected {
            Ok(browser) => Ok((browser, slot)),
            Err(no) => {
                let mut result = AttemptResult::error(task, number, no.code, no.reason);
                result.browser_index = Some(slot.index);
                result.seconds = began.elapsed().as_secs_f64();
                Err(result)
            }
        }
    }

    /// The index of the URL `slot` is at, as results.json's `browser_index`.
    pub(crate) fn index_of(slot: &Slot<'_>) -> usize {
        slot.index
    }

    /// A browser of its own from the URL of `slot`: a queued handshake and
    /// 429 answers are waited out within the connect wait.
    async fn connect(&self, slot: &Slot<'_>) -> Result<Browser, NoBrowser> {
        let Some(door) = self.doors.get(slot.index) else {
            return Err(NoBrowser {
                code: ErrorCode::Internal,
                reason: "no browser: the slot names no URL".into(),
            });
        };
        let deadline = Instant::now() + self.wait;
        let mut delay = FARM_BACKOFF.first;
        let mut full = 0u32;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.ran_out(&door.url, full));
            }
            let mut options = ConnectOptions {
                cdp_url: door.url.clone(),
                browser_per_connection: true,
                ..self.template.clone()
            };
            // A farm holds the handshake while its queue waits for a
            // browser: as long as the wait allows, not the usual limit.
            options.transport.connect_timeout = left;
            let error = match tokio::time::timeout(left, Browser::connect(options)).await {
                Ok(Ok(browser)) => {
                    self.reached.set(true);
                    return Ok(browser);
                }
                Ok(Err(e)) => e,
                Err(_) => return Err(self.ran_out(&door.url, full)),
            };
            if cause_of(&error, "capacity") {
                full += 1;
                let pause = jittered(delay).min(deadline.saturating_duration_since(Instant::now()));
                tracing::info!(target: "rove_eval", url = %shown(&door.url), answers = full, "the farm has no browser free; waiting");
                tokio::time::sleep(pause).await;
                delay = FARM_BACKOFF.next(delay);
                continue;
            }
            if Instant::now() >= deadline {
                return Err(self.ran_out(&door.url, full));
            }
            if cause_of(&error, "auth") {
                self.refused.set(true);
            } else if error.code() == ErrorCode::BrowserDisconnected {
                self.unreachable.set(true);
            }
            return Err(NoBrowser {
                code: error.code(),
                reason: format!("no browser: {}", one_line(&error.to_string())),
            });
        }
    }

    /// The attempt's failure when the connect wait ran out, in the farm's
    /// words.
    fn ran_out(&self, url: &str, full: u32) -> NoBrowser {
        let why = match full {
            // The handshake held (a farm's queue) and a browser that took
            // it and then never answered look alike from here.
            0 => "the farm held the connection in its queue, or its browser never answered"
                .to_owned(),
            1 => "the farm answered 429 (no browser free) once".to_owned(),
            n => format!("the farm answered 429 (no browser free) {n} times"),
        };
        NoBrowser {
            code: ErrorCode::Timeout,
            reason: format!(
                "no browser from {} within {} s: {why}",
                host_of(url),
                self.wait.as_secs_f64()
            ),
        }
    }
}

/// Whether the farm's answer was for `cause`: `capacity` (429, no
/// browser free) or `auth` (401/403, the credentials refused).
fn cause_of(error: &BrowserError, cause: &str) -> bool {
    error.facts().is_some_and(|facts| facts["cause"] == cause)
}

/// `delay`, shortened at random by up to half, so attempts that waited
/// together do not all ask again at once.
fn jittered(delay: Duration) -> Duration {
    let noise = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    jittered_by(delay, noise)
}

/// `delay` shortened by what `noise` draws: the clock's nanoseconds in
/// [`jittered`], any value in its test.
fn jittered_by(delay: Duration, noise: u32) -> Duration {
    let fraction = f64::from(noise % 1000) / 2000.0;
    delay.mul_f64(1.0 - fraction)
}

/// The URL as rove may show it.
fn shown(url: &str) -> String {
    rove_base::redact::hide_endpoint_credentials(url)
}

/// `host:port` of a URL, without its scheme, credentials, path or query.
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    one_line(host).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn farm(urls: &[&str], slots: Option<usize>) -> Farm {
        let urls: Vec<String> = urls.iter().map(|u| (*u).to_owned()).collect();
        Farm::new(
            &urls,
            slots,
            ConnectOptions::new(""),
            Duration::from_secs(1),
        )
    }

    #[tokio::test]
    async fn a_repeated_url_is_more_slots_and_the_least_busy_goes_first() {
        let farm = farm(&["ws://a", "ws://b", "ws://a"], None);
        assert_eq!(farm.slots(), 3);
        let first = farm.slot().await;
        let second = farm.slot().await;
        let third = farm.slot().await;
        let at: Vec<usize> = [&first, &second, &third]
            .iter()
            .map(|s| Farm::index_of(s))
            .collect();
        assert_eq!(at, [0, 1, 0]);
        // Full: the next waits until a slot is given back.
        let waiting = tokio::time::timeout(Duration::from_millis(50), farm.slot()).await;
        assert!(waiting.is_err(), "no slot is free");
        drop(second);
        let fourth = tokio::time::timeout(Duration::from_secs(1), farm.slot())
            .await
            .expect("a slot given back is taken");
        assert_eq!(Farm::index_of(&fourth), 1);
    }

    #[test]
    fn slots_gives_each_distinct_url_that_many() {
        assert_eq!(farm(&["ws://a", "ws://a", "ws://b"], Some(4)).slots(), 8);
    }

    #[test]
    fn a_url_given_past_the_cap_takes_no_more_slots_than_slots_may_say() {
        let given = vec!["ws://a"; FARM_SLOTS_MAX + 500];
        assert_eq!(farm(&given, None).slots(), FARM_SLOTS_MAX);
    }

    #[test]
    fn the_host_is_shown_without_credentials() {
        assert_eq!(
            host_of("wss://u:p@farm.example:443/x?token=t"),
            "farm.example:443"
        );
        assert_eq!(host_of("ws://127.0.0.1:3000?token=t"), "127.0.0.1:3000");
    }

    #[test]
    fn jitter_shortens_by_at_most_half() {
        let delay = Duration::from_secs(2);
        let within = |d: Duration| d >= delay / 2 && d <= delay;
        // Every draw the noise can make (its value counts modulo 1000; the
        // ends of the u32 range too), not one the clock happens to give.
        let draws: Vec<u32> = (0..3000).chain([u32::MAX - 1, u32::MAX]).collect();
        for noise in &draws {
            let d = jittered_by(delay, *noise);
            assert!(within(d), "noise {noise} gave {d:?}");
        }
        // It does shorten, by up to about half: a jitter of nothing would
        // let waiting attempts ask again together.
        let shortest = draws.iter().map(|n| jittered_by(delay, *n)).min();
        assert!(
            shortest.is_some_and(|d| d < delay * 51 / 100),
            "{shortest:?}"
        );
        // And the clock's draws, many of them, stay within too.
        for _ in 0..1000 {
            let d = jittered(delay);
            assert!(within(d), "{d:?}");
        }
    }
}
