//! Finding a Chromium-based browser on this machine.
//!
//! Order: `ROVE_BROWSER` (an explicit choice is never second-guessed: if it is
//! wrong, that is the error), then well-known names on `PATH` (Chromium,
//! Chrome, Microsoft Edge), then the usual install locations, then the
//! Chrome for Testing builds that Puppeteer and Playwright download into
//! the user's cache (the newest first).

use std::path::{Path, PathBuf};

use crate::BrowserError;

/// The environment variable naming the browser executable.
pub const BROWSER_ENV: &str = "ROVE_BROWSER";

const PATH_NAMES: [&str; 7] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "microsoft-edge",
    "microsoft-edge-stable",
    "chrome",
];

const INSTALL_PATHS: [&str; 13] = [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/lib/chromium/chromium",
    "/snap/bin/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/usr/bin/microsoft-edge",
    "/opt/microsoft/msedge/msedge",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
];

/// Where Chrome for Testing lands under a download cache: Puppeteer's
/// `chrome/linux-VERSION/chrome-linux64/chrome` and Playwright's
/// `chromium-REVISION/chrome-linux64/chrome` (`chrome-linux` before 2024).
const TESTING_LAYOUTS: [(&str, &str, &[&str]); 2] = [
    ("puppeteer/chrome", "linux-", &["chrome-linux64/chrome"]),
    (
        "ms-playwright",
        "chromium-",
        &["chrome-linux64/chrome", "chrome-linux/chrome"],
    ),
];

/// What a search for the browser found, and every place it looked first.
#[derive(Debug, Clone, PartialEq)]
pub struct BrowserSearch {
    /// The browser, when one was found.
    pub found: Option<PathBuf>,
    /// Each place looked at, in order, up to and with the one that held it:
    /// `chromium on PATH`, `/usr/bin/chromium` …
    pub tried: Vec<String>,
}

/// Finds the browser to launch: `explicit` if given, else `ROVE_BROWSER`, else
/// the first match on `PATH` and in the usual places.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf, BrowserError> {
    let search = search_browser(explicit);
    search.found.ok_or(BrowserError::NoBrowser {
        tried: search.tried,
    })
}

/// [`find_browser`], also saying where it looked (`rove doctor` lists it).
pub fn search_browser(explicit: Option<&Path>) -> BrowserSearch {
    let from_env = std::env::var_os(BROWSER_ENV).filter(|v| !v.is_empty());
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    let cache = cache_dirs();
    search_in(
        explicit,
        from_env.as_deref().map(Path::new),
        &path_var,
        &INSTALL_PATHS,
        &cache,
    )
}

/// The download caches of Puppeteer and Playwright: their own variables,
/// then `$XDG_CACHE_HOME`, then `~/.cache`.
fn cache_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(p) = std::env::var_os("PLAYWRIGHT_BROWSERS_PATH").filter(|v| !v.is_empty()) {
        // Playwright's own folder: its browsers sit right in it.
        dirs.push(PathBuf::from(p).join(".."));
    }
    if let Some(p) = std::env::var_os("PUPPETEER_CACHE_DIR").filter(|v| !v.is_empty()) {
        dirs.push(PathBuf::from(p).join(".."));
    }
    match std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        Some(p) => dirs.push(PathBuf::from(p)),
        None => {
            if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
                dirs.push(PathBuf::from(home).join(".cache"));
            }
        }
    }
    dirs
}

fn search_in(
    explicit: Option<&Path>,
    from_env: Option<&Path>,
    path_var: &std::ffi::OsStr,
    installs: &[&str],
    caches: &[PathBuf],
) -> BrowserSearch {
    if let Some(chosen) = explicit.or(from_env) {
        let source = if explicit.is_some() {
            "--browser".to_owned()
        } else {
            BROWSER_ENV.to_owned()
        };
        let found = resolve(chosen, path_var);
        let what = if found.is_some() {
            "chosen"
        } else {
            "not an executable file"
        };
        return BrowserSearch {
            found,
            tried: vec![format!("{} ({source}): {what}", chosen.display())],
        };
    }
    let mut tried = Vec::new();
    for name in PATH_NAMES {
        tried.push(format!("{name} on PATH"));
        if let Some(found) = search_path(name, path_var) {
            return BrowserSearch {
                found: Some(found),
                tried,
            };
        }
    }
    for path in installs {
        let path = Path::new(path);
        tried.push(path.display().to_string());
        if is_executable(path) {
            return BrowserSearch {
                found: Some(path.to_owned()),
                tried,
            };
        }
    }
    for cache in caches {
        for (folder, prefix, inner) in TESTING_LAYOUTS {
            let base = cache.join(folder);
            tried.push(format!("{}/{prefix}*", base.display()));
            for build in newest_first(&base, prefix) {
                for inner in inner {
                    let candidate = build.join(inner);
                    if is_executable(&candidate) {
                        return BrowserSearch {
                            found: Some(candidate),
                            tried,
                        };
                    }
                }
            }
        }
    }
    BrowserSearch { found: None, tried }
}

