//! Finding a Chromium-based browser on this machine.
//!
//! Order: `ROVE_BROWSER` (an explicit choice is never second-guessed: if it is
//! wrong, that is the error), then well-known names on `PATH`, then the usual
//! install locations.

use std::path::{Path, PathBuf};

use crate::BrowserError;

/// The environment variable naming the browser executable.
pub const BROWSER_ENV: &str = "ROVE_BROWSER";

const PATH_NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

const INSTALL_PATHS: [&str; 9] = [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/lib/chromium/chromium",
    "/snap/bin/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/// Finds the browser to launch: `explicit` if given, else `ROVE_BROWSER`, else
/// the first match on `PATH` and in the usual places.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf, BrowserError> {
    let from_env = std::env::var_os(BROWSER_ENV).filter(|v| !v.is_empty());
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    find_browser_in(explicit, from_env.as_deref().map(Path::new), &path_var)
}

fn find_browser_in(
    explicit: Option<&Path>,
    from_env: Option<&Path>,
    path_var: &std::ffi::OsStr,
) -> Result<PathBuf, BrowserError> {
    if let Some(chosen) = explicit.or(from_env) {
        let source = if explicit.is_some() {
            "--browser".to_owned()
        } else {
            BROWSER_ENV.to_owned()
        };
        return resolve(chosen, path_var).ok_or_else(|| BrowserError::NoBrowser {
            tried: vec![format!(
                "{} ({source}): not an executable file",
                chosen.display()
            )],
        });
    }
    let mut tried = Vec::new();
    for name in PATH_NAMES {
        if let Some(found) = search_path(name, path_var) {
            return Ok(found);
        }
        tried.push(format!("{name} on PATH"));
    }
    for path in INSTALL_PATHS {
        let path = Path::new(path);
        if is_executable(path) {
            return Ok(path.to_owned());
        }
        tried.push(path.display().to_string());
    }
    Err(BrowserError::NoBrowser { tried })
}

/// A bare name is looked up on `PATH`; anything with a slash is taken as is.
fn resolve(chosen: &Path, path_var: &std::ffi::OsStr) -> Option<PathBuf> {
    if chosen.components().count() == 1 && !chosen.is_absolute() {
        return chosen.to_str().and_then(|name| search_path(name, path_var));
    }
    is_executable(chosen).then(|| chosen.to_owned())
}

fn search_path(name: &str, path_var: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn fake_exe(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rove-find-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        dir
    }

    #[test]
    fn env_choice_wins_and_a_wrong_one_is_an_error() {
        let dir = scratch("env");
        let exe = fake_exe(&dir, "my-chrome");
        let path_var = std::ffi::OsString::from(dir.as_os_str());
        assert_eq!(
            find_browser_in(None, Some(&exe), &path_var).ok(),
            Some(exe.clone())
        );
        // A bare name is searched on PATH.
        assert_eq!(
            find_browser_in(None, Some(Path::new("my-chrome")), &path_var).ok(),
            Some(exe)
        );
        let missing = dir.join("nope");
        let err = find_browser_in(None, Some(&missing), &path_var).expect_err("missing");
        assert!(err.to_string().contains("nope"), "{err}");
        assert!(err.to_string().contains(BROWSER_ENV), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn path_names_are_searched_in_order() {
        let dir = scratch("path");
        let chrome = fake_exe(&dir, "google-chrome");
        let path_var = std::ffi::OsString::from(dir.as_os_str());
        assert_eq!(find_browser_in(None, None, &path_var).ok(), Some(chrome));
        let chromium = fake_exe(&dir, "chromium");
        assert_eq!(find_browser_in(None, None, &path_var).ok(), Some(chromium));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_non_executable_file_is_not_a_browser() {
        let dir = scratch("noexec");
        let path = dir.join("chromium");
        std::fs::write(&path, "").expect("write");
        let path_var = std::ffi::OsString::from(dir.as_os_str());
        assert_eq!(search_path("chromium", &path_var), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
