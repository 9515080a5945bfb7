//! Keeps docs/architecture.md true: every crate has a section in its code
//! map; each section's `Imports:` line is exactly the crate's normal rove
//! dependencies in its Cargo.toml; every file the map names exists; the
//! number of error codes it states is rove-errors' count; every deadline
//! the timeout ladder (limits.rs's docs) names is defined there; every source
//! folder of every crate is named in its crate's section; no library crate
//! depends on anyhow, and rove-testkit is never a normal dependency; a
//! shared concern's code (calendar dates, the secret-header list) lives in
//! its one home.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md")
}

/// The names in one `[table]` of a Cargo.toml (`name = …` or
/// `name.workspace = true` lines).
fn table_keys(manifest: &str, table: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == format!("[{table}]");
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line
            .split(['=', '.', ' '])
            .next()
            .unwrap_or_default()
            .trim();
        if !key.is_empty() {
            keys.insert(key.to_owned());
        }
    }
    keys
}

fn manifest(name: &str) -> String {
    std::fs::read_to_string(root().join("crates").join(name).join("Cargo.toml"))
        .unwrap_or_else(|e| panic!("{name}/Cargo.toml: {e}"))
}

/// Each code-map section (`### \`crates/NAME\``) and its text.
fn sections(doc: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        if line.starts_with("## ") || line.starts_with("### ") {
            found.extend(current.take());
            if let Some(name) = line
                .strip_prefix("### `crates/")
                .and_then(|rest| rest.strip_suffix('`'))
            {
                current = Some((name.to_owned(), String::new()));
            }
            continue;
        }
        if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    found.extend(current);
    found
}

/// The crates a section's `Imports:` sentence names (empty for "nothing").
fn imports(name: &str, text: &str) -> BTreeSet<String> {
    let start = text
        .find("Imports:")
        .unwrap_or_else(|| panic!("the section of {name} has no Imports: line"));
    let sentence = &text[start + "Imports:".len()..];
    let sentence = &sentence[..sentence.find('.').unwrap_or(sentence.len())];
    if sentence.trim_start().starts_with("nothing") {
        return BTreeSet::new();
    }
    sentence
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|w| *w == "rove" || w.starts_with("rove-"))
        .map(str::to_owned)
        .collect()
}

/// The `file.rs`, `file.js`, `file.json` and `folder/` a text names in
/// backticks.
fn named_files(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            !t.contains(' ')
                && (t.ends_with(".rs")
                    || t.ends_with(".js")
                    || t.ends_with(".json")
                    || (t.ends_with('/') && t.len() > 1))
        })
        .map(str::to_owned)
        .collect()
}

/// Whether `name` (a path's tail) is a file or folder somewhere in `dir`.
fn exists_under(dir: &Path, name: &str) -> bool {
    let wanted = name.trim_end_matches('/');
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.to_string_lossy().ends_with(&format!("/{wanted}")) {
                return true;
            }
            if path.is_dir() && entry.file_name() != "target" {
                folders.push(path);
            }
        }
    }
    false
}

#[test]
fn every_crate_has_a_section_in_the_code_map() {
    let doc = doc();
    let documented: BTreeSet<String> = sections(&doc).into_iter().map(|(n, _)| n).collect();
    let actual: BTreeSet<String> = crates().into_iter().collect();
    assert_eq!(
        documented, actual,
        "docs/architecture.md's code map and crates/ disagree"
    );
}

#[test]
fn each_crates_rove_dependencies_are_the_ones_the_map_states() {
    let all: BTreeSet<String> = crates().into_iter().collect();
    for (name, text) in sections(&doc()) {
        let stated = imports(&name, &text);
        let used: BTreeSet<String> = table_keys(&manifest(&name), "dependencies")
            .into_iter()
            .filter(|d| all.contains(d))
            .collect();
        assert_eq!(
            stated, used,
            "{name}: docs/architecture.md says it imports {stated:?}, its Cargo.toml has {used:?}"
        );
    }
}

