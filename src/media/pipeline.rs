//! The image pipeline. Accepts JPEG, PNG, WebP and GIF (first frame), recognised by content.
//! Reads the header first ([`plan`]): the size, and so the memory a decode needs, is known
//! before anything is decoded, so the caller can refuse or queue it. Applies the EXIF
//! orientation, then re-encodes as JPEG: the output carries no metadata at all, so a phone's
//! GPS position never reaches the store. JPEGs are decoded in strict mode: a cut-off upload is
//! refused, even one that happens to end with an end-of-image marker.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::metadata::Orientation;
use image::{
    DynamicImage, GrayImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits, RgbImage,
};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;

pub const MAX_SIDE: u32 = 12_000;
/// Long edge of a stored meal photo.
pub const PHOTO_EDGE: u32 = 2048;
/// Long edge of a stored avatar.
pub const AVATAR_EDGE: u32 = 512;
/// Long edge of the thumbnail stored with every image.
pub const THUMB_EDGE: u32 = 320;
/// Long edge of the medium size: sharp on a phone's meal card (about 324 CSS px at 3x).
pub const MEDIUM_EDGE: u32 = 1024;
const JPEG_QUALITY: u8 = 85;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    #[error("not a JPEG, PNG, WebP or GIF image")]
    NotAnImage,
    #[error("the image is damaged or incomplete")]
    Damaged,
    #[error("the image is too large")]
    TooLarge,
    /// Decoding it would need more memory than the server allows for images at once.
    #[error("the image needs {needed_mb} MiB to process; the limit is {budget_mb} MiB")]
    NeedsTooMuchMemory { needed_mb: u64, budget_mb: u64 },
}

/// A cleaned image: the stored size, a medium size and a thumbnail, all JPEG.
#[derive(Clone)]
pub struct Processed {
    pub full: Vec<u8>,
    pub medium: Vec<u8>,
    pub thumb: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

impl std::fmt::Debug for Processed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Processed({}x{}, {} + {} + {} bytes)",
            self.width,
            self.height,
            self.full.len(),
            self.medium.len(),
            self.thumb.len()
        )
    }
}

/// What an upload is, read from its header without decoding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
    /// Bytes of the decoded pixels.
    pub decoded_bytes: u64,
    /// A progressive JPEG keeps every coefficient (2 bytes per sample) until its last scan.
    pub progressive: bool,
    /// Colour components in the file (a JPEG's CMYK has 4, where the pixels decoded have 3).
    pub components: u8,
}

/// The largest decode one request may plan, in bytes, whatever the server-wide budget: with
/// the server's own 15 MiB, a request never takes it past 100 MiB.
pub const REQUEST_MAX_BYTES: u64 = 84 * 1024 * 1024;

impl Plan {
    /// The most memory processing it takes: the input, the decoder's buffers, the decoded
    /// pixels and the resized copy with its medium size, thumbnail and encodings. Measured,
    /// rounded up.
    pub fn memory_cost(&self, input_len: usize, long_edge: u32) -> u64 {
        let pixels = u64::from(self.width) * u64::from(self.height);
        if self.format == ImageFormat::WebP {
            // image-webp keeps the frame's planes, the alpha plane and the output together, and
            // the resize works on that: measured peaks (3000 and 4000 px squares) are 10.3
            // bytes a pixel with alpha and up to 6.9 without, all steps included (issue 26: a
            // 29 KB lossy WebP with alpha took 148 MiB where half was planned).
            let per_pixel = if self.decoded_bytes >= pixels * 4 {
                11
            } else {
                7
            };
            return input_len as u64 + pixels * per_pixel;
        }
        // Every component's coefficients, at 2 bytes each (a CMYK JPEG has four).
        let coefficients = if self.progressive {
            pixels * u64::from(self.components.max(1)) * 2
        } else {
            0
        };
        let (w, h) = fit_within(self.width, self.height, long_edge);
        let resized = u64::from(w) * u64::from(h) * 4;
        // Decoders other than JPEG keep a working copy about half the output's size.
        let working = if self.format == ImageFormat::Jpeg {
            0
        } else {
            self.decoded_bytes / 2
        };
        // The medium size has at most a quarter of the resized copy's pixels, at 3 bytes a
        // pixel where the copy counts 4: a quarter covers it and its encoding.
        let medium = resized / 4;
        input_len as u64 + self.decoded_bytes + coefficients + working + resized * 2 + medium
    }
}

