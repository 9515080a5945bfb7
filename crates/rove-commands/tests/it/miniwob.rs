//! MiniWoB++ tasks solved end to end with rove's public commands only: each
//! solver sends the JSON commands a face would send and finds every target
//! in views by role, name or the hints views show (`.trash`, `#send-reply`),
//! the way an agent reads them, never by CSS selector or script. Each task
//! must earn a positive reward on 5 seeds; each test prints its success
//! count and median steps (commands after START). The pages come from PyPI
//! (`miniwob` 1.1.0, fetched by scripts/fetch-miniwob.sh); the seed is set
//! before the START cover is clicked, as the Python harness does.
#![allow(clippy::print_stderr)]

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use rove_browser::{Browser, LaunchOptions};
use rove_commands::{Command, CommandError, Outcome, Session, SessionConfig};
use rove_localserver::{LocalServer, Routes};
use serde_json::{Value, json};

const SEEDS: [u32; 5] = [1, 2, 3, 4, 5];

fn miniwob_dir() -> PathBuf {
    let dir = std::env::var_os("ROVE_MINIWOB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../target/miniwob/miniwob/html"
            ))
        });
    assert!(
        dir.join("miniwob/click-button.html").is_file(),
        "MiniWoB++ pages not found in {}: run scripts/fetch-miniwob.sh (scripts/test.sh does)",
        dir.display()
    );
    dir
}

/// One episode: a session on a task page after START, counting the
/// commands the solver sends.
struct Episode {
    session: Session,
    instruction: String,
    steps: usize,
}

impl Episode {
    /// Runs a command the agent sends; it must succeed.
    async fn run(&mut self, command: Value) -> Outcome {
        let shown = command.to_string();
        self.try_run(command)
            .await
            .unwrap_or_else(|e| panic!("{shown} failed: {:?}", e.report()))
    }

    async fn try_run(&mut self, command: Value) -> Result<Outcome, CommandError> {
        self.steps += 1;
        let command: Command = serde_json::from_value(command).expect("a valid command");
        tokio::time::timeout(Duration::from_secs(30), self.session.execute(&command))
            .await
            .expect("the command finished in time")
    }

    async fn click(&mut self, r: &str) -> Outcome {
        self.run(json!({"command": "click", "ref": r})).await
    }

    /// The view the agent reads: `snapshot` in a mode.
    async fn view(&mut self, mode: &str) -> String {
        let out = self.run(json!({"command": "snapshot", "mode": mode})).await;
        out.view.expect("a view").text
    }

    /// The element of `role` named exactly `name`, through `find`.
    async fn find_exact(&mut self, name: &str, role: &str) -> String {
        let out = self
            .run(json!({"command": "find", "text": name, "role": role, "limit": 50}))
            .await;
        support::named(out, name, role)
    }

    /// The first element of `role` whose name contains `text`.
    async fn find(&mut self, text: &str, role: &str) -> String {
        let out = self
            .run(json!({"command": "find", "text": text, "role": role, "limit": 1}))
            .await;
        let view = out.view.expect("find answers with a view");
        view.matches
            .first()
            .map(|r| r.to_string())
            .unwrap_or_else(|| panic!("no {role} {text:?} in {}", view.text))
    }
}

/// The ref at the start of a view line (`e7 button "OK"`, `- e7 link "2"`).
fn line_ref(line: &str) -> Option<(&str, &str)> {
    let line = line
        .trim_start()
        .trim_start_matches("- ")
        .trim_start_matches("+ ");
    let line = line.trim_start();
    let (r, rest) = line.split_once(' ')?;
    (r.starts_with('e') && r[1..].chars().all(|c| c.is_ascii_digit())).then_some((r, rest))
}

/// The refs of the lines of `role` in a view, in page order.
fn refs_of(view: &str, role: &str) -> Vec<String> {
    view.lines()
        .filter_map(line_ref)
        .filter(|(_, rest)| rest.split([' ', ':']).next() == Some(role))
        .map(|(r, _)| r.to_owned())
        .collect()
}

