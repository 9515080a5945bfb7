//! Mistral's chat completions: OpenAI's shape with Mistral's own rules.
//! Tool call ids are nine letters or digits (a call another provider made,
//! before a fallback took over, gets one derived from its id); an image is
//! a data URL given as a string; forcing a tool is `tool_choice: "any"`
//! with that tool alone on offer.

use serde_json::{Value, json};

use crate::Request;

/// The request body.
pub(crate) fn body(model: &str, request: &Request) -> Value {
    let forced = request.force_tool.as_ref().map(|name| Request {
        tools: request
            .tools
            .iter()
            .filter(|t| &t.name == name)
            .cloned()
            .collect(),
        force_tool: None,
        ..request.clone()
    });
    let mut body = crate::openai::body(model, forced.as_ref().unwrap_or(request), "mistral");
    if forced.is_some() && body.get("tools").is_some() {
        body["tool_choice"] = json!("any");
    }
    for message in body["messages"].as_array_mut().into_iter().flatten() {
        if let Some(calls) = message["tool_calls"].as_array_mut() {
            for call in calls {
                call["id"] = json!(call_id(call["id"].as_str().unwrap_or_default()));
            }
        }
        if let Some(id) = message["tool_call_id"].as_str() {
            message["tool_call_id"] = json!(call_id(id));
        }
        for part in message["content"].as_array_mut().into_iter().flatten() {
            if let Some(url) = part["image_url"]["url"].as_str() {
                part["image_url"] = json!(url);
            }
        }
    }
    body
}

/// `id` as Mistral accepts it: itself when it is nine letters or digits
/// (Mistral's own), else nine drawn from its hash, the same each time.
fn call_id(id: &str) -> String {
    if id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return id.to_owned();
    }
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    // FNV-1a: stable across runs and platforms, unlike the std hasher.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (0..9)
        .map(|_| {
            let pick = (hash % ALPHABET.len() as u64) as usize;
            hash /= ALPHABET.len() as u64;
            char::from(ALPHABET[pick])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_become_nine_letters_or_digits_the_same_each_time() {
        assert_eq!(call_id("D681PevKs"), "D681PevKs");
        let made = call_id("call_abc-123");
        assert_eq!(made.len(), 9);
        assert!(made.bytes().all(|b| b.is_ascii_alphanumeric()), "{made}");
        assert_eq!(made, call_id("call_abc-123"));
        assert_ne!(made, call_id("call_abc-124"));
    }
}
