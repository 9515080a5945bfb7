//! The session commands of the command line, built from the vocabulary's
//! entries: each entry's shell spelling (its words, flags, help and
//! examples, and its other names) becomes a `clap::Command` here, with
//! clap's builder, so there is no second list of commands and no clap
//! struct per command. `shell/call.rs` turns what was typed back into the
//! tool call.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgAction};
use rove_commands as rc;

use rove_commands::shell::{Count, Fills, Flag, Kind, Literal, ShellOnly, Spelling, Word};

/// A name typed at the shell for a command of the vocabulary: the
/// command's own (`click`) or another (`dblclick`).
#[derive(Debug, Clone, Copy)]
pub struct ShellName {
    /// The name as typed.
    pub typed: &'static str,
    /// The command's entry in the vocabulary.
    pub entry: &'static rc::Entry,
    /// Its words, flags and help.
    pub spelling: &'static Spelling,
    /// The arguments the name itself gives.
    pub fixed: &'static [(&'static str, Literal)],
}

/// Every name, in the order of the vocabulary, each command's other names
/// right after it.
pub fn names() -> Vec<ShellName> {
    let mut names = Vec::new();
    for entry in rc::entries() {
        let shell = entry.shell;
        names.push(ShellName {
            typed: entry.name,
            entry,
            spelling: &shell.spelling,
            fixed: &[],
        });
        names.extend(shell.aliases.iter().map(|alias| ShellName {
            typed: alias.name,
            entry,
            spelling: &alias.spelling,
            fixed: alias.fixed,
        }));
    }
    names
}

/// The command a name typed at the shell runs.
pub fn named(typed: &str) -> Option<ShellName> {
    names().into_iter().find(|n| n.typed == typed)
}

/// Which session commands a definition of the command line holds.
#[derive(Debug, Clone, Copy)]
pub enum Spelled<'a> {
    /// Every one (help, docs and the tests read these).
    All,
    /// Only the one typed: a start of the CLI builds one command's
    /// arguments, not forty.
    Only(&'a str),
    /// None: enough to learn which command was typed.
    None,
}

impl Spelled<'_> {
    /// Whether the session command typed as `typed` is held.
    pub fn spells(self, typed: &str) -> bool {
        match self {
            Spelled::All => true,
            Spelled::Only(only) => only == typed,
            Spelled::None => false,
        }
    }
}

/// The subcommands of the session commands `spelled`, one per name.
pub fn subcommands(spelled: Spelled) -> Vec<clap::Command> {
    names()
        .iter()
        .filter(|name| spelled.spells(name.typed))
        .map(subcommand)
        .collect()
}

fn subcommand(name: &ShellName) -> clap::Command {
    let spelling = name.spelling;
    let mut command = clap::Command::new(name.typed)
        .about(sentence(spelling.about))
        .after_help(after_help(spelling, name.entry.capability));
    for word in spelling.words {
        command = command.arg(word_arg(name.entry, word));
    }
    for flag in spelling.flags {
        command = command.arg(flag_arg(name.entry, flag));
    }
    command
}

/// A line of help as clap shows it: without the closing full stop.
fn sentence(text: &'static str) -> &'static str {
    text.strip_suffix('.').unwrap_or(text)
}

/// The examples, the spelling's note and, for an opt-in tool, the flag
/// that offers it to a model.
pub fn after_help(spelling: &Spelling, capability: rc::Capability) -> String {
    let mut lines = vec!["Examples:".to_owned()];
    let width = spelling
        .examples
        .iter()
        .filter(|e| !e.1.is_empty() && e.0.len() <= 48)
        .map(|e| e.0.len())
        .max()
        .unwrap_or(0);
    for example in spelling.examples {
        lines.push(match example.1 {
            "" => format!("  {}", example.0),
            remark => format!("  {:<width$}   {remark}", example.0),
        });
    }
    if !spelling.note.is_empty() {
        lines.push(spelling.note.to_owned());
    }
    if capability != rc::Capability::Core {
        lines.push(format!("In MCP and rove run: with --caps {capability}."));
    }
    lines.join("\n")
}

/// The clap id of a word: its argument's name, or `words` for a run of
/// words filling several (a spelling has one run at most).
pub fn word_id(word: &Word) -> &'static str {
    match word.fills {
        Fills::Argument(argument, _) => argument,
        Fills::Arguments(..)
        | Fills::Sets(..)
        | Fills::Omits(_)
        | Fills::InOrder(_)
        | Fills::AnyOrder(_)
        | Fills::ByValue { .. }
        | Fills::Shell(_) => "words",
    }
}

