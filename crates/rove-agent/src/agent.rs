//! One step at a time: [`Agent`] owns the loop's state (the conversation,
//! the notes, the failures in a row, the steps so far), so an application
//! can run a step, look at what it did, steer (a word to the model, a new
//! task) and go on, or finish. [`crate::run`] is this loop run to its end,
//! so the two cannot drift apart.

use std::time::Instant;

use rove_base::limits;
use rove_commands::{Command, Session, SnapshotArgs};
use rove_llm::{Completion, Llm, LlmError, Message, Request, Spend, ToolSpec, Usage};

use crate::AgentError;
use crate::compact::compact;
use crate::finish::{LastWord, last_word};
use crate::notes::Notes;
use crate::prompt::{system_prompt, turn_status};
use crate::record::{AgentConfig, Ending, FailureKind, RunResult, StepFailure, StepRecord, Vision};
use crate::screenshot::{Screenshot, screenshot};
use crate::seen::{self, Seen};
use crate::step::act_all;
use crate::tools::tool_specs_within;

/// A run in progress, driven one step at a time.
///
/// ```no_run
/// # async fn drive(session: &mut rove_commands::Session, llm: &rove_llm::Llm) -> Result<(), rove_agent::AgentError> {
/// let config = rove_agent::AgentConfig::default();
/// let mut agent = rove_agent::Agent::start("Find the cheapest bolt", session, llm, &config).await;
/// while let Some(step) = agent.step().await? {
///     if step.actions.iter().any(|a| a.tool == "open") {
///         agent.tell("Stay on this site.");
///     }
/// }
/// let result = agent.finish().await;
/// # Ok(()) }
/// ```
pub struct Agent<'a> {
    session: &'a mut Session,
    llm: &'a Llm,
    config: &'a AgentConfig,
    state: State,
}

impl std::fmt::Debug for Agent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("steps", &self.state.steps.len())
            .field("ending", &self.state.ending)
            .finish_non_exhaustive()
    }
}

/// What the loop carries from one step to the next.
struct State {
    tools: Vec<ToolSpec>,
    messages: Vec<Message>,
    steps: Vec<StepRecord>,
    spend: Spend,
    failed_in_a_row: u32,
    last_signature: String,
    repeats: u32,
    model_error: Option<LlmError>,
    shots: Vec<Screenshot>,
    notes: Notes,
    /// The model's last words in plain text: its answer when the run ends
    /// without `done` and the last call for one gets none.
    said_last: Option<String>,
    model_budget: std::time::Duration,
    /// How the run ended, once it has.
    ending: Option<Ending>,
    /// The challenges the views showed (see `challenges.rs`).
    watch: crate::challenges::Watch,
}

