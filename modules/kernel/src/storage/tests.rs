use super::{safe, Location, Storage, REQUEST_WITHIN};

/// A bucket at `endpoint`, with made-up credentials.
fn bucket_at(endpoint: &str) -> Storage {
    let builder = object_store::aws::AmazonS3Builder::new()
        .with_bucket_name("agora")
        .with_region("us-east-1")
        .with_access_key_id("test")
        .with_secret_access_key("test")
        .with_endpoint(endpoint)
        .with_allow_http(true);
    Storage::s3(builder, "", "uploads", "/media", REQUEST_WITHIN).unwrap()
}

/// Every kind of call gives up on a store that is frozen (it accepts connections and
/// never answers) or stopped (nothing listens): an error, not a wait as long as the outage.
#[tokio::test]
async fn a_store_that_does_not_answer_fails_the_call() {
    let frozen = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let frozen_at = format!("http://{}", frozen.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = frozen.accept().await {
            open.push(socket);
        }
    });
    // Bound but never listening: connections are refused, and no other process (tests run
    // in parallel) can take the port and answer in its place, as a released port allows.
    let stopped = tokio::net::TcpSocket::new_v4().unwrap();
    stopped.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let stopped_at = format!("http://{}", stopped.local_addr().unwrap());
    for (what, endpoint) in [("frozen", &frozen_at), ("stopped", &stopped_at)] {
        let storage = bucket_at(endpoint);
        let calls = async {
            tokio::join!(
                async { storage.head("covers/a.png").await.map(|_| ()) },
                async { storage.get("covers/a.png").await.map(|_| ()) },
                async { storage.stream("covers/a.png", None).await.map(|_| ()) },
                storage.delete("covers/a.png"),
            )
        };
        // A generous bound: the calls answer in seconds; before the deadlines they waited
        // for minutes.
        let (head, get, stream, delete) =
            tokio::time::timeout(std::time::Duration::from_secs(60), calls)
                .await
                .unwrap_or_else(|_| panic!("{what}: a call is still waiting after 60 s"));
        for (call, result) in [
            ("head", head),
            ("get", get),
            ("stream", stream),
            ("delete", delete),
        ] {
            let e = result.expect_err(&format!("{what}: {call} fails"));
            if what == "frozen" {
                assert_eq!(e.kind(), std::io::ErrorKind::TimedOut, "{call}: {e}");
            }
        }
    }
    held.abort();
    drop(stopped);
}

#[test]
fn keys_cannot_escape_their_area() {
    assert!(safe("covers/a.png"));
    for bad in [
        "../etc/passwd",
        "/etc/passwd",
        "covers/../../x",
        "",
        "./a",
        "covers/",
    ] {
        assert!(!safe(bad), "{bad}");
    }
}

#[test]
fn storage_urls() {
    assert_eq!(
        Location::parse("s3://agora-media/site-a/").unwrap(),
        Location::S3 {
            bucket: "agora-media".into(),
            prefix: "site-a".into()
        }
    );
    assert_eq!(
        Location::parse("s3://agora-media").unwrap(),
        Location::S3 {
            bucket: "agora-media".into(),
            prefix: String::new()
        }
    );
    assert_eq!(
        Location::parse("file:///srv/agora").unwrap(),
        Location::Local("/srv/agora".into())
    );
    assert!(Location::parse("s3://").is_err());
    assert!(Location::parse("gs://bucket").is_err());
}
