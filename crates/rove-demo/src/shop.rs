//! The shop's pages that show things: home, catalogue, product, cart,
//! orders, account, help and the live chat popup. (Forms are handled in
//! `forms.rs`, the JSON API in `api.rs`.)

use rove_localserver::{Request, Response};

use crate::catalog::{self, CATEGORIES, Search, money};
use crate::store::{Account, Order, State};
use crate::web::{self, Viewer, enc, esc, field, input, page};

/// Who sent a request: their session token and account, if logged in.
#[derive(Debug, Clone, Default)]
pub struct Visitor {
    /// The session cookie's token.
    pub token: Option<String>,
    /// The account it is logged into.
    pub user: Option<String>,
}

impl Visitor {
    /// Reads the cookie and looks it up.
    pub fn of(request: &Request, state: &State) -> Visitor {
        let token = web::token(request);
        let user = token
            .as_deref()
            .and_then(|t| state.user_of(t))
            .map(str::to_owned);
        Visitor { token, user }
    }

    /// The navigation bar's view of the visitor; takes any notice.
    pub fn viewer(&self, state: &mut State) -> Viewer {
        let cart_count = self
            .user
            .as_deref()
            .and_then(|u| state.account(u))
            .map_or(0, Account::cart_count);
        let notice = self.token.as_deref().and_then(|t| state.take_notice(t));
        Viewer {
            user: self.user.clone(),
            cart_count,
            notice,
        }
    }
}

/// To the login page, coming back to `path` afterwards.
pub fn to_login(path_and_query: &str) -> Response {
    web::see_other(&format!("/login?next={}", enc(path_and_query)))
}

pub fn home(state: &mut State, visitor: &Visitor) -> Response {
    let greeting = match &visitor.user {
        Some(user) => format!(
            "<p>Welcome back, {}.</p>",
            esc(state
                .account(user)
                .map_or(user.as_str(), |a| a.display_name.as_str()))
        ),
        None => "<p>Welcome! <a href=\"/login\">Log in</a> to shop.</p>".to_owned(),
    };
    let body = format!(
        "{greeting}<p>Lamps, desks, mugs and pens, shipped in a day. Standard shipping is free from {}.</p>\
         <p><a href=\"/products\">Browse all products</a></p>",
        money(crate::store::FREE_SHIPPING_FROM)
    );
    page(&visitor.viewer(state), "Rove Demo Shop", &body)
}

pub fn products(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let q = web::query(request);
    let max_text = field(&q, "max_price");
    let search = Search {
        query: field(&q, "q"),
        category: field(&q, "category"),
        max_price: catalog::parse_money(&max_text),
        sort: field(&q, "sort"),
    };
    let found = catalog::search(&search);
    let option = |value: &str, label: &str, chosen: &str| {
        format!(
            "<option value=\"{value}\"{}>{label}</option>",
            if value == chosen { " selected" } else { "" }
        )
    };
    let categories: String = std::iter::once(option("", "All categories", &search.category))
        .chain(CATEGORIES.iter().map(|c| option(c, c, &search.category)))
        .collect();
    let sorts: String = [
        ("", "Featured"),
        ("price", "Price: low to high"),
        ("price_desc", "Price: high to low"),
        ("name", "Name"),
    ]
    .iter()
    .map(|(v, l)| option(v, l, &search.sort))
    .collect();
    let rows: String = found
        .iter()
        .map(|p| {
            format!(
                "<li class=product><a href=\"/product?id={}\">{}</a> · <span class=price>{}</span> · {}{}</li>",
                p.sku,
                esc(p.name),
                money(p.price),
                p.category,
                if p.stock == 0 { " · out of stock" } else { "" }
            )
        })
        .collect();
    let body = format!(
        "<form method=get action=\"/products\" role=search aria-label=\"Filter products\">\
         {}<label for=category>Category</label> <select id=category name=category>{categories}</select>\
         {}<label for=sort>Sort</label> <select id=sort name=sort>{sorts}</select>\
         <button type=submit>Apply</button></form>\
         <p id=count>{} products found</p><ul id=results>{rows}</ul>",
        input("Search", "q", "search", &search.query),
        input("Max price", "max_price", "text", &max_text),
        found.len()
    );
    page(&visitor.viewer(state), "Products", &body)
}

pub fn product(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let sku = field(&web::query(request), "id");
    let Some(p) = catalog::product(&sku) else {
        let mut response = page(
            &visitor.viewer(state),
            "Not found",
            "<p>No such product.</p>",
        );
        response.status = 404;
        return response;
    };
    let buy = if p.stock == 0 {
        "<p><strong>Out of stock</strong></p>".to_owned()
    } else {
        format!(
            "<p>{} in stock</p><form method=post action=\"/cart/add\"><input type=hidden name=sku value=\"{}\">\
             <label for=qty>Quantity</label> <input id=qty name=qty type=number min=1 max=10 value=1>\
             <button type=submit>Add to cart</button></form>",
            p.stock, p.sku
        )
    };
    let body = format!(
        "<p class=price>{}</p><p>{}</p><p>Category: {}</p>{buy}<p><a href=\"/products\">Back to products</a></p>",
        money(p.price),
        esc(p.description),
        p.category
    );
    page(&visitor.viewer(state), p.name, &body)
}

