//! The numbered ring behind a tab's console and network logs: the newest
//! `CAP` entries kept, each numbered in the order it came, read either
//! "since the last read" or whole, with the count of entries that fell out
//! of the ring before anyone read them. One mechanism, so the two logs
//! cannot drift apart in what "since the last call" means.

use std::collections::VecDeque;

/// An entry that carries the number its ring gave it.
pub(crate) trait Numbered: Clone {
    fn seq(&self) -> u64;
    fn set_seq(&mut self, seq: u64);
}

#[derive(Debug)]
pub(crate) struct SeqRing<T, const CAP: usize> {
    entries: VecDeque<T>,
    /// Beside each entry: whether a "since the last read" read (or a
    /// whole one) returned it.
    read: VecDeque<bool>,
    /// The number the next entry gets, less one.
    last_seq: u64,
    /// Entries the cap pushed out, ever (not those `clear` forgot).
    dropped: u64,
    /// Of those, the ones pushed out unread since the last read.
    dropped_unread: u64,
}

impl<T, const CAP: usize> Default for SeqRing<T, CAP> {
    fn default() -> Self {
        SeqRing {
            entries: VecDeque::new(),
            read: VecDeque::new(),
            last_seq: 0,
            dropped: 0,
            dropped_unread: 0,
        }
    }
}

impl<T: Numbered, const CAP: usize> SeqRing<T, CAP> {
    /// Numbers `entry` and keeps it, dropping the oldest at the cap.
    pub(crate) fn push(&mut self, mut entry: T) {
        self.last_seq += 1;
        entry.set_seq(self.last_seq);
        if self.entries.len() == CAP {
            self.entries.pop_front();
            self.dropped += 1;
            if self.read.pop_front() == Some(false) {
                self.dropped_unread += 1;
            }
        }
        self.entries.push_back(entry);
        self.read.push_back(false);
    }

    /// The entries since the last such read (or all kept, with `all`) that
    /// `wanted` keeps, oldest first, and how many fell out of the ring
    /// unread (with `all`, how many the cap ever pushed out); marks them
    /// read. The others stay unread for a later read that wants them.
    pub(crate) fn read_where(&mut self, all: bool, wanted: impl Fn(&T) -> bool) -> (Vec<T>, u64) {
        let dropped = if all {
            self.dropped
        } else {
            self.dropped_unread
        };
        self.dropped_unread = 0;
        let mut entries = Vec::new();
        for (entry, read) in self.entries.iter().zip(self.read.iter_mut()) {
            if (all || !*read) && wanted(entry) {
                entries.push(entry.clone());
                *read = true;
            }
        }
        (entries, dropped)
    }

    /// The entries numbered after `seq`, oldest first, without marking
    /// them read (a trace's look at one interval must not take them from
    /// the `console` and `network` commands' "since the last call").
    pub(crate) fn after(&self, seq: u64) -> Vec<T> {
        self.entries
            .iter()
            .filter(|e| e.seq() > seq)
            .cloned()
            .collect()
    }

    /// The number the newest entry got (0 before any).
    pub(crate) fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The entries kept, oldest first.
    pub(crate) fn entries(&self) -> &VecDeque<T> {
        &self.entries
    }

    /// The entries kept, to update one in place.
    pub(crate) fn entries_mut(&mut self) -> &mut VecDeque<T> {
        &mut self.entries
    }

    /// Forgets every entry (numbers go on from where they were); what was
    /// forgotten here was not dropped by the cap.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.read.clear();
        self.dropped_unread = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Line {
        seq: u64,
        loud: bool,
    }

    impl Numbered for Line {
        fn seq(&self) -> u64 {
            self.seq
        }
        fn set_seq(&mut self, seq: u64) {
            self.seq = seq;
        }
    }

    fn line(loud: bool) -> Line {
        Line { seq: 0, loud }
    }

    #[test]
    fn a_read_of_some_entries_leaves_the_others_unread() {
        let mut ring: SeqRing<Line, 10> = SeqRing::default();
        for loud in [false, true, false] {
            ring.push(line(loud));
        }
        let (loud, _) = ring.read_where(false, |l| l.loud);
        assert_eq!(loud.iter().map(|l| l.seq).collect::<Vec<_>>(), [2]);
        let (rest, _) = ring.read_where(false, |_| true);
        assert_eq!(rest.iter().map(|l| l.seq).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(ring.read_where(false, |_| true).0, Vec::new());
    }

    #[test]
    fn entries_cleared_are_not_counted_as_dropped_by_the_cap() {
        let mut ring: SeqRing<Line, 2> = SeqRing::default();
        for _ in 0..5 {
            ring.push(line(false));
        }
        ring.clear();
        ring.push(line(false));
        let (kept, dropped) = ring.read_where(true, |_| true);
        assert_eq!(kept.len(), 1);
        assert_eq!(dropped, 3, "the cap pushed out 3; clear forgot 2");
        ring.clear();
        let (kept, dropped) = ring.read_where(false, |_| true);
        assert_eq!((kept.len(), dropped), (0, 0));
        assert_eq!(ring.read_where(true, |_| true).1, 3);
    }
}
