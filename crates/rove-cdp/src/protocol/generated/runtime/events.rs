//! The events of the `Runtime` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Runtime.consoleAPICalled`: Issued when console API was called.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConsoleAPICalled {
    /// Type of the call.
    #[serde(rename = "type")]
    pub kind: super::ConsoleAPICalledType,
    /// Call arguments.
    pub args: Vec<super::RemoteObject>,
    /// Identifier of the context where the call was made.
    pub execution_context_id: super::ExecutionContextId,
    /// Call timestamp.
    pub timestamp: super::Timestamp,
    /// Stack trace captured when the call was made. The async stack chain is automatically
    /// reported for the following call types: `assert`, `error`, `trace`, `warning`. For other
    /// types the async call chain can be retrieved using `Debugger.getStackTrace` and
    /// `stackTrace.parentId` field.
    pub stack_trace: Option<super::StackTrace>,
    /// Console context descriptor for calls on non-default console context (not console.*):
    /// 'anonymous#unique-logger-id' for call on unnamed context, 'name#unique-logger-id' for
    /// call on named context.
    ///
    /// Experimental.
    pub context: Option<String>,
}

impl crate::protocol::EventType for ConsoleAPICalled {
    const METHOD: &'static str = "Runtime.consoleAPICalled";
}

/// `Runtime.exceptionThrown`: Issued when exception was thrown and unhandled.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExceptionThrown {
    /// Timestamp of the exception.
    pub timestamp: super::Timestamp,
    /// exceptionDetails
    pub exception_details: super::ExceptionDetails,
}

impl crate::protocol::EventType for ExceptionThrown {
    const METHOD: &'static str = "Runtime.exceptionThrown";
}

/// `Runtime.executionContextCreated`: Issued when new execution context is created.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExecutionContextCreated {
    /// A newly created execution context.
    pub context: super::ExecutionContextDescription,
}

impl crate::protocol::EventType for ExecutionContextCreated {
    const METHOD: &'static str = "Runtime.executionContextCreated";
}

/// `Runtime.executionContextDestroyed`: Issued when execution context is destroyed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExecutionContextDestroyed {
    /// Id of the destroyed context
    ///
    /// Deprecated.
    pub execution_context_id: super::ExecutionContextId,
    /// Unique Id of the destroyed context
    ///
    /// Experimental.
    pub execution_context_unique_id: String,
}

impl crate::protocol::EventType for ExecutionContextDestroyed {
    const METHOD: &'static str = "Runtime.executionContextDestroyed";
}

/// `Runtime.executionContextsCleared`: Issued when all executionContexts were cleared in
/// browser
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExecutionContextsCleared {}

impl crate::protocol::EventType for ExecutionContextsCleared {
    const METHOD: &'static str = "Runtime.executionContextsCleared";
}
