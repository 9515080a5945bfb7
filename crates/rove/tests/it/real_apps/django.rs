//! Django's admin through rove: log in, create a group with permissions in
//! the two-pane widget, add a user, edit the user with the calendar and
//! clock widgets, and find the user in the change list. Every end state is
//! read from the database.

use std::time::Duration;

use crate::real_apps::apps::{self, DJANGO_ADMIN, DJANGO_PASSWORD};
use crate::real_apps::driver::{Rove, items};

/// The first line of `text` that contains `needle`.
fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
}

/// The ref of `role "name"` on the line of `text` that contains `row`: the
/// "Add" link in the row of "Groups".
fn in_row(text: &str, row: &str, role: &str, name: &str) -> String {
    crate::real_apps::driver::pick(line_with(text, row), role, |n| n == Some(name))
        .unwrap_or_else(|| panic!("no {role} {name:?} in the row of {row:?}:\n{text}"))
}

/// The nameless links after the line `marker` (the calendar and clock icons
/// of a date/time field come right after its label), in order.
fn icons_after(text: &str, marker: &str) -> Vec<String> {
    let from = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in:\n{text}"));
    items(&text[from..])
        .into_iter()
        .filter(|i| i.role == "link" && i.name.is_none())
        .map(|i| i.reference)
        .collect()
}

/// A calendar caption ("NOVEMBER 2026") as `2026-11`.
fn month_of(caption: &str) -> String {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let (month, year) = caption
        .trim()
        .split_once(' ')
        .unwrap_or_else(|| panic!("not a month: {caption:?}"));
    let number = MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(month))
        .unwrap_or_else(|| panic!("not a month: {caption:?}"))
        + 1;
    format!("{year}-{number:02}")
}

/// The month the calendar in the last answer shows, from its caption.
fn calendar_month(rove: &Rove) -> String {
    let caption = items(&rove.last)
        .into_iter()
        .filter(|i| i.role == "table")
        .find_map(|i| {
            i.name
                .filter(|n| n.split(' ').count() == 2 && n.ends_with(|c: char| c.is_ascii_digit()))
        })
        .unwrap_or_else(|| panic!("no calendar in rove's answer:\n{}", rove.last));
    month_of(&caption)
}

async fn log_in(rove: &mut Rove) {
    let django = apps::django();
    rove.task("django: log in");
    rove.run(&["open", &format!("{}admin/", django.url)]).await;
    let user = rove.pick("textbox", "Username:");
    let password = rove.pick("textbox", "Password:");
    rove.run(&["fill", &user, DJANGO_ADMIN]).await;
    rove.run(&["fill", &password, DJANGO_PASSWORD, "--submit"])
        .await;
    assert!(
        rove.last.contains("h1 \"Site administration\""),
        "not logged in:\n{}",
        rove.last
    );
}

#[tokio::test]
async fn django_admin_creates_a_group_with_permissions_in_the_two_pane_widget() {
    let django = apps::django();
    let mut rove = Rove::new("django_group");
    log_in(&mut rove).await;

    rove.task("django: create a group with three permissions");
    let add = in_row(&rove.last, "link \"Groups\"", "link", "Add");
    rove.run(&["click", &add]).await;
    let name = rove.pick("textbox", "Name:");
    let save = rove.pick("button", "Save");
    let available = rove.pick_prefix("listbox", "Available permissions");
    rove.run(&["fill", &name, "Reviewers"]).await;
    rove.run(&[
        "select",
        &available,
        "Authentication and Authorization | user | Can view user",
        "Authentication and Authorization | user | Can change user",
        "Authentication and Authorization | group | Can view group",
    ])
    .await;
    let choose = rove.pick("button", "Choose selected permissions");
    rove.run(&["click", &choose]).await;
    assert!(
        line_with(&rove.last, "listbox \"Chosen permissions").contains("Can change user"),
        "the chosen pane does not list the permissions:\n{}",
        rove.last
    );
    rove.run(&["click", &save]).await;
    assert!(
        rove.last.contains("was added successfully"),
        "no confirmation:\n{}",
        rove.last
    );

    let group = apps::eventually(
        "the group is in the database",
        Duration::from_secs(10),
        || {
            let group = django.query("group", &["Reviewers"]);
            if group["exists"] == true {
                Ok(group)
            } else {
                Err(group.to_string())
            }
        },
    );
    assert_eq!(
        group["permissions"],
        serde_json::json!(["auth.change_user", "auth.view_group", "auth.view_user"]),
        "the group's permissions in the database"
    );
}

