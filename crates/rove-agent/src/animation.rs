//! An animated GIF of a run or of any trace (`rove run --gif`, `rove trace
//! export --gif`, `rove test --video`): a frame per agent step (the page
//! after its actions, else the one the model saw), the task written above
//! and the step's goal and actions below, the final answer on the last
//! frame; for a trace of commands, its screencast frames (else each
//! command's screenshot after it) with the command written below.
//!
//! Pure Rust and no system codec: JPEG frames are decoded by `zune-jpeg`,
//! text is drawn with `ab_glyph` in a font found on the system
//! (`animation_text.rs`), and `gif` (of the image-rs family) quantizes and
//! encodes. WebM is not made: no well-kept pure-Rust VP8/VP9 or AV1 encoder
//! fits a lean build, so [`AnimationError::NoWebm`] says so. The file is
//! written as every output rove writes (`rove_base::user_file`): a FIFO,
//! a folder or a link at the path is refused; an existing file replaced;
//! owner-only, as the trace it shows.

use std::path::Path;

use base64::Engine;
use rove_commands::trace_format::{
    RunEnd, RunEnding, TraceEnd, TraceLine, TraceScreenshot, TracedCommand, TracedFrame, TracedStep,
};

pub use crate::animation_text::FontError;
use crate::animation_text::Pen;

/// The width of a frame, in pixels; screenshots are scaled to it.
pub const WIDTH: u32 = 800;
/// The tallest a page's picture is drawn (pixels; taller ones are cut at
/// the bottom, as a screen shows the top of a page).
const PICTURE_MAX: u32 = 600;
/// The text's size, in pixels.
const TEXT_PX: f32 = 17.0;
/// Lines of the task at most, and of a step's caption.
const TASK_LINES: usize = 3;
const CAPTION_LINES: usize = 6;
/// The margin around text, pixels.
const MARGIN: u32 = 10;
/// How long a step shows, and the last frame (hundredths of a second).
const STEP_DELAY: u16 = 150;
const LAST_DELAY: u16 = 400;
/// The largest JPEG frame decoded (pixels a side): a trace's are at most
/// 1,024 (screencast) or a viewport's screenshot.
const DECODE_SIDE: usize = 8_192;
/// The most frames one GIF takes from a trace's screencast; more are
/// sampled evenly.
const SCREENCAST_SLIDES: usize = 300;

