//! One entry of the command list ([`Entry`]), as `vocabulary!` writes it,
//! and the properties every entry states: what the command does to the
//! world ([`Effect`]), what it works on ([`WorksOn`]), how long it may run
//! ([`Deadline`]), and where one argument's value changes one of them
//! ([`When`]). A question about a command is answered by its entry's
//! fields, each an enum matched without a catch-all arm.

use serde_json::Value;

use crate::vocabulary::shell::{Literal, Shell};

/// One command, all that is said of it: the enum, the tool catalog, the
/// session's guard, the command line, its help and docs/commands.md are
/// read from these.
#[derive(Debug)]
pub struct Entry {
    /// The name every face spells it with.
    pub name: &'static str,
    /// A short human-readable title (MCP's).
    pub title: &'static str,
    /// The sentence a model reads.
    pub description: &'static str,
    /// What it does to the world.
    pub effect: Effect,
    /// What it works on.
    pub works_on: WorksOn,
    /// Its arguments that name an element (a ref or a locator, which the
    /// session resolves before the command runs): `ref`, `from`, or
    /// `fields[].ref` for the `ref` of each item of `fields`.
    pub elements: &'static [&'static str],
    /// How long it may run in all.
    pub deadline: Deadline,
    /// Where one argument's value changes the effect or what it works on.
    pub when: Option<When>,
    /// The group that offers it to a model.
    pub capability: crate::vocabulary::caps::Capability,
    /// How it is typed at a shell, and what the reference says of it.
    pub shell: &'static Shell,
    /// The JSON Schema of its arguments, before it is made portable.
    pub(crate) schema: fn() -> Value,
}

/// What a command does to the world. It decides the command's MCP
/// annotations, and whether a view of what changed follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Only looks (views, reads, waits): safe to repeat. It answers with
    /// its own result.
    Reads,
    /// Loads a page: repeating it lands on the same page.
    Navigates,
    /// Moves through history or the page: repeating it goes further.
    Moves,
    /// Sets an element's state to a value (checked, unchecked): repeating
    /// it changes nothing more.
    Sets,
    /// Sets what the session's pages get (cookies, storage, network rules,
    /// emulation), not the page on screen now: repeating it changes
    /// nothing more, and it answers with what it set.
    Configures,
    /// Input to the page, which may do anything the page wires to it
    /// (submit, delete, pay).
    Acts,
    /// Ends the session's pages: no page is left to view.
    Ends,
}

impl Effect {
    /// Whether the command may change the page on screen, and so is
    /// followed by a view of what changed (and the downloads it started).
    pub fn changes_page(self) -> bool {
        match self {
            Effect::Navigates | Effect::Moves | Effect::Sets | Effect::Acts => true,
            Effect::Reads | Effect::Configures | Effect::Ends => false,
        }
    }
}

/// What a command works on, which decides what is checked before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorksOn {
    /// The browser or the session, not the page on screen (tabs, closing):
    /// the focused tab is not probed first, so it works whatever state
    /// that page is in.
    Browser,
    /// The JavaScript dialog that blocks the page: not probed first (the
    /// dialog blocks it anyway), and the command answers the dialog the
    /// watch is waiting on.
    Dialog,
    /// The focused tab in a way a JavaScript dialog does not block: through
    /// the browser's own protocol (`open`, its network, cookies, emulation,
    /// console), or as a view, which is the dialog while one blocks the
    /// page (`snapshot`). Probed first and recovered like `Page`, but a
    /// dialog does not refuse it: `open` leaves a dialog's tab itself, and
    /// the browser answers the others while the page's scripts wait.
    Tab,
    /// The focused tab's page, through its scripts or its DOM: probed
    /// first, recovered when it stopped answering or crashed, and refused
    /// at once (`DIALOG_OPEN`) while a JavaScript dialog blocks it, since
    /// every script it sends would wait for the dialog.
    Page,
    /// Elements of the page on screen, with input: probed first, refused
    /// at once while a dialog blocks the page, and a navigation in flight
    /// is waited out (input sent into a page being replaced would be lost).
    Elements,
}

impl WorksOn {
    /// Whether the focused tab is probed before the command.
    pub fn needs_page(self) -> bool {
        match self {
            WorksOn::Tab | WorksOn::Page | WorksOn::Elements => true,
            WorksOn::Browser | WorksOn::Dialog => false,
        }
    }

    /// Whether an open JavaScript dialog refuses the command before it
    /// starts: it needs the page's scripts, which wait for the dialog.
    pub fn blocked_by_dialog(self) -> bool {
        match self {
            WorksOn::Page | WorksOn::Elements => true,
            WorksOn::Browser | WorksOn::Dialog | WorksOn::Tab => false,
        }
    }
}

/// How long a command may run in all (besides the room the guard leaves
/// for the view and the settling after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deadline {
    /// The session's command deadline.
    Command,
    /// The navigation deadline, when longer.
    Navigation,
    /// The script deadline, when longer; the command stops its script
    /// itself when the script outlives it.
    Script,
    /// As many milliseconds as its argument of this name says (`default`
    /// when it is left out), when longer.
    Argument {
        /// The argument.
        argument: &'static str,
        /// The wait when it is left out.
        default: std::time::Duration,
    },
}

/// One value of an argument that changes what the entry says
/// (`tab list` only reads; `open` in a new tab does not need the page on
/// screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    /// The argument.
    pub argument: &'static str,
    /// Its value.
    pub value: Literal,
    /// The effect then, if another.
    pub effect: Option<Effect>,
    /// What the command works on then, if another.
    pub works_on: Option<WorksOn>,
}

impl When {
    /// Whether `arguments` (a call's, as JSON) give the argument its value.
    pub fn holds(&self, arguments: &Value) -> bool {
        let given = &arguments[self.argument];
        match self.value {
            Literal::Bool(b) => given.as_bool() == Some(b),
            Literal::Text(t) => given.as_str() == Some(t),
        }
    }
}

#[cfg(test)]
#[path = "entry_tests.rs"]
mod tests;
