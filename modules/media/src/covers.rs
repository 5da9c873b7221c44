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
/// The most memory the sharp (Lanczos) filter may use for its working copy: four floats a
/// pixel, as wide as the source and as tall as the result (384 MB for 3,300 × 12,000 scaled
/// to 2,000 wide). A scaling that would take more averages the picture down instead, which
/// keeps no copy beyond the result.
const SHARP_FILTER_MAX_BYTES: u64 = 96 << 20;

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
    if img.width() > MAX_COVER_WIDTH {
        img = narrowed(&img, MAX_COVER_WIDTH);
    }
    // Photos stay JPEG; anything that may have transparency becomes PNG.
    let (extension, out_format) = if format == ImageFormat::Jpeg {
        ("jpg", ImageFormat::Jpeg)
    } else {
        ("png", ImageFormat::Png)
    };
    let mut out = Cursor::new(Vec::new());
    // Written from the picture itself when it is already 8-bit RGB(A); a converted copy
    // lives only while it is written.
    match (out_format, &img) {
        (ImageFormat::Jpeg, DynamicImage::ImageRgb8(_)) | (_, DynamicImage::ImageRgba8(_)) => {
            img.write_to(&mut out, out_format)?
        }
        (ImageFormat::Jpeg, _) => {
            DynamicImage::ImageRgb8(img.to_rgb8()).write_to(&mut out, out_format)?
        }
        _ => DynamicImage::ImageRgba8(img.to_rgba8()).write_to(&mut out, out_format)?,
    }
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
    cost_mib(width, height)
}

/// What processing a `width` × `height` picture costs, in MiB (1 over the pixel limit: it is
/// refused before anything is decoded).
fn cost_mib(width: u32, height: u32) -> u32 {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_COVER_PIXELS {
        return 1;
    }
    // The scaled picture and its copies for encoding (three at most), and the sharp filter's
    // working copy while the largest scaling that uses it is made: to the stored width, or
    // from there to one of the narrower copies.
    let (kept_width, kept_height) = scaled_size(width, height, MAX_COVER_WIDTH);
    let copies = 3 * u64::from(kept_width) * u64::from(kept_height) * 4;
    let filter = std::iter::once((width, height, MAX_COVER_WIDTH))
        .chain(COVER_WIDTHS.iter().map(|&to| (kept_width, kept_height, to)))
        .filter(|&(from, _, to)| from > to)
        .filter_map(|(from, tall, to)| sharp_filter(from, scaled_size(from, tall, to).1))
        .max()
        .unwrap_or(0);
    u32::try_from((pixels * 4 + copies + filter) >> 20).unwrap_or(u32::MAX) + 1
}

/// The size of a `width` × `height` picture scaled to at most `max_width` wide.
fn scaled_size(width: u32, height: u32, max_width: u32) -> (u32, u32) {
    if width <= max_width {
        return (width, height);
    }
    // Rounded as the scaling itself rounds.
    let height =
        (u64::from(height) * u64::from(max_width) + u64::from(width) / 2) / u64::from(width);
    (max_width, u32::try_from(height).unwrap_or(u32::MAX).max(1))
}

/// The copy of a stored cover (`bytes`, already checked at upload) `width` pixels wide, for
/// covers stored before the widths were.
pub fn cover_at_width(bytes: &[u8], width: u32) -> Result<Vec<u8>, CoverError> {
    let (img, _) = decode(bytes)?;
    webp(&narrowed(&img, width))
}

/// The picture scaled down to `width` (never up: a narrower picture stays as it is): with the
/// sharp filter while its working copy stays within [`SHARP_FILTER_MAX_BYTES`], else averaged
/// area by area. Averaging keeps no working copy and, at the factors where the filter's copy
/// grows large (twice or more, or very tall pictures), loses nothing a reader would see.
fn narrowed(img: &DynamicImage, width: u32) -> DynamicImage {
    if img.width() <= width {
        return img.clone();
    }
    let (_, height) = scaled_size(img.width(), img.height(), width);
    if sharp_filter(img.width(), height).is_some() {
        img.resize(width, u32::MAX, image::imageops::FilterType::Lanczos3)
    } else {
        img.thumbnail(width, u32::MAX)
    }
}

