//! `desktop`, and the commands that work on a desktop application while it
//! is the session's target: `snapshot`, `find`, `click`, `fill`, `check`,
//! `uncheck`, `select` and `read` through its accessibility tree
//! (rove-desktop), rendered by the page model's own view (rove-page's
//! `NativeModel`). Page-only commands are refused, saying so.

use rove_base::limits;
use rove_desktop::{Action, App, Backend, DesktopError, Launched};
use rove_page::{Mode, ViewOptions};

use crate::answer::happened::{ClickKind, Happened};
use crate::session::desktop::{Bus, DesktopTarget};
use crate::{Command, CommandError, DesktopAction, DesktopArgs, Outcome, Session, SnapshotMode};

mod act;
mod screenshot;
mod settle;

use act::{act, fill_action, node, scroll, select_option, send_keys};
use settle::{settle, wait_on_desktop};

/// For `rove doctor`: whether the accessibility bus answers, and how many
/// applications it exposes, and whether the X display that keys and
/// screenshots need does; a typed error (`DESKTOP_UNAVAILABLE` with the
/// fix) when there is no desktop.
pub async fn desktop_probe() -> Result<String, CommandError> {
    let bus = Bus::connect()?;
    let apps = bus.run(limits::DESKTOP_TREE, |bus| bus.apps()).await?;
    let names: Vec<&str> = apps.iter().map(|a| a.name.as_str()).collect();
    let bus_line = match names.len() {
        0 => "the accessibility bus answers; no application on it yet".to_owned(),
        n => format!(
            "the accessibility bus answers; {n} applications: {}",
            names.join(", ")
        ),
    };
    // Keys, the wheel and screenshots go through the X display.
    let screen = bus.run(limits::DESKTOP_CALL, |bus| bus.screen_size()).await;
    Ok(match screen {
        Ok((width, height)) => format!(
            "{bus_line}; the X display answers ({width}×{height}): keys, the wheel and screenshots can be sent"
        ),
        Err(error) => {
            let said = rove_errors::Classify::hint(&error);
            format!("{bus_line}; but {error}: keys, the wheel and screenshots will fail ({said})")
        }
    })
}

impl Session {
    /// `desktop`: list applications, open or attach one, or leave it.
    pub(crate) async fn desktop_command(
        &mut self,
        args: &DesktopArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        match args.action {
            DesktopAction::Apps => {
                let bus = Bus::connect()?;
                let apps = bus.run(limits::DESKTOP_TREE, |bus| bus.apps()).await?;
                out.data = Some(crate::Data::Text(apps_text(&apps)));
            }
            DesktopAction::Open => {
                let line = wanted(args, "open", "the command line to start")?;
                let mut words = line.split_whitespace().map(str::to_owned);
                let program = words.next().unwrap_or_default();
                let rest: Vec<String> = words.collect();
                let bus = Bus::connect()?;
                let launched = bus
                    .run(limits::DESKTOP_APP_START + limits::DESKTOP_CALL, move |b| {
                        Launched::start(b, &program, &rest)
                    })
                    .await?;
                let app = launched.app.clone();
                self.become_desktop(bus, app, Some(launched), out).await?;
            }
            DesktopAction::Attach => {
                let which = wanted(args, "attach", "the application's name or process id")?;
                let bus = Bus::connect()?;
                let apps = bus.run(limits::DESKTOP_TREE, |bus| bus.apps()).await?;
                let app =
                    pick(&apps, which).ok_or_else(|| DesktopError::NoApp(which.to_owned()))?;
                self.become_desktop(bus, app, None, out).await?;
            }
            DesktopAction::Leave => match self.set_desktop(None) {
                Some(target) => out.happened.push(Happened::LeftDesktop {
                    app: target.app.name.clone(),
                }),
                None => {
                    return Err(CommandError::Rejected(
                        "no desktop application is the target (desktop open CMD or desktop attach NAME makes one)"
                            .to_owned(),
                    ));
                }
            },
        }
        Ok(())
    }

    async fn become_desktop(
        &mut self,
        bus: Bus,
        app: App,
        launched: Option<Launched>,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        out.happened.push(Happened::DesktopTarget {
            app: app.name.clone(),
            pid: app.pid,
            started: launched.is_some(),
        });
        let mut target = DesktopTarget::new(bus, app, launched, self.ref_numbers());
        let elements = target.read().await?;
        let (title, place) = (target.title(), target.place());
        out.view =
            Some(
                target
                    .model
                    .view("desktop", &title, &place, elements, &ViewOptions::default()),
            );
        // The application it replaces (if rove started it) ends here.
        self.set_desktop(Some(target));
        Ok(())
    }

