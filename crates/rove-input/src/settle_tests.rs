//! What settling keeps of the requests an input started.

use super::*;

#[test]
fn addresses_awaited_are_http_without_fragment_bounded_in_number_and_length() {
    let mut asked = Asked::default();
    asked.awaits("data", "data:text/plain,hi");
    asked.awaits(
        "long",
        &format!("https://example.org/{}", "a".repeat(ADDRESS_MAX)),
    );
    asked.awaits("frag", "https://example.org/page#part");
    assert_eq!(asked.pending.len(), 3, "every request is still waited for");
    assert_eq!(
        asked.addresses.get("frag").map(String::as_str),
        Some("https://example.org/page")
    );
    assert!(!asked.addresses.contains_key("data"));
    assert!(!asked.addresses.contains_key("long"));
    for n in 0..200 {
        asked.awaits(&format!("r{n}"), &format!("https://example.org/{n}"));
    }
    assert_eq!(asked.pending.len(), 203);
    assert_eq!(asked.addresses.len(), ADDRESSES_KEPT);
}
