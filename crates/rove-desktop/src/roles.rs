//! AT-SPI role names as the view's roles (docs/desktop.md has the table,
//! with the macOS and Windows columns).
//!
//! The view speaks ARIA's role words for pages; a desktop control is given
//! the word a page control of the same kind has, so `find`, the list of
//! interactive roles and a model's habits carry over. Containers that only
//! lay out their children map to `generic` and give no line.

/// The view's role for an AT-SPI role name (`GetRoleName`, never the
/// localized one).
pub fn view_role(atspi: &str) -> &'static str {
    match atspi {
        "push button" | "button" | "toggle button" | "push button menu" => "button",
        "check box" => "checkbox",
        "radio button" => "radio",
        "check menu item" => "menuitemcheckbox",
        "radio menu item" => "menuitemradio",
        "menu item" | "tearoff menu item" => "menuitem",
        "menu" | "popup menu" => "menu",
        "menu bar" => "menubar",
        "combo box" => "combobox",
        "text" | "text box" | "entry" | "password text" | "editbar" | "terminal" | "search box" => {
            "textbox"
        }
        "spin button" => "spinbutton",
        "slider" | "dial" => "slider",
        "scroll bar" => "scrollbar",
        "label" | "static" | "caption" | "paragraph" => "text",
        "heading" => "heading",
        "link" => "link",
        "list" | "list box" => "listbox",
        "list item" => "option",
        "table" => "table",
        "tree table" => "treegrid",
        "tree" => "tree",
        "tree item" => "treeitem",
        "table cell" => "cell",
        "table row" => "row",
        "table column header" | "column header" => "columnheader",
        "table row header" | "row header" => "rowheader",
        "page tab list" => "tablist",
        "page tab" => "tab",
        "dialog" | "file chooser" | "color chooser" | "font chooser" => "dialog",
        "alert" | "notification" => "alertdialog",
        "frame" | "window" => "window",
        "tool bar" => "toolbar",
        "status bar" => "status",
        "progress bar" | "level bar" => "progressbar",
        "separator" => "separator",
        "image" | "icon" | "animation" => "img",
        "document frame" | "document web" | "document text" => "document",
        "tool tip" => "tooltip",
        "switch" => "switch",
        // A group says something only when it is named (`in_order`).
        "grouping" | "group" => "group",
        "form" => "form",
        "landmark" => "region",
        "application" => "application",
        _ => "generic",
    }
}

/// Whether a role takes text the user types (its value is its text).
pub fn is_text_field(atspi: &str) -> bool {
    matches!(
        atspi,
        "text" | "text box" | "entry" | "password text" | "editbar" | "terminal" | "search box"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_take_the_page_words_and_layout_gives_none() {
        assert_eq!(view_role("push button"), "button");
        assert_eq!(view_role("check box"), "checkbox");
        assert_eq!(view_role("spin button"), "spinbutton");
        assert_eq!(view_role("password text"), "textbox");
        assert_eq!(view_role("panel"), "generic");
        assert_eq!(view_role("filler"), "generic");
        assert_eq!(view_role("something new"), "generic");
        assert!(is_text_field("entry"));
        assert!(!is_text_field("label"));
    }
}
