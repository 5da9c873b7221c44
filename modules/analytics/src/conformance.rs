//! The store conformance suite: every method of [`AnalyticsStore`], run against every engine
//! by the app's tests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;

use chrono::Duration;

use crate::store::{AnalyticsStore, View};

fn view(path: &str, at: chrono::DateTime<chrono::Utc>) -> View {
    View {
        path: path.into(),
        at,
    }
}

/// Runs every check against a store over an empty database.
pub async fn run(store: Arc<dyn AnalyticsStore>) {
    let now = kernel::ids::now();
    let day = Duration::days(1);
    assert_eq!(store.total().await.unwrap(), 0);
    assert!(
        store.insert(&[]).await.is_ok(),
        "an empty batch is nothing to write"
    );

    // A batch larger than one statement holds (400 rows per INSERT).
    let mut batch: Vec<View> = (0..450).map(|_| view("/article/big", now)).collect();
    batch.extend([
        view("/article/small", now),
        view("/article/small", now - Duration::hours(1)),
        view("/article/old", now - day * 10),
        view("/about", now),
        view("/", now - day * 2),
    ]);
    store.insert(&batch).await.unwrap();
    assert_eq!(store.total().await.unwrap(), 455);

    // [from, to): the start counts, the end does not.
    assert_eq!(store.between(now, now + day).await.unwrap(), 452);
    assert_eq!(
        store.between(now - Duration::hours(1), now).await.unwrap(),
        1
    );
    assert_eq!(store.between(now - day * 30, now + day).await.unwrap(), 455);
    assert_eq!(store.between(now + day, now + day * 2).await.unwrap(), 0);

    // Windows on quarter hours (any time zone's days) are read from the rollup: the same
    // counts as the views themselves.
    let quarter =
        chrono::DateTime::from_timestamp(now.timestamp().div_euclid(900) * 900, 0).unwrap();
    assert_eq!(
        store
            .between(quarter - day * 40, quarter + day)
            .await
            .unwrap(),
        455
    );
    assert_eq!(
        store
            .between(quarter - day * 5, quarter - day)
            .await
            .unwrap(),
        1,
        "the / of two days ago"
    );
    let hour_ago_quarter = chrono::DateTime::from_timestamp(
        (now - Duration::hours(1)).timestamp().div_euclid(900) * 900,
        0,
    )
    .unwrap();
    assert_eq!(
        store
            .between(hour_ago_quarter, hour_ago_quarter + Duration::minutes(15))
            .await
            .unwrap(),
        1,
        "the quarter hour of the view an hour ago"
    );

    // The most viewed articles since a time, most viewed first, then by path; limited; whole
    // past days from the rollup, the rest from the views.
    assert_eq!(
        store
            .top_paths("/article/", now - day * 30, 10)
            .await
            .unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/small".to_string(), 2),
            ("/article/old".to_string(), 1)
        ]
    );
    let top = store
        .top_paths("/article/", now - day * 7, 10)
        .await
        .unwrap();
    assert_eq!(
        top,
        [
            ("/article/big".to_string(), 450),
            ("/article/small".to_string(), 2)
        ]
    );
    let top = store
        .top_paths("/article/", now - day * 30, 1)
        .await
        .unwrap();
    assert_eq!(top, [("/article/big".to_string(), 450)]);
    assert!(store
        .top_paths("/article/", now + day, 10)
        .await
        .unwrap()
        .is_empty());

    // The most-viewed window: rebuilt once per UTC day, by one caller however many race; the
    // answers from it are those of the per-day rows, and late views for its days count.
    let today = now.timestamp().div_euclid(crate::store::DAY);
    let (a, b, c) = tokio::join!(
        store.refresh_window(today),
        store.refresh_window(today),
        store.refresh_window(today)
    );
    let built = [a.unwrap(), b.unwrap(), c.unwrap()];
    assert_eq!(built.iter().filter(|b| **b).count(), 1, "{built:?}");
    assert!(!store.refresh_window(today).await.unwrap(), "once a day");
    let month = now - day * 29;
    assert_eq!(
        store.top_paths("/article/", month, 10).await.unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/small".to_string(), 2),
            ("/article/old".to_string(), 1)
        ]
    );
    store
        .insert(&[
            view("/article/old", now - day * 5),
            view("/article/old", now - day * 20),
            view("/article/old", now - day * 27),
            view("/article/old", now),
            view("/article/new", now - day * 3),
            view("/article/gone", now - day * 40),
        ])
        .await
        .unwrap();
    assert_eq!(
        store.top_paths("/article/", month, 10).await.unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/old".to_string(), 5),
            ("/article/small".to_string(), 2),
            ("/article/new".to_string(), 1)
        ]
    );
    assert_eq!(
        store.top_paths("/article/", month, 2).await.unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/old".to_string(), 5)
        ]
    );
    // Only paths whose views outside the window could lift them past the window's own top few
    // are looked up; those few always count in full.
    let mut more: Vec<View> = (0..20)
        .map(|_| view("/article/steady", now - day * 6))
        .collect();
    more.extend((0..10).map(|_| view("/article/old", now)));
    more.extend([
        view("/article/steady", now),
        view("/article/edge", now),
        view("/article/edge", now),
    ]);
    store.insert(&more).await.unwrap();
    assert_eq!(
        store.top_paths("/article/", month, 2).await.unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/steady".to_string(), 21)
        ]
    );
    assert_eq!(
        store.top_paths("/article/", month, 10).await.unwrap(),
        [
            ("/article/big".to_string(), 450),
            ("/article/steady".to_string(), 21),
            ("/article/old".to_string(), 15),
            ("/article/edge".to_string(), 2),
            ("/article/small".to_string(), 2),
            ("/article/new".to_string(), 1)
        ]
    );
    // A later day rebuilds it from the per-day rows: the same answers.
    assert!(store.refresh_window(today + 1).await.unwrap());
    assert!(!store.refresh_window(today).await.unwrap(), "never back");

    // Timestamps survive the round trip to the microsecond.
    let exact = kernel::ids::now() + day * 3;
    store.insert(&[view("/contact", exact)]).await.unwrap();
    assert_eq!(
        store
            .between(exact, exact + Duration::microseconds(1))
            .await
            .unwrap(),
        1
    );
}