#[test]
fn the_layers_have_no_cycle_and_testkit_is_only_ever_a_dev_dependency() {
    let names = crates();
    for name in &names {
        let deps = table_keys(&manifest(name), "dependencies");
        assert!(
            !deps.contains("rove-testkit"),
            "{name} depends on rove-testkit outside its tests"
        );
        assert!(!deps.contains(name), "{name} depends on itself");
    }
    // Every crate reaches the bottom: walk down from each and never come
    // back to where the walk began.
    for start in &names {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<String> = vec![start.clone()];
        while let Some(name) = todo.pop() {
            for dep in table_keys(&manifest(&name), "dependencies") {
                if names.contains(&dep) {
                    assert_ne!(&dep, start, "{start} depends on itself through {name}");
                    if seen.insert(dep.clone()) {
                        todo.push(dep);
                    }
                }
            }
        }
    }
}

#[test]
fn no_library_crate_depends_on_anyhow() {
    for name in crates() {
        let deps = table_keys(&manifest(&name), "dependencies");
        assert!(
            !deps.contains("anyhow"),
            "{name} depends on anyhow; library errors use thiserror, the binary's are Failure"
        );
    }
}

#[test]
fn every_file_the_map_names_exists() {
    let root = root();
    let mut missing = Vec::new();
    for (name, text) in sections(&doc()) {
        for file in named_files(&text) {
            let found = if ["crates/", "docs/", "python/", "scripts/"]
                .iter()
                .any(|top| file.starts_with(top))
            {
                root.join(&file).exists()
            } else {
                exists_under(&root.join("crates").join(&name), &file)
            };
            if !found {
                missing.push(format!("{name}: {file}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md names files that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Every folder under `dir`, as its name, except what a generator writes
/// (a generated folder is named once, as `generated/`).
fn source_folders(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != "generated" {
                source_folders(&path, out);
            }
            out.push(name);
        }
    }
}

#[test]
fn every_source_folder_is_named_in_its_crates_section() {
    let mut unnamed = Vec::new();
    for (name, text) in sections(&doc()) {
        let named: BTreeSet<String> = named_files(&text)
            .into_iter()
            .filter_map(|f| {
                let folder = f.strip_suffix('/')?;
                Some(folder.rsplit('/').next().unwrap_or(folder).to_owned())
            })
            .collect();
        let mut folders = Vec::new();
        source_folders(&root().join("crates").join(&name).join("src"), &mut folders);
        for folder in folders {
            if !named.contains(&folder) {
                unnamed.push(format!("{name}: src/…/{folder}/"));
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "docs/architecture.md's code map does not name these folders:\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn the_stated_number_of_error_codes_is_rove_errors_count() {
    let doc = doc();
    let stated: Vec<usize> = doc
        .split("the ")
        .skip(1)
        .filter_map(|rest| {
            let (number, after) = rest.split_once(' ')?;
            after.starts_with("codes").then(|| number.parse().ok())?
        })
        .collect();
    assert!(
        !stated.is_empty(),
        "the map states no number of error codes"
    );
    for n in stated {
        assert_eq!(
            n,
            rove_errors::ErrorCode::ALL.len(),
            "docs/architecture.md says {n} codes"
        );
    }
}

/// Every `.rs` file under `dir`.
fn source_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The product code of a file: its lines before its first `#[cfg(test)]`
/// (tests sit at the end of a file), none of a `*_tests.rs` file.
fn product_lines(file: &Path) -> Vec<(usize, String)> {
    if file
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
    {
        return Vec::new();
    }
    let text = std::fs::read_to_string(file).expect("a source file");
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

/// Whether `line` writes a duration as a number (`Duration::from_secs(5)`,
/// `from_millis(200)`): a deadline or interval that belongs in `limits`.
/// One made from a setting (`Duration::from_millis(ms)`) is not.
fn literal_duration(line: &str) -> bool {
    [
        "from_secs(",
        "from_millis(",
        "from_secs_f64(",
        "from_micros(",
    ]
    .iter()
    .any(|call| {
        line.match_indices(&format!("Duration::{call}"))
            .any(|(at, m)| {
                line[at + m.len()..]
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit())
            })
    })
}

/// What a copy of a shared concern looks like in a line.
type Rule = fn(&str) -> bool;

#[test]
fn shared_concerns_have_one_home_in_rove_base() {
    // rove-base is the home; the test support and the fixture server
    // beside the stack keep their own test timings.
    let homes = ["rove-base", "rove-testkit", "rove-localserver"];
    let rules: [(&str, Rule); 4] = [
        (
            "a deadline or interval belongs in rove_base::limits",
            literal_duration,
        ),
        ("the placeholder is rove_base::redact::HIDDEN", |l: &str| {
            l.contains("\"<redacted>\"") || l.contains("\"***\"")
        }),
        (
            "private folders and files are made by rove_base::private",
            |l: &str| l.contains("0o700") || l.contains("0o600"),
        ),
        ("escaping is rove_base::text's", |l: &str| {
            l.contains("\"&amp;\"") || l.contains("\"&lt;\"")
        }),
    ];
    let mut copies = Vec::new();
    for name in crates().iter().filter(|n| !homes.contains(&n.as_str())) {
        let src = root().join("crates").join(name).join("src");
        for file in source_files(&src) {
            for (number, line) in product_lines(&file) {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for (rule, breaks) in &rules {
                    if breaks(&line) {
                        copies.push(format!(
                            "{}:{number}: {rule}: {}",
                            file.strip_prefix(root()).unwrap_or(&file).display(),
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        copies.is_empty(),
        "copies of a shared concern:\n{}",
        copies.join("\n")
    );
}

#[test]
fn every_deadline_the_ladder_names_is_in_limits() {
    let limits =
        std::fs::read_to_string(root().join("crates/rove-base/src/limits.rs")).expect("limits.rs");
    // The ladder is the table in the module's own docs.
    let docs: String = limits
        .lines()
        .map_while(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    let start = docs
        .find("# The timeout ladder")
        .expect("the ladder's section in limits.rs's docs");
    let ladder = &docs[start..];
    let rows: Vec<&str> = ladder
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| deadline |"))
        .collect();
    assert!(rows.len() > 20, "the ladder's table: {rows:?}");
    let mut unknown = Vec::new();
    for row in &rows {
        let names: Vec<&str> = row
            .split("`limits::")
            .skip(1)
            .map(|rest| rest.split(['`', ';', ',', ' ']).next().unwrap_or_default())
            .collect();
        assert!(
            !names.is_empty(),
            "a ladder row names no limits item: {row}"
        );
        for name in names {
            let defined = limits.contains(&format!("pub const {name}:"))
                || limits.contains(&format!("pub fn {name}("));
            if !defined {
                unknown.push(name.to_owned());
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "the ladder names what limits.rs does not define: {unknown:?}"
    );
}

/// A shared concern's mark, and the one file that may carry it.
const ONE_HOME: &[(&str, &str, &str)] = &[
    // The length of a 400-year era in days: calendar code.
    ("146_097", "crates/rove-base/src/time.rs", "dates"),
    (
        "\"proxy-authorization\"",
        "crates/rove-base/src/redact/mod.rs",
        "the secret headers",
    ),
];

#[test]
fn shared_concerns_live_in_one_home() {
    let mut strays = Vec::new();
    for name in crates() {
        for file in source_files(&root().join("crates").join(&name).join("src")) {
            let shown = file
                .strip_prefix(root())
                .unwrap_or(&file)
                .display()
                .to_string();
            for (number, line) in product_lines(&file) {
                for (mark, home, what) in ONE_HOME {
                    if line.contains(mark) && shown != *home {
                        strays.push(format!("{shown}:{number}: {what} belong in {home}"));
                    }
                }
            }
        }
    }
    assert!(strays.is_empty(), "{}", strays.join("\n"));
}
