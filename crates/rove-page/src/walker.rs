//! The walker's source as it is installed: `walker.js` with `identity.js`,
//! `approximate.js`, `states.js`, `clickable.js`, `flat_tree.js`, `runs.js`, `find.js`,
//! `text_match.js`, `locate.js` and `captcha.js` put inside its closure (at the
//! `ROVE_IDENTITY`, `ROVE_APPROXIMATE`, `ROVE_STATES`, `ROVE_CLICKABLE`, `ROVE_FLAT_TREE`,
//! `ROVE_RUNS`, `ROVE_FIND`, `ROVE_TEXT_MATCH`, `ROVE_LOCATE` and `ROVE_CAPTCHA` lines;
//! they share the walker's role, name and visibility rules, in separate
//! files to keep each small) and
//! the one list of control roles (`roles.rs`) in place of
//! `ROVE_INTERACTIVE_ROLES`.

use rove_base::text;

use crate::roles::INTERACTIVE_ROLES;

/// The walker's source, assembled once.
pub(crate) fn source() -> &'static str {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let list = INTERACTIVE_ROLES
            .iter()
            .map(|r| format!("'{r}'"))
            .collect::<Vec<_>>()
            .join(", ");
        include_str!("walker.js")
            .replace("  // ROVE_IDENTITY\n", include_str!("identity.js"))
            .replace("  // ROVE_APPROXIMATE\n", include_str!("approximate.js"))
            .replace("  // ROVE_STATES\n", include_str!("states.js"))
            .replace("  // ROVE_CLICKABLE\n", include_str!("clickable.js"))
            .replace("  // ROVE_FLAT_TREE\n", include_str!("flat_tree.js"))
            .replace("  // ROVE_RUNS\n", include_str!("runs.js"))
            .replace("  // ROVE_FIND\n", include_str!("find.js"))
            .replace("  // ROVE_TEXT_MATCH\n", include_str!("text_match.js"))
            .replace("  // ROVE_LOCATE\n", include_str!("locate.js"))
            .replace("  // ROVE_CAPTCHA\n", include_str!("captcha.js"))
            .replace("ROVE_INTERACTIVE_ROLES", &format!("[{list}]"))
            .replace("ROVE_INVISIBLE", &pattern(text::INVISIBLE))
            .replace("ROVE_BREAKING", &pattern(text::BREAKING))
    })
}

/// One of rove-base's character lists as a JavaScript pattern
/// (`/[\u{AD}…]/gu`), so the walker treats page text as the view's
/// cleaning does.
fn pattern(ranges: &[(char, char)]) -> String {
    let class: String = ranges
        .iter()
        .map(|(low, high)| {
            if low == high {
                format!("\\u{{{:X}}}", u32::from(*low))
            } else {
                format!("\\u{{{:X}}}-\\u{{{:X}}}", u32::from(*low), u32::from(*high))
            }
        })
        .collect();
    format!("/[{class}]/gu")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walker_gets_find_and_the_one_list_of_controls() {
        let walker = include_str!("walker.js");
        for mark in [
            "ROVE_INTERACTIVE_ROLES",
            "ROVE_INVISIBLE",
            "ROVE_BREAKING",
            "  // ROVE_IDENTITY\n",
            "  // ROVE_APPROXIMATE\n",
            "  // ROVE_STATES\n",
            "  // ROVE_CLICKABLE\n",
            "  // ROVE_FLAT_TREE\n",
            "  // ROVE_RUNS\n",
            "  // ROVE_FIND\n",
            "  // ROVE_TEXT_MATCH\n",
            "  // ROVE_LOCATE\n",
            "  // ROVE_CAPTCHA\n",
        ] {
            assert_eq!(
                walker.matches(mark).count(),
                1,
                "walker.js names {mark:?} once"
            );
            assert!(!source().contains(mark), "{mark:?} is replaced");
        }
        assert!(source().contains("new Set(['button', 'link', "));
        assert!(source().contains("= /[\\u{AD}\\u{34F}"), "the invisibles");
        assert!(source().contains("  function find(query, ms = Infinity) {"));
        assert!(source().contains("  const firstHit = "), "text_match.js");
        assert!(source().contains("  const isClickable = "));
        assert!(source().contains("  const sameThing = "));
        assert!(source().contains("  const childrenOf = "));
        assert!(source().contains("    find,\n"), "the walker exports find");
    }
}
