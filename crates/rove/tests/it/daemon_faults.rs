//! The session daemon under faults, with the real binary and real Chromium:
//! a previous daemon that has not let go of its session yet, `close` then
//! `open` at once, a daemon or a browser killed in the middle of a command,
//! Chromium's temp folders after a kill, and a remote browser whose link was
//! lost. One test per scenario, named for the behaviour. The faults that
//! stop the daemon before a browser starts are in `crate::fast::daemon_faults`.

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use rove_localserver::{Response, Routes};
use support::remote::{External, Proxy};
use support::{Env, alive, gone_within, lock_is_held, pids, ref_of, wait_for_line};

/// Takes the session's lock as a daemon would (the test plays a previous
/// daemon that has not let go of it yet).
pub(crate) fn hold_lock(env: &Env, session: &str) -> std::fs::File {
    use std::io::Write;
    std::fs::create_dir_all(env.rove_dir()).expect("runtime dir");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(env.lock(session))
        .expect("lock file");
    let locked = rove_testkit::take_lock(&file);
    assert!(locked, "the lock was free");
    writeln!(file, "{}", std::process::id()).expect("pid");
    file
}

/// Folders directly in `dir` whose names start with `prefix`.
fn entries_named(dir: &Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// Browser profiles (`rove-<pid>-<seq>-<nanos>`) directly in `dir`.
fn profiles(dir: &Path) -> Vec<String> {
    entries_named(dir, "rove-")
        .into_iter()
        .filter(|n| {
            n.split('-')
                .nth(1)
                .is_some_and(|p| p.parse::<u32>().is_ok())
        })
        .collect()
}

#[tokio::test]
async fn a_command_waits_for_the_previous_daemon_to_let_go_of_the_session() {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let env = Env::new("faults-lock").await;
    let held = hold_lock(&env, "default");
    // A daemon started while the session is held exits at once, with the
    // status its client waits on.
    let started = Instant::now();
    let daemon = env
        .rove(&["__daemon", "--session", "default"])
        .status()
        .await
        .expect("ran");
    assert_eq!(daemon.code(), Some(75));
    assert!(started.elapsed() < Duration::from_secs(10));

    // A command does not give up: it waits for the lock to free.
    let url = env.server.url("/form");
    let mut opening = env.rove(&["--json", "open", &url]);
    opening
        .env("RUST_LOG", "warn,rove=debug")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut opening = opening.spawn().expect("spawned");
    let mut stderr = BufReader::new(opening.stderr.take().expect("stderr")).lines();
    let waiting = async {
        while let Some(line) = stderr.next_line().await.expect("stderr") {
            if line.contains("waiting for it to let go") {
                return;
            }
        }
        panic!("the command ended without waiting");
    };
    tokio::time::timeout(Duration::from_secs(30), waiting)
        .await
        .expect("the command waits for the lock");
    // Keep its stderr drained, or a full pipe would stall it.
    tokio::spawn(async move { while let Ok(Some(_)) = stderr.next_line().await {} });
    drop(held);
    let output = tokio::time::timeout(Duration::from_secs(60), opening.wait_with_output())
        .await
        .expect("finished")
        .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Greet"), "{stdout}");
    let (daemon, _) = pids(&env.socket("default")).await;
    assert_ne!(daemon as u32, std::process::id());
    env.close("default").await;
}

#[tokio::test]
async fn close_returns_once_daemon_browser_and_lock_are_gone_so_open_follows_at_once() {
    let mut env = Env::new("faults-close").await;
    let tmp = support::scratch("faults-close-tmp");
    env.tmp = Some(tmp.clone());
    let url = env.server.url("/form");
    for round in 0..3 {
        env.ok(&["open", &url]).await;
        let (daemon, browser) = pids(&env.socket("default")).await;
        assert_eq!(profiles(&tmp).len(), 1, "round {round}: one profile");
        let closed = env.ok(&["close"]).await;
        assert_eq!(closed["closed"], "default");
        // Everything is gone when close returns, not a moment later.
        assert!(!alive(daemon), "round {round}: the daemon still runs");
        assert!(!alive(browser), "round {round}: the browser still runs");
        assert!(!lock_is_held(&env.lock("default")), "round {round}: lock");
        assert!(!env.socket("default").exists(), "round {round}: socket");
        // The session's files leave with it.
        assert!(!env.lock("default").exists(), "round {round}: lock file");
        assert!(!env.log("default").exists(), "round {round}: log file");
        assert_eq!(profiles(&tmp), Vec::<String>::new(), "round {round}");
    }
    // A close with nothing running says so, and succeeds.
    let again = env.ok(&["close"]).await;
    assert_eq!(again["closed"], serde_json::Value::Null);
}

/// A page whose link leads to `/slow`, which the server holds open while it
/// tells the test the browser asked for it.
async fn slow_link_env(name: &str) -> (Env, tokio::sync::mpsc::UnboundedReceiver<()>) {
    let (hit, hits) = tokio::sync::mpsc::unbounded_channel();
    let routes = Routes::new()
        .page(
            "/page",
            Response::html(
                "<!doctype html><title>Shop</title><a href=\"/slow\">Place the order</a>",
            ),
        )
        .handle("/slow", move |_| {
            let _ = hit.send(());
            Response::html("<title>Ordered</title>").delayed(Duration::from_secs(60))
        });
    (Env::with_routes(name, routes).await, hits)
}

#[tokio::test]
async fn an_action_cut_off_by_the_daemon_dying_may_have_reached_the_page() {
    let (env, mut hits) = slow_link_env("faults-cut-click").await;
    let view = env.ok(&["open", &env.server.url("/page")]).await["view"]
        .as_str()
        .expect("view")
        .to_owned();
    let link = ref_of(&view, "link \"Place the order\"");
    let (daemon, browser) = pids(&env.socket("default")).await;
    let clicking = tokio::spawn(support::output_json(
        &[],
        env.rove(&["--json", "click", &link]),
    ));
    // The click reached the page: the browser asks for the next page.
    tokio::time::timeout(Duration::from_secs(30), hits.recv())
        .await
        .expect("the click reached the page")
        .expect("hit");
    // A pid this test's command started.
    rove_testkit::kill(daemon as u32);
    let (status, failed) = clicking.await.expect("joined");
    assert_eq!(status, 6, "{failed}");
    let error = &failed["error"];
    assert_eq!(error["code"], "BROWSER_DISCONNECTED", "{failed}");
    assert_eq!(error["action_sent"], "possibly_sent", "{failed}");
    assert_eq!(error["side_effect"], "uncertain", "{failed}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("while it ran click")),
        "{failed}"
    );
    assert!(gone_within(browser, Duration::from_secs(10)).await);
}

#[tokio::test]
async fn a_reading_command_cut_off_by_the_daemon_dying_sent_nothing() {
    let mut env = Env::new("faults-cut-wait").await;
    env.log_filter = Some("warn,rove=info");
    env.ok(&["open", &env.server.url("/form")]).await;
    let (daemon, _) = pids(&env.socket("default")).await;
    let waiting = tokio::spawn(support::output_json(
        &[],
        env.rove(&["--json", "wait", "--text", "never there", "30000"]),
    ));
    wait_for_line(&env.log("default"), "running command=\"wait\"").await;
    // A pid this test's command started.
    rove_testkit::kill(daemon as u32);
    let (status, failed) = waiting.await.expect("joined");
    assert_eq!(status, 6, "{failed}");
    assert_eq!(failed["error"]["code"], "BROWSER_DISCONNECTED");
    assert_eq!(failed["error"]["action_sent"], "not_sent", "{failed}");
    assert_eq!(failed["error"]["side_effect"], "none", "{failed}");
    assert!(
        failed["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("while it ran wait, which only reads the page")),
        "{failed}"
    );
}

#[tokio::test]
async fn killing_the_browser_during_wait_reports_it_gone_and_the_next_command_restarts_it() {
    let mut env = Env::new("faults-browser-wait").await;
    env.log_filter = Some("warn,rove=info");
    let url = env.server.url("/form");
    let first = env.ok(&["open", &url]).await;
    let (_, browser) = pids(&env.socket("default")).await;
    let waiting = tokio::spawn(support::output_json(
        &[],
        env.rove(&["--json", "wait", "--text", "never there", "30000"]),
    ));
    wait_for_line(&env.log("default"), "running command=\"wait\"").await;
    // A pid this test's daemon started.
    rove_testkit::kill(browser as u32);
    let (status, failed) = waiting.await.expect("joined");
    assert_eq!(status, 6, "{failed}");
    let error = &failed["error"];
    // Whether a call was in flight at the kill (the socket's error) or the
    // next check found the link down (the exit status), the code is the
    // browser's, never NO_TAB.
    assert_eq!(error["code"], "BROWSER_DISCONNECTED", "{failed}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("the browser is disconnected")),
        "{failed}"
    );
    assert!(
        error["hint"]
            .as_str()
            .is_some_and(|h| h.contains("starts a new one")),
        "{failed}"
    );
    let reopened = env.ok(&["open", &url]).await;
    assert!(
        reopened["notes"]
            .to_string()
            .contains("the browser had died"),
        "{reopened}"
    );
    // The new browser's tab and refs go on from the old numbers: an old
    // `t1` or `e1` held by any client never names something new.
    assert_ne!(reopened["tab"], first["tab"], "{first}\n{reopened}");
    let refs = |answer: &serde_json::Value| -> Vec<u32> {
        answer["view"]
            .as_str()
            .unwrap_or_default()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter_map(|w| w.strip_prefix('e').and_then(|n| n.parse().ok()))
            .collect()
    };
    let (before, after) = (refs(&first), refs(&reopened));
    assert!(
        after.iter().min() > before.iter().max(),
        "{before:?} then {after:?}"
    );
    env.close("default").await;
}

/// A daemon killed outright leaves its socket and lock file; `rove close`
/// sweeps them and says where the dead daemon's log is.
#[tokio::test]
async fn close_after_a_killed_daemon_sweeps_what_it_left_and_points_at_its_log() {
    let env = Env::new("faults-sweep").await;
    env.ok(&["open", &env.server.url("/form")]).await;
    let (daemon, browser) = pids(&env.socket("default")).await;
    rove_testkit::kill(daemon as u32);
    assert!(gone_within(daemon, Duration::from_secs(5)).await);
    assert!(gone_within(browser, Duration::from_secs(10)).await);
    assert!(env.socket("default").exists(), "the kill left the socket");
    let closed = crate::support::finished(Duration::from_secs(30), &mut env.rove(&["close"])).await;
    let said = String::from_utf8_lossy(&closed.stdout);
    assert_eq!(closed.status.code(), Some(0), "{closed:?}");
    let log = env.log("default");
    assert!(
        said.contains("no session default was running")
            && said.contains(&format!("its log is {}", log.display())),
        "{said}"
    );
    assert!(!env.socket("default").exists(), "the socket was swept");
    assert!(!env.lock("default").exists(), "the lock file was swept");
    assert!(log.exists(), "the dead daemon's log is kept");
    let _ = std::fs::remove_file(&log);
}

/// After its daemon was killed, the next command started a new session on
/// about:blank and said nothing (issue 37, item 21): it says first that
/// the session was lost, and what went with it.
#[tokio::test]
async fn the_command_after_a_killed_daemon_says_the_session_was_lost() {
    let env = Env::new("faults-lost").await;
    env.ok(&["open", &env.server.url("/form")]).await;
    let (daemon, browser) = pids(&env.socket("default")).await;
    rove_testkit::kill(daemon as u32);
    assert!(gone_within(daemon, Duration::from_secs(5)).await);
    assert!(gone_within(browser, Duration::from_secs(10)).await);
    let snapshot = env.ok(&["snapshot"]).await;
    let first = snapshot["notes"][0].as_str().unwrap_or_default();
    assert!(
        first.starts_with("session default was lost")
            && first.contains("killed or crashed")
            && first.contains("cookies")
            && first.contains(&env.log("default").display().to_string()),
        "{snapshot}"
    );
    // Said once: the new session is the session now.
    let again = env.ok(&["snapshot"]).await;
    assert!(!again.to_string().contains("was lost"), "{again}");
    // At the shell, the note comes first too.
    rove_testkit::kill(pids(&env.socket("default")).await.0 as u32);
    let output =
        crate::support::finished(Duration::from_secs(60), &mut env.rove(&["snapshot"])).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains("session default was lost")),
        "{stdout}"
    );
    env.close("default").await;
}

