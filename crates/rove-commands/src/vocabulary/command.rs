//! The command vocabulary: every request the CLI, the MCP server and the agent
//! can make, defined once.
//!
//! [`vocabulary!`] lists each command a single time: its variant, its
//! arguments' type, the name every face spells it with, a title, the
//! sentence a model reads, what it does to the world, and the capability
//! group that offers it to a model (`core` unless named). From that one list
//! come the [`Command`] enum (which deserializes from
//! `{"command": "click", "ref": "e7"}`), [`Command::name`], and the tool
//! catalog ([`crate::tools`]) whose schemas are derived from the argument
//! types, so a schema cannot drift from what the parser accepts.

use serde::{Deserialize, Serialize};

use super::args::*;
use super::args_pointer::*;
use super::args_tools::*;
use crate::vocabulary::entry::Effect;

/// Expands the one list of commands into the enum, its names and its specs.
macro_rules! vocabulary {
    ($(
        $(#[$doc:meta])*
        $variant:ident $(($args:ty))? = $name:literal {
            title: $title:literal,
            description: $description:literal,
            effect: $effect:ident
            $(, caps: $caps:ident)? $(,)?
        }
    ),* $(,)?) => {
        /// One request to a session.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "command", deny_unknown_fields)]
        pub enum Command {
            $( $(#[$doc])* #[serde(rename = $name)] $variant $(($args))?, )*
        }

        impl Command {
            /// The command's name, as the CLI and MCP spell it.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Command::$variant { .. } => $name, )*
                }
            }
        }

        /// Every command's spec, in the order of the list.
        pub(crate) fn specs() -> Vec<crate::vocabulary::entry::Spec> {
            vec![$(
                crate::vocabulary::entry::Spec {
                    name: $name,
                    title: $title,
                    description: $description,
                    effect: Effect::$effect,
                    capability: capability_of!($($caps)?),
                    schema: crate::vocabulary::schema::schema_of::<args_type!($($args)?)>,
                },
            )*]
        }
    };
}

/// A command's capability group, `core` when the list names none.
macro_rules! capability_of {
    () => {
        crate::vocabulary::caps::Capability::Core
    };
    ($caps:ident) => {
        crate::vocabulary::caps::Capability::$caps
    };
}

/// The arguments' type of a command, [`NoArgs`] when it takes none.
macro_rules! args_type {
    () => {
        NoArgs
    };
    ($args:ty) => {
        $args
    };
}

vocabulary! {
    /// Navigate the focused tab, or a new one.
    Open(OpenArgs) = "open" {
        title: "Open a URL",
        description: "Go to a URL. Returns the page's view with refs.",
        effect: Navigates,
    },
    /// Go back in the focused tab's history.
    Back = "back" {
        title: "Go back",
        description: "Go back in history.",
        effect: Moves,
    },
    /// Go forward in the focused tab's history.
    Forward = "forward" {
        title: "Go forward",
        description: "Go forward in history.",
        effect: Moves,
    },
    /// Reload the focused tab.
    Reload = "reload" {
        title: "Reload",
        description: "Reload the page.",
        effect: Navigates,
    },
    /// A view of the page.
    Snapshot(SnapshotArgs) = "snapshot" {
        title: "View the page",
        description: "The page as text with refs (ref args also take css=…, role=button[name=Save], text=…). mode diff: changes since last view; interactive: controls only.",
        effect: Reads,
    },
    /// Elements matching text, with a line of context each.
    Find(FindArgs) = "find" {
        title: "Find elements",
        description: "Refs of elements containing text, with context, also outside the view.",
        effect: Reads,
    },
    /// Click an element.
    Click(ClickArgs) = "click" {
        title: "Click",
        description: "Click an element. Returns what changed.",
        effect: Acts,
    },
    /// Move the pointer over an element.
    Hover(RefArgs) = "hover" {
        title: "Hover",
        description: "Move the pointer over an element (menus, tooltips).",
        effect: Acts,
    },
    /// Type text at the end of a field, key by key.
    Type(TypeArgs) = "type" {
        title: "Type text",
        description: "Type text key by key at the end of a field (no ref: into the focused element).",
        effect: Acts,
    },
    /// Replace a field's value.
    Fill(FillArgs) = "fill" {
        title: "Fill a field",
        description: "Replace a field's value.",
        effect: Acts,
    },
    /// Press a key chord (`Enter`, `Control+Shift+R`).
    Press(PressArgs) = "press" {
        title: "Press keys",
        description: "Press a key chord such as Enter, Escape, Control+A.",
        effect: Acts,
    },
    /// Choose options in a native select, an ARIA listbox or a combobox.
    Select(SelectArgs) = "select" {
        title: "Select options",
        description: "Choose options in a select, listbox or combobox by label.",
        effect: Acts,
    },
    /// Check a checkbox, switch or radio.
    Check(RefArgs) = "check" {
        title: "Check",
        description: "Check a checkbox, switch or radio.",
        effect: Sets,
    },
    /// Uncheck a checkbox or switch.
    Uncheck(RefArgs) = "uncheck" {
        title: "Uncheck",
        description: "Uncheck a checkbox or switch.",
        effect: Sets,
    },
    /// Scroll the page or an element.
    Scroll(ScrollArgs) = "scroll" {
        title: "Scroll",
        description: "Scroll the page or an element; with only a ref, bring it into view.",
        effect: Moves,
    },
    /// Drag one element onto another.
    Drag(DragArgs) = "drag" {
        title: "Drag and drop",
        description: "Drag one element onto another.",
        effect: Acts,
    },
    /// Give files to a file input, or to the chooser a button opens.
    Upload(UploadArgs) = "upload" {
        title: "Upload files",
        description: "Give files to a file input or to the chooser an element opens.",
        effect: Acts,
    },
    /// Answer the JavaScript dialog that blocks the page.
    Dialog(DialogArgs) = "dialog" {
        title: "Answer a dialog",
        description: "Answer the alert, confirm or prompt that blocks the page.",
        effect: Acts,
    },
    /// List, open, switch to or close tabs.
    Tab(TabArgs) = "tab" {
        title: "Tabs",
        description: "List, open, switch to or close tabs.",
        effect: Acts,
    },
    /// Capture the viewport, the full page, an element or a clip.
    Screenshot(ScreenshotArgs) = "screenshot" {
        title: "Screenshot",
        description: "An image of the viewport, the full page or an element.",
        effect: Reads,
    },
    /// The page's main content as markdown.
    Read(ReadArgs) = "read" {
        title: "Read as markdown",
        description: "The page (or an element) as markdown, for reading long text.",
        effect: Reads,
    },
    /// Wait for text, a URL, a load state or a time.
    Wait(WaitArgs) = "wait" {
        title: "Wait",
        description: "Wait for text to appear or go, a URL, a load state, or ms milliseconds.",
        effect: Reads,
    },
    /// End the session's pages (a face that owns the browser ends it too).
    Close = "close" {
        title: "Close",
        description: "Close the browser; the next call starts a new one.",
        effect: Acts,
    },
    /// Run JavaScript in the page; the result as JSON.
    Eval(EvalArgs) = "eval" {
        title: "Run JavaScript",
        description: "Run JavaScript in the page: an expression or a function (given the element if ref is set). Returns JSON.",
        effect: Acts,
    },
    /// What the page logged: console messages and uncaught errors.
    Console(ConsoleArgs) = "console" {
        title: "Console messages",
        description: "Console messages and uncaught errors (with stacks) since the last call; all: every one kept.",
        effect: Reads,
        caps: Devtools,
    },
    /// What the page requested; block, mock and export requests (boxed:
    /// its many arguments would make every command as big).
    Network(Box<NetworkArgs>) = "network" {
        title: "Network",
        description: "Requests since the last call (filter by url, type, status); show id: headers and bodies; block or mock url patterns; clear; har file.",
        effect: Sets,
        caps: Network,
    },
    /// Read, set or clear the session's cookies (boxed, as `network`).
    Cookies(Box<CookiesArgs>) = "cookies" {
        title: "Cookies",
        description: "The session's cookies (by url or domain); set one; clear them.",
        effect: Sets,
        caps: State,
    },
    /// Read, set or clear the page's local or session storage.
    Storage(StorageArgs) = "storage" {
        title: "Web storage",
        description: "The page's localStorage or sessionStorage: get, set a key, clear.",
        effect: Sets,
        caps: State,
    },
    /// Save or load cookies and local storage (Playwright's storage state).
    State(StateArgs) = "state" {
        title: "Save or load a login",
        description: "Save the session's cookies and localStorage to a file, or load them (Playwright storage-state JSON).",
        effect: Sets,
        caps: State,
    },
    /// Emulate a device, media, place, network state or locale on every
    /// tab of the session.
    Set(SetArgs) = "set" {
        title: "Emulate",
        description: "Emulate a screen, device, media, place, network or locale on every tab.",
        effect: Sets,
        caps: Emulation,
    },
    /// Print the page to a PDF file (headless only).
    Pdf(PdfArgs) = "pdf" {
        title: "Save as PDF",
        description: "Print the page to a PDF file.",
        effect: Reads,
        caps: Pdf,
    },
    /// One fact about an element: its text, value, an attribute, its box,
    /// or whether it is visible, enabled or checked.
    Get(GetArgs) = "get" {
        title: "Read an element",
        description: "An element's text, value, attribute (name) or box, or whether it is visible, enabled or checked.",
        effect: Reads,
        caps: Inspect,
    },
    /// Pointer input at coordinates of the viewport (vision models).
    Mouse(MouseArgs) = "mouse" {
        title: "Mouse at coordinates",
        description: "Pointer at x, y: CSS pixels of the viewport (a screenshot's pixels at scale 1). move; down, up (held across calls: drag); click; wheel dx dy.",
        effect: Acts,
        caps: Vision,
    },
    /// Fill several fields in one call, in order.
    FillForm(FillFormArgs) = "fill-form" {
        title: "Fill a form",
        description: "Fill fields in order: text, a date, an option label, true/false for a checkbox. Stops at the first failure, naming the fields filled.",
        effect: Acts,
        caps: Forms,
    },
}

impl Command {
    /// Whether the command sends input to elements of the page on screen
    /// (and so would be lost if that page is replaced under it).
    pub fn acts_on_elements(&self) -> bool {
        matches!(
            self,
            Command::Click(_)
                | Command::Hover(_)
                | Command::Type(_)
                | Command::Fill(_)
                | Command::Press(_)
                | Command::Select(_)
                | Command::Check(_)
                | Command::Uncheck(_)
                | Command::Scroll(_)
                | Command::Drag(_)
                | Command::Upload(_)
                | Command::Mouse(_)
                | Command::FillForm(_)
        )
    }

    /// Whether the command may change the page (and so is followed by a view
    /// of what changed). Reading commands return their own result instead,
    /// and `close` leaves no page to view.
    pub fn acts(&self) -> bool {
        !matches!(
            self,
            Command::Snapshot(_)
                | Command::Find(_)
                | Command::Screenshot(_)
                | Command::Read(_)
                | Command::Wait(_)
                | Command::Close
                | Command::Console(_)
                | Command::Network(_)
                | Command::Cookies(_)
                | Command::Storage(_)
                | Command::State(_)
                | Command::Set(_)
                | Command::Pdf(_)
                | Command::Get(_)
                | Command::Tab(TabArgs {
                    action: TabAction::List,
                    ..
                })
        )
    }
}
