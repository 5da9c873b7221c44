use chrono::Utc;

use super::*;

fn word(text: &str, prefix: bool) -> Term {
    Term::Word {
        text: text.into(),
        prefix,
    }
}

#[test]
fn words_in_any_order_each_a_group_and_the_last_also_a_prefix() {
    let q = Query::parse("Security Veto");
    assert_eq!(
        q.groups,
        vec![vec![word("security", false)], vec![word("veto", true)]]
    );
    assert_eq!(q.completing(), Some("veto"));
    // The word being typed matches the known words it starts too.
    let mut q = Query::parse("security clim");
    q.complete(&["climate".to_string(), "climb".to_string()]);
    assert_eq!(q.completing(), None);
    assert_eq!(
        q.fts5().as_deref(),
        Some("((\"security\") AND (\"clim\" OR \"climate\" OR \"climb\"))")
    );
    assert_eq!(
        q.tsquery().as_deref(),
        Some("('security') & ('clim' | 'climate' | 'climb')")
    );
    // A space after the last word: the reader finished it.
    assert_eq!(
        Query::parse("veto ").groups,
        vec![vec![word("veto", false)]]
    );
    // Short words are words.
    assert_eq!(Query::parse("UN").groups, vec![vec![word("un", false)]]);
}

#[test]
fn a_phrase_loosened_to_its_words_finds_a_superset() {
    // Without a phrase there is nothing to loosen.
    assert_eq!(Query::parse("climate strike").without_phrases(), None);
    // A phrase of its own: each word (not the stop words) must be there, in any order; a
    // phrase among alternatives stands for its first word; a left-out phrase is dropped (it
    // would leave out more than the search does), a left-out word is kept.
    let q = Query::parse("\"state of emergency\" \"climate strike\" or protest -\"hot take\" -war");
    let loose = q.without_phrases().unwrap();
    assert_eq!(
        loose.groups,
        vec![
            vec![word("state", false)],
            vec![word("emergency", false)],
            vec![word("climate", false), word("protest", false)],
        ]
    );
    assert_eq!(loose.excluded, vec![word("war", false)]);
    assert_eq!(loose.without_phrases(), None);
}

#[test]
fn phrases_or_and_left_out_words_as_in_web_search() {
    let q = Query::parse("\"climate strike\" vote OR election -war");
    assert_eq!(
        q.groups,
        vec![
            vec![Term::Phrase(vec!["climate".into(), "strike".into()])],
            vec![word("vote", false), word("election", false)],
        ]
    );
    assert_eq!(q.excluded, vec![word("war", false)]);
    assert_eq!(
        q.fts5().as_deref(),
        Some("((\"climate strike\") AND (\"vote\" OR \"election\")) NOT \"war\"")
    );
    assert_eq!(
        q.tsquery().as_deref(),
        Some("(('climate' <-> 'strike')) & ('vote' | 'election') & !'war'")
    );
    // An unclosed quote runs to the end; a hyphenated word is a phrase of its parts.
    assert_eq!(
        Query::parse("\"e-mail privacy").groups,
        vec![vec![Term::Phrase(vec![
            "e".into(),
            "mail".into(),
            "privacy".into()
        ])]]
    );
}

#[test]
fn syntax_typed_by_readers_is_never_the_engines_syntax() {
    for typed in [
        "NEAR(a b)",
        "title:veto",
        "a AND b",
        "x'); DROP TABLE articles; --",
        "'quoted' \\ back",
        "*",
        "\"",
        "-",
        "or",
        "(",
    ] {
        let q = Query::parse(typed);
        for rendered in [q.fts5(), q.tsquery()].into_iter().flatten() {
            for c in rendered.chars() {
                assert!(
                    c.is_alphanumeric() || " \"'()*:|&!<->".contains(c),
                    "{typed:?} gave {rendered:?}"
                );
            }
        }
    }
    assert!(Query::parse("\" - or").is_empty());
}

#[test]
fn words_too_common_to_search_are_left_out_unless_in_a_phrase() {
    let q = Query::parse("the vote of the council");
    assert_eq!(
        q.groups,
        vec![vec![word("vote", false)], vec![word("council", true)]]
    );
    assert_eq!(
        Query::parse("\"vote of no confidence\"").groups,
        vec![vec![Term::Phrase(
            ["vote", "of", "no", "confidence"]
                .map(String::from)
                .to_vec()
        )]]
    );
    assert!(Query::parse("the who").is_empty());
    assert_eq!(
        Query::parse("vote council -war")
            .any_term()
            .fts5()
            .as_deref(),
        Some("((\"vote\" OR \"council\"))")
    );
    assert!(Query::parse("-war").is_empty());
}

