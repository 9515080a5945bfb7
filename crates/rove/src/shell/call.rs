//! What was typed at the shell, as a tool call of the vocabulary. Each word
//! and flag fills the arguments its entry's spelling names (see
//! `rove_commands::shell`), and the call goes through
//! `Command::from_tool_call`, the parser MCP and the agent use, so a value
//! means the same and fails the same whichever face received it. The shell's own behaviours
//! (`open --stay`, `click --at`, a screenshot's default file), named by the
//! entries, are the adapters at the end.

use std::path::Path;

use clap::ArgMatches;
use clap::parser::ValueSource;
use rove_commands as rc;
use rove_errors::ErrorCode;
use serde_json::{Map, Number, Value, json};

use crate::cli::vocabulary::{ShellName, choices, word_id};
use crate::failure::Failure;
use rove_commands::shell::{Count, Fills, Flag, Kind, Literal, ShellOnly, Slot, Takes, Word};

/// What a session command line asks for.
#[derive(Debug)]
pub enum ShellCall {
    /// A command for the session's daemon.
    Run(rc::Command),
    /// `open --stay`: this process opens `url` in a browser of its own,
    /// waits `timeout` seconds at most for the load, and keeps the browser.
    Stay {
        /// The URL (a file's made its `file://` URL).
        url: String,
        /// Seconds.
        timeout: f64,
    },
}

/// The call `matches` (what was typed after `name`) asks for.
pub fn call(name: &ShellName, matches: &ArgMatches) -> Result<ShellCall, Failure> {
    let mut call = Filling {
        name,
        arguments: Map::new(),
        shell: Vec::new(),
    };
    for (argument, value) in name.fixed {
        call.put(argument, literal(*value))?;
    }
    let omitted: Vec<&str> = name
        .spelling
        .flags
        .iter()
        .filter_map(|flag| match flag.fills {
            Fills::Omits(argument) if matches.get_flag(flag.long) => Some(argument),
            _ => None,
        })
        .collect();
    for word in name.spelling.words {
        let typed: Vec<String> = matches
            .get_many::<String>(word_id(word))
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        call.word(word, &typed, &omitted)?;
    }
    for flag in name.spelling.flags {
        call.flag(flag, matches)?;
    }
    call.finish()
}

/// A call being filled in.
struct Filling<'a> {
    name: &'a ShellName,
    arguments: Map<String, Value>,
    /// The shell's own behaviours asked for, with their values.
    shell: Vec<(ShellOnly, Vec<String>)>,
}

