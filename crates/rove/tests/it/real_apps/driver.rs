//! Driving the real `rove` binary as a user does: one session per test, a
//! command per call, refs picked from rove's own answers. Every command and
//! its answer is kept in a transcript (target/tmp/real-apps/transcripts), from
//! which the bench counts commands and tokens per task.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::process::Command;

/// The most one command may take on a loaded machine; rove's own deadlines
/// are shorter.
const COMMAND_DEADLINE: Duration = Duration::from_secs(120);
/// How long an app may take to show what a step leads to on a loaded
/// machine (a kernel starting, a file renamed on the server).
const APP_DEADLINE: Duration = Duration::from_secs(90);

/// Session daemons of this binary live in a folder of their own; folders of
/// binaries that have ended are removed first.
fn runtime_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        const PREFIX: &str = "rove-real-apps-";
        let tmp = std::env::temp_dir();
        for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
                continue;
            };
            if !Path::new("/proc").join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let dir = tmp.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("runtime folder");
        dir
    })
}

fn rove_command(session: &str) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_rove"));
    command
        .env("XDG_RUNTIME_DIR", runtime_dir())
        .env("ROVE_SESSION", session)
        // A daemon a crashed test leaves behind ends on its own.
        .env("ROVE_IDLE", "120")
        .env_remove("ROVE_CDP_TIMEOUT_S")
        .env_remove("ROVE_CDP_URL")
        .env_remove("ROVE_VIEWPORT")
        .env_remove("ROVE_ALLOWED_DOMAINS")
        .env_remove("ROVE_BLOCKED_DOMAINS")
        .env_remove("RUST_LOG");
    command
}

/// What one command printed.
#[derive(Debug)]
pub struct Answer {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Answer {
    pub fn ok(&self) -> bool {
        self.status == Some(0)
    }
}

/// One rove session, driven command by command.
#[derive(Debug)]
pub struct Rove {
    session: String,
    task: String,
    transcript: std::fs::File,
    /// The last answer, where the next ref is picked from.
    pub last: String,
}

impl Rove {
    /// A fresh session named after the test; its transcript starts empty.
    pub fn new(test: &str) -> Rove {
        let dir = super::apps::work_dir().join("transcripts");
        std::fs::create_dir_all(&dir).expect("transcripts folder");
        let transcript =
            std::fs::File::create(dir.join(format!("{test}.jsonl"))).expect("transcript file");
        Rove {
            session: test.to_owned(),
            task: String::new(),
            transcript,
            last: String::new(),
        }
    }

    /// The task the next commands count towards.
    pub fn task(&mut self, name: &str) {
        self.task = name.to_owned();
    }

