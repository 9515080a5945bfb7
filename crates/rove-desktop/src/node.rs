//! What a backend reads of an application: its windows' elements, each
//! with the view's role, its name, states and value, in document order.

/// Where an element lives on the accessibility bus: opaque to the layers
/// above, which only hand it back.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    /// The application's connection on the bus (`:1.42`).
    pub bus: String,
    /// The element's object path.
    pub path: String,
}

impl NodeId {
    /// One string that names the element for its life (its bus name and
    /// path), the key the view's refs are given by.
    pub fn key(&self) -> String {
        format!("{}{}", self.bus, self.path)
    }
}

/// An element's states, as the view names them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct States {
    pub disabled: bool,
    pub checked: bool,
    pub mixed: bool,
    pub pressed: bool,
    pub expanded: bool,
    pub collapsed: bool,
    pub selected: bool,
    pub focused: bool,
    pub readonly: bool,
    pub required: bool,
    pub invalid: bool,
    pub modal: bool,
    pub haspopup: bool,
    /// On screen (AT-SPI's SHOWING and VISIBLE both).
    pub showing: bool,
    /// Takes typed text.
    pub editable: bool,
    /// A password field: its value is never read.
    pub secret: bool,
}

/// A rectangle on the screen, in pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extents {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

/// One element of a window.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: NodeId,
    /// Nesting among the elements that have a line (layout containers
    /// leave no line and add no depth).
    pub depth: u16,
    /// The view's role word (`button`, `textbox`, `text` for a label).
    pub role: &'static str,
    /// The platform's own role name (`push button`).
    pub platform_role: String,
    pub name: String,
    /// A control's value: a field's text, a slider's number.
    pub value: Option<String>,
    pub states: States,
    /// It has actions (it can be pressed).
    pub actionable: bool,
}

/// An application on the bus.
#[derive(Debug, Clone, PartialEq)]
pub struct App {
    /// Its root element.
    pub id: NodeId,
    pub name: String,
    /// Its process, when the bus knows it.
    pub pid: Option<u32>,
    /// Its top-level windows' names.
    pub windows: Vec<String>,
}

/// What to do to an element.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Its default action (`click`, `press`, `activate`, `toggle`).
    Press,
    /// Replace an editable text's content.
    SetText(String),
    /// Set a value control (slider, spin button).
    SetValue(f64),
    /// Select the parent's `n`-th child (Selection interface of the parent).
    SelectChild(i32),
    /// Give it the keyboard focus.
    Focus,
    /// Bring it into view, scrolling what holds it.
    ScrollIntoView,
}

/// Which way the wheel turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wheel {
    Up,
    Down,
    Left,
    Right,
}
