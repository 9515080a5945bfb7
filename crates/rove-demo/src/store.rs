//! The shop's state, kept in memory for as long as the server runs:
//! accounts with their carts, orders and chat messages, and the login
//! sessions (a random token in a cookie, pointing at an account).
//!
//! Everything a task changes lives under one account, so attempts that use
//! different accounts (or none) never see each other's state, however many
//! run at once.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hasher};

use serde_json::{Value, json};

use crate::catalog::{self, Product};

/// The password of every seeded account (tasks take it from a secret).
pub const SEED_PASSWORD: &str = "demo-pass";

/// The only coupon the shop accepts: 10 % off the goods.
pub const COUPON: &str = "SAVE10";

/// Shipping prices in cents.
pub const STANDARD_SHIPPING: u64 = 499;
/// Express costs more and is never free.
pub const EXPRESS_SHIPPING: u64 = 1499;
/// Goods worth at least this ship for free (standard only).
pub const FREE_SHIPPING_FROM: u64 = 5000;

/// One line of a cart or an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Which product.
    pub product: &'static Product,
    /// How many.
    pub qty: u32,
}

/// A placed order.
#[derive(Debug, Clone)]
pub struct Order {
    /// Its number, as pages and invoices show it.
    pub id: u64,
    /// `placed` or `cancelled`.
    pub status: &'static str,
    /// What was bought.
    pub lines: Vec<Line>,
    /// The goods, before any discount.
    pub subtotal: u64,
    /// What the coupon took off.
    pub discount: u64,
    /// What shipping cost.
    pub shipping_cost: u64,
    /// `standard` or `express`.
    pub shipping: &'static str,
    /// Who it goes to.
    pub name: String,
    /// The street address.
    pub address: String,
    /// The city.
    pub city: String,
    /// Five digits.
    pub postcode: String,
    /// The card's last four digits (the rest is never kept).
    pub card_last4: String,
}

impl Order {
    /// What was charged.
    pub fn total(&self) -> u64 {
        self.subtotal - self.discount + self.shipping_cost
    }

    /// The order as the API shows it.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id,
            "status": self.status,
            "items": lines_json(&self.lines),
            "subtotal": self.subtotal,
            "discount": self.discount,
            "shipping": self.shipping,
            "shipping_cost": self.shipping_cost,
            "total": self.total(),
            "name": self.name,
            "address": self.address,
            "city": self.city,
            "postcode": self.postcode,
            "card_last4": self.card_last4,
        })
    }
}

fn lines_json(lines: &[Line]) -> Value {
    lines
        .iter()
        .map(|l| json!({"sku": l.product.sku, "name": l.product.name, "qty": l.qty, "price": l.product.price}))
        .collect()
}

/// An account and everything it owns.
#[derive(Debug, Clone)]
pub struct Account {
    /// The login name.
    pub user: String,
    password: String,
    /// What the pages greet the user with.
    pub display_name: String,
    /// Whether the user wants the newsletter.
    pub newsletter: bool,
    /// The cart.
    pub cart: Vec<Line>,
    /// A coupon applied to the cart.
    pub coupon: Option<&'static str>,
    /// Orders, oldest first.
    pub orders: Vec<Order>,
    /// What the user sent the live chat, oldest first.
    pub messages: Vec<String>,
    /// Successful logins so far.
    pub logins: u64,
}

impl Account {
    fn new(user: &str, password: &str) -> Account {
        let mut display_name = user.to_owned();
        if let Some(first) = display_name.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        Account {
            user: user.to_owned(),
            password: password.to_owned(),
            display_name,
            newsletter: false,
            cart: Vec::new(),
            coupon: None,
            orders: Vec::new(),
            messages: Vec::new(),
            logins: 0,
        }
    }

    /// The goods in the cart.
    pub fn subtotal(&self) -> u64 {
        self.cart
            .iter()
            .map(|l| l.product.price * u64::from(l.qty))
            .sum()
    }

    /// What the coupon takes off the cart.
    pub fn discount(&self) -> u64 {
        if self.coupon.is_some() {
            self.subtotal() / 10
        } else {
            0
        }
    }

    /// Items in the cart, counting quantities.
    pub fn cart_count(&self) -> u32 {
        self.cart.iter().map(|l| l.qty).sum()
    }

    /// The cart as the API shows it.
    pub fn cart_json(&self) -> Value {
        json!({
            "items": lines_json(&self.cart),
            "count": self.cart_count(),
            "subtotal": self.subtotal(),
            "discount": self.discount(),
            "coupon": self.coupon,
        })
    }

    /// Orders, newest first, as the API shows them.
    pub fn orders_json(&self) -> Value {
        self.orders.iter().rev().map(Order::json).collect()
    }
}

