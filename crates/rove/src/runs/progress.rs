//! `rove test`'s live progress on a terminal: one line at the bottom of
//! stderr with attempts done of all, running, not passed, tokens so far,
//! elapsed time and the estimate of what is left, redrawn a few times a
//! second. The attempts' own lines still go to stdout, printed above it.
//! Without a terminal (CI logs, pipes) or with `--json` there is no bar:
//! only the plain lines.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rove_eval::{AttemptResult, Status};

use crate::output::Output;

/// The bar, when there is a terminal to draw it on.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    jobs: usize,
    done: usize,
    not_passed: usize,
    tokens: u64,
}

impl Progress {
    /// A bar over `total` attempts, `jobs` at once, when stderr is a
    /// terminal and the output is not JSON.
    pub fn new(out: Output, total: usize, jobs: usize) -> Progress {
        let bar = (!out.json && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(
                Some(total as u64),
                ProgressDrawTarget::stderr_with_hz(4),
            );
            // A template that does not parse leaves the default style.
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:24} {pos}/{len} attempts · {msg} · {elapsed} · ETA {eta}",
            ) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(rove_base::limits::PROGRESS_TICK);
            bar
        });
        let progress = Progress {
            bar,
            total,
            jobs,
            done: 0,
            not_passed: 0,
            tokens: 0,
        };
        progress.redraw();
        progress
    }

    /// An attempt ended: its line goes to stdout above the bar.
    pub fn attempt(&mut self, out: Output, attempt: &AttemptResult, line: &str) {
        self.done += 1;
        if attempt.status != Status::Passed {
            self.not_passed += 1;
        }
        self.tokens += attempt.tokens_in + attempt.tokens_out;
        match &self.bar {
            Some(bar) => {
                bar.suspend(|| out.line(line));
                bar.set_position(self.done as u64);
            }
            None => out.line(line),
        }
        self.redraw();
    }

    fn redraw(&self) {
        if let Some(bar) = &self.bar {
            let running = self.jobs.min(self.total - self.done.min(self.total));
            bar.set_message(format!(
                "{running} running · {} not passed · {} tokens",
                self.not_passed, self.tokens
            ));
        }
    }

    /// Removes the bar before the table is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
