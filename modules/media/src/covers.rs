//! Cover images: only real images pass (judged by their bytes and a full decode, never by the
//! name or declared type); they are re-encoded from pixels, so nothing else hidden in the file
//! survives, downscaled when wide, and given lossy WebP copies: one at full size (the twin the
//! media endpoint serves for the original's address) and one per width in [`COVER_WIDTHS`],
//! which pages offer in `srcset` so a phone loads a picture its screen can show.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// Largest upload accepted.
pub const MAX_COVER_BYTES: usize = 5 * 1024 * 1024;
/// The largest cover upload request: the image plus a megabyte for the multipart envelope.
pub const MAX_COVER_BODY_BYTES: u64 = MAX_COVER_BYTES as u64 + 1024 * 1024;
/// Wider images are scaled down to this width.
pub const MAX_COVER_WIDTH: u32 = 2000;
/// The widths stored beside every cover, named `{stem}.w{width}.webp` (see [`width_key`]).
/// A phone card (390 px at 2×) takes the 800; the 400 serves small cards and 1×
/// screens; the 1200 a wide article cover.
pub const COVER_WIDTHS: [u32; 3] = [400, 800, 1200];
/// Lossy WebP quality: a third smaller than a JPEG at 80 for the same picture.
const WEBP_QUALITY: f32 = 80.0;
/// Refuse to decode absurd dimensions (decompression bombs).
const MAX_DIMENSION: u32 = 12_000;
/// Most pixels decoded for one cover, read from the header before anything is decoded: a
/// small file can describe a huge image (a 500 KB PNG of 11,000 × 11,000 pixels decodes to
/// almost 500 MB), so the budget is on pixels, not bytes.
pub const MAX_COVER_PIXELS: u64 = 40_000_000;
/// Most bytes the decoder may allocate: the budget as 8-bit RGBA.
const MAX_DECODE_BYTES: u64 = MAX_COVER_PIXELS * 4;

