//! Private files and folders of the crate: a new 0600 file, a fresh 0700
//! folder of this process under rove's runtime folder.

use std::path::{Path, PathBuf};

use crate::CommandError;

/// A new folder of this process under `<runtime folder>/<kind>/` (private,
/// checked against planted links and foreign owners): one per session for
/// its downloads or its output.
pub(crate) fn fresh_private_folder(kind: &str) -> Result<PathBuf, CommandError> {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("{}-{n}", std::process::id());
    Ok(rove_browser::ensure_runtime_subdir(
        &Path::new(kind).join(name),
    )?)
}

/// Creates (or empties) a file only its owner can read or write: for
/// files that may hold what a page showed or a credential (traces, saved
/// storage state). A file already there is made private too, before
/// anything is written to it.
pub fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    // The mode above holds only for a new file.
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(file)
}
