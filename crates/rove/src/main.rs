//! The `rove` binary: parses the command line, sets up logging (see
//! `logging`: stderr, or files; never stdout), runs
//! one command on a tokio runtime, and turns SIGINT, SIGTERM and SIGHUP into a
//! clean exit that ends every browser rove started.

#![forbid(unsafe_code)]

mod acquire;
mod cli;
mod daemon;
mod demo_site;
mod doctor;
mod failure;
mod hosts;
mod logging;
mod open;
mod output;
// A generator the tests run (it writes python/rove/_commands.py).
#[cfg(test)]
mod python_api;
#[cfg(test)]
mod readme_check;
mod runs;
mod shell;
mod signals;
mod trace_html;

use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{Cli, Command, Invocation};
use crate::failure::Failure;
use crate::output::Output;

fn main() -> ExitCode {
    let mut cli = cli::parse();
    // A daemon a command started is handed that command's options whole.
    let mut handed = Ok(());
    if let Invocation::Own(command) = &cli.command
        && let Command::Daemon(cli::DaemonArgs {
            options_on_stdin: true,
        }) = **command
    {
        match daemon::handed_options() {
            Ok(global) => cli.global = global,
            Err(failure) => handed = Err(failure),
        }
    }
    logging::init(cli.global.verbose);
    let out = Output {
        json: cli.global.json,
    };
    if let Err(failure) = handed {
        out.failure(&failure, None);
        return ExitCode::from(failure.exit_status());
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            let failure = Failure::new(
                rove_errors::ErrorCode::Internal,
                format!("could not start the async runtime: {e}"),
                "check the process limits (ulimit -u, ulimit -n)",
            );
            out.failure(&failure, None);
            return ExitCode::from(failure.exit_status());
        }
    };
    let status = runtime.block_on(async {
        // Listening starts before any command does: see `signals`.
        let mut signals = signals::Signals::listen();
        // `rove test` hears of the signal itself: its attempts end cleanly
        // and its report is still written.
        let test = matches!(&cli.command, Invocation::Own(c) if matches!(**c, Command::Test(_)));
        let distinct = cli::cdp::distinct(&cli.global.cdp_urls);
        if distinct.len() > 1 && !test {
            let failure = cli::cdp::several_cdp_urls(distinct.len());
            out.failure(&failure, None);
            return failure.exit_status();
        }
        if let Err(failure) = cli::cdp::check(&cli.global) {
            out.failure(&failure, None);
            return failure.exit_status();
        }
        if let Invocation::Own(command) = &cli.command
            && let Command::Test(args) = &**command
        {
            return runs::test::test(&cli.global, args, out, signals.next()).await;
        }
        if let Invocation::Own(command) = &cli.command
            && let Command::Run(args) = &**command
        {
            // `rove run` listens itself: it writes its history before it
            // ends.
            return runs::agent::run(&cli.global, args, out, signals).await;
        }
        tokio::select! {
            status = run(&cli, out) => status,
            signal = signals.next() => {
                tracing::debug!(signal, "interrupted; ending traces and browsers");
                // Before the exit, which does not wait for the threads that
                // hold the sessions (and their traces).
                rove_commands::end_all_traces(&format!("interrupted (signal {signal})"));
                // The command's future, and with it every browser handle, is
                // dropped by now; this catches anything still registered.
                rove_browser::end_all_launched();
                128 + signal
            }
        }
    });
    runtime.shutdown_timeout(rove_base::limits::RUNTIME_SHUTDOWN);
    rove_browser::end_all_launched();
    ExitCode::from(status)
}

