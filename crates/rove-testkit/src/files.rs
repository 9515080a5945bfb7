//! Folders and fixture pages.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rove_localserver::{Response, Routes};

/// A fresh, empty folder under the system temp folder, named after the test
/// and this process (so parallel test binaries never share one). Each
/// crate's tests are one binary, so two tests asking for the same name
/// would share (and empty) one folder: the second is refused.
pub fn scratch_dir(name: &str) -> PathBuf {
    static GIVEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let fresh = GIVEN
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(name.to_owned());
    assert!(
        fresh,
        "two tests of this binary asked for the scratch folder {name:?}; give each its own name"
    );
    let dir = std::env::temp_dir().join(format!("rove-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir"); // ok: test support, a failed set-up fails the test
    dir
}

/// Every file in `dir`, served as HTML at `/<file name>`.
pub fn fixture_routes(dir: &Path) -> Routes {
    let mut routes = Routes::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("entry").path(); // ok: test support, a failed set-up fails the test
        let name = path
            .file_name()
            .expect("name") // ok: test support, a failed set-up fails the test
            .to_string_lossy()
            .into_owned();
        let html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        routes = routes.page(&format!("/{name}"), Response::html(html));
    }
    routes
}
