//! Locators in place of refs, resolved in one place for every command.
//!
//! Each element argument of the vocabulary is a [`Target`]: a ref, or a
//! locator (`css=…`, `role=…[name="…"]`, `text=…`). Before a command runs,
//! [`Session::resolve_targets`] resolves each locator it holds to the one
//! element the view shows that it matches, puts that element's ref in its
//! place, and says so first in the answer (`css=#save → e7 button "Save"`).
//! The commands themselves only ever see refs. [`Command::targets_mut`]
//! lists the element arguments of every command, with no catch-all arm, so
//! a new command must say which of its arguments name elements.

use rove_page::Target;

use crate::happened::Happened;
use crate::outcome::Outcome;
use crate::session::Session;
use crate::{Command, CommandError};

impl Command {
    /// The command's element arguments.
    pub(crate) fn targets_mut(&mut self) -> Vec<&mut Target> {
        match self {
            Command::Click(a) => vec![&mut a.target],
            Command::Hover(a) | Command::Check(a) | Command::Uncheck(a) => vec![&mut a.target],
            Command::Fill(a) => vec![&mut a.target],
            Command::Select(a) => vec![&mut a.target],
            Command::Upload(a) => vec![&mut a.target],
            Command::Get(a) => vec![&mut a.target],
            Command::Drag(a) => vec![&mut a.from, &mut a.to],
            Command::Type(a) => a.target.iter_mut().collect(),
            Command::Press(a) => a.target.iter_mut().collect(),
            Command::Scroll(a) => a.target.iter_mut().collect(),
            Command::Screenshot(a) => a.target.iter_mut().collect(),
            Command::Read(a) => a.target.iter_mut().collect(),
            Command::Eval(a) => a.target.iter_mut().collect(),
            Command::Snapshot(a) => a.scope.iter_mut().collect(),
            Command::Open(_)
            | Command::Back
            | Command::Forward
            | Command::Reload
            | Command::Find(_)
            | Command::Dialog(_)
            | Command::Tab(_)
            | Command::Wait(_)
            | Command::Close
            | Command::Console(_)
            | Command::Network(_)
            | Command::Cookies(_)
            | Command::Storage(_)
            | Command::State(_)
            | Command::Set(_)
            | Command::Pdf(_) => Vec::new(),
        }
    }

    /// Whether any element argument is a locator still to resolve.
    pub(crate) fn has_locators(&self) -> bool {
        self.clone()
            .targets_mut()
            .iter()
            .any(|t| t.locator().is_some())
    }
}

impl Session {
    /// The command with each locator replaced by the ref it resolves to in
    /// the focused tab (`None` when it holds none); each resolution is the
    /// answer's first lines. Nothing is sent to the page before all of
    /// them resolved, so a bad second locator leaves the page untouched.
    pub(crate) async fn resolve_targets(
        &mut self,
        command: &Command,
        out: &mut Outcome,
    ) -> Result<Option<Command>, CommandError> {
        if !command.has_locators() {
            return Ok(None);
        }
        let mut resolved = command.clone();
        for target in resolved.targets_mut() {
            let Target::Locator(locator) = target else {
                continue;
            };
            let found = self.model()?.resolve(locator).await?;
            out.happened.push(Happened::Located {
                locator: locator.to_string(),
                target: found.reference,
                role: found.role,
                name: found.name,
            });
            *target = Target::Ref(found.reference);
        }
        Ok(Some(resolved))
    }
}
