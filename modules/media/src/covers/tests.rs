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
