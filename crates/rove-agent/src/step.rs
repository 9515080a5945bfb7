//! One answer's tool calls, run in order within the step's deadline.

use rove_commands::Session;
use rove_llm::Message;

use crate::notes::Notes;
use crate::tools::{act, done_of};
use crate::{ActionRecord, AgentConfig, Ending, Target};

/// What came of one answer's tool calls.
pub(crate) struct Acted {
    pub(crate) actions: Vec<ActionRecord>,
    pub(crate) results: Vec<Message>,
    pub(crate) ended: Option<Ending>,
    /// The browser's own failure, when it is gone.
    pub(crate) lost: Option<rove_commands::CommandError>,
}

/// What each element argument of `call` names, as the view shows it now
/// (`None` for a locator, or a ref the view does not show), in the order of
/// [`rove_commands::Command::targets`]. The names are the page's text, so
/// redacted like a view.
fn described_targets(
    session: &mut Session,
    call: &rove_llm::ToolCall,
    secrets: &rove_commands::Secrets,
) -> Vec<Option<Target>> {
    let Ok(command) = rove_commands::Command::from_tool_call(&call.name, Some(&call.arguments))
    else {
        return Vec::new();
    };
    command
        .targets()
        .into_iter()
        .map(|target| match target {
            rove_commands::Target::Ref(r) => session.describe(*r),
            rove_commands::Target::Locator(_) => None,
        })
        .map(|found| {
            found.map(|(role, name)| Target {
                role: secrets.redact(&role),
                name: secrets.redact(&name),
            })
        })
        .collect()
}

/// Runs an answer's tool calls in order, within the step's `deadline`.
/// A batch means what it says: after a call that failed, the calls after
/// it are not run (a fill that failed must not be followed by the submit);
/// after a navigation neither (their refs are stale); nor past the
/// deadline, `done` or the per-step limit. Each call not run says why, so
/// the conversation stays well-formed and the model knows. A tab switch
/// is no reason: each tab keeps its refs.
pub(crate) async fn act_all(
    session: &mut Session,
    answer: &rove_llm::Completion,
    (config, offered): (&AgentConfig, &[rove_llm::ToolSpec]),
    secrets: &rove_commands::Secrets,
    notes: &mut Notes,
    deadline: tokio::time::Instant,
) -> Acted {
    let mut acted = Acted {
        actions: Vec::new(),
        results: Vec::new(),
        ended: None,
        lost: None,
    };
    let mut stale = false;
    let mut late = false;
    // The first call that failed, by its place and name.
    let mut failed_before: Option<(usize, String)> = None;
    for (i, call) in answer.tool_calls.iter().enumerate() {
        // What the call aims at, before acting changes the page. (Its name
        // is the page's text, so redacted like a view.)
        let mut described = described_targets(session, call, secrets).into_iter();
        let target = described.next().flatten();
        let other_targets: Vec<Option<Target>> = described.collect();
        let mut unchanged = false;
        let mut timing = None;
        let mut pointer = None;
        let (result, failed, navigated) = if acted.lost.is_some() {
            ("not run: the browser is gone".to_owned(), true, false)
        } else if late {
            (
                "not run: the step ran past its deadline".to_owned(),
                true,
                false,
            )
        } else if acted.ended.is_some() {
            ("not run: done ended the run".to_owned(), true, false)
        } else if let Some((at, name)) = &failed_before {
            (
                format!(
                    "not run: call {at} ({name}) failed, and the calls after a failed one are not run; look at its error, then call again what still applies"
                ),
                true,
                false,
            )
        } else if stale {
            (
                "not run: an earlier action changed the page, so refs may be stale; look at the new view".to_owned(),
                true,
                false,
            )
        } else if i >= config.max_actions_per_step {
            (
                format!(
                    "not run: at most {} actions per step",
                    config.max_actions_per_step
                ),
                true,
                false,
            )
        } else if call.name == "done" {
            acted.ended = Some(done_of(call, secrets));
            ("done".to_owned(), false, false)
        } else if call.name == "note" {
            let text = call.arguments["text"].as_str().unwrap_or_default();
            let replace = call.arguments["replace"].as_bool().unwrap_or(false);
            // What the model writes is redacted like its other words.
            match notes.write(&secrets.redact(text), replace) {
                Ok(said) => (said, false, false),
                Err(why) => (why, true, false),
            }
        } else {
            match tokio::time::timeout_at(deadline, act(session, call, offered)).await {
                Ok(call) => {
                    acted.lost = call.lost;
                    unchanged = call.unchanged;
                    timing = call.timing;
                    pointer = call.pointer;
                    (secrets.redact(&call.text), call.failed, call.moved)
                }
                Err(_) => {
                    late = true;
                    (
                        format!(
                            "not finished: the step ran past its deadline ({:.0} s); the page may have changed",
                            config.step_timeout.as_secs_f64()
                        ),
                        true,
                        true,
                    )
                }
            }
        };
        stale |= navigated;
        if failed && failed_before.is_none() && !result.starts_with("not run") {
            failed_before = Some((i + 1, call.name.clone()));
        }
        // What the model wrote is recorded redacted too: a model that read
        // a value off a screenshot, or guessed it, must not put it in the
        // history.
        acted.actions.push(ActionRecord {
            tool: call.name.clone(),
            arguments: secrets.redact_json(&call.arguments),
            target,
            other_targets,
            result: result.clone(),
            failed,
            unchanged,
            timing,
            pointer,
            tab: session.focused_id().map(|t| t.to_string()),
        });
        acted.results.push(Message::Tool {
            call_id: call.id.clone(),
            text: result,
            is_error: failed,
        });
    }
    acted
}
