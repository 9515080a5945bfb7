//! `rove test`'s trace per attempt, with the real binary, real Chromium, a
//! shop on 127.0.0.1 whose buttons log to the console and POST what they
//! add, and a scripted model behind OpenAI's wire format. Two attempts
//! (one passes, one fails a verify check after a failed step) leave two
//! traces that end with their `end` line, the failed one holding its
//! failing step; the click's step holds the view the model was shown, the
//! page's console message and its request; report.html, opened in
//! Chromium, links each attempt's trace page and raw file, and both load;
//! the trace page shows those parts. With trace screenshots, each step has
//! a before and an after image, and a small budget leaves later ones out.
//! Ctrl-C during an attempt still leaves its trace, ended `interrupted`;
//! an attempt past its `timeout_s`, ended `timeout`.
//! Everything is asserted after the run, from what the binary wrote.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use rove_localserver::{LocalServer, Request, RequestLog, Response, Routes};
use serde_json::{Value, json};
use tokio::process::Command;

/// The shop: each button logs, then POSTs its item; the server keeps every
/// item but the desk (so the desk's verify check fails).
pub(crate) async fn shop() -> LocalServer {
    let cart: Arc<Mutex<BTreeMap<String, u64>>> = Arc::default();
    let kept = cart.clone();
    let page = "<!doctype html><title>Shop</title><h1>Shop</h1>\
        <button onclick=\"add('lamp','Lamp')\">Lamp</button>\
        <button onclick=\"add('desk','Desk')\">Desk</button><p id=out>Cart empty</p>\
        <script>function add(item, name) { console.log('adding ' + item);\
        fetch('/api/add?item=' + item, {method: 'POST'})\
        .then(r => { document.getElementById('out').textContent = r.ok ? 'Added ' + name : 'Failed'; }); }</script>";
    LocalServer::start(
        Routes::new()
            .page("/shop", Response::html(page))
            .handle("/api/add", move |request: &Request| {
                let item = request.query.strip_prefix("item=").unwrap_or_default();
                if request.method == "POST" && item != "desk"
                    && let Ok(mut cart) = kept.lock() {
                        *cart.entry(item.to_owned()).or_default() += 1;
                    }
                Response::text("ok")
            })
            .handle("/api/cart", move |_: &Request| {
                let cart = cart.lock().map(|c| c.clone()).unwrap_or_default();
                let body = json!({"lamp": cart.get("lamp").copied().unwrap_or(0), "desk": cart.get("desk").copied().unwrap_or(0)});
                Response::with_type(200, "application/json", body.to_string().into_bytes())
            }),
    )
    .await
    .expect("shop")
}

/// A model that reads "Task: Press X" and decides from the request alone
/// (attempts run at once): for the desk it first clicks a ref that does
/// not exist, then the button; for the lamp the button at once; then done.
/// With `stall`, its answer after the first click never comes in time.
pub(crate) async fn model(log: RequestLog, stall: bool) -> LocalServer {
    LocalServer::start(Routes::new().log_requests(log).handle("/v1/chat/completions", move |request: &Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let first = messages
            .iter()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_owned();
        let answered = messages.iter().filter(|m| m["role"] == "assistant").count();
        let wanted = first
            .lines()
            .find_map(|l| l.strip_prefix("Task: Press "))
            .unwrap_or_default()
            .trim()
            .to_owned();
        let button = first
            .lines()
            .find(|l| l.contains(&format!("button \"{wanted}\"")))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or("e0")
            .to_owned();
        let call = |name: &str, arguments: Value| {
            json!({"id": format!("c{answered}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}})
        };
        let call = match (wanted.as_str(), answered) {
            ("Desk", 0) => call("click", json!({"ref": "e999"})),
            ("Desk", 1) | (_, 0) => call("click", json!({"ref": button})),
            _ => call("done", json!({"text": format!("pressed {wanted}"), "success": true})),
        };
        let reply = json!({"model": "scripted", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [call]}}], "usage": {"prompt_tokens": 40, "completion_tokens": 4}});
        let response = Response::with_type(200, "application/json", reply.to_string().into_bytes());
        if stall && answered >= 1 {
            response.delayed(Duration::from_secs(60))
        } else {
            response
        }
    }))
    .await
    .expect("model")
}

pub(crate) const SUITE: &str = r#"
- name: lamp
  task: Press Lamp
  start_url: ${SHOP_URL}/shop
  verify:
    - http: {url: "${SHOP_URL}/api/cart", pointer: /lamp, equals: 1}
- name: desk
  task: Press Desk
  start_url: ${SHOP_URL}/shop
  verify:
    - http: {url: "${SHOP_URL}/api/cart", pointer: /desk, equals: 1}
