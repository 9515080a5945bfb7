//! The timeout ladder's nestings, and the rules that work one deadline
//! out from another. (A test module: `limits.rs` includes it under
//! #[cfg(test)].)

use super::*;

/// `outer` holds `inner`: it must be wider, or `inner` never fires
/// first and the error says the wrong thing.
fn holds(ladder: &[(&str, Duration, &str, Duration)]) {
    for (outer_name, outer, inner_name, inner) in ladder {
        assert!(
            outer > inner,
            "{outer_name} ({outer:?}) must be wider than {inner_name} ({inner:?}) inside it"
        );
    }
}

/// The longest a command may run: its own deadline at the widest.
fn longest_command() -> Duration {
    [NAVIGATION, EVAL, WAIT, WAIT_SLEEP_MAX]
        .into_iter()
        .map(|own| command_deadline(COMMAND, Some(own)))
        .max()
        .unwrap_or(COMMAND)
}

/// Every model attempt with the pauses between them.
fn retry_envelope() -> Duration {
    let mut pause = MODEL_RETRY.first;
    let mut envelope = MODEL_ATTEMPT;
    for _ in 0..MODEL_RETRIES {
        envelope += MODEL_ATTEMPT + pause;
        pause = MODEL_RETRY.next(pause);
    }
    envelope
}

#[test]
fn the_link_and_the_probes_come_before_a_call_deadline() {
    let reconnects = reconnect_budget(&RECONNECT_BACKOFF, RECONNECT_ATTEMPT);
    holds(&[
        // The browser's link.
        (
            "a caller's wait for the link",
            reconnects + LINK_SETTLE,
            "the reconnects",
            reconnects,
        ),
        (
            "a caller's wait for the link",
            LINK_SETTLE,
            "a lost browser's exit status",
            EXIT_STATUS,
        ),
        // A hung page never makes a call reach its deadline: the probe,
        // the pause between probes while a command runs, and the
        // recovery come first.
        (
            "a CDP call",
            CDP_CALL,
            "a probe round and the recovery",
            BUSY_PROBE_GAP + PROBE + RECOVERY,
        ),
        (
            "a CDP call",
            CDP_CALL,
            "a background probe round",
            PROBE_EVERY + PROBE + RECOVERY,
        ),
    ]);
}

#[test]
fn settling_looks_for_quiet_within_its_caps() {
    holds(&[
        // Settling after input: the quiet it looks for fits its caps.
        (
            "the DOM's settling",
            SETTLE_DOM,
            "the quiet it looks for",
            SETTLE_QUIET,
        ),
        (
            "the network's settling",
            SETTLE_NETWORK,
            "the quiet it looks for",
            SETTLE_QUIET,
        ),
        (
            "the streams' settling",
            SETTLE_STREAM,
            "the quiet it looks for, after the DOM's and the network's settling",
            SETTLE_STREAM_QUIET + SETTLE_DOM.min(SETTLE_NETWORK),
        ),
        (
            "the streams' settling",
            SETTLE_STREAM,
            "the widest quiet a slow server's pauses make it look for",
            SETTLE_STREAM_QUIET_MAX + SETTLE_DOM.min(SETTLE_NETWORK) / 2,
        ),
        (
            "the streams' settling",
            SETTLE_STREAM,
            "the network's settling it follows",
            SETTLE_NETWORK,
        ),
        (
            "the streams' settling",
            SETTLE_STREAM,
            "a look for a page still working, and the pause after it",
            SERVER_BUSY_WINDOW + SERVER_BUSY_POLL + SETTLE_STREAM_QUIET,
        ),
        (
            "a wait",
            WAIT,
            "its longest pause between checks",
            WAIT_POLL.max,
        ),
    ]);
}

