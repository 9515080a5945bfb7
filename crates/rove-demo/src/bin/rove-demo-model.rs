//! Serves the scripted model of the demo suite (OpenAI's wire format) on
//! 127.0.0.1 until killed, for benchmarks and for trying `rove test`
//! without a real model: `rove-demo-model [--port P] [--mistaken PHRASE]…`
//! prints its base URL (give it as OPENAI_BASE_URL).

#![forbid(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let mut options = rove_demo::model::ModelOptions::default();
    let mut port = 0u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(p)) => match p.parse() {
                Ok(p) => port = p,
                Err(_) => return usage(&format!("not a port: {p}")),
            },
            ("--mistaken", Some(phrase)) => options.mistaken.push(phrase),
            _ => return usage(&format!("unknown argument {arg}")),
        }
    }
    let server = match rove_demo::model::start(options, port).await {
        Ok(server) => server,
        Err(e) => {
            eprintln!("rove-demo-model: could not listen on 127.0.0.1:{port}: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    println!("{}", server.url("/v1"));
    let _ = std::io::stdout().flush();
    std::future::pending::<()>().await;
    std::process::ExitCode::SUCCESS
}

fn usage(problem: &str) -> std::process::ExitCode {
    eprintln!("rove-demo-model: {problem}\nusage: rove-demo-model [--port P] [--mistaken PHRASE]…");
    std::process::ExitCode::from(2)
}
