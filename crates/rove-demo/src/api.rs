//! The JSON API that `verify: http` checks read: the state of one account,
//! named by `?user=` (a check runs outside the browser, without its
//! cookie) or, when no user is named, by the session cookie (for `js`
//! checks that `fetch` from the page). Read-only: nothing here changes the
//! shop.

use rove_localserver::{Request, Response};
use serde_json::{Value, json};

use crate::catalog::{self, Search};
use crate::shop::Visitor;
use crate::store::{Account, State};
use crate::web::{self, field};

/// The account a request is about (made, when it is a numbered copy of a
/// seeded one, so a check before any login still sees its start).
fn subject(state: &mut State, visitor: &Visitor, request: &Request) -> Result<String, Response> {
    let named = field(&web::query(request), "user");
    let user = if named.is_empty() {
        visitor.user.clone().unwrap_or_default()
    } else {
        named
    };
    state.ensure(&user);
    if state.account(&user).is_some() {
        Ok(user)
    } else {
        let body = json!({"error": format!("no account {user:?}: name one with ?user= or log in")});
        Err(Response::with_type(
            404,
            "application/json",
            body.to_string().into_bytes(),
        ))
    }
}

/// Answers with `show` of the request's account.
fn about(
    state: &mut State,
    visitor: &Visitor,
    request: &Request,
    show: impl Fn(&State, &Account) -> Value,
) -> Response {
    match subject(state, visitor, request) {
        Ok(user) => match state.account(&user) {
            Some(account) => web::json(&show(state, account)),
            None => Response::status(404),
        },
        Err(response) => response,
    }
}

/// `/api/session`: who this browser is logged in as.
pub fn session(visitor: &Visitor) -> Response {
    web::json(&json!({"logged_in": visitor.user.is_some(), "user": visitor.user}))
}

/// `/api/account`: the whole account.
pub fn account(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    about(state, visitor, request, |state, a| {
        json!({
            "user": a.user,
            "display_name": a.display_name,
            "newsletter": a.newsletter,
            "logged_in": state.logged_in(&a.user),
            "logins": a.logins,
            "cart": a.cart_json(),
            "orders": a.orders_json(),
            "messages": a.messages,
        })
    })
}

/// `/api/cart`: the cart.
pub fn cart(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    about(state, visitor, request, |_, a| a.cart_json())
}

/// `/api/orders`: the orders, newest first.
pub fn orders(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    about(state, visitor, request, |_, a| a.orders_json())
}

/// `/api/messages`: what the account sent the live chat, oldest first.
pub fn messages(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    about(state, visitor, request, |_, a| json!(a.messages))
}

/// `/api/products`: the catalogue search, as the products page does it.
pub fn products(request: &Request) -> Response {
    let q = web::query(request);
    let found: Value = catalog::search(&Search {
        query: field(&q, "q"),
        category: field(&q, "category"),
        max_price: catalog::parse_money(&field(&q, "max_price")),
        sort: field(&q, "sort"),
    })
    .iter()
    .map(|p| json!({"sku": p.sku, "name": p.name, "category": p.category, "price": p.price, "stock": p.stock}))
    .collect();
    web::json(&found)
}
