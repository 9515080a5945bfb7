//! The pattern pages on disk and the conformance tests that walk them
//! (`crate::patterns`) agree: every page is walked.

use crate::conformance::patterns_dir;
use crate::patterns::PAGES;

#[test]
fn every_pattern_page_is_walked() {
    let mut found: Vec<String> = std::fs::read_dir(patterns_dir())
        .expect("tests/patterns")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(found, PAGES);
}
