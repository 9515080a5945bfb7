//! The Linux backend: AT-SPI2 over D-Bus.
//!
//! The accessibility bus is found through the session bus (`org.a11y.Bus`,
//! or `AT_SPI_BUS_ADDRESS`); the registry's root lists the applications;
//! each element is an object of its application's connection with the
//! `org.a11y.atspi.*` interfaces. A tree is read level by level, each level
//! one batch of calls sent together, so it costs a round trip per level
//! (`read.rs`); `order.rs` puts what was read in document order.

use std::time::{Duration, Instant};

use rove_base::limits;

use crate::dbus::{Arg, Call, Connection, DbusError, Value};
use crate::error::FIX;
use crate::keys::Chord;
use crate::node::{Action, App, Extents, Node, NodeId, Wheel};
use crate::{Backend, DesktopError, EventWait, Heard};

const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
const REGISTRY: &str = "org.a11y.atspi.Registry";
const ROOT: &str = "/org/a11y/atspi/accessible/root";
/// A path AT-SPI uses for "no object".
const NULL_PATH: &str = "/org/a11y/atspi/null";

/// More children than this under one element are not read (a list of
/// thousands of rows is cut; the view says how many).
const CHILDREN_MAX: usize = 500;
/// Deeper than this the tree is not read.
const DEPTH_MAX: usize = 64;

/// A connection to the accessibility bus.
#[derive(Debug)]
pub struct AtSpi {
    bus: Connection,
    /// The X display, for window captures and the keymap: opened on first
    /// use, dropped when a call on it fails (the next opens it again).
    display: Option<crate::x11::Display>,
}

mod events;
mod input;
mod order;
mod read;
mod screen;

use order::in_order;

impl AtSpi {
    /// Connects to the accessibility bus of this desktop (the process's
    /// environment says where it is).
    pub fn connect() -> Result<AtSpi, DesktopError> {
        AtSpi::connect_in(&DesktopEnv::from_process())
    }

    /// Connects to the accessibility bus `env` names.
    pub fn connect_in(env: &DesktopEnv) -> Result<AtSpi, DesktopError> {
        if env.display.is_none() && env.wayland_display.is_none() {
            return Err(DesktopError::Unavailable {
                what: "no display: DISPLAY and WAYLAND_DISPLAY are unset".to_owned(),
                fix: FIX.to_owned(),
            });
        }
        let address = match &env.accessibility_bus {
            Some(address) => address.clone(),
            None => accessibility_bus_address(env)?,
        };
        let bus = Connection::open(&address, limits::DESKTOP_CONNECT).map_err(|e| {
            DesktopError::Unavailable {
                what: format!("the accessibility bus does not answer: {e}"),
                fix: FIX.to_owned(),
            }
        })?;
        let mut atspi = AtSpi { bus, display: None };
        atspi.subscribe();
        Ok(atspi)
    }

    fn batch(
        &mut self,
        calls: &[Call],
        until: Instant,
    ) -> Result<Vec<Result<Vec<Value>, DbusError>>, DesktopError> {
        let left = until
            .checked_duration_since(Instant::now())
            .unwrap_or(Duration::ZERO)
            .min(limits::DESKTOP_CALL);
        if left.is_zero() {
            return Err(DesktopError::Timeout {
                after: limits::DESKTOP_TREE,
                during: "reading the tree",
                sent: false,
            });
        }
        self.bus
            .call_many(calls, left)
            .map_err(|e| DesktopError::from_bus(e, "", false, "reading the tree"))
    }

    fn one(
        &mut self,
        call: &Call,
        sent: bool,
        during: &'static str,
    ) -> Result<Vec<Value>, DesktopError> {
        self.bus
            .call(call, limits::DESKTOP_CALL)
            .map_err(|e| DesktopError::from_bus(e, &call.destination, sent, during))
    }

    /// The children of `node`, as ids.
    fn children_of(values: &[Value]) -> Vec<NodeId> {
        let Some(list) = values.first().and_then(Value::as_list) else {
            return Vec::new();
        };
        list.iter()
            .filter_map(object_ref)
            .filter(|id| id.path != NULL_PATH)
            .take(CHILDREN_MAX)
            .collect()
    }
}

/// `(so)` as a node id.
fn object_ref(value: &Value) -> Option<NodeId> {
    let pair = value.as_list()?;
    Some(NodeId {
        bus: pair.first()?.as_str()?.to_owned(),
        path: pair.get(1)?.as_str()?.to_owned(),
    })
}