fn sniff(bytes: &[u8]) -> Result<ImageFormat, MediaError> {
    let format = image::guess_format(bytes).map_err(|_| MediaError::NotAnImage)?;
    match format {
        ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif => Ok(format),
        _ => Err(MediaError::NotAnImage),
    }
}

fn jpeg_decoder(bytes: &[u8]) -> zune_jpeg::JpegDecoder<ZCursor<&[u8]>> {
    let options = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize);
    zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options)
}

/// What reading a header may allocate (a PNG's colour profile is inflated while the header is
/// read; a real one is a few KiB).
const HEADER_ALLOC: u64 = 8 * 1024 * 1024;

/// A PNG, WebP or GIF decoder that may allocate at most `max_alloc` bytes in all: a GIF frame
/// larger than its screen or a compressed colour profile cannot take more than was planned.
fn other_decoder(
    bytes: &[u8],
    format: ImageFormat,
    max_alloc: u64,
) -> Result<impl ImageDecoder + '_, MediaError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(max_alloc);
    reader.limits(limits);
    reader.into_decoder().map_err(classify)
}

/// Reads the header: format, size and what decoding will take. Refuses what is not an image we
/// take, or is larger than [`MAX_SIDE`] on a side.
pub fn plan(bytes: &[u8]) -> Result<Plan, MediaError> {
    let format = sniff(bytes)?;
    let plan = if format == ImageFormat::Jpeg {
        let mut decoder = jpeg_decoder(bytes);
        decoder.decode_headers().map_err(|e| match e {
            zune_jpeg::errors::DecodeErrors::LargeDimensions(_) => MediaError::TooLarge,
            _ => MediaError::Damaged,
        })?;
        let (w, h) = decoder.dimensions().ok_or(MediaError::Damaged)?;
        let (w, h) = (w as u32, h as u32);
        let channels: u64 = if is_luma(decoder.input_colorspace()) {
            1
        } else {
            3
        };
        Plan {
            format,
            width: w,
            height: h,
            decoded_bytes: u64::from(w) * u64::from(h) * channels,
            progressive: decoder.info().is_some_and(|i| i.sof.is_progressive()),
            components: decoder.info().map_or(channels as u8, |i| i.components),
        }
    } else {
        let decoder = other_decoder(bytes, format, HEADER_ALLOC)?;
        let (w, h) = decoder.dimensions();
        Plan {
            format,
            width: w,
            height: h,
            decoded_bytes: decoder.total_bytes(),
            progressive: false,
            components: decoder.color_type().channel_count(),
        }
    };
    if plan.width > MAX_SIDE || plan.height > MAX_SIDE {
        return Err(MediaError::TooLarge);
    }
    if plan.width == 0 || plan.height == 0 {
        return Err(MediaError::Damaged);
    }
    Ok(plan)
}

fn is_luma(space: Option<ColorSpace>) -> bool {
    matches!(space, Some(ColorSpace::Luma | ColorSpace::LumaA))
}

/// Where the main image's end-of-image marker is: segments are walked from the start (an EXIF
/// thumbnail inside APP1 is skipped whole), then the entropy-coded scans, whose bytes never
/// hold a marker other than RSTn. `None` when the file ends first.
fn end_of_image(bytes: &[u8]) -> Option<usize> {
    let mut at = 2; // after SOI
    let mut in_scan = false;
    while at + 1 < bytes.len() {
        if bytes[at] != 0xFF {
            if !in_scan {
                return None;
            }
            at += 1;
            continue;
        }
        let marker = bytes[at + 1];
        match marker {
            0xD9 => return Some(at),
            // Stuffed 0xFF, fill bytes and restart markers belong to the scan.
            0x00 | 0xFF | 0xD0..=0xD7 if in_scan => at += if marker == 0xFF { 1 } else { 2 },
            0x01 | 0xD0..=0xD8 => at += 2,
            _ => {
                let len = usize::from(u16::from_be_bytes([
                    *bytes.get(at + 2)?,
                    *bytes.get(at + 3)?,
                ]));
                at += 2 + len;
                in_scan = marker == 0xDA;
            }
        }
    }
    None
}

/// The JPEG as the strict decode reads it: a baseline image is cut before its end marker, with
/// a few zero bytes instead. zune-jpeg fills a scan that an end marker cuts short with zeros
/// even in strict mode; without the marker it runs out of data and says so. A progressive
/// image must find a marker after its last scan, so it keeps its end: a cut inside its final
/// scan is filled (as browsers show it), a cut anywhere else is refused.
fn strict_input(bytes: &[u8], progressive: bool) -> Result<Vec<u8>, MediaError> {
    let end = end_of_image(bytes).ok_or(MediaError::Damaged)?;
    if progressive {
        return Ok(bytes[..end + 2].to_vec());
    }
    let mut input = Vec::with_capacity(end + 16);
    input.extend_from_slice(&bytes[..end]);
    input.extend_from_slice(&[0; 16]);
    Ok(input)
}

