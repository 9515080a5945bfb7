//! Files a person, a task or a model named: opened without ever blocking,
//! and only when they are regular files.
//!
//! A path can name a named pipe, a device or a socket as easily as a file.
//! Opening a FIFO waits for its other end (for ever, and a whole session
//! with it); `/dev/zero` reads without end. So every reader and writer of a
//! user-named path (task files, state files, price tables, traces, HAR
//! files, screenshots and PDFs, reports) opens it here: with `O_NONBLOCK`,
//! then judges what was opened with `fstat` on the open descriptor (never a
//! `stat` before the `open`, which a swap in between would defeat), refuses
//! anything but a regular file with [`UserFileError::NotRegular`], and
//! reads at most a given number of bytes. A file about to be replaced is
//! emptied only once it is known to be a regular file.
//!
//! The `check_output_*` functions let a command refuse a bad output path
//! before it does any work, instead of failing once the work is done.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of a private file (0600): its owner's alone.
pub(crate) const FILE_MODE: u32 = 0o600;

/// Who may read a file rove writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Its owner only (0600): traces, storage state, HAR files, anything
    /// that may hold what a page showed or a credential.
    Private,
    /// As the process's umask allows (reports, screenshots the person
    /// asked for at a path of their choosing).
    Shared,
}

/// Why a user-named file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum UserFileError {
    /// The path names something other than a regular file.
    #[error("{}: is {what}, not a regular file", path.display())]
    NotRegular {
        /// The path as given.
        path: PathBuf,
        /// What it is: "a named pipe (FIFO)", "a character device" …
        what: &'static str,
    },
    /// A folder was needed and the path names something else.
    #[error("{}: is {what}, not a folder", path.display())]
    NotFolder {
        /// The path as given.
        path: PathBuf,
        /// What it is.
        what: &'static str,
    },
    /// The file holds more than a reader takes.
    #[error("{}: larger than {limit} bytes, the most rove reads from such a file", path.display())]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The most bytes read.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text", path.display())]
    NotText {
        /// The path as given.
        path: PathBuf,
    },
    /// The system refused (missing, no permission, a folder on the way
    /// that is a file …).
    #[error("{}: {source}", path.display())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl UserFileError {
    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            UserFileError::NotRegular { path, .. }
            | UserFileError::NotFolder { path, .. }
            | UserFileError::TooLarge { path, .. }
            | UserFileError::NotText { path }
            | UserFileError::Io { path, .. } => path,
        }
    }

    /// As an `io::Error` for callers that speak `io::Result` and name the
    /// path themselves: the reason without the path.
    pub fn into_io(self) -> std::io::Error {
        match self {
            UserFileError::Io { source, .. } => source,
            UserFileError::NotRegular { what, .. } => std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("is {what}, not a regular file"),
            ),
            UserFileError::NotFolder { what, .. } => std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("is {what}, not a folder"),
            ),
            UserFileError::TooLarge { limit, .. } => std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("larger than {limit} bytes"),
            ),
            UserFileError::NotText { .. } => {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "not UTF-8 text")
            }
        }
    }

    fn io(path: &Path, source: std::io::Error) -> UserFileError {
        UserFileError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// What a file type is, in words, or `None` for a regular file.
fn not_regular(kind: std::fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("a folder")
    } else if kind.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Refuses `file` unless it is a regular file; judged on the descriptor.
fn regular(path: &Path, file: File) -> Result<File, UserFileError> {
    let meta = file.metadata().map_err(|e| UserFileError::io(path, e))?;
    match not_regular(meta.file_type()) {
        None => Ok(file),
        Some(what) => Err(UserFileError::NotRegular {
            path: path.to_owned(),
            what,
        }),
    }
}

/// The flags every open here adds: never wait for a pipe's other end,
/// never take a terminal as the controlling one.
fn nonblocking() -> i32 {
    (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32
}

/// Opens `path` for reading; a regular file only (links are followed, and
/// the file they reach is judged).
pub fn open_to_read(path: &Path) -> Result<File, UserFileError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nonblocking())
        .open(path)
        .map_err(|e| UserFileError::io(path, e))?;
    regular(path, file)
}