    /// Runs `command` on the desktop target. An application found gone on
    /// the way (its bus name vanished under a call, before rove saw its
    /// process end) is no longer the target: the session is back on its
    /// tab, as when it is seen ended before the command.
    pub(crate) async fn run_on_desktop(
        &mut self,
        command: &Command,
    ) -> Result<Outcome, CommandError> {
        let result = self.run_on_desktop_target(command).await;
        match result {
            Err(CommandError::Desktop(DesktopError::AppGone { .. })) => {
                self.set_desktop(None);
                result
            }
            // A ref that names nothing the application shows now: the
            // error carries the view that gives the refs to use, as on a
            // page.
            Err(CommandError::Page(rove_page::PageError::RefNotFound {
                reference,
                reason,
                fresh_view: None,
            })) => {
                let fresh_view = self.desktop_view().await.ok();
                Err(CommandError::Page(rove_page::PageError::RefNotFound {
                    reference,
                    reason,
                    fresh_view,
                }))
            }
            other => other,
        }
    }

    /// A full view of the desktop target, read now.
    async fn desktop_view(&mut self) -> Result<String, CommandError> {
        let Some(target) = self.desktop() else {
            return Err(CommandError::Rejected("no desktop target".to_owned()));
        };
        let elements = target.read().await?;
        let (title, place) = (target.title(), target.place());
        Ok(target
            .model
            .view("desktop", &title, &place, elements, &ViewOptions::default())
            .text)
    }

    async fn run_on_desktop_target(&mut self, command: &Command) -> Result<Outcome, CommandError> {
        let mut out = Outcome::new(self.focused_id().unwrap_or(rove_browser::TabId(0)));
        let Some(target) = self.desktop() else {
            return Err(CommandError::Rejected("no desktop target".to_owned()));
        };
        if !target.running() {
            let app = target.app.name.clone();
            self.set_desktop(None);
            return Err(CommandError::Desktop(DesktopError::AppGone {
                app,
                sent: false,
            }));
        }
        if let Command::Screenshot(args) = command {
            self.desktop_screenshot(args, &mut out).await?;
            return Ok(out);
        }
        let Some(target) = self.desktop() else {
            return Err(CommandError::Rejected("no desktop target".to_owned()));
        };
        let acted = match command {
            Command::Snapshot(args) => {
                let opts = view_options(args);
                let elements = target.read().await?;
                let (title, place) = (target.title(), target.place());
                out.view = Some(
                    target
                        .model
                        .view("desktop", &title, &place, elements, &opts),
                );
                false
            }
            Command::Find(args) => {
                let elements = target.read().await?;
                let query = rove_page::FindQuery {
                    text: args.text.clone(),
                    role: args.role.clone(),
                    limit: args.limit,
                };
                out.view = Some(target.model.find("desktop", elements, &query));
                false
            }
            Command::Read(args) => {
                out.data = Some(crate::Data::Text(read_text(target, args).await?));
                false
            }
            Command::Click(args) => {
                let r = args.target.reference()?;
                act(target, r, Action::Press).await?;
                out.happened.push(Happened::Clicked {
                    kind: ClickKind::Action,
                    target: r,
                });
                true
            }
            Command::Fill(args) => {
                let r = args.target.reference()?;
                let action = fill_action(target, r, &args.text)?;
                act(target, r, action).await?;
                out.happened.push(Happened::Filled {
                    target: r,
                    field_gone: false,
                    shown_lines: None,
                    list: rove_input::ListChoice::None,
                });
                true
            }
            Command::Press(args) => {
                let chord = rove_desktop::chord(args.keys.trim())?;
                let at = args.target.as_ref().map(|t| t.reference()).transpose()?;
                send_keys(target, at, vec![chord]).await?;
                out.happened
                    .push(Happened::Pressed(args.keys.trim().to_owned()));
                true
            }
            Command::Type(args) => {
                let syms = rove_desktop::typed(&args.text)?;
                let at = args.target.as_ref().map(|t| t.reference()).transpose()?;
                send_keys(target, at, syms).await?;
                let count = args.text.chars().count();
                out.happened.push(match at {
                    Some(target) => Happened::Typed {
                        count,
                        target,
                        field_gone: false,
                    },
                    None => Happened::TypedFocused { count },
                });
                true
            }
            Command::Select(args) => {
                let r = args.target.reference()?;
                let chosen = select_option(target, r, &args.values).await?;
                out.happened.push(Happened::Selected {
                    target: r,
                    options: vec![chosen],
                });
                true
            }
            Command::Check(args) | Command::Uncheck(args) => {
                let want = matches!(command, Command::Check(_));
                let r = args.target.reference()?;
                let key = target.model.element(r)?.to_owned();
                let now = target
                    .last
                    .iter()
                    .find(|e| e.key == key)
                    .map(|e| e.states.checked);
                let already = now == Some(want);
                if !already {
                    act(target, r, Action::Press).await?;
                }
                out.happened.push(Happened::Toggled {
                    target: r,
                    checked: want,
                    already,
                });
                !already
            }
            Command::Scroll(args) => {
                out.happened.push(scroll(target, args).await?);
                true
            }
            Command::Wait(args) => {
                let waited = wait_on_desktop(target, args).await?;
                out.happened.push(Happened::Waited { ms: waited });
                false
            }
            Command::Close => {
                self.set_desktop(None);
                return Err(CommandError::Rejected(
                    "left the desktop application; run close again to end the session".to_owned(),
                ));
            }
            other => {
                return Err(CommandError::Rejected(format!(
                    "{} works on a browser tab, and the target is the desktop application {} (desktop leave goes back to the browser)",
                    other.name(),
                    target.app.name
                )));
            }
        };
        if acted {
            self.after_desktop_action(&mut out).await?;
        }
        Ok(out)
    }
}

