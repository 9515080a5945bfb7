//! `eval`: JavaScript in the page, its result as JSON.
//!
//! The script runs in the page's own world (it is there to reach the page's
//! state); an expression is evaluated, a function is called (with the element
//! a ref names, when one is given). Results larger than a model should read
//! are cut, saying so. A script has `SessionConfig::eval_timeout` (10 s) to
//! finish: then rove stops it with `Runtime.terminateExecution` and answers
//! `TIMEOUT` saying so.

use std::time::Duration;

use rove_cdp::ScriptAnswer;
use rove_cdp::protocol::dom::{DescribeNode, ResolveNode};
use rove_cdp::protocol::runtime::{CallFunctionOn, Evaluate, RemoteObjectType};
use serde_json::Value;

use crate::answer::fault::{EvalStop, Recovery};
use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::watchdog::{self, Health};
use crate::session::{Session, unless_dialog};
use crate::{CommandError, Data, EvalArgs};

/// Results longer than this (as JSON text) are cut.
const MAX_RESULT_CHARS: usize = 20_000;

impl Session {
    pub(crate) async fn eval(
        &mut self,
        args: &EvalArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let js = args.js.trim();
        if js.is_empty() {
            return Err(CommandError::Rejected("eval needs a script".into()));
        }
        let tab = self.focused()?;
        let deadline = self.config().eval_timeout;
        // A script that opens a dialog stops there: say so at once.
        let work = unless_dialog(&tab, async {
            Ok(match &args.target {
                Some(target) => {
                    if !is_function(js) {
                        return Err(CommandError::Rejected(
                        "with a ref, eval takes a function of the element, like (el) => el.value"
                            .into(),
                    ));
                    }
                    let target = target.reference()?;
                    let element = self.model()?.element(target).await?;
                    // The element's handle lives in rove's isolated world; the
                    // page's world gets its own handle to the same node.
                    let node = element
                        .session
                        .send(&DescribeNode {
                            object_id: Some(element.object_id.clone()),
                            ..DescribeNode::default()
                        })
                        .await?;
                    let resolved = element
                        .session
                        .send(&ResolveNode {
                            backend_node_id: Some(node.node.backend_node_id),
                            ..ResolveNode::default()
                        })
                        .await?;
                    let call = CallFunctionOn {
                        function_declaration: format!("function() {{ return ({js})(this); }}"),
                        object_id: resolved.object.object_id,
                        return_by_value: Some(true),
                        await_promise: Some(true),
                        user_gesture: Some(true),
                        ..CallFunctionOn::default()
                    };
                    script_call(element.session.send(&call).await.map_err(Into::into))?
                        .map(|answer| answer.into_parts())
                }
                None => {
                    let expression = if is_function(js) {
                        format!("({js})()")
                    } else {
                        js.to_owned()
                    };
                    let evaluate = Evaluate {
                        expression,
                        return_by_value: Some(true),
                        await_promise: Some(true),
                        user_gesture: Some(true),
                        ..Evaluate::default()
                    };
                    script_call(tab.send(&evaluate).await)?.map(|answer| answer.into_parts())
                }
            })
        });
        let started = std::time::Instant::now();
        let answer = match tokio::time::timeout(deadline, work).await {
            Ok(Ok(Some(answer))) => answer,
            Ok(Err(e)) => return Err(e),
            // The call's own deadline (`ROVE_CDP_TIMEOUT_S`, shorter than
            // the script's) came first: the script is stopped all the same.
            Ok(Ok(None)) => return Err(self.eval_ran_out(&tab, started.elapsed()).await),
            Err(_) => return Err(self.eval_ran_out(&tab, deadline).await),
        };
        // The script is over; a page that stops answering from here on
        // (a timer it set) is the watchdog's to find.
        self.watchdog().script_answered();
        let (result, exception) = answer;
        if let Some(details) = exception {
            let message = details
                .exception
                .as_ref()
                .and_then(|e| e.description.as_deref())
                .unwrap_or(&details.text)
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned();
            return Err(CommandError::Evaluation(message));
        }
        let value = match result.value {
            Some(v) => v,
            // Values JSON cannot carry: undefined, functions, symbols, NaN.
            None => match result.kind {
                RemoteObjectType::Undefined => Value::Null,
                _ => Value::String(
                    result
                        .description
                        .or(result.unserializable_value)
                        .unwrap_or_default(),
                ),
            },
        };
        let text = serde_json::to_string(&value).unwrap_or_default();
        if text.len() > MAX_RESULT_CHARS {
            let cut = rove_base::text::char_prefix(&text, MAX_RESULT_CHARS).to_owned();
            out.happened.push(Happened::ResultCut {
                chars: text.len(),
                shown: MAX_RESULT_CHARS,
            });
            out.data = Some(Data::Text(cut));
        } else {
            out.data = Some(Data::Evaluated { result: value });
        }
        Ok(())
    }
}

