//! Search as readers use it, on a fixed set of articles with known answers, on both engines:
//! word order, word forms, phrases, `or` and `-word`, the last word as a prefix, short words,
//! case and accents, typos, title above body, freshness, drafts and scheduled pieces never —
//! and the page a reader sees, with and without JavaScript.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use chrono::Duration;
use common::{spawn_app, Engine, TestApp};
use content::{Category, NewArticle, Status};
use serde_json::Value;

/// A published article `days` old.
fn piece(title: &str, content: &str, days: i64) -> NewArticle {
    NewArticle {
        title: title.into(),
        subtitle: None,
        content: content.into(),
        category: Category::InternationalAffairs,
        cover_image: None,
        featured: false,
        status: Status::Published,
        author_id: None,
        created_at: Some(kernel::ids::now() - Duration::days(days) - Duration::minutes(5)),
    }
}

/// About 30 articles, each there to answer one question.
fn fixture() -> Vec<NewArticle> {
    let mut all = vec![
        piece(
            "The Veto, Explained: Who Really Decides at the UN Security Council?",
            "Five permanent members can block any resolution. A single **veto** stops a draft.",
            40,
        ),
        piece(
            "Security at School Gates",
            "Guards and cameras: what makes students feel safe.",
            3,
        ),
        piece(
            "Why Young People Vote",
            "Turnout rises when classes register together.",
            50,
        ),
        piece(
            "Voting Machines, Explained",
            "Paper trails and audits keep the count honest.",
            60,
        ),
        piece(
            "Campaigning on a Budget",
            "Student campaigns run on bake sales and group chats.",
            70,
        ),
        piece(
            "The Climate Strike Diaries",
            "We joined the climate strike on Friday morning.",
            80,
        ),
        piece(
            "A Strike About Wages",
            "Bus drivers went on strike; the climate of the talks was tense.",
            90,
        ),
        piece(
            "Referendum Season",
            "A referendum asks every voter one question.",
            100,
        ),
        piece(
            "What Is a Plebiscite?",
            "A plebiscite is a vote with no binding force.",
            110,
        ),
        piece(
            "Fun Facts About Parliament",
            "Parliament has odd traditions that are fun to understand.",
            120,
        ),
        piece(
            "How the Fund for Unity Works",
            "A fund for community projects, understood by few.",
            130,
        ),
        piece(
            "Deepfakes and the Next Election",
            "Fake clips travel fast before an election.",
            20,
        ),
        piece(
            "Election Night at the Town Hall",
            "Counting went on past midnight after the election.",
            25,
        ),
        piece(
            "Café Politics in Zürich",
            "Students meet in a café to argue about élections and more.",
            140,
        ),
        piece(
            "Housing Costs for Young Renters",
            "Rents doubled in ten years; housing is the first worry of young renters.",
            700,
        ),
        piece(
            "Why We Rent",
            "Housing, housing, housing: rents, housing costs and more housing news.",
            1,
        ),
        piece(
            "Bus Lanes and Bike Paths",
            "A city plan also mentions housing once among many things.",
            2,
        ),
        piece(
            "Tariffs, Explained for a New Trade Deal",
            "Tariffs are taxes on imports.",
            1,
        ),
        piece(
            "Tariffs, Explained for the Old Trade War",
            "Tariffs are taxes on imports.",
            900,
        ),
        piece(
            "A Short History of Referendums",
            "From ancient Athens to today, with a brief note on tariffs.",
            2,
        ),
        piece(
            "Ocean Plastic Is Everywhere",
            "Microplastics reach the deepest trenches.",
            150,
        ),
        piece(
            "Parliamentary Procedure for Beginners",
            "Motions, amendments and points of order.",
            160,
        ),
        piece(
            "Climate Anxiety and What Helps",
            "Talking about the climate helps more than doom scrolling.",
            170,
        ),
        piece(
            "Why Sanctions Rarely Work",
            "Sanctions hurt ordinary people first.",
            180,
        ),
        piece(
            "Censorship Online",
            "Platforms remove posts quickly; appeals are slow.",
            190,
        ),
        piece("Budget Day", "Ministers present the budget in spring.", 200),
        piece(
            "Migration Stories",
            "Families tell us why they moved and what they found.",
            210,
        ),
        piece(
            "A Vote of No Confidence",
            "The government lost a vote of no confidence on Tuesday.",
            220,
        ),
        piece(
            "Confidence Votes, Compared",
            "No vote here was lost; confidence stayed high.",
            230,
        ),
    ];
    let mut draft = piece(
        "Secret Draft on Quokkas",
        "Quokkas are the subject of an unpublished piece.",
        1,
    );
    draft.status = Status::Draft;
    all.push(draft);
    let mut categorised = piece(
        "Climate Courts",
        "Judges hear climate cases brought by students.",
        30,
    );
    categorised.category = Category::ClimateJustice;
    all.push(categorised);
    all
}

