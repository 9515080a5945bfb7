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
    /// The number the next entry gets, less one.
    last_seq: u64,
    /// The last entry a "since the last read" read returned.
    read_up_to: u64,
}

impl<T, const CAP: usize> Default for SeqRing<T, CAP> {
    fn default() -> Self {
        SeqRing {
            entries: VecDeque::new(),
            last_seq: 0,
            read_up_to: 0,
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
        }
        self.entries.push_back(entry);
    }

    /// The entries since the last such read (or all kept, with `all`),
    /// oldest first, and how many fell out unread; marks them read.
    pub(crate) fn read(&mut self, all: bool) -> (Vec<T>, u64) {
        let from = if all { 0 } else { self.read_up_to };
        let oldest_kept = self
            .entries
            .front()
            .map_or(self.last_seq + 1, Numbered::seq);
        // Entries numbered from+1 .. oldest_kept-1 were dropped unread.
        let dropped = oldest_kept.saturating_sub(from + 1);
        let entries = self
            .entries
            .iter()
            .filter(|e| e.seq() > from)
            .cloned()
            .collect();
        self.read_up_to = self.last_seq;
        (entries, dropped)
    }

    /// The number of the newest entry (0 before the first).
    pub(crate) fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The entries kept numbered past `seq`, oldest first, without marking
    /// any read (a trace looks without taking them from the `console` and
    /// `network` commands).
    pub(crate) fn since(&self, seq: u64) -> Vec<T> {
        self.entries
            .iter()
            .filter(|e| e.seq() > seq)
            .cloned()
            .collect()
    }

    /// The entries kept, oldest first.
    pub(crate) fn entries(&self) -> &VecDeque<T> {
        &self.entries
    }

    /// The entries kept, to update one in place.
    pub(crate) fn entries_mut(&mut self) -> &mut VecDeque<T> {
        &mut self.entries
    }

    /// Forgets every entry (numbers go on from where they were).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.read_up_to = self.last_seq;
    }
}
