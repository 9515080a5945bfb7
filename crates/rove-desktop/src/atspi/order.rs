//! What was read, in document order and in the view's words; and the raw
//! dump the view is measured against.

use std::collections::HashMap;
use std::time::Instant;

use rove_base::limits;

use crate::DesktopError;
use crate::dbus::Call;
use crate::node::{Node, NodeId};
use crate::roles::view_role;

use super::read::Read;
use super::{ACCESSIBLE, AtSpi};

/// A toolkit's class name standing in for a missing name (GTK 4 names an
/// unnamed widget by its class: `GtkMenuButton`, `AdwGizmo`): no name.
fn is_class_name(name: &str) -> bool {
    let rest = name
        .strip_prefix("Gtk")
        .or_else(|| name.strip_prefix("Adw"))
        .or_else(|| name.strip_prefix("Gd"));
    rest.is_some_and(|r| {
        r.starts_with(|c: char| c.is_ascii_uppercase())
            && r.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// A name said twice, as GTK 4 names a button after its label and the
/// label's own text (`7 7`): once.
fn single(name: String) -> String {
    let half = name.len() / 2;
    if name.len() % 2 == 1
        && name.is_char_boundary(half)
        && name.as_bytes().get(half) == Some(&b' ')
        && name[..half] == name[half + 1..]
    {
        return name[..half].to_owned();
    }
    name
}

/// The elements in document order, layout containers left out.
pub(super) fn in_order(roots: &[NodeId], read: &HashMap<NodeId, Read>) -> Vec<Node> {
    let mut out = Vec::new();
    // (element, depth of its line, the name of the line above that it may repeat)
    let mut stack: Vec<(NodeId, u16, String)> = roots
        .iter()
        .rev()
        .map(|r| (r.clone(), 0, String::new()))
        .collect();
    while let Some((id, depth, parent_name)) = stack.pop() {
        let Some(one) = read.get(&id) else { continue };
        let states = one.states();
        if !states.showing {
            continue;
        }
        let name = if is_class_name(&one.name) {
            String::new()
        } else {
            single(rove_base::text::clean(one.name.clone()))
        };
        let role = match view_role(&one.platform_role) {
            "group" if name.is_empty() => "generic",
            role => role,
        };
        // A label that says what its control's name already says (a
        // button's own label) is not a second line.
        let repeats =
            role == "text" && !parent_name.is_empty() && parent_name.contains(name.as_str());
        let gives_line = role != "generic"
            && role != "separator"
            && !repeats
            && !(role == "text" && name.is_empty() && !one.implements("org.a11y.atspi.Text"));
        let child_depth = if gives_line { depth + 1 } else { depth };
        let name_below = if gives_line {
            name.clone()
        } else {
            parent_name
        };
        if gives_line {
            out.push(Node {
                id: id.clone(),
                depth,
                role,
                platform_role: one.platform_role.clone(),
                name,
                value: None,
                states,
                actionable: one.implements("org.a11y.atspi.Action"),
            });
        }
        for child in one.children.iter().rev() {
            stack.push((child.clone(), child_depth, name_below.clone()));
        }
    }
    out
}

/// AT-SPI's state names, by bit, for [`AtSpi::dump`].
const STATE_NAMES: [&str; 44] = [
    "invalid",
    "active",
    "armed",
    "busy",
    "checked",
    "collapsed",
    "defunct",
    "editable",
    "enabled",
    "expandable",
    "expanded",
    "focusable",
    "focused",
    "has-tooltip",
    "horizontal",
    "iconified",
    "modal",
    "multi-line",
    "multiselectable",
    "opaque",
    "pressed",
    "resizable",
    "selectable",
    "selected",
    "sensitive",
    "showing",
    "single-line",
    "stale",
    "transient",
    "vertical",
    "visible",
    "manages-descendants",
    "indeterminate",
    "required",
    "truncated",
    "animated",
    "invalid-entry",
    "supports-autocompletion",
    "selectable-text",
    "is-default",
    "visited",
    "checkable",
    "has-popup",
    "read-only",
];

impl AtSpi {
    /// `app`'s tree as the bus gives it, one line per element read (layout
    /// containers included): role, name, states and interfaces, as an
    /// accessibility inspector shows it. What the view is measured
    /// against (docs/benchmarks.md).
    pub fn dump(&mut self, app: &NodeId, limit: usize) -> Result<String, DesktopError> {
        let until = Instant::now() + limits::DESKTOP_TREE;
        let windows = AtSpi::children_of(&self.one(
            &Call::new(&app.bus, &app.path, ACCESSIBLE, "GetChildren"),
            false,
            "reading the tree",
        )?);
        let read = self.read_levels(windows.clone(), limit, until)?;
        let mut out = String::new();
        let mut stack: Vec<(NodeId, usize)> =
            windows.iter().rev().map(|w| (w.clone(), 0)).collect();
        while let Some((id, depth)) = stack.pop() {
            let Some(one) = read.get(&id) else { continue };
            let states: Vec<&str> = STATE_NAMES
                .iter()
                .enumerate()
                .filter(|(bit, _)| one.states & (1u64 << bit) != 0)
                .map(|(_, name)| *name)
                .collect();
            let interfaces: Vec<&str> = one
                .interfaces
                .iter()
                .map(|i| i.trim_start_matches("org.a11y.atspi."))
                .collect();
            out.push_str(&format!(
                "{}{} {:?} [{}] ({})\n",
                "  ".repeat(depth),
                one.platform_role,
                one.name,
                states.join(" "),
                interfaces.join(" ")
            ));
            for child in one.children.iter().rev() {
                stack.push((child.clone(), depth + 1));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolkit_class_names_are_no_names() {
        assert!(is_class_name("GtkMenuButton"));
        assert!(is_class_name("AdwGizmo"));
        assert!(!is_class_name("Gtk"));
        assert!(!is_class_name("Calculator"));
        assert!(!is_class_name("Gtk is nice"));
    }

    #[test]
    fn a_name_said_twice_is_said_once() {
        assert_eq!(single("7 7".to_owned()), "7");
        assert_eq!(single("× ×".to_owned()), "×");
        assert_eq!(single("mod mod".to_owned()), "mod");
        assert_eq!(single("Save as".to_owned()), "Save as");
        assert_eq!(single("a b".to_owned()), "a b");
    }
}
