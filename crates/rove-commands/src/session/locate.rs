//! Locators in place of refs, resolved in one place for every command.
//!
//! Each element argument of the vocabulary is a [`Target`]: a ref, or a
//! locator (`css=…`, `role=…[name="…"]`, `text=…`). Before a command runs,
//! [`Session::resolve_targets`] resolves each locator it holds to the one
//! element the view shows that it matches, puts that element's ref in its
//! place, and says so first in the answer (`css=#save → e7 button "Save"`).
//! The commands themselves only ever see refs. One list (the
//! `element_arguments!` match) names the element arguments of every
//! command, with no catch-all arm, so a new command must say which of its
//! arguments name elements.

use rove_page::{Located, Locator, Target};

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{Command, CommandError};

/// The element arguments of a command, as shared (`iter`, `&`) or mutable
/// (`iter_mut`, `&mut`) references: one list for both, so they cannot differ.
macro_rules! element_arguments {
    ($command:expr, $iter:ident, $($borrow:tt)+) => {
        match $command {
            Command::Click(a) => vec![$($borrow)+ a.target],
            Command::Hover(a) | Command::Check(a) | Command::Uncheck(a) => {
                vec![$($borrow)+ a.target]
            }
            Command::Fill(a) => vec![$($borrow)+ a.target],
            Command::Select(a) => vec![$($borrow)+ a.target],
            Command::Upload(a) => vec![$($borrow)+ a.target],
            Command::Get(a) => vec![$($borrow)+ a.target],
            Command::Drag(a) => vec![$($borrow)+ a.from, $($borrow)+ a.to],
            Command::Type(a) => a.target.$iter().collect(),
            Command::Press(a) => a.target.$iter().collect(),
            Command::Scroll(a) => a.target.$iter().collect(),
            Command::Solve(a) => a.target.$iter().collect(),
            Command::Screenshot(a) => a.target.$iter().collect(),
            Command::Read(a) => a.target.$iter().collect(),
            Command::Eval(a) => a.target.$iter().collect(),
            Command::Snapshot(a) => a.scope.$iter().collect(),
            Command::FillForm(a) => a.fields.$iter().map(|f| $($borrow)+ f.target).collect(),
            Command::Open(_)
            | Command::Back
            | Command::Forward
            | Command::Reload
            | Command::Find(_)
            | Command::Dialog(_)
            | Command::Tab(_)
            | Command::Desktop(_)
            | Command::Wait(_)
            | Command::Close
            | Command::Console(_)
            | Command::Network(_)
            | Command::Cookies(_)
            | Command::Storage(_)
            | Command::State(_)
            | Command::Set(_)
            | Command::Pdf(_)
            | Command::Mouse(_) => Vec::new(),
        }
    };
}

impl Command {
    /// The command's element arguments, in a fixed order (drag's `from`
    /// before `to`, fill-form's fields as given).
    pub fn targets(&self) -> Vec<&Target> {
        element_arguments!(self, iter, &)
    }

    /// The command's element arguments, to resolve (or, for a replay, aim
    /// again) in place; the same order as [`Command::targets`].
    pub fn targets_mut(&mut self) -> Vec<&mut Target> {
        element_arguments!(self, iter_mut, &mut)
    }

    /// Whether any element argument is a locator still to resolve.
    pub(crate) fn has_locators(&self) -> bool {
        self.targets().iter().any(|t| t.locator().is_some())
    }
}

impl Session {
    /// The one element the focused tab's view shows that `locator` matches,
    /// with its ref (see [`rove_page::PageModel::resolve`]: no match,
    /// several and only hidden ones are typed errors).
    pub async fn locate(&mut self, locator: &Locator) -> Result<Located, CommandError> {
        Ok(self.model()?.resolve(locator).await?)
    }

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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Command;

    /// A valid call of `tool` with `argument` set to `value`: its required
    /// arguments filled with plain values.
    fn call_with(tool: &crate::ToolDescription, argument: &str, value: &str) -> Command {
        let mut args = serde_json::Map::new();
        for required in tool.parameters["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let property = &tool.parameters["properties"][required];
            let plain = match property["type"].as_str() {
                _ if property["enum"].is_array() => property["enum"][0].clone(),
                Some("boolean") => json!(true),
                Some("array") => json!(["x"]),
                _ => json!("e1"),
            };
            args.insert(required.into(), plain);
        }
        args.insert(argument.into(), json!(value));
        Command::from_tool_call(tool.name, Some(&Value::Object(args)))
            .unwrap_or_else(|e| panic!("{} {argument}: {e}", tool.name))
    }

    #[test]
    fn every_argument_that_takes_a_ref_takes_a_locator() {
        let mut seen = 0;
        for tool in crate::tools() {
            for argument in ["ref", "from", "to", "scope"] {
                if tool.parameters["properties"].get(argument).is_none() {
                    continue;
                }
                let command = call_with(tool, argument, "css=#x");
                assert!(command.has_locators(), "{} {argument}", tool.name);
                let plain = call_with(tool, argument, "e9");
                assert!(!plain.has_locators(), "{} {argument}", tool.name);
                seen += 1;
            }
        }
        // ref of 14 tools, drag's from and to, snapshot's scope.
        assert!(seen >= 17, "{seen}");
    }

    #[test]
    fn text_that_looks_like_a_locator_is_only_text() {
        let fill: Command = serde_json::from_value(
            json!({"command": "fill", "ref": "e3", "text": "css=#not-a-target"}),
        )
        .expect("parses");
        assert!(!fill.has_locators());
        let drag: Command =
            serde_json::from_value(json!({"command": "drag", "from": "text=Card A", "to": "e2"}))
                .expect("parses");
        assert_eq!(drag.targets().len(), 2);
        assert!(drag.has_locators());
    }
}
