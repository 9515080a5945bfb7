//! The session daemon under faults that stop it before any browser starts:
//! a session another process holds past the start deadline, socket paths
//! the kernel cannot hold, a planted symlink at the runtime folder.

use crate::support;

use std::time::{Duration, Instant};

use crate::daemon_faults::hold_lock;
use support::Env;

#[tokio::test]
async fn a_session_held_past_the_start_deadline_names_the_holder() {
    let env = Env::new("faults-stuck").await;
    let _held = hold_lock(&env, "default");
    let started = Instant::now();
    let (status, failed) = env.run(&["open", &env.server.url("/form")]).await;
    let waited = started.elapsed();
    assert_eq!(status, 6, "{failed}");
    assert_eq!(failed["error"]["code"], "LAUNCH_FAILED");
    let me = std::process::id().to_string();
    let message = failed["error"]["message"].as_str().expect("message");
    assert!(message.contains(&format!("pid {me}")), "{message}");
    let hint = failed["error"]["hint"].as_str().expect("hint");
    assert!(hint.contains(&format!("kill {me}")), "{hint}");
    assert!(
        waited >= Duration::from_secs(15) && waited < Duration::from_secs(30),
        "waited {waited:?}"
    );
}

#[tokio::test]
async fn a_socket_path_too_long_says_what_to_shorten() {
    let env = Env::new("faults-long").await;
    let url = env.server.url("/form");
    // A runtime folder that leaves no room for any socket.
    let deep = env.dir.join("d".repeat(100));
    std::fs::create_dir_all(&deep).expect("deep dir");
    let (status, failed) = support::output_json(&[], {
        let mut c = env.rove(&["--json", "open", &url]);
        c.env("XDG_RUNTIME_DIR", &deep);
        c
    })
    .await;
    assert_eq!(status, 6, "{failed}");
    let error = &failed["error"];
    assert_eq!(error["code"], "LAUNCH_FAILED");
    assert_eq!(error["retry"], "never");
    let message = error["message"].as_str().expect("message");
    assert!(message.contains("at most 107"), "{message}");
    assert!(message.contains(&deep.display().to_string()), "{message}");
    assert!(
        error["hint"]
            .as_str()
            .is_some_and(|h| h.contains("XDG_RUNTIME_DIR")),
        "{failed}"
    );
    assert!(!deep.join("rove").join("default.log").exists(), "no daemon");

    // A session name that makes the path too long for this folder.
    let name = "n".repeat(64);
    let room = 107 - env.rove_dir().as_os_str().len() as i64 - "/.sock".len() as i64;
    assert!(
        (0..64).contains(&room),
        "the test folder's length does not suit this case"
    );
    let (status, failed) = env.run(&["--session", &name, "open", &url]).await;
    assert_eq!(status, 2, "{failed}");
    assert_eq!(failed["error"]["code"], "COMMAND_REJECTED");
    assert!(
        failed["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.contains(&format!("at most {room} characters"))),
        "{failed}"
    );
}

#[tokio::test]
async fn a_planted_symlink_at_the_runtime_folder_is_refused_and_nothing_written_through_it() {
    let env = Env::new("faults-symlink").await;
    let elsewhere = env.dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("target");
    std::os::unix::fs::symlink(&elsewhere, env.rove_dir()).expect("plant");
    let url = env.server.url("/form");
    for args in [vec!["open", url.as_str()], vec!["close"]] {
        let (status, failed) = env.run(&args).await;
        assert_eq!(status, 6, "{args:?}: {failed}");
        let error = &failed["error"];
        assert_eq!(error["code"], "LAUNCH_FAILED");
        let message = error["message"].as_str().expect("message");
        assert!(message.contains("symbolic link"), "{message}");
        assert!(
            message.contains(&env.rove_dir().display().to_string()),
            "{message}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&elsewhere).expect("read").count(),
        0,
        "something was written through the link"
    );
    assert!(
        std::fs::symlink_metadata(env.rove_dir())
            .expect("still there")
            .file_type()
            .is_symlink(),
        "the link was touched"
    );
}

#[tokio::test]
async fn a_session_whose_browser_never_came_does_not_keep_its_daemon() {
    let env = Env::new("faults-no-browser").await;
    let missing = env.dir.join("no-such-browser");
    let (status, failed) = support::output_json(&[], {
        let mut c = env.rove(&["--json", "open", &env.server.url("/form")]);
        c.env("ROVE_BROWSER", &missing);
        c
    })
    .await;
    assert_eq!(status, 6, "{failed}");
    assert_eq!(failed["error"]["code"], "NO_BROWSER", "{failed}");
    // The daemon ends after answering, not after its idle time (60 s here).
    let started = Instant::now();
    while support::lock_is_held(&env.lock("default")) || env.socket("default").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the daemon of a session without a browser still runs"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Its log stays: the place that says why.
    assert!(env.log("default").exists());
}

#[tokio::test]
async fn a_session_command_tells_the_shell_of_a_bad_cdp_timeout_and_with_v_where_the_daemon_logs() {
    let env = Env::new("faults-shell-told").await;
    let missing = env.dir.join("no-such-browser");
    let log = env.log("default").display().to_string();
    let stderr = |verbose: bool| {
        let mut args = vec!["snapshot"];
        if verbose {
            args.insert(0, "-v");
        }
        let mut command = env.rove(&args);
        command
            .env("ROVE_BROWSER", &missing)
            .env("ROVE_CDP_TIMEOUT_S", "abc");
        async move {
            let out = tokio::time::timeout(Duration::from_secs(60), command.output())
                .await
                .expect("finished")
                .expect("ran");
            String::from_utf8_lossy(&out.stderr).into_owned()
        }
    };
    let quiet = stderr(false).await;
    assert!(
        quiet.contains("ROVE_CDP_TIMEOUT_S=\"abc\" ignored"),
        "the shell hears of the bad value: {quiet}"
    );
    assert!(!quiet.contains(&log), "{quiet}");
    let verbose = stderr(true).await;
    assert!(
        verbose.contains(&log),
        "-v says where the daemon logs: {verbose}"
    );
}
