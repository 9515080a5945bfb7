//! The shell spellings and references of the opt-in tools that work on the
//! page itself: set (emulation), pdf, get (inspect), mouse (vision),
//! fill-form (forms).

use crate::vocabulary::shell::*;

pub(crate) const SET: Shell = Shell {
    spelling: Spelling {
        about: "Emulate a viewport, a device, a colour scheme or print media, a position, no network, extra headers, a user agent, a time zone or a locale, on every tab of the session",
        words: &[
            Word::one(
                "WHAT",
                "viewport, device, media, geo, offline, headers, user-agent, timezone or locale.",
                "what",
                Kind::Choice {
                    aliases: &[("user-agent", "user_agent")],
                    any_case: false,
                },
            ),
            Word::run(
                "VALUES",
                "viewport: WIDTH HEIGHT; geo: LATITUDE LONGITUDE; headers: one 'Name: value' each; otherwise the value (none: the browser's own).",
                Count::Any,
                Fills::ByValue {
                    argument: "what",
                    cases: &[
                        Case::new(
                            &["viewport"],
                            &[
                                Slot::one("width", Kind::Integer),
                                Slot::one("height", Kind::Integer),
                            ],
                        ),
                        Case::new(
                            &["geo"],
                            &[
                                Slot::one("latitude", Kind::Number),
                                Slot::one("longitude", Kind::Number),
                            ],
                        ),
                        Case::new(
                            &["headers"],
                            &[Slot::one("headers", Kind::Text).takes(Takes::Rest)],
                        ),
                        Case::new(&[], &[Slot::one("value", Kind::Text).takes(Takes::Joined)]),
                    ],
                },
            ),
        ],
        flags: &[Flag::value(
            "scale",
            "SCALE",
            "viewport: the device pixel ratio (1).",
            "scale",
            Kind::Number,
        )],
        examples: &[
            Example("rove set viewport 390 844 --scale 3", ""),
            Example("rove set device iPhone 15", "(Pixel 8, iPad, desktop)"),
            Example("rove set media dark", "(light, print, screen)"),
            Example("rove set geo 48.8584 2.2945", ""),
            Example("rove set offline on", ""),
            Example("rove set headers 'X-Test: 1' 'Authorization: Bearer …'", ""),
            Example("rove set headers", "(none)"),
            Example("rove set user-agent 'Mozilla/5.0 …'", ""),
            Example("rove set timezone Europe/Paris", ""),
            Example("rove set locale fr-FR", ""),
        ],
        note: "Every tab of the session, those opened later too.",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "Changes what pages see, on every tab of the session and those opened later (Chromium keeps emulation per page, so \
        the session keeps each setting and gives it to each tab it watches); setting a thing again replaces it. The answer says \
        what changed and on which tabs. **viewport** `width` `height` (50 to 10,000 CSS pixels) and `scale` (the device pixel \
        ratio, 1). **device** `value`: `iPhone 15` (393×852 at 3), `Pixel 8` (412×915 at 2.625), `iPad` (820×1180 at 2) — mobile, \
        touch (`pointer: coarse`) and the device's user agent — or `desktop` (the session's viewport at 1, a mouse, the \
        browser's user agent); case, spaces and dashes do not matter. **media** `value`: `dark` or `light` \
        (`prefers-color-scheme`), `print` or `screen` (the media type); each keeps the other. **geo** `latitude` `longitude`: the \
        position `navigator.geolocation` reports, and the permission to read it granted to the focused page's origin (a web \
        page must be open). **offline** `value` `on` or `off`: every request fails while on. **headers**: `\"Name: value\"` \
        strings added to every request (none: stop adding them); the answer names them, but the values of `Authorization`, \
        `Cookie` and `X-Api-Key` are shown as `(hidden)`, and a malformed line is not echoed. A header Chromium fails every \
        request for (`Host`, `Content-Length`, `Transfer-Encoding`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Cookie2`, \
        `Set-Cookie`, `Proxy-*`) is `COMMAND_REJECTED`, and the headers before stay. **user_agent**, **timezone** (an IANA name, `Europe/Paris`), **locale** (`fr-FR`, what `Intl` uses) `value`; \
        without a value, the browser's own. A time zone or locale the page's `Intl` does not know is `COMMAND_REJECTED` and the \
        one before stays. A session started again after its browser died (the daemon or `rove mcp` launching a new one) gets \
        these settings made again on its tabs, and its first answer says so (`the emulation set before (media, metrics) is made \
        again`); a position is granted again to the origins `set geo` granted it to.",
};

pub(crate) const PDF: Shell = Shell {
    spelling: Spelling {
        about: "Print the page to a PDF file (headless only)",
        words: &[Word::one("FILE", "The file to write.", "file", Kind::Path)],
        flags: &[
            Flag::value(
                "format",
                "FORMAT",
                "The paper: A4 (default), A3, A5, Letter, Legal or Tabloid.",
                "format",
                Kind::Choice {
                    aliases: &[],
                    any_case: true,
                },
            ),
            Flag::switch("landscape", "Landscape.", "landscape"),
            Flag::switch(
                "background",
                "Print background colours and images.",
                "background",
            ),
        ],
        examples: &[
            Example("rove pdf page.pdf", ""),
            Example(
                "rove pdf invoice.pdf --format Letter --landscape --background",
                "",
            ),
        ],
        note: "Headless only.",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "Prints the focused page to a PDF file (`Page.printToPDF`) on `format` paper (A4), upright unless `landscape`, \
        without background colours and images unless `background`. Written where the person at the shell says, or for a model \
        as a plain file name into the session's output folder (as `screenshot`'s `path`). Chromium prints only when headless: \
        a browser that shows windows (`--headed`, or one connected with `--cdp-url`) is refused with `COMMAND_REJECTED` before \
        the page is touched, its hint saying so. The answer names the file and its size.",
};

/// `get`'s element, after the attribute's name for `attr`.
const GET_WORDS: Fills = Fills::ByValue {
    argument: "what",
    cases: &[
        Case::new(
            &["attr"],
            &[
                Slot::one("name", Kind::Text),
                Slot::one("ref", Kind::Element),
            ],
        ),
        Case::new(&[], &[Slot::one("ref", Kind::Element)]),
    ],
};

pub(crate) const GET: Shell = Shell {
    spelling: Spelling {
        about: "One fact about an element: its text, value, an attribute or its box, or whether it is visible, enabled or checked",
        words: &[
            Word::one(
                "WHAT",
                "text, value, attr, box, visible, enabled or checked.",
                "what",
                CHOICE,
            ),
            Word::run(
                "WORDS",
                "The element's ref; for attr, the attribute's name first (attr href e5).",
                Count::Between(1, 2),
                GET_WORDS,
            ),
        ],
        flags: &[],
        examples: &[
            Example("rove get text e3", ""),
            Example("rove get value e4", ""),
            Example("rove get attr href e5", ""),
            Example("rove get box e6", ""),
            Example(
                "rove is visible e7",
                "(also: rove is enabled, rove is checked)",
            ),
        ],
        note: "",
    },
    aliases: &[Alias {
        name: "is",
        spelling: Spelling {
            about: "Whether an element is visible, enabled or checked (as `rove get`)",
            words: &[
                Word::one(
                    "WHAT",
                    "visible, enabled or checked.",
                    "what",
                    Kind::Among(&["visible", "enabled", "checked"]),
                ),
                Word::one(
                    "TARGET",
                    "The element: a ref or a locator (css=…, role=…[name=…], text=…).",
                    "ref",
                    Kind::Element,
                ),
            ],
            flags: &[],
            examples: &[
                Example("rove is visible e7", ""),
                Example("rove is checked e3", ""),
            ],
            note: "",
        },
        fixed: &[],
    }],
    printed: Printed::ValueFirst,
    section: Section::Group,
    reference: "One fact about the element `ref` names, as `data.result`, without a view: **text** its visible text (trimmed), \
        **value** a field's value (a contenteditable's text; `null` for other elements), **attr** the attribute `name` (`null` \
        when absent), **box** `{x, y, width, height}` in CSS pixels of its frame's viewport, **visible** (connected, a box of some \
        size, not hidden by `display`, `visibility` or `opacity`), **enabled** (not `:disabled`, not inside \
        `aria-disabled=\"true\"`), **checked** (a checkbox or radio's state, `\"mixed\"` when indeterminate, else `aria-checked`, \
        `aria-pressed` or `aria-selected`). Read in rove's isolated world, so the page's own overrides (a replaced \
        `getAttribute`) do not change the answer; text and values are cut at 20,000 characters. A ref whose element is gone is \
        `REF_NOT_FOUND`. At the shell: `rove get text e3`, `rove get attr href e5`, and `rove is visible e7` (or `enabled`, \
        `checked`), which print the value first (a string bare, control characters dropped).",
};

pub(crate) const MOUSE: Shell = Shell {
    spelling: Spelling {
        about: "Pointer input at coordinates of the viewport: move, press and hold, release, click, turn the wheel",
        words: &[
            Word::one(
                "ACTION",
                "move, down, up, click or wheel.",
                "action",
                CHOICE,
            ),
            Word::run(
                "WORDS",
                "move, click: X Y; down, up: [BUTTON] [X Y]; wheel: DX DY.",
                Count::Between(0, 3),
                Fills::ByValue {
                    argument: "action",
                    cases: &[
                        Case::new(
                            &["down", "up"],
                            &[
                                Slot::one("button", CHOICE).takes(Takes::IfItFits),
                                Slot::one("x", Kind::Number),
                                Slot::one("y", Kind::Number),
                            ],
                        )
                        .whole(),
                        Case::new(
                            &["wheel"],
                            &[Slot::one("dx", Kind::Number), Slot::one("dy", Kind::Number)],
                        )
                        .whole(),
                        Case::new(
                            &[],
                            &[Slot::one("x", Kind::Number), Slot::one("y", Kind::Number)],
                        )
                        .whole(),
                    ],
                },
            ),
        ],
        flags: &[
            Flag::value(
                "button",
                "BUTTON",
                "left, right or middle.",
                "button",
                Kind::Text,
            ),
            Flag::value(
                "count",
                "COUNT",
                "click: 2 for a double click.",
                "count",
                Kind::Integer,
            ),
            Flag::filling(
                "at",
                "X Y",
                "wheel: where to turn it (default: where the pointer is, or the middle of the viewport).",
                Fills::Arguments(&["x", "y"], Kind::Number),
            ),
        ],
        examples: &[
            Example("rove mouse click 120 45", ""),
            Example("rove mouse click 120 45 --count 2 --button right", ""),
            Example(
                "rove mouse move 100 200; rove mouse down; rove mouse move 300 200; rove mouse up",
                "(a drag)",
            ),
            Example("rove mouse down right", ""),
            Example("rove mouse wheel 0 400 --at 640 360", ""),
            Example(
                "rove click --at 120 45",
                "(the same as rove mouse click 120 45)",
            ),
        ],
        note: "X and Y are CSS pixels of the viewport, as in a screenshot of it at scale 1.",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "Pointer input at a point instead of a ref, for models that aim from screenshots. `x`, `y` are CSS pixels from the \
        top-left corner of the viewport: a viewport screenshot's pixels when the device scale factor is 1 (the default); after \
        `set viewport … --scale S` or `set device`, a viewport screenshot is S times larger, so divide its pixel coordinates by \
        S. **move** `x` `y`; **down** / **up** `button` where the pointer is (or at `x` `y`, moving there first); **click** `x` \
        `y`, `count` 2 for a double click (3 at most); **wheel** `dx` `dy` (pixels; `dy` > 0 scrolls down) where the pointer is, \
        at `x` `y`, or in the middle of the viewport, waiting for the scroll to rest and saying where the page's scroll went. \
        Events are trusted (`Input.dispatchMouseEvent`, through the same input layer as the ref commands), and the session \
        remembers per tab where the pointer is and which buttons are held, so `down`, `move`, `move`, `up` across calls is a \
        real drag (every move says the button is down; pointer capture works). A point outside the viewport, negative or not a \
        number is `COMMAND_REJECTED` with the viewport's size, and nothing is sent; so is `up` for a button that is not down, \
        `down` or `click` for one that is held, and `down`/`up` before the pointer was ever placed on the tab. The answer names \
        the element under the pointer as a view would, so a model aiming from a screenshot learns what it hit and gets its ref \
        (`clicked at (120, 45) on e7 button \"Save\"`; the innermost element the main frame hit-tests there, or its nearest \
        ancestor with a role views show; nothing is named over a blank margin, and a frame is named as a frame). After the \
        input: the usual settle, navigation, dialog and diff, as for `click`. At the shell: `rove mouse click 120 45`, `rove \
        mouse down right`, `rove mouse wheel 0 400 --at 640 360`, and `rove click --at 120 45` (the same as `mouse click`; \
        `--button` and `--double` apply).",
};

pub(crate) const FILL_FORM: Shell = Shell {
    spelling: Spelling {
        about: "Fill several fields in one call, in order, stopping at the first that fails",
        words: &[Word::one(
            "REF=VALUE",
            "REF=VALUE, in the order to fill them (refs only here: a locator holds `=` itself; MCP and the agent take locators in fill-form).",
            "fields",
            Kind::Pairs("ref", "value"),
        )
        .count(Count::Many)],
        flags: &[],
        examples: &[
            Example(
                "rove fill-form e3=ada@example.org e5=Peru e7=true e9=2024-05-01",
                "",
            ),
            Example("rove fill-form 'e4=Ada Lovelace' e8=false", ""),
        ],
        note: "A checkbox, radio or switch takes true or false; a select, an option's label.",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "Fills several fields in one call, in order, each through the command that fits the element (read from the element \
        itself): a checkbox, radio or switch is checked or unchecked (`value` JSON `true`/`false`, or the strings `true`/`false`, \
        `on`/`off`); a `<select>`, a listbox or a select-only combobox gets the option whose label or value is `value` \
        (`select`); anything else is filled (`fill`: text, a number, an ISO date or time, a colour; secrets work as in `fill`). \
        One answer at the end: a line per field, then the diff. It stops at the first field that fails: the error is that \
        field's own (its code, hint, `action_sent`), said as `fill-form stopped at field 2 (e5): …; filled: e3; not touched: \
        e7`, with `facts` `filled`, `failed`, `not_touched` (and the failure's own facts as `cause`); `action_sent` is `sent` when \
        fields before it were filled, and those keep their values. A boolean for a text field or a select, or a word other than \
        true/false for a checkbox, is refused at that field, nothing sent to it. In the `forms` group (with `upload`), out of \
        the default `tools/list` that every request of a model carries. At the shell: `rove fill-form \
        e3=ada@example.org e5=Peru e7=true e9=2024-05-01`.",
};
