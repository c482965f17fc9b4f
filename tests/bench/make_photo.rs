//! Writes a noisy JPEG (closer to a phone photo's size and decoding cost than a flat image)
//! for the upload benchmark: `cargo run --release --example make_photo -- OUT WIDTH HEIGHT`.

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "photo.jpg".into());
    let width = args.next().and_then(|w| w.parse().ok()).unwrap_or(4000);
    let height = args.next().and_then(|h| h.parse().ok()).unwrap_or(3000);
    let jpeg = highchair::media::fixtures::photo_like_jpeg(width, height);
    let jpeg = highchair::media::fixtures::with_exif(&jpeg, 6);
    if let Err(e) = std::fs::write(&out, &jpeg) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(1);
    }
    println!("{out}: {width}x{height}, {} bytes", jpeg.len());
}
