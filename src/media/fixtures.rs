//! Generated test images (used by unit tests, integration tests and benchmarks): photos with
//! EXIF orientation and a GPS position, and decompression-bomb headers.

use image::RgbImage;
use image::codecs::jpeg::JpegEncoder;

/// A JPEG of `w`x`h` whose left half is red and right half blue.
pub fn two_colour_jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(w, h, |x, _| {
        if x < w / 2 {
            image::Rgb([220, 20, 20])
        } else {
            image::Rgb([20, 20, 220])
        }
    });
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .encode_image(&img)
        .expect("encode fixture");
    out
}

/// A noisy JPEG, closer to a real photo's size and decoding cost than a flat one.
pub fn photo_like_jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(w, h, |x, y| {
        let n = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 64;
        image::Rgb([
            (x % 256) as u8 ^ n as u8,
            (y % 256) as u8,
            ((x + y) % 256) as u8 ^ (n as u8) << 1,
        ])
    });
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .encode_image(&img)
        .expect("encode fixture");
    out
}

/// Latitude 51°30'26" as TIFF rationals: the bytes to look for in an output.
pub const GPS_MARKER: [u8; 24] = [
    0, 0, 0, 51, 0, 0, 0, 1, 0, 0, 0, 30, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 1,
];

/// Inserts an EXIF APP1 segment (the orientation, and a GPS latitude) after the JPEG's SOI.
pub fn with_exif(jpeg: &[u8], orientation: u16) -> Vec<u8> {
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&exif_tiff(orientation));
    let len = (app1.len() + 2) as u16;
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

/// Big-endian TIFF: IFD0 with Orientation and a GPS IFD pointer; the GPS IFD with a latitude.
fn exif_tiff(orientation: u16) -> Vec<u8> {
    let mut t = b"MM\0\x2a\0\0\0\x08".to_vec();
    let ifd0_entries = 2u16;
    let gps_ifd = 8 + 2 + 12 * u32::from(ifd0_entries) + 4;
    t.extend_from_slice(&ifd0_entries.to_be_bytes());
    t.extend_from_slice(&[0x01, 0x12, 0, 3, 0, 0, 0, 1]);
    t.extend_from_slice(&orientation.to_be_bytes());
    t.extend_from_slice(&[0, 0]);
    t.extend_from_slice(&[0x88, 0x25, 0, 4, 0, 0, 0, 1]);
    t.extend_from_slice(&gps_ifd.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 0]);
    let gps_entries = 2u16;
    let data_at = gps_ifd + 2 + 12 * u32::from(gps_entries) + 4;
    t.extend_from_slice(&gps_entries.to_be_bytes());
    t.extend_from_slice(&[0, 1, 0, 2, 0, 0, 0, 2, b'N', 0, 0, 0]);
    t.extend_from_slice(&[0, 2, 0, 5, 0, 0, 0, 3]);
    t.extend_from_slice(&data_at.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 0]);
    t.extend_from_slice(&GPS_MARKER);
    t
}

/// A PNG whose header declares `w`x`h` RGBA pixels, followed by a small image stream: what a
/// decompression bomb looks like up to the point where a careful decoder stops reading.
pub fn png_header_only(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    // zlib stream of a stored, empty-ish block: valid framing, far too little data.
    chunk(
        &mut out,
        b"IDAT",
        &[
            0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01,
        ],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc_input = kind.to_vec();
    crc_input.extend_from_slice(data);
    out.extend_from_slice(&crc32(&crc_input).to_be_bytes());
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_known_value() {
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn the_bomb_header_is_a_png_of_the_declared_size() {
        let png = png_header_only(20_000, 20_000);
        assert_eq!(image::guess_format(&png).unwrap(), image::ImageFormat::Png);
        let reader = image::ImageReader::new(std::io::Cursor::new(&png))
            .with_guessed_format()
            .unwrap();
        assert_eq!(reader.into_dimensions().unwrap(), (20_000, 20_000));
    }
}
