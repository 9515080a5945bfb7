//! The Kubernetes manifests under deploy/k8s and the commands of
//! docs/deploy.md, held to what rove and the cluster need: every document
//! parses as a known kind; the farm's image is pinned and its token comes
//! from a Secret; the Service reaches the pods' port; the Indexed Job runs
//! one `--shard` per index against the Service with its keys from Secrets;
//! and every rove flag they spell is one the built binary accepts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use yaml_serde::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifests_dir() -> PathBuf {
    root().join("deploy/k8s")
}

/// Every YAML document of `file` (under deploy/k8s), empty ones left out.
fn documents(file: &str) -> Vec<Value> {
    let path = manifests_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    parse_all(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn parse_all(text: &str) -> Result<Vec<Value>, yaml_serde::Error> {
    let mut documents = Vec::new();
    for document in yaml_serde::Deserializer::from_str(text) {
        let value = Value::deserialize(document)?;
        if !value.is_null() {
            documents.push(value);
        }
    }
    Ok(documents)
}

/// The value at a dotted path (`spec.template.spec`), Null when absent.
fn at<'v>(value: &'v Value, path: &str) -> &'v Value {
    path.split('.').fold(value, |v, key| &v[key])
}

fn text<'v>(value: &'v Value, path: &str) -> &'v str {
    at(value, path)
        .as_str()
        .unwrap_or_else(|| panic!("{path} is not a string in {value:?}"))
}

fn list<'v>(value: &'v Value, path: &str) -> &'v [Value] {
    at(value, path)
        .as_sequence()
        .map(Vec::as_slice)
        .unwrap_or_else(|| panic!("{path} is not a list in {value:?}"))
}

/// The one document of `kind` in `file`.
fn one(file: &str, kind: &str) -> Value {
    let mut found: Vec<Value> = documents(file)
        .into_iter()
        .filter(|d| at(d, "kind").as_str() == Some(kind))
        .collect();
    assert_eq!(found.len(), 1, "one {kind} in {file}");
    found.remove(0)
}

/// `labels` holds every pair of `selector`.
fn selects(selector: &Value, labels: &Value) -> bool {
    let (Some(selector), Some(labels)) = (selector.as_mapping(), labels.as_mapping()) else {
        return false;
    };
    !selector.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

fn container<'v>(pod_spec: &'v Value, name: &str) -> &'v Value {
    list(pod_spec, "containers")
        .iter()
        .find(|c| c["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no container {name}"))
}

fn env_var<'v>(container: &'v Value, name: &str) -> Option<&'v Value> {
    list(container, "env")
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
}

/// The (Secret, key) an environment variable is read from, if any.
fn secret_ref(var: &Value) -> Option<(&str, &str)> {
    let reference = at(var, "valueFrom.secretKeyRef");
    Some((reference["name"].as_str()?, reference["key"].as_str()?))
}

fn image_is_pinned(image: &str) -> bool {
    let name = image.rsplit('/').next().unwrap_or(image);
    match name.split_once(':') {
        Some((_, tag)) => !tag.is_empty() && tag != "latest",
        None => image.contains("@sha256:"),
    }
}

