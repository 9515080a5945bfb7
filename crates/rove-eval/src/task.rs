//! Task files: browser-use's YAML format (`name`, `task`, `judge_context`,
//! `max_steps`; one task or a list of them in a file) read unchanged, plus
//! rove's optional fields: where to start, what the right answer is, which
//! hosts and secrets the task may use, its limits, tags, and the `verify:`
//! checks on real side effects.
//!
//! Unknown fields are refused (a misspelt `verfy:` would otherwise make a
//! task look verified when it is not), and every error names the file, the
//! line and the field. `${VAR}` in a string field comes from the
//! environment; a task whose variable or secret is unset is kept, marked
//! skipped with the reason, because a suite must say what it did not run.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::EvalError;

/// The step limit when a task gives none (browser-use's tasks usually do).
pub const DEFAULT_MAX_STEPS: u32 = 30;

/// One task as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    /// Unique within a suite: results are keyed by it.
    pub name: String,
    /// What the agent is asked to do.
    pub task: String,
    /// Notes for a judge (browser-use's field; kept for the judge to come).
    #[serde(default)]
    pub judge_context: Vec<String>,
    /// The agent's step limit.
    #[serde(default)]
    pub max_steps: Option<u32>,
    /// Opened before the agent's first step.
    #[serde(default)]
    pub start_url: Option<String>,
    /// What the right answer is (for a judge and for people reading).
    #[serde(default)]
    pub ground_truth: Option<String>,
    /// Hosts the attempt's browser context may load documents from; empty
    /// for any.
    #[serde(default)]
    pub allowed_domains: Vec<String>,
    /// Placeholder the model writes → where its value comes from.
    #[serde(default)]
    pub secrets: BTreeMap<String, SecretSource>,
    /// Each attempt's deadline, in seconds.
    #[serde(default)]
    pub timeout_s: Option<f64>,
    /// How many attempts (overridden by `--repeat`).
    #[serde(default)]
    pub repeat: Option<u32>,
    /// The pass rate this task must reach (default 1: every attempt).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// For `--tags`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Checks on real side effects, run after the agent ends.
    #[serde(default)]
    pub verify: Vec<Check>,
}

/// Where a secret's value comes from: an environment variable, optionally
/// limited to a domain (`{pw: LOGIN_PW}` or `{pw: {env: LOGIN_PW, domain:
/// shop.example}}`). Values are read when an attempt starts and never kept.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SecretSource {
    /// `pw: LOGIN_PW`.
    Env(String),
    /// `pw: {env: LOGIN_PW, domain: shop.example}`.
    Scoped(ScopedSecret),
}

/// The long form of a secret.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopedSecret {
    /// The environment variable holding the value.
    pub env: String,
    /// Hosts it may be typed on.
    #[serde(default)]
    pub domain: Option<String>,
}

impl SecretSource {
    /// The environment variable and the domain.
    pub fn parts(&self) -> (&str, Option<&str>) {
        match self {
            SecretSource::Env(env) => (env, None),
            SecretSource::Scoped(s) => (&s.env, s.domain.as_deref()),
        }
    }
}

/// One `verify:` check. Each is a one-key map: `- url: "/orders/\\d+$"`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "CheckMap")]
pub enum Check {
    /// A regex the final URL must match.
    Url(String),
    /// The final page's text contains or lacks a text.
    Text(TextCheck),
    /// A script evaluated in the final page must return `true`.
    Js(String),
    /// A GET whose JSON answer must hold a value at a pointer.
    Http(HttpCheck),
    /// A download in the attempt's download folder.
    File(FileCheck),
    /// A regex the agent's final answer must match.
    Answer(String),
}

/// A check as written: a map with exactly one of these keys. (The YAML
/// crate reads enums from tags, `!url`, which browser-use's users do not
/// write; a one-key map reads naturally.)
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckMap {
    url: Option<String>,
    text: Option<TextCheck>,
    js: Option<String>,
    http: Option<HttpCheck>,
    file: Option<FileCheck>,
    answer: Option<String>,
}

impl TryFrom<CheckMap> for Check {
    type Error = String;
    fn try_from(map: CheckMap) -> Result<Check, String> {
        let mut found: Vec<Check> = Vec::new();
        found.extend(map.url.map(Check::Url));
        found.extend(map.text.map(Check::Text));
        found.extend(map.js.map(Check::Js));
        found.extend(map.http.map(Check::Http));
        found.extend(map.file.map(Check::File));
        found.extend(map.answer.map(Check::Answer));
        match found.len() {
            1 => Ok(found.remove(0)),
            0 => Err("a check needs one of url, text, js, http, file, answer".into()),
            _ => Err("one check per list item: write each of url, text, js, http, file, answer as its own `- ` item".into()),
        }
    }
}

