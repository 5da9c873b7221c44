//! The site's content generation: a counter every module that changes what public pages show
//! moves forward (articles, magazine issues), and every cache built from public content keys
//! on. One handle, cloned into each module, so a change anywhere reaches every cache.
//!
//! A change says what it touched ([`Scope`]): every change moves the counter (pages that
//! list content are stale), and a change also records, for each page whose own subject it
//! changed (an article's page, the magazine's), the counter at that change: an article's
//! page is stale only when that article (or everything) changed, and a page whose own
//! subject changed is not to be shown as it was. A withdrawal (a piece taken off the site) also says that no page
//! rendered before it may be sent again while it renders anew: what was withdrawn is shown
//! nowhere from then on.
//!
//! Several instances on one PostgreSQL database keep their caches coherent through
//! [`share`]: a change made here is announced with `NOTIFY` (with the pages it named),
//! and a change announced by another instance is applied here too. SQLite runs one
//! instance: nothing to share.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::sync::{watch, Notify};

/// The PostgreSQL channel content changes are announced on.
pub const CHANNEL: &str = "agora_content";

/// Pages whose last change is remembered one by one; past this, the changes are folded into
/// one change of everything (a bulk edit then re-renders every page, once).
const PAGES_TRACKED: usize = 20_000;

/// What an announcement may carry before it says "everything" instead (PostgreSQL's limit
/// for a payload is 8,000 bytes).
const PAYLOAD_MAX: usize = 7_000;

/// What a content change touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// Pages that list content (home, listings, searches, feeds, the sitemap, the magazine
    /// and packs pages): every page but an article's own.
    Lists,
    /// The lists, and the pages at these paths, whose own subject changed (an article's
    /// page, at its old path too when it moved; the magazine's page).
    Pages(&'a [&'a str]),
    /// Every page (a bulk import; announcements from other instances that may have been
    /// missed).
    Everything,
}

/// Local changes not yet announced to the other instances.
#[derive(Debug, Default)]
struct Unannounced {
    any: bool,
    everything: bool,
    withdrawn: bool,
    paths: BTreeSet<String>,
}

#[derive(Debug, Default)]
struct Inner {
    counter: AtomicU64,
    /// The counter at the last change of everything.
    everything_at: AtomicU64,
    /// The counter at the last withdrawal.
    withdrawn_at: AtomicU64,
    /// The counter at the last change of each remembered page's own subject, by path.
    pages: RwLock<HashMap<String, u64>>,
    unannounced: Mutex<Unannounced>,
    /// Woken by every local change, for [`share`] to announce it.
    changed: Notify,
}

#[derive(Clone, Debug)]
pub struct Generation(Arc<Inner>);

impl Default for Generation {
    fn default() -> Self {
        let inner = Inner::default();
        inner.counter.store(1, Ordering::Release);
        Generation(Arc::new(inner))
    }
}

impl Generation {
    /// Moves on with every change: a page that lists content is current only if rendered
    /// at this value.
    pub fn current(&self) -> u64 {
        self.0.counter.load(Ordering::Acquire)
    }

    /// The counter at the last change of the page at `path` itself or of everything: an
    /// article's page rendered at this value or later is current.
    pub fn page(&self, path: &str) -> u64 {
        self.page_itself(path)
            .max(self.0.everything_at.load(Ordering::Acquire))
    }

    /// The counter at the last change of the page at `path` itself, as far as remembered (0
    /// when not: a change of everything since forgot it).
    pub fn page_itself(&self, path: &str) -> u64 {
        let pages = self.0.pages.read().unwrap_or_else(|e| e.into_inner());
        pages.get(path).copied().unwrap_or(0)
    }

    /// The counter at the last withdrawal: a page rendered before it is never sent once it
    /// is stale.
    pub fn withdrawn_at(&self) -> u64 {
        self.0.withdrawn_at.load(Ordering::Acquire)
    }

    /// Public content changed here: what `scope` touched is stale, on this instance and
    /// (once [`share`] announces it) on every other.
    pub fn advance(&self, scope: Scope<'_>) {
        self.announce(scope, false);
    }

    /// Public content was taken off the site here (unpublished, deleted): as
    /// [`Generation::advance`], and no stale page rendered before is sent again.
    pub fn withdraw(&self, scope: Scope<'_>) {
        self.announce(scope, true);
    }

    fn announce(&self, scope: Scope<'_>, withdrawn: bool) {
        self.apply(scope, withdrawn);
        {
            let mut unannounced = self.0.unannounced.lock().unwrap_or_else(|e| e.into_inner());
            unannounced.any = true;
            unannounced.withdrawn |= withdrawn;
            match scope {
                Scope::Lists => {}
                Scope::Pages(paths) => {
                    unannounced
                        .paths
                        .extend(paths.iter().map(|p| (*p).to_string()));
                }
                Scope::Everything => unannounced.everything = true,
            }
        }
        self.0.changed.notify_one();
    }

    /// Public content changed elsewhere (or may have): stale here, nothing to announce.
    fn advance_quietly(&self, scope: Scope<'_>, withdrawn: bool) {
        self.apply(scope, withdrawn);
    }

