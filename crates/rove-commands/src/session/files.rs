//! `upload`: files for a file input, or for the chooser a button opens, only
//! from the allowed roots; and where files a command writes may go.
//!
//! Upload roots are explicit: the session's own upload folder
//! (`<runtime folder>/uploads`), the roots the session was given
//! (`--upload-root`), and for the person at the shell the folder they run the
//! command in, unless that is `/` or their home folder. Never the folder a
//! daemon or an MCP server happened to start in.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rove_cdp::protocol::EventType;
use serde::Deserialize;
use serde_json::json;

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{CommandError, UploadArgs};

/// How long a click may take to open a file chooser.
const CHOOSER_WAIT: Duration = Duration::from_secs(3);

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileChooserOpened {
    backend_node_id: Option<i64>,
    #[serde(default)]
    mode: String,
}

impl EventType for FileChooserOpened {
    const METHOD: &'static str = "Page.fileChooserOpened";
}

impl Session {
    pub(crate) async fn upload(
        &mut self,
        args: &UploadArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if args.paths.is_empty() {
            return Err(CommandError::Rejected(
                "upload needs at least one file".into(),
            ));
        }
        let roots = self.upload_roots();
        let files = args
            .paths
            .iter()
            .map(|p| allowed(p, &roots))
            .collect::<Result<Vec<_>, _>>()?;
        let target = args.target.reference()?;
        let element = self.model()?.element(target).await?;
        let call = rove_cdp::protocol::runtime::CallFunctionOn::on(
            "the file input's kind",
            "function() { return this.tagName === 'INPUT' && this.type === 'file' ? (this.multiple ? 'multiple' : 'single') : 'other'; }",
            element.object_id.as_str(),
        )
        .by_value();
        let kind: String = element.session.run_checked_value(&call, None).await?;
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        match kind.as_str() {
            "other" => self.upload_by_chooser(target, &names).await?,
            mode => {
                if mode == "single" && names.len() > 1 {
                    return Err(CommandError::Rejected(format!(
                        "{target} takes one file, not {}",
                        names.len()
                    )));
                }
                element
                    .session
                    .call(
                        "DOM.setFileInputFiles",
                        json!({"files": names, "objectId": element.object_id}),
                    )
                    .await?;
            }
        }
        out.happened.push(Happened::Uploaded {
            target,
            files: names,
        });
        Ok(())
    }

    /// The real path of a file this call may read (a mock's body, a saved
    /// state): under the roots uploads may come from, after resolving links;
    /// `UPLOAD_DENIED` otherwise.
    pub(crate) fn readable_file(&self, path: &str) -> Result<PathBuf, CommandError> {
        allowed(path, &self.upload_roots())
    }

    /// The folders this call may upload from.
    fn upload_roots(&self) -> Vec<PathBuf> {
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
            Some(dir) => rove_browser::ensure_private_dir(dir)?,
            None => fresh_private_folder("output")?,
        };
        self.config.output_dir = Some(dir.clone());
        Ok(dir.join(name))
    }

    /// Clicks the element and answers the file chooser it opens.
    async fn upload_by_chooser(
        &mut self,
        target: rove_page::Ref,
        files: &[String],
    ) -> Result<(), CommandError> {
        let tab = self.focused()?;
        let session = tab.session().await?;
        session
            .call(
                "Page.setInterceptFileChooserDialog",
                json!({"enabled": true}),
            )
            .await?;
        let mut events = session.subscribe();
        let opts = rove_input::ClickOptions {
            timeout: self.config.action_timeout,
            ..rove_input::ClickOptions::default()
        };
        let clicked = rove_input::click(self.model()?, target, &opts).await;
        let chooser = match clicked {
            Ok(_) => events
                .wait_for::<FileChooserOpened>(CHOOSER_WAIT)
                .await
                .ok(),
            Err(e) => {
                let _ = session
                    .call(
                        "Page.setInterceptFileChooserDialog",
                        json!({"enabled": false}),
                    )
                    .await;
                return Err(e.into());
            }
        };
        let result = match chooser {
            Some(FileChooserOpened {
                backend_node_id: Some(node),
                mode,
            }) => {
                if mode == "selectSingle" && files.len() > 1 {
                    Err(CommandError::Rejected(format!(
                        "the chooser {target} opened takes one file, not {}",
                        files.len()
                    )))
                } else {
                    session
                        .call(
                            "DOM.setFileInputFiles",
                            json!({"files": files, "backendNodeId": node}),
                        )
                        .await
                        .map(|_| ())
                        .map_err(CommandError::from)
                }
            }
            _ => Err(CommandError::Input(rove_input::InputError::NotActionable {
                target: target.to_string(),
                reason: "it is not a file input, and clicking it opened no file chooser".into(),
                cover: None,
            })),
        };
        let _ = session
            .call(
                "Page.setInterceptFileChooserDialog",
                json!({"enabled": false}),
            )
            .await;
        result
    }
}

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

/// Whether two paths name the same folder (after resolving links).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The file's real path, if it exists and lies under one of `roots` (after
/// resolving links, so a symlink cannot lead out).
fn allowed(path: &str, roots: &[PathBuf]) -> Result<PathBuf, CommandError> {
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
