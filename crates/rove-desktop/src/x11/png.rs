//! A PNG encoder for 8-bit RGB: the signature, IHDR, one IDAT (zlib from
//! `miniz_oxide`), IEND. Each row is filtered with None or Sub, whichever
//! leaves smaller values (the usual heuristic): Sub turns a flat run of
//! colour, most of a screen, into zeros.

use super::Rgb;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
/// zlib's default: within a few per cent of the best on screenshots, and
/// several times faster.
const LEVEL: u8 = 6;
const FILTER_NONE: u8 = 0;
const FILTER_SUB: u8 = 1;

/// The PNG file of `image`. Pixels missing from a short buffer are black.
pub(super) fn encode(image: &Rgb) -> Vec<u8> {
    let row_bytes = image.width as usize * 3;
    let mut raw = Vec::with_capacity((row_bytes + 1) * image.height as usize);
    let mut sub = vec![0u8; row_bytes];
    let mut row = vec![0u8; row_bytes];
    for y in 0..image.height as usize {
        row.fill(0);
        let start = y.saturating_mul(row_bytes).min(image.pixels.len());
        let end = start.saturating_add(row_bytes).min(image.pixels.len());
        row[..end - start].copy_from_slice(&image.pixels[start..end]);
        for (i, out) in sub.iter_mut().enumerate() {
            let left = if i >= 3 { row[i - 3] } else { 0 };
            *out = row[i].wrapping_sub(left);
        }
        if cost(&sub) < cost(&row) {
            raw.push(FILTER_SUB);
            raw.extend_from_slice(&sub);
        } else {
            raw.push(FILTER_NONE);
            raw.extend_from_slice(&row);
        }
    }
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&image.width.to_be_bytes());
    header.extend_from_slice(&image.height.to_be_bytes());
    // 8 bits a sample, colour type 2 (RGB), deflate, adaptive filters, no
    // interlace.
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&raw, LEVEL);
    let mut out = Vec::with_capacity(data.len() + 64);
    out.extend_from_slice(&SIGNATURE);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &data);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A filtered row's size to the compressor: its bytes as signed
/// distances from zero.
fn cost(row: &[u8]) -> u64 {
    row.iter()
        .map(|&b| u64::from((b as i8).unsigned_abs()))
        .sum()
}

/// Length, type, data, and the CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    // The chunk length field is 31 bits; IDAT of a 16-million-pixel
    // capture is at most ~48 MB.
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// CRC-32 (ISO-HDLC, as PNG and zlib's `crc32`), a byte at a time.
fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &b| {
        CRC_TABLE[usize::from((crc as u8) ^ b)] ^ (crc >> 8)
    })
}

const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunks of a PNG file after its signature, each CRC checked.
    fn chunks(png: &[u8]) -> Vec<([u8; 4], Vec<u8>)> {
        let mut rest = &png[8..];
        let mut out = Vec::new();
        while !rest.is_empty() {
            let len = u32::from_be_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
            let body = &rest[4..8 + len];
            let crc = u32::from_be_bytes(rest[8 + len..12 + len].try_into().expect("4 bytes"));
            assert_eq!(crc, crc32(body), "the CRC of {:?}", &body[..4]);
            out.push((body[..4].try_into().expect("4 bytes"), body[4..].to_vec()));
            rest = &rest[12 + len..];
        }
        out
    }

    /// Undoes the None and Sub filters.
    fn unfilter(raw: &[u8], width: usize, height: usize) -> Vec<u8> {
        let row_bytes = width * 3;
        assert_eq!(raw.len(), height * (1 + row_bytes));
        let mut out = Vec::new();
        for row in raw.chunks_exact(1 + row_bytes) {
            let start = out.len();
            for (i, &b) in row[1..].iter().enumerate() {
                let value = match row[0] {
                    FILTER_NONE => b,
                    FILTER_SUB if i >= 3 => b.wrapping_add(out[start + i - 3]),
                    FILTER_SUB => b,
                    other => panic!("filter {other}"),
                };
                out.push(value);
            }
        }
        out
    }

    #[test]
    fn crc32_check_values() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
    }

    #[test]
    fn a_png_has_its_chunks_and_rows() {
        // A flat row (Sub wins) and a noisy one (None wins).
        let (width, height) = (5usize, 2usize);
        let mut pixels = [200u8, 100, 50].repeat(width);
        pixels.extend((0..width * 3).map(|i| (i % 2 * 100) as u8));
        let image = Rgb {
            width: width as u32,
            height: height as u32,
            pixels: pixels.clone(),
        };
        let png = image.to_png();
        assert_eq!(png[..8], SIGNATURE);
        let chunks = chunks(&png);
        let kinds: Vec<&[u8; 4]> = chunks.iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, [b"IHDR", b"IDAT", b"IEND"]);
        assert_eq!(chunks[0].1, [0, 0, 0, 5, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&chunks[1].1).expect("inflates");
        assert_eq!(raw[0], FILTER_SUB);
        assert_eq!(raw[1 + width * 3], FILTER_NONE);
        assert_eq!(unfilter(&raw, width, height), pixels);
        assert!(chunks[2].1.is_empty());
    }

    #[test]
    fn a_short_buffer_is_black_past_its_end() {
        let image = Rgb {
            width: 2,
            height: 2,
            pixels: vec![9; 7],
        };
        let chunks = chunks(&image.to_png());
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&chunks[1].1).expect("inflates");
        let mut want = vec![9u8; 7];
        want.resize(12, 0);
        assert_eq!(unfilter(&raw, 2, 2), want);
    }
}
