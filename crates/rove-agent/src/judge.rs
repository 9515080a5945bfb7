//! The judge: a second model reads what the agent did and says whether the
//! task was done. It gets the ground truth first (marked authoritative),
//! the task and its judging context, a line per action of every step, the
//! agent's final answer beside its own success report, the final URL and
//! the last screenshots (a count and a byte budget). It answers through one
//! forced tool call, `verdict`, whose arguments are read as typed fields;
//! its text is never parsed. Whatever keeps it from answering (an error,
//! its deadline, a missing or mistyped field) makes the run `unjudged`,
//! never a pass or a fail. The judge never replaces the agent's report:
//! callers keep both and call a disagreement a divergence.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rove_base::limits;
use rove_base::text::{clean, ellipsized};
use rove_commands::Session;
use rove_llm::{Completion, Llm, Message, Request, ToolSpec, Usage};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::record::{Ending, RunResult, StepRecord};
use crate::screenshot::Screenshot;

/// How the judge is bounded.
#[derive(Debug, Clone)]
pub struct JudgeConfig {
    /// The most screenshots it sees (the last ones; 0 for none).
    pub screenshots: usize,
    /// The most bytes of screenshots it sees, all together.
    pub screenshot_bytes: usize,
    /// The deadline of its call, retries included.
    pub timeout: Duration,
    /// The most tokens its answer may take.
    pub max_tokens: u32,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            screenshots: 4,
            screenshot_bytes: 3_000_000,
            timeout: limits::JUDGE,
            max_tokens: 4_096,
        }
    }
}

/// A judge ready to call: its model and its bounds. Cheap to clone (the
/// model's client is shared), so a suite's attempts can each hold one.
#[derive(Debug, Clone)]
pub struct Judge {
    /// The judge's model.
    pub llm: Arc<Llm>,
    /// Its bounds.
    pub config: JudgeConfig,
}

/// What the task says about judging it.
#[derive(Debug, Clone, Default)]
pub struct About<'a> {
    /// The task, as the agent got it.
    pub task: &'a str,
    /// The right outcome, when the task has one: it outranks everything
    /// else the judge sees.
    pub ground_truth: Option<&'a str>,
    /// Hints for judging.
    pub judge_context: &'a [String],
}

/// Everything the judge is shown about one run.
#[derive(Debug, Clone)]
pub struct Evidence<'a> {
    /// The task and its judging hints.
    pub about: About<'a>,
    /// Every step, as recorded.
    pub steps: &'a [StepRecord],
    /// How the run ended (the final answer and the agent's report).
    pub ending: &'a Ending,
    /// The page's URL when the run ended.
    pub final_url: Option<&'a str>,
    /// Screenshots, oldest first; the judge sees the last ones that fit.
    pub screenshots: &'a [Screenshot],
}

/// The judge's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The task was done as asked.
    Pass,
    /// It was not.
    Fail,
    /// The judge could not say (its call failed, timed out, or its answer
    /// lacked a field): neither a pass nor a fail.
    Unjudged,
}

impl Verdict {
    /// As written in results and histories.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Unjudged => "unjudged",
        }
    }
}

/// What the judge said about one run, or why it said nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// pass, fail or unjudged.
    pub verdict: Verdict,
    /// Why it decided so (empty when unjudged).
    pub reasoning: String,
    /// What went wrong, when it says fail (empty otherwise).
    pub failure_reason: String,
    /// Whether the task could not be done as asked.
    pub impossible_task: bool,
    /// Whether a captcha or bot check stood in the agent's way.
    pub reached_captcha: bool,
    /// Why it is unjudged; `None` when it answered.
    pub error: Option<String>,
    /// The judge's model, as `provider:model`.
    pub model: String,
    /// How many screenshots it was shown.
    pub screenshots: usize,
    /// Tokens of its call.
    pub usage: Usage,
    /// How long its call took.
    pub seconds: f64,
}

impl Judgement {
    /// No verdict from `model`, for the reason given.
    pub fn unjudged(model: String, error: String) -> Judgement {
        Judgement {
            verdict: Verdict::Unjudged,
            reasoning: String::new(),
            failure_reason: String::new(),
            impossible_task: false,
            reached_captcha: false,
            error: Some(error),
            model,
            screenshots: 0,
            usage: Usage::default(),
            seconds: 0.0,
        }
    }

