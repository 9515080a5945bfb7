//! Refs: short, stable names for elements (`e7`).
//!
//! A ref is a number handed out by the tab's [`RefTable`] for one element
//! identity: the document it lives in (a random token the walker creates with
//! each document's isolated world, so a new document can never match an old
//! one) and the element's uid within that document (kept by the walker in a
//! `WeakMap`, so it follows the element for its whole life). Numbers only ever
//! go up: no number is given to a second element within the tab's life.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// An element ref, shown as `e7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ref(pub u32);

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

/// Text that is no ref; the parser of element arguments goes on to read
/// it as a locator, and a tool call's argument is refused with this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a ref (like e7)")]
pub struct NotARef(String);

impl std::str::FromStr for Ref {
    type Err = NotARef;
    /// Accepts `e7` and `@e7`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let t = t.strip_prefix('@').unwrap_or(t);
        t.strip_prefix('e')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n > 0)
            .map(Ref)
            .ok_or_else(|| NotARef(s.to_owned()))
    }
}

/// A ref travels as its text (`"e7"`), so a tool call's `ref` argument
/// deserializes straight into one and a bad one is refused while parsing.
impl serde::Serialize for Ref {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Ref {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Where an element lives: the document's token and its uid in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct NodeKey {
    pub doc: Arc<str>,
    pub uid: u32,
}

/// The refs of one tab. Numbers come from a counter that may be shared with
/// the session's other tabs (and with the session that replaces this one
/// after a browser restart), so a number names one element session-wide.
#[derive(Debug, Default)]
pub(crate) struct RefTable {
    numbers: rove_browser::Counter,
    by_key: HashMap<NodeKey, Ref>,
    by_ref: HashMap<Ref, NodeKey>,
    /// Elements forgotten since the last view was kept as the diff's base:
    /// a diff names a removed element by the ref the agent was shown.
    gone: HashMap<NodeKey, Ref>,
}

impl RefTable {
    /// A table drawing its numbers from `numbers`.
    pub(crate) fn counting(numbers: rove_browser::Counter) -> RefTable {
        RefTable {
            numbers,
            ..RefTable::default()
        }
    }

    /// The ref of an element, handing out the next number on first sight.
    pub(crate) fn get_or_assign(&mut self, key: &NodeKey) -> Ref {
        if let Some(r) = self.by_key.get(key) {
            return *r;
        }
        let r = Ref(self.numbers.next());
        self.by_key.insert(key.clone(), r);
        self.by_ref.insert(r, key.clone());
        r
    }

    /// The ref an element was shown with, also when it has just been
    /// forgotten (a removed line of a diff); `None` if it never had one.
    pub(crate) fn shown(&self, key: &NodeKey) -> Option<Ref> {
        self.by_key.get(key).or_else(|| self.gone.get(key)).copied()
    }

    /// A new view became the diff's base: what was forgotten before it can
    /// no longer appear as a removed line.
    pub(crate) fn rebase(&mut self) {
        self.gone.clear();
    }

    /// The element a ref names, if it was handed out and not forgotten.
    pub(crate) fn key(&self, r: Ref) -> Option<&NodeKey> {
        self.by_ref.get(&r)
    }

    /// The highest number handed out so far.
    pub(crate) fn last(&self) -> u32 {
        self.numbers.last()
    }

    /// Forgets elements the walker reported gone. Their numbers stay used.
    pub(crate) fn forget(&mut self, doc: &Arc<str>, uids: &[u32]) {
        for &uid in uids {
            let key = NodeKey {
                doc: doc.clone(),
                uid,
            };
            if let Some(r) = self.by_key.remove(&key) {
                self.by_ref.remove(&r);
                self.gone.insert(key, r);
            }
        }
    }

    /// Forgets every element of documents that no longer exist.
    pub(crate) fn forget_docs(&mut self, live: &[Arc<str>]) {
        let gone = &mut self.gone;
        self.by_key.retain(|k, r| {
            let keep = live.contains(&k.doc);
            if !keep {
                gone.insert(k.clone(), *r);
            }
            keep
        });
        let by_key = &self.by_key;
        self.by_ref.retain(|_, k| by_key.contains_key(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(doc: &str, uid: u32) -> NodeKey {
        NodeKey {
            doc: Arc::from(doc),
            uid,
        }
    }

    #[test]
    fn refs_parse_with_or_without_at() {
        assert_eq!("e7".parse::<Ref>().ok(), Some(Ref(7)));
        assert_eq!("@e12".parse::<Ref>().ok(), Some(Ref(12)));
        for bad in ["7", "e", "e0", "x7", "e-1", "ee7"] {
            assert!(bad.parse::<Ref>().is_err(), "{bad}");
        }
        let refused = "x7".parse::<Ref>().map_err(|e| e.to_string());
        assert_eq!(refused, Err("\"x7\" is not a ref (like e7)".to_owned()));
    }

    #[test]
    fn numbers_are_never_reused() {
        let mut table = RefTable::default();
        let a = table.get_or_assign(&key("d1", 1));
        let b = table.get_or_assign(&key("d1", 2));
        assert_eq!(table.get_or_assign(&key("d1", 1)), a);
        table.forget(&Arc::from("d1"), &[1]);
        assert_eq!(table.key(a), None);
        // The same uid in a new document, and a re-seen key, get new numbers.
        let c = table.get_or_assign(&key("d2", 1));
        let d = table.get_or_assign(&key("d1", 1));
        assert!(c > b && d > c);
        table.forget_docs(&[Arc::from("d2")]);
        assert_eq!(table.key(b), None);
        assert_eq!(table.key(c), Some(&key("d2", 1)));
    }

    #[test]
    fn tables_sharing_a_counter_never_give_the_same_number() {
        let numbers = rove_browser::Counter::new();
        let mut one = RefTable::counting(numbers.clone());
        let mut two = RefTable::counting(numbers.clone());
        let a = one.get_or_assign(&key("d1", 1));
        let b = two.get_or_assign(&key("d9", 1));
        assert_ne!(a, b);
        // A table made after a restart goes on from the last number.
        let mut three = RefTable::counting(numbers);
        assert!(three.get_or_assign(&key("d1", 1)) > b);
        assert_eq!(three.key(a), None);
    }
}
