//! The page's screencast in a trace (`rove trace start --screencast`): the
//! frames the browser paints of the focused tab, each a `frame` line
//! between the commands it came among. The session's task that takes them
//! (`run/screencast.rs`) masks the secrets out of each first; here they
//! are written, each trace within its caps ([`FrameCaps`], by default
//! `limits::SCREENCAST_FRAMES` and `limits::SCREENCAST_BYTES`): past either, one line says frames are
//! dropped from there on, and none is written after it.

use std::sync::{Arc, Mutex, Weak};

use rove_browser::TabId;
use tokio::sync::oneshot;

use super::format::{TraceLine, TraceScreenshot, TracedFrame};
use super::{FrameCaps, Traces, TracesInner};

/// What one trace has kept of the screencast.
#[derive(Debug)]
pub(super) struct FrameCount {
    /// Its caps.
    caps: FrameCaps,
    /// Frames written.
    pub(super) kept: usize,
    /// Their bytes (base64).
    pub(super) bytes: usize,
    /// A cap was reached: the line saying so is written, no frame after it.
    pub(super) full: bool,
}

/// The screencast being taken of one tab. Dropping it tells the task to
/// stop the browser's screencast and end.
#[derive(Debug)]
pub(super) struct Running {
    /// The browser's id of the tab's target: rove's tab ids repeat across
    /// sessions that share traces.
    target: String,
    _stop: oneshot::Sender<()>,
}

/// A frame to write, its secrets already masked.
#[derive(Debug, Clone)]
pub(crate) struct FrameToStore {
    /// When the browser painted it (seconds since the Unix epoch).
    pub(crate) at: f64,
    /// The tab it shows.
    pub(crate) tab: TabId,
    /// The JPEG, base64.
    pub(crate) base64: String,
    /// The viewport it shows, CSS pixels.
    pub(crate) view: [f64; 2],
    /// Boxes painted over.
    pub(crate) masked: usize,
}

/// The traces as the screencast's task holds them: weakly, so a session
/// dropped without stopping its traces still ends them (the last strong
/// handle writes the `end` lines) and the task then ends too.
#[derive(Debug, Clone)]
pub(crate) struct ScreencastFollow(Weak<Mutex<TracesInner>>);

impl FrameCount {
    pub(super) fn new(caps: FrameCaps) -> FrameCount {
        FrameCount {
            caps,
            kept: 0,
            bytes: 0,
            full: false,
        }
    }
}

impl ScreencastFollow {
    /// Writes `frame`, while the traces are still there; `false` once they
    /// are gone (the task ends).
    pub(crate) fn frame(&self, frame: FrameToStore) -> bool {
        match self.0.upgrade() {
            Some(inner) => {
                Traces(inner).record_frame(frame);
                true
            }
            None => false,
        }
    }

    /// Writes a line saying the tab's screencast could not be had (`why`):
    /// the trace goes on without frames.
    pub(crate) fn none(&self, tab: TabId, why: &str) {
        if let Some(inner) = self.0.upgrade() {
            Traces(inner).write_frame_line(tab, super::unix_seconds(), |_| {
                Some(TraceScreenshot::LeftOut {
                    left_out: format!("no screencast: {why}"),
                })
            });
        }
    }
}

/// Frames kept in memory for a trace written by another writer (an
/// agent's run: `rove run --trace`, a `rove test` attempt's), which takes
/// them between its own lines. Collecting stops when it is dropped.
#[derive(Debug)]
pub struct FrameCollector {
    id: u64,
    frames: Arc<Mutex<Vec<TracedFrame>>>,
    traces: Weak<Mutex<TracesInner>>,
}

impl FrameCollector {
    /// The frames taken since the last call, oldest first.
    pub fn take(&self) -> Vec<TracedFrame> {
        let mut frames =
            std::mem::take(&mut *self.frames.lock().unwrap_or_else(|p| p.into_inner()));
        frames.sort_by(|a, b| a.at.total_cmp(&b.at));
        frames
    }
}

impl Drop for FrameCollector {
    fn drop(&mut self) {
        if let Some(inner) = self.traces.upgrade() {
            let mut inner = inner.lock().unwrap_or_else(|p| p.into_inner());
            inner.collectors.retain(|c| c.id != self.id);
            if !inner.wants_frames() {
                inner.screencast = None;
            }
        }
    }
}

