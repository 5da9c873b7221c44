//! Decompression bombs cost nothing (issue 9): eight 11,000 × 11,000 PNG covers uploaded at
//! once are refused from their headers, and the process stays far from the gigabytes a full
//! decode of each would take. Alone in its test binary, so the measured peak (`VmHWM`) is
//! this test's.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;
mod upload_support;

use common::{spawn_app, Engine};
use identity::Role;
use reqwest::Method;
use serde_json::Value;
use upload_support::status_kb;

/// Peak resident size allowed for the whole test process, in MB. One decoded bomb alone is
/// 484 MB.
const PEAK_LIMIT_MB: u64 = 300;

// SQLite only: the peak must be this one case's, and bombs are refused before anything is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_concurrent_decompression_bombs_stay_under_the_memory_bound() {
    let app = spawn_app(Engine::Sqlite).await;
    let (_, key) = app
        .services
        .identity
        .add_staff("Uma", Role::Writer)
        .await
        .unwrap();
    let writer = app.login(&key).await;
    let bomb = upload_support::bomb(11_000);
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());

    let uploads = (0..8).map(|_| {
        let part = reqwest::multipart::Part::bytes(bomb.clone())
            .file_name("cover.png")
            .mime_str("image/png")
            .unwrap();
        app.request(Method::POST, "/api/v1/staff/covers", Some(&writer))
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
    });
    let mut answers = Vec::new();
    for r in futures_join(uploads).await {
        let r = r.unwrap();
        let status = r.status().as_u16();
        answers.push((status, r.json::<Value>().await.unwrap()));
    }
    let peak_mb = status_kb("VmHWM") / 1024;
    eprintln!("peak resident size with 8 concurrent bombs: {peak_mb} MB");
    for (status, body) in answers {
        assert_eq!(status, 413, "{body}");
        assert_eq!(
            body["message"],
            "Please upload an image of at most 40 megapixels"
        );
    }
    assert!(
        peak_mb < PEAK_LIMIT_MB,
        "peak resident size {peak_mb} MB, bound {PEAK_LIMIT_MB} MB"
    );
    app.shutdown().await;
}

/// Runs the futures concurrently (as spawned tasks) and returns their outputs in order.
async fn futures_join<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}
