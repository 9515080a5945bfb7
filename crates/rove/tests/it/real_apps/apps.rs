//! The applications under test, Django's admin, JupyterLab, Notebook 7,
//! Streamlit, Datasette and Gradio, from the venv scripts/fetch-apps.sh installs. Each starts once per test binary, on
//! 127.0.0.1 on a free port, with its data in a folder of this run, and ends
//! with the binary: the process that starts an app is a thread that lives as
//! long as the binary, and the app carries a parent-death signal, so a panic
//! in a test or a killed test binary leaves no server behind.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long an app may take to start on a loaded machine.
const START_DEADLINE: Duration = Duration::from_secs(120);

pub const DJANGO_ADMIN: &str = "admin";
pub const DJANGO_PASSWORD: &str = "rove-admin-Pw-1";
pub const JUPYTER_TOKEN: &str = "rove-real-apps-token";

/// The venv with the applications.
pub fn venv() -> PathBuf {
    let venv = std::env::var_os("ROVE_APPS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/apps"))
        });
    assert!(
        [
            "jupyter-lab",
            "jupyter-notebook",
            "django-admin",
            "streamlit",
            "datasette",
            "gradio"
        ]
        .iter()
        .all(|bin| venv.join("bin").join(bin).is_file()),
        "the real apps are not all installed in {}: run scripts/fetch-apps.sh (scripts/test.sh does)",
        venv.display()
    );
    venv
}

pub fn python() -> PathBuf {
    venv().join("bin/python")
}

/// The helper scripts beside this file.
pub fn script(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/real_apps")).join(name)
}

/// Where this run keeps its data and the transcripts of rove's answers.
pub fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("real-apps")
}

/// This binary's own data folder; folders of runs that have ended are
/// removed first.
fn run_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let runs = work_dir().join("runs");
        for entry in std::fs::read_dir(&runs).into_iter().flatten().flatten() {
            let alive = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
            if !alive {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let dir = runs.join(std::process::id().to_string());
        std::fs::create_dir_all(&dir).expect("run folder");
        dir
    })
}

/// A server process, started by a thread that waits for it and lives as
/// long as the test binary.
struct Server {
    pid: u32,
    exit: Arc<Mutex<Option<String>>>,
    log: PathBuf,
}

