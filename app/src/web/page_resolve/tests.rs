use super::*;
use content::{Article, ArticleCard, ArticleList, Category};
use kernel::Common;
use media::{MagazineIssue, Packs};
use outreach::Landing;

/// Where the web client keeps the sample: a TypeScript file typed as its `PageData`, so
/// `tsc` refuses the build when what the server sends and what the client expects part.
const SAMPLE: &str = "web-client/src/app/page-data.sample.ts";

fn sample_json() -> String {
    let at = chrono::DateTime::parse_from_rfc3339("2026-11-20T09:30:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let card = ArticleCard {
        id: "01a20974-3f9f-7951-8573-7b419ae5230e".into(),
        slug: "should-16-year-olds-vote".into(),
        title: "Should 16-Year-Olds Vote?".into(),
        subtitle: Some("Both sides, from the people it would affect.".into()),
        excerpt: "Every few years, someone proposes lowering the voting age…".into(),
        category: Category::YouthActivism,
        cover_image: Some("/media/demo/vote-at-sixteen.svg".into()),
        featured: true,
        author_id: Some("01a20974-3f90-7f40-8488-dc9b978fddf2".into()),
        author_name: Some("Maya O.".into()),
        author_slug: Some("maya-o".into()),
        created_at: at,
        updated_at: at,
        read_time: "4 min".into(),
        highlight: None,
    };
    let article = Article {
        card: card.clone(),
        content: "Every few years, **someone** proposes…".into(),
        content_html: "<p>Every few years, <strong>someone</strong> proposes…</p>".into(),
        description: "Both sides, from the people it would affect.".into(),
    };
    let list = ArticleList {
        items: vec![card],
        total: 1,
        total_exact: true,
        published_total: 6,
        suggestion: None,
    };
    let raw = RawValue::from_string(serde_json::to_string(&list).unwrap()).unwrap();
    let issue = MagazineIssue {
        slug: "november-2026".into(),
        title: "November 2026".into(),
        issue_date: "2026-11-01".into(),
        description: "Elections, climate talks and a youth parliament.".into(),
        cover_url: "/media/covers/november.png".into(),
        file_url: "/media/magazines/1767225600000-abc.pdf".into(),
        size_bytes: 4_200_000,
        published_at: at,
    };
    let packs = Packs {
        launched_at: Some(at),
        packs: vec![media::Pack {
            id: "democracy".into(),
            title: "How Democracy Works".into(),
            level: "High School".into(),
            file_url: Some("/media/packs/democracy-x.pdf".into()),
            size_bytes: Some(2_100_000),
            uploaded_at: Some(at),
        }],
    };
    let answer = crate::web::forms::FormAnswer {
        intent: String::new(),
        values: serde_json::json!({"email": "not-an-address", "interests": ["Human Rights"]})
            .as_object()
            .unwrap()
            .clone(),
        error: Some(kernel::ErrorBody::titled(
            Common::InvalidEmail,
            "Invalid Email",
            "Please enter a valid email address.",
        )),
        done: Some(serde_json::json!({"message": "Thanks!"})),
    };
    let form = RawValue::from_string(serde_json::to_string(&answer).unwrap()).unwrap();
    let related = content::Related {
        read_next: vec![article.card.clone()],
        author: Some(content::AuthorBox {
            name: "Maya O.".into(),
            slug: Some("maya-o".into()),
            role: Some("Writer".into()),
            articles: vec![article.card.clone()],
        }),
    };
    let contributor = content::Contributor {
        name: "Maya O.".into(),
        slug: "maya-o".into(),
        role: "Writer".into(),
        bio: "I write about elections.\nAnd school councils.".into(),
        photo: Some("/media/covers/maya.jpg".into()),
    };
    let landing = Landing {
        heading: "Your email is confirmed".into(),
        text: "Thank you! Your account is now active.".into(),
        link_href: "/login",
        link_label: "Go to login",
        status: 200,
        action: None,
    };
    let account = serde_json::json!({
        "first_name": "Noor",
        "last_name": "Haddad",
        "email": "noor@example.org",
        "interests": ["Human Rights"],
        "created_at": "2026-11-20T09:30:00Z",
        "subscriptions": {"magazine": true, "packs": false, "digest": true}
    });
    let at = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .map(|d| d.with_timezone(&chrono::Utc))
            .unwrap()
    };
    let responses = outreach::responses::ArticleResponses {
        open: true,
        responses: vec![outreach::responses::ShownResponse {
            id: "r1".into(),
            name: "Noor H.".into(),
            body: "Sixteen-year-olds already work and pay taxes.\n\nThey should vote.".into(),
            created_at: at("2026-11-21T10:00:00Z"),
        }],
    };
    let mine = vec![
        outreach::responses::MyResponse {
            id: "r2".into(),
            status: outreach::responses::ResponseStatus::Rejected,
            reason: Some("Please keep to the article's subject.".into()),
            body: "A response the desk did not take, for its reason.".into(),
            created_at: at("2026-11-22T10:00:00Z"),
            article_title: Some("Should 16-year-olds vote?".into()),
            article_slug: Some("should-16-year-olds-vote".into()),
        },
        outreach::responses::MyResponse {
            id: "r1".into(),
            status: outreach::responses::ResponseStatus::Pending,
            reason: None,
            body: "Sixteen-year-olds already work and pay taxes.".into(),
            created_at: at("2026-11-21T10:00:00Z"),
            article_title: None,
            article_slug: None,
        },
    ];
    // One page of each kind, at its own path and status.
    let pages = vec![
        ("/", 200, Shown::Home { home: Some(&raw) }),
        ("/nowhere", 404, Shown::NotFound { newest: Some(&raw) }),
        (
            "/articles?q=vote&category=Youth%20Activism",
            200,
            Shown::Articles {
                list: Some(&raw),
                list_query: ListQueryData {
                    q: "vote",
                    categories: vec![Category::YouthActivism.as_str()],
                    limit: 6,
                    newest: false,
                },
            },
        ),
        (
            "/category/youth-activism?limit=12",
            200,
            Shown::Category {
                list: Some(&raw),
                list_query: ListQueryData {
                    q: "",
                    categories: vec![Category::YouthActivism.as_str()],
                    limit: 12,
                    newest: false,
                },
            },
        ),
        (
            "/author/maya-o?limit=12",
            200,
            Shown::Author {
                author: &contributor,
                list: Some(&raw),
                list_query: ListQueryData {
                    q: "",
                    categories: Vec::new(),
                    limit: 12,
                    newest: false,
                },
            },
        ),
        (
            "/article/should-16-year-olds-vote",
            200,
            Shown::Article {
                article: ArticleOnPage::from(&article),
                related: &related,
                responses: Some(&responses),
            },
        ),
        (
            "/confirm?token=x",
            200,
            Shown::Landing { landing: &landing },
        ),
        (
            "/magazine",
            200,
            Shown::Magazine {
                issues: std::slice::from_ref(&issue),
            },
        ),
        (
            "/magazine/november-2026",
            200,
            Shown::Issue { issue: &issue },
        ),
        ("/educational-packs", 200, Shown::Packs { packs: &packs }),
        (
            "/account",
            200,
            Shown::Account {
                account: Some(&account),
                responses: Some(&mine),
            },
        ),
        ("/contact-us", 200, Shown::Plain),
    ];
    let data: Vec<PageData> = pages
        .into_iter()
        .map(|(path, status, shown)| PageData {
            site: Site {
                name: "The Agora",
                url: "https://agora.example",
            },
            path,
            status,
            shown,
            // What a form posted without JavaScript leaves on the page it answers.
            form: (path == "/contact-us").then_some(&*form),
            reader: path == "/account",
        })
        .collect();
    serde_json::to_string_pretty(&data).unwrap()
}