/// The sharp filter's working copy when scaling a picture `source_width` wide to
/// `new_height` tall (four `f32` a pixel, as wide as the source and as tall as the result),
/// if it is used: within [`SHARP_FILTER_MAX_BYTES`].
fn sharp_filter(source_width: u32, new_height: u32) -> Option<u64> {
    let bytes = u64::from(source_width) * u64::from(new_height) * 16;
    (bytes <= SHARP_FILTER_MAX_BYTES).then_some(bytes)
}

fn webp(img: &DynamicImage) -> Result<Vec<u8>, CoverError> {
    // The picture's own pixels when they are 8-bit RGBA; else a converted copy.
    let converted;
    let rgba = match img.as_rgba8() {
        Some(rgba) => rgba,
        None => {
            converted = img.to_rgba8();
            &converted
        }
    };
    let encoder = webp::Encoder::from_rgba(rgba, rgba.width(), rgba.height());
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
    fn the_sharp_filter_is_used_only_while_its_working_copy_is_small() {
        // A photo from a camera, a square just under twice the stored width, and a tall
        // picture just under the pixel limit.
        assert_eq!(
            sharp_filter(3000, scaled_size(3000, 2000, 2000).1),
            Some(3000 * 1333 * 16)
        );
        assert_eq!(sharp_filter(3999, scaled_size(3999, 3999, 2000).1), None);
        assert_eq!(sharp_filter(3300, scaled_size(3300, 12_000, 2000).1), None);
        // A tall one is averaged down, to the size the filter would give.
        assert_eq!(sharp_filter(2400, scaled_size(2400, 6000, 2000).1), None);
        let c = process_cover(&png(2400, 6000)).unwrap();
        assert_eq!((c.width, c.height), (2000, 5000));
        let c = process_cover(&png(3000, 2000)).unwrap();
        assert_eq!((c.width, c.height), (2000, 1333));
    }

    #[test]
    fn the_decode_cost_counts_the_copies_of_tall_pictures() {
        let cost = |w, h| decode_cost_mib(&png(w, h));
        // Decoded (four bytes a pixel), three copies at 2,000 wide at most, and the sharp
        // filter's largest working copy.
        let mib = |bytes: u64| u32::try_from(bytes >> 20).unwrap() + 1;
        // Small: never scaled.
        assert_eq!(cost(400, 300), mib(4 * 400 * 300 * 4));
        // A photo: the filter's copy to 2,000 × 1,333 (3,000 wide) is the larger.
        assert_eq!(
            cost(3000, 2000),
            mib(3000 * 2000 * 4 + 3 * 2000 * 1333 * 4 + 3000 * 1333 * 16)
        );
        // Tall: averaged to 2,000 × 5,000, then the filter's copy to the 1,200 (2,000 × 3,000).
        assert_eq!(
            cost(2400, 6000),
            mib(2400 * 6000 * 4 + 3 * 2000 * 5000 * 4 + 2000 * 3000 * 16)
        );
        // Taller: the 1,200 is averaged too, and the 800 (2,000 × 2,909) is the filter's
        // largest copy.
        assert_eq!(
            cost_mib(3300, 12_000),
            mib(3300 * 12_000 * 4 + 3 * 2000 * 7273 * 4 + 2000 * 2909 * 16)
        );
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

    /// A `width` × `height` JPEG whose left half is red and right half blue, with a grey
    /// band across its middle.
    fn halves(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| {
            if y.abs_diff(height / 2) < height / 10 {
                image::Rgb([128, 128, 128])
            } else if x < width / 2 {
                image::Rgb([220, 20, 20])
            } else {
                image::Rgb([20, 20, 220])
            }
        });
        let mut out = Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(img)
            .write_to(&mut out, ImageFormat::Jpeg)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn a_wide_jpeg_stays_a_jpeg_and_keeps_its_picture() {
        let c = process_cover(&halves(4800, 3200)).unwrap();
        assert_eq!((c.extension, c.width, c.height), ("jpg", 2000, 1333));
        let stored = image::load_from_memory(&c.bytes).unwrap().to_rgb8();
        let near = |p: &image::Rgb<u8>, want: [u8; 3]| {
            p.0.iter()
                .zip(want)
                .all(|(&got, want)| got.abs_diff(want) < 24)
        };
        for (x, y, want) in [
            (300, 200, [220, 20, 20]),
            (1700, 1100, [20, 20, 220]),
            (1000, 666, [128, 128, 128]),
        ] {
            assert!(
                near(stored.get_pixel(x, y), want),
                "({x}, {y}): {:?}",
                stored.get_pixel(x, y)
            );
        }
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
