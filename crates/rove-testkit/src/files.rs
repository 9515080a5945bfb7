//! Folders and fixture pages.

use std::path::{Path, PathBuf};

use rove_localserver::{Response, Routes};

/// A fresh, empty folder under the system temp folder, named after the test
/// and this process (so parallel test binaries never share one).
pub fn scratch_dir(name: &str) -> PathBuf {
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
