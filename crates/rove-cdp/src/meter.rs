//! Where a command's time went: waiting on the browser's answers, waiting
//! for the page to settle after input, or in rove itself.
//!
//! A [`Meter`] is put in scope around one command (task-local, so sessions
//! running side by side keep their own). Every CDP round trip made inside
//! that scope, and every wait for the page (`rove-input`'s settling after
//! input, `rove-commands`' wait for a navigation to load and settle: they
//! mark them with [`settle_starts`]), opens a [`Phase`] that closes when it
//! is dropped.
//! Time is assigned to exactly one bucket at a time, so the buckets add up
//! to the wall time:
//!
//! - `settle`: at least one settle wait is open (the CDP calls the wait
//!   makes count here, not under `cdp`);
//! - `cdp`: no settle wait is open and at least one CDP request is awaiting
//!   its answer (the union of the round trips: two calls in flight at once
//!   count once);
//! - the rest is rove's own work (the caller computes it from the total).
//!
//! Calls made by background tasks (the health watchdog, event readers) are
//! outside the scope and never counted.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

tokio::task_local! {
    static METER: Meter;
}

/// The clock of one command (see the module). Cheap to clone.
#[derive(Debug, Clone)]
pub struct Meter(Arc<Mutex<State>>);

#[derive(Debug)]
struct State {
    /// When time was last assigned to a bucket.
    last: Instant,
    /// CDP requests awaiting their answer.
    calls: u32,
    /// Settle waits open.
    settles: u32,
    cdp: Duration,
    settle: Duration,
}

impl State {
    /// Assigns the time since the last change to the bucket that was open.
    fn tick(&mut self) {
        let now = Instant::now();
        let spent = now.saturating_duration_since(self.last);
        if self.settles > 0 {
            self.settle += spent;
        } else if self.calls > 0 {
            self.cdp += spent;
        }
        self.last = now;
    }
}

/// The buckets a meter filled.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Split {
    /// Awaiting CDP answers, outside settle waits.
    pub cdp: Duration,
    /// In settle waits.
    pub settle: Duration,
}

impl Default for Meter {
    fn default() -> Self {
        Meter::new()
    }
}

impl Meter {
    /// A meter whose clock starts now.
    pub fn new() -> Meter {
        Meter(Arc::new(Mutex::new(State {
            last: Instant::now(),
            calls: 0,
            settles: 0,
            cdp: Duration::ZERO,
            settle: Duration::ZERO,
        })))
    }

    /// Runs `work` with this meter counting its CDP calls and settle waits.
    pub async fn scope<F: std::future::Future>(&self, work: F) -> F::Output {
        METER.scope(self.clone(), work).await
    }

    /// The buckets so far.
    pub fn split(&self) -> Split {
        let mut state = self.lock();
        state.tick();
        Split {
            cdp: state.cdp,
            settle: state.settle,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn open(&self, kind: Kind) -> Phase {
        let mut state = self.lock();
        state.tick();
        match kind {
            Kind::Call => state.calls += 1,
            Kind::Settle => state.settles += 1,
        }
        Phase {
            meter: self.clone(),
            kind,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Call,
    Settle,
}

/// An open phase of the meter in scope; closes when dropped (also when the
/// future holding it is cancelled, so a timed-out wait cannot stay open).
#[derive(Debug)]
pub struct Phase {
    meter: Meter,
    kind: Kind,
}

impl Drop for Phase {
    fn drop(&mut self) {
        let mut state = self.meter.lock();
        state.tick();
        match self.kind {
            Kind::Call => state.calls = state.calls.saturating_sub(1),
            Kind::Settle => state.settles = state.settles.saturating_sub(1),
        }
    }
}

/// A CDP round trip begins (nothing when no meter is in scope).
pub(crate) fn call_starts() -> Option<Phase> {
    METER.try_with(|m| m.open(Kind::Call)).ok()
}

/// A settle wait begins; hold the phase until it ends (nothing when no
/// meter is in scope).
pub fn settle_starts() -> Option<Phase> {
    METER.try_with(|m| m.open(Kind::Settle)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn time_goes_to_one_bucket_at_a_time() {
        let meter = Meter::new();
        let started = Instant::now();
        meter
            .scope(async {
                let call = call_starts();
                tokio::time::sleep(Duration::from_millis(30)).await;
                // A settle wait inside a call: its time is settle's.
                let settle = settle_starts();
                let inner = call_starts();
                tokio::time::sleep(Duration::from_millis(30)).await;
                drop(inner);
                drop(settle);
                drop(call);
                tokio::time::sleep(Duration::from_millis(20)).await;
            })
            .await;
        let split = meter.split();
        let total = started.elapsed();
        assert!(split.cdp >= Duration::from_millis(30), "{split:?}");
        assert!(split.settle >= Duration::from_millis(30), "{split:?}");
        // The last 20 ms had nothing open: they are nobody's.
        assert!(
            split.cdp + split.settle + Duration::from_millis(20) <= total,
            "{split:?} of {total:?}"
        );
        // Outside the scope nothing is counted.
        assert!(call_starts().is_none());
    }
}
