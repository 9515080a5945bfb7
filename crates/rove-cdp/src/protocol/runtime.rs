//! The `Runtime` domain.

use serde::{Deserialize, Serialize};

use super::Command;

/// `Runtime.evaluate`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluate {
    /// The JavaScript expression.
    pub expression: String,
    /// Return the value as JSON rather than as a remote object reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    /// Wait for a returned promise to settle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    /// Treat the evaluation as started by a user gesture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    /// The execution context; the page's main world when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_id: Option<i64>,
    /// The object group the returned reference belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// What rove calls this script in an error (`walker.js`); not sent.
    #[serde(skip)]
    pub script: &'static str,
}

impl Evaluate {
    /// An expression whose value comes back as JSON, awaiting promises.
    pub fn value(expression: impl Into<String>) -> Self {
        Evaluate {
            expression: expression.into(),
            return_by_value: Some(true),
            await_promise: Some(true),
            ..Evaluate::default()
        }
    }
}

impl Command for Evaluate {
    const METHOD: &'static str = "Runtime.evaluate";
    type Response = EvaluateResult;
}

/// `Runtime.callFunctionOn`: a function of rove's called with `this` bound
/// to an object of the page.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFunctionOn {
    /// The function's source, `function(a, b) { … }`.
    pub function_declaration: String,
    /// `this` for the call; also picks the execution context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<String>,
    /// The context to call in, when there is no `object_id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<i64>,
    /// The arguments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<CallArgument>,
    /// Return the value as JSON rather than as a remote object reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    /// Wait for a returned promise to settle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    /// Treat the call as started by a user gesture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    /// The object group the returned reference belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// What rove calls this script in an error (`actionable.js`); not sent.
    #[serde(skip)]
    pub script: &'static str,
}

impl CallFunctionOn {
    /// `function` of the script named `script`, called on `object`.
    pub fn on(
        script: &'static str,
        function: impl Into<String>,
        object: impl Into<String>,
    ) -> Self {
        CallFunctionOn {
            function_declaration: function.into(),
            object_id: Some(object.into()),
            script,
            ..CallFunctionOn::default()
        }
    }

    /// Adds an argument.
    pub fn arg(mut self, argument: CallArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Adds a JSON value as an argument.
    pub fn value(self, value: impl Into<serde_json::Value>) -> Self {
        self.arg(CallArgument::value(value))
    }

    /// Asks for the result as JSON.
    pub fn by_value(mut self) -> Self {
        self.return_by_value = Some(true);
        self
    }

    /// Waits for a returned promise.
    pub fn awaiting(mut self) -> Self {
        self.await_promise = Some(true);
        self
    }

    /// Puts a returned reference into `group`.
    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.object_group = Some(group.into());
        self
    }
}

impl Command for CallFunctionOn {
    const METHOD: &'static str = "Runtime.callFunctionOn";
    type Response = EvaluateResult;
}

/// One argument of [`CallFunctionOn`]: a JSON value or an object of the page.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallArgument {
    /// A value passed as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// An object of the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<String>,
}

impl CallArgument {
    /// A JSON value.
    pub fn value(value: impl Into<serde_json::Value>) -> Self {
        CallArgument {
            value: Some(value.into()),
            object_id: None,
        }
    }

    /// An object of the page.
    pub fn object(id: impl Into<String>) -> Self {
        CallArgument {
            value: None,
            object_id: Some(id.into()),
        }
    }
}

/// `Runtime.releaseObjectGroup`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseObjectGroup {
    /// The group.
    pub object_group: String,
}

impl Command for ReleaseObjectGroup {
    const METHOD: &'static str = "Runtime.releaseObjectGroup";
    type Response = super::Empty;
}

/// `Runtime.releaseObject`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseObject {
    /// The object.
    pub object_id: String,
}

impl Command for ReleaseObject {
    const METHOD: &'static str = "Runtime.releaseObject";
    type Response = super::Empty;
}

/// The answer of [`Evaluate`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EvaluateResult {
    /// The value or a reference to it.
    pub result: RemoteObject,
    /// Present when the expression threw.
    pub exception_details: Option<ExceptionDetails>,
}

/// A JavaScript value as CDP describes it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RemoteObject {
    /// `object`, `string`, `number`, `undefined` …
    #[serde(rename = "type")]
    pub kind: String,
    /// `array`, `node`, `error` … for objects.
    pub subtype: Option<String>,
    /// The value, when returned by value or primitive.
    pub value: Option<serde_json::Value>,
    /// A readable description.
    pub description: Option<String>,
    /// A handle to the object in the page, when not returned by value.
    pub object_id: Option<String>,
}

/// Why an evaluation threw.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExceptionDetails {
    /// A short message, such as `Uncaught`.
    pub text: String,
    /// The thrown value.
    pub exception: Option<RemoteObject>,
    /// Line in the evaluated script (0-based).
    pub line_number: i64,
    /// Column in the evaluated script (0-based).
    pub column_number: i64,
}

impl RemoteObject {
    /// The value decoded as `T` (`undefined` reads as JSON `null`); a value
    /// of another shape is a `Decode` error naming `script`.
    pub fn decode<T: serde::de::DeserializeOwned>(
        &self,
        script: &str,
    ) -> Result<T, crate::CdpError> {
        let value = self.value.clone().unwrap_or(serde_json::Value::Null);
        serde_json::from_value(value).map_err(|e| crate::CdpError::Decode {
            method: format!("the answer of {script}"),
            reason: e.to_string(),
        })
    }
}

impl ExceptionDetails {
    /// The most useful one-line description of the exception.
    pub fn message(&self) -> String {
        self.exception
            .as_ref()
            .and_then(|e| e.description.clone())
            .unwrap_or_else(|| self.text.clone())
    }
}