/// `text: {contains: "Order placed"}` or `text: {lacks: "Error"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextCheck {
    /// Must appear in the page's text.
    #[serde(default)]
    pub contains: Option<String>,
    /// Must not appear in it.
    #[serde(default)]
    pub lacks: Option<String>,
}

/// `http: {url: …, pointer: /cart/items/0/name, equals: "Lamp"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpCheck {
    /// Fetched with GET.
    pub url: String,
    /// A JSON pointer (RFC 6901) into the answer; empty for the whole.
    #[serde(default)]
    pub pointer: String,
    /// The value it must hold.
    pub equals: serde_json::Value,
}

/// `file: {name: report.csv, min_size: 10, sha256: …, contains: "total"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileCheck {
    /// The downloaded file's name; any download when left out.
    #[serde(default)]
    pub name: Option<String>,
    /// Its exact size in bytes.
    #[serde(default)]
    pub size: Option<u64>,
    /// Its smallest size in bytes.
    #[serde(default)]
    pub min_size: Option<u64>,
    /// Its SHA-256, in hex.
    #[serde(default)]
    pub sha256: Option<String>,
    /// A text its bytes contain.
    #[serde(default)]
    pub contains: Option<String>,
}

/// A task ready to run, or one that will be reported skipped.
#[derive(Debug, Clone)]
pub struct Task {
    /// The task, with `${VAR}` filled in where it could be.
    pub spec: TaskSpec,
    /// The file it came from.
    pub file: PathBuf,
    /// Why it will not run (an unset variable or secret), if so.
    pub skip: Option<String>,
}

impl Task {
    /// Its step limit.
    pub fn max_steps(&self) -> u32 {
        self.spec.max_steps.unwrap_or(DEFAULT_MAX_STEPS)
    }

    /// The pass rate it must reach.
    pub fn threshold(&self) -> f64 {
        self.spec.threshold.unwrap_or(1.0)
    }
}

/// Reads every file (a folder gives its `.yaml`/`.yml` files, sorted) and
/// parses all of them before anything runs: the first error is returned,
/// naming the file, line and field. Names must be unique across the suite.
/// Only regular files are read, never more than
/// [`limits::TASK_FILE_BYTES`](rove_base::limits::TASK_FILE_BYTES) of one,
/// and none waits: a FIFO or a device named `*.yaml` is refused at once.
pub fn load(
    paths: &[PathBuf],
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Task>, EvalError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| EvalError::Read {
                path: path.clone(),
                message: e.to_string(),
            })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    // Every file is read and shaped before any is filled in: a secret's
    // variable is refused in what a model reads in every file of the
    // suite, not only in the file that declares the secret.
    let mut shaped = Vec::with_capacity(files.len());
    for file in &files {
        let text = rove_base::user_file::read_text(file, rove_base::limits::TASK_FILE_BYTES)
            .map_err(|e| EvalError::Read {
                path: file.clone(),
                message: e.into_io().to_string(),
            })?;
        let specs = parse_specs(&text, file)?;
        shaped.push((file, text, specs));
    }
    let secret_vars = secret_vars_of(shaped.iter().flat_map(|(_, _, specs)| specs));
    let mut tasks: Vec<Task> = Vec::new();
    // Each name and the file it came from: a suite of many tasks is
    // checked in linear time.
    let mut names: HashMap<String, PathBuf> = HashMap::new();
    for (file, text, specs) in shaped {
        for task in fill_in(specs, &text, file, env, &secret_vars)? {
            if let Some(first) = names.get(&task.spec.name) {
                return Err(EvalError::Invalid {
                    path: file.clone(),
                    line: line_of_name(&text, &task.spec.name),
                    field: "name".into(),
                    message: format!(
                        "the name {:?} is also used in {}; names must be unique, results are keyed by them",
                        task.spec.name,
                        first.display()
                    ),
                });
            }
            names.insert(task.spec.name.clone(), task.file.clone());
            tasks.push(task);
        }
    }
    Ok(tasks)
}