impl Filling<'_> {
    /// A failure of what was typed, with the command's first example.
    fn refused(&self, message: String) -> Failure {
        let hint = match self.name.spelling.examples.first() {
            Some(example) => example.0.to_owned(),
            None => format!("see rove {} --help", self.name.typed),
        };
        rejected(message, &hint)
    }

    fn put(&mut self, argument: &str, value: Value) -> Result<(), Failure> {
        if self.arguments.contains_key(argument) {
            return Err(self.refused(format!(
                "{} is given twice: by a word and by a flag",
                argument
            )));
        }
        self.arguments.insert(argument.to_owned(), value);
        Ok(())
    }

    fn word(&mut self, word: &Word, typed: &[String], omitted: &[&str]) -> Result<(), Failure> {
        if typed.is_empty() {
            if let Count::OrElse(only) = word.count {
                self.shell.push((only, Vec::new()));
            }
            return Ok(());
        }
        match word.fills {
            Fills::Argument(argument, kind) => {
                let value = if several(word.count) {
                    let values: Result<Vec<Value>, Failure> = typed
                        .iter()
                        .map(|t| self.value(argument, kind, t))
                        .collect();
                    Value::Array(values?)
                } else {
                    self.value(argument, kind, &typed[0])?
                };
                self.put(argument, value)
            }
            Fills::InOrder(slots) => {
                let slots: Vec<Slot> = slots
                    .iter()
                    .filter(|s| !omitted.contains(&s.argument))
                    .copied()
                    .collect();
                self.in_order(&slots, typed)
            }
            Fills::AnyOrder(slots) => self.any_order(slots, typed),
            Fills::ByValue { argument, cases } => {
                let decider = self
                    .arguments
                    .get(argument)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let case = cases
                    .iter()
                    .find(|c| c.values.contains(&decider.as_str()))
                    .or_else(|| cases.iter().find(|c| c.values.is_empty()));
                match case {
                    Some(case) if !case.slots.is_empty() => {
                        self.in_order(case.slots, typed)?;
                        let ones = case.slots.iter().filter(|s| s.takes == Takes::One);
                        let filled = ones
                            .clone()
                            .filter(|s| self.arguments.contains_key(s.argument))
                            .count();
                        if case.whole && filled != 0 && filled != ones.clone().count() {
                            let names: Vec<&str> = ones.map(|s| s.argument).collect();
                            return Err(self.refused(format!(
                                "{} {} takes {} together, or none of them",
                                self.name.typed,
                                decider,
                                names.join(" and ")
                            )));
                        }
                        Ok(())
                    }
                    _ => Err(self.refused(format!(
                        "{} {} takes no {}",
                        self.name.typed,
                        decider,
                        quoted_words(typed)
                    ))),
                }
            }
            // Flags' own forms: a word never fills this way.
            Fills::Arguments(..) | Fills::Sets(..) | Fills::Omits(_) | Fills::Shell(_) => Ok(()),
        }
    }

    fn flag(&mut self, flag: &Flag, matches: &ArgMatches) -> Result<(), Failure> {
        let given = matches!(
            matches.value_source(flag.long),
            Some(ValueSource::CommandLine | ValueSource::DefaultValue)
        );
        if !given {
            return Ok(());
        }
        let values: Vec<String> = match flag.fills {
            Fills::Argument(_, Kind::Switch) | Fills::Sets(..) | Fills::Omits(_) => Vec::new(),
            Fills::Shell(ShellOnly::Stay) => Vec::new(),
            _ => matches
                .get_many::<String>(flag.long)
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
        };
        let switched = || matches.get_flag(flag.long);
        match flag.fills {
            Fills::Argument(argument, Kind::Switch) => {
                if switched() {
                    self.put(argument, Value::Bool(true))?;
                }
            }
            Fills::Argument(argument, Kind::List) => {
                let list = values.into_iter().map(Value::String).collect();
                self.put(argument, Value::Array(list))?;
            }
            Fills::Argument(argument, Kind::Numbers { keys, example }) => {
                if values.len() != keys.len() {
                    return Err(rejected(
                        format!("--{} takes {} numbers", flag.long, keys.len()),
                        &format!("rove {} --{} {example}", self.name.typed, flag.long),
                    ));
                }
                let mut object = Map::new();
                for (key, text) in keys.iter().zip(&values) {
                    object.insert((*key).to_owned(), self.value(key, Kind::Number, text)?);
                }
                self.put(argument, Value::Object(object))?;
            }
            Fills::Argument(argument, kind) => {
                if let Some(text) = values.first() {
                    let value = self.value(argument, kind, text)?;
                    self.put(argument, value)?;
                }
            }
            Fills::Arguments(arguments, kind) => {
                for (argument, text) in arguments.iter().zip(&values) {
                    let value = self.value(argument, kind, text)?;
                    self.put(argument, value)?;
                }
            }
            Fills::Sets(argument, value) => {
                if switched() {
                    self.put(argument, literal(value))?;
                }
            }
            Fills::Shell(ShellOnly::Stay) => {
                if switched() {
                    self.shell.push((ShellOnly::Stay, Vec::new()));
                }
            }
            Fills::Shell(only) => self.shell.push((only, values)),
            Fills::Omits(_) | Fills::InOrder(_) | Fills::AnyOrder(_) | Fills::ByValue { .. } => {}
        }
        Ok(())
    }

    /// Words filling `slots` in order; an optional slot the word does not
    /// fit is passed over.
    fn in_order(&mut self, slots: &[Slot], typed: &[String]) -> Result<(), Failure> {
        let mut words = typed.iter().peekable();
        for slot in slots {
            match slot.takes {
                Takes::One => {
                    if let Some(word) = words.next() {
                        let value = self.value(slot.argument, slot.kind, word)?;
                        self.put(slot.argument, value)?;
                    }
                }
                Takes::IfItFits => {
                    if let Some(word) = words.next_if(|w| self.fits(slot, w)) {
                        let value = self.value(slot.argument, slot.kind, word)?;
                        self.put(slot.argument, value)?;
                    }
                }
                Takes::Rest => {
                    let rest: Result<Vec<Value>, Failure> = words
                        .by_ref()
                        .map(|w| self.value(slot.argument, slot.kind, w))
                        .collect();
                    self.put(slot.argument, Value::Array(rest?))?;
                }
                Takes::Joined => {
                    let rest: Vec<&str> = words.by_ref().map(String::as_str).collect();
                    if !rest.is_empty() {
                        self.put(slot.argument, Value::String(rest.join(" ")))?;
                    }
                }
            }
        }
        let left: Vec<String> = words.cloned().collect();
        if left.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = slots.iter().map(|s| s.argument).collect();
        Err(self.refused(format!(
            "{} takes {} here, not also {}",
            self.name.typed,
            names.join(" "),
            quoted_words(&left)
        )))
    }

    /// Words in any order, each filling the first slot still open that it
    /// fits.
    fn any_order(&mut self, slots: &[Slot], typed: &[String]) -> Result<(), Failure> {
        for word in typed {
            let slot = slots
                .iter()
                .find(|s| !self.arguments.contains_key(s.argument) && self.fits(s, word));
            let Some(slot) = slot else {
                let names: Vec<&str> = slots.iter().map(|s| s.argument).collect();
                return Err(self.refused(format!(
                    "{word:?} is none of what {} takes ({}), or is given twice",
                    self.name.typed,
                    names.join(", ")
                )));
            };
            let value = self.value(slot.argument, slot.kind, word)?;
            self.put(slot.argument, value)?;
        }
        Ok(())
    }

    /// Whether `word` can fill `slot`.
    fn fits(&self, slot: &Slot, word: &str) -> bool {
        match slot.kind {
            Kind::Integer => word.trim().parse::<u64>().is_ok(),
            Kind::Number => number(word).is_some(),
            Kind::Element => word.parse::<rc::Target>().is_ok(),
            Kind::Choice { .. } | Kind::Among(_) => {
                self.choice(slot.argument, slot.kind, word).is_some()
            }
            Kind::Numbered(letter) => numbered(letter, word).is_some(),
            Kind::Switch
            | Kind::Text
            | Kind::Path
            | Kind::Url
            | Kind::Words(_)
            | Kind::List
            | Kind::Numbers { .. }
            | Kind::Pairs(..) => true,
        }
    }

    /// The value of one word typed for `argument`.
    fn value(&self, argument: &str, kind: Kind, text: &str) -> Result<Value, Failure> {
        Ok(match kind {
            Kind::Switch => Value::Bool(true),
            Kind::Text | Kind::Element => Value::String(text.to_owned()),
            Kind::Path => Value::String(absolute(Path::new(text))),
            Kind::Url => Value::String(local_file_url(text)),
            Kind::Integer => match text.trim().parse::<u64>() {
                Ok(n) => json!(n),
                Err(_) => {
                    return Err(
                        self.refused(format!("{text:?} is not a whole number ({argument})"))
                    );
                }
            },
            Kind::Number => match number(text).and_then(Number::from_f64) {
                Some(n) => Value::Number(n),
                None => return Err(self.refused(format!("{text:?} is not a number ({argument})"))),
            },
            Kind::Numbered(letter) => match numbered(letter, text) {
                Some(n) => json!(n),
                None => {
                    return Err(self.refused(format!(
                        "{text:?} is not a number ({argument}: {letter}3 or 3)"
                    )));
                }
            },
            Kind::Choice { .. } | Kind::Among(_) => Value::String(
                self.choice(argument, kind, text)
                    .map_or_else(|| text.to_owned(), str::to_owned),
            ),
            Kind::Words(words) => words
                .iter()
                .find(|(typed, _)| *typed == text)
                .map_or_else(|| Value::String(text.to_owned()), |(_, v)| literal(*v)),
            Kind::List => Value::Array(
                text.split(',')
                    .map(|item| Value::String(item.to_owned()))
                    .collect(),
            ),
            Kind::Numbers { keys, example } => {
                let numbers: Vec<&str> = text.split(',').collect();
                if numbers.len() != keys.len() {
                    return Err(self.refused(format!(
                        "{argument} takes {} numbers, as {example}",
                        keys.len()
                    )));
                }
                let mut object = Map::new();
                for (key, n) in keys.iter().zip(numbers) {
                    object.insert((*key).to_owned(), self.value(key, Kind::Number, n)?);
                }
                Value::Object(object)
            }
            Kind::Pairs(key, value) => match text.split_once('=') {
                Some((k, v)) => json!({key: k, value: v}),
                None => {
                    return Err(self.refused(format!(
                        "{text:?} is not {}={}",
                        key.to_ascii_uppercase(),
                        value.to_ascii_uppercase()
                    )));
                }
            },
        })
    }

    /// The value of `argument` that `word` names, as the tool spells it.
    fn choice(&self, argument: &str, kind: Kind, word: &str) -> Option<&'static str> {
        match kind {
            Kind::Choice { aliases, any_case } => {
                if let Some((_, means)) = aliases.iter().find(|(typed, _)| *typed == word) {
                    return Some(means);
                }
                choices(self.name.entry, argument)
                    .into_iter()
                    .find(|value| *value == word || (any_case && value.eq_ignore_ascii_case(word)))
            }
            Kind::Among(values) => values.iter().copied().find(|value| *value == word),
            _ => None,
        }
    }

    /// The call, once the shell's own behaviours are applied.
    fn finish(mut self) -> Result<ShellCall, Failure> {
        let mut tool = self.name.entry.name;
        let mut stay = None;
        let mut timeout = rove_base::limits::NAVIGATION.as_secs_f64();
        for (only, values) in std::mem::take(&mut self.shell) {
            match only {
                ShellOnly::Stay => stay = Some(()),
                ShellOnly::StayTimeout => {
                    if let Some(seconds) = values.first().and_then(|v| v.parse().ok()) {
                        timeout = seconds;
                    }
                }
                ShellOnly::ClickAt => {
                    self.arguments = click_at(&self.arguments, &values)?;
                    tool = "mouse";
                }
                ShellOnly::FreshScreenshot => {
                    let jpeg = self.arguments.get("format") == Some(&json!("jpeg"));
                    self.arguments
                        .insert("path".into(), Value::String(fresh_screenshot(jpeg)?));
                }
            }
        }
        if stay.is_some() {
            let url = self.arguments.get("url").and_then(Value::as_str);
            return Ok(ShellCall::Stay {
                url: url.unwrap_or_default().to_owned(),
                timeout,
            });
        }
        rc::Command::from_tool_call(tool, Some(&Value::Object(self.arguments)))
            .map(ShellCall::Run)
            .map_err(|e| Failure::from_command(&e))
    }
}

