//! The commands of the `Runtime` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// `Runtime.callFunctionOn`: Calls function with given declaration on the given object. Object
/// group of the result is inherited from the target object.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFunctionOn {
    /// Declaration of the function to call.
    pub function_declaration: String,
    /// Identifier of the object to call function on. Either objectId or executionContextId
    /// should be specified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<super::RemoteObjectId>,
    /// Call arguments. All call arguments must belong to the same JavaScript world as the
    /// target object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<super::CallArgument>>,
    /// In silent mode exceptions thrown during evaluation are not reported and do not pause
    /// execution. Overrides `setPauseOnException` state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<bool>,
    /// Whether the result is expected to be a JSON object which should be sent by value. Can be
    /// overriden by `serializationOptions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    /// Whether preview should be generated for the result.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generate_preview: Option<bool>,
    /// Whether execution should be treated as initiated by user in the UI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    /// Whether execution should `await` for resulting value and return once awaited promise is
    /// resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    /// Specifies execution context which global object will be used to call function on. Either
    /// executionContextId or objectId should be specified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<super::ExecutionContextId>,
    /// Symbolic group name that can be used to release multiple objects. If objectGroup is not
    /// specified and objectId is, objectGroup will be inherited from object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// Whether to throw an exception if side effect cannot be ruled out during evaluation.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throw_on_side_effect: Option<bool>,
    /// An alternative way to specify the execution context to call function on. Compared to
    /// contextId that may be reused across processes, this is guaranteed to be system-unique,
    /// so it can be used to prevent accidental function call in context different than intended
    /// (e.g. as a result of navigation across process boundaries). This is mutually exclusive
    /// with `executionContextId`.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique_context_id: Option<String>,
    /// Specifies the result serialization. If provided, overrides `generatePreview` and
    /// `returnByValue`.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serialization_options: Option<serde_json::Value>,
}

impl crate::protocol::Command for CallFunctionOn {
    const METHOD: &'static str = "Runtime.callFunctionOn";
    type Response = CallFunctionOnResult;
}

/// The answer of [`CallFunctionOn`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CallFunctionOnResult {
    /// Call result.
    pub result: super::RemoteObject,
    /// Exception details.
    pub exception_details: Option<super::ExceptionDetails>,
}

/// `Runtime.compileScript`: Compiles expression.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompileScript {
    /// Expression to compile.
    pub expression: String,
    /// Source url to be set for the script.
    #[serde(rename = "sourceURL")]
    pub source_url: String,
    /// Specifies whether the compiled script should be persisted.
    pub persist_script: bool,
    /// Specifies in which execution context to perform script run. If the parameter is omitted
    /// the evaluation will be performed in the context of the inspected page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<super::ExecutionContextId>,
}

impl crate::protocol::Command for CompileScript {
    const METHOD: &'static str = "Runtime.compileScript";
    type Response = CompileScriptResult;
}

/// The answer of [`CompileScript`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CompileScriptResult {
    /// Id of the script.
    pub script_id: Option<super::ScriptId>,
    /// Exception details.
    pub exception_details: Option<super::ExceptionDetails>,
}

/// `Runtime.enable`: Enables reporting of execution contexts creation by means of
/// `executionContextCreated` event. When the reporting gets enabled the event will be sent
/// immediately for each existing execution context.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {}

impl crate::protocol::Command for Enable {
    const METHOD: &'static str = "Runtime.enable";
    type Response = crate::protocol::Empty;
}

