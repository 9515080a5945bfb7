//! The command vocabulary: every request the CLI, the MCP server and the agent
//! can make, defined once.
//!
//! [`vocabulary!`] lists each command a single time, as one entry: its
//! variant, its arguments' type, the name every face spells it with, a
//! title, the sentence a model reads, what it does to the world, what it
//! works on, its element arguments, its deadline, where an argument changes
//! those, the capability
//! group that offers it to a model (`core` unless named), and its shell
//! spelling (`shell`: words, flags, help, examples, reference). From that
//! one list come the [`Command`] enum (which deserializes from
//! `{"command": "click", "ref": "e7"}`), [`Command::name`], the entries
//! ([`crate::entries`]) the guard, the command line and docs/commands.md
//! read, and the tool catalog ([`crate::tools`]) whose schemas are derived
//! from the argument types, so a schema cannot drift from what the parser
//! accepts. A new command is one entry here (and its spelling) plus its
//! implementation.

use serde::{Deserialize, Serialize};

use super::args::*;
use super::args_pointer::*;
use super::args_tools::*;
use crate::vocabulary::entry::{Deadline, Effect, Entry, When, WorksOn};
use crate::vocabulary::shell::Literal;
use crate::vocabulary::{spelling_input as input, spelling_page_tools as page_tools};
use crate::vocabulary::{spelling_pages as pages, spelling_tools as tools};

