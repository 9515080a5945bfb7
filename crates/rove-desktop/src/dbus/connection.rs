//! One connection to a bus: the address, the EXTERNAL handshake, `Hello`,
//! and calls whose replies are matched by serial.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use super::DbusError;
use super::wire::{Arg, Reader, Value, Writer};

/// The largest message rove reads (D-Bus itself allows 128 MiB; a tree's
/// replies are far smaller).
const MESSAGE_MAX: usize = 64 * 1024 * 1024;

const METHOD_CALL: u8 = 1;
const METHOD_RETURN: u8 = 2;
const ERROR: u8 = 3;
const SIGNAL: u8 = 4;

/// Signals kept until read (their senders only); older ones are dropped
/// first: what a settle asks is whether an application spoke lately.
const SIGNALS_MAX: usize = 4096;

/// One method call.
#[derive(Debug, Clone)]
pub struct Call {
    pub destination: String,
    pub path: String,
    pub interface: String,
    pub member: String,
    pub args: Vec<Arg>,
}

impl Call {
    pub fn new(destination: &str, path: &str, interface: &str, member: &str) -> Call {
        Call {
            destination: destination.to_owned(),
            path: path.to_owned(),
            interface: interface.to_owned(),
            member: member.to_owned(),
            args: Vec::new(),
        }
    }

    pub fn arg(mut self, arg: Arg) -> Call {
        self.args.push(arg);
        self
    }

    /// `org.freedesktop.DBus.Properties.Get` of one property.
    pub fn property(destination: &str, path: &str, interface: &str, name: &str) -> Call {
        Call::new(destination, path, "org.freedesktop.DBus.Properties", "Get")
            .arg(Arg::Str(interface.to_owned()))
            .arg(Arg::Str(name.to_owned()))
    }
}

/// A connection to one bus.
#[derive(Debug)]
pub struct Connection {
    stream: UnixStream,
    serial: u32,
    /// Bytes read past the last message.
    buffer: Vec<u8>,
    address: String,
    /// The senders of signals read while waiting for replies, oldest first.
    signals: std::collections::VecDeque<String>,
}

impl Connection {
    /// Connects to `address` (`unix:path=…` or `unix:abstract=…`, the first
    /// that answers of a `;`-separated list), authenticates and says
    /// `Hello`, all within `deadline`.
    pub fn open(address: &str, deadline: Duration) -> Result<Connection, DbusError> {
        let until = Instant::now() + deadline;
        let mut last = DbusError::Unreachable {
            address: address.to_owned(),
            reason: "no unix: address in it".to_owned(),
        };
        for one in address.split(';') {
            match connect_one(one) {
                Ok(stream) => {
                    let mut connection = Connection {
                        stream,
                        serial: 0,
                        buffer: Vec::new(),
                        address: one.to_owned(),
                        signals: std::collections::VecDeque::new(),
                    };
                    connection.authenticate(until)?;
                    connection.call(
                        &Call::new(
                            "org.freedesktop.DBus",
                            "/org/freedesktop/DBus",
                            "org.freedesktop.DBus",
                            "Hello",
                        ),
                        remaining(until, deadline)?,
                    )?;
                    return Ok(connection);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// The address this connection reached.
    pub fn address(&self) -> &str {
        &self.address
    }

    fn authenticate(&mut self, until: Instant) -> Result<(), DbusError> {
        let uid = rustix::process::getuid().as_raw().to_string();
        let hex: String = uid.bytes().map(|b| format!("{b:02x}")).collect();
        self.write_all(format!("\0AUTH EXTERNAL {hex}\r\n").as_bytes(), until)?;
        let line = self.read_line(until)?;
        if !line.starts_with("OK ") {
            return Err(DbusError::AuthRefused(line));
        }
        self.write_all(b"BEGIN\r\n", until)
    }

    fn read_line(&mut self, until: Instant) -> Result<String, DbusError> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buffer[..end]).into_owned();
                self.buffer.drain(..end + 2);
                return Ok(line);
            }
            if self.buffer.len() > 4096 {
                return Err(DbusError::Malformed);
            }
            self.fill(until)?;
        }
    }

    fn write_all(&mut self, bytes: &[u8], until: Instant) -> Result<(), DbusError> {
        let left = until
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or(DbusError::Timeout(Duration::ZERO))?;
        self.stream
            .set_write_timeout(Some(left))
            .map_err(|_| DbusError::Closed)?;
        self.stream.write_all(bytes).map_err(|e| io_error(&e, left))
    }

