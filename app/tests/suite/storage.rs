//! Uploaded files on either backend — the data directory or an S3-compatible bucket — pass
//! the same storage suite and are served under `/media` with the same HTTP behaviour.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use crate::common;

use common::{s3_url, spawn_app_with, Backend, Engine, Options, TempDir};
use kernel::storage::{Location, Storage};

fn storage_for(backend: Backend, dir: &TempDir) -> Storage {
    let location = match backend {
        Backend::Local => Location::Local(dir.0.clone()),
        Backend::S3 => Location::parse(&s3_url().unwrap()).unwrap(),
    };
    Storage::open(
        &location,
        "uploads",
        "/media",
        kernel::storage::REQUEST_WITHIN,
    )
    .unwrap()
}

on_both_backends! {
    async fn storage_conforms(backend: Backend) {
        let dir = TempDir::new();
        kernel::storage::conformance::run(&storage_for(backend, &dir)).await;
    }
}

/// A PNG of `w`×`h` pixels.
fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().unwrap();
    writer
        .write_image_data(&vec![200u8; usize::try_from(w * h * 3).unwrap()])
        .unwrap();
    writer.finish().unwrap();
    out
}

on_both_backends! {
    async fn media_are_served_the_same_from_every_backend(backend: Backend) {
        let storage_url = match backend {
            Backend::Local => None,
            Backend::S3 => s3_url(),
        };
        let app = spawn_app_with(Engine::Sqlite, Options { storage_url, ..Options::default() }).await;
        let storage = &app.services.storage;
        let cover = png(64, 40);
        storage.put("covers/c.png", &cover).await.unwrap();
        storage.put("covers/c.webp", b"RIFF....WEBPVP8 fake").await.unwrap();
        storage.put("magazines/m.pdf", b"%PDF-1.7 an issue").await.unwrap();
        if backend == Backend::Local {
            assert!(app.data_dir().join("uploads/covers/c.png").is_file(), "on the local disk");
        } else {
            assert!(!app.data_dir().join("uploads/covers/c.png").exists(), "not on the local disk");
        }
        let get = |path: &str, headers: &[(&str, &str)]| {
            let mut r = app.client.get(format!("{}{path}", app.address));
            for (k, v) in headers {
                r = r.header(*k, *v);
            }
            r.send()
        };

        // Whole, with its type, validators, caching and security headers.
        let r = get("/media/covers/c.png", &[]).await.unwrap();
        assert_eq!(r.status(), 200);
        let h = r.headers().clone();
        assert_eq!(h["content-type"], "image/png");
        assert_eq!(h["cache-control"], "public, max-age=86400");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert!(h["content-security-policy"].to_str().unwrap().contains("sandbox"));
        assert_eq!(h["accept-ranges"], "bytes");
        assert_eq!(h["content-length"], cover.len().to_string().as_str());
        let etag = h["etag"].to_str().unwrap().to_string();
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        assert!(h.contains_key("last-modified"));
        assert_eq!(r.bytes().await.unwrap(), cover);

        // The WebP twin for browsers that take it, varying on Accept.
        let r = get("/media/covers/c.png", &[("accept", "image/webp,*/*")]).await.unwrap();
        assert_eq!(r.headers()["content-type"], "image/webp");
        assert_eq!(r.headers()["vary"], "Accept");
        assert_eq!(&r.bytes().await.unwrap()[..], b"RIFF....WEBPVP8 fake");

        // Revalidation.
        let r = get("/media/covers/c.png", &[("if-none-match", &etag)]).await.unwrap();
        assert_eq!(r.status(), 304);
        assert_eq!(r.headers()["etag"], etag.as_str());
        assert!(r.bytes().await.unwrap().is_empty());
        let r = get("/media/covers/c.png", &[("if-none-match", "\"other\"")]).await.unwrap();
        assert_eq!(r.status(), 200);
        let since = h["last-modified"].to_str().unwrap().to_string();
        let r = get("/media/covers/c.png", &[("if-modified-since", &since)]).await.unwrap();
        assert_eq!(r.status(), 304);
        let r = get("/media/covers/c.png", &[("if-match", "\"other\"")]).await.unwrap();
        assert_eq!(r.status(), 412);

        // Ranges: one, open-ended, from the end; unsatisfiable; for another version.
        let r = get("/media/covers/c.png", &[("range", "bytes=0-9")]).await.unwrap();
        assert_eq!(r.status(), 206);
        assert_eq!(r.headers()["content-range"], format!("bytes 0-9/{}", cover.len()).as_str());
        assert_eq!(r.headers()["content-length"], "10");
        assert_eq!(r.bytes().await.unwrap(), cover[..10]);
        let r = get("/media/covers/c.png", &[("range", "bytes=-4")]).await.unwrap();
        assert_eq!(r.status(), 206);
        assert_eq!(r.bytes().await.unwrap(), cover[cover.len() - 4..]);
        let r = get("/media/covers/c.png", &[("range", "bytes=5-")]).await.unwrap();
        assert_eq!(r.bytes().await.unwrap(), cover[5..]);
        let far = format!("bytes={}-", cover.len() + 10);
        let r = get("/media/covers/c.png", &[("range", &far)]).await.unwrap();
        assert_eq!(r.status(), 416);
        assert_eq!(r.headers()["content-range"], format!("bytes */{}", cover.len()).as_str());
        let r = get("/media/covers/c.png", &[("range", "bytes=0-9"), ("if-range", "\"old\"")])
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "a range of another version: the whole file");
        let r = get("/media/covers/c.png", &[("range", "bytes=0-9"), ("if-range", &etag)])
            .await
            .unwrap();
        assert_eq!(r.status(), 206);

        // HEAD: the headers, no body.
        let r = app
            .client
            .head(format!("{}/media/covers/c.png", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-length"], cover.len().to_string().as_str());

        // A cover stored before uploads made width copies gets each on its first request,
        // made once from the original and kept; a larger (lossless) twin is never preferred.
        storage.put("covers/old.png", &png(1000, 500)).await.unwrap();
        storage.put("covers/old.webp", &vec![b'x'; png(1000, 500).len() + 1]).await.unwrap();
        assert!(storage.head("covers/old.w400.webp").await.unwrap().is_none());
        let r = get("/media/covers/old.w400.webp", &[]).await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "image/webp");
        let copy = image::load_from_memory(&r.bytes().await.unwrap()).unwrap();
        assert_eq!((copy.width(), copy.height()), (400, 200));
        assert!(storage.head("covers/old.w400.webp").await.unwrap().is_some(), "kept");
        let r = get("/media/covers/old.png", &[("accept", "image/webp,*/*")]).await.unwrap();
        assert_eq!(r.headers()["content-type"], "image/png", "the smaller file");
        for path in ["/media/covers/none.w400.webp", "/media/covers/old.w401.webp",
                     "/media/covers/old.w400.png"] {
            assert_eq!(get(path, &[]).await.unwrap().status(), 404, "{path}");
        }

        // Issues open inline in the browser's viewer, their scripts sandboxed.
        let r = get("/media/magazines/m.pdf", &[]).await.unwrap();
        assert_eq!(r.headers()["content-type"], "application/pdf");
        assert_eq!(r.headers()["content-disposition"], "inline");
        assert!(r.headers()["content-security-policy"].to_str().unwrap().ends_with("; sandbox"));

        // Nothing else is served: missing files, paths out of the area, other methods.
        for path in ["/media/covers/none.png", "/media/../key-secret", "/media/%2e%2e/private/x",
                     "/media/covers/"] {
            let r = get(path, &[]).await.unwrap();
            assert_eq!(r.status(), 404, "{path}");
        }
        let r = app
            .client
            .post(format!("{}/media/covers/c.png", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 405);
        app.shutdown().await;
    }
}
