//! `rove test --video on-failure|always|off`: an animated GIF of an
//! attempt beside its trace (`traces/<task>-<n>.gif`), made from the trace
//! as each attempt ends (rove-agent's `animation.rs`, as `rove trace export
//! --gif` makes it), then linked from report.html and attached in JUnit.
//! A video is made of the trace, so `--video` needs the traces it shows
//! (`--out`, and `--traces` keeping them) and takes the screenshot after
//! each step's actions.

use std::path::Path;

use rove_eval::{AttemptResult, Status};

use crate::failure::Failure;

/// Which attempts get a video.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Video {
    /// None.
    Off,
    /// Every attempt that ran and did not pass.
    OnFailure,
    /// Every attempt that ran.
    Always,
}

impl Video {
    /// `--video WHEN` with the traces it needs: the traces `--traces`
    /// named (`None` when not given) turned into those the videos need,
    /// or why the two cannot go together.
    pub(crate) fn of(
        when: &str,
        traces: Option<&str>,
        out: Option<&Path>,
    ) -> Result<(Video, Option<String>), Failure> {
        let video = match when {
            "on-failure" => Video::OnFailure,
            "always" => Video::Always,
            _ => Video::Off,
        };
        if video == Video::Off {
            return Ok((video, traces.map(str::to_owned)));
        }
        let rejected = |message: String, hint: &str| {
            Failure::new(rove_errors::ErrorCode::CommandRejected, message, hint)
        };
        if out.is_none() {
            return Err(rejected(
                format!("--video {when} writes under --out, and there is none"),
                "add --out DIR (videos go to DIR/traces/)",
            ));
        }
        let needed = match video {
            Video::Always => "all",
            _ => "failed",
        };
        match traces {
            None => Ok((video, Some(needed.to_owned()))),
            Some("all") => Ok((video, Some("all".to_owned()))),
            Some(which) if which == needed => Ok((video, Some(which.to_owned()))),
            Some(which) => Err(rejected(
                format!(
                    "--video {when} is made of the attempts' traces, and --traces {which} keeps too few"
                ),
                &format!("drop --traces, or give --traces {needed}"),
            )),
        }
    }

    /// Whether `attempt` gets one.
    pub(crate) fn wants(self, attempt: &AttemptResult) -> bool {
        match self {
            Video::Off => false,
            Video::Always => attempt.status != Status::Skipped,
            Video::OnFailure => !matches!(attempt.status, Status::Passed | Status::Skipped),
        }
    }
}

/// The GIF of the attempt's trace beside it, when one is wanted; `None`
/// (said in the log) when it cannot be made: the attempt's result stands.
pub(crate) fn write_video(video: Video, attempt: &AttemptResult) -> Option<String> {
    if !video.wants(attempt) {
        return None;
    }
    let trace = Path::new(attempt.trace.as_deref()?);
    let gif = trace.with_extension("gif");
    let made = rove_base::user_file::read_text(trace, rove_base::limits::TRACE_FILE_BYTES)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            let lines = crate::trace_html::read_lines(&text);
            rove_agent::write_gif(&lines, &gif).map_err(|e| e.to_string())
        });
    match made {
        Ok(_) => Some(gif.display().to_string()),
        Err(e) => {
            tracing::warn!(path = %gif.display(), error = %e, "could not write an attempt's video");
            None
        }
    }
}