/// Parses one file's text: a task, or a list of tasks. The secrets whose
/// variables are refused in what a model reads are this file's own; a
/// suite of files ([`load`]) refuses every file's in every file.
pub fn parse(
    text: &str,
    file: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Task>, EvalError> {
    let specs = parse_specs(text, file)?;
    let secret_vars = secret_vars_of(&specs);
    fill_in(specs, text, file, env, &secret_vars)
}

/// Every secret's variable of `specs`, each with the placeholder that
/// stands for it: none may be filled into what a model reads.
fn secret_vars_of<'a>(specs: impl IntoIterator<Item = &'a TaskSpec>) -> Vec<(String, String)> {
    specs
        .into_iter()
        .flat_map(|spec| {
            spec.secrets
                .iter()
                .map(|(name, source)| (source.parts().0.to_owned(), name.clone()))
        })
        .collect()
}

/// One file's tasks as written, `${VAR}` not yet filled in.
fn parse_specs(text: &str, file: &Path) -> Result<Vec<TaskSpec>, EvalError> {
    let yaml_error = |e: yaml_serde::Error| EvalError::Parse {
        path: file.to_owned(),
        line: e.location().map(|l| l.line()),
        column: e.location().map(|l| l.column()),
        message: e.to_string(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some((line, column)) =
        crate::task_depth::too_deep(text, rove_base::limits::TASK_FILE_DEPTH)
    {
        return Err(EvalError::Parse {
            path: file.to_owned(),
            line: Some(line),
            column: Some(column),
            message: format!(
                "lists and maps nested more than {} deep; a task needs a few levels",
                rove_base::limits::TASK_FILE_DEPTH
            ),
        });
    }
    // Read the shape first, then the typed form from the text itself, so
    // the typed form's errors keep their line and column.
    let shape: yaml_serde::Value = yaml_serde::from_str(text).map_err(yaml_error)?;
    refuse_null_fields(&shape, text, file)?;
    let specs: Vec<TaskSpec> = match shape {
        yaml_serde::Value::Sequence(_) => yaml_serde::from_str(text).map_err(yaml_error)?,
        yaml_serde::Value::Mapping(_) => vec![yaml_serde::from_str(text).map_err(yaml_error)?],
        _ => {
            return Err(EvalError::Parse {
                path: file.to_owned(),
                line: None,
                column: None,
                message:
                    "a task file holds one task (a mapping with name and task) or a list of them"
                        .into(),
            });
        }
    };
    Ok(specs)
}

/// `specs` of `file` with `${VAR}` filled in and checked, refusing the
/// variables of `secret_vars` in what a model reads.
fn fill_in(
    specs: Vec<TaskSpec>,
    text: &str,
    file: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    secret_vars: &[(String, String)],
) -> Result<Vec<Task>, EvalError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    specs
        .into_iter()
        .map(|spec| {
            let name = spec.name.clone();
            // Checked once `${VAR}` is filled in: `^${BASE}/done$` is only
            // a regex then.
            let task = expand(spec, file, env, secret_vars).map_err(|(field, message)| {
                EvalError::Invalid {
                    path: file.to_owned(),
                    line: line_of_name(text, &name),
                    field,
                    message,
                }
            })?;
            validate(&task.spec, task.skip.is_none()).map_err(|(field, message)| {
                EvalError::Invalid {
                    path: file.to_owned(),
                    line: line_of_name(text, &task.spec.name),
                    field,
                    message,
                }
            })?;
            Ok(task)
        })
        .collect()
}

/// `task: null` (or `name: ~`) would read as the text "null": refused, as
/// a field left empty is.
fn refuse_null_fields(shape: &yaml_serde::Value, text: &str, file: &Path) -> Result<(), EvalError> {
    let tasks: Vec<&yaml_serde::Value> = match shape {
        yaml_serde::Value::Sequence(items) => items.iter().collect(),
        one => vec![one],
    };
    for task in tasks {
        let yaml_serde::Value::Mapping(fields) = task else {
            continue;
        };
        for field in ["name", "task"] {
            if fields.get(field).is_some_and(yaml_serde::Value::is_null) {
                let name = fields.get("name").and_then(yaml_serde::Value::as_str);
                return Err(EvalError::Invalid {
                    path: file.to_owned(),
                    line: name.and_then(|n| line_of_name(text, n)),
                    field: field.into(),
                    message: format!("is null; give the {field} as text"),
                });
            }
        }
    }
    Ok(())
}

/// The line (1-based) of the `name:` that names `name`, to point at a task
/// whose fields parsed but do not make sense together.
fn line_of_name(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let line = line.trim_start().trim_start_matches("- ").trim_start();
            line.strip_prefix("name:")
                .is_some_and(|rest| rest.trim().trim_matches(|c| c == '"' || c == '\'') == name)
        })
        .map(|i| i + 1)
}