    /// Whether the judge disagrees with the agent's own report (an
    /// unjudged run disagrees with nothing).
    pub fn diverges(&self, success_reported: bool) -> bool {
        match self.verdict {
            Verdict::Pass => !success_reported,
            Verdict::Fail => success_reported,
            Verdict::Unjudged => false,
        }
    }
}

const SYSTEM: &str = "You judge whether a browser agent did the task it was given. You are shown, in this order: the ground truth when there is one (it is authoritative: where anything else disagrees with it, the ground truth wins), the task, notes for judging, every step the agent took with what came of it, the agent's final answer and its own claim of success, the final URL, and the last screenshots. The agent's claim is not evidence: judge by what the steps, the results and the screenshots show. Answer by calling the verdict tool once. verdict is pass only when the task was done as asked and the final answer (if the task asks for one) is right. impossible_task is true when the task could not be done as asked (what it asks for does not exist, the site cannot do it, the request contradicts itself). reached_captcha is true when a captcha or bot check blocked the agent. Six vetoes, each a fail whatever else looks right: (1) a final answer that contradicts the ground truth fails; (2) an action the agent claims (in its answer or its thoughts) that the steps do not show it doing fails, since the steps are the record and a claim without one did not happen; (3) a captcha, bot check or login wall that stopped the task is never a pass: set reached_captcha for a captcha or bot check, impossible_task for a login the agent had no way through, and say fail; (4) a task done only in part (two of three items, one field of a form, a list cut short) fails, however good the part; (5) an answer in another form than the task asks for (a range when it asks for one number, prose when it asks for a list, another unit or format) fails; (6) a site or tool the task requires that the steps bypass (an answer from elsewhere, a guess, another site) fails.";

/// The most characters of the agent's final answer the judge reads: enough
/// for any answer a task asks for, not a page's worth of padding.
const ANSWER_MAX: usize = 4_000;

/// The one tool the judge must call.
pub fn verdict_tool() -> ToolSpec {
    ToolSpec {
        name: "verdict".into(),
        description: "Your judgement of the agent's run.".into(),
        parameters: json!({
            "type": "object",
            "properties": {
                "reasoning": {"type": "string", "description": "What the evidence shows, briefly."},
                "verdict": {"type": "string", "enum": ["pass", "fail"]},
                "failure_reason": {"type": "string", "description": "What went wrong, when the verdict is fail; empty when pass."},
                "impossible_task": {"type": "boolean", "description": "The task could not be done as asked."},
                "reached_captcha": {"type": "boolean", "description": "A captcha or bot check blocked the agent."}
            },
            "required": ["reasoning", "verdict", "failure_reason", "impossible_task", "reached_captcha"],
            "additionalProperties": false,
        }),
    }
}

impl Judge {
    /// The judge's model, as `provider:model`.
    pub fn model(&self) -> String {
        let endpoint = self.llm.current();
        format!("{}:{}", endpoint.provider, endpoint.model)
    }

    /// Judges a finished run on `session` (still open: the final URL and a
    /// last screenshot come from it), with the screenshots the agent's
    /// model saw before.
    pub async fn judge_run(
        &self,
        session: &mut Session,
        run: &RunResult,
        about: About<'_>,
    ) -> Judgement {
        // A page may echo a typed secret into its URL; the judge, like the
        // agent's model, sees the placeholder.
        let final_url = session.config().secrets.redact(&session.current_url());
        let mut screenshots = run.screenshots.clone();
        // A judge that reads text only is shown none (see `request`), so
        // none is taken for it.
        if self.config.screenshots > 0 && self.llm.current().sees_images() {
            let shot = tokio::time::timeout(
                limits::JUDGE_SCREENSHOT,
                crate::screenshot::screenshot(session),
            )
            .await
            .ok()
            .flatten();
            if let Some((_, bytes)) = shot {
                screenshots.push(Screenshot {
                    caption: "at the end".into(),
                    mime: "image/jpeg".into(),
                    bytes,
                });
            }
        }
        let evidence = Evidence {
            about,
            steps: &run.steps,
            ending: &run.ending,
            final_url: (!final_url.is_empty()).then_some(final_url.as_str()),
            screenshots: &screenshots,
        };
        let mut judgement = judge(&self.llm, &evidence, &self.config).await;
        // The judge saw screenshots, where a page may show a typed secret
        // in plain sight: what it wrote goes to the terminal, the results
        // and the history, redacted like the agent's own words.
        let secrets = &session.config().secrets;
        judgement.reasoning = secrets.redact(&judgement.reasoning);
        judgement.failure_reason = secrets.redact(&judgement.failure_reason);
        judgement.error = judgement.error.map(|e| secrets.redact(&e));
        // Whether a challenge stood in the way is what the views showed
        // (the run's challenge records), not the judge's reading of them.
        judgement.reached_captcha = !run.challenges.is_empty();
        judgement
    }
}