/// Whether a word's count gives its argument a list.
fn several(count: Count) -> bool {
    match count {
        Count::Many | Count::Between(..) | Count::Any => true,
        Count::One
        | Count::OneUnless(_)
        | Count::Optional
        | Count::Default(_)
        | Count::OrElse(_) => false,
    }
}

fn literal(value: Literal) -> Value {
    match value {
        Literal::Bool(b) => Value::Bool(b),
        Literal::Text(t) => Value::String(t.to_owned()),
    }
}

/// A number as the shell may write it (`300`, `-1.5`, `300px`).
fn number(text: &str) -> Option<f64> {
    text.trim().trim_end_matches("px").parse::<f64>().ok()
}

/// A whole number after an optional `letter` (`r3` or `3`).
fn numbered(letter: char, text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .strip_prefix(letter)
        .or_else(|| text.strip_prefix(letter.to_ascii_uppercase()))
        .unwrap_or(text);
    digits.parse().ok()
}

fn quoted_words(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    quoted.join(" ")
}

pub(crate) fn rejected(message: impl Into<String>, hint: &str) -> Failure {
    Failure::new(ErrorCode::CommandRejected, message, hint)
}

/// A path as the daemon must see it: absolute, from this shell's folder.
pub(crate) fn absolute(path: &Path) -> String {
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    full.to_string_lossy().into_owned()
}

