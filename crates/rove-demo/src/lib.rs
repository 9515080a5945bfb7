//! The offline demo shop that `rove demo-site` serves and rove's own tests
//! run task suites against: a small but real multi-page web application on
//! 127.0.0.1, with its state kept in memory on the server.
//!
//! - accounts (seeded ones, and registration) and login sessions in a cookie;
//! - a catalogue with search, a category filter, a price ceiling and sorting;
//! - a cart (quantities, removal, a coupon, emptying it behind a `confirm`
//!   dialog) and a checkout form the server validates;
//! - an order history, orders that can be cancelled (another `confirm`) and
//!   invoices to download;
//! - a help page whose live chat opens in a popup;
//! - a read-only JSON API (`/api/account`, `/api/cart`, `/api/orders`,
//!   `/api/messages`, `/api/session`, `/api/products`) that `verify: http`
//!   checks read.
//!
//! State belongs to accounts: attempts that use different accounts never
//! see each other's carts or orders, however many run at once. Each seeded
//! account also comes in numbered copies (`cat-2` … `cat-999`) that start
//! as it does, so a suite can run many times over at once with each copy
//! on accounts of its own (bench/demo-suite.sh does).
//!
//! [`model`] holds a scripted model that plays the demo task suite
//! (examples/demo-tasks) over OpenAI's wire format, for tests and
//! benchmarks that must not depend on a real model.

#![forbid(unsafe_code)]

use std::sync::{Arc, Mutex};

use rove_localserver::{LocalServer, Request, Response, Routes};

pub mod api;
pub mod catalog;
mod forms;
pub mod model;
mod script;
mod shop;
pub mod store;
mod web;

pub use store::{SEED_PASSWORD, SEEDED};

type Shared = Arc<Mutex<store::State>>;

/// A running demo shop. Stops serving when dropped.
#[derive(Debug)]
pub struct DemoSite {
    server: LocalServer,
    state: Shared,
}

impl DemoSite {
    /// Serves a freshly seeded shop on 127.0.0.1:`port` (0: a free port).
    pub async fn start(port: u16) -> std::io::Result<DemoSite> {
        let state: Shared = Arc::default();
        let server = LocalServer::start_on(routes(&state), port).await?;
        Ok(DemoSite { server, state })
    }

    /// `http://127.0.0.1:PORT` (no trailing slash: what `${ROVE_DEMO_URL}`
    /// holds).
    pub fn url(&self) -> String {
        self.server.url("")
    }

    /// The shop's state as the API shows an account (`None`: no such
    /// account), for tests that look behind the pages.
    pub fn account_json(&self, user: &str) -> Option<serde_json::Value> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let request = Request {
            method: "GET".into(),
            path: "/api/account".into(),
            query: format!("user={user}"),
            headers: Vec::new(),
            body: Vec::new(),
        };
        let response = api::account(&mut state, &shop::Visitor::default(), &request);
        (response.status == 200)
            .then(|| serde_json::from_slice(&response.body).ok())
            .flatten()
    }
}

/// A page handler: the state (locked for the request), who asks, the request.
type Page = fn(&mut store::State, &shop::Visitor, &Request) -> Response;

fn routes(state: &Shared) -> Routes {
    let pages: [(&str, Page); 24] = [
        ("/", |s, v, _| shop::home(s, v)),
        ("/products", shop::products),
        ("/product", shop::product),
        ("/cart", |s, v, _| shop::cart(s, v)),
        ("/cart/add", forms::cart_add),
        ("/cart/remove", forms::cart_remove),
        ("/cart/clear", forms::cart_clear),
        ("/cart/coupon", forms::cart_coupon),
        ("/checkout", forms::checkout),
        ("/orders", |s, v, _| shop::orders(s, v)),
        ("/order", shop::order),
        ("/order/cancel", forms::cancel_order),
        ("/invoice", shop::invoice),
        ("/login", forms::login),
        ("/logout", |s, v, _| forms::logout(s, v)),
        ("/register", forms::register),
        ("/account", forms::account),
        ("/help", |s, v, _| shop::help(s, v)),
        ("/chat", forms::chat),
        ("/api/session", |_, v, _| api::session(v)),
        ("/api/account", api::account),
        ("/api/cart", api::cart),
        ("/api/orders", api::orders),
        ("/api/messages", api::messages),
    ];
    let mut routes = Routes::new().handle("/api/products", api::products);
    for (path, page) in pages {
        let state = Arc::clone(state);
        routes = routes.handle(path, move |request: &Request| {
            // A handler that panicked poisons nothing we cannot read on.
            let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
            let visitor = shop::Visitor::of(request, &state);
            page(&mut state, &visitor, request)
        });
    }
    routes
}
