//! Where `DISPLAY` points, the socket there, and the setup handshake.

use std::net::{TcpStream, ToSocketAddrs};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::X11Error;
use super::setup::{self, Setup, pad4};
use super::stream::{Socket, Stream};
use super::wire::Wire;

/// A parsed `DISPLAY`: the socket and the screen on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName {
    /// `None` for the local socket `/tmp/.X11-unix/XN`; `localhost` or
    /// `127.0.0.1` for TCP.
    pub host: Option<String>,
    pub display: u16,
    pub screen: u32,
}

impl DisplayName {
    /// Reads `:N`, `:N.S`, `unix:N[.S]`, `localhost:N[.S]` and
    /// `127.0.0.1:N[.S]`. Other hosts are refused: their authorization is
    /// not the local one, and rove does not send its cookie elsewhere.
    pub fn parse(name: &str) -> Result<DisplayName, X11Error> {
        let bad = || X11Error::BadDisplay(name.to_owned());
        let (host, rest) = name.rsplit_once(':').ok_or_else(bad)?;
        let (number, screen) = match rest.split_once('.') {
            Some((n, s)) => (n, s),
            None => (rest, "0"),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(number) || !digits(screen) {
            return Err(bad());
        }
        let display: u16 = number.parse().map_err(|_| bad())?;
        let screen: u32 = screen.parse().map_err(|_| bad())?;
        let host = match host {
            "" | "unix" => None,
            "localhost" | "127.0.0.1" => {
                // The port is 6000 + N.
                if display > u16::MAX - 6000 {
                    return Err(bad());
                }
                Some(host.to_owned())
            }
            _ => return Err(bad()),
        };
        Ok(DisplayName {
            host,
            display,
            screen,
        })
    }
}

impl std::fmt::Display for DisplayName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = self.host.as_deref().unwrap_or("");
        write!(f, "{host}:{}.{}", self.display, self.screen)
    }
}

/// Opens the display's socket, sends the setup request (with `cookie` as
/// MIT-MAGIC-COOKIE-1 when there is one) and parses the reply.
pub(super) fn open(
    name: &DisplayName,
    cookie: Option<&[u8]>,
    until: Instant,
    deadline: Duration,
) -> Result<(Wire, Setup), X11Error> {
    let cannot = |source| X11Error::Connect {
        display: name.to_string(),
        source,
    };
    let socket = match &name.host {
        None => {
            let path = format!("/tmp/.X11-unix/X{}", name.display);
            Socket::Unix(UnixStream::connect(path).map_err(cannot)?)
        }
        Some(host) => {
            // The fields are public: a name not made by `parse` is held to
            // what `parse` lets through, so the cookie stays on this machine.
            let port = 6000u16
                .checked_add(name.display)
                .filter(|_| matches!(host.as_str(), "localhost" | "127.0.0.1"))
                .ok_or_else(|| X11Error::BadDisplay(name.to_string()))?;
            Socket::Tcp(connect_tcp(host, port, until).map_err(cannot)?)
        }
    };
    let mut wire = Wire::new(Stream::new(socket, deadline));
    wire.write_all(&setup_request(cookie), until)?;
    let mut header = [0u8; 8];
    wire.read_exact(&mut header, until)?;
    // The rest of the reply, in 4-byte units: at most 256 KiB.
    let mut data = vec![0u8; usize::from(u16::from_le_bytes([header[6], header[7]])) * 4];
    wire.read_exact(&mut data, until)?;
    match header[0] {
        1 => {
            let major = u16::from_le_bytes([header[2], header[3]]);
            if major != 11 {
                return Err(X11Error::Protocol(format!("protocol version {major}")));
            }
            Ok((wire, setup::parse(&data, name.screen)?))
        }
        0 => {
            let len = usize::from(header[1]).min(data.len());
            Err(X11Error::Refused {
                reason: text(&data[..len]),
            })
        }
        2 => Err(X11Error::Refused {
            reason: format!("it asks for more authentication: {}", text(&data)),
        }),
        other => Err(X11Error::Protocol(format!("setup status {other}"))),
    }
}

