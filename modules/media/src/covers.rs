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
mod tests;