    fn apply(&self, scope: Scope<'_>, withdrawn: bool) {
        // Under the lock, so that a reader never sees the counter of a change without its
        // pages.
        let mut pages = self.0.pages.write().unwrap_or_else(|e| e.into_inner());
        let at = self.0.counter.fetch_add(1, Ordering::AcqRel) + 1;
        let everything = match scope {
            Scope::Lists => false,
            Scope::Pages(paths) => {
                if pages.len() + paths.len() > PAGES_TRACKED {
                    true
                } else {
                    for path in paths {
                        pages.insert((*path).to_string(), at);
                    }
                    false
                }
            }
            Scope::Everything => true,
        };
        if everything {
            pages.clear();
            self.0.everything_at.store(at, Ordering::Release);
        }
        if withdrawn {
            self.0.withdrawn_at.store(at, Ordering::Release);
        }
    }

    /// Waits for the next local change, and takes what changed (changes made meanwhile are
    /// coalesced into one announcement).
    async fn local_change(&self) -> Announcement {
        loop {
            self.0.changed.notified().await;
            let taken =
                std::mem::take(&mut *self.0.unannounced.lock().unwrap_or_else(|e| e.into_inner()));
            if taken.any {
                let what = if taken.everything {
                    Changed::Everything
                } else {
                    Changed::Pages(taken.paths.into_iter().collect())
                };
                return Announcement {
                    what,
                    withdrawn: taken.withdrawn,
                };
            }
        }
    }
}

/// A change as announced between instances.
#[derive(Debug, PartialEq, Eq)]
struct Announcement {
    what: Changed,
    withdrawn: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Changed {
    /// These pages (none: the lists only).
    Pages(Vec<String>),
    Everything,
}

impl Announcement {
    /// What changed when nothing more is known: everything, withdrawals included.
    const ANYTHING: Announcement = Announcement {
        what: Changed::Everything,
        withdrawn: true,
    };

    /// `instance`; on the next line `changed` or `withdrawn`, then `*` for everything or
    /// each path on a line of its own (none for the lists only). Paths hold no line ends
    /// (slugs are lowercase letters, digits and dashes).
    fn payload(&self, instance: &str) -> String {
        let kind = if self.withdrawn {
            "withdrawn"
        } else {
            "changed"
        };
        let everything = format!("{instance}\n{kind}\n*");
        match &self.what {
            Changed::Everything => everything,
            Changed::Pages(paths) => {
                let payload = format!("{instance}\n{kind}\n{}", paths.join("\n"));
                if payload.len() > PAYLOAD_MAX {
                    everything
                } else {
                    payload
                }
            }
        }
    }

    /// The instance that announced, and what changed. A payload not read this way (from a
    /// version before scopes) means anything may have changed.
    fn parse(payload: &str) -> (&str, Announcement) {
        let mut lines = payload.split('\n');
        let instance = lines.next().unwrap_or_default();
        let withdrawn = match lines.next() {
            Some("changed") => false,
            Some("withdrawn") => true,
            _ => return (instance, Announcement::ANYTHING),
        };
        let paths: Vec<&str> = lines.filter(|s| !s.is_empty()).collect();
        let what = if paths.first() == Some(&"*") {
            Changed::Everything
        } else {
            Changed::Pages(paths.into_iter().map(str::to_string).collect())
        };
        (instance, Announcement { what, withdrawn })
    }

    fn apply_to(&self, generation: &Generation) {
        match &self.what {
            Changed::Everything => generation.advance_quietly(Scope::Everything, self.withdrawn),
            Changed::Pages(paths) => {
                let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
                generation.advance_quietly(Scope::Pages(&paths), self.withdrawn);
            }
        }
    }
}

/// Keeps `generation` coherent with the other instances on `pool` until `stop` turns true:
/// announces local changes on [`CHANNEL`] and follows the others' announcements. A lost
/// connection counts as a change (announcements may have been missed meanwhile).
pub async fn share(
    pool: sqlx::PgPool,
    generation: Generation,
    instance: String,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "content changes: cannot listen; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    _ = stopped(&mut stop) => return,
                }
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!(error = %e, "content changes: LISTEN failed; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        // Whatever changed before we listened is unknown: start from fresh caches.
        Announcement::ANYTHING.apply_to(&generation);
        loop {
            tokio::select! {
                _ = stopped(&mut stop) => return,
                change = generation.local_change() => {
                    let sent = sqlx::query("SELECT pg_notify($1, $2)")
                        .bind(CHANNEL)
                        .bind(change.payload(&instance))
                        .execute(&pool)
                        .await;
                    if let Err(e) = sent {
                        tracing::warn!(error = %e, "content changes: NOTIFY failed");
                    }
                }
                received = listener.try_recv() => match received {
                    Ok(Some(n)) => {
                        let (from, change) = Announcement::parse(n.payload());
                        if from != instance {
                            change.apply_to(&generation);
                        }
                    }
                    // The connection dropped; the next call reconnects. Announcements may
                    // have been missed meanwhile.
                    Ok(None) => Announcement::ANYTHING.apply_to(&generation),
                    Err(e) => {
                        tracing::warn!(error = %e, "content changes: listener failed; reconnecting");
                        Announcement::ANYTHING.apply_to(&generation);
                        break;
                    }
                },
            }
        }
    }
}

/// Resolves once `stop` turns true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    loop {
        if *stop.borrow_and_update() {
            return;
        }
        if stop.changed().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
