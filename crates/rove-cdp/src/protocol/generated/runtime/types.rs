//! The types of the `Runtime` domain that rove uses.
//!
//! Generated from Chromium's protocol definition (the npm package devtools-protocol
//! 0.0.1707781, which matches Chromium 156.0.8078, in crates/rove-cdp/protocol/) for the
//! commands, events and types named in crates/rove-cdp/protocol/uses.txt. Do not edit: change
//! the list and run `ROVE_REGENERATE_PROTOCOL=1 cargo test -p rove-cdp --lib codegen`.

/// Id of an execution context.
pub type ExecutionContextId = i64;

/// Unique object identifier.
pub type RemoteObjectId = String;

/// Unique script identifier.
pub type ScriptId = String;

/// Number of milliseconds.
pub type TimeDelta = f64;

/// Number of milliseconds since epoch.
pub type Timestamp = f64;

/// Primitive value which cannot be JSON-stringified. Includes values `-0`, `NaN`, `Infinity`,
/// `-Infinity`, and bigint literals.
pub type UnserializableValue = String;

/// The values of `type` in `ConsoleAPICalled`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ConsoleAPICalledType {
    /// `log`.
    #[serde(rename = "log")]
    Log,
    /// `debug`.
    #[serde(rename = "debug")]
    Debug,
    /// `info`.
    #[serde(rename = "info")]
    Info,
    /// `error`.
    #[serde(rename = "error")]
    Error,
    /// `warning`.
    #[serde(rename = "warning")]
    Warning,
    /// `dir`.
    #[serde(rename = "dir")]
    Dir,
    /// `dirxml`.
    #[serde(rename = "dirxml")]
    Dirxml,
    /// `table`.
    #[serde(rename = "table")]
    Table,
    /// `trace`.
    #[serde(rename = "trace")]
    Trace,
    /// `clear`.
    #[serde(rename = "clear")]
    Clear,
    /// `startGroup`.
    #[serde(rename = "startGroup")]
    StartGroup,
    /// `startGroupCollapsed`.
    #[serde(rename = "startGroupCollapsed")]
    StartGroupCollapsed,
    /// `endGroup`.
    #[serde(rename = "endGroup")]
    EndGroup,
    /// `assert`.
    #[serde(rename = "assert")]
    Assert,
    /// `profile`.
    #[serde(rename = "profile")]
    Profile,
    /// `profileEnd`.
    #[serde(rename = "profileEnd")]
    ProfileEnd,
    /// `count`.
    #[serde(rename = "count")]
    Count,
    /// `timeEnd`.
    #[serde(rename = "timeEnd")]
    TimeEnd,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl ConsoleAPICalledType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Log => "log",
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Dir => "dir",
            Self::Dirxml => "dirxml",
            Self::Table => "table",
            Self::Trace => "trace",
            Self::Clear => "clear",
            Self::StartGroup => "startGroup",
            Self::StartGroupCollapsed => "startGroupCollapsed",
            Self::EndGroup => "endGroup",
            Self::Assert => "assert",
            Self::Profile => "profile",
            Self::ProfileEnd => "profileEnd",
            Self::Count => "count",
            Self::TimeEnd => "timeEnd",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `subtype` in `RemoteObject`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum RemoteObjectSubtype {
    /// `array`.
    #[serde(rename = "array")]
    Array,
    /// `null`.
    #[serde(rename = "null")]
    Null,
    /// `node`.
    #[serde(rename = "node")]
    Node,
    /// `regexp`.
    #[serde(rename = "regexp")]
    Regexp,
    /// `date`.
    #[serde(rename = "date")]
    Date,
    /// `map`.
    #[serde(rename = "map")]
    Map,
    /// `set`.
    #[serde(rename = "set")]
    Set,
    /// `weakmap`.
    #[serde(rename = "weakmap")]
    Weakmap,
    /// `weakset`.
    #[serde(rename = "weakset")]
    Weakset,
    /// `iterator`.
    #[serde(rename = "iterator")]
    Iterator,
    /// `generator`.
    #[serde(rename = "generator")]
    Generator,
    /// `error`.
    #[serde(rename = "error")]
    Error,
    /// `proxy`.
    #[serde(rename = "proxy")]
    Proxy,
    /// `promise`.
    #[serde(rename = "promise")]
    Promise,
    /// `typedarray`.
    #[serde(rename = "typedarray")]
    Typedarray,
    /// `arraybuffer`.
    #[serde(rename = "arraybuffer")]
    Arraybuffer,
    /// `dataview`.
    #[serde(rename = "dataview")]
    Dataview,
    /// `webassemblymemory`.
    #[serde(rename = "webassemblymemory")]
    Webassemblymemory,
    /// `wasmvalue`.
    #[serde(rename = "wasmvalue")]
    Wasmvalue,
    /// `deferredmodule`.
    #[serde(rename = "deferredmodule")]
    Deferredmodule,
    /// `trustedtype`.
    #[serde(rename = "trustedtype")]
    Trustedtype,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl RemoteObjectSubtype {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Array => "array",
            Self::Null => "null",
            Self::Node => "node",
            Self::Regexp => "regexp",
            Self::Date => "date",
            Self::Map => "map",
            Self::Set => "set",
            Self::Weakmap => "weakmap",
            Self::Weakset => "weakset",
            Self::Iterator => "iterator",
            Self::Generator => "generator",
            Self::Error => "error",
            Self::Proxy => "proxy",
            Self::Promise => "promise",
            Self::Typedarray => "typedarray",
            Self::Arraybuffer => "arraybuffer",
            Self::Dataview => "dataview",
            Self::Webassemblymemory => "webassemblymemory",
            Self::Wasmvalue => "wasmvalue",
            Self::Deferredmodule => "deferredmodule",
            Self::Trustedtype => "trustedtype",
            Self::Unrecognized => "",
        }
    }
}

