//! Where a browser's DevTools endpoint is, and what it takes to be let in.
//!
//! `--cdp-url` comes in four schemes (`ws`, `wss`, `http`, `https`), with a
//! path or without, often with a farm's token in the query. The address is
//! parsed once, here: a path-less `ws://host:port?token=T` becomes
//! `ws://host:port/?token=T` (so the handshake asks for `GET /?token=T`), and
//! a malformed one is refused before anything is dialled.
//!
//! [`Access`] is what goes with every request to the endpoint: the user's
//! headers (`--cdp-header`) and the roots TLS trusts (the system's, plus
//! `--cdp-ca`). Its `Debug` never shows a header's value, and every value is
//! registered with the log scrubber when it is read.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rove_base::redact::{HIDDEN, hide_endpoint_credentials, hide_literal};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::net::TcpStream;
use tokio_tungstenite::MaybeTlsStream;
use url::Url;

/// A parsed `--cdp-url`.
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    url: Url,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl Endpoint {
    /// Parses an address; the error says what is wrong, with the address's
    /// credentials hidden.
    pub fn parse(text: &str) -> Result<Endpoint, String> {
        let shown = hide_endpoint_credentials(text);
        let url = Url::parse(text.trim()).map_err(|e| format!("{shown}: not a URL ({e})"))?;
        if !matches!(url.scheme(), "ws" | "wss" | "http" | "https") {
            return Err(format!(
                "{shown}: expected ws://, wss://, http:// or https:// (like http://127.0.0.1:9222 or ws://host:port/devtools/browser/<id>)"
            ));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(format!("{shown}: the address names no host"));
        }
        if url.fragment().is_some() {
            return Err(format!("{shown}: an endpoint address has no #fragment"));
        }
        // A key in the path shows wherever the address does (an error of
        // the network, a farm's message): logs hide it from now on, as
        // they hide a `?token=` by its name.
        for key in rove_base::redact::secret_path_segments(url.as_str()) {
            hide_literal(key);
        }
        Ok(Endpoint { url })
    }

    /// The address as it is dialled (credentials included).
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The address with its credentials hidden: for messages and logs.
    pub fn redacted(&self) -> String {
        hide_endpoint_credentials(self.url.as_str())
    }

    /// Whether it is a WebSocket address (`ws`, `wss`), used as given.
    pub fn is_websocket(&self) -> bool {
        matches!(self.url.scheme(), "ws" | "wss")
    }

    /// Whether it is reached over TLS (`wss`, `https`).
    pub fn is_tls(&self) -> bool {
        matches!(self.url.scheme(), "wss" | "https")
    }

    /// The host, without the brackets of an IPv6 address.
    pub fn host(&self) -> String {
        match self.url.host() {
            Some(url::Host::Ipv6(ip)) => ip.to_string(),
            Some(host) => host.to_string(),
            None => String::new(),
        }
    }

    /// The port given, or the scheme's.
    pub fn port(&self) -> u16 {
        self.url.port_or_known_default().unwrap_or(80)
    }

    /// `host[:port]` as the address writes it: the `Host` header.
    pub fn authority(&self) -> String {
        let host = self.url.host_str().unwrap_or_default();
        match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    }

    /// The path (at least `/`).
    pub fn path(&self) -> &str {
        self.url.path()
    }

    /// The query, without its `?`.
    pub fn query(&self) -> Option<&str> {
        self.url.query()
    }

    /// `Basic …` from the `user:password@` before the host, if any (as
    /// written, percent-escapes included).
    pub fn basic_authorization(&self) -> Option<String> {
        use base64::Engine;
        let user = self.url.username();
        let password = self.url.password().unwrap_or_default();
        if user.is_empty() && password.is_empty() {
            return None;
        }
        let pair = format!("{user}:{password}");
        Some(format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(pair)
        ))
    }

    /// The WebSocket address a discovery answer points at: the scheme that
    /// matches this one's TLS, this address's host and port (a browser in a
    /// container or behind a farm reports its own internal address), the
    /// reported path, and the reported query, or this address's when the
    /// report has none (farms leave the token out of what they report).
    pub fn websocket_for(&self, reported: &str) -> Result<Endpoint, String> {
        let shown = hide_endpoint_credentials(reported);
        let reported = Url::parse(reported)
            .map_err(|e| format!("unexpected webSocketDebuggerUrl {shown} ({e})"))?;
        if !matches!(reported.scheme(), "ws" | "wss") {
            return Err(format!("unexpected webSocketDebuggerUrl {shown}"));
        }
        let scheme = if self.is_tls() { "wss" } else { "ws" };
        let query = reported.query().or(self.query());
        let mut text = format!("{scheme}://");
        if let Some(userinfo) = self.url.as_str().split_once("://").and_then(|(_, rest)| {
            let authority = rest.split(['/', '?']).next().unwrap_or_default();
            authority.rsplit_once('@').map(|(info, _)| info.to_owned())
        }) {
            text.push_str(&userinfo);
            text.push('@');
        }
        text.push_str(&self.authority());
        text.push_str(reported.path());
        if let Some(query) = query {
            text.push('?');
            text.push_str(query);
        }
        Endpoint::parse(&text)
    }
}