async fn run(cli: &Cli, out: Output) -> u8 {
    let command = match &cli.command {
        Invocation::Own(command) => command,
        Invocation::Session(typed) => return session(cli, typed, out).await,
    };
    // `rove call` is one session command too (as the Python package sends
    // them): traced like the shell's.
    if cli.trace.trace.is_some() && !matches!(**command, Command::Call(_)) {
        return untraced(out);
    }
    match &**command {
        Command::Doctor => doctor::doctor(&cli.global, out).await,
        Command::Mcp(args) => mcp(&cli.global, args, out).await,
        Command::Replay(args) => runs::agent::replay(&cli.global, args, out).await,
        Command::PrintConfig(args) => hosts::print_config::print_config(&cli.global, args, out),
        Command::Skill => hosts::skill::skill(out),
        Command::Completions(args) => cli::manual::completions(args.shell, out),
        Command::Man(args) => cli::manual::man(args.command.as_deref(), out),
        Command::Trace(cli::side::TraceCommand::Show(args)) => trace_html::show(args, out),
        Command::Trace(cli::side::TraceCommand::Export(args)) => {
            trace_html::export::export(args, out)
        }
        Command::Trace(cli::side::TraceCommand::Start(args)) => {
            shell::remote::trace_control(&cli.global, shell::remote::trace_start(args), out).await
        }
        Command::Trace(cli::side::TraceCommand::Stop) => {
            shell::remote::trace_control(&cli.global, daemon::protocol::TraceControl::Stop, out)
                .await
        }
        Command::DemoSite(args) => demo_site::serve(args, out).await,
        Command::Call(args) => tool_call(cli, args, out).await,
        Command::Daemon(_) => {
            // A session of its own: the terminal that started the first
            // command (its Ctrl-C, its hang-up) no longer reaches the daemon.
            if let Err(e) = rustix::process::setsid() {
                tracing::debug!(error = %e, "setsid failed; the daemon stays in the caller's session");
            }
            let idle = Duration::from_secs(cli.global.idle.max(1));
            daemon::server::serve(&cli.global, &cli.global.session, idle).await
        }
        // Handled before the select in `main`.
        Command::Run(_) | Command::Test(_) => 0,
    }
}