fn word_arg(entry: &'static rc::Entry, word: &Word) -> Arg {
    let mut arg = Arg::new(word_id(word))
        .value_name(word.name)
        .help(sentence(word.help));
    arg = match word.count {
        Count::One => arg.required(true),
        Count::OneUnless(flag) => arg.required_unless_present(flag),
        Count::Optional | Count::OrElse(_) => arg,
        Count::Default(value) => arg.default_value(value),
        Count::Many => arg.num_args(1..).required(true),
        Count::Between(min, max) => arg
            .num_args(usize::from(min)..=usize::from(max))
            .required(min > 0),
        Count::Any => arg.num_args(0..),
    };
    if takes_numbers(&word.fills) {
        arg = arg.allow_negative_numbers(true);
    }
    match word.fills {
        Fills::Argument(argument, kind) => with_parser(arg, entry, argument, kind),
        Fills::Arguments(..)
        | Fills::Sets(..)
        | Fills::Omits(_)
        | Fills::InOrder(_)
        | Fills::AnyOrder(_)
        | Fills::ByValue { .. }
        | Fills::Shell(_) => arg,
    }
}

fn flag_arg(entry: &'static rc::Entry, flag: &Flag) -> Arg {
    let mut arg = Arg::new(flag.long)
        .long(flag.long)
        .help(sentence(flag.help));
    if let Some(short) = flag.short {
        arg = arg.short(short);
    }
    if !flag.default.is_empty() {
        arg = arg.default_value(flag.default);
    }
    if !flag.conflicts.is_empty() {
        arg = arg.conflicts_with_all(flag.conflicts);
    }
    let switch = |arg: Arg| arg.action(ArgAction::SetTrue);
    let values = |arg: Arg, names: &'static str| {
        let names: Vec<&'static str> = names.split(' ').collect();
        arg.num_args(names.len())
            .value_names(names)
            .allow_hyphen_values(true)
            .value_parser(number_parser())
    };
    match flag.fills {
        Fills::Argument(_, Kind::Switch)
        | Fills::Sets(..)
        | Fills::Omits(_)
        | Fills::Shell(ShellOnly::Stay) => switch(arg),
        Fills::Argument(argument, kind) => {
            let arg = arg.value_name(flag.value);
            let arg = match kind {
                Kind::List => arg.value_delimiter(',').action(ArgAction::Append),
                Kind::Numbers { .. } => arg
                    .value_delimiter(',')
                    .allow_hyphen_values(true)
                    .value_parser(number_parser()),
                _ => arg,
            };
            with_parser(arg, entry, argument, kind)
        }
        Fills::Arguments(_, _) | Fills::Shell(ShellOnly::ClickAt) => values(arg, flag.value),
        Fills::Shell(ShellOnly::StayTimeout) => {
            arg.value_name(flag.value).value_parser(number_parser())
        }
        Fills::Shell(ShellOnly::FreshScreenshot)
        | Fills::InOrder(_)
        | Fills::AnyOrder(_)
        | Fills::ByValue { .. } => arg.value_name(flag.value),
    }
}

/// The parser that checks a value of `kind` for `argument` as it is
/// typed; a value it lets through stays the text typed.
fn with_parser(arg: Arg, entry: &'static rc::Entry, argument: &str, kind: Kind) -> Arg {
    match kind {
        Kind::Integer => arg.value_parser(|text: &str| {
            text.parse::<u64>()
                .map(|_| text.to_owned())
                .map_err(|e| e.to_string())
        }),
        Kind::Number => arg.value_parser(number_parser()),
        Kind::Choice { aliases, any_case } => {
            let values = choices(entry, argument).into_iter().map(|value| {
                let also = aliases.iter().filter(|(_, means)| *means == value);
                PossibleValue::new(value).aliases(also.map(|(typed, _)| *typed))
            });
            arg.value_parser(PossibleValuesParser::new(values))
                .ignore_case(any_case)
        }
        Kind::Among(values) => arg.value_parser(PossibleValuesParser::new(values.iter().copied())),
        Kind::Switch
        | Kind::Text
        | Kind::Element
        | Kind::Path
        | Kind::Url
        | Kind::Numbered(_)
        | Kind::Words(_)
        | Kind::List
        | Kind::Numbers { .. }
        | Kind::Pairs(..) => arg,
    }
}

fn number_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    |text: &str| {
        text.parse::<f64>()
            .map(|_| text.to_owned())
            .map_err(|e| e.to_string())
    }
}

/// The values `argument` of the command takes, from its schema.
pub fn choices(entry: &'static rc::Entry, argument: &str) -> Vec<&'static str> {
    let schema = &rc::parameters(entry)["properties"][argument];
    schema["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str())
        .collect()
}

/// Whether a word may be a negative number.
fn takes_numbers(fills: &Fills) -> bool {
    let number = |kind: &Kind| matches!(kind, Kind::Number);
    match fills {
        Fills::Argument(_, kind) | Fills::Arguments(_, kind) => number(kind),
        Fills::InOrder(slots) | Fills::AnyOrder(slots) => slots.iter().any(|s| number(&s.kind)),
        Fills::ByValue { cases, .. } => cases.iter().flat_map(|c| c.slots).any(|s| number(&s.kind)),
        Fills::Sets(..) | Fills::Omits(_) | Fills::Shell(_) => false,
    }
}