"#;

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-traces-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

pub(crate) fn rove_test(shop: &LocalServer, model: &LocalServer, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .arg("test")
        .args(args)
        .args(["--model", "openai:scripted"])
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_BASE_URL", model.url("/v1"))
        .env("SHOP_URL", shop.url("").trim_end_matches('/'))
        .env_remove("ROVE_CDP_URL")
        .kill_on_drop(true);
    command
}

pub(crate) async fn finished(mut command: Command) -> (i32, String) {
    let output = tokio::time::timeout(Duration::from_secs(240), command.output())
        .await
        .expect("finished")
        .expect("ran");
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// A trace's lines; each must be JSON and read back as the trace format.
fn lines_of(path: &Path) -> Vec<Value> {
    crate::support::trace_lines(path)
}

fn kinds(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|l| l["kind"].as_str().unwrap_or(""))
        .collect()
}

fn attempt<'a>(results: &'a Value, task: &str) -> &'a Value {
    results["attempts"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["task"] == task))
        .unwrap_or_else(|| panic!("no attempt of {task} in {results:#}"))
}

/// Opens `path` under `root` (served as files) in real Chromium and
/// evaluates `script` there; its value (a JSON string) parsed.
pub(crate) async fn shown(root: &Path, path: &str, script: &str) -> Value {
    let files = LocalServer::start(Routes::new().folder("/", root))
        .await
        .expect("file server");
    let browser = rove_testkit::launch().await;
    let mut session =
        rove_commands::Session::start(&browser, rove_commands::SessionConfig::default())
            .await
            .expect("session");
    session
        .execute(&rove_commands::Command::Open(rove_commands::OpenArgs {
            url: files.url(path),
            new_tab: false,
        }))
        .await
        .expect("page opened");
    let value = session
        .execute(&rove_commands::Command::Eval(rove_commands::EvalArgs {
            js: script.into(),
            target: None,
        }))
        .await
        .expect("evaluated");
    let _ = session.close().await;
    browser.close().await;
    serde_json::from_str(
        value
            .result()
            .and_then(serde_json::Value::as_str)
            .expect("a string"),
    )
    .expect("JSON")
}

