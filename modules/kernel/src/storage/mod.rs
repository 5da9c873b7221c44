//! Where uploaded files live: a directory on the local disk (the default: `DATA_DIR/uploads`,
//! served under `/media/…`, and `DATA_DIR/private`) or an S3-compatible bucket
//! (`STORAGE_URL=s3://bucket/prefix`), so that several instances share them. Both backends are
//! the `object_store` crate's; this is the one interface the modules use: put (whole or
//! streamed from a file), get, head, a byte range as a stream, delete.
//!
//! Every call has a deadline: a store that does not answer (stopped, or hanging) fails the
//! call with `TimedOut` within seconds, instead of holding the request for as long as the
//! outage lasts.

use std::ops::Range;
use std::path::{Component, Path as FsPath};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, PutPayload};
use tokio::io::AsyncWriteExt;

#[cfg(feature = "conformance")]
pub mod conformance;

/// What a stored file is, without its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub size: u64,
    pub last_modified: DateTime<Utc>,
    /// The backend's entity tag, without quotes.
    pub etag: Option<String>,
}

/// A stored file's bytes, a piece at a time.
pub type ByteStream = BoxStream<'static, std::io::Result<Bytes>>;

/// How long the store may take to answer a call (a read's headers, a head, a delete).
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How long one whole request may take on S3 by default (a part of an upload, a whole small
/// file): `STORAGE_TIMEOUT_SECONDS`.
pub const REQUEST_WITHIN: Duration = Duration::from_secs(30);
/// Connecting to S3.
const CONNECT_WITHIN: &str = "2s";

#[derive(Clone, Debug)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    /// The same store without a whole-request timeout, for reads streamed to a client (a
    /// 50 MB issue to a slow phone takes as long as it takes; its first byte does not).
    streams: Arc<dyn ObjectStore>,
    /// Prepended to every key (the bucket's prefix and the area: `uploads`, `private`).
    prefix: Option<Path>,
    base_url: String,
    /// A file streamed in is held this much at a time (S3 takes parts of 5 MiB at least).
    part_size: usize,
}

/// Parts in flight at once while a file is streamed in.
const PARTS_IN_FLIGHT: usize = 2;

/// Whether `key` is a relative path that cannot leave its area (no `..`, no root, no `.`).
fn safe(key: &str) -> bool {
    !key.is_empty()
        && !key.ends_with('/')
        && FsPath::new(key)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

fn io(e: object_store::Error) -> std::io::Error {
    match e {
        object_store::Error::NotFound { .. } => {
            std::io::Error::new(std::io::ErrorKind::NotFound, e.to_string())
        }
        other => std::io::Error::other(other.to_string()),
    }
}

fn timed_out(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("the file store did not answer {what} within {ANSWER_WITHIN:?}"),
    )
}

/// `call`, or `TimedOut` when the store has not answered within [`ANSWER_WITHIN`].
async fn answered<T>(
    what: &str,
    call: impl std::future::Future<Output = Result<T, object_store::Error>>,
) -> Result<Result<T, object_store::Error>, std::io::Error> {
    tokio::time::timeout(ANSWER_WITHIN, call)
        .await
        .map_err(|_| timed_out(what))
}

/// An S3 client that gives up: connecting within 2 s, each request within `request_within`
/// (`None`, for streams: no whole-request limit), and two retries at most within 4 s (by
/// default a hanging store was retried for three minutes).
fn s3_client(
    builder: object_store::aws::AmazonS3Builder,
    request_within: Option<Duration>,
) -> std::io::Result<object_store::aws::AmazonS3> {
    use object_store::aws::AmazonS3ConfigKey::Client;
    use object_store::ClientConfigKey;
    let mut builder = builder
        .with_config(Client(ClientConfigKey::ConnectTimeout), CONNECT_WITHIN)
        .with_retry(object_store::RetryConfig {
            backoff: object_store::BackoffConfig::default(),
            max_retries: 2,
            retry_timeout: Duration::from_secs(4),
        });
    if let Some(within) = request_within {
        let within = format!("{}ms", within.as_millis().max(1));
        builder = builder.with_config(Client(ClientConfigKey::Timeout), within);
    }
    builder.build().map_err(io)
}

fn unsafe_key() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, "unsafe storage key")
}

/// Which backend `STORAGE_URL` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A directory of the local disk.
    Local(std::path::PathBuf),
    /// A bucket of an S3-compatible store, and a prefix inside it ("" for none).
    S3 { bucket: String, prefix: String },
}

impl Location {
    /// `s3://bucket/prefix` or a directory (`file:///srv/agora` or a plain path).
    pub fn parse(url: &str) -> Result<Location, String> {
        if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err("expected s3://bucket or s3://bucket/prefix".into());
            }
            return Ok(Location::S3 {
                bucket: bucket.to_string(),
                prefix: prefix.trim_matches('/').to_string(),
            });
        }
        let dir = url.strip_prefix("file://").unwrap_or(url);
        if dir.is_empty() || dir.contains("://") {
            return Err("expected s3://bucket/prefix or a directory".into());
        }
        Ok(Location::Local(dir.into()))
    }
}

impl Storage {
    /// The directory `root` (created when missing), its files' public URLs under `base_url`.
    pub fn local(root: impl AsRef<FsPath>, base_url: impl Into<String>) -> std::io::Result<Self> {
        std::fs::create_dir_all(root.as_ref())?;
        let store =
            object_store::local::LocalFileSystem::new_with_prefix(root.as_ref()).map_err(io)?;
        let store: Arc<dyn ObjectStore> = Arc::new(store);
        Ok(Self {
            streams: store.clone(),
            store,
            prefix: None,
            base_url: base_url.into(),
            part_size: 256 * 1024,
        })
    }

