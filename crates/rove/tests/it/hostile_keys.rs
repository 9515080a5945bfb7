//! Keys and tokens rove holds against what `rove run` and `rove test`
//! print and write (issue 37, items 1, 2 and 8), with the real binary,
//! real Chromium and providers speaking their real wire formats on
//! 127.0.0.1.
//!
//! A provider that refuses the key repeats it in its error, as OpenAI
//! does (`Incorrect API key provided: sk-…`), for every credential rove
//! holds or obtains: `--api-key`, `OPENAI_API_KEY`, Azure's key, Mistral's,
//! Bedrock's bearer token, Vertex's access token (obtained at run time),
//! `--fallback-api-key`, `--judge-api-key`. A model whose answer quotes the
//! key it was sent. A task whose `start_url` carries a secret. None of them
//! may reach stdout, stderr, `--json`, a history, a trace or its page.

use std::path::Path;
use std::time::Duration;

use rove_localserver::{LocalServer, Request, Response, Routes};
use serde_json::json;
use tokio::process::Command;

use crate::run_judge::pages;

/// A service account's key made for this test alone (RSA, PKCS #8): it
/// signs the assertion the local token endpoint takes, nothing else.
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQCU4iAIhIr/S9p3\n9Ty8grS+Q5Op2AHJddZW1qLDOO7f1YL6VcFR07SFjvPdFeU1VveIwLBeCleMho1X\nKG/bI/wijPPNwLrkd3XlHTvKa6IMTpUZ+4KsHBThQEJkgd8IWiH6thII8qpobuaf\nnd0waNSsgrkv/LBRLK7Y7b7X/1lkJ7o/t7/Hn4l/aydf/V2YXoX7m85DSFilh0AO\n5gEr+r7pMvBw5DU9kh6RO3Y2qIpgLq8aVXepQsJ+VhuQ69DUo1CGFvYa9F1ZtPYW\nJUe+ck0fOare9un6cR+MccNoeNDURYFf5zHr1ZzKg8UUmmXI8SsOw+VfiMLABU2M\n5kDFiVy/AgMBAAECggEAFeBKsABhuB96K2l9EinryuUnu6tsn8smbRNpTmF9iqWB\nyFd0v27pteeKYkWcV0O/Es4ABuFizy2EySC88X3jx2PfUwVAW4pIvXCX33yvOTsM\nDN74QA0kQvDBO1QbOcvx9Y0ZMKK6HVGQ+4p4/MBP4kVBrBESC0C93vbCtamPMKMC\n4tiN0bUlXjp4fEVs5RbryxhOrI74RPJ42WEOnkdV4aNx70l32X12s9+QQLdDi86a\nAEwqMbsblpduLcHyN6aAfG7b5ab1bMSr7bcK9CLFEIMlBxeWHSIEjp6Hf0cMlfTy\nYx0+7fdvv0+OUrgPkGbWj/i9knpyr6+5/1RANv9fSQKBgQDSPut3ZEFN4dXUtEUq\nfMBD1C31eXyV1rNYdfZrLxvw8aMF9h2qS+7u0/t2WMIz+ai+M22X0y7vFSsYFDQG\nfxoIMr6y6kO0YRQnc2C1vgRzgSxftZkY1LAglMTsvHVOmHAGB+9iB7WdtzXsPv4i\ne1qOx5+rgrxo7kcHLQLUVNadSwKBgQC1SJ4dR2JnldMsy3IyvV9D3SY3cQorExhE\ninMnGEe6uHWnJey/+yoCV3fymkFI9u0lrwwa1sK3g5Dh+hHHlH7wATLE/2W5oRUx\ngJAuWWx2XG1LLErLcriu6dcNOn3+/qPSWCDgB/gJ4mFqAVBiF+dLoCNuh4qKe62f\nqV7HbG3Z3QKBgH7sVSJCd9oYmApMueSoYzmPgh9LNBcRAjxJGnYifm+6sHwM1GPW\na2vqtUgA1VyjP2dzjJm3eAIFeXqT18SEPqbsW4uPOUhPwub+FEgjanSAatVsv/vp\nilpg9XElZHwKMraxW6aGmPGZhQgWDz2p0kWX5aCY0D1Ye7CtT6P3g4h5AoGAbBmp\nb3wpyeslyghnSKp0LFurdlQJ5DW2uuh0UlPAMi/cuJd83d4/5rWR6TDizUexkk8X\nwMlfw17I/nfIMmLybtvIEoDZgB/2K1amo3zfmJT092aqEzeNuX/npRPEHlJqDfxP\nXkhiOEKuJDA0ZsoqOoZ7mmVoz7uAhTzSL8kQmGECgYAvYfpwrBOZw9NvxL6NfcXg\njjezyqqmzHu5N6glmSN27dXnAO9c5XRbuFkOkpwcuWXwmZdINu7118P9fk15keN4\n3DXtV5HFpF+GLB8U3M0OnoJp6rCTwC42xLS1AYfO9hXJqubirpte8fVdJMCMoqnl\nq8S0oga51Rvc8fHPfeO3GA==\n-----END PRIVATE KEY-----\n";

