//! The shop's forms: logging in and out, registering, the cart's buttons,
//! checking out, cancelling an order, the profile and the chat. Every
//! change is validated by the server, whatever the page's own checks said.

use rove_localserver::{Request, Response};

use crate::catalog;
use crate::shop::{self, Visitor};
use crate::store::{COUPON, Checkout, State};
use crate::web::{self, COOKIE, esc, field, input, page, see_other};

/// Where a login may send the browser next: only a path on this site,
/// else the account page. Browsers read a `Location` loosely (a backslash
/// as a slash, tabs and line breaks dropped), so anything that could read
/// as another host is refused: a scheme, a second slash at the start, any
/// backslash, control or space character, and an encoded slash, backslash,
/// `%` or break (`%2F`, `%5C`, `%25`, `%09`…). What is left is resolved
/// against this site and must stay on it.
fn next_path(next: &str) -> &str {
    if same_site_path(next) {
        next
    } else {
        "/account"
    }
}

fn same_site_path(next: &str) -> bool {
    let lower = next.to_ascii_lowercase();
    let plain = next.starts_with('/')
        && !next.starts_with("//")
        && !next.contains('\\')
        && !next.chars().any(|c| c.is_control() || c.is_whitespace())
        && !["%2f", "%5c", "%25", "%09", "%0a", "%0d"]
            .iter()
            .any(|encoded| lower.contains(encoded));
    if !plain {
        return false;
    }
    let Ok(site) = url::Url::parse("http://demo.invalid/") else {
        return false;
    };
    site.join(next)
        .is_ok_and(|to| to.origin() == site.origin() && to.path().starts_with('/'))
}

fn login_form(state: &mut State, visitor: &Visitor, next: &str, error: Option<&str>) -> Response {
    let error = error
        .map(|e| web::errors(&[e.to_owned()]))
        .unwrap_or_default();
    let body = format!(
        "{error}<form method=post action=\"/login\" aria-label=\"Log in\">\
         <input type=hidden name=next value=\"{}\">{}{}<button type=submit>Log in</button></form>\
         <p>No account? <a href=\"/register\">Register</a></p>",
        esc(next),
        input("Username", "username", "text", ""),
        input("Password", "password", "password", ""),
    );
    let mut response = page(&visitor.viewer(state), "Log in", &body);
    if error.is_empty() {
        response
    } else {
        response.status = 401;
        response
    }
}

fn with_cookie(response: Response, token: &str) -> Response {
    response.header(
        "Set-Cookie",
        &format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"),
    )
}

pub fn login(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    if request.method != "POST" {
        let next = field(&web::query(request), "next");
        return login_form(state, visitor, &next, None);
    }
    let form = web::form(request);
    let next = field(&form, "next");
    match state.login(&field(&form, "username"), &field(&form, "password")) {
        Some(token) => {
            if let Some(old) = &visitor.token {
                state.logout(old);
            }
            state.notice(&token, "You are logged in.");
            with_cookie(see_other(next_path(&next)), &token)
        }
        None => login_form(state, visitor, &next, Some("Wrong username or password")),
    }
}

