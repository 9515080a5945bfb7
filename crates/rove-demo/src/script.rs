//! The right moves for each task of the demo suite (examples/demo-tasks),
//! as the scripted model plays them: per step, the actions of one answer,
//! each aimed at an element by its role and name as rove's view shows
//! them. A task is recognised by a phrase of its text.

/// One action of a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Replace a field's value (`submit`: press Enter after).
    Fill(&'static str, &'static str, String, bool),
    /// Click an element.
    Click(&'static str, &'static str),
    /// Choose an option by its label.
    Select(&'static str, &'static str, &'static str),
    /// Tick a checkbox.
    Check(&'static str, &'static str),
    /// Answer the dialog that blocks the page.
    Dialog(bool),
    /// Finish with an answer and a verdict.
    Done(&'static str, bool),
}

use Act::{Check, Click, Dialog, Done, Fill, Select};

/// A task's steps, one answer each.
pub type Script = Vec<Vec<Act>>;

/// A task's script, played for an account.
type Play = fn(&Played) -> Script;

/// The login form filled and sent for `user`, with the password secret.
fn login(user: &str) -> Vec<Act> {
    vec![
        Fill("textbox", "Username", user.into(), false),
        Fill("textbox", "Password", "<secret>pw</secret>".into(), false),
        Click("button", "Log in"),
    ]
}

/// The checkout form for `name`, with `postcode`, `card` and `shipping`:
/// two steps, since the agent runs at most five actions per answer.
fn checkout(name: &str, postcode: &str, card: &str, shipping: &'static str) -> [Vec<Act>; 2] {
    [
        vec![
            Fill("textbox", "Full name", name.into(), false),
            Fill("textbox", "Address", "7 Test Road".into(), false),
            Fill("textbox", "City", "Springfield".into(), false),
            Fill("textbox", "Postcode", postcode.into(), false),
            Fill("textbox", "Card number", card.into(), false),
        ],
        vec![
            Select("combobox", "Shipping", shipping),
            Click("button", "Place order"),
        ],
    ]
}

/// Steps, with the checkout's two in their place.
fn with_checkout(before: Vec<Vec<Act>>, form: [Vec<Act>; 2], after: Vec<Act>) -> Script {
    let mut script = before;
    script.extend(form);
    script.push(after);
    script
}

const CARD: &str = "4242 4242 4242 4242";
const STANDARD: &str = "Standard (3–5 days)";
const EXPRESS: &str = "Express (next day)";

/// The script for a task, by a phrase of its text; `mistaken` plays the
/// task wrongly where the script knows a plausible mistake (and still
/// claims success, as a careless model would). Each task of the demo
/// suite holds exactly one phrase, so the order they are asked in does
/// not matter.
pub fn script_for(task: &str, mistaken: bool) -> Option<Script> {
    let task = task.to_lowercase();
    let played = Played {
        mistaken,
        user: account_in(&task),
    };
    account_scripts()
        .into_iter()
        .chain(catalogue_scripts())
        .chain(cart_scripts())
        .chain(checkout_scripts())
        .chain(order_scripts())
        .chain(support_scripts())
        .find(|(phrase, _)| task.contains(phrase))
        .map(|(_, script)| script(&played))
}

/// The account suite: logging in and out, registering, the account page.
fn account_scripts() -> [(&'static str, Play); 6] {
    [
        ("log in to the demo shop as ann", |p: &Played| {
            vec![login(&p.user), vec![Done("Logged in as ann", true)]]
        }),
        ("username newcomer", |p: &Played| {
            vec![
                vec![
                    Fill("textbox", "Username", p.user.clone(), false),
                    Fill("textbox", "Password", "<secret>pw</secret>".into(), false),
                    Fill(
                        "textbox",
                        "Confirm password",
                        "<secret>pw</secret>".into(),
                        false,
                    ),
                    Click("button", "Create account"),
                ],
                vec![Done("Registered newcomer", true)],
            ]
        }),
        ("as quin", |p: &Played| {
            vec![
                vec![
                    Fill("textbox", "Username", p.user.clone(), false),
                    Fill("textbox", "Password", "not-the-password".into(), false),
                    Click("button", "Log in"),
                ],
                vec![Done("Wrong username or password", true)],
            ]
        }),
        ("as rex", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("link", "Log out")],
                vec![Done("Logged out", true)],
            ]
        }),
        ("as oli", |p: &Played| {
            vec![
                login(&p.user),
                vec![
                    Fill("textbox", "Display name", "Olivia".into(), false),
                    Click("button", "Save"),
                ],
                vec![Done("Display name is Olivia", true)],
            ]
        }),
        ("as pam", |p: &Played| {
            vec![
                login(&p.user),
                vec![
                    Check("checkbox", "Send me the newsletter"),
                    Click("button", "Save"),
                ],
                vec![Done("Subscribed", true)],
            ]
        }),
    ]
}

