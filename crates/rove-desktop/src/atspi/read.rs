//! Reading a tree level by level: what is read of each element, and the
//! values and texts of those that have one.

use std::collections::HashMap;
use std::time::Instant;

use crate::DesktopError;
use crate::dbus::{Arg, Call, DbusError, Value};
use crate::node::{Node, NodeId, States};
use crate::roles::is_text_field;

use super::{ACCESSIBLE, AtSpi, CHILDREN_MAX, DEPTH_MAX, NULL_PATH, object_ref};

/// AT-SPI's state bits (`AtspiStateType`), the ones the view uses.
pub(super) mod state {
    pub const CHECKED: u32 = 4;
    pub const COLLAPSED: u32 = 5;
    pub const EDITABLE: u32 = 7;
    pub const EXPANDABLE: u32 = 9;
    pub const EXPANDED: u32 = 10;
    pub const FOCUSED: u32 = 12;
    pub const MODAL: u32 = 16;
    pub const PRESSED: u32 = 20;
    pub const SELECTED: u32 = 23;
    pub const SENSITIVE: u32 = 24;
    pub const VISIBLE: u32 = 30;
    pub const INDETERMINATE: u32 = 32;
    pub const REQUIRED: u32 = 33;
    pub const INVALID_ENTRY: u32 = 36;
    pub const HAS_POPUP: u32 = 42;
    pub const READ_ONLY: u32 = 43;
}

/// What one level's batch read of an element.
#[derive(Debug, Default)]
pub(super) struct Read {
    pub platform_role: String,
    pub name: String,
    pub states: u64,
    pub interfaces: Vec<String>,
    child_count: usize,
    pub children: Vec<NodeId>,
}

impl Read {
    pub fn has(&self, bit: u32) -> bool {
        self.states & (1u64 << bit) != 0
    }

    pub fn implements(&self, interface: &str) -> bool {
        self.interfaces.iter().any(|i| i == interface)
    }

    pub fn states(&self) -> States {
        let role = self.platform_role.as_str();
        States {
            disabled: !self.has(state::SENSITIVE),
            checked: self.has(state::CHECKED),
            mixed: self.has(state::INDETERMINATE),
            pressed: self.has(state::PRESSED) && role == "toggle button",
            expanded: self.has(state::EXPANDED),
            collapsed: self.has(state::EXPANDABLE) && !self.has(state::EXPANDED)
                || self.has(state::COLLAPSED),
            selected: self.has(state::SELECTED),
            focused: self.has(state::FOCUSED),
            readonly: self.has(state::READ_ONLY)
                || (is_text_field(role) && !self.has(state::EDITABLE)),
            required: self.has(state::REQUIRED),
            invalid: self.has(state::INVALID_ENTRY),
            modal: self.has(state::MODAL),
            haspopup: self.has(state::HAS_POPUP),
            // GTK 4 leaves SHOWING off inside a window that is mapped;
            // VISIBLE is what both toolkits keep.
            showing: self.has(state::VISIBLE),
            editable: self.has(state::EDITABLE),
            secret: role == "password text",
        }
    }
}

/// The calls that read one element.
fn read_calls(id: &NodeId) -> [Call; 5] {
    let call = |member: &str| Call::new(&id.bus, &id.path, ACCESSIBLE, member);
    [
        call("GetRoleName"),
        Call::property(&id.bus, &id.path, ACCESSIBLE, "Name"),
        call("GetState"),
        call("GetInterfaces"),
        // Not GetChildren: GTK 4 leaves some children out of its answer
        // (a scrolled window's text view) that GetChildAtIndex gives.
        Call::property(&id.bus, &id.path, ACCESSIBLE, "ChildCount"),
    ]
}

