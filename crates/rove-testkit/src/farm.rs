//! A stand-in for a browser farm's front door, in front of a real Chromium:
//! it asks for a token (`?token=` or `Authorization: Bearer`), answers
//! `/json/version` chunked with a path-less `webSocketDebuggerUrl` that
//! leaves the token out (as browserless does), and hands an authorised
//! WebSocket handshake on to the browser whatever its path. Optionally over
//! TLS with the test-only certificate in `fixtures/tls`.
//!
//! Its [`FarmLimits`] play a farm's capacity as browserless does: at most
//! `concurrent` connections at once, the rest held in the handshake until
//! one ends; `busy` handshakes answered 429 first; and a session `timeout`
//! after which a connection gets an HTTP 408 written onto its socket and is
//! closed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// What a farm saw of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// `GET /json/version?token=…` and the like.
    pub request_line: String,
    /// Whether the token was there.
    pub authorised: bool,
}

/// How much a farm gives (see the module's doc); the default is no limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct FarmLimits {
    /// Connections to the browser at once; more wait in the handshake.
    pub concurrent: Option<usize>,
    /// How many handshakes are answered 429 before any is let through
    /// (`usize::MAX`: every one).
    pub busy: usize,
    /// How long a connection may live before the farm ends it.
    pub timeout: Option<Duration>,
}

/// What a farm counted of its connections to the browser.
#[derive(Debug, Default)]
struct Counters {
    open: AtomicUsize,
    most_open: AtomicUsize,
    given: AtomicUsize,
    busy_answered: AtomicUsize,
    ended: AtomicUsize,
}

/// A farm's front door on 127.0.0.1.
#[derive(Debug)]
pub struct Farm {
    /// Where it listens.
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    counters: Arc<Counters>,
    accept: JoinHandle<()>,
}

impl Drop for Farm {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// The test CA's certificate, to pass as `--cdp-ca`.
pub fn test_ca_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/tls/ca.pem")
}

impl Farm {
    /// Starts one in front of the browser at `browser_port`, whose
    /// WebSocket path is `browser_path`, letting in `token`; over TLS when
    /// `tls`.
    pub async fn start(browser_port: u16, browser_path: &str, token: &str, tls: bool) -> Farm {
        Farm::start_with(
            browser_port,
            browser_path,
            token,
            tls,
            FarmLimits::default(),
        )
        .await
    }

    /// The same, giving as much as `limits` says.
    pub async fn start_with(
        browser_port: u16,
        browser_path: &str,
        token: &str,
        tls: bool,
        limits: FarmLimits,
    ) -> Farm {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind farm"); // ok: test support, a failed set-up fails the test
        let port = listener.local_addr().expect("addr").port(); // ok: test support
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let counters: Arc<Counters> = Arc::default();
        let door = Arc::new(Door {
            port,
            browser_port,
            browser_path: browser_path.to_owned(),
            token: token.to_owned(),
            seen: seen.clone(),
            limits,
            queue: Arc::new(tokio::sync::Semaphore::new(
                limits
                    .concurrent
                    .unwrap_or(tokio::sync::Semaphore::MAX_PERMITS),
            )),
            counters: counters.clone(),
        });
        let acceptor = tls.then(tls_acceptor);
        let accept = tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let door = door.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    match acceptor {
                        Some(acceptor) => {
                            if let Ok(tls) = acceptor.accept(inbound).await {
                                door.serve(tls).await;
                            }
                        }
                        None => door.serve(inbound).await,
                    }
                });
            }
        });
        Farm {
            port,
            seen,
            counters,
            accept,
        }
    }

    /// The most connections to the browser that were open at once.
    pub fn most_open(&self) -> usize {
        self.counters.most_open.load(Ordering::SeqCst)
    }

    /// Connections let through to the browser so far.
    pub fn browsers_given(&self) -> usize {
        self.counters.given.load(Ordering::SeqCst)
    }

    /// Handshakes answered 429 so far.
    pub fn busy_answered(&self) -> usize {
        self.counters.busy_answered.load(Ordering::SeqCst)
    }

    /// Connections the farm ended at its timeout so far.
    pub fn ended(&self) -> usize {
        self.counters.ended.load(Ordering::SeqCst)
    }

    /// Every request so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("seen").clone() // ok: test support
    }
}

/// A TLS front on 127.0.0.1 with the test certificate, handing each
/// connection as it is to a plain server at `target_port`: `wss://` and
/// `https://` for a farm that speaks only the plain forms.
#[derive(Debug)]
pub struct TlsFront {
    /// Where it listens.
    pub port: u16,
    accept: JoinHandle<()>,
}

impl Drop for TlsFront {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl TlsFront {
    /// Starts one in front of `target_port`.
    pub async fn start(target_port: u16) -> TlsFront {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind TLS front"); // ok: test support, a failed set-up fails the test
        let port = listener.local_addr().expect("addr").port(); // ok: test support
        let acceptor = tls_acceptor();
        let accept = tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(inbound).await else {
                        return;
                    };
                    if let Ok(mut plain) = TcpStream::connect(("127.0.0.1", target_port)).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                    }
                });
            }
        });
        TlsFront { port, accept }
    }
}

