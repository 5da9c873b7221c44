//! A small HTTP client for upload tests that generates multipart bodies as it sends them, so
//! that the test process never holds a large body (its memory is what some tests measure).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CHUNK: usize = 64 * 1024;

pub enum Piece {
    Text(String, String),
    /// A PDF of `size` bytes (a header, then filler), generated while it is sent.
    Pdf {
        field: String,
        file_name: String,
        size: usize,
    },
}

impl Piece {
    pub fn text(name: &str, value: &str) -> Piece {
        Piece::Text(name.to_string(), value.to_string())
    }

    pub fn pdf(field: &str, file_name: &str, size: usize) -> Piece {
        Piece::Pdf {
            field: field.to_string(),
            file_name: file_name.to_string(),
            size,
        }
    }

    /// True for the text field `name`.
    pub fn is_text_named(&self, name: &str) -> bool {
        matches!(self, Piece::Text(n, _) if n == name)
    }

    fn head(&self) -> String {
        match self {
            Piece::Text(name, _) => {
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n")
            }
            Piece::Pdf {
                field, file_name, ..
            } => format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; \
                 filename=\"{file_name}\"\r\nContent-Type: application/pdf\r\n\r\n"
            ),
        }
    }

    fn len(&self) -> usize {
        self.head().len()
            + match self {
                Piece::Text(_, v) => v.len(),
                Piece::Pdf { size, .. } => *size,
            }
            + 2
    }
}

const BOUNDARY: &str = "agora-upload-test-boundary";
const PDF_HEAD: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n";

/// The text fields of a complete application for a copy editor.
pub fn application_fields() -> Vec<Piece> {
    [
        ("full_name", "Ada Mensah"),
        ("age", "16"),
        ("country", "Ghana"),
        ("email", "ada@school.example.org"),
        ("time_zone", "Africa/Accra"),
        ("weekly_availability", "5"),
        ("english_level", "C1"),
        ("roles", "copy-editor"),
        ("why_join", "I want to learn how politics works."),
        ("contribution", "Careful copy edits."),
    ]
    .into_iter()
    .map(|(k, v)| Piece::text(k, v))
    .collect()
}

/// Four PDFs of `size` bytes, one per document field of the application.
pub fn four_documents(size: usize) -> Vec<Piece> {
    [
        "cv_file",
        "portfolio_file",
        "writing_samples_file",
        "research_samples_file",
    ]
    .into_iter()
    .map(|f| Piece::pdf(f, &format!("{f}.pdf"), size))
    .collect()
}

struct Sender {
    stream: TcpStream,
    chunked: bool,
    failed: bool,
}

impl Sender {
    async fn send(&mut self, bytes: &[u8]) {
        if self.failed || bytes.is_empty() {
            return;
        }
        let r = if self.chunked {
            let mut framed = format!("{:x}\r\n", bytes.len()).into_bytes();
            framed.extend_from_slice(bytes);
            framed.extend_from_slice(b"\r\n");
            self.stream.write_all(&framed).await
        } else {
            self.stream.write_all(bytes).await
        };
        // The server may answer before reading everything (a declared size over the limit).
        self.failed = r.is_err();
    }
}

/// Posts `pieces` as `multipart/form-data` to `path` of the app at `address`
/// (`http://host:port`), chunked or with a Content-Length; returns the status and JSON body.
pub async fn post_multipart(
    address: &str,
    path: &str,
    cookie: Option<&str>,
    pieces: &[Piece],
    chunked: bool,
) -> (u16, Value) {
    let (status, _, body) = send_multipart(address, path, cookie, pieces, chunked).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// As [`post_multipart`], returning the status, the response's head (lower case) and body.
pub async fn send_multipart(
    address: &str,
    path: &str,
    cookie: Option<&str>,
    pieces: &[Piece],
    chunked: bool,
) -> (u16, String, String) {
    let host = address.trim_start_matches("http://");
    let stream = TcpStream::connect(host).await.unwrap();
    let total: usize = pieces.iter().map(Piece::len).sum::<usize>() + BOUNDARY.len() + 6;
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
    );
    if chunked {
        head.push_str("Transfer-Encoding: chunked\r\n");
    } else {
        head.push_str(&format!("Content-Length: {total}\r\n"));
    }
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    head.push_str("\r\n");
    let mut tx = Sender {
        stream,
        chunked: false,
        failed: false,
    };
    tx.send(head.as_bytes()).await;
    tx.chunked = chunked;
    let mut buf = Vec::with_capacity(CHUNK);
    for piece in pieces {
        tx.send(piece.head().as_bytes()).await;
        match piece {
            Piece::Text(_, v) => tx.send(v.as_bytes()).await,
            Piece::Pdf { size, .. } => {
                let mut sent = 0;
                let mut state = 7u32;
                while sent < *size {
                    buf.clear();
                    if sent == 0 {
                        buf.extend_from_slice(&PDF_HEAD[..PDF_HEAD.len().min(*size)]);
                    }
                    while buf.len() < CHUNK && sent + buf.len() < *size {
                        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        buf.push(b' ' + (state >> 24) as u8 % 90);
                    }
                    sent += buf.len();
                    tx.send(&buf).await;
                }
            }
        }
        tx.send(b"\r\n").await;
    }
    tx.send(format!("--{BOUNDARY}--\r\n").as_bytes()).await;
    if chunked && !tx.failed {
        let _ = tx.stream.write_all(b"0\r\n\r\n").await;
    }
    let mut response = Vec::new();
    let _ = tx.stream.read_to_end(&mut response).await;
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let (headers, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if headers
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, headers.to_ascii_lowercase(), body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A line of `/proc/self/status` in kilobytes (`VmHWM`, `VmRSS`).
pub fn status_kb(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key} in /proc/self/status"))
}

/// Resets the process's peak resident size (`VmHWM`) to its current size, where the kernel
/// allows it; returns whether it did.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// A PNG of `side` × `side` RGBA pixels of one colour, built row by row (never whole): a few
/// hundred kilobytes that would decode to `side² × 4` bytes.
pub fn bomb(side: u32) -> Vec<u8> {
    flat_png(side, side)
}

/// A flat `width` × `height` RGBA PNG: a few kB for any size.
pub fn flat_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![90u8; width as usize * 4];
        for _ in 0..height {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
    }
    out
}

/// A `width` × `height` JPEG of soft gradients (a photo's worth of pixels in a few hundred
/// kB).
pub fn gradient_jpeg(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, 120])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut out, image::ImageFormat::Jpeg)
        .unwrap();
    out.into_inner()
}

/// The cover upload form (`POST /api/v1/staff/covers`) carrying `png` as `cover.png`.
pub fn cover_form(png: Vec<u8>) -> reqwest::multipart::Form {
    let part = reqwest::multipart::Part::bytes(png)
        .file_name("cover.png")
        .mime_str("image/png")
        .unwrap();
    reqwest::multipart::Form::new().part("file", part)
}
