//! What every page needs: reading forms, queries and the session cookie,
//! escaping text into HTML, and the shared layout with its navigation.

use rove_localserver::{Request, Response};

/// Text made safe inside HTML elements and quoted attributes (rove's one
/// escaping).
pub use rove_base::text::html_escaped as esc;

/// The cookie that carries a login session.
pub const COOKIE: &str = "rove_demo_session";

/// The `name=value` pairs of a query string or a form body, decoded.
pub fn pairs(text: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(text.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// The first value of `name`, or empty.
pub fn field(pairs: &[(String, String)], name: &str) -> String {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// The request's query.
pub fn query(request: &Request) -> Vec<(String, String)> {
    pairs(&request.query)
}

/// The request's form body.
pub fn form(request: &Request) -> Vec<(String, String)> {
    pairs(&String::from_utf8_lossy(&request.body))
}

/// The session token the browser sent, if any.
pub fn token(request: &Request) -> Option<String> {
    request
        .headers
        .iter()
        .filter(|(k, _)| k == "cookie")
        .flat_map(|(_, v)| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_owned())
}

/// A value made safe inside a URL's query.
pub fn enc(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Who is looking at a page: for the navigation bar.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// The logged-in account, if any.
    pub user: Option<String>,
    /// Items in its cart.
    pub cart_count: u32,
    /// A one-off message from the last action.
    pub notice: Option<String>,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;color:#222}\
header{background:#234;padding:.6em 1em}header a{color:#fff;margin-right:1em;text-decoration:none}\
main{padding:1em 2em;max-width:60em}label{display:block;margin:.4em 0}\
.notice{background:#e7f6e7;border:1px solid #7b7;padding:.5em}\
.errors{background:#fbe9e9;border:1px solid #c77;padding:.5em}\
table{border-collapse:collapse}td,th{border-bottom:1px solid #ccc;padding:.3em .8em;text-align:left}";

/// A whole page: the layout around `body`, titled `title`.
pub fn page(viewer: &Viewer, title: &str, body: &str) -> Response {
    let account = match &viewer.user {
        Some(user) => format!(
            "<a href=\"/account\">Account ({})</a><a href=\"/logout\">Log out</a>",
            esc(user)
        ),
        None => "<a href=\"/login\">Log in</a><a href=\"/register\">Register</a>".to_owned(),
    };
    let notice = viewer
        .notice
        .as_deref()
        .map(|n| format!("<p class=notice role=status>{}</p>", esc(n)))
        .unwrap_or_default();
    Response::html(format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8>\
         <title>{title} · Rove Demo Shop</title><style>{STYLE}</style></head><body>\
         <header><nav aria-label=Main><a href=\"/\">Rove Demo Shop</a><a href=\"/products\">Products</a>\
         <a href=\"/cart\">Cart ({count})</a><a href=\"/orders\">Orders</a><a href=\"/help\">Help</a>{account}</nav></header>\
         <main><h1>{title}</h1>{notice}{body}</main></body></html>",
        title = esc(title),
        count = viewer.cart_count,
    ))
}

/// A list of what was wrong with a form.
pub fn errors(errors: &[String]) -> String {
    if errors.is_empty() {
        return String::new();
    }
    let items: String = errors
        .iter()
        .map(|e| format!("<li>{}</li>", esc(e)))
        .collect();
    format!("<div class=errors role=alert><p>Please fix the following:</p><ul>{items}</ul></div>")
}

/// A labelled text field. The label names it by `for=` rather than by
/// wrapping it: a wrapping label's text includes the field's own value in
/// the accessible name the specification computes, which would make a
/// field's name change as it is filled.
pub fn input(label: &str, name: &str, kind: &str, value: &str) -> String {
    format!(
        "<p><label for=\"f-{name}\">{}</label> <input id=\"f-{name}\" name=\"{name}\" type=\"{kind}\" value=\"{}\"></p>",
        esc(label),
        esc(value)
    )
}

/// A JSON answer.
pub fn json(value: &serde_json::Value) -> Response {
    Response::with_type(200, "application/json", value.to_string().into_bytes())
}

/// A redirect after a form was handled (the browser then GETs `to`).
pub fn see_other(to: &str) -> Response {
    Response::status(303).header("Location", to)
}
