//! `upload`: files for a file input, or for the chooser a button opens,
//! only from the allowed roots (`session/files.rs`).

use rove_cdp::protocol::dom::SetFileInputFiles;
use rove_cdp::protocol::page::{
    FileChooserOpened, FileChooserOpenedMode, SetInterceptFileChooserDialog,
};

use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::session::files::allowed;
use crate::{CommandError, UploadArgs};

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
        // The page answers files as it answers input (an upload request, a
        // result its server computes): the answer waits for it like one.
        let settled = match kind.as_str() {
            "other" => self.upload_by_chooser(target, &names).await?,
            mode => {
                if mode == "single" && names.len() > 1 {
                    return Err(CommandError::Rejected(format!(
                        "{target} takes one file, not {}",
                        names.len()
                    )));
                }
                let tab = self.focused()?;
                let set = SetFileInputFiles {
                    files: names.clone(),
                    object_id: Some(element.object_id.clone()),
                    ..SetFileInputFiles::default()
                };
                let given = async {
                    element
                        .session
                        .send(&set)
                        .await
                        .map(|_| ())
                        .map_err(CommandError::from)
                };
                rove_input::settle_after(&tab, &element, given).await?.1
            }
        };
        out.happened.push(Happened::Uploaded {
            target,
            files: names,
        });
        self.after_settle(&settled, out).await
    }

    /// Clicks the element and answers the file chooser it opens; what the
    /// page did after it took the files.
    async fn upload_by_chooser(
        &mut self,
        target: rove_page::Ref,
        files: &[String],
    ) -> Result<rove_input::Settled, CommandError> {
        let tab = self.focused()?;
        let session = tab.session().await?;
        session.send(&intercept_chooser(true)).await?;
        let mut events = session.subscribe();
        let opts = rove_input::ClickOptions {
            timeout: self.config().action_timeout,
            ..rove_input::ClickOptions::default()
        };
        let clicked = rove_input::click(self.model()?, target, &opts).await;
        let chooser = match clicked {
            Ok(_) => events
                .wait_for::<FileChooserOpened>(rove_base::limits::FILE_CHOOSER)
                .await
                .ok(),
            Err(e) => {
                let _ = session.send(&intercept_chooser(false)).await;
                return Err(e.into());
            }
        };
        let result = match chooser {
            Some(FileChooserOpened {
                backend_node_id: Some(node),
                mode,
                ..
            }) => {
                if mode == FileChooserOpenedMode::SelectSingle && files.len() > 1 {
                    Err(CommandError::Rejected(format!(
                        "the chooser {target} opened takes one file, not {}",
                        files.len()
                    )))
                } else {
                    let set = SetFileInputFiles {
                        files: files.to_vec(),
                        backend_node_id: Some(node),
                        ..SetFileInputFiles::default()
                    };
                    let given = async {
                        session
                            .send(&set)
                            .await
                            .map(|_| ())
                            .map_err(CommandError::from)
                    };
                    match self.model()?.element(target).await {
                        Ok(element) => rove_input::settle_after(&tab, &element, given)
                            .await
                            .map(|(_, settled)| settled),
                        // The button went away with its click: the files
                        // are given all the same, with nothing to watch.
                        Err(_) => given.await.map(|_| rove_input::Settled::default()),
                    }
                }
            }
            _ => Err(CommandError::Input(rove_input::InputError::NotActionable {
                target: target.to_string(),
                reason: "it is not a file input, and clicking it opened no file chooser".into(),
                cover: None,
            })),
        };
        let _ = session.send(&intercept_chooser(false)).await;
        result
    }
}

/// Whether a file chooser the page opens is handed to rove instead.
fn intercept_chooser(enabled: bool) -> SetInterceptFileChooserDialog {
    SetInterceptFileChooserDialog {
        enabled,
        cancel: None,
    }
}
