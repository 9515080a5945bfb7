//! The D-Bus wire format, little-endian: values written into a message
//! body and read back by their signature.
//!
//! Only what the accessibility bus needs is written (basic types and a
//! variant of one); everything the bus may send is read, so a reply of an
//! unexpected shape is a typed error, never a panic.

use super::DbusError;

/// A D-Bus value as read from a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Byte(u8),
    Bool(bool),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F64(f64),
    /// A string, an object path or a signature.
    Str(String),
    Array(Vec<Value>),
    /// A struct or a dictionary entry.
    Struct(Vec<Value>),
    Variant(Box<Value>),
    /// A file descriptor's index (never sent to rove; read past).
    Fd(u32),
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Variant(v) => v.as_str(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Byte(n) => Some(i64::from(*n)),
            Value::I16(n) => Some(i64::from(*n)),
            Value::U16(n) => Some(i64::from(*n)),
            Value::I32(n) => Some(i64::from(*n)),
            Value::U32(n) => Some(i64::from(*n)),
            Value::I64(n) => Some(*n),
            Value::U64(n) => i64::try_from(*n).ok(),
            Value::Variant(v) => v.as_i64(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::F64(n) => Some(*n),
            Value::Variant(v) => v.as_f64(),
            other => other.as_i64().map(|n| n as f64),
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            Value::Variant(v) => v.as_bool(),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) | Value::Struct(items) => Some(items),
            Value::Variant(v) => v.as_list(),
            _ => None,
        }
    }
}

/// An argument rove sends.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Str(String),
    Path(String),
    I32(i32),
    U32(u32),
    /// A variant holding a double (`Value.CurrentValue`).
    VariantF64(f64),
}

impl Arg {
    pub fn signature(&self) -> &'static str {
        match self {
            Arg::Str(_) => "s",
            Arg::Path(_) => "o",
            Arg::I32(_) => "i",
            Arg::U32(_) => "u",
            Arg::VariantF64(_) => "v",
        }
    }
}

/// A body being written; offsets count from the message's start, which
/// D-Bus aligns to 8, so a body written on its own aligns the same way as
/// long as the header before it ends on an 8-byte boundary (it does).
#[derive(Debug, Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn align(&mut self, to: usize) {
        while !self.bytes.len().is_multiple_of(to) {
            self.bytes.push(0);
        }
    }

    pub fn byte(&mut self, b: u8) {
        self.bytes.push(b);
    }

    pub fn u32(&mut self, n: u32) {
        self.align(4);
        self.bytes.extend_from_slice(&n.to_le_bytes());
    }

    pub fn i32(&mut self, n: i32) {
        self.align(4);
        self.bytes.extend_from_slice(&n.to_le_bytes());
    }

    pub fn f64(&mut self, n: f64) {
        self.align(8);
        self.bytes.extend_from_slice(&n.to_le_bytes());
    }

    /// A string or an object path: length, bytes, a nul.
    pub fn str(&mut self, s: &str) -> Result<(), DbusError> {
        let len = u32::try_from(s.len()).map_err(|_| DbusError::TooLarge)?;
        self.u32(len);
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        Ok(())
    }

    /// A signature: one length byte, bytes, a nul.
    pub fn signature(&mut self, s: &str) -> Result<(), DbusError> {
        let len = u8::try_from(s.len()).map_err(|_| DbusError::TooLarge)?;
        self.byte(len);
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        Ok(())
    }

    pub fn arg(&mut self, arg: &Arg) -> Result<(), DbusError> {
        match arg {
            Arg::Str(s) | Arg::Path(s) => self.str(s)?,
            Arg::I32(n) => self.i32(*n),
            Arg::U32(n) => self.u32(*n),
            Arg::VariantF64(n) => {
                self.signature("d")?;
                self.f64(*n);
            }
        }
        Ok(())
    }
}

/// Reads values out of a message body by signature.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Where the body starts in the message, for alignment.
    base: usize,
    depth: usize,
}