/// The bytes of the regular file at `path`, at most `limit` of them (more
/// is [`UserFileError::TooLarge`], found without reading past the limit).
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, UserFileError> {
    let file = open_to_read(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| UserFileError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(UserFileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

/// The text of the regular file at `path` (see [`read_bytes`]), without
/// a leading UTF-8 byte order mark, which editors on Windows write and no
/// parser rove uses accepts.
pub fn read_text(path: &Path, limit: u64) -> Result<String, UserFileError> {
    let bytes = read_bytes(path, limit)?;
    let mut text = String::from_utf8(bytes).map_err(|_| UserFileError::NotText {
        path: path.to_owned(),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Creates `path`, or empties the regular file there, for writing.
/// Something else at the path (a FIFO, with or without a reader, a device,
/// a folder) is refused untouched. A [`Access::Private`] file is made
/// owner-only before anything is written to it, an old one too, and is
/// never written through a symbolic link: one planted at its path (beside
/// a trace, in a shared folder) would have rove replace whatever it points
/// at with what the pages showed.
pub fn create(path: &Path, access: Access) -> Result<File, UserFileError> {
    // No truncation at open: only a file judged regular is emptied.
    let file = open_to_write(path, access, std::fs::OpenOptions::new().write(true))?;
    if access == Access::Private {
        // The mode given at open holds only for a new file.
        file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))
            .map_err(|e| UserFileError::io(path, e))?;
    }
    file.set_len(0).map_err(|e| UserFileError::io(path, e))?;
    Ok(file)
}

/// Opens `path` to append to it (a log), creating it when missing: a
/// regular file only, judged as [`create`] judges, and never emptied. A
/// FIFO or a device there is refused at once (a FIFO without a reader
/// would hold the open, and the process, for ever).
pub fn open_to_append(path: &Path, access: Access) -> Result<File, UserFileError> {
    open_to_write(path, access, std::fs::OpenOptions::new().append(true))
}

/// Opens `path` with `options`, creating it when missing, without
/// blocking (a FIFO without a reader fails instead of waiting) and, for a
/// [`Access::Private`] file, never through a symbolic link; anything but a
/// regular file there is refused, saying what it is.
fn open_to_write(
    path: &Path,
    access: Access,
    options: &mut std::fs::OpenOptions,
) -> Result<File, UserFileError> {
    let mut flags = nonblocking();
    if access == Access::Private {
        options.mode(FILE_MODE);
        flags |= rustix::fs::OFlags::NOFOLLOW.bits() as i32;
    }
    options.create(true).custom_flags(flags);
    let refused = |what| UserFileError::NotRegular {
        path: path.to_owned(),
        what,
    };
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        Some(code) if code == rustix::io::Errno::LOOP.raw_os_error() => refused("a symbolic link"),
        Some(code) if code == rustix::io::Errno::NXIO.raw_os_error() => {
            refused("a named pipe (FIFO)")
        }
        Some(code) if code == rustix::io::Errno::ISDIR.raw_os_error() => refused("a folder"),
        _ => UserFileError::io(path, e),
    })?;
    regular(path, file)
}

/// Writes `bytes` as the whole of the file at `path` (see [`create`]).
pub fn write(path: &Path, bytes: &[u8], access: Access) -> Result<(), UserFileError> {
    use std::io::Write;
    create(path, access)?
        .write_all(bytes)
        .map_err(|e| UserFileError::io(path, e))
}

/// Checks, before any work, that a file can be written at `path` later:
/// nothing but a regular file is there, and its folder exists (made when
/// missing, as the writer would) and takes a new file. Nothing there is
/// changed; a file made to try the folder is removed.
pub fn check_output_file(path: &Path) -> Result<(), UserFileError> {
    match std::fs::metadata(path) {
        Ok(meta) => {
            if let Some(what) = not_regular(meta.file_type()) {
                return Err(UserFileError::NotRegular {
                    path: path.to_owned(),
                    what,
                });
            }
            // Opened to write, not emptied: the same question the writer
            // will ask, without an answer that costs the file.
            std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(nonblocking())
                .open(path)
                .map(drop)
                .map_err(|e| UserFileError::io(path, e))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            check_output_dir(folder).map_err(|e| match e {
                UserFileError::Io { source, .. } => UserFileError::Io {
                    path: path.to_owned(),
                    source: std::io::Error::new(
                        source.kind(),
                        format!("in {}: {source}", folder.display()),
                    ),
                },
                other => other,
            })
        }
        Err(e) => Err(UserFileError::io(path, e)),
    }
}

/// Checks, before any work, that files can be written into the folder
/// `dir` later: it is a folder (made, with its parents, when missing) and
/// a new file can be made in it (one is made and removed).
pub fn check_output_dir(dir: &Path) -> Result<(), UserFileError> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => {
            return Err(UserFileError::NotFolder {
                path: dir.to_owned(),
                what: not_regular(meta.file_type()).unwrap_or("a regular file"),
            });
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| {
                UserFileError::io(
                    dir,
                    std::io::Error::new(e.kind(), format!("the folder cannot be made ({e})")),
                )
            })?;
        }
        Err(e) => return Err(UserFileError::io(dir, e)),
    }
    // A name no one else holds: this process's id and the time.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let probe = dir.join(format!(".rove-write-check-{}-{nanos}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(nonblocking())
        .open(&probe)
        .map_err(|e| {
            UserFileError::io(
                dir,
                std::io::Error::new(e.kind(), format!("no file can be made in it ({e})")),
            )
        })?;
    std::fs::remove_file(&probe).map_err(|e| UserFileError::io(dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rove-base-user-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch");
        dir
    }

    fn fifo(path: &Path) {
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            path,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .expect("mkfifo");
    }

    /// Runs `f` on a thread and fails the test when it has not returned
    /// within 5 s: the bug these tests guard against is a wait for ever.
    fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(5))
            .expect("returned without waiting for the pipe's other end")
    }

    #[test]
    fn a_fifo_is_refused_to_readers_and_writers_at_once() {
        let dir = scratch("fifo");
        let pipe = dir.join("tasks.yaml");
        fifo(&pipe);
        let started = Instant::now();
        let read = within_5s({
            let pipe = pipe.clone();
            move || read_text(&pipe, 1024)
        });
        assert!(
            matches!(
                read,
                Err(UserFileError::NotRegular {
                    what: "a named pipe (FIFO)",
                    ..
                })
            ),
            "{read:?}"
        );
        for access in [Access::Private, Access::Shared] {
            let written = within_5s({
                let pipe = pipe.clone();
                move || write(&pipe, b"x", access)
            });
            let message = written.expect_err("refused").to_string();
            assert!(
                message.contains("named pipe") && message.contains("tasks.yaml"),
                "{message}"
            );
        }
        let checked = check_output_file(&pipe).expect_err("refused before the work");
        assert!(checked.to_string().contains("named pipe"), "{checked}");
        assert!(started.elapsed() < Duration::from_secs(5));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_link_to_an_endless_device_is_refused_without_reading() {
        let dir = scratch("device");
        let link = dir.join("task.yaml");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("link");
        let read = read_bytes(&link, 1024).expect_err("a device");
        assert!(read.to_string().contains("character device"), "{read}");
        let written = write(&link, b"x", Access::Shared).expect_err("a device");
        assert!(
            matches!(written, UserFileError::NotRegular { .. }),
            "{written}"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_and_a_bom_is_dropped() {
        let dir = scratch("size");
        let file = dir.join("big.json");
        std::fs::write(&file, vec![b'a'; 11]).expect("write");
        assert!(matches!(
            read_bytes(&file, 10),
            Err(UserFileError::TooLarge { limit: 10, .. })
        ));
        assert_eq!(read_bytes(&file, 11).expect("fits").len(), 11);
        std::fs::write(&file, "\u{feff}name: a").expect("write");
        assert_eq!(read_text(&file, 100).expect("text"), "name: a");
        std::fs::write(&file, [0xff, 0xfe]).expect("write");
        assert!(matches!(
            read_text(&file, 100),
            Err(UserFileError::NotText { .. })
        ));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_log_is_appended_to_and_a_fifo_or_device_is_refused() {
        let dir = scratch("append");
        let log = dir.join("log");
        std::fs::write(&log, "one\n").expect("log");
        {
            use std::io::Write;
            let mut file = open_to_append(&log, Access::Shared).expect("opens");
            file.write_all(b"two\n").expect("write");
        }
        assert_eq!(std::fs::read_to_string(&log).expect("read"), "one\ntwo\n");
        let pipe = dir.join("pipe");
        fifo(&pipe);
        let refused = within_5s(move || open_to_append(&pipe, Access::Shared));
        assert!(
            matches!(refused, Err(UserFileError::NotRegular { .. })),
            "{refused:?}"
        );
        let device = open_to_append(Path::new("/dev/zero"), Access::Shared);
        assert!(
            matches!(device, Err(UserFileError::NotRegular { .. })),
            "{device:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_private_file_is_never_written_through_a_link() {
        let dir = scratch("private-link");
        let target = dir.join("target");
        std::fs::write(&target, "kept").expect("target");
        let link = dir.join("page.html");
        std::os::unix::fs::symlink(&target, &link).expect("link");
        let refused = write(&link, b"page", Access::Private);
        assert!(
            matches!(
                refused,
                Err(UserFileError::NotRegular {
                    what: "a symbolic link",
                    ..
                })
            ),
            "{refused:?}"
        );
        assert_eq!(std::fs::read_to_string(&target).expect("target"), "kept");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_is_replaced_and_made_private() {
        let dir = scratch("replace");
        let file = dir.join("state.json");
        std::fs::write(&file, "a longer old content").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("mode");
        write(&file, b"new", Access::Private).expect("written");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let folder = write(&dir, b"x", Access::Shared).expect_err("a folder");
        assert!(folder.to_string().contains("a folder"), "{folder}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn output_paths_are_checked_without_writing() {
        let dir = scratch("check");
        let file = dir.join("results.json");
        std::fs::write(&file, "kept").expect("write");
        check_output_file(&file).expect("a regular file may be replaced");
        assert_eq!(std::fs::read(&file).expect("read"), b"kept", "not emptied");
        check_output_file(&dir.join("new/junit.xml")).expect("its folder is made");
        assert!(dir.join("new").is_dir());
        check_output_dir(&dir.join("out/deeper")).expect("made");
        let names: Vec<_> = std::fs::read_dir(dir.join("out/deeper"))
            .expect("list")
            .collect();
        assert!(names.is_empty(), "the probe is removed");
        // Under a regular file: no one, root included, can make anything.
        let under = check_output_file(&file.join("junit.xml")).expect_err("under a file");
        assert!(
            under.to_string().contains("results.json/junit.xml"),
            "{under}"
        );
        let not_dir = check_output_dir(&file).expect_err("a file, not a folder");
        assert!(not_dir.to_string().contains("not a folder"), "{not_dir}");
        let proc_dir = check_output_dir(Path::new("/proc/rove-no-such/out")).expect_err("/proc");
        assert!(
            proc_dir.to_string().contains("/proc/rove-no-such/out"),
            "{proc_dir}"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