/// A collector as the traces hold it.
#[derive(Debug)]
pub(super) struct Collecting {
    id: u64,
    count: FrameCount,
    frames: Arc<Mutex<Vec<TracedFrame>>>,
}

impl TracesInner {
    /// Whether a trace or a collector wants the screencast.
    pub(super) fn wants_frames(&self) -> bool {
        !self.collectors.is_empty() || self.open.iter().any(|r| r.frames.is_some())
    }
}

impl Traces {
    /// Collects the focused tab's screencast, within `caps`, from the
    /// session's next command on, until the collector is dropped.
    pub fn collect_frames(&self, caps: FrameCaps) -> FrameCollector {
        let frames: Arc<Mutex<Vec<TracedFrame>>> = Arc::default();
        let mut inner = self.lock();
        inner.next_id += 1;
        let id = inner.next_id;
        inner.collectors.push(Collecting {
            id,
            count: FrameCount::new(caps),
            frames: frames.clone(),
        });
        FrameCollector {
            id,
            frames,
            traces: Arc::downgrade(&self.0),
        }
    }

    /// Makes the tab of `target` the one whose screencast is recorded:
    /// `Some` with the handle and stop signal for a task to start when a
    /// trace wants frames and none is taken of it yet (one taken of another tab is told to
    /// stop), `None` when there is nothing to start.
    pub(crate) fn follow(&self, target: &str) -> Option<(ScreencastFollow, oneshot::Receiver<()>)> {
        let mut inner = self.lock();
        if !inner.wants_frames() {
            inner.screencast = None;
            return None;
        }
        if inner
            .screencast
            .as_ref()
            .is_some_and(|r| r.target == target)
        {
            return None;
        }
        let (stop, stopped) = oneshot::channel();
        inner.screencast = Some(Running {
            target: target.to_owned(),
            _stop: stop,
        });
        Some((ScreencastFollow(Arc::downgrade(&self.0)), stopped))
    }

    /// Writes one frame to every trace that records the screencast and
    /// has room for it.
    pub(crate) fn record_frame(&self, frame: FrameToStore) {
        let FrameToStore {
            at,
            tab,
            base64,
            view,
            masked,
        } = frame;
        let size = base64.len();
        let image = format!("data:image/jpeg;base64,{base64}");
        self.write_frame_line_with(tab, at, view, masked, |count| {
            let caps = count.caps;
            if count.kept + 1 > caps.frames || count.bytes + size > caps.bytes {
                return Some(TraceScreenshot::LeftOut {
                    left_out: format!(
                        "the trace holds its most screencast frames ({} frames or {} KiB): \
                         later frames are dropped",
                        caps.frames,
                        caps.bytes >> 10
                    ),
                });
            }
            count.kept += 1;
            count.bytes += size;
            Some(TraceScreenshot::Inlined(image.clone()))
        });
    }

    fn write_frame_line(
        &self,
        tab: TabId,
        at: f64,
        image: impl FnMut(&mut FrameCount) -> Option<TraceScreenshot>,
    ) {
        self.write_frame_line_with(tab, at, [0.0, 0.0], 0, image);
    }

    /// Writes a `frame` line to each trace that records frames and is not
    /// full, its image chosen by `image` from the trace's count; a line
    /// whose image is left out marks the trace full.
    fn write_frame_line_with(
        &self,
        tab: TabId,
        at: f64,
        view: [f64; 2],
        masked: usize,
        mut image: impl FnMut(&mut FrameCount) -> Option<TraceScreenshot>,
    ) {
        // The line a trace with `count` gets, if any; a line whose image
        // is left out marks that trace full.
        let mut line_for = |count: &mut FrameCount| {
            if count.full {
                return None;
            }
            let shown = image(count)?;
            if matches!(shown, TraceScreenshot::LeftOut { .. }) {
                count.full = true;
            }
            Some(TracedFrame {
                at,
                tab: tab.to_string(),
                image: Some(shown),
                view,
                masked,
            })
        };
        let mut inner = self.lock();
        for recorder in &mut inner.open {
            if let Some(line) = recorder.frames.as_mut().and_then(&mut line_for) {
                recorder.write(&TraceLine::Frame(line));
            }
        }
        for collector in &mut inner.collectors {
            if let Some(line) = line_for(&mut collector.count) {
                collector
                    .frames
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(line);
            }
        }
    }
}