/// Expands the one list of commands into the enum, its names and its
/// entries.
macro_rules! vocabulary {
    ($(
        $(#[$doc:meta])*
        $variant:ident $(($args:ty))? = $name:literal {
            title: $title:literal,
            description: $description:literal,
            effect: $effect:ident,
            $(works_on: $works_on:ident,)?
            $(elements: [$($element:literal),* $(,)?],)?
            $(deadline: $deadline:expr,)?
            $(caps: $caps:ident,)?
            $(when: $argument:literal = $value:tt => $property:ident: $then:ident,)?
            shell: $shell:path $(,)?
        }
    ),* $(,)?) => {
        /// One request to a session.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "command", deny_unknown_fields)]
        pub enum Command {
            $( $(#[$doc])* #[serde(rename = $name)] $variant $(($args))?, )*
        }

        /// Each command's place in the list.
        enum Position {
            $( $variant, )*
        }

        impl Command {
            /// The command's name, as the CLI and MCP spell it.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Command::$variant { .. } => $name, )*
                }
            }

            /// The command's entry in the list.
            pub fn entry(&self) -> &'static Entry {
                match self {
                    $( Command::$variant { .. } => &ENTRIES[Position::$variant as usize], )*
                }
            }
        }

        /// Every command's entry, in the order of the list.
        pub(crate) static ENTRIES: &[Entry] = &[$(
            Entry {
                name: $name,
                title: $title,
                description: $description,
                effect: Effect::$effect,
                works_on: works_on!($($works_on)?),
                elements: &[$($($element),*)?],
                deadline: deadline!($($deadline)?),
                when: when!($($argument, $value, $property, $then)?),
                capability: capability_of!($($caps)?),
                shell: &$shell,
                schema: crate::vocabulary::schema::schema_of::<args_type!($($args)?)>,
            },
        )*];
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

/// What a command works on, the focused tab's page when the list names
/// nothing else.
macro_rules! works_on {
    () => {
        WorksOn::Page
    };
    ($works_on:ident) => {
        WorksOn::$works_on
    };
}

/// A command's deadline, the session's command deadline when the list
/// names none.
macro_rules! deadline {
    () => {
        Deadline::Command
    };
    ($deadline:expr) => {
        $deadline
    };
}

/// Where one argument's value changes a property of the call.
macro_rules! when {
    () => {
        None
    };
    ($argument:literal, $value:tt, effect, $then:ident) => {
        Some(When {
            argument: $argument,
            value: literal!($value),
            effect: Some(Effect::$then),
            works_on: None,
        })
    };
    ($argument:literal, $value:tt, works_on, $then:ident) => {
        Some(When {
            argument: $argument,
            value: literal!($value),
            effect: None,
            works_on: Some(WorksOn::$then),
        })
    };
}

/// A value written in the list.
macro_rules! literal {
    (true) => {
        Literal::Bool(true)
    };
    (false) => {
        Literal::Bool(false)
    };
    ($text:literal) => {
        Literal::Text($text)
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
        description: "Go to a URL.",
        effect: Navigates,
        works_on: Tab,
        deadline: Deadline::Navigation,
        // A new tab does not need the page on screen.
        when: "new_tab" = true => works_on: Browser,
        shell: pages::OPEN,
    },
    /// Go back in the focused tab's history.
    Back = "back" {
        title: "Go back",
        description: "Go back in history.",
        effect: Moves,
        deadline: Deadline::Navigation,
        shell: pages::BACK,
    },
    /// Go forward in the focused tab's history.
    Forward = "forward" {
        title: "Go forward",
        description: "Go forward in history.",
        effect: Moves,
        deadline: Deadline::Navigation,
        shell: pages::FORWARD,
    },
    /// Reload the focused tab.
    Reload = "reload" {
        title: "Reload",
        description: "Reload the page.",
        effect: Navigates,
        deadline: Deadline::Navigation,
        shell: pages::RELOAD,
    },
    /// A view of the page.
    Snapshot(SnapshotArgs) = "snapshot" {
        title: "View the page",
        description: "The page as text with refs (ref args also take css=…, role=button[name=Save], text=…). mode diff: what changed; interactive: controls only.",
        effect: Reads,
        // The view of a page a dialog blocks is the dialog: that is how
        // a caller sees one, so a dialog does not refuse it.
        works_on: Tab,
        elements: ["scope"],
        shell: pages::SNAPSHOT,
    },
    /// Elements matching text, with a line of context each.
    Find(FindArgs) = "find" {
        title: "Find elements",
        description: "Refs of elements containing text, with context, also outside the view.",
        effect: Reads,
        shell: pages::FIND,
    },
    /// Click an element.
    Click(ClickArgs) = "click" {
        title: "Click",
        description: "Click an element.",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::CLICK,
    },
    /// Move the pointer over an element.
    Hover(RefArgs) = "hover" {
        title: "Hover",
        description: "Hover an element (menus, tooltips).",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::HOVER,
    },
    /// Type text at the end of a field, key by key.
    Type(TypeArgs) = "type" {
        title: "Type text",
        description: "Type key by key at the end of a field (no ref: the focused one).",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::TYPE,
    },
    /// Replace a field's value.
    Fill(FillArgs) = "fill" {
        title: "Fill a field",
        description: "Replace a field's value.",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::FILL,
    },
    /// Press a key chord (`Enter`, `Control+Shift+R`).
    Press(PressArgs) = "press" {
        title: "Press keys",
        description: "Press keys: Enter, Escape, Control+A…",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::PRESS,
    },
    /// Choose options in a native select, an ARIA listbox or a combobox.
    Select(SelectArgs) = "select" {
        title: "Select options",
        description: "Choose options of a select, listbox or combobox.",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::SELECT,
    },
    /// Check a checkbox, switch or radio.
    Check(RefArgs) = "check" {
        title: "Check",
        description: "Check a checkbox, switch or radio.",
        effect: Sets,
        works_on: Elements,
        elements: ["ref"],
        shell: input::CHECK,
    },
    /// Uncheck a checkbox or switch.
    Uncheck(RefArgs) = "uncheck" {
        title: "Uncheck",
        description: "Uncheck a checkbox or switch.",
        effect: Sets,
        works_on: Elements,
        elements: ["ref"],
        shell: input::UNCHECK,
    },
    /// Scroll the page or an element.
    Scroll(ScrollArgs) = "scroll" {
        title: "Scroll",
        description: "Scroll the page or an element; with only a ref, bring it into view.",
        effect: Moves,
        works_on: Elements,
        elements: ["ref"],
        shell: input::SCROLL,
    },
    /// Drag one element onto another.
    Drag(DragArgs) = "drag" {
        title: "Drag and drop",
        description: "Drag one element onto another.",
        effect: Acts,
        works_on: Elements,
        elements: ["from", "to"],
        caps: Drag,
        shell: input::DRAG,
    },
    /// Give files to a file input, or to the chooser a button opens.
    Upload(UploadArgs) = "upload" {
        title: "Upload files",
        description: "Give files to a file input or to the chooser an element opens.",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        caps: Forms,
        shell: input::UPLOAD,
    },
    /// Have the solver plugin solve a captcha the view shows.
    Solve(SolveArgs) = "solve" {
        title: "Solve a challenge",
        description: "Have the installed solver plugin solve the captcha a `captcha eN` line shows.",
        effect: Acts,
        works_on: Elements,
        elements: ["ref"],
        shell: input::SOLVE,
    },
    /// Answer the JavaScript dialog that blocks the page.
    Dialog(DialogArgs) = "dialog" {
        title: "Answer a dialog",
        description: "Answer the alert, confirm or prompt that blocks the page.",
        effect: Acts,
        works_on: Dialog,
        shell: input::DIALOG,
    },
    /// List, open, switch to or close tabs.
    Tab(TabArgs) = "tab" {
        title: "Tabs",
        description: "List, open, switch to or close tabs.",
        effect: Acts,
        works_on: Browser,
        // `tab list` only reads: its answer is the list, not a view.
        when: "action" = "list" => effect: Reads,
        shell: input::TAB,
    },
    /// Native applications: list them, or make one the session's target.
    Desktop(DesktopArgs) = "desktop" {
        title: "Desktop apps",
        description: "Desktop apps: list, open or attach one as the target for later commands, or leave.",
        effect: Acts,
        works_on: Browser,
        caps: Desktop,
        when: "action" = "apps" => effect: Reads,
        shell: input::DESKTOP,
    },
    /// Capture the viewport, the full page, an element or a clip.
    Screenshot(ScreenshotArgs) = "screenshot" {
        title: "Screenshot",
        description: "An image of the viewport, the full page or an element.",
        effect: Reads,
        elements: ["ref"],
        shell: pages::SCREENSHOT,
    },
    /// The page's main content as markdown.
    Read(ReadArgs) = "read" {
        title: "Read as markdown",
        description: "The page (or an element) as markdown, for reading long text.",
        effect: Reads,
        elements: ["ref"],
        shell: pages::READ,
    },
    /// Wait for text, a URL, a load state or a time.
    Wait(WaitArgs) = "wait" {
        title: "Wait",
        description: "Wait for text to appear or go, a URL, a load state, or ms.",
        effect: Reads,
        deadline: Deadline::Argument { argument: "ms", default: rove_base::limits::WAIT },
        shell: pages::WAIT,
    },
    /// End the session's pages (a face that owns the browser ends it too).
    Close = "close" {
        title: "Close",
        description: "Close the browser; the next call starts a new one.",
        effect: Ends,
        works_on: Browser,
        shell: input::CLOSE,
    },
    /// Run JavaScript in the page; the result as JSON.
    Eval(EvalArgs) = "eval" {
        title: "Run JavaScript",
        description: "Run JavaScript: an expression, or a function given ref's element.",
        effect: Acts,
        elements: ["ref"],
        deadline: Deadline::Script,
        shell: pages::EVAL,
    },
    /// What the page logged: console messages and uncaught errors.
    Console(ConsoleArgs) = "console" {
        title: "Console messages",
        description: "Console messages and uncaught errors (with stacks) since the last call; all: every one kept.",
        effect: Reads,
        works_on: Tab,
        caps: Devtools,
        shell: tools::CONSOLE,
    },
    /// What the page requested; block, mock and export requests (boxed:
    /// its many arguments would make every command as big).
    Network(Box<NetworkArgs>) = "network" {
        title: "Network",
        description: "Requests since the last call (filter by url, type, status); show id: headers and bodies; block or mock url patterns; clear; har file.",
        effect: Configures,
        works_on: Tab,
        caps: Network,
        shell: tools::NETWORK,
    },
    /// Read, set or clear the session's cookies (boxed, as `network`).
    Cookies(Box<CookiesArgs>) = "cookies" {
        title: "Cookies",
        description: "The session's cookies (by url or domain); set one; clear them.",
        effect: Configures,
        works_on: Tab,
        caps: State,
        shell: tools::COOKIES,
    },
    /// Read, set or clear the page's local or session storage.
    Storage(StorageArgs) = "storage" {
        title: "Web storage",
        description: "The page's localStorage or sessionStorage: get, set a key, clear.",
        effect: Configures,
        caps: State,
        shell: tools::STORAGE,
    },
    /// Save or load cookies and local storage (Playwright's storage state).
    State(StateArgs) = "state" {
        title: "Save or load a login",
        description: "Save the session's cookies and localStorage to a file, or load them (Playwright storage-state JSON).",
        effect: Configures,
        caps: State,
        // Saving reads every page's local storage with a script; loading
        // sets cookies over the protocol and restores storage in a tab of
        // its own, which a dialog in the focused tab does not block.
        when: "action" = "load" => works_on: Tab,
        shell: tools::STATE,
    },
    /// Emulate a device, media, place, network state or locale on every
    /// tab of the session.
    Set(SetArgs) = "set" {
        title: "Emulate",
        description: "Emulate a screen, device, media, place, network or locale on every tab.",
        effect: Configures,
        works_on: Tab,
        caps: Emulation,
        shell: page_tools::SET,
    },
    /// Print the page to a PDF file (headless only).
    Pdf(PdfArgs) = "pdf" {
        title: "Save as PDF",
        description: "Print the page to a PDF file.",
        effect: Reads,
        caps: Pdf,
        shell: page_tools::PDF,
    },
    /// One fact about an element: its text, value, an attribute, its box,
    /// or whether it is visible, enabled or checked.
    Get(GetArgs) = "get" {
        title: "Read an element",
        description: "An element's text, value, attribute (name) or box, or whether it is visible, enabled or checked.",
        effect: Reads,
        elements: ["ref"],
        caps: Inspect,
        shell: page_tools::GET,
    },
    /// Pointer input at coordinates of the viewport (vision models).
    Mouse(MouseArgs) = "mouse" {
        title: "Mouse at coordinates",
        description: "Pointer at x, y: CSS pixels of the viewport (a screenshot's pixels at scale 1). move; down, up (held across calls: drag); click; wheel dx dy.",
        effect: Acts,
        works_on: Elements,
        caps: Vision,
        shell: page_tools::MOUSE,
    },
    /// Fill several fields in one call, in order.
    FillForm(FillFormArgs) = "fill-form" {
        title: "Fill a form",
        description: "Fill fields in order: text, a date, an option label, true/false for a checkbox. Stops at the first failure, naming the fields filled.",
        effect: Acts,
        works_on: Elements,
        elements: ["fields[].ref"],
        caps: Forms,
        shell: page_tools::FILL_FORM,
    },
}

impl Command {
    /// What the command does to the world, this call's arguments
    /// considered (`tab list` only reads).
    pub fn effect(&self) -> Effect {
        let entry = self.entry();
        match entry.when.filter(|w| w.effect.is_some()) {
            Some(when) if when.holds(&self.tool_arguments()) => when.effect.unwrap_or(entry.effect),
            _ => entry.effect,
        }
    }

    /// What the command works on, this call's arguments considered
    /// (`open` in a new tab does not need the page on screen).
    pub fn works_on(&self) -> WorksOn {
        let entry = self.entry();
        match entry.when.filter(|w| w.works_on.is_some()) {
            Some(when) if when.holds(&self.tool_arguments()) => {
                when.works_on.unwrap_or(entry.works_on)
            }
            _ => entry.works_on,
        }
    }

    /// Whether the command sends input to elements of the page on screen
    /// (and so would be lost if that page is replaced under it).
    pub fn acts_on_elements(&self) -> bool {
        match self.works_on() {
            WorksOn::Elements => true,
            WorksOn::Browser | WorksOn::Dialog | WorksOn::Tab | WorksOn::Page => false,
        }
    }

    /// Whether the command may change the page (and so is followed by a view
    /// of what changed). Reading commands return their own result instead,
    /// configuring ones answer with what they set, and `close` leaves no
    /// page to view.
    pub fn acts(&self) -> bool {
        self.effect().changes_page()
    }

    /// How long the command may run in all, this call's arguments
    /// considered: `None` for the session's command deadline, else its own
    /// wait (which the guard gives room around).
    pub fn own_wait(
        &self,
        navigation: std::time::Duration,
        script: std::time::Duration,
    ) -> Option<std::time::Duration> {
        match self.entry().deadline {
            Deadline::Command => None,
            Deadline::Navigation => Some(navigation),
            Deadline::Script => Some(script),
            Deadline::Argument { argument, default } => {
                let given = self.tool_arguments()[argument].as_u64();
                Some(given.map_or(default, std::time::Duration::from_millis))
            }
        }
    }
}
