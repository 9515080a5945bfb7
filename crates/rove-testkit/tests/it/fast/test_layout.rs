//! Keeps the tests' layout what docs/testing.md ("Layout and tiers") says: each
//! crate's integration tests are one binary, `tests/it/main.rs`, beside which
//! only a test declared `harness = false` in the crate's Cargo.toml (one that
//! needs its own `main`) may stand; and `fast`, the name `scripts/test.sh
//! --fast` filters on, names no module but `tests/it/fast`.

use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("crates/")
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    found.sort();
    found
}

/// The names of the `[[test]]` targets whose `harness` is false.
fn own_main_tests(manifest: &str) -> Vec<String> {
    let mut found = Vec::new();
    for table in manifest.split("[[test]]").skip(1) {
        let table = table.split("\n[").next().unwrap_or_default();
        let field = |key: &str| {
            table.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
            })
        };
        if field("harness").as_deref() == Some("false") {
            found.extend(field("name"));
        }
    }
    found
}

#[test]
fn each_crates_integration_tests_are_one_binary() {
    let mut wrong = Vec::new();
    for krate in entries(&crates_dir()) {
        let tests = krate.join("tests");
        if !tests.is_dir() {
            continue;
        }
        let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).expect("Cargo.toml");
        let alone = own_main_tests(&manifest);
        for entry in entries(&tests) {
            let name = entry
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let allowed = name == "it"
                || name
                    .strip_suffix(".rs")
                    .is_some_and(|stem| alone.iter().any(|a| a == stem));
            if !allowed {
                wrong.push(entry.display().to_string());
            }
        }
        if !tests.join("it/main.rs").is_file() {
            wrong.push(format!("{}: no it/main.rs", tests.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "integration tests belong in tests/it (a module of the one binary); only a \
         harness = false test may stand beside it:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn fast_names_only_the_fast_tier() {
    let mut wrong = Vec::new();
    for krate in entries(&crates_dir()) {
        let it = krate.join("tests/it");
        if !it.is_dir() {
            continue;
        }
        let mut folders = vec![it.clone()];
        while let Some(folder) = folders.pop() {
            for entry in entries(&folder) {
                let name = entry
                    .file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned();
                let is_fast = name == "fast" || name == "fast.rs";
                if is_fast && entry != it.join("fast") {
                    wrong.push(entry.display().to_string());
                }
                if entry.is_dir() {
                    folders.push(entry);
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "`scripts/test.sh --fast` runs every test whose path has `fast::`: only \
         tests/it/fast may be named so:\n{}",
        wrong.join("\n")
    );
}
