//! How the protocol's names become Rust names: modules and fields in
//! snake case, commands and events in Pascal case, enum values as variants.

/// Words a field may not be called in Rust; `type` becomes `kind` (as rove
/// always wrote it), the others are written raw.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "super", "trait", "true", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try", "gen",
];

/// `backendNodeId` → `backend_node_id`, `DOMDebugger` → `dom_debugger`,
/// `frameURL` → `frame_url`.
pub(super) fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            let after_lower = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            let acronym_end = prev.is_some_and(|p| p.is_ascii_uppercase())
                && next.is_some_and(|n| n.is_ascii_lowercase());
            if after_lower || acronym_end {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '-' || c == ' ' || c == '.' {
            out.push('_');
        } else {
            out.push(c);
        }
    }
    out
}

/// A field's Rust name: snake case, `type` as `kind`, keywords raw.
pub(super) fn field(name: &str) -> String {
    let snake = snake(name);
    if snake == "type" {
        "kind".to_owned()
    } else if KEYWORDS.contains(&snake.as_str()) {
        format!("r#{snake}")
    } else {
        snake
    }
}

/// What serde's `rename_all = "camelCase"` makes of a snake-case field name,
/// to know when a field needs a rename of its own.
pub(super) fn serde_camel(field: &str) -> String {
    let field = field.trim_start_matches("r#");
    let mut out = String::with_capacity(field.len());
    let mut capitalize = false;
    for c in field.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `evaluate` → `Evaluate`, `getDOMCounters` → `GetDOMCounters`.
pub(super) fn pascal_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// An enum value as a variant: `mouseMoved` → `MouseMoved`,
/// `prefer-no-tab` → `PreferNoTab`, `net::ERR_FAILED` → `NetErrFailed`.
pub(super) fn variant(value: &str) -> String {
    let mut out = String::new();
    for word in value.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let all_upper = word.chars().all(|c| !c.is_ascii_lowercase());
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            if all_upper {
                out.extend(chars.map(|c| c.to_ascii_lowercase()));
            } else {
                out.push_str(chars.as_str());
            }
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_rust_writes_them() {
        assert_eq!(snake("backendNodeId"), "backend_node_id");
        assert_eq!(snake("DOMDebugger"), "dom_debugger");
        assert_eq!(snake("frameURL"), "frame_url");
        assert_eq!(snake("DOM"), "dom");
        assert_eq!(field("type"), "kind");
        assert_eq!(field("override"), "r#override");
        assert_eq!(serde_camel("backend_node_id"), "backendNodeId");
        assert_eq!(variant("mouseMoved"), "MouseMoved");
        assert_eq!(variant("prefer-no-tab"), "PreferNoTab");
        assert_eq!(variant("ERR_FAILED"), "ErrFailed");
        assert_eq!(variant("3d"), "V3d");
    }
}
