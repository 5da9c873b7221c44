//! Demo content: a dozen articles across the six categories, their authors and local covers;
//! and bulk content for benchmarks (`bulk`).

use chrono::Duration;
use content::{Category, NewArticle, Status};
use identity::Role;
use include_dir::{include_dir, Dir};
use serde::Deserialize;

use crate::state::Services;

mod bulk;

pub use bulk::{bulk, Bulk};

static DEMO: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/demo");

#[derive(Deserialize)]
struct DemoArticle {
    title: String,
    subtitle: Option<String>,
    category: Category,
    featured: bool,
    author: String,
    cover: String,
    days_ago: i64,
    content: String,
}

/// Where demo covers are stored (in the site's storage: the data directory or the bucket).
const COVER_DIR: &str = "demo";

/// Loads the demo content when there are no articles yet; does nothing otherwise.
pub async fn demo(services: &Services) -> anyhow::Result<String> {
    if let Some(dir) = DEMO.get_dir("covers") {
        for file in dir.files() {
            if let Some(name) = file.path().file_name().and_then(|n| n.to_str()) {
                let key = format!("{COVER_DIR}/{name}");
                if services.storage.head(&key).await?.is_none() {
                    services.storage.put(&key, file.contents()).await?;
                }
            }
        }
    }
    let mut report = demo_staff(services).await?;
    if services.content.count_all().await? > 0 {
        report.push_str("demo content skipped: the database already has articles");
        return Ok(report);
    }
    let json = DEMO
        .get_file("articles.json")
        .and_then(|f| f.contents_utf8())
        .ok_or_else(|| anyhow::anyhow!("demo/articles.json is missing from the build"))?;
    let articles: Vec<DemoArticle> = serde_json::from_str(json)?;
    let now = kernel::ids::now();
    let count = articles.len();
    for a in articles {
        let author_id = services
            .identity
            .ensure_user(&a.author, Role::Writer)
            .await?;
        services
            .content
            .create(NewArticle {
                title: a.title,
                subtitle: a.subtitle,
                content: a.content,
                category: a.category,
                cover_image: Some(services.storage.url(&format!("{COVER_DIR}/{}", a.cover))),
                featured: a.featured,
                status: Status::Published,
                author_id: Some(author_id),
                created_at: Some(now - Duration::days(a.days_ago)),
            })
            .await?;
    }
    for (name, bio) in DEMO_BIOS {
        let id = services.identity.ensure_user(name, Role::Writer).await?;
        let change = identity::profiles::ProfileChange {
            full_name_shown: false,
            bio: bio.into(),
            photo: None,
        };
        services.identity.set_profile(&id, change).await?;
    }
    report.push_str(&format!("demo content loaded: {count} articles"));
    Ok(report)
}

/// What the demo writers say about themselves on their pages.
const DEMO_BIOS: [(&str, &str); 3] = [
    (
        "Maya Okafor",
        "Year 12. I write about the UN, elections and why young people should have a say in both.\nDebate club captain.",
    ),
    (
        "Priya Nandakumar",
        "Climate, rights and the tech that shapes both. I like reading the reports nobody reads.",
    ),
    (
        "Leo Chen-Ramirez",
        "I cover culture, diplomacy and the internet, usually all at once.",
    ),
];

/// The writer of the demo articles who gets a key, so the writer dashboard has content.
const DEMO_WRITER: &str = "Maya Okafor";

/// One staff member per role with a fresh key, on a database without any admin yet.
async fn demo_staff(services: &Services) -> anyhow::Result<String> {
    let identity = &services.identity;
    if identity
        .staff()
        .await?
        .iter()
        .any(|s| s.role == Role::Admin)
    {
        return Ok(String::new());
    }
    let mut lines = vec!["demo staff access keys (shown once; sign in at /key-login):".to_string()];
    for (name, role) in [
        ("Demo Admin", Role::Admin),
        ("Demo Educator", Role::Educator),
        ("Demo Content Director", Role::ContentDirector),
    ] {
        let (_, key) = identity.add_staff(name, role).await?;
        lines.push(format!("  {:<17} {key}", role.as_str()));
    }
    let writer = identity.ensure_user(DEMO_WRITER, Role::Writer).await?;
    let key = identity.rotate_key(&writer).await?;
    lines.push(format!("  {:<17} {key}  ({DEMO_WRITER})", "writer"));
    Ok(lines.join("\n") + "\n")
}