/// Asks `llm` for a verdict on `evidence`, within `config.timeout`.
pub async fn judge(llm: &Llm, evidence: &Evidence<'_>, config: &JudgeConfig) -> Judgement {
    let endpoint = llm.current();
    let model = format!("{}:{}", endpoint.provider, endpoint.model);
    let (request, shown) = request(evidence, config, endpoint.sees_images());
    let started = Instant::now();
    // The outer deadline is a little wider than the call's own budget,
    // which already bounds the retries.
    let asked = tokio::time::timeout(
        config.timeout + limits::JUDGE_SLACK,
        llm.complete_within(&request, config.timeout),
    )
    .await;
    let seconds = started.elapsed().as_secs_f64();
    let unjudged = |error: String, usage: Usage| Judgement {
        screenshots: shown,
        usage,
        seconds,
        ..Judgement::unjudged(model.clone(), error)
    };
    let answer = match asked {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => return unjudged(format!("the judge's call failed: {e}"), Usage::default()),
        Err(_) => {
            return unjudged(
                format!(
                    "the judge did not answer within {:.0} s",
                    config.timeout.as_secs_f64()
                ),
                Usage::default(),
            );
        }
    };
    match read(&answer) {
        Ok(read) => Judgement {
            error: None,
            model,
            screenshots: shown,
            usage: answer.usage,
            seconds,
            ..read
        },
        Err(why) => unjudged(why, answer.usage),
    }
}

/// The verdict's fields, from the forced call's arguments only.
fn read(answer: &Completion) -> Result<Judgement, String> {
    let Some(call) = answer.tool_calls.iter().find(|c| c.name == "verdict") else {
        return Err("the judge did not call verdict".into());
    };
    let Value::Object(args) = &call.arguments else {
        return Err("the judge's verdict arguments are not a JSON object".into());
    };
    let text = |name: &str| match args.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(format!("the judge's verdict lacks {name} (a string)")),
    };
    let flag = |name: &str| match args.get(name) {
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(format!("the judge's verdict lacks {name} (true or false)")),
    };
    let verdict = match args.get("verdict").and_then(Value::as_str) {
        Some("pass") => Verdict::Pass,
        Some("fail") => Verdict::Fail,
        _ => return Err("the judge's verdict lacks verdict (pass or fail)".into()),
    };
    // A pass has nothing to say here; a null stands for the empty string.
    let failure_reason = match args.get("failure_reason") {
        Some(Value::Null) => String::new(),
        _ => text("failure_reason")?,
    };
    Ok(Judgement {
        verdict,
        reasoning: text("reasoning")?,
        failure_reason,
        impossible_task: flag("impossible_task")?,
        reached_captcha: flag("reached_captcha")?,
        error: None,
        model: String::new(),
        screenshots: 0,
        usage: Usage::default(),
        seconds: 0.0,
    })
}

/// The judge's request, and how many screenshots it carries: none for a
/// model that reads text only (`sees` false), whose provider would refuse
/// the request or bill the images as text.
fn request(evidence: &Evidence<'_>, config: &JudgeConfig, sees: bool) -> (Request, usize) {
    use base64::Engine;
    let shots = if sees {
        pick(evidence.screenshots, config)
    } else {
        Vec::new()
    };
    let mut messages = vec![Message::User {
        text: brief(evidence),
    }];
    let count = shots.len();
    for (i, shot) in shots.into_iter().enumerate() {
        messages.push(Message::Image {
            text: format!("Screenshot {} of {count}, {}:", i + 1, shot.caption),
            mime: shot.mime.clone(),
            data: base64::engine::general_purpose::STANDARD.encode(&shot.bytes),
        });
    }
    let request = Request {
        system: SYSTEM.to_owned(),
        messages,
        tools: vec![verdict_tool()],
        max_tokens: config.max_tokens,
        force_tool: Some("verdict".into()),
    };
    (request, count)
}

