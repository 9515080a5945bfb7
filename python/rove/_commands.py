# Written from rove's command vocabulary (crates/rove/src/python_api.rs):
# do not edit. `ROVE_WRITE_PYTHON=1 cargo test -p rove --bin rove python_api`
# writes it again.
"""One method per rove command, for `rove.Session` and `rove.AsyncSession`."""

from __future__ import annotations

from typing import Any, Literal, Mapping, Sequence

from ._result import Result


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments the caller gave (None is not given)."""
    return {k: v for k, v in arguments.items() if v is not None}


class Commands:
    """rove's commands as blocking methods; each returns a `Result` or raises `RoveError`."""

    def _call(self, tool: str, arguments: dict[str, Any]) -> Result:
        raise NotImplementedError

    def open(self, url: str, *, new_tab: bool | None = None) -> Result:
        """Go to a URL.

        `example.com` means `https://example.com`, `localhost:3000` means `http://…`, a path (`/tmp/page.html`; from the CLI also `./page.html`) means its `file://` URL, which the domain policy refuses unless it allows `file:`. `javascript:` URLs are `COMMAND_REJECTED` (use `eval`). A URL the policy refuses is `NAVIGATION_BLOCKED`, before anything is sent. Fails with `NAVIGATION_FAILED` (`facts.kind` `network`, with Chromium's `net::ERR_…`), `NAVIGATION_FAILED` (`kind` `http_status`, `status`; the error page's view attached), or `TIMEOUT` (`kind` `not_loaded`: the page is open but did not finish loading in 30 s). While a JavaScript dialog blocks the focused tab, `open` leaves that page: the tab is closed, dialogs and all, and the URL opens in a new one (`left t1 at …`).

        Args:
            url: see above.
            new_tab: see above.
        """
        return self._call("open", _given({"url": url, "new_tab": new_tab}))

    def back(self) -> Result:
        """Go back in history.

        `COMMAND_REJECTED` when the history has no such page.
        """
        return self._call("back", _given({}))

    def forward(self) -> Result:
        """Go forward in history.

        `COMMAND_REJECTED` when the history has no such page.
        """
        return self._call("forward", _given({}))

    def reload(self) -> Result:
        """Reload the page.
        """
        return self._call("reload", _given({}))

    def snapshot(self, *, after: str | None = None, budget: int | None = None, mode: Literal["full", "interactive", "diff"] | None = None, scope: str | None = None, urls: bool | None = None) -> Result:
        """The page as text with refs (ref args also take css=…, role=button[name=Save], text=…). mode diff: what changed; interactive: controls only.

        The view format is in `docs/view-format.md`. `mode` `full` (the default) is the whole page within `budget` tokens (0: no limit); `scope` a ref's subtree; `after` a ref: the next part of a cut view.

        Args:
            after: Continue a cut view after this ref.
            budget: Max tokens; 0: no limit.
            mode: see above.
            scope: Only the subtree under this ref.
            urls: see above.
        """
        return self._call("snapshot", _given({"after": after, "budget": budget, "mode": mode, "scope": scope, "urls": urls}))

    def find(self, text: str, *, limit: int | None = None, role: str | None = None) -> Result:
        """Refs of elements containing text, with context, also outside the view.

        Every frame, also what the budget cut; at most `limit` results (20).

        Args:
            text: see above.
            limit: see above.
            role: Only this role (button, link…).
        """
        return self._call("find", _given({"text": text, "limit": limit, "role": role}))

    def click(self, ref: str, *, button: Literal["left", "right", "middle"] | None = None, double: bool | None = None, modifiers: Sequence[str] | None = None) -> Result:
        """Click an element.

        A tab a plain click opens takes the focus and its view is returned; a middle or modified click opens it in the background and says so. At the shell, `rove dblclick REF` is a click with `double`, and `rove click --at X Y` a click at a point (`mouse click`).

        Args:
            ref: see above.
            button: see above.
            double: see above.
            modifiers: Keys held: Alt, Control, Meta, Shift.
        """
        return self._call("click", _given({"ref": ref, "button": button, "double": double, "modifiers": modifiers}))

    def hover(self, ref: str) -> Result:
        """Hover an element (menus, tooltips).

        Args:
            ref: see above.
        """
        return self._call("hover", _given({"ref": ref}))

    def type(self, text: str, *, delay_ms: int | None = None, ref: str | None = None, submit: bool | None = None) -> Result:
        """Type key by key at the end of a field (no ref: the focused one).

        Without a ref, the keys go to whatever has the focus (a field a widget focused itself; at the shell `rove type --focused TEXT`). Appends, one real key press per character (trusted keydown, keypress, input, keyup; up to 8 key events on their way at once, one at a time with `delay_ms`). The field must end with the text, or `NOT_ACTIONABLE` (`action_sent: sent`) says what it holds. Typing stops at three quarters of the command's deadline (90 s by default) with `TIMEOUT` saying how many characters reached the field; `fill` sets a long text at once. `submit` presses Enter after.

        Args:
            text: see above.
            delay_ms: see above.
            ref: see above.
            submit: see above.
        """
        return self._call("type", _given({"text": text, "delay_ms": delay_ms, "ref": ref, "submit": submit}))

    def fill(self, ref: str, text: str, *, submit: bool | None = None) -> Result:
        """Replace a field's value.

        Replaces the value (select all, insert), then fires the `change` a committed edit fires, keeping the focus in the field (leaving it would close a command palette or a combobox's popup). A field the page takes away as the text arrives is reported (`then the page took the field away`), not as a failure. `submit` presses Enter after, in the field. A number field that takes text (`type=number`, a text spinbutton, `inputmode` numeric or decimal) is left with Tab afterwards, unless `submit` is given: component libraries take such a number only when the field loses the focus, and the answer says it (`left e3 with Tab, ...`) and shows the number as the app formats it. In an editable combobox whose list shows options, typing only filters the list, so the option the text names (exactly, then ignoring case) is clicked and the answer says so (`chose the option "Dark" from its list`); a text that begins options leaves the list open and names them; a text no option contains is committed with Tab, and a box that goes back to another value (it takes only its options) is `NOT_ACTIONABLE` (`action_sent: sent`) listing them. A read-only combobox (Quasar's QSelect) takes no text: it is opened with a click and the option named is chosen, as `select` does. A code or rich-text editor (CodeMirror 5 or 6, Monaco, a contenteditable such as ProseMirror; the ref may name its hidden textarea, its content or its wrapper) is replaced whole through real input: focused, Control+A, the text inserted; then the text it shows is read back, line by line, and must equal the text, or `NOT_ACTIONABLE` (`action_sent: sent`) says what the editor holds (an editor that reformats or auto-closes what it is given). An editor taller than its view draws only some lines: when those are a run of the text, the answer says which lines were checked. A slider or spinbutton (a range input, or `role=slider` / `role=spinbutton` that is not a text field; a composite one takes the keys through its focusable part) takes a number through real keys, as from a keyboard: Home or End for its extremes, Page keys while far, arrows for single steps (held: repeated keydowns, one keyup), then the value is read back; an app that takes a value only when a change ends gets it. The press that may land on the value is sent only once the page has answered the presses before it: an app that takes a value at every press and works on each on its server (Streamlit reruns its script for each, the runs side by side) ends holding the value reported, not an older one whose run finished last. A range value off its steps or limits is `COMMAND_REJECTED` naming the nearest values, before any key; a control whose steps skip the value (an ARIA one, a range without steps) is `NOT_ACTIONABLE` (`action_sent: sent`) naming the values around it and what it holds, put back on the nearer one it came from; an ARIA slider its keys do not move is dragged instead: its thumb pressed, moved along its track to the value's place and released (corrected up to three times by where it landed), then read back; one neither brings there (it ignores them, moves away or wraps around) is `NOT_ACTIONABLE` saying what it holds. An input a native picker sets (`date`, `time`, `datetime-local`, `month`, `week`, `color`) takes its value whole, in the form the input holds (`2026-03-14`, `09:30`, `2026-03-14T09:30`, `2026-03`, `2026-W11`, `#3366cc`): set through the value setter with the `input` and `change` events a picker fires, then read back. A value the browser would read otherwise (`2026-13-45`, `03/14/2026`), or a date outside the input's `min` and `max` (its picker never offers one), is `COMMAND_REJECTED` naming the form, and the field is not touched; `type` refuses these inputs and sliders, and points at `fill`.

        Args:
            ref: see above.
            text: see above.
            submit: see above.
        """
        return self._call("fill", _given({"ref": ref, "text": text, "submit": submit}))

    def press(self, keys: str, *, ref: str | None = None) -> Result:
        """Press keys: Enter, Escape, Control+A…

        A chord: `Enter`, `Control+A`, `Shift+Tab`, `Control+Shift+R`. With a ref, the element is clicked first; a slider (a range input, `role=slider`) gets the focus without a click, since a click would move it.

        Args:
            keys: see above.
            ref: Focus this element first.
        """
        return self._call("press", _given({"keys": keys, "ref": ref}))

    def select(self, ref: str, values: Sequence[str]) -> Result:
        """Choose options of a select, listbox or combobox.

        Native selects by label or value (several for `multiple`); ARIA listboxes (options clicked), comboboxes and buttons with a popup (opened, then the option clicked), editable comboboxes (the value typed, then the suggestion clicked). The page settles after the choice, so a jump menu that navigates reports the new page.

        Args:
            ref: see above.
            values: Labels or values (several: a multiple select).
        """
        return self._call("select", _given({"ref": ref, "values": values}))

    def check(self, ref: str) -> Result:
        """Check a checkbox, switch or radio.

        Checkboxes, switches, radios, `aria-checked` elements, toggle buttons (`aria-pressed`: checked is pressed); the state is read back. Already in the state asked for: nothing is sent, and the outcome says so.

        Args:
            ref: see above.
        """
        return self._call("check", _given({"ref": ref}))

    def uncheck(self, ref: str) -> Result:
        """Uncheck a checkbox or switch.

        Checkboxes, switches, radios, `aria-checked` elements, toggle buttons (`aria-pressed`: checked is pressed); the state is read back. Already in the state asked for: nothing is sent, and the outcome says so.

        Args:
            ref: see above.
        """
        return self._call("uncheck", _given({"ref": ref}))

    def scroll(self, *, direction: Literal["down", "up", "left", "right"] | None = None, pixels: float | None = None, ref: str | None = None) -> Result:
        """Scroll the page or an element; with only a ref, bring it into view.

        With a direction, the mouse wheel over the element (or the middle of the page), 80% of the scroller's visible size by default (the page's, or the box's that scrolls); the outcome says how far it went and where it stands. With only a ref, the element is brought into view. At the shell the words come in any order: `rove scroll e12 down 300`.

        Args:
            direction: see above.
            pixels: CSS pixels (default 80% of the view).
            ref: see above.
        """
        return self._call("scroll", _given({"direction": direction, "pixels": pixels, "ref": ref}))

    def drag(self, from_: str, to: str) -> Result:
        """Drag one element onto another.

        Real pointer events (pointer capture works); HTML5 drag and drop is completed at the target (`dragenter`, `dragover`, `drop`).

        Args:
            from_: see above.
            to: see above.
        """
        return self._call("drag", _given({"from": from_, "to": to}))

    def upload(self, ref: str, paths: Sequence[str]) -> Result:
        """Give files to a file input or to the chooser an element opens.

        A file input, or an element whose click opens a file chooser. Files must lie under the allowed roots, after resolving links: the session's upload folder (`<runtime folder>/uploads`), `--upload-root` folders, and for a command typed in a shell the folder it runs in (never `/` or the home folder); otherwise `UPLOAD_DENIED`, and nothing is sent.

        Args:
            ref: see above.
            paths: Files in the upload folder.
        """
        return self._call("upload", _given({"ref": ref, "paths": paths}))

    def solve(self, *, ref: str | None = None) -> Result:
        """Have the installed solver plugin solve the captcha a `captcha eN` line shows.

        Asks the first solver plugin of the plugins folder (`$XDG_CONFIG_HOME/rove/plugins/`, `--plugins DIR` or `ROVE_PLUGINS`) to solve the challenge, over the JSON protocol of docs/captcha.md: it gets the kind, the site key, the page's URL, the user agent and, for an image challenge, a picture of it, and nothing else (no cookies, no secrets). rove puts a token where the widget expects it (its response field and the callback the page named), clicks the tiles it names with trusted input, types an image captcha's text into its field (`answered`: the page checks it when the form is sent), or sets a bot wall's clearance cookies for the page's own site and loads the page again; then it reads the widget again: the answer says solved only when the page does. No plugin: `NO_SOLVER`; a plugin's own error comes back with its code, hint and retry class; one that hangs past 60 s or prints garbage is killed: `SOLVER_FAILED`. Site terms are yours to keep.

        Args:
            ref: see above.
        """
        return self._call("solve", _given({"ref": ref}))

    def dialog(self, accept: bool, *, text: str | None = None) -> Result:
        """Answer the alert, confirm or prompt that blocks the page.

        Answers the alert, confirm, prompt or beforeunload dialog that blocks the page (`text` only for a prompt). A dialog that opens right after (a chain) is reported, to be answered in turn; from the third in a row the answer says how to leave the page (`open` another URL). Otherwise the answer waits, as after input, for what the page does once its script goes on: the page an accepted `beforeunload` lets the tab reach, loaded and built, or the changes and requests a confirm's answer starts.

        Args:
            accept: see above.
            text: see above.
        """
        return self._call("dialog", _given({"accept": accept, "text": text}))

    def tab(self, *, action: Literal["list", "new", "switch", "close"] | None = None, tab: str | None = None, url: str | None = None) -> Result:
        """List, open, switch to or close tabs.

        `list` marks the focused tab with `*` and names each popup's opener. A closed tab's id never comes back (`NO_TAB`).

        Args:
            action: see above.
            tab: The tab, e.g. t2.
            url: For new: where to go.
        """
        return self._call("tab", _given({"action": action, "tab": tab, "url": url}))

    def desktop(self, *, action: Literal["apps", "open", "attach", "leave"] | None = None, target: str | None = None) -> Result:
        """Desktop apps: list, open or attach one as the target for later commands, or leave.

        Linux, through the accessibility bus (AT-SPI2; docs/desktop.md). After `open` or `attach` the application is the target: `snapshot`, `find`, `click`, `fill`, `check`, `select`, `press`, `type`, `wait` and `read` work on its windows with the same refs and diffs; page-only commands (`open URL`, `eval`, `network`, `cookies` …) answer `COMMAND_REJECTED` until `leave`. No accessibility bus or display is `DESKTOP_UNAVAILABLE`.

        Args:
            action: see above.
            target: open: command line; attach: app name or pid.
        """
        return self._call("desktop", _given({"action": action, "target": target}))

    def screenshot(self, *, clip: Mapping[str, Any] | None = None, format: Literal["png", "jpeg"] | None = None, full_page: bool | None = None, max_bytes: int | None = None, path: str | None = None, quality: int | None = None, ref: str | None = None) -> Result:
        """An image of the viewport, the full page or an element.

        `max_bytes` is 2 MiB unless given. Over budget, a PNG is retaken as JPEG at quality 80, 60, 40, and the outcome says so; still over: `SCREENSHOT_BUDGET_EXCEEDED`. An area over 16,384 px a side or 64 Mi pixels (a page a million pixels tall, a large viewport at a high scale) is cut to its top-left part, and the outcome says so and names `clip` and `ref` for the rest. With `path` the file is written and not returned: where the person at the shell says (without one, a new file in rove's folder); for a model (MCP, `rove run`) `path` is a plain file name, written into the session's output folder (`<runtime folder>/output/…`), and anything else is `COMMAND_REJECTED`. Where the page shows a secret of the session's (as text or as a field's value, in the page, its open shadow roots and its same-origin frames), its box is painted black before the image leaves rove, and the outcome says how many regions were masked (the images of traces are masked the same way).

        Args:
            clip: Only this rectangle, in CSS pixels.
            format: see above.
            full_page: see above.
            max_bytes: Max image bytes (default 2 MiB).
            path: Save to this file in the output folder instead.
            quality: JPEG quality, 0-100.
            ref: see above.
        """
        return self._call("screenshot", _given({"clip": clip, "format": format, "full_page": full_page, "max_bytes": max_bytes, "path": path, "quality": quality, "ref": ref}))

    def read(self, *, budget: int | None = None, ref: str | None = None) -> Result:
        """The page (or an element) as markdown, for reading long text.

        The page (or one element) as markdown: headings, paragraphs, lists, links, tables, code, quotes; hidden text left out. `budget`: 8,000 tokens unless given (0 for none).

        Args:
            budget: Max tokens (8000; 0: no limit).
            ref: see above.
        """
        return self._call("read", _given({"budget": budget, "ref": ref}))

    def wait(self, *, load: Literal["domcontentloaded", "load", "networkidle"] | None = None, ms: int | None = None, text: str | None = None, text_gone: str | None = None, url: str | None = None) -> Result:
        """Wait for text to appear or go, a URL, a load state, or ms.

        One of `text`, `text_gone`, `url` (a [URL pattern](#url-patterns): a part of the URL, or a `*` glob of the whole URL), `load`; with a condition, `ms` is the most to wait (10 s), checked until the very end; alone, how long to wait (at most 300 s). `TIMEOUT` names what did not happen.

        Args:
            load: see above.
            ms: Alone: the wait; else the timeout (10000).
            text: see above.
            text_gone: see above.
            url: Substring of the URL, or a * glob.
        """
        return self._call("wait", _given({"load": load, "ms": ms, "text": text, "text_gone": text_gone, "url": url}))

    def close(self) -> Result:
        """Close the browser; the next call starts a new one.

        Ends the session: MCP's own session closes its browser and the next call starts a new one; a shared session (`rove mcp --session NAME`) ends as `rove close` ends it. Run on a session directly, it closes every tab. The agent is not offered it.
        """
        return self._call("close", _given({}))

    def eval(self, js: str, *, ref: str | None = None) -> Result:
        """Run JavaScript: an expression, or a function given ref's element.

        An expression, or a function (`() => …`, `async (el) => …`), which is called, with the element when a ref is given. Promises are awaited; the value comes back as JSON (cut at 20,000 characters, saying so). A throw is `EVALUATION_FAILED`, and so is a result the browser cannot return (an object that refers to itself, `window`), saying the script ran (`action_sent: sent`); a script that opens a dialog ends with `DIALOG_OPEN` (`action_sent: sent`). A script gets 10 s (`SessionConfig::eval_timeout`; less when one CDP call's deadline, `ROVE_CDP_TIMEOUT_S`, is shorter): then rove stops it (`Runtime.terminateExecution`) and answers `TIMEOUT` saying so; a promise that never settles is abandoned, the page untouched. At the shell, the value is printed first (a string bare, with control characters other than line breaks and tabs dropped; anything else as indented JSON), then what changed; `--json` is unchanged.

        Args:
            js: see above.
            ref: see above.
        """
        return self._call("eval", _given({"js": js, "ref": ref}))

    def console(self, *, all: bool | None = None, level: Literal["debug", "info", "warning", "error"] | None = None) -> Result:
        """Console messages and uncaught errors (with stacks) since the last call; all: every one kept.

        The focused tab's console messages since the last `console` call (with `all`, every one kept), `level` keeping that level and worse (`info` keeps `log` too; the lower levels stay unread for the next call). One line each: `[level] "text" at url:line:column`, then, for errors, uncaught exceptions and `console.trace`, the stack (`at function (url:line:column)`, innermost first, 10 frames at most). Uncaught errors and unhandled rejections are `[error exception]`; the browser's own messages (a failed resource, a security warning) carry their source (`[error network]`). Collected from the moment the tab is first watched (messages logged before are replayed), across navigations and from iframes; the newest 1,000 per tab are kept and older ones dropped (counted in the answer). The page wrote every text: each is cleaned as page text is (one line, no invisible characters), cut at 1,000 characters and quoted.

        Args:
            all: Every message kept, not only those since the last call.
            level: Only this level and worse.
        """
        return self._call("console", _given({"all": all, "level": level}))

    def network(self, *, action: Literal["list", "show", "block", "mock", "clear", "har"] | None = None, all: bool | None = None, bodies: bool | None = None, body: str | None = None, content_type: str | None = None, file: str | None = None, id: int | None = None, max_bytes: int | None = None, status: int | None = None, type: str | None = None, url: str | None = None) -> Result:
        """Requests since the last call (filter by url, type, status); show id: headers and bodies; block or mock url patterns; clear; har file.

        **list** (the default): the focused tab's requests since the last list (with `all`, every one kept), one line each: `r3 POST 201 fetch 88 B 5 ms URL` (`pending`, or `failed (net::ERR_…)`); `url` keeps URLs containing it, `type` a resource type (`document`, `script`, `fetch`, `xhr`, `image` …), `status` a status (`0`: failed). The newest 500 per tab are kept, across navigations and from iframes (older ones dropped, counted). **show** `id` (3 for `r3`): status, type, MIME type, size and time, the request and response headers, and the request and response bodies, each cut at `max_bytes` (4,000) and saying so; a binary body is given by its size. The browser keeps bodies within 16 MiB per tab (2 MiB each): an older or bigger one is "not available". **block** `url`: the session's tabs fail matching requests (`net::ERR_BLOCKED_BY_CLIENT`), before they leave the browser. **mock** `url`, `status` (200), `body` or `file`, `content_type` (by the file's extension or the body's first character): matching requests are answered by rove (with `Access-Control-Allow-Origin: *`) and never reach the server; `file` must lie under the upload roots (`UPLOAD_DENIED` otherwise), 5 MiB at most. `url` is a [URL pattern](#url-patterns), as `wait`'s: with a `*`, a glob of the whole URL; without, a part of it. The newest rule for a URL wins; rules apply to every tab of the session, those opened later included; the domain policy is judged first. **clear**: drops every rule and forgets the requests seen. **har** `file`: the requests kept as a HAR 1.2 file, without bodies unless `bodies` is given (then the request bodies, with the values of credential fields such as `password`, `token`, `secret`, `api_key` in forms, JSON and multipart bodies redacted, and the session's secrets), written where the person at the shell says, or for a model as a plain file name into the session's output folder (as `screenshot`'s `path`). URLs shown or exported are redacted (a password in the URL, values of query parameters such as `token`, `key`, `code`, `signature`, the session's secrets) and cleaned as page text; `Cookie`, `Set-Cookie`, `Authorization`, `Proxy-Authorization` and `X-Api-Key` values are never shown or exported; every body line is cleaned and marked `  | `.

        Args:
            action: see above.
            all: see above.
            bodies: har: include request bodies (credential fields redacted).
            body: mock: the body to answer with.
            content_type: mock: the Content-Type (guessed from the body).
            file: mock: read the body from this file. har: write here.
            id: show: the request's number (r3 is 3).
            max_bytes: show: most bytes of each body (4000).
            status: list: only this status (0: failed). mock: the status to answer (200).
            type: list: only this resource type (document, script, fetch, xhr, image…).
            url: list: URLs containing this. block, mock: URLs containing this, or with a *, a glob of the whole URL (? is itself).
        """
        return self._call("network", _given({"action": action, "all": all, "bodies": bodies, "body": body, "content_type": content_type, "file": file, "id": id, "max_bytes": max_bytes, "status": status, "type": type, "url": url}))

    def cookies(self, *, action: Literal["get", "set", "clear"] | None = None, domain: str | None = None, expires: float | None = None, http_only: bool | None = None, name: str | None = None, path: str | None = None, secure: bool | None = None, url: str | None = None, value: str | None = None) -> Result:
        """The session's cookies (by url or domain); set one; clear them.

        The session's cookies (its browser context's, every tab's). **get** (the default): all, or those the browser would send to `url`, of `domain` and its subdomains, of `name`; one line each, `name="value" domain=… path=/ httpOnly secure expires=…|session sameSite=…`, the value cleaned and quoted. **set** needs `name` and `value`, and takes `url` or `domain` (default: the focused page's URL), `path` (`/`), `expires` (seconds since the epoch; default: a session cookie), `http_only`, `secure`. **clear**: those matching the filters, or every cookie of the session.

        Args:
            action: see above.
            domain: get, clear: cookies of this domain and its subdomains. set: the cookie's domain.
            expires: set: seconds since the epoch when it expires (default: when the session ends).
            http_only: see above.
            name: set: the cookie's name; get, clear: only cookies of this name.
            path: set: the path (/).
            secure: see above.
            url: get, clear: cookies sent to this URL. set: the cookie's URL (default: the page's).
            value: set: the value.
        """
        return self._call("cookies", _given({"action": action, "domain": domain, "expires": expires, "http_only": http_only, "name": name, "path": path, "secure": secure, "url": url, "value": value}))

    def storage(self, kind: Literal["local", "session"], *, action: Literal["get", "set", "clear"] | None = None, key: str | None = None, value: str | None = None) -> Result:
        """The page's localStorage or sessionStorage: get, set a key, clear.

        The focused page's `localStorage` or `sessionStorage` (its origin's). **get**: every entry, or `key`'s, one line each (`"key" = "value"`, cleaned and quoted). **set** `key` `value`. **clear**: every entry, or `key`.

        Args:
            kind: see above.
            action: see above.
            key: get, clear: only this key. set: the key.
            value: set: the value.
        """
        return self._call("storage", _given({"kind": kind, "action": action, "key": key, "value": value}))

    def state(self, action: Literal["save", "load"], file: str) -> Result:
        """Save the session's cookies and localStorage to a file, or load them (Playwright storage-state JSON).

        **save**: the session's cookies and the `localStorage` of the origins its open tabs show, in Playwright's storage-state JSON (`{"cookies": [{name, value, domain, path, expires (-1: session), httpOnly, secure, sameSite}], "origins": [{origin, localStorage: [{name, value}]}]}`), written readable by its owner only (`0600`): where the person at the shell says, or for a model as a plain file name into the session's output folder. **load**: restores such a file (from Playwright too): the cookies into the session's cookie store, each origin's local storage in a background tab of the session's own whose documents rove answers with an empty page (no server sees the visit; closed before the answer); origins the domain policy refuses are left out and named, and so are cookies the browser refuses (the rest load). A model loads only from the upload roots or, by a plain name, from the session's output folder (`UPLOAD_DENIED` otherwise). `--storage-state FILE` (`ROVE_STORAGE_STATE`; `SessionConfig::storage_state`) loads one when a session starts (a CLI session's daemon, each `rove mcp` client's session, `rove run`), so a login done once is reused; a running session keeps what it has.

        Args:
            action: see above.
            file: The file (Playwright's storage-state JSON).
        """
        return self._call("state", _given({"action": action, "file": file}))

    def set(self, what: Literal["viewport", "device", "media", "geo", "offline", "headers", "user_agent", "timezone", "locale"], *, headers: Sequence[str] | None = None, height: int | None = None, latitude: float | None = None, longitude: float | None = None, scale: float | None = None, value: str | None = None, width: int | None = None) -> Result:
        """Emulate a screen, device, media, place, network or locale on every tab.

        Changes what pages see, on every tab of the session and those opened later (Chromium keeps emulation per page, so the session keeps each setting and gives it to each tab it watches); setting a thing again replaces it. The answer says what changed and on which tabs. **viewport** `width` `height` (50 to 10,000 CSS pixels) and `scale` (the device pixel ratio, 1). **device** `value`: `iPhone 15` (393×852 at 3), `Pixel 8` (412×915 at 2.625), `iPad` (820×1180 at 2) — mobile, touch (`pointer: coarse`) and the device's user agent — or `desktop` (the session's viewport at 1, a mouse, the browser's user agent); case, spaces and dashes do not matter. **media** `value`: `dark` or `light` (`prefers-color-scheme`), `print` or `screen` (the media type); each keeps the other. **geo** `latitude` `longitude`: the position `navigator.geolocation` reports, and the permission to read it granted to the focused page's origin (a web page must be open). **offline** `value` `on` or `off`: every request fails while on. **headers**: `"Name: value"` strings added to every request (none: stop adding them); the answer names them, but the values of `Authorization`, `Cookie` and `X-Api-Key` are shown as `(hidden)`, and a malformed line is not echoed. A header Chromium fails every request for (`Host`, `Content-Length`, `Transfer-Encoding`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Cookie2`, `Set-Cookie`, `Proxy-*`) is `COMMAND_REJECTED`, and the headers before stay. **user_agent**, **timezone** (an IANA name, `Europe/Paris`), **locale** (`fr-FR`, what `Intl` uses) `value`; without a value, the browser's own. A time zone or locale the page's `Intl` does not know is `COMMAND_REJECTED` and the one before stays. A session started again after its browser died (the daemon or `rove mcp` launching a new one) gets these settings made again on its tabs, and its first answer says so (`the emulation set before (media, metrics) is made again`); a position is granted again to the origins `set geo` granted it to.

        Args:
            what: see above.
            headers: headers: "Name: value" sent with every request ([]: none).
            height: viewport: height, CSS px.
            latitude: geo: latitude.
            longitude: geo: longitude.
            scale: viewport: device pixel ratio (1).
            value: device: iPhone 15, Pixel 8, iPad, desktop. media: dark, light, print, screen. offline: on, off. Else the value, e.g. Europe/Paris, fr-FR (none: the browser's).
            width: viewport: width, CSS px.
        """
        return self._call("set", _given({"what": what, "headers": headers, "height": height, "latitude": latitude, "longitude": longitude, "scale": scale, "value": value, "width": width}))

    def pdf(self, file: str, *, background: bool | None = None, format: Literal["A4", "A3", "A5", "Letter", "Legal", "Tabloid"] | None = None, landscape: bool | None = None) -> Result:
        """Print the page to a PDF file.

        Prints the focused page to a PDF file (`Page.printToPDF`) on `format` paper (A4), upright unless `landscape`, without background colours and images unless `background`. Written where the person at the shell says, or for a model as a plain file name into the session's output folder (as `screenshot`'s `path`). Chromium prints only when headless: a browser that shows windows (`--headed`, or one connected with `--cdp-url`) is refused with `COMMAND_REJECTED` before the page is touched, its hint saying so. The answer names the file and its size.

        Args:
            file: A plain file name.
            background: Print backgrounds.
            format: Paper (A4).
            landscape: Landscape.
        """
        return self._call("pdf", _given({"file": file, "background": background, "format": format, "landscape": landscape}))

    def get(self, what: Literal["text", "value", "attr", "box", "visible", "enabled", "checked"], ref: str, *, name: str | None = None) -> Result:
        """An element's text, value, attribute (name) or box, or whether it is visible, enabled or checked.

        One fact about the element `ref` names, as `data.result`, without a view: **text** its visible text (trimmed), **value** a field's value (a contenteditable's text; `null` for other elements), **attr** the attribute `name` (`null` when absent), **box** `{x, y, width, height}` in CSS pixels of its frame's viewport, **visible** (connected, a box of some size, not hidden by `display`, `visibility` or `opacity`), **enabled** (not `:disabled`, not inside `aria-disabled="true"`), **checked** (a checkbox or radio's state, `"mixed"` when indeterminate, else `aria-checked`, `aria-pressed` or `aria-selected`). Read in rove's isolated world, so the page's own overrides (a replaced `getAttribute`) do not change the answer; text and values are cut at 20,000 characters. A ref whose element is gone is `REF_NOT_FOUND`. At the shell: `rove get text e3`, `rove get attr href e5`, and `rove is visible e7` (or `enabled`, `checked`), which print the value first (a string bare, control characters dropped).

        Args:
            what: see above.
            ref: see above.
            name: attr: the attribute's name.
        """
        return self._call("get", _given({"what": what, "ref": ref, "name": name}))

    def mouse(self, action: Literal["move", "down", "up", "click", "wheel"], *, button: Literal["left", "right", "middle"] | None = None, count: int | None = None, dx: float | None = None, dy: float | None = None, x: float | None = None, y: float | None = None) -> Result:
        """Pointer at x, y: CSS pixels of the viewport (a screenshot's pixels at scale 1). move; down, up (held across calls: drag); click; wheel dx dy.

        Pointer input at a point instead of a ref, for models that aim from screenshots. `x`, `y` are CSS pixels from the top-left corner of the viewport: a viewport screenshot's pixels when the device scale factor is 1 (the default); after `set viewport … --scale S` or `set device`, a viewport screenshot is S times larger, so divide its pixel coordinates by S. **move** `x` `y`; **down** / **up** `button` where the pointer is (or at `x` `y`, moving there first); **click** `x` `y`, `count` 2 for a double click (3 at most); **wheel** `dx` `dy` (pixels; `dy` > 0 scrolls down) where the pointer is, at `x` `y`, or in the middle of the viewport, waiting for the scroll to rest and saying where the page's scroll went. Events are trusted (`Input.dispatchMouseEvent`, through the same input layer as the ref commands), and the session remembers per tab where the pointer is and which buttons are held, so `down`, `move`, `move`, `up` across calls is a real drag (every move says the button is down; pointer capture works). A point outside the viewport, negative or not a number is `COMMAND_REJECTED` with the viewport's size, and nothing is sent; so is `up` for a button that is not down, `down` or `click` for one that is held, and `down`/`up` before the pointer was ever placed on the tab. The answer names the element under the pointer as a view would, so a model aiming from a screenshot learns what it hit and gets its ref (`clicked at (120, 45) on e7 button "Save"`; the innermost element the main frame hit-tests there, or its nearest ancestor with a role views show; nothing is named over a blank margin, and a frame is named as a frame). After the input: the usual settle, navigation, dialog and diff, as for `click`. At the shell: `rove mouse click 120 45`, `rove mouse down right`, `rove mouse wheel 0 400 --at 640 360`, and `rove click --at 120 45` (the same as `mouse click`; `--button` and `--double` apply).

        Args:
            action: see above.
            button: see above.
            count: see above.
            dx: see above.
            dy: see above.
            x: see above.
            y: see above.
        """
        return self._call("mouse", _given({"action": action, "button": button, "count": count, "dx": dx, "dy": dy, "x": x, "y": y}))

    def fill_form(self, fields: Sequence[Mapping[str, Any]]) -> Result:
        """Fill fields in order: text, a date, an option label, true/false for a checkbox. Stops at the first failure, naming the fields filled.

        Fills several fields in one call, in order, each through the command that fits the element (read from the element itself): a checkbox, radio or switch is checked or unchecked (`value` JSON `true`/`false`, or the strings `true`/`false`, `on`/`off`); a `<select>`, a listbox or a select-only combobox gets the option whose label or value is `value` (`select`); anything else is filled (`fill`: text, a number, an ISO date or time, a colour; secrets work as in `fill`). One answer at the end: a line per field, then the diff. It stops at the first field that fails: the error is that field's own (its code, hint, `action_sent`), said as `fill-form stopped at field 2 (e5): …; filled: e3; not touched: e7`, with `facts` `filled`, `failed`, `not_touched` (and the failure's own facts as `cause`); `action_sent` is `sent` when fields before it were filled, and those keep their values. A boolean for a text field or a select, or a word other than true/false for a checkbox, is refused at that field, nothing sent to it. In the `forms` group (with `upload`), out of the default `tools/list` that every request of a model carries. At the shell: `rove fill-form e3=ada@example.org e5=Peru e7=true e9=2024-05-01`.

        Args:
            fields: see above.
        """
        return self._call("fill-form", _given({"fields": fields}))