impl<'a> Agent<'a> {
    /// Starts a run of `task` on `session` with `llm`: the model's first
    /// request will hold the task and the page as it is now.
    pub async fn start(
        task: &str,
        session: &'a mut Session,
        llm: &'a Llm,
        config: &'a AgentConfig,
    ) -> Agent<'a> {
        let tools = tool_specs_within(session.config().caps);
        // The run's `open` told the session where the page is, not the
        // model.
        session.name_url_next();
        let first = session
            .execute(&Command::Snapshot(SnapshotArgs::default()))
            .await
            .map(|o| o.text())
            .unwrap_or_else(|e| format!("(no view: {e})"));
        // The session fills secrets in (only into fields on their domain);
        // the loop only briefs the model and redacts what it is shown.
        let secrets = session.config().secrets.clone();
        let briefing = secrets
            .briefing()
            .map(|b| format!("\n{b}"))
            .unwrap_or_default();
        let messages = vec![Message::User {
            text: format!(
                "Task: {task}{briefing}\n\nThe page now:\n{}",
                secrets.redact(&first)
            ),
        }];
        crate::log::run_started(&secrets.redact(task), llm.current(), config.max_steps);
        let mut watch = crate::challenges::Watch::default();
        watch.read(&first, 0);
        Agent {
            session,
            llm,
            config,
            state: State {
                tools,
                messages,
                steps: Vec::new(),
                spend: Spend::default(),
                failed_in_a_row: 0,
                last_signature: String::new(),
                repeats: 0,
                model_error: None,
                shots: Vec::new(),
                notes: Notes::default(),
                said_last: None,
                model_budget: limits::model_time(config.step_timeout),
                ending: None,
                watch,
            },
        }
    }

    /// The steps so far.
    pub fn steps(&self) -> &[StepRecord] {
        &self.state.steps
    }

    /// The last step: its thought, actions and their results, failure.
    pub fn last_step(&self) -> Option<&StepRecord> {
        self.state.steps.last()
    }

    /// How the run ended, once it has (`done`, a limit, a loop).
    pub fn ending(&self) -> Option<&Ending> {
        self.state.ending.as_ref()
    }

    /// The model's notes, as its next request shows them.
    pub fn notes(&self) -> Option<String> {
        self.state.notes.shown()
    }

    /// The session the run drives, for a look between steps (a command
    /// run here changes what the model will see, and it is not told).
    pub fn session(&mut self) -> &mut Session {
        self.session
    }

    /// Tells the model something before its next step: a user message in
    /// the conversation (`Note from the user: …`).
    pub fn tell(&mut self, text: &str) {
        let text = self.session.config().secrets.redact(text);
        self.state.messages.push(Message::User {
            text: format!("Note from the user: {text}"),
        });
    }

    /// Changes the task from the next step on: the model is told the new
    /// one (the first message keeps the old one, as the history it is).
    pub fn set_task(&mut self, task: &str) {
        let task = self.session.config().secrets.redact(task);
        self.state.messages.push(Message::User {
            text: format!("The task has changed. The task is now: {task}"),
        });
    }

    /// Runs the next step: the model is asked, its calls run, the step is
    /// recorded. `None` when the run has already ended. When this step
    /// ends it (`done`, a loop, the limit of failures or of steps, where
    /// the model is asked once more for its answer), [`Agent::ending`]
    /// says how. An error when the browser is gone or the model refuses
    /// the key: no later step could do anything.
    pub async fn step(&mut self) -> Result<Option<&StepRecord>, AgentError> {
        if self.state.ending.is_some() {
            return Ok(None);
        }
        let number = self.state.steps.len() as u32 + 1;
        // Boxed: the step's state is large, and callers (a test's runtime
        // among them) would otherwise hold it on their stack.
        let ended = Box::pin(self.one_step(number)).await?;
        let st = &mut self.state;
        if let Some(ending) = ended {
            st.ending = Some(ending);
        } else if st.repeats >= 2 {
            st.ending = Some(Ending::Loop);
        } else if st.failed_in_a_row >= self.config.max_failures {
            let why = format!(
                "{} steps in a row failed; the run stops here.",
                st.failed_in_a_row
            );
            let answer = self.last_word(&why).await;
            self.state.ending = Some(Ending::Failures {
                failed: self.state.failed_in_a_row,
                limit: self.config.max_failures,
                answer,
            });
        } else if number >= self.config.max_steps {
            let why = format!(
                "You have used all {} steps; the run stops here.",
                self.config.max_steps
            );
            let answer = self.last_word(&why).await;
            self.state.ending = Some(Ending::MaxSteps { answer });
        }
        Ok(self.state.steps.last())
    }

    /// Ends the run and reports it. A run that has not ended (the
    /// application stops it between steps) asks the model once for its
    /// best answer and ends as `MaxSteps`: the application's limit on
    /// steps.
    pub async fn finish(mut self) -> RunResult {
        if self.state.ending.is_none() {
            let answer = self.last_word("The user stops the run here.").await;
            self.state.ending = Some(Ending::MaxSteps { answer });
        }
        let st = self.state;
        let ending = st.ending.unwrap_or(Ending::MaxSteps { answer: None });
        // The model's error is the reason a run of failures ended; after
        // `done` or a loop, an earlier one is no longer news.
        let model_error = match ending {
            Ending::Failures { .. } => st.model_error,
            _ => None,
        };
        crate::log::run_ended(&ending, st.steps.len());
        RunResult {
            ending,
            steps: st.steps,
            usage: st.spend.total(),
            spend: st.spend,
            model_error,
            screenshots: st.shots,
            challenges: st.watch.records,
        }
    }

    /// Asks the model once, saying `why`, for its answer: `done`'s text,
    /// or its last plain text; redacted.
    async fn last_word(&mut self, why: &str) -> Option<String> {
        let st = &mut self.state;
        let asked = LastWord {
            llm: self.llm,
            config: self.config,
            tools: &st.tools,
            notes: &st.notes,
        };
        let answer = last_word(&asked, &mut st.messages, why, &mut st.spend)
            .await
            .or(st.said_last.clone());
        answer.map(|a| self.session.config().secrets.redact(&a))
    }

    /// One step, recorded; `done`'s ending when the model called it.
    async fn one_step(&mut self, number: u32) -> Result<Option<Ending>, AgentError> {
        let session = &mut *self.session;
        let llm = self.llm;
        let config = self.config;
        let st = &mut self.state;
        let secrets = &session.config().secrets.clone();
        // A browser gone for good (a farm ended it mid-run) makes every
        // action fail the same way: the model is not asked again.
        if let Some(lost) = session.browser_lost() {
            return Err(AgentError::Browser(Box::new(lost)));
        }
        if let Some(ending) = challenge_wall(session, st, config, number).await {
            return Ok(Some(ending));
        }
        let started = Instant::now();
        crate::log::step_started(number);
        let deadline = tokio::time::Instant::now() + config.step_timeout;
        let marks = if config.trace {
            // Boxed: the run's future is large already (tests run it on a
            // thread's stack).
            Box::pin(session.log_marks()).await
        } else {
            rove_commands::LogMarks::default()
        };
        let mut shown = compact(&st.messages, config.history_budget);
        // Where the run stands and the model's notes, last: on this
        // request only, never in the history (so never cut, never
        // repeated).
        let status = turn_status(number, config, st.failed_in_a_row, &st.notes);
        let mut traced = Seen {
            observation: config
                .trace
                .then(|| format!("{}\n\n{status}", seen::observation(&shown))),
            ..Seen::default()
        };
        let mut kept = None;
        if sees(config.vision, llm.current()) {
            let (image, saved) =
                viewport_before(session, config, &mut st.shots, number, deadline).await;
            kept = saved;
            shown.extend(image);
        }
        shown.push(Message::User { text: status });
        let request = Request {
            system: system_prompt(config, llm.current()),
            messages: shown,
            tools: st.tools.clone(),
            max_tokens: config.max_tokens,
            force_tool: None,
        };
        let (answer, model_ms) = st.ask(llm, &request, config, number, deadline).await?;
        let mut record = StepRecord {
            number,
            thought: String::new(),
            actions: Vec::new(),
            usage: Usage::default(),
            model: None,
            screenshot: kept,
            ms: 0.0,
            model_ms: (model_ms * 1000.0).round() / 1000.0,
            failure: None,
            seen: Seen::default(),
        };
        let mut ended = None;
        let mut lost = None;
        let why = match &answer {
            // The model never answered: the conversation stays as it was,
            // and the next step asks again.
            None => Some((
                FailureKind::Model,
                match &st.model_error {
                    Some(e) => format!("the model failed: {e}"),
                    None => "the model failed".to_owned(),
                },
            )),
            Some(answer) => {
                crate::log::model_answered(number, answer, model_ms, &secrets.redact(&answer.text));
                let acted = act_all(
                    session,
                    answer,
                    (config, &st.tools),
                    secrets,
                    &mut st.notes,
                    deadline,
                )
                .await;
                for action in &acted.actions {
                    crate::log::action(number, action);
                    st.watch.read(&action.result, number);
                }
                ended = acted.ended;
                lost = acted.lost;
                st.spend.add(&answer.served_by, answer.usage);
                record.thought = secrets.redact(&answer.text);
                record.usage = answer.usage;
                record.model = Some(answer.served_by.clone());
                let nothing = acted.actions.is_empty();
                let all_failed = !nothing && acted.actions.iter().all(|a| a.failed);
                st.messages.push(Message::Assistant {
                    text: answer.text.clone(),
                    tool_calls: answer.tool_calls.clone(),
                });
                st.messages.extend(acted.results);
                if nothing {
                    if !answer.text.trim().is_empty() {
                        st.said_last = Some(secrets.redact(answer.text.trim()));
                    }
                    st.messages.push(Message::User {
                        text: "Plain text is not an action: call a tool to act on the page, or call done with your answer (what you wrote is kept as your answer should the run end without done)."
                            .into(),
                    });
                }
                st.count_repeats(answer, &acted.actions);
                record.actions = acted.actions;
                if nothing {
                    Some((FailureKind::NoTool, "the model called no tool".to_owned()))
                } else if all_failed && ended.is_none() {
                    Some((FailureKind::Actions, "every action failed".to_owned()))
                } else {
                    None
                }
            }
        };
        st.failed_in_a_row = if why.is_some() {
            st.failed_in_a_row + 1
        } else {
            0
        };
        record.failure = why.map(|(kind, why)| StepFailure {
            kind,
            count: st.failed_in_a_row,
            limit: config.max_failures,
            why,
        });
        record.ms = started.elapsed().as_secs_f64() * 1e3;
        // The trace's look at the step comes after its time is taken, so
        // tracing does not inflate it.
        if config.trace && lost.is_none() {
            if config.trace_screenshots && answer.is_some() {
                traced.screenshot_after =
                    seen::after_screenshot(session, config.screenshot_dir.as_deref(), number).await;
            }
            traced.add_logs(Box::pin(session.logs_since(&marks)).await);
        }
        record.seen = traced;
        if let (None, Some(e)) = (&answer, &st.model_error) {
            crate::log::model_failed(number, e, model_ms);
        }
        crate::log::step_ended(&record);
        st.steps.push(record);
        if let Some(error) = lost {
            // Nothing more can happen on this browser: the failures left
            // would only repeat this one.
            return Err(AgentError::Browser(Box::new(error)));
        }
        Ok(ended)
    }
}