const VERTEX_PATH: &str =
    "/v1/projects/p/locations/us-central1/publishers/google/models/m:generateContent";

/// What the provider answers every call: a refusal repeating every header
/// it was sent, as "Incorrect API key provided: …".
fn echo(request: &Request) -> Response {
    let said: Vec<String> = request
        .headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect();
    let message = format!("Incorrect API key provided: {}", said.join(" | "));
    Response::with_type(
        401,
        "application/json",
        json!({"error": {"message": message}})
            .to_string()
            .into_bytes(),
    )
}

/// A provider at every path rove's wires call, refusing with the key
/// repeated; and Vertex's token endpoint, which hands out `ya29…`.
async fn echoing_provider() -> LocalServer {
    let routes = [
        "/v1/chat/completions",
        "/openai/deployments/m/chat/completions",
        "/model/m/converse",
        VERTEX_PATH,
    ]
    .into_iter()
    .fold(Routes::new(), |routes, path| routes.handle(path, echo))
    .page(
        "/token",
        Response::with_type(
            200,
            "application/json",
            json!({"access_token": "ya29.obtained-hostile-Vx7", "expires_in": 3599})
                .to_string()
                .into_bytes(),
        ),
    );
    LocalServer::start(routes).await.expect("provider")
}

/// An OpenAI answer calling `tool` with `args`, saying `content` besides.
fn answer(content: &str, tool: &str, args: serde_json::Value) -> Response {
    let call = json!({"id": "c1", "type": "function", "function": {"name": tool, "arguments": args.to_string()}});
    let reply = json!({"model": "m", "choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": content, "tool_calls": [call]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 2}});
    Response::with_type(200, "application/json", reply.to_string().into_bytes())
}

/// A model that finishes at once, quoting the key it was sent in its
/// thought and its answer.
async fn quoting_model() -> LocalServer {
    LocalServer::start(
        Routes::new().handle("/v1/chat/completions", |request: &Request| {
            let key = request
                .header("authorization")
                .unwrap_or_default()
                .trim_start_matches("Bearer ")
                .to_owned();
            answer(
                &format!("I was called with {key}"),
                "done",
                json!({"text": format!("done; my key is {key}"), "success": true}),
            )
        }),
    )
    .await
    .expect("model")
}

/// A model that finishes at once.
async fn done_model() -> LocalServer {
    LocalServer::start(Routes::new().page(
        "/v1/chat/completions",
        answer("", "done", json!({"text": "done", "success": true})),
    ))
    .await
    .expect("model")
}

/// Every file under `dir`, with its text (lossy: a screenshot is no text,
/// but must not hold a key either).
fn files_under(dir: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                found.push((
                    path.display().to_string(),
                    String::from_utf8_lossy(&bytes).into_owned(),
                ));
            }
        }
    }
    found
}

fn assert_hidden(what: &str, text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(
            !text.contains(secret),
            "{secret:?} in {what}: {:?}",
            text.lines()
                .filter(|l| l.contains(secret))
                .collect::<Vec<_>>()
        );
    }
}