/// Why a GIF was not made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// No font for the text.
    #[error(transparent)]
    Font(#[from] FontError),
    /// The trace has nothing to show (no step, no command, no frame).
    #[error("the trace has no step, command or frame to show")]
    Empty,
    /// WebM was asked for.
    #[error("WebM is not made: no well-kept encoder that needs no system codec; use --gif")]
    NoWebm,
    /// The output could not be written.
    #[error("writing {0}")]
    Write(#[from] rove_base::user_file::UserFileError),
    /// The encoder failed.
    #[error("encoding the GIF: {0}")]
    Encode(String),
}

/// What a written GIF holds.
#[derive(Debug, Clone, PartialEq)]
pub struct GifSummary {
    /// Its frames.
    pub frames: usize,
    /// Its bytes.
    pub bytes: usize,
    /// Its width and height.
    pub size: (u32, u32),
}

/// One frame to draw: a picture of the page (JPEG) and what is written
/// under it, for how long.
struct Slide {
    jpeg: Option<Vec<u8>>,
    caption: String,
    delay: u16,
}

/// Writes the GIF of a run that ended (`rove run --gif`): its lines as
/// its trace would hold them, each step's screenshot read from where the
/// run kept it.
pub fn write_run_gif(
    path: &Path,
    head: rove_commands::trace_format::RunHead,
    steps: &[crate::StepRecord],
    (ending, seconds, usage): (&RunEnding, f64, rove_llm::Usage),
) -> Result<GifSummary, AnimationError> {
    let inline = |shot: &str| match std::fs::read(shot) {
        Ok(bytes) => TraceScreenshot::Inlined(format!(
            "data:image/jpeg;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )),
        Err(e) => TraceScreenshot::LeftOut {
            left_out: e.to_string(),
        },
    };
    let mut lines = vec![TraceLine::Run(head)];
    lines.extend(
        steps
            .iter()
            .map(|s| TraceLine::Step(Box::new(crate::trace_line::traced_step(s, inline)))),
    );
    lines.push(TraceLine::End(TraceEnd::Run(Box::new(RunEnd {
        ending: ending.clone(),
        steps: steps.len(),
        seconds,
        usage: crate::trace_line::token_counts(usage),
        attempt: None,
    }))));
    write_gif(&lines, path)
}

/// Writes the GIF of `lines` (a trace's) to `path`.
pub fn write_gif(lines: &[TraceLine], path: &Path) -> Result<GifSummary, AnimationError> {
    let (title, slides) = slides_of(lines);
    if slides.is_empty() {
        return Err(AnimationError::Empty);
    }
    let pen = Pen::find(TEXT_PX)?;
    let bytes = encode(&pen, &title, &slides)?;
    rove_base::user_file::write(path, &bytes.0, rove_base::user_file::Access::Private)?;
    Ok(GifSummary {
        frames: slides.len(),
        bytes: bytes.0.len(),
        size: bytes.1,
    })
}

/// The title and the slides of a trace.
fn slides_of(lines: &[TraceLine]) -> (String, Vec<Slide>) {
    let run = lines.iter().find_map(|l| match l {
        TraceLine::Run(head) => Some(head),
        _ => None,
    });
    match run {
        Some(head) => (format!("task: {}", head.task), run_slides(lines)),
        None => ("rove trace".to_owned(), command_slides(lines)),
    }
}

fn jpeg_of(shot: Option<&TraceScreenshot>) -> Option<Vec<u8>> {
    match shot? {
        TraceScreenshot::Inlined(url) => {
            let data = url.strip_prefix("data:image/jpeg;base64,")?;
            base64::engine::general_purpose::STANDARD.decode(data).ok()
        }
        TraceScreenshot::LeftOut { .. } => None,
    }
}

/// A step's goal and actions, as written under its frame.
fn step_caption(step: &TracedStep) -> String {
    let goal = step
        .thought
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let actions: Vec<String> = step
        .actions
        .iter()
        .map(|a| {
            let target = a
                .target
                .as_ref()
                .map(|t| format!(" {} \"{}\"", t.role, t.name))
                .unwrap_or_default();
            let failed = if a.failed { " (failed)" } else { "" };
            format!("{} {}{target}{failed}", a.tool, a.arguments)
        })
        .collect();
    let mut caption = format!("step {}", step.number);
    if !goal.is_empty() {
        caption.push_str(&format!(": {}", goal.trim()));
    }
    if !actions.is_empty() {
        caption.push_str(&format!("\n→ {}", actions.join("; ")));
    }
    caption
}

fn run_slides(lines: &[TraceLine]) -> Vec<Slide> {
    let mut slides: Vec<Slide> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Step(step) => Some(Slide {
                jpeg: jpeg_of(step.screenshot_after.as_ref())
                    .or_else(|| jpeg_of(step.screenshot.as_ref())),
                caption: step_caption(step),
                delay: STEP_DELAY,
            }),
            _ => None,
        })
        .collect();
    let end = lines.iter().find_map(|l| match l {
        TraceLine::End(TraceEnd::Run(end)) => Some(&**end),
        _ => None,
    });
    if let Some(end) = end {
        let jpeg = slides.iter().rev().find_map(|s| s.jpeg.clone());
        slides.push(Slide {
            jpeg,
            caption: ending_caption(end),
            delay: LAST_DELAY,
        });
    }
    slides
}

fn ending_caption(end: &RunEnd) -> String {
    let status = end
        .attempt
        .as_ref()
        .map(|a| format!(" · {}", a.status))
        .unwrap_or_default();
    let how = match &end.ending {
        RunEnding::Done { text, success } => format!(
            "answer ({}): {text}",
            if *success { "success" } else { "no success" }
        ),
        RunEnding::Failures {
            answer: Some(answer),
            ..
        } => format!("answer after too many failures: {answer}"),
        RunEnding::Failures { .. } => "ended: too many failed steps".to_owned(),
        RunEnding::MaxSteps => "ended: the step limit".to_owned(),
        RunEnding::Timeout { .. } => "ended: out of time".to_owned(),
        RunEnding::Loop => "ended: the same actions again and again".to_owned(),
        RunEnding::Challenge { kind, .. } => format!("ended: a challenge ({kind})"),
        RunEnding::Error { .. } => "ended: an error".to_owned(),
        RunEnding::Interrupted { .. } => "ended: interrupted".to_owned(),
        RunEnding::Other => "ended".to_owned(),
    };
    format!("{how}{status} · {} steps, {:.1} s", end.steps, end.seconds)
}

fn command_caption(n: usize, command: &TracedCommand) -> String {
    let state = match (&command.error, command.ok) {
        (Some(e), _) => format!(" → {}", e.code.as_str()),
        (None, true) => String::new(),
        (None, false) => " → failed".to_owned(),
    };
    format!("{n}. {} {}{state}", command.name, command.args)
}

fn command_slides(lines: &[TraceLine]) -> Vec<Slide> {
    let commands: Vec<&TracedCommand> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Command(c) => Some(&**c),
            _ => None,
        })
        .collect();
    let frames: Vec<&TracedFrame> = lines
        .iter()
        .filter_map(|l| match l {
            TraceLine::Frame(f) if matches!(f.image, Some(TraceScreenshot::Inlined(_))) => Some(f),
            _ => None,
        })
        .collect();
    if frames.is_empty() {
        return commands
            .iter()
            .enumerate()
            .map(|(i, c)| Slide {
                jpeg: c
                    .screenshots
                    .as_ref()
                    .and_then(|s| jpeg_of(s.after.as_ref()).or_else(|| jpeg_of(s.before.as_ref()))),
                caption: command_caption(i + 1, c),
                delay: STEP_DELAY,
            })
            .collect();
    }
    // Every frame when few, else an even sample; each shows as long as
    // the page stayed so (within 0.1 and 2 s), captioned with the command
    // that was running or last ran.
    let step = frames.len().div_ceil(SCREENCAST_SLIDES).max(1);
    let picked: Vec<&TracedFrame> = frames.iter().step_by(step).copied().collect();
    picked
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let next = picked.get(i + 1).map_or(f.at + 2.0, |n| n.at);
            let delay = ((next - f.at) * 100.0).clamp(10.0, 200.0) as u16;
            let caption = commands
                .iter()
                .enumerate()
                .rev()
                .find(|(_, c)| c.started <= f.at)
                .map_or_else(String::new, |(n, c)| command_caption(n + 1, c));
            Slide {
                jpeg: jpeg_of(f.image.as_ref()),
                caption,
                delay,
            }
        })
        .collect()
}

