//! `rove test` stopping at a bad task file before anything runs, so before
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
