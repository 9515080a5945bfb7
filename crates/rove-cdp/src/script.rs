//! The one way rove runs its own scripts in a page (`Runtime.callFunctionOn`
//! and `Runtime.evaluate`): an exception the script throws comes back as
//! [`CdpError::Script`] (`INTERNAL`, with the exception, the script and the
//! line), never as an answer without a value that a caller could mistake for
//! an element that went away. The user's own JavaScript (`eval`) does not go
//! through here: its exceptions are the page's, reported as such.

use std::time::Duration;

use crate::protocol::runtime::{
    CallFunctionOnResult, EvaluateResult, ExceptionDetails, RemoteObject,
};
use crate::{CdpError, Session};

/// A call that runs one of rove's own scripts: its answer may carry the
/// exception the script threw, which [`Session::run_checked`] turns into an
/// error naming the script.
pub trait RoveScript: crate::protocol::Command<Response: ScriptAnswer> {
    /// What rove calls the script in an error (`walker.js`).
    fn script_name(&self) -> &'static str;
}

/// The answer of `Runtime.evaluate` or `Runtime.callFunctionOn`: a value,
/// or the exception the script threw.
pub trait ScriptAnswer {
    /// The value and the exception, if any.
    fn into_parts(self) -> (RemoteObject, Option<ExceptionDetails>);
}

impl ScriptAnswer for EvaluateResult {
    fn into_parts(self) -> (RemoteObject, Option<ExceptionDetails>) {
        (self.result, self.exception_details)
    }
}

impl ScriptAnswer for CallFunctionOnResult {
    fn into_parts(self) -> (RemoteObject, Option<ExceptionDetails>) {
        (self.result, self.exception_details)
    }
}

/// A `Runtime.callFunctionOn` or `Runtime.evaluate` of one of rove's
/// scripts, with the name errors give it (which is not sent). It derefs to
/// the call, so its fields are set as the command's own.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(transparent)]
pub struct ScriptCall<C> {
    /// What rove calls the script in an error (`actionable.js`).
    #[serde(skip)]
    pub script: &'static str,
    /// The call.
    pub call: C,
}

impl<C: crate::protocol::Command> crate::protocol::Command for ScriptCall<C> {
    const METHOD: &'static str = C::METHOD;
    type Response = C::Response;
}

impl<C: crate::protocol::Command<Response: ScriptAnswer>> RoveScript for ScriptCall<C> {
    fn script_name(&self) -> &'static str {
        self.script
    }
}

impl<C> std::ops::Deref for ScriptCall<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.call
    }
}

impl<C> std::ops::DerefMut for ScriptCall<C> {
    fn deref_mut(&mut self) -> &mut C {
        &mut self.call
    }
}

impl Session {
    /// Runs one of rove's scripts (a `Runtime.callFunctionOn` or a
    /// `Runtime.evaluate`); the result, or the exception it threw as an
    /// error. `within` overrides the call's deadline.
    pub async fn run_checked<C: RoveScript>(
        &self,
        call: &C,
        within: Option<Duration>,
    ) -> Result<RemoteObject, CdpError> {
        let answer = match within {
            Some(t) => self.send_within(call, t).await?,
            None => self.send(call).await?,
        };
        checked(call.script_name(), answer)
    }

    /// [`run_checked`](Self::run_checked) with the value decoded as `T`.
    pub async fn run_checked_value<C: RoveScript, T: serde::de::DeserializeOwned>(
        &self,
        call: &C,
        within: Option<Duration>,
    ) -> Result<T, CdpError> {
        self.run_checked(call, within)
            .await?
            .decode(call.script_name())
    }
}

/// The result, or the exception as [`CdpError::Script`].
pub(crate) fn checked(script: &str, answer: impl ScriptAnswer) -> Result<RemoteObject, CdpError> {
    let (result, exception) = answer.into_parts();
    let Some(details) = exception else {
        return Ok(result);
    };
    let full = details.message();
    // The description carries the stack after the first line; the first
    // line is the error itself.
    let message = full.lines().next().unwrap_or_default().to_owned();
    Err(CdpError::Script {
        script: if script.is_empty() {
            "(unnamed)".to_owned()
        } else {
            script.to_owned()
        },
        message,
        line: details.line_number + 1,
        column: details.column_number + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rove_errors::{Classify, ErrorCode};

    #[test]
    fn an_exception_is_an_internal_error_with_the_script_and_line() {
        let answer = EvaluateResult {
            result: RemoteObject::default(),
            exception_details: Some(ExceptionDetails {
                text: "Uncaught".into(),
                exception: Some(RemoteObject {
                    description: Some("TypeError: map is broken\n    at check (x:3:9)".into()),
                    ..RemoteObject::default()
                }),
                line_number: 2,
                column_number: 8,
                ..ExceptionDetails::default()
            }),
        };
        let error = checked("actionable.js", answer).expect_err("threw");
        assert_eq!(error.code(), ErrorCode::Internal);
        assert_eq!(
            error.to_string(),
            "rove's script actionable.js threw at line 3, column 9: TypeError: map is broken"
        );
        assert!(!error.document_gone());
    }

    #[test]
    fn chromiums_refusals_are_classified_in_one_place() {
        use crate::{Refusal, classify_refusal};
        for gone in [
            "Cannot find context with specified id",
            "Could not find node with given id",
            "No node with given id found",
            "Node is detached from document",
        ] {
            assert_eq!(classify_refusal(gone), Refusal::DocumentGone, "{gone}");
        }
        assert_eq!(classify_refusal("Target closed"), Refusal::TargetGone);
        assert_eq!(classify_refusal("Invalid parameters"), Refusal::Other);
        let protocol = CdpError::Protocol {
            method: "DOM.getContentQuads".into(),
            code: -32000,
            message: "Could not find node with given id".into(),
            data: None,
        };
        assert!(protocol.document_gone());
        let timeout = CdpError::Timeout {
            method: "Runtime.evaluate".into(),
            after: Duration::from_secs(1),
            sent: true,
        };
        assert_eq!(timeout.refusal(), None);
    }
}