#[test]
fn best_match_blends_relevance_with_freshness() {
    let now = Utc::now();
    let day = chrono::Duration::days(1);
    let c = |id: &str, days: i64, relevance: f64| Candidate {
        id: id.into(),
        created_at: now - day * (days as i32),
        relevance,
    };
    // A strong recent piece beats an old passing mention; a strong old piece beats a
    // recent passing mention; equal matches come newest first.
    let mut found = vec![
        c("old-mention", 900, 1.0),
        c("old-strong", 700, 10.0),
        c("new-strong", 3, 10.0),
        c("new-mention", 1, 1.0),
        c("same-older", 20, 10.0),
    ];
    order(&mut found, true, now);
    let ids: Vec<&str> = found.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "new-strong",
            "same-older",
            "old-strong",
            "new-mention",
            "old-mention"
        ]
    );
    order(&mut found, false, now);
    assert_eq!(found[0].id, "new-mention");
    assert_eq!(found[4].id, "old-mention");
}

/// An excerpt as text, marked words in brackets.
fn shown(text: &str, query: &str) -> Option<String> {
    excerpt(text, &Query::parse(&format!("{query} "))).map(|parts| {
        parts
            .iter()
            .map(|p| {
                if p.marked {
                    format!("[{}]", p.text)
                } else {
                    p.text.clone()
                }
            })
            .collect()
    })
}

#[test]
fn excerpts_mark_word_forms_case_and_accents() {
    assert_eq!(
        shown(
            "Students voted.\n\nVoting age: the Émigré vote.",
            "votes emigre"
        )
        .as_deref(),
        Some("Students [voted]. [Voting] age: the [Émigré] [vote].")
    );
    // Words apart from a phrase, stop words and left-out words are not marked.
    assert_eq!(
        shown(
            "Loss and damage, and the loss of war.",
            "\"loss and damage\" -war"
        )
        .as_deref(),
        Some("[Loss] and [damage], and the [loss] of war.")
    );
    // Short words are words: "UN" is not in "fun".
    assert_eq!(shown("A fun day.", "UN"), None);
    assert_eq!(shown("Nothing here.", "vote"), None);
}

#[test]
fn excerpts_show_the_words_around_the_most_words_asked_for() {
    let filler = |n: usize| vec!["word"; n].join(" ");
    let text = format!(
        "{} climate alone. {} so the climate vote came at last {}.",
        filler(30),
        filler(30),
        filler(30)
    );
    assert_eq!(
        shown(&text, "climate vote").as_deref(),
        Some("…word so the [climate] [vote] came at last word word word word word word word word word word…")
    );
    // A phrase shows where its words are side by side, not where they are merely near.
    let text = format!(
        "{} the vote at our school {} a vote, school. {}",
        filler(30),
        filler(30),
        filler(30)
    );
    assert_eq!(
        shown(&text, "\"vote school\"").as_deref(),
        Some(format!("…word word a [vote], [school]. {}…", filler(13)).as_str())
    );
    // A match near the start shows the text from its start, without "…".
    assert_eq!(
        shown(&format!("The vote {}", filler(40)), "vote").as_deref(),
        Some(format!("The [vote] {}…", filler(16)).as_str())
    );
}

#[test]
fn typos_find_the_nearest_known_words() {
    let known: Vec<String> = ["elect", "election", "elections", "electoral", "erection"]
        .map(String::from)
        .to_vec();
    assert_eq!(nearest("electon", &known)[0], "election");
    assert_eq!(nearest("élection", &known)[0], "election");
    assert!(nearest("zzz", &known).is_empty());
    assert_eq!(prefix_end("clim").as_deref(), Some("clin"));
    assert_eq!(
        neighbourhood("electon"),
        Some(("e".into(), "f".into(), 5, 9))
    );
    assert_eq!(
        replace_word("Electon results, electon-night", "electon", "election"),
        "election results, election-night"
    );
    assert_eq!(
        suggestable_words(["The Vote 2024", "vote, VOTES! a x1"]),
        ["the", "vote", "votes"]
    );
}

#[test]
fn the_engine_scores_only_every_match_of_a_search_that_finds_few() {
    use super::scored;
    assert!(scored(0, 13, false));
    assert!(scored(12, 13, false));
    // As many as asked for: there may be more.
    assert!(!scored(13, 13, false));
    // More than are worth scoring.
    assert!(!scored(SCORED_AT_MOST + 1, 1001, false));
    // A phrase cut short by its window: older articles were not looked at.
    assert!(!scored(12, 1001, true));
}
