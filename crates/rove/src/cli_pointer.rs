//! The command line of `mouse`, `fill-form` and `click --at`: their clap
//! arguments and how they become commands of the vocabulary.

use clap::Args;
use rove_commands as rc;

use crate::failure::Failure;
use crate::remote::{ref_of, rejected};

/// The examples of `rove mouse --help`.
pub const MOUSE_EXAMPLES: &str = "Examples:\n  rove mouse click 120 45\n  rove mouse click 120 45 --count 2 --button right\n  rove mouse move 100 200; rove mouse down; rove mouse move 300 200; rove mouse up   (a drag)\n  rove mouse down right\n  rove mouse wheel 0 400 --at 640 360\n  rove click --at 120 45   (the same as rove mouse click 120 45)\nX and Y are CSS pixels of the viewport, as in a screenshot of it at scale 1.\nIn MCP and rove run: with --caps vision.";

/// The examples of `rove fill-form --help`.
pub const FILL_FORM_EXAMPLES: &str = "Examples:\n  rove fill-form e3=ada@example.org e5=Peru e7=true e9=2024-05-01\n  rove fill-form 'e4=Ada Lovelace' e8=false\nA checkbox, radio or switch takes true or false; a select, an option's label.\nIn MCP and rove run: with --caps forms.";

#[derive(Debug, Args)]
pub struct MouseArgs {
    /// move, down, up, click or wheel.
    #[arg(value_parser = ["move", "down", "up", "click", "wheel"])]
    pub action: String,
    /// move, click: X Y; down, up: [BUTTON] [X Y]; wheel: DX DY.
    // Negative numbers only: a hyphen value in general would swallow the
    // flags after the words (`--at`, `--json`).
    #[arg(allow_negative_numbers = true, num_args = 0..=3)]
    pub words: Vec<String>,
    /// left, right or middle.
    #[arg(long)]
    pub button: Option<String>,
    /// click: 2 for a double click.
    #[arg(long)]
    pub count: Option<u8>,
    /// wheel: where to turn it (default: where the pointer is, or the
    /// middle of the viewport).
    #[arg(
        long,
        num_args = 2,
        value_names = ["X", "Y"],
        allow_hyphen_values = true
    )]
    pub at: Option<Vec<f64>>,
}

#[derive(Debug, Args)]
pub struct FillFormArgs {
    /// REF=VALUE, in the order to fill them (refs only here: a locator
    /// holds `=` itself; MCP and the agent take locators in fill-form).
    #[arg(required = true, value_name = "REF=VALUE")]
    pub fields: Vec<String>,
}

fn number(word: &str) -> Result<f64, Failure> {
    word.trim().parse::<f64>().map_err(|_| {
        rejected(
            format!("{word:?} is not a number"),
            "coordinates and distances are CSS pixels: rove mouse click 120 45",
        )
    })
}

fn button_of(word: &str) -> Result<rc::MouseButton, Failure> {
    match word {
        "left" => Ok(rc::MouseButton::Left),
        "right" => Ok(rc::MouseButton::Right),
        "middle" => Ok(rc::MouseButton::Middle),
        other => Err(rejected(
            format!("{other:?} is not a mouse button"),
            "use left, right or middle",
        )),
    }
}

/// `rove mouse`.
pub fn mouse(a: &MouseArgs) -> Result<rc::Command, Failure> {
    let mut args = rc::MouseArgs {
        action: match a.action.as_str() {
            "move" => rc::MouseAction::Move,
            "down" => rc::MouseAction::Down,
            "up" => rc::MouseAction::Up,
            "click" => rc::MouseAction::Click,
            _ => rc::MouseAction::Wheel,
        },
        x: None,
        y: None,
        button: a
            .button
            .as_deref()
            .map(button_of)
            .transpose()?
            .unwrap_or_default(),
        count: a.count,
        dx: None,
        dy: None,
    };
    let mut words: &[String] = &a.words;
    // down and up may name their button first: rove mouse down right.
    if matches!(args.action, rc::MouseAction::Down | rc::MouseAction::Up) {
        if let Some(first) = words.first().filter(|w| w.parse::<f64>().is_err()) {
            args.button = button_of(first)?;
            words = &words[1..];
        }
    }
    let pair = match words {
        [] => None,
        [a, b] => Some((number(a)?, number(b)?)),
        _ => {
            return Err(rejected(
                format!("mouse {} takes two numbers", a.action),
                "rove mouse move 100 200 | rove mouse wheel 0 400",
            ));
        }
    };
    if args.action == rc::MouseAction::Wheel {
        (args.dx, args.dy) = pair.map_or((None, None), |(dx, dy)| (Some(dx), Some(dy)));
        if let Some([x, y]) = a.at.as_deref() {
            (args.x, args.y) = (Some(*x), Some(*y));
        }
    } else {
        if a.at.is_some() {
            return Err(rejected(
                "--at is for mouse wheel; give the point as two numbers",
                "rove mouse click 120 45",
            ));
        }
        (args.x, args.y) = pair.map_or((None, None), |(x, y)| (Some(x), Some(y)));
    }
    Ok(rc::Command::Mouse(args))
}

