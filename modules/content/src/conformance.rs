//! The store conformance suite: one story, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use chrono::Duration;

use crate::model::{Category, ListQuery, Sort};
use crate::store::{ContentStore, EventRow, InsertRow, StageChange, Updated};

fn row(title: &str, category: Category, status: &str, days_ago: i64, featured: bool) -> InsertRow {
    let at = kernel::ids::now() - Duration::days(days_ago);
    let slug = crate::slug::slugify(title);
    let r = crate::derive::render_markdown(&format!("Body of **{title}** about things."));
    InsertRow {
        id: kernel::ids::new_id(),
        search_text: crate::draft::search_text(
            title,
            &format!("Body of **{title}** about things."),
            &r.excerpt,
        ),
        slug,
        title: title.into(),
        subtitle: None,
        content: format!("Body of **{title}** about things."),
        category: category.as_str().into(),
        cover_image: None,
        featured,
        status: status.into(),
        author_id: None,
        created_at: at,
        updated_at: at,
        excerpt: r.excerpt,
        content_html: r.html,
        reading_minutes: r.reading_minutes,
        first_published_at: (status == "published").then_some(at),
        stage: status.into(),
        publish_at: None,
        updated_by: None,
    }
}

/// A move of `id` (at `from`, `version`) to `to`, at `at`.
fn moved(
    id: &str,
    from: &str,
    version: i64,
    to: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> StageChange {
    StageChange {
        id: id.into(),
        from_stage: from.into(),
        version,
        stage: to.into(),
        publish_at: None,
        submitted_at: None,
        review_note: None,
        review_note_by: None,
        review_note_at: None,
        first_published_at: (to == "published").then_some(at),
        updated_at: at,
        updated_by: None,
        event: EventRow {
            id: kernel::ids::new_id(),
            article_id: id.into(),
            actor_id: None,
            action: "publish".into(),
            from_stage: Some(from.into()),
            to_stage: to.into(),
            note: None,
            publish_at: None,
            at,
        },
    }
}

fn query(q: &str, categories: Vec<Category>, limit: i64, offset: i64, sort: Sort) -> ListQuery {
    ListQuery {
        q: q.into(),
        categories,
        limit,
        offset,
        sort,
        ..ListQuery::default()
    }
}

/// Runs every check against a store over a database with no articles; `author` is the id of
/// an existing staff member (articles reference their author).
pub async fn run(store: Arc<dyn ContentStore>, author: &str) {
    let rows = [
        row(
            "Alpha Climate",
            Category::ClimateJustice,
            "published",
            1,
            false,
        ),
        row("Beta Rights", Category::HumanRights, "published", 2, true),
        row("Gamma Draft", Category::ClimateJustice, "draft", 0, false),
        row(
            "Délta Émigré",
            Category::YouthActivism,
            "published",
            3,
            false,
        ),
        row(
            "Epsilon 100% sure_thing",
            Category::DigitalDemocracy,
            "published",
            4,
            false,
        ),
    ];
    for r in &rows {
        store.insert(r).await.unwrap();
    }
    assert_eq!(store.count_all().await.unwrap(), 5);
    assert_eq!(store.count_published().await.unwrap(), 4);

    // Newest first, drafts never listed.
    let (items, total) = store
        .list_published(&query("", vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    let titles: Vec<_> = items.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Alpha Climate",
            "Beta Rights",
            "Délta Émigré",
            "Epsilon 100% sure_thing"
        ]
    );
    assert_eq!(total, 4);
    assert!(items[1].featured);

    // Featured first.
    let (items, _) = store
        .list_published(&query("", vec![], 3, 0, Sort::Featured))
        .await
        .unwrap();
    assert_eq!(items[0].title, "Beta Rights");
    assert_eq!(items.len(), 3);

    // Pagination keeps the order and the total.
    let (page, total) = store
        .list_published(&query("", vec![], 2, 2, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(total, 4);
    assert_eq!(page[0].title, "Délta Émigré");

    // Case-insensitive search on title/content, including non-ASCII; wildcards are literal.
    let (found, total) = store
        .list_published(&query("émigré", vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!((found.len(), total), (1, 1));
    let (found, _) = store
        .list_published(&query("ALPHA", vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(found[0].title, "Alpha Climate");
    let (found, _) = store
        .list_published(&query("100%", vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    let (found, _) = store
        .list_published(&query("_", vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(found.len(), 1, "underscore must not be a wildcard");

    // Any-of categories; drafts excluded even when their category matches.
    let (found, total) = store
        .list_published(&query(
            "",
            vec![Category::ClimateJustice, Category::HumanRights],
            10,
            0,
            Sort::Newest,
        ))
        .await
        .unwrap();
    assert_eq!(total, 2);
    assert!(found.iter().all(|r| r.title != "Gamma Draft"));

    // One article by slug or id; drafts are not found.
    let by_slug = store
        .find_published("alpha-climate")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(by_slug.card.title, "Alpha Climate");
    assert!(by_slug.content_html.contains("<strong>"));
    let by_id = store.find_published(&rows[1].id).await.unwrap().unwrap();
    assert_eq!(by_id.card.slug, "beta-rights");
    assert!(store.find_published("gamma-draft").await.unwrap().is_none());
    assert!(store.find_published("nope").await.unwrap().is_none());

    // Timestamps survive the round trip.
    assert_eq!(by_slug.card.created_at, rows[0].created_at);

    // Slugs are unique.
    assert!(store.slug_taken("alpha-climate").await.unwrap());
    assert!(!store.slug_taken("omega").await.unwrap());
    assert!(store
        .insert(&row(
            "Alpha Climate",
            Category::ClimateJustice,
            "published",
            5,
            false
        ))
        .await
        .is_err());
    assert!(store
        .current_slug_for("alpha-climate-old")
        .await
        .unwrap()
        .is_none());

    let slugs = store.published_slugs().await.unwrap();
    assert_eq!(slugs.len(), 4);

    // First published within a window, newest first; drafts never.
    let now = kernel::ids::now();
    let week: Vec<String> = store
        .published_between(now - Duration::hours(60), now)
        .await
        .unwrap()
        .into_iter()
        .map(|w| format!("{}|{}|{}", w.slug, w.title, w.category))
        .collect();
    assert_eq!(
        week,
        [
            "alpha-climate|Alpha Climate|Climate Justice",
            "beta-rights|Beta Rights|Human Rights"
        ]
    );
    assert!(store
        .published_between(now - Duration::days(30), now - Duration::days(10))
        .await
        .unwrap()
        .is_empty());

    // Titles by slug in one query, current or former slugs; drafts and unknown slugs left out.
    let mut renamed = rows[0].clone();
    renamed.title = "Alpha Climate Renamed".into();
    renamed.slug = "alpha-climate-renamed".into();
    renamed.search_text =
        crate::draft::search_text(&renamed.title, &renamed.content, &renamed.excerpt);
    assert_eq!(
        store
            .update(&renamed, Some("alpha-climate"), Some(1), None, None)
            .await
            .unwrap(),
        Updated::Written(2)
    );
    // Search follows the edit; any piece of text is found, across words and inside them.
    let found = |q: &'static str| {
        let store = store.clone();
        async move {
            store
                .list_published(&query(q, vec![], 10, 0, Sort::Newest))
                .await
                .unwrap()
                .0
                .into_iter()
                .map(|r| r.title)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(found("climate renamed").await, ["Alpha Climate Renamed"]);
    assert_eq!(found("MATE REN").await, ["Alpha Climate Renamed"]);
    assert_eq!(found("limat").await, ["Alpha Climate Renamed"]);
    assert!(
        found("\"quoted\"").await.is_empty(),
        "quotes are text, not syntax"
    );
    assert!(
        found("climate OR beta").await.is_empty(),
        "no query language either"
    );
    // An update based on an older version writes nothing; one of a gone article neither.
    let mut stale = renamed.clone();
    stale.title = "Lost".into();
    assert_eq!(
        store
            .update(&stale, None, Some(1), None, None)
            .await
            .unwrap(),
        Updated::Stale
    );
    let mut gone = renamed.clone();
    gone.id = "nope".into();
    assert_eq!(
        store.update(&gone, None, None, None, None).await.unwrap(),
        Updated::Gone
    );
    // Every save is a revision: the insert, then the rename (newest first).
    let revisions = store.revisions(&renamed.id).await.unwrap();
    assert_eq!(
        revisions
            .iter()
            .map(|r| (r.number, r.title.as_str()))
            .collect::<Vec<_>>(),
        [(2, "Alpha Climate Renamed"), (1, "Alpha Climate")]
    );
    assert_eq!(
        store.revision(&renamed.id, 1).await.unwrap().unwrap().title,
        "Alpha Climate"
    );
    assert!(store.revision(&renamed.id, 3).await.unwrap().is_none());
    assert_eq!(
        store.current_slug_for("alpha-climate").await.unwrap(),
        Some("alpha-climate-renamed".to_string())
    );
    let asked: Vec<String> = ["alpha-climate", "beta-rights", "gamma-draft", "nope"]
        .map(String::from)
        .to_vec();
    let mut titles = store.published_titles(&asked).await.unwrap();
    titles.sort();
    assert_eq!(
        titles,
        [
            (
                "alpha-climate".to_string(),
                "Alpha Climate Renamed".to_string()
            ),
            ("beta-rights".to_string(), "Beta Rights".to_string()),
        ]
    );
    assert!(store.published_titles(&[]).await.unwrap().is_empty());

    // Staff views: every status, newest first, of one author when asked.
    let mut mine = row("Zeta Mine", Category::HumanRights, "draft", 0, false);
    mine.author_id = Some(author.into());
    store.insert(&mine).await.unwrap();
    let all = store.staff_list(None).await.unwrap();
    assert_eq!(all.len(), 6);
    assert!(all.iter().any(|r| r.status == "draft"));
    assert!(all
        .windows(2)
        .all(|w| w[0].card.created_at >= w[1].card.created_at));
    let own = store.staff_list(Some(author)).await.unwrap();
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].card.title, "Zeta Mine");
    assert!(own[0].content.contains("**Zeta Mine**"));
    assert!(store
        .staff_get(&mine.id, Some(author))
        .await
        .unwrap()
        .is_some());
    assert!(store
        .staff_get(&mine.id, Some("w2"))
        .await
        .unwrap()
        .is_none());
    assert!(store.staff_get(&mine.id, None).await.unwrap().is_some());
    assert!(store.staff_get("nope", None).await.unwrap().is_none());

    // Search sees an article exactly while it is published, and only in its category.
    let searched = |categories: Vec<Category>| {
        let store = store.clone();
        let title = mine.title.clone();
        async move {
            let (rows, total) = store
                .list_published(&query(&title, categories, 10, 0, Sort::Newest))
                .await
                .unwrap();
            (rows.into_iter().map(|r| r.id).collect::<Vec<_>>(), total)
        }
    };
    assert_eq!(searched(vec![]).await, (vec![], 0), "a draft is not found");
    // Publishing: a move made only from the stage and version it was asked from; public at
    // once, with its entry in the audit log.
    assert!(store.find_published("zeta-mine").await.unwrap().is_none());
    let at = kernel::ids::now();
    let version = store
        .staff_get(&mine.id, None)
        .await
        .unwrap()
        .unwrap()
        .version;
    assert!(store
        .change_stage(&moved(&mine.id, "draft", version, "published", at), None)
        .await
        .unwrap());
    assert!(store.find_published("zeta-mine").await.unwrap().is_some());
    assert!(!store
        .change_stage(&moved(&mine.id, "draft", version, "published", at), None)
        .await
        .unwrap());
    let published = store.staff_get(&mine.id, None).await.unwrap().unwrap();
    assert_eq!(published.status, "published");
    assert_eq!(published.stage, "published");
    assert_eq!(published.version, version + 1);
    assert_eq!(published.first_published_at, Some(at));
    assert_eq!(searched(vec![]).await, (vec![mine.id.clone()], 1));
    let home = Category::parse(&published.card.category).unwrap();
    assert_eq!(searched(vec![home]).await, (vec![mine.id.clone()], 1));
    let elsewhere = Category::ALL.into_iter().find(|c| *c != home).unwrap();
    assert_eq!(searched(vec![elsewhere]).await, (vec![], 0));
    assert!(!store
        .change_stage(&moved("nope", "draft", 1, "published", at), None)
        .await
        .unwrap());
    let events = store.events(&mine.id).await.unwrap();
    assert_eq!(
        events
            .iter()
            .map(|e| (e.action.as_str(), e.to_stage.as_str()))
            .collect::<Vec<_>>(),
        [("create", "draft"), ("publish", "published")]
    );

    // Scheduled publishing: due pieces go out once, however many ask at the same time, dated
    // by their scheduled time; the rest wait.
    let due_at = kernel::ids::now() - Duration::seconds(5);
    let mut due = row("Eta Due", Category::HumanRights, "draft", 3, false);
    due.stage = "scheduled".into();
    due.publish_at = Some(due_at);
    store.insert(&due).await.unwrap();
    let mut later = row("Theta Later", Category::HumanRights, "draft", 3, false);
    later.stage = "scheduled".into();
    later.publish_at = Some(kernel::ids::now() + Duration::hours(1));
    store.insert(&later).await.unwrap();
    let now = kernel::ids::now();
    let (a, b) = tokio::join!(store.publish_due(now), store.publish_due(now));
    let went: Vec<String> = a
        .unwrap()
        .into_iter()
        .chain(b.unwrap())
        .map(|w| w.slug)
        .collect();
    assert_eq!(went, ["eta-due"]);
    assert!(store.publish_due(now).await.unwrap().is_empty());
    let out = store.staff_get(&due.id, None).await.unwrap().unwrap();
    assert_eq!(
        (out.stage.as_str(), out.status.as_str()),
        ("published", "published")
    );
    assert_eq!(out.card.created_at, due_at);
    assert_eq!(out.first_published_at, Some(due_at));
    let log = store.events(&due.id).await.unwrap();
    assert_eq!(
        log.iter()
            .filter(|e| e.action == "scheduled_publish")
            .count(),
        1
    );
    assert!(store.find_published("theta-later").await.unwrap().is_none());
    for id in [&due.id, &later.id] {
        assert!(store.delete(id).await.unwrap());
    }

    // Deleting: gone everywhere, once (search included).
    let searched = store
        .list_published(&query(&mine.title, vec![], 10, 0, Sort::Newest))
        .await
        .unwrap()
        .1;
    let public = store.find_published(&mine.slug).await.unwrap().is_some();
    assert_eq!(
        searched,
        i64::from(public),
        "found by its title while it is public"
    );
    assert!(store.delete(&mine.id).await.unwrap());
    assert_eq!(
        store
            .list_published(&query(&mine.title, vec![], 10, 0, Sort::Newest))
            .await
            .unwrap()
            .1,
        0
    );
    assert!(!store.delete(&mine.id).await.unwrap());
    assert!(store.find_published("zeta-mine").await.unwrap().is_none());
    assert!(store.staff_get(&mine.id, None).await.unwrap().is_none());
    assert_eq!(store.count_all().await.unwrap(), 5);

    search_between_separators(&store).await;
    search_phrases(&store).await;
    search_follows_dates(&store).await;
}

/// `n` published articles titled "`prefix` 0", "`prefix` 1"…, all created at `at`.
fn of_one_instant(prefix: &str, n: usize, at: chrono::DateTime<chrono::Utc>) -> Vec<InsertRow> {
    (0..n)
        .map(|i| {
            let mut r = row(
                &format!("{prefix} {i}"),
                Category::HumanRights,
                "published",
                0,
                false,
            );
            r.created_at = at;
            r.updated_at = at;
            r
        })
        .collect()
}

/// Searching `q` finds exactly `rows`, all of one instant, in the listing's order (newest
/// first, then the larger id); then they are deleted.
async fn found_in_order_then_deleted(store: &Arc<dyn ContentStore>, q: &str, rows: &[InsertRow]) {
    let mut ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    ids.sort_by(|a, b| b.cmp(a));
    let (found, total) = store
        .list_published(&query(q, vec![], 100, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(total, i64::try_from(rows.len()).unwrap());
    assert_eq!(found.into_iter().map(|r| r.id).collect::<Vec<_>>(), ids);
    for r in rows {
        assert!(store.delete(&r.id).await.unwrap());
    }
}

/// Search results come newest first whatever order the articles were written in, page after
/// page, and an article whose date changes (a scheduled piece going out) moves with it.
async fn search_follows_dates(store: &Arc<dyn ContentStore>) {
    let hours_ago = |h: i64| kernel::ids::now() - Duration::hours(h);
    let mut rows = Vec::new();
    for (title, hours) in [("Quokka Old", 30), ("Quokka New", 10), ("Quokka Mid", 20)] {
        let mut r = row(title, Category::HumanRights, "published", 0, false);
        r.created_at = hours_ago(hours);
        r.updated_at = r.created_at;
        r.first_published_at = Some(r.created_at);
        store.insert(&r).await.unwrap();
        rows.push(r);
    }
    // Two in the same millisecond, written in the reverse of the listing's order.
    let same = hours_ago(15);
    for title in ["Quokka Twin B", "Quokka Twin A"] {
        let mut r = row(title, Category::HumanRights, "published", 0, false);
        r.created_at = same;
        r.updated_at = same;
        r.first_published_at = Some(same);
        store.insert(&r).await.unwrap();
        rows.push(r);
    }
    let titles = |limit: i64, offset: i64| {
        let store = store.clone();
        async move {
            let (found, total) = store
                .list_published(&query("quokka", vec![], limit, offset, Sort::Newest))
                .await
                .unwrap();
            (
                found.into_iter().map(|r| r.title).collect::<Vec<_>>(),
                total,
            )
        }
    };
    let mut twins = [rows[3].clone(), rows[4].clone()];
    twins.sort_by(|a, b| b.id.cmp(&a.id));
    let expected: Vec<String> = [
        "Quokka New".to_string(),
        twins[0].title.clone(),
        twins[1].title.clone(),
        "Quokka Mid".to_string(),
        "Quokka Old".to_string(),
    ]
    .into();
    assert_eq!(titles(10, 0).await, (expected.clone(), 5));
    assert_eq!(titles(2, 1).await, (expected[1..3].to_vec(), 5));
    assert_eq!(titles(2, 4).await, (expected[4..].to_vec(), 5));
    assert_eq!(titles(2, 6).await, (vec![], 5));

    // A scheduled piece goes out dated by its time: now the newest.
    let mut due = row(
        "Quokka Scheduled",
        Category::HumanRights,
        "draft",
        40,
        false,
    );
    due.stage = "scheduled".into();
    due.publish_at = Some(hours_ago(1));
    store.insert(&due).await.unwrap();
    assert_eq!(titles(1, 0).await, (vec!["Quokka New".to_string()], 5));
    assert_eq!(
        store.publish_due(kernel::ids::now()).await.unwrap().len(),
        1
    );
    assert_eq!(
        titles(2, 0).await,
        (
            vec!["Quokka Scheduled".to_string(), "Quokka New".to_string()],
            6
        )
    );
    for r in rows.iter().chain([&due]) {
        assert!(store.delete(&r.id).await.unwrap());
    }
    assert_eq!(titles(10, 0).await, (vec![], 0));

    // Many articles of one instant (an import of dated pieces): all written, all found, in
    // the listing's order.
    let instant = hours_ago(5);
    let many = of_one_instant("Quokka Batch", 70, instant);
    store.insert_many(&many).await.unwrap();
    found_in_order_then_deleted(store, "quokka batch", &many).await;

    // Written at once by many writers, all of one instant: each numbered, none lost.
    let racing = of_one_instant("Quokka Race", 20, instant);
    let mut writes = tokio::task::JoinSet::new();
    for r in &racing {
        let (store, r) = (store.clone(), r.clone());
        writes.spawn(async move { store.insert(&r).await });
    }
    while let Some(written) = writes.join_next().await {
        written.unwrap().unwrap();
    }
    found_in_order_then_deleted(store, "quokka race", &racing).await;
}

/// A published article of `title` and `content`, inserted.
async fn published_with(store: &Arc<dyn ContentStore>, title: &str, content: &str) -> InsertRow {
    let mut r = row(title, Category::HumanRights, "published", 6, false);
    r.content = content.into();
    r.search_text = crate::draft::search_text(title, content, "");
    store.insert(&r).await.unwrap();
    r
}

/// The titles of the first ten published articles holding `q`, newest first (all there are:
/// the total must agree).
async fn titles_holding(store: &Arc<dyn ContentStore>, q: &str) -> Vec<String> {
    let (items, total) = store
        .list_published(&query(q, vec![], 10, 0, Sort::Newest))
        .await
        .unwrap();
    assert_eq!(items.len() as i64, total, "{q:?}: total");
    items.into_iter().map(|r| r.title).collect()
}

/// Search finds any piece of the text whatever lies around it: pieces inside a word, with
/// punctuation, across each kind of whitespace (an engine may index words cut at whitespace,
/// and must still find text spanning it), and follows edits both ways.
async fn search_between_separators(store: &Arc<dyn ContentStore>) {
    let body = "Tabs\tand\u{b}vertical\u{c}feeds, non\u{a0}breaking and cr\r\nlines: \
                quixotic-zeal.";
    let r = published_with(store, "Iota Separators", body).await;
    let found = |q| titles_holding(store, q);
    for q in [
        "quixotic-ze",
        "XOTIC-ZEAL.",
        "eal.",
        "n\u{a0}brea",
        "and\u{b}vert",
        "tical\u{c}fe",
        "tabs\tand",
        "cr\r\nli",
        "feeds, non",
        "iota sep",
    ] {
        assert_eq!(found(q).await, ["Iota Separators"], "{q:?}");
    }
    for q in ["quixotic-zealous", "non breaking", "tabs and", "cr\nlines"] {
        assert!(found(q).await.is_empty(), "{q:?} is not in the text");
    }

    let mut edited = r.clone();
    edited.content = "Stoical calm.".into();
    edited.search_text = crate::draft::search_text(&edited.title, &edited.content, "");
    edited.updated_at = r.updated_at + Duration::seconds(1);
    assert_eq!(
        store
            .update(&edited, None, Some(1), None, None)
            .await
            .unwrap(),
        Updated::Written(2)
    );
    assert!(found("quixotic").await.is_empty(), "gone with the edit");
    assert!(found("zeal").await.is_empty(), "gone with the edit");
    assert_eq!(found("toical").await, ["Iota Separators"]);
    assert_eq!(found("iota sep").await, ["Iota Separators"]);
    // Phrases of the edited text: whole words, and pieces at either end.
    for q in ["stoical calm", "toical cal", "Stoical Calm."] {
        assert_eq!(found(q).await, ["Iota Separators"], "{q:?} after the edit");
    }
    for q in ["calm stoical", "stoical  calm", "iota calm"] {
        assert!(found(q).await.is_empty(), "{q:?} is not in the edited text");
    }
    assert!(store.delete(&r.id).await.unwrap());
    assert!(found("toical").await.is_empty());
    for q in ["stoical calm", "toical cal"] {
        assert!(found(q).await.is_empty(), "{q:?} gone with the article");
    }
}

/// Phrases of words side by side: whole words between the ends, the ends pieces of words,
/// exactly one space between each two; a phrase whose words are all there, but not in that
/// order or not side by side, is not found; and a phrase whose ends fit many words at once
/// is found all the same.
async fn search_phrases(store: &Arc<dyn ContentStore>) {
    // Seventy words ending in "qx", and one of them before "zorbing".
    let many: Vec<String> = (0..70).map(|n| format!("w{n}qx")).collect();
    let content = format!(
        "The committee voted on the zonal budget.\n\nBudget talks, then the vote. {} \
         zorbing today",
        many.join(" ")
    );
    let r = published_with(store, "Kappa Phrases", &content).await;
    let found = |q| titles_holding(store, q);
    for q in [
        "committee voted on the zonal",
        "mittee voted on the zo",
        "voted on",
        "ted o",
        "the zonal budget.",
        "talks, then the vote.",
        "w69qx zorbing",
        "qx zor",
        "w3qx w4qx w5qx",
    ] {
        assert_eq!(found(q).await, ["Kappa Phrases"], "{q:?}");
    }
    for q in [
        "voted committee",
        "committee on",
        "budget. budget",
        "the vote. then",
        "w68qx zorbing",
        "mittee vote on",
        "committee voted  on",
        "phrases the",
    ] {
        assert!(found(q).await.is_empty(), "{q:?} is not in the text");
    }
    assert!(store.delete(&r.id).await.unwrap());
    assert!(found("voted on").await.is_empty());
}
