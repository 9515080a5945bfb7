//! The challenge watchdog: a captcha or bot wall the page shows is not the
//! model's to click at. Before each step, every challenge the views showed
//! that still blocks the page is handed to the solver plugin (when one is
//! installed), else, in a browser with a window, to the person at it (one
//! line on stderr, then its state watched up to `--captcha-wait`), else
//! the run ends saying so. Each is tracked on its own, and the run's
//! history keeps who solved which and how long it took.
//!
//! What a challenge is comes from the view's own `captcha eN kind=K
//! state=S` lines (and their `+`/`~`/`-` forms in a diff), so the view,
//! `solve`, this watchdog and the judge agree.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rove_commands::{Command, Happened, Session, SnapshotArgs, SolveArgs, Target};
use rove_llm::Message;

use crate::record::{AgentConfig, ChallengeRecord, Ending};

/// What the views said of each challenge, by ref.
#[derive(Debug, Default)]
pub(crate) struct Watch {
    states: BTreeMap<String, (String, String)>,
    pub(crate) records: Vec<ChallengeRecord>,
}

impl Watch {
    /// Reads every challenge line of `text` (a view or a diff the model is
    /// shown), met at `step`.
    pub fn read(&mut self, text: &str, step: u32) {
        for line in text.lines() {
            let (gone, line) = match line.split_once(' ') {
                Some(("+" | "~", rest)) => (false, rest),
                Some(("-", rest)) => (true, rest),
                _ => (false, line),
            };
            let mut words = line.split(' ');
            if words.next() != Some("captcha") {
                continue;
            }
            let Some(reference) = words.next().filter(|r| r.starts_with('e')) else {
                continue;
            };
            let field = |name: &str| {
                line.split(' ')
                    .find_map(|w| w.strip_prefix(name))
                    .unwrap_or_default()
                    .to_owned()
            };
            let (kind, state) = (field("kind="), field("state="));
            if kind.is_empty() {
                continue;
            }
            if gone {
                self.states.remove(reference);
                continue;
            }
            let new = !self.records.iter().any(|r| r.reference == reference);
            if new {
                self.records.push(ChallengeRecord {
                    reference: reference.to_owned(),
                    kind: kind.clone(),
                    step,
                    solved_by: None,
                    seconds: 0.0,
                    outcome: format!("met in state {state}"),
                });
            }
            self.states.insert(reference.to_owned(), (kind, state));
        }
    }

    /// The challenges that stop the page now, by ref and kind.
    fn blocking(&self) -> Vec<(String, String)> {
        self.states
            .iter()
            .filter(|(_, (_, state))| {
                matches!(state.as_str(), "unsolved" | "challenge" | "expired")
            })
            .map(|(r, (kind, _))| (r.clone(), kind.clone()))
            .collect()
    }

    fn settle(&mut self, reference: &str, by: Option<String>, seconds: f64, outcome: String) {
        if by.is_some()
            && let Some((_, state)) = self.states.get_mut(reference)
        {
            *state = "solved".to_owned();
        }
        if let Some(record) = self
            .records
            .iter_mut()
            .rev()
            .find(|r| r.reference == reference)
        {
            record.solved_by = by;
            record.seconds = (seconds * 10.0).round() / 10.0;
            record.outcome = outcome;
        }
    }
}