#[test]
fn every_manifest_parses_as_a_known_kind_and_the_kustomization_lists_them() {
    let known: BTreeMap<&str, &str> = [
        ("Deployment", "apps/v1"),
        ("Service", "v1"),
        ("NetworkPolicy", "networking.k8s.io/v1"),
        ("Job", "batch/v1"),
        ("PersistentVolumeClaim", "v1"),
        ("Secret", "v1"),
        ("Kustomization", "kustomize.config.k8s.io/v1beta1"),
    ]
    .into_iter()
    .collect();
    let mut files: Vec<String> = std::fs::read_dir(manifests_dir())
        .expect("deploy/k8s")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    for file in &files {
        let docs = documents(file);
        assert!(!docs.is_empty(), "{file} has no document");
        for doc in &docs {
            let kind = text(doc, "kind");
            assert_eq!(
                known.get(kind).copied(),
                Some(text(doc, "apiVersion")),
                "{file}: {kind}"
            );
            if kind != "Kustomization" {
                assert!(!text(doc, "metadata.name").is_empty(), "{file}: {kind}");
            }
        }
    }
    // Applying the folder applies every manifest but the Secrets' example,
    // whose placeholders would overwrite real keys.
    let kustomization = one("kustomization.yaml", "Kustomization");
    let listed: BTreeSet<&str> = list(&kustomization, "resources")
        .iter()
        .map(|r| r.as_str().expect("a file name"))
        .collect();
    let wanted: BTreeSet<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|f| *f != "kustomization.yaml" && !f.contains("example"))
        .collect();
    assert_eq!(listed, wanted);
}

#[test]
fn the_farm_pins_its_image_reads_its_token_from_a_secret_and_sets_its_limits() {
    let deployment = one("browserless.yaml", "Deployment");
    let pod = at(&deployment, "spec.template.spec");
    let farm = container(pod, "browserless");
    let image = text(farm, "image");
    assert!(image_is_pinned(image), "{image} is not pinned");
    let token = env_var(farm, "TOKEN").expect("TOKEN");
    assert!(secret_ref(token).is_some(), "TOKEN is not from a Secret");
    assert!(token.get("value").is_none(), "TOKEN has a literal value");
    for limit in ["CONCURRENT", "QUEUED", "TIMEOUT"] {
        let value = env_var(farm, limit)
            .and_then(|v| v["value"].as_str())
            .unwrap_or_else(|| panic!("{limit} is not set"));
        let number: u64 = value.parse().unwrap_or_else(|_| panic!("{limit}={value}"));
        assert!(number > 0, "{limit}={value}");
    }
    assert!(farm.get("readinessProbe").is_some(), "no readiness probe");
    for part in ["requests.cpu", "requests.memory", "limits.memory"] {
        assert!(!at(farm, &format!("resources.{part}")).is_null(), "{part}");
    }
}

#[test]
fn the_service_and_network_policy_reach_the_farms_pods_on_their_port() {
    let deployment = one("browserless.yaml", "Deployment");
    let service = one("browserless.yaml", "Service");
    let pod_labels = at(&deployment, "spec.template.metadata.labels");
    assert!(selects(
        at(&deployment, "spec.selector.matchLabels"),
        pod_labels
    ));
    assert!(selects(at(&service, "spec.selector"), pod_labels));
    let ports = list(
        container(at(&deployment, "spec.template.spec"), "browserless"),
        "ports",
    );
    for port in list(&service, "spec.ports") {
        let target = &port["targetPort"];
        let reached = ports.iter().any(|p| match target.as_u64() {
            Some(number) => p["containerPort"].as_u64() == Some(number),
            None => target.as_str().is_some() && p["name"] == *target,
        });
        assert!(reached, "targetPort {target:?} is no container port");
    }
    // Only the Job's pods may open a browser.
    let policy = one("browserless.yaml", "NetworkPolicy");
    assert!(selects(
        at(&policy, "spec.podSelector.matchLabels"),
        pod_labels
    ));
    let job = one("rove-test-job.yaml", "Job");
    let job_labels = at(&job, "spec.template.metadata.labels");
    let admitted = list(&policy, "spec.ingress").iter().any(|rule| {
        rule["from"]
            .as_sequence()
            .into_iter()
            .flatten()
            .any(|from| selects(at(from, "podSelector.matchLabels"), job_labels))
    });
    assert!(admitted, "the policy shuts out the Job's pods");
}

/// The shell command of the Job's rove container, one string.
fn job_command(rove: &Value) -> String {
    let words: Vec<&str> = list(rove, "command")
        .iter()
        .chain(rove["args"].as_sequence().into_iter().flatten())
        .map(|w| w.as_str().expect("a string"))
        .collect();
    words.join(" ")
}

