//! Requests a tab's pages keep waiting on: each one's method, address and
//! start, so one still pending past a bound is told once (the answer of
//! the command during which it hung says `note: GET /api/search pending
//! 15 s`), and never again for the same request. It changes no settle:
//! settling keeps its own caps.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// One request pending past the bound, as told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overdue {
    /// `GET`, `POST` …
    pub method: String,
    /// Its address, credentials hidden.
    pub url: String,
    /// How long it has been pending, in whole seconds.
    pub seconds: u64,
}

#[derive(Debug)]
struct Started {
    method: String,
    url: String,
    at: Instant,
}

/// The requests in flight, by request id, and those already told.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    started: HashMap<String, Started>,
    told: HashSet<String>,
}

impl Pending {
    pub fn start(&mut self, id: &str, method: &str, url: &str) {
        self.started.insert(
            id.to_owned(),
            Started {
                method: method.to_owned(),
                url: rove_base::redact::hide_url_credentials(url),
                at: Instant::now(),
            },
        );
    }

    pub fn end(&mut self, id: &str) {
        self.started.remove(id);
        self.told.remove(id);
    }

    /// Forgets the requests `still` does not keep (a new document's).
    pub fn keep(&mut self, still: impl Fn(&str) -> bool) {
        self.started.retain(|id, _| still(id));
        self.told.retain(|id| still(id));
    }

    /// The requests pending longer than `bound` not told before, oldest
    /// first; each is told once.
    pub fn overdue(&mut self, bound: Duration) -> Vec<Overdue> {
        let mut late: Vec<(&String, &Started)> = self
            .started
            .iter()
            .filter(|(id, s)| s.at.elapsed() >= bound && !self.told.contains(*id))
            .collect();
        late.sort_by_key(|(_, s)| s.at);
        let found: Vec<(String, Overdue)> = late
            .into_iter()
            .map(|(id, s)| {
                (
                    id.clone(),
                    Overdue {
                        method: s.method.clone(),
                        url: s.url.clone(),
                        seconds: s.at.elapsed().as_secs(),
                    },
                )
            })
            .collect();
        found
            .into_iter()
            .map(|(id, overdue)| {
                self.told.insert(id);
                overdue
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_told_once_and_only_past_the_bound() {
        let mut pending = Pending::default();
        pending.start("1", "GET", "http://a.test/api/search?q=x");
        assert!(pending.overdue(Duration::from_secs(60)).is_empty());
        let told = pending.overdue(Duration::ZERO);
        assert_eq!(told.len(), 1);
        assert_eq!(told[0].method, "GET");
        assert!(pending.overdue(Duration::ZERO).is_empty(), "told once");
        pending.end("1");
        assert!(pending.overdue(Duration::ZERO).is_empty());
    }
}
