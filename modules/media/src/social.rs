//! Social cards: the picture a shared link shows, 1200×630 as the big networks want it, in
//! JPEG (they do not render SVG). Made from a page's cover — a raster cover scaled and cropped
//! to fill the card, an SVG cover (the demo's) rasterized — or, for a page without one (or a
//! cover that cannot be read), the site's own card. Made once per cover and kept in memory.

use std::io::Cursor;
use std::sync::Arc;

use bytes::Bytes;
use image::imageops::FilterType;
use image::{DynamicImage, RgbImage};
use kernel::storage::Storage;

pub const CARD_WIDTH: u32 = 1200;
pub const CARD_HEIGHT: u32 = 630;
/// The cards' type, as served.
pub const CARD_CONTENT_TYPE: &str = "image/jpeg";
const JPEG_QUALITY: u8 = 85;
/// Covers larger than this are not read (uploads are smaller; this bounds the work).
const MAX_SOURCE_BYTES: u64 = 8 * 1024 * 1024;

/// The site's card: the brand's colours and its mark, drawn without any font.
const SITE_CARD_SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b1a33"/><stop offset="1" stop-color="#8c1d40"/></linearGradient></defs>
<rect width="1200" height="630" fill="url(#g)"/>
<circle cx="1040" cy="90" r="260" fill="#ffffff" opacity="0.05"/>
<circle cx="140" cy="600" r="220" fill="#f2b134" opacity="0.10"/>
<rect x="460" y="175" width="280" height="280" rx="56" fill="#ffffff"/>
<path d="M600 222 L688 410 L650 410 L631 366 L569 366 L550 410 L512 410 Z M582 334 L618 334 L600 290 Z" fill="#8c1d40"/>
<rect x="420" y="500" width="360" height="10" rx="5" fill="#f2b134"/>
</svg>"##;

pub struct SocialCards {
    storage: Arc<Storage>,
    made: moka::future::Cache<String, Bytes>,
}

impl SocialCards {
    pub fn new(storage: Arc<Storage>) -> Self {
        Self {
            storage,
            // A card is ~100 KB; a few hundred covers fit in a few tens of MB.
            made: moka::future::Cache::builder()
                .max_capacity(48 * 1024 * 1024)
                .weigher(|_, v: &Bytes| u32::try_from(v.len()).unwrap_or(u32::MAX))
                .build(),
        }
    }

    /// The card for a page with `cover` (a `/media/…` URL, or none).
    pub async fn card(&self, cover: Option<&str>) -> Bytes {
        let key = cover.unwrap_or("").to_string();
        let storage = self.storage.clone();
        self.made
            .get_with(key.clone(), async move {
                let source = read_source(&storage, &key).await;
                let made = tokio::task::spawn_blocking(move || {
                    source
                        .and_then(|(bytes, svg)| card_from(&bytes, svg))
                        .or_else(site_card)
                })
                .await
                .ok()
                .flatten();
                made.map(Bytes::from).unwrap_or_default()
            })
            .await
    }
}

/// The bytes of a site cover URL (`/media/covers/x.jpg`), and whether it is an SVG; `None`
/// for anything else, or a file too large to read.
async fn read_source(storage: &Storage, cover: &str) -> Option<(Vec<u8>, bool)> {
    let key = storage.key_of(cover)?;
    let meta = storage.head(key).await.ok()??;
    if meta.size > MAX_SOURCE_BYTES {
        return None;
    }
    let bytes = storage.get(key).await.ok()??;
    let svg = std::path::Path::new(key)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    Some((bytes.to_vec(), svg))
}

/// A card from a cover's bytes, or `None` when they are not a picture we can read.
fn card_from(bytes: &[u8], svg: bool) -> Option<Vec<u8>> {
    let picture = if svg {
        rasterize(bytes)?
    } else {
        image::load_from_memory(bytes).ok()?
    };
    encode(fill(picture))
}

fn site_card() -> Option<Vec<u8>> {
    encode(fill(rasterize(SITE_CARD_SVG.as_bytes())?))
}

/// An SVG drawn at a size that covers the card (no text is drawn: no fonts are loaded).
fn rasterize(svg: &[u8]) -> Option<DynamicImage> {
    let tree = resvg::usvg::Tree::from_data(svg, &resvg::usvg::Options::default()).ok()?;
    let size = tree.size();
    let scale = (CARD_WIDTH as f32 / size.width()).max(CARD_HEIGHT as f32 / size.height());
    let width = (size.width() * scale).ceil() as u32;
    let height = (size.height() * scale).ceil() as u32;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let rgba = image::RgbaImage::from_raw(width, height, pixmap.take())?;
    Some(DynamicImage::ImageRgba8(rgba))
}

/// Scaled to cover 1200×630 and cropped to it, centred.
fn fill(picture: DynamicImage) -> RgbImage {
    picture
        .resize_to_fill(CARD_WIDTH, CARD_HEIGHT, FilterType::CatmullRom)
        .to_rgb8()
}

fn encode(card: RgbImage) -> Option<Vec<u8>> {
    let mut out = Cursor::new(Vec::new());
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
    card.write_with_encoder(encoder).ok()?;
    Some(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size_of(jpeg: &[u8]) -> (u32, u32) {
        let img = image::load_from_memory(jpeg).unwrap();
        (img.width(), img.height())
    }

    #[test]
    fn the_site_card_is_a_1200_by_630_jpeg() {
        let card = site_card().unwrap();
        assert_eq!(&card[..3], &[0xFF, 0xD8, 0xFF]);
        assert_eq!(size_of(&card), (CARD_WIDTH, CARD_HEIGHT));
    }

    #[test]
    fn a_tall_raster_cover_is_cropped_to_fill_and_an_svg_is_drawn() {
        let mut tall = Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(RgbImage::from_pixel(300, 900, image::Rgb([10, 200, 30])))
            .write_to(&mut tall, image::ImageFormat::Png)
            .unwrap();
        let card = card_from(tall.get_ref(), false).unwrap();
        assert_eq!(size_of(&card), (CARD_WIDTH, CARD_HEIGHT));
        let img = image::load_from_memory(&card).unwrap().to_rgb8();
        let px = img.get_pixel(600, 315);
        assert!(
            px[1] > 150 && px[0] < 60,
            "the cover's colour fills the card: {px:?}"
        );

        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="63"><rect width="120" height="63" fill="#0000ff"/></svg>"##;
        let img = image::load_from_memory(&card_from(svg, true).unwrap())
            .unwrap()
            .to_rgb8();
        let px = img.get_pixel(10, 10);
        assert!(px[2] > 200 && px[0] < 40, "the SVG is drawn: {px:?}");
        assert!(card_from(b"not a picture", false).is_none());
        assert!(card_from(b"<svg", true).is_none());
    }
}
