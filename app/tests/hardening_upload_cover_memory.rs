//! Covers cost bounded memory: eight 11,000 × 11,000 PNG covers (decompression bombs)
//! uploaded at once are refused from their headers, and three real 6,000 × 6,000 covers at
//! once (PNG and JPEG) are processed within one memory budget, whatever the number of cores.
//! Three is enough: a cover costs more than half the budget, so two processed together would
//! already pass the bound, and each cover processed costs about three seconds.
//! Alone in its test binary, so the measured peak (`VmHWM`) is this test's.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;
mod upload_support;

use common::{spawn_app, Engine};
use identity::Role;
use reqwest::Method;
use serde_json::Value;
use upload_support::{reset_peak, status_kb};

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
        app.request(Method::POST, "/api/v1/staff/covers", Some(&writer))
            .multipart(upload_support::cover_form(bomb.clone()))
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

    // Three real covers just under the pixel limit at once (36 megapixels each, 144 MB
    // decoded): processed within the budget, one at a time, instead of all at once.
    let big = upload_support::bomb(6_000);
    covers_at_once(
        &app,
        &writer,
        &big,
        3,
        (2000, 2000),
        "3 concurrent 6000 x 6000 covers",
    )
    .await;

    // The same as photos (JPEG), the format most covers come in.
    let photo = upload_support::gradient_jpeg(6_000, 6_000);
    assert!(photo.len() < 5 * 1024 * 1024, "{} bytes", photo.len());
    covers_at_once(
        &app,
        &writer,
        &photo,
        3,
        (2000, 2000),
        "3 concurrent 6000 x 6000 JPEG covers",
    )
    .await;

    // Tall covers just under the pixel limit and under twice the stored width (3,300 ×
    // 12,000): scaled down with the sharp filter rather than averaged, within the same bound.
    let tall = upload_support::flat_png(3_300, 12_000);
    covers_at_once(
        &app,
        &writer,
        &tall,
        3,
        (2000, 7273),
        "3 concurrent 3300 x 12000 covers",
    )
    .await;
    app.shutdown().await;
}

/// Uploads `cover` `n` times at once and checks each upload is stored at `size` (or told to
/// try again, never a 500), at least one is stored, and the peak resident size meanwhile
/// stays within what the decoding budget promises: the process as it was before, plus the
/// budget, or plus one cover's cost where a cover costs more than the whole budget (it is
/// then processed alone). Without the budget the `n` covers would be processed at once.
async fn covers_at_once(
    app: &common::TestApp,
    writer: &str,
    cover: &[u8],
    n: usize,
    size: (u64, u64),
    what: &str,
) {
    assert!(reset_peak(), "the peak can be measured again");
    let before_mb = status_kb("VmRSS") / 1024;
    let cost_mib = u64::from(media::decode_cost_mib(cover));
    let bound_mb =
        before_mb + cost_mib.max(u64::from(media::DECODE_BUDGET_MIB)) * 1_048_576 / 1_000_000;
    let uploads = (0..n).map(|_| {
        app.request(Method::POST, "/api/v1/staff/covers", Some(writer))
            .multipart(upload_support::cover_form(cover.to_vec()))
            .send()
    });
    let mut stored = 0;
    for r in futures_join(uploads).await {
        let r = r.unwrap();
        let status = r.status().as_u16();
        let retry_after = r.headers().get("retry-after").cloned();
        let body = r.json::<Value>().await.unwrap();
        match status {
            201 => {
                stored += 1;
                assert_eq!(
                    (body["width"].as_u64(), body["height"].as_u64()),
                    (Some(size.0), Some(size.1)),
                    "{what}"
                );
            }
            // Waited too long for its turn (a slow machine): told to try again, never a 500.
            503 => assert!(retry_after.is_some(), "{body}"),
            _ => panic!("{what}: {status}: {body}"),
        }
    }
    let peak_mb = status_kb("VmHWM") / 1024;
    eprintln!(
        "peak resident size with {what}: {peak_mb} MB ({stored} stored; {before_mb} MB before, \
         a cover costs {cost_mib} MiB)"
    );
    assert!(stored >= 1, "{what}: covers are processed");
    assert!(
        peak_mb < bound_mb,
        "{what}: peak resident size {peak_mb} MB, bound {bound_mb} MB ({before_mb} MB before)"
    );
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
