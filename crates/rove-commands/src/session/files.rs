//! Where files a command reads and writes may be: uploads only from the
//! allowed roots, a model's output only into the session's output folder.
//!
//! Upload roots are explicit: the session's own upload folder
//! (`<runtime folder>/uploads`), the roots the session was given
//! (`--upload-root`), and for the person at the shell the folder they run the
//! command in, unless that is `/` or their home folder. Never the folder a
//! daemon or an MCP server happened to start in.

use std::path::{Path, PathBuf};

use crate::answer::happened::{Happened, Shot};
use crate::answer::outcome::{Image, Outcome};
use crate::private::fresh_private_folder;
use crate::session::Session;
use crate::{CommandError, Data};

impl Session {
    /// A captured image, as the answer's image, or saved to `path` in the
    /// output folder (`screenshot path=…`), with the line that says which.
    pub(crate) fn hand_over_image(
        &mut self,
        what: Shot,
        bytes: Vec<u8>,
        mime: &'static str,
        path: Option<&str>,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        match path {
            Some(requested) => {
                let path = self.output_path(requested)?;
                rove_base::user_file::write(&path, &bytes, rove_base::user_file::Access::Shared)
                    .map_err(|e| {
                        CommandError::io(format!("writing {}", path.display()), e.into_io())
                    })?;
                let path = path.display().to_string();
                out.happened.push(Happened::ScreenshotSaved {
                    what,
                    path: path.clone(),
                    bytes: bytes.len(),
                    mime,
                });
                out.data = Some(Data::Saved {
                    path,
                    bytes: bytes.len(),
                    mime,
                });
            }
            None => {
                out.happened.push(Happened::ScreenshotTaken {
                    what,
                    bytes: bytes.len(),
                    mime,
                });
                out.image = Some(Image { mime, bytes });
            }
        }
        Ok(())
    }

    /// The real path of a file this call may read (a mock's body, a saved
    /// state): under the roots uploads may come from, after resolving links;
    /// `UPLOAD_DENIED` otherwise.
    pub(crate) fn readable_file(&self, path: &str) -> Result<PathBuf, CommandError> {
        allowed(path, &self.upload_roots())
    }

    /// The folders this call may upload from.
    pub(crate) fn upload_roots(&self) -> Vec<PathBuf> {
        let mut roots = vec![self.upload_dir.clone()];
        roots.extend(self.config.upload_roots.iter().cloned());
        if let crate::Caller::Person { cwd: Some(cwd) } = &self.caller {
            let home = std::env::var_os("HOME").map(PathBuf::from);
            let too_wide = cwd.parent().is_none() || home.is_some_and(|h| same_folder(&h, cwd));
            if !too_wide {
                roots.push(cwd.clone());
            }
        }
        roots
    }

    /// Where a file the command writes goes. The person at the shell writes
    /// where they say; a model gives a plain file name, which lands in the
    /// session's output folder (made on first use), never a path of its own
    /// choosing: no page or prompt can have a file written elsewhere.
    pub(crate) fn output_path(&mut self, requested: &str) -> Result<PathBuf, CommandError> {
        if let crate::Caller::Person { .. } = self.caller {
            return Ok(PathBuf::from(requested));
        }
        let name = Path::new(requested);
        let plain = name.components().count() == 1
            && matches!(
                name.components().next(),
                Some(std::path::Component::Normal(_))
            );
        if !plain {
            return Err(CommandError::Rejected(format!(
                "{requested:?} is a path; give a plain file name (like shot.png): files are written only into the session's output folder"
            )));
        }
        let dir = match &self.config.output_dir {
            Some(dir) => rove_base::private::ensure_private_dir(dir)
                .map_err(rove_browser::PrivateDirError::from)?,
            None => fresh_private_folder("output")?,
        };
        self.config.output_dir = Some(dir.clone());
        Ok(dir.join(name))
    }
}

/// Whether two paths name the same folder (after resolving links).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The file's real path, if it exists and lies under one of `roots` (after
/// resolving links, so a symlink cannot lead out).
pub(crate) fn allowed(path: &str, roots: &[PathBuf]) -> Result<PathBuf, CommandError> {
    let shown: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    let deny = |reason: &str| CommandError::UploadDenied {
        path: path.to_owned(),
        reason: reason.to_owned(),
        roots: shown.clone(),
    };
    let real = Path::new(path)
        .canonicalize()
        .map_err(|e| deny(&format!("it cannot be read ({e})")))?;
    if !real.is_file() {
        return Err(deny("it is not a file"));
    }
    let inside = roots
        .iter()
        .filter_map(|r| r.canonicalize().ok())
        .any(|root| real.starts_with(root));
    if !inside {
        return Err(deny("it lies outside the allowed roots"));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn uploads_stay_inside_the_roots() {
        let root = std::env::temp_dir().join(format!("rove-upload-test-{}", std::process::id()));
        let inside = root.join("ok.txt");
        std::fs::create_dir_all(&root).expect("root");
        std::fs::write(&inside, "x").expect("file");
        let roots = vec![root.clone()];
        assert!(allowed(inside.to_str().expect("utf-8"), &roots).is_ok());
        let escape = format!("{}/../{}", root.display(), "etc-passwd-nope");
        assert!(allowed(&escape, &roots).is_err());
        assert!(allowed("/etc/hostname", &roots).is_err());
        assert!(allowed(root.to_str().expect("utf-8"), &roots).is_err());
        std::fs::remove_dir_all(&root).expect("cleanup");
    }
}
