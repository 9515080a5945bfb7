//! `rove run "task" --model provider:model`: the agent on a fresh session of
//! its own, a line per step while it runs, the answer and totals at the end;
//! exit status 0 only when the model reports success.

use std::time::Instant;

use rove_agent::{AgentConfig, Ending, StepRecord};
use rove_commands::{Command, OpenArgs, Session, SessionConfig};
use rove_errors::ErrorCode;
use rove_llm::{Endpoint, Llm, LlmError, PriceTable, RetryPolicy};
use serde_json::json;

use crate::cli::{GlobalArgs, RunArgs};
use crate::failure::Failure;
use crate::output::Output;

/// Exit status of a run that ended without a reported success.
const TASK_NOT_DONE: u8 = 1;

pub async fn run(global: &GlobalArgs, args: &RunArgs, out: Output) -> u8 {
    match run_task(global, args, out).await {
        Ok(status) => status,
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

async fn run_task(global: &GlobalArgs, args: &RunArgs, out: Output) -> Result<u8, Failure> {
    let env = |name: &str| std::env::var(name).ok();
    let mut primary = Endpoint::resolve(&args.model, env).map_err(|e| llm_failure(&e))?;
    if let Some(key) = &args.api_key {
        primary.api_key = Some(key.expose().to_owned());
    }
    if let Some(base) = &args.base_url {
        primary.base_url = base.trim_end_matches('/').to_owned();
    }
    let fallback = match &args.fallback_model {
        Some(name) => Some(Endpoint::resolve(name, env).map_err(|e| llm_failure(&e))?),
        None => None,
    };
    let llm =
        Llm::new(primary.clone(), fallback, RetryPolicy::default()).map_err(|e| llm_failure(&e))?;
    let prices = match &args.prices {
        Some(path) => PriceTable::with_file(path).map_err(|e| llm_failure(&e))?,
        None => PriceTable::builtin(),
    };
    let secrets = parse_secrets(&args.secrets, args.secrets_file.as_deref())?;
    let transport = rove_cdp::TransportConfig::from_env();
    // Until step 1 is done nothing else is printed: say what is awaited.
    out.note(match &global.cdp_url {
        Some(_) => "connecting to the browser…",
        None => "starting the browser…",
    });
    let browser = crate::acquire::acquire(global, &transport).await?;
    let result = async {
        let session_config = SessionConfig {
            secrets,
            ..global.session_config()?
        };
        let mut session = Session::start(&browser, session_config)
            .await
            .map_err(|e| Failure::from_command(&e))?;
        if let Some(url) = &args.start_url {
            out.note(&format!("opening {url}…"));
            session
                .execute(&Command::Open(OpenArgs {
                    url: url.clone(),
                    new_tab: false,
                }))
                .await
                .map_err(|e| Failure::from_command(&e))?;
        }
        let config = AgentConfig {
            max_steps: args.max_steps,
            // Beside the history: `run.json` keeps its screenshots in
            // `run.screens/`.
            screenshot_dir: args.history.as_ref().map(|h| h.with_extension("screens")),
            vision: match args.vision.as_str() {
                "on" => rove_agent::Vision::On,
                "off" => rove_agent::Vision::Off,
                _ => rove_agent::Vision::Auto,
            },
            ..AgentConfig::default()
        };
        let started = Instant::now();
        out.note(&format!(
            "step 1: asking {}:{} at {}…",
            primary.provider,
            primary.model,
            address(&primary.base_url)
        ));
        let ran = rove_agent::run(&args.task, &mut session, &llm, &config, |step| {
            out.line(&step_line(step));
        })
        .await
        .map_err(|rove_agent::AgentError::Llm(e)| model_failure(&e, llm.current()))?;
        let _ = session.close().await;
        Ok::<_, Failure>((ran, started.elapsed().as_secs_f64()))
    }
    .await;
    browser.close().await;
    let (ran, seconds) = result?;
    let endpoint = llm.current();
    let cost = prices.cost(&endpoint.provider, &endpoint.model, &ran.usage);
    let cost_text = cost
        .map(|c| format!("${c:.4}"))
        .unwrap_or_else(|| "cost unknown".into());
    let (answer, success) = match &ran.ending {
        Ending::Done { text, success } => (text.clone(), *success),
        Ending::Failures {
            answer: Some(text), ..
        } => (text.clone(), false),
        _ => (String::new(), false),
    };
    let why = match &ran.ending {
        Ending::Done { success: true, .. } => "done: success".to_owned(),
        Ending::Done { success: false, .. } => "done: the model reports failure".to_owned(),
        Ending::MaxSteps => format!("stopped: the step limit ({}) was reached", args.max_steps),
        Ending::Failures { failed, limit, .. } => {
            format!("stopped: {failed}/{limit} steps failed in a row")
        }
        Ending::Timeout => "stopped: a step ran past its deadline".to_owned(),
        Ending::Loop => "stopped: the model repeated an action that changed nothing".to_owned(),
    };
    out.line(&format!(
        "{why}\n{answer}\n{} steps, {} tokens in ({} cached), {} out, {cost_text}, {seconds:.1} s",
        ran.steps.len(),
        ran.usage.input,
        ran.usage.cached,
        ran.usage.output
    ));
    if let Some(path) = &args.history {
        let history = json!({
            "task": args.task,
            "start_url": args.start_url,
            "model": format!("{}:{}", endpoint.provider, endpoint.model),
            "ending": ran.ending,
            "steps": ran.steps,
            "usage": ran.usage,
            "cost": cost,
            "seconds": seconds,
        });
        std::fs::write(
            path,
            serde_json::to_vec_pretty(&history).unwrap_or_default(),
        )
        .map_err(|e| {
            Failure::new(
                ErrorCode::Internal,
                format!("writing the history to {}: {e}", path.display()),
                "check the path",
            )
        })?;
    }
    out.success(json!({
        "success": success,
        "answer": answer,
        "ending": ran.ending,
        "steps": ran.steps.len(),
        "usage": ran.usage,
        "cost": cost,
        "seconds": seconds,
    }));
    Ok(if success { 0 } else { TASK_NOT_DONE })
}

/// The run's secrets from `--secret` and `--secrets-file`. A malformed one
/// is refused without echoing its value.
fn parse_secrets(
    given: &[String],
    file: Option<&std::path::Path>,
) -> Result<rove_agent::Secrets, Failure> {
    let mut specs: Vec<String> = given.to_vec();
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("reading {}: {e}", path.display()),
                "give a readable file of NAME[@DOMAIN]=VALUE lines",
            )
        })?;
        specs.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_owned),
        );
    }
    let mut secrets = Vec::new();
    for spec in &specs {
        let Some(secret) = rove_agent::Secret::parse(spec) else {
            let name = spec.split(['=', '@']).next().unwrap_or_default();
            return Err(Failure::new(
                ErrorCode::CommandRejected,
                format!("the secret {name:?} is not NAME=value or NAME@domain=value"),
                "names are letters, digits and _; the value must not be empty",
            ));
        };
        secrets.push(secret);
    }
    Ok(rove_agent::Secrets(secrets))
}