struct Door {
    port: u16,
    browser_port: u16,
    browser_path: String,
    token: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    limits: FarmLimits,
    queue: Arc<tokio::sync::Semaphore>,
    counters: Arc<Counters>,
}

impl Door {
    async fn serve<S: AsyncRead + AsyncWrite + Unpin>(&self, mut inbound: S) {
        let Some((head, rest)) = read_head(&mut inbound).await else {
            return;
        };
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let target = request_line
            .split(' ')
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        let bearer = format!("Bearer {}", self.token);
        let authorised = target
            .split_once('?')
            .is_some_and(|(_, q)| q.split('&').any(|p| p == format!("token={}", self.token)))
            || headers
                .iter()
                .any(|(n, v)| n == "authorization" && *v == bearer);
        {
            // A poisoned lock fails the test.
            let mut seen = self.seen.lock().expect("seen"); // ok: test support
            seen.push(Seen {
                request_line: request_line.clone(),
                authorised,
            });
        }
        if !authorised {
            let _ = inbound
                .write_all(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\nConnection: close\r\n\r\nUnauthorized")
                .await;
            return;
        }
        let path = target.split('?').next().unwrap_or_default();
        if path.ends_with("/json/version") {
            let body = format!(
                "{{\"Browser\":\"farm\",\"webSocketDebuggerUrl\":\"ws://0.0.0.0:{}\"}}",
                self.port
            );
            let (first, second) = body.split_at(body.len() / 2);
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n{second}\r\n0\r\n\r\n",
                first.len(),
                second.len()
            );
            let _ = inbound.write_all(answer.as_bytes()).await;
            let _ = inbound.flush().await;
            return;
        }
        let upgrade = headers
            .iter()
            .any(|(n, v)| n == "upgrade" && v.eq_ignore_ascii_case("websocket"));
        if !upgrade {
            let _ = inbound
                .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                .await;
            return;
        }
        let counters = &self.counters;
        let busy = self.limits.busy;
        let answer_busy = counters
            .busy_answered
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < busy).then_some(n + 1)
            })
            .is_ok();
        if answer_busy {
            let _ = inbound
                .write_all(b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
            return;
        }
        // Held here, the handshake unanswered, until a browser is free.
        let Ok(_permit) = self.queue.clone().acquire_owned().await else {
            return;
        };
        let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", self.browser_port)).await else {
            return;
        };
        counters.given.fetch_add(1, Ordering::SeqCst);
        let open = counters.open.fetch_add(1, Ordering::SeqCst) + 1;
        counters.most_open.fetch_max(open, Ordering::SeqCst);
        self.pass_on(&mut inbound, &mut outbound, &headers, &rest)
            .await;
        counters.open.fetch_sub(1, Ordering::SeqCst);
    }

    /// The handshake forwarded to the browser, then both ways until one
    /// side ends or the farm's timeout does.
    async fn pass_on<S: AsyncRead + AsyncWrite + Unpin>(
        &self,
        inbound: &mut S,
        outbound: &mut TcpStream,
        headers: &[(String, String)],
        rest: &[u8],
    ) {
        // The browser's own path and Host; the farm's credentials stay here.
        let mut forwarded = format!("GET {} HTTP/1.1\r\n", self.browser_path);
        forwarded.push_str(&format!("host: 127.0.0.1:{}\r\n", self.browser_port));
        for (name, value) in headers {
            if name != "host" && name != "authorization" {
                forwarded.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        forwarded.push_str("\r\n");
        if outbound.write_all(forwarded.as_bytes()).await.is_err()
            || outbound.write_all(rest).await.is_err()
        {
            return;
        }
        let both_ways = tokio::io::copy_bidirectional(inbound, outbound);
        match self.limits.timeout {
            None => {
                let _ = both_ways.await;
            }
            Some(limit) => {
                if tokio::time::timeout(limit, both_ways).await.is_err() {
                    // As browserless ends a session past its TIMEOUT: an
                    // HTTP answer in the middle of the WebSocket, then close.
                    self.counters.ended.fetch_add(1, Ordering::SeqCst);
                    let _ = inbound
                        .write_all(b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n")
                        .await;
                    let _ = inbound.shutdown().await;
                    let _ = outbound.shutdown().await;
                }
            }
        }
    }
}

/// The request's head (without the blank line) and whatever came after it.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Option<(String, Vec<u8>)> {
    let mut raw = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).into_owned();
            return Some((head, raw[end + 4..].to_vec()));
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || raw.len() > 64 * 1024 {
            return None;
        }
        raw.extend_from_slice(&chunk[..n]);
    }
}

fn tls_acceptor() -> tokio_rustls::TlsAcceptor {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/tls");
    let certs = CertificateDer::pem_file_iter(dir.join("leaf.pem"))
        .expect("leaf.pem") // ok: test support, a failed set-up fails the test
        .collect::<Result<Vec<_>, _>>()
        .expect("leaf certificate"); // ok: test support
    let key = PrivateKeyDer::from_pem_file(dir.join("leaf.key")).expect("leaf.key"); // ok: test support
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions") // ok: test support
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("TLS server settings"); // ok: test support
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}
