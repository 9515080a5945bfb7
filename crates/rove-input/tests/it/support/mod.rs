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
        let mut model = load(&browser, &server.url(&format!("/{name}"))).await;
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

/// Pages served on 127.0.0.1 and on another site (`localhost`: Chromium
/// gives a frame from there a process of its own), in a fresh browser.
/// `PORT` in a page is the other site's port.
pub struct TwoSites {
    pub server: LocalServer,
    _other: LocalServer,
    pub browser: Browser,
}

impl TwoSites {
    /// Serves `pages` (path, HTML) on both sites.
    pub async fn start(pages: &[(&str, &str)]) -> TwoSites {
        let routes = |port: u16| {
            pages.iter().fold(Routes::new(), |routes, (path, html)| {
                routes.page(
                    path,
                    Response::html(html.replace("PORT", &port.to_string())),
                )
            })
        };
        let other = LocalServer::start(routes(0)).await.expect("server");
        let server = LocalServer::start(routes(other.addr().port()))
            .await
            .expect("server");
        TwoSites {
            server,
            _other: other,
            browser: launch().await,
        }
    }

    /// `path` loaded in a tab of a fresh context, no view taken yet.
    pub async fn open(&self, path: &str) -> PageModel {
        load(&self.browser, &self.server.url(path)).await
    }

    /// [`TwoSites::open`], with a first view taken.
    pub async fn open_viewed(&self, path: &str) -> PageModel {
        let mut model = self.open(path).await;
        model
            .view(&ViewOptions::default())
            .await
            .expect("first view");
        model
    }
}

/// `url` loaded in a tab of a fresh context of `browser`, no view taken.
pub async fn load(browser: &Browser, url: &str) -> PageModel {
    let tab = browser
        .new_context()
        .await
        .expect("context")
        .new_tab()
        .await
        .expect("tab");
    tab.goto(url, Duration::from_secs(10)).await.expect("load");
    PageModel::new(tab)
}
