//! The shell spellings and references of the commands that act on a page's
//! elements (click, hover, type, fill, press, select, check, uncheck,
//! scroll, drag, upload) and on tabs and dialogs (dialog, tab, close).

use crate::vocabulary::shell::*;
use crate::vocabulary::spelling_pages::ELEMENT;

/// `REF`, an element filling `ref`.
const REF: Word = Word::one("REF", ELEMENT, "ref", Kind::Element);

const BUTTON: Flag = Flag::value(
    "button",
    "BUTTON",
    "left, right or middle.",
    "button",
    Kind::Text,
);

const SUBMIT: Flag = Flag::switch("submit", "Press Enter afterwards.", "submit");

pub(crate) const CLICK: Shell = Shell {
    spelling: Spelling {
        about: "Click an element (or, with --at, a point of the viewport)",
        words: &[REF.count(Count::OneUnless("at"))],
        flags: &[
            Flag::filling(
                "at",
                "X Y",
                "A point of the viewport instead of a ref: CSS pixels, as in a screenshot at scale 1.",
                Fills::Shell(ShellOnly::ClickAt),
            )
            .conflicts(&["ref"]),
            BUTTON.default("left"),
            Flag::switch("double", "A double click (as `rove dblclick`).", "double"),
            Flag::value(
                "modifiers",
                "MODIFIERS",
                "Keys held: Alt, Control, Meta, Shift (comma-separated).",
                "modifiers",
                Kind::List,
            ),
        ],
        examples: &[
            Example("rove click e7", ""),
            Example("rove click @e7 --button right", ""),
            Example("rove click e7 --modifiers Control,Shift", ""),
            Example(
                "rove click --at 120 45",
                "CSS pixels of the viewport (as rove mouse click 120 45)",
            ),
        ],
        note: "",
    },
    aliases: &[Alias {
        name: "dblclick",
        spelling: Spelling {
            about: "Double-click an element",
            words: &[REF],
            flags: &[],
            examples: &[Example("rove dblclick e7", "")],
            note: "",
        },
        fixed: &[("double", Literal::Bool(true))],
    }],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "A tab a plain click opens takes the focus and its view is returned; a middle or modified click opens it in the \
        background and says so. At the shell, `rove dblclick REF` is a click with `double`, and `rove click --at X Y` a click \
        at a point (`mouse click`).",
};

