//! The image pipeline. Accepts JPEG, PNG, WebP and GIF (first frame), recognised by content.
//! Refuses anything over 12,000 px a side or needing more than `MAX_DECODE_BYTES` to decode,
//! before decoding it. Applies the EXIF orientation, then re-encodes as JPEG: the output carries
//! no metadata at all, so a phone's GPS position never reaches the store.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits, RgbImage};

pub const MAX_SIDE: u32 = 12_000;
/// The most memory one decode may take (a 48-megapixel RGB photo needs 144 MiB).
pub const MAX_DECODE_BYTES: u64 = 192 * 1024 * 1024;
/// Long edge of a stored meal photo.
pub const PHOTO_EDGE: u32 = 2048;
/// Long edge of a stored avatar.
pub const AVATAR_EDGE: u32 = 512;
/// Long edge of the thumbnail stored with every image.
pub const THUMB_EDGE: u32 = 320;
const JPEG_QUALITY: u8 = 85;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    #[error("not a JPEG, PNG, WebP or GIF image")]
    NotAnImage,
    #[error("the image is damaged or incomplete")]
    Damaged,
    #[error("the image is too large")]
    TooLarge,
}

/// A cleaned image: the stored size and its thumbnail, both JPEG.
#[derive(Clone)]
pub struct Processed {
    pub full: Vec<u8>,
    pub thumb: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

impl std::fmt::Debug for Processed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Processed({}x{}, {} + {} bytes)",
            self.width,
            self.height,
            self.full.len(),
            self.thumb.len()
        )
    }
}

pub fn process(bytes: &[u8], long_edge: u32) -> Result<Processed, MediaError> {
    let format = image::guess_format(bytes).map_err(|_| MediaError::NotAnImage)?;
    if !matches!(
        format,
        ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif
    ) {
        return Err(MediaError::NotAnImage);
    }
    // The JPEG decoder fills in missing data silently; an upload cut off mid-way must be refused.
    if format == ImageFormat::Jpeg && !jpeg_is_complete(bytes) {
        return Err(MediaError::Damaged);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    // Checked here as well: not every decoder honours max_alloc.
    let (w, h) = decoder.dimensions();
    if w > MAX_SIDE || h > MAX_SIDE || decoder.total_bytes() > MAX_DECODE_BYTES {
        return Err(MediaError::TooLarge);
    }
    if w == 0 || h == 0 {
        return Err(MediaError::Damaged);
    }
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let img = DynamicImage::from_decoder(decoder).map_err(classify)?;
    // Shrink first with a box filter (area average: no aliasing, and no float buffers the size
    // of the photo), then turn upright: rotating the small image is cheaper. The bound is
    // square, so the order does not change the result's size.
    let mut img = if img.width() > long_edge || img.height() > long_edge {
        img.thumbnail(long_edge, long_edge)
    } else {
        img
    };
    img.apply_orientation(orientation);
    let full = flatten(img);
    let (tw, th) = fit_within(full.width(), full.height(), THUMB_EDGE);
    let thumb = image::imageops::thumbnail(&full, tw, th);
    Ok(Processed {
        width: full.width(),
        height: full.height(),
        full: encode(&full)?,
        thumb: encode(&thumb)?,
    })
}

/// A complete JPEG has an end-of-image marker after its (first) start-of-scan marker. Data after
/// the marker is allowed: some cameras append their own.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let find = |marker: [u8; 2], from: usize| {
        bytes
            .get(from..)
            .and_then(|rest| rest.windows(2).position(|w| w == marker))
            .map(|i| i + from)
    };
    match find([0xFF, 0xDA], 2) {
        Some(scan) => find([0xFF, 0xD9], scan + 2).is_some(),
        None => false,
    }
}

fn classify(err: ImageError) -> MediaError {
    match err {
        ImageError::Limits(_) => MediaError::TooLarge,
        ImageError::Unsupported(_) => MediaError::NotAnImage,
        _ => MediaError::Damaged,
    }
}

/// The size of `w`x`h` scaled to fit a square of `edge`, keeping the aspect ratio (never larger).
fn fit_within(w: u32, h: u32, edge: u32) -> (u32, u32) {
    let long = w.max(h);
    if long <= edge {
        return (w, h);
    }
    let scale = |side: u32| {
        ((u64::from(side) * u64::from(edge) + u64::from(long) / 2) / u64::from(long)).max(1) as u32
    };
    (scale(w), scale(h))
}

