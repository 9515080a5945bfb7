//! MiniWoB++ tasks solved end to end with rove's public calls only: the view,
//! `find`, and the actions, finding every target by role and name the way an
//! agent would, never by CSS selector or script. Each task must earn a
//! positive reward on 5 seeds. The pages come from PyPI (`miniwob` 1.1.0,
//! fetched by scripts/fetch-miniwob.sh); the seed is set before the START
//! cover is clicked, like the Python harness does.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use rove_browser::{Browser, LaunchOptions};
use rove_input::{ClickOptions, TypeOptions, click, fill, select_options, set_checked, type_text};
use rove_localserver::{LocalServer, Routes};
use rove_page::{Mode, PageModel, Ref, ViewOptions};
use support::{find, find_exact};

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
            .unwrap_or_else(|e| panic!("Chromium: {e}"));
        Run {
            _server: server,
            browser,
            base,
        }
    }

    /// Opens a task with a seed and clicks START; returns the model and the
    /// task's instruction as the view shows it.
    async fn episode(&self, task: &str, seed: u32) -> (PageModel, String) {
        let tab = self
            .browser
            .new_context()
            .await
            .expect("context")
            .new_tab()
            .await
            .expect("tab");
        tab.goto(
            &format!("{}{task}.html", self.base),
            Duration::from_secs(10),
        )
        .await
        .expect("load");
        // Test setup, as the Python harness does: the seed of the episode.
        tab.evaluate(&format!("Math.seedrandom('{seed}')"))
            .await
            .expect("seed");
        let mut model = PageModel::new(tab);
        let start = find(&mut model, "START", None).await;
        click(&mut model, start, &ClickOptions::default())
            .await
            .expect("click START");
        let view = model.view(&ViewOptions::default()).await.expect("view");
        let instruction = view.text.lines().nth(1).unwrap_or_default().to_owned();
        (model, instruction)
    }
}

/// The refs of every line of `role` in the interactive view, in page order.
async fn all_of(model: &mut PageModel, role: &str) -> Vec<Ref> {
    let view = model
        .view(&ViewOptions::mode(Mode::Interactive))
        .await
        .expect("view");
    view.text
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let r: Ref = parts.next()?.parse().ok()?;
            // `e1 combobox: Value` when unnamed: the role ends at the colon.
            (parts.next()?.trim_end_matches(':') == role).then_some(r)
        })
        .collect()
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

async fn reward(model: &PageModel) -> f64 {
    // Reading the score is the harness's job, not the agent's.
    model
        .tab()
        .evaluate("WOB_REWARD_GLOBAL")
        .await
        .expect("reward")
        .as_f64()
        .unwrap_or(-1.0)
}

async fn solve_all(task: &str, solve: impl AsyncFn(&mut PageModel, &str)) {
    let run = Run::start().await;
    for seed in SEEDS {
        let (mut model, instruction) = run.episode(task, seed).await;
        solve(&mut model, &instruction).await;
        let r = reward(&model).await;
        assert!(
            r > 0.0,
            "{task} seed {seed}: reward {r} for {instruction:?}"
        );
    }
    run.browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_button() {
    solve_all(
        "click-button",
        async |model: &mut PageModel, instruction: &str| {
            let name = quoted(instruction).remove(0);
            let button = find(model, &name, Some("button")).await;
            click(model, button, &ClickOptions::default())
                .await
                .expect("click");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_link() {
    solve_all(
        "click-link",
        async |model: &mut PageModel, instruction: &str| {
            // The task's "links" are spans with a pointer cursor: the view shows
            // them as clickable, which is what an agent would look for.
            let name = quoted(instruction).remove(0);
            let link = find(model, &name, Some("clickable")).await;
            click(model, link, &ClickOptions::default())
                .await
                .expect("click");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_text() {
    solve_all(
        "enter-text",
        async |model: &mut PageModel, instruction: &str| {
            let text = quoted(instruction).remove(0);
            let field = all_of(model, "textbox").await.remove(0);
            type_text(model, field, &text, &TypeOptions::default())
                .await
                .expect("type");
            let submit = find(model, "Submit", Some("button")).await;
            click(model, submit, &ClickOptions::default())
                .await
                .expect("submit");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_user() {
    solve_all(
        "login-user",
        async |model: &mut PageModel, instruction: &str| {
            let words = quoted(instruction);
            let fields = all_of(model, "textbox").await;
            assert_eq!(fields.len(), 2, "username and password fields");
            fill(model, fields[0], &words[0]).await.expect("username");
            fill(model, fields[1], &words[1]).await.expect("password");
            let login = find(model, "Login", Some("button")).await;
            click(model, login, &ClickOptions::default())
                .await
                .expect("login");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn focus_text() {
    solve_all(
        "focus-text",
        async |model: &mut PageModel, _instruction: &str| {
            let field = all_of(model, "textbox").await.remove(0);
            click(model, field, &ClickOptions::default())
                .await
                .expect("focus");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_checkboxes() {
    solve_all(
        "click-checkboxes",
        async |model: &mut PageModel, instruction: &str| {
            // "Select abc, xyz and click Submit." (or "Select nothing and …").
            let list = instruction
                .trim_start_matches("Select ")
                .split(" and click")
                .next()
                .unwrap_or_default();
            let wanted: Vec<&str> = list
                .split(", ")
                .filter(|w| !w.is_empty() && *w != "nothing")
                .collect();
            for word in wanted {
                let checkbox = find_exact(model, word, "checkbox").await;
                set_checked(model, checkbox, true).await.expect("check");
            }
            let submit = find(model, "Submit", Some("button")).await;
            click(model, submit, &ClickOptions::default())
                .await
                .expect("submit");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn choose_list() {
    solve_all(
        "choose-list",
        async |model: &mut PageModel, instruction: &str| {
            // "Select Kiribati from the list and click Submit."
            let choice = instruction
                .trim_start_matches("Select ")
                .split(" from the list")
                .next()
                .unwrap_or_default();
            let list = all_of(model, "combobox").await.remove(0);
            select_options(model, list, &[choice.to_owned()])
                .await
                .expect("select");
            let submit = find(model, "Submit", Some("button")).await;
            click(model, submit, &ClickOptions::default())
                .await
                .expect("submit");
        },
    )
    .await;
}