impl Session {
    /// After an action: the diff once the application settled; or, when
    /// the action ended the application (a dialog's button), that, which
    /// is its answer, not a failure.
    async fn after_desktop_action(&mut self, out: &mut Outcome) -> Result<(), CommandError> {
        let Some(target) = self.desktop() else {
            return Ok(());
        };
        let before = target.last.clone();
        match settle(target, &before).await {
            Ok(settled) => {
                let (title, place) = (target.title(), target.place());
                let view = target.model.view(
                    "desktop",
                    &title,
                    &place,
                    settled,
                    &ViewOptions::mode(Mode::Diff),
                );
                out.view = Some(view);
            }
            Err(error) => match target.ended_by_action().await {
                Some(code) => {
                    let app = target.app.name.clone();
                    self.set_desktop(None);
                    out.happened.push(Happened::DesktopAppExited { app, code });
                }
                None => return Err(error),
            },
        }
        Ok(())
    }
}

/// A snapshot's arguments as the view's options.
fn view_options(args: &crate::SnapshotArgs) -> ViewOptions {
    let mode = match args.mode {
        SnapshotMode::Full => Mode::Full,
        SnapshotMode::Interactive => Mode::Interactive,
        SnapshotMode::Diff => Mode::Diff,
    };
    ViewOptions {
        budget: args.budget,
        ..ViewOptions::mode(mode)
    }
}

/// `read`: an element's text, or every line of the window's.
async fn read_text(
    target: &mut DesktopTarget,
    args: &crate::ReadArgs,
) -> Result<String, CommandError> {
    if let Some(t) = &args.target {
        let id = node(target, t.reference()?)?;
        return Ok(target
            .bus
            .run(limits::DESKTOP_TREE, move |b| b.text(&id))
            .await?);
    }
    let elements = target.read().await?;
    Ok(elements
        .iter()
        .map(|e| match &e.value {
            Some(v) if !v.is_empty() => format!("{} {}", e.name, v).trim().to_owned(),
            _ => e.name.clone(),
        })
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n"))
}

fn wanted<'a>(args: &'a DesktopArgs, action: &str, what: &str) -> Result<&'a str, CommandError> {
    args.target
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| CommandError::Rejected(format!("desktop {action} needs {what}")))
}

/// The application named `which` (its name, any case) or with that
/// process id.
fn pick(apps: &[App], which: &str) -> Option<App> {
    let pid: Option<u32> = which.parse().ok();
    apps.iter()
        .find(|a| pid.is_some() && a.pid == pid)
        .or_else(|| apps.iter().find(|a| a.name.eq_ignore_ascii_case(which)))
        .cloned()
}

fn apps_text(apps: &[App]) -> String {
    if apps.is_empty() {
        return "no accessible applications are running".to_owned();
    }
    apps.iter()
        .map(|a| {
            let pid = a.pid.map(|p| format!(" pid {p}")).unwrap_or_default();
            let windows: Vec<String> = a.windows.iter().map(|w| format!("{w:?}")).collect();
            format!("{}{pid}: {}", a.name, windows.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
