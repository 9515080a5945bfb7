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

impl ExceptionDetails {
    /// The most useful one-line description of the exception.
    pub fn message(&self) -> String {
        self.exception
            .as_ref()
            .and_then(|e| e.description.clone())
            .unwrap_or_else(|| self.text.clone())
    }
}