/// Where a desktop's display and buses are: the environment variables
/// that say so, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DesktopEnv {
    /// `DISPLAY`.
    pub display: Option<String>,
    /// `WAYLAND_DISPLAY`.
    pub wayland_display: Option<String>,
    /// `DBUS_SESSION_BUS_ADDRESS`.
    pub session_bus: Option<String>,
    /// `AT_SPI_BUS_ADDRESS`: the accessibility bus itself.
    pub accessibility_bus: Option<String>,
    /// `XDG_RUNTIME_DIR`, where a session bus's socket is by default.
    pub runtime_dir: Option<String>,
}

impl DesktopEnv {
    /// This process's.
    pub fn from_process() -> DesktopEnv {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        DesktopEnv {
            display: var("DISPLAY"),
            wayland_display: var("WAYLAND_DISPLAY"),
            session_bus: var("DBUS_SESSION_BUS_ADDRESS"),
            accessibility_bus: var("AT_SPI_BUS_ADDRESS"),
            runtime_dir: var("XDG_RUNTIME_DIR"),
        }
    }
}

/// The accessibility bus's address, asked of the session bus.
fn accessibility_bus_address(env: &DesktopEnv) -> Result<String, DesktopError> {
    let session = match (&env.session_bus, &env.runtime_dir) {
        (Some(address), _) => address.clone(),
        (None, Some(dir)) => format!("unix:path={dir}/bus"),
        (None, None) => {
            return Err(DesktopError::Unavailable {
                what: "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset".to_owned(),
                fix: FIX.to_owned(),
            });
        }
    };
    let mut bus = Connection::open(&session, limits::DESKTOP_CONNECT).map_err(|e| {
        DesktopError::Unavailable {
            what: format!("the D-Bus session bus does not answer: {e}"),
            fix: FIX.to_owned(),
        }
    })?;
    let reply = bus
        .call(
            &Call::new(
                "org.a11y.Bus",
                "/org/a11y/bus",
                "org.a11y.Bus",
                "GetAddress",
            ),
            limits::DESKTOP_CALL,
        )
        .map_err(|e| DesktopError::Unavailable {
            what: format!("no accessibility bus on the session bus ({e})"),
            fix: FIX.to_owned(),
        })?;
    reply
        .first()
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| DesktopError::Protocol("org.a11y.Bus.GetAddress gave no address".to_owned()))
}

impl Backend for AtSpi {
    fn apps(&mut self) -> Result<Vec<App>, DesktopError> {
        let until = Instant::now() + limits::DESKTOP_CALL;
        let roots = AtSpi::children_of(&self.one(
            &Call::new(REGISTRY, ROOT, ACCESSIBLE, "GetChildren"),
            false,
            "listing applications",
        )?);
        let mut calls = Vec::new();
        for app in &roots {
            calls.push(Call::property(&app.bus, &app.path, ACCESSIBLE, "Name"));
            calls.push(Call::new(&app.bus, &app.path, ACCESSIBLE, "GetChildren"));
            calls.push(
                Call::new(
                    "org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus",
                    "GetConnectionUnixProcessID",
                )
                .arg(Arg::Str(app.bus.clone())),
            );
        }
        let replies = self.batch(&calls, until)?;
        let mut apps = Vec::new();
        let mut windows = Vec::new();
        for (app, replies) in roots.into_iter().zip(replies.chunks(3)) {
            let value = |i: usize| replies.get(i).and_then(|r| r.as_ref().ok()).cloned();
            let Some(name) =
                value(0).and_then(|v| v.first().and_then(Value::as_str).map(str::to_owned))
            else {
                continue;
            };
            let pid = value(2)
                .and_then(|v| v.first().and_then(Value::as_i64))
                .and_then(|n| u32::try_from(n).ok());
            windows.push(value(1).map(|v| AtSpi::children_of(&v)).unwrap_or_default());
            apps.push(App {
                id: app,
                name: rove_base::text::clean(name),
                pid,
                windows: Vec::new(),
            });
        }
        let calls: Vec<Call> = windows
            .iter()
            .flatten()
            .map(|w| Call::property(&w.bus, &w.path, ACCESSIBLE, "Name"))
            .collect();
        let mut names = self.batch(&calls, until)?.into_iter();
        for (app, ids) in apps.iter_mut().zip(&windows) {
            for _ in ids {
                if let Some(Ok(v)) = names.next()
                    && let Some(name) = v.first().and_then(Value::as_str)
                {
                    app.windows.push(rove_base::text::clean(name.to_owned()));
                }
            }
        }
        Ok(apps)
    }