/// The folders under `base` whose names start with `prefix`, the highest
/// version first (compared number by number: 131.0.6778.85 after 99.0).
fn newest_first(base: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(base) else {
        return Vec::new();
    };
    let mut builds: Vec<(Vec<u64>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let version = name.strip_prefix(prefix)?;
            let numbers = version
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect();
            Some((numbers, e.path()))
        })
        .collect();
    builds.sort_by(|a, b| b.0.cmp(&a.0));
    builds.into_iter().map(|(_, path)| path).collect()
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
            search_in(None, Some(&exe), &path_var, &[], &[]).found,
            Some(exe.clone())
        );
        // A bare name is searched on PATH.
        assert_eq!(
            search_in(None, Some(Path::new("my-chrome")), &path_var, &[], &[]).found,
            Some(exe)
        );
        let missing = dir.join("nope");
        let search = search_in(None, Some(&missing), &path_var, &[], &[]);
        assert_eq!(search.found, None);
        let err = search.tried.join("; ");
        assert!(err.contains("nope") && err.contains(BROWSER_ENV), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn path_names_are_searched_in_order() {
        let dir = scratch("path");
        let chrome = fake_exe(&dir, "google-chrome");
        let path_var = std::ffi::OsString::from(dir.as_os_str());
        assert_eq!(
            search_in(None, None, &path_var, &[], &[]).found,
            Some(chrome)
        );
        let chromium = fake_exe(&dir, "chromium");
        assert_eq!(
            search_in(None, None, &path_var, &[], &[]).found,
            Some(chromium)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn edge_on_path_is_found_and_the_places_before_it_are_listed() {
        let dir = scratch("edge");
        let edge = fake_exe(&dir, "microsoft-edge");
        let path_var = std::ffi::OsString::from(dir.as_os_str());
        let search = search_in(None, None, &path_var, &[], &[]);
        assert_eq!(search.found, Some(edge));
        assert_eq!(
            search.tried.first().map(String::as_str),
            Some("chromium on PATH")
        );
        assert_eq!(
            search.tried.last().map(String::as_str),
            Some("microsoft-edge on PATH")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn chrome_for_testing_in_a_download_cache_is_found_newest_first() {
        let dir = scratch("cft");
        let cache = dir.join("cache");
        let mut builds = Vec::new();
        for version in ["99.0.4844.51", "131.0.6778.85", "120.0.6099.109"] {
            let folder = cache.join(format!("puppeteer/chrome/linux-{version}/chrome-linux64"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            builds.push(fake_exe(&folder, "chrome"));
        }
        let playwright = cache.join("ms-playwright/chromium-1140/chrome-linux");
        std::fs::create_dir_all(&playwright).expect("mkdir");
        fake_exe(&playwright, "chrome");
        // Nothing on PATH (an empty folder) and no install paths: the
        // caches decide.
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let caches = std::slice::from_ref(&cache);
        let search = search_in(None, None, empty.as_os_str(), &[], caches);
        assert_eq!(search.found.as_ref(), builds.get(1), "131 is the newest");
        assert!(
            search
                .tried
                .iter()
                .any(|t| t.ends_with("puppeteer/chrome/linux-*")),
            "{:?}",
            search.tried
        );
        std::fs::remove_dir_all(cache.join("puppeteer")).expect("rm");
        let search = search_in(None, None, empty.as_os_str(), &[], caches);
        assert_eq!(search.found, Some(playwright.join("chrome")));
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
