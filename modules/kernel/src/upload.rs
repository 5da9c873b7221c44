//! Multipart uploads read part by part as the bytes arrive, so that what one request costs in
//! memory is a small buffer, whatever it sends: text fields are capped, file parts are spooled
//! to a temporary file while their size is counted (only the first bytes are kept, for content
//! checks), and a part over its limit is read to its end and dropped, never stored.
//!
//! The contract still describes the form with a `#[derive(Multipart)]` type `T`; only its
//! schema is used.

use std::marker::PhantomData;
use std::path::Path;

use poem::web::{Field, Multipart};
use poem::{FromRequest, Request, RequestBody};
use poem_openapi::payload::{ParsePayload, Payload};
use poem_openapi::registry::{MetaSchemaRef, Registry};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// How many leading bytes of a file part are kept in memory for content checks.
pub const HEAD_BYTES: usize = 64 * 1024;
/// Bytes read from the body at a time.
const CHUNK: usize = 64 * 1024;

/// The `message` of the answer to text containing NUL (which PostgreSQL text cannot hold),
/// with the code `Common::InvalidCharacters`, the same as the edge gives for URLs and JSON or
/// form bodies.
pub const NUL_MESSAGE: &str = "The request contains a NUL character, which is not allowed in text.";

/// A `multipart/form-data` body, read field by field by the handler.
pub struct MultipartStream<T> {
    multipart: Multipart,
    _form: PhantomData<fn() -> T>,
}

impl<T: Payload> Payload for MultipartStream<T> {
    const CONTENT_TYPE: &'static str = T::CONTENT_TYPE;

    fn check_content_type(content_type: &str) -> bool {
        T::check_content_type(content_type)
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Payload> ParsePayload for MultipartStream<T> {
    const IS_REQUIRED: bool = true;

    async fn from_request(request: &Request, body: &mut RequestBody) -> poem::Result<Self> {
        Ok(MultipartStream {
            multipart: Multipart::from_request(request, body).await?,
            _form: PhantomData,
        })
    }
}

poem_openapi::impl_apirequest_for_payload!(MultipartStream<T>, T: Payload);

impl<T> MultipartStream<T> {
    /// The next part; an unread earlier part is skipped.
    pub async fn next_field(&mut self) -> Result<Option<Field>, PartError> {
        self.multipart
            .next_field()
            .await
            .map_err(|e| PartError::Malformed(e.to_string()))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// A text field contains NUL: answer 400 with `Common::InvalidCharacters` and [`NUL_MESSAGE`].
    #[error("{NUL_MESSAGE}")]
    Nul,
    /// The body is not well-formed multipart (or was cut off): a 400.
    #[error("parse multipart error: {0}")]
    Malformed(String),
    /// Writing the temporary file failed: a 500.
    #[error("could not spool the upload: {0}")]
    Io(#[from] std::io::Error),
}

impl PartError {
    /// A fault in the form itself (a missing or repeated field), worded like the framework's.
    pub fn form(reason: impl std::fmt::Display) -> PartError {
        PartError::Malformed(reason.to_string())
    }
}

fn malformed(e: std::io::Error) -> PartError {
    PartError::Malformed(e.to_string())
}

/// Reads `reader` to its end in chunks, handing each to `f`.
async fn each_chunk<R, F>(reader: R, mut f: F) -> Result<(), PartError>
where
    R: AsyncRead + Send,
    F: FnMut(&[u8]) -> Result<(), PartError>,
{
    let mut reader = std::pin::pin!(reader);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = reader.read(&mut buf).await.map_err(malformed)?;
        if n == 0 {
            return Ok(());
        }
        f(&buf[..n])?;
    }
}

/// A text field, refusing NUL anywhere in it. At most `max_bytes` are kept (cut on a
/// character boundary); the rest is read and dropped, so give a cap that no valid value
/// reaches and let the field's own length rule refuse it.
pub async fn read_text(field: Field, max_bytes: usize) -> Result<String, PartError> {
    let name = field.name().unwrap_or_default().to_string();
    let mut kept = Vec::new();
    let mut nul = false;
    each_chunk(field.into_async_read(), |chunk| {
        nul |= chunk.contains(&0);
        let room = max_bytes.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..room.min(chunk.len())]);
        Ok(())
    })
    .await?;
    if nul {
        return Err(PartError::Nul);
    }
    let truncated = kept.len() >= max_bytes;
    match String::from_utf8(kept) {
        Ok(s) => Ok(s),
        // A character cut in two by the cap.
        Err(e) if truncated && e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).map_err(|e| PartError::Malformed(e.to_string()))
        }
        Err(e) => Err(PartError::form(format!(
            "failed to parse field `{name}`: {}",
            e.utf8_error()
        ))),
    }
}

