//! Replaying a recorded run without a model: the same actions in order,
//! each element argument (a ref, drag's two ends, fill-form's fields) found
//! again by its role and name when refs differ, stopping
//! with a typed error at the first step that cannot be repeated.

use rove_commands::{Command, CommandError, Locator, NameMatch, OpenArgs, PageError, Ref, Session};

use serde_json::Value;

use crate::record::{StepRecord, Target};

/// Why a replay stopped before the end.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The history is not one rove wrote.
    #[error("the history cannot be read: {0}")]
    History(String),
    /// The element an action aimed at is not on the page any more.
    #[error("step {step}: no {role} named {name:?} on the page")]
    NotFound {
        /// The step.
        step: u32,
        /// What was looked for.
        role: String,
        /// Its name.
        name: String,
    },
    /// An action aimed at a ref whose role and name the history does not
    /// hold (written before rove kept them for every element argument, or
    /// the view did not show the element): the ref names nothing in this
    /// session, and guessing could act on the wrong element.
    #[error(
        "step {step}: the history does not say what {tool}'s {reference} was, so the replay cannot find it again"
    )]
    Undescribed {
        /// The step.
        step: u32,
        /// The tool.
        tool: String,
        /// The recorded ref.
        reference: String,
    },
    /// Several elements the view shows have the role and name an action
    /// aimed at: the replay does not guess which (the first could be a
    /// search box where a password was typed).
    #[error(
        "step {step}: {count} of the page's elements are a {role} named {name:?}; the replay cannot tell which one the run aimed at"
    )]
    Ambiguous {
        /// The step.
        step: u32,
        /// What was looked for.
        role: String,
        /// Its name.
        name: String,
        /// How many the view shows.
        count: u64,
    },
    /// The history types secrets (their placeholders) this replay was not
    /// given: typing the placeholder itself would be reported as a success
    /// the page never got.
    #[error(
        "the history types {} that this replay was not given: nothing was replayed",
        missing_names(.names)
    )]
    MissingSecrets {
        /// The secrets' names, in the order the history first types them.
        names: Vec<String>,
    },
    /// An action failed.
    #[error("step {step}: {tool} failed: {error}")]
    Failed {
        /// The step.
        step: u32,
        /// The tool.
        tool: String,
        /// Why.
        error: CommandError,
    },
}

/// What a replay did.
#[derive(Debug, Clone, PartialEq)]
pub struct Replayed {
    /// Actions repeated.
    pub actions: usize,
    /// Refs that differed and were found again by role and name.
    pub refound: usize,
}