impl Session {
    /// `eval` ran out of time: a script still running is stopped (and the
    /// tab replaced if that does not bring it back); a script waiting for
    /// a promise leaves the page free, and there is nothing to stop.
    async fn eval_ran_out(&mut self, tab: &rove_browser::Tab, after: Duration) -> CommandError {
        // The script that ran out of time is what keeps the page silent,
        // loading or not: no allowance for a load.
        let check = rove_base::limits::EVAL_BUSY_CHECK;
        let stop = match watchdog::probe(tab, check, Duration::ZERO).await {
            Health::Answers => EvalStop::Pending,
            Health::Gone => EvalStop::Stopped,
            health => match self.recover(tab, health, after).await {
                Ok(Some(fault)) => match fault.recovery {
                    Recovery::Stopped => EvalStop::Stopped,
                    Recovery::Replaced { .. } => EvalStop::Replaced(fault),
                },
                Ok(None) => EvalStop::Stopped,
                Err(e) => return e,
            },
        };
        CommandError::EvalTimeout { after, stop }
    }
}

/// The answer of the call that ran the script; `None` when the call's own
/// deadline ran out (the script may still be running).
fn script_call<T>(sent: Result<T, rove_browser::BrowserError>) -> Result<Option<T>, CommandError> {
    match sent {
        Ok(answer) => Ok(Some(answer)),
        Err(rove_browser::BrowserError::Cdp(rove_cdp::CdpError::Timeout { .. })) => Ok(None),
        Err(e) => Err(after_running(e)),
    }
}

/// A failure of the call that ran the script. The browser refusing it for
/// anything but a gone document or target refused the result, not the
/// script: it ran (a script that does not parse comes back as an
/// exception), so whatever it did to the page is done.
fn after_running(error: rove_browser::BrowserError) -> CommandError {
    match &error {
        rove_browser::BrowserError::Cdp(cdp @ rove_cdp::CdpError::Protocol { message, .. })
            if cdp.refusal() == Some(rove_cdp::Refusal::Other) =>
        {
            CommandError::ResultLost(message.clone())
        }
        _ => error.into(),
    }
}

/// Whether the script is a function to call rather than an expression.
fn is_function(js: &str) -> bool {
    let js = js.trim_start();
    let js = js.strip_prefix("async").map(str::trim_start).unwrap_or(js);
    if js.starts_with("function") {
        return true;
    }
    // An arrow: `x => …`, `(a, b) => …`, with the arrow right after the
    // parameter list.
    if let Some(rest) = js.strip_prefix('(') {
        let mut depth = 1;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return rest[i + 1..].trim_start().starts_with("=>");
                    }
                }
                _ => {}
            }
        }
        return false;
    }
    let ident: String = js
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    !ident.is_empty() && js[ident.len()..].trim_start().starts_with("=>")
}

#[cfg(test)]
mod tests {
    use super::is_function;

    #[test]
    fn functions_are_told_from_expressions() {
        for f in [
            "() => 1",
            "async () => fetch('/')",
            "(a, b) => a + b",
            "el => el.value",
            "function () { return 1 }",
            "async function f() {}",
        ] {
            assert!(is_function(f), "{f}");
        }
        for e in [
            "1 + 1",
            "document.title",
            "(1 + 2) * 3",
            "[1, 2].map(x => x)",
        ] {
            assert!(!is_function(e), "{e}");
        }
    }
}
