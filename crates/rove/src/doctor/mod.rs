//! `rove doctor`: every step from "is there a browser" to "nothing left
//! behind", each printed with its time as it finishes.

pub(crate) mod mcp;

use std::future::Future;
use std::time::Instant;

use rove_base::redact::scrub;
use rove_browser::{Browser, LaunchOptions, processes_mentioning, search_browser};
use rove_errors::ErrorCode;
use rove_localserver::{LocalServer, Response, Routes};
use serde::Serialize;
use serde_json::json;

use crate::acquire::launch_options;
use crate::cli::GlobalArgs;
use crate::failure::Failure;
use crate::output::Output;

const PAGE_TITLE: &str = "rove doctor";
const ROUND_TRIPS: usize = 50;

#[derive(Debug, Serialize)]
struct Check {
    name: &'static str,
    ok: bool,
    /// Passed, but something works less well than on rove's own browser.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    degraded: bool,
    detail: String,
    ms: f64,
}

/// What the view loses on a browser without the blink feature rove turns
/// on in its own launch.
const APPROXIMATED: &str = "roles and names approximated: this browser runs without the ComputedAccessibilityInfo feature rove turns on in its own launch, and no CDP command turns it on (a blink feature is fixed when the browser starts; Accessibility.enable, which rove sends, does not expose it), so the view follows ARIA's implicit roles and the short form of the name rules (on MiniWoB++'s 130 pages it reads as Chromium's own; on JupyterLab 2 lines of 57 differ); a name drawn by CSS, taken from an image or an SVG title inside a control, or from a hidden label may still be missing; start it with --enable-blink-features=ComputedAccessibilityInfo (a farm's launch arguments) to read Chromium's own";

struct Report {
    out: Output,
    checks: Vec<Check>,
}

impl Report {
    /// Runs one check, records and prints it.
    async fn check<T>(
        &mut self,
        name: &'static str,
        step: impl Future<Output = Result<(T, String), Failure>>,
    ) -> Result<T, Failure> {
        let started = Instant::now();
        let result = step.await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        // A `--cdp-url` may carry a password or a token: the report shows
        // the address without them, wherever it is quoted.
        let (value, check) = match result {
            Ok((value, detail)) => (
                Ok(value),
                Check {
                    name,
                    ok: true,
                    degraded: false,
                    detail: scrub(&detail),
                    ms,
                },
            ),
            Err(mut failure) => {
                failure.report.message = scrub(&failure.report.message);
                failure.report.hint = scrub(&failure.report.hint);
                let detail = failure.report.message.clone();
                (
                    Err(failure),
                    Check {
                        name,
                        ok: false,
                        degraded: false,
                        detail,
                        ms,
                    },
                )
            }
        };
        self.print(check);
        value
    }

    /// Records a check that passed, saying whether it is degraded.
    fn note(&mut self, name: &'static str, degraded: bool, detail: &str) {
        self.print(Check {
            name,
            ok: true,
            degraded,
            detail: scrub(detail),
            ms: 0.0,
        });
    }

    fn print(&mut self, check: Check) {
        let mark = match (check.ok, check.degraded) {
            (false, _) => "FAIL",
            (true, true) => "warn",
            (true, false) => "ok  ",
        };
        let first_line = check.detail.lines().next().unwrap_or_default();
        self.out.line(&format!(
            "  {mark} {:<16} {:<52} {:>9.1} ms",
            check.name, first_line, check.ms
        ));
        for more in check.detail.lines().skip(1) {
            self.out.line(&format!("       {:<16} {more}", ""));
        }
        self.checks.push(check);
    }
}

/// Runs every check. Returns the exit status.
pub async fn doctor(global: &GlobalArgs, out: Output) -> u8 {
    let started = Instant::now();
    out.line("rove doctor");
    let mut report = Report {
        out,
        checks: Vec::new(),
    };
    let result = run_checks(global, &mut report).await;
    let total = started.elapsed().as_secs_f64();
    let checks = serde_json::to_value(&report.checks).unwrap_or_default();
    match result {
        Ok(()) => {
            out.line(&format!(
                "all {} checks passed in {total:.1} s",
                report.checks.len()
            ));
            out.success(json!({"checks": checks, "seconds": total}));
            0
        }
        Err(failure) => {
            out.failure(&failure, Some(json!({"checks": checks, "seconds": total})));
            failure.exit_status()
        }
    }
}

