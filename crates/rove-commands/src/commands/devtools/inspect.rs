//! `get` (group `inspect`): one fact about an element a ref names — its
//! text, a field's value, an attribute, its box, or whether it is visible,
//! enabled or checked — without a view around it.
//!
//! The function runs in rove's isolated world, on the element's own object,
//! so a page that rewrites `getAttribute` or `innerText` in its world cannot
//! change the answer. Text is the page's: the answer carries it as JSON
//! (quoted), and a shell prints it with control characters removed
//! (`Outcome::text_value_first`).

use rove_cdp::protocol::runtime::{CallArgument, CallFunctionOn, ReleaseObject};
use serde_json::Value;

use crate::answer::outcome::Outcome;
use crate::session::{Session, unless_dialog};
use crate::{CommandError, Data, GetArgs, GetWhat};

/// Longest text or value answered, in characters.
const MAX_CHARS: usize = 20_000;

/// The function each fact is read with; `name` is the attribute's name.
fn reader(what: GetWhat) -> &'static str {
    match what {
        GetWhat::Text => "function() { return (this.innerText ?? this.textContent ?? '').trim(); }",
        GetWhat::Value => {
            "function() { return 'value' in this ? String(this.value) : (this.isContentEditable ? this.innerText : null); }"
        }
        GetWhat::Attr => "function(name) { return this.getAttribute(name); }",
        GetWhat::Box => {
            "function() { const r = this.getBoundingClientRect(); const n = v => Math.round(v * 10) / 10; return {x: n(r.x), y: n(r.y), width: n(r.width), height: n(r.height)}; }"
        }
        GetWhat::Visible => {
            "function() { if (!this.isConnected) return false; const r = this.getBoundingClientRect(); if (r.width === 0 && r.height === 0) return false; return this.checkVisibility ? this.checkVisibility({opacityProperty: true, visibilityProperty: true}) : true; }"
        }
        GetWhat::Enabled => {
            "function() { if (this.disabled === true || this.matches(':disabled')) return false; const off = this.closest('[aria-disabled=\"true\"]'); return !off; }"
        }
        GetWhat::Checked => {
            "function() { if (this.type === 'checkbox' || this.type === 'radio') return this.indeterminate ? 'mixed' : this.checked; const a = this.getAttribute('aria-checked') ?? this.getAttribute('aria-pressed') ?? this.getAttribute('aria-selected'); return a === 'mixed' ? 'mixed' : a === 'true'; }"
        }
    }
}

impl Session {
    pub(crate) async fn get(
        &mut self,
        args: &GetArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let name = match (args.what, args.name.as_deref().map(str::trim)) {
            (GetWhat::Attr, Some(name)) if !name.is_empty() => Some(name.to_owned()),
            (GetWhat::Attr, _) => {
                return Err(CommandError::Rejected(
                    "get attr needs name: the attribute to read".into(),
                ));
            }
            _ => None,
        };
        let tab = self.focused()?;
        let target = args.target.reference()?;
        let work = unless_dialog(&tab, async {
            let element = self.model()?.element(target).await?;
            let read = CallFunctionOn {
                function_declaration: reader(args.what).to_owned(),
                object_id: Some(element.object_id.clone()),
                arguments: Some(vec![CallArgument::value(name)]),
                return_by_value: Some(true),
                ..CallFunctionOn::default()
            };
            let answer = element.session.send(&read).await;
            let release_object = ReleaseObject {
                object_id: element.object_id.clone(),
            };
            let release = element.session.send(&release_object);
            if let Err(e) = release.await {
                tracing::debug!(error = %e, "an element's object was not released");
            }
            Ok(answer?)
        });
        let answer = tokio::time::timeout(rove_base::limits::GET, work)
            .await
            .map_err(|_| {
                CommandError::Rejected(format!(
                    "the page did not answer within {} s",
                    rove_base::limits::GET.as_secs()
                ))
            })??;
        if let Some(details) = &answer.exception_details {
            return Err(CommandError::Evaluation(
                details
                    .exception
                    .as_ref()
                    .and_then(|e| e.description.as_deref())
                    .unwrap_or("reading the element failed")
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            ));
        }
        let value = match answer.result.value {
            Some(Value::String(s)) => Value::String(rove_base::text::ellipsized(&s, MAX_CHARS)),
            Some(v) => v,
            None => Value::Null,
        };
        out.data = Some(Data::Evaluated { result: value });
        Ok(())
    }
}