/// A path to a file that exists, as a `file://` URL (`rove open ./page.html`);
/// anything else as typed. Whether the session may open `file:` URLs is the
/// domain policy's decision, made in the daemon.
fn local_file_url(typed: &str) -> String {
    let path = Path::new(typed);
    let looks_like_path =
        typed.starts_with('/') || typed.starts_with("./") || typed.starts_with("../");
    if looks_like_path || (!typed.contains("://") && path.is_file()) {
        let absolute = absolute(path);
        if let Ok(url) = url::Url::from_file_path(&absolute) {
            return url.to_string();
        }
    }
    typed.to_owned()
}

/// `click --at X Y`: the click at a point that `mouse click X Y` is, with
/// the click's button and `--double`.
fn click_at(click: &Map<String, Value>, point: &[String]) -> Result<Map<String, Value>, Failure> {
    let [x, y] = point else {
        return Err(rejected("--at takes X and Y", "rove click --at 120 45"));
    };
    let held = click
        .get("modifiers")
        .and_then(Value::as_array)
        .is_some_and(|m| !m.is_empty());
    if click.contains_key("ref") || held {
        return Err(rejected(
            "click --at takes a point instead of a ref, and no modifiers",
            "rove click --at 120 45, or rove click e7 --modifiers Shift",
        ));
    }
    let coordinate = |text: &str| {
        number(text).and_then(Number::from_f64).ok_or_else(|| {
            rejected(
                format!("{text:?} is not a number"),
                "coordinates are CSS pixels: rove click --at 120 45",
            )
        })
    };
    let double = click.get("double") == Some(&Value::Bool(true));
    let mut mouse = Map::new();
    mouse.insert("action".into(), json!("click"));
    mouse.insert("x".into(), Value::Number(coordinate(x)?));
    mouse.insert("y".into(), Value::Number(coordinate(y)?));
    if let Some(button) = click.get("button") {
        mouse.insert("button".into(), button.clone());
    }
    mouse.insert("count".into(), json!(if double { 2 } else { 1 }));
    Ok(mouse)
}

/// A new file in rove's runtime folder for a screenshot with no path.
fn fresh_screenshot(jpeg: bool) -> Result<String, Failure> {
    let dir = rove_browser::ensure_runtime_subdir(Path::new("screenshots"))?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let ext = if jpeg { "jpg" } else { "png" };
    Ok(dir
        .join(format!("screenshot-{stamp}.{ext}"))
        .to_string_lossy()
        .into_owned())
}