/// The bytes of a part when it has at most `max_bytes`; `None` when it has more (the rest is
/// read and dropped, never kept).
pub async fn read_capped(field: Field, max_bytes: usize) -> Result<Option<Vec<u8>>, PartError> {
    let mut kept = Vec::new();
    let mut over = false;
    each_chunk(field.into_async_read(), |chunk| {
        if !over {
            if kept.len() + chunk.len() > max_bytes {
                over = true;
                kept = Vec::new();
            } else {
                kept.extend_from_slice(chunk);
            }
        }
        Ok(())
    })
    .await?;
    Ok((!over).then_some(kept))
}

/// A file part written to a temporary file (removed when this is dropped).
#[derive(Debug)]
pub struct Spooled {
    file_name: Option<String>,
    size: u64,
    head: Vec<u8>,
    /// `None` when the part was over the limit (nothing of it is kept).
    file: Option<tempfile::TempPath>,
}

impl Spooled {
    /// The name the browser gave the file.
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// How many bytes the part had (counted to its end, even past the limit).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// True when the part had more bytes than the limit it was spooled with.
    pub fn over_limit(&self) -> bool {
        self.file.is_none()
    }

    /// The first bytes (at most [`HEAD_BYTES`]), for content checks.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The temporary file holding the part (`None` when it was over the limit).
    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The SHA-256 (hex) of the part's bytes, read off the runtime; `None` when it was over
    /// the limit (nothing of it was kept).
    pub async fn sha256(&self) -> std::io::Result<Option<String>> {
        let Some(path) = self.path().map(Path::to_path_buf) else {
            return Ok(None);
        };
        tokio::task::spawn_blocking(move || {
            use sha2::{Digest, Sha256};
            let mut hasher = Sha256::new();
            std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
            Ok(Some(hex::encode(hasher.finalize())))
        })
        .await
        .map_err(std::io::Error::other)?
    }

    /// A spooled part made of `bytes`, named `file_name` (for tests and tools).
    pub fn from_bytes(file_name: &str, bytes: &[u8]) -> std::io::Result<Spooled> {
        let mut tmp = new_temp_file()?;
        std::io::Write::write_all(&mut tmp, bytes)?;
        Ok(Spooled {
            file_name: Some(file_name.to_string()),
            size: bytes.len() as u64,
            head: bytes[..bytes.len().min(HEAD_BYTES)].to_vec(),
            file: Some(tmp.into_temp_path()),
        })
    }
}

fn new_temp_file() -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new().prefix("agora-upload-").tempfile()
}

/// Writes a file part to a temporary file (in the system's temporary directory, `TMPDIR`) as
/// it arrives, counting its bytes: past `max_bytes` the file is removed and the rest of the
/// part is read and dropped.
pub async fn spool(field: Field, max_bytes: u64) -> Result<Spooled, PartError> {
    let file_name = field.file_name().map(str::to_string);
    let mut spooled = spool_reader(field.into_async_read(), max_bytes).await?;
    spooled.file_name = file_name;
    Ok(spooled)
}

/// Writes what `reader` gives to a temporary file as it arrives, counting its bytes: past
/// `max_bytes` the file is removed and the rest is read and dropped (bound the reader, e.g.
/// with [`AsyncReadExt::take`], to stop reading there instead). The result has no file name.
pub async fn spool_reader<R: AsyncRead + Send>(
    reader: R,
    max_bytes: u64,
) -> Result<Spooled, PartError> {
    let tmp = tokio::task::spawn_blocking(new_temp_file)
        .await
        .map_err(std::io::Error::other)??;
    let (file, path) = tmp.into_parts();
    let mut out = Some(tokio::fs::File::from_std(file));
    let mut path = Some(path);
    let mut size = 0u64;
    let mut head = Vec::new();
    let mut reader = std::pin::pin!(reader);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = reader.read(&mut buf).await.map_err(malformed)?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        size += n as u64;
        if head.len() < HEAD_BYTES {
            let room = HEAD_BYTES - head.len();
            head.extend_from_slice(&chunk[..room.min(n)]);
        }
        if size > max_bytes {
            // Over the limit: nothing more is written and what was written goes.
            out = None;
            path = None;
            continue;
        }
        if let Some(out) = out.as_mut() {
            out.write_all(chunk).await?;
        }
    }
    if let Some(mut out) = out {
        out.flush().await?;
    }
    Ok(Spooled {
        file_name: None,
        size,
        head,
        file: path,
    })
}
/// True when `head` (the first bytes of a file) is a PDF document: the `%PDF-` signature,
/// allowing the few bytes some writers put before it (readers accept it within the first
/// kilobyte).
pub fn is_pdf(head: &[u8]) -> bool {
    head[..head.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfs_are_recognised_by_content() {
        assert!(is_pdf(b"%PDF-1.7\n..."));
        assert!(
            is_pdf(b"\xef\xbb\xbf%PDF-1.4\n"),
            "a few bytes before the signature"
        );
        assert!(!is_pdf(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_pdf(b"%PDF"));
        assert!(!is_pdf(b""));
        let mut late = vec![b' '; 1100];
        late.extend_from_slice(b"%PDF-1.7");
        assert!(!is_pdf(&late), "beyond the first kilobyte");
    }
}
