//! The store conformance suite: one story, run against every engine by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use chrono::Duration;

use crate::model::{Category, ListQuery, Sort};
use crate::search::Query;
use crate::store::{ContentStore, EventRow, InsertRow, StageChange, Updated};

fn row(title: &str, category: Category, status: &str, days_ago: i64, featured: bool) -> InsertRow {
    let at = kernel::ids::now() - Duration::days(days_ago);
    let slug = crate::slug::slugify(title);
    let r = crate::derive::render_markdown(&format!("Body of **{title}** about things."));
    InsertRow {
        id: kernel::ids::new_id(),
        words: crate::search::suggestable_words([title, &r.plain]),
        body_text: r.plain,
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

/// The ids of the published articles `q` finds (in `categories`), newest first.
async fn search_ids(
    store: &Arc<dyn ContentStore>,
    q: &str,
    categories: Vec<Category>,
) -> Vec<String> {
    let mut found = store
        .search(&Query::parse(q), &categories, 100, 100)
        .await
        .unwrap()
        .matches;
    found.sort_by_key(|c| std::cmp::Reverse(c.created_at));
    found.into_iter().map(|c| c.id).collect()
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

    // Words are found whatever their case and accents; drafts never.
    let ids = |rows: &[&InsertRow]| rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    assert_eq!(search_ids(&store, "emigre", vec![]).await, ids(&[&rows[3]]));
    assert_eq!(search_ids(&store, "ALPHA", vec![]).await, ids(&[&rows[0]]));
    assert_eq!(
        search_ids(&store, "\"Body of\" things", vec![]).await.len(),
        4
    );
    assert!(search_ids(&store, "gamma", vec![]).await.is_empty());
    assert!(search_ids(&store, "%", vec![]).await.is_empty());
    assert_eq!(
        search_ids(&store, "things", vec![Category::HumanRights]).await,
        ids(&[&rows[1]])
    );
    // Cards come with the plain text to quote from; published ones only.
    let found = store.cards(&ids(&[&rows[1], &rows[2]])).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].card.id, rows[1].id);
    assert_eq!(found[0].body_text, rows[1].body_text);
    // The words of every save are known for suggestions.
    let words = store.words_between("e", "f", 3, 10, 100).await.unwrap();
    assert!(words.contains(&"epsilon".to_string()), "{words:?}");
    assert!(
        !words.iter().any(|w| w.starts_with(['a', 'b', 'f'])),
        "{words:?}"
    );
    assert!(store
        .words_between("e", "f", 8, 10, 100)
        .await
        .unwrap()
        .iter()
        .all(|w| w.chars().count() >= 8));

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
    renamed.body_text = "Now about the weather.".into();
    assert_eq!(
        store
            .update(&renamed, Some("alpha-climate"), Some(1), None, None)
            .await
            .unwrap(),
        Updated::Written(2)
    );
    // Search follows the edit.
    assert_eq!(
        search_ids(&store, "weather renamed", vec![]).await,
        [renamed.id.clone()]
    );
    assert!(search_ids(&store, "things alpha", vec![]).await.is_empty());
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
    assert!(
        store.published_authors().await.unwrap().is_empty(),
        "a draft makes nobody an author"
    );
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
            let ids = search_ids(&store, &title, categories).await;
            let total = ids.len() as i64;
            (ids, total)
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
    let searched = search_ids(&store, &mine.title, vec![]).await.len() as i64;
    let public = store.find_published(&mine.slug).await.unwrap().is_some();
    assert_eq!(
        searched,
        i64::from(public),
        "found by its title while it is public"
    );
    assert!(store.delete(&mine.id).await.unwrap());
    assert!(search_ids(&store, &mine.title, vec![]).await.is_empty());
    assert!(!store.delete(&mine.id).await.unwrap());
    assert!(store.find_published("zeta-mine").await.unwrap().is_none());
    assert!(store.staff_get(&mine.id, None).await.unwrap().is_none());
    assert_eq!(store.count_all().await.unwrap(), 5);

    // Authors: whoever has a published piece, with when the last of theirs changed.
    let mut older = row("Iota One", Category::HumanRights, "published", 9, false);
    older.author_id = Some(author.into());
    let mut newer = row("Kappa Two", Category::HumanRights, "published", 2, false);
    newer.author_id = Some(author.into());
    let mut draft = row("Lambda Draft", Category::HumanRights, "draft", 0, false);
    draft.author_id = Some(author.into());
    for r in [&older, &newer, &draft] {
        store.insert(r).await.unwrap();
    }
    assert_eq!(
        store.published_authors().await.unwrap(),
        [(author.to_string(), newer.updated_at)]
    );
    for r in [&older, &newer, &draft] {
        assert!(store.delete(&r.id).await.unwrap());
    }
    assert!(store.published_authors().await.unwrap().is_empty());

    search_keeps_up_with_the_stage(&store).await;
    a_phrase_is_looked_for_in_its_window(&store).await;
}