/// What serde cannot say: values out of range, regexes that do not
/// compile, checks that check nothing. `Err((field, message))`. Regexes
/// are compiled only when every variable was filled in (`complete`).
fn validate(spec: &TaskSpec, complete: bool) -> Result<(), (String, String)> {
    let bad = |field: &str, message: String| Err((field.to_owned(), message));
    if spec.name.trim().is_empty() {
        return bad("name", "a task needs a name".into());
    }
    if spec.task.trim().is_empty() {
        return bad(
            "task",
            "the task is empty: say what the agent should do".into(),
        );
    }
    if spec.max_steps == Some(0) {
        return bad("max_steps", "at least 1".into());
    }
    if spec.repeat == Some(0) {
        return bad("repeat", "at least 1".into());
    }
    if let Some(repeat) = spec.repeat.filter(|&r| r > rove_base::limits::REPEAT_MAX) {
        return bad(
            "repeat",
            format!(
                "{repeat} is more than the {} attempts a task may have",
                rove_base::limits::REPEAT_MAX
            ),
        );
    }
    if let Some(t) = spec.threshold
        && !(0.0..=1.0).contains(&t)
    {
        return bad(
            "threshold",
            format!("{t} is not a pass rate between 0 and 1"),
        );
    }
    if let Some(t) = spec.timeout_s
        && !(t.is_finite() && t > 0.0)
    {
        return bad(
            "timeout_s",
            format!("{t} is not a positive number of seconds"),
        );
    }
    for (placeholder, source) in &spec.secrets {
        let valid =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid(placeholder) {
            return bad(
                "secrets",
                format!("{placeholder:?}: placeholders are letters, digits and _"),
            );
        }
        if !valid(source.parts().0) {
            return bad(
                "secrets",
                format!(
                    "{placeholder}: {:?} is not an environment variable's name",
                    source.parts().0
                ),
            );
        }
    }
    for (i, check) in spec.verify.iter().enumerate() {
        let field = |name: &str| format!("verify[{i}].{name}");
        match check {
            Check::Url(re) | Check::Answer(re) => {
                if !complete {
                    continue;
                }
                if let Err(e) = regex::Regex::new(re) {
                    let which = if matches!(check, Check::Url(_)) {
                        "url"
                    } else {
                        "answer"
                    };
                    return bad(&field(which), format!("not a regex: {e}"));
                }
            }
            Check::Text(t) => {
                if t.contains.is_none() && t.lacks.is_none() {
                    return bad(&field("text"), "give contains or lacks (or both)".into());
                }
            }
            Check::Js(js) => {
                if js.trim().is_empty() {
                    return bad(&field("js"), "the script is empty".into());
                }
            }
            Check::Http(h) => {
                if !(h.pointer.is_empty() || h.pointer.starts_with('/')) {
                    return bad(
                        &field("http.pointer"),
                        format!("{:?} is not a JSON pointer: it starts with /", h.pointer),
                    );
                }
            }
            Check::File(f) => {
                if let Some(hash) = &f.sha256
                    && (hash.len() != 64 || !hash.chars().all(|c| c.is_ascii_hexdigit()))
                {
                    return bad(&field("file.sha256"), "64 hexadecimal digits".into());
                }
            }
        }
    }
    Ok(())
}