impl Server {
    /// Starts `command` with its output in `log`; `signal` reaches it when
    /// the test binary ends.
    fn spawn(mut command: Command, log: PathBuf, signal: libc::c_int) -> Server {
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        command
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0);
        let shown = format!("{command:?}");
        let parent = std::process::id();
        // SAFETY: between fork and exec, only async-signal-safe calls.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, signal, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() as u32 != parent {
                    return Err(std::io::Error::other("the test binary ended during spawn"));
                }
                Ok(())
            });
        }
        let exit = Arc::new(Mutex::new(None));
        let exit_seen = Arc::clone(&exit);
        let (spawned_tx, spawned_rx) = std::sync::mpsc::channel();
        // The parent-death signal follows the thread that spawned the
        // process: this one never ends before the binary does.
        std::thread::Builder::new()
            .name("real-app-owner".into())
            .spawn(move || match command.spawn() {
                Ok(mut child) => {
                    let _ = spawned_tx.send(Ok(child.id()));
                    let status = child.wait();
                    *exit_seen.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(format!("{status:?}"));
                    loop {
                        std::thread::park();
                    }
                }
                Err(e) => {
                    let _ = spawned_tx.send(Err(e));
                }
            })
            .expect("owner thread");
        let pid = spawned_rx
            .recv()
            .expect("the owner thread answers")
            .unwrap_or_else(|e| panic!("could not start {shown}: {e}"));
        Server { pid, exit, log }
    }

    /// Polls `ready` until it gives a value; fails with the server's log
    /// when it exits or the deadline passes.
    fn wait_until<T>(&self, what: &str, mut ready: impl FnMut() -> Option<T>) -> T {
        let started = Instant::now();
        loop {
            if let Some(value) = ready() {
                return value;
            }
            let log = || std::fs::read_to_string(&self.log).unwrap_or_default();
            if let Some(status) = self.exit.lock().unwrap_or_else(|e| e.into_inner()).clone() {
                panic!("{what} exited ({status}) before it was ready:\n{}", log());
            }
            assert!(
                started.elapsed() < START_DEADLINE,
                "{what} (pid {}) not ready after {START_DEADLINE:?}:\n{}",
                self.pid,
                log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Django's admin on a throwaway project (sqlite, DEBUG), with the
/// superuser `admin`.
#[derive(Debug)]
pub struct Django {
    pub url: String,
    pub root: PathBuf,
}

pub fn django() -> &'static Django {
    static APP: OnceLock<Django> = OnceLock::new();
    APP.get_or_init(|| {
        let root = run_dir().join("django");
        let mut command = Command::new(python());
        command
            .arg(script("django_app.py"))
            .args(["serve".as_ref(), root.as_os_str(), DJANGO_PASSWORD.as_ref()])
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let server = Server::spawn(command, run_dir().join("django.log"), libc::SIGKILL);
        let port: u16 = server.wait_until("Django", || {
            std::fs::read_to_string(root.join("port"))
                .ok()?
                .trim()
                .parse()
                .ok()
        });
        Django {
            url: format!("http://127.0.0.1:{port}/"),
            root,
        }
    })
}

impl Django {
    /// What the database holds about a user (`user`) or a group (`group`).
    pub fn query(&self, what: &str, args: &[&str]) -> serde_json::Value {
        let out = Command::new(python())
            .arg(script("django_app.py"))
            .arg(what)
            .arg(&self.root)
            .args(args)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .expect("python ran");
        assert!(
            out.status.success(),
            "django_app.py {what} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON from django_app.py")
    }
}

/// JupyterLab serving a folder of its own, with a known token.
#[derive(Debug)]
pub struct Jupyter {
    pub url: String,
    pub root: PathBuf,
}

pub fn jupyter() -> &'static Jupyter {
    static APP: OnceLock<Jupyter> = OnceLock::new();
    APP.get_or_init(|| start_jupyter("jupyter", "lab"))
}

/// Notebook 7 (`jupyter notebook`) serving a folder of its own, with a
/// known token.
pub fn notebook() -> &'static Jupyter {
    static APP: OnceLock<Jupyter> = OnceLock::new();
    APP.get_or_init(|| start_jupyter("notebook", "notebook"))
}

/// Starts `jupyter_app.py serve` for `app` (`lab` or `notebook`) in the
/// folder `name` of this run.
fn start_jupyter(name: &str, app: &str) -> Jupyter {
    let dir = run_dir().join(name);
    let mut command = Command::new(python());
    command.arg(script("jupyter_app.py")).args([
        "serve".as_ref(),
        dir.as_os_str(),
        JUPYTER_TOKEN.as_ref(),
        app.as_ref(),
    ]);
    // SIGTERM: the server shuts its kernels down on the way out.
    let server = Server::spawn(
        command,
        run_dir().join(format!("{name}.log")),
        libc::SIGTERM,
    );
    // The server writes its address once it listens.
    let info = dir.join(format!("runtime/jpserver-{}.json", server.pid));
    let port = server.wait_until(name, || {
        let info: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&info).ok()?).ok()?;
        info["port"].as_u64()
    });
    Jupyter {
        url: format!("http://127.0.0.1:{port}/"),
        root: dir.join("notebooks"),
    }
}

impl Jupyter {
    /// The address a user opens: a workspace of the test's own (so tests in
    /// parallel do not restore each other's layout), with the token.
    pub fn lab_url(&self, workspace: &str, path: &str) -> String {
        format!(
            "{}lab/workspaces/{workspace}{path}?token={JUPYTER_TOKEN}",
            self.url
        )
    }
}

/// A port free on 127.0.0.1 now, for a server that cannot choose its own
/// (Streamlit, Datasette) and reports none.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Whether a server answers HTTP on `port` at `path` (any status).
fn answers(port: u16, path: &str) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.")
}

