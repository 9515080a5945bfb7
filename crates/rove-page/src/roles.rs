//! The roles a view treats as controls, written once: the walker gets this
//! list when it is installed (`walker.rs` puts it in place of
//! `ROVE_INTERACTIVE_ROLES`), so the lines the walker counts as interactive,
//! the interactive view and the diff never disagree about what a control is.

/// Roles of elements an agent acts on. Besides ARIA's widget roles: the
/// native inputs Chromium gives no ARIA role of their own (`date`, `time`,
/// `datetime-local`, `month`, `week`, `color`, `file`: the walker names them
/// by their type, which also tells what `fill` or `upload` takes), `audio`
/// and `video` (a player with the browser's controls) and `clickable` (a
/// generic element with a click handler).
pub const INTERACTIVE_ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "switch",
    "slider",
    "spinbutton",
    "treeitem",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "color",
    "file",
    "audio",
    "video",
    "clickable",
];

/// Roles whose value the user edits by typing or setting it: focus on them
/// is news in a diff (the caret is there), unlike focus on a clicked button.
pub(crate) const VALUE_ROLES: &[&str] = &[
    "textbox",
    "searchbox",
    "combobox",
    "spinbutton",
    "slider",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "color",
];

/// Whether a line of this role is a control.
pub fn is_interactive(role: &str) -> bool {
    INTERACTIVE_ROLES.contains(&role)
}

/// Whether a line of this role holds a value the user edits.
pub(crate) fn takes_value(role: &str) -> bool {
    VALUE_ROLES.contains(&role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_that_takes_a_value_is_a_control() {
        for role in VALUE_ROLES {
            assert!(
                is_interactive(role),
                "{role} takes a value but is no control"
            );
        }
    }
}
