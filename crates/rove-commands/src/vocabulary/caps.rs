//! Capability groups: which commands a model is offered.
//!
//! Every command of the vocabulary belongs to one group. The `core` group is
//! what a model always gets, and is kept small because every tool's schema
//! is read on every turn (`tools/list` stays within 2,000 o200k tokens). The
//! debugging and state tools come in opt-in groups a host names with
//! `--caps` (as Playwright MCP does): `rove mcp --caps network,state` or
//! `--caps all`. A person at the shell always has every command; the groups
//! only narrow what a model sees and may call.

use std::fmt;
use std::str::FromStr;

/// A group of commands a host opts into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    /// Browsing and acting on pages: always offered.
    Core,
    /// What the page logged and threw (`console`).
    Devtools,
    /// What the page requested, and control of its requests (`network`).
    Network,
    /// Cookies, storage and saved sessions (`cookies`, `storage`, `state`).
    State,
    /// Emulating devices, media, place, network state and locale (`set`).
    Emulation,
    /// Printing pages to PDF (`pdf`).
    Pdf,
    /// Reading one fact about an element (`get`).
    Inspect,
    /// Pointer input at coordinates, for models that aim from screenshots
    /// (`mouse`).
    Vision,
    /// Form input beyond one field at a time: several fields in one call
    /// (`fill-form`) and files (`upload`).
    Forms,
    /// Drag and drop between elements (`drag`).
    Drag,
    /// Native desktop applications as targets (`desktop`).
    Desktop,
}

impl Capability {
    /// Every group, `core` first.
    pub const ALL: [Capability; 11] = [
        Capability::Core,
        Capability::Devtools,
        Capability::Network,
        Capability::State,
        Capability::Emulation,
        Capability::Pdf,
        Capability::Inspect,
        Capability::Vision,
        Capability::Forms,
        Capability::Drag,
        Capability::Desktop,
    ];

    /// The group's name, as `--caps` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Core => "core",
            Capability::Devtools => "devtools",
            Capability::Network => "network",
            Capability::State => "state",
            Capability::Emulation => "emulation",
            Capability::Pdf => "pdf",
            Capability::Inspect => "inspect",
            Capability::Vision => "vision",
            Capability::Forms => "forms",
            Capability::Drag => "drag",
            Capability::Desktop => "desktop",
        }
    }

    fn bit(self) -> u16 {
        1 << (self as u8)
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of groups. The default is `core` alone; `core` is always in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps(u16);

impl Default for Caps {
    fn default() -> Self {
        Caps(Capability::Core.bit())
    }
}

impl Caps {
    /// Every group.
    pub fn all() -> Caps {
        Caps(Capability::ALL.iter().fold(0, |bits, c| bits | c.bit()))
    }

    /// Whether commands of `group` are offered.
    pub fn contains(self, group: Capability) -> bool {
        self.0 & group.bit() != 0
    }

    /// These groups and `group`.
    pub fn with(self, group: Capability) -> Caps {
        Caps(self.0 | group.bit())
    }

    /// The groups beyond `core`, in order (what `--caps` would list).
    pub fn added(self) -> Vec<Capability> {
        Capability::ALL
            .into_iter()
            .filter(|c| *c != Capability::Core && self.contains(*c))
            .collect()
    }

    /// The value of `--caps` that gives these groups: `all`, the names
    /// comma-separated, or `None` for the default.
    pub fn flag_value(self) -> Option<String> {
        if self == Caps::default() {
            None
        } else if self == Caps::all() {
            Some("all".into())
        } else {
            let names: Vec<&str> = self.added().into_iter().map(Capability::name).collect();
            Some(names.join(","))
        }
    }
}

/// A `--caps` value naming a group rove does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a capability group; the groups are {groups}, or all", groups = group_names())]
pub struct UnknownCapability(pub String);

fn group_names() -> String {
    let names: Vec<&str> = Capability::ALL.iter().map(|c| c.name()).collect();
    names.join(", ")
}

impl FromStr for Capability {
    type Err = UnknownCapability;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Capability::ALL
            .into_iter()
            .find(|c| c.name() == word)
            .ok_or_else(|| UnknownCapability(s.to_owned()))
    }
}

impl FromStr for Caps {
    type Err = UnknownCapability;

    /// `network,state`, `all`, or nothing (the default); spaces and empty
    /// items are ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut caps = Caps::default();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if word.eq_ignore_ascii_case("all") {
                caps = Caps::all();
            } else {
                caps = caps.with(word.parse()?);
            }
        }
        Ok(caps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists_all_and_refuses_unknown_names() {
        assert_eq!("".parse::<Caps>(), Ok(Caps::default()));
        let some: Caps = "network, State".parse().expect("two groups");
        assert!(some.contains(Capability::Core));
        assert!(some.contains(Capability::Network) && some.contains(Capability::State));
        assert!(!some.contains(Capability::Devtools));
        assert_eq!(some.flag_value().as_deref(), Some("network,state"));
        assert_eq!("all".parse::<Caps>(), Ok(Caps::all()));
        assert_eq!(Caps::all().flag_value().as_deref(), Some("all"));
        let err = "telepathy".parse::<Caps>().expect_err("no such group");
        assert!(err.to_string().contains(
            "core, devtools, network, state, emulation, pdf, inspect, vision, forms, drag, desktop"
        ));
        let vision: Caps = "vision".parse().expect("a group");
        assert!(vision.contains(Capability::Vision) && !vision.contains(Capability::Forms));
        assert!(
            Caps::all().contains(Capability::Vision) && Caps::all().contains(Capability::Forms)
        );
    }
}
