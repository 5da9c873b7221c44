//! Uploads are not held in memory (issue 9): eight applications of four 10 MB documents sent
//! at once add little to the process's peak resident size, where buffering them would add
//! hundreds of megabytes. Alone in its test binary, so the measured peak (`VmHWM`) is this
//! test's; the request bodies are generated while they are sent, never held by the client.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;
mod upload_support;

use std::time::Duration;

use common::{spawn_app_with, Engine, Options};
use upload_support::{application_fields, four_documents, post_multipart, reset_peak, status_kb};

const APPLICATIONS: usize = 8;
const DOCUMENT_BYTES: usize = 10 * 1024 * 1024;
/// Growth of the peak resident size allowed for the whole burst, in MB. The documents
/// themselves are 320 MB.
const GROWTH_LIMIT_MB: u64 = 80;

// SQLite only: the peak must be this one case's, and it measures upload buffering, not the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_applications_with_four_ten_megabyte_documents_stay_small_in_memory() {
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

    let mut pieces = application_fields();
    pieces.extend(four_documents(1000));
    // A warm-up, so what is measured is the burst and not first-use allocations.
    let (status, body) =
        post_multipart(&address, "/api/v1/applications", None, &pieces, false).await;
    assert_eq!(status, 201, "{body}");

    let reset = reset_peak();
    let before = if reset {
        status_kb("VmRSS")
    } else {
        status_kb("VmHWM")
    };
    let burst: Vec<_> = (0..APPLICATIONS)
        .map(|_| {
            let address = address.clone();
            tokio::spawn(async move {
                let mut pieces = application_fields();
                pieces.extend(four_documents(DOCUMENT_BYTES));
                post_multipart(&address, "/api/v1/applications", None, &pieces, false).await
            })
        })
        .collect();
    for r in burst {
        let (status, body) = r.await.unwrap();
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["attachments"], 4);
    }
    let growth_mb = status_kb("VmHWM").saturating_sub(before) / 1024;
    eprintln!(
        "peak resident size grew by {growth_mb} MB during {APPLICATIONS} concurrent applications \
         of 4 x 10 MB (peak reset: {reset})"
    );
    assert!(
        growth_mb < GROWTH_LIMIT_MB,
        "peak resident size grew by {growth_mb} MB, bound {GROWTH_LIMIT_MB} MB"
    );
    app.shutdown().await;
}
