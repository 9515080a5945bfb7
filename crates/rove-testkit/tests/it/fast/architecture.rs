//! Keeps docs/architecture.md true: every crate has a section in its code
//! map; each section's `Imports:` line is exactly the crate's normal rove
//! dependencies in its Cargo.toml; every file the map names exists; the
//! number of error codes it states is rove-errors' count; no library crate
//! depends on anyhow, and rove-testkit is never a normal dependency.

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
            let found = if file.starts_with("crates/") || file.starts_with("docs/") {
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