/// What checking out needs besides the cart (validated by the server).
#[derive(Debug, Clone, Default)]
pub struct Checkout {
    /// The recipient's name.
    pub name: String,
    /// The street address.
    pub address: String,
    /// The city.
    pub city: String,
    /// Five digits.
    pub postcode: String,
    /// Sixteen digits, spaces allowed.
    pub card: String,
    /// `standard` or `express`.
    pub shipping: String,
}

/// The whole state.
#[derive(Debug)]
pub struct State {
    accounts: BTreeMap<String, Account>,
    /// Session token → account name.
    sessions: HashMap<String, String>,
    /// A message for the next page a session sees.
    notices: HashMap<String, String>,
    next_order: u64,
    tokens: std::collections::hash_map::RandomState,
    minted: u64,
}

/// The accounts the shop starts with: one per task of the demo suite and
/// some to spare, all with [`SEED_PASSWORD`].
pub const SEEDED: [&str; 26] = [
    "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea", "max",
    "ned", "oli", "pam", "quin", "rex", "sue", "tom", "uma", "vic", "wes", "xia", "yan", "zoe",
];

fn line(sku: &str, qty: u32) -> Option<Line> {
    catalog::product(sku).map(|product| Line { product, qty })
}

/// Seeded account `base` as it starts, under the name `user`: some have a
/// cart or a past order (with the same number in every copy, since orders
/// are looked up per account).
fn seeded(base: &str, user: &str) -> Account {
    let mut account = Account::new(base, SEED_PASSWORD);
    account.user = user.to_owned();
    let cart: &[(&str, u32)] = match base {
        "fay" => &[("notebook", 1)],
        "hal" => &[("kettle", 1)],
        "ivy" => &[("mug", 1), ("pen", 1)],
        "jon" => &[("bulb", 2), ("notebook", 1)],
        _ => &[],
    };
    account.cart = cart.iter().filter_map(|(s, q)| line(s, *q)).collect();
    let past = match base {
        "kim" => Some((1001, "mug", 2, "standard")),
        "lea" => Some((1002, "kettle", 1, "standard")),
        "max" => Some((1003, "chair", 1, "express")),
        _ => None,
    };
    if let Some((id, sku, qty, shipping)) = past {
        let lines: Vec<Line> = line(sku, qty).into_iter().collect();
        let subtotal = lines
            .iter()
            .map(|l| l.product.price * u64::from(l.qty))
            .sum();
        account.orders.push(Order {
            id,
            status: "placed",
            lines,
            subtotal,
            discount: 0,
            shipping_cost: shipping_cost(shipping, subtotal),
            shipping,
            name: format!("{} Example", account.display_name),
            address: "1 Demo Street".into(),
            city: "Springfield".into(),
            postcode: "12345".into(),
            card_last4: "4242".into(),
        });
    }
    account
}