async fn run_checks(global: &GlobalArgs, report: &mut Report) -> Result<(), Failure> {
    let transport = global.transport();
    let browser = match &global.cdp_url {
        Some(url) => {
            report
                .check("connect", async {
                    let browser = crate::acquire::acquire(global, &transport).await?;
                    let product = browser.version().await?.product;
                    Ok((
                        browser,
                        format!(
                            "{product} at {}",
                            rove_base::redact::hide_endpoint_credentials(url)
                        ),
                    ))
                })
                .await?
        }
        None => {
            let options = launch_options(global, &transport);
            report
                .check("find browser", async {
                    // Every place looked at, on lines of their own under
                    // the check: which browser won, and why not another.
                    let search = search_browser(options.executable.as_deref());
                    let tried = search.tried.join(", ");
                    match search.found {
                        Some(path) => Ok(((), format!("{}\ntried: {tried}", path.display()))),
                        None => Err(Failure::from_error(
                            &rove_browser::BrowserError::NoBrowser {
                                tried: search.tried,
                            },
                        )),
                    }
                })
                .await?;
            report.check("launch", launch(options)).await?
        }
    };
    // Whatever happens next, the browser is closed before returning.
    let used = use_browser(&browser, report).await;
    let profile = browser.profile_dir();
    let closed = report
        .check("close", async {
            browser.close().await;
            let how = if browser.is_launched() {
                "browser closed"
            } else {
                "disconnected; the browser was left running"
            };
            Ok(((), how.to_owned()))
        })
        .await;
    used?;
    closed?;
    if let Some(profile) = profile {
        report
            .check("nothing left", async {
                let left = processes_mentioning(&profile);
                if !left.is_empty() {
                    return Err(Failure::new(
                        ErrorCode::Internal,
                        format!("browser processes still running: {left:?}"),
                        "kill them and report this as a bug in rove",
                    ));
                }
                if profile.exists() {
                    return Err(Failure::new(
                        ErrorCode::Internal,
                        format!(
                            "the temporary profile {} was not removed",
                            profile.display()
                        ),
                        "remove it and report this as a bug in rove",
                    ));
                }
                Ok((
                    (),
                    "no browser process or profile folder remains".to_owned(),
                ))
            })
            .await?;
    }
    report
        .check("daemon folder", async {
            let dir = crate::daemon::ensure_runtime_dir()?;
            Ok(((), format!("{} (0700)", dir.display())))
        })
        .await?;
    report
        .check("mcp handshake", crate::doctor::mcp::handshake())
        .await?;
    solver_plugins(global, report);
    desktop(report).await;
    Ok(())
}

/// Whether desktop applications can be reached (`desktop`,
/// docs/desktop.md). No desktop is no failure of rove's, only worth
/// knowing: a warning with the fix.
async fn desktop(report: &mut Report) {
    match rove_commands::desktop_probe().await {
        Ok(detail) => report.note("desktop", false, &detail),
        Err(error) => {
            let said = error.report();
            report.note(
                "desktop",
                true,
                &format!("{}: {}; {}", said.code, said.message, said.hint),
            );
        }
    }
}

/// The solver plugins `solve` would ask, in order. None is no failure
/// (rove ships none), only worth knowing.
fn solver_plugins(global: &GlobalArgs, report: &mut Report) {
    let folder = rove_commands::solver::plugins_folder(global.plugins.as_deref());
    let found = rove_commands::solver::plugins_in(&folder);
    let detail = if found.is_empty() {
        format!(
            "none in {} (solve answers NO_SOLVER; docs/captcha.md says how to add one)",
            folder.display()
        )
    } else {
        let names: Vec<String> = found
            .iter()
            .map(|p| rove_commands::solver::plugin_name(p))
            .collect();
        format!("{} in {}", names.join(", "), folder.display())
    };
    report.note("solver plugins", false, &detail);
}

async fn launch(options: LaunchOptions) -> Result<(Browser, String), Failure> {
    let browser = Browser::launch(options).await?;
    let version = browser.version().await?;
    let pid = browser
        .pid()
        .map(|p| format!(", pid {p}"))
        .unwrap_or_default();
    Ok((browser, format!("{}{pid}", version.product)))
}