    /// Reads more bytes into the buffer, waiting at most until `until`.
    fn fill(&mut self, until: Instant) -> Result<(), DbusError> {
        let left = until
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or(DbusError::Timeout(Duration::ZERO))?;
        self.stream
            .set_read_timeout(Some(left))
            .map_err(|_| DbusError::Closed)?;
        let mut chunk = [0u8; 64 * 1024];
        let n = self
            .stream
            .read(&mut chunk)
            .map_err(|e| io_error(&e, left))?;
        if n == 0 {
            return Err(DbusError::Closed);
        }
        self.buffer.extend_from_slice(&chunk[..n]);
        Ok(())
    }

    /// One call and its reply's values, within `deadline`.
    pub fn call(&mut self, call: &Call, deadline: Duration) -> Result<Vec<Value>, DbusError> {
        self.call_many(std::slice::from_ref(call), deadline)?
            .pop()
            .unwrap_or(Err(DbusError::Closed))
    }

    /// Sends every call, then reads their replies: one result per call, in
    /// order. The deadline holds for all of them together; past it, the
    /// whole batch fails.
    pub fn call_many(
        &mut self,
        calls: &[Call],
        deadline: Duration,
    ) -> Result<Vec<Result<Vec<Value>, DbusError>>, DbusError> {
        let until = Instant::now() + deadline;
        let first = self.serial.wrapping_add(1);
        let mut out = Vec::with_capacity(calls.len());
        let mut batch = Vec::new();
        for call in calls {
            self.serial = self.serial.wrapping_add(1).max(1);
            batch.extend_from_slice(&encode(call, self.serial)?);
            out.push(None);
        }
        self.write_all(&batch, until)
            .map_err(|e| timed_out(e, deadline))?;
        let mut missing = calls.len();
        while missing > 0 {
            let message = self
                .next_message(until)
                .map_err(|e| timed_out(e, deadline))?;
            if let Some(sender) = message.signal_from {
                self.keep_signal(sender);
                continue;
            }
            let Some(reply_to) = message.reply_serial else {
                continue;
            };
            let index = reply_to.wrapping_sub(first) as usize;
            if let Some(slot) = out.get_mut(index)
                && slot.is_none()
            {
                *slot = Some(message.result);
                missing -= 1;
            }
        }
        Ok(out
            .into_iter()
            .map(|r| r.unwrap_or(Err(DbusError::Closed)))
            .collect())
    }