#[derive(Debug, thiserror::Error)]
pub enum CoverError {
    #[error("Please upload an image smaller than 5MB")]
    TooLarge,
    #[error("Please upload an image file (JPG, PNG, etc.)")]
    NotAnImage,
    #[error("Please upload an image of at most 40 megapixels")]
    TooManyPixels,
    #[error("could not encode the image: {0}")]
    Encode(#[from] image::ImageError),
    #[error("could not encode the image as WebP")]
    WebP,
}

pub struct ProcessedCover {
    /// `png` or `jpg`.
    pub extension: &'static str,
    pub bytes: Vec<u8>,
    /// The same picture as lossy WebP, at full size.
    pub webp: Vec<u8>,
    /// `(width, WebP)` for each of [`COVER_WIDTHS`].
    pub widths: Vec<(u32, Vec<u8>)>,
    pub width: u32,
    pub height: u32,
}

/// The storage key of `cover`'s copy `width` pixels wide (`covers/a.jpg` → `covers/a.w800.webp`).
pub fn width_key(cover: &str, width: u32) -> String {
    let stem = cover.rsplit_once('.').map_or(cover, |(stem, _)| stem);
    format!("{stem}.w{width}.webp")
}

/// For a key named like a width copy of a cover (`covers/a.w800.webp`, one of
/// [`COVER_WIDTHS`]), the width and the stem its original shares (`covers/a`).
pub fn parse_width_key(key: &str) -> Option<(&str, u32)> {
    let rest = key.strip_prefix("covers/")?.strip_suffix(".webp")?;
    let (stem, width) = rest.rsplit_once(".w")?;
    let width: u32 = width.parse().ok()?;
    let plain = !stem.is_empty()
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    (plain && COVER_WIDTHS.contains(&width))
        .then(|| (&key[..("covers/".len() + stem.len())], width))
}

pub fn process_cover(bytes: &[u8]) -> Result<ProcessedCover, CoverError> {
    let (mut img, format) = decode(bytes)?;
    if img.width() >= 2 * MAX_COVER_WIDTH {
        // Averaged down, area by area: the filter below keeps a float copy of the picture
        // as tall as the original and as wide as the result (190 MB for 6000 × 6000), and at
        // a factor of two or more averaging loses nothing a reader would see.
        img = img.thumbnail(MAX_COVER_WIDTH, u32::MAX);
    } else if img.width() > MAX_COVER_WIDTH {
        img = img.resize(
            MAX_COVER_WIDTH,
            u32::MAX,
            image::imageops::FilterType::Lanczos3,
        );
    }
    // Photos stay JPEG; anything that may have transparency becomes PNG.
    let (extension, out_format) = if format == ImageFormat::Jpeg {
        ("jpg", ImageFormat::Jpeg)
    } else {
        ("png", ImageFormat::Png)
    };
    let encoded_source = match out_format {
        ImageFormat::Jpeg => DynamicImage::ImageRgb8(img.to_rgb8()),
        _ => DynamicImage::ImageRgba8(img.to_rgba8()),
    };
    let mut out = Cursor::new(Vec::new());
    encoded_source.write_to(&mut out, out_format)?;
    let widths = COVER_WIDTHS
        .iter()
        .map(|&w| Ok((w, webp(&narrowed(&img, w))?)))
        .collect::<Result<Vec<_>, CoverError>>()?;
    Ok(ProcessedCover {
        extension,
        bytes: out.into_inner(),
        webp: webp(&img)?,
        widths,
        width: img.width(),
        height: img.height(),
    })
}

/// The memory processing `bytes` takes at most, in MiB, read from its header: the decoded
/// picture (four bytes a pixel) and the copies made from it. A picture over the pixel limit,
/// or not a picture, costs nothing: it is refused from its header.
pub fn decode_cost_mib(bytes: &[u8]) -> u32 {
    let Ok(format) = image::guess_format(bytes) else {
        return 1;
    };
    let Ok((width, height)) =
        ImageReader::with_format(Cursor::new(bytes), format).into_dimensions()
    else {
        return 1;
    };
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_COVER_PIXELS {
        return 1;
    }
    // The scaled picture and its copies for encoding: at most three of 2000 × 2000 × 4.
    let copies = 3 * u64::from(MAX_COVER_WIDTH).pow(2) * 4;
    u32::try_from((pixels * 4 + copies) >> 20).unwrap_or(u32::MAX) + 1
}

/// The copy of a stored cover (`bytes`, already checked at upload) `width` pixels wide, for
/// covers stored before the widths were.
pub fn cover_at_width(bytes: &[u8], width: u32) -> Result<Vec<u8>, CoverError> {
    let (img, _) = decode(bytes)?;
    webp(&narrowed(&img, width))
}

/// The picture scaled down to `width` (never up: a narrower picture stays as it is).
fn narrowed(img: &DynamicImage, width: u32) -> DynamicImage {
    if img.width() <= width {
        img.clone()
    } else {
        img.resize(width, u32::MAX, image::imageops::FilterType::Lanczos3)
    }
}

fn webp(img: &DynamicImage) -> Result<Vec<u8>, CoverError> {
    let rgba = img.to_rgba8();
    let encoder = webp::Encoder::from_rgba(&rgba, rgba.width(), rgba.height());
    let encoded = encoder
        .encode_simple(false, WEBP_QUALITY)
        .map_err(|_| CoverError::WebP)?;
    Ok(encoded.to_vec())
}

/// The picture in `bytes`, decoded within the budgets, and the format it came in.
fn decode(bytes: &[u8]) -> Result<(DynamicImage, ImageFormat), CoverError> {
    if bytes.len() > MAX_COVER_BYTES {
        return Err(CoverError::TooLarge);
    }
    let format = image::guess_format(bytes).map_err(|_| CoverError::NotAnImage)?;
    if !matches!(
        format,
        ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::WebP
    ) {
        return Err(CoverError::NotAnImage);
    }
    // The dimensions from the header first: nothing is decoded past the budget.
    let (width, height) = ImageReader::with_format(Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(|_| CoverError::NotAnImage)?;
    if u64::from(width) * u64::from(height) > MAX_COVER_PIXELS {
        return Err(CoverError::TooManyPixels);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DIMENSION);
    limits.max_image_height = Some(MAX_DIMENSION);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let img = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => CoverError::TooManyPixels,
        _ => CoverError::NotAnImage,
    })?;
    Ok((img, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(width, height, |x, y| {
            image::Rgba([(x % 256) as u8, (y % 256) as u8, 128, 255])
        });
        let mut out = Cursor::new(Vec::new());
        DynamicImage::ImageRgba8(img)
            .write_to(&mut out, ImageFormat::Png)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn a_real_png_is_accepted_and_reencoded() {
        let c = process_cover(&png(40, 20)).unwrap();
        assert_eq!((c.extension, c.width, c.height), ("png", 40, 20));
        assert_eq!(image::guess_format(&c.webp).unwrap(), ImageFormat::WebP);
    }

    #[test]
    fn text_named_png_is_not_an_image() {
        assert!(matches!(
            process_cover(b"hello, I am text"),
            Err(CoverError::NotAnImage)
        ));
        // The right magic bytes with nothing decodable behind them.
        assert!(matches!(
            process_cover(b"\x89PNG\r\n\x1a\nnot really"),
            Err(CoverError::NotAnImage)
        ));
    }

    #[test]
    fn a_polyglot_loses_its_payload() {
        let mut poly = png(10, 10);
        poly.extend_from_slice(b"<script>alert(1)</script>");
        let c = process_cover(&poly).unwrap();
        let text = String::from_utf8_lossy(&c.bytes);
        assert!(!text.contains("<script>"));
    }

    fn size_of(webp: &[u8]) -> (u32, u32) {
        assert_eq!(image::guess_format(webp).unwrap(), ImageFormat::WebP);
        let img = image::load_from_memory(webp).unwrap();
        (img.width(), img.height())
    }

    /// A photo-like picture: smooth gradients with fine detail, as a JPEG.
    fn photo(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| {
            let n = ((x * 7 + y * 13) ^ (x * y)) % 23;
            image::Rgb([
                ((x * 255 / width) as u8).wrapping_add(n as u8),
                ((y * 255 / height) as u8).wrapping_add(n as u8),
                150,
            ])
        });
        let mut out = Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(img)
            .write_to(&mut out, ImageFormat::Jpeg)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn every_width_is_stored_and_none_is_upscaled() {
        let c = process_cover(&photo(1600, 900)).unwrap();
        let sizes: Vec<_> = c.widths.iter().map(|(w, b)| (*w, size_of(b))).collect();
        assert_eq!(
            sizes,
            vec![(400, (400, 225)), (800, (800, 450)), (1200, (1200, 675))]
        );
        let small = process_cover(&photo(600, 300)).unwrap();
        let sizes: Vec<_> = small.widths.iter().map(|(_, b)| size_of(b)).collect();
        assert_eq!(sizes, vec![(400, 200), (600, 300), (600, 300)]);
        assert_eq!(
            size_of(&cover_at_width(&photo(1600, 900), 800).unwrap()),
            (800, 450)
        );
    }

    #[test]
    fn the_webp_copies_are_lossy_so_smaller_than_the_jpeg() {
        let c = process_cover(&photo(1600, 900)).unwrap();
        assert!(
            c.webp.len() < c.bytes.len(),
            "full-size WebP {} vs JPEG {}",
            c.webp.len(),
            c.bytes.len()
        );
        let w800 = &c.widths[1].1;
        assert!(
            w800.len() * 2 < c.bytes.len(),
            "{} vs {}",
            w800.len(),
            c.bytes.len()
        );
    }

    #[test]
    fn width_keys_round_trip_and_nothing_else_parses() {
        assert_eq!(width_key("covers/ab-1.jpg", 800), "covers/ab-1.w800.webp");
        assert_eq!(
            parse_width_key("covers/ab-1.w800.webp"),
            Some(("covers/ab-1", 800))
        );
        for other in [
            "covers/ab.w801.webp",
            "covers/ab.webp",
            "covers/.w400.webp",
            "magazines/ab.w400.webp",
            "covers/a/b.w400.webp",
            "covers/a.w400.png",
        ] {
            assert_eq!(parse_width_key(other), None, "{other}");
        }
    }

    #[test]
    fn wide_images_are_downscaled() {
        let c = process_cover(&png(2400, 100)).unwrap();
        assert_eq!(c.width, MAX_COVER_WIDTH);
    }

    /// A PNG of `width` × `height` pixels of one colour, built row by row (never whole).
    fn one_colour_png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![200u8; width as usize * 4];
        for _ in 0..height {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
        drop(writer);
        out
    }

    #[test]
    fn images_over_the_pixel_budget_are_refused_before_decoding() {
        let bomb = one_colour_png(11_000, 11_000);
        assert!(bomb.len() < MAX_COVER_BYTES);
        let err = process_cover(&bomb).err().unwrap();
        assert!(matches!(err, CoverError::TooManyPixels), "{err:?}");
        assert_eq!(
            err.to_string(),
            "Please upload an image of at most 40 megapixels"
        );
    }

    #[test]
    fn over_five_megabytes_is_too_large() {
        let big = vec![0u8; MAX_COVER_BYTES + 1];
        assert!(matches!(process_cover(&big), Err(CoverError::TooLarge)));
    }
}
