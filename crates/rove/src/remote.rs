//! Session commands from the shell: the command line turned into a command
//! of the vocabulary, sent to the session's daemon, and its answer printed.

use rove_commands as rc;
use rove_errors::ErrorCode;
use rove_mcp::SharedAnswer;
use serde_json::json;

use crate::cli::{self, Command as Cli, GlobalArgs};
use crate::daemon::client;
use crate::daemon::protocol::{Answer, PolicyAsked, Request, RunRequest, TraceAsk, TraceControl};
use crate::failure::Failure;
use crate::output::Output;
use crate::shell_hint::for_shell;

/// Runs a session command; returns the exit status. `trace` asks for a
/// trace of it (`rove --trace FILE <command>`).
pub async fn run(
    global: &GlobalArgs,
    command: &Cli,
    trace: &crate::cli_side::CommandTraceArgs,
    out: Output,
) -> u8 {
    if let Cli::Close = command {
        return close(global, out).await;
    }
    let command = match vocabulary(command) {
        Ok(c) => c,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let request = RunRequest {
        command,
        // The person at the shell: their own paths, their folder's files.
        caller: Some(rc::Caller::Person {
            cwd: std::env::current_dir().ok(),
        }),
        policy: None,
        trace: trace.trace.as_deref().map(|path| TraceAsk {
            path: absolute(path),
            screenshots: trace.trace_screenshots,
        }),
    };
    let request = match with_policy(global, request) {
        Ok(request) => request,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    let answer = match client::send(global, &Request::Run(request), true).await {
        Ok(answer) => answer,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    render(answer, out)
}

/// `rove trace start|stop`: the session's trace, kept by its daemon.
pub async fn trace_control(global: &GlobalArgs, tracing: TraceControl, out: Output) -> u8 {
    // Stopping a trace of a session that is not running starts nothing.
    let start = matches!(tracing, TraceControl::Start(_));
    match client::send(global, &Request::Tracing { tracing }, start).await {
        Ok(answer) => render(answer, out),
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// The trace asked for by `rove trace start`, as the daemon must see it.
pub fn trace_start(args: &crate::cli_side::TraceStartArgs) -> TraceControl {
    TraceControl::Start(TraceAsk {
        path: absolute(&args.file),
        screenshots: args.screenshots,
    })
}

/// Adds the domain policy the flags ask for to a request, so the daemon can
/// refuse to serve it under another one (a session's policy is fixed when
/// it starts). Nothing is added when no flag gave one.
pub fn with_policy(global: &GlobalArgs, mut request: RunRequest) -> Result<RunRequest, Failure> {
    if global.policy_given() {
        let policy = global.policy()?;
        request.policy = Some(PolicyAsked {
            allowed: policy.allowed(),
            blocked: policy.blocked(),
        });
    }
    Ok(request)
}

/// Sends MCP tool calls to the session's daemon (started when needed), so an
/// MCP host and the shell share one named session. They run as a model's
/// (see `rove_commands::Caller`): no free output paths, no uploads from the
/// shell's folder.
pub fn forwarder(global: GlobalArgs) -> rove_mcp::Forwarder {
    let global = std::sync::Arc::new(global);
    rove_mcp::Forwarder(std::sync::Arc::new(move |command: rc::Command| {
        let global = global.clone();
        Box::pin(async move {
            let failed = |failure: Failure| SharedAnswer::Failed {
                error: failure.report,
                fresh_view: failure.fresh_view,
            };
            if command == rc::Command::Close {
                // The shared session ends as `rove close` ends it; the next
                // call starts its daemon again.
                return match client::close(&global).await {
                    Ok(_) => SharedAnswer::Done {
                        text: format!(
                            "closed session {}; the next call starts it again",
                            global.session
                        ),
                        image: None,
                    },
                    Err(failure) => failed(failure),
                };
            }
            let request = RunRequest {
                command,
                caller: Some(rc::Caller::Model),
                policy: None,
                trace: None,
            };
            let request = match with_policy(&global, request) {
                Ok(request) => request,
                Err(failure) => return failed(failure),
            };
            match client::send(&global, &Request::Run(request), true).await {
                Ok(Answer::Done { text, image, .. }) => SharedAnswer::Done {
                    text,
                    image: image.map(|i| (i.mime, i.data)),
                },
                Ok(Answer::Failed { error, fresh_view }) => {
                    SharedAnswer::Failed { error, fresh_view }
                }
                Ok(other) => failed(unexpected(&other)),
                Err(failure) => failed(failure),
            }
        })
    }))
}

/// A daemon that answered a command with something other than its outcome.
fn unexpected(answer: &Answer) -> Failure {
    Failure::new(
        ErrorCode::Internal,
        format!("the session daemon answered a command with {answer:?}"),
        "report this as a bug",
    )
}

/// Prints a daemon's answer; returns the exit status.
fn render(answer: Answer, out: Output) -> u8 {
    let failure = match answer {
        Answer::Done {
            text,
            mut outcome,
            ms,
            ..
        } => {
            out.line(&notes_for_shell(text.trim_end()));
            if let Some(fields) = outcome.as_object_mut() {
                fields.insert("ms".into(), json!(ms));
            }
            out.success(outcome);
            return 0;
        }
        Answer::Failed {
            mut error,
            fresh_view,
        } => {
            error.hint = for_shell(&error.hint);
            Failure {
                report: error,
                fresh_view,
            }
        }
        other => unexpected(&other),
    };
    out.failure(&failure, None);
    failure.exit_status()
}

/// rove's own notes in an answer (lines that start with `…`, after the
/// page's text) in the shell's words; the page's text stays as it is.
fn notes_for_shell(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            if line.starts_with('…') {
                for_shell(line)
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `rove close`: returns once the session is gone (its daemon exited, its
/// browser ended, its lock free), so the next command starts afresh.
async fn close(global: &GlobalArgs, out: Output) -> u8 {
    match client::close(global).await {
        Ok(true) => {
            out.line(&format!("closed session {}", global.session));
            out.success(json!({"closed": global.session}));
            0
        }
        // Nothing to close is what was asked for.
        Ok(false) => {
            out.line(&format!("no session {} was running", global.session));
            out.success(json!({"closed": serde_json::Value::Null}));
            0
        }
        Err(failure) => {
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

pub(crate) fn rejected(message: impl Into<String>, hint: &str) -> Failure {
    Failure::new(ErrorCode::CommandRejected, message, hint)
}

/// A path as the daemon must see it: absolute, from this shell's folder.
pub(crate) fn absolute(path: &std::path::Path) -> String {
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    full.to_string_lossy().into_owned()
}

/// The command line as a command of the vocabulary.
fn vocabulary(command: &Cli) -> Result<rc::Command, Failure> {
    Ok(match command {
        Cli::Open(a) => rc::Command::Open(rc::OpenArgs {
            url: local_file_url(&a.url),
            new_tab: a.new_tab,
        }),
        Cli::Snapshot(a) => rc::Command::Snapshot(rc::SnapshotArgs {
            mode: if a.interactive {
                rc::SnapshotMode::Interactive
            } else if a.diff {
                rc::SnapshotMode::Diff
            } else {
                rc::SnapshotMode::Full
            },
            scope: a.scope.as_deref().map(target_of).transpose()?,
            budget: a.budget,
            after: a.after.as_deref().map(ref_of).transpose()?,
            urls: a.urls,
        }),
        Cli::Find(a) => rc::Command::Find(rc::FindArgs {
            text: a.text.clone(),
            role: a.role.clone(),
            limit: a.limit,
        }),
        Cli::Click(a) if a.at.is_some() => crate::cli_pointer::click_at(a)?,
        Cli::Click(a) => rc::Command::Click(rc::ClickArgs {
            target: target_of(a.target.as_deref().unwrap_or_default())?,
            button: match a.button.as_str() {
                "left" => rc::MouseButton::Left,
                "right" => rc::MouseButton::Right,
                "middle" => rc::MouseButton::Middle,
                other => {
                    return Err(rejected(
                        format!("{other:?} is not a mouse button"),
                        "use left, right or middle",
                    ));
                }
            },
            double: a.double,
            modifiers: a.modifiers.clone(),
        }),
        Cli::Dblclick(a) => rc::Command::Click(rc::ClickArgs {
            target: target_of(&a.target)?,
            button: rc::MouseButton::Left,
            double: true,
            modifiers: Vec::new(),
        }),
        Cli::Hover(a) => rc::Command::Hover(ref_args(a)?),
        Cli::Check(a) => rc::Command::Check(ref_args(a)?),
        Cli::Uncheck(a) => rc::Command::Uncheck(ref_args(a)?),
        Cli::Type(a) => {
            let (target, text) = match (a.focused, a.words.as_slice()) {
                (true, [text]) => (None, text.clone()),
                (false, [target, text]) => (Some(target_of(target)?), text.clone()),
                (true, _) => {
                    return Err(rejected(
                        "with --focused, type takes only the text",
                        "rove type --focused 'text'",
                    ));
                }
                (false, _) => {
                    return Err(rejected(
                        "type needs a ref and the text (or --focused and the text)",
                        "rove type e3 'text', or rove type --focused 'text'",
                    ));
                }
            };
            rc::Command::Type(rc::TypeArgs {
                target,
                text,
                delay_ms: a.delay,
                submit: a.submit,
            })
        }
        Cli::Fill(a) => rc::Command::Fill(rc::FillArgs {
            target: target_of(&a.target)?,
            text: a.text.clone(),
            submit: a.submit,
        }),
        Cli::Press(a) => rc::Command::Press(rc::PressArgs {
            keys: a.keys.clone(),
            target: a.r#ref.as_deref().map(target_of).transpose()?,
        }),
        Cli::Select(a) => rc::Command::Select(rc::SelectArgs {
            target: target_of(&a.target)?,
            values: a.values.clone(),
        }),
        Cli::Scroll(a) => rc::Command::Scroll(scroll_words(&a.words)?),
        Cli::Drag(a) => rc::Command::Drag(rc::DragArgs {
            from: target_of(&a.from)?,
            to: target_of(&a.to)?,
        }),
        Cli::Upload(a) => rc::Command::Upload(rc::UploadArgs {
            target: target_of(&a.target)?,
            paths: a.paths.iter().map(|p| absolute(p)).collect(),
        }),
        Cli::Dialog(a) => rc::Command::Dialog(rc::DialogArgs {
            accept: match a.answer.as_str() {
                "accept" | "ok" | "yes" => true,
                "dismiss" | "cancel" | "no" => false,
                other => {
                    return Err(rejected(
                        format!("{other:?} is not a way to answer a dialog"),
                        "use rove dialog accept [text] or rove dialog dismiss",
                    ));
                }
            },
            text: a.text.clone(),
        }),
        Cli::Tab(a) => tab(a)?,
        Cli::Screenshot(a) => rc::Command::Screenshot(rc::ScreenshotArgs {
            target: a.r#ref.as_deref().map(target_of).transpose()?,
            full_page: a.full,
            clip: a.clip.as_deref().map(clip_of).transpose()?,
            format: if a.jpeg {
                rc::ImageFormat::Jpeg
            } else {
                rc::ImageFormat::Png
            },
            quality: a.quality,
            max_bytes: a.max_bytes,
            path: Some(match &a.path {
                Some(p) => absolute(p),
                None => default_screenshot_path(a.jpeg)?,
            }),
        }),
        Cli::Read(a) => rc::Command::Read(rc::ReadArgs {
            target: a.r#ref.as_deref().map(target_of).transpose()?,
            budget: a.budget,
        }),
        Cli::Wait(a) => rc::Command::Wait(rc::WaitArgs {
            text: a.text.clone(),
            text_gone: a.gone.clone(),
            url: a.url.clone(),
            load: match a.load.as_deref() {
                None => None,
                Some("domcontentloaded") => Some(rc::LoadState::Domcontentloaded),
                Some("load") => Some(rc::LoadState::Load),
                Some("networkidle") => Some(rc::LoadState::Networkidle),
                Some(other) => {
                    return Err(rejected(
                        format!("{other:?} is not a load state"),
                        "use domcontentloaded, load or networkidle",
                    ));
                }
            },
            ms: a.ms,
        }),
        Cli::Eval(a) => rc::Command::Eval(rc::EvalArgs {
            js: a.js.clone(),
            target: a.r#ref.as_deref().map(target_of).transpose()?,
        }),
        Cli::Console(a) => crate::cli_tools::console(a),
        Cli::Network(a) => crate::cli_tools::network(a)?,
        Cli::Cookies(a) => crate::cli_tools::cookies(a)?,
        Cli::Storage(a) => crate::cli_tools::storage(a)?,
        Cli::State(a) => crate::cli_tools::state(a),
        Cli::Set(a) => crate::cli_tools::set(a)?,
        Cli::Pdf(a) => crate::cli_tools::pdf(a),
        Cli::Get(a) => crate::cli_tools::get(a)?,
        Cli::Mouse(a) => crate::cli_pointer::mouse(a)?,
        Cli::FillForm(a) => crate::cli_pointer::fill_form(a)?,
        Cli::Is(a) => crate::cli_tools::is(a)?,
        Cli::Back => rc::Command::Back,
        Cli::Close => rc::Command::Close,
        Cli::Forward => rc::Command::Forward,
        Cli::Reload => rc::Command::Reload,
        Cli::Doctor
        | Cli::Daemon(_)
        | Cli::Mcp(_)
        | Cli::PrintConfig(_)
        | Cli::Skill
        | Cli::Run(_)
        | Cli::Test(_)
        | Cli::DemoSite(_)
        | Cli::Replay(_)
        | Cli::Trace(_) => {
            return Err(rejected("not a session command", "see rove --help"));
        }
    })
}

fn ref_args(a: &cli::RefArg) -> Result<rc::RefArgs, Failure> {
    Ok(rc::RefArgs {
        target: target_of(&a.target)?,
    })
}

/// `--clip X,Y,WIDTH,HEIGHT`.
fn clip_of(numbers: &[f64]) -> Result<rc::Clip, Failure> {
    match numbers {
        [x, y, width, height] => Ok(rc::Clip {
            x: *x,
            y: *y,
            width: *width,
            height: *height,
        }),
        _ => Err(rejected(
            "--clip takes four numbers",
            "rove screenshot --clip 0,0,800,600",
        )),
    }
}

/// An element ref typed at the shell (`e7`, `@e7`).
pub(crate) fn ref_of(text: &str) -> Result<rc::Ref, Failure> {
    text.parse::<rc::Ref>()
        .map_err(|e| Failure::from_command(&rc::CommandError::Page(e)))
}

/// An element typed at the shell: a ref, or a locator (`css=#save`,
/// `role=button[name="Save"]`, `text=Sign in`) the session resolves.
pub(crate) fn target_of(text: &str) -> Result<rc::Target, Failure> {
    text.parse::<rc::Target>()
        .map_err(|e| Failure::from_command(&rc::CommandError::Page(e)))
}

/// A tab id typed at the shell (`t2`).
fn tab_of(text: &str) -> Result<rc::TabId, Failure> {
    text.trim()
        .parse::<rc::TabId>()
        .map_err(|e| Failure::from_command(&rc::CommandError::Browser(e)))
}

fn tab(a: &cli::TabArgs) -> Result<rc::Command, Failure> {
    let action = match a.action.as_str() {
        "list" | "ls" => rc::TabAction::List,
        "new" => rc::TabAction::New,
        "switch" => rc::TabAction::Switch,
        "close" => rc::TabAction::Close,
        other => {
            return Err(rejected(
                format!("{other:?} is not a tab action"),
                "use rove tab list|new [url]|switch tN|close [tN]",
            ));
        }
    };
    let (tab, url) = match action {
        rc::TabAction::New => (None, a.target.clone()),
        _ => (a.target.as_deref().map(tab_of).transpose()?, None),
    };
    Ok(rc::Command::Tab(rc::TabArgs { action, tab, url }))
}

/// `scroll` takes its words in any order: a ref, a direction, a distance.
fn scroll_words(words: &[String]) -> Result<rc::ScrollArgs, Failure> {
    let mut args = rc::ScrollArgs::default();
    for word in words {
        let w = word.trim_start_matches('@');
        let direction = match w {
            "up" => Some(rc::Direction::Up),
            "down" => Some(rc::Direction::Down),
            "left" => Some(rc::Direction::Left),
            "right" => Some(rc::Direction::Right),
            _ => None,
        };
        if let Some(d) = direction {
            args.direction = Some(d);
        } else if let Ok(px) = w.trim_end_matches("px").parse::<f64>() {
            args.pixels = Some(px);
        } else if let Ok(target) = word.parse::<rc::Target>() {
            args.target = Some(target);
        } else {
            return Err(rejected(
                format!("{word:?} is not a ref, a locator, a direction or a distance"),
                "rove scroll down | rove scroll e12 | rove scroll e12 down 300 | rove scroll css=.list down",
            ));
        }
    }
    Ok(args)
}

/// A path to a file that exists, as a `file://` URL (`rove open ./page.html`);
/// anything else as typed. Whether the session may open `file:` URLs is the
/// domain policy's decision, made in the daemon.
fn local_file_url(typed: &str) -> String {
    let path = std::path::Path::new(typed);
    let looks_like_path =
        typed.starts_with('/') || typed.starts_with("./") || typed.starts_with("../");
    if looks_like_path || (!typed.contains("://") && path.is_file()) {
        let absolute = absolute(path);
        if let Ok(url) = url::Url::from_file_path(&absolute) {
            return url.to_string();
        }
    }
    typed.to_owned()
}

/// A new file in rove's runtime folder for a screenshot with no path.
fn default_screenshot_path(jpeg: bool) -> Result<String, Failure> {
    let dir = rove_browser::ensure_runtime_subdir(std::path::Path::new("screenshots"))?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let ext = if jpeg { "jpg" } else { "png" };
    Ok(dir
        .join(format!("screenshot-{stamp}.{ext}"))
        .to_string_lossy()
        .into_owned())
}

#[cfg(test)]
mod tests {
    use super::scroll_words;

    #[test]
    fn scroll_words_come_in_any_order() {
        let a = scroll_words(&["e12".into(), "down".into(), "300".into()]).expect("parses");
        assert_eq!(a.target.map(|r| r.to_string()).as_deref(), Some("e12"));
        assert_eq!(a.pixels, Some(300.0));
        let b = scroll_words(&["up".into()]).expect("parses");
        assert!(b.target.is_none() && b.direction.is_some());
        assert!(scroll_words(&["sideways".into()]).is_err());
        let c = scroll_words(&["css=.list".into(), "down".into()]).expect("parses");
        assert_eq!(
            c.target.map(|t| t.to_string()).as_deref(),
            Some("css=.list")
        );
    }
}