/// The catalogue suite: searching, filtering, a product's page.
fn catalogue_scripts() -> [(&'static str, Play); 3] {
    [
        ("search the catalogue for lamp", |_: &Played| {
            vec![
                vec![Fill("searchbox", "Search", "lamp".into(), true)],
                vec![Done("2", true)],
            ]
        }),
        ("cheapest kitchen product", |_: &Played| {
            vec![
                vec![
                    Select("combobox", "Category", "kitchen"),
                    Fill("textbox", "Max price", "45".into(), false),
                    Select("combobox", "Sort", "Price: low to high"),
                    Click("button", "Apply"),
                ],
                vec![Done("Coffee Mug", true)],
            ]
        }),
        ("is the stapler in stock", |_: &Played| {
            vec![vec![Click("link", "Stapler")], vec![Done("no", true)]]
        }),
    ]
}

/// The cart suite: adding, changing, removing, emptying.
fn cart_scripts() -> [(&'static str, Play); 5] {
    [
        ("as cat", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("button", "Add to cart")],
                vec![Done("Added a Desk Lamp", true)],
            ]
        }),
        ("as dan", |p: &Played| {
            vec![
                login(&p.user),
                vec![
                    Fill("spinbutton", "Quantity", "2".into(), false),
                    Click("button", "Add to cart"),
                ],
                vec![Done("Added two Coffee Mugs", true)],
            ]
        }),
        ("as hal", |p: &Played| {
            vec![
                login(&p.user),
                vec![
                    Fill("textbox", "Coupon code", "SAVE10".into(), false),
                    Click("button", "Apply coupon"),
                ],
                vec![Done("Coupon applied", true)],
            ]
        }),
        ("as ivy", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("button", "Remove Fountain Pen")],
                vec![Done("Removed the pen", true)],
            ]
        }),
        ("as jon", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("button", "Empty cart")],
                vec![Dialog(true)],
                vec![Done("The cart is empty", true)],
            ]
        }),
    ]
}

/// The checkout suite: orders placed (or refused) through the form.
fn checkout_scripts() -> [(&'static str, Play); 4] {
    [
        ("as eve", |p: &Played| {
            with_checkout(
                vec![
                    login(&p.user),
                    vec![Click("button", "Add to cart")],
                    vec![Click("link", "Proceed to checkout")],
                ],
                checkout("Eve Example", "12345", CARD, STANDARD),
                vec![Done("Order placed", true)],
            )
        }),
        ("as gus", |p: &Played| {
            with_checkout(
                vec![
                    login(&p.user),
                    vec![Click("button", "Add to cart")],
                    vec![Click("link", "Proceed to checkout")],
                ],
                checkout(
                    "Gus Example",
                    "12345",
                    CARD,
                    if p.mistaken { STANDARD } else { EXPRESS },
                ),
                vec![Done("Order placed with express shipping", true)],
            )
        }),
        ("as fay", |p: &Played| {
            with_checkout(
                vec![login(&p.user)],
                checkout("Fay Example", "12AB", CARD, STANDARD),
                vec![Done("Postcode: must be exactly 5 digits", true)],
            )
        }),
        ("as sue", |p: &Played| {
            with_checkout(
                vec![
                    login(&p.user),
                    vec![Click("button", "Add to cart")],
                    vec![Click("link", "Proceed to checkout")],
                ],
                checkout("Sue Example", "12345", "<secret>card</secret>", STANDARD),
                vec![Done("Order placed", true)],
            )
        }),
    ]
}

/// The orders suite: the order history, an invoice, a cancelled order.
fn order_scripts() -> [(&'static str, Play); 3] {
    [
        ("as kim", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("link", "Order #1001")],
                vec![Done("$28.99", true)],
            ]
        }),
        ("as lea", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("link", "Download invoice")],
                vec![Done("Downloaded invoice-1002.txt", true)],
            ]
        }),
        ("as max", |p: &Played| {
            vec![
                login(&p.user),
                vec![Click("button", "Cancel order")],
                vec![Dialog(true)],
                vec![Done("Order #1003 is cancelled", true)],
            ]
        }),
    ]
}

/// The support suite: the live chat.
fn support_scripts() -> [(&'static str, Play); 1] {
    [("as ned", |p: &Played| {
        vec![
            login(&p.user),
            vec![Click("button", "Open live chat")],
            vec![
                Fill("textbox", "Message", "Where is my order?".into(), false),
                Click("button", "Send"),
            ],
            vec![Done("Sent the message", true)],
        ]
    })]
}

/// What a script is played with: whether to make its mistake, and the
/// account the task names (`as cat-2`: numbered copies of the seeded
/// accounts run the same script).
#[derive(Debug, Clone)]
pub struct Played {
    mistaken: bool,
    user: String,
}

/// The account a task names: the word after "as " or "username ".
fn account_in(task: &str) -> String {
    ["username ", " as "]
        .iter()
        .find_map(|marker| {
            let at = task.find(marker)? + marker.len();
            task[at..].split_whitespace().next()
        })
        .unwrap_or_default()
        .trim_end_matches([',', '.', ';'])
        .to_owned()
}