#[test]
fn the_job_runs_one_shard_per_index_against_the_farm_service() {
    let job = one("rove-test-job.yaml", "Job");
    let spec = at(&job, "spec");
    assert_eq!(text(spec, "completionMode"), "Indexed");
    let completions = spec["completions"].as_u64().expect("completions");
    assert_eq!(spec["parallelism"].as_u64(), Some(completions));
    assert!(
        spec.get("backoffLimit").is_some() || spec.get("backoffLimitPerIndex").is_some(),
        "no backoff limit"
    );
    assert!(
        spec["activeDeadlineSeconds"]
            .as_u64()
            .is_some_and(|s| s > 0)
    );
    let pod = at(spec, "template.spec");
    assert_eq!(text(pod, "restartPolicy"), "Never");
    let rove = container(pod, "rove");
    assert!(image_is_pinned(text(rove, "image")));
    for rule in spec["podFailurePolicy"]["rules"]
        .as_sequence()
        .into_iter()
        .flatten()
    {
        if let Some(name) = at(rule, "onExitCodes.containerName").as_str() {
            assert_eq!(name, "rove", "a failure rule names another container");
        }
    }

    let command = job_command(rove);
    let shard = format!("--shard $((JOB_COMPLETION_INDEX+1))/{completions}");
    assert!(command.contains(&shard), "no `{shard}` in {command}");
    assert!(command.contains("--isolate browser"), "{command}");

    // The farm's address: the Service's name and port, with the token put
    // in by Kubernetes from a variable defined before it, itself read from
    // the Secret the farm reads its own token from.
    let service = one("browserless.yaml", "Service");
    let url = env_var(rove, "ROVE_CDP_URL")
        .and_then(|v| v["value"].as_str())
        .expect("ROVE_CDP_URL");
    assert!(!command.contains("--cdp-url"), "a URL in argv shows in ps");
    let parsed = url::Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let host = parsed.host_str().expect("a host");
    let name = text(&service, "metadata.name");
    assert!(
        host == name || host.starts_with(&format!("{name}.")),
        "{url}"
    );
    let ports: Vec<u64> = list(&service, "spec.ports")
        .iter()
        .filter_map(|p| p["port"].as_u64())
        .collect();
    assert!(
        ports.contains(&u64::from(parsed.port().expect("a port"))),
        "{url}"
    );
    let token_var = url
        .split_once("token=$(")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(var, _)| var)
        .unwrap_or_else(|| panic!("no token=$(VAR) in {url}"));
    let position = |name: &str| {
        list(rove, "env")
            .iter()
            .position(|e| e["name"].as_str() == Some(name))
    };
    let defined = position(token_var).unwrap_or_else(|| panic!("{token_var} is not defined"));
    assert!(
        defined < position("ROVE_CDP_URL").expect("ROVE_CDP_URL"),
        "{token_var} comes after"
    );
    let farm = one("browserless.yaml", "Deployment");
    let farm_token = env_var(
        container(at(&farm, "spec.template.spec"), "browserless"),
        "TOKEN",
    )
    .and_then(secret_ref);
    assert!(
        farm_token.is_some(),
        "the farm's TOKEN is not from a Secret"
    );
    assert_eq!(env_var(rove, token_var).and_then(secret_ref), farm_token);

    let keys: Vec<&Value> = list(rove, "env")
        .iter()
        .filter(|e| e["name"].as_str().is_some_and(|n| n.ends_with("_API_KEY")))
        .collect();
    assert!(!keys.is_empty(), "no model key");
    for key in keys {
        assert!(secret_ref(key).is_some(), "{key:?} is not from a Secret");
    }
}

/// Where a rove command line begins among `words`: `rove` itself, or a path
/// ending in `/rove`.
fn is_rove(word: &str) -> bool {
    word == "rove" || word.ends_with("/rove")
}

