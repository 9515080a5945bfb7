//! What rove gives the agent hosts it runs under: the MCP registration
//! each host takes (`print_config.rs`) and the skill that teaches an agent
//! the CLI (`skill.rs`, its text in `skill.md`).

pub(crate) mod print_config;
pub(crate) mod skill;