/// The day's window rebuild racing view batches (over an empty database): every view counts
/// once in the most-viewed list, whether its batch landed before the rebuild read the per-day
/// rows (and is in the rebuild) or after the rebuild claimed the day (and topped it up).
pub async fn window_race(store: Arc<dyn AnalyticsStore>) {
    let now = kernel::ids::now();
    let day = Duration::days(1);
    let batch = |b: i64| -> Vec<View> {
        (0..120)
            .map(|i| {
                let path = format!("/article/p{}", (i * 7 + b) % 9);
                view(
                    &path,
                    now - Duration::days((i + b) % 27 + 1) - Duration::minutes(b),
                )
            })
            .collect()
    };
    let mut all: Vec<View> = batch(0);
    store.insert(&all).await.unwrap();
    let today = now.timestamp().div_euclid(crate::store::DAY);
    let mut racing = tokio::task::JoinSet::new();
    for b in 1..=8 {
        let store = store.clone();
        let views = batch(b);
        all.extend(views.clone());
        racing.spawn(async move { store.insert(&views).await.map(|()| false) });
    }
    {
        let store = store.clone();
        racing.spawn(async move { store.refresh_window(today).await });
    }
    let mut built = 0;
    while let Some(done) = racing.join_next().await {
        built += i32::from(done.unwrap().unwrap());
    }
    assert_eq!(built, 1, "the day's window was built once");
    let since = now - day * 29;
    let mut expected: std::collections::BTreeMap<String, i64> = Default::default();
    for v in all.iter().filter(|v| v.at >= since) {
        *expected.entry(v.path.clone()).or_default() += 1;
    }
    let mut expected: Vec<(String, i64)> = expected.into_iter().collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(
        store.top_paths("/article/", since, 20).await.unwrap(),
        expected
    );
}