class AsyncCommands:
    """rove's commands as awaitable methods; each returns a `Result` or raises `RoveError`."""

    async def _call(self, tool: str, arguments: dict[str, Any]) -> Result:
        raise NotImplementedError

    async def open(self, url: str, *, new_tab: bool | None = None) -> Result:
        """Go to a URL.

        `example.com` means `https://example.com`, `localhost:3000` means `http://…`, a path (`/tmp/page.html`; from the CLI also `./page.html`) means its `file://` URL, which the domain policy refuses unless it allows `file:`. `javascript:` URLs are `COMMAND_REJECTED` (use `eval`). A URL the policy refuses is `NAVIGATION_BLOCKED`, before anything is sent. Fails with `NAVIGATION_FAILED` (`facts.kind` `network`, with Chromium's `net::ERR_…`), `NAVIGATION_FAILED` (`kind` `http_status`, `status`; the error page's view attached), or `TIMEOUT` (`kind` `not_loaded`: the page is open but did not finish loading in 30 s). While a JavaScript dialog blocks the focused tab, `open` leaves that page: the tab is closed, dialogs and all, and the URL opens in a new one (`left t1 at …`).

        Args:
            url: see above.
            new_tab: see above.
        """
        return await self._call("open", _given({"url": url, "new_tab": new_tab}))

    async def back(self) -> Result:
        """Go back in history.

        `COMMAND_REJECTED` when the history has no such page.
        """
        return await self._call("back", _given({}))

    async def forward(self) -> Result:
        """Go forward in history.

        `COMMAND_REJECTED` when the history has no such page.
        """
        return await self._call("forward", _given({}))

    async def reload(self) -> Result:
        """Reload the page.
        """
        return await self._call("reload", _given({}))

    async def snapshot(self, *, after: str | None = None, budget: int | None = None, mode: Literal["full", "interactive", "diff"] | None = None, scope: str | None = None, urls: bool | None = None) -> Result:
        """The page as text with refs (ref args also take css=…, role=button[name=Save], text=…). mode diff: what changed; interactive: controls only.

        The view format is in `docs/view-format.md`. `mode` `full` (the default) is the whole page within `budget` tokens (0: no limit); `scope` a ref's subtree; `after` a ref: the next part of a cut view.

        Args:
            after: Continue a cut view after this ref.
            budget: Max tokens; 0: no limit.
            mode: see above.
            scope: Only the subtree under this ref.
            urls: see above.
        """
        return await self._call("snapshot", _given({"after": after, "budget": budget, "mode": mode, "scope": scope, "urls": urls}))

    async def find(self, text: str, *, limit: int | None = None, role: str | None = None) -> Result:
        """Refs of elements containing text, with context, also outside the view.

        Every frame, also what the budget cut; at most `limit` results (20).

        Args:
            text: see above.
            limit: see above.
            role: Only this role (button, link…).
        """
        return await self._call("find", _given({"text": text, "limit": limit, "role": role}))

    async def click(self, ref: str, *, button: Literal["left", "right", "middle"] | None = None, double: bool | None = None, modifiers: Sequence[str] | None = None) -> Result:
        """Click an element.

        A tab a plain click opens takes the focus and its view is returned; a middle or modified click opens it in the background and says so. At the shell, `rove dblclick REF` is a click with `double`, and `rove click --at X Y` a click at a point (`mouse click`).

        Args:
            ref: see above.
            button: see above.
            double: see above.
            modifiers: Keys held: Alt, Control, Meta, Shift.
        """
        return await self._call("click", _given({"ref": ref, "button": button, "double": double, "modifiers": modifiers}))

    async def hover(self, ref: str) -> Result:
        """Hover an element (menus, tooltips).

        Args:
            ref: see above.
        """
        return await self._call("hover", _given({"ref": ref}))

    async def type(self, text: str, *, delay_ms: int | None = None, ref: str | None = None, submit: bool | None = None) -> Result:
        """Type key by key at the end of a field (no ref: the focused one).

        Without a ref, the keys go to whatever has the focus (a field a widget focused itself; at the shell `rove type --focused TEXT`). Appends, one real key press per character (trusted keydown, keypress, input, keyup; up to 8 key events on their way at once, one at a time with `delay_ms`). The field must end with the text, or `NOT_ACTIONABLE` (`action_sent: sent`) says what it holds. Typing stops at three quarters of the command's deadline (90 s by default) with `TIMEOUT` saying how many characters reached the field; `fill` sets a long text at once. `submit` presses Enter after.

        Args:
            text: see above.
            delay_ms: see above.
            ref: see above.
            submit: see above.
        """
        return await self._call("type", _given({"text": text, "delay_ms": delay_ms, "ref": ref, "submit": submit}))

    async def fill(self, ref: str, text: str, *, submit: bool | None = None) -> Result:
        """Replace a field's value.

        Replaces the value (select all, insert), then fires the `change` a committed edit fires, keeping the focus in the field (leaving it would close a command palette or a combobox's popup). A field the page takes away as the text arrives is reported (`then the page took the field away`), not as a failure. `submit` presses Enter after, in the field. A number field that takes text (`type=number`, a text spinbutton, `inputmode` numeric or decimal) is left with Tab afterwards, unless `submit` is given: component libraries take such a number only when the field loses the focus, and the answer says it (`left e3 with Tab, ...`) and shows the number as the app formats it. In an editable combobox whose list shows options, typing only filters the list, so the option the text names (exactly, then ignoring case) is clicked and the answer says so (`chose the option "Dark" from its list`); a text that begins options leaves the list open and names them; a text no option contains is committed with Tab, and a box that goes back to another value (it takes only its options) is `NOT_ACTIONABLE` (`action_sent: sent`) listing them. A read-only combobox (Quasar's QSelect) takes no text: it is opened with a click and the option named is chosen, as `select` does. A code or rich-text editor (CodeMirror 5 or 6, Monaco, a contenteditable such as ProseMirror; the ref may name its hidden textarea, its content or its wrapper) is replaced whole through real input: focused, Control+A, the text inserted; then the text it shows is read back, line by line, and must equal the text, or `NOT_ACTIONABLE` (`action_sent: sent`) says what the editor holds (an editor that reformats or auto-closes what it is given). An editor taller than its view draws only some lines: when those are a run of the text, the answer says which lines were checked. A slider or spinbutton (a range input, or `role=slider` / `role=spinbutton` that is not a text field; a composite one takes the keys through its focusable part) takes a number through real keys, as from a keyboard: Home or End for its extremes, Page keys while far, arrows for single steps (held: repeated keydowns, one keyup), then the value is read back; an app that takes a value only when a change ends gets it. The press that may land on the value is sent only once the page has answered the presses before it: an app that takes a value at every press and works on each on its server (Streamlit reruns its script for each, the runs side by side) ends holding the value reported, not an older one whose run finished last. A range value off its steps or limits is `COMMAND_REJECTED` naming the nearest values, before any key; a control whose steps skip the value (an ARIA one, a range without steps) is `NOT_ACTIONABLE` (`action_sent: sent`) naming the values around it and what it holds, put back on the nearer one it came from; an ARIA slider its keys do not move is dragged instead: its thumb pressed, moved along its track to the value's place and released (corrected up to three times by where it landed), then read back; one neither brings there (it ignores them, moves away or wraps around) is `NOT_ACTIONABLE` saying what it holds. An input a native picker sets (`date`, `time`, `datetime-local`, `month`, `week`, `color`) takes its value whole, in the form the input holds (`2026-03-14`, `09:30`, `2026-03-14T09:30`, `2026-03`, `2026-W11`, `#3366cc`): set through the value setter with the `input` and `change` events a picker fires, then read back. A value the browser would read otherwise (`2026-13-45`, `03/14/2026`), or a date outside the input's `min` and `max` (its picker never offers one), is `COMMAND_REJECTED` naming the form, and the field is not touched; `type` refuses these inputs and sliders, and points at `fill`.

        Args:
            ref: see above.
            text: see above.
            submit: see above.
        """
        return await self._call("fill", _given({"ref": ref, "text": text, "submit": submit}))

    async def press(self, keys: str, *, ref: str | None = None) -> Result:
        """Press keys: Enter, Escape, Control+A…

        A chord: `Enter`, `Control+A`, `Shift+Tab`, `Control+Shift+R`. With a ref, the element is clicked first; a slider (a range input, `role=slider`) gets the focus without a click, since a click would move it.

        Args:
            keys: see above.
            ref: Focus this element first.
        """
        return await self._call("press", _given({"keys": keys, "ref": ref}))

    async def select(self, ref: str, values: Sequence[str]) -> Result:
        """Choose options of a select, listbox or combobox.

        Native selects by label or value (several for `multiple`); ARIA listboxes (options clicked), comboboxes and buttons with a popup (opened, then the option clicked), editable comboboxes (the value typed, then the suggestion clicked). The page settles after the choice, so a jump menu that navigates reports the new page.

        Args:
            ref: see above.
            values: Labels or values (several: a multiple select).
        """
        return await self._call("select", _given({"ref": ref, "values": values}))

    async def check(self, ref: str) -> Result:
        """Check a checkbox, switch or radio.

        Checkboxes, switches, radios, `aria-checked` elements, toggle buttons (`aria-pressed`: checked is pressed); the state is read back. Already in the state asked for: nothing is sent, and the outcome says so.

        Args:
            ref: see above.
        """
        return await self._call("check", _given({"ref": ref}))

    async def uncheck(self, ref: str) -> Result:
        """Uncheck a checkbox or switch.

        Checkboxes, switches, radios, `aria-checked` elements, toggle buttons (`aria-pressed`: checked is pressed); the state is read back. Already in the state asked for: nothing is sent, and the outcome says so.

        Args:
            ref: see above.
        """
        return await self._call("uncheck", _given({"ref": ref}))

    async def scroll(self, *, direction: Literal["down", "up", "left", "right"] | None = None, pixels: float | None = None, ref: str | None = None) -> Result:
        """Scroll the page or an element; with only a ref, bring it into view.

        With a direction, the mouse wheel over the element (or the middle of the page), 80% of the scroller's visible size by default (the page's, or the box's that scrolls); the outcome says how far it went and where it stands. With only a ref, the element is brought into view. At the shell the words come in any order: `rove scroll e12 down 300`.

        Args:
            direction: see above.
            pixels: CSS pixels (default 80% of the view).
            ref: see above.
        """
        return await self._call("scroll", _given({"direction": direction, "pixels": pixels, "ref": ref}))

    async def drag(self, from_: str, to: str) -> Result:
        """Drag one element onto another.

        Real pointer events (pointer capture works); HTML5 drag and drop is completed at the target (`dragenter`, `dragover`, `drop`).

        Args:
            from_: see above.
            to: see above.
        """
        return await self._call("drag", _given({"from": from_, "to": to}))

    async def upload(self, ref: str, paths: Sequence[str]) -> Result:
        """Give files to a file input or to the chooser an element opens.

        A file input, or an element whose click opens a file chooser. Files must lie under the allowed roots, after resolving links: the session's upload folder (`<runtime folder>/uploads`), `--upload-root` folders, and for a command typed in a shell the folder it runs in (never `/` or the home folder); otherwise `UPLOAD_DENIED`, and nothing is sent.

        Args:
            ref: see above.
            paths: Files in the upload folder.
        """
        return await self._call("upload", _given({"ref": ref, "paths": paths}))

    async def solve(self, *, ref: str | None = None) -> Result:
        """Have the installed solver plugin solve the captcha a `captcha eN` line shows.

        Asks the first solver plugin of the plugins folder (`$XDG_CONFIG_HOME/rove/plugins/`, `--plugins DIR` or `ROVE_PLUGINS`) to solve the challenge, over the JSON protocol of docs/captcha.md: it gets the kind, the site key, the page's URL, the user agent and, for an image challenge, a picture of it, and nothing else (no cookies, no secrets). rove puts a token where the widget expects it (its response field and the callback the page named), clicks the tiles it names with trusted input, types an image captcha's text into its field (`answered`: the page checks it when the form is sent), or sets a bot wall's clearance cookies for the page's own site and loads the page again; then it reads the widget again: the answer says solved only when the page does. No plugin: `NO_SOLVER`; a plugin's own error comes back with its code, hint and retry class; one that hangs past 60 s or prints garbage is killed: `SOLVER_FAILED`. Site terms are yours to keep.

        Args:
            ref: see above.
        """
        return await self._call("solve", _given({"ref": ref}))

    async def dialog(self, accept: bool, *, text: str | None = None) -> Result:
        """Answer the alert, confirm or prompt that blocks the page.

        Answers the alert, confirm, prompt or beforeunload dialog that blocks the page (`text` only for a prompt). A dialog that opens right after (a chain) is reported, to be answered in turn; from the third in a row the answer says how to leave the page (`open` another URL). Otherwise the answer waits, as after input, for what the page does once its script goes on: the page an accepted `beforeunload` lets the tab reach, loaded and built, or the changes and requests a confirm's answer starts.

        Args:
            accept: see above.
            text: see above.
        """
        return await self._call("dialog", _given({"accept": accept, "text": text}))

    async def tab(self, *, action: Literal["list", "new", "switch", "close"] | None = None, tab: str | None = None, url: str | None = None) -> Result:
        """List, open, switch to or close tabs.

        `list` marks the focused tab with `*` and names each popup's opener. A closed tab's id never comes back (`NO_TAB`).

        Args:
            action: see above.
            tab: The tab, e.g. t2.
            url: For new: where to go.
        """
        return await self._call("tab", _given({"action": action, "tab": tab, "url": url}))

    async def desktop(self, *, action: Literal["apps", "open", "attach", "leave"] | None = None, target: str | None = None) -> Result:
        """Desktop apps: list, open or attach one as the target for later commands, or leave.

        Linux, through the accessibility bus (AT-SPI2; docs/desktop.md). After `open` or `attach` the application is the target: `snapshot`, `find`, `click`, `fill`, `check`, `select`, `press`, `type`, `wait` and `read` work on its windows with the same refs and diffs; page-only commands (`open URL`, `eval`, `network`, `cookies` …) answer `COMMAND_REJECTED` until `leave`. No accessibility bus or display is `DESKTOP_UNAVAILABLE`.

        Args:
            action: see above.
            target: open: command line; attach: app name or pid.
        """
        return await self._call("desktop", _given({"action": action, "target": target}))

    async def screenshot(self, *, clip: Mapping[str, Any] | None = None, format: Literal["png", "jpeg"] | None = None, full_page: bool | None = None, max_bytes: int | None = None, path: str | None = None, quality: int | None = None, ref: str | None = None) -> Result:
        """An image of the viewport, the full page or an element.

        `max_bytes` is 2 MiB unless given. Over budget, a PNG is retaken as JPEG at quality 80, 60, 40, and the outcome says so; still over: `SCREENSHOT_BUDGET_EXCEEDED`. An area over 16,384 px a side or 64 Mi pixels (a page a million pixels tall, a large viewport at a high scale) is cut to its top-left part, and the outcome says so and names `clip` and `ref` for the rest. With `path` the file is written and not returned: where the person at the shell says (without one, a new file in rove's folder); for a model (MCP, `rove run`) `path` is a plain file name, written into the session's output folder (`<runtime folder>/output/…`), and anything else is `COMMAND_REJECTED`. Where the page shows a secret of the session's (as text or as a field's value, in the page, its open shadow roots and its same-origin frames), its box is painted black before the image leaves rove, and the outcome says how many regions were masked (the images of traces are masked the same way).

        Args:
            clip: Only this rectangle, in CSS pixels.
            format: see above.
            full_page: see above.
            max_bytes: Max image bytes (default 2 MiB).
            path: Save to this file in the output folder instead.
            quality: JPEG quality, 0-100.
            ref: see above.
        """
        return await self._call("screenshot", _given({"clip": clip, "format": format, "full_page": full_page, "max_bytes": max_bytes, "path": path, "quality": quality, "ref": ref}))

    async def read(self, *, budget: int | None = None, ref: str | None = None) -> Result:
        """The page (or an element) as markdown, for reading long text.

        The page (or one element) as markdown: headings, paragraphs, lists, links, tables, code, quotes; hidden text left out. `budget`: 8,000 tokens unless given (0 for none).

        Args:
            budget: Max tokens (8000; 0: no limit).
            ref: see above.
        """
        return await self._call("read", _given({"budget": budget, "ref": ref}))

    async def wait(self, *, load: Literal["domcontentloaded", "load", "networkidle"] | None = None, ms: int | None = None, text: str | None = None, text_gone: str | None = None, url: str | None = None) -> Result:
        """Wait for text to appear or go, a URL, a load state, or ms.

        One of `text`, `text_gone`, `url` (a [URL pattern](#url-patterns): a part of the URL, or a `*` glob of the whole URL), `load`; with a condition, `ms` is the most to wait (10 s), checked until the very end; alone, how long to wait (at most 300 s). `TIMEOUT` names what did not happen.

        Args:
            load: see above.
            ms: Alone: the wait; else the timeout (10000).
            text: see above.
            text_gone: see above.
            url: Substring of the URL, or a * glob.
        """
        return await self._call("wait", _given({"load": load, "ms": ms, "text": text, "text_gone": text_gone, "url": url}))

    async def close(self) -> Result:
        """Close the browser; the next call starts a new one.

        Ends the session: MCP's own session closes its browser and the next call starts a new one; a shared session (`rove mcp --session NAME`) ends as `rove close` ends it. Run on a session directly, it closes every tab. The agent is not offered it.
        """
        return await self._call("close", _given({}))

    async def eval(self, js: str, *, ref: str | None = None) -> Result:
        """Run JavaScript: an expression, or a function given ref's element.

        An expression, or a function (`() => …`, `async (el) => …`), which is called, with the element when a ref is given. Promises are awaited; the value comes back as JSON (cut at 20,000 characters, saying so). A throw is `EVALUATION_FAILED`, and so is a result the browser cannot return (an object that refers to itself, `window`), saying the script ran (`action_sent: sent`); a script that opens a dialog ends with `DIALOG_OPEN` (`action_sent: sent`). A script gets 10 s (`SessionConfig::eval_timeout`; less when one CDP call's deadline, `ROVE_CDP_TIMEOUT_S`, is shorter): then rove stops it (`Runtime.terminateExecution`) and answers `TIMEOUT` saying so; a promise that never settles is abandoned, the page untouched. At the shell, the value is printed first (a string bare, with control characters other than line breaks and tabs dropped; anything else as indented JSON), then what changed; `--json` is unchanged.

        Args:
            js: see above.
            ref: see above.
        """
        return await self._call("eval", _given({"js": js, "ref": ref}))

    async def console(self, *, all: bool | None = None, level: Literal["debug", "info", "warning", "error"] | None = None) -> Result:
        """Console messages and uncaught errors (with stacks) since the last call; all: every one kept.

        The focused tab's console messages since the last `console` call (with `all`, every one kept), `level` keeping that level and worse (`info` keeps `log` too; the lower levels stay unread for the next call). One line each: `[level] "text" at url:line:column`, then, for errors, uncaught exceptions and `console.trace`, the stack (`at function (url:line:column)`, innermost first, 10 frames at most). Uncaught errors and unhandled rejections are `[error exception]`; the browser's own messages (a failed resource, a security warning) carry their source (`[error network]`). Collected from the moment the tab is first watched (messages logged before are replayed), across navigations and from iframes; the newest 1,000 per tab are kept and older ones dropped (counted in the answer). The page wrote every text: each is cleaned as page text is (one line, no invisible characters), cut at 1,000 characters and quoted.

        Args:
            all: Every message kept, not only those since the last call.
            level: Only this level and worse.
        """
        return await self._call("console", _given({"all": all, "level": level}))

    async def network(self, *, action: Literal["list", "show", "block", "mock", "clear", "har"] | None = None, all: bool | None = None, bodies: bool | None = None, body: str | None = None, content_type: str | None = None, file: str | None = None, id: int | None = None, max_bytes: int | None = None, status: int | None = None, type: str | None = None, url: str | None = None) -> Result:
        """Requests since the last call (filter by url, type, status); show id: headers and bodies; block or mock url patterns; clear; har file.

        **list** (the default): the focused tab's requests since the last list (with `all`, every one kept), one line each: `r3 POST 201 fetch 88 B 5 ms URL` (`pending`, or `failed (net::ERR_…)`); `url` keeps URLs containing it, `type` a resource type (`document`, `script`, `fetch`, `xhr`, `image` …), `status` a status (`0`: failed). The newest 500 per tab are kept, across navigations and from iframes (older ones dropped, counted). **show** `id` (3 for `r3`): status, type, MIME type, size and time, the request and response headers, and the request and response bodies, each cut at `max_bytes` (4,000) and saying so; a binary body is given by its size. The browser keeps bodies within 16 MiB per tab (2 MiB each): an older or bigger one is "not available". **block** `url`: the session's tabs fail matching requests (`net::ERR_BLOCKED_BY_CLIENT`), before they leave the browser. **mock** `url`, `status` (200), `body` or `file`, `content_type` (by the file's extension or the body's first character): matching requests are answered by rove (with `Access-Control-Allow-Origin: *`) and never reach the server; `file` must lie under the upload roots (`UPLOAD_DENIED` otherwise), 5 MiB at most. `url` is a [URL pattern](#url-patterns), as `wait`'s: with a `*`, a glob of the whole URL; without, a part of it. The newest rule for a URL wins; rules apply to every tab of the session, those opened later included; the domain policy is judged first. **clear**: drops every rule and forgets the requests seen. **har** `file`: the requests kept as a HAR 1.2 file, without bodies unless `bodies` is given (then the request bodies, with the values of credential fields such as `password`, `token`, `secret`, `api_key` in forms, JSON and multipart bodies redacted, and the session's secrets), written where the person at the shell says, or for a model as a plain file name into the session's output folder (as `screenshot`'s `path`). URLs shown or exported are redacted (a password in the URL, values of query parameters such as `token`, `key`, `code`, `signature`, the session's secrets) and cleaned as page text; `Cookie`, `Set-Cookie`, `Authorization`, `Proxy-Authorization` and `X-Api-Key` values are never shown or exported; every body line is cleaned and marked `  | `.

        Args:
            action: see above.
            all: see above.
            bodies: har: include request bodies (credential fields redacted).
            body: mock: the body to answer with.
            content_type: mock: the Content-Type (guessed from the body).
            file: mock: read the body from this file. har: write here.
            id: show: the request's number (r3 is 3).
            max_bytes: show: most bytes of each body (4000).
            status: list: only this status (0: failed). mock: the status to answer (200).
            type: list: only this resource type (document, script, fetch, xhr, image…).
            url: list: URLs containing this. block, mock: URLs containing this, or with a *, a glob of the whole URL (? is itself).
        """
        return await self._call("network", _given({"action": action, "all": all, "bodies": bodies, "body": body, "content_type": content_type, "file": file, "id": id, "max_bytes": max_bytes, "status": status, "type": type, "url": url}))

    async def cookies(self, *, action: Literal["get", "set", "clear"] | None = None, domain: str | None = None, expires: float | None = None, http_only: bool | None = None, name: str | None = None, path: str | None = None, secure: bool | None = None, url: str | None = None, value: str | None = None) -> Result:
        """The session's cookies (by url or domain); set one; clear them.

        The session's cookies (its browser context's, every tab's). **get** (the default): all, or those the browser would send to `url`, of `domain` and its subdomains, of `name`; one line each, `name="value" domain=… path=/ httpOnly secure expires=…|session sameSite=…`, the value cleaned and quoted. **set** needs `name` and `value`, and takes `url` or `domain` (default: the focused page's URL), `path` (`/`), `expires` (seconds since the epoch; default: a session cookie), `http_only`, `secure`. **clear**: those matching the filters, or every cookie of the session.

        Args:
            action: see above.
            domain: get, clear: cookies of this domain and its subdomains. set: the cookie's domain.
            expires: set: seconds since the epoch when it expires (default: when the session ends).
            http_only: see above.
            name: set: the cookie's name; get, clear: only cookies of this name.
            path: set: the path (/).
            secure: see above.
            url: get, clear: cookies sent to this URL. set: the cookie's URL (default: the page's).
            value: set: the value.
        """
        return await self._call("cookies", _given({"action": action, "domain": domain, "expires": expires, "http_only": http_only, "name": name, "path": path, "secure": secure, "url": url, "value": value}))

    async def storage(self, kind: Literal["local", "session"], *, action: Literal["get", "set", "clear"] | None = None, key: str | None = None, value: str | None = None) -> Result:
        """The page's localStorage or sessionStorage: get, set a key, clear.

        The focused page's `localStorage` or `sessionStorage` (its origin's). **get**: every entry, or `key`'s, one line each (`"key" = "value"`, cleaned and quoted). **set** `key` `value`. **clear**: every entry, or `key`.

        Args:
            kind: see above.
            action: see above.
            key: get, clear: only this key. set: the key.
            value: set: the value.
        """
        return await self._call("storage", _given({"kind": kind, "action": action, "key": key, "value": value}))

    async def state(self, action: Literal["save", "load"], file: str) -> Result:
        """Save the session's cookies and localStorage to a file, or load them (Playwright storage-state JSON).

        **save**: the session's cookies and the `localStorage` of the origins its open tabs show, in Playwright's storage-state JSON (`{"cookies": [{name, value, domain, path, expires (-1: session), httpOnly, secure, sameSite}], "origins": [{origin, localStorage: [{name, value}]}]}`), written readable by its owner only (`0600`): where the person at the shell says, or for a model as a plain file name into the session's output folder. **load**: restores such a file (from Playwright too): the cookies into the session's cookie store, each origin's local storage in a background tab of the session's own whose documents rove answers with an empty page (no server sees the visit; closed before the answer); origins the domain policy refuses are left out and named, and so are cookies the browser refuses (the rest load). A model loads only from the upload roots or, by a plain name, from the session's output folder (`UPLOAD_DENIED` otherwise). `--storage-state FILE` (`ROVE_STORAGE_STATE`; `SessionConfig::storage_state`) loads one when a session starts (a CLI session's daemon, each `rove mcp` client's session, `rove run`), so a login done once is reused; a running session keeps what it has.

        Args:
            action: see above.
            file: The file (Playwright's storage-state JSON).
        """
        return await self._call("state", _given({"action": action, "file": file}))

    async def set(self, what: Literal["viewport", "device", "media", "geo", "offline", "headers", "user_agent", "timezone", "locale"], *, headers: Sequence[str] | None = None, height: int | None = None, latitude: float | None = None, longitude: float | None = None, scale: float | None = None, value: str | None = None, width: int | None = None) -> Result:
        """Emulate a screen, device, media, place, network or locale on every tab.

        Changes what pages see, on every tab of the session and those opened later (Chromium keeps emulation per page, so the session keeps each setting and gives it to each tab it watches); setting a thing again replaces it. The answer says what changed and on which tabs. **viewport** `width` `height` (50 to 10,000 CSS pixels) and `scale` (the device pixel ratio, 1). **device** `value`: `iPhone 15` (393×852 at 3), `Pixel 8` (412×915 at 2.625), `iPad` (820×1180 at 2) — mobile, touch (`pointer: coarse`) and the device's user agent — or `desktop` (the session's viewport at 1, a mouse, the browser's user agent); case, spaces and dashes do not matter. **media** `value`: `dark` or `light` (`prefers-color-scheme`), `print` or `screen` (the media type); each keeps the other. **geo** `latitude` `longitude`: the position `navigator.geolocation` reports, and the permission to read it granted to the focused page's origin (a web page must be open). **offline** `value` `on` or `off`: every request fails while on. **headers**: `"Name: value"` strings added to every request (none: stop adding them); the answer names them, but the values of `Authorization`, `Cookie` and `X-Api-Key` are shown as `(hidden)`, and a malformed line is not echoed. A header Chromium fails every request for (`Host`, `Content-Length`, `Transfer-Encoding`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Cookie2`, `Set-Cookie`, `Proxy-*`) is `COMMAND_REJECTED`, and the headers before stay. **user_agent**, **timezone** (an IANA name, `Europe/Paris`), **locale** (`fr-FR`, what `Intl` uses) `value`; without a value, the browser's own. A time zone or locale the page's `Intl` does not know is `COMMAND_REJECTED` and the one before stays. A session started again after its browser died (the daemon or `rove mcp` launching a new one) gets these settings made again on its tabs, and its first answer says so (`the emulation set before (media, metrics) is made again`); a position is granted again to the origins `set geo` granted it to.

        Args:
            what: see above.
            headers: headers: "Name: value" sent with every request ([]: none).
            height: viewport: height, CSS px.
            latitude: geo: latitude.
            longitude: geo: longitude.
            scale: viewport: device pixel ratio (1).
            value: device: iPhone 15, Pixel 8, iPad, desktop. media: dark, light, print, screen. offline: on, off. Else the value, e.g. Europe/Paris, fr-FR (none: the browser's).
            width: viewport: width, CSS px.
        """
        return await self._call("set", _given({"what": what, "headers": headers, "height": height, "latitude": latitude, "longitude": longitude, "scale": scale, "value": value, "width": width}))

    async def pdf(self, file: str, *, background: bool | None = None, format: Literal["A4", "A3", "A5", "Letter", "Legal", "Tabloid"] | None = None, landscape: bool | None = None) -> Result:
        """Print the page to a PDF file.

        Prints the focused page to a PDF file (`Page.printToPDF`) on `format` paper (A4), upright unless `landscape`, without background colours and images unless `background`. Written where the person at the shell says, or for a model as a plain file name into the session's output folder (as `screenshot`'s `path`). Chromium prints only when headless: a browser that shows windows (`--headed`, or one connected with `--cdp-url`) is refused with `COMMAND_REJECTED` before the page is touched, its hint saying so. The answer names the file and its size.

        Args:
            file: A plain file name.
            background: Print backgrounds.
            format: Paper (A4).
            landscape: Landscape.
        """
        return await self._call("pdf", _given({"file": file, "background": background, "format": format, "landscape": landscape}))

    async def get(self, what: Literal["text", "value", "attr", "box", "visible", "enabled", "checked"], ref: str, *, name: str | None = None) -> Result:
        """An element's text, value, attribute (name) or box, or whether it is visible, enabled or checked.

        One fact about the element `ref` names, as `data.result`, without a view: **text** its visible text (trimmed), **value** a field's value (a contenteditable's text; `null` for other elements), **attr** the attribute `name` (`null` when absent), **box** `{x, y, width, height}` in CSS pixels of its frame's viewport, **visible** (connected, a box of some size, not hidden by `display`, `visibility` or `opacity`), **enabled** (not `:disabled`, not inside `aria-disabled="true"`), **checked** (a checkbox or radio's state, `"mixed"` when indeterminate, else `aria-checked`, `aria-pressed` or `aria-selected`). Read in rove's isolated world, so the page's own overrides (a replaced `getAttribute`) do not change the answer; text and values are cut at 20,000 characters. A ref whose element is gone is `REF_NOT_FOUND`. At the shell: `rove get text e3`, `rove get attr href e5`, and `rove is visible e7` (or `enabled`, `checked`), which print the value first (a string bare, control characters dropped).

        Args:
            what: see above.
            ref: see above.
            name: attr: the attribute's name.
        """
        return await self._call("get", _given({"what": what, "ref": ref, "name": name}))

    async def mouse(self, action: Literal["move", "down", "up", "click", "wheel"], *, button: Literal["left", "right", "middle"] | None = None, count: int | None = None, dx: float | None = None, dy: float | None = None, x: float | None = None, y: float | None = None) -> Result:
        """Pointer at x, y: CSS pixels of the viewport (a screenshot's pixels at scale 1). move; down, up (held across calls: drag); click; wheel dx dy.

        Pointer input at a point instead of a ref, for models that aim from screenshots. `x`, `y` are CSS pixels from the top-left corner of the viewport: a viewport screenshot's pixels when the device scale factor is 1 (the default); after `set viewport … --scale S` or `set device`, a viewport screenshot is S times larger, so divide its pixel coordinates by S. **move** `x` `y`; **down** / **up** `button` where the pointer is (or at `x` `y`, moving there first); **click** `x` `y`, `count` 2 for a double click (3 at most); **wheel** `dx` `dy` (pixels; `dy` > 0 scrolls down) where the pointer is, at `x` `y`, or in the middle of the viewport, waiting for the scroll to rest and saying where the page's scroll went. Events are trusted (`Input.dispatchMouseEvent`, through the same input layer as the ref commands), and the session remembers per tab where the pointer is and which buttons are held, so `down`, `move`, `move`, `up` across calls is a real drag (every move says the button is down; pointer capture works). A point outside the viewport, negative or not a number is `COMMAND_REJECTED` with the viewport's size, and nothing is sent; so is `up` for a button that is not down, `down` or `click` for one that is held, and `down`/`up` before the pointer was ever placed on the tab. The answer names the element under the pointer as a view would, so a model aiming from a screenshot learns what it hit and gets its ref (`clicked at (120, 45) on e7 button "Save"`; the innermost element the main frame hit-tests there, or its nearest ancestor with a role views show; nothing is named over a blank margin, and a frame is named as a frame). After the input: the usual settle, navigation, dialog and diff, as for `click`. At the shell: `rove mouse click 120 45`, `rove mouse down right`, `rove mouse wheel 0 400 --at 640 360`, and `rove click --at 120 45` (the same as `mouse click`; `--button` and `--double` apply).

        Args:
            action: see above.
            button: see above.
            count: see above.
            dx: see above.
            dy: see above.
            x: see above.
            y: see above.
        """
        return await self._call("mouse", _given({"action": action, "button": button, "count": count, "dx": dx, "dy": dy, "x": x, "y": y}))

    async def fill_form(self, fields: Sequence[Mapping[str, Any]]) -> Result:
        """Fill fields in order: text, a date, an option label, true/false for a checkbox. Stops at the first failure, naming the fields filled.

        Fills several fields in one call, in order, each through the command that fits the element (read from the element itself): a checkbox, radio or switch is checked or unchecked (`value` JSON `true`/`false`, or the strings `true`/`false`, `on`/`off`); a `<select>`, a listbox or a select-only combobox gets the option whose label or value is `value` (`select`); anything else is filled (`fill`: text, a number, an ISO date or time, a colour; secrets work as in `fill`). One answer at the end: a line per field, then the diff. It stops at the first field that fails: the error is that field's own (its code, hint, `action_sent`), said as `fill-form stopped at field 2 (e5): …; filled: e3; not touched: e7`, with `facts` `filled`, `failed`, `not_touched` (and the failure's own facts as `cause`); `action_sent` is `sent` when fields before it were filled, and those keep their values. A boolean for a text field or a select, or a word other than true/false for a checkbox, is refused at that field, nothing sent to it. In the `forms` group (with `upload`), out of the default `tools/list` that every request of a model carries. At the shell: `rove fill-form e3=ada@example.org e5=Peru e7=true e9=2024-05-01`.

        Args:
            fields: see above.
        """
        return await self._call("fill-form", _given({"fields": fields}))
