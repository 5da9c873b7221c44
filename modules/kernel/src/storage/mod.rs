//! Where uploaded files live. The local-directory backend is the default (`DATA_DIR/uploads`,
//! served under `/media/…`); an object-store backend can implement the same trait.

use std::path::{Component, Path, PathBuf};

use async_trait::async_trait;

#[async_trait]
pub trait Storage: Send + Sync {
    /// Stores `bytes` under `key` (a relative path made by the caller, never by a user).
    async fn put(&self, key: &str, bytes: &[u8]) -> std::io::Result<()>;
    /// Stores the contents of the local file `file` under `key`, streaming it (the file is left
    /// as it is). The default reads the file whole and calls [`Storage::put`]: backends should
    /// stream instead, as uploads of several megabytes arrive here.
    async fn put_file(&self, key: &str, file: &Path) -> std::io::Result<()> {
        let bytes = tokio::fs::read(file).await?;
        self.put(key, &bytes).await
    }
    /// Removes `key` (no error when it is already gone).
    async fn delete(&self, key: &str) -> std::io::Result<()>;
    /// The public URL of `key`.
    fn url(&self, key: &str) -> String;
}

pub struct LocalStorage {
    root: PathBuf,
    base_url: String,
}

impl LocalStorage {
    pub fn new(root: impl Into<PathBuf>, base_url: impl Into<String>) -> Self {
        Self {
            root: root.into(),
            base_url: base_url.into(),
        }
    }

    /// The file of `key`, refusing anything that could leave the root.
    pub fn path_of(&self, key: &str) -> Option<PathBuf> {
        let rel = Path::new(key);
        let safe = !key.is_empty() && rel.components().all(|c| matches!(c, Component::Normal(_)));
        safe.then(|| self.root.join(rel))
    }
}

#[async_trait]
impl Storage for LocalStorage {
    async fn put(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.path_of(key).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "unsafe storage key")
        })?;
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        // Write then rename, so a reader never sees half a file.
        let tmp = path.with_extension("partial");
        tokio::fs::write(&tmp, bytes).await?;
        tokio::fs::rename(&tmp, &path).await
    }

    async fn put_file(&self, key: &str, file: &Path) -> std::io::Result<()> {
        let path = self.path_of(key).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "unsafe storage key")
        })?;
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        // Copied through a small buffer, then renamed, so a reader never sees half a file.
        let tmp = path.with_extension("partial");
        let mut from =
            tokio::io::BufReader::with_capacity(64 * 1024, tokio::fs::File::open(file).await?);
        let mut to = tokio::fs::File::create(&tmp).await?;
        tokio::io::copy_buf(&mut from, &mut to).await?;
        tokio::io::AsyncWriteExt::flush(&mut to).await?;
        drop(to);
        tokio::fs::rename(&tmp, &path).await
    }

    async fn delete(&self, key: &str) -> std::io::Result<()> {
        let path = self.path_of(key).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "unsafe storage key")
        })?;
        match tokio::fs::remove_file(&path).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    fn url(&self, key: &str) -> String {
        format!("{}/{key}", self.base_url.trim_end_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::{LocalStorage, Storage};

    #[test]
    fn keys_cannot_escape_the_root() {
        let s = LocalStorage::new("/srv/uploads", "/media");
        assert!(s.path_of("covers/a.png").is_some());
        for bad in ["../etc/passwd", "/etc/passwd", "covers/../../x", "", "./a"] {
            assert!(s.path_of(bad).is_none(), "{bad}");
        }
        assert_eq!(s.url("covers/a.png"), "/media/covers/a.png");
    }
}
