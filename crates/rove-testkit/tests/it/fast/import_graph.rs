//! Keeps each crate's files importing one another in one direction: the
//! `crate::…` and `super::…` paths of every file of every crate form a
//! graph without a circle, so each file can be read knowing only what is
//! below it. In rove-commands, a command folder (`commands/page/`, …) uses
//! nothing of another one: what two folders share lives in `session/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// Every crate's name with its `src/` folder.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("src").is_dir())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().join("src"),
            )
        })
        .collect();
    found.sort();
    found
}

/// Every `.rs` file under `dir`, as paths relative to `under`.
fn rust_files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, under, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(under).expect("inside").to_path_buf());
        }
    }
}

/// Whether `file` is a crate's root (`lib.rs`, `main.rs`).
fn is_root(file: &Path) -> bool {
    file == Path::new("lib.rs") || file == Path::new("main.rs")
}

/// A file's module path (`session/mod.rs` is `session`, `lib.rs` and
/// `main.rs` are ``).
fn module_of(file: &Path) -> String {
    if is_root(file) {
        return String::new();
    }
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The product code of a text: its lines before its first `#[cfg(test)]`
/// (tests sit at the end of a file, and their `super` is the file), each
/// without its `//` comment.
fn code_of(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One crate's files, their module paths, and the files that define each
/// public name (what `crate::Name` reaches through a root's re-export).
struct Crate {
    texts: BTreeMap<PathBuf, String>,
    modules: BTreeMap<String, PathBuf>,
    items: BTreeMap<String, BTreeSet<PathBuf>>,
    /// The names the crate's root re-exports (`pub use session::Session;`)
    /// and the module each comes from.
    reexports: BTreeMap<String, String>,
}

/// The names a root's `use` lines bring in, with their modules
/// (`pub use a::b::{C, D as E};` gives `C` and `E` from `a::b`).
fn reexports_of(root: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for statement in root.split(';') {
        let statement = statement.trim();
        let Some(path) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("pub(crate) use "))
            .or_else(|| statement.strip_prefix("use "))
        else {
            continue;
        };
        let path = path
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        let (module, names) = match path.split_once("::{") {
            Some((module, group)) => (module.to_owned(), group.trim_end_matches('}').to_owned()),
            None => match path.rsplit_once("::") {
                Some((module, name)) => (module.to_owned(), name.to_owned()),
                None => continue,
            },
        };
        for name in names.split(',') {
            let name = name.trim();
            let shown = name.rsplit(" as ").next().unwrap_or(name).trim();
            let inner = name.split(" as ").next().unwrap_or(name).trim();
            let module = match inner.rsplit_once("::") {
                Some((more, _)) => format!("{module}::{more}"),
                None => module.clone(),
            };
            if !shown.is_empty() && shown != "*" && shown != "self" {
                found.insert(shown.to_owned(), module);
            }
        }
    }
    found
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        rust_files(src, src, &mut files);
        // A `*_tests.rs` file is a module's tests, kept beside it.
        files.retain(|f| !f.to_string_lossy().ends_with("_tests.rs"));
        let texts: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(src.join(f)).expect("source");
                (f.clone(), code_of(&text))
            })
            .collect();
        let modules = files.iter().map(|f| (module_of(f), f.clone())).collect();
        let mut items: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
        for (file, text) in texts.iter().filter(|(f, _)| !is_root(f)) {
            for line in text.lines().map(str::trim_start) {
                let Some(rest) = line
                    .strip_prefix("pub ")
                    .or_else(|| line.strip_prefix("pub(crate) "))
                else {
                    continue;
                };
                let rest = rest.strip_prefix("async ").unwrap_or(rest);
                let mut words = rest.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                let kind = words.next().unwrap_or_default();
                if ["fn", "struct", "enum", "trait", "const", "type", "static"].contains(&kind)
                    && let Some(name) = words.find(|w| !w.is_empty())
                {
                    items
                        .entry(name.to_owned())
                        .or_default()
                        .insert(file.clone());
                }
            }
        }
        let reexports = texts
            .iter()
            .filter(|(f, _)| is_root(f))
            .flat_map(|(_, text)| reexports_of(text))
            .collect();
        Crate {
            texts,
            modules,
            items,
            reexports,
        }
    }

    /// The files a path names: the module a name the root re-exports comes
    /// from, else the longest module prefix of it, else the files defining
    /// its first name.
    fn resolve(&self, parts: &[&str], found: &mut BTreeSet<PathBuf>) {
        if let [name, ..] = parts
            && !self.modules.contains_key(*name)
            && let Some(file) = self
                .reexports
                .get(*name)
                .and_then(|module| self.modules.get(module))
        {
            found.insert(file.clone());
            return;
        }
        for k in (1..=parts.len()).rev() {
            if let Some(file) = self.modules.get(&parts[..k].join("::")) {
                found.insert(file.clone());
                return;
            }
        }
        if let Some(files) = parts.first().and_then(|name| self.items.get(*name)) {
            found.extend(files.iter().cloned());
        }
    }

    /// The files `file` imports through `crate::…` and `super::…` paths
    /// (a `{…}` group is followed one level deep).
    fn imports_of(&self, file: &Path) -> BTreeSet<PathBuf> {
        let code = &self.texts[file];
        let module = module_of(file);
        // `super` of `a::b` (a/b.rs, or a/b/mod.rs) is `a`.
        let parent: Vec<&str> = {
            let mut parts: Vec<&str> = module.split("::").filter(|p| !p.is_empty()).collect();
            parts.pop();
            parts
        };
        let mut found = BTreeSet::new();
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent)] {
            for (at, _) in code.match_indices(prefix) {
                // `crate::` inside `rove_base::crate::` cannot occur, but a
                // `super::` inside `super::super::` is one path, read once.
                if code[..at].ends_with("::") {
                    continue;
                }
                let rest = &code[at + prefix.len()..];
                let path_of = |text: &str| -> Vec<String> {
                    let taken: String = text
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let mut parts: Vec<String> = base.iter().map(|p| (*p).to_owned()).collect();
                    let mut up = base.len();
                    for part in taken.split("::").filter(|p| !p.is_empty()) {
                        if part == "super" && up > 0 {
                            up -= 1;
                            parts.truncate(up);
                        } else {
                            parts.push(part.to_owned());
                        }
                    }
                    parts
                };
                let head = path_of(rest);
                let after = &rest[rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len())..];
                if let Some(group) = after.strip_prefix('{') {
                    let inner = group.split('}').next().unwrap_or_default();
                    for piece in inner.split(',') {
                        let mut parts = head.clone();
                        parts.extend(path_of(piece.trim()).into_iter().skip(base.len()));
                        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
                        self.resolve(&parts, &mut found);
                    }
                } else {
                    let parts: Vec<&str> = head.iter().map(String::as_str).collect();
                    self.resolve(&parts, &mut found);
                }
            }
        }
        found.remove(file);
        found.retain(|f| !is_root(f));
        found
    }

    fn edges(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        self.texts
            .keys()
            .map(|file| (file.clone(), self.imports_of(file)))
            .collect()
    }
}

