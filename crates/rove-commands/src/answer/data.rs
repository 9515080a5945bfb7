//! An outcome's data: the one result a command gives besides what happened
//! and the view (a text to read, a value the page evaluated, a file saved),
//! typed so no reader has to guess its shape from JSON.

use serde::Serialize;
use serde_json::Value;

/// What a command found or made, beside what happened and the view.
///
/// Serialized untagged, so the wire JSON (`--json`, MCP, the daemon) is the
/// text as a JSON string, `{"result": value}` or `{"path", "bytes", "mime"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Data {
    /// A text to read as it is: a page as markdown, the tab list, cookies,
    /// requests, console entries, what an emulation set, a PDF written, or
    /// an evaluated value too long to give whole (its JSON, cut).
    Text(String),
    /// A value the page evaluated (`eval`, `get`): JSON from the page,
    /// untrusted and of any shape.
    Evaluated {
        /// The value.
        result: Value,
    },
    /// A file the command wrote (a screenshot given a path).
    Saved {
        /// Where the file is.
        path: String,
        /// Its size in bytes.
        bytes: usize,
        /// `image/png` or `image/jpeg`.
        mime: &'static str,
    },
}

impl Data {
    /// The text, when the data is a text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Data::Text(text) => Some(text),
            Data::Evaluated { .. } | Data::Saved { .. } => None,
        }
    }

    /// The evaluated value, when the data is one.
    pub fn result(&self) -> Option<&Value> {
        match self {
            Data::Evaluated { result } => Some(result),
            Data::Text(_) | Data::Saved { .. } => None,
        }
    }

    /// The data as the JSON the faces show under `data`.
    pub fn to_json(&self) -> Value {
        // Serializing strings, numbers and JSON values into a `Value` has no
        // way to fail.
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The data as a terminal or a model reads it after what happened: a
    /// text as it is (ending its line), a value as pretty JSON. A file
    /// saved adds nothing: the line of what happened already says where it
    /// went, how big it is and of what type (the JSON faces carry the
    /// fields).
    pub(crate) fn push_text(&self, text: &mut String) {
        match self {
            Data::Text(s) => {
                text.push_str(s);
                if !s.ends_with('\n') {
                    text.push('\n');
                }
            }
            Data::Saved { .. } => {}
            Data::Evaluated { .. } => {
                text.push_str(&serde_json::to_string_pretty(&self.to_json()).unwrap_or_default());
                text.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shown(data: &Data) -> String {
        let mut text = String::new();
        data.push_text(&mut text);
        text
    }

    #[test]
    fn each_kind_keeps_its_wire_form() {
        let text = Data::Text("t1* Home http://a.test/\n".into());
        assert_eq!(text.to_json().to_string(), r#""t1* Home http://a.test/\n""#);
        let value = Data::Evaluated {
            result: json!({"s": "two", "n": 1, "list": [true, null]}),
        };
        assert_eq!(
            value.to_json().to_string(),
            r#"{"result":{"list":[true,null],"n":1,"s":"two"}}"#
        );
        let saved = Data::Saved {
            path: "/tmp/shot.png".into(),
            bytes: 1234,
            mime: "image/png",
        };
        assert_eq!(
            saved.to_json().to_string(),
            r#"{"bytes":1234,"mime":"image/png","path":"/tmp/shot.png"}"#
        );
    }

    #[test]
    fn a_text_is_read_as_it_is_a_value_as_pretty_json_and_a_saved_file_not_again() {
        assert_eq!(shown(&Data::Text("one\ntwo".into())), "one\ntwo\n");
        assert_eq!(shown(&Data::Text("ends\n".into())), "ends\n");
        // An empty text still ends its line, as it always did.
        assert_eq!(shown(&Data::Text(String::new())), "\n");
        let nothing = Data::Evaluated {
            result: Value::Null,
        };
        assert_eq!(shown(&nothing), "{\n  \"result\": null\n}\n");
        let saved = Data::Saved {
            path: "/tmp/shot.png".into(),
            bytes: 7,
            mime: "image/jpeg",
        };
        assert_eq!(shown(&saved), "", "said once, by the line of what happened");
    }

    #[test]
    fn only_the_matching_kind_answers_its_accessor() {
        let text = Data::Text("x".into());
        let value = Data::Evaluated { result: json!(3) };
        assert_eq!(text.as_text(), Some("x"));
        assert_eq!(text.result(), None);
        assert_eq!(value.result(), Some(&json!(3)));
        assert_eq!(value.as_text(), None);
    }
}