/// What goes with every request to an endpoint: headers, and TLS roots.
/// Cheap to clone.
#[derive(Clone, Default)]
pub struct Access {
    headers: Vec<(String, String)>,
    extra_roots: Vec<CertificateDer<'static>>,
    ca_file: Option<PathBuf>,
    tls: Arc<OnceLock<Result<Arc<rustls::ClientConfig>, String>>>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(name, _)| format!("{name}: {HIDDEN}"))
            .collect();
        f.debug_struct("Access")
            .field("headers", &headers)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

impl Access {
    /// Reads `--cdp-header` lines (`Name: value`) and a `--cdp-ca` PEM file.
    /// The error names the bad header (never its value) or the file.
    pub fn new(headers: &[String], ca_file: Option<&Path>) -> Result<Access, String> {
        let headers = headers
            .iter()
            .map(|line| parse_header(line))
            .collect::<Result<Vec<_>, _>>()?;
        for (_, value) in &headers {
            hide_literal(value);
            // `Bearer KEY`: the key alone may also show up somewhere.
            if let Some((_, credential)) = value.split_once(' ') {
                hide_literal(credential.trim());
            }
        }
        let extra_roots = match ca_file {
            Some(path) => read_ca(path)?,
            None => Vec::new(),
        };
        Ok(Access {
            headers,
            extra_roots,
            ca_file: ca_file.map(Path::to_path_buf),
            tls: Arc::default(),
        })
    }

    /// The headers, as `(name, value)`.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// Whether a header of this name (any case) is given.
    pub fn has_header(&self, name: &str) -> bool {
        self.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// The TLS settings: the system's roots plus `--cdp-ca`, built once.
    fn tls_config(&self) -> Result<Arc<rustls::ClientConfig>, String> {
        self.tls
            .get_or_init(|| build_tls(&self.extra_roots))
            .clone()
    }

    /// A connected stream to `endpoint`: TCP, then TLS for `wss`/`https`.
    pub async fn open(&self, endpoint: &Endpoint) -> std::io::Result<MaybeTlsStream<TcpStream>> {
        let tcp = TcpStream::connect((endpoint.host(), endpoint.port())).await?;
        tcp.set_nodelay(true)?;
        if !endpoint.is_tls() {
            return Ok(MaybeTlsStream::Plain(tcp));
        }
        let config = self.tls_config().map_err(std::io::Error::other)?;
        let name = ServerName::try_from(endpoint.host())
            .map_err(|e| std::io::Error::other(format!("not a TLS server name: {e}")))?;
        let tls = tokio_rustls::TlsConnector::from(config)
            .connect(name, tcp)
            .await?;
        Ok(MaybeTlsStream::Rustls(tls))
    }
}

/// `Name: value` → the pair; the name must be an HTTP token and the value
/// one line.
pub fn parse_header(line: &str) -> Result<(String, String), String> {
    let Some((name, value)) = line.split_once(':') else {
        return Err(format!(
            "--cdp-header needs 'Name: value' (got a line with no colon, {} characters)",
            line.chars().count()
        ));
    };
    let name = name.trim();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(format!("--cdp-header: {name:?} is not a header name"));
    }
    let value = value.trim();
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(format!(
            "--cdp-header {name}: the value holds a control character"
        ));
    }
    Ok((name.to_owned(), value.to_owned()))
}

fn read_ca(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let shown = path.display();
    // The path a person or ROVE_CDP_CA named: a FIFO or a device is
    // refused at once (an open would wait for ever, a read never end).
    let pem = rove_base::user_file::read_bytes(path, rove_base::limits::CREDENTIALS_FILE_BYTES)
        .map_err(|e| format!("--cdp-ca {shown}: {}", e.into_io()))?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--cdp-ca {shown}: not PEM certificates ({e})"))?;
    if certs.is_empty() {
        return Err(format!("--cdp-ca {shown}: holds no PEM certificate"));
    }
    Ok(certs)
}

fn build_tls(extra: &[CertificateDer<'static>]) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    for error in &native.errors {
        tracing::debug!(target: "rove_cdp", %error, "a system root certificate could not be read");
    }
    let (_added, _ignored) = roots.add_parsable_certificates(native.certs);
    for cert in extra {
        roots
            .add(cert.clone())
            .map_err(|e| format!("--cdp-ca: a certificate is not usable as a root ({e})"))?;
    }
    if roots.is_empty() {
        return Err("no TLS root certificates: the system has none; give --cdp-ca FILE".into());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS settings: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

#[cfg(test)]
#[path = "endpoint_tests.rs"]
mod tests;