    /// The area `area` (`uploads`, `private`) of `location`. S3 reads its credentials, region
    /// and endpoint from the standard `AWS_*` variables (`AWS_ENDPOINT_URL` for a store other
    /// than AWS; `AWS_ALLOW_HTTP=true` for a plain-HTTP one). A request to S3 gives up after
    /// `request_within` (a read streamed to a client has no such limit).
    pub fn open(
        location: &Location,
        area: &str,
        base_url: impl Into<String>,
        request_within: Duration,
    ) -> std::io::Result<Self> {
        match location {
            Location::Local(dir) => Self::local(dir.join(area), base_url),
            Location::S3 { bucket, prefix } => {
                let builder =
                    object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket);
                Self::s3(builder, prefix, area, base_url, request_within)
            }
        }
    }

    /// The area `area` under `prefix` of the bucket `builder` describes.
    pub fn s3(
        builder: object_store::aws::AmazonS3Builder,
        prefix: &str,
        area: &str,
        base_url: impl Into<String>,
        request_within: Duration,
    ) -> std::io::Result<Self> {
        let prefix = if prefix.is_empty() {
            area.to_string()
        } else {
            format!("{prefix}/{area}")
        };
        Ok(Self {
            store: Arc::new(s3_client(builder.clone(), Some(request_within))?),
            streams: Arc::new(s3_client(builder, None)?),
            prefix: Some(Path::parse(prefix).map_err(|e| std::io::Error::other(e.to_string()))?),
            base_url: base_url.into(),
            part_size: 5 * 1024 * 1024,
        })
    }

    fn path(&self, key: &str) -> std::io::Result<Path> {
        if !safe(key) {
            return Err(unsafe_key());
        }
        let rel = Path::parse(key).map_err(|_| unsafe_key())?;
        Ok(match &self.prefix {
            Some(prefix) => prefix.parts().chain(rel.parts()).collect(),
            None => rel,
        })
    }

    /// Stores `bytes` under `key` (a relative path made by the caller, never by a user). A
    /// reader never sees half a file.
    pub async fn put(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.path(key)?;
        self.store
            .put(&path, PutPayload::from(Bytes::copy_from_slice(bytes)))
            .await
            .map_err(io)?;
        Ok(())
    }

    /// Stores the contents of the local file `file` under `key`, streaming it (large files go
    /// up in parts; the file is left as it is).
    pub async fn put_file(&self, key: &str, file: &FsPath) -> std::io::Result<()> {
        let path = self.path(key)?;
        let mut from =
            tokio::io::BufReader::with_capacity(64 * 1024, tokio::fs::File::open(file).await?);
        let mut to = object_store::buffered::BufWriter::with_capacity(
            self.store.clone(),
            path,
            self.part_size,
        )
        .with_max_concurrency(PARTS_IN_FLIGHT);
        if let Err(e) = tokio::io::copy_buf(&mut from, &mut to).await {
            let _ = to.abort().await;
            return Err(e);
        }
        to.shutdown().await
    }

    /// The whole file of `key`, or `None` when there is none.
    pub async fn get(&self, key: &str) -> std::io::Result<Option<Bytes>> {
        let path = self.path(key)?;
        match answered("a read", self.store.get(&path)).await? {
            Ok(found) => Ok(Some(found.bytes().await.map_err(io)?)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(io(e)),
        }
    }

    /// What is stored under `key`, or `None` when nothing is.
    pub async fn head(&self, key: &str) -> std::io::Result<Option<Meta>> {
        let path = self.path(key)?;
        match answered("a head", self.store.head(&path)).await? {
            Ok(meta) => Ok(Some(Meta {
                size: meta.size,
                last_modified: meta.last_modified,
                etag: meta.e_tag.map(|t| t.trim_matches('"').to_string()),
            })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(io(e)),
        }
    }

    /// The bytes `range` of `key` (the whole file for `None`), as a stream.
    pub async fn stream(
        &self,
        key: &str,
        range: Option<Range<u64>>,
    ) -> std::io::Result<ByteStream> {
        let path = self.path(key)?;
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..GetOptions::default()
        };
        let found = answered("a read", self.streams.get_opts(&path, options))
            .await?
            .map_err(io)?;
        Ok(found.into_stream().map_err(io).boxed())
    }

    /// Removes `key` (no error when it is already gone).
    pub async fn delete(&self, key: &str) -> std::io::Result<()> {
        let path = self.path(key)?;
        match answered("a delete", self.store.delete(&path)).await? {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(io(e)),
        }
    }

    /// The public URL of `key`.
    pub fn url(&self, key: &str) -> String {
        format!("{}/{key}", self.base_url.trim_end_matches('/'))
    }

    /// The key of a public URL of this storage (`/media/covers/x.jpg` → `covers/x.jpg`).
    pub fn key_of<'a>(&self, url: &'a str) -> Option<&'a str> {
        let base = self.base_url.trim_end_matches('/');
        let key = url.strip_prefix(base)?.strip_prefix('/')?;
        let key = key.split(['?', '#']).next()?;
        safe(key).then_some(key)
    }
}

#[cfg(test)]
mod tests;