/// `rove click --at X Y`: a click at a point, as `rove mouse click X Y`.
pub fn click_at(a: &crate::cli::ClickArgs) -> Result<rc::Command, Failure> {
    let Some([x, y]) = a.at.as_deref() else {
        return Err(rejected("--at takes X and Y", "rove click --at 120 45"));
    };
    if a.target.is_some() || !a.modifiers.is_empty() {
        return Err(rejected(
            "click --at takes a point instead of a ref, and no modifiers",
            "rove click --at 120 45, or rove click e7 --modifiers Shift",
        ));
    }
    Ok(rc::Command::Mouse(rc::MouseArgs {
        action: rc::MouseAction::Click,
        x: Some(*x),
        y: Some(*y),
        button: button_of(&a.button)?,
        count: Some(if a.double { 2 } else { 1 }),
        dx: None,
        dy: None,
    }))
}

/// `rove fill-form REF=VALUE …`.
pub fn fill_form(a: &FillFormArgs) -> Result<rc::Command, Failure> {
    let fields = a
        .fields
        .iter()
        .map(|field| {
            let Some((target, value)) = field.split_once('=') else {
                return Err(rejected(
                    format!("{field:?} is not REF=VALUE"),
                    "rove fill-form e3=ada@example.org e7=true",
                ));
            };
            Ok(rc::FormField {
                target: ref_of(target)?.into(),
                value: rc::FieldValue::Text(value.to_owned()),
            })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(rc::Command::FillForm(rc::FillFormArgs { fields }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mouse_of(action: &str, words: &[&str], at: Option<Vec<f64>>) -> rc::MouseArgs {
        let a = MouseArgs {
            action: action.into(),
            words: words.iter().map(|w| w.to_string()).collect(),
            button: None,
            count: None,
            at,
        };
        match mouse(&a) {
            Ok(rc::Command::Mouse(args)) => args,
            other => panic!("not a mouse command: {other:?}"),
        }
    }

    #[test]
    fn mouse_words_become_points_buttons_and_turns() {
        let click = mouse_of("click", &["120", "45.5"], None);
        assert_eq!((click.x, click.y), (Some(120.0), Some(45.5)));
        let down = mouse_of("down", &["right"], None);
        assert_eq!((down.button, down.x), (rc::MouseButton::Right, None));
        let wheel = mouse_of("wheel", &["0", "-300"], Some(vec![10.0, 20.0]));
        assert_eq!((wheel.dx, wheel.dy), (Some(0.0), Some(-300.0)));
        assert_eq!((wheel.x, wheel.y), (Some(10.0), Some(20.0)));
        let a = MouseArgs {
            action: "move".into(),
            words: vec!["1".into()],
            button: None,
            count: None,
            at: None,
        };
        assert!(mouse(&a).is_err(), "one number is not a point");
    }

    #[test]
    fn negative_numbers_at_the_shell_are_numbers_not_flags() {
        use clap::Parser;
        let parsed = |args: &[&str]| {
            crate::cli::Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
        };
        let cli = parsed(&["rove", "mouse", "wheel", "0", "-300", "--at", "-1", "5"]);
        let crate::cli::Command::Mouse(a) = cli.command else {
            panic!("not mouse");
        };
        assert_eq!(a.words, ["0", "-300"]);
        assert_eq!(a.at, Some(vec![-1.0, 5.0]));
        let cli = parsed(&["rove", "mouse", "click", "-5", "10"]);
        let crate::cli::Command::Mouse(a) = cli.command else {
            panic!("not mouse");
        };
        assert_eq!(a.words, ["-5", "10"]);
        let cli = parsed(&["rove", "mouse", "down", "right", "--json"]);
        assert!(cli.global.json);
    }
}