/// Fills `${VAR}` in every string field from `env`, and checks that each
/// secret's variable is set; a task missing any is marked skipped. The
/// fields a model reads (`task`, `judge_context`, `ground_truth`) must not
/// name a secret's variable (`secret_vars`: variable and placeholder) or a
/// model's credential, nor hold the value of either: `Err((field, why))`.
fn expand(
    mut spec: TaskSpec,
    file: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    secret_vars: &[(String, String)],
) -> Result<Task, (String, String)> {
    let mut missing = Vec::new();
    {
        let mut for_a_model = |field: String, s: &mut String| {
            let refused = std::cell::RefCell::new(None);
            let checked = |name: &str| {
                let value = env(name);
                let why = smuggled(name, secret_vars).or_else(|| {
                    value
                        .as_deref()
                        .and_then(|v| same_value(name, v, secret_vars, env))
                });
                if let Some(why) = why {
                    refused.borrow_mut().get_or_insert(why);
                    return None;
                }
                value
            };
            let filled = substitute(s, &checked, &mut missing);
            match refused.into_inner() {
                Some(why) => Err((field, why)),
                None => {
                    *s = filled;
                    Ok(())
                }
            }
        };
        for_a_model("task".into(), &mut spec.task)?;
        for (i, s) in spec.judge_context.iter_mut().enumerate() {
            for_a_model(format!("judge_context[{i}]"), s)?;
        }
        if let Some(s) = spec.ground_truth.as_mut() {
            for_a_model("ground_truth".into(), s)?;
        }
    }
    let mut fill = |s: &mut String| *s = substitute(s, env, &mut missing);
    for s in spec.start_url.iter_mut() {
        fill(s);
    }
    for s in spec.allowed_domains.iter_mut() {
        fill(s);
    }
    for check in spec.verify.iter_mut() {
        match check {
            Check::Url(s) | Check::Js(s) | Check::Answer(s) => fill(s),
            Check::Text(t) => {
                for s in t.contains.iter_mut().chain(t.lacks.iter_mut()) {
                    fill(s);
                }
            }
            Check::Http(h) => {
                fill(&mut h.url);
                fill(&mut h.pointer);
                if let serde_json::Value::String(s) = &mut h.equals {
                    fill(s);
                }
            }
            Check::File(f) => {
                for s in f.name.iter_mut().chain(f.contains.iter_mut()) {
                    fill(s);
                }
            }
        }
    }
    let mut reasons: Vec<String> = Vec::new();
    if !missing.is_empty() {
        missing.dedup();
        reasons.push(format!("unset environment variable {}", missing.join(", ")));
    }
    let unset: Vec<String> = spec
        .secrets
        .iter()
        .filter(|(_, source)| env(source.parts().0).is_none_or(|v| v.is_empty()))
        .map(|(name, source)| format!("{name} (from {})", source.parts().0))
        .collect();
    if !unset.is_empty() {
        reasons.push(format!("unset secret {}", unset.join(", ")));
    }
    Ok(Task {
        spec,
        file: file.to_owned(),
        skip: (!reasons.is_empty()).then(|| reasons.join("; ")),
    })
}

/// Why `${name}` may not be filled into text a model reads, if so: it is a
/// secret's variable (the agent types a secret by its placeholder, never
/// reading it) or a model's API key.
fn smuggled(name: &str, secret_vars: &[(String, String)]) -> Option<String> {
    if let Some((_, placeholder)) = secret_vars.iter().find(|(var, _)| var == name) {
        return Some(format!(
            "${{{name}}} is the variable of the secret {placeholder}: its value would be sent to the model; write <secret>{placeholder}</secret> instead, which the agent types without reading it"
        ));
    }
    rove_llm::is_credential_var(name).then(|| {
        format!("${{{name}}} holds a model's credential: its value would be sent to the model; leave it out")
    })
}

/// Why the value of `${name}` may not be filled into text a model reads,
/// judged by the value, as a copy under another name (`COPY=$PW`) is the
/// secret all the same: it holds a secret's value, or a model's
/// credential's, from the environment. Values shorter than 4 characters
/// are not judged (a secret that short is no secret worth the refusal).
fn same_value(
    name: &str,
    value: &str,
    secret_vars: &[(String, String)],
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    let holds = |var: &str| {
        env(var).is_some_and(|secret| secret.chars().count() >= 4 && value.contains(&secret))
    };
    if let Some((var, placeholder)) = secret_vars.iter().find(|(var, _)| holds(var)) {
        return Some(format!(
            "${{{name}}} holds the value of {var}, the variable of the secret {placeholder}: it would be sent to the model; write <secret>{placeholder}</secret> instead, which the agent types without reading it"
        ));
    }
    for var in rove_llm::credential_vars() {
        if holds(var) {
            return Some(format!(
                "${{{name}}} holds the value of {var}, a model's credential: it would be sent to the model; leave it out"
            ));
        }
    }
    None
}

/// `text` with each `${NAME}` replaced by its value; names not set are
/// added to `missing` and left as written. `$${` stays a literal `${`.
pub fn substitute(
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
    missing: &mut Vec<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        if rest[..at].ends_with('$') {
            out.push_str(&rest[..at - 1]);
            out.push_str("${");
            rest = &rest[at + 2..];
            continue;
        }
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let name = &after[..end];
        match env(name) {
            Some(value) => out.push_str(&value),
            None => {
                if !missing.iter().any(|m| m == name) {
                    missing.push(name.to_owned());
                }
                out.push_str(&rest[at..at + 2 + end + 1]);
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