fn connect_tcp(host: &str, port: u16, until: Instant) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    // `localhost` as the resolver says: only its loopback addresses.
    for address in (host, port)
        .to_socket_addrs()?
        .filter(|a| a.ip().is_loopback())
    {
        let left = until
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::TimedOut))?;
        match TcpStream::connect_timeout(&address, left) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// The setup request, little-endian, protocol 11.0.
fn setup_request(cookie: Option<&[u8]>) -> Vec<u8> {
    let (name, data): (&[u8], &[u8]) = match cookie {
        Some(cookie) => (b"MIT-MAGIC-COOKIE-1", cookie),
        None => (b"", b""),
    };
    let mut out = vec![b'l', 0, 11, 0, 0, 0];
    // A cookie is 16 bytes; a longer one from a strange file is cut to
    // what the field holds.
    let data = &data[..data.len().min(usize::from(u16::MAX))];
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&(data.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    for field in [name, data] {
        out.extend_from_slice(field);
        out.resize(pad4(out.len()), 0);
    }
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .trim_end_matches(['\0', '\n'])
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(name: &str) -> (Option<&'static str>, u16, u32) {
        let d = DisplayName::parse(name).expect(name);
        let host = d.host.map(|h| {
            if h == "localhost" {
                "localhost"
            } else {
                "127.0.0.1"
            }
        });
        (host, d.display, d.screen)
    }

    #[test]
    fn display_names_local_and_tcp() {
        assert_eq!(parsed(":0"), (None, 0, 0));
        assert_eq!(parsed(":12.1"), (None, 12, 1));
        assert_eq!(parsed("unix:3"), (None, 3, 0));
        assert_eq!(parsed("unix:3.2"), (None, 3, 2));
        assert_eq!(parsed("localhost:10"), (Some("localhost"), 10, 0));
        assert_eq!(parsed("127.0.0.1:1.0"), (Some("127.0.0.1"), 1, 0));
        assert_eq!(
            DisplayName::parse(":7.1").expect("parses").to_string(),
            ":7.1"
        );
    }

    #[test]
    fn display_names_rove_does_not_reach() {
        for name in [
            "",
            "0",
            ":",
            ":x",
            ":1.",
            ":.1",
            ":1.x",
            ":-1",
            ":99999999",
            "example.com:0",
            "localhost:60000",
            "/tmp/launch-abc/org.xquartz:0",
            ":1 ",
        ] {
            let error = DisplayName::parse(name).expect_err(name);
            assert!(matches!(error, X11Error::BadDisplay(_)), "{name}: {error}");
        }
    }

    #[test]
    fn a_name_not_made_by_parse_reaches_no_other_host() {
        let soon = Instant::now() + Duration::from_millis(200);
        for (host, display) in [("example.com", 0), ("10.0.0.1", 0), ("localhost", u16::MAX)] {
            let name = DisplayName {
                host: Some(host.to_owned()),
                display,
                screen: 0,
            };
            let error =
                open(&name, Some(&[7; 16]), soon, Duration::from_millis(200)).expect_err("refused");
            assert!(matches!(error, X11Error::BadDisplay(_)), "{host}: {error}");
        }
    }

    #[test]
    fn the_setup_request_carries_the_cookie_padded() {
        let plain = setup_request(None);
        assert_eq!(plain, [b'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let with = setup_request(Some(&[7; 16]));
        assert_eq!(with.len(), 12 + 20 + 16);
        assert_eq!(&with[6..10], &[18, 0, 16, 0]);
        assert_eq!(&with[12..30], b"MIT-MAGIC-COOKIE-1");
        assert_eq!(&with[30..32], &[0, 0]);
        assert_eq!(&with[32..], &[7; 16]);
    }
}