/// `Runtime.evaluate`: Evaluates expression on global object.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluate {
    /// Expression to evaluate.
    pub expression: String,
    /// Symbolic group name that can be used to release multiple objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// Determines whether Command Line API should be available during the evaluation.
    #[serde(
        rename = "includeCommandLineAPI",
        skip_serializing_if = "Option::is_none"
    )]
    pub include_command_line_api: Option<bool>,
    /// In silent mode exceptions thrown during evaluation are not reported and do not pause
    /// execution. Overrides `setPauseOnException` state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<bool>,
    /// Specifies in which execution context to perform evaluation. If the parameter is omitted
    /// the evaluation will be performed in the context of the inspected page. This is mutually
    /// exclusive with `uniqueContextId`, which offers an alternative way to identify the
    /// execution context that is more reliable in a multi-process environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_id: Option<super::ExecutionContextId>,
    /// Whether the result is expected to be a JSON object that should be sent by value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    /// Whether preview should be generated for the result.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generate_preview: Option<bool>,
    /// Whether execution should be treated as initiated by user in the UI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    /// Whether execution should `await` for resulting value and return once awaited promise is
    /// resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    /// Whether to throw an exception if side effect cannot be ruled out during evaluation. This
    /// implies `disableBreaks` below.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throw_on_side_effect: Option<bool>,
    /// Terminate execution after timing out (number of milliseconds).
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<super::TimeDelta>,
    /// Disable breakpoints during execution.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_breaks: Option<bool>,
    /// Setting this flag to true enables `let` re-declaration and top-level `await`. Note that
    /// `let` variables can only be re-declared if they originate from `replMode` themselves.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repl_mode: Option<bool>,
    /// The Content Security Policy (CSP) for the target might block 'unsafe-eval' which
    /// includes eval(), Function(), setTimeout() and setInterval() when called with
    /// non-callable arguments. This flag bypasses CSP for this evaluation and allows
    /// unsafe-eval. Defaults to true.
    ///
    /// Experimental.
    #[serde(
        rename = "allowUnsafeEvalBlockedByCSP",
        skip_serializing_if = "Option::is_none"
    )]
    pub allow_unsafe_eval_blocked_by_csp: Option<bool>,
    /// An alternative way to specify the execution context to evaluate in. Compared to
    /// contextId that may be reused across processes, this is guaranteed to be system-unique,
    /// so it can be used to prevent accidental evaluation of the expression in context
    /// different than intended (e.g. as a result of navigation across process boundaries). This
    /// is mutually exclusive with `contextId`.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique_context_id: Option<String>,
    /// Specifies the result serialization. If provided, overrides `generatePreview` and
    /// `returnByValue`.
    ///
    /// Experimental.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serialization_options: Option<serde_json::Value>,
}

impl crate::protocol::Command for Evaluate {
    const METHOD: &'static str = "Runtime.evaluate";
    type Response = EvaluateResult;
}

/// The answer of [`Evaluate`].
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EvaluateResult {
    /// Evaluation result.
    pub result: super::RemoteObject,
    /// Exception details.
    pub exception_details: Option<super::ExceptionDetails>,
}

/// `Runtime.releaseObject`: Releases remote object with given id.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseObject {
    /// Identifier of the object to release.
    pub object_id: super::RemoteObjectId,
}

impl crate::protocol::Command for ReleaseObject {
    const METHOD: &'static str = "Runtime.releaseObject";
    type Response = crate::protocol::Empty;
}

/// `Runtime.releaseObjectGroup`: Releases all remote objects that belong to a given group.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseObjectGroup {
    /// Symbolic object group name.
    pub object_group: String,
}

impl crate::protocol::Command for ReleaseObjectGroup {
    const METHOD: &'static str = "Runtime.releaseObjectGroup";
    type Response = crate::protocol::Empty;
}

/// `Runtime.runIfWaitingForDebugger`: Tells inspected instance to run if it was waiting for
/// debugger to attach.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunIfWaitingForDebugger {}

impl crate::protocol::Command for RunIfWaitingForDebugger {
    const METHOD: &'static str = "Runtime.runIfWaitingForDebugger";
    type Response = crate::protocol::Empty;
}

/// `Runtime.terminateExecution`: Terminate current or next JavaScript execution. Will cancel
/// the termination when the outer-most script execution ends.
///
/// Experimental.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TerminateExecution {}

impl crate::protocol::Command for TerminateExecution {
    const METHOD: &'static str = "Runtime.terminateExecution";
    type Response = crate::protocol::Empty;
}