/// A session command typed at the shell: sent to the session's daemon, or
/// (`open --stay`) run by this process.
async fn session(cli: &Cli, typed: &cli::Typed, out: Output) -> u8 {
    let call = match shell::call::call(&typed.name, &typed.matches) {
        Ok(call) => call,
        Err(failure) => {
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    // `rove --trace FILE` traces one command the session's daemon runs.
    let traced = cli.trace.trace.is_some();
    match call {
        shell::call::ShellCall::Stay { .. }
        | shell::call::ShellCall::Run(rove_commands::Command::Close)
            if traced =>
        {
            untraced(out)
        }
        shell::call::ShellCall::Stay { url, timeout } => {
            open::open(&cli.global, &url, timeout, out).await
        }
        shell::call::ShellCall::Run(command) => {
            shell::remote::run(&cli.global, command, &cli.trace, out).await
        }
    }
}

/// `rove call TOOL JSON`: a tool call of the vocabulary, parsed as MCP's
/// are, run on the session's daemon as a shell command is.
async fn tool_call(cli: &Cli, args: &cli::CallArgs, out: Output) -> u8 {
    let arguments = match args.arguments.as_deref().map(serde_json::from_str) {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(e)) => {
            let failure = Failure::new(
                rove_errors::ErrorCode::CommandRejected,
                format!("the arguments are not one JSON object: {e}"),
                "give them as one JSON object: rove call click '{\"ref\": \"e7\"}'",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    match rove_commands::Command::from_tool_call(&args.tool, arguments.as_ref()) {
        // Closing ends the session, with no command line to trace.
        Ok(rove_commands::Command::Close) if cli.trace.trace.is_some() => untraced(out),
        Ok(command) => shell::remote::run(&cli.global, command, &cli.trace, out).await,
        Err(e) => {
            let failure = Failure::from_command(&e);
            out.failure(&failure, None);
            failure.exit_status()
        }
    }
}

/// `rove --trace FILE` before a command that is not one command of a
/// session's daemon.
fn untraced(out: Output) -> u8 {
    let failure = Failure::new(
        rove_errors::ErrorCode::CommandRejected,
        "--trace before the command traces one session command (open, click, snapshot …)",
        "rove run and rove mcp take --trace after their name; a session's commands are traced with rove trace start FILE",
    );
    out.failure(&failure, None);
    failure.exit_status()
}

/// `rove mcp`: MCP over stdio until the client goes (stdout carries only
/// JSON-RPC; failures go to stderr), or over HTTP until interrupted.
async fn mcp(global: &cli::GlobalArgs, args: &cli::McpArgs, out: Output) -> u8 {
    let transport = global.transport();
    // A session named by the host (`rove mcp --session work`, or
    // ROVE_SESSION) is shared with the CLI through its daemon; otherwise
    // each client gets a session of its own.
    let named = global.session_named;
    let source = match &global.cdp_url {
        _ if named => rove_mcp::BrowserSource::Shared(shell::remote::forwarder(global.clone())),
        Some(url) => rove_mcp::BrowserSource::Connect(rove_browser::ConnectOptions {
            transport: transport.clone(),
            ..rove_browser::ConnectOptions::new(url.clone())
        }),
        None => rove_mcp::BrowserSource::Launch(acquire::launch_options(global, &transport)),
    };
    let config = match global.session_config() {
        Ok(config) => rove_commands::SessionConfig {
            caps: args.caps.caps.unwrap_or_default(),
            ..config
        },
        Err(e) => {
            let failure = Failure::from(e);
            out.failure(&failure, None);
            return failure.exit_status();
        }
    };
    // Every tool call of every session this server holds is recorded in
    // the one trace (the sessions share the config's traces).
    if let Some(path) = &args.trace {
        if named {
            let failure = Failure::new(
                rove_errors::ErrorCode::CommandRejected,
                format!(
                    "session {} is the daemon's: its trace is the daemon's too",
                    global.session
                ),
                "trace the shared session with: rove --session NAME trace start FILE",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
        let origin = rove_commands::trace_format::TraceOrigin {
            face: "mcp".into(),
            scope: Some("server".into()),
            session: None,
        };
        let started = config.traces.start(
            path,
            args.trace_screenshots,
            rove_commands::SCREENSHOT_BUDGET,
            origin,
        );
        if let Err(e) = started {
            let failure = Failure::new(
                rove_errors::ErrorCode::CommandRejected,
                format!("cannot write the trace {}: {e}", path.display()),
                "choose a file in a folder you can write to",
            );
            out.failure(&failure, None);
            return failure.exit_status();
        }
    }
    let traces = config.traces.clone();
    let status = serve_mcp(args, source, config, global, out).await;
    traces.stop_all("the MCP server stopped");
    status
}

/// Serves MCP over the transport asked for until it ends.
async fn serve_mcp(
    args: &cli::McpArgs,
    source: rove_mcp::BrowserSource,
    config: rove_commands::SessionConfig,
    global: &cli::GlobalArgs,
    out: Output,
) -> u8 {
    if args.http {
        // An MCP session left alone as long as a daemon would wait ends
        // with its browser, as the daemon does (`--idle`).
        let limits = rove_mcp::HttpLimits {
            session_idle: Duration::from_secs(global.idle.max(1)),
            ..rove_mcp::HttpLimits::default()
        };
        return match rove_mcp::serve_http_with(
            args.port,
            args.token.as_ref().map(|t| t.expose().to_owned()),
            source,
            config,
            limits,
        )
        .await
        {
            Ok(server) => {
                out.line(&format!(
                    "rove MCP at {}\nsend the header: Authorization: Bearer {}",
                    server.url(),
                    server.token
                ));
                out.success(serde_json::json!({"url": server.url(), "token": server.token}));
                // Hidden from everything written after: these lines above
                // are the one place that gives it (every output hides what
                // is registered).
                rove_base::redact::hide_literal(&server.token);
                server.run().await;
                0
            }
            Err(e) => {
                let failure = Failure::new(
                    rove_errors::ErrorCode::LaunchFailed,
                    e.to_string(),
                    "choose another port with --port",
                );
                out.failure(&failure, None);
                failure.exit_status()
            }
        };
    }
    match rove_mcp::RoveMcp::new(source, config).serve_stdio().await {
        Ok(()) => 0,
        Err(e) => {
            tracing::error!(error = %e, "the MCP server stopped");
            6
        }
    }
}