/// One way to give rove a model's credential.
struct Case {
    name: &'static str,
    args: Vec<String>,
    env: Vec<(&'static str, String)>,
    secrets: Vec<&'static str>,
}

fn cases(provider: &LocalServer, done: &LocalServer, account: &Path) -> Vec<Case> {
    let v1 = provider.url("/v1");
    let root = provider.url("").trim_end_matches('/').to_owned();
    let s = |a: &[&str]| a.iter().map(|x| (*x).to_owned()).collect::<Vec<String>>();
    vec![
        Case {
            name: "--api-key",
            args: s(&["--model", "openai:m", "--api-key", "sk-flag-hostile-1"]),
            env: vec![("OPENAI_BASE_URL", v1.clone())],
            secrets: vec!["sk-flag-hostile-1"],
        },
        Case {
            name: "OPENAI_API_KEY",
            args: s(&["--model", "openai:m"]),
            env: vec![
                ("OPENAI_API_KEY", "sk-env-hostile-2".into()),
                ("OPENAI_BASE_URL", v1.clone()),
            ],
            secrets: vec!["sk-env-hostile-2"],
        },
        Case {
            name: "azure",
            args: s(&["--model", "azure:m"]),
            env: vec![
                ("AZURE_OPENAI_API_KEY", "az-hostile-3".into()),
                ("AZURE_OPENAI_ENDPOINT", root.clone()),
            ],
            secrets: vec!["az-hostile-3"],
        },
        Case {
            name: "mistral",
            args: s(&["--model", "mistral:m"]),
            env: vec![
                ("MISTRAL_API_KEY", "mistral-hostile-4".into()),
                ("MISTRAL_BASE_URL", v1.clone()),
            ],
            secrets: vec!["mistral-hostile-4"],
        },
        Case {
            name: "bedrock's bearer token",
            args: s(&["--model", "bedrock:m"]),
            env: vec![
                ("AWS_BEARER_TOKEN_BEDROCK", "ABSK-hostile-5".into()),
                ("AWS_REGION", "us-east-1".into()),
                ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", root.clone()),
            ],
            secrets: vec!["ABSK-hostile-5"],
        },
        Case {
            name: "vertex's access token",
            args: s(&["--model", "vertex:m"]),
            env: vec![
                (
                    "GOOGLE_APPLICATION_CREDENTIALS",
                    account.display().to_string(),
                ),
                ("GOOGLE_CLOUD_LOCATION", "us-central1".into()),
                ("VERTEX_BASE_URL", root.clone()),
            ],
            secrets: vec!["ya29.obtained-hostile-Vx7"],
        },
        Case {
            name: "--fallback-api-key",
            args: s(&[
                "--model",
                "openai:m",
                "--api-key",
                "sk-main-hostile-6",
                "--fallback-model",
                "openai:f",
                "--fallback-api-key",
                "sk-fallback-hostile-7",
                "--fallback-base-url",
                &v1,
            ]),
            env: vec![("OPENAI_BASE_URL", v1.clone())],
            secrets: vec!["sk-main-hostile-6", "sk-fallback-hostile-7"],
        },
        Case {
            name: "--judge-api-key",
            args: s(&[
                "--model",
                "openai:m",
                "--judge-model",
                "openai:j",
                "--judge-api-key",
                "sk-judge-hostile-8",
                "--judge-base-url",
                &v1,
            ]),
            env: vec![
                ("OPENAI_API_KEY", "sk-agent-9".into()),
                ("OPENAI_BASE_URL", done.url("/v1")),
            ],
            secrets: vec!["sk-judge-hostile-8"],
        },
    ]
}

#[tokio::test]
async fn a_provider_that_repeats_the_key_leaves_it_in_no_output_of_rove_run() {
    let page = pages().await;
    let provider = echoing_provider().await;
    let done = done_model().await;
    let dir = rove_testkit::scratch_dir("hostile-keys-echo");
    let account = dir.join("account.json");
    std::fs::write(
        &account,
        json!({"type": "service_account", "project_id": "p", "private_key": TEST_KEY,
               "client_email": "a@p.iam.gserviceaccount.com", "token_uri": provider.url("/token")})
        .to_string(),
    )
    .expect("account");
    for (i, case) in cases(&provider, &done, &account).into_iter().enumerate() {
        // Every other run as --json: the failure is then the one object
        // on stdout, else a block on stderr.
        let json_mode = i % 2 == 1;
        let history = dir.join(format!("run-{i}.json"));
        let trace = dir.join(format!("run-{i}.trace"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_rove"));
        command
            .args(["run", "Press Go", "--vision", "off", "--max-failures", "1"])
            .args(&case.args)
            .args(["--start-url", &page.url("/go")])
            .arg("--history")
            .arg(&history)
            .arg("--trace")
            .arg(&trace)
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL")
            .env_remove("OPENAI_API_KEY");
        if json_mode {
            command.arg("--json");
        }
        for (name, value) in &case.env {
            command.env(name, value);
        }
        let output = crate::support::finished(Duration::from_secs(120), &mut command).await;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        // The provider's words are shown, with the key hidden in them.
        let shown = if json_mode { &stdout } else { &stderr };
        assert!(
            shown.contains("Incorrect API key provided"),
            "{}: the refusal is shown: {stdout}\n{stderr}",
            case.name
        );
        assert_hidden(&format!("{}: stdout", case.name), &stdout, &case.secrets);
        assert_hidden(&format!("{}: stderr", case.name), &stderr, &case.secrets);
        for file in [&history, &trace] {
            let text = std::fs::read_to_string(file)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", case.name, file.display()));
            // The judge's verdict is in the history; a trace has none.
            let judged = case.name == "--judge-api-key";
            assert!(
                text.contains("Incorrect API key provided") || (judged && file == &trace),
                "{}: {text}",
                case.name
            );
            assert_hidden(
                &format!("{}: {}", case.name, file.display()),
                &text,
                &case.secrets,
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const SECRET: &str = "Hunter2Zq9x";

#[tokio::test]
async fn a_model_that_quotes_its_key_leaves_it_in_no_output() {
    let page = pages().await;
    let model = quoting_model().await;
    let dir = rove_testkit::scratch_dir("hostile-keys-quoted");
    let key = "sk-quoted-hostile-10";

    // rove run: stdout (--json), the history and the trace.
    let history = dir.join("run.json");
    let trace = dir.join("run.trace");
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .args(["run", "Press Go", "--model", "openai:m", "--vision", "off"])
            .arg("--json")
            .args(["--start-url", &page.url("/go")])
            .arg("--history")
            .arg(&history)
            .arg("--trace")
            .arg(&trace)
            .env("OPENAI_API_KEY", key)
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("done; my key is <redacted>"), "{stdout}");
    assert_hidden("rove run's stdout", &stdout, &[key]);
    assert_hidden("rove run's stderr", &stderr, &[key]);
    for file in [&history, &trace] {
        let text = std::fs::read_to_string(file).expect("written");
        assert!(text.contains("my key is <redacted>"), "{text}");
        assert_hidden(&file.display().to_string(), &text, &[key]);
    }

    // rove test: every file under --out (traces and their pages
    // included), and a trace whose first line names a start_url that
    // carries a secret, in a task that quotes it.
    let suite = dir.join("suite.yaml");
    std::fs::write(
        &suite,
        format!(
            "- name: quoted\n  task: \"Press Go, not {SECRET}\"\n  start_url: \"${{PAGE}}/go?q=${{ROVE_HOSTILE_PW}}\"\n  secrets: {{PW: ROVE_HOSTILE_PW}}\n  verify: [{{answer: '^done'}}]\n"
        ),
    )
    .expect("suite");
    let out = dir.join("out");
    let output = crate::support::finished(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_rove"))
            .arg("test")
            .arg(&suite)
            .args(["--model", "openai:m", "--vision", "off", "--traces", "all"])
            .arg("--out")
            .arg(&out)
            .env("OPENAI_API_KEY", key)
            .env("OPENAI_BASE_URL", model.url("/v1"))
            .env("PAGE", page.url("").trim_end_matches('/'))
            .env("ROVE_HOSTILE_PW", SECRET)
            .env_remove("ROVE_CDP_URL")
            .env_remove("ROVE_MODEL"),
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let written = files_under(&out);
    for wanted in [".trace", ".html", "results.json"] {
        assert!(
            written.iter().any(|(name, _)| name.ends_with(wanted)),
            "{wanted} written: {:?}",
            written.iter().map(|(n, _)| n).collect::<Vec<_>>()
        );
    }
    for (name, text) in &written {
        assert_hidden(name, text, &[key, SECRET]);
    }
    let (name, trace) = written
        .iter()
        .find(|(name, _)| name.ends_with(".trace"))
        .expect("a trace");
    let head: serde_json::Value =
        serde_json::from_str(trace.lines().next().unwrap_or_default()).expect("JSON");
    assert_eq!(
        head["start_url"]
            .as_str()
            .map(|u| u.ends_with("/go?q=<secret>PW</secret>")),
        Some(true),
        "{name}: {head}"
    );
    assert_eq!(head["task"], "Press Go, not <secret>PW</secret>", "{head}");
    assert!(trace.contains("my key is <redacted>"), "{trace}");
    assert_hidden("rove test's stdout", &stdout, &[key, SECRET]);
    assert_hidden("rove test's stderr", &stderr, &[key, SECRET]);
    let _ = std::fs::remove_dir_all(&dir);
}