pub fn logout(state: &mut State, visitor: &Visitor) -> Response {
    if let Some(token) = &visitor.token {
        state.logout(token);
    }
    see_other("/").header(
        "Set-Cookie",
        &format!("{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
    )
}

pub fn register(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let form = web::form(request);
    let user = field(&form, "username");
    let errors = if request.method == "POST" {
        match state.register(&user, &field(&form, "password"), &field(&form, "confirm")) {
            Ok(token) => {
                state.notice(&token, "Your account was created.");
                return with_cookie(see_other("/account"), &token);
            }
            Err(errors) => errors,
        }
    } else {
        Vec::new()
    };
    let body = format!(
        "{}<form method=post action=\"/register\" novalidate aria-label=Register>{}{}{}\
         <button type=submit>Create account</button></form>",
        web::errors(&errors),
        input("Username", "username", "text", &user),
        input("Password", "password", "password", ""),
        input("Confirm password", "confirm", "password", ""),
    );
    let mut response = page(&visitor.viewer(state), "Register", &body);
    if !errors.is_empty() {
        response.status = 422;
    }
    response
}

/// The logged-in account and its token, or the way to the login page.
fn logged_in(visitor: &Visitor, back_to: &str) -> Result<(String, String), Response> {
    match (&visitor.token, &visitor.user) {
        (Some(token), Some(user)) => Ok((token.clone(), user.clone())),
        _ => Err(shop::to_login(back_to)),
    }
}

pub fn cart_add(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let form = web::form(request);
    let sku = field(&form, "sku");
    let (token, user) = match logged_in(visitor, &format!("/product?id={}", web::enc(&sku))) {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let Some(product) = catalog::product(&sku) else {
        return Response::status(404);
    };
    let qty: u32 = field(&form, "qty").trim().parse().unwrap_or(0);
    if request.method != "POST" || !(1..=10).contains(&qty) || product.stock == 0 {
        state.notice(
            &token,
            format!(
                "Could not add {}: choose 1 to 10 of a product in stock.",
                product.name
            ),
        );
        return see_other(&format!("/product?id={sku}"));
    }
    if let Some(account) = state.account_mut(&user) {
        match account.cart.iter_mut().find(|l| l.product.sku == sku) {
            Some(line) => line.qty = (line.qty + qty).min(10),
            None => account.cart.push(crate::store::Line { product, qty }),
        }
    }
    state.notice(
        &token,
        format!("Added {qty} × {} to your cart.", product.name),
    );
    see_other("/cart")
}

pub fn cart_remove(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let (token, user) = match logged_in(visitor, "/cart") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let sku = field(&web::form(request), "sku");
    if request.method == "POST" {
        if let Some(account) = state.account_mut(&user) {
            account.cart.retain(|l| l.product.sku != sku);
            if account.cart.is_empty() {
                account.coupon = None;
            }
        }
        if let Some(p) = catalog::product(&sku) {
            state.notice(&token, format!("Removed {} from your cart.", p.name));
        }
    }
    see_other("/cart")
}

pub fn cart_clear(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let (token, user) = match logged_in(visitor, "/cart") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    if request.method == "POST" {
        if let Some(account) = state.account_mut(&user) {
            account.cart.clear();
            account.coupon = None;
        }
        state.notice(&token, "Your cart is now empty.");
    }
    see_other("/cart")
}

pub fn cart_coupon(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let (token, user) = match logged_in(visitor, "/cart") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let code = field(&web::form(request), "code");
    if request.method == "POST" {
        let notice = if code.trim().eq_ignore_ascii_case(COUPON) {
            if let Some(account) = state.account_mut(&user) {
                account.coupon = Some(COUPON);
            }
            format!("Coupon {COUPON} applied: 10% off.")
        } else {
            format!("Unknown coupon {:?}.", code.trim())
        };
        state.notice(&token, notice);
    }
    see_other("/cart")
}

pub fn checkout(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    if request.method != "POST" {
        return shop::checkout_form(state, visitor, &[], &[]);
    }
    let (token, user) = match logged_in(visitor, "/checkout") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let form = web::form(request);
    let details = Checkout {
        name: field(&form, "name"),
        address: field(&form, "address"),
        city: field(&form, "city"),
        postcode: field(&form, "postcode"),
        card: field(&form, "card"),
        shipping: field(&form, "shipping"),
    };
    match state.place_order(&user, &details) {
        Ok(id) => {
            state.notice(&token, format!("Thank you! Your order #{id} is placed."));
            see_other(&format!("/order?id={id}"))
        }
        Err(errors) => {
            // The card number is never echoed back into the page.
            let kept: Vec<(String, String)> =
                form.into_iter().filter(|(k, _)| k != "card").collect();
            shop::checkout_form(state, visitor, &kept, &errors)
        }
    }
}

pub fn cancel_order(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let id = field(&web::form(request), "id");
    let (token, user) = match logged_in(visitor, "/orders") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let number: u64 = id.parse().unwrap_or(0);
    if request.method == "POST" {
        let cancelled = state.account_mut(&user).and_then(|a| {
            a.orders
                .iter_mut()
                .find(|o| o.id == number && o.status == "placed")
                .map(|o| o.status = "cancelled")
        });
        if cancelled.is_some() {
            state.notice(&token, format!("Order #{number} was cancelled."));
        }
    }
    see_other(&format!("/order?id={number}"))
}

pub fn account(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    if request.method != "POST" {
        return shop::account(state, visitor);
    }
    let (token, user) = match logged_in(visitor, "/account") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let form = web::form(request);
    let name = field(&form, "display_name");
    let name = name.trim();
    let notice = if name.is_empty() || name.chars().count() > 40 {
        "Display name: 1 to 40 characters.".to_owned()
    } else {
        if let Some(account) = state.account_mut(&user) {
            account.display_name = name.to_owned();
            account.newsletter = field(&form, "newsletter") == "on";
        }
        "Your profile was saved.".to_owned()
    };
    state.notice(&token, notice);
    see_other("/account")
}

pub fn chat(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    if request.method != "POST" {
        return shop::chat(state, visitor);
    }
    let (token, user) = match logged_in(visitor, "/chat") {
        Ok(pair) => pair,
        Err(to_login) => return to_login,
    };
    let message = field(&web::form(request), "message");
    let message = message.trim();
    if !message.is_empty() && message.chars().count() <= 500 {
        if let Some(account) = state.account_mut(&user) {
            account.messages.push(message.to_owned());
        }
        state.notice(&token, "Message sent. We usually answer within a day.");
    }
    see_other("/chat")
}

#[cfg(test)]
mod tests {
    use super::next_path;

    #[test]
    fn a_login_goes_on_only_to_a_path_of_this_site() {
        for kept in ["/account", "/orders?page=2", "/products#lamp", "/a/b%20c"] {
            assert_eq!(next_path(kept), kept);
        }
        for foreign in [
            "//evil.test",
            "/\\evil.test",
            "\\\\evil.test",
            "/\\/evil.test",
            "https://evil.test/",
            "javascript:alert(1)",
            "evil.test",
            "/\t/evil.test",
            "/\n/evil.test",
            "/%2F/evil.test",
            "/%2fevil.test",
            "/%5Cevil.test",
            "/%252F%252Fevil.test",
            "/%09/evil.test",
            " //evil.test",
            "/\u{3000}/evil.test",
            "",
        ] {
            assert_eq!(next_path(foreign), "/account", "{foreign:?}");
        }
    }
}
