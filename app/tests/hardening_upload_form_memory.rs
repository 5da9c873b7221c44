//! An application posted as a plain HTML form (no JavaScript) is not held in memory either:
//! the page's form bridge spools the body to a temporary file and hands it on from there, so
//! eight applications of four 10 MB documents posted to `/application` at once add little to
//! the process's peak resident size. Alone in its test binary, so the measured peak
//! (`VmHWM`) is this test's; the request bodies are generated while they are sent.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;
mod upload_support;

use std::time::Duration;

use common::{spawn_app_with, Engine, Options};
use upload_support::{application_fields, four_documents, reset_peak, send_multipart, status_kb};

const APPLICATIONS: usize = 8;
const DOCUMENT_BYTES: usize = 10 * 1024 * 1024;
/// Growth of the peak resident size allowed for the whole burst, in MB. The documents
/// themselves are 320 MB; reading each form whole, as the bridge once did, grew it by more.
const GROWTH_LIMIT_MB: u64 = 80;

fn went_to(head: &str) -> String {
    head.lines()
        .find_map(|l| l.strip_prefix("location: "))
        .unwrap_or_default()
        .trim()
        .to_string()
}

// SQLite only: the peak must be this one case's, and it measures upload buffering, not the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn applications_posted_without_javascript_stay_small_in_memory() {
    let app = spawn_app_with(
        Engine::Sqlite,
        Options {
            // The outbox (which builds the team's email with the documents attached) is not
            // what is measured here: it waits until the burst is over.
            mail_poll: Duration::from_secs(3600),
            ..Options::default()
        },
    )
    .await;
    let address = app.address.clone();

    // A form missing a required field is sent back to its page with the answer kept.
    let mut incomplete = application_fields();
    incomplete.retain(|p| !p.is_text_named("full_name"));
    incomplete.extend(four_documents(1000));
    let (status, head, _) =
        send_multipart(&address, "/application", None, &incomplete, false).await;
    assert_eq!(status, 303, "{head}");
    assert_eq!(went_to(&head), "/application#answer");

    // A warm-up, so what is measured is the burst and not first-use allocations.
    let mut pieces = application_fields();
    pieces.extend(four_documents(1000));
    let (status, head, _) = send_multipart(&address, "/application", None, &pieces, false).await;
    assert_eq!(status, 303, "{head}");
    assert_eq!(went_to(&head), "/application/success");

    let reset = reset_peak();
    let before = if reset {
        status_kb("VmRSS")
    } else {
        status_kb("VmHWM")
    };
    let burst: Vec<_> = (0..APPLICATIONS)
        .map(|i| {
            let address = address.clone();
            tokio::spawn(async move {
                let mut pieces = application_fields();
                pieces.extend(four_documents(DOCUMENT_BYTES));
                // Half of them chunked, as a browser streaming a large form may send it.
                send_multipart(&address, "/application", None, &pieces, i % 2 == 0).await
            })
        })
        .collect();
    for r in burst {
        let (status, head, _) = r.await.unwrap();
        assert_eq!(status, 303, "{head}");
        assert_eq!(went_to(&head), "/application/success", "{head}");
    }
    let growth_mb = status_kb("VmHWM").saturating_sub(before) / 1024;
    eprintln!(
        "peak resident size grew by {growth_mb} MB during {APPLICATIONS} concurrent plain-form \
         applications of 4 x 10 MB (peak reset: {reset})"
    );
    assert!(
        growth_mb < GROWTH_LIMIT_MB,
        "peak resident size grew by {growth_mb} MB, bound {GROWTH_LIMIT_MB} MB"
    );
    app.shutdown().await;
}