/// The rove invocations in `line`: for each, its words up to the end of
/// the shell command it is part of.
fn rove_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for word in line.split_whitespace() {
        if word.starts_with('#') {
            break; // a comment
        }
        let word = word.trim_matches(|c| c == '\'' || c == '"' || c == '`');
        if matches!(word, "|" | "||" | "&&" | ";" | ">" | "2>") {
            commands.extend(current.take());
            continue;
        }
        match &mut current {
            Some(words) => words.push(word.to_owned()),
            None if is_rove(word) => current = Some(Vec::new()),
            None => {}
        }
    }
    commands.extend(current);
    commands
}

/// The shell lines and YAML strings of docs/deploy.md's fenced blocks.
fn doc_command_lines() -> Vec<String> {
    let path = root().join("docs/deploy.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut lines = Vec::new();
    let mut block: Option<(String, String)> = None;
    for line in doc.lines() {
        match (&mut block, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) => block = Some((lang.trim().to_owned(), String::new())),
            (Some((lang, body)), Some(_)) => {
                match lang.as_str() {
                    "yaml" => {
                        let docs = parse_all(body).unwrap_or_else(|e| panic!("a yaml block: {e}"));
                        docs.iter().for_each(|d| strings(d, &mut lines));
                    }
                    "sh" | "bash" | "shell" | "" => {
                        lines.extend(body.replace("\\\n", " ").lines().map(str::to_owned));
                    }
                    _ => {} // a Dockerfile, a table of URLs …
                }
                block = None;
            }
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    lines
}

fn strings(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(s) => into.push(s.clone()),
        Value::Sequence(items) => items.iter().for_each(|v| strings(v, into)),
        Value::Mapping(map) => map.values().for_each(|v| strings(v, into)),
        _ => {}
    }
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rove"))
        .args(args)
        .env_remove("ROVE_CDP_URL")
        .output()
        .expect("rove ran");
    assert!(out.status.success(), "rove {args:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The flags a help text lists: each option line's `-x` and `--name`.
fn listed_flags(help: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for line in help.lines().map(str::trim_start) {
        if !line.starts_with('-') {
            continue;
        }
        let spelling = line.split("  ").next().unwrap_or(line);
        for part in spelling.split(", ") {
            let flag = part.split([' ', '[', '=', '.']).next().unwrap_or(part);
            flags.insert(flag.to_owned());
        }
    }
    flags
}

/// The subcommands `rove --help` lists.
fn subcommands(top: &str) -> BTreeSet<String> {
    top.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn every_rove_flag_the_manifests_and_deploy_md_use_is_one_rove_accepts() {
    let top = help(&["--help"]);
    let globals = listed_flags(&top);
    let names = subcommands(&top);
    assert!(
        names.contains("test") && globals.contains("--cdp-url"),
        "{top}"
    );
    let mut own: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();

    let job = one("rove-test-job.yaml", "Job");
    let mut lines = vec![job_command(container(
        at(&job, "spec.template.spec"),
        "rove",
    ))];
    lines.extend(doc_command_lines());
    let mut checked = 0;
    for words in lines.iter().flat_map(|l| rove_commands(l)) {
        let sub = words.iter().find(|w| names.contains(w.as_str()));
        let mut allowed = globals.clone();
        if let Some(sub) = sub {
            let flags = own
                .entry(sub.clone())
                .or_insert_with(|| listed_flags(&help(&[sub, "--help"])));
            allowed.extend(flags.iter().cloned());
        }
        for word in words.iter().filter(|w| w.starts_with('-') && w.len() > 1) {
            let flag = word.split('=').next().unwrap_or(word);
            if allowed.contains(flag) {
                checked += 1;
                continue;
            }
            panic!(
                "`{flag}` is no flag of `rove {}`: {}",
                sub.map_or("", |s| s),
                words.join(" ")
            );
        }
    }
    // The Job's own flags and the guide's: a parse that found nothing would
    // pass without checking anything.
    assert!(checked >= 15, "only {checked} flags found");
}