/// The values of `type` in `RemoteObject`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum RemoteObjectType {
    /// `object`.
    #[serde(rename = "object")]
    Object,
    /// `function`.
    #[serde(rename = "function")]
    Function,
    /// `undefined`.
    #[serde(rename = "undefined")]
    Undefined,
    /// `string`.
    #[serde(rename = "string")]
    String,
    /// `number`.
    #[serde(rename = "number")]
    Number,
    /// `boolean`.
    #[serde(rename = "boolean")]
    Boolean,
    /// `symbol`.
    #[serde(rename = "symbol")]
    Symbol,
    /// `bigint`.
    #[serde(rename = "bigint")]
    Bigint,
    /// A value this version of the protocol does not know (or none).
    #[default]
    #[serde(other)]
    Unrecognized,
}

impl RemoteObjectType {
    /// The value as the protocol writes it (empty for `Unrecognized`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Object => "object",
            Self::Function => "function",
            Self::Undefined => "undefined",
            Self::String => "string",
            Self::Number => "number",
            Self::Boolean => "boolean",
            Self::Symbol => "symbol",
            Self::Bigint => "bigint",
            Self::Unrecognized => "",
        }
    }
}

/// Represents function call argument. Either remote object id `objectId`, primitive `value`,
/// unserializable primitive value or neither of (for undefined) them should be specified.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CallArgument {
    /// Primitive value or serializable javascript object.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub value: Option<serde_json::Value>,
    /// Primitive value which can not be JSON-stringified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unserializable_value: Option<super::UnserializableValue>,
    /// Remote object handle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<super::RemoteObjectId>,
}

/// Stack entry for runtime errors and assertions.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CallFrame {
    /// JavaScript function name.
    pub function_name: String,
    /// JavaScript script id.
    pub script_id: super::ScriptId,
    /// JavaScript script name or url.
    pub url: String,
    /// JavaScript script line number (0-based).
    pub line_number: i64,
    /// JavaScript script column number (0-based).
    pub column_number: i64,
}

/// Detailed information about exception (or error) that was thrown during script compilation or
/// execution.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExceptionDetails {
    /// Exception id.
    pub exception_id: i64,
    /// Exception text, which should be used together with exception object when available.
    pub text: String,
    /// Line number of the exception location (0-based).
    pub line_number: i64,
    /// Column number of the exception location (0-based).
    pub column_number: i64,
    /// Script ID of the exception location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script_id: Option<super::ScriptId>,
    /// URL of the exception location, to be used when the script was not reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// JavaScript stack trace if available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_trace: Option<super::StackTrace>,
    /// Exception object if available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<super::RemoteObject>,
    /// Identifier of the context where exception happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<super::ExecutionContextId>,
    /// Dictionary with entries of meta data that the client associated with this exception,
    /// such as information about associated network requests, etc.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub exception_meta_data: Option<serde_json::Value>,
}

/// Description of an isolated world.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExecutionContextDescription {
    /// Unique id of the execution context. It can be used to specify in which execution context
    /// script evaluation should be performed.
    pub id: super::ExecutionContextId,
    /// Execution context origin.
    pub origin: String,
    /// Human readable name describing given context.
    pub name: String,
    /// A system-unique execution context identifier. Unlike the id, this is unique across
    /// multiple processes, so can be reliably used to identify specific context while backend
    /// performs a cross-process navigation.
    ///
    /// Experimental.
    pub unique_id: String,
    /// Embedder-specific auxiliary data likely matching {isDefault: boolean, type:
    /// 'default'|'isolated'|'worker', frameId: string}
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub aux_data: Option<serde_json::Value>,
}

/// Mirror object referencing original JavaScript object.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RemoteObject {
    /// Object type.
    #[serde(rename = "type")]
    pub kind: super::RemoteObjectType,
    /// Object subtype hint. Specified for `object` type values only. NOTE: If you change
    /// anything here, make sure to also update `subtype` in `ObjectPreview` and
    /// `PropertyPreview` below.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtype: Option<super::RemoteObjectSubtype>,
    /// Object class (constructor) name. Specified for `object` type values only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    /// Remote object value in case of primitive values or JSON values (if it was requested).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub value: Option<serde_json::Value>,
    /// Primitive value which can not be JSON-stringified does not have `value`, but gets this
    /// property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unserializable_value: Option<super::UnserializableValue>,
    /// String representation of the object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Deep serialized value.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub deep_serialized_value: Option<serde_json::Value>,
    /// Unique object identifier (for non-primitive values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<super::RemoteObjectId>,
    /// Preview containing abbreviated property values. Specified for `object` type values only.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub preview: Option<serde_json::Value>,
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub custom_preview: Option<serde_json::Value>,
}

/// Call frames for assertions or error messages.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StackTrace {
    /// String label of this stack trace. For async traces this may be a name of the function
    /// that initiated the async call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JavaScript function name.
    pub call_frames: Vec<super::CallFrame>,
    /// Asynchronous JavaScript stack trace that preceded this stack, if available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<Box<super::StackTrace>>,
    /// Asynchronous JavaScript stack trace that preceded this stack, if available.
    ///
    /// Experimental.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::protocol::null_is_a_value"
    )]
    pub parent_id: Option<serde_json::Value>,
}
