//! No browser outlives the process that launched it: not after a panic, not
//! after SIGKILL of the owner. The test binary re-runs itself as the owner
//! (`ROVE_EXIT_GUARD_CHILD=<mode>`), so the owner is a real, separate process.
//! It stays a binary of its own, beside `tests/it`: it has its own `main`
//! (no libtest) because the owner must be this very program, with nothing
//! else running in it that could launch or kill browsers.
#![allow(clippy::print_stdout)] // a test program without libtest reports on stdout

use rove_testkit as support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rove_browser::processes_mentioning;

const CHILD_ENV: &str = "ROVE_EXIT_GUARD_CHILD";

fn main() {
    if let Ok(mode) = std::env::var(CHILD_ENV) {
        child(&mode);
        return;
    }
    owner_panics_while_holding_a_browser();
    owner_is_killed_with_sigkill();
    println!("exit_guards: 2 passed");
}

/// The owner: launch, report, then end as `mode` says.
fn child(mode: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let browser = support::launch().await;
        let ctx = browser.new_context().await.expect("context");
        let _tab = ctx.new_tab().await.expect("tab");
        println!(
            "READY {} {}",
            browser.pid().expect("pid"),
            browser.profile_dir().expect("profile").display()
        );
        // Wait for the parent to look at the running browser first.
        let mut go = String::new();
        let _ = std::io::stdin().read_line(&mut go);
        match mode {
            "panic" => panic!("deliberate panic while holding a browser"),
            // Holds the browser until the parent SIGKILLs this process.
            _ => std::future::pending::<()>().await,
        }
    });
}

struct Owner {
    child: std::process::Child,
    browser_pid: u32,
    profile: PathBuf,
}

fn start_owner(mode: &str) -> Owner {
    let mut child = Command::new(std::env::current_exe().expect("own path"))
        .env(CHILD_ENV, mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start owner");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read READY");
    let mut parts = line.split_whitespace();
    assert_eq!(parts.next(), Some("READY"), "owner said {line:?}");
    let browser_pid = parts.next().and_then(|p| p.parse().ok()).expect("pid");
    let profile = PathBuf::from(parts.next().expect("profile"));
    assert!(support::pid_alive(browser_pid));
    assert!(profile.is_dir());
    use std::io::Write;
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "GO").expect("tell the owner to go on");
    drop(stdin);
    Owner {
        child,
        browser_pid,
        profile,
    }
}

fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < timeout, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn owner_panics_while_holding_a_browser() {
    let mut owner = start_owner("panic");
    let status = owner.child.wait().expect("wait owner");
    assert!(
        !status.success(),
        "the owner should have failed by panicking"
    );
    // Unwinding dropped the browser handle, which killed and cleaned up.
    wait_until(
        "the browser to die after the panic",
        Duration::from_secs(5),
        || {
            !support::pid_alive(owner.browser_pid)
                && processes_mentioning(&owner.profile).is_empty()
        },
    );
    assert!(!owner.profile.exists(), "profile left behind after a panic");
    println!("owner_panics_while_holding_a_browser ... ok");
}

fn owner_is_killed_with_sigkill() {
    let mut owner = start_owner("hold");
    owner.child.kill().expect("SIGKILL the owner");
    owner.child.wait().expect("reap owner");
    // The kernel's parent-death signal ends the browser; its helpers follow.
    wait_until(
        "the browser to die after SIGKILL of its owner",
        Duration::from_secs(5),
        || {
            !support::pid_alive(owner.browser_pid)
                && processes_mentioning(&owner.profile).is_empty()
        },
    );
    // Nothing could remove the profile of a SIGKILLed owner; the next launch
    // sweeps it.
    assert!(
        owner.profile.exists(),
        "expected the killed owner's profile to remain until the sweep"
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let browser = support::launch().await;
        assert!(
            !owner.profile.exists(),
            "the next launch did not sweep the stale profile"
        );
        browser.close().await;
    });
    println!("owner_is_killed_with_sigkill ... ok");
}
