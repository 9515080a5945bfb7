//! The reading commands: `snapshot`, `find` and `read` (the page as markdown).

use rove_cdp::protocol::page::CreateIsolatedWorld;
use rove_cdp::protocol::runtime::{CallFunctionOn, Evaluate};
use rove_page::{FindQuery, Mode, ViewOptions};
use serde_json::Value;

use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{CommandError, Data, FindArgs, ReadArgs, SnapshotArgs, SnapshotMode};

const READ: &str = include_str!("read.js");

/// The default budget of `read`, in tokens: a long article fits, a whole
/// documentation site does not.
const READ_BUDGET: usize = 8_000;

impl Session {
    pub(crate) async fn snapshot(
        &mut self,
        args: &SnapshotArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let mode = match (&args.scope, args.mode) {
            (Some(scope), _) => Mode::Scope(scope.reference()?),
            (None, SnapshotMode::Full) => Mode::Full,
            (None, SnapshotMode::Interactive) => Mode::Interactive,
            (None, SnapshotMode::Diff) => Mode::Diff,
        };
        let opts = ViewOptions {
            mode,
            budget: args.budget,
            urls: args.urls,
            after: args.after,
        };
        out.view = Some(self.model()?.view(&opts).await?);
        Ok(())
    }

    pub(crate) async fn find(
        &mut self,
        args: &FindArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if args.text.trim().is_empty() && args.role.is_none() {
            return Err(CommandError::Rejected(
                "find needs a text, a role, or both".into(),
            ));
        }
        let query = FindQuery {
            text: args.text.clone(),
            role: args.role.clone(),
            limit: args.limit,
        };
        out.view = Some(self.model()?.find(&query).await?);
        Ok(())
    }

    pub(crate) async fn read(
        &mut self,
        args: &ReadArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let budget = match args.budget {
            None => Some(READ_BUDGET),
            Some(0) => None,
            Some(n) => Some(n),
        };
        // Tokens are about a third of the bytes (rove_page::tokens).
        // Saturating: the budget is the caller's number, `u64::MAX` included.
        let max_chars = budget
            .map(|b| b.saturating_mul(3))
            .unwrap_or(usize::MAX / 2);
        // The reader's exceptions and answers of the wrong shape come back
        // as INTERNAL errors naming read.js (rove-cdp's checked helper).
        let read: Value = match &args.target {
            Some(target) => {
                let target = target.reference()?;
                let element = self.model()?.element(target).await?;
                let call = CallFunctionOn::on(
                    "read.js",
                    format!("function(max) {{ return ({READ})(this, max); }}"),
                    element.object_id.as_str(),
                )
                .value(max_chars)
                .by_value();
                element.session.run_checked_value(&call, None).await?
            }
            None => {
                let tab = self.focused()?;
                let session = tab.session().await?;
                let world = session
                    .send(&CreateIsolatedWorld {
                        frame_id: tab.target_id().to_owned(),
                        world_name: Some("rove-read".to_owned()),
                        grant_univeral_access: None,
                        ..Default::default()
                    })
                    .await?;
                let call = Evaluate {
                    context_id: Some(world.execution_context_id),
                    return_by_value: Some(true),
                    ..Evaluate::value(format!("({READ})(null, {max_chars})"))
                }
                .named("read.js");
                session.run_checked(&call, None).await?.decode("read.js")?
            }
        };
        let read: &Value = &read;
        let mut text = String::new();
        // The page wrote all of it: cleaned and escaped as a view is, so
        // no line of it passes for a view's line or hides characters.
        let title = rove_page::title_text(&rove_base::text::clean(
            read["title"].as_str().unwrap_or_default().to_owned(),
        ));
        if args.target.is_none() {
            text.push_str(&format!(
                "[{}] {title} {}\n",
                out.tab,
                rove_base::text::clean(read["url"].as_str().unwrap_or_default().to_owned())
            ));
        }
        text.push_str(&rove_page::escape_markdown(
            read["markdown"].as_str().unwrap_or_default(),
        ));
        text.push('\n');
        if read["cut"].as_bool().unwrap_or(false) {
            text.push_str(&format!(
                "… cut at the {}-token budget; read a part with read(ref=eN) (refs from snapshot or find), or read it all with read(budget=0)\n",
                budget.unwrap_or(0)
            ));
        }
        out.data = Some(Data::Text(text));
        Ok(())
    }
}
