//! Refs found on a page model the way an agent finds them: by text and role.

use rove_page::{FindQuery, PageModel, Ref};
use serde_json::Value;

/// The first element whose name, value or text contains `text` (of `role`
/// when given).
pub async fn find(model: &mut PageModel, text: &str, role: Option<&str>) -> Ref {
    let found = model
        .find(&FindQuery {
            text: text.into(),
            role: role.map(str::to_owned),
            limit: Some(1),
        })
        .await
        .expect("find"); // ok: test support, a failed set-up fails the test
    *found
        .matches
        .first()
        .unwrap_or_else(|| panic!("no {role:?} {text:?} in {}", found.text))
}

/// The element of `role` named exactly `name` (`find` matches substrings).
pub async fn find_exact(model: &mut PageModel, name: &str, role: &str) -> Ref {
    let found = model
        .find(&FindQuery {
            text: name.into(),
            role: Some(role.into()),
            limit: Some(20),
        })
        .await
        .expect("find"); // ok: test support, a failed set-up fails the test
    let wanted = format!("{role} \"{name}\"");
    found
        .text
        .lines()
        .skip(1)
        .zip(&found.matches)
        .find(|(line, _)| line.contains(&wanted))
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("no {wanted} in {}", found.text))
}

/// The events a fixture recorded in `window.events`, taken out.
pub async fn events(model: &PageModel) -> Vec<Value> {
    let taken = model
        .tab()
        .evaluate("window.events.splice(0)")
        .await
        .expect("events"); // ok: test support, a failed set-up fails the test
    taken.as_array().cloned().unwrap_or_default()
}
