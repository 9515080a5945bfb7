//! The socket to the X server: every read and write within what is left of
//! a deadline.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::X11Error;

/// A local socket or, for `localhost:N`, TCP.
#[derive(Debug)]
pub(super) enum Socket {
    Unix(UnixStream),
    Tcp(TcpStream),
}

/// A socket whose reads and writes end at a deadline.
#[derive(Debug)]
pub(super) struct Stream {
    socket: Socket,
    /// The deadline of a call, for the message of a timeout.
    deadline: Duration,
}

impl Stream {
    pub fn new(socket: Socket, deadline: Duration) -> Stream {
        Stream { socket, deadline }
    }

    pub fn write_all(&mut self, mut bytes: &[u8], until: Instant) -> Result<(), X11Error> {
        while !bytes.is_empty() {
            let left = self.left(until)?;
            let wrote = match &mut self.socket {
                Socket::Unix(s) => s
                    .set_write_timeout(Some(left))
                    .and_then(|()| s.write(bytes)),
                Socket::Tcp(s) => s
                    .set_write_timeout(Some(left))
                    .and_then(|()| s.write(bytes)),
            };
            match wrote {
                Ok(0) => return Err(closed()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) => self.failed(e)?,
            }
        }
        Ok(())
    }

    /// Fills `buf`, each read waiting at most until `until`.
    pub fn read_exact(&mut self, mut buf: &mut [u8], until: Instant) -> Result<(), X11Error> {
        while !buf.is_empty() {
            let left = self.left(until)?;
            let read = match &mut self.socket {
                Socket::Unix(s) => s.set_read_timeout(Some(left)).and_then(|()| s.read(buf)),
                Socket::Tcp(s) => s.set_read_timeout(Some(left)).and_then(|()| s.read(buf)),
            };
            match read {
                Ok(0) => return Err(closed()),
                Ok(n) => buf = &mut buf[n..],
                Err(e) => self.failed(e)?,
            }
        }
        Ok(())
    }

    fn left(&self, until: Instant) -> Result<Duration, X11Error> {
        until
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| self.timed_out())
    }

    /// An interrupted call is tried again (`Ok`); a timeout says the
    /// deadline; anything else is the error.
    fn failed(&self, error: io::Error) -> Result<(), X11Error> {
        match error.kind() {
            io::ErrorKind::Interrupted => Ok(()),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Err(self.timed_out()),
            _ => Err(error.into()),
        }
    }

    fn timed_out(&self) -> X11Error {
        X11Error::Io(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("the X server did not answer within {:?}", self.deadline),
        ))
    }
}

fn closed() -> X11Error {
    X11Error::Io(io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the X server closed the connection",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(200)
    }

    fn kind(error: &X11Error) -> Option<io::ErrorKind> {
        match error {
            X11Error::Io(e) => Some(e.kind()),
            _ => None,
        }
    }

    #[test]
    fn a_silent_server_is_a_timeout_and_a_closed_one_an_eof() {
        let (ours, _theirs) = UnixStream::pair().expect("a socket pair");
        let mut stream = Stream::new(Socket::Unix(ours), Duration::from_millis(200));
        let started = Instant::now();
        let error = stream
            .read_exact(&mut [0; 4], soon())
            .expect_err("times out");
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(kind(&error), Some(io::ErrorKind::TimedOut), "{error:?}");
        assert!(error.to_string().contains("within 200ms"), "{error}");
        let past = Instant::now() - Duration::from_millis(1);
        let error = stream.write_all(&[0; 4], past).expect_err("too late");
        assert_eq!(kind(&error), Some(io::ErrorKind::TimedOut), "{error:?}");

        let (ours, theirs) = UnixStream::pair().expect("a socket pair");
        drop(theirs);
        let mut stream = Stream::new(Socket::Unix(ours), Duration::from_millis(200));
        let error = stream.read_exact(&mut [0; 4], soon()).expect_err("closed");
        assert_eq!(
            kind(&error),
            Some(io::ErrorKind::UnexpectedEof),
            "{error:?}"
        );
    }
}
