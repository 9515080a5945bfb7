//! The filmstrip of a trace that recorded the page's screencast (`rove
//! trace start --screencast`, `--trace-screencast`): a strip of ticks under
//! the commands or steps, one per
//! frame in time order, and the frame shown large above it with links to
//! the one before and after. Without a script: each frame is an anchor
//! target, shown while the address names it (`:target`), the first one
//! until then; a tick's title says when the frame came and among which
//! command or step. Each command's frame (the last painted before it
//! ended) or step's (the last written before its line) is a marked tick,
//! linked from its section, and a click's point is drawn on it where it
//! pressed.

use std::fmt::Write as _;

use rove_base::text::html_escaped as esc;
use rove_commands::trace_format::{TraceScreenshot, TracedCommand, TracedFrame};

pub const STYLE: &str = ".film{border-top:1px solid #ddd;margin-top:1em}.strip{display:flex;gap:1px;height:1.6em;margin:.4em 0;overflow-x:auto}\
.tick{flex:1 0 4px;background:#bbb;color:#fff;font-size:11px;text-align:center;text-decoration:none;line-height:1.6em;border-radius:2px}\
.tick.act{background:#36c;flex-basis:1.4em}.tick:hover{background:#e93}.frames figure{display:none;margin:0}\
.frames figure:first-child{display:block}.frames:has(figure:target) figure:first-child:not(:target){display:none}.frames figure:target{display:block}\
.shot{position:relative;display:inline-block;max-width:100%}.shot img{max-width:100%;display:block;border:1px solid #ccc;margin:0}\
.dot{position:absolute;width:18px;height:18px;margin:-10px 0 0 -10px;border:2px solid #e22;border-radius:50%;background:rgba(230,30,30,.35)}";

/// A frame the page shows: its line, its place among the trace's frame
/// lines, and its image.
struct Shown<'a> {
    frame: &'a TracedFrame,
    index: usize,
    url: &'a str,
}

/// Where an entry's frame is.
#[derive(Debug, Clone, Copy)]
pub enum Place {
    /// A command's: the last painted before it ended, else the first
    /// after it began (seconds since the epoch).
    During {
        /// When it began.
        started: f64,
        /// When it ended.
        ended: f64,
    },
    /// A step's: the last kept of the first this many frame lines (the
    /// frames written before its line).
    After(usize),
}

/// An entry of the trace (a command, a step) the filmstrip marks.
#[derive(Debug, Clone)]
pub struct Mark {
    /// What its tick says (`3`).
    pub tick: String,
    /// What its frame's caption and title say (`command 3 (click)`).
    pub label: String,
    /// Where it clicked (each click of an agent's step), CSS pixels of
    /// the viewport.
    pub pointers: Vec<[f64; 2]>,
    /// Where its frame is.
    pub place: Place,
}

