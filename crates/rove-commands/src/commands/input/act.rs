//! The element actions: click, hover, type, fill, press, select, check and
//! uncheck, each a thin call into `rove-input` plus a line saying what it did.

use std::time::Duration;

use rove_input::{Button, ClickOptions, Modifiers, TypeOptions};

use crate::answer::happened::{ClickKind, Happened};
use crate::answer::outcome::Outcome;
use crate::session::Session;
use crate::{
    ClickArgs, CommandError, FillArgs, MouseButton, PressArgs, RefArgs, SelectArgs, TypeArgs,
};

impl Session {
    /// Clicks; returns whether a tab the click opened should take the focus
    /// (a plain left click: yes; a middle or modified click opens tabs in the
    /// background, as in a desktop browser).
    pub(crate) async fn click(
        &mut self,
        args: &ClickArgs,
        out: &mut Outcome,
    ) -> Result<bool, CommandError> {
        let target = args.target.reference()?;
        let modifiers = parse_modifiers(&args.modifiers)?;
        let opts = ClickOptions {
            button: match args.button {
                MouseButton::Left => Button::Left,
                MouseButton::Right => Button::Right,
                MouseButton::Middle => Button::Middle,
            },
            count: if args.double { 2 } else { 1 },
            modifiers,
            timeout: self.config().action_timeout,
        };
        let model = self.model()?;
        let clicked = rove_input::click(model, target, &opts).await?;
        let kind = if clicked.point.is_none() {
            ClickKind::Activated
        } else if args.double {
            ClickKind::Double
        } else {
            ClickKind::Single(args.button)
        };
        out.happened.push(Happened::Clicked { kind, target });
        out.pointer = clicked.point.map(|p| (p.x, p.y));
        self.after_settle(&clicked.settled, out).await?;
        Ok(args.button == MouseButton::Left && modifiers == Modifiers::default())
    }

    pub(crate) async fn hover(
        &mut self,
        args: &RefArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args.target.reference()?;
        let timeout = self.config().action_timeout;
        let hovered = rove_input::hover(self.model()?, target, timeout).await?;
        out.happened.push(Happened::Hovering(target));
        self.after_settle(&hovered.settled, out).await
    }

    pub(crate) async fn type_text(
        &mut self,
        args: &TypeArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let opts = TypeOptions {
            delay: args.delay_ms.map(Duration::from_millis),
            deadline: Some(self.typing_deadline()),
        };
        let count = args.text.chars().count();
        let Some(target) = &args.target else {
            // No ref: the keys go to whatever has the focus. A secret needs
            // a field rove can check the domain of.
            if !self.config().secrets.named_in(&args.text).is_empty() {
                return Err(CommandError::Rejected(
                    "a secret is typed only into a field named by its ref (type REF TEXT)".into(),
                ));
            }
            let tab = self.focused()?;
            let settled = rove_input::type_focused(&tab, &args.text, &opts).await?;
            out.happened.push(Happened::TypedFocused { count });
            self.after_settle(&settled, out).await?;
            return self.submit(args.submit, out).await;
        };
        let target = target.reference()?;
        let text = self.with_secrets(target, &args.text).await?;
        let typed = rove_input::type_text(self.model()?, target, &text, &opts).await?;
        out.happened.push(Happened::Typed {
            count,
            target,
            field_gone: typed.field_gone,
        });
        self.after_settle(&typed.settled, out).await?;
        self.submit(args.submit, out).await
    }

    pub(crate) async fn fill(
        &mut self,
        args: &FillArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args.target.reference()?;
        let text = self.with_secrets(target, &args.text).await?;
        let filled = rove_input::fill(self.model()?, target, &text).await?;
        out.happened.push(Happened::Filled {
            target,
            field_gone: filled.field_gone,
            shown_lines: filled.shown_lines,
            list: filled.list,
        });
        self.after_settle(&filled.settled, out).await?;
        // A number field that takes its value when it loses the focus is
        // left with Tab, unless Enter (submit) is to commit it.
        let mut value = if filled.field_gone {
            text.clone()
        } else {
            filled.value
        };
        if !args.submit
            && !filled.field_gone
            && let Some(committed) = rove_input::commit_number(self.model()?, target).await?
        {
            out.happened.push(Happened::CommittedByTab { target });
            self.after_settle(&committed.settled, out).await?;
            value = committed.value.unwrap_or(value);
        }
        // What the answer tells the agent the field took: what it read back,
        // or, when the page took the field away, the text sent.
        if self.config().secrets.named_in(&args.text).is_empty() {
            self.model()?.told_value(target, &value);
        }
        self.submit(args.submit, out).await
    }

