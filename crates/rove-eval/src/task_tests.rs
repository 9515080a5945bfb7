//! Task files: browser-use's format unchanged, rove's fields, and errors
//! that name the file, line and field.
//! (A test module: its parent includes it under #[cfg(test)].)

use std::path::{Path, PathBuf};

use super::*;

fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    }
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn one(text: &str) -> Task {
    let mut tasks = parse(text, Path::new("t.yaml"), &no_env).expect("parses");
    assert_eq!(tasks.len(), 1);
    tasks.remove(0)
}

fn error(text: &str) -> String {
    parse(text, Path::new("tasks/bad.yaml"), &no_env)
        .expect_err("refused")
        .to_string()
}

#[test]
fn browser_use_task_files_parse_unchanged() {
    // The shape of browser-use's evaluation tasks: name, task, a judge's
    // context and a step limit, and nothing of rove's.
    let task = one("name: amazon_laptop\n\
         task: Go to amazon.com, search for 'laptop', and return the first result\n\
         judge_context:\n  - The agent must navigate to amazon.com\n  - The agent must search for 'laptop'\n\
         max_steps: 10\n");
    assert_eq!(task.spec.name, "amazon_laptop");
    assert_eq!(task.spec.judge_context.len(), 2);
    assert_eq!(task.max_steps(), 10);
    assert!(task.spec.verify.is_empty() && task.skip.is_none());
    assert_eq!(task.threshold(), 1.0);

    let list = "- name: a\n  task: do a\n- name: b\n  task: do b\n  max_steps: 3\n";
    let tasks = parse(list, Path::new("list.yaml"), &no_env).expect("a list parses");
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[1].max_steps(), 3);
    assert_eq!(tasks[0].max_steps(), DEFAULT_MAX_STEPS);
}