    fn tree(&mut self, app: &NodeId, limit: usize) -> Result<Vec<Node>, DesktopError> {
        let until = Instant::now() + limits::DESKTOP_TREE;
        let windows = AtSpi::children_of(&self.one(
            &Call::new(&app.bus, &app.path, ACCESSIBLE, "GetChildren"),
            false,
            "reading the tree",
        )?);
        let read = self.read_levels(windows.clone(), limit, until)?;
        tracing::debug!(read = read.len(), "tree read");
        let mut nodes = in_order(&windows, &read);
        self.read_values(&mut nodes, &read, until)?;
        Ok(nodes)
    }

    fn text(&mut self, node: &NodeId) -> Result<String, DesktopError> {
        let reply = self.one(
            &Call::new(&node.bus, &node.path, "org.a11y.atspi.Text", "GetText")
                .arg(Arg::I32(0))
                .arg(Arg::I32(-1)),
            false,
            "reading text",
        );
        match reply {
            Ok(values) => Ok(values
                .first()
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()),
            // No Text interface: its name is its text.
            Err(DesktopError::NodeGone) => {
                let name = self.one(
                    &Call::property(&node.bus, &node.path, ACCESSIBLE, "Name"),
                    false,
                    "reading text",
                )?;
                Ok(name
                    .first()
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned())
            }
            Err(e) => Err(e),
        }
    }

    fn act(&mut self, node: &NodeId, action: &Action) -> Result<(), DesktopError> {
        self.forget_events();
        let (call, what) = match action {
            Action::Press => (
                Call::new(&node.bus, &node.path, "org.a11y.atspi.Action", "DoAction")
                    .arg(Arg::I32(0)),
                "be pressed",
            ),
            Action::SetText(text) => (
                Call::new(
                    &node.bus,
                    &node.path,
                    "org.a11y.atspi.EditableText",
                    "SetTextContents",
                )
                .arg(Arg::Str(text.clone())),
                "take text",
            ),
            Action::SetValue(n) => (
                Call::new(
                    &node.bus,
                    &node.path,
                    "org.freedesktop.DBus.Properties",
                    "Set",
                )
                .arg(Arg::Str("org.a11y.atspi.Value".to_owned()))
                .arg(Arg::Str("CurrentValue".to_owned()))
                .arg(Arg::VariantF64(*n)),
                "take a value",
            ),
            Action::SelectChild(i) => (
                Call::new(
                    &node.bus,
                    &node.path,
                    "org.a11y.atspi.Selection",
                    "SelectChild",
                )
                .arg(Arg::I32(*i)),
                "select",
            ),
            Action::Focus => (
                Call::new(
                    &node.bus,
                    &node.path,
                    "org.a11y.atspi.Component",
                    "GrabFocus",
                ),
                "take the focus",
            ),
            // ATSPI_SCROLL_ANYWHERE: the least scrolling that shows it.
            Action::ScrollIntoView => (
                Call::new(
                    &node.bus,
                    &node.path,
                    "org.a11y.atspi.Component",
                    "ScrollTo",
                )
                .arg(Arg::U32(6)),
                "be scrolled into view",
            ),
        };
        let reply = match self.one(&call, true, "acting") {
            // An element without the interface answers UnknownMethod.
            Err(DesktopError::NodeGone) if self.exists(node) => {
                return Err(DesktopError::NotActionable(what.to_owned()));
            }
            other => other?,
        };
        match reply.first().and_then(Value::as_bool) {
            Some(false) => Err(DesktopError::NotActionable(what.to_owned())),
            _ => Ok(()),
        }
    }

    fn options(&mut self, node: &NodeId) -> Result<Vec<String>, DesktopError> {
        // A combo box holds its options in a menu (closed, so not read
        // with the tree); a list holds them itself.
        let children = self.children(node)?;
        let roles = self.batch_values(
            children
                .iter()
                .map(|c| Call::new(&c.bus, &c.path, ACCESSIBLE, "GetRoleName"))
                .collect(),
        )?;
        let menu = children
            .iter()
            .zip(&roles)
            .find(|(_, role)| role.as_deref() == Some("menu"))
            .map(|(c, _)| c.clone());
        let items = match menu {
            Some(menu) => self.children(&menu)?,
            None => children,
        };
        let names = self.batch_values(
            items
                .iter()
                .map(|c| Call::property(&c.bus, &c.path, ACCESSIBLE, "Name"))
                .collect(),
        )?;
        Ok(names
            .into_iter()
            .map(|n| rove_base::text::clean(n.unwrap_or_default()))
            .collect())
    }

