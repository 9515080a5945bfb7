//! The shell spellings and references of the commands that load and read
//! pages: open, back, forward, reload, snapshot, find, read, screenshot,
//! wait, eval.

use crate::vocabulary::shell::*;

/// The help of a word that names an element.
pub(crate) const ELEMENT: &str =
    "The element: a ref (e7, @e7) or a locator (css=…, role=…[name=…], text=…).";

pub(crate) const OPEN: Shell = Shell {
    spelling: Spelling {
        about: "Open a page in the session (starting its daemon and browser when needed) and print its view",
        words: &[Word::one(
            "URL",
            "The URL to open (a scheme-less address gets https://; a path to a file, ./page.html, its file:// URL).",
            "url",
            Kind::Url,
        )],
        flags: &[
            Flag::switch("new-tab", "Open it in a new tab.", "new_tab"),
            Flag::filling(
                "stay",
                "",
                "No daemon: open in a browser of this process and keep it until interrupted (Ctrl-C or SIGTERM).",
                Fills::Shell(ShellOnly::Stay),
            ),
            Flag::filling(
                "timeout",
                "SECONDS",
                "Seconds to wait for the page to load (with --stay).",
                Fills::Shell(ShellOnly::StayTimeout),
            )
            .default("30"),
        ],
        examples: &[
            Example("rove open https://example.org", ""),
            Example("rove open localhost:8000 --new-tab", ""),
            Example("rove open https://example.org --json", ""),
            Example(
                "rove open URL --stay",
                "no daemon: this process keeps the browser until Ctrl-C",
            ),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Navigation,
    reference: "`example.com` means `https://example.com`, `localhost:3000` means `http://…`, a path (`/tmp/page.html`; from the CLI also \
        `./page.html`) means its `file://` URL, which the domain policy refuses unless it allows `file:`. `javascript:` URLs are \
        `COMMAND_REJECTED` (use `eval`). A URL the policy refuses is `NAVIGATION_BLOCKED`, before anything is sent. Fails with \
        `NAVIGATION_FAILED` (`facts.kind` `network`, with Chromium's `net::ERR_…`), `NAVIGATION_FAILED` (`kind` `http_status`, \
        `status`; the error page's view attached), or `TIMEOUT` (`kind` `not_loaded`: the page is open but did not finish loading \
        in 30 s). While a JavaScript dialog blocks the focused tab, `open` leaves that page: the tab is closed, dialogs and all, \
        and the URL opens in a new one (`left t1 at …`).",
};

pub(crate) const BACK: Shell = Shell {
    spelling: Spelling {
        about: "Go back in the tab's history",
        words: &[],
        flags: &[],
        examples: &[Example("rove back", ""), Example("rove back --json", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Navigation,
    reference: "`COMMAND_REJECTED` when the history has no such page.",
};

pub(crate) const FORWARD: Shell = Shell {
    spelling: Spelling {
        about: "Go forward in the tab's history",
        words: &[],
        flags: &[],
        examples: &[Example("rove forward", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Navigation,
    reference: "`COMMAND_REJECTED` when the history has no such page.",
};

pub(crate) const RELOAD: Shell = Shell {
    spelling: Spelling {
        about: "Reload the page",
        words: &[],
        flags: &[],
        examples: &[Example("rove reload", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Navigation,
    reference: "",
};

pub(crate) const SNAPSHOT: Shell = Shell {
    spelling: Spelling {
        about: "The page as the agent reads it: roles, names, values and refs",
        words: &[],
        flags: &[
            Flag::filling(
                "interactive",
                "",
                "Only what can be acted on, under its headings.",
                Fills::Sets("mode", Literal::Text("interactive")),
            )
            .short('i')
            .conflicts(&["diff", "scope"]),
            Flag::filling(
                "diff",
                "",
                "What changed since the last view.",
                Fills::Sets("mode", Literal::Text("diff")),
            )
            .short('d')
            .conflicts(&["scope"]),
            Flag::value(
                "scope",
                "REF",
                "Only the subtree under this ref.",
                "scope",
                Kind::Element,
            ),
            Flag::value(
                "budget",
                "TOKENS",
                "Token budget (0: no limit).",
                "budget",
                Kind::Integer,
            ),
            Flag::value(
                "after",
                "REF",
                "The next part of a cut view, after this ref.",
                "after",
                Kind::Text,
            ),
            Flag::switch("urls", "Show link targets.", "urls"),
        ],
        examples: &[
            Example("rove snapshot", ""),
            Example("rove snapshot -i", ""),
            Example("rove snapshot --diff", ""),
            Example("rove snapshot --scope e12", ""),
            Example("rove snapshot --after e240", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Reading,
    reference: "The view format is in `docs/view-format.md`. `mode` `full` (the default) is the whole page within `budget` tokens \
        (0: no limit); `scope` a ref's subtree; `after` a ref: the next part of a cut view.",
};

pub(crate) const FIND: Shell = Shell {
    spelling: Spelling {
        about: "Refs of the elements whose name, value or text contains TEXT",
        words: &[Word::one(
            "TEXT",
            "Text in the name, value or content.",
            "text",
            Kind::Text,
        )],
        flags: &[
            Flag::value(
                "role",
                "ROLE",
                "Only this role (button, link, textbox …).",
                "role",
                Kind::Text,
            ),
            Flag::value(
                "limit",
                "LIMIT",
                "At most this many results (20).",
                "limit",
                Kind::Integer,
            ),
        ],
        examples: &[
            Example("rove find 'Sign in'", ""),
            Example("rove find Next --role link", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Reading,
    reference: "Every frame, also what the budget cut; at most `limit` results (20).",
};

pub(crate) const READ: Shell = Shell {
    spelling: Spelling {
        about: "The page (or an element) as markdown",
        // The element as a word, like every other command's (`rove read
        // e2`), or as the flag it always had.
        words: &[Word::run(
            "REF",
            "Only this element.",
            Count::Optional,
            Fills::InOrder(&[Slot::one("ref", Kind::Element)]),
        )],
        flags: &[
            Flag::value("ref", "REF", "Only this element.", "ref", Kind::Element),
            Flag::value(
                "budget",
                "BUDGET",
                "At most this many tokens (8,000; 0: no limit).",
                "budget",
                Kind::Integer,
            ),
        ],
        examples: &[Example("rove read", ""), Example("rove read e20", "")],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Reading,
    reference: "The page (or one element) as markdown: headings, paragraphs, lists, links, tables, code, quotes; hidden text left \
        out. `budget`: 8,000 tokens unless given (0 for none).",
};

pub(crate) const SCREENSHOT: Shell = Shell {
    spelling: Spelling {
        about: "Save a screenshot (PNG, or JPEG with --jpeg)",
        words: &[Word::one(
            "PATH",
            "Where to save it (default: a new file in the temp folder).",
            "path",
            Kind::Path,
        )
        .count(Count::OrElse(ShellOnly::FreshScreenshot))],
        flags: &[
            Flag::switch(
                "full",
                "The whole page, not just the viewport.",
                "full_page",
            ),
            Flag::value("ref", "REF", "Only this element.", "ref", Kind::Element),
            Flag::value(
                "clip",
                "X,Y,WIDTH,HEIGHT",
                "Only this rectangle of the page, in CSS pixels.",
                "clip",
                Kind::Numbers {
                    keys: &["x", "y", "width", "height"],
                    example: "0,0,800,600",
                },
            ),
            Flag::filling(
                "jpeg",
                "",
                "JPEG instead of PNG.",
                Fills::Sets("format", Literal::Text("jpeg")),
            ),
            Flag::value(
                "quality",
                "QUALITY",
                "JPEG quality, 0-100.",
                "quality",
                Kind::Integer,
            ),
            Flag::value(
                "max-bytes",
                "MAX_BYTES",
                "The most bytes the image may take (2 MiB).",
                "max_bytes",
                Kind::Integer,
            ),
        ],
        examples: &[
            Example("rove screenshot", ""),
            Example("rove screenshot page.png --full", ""),
            Example("rove screenshot --ref e5 card.png", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Reading,
    reference: "`max_bytes` is 2 MiB unless given. Over budget, a PNG is retaken as JPEG at quality 80, 60, 40, and the outcome \
        says so; still over: `SCREENSHOT_BUDGET_EXCEEDED`. An area over 16,384 px a side or 64 Mi pixels (a page a million pixels \
        tall, a large viewport at a high scale) is cut to its top-left part, and the outcome says so and names `clip` and `ref` for the rest. With `path` the file \
        is written and not returned: where the person at the shell says (without one, a new file in rove's folder); for a model \
        (MCP, `rove run`) `path` is a plain file name, written into the session's output folder (`<runtime folder>/output/…`), \
        and anything else is `COMMAND_REJECTED`. Where the page shows a secret of the session's (as text or as a field's \
        value, in the page, its open shadow roots and its same-origin frames), its box is painted black before the image \
        leaves rove, and the outcome says how many regions were masked (the images of traces are masked the same way).",
};

pub(crate) const WAIT: Shell = Shell {
    spelling: Spelling {
        about: "Wait for text, a URL, a load state, or a time",
        words: &[Word::one(
            "MS",
            "Milliseconds: alone, how long to wait; with a condition, the most.",
            "ms",
            Kind::Integer,
        )
        .count(Count::Optional)],
        flags: &[
            Flag::value(
                "text",
                "TEXT",
                "Until this text appears.",
                "text",
                Kind::Text,
            ),
            Flag::value(
                "gone",
                "GONE",
                "Until this text is gone.",
                "text_gone",
                Kind::Text,
            ),
            Flag::value(
                "url",
                "URL",
                "Until the URL contains this (or matches it as a * glob).",
                "url",
                Kind::Text,
            ),
            Flag::value(
                "load",
                "LOAD",
                "Until the page reaches domcontentloaded, load or networkidle.",
                "load",
                Kind::Text,
            ),
        ],
        examples: &[
            Example("rove wait --text 'Saved'", ""),
            Example("rove wait --gone 'Loading'", ""),
            Example("rove wait --url '*/done'", ""),
            Example("rove wait --load networkidle", ""),
            Example("rove wait 500", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Reading,
    reference: "One of `text`, `text_gone`, `url` (a [URL pattern](#url-patterns): a part of the URL, or a `*` glob of the whole URL), `load`; with a condition, `ms` is the most to wait \
        (10 s), checked until the very end; alone, how long to wait (at most 300 s). `TIMEOUT` names what did not happen.",
};

pub(crate) const EVAL: Shell = Shell {
    spelling: Spelling {
        about: "Run JavaScript in the page and print the result as JSON",
        words: &[Word::one(
            "JS",
            "An expression, or a function, which is called.",
            "js",
            Kind::Text,
        )],
        flags: &[Flag::value(
            "ref",
            "REF",
            "Call the function with this element.",
            "ref",
            Kind::Element,
        )],
        examples: &[
            Example("rove eval 'document.title'", ""),
            Example("rove eval '() => location.href'", ""),
            Example("rove eval '(el) => el.value' --ref e3", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::ValueFirst,
    section: Section::Reading,
    reference: "An expression, or a function (`() => …`, `async (el) => …`), which is called, with the element when a ref is \
        given. Promises are awaited; the value comes back as JSON (cut at 20,000 characters, saying so). A throw is \
        `EVALUATION_FAILED`, and so is a result the browser cannot return (an object that refers to itself, `window`), \
        saying the script ran (`action_sent: sent`); a script that opens a dialog ends with `DIALOG_OPEN` (`action_sent: sent`). A script gets 10 s \
        (`SessionConfig::eval_timeout`; less when one CDP call's deadline, `ROVE_CDP_TIMEOUT_S`, is shorter): then rove stops it (`Runtime.terminateExecution`) and answers `TIMEOUT` saying so; a \
        promise that never settles is abandoned, the page untouched. At the shell, the value is printed first (a string bare, \
        with control characters other than line breaks and tabs dropped; anything else as indented JSON), then what changed; \
        `--json` is unchanged.",
};
