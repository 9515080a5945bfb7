//! Work on a page that a JavaScript dialog may block: refused at once
//! while one is open, cut short when one opens meanwhile.

use rove_browser::Tab;

use crate::CommandError;

/// Runs `work` on the page unless a JavaScript dialog blocks it. One already
/// open is `DIALOG_OPEN` before anything is sent; one that opens meanwhile
/// stops the page's scripts, so the wait ends at once with `DIALOG_OPEN`
/// (the dialog came from the work itself: `sent`) instead of running into
/// the transport's deadline.
pub(crate) async fn unless_dialog<T>(
    tab: &Tab,
    work: impl std::future::Future<Output = Result<T, CommandError>>,
) -> Result<T, CommandError> {
    let watch = tab.watch().await?;
    if let Some(dialog) = watch.dialog() {
        return Err(blocked_by(dialog));
    }
    tokio::select! {
        done = work => done,
        Some(dialog) = watch.wait_for_dialog(rove_base::limits::DIALOG_WATCH) => Err(CommandError::DialogOpened {
            kind: dialog.kind,
            message: dialog.message,
        }),
    }
}

/// Refuses at once (`DIALOG_OPEN`, nothing sent) when a JavaScript dialog
/// blocks `tab`: every script sent to it would wait for the dialog until a
/// deadline, and a command that reads several things would end with part
/// of them.
pub(crate) async fn refuse_if_dialog(tab: &Tab) -> Result<(), CommandError> {
    match tab.watch().await?.dialog() {
        Some(dialog) => Err(blocked_by(dialog)),
        None => Ok(()),
    }
}

/// The failure of anything refused because `dialog` blocks the page.
pub(crate) fn blocked_by(dialog: rove_browser::DialogInfo) -> CommandError {
    CommandError::Page(rove_page::PageError::DialogOpen {
        kind: dialog.kind,
        message: dialog.message,
    })
}
