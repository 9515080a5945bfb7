//! The shell's command lines against the tool calls they ask for: every
//! convenience of the old per-command parsing (positional order, flags
//! under other names, switches for values, other names, words in any order,
//! words after an action, the shell's own behaviours) means what it meant.
//! (A test module: its parent includes it under #[cfg(test)].)

use serde_json::{Value, json};

use crate::cli::{Cli, Invocation};
use crate::shell::call::{ShellCall, call};

/// The call a command line asks for, or its failure's message.
fn typed(line: &[&str]) -> Result<ShellCall, String> {
    let words = std::iter::once("rove").chain(line.iter().copied());
    let cli = Cli::try_parse_from(words).map_err(|e| format!("clap: {e}"))?;
    let Invocation::Session(typed) = cli.command else {
        return Err("not a session command".into());
    };
    call(&typed.name, &typed.matches).map_err(|f| {
        assert_eq!(f.exit_status(), 2, "{line:?}: {:?}", f.report);
        f.report.message
    })
}

/// The tool call (name and arguments, those left out dropped) a
/// command line asks for.
fn tool_call(line: &[&str]) -> (String, Value) {
    match typed(line) {
        Ok(ShellCall::Run(command)) => {
            let mut arguments = command.tool_arguments();
            if let Some(map) = arguments.as_object_mut() {
                map.retain(|_, v| !v.is_null());
            }
            (command.name().to_owned(), arguments)
        }
        other => panic!("{line:?}: {other:?}"),
    }
}

fn args(line: &[&str]) -> Value {
    tool_call(line).1
}

fn refused(line: &[&str]) -> String {
    match typed(line) {
        Err(message) => message,
        Ok(call) => panic!("{line:?} was accepted: {call:?}"),
    }
}

