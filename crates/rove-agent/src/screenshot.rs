//! Pictures of the page: the viewport as the model sees it on a step, and
//! the [`Screenshot`]s a run keeps for its judge.

use rove_commands::{Command, Session};
use rove_llm::Message;

/// A picture of the page the judge may see.
#[derive(Debug, Clone, PartialEq)]
pub struct Screenshot {
    /// When it was taken (`before step 3`, `at the end`).
    pub caption: String,
    /// `image/jpeg` or `image/png`.
    pub mime: String,
    /// The image.
    pub bytes: Vec<u8>,
}

/// The viewport as a JPEG for the model, only for this step's request (it is
/// not kept in the history).
pub(crate) async fn screenshot(session: &mut Session) -> Option<(Message, Vec<u8>)> {
    use base64::Engine;
    let shot = Command::Screenshot(rove_commands::ScreenshotArgs {
        format: rove_commands::ImageFormat::Jpeg,
        quality: Some(60),
        max_bytes: Some(1_000_000),
        ..rove_commands::ScreenshotArgs::default()
    });
    let image = session.execute(&shot).await.ok()?.image?;
    let message = Message::Image {
        text: "The viewport as it looks now (only what is on screen; the text view covers the whole page):".into(),
        mime: image.mime.to_owned(),
        data: base64::engine::general_purpose::STANDARD.encode(&image.bytes),
    };
    Some((message, image.bytes))
}
