//! One entry of the command list ([`Spec`]), as `vocabulary!` writes it,
//! and what a command does to the world ([`Effect`]).

use serde_json::Value;

/// What a command does to the world, which decides its MCP annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Only looks (views, reads, waits): safe to repeat.
    Reads,
    /// Loads a page: repeating it lands on the same page.
    Navigates,
    /// Moves through history or the page: repeating it goes further.
    Moves,
    /// Sets a state to a value (checked, unchecked): repeating it changes
    /// nothing more.
    Sets,
    /// Input to the page, which may do anything the page wires to it
    /// (submit, delete, pay).
    Acts,
}

/// One entry of the command list, as `vocabulary!` writes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub effect: Effect,
    pub capability: crate::vocabulary::caps::Capability,
    pub schema: fn() -> Value,
}