pub fn cart(state: &mut State, visitor: &Visitor) -> Response {
    let Some(user) = visitor.user.clone() else {
        return to_login("/cart");
    };
    let viewer = visitor.viewer(state);
    let Some(account) = state.account(&user) else {
        return to_login("/cart");
    };
    if account.cart.is_empty() {
        return page(
            &viewer,
            "Your cart",
            "<p>Your cart is empty.</p><p><a href=\"/products\">Browse products</a></p>",
        );
    }
    let rows: String = account
        .cart
        .iter()
        .map(|l| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><form method=post action=\"/cart/remove\">\
                 <input type=hidden name=sku value=\"{}\"><button type=submit aria-label=\"Remove {}\">Remove</button></form></td></tr>",
                esc(l.product.name),
                l.qty,
                money(l.product.price),
                money(l.product.price * u64::from(l.qty)),
                l.product.sku,
                esc(l.product.name)
            )
        })
        .collect();
    let coupon = match account.coupon {
        Some(code) => format!(
            "<p id=discount>Coupon {code}: −{}</p>",
            money(account.discount())
        ),
        None => {
            "<form method=post action=\"/cart/coupon\"><label for=code>Coupon code</label> <input id=code name=code>\
                 <button type=submit>Apply coupon</button></form>"
                .to_owned()
        }
    };
    let body = format!(
        "<table id=cart><tr><th>Product</th><th>Qty</th><th>Price</th><th>Total</th><th></th></tr>{rows}</table>\
         <p id=subtotal>Subtotal: {}</p>{coupon}\
         <p><a href=\"/checkout\">Proceed to checkout</a></p>\
         <form method=post action=\"/cart/clear\" onsubmit=\"return confirm('Remove everything from your cart?')\">\
         <button type=submit>Empty cart</button></form>",
        money(account.subtotal())
    );
    page(&viewer, "Your cart", &body)
}

/// The checkout form, with what was typed and what was wrong.
pub fn checkout_form(
    state: &mut State,
    visitor: &Visitor,
    values: &[(String, String)],
    errors: &[String],
) -> Response {
    let Some(user) = visitor.user.clone() else {
        return to_login("/checkout");
    };
    let viewer = visitor.viewer(state);
    let (count, due) = state
        .account(&user)
        .map_or((0, 0), |a| (a.cart_count(), a.subtotal() - a.discount()));
    let shipping = field(values, "shipping");
    let choice = |value: &str, label: &str| {
        format!(
            "<option value={value}{}>{label}</option>",
            if shipping == value { " selected" } else { "" }
        )
    };
    let body = format!(
        "{}<p>{count} items, {} before shipping.</p>\
         <form method=post action=\"/checkout\" novalidate aria-label=Checkout>{}{}{}{}{}\
         <label for=shipping>Shipping</label> <select id=shipping name=shipping>{}{}</select>\
         <button type=submit>Place order</button></form>",
        web::errors(errors),
        money(due),
        input("Full name", "name", "text", &field(values, "name")),
        input("Address", "address", "text", &field(values, "address")),
        input("City", "city", "text", &field(values, "city")),
        input("Postcode", "postcode", "text", &field(values, "postcode")),
        input("Card number", "card", "text", &field(values, "card")),
        choice("standard", "Standard (3–5 days)"),
        choice("express", "Express (next day)"),
    );
    let mut response = page(&viewer, "Checkout", &body);
    if !errors.is_empty() {
        response.status = 422;
    }
    response
}

