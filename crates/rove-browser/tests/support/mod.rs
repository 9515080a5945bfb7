//! Shared helpers for rove-browser's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rove_browser::{Browser, LaunchOptions};
use rove_localserver::{LocalServer, Response, Routes};

/// Launches the system Chromium. Fails (never skips) when it is missing.
pub async fn launch() -> Browser {
    Browser::launch(LaunchOptions::default())
        .await
        .unwrap_or_else(|e| panic!("launching Chromium failed (is it installed?): {e}"))
}

pub async fn fixture_server() -> LocalServer {
    LocalServer::start(
        Routes::new()
            .page(
                "/hello",
                Response::html("<!doctype html><title>Hello from rove</title><h1>Hello</h1><button>Go</button>"),
            )
            .page(
                "/cookie",
                Response::html("<!doctype html><title>cookie</title>").header("Set-Cookie", "flavour=oat; Path=/"),
            ),
    )
    .await
    .expect("fixture server")
}

pub fn pid_alive(pid: u32) -> bool {
    // A zombie is dead: it only waits for its parent to read its status.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

pub fn write_script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, body).expect("write script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}
