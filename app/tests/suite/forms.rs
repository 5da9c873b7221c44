//! Public forms posted as plain HTML (no JavaScript): answered by the same API operation, then
//! a 303 back to the page (or where a success leads) with the answer kept once for that page.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::{spawn_app, TestApp};
use identity::Role;
use serde_json::Value;

const ORIGIN: &str = "https://agora.test";

pub(crate) async fn post_form(
    app: &TestApp,
    path: &str,
    body: &str,
    cookie: Option<&str>,
) -> reqwest::Response {
    app.request(reqwest::Method::POST, path, cookie)
        .header("origin", ORIGIN)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

/// The `name=value` of the cookie `name` the response sets, and its attributes.
pub(crate) fn set_cookie(r: &reqwest::Response, name: &str) -> Option<String> {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|v| v.starts_with(&format!("{name}=")))
}

/// The page data the page embeds for the renderer and the browser.
pub(crate) fn page_data(html: &str) -> Value {
    let open = "<script id=\"agora-data\" type=\"application/json\">";
    let start = html.find(open).expect("page data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap()
}

async fn contact_messages(app: &TestApp) -> usize {
    app.services
        .outbox
        .list(50)
        .await
        .unwrap()
        .iter()
        .filter(|m| m.subject.starts_with("[Contact"))
        .count()
}

on_both_engines! {
    async fn a_plain_form_is_answered_on_its_page_once_and_never_resubmitted(engine: Engine) {
        let app = spawn_app(engine).await;

        // Invalid: back to the page, the answer under a cookie only that page gets.
        let r = post_form(&app, "/contact-us", "first_name=Ada&email=ada%40example&message=Hi", None).await;
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()["location"], "/contact-us#answer");
        let cookie = set_cookie(&r, "agora_form").expect("the answer's cookie");
        assert!(cookie.contains("Path=/contact-us") && cookie.contains("HttpOnly"), "{cookie}");
        assert!(!cookie.contains("Ada"), "the cookie names the answer, it does not carry it");
        let pair = cookie.split(';').next().unwrap().to_string();
        assert_eq!(contact_messages(&app).await, 0);

        let page = app.request(reqwest::Method::GET, "/contact-us", Some(&pair)).send().await.unwrap();
        assert_eq!(page.status(), 200);
        assert!(page.headers()["cache-control"].to_str().unwrap().contains("no-store"));
        let forget = set_cookie(&page, "agora_form").expect("the cookie is cleared");
        assert!(forget.contains("Max-Age=0"), "{forget}");
        let data = page_data(&page.text().await.unwrap());
        let form = &data["form"];
        assert_eq!(form["error"]["code"], "missing_information");
        assert_eq!(form["error"]["message"], "Please fill in all required fields.");
        assert_eq!(form["values"]["first_name"], "Ada");
        assert_eq!(form["values"]["email"], "ada@example");
        // A NUL is refused, and not put back into the field.
        let r = post_form(&app, "/contact-us", "first_name=A%00da&email=ada%40example&message=Hi%0Athere", None).await;
        let pair_nul = set_cookie(&r, "agora_form").unwrap().split(';').next().unwrap().to_string();
        let page = app.request(reqwest::Method::GET, "/contact-us", Some(&pair_nul)).send().await.unwrap();
        let html = page.text().await.unwrap();
        assert!(!html.contains('\u{0}') && !html.contains("\\u0000"), "no NUL echoed");
        let values = &page_data(&html)["form"]["values"];
        assert_eq!((values["first_name"].as_str(), values["message"].as_str()), (Some("Ada"), Some("Hi\nthere")));
        // Read once: the same cookie again shows a plain page.
        let again = app.request(reqwest::Method::GET, "/contact-us", Some(&pair)).send().await.unwrap();
        assert!(page_data(&again.text().await.unwrap()).get("form").is_none());
        // Without the cookie the page is the shared one.
        assert!(page_data(&app.get("/contact-us").await.text().await.unwrap()).get("form").is_none());

        // Valid: sent once, then the page says so.
        let r = post_form(
            &app,
            "/contact-us",
            "first_name=Ada&last_name=Lovelace&email=ada%40example.org&subject=Packs&inquiry_type=education&message=Hello&website=",
            None,
        )
        .await;
        assert_eq!(r.status(), 303);
        let pair = set_cookie(&r, "agora_form").unwrap().split(';').next().unwrap().to_string();
        let page = app.request(reqwest::Method::GET, "/contact-us", Some(&pair)).send().await.unwrap();
        let data = page_data(&page.text().await.unwrap());
        assert!(data["form"]["done"]["message"].as_str().unwrap().starts_with("Thank you for your message."));
        assert!(data["form"].get("error").is_none());
        assert_eq!(contact_messages(&app).await, 1);
        // Reloading the page after the redirect is a GET: nothing is sent again.
        let _ = app.request(reqwest::Method::GET, "/contact-us", Some(&pair)).send().await.unwrap();
        assert_eq!(contact_messages(&app).await, 1);
    }
}

