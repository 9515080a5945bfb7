//! One request's reply at a time, its length checked against what the
//! request implies before it is read.

use std::time::Instant;

use super::X11Error;
use super::stream::Stream;

/// A reply: its 32-byte header and the bytes after it.
#[derive(Debug)]
pub(super) struct Reply {
    pub header: [u8; 32],
    pub body: Vec<u8>,
}

/// A connection's byte stream, with the sequence number of its requests.
#[derive(Debug)]
pub(super) struct Wire {
    stream: Stream,
    /// The sequence number of the last request sent (the server counts
    /// them from 1, in 16 bits).
    sequence: u16,
    /// A request whose reply was not read to its end (the deadline passed,
    /// or the reply was not the expected one): what comes next on the
    /// socket cannot be told apart from the rest of it.
    out_of_step: bool,
}

impl Wire {
    pub fn new(stream: Stream) -> Wire {
        Wire {
            stream,
            sequence: 0,
            out_of_step: false,
        }
    }

    /// Bytes outside a request (the setup handshake).
    pub fn write_all(&mut self, bytes: &[u8], until: Instant) -> Result<(), X11Error> {
        self.stream.write_all(bytes, until)
    }

    /// Bytes outside a reply (the setup handshake).
    pub fn read_exact(&mut self, buf: &mut [u8], until: Instant) -> Result<(), X11Error> {
        self.stream.read_exact(buf, until)
    }

    /// Sends `request` and reads its reply. `body_len` says, from the
    /// reply's header, how many bytes the request implies follow it; a
    /// reply saying otherwise is a protocol error, and nothing is read or
    /// allocated for it. An X error for the request is
    /// [`X11Error::Protocol`] naming the code; events before the reply
    /// are skipped.
    pub fn round_trip(
        &mut self,
        request: &[u8],
        until: Instant,
        body_len: impl FnOnce(&[u8; 32]) -> Result<usize, X11Error>,
    ) -> Result<Reply, X11Error> {
        if self.out_of_step {
            return Err(X11Error::Protocol(
                "the connection is out of step after an earlier failure; connect again".into(),
            ));
        }
        self.out_of_step = true;
        self.write_all(request, until)?;
        self.sequence = self.sequence.wrapping_add(1);
        let mut header = [0u8; 32];
        // Each pass reads 32 bytes within the deadline: a server that only
        // sends events ends at the deadline. rove selects no events and
        // enables no extension, so none longer than 32 bytes (GenericEvent)
        // comes.
        loop {
            self.read_exact(&mut header, until)?;
            match header[0] {
                0 => {
                    // An error is 32 bytes: the stream is in step after it.
                    self.out_of_step = false;
                    return Err(x_error(&header));
                }
                1 => break,
                _ => {}
            }
        }
        let sequence = u16::from_le_bytes([header[2], header[3]]);
        if sequence != self.sequence {
            return Err(X11Error::Protocol(format!(
                "a reply to request {sequence} while waiting for {}",
                self.sequence
            )));
        }
        let said = u64::from(u32::from_le_bytes([
            header[4], header[5], header[6], header[7],
        ])) * 4;
        let expected = body_len(&header)?;
        if said != expected as u64 {
            return Err(X11Error::Protocol(format!(
                "a reply of {said} bytes where the request implies {expected}"
            )));
        }
        let mut body = vec![0u8; expected];
        self.read_exact(&mut body, until)?;
        self.out_of_step = false;
        Ok(Reply { header, body })
    }
}

/// An X error packet as an error naming its code and the request.
fn x_error(packet: &[u8; 32]) -> X11Error {
    const NAMES: [&str; 18] = [
        "",
        "Request",
        "Value",
        "Window",
        "Pixmap",
        "Atom",
        "Cursor",
        "Font",
        "Match",
        "Drawable",
        "Access",
        "Alloc",
        "Colormap",
        "GContext",
        "IDChoice",
        "Name",
        "Length",
        "Implementation",
    ];
    let code = packet[1];
    let name = NAMES.get(usize::from(code)).copied().unwrap_or("");
    let name = if name.is_empty() {
        "an extension's error"
    } else {
        name
    };
    let value = u32::from_le_bytes([packet[4], packet[5], packet[6], packet[7]]);
    X11Error::Protocol(format!(
        "X error {code} ({name}) for request {} (bad value {value:#x})",
        packet[10]
    ))
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    use super::super::stream::Socket;
    use super::*;

    #[test]
    fn an_error_packet_names_its_code_and_request() {
        let mut packet = [0u8; 32];
        packet[1] = 8;
        packet[10] = 73;
        let said = x_error(&packet).to_string();
        assert!(said.contains("X error 8 (Match) for request 73"), "{said}");
        packet[1] = 200;
        let said = x_error(&packet).to_string();
        assert!(
            said.contains("X error 200 (an extension's error)"),
            "{said}"
        );
    }

    /// A wire to a "server" that has already sent `bytes`.
    fn served(bytes: &[u8]) -> (Wire, UnixStream) {
        let (ours, mut theirs) = UnixStream::pair().expect("a socket pair");
        theirs.write_all(bytes).expect("writes");
        (
            Wire::new(Stream::new(Socket::Unix(ours), Duration::from_millis(200))),
            theirs,
        )
    }

    fn reply(sequence: u16, words: u32, body: &[u8]) -> Vec<u8> {
        let mut out = vec![1, 0];
        out.extend_from_slice(&sequence.to_le_bytes());
        out.extend_from_slice(&words.to_le_bytes());
        out.resize(32, 0);
        out.extend_from_slice(body);
        out
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(200)
    }

    #[test]
    fn events_before_the_reply_are_skipped() {
        let mut bytes = vec![12u8; 32]; // an Expose
        bytes.extend(reply(1, 1, &[1, 2, 3, 4]));
        let (mut wire, _server) = served(&bytes);
        let got = wire
            .round_trip(&[0; 4], soon(), |_| Ok(4))
            .expect("a reply");
        assert_eq!(got.body, [1, 2, 3, 4]);
    }

    #[test]
    fn an_x_error_leaves_the_connection_usable() {
        let mut bytes = vec![0u8, 9, 1, 0];
        bytes.resize(32, 0);
        bytes.extend(reply(2, 0, &[]));
        let (mut wire, _server) = served(&bytes);
        let error = wire
            .round_trip(&[0; 4], soon(), |_| Ok(0))
            .expect_err("an error");
        assert!(error.to_string().contains("(Drawable)"), "{error}");
        wire.round_trip(&[0; 4], soon(), |_| Ok(0))
            .expect("the next reply");
    }

    #[test]
    fn a_length_other_than_the_request_implies_is_refused_unread() {
        // A reply claiming 16 GiB: nothing is allocated for it.
        let (mut wire, _server) = served(&reply(1, u32::MAX, &[]));
        let error = wire
            .round_trip(&[0; 4], soon(), |_| Ok(8))
            .expect_err("refused");
        assert!(error.to_string().contains("implies 8"), "{error}");
        let again = wire
            .round_trip(&[0; 4], soon(), |_| Ok(8))
            .expect_err("out of step");
        assert!(again.to_string().contains("out of step"), "{again}");
    }
}