impl State {
    /// Asks the model for this step until `deadline`. A failure a later
    /// step may get past is kept in `model_error` (and no answer
    /// returned); one that ends the run is the error. With the model's
    /// time in ms.
    async fn ask(
        &mut self,
        llm: &Llm,
        request: &Request,
        config: &AgentConfig,
        number: u32,
        deadline: tokio::time::Instant,
    ) -> Result<(Option<Completion>, f64), AgentError> {
        let asked_at = Instant::now();
        let asked =
            tokio::time::timeout_at(deadline, llm.complete_within(request, self.model_budget))
                .await;
        let model_ms = asked_at.elapsed().as_secs_f64() * 1e3;
        let answer = match asked {
            Ok(Ok(answer)) => {
                self.model_error = None;
                Some(answer)
            }
            Ok(Err(e)) if ends_the_run(&e, number) => return Err(AgentError::Llm(e)),
            Ok(Err(e)) => {
                self.model_error = Some(e);
                None
            }
            Err(_) => {
                self.model_error = Some(LlmError::Timeout {
                    provider: llm.current().provider.clone(),
                    seconds: config.step_timeout.as_secs_f64(),
                });
                None
            }
        };
        Ok((answer, model_ms))
    }

    /// Counts the same actions on a page they do not change, and nudges
    /// the model the first time (the run stops past the limit).
    fn count_repeats(&mut self, answer: &Completion, actions: &[crate::ActionRecord]) {
        let signature = serde_json::to_string(
            &answer
                .tool_calls
                .iter()
                .map(|c| (&c.name, &c.arguments))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_default();
        // (Failing actions count as failures, not as a loop.)
        let unchanged = !actions.is_empty() && actions.iter().all(|a| !a.failed && a.unchanged);
        self.repeats = if unchanged && signature == self.last_signature {
            self.repeats + 1
        } else {
            0
        };
        self.last_signature = signature;
        if self.repeats == 1 {
            self.messages.push(Message::User {
                text: "You repeated the same action and the page did not change. Do something else, or call done.".into(),
            });
        }
    }
}

/// The viewport before step `number`, for a model that sees images: the
/// message for this request, and the file it was saved to under
/// `screenshot_dir`; the judge's copy joins `shots`.
async fn viewport_before(
    session: &mut Session,
    config: &AgentConfig,
    shots: &mut Vec<Screenshot>,
    number: u32,
    deadline: tokio::time::Instant,
) -> (Option<Message>, Option<String>) {
    let shot = tokio::time::timeout_at(deadline, screenshot(session))
        .await
        .ok()
        .flatten();
    let Some((image, bytes)) = shot else {
        return (None, None);
    };
    let mut kept = None;
    if let Some(dir) = &config.screenshot_dir {
        let path = dir.join(format!("step-{number}.jpg"));
        if std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&path, &bytes))
            .is_ok()
        {
            kept = Some(path.display().to_string());
        }
    }
    if config.keep_screenshots > 0 {
        if shots.len() >= config.keep_screenshots {
            shots.remove(0);
        }
        shots.push(Screenshot {
            caption: format!("before step {number}"),
            mime: "image/jpeg".into(),
            bytes,
        });
    }
    (Some(image), kept)
}

/// Model errors that no later step can fix: a refused key (after the
/// fallback, if any), a wrong configuration, and nothing listening at the
/// model's address at step 1 (a server that was never started; later, one
/// that stopped may be restarting).
pub(crate) fn ends_the_run(e: &LlmError, step: u32) -> bool {
    match e {
        LlmError::Auth { .. } | LlmError::Config(_) | LlmError::NoKey { .. } => true,
        LlmError::Refused { .. } => step == 1,
        _ => false,
    }
}

/// Whether this step shows a screenshot.
pub(crate) fn sees(vision: Vision, model: &rove_llm::Endpoint) -> bool {
    match vision {
        Vision::On => true,
        Vision::Off => false,
        Vision::Auto => model.sees_images(),
    }
}

/// A challenge on the page is no work for the model: the watchdog solves it
/// or hands it to a person first, or ends the run (that ending).
async fn challenge_wall(
    session: &mut Session,
    st: &mut State,
    config: &AgentConfig,
    number: u32,
) -> Option<Ending> {
    let wall =
        crate::challenges::before_step(session, &mut st.watch, config, number, &mut st.messages);
    // Boxed: the step's future is large already.
    Box::pin(wall).await
}
