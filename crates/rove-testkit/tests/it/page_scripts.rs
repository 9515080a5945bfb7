//! Every page script under `crates/*/src` (walker.js, read.js,
//! actionable.js, editable.js, and any added later) compiles in Chromium.
//! A syntax error in one would otherwise surface only when a command first
//! runs it, as a confusing failure far from its cause.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rove_browser::Tab;

/// Every `.js` file under each crate's `src`, found on disk so a new script
/// is checked without anyone listing it here.
fn page_scripts() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/");
    let mut found = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(crates)
        .expect("crates/")
        .filter_map(Result::ok)
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("read folder")
            .filter_map(Result::ok)
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "js") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Compiles `source` without running or keeping it; the exception's text
/// and 1-based line when it does not compile.
async fn compile(tab: &Tab, source: &str) -> Result<(), String> {
    let answer = tokio::time::timeout(
        Duration::from_secs(20),
        tab.send(&rove_cdp::protocol::runtime::CompileScript {
            expression: source.to_owned(),
            source_url: String::new(),
            persist_script: false,
            execution_context_id: None,
        }),
    )
    .await
    .map_err(|_| "compileScript did not answer within 20 s".to_owned())?
    .map_err(|e| format!("compileScript failed: {e}"))?;
    match answer.exception_details {
        None => Ok(()),
        Some(details) => {
            let line = details.line_number + 1;
            let message = details
                .exception
                .as_ref()
                .and_then(|e| e.description.as_deref())
                .unwrap_or(&details.text);
            Err(format!("line {line}: {message}"))
        }
    }
}

/// A script is either a whole script (the walker, an IIFE) or a function
/// given to `Runtime.callFunctionOn` (`function (x) { … }`), which compiles
/// as an expression in parentheses; the wrapping adds no line, so line
/// numbers hold either way.
async fn check(tab: &Tab, source: &str) -> Result<(), String> {
    let as_script = compile(tab, source).await;
    if as_script.is_ok() {
        return Ok(());
    }
    let as_function = compile(tab, &format!("({source}\n)")).await;
    match (as_script, as_function) {
        (_, Ok(())) => Ok(()),
        (Err(script), Err(function)) => {
            Err(format!("as a script, {script}; as a function, {function}"))
        }
        (Ok(()), _) => Ok(()),
    }
}

#[tokio::test]
async fn every_page_script_compiles_in_chromium() {
    let scripts = page_scripts();
    let names: Vec<String> = scripts
        .iter()
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    for known in ["walker.js", "read.js", "actionable.js", "editable.js"] {
        assert!(
            names.iter().any(|n| n == known),
            "{known} not found in {names:?}"
        );
    }
    let browser = rove_testkit::launch().await;
    let tab = browser
        .new_context()
        .await
        .expect("context")
        .new_tab()
        .await
        .expect("tab");
    // compileScript needs the Runtime domain on.
    tokio::time::timeout(
        Duration::from_secs(20),
        tab.send(&rove_cdp::protocol::runtime::Enable {}),
    )
    .await
    .expect("Runtime.enable answered")
    .expect("Runtime.enable");

    // The check can fail: a broken function and a broken script are caught,
    // on the line the error is on.
    let broken = check(&tab, "function (x) {\n  const a = ;\n}").await;
    assert!(
        broken.as_ref().is_err_and(|e| e.contains("line 2")),
        "{broken:?}"
    );
    let broken = check(&tab, "(() => {\n\n  if (x {\n})();").await;
    assert!(
        broken.as_ref().is_err_and(|e| e.contains("line 3")),
        "{broken:?}"
    );

    let mut failures = Vec::new();
    for path in &scripts {
        let source = std::fs::read_to_string(path).expect("read script");
        if let Err(e) = check(&tab, &source).await {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    browser.close().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