async fn use_browser(browser: &Browser, report: &mut Report) -> Result<(), Failure> {
    let server = report
        .check("serve page", async {
            let routes = Routes::new().page(
                "/doctor",
                Response::html(format!(
                    "<!doctype html><title>{PAGE_TITLE}</title><h1>rove doctor</h1><button onclick=\"this.textContent = 'clicked'\">Press me</button>"
                )),
            );
            let server = LocalServer::start(routes).await.map_err(|e| {
                Failure::new(
                    ErrorCode::Internal,
                    format!("could not serve a page on 127.0.0.1: {e}"),
                    "check that loopback networking works",
                )
            })?;
            let url = server.url("/doctor");
            Ok((server, url))
        })
        .await?;
    let tab = report
        .check("open tab", async {
            let context = browser.new_context().await?;
            let tab = context.new_tab().await?;
            Ok((
                tab,
                format!("isolated context, tab {}", tab_label(&context)),
            ))
        })
        .await?;
    report
        .check("load page", async {
            let loaded = tab
                .goto(&server.url("/doctor"), rove_base::limits::DOCTOR)
                .await?;
            if loaded.title != PAGE_TITLE {
                return Err(Failure::new(
                    ErrorCode::Internal,
                    format!("expected the title {PAGE_TITLE:?}, read {:?}", loaded.title),
                    "the page did not render as served; report this with `rove doctor -v` output",
                ));
            }
            Ok(((), format!("{:?} from {}", loaded.title, loaded.url)))
        })
        .await?;
    report
        .check("round trip", async {
            let mut times = Vec::with_capacity(ROUND_TRIPS);
            for _ in 0..ROUND_TRIPS {
                let started = Instant::now();
                let value = tab.evaluate("1 + 1").await?;
                times.push(started.elapsed());
                if value != json!(2) {
                    return Err(Failure::new(
                        ErrorCode::Internal,
                        format!("1 + 1 evaluated to {value}"),
                        "report this as a bug in rove",
                    ));
                }
            }
            times.sort();
            let median = times[times.len() / 2].as_secs_f64() * 1000.0;
            let max = times.last().copied().unwrap_or_default().as_secs_f64() * 1000.0;
            Ok((
                (),
                format!("{ROUND_TRIPS} × Runtime.evaluate: median {median:.2} ms, max {max:.2} ms"),
            ))
        })
        .await?;
    let approximated = report
        .check("act", act(browser, &server.url("/doctor")))
        .await?;
    if approximated {
        report.note("accessibility", true, APPROXIMATED);
    } else {
        report.note(
            "accessibility",
            false,
            "roles and names are Chromium's own (ComputedAccessibilityInfo)",
        );
    }
    Ok(())
}

/// open → snapshot → click through the command vocabulary, as every face
/// runs it; the click's diff must show what it changed.
/// Opens the test page, takes a view and clicks; says whether the view's
/// roles and names were approximated.
async fn act(browser: &Browser, url: &str) -> Result<(bool, String), Failure> {
    use rove_commands::{
        ClickArgs, Command, OpenArgs, Session, SessionConfig, SnapshotArgs, SnapshotMode,
    };
    let mut session = Session::start(browser, SessionConfig::default())
        .await
        .map_err(|e| Failure::from_command(&e))?;
    let result = async {
        let started = Instant::now();
        session
            .execute(&Command::Open(OpenArgs {
                url: url.to_owned(),
                new_tab: false,
            }))
            .await?;
        let view = session
            .execute(&Command::Snapshot(SnapshotArgs {
                mode: SnapshotMode::Interactive,
                ..SnapshotArgs::default()
            }))
            .await?;
        let text = view.view.map(|v| v.text).unwrap_or_default();
        let target = text
            .lines()
            .find(|l| l.contains("button \"Press me\""))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|r| r.parse::<rove_commands::Ref>().ok())
            .unwrap_or(rove_commands::Ref(0));
        let clicked_at = Instant::now();
        let clicked = session
            .execute(&Command::Click(ClickArgs {
                target: target.into(),
                button: rove_commands::MouseButton::Left,
                double: false,
                modifiers: Vec::new(),
            }))
            .await?;
        let approximated = session.roles_approximated();
        Ok::<_, rove_commands::CommandError>((clicked, started, clicked_at, approximated))
    }
    .await;
    let _ = session.close().await;
    let (clicked, started, clicked_at, approximated) =
        result.map_err(|e| Failure::from_command(&e))?;
    let diff = clicked.view.map(|v| v.text).unwrap_or_default();
    if !diff.contains("clicked") {
        return Err(Failure::new(
            ErrorCode::Internal,
            format!("the click's result does not show the change: {diff:?}"),
            "report this with `rove doctor -v` output",
        ));
    }
    Ok((
        approximated,
        format!(
            "open, snapshot, click in {:.0} ms (click {:.0} ms)",
            started.elapsed().as_secs_f64() * 1000.0,
            clicked_at.elapsed().as_secs_f64() * 1000.0
        ),
    ))
}

fn tab_label(context: &rove_browser::BrowserContext) -> String {
    context
        .focused()
        .map(|t| t.id().to_string())
        .unwrap_or_else(|| "?".into())
}
