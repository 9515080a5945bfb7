//! What `rove run` reads and checks before its browser starts: the
//! secrets it is given and the paths it will write to.

use rove_errors::ErrorCode;

use crate::cli::RunArgs;
use crate::failure::Failure;

/// `--history`, `--trace` and `--gif` are checked before the run: a path rove could
/// not write to would otherwise be found only once the run was paid for.
pub fn check_outputs(args: &RunArgs) -> Result<(), Failure> {
    for (flag, path) in [
        ("--history", &args.history),
        ("--trace", &args.trace),
        ("--gif", &args.gif),
    ] {
        if let Some(path) = path {
            rove_base::user_file::check_output_file(path).map_err(|e| {
                Failure::new(
                    ErrorCode::CommandRejected,
                    format!("{flag} {e}"),
                    "give a file path rove can write to",
                )
            })?;
        }
    }
    Ok(())
}

/// The run's secrets from `--secret` and `--secrets-file`. A malformed one
/// is refused without echoing its value.
pub fn parse_secrets(
    given: &[String],
    file: Option<&std::path::Path>,
) -> Result<rove_agent::Secrets, Failure> {
    let mut specs: Vec<String> = given.to_vec();
    if let Some(path) = file {
        let text = rove_base::user_file::read_text(path, rove_base::limits::SECRETS_FILE_BYTES)
            .map_err(|e| {
                Failure::new(
                    ErrorCode::CommandRejected,
                    format!("reading {e}"),
                    "give a readable file of NAME[@DOMAIN]=VALUE lines",
                )
            })?;
        specs.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_owned),
        );
    }
    let mut secrets = Vec::new();
    for spec in &specs {
        let Some(secret) = rove_agent::Secret::parse(spec) else {
            let name = spec.split(['=', '@']).next().unwrap_or_default();
            return Err(Failure::new(
                ErrorCode::CommandRejected,
                format!("the secret {name:?} is not NAME=value or NAME@domain=value"),
                "names are letters, digits and _; the value must not be empty",
            ));
        };
        secrets.push(secret);
    }
    Ok(rove_agent::Secrets(secrets))
}
