//! The display's MIT-MAGIC-COOKIE-1 from the Xauthority file, matched the
//! way libXau does for a local connection.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::connect::DisplayName;

/// An entry for this machine's name.
const FAMILY_LOCAL: u16 = 256;
/// An entry for any address.
const FAMILY_WILD: u16 = 65535;
const MAGIC_COOKIE: &[u8] = b"MIT-MAGIC-COOKIE-1";
/// Xauthority files hold a few entries a display; one past this size is
/// not one.
const FILE_MAX: u64 = 1024 * 1024;

/// The cookie for `name` in `$XAUTHORITY` (or `~/.Xauthority`), `None`
/// when there is no file or no entry for it: the server then decides
/// (Xvfb started without `-auth` lets everyone in).
pub(super) fn cookie_for(name: &DisplayName) -> Option<Vec<u8>> {
    let path = match std::env::var_os("XAUTHORITY") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".Xauthority"),
    };
    let hostname = rustix::system::uname().nodename().to_bytes().to_vec();
    read_cookie(&path, &hostname, name.display)
}

/// The cookie in the file at `path` for `display` on the machine
/// `hostname`.
fn read_cookie(path: &Path, hostname: &[u8], display: u16) -> Option<Vec<u8>> {
    let mut file = std::fs::File::open(path).ok()?.take(FILE_MAX);
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    find_cookie(&bytes, hostname, display)
}

/// The first MIT-MAGIC-COOKIE-1 entry of the file for a local `display`:
/// family Local with this `hostname`, or Wild; display number equal, or
/// empty (any). A cut entry ends the search.
fn find_cookie(mut file: &[u8], hostname: &[u8], display: u16) -> Option<Vec<u8>> {
    let number = display.to_string();
    while !file.is_empty() {
        let family = u16::from_be_bytes(take(&mut file, 2)?.try_into().ok()?);
        let address = field(&mut file)?;
        let entry_number = field(&mut file)?;
        let kind = field(&mut file)?;
        let data = field(&mut file)?;
        let host_matches = family == FAMILY_WILD || (family == FAMILY_LOCAL && address == hostname);
        let number_matches = entry_number.is_empty() || entry_number == number.as_bytes();
        if host_matches && number_matches && kind == MAGIC_COOKIE {
            return Some(data.to_vec());
        }
    }
    None
}

/// A field: its length (16-bit big-endian) and its bytes.
fn field<'a>(file: &mut &'a [u8]) -> Option<&'a [u8]> {
    let len = take(file, 2)?;
    take(file, usize::from(u16::from_be_bytes([len[0], len[1]])))
}

fn take<'a>(file: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if file.len() < n {
        return None;
    }
    let (head, rest) = file.split_at(n);
    *file = rest;
    Some(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(family: u16, address: &[u8], number: &[u8], kind: &[u8], data: &[u8]) -> Vec<u8> {
        let mut out = family.to_be_bytes().to_vec();
        for field in [address, number, kind, data] {
            out.extend_from_slice(&(field.len() as u16).to_be_bytes());
            out.extend_from_slice(field);
        }
        out
    }

    #[test]
    fn the_cookie_of_this_host_and_display_from_a_file() {
        let mut file = Vec::new();
        // Another machine, another display, another scheme: not these.
        file.extend(entry(
            FAMILY_LOCAL,
            b"elsewhere",
            b"3",
            MAGIC_COOKIE,
            &[1; 16],
        ));
        file.extend(entry(FAMILY_LOCAL, b"here", b"4", MAGIC_COOKIE, &[2; 16]));
        file.extend(entry(
            FAMILY_LOCAL,
            b"here",
            b"3",
            b"XDM-AUTHORIZATION-1",
            &[3; 16],
        ));
        file.extend(entry(0, b"\x7f\0\0\x01", b"3", MAGIC_COOKIE, &[4; 16]));
        file.extend(entry(FAMILY_LOCAL, b"here", b"3", MAGIC_COOKIE, &[5; 16]));
        let dir = std::env::temp_dir().join(format!("rove-xauth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let path = dir.join("Xauthority");
        std::fs::write(&path, &file).expect("writes");
        assert_eq!(read_cookie(&path, b"here", 3), Some(vec![5; 16]));
        assert_eq!(read_cookie(&path, b"here", 4), Some(vec![2; 16]));
        assert_eq!(read_cookie(&path, b"here", 5), None);
        assert_eq!(read_cookie(&path, b"there", 3), None);
        assert_eq!(read_cookie(&dir.join("missing"), b"here", 3), None);
        std::fs::remove_dir_all(&dir).expect("cleans up");
    }

    #[test]
    fn wild_entries_and_empty_numbers_match_any() {
        let wild = entry(FAMILY_WILD, b"", b"9", MAGIC_COOKIE, &[6; 16]);
        assert_eq!(find_cookie(&wild, b"here", 9), Some(vec![6; 16]));
        assert_eq!(find_cookie(&wild, b"here", 8), None);
        let any = entry(FAMILY_LOCAL, b"here", b"", MAGIC_COOKIE, &[7; 16]);
        assert_eq!(find_cookie(&any, b"here", 42), Some(vec![7; 16]));
    }

    #[test]
    fn a_cut_file_ends_the_search() {
        let mut file = entry(FAMILY_LOCAL, b"here", b"1", MAGIC_COOKIE, &[8; 16]);
        file.truncate(file.len() - 1);
        assert_eq!(find_cookie(&file, b"here", 1), None);
        assert_eq!(find_cookie(&[0xff], b"here", 1), None);
        // A length past the end.
        assert_eq!(find_cookie(&[1, 0, 0xff, 0xff, 1], b"here", 1), None);
    }
}
