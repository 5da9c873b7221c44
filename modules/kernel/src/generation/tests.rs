use super::*;

/// What `g` announces next (a test fails if nothing is announced within 50 ms).
async fn announced(g: &Generation) -> Announcement {
    tokio::time::timeout(Duration::from_millis(50), g.local_change())
        .await
        .expect("a local change is announced")
}

#[test]
fn clones_share_one_counter() {
    let a = Generation::default();
    let b = a.clone();
    let before = b.current();
    a.advance(Scope::Lists);
    assert_eq!(b.current(), before + 1);
    b.advance_quietly(Scope::Lists, false);
    assert_eq!(a.current(), before + 2);
}

#[test]
fn a_page_is_changed_itself_only_when_named_or_everything_changed() {
    let g = Generation::default();
    let rendered = g.current();
    g.advance(Scope::Lists);
    assert!(g.current() > rendered, "the lists are stale");
    assert!(
        g.page("/article/vote-at-16") <= rendered,
        "no article page is"
    );

    g.advance(Scope::Pages(&[
        "/article/vote-at-16",
        "/article/votes-at-16",
    ]));
    assert!(g.page("/article/vote-at-16") > rendered);
    assert_eq!(g.page_itself("/article/vote-at-16"), g.current());
    assert_eq!(g.page_itself("/article/the-un-veto"), 0);
    assert!(
        g.page("/article/votes-at-16") > rendered,
        "the old slug too"
    );
    assert!(g.page("/article/the-un-veto") <= rendered);
    let after_edit = g.current();

    g.advance_quietly(Scope::Everything, false);
    assert!(g.page("/article/the-un-veto") > after_edit);
    assert_eq!(
        g.page_itself("/article/the-un-veto"),
        0,
        "not itself changed"
    );
    assert!(g.page("/article/vote-at-16") > after_edit);
    assert_eq!(g.page("/article/never-changed"), g.current());
}

#[test]
fn too_many_pages_to_remember_are_one_change_of_everything() {
    let g = Generation::default();
    let rendered = g.current();
    let slugs: Vec<String> = (0..=PAGES_TRACKED)
        .map(|n| format!("/article/piece-{n}"))
        .collect();
    let slugs: Vec<&str> = slugs.iter().map(String::as_str).collect();
    g.advance(Scope::Pages(&slugs[..10]));
    assert!(g.page("/article/an-untouched-piece") <= rendered);
    g.advance(Scope::Pages(&slugs));
    assert!(g.page("/article/an-untouched-piece") > rendered);
    assert!(
        g.0.pages.read().unwrap().is_empty(),
        "nothing left to look up"
    );
}

#[tokio::test]
async fn local_changes_are_announced_together_quiet_ones_are_not() {
    let g = Generation::default();
    g.advance_quietly(Scope::Everything, true);
    let woke = tokio::time::timeout(Duration::from_millis(50), g.local_change()).await;
    assert!(
        woke.is_err(),
        "a change from elsewhere is not announced again"
    );
    g.advance(Scope::Pages(&["/article/b-piece"]));
    g.advance(Scope::Lists);
    g.advance(Scope::Pages(&["/article/a-piece", "/article/b-piece"]));
    let change = announced(&g).await;
    assert_eq!(
        change,
        Announcement {
            what: Changed::Pages(vec!["/article/a-piece".into(), "/article/b-piece".into()]),
            withdrawn: false
        }
    );
    g.advance(Scope::Lists);
    g.advance(Scope::Everything);
    let change = announced(&g).await;
    assert_eq!(
        change,
        Announcement {
            what: Changed::Everything,
            withdrawn: false
        }
    );
    g.advance(Scope::Lists);
    g.withdraw(Scope::Pages(&["/article/a-piece"]));
    let change = announced(&g).await;
    assert_eq!(
        change,
        Announcement {
            what: Changed::Pages(vec!["/article/a-piece".into()]),
            withdrawn: true
        }
    );
}

#[test]
fn a_withdrawal_is_remembered_a_change_is_not() {
    let g = Generation::default();
    let rendered = g.current();
    g.advance(Scope::Pages(&["/article/vote-at-16"]));
    assert!(g.withdrawn_at() <= rendered, "a change may be sent stale");
    g.withdraw(Scope::Pages(&["/article/vote-at-16"]));
    assert!(g.withdrawn_at() > rendered);
    assert_eq!(g.withdrawn_at(), g.page("/article/vote-at-16"));
}

#[test]
fn announcements_read_back_as_sent() {
    for what in [
        Changed::Everything,
        Changed::Pages(vec![]),
        Changed::Pages(vec![
            "/article/vote-at-16".into(),
            "/article/the-un-veto".into(),
        ]),
    ] {
        for withdrawn in [false, true] {
            let change = Announcement {
                what: what.clone(),
                withdrawn,
            };
            let payload = change.payload("instance-1");
            assert_eq!(Announcement::parse(&payload), ("instance-1", change));
        }
    }
    // From an instance that does not send scopes yet.
    assert_eq!(
        Announcement::parse("instance-2"),
        ("instance-2", Announcement::ANYTHING)
    );
    // Too long for one NOTIFY: everything.
    let many = Announcement {
        what: Changed::Pages((0..2_000).map(|n| format!("/article/piece-{n}")).collect()),
        withdrawn: false,
    };
    let payload = many.payload("instance-1");
    assert!(payload.len() < 8_000);
    assert_eq!(
        Announcement::parse(&payload),
        (
            "instance-1",
            Announcement {
                what: Changed::Everything,
                withdrawn: false
            }
        )
    );
}

#[test]
fn an_announcement_from_elsewhere_marks_its_pages_here() {
    let here = Generation::default();
    let rendered = here.current();
    let (_, change) = Announcement::parse("other\nwithdrawn\n/article/vote-at-16");
    change.apply_to(&here);
    assert!(here.current() > rendered);
    assert!(here.page("/article/vote-at-16") > rendered);
    assert!(here.page("/article/the-un-veto") <= rendered);
    assert!(here.withdrawn_at() > rendered);
}
