//! The task that takes the focused tab's screencast for the traces that
//! record one (`trace/frames.rs` writes the frames). Chromium paints a
//! frame only when something on the page changed; it holds the next one
//! until rove takes the last (`maxFramesInFlight` 1) and then sends the
//! latest (`sendLastFrame`), so rove sets the rate by when it takes a
//! frame: at most one each `limits::SCREENCAST_GAP`. Frames are scaled by
//! the browser to `limits::SCREENCAST_SIDE`, and each has the session's
//! secrets painted out (`commands/page/mask.rs`) before it is written; a
//! frame that cannot be masked is not written. A browser without a
//! screencast (or a page that does not answer) leaves one line saying so,
//! and the commands go on.

use std::time::Instant;

use rove_base::limits::{SCREENCAST_CALL, SCREENCAST_GAP, SCREENCAST_SIDE};
use rove_browser::Tab;
use rove_cdp::EventStreamError;
use rove_cdp::protocol::page::{
    ScreencastFrame, ScreencastFrameAck, StartScreencast, StartScreencastFormat, StopScreencast,
};
use tokio::sync::oneshot;

use crate::commands::page::mask::{Frame, mask_frame};
use crate::trace::{FrameToStore, ScreencastFollow};
use crate::{Secrets, Session};

/// JPEG quality of a screencast frame: the page is legible, a frame is
/// tens of KiB.
const FRAME_QUALITY: u8 = 50;

impl Session {
    /// Keeps the traces' screencast on the focused tab: started when a
    /// trace wants one and none is taken of this tab (one of another tab is
    /// stopped). Costs a lock when no trace wants frames.
    pub(crate) fn follow_screencast(&self) {
        let traces = &self.config().traces;
        let Ok(tab) = self.focused() else {
            return;
        };
        let Some((follow, stop)) = traces.follow(tab.target_id()) else {
            return;
        };
        let secrets = self.config().secrets.clone();
        tokio::spawn(take_frames(tab, secrets, follow, stop));
    }
}

/// Takes `tab`'s frames into `follow` until `stop` (the traces dropped
/// their handle) or the tab's events end.
async fn take_frames(
    tab: Tab,
    secrets: Secrets,
    follow: ScreencastFollow,
    mut stop: oneshot::Receiver<()>,
) {
    let session = match tokio::time::timeout(SCREENCAST_CALL, tab.session()).await {
        Ok(Ok(session)) => session,
        Ok(Err(e)) => return follow.none(tab.id(), &e.to_string()),
        Err(_) => return follow.none(tab.id(), "the tab did not answer"),
    };
    let mut events = session.subscribe();
    let start = StartScreencast {
        format: Some(StartScreencastFormat::Jpeg),
        quality: Some(i64::from(FRAME_QUALITY)),
        max_width: Some(i64::from(SCREENCAST_SIDE)),
        max_height: Some(i64::from(SCREENCAST_SIDE)),
        every_nth_frame: Some(1),
        max_frames_in_flight: Some(1),
        send_last_frame: Some(true),
    };
    match tokio::time::timeout(SCREENCAST_CALL, tab.send(&start)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return follow.none(tab.id(), &e.to_string()),
        Err(_) => return follow.none(tab.id(), "the browser did not start one in time"),
    }
    let mut last_taken: Option<Instant> = None;
    loop {
        let event = tokio::select! {
            _ = &mut stop => break,
            event = events.recv() => event,
        };
        let frame = match event {
            Ok(event) => match event.as_event::<ScreencastFrame>() {
                Some(Ok(frame)) => frame,
                Some(Err(e)) => {
                    tracing::debug!(error = %e, "a screencast frame that does not decode");
                    continue;
                }
                None => continue,
            },
            Err(EventStreamError::Lagged(_)) => continue,
            Err(EventStreamError::Closed) => return,
        };
        // The rate cap: the browser holds what it paints meanwhile and
        // sends the latest once this frame is taken.
        if let Some(wait) = last_taken.and_then(|t| SCREENCAST_GAP.checked_sub(t.elapsed())) {
            tokio::select! {
                _ = &mut stop => break,
                _ = tokio::time::sleep(wait) => {}
            }
        }
        last_taken = Some(Instant::now());
        let taken = ScreencastFrameAck {
            session_id: frame.session_id,
        };
        if !matches!(
            tokio::time::timeout(SCREENCAST_CALL, tab.send(&taken)).await,
            Ok(Ok(_))
        ) {
            tracing::debug!(
                "the browser did not take back a screencast frame; it may stop sending"
            );
        }
        let Some(stored) = masked(&tab, &secrets, frame).await else {
            continue;
        };
        if !follow.frame(stored) {
            break;
        }
    }
    let _ = tokio::time::timeout(SCREENCAST_CALL, tab.send(&StopScreencast {})).await;
}

/// `frame` with the session's secrets painted out, or `None` when that
/// could not be done in time (it is then never written).
async fn masked(tab: &Tab, secrets: &Secrets, frame: ScreencastFrame) -> Option<FrameToStore> {
    let meta = frame.metadata;
    let at = meta.timestamp.unwrap_or_else(crate::trace::unix_seconds);
    let mut image = Frame {
        base64: frame.data,
        mime: "image/jpeg",
        quality: Some(FRAME_QUALITY),
        area: None,
    };
    // Each of the masking's calls has its own deadline; this holds both.
    let mask = rove_base::limits::SECRET_MASK * 2;
    let masked = match tokio::time::timeout(mask, mask_frame(tab, secrets, &mut image)).await {
        Ok(Ok(boxes)) => boxes,
        _ => return None,
    };
    Some(FrameToStore {
        at,
        tab: tab.id(),
        base64: image.base64,
        view: [meta.device_width, meta.device_height],
        masked,
    })
}