fn parse_read(replies: &[Result<Vec<Value>, DbusError>]) -> Option<Read> {
    let first = |i: usize| {
        replies
            .get(i)
            .and_then(|r| r.as_ref().ok())
            .and_then(|v| v.first())
    };
    // An element whose role cannot be read is gone (its window closed
    // while the level was read): it is left out.
    let platform_role = first(0)?.as_str()?.to_owned();
    let name = first(1)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let states = first(2)
        .and_then(Value::as_list)
        .map(|words| {
            words
                .iter()
                .take(2)
                .enumerate()
                .map(|(i, w)| (w.as_i64().unwrap_or(0) as u64 & 0xFFFF_FFFF) << (32 * i))
                .fold(0u64, |all, w| all | w)
        })
        .unwrap_or(0);
    let interfaces = first(3)
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let child_count = first(4)
        .and_then(Value::as_i64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
        .min(CHILDREN_MAX);
    Some(Read {
        platform_role,
        name,
        states,
        interfaces,
        child_count,
        children: Vec::new(),
    })
}

impl AtSpi {
    /// Reads every element under `roots` level by level.
    pub(super) fn read_levels(
        &mut self,
        roots: Vec<NodeId>,
        limit: usize,
        until: Instant,
    ) -> Result<HashMap<NodeId, Read>, DesktopError> {
        let mut read: HashMap<NodeId, Read> = HashMap::new();
        let mut level = roots;
        let mut depth = 0;
        while !level.is_empty() && depth < DEPTH_MAX && read.len() < limit {
            level.truncate(limit - read.len());
            let calls: Vec<Call> = level.iter().flat_map(read_calls).collect();
            let replies = self.batch(&calls, until)?;
            let mut parents = Vec::new();
            let mut child_calls = Vec::new();
            for (id, replies) in level.into_iter().zip(replies.chunks(5)) {
                let Some(one) = parse_read(replies) else {
                    continue;
                };
                // What is not on screen is not read further: a closed
                // menu's items, a notebook's other pages.
                if one.has(state::VISIBLE) || depth == 0 {
                    for i in 0..one.child_count {
                        let index = i32::try_from(i).unwrap_or(i32::MAX);
                        child_calls.push(
                            Call::new(&id.bus, &id.path, ACCESSIBLE, "GetChildAtIndex")
                                .arg(Arg::I32(index)),
                        );
                        parents.push(id.clone());
                    }
                }
                read.insert(id, one);
            }
            let mut next = Vec::new();
            if !child_calls.is_empty() {
                let replies = self.batch(&child_calls, until)?;
                for (parent, reply) in parents.into_iter().zip(replies) {
                    let Some(child) = reply
                        .ok()
                        .and_then(|v| v.first().and_then(object_ref))
                        .filter(|c| c.path != NULL_PATH)
                    else {
                        continue;
                    };
                    if let Some(one) = read.get_mut(&parent) {
                        one.children.push(child.clone());
                    }
                    next.push(child);
                }
            }
            level = next;
            depth += 1;
        }
        Ok(read)
    }

    /// Values and texts of the elements that have one, in one batch.
    pub(super) fn read_values(
        &mut self,
        nodes: &mut [Node],
        read: &HashMap<NodeId, Read>,
        until: Instant,
    ) -> Result<(), DesktopError> {
        let mut calls = Vec::new();
        let mut wants = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let Some(one) = read.get(&node.id) else {
                continue;
            };
            if one.implements("org.a11y.atspi.Value") && node.role != "textbox" {
                calls.push(Call::property(
                    &node.id.bus,
                    &node.id.path,
                    "org.a11y.atspi.Value",
                    "CurrentValue",
                ));
                wants.push(i);
            } else if one.implements("org.a11y.atspi.Text")
                && !node.states.secret
                && (node.role == "textbox" || (node.role == "text" && node.name.is_empty()))
            {
                calls.push(
                    Call::new(
                        &node.id.bus,
                        &node.id.path,
                        "org.a11y.atspi.Text",
                        "GetText",
                    )
                    .arg(Arg::I32(0))
                    .arg(Arg::I32(-1)),
                );
                wants.push(i);
            }
        }
        if calls.is_empty() {
            return Ok(());
        }
        let replies = self.batch(&calls, until)?;
        for (i, reply) in wants.into_iter().zip(replies) {
            let Ok(values) = reply else { continue };
            let Some(value) = values.first() else {
                continue;
            };
            let text = match value.as_f64() {
                Some(n) if value.as_str().is_none() => format_number(n),
                _ => value.as_str().unwrap_or_default().to_owned(),
            };
            if let Some(node) = nodes.get_mut(i) {
                node.value = Some(text);
            }
        }
        Ok(())
    }
}

/// A value as a person writes it: `84`, not `84.0`; a scroll bar's
/// `362.72`, not `362.7192414536356` (two decimals at most).
fn format_number(n: f64) -> String {
    let n = if n.abs() < 1e13 {
        (n * 100.0).round() / 100.0
    } else {
        n
    };
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(format_number(84.0), "84");
        assert_eq!(format_number(2.5), "2.5");
        assert_eq!(format_number(362.719_241_453_635_6), "362.72");
        assert_eq!(format_number(-0.004), "0");
    }
}
