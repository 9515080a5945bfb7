//! rove-input's test support: a fixture page in a launched browser; finding
//! refs the way an agent would (by name and role) and launching come from
//! `rove-testkit`.
#![allow(dead_code, unused_imports)]

use std::time::Duration;

use rove_browser::Browser;
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{PageModel, ViewOptions};
pub use rove_testkit::{events, find, find_exact, launch};

/// One fixture page, served on 127.0.0.1 and open in a fresh browser.
pub struct Page {
    pub browser: Browser,
    pub server: LocalServer,
    pub model: PageModel,
}

impl Page {
    /// Serves `tests/fixtures/<name>` and opens it, with a first view taken.
    pub async fn open(name: &str) -> Page {
        let path = format!("{}/tests/it/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
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
