//! Where a tab's main frame stands in a navigation, from its events: on its
//! way (started, its new document not committed yet) and loading (from the
//! commit until rove has read the page after its load event).
//!
//! The watchdog asks both. A renderer that parses and lays out a big
//! document is busy for seconds and answers no probe, which is no hang of
//! the page: a navigation on its way holds the old document's answers until
//! the new one commits, and a loading document answers when its parser
//! yields. The first view rove reads after the load event lays the whole
//! document out, which on a huge page is seconds more of the same work (a
//! probe answered just before it proves nothing about it): the load ends
//! when rove has read the page after its load event, not with the event.
//!
//! A load has two phases, each timed from its own start ([`LoadPhase`]):
//! parsing, from the commit to the load event, and the first read after
//! it. A 100,000-row table on a busy machine parses for most of a
//! navigation's deadline; timing its first layout from the commit would
//! leave that layout no time at all.

use std::time::{Duration, Instant};

/// Where a loading document is, and for how long it has been there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadPhase {
    /// Committed, its load event not fired yet: its parser is at work.
    Parsing(Duration),
    /// Its load event fired; rove has not read it since (its first layout).
    FirstRead(Duration),
}

/// The main frame's navigation and load.
#[derive(Debug, Default)]
pub(crate) struct MainFrame {
    /// Where the main frame is navigating to, and since when: from the
    /// moment the navigation starts until its document commits or it stops.
    navigating: Option<(String, Instant)>,
    /// Since when its committed document is loading: from the commit until
    /// rove read the page after its load event (or after it stopped
    /// loading).
    loading: Option<Instant>,
    /// When the load event fired (or the frame stopped loading) since the
    /// commit.
    loaded: Option<Instant>,
}

impl MainFrame {
    /// A cross-document navigation started towards `url`.
    pub(crate) fn started(&mut self, url: String) {
        self.navigating = Some((url, Instant::now()));
    }

    /// A new document committed: it loads from now on.
    pub(crate) fn committed(&mut self) {
        self.navigating = None;
        self.loading = Some(Instant::now());
        self.loaded = None;
    }

    /// The load event fired. Whether anything changed.
    pub(crate) fn loaded(&mut self) -> bool {
        let first = self.loading.is_some() && self.loaded.is_none();
        if self.loaded.is_none() {
            self.loaded = Some(Instant::now());
        }
        self.navigating.take().is_some() || first
    }

    /// rove read a view of the page: after its load event, its load is
    /// over.
    pub(crate) fn answered(&mut self) {
        if self.loaded.is_some() {
            self.loading = None;
        }
    }

    /// The frame stopped loading (loaded, or the navigation was cut).
    pub(crate) fn stopped(&mut self) -> bool {
        self.loaded()
    }

    /// A same-document move ends a navigation that was on its way (a
    /// history entry that turned out to be one); the document's load goes
    /// on. Whether anything changed.
    pub(crate) fn moved_within(&mut self) -> bool {
        self.navigating.take().is_some()
    }

    /// Where it is navigating to; see the module comment. A navigation that
    /// never reported its end counts for at most
    /// [`rove_base::limits::NAVIGATION_PENDING`]: a missed event after that.
    pub(crate) fn navigating(&self) -> Option<String> {
        self.navigating
            .as_ref()
            .filter(|(_, since)| since.elapsed() < rove_base::limits::NAVIGATION_PENDING)
            .map(|(url, _)| url.clone())
    }

    /// Where its document's load is, when it is loading; see the module
    /// comment.
    pub(crate) fn load_phase(&self) -> Option<LoadPhase> {
        let committed = self.loading?;
        Some(match self.loaded {
            None => LoadPhase::Parsing(committed.elapsed()),
            Some(at) => LoadPhase::FirstRead(at.elapsed()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_loads_from_its_commit_until_it_answers_after_its_load_event() {
        let mut frame = MainFrame::default();
        assert_eq!(frame.load_phase(), None);
        frame.started("http://a.test/".into());
        assert_eq!(frame.navigating().as_deref(), Some("http://a.test/"));
        assert_eq!(frame.load_phase(), None, "not committed yet");
        frame.committed();
        assert_eq!(frame.navigating(), None);
        assert!(matches!(frame.load_phase(), Some(LoadPhase::Parsing(_))));
        assert!(!frame.moved_within(), "a same-document move ends no load");
        frame.answered();
        assert!(
            matches!(frame.load_phase(), Some(LoadPhase::Parsing(_))),
            "answers while parsing"
        );
        std::thread::sleep(Duration::from_millis(20));
        assert!(frame.loaded());
        // The first read is timed from the load event, not the commit.
        let Some(LoadPhase::FirstRead(since_load)) = frame.load_phase() else {
            panic!("the first layout is ahead: {:?}", frame.load_phase());
        };
        assert!(since_load < Duration::from_millis(20), "{since_load:?}");
        assert!(!frame.stopped(), "nothing new");
        frame.answered();
        assert_eq!(frame.load_phase(), None);
    }
}
