//! `rove trace export FILE --gif OUT.gif`: a trace as an animated GIF
//! (rove-agent's `animation.rs` draws it). `--webm` is refused with the
//! reason. The output path is judged before the trace is read, as every
//! output file is (`rove_base::user_file`): a FIFO, a folder or a link
//! there is refused untouched, an existing file is replaced.

use crate::cli::side::TraceExportArgs;
use crate::failure::Failure;
use crate::output::Output;

/// Writes the GIF; the exit status.
pub fn export(args: &TraceExportArgs, out: Output) -> u8 {
    let failed = |message: String, hint: &str| {
        let failure = Failure::new(rove_errors::ErrorCode::CommandRejected, message, hint);
        out.failure(&failure, None);
        failure.exit_status()
    };
    let Some(target) = &args.gif else {
        return failed(
            rove_agent::AnimationError::NoWebm.to_string(),
            "export a GIF instead: rove trace export FILE --gif OUT.gif",
        );
    };
    if let Err(e) = rove_base::user_file::check_output_file(target) {
        return failed(format!("--gif {e}"), "give a file path rove can write to");
    }
    let text =
        match rove_base::user_file::read_text(&args.file, rove_base::limits::TRACE_FILE_BYTES) {
            Ok(text) => text,
            Err(e) => return failed(format!("reading {e}"), "give a trace rove wrote"),
        };
    let lines = crate::trace_html::read_lines(&text);
    let started = std::time::Instant::now();
    match rove_agent::write_gif(&lines, target) {
        Ok(gif) => {
            let seconds = started.elapsed().as_secs_f64();
            out.line(&format!(
                "wrote {}: {} frames, {}x{}, {} KiB in {seconds:.1} s",
                target.display(),
                gif.frames,
                gif.size.0,
                gif.size.1,
                gif.bytes.div_ceil(1024)
            ));
            out.success(serde_json::json!({
                "path": target, "frames": gif.frames, "bytes": gif.bytes,
                "width": gif.size.0, "height": gif.size.1, "seconds": seconds,
            }));
            0
        }
        Err(e) => failed(e.to_string(), hint_for(&e)),
    }
}

/// The next thing to try after `error`.
fn hint_for(error: &rove_agent::AnimationError) -> &'static str {
    use rove_agent::AnimationError as E;
    match error {
        E::Font(_) => "set ROVE_FONT to a .ttf file, or install fonts-dejavu-core",
        E::Empty => "give a trace that holds steps, commands or screencast frames",
        E::NoWebm => "export a GIF instead: --gif OUT.gif",
        E::Write(_) => "give a file path rove can write to",
        E::Encode(_) => "report it with the trace: the GIF encoder failed on it",
    }
}