async fn app_with_fixture(engine: Engine) -> TestApp {
    let app = spawn_app(engine).await;
    app.services.content.import(fixture()).await.unwrap();
    app
}

/// `q` (as typed) through the public API, with extra parameters: the titles in order, and
/// the whole answer.
async fn titles(app: &TestApp, q: &str, extra: &str) -> (Vec<String>, Value) {
    let limit = if extra.contains("limit=") {
        ""
    } else {
        "&limit=50"
    };
    let url = format!("/api/v1/articles?q={}{limit}{extra}", url_escape(q));
    let (status, body) = app.json(&url).await;
    assert_eq!(status, 200, "{q}: {body}");
    let titles = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_string())
        .collect();
    (titles, body)
}

fn url_escape(q: &str) -> String {
    form_urlencoded::byte_serialize(q.as_bytes()).collect()
}

async fn found(app: &TestApp, q: &str) -> Vec<String> {
    titles(app, q, "").await.0
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

on_both_engines! {
    async fn readers_find_what_they_mean(engine: Engine) {
        let app = app_with_fixture(engine).await;
        let veto = "The Veto, Explained: Who Really Decides at the UN Security Council?";

        // Every word must match, in any order.
        assert_eq!(found(&app, "security veto").await, [veto]);
        assert_eq!(found(&app, "Veto security").await, [veto]);
        // Word forms: "votes" and "voting" find the vote; "campaigning" the campaign.
        for q in ["votes", "voting", "vote"] {
            let hits = found(&app, q).await;
            for title in ["Why Young People Vote", "Voting Machines, Explained", "What Is a Plebiscite?"] {
                assert!(hits.iter().any(|t| t == title), "{q} finds {title}: {hits:?}");
            }
        }
        assert!(found(&app, "campaign").await.contains(&"Campaigning on a Budget".to_string()));
        // A quoted phrase matches as a phrase, not as words apart.
        assert_eq!(found(&app, "\"climate strike\"").await, ["The Climate Strike Diaries"]);
        assert_eq!(
            sorted(found(&app, "climate strike").await),
            strings(&["A Strike About Wages", "The Climate Strike Diaries"])
        );
        assert_eq!(
            sorted(found(&app, "\"vote of no confidence\"").await),
            strings(&["A Vote of No Confidence"])
        );
        // `or` and `-word` as people type them in web search.
        assert_eq!(
            sorted(found(&app, "referendum OR plebiscite").await),
            strings(&["A Short History of Referendums", "Referendum Season", "What Is a Plebiscite?"])
        );
        assert_eq!(
            sorted(found(&app, "election -deepfakes").await),
            strings(&["Café Politics in Zürich", "Election Night at the Town Hall"])
        );
        // The last word also as the start of a longer one, while typing.
        let clim = found(&app, "clim").await;
        for title in ["The Climate Strike Diaries", "Climate Anxiety and What Helps", "Climate Courts"] {
            assert!(clim.contains(&title.to_string()), "clim finds {title}: {clim:?}");
        }
        assert!(found(&app, "parliam").await.contains(&"Fun Facts About Parliament".to_string()));
        // Short words are words: "UN" is not "fun", "fund", "unity" or "understand".
        assert_eq!(found(&app, "UN").await, [veto]);
        // Case and accents never matter.
        for q in ["ZURICH", "zürich", "Zurich cafe", "ÉLECTIONS café"] {
            assert_eq!(found(&app, q).await, ["Café Politics in Zürich"], "{q}");
        }
        // Drafts are never found.
        assert!(found(&app, "quokkas").await.is_empty());
        // Words too common to mean anything alone find nothing, rather than everything.
        assert!(found(&app, "the").await.is_empty());
        // Category chips filter the results.
        let (in_category, _) = titles(&app, "climate", "&category=Climate%20Justice").await;
        assert_eq!(in_category, ["Climate Courts"]);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn the_best_match_comes_first(engine: Engine) {
        let app = app_with_fixture(engine).await;
        // A title match beats a newer piece that mentions it in its body, however often; of
        // those, the one that mentions it more comes first.
        let housing = found(&app, "housing").await;
        assert_eq!(
            housing,
            ["Housing Costs for Young Renters", "Why We Rent", "Bus Lanes and Bike Paths"]
        );
        // Of two pieces equally about the query, the newer first; both above a passing mention
        // however new.
        let tariffs = found(&app, "tariffs").await;
        assert_eq!(
            tariffs,
            [
                "Tariffs, Explained for a New Trade Deal",
                "Tariffs, Explained for the Old Trade War",
                "A Short History of Referendums"
            ]
        );
        // A strong recent piece beats an old one about the same, and the reader can choose
        // newest first instead.
        let (best, _) = titles(&app, "election", "").await;
        assert_eq!(best[0], "Deepfakes and the Next Election");
        let (newest, body) = titles(&app, "election", "&sort=newest").await;
        assert_eq!(
            newest,
            [
                "Deepfakes and the Next Election",
                "Election Night at the Town Hall",
                "Café Politics in Zürich"
            ]
        );
        assert_eq!((body["total"].as_i64(), body["total_exact"].as_bool()), (Some(3), Some(true)));
        // A page far past the matches is empty, not an error.
        let (page, body) = titles(&app, "tariffs", "&limit=41&offset=9223372036854775806").await;
        assert!(page.is_empty());
        assert_eq!((body["total"].as_i64(), body["total_exact"].as_bool()), (Some(3), Some(true)));
        // Pages follow the order.
        let (first, _) = titles(&app, "tariffs", "&limit=1").await;
        let (second, _) = titles(&app, "tariffs", "&limit=1&offset=1").await;
        assert_eq!([first, second].concat(), tariffs[..2]);
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn results_show_why_they_matched(engine: Engine) {
        let app = app_with_fixture(engine).await;
        let (_, body) = titles(&app, "voting machines audits", "").await;
        let item = &body["items"][0];
        let parts = item["highlight"].as_array().unwrap();
        let marked: Vec<&str> = parts
            .iter()
            .filter(|p| p["marked"] == true)
            .map(|p| p["text"].as_str().unwrap())
            .collect();
        assert_eq!(marked, ["audits"], "{item}");
        let text: String = parts.iter().map(|p| p["text"].as_str().unwrap()).collect();
        assert!(text.starts_with("Paper trails and audits keep the count honest"), "{text}");
        // Found by its title alone: the card keeps its excerpt.
        let (_, body) = titles(&app, "voting machines", "").await;
        assert_eq!(body["items"][0]["title"], "Voting Machines, Explained");
        assert!(body["items"][0].get("highlight").is_none(), "{body}");
        // A highlight is the text a reader sees: HTML written in an article is not in it.
        app.services
            .content
            .import(vec![piece("Markup Test", "Use <b>bold</b> & <script>x</script> with care: markup.", 1)])
            .await
            .unwrap();
        let (_, body) = titles(&app, "markup care", "").await;
        let text: String = body["items"][0]["highlight"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["text"].as_str().unwrap())
            .collect();
        assert!(text.contains("bold") && !text.contains('<'), "{text}");
        app.shutdown().await;
    }
}

on_both_engines! {
    async fn a_typo_gets_the_word_the_site_uses(engine: Engine) {
        let app = app_with_fixture(engine).await;
        for (typed, meant) in [
            ("electon", "election"),
            ("parliment", "parliament"),
            ("sanctons work", "sanctions work"),
            ("Referendm season", "referendum season"),
        ] {
            let (hits, body) = titles(&app, typed, "").await;
            assert!(hits.is_empty(), "{typed}: {hits:?}");
            assert_eq!(body["suggestion"].as_str(), Some(meant), "{typed}");
            assert!(!found(&app, meant).await.is_empty(), "{meant} finds something");
        }
        // Nothing near: no suggestion; something found: none either; drafts' words never.
        for q in ["xylophonic", "election", "quokas"] {
            let (_, body) = titles(&app, q, "").await;
            assert!(body.get("suggestion").is_none(), "{q}: {body}");
        }
        app.shutdown().await;
    }
}

// Engine-independent: the markup of the page (its data is checked on both engines above).
#[tokio::test]
async fn the_page_shows_marks_suggestions_and_the_order_without_javascript() {
    let app = common::pages::ssr_app().await;
    app.services.content.import(fixture()).await.unwrap();
    let html = app
        .get("/articles?q=machines+audits")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("<mark>audits</mark>"), "{html}");
    assert!(
        html.contains("href=\"/articles?q=machines%20audits&amp;sort=newest\""),
        "{html}"
    );
    let html = app.get("/articles?q=electon").await.text().await.unwrap();
    assert!(html.contains("Did you mean"), "{html}");
    assert!(html.contains("href=\"/articles?q=election\""), "{html}");
    let html = app
        .get("/articles?q=election&sort=newest")
        .await
        .text()
        .await
        .unwrap();
    let newest = html.find("Deepfakes and the Next Election").unwrap();
    let older = html.find("Election Night at the Town Hall").unwrap();
    assert!(newest < older);
    assert!(
        html.contains("sort=newest\" class=\"order-option is-current\">Newest"),
        "{html}"
    );
    app.shutdown().await;
}