pub(crate) const HOVER: Shell = Shell {
    spelling: Spelling {
        about: "Move the pointer over an element",
        words: &[REF],
        flags: &[],
        examples: &[Example("rove hover e4", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "",
};

pub(crate) const TYPE: Shell = Shell {
    spelling: Spelling {
        about: "Type text at the end of a field, one real key press per character (with --focused, into whatever has the focus)",
        words: &[Word::run(
            "REF TEXT",
            "The field (a ref or a locator) and the text, or (with --focused) only the text.",
            Count::Between(1, 2),
            Fills::InOrder(&[
                Slot::one("ref", Kind::Element),
                Slot::one("text", Kind::Text),
            ]),
        )],
        flags: &[
            Flag::filling(
                "focused",
                "",
                "Type into whatever has the focus instead of a field named by ref.",
                Fills::Omits("ref"),
            ),
            Flag::value(
                "delay",
                "MS",
                "Milliseconds between keys.",
                "delay_ms",
                Kind::Integer,
            ),
            SUBMIT,
        ],
        examples: &[
            Example("rove type e3 hello", ""),
            Example("rove type e3 'slow typist' --delay 50", ""),
            Example(
                "rove type --focused 'rename notebook'",
                "into the field a widget focused itself",
            ),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "Without a ref, the keys go to whatever has the focus (a field a widget focused itself; at the shell `rove type \
        --focused TEXT`). Appends, one real key press per character (trusted keydown, keypress, input, keyup; up to 8 key events \
        on their way at once, one at a time with `delay_ms`). The field must end with the text, or `NOT_ACTIONABLE` \
        (`action_sent: sent`) says what it holds. Typing stops at three quarters of the command's deadline (90 s by default) with \
        `TIMEOUT` saying how many characters reached the field; `fill` sets a long text at once. `submit` presses Enter after.",
};

pub(crate) const FILL: Shell = Shell {
    spelling: Spelling {
        about: "Replace a field's value",
        words: &[
            Word::one("REF", "The field.", "ref", Kind::Element),
            Word::one("TEXT", "The text.", "text", Kind::Text),
        ],
        flags: &[SUBMIT],
        examples: &[
            Example("rove fill e3 ada@example.org", ""),
            Example("rove fill e5 secret --submit", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "Replaces the value (select all, insert), then fires the `change` a committed edit fires, keeping the focus in the \
        field (leaving it would close a command palette or a combobox's popup). A field the page takes away as the text arrives \
        is reported (`then the page took the field away`), not as a failure. `submit` presses Enter after, in the field. A number \
        field that takes text (`type=number`, a text spinbutton, `inputmode` numeric or decimal) is left with Tab afterwards, \
        unless `submit` is given: component libraries take such a number only when the field loses the focus, and the answer \
        says it (`left e3 with Tab, ...`) and shows the number as the app formats it. In an \
        editable combobox whose list shows options, typing only filters the list, so the option the text names (exactly, then \
        ignoring case) is clicked and the answer says so (`chose the option \"Dark\" from its list`); a text that begins options \
        leaves the list open and names them; a text no option contains is committed with Tab, and a box that goes back to \
        another value (it takes only its options) is `NOT_ACTIONABLE` (`action_sent: sent`) listing them. A read-only combobox \
        (Quasar's QSelect) takes no text: it is opened with a click and the option named is chosen, as `select` does. A code or \
        rich-text editor (CodeMirror 5 or 6, Monaco, a contenteditable such as ProseMirror; the ref may name its hidden textarea, \
        its content or its wrapper) is replaced whole through real input: focused, Control+A, the text inserted; then the text it \
        shows is read back, line by line, and must equal the text, or `NOT_ACTIONABLE` (`action_sent: sent`) says what the editor \
        holds (an editor that reformats or auto-closes what it is given). An editor taller than its view draws only some lines: \
        when those are a run of the text, the answer says which lines were checked. A slider or spinbutton (a range input, or \
        `role=slider` / `role=spinbutton` that is not a text field; a composite one takes the keys through its focusable part) \
        takes a number through real keys, as from a keyboard: Home or \
        End for its extremes, Page keys while far, arrows for single steps (held: repeated keydowns, one keyup), then the value is \
        read back; an app that takes a value only when a change ends gets it. The press that may land on the value is \
        sent only once the page has answered the presses before it: an app that takes a value at every press and works \
        on each on its server (Streamlit reruns its script for each, the runs side by side) ends holding the value \
        reported, not an older one whose run finished last. A range value off its steps or limits is \
        `COMMAND_REJECTED` naming the nearest values, before any key; a control whose steps skip the value (an ARIA one, a \
        range without steps) is `NOT_ACTIONABLE` (`action_sent: sent`) naming the values around it and what it holds, put \
        back on the nearer one it came from; an ARIA slider its keys do not move is dragged instead: its thumb pressed, moved \
        along its track to the value's place and released (corrected up to three times by where it landed), then read back; \
        one neither brings there (it ignores them, moves away or wraps around) is `NOT_ACTIONABLE` saying what it holds. An input a native picker sets \
        (`date`, `time`, `datetime-local`, `month`, `week`, `color`) takes its value whole, in the form the input holds \
        (`2026-03-14`, `09:30`, `2026-03-14T09:30`, `2026-03`, `2026-W11`, `#3366cc`): set through the value setter with the \
        `input` and `change` events a picker fires, then read back. A value the browser would read otherwise (`2026-13-45`, \
        `03/14/2026`), or a date outside the input's `min` and `max` (its picker never offers one), is `COMMAND_REJECTED` naming \
        the form, and the field is not touched; `type` refuses these inputs and sliders, and points at `fill`.",
};

pub(crate) const PRESS: Shell = Shell {
    spelling: Spelling {
        about: "Press a key chord on the focused element (or on REF)",
        words: &[Word::one(
            "KEYS",
            "The chord: Enter, Control+A, Shift+Tab …",
            "keys",
            Kind::Text,
        )],
        flags: &[Flag::value(
            "ref",
            "REF",
            "Focus this element first (by clicking it).",
            "ref",
            Kind::Element,
        )],
        examples: &[
            Example("rove press Enter", ""),
            Example("rove press Control+A --ref e3", ""),
            Example("rove press Shift+Tab", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "A chord: `Enter`, `Control+A`, `Shift+Tab`, `Control+Shift+R`. With a ref, the element is clicked first; a slider \
        (a range input, `role=slider`) gets the focus without a click, since a click would move it.",
};

pub(crate) const SELECT: Shell = Shell {
    spelling: Spelling {
        about: "Choose options of a select, listbox or combobox",
        words: &[
            Word::one(
                "REF",
                "The select, listbox or combobox.",
                "ref",
                Kind::Element,
            ),
            Word::one("VALUES", "Option labels or values.", "values", Kind::Text)
                .count(Count::Many),
        ],
        flags: &[],
        examples: &[
            Example("rove select e9 Peru", ""),
            Example("rove select e9 red green", "(a multiple select)"),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "Native selects by label or value (several for `multiple`); ARIA listboxes (options clicked), comboboxes and buttons \
        with a popup (opened, then the option clicked), editable comboboxes (the value typed, then the suggestion clicked). The \
        page settles after the choice, so a jump menu that navigates reports the new page.",
};

const CHECKED: &str = "Checkboxes, switches, radios, `aria-checked` elements, toggle buttons (`aria-pressed`: checked is \
    pressed); the state is read back. Already in the state asked for: nothing is sent, and the outcome says so.";

pub(crate) const CHECK: Shell = Shell {
    spelling: Spelling {
        about: "Check a checkbox, switch or radio",
        words: &[REF],
        flags: &[],
        examples: &[Example("rove check e4", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: CHECKED,
};

pub(crate) const UNCHECK: Shell = Shell {
    spelling: Spelling {
        about: "Uncheck a checkbox or switch",
        words: &[REF],
        flags: &[],
        examples: &[Example("rove uncheck e4", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: CHECKED,
};

pub(crate) const SCROLL: Shell = Shell {
    spelling: Spelling {
        about: "Scroll the page or an element, or bring an element into view",
        words: &[Word::run(
            "WORDS",
            "Any of: a ref or a locator, a direction (up, down, left, right), a distance in pixels.",
            Count::Between(1, 3),
            Fills::AnyOrder(&[
                Slot::one("direction", CHOICE).takes(Takes::IfItFits),
                Slot::one("pixels", Kind::Number).takes(Takes::IfItFits),
                Slot::one("ref", Kind::Element).takes(Takes::IfItFits),
            ]),
        )],
        flags: &[],
        examples: &[
            Example("rove scroll down", ""),
            Example("rove scroll up 300", ""),
            Example("rove scroll e12", "bring e12 into view"),
            Example("rove scroll e12 down", "scroll inside e12"),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "With a direction, the mouse wheel over the element (or the middle of the page), 80% of the scroller's visible \
        size by default (the page's, or the box's that scrolls); the outcome says how far it went and where it stands. With only \
        a ref, the element is brought into view. At the shell the words come in any order: `rove scroll e12 down 300`.",
};

pub(crate) const DRAG: Shell = Shell {
    spelling: Spelling {
        about: "Drag one element onto another",
        words: &[
            Word::one("FROM", "The element to pick up.", "from", Kind::Element),
            Word::one("TO", "The element to drop it on.", "to", Kind::Element),
        ],
        flags: &[],
        examples: &[Example("rove drag e4 e9", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "Real pointer events (pointer capture works); HTML5 drag and drop is completed at the target (`dragenter`, \
        `dragover`, `drop`).",
};

pub(crate) const UPLOAD: Shell = Shell {
    spelling: Spelling {
        about: "Give files to a file input, or to the chooser an element opens",
        words: &[
            Word::one(
                "REF",
                "A file input, or the element that opens a file chooser.",
                "ref",
                Kind::Element,
            ),
            Word::one("PATHS", "The files.", "paths", Kind::Path).count(Count::Many),
        ],
        flags: &[],
        examples: &[
            Example("rove upload e6 ./photo.jpg", ""),
            Example("rove upload e6 a.pdf b.pdf", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "A file input, or an element whose click opens a file chooser. Files must lie under the allowed roots, after \
        resolving links: the session's upload folder (`<runtime folder>/uploads`), `--upload-root` folders, and for a command \
        typed in a shell the folder it runs in (never `/` or the home folder); otherwise `UPLOAD_DENIED`, and nothing is sent.",
};

pub(crate) const SOLVE: Shell = Shell {
    spelling: Spelling {
        about: "Have the solver plugin solve a captcha the view shows",
        words: &[Word::one(
            "REF",
            "The challenge, its `captcha eN` line's ref; the only one when left out.",
            "ref",
            Kind::Element,
        )
        .count(Count::Optional)],
        flags: &[],
        examples: &[Example("rove solve", ""), Example("rove solve e12", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Acting,
    reference: "Asks the first solver plugin of the plugins folder (`$XDG_CONFIG_HOME/rove/plugins/`, `--plugins DIR` or \
        `ROVE_PLUGINS`) to solve the challenge, over the JSON protocol of docs/captcha.md: it gets the kind, the site key, the \
        page's URL, the user agent and, for an image challenge, a picture of it, and nothing else (no cookies, no secrets). \
        rove puts a token where the widget expects it (its response field and the callback the page named), clicks the tiles \
        it names with trusted input, types an image captcha's text into its field (`answered`: the page checks it when the \
        form is sent), or sets a bot wall's clearance cookies for the page's own site and loads the page again; then it reads \
        the widget again: the answer says solved only when the page does. No plugin: `NO_SOLVER`; \
        a plugin's own error comes back with its code, hint and retry class; one that hangs past 60 s or prints garbage is \
        killed: `SOLVER_FAILED`. Site terms are yours to keep.",
};

pub(crate) const DIALOG: Shell = Shell {
    spelling: Spelling {
        about: "Answer the JavaScript dialog that blocks the page",
        words: &[
            Word::one(
                "ANSWER",
                "accept or dismiss.",
                "accept",
                Kind::Words(&[
                    ("accept", Literal::Bool(true)),
                    ("ok", Literal::Bool(true)),
                    ("yes", Literal::Bool(true)),
                    ("dismiss", Literal::Bool(false)),
                    ("cancel", Literal::Bool(false)),
                    ("no", Literal::Bool(false)),
                ]),
            ),
            Word::one("TEXT", "The answer to a prompt.", "text", Kind::Text).count(Count::Optional),
        ],
        flags: &[],
        examples: &[
            Example("rove dialog accept", ""),
            Example("rove dialog dismiss", ""),
            Example("rove dialog accept 'my answer'", "(a prompt)"),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::TabsAndDialogs,
    reference: "Answers the alert, confirm, prompt or beforeunload dialog that blocks the page (`text` only for a prompt). A dialog \
        that opens right after (a chain) is reported, to be answered in turn; from the third in a row the answer says how to \
        leave the page (`open` another URL). Otherwise the answer waits, as after input, for what the page does once its \
        script goes on: the page an accepted `beforeunload` lets the tab reach, loaded and built, or the changes and \
        requests a confirm's answer starts.",
};

pub(crate) const TAB: Shell = Shell {
    spelling: Spelling {
        about: "List, open, switch to or close tabs",
        words: &[
            Word::one(
                "ACTION",
                "list, new, switch or close.",
                "action",
                Kind::Words(&[("ls", Literal::Text("list"))]),
            )
            .count(Count::Default("list")),
            Word::run(
                "TARGET",
                "The tab (t2) for switch and close; the URL for new.",
                Count::Optional,
                Fills::ByValue {
                    argument: "action",
                    cases: &[
                        Case::new(&["new"], &[Slot::one("url", Kind::Text)]),
                        Case::new(&[], &[Slot::one("tab", Kind::Text)]),
                    ],
                },
            ),
        ],
        flags: &[],
        examples: &[
            Example("rove tab", ""),
            Example("rove tab new https://example.org", ""),
            Example("rove tab switch t2", ""),
            Example("rove tab close t2", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::TabsAndDialogs,
    reference: "`list` marks the focused tab with `*` and names each popup's opener. A closed tab's id never comes back \
        (`NO_TAB`).",
};

pub(crate) const DESKTOP: Shell = Shell {
    spelling: Spelling {
        about: "List desktop applications, or make one the session's target",
        words: &[
            Word::one(
                "ACTION",
                "apps, open, attach or leave.",
                "action",
                Kind::Words(&[("ls", Literal::Text("apps"))]),
            )
            .count(Count::Default("apps")),
            Word::run(
                "TARGET",
                "The command line for open; the name or process id for attach.",
                Count::Optional,
                Fills::ByValue {
                    argument: "action",
                    cases: &[Case::new(&[], &[Slot::one("target", Kind::Text)])],
                },
            ),
        ],
        flags: &[],
        examples: &[
            Example("rove desktop apps", ""),
            Example("rove desktop open gnome-calculator", ""),
            Example("rove desktop open 'zenity --question --text=Proceed?'", ""),
            Example("rove desktop attach gnome-calculator", ""),
            Example("rove desktop leave", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::TabsAndDialogs,
    reference: "Linux, through the accessibility bus (AT-SPI2; docs/desktop.md). After `open` or `attach` the application \
        is the target: `snapshot`, `find`, `click`, `fill`, `check`, `select`, `press`, `type`, `wait` and `read` work on its windows with \
        the same refs and diffs; page-only commands (`open URL`, `eval`, `network`, `cookies` …) answer \
        `COMMAND_REJECTED` until `leave`. No accessibility bus or display is `DESKTOP_UNAVAILABLE`.",
};

pub(crate) const CLOSE: Shell = Shell {
    spelling: Spelling {
        about: "End the session: its daemon, browser, tabs and cookies",
        words: &[],
        flags: &[],
        examples: &[
            Example("rove close", ""),
            Example("rove --session work close", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::TabsAndDialogs,
    reference: "Ends the session: MCP's own session closes its browser and the next call starts a new one; a shared session (`rove \
        mcp --session NAME`) ends as `rove close` ends it. Run on a session directly, it closes every tab. The agent is not \
        offered it.",
};
