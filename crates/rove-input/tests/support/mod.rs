//! Shared helpers for rove-input's tests: a fixture page in a launched
//! browser, and finding refs the way an agent would (by name and role).
#![allow(dead_code)]

use std::time::Duration;

use rove_browser::{Browser, LaunchOptions};
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{FindQuery, PageModel, Ref, ViewOptions};
use serde_json::Value;

/// One fixture page, served on 127.0.0.1 and open in a fresh browser.
pub struct Page {
    pub browser: Browser,
    pub server: LocalServer,
    pub model: PageModel,
}

impl Page {
    /// Serves `tests/fixtures/<name>` and opens it, with a first view taken.
    pub async fn open(name: &str) -> Page {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let server =
            LocalServer::start(Routes::new().page(&format!("/{name}"), Response::html(html)))
                .await
                .expect("server");
        let browser = launch().await;
        let tab = browser
            .new_context()
            .await
            .expect("context")
            .new_tab()
            .await
            .expect("tab");
        tab.goto(&server.url(&format!("/{name}")), Duration::from_secs(10))
            .await
            .expect("load");
        let mut model = PageModel::new(tab);
        model.view(&ViewOptions::default()).await.expect("view");
        Page {
            browser,
            server,
            model,
        }
    }

    pub async fn close(self) {
        self.browser.close().await;
    }
}

/// Launches the system Chromium; fails (never skips) when it is missing.
pub async fn launch() -> Browser {
    Browser::launch(LaunchOptions::default())
        .await
        .unwrap_or_else(|e| panic!("launching Chromium failed (is it installed?): {e}"))
}

/// The first element whose name, value or text contains `text`.
pub async fn find(model: &mut PageModel, text: &str, role: Option<&str>) -> Ref {
    let found = model
        .find(&FindQuery {
            text: text.into(),
            role: role.map(str::to_owned),
            limit: Some(1),
        })
        .await
        .expect("find");
    *found
        .matches
        .first()
        .unwrap_or_else(|| panic!("no {role:?} {text:?} in {}", found.text))
}

/// The element of `role` named exactly `name` (find matches substrings).
pub async fn find_exact(model: &mut PageModel, name: &str, role: &str) -> Ref {
    let found = model
        .find(&FindQuery {
            text: name.into(),
            role: Some(role.into()),
            limit: Some(20),
        })
        .await
        .expect("find");
    let wanted = format!("{role} \"{name}\"");
    found
        .text
        .lines()
        .skip(1)
        .zip(&found.matches)
        .find(|(line, _)| line.contains(&wanted))
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("no {wanted} in {}", found.text))
}

/// The events the fixture recorded in `window.events`, taken out.
pub async fn events(model: &PageModel) -> Vec<Value> {
    let taken = model
        .tab()
        .evaluate("window.events.splice(0)")
        .await
        .expect("events");
    taken.as_array().cloned().unwrap_or_default()
}
