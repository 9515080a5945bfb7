//! `pdf` (group `pdf`): the focused page printed to a PDF file, on a paper
//! size, upright or landscape, with or without backgrounds.
//!
//! Chromium prints to PDF only when headless; a browser that shows windows
//! is refused with `NeedsHeadless` before anything is asked of the page. The
//! file goes where rove may write (see `Session::output_path`): where the
//! person at the shell says, or for a model a plain file name in the
//! session's output folder.

use base64::Engine;

use crate::{CommandError, Data, Outcome, PdfArgs, Session};

impl Session {
    pub(crate) async fn pdf(
        &mut self,
        args: &PdfArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if args.file.trim().is_empty() {
            return Err(CommandError::Rejected(
                "pdf needs file: where to write it (a plain file name for a model)".into(),
            ));
        }
        let path = self.output_path(&args.file)?;
        if !self.headless().await? {
            return Err(CommandError::NeedsHeadless { command: "pdf" });
        }
        let tab = self.focused()?;
        if let Some(dialog) = tab.watch().await?.dialog() {
            return Err(crate::session::blocked_by(dialog));
        }
        let format = args.format.unwrap_or_default();
        let (width, height) = format.inches();
        let print = rove_cdp::protocol::page::PrintToPDF {
            paper_width: Some(width),
            paper_height: Some(height),
            landscape: Some(args.landscape),
            print_background: Some(args.background),
            ..Default::default()
        };
        let call = tab.send(&print);
        let answer = tokio::time::timeout(rove_base::limits::PRINT, call)
            .await
            .map_err(|_| {
                CommandError::Rejected(format!(
                    "the page did not print within {} s",
                    rove_base::limits::PRINT.as_secs()
                ))
            })??;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&answer.data)
            .map_err(|e| {
                CommandError::io(
                    "reading the browser's PDF",
                    std::io::Error::new(std::io::ErrorKind::InvalidData, e),
                )
            })?;
        rove_base::user_file::write(&path, &bytes, rove_base::user_file::Access::Shared)
            .map_err(|e| CommandError::io(format!("writing {}", path.display()), e.into_io()))?;
        out.data = Some(Data::Text(format!(
            "printed tab {} to {} ({} bytes, {format:?}{}{})\n",
            tab.id(),
            path.display(),
            bytes.len(),
            if args.landscape { ", landscape" } else { "" },
            if args.background {
                ", with backgrounds"
            } else {
                ""
            }
        )));
        Ok(())
    }

    /// Whether the browser runs headless: its product names itself so.
    async fn headless(&self) -> Result<bool, CommandError> {
        let version = self
            .browser_send(&rove_cdp::protocol::browser::GetVersion {})
            .await?;
        Ok(version.product.contains("Headless") || version.user_agent.contains("Headless"))
    }
}