fn cwd(path: &str) -> String {
    std::env::current_dir()
        .expect("a folder")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn words_and_flags_fill_the_arguments_their_entries_name() {
    assert_eq!(
        args(&["fill", "e3", "ada", "--submit"]),
        json!({"ref": "e3", "text": "ada", "submit": true})
    );
    assert_eq!(
        args(&["wait", "500", "--gone", "Loading"])["text_gone"],
        "Loading"
    );
    assert_eq!(args(&["wait", "500"])["ms"], 500);
    assert_eq!(args(&["type", "e3", "hi", "--delay", "50"])["delay_ms"], 50);
    assert_eq!(args(&["screenshot", "a.png", "--full"])["full_page"], true);
    assert_eq!(
        args(&["press", "Enter", "--ref", "e2"]),
        json!({"keys": "Enter", "ref": "e2"})
    );
    assert_eq!(
        args(&["select", "e9", "red", "green"])["values"],
        json!(["red", "green"])
    );
    assert_eq!(
        args(&["click", "e7", "--modifiers", "Control,Shift"])["modifiers"],
        json!(["Control", "Shift"])
    );
    assert_eq!(args(&["click", "e7"])["button"], "left");
    assert_eq!(
        args(&["network", "--type", "fetch", "--status", "404"])["type"],
        "fetch"
    );
    assert_eq!(
        args(&["find", "Next", "--role", "link", "--limit", "3"]),
        json!({"text": "Next", "role": "link", "limit": 3})
    );
    assert_eq!(
        args(&[
            "cookies",
            "set",
            "--name",
            "a",
            "--value",
            "b",
            "--http-only"
        ])["http_only"],
        true
    );
    assert_eq!(
        args(&["drag", "e4", "css=#bin"]),
        json!({"from": "e4", "to": "css=#bin"})
    );
}

#[test]
fn switches_give_arguments_their_values() {
    assert_eq!(args(&["snapshot", "-i"])["mode"], "interactive");
    assert_eq!(args(&["snapshot", "--diff"])["mode"], "diff");
    assert_eq!(args(&["snapshot"])["mode"], "full");
    assert_eq!(args(&["screenshot", "x.jpg", "--jpeg"])["format"], "jpeg");
    assert!(typed(&["snapshot", "-i", "--diff"]).is_err_and(|e| e.starts_with("clap")));
    assert!(typed(&["snapshot", "--diff", "--scope", "e3"]).is_err_and(|e| e.starts_with("clap")));
}

#[test]
fn other_names_and_words_of_the_shell_mean_what_they_meant() {
    assert_eq!(
        tool_call(&["dblclick", "e7"]),
        (
            "click".into(),
            json!({"ref": "e7", "button": "left", "double": true, "modifiers": []})
        )
    );
    assert_eq!(
        tool_call(&["is", "checked", "e3"]),
        ("get".into(), json!({"what": "checked", "ref": "e3"}))
    );
    assert_eq!(args(&["dialog", "ok"])["accept"], true);
    assert_eq!(args(&["dialog", "cancel"])["accept"], false);
    assert_eq!(
        args(&["dialog", "accept", "my answer"]),
        json!({"accept": true, "text": "my answer"})
    );
    assert_eq!(args(&["tab"])["action"], "list");
    assert_eq!(args(&["tab", "ls"])["action"], "list");
    assert_eq!(
        args(&["tab", "new", "https://a.test"]),
        json!({"action": "new", "url": "https://a.test"})
    );
    assert_eq!(
        args(&["tab", "switch", "t2"]),
        json!({"action": "switch", "tab": "t2"})
    );
    assert_eq!(args(&["tab", "close"]), json!({"action": "close"}));
    assert_eq!(args(&["cookies", "list"])["action"], "get");
    assert_eq!(
        args(&["storage", "session", "list"]),
        json!({"kind": "session", "action": "get"})
    );
    assert_eq!(
        args(&["storage", "local", "set", "theme", "dark"]),
        json!({"kind": "local", "action": "set", "key": "theme", "value": "dark"})
    );
    assert_eq!(
        args(&["set", "user-agent", "Mozilla/5.0", "X"]),
        json!({"what": "user_agent", "value": "Mozilla/5.0 X", "headers": []})
    );
    assert_eq!(
        args(&["pdf", "a.pdf", "--format", "letter"])["format"],
        "Letter"
    );
    assert_eq!(args(&["console", "--level", "error"])["level"], "error");
}

#[test]
fn words_in_any_order_and_words_after_an_action() {
    let scroll = args(&["scroll", "300", "e12", "down"]);
    assert_eq!(
        scroll,
        json!({"ref": "e12", "direction": "down", "pixels": 300.0})
    );
    assert_eq!(
        args(&["scroll", "css=.list", "up"]),
        json!({"ref": "css=.list", "direction": "up"})
    );
    assert!(refused(&["scroll", "sideways"]).contains("\"sideways\""));
    assert_eq!(
        args(&["set", "viewport", "390", "844", "--scale", "3"]),
        json!({"what": "viewport", "width": 390, "height": 844, "scale": 3.0, "headers": []})
    );
    assert_eq!(args(&["set", "geo", "-33.9", "151.2"])["latitude"], -33.9);
    assert_eq!(
        args(&["set", "device", "iPhone", "15"])["value"],
        "iPhone 15"
    );
    assert_eq!(
        args(&["set", "headers", "X-A: 1", "X-B: 2"])["headers"],
        json!(["X-A: 1", "X-B: 2"])
    );
    assert_eq!(args(&["set", "headers"])["headers"], json!([]));
    assert_eq!(
        args(&["get", "attr", "href", "e5"]),
        json!({"what": "attr", "name": "href", "ref": "e5"})
    );
    assert_eq!(
        args(&["get", "text", "e3"]),
        json!({"what": "text", "ref": "e3"})
    );
    assert!(refused(&["get", "text", "e3", "e4"]).contains("\"e4\""));
    assert_eq!(args(&["network", "show", "r3"])["id"], 3);
    assert_eq!(args(&["network", "show", "4"])["id"], 4);
    assert_eq!(args(&["network", "block", "*/ads/*"])["url"], "*/ads/*");
    assert_eq!(args(&["network", "har", "run.har"])["file"], cwd("run.har"));
    assert!(refused(&["network", "clear", "x"]).contains("network clear takes no \"x\""));
    assert!(refused(&["network", "show", "rx"]).contains("\"rx\""));
}

#[test]
fn mouse_words_become_points_buttons_and_turns() {
    assert_eq!(args(&["mouse", "click", "120", "45.5"])["y"], 45.5);
    assert_eq!(
        args(&["mouse", "down", "right"]),
        json!({"action": "down", "button": "right"})
    );
    assert_eq!(args(&["mouse", "up", "10", "20"])["x"], 10.0);
    let wheel = args(&["mouse", "wheel", "0", "-300", "--at", "-1", "5"]);
    assert_eq!(
        wheel,
        json!({"action": "wheel", "dx": 0.0, "dy": -300.0, "x": -1.0, "y": 5.0, "button": "left"})
    );
    assert_eq!(args(&["mouse", "click", "-5", "10"])["x"], -5.0);
    let cli = Cli::try_parse_from(["rove", "mouse", "down", "right", "--json"]).expect("parses");
    assert!(cli.global.json);
    assert!(refused(&["mouse", "move", "1", "x"]).contains("\"x\" is not a number"));
    assert!(refused(&["mouse", "move", "1"]).contains("x and y together"));
    assert!(refused(&["mouse", "wheel", "0"]).contains("dx and dy together"));
}

#[test]
fn type_takes_a_ref_and_text_or_with_focused_only_text() {
    assert_eq!(
        args(&["type", "e3", "hello"]),
        json!({"ref": "e3", "text": "hello", "submit": false})
    );
    assert_eq!(
        args(&["type", "--focused", "hi"]),
        json!({"text": "hi", "submit": false})
    );
    assert!(refused(&["type", "--focused", "e3", "hi"]).contains("\"hi\""));
    assert!(refused(&["type", "hello"]).contains("text"));
}

#[test]
fn the_shells_own_behaviours() {
    let at = tool_call(&["click", "--at", "70", "40", "--double", "--button", "right"]);
    assert_eq!(
        at,
        (
            "mouse".into(),
            json!({"action": "click", "x": 70.0, "y": 40.0, "button": "right", "count": 2})
        )
    );
    assert!(refused(&["click", "--at", "1", "2", "--modifiers", "Shift"]).contains("no modifiers"));
    assert!(typed(&["click", "e7", "--at", "1", "2"]).is_err_and(|e| e.starts_with("clap")));
    assert!(typed(&["click"]).is_err_and(|e| e.starts_with("clap")));
    let shot = args(&["screenshot", "--jpeg"]);
    assert!(
        shot["path"]
            .as_str()
            .is_some_and(|p| p.ends_with(".jpg") && p.contains("screenshot-")),
        "{shot}"
    );
    assert_eq!(args(&["screenshot", "a.png"])["path"], cwd("a.png"));
    assert_eq!(
        args(&["upload", "e6", "a.pdf", "/tmp/b.pdf"])["paths"],
        json!([cwd("a.pdf"), "/tmp/b.pdf"])
    );
    assert_eq!(
        args(&["state", "save", "login.json"])["file"],
        cwd("login.json")
    );
    match typed(&["open", "./page.html", "--stay", "--timeout", "5"]) {
        Ok(ShellCall::Stay { url, timeout }) => {
            assert!(
                url.starts_with("file:///") && url.ends_with("/page.html"),
                "{url}"
            );
            assert_eq!(timeout, 5.0);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        args(&["open", "example.org", "--new-tab"]),
        json!({"url": "example.org", "new_tab": true})
    );
    assert_eq!(args(&["open", "/tmp/x.html"])["url"], "file:///tmp/x.html");
}

#[test]
fn clip_and_fill_form_take_their_own_forms() {
    let clip = args(&["screenshot", "--clip", "-10,0,50,40", "a.png"]);
    assert_eq!(
        clip["clip"],
        json!({"x": -10.0, "y": 0.0, "width": 50.0, "height": 40.0})
    );
    match typed(&["screenshot", "--clip", "0,0,100"]) {
        Err(message) => assert!(message.contains("--clip takes 4 numbers"), "{message}"),
        Ok(call) => panic!("{call:?}"),
    }
    let form = args(&["fill-form", "e3=ada@example.org", "e7=true", "e9=a=b"]);
    assert_eq!(
        form["fields"],
        json!([
            {"ref": "e3", "value": "ada@example.org"},
            {"ref": "e7", "value": "true"},
            {"ref": "e9", "value": "a=b"},
        ])
    );
    assert!(refused(&["fill-form", "e3"]).contains("is not REF=VALUE"));
}

#[test]
fn a_bad_value_is_refused_by_the_parser_mcp_uses() {
    // The shell and a tool call fail the same way.
    let shell = refused(&["wait", "--load", "sideways"]);
    let tool = rove_commands::Command::from_tool_call("wait", Some(&json!({"load": "sideways"})))
        .expect_err("refused")
        .to_string();
    assert_eq!(shell, tool);
    assert!(refused(&["click", "Save"]).contains("\"Save\""));
    assert!(refused(&["tab", "switch", "e2"]).contains("is not a tab id"));
    assert!(refused(&["dialog", "maybe"]).contains("dialog"));
    assert!(typed(&["console", "--level", "loud"]).is_err_and(|e| e.starts_with("clap")));
}

#[test]
fn read_takes_its_element_as_a_word_or_as_the_flag() {
    assert_eq!(args(&["read", "e2"]), json!({"ref": "e2"}));
    assert_eq!(args(&["read", "--ref", "e2"]), json!({"ref": "e2"}));
    assert_eq!(args(&["read"]), json!({}));
    let twice = refused(&["read", "e2", "--ref", "e3"]);
    assert!(twice.contains("given twice"), "{twice}");
}