/// A JPEG decoded to RGB: (width, height, pixels); `None` when it is no
/// JPEG rove can read (the frame is then drawn without a picture).
fn decode(jpeg: &[u8]) -> Option<(usize, usize, Vec<u8>)> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    use zune_jpeg::zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .set_max_width(DECODE_SIDE)
        .set_max_height(DECODE_SIDE)
        .jpeg_set_out_colorspace(ColorSpace::RGB);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(jpeg), options);
    let pixels = decoder.decode().ok()?;
    let (w, h) = decoder.dimensions()?;
    (w > 0 && h > 0 && pixels.len() == w * h * 3).then_some((w, h, pixels))
}

/// `src` (w × h RGB) scaled to `dst_w` wide, the top `dst_h` rows of it,
/// each pixel the mean of the source pixels it covers.
fn scaled(src: &(usize, usize, Vec<u8>), dst_w: usize, dst_h: usize) -> Vec<u8> {
    let (w, h, pixels) = src;
    let ratio = *w as f64 / dst_w as f64;
    let mut out = vec![255u8; dst_w * dst_h * 3];
    for y in 0..dst_h {
        let y0 = (y as f64 * ratio) as usize;
        let y1 = (((y + 1) as f64 * ratio) as usize).clamp(y0 + 1, *h);
        if y0 >= *h {
            break;
        }
        for x in 0..dst_w {
            let x0 = (x as f64 * ratio) as usize;
            let x1 = (((x + 1) as f64 * ratio) as usize).clamp(x0 + 1, *w);
            let mut sum = [0u32; 3];
            for sy in y0..y1 {
                for sx in x0.min(w - 1)..x1 {
                    let at = (sy * w + sx) * 3;
                    for k in 0..3 {
                        sum[k] += u32::from(pixels[at + k]);
                    }
                }
            }
            let n = ((y1 - y0) * (x1 - x0.min(w - 1))).max(1) as u32;
            let at = (y * dst_w + x) * 3;
            for k in 0..3 {
                out[at + k] = (sum[k] / n) as u8;
            }
        }
    }
    out
}

