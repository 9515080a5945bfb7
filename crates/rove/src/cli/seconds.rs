//! A flag given in seconds, checked once for every flag that takes one
//! (`--timeout`, `--step-timeout`, `--captcha-wait`, `--judge-timeout`,
//! `--connect-wait`): a value that is not a number of seconds in the flag's
//! range is refused before anything starts, naming the flag, never taken
//! as a default.

use std::time::Duration;

use rove_errors::ErrorCode;

use crate::failure::Failure;

/// The values a flag in seconds takes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Range {
    /// Above 0.
    AboveZero,
    /// 0 or more.
    FromZero,
    /// Above 0, and this much at most.
    AboveZeroUpTo(Duration),
}

/// `value` seconds of `flag` as a duration, or the run refused
/// (`COMMAND_REJECTED`) with `example` in the hint.
pub(crate) fn seconds(
    flag: &str,
    value: f64,
    range: Range,
    example: &str,
) -> Result<Duration, Failure> {
    let (taken, wanted) = match range {
        Range::AboveZero => (value > 0.0, "above 0".to_owned()),
        Range::FromZero => (value >= 0.0, "0 or more".to_owned()),
        Range::AboveZeroUpTo(most) => (
            value > 0.0 && value <= most.as_secs_f64(),
            format!("above 0 (at most {})", most.as_secs()),
        ),
    };
    match Duration::try_from_secs_f64(value) {
        Ok(duration) if taken => Ok(duration),
        _ => Err(Failure::new(
            ErrorCode::CommandRejected,
            format!("{flag} {value} is not a number of seconds {wanted}"),
            format!("give seconds, like {flag} {example}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_range_takes_its_values_and_refuses_the_rest_naming_the_flag() {
        let most = Duration::from_secs(600);
        assert_eq!(
            seconds("--a", 1.5, Range::AboveZero, "1").ok(),
            Some(Duration::from_millis(1500))
        );
        assert!(seconds("--a", 0.0, Range::AboveZero, "1").is_err());
        assert_eq!(
            seconds("--a", 0.0, Range::FromZero, "1").ok(),
            Some(Duration::ZERO)
        );
        assert!(seconds("--a", 600.0, Range::AboveZeroUpTo(most), "1").is_ok());
        for (value, range) in [
            (-1.0, Range::FromZero),
            (f64::NAN, Range::FromZero),
            (f64::INFINITY, Range::AboveZero),
            (601.0, Range::AboveZeroUpTo(most)),
        ] {
            let refused = seconds("--wait", value, range, "90").expect_err("refused");
            let text = format!("{refused:?}");
            assert!(text.contains("--wait"), "{text}");
            assert!(text.contains("give seconds, like --wait 90"), "{text}");
        }
    }
}