    /// The sender of the next signal (one kept while replies were awaited
    /// first), or `None` when none came before `until`.
    pub fn next_signal(&mut self, until: Instant) -> Result<Option<String>, DbusError> {
        if let Some(sender) = self.signals.pop_front() {
            return Ok(Some(sender));
        }
        loop {
            match self.next_message(until) {
                Ok(Message {
                    signal_from: Some(sender),
                    ..
                }) => return Ok(Some(sender)),
                // A reply nobody waits for any more (its call timed out).
                Ok(_) => {}
                Err(DbusError::Timeout(_)) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
    }

    fn keep_signal(&mut self, sender: String) {
        if self.signals.len() >= SIGNALS_MAX {
            self.signals.pop_front();
        }
        self.signals.push_back(sender);
    }

    /// The next whole message from the bus.
    fn next_message(&mut self, until: Instant) -> Result<Message, DbusError> {
        loop {
            if let Some(total) = message_length(&self.buffer)?
                && self.buffer.len() >= total
            {
                let bytes: Vec<u8> = self.buffer.drain(..total).collect();
                return parse_message(&bytes);
            }
            self.fill(until)?;
        }
    }
}

fn remaining(until: Instant, deadline: Duration) -> Result<Duration, DbusError> {
    until
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or(DbusError::Timeout(deadline))
}

fn timed_out(error: DbusError, deadline: Duration) -> DbusError {
    match error {
        DbusError::Timeout(_) => DbusError::Timeout(deadline),
        other => other,
    }
}

fn io_error(error: &std::io::Error, left: Duration) -> DbusError {
    match error.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => DbusError::Timeout(left),
        _ => DbusError::Closed,
    }
}

fn connect_one(address: &str) -> Result<UnixStream, DbusError> {
    let unreachable = |reason: String| DbusError::Unreachable {
        address: address.to_owned(),
        reason,
    };
    let rest = address
        .strip_prefix("unix:")
        .ok_or_else(|| unreachable("only unix: addresses are supported".to_owned()))?;
    for pair in rest.split(',') {
        if let Some(path) = pair.strip_prefix("path=") {
            return UnixStream::connect(unescape(path)).map_err(|e| unreachable(e.to_string()));
        }
        if let Some(name) = pair.strip_prefix("abstract=") {
            use std::os::linux::net::SocketAddrExt;
            let addr = std::os::unix::net::SocketAddr::from_abstract_name(unescape(name))
                .map_err(|e| unreachable(e.to_string()))?;
            return UnixStream::connect_addr(&addr).map_err(|e| unreachable(e.to_string()));
        }
    }
    Err(unreachable("no path= or abstract= in it".to_owned()))
}

/// An address value with its `%XX` escapes undone.
fn unescape(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = value.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A method call as bytes.
fn encode(call: &Call, serial: u32) -> Result<Vec<u8>, DbusError> {
    let mut body = Writer::default();
    let mut signature = String::new();
    for arg in &call.args {
        body.arg(arg)?;
        signature.push_str(arg.signature());
    }
    let mut fields = Writer::default();
    let field = |code: u8, kind: &str, value: &str, w: &mut Writer| -> Result<(), DbusError> {
        w.align(8);
        w.byte(code);
        w.signature(kind)?;
        match kind {
            "g" => w.signature(value),
            _ => w.str(value),
        }
    };
    // Fields are laid out as if they started at offset 16 of the message,
    // which is 8-aligned, so aligning within `fields` is the same.
    field(1, "o", &call.path, &mut fields)?;
    field(2, "s", &call.interface, &mut fields)?;
    field(3, "s", &call.member, &mut fields)?;
    field(6, "s", &call.destination, &mut fields)?;
    if !signature.is_empty() {
        field(8, "g", &signature, &mut fields)?;
    }
    let mut message = Writer::default();
    message.byte(b'l');
    message.byte(METHOD_CALL);
    message.byte(0);
    message.byte(1);
    message.u32(u32::try_from(body.bytes.len()).map_err(|_| DbusError::TooLarge)?);
    message.u32(serial);
    message.u32(u32::try_from(fields.bytes.len()).map_err(|_| DbusError::TooLarge)?);
    message.bytes.extend_from_slice(&fields.bytes);
    message.align(8);
    message.bytes.extend_from_slice(&body.bytes);
    Ok(message.bytes)
}

/// The whole length of the message the buffer starts with, once its fixed
/// header has arrived.
fn message_length(buffer: &[u8]) -> Result<Option<usize>, DbusError> {
    if buffer.len() < 16 {
        return Ok(None);
    }
    if buffer[0] != b'l' {
        // A big-endian peer: the bus daemon always speaks the client's
        // order to it, so this is not D-Bus.
        return Err(DbusError::Malformed);
    }
    let word = |at: usize| {
        u32::from_le_bytes([buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3]]) as usize
    };
    let body = word(4);
    let fields = word(12);
    let header = (16 + fields).div_ceil(8) * 8;
    let total = header.checked_add(body).ok_or(DbusError::TooLarge)?;
    if total > MESSAGE_MAX {
        return Err(DbusError::TooLarge);
    }
    Ok(Some(total))
}

/// A message read: what it answers, and its values or error; or, for a
/// signal, who sent it.
struct Message {
    reply_serial: Option<u32>,
    result: Result<Vec<Value>, DbusError>,
    signal_from: Option<String>,
}

fn parse_message(bytes: &[u8]) -> Result<Message, DbusError> {
    let kind = bytes.get(1).copied().ok_or(DbusError::Malformed)?;
    let mut header = Reader::new(bytes, 0);
    // Past the fixed part, then the fields a(yv).
    header.values("yyyyuu")?;
    let fields = header.value("a(yv)")?;
    let header_end = header.position().div_ceil(8) * 8;
    let mut reply_serial = None;
    let mut signature = String::new();
    let mut error_name = String::new();
    let mut sender = String::new();
    for field in fields.as_list().unwrap_or_default() {
        let Some([code, value]) = field
            .as_list()
            .and_then(|f| <&[Value; 2]>::try_from(f).ok())
        else {
            continue;
        };
        match code {
            Value::Byte(5) => reply_serial = value.as_i64().and_then(|n| u32::try_from(n).ok()),
            Value::Byte(8) => signature = value.as_str().unwrap_or_default().to_owned(),
            Value::Byte(4) => error_name = value.as_str().unwrap_or_default().to_owned(),
            Value::Byte(7) => sender = value.as_str().unwrap_or_default().to_owned(),
            _ => {}
        }
    }
    let body = bytes.get(header_end..).ok_or(DbusError::Malformed)?;
    let values = || Reader::new(body, header_end).values(&signature);
    let result = match kind {
        METHOD_RETURN => values(),
        ERROR => {
            let message = values()
                .ok()
                .and_then(|v| v.first().and_then(|m| m.as_str().map(str::to_owned)))
                .unwrap_or_default();
            Err(DbusError::Remote {
                name: error_name,
                message,
            })
        }
        _ => Ok(Vec::new()),
    };
    Ok(Message {
        reply_serial: if matches!(kind, METHOD_RETURN | ERROR) {
            reply_serial
        } else {
            None
        },
        result,
        signal_from: (kind == SIGNAL).then_some(sender),
    })
}