/// Decodes a JPEG completely (strict: missing data is an error, not grey blocks).
fn decode_jpeg(bytes: &[u8], progressive: bool) -> Result<(DynamicImage, Orientation), MediaError> {
    let input = strict_input(bytes, progressive)?;
    let mut decoder = jpeg_decoder(&input);
    decoder.decode_headers().map_err(|_| MediaError::Damaged)?;
    let luma = is_luma(decoder.input_colorspace());
    let out = if luma {
        ColorSpace::Luma
    } else {
        ColorSpace::RGB
    };
    decoder.set_options(decoder.options().jpeg_set_out_colorspace(out));
    let orientation = decoder
        .exif()
        .and_then(|exif| Orientation::from_exif_chunk(exif))
        .unwrap_or(Orientation::NoTransforms);
    let (w, h) = decoder.dimensions().ok_or(MediaError::Damaged)?;
    let pixels = decoder.decode().map_err(|_| MediaError::Damaged)?;
    let (w, h) = (w as u32, h as u32);
    let img = if luma {
        GrayImage::from_raw(w, h, pixels).map(DynamicImage::ImageLuma8)
    } else {
        RgbImage::from_raw(w, h, pixels).map(DynamicImage::ImageRgb8)
    };
    Ok((img.ok_or(MediaError::Damaged)?, orientation))
}

fn decode_other(
    bytes: &[u8],
    format: ImageFormat,
    max_alloc: u64,
) -> Result<(DynamicImage, Orientation), MediaError> {
    let mut decoder = other_decoder(bytes, format, max_alloc)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    Ok((
        DynamicImage::from_decoder(decoder).map_err(classify)?,
        orientation,
    ))
}

/// Reads the header, then decodes and cleans the image (see [`process_planned`]).
pub fn process(bytes: &[u8], long_edge: u32) -> Result<Processed, MediaError> {
    let plan = plan(bytes)?;
    process_planned(bytes, &plan, long_edge)
}