/// Nesting deeper than this is refused (D-Bus allows 64 in all).
const MAX_DEPTH: usize = 64;

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader {
            bytes,
            at: 0,
            base,
            depth: 0,
        }
    }

    pub fn position(&self) -> usize {
        self.at
    }

    fn align(&mut self, to: usize) -> Result<(), DbusError> {
        let absolute = self.base + self.at;
        let pad = (to - absolute % to) % to;
        self.take(pad).map(|_| ())
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DbusError> {
        let end = self.at.checked_add(n).ok_or(DbusError::Malformed)?;
        let slice = self.bytes.get(self.at..end).ok_or(DbusError::Malformed)?;
        self.at = end;
        Ok(slice)
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], DbusError> {
        self.align(N)?;
        let slice = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    pub fn u32(&mut self) -> Result<u32, DbusError> {
        Ok(u32::from_le_bytes(self.fixed::<4>()?))
    }

    fn text(&mut self, len: usize) -> Result<String, DbusError> {
        let raw = self.take(len)?;
        // The nul after the text.
        self.take(1)?;
        Ok(String::from_utf8_lossy(raw).into_owned())
    }

    /// Every value of a signature, in order.
    pub fn values(&mut self, signature: &str) -> Result<Vec<Value>, DbusError> {
        let mut out = Vec::new();
        let mut rest = signature;
        while !rest.is_empty() {
            let (one, after) = split_one(rest)?;
            out.push(self.value(one)?);
            rest = after;
        }
        Ok(out)
    }

    /// One value of a single complete type.
    pub fn value(&mut self, signature: &str) -> Result<Value, DbusError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(DbusError::Malformed);
        }
        let value = self.value_inner(signature);
        self.depth -= 1;
        value
    }

    fn value_inner(&mut self, signature: &str) -> Result<Value, DbusError> {
        let code = signature
            .as_bytes()
            .first()
            .copied()
            .ok_or(DbusError::Malformed)?;
        Ok(match code {
            b'y' => Value::Byte(self.take(1)?[0]),
            b'b' => Value::Bool(self.u32()? != 0),
            b'n' => Value::I16(i16::from_le_bytes(self.fixed::<2>()?)),
            b'q' => Value::U16(u16::from_le_bytes(self.fixed::<2>()?)),
            b'i' => Value::I32(i32::from_le_bytes(self.fixed::<4>()?)),
            b'u' => Value::U32(self.u32()?),
            b'h' => Value::Fd(self.u32()?),
            b'x' => Value::I64(i64::from_le_bytes(self.fixed::<8>()?)),
            b't' => Value::U64(u64::from_le_bytes(self.fixed::<8>()?)),
            b'd' => Value::F64(f64::from_le_bytes(self.fixed::<8>()?)),
            b's' | b'o' => {
                let len = self.u32()? as usize;
                Value::Str(self.text(len)?)
            }
            b'g' => {
                let len = usize::from(self.take(1)?[0]);
                Value::Str(self.text(len)?)
            }
            b'v' => {
                let len = usize::from(self.take(1)?[0]);
                let inner = self.text(len)?;
                let (one, rest) = split_one(&inner)?;
                if !rest.is_empty() {
                    return Err(DbusError::Malformed);
                }
                Value::Variant(Box::new(self.value(one)?))
            }
            b'a' => {
                let element = &signature[1..];
                let len = self.u32()? as usize;
                self.align(alignment(element)?)?;
                let end = self.at.checked_add(len).ok_or(DbusError::Malformed)?;
                if end > self.bytes.len() {
                    return Err(DbusError::Malformed);
                }
                let mut items = Vec::new();
                while self.at < end {
                    items.push(self.value(element)?);
                }
                if self.at != end {
                    return Err(DbusError::Malformed);
                }
                Value::Array(items)
            }
            b'(' | b'{' => {
                self.align(8)?;
                let inner = &signature[1..signature.len() - 1];
                Value::Struct(self.values(inner)?)
            }
            _ => return Err(DbusError::Malformed),
        })
    }
}