/// What shipping costs for goods worth `goods` (after any discount).
fn shipping_cost(shipping: &str, goods: u64) -> u64 {
    match shipping {
        "express" => EXPRESS_SHIPPING,
        _ if goods >= FREE_SHIPPING_FROM => 0,
        _ => STANDARD_SHIPPING,
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// The seeded shop: some accounts start with a cart or past orders,
    /// for the tasks that need them.
    pub fn new() -> State {
        State {
            accounts: SEEDED
                .iter()
                .map(|u| ((*u).to_owned(), seeded(u, u)))
                .collect(),
            sessions: HashMap::new(),
            notices: HashMap::new(),
            // Orders placed by people start at a round number, after the
            // seeded ones, so tasks can tell them apart.
            next_order: 2001,
            tokens: std::collections::hash_map::RandomState::new(),
            minted: 0,
        }
    }

    /// Makes `user` exist when it is a numbered copy of a seeded account
    /// (`cat-2`, `cat-3` … up to `-999`), starting as that account did:
    /// so one suite can run many times at once, each copy on accounts of
    /// its own.
    pub fn ensure(&mut self, user: &str) {
        if self.accounts.contains_key(user) {
            return;
        }
        let Some((base, number)) = user.rsplit_once('-') else {
            return;
        };
        let numbered =
            number.parse::<u16>().is_ok_and(|n| (2..=999).contains(&n)) && !number.starts_with('0');
        if numbered && SEEDED.contains(&base) {
            self.accounts.insert(user.to_owned(), seeded(base, user));
        }
    }

    /// An account.
    pub fn account(&self, user: &str) -> Option<&Account> {
        self.accounts.get(user)
    }

    /// An account, to change it.
    pub fn account_mut(&mut self, user: &str) -> Option<&mut Account> {
        self.accounts.get_mut(user)
    }

    /// Whether `user` has a live login session.
    pub fn logged_in(&self, user: &str) -> bool {
        self.sessions.values().any(|u| u == user)
    }

    /// The account a session token belongs to.
    pub fn user_of(&self, token: &str) -> Option<&str> {
        self.sessions.get(token).map(String::as_str)
    }

    fn mint(&mut self) -> String {
        self.minted += 1;
        let mut hasher = self.tokens.build_hasher();
        hasher.write_u64(self.minted);
        let high = hasher.finish();
        hasher.write_u64(high);
        format!("{high:016x}{:016x}", hasher.finish())
    }

    /// A new session for `user` when the password is right.
    pub fn login(&mut self, user: &str, password: &str) -> Option<String> {
        self.ensure(user);
        let account = self.accounts.get_mut(user)?;
        if account.password != password {
            return None;
        }
        account.logins += 1;
        let token = self.mint();
        self.sessions.insert(token.clone(), user.to_owned());
        Some(token)
    }

    /// Ends a session.
    pub fn logout(&mut self, token: &str) {
        self.sessions.remove(token);
        self.notices.remove(token);
    }

    /// Creates an account and logs it in; the reasons it was refused
    /// otherwise.
    pub fn register(
        &mut self,
        user: &str,
        password: &str,
        confirm: &str,
    ) -> Result<String, Vec<String>> {
        let mut errors = Vec::new();
        let valid_name = (3..=20).contains(&user.len())
            && user
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid_name {
            errors.push("Username: 3 to 20 lower-case letters, digits or dashes".to_owned());
        } else if self.accounts.contains_key(user) {
            errors.push(format!("Username: {user} is taken"));
        }
        if password.chars().count() < 8 {
            errors.push("Password: at least 8 characters".to_owned());
        } else if password != confirm {
            errors.push("Confirm password: the passwords differ".to_owned());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        self.accounts
            .insert(user.to_owned(), Account::new(user, password));
        self.login(user, password)
            .ok_or_else(|| vec!["the new account could not log in".to_owned()])
    }

    /// Leaves a message for the session's next page.
    pub fn notice(&mut self, token: &str, text: impl Into<String>) {
        self.notices.insert(token.to_owned(), text.into());
    }

    /// Takes the session's message, if any.
    pub fn take_notice(&mut self, token: &str) -> Option<String> {
        self.notices.remove(token)
    }

    /// Places an order from `user`'s cart; the reasons it was refused
    /// otherwise (per field, as the form shows them).
    pub fn place_order(&mut self, user: &str, details: &Checkout) -> Result<u64, Vec<String>> {
        let id = self.next_order;
        let account = self
            .accounts
            .get_mut(user)
            .ok_or_else(|| vec!["no such account".to_owned()])?;
        let errors = validate(account, details);
        if !errors.is_empty() {
            return Err(errors);
        }
        let shipping: &'static str = if details.shipping == "express" {
            "express"
        } else {
            "standard"
        };
        let subtotal = account.subtotal();
        let discount = account.discount();
        let shipping_cost = shipping_cost(shipping, subtotal - discount);
        let digits: String = details.card.chars().filter(char::is_ascii_digit).collect();
        account.orders.push(Order {
            id,
            status: "placed",
            lines: std::mem::take(&mut account.cart),
            subtotal,
            discount,
            shipping_cost,
            shipping,
            name: details.name.trim().to_owned(),
            address: details.address.trim().to_owned(),
            city: details.city.trim().to_owned(),
            postcode: details.postcode.trim().to_owned(),
            card_last4: digits.get(12..).unwrap_or_default().to_owned(),
        });
        account.coupon = None;
        self.next_order += 1;
        Ok(id)
    }
}

/// Luhn's checksum, which every real card number passes.
fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 1 {
                let d = d * 2;
                if d > 9 { d - 9 } else { d }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

fn validate(account: &Account, details: &Checkout) -> Vec<String> {
    let mut errors = Vec::new();
    if account.cart.is_empty() {
        errors.push("Cart: your cart is empty".to_owned());
    }
    for (field, value) in [
        ("Full name", &details.name),
        ("Address", &details.address),
        ("City", &details.city),
    ] {
        if value.trim().is_empty() {
            errors.push(format!("{field}: required"));
        } else if value.chars().count() > 100 {
            errors.push(format!("{field}: at most 100 characters"));
        }
    }
    let postcode = details.postcode.trim();
    if postcode.len() != 5 || !postcode.chars().all(|c| c.is_ascii_digit()) {
        errors.push("Postcode: must be exactly 5 digits".to_owned());
    }
    let card: String = details.card.chars().filter(|c| *c != ' ').collect();
    if card.len() != 16 || !card.chars().all(|c| c.is_ascii_digit()) || !luhn(&card) {
        errors.push("Card number: not a valid card number".to_owned());
    }
    if !matches!(details.shipping.as_str(), "standard" | "express") {
        errors.push("Shipping: choose standard or express".to_owned());
    }
    errors
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