/// Decodes an image whose header [`plan`] read, fits its long edge into `long_edge`, turns it
/// upright and encodes it and its thumbnail as JPEG.
pub fn process_planned(bytes: &[u8], plan: &Plan, long_edge: u32) -> Result<Processed, MediaError> {
    let (img, orientation) = if plan.format == ImageFormat::Jpeg {
        decode_jpeg(bytes, plan.progressive)?
    } else {
        // The decoded pixels were planned for; anything beyond is a hostile file.
        decode_other(bytes, plan.format, plan.decoded_bytes + HEADER_ALLOC)?
    };
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
    let (mw, mh) = fit_within(full.width(), full.height(), MEDIUM_EDGE);
    let medium = encode(&image::imageops::thumbnail(&full, mw, mh))?;
    let (tw, th) = fit_within(full.width(), full.height(), THUMB_EDGE);
    let thumb = image::imageops::thumbnail(&full, tw, th);
    Ok(Processed {
        width: full.width(),
        height: full.height(),
        full: encode(&full)?,
        medium,
        thumb: encode(&thumb)?,
    })
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
        GPS_MARKER, contains, photo_like_jpeg, png_header_only, two_colour_jpeg, with_exif,
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
        for bytes in [&out.full, &out.medium, &out.thumb] {
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
        let medium = image::load_from_memory(&out.medium).unwrap();
        assert_eq!((medium.width(), medium.height()), (1024, 512));
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
            plan(&png_header_only(20_000, 20_000)).unwrap_err(),
            MediaError::TooLarge
        );
        // Within the side limit: the plan says what it would cost, without decoding.
        let bomb = png_header_only(11_000, 11_000);
        let cost = plan(&bomb).unwrap().memory_cost(bomb.len(), PHOTO_EDGE);
        assert!(cost > 400 * 1024 * 1024, "{cost}");
    }

    #[test]
    fn a_gif_frame_larger_than_its_screen_and_a_colour_profile_bomb_are_refused() {
        // A 1x1 screen holding a 6000x6000 frame (16 KB; 144 MB to decode).
        let gif = include_bytes!("../../tests/fixtures/gif-frame-bomb.gif");
        assert_eq!(process(gif, PHOTO_EDGE).unwrap_err(), MediaError::TooLarge);
        // A 1x1 PNG whose colour profile inflates to 64 MiB (65 KB): png stops inflating at the
        // allocation limit and drops the profile (the output carries none anyway).
        let png = include_bytes!("../../tests/fixtures/png-iccp-bomb.png");
        let out = process(png, PHOTO_EDGE).unwrap();
        assert_eq!((out.width, out.height), (1, 1));
    }

    #[test]
    fn a_cut_off_jpeg_is_refused_even_when_it_ends_with_an_end_marker() {
        let jpeg = photo_like_jpeg(640, 480);
        let mut cut = jpeg[..jpeg.len() * 2 / 3].to_vec();
        cut.extend_from_slice(&[0xFF, 0xD9]);
        assert_eq!(process(&cut, PHOTO_EDGE).unwrap_err(), MediaError::Damaged);
        assert!(process(&jpeg, PHOTO_EDGE).is_ok());
    }

    #[test]
    fn a_progressive_jpeg_decodes_whole_and_is_refused_when_cut() {
        let jpeg = include_bytes!("../../tests/fixtures/progressive.jpg");
        let plan = plan(jpeg).unwrap();
        assert!(plan.progressive);
        let out = process(jpeg, PHOTO_EDGE).unwrap();
        assert_eq!((out.width, out.height), (160, 120));
        // Cut off: refused.
        for keep in [jpeg.len() / 2, jpeg.len() * 3 / 4, jpeg.len() - 40] {
            let cut = jpeg[..keep].to_vec();
            assert_eq!(
                process(&cut, PHOTO_EDGE).unwrap_err(),
                MediaError::Damaged,
                "cut at {keep} of {}",
                jpeg.len()
            );
        }
    }

    #[test]
    fn trailing_data_and_an_exif_thumbnail_do_not_hide_the_end() {
        let jpeg = with_exif(&two_colour_jpeg(64, 64), 1);
        let end = end_of_image(&jpeg).unwrap();
        assert_eq!(end, jpeg.len() - 2);
        let mut trailer = jpeg.clone();
        trailer.extend_from_slice(b"\xFF\xD8camera trailer\xFF\xD9");
        assert_eq!(end_of_image(&trailer), Some(end));
        assert!(process(&trailer, PHOTO_EDGE).is_ok());
    }

    #[test]
    fn the_memory_cost_follows_the_pixels_and_the_kind_of_jpeg() {
        let jpeg = two_colour_jpeg(4000, 3000);
        let baseline = plan(&jpeg).unwrap();
        assert_eq!((baseline.width, baseline.height), (4000, 3000));
        assert!(!baseline.progressive);
        let cost = baseline.memory_cost(jpeg.len(), PHOTO_EDGE);
        // 12 MP: 36 MB of pixels, plus the resized copy; well under the default budget.
        assert!((36_000_000..80 * 1024 * 1024).contains(&cost), "{cost}");
        let progressive = Plan {
            progressive: true,
            ..baseline
        };
        assert!(progressive.memory_cost(jpeg.len(), PHOTO_EDGE) > cost + 70_000_000);
        // A CMYK file keeps four components' coefficients where the pixels have three.
        let cmyk = Plan {
            components: 4,
            ..progressive
        };
        assert_eq!(
            cmyk.memory_cost(jpeg.len(), PHOTO_EDGE)
                - progressive.memory_cost(jpeg.len(), PHOTO_EDGE),
            4000 * 3000 * 2
        );
    }

    /// Issue 26: a 44 KB lossy WebP with alpha, 4000 px square, took a request from 24 to
    /// 172 MiB where half was planned. Planned from what the decoder really takes, it is more
    /// than one request may use.
    #[test]
    fn a_webp_with_alpha_is_planned_at_what_its_decoder_takes() {
        let webp = include_bytes!("../../tests/fixtures/webp-lossy-alpha-4000.webp");
        let plan = plan(webp).unwrap();
        assert_eq!(
            (plan.format, plan.width, plan.components),
            (ImageFormat::WebP, 4000, 4)
        );
        let cost = plan.memory_cost(webp.len(), PHOTO_EDGE);
        assert!(cost > 160 * 1024 * 1024, "{cost}");
        assert!(cost > REQUEST_MAX_BYTES);
        // Without alpha, a 12 MP WebP still fits.
        let rgb = Plan {
            width: 4000,
            height: 3000,
            decoded_bytes: 4000 * 3000 * 3,
            components: 3,
            ..plan
        };
        assert!(rgb.memory_cost(1_000_000, PHOTO_EDGE) < REQUEST_MAX_BYTES);
    }
}