/// The part of an instruction between `start` and `end`: "Select X and
/// click Submit." → "X".
fn between(instruction: &str, start: &str, end: &str) -> String {
    instruction
        .trim_start_matches(start)
        .split(end)
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// The quoted strings of an instruction, in order.
fn quoted(instruction: &str) -> Vec<String> {
    instruction
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

struct Run {
    _server: LocalServer,
    browser: Browser,
    base: String,
}

impl Run {
    async fn start() -> Run {
        let server = LocalServer::start(Routes::new().folder("/miniwob", miniwob_dir()))
            .await
            .expect("server");
        let base = server.url("/miniwob/miniwob/");
        let browser = Browser::launch(LaunchOptions::default())
            .await
            .unwrap_or_else(|e| panic!("launching Chromium failed (is it installed?): {e}"));
        Run {
            _server: server,
            browser,
            base,
        }
    }

    /// Opens a task with a seed and clicks START (harness work, not counted).
    async fn episode(&self, task: &str, seed: u32) -> Episode {
        let session = Session::start(&self.browser, SessionConfig::default())
            .await
            .expect("session");
        let mut episode = Episode {
            session,
            instruction: String::new(),
            steps: 0,
        };
        let url = format!("{}{task}.html", self.base);
        episode.run(json!({"command": "open", "url": url})).await;
        // MiniWoB's own episode clock (10 s for most tasks) would fail a
        // correct solution on a slow machine; the test is about what rove
        // does, not how fast a debug build does it, so it gets ten minutes.
        let seed = format!("Math.seedrandom('{seed}'); core.EPISODE_MAX_TIME = 600000");
        episode.run(json!({"command": "eval", "js": seed})).await;
        let start = episode.find_exact("START", "clickable").await;
        episode.click(&start).await;
        let view = episode.view("full").await;
        episode.instruction = view.lines().nth(1).unwrap_or_default().to_owned();
        episode.steps = 0;
        episode
    }
}

async fn reward(episode: &mut Episode) -> f64 {
    // Reading the score is the harness's job, not the agent's.
    let tab = episode.session.context().focused().expect("tab");
    tab.evaluate("WOB_REWARD_GLOBAL")
        .await
        .expect("reward")
        .as_f64()
        .unwrap_or(-1.0)
}

async fn solve_all(task: &str, solve: impl AsyncFn(&mut Episode)) {
    let run = Run::start().await;
    let mut steps = Vec::new();
    for seed in SEEDS {
        let mut episode = run.episode(task, seed).await;
        solve(&mut episode).await;
        let r = reward(&mut episode).await;
        assert!(
            r > 0.0,
            "{task} seed {seed}: reward {r} for {:?}",
            episode.instruction
        );
        steps.push(episode.steps);
        episode.session.close().await.expect("close");
    }
    steps.sort_unstable();
    eprintln!(
        "miniwob {task}: {}/{} seeds, median {} steps",
        SEEDS.len(),
        SEEDS.len(),
        steps[steps.len() / 2]
    );
    run.browser.close().await;
}

/// Clicks the element of `role` the instruction names in quotes.
async fn click_quoted(e: &mut Episode, role: &str) {
    let name = quoted(&e.instruction).remove(0);
    let target = e.find_exact(&name, role).await;
    e.click(&target).await;
}

async fn submit(e: &mut Episode) {
    let submit = e.find_exact("Submit", "button").await;
    e.click(&submit).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_button() {
    solve_all("click-button", async |e: &mut Episode| {
        click_quoted(e, "button").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_link() {
    solve_all("click-link", async |e: &mut Episode| {
        // The task's "links" are spans with a pointer cursor: the view shows
        // them as clickable, which is what an agent would look for.
        click_quoted(e, "clickable").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_text() {
    solve_all("enter-text", async |e: &mut Episode| {
        let text = quoted(&e.instruction).remove(0);
        let view = e.view("interactive").await;
        let field = refs_of(&view, "textbox").remove(0);
        e.run(json!({"command": "type", "ref": field, "text": text}))
            .await;
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_password() {
    solve_all("enter-password", async |e: &mut Episode| {
        let password = quoted(&e.instruction).remove(0);
        let view = e.view("interactive").await;
        let fields = refs_of(&view, "textbox");
        assert_eq!(fields.len(), 2, "password and verify: {view}");
        for field in fields {
            e.run(json!({"command": "fill", "ref": field, "text": password}))
                .await;
        }
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_user() {
    solve_all("login-user", async |e: &mut Episode| {
        let words = quoted(&e.instruction);
        let view = e.view("interactive").await;
        let fields = refs_of(&view, "textbox");
        assert_eq!(fields.len(), 2, "username and password fields: {view}");
        for (field, word) in fields.iter().zip(&words) {
            e.run(json!({"command": "fill", "ref": field, "text": word}))
                .await;
        }
        let login = e.find_exact("Login", "button").await;
        e.click(&login).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn focus_text() {
    solve_all("focus-text", async |e: &mut Episode| {
        let view = e.view("interactive").await;
        let field = refs_of(&view, "textbox").remove(0);
        e.click(&field).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_checkboxes() {
    solve_all("click-checkboxes", async |e: &mut Episode| {
        // "Select abc, xyz and click Submit." (or "Select nothing and …").
        let list = between(&e.instruction, "Select ", " and click");
        for word in list
            .split(", ")
            .filter(|w| !w.is_empty() && *w != "nothing")
        {
            let checkbox = e.find_exact(word, "checkbox").await;
            e.run(json!({"command": "check", "ref": checkbox})).await;
        }
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_option() {
    solve_all("click-option", async |e: &mut Episode| {
        // "Select xyz and click Submit."
        let choice = between(&e.instruction, "Select ", " and click");
        let radio = e.find_exact(&choice, "radio").await;
        e.run(json!({"command": "check", "ref": radio})).await;
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn choose_list() {
    solve_all("choose-list", async |e: &mut Episode| {
        // "Select Kiribati from the list and click Submit."
        let choice = between(&e.instruction, "Select ", " from the list");
        let view = e.view("interactive").await;
        let list = refs_of(&view, "combobox").remove(0);
        e.run(json!({"command": "select", "ref": list, "values": [choice]}))
            .await;
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_tab() {
    solve_all("click-tab", async |e: &mut Episode| {
        // "Click on Tab #2."
        let tab = e
            .instruction
            .trim_start_matches("Click on ")
            .trim_end_matches('.')
            .to_owned();
        let link = e.find_exact(&tab, "link").await;
        e.click(&link).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_collapsible() {
    solve_all("click-collapsible", async |e: &mut Episode| {
        // "Expand the section below and click submit."
        let section = e.find("Section", "tab").await;
        e.click(&section).await;
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_dialog() {
    solve_all("click-dialog", async |e: &mut Episode| {
        // "Close the dialog box by clicking the "x"."
        let close = e.find_exact("Close", "button").await;
        e.click(&close).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn use_autocomplete() {
    solve_all("use-autocomplete", async |e: &mut Episode| {
        // "Enter an item that starts with "Egy" (and ends with "gypt")."
        let words = quoted(&e.instruction);
        let (prefix, suffix) = (words[0].clone(), words.get(1).cloned().unwrap_or_default());
        let view = e.view("interactive").await;
        let field = refs_of(&view, "textbox").remove(0);
        e.run(json!({"command": "type", "ref": field, "text": prefix}))
            .await;
        // The suggestions come a moment after the typing (the widget waits
        // for a pause): give it one, then look until they are there.
        let mut pick = None;
        for _ in 0..10 {
            e.run(json!({"command": "wait", "ms": 300})).await;
            let view = e.view("full").await;
            // A clickable suggestion: `- e7 Egypt`.
            pick = view
                .lines()
                .filter(|l| l.trim_start().starts_with("- "))
                .filter_map(line_ref)
                .find(|(_, text)| text.starts_with(&prefix) && text.ends_with(&suffix))
                .map(|(r, _)| r.to_owned());
            if pick.is_some() {
                break;
            }
        }
        let pick = pick.unwrap_or_else(|| panic!("no suggestion fits in {}", e.instruction));
        e.click(&pick).await;
        submit(e).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_engine() {
    solve_all("search-engine", async |e: &mut Episode| {
        // "Use the textbox to enter "Jerald" and press "Search", then find
        // and click the 9th search result."
        let name = quoted(&e.instruction).remove(0);
        let nth: usize = e
            .instruction
            .split("click the ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .expect("which result");
        let view = e.view("interactive").await;
        let field = refs_of(&view, "textbox").remove(0);
        e.run(json!({"command": "fill", "ref": field, "text": name}))
            .await;
        let search = e.find_exact("Search", "button").await;
        e.click(&search).await;
        // Three results a page; the pager's links are list items.
        let page = (nth - 1) / 3 + 1;
        if page > 1 {
            let pager = e.find_exact(&page.to_string(), "link").await;
            e.click(&pager).await;
        }
        let view = e.view("full").await;
        let results: Vec<String> = view
            .lines()
            .filter(|l| !l.trim_start().starts_with("- "))
            .filter_map(line_ref)
            .filter(|(_, rest)| rest.starts_with("link"))
            .map(|(r, _)| r.to_owned())
            .collect();
        let result = results
            .get((nth - 1) % 3)
            .unwrap_or_else(|| panic!("result {nth} in {view}"))
            .clone();
        e.click(&result).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn email_inbox() {
    solve_all("email-inbox", async |e: &mut Episode| {
        // "Find the email by X and …": delete (trash), mark important
        // (star), reply with a text, or forward to someone.
        let sender = between(&e.instruction, "Find the email by ", " and ");
        let inbox = e.view("full").await;
        let row = inbox
            .lines()
            .find(|l| l.contains(&format!("clickable \"{sender} ")))
            .unwrap_or_else(|| panic!("no mail from {sender} in {inbox}"))
            .to_owned();
        // `eN clickable "Sender …" [eA trash eB star]`
        let icon = |hint: &str| {
            row.split('[')
                .nth(1)
                .and_then(|icons| {
                    let words: Vec<&str> = icons.trim_end_matches(']').split(' ').collect();
                    words
                        .windows(2)
                        .find(|w| w[1] == hint)
                        .map(|w| w[0].to_owned())
                })
                .unwrap_or_else(|| panic!("no {hint} icon in {row}"))
        };
        if e.instruction.contains("trash icon") {
            e.click(&icon("trash")).await;
            return;
        }
        if e.instruction.contains("star icon") {
            e.click(&icon("star")).await;
            return;
        }
        let (mail, _) = line_ref(&row).expect("row ref");
        let mail = mail.to_owned();
        e.click(&mail).await;
        let words = quoted(&e.instruction);
        if e.instruction.contains("reply to them") {
            let reply = e.find_exact("Reply", "clickable").await;
            e.click(&reply).await;
            let form = e.view("interactive").await;
            let body = refs_of(&form, "textbox").remove(0);
            e.run(json!({"command": "fill", "ref": body, "text": words[0]}))
                .await;
            let send = send_hint(&form, "#send-reply");
            e.click(&send).await;
        } else {
            // "… and forward that email to Y."
            let to = e
                .instruction
                .rsplit(" to ")
                .next()
                .unwrap_or_default()
                .trim_end_matches('.')
                .to_owned();
            let forward = e.find_exact("Forward", "clickable").await;
            e.click(&forward).await;
            let form = e.view("interactive").await;
            let field = refs_of(&form, "textbox").remove(0);
            e.run(json!({"command": "fill", "ref": field, "text": to}))
                .await;
            let send = send_hint(&form, "#send-forward");
            e.click(&send).await;
        }
    })
    .await;
}

fn send_hint(view: &str, hint: &str) -> String {
    hinted(view)
        .into_iter()
        .find(|(_, h)| h == hint)
        .map(|(r, _)| r)
        .unwrap_or_else(|| panic!("no {hint} in {view}"))
}

/// Every element a view names by its id or class: a line of its own
/// (`e7 clickable .like`) or an icon in brackets (`[e7 like e8 #send]`,
/// where a class has lost its dot); each as its ref and its hint without
/// the dot, in view order.
fn hinted(view: &str) -> Vec<(String, String)> {
    let is_ref =
        |w: &str| w.starts_with('e') && w.len() > 1 && w[1..].chars().all(|c| c.is_ascii_digit());
    let mut found = Vec::new();
    for line in view.lines() {
        if let Some((r, rest)) = line_ref(line)
            && let Some(hint) = rest.strip_prefix("clickable ")
            && (hint.starts_with('.') || hint.starts_with('#'))
            && !hint.contains(' ')
        {
            found.push((r.to_owned(), hint.trim_start_matches('.').to_owned()));
        }
        if let Some((_, icons)) = line.split_once('[') {
            let words: Vec<&str> = icons.trim_end().trim_end_matches(']').split(' ').collect();
            for pair in words.windows(2) {
                if is_ref(pair[0]) && !is_ref(pair[1]) {
                    found.push((pair[0].to_owned(), pair[1].to_owned()));
                }
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn social_media() {
    solve_all("social-media", async |e: &mut Episode| {
        // "For the user @kenda, click on the "Like" button."
        let user = between(&e.instruction, "For the user ", ",");
        let action = quoted(&e.instruction).remove(0);
        let feed = e.view("full").await;
        // The user's post, then its controls on one line:
        // `clickable [eA reply eB retweet eC like eD more]`.
        let after_user: Vec<&str> = feed
            .lines()
            .skip_while(|l| !l.contains(&format!("{user} ")))
            .skip(1)
            .collect();
        let controls: Vec<(String, String)> =
            hinted(&after_user.join("\n")).into_iter().take(4).collect();
        let control = |hint: &str| {
            controls
                .iter()
                .find(|(_, h)| h == hint)
                .map(|(r, _)| r.clone())
                .unwrap_or_else(|| panic!("no {hint} for {user} in {feed}"))
        };
        match action.as_str() {
            "Reply" | "Retweet" | "Like" => {
                e.click(&control(&action.to_lowercase())).await;
            }
            _ => {
                // The rest are in the post's "more" menu.
                // The icon swaps its image on hover, and a click can land
                // during the swap on the span around it: the diff then shows
                // no menu, and an agent reading it clicks again.
                let more = control("more");
                for _ in 0..3 {
                    let out = e.click(&more).await;
                    if out.text().contains("Share via DM") {
                        break;
                    }
                }
                let item = e.find(&action, "listitem").await;
                e.click(&item).await;
            }
        }
    })
    .await;
}