/// An app that writes what its server holds per run (the page's `run` query
/// parameter) under `state`: Streamlit's and Gradio's.
#[derive(Debug)]
pub struct PerRun {
    pub url: String,
    pub state: PathBuf,
}

pub fn streamlit() -> &'static PerRun {
    static APP: OnceLock<PerRun> = OnceLock::new();
    APP.get_or_init(|| {
        let state = run_dir().join("streamlit");
        let port = free_port();
        let mut command = Command::new(venv().join("bin/streamlit"));
        command
            .arg("run")
            .arg(script("streamlit_app.py"))
            .args(["--server.address", "127.0.0.1", "--server.port"])
            .arg(port.to_string())
            .args([
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ])
            .env("ROVE_STREAMLIT_STATE", &state)
            .env("HOME", run_dir())
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let server = Server::spawn(command, run_dir().join("streamlit.log"), libc::SIGTERM);
        server.wait_until("Streamlit", || {
            answers(port, "/_stcore/health").then_some(())
        });
        PerRun {
            url: format!("http://127.0.0.1:{port}/"),
            state,
        }
    })
}

impl PerRun {
    /// Waits until the server's state for `run` has `key` equal to `want`.
    pub fn holds(&self, run: &str, key: &str, want: serde_json::Value) -> serde_json::Value {
        eventually(
            &format!("the server holds {key} = {want} for {run}"),
            Duration::from_secs(30),
            || {
                let state = self.state(run)?;
                if state[key] == want {
                    Ok(state)
                } else {
                    Err(state.to_string())
                }
            },
        )
    }

    /// The address a test opens: its own run of the app.
    pub fn run_url(&self, run: &str) -> String {
        format!("{}?run={run}", self.url)
    }

    /// What the app's server held after the latest run of `run`.
    pub fn state(&self, run: &str) -> Result<serde_json::Value, String> {
        let file = self.state.join(format!("{run}.json"));
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        serde_json::from_str(&text).map_err(|e| e.to_string())
    }
}

/// Datasette serving `staff.db` (departments, employees) made by
/// `datasette_app.py`.
#[derive(Debug)]
pub struct Datasette {
    pub url: String,
}

pub fn datasette() -> &'static Datasette {
    static APP: OnceLock<Datasette> = OnceLock::new();
    APP.get_or_init(|| {
        let root = run_dir().join("datasette");
        let port = free_port();
        let mut command = Command::new(python());
        command
            .arg(script("datasette_app.py"))
            .arg("serve")
            .arg(&root)
            .arg(port.to_string())
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let server = Server::spawn(command, run_dir().join("datasette.log"), libc::SIGTERM);
        server.wait_until("Datasette", || {
            answers(port, "/-/versions.json").then_some(())
        });
        Datasette {
            url: format!("http://127.0.0.1:{port}/"),
        }
    })
}

/// The Gradio app `gradio_app.py`.
pub fn gradio() -> &'static PerRun {
    static APP: OnceLock<PerRun> = OnceLock::new();
    APP.get_or_init(|| {
        let state = run_dir().join("gradio");
        let port = free_port();
        let mut command = Command::new(python());
        command
            .arg(script("gradio_app.py"))
            .arg(port.to_string())
            .env("ROVE_GRADIO_STATE", &state)
            .env("GRADIO_ANALYTICS_ENABLED", "False")
            .env("GRADIO_TEMP_DIR", run_dir().join("gradio-tmp"))
            .env("HOME", run_dir())
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let server = Server::spawn(command, run_dir().join("gradio.log"), libc::SIGTERM);
        server.wait_until("Gradio", || answers(port, "/").then_some(()));
        PerRun {
            url: format!("http://127.0.0.1:{port}/"),
            state,
        }
    })
}

/// Polls `check` until it gives a value or `deadline` passes: end states on
/// the server settle after the page says they did.
pub fn eventually<T>(
    what: &str,
    deadline: Duration,
    mut check: impl FnMut() -> Result<T, String>,
) -> T {
    let started = Instant::now();
    loop {
        match check() {
            Ok(value) => return value,
            Err(last) if started.elapsed() > deadline => {
                panic!("{what}: not so after {deadline:?}; last seen: {last}")
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}