/// Deals with every challenge that blocks the page before step `step`:
/// what was done is told to the model in `messages`; `Some` ending when a
/// challenge is left that nothing here can solve.
pub(crate) async fn before_step(
    session: &mut Session,
    watch: &mut Watch,
    config: &AgentConfig,
    step: u32,
    messages: &mut Vec<Message>,
) -> Option<Ending> {
    let blocking = watch.blocking();
    if blocking.is_empty() {
        return None;
    }
    let folder = rove_commands::solver::plugins_folder(session.config().plugins.as_deref());
    let solver = !rove_commands::solver::plugins_in(&folder).is_empty();
    let mut told = Vec::new();
    for (reference, kind) in blocking {
        let started = Instant::now();
        let mut failure = None;
        if solver {
            match solve(session, &reference).await {
                Ok((plugin, said)) => {
                    let seconds = started.elapsed().as_secs_f64();
                    watch.settle(
                        &reference,
                        Some(format!("plugin {plugin}")),
                        seconds,
                        said.clone(),
                    );
                    told.push(said);
                    continue;
                }
                Err(why) => failure = Some(why),
            }
        }
        if config.headed {
            let wait = config.captcha_wait;
            let line = crate::log::ask_person(&reference, &kind, wait);
            if let Some(tell) = &config.tell_person {
                (tell.0)(&line);
            }
            let outcome = wait_for_person(session, watch, &reference, wait).await;
            let seconds = started.elapsed().as_secs_f64();
            if let Some(state) = outcome {
                let said = format!(
                    "{reference} ({kind}) was solved by a person in the browser window ({state})"
                );
                watch.settle(&reference, Some("person".to_owned()), seconds, said.clone());
                told.push(said);
                continue;
            }
            failure = Some(format!(
                "no one solved it in the browser window within {} s",
                wait.as_secs()
            ));
        }
        let reason = failure.unwrap_or_else(|| {
            "no solver plugin is installed and the browser has no window for a person to solve it in".to_owned()
        });
        let seconds = started.elapsed().as_secs_f64();
        watch.settle(&reference, None, seconds, format!("unsolved: {reason}"));
        crate::log::challenge_left(&reference, &kind, &reason);
        return Some(Ending::Challenge {
            reference,
            kind,
            step,
            why: reason,
        });
    }
    if !told.is_empty() {
        // The watchdog's own looks were not the model's.
        session.name_url_next();
        let now = session
            .execute(&Command::Snapshot(SnapshotArgs::default()))
            .await
            .map(|o| o.text())
            .unwrap_or_default();
        watch.read(&now, step);
        let secrets = &session.config().secrets;
        messages.push(Message::User {
            text: secrets.redact(&format!(
                "rove's challenge watchdog: {}. The page now:\n{now}",
                told.join("; ")
            )),
        });
    }
    None
}

/// `solve` on one challenge: the plugin's name and the answer's line.
async fn solve(session: &mut Session, reference: &str) -> Result<(String, String), String> {
    let target = reference
        .parse::<rove_commands::Ref>()
        .ok()
        .map(Target::Ref);
    let command = Command::Solve(SolveArgs { target });
    match session.execute(&command).await {
        Ok(out) => {
            let plugin = out
                .happened
                .iter()
                .find_map(|h| match h {
                    Happened::Solved { plugin, .. } | Happened::Answered { plugin, .. } => {
                        Some(plugin.clone())
                    }
                    _ => None,
                })
                .unwrap_or_default();
            let line = out.happened_lines().first().cloned().unwrap_or_default();
            Ok((plugin, line))
        }
        Err(e) => {
            let report = e.report();
            Err(format!("{}: {}", report.code, report.message))
        }
    }
}

/// Watches the challenge until the page says solved (its state then) or
/// `wait` passed.
async fn wait_for_person(
    session: &mut Session,
    watch: &mut Watch,
    reference: &str,
    wait: Duration,
) -> Option<String> {
    let until = Instant::now() + wait;
    // The view when an image captcha's field last held an answer: the
    // person is done typing when it holds still from one look to the next.
    let mut answered_view: Option<String> = None;
    while Instant::now() < until {
        tokio::time::sleep(rove_base::limits::CAPTCHA_WATCH).await;
        let Ok(out) = session
            .execute(&Command::Snapshot(SnapshotArgs::default()))
            .await
        else {
            continue;
        };
        let Some(view) = out.view else { continue };
        let text = view.text.clone();
        let state = view
            .challenges
            .iter()
            .find(|c| c.reference.to_string() == reference)
            .map(|c| c.state.clone());
        match state.as_deref() {
            Some("solved") => return Some("the widget says solved".to_owned()),
            // An image captcha's field holds an answer: the page checks it
            // when its form is sent, which is the model's step to take.
            Some("answered") => {
                if answered_view.as_deref() == Some(text.as_str()) {
                    return Some("its field holds an answer".to_owned());
                }
                answered_view = Some(text);
                continue;
            }
            None => {
                watch.states.remove(reference);
                return Some("the challenge left the page".to_owned());
            }
            _ => {}
        }
        answered_view = None;
    }
    None
}