/// The last screenshots within the count and the byte budget, oldest
/// first. One too big for the budget on its own is left out, so an older
/// one may still fit.
fn pick<'a>(shots: &'a [Screenshot], config: &JudgeConfig) -> Vec<&'a Screenshot> {
    let mut picked = Vec::new();
    let mut bytes = 0;
    for shot in shots.iter().rev() {
        if picked.len() >= config.screenshots {
            break;
        }
        if bytes + shot.bytes.len() > config.screenshot_bytes {
            continue;
        }
        bytes += shot.bytes.len();
        picked.push(shot);
    }
    picked.reverse();
    picked
}

/// The text the judge reads: ground truth first, then the task, the notes,
/// the steps, the answer and report, the final URL.
fn brief(evidence: &Evidence<'_>) -> String {
    let about = &evidence.about;
    let mut text = String::new();
    if let Some(truth) = about.ground_truth {
        text.push_str(&format!(
            "GROUND TRUTH (authoritative: where anything below disagrees, this wins):\n{truth}\n\n"
        ));
    }
    text.push_str(&format!("Task given to the agent:\n{}\n\n", about.task));
    if !about.judge_context.is_empty() {
        text.push_str("Notes for judging:\n");
        for note in about.judge_context {
            text.push_str(&format!("- {note}\n"));
        }
        text.push('\n');
    }
    text.push_str(&format!("The agent's steps ({}):\n", evidence.steps.len()));
    for step in evidence.steps {
        text.push_str(&step_summary(step));
    }
    let (answer, report) = match evidence.ending {
        Ending::Done { text, success } => (
            text.clone(),
            if *success {
                "it says it succeeded"
            } else {
                "it says it failed"
            }
            .to_owned(),
        ),
        Ending::Failures {
            failed,
            limit,
            answer,
        } => (
            answer.clone().unwrap_or_default(),
            format!("no success: it stopped after {failed}/{limit} failed steps in a row"),
        ),
        Ending::MaxSteps { answer } => (
            answer.clone().unwrap_or_default(),
            "no success: it ran out of steps".to_owned(),
        ),
        Ending::Timeout => (
            String::new(),
            "no success: a step ran past its deadline".to_owned(),
        ),
        Ending::Loop => (
            String::new(),
            "no success: it repeated an action that changed nothing".to_owned(),
        ),
        Ending::Challenge {
            kind, step, why, ..
        } => (
            String::new(),
            format!("no success: a {kind} challenge blocked the page before step {step} ({why})"),
        ),
    };
    // The answer is the agent's (and may echo a page): each of its lines is
    // marked, so none passes for a heading of this brief, and it is cut.
    text.push_str("\nThe agent's final answer:");
    if answer.is_empty() {
        text.push_str(" (none)\n");
    } else {
        text.push('\n');
        let total = answer.chars().count();
        let shown = ellipsized(&answer, ANSWER_MAX);
        for line in shown.lines() {
            text.push_str("  | ");
            text.push_str(line);
            text.push('\n');
        }
        if total > ANSWER_MAX {
            text.push_str(&format!(
                "  (the answer was cut here: {total} characters in all)\n"
            ));
        }
    }
    text.push_str(&format!("The agent's own report: {report}\n"));
    text.push_str(&format!(
        "Final URL: {}\n",
        one_line(evidence.final_url.unwrap_or("(unknown)"), 500)
    ));
    text
}

/// `step 2: click {"ref":"e3"} → clicked e3`, a line per action, the
/// model's own words and the step's failure when there are any.
fn step_summary(step: &StepRecord) -> String {
    let mut text = format!("step {}:", step.number);
    if !step.thought.is_empty() {
        text.push_str(&format!(" (thought: {})", one_line(&step.thought, 300)));
    }
    text.push('\n');
    for action in &step.actions {
        let result = action.result.lines().next().unwrap_or_default();
        text.push_str(&format!(
            "  {} {} {} {}\n",
            action.tool,
            ellipsized(&action.arguments.to_string(), 200),
            if action.failed { "✗" } else { "→" },
            one_line(result, 300)
        ));
    }
    if let Some(failure) = &step.failure {
        text.push_str(&format!("  {}\n", one_line(&failure.to_string(), 300)));
    }
    text
}

/// Text the agent or a page wrote, on one line and cleaned as page text
/// (line breaks and other controls become spaces, so it cannot start a
/// line of the brief's own; invisible characters go), at most `max`
/// characters.
fn one_line(text: &str, max: usize) -> String {
    ellipsized(&clean(text.to_owned()), max)
}