on_both_engines! {
    async fn forms_keep_their_rules_from_other_sites_and_secrets_out_of_answers(engine: Engine) {
        let app = spawn_app(engine).await;
        // Another site's form is refused by the same check as the API's.
        let r = app
            .request(reqwest::Method::POST, "/contact-us", None)
            .header("origin", "https://evil.example")
            .header("content-type", "application/x-www-form-urlencoded")
            .body("first_name=A&last_name=B&email=a%40b.org&subject=S&inquiry_type=general&message=M")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 303);
        let pair = set_cookie(&r, "agora_form").unwrap().split(';').next().unwrap().to_string();
        let page = app.request(reqwest::Method::GET, "/contact-us", Some(&pair)).send().await.unwrap();
        assert_eq!(page_data(&page.text().await.unwrap())["form"]["error"]["code"], "cross_site_request");
        assert_eq!(contact_messages(&app).await, 0);

        // A password is never kept to be shown again.
        let r = post_form(
            &app,
            "/signup",
            "first_name=N&last_name=H&email=n%40example.org&password=sesame-one&confirm_password=sesame-two",
            None,
        )
        .await;
        let pair = set_cookie(&r, "agora_form").unwrap().split(';').next().unwrap().to_string();
        let html = app.request(reqwest::Method::GET, "/signup", Some(&pair)).send().await.unwrap().text().await.unwrap();
        assert!(!html.contains("sesame"));
        assert_eq!(page_data(&html)["form"]["error"]["code"], "password_mismatch");

        // Pages without a form, and bodies that are not forms.
        assert_eq!(post_form(&app, "/about", "a=b", None).await.status(), 405);
        let r = app
            .request(reqwest::Method::POST, "/contact-us", None)
            .header("origin", ORIGIN)
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 415);
    }
}

on_both_engines! {
    async fn key_login_and_the_readers_account_work_as_plain_forms(engine: Engine) {
        let app = spawn_app(engine).await;
        let (_, key) = app.services.identity.add_staff("Ada Admin", Role::Admin).await.unwrap();
        let r = post_form(&app, "/key-login", "access_key=wrong", None).await;
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()["location"], "/key-login#answer");
        assert!(set_cookie(&r, "agora_session").is_none());
        let r = post_form(&app, "/key-login", &format!("access_key={key}"), None).await;
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()["location"], "/dashboard/admin");
        let session = set_cookie(&r, "agora_session").expect("signed in");
        let session = session.split(';').next().unwrap().to_string();
        let (status, me) = {
            let r = app.request(reqwest::Method::GET, "/api/v1/me", Some(&session)).send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        };
        assert_eq!((status, me["role"].as_str()), (200, Some("admin")));

        // The account page is the reader's own, never a shared copy.
        let r = app.get("/account").await;
        assert!(r.headers()["cache-control"].to_str().unwrap().contains("no-store"));
        assert!(page_data(&r.text().await.unwrap()).get("account").is_none());
    }
}