/// The index (into the frames kept) of the frame at `place`.
fn frame_of(frames: &[Shown<'_>], place: Place) -> Option<usize> {
    match place {
        Place::During { started, ended } => frames
            .iter()
            .rposition(|f| f.frame.at <= ended)
            .or_else(|| frames.iter().position(|f| f.frame.at >= started)),
        Place::After(n) => frames.iter().rposition(|f| f.index < n),
    }
}

/// The labels of the entries a frame belongs to, in order.
fn labels(marks: &[&Mark]) -> String {
    let labels: Vec<&str> = marks.iter().map(|m| m.label.as_str()).collect();
    labels.join(", ")
}

/// A command's mark.
pub fn command_mark(n: usize, command: &TracedCommand) -> Mark {
    Mark {
        tick: n.to_string(),
        label: format!("command {n} ({})", command.name),
        pointers: command.pointer.into_iter().collect(),
        place: Place::During {
            started: command.started,
            ended: command.started + command.ms / 1000.0,
        },
    }
}

/// The frames' section, and for each mark the anchor of its frame
/// (`None` without frames).
pub fn filmstrip(frames: &[&TracedFrame], marks: &[Mark]) -> (String, Vec<Option<String>>) {
    let kept: Vec<Shown<'_>> = frames
        .iter()
        .enumerate()
        .filter_map(|(index, f)| match &f.image {
            Some(TraceScreenshot::Inlined(url)) if url.starts_with("data:image/jpeg;base64,") => {
                Some(Shown {
                    frame: f,
                    index,
                    url,
                })
            }
            _ => None,
        })
        .collect();
    let notes: Vec<&str> = frames
        .iter()
        .filter_map(|f| match &f.image {
            Some(TraceScreenshot::LeftOut { left_out }) => Some(left_out.as_str()),
            _ => None,
        })
        .collect();
    if kept.is_empty() && notes.is_empty() {
        return (String::new(), vec![None; marks.len()]);
    }
    // The entries each frame belongs to (several when no frame was
    // painted between them: a click then a wait on a still page), and
    // where each clicked. No entry hides another's point.
    let mut owners: Vec<Vec<&Mark>> = vec![Vec::new(); kept.len()];
    let mut anchors = Vec::with_capacity(marks.len());
    for mark in marks {
        match frame_of(&kept, mark.place) {
            Some(f) => {
                owners[f].push(mark);
                anchors.push(Some(format!("frame-{}", f + 1)));
            }
            None => anchors.push(None),
        }
    }
    let first = kept.first().map_or(0.0, |f| f.frame.at);
    let mut page = format!(
        "<section class=film><h2>Screencast: {} frames</h2>\n",
        kept.len()
    );
    for note in notes {
        let _ = writeln!(page, "<p class=meta>{}</p>", esc(note));
    }
    page.push_str("<div class=frames>");
    let total = kept.len();
    for (i, shown) in kept.iter().enumerate() {
        let n = i + 1;
        let when = shown.frame.at - first;
        let mut caption = format!(
            "frame {n} of {total} · {when:.2} s · tab {}",
            shown.frame.tab
        );
        let mut dot = String::new();
        if !owners[i].is_empty() {
            let _ = write!(caption, " · after {}", labels(&owners[i]));
        }
        let [w, h] = shown.frame.view;
        for (mark, [x, y]) in owners[i]
            .iter()
            .flat_map(|m| m.pointers.iter().map(move |p| (m, *p)))
        {
            if w > 0.0 && h > 0.0 {
                let _ = write!(
                    dot,
                    "<span class=dot title=\"{} at ({x:.0}, {y:.0})\" style=\"left:{:.2}%;top:{:.2}%\"></span>",
                    esc(&mark.label),
                    x / w * 100.0,
                    y / h * 100.0
                );
            }
        }
        if shown.frame.masked > 0 {
            let _ = write!(
                caption,
                " · {} secret boxes painted out",
                shown.frame.masked
            );
        }
        let _ = write!(
            page,
            "<figure id=frame-{n}><div class=shot><img alt=\"frame {n}\" src=\"{}\">{dot}</div><figcaption class=meta>{}",
            esc(shown.url),
            esc(&caption)
        );
        if n > 1 {
            let _ = write!(page, " · <a href=\"#frame-{}\">‹ previous</a>", n - 1);
        }
        if n < total {
            let _ = write!(page, " · <a href=\"#frame-{}\">next ›</a>", n + 1);
        }
        page.push_str("</figcaption></figure>\n");
    }
    page.push_str("</div><nav class=strip>");
    for (i, shown) in kept.iter().enumerate() {
        let n = i + 1;
        let when = shown.frame.at - first;
        let (class, label, title) = if owners[i].is_empty() {
            ("tick", String::new(), format!("frame {n} · {when:.2} s"))
        } else {
            let ticks: Vec<&str> = owners[i].iter().map(|m| m.tick.as_str()).collect();
            (
                "tick act",
                ticks.join(","),
                format!("frame {n} · {when:.2} s · {}", labels(&owners[i])),
            )
        };
        let _ = write!(
            page,
            "<a class=\"{class}\" href=\"#frame-{n}\" title=\"{}\">{label}</a>",
            esc(&title)
        );
    }
    page.push_str("</nav></section>\n");
    (page, anchors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(at: f64) -> TracedFrame {
        TracedFrame {
            at,
            tab: "t1".into(),
            image: Some(TraceScreenshot::Inlined(
                "data:image/jpeg;base64,AA==".into(),
            )),
            view: [1000.0, 500.0],
            masked: 0,
        }
    }

    fn mark(tick: &str, pointer: Option<[f64; 2]>, started: f64, ended: f64) -> Mark {
        Mark {
            tick: tick.into(),
            label: format!("command {tick}"),
            pointers: pointer.into_iter().collect(),
            place: Place::During { started, ended },
        }
    }

    #[test]
    fn a_frame_shared_by_a_click_and_a_later_command_keeps_the_click_point() {
        // No frame was painted after the click: the click and the wait
        // after it both belong to the second frame.
        let frames = [frame(10.0), frame(11.0)];
        let refs: Vec<&TracedFrame> = frames.iter().collect();
        let marks = [
            mark("1", None, 9.0, 10.5),
            mark("2", Some([250.0, 100.0]), 10.9, 11.2),
            mark("3", None, 11.2, 12.4),
        ];
        let (page, anchors) = filmstrip(&refs, &marks);
        assert_eq!(
            anchors,
            [
                Some("frame-1".into()),
                Some("frame-2".into()),
                Some("frame-2".into())
            ]
        );
        assert!(page.contains("after command 2, command 3"), "{page}");
        assert!(page.contains("left:25.00%;top:20.00%"), "{page}");
        assert!(page.contains(">2,3</a>"), "{page}");
    }
}
