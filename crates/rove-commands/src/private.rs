//! A fresh private folder of this process under rove's runtime folder
//! (0700, checked: rove-browser's `ensure_runtime_subdir` over rove-base's
//! `ensure_private_dir`). Private files are rove-base's
//! (`rove_base::private`).

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

/// Writes `bytes` to a file readable by its owner only.
pub(crate) fn write_private_bytes(path: &Path, bytes: &[u8]) -> Result<(), CommandError> {
    rove_base::private::write_private_file(path, bytes)
        .map_err(|e| CommandError::io(format!("writing {}", path.display()), e))
}