    /// The text to type into `target`, with each secret placeholder
    /// replaced by its value when the field's own document is on the
    /// secret's domain; refused (nothing typed) when it is not.
    async fn with_secrets(
        &mut self,
        target: rove_page::Ref,
        text: &str,
    ) -> Result<String, CommandError> {
        if self.config().secrets.named_in(text).is_empty() {
            return Ok(text.to_owned());
        }
        let element = self.model()?.element(target).await?;
        let call = rove_cdp::protocol::runtime::CallFunctionOn::on(
            "the field's origin",
            "function() { const w = this.ownerDocument.defaultView; return w ? w.origin : 'null'; }",
            element.object_id.as_str(),
        )
        .by_value();
        let origin = element
            .session
            .run_checked_value::<_, Option<String>>(&call, None)
            .await;
        let _ = element
            .session
            .send(&rove_cdp::protocol::runtime::ReleaseObject {
                object_id: element.object_id.clone(),
            })
            .await;
        let origin = origin?.unwrap_or_else(|| "null".to_owned());
        self.config().secrets.fill_in(text, &origin).map_err(|refused| {
            CommandError::Rejected(format!(
                "nothing was typed: the secret {} may only be typed on {}, and {target} is in a page of {origin}",
                refused.name, refused.domain
            ))
        })
    }

    /// Enter, after a type or fill that asked for it (`submit`): both leave
    /// the focus in the field, so the key goes where the text went.
    async fn submit(&mut self, asked: bool, out: &mut Outcome) -> Result<(), CommandError> {
        if !asked {
            return Ok(());
        }
        let tab = self.focused()?;
        let settled = rove_input::press(&tab, "Enter").await?;
        out.happened.push(Happened::Pressed("Enter".into()));
        self.after_settle(&settled, out).await
    }

    pub(crate) async fn press(
        &mut self,
        args: &PressArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        if let Some(target) = &args.target {
            // Focus as a user would: by clicking the element (a slider by
            // tabbing to it, since a click would move it).
            let target = target.reference()?;
            let opts = ClickOptions {
                timeout: self.config().action_timeout,
                ..ClickOptions::default()
            };
            rove_input::focus_for_keys(self.model()?, target, &opts).await?;
        }
        let tab = self.focused()?;
        let settled = rove_input::press(&tab, &args.keys).await?;
        out.happened.push(Happened::Pressed(args.keys.clone()));
        self.after_settle(&settled, out).await
    }

    pub(crate) async fn select(
        &mut self,
        args: &SelectArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args.target.reference()?;
        let selected = rove_input::select_options(self.model()?, target, &args.values).await?;
        out.happened.push(Happened::Selected {
            target,
            options: selected.selected.clone(),
        });
        self.after_settle(&selected.settled, out).await
    }

    pub(crate) async fn set_checked(
        &mut self,
        args: &RefArgs,
        checked: bool,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let target = args.target.reference()?;
        let toggled = rove_input::set_checked(self.model()?, target, checked).await?;
        out.happened.push(Happened::Toggled {
            target,
            checked,
            already: toggled.unchanged,
        });
        if let Some(settled) = &toggled.settled {
            self.after_settle(settled, out).await?;
        }
        Ok(())
    }
}

/// `Alt`, `Control` (`Ctrl`), `Meta` (`Cmd`), `Shift`, any case.
fn parse_modifiers(names: &[String]) -> Result<Modifiers, CommandError> {
    let mut held = Modifiers::default();
    for name in names {
        match name.to_ascii_lowercase().as_str() {
            "alt" | "option" => held.alt = true,
            "control" | "ctrl" => held.ctrl = true,
            "meta" | "cmd" | "command" => held.meta = true,
            "shift" => held.shift = true,
            _ => {
                return Err(CommandError::Rejected(format!(
                    "{name:?} is not a modifier (Alt, Control, Meta, Shift)"
                )));
            }
        }
    }
    Ok(held)
}

#[cfg(test)]
mod tests {
    use super::parse_modifiers;

    #[test]
    fn modifiers_parse_by_any_usual_name() {
        let held = parse_modifiers(&["ctrl".into(), "Shift".into()]).expect("parses");
        assert!(held.ctrl && held.shift && !held.alt && !held.meta);
        assert!(parse_modifiers(&["Hyper".into()]).is_err());
    }
}