/// A page's data carries its article as the API answers it, less the body: neither the
/// markdown source nor the HTML, which the markup carries.
#[test]
fn an_article_page_carries_all_of_the_article_but_its_body() {
    let at = chrono::Utc::now();
    let article = Article {
        card: ArticleCard {
            id: "a".into(),
            slug: "s".into(),
            title: "T".into(),
            subtitle: Some("Sub".into()),
            excerpt: "E".into(),
            category: Category::YouthActivism,
            cover_image: None,
            featured: false,
            author_id: None,
            author_name: None,
            author_slug: None,
            created_at: at,
            updated_at: at,
            read_time: "1 min".into(),
            highlight: None,
        },
        content: "**Body**".into(),
        content_html: "<p><strong>Body</strong></p>".into(),
        description: "D".into(),
    };
    let mut whole = serde_json::to_value(&article).unwrap();
    assert!(whole.as_object_mut().unwrap().remove("content").is_some());
    assert!(whole
        .as_object_mut()
        .unwrap()
        .remove("content_html")
        .is_some());
    let on_page = serde_json::to_value(ArticleOnPage::from(&article)).unwrap();
    assert_eq!(on_page, whole);
}

/// A page of each kind, with every field the server can send; regenerate with
/// `UPDATE_SAMPLES=1 cargo test -p agora --lib page_data`.
#[test]
fn page_data_sample_matches_what_the_server_sends() {
    let expected = format!(
        "// Generated by the app's tests from the PageData it sends (app/src/web/page_resolve.rs):\n\
         // do not edit; regenerate with `UPDATE_SAMPLES=1 cargo test -p agora --lib page_data`.\n\
         import type {{ PageData }} from \"./page-data\";\n\n\
         export const samples: PageData[] = {};\n",
        sample_json()
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(SAMPLE);
    if std::env::var_os("UPDATE_SAMPLES").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "{SAMPLE} is not what the server sends: regenerate it with \
         `UPDATE_SAMPLES=1 cargo test -p agora --lib page_data`, then fix the web client's \
         PageData type if tsc complains"
    );
}
