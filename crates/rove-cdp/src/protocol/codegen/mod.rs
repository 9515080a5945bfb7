//! The generator of `src/protocol/generated/`, run as a test: it reads
//! Chromium's protocol definition checked in under `crates/rove-cdp/protocol/`
//! and the allowlist `protocol/uses.txt`, and fails when the checked-in code
//! is not what it makes. `ROVE_REGENERATE_PROTOCOL=1` writes it instead.
//!
//! A command, event or type the list names is generated with every field
//! the definition gives it. A type it refers to is generated too when it is
//! a plain alias (an id, a time, a list); an object or enum the list does
//! not name is left as `serde_json::Value`, so the generated code holds
//! only what rove reads or writes.

mod emit;
mod model;
mod names;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files the generator makes, by path under `src/protocol/generated/`.
fn generate() -> BTreeMap<String, String> {
    let dir = crate_dir().join("protocol");
    let browser = read(&dir.join("browser_protocol.json"));
    let js = read(&dir.join("js_protocol.json"));
    let spec = model::Spec::parse(&[&browser, &js]).expect("the protocol definition parses"); // ok: the generator runs only as a test
    let allow = model::Allowlist::parse(&read(&dir.join("uses.txt"))).expect("uses.txt reads"); // ok: the generator runs only as a test
    let domains = model::build(&spec, &allow).expect("every listed name resolves"); // ok: the generator runs only as a test
    emit::files(&domains, &allow.source)
}

/// The `.rs` files now under `dir`, by path relative to it.
fn existing(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(dir).expect("under dir"); // ok: the generator runs only as a test
                let key = relative.to_string_lossy().replace('\\', "/");
                found.insert(key, read(&path));
            }
        }
    }
    found
}

#[test]
fn generated_code_is_current() {
    let out = crate_dir().join("src/protocol/generated");
    let wanted = generate();
    if std::env::var_os("ROVE_REGENERATE_PROTOCOL").is_some() {
        let _ = std::fs::remove_dir_all(&out);
        for (path, text) in &wanted {
            let file = out.join(path);
            std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir"); // ok: the generator runs only as a test
            std::fs::write(&file, text).expect("write"); // ok: the generator runs only as a test
        }
        return;
    }
    let have = existing(&out);
    let stale: Vec<&String> = wanted
        .iter()
        .filter(|(path, text)| have.get(*path) != Some(text))
        .map(|(path, _)| path)
        .chain(have.keys().filter(|path| !wanted.contains_key(*path)))
        .collect();
    assert!(
        stale.is_empty(),
        "src/protocol/generated is stale ({stale:?}): run \
         `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`"
    );
}