#[tokio::test]
async fn django_admin_adds_a_user_edits_it_with_the_date_widgets_and_finds_it() {
    let django = apps::django();
    let mut rove = Rove::new("django_user");
    log_in(&mut rove).await;

    rove.task("django: add a user");
    let add = in_row(&rove.last, "link \"Users\"", "link", "Add");
    rove.run(&["click", &add]).await;
    let username = rove.pick("textbox", "Username:");
    let password = rove.pick("textbox", "Password:");
    let confirmation = rove.pick("textbox", "Password confirmation:");
    let and_edit = rove.pick("button", "Save and continue editing");
    rove.run(&["fill", &username, "ada"]).await;
    rove.run(&["fill", &password, "Analytical-Engine-1843"])
        .await;
    rove.run(&["fill", &confirmation, "Analytical-Engine-1843"])
        .await;
    rove.run(&["click", &and_edit]).await;
    assert!(
        rove.last.contains("h1 \"Change user\""),
        "not on the user's page:\n{}",
        rove.last
    );
    let added = django.query("user", &["ada", "Analytical-Engine-1843"]);
    assert_eq!(added["exists"], true, "the user is in the database");
    assert_eq!(added["password_ok"], true, "the password works: {added}");
    assert_eq!(added["last_login"], serde_json::Value::Null);

    rove.task("django: edit the user (name, staff, dates with the calendar and clock) and save");
    let page = rove.last.clone();
    let first = rove.pick("textbox", "First name:");
    let last = rove.pick("textbox", "Last name:");
    let staff = rove.pick("checkbox", "Staff status");
    let save = rove.pick("button", "Save");
    let last_login = icons_after(&page, "Last login:");
    let date_joined = icons_after(&page, "Date joined:");
    rove.run(&["fill", &first, "Ada"]).await;
    rove.run(&["fill", &last, "Lovelace"]).await;
    rove.run(&["check", &staff]).await;
    // Last login: the calendar, a month back, the 15th; the clock, 6 a.m.
    rove.run(&["click", &last_login[0]]).await;
    let previous = rove.pick("link", "<");
    rove.run(&["click", &previous]).await;
    let login_month = calendar_month(&rove);
    let fifteenth = rove.pick("link", "15");
    rove.run(&["click", &fifteenth]).await;
    rove.run(&["click", &last_login[1]]).await;
    let six = rove.pick("link", "6 a.m.");
    rove.run(&["click", &six]).await;
    // Date joined: the calendar's 1st of the month it opens on; midnight.
    rove.run(&["click", &date_joined[0]]).await;
    let joined_month = calendar_month(&rove);
    let first_day = rove.pick("link", "1");
    rove.run(&["click", &first_day]).await;
    rove.run(&["click", &date_joined[1]]).await;
    let midnight = rove.pick("link", "Midnight");
    rove.run(&["click", &midnight]).await;
    rove.run(&["click", &save]).await;
    assert!(
        rove.last.contains("was changed successfully"),
        "no confirmation:\n{}",
        rove.last
    );

    rove.task("django: find the user in the change list");
    let search = rove.pick("textbox", "Search");
    rove.run(&["fill", &search, "Lovelace", "--submit"]).await;
    let row = line_with(&rove.last, "link \"ada\"");
    assert!(
        row.contains("Ada") && row.contains("Lovelace") && row.contains("img \"True\""),
        "the change list's row: {row}"
    );

    let user = django.query("user", &["ada", "Analytical-Engine-1843"]);
    assert_eq!(user["first_name"], "Ada", "{user}");
    assert_eq!(user["last_name"], "Lovelace", "{user}");
    assert_eq!(user["is_staff"], true, "{user}");
    assert_eq!(user["is_superuser"], false, "{user}");
    assert_eq!(
        user["last_login"],
        format!("{login_month}-15 06:00:00"),
        "{user}"
    );
    assert_eq!(
        user["date_joined"],
        format!("{joined_month}-01 00:00:00"),
        "{user}"
    );
    assert_eq!(user["password_ok"], true, "{user}");
}