    /// Runs `rove ARGS` in this session and records it.
    pub async fn try_run(&mut self, args: &[&str]) -> Answer {
        let mut command = Command::from(rove_command(&self.session));
        command.args(args).stdin(Stdio::null()).kill_on_drop(true);
        let output = tokio::time::timeout(COMMAND_DEADLINE, command.output())
            .await
            .unwrap_or_else(|_| panic!("rove {args:?} did not finish within {COMMAND_DEADLINE:?}"))
            .expect("rove ran");
        let answer = Answer {
            status: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        let line = json!({
            "task": self.task,
            "args": args,
            "status": answer.status,
            "stdout": answer.stdout,
            "stderr": answer.stderr,
        });
        writeln!(self.transcript, "{line}").expect("transcript written");
        self.last = format!("{}{}", answer.stdout, answer.stderr);
        answer
    }

    /// Runs a command that must succeed; its answer.
    pub async fn run(&mut self, args: &[&str]) -> String {
        let answer = self.try_run(args).await;
        assert!(
            answer.ok(),
            "rove {args:?} failed ({:?}):\n{}{}",
            answer.status,
            answer.stdout,
            answer.stderr
        );
        answer.stdout
    }

    /// Reads the page (`snapshot`) until `holds` is true of what rove
    /// shows, starting with the last answer: for what an app does after rove
    /// has settled (a server round trip on a loaded machine, a kernel's
    /// output). Between reads, `wait 250`: a poll interval, not a guess.
    pub async fn until(&mut self, what: &str, holds: impl Fn(&str) -> bool) {
        let started = Instant::now();
        let mut first = true;
        while !holds(&self.last) {
            assert!(
                started.elapsed() < APP_DEADLINE,
                "{what}: not shown after {APP_DEADLINE:?}; rove's last answer:\n{}",
                self.last
            );
            if !first {
                self.run(&["wait", "250"]).await;
            }
            first = false;
            self.run(&["snapshot"]).await;
        }
    }

    /// The ref of the first element of `role` whose name starts with
    /// `prefix`: from the last answer when it shows one, else once the page
    /// does (`wait --text`, then `find`, as a user would when an app answers
    /// after rove has settled).
    pub async fn await_ref(&mut self, role: &str, prefix: &str) -> String {
        let wanted = |n: Option<&str>| n.is_some_and(|n| n.starts_with(prefix));
        let started = Instant::now();
        let mut first = true;
        loop {
            if let Some(r) = pick(&self.last, role, wanted) {
                return r;
            }
            assert!(
                started.elapsed() < APP_DEADLINE,
                "no {role} {prefix:?}… after {APP_DEADLINE:?}; rove's last answer:\n{}",
                self.last
            );
            if first {
                self.run(&["wait", "--text", prefix, "60000"]).await;
            } else {
                self.run(&["wait", "250"]).await;
            }
            first = false;
            self.run(&["find", prefix, "--role", role]).await;
        }
    }

    /// The ref of the element of `role` named exactly `name`, found with
    /// `find` as soon as the page shows it (a part an app draws after the
    /// rest, such as a grid's cells, may come later than the page).
    pub async fn find_exact(&mut self, role: &str, name: &str) -> String {
        let started = Instant::now();
        loop {
            self.run(&["find", name, "--role", role]).await;
            if let Some(found) = pick(&self.last, role, |n| n == Some(name)) {
                return found;
            }
            assert!(
                started.elapsed() < APP_DEADLINE,
                "no {role} {name:?} after {APP_DEADLINE:?}; rove's last answer:\n{}",
                self.last
            );
            self.run(&["wait", "250"]).await;
        }
    }

    /// The ref of the element of `role` named exactly `name` in the last
    /// answer.
    pub fn pick(&self, role: &str, name: &str) -> String {
        pick(&self.last, role, |n| n == Some(name))
            .unwrap_or_else(|| panic!("no {role} {name:?} in rove's answer:\n{}", self.last))
    }

    /// The ref of the first element of `role` whose name starts with
    /// `prefix` in the last answer.
    pub fn pick_prefix(&self, role: &str, prefix: &str) -> String {
        pick(&self.last, role, |n| {
            n.is_some_and(|n| n.starts_with(prefix))
        })
        .unwrap_or_else(|| panic!("no {role} {prefix:?}… in rove's answer:\n{}", self.last))
    }
}

impl Drop for Rove {
    /// Ends the session's daemon and browser, also when the test failed.
    fn drop(&mut self) {
        let _ = rove_command(&self.session)
            .arg("close")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// One element as views write it: `e7 button "OK"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub reference: String,
    pub role: String,
    pub name: Option<String>,
}

/// Every element a view or diff names, in order: `e7 role "name"` wherever
/// it stands on a line (tables put several on one).
pub fn items(text: &str) -> Vec<Item> {
    let mut found = Vec::new();
    for line in text.lines() {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let starts_word = i == 0 || matches!(bytes[i - 1], b' ' | b'[' | b'|');
            if !(starts_word && bytes[i] == b'e') {
                i += 1;
                continue;
            }
            let digits = line[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
            let after = i + 1 + digits;
            if digits == 0 || bytes.get(after) != Some(&b' ') {
                i += 1;
                continue;
            }
            let role_len = line[after + 1..]
                .bytes()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
            if role_len == 0 {
                i += 1;
                continue;
            }
            let role_end = after + 1 + role_len;
            let (name, end) = quoted(&line[role_end..]);
            found.push(Item {
                reference: line[i..after].to_owned(),
                role: line[after + 1..role_end].to_owned(),
                name,
            });
            i = role_end + end;
        }
    }
    found
}

/// ` "name"` at the start of `rest`, unescaped, and how far it reached.
fn quoted(rest: &str) -> (Option<String>, usize) {
    let Some(body) = rest.strip_prefix(" \"") else {
        return (None, 0);
    };
    let mut name = String::new();
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    name.push(next);
                }
            }
            '"' => return (Some(name), 2 + at + 1),
            _ => name.push(c),
        }
    }
    (None, 0)
}

/// The ref of the first element of `role` whose name passes `wanted`.
pub fn pick(text: &str, role: &str, wanted: impl Fn(Option<&str>) -> bool) -> Option<String> {
    items(text)
        .into_iter()
        .find(|i| i.role == role && wanted(i.name.as_deref()))
        .map(|i| i.reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_read_wherever_they_stand() {
        let view = "e21 | e22 link \"Groups\" | e23 link \"Add\" |\n+ e59 listbox \"Say \\\"Choose\\\"\" (options \"a\")\n  e204 link\n- e218 link \"<\" [focused]";
        let got: Vec<(String, String, Option<String>)> = items(view)
            .into_iter()
            .map(|i| (i.reference, i.role, i.name))
            .collect();
        assert_eq!(
            got,
            [
                ("e22", "link", Some("Groups")),
                ("e23", "link", Some("Add")),
                ("e59", "listbox", Some("Say \"Choose\"")),
                ("e204", "link", None),
                ("e218", "link", Some("<")),
            ]
            .map(|(r, role, n)| (r.to_owned(), role.to_owned(), n.map(str::to_owned)))
        );
    }
}