#[test]
fn every_field_of_rove_parses() {
    let task = one(r#"
name: checkout
task: Buy the lamp
start_url: http://shop.test/
ground_truth: an order for one lamp
allowed_domains: [shop.test]
secrets:
  pw: LOGIN_PW
  card: {env: CARD, domain: pay.test}
timeout_s: 90
repeat: 3
threshold: 0.66
tags: [shop, smoke]
verify:
  - url: "/orders/\\d+$"
  - text: {contains: "Thank you", lacks: "Error"}
  - js: "document.cookie.includes('cart=')"
  - http: {url: "http://shop.test/api/orders", pointer: /0/item, equals: lamp}
  - http: {url: "http://shop.test/api/count", equals: 1}
  - file: {name: invoice.pdf, min_size: 100, sha256: "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", contains: "%PDF"}
  - answer: "(?i)order \\d+"
"#);
    let s = &task.spec;
    assert_eq!(s.start_url.as_deref(), Some("http://shop.test/"));
    assert_eq!(s.secrets["pw"], SecretSource::Env("LOGIN_PW".into()));
    assert_eq!(s.secrets["card"].parts(), ("CARD", Some("pay.test")));
    assert_eq!(
        (s.timeout_s, s.repeat, s.threshold),
        (Some(90.0), Some(3), Some(0.66))
    );
    assert_eq!(s.tags, ["shop", "smoke"]);
    assert_eq!(s.verify.len(), 7);
    assert_eq!(s.verify[0], Check::Url("/orders/\\d+$".into()));
    assert!(
        matches!(&s.verify[1], Check::Text(t) if t.contains.as_deref() == Some("Thank you") && t.lacks.as_deref() == Some("Error"))
    );
    assert!(
        matches!(&s.verify[3], Check::Http(h) if h.pointer == "/0/item" && h.equals == serde_json::json!("lamp"))
    );
    assert!(
        matches!(&s.verify[4], Check::Http(h) if h.pointer.is_empty() && h.equals == serde_json::json!(1))
    );
    assert!(
        matches!(&s.verify[5], Check::File(f) if f.name.as_deref() == Some("invoice.pdf") && f.min_size == Some(100))
    );
    // Its secrets' variables are unset here: kept, but skipped, saying which.
    let reason = task.skip.expect("skipped");
    assert!(
        reason.contains("pw (from LOGIN_PW)") && reason.contains("card (from CARD)"),
        "{reason}"
    );
}

#[test]
fn an_unknown_field_is_refused_with_file_line_and_field() {
    let message = error("name: a\ntask: do it\nverfy:\n  - url: x\n");
    assert!(message.starts_with("tasks/bad.yaml:3:"), "{message}");
    assert!(message.contains("verfy"), "{message}");
    // Inside a check too.
    let message = error("name: a\ntask: do it\nverify:\n  - text: {contain: x}\n");
    assert!(message.starts_with("tasks/bad.yaml:4:"), "{message}");
    assert!(message.contains("contain"), "{message}");
    // A check kind that does not exist.
    let message = error("name: a\ntask: do it\nverify:\n  - title: x\n");
    assert!(
        message.starts_with("tasks/bad.yaml:4:") && message.contains("title"),
        "{message}"
    );
}

#[test]
fn a_wrong_type_or_a_missing_field_names_line_and_field() {
    let message = error("name: a\ntask: do it\nmax_steps: many\n");
    assert!(
        message.starts_with("tasks/bad.yaml:3:") && message.contains("max_steps"),
        "{message}"
    );
    let message = error("- name: a\n  task: x\n- name: b\n");
    assert!(
        message.contains("tasks/bad.yaml:3:") && message.contains("task"),
        "{message}"
    );
    let message = error("just words\n");
    assert!(message.contains("one task"), "{message}");
}

#[test]
fn values_serde_cannot_judge_are_checked_with_the_tasks_line() {
    let message =
        error("- name: fine\n  task: x\n- name: broken\n  task: y\n  verify:\n    - url: \"([\"\n");
    assert!(
        message.starts_with("tasks/bad.yaml:3: verify[0].url: not a regex"),
        "{message}"
    );
    let message = error("name: a\ntask: x\nthreshold: 1.5\n");
    assert!(message.contains(":1: threshold:"), "{message}");
    let message = error("name: a\ntask: x\nverify: [{text: {}}]\n");
    assert!(
        message.contains("verify[0].text: give contains or lacks"),
        "{message}"
    );
    let message = error("name: a\ntask: x\nverify: [{file: {sha256: abc}}]\n");
    assert!(message.contains("verify[0].file.sha256"), "{message}");
    let message = error("name: a\ntask: x\nverify: [{http: {url: u, pointer: a/b, equals: 1}}]\n");
    assert!(message.contains("verify[0].http.pointer"), "{message}");
    let message = error("name: a\ntask: x\nrepeat: 0\n");
    assert!(message.contains("repeat: at least 1"), "{message}");
    let message = error("name: a\ntask: x\nsecrets: {pw: \"not a name\"}\n");
    assert!(message.contains("secrets:"), "{message}");
}

#[test]
fn variables_fill_string_fields_and_an_unset_one_skips_the_task() {
    let text = "name: a\ntask: log in at ${BASE}/login\nstart_url: ${BASE}/\n\
                verify:\n  - http: {url: \"${BASE}/api\", pointer: /user, equals: \"${USER}\"}\n  - text: {contains: \"$${BASE}\"}\n  - url: \"^${BASE}/$\"\n";
    let env = env_of(&[("BASE", "http://127.0.0.1:9"), ("USER", "ann")]);
    let task = parse(text, Path::new("t.yaml"), &env)
        .expect("parses")
        .remove(0);
    assert_eq!(task.spec.task, "log in at http://127.0.0.1:9/login");
    assert_eq!(task.spec.start_url.as_deref(), Some("http://127.0.0.1:9/"));
    assert!(
        matches!(&task.spec.verify[0], Check::Http(h) if h.url == "http://127.0.0.1:9/api" && h.equals == serde_json::json!("ann"))
    );
    // `$${` is a literal `${`.
    assert!(
        matches!(&task.spec.verify[1], Check::Text(t) if t.contains.as_deref() == Some("${BASE}"))
    );
    assert_eq!(
        task.spec.verify[2],
        Check::Url("^http://127.0.0.1:9/$".into())
    );
    assert!(task.skip.is_none());

    let only_base = env_of(&[("BASE", "http://h")]);
    let task = parse(text, Path::new("t.yaml"), &only_base)
        .expect("parses")
        .remove(0);
    assert_eq!(
        task.skip.as_deref(),
        Some("unset environment variable USER")
    );
}

#[test]
fn a_secret_is_read_from_its_variable_and_an_empty_one_counts_as_unset() {
    let text = "name: a\ntask: x\nsecrets: {pw: PW}\n";
    let set = env_of(&[("PW", "hunter2")]);
    assert!(
        parse(text, Path::new("t"), &set).expect("parses")[0]
            .skip
            .is_none()
    );
    let empty = env_of(&[("PW", "")]);
    let skipped = parse(text, Path::new("t"), &empty)
        .expect("parses")
        .remove(0);
    assert_eq!(skipped.skip.as_deref(), Some("unset secret pw (from PW)"));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rove-eval-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn a_folder_loads_in_order_and_one_bad_file_stops_everything() {
    let dir = scratch("load");
    std::fs::write(dir.join("b.yaml"), "name: second\ntask: x\n").expect("write");
    std::fs::write(dir.join("a.yml"), "- name: first\n  task: x\n").expect("write");
    std::fs::write(dir.join("notes.txt"), "not a task").expect("write");
    let tasks = load(std::slice::from_ref(&dir), &no_env).expect("loads");
    let names: Vec<&str> = tasks.iter().map(|t| t.spec.name.as_str()).collect();
    assert_eq!(names, ["first", "second"]);

    let bad = dir.join("c.yaml");
    std::fs::write(&bad, "name: third\ntask: x\nmax_step: 3\n").expect("write");
    let message = load(std::slice::from_ref(&dir), &no_env)
        .expect_err("refused")
        .to_string();
    assert!(
        message.contains("c.yaml:3:") && message.contains("max_step"),
        "{message}"
    );

    std::fs::write(&bad, "name: first\ntask: again\n").expect("write");
    let message = load(std::slice::from_ref(&dir), &no_env)
        .expect_err("refused")
        .to_string();
    assert!(
        message.contains("c.yaml:1: name:") && message.contains("a.yml"),
        "{message}"
    );

    let missing = load(&[dir.join("nope.yaml")], &no_env)
        .expect_err("refused")
        .to_string();
    assert!(missing.contains("nope.yaml"), "{missing}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn files_that_are_not_regular_are_refused_at_once() {
    let dir = scratch("not-regular");
    let pipe = dir.join("pipe.yaml");
    mkfifo(&pipe);
    let zero = dir.join("zero.yaml");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let (tx, rx) = std::sync::mpsc::channel();
    let folder = dir.clone();
    std::thread::spawn(move || {
        let _ = tx.send(load(&[folder], &no_env).map(|t| t.len()));
    });
    let loaded = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("load returned without waiting on the pipe or reading the device");
    let message = loaded.expect_err("refused").to_string();
    assert!(
        message.contains("pipe.yaml") && message.contains("named pipe"),
        "{message}"
    );
    let message = load(&[zero], &no_env).expect_err("a device").to_string();
    assert!(message.contains("character device"), "{message}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// A named pipe at `path`, made by `mkfifo(1)`.
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn a_task_file_is_capped_in_size_and_nesting() {
    let dir = scratch("caps");
    let big = dir.join("big.yaml");
    let mut text = String::from("name: a\ntask: x\n#");
    text.push_str(&"x".repeat(rove_base::limits::TASK_FILE_BYTES as usize));
    std::fs::write(&big, text).expect("write");
    let message = load(&[big], &no_env).expect_err("too large").to_string();
    assert!(
        message.contains("big.yaml") && message.contains("larger than"),
        "{message}"
    );
    // 200,000 brackets took the YAML scanner over 100 s.
    let deep = format!(
        "name: a\ntask: {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let started = std::time::Instant::now();
    let message = error(&deep);
    // Refused by the linear pre-scan: far inside this bound even on a
    // loaded machine, where the scanner alone took over 100 s.
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let depth = rove_base::limits::TASK_FILE_DEPTH;
    // `task: ` is 6 columns; the first bracket too many is one past them.
    let at = format!(
        "tasks/bad.yaml:2:{}: lists and maps nested more than {depth}",
        6 + depth + 1
    );
    assert!(message.starts_with(&at), "{message}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_null_task_is_refused_and_a_byte_order_mark_accepted() {
    let message = error("name: a\ntask: null\n");
    assert!(message.contains(":1: task: is null"), "{message}");
    let message = error("- name: a\n  task: x\n- name: ~\n  task: y\n");
    assert!(message.contains("name: is null"), "{message}");
    assert_eq!(one("\u{feff}name: a\ntask: x\n").spec.name, "a");
    let dir = scratch("bom");
    let file = dir.join("bom.yaml");
    std::fs::write(&file, "\u{feff}- name: b\n  task: y\n").expect("write");
    assert_eq!(load(&[file], &no_env).expect("loads")[0].spec.name, "b");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_repeat_past_the_bound_is_refused() {
    let message = error("name: a\ntask: x\nrepeat: 4294967295\n");
    assert!(
        message.contains(":1: repeat: 4294967295 is more than"),
        "{message}"
    );
}

#[test]
fn a_secret_or_a_key_is_never_filled_into_what_a_model_reads() {
    let env = env_of(&[
        ("PW", "hunter2-Zq"),
        ("OPENAI_API_KEY", "sk-live-123"),
        ("BASE", "http://127.0.0.1:9"),
    ]);
    let refused = |text: &str| {
        parse(text, Path::new("tasks/smuggle.yaml"), &env)
            .expect_err("refused")
            .to_string()
    };
    let secret = "  secrets: {PASSWORD: PW}\n";
    for (field, text) in [
        (
            "task",
            format!("name: a\ntask: \"the password is ${{PW}}\"\n{secret}"),
        ),
        (
            "ground_truth",
            format!("name: a\ntask: log in\nground_truth: \"pw ${{PW}}\"\n{secret}"),
        ),
        (
            "judge_context[1]",
            format!("name: a\ntask: log in\njudge_context: [ok, \"pw ${{PW}}\"]\n{secret}"),
        ),
        (
            "task",
            "name: a\ntask: \"key ${OPENAI_API_KEY}\"\n".to_owned(),
        ),
    ] {
        let text = text.replace("\n  secrets", "\nsecrets");
        let said = refused(&text);
        assert!(
            said.starts_with(&format!("tasks/smuggle.yaml:1: {field}: ")),
            "{said}"
        );
        assert!(
            !said.contains("hunter2") && !said.contains("sk-live"),
            "{said}"
        );
    }
    assert!(
        refused("name: a\ntask: \"pw ${PW}\"\nsecrets: {PASSWORD: PW}\n")
            .contains("write <secret>PASSWORD</secret> instead"),
    );
    // A secret of another task in the file counts too.
    let two =
        "- {name: a, task: log in, secrets: {PASSWORD: PW}}\n- {name: b, task: \"pw ${PW}\"}\n";
    assert!(refused(two).contains("b") && refused(two).contains(": task: "));
    // Elsewhere the variable is filled in, and `$${PW}` stays literal.
    let task = parse(
        "name: a\ntask: \"type <secret>PASSWORD</secret> at ${BASE}, not $${PW}\"\nstart_url: \"${BASE}/?u=${PW}\"\nsecrets: {PASSWORD: PW}\n",
        Path::new("t.yaml"),
        &env,
    )
    .expect("parses")
    .remove(0);
    assert_eq!(
        task.spec.task,
        "type <secret>PASSWORD</secret> at http://127.0.0.1:9, not ${PW}"
    );
    assert_eq!(
        task.spec.start_url.as_deref(),
        Some("http://127.0.0.1:9/?u=hunter2-Zq")
    );
}

#[test]
fn a_secrets_variable_is_refused_in_every_file_of_the_suite() {
    // Issue 43, item 4: the secret is declared in one file, its variable
    // named (or its value copied) in another's task text or ground truth.
    let env = env_of(&[("PW", "hunter2-Zq"), ("COPY", "pw is hunter2-Zq")]);
    for (file, text, field) in [
        ("a.yaml", "name: early\ntask: \"pw ${PW}\"\n", "task"),
        (
            "c.yaml",
            "name: late\ntask: log in\nground_truth: \"${COPY}\"\n",
            "ground_truth",
        ),
    ] {
        let dir = scratch(&format!("suite-secret-{field}"));
        std::fs::write(
            dir.join("b.yaml"),
            "name: login\ntask: log in with <secret>PASSWORD</secret>\nsecrets: {PASSWORD: PW}\n",
        )
        .expect("write");
        std::fs::write(dir.join(file), text).expect("write");
        let said = load(std::slice::from_ref(&dir), &env)
            .expect_err("refused")
            .to_string();
        assert!(said.contains(&format!("{file}:1: {field}: ")), "{said}");
        assert!(said.contains("secret PASSWORD"), "{said}");
        assert!(!said.contains("hunter2"), "{said}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_copy_of_a_secret_or_a_credential_under_another_name_is_refused_by_its_value() {
    // Issue 37, items 6 and 7: matched by value, not by name; and the
    // credentials whose names do not end in _API_KEY.
    let env = env_of(&[
        ("PW", "hunter2-Zq"),
        ("COPY", "hunter2-Zq"),
        ("WRAPPED", "pw=hunter2-Zq;"),
        ("AZURE_OPENAI_AD_TOKEN", "eyJ-entra-77"),
        ("AWS_SECRET_ACCESS_KEY", "aws-secret-77"),
        ("AWS_BEARER_TOKEN_BEDROCK", "ABSK-77"),
        ("AWS_SESSION_TOKEN", "aws-session-77"),
        ("TOKEN_COPY", "ABSK-77"),
        ("BASE", "http://127.0.0.1:9"),
        ("SHORT", "hun"),
    ]);
    let refused = |text: &str| {
        parse(text, Path::new("t.yaml"), &env)
            .expect_err("refused")
            .to_string()
    };
    let secret = "\nsecrets: {PASSWORD: PW}\n";
    for (field, var) in [
        ("task", "COPY"),
        ("task", "WRAPPED"),
        ("judge_context[0]", "COPY"),
        ("ground_truth", "COPY"),
    ] {
        let text = match field {
            "task" => format!("name: a\ntask: \"go ${{{var}}}\"{secret}"),
            "ground_truth" => format!("name: a\ntask: go\nground_truth: \"${{{var}}}\"{secret}"),
            _ => format!("name: a\ntask: go\njudge_context: [\"${{{var}}}\"]{secret}"),
        };
        let said = refused(&text);
        assert!(said.contains(&format!(": {field}: ")), "{said}");
        assert!(said.contains("<secret>PASSWORD</secret>"), "{said}");
        assert!(!said.contains("hunter2"), "{said}");
    }
    for var in [
        "AZURE_OPENAI_AD_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_BEARER_TOKEN_BEDROCK",
        "AWS_SESSION_TOKEN",
    ] {
        let said = refused(&format!(
            "name: a\ntask: go\njudge_context: [\"${{{var}}}\"]\n"
        ));
        assert!(
            said.contains("judge_context[0]") && said.contains(var),
            "{said}"
        );
        assert!(!said.contains("-77"), "{said}");
    }
    let said = refused("name: a\ntask: \"use ${TOKEN_COPY}\"\n");
    assert!(said.contains("AWS_BEARER_TOKEN_BEDROCK"), "{said}");
    // Other values, and a short one, are filled in.
    let task = parse(
        &format!("name: a\ntask: \"go to ${{BASE}} ${{SHORT}}\"{secret}"),
        Path::new("t.yaml"),
        &env,
    )
    .expect("parses")
    .remove(0);
    assert_eq!(task.spec.task, "go to http://127.0.0.1:9 hun");
}
