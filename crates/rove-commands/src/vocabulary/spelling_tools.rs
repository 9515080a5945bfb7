//! The shell spellings and references of the opt-in tools (capability
//! groups other than `core`): console, network, cookies, storage, state,
//! set, pdf, get, mouse, fill-form.

use crate::vocabulary::shell::*;

pub(crate) const CONSOLE: Shell = Shell {
    spelling: Spelling {
        about: "What the page logged: console messages and uncaught errors with their stacks, since the last call (or all kept)",
        words: &[],
        flags: &[
            Flag::switch(
                "all",
                "Every message kept, not only those since the last call.",
                "all",
            ),
            Flag::value(
                "level",
                "LEVEL",
                "Only this level and worse: debug, info, warning, error.",
                "level",
                CHOICE,
            ),
        ],
        examples: &[
            Example("rove console", ""),
            Example("rove console --all --level error", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "The focused tab's console messages since the last `console` call (with `all`, every one kept), `level` keeping that \
        level and worse (`info` keeps `log` too; the lower levels stay unread for the next call). One line each: `[level] \"text\" at url:line:column`, then, for errors, uncaught \
        exceptions and `console.trace`, the stack (`at function (url:line:column)`, innermost first, 10 frames at most). Uncaught \
        errors and unhandled rejections are `[error exception]`; the browser's own messages (a failed resource, a security \
        warning) carry their source (`[error network]`). Collected from the moment the tab is first watched (messages logged \
        before are replayed), across navigations and from iframes; the newest 1,000 per tab are kept and older ones dropped \
        (counted in the answer). The page wrote every text: each is cleaned as page text is (one line, no invisible characters), \
        cut at 1,000 characters and quoted.",
};

pub(crate) const NETWORK: Shell = Shell {
    spelling: Spelling {
        about: "What the page requested (since the last call, or all kept), one request's headers and bodies, block and mock rules, a HAR file",
        words: &[
            Word::one(
                "ACTION",
                "list, show, block, mock, clear or har.",
                "action",
                Kind::Words(&[("ls", Literal::Text("list"))]),
            )
            .count(Count::Default("list")),
            Word::run(
                "TARGET",
                "show: the request (r3 or 3); block, mock: the URL glob; har: the file to write.",
                Count::Optional,
                Fills::ByValue {
                    argument: "action",
                    cases: &[
                        Case::new(&["show"], &[Slot::one("id", Kind::Numbered('r'))]),
                        Case::new(&["block", "mock"], &[Slot::one("url", Kind::Text)]),
                        Case::new(&["har"], &[Slot::one("file", Kind::Path)]),
                        Case::new(&[], &[]),
                    ],
                },
            ),
        ],
        flags: &[
            Flag::value(
                "url",
                "URL",
                "list: only URLs containing this; block, mock: the URL glob (as the positional argument).",
                "url",
                Kind::Text,
            ),
            Flag::value(
                "type",
                "TYPE",
                "list: only this resource type (document, script, fetch, xhr, image …).",
                "type",
                Kind::Text,
            ),
            Flag::value(
                "status",
                "STATUS",
                "list: only this status (0: failed); mock: the status to answer.",
                "status",
                Kind::Integer,
            ),
            Flag::value(
                "body",
                "BODY",
                "mock: the body to answer with.",
                "body",
                Kind::Text,
            ),
            Flag::value(
                "file",
                "FILE",
                "mock: the body from this file (under the upload roots); har: where to write (as the positional argument).",
                "file",
                Kind::Path,
            ),
            Flag::value(
                "content-type",
                "TYPE",
                "mock: the Content-Type (default: guessed from the file or body).",
                "content_type",
                Kind::Text,
            ),
            Flag::switch(
                "all",
                "list: every request kept, not only those since the last call.",
                "all",
            ),
            Flag::value(
                "max-bytes",
                "BYTES",
                "show: the most bytes of each body.",
                "max_bytes",
                Kind::Integer,
            ),
            Flag::switch(
                "bodies",
                "har: include the request bodies, credential fields redacted.",
                "bodies",
            ),
        ],
        examples: &[
            Example("rove network", ""),
            Example("rove network --all --type fetch --status 404", ""),
            Example("rove network show r3", ""),
            Example("rove network block '*/ads/*'", ""),
            Example("rove network mock /api/price --body '{\"price\": 1}'", ""),
            Example(
                "rove network mock '*/api/user' --file user.json --status 200",
                "",
            ),
            Example("rove network clear", "drop the rules, forget the requests"),
            Example("rove network har run.har", ""),
            Example("rove network har run.har --bodies", "with request bodies"),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "**list** (the default): the focused tab's requests since the last list (with `all`, every one kept), one line each: \
        `r3 POST 201 fetch 88 B 5 ms URL` (`pending`, or `failed (net::ERR_…)`); `url` keeps URLs containing it, `type` a resource \
        type (`document`, `script`, `fetch`, `xhr`, `image` …), `status` a status (`0`: failed). The newest 500 per tab are kept, \
        across navigations and from iframes (older ones dropped, counted). **show** `id` (3 for `r3`): status, type, MIME type, \
        size and time, the request and response headers, and the request and response bodies, each cut at `max_bytes` (4,000) \
        and saying so; a binary body is given by its size. The browser keeps bodies within 16 MiB per tab (2 MiB each): an older \
        or bigger one is \"not available\". **block** `url`: the session's tabs fail matching requests \
        (`net::ERR_BLOCKED_BY_CLIENT`), before they leave the browser. **mock** `url`, `status` (200), `body` or `file`, \
        `content_type` (by the file's extension or the body's first character): matching requests are answered by rove (with \
        `Access-Control-Allow-Origin: *`) and never reach the server; `file` must lie under the upload roots (`UPLOAD_DENIED` \
        otherwise), 5 MiB at most. `url` is a [URL pattern](#url-patterns), as `wait`'s: with a \
        `*`, a glob of the whole URL; without, a part of it. The newest rule for a URL wins; rules apply to every tab of the session, those opened \
        later included; the domain policy is judged first. **clear**: drops every rule and forgets the requests seen. **har** \
        `file`: the requests kept as a HAR 1.2 file, without bodies unless `bodies` is given (then the request bodies, with the \
        values of credential fields such as `password`, `token`, `secret`, `api_key` in forms, JSON and multipart bodies \
        redacted, and the session's secrets), written where the person at the shell says, or for a model as \
        a plain file name into the session's output folder (as `screenshot`'s `path`). URLs shown or exported are redacted (a \
        password in the URL, values of query parameters such as `token`, `key`, `code`, `signature`, the session's secrets) and \
        cleaned as page text; `Cookie`, `Set-Cookie`, `Authorization`, `Proxy-Authorization` and `X-Api-Key` values are never \
        shown or exported; every body line is cleaned and marked `  | `.",
};

/// `get`, `set`, `clear`, with `list` for `get`.
const STORE_ACTION: Kind = Kind::Words(&[("list", Literal::Text("get"))]);

pub(crate) const COOKIES: Shell = Shell {
    spelling: Spelling {
        about: "The session's cookies: list them (by URL or domain), set one, clear them",
        words: &[
            Word::one("ACTION", "get, set or clear.", "action", STORE_ACTION)
                .count(Count::Default("get")),
        ],
        flags: &[
            Flag::value(
                "url",
                "URL",
                "get, clear: cookies sent to this URL; set: the cookie's URL (default: the page's).",
                "url",
                Kind::Text,
            ),
            Flag::value(
                "domain",
                "DOMAIN",
                "get, clear: cookies of this domain and its subdomains; set: the cookie's domain.",
                "domain",
                Kind::Text,
            ),
            Flag::value(
                "name",
                "NAME",
                "set: the name; get, clear: only cookies of this name.",
                "name",
                Kind::Text,
            ),
            Flag::value("value", "VALUE", "set: the value.", "value", Kind::Text),
            Flag::value("path", "PATH", "set: the path (/).", "path", Kind::Text),
            Flag::value(
                "expires",
                "SECONDS",
                "set: when it expires, in seconds since the epoch (default: with the session).",
                "expires",
                Kind::Number,
            ),
            Flag::switch("http-only", "set: hidden from scripts.", "http_only"),
            Flag::switch("secure", "set: sent over HTTPS only.", "secure"),
        ],
        examples: &[
            Example("rove cookies", ""),
            Example("rove cookies --domain example.com", ""),
            Example(
                "rove cookies set --name sid --value abc --url https://example.com",
                "",
            ),
            Example("rove cookies clear --name sid", ""),
            Example("rove cookies clear", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "The session's cookies (its browser context's, every tab's). **get** (the default): all, or those the browser would \
        send to `url`, of `domain` and its subdomains, of `name`; one line each, `name=\"value\" domain=… path=/ httpOnly secure \
        expires=…|session sameSite=…`, the value cleaned and quoted. **set** needs `name` and `value`, and takes `url` or `domain` \
        (default: the focused page's URL), `path` (`/`), `expires` (seconds since the epoch; default: a session cookie), \
        `http_only`, `secure`. **clear**: those matching the filters, or every cookie of the session.",
};

pub(crate) const STORAGE: Shell = Shell {
    spelling: Spelling {
        about: "The page's localStorage or sessionStorage: list it, set a key, clear it (or one key)",
        words: &[
            Word::one("KIND", "local or session.", "kind", CHOICE),
            Word::one("ACTION", "get, set or clear.", "action", STORE_ACTION)
                .count(Count::Default("get")),
            Word::one(
                "KEY",
                "get, clear: only this key; set: the key.",
                "key",
                Kind::Text,
            )
            .count(Count::Optional),
            Word::one("VALUE", "set: the value.", "value", Kind::Text).count(Count::Optional),
        ],
        flags: &[],
        examples: &[
            Example("rove storage local", ""),
            Example("rove storage local set theme dark", ""),
            Example("rove storage session clear", ""),
            Example("rove storage local clear theme", ""),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "The focused page's `localStorage` or `sessionStorage` (its origin's). **get**: every entry, or `key`'s, one line \
        each (`\"key\" = \"value\"`, cleaned and quoted). **set** `key` `value`. **clear**: every entry, or `key`.",
};

pub(crate) const STATE: Shell = Shell {
    spelling: Spelling {
        about: "Save the session's cookies and local storage to a file, or load them (Playwright's storage-state JSON), to reuse a login",
        words: &[
            Word::one("ACTION", "save or load.", "action", CHOICE),
            Word::one(
                "FILE",
                "The file (Playwright's storage-state JSON).",
                "file",
                Kind::Path,
            ),
        ],
        flags: &[],
        examples: &[
            Example("rove state save login.json", ""),
            Example("rove state load login.json", ""),
            Example(
                "rove --storage-state login.json open https://example.com/account",
                "(a new session starts logged in)",
            ),
        ],
        note: "",
    },
    aliases: &[],
    printed: Printed::Outcome,
    section: Section::Group,
    reference: "**save**: the session's cookies and the `localStorage` of the origins its open tabs show, in Playwright's \
        storage-state JSON (`{\"cookies\": [{name, value, domain, path, expires (-1: session), httpOnly, secure, sameSite}], \
        \"origins\": [{origin, localStorage: [{name, value}]}]}`), written readable by its owner only (`0600`): where the person \
        at the shell says, or for a model as a plain file name into the session's output folder. **load**: restores such a \
        file (from Playwright too): the cookies into the session's cookie store, each origin's local storage in a background tab \
        of the session's own whose documents rove answers with an empty page (no server sees the visit; closed before the \
        answer); origins the domain policy refuses are left out and named, and so are cookies the browser refuses (the \
        rest load). A model loads only from the upload roots or, by a \
        plain name, from the session's output folder (`UPLOAD_DENIED` otherwise). `--storage-state FILE` \
        (`ROVE_STORAGE_STATE`; `SessionConfig::storage_state`) loads one when a session starts (a CLI session's daemon, each \
        `rove mcp` client's session, `rove run`), so a login done once is reused; a running session keeps what it has.",
};