/// `step 2: click e3 → clicked e3 · 1200/10 tokens · 0.9 s`; a failed
/// action shows its code and message, with its hint on the next line.
fn step_line(step: &StepRecord) -> String {
    let mut hints = Vec::new();
    let actions: Vec<String> = step
        .actions
        .iter()
        .map(|a| {
            let target = a.arguments["ref"]
                .as_str()
                .or_else(|| a.arguments["url"].as_str())
                .unwrap_or_default();
            let first = a.result.lines().next().unwrap_or_default();
            if !a.failed {
                return format!("{} {target} → {}", a.tool, cut(first, 80));
            }
            // A command's failure is its report as JSON: shown as the CLI
            // shows errors, never as cut-off JSON.
            match serde_json::from_str::<rove_errors::Report>(first) {
                Ok(report) => {
                    hints.push(format!("  hint: {}", cut(&report.hint, 200)));
                    format!(
                        "{} {target} ✗ {}: {}",
                        a.tool,
                        report.code,
                        cut(&report.message, 160)
                    )
                }
                Err(_) => format!("{} {target} ✗ {}", a.tool, cut(first, 160)),
            }
        })
        .collect();
    let mut line = format!(
        "step {}: {} · {}/{} tokens · {:.1} s",
        step.number,
        if actions.is_empty() {
            "(no action)".to_owned()
        } else {
            actions.join("; ")
        },
        step.usage.input,
        step.usage.output,
        step.ms / 1000.0
    );
    for hint in hints {
        line.push('\n');
        line.push_str(&hint);
    }
    line
}

