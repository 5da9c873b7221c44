//! Cover images: only real images pass (judged by their bytes and a full decode, never by the
//! name or declared type); they are re-encoded from pixels, so nothing else hidden in the file
//! survives, downscaled when wide, and given a WebP twin.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// Largest upload accepted.
pub const MAX_COVER_BYTES: usize = 5 * 1024 * 1024;
/// The largest cover upload request: the image plus a megabyte for the multipart envelope.
pub const MAX_COVER_BODY_BYTES: u64 = MAX_COVER_BYTES as u64 + 1024 * 1024;
/// Wider images are scaled down to this width.
pub const MAX_COVER_WIDTH: u32 = 2000;
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
}

pub struct ProcessedCover {
    /// `png` or `jpg`.
    pub extension: &'static str,
    pub bytes: Vec<u8>,
    pub webp: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

pub fn process_cover(bytes: &[u8]) -> Result<ProcessedCover, CoverError> {
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
    let mut img = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => CoverError::TooManyPixels,
        _ => CoverError::NotAnImage,
    })?;
    if img.width() > MAX_COVER_WIDTH {
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
    let mut webp = Cursor::new(Vec::new());
    DynamicImage::ImageRgba8(img.to_rgba8()).write_to(&mut webp, ImageFormat::WebP)?;
    Ok(ProcessedCover {
        extension,
        bytes: out.into_inner(),
        webp: webp.into_inner(),
        width: img.width(),
        height: img.height(),
    })
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
