//! `fill-form` (group `forms`): several fields in one call, each through
//! the command that fits it (`fill` for text, dates and numbers, `select`
//! for a select or listbox, `check`/`uncheck` for a checkbox, radio or
//! switch), in order, with one view of what changed at the end.
//!
//! It stops at the first field that fails, and the error says which fields
//! were filled (they keep their values), which one failed and which were
//! not touched, so a model knows exactly where the form stands.

use rove_cdp::protocol::runtime::CallFunctionOn;
use rove_page::Ref;

use crate::answer::outcome::Outcome;
use crate::session::{Session, unless_dialog};
use crate::{CommandError, FieldValue, FillArgs, FillFormArgs, RefArgs, SelectArgs};

/// Which command a field takes, read from the element itself (its tag, type
/// and explicit role), not from a view that may be old.
const KIND_OF: &str = r#"function() {
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (this.tagName === 'INPUT' && (this.type === 'checkbox' || this.type === 'radio')) return 'toggle';
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return 'toggle';
  if (this.tagName === 'SELECT' || role === 'listbox') return 'choice';
  const typed = this.tagName === 'INPUT' || this.tagName === 'TEXTAREA' || this.isContentEditable;
  if (role === 'combobox' && !typed) return 'choice';
  return 'text';
}"#;

/// The kind of field, as [`KIND_OF`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Toggle,
    Choice,
    Text,
}

impl Session {
    pub(crate) async fn fill_form(
        &mut self,
        args: &FillFormArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if args.fields.is_empty() {
            return Err(CommandError::Rejected(
                "fill-form needs at least one field: [{ref, value}, …]".into(),
            ));
        }
        // Locators were resolved before the command ran: every field is a
        // ref by now.
        let targets = args
            .fields
            .iter()
            .map(|f| f.target.reference())
            .collect::<Result<Vec<_>, _>>()?;
        let mut filled = Vec::new();
        for (i, (field, &target)) in args.fields.iter().zip(&targets).enumerate() {
            if let Err(error) = self.fill_field(target, &field.value, out).await {
                return Err(CommandError::FormStopped {
                    filled,
                    failed: target,
                    position: i + 1,
                    not_touched: targets[i + 1..].to_vec(),
                    error: Box::new(error),
                });
            }
            filled.push(target);
        }
        Ok(())
    }

    async fn fill_field(
        &mut self,
        target: Ref,
        value: &FieldValue,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        match (self.kind_of(target).await?, value) {
            (Kind::Toggle, value) => {
                let checked = as_checked(target, value)?;
                self.set_checked(
                    &RefArgs {
                        target: target.into(),
                    },
                    checked,
                    out,
                )
                .await
            }
            (Kind::Choice, FieldValue::Text(label)) => {
                let args = SelectArgs {
                    target: target.into(),
                    values: vec![label.clone()],
                };
                self.select(&args, out).await
            }
            (Kind::Choice, FieldValue::Checked(_)) => Err(CommandError::Rejected(format!(
                "{target} is a select: give the label of an option, not true/false; nothing was sent"
            ))),
            (Kind::Text, FieldValue::Text(text)) => {
                let args = FillArgs {
                    target: target.into(),
                    text: text.clone(),
                    submit: false,
                };
                self.fill(&args, out).await
            }
            (Kind::Text, FieldValue::Checked(_)) => Err(CommandError::Rejected(format!(
                "{target} is a text field: give its text, not true/false; nothing was sent"
            ))),
        }
    }

    async fn kind_of(&mut self, target: Ref) -> Result<Kind, CommandError> {
        let tab = self.focused()?;
        unless_dialog(&tab, async {
            let element = self.model()?.element(target).await?;
            let call = CallFunctionOn::on("the field's kind", KIND_OF, element.object_id.as_str())
                .by_value();
            let kind = element
                .session
                .run_checked_value::<_, String>(&call, None)
                .await;
            let release = rove_cdp::protocol::runtime::ReleaseObject {
                object_id: element.object_id.clone(),
            };
            if let Err(e) = element.session.send(&release).await {
                tracing::debug!(error = %e, "a field's object was not released");
            }
            Ok(match kind?.as_str() {
                "toggle" => Kind::Toggle,
                "choice" => Kind::Choice,
                _ => Kind::Text,
            })
        })
        .await
    }
}

/// Checked or not, from JSON true/false or the words a shell would type.
fn as_checked(target: Ref, value: &FieldValue) -> Result<bool, CommandError> {
    match value {
        FieldValue::Checked(b) => Ok(*b),
        FieldValue::Text(word) => match word.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "checked" | "check" => Ok(true),
            "false" | "off" | "no" | "unchecked" | "uncheck" => Ok(false),
            _ => Err(CommandError::Rejected(format!(
                "{target} is a checkbox, radio or switch: give true or false, not {word:?}; nothing was sent"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkbox_takes_json_booleans_and_the_words_for_them() {
        let target: Ref = "e3".parse().expect("a ref");
        assert!(as_checked(target, &FieldValue::Checked(true)).expect("true"));
        assert!(!as_checked(target, &FieldValue::Text("off".into())).expect("off"));
        assert!(as_checked(target, &FieldValue::Text("maybe".into())).is_err());
    }
}