/// RGB with transparent areas on white (JPEG has no alpha).
fn flatten(img: DynamicImage) -> RgbImage {
    if !img.color().has_alpha() {
        return img.into_rgb8();
    }
    let rgba = img.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white =
            |c: u8| ((u16::from(c) * u16::from(a) + 255 * (255 - u16::from(a))) / 255) as u8;
        image::Rgb([over_white(r), over_white(g), over_white(b)])
    })
}

fn encode(img: &RgbImage) -> Result<Vec<u8>, MediaError> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(img)
        .map_err(|_| MediaError::Damaged)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::fixtures::{
        GPS_MARKER, contains, png_header_only, two_colour_jpeg, with_exif,
    };

    #[test]
    fn exif_orientation_is_applied_and_all_metadata_dropped() {
        let source = with_exif(&two_colour_jpeg(400, 200), 6);
        assert!(
            contains(&source, b"Exif") && contains(&source, &GPS_MARKER),
            "the fixture carries EXIF and GPS"
        );
        let out = process(&source, PHOTO_EDGE).unwrap();
        assert_eq!(
            (out.width, out.height),
            (200, 400),
            "orientation 6 turns the image upright"
        );
        let img = image::load_from_memory(&out.full).unwrap().to_rgb8();
        // Rotated 90° clockwise: the red left half is now the top.
        assert!(img.get_pixel(100, 20).0[0] > 150, "top is red");
        assert!(img.get_pixel(100, 380).0[2] > 150, "bottom is blue");
        for bytes in [&out.full, &out.thumb] {
            assert!(!contains(bytes, b"Exif"), "no EXIF segment");
            assert!(!contains(bytes, &GPS_MARKER), "no GPS position");
            assert!(!contains(bytes, &[0xFF, 0xE1]), "no APP1 segment at all");
        }
    }

    #[test]
    fn fitting_keeps_the_aspect_ratio() {
        assert_eq!(fit_within(2048, 1024, 320), (320, 160));
        assert_eq!(fit_within(1536, 2048, 320), (240, 320));
        assert_eq!(fit_within(100, 50, 320), (100, 50));
        assert_eq!(fit_within(5000, 1, 320), (320, 1));
    }

    #[test]
    fn large_images_are_fitted_and_thumbnailed() {
        let out = process(&two_colour_jpeg(3000, 1500), PHOTO_EDGE).unwrap();
        assert_eq!((out.width, out.height), (2048, 1024));
        let thumb = image::load_from_memory(&out.thumb).unwrap();
        assert_eq!((thumb.width(), thumb.height()), (320, 160));
    }

    #[test]
    fn png_webp_and_gif_are_accepted() {
        let rgba = image::RgbaImage::from_pixel(30, 20, image::Rgba([0, 0, 0, 0]));
        for format in [ImageFormat::Png, ImageFormat::WebP, ImageFormat::Gif] {
            let mut bytes = Vec::new();
            DynamicImage::ImageRgba8(rgba.clone())
                .write_to(&mut Cursor::new(&mut bytes), format)
                .unwrap();
            let out = process(&bytes, PHOTO_EDGE).unwrap_or_else(|e| panic!("{format:?}: {e}"));
            assert_eq!((out.width, out.height), (30, 20));
            let px = image::load_from_memory(&out.full)
                .unwrap()
                .to_rgb8()
                .get_pixel(5, 5)
                .0;
            assert!(
                px.iter().all(|c| *c > 240),
                "transparent becomes white: {px:?}"
            );
        }
    }

    #[test]
    fn refusals() {
        assert_eq!(
            process(b"hello, I am text", PHOTO_EDGE).unwrap_err(),
            MediaError::NotAnImage
        );
        assert_eq!(
            process(b"PK\x03\x04zipfile", PHOTO_EDGE).unwrap_err(),
            MediaError::NotAnImage
        );
        let jpeg = two_colour_jpeg(300, 300);
        assert_eq!(
            process(&jpeg[..jpeg.len() / 3], PHOTO_EDGE).unwrap_err(),
            MediaError::Damaged
        );
        // A BMP header: an image, but not one we take.
        assert_eq!(
            process(b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0", PHOTO_EDGE).unwrap_err(),
            MediaError::NotAnImage
        );
    }

    #[test]
    fn a_decompression_bomb_is_refused_before_decoding() {
        assert_eq!(
            process(&png_header_only(20_000, 20_000), PHOTO_EDGE).unwrap_err(),
            MediaError::TooLarge
        );
        // Within the side limit but too much memory to decode (11,000² RGBA = 484 MB).
        assert_eq!(
            process(&png_header_only(11_000, 11_000), PHOTO_EDGE).unwrap_err(),
            MediaError::TooLarge
        );
    }
}
