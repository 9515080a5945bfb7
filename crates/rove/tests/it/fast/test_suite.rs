//! `rove test` stopping at a bad task file, a file that is not one, a bad
//! output path, price table or count before anything runs, so before
//! any browser starts.

use crate::test_suite::{model_logged, rove_test, scratch, shop};

use rove_localserver::RequestLog;

#[tokio::test]
async fn a_bad_task_file_stops_the_run_before_anything_runs() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let (shop, _) = shop().await;
    let dir = scratch("bad");
    std::fs::write(dir.join("a.yaml"), "name: fine\ntask: Press Lamp\n").expect("good file");
    std::fs::write(
        dir.join("b.yaml"),
        "name: typo\ntask: Press Lamp\nverfy:\n  - url: x\n",
    )
    .expect("bad file");
    let (status, stdout, stderr) = rove_test(&shop, &model, &[dir.to_str().expect("utf-8")]).await;
    assert_eq!(status, 2, "bad input: {stdout}\n{stderr}");
    assert!(
        stderr.contains("b.yaml:3:") && stderr.contains("verfy"),
        "{stderr}"
    );
    assert!(stdout.is_empty(), "nothing ran: {stdout}");
    // A suite that is empty by mistake, or tags that pick nothing, are
    // bad input too, never a pass.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("empty folder");
    let (status, _, stderr) = rove_test(&shop, &model, &[empty.to_str().expect("utf-8")]).await;
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("no task found"), "{stderr}");
    let good = dir.join("a.yaml");
    let (status, _, stderr) = rove_test(
        &shop,
        &model,
        &[good.to_str().expect("utf-8"), "--tags", "nightly"],
    )
    .await;
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("no task has any of the tags nightly"),
        "{stderr}"
    );
    assert!(log.requests().is_empty(), "the model was never asked");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// A named pipe at `path`.
fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[tokio::test]
async fn task_files_that_are_not_regular_files_are_refused_at_once() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let (shop, _) = shop().await;
    let dir = scratch("not-regular");
    // A FIFO no one writes: reading it would wait for ever (SIGTERM
    // included, before).
    let pipe = dir.join("tasks.yaml");
    mkfifo(&pipe);
    let started = std::time::Instant::now();
    let (status, _, stderr) = rove_test(&shop, &model, &[pipe.to_str().expect("utf-8")]).await;
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("tasks.yaml: is a named pipe (FIFO), not a regular file"),
        "{stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    // A task file linked to an endless device (it grew to 2.1 GB).
    let zero = dir.join("zero.yaml");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let (status, _, stderr) = rove_test(&shop, &model, &[zero.to_str().expect("utf-8")]).await;
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("is a character device"), "{stderr}");
    assert!(log.requests().is_empty(), "the model was never asked");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn bad_output_paths_and_counts_stop_the_run_before_anything_runs() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let (shop, _) = shop().await;
    let dir = scratch("bad-outputs");
    let task = dir.join("a.yaml");
    std::fs::write(
        &task,
        "name: fine\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\n",
    )
    .expect("task");
    let task = task.to_str().expect("utf-8");
    let file = dir.join("a-file");
    std::fs::write(&file, "kept").expect("a regular file");
    let file = file.to_str().expect("utf-8");
    let under_file = format!("{file}/junit.xml");
    let pipe = dir.join("junit.xml");
    mkfifo(&pipe);
    let pipe = pipe.to_str().expect("utf-8");
    let cases: [(&[&str], &str); 6] = [
        // A regular file where a folder is needed.
        (&["--out", file], "is a regular file, not a folder"),
        // Nothing, root included, can write under a regular file.
        (&["--junit", &under_file], "junit.xml"),
        (
            &["--junit", pipe],
            "is a named pipe (FIFO), not a regular file",
        ),
        (
            &["--repeat", "4294967295"],
            "--repeat 4294967295: give 1 to",
        ),
        (&["-j", "100000"], "-j 100000: at most"),
        (&["--shard", "1/4294967295"], "--shard"),
    ];
    for (extra, said) in cases {
        let mut args = vec![task];
        args.extend_from_slice(extra);
        let (status, stdout, stderr) = rove_test(&shop, &model, &args).await;
        assert_eq!(status, 2, "{extra:?}: {stdout}\n{stderr}");
        assert!(stderr.contains(said), "{extra:?}: {stderr}");
        if let Some(path) = extra.get(1).filter(|p| p.contains('/')) {
            assert!(stderr.contains(*path), "names the path: {stderr}");
        }
        assert!(stdout.is_empty(), "nothing ran: {stdout}");
    }
    assert_eq!(std::fs::read_to_string(file).expect("kept"), "kept");
    assert!(log.requests().is_empty(), "the model was never asked");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn a_bad_price_table_is_refused_naming_the_file() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let (shop, _) = shop().await;
    let dir = scratch("bad-prices");
    let task = dir.join("a.yaml");
    std::fs::write(&task, "name: fine\ntask: Press Lamp\n").expect("task");
    let task = task.to_str().expect("utf-8");
    let pipe = dir.join("prices.fifo");
    mkfifo(&pipe);
    let negative = dir.join("negative.json");
    std::fs::write(
        &negative,
        r#"{"openai:scripted": {"input": -2, "output": 1}}"#,
    )
    .expect("prices");
    for (prices, said) in [(&pipe, "named pipe"), (&negative, "input is -2")] {
        let prices = prices.to_str().expect("utf-8");
        let (status, _, stderr) = rove_test(&shop, &model, &[task, "--prices", prices]).await;
        assert_eq!(status, 2, "{stderr}");
        assert!(stderr.contains(prices) && stderr.contains(said), "{stderr}");
    }
    assert!(log.requests().is_empty(), "the model was never asked");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Farm mode with nothing at the farm's address (issue 37, item 16): the
/// run could not start, as pool mode's unreachable browser cannot, and
/// exits 6 (a CI job's retry signal, docs/deploy.md) with its results
/// written, never 1 (tasks below their bar).
#[tokio::test]
async fn an_unreachable_farm_exits_6_as_an_unreachable_pool_does() {
    let log = RequestLog::new();
    let model = model_logged(log.clone()).await;
    let dir = scratch("farm-unreachable");
    std::fs::write(
        dir.join("t.yaml"),
        "- {name: a, task: Say done}\n- {name: b, task: Say done}\n",
    )
    .expect("tasks");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("ws://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let out = dir.join("out");
    // Pool mode first: farm mode's results.json is read after.
    for isolate in ["context", "browser"] {
        let output = crate::support::finished(
            std::time::Duration::from_secs(60),
            tokio::process::Command::new(env!("CARGO_BIN_EXE_rove"))
                .arg("test")
                .arg(dir.join("t.yaml"))
                .args(["--model", "openai:scripted", "--vision", "off"])
                .args(["--isolate", isolate, "--cdp-url", &url])
                .arg("--out")
                .arg(&out)
                .env("OPENAI_API_KEY", "sk-test")
                .env("OPENAI_BASE_URL", model.url("/v1"))
                .env_remove("ROVE_CDP_URL"),
        )
        .await;
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(6), "--isolate {isolate}: {said}");
    }
    // Farm mode's attempts are in its results, each saying why.
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    for attempt in results["attempts"].as_array().expect("attempts") {
        assert_eq!(attempt["error_code"], "BROWSER_DISCONNECTED", "{attempt}");
    }
    assert!(log.requests().is_empty(), "the model was never asked");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
