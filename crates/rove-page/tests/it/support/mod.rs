//! Fixture pages served on two 127.0.0.1 ports, and a launched browser.
#![allow(dead_code, unused_imports)]

use std::time::Duration;

use rove_browser::{Browser, Tab};
use rove_localserver::{LocalServer, Response, Routes};
use rove_page::{PageModel, Ref};

pub const FIXTURES: [&str; 16] = [
    "apps.html",
    "inline-block.html",
    "impersonation.html",
    "invisible.html",
    "forms.html",
    "tables.html",
    "lists.html",
    "shadow.html",
    "hidden.html",
    "live.html",
    "dialogs.html",
    "clickables.html",
    "frames.html",
    "inner.html",
    "controls.html",
    "text-runs.html",
];

pub struct Env {
    pub main: LocalServer,
    pub other: LocalServer,
    pub browser: Browser,
}

fn fixture(name: &str, other_port: u16) -> String {
    let path = format!("{}/tests/it/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("fixture {path}: {e}"))
        .replace("OTHER_PORT", &other_port.to_string())
}

/// A table of `rows` rows, each with a button.
pub fn big_table(rows: usize) -> String {
    let mut html = String::from(
        "<!doctype html><title>Big table</title><h1>Inventory</h1><table><thead><tr><th>Item</th><th>Stock</th><th>Action</th></tr></thead><tbody>",
    );
    for i in 1..=rows {
        html.push_str(&format!(
            "<tr><td>Item {i}</td><td>{}</td><td><button>Edit {i}</button></td></tr>",
            i * 7 % 100
        ));
    }
    html.push_str("</tbody></table><footer><a href=\"/help\">Help</a></footer>");
    html.push_str("<script>window.change = () => { document.querySelector('tbody tr td').textContent = 'Item one'; };</script>");
    html
}

async fn serve(other_port: u16) -> LocalServer {
    let mut routes = Routes::new();
    for name in FIXTURES {
        routes = routes.page(
            &format!("/{name}"),
            Response::html(fixture(name, other_port)),
        );
    }
    routes = routes
        .page("/big-table.html", Response::html(big_table(10_000)))
        .page(
            "/mutations.html",
            Response::html(include_str!("../fixtures/mutations.html")),
        );
    LocalServer::start(routes).await.expect("fixture server")
}

impl Env {
    pub async fn start() -> Env {
        // The second server must know the first's port and the other way
        // round only for frames.html, which points at the second.
        let other = serve(0).await;
        let main = serve(other.addr().port()).await;
        let browser = rove_testkit::launch().await;
        Env {
            main,
            other,
            browser,
        }
    }

    /// A fresh context and tab on `path`, and its page model.
    pub async fn open(&self, path: &str) -> PageModel {
        let tab = self.tab().await;
        tab.goto(&self.main.url(&format!("/{path}")), Duration::from_secs(20))
            .await
            .expect("load fixture");
        PageModel::new(tab)
    }

    pub async fn tab(&self) -> Tab {
        let context = self.browser.new_context().await.expect("context");
        context.new_tab().await.expect("tab")
    }

    /// Replaces the servers' ports, which change on every run.
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.main.addr().port().to_string(), "PORT")
            .replace(&self.other.addr().port().to_string(), "OTHER_PORT")
    }

    pub async fn close(self) {
        self.browser.close().await;
    }
}

/// The ref of the first find match for `text`, optionally of `role`.
pub async fn find_ref(model: &mut PageModel, text: &str, role: Option<&str>) -> Ref {
    rove_testkit::find(model, text, role).await
}

/// Evaluates `body` (a function body using `this`) on the element a ref names.
pub async fn on_element(model: &mut PageModel, r: Ref, body: &str) -> serde_json::Value {
    let element = model
        .element(r)
        .await
        .unwrap_or_else(|e| panic!("{r}: {e}"));
    let call = rove_cdp::protocol::runtime::CallFunctionOn {
        object_id: Some(element.object_id.clone()),
        function_declaration: format!("function() {{ {body} }}"),
        return_by_value: Some(true),
        ..Default::default()
    };
    let answer = element.session.send(&call).await.expect("callFunctionOn");
    answer.result.value.unwrap_or_default()
}

/// Every `eN <role> "name"` line of a view, as (ref, name).
pub fn named_refs(text: &str) -> Vec<(Ref, String)> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim_start().trim_start_matches("- ");
            let mut parts = line.splitn(2, ' ');
            let r: Ref = parts.next()?.parse().ok()?;
            let rest = parts.next()?;
            let start = rest.find('"')? + 1;
            let end = start + rest[start..].find('"')?;
            Some((r, rest[start..end].to_owned()))
        })
        .collect()
}