/// The GIF's bytes and its size.
fn encode(
    pen: &Pen,
    title: &str,
    slides: &[Slide],
) -> Result<(Vec<u8>, (u32, u32)), AnimationError> {
    let text_width = (WIDTH - 2 * MARGIN) as f32;
    let line = pen.line_height();
    // Written as a trace's text is: through the process's redaction.
    let hide = rove_base::redact::scrub;
    let title_lines = pen.wrap(&hide(title), text_width, TASK_LINES);
    let captions: Vec<Vec<String>> = slides
        .iter()
        .map(|s| pen.wrap(&hide(&s.caption), text_width, CAPTION_LINES))
        .collect();
    let pictures: Vec<Option<(usize, usize, Vec<u8>)>> = slides
        .iter()
        .map(|s| s.jpeg.as_deref().and_then(decode))
        .collect();
    // One size for every frame: the tallest picture (within the cap) and
    // the longest caption.
    let picture_h = pictures
        .iter()
        .flatten()
        .map(|(w, h, _)| ((*h as f64) * f64::from(WIDTH) / (*w as f64)).round() as u32)
        .max()
        .unwrap_or(WIDTH / 2)
        .clamp(1, PICTURE_MAX);
    let top = title_lines.len() as u32 * line + 2 * MARGIN;
    let bottom = captions.iter().map(Vec::len).max().unwrap_or(1).max(1) as u32 * line + 2 * MARGIN;
    let height = top + picture_h + bottom;
    let too_big = |_| AnimationError::Encode(format!("a frame of {WIDTH}x{height} is too large"));
    let (gw, gh) = (
        u16::try_from(WIDTH).map_err(too_big)?,
        u16::try_from(height).map_err(too_big)?,
    );
    let mut bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut bytes, gw, gh, &[])
            .map_err(|e| AnimationError::Encode(e.to_string()))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| AnimationError::Encode(e.to_string()))?;
        for ((slide, caption), picture) in slides.iter().zip(&captions).zip(&pictures) {
            let mut rgb = vec![255u8; (WIDTH * height * 3) as usize];
            fill(&mut rgb, 0..top, [32, 36, 44]);
            fill(&mut rgb, top + picture_h..height, [32, 36, 44]);
            if let Some(picture) = picture {
                let h = ((picture.1 as f64) * f64::from(WIDTH) / (picture.0 as f64)).round() as u32;
                let shown = scaled(picture, WIDTH as usize, h.min(picture_h) as usize);
                let start = (top * WIDTH * 3) as usize;
                rgb[start..start + shown.len()].copy_from_slice(&shown);
            }
            for (i, text) in title_lines.iter().enumerate() {
                let y = (MARGIN + i as u32 * line) as f32;
                pen.draw(&mut rgb, WIDTH, (MARGIN as f32, y), text, [255, 255, 255]);
            }
            for (i, text) in caption.iter().enumerate() {
                let y = (top + picture_h + MARGIN + i as u32 * line) as f32;
                pen.draw(&mut rgb, WIDTH, (MARGIN as f32, y), text, [250, 220, 120]);
            }
            let mut frame = gif::Frame::from_rgb_speed(gw, gh, &rgb, 10);
            frame.delay = slide.delay;
            encoder
                .write_frame(&frame)
                .map_err(|e| AnimationError::Encode(e.to_string()))?;
        }
    }
    Ok((bytes, (WIDTH, height)))
}