/// At most `max` characters, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max.saturating_sub(1)).collect();
    short.push('…');
    short
}

/// A base URL as it may be shown: without a user, password or query (a
/// key can hide in them).
fn address(base_url: &str) -> String {
    match url::Url::parse(base_url) {
        Ok(mut parsed) => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            parsed.set_query(None);
            parsed.to_string().trim_end_matches('/').to_owned()
        }
        Err(_) => "an address that is not a URL".into(),
    }
}

/// A failure of the run's model: one that could not be reached names the
/// address tried and what to do about it.
fn model_failure(e: &LlmError, endpoint: &Endpoint) -> Failure {
    let LlmError::Network { message, .. } = e else {
        return llm_failure(e);
    };
    let at = address(&endpoint.base_url);
    let hint = if endpoint.provider == "ollama" {
        "start Ollama (ollama serve) or, if it listens elsewhere, point OLLAMA_HOST or --base-url at it"
    } else {
        "check the network, or --base-url and the provider's *_BASE_URL variable; --fallback-model takes over when a provider is unreachable"
    };
    Failure::new(
        ErrorCode::ModelFailed,
        format!(
            "could not reach {}:{} at {at}: {message}",
            endpoint.provider, endpoint.model
        ),
        hint,
    )
}

fn llm_failure(e: &LlmError) -> Failure {
    let (code, hint) = match e {
        LlmError::Config(_) => (
            ErrorCode::CommandRejected,
            "fix --model or the provider's environment variables",
        ),
        LlmError::Auth { .. } => (ErrorCode::ModelFailed, "check the API key"),
        LlmError::RateLimited { .. } => (ErrorCode::ModelFailed, "wait, or give --fallback-model"),
        LlmError::Truncated { .. } => (
            ErrorCode::ModelFailed,
            "the model's answer was cut at its output limit: try another model",
        ),
        _ => (
            ErrorCode::ModelFailed,
            "the model's provider failed: try again, or give --fallback-model",
        ),
    };
    Failure::new(code, e.to_string(), hint)
}

/// `rove replay FILE`: repeats a recorded run's actions without a model, on
/// a fresh session; exit 0 when every action repeated.
pub async fn replay(global: &GlobalArgs, args: &crate::cli::ReplayArgs, out: Output) -> u8 {
    let result = async {
        let text = std::fs::read_to_string(&args.file).map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("reading {}: {e}", args.file.display()),
                "give the file rove run --history wrote",
            )
        })?;
        let history: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Failure::new(
                ErrorCode::CommandRejected,
                format!("{} is not JSON: {e}", args.file.display()),
                "give the file rove run --history wrote",
            )
        })?;
        let secrets = parse_secrets(&args.secrets, None)?;
        let transport = rove_cdp::TransportConfig::from_env();
        let browser = crate::acquire::acquire(global, &transport).await?;
        let replayed = async {
            let config = SessionConfig {
                secrets,
                ..global.session_config()?
            };
            let mut session = Session::start(&browser, config)
                .await
                .map_err(|e| Failure::from_command(&e))?;
            let done = rove_agent::replay(&history, &mut session, args.start_url.as_deref()).await;
            let _ = session.close().await;
            done.map_err(|e| {
                let code = match &e {
                    rove_agent::ReplayError::Failed { error, .. } => {
                        rove_errors::Classify::code(error)
                    }
                    rove_agent::ReplayError::NotFound { .. } => ErrorCode::RefNotFound,
                    rove_agent::ReplayError::History(_) => ErrorCode::CommandRejected,
                };
                Failure::new(
                    code,
                    e.to_string(),
                    "the page differs from the recorded run at this step",
                )
            })
        }
        .await;
        browser.close().await;
        replayed
    }
    .await;
    match result {
        Ok(done) => {
            out.line(&format!(
                "replayed {} actions ({} targets found again by role and name)",
                done.actions, done.refound
            ));
            out.success(json!({"actions": done.actions, "refound": done.refound}));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}