#[tokio::test]
async fn each_attempt_leaves_a_trace_that_the_report_links_and_a_page_shows() {
    let shop = shop().await;
    let model = model(RequestLog::new(), false).await;
    let dir = scratch("two");
    std::fs::write(dir.join("shop.yaml"), SUITE).expect("suite");
    let out = dir.join("out");
    let mut command = rove_test(
        &shop,
        &model,
        &[dir.to_str().expect("utf-8"), "-j", "2", "--traces", "all"],
    );
    command.args(["--vision", "off", "--out"]).arg(&out);
    let (status, said) = finished(command).await;
    assert_eq!(status, 1, "the desk fails its check:\n{said}");

    // results.json names both traces and their pages, which exist.
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
            .expect("JSON");
    let (lamp, desk) = (attempt(&results, "lamp"), attempt(&results, "desk"));
    assert_eq!(lamp["status"], "passed", "{said}");
    assert_eq!(desk["status"], "failed", "{said}");
    for a in [lamp, desk] {
        for field in ["trace", "trace_view"] {
            let path = a[field]
                .as_str()
                .unwrap_or_else(|| panic!("no {field}: {a}"));
            assert!(Path::new(path).is_file(), "{path}");
        }
    }

    // Each trace: a run line, its steps, an end line saying how it came out.
    let lamp_lines = lines_of(Path::new(lamp["trace"].as_str().expect("path")));
    let desk_lines = lines_of(Path::new(desk["trace"].as_str().expect("path")));
    assert_eq!(kinds(&lamp_lines), ["run", "step", "step", "end"]);
    assert_eq!(kinds(&desk_lines), ["run", "step", "step", "step", "end"]);
    assert_eq!(lamp_lines[0]["name"], "lamp");
    assert_eq!(lamp_lines[3]["status"], "passed");
    assert_eq!(lamp_lines[3]["ending"]["reason"], "done");
    let end = &desk_lines[4];
    assert_eq!(end["status"], "failed");
    assert!(
        end["reason"]
            .as_str()
            .is_some_and(|r| r.contains("verify http")),
        "{end}"
    );
    assert_eq!(end["checks"][0]["passed"], false, "{end}");
    // The failed attempt holds its failing step, with the typed error.
    let failing = &desk_lines[1];
    assert_eq!(failing["failure"]["kind"], "actions", "{failing}");
    assert!(
        failing["actions"][0]["result"]
            .as_str()
            .is_some_and(|r| r.contains("REF_NOT_FOUND")),
        "{failing}"
    );

    // The lamp's click: what the model was shown (the first view, with the
    // button), the page's console message and its request, all during the
    // step.
    let click = &lamp_lines[1];
    assert_eq!(click["actions"][0]["tool"], "click");
    let observation = click["observation"].as_str().unwrap_or_default();
    assert!(
        observation.starts_with("Task: Press Lamp") && observation.contains("button \"Lamp\""),
        "{click}"
    );
    assert!(
        click["console"].as_array().is_some_and(|c| c
            .iter()
            .any(|m| m["text"] == "adding lamp" && m["tab"] == "t1")),
        "{click}"
    );
    assert!(
        click["network"]
            .as_array()
            .is_some_and(|n| n.iter().any(|r| r["method"] == "POST"
                && r["url"]
                    .as_str()
                    .is_some_and(|u| u.ends_with("/api/add?item=lamp")))),
        "{click}"
    );
    // The next step was shown what the click changed, not the whole view.
    let done = &lamp_lines[2];
    assert!(
        done["observation"]
            .as_str()
            .is_some_and(|o| o.contains("Added Lamp") && !o.starts_with("Task:")),
        "{done}"
    );
    assert!(done["console"].is_null(), "nothing was logged then: {done}");

    // report.html in Chromium: a link to each attempt's page and raw file,
    // and every one of them loads.
    let links = shown(
        &out,
        "/report.html",
        "(async () => { const links = [...document.querySelectorAll('p.trace a')].map(a => a.getAttribute('href')); \
          const status = await Promise.all(links.map(h => fetch(h).then(r => r.status))); \
          return JSON.stringify({links, status}); })()",
    )
    .await;
    let hrefs: Vec<&str> = links["links"]
        .as_array()
        .expect("links")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut expected = vec![
        "traces/desk-1.html",
        "traces/desk-1.trace",
        "traces/lamp-1.html",
        "traces/lamp-1.trace",
    ];
    let mut sorted = hrefs.clone();
    sorted.sort_unstable();
    expected.sort_unstable();
    assert_eq!(sorted, expected, "{links}");
    assert_eq!(links["status"], json!([200, 200, 200, 200]), "{links}");
    for href in hrefs {
        assert!(out.join(href).is_file(), "{href}");
    }

    // The lamp's trace page: its steps, the view as the model saw it, the
    // console message and the request of the click; no script, no request.
    let page = shown(
        &out,
        "/traces/lamp-1.html",
        "JSON.stringify({steps: document.querySelectorAll('section.step').length, \
          shown: document.querySelector('section.step details.observation pre')?.textContent, \
          console: document.querySelector('section.step ul.console li')?.textContent, \
          network: document.querySelector('section.step table.network')?.textContent, \
          status: document.querySelector('.attempt .status')?.textContent, \
          scripts: document.scripts.length, \
          loaded: performance.getEntriesByType('resource').length})",
    )
    .await;
    assert_eq!(page["steps"], 2, "{page}");
    assert!(
        page["shown"]
            .as_str()
            .is_some_and(|s| s.contains("button \"Lamp\"")),
        "{page}"
    );
    assert!(
        page["console"]
            .as_str()
            .is_some_and(|c| c.contains("adding lamp")),
        "{page}"
    );
    assert!(
        page["network"]
            .as_str()
            .is_some_and(|n| n.contains("/api/add?item=lamp")),
        "{page}"
    );
    assert_eq!(page["status"], "passed", "{page}");
    assert_eq!((&page["scripts"], &page["loaded"]), (&json!(0), &json!(0)));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// The decoded bytes of a trace's inlined image, or `None` for a note.
fn image_bytes(shot: &Value) -> Option<usize> {
    let data = shot.as_str()?.strip_prefix("data:image/jpeg;base64,")?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()
        .map(|b| b.len())
}

#[tokio::test]
async fn trace_screenshots_show_before_and_after_within_the_budget() {
    let model = model(RequestLog::new(), false).await;
    let dir = scratch("shots");
    std::fs::write(
        dir.join("lamp.yaml"),
        "name: lamp\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\nverify: [{text: {contains: Added Lamp}}]\n",
    )
    .expect("task");
    let run = |out: PathBuf, flag: String| {
        let dir = dir.clone();
        let model = &model;
        async move {
            let shop = shop().await;
            let mut command = rove_test(
                &shop,
                model,
                &[
                    dir.to_str().expect("utf-8"),
                    "--traces",
                    "all",
                    "--vision",
                    "on",
                ],
            );
            command.arg(flag).arg("--out").arg(&out);
            let (status, said) = finished(command).await;
            assert_eq!(status, 0, "{said}");
            lines_of(&out.join("traces/lamp-1.trace"))
        }
    };

    // Within the default budget: each step has the screenshot the model
    // saw and one after its actions.
    let lines = run(dir.join("all"), "--trace-screenshots".into()).await;
    let steps: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "step").collect();
    assert_eq!(steps.len(), 2);
    let mut sizes = Vec::new();
    for step in &steps {
        for field in ["screenshot", "screenshot_after"] {
            let size = image_bytes(&step[field])
                .unwrap_or_else(|| panic!("step {} has no {field}", step["number"]));
            sizes.push(size);
        }
    }

    // A budget that holds the first step's two and half the next one:
    // those two are inlined, every later one is named as left out, and
    // the inlined bytes stay within it.
    let budget = sizes[0] + sizes[1] + sizes[2] / 2;
    let mib = budget as f64 / (1024.0 * 1024.0);
    let lines = run(dir.join("some"), format!("--trace-screenshots={mib}")).await;
    let steps: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "step").collect();
    let mut inlined = 0;
    let mut left_out = 0;
    for (i, step) in steps.iter().enumerate() {
        for field in ["screenshot", "screenshot_after"] {
            match image_bytes(&step[field]) {
                Some(size) => {
                    assert_eq!(i, 0, "only step 1's fit: {field} of step {}", i + 1);
                    inlined += size;
                }
                None => {
                    assert!(
                        step[field]["left_out"]
                            .as_str()
                            .is_some_and(|w| w.contains("of screenshots")),
                        "{field} of step {}: {}",
                        i + 1,
                        step[field]
                    );
                    left_out += 1;
                }
            }
        }
    }
    assert!(inlined > 0 && inlined <= budget, "{inlined} of {budget}");
    assert_eq!(left_out, 2, "step 2's before and after");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn ctrl_c_during_an_attempt_still_ends_its_trace() {
    let shop = shop().await;
    let log = RequestLog::new();
    let model = model(log.clone(), true).await;
    let dir = scratch("interrupt");
    let file = dir.join("lamp.yaml");
    std::fs::write(
        &file,
        "name: lamp\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\nverify: [{url: shop}]\n",
    )
    .expect("task");
    let out = dir.join("out");
    // The default keeps the traces of attempts that did not pass.
    let mut command = rove_test(&shop, &model, &[file.to_str().expect("utf-8")]);
    command
        .args(["--vision", "off", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null());
    let mut child = command.spawn().expect("rove test started");
    // Interrupt once step 1 is done and step 2 waits on the model.
    let waited = std::time::Instant::now();
    while log.requests().len() < 2 {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the model was never asked twice"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = support::interrupt(&mut child, Duration::from_secs(30), "rove test ended").await;
    assert_eq!(status.code(), Some(130));
    let lines = lines_of(&out.join("traces/lamp-1.trace"));
    assert_eq!(kinds(&lines), ["run", "step", "end"]);
    assert_eq!(lines[1]["actions"][0]["tool"], "click");
    assert_eq!(lines[2]["ending"]["reason"], "interrupted");
    assert_eq!(lines[2]["status"], "error");
    assert_eq!(lines[2]["reason"], "interrupted while running");
    assert!(out.join("traces/lamp-1.html").is_file());
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("JSON");
    assert!(
        attempt(&results, "lamp")["trace"]
            .as_str()
            .is_some_and(|t| t.ends_with("traces/lamp-1.trace"))
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn an_attempt_past_its_timeout_still_ends_its_trace() {
    let shop = shop().await;
    let log = RequestLog::new();
    let model = model(log.clone(), true).await;
    let dir = scratch("timeout");
    let file = dir.join("lamp.yaml");
    std::fs::write(
        &file,
        "name: lamp\ntask: Press Lamp\nstart_url: ${SHOP_URL}/shop\ntimeout_s: 15\nverify: [{url: shop}]\n",
    )
    .expect("task");
    let out = dir.join("out");
    let mut command = rove_test(&shop, &model, &[file.to_str().expect("utf-8")]);
    command.args(["--vision", "off", "--out"]).arg(&out);
    let (status, said) = finished(command).await;
    assert_eq!(status, 1, "{said}");
    assert_eq!(
        log.requests().len(),
        2,
        "step 1 was answered, step 2 stalled"
    );
    let lines = lines_of(&out.join("traces/lamp-1.trace"));
    assert_eq!(kinds(&lines), ["run", "step", "end"], "{said}");
    assert_eq!(lines[1]["actions"][0]["tool"], "click");
    assert_eq!(
        lines[2]["ending"],
        json!({"reason": "timeout", "seconds": 15.0})
    );
    assert_eq!(lines[2]["status"], "failed");
    assert!(
        lines[2]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("timeout:")),
        "{}",
        lines[2]
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