/// Replays `history` (as `rove run --history` writes it) on `session`,
/// starting at `start_url` when given, else at the history's.
pub async fn replay(
    history: &Value,
    session: &mut Session,
    start_url: Option<&str>,
) -> Result<Replayed, ReplayError> {
    let steps: Vec<StepRecord> = serde_json::from_value(history["steps"].clone())
        .map_err(|e| ReplayError::History(e.to_string()))?;
    let secrets = &session.config().secrets;
    let names: Vec<String> = placeholders(&steps)
        .into_iter()
        .filter(|name| !secrets.has(name))
        .collect();
    if !names.is_empty() {
        return Err(ReplayError::MissingSecrets { names });
    }
    let start = start_url.or_else(|| history["start_url"].as_str());
    if let Some(url) = start {
        let open = Command::Open(OpenArgs {
            url: url.to_owned(),
            new_tab: false,
        });
        session
            .execute(&open)
            .await
            .map_err(|error| ReplayError::Failed {
                step: 0,
                tool: "open".into(),
                error,
            })?;
    }
    let mut done = Replayed {
        actions: 0,
        refound: 0,
    };
    for step in &steps {
        for action in &step.actions {
            // Failed actions changed nothing the run relied on.
            if action.failed || action.tool == "done" {
                continue;
            }
            let mut command = Command::from_tool_call(&action.tool, Some(&action.arguments))
                .map_err(|e| ReplayError::History(format!("step {}: {e}", step.number)))?;
            // Each element argument that was a ref the view showed is aimed
            // again at what has that role and name now; a locator finds its
            // element itself.
            let described: Vec<Option<&Target>> = std::iter::once(action.target.as_ref())
                .chain(action.other_targets.iter().map(Option::as_ref))
                .collect();
            let mut aimed = Vec::new();
            for (i, at) in command.targets().into_iter().enumerate() {
                let was = described.get(i).copied().flatten();
                match (at, was) {
                    (rove_commands::Target::Ref(old), Some(was)) => {
                        let found = refind(session, step.number, was).await?;
                        aimed.push(Some((found, found != *old)));
                    }
                    // A ref of the recorded session names nothing known in
                    // this one: without its role and name it cannot be aimed.
                    (rove_commands::Target::Ref(old), None) => {
                        return Err(ReplayError::Undescribed {
                            step: step.number,
                            tool: action.tool.clone(),
                            reference: old.to_string(),
                        });
                    }
                    // A locator finds its element itself.
                    (rove_commands::Target::Locator(_), _) => aimed.push(None),
                }
            }
            for (at, aimed) in command.targets_mut().into_iter().zip(aimed) {
                if let Some((found, moved)) = aimed {
                    *at = rove_commands::Target::Ref(found);
                    done.refound += usize::from(moved);
                }
            }
            session
                .execute(&command)
                .await
                .map_err(|error| ReplayError::Failed {
                    step: step.number,
                    tool: action.tool.clone(),
                    error,
                })?;
            done.actions += 1;
        }
    }
    Ok(done)
}

/// The names of the secrets whose placeholder (`<secret>NAME</secret>`)
/// stands in an action the replay would repeat, each once.
fn placeholders(steps: &[StepRecord]) -> Vec<String> {
    const OPEN: &str = "<secret>";
    const CLOSE: &str = "</secret>";
    let mut names: Vec<String> = Vec::new();
    let mut stack: Vec<&Value> = steps
        .iter()
        .flat_map(|s| &s.actions)
        .filter(|a| !a.failed && a.tool != "done")
        .map(|a| &a.arguments)
        .collect();
    stack.reverse();
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => {
                let mut rest = text.as_str();
                while let Some(at) = rest.find(OPEN) {
                    rest = &rest[at + OPEN.len()..];
                    let Some(end) = rest.find(CLOSE) else { break };
                    let name = &rest[..end];
                    if !name.is_empty() && !names.iter().any(|n| n == name) {
                        names.push(name.to_owned());
                    }
                    rest = &rest[end + CLOSE.len()..];
                }
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(map.values().rev()),
            _ => {}
        }
    }
    names
}

fn missing_names(names: &[String]) -> String {
    let listed: Vec<String> = names
        .iter()
        .map(|n| format!("<secret>{n}</secret>"))
        .collect();
    match listed.len() {
        1 => format!("the secret {}", listed.join("")),
        _ => format!("the secrets {}", listed.join(", ")),
    }
}

/// The ref of the one element the view shows with `target`'s role and
/// exact name (the locator `role=ROLE[name="NAME"]`): none, or several, stop
/// the replay.
async fn refind(session: &mut Session, step: u32, target: &Target) -> Result<Ref, ReplayError> {
    let locator = Locator::Role {
        role: target.role.clone(),
        name: Some(NameMatch::Exact(target.name.clone())),
    };
    let not_found = || ReplayError::NotFound {
        step,
        role: target.role.clone(),
        name: target.name.clone(),
    };
    match session.locate(&locator).await {
        Ok(found) => Ok(found.reference),
        Err(CommandError::Page(PageError::NoMatch { .. } | PageError::NotShown { .. })) => {
            Err(not_found())
        }
        Err(CommandError::Page(PageError::Ambiguous { count, .. })) => {
            Err(ReplayError::Ambiguous {
                step,
                role: target.role.clone(),
                name: target.name.clone(),
                count,
            })
        }
        Err(error) => Err(ReplayError::Failed {
            step,
            tool: "locate".into(),
            error,
        }),
    }
}
