//! Commands parsed from the JSON every face sends, without a browser.

use rove_commands::Command;
use serde_json::json;

#[test]
fn commands_parse_from_the_json_every_face_sends() {
    let click: Command =
        serde_json::from_value(json!({"command": "click", "ref": "@e7", "double": true}))
            .expect("click");
    assert_eq!(click.name(), "click");
    assert!(click.acts());
    let snapshot: Command =
        serde_json::from_value(json!({"command": "snapshot", "mode": "interactive"}))
            .expect("snapshot");
    assert!(!snapshot.acts());
    for bad in [
        json!({"command": "click"}),
        json!({"command": "click", "ref": "e1", "bogus": 1}),
        json!({"command": "teleport"}),
        json!({"command": "scroll", "direction": "sideways"}),
    ] {
        assert!(
            serde_json::from_value::<Command>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}