/// The files of `edges` that lie on a circle, in groups that reach one
/// another, each with what it imports inside its group.
fn circles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<(String, Vec<String>)>> {
    let reach = |from: &PathBuf| -> BTreeSet<PathBuf> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&PathBuf> = edges.get(from).into_iter().flatten().collect();
        while let Some(file) = todo.pop() {
            if seen.insert(file.clone()) {
                todo.extend(edges.get(file).into_iter().flatten());
            }
        }
        seen
    };
    let reached: BTreeMap<&PathBuf, BTreeSet<PathBuf>> =
        edges.keys().map(|f| (f, reach(f))).collect();
    let mut placed = BTreeSet::new();
    let mut groups = Vec::new();
    for (file, from_it) in &reached {
        if placed.contains(*file) || !from_it.contains(*file) {
            continue;
        }
        let group: BTreeSet<&PathBuf> = from_it
            .iter()
            .filter(|other| reached[*other].contains(*file))
            .collect();
        let lines = group
            .iter()
            .map(|member| {
                placed.insert((*member).clone());
                let inside: Vec<String> = edges[*member]
                    .iter()
                    .filter(|to| group.contains(to))
                    .map(|to| to.display().to_string())
                    .collect();
                (member.display().to_string(), inside)
            })
            .collect();
        groups.push(lines);
    }
    groups
}

