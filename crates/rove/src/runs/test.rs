//! `rove test PATH… --model P:M`: loads every task file first (a bad one
//! stops everything, naming file, line and field), runs the attempts on one
//! browser, a line per attempt as it ends, then the table; writes
//! results.json and JUnit XML; exits 0 only when every task met its
//! threshold and the suite its minimum pass rate, 1 otherwise, and the
//! usual statuses for bad input. A signal ends the attempts cleanly; the
//! report is still written and the exit status is 128 + the signal.

use std::cell::Cell;
use std::path::Path;
use std::time::Instant;

use rove_base::text::one_line;
use rove_base::user_file::Access;
use rove_errors::ErrorCode;
use rove_eval::{AttemptResult, Plan, RunOptions, Shard, Status, SuiteResults};
use rove_llm::{Llm, PriceTable, RetryPolicy};
use serde_json::json;

use crate::cli::{GlobalArgs, TestArgs};
use crate::failure::Failure;
use crate::output::Output;

/// Some task missed its threshold, or the suite its minimum.
const BELOW_THE_BAR: u8 = 1;

pub async fn test(
    global: &GlobalArgs,
    args: &TestArgs,
    out: Output,
    signal: impl Future<Output = u8>,
) -> u8 {
    if let Some(files) = &args.compare {
        return compare(files, out);
    }
    match run(global, args, out, signal).await {
        Ok(status) => status,
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

fn rejected(message: impl Into<String>, hint: &str) -> Failure {
    Failure::new(ErrorCode::CommandRejected, message, hint)
}

async fn run(
    global: &GlobalArgs,
    args: &TestArgs,
    out: Output,
    signal: impl Future<Output = u8>,
) -> Result<u8, Failure> {
    let mut signal = std::pin::pin!(signal);
    // Read off the runtime's threads, so a signal is heard while files
    // are read and parsed.
    let paths = args.paths.clone();
    let loading = tokio::task::spawn_blocking(move || {
        let env = |name: &str| std::env::var(name).ok();
        rove_eval::load(&paths, &env)
    });
    let loaded = tokio::select! {
        loaded = loading => loaded,
        signal = &mut signal => return Ok(128 + signal),
    };
    let tasks = loaded
        .map_err(|e| {
            Failure::new(
                ErrorCode::Internal,
                format!("reading the task files failed: {e}"),
                "report this as a bug",
            )
        })?
        .map_err(|e| {
            rejected(
                e.to_string(),
                "fix the task file; its format is in docs/eval.md",
            )
        })?;
    let suite = Suite::from_args(global, args)?;
    check_tasks(&tasks, &suite.options)?;
    let plan = Plan::new(&tasks, &suite.options)
        .map_err(|e| rejected(e.to_string(), "as --repeat 5, or a task's repeat: 5"))?;
    check_outputs(args)?;
    let started = Instant::now();
    let total = plan.len();
    let needs_browser = plan.iter().any(|(t, _)| tasks[t].skip.is_none());
    let signalled = Cell::new(None);
    let mut no_browser = false;
    let (attempts, interrupted) = if needs_browser {
        out.note(&format!(
            "{total} attempts of {} tasks, {} at once, with {}…",
            tasks.len(),
            suite.options.jobs,
            suite.model
        ));
        let ran = run_attempts(global, args, &suite, (&tasks, &plan), out, async {
            signalled.set(Some(signal.await));
        })
        .await?;
        no_browser = ran.no_browser;
        (ran.attempts, ran.interrupted)
    } else {
        let (attempts, interrupted) = rove_eval::run_suite_without_browser(&tasks, &plan);
        for (done, attempt) in attempts.iter().enumerate() {
            out.line(&attempt_line(attempt, done + 1, total));
        }
        (attempts, interrupted)
    };
    let mut results = rove_eval::summarize(&tasks, attempts, args.min_pass_rate, interrupted);
    results.model = suite.model;
    results.shard = suite.options.shard.map(|s| s.to_string());
    results.seconds = started.elapsed().as_secs_f64();
    out.line(&table(&results));
    write_results(args, &results, out)?;
    out.success(json!({
        "met": results.met,
        "interrupted": results.interrupted,
        "suite": results.suite,
        "tasks": results.tasks,
        "results": args.out.as_ref().map(|d| d.join("results.json")),
    }));
    Ok(match signalled.get() {
        Some(signal) => 128 + signal,
        // The farm refused the credentials, or was never reached: no
        // attempt could run, and the run says so as any refused or failed
        // connection does (6, as pool mode's unreachable browser).
        None if no_browser => ErrorCode::LaunchFailed.exit_status(),
        None if results.met => 0,
        None => BELOW_THE_BAR,
    })
}

/// What a suite runs with, from the flags, each checked.
struct Suite {
    options: RunOptions,
    /// Which attempts get a video (`--video`).
    video: crate::runs::video::Video,
    llm: Llm,
    /// `provider:model`, as the results name it.
    model: String,
    /// The browsers named by `--cdp-url` (and `--pool`).
    remote: Vec<String>,
    /// `--isolate browser` with remote browsers: a farm's browser per
    /// attempt.
    farm_mode: bool,
    connect_wait: std::time::Duration,
}

impl Suite {
    fn from_args(global: &GlobalArgs, args: &TestArgs) -> Result<Suite, Failure> {
        if !(0.0..=1.0).contains(&args.min_pass_rate) {
            return Err(rejected(
                format!(
                    "--min-pass-rate {} is not between 0 and 1",
                    args.min_pass_rate
                ),
                "give a pass rate such as 0.9",
            ));
        }
        // `--cdp-url`, repeated, names the pool; `--pool` is its older alias.
        let remote: Vec<String> = global.cdp_urls.iter().chain(&args.pool).cloned().collect();
        // `--isolate browser` with remote browsers is farm mode: a connection,
        // hence a farm's browser, per attempt.
        let farm_mode = args.isolate == "browser" && !remote.is_empty();
        // Farm mode's own options mean nothing elsewhere: refused, not ignored.
        for (given, flag) in [
            (args.slots.is_some(), "--slots"),
            (args.connect_wait.is_some(), "--connect-wait"),
        ] {
            if given && !farm_mode {
                return Err(rejected(
                    format!("{flag} is for farm mode: --isolate browser with --cdp-url"),
                    &format!("add --isolate browser and the farm's --cdp-url, or leave out {flag}"),
                ));
            }
        }
        let wait_secs = args
            .connect_wait
            .unwrap_or(rove_base::limits::CONNECT_WAIT.as_secs_f64());
        let connect_wait = crate::cli::seconds::seconds(
            "--connect-wait",
            wait_secs,
            crate::cli::seconds::Range::AboveZeroUpTo(rove_base::limits::CONNECT_WAIT_MAX),
            "120",
        )?;
        let shard = args
            .shard
            .as_deref()
            .map(str::parse::<Shard>)
            .transpose()
            .map_err(|e| rejected(e.to_string(), "as --shard 1/4 … --shard 4/4"))?;
        let Some(model) = &args.model else {
            return Err(rejected(
                "rove test needs --model",
                "as --model openai:gpt-5-mini",
            ));
        };
        let endpoint = crate::runs::models::resolve(
            model,
            args.api_key.as_ref().map(|k| k.expose()),
            args.base_url.as_deref(),
            crate::runs::models::MAIN,
        )?;
        let model = format!("{}:{}", endpoint.provider, endpoint.model);
        let judge = crate::runs::judging::judge_of(
            &args.judge,
            &[&endpoint],
            args.api_key.as_ref().map(|k| k.expose()),
        )?;
        let llm = Llm::new(endpoint, None, RetryPolicy::default())
            .map_err(|e| crate::runs::models::setup_failure(&e))?;
        let prices = match &args.prices {
            Some(path) => {
                PriceTable::with_file(path).map_err(|e| crate::runs::models::setup_failure(&e))?
            }
            None => PriceTable::builtin(),
        };
        let (video, traces) = crate::runs::video::Video::of(
            &args.video,
            args.traces.as_deref(),
            args.out.as_deref(),
        )?;
        let traces = match (&traces, &args.out) {
            (Some(which), None) if which != "off" => {
                return Err(rejected(
                    format!("--traces {which} writes under --out, and there is none"),
                    "add --out DIR (traces go to DIR/traces/)",
                ));
            }
            (which, _) => which
                .as_deref()
                .unwrap_or("failed")
                .parse::<rove_eval::Traces>()
                .map_err(|e| rejected(e, "--traces failed, all or off"))?,
        };
        let (after_shots, trace_budget) = args
            .trace_screenshots
            .resolve()
            .map_err(|e| rejected(e, "give MiB, like --trace-screenshots=5"))?;
        if args.jobs > rove_base::limits::JOBS_MAX {
            return Err(rejected(
                format!(
                    "-j {}: at most {} attempts run at once",
                    args.jobs,
                    rove_base::limits::JOBS_MAX
                ),
                "give a smaller -j",
            ));
        }
        let options = RunOptions {
            jobs: args.jobs.max(1),
            repeat: args.repeat,
            shard,
            tags: args.tags.clone(),
            session: global.session_config()?,
            agent: rove_agent::AgentConfig {
                vision: match args.vision.as_str() {
                    "on" => rove_agent::Vision::On,
                    "off" => rove_agent::Vision::Off,
                    _ => rove_agent::Vision::Auto,
                },
                // A video shows the page after each step.
                trace_screenshots: after_shots || video != crate::runs::video::Video::Off,
                ..rove_agent::AgentConfig::default()
            },
            out: args.out.clone(),
            prices,
            judge,
            traces,
            trace_budget,
            screencast: args.trace_screenshots.screencast,
        };
        Ok(Suite {
            options,
            video,
            llm,
            model,
            remote,
            farm_mode,
            connect_wait,
        })
    }
}

/// Refuses a suite that is empty by mistake, or whose `--tags` pick none.
fn check_tasks(tasks: &[rove_eval::Task], options: &RunOptions) -> Result<(), Failure> {
    // A suite that is empty by mistake must not pass a CI gate.
    if tasks.is_empty() {
        return Err(rejected(
            "no task found in the paths given",
            "give YAML task files, or folders holding .yaml/.yml files",
        ));
    }
    if !options.tags.is_empty()
        && !tasks
            .iter()
            .any(|t| t.spec.tags.iter().any(|tag| options.tags.contains(tag)))
    {
        return Err(rejected(
            format!("no task has any of the tags {}", options.tags.join(", ")),
            "check --tags against the tasks' tags: lists",
        ));
    }
    Ok(())
}

/// What the attempts on browsers came to.
struct Ran {
    attempts: Vec<AttemptResult>,
    interrupted: bool,
    /// The farm refused the credentials or was never reached.
    no_browser: bool,
}

/// Runs the plan's attempts on the browsers the flags name (launched,
/// connected, or a farm's), a line per attempt as it ends, until `stop`.
async fn run_attempts(
    global: &GlobalArgs,
    args: &TestArgs,
    suite: &Suite,
    (tasks, plan): (&[rove_eval::Task], &Plan),
    out: Output,
    stop: impl Future<Output = ()>,
) -> Result<Ran, Failure> {
    let (options, remote, total) = (&suite.options, &suite.remote, plan.len());
    let transport = global.transport();
    let launch = crate::acquire::launch_options(global, &transport);
    let farm = suite.farm_mode.then(|| {
        rove_eval::Farm::new(
            remote,
            args.slots.map(|n| n as usize),
            rove_browser::ConnectOptions {
                transport: transport.clone(),
                ..rove_browser::ConnectOptions::new(String::new())
            },
            suite.connect_wait,
        )
    });
    let pool = if args.isolate == "browser" {
        Vec::new()
    } else if remote.is_empty() {
        vec![crate::acquire::acquire(global, &transport).await?]
    } else {
        // A URL given twice is the same browser: one connection.
        let mut pool = Vec::new();
        for url in &crate::cli::cdp::distinct(remote) {
            let connected = rove_browser::Browser::connect(rove_browser::ConnectOptions {
                transport: transport.clone(),
                ..rove_browser::ConnectOptions::new(url.clone())
            })
            .await;
            match connected {
                Ok(browser) => pool.push(browser),
                Err(e) => {
                    for browser in &pool {
                        browser.close().await;
                    }
                    return Err(Failure::from(e));
                }
            }
        }
        pool
    };
    let browsers = if let Some(farm) = &farm {
        rove_eval::Browsers::Farm(farm)
    } else if args.isolate == "browser" {
        rove_eval::Browsers::Isolated(&launch)
    } else {
        rove_eval::Browsers::Shared(&pool)
    };
    let mut progress = crate::runs::progress::Progress::new(out, total, options.jobs);
    let mut done = 0;
    let (attempts, interrupted) = rove_eval::run_suite(
        browsers,
        &suite.llm,
        tasks,
        plan,
        options,
        stop,
        |attempt| {
            // The page of its trace is made as each attempt ends, by
            // the code behind `rove trace show`.
            attempt.trace_view = attempt.trace.as_deref().and_then(write_view);
            attempt.video = crate::runs::video::write_video(suite.video, attempt);
            done += 1;
            progress.attempt(out, attempt, &attempt_line(attempt, done, total));
        },
    )
    .await;
    progress.finish();
    // A browser of the pool is someone else's: closing it only
    // disposes rove's contexts.
    for browser in &pool {
        browser.close().await;
    }
    let no_browser = farm
        .as_ref()
        .is_some_and(|f| f.refused() || f.unreachable());
    Ok(Ran {
        attempts,
        interrupted,
        no_browser,
    })
}

/// results.json and report.html under `--out`, and `--junit`'s file.
fn write_results(args: &TestArgs, results: &SuiteResults, out: Output) -> Result<(), Failure> {
    if let Some(dir) = &args.out {
        let path = dir.join("results.json");
        write(
            &path,
            &serde_json::to_vec_pretty(results).unwrap_or_default(),
            Access::Shared,
        )?;
        let report = dir.join("report.html");
        // The report shows each attempt's answer, reasons and checks as
        // the traces beside it do: its owner's, as they are.
        write(
            &report,
            rove_eval::report_html(results).as_bytes(),
            Access::Private,
        )?;
        out.note(&format!(
            "results: {}, {}",
            path.display(),
            report.display()
        ));
    }
    if let Some(path) = &args.junit {
        write(
            path,
            rove_eval::junit_xml(results).as_bytes(),
            Access::Shared,
        )?;
    }
    Ok(())
}

/// `--compare OLD NEW`: a line per task that changed; exit 1 when one got
/// clearly worse (the 95 % intervals do not overlap), so noise alone does
/// not fail a job.
fn compare(files: &[std::path::PathBuf], out: Output) -> u8 {
    let (Some(old), Some(new)) = (files.first(), files.get(1)) else {
        let failure = rejected("--compare needs two files", "--compare OLD NEW");
        out.failure(&failure, None);
        return failure.exit_status();
    };
    let comparison = match rove_eval::compare(old, new) {
        Ok(c) => c,
        Err(e) => {
            let failure = rejected(
                e.to_string(),
                "give two results.json files rove test --out wrote",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let side = |x: Option<(u64, u64)>| match x {
        Some((passed, attempts)) => format!("{passed}/{attempts}"),
        None => "-".into(),
    };
    let line = |word: &str, c: &rove_eval::Change| {
        let mut line = format!(
            "{word:<8} {}  {} → {}",
            one_line(&c.name),
            side(c.before),
            side(c.after)
        );
        if (word == "better" || word == "worse") && !c.clear {
            line.push_str("  (the intervals overlap: may be chance)");
        }
        line
    };
    for (word, changes) in [
        ("worse", &comparison.worse),
        ("better", &comparison.better),
        ("added", &comparison.added),
        ("removed", &comparison.removed),
    ] {
        for change in changes {
            out.line(&line(word, change));
        }
    }
    out.line(&format!(
        "{} worse, {} better, {} the same, {} added, {} removed",
        comparison.worse.len(),
        comparison.better.len(),
        comparison.same.len(),
        comparison.added.len(),
        comparison.removed.len()
    ));
    let names = |changes: &[rove_eval::Change]| -> Vec<String> {
        changes.iter().map(|c| c.name.clone()).collect()
    };
    let clearly_worse = comparison.worse.iter().any(|c| c.clear);
    out.success(json!({
        "worse": names(&comparison.worse),
        "clearly_worse": comparison.worse.iter().filter(|c| c.clear).map(|c| c.name.clone()).collect::<Vec<_>>(),
        "better": names(&comparison.better),
        "same": names(&comparison.same),
        "added": names(&comparison.added),
        "removed": names(&comparison.removed),
    }));
    if clearly_worse { BELOW_THE_BAR } else { 0 }
}

/// `--out` and `--junit` are checked before any attempt runs: a path
/// rove could not write to would otherwise cost the whole run.
fn check_outputs(args: &TestArgs) -> Result<(), Failure> {
    use rove_base::user_file::{check_output_dir, check_output_file};
    let bad = |e: rove_base::user_file::UserFileError, flag: &str| {
        rejected(format!("{flag} {e}"), "give a path rove can write to")
    };
    if let Some(dir) = &args.out {
        check_output_dir(dir).map_err(|e| bad(e, "--out"))?;
        for name in ["results.json", "report.html"] {
            check_output_file(&dir.join(name)).map_err(|e| bad(e, "--out"))?;
        }
    }
    if let Some(path) = &args.junit {
        check_output_file(path).map_err(|e| bad(e, "--junit"))?;
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8], access: Access) -> Result<(), Failure> {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or(Ok(()), std::fs::create_dir_all)
        .map_err(|e| rove_base::user_file::UserFileError::Io {
            path: path.to_owned(),
            source: e,
        })
        .and_then(|()| rove_base::user_file::write(path, bytes, access))
        .map_err(|e| {
            Failure::new(
                ErrorCode::Internal,
                format!("writing {e}"),
                "check the path",
            )
        })
}

/// Writes the page of the trace at `trace` beside it (`.html`); its path,
/// or `None` (said in the log) when it cannot be read or written.
fn write_view(trace: &str) -> Option<String> {
    let path = Path::new(trace);
    let view = path.with_extension("html");
    let written = rove_base::user_file::read_text(path, rove_base::limits::TRACE_FILE_BYTES)
        .and_then(|text| {
            let lines = crate::trace_html::read_lines(&text);
            rove_base::user_file::write(
                &view,
                crate::trace_html::render(&lines).as_bytes(),
                // Private as the trace it shows.
                Access::Private,
            )
        })
        .map_err(rove_base::user_file::UserFileError::into_io);
    match written {
        Ok(()) => Some(view.display().to_string()),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "could not write a trace's page");
            None
        }
    }
}

/// `[3/10] passed   login #1 · 4 steps · 2.1 s`, with the reason when it
/// did not pass.
fn attempt_line(a: &AttemptResult, done: usize, total: usize) -> String {
    let mut line = format!(
        "[{done}/{total}] {:<13} {} #{} · {} steps · {:.1} s",
        a.status.as_str(),
        one_line(&a.task),
        a.attempt,
        a.steps,
        a.seconds
    );
    if a.status != Status::Passed
        && let Some(reason) = &a.reason
    {
        let code = a
            .error_code
            .map(|c| format!("{}: ", c.as_str()))
            .unwrap_or_default();
        line.push_str(&format!("\n    {code}{}", one_line(reason)));
    }
    if let Some(judgement) = &a.judge {
        // When the judge decided the status, the reason above already
        // carries its first line.
        let decided = a
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("judge:") || r.starts_with("unjudged:"));
        for said in crate::runs::judging::verdict_lines(judgement, a.success_reported)
            .iter()
            .skip(usize::from(decided))
        {
            line.push_str(&format!("\n    {said}"));
        }
    }
    line
}

fn percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The per-task table and the suite's line, then what missed the bar.
fn table(results: &SuiteResults) -> String {
    let width = results
        .tasks
        .iter()
        .map(|t| one_line(&t.name).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "\n{:<width$}  {:>7}  {:>5}  {:>11}  {:>5}  {:>13}  {:>7}\n",
        "task", "passed", "rate", "95% CI", "steps", "tokens in/out", "time"
    );
    for t in &results.tasks {
        let s = &t.totals;
        text.push_str(&format!(
            "{:<width$}  {:>7}  {:>5}  {:>11}  {:>5}  {:>13}  {:>7}\n",
            one_line(&t.name),
            format!("{}/{}", s.passed, s.attempts),
            s.pass_rate.map(percent).unwrap_or_else(|| "-".into()),
            format!("{}–{}", percent(s.interval[0]), percent(s.interval[1])),
            s.median_steps
                .map(|m| format!("{m}"))
                .unwrap_or_else(|| "-".into()),
            format!("{}/{}", s.tokens_in, s.tokens_out),
            format!("{:.1} s", s.seconds),
        ));
    }
    let s = &results.suite;
    text.push_str(&format!(
        "\n{} attempts: {} passed, {} failed, {} skipped, {} self-reported, {} error{} · pass rate {} ({}–{}) · {}/{} tokens · {} · {:.1} s\n",
        s.attempts,
        s.passed,
        s.failed,
        s.skipped,
        s.self_reported,
        s.error,
        results.findings_summary(),
        s.pass_rate.map(percent).unwrap_or_else(|| "-".into()),
        percent(s.interval[0]),
        percent(s.interval[1]),
        s.tokens_in,
        s.tokens_out,
        s.cost.map(|c| format!("${c:.4}")).unwrap_or_else(|| "cost unknown".into()),
        results.seconds,
    ));
    for t in results.tasks.iter().filter(|t| !t.met) {
        text.push_str(&format!(
            "below its threshold: {} ({} < {})\n",
            one_line(&t.name),
            t.totals
                .pass_rate
                .map(percent)
                .unwrap_or_else(|| "-".into()),
            percent(t.threshold)
        ));
    }
    if let Some(rate) = s.pass_rate
        && rate + 1e-9 < results.min_pass_rate
    {
        text.push_str(&format!(
            "the suite's pass rate {} is below --min-pass-rate {}\n",
            percent(rate),
            percent(results.min_pass_rate)
        ));
    }
    if results.interrupted {
        text.push_str(
            "interrupted: attempts that did not finish are reported as errors or skipped\n",
        );
    }
    text.push_str(if results.met { "PASSED" } else { "FAILED" });
    text
}
