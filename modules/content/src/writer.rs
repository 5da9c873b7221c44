//! Writing an article's row: choosing a free slug, and keeping it free under concurrent
//! writes (the unique index on slugs decides; a write that loses moves on to the next slug).

use crate::error::ContentError;
use crate::store::{ContentStore, EventRow, InsertRow, Updated};

/// The first free slug among `base`, `base-2`, `base-3`, … A concurrent write may still
/// take it first: [`write`] handles that.
async fn unique_slug(store: &dyn ContentStore, base: &str) -> Result<String, ContentError> {
    if !store.slug_taken(base).await? {
        return Ok(base.to_string());
    }
    for n in 2..50 {
        let candidate = format!("{base}-{n}");
        if !store.slug_taken(&candidate).await? {
            return Ok(candidate);
        }
    }
    Ok(random_slug(base))
}

/// Writes `row`. With `base`, the article gets a free slug made from it: the "is it free?"
/// check cannot see a concurrent write, so the unique index on slugs decides, and a write
/// that loses the race moves on to the next free slug instead of failing. Without `base`,
/// the row keeps its slug.
pub(crate) async fn write(
    store: &dyn ContentStore,
    row: &mut InsertRow,
    base: Option<&str>,
    write: Write<'_>,
) -> Result<Updated, ContentError> {
    let mut attempt = 0;
    loop {
        if let Some(base) = base {
            row.slug = if attempt < SLUG_ATTEMPTS {
                unique_slug(store, base).await?
            } else {
                random_slug(base)
            };
        }
        let result = match write {
            Write::Insert => store.insert(row).await.map(|()| Updated::Written(1)),
            Write::Update {
                old_slug,
                expected_version,
                event,
                pending_at,
            } => {
                let moved_from = old_slug.filter(|s| *s != row.slug);
                store
                    .update(row, moved_from, expected_version, event, pending_at)
                    .await
            }
        };
        match result {
            Err(e)
                if base.is_some()
                    && is_unique_violation(&e)
                    && attempt < SLUG_ATTEMPTS + RANDOM_SLUG_ATTEMPTS =>
            {
                tracing::info!(slug = %row.slug, "slug taken by a concurrent write; trying another");
                attempt += 1;
            }
            Err(e) => return Err(e.into()),
            Ok(written) => return Ok(written),
        }
    }
}

/// How a row is written by [`write`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Write<'a> {
    Insert,
    /// An update; a published article's `old_slug` keeps leading to it when the slug changes.
    /// With `expected_version`, nothing is written when the article was saved since.
    Update {
        old_slug: Option<&'a str>,
        expected_version: Option<i64>,
        event: Option<&'a EventRow>,
        /// Approving a pending change: the one proposed at this time, removed with the write.
        pending_at: Option<chrono::DateTime<chrono::Utc>>,
    },
}

/// Free slugs tried in turn when concurrent writes keep taking them first, then random ones.
const SLUG_ATTEMPTS: usize = 20;
const RANDOM_SLUG_ATTEMPTS: usize = 4;

/// `base` with a random suffix (the random tail of a UUIDv7: its head is the clock).
fn random_slug(base: &str) -> String {
    let id = uuid::Uuid::now_v7().simple().to_string();
    format!("{base}-{}", &id[id.len() - 8..])
}

/// A unique-index violation (on articles: the slug, since ids are new UUIDs).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
