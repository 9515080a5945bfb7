//! Shorthands for the generated commands rove builds most often, and what
//! rove reads out of a few answers; the types themselves are generated.

use super::dom::DescribeNode;
use super::input::{DispatchMouseEvent, DispatchMouseEventType, MouseButton};
use super::runtime::{CallArgument, CallFunctionOn, Evaluate, ExceptionDetails, RemoteObject};
use super::target::AttachToTarget;
use crate::script::ScriptCall;

impl DescribeNode {
    /// The node `object_id` names, without children.
    pub fn of(object_id: impl Into<String>) -> Self {
        DescribeNode {
            object_id: Some(object_id.into()),
            depth: Some(0),
            ..DescribeNode::default()
        }
    }
}

impl DispatchMouseEvent {
    /// An event of `kind` at (`x`, `y`).
    pub fn at(kind: DispatchMouseEventType, x: f64, y: f64) -> Self {
        DispatchMouseEvent {
            kind,
            x,
            y,
            ..DispatchMouseEvent::default()
        }
    }

    /// A move with no button held.
    pub fn moved(x: f64, y: f64) -> Self {
        DispatchMouseEvent {
            button: Some(MouseButton::None),
            buttons: Some(0),
            ..DispatchMouseEvent::at(DispatchMouseEventType::MouseMoved, x, y)
        }
    }
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

    /// This evaluation as one of rove's scripts, called `script` in errors.
    pub fn named(self, script: &'static str) -> ScriptCall<Evaluate> {
        ScriptCall { script, call: self }
    }
}

impl CallFunctionOn {
    /// `function` of the script named `script`, called on `object`.
    pub fn on(
        script: &'static str,
        function: impl Into<String>,
        object: impl Into<String>,
    ) -> ScriptCall<CallFunctionOn> {
        ScriptCall {
            script,
            call: CallFunctionOn {
                function_declaration: function.into(),
                object_id: Some(object.into()),
                ..CallFunctionOn::default()
            },
        }
    }
}

impl ScriptCall<CallFunctionOn> {
    /// Adds an argument.
    pub fn arg(mut self, argument: CallArgument) -> Self {
        self.call
            .arguments
            .get_or_insert_with(Vec::new)
            .push(argument);
        self
    }

    /// Adds a JSON value as an argument.
    pub fn value(self, value: impl Into<serde_json::Value>) -> Self {
        self.arg(CallArgument::value(value))
    }

    /// Asks for the result as JSON.
    pub fn by_value(mut self) -> Self {
        self.call.return_by_value = Some(true);
        self
    }

    /// Waits for a returned promise.
    pub fn awaiting(mut self) -> Self {
        self.call.await_promise = Some(true);
        self
    }

    /// Puts a returned reference into `group`.
    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.call.object_group = Some(group.into());
        self
    }
}

impl CallArgument {
    /// A value passed as JSON.
    pub fn value(value: impl Into<serde_json::Value>) -> Self {
        CallArgument {
            value: Some(value.into()),
            ..CallArgument::default()
        }
    }

    /// An object of the page.
    pub fn object(id: impl Into<String>) -> Self {
        CallArgument {
            object_id: Some(id.into()),
            ..CallArgument::default()
        }
    }
}

impl AttachToTarget {
    /// A flattened attach to `target_id` (rove only speaks flattened
    /// sessions: the answer is a session id for later messages on the same
    /// socket).
    pub fn flat(target_id: impl Into<String>) -> Self {
        AttachToTarget {
            target_id: target_id.into(),
            flatten: Some(true),
        }
    }
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

#[cfg(test)]
mod tests {
    use crate::protocol::input::{DispatchKeyEvent, DispatchKeyEventType};

    use super::*;

    #[test]
    fn a_key_is_written_as_chromium_reads_it() {
        let down = DispatchKeyEvent {
            kind: DispatchKeyEventType::KeyDown,
            key: Some("a".into()),
            code: Some("KeyA".into()),
            windows_virtual_key_code: Some(65),
            native_virtual_key_code: Some(65),
            modifiers: Some(0),
            location: Some(0),
            text: Some("a".into()),
            unmodified_text: Some("a".into()),
            ..DispatchKeyEvent::default()
        };
        assert_eq!(
            serde_json::to_value(&down).expect("encodes"),
            serde_json::json!({"type": "keyDown", "key": "a", "code": "KeyA",
                "windowsVirtualKeyCode": 65, "nativeVirtualKeyCode": 65,
                "modifiers": 0, "location": 0, "text": "a", "unmodifiedText": "a"})
        );
        let raw = DispatchKeyEvent {
            kind: DispatchKeyEventType::RawKeyDown,
            text: None,
            unmodified_text: None,
            ..down
        };
        let json = serde_json::to_value(&raw).expect("encodes");
        assert_eq!(json["type"], "rawKeyDown");
        assert!(json.get("text").is_none());
    }

    #[test]
    fn a_move_is_written_as_chromium_reads_it() {
        let json = serde_json::to_value(DispatchMouseEvent::moved(1.5, 2.0)).expect("encodes");
        assert_eq!(
            json,
            serde_json::json!({"type": "mouseMoved", "x": 1.5, "y": 2.0, "button": "none", "buttons": 0})
        );
        let wheel = DispatchMouseEvent {
            delta_y: Some(100.0),
            delta_x: Some(0.0),
            ..DispatchMouseEvent::at(DispatchMouseEventType::MouseWheel, 3.0, 4.0)
        };
        assert_eq!(
            serde_json::to_value(wheel).expect("encodes"),
            serde_json::json!({"type": "mouseWheel", "x": 3.0, "y": 4.0, "deltaX": 0.0, "deltaY": 100.0})
        );
    }

    #[test]
    fn answers_tolerate_unknown_and_missing_fields_and_values() {
        let object: RemoteObject = crate::lossy_json::from_json(
            r#"{"type":"a-kind-of-2030","subtype":"node","brandNew":{"x":1}}"#,
        )
        .expect("decodes");
        assert_eq!(
            object.kind,
            crate::protocol::runtime::RemoteObjectType::Unrecognized
        );
        assert_eq!(
            object.subtype,
            Some(crate::protocol::runtime::RemoteObjectSubtype::Node)
        );
        assert!(object.object_id.is_none());
        let empty: RemoteObject = crate::lossy_json::from_json("{}").expect("decodes");
        assert!(empty.value.is_none());
        let null: RemoteObject =
            crate::lossy_json::from_json(r#"{"type":"object","subtype":"null","value":null}"#)
                .expect("decodes");
        assert_eq!(null.value, Some(serde_json::Value::Null), "null is a value");
    }
}