/// Paints rows `rows` of `rgb` in `colour`.
fn fill(rgb: &mut [u8], rows: std::ops::Range<u32>, colour: [u8; 3]) {
    let start = (rows.start * WIDTH * 3) as usize;
    let end = ((rows.end * WIDTH * 3) as usize).min(rgb.len());
    for px in rgb[start..end].chunks_exact_mut(3) {
        px.copy_from_slice(&colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn lines(values: &[Value]) -> Vec<TraceLine> {
        values
            .iter()
            .map(|v| TraceLine::parse(&v.to_string()).expect("a line"))
            .collect()
    }

    #[test]
    fn a_run_gives_a_slide_per_step_and_one_for_the_answer() {
        let run = lines(&[
            json!({"kind": "run", "task": "Buy a lamp", "model": "m"}),
            json!({"kind": "step", "number": 1, "thought": "Open the shop\nthen look", "actions": [
                {"tool": "click", "arguments": {"ref": "e7"}, "target": {"role": "button", "name": "Lamp"}, "result": "ok", "failed": false}]}),
            json!({"kind": "step", "number": 2, "thought": "", "actions": [
                {"tool": "click", "arguments": {"ref": "e9"}, "result": "no", "failed": true}]}),
            json!({"kind": "end", "ending": {"reason": "done", "text": "bought it", "success": true}, "steps": 2, "seconds": 3.5}),
        ]);
        let (title, slides) = slides_of(&run);
        assert_eq!(title, "task: Buy a lamp");
        assert_eq!(slides.len(), 3);
        assert_eq!(
            slides[0].caption,
            "step 1: Open the shop\n→ click {\"ref\":\"e7\"} button \"Lamp\""
        );
        assert!(
            slides[1].caption.ends_with("(failed)"),
            "{}",
            slides[1].caption
        );
        assert!(slides[2].caption.starts_with("answer (success): bought it"));
        assert_eq!(slides[2].delay, LAST_DELAY);
    }

    #[test]
    fn a_command_trace_gives_its_frames_captioned_with_their_command() {
        let jpeg = "data:image/jpeg;base64,AAAA";
        let trace = lines(&[
            json!({"kind": "trace", "face": "cli"}),
            json!({"kind": "command", "seq": 1, "name": "open", "args": {"url": "x"}, "started": 10.0, "ms": 500.0, "ok": true}),
            json!({"kind": "frame", "at": 10.2, "tab": "t1", "image": jpeg, "view": [800.0, 600.0]}),
            json!({"kind": "command", "seq": 2, "name": "click", "args": {"ref": "e1"}, "started": 11.0, "ms": 100.0, "ok": true}),
            json!({"kind": "frame", "at": 11.05, "tab": "t1", "image": jpeg, "view": [800.0, 600.0]}),
            json!({"kind": "frame", "at": 11.5, "tab": "t1", "image": {"left_out": "cap"}, "view": [0.0, 0.0]}),
        ]);
        let (_, slides) = slides_of(&trace);
        assert_eq!(slides.len(), 2, "the left-out frame is no slide");
        assert!(slides[0].caption.starts_with("1. open"));
        assert!(slides[1].caption.starts_with("2. click"));
        assert_eq!(slides[0].delay, 85, "as long as the page stayed so");
    }

    #[test]
    fn nothing_to_show_is_said() {
        let empty = lines(&[json!({"kind": "trace", "face": "cli"})]);
        let path = std::env::temp_dir().join(format!("rove-empty-{}.gif", std::process::id()));
        assert!(matches!(
            write_gif(&empty, &path),
            Err(AnimationError::Empty)
        ));
        assert!(!path.exists());
    }
}
