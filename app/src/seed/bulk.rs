//! Bulk content for benchmarks: many generated articles and page views.

use chrono::Duration;
use content::{Category, NewArticle, Status};
use identity::Role;

use crate::state::Services;

/// What `agora seed --bulk` generates.
#[derive(Debug, Clone, Copy)]
pub struct Bulk {
    pub articles: usize,
    /// Page views, spread over the last year.
    pub views: usize,
    /// The random seed: the same seed generates the same text.
    pub seed: u64,
}

/// Writers the bulk articles are shared between.
const BULK_WRITERS: usize = 40;
/// Articles written per transaction.
const BULK_BATCH: usize = 5_000;
/// Views written per call.
const VIEW_BATCH: usize = 20_000;

const WORDS: &[&str] = &[
    "students",
    "vote",
    "election",
    "climate",
    "policy",
    "school",
    "council",
    "rights",
    "youth",
    "debate",
    "parliament",
    "budget",
    "community",
    "protest",
    "reform",
    "justice",
    "housing",
    "transport",
    "energy",
    "water",
    "forest",
    "ocean",
    "border",
    "refugees",
    "treaty",
    "summit",
    "minister",
    "mayor",
    "campaign",
    "petition",
    "newspaper",
    "media",
    "censorship",
    "privacy",
    "internet",
    "algorithm",
    "economy",
    "wages",
    "unions",
    "strike",
    "teachers",
    "curriculum",
    "exams",
    "history",
    "memory",
    "museum",
    "music",
    "film",
    "language",
    "identity",
    "equality",
    "health",
    "hospital",
    "vaccine",
    "science",
    "data",
    "cities",
    "villages",
    "farmers",
    "food",
    "prices",
    "taxes",
    "courts",
    "constitution",
    "democracy",
    "republic",
    "monarchy",
    "sanctions",
    "trade",
    "tariffs",
    "diplomacy",
    "peace",
    "war",
    "alliance",
    "emissions",
    "drought",
    "floods",
    "wildfire",
    "recycling",
    "plastic",
];
/// Rarer words: three of these syllables make one of 8,000 names, places and terms; each article
/// has a few of its own, so a search for one finds some tens of articles, as a real one would.
const SYLLABLES: &[&str] = &[
    "ba", "ko", "ri", "mel", "sun", "ta", "vo", "lin", "dor", "pe", "an", "ki", "mo", "zu", "ra",
    "ne", "fi", "gal", "tor", "bi",
];
const OPENERS: &[&str] = &[
    "Why", "How", "What", "When", "Inside", "Beyond", "After", "Before", "Against", "For",
];

