//! The weekly digest: on its day and hour each subscribed reader gets the week's new articles
//! in their interests; a reader with nothing new gets nothing; the week is sent once, however
//! many instances run the job; its one-click unsubscribe stops it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use common::mail::{quoted_printable, token_in};
use common::{published, spawn_app, TestApp};
use content::Category;
use reqwest::Method;
use serde_json::json;

const SITE: &str = "https://agora.test";

fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
}

/// Every message the file transport wrote to `to`, decoded.
fn mail_to(app: &TestApp, to: &str) -> Vec<String> {
    raw_mail_to(app, to)
        .iter()
        .map(|m| quoted_printable(m))
        .collect()
}

/// Every message the file transport wrote to `to`, as written.
fn raw_mail_to(app: &TestApp, to: &str) -> Vec<String> {
    let dir = app.dir.0.join("data/outbox");
    std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|m| m.contains(&format!("To: {to}")))
        .collect()
}

async fn wait_mail(app: &TestApp, to: &str, pred: impl Fn(&String) -> bool) -> Vec<String> {
    let start = Instant::now();
    loop {
        let found: Vec<String> = mail_to(app, to).into_iter().filter(|m| pred(m)).collect();
        if !found.is_empty() || start.elapsed() > Duration::from_secs(15) {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A confirmed reader with these interests, subscribed to the digest or not.
async fn reader(app: &TestApp, email: &str, interests: &[&str], digest: bool) {
    let r = app
        .request(Method::POST, "/api/v1/accounts", None)
        .json(&json!({
            "first_name": "Kim", "last_name": "Lee", "email": email,
            "password": "correct horse", "confirm_password": "correct horse", "interests": interests
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mail = wait_mail(app, email, |m| m.contains("Confirm your email")).await;
    let token = token_in(&mail[0], &format!("{SITE}/email/confirm?token="));
    assert_eq!(
        app.get(&format!("/email/confirm?token={token}"))
            .await
            .status()
            .as_u16(),
        200
    );
    let r = app
        .request(Method::POST, "/api/v1/reader/session", None)
        .json(&json!({"email": email, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let r = app
        .request(
            Method::PUT,
            "/api/v1/reader/account/subscriptions",
            Some(&cookie),
        )
        .json(&json!({"magazine": false, "packs": false, "digest": digest}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
}

async fn article(app: &TestApp, title: &str, category: Category, when: DateTime<Utc>) {
    let mut a = published(title);
    a.category = category;
    a.subtitle = (category == Category::HumanRights).then(|| format!("Why {title} matters"));
    a.created_at = Some(when);
    app.services.content.create(a).await.unwrap();
}

async fn digests(app: &TestApp) -> i64 {
    let sql = "SELECT COUNT(*) FROM outbox WHERE subject LIKE '%this week on The Agora'";
    match &app.services.db {
        kernel::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        kernel::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
    }
}

/// The app's articles, for digest instances built here.
struct Articles(Arc<content::ContentService>);

#[async_trait::async_trait]
impl outreach::ArticleDirectory for Articles {
    async fn published_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<outreach::DigestArticle>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .0
            .published_between(from, to)
            .await?
            .into_iter()
            .map(|a| outreach::DigestArticle {
                title: a.title,
                slug: a.slug,
                category: a.category.as_str().to_string(),
                description: a.description,
            })
            .collect())
    }
}

fn instance(app: &TestApp) -> Arc<outreach::Digest> {
    Arc::new(outreach::Digest::new(
        outreach::digest_store_for(&app.services.db),
        Arc::new(Articles(app.services.content.clone())),
        outreach::DigestSettings {
            site_url: SITE.into(),
            site_name: "The Agora".into(),
            weekday: chrono::Weekday::Mon,
            hour: 7,
            claim: outreach::DEFAULT_DIGEST_CLAIM,
        },
    ))
}

on_both_engines! {
    async fn the_digest_brings_each_reader_the_weeks_articles_in_their_interests_once(engine: Engine) {
        let app = spawn_app(engine).await;
        reader(&app, "ria@example.org", &["Human Rights", "Digital Politics"], true).await;
        reader(&app, "cal@example.org", &["Climate Justice"], true).await;
        reader(&app, "nod@example.org", &["Human Rights"], false).await;
        // Monday 30 November 2026, 07:00 UTC: the week is 23-30 November.
        article(&app, "Rights in the Week", Category::HumanRights, at(2026, 11, 28, 10, 0)).await;
        article(&app, "Deepfakes in the Week", Category::DigitalDemocracy, at(2026, 11, 27, 9, 0)).await;
        article(&app, "Old Climate Piece", Category::ClimateJustice, at(2026, 11, 10, 9, 0)).await;
        article(&app, "After the Slot", Category::HumanRights, at(2026, 11, 30, 7, 30)).await;

        let (a, b) = (instance(&app), instance(&app));
        assert_eq!(a.run_due(at(2026, 11, 30, 6, 59)).await.unwrap(), None, "not yet");
        // Two instances at the same moment: one sends the week.
        let (ra, rb) = tokio::join!(a.run_due(at(2026, 11, 30, 7, 1)), b.run_due(at(2026, 11, 30, 7, 1)));
        let reports: Vec<_> = [ra.unwrap(), rb.unwrap()].into_iter().flatten().collect();
        assert_eq!(reports.len(), 1, "{reports:?}");
        assert_eq!(reports[0].period, "2026-W49");
        assert_eq!((reports[0].queued, reports[0].skipped), (1, 1), "Cal has nothing new");
        assert_eq!(a.run_due(at(2026, 11, 30, 9, 0)).await.unwrap(), None, "once per week");
        assert_eq!(digests(&app).await, 1);

        let mail = wait_mail(&app, "ria@example.org", |m| m.contains("this week on The Agora")).await;
        assert_eq!(mail.len(), 1);
        let m = &mail[0];
        assert!(m.contains("Subject: 2 new articles this week on The Agora"), "{m}");
        assert!(m.contains("Rights in the Week (Human Rights)"));
        assert!(m.contains("Deepfakes in the Week (Digital Democracy)"));
        assert!(m.contains(&format!("{SITE}/article/rights-in-the-week")));
        assert!(!m.contains("Old Climate Piece") && !m.contains("After the Slot"));
        assert!(m.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
        assert!(m.contains("Hi Kim!"), "greeted by first name: {m}");
        // And as HTML: each piece's picture, category, title, description and button.
        let raw = raw_mail_to(&app, "ria@example.org").into_iter().find(|r| r.contains("this week on")).unwrap();
        let letter = common::mail::parts(&raw);
        assert_eq!(letter.content_type, "multipart/alternative");
        let html = letter.html.expect("an HTML part");
        for expected in [
            ">Hi Kim!</p>",
            &format!("<img src=\"{SITE}/social/article/rights-in-the-week.jpg\""),
            ">Human Rights</p>",
            ">Rights in the Week</a>",
            ">Why Rights in the Week matters</p>",
            ">A new piece.</p>",
            ">Deepfakes in the Week</a>",
            &format!("href=\"{SITE}/article/deepfakes-in-the-week\""),
            ">Read it</a>",
            &format!("href=\"{SITE}/account\""),
        ] {
            assert!(html.contains(expected), "{expected} in\n{html}");
        }
        assert!(mail_to(&app, "cal@example.org").iter().all(|m| !m.contains("this week on")));
        assert!(mail_to(&app, "nod@example.org").iter().all(|m| !m.contains("this week on")));

        // The next week brings the article after the slot; then Ria unsubscribes from the
        // digest with its link, and the week after brings nothing.
        let report = b.run_due(at(2026, 12, 7, 8, 0)).await.unwrap().unwrap();
        assert_eq!((report.period.as_str(), report.queued), ("2026-W50", 1));
        let token = token_in(m, &format!("{SITE}/email/unsubscribe?token="));
        let page = app.get(&format!("/email/unsubscribe?token={token}")).await;
        assert_eq!(page.status().as_u16(), 200);
        let page = page.text().await.unwrap();
        assert!(page.contains("the weekly digest"), "the page names the list");
        let r = app
            .request(reqwest::Method::POST, "/api/v1/email/unsubscribe", None)
            .json(&serde_json::json!({ "token": token }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        // The same link now says so, and offers the digest back.
        let page = app.get(&format!("/email/unsubscribe?token={token}")).await;
        let page = page.text().await.unwrap();
        assert!(page.contains("You’re unsubscribed") || page.contains("You're unsubscribed"), "{page}");
        assert!(page.contains("Resubscribe"), "{page}");
        article(&app, "Next Rights Piece", Category::HumanRights, at(2026, 12, 9, 9, 0)).await;
        let report = a.run_due(at(2026, 12, 14, 8, 0)).await.unwrap().unwrap();
        assert_eq!(
            (report.queued, report.skipped),
            (0, 1),
            "Ria unsubscribed; Cal still has nothing new"
        );
        assert_eq!(digests(&app).await, 2);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_run_whose_instance_died_is_taken_over_within_a_minute(engine: Engine) {
        let app = spawn_app(engine).await;
        reader(&app, "ria@example.org", &["Human Rights"], true).await;
        article(&app, "Rights in the Week", Category::HumanRights, at(2026, 11, 28, 10, 0)).await;
        // An instance takes the week's run at 07:00 and dies before queuing anything.
        let store = outreach::digest_store_for(&app.services.db);
        let slot = at(2026, 11, 30, 7, 0);
        assert!(store.claim("2026-W49", slot, slot - chrono::Duration::minutes(1)).await.unwrap());
        let other = instance(&app);
        let seconds = chrono::Duration::seconds;
        assert_eq!(other.run_due(slot + seconds(30)).await.unwrap(), None, "its run for now");
        let report = other.run_due(slot + seconds(41)).await.unwrap().expect("taken over");
        assert_eq!((report.period.as_str(), report.queued), ("2026-W49", 1));
        assert_eq!(digests(&app).await, 1);
        // Once, whoever finishes: the week is done.
        assert_eq!(instance(&app).run_due(slot + seconds(200)).await.unwrap(), None);
        // The run records when it ended, not when it started.
        let sql = "SELECT finished_at > started_at FROM digest_runs WHERE period = '2026-W49'";
        let ended_later: bool = match &app.services.db {
            kernel::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
            kernel::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        };
        assert!(ended_later);
        app.shutdown().await;
    }
}

#[test]
fn the_digest_hour_and_day_are_checked_in_the_settings() {
    let with = |name: &'static str, value: &'static str| {
        agora::settings::Settings::load(&move |k| (k == name).then(|| value.to_string()))
    };
    assert!(with("DIGEST_DAY", "friday").is_ok());
    let err = with("DIGEST_DAY", "someday").unwrap_err().to_string();
    assert!(err.contains("DIGEST_DAY"), "{err}");
    let err = with("DIGEST_HOUR", "24").unwrap_err().to_string();
    assert!(err.contains("DIGEST_HOUR"), "{err}");
}