/// A phrase is checked in the newest `window` articles holding all its words only, and the
/// answer says when older ones were left unchecked; words alone are not held to a window.
async fn a_phrase_is_looked_for_in_its_window(store: &Arc<dyn ContentStore>) {
    let old = row(
        "Kappa Lambda Old",
        Category::HumanRights,
        "published",
        20,
        false,
    );
    let new = row(
        "Lambda Kappa New",
        Category::HumanRights,
        "published",
        10,
        false,
    );
    for r in [&old, &new] {
        store.insert(r).await.unwrap();
    }
    let search = |q: &'static str, window: i64| async move {
        let found = store
            .search(&Query::parse(q), &[], 100, window)
            .await
            .unwrap();
        let ids: Vec<String> = found.matches.into_iter().map(|c| c.id).collect();
        (ids, found.cut_short)
    };
    let phrase = "\"kappa lambda\"";
    assert_eq!(
        search(phrase, 1).await,
        (vec![], true),
        "only the newest read"
    );
    assert_eq!(search(phrase, 2).await, (vec![old.id.clone()], false));
    assert_eq!(search(phrase, 3).await, (vec![old.id.clone()], false));
    assert_eq!(search("kappa lambda", 1).await.0.len(), 2);
    assert!(!search("kappa lambda", 1).await.1);
    let phrase = Query::parse(phrase);
    assert!(!store.any_match(&phrase, &[], 1).await.unwrap());
    assert!(store.any_match(&phrase, &[], 2).await.unwrap());
    for r in [&old, &new] {
        assert!(store.delete(&r.id).await.unwrap());
    }
}

/// An article leaves search when it leaves the site and comes back with it, its second edit
/// included (a typo fix in a live piece keeps it found).
async fn search_keeps_up_with_the_stage(store: &Arc<dyn ContentStore>) {
    let mut live = row("Iota Live", Category::HumanRights, "published", 1, false);
    store.insert(&live).await.unwrap();
    assert_eq!(search_ids(store, "iota", vec![]).await, [live.id.clone()]);
    for (n, text) in [(2, "A typo fixed once."), (3, "A typo fixed twice.")] {
        live.body_text = text.into();
        assert_eq!(
            store
                .update(&live, None, Some(n - 1), None, None)
                .await
                .unwrap(),
            Updated::Written(n)
        );
        assert_eq!(
            search_ids(store, "iota typo", vec![]).await,
            [live.id.clone()]
        );
    }
    // The index's upkeep and compaction (merging the segments those saves wrote) change no
    // answer.
    store.upkeep().await.unwrap();
    store.compact_index().await.unwrap();
    assert_eq!(
        search_ids(store, "iota typo", vec![]).await,
        [live.id.clone()]
    );
    assert!(search_ids(store, "body", vec![Category::HumanRights])
        .await
        .iter()
        .all(|id| *id != live.id));
    let at = kernel::ids::now();
    assert!(store
        .change_stage(&moved(&live.id, "published", 3, "draft", at), None)
        .await
        .unwrap());
    assert!(search_ids(store, "iota", vec![]).await.is_empty());
    assert!(store
        .change_stage(&moved(&live.id, "draft", 4, "published", at), None)
        .await
        .unwrap());
    assert_eq!(search_ids(store, "iota", vec![]).await, [live.id.clone()]);
    assert!(store.delete(&live.id).await.unwrap());
    assert!(search_ids(store, "iota", vec![]).await.is_empty());
}