    fn press_key(&mut self, within: &NodeId, chord: &Chord) -> Result<(), DesktopError> {
        self.forget_events();
        self.chord_into(within, chord)
    }

    fn wheel(&mut self, within: &NodeId, way: Wheel, notches: u32) -> Result<(), DesktopError> {
        self.forget_events();
        self.wheel_over(within, way, notches)
    }

    fn events_since(&mut self, app: &NodeId) -> u32 {
        self.events_read(&app.bus)
    }

    fn events_from(&mut self, app: &NodeId, wait: EventWait) -> Result<Heard, DesktopError> {
        self.events_until_quiet(&app.bus, wait.first, wait.quiet, wait.within)
    }

    fn screen_size(&mut self) -> Result<(u16, u16), DesktopError> {
        self.display_size()
    }

    fn capture(&mut self, area: &Extents, hide: &[Extents]) -> Result<Vec<u8>, DesktopError> {
        self.capture_png(area, hide)
    }

    fn extents(&mut self, node: &NodeId) -> Result<Extents, DesktopError> {
        let reply = self.one(&extents_call(node), false, "reading extents")?;
        extents_in(&reply)
            .ok_or_else(|| DesktopError::Protocol("GetExtents gave no rectangle".to_owned()))
    }

    fn extents_of(&mut self, nodes: &[NodeId]) -> Result<Vec<Option<Extents>>, DesktopError> {
        let calls: Vec<Call> = nodes.iter().map(extents_call).collect();
        let until = Instant::now() + limits::DESKTOP_CALL;
        Ok(self
            .batch(&calls, until)?
            .into_iter()
            .map(|reply| reply.ok().and_then(|values| extents_in(&values)))
            .collect())
    }
}

/// `Component.GetExtents` in screen coordinates.
fn extents_call(node: &NodeId) -> Call {
    Call::new(
        &node.bus,
        &node.path,
        "org.a11y.atspi.Component",
        "GetExtents",
    )
    .arg(Arg::U32(0))
}

/// The rectangle a `GetExtents` reply holds.
fn extents_in(reply: &[Value]) -> Option<Extents> {
    let numbers: Vec<i32> = reply
        .first()
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_i64().and_then(|n| i32::try_from(n).ok()))
                .collect()
        })
        .unwrap_or_default();
    match numbers.as_slice() {
        [x, y, width, height] => Some(Extents {
            x: *x,
            y: *y,
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

impl AtSpi {
    /// An element's children, read one by one (see `read_calls`).
    fn children(&mut self, node: &NodeId) -> Result<Vec<NodeId>, DesktopError> {
        let count = self
            .one(
                &Call::property(&node.bus, &node.path, ACCESSIBLE, "ChildCount"),
                false,
                "reading the tree",
            )?
            .first()
            .and_then(Value::as_i64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
            .min(CHILDREN_MAX);
        let calls: Vec<Call> = (0..count)
            .map(|i| {
                Call::new(&node.bus, &node.path, ACCESSIBLE, "GetChildAtIndex")
                    .arg(Arg::I32(i32::try_from(i).unwrap_or(i32::MAX)))
            })
            .collect();
        let until = Instant::now() + limits::DESKTOP_CALL;
        Ok(self
            .batch(&calls, until)?
            .into_iter()
            .filter_map(|r| r.ok().and_then(|v| v.first().and_then(object_ref)))
            .filter(|c| c.path != NULL_PATH)
            .collect())
    }

    /// Each call's first value as a string (`None` where it failed).
    fn batch_values(&mut self, calls: Vec<Call>) -> Result<Vec<Option<String>>, DesktopError> {
        let until = Instant::now() + limits::DESKTOP_CALL;
        Ok(self
            .batch(&calls, until)?
            .into_iter()
            .map(|r| {
                r.ok()
                    .and_then(|v| v.first().and_then(Value::as_str).map(str::to_owned))
            })
            .collect())
    }

    /// Whether the element is still there (its role can be read).
    fn exists(&mut self, node: &NodeId) -> bool {
        self.one(
            &Call::new(&node.bus, &node.path, ACCESSIBLE, "GetRoleName"),
            false,
            "reading the tree",
        )
        .is_ok()
    }
}