/// Generates `bulk.articles` articles (six categories, lengths from a paragraph to a long read,
/// shared between writers, mostly published, dated over three years) and `bulk.views` page
/// views over the last year, most of them on a few popular articles.
pub async fn bulk(services: &Services, bulk: Bulk) -> anyhow::Result<String> {
    use rand::{Rng, SeedableRng};
    let started = std::time::Instant::now();
    let mut rng = rand::rngs::StdRng::seed_from_u64(bulk.seed);
    let mut writers = Vec::with_capacity(BULK_WRITERS);
    for n in 1..=BULK_WRITERS {
        writers.push(
            services
                .identity
                .ensure_user(&format!("Bulk Writer {n:02}"), Role::Writer)
                .await?,
        );
    }
    let first = usize::try_from(services.content.count_all().await?).unwrap_or(0) + 1;
    let now = kernel::ids::now();
    let mut slugs = Vec::new();
    let mut written = 0;
    // Each batch is derived (markdown, sanitizing) on a blocking thread while the ones before
    // it are written: one at a time on SQLite (one writer), two at once on PostgreSQL (each
    // on its own connection, so its own server process).
    let mut deriving: Option<tokio::task::JoinHandle<Result<_, content::ContentError>>> = None;
    let at_once = if matches!(services.db, kernel::Db::Postgres(_)) {
        2
    } else {
        1
    };
    let span: i64 = 3 * 365 * 24 * 60;
    let articles = i64::try_from(bulk.articles).unwrap_or(i64::MAX).max(1);
    let gap = (span / articles).max(1);
    let mut writing = tokio::task::JoinSet::new();
    while written < bulk.articles {
        let size = BULK_BATCH.min(bulk.articles - written);
        let mut batch = Vec::with_capacity(size);
        for i in 0..size {
            let number = first + written + i;
            let topics: Vec<String> = (0..4)
                .map(|_| {
                    (0..3)
                        .map(|_| SYLLABLES[rng.gen_range(0..SYLLABLES.len())])
                        .collect()
                })
                .collect();
            // Four words in five are common ones; the fifth is one of the article's own.
            let word = |rng: &mut rand::rngs::StdRng| -> String {
                if rng.gen_bool(0.8) {
                    WORDS[rng.gen_range(0..WORDS.len())].to_string()
                } else {
                    topics[rng.gen_range(0..topics.len())].clone()
                }
            };
            let title = format!(
                "{} {} {} {} (No. {number})",
                OPENERS[rng.gen_range(0..OPENERS.len())],
                capitalize(&word(&mut rng)),
                word(&mut rng),
                capitalize(&topics[0]),
            );
            let paragraphs = rng.gen_range(1..=12);
            let content = (0..paragraphs)
                .map(|_| {
                    let words = rng.gen_range(40..=130);
                    let mut p = (0..words)
                        .map(|_| word(&mut rng))
                        .collect::<Vec<_>>()
                        .join(" ");
                    p.push('.');
                    capitalize(&p)
                })
                .collect::<Vec<_>>()
                .join("\n\n");
            let published = rng.gen_bool(0.95);
            batch.push(NewArticle {
                title,
                subtitle: None,
                content,
                category: Category::ALL[rng.gen_range(0..Category::ALL.len())],
                cover_image: None,
                featured: rng.gen_bool(0.01),
                status: if published {
                    Status::Published
                } else {
                    Status::Draft
                },
                author_id: Some(writers[rng.gen_range(0..writers.len())].clone()),
                // Over three years, in the order they are generated (as a real site's arrive),
                // a few minutes apart.
                created_at: Some(
                    now - Duration::minutes(
                        span - span * i64::try_from(written + i).unwrap_or(0) / articles
                            + rng.gen_range(0..gap),
                    ),
                ),
            });
        }
        let next =
            tokio::task::spawn_blocking(move || content::ContentService::prepare_import(batch));
        if let Some(previous) = deriving.replace(next) {
            let prepared = previous.await??;
            while writing.len() >= at_once {
                if let Some(done) = writing.join_next().await {
                    done??;
                }
            }
            let content = services.content.clone();
            writing.spawn(async move { content.import_prepared(prepared).await });
        }
        written += size;
    }
    if let Some(last) = deriving {
        let prepared = last.await??;
        let content = services.content.clone();
        writing.spawn(async move { content.import_prepared(prepared).await });
    }
    while let Some(done) = writing.join_next().await {
        done??;
    }
    // Merged into one piece now, rather than a step a second under the first saves.
    services.content.compact_index().await?;
    let articles_took = started.elapsed();
    if bulk.views > 0 {
        slugs = services
            .content
            .published_slugs()
            .await?
            .into_iter()
            .map(|(slug, _)| slug)
            .collect();
    }
    // Written oldest first, as they would have arrived: each batch covers its share of the
    // year, in time order (which also keeps the index on their time appending).
    let year = 365 * 24 * 3600_i64;
    let batches = i64::try_from(bulk.views.div_ceil(VIEW_BATCH))
        .unwrap_or(1)
        .max(1);
    let mut viewed = 0;
    let mut batch_number = 0;
    while viewed < bulk.views {
        let size = VIEW_BATCH.min(bulk.views - viewed);
        let window_end = year - year * batch_number / batches;
        let window_start = year - year * (batch_number + 1) / batches;
        batch_number += 1;
        let views: Vec<analytics::View> = (0..size)
            .map(|_| {
                let path = match rng.gen_range(0..10) {
                    0 => "/".to_string(),
                    1 => "/articles".to_string(),
                    _ if slugs.is_empty() => "/about".to_string(),
                    _ => {
                        // Popularity falls steeply: a few articles get most views.
                        let x: f64 = rng.gen_range(0.0..1.0);
                        let index = ((slugs.len() as f64) * x.powi(4)) as usize;
                        format!("/article/{}", slugs[index.min(slugs.len() - 1)])
                    }
                };
                analytics::View {
                    path,
                    at: now
                        - Duration::seconds(
                            rng.gen_range(window_start..window_end.max(window_start + 1)),
                        ),
                }
            })
            .collect();
        let mut views = views;
        views.sort_by_key(|v| v.at);
        services.analytics.insert(&views).await?;
        viewed += size;
    }
    // The admin's most-viewed window over the loaded views (housekeeping would build it
    // within ten minutes of starting).
    services.analytics_service.refresh_window().await?;
    // Fresh statistics for the planner after a load this size (autovacuum would get there in
    // its own time); on PostgreSQL also the visibility map, for index-only counts.
    match &services.db {
        kernel::Db::Sqlite(pool) => {
            sqlx::query("ANALYZE").execute(pool).await?;
        }
        kernel::Db::Postgres(pool) => {
            // Every table the load wrote, so that autovacuum does not start on them (the
            // revisions' 194 MB, say) just as the site starts serving.
            sqlx::query("VACUUM (ANALYZE)").execute(pool).await?;
        }
    }
    Ok(format!(
        "bulk content loaded: {} articles in {:.1} s, {} page views in {:.1} s",
        bulk.articles,
        articles_took.as_secs_f64(),
        bulk.views,
        (started.elapsed() - articles_took).as_secs_f64()
    ))
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