#[tokio::test]
async fn a_killed_daemon_leaves_no_chromium_folder_in_the_temp_folder() {
    let mut env = Env::new("faults-tmp").await;
    let tmp = support::scratch("faults-tmp-tmp");
    env.tmp = Some(tmp.clone());
    let url = env.server.url("/form");
    env.ok(&["open", &url]).await;
    let (daemon, browser) = pids(&env.socket("default")).await;
    // A pid this test's command started.
    rove_testkit::kill(daemon as u32);
    assert!(gone_within(daemon, Duration::from_secs(5)).await);
    assert!(gone_within(browser, Duration::from_secs(10)).await);
    assert_eq!(
        entries_named(&tmp, "org.chromium.Chromium."),
        Vec::<String>::new()
    );
    // Chromium did make its folder: inside the profile the kill left.
    let left = profiles(&tmp);
    assert_eq!(left.len(), 1, "{left:?}");
    let inside = tmp.join(&left[0]).join("tmp");
    assert_eq!(entries_named(&inside, "org.chromium.Chromium.").len(), 1);
    // The next daemon's launch sweeps that profile; close removes its own.
    env.ok(&["open", &url]).await;
    env.close("default").await;
    assert_eq!(profiles(&tmp), Vec::<String>::new());
    assert_eq!(
        entries_named(&tmp, "org.chromium.Chromium."),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn a_lost_remote_browser_keeps_no_rove_tabs_after_close() {
    let env = Env::with_routes(
        "faults-remote",
        Routes::new()
            .page("/first", Response::html("<title>First</title><p>one"))
            .page("/second", Response::html("<title>Second</title><p>two")),
    )
    .await;
    let external = External::start("faults-remote");
    let before = external.page_urls().await;
    let proxy = Proxy::start(external.port).await;
    let cdp = format!("http://127.0.0.1:{}", proxy.port);
    let (first, second) = (env.server.url("/first"), env.server.url("/second"));
    env.ok(&["--cdp-url", &cdp, "open", &first]).await;
    assert!(external.page_urls().await.contains(&first));

    // The browser becomes unreachable: the daemon's three reconnect
    // attempts fail, and its attempt to replace the link fails too.
    proxy.stop().await;
    wait_for_line(&env.log("default"), "attempt=3").await;
    let (status, failed) = env.run(&["--cdp-url", &cdp, "snapshot"]).await;
    assert_eq!(status, 6, "{failed}");
    assert_eq!(failed["error"]["code"], "BROWSER_DISCONNECTED", "{failed}");

    // Reachable again: the next command connects anew and disposes the
    // context the lost link left, with its tab.
    let proxy = proxy.restart().await;
    env.ok(&["--cdp-url", &cdp, "open", &second]).await;
    let urls = external.page_urls().await;
    assert!(
        !urls.contains(&first),
        "the lost link's tab stayed: {urls:?}"
    );
    assert!(urls.contains(&second), "{urls:?}");

    env.ok(&["--cdp-url", &cdp, "close"]).await;
    let mut after = external.page_urls().await;
    after.sort();
    let mut before = before;
    before.sort();
    assert_eq!(after, before, "rove left tabs in the remote browser");
    drop(proxy);
}

#[tokio::test]
async fn an_interrupted_command_stops_in_the_daemon_and_the_next_one_runs_at_once() {
    let mut env = Env::new("faults-interrupt").await;
    env.log_filter = Some("warn,rove=info");
    env.ok(&["open", &env.server.url("/form")]).await;
    let mut waiting = env
        .rove(&["--json", "wait", "--text", "never there", "15000"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("spawned");
    wait_for_line(&env.log("default"), "running command=\"wait\"").await;
    // Ctrl-C at the shell: the client ends, its connection closes.
    let pid = waiting.id().expect("pid");
    let pid = rustix::process::Pid::from_raw(pid as i32).expect("a pid");
    rustix::process::kill_process(pid, rustix::process::Signal::INT).expect("SIGINT");
    let status = tokio::time::timeout(Duration::from_secs(10), waiting.wait())
        .await
        .expect("the client ended")
        .expect("waited");
    assert_eq!(status.code(), Some(130));
    let started = Instant::now();
    let snapshot = env.ok(&["snapshot"]).await;
    let took = started.elapsed();
    assert!(
        snapshot["view"]
            .as_str()
            .is_some_and(|v| v.contains("Greet")),
        "{snapshot}"
    );
    // Well below the abandoned wait's 15 s, whatever the machine's load.
    assert!(
        took < Duration::from_secs(6),
        "the snapshot waited {took:?} for the abandoned wait"
    );
    wait_for_line(&env.log("default"), "its caller went away").await;
    env.close("default").await;
}

#[tokio::test]
async fn an_endless_eval_past_a_short_cdp_deadline_is_stopped_and_the_next_command_answers() {
    let env = Env::new("faults-short-cdp").await;
    // The daemon takes the call deadline of the command that starts it.
    let opened = support::output_json(&[], {
        let mut open = env.rove(&["--json", "open", &env.server.url("/form")]);
        open.env("ROVE_CDP_TIMEOUT_S", "5");
        open
    })
    .await;
    assert_eq!(opened.0, 0, "{}", opened.1);
    let started = Instant::now();
    let (status, failed) = env.run(&["eval", "while (true) {}"]).await;
    let error = &failed["error"];
    assert_eq!(status, 5, "{failed}");
    assert_eq!(error["code"], "TIMEOUT", "{failed}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("rove stopped it")),
        "the script was stopped, and the answer says so: {failed}"
    );
    assert_eq!(error["action_sent"], "sent", "{failed}");
    assert!(started.elapsed() < Duration::from_secs(15));
    // The tab is free at once: the next command does its own work.
    let started = Instant::now();
    let snapshot = env.ok(&["snapshot"]).await;
    assert!(
        snapshot["view"]
            .as_str()
            .is_some_and(|v| v.contains("Greet")),
        "{snapshot}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the snapshot took {:?}: the script was left running",
        started.elapsed()
    );
    env.close("default").await;
}

#[tokio::test]
async fn a_reconnect_that_reaches_another_browser_is_told_in_the_first_answer() {
    let mut env = Env::with_routes(
        "faults-other-browser",
        Routes::new()
            .page("/first", Response::html("<title>First</title><p>one"))
            .page("/second", Response::html("<title>Second</title><p>two")),
    )
    .await;
    env.log_filter = Some("warn,rove_browser=info");
    let first_browser = External::start("faults-other-a");
    let second_browser = External::start("faults-other-b");
    let proxy = Proxy::start(first_browser.port).await;
    let cdp = format!("http://127.0.0.1:{}", proxy.port);
    env.ok(&["--cdp-url", &cdp, "open", &env.server.url("/first")])
        .await;
    // The browser behind the address is replaced by another one (a
    // restarted Chromium on the same port), which the daemon reconnects to.
    proxy.stop().await;
    let proxy = proxy.restart_to(second_browser.port).await;
    wait_for_line(&env.log("default"), "reconnected to the browser").await;
    // The first answer says what happened, and the command still works,
    // in a new context of the browser that answers now.
    let snapshot = env.ok(&["--cdp-url", &cdp, "snapshot"]).await;
    assert!(
        snapshot["notes"]
            .to_string()
            .contains("another browser answers at the --cdp-url address"),
        "{snapshot}"
    );
    let second = env.server.url("/second");
    let opened = env.ok(&["--cdp-url", &cdp, "open", &second]).await;
    assert!(opened.get("notes").is_none(), "told once: {opened}");
    assert!(second_browser.page_urls().await.contains(&second));
    env.ok(&["--cdp-url", &cdp, "close"]).await;
    assert!(!second_browser.page_urls().await.contains(&second));
    drop(proxy);
}
