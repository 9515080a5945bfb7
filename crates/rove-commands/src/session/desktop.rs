//! The session's desktop target: a native application that commands work
//! on instead of the focused tab (`desktop open`/`attach`), with its
//! accessibility bus, the process rove started (if it did) and the view
//! model its refs belong to.

use std::sync::{Arc, Mutex};

use rove_desktop::{App, AtSpi, DesktopError, Launched, NodeId};
use rove_page::{NativeElement, NativeModel, NativeStates};

use crate::session::Session;

/// A desktop application as the session's target.
#[derive(Debug)]
pub(crate) struct DesktopTarget {
    pub bus: Bus,
    pub app: App,
    /// The process rove started: it ends with the target.
    launched: Option<Launched>,
    pub model: NativeModel,
    /// The elements of the last reading, by their keys.
    pub ids: std::collections::HashMap<String, NodeId>,
    /// The last reading, to see a change after an action.
    pub last: Vec<NativeElement>,
    /// The application has sent events: its silence after an action is
    /// evidence that it answered (a settle ends on it).
    pub speaks_events: bool,
}

/// The accessibility bus, shared with the blocking pool its calls run on.
#[derive(Debug, Clone)]
pub(crate) struct Bus(Arc<Mutex<AtSpi>>);

impl Bus {
    pub fn connect() -> Result<Bus, DesktopError> {
        Ok(Bus(Arc::new(Mutex::new(AtSpi::connect()?))))
    }

    /// Runs `work` on the bus on tokio's blocking pool. Every call inside
    /// has its own deadline on the socket (`limits::DESKTOP_CALL`), which
    /// fires first and says what it waited for; `deadline` is the backstop,
    /// wider than the calls inside.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: std::time::Duration,
        work: impl FnOnce(&mut AtSpi) -> Result<T, DesktopError> + Send + 'static,
    ) -> Result<T, DesktopError> {
        let bus = self.0.clone();
        let task = tokio::task::spawn_blocking(move || {
            let mut bus = bus.lock().unwrap_or_else(|p| p.into_inner());
            work(&mut bus)
        });
        match tokio::time::timeout(deadline, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(joined)) => Err(DesktopError::Protocol(format!(
                "the accessibility call ended abnormally: {joined}"
            ))),
            Err(_) => Err(DesktopError::Timeout {
                after: deadline,
                during: "an accessibility call",
                sent: false,
            }),
        }
    }
}

impl DesktopTarget {
    pub fn new(
        bus: Bus,
        app: App,
        launched: Option<Launched>,
        numbers: rove_browser::Counter,
    ) -> Self {
        let doc = format!("{}{}#{}", app.id.bus, app.id.path, app.pid.unwrap_or(0));
        DesktopTarget {
            bus,
            model: NativeModel::new(numbers, &doc),
            app,
            launched,
            ids: std::collections::HashMap::new(),
            last: Vec::new(),
            speaks_events: false,
        }
    }

    /// Whether the application rove started still runs (one it attached
    /// to is judged by its answers).
    pub fn running(&mut self) -> bool {
        self.launched.as_mut().is_none_or(Launched::running)
    }

    /// After an action: whether the application rove started ended (as a
    /// dialog's button ends zenity), waiting a moment for it to finish
    /// exiting; with its exit code.
    pub async fn ended_by_action(&mut self) -> Option<Option<i32>> {
        let launched = self.launched.as_mut()?;
        let until = std::time::Instant::now() + rove_base::limits::SETTLE_DOM;
        loop {
            if !launched.running() {
                return Some(launched.exit_code());
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            tokio::time::sleep(rove_base::limits::DESKTOP_SETTLE_POLL).await;
        }
    }

    /// The title a view shows: the first window's name as last read (an
    /// editor renames its window when it saves), else as it was listed.
    pub fn title(&self) -> String {
        self.last
            .iter()
            .find(|e| e.depth == 0 && !e.name.is_empty())
            .map(|e| e.name.clone())
            .or_else(|| self.app.windows.iter().find(|w| !w.is_empty()).cloned())
            .unwrap_or_else(|| self.app.name.clone())
    }

    /// The place a view names: `app:NAME`.
    pub fn place(&self) -> String {
        format!("app:{}", self.app.name)
    }

    /// Reads the application's tree as the view's elements, and keeps the
    /// ids to act on.
    pub async fn read(&mut self) -> Result<Vec<NativeElement>, DesktopError> {
        let app = self.app.id.clone();
        let nodes = self
            .bus
            .run(rove_base::limits::DESKTOP_TREE, move |bus| {
                rove_desktop::Backend::tree(bus, &app, TREE_MAX)
            })
            .await?;
        self.ids.clear();
        let elements: Vec<NativeElement> = nodes
            .into_iter()
            .map(|node| {
                let key = node.id.key();
                self.ids.insert(key.clone(), node.id);
                NativeElement {
                    key,
                    depth: node.depth,
                    role: node.role.to_owned(),
                    name: node.name,
                    value: node.value,
                    states: NativeStates {
                        disabled: node.states.disabled,
                        checked: node.states.checked,
                        mixed: node.states.mixed,
                        pressed: node.states.pressed,
                        expanded: node.states.expanded,
                        collapsed: node.states.collapsed,
                        selected: node.states.selected,
                        focused: node.states.focused,
                        readonly: node.states.readonly,
                        required: node.states.required,
                        invalid: node.states.invalid,
                        modal: node.states.modal,
                        haspopup: node.states.haspopup,
                        secret: node.states.secret,
                    },
                }
            })
            .collect();
        self.last = elements.clone();
        Ok(elements)
    }
}

/// The most elements read of one application.
const TREE_MAX: usize = 10_000;

impl Session {
    pub(crate) fn desktop(&mut self) -> Option<&mut DesktopTarget> {
        self.desktop.as_mut()
    }

    pub(crate) fn has_desktop(&self) -> bool {
        self.desktop.is_some()
    }

    pub(crate) fn set_desktop(&mut self, target: Option<DesktopTarget>) -> Option<DesktopTarget> {
        std::mem::replace(&mut self.desktop, target)
    }

    /// The session's ref counter, which desktop views draw from too.
    pub(crate) fn ref_numbers(&self) -> rove_browser::Counter {
        self.config.numbering.refs.clone()
    }
}
