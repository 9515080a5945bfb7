//! rove-browser's test support: the shared helpers of `rove-testkit`, plus
//! the fixture pages and scripts only these tests use.
#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};

use rove_localserver::{LocalServer, Response, Routes};
pub use rove_testkit::{External, Proxy, launch, pid_alive};

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

/// A fresh folder for this test (`rove-test-<name>-<pid>`).
pub fn scratch_dir(name: &str) -> PathBuf {
    rove_testkit::scratch_dir(&format!("test-{name}"))
}

pub fn write_script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, body).expect("write script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}