#[test]
fn a_whole_command_holds_what_it_waits_for() {
    holds(&[
        // A whole command holds everything it waits for, the call
        // deadline included.
        ("a whole command", COMMAND, "a CDP call", CDP_CALL),
        // A desktop application's calls sit inside a tree's read, and both
        // inside a command.
        (
            "a desktop tree",
            DESKTOP_TREE,
            "a desktop call",
            DESKTOP_CALL,
        ),
        ("a whole command", COMMAND, "a desktop tree", DESKTOP_TREE),
        (
            "a whole command",
            COMMAND,
            "a desktop app starting",
            DESKTOP_APP_START,
        ),
        (
            "a desktop app starting",
            DESKTOP_APP_START,
            "connecting to the bus",
            DESKTOP_CONNECT,
        ),
        (
            "a whole command",
            COMMAND,
            "an action and its settling",
            ACTION + SETTLE_NAVIGATION + SETTLE_STREAM + SETTLE_DOM,
        ),
        ("a whole command", COMMAND, "typing", typing(COMMAND)),
        ("a whole command", COMMAND, "a print", PRINT),
        (
            "a whole command",
            COMMAND,
            "an emulation set",
            EMULATION_SET,
        ),
        ("a whole command", COMMAND, "a body", BODY),
        (
            "a whole command",
            COMMAND,
            "restoring an origin's storage",
            STATE_CALL + STATE_ORIGIN,
        ),
        ("a whole command", COMMAND, "a get", GET),
        (
            "a whole command",
            COMMAND,
            "the downloads' report",
            DOWNLOADS_REPORTED,
        ),
        ("a whole command", COMMAND, "a popup's URL", POPUP_URL),
        ("a whole command", COMMAND, "a file chooser", FILE_CHOOSER),
        (
            "a whole command",
            COMMAND,
            "the page freeing after a dialog",
            PAGE_FREE,
        ),
        (
            "a whole command",
            COMMAND,
            "a trace's screenshots",
            TRACE_SCREENSHOT * 2,
        ),
        (
            "a whole command",
            COMMAND,
            "a tab replaced",
            PROBE + RECOVERY + REPLACED_TAB_CLOSE,
        ),
        (
            "a command's margin",
            COMMAND_MARGIN,
            "what follows a load",
            SHELL_SETTLE * 2 + SETTLE_STREAM + ERROR_PAGE + SETTLE_NAVIGATION,
        ),
        (
            "an eval's command",
            command_deadline(COMMAND, Some(EVAL)),
            "the eval",
            EVAL,
        ),
        (
            "a wait's command",
            command_deadline(COMMAND, Some(WAIT)),
            "the wait",
            WAIT,
        ),
        (
            "a load's command",
            command_deadline(COMMAND, Some(NAVIGATION)),
            "the load",
            NAVIGATION,
        ),
        (
            "a plain wait's command",
            command_deadline(COMMAND, Some(WAIT_SLEEP_MAX)),
            "the wait",
            WAIT_SLEEP_MAX,
        ),
    ]);
}

#[test]
fn the_dialog_watch_and_the_daemon_outlast_a_command() {
    let longest_command = longest_command();
    holds(&[
        // A dialog watch outlasts what it watches.
        (
            "a dialog watch",
            DIALOG_WATCH,
            "the longest command",
            longest_command,
        ),
        ("a dialog watch", DIALOG_WATCH, "an agent step", STEP),
        // The daemon and its client around every command.
        (
            "the daemon's command",
            DAEMON_COMMAND,
            "the longest command",
            longest_command,
        ),
        (
            "the client's wait for an answer",
            DAEMON_ANSWER,
            "the daemon's command",
            DAEMON_COMMAND,
        ),
        (
            "the client's wait for a lock",
            DAEMON_START,
            "a closing daemon's disposals",
            SESSION_CLOSE * 2,
        ),
    ]);
}

#[test]
fn an_agent_step_holds_the_models_time() {
    let model = model_time(STEP);
    let retry_envelope = retry_envelope();
    holds(&[
        // The model's time nests inside a step, and the client's own
        // bounds are wider on purpose: the share bounds the wait.
        (
            "an agent step",
            STEP,
            "an action (a whole command)",
            COMMAND,
        ),
        ("an agent step", STEP, "the model's time", model),
        (
            "the model's time",
            model,
            "the first model's share",
            first_model_share(model, true),
        ),
        (
            "a model attempt",
            MODEL_ATTEMPT,
            "the first model's share",
            first_model_share(model, true),
        ),
        (
            "the retry envelope",
            retry_envelope,
            "the model's time",
            model,
        ),
        (
            "a retry pause's cap",
            MODEL_RETRY.max,
            "the first pause",
            MODEL_RETRY.first,
        ),
        ("an agent step", STEP, "its screenshot", STEP_SCREENSHOT),
    ]);
}

#[test]
fn the_judge_and_the_suite_runner_wait_for_what_they_start() {
    holds(&[
        // The judge and the suite runner.
        (
            "the judge's deadline",
            JUDGE + JUDGE_SLACK,
            "its call",
            JUDGE,
        ),
        (
            "an attempt's own browser",
            ATTEMPT_LAUNCH,
            "the launch and its handshake",
            LAUNCH + CDP_HANDSHAKE,
        ),
        (
            "an attempt's browser closing",
            ATTEMPT_CONTEXT,
            "Browser.close and the kill",
            BROWSER_CLOSE + CDP_CLOSE + BROWSER_EXIT_GRACE + BROWSER_KILLED,
        ),
    ]);
}

#[test]
fn functions_of_configuration_keep_their_rule() {
    assert_eq!(command_deadline(COMMAND, None), COMMAND);
    assert_eq!(command_deadline(COMMAND, Some(EVAL)), COMMAND);
    assert_eq!(command_deadline(COMMAND, Some(secs(200))), secs(230));
    assert_eq!(
        command_deadline(COMMAND, Some(Duration::MAX)),
        Duration::MAX,
        "saturates"
    );
    assert_eq!(typing(COMMAND), secs(90));
    assert_eq!(model_time(STEP), secs(135));
    assert_eq!(first_model_share(secs(135), true), ms(67_500));
    assert_eq!(first_model_share(secs(135), false), secs(135));
    let mut pause = Duration::ZERO;
    let pauses: Vec<Duration> = (0..4)
        .map(|_| {
            pause = HTTP_ACCEPT_BACKOFF.next(pause);
            pause
        })
        .collect();
    assert_eq!(pauses, [ms(5), ms(10), ms(20), ms(40)]);
    assert_eq!(WAIT_POLL.next(ms(200)), ms(250));
}