// No crate has a circle left: one is broken by moving what both sides
// use below both (or to the side that owns it), never by listing it here.
#[test]
fn no_crates_files_import_one_another_in_a_circle() {
    let mut found = Vec::new();
    let mut files = 0;
    for (name, src) in crate_sources() {
        let edges = Crate::read(&src).edges();
        files += edges.len();
        for group in circles(&edges) {
            let shown: Vec<String> = group
                .iter()
                .map(|(file, imports)| format!("{file} → {}", imports.join(", ")))
                .collect();
            found.push(format!("{name}:\n  {}", shown.join("\n  ")));
        }
    }
    assert!(
        found.is_empty(),
        "files import one another in a circle (see the folder order in docs/architecture.md):\n{}",
        found.join("\n")
    );
    assert!(files > 300, "found only {files} files");
}

#[test]
fn the_graph_sees_crate_and_super_paths() {
    let src = root().join("crates/rove-commands/src");
    let commands = Crate::read(&src);
    let network = commands.imports_of(Path::new("commands/devtools/network.rs"));
    assert!(network.contains(Path::new("session/mod.rs")), "{network:?}");
    let edges = commands.edges();
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 100);
}

/// `commands/page/x.rs` is in the folder `page`.
fn command_folder(file: &Path) -> Option<String> {
    let mut parts = file.components().map(|c| c.as_os_str().to_string_lossy());
    (parts.next()? == "commands").then_some(())?;
    let folder = parts.next()?.into_owned();
    parts.next().map(|_| folder)
}

#[test]
fn no_command_folder_uses_another_ones_code() {
    let src = root().join("crates/rove-commands/src");
    let commands = Crate::read(&src);
    // A helper a folder defines on the session (`self.shown_url(…)`) is as
    // much an import as a path, and no path shows it: its name is looked
    // for in the other folders' code.
    let mut defined: BTreeMap<String, String> = BTreeMap::new();
    for (file, text) in &commands.texts {
        let Some(folder) = command_folder(file) else {
            continue;
        };
        for line in text.lines().map(str::trim_start) {
            let Some(rest) = line.strip_prefix("pub(crate) ") else {
                continue;
            };
            let rest = rest.strip_prefix("async ").unwrap_or(rest);
            if let Some(name) = rest
                .strip_prefix("fn ")
                .and_then(|r| r.split(['(', '<']).next())
            {
                defined.insert(name.to_owned(), folder.clone());
            }
        }
    }
    let mut crossings = Vec::new();
    for (file, text) in &commands.texts {
        let Some(folder) = command_folder(file) else {
            continue;
        };
        for imported in commands.imports_of(file) {
            if let Some(other) = command_folder(&imported)
                && other != folder
            {
                crossings.push(format!("{} imports {}", file.display(), imported.display()));
            }
        }
        // `self\n    .name(` is the same call as `self.name(`.
        let mut calls = String::with_capacity(text.len());
        for piece in text.split_whitespace() {
            if !(piece.starts_with('.') || calls.ends_with(['(', '.'])) {
                calls.push(' ');
            }
            calls.push_str(piece);
        }
        for (name, other) in &defined {
            if *other != folder && calls.contains(&format!("self.{name}(")) {
                crossings.push(format!(
                    "{} calls {name}, defined in commands/{other}/",
                    file.display()
                ));
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "command folders use one another's code (move what they share into session/):\n{}",
        crossings.join("\n")
    );
    assert!(defined.len() > 20, "found only {} helpers", defined.len());
}