/// How a type aligns.
fn alignment(signature: &str) -> Result<usize, DbusError> {
    Ok(match signature.as_bytes().first() {
        Some(b'y' | b'g' | b'v') => 1,
        Some(b'n' | b'q') => 2,
        Some(b'b' | b'i' | b'u' | b'h' | b's' | b'o' | b'a') => 4,
        Some(b'x' | b't' | b'd' | b'(' | b'{') => 8,
        _ => return Err(DbusError::Malformed),
    })
}

/// The first complete type of a signature, and the rest.
pub fn split_one(signature: &str) -> Result<(&str, &str), DbusError> {
    let bytes = signature.as_bytes();
    let mut i = 0;
    while bytes.get(i) == Some(&b'a') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'(' | b'{') => {
            let mut depth = 0usize;
            loop {
                match bytes.get(i) {
                    Some(b'(' | b'{') => depth += 1,
                    Some(b')' | b'}') => {
                        depth = depth.checked_sub(1).ok_or(DbusError::Malformed)?;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(_) => {}
                    None => return Err(DbusError::Malformed),
                }
                i += 1;
            }
        }
        Some(_) => {}
        None => return Err(DbusError::Malformed),
    }
    Ok(signature.split_at(i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_splits_into_complete_types() {
        assert_eq!(split_one("a(so)i").expect("splits"), ("a(so)", "i"));
        assert_eq!(split_one("a{sv}").expect("splits"), ("a{sv}", ""));
        assert_eq!(split_one("(iiii)u").expect("splits"), ("(iiii)", "u"));
        assert!(split_one("(ii").is_err());
        assert!(split_one("a").is_err());
    }

    #[test]
    fn what_is_written_reads_back_aligned() {
        let mut w = Writer::default();
        w.byte(7);
        w.str("name").expect("fits");
        w.arg(&Arg::VariantF64(2.5)).expect("fits");
        w.i32(-3);
        let mut r = Reader::new(&w.bytes, 0);
        let values = r.values("ysvi").expect("reads");
        assert_eq!(values[0], Value::Byte(7));
        assert_eq!(values[1].as_str(), Some("name"));
        assert_eq!(values[2].as_f64(), Some(2.5));
        assert_eq!(values[3].as_i64(), Some(-3));
    }

    #[test]
    fn an_array_of_structs_reads_as_written() {
        // a(so) holding two entries, laid out by hand as the bus does.
        let mut body = Writer::default();
        let mut items = Writer::default();
        for (name, path) in [(":1.4", "/a"), (":1.5", "/b/c")] {
            items.align(8);
            items.str(name).expect("fits");
            items.str(path).expect("fits");
        }
        body.u32(u32::try_from(items.bytes.len()).expect("small"));
        body.align(8);
        body.bytes.extend_from_slice(&items.bytes);
        let value = Reader::new(&body.bytes, 0).value("a(so)").expect("reads");
        let list = value.as_list().expect("array");
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].as_list().expect("struct")[1].as_str(), Some("/b/c"));
    }

    #[test]
    fn a_truncated_or_too_deep_body_is_an_error_not_a_panic() {
        assert!(Reader::new(&[1, 0, 0], 0).value("u").is_err());
        assert!(Reader::new(&[200, 0, 0, 0, 1], 0).value("s").is_err());
        // A hundred arrays, each holding the next: past the depth limit.
        let deep = format!("{}u", "a".repeat(100));
        let mut body = Writer::default();
        for level in 0..100u32 {
            body.u32(4 * (99 - level));
        }
        assert!(Reader::new(&body.bytes, 0).value(&deep).is_err());
        assert!(
            Reader::new(&body.bytes, 0).value(&deep[40..]).is_ok(),
            "60 deep is fine"
        );
    }
}
