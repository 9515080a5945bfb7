//! Downloads land in a per-session folder and are reported with path and
//! size by the command that caused them.
//!
//! Chromium writes each download of the session's context under its guid in
//! that folder (`Browser.setDownloadBehavior` with `allowAndName`, which is
//! per context, so another session's files never land here); when one
//! completes, rove renames it to the name the site suggested, never
//! overwriting an earlier file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use rove_browser::BrowserContext;
use rove_cdp::protocol::browser;
use tokio::sync::watch;

use crate::CommandError;
use crate::answer::outcome::Download;

#[derive(Debug, Clone)]
enum State {
    Running,
    Done(Download),
    Failed,
}

#[derive(Debug, Clone)]
struct Record {
    guid: String,
    url: String,
    suggested: String,
    state: State,
}

/// The session's downloads, followed from the browser's events.
#[derive(Debug)]
pub(crate) struct Downloads {
    dir: PathBuf,
    records: Arc<Mutex<Vec<Record>>>,
    changes: watch::Receiver<u64>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Downloads {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn lock(records: &Mutex<Vec<Record>>) -> MutexGuard<'_, Vec<Record>> {
    records.lock().unwrap_or_else(|p| p.into_inner())
}

impl Downloads {
    /// Points the context's downloads at `dir` (or a fresh private folder)
    /// and starts following them.
    pub(crate) async fn start(
        context: &BrowserContext,
        dir: Option<PathBuf>,
    ) -> Result<Downloads, CommandError> {
        let dir = match dir {
            Some(dir) => {
                rove_base::private::create_private_dirs(&dir)
                    .map_err(|e| CommandError::io(format!("creating {}", dir.display()), e))?;
                dir
            }
            None => fresh_dir()?,
        };
        let conn = context.browser().connection().await?;
        let mut events = conn.subscribe(None);
        conn.browser()
            .send(&browser::SetDownloadBehavior {
                behavior: browser::SetDownloadBehaviorBehavior::AllowAndName,
                browser_context_id: Some(context.id().to_owned()),
                download_path: Some(dir.to_string_lossy().into_owned()),
                events_enabled: Some(true),
            })
            .await?;
        let records: Arc<Mutex<Vec<Record>>> = Arc::default();
        let (tx, changes) = watch::channel(0u64);
        let task = {
            let records = records.clone();
            let dir = dir.clone();
            tokio::spawn(async move {
                loop {
                    let event = match events.recv().await {
                        Ok(event) => event,
                        Err(rove_cdp::EventStreamError::Lagged(_)) => continue,
                        Err(rove_cdp::EventStreamError::Closed) => return,
                    };
                    if let Some(Ok(begun)) = event.as_event::<browser::DownloadWillBegin>() {
                        let suggested = Some(begun.suggested_filename)
                            .filter(|s| !s.is_empty())
                            .unwrap_or_else(|| "download".to_owned());
                        lock(&records).push(Record {
                            guid: begun.guid,
                            url: begun.url,
                            suggested,
                            state: State::Running,
                        });
                    } else if let Some(Ok(progress)) = event.as_event::<browser::DownloadProgress>()
                    {
                        if progress.state == browser::DownloadProgressState::InProgress {
                            continue;
                        }
                        let mut list = lock(&records);
                        let Some(record) = list.iter_mut().find(|r| r.guid == progress.guid) else {
                            continue;
                        };
                        record.state = match progress.state {
                            browser::DownloadProgressState::Completed => finish(&dir, record),
                            _ => State::Failed,
                        };
                    } else {
                        continue;
                    }
                    tx.send_modify(|v| *v += 1);
                }
            })
        };
        Ok(Downloads {
            dir,
            records,
            changes,
            task,
        })
    }

    /// The folder downloads land in.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many downloads have begun and not yet finished or failed.
    pub(crate) fn running(&self) -> usize {
        lock(&self.records)
            .iter()
            .filter(|r| matches!(r.state, State::Running))
            .count()
    }

    /// A mark: downloads begun after it belong to the next command.
    pub(crate) fn mark(&self) -> usize {
        lock(&self.records).len()
    }

    /// The downloads begun since `mark` that finished, waiting (capped) for
    /// the ones still running.
    pub(crate) async fn finished_since(&self, mark: usize) -> Vec<Download> {
        let running = |records: &[Record]| {
            records
                .iter()
                .skip(mark)
                .any(|r| matches!(r.state, State::Running))
        };
        if running(&lock(&self.records)) {
            let mut changes = self.changes.clone();
            let _ = tokio::time::timeout(
                rove_base::limits::DOWNLOADS_REPORTED,
                changes.wait_for(|_| !running(&lock(&self.records))),
            )
            .await;
        }
        lock(&self.records)
            .iter()
            .skip(mark)
            .filter_map(|r| match &r.state {
                State::Done(d) => Some(d.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Renames a completed download to its suggested name. A download whose
/// file is not in this folder belongs to another context.
fn finish(dir: &Path, record: &Record) -> State {
    let from = dir.join(&record.guid);
    let Ok(meta) = std::fs::metadata(&from) else {
        return State::Failed;
    };
    let to = free_name(dir, &record.suggested);
    let path = match std::fs::rename(&from, &to) {
        Ok(()) => to,
        Err(_) => from,
    };
    State::Done(Download {
        path,
        bytes: meta.len(),
        url: record.url.clone(),
    })
}

/// `name`, or `name (1)`, `name (2)` … before the extension, whichever is
/// free. Path separators in a site's suggestion are not trusted.
fn free_name(dir: &Path, suggested: &str) -> PathBuf {
    let clean: String = suggested
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c == '\0' {
                '_'
            } else {
                c
            }
        })
        .collect();
    let clean = match clean.trim_start_matches('.') {
        "" => "download".to_owned(),
        rest => rest.to_owned(),
    };
    let (stem, ext) = match clean.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s.to_owned(), format!(".{e}")),
        _ => (clean.clone(), String::new()),
    };
    let mut candidate = dir.join(&clean);
    let mut n = 1;
    while candidate.exists() {
        candidate = dir.join(format!("{stem} ({n}){ext}"));
        n += 1;
    }
    candidate
}

/// A new folder for one session's downloads.
fn fresh_dir() -> Result<PathBuf, CommandError> {
    crate::private::fresh_private_folder("downloads")
}

#[cfg(test)]
mod tests {
    use super::free_name;

    #[test]
    fn downloads_never_overwrite_and_never_escape() {
        let dir = std::env::temp_dir().join(format!("rove-free-name-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        assert_eq!(free_name(&dir, "a.txt"), dir.join("a.txt"));
        std::fs::write(dir.join("a.txt"), "1").expect("write");
        assert_eq!(free_name(&dir, "a.txt"), dir.join("a (1).txt"));
        assert_eq!(free_name(&dir, "../../etc/x"), dir.join("_.._etc_x"));
        assert_eq!(free_name(&dir, ""), dir.join("download"));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