pub fn orders(state: &mut State, visitor: &Visitor) -> Response {
    let Some(user) = visitor.user.clone() else {
        return to_login("/orders");
    };
    let viewer = visitor.viewer(state);
    let rows: String = state
        .account(&user)
        .map(|a| {
            a.orders
                .iter()
                .rev()
                .map(|o| {
                    format!(
                        "<tr><td><a href=\"/order?id={id}\">Order #{id}</a></td><td>{}</td><td>{}</td></tr>",
                        o.status,
                        money(o.total()),
                        id = o.id
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let body = if rows.is_empty() {
        "<p>You have no orders yet.</p>".to_owned()
    } else {
        format!(
            "<table id=orders><tr><th>Order</th><th>Status</th><th>Total</th></tr>{rows}</table>"
        )
    };
    page(&viewer, "Your orders", &body)
}

fn find_order<'a>(state: &'a State, user: &str, id: &str) -> Option<&'a Order> {
    let id: u64 = id.parse().ok()?;
    state.account(user)?.orders.iter().find(|o| o.id == id)
}

pub fn order(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let id = field(&web::query(request), "id");
    let Some(user) = visitor.user.clone() else {
        return to_login(&format!("/order?id={}", enc(&id)));
    };
    let viewer = visitor.viewer(state);
    let Some(o) = find_order(state, &user, &id) else {
        let mut response = page(&viewer, "Not found", "<p>No such order.</p>");
        response.status = 404;
        return response;
    };
    let lines: String = o
        .lines
        .iter()
        .map(|l| format!("<li>{} × {}</li>", l.qty, esc(l.product.name)))
        .collect();
    let cancel = if o.status == "placed" {
        format!(
            "<form method=post action=\"/order/cancel\" onsubmit=\"return confirm('Cancel order #{id}? This cannot be undone.')\">\
             <input type=hidden name=id value={id}><button type=submit>Cancel order</button></form>",
            id = o.id
        )
    } else {
        String::new()
    };
    let body = format!(
        "<p id=status>Status: {}</p><ul id=lines>{lines}</ul>\
         <p>Shipping: {} ({})</p><p id=total>Total: {}</p><p>Ship to: {}, {}, {} {}</p><p>Paid with the card ending in {}</p>\
         <p><a href=\"/invoice?id={id}\" download>Download invoice</a></p>{cancel}\
         <p><a href=\"/orders\">All orders</a></p>",
        o.status,
        o.shipping,
        money(o.shipping_cost),
        money(o.total()),
        esc(&o.name),
        esc(&o.address),
        esc(&o.postcode),
        esc(&o.city),
        esc(&o.card_last4),
        id = o.id
    );
    page(&viewer, &format!("Order #{}", o.id), &body)
}

/// The invoice as a text file the browser downloads.
pub fn invoice(state: &mut State, visitor: &Visitor, request: &Request) -> Response {
    let id = field(&web::query(request), "id");
    let Some(user) = visitor.user.clone() else {
        return to_login(&format!("/invoice?id={}", enc(&id)));
    };
    let Some(o) = find_order(state, &user, &id) else {
        return Response::status(404);
    };
    let mut text = format!(
        "Rove Demo Shop\nInvoice #{}\nBilled to: {}, {}, {} {}\n\n",
        o.id, o.name, o.address, o.postcode, o.city
    );
    for l in &o.lines {
        text.push_str(&format!(
            "{} x {} @ {} = {}\n",
            l.qty,
            l.product.name,
            money(l.product.price),
            money(l.product.price * u64::from(l.qty))
        ));
    }
    text.push_str(&format!(
        "\nSubtotal: {}\nDiscount: {}\nShipping ({}): {}\nTotal: {}\nStatus: {}\n",
        money(o.subtotal),
        money(o.discount),
        o.shipping,
        money(o.shipping_cost),
        money(o.total()),
        o.status
    ));
    Response::with_type(200, "text/plain; charset=utf-8", text.into_bytes()).header(
        "Content-Disposition",
        &format!("attachment; filename=\"invoice-{}.txt\"", o.id),
    )
}

pub fn account(state: &mut State, visitor: &Visitor) -> Response {
    let Some(user) = visitor.user.clone() else {
        return to_login("/account");
    };
    let viewer = visitor.viewer(state);
    let Some(a) = state.account(&user) else {
        return to_login("/account");
    };
    let body = format!(
        "<p id=welcome>Welcome, {}!</p><p>You are logged in as {}.</p>\
         <form method=post action=\"/account\" aria-label=Profile>{}\
         <p><input type=checkbox id=newsletter name=newsletter value=on{}> <label for=newsletter>Send me the newsletter</label></p>\
         <button type=submit>Save</button></form>",
        esc(&a.display_name),
        esc(&a.user),
        input("Display name", "display_name", "text", &a.display_name),
        if a.newsletter { " checked" } else { "" }
    );
    page(&viewer, "Your account", &body)
}

pub fn help(state: &mut State, visitor: &Visitor) -> Response {
    let body = "<p>Questions about an order? Our team answers in the live chat, which opens in a small window.</p>\
        <button type=button onclick=\"window.open('/chat', 'chat', 'width=420,height=560')\">Open live chat</button>\
        <h2>Shipping</h2><p>Standard shipping takes 3–5 days; express arrives the next day.</p>";
    page(&visitor.viewer(state), "Help", body)
}

/// The live chat (opened as a popup by the help page).
pub fn chat(state: &mut State, visitor: &Visitor) -> Response {
    let Some(user) = visitor.user.clone() else {
        return to_login("/chat");
    };
    let viewer = visitor.viewer(state);
    let sent: String = state
        .account(&user)
        .map(|a| {
            a.messages
                .iter()
                .map(|m| format!("<li>You: {}</li>", esc(m)))
                .collect()
        })
        .unwrap_or_default();
    let body = format!(
        "<ul id=messages>{sent}</ul><form method=post action=\"/chat\" aria-label=Chat>\
         <label for=message>Message</label> <input id=message name=message><button type=submit>Send</button></form>"
    );
    page(&viewer, "Live chat", &body)
}
