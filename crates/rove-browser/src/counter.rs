//! Numbers that are never handed out twice: a session's tab ids and element
//! refs. A counter is shared by everything that numbers the same kind of
//! thing (every tab's page model draws refs from one, so `e7` names one
//! element in the whole session, not one per tab), and it outlives a browser
//! restart (the session that replaces a dead browser's keeps counting), so a
//! `t1` or an `e7` an agent still holds can never name something new.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// A shared counter. Cheap to clone; clones count together.
#[derive(Debug, Clone, Default)]
pub struct Counter(Arc<AtomicU32>);

impl Counter {
    /// A counter whose first number is 1.
    pub fn new() -> Counter {
        Counter::default()
    }

    /// The next number (1, 2, …). It stops at `u32::MAX` rather than wrap
    /// around to numbers already given.
    pub fn next(&self) -> u32 {
        let previous = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(n.saturating_add(1))
            })
            .unwrap_or(u32::MAX);
        previous.saturating_add(1)
    }

    /// The last number handed out (0 before the first).
    pub fn last(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::Counter;

    #[test]
    fn clones_count_together() {
        let a = Counter::new();
        let b = a.clone();
        assert_eq!(a.next(), 1);
        assert_eq!(b.next(), 2);
        assert_eq!(a.last(), 2);
        assert_eq!(Counter::new().next(), 1);
    }
}
